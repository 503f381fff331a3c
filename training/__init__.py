"""SFT data selection and SFT, CISPO reinforcement learning through the context1 harness (SPEC §5).

The public names load on first use (PEP 562): `context1 --help` or `context1 search` register the
`train` commands through this package, and importing torch for them cost seconds of every CLI start.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "training.cispo": ("cispo_loss", "group_advantages", "is_constant_group"),
    "training.datums": ("sft_datums", "trajectory_to_datums", "turns_to_datums"),
    "training.reward": ("beta_for_epoch", "compute_reward", "curriculum_weights", "failure_cause", "prune_penalty",
                        "repeat_penalty", "returned_passages", "turn_penalty"),
    "training.rl": ("RLConfig", "RLResult", "train_rl"),
    "training.rollouts": ("evaluate_policy", "load_task_file"),
    "training.run_state": ("ForeignCheckpoint", "RunMismatch", "TrainingDiverged"),
    "training.sft": (
        "SFTConfig",
        "SFTResult",
        "generate_teacher_trajectories",
        "select_teacher_trajectories",
        "train_sft",
    ),
    "training.sft_select": ("select_sft",),
    "training.types": (
        "CurriculumConfig",
        "Datum",
        "RewardBreakdown",
        "RewardConfig",
        "SelectionResult",
        "SFTCandidate",
        "SFTSelectionConfig",
    ),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'training' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_MODULE_OF])


__all__ = [
    "CurriculumConfig",
    "Datum",
    "ForeignCheckpoint",
    "RLConfig",
    "RLResult",
    "RewardBreakdown",
    "RewardConfig",
    "RunMismatch",
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
    "failure_cause",
    "generate_teacher_trajectories",
    "group_advantages",
    "is_constant_group",
    "load_task_file",
    "prune_penalty",
    "repeat_penalty",
    "returned_passages",
    "select_sft",
    "select_teacher_trajectories",
    "sft_datums",
    "train_rl",
    "train_sft",
    "trajectory_to_datums",
    "turn_penalty",
    "turns_to_datums",
]
