"""The JSON wire format shared by the HTTP server, its Python client and the MCP server.

Hits, chunks, agent events and search results cross the wire as the JSON form of the very same
dataclasses (`corpus_tools.types`, `context1.types`, `context1.events`) and come back as those
dataclasses: `event_from_json(*event_to_json(e)) == e` for every event whose metadata is plain
JSON (what the harness and the backends put there). Pydantic's dataclass support does both
directions from the type hints, so a field added to a contract travels without touching this file.

Events are tagged by name (`EVENT_NAMES`), which is also the server-sent-event `event:` field.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from pydantic import TypeAdapter

from context1.events import (
    Event,
    FinalEvent,
    ModelTurnEvent,
    ObservationEvent,
    PruneEvent,
    RolloutEndEvent,
    ToolCallEvent,
    UsageEvent,
)
from context1.types import SearchResult, Trajectory
from corpus_tools.types import Chunk, Hit

# SSE event name of each event class (stable: clients in other languages switch on these).
EVENT_NAMES: dict[type, str] = {
    ModelTurnEvent: "model_turn",
    ToolCallEvent: "tool_call",
    ObservationEvent: "observation",
    PruneEvent: "prune",
    UsageEvent: "usage",
    RolloutEndEvent: "rollout_end",
    FinalEvent: "final",
}
EVENT_CLASSES: dict[str, type] = {name: cls for cls, name in EVENT_NAMES.items()}
# An SSE event that is not an agent event: the server ended the stream early (time limit, failure).
ERROR_EVENT = "error"


@cache
def _adapter(cls: type) -> TypeAdapter:
    return TypeAdapter(cls)


def hit_to_json(hit: Hit) -> dict[str, Any]:
    return _adapter(Hit).dump_python(hit, mode="json")


def hit_from_json(data: Any) -> Hit:
    return _adapter(Hit).validate_python(data)


def chunk_to_json(chunk: Chunk) -> dict[str, Any]:
    return _adapter(Chunk).dump_python(chunk, mode="json")


def chunk_from_json(data: Any) -> Chunk:
    return _adapter(Chunk).validate_python(data)


def _summary(trajectory: Trajectory) -> Trajectory:
    """The trajectory without its messages and steps (the query, documents, evidence, stop reason and
    budget stay)."""
    return dataclasses.replace(trajectory, messages=[], steps=[],
                               metadata={**trajectory.metadata, "steps_omitted": len(trajectory.steps)})


def trimmed(result: SearchResult, include_trajectory: bool) -> SearchResult:
    """`result` as sent to a client: unchanged, or with each rollout's turns left out (the default of /ask).

    A trimmed trajectory keeps its query, documents, evidence (the passages), stop reason, error and
    token budget, and
    `metadata["steps_omitted"]` says how many steps were left out; the type stays `SearchResult`.
    """
    if include_trajectory:
        return result
    return dataclasses.replace(result, trajectory=_summary(result.trajectory),
                               rollouts=[_summary(t) for t in result.rollouts])


def result_to_json(result: SearchResult, *, include_trajectory: bool = True) -> dict[str, Any]:
    return _adapter(SearchResult).dump_python(trimmed(result, include_trajectory), mode="json")


def result_from_json(data: Any) -> SearchResult:
    return _adapter(SearchResult).validate_python(data)


def event_to_json(event: Event) -> tuple[str, dict[str, Any]]:
    """(event name, JSON data) of one `SearchAgent.stream` event."""
    name = EVENT_NAMES.get(type(event))
    if name is None:
        raise ValueError(f"not a context1 event: {type(event).__name__}; expected one of {sorted(EVENT_CLASSES)}")
    return name, _adapter(type(event)).dump_python(event, mode="json")


def event_from_json(name: str, data: Any) -> Event:
    """The event dataclass back from `event_to_json`'s output."""
    cls = EVENT_CLASSES.get(name)
    if cls is None:
        raise ValueError(f"unknown event name {name!r}; expected one of {sorted(EVENT_CLASSES)}")
    return _adapter(cls).validate_python(data)
