"""SFT data selection and SFT, CISPO reinforcement learning through the context1 harness (SPEC §5)."""

from training.cispo import cispo_loss, group_advantages, is_constant_group
from training.datums import sft_datums, trajectory_to_datums, turns_to_datums
from training.reward import beta_for_epoch, compute_reward, curriculum_weights, prune_penalty, turn_penalty
from training.rl import RLConfig, RLResult, train_rl
from training.rollouts import evaluate_policy, load_task_file
from training.run_state import TrainingDiverged
from training.sft import SFTConfig, SFTResult, generate_teacher_trajectories, select_teacher_trajectories, train_sft
from training.sft_select import select_sft
from training.types import (
    CurriculumConfig,
    Datum,
    RewardBreakdown,
    RewardConfig,
    SelectionResult,
    SFTCandidate,
    SFTSelectionConfig,
)

__all__ = [
    "CurriculumConfig",
    "Datum",
    "RLConfig",
    "RLResult",
    "RewardBreakdown",
    "RewardConfig",
    "SFTCandidate",
    "SFTConfig",
    "SFTResult",
    "SFTSelectionConfig",
    "SelectionResult",
    "TrainingDiverged",
    "beta_for_epoch",
    "cispo_loss",
    "compute_reward",
    "curriculum_weights",
    "evaluate_policy",
    "generate_teacher_trajectories",
    "group_advantages",
    "is_constant_group",
    "load_task_file",
    "prune_penalty",
    "select_sft",
    "select_teacher_trajectories",
    "sft_datums",
    "train_rl",
    "train_sft",
    "trajectory_to_datums",
    "turn_penalty",
    "turns_to_datums",
]
