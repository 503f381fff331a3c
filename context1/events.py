"""Events `SearchAgent.stream` yields as an episode unfolds (plain dataclasses).

Order within one rollout, per turn:
    ModelTurnEvent, ToolCallEvent × n (before the calls run), ObservationEvent × n (call order),
    PruneEvent (if the turn pruned anything), UsageEvent
and once, at the very end, FinalEvent with the `SearchResult` (fused over rollouts in k× mode).
A turn without tool calls (the answer) yields ModelTurnEvent only. In k× mode the rollouts run
concurrently and their events interleave; `rollout` says which one each belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass

from context1.types import ModelTurn, Observation, SearchResult, StopReason, ToolCall


@dataclass(frozen=True)
class ModelTurnEvent:
    """The model produced a turn (`step` is its 0-based index in the trajectory)."""

    step: int
    turn: ModelTurn
    rollout: int = 0


@dataclass(frozen=True)
class ToolCallEvent:
    """A tool call about to run."""

    step: int
    call: ToolCall
    rollout: int = 0


@dataclass(frozen=True)
class ObservationEvent:
    """The harness's answer to one tool call (full text, as recorded)."""

    step: int
    observation: Observation
    rollout: int = 0


@dataclass(frozen=True)
class PruneEvent:
    """Chunks removed from the model's view in this step."""

    step: int
    chunk_ids: tuple[str, ...]
    rollout: int = 0


@dataclass(frozen=True)
class UsageEvent:
    """The visible context size after a step (the `[Token usage: X/Y]` figures)."""

    step: int
    tokens_used: int
    token_budget: int
    rollout: int = 0


@dataclass(frozen=True)
class RolloutEndEvent:
    """One rollout ended (emitted for every rollout, k× mode included, before FinalEvent)."""

    stop_reason: StopReason
    n_steps: int
    error: str | None = None
    rollout: int = 0


@dataclass(frozen=True)
class FinalEvent:
    """The episode (all rollouts) ended: ranked passages and documents, trajectories, usage, timings."""

    result: SearchResult


Event = ModelTurnEvent | ToolCallEvent | ObservationEvent | PruneEvent | UsageEvent | RolloutEndEvent | FinalEvent
