"""Contracts of training: datums, reward and selection configs, and what the loops report.

Shape suffixes follow tinker-cookbook: `_T` per token of a datum, `_G` per rollout of a group.
Every config default cites where its number comes from (SPEC.md §5 unless said otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Datum:
    """One training sequence: an append-only run of prompt and sampled tokens of one trajectory.

    input_ids_T: the tokens, in order (T of them).
    action_mask_T: 1 for tokens the model sampled (trained on), 0 for prompt and observation tokens.
    sampler_logprobs_T: the behaviour policy's logprob of each action token (0.0 elsewhere); the
        importance ratio of CISPO is taken against these, never against a recomputation.
    advantage: the trajectory's advantage, the same for every segment of that trajectory.
    trajectory_index: which trajectory of the batch it came from (segments share it).
    """

    input_ids_T: tuple[int, ...]
    action_mask_T: tuple[int, ...]
    sampler_logprobs_T: tuple[float, ...]
    advantage: float = 0.0
    trajectory_index: int = 0

    def __post_init__(self) -> None:
        n = len(self.input_ids_T)
        if len(self.action_mask_T) != n or len(self.sampler_logprobs_T) != n:
            raise ValueError(
                f"a Datum's per-token fields must have one entry per token: {n} ids, "
                f"{len(self.action_mask_T)} mask entries, {len(self.sampler_logprobs_T)} logprobs"
            )

    @property
    def n_actions(self) -> int:
        return sum(self.action_mask_T)


@dataclass(frozen=True)
class RewardConfig:
    """The RL reward, SPEC §5: clamp(w_f·F_beta + w_traj·r_traj + r_fa − p_prune − p_turn, ε, r_pre)."""

    f_beta_weight: float = 0.7  # SPEC §5: 0.7·F_beta
    trajectory_weight: float = 0.3  # SPEC §5: 0.3·r_traj (counters "one broad search then quit")
    answer_bonus: float = 1.0  # SPEC §5: r_fa = +1.0 when a returned chunk holds the final answer
    # (one of the first G returned passages, G = the task's gold units: reward.returned_passages)
    beta_start: float = 4.0  # SPEC §5: β = 4 at the start (recall weighted 16× precision) ...
    beta_end: float = 2.0  # ... annealed between epochs to β = 2 (4×)
    prune_penalty: float = 0.1  # SPEC §5: 0.1 per prune call beyond a streak of 3 ...
    prune_free_streak: int = 3
    prune_penalty_cap: float = 0.5  # ... capped at 0.5
    turn_penalty_start: int = 64  # SPEC §5: p_turn grows linearly from 0 at 64 turns ...
    turn_penalty_full: int = 128  # ... to 0.5 at 128 turns; with the episode's max_turns known both
    # marks scale to it (⌈max_turns·64/128⌉ → max_turns turns that called a tool; issue 37)
    turn_penalty_max: float = 0.5
    # Not in SPEC §5 (issue 37): each tool call identical to an earlier one costs this, capped,
    # so "repeat the same search" is not free when it finds nothing new.
    repeat_penalty: float = 0.1
    repeat_penalty_cap: float = 0.5
    # SPEC §5 floors completed trajectories at ε without giving a number: small enough never to
    # outrank a trajectory that found anything (one gold of ten at β=4 gives ~0.07), large enough
    # that "completed" beats "crashed" (which gets 0).
    epsilon: float = 0.01
    # Not in SPEC §5, which scores only completed answers: harness-1 charges an episode without a
    # usable answer instead of scoring the harness's fallback ranking (training/reward.py's table).
    empty_answer_penalty: float = 0.2  # answered, but no shown document could be parsed: reward −0.2
    no_answer_penalty: float = 0.5  # never answered (turn limit / token budget / overflow): reward −0.5
    granularity: str = "document"  # gold units the F_beta / recall terms count (eval.Granularity)


@dataclass(frozen=True)
class RewardBreakdown:
    """A reward and each of its terms (logged per step)."""

    reward: float
    f_beta: float
    beta: float
    recall: float
    trajectory_recall: float
    answer_found: float
    prune_penalty: float
    turn_penalty: float
    pre_penalty: float
    floored: bool = False
    concluded: bool = True  # False: no usable answer, the reward is −fallback_penalty (or 0 if failed)
    fallback_penalty: float = 0.0
    repeat_penalty: float = 0.0
    ending: str = "concluded"  # reward.CONCLUDED / EMPTY_ANSWER / NO_ANSWER
    failure: str | None = None  # reward.POLICY (overflow: a no-answer) / INFRASTRUCTURE (dropped) / None


@dataclass(frozen=True)
class CurriculumConfig:
    """Hop curriculum (SPEC §5): phase 1 skewed to few-hop tasks, phase 2 to many-hop tasks."""

    switch_at: float = 0.5  # fraction of training after which phase 2 starts
    # Sampling weight ratio between the favoured and the disfavoured end of the hop range.
    skew: float = 4.0


@dataclass(frozen=True)
class SFTSelectionConfig:
    """SFT data selection rules (SPEC §5); thresholds are SPEC's."""

    trajectory_recall_min: float = 0.5  # keep all with trajectory recall > 50% ...
    output_recall_min: float = 0.4  # ... and output recall > 40%
    # Lower-recall ones are kept with probability (score ** power) · low_recall_rate, where score
    # is min(1, traj/0.5, out/0.4)-style closeness to the thresholds: a diminishing rate.
    low_recall_rate: float = 0.5
    low_recall_power: float = 2.0
    negative_fraction: float = 0.05  # up to 5% zero-recall ones, deduplicated by query
    # "Explored well but concluded poorly": trajectory recall ≥ this and output recall below
    # poor_ratio × trajectory recall (trajectory recall ≫ output recall).
    explored_well: float = 0.5
    poor_ratio: float = 0.5
    seed: int = 0


@dataclass(frozen=True)
class SFTCandidate:
    """One teacher trajectory offered to SFT selection, with its metrics."""

    query: str
    trajectory_recall: float
    output_recall: float
    malformed: bool = False
    turns: int = 0


@dataclass
class SelectionResult:
    """Which candidates SFT keeps (indices into the input) and why each one was dropped or kept."""

    kept: list[int]
    reasons: dict[int, str] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for r in self.reasons.values():
            out[r] = out.get(r, 0) + 1
        return out
