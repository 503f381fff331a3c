"""Trajectories as JSONL: one `Trajectory` per line, round-tripping exactly.

    save_trajectories("runs/x.jsonl", [result.trajectory])
    trajs = load_trajectories("runs/x.jsonl")

Each line is `trajectory_to_dict(t)`: the dataclass fields with enums as their values, tuples as
lists, plus `"schema": 1`. Loading rebuilds the exact dataclasses (tuples where the contract says
tuple), so `load_trajectories(p) == trajs` after `save_trajectories(p, trajs)` as long as every
metadata / tool-argument value is plain JSON (str, number, bool, None, list, dict) — which is what
the harness and the backends put there.

Evidence (the returned passages, issue 34) is saved with its fields. A line written before
evidence existed (no "evidence" key) still loads: its passages are recomputed from the saved
observations (`context1.evidence.recompute_evidence`: each returned document's best shown
passage) and `metadata["evidence"]` says "recomputed", or "unknown" when no returned document's
chunks are in the record.

A truncated last line (a run killed mid-write) is skipped with a `TruncatedTrajectoryWarning`
naming the line; the lines before it load. A malformed line anywhere else raises ValueError with
its line number: that is corruption, not an interrupted append.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from context1.types import (
    Evidence,
    Message,
    ModelTurn,
    Observation,
    RankedDocument,
    Role,
    Step,
    StopReason,
    ToolCall,
    Trajectory,
)

SCHEMA_VERSION = 1


class TruncatedTrajectoryWarning(UserWarning):
    """The last line of a trajectory file was cut off and was skipped."""


def _tuple(values: Any) -> tuple | None:
    return None if values is None else tuple(values)


def _call_to_dict(c: ToolCall) -> dict[str, Any]:
    return {"id": c.id, "name": c.name, "arguments": dict(c.arguments), "raw_arguments": c.raw_arguments,
            "parse_error": c.parse_error}


def _call_from_dict(d: Mapping[str, Any]) -> ToolCall:
    return ToolCall(id=d["id"], name=d["name"], arguments=d.get("arguments", {}),
                    raw_arguments=d.get("raw_arguments", ""), parse_error=d.get("parse_error"))


def _message_to_dict(m: Message) -> dict[str, Any]:
    return {"role": m.role.value, "content": m.content, "tool_calls": [_call_to_dict(c) for c in m.tool_calls],
            "tool_call_id": m.tool_call_id, "name": m.name}


def _message_from_dict(d: Mapping[str, Any]) -> Message:
    return Message(role=Role(d["role"]), content=d.get("content", ""),
                   tool_calls=tuple(_call_from_dict(c) for c in d.get("tool_calls", ())),
                   tool_call_id=d.get("tool_call_id"), name=d.get("name"))


def _turn_to_dict(t: ModelTurn) -> dict[str, Any]:
    return {
        "text": t.text,
        "tool_calls": [_call_to_dict(c) for c in t.tool_calls],
        "prompt_token_ids": None if t.prompt_token_ids is None else list(t.prompt_token_ids),
        "token_ids": None if t.token_ids is None else list(t.token_ids),
        "logprobs": None if t.logprobs is None else list(t.logprobs),
        "prompt_tokens": t.prompt_tokens,
        "completion_tokens": t.completion_tokens,
        "finish_reason": t.finish_reason,
        "latency_s": t.latency_s,
        "reasoning": t.reasoning,
    }


def _turn_from_dict(d: Mapping[str, Any]) -> ModelTurn:
    return ModelTurn(
        text=d.get("text", ""),
        tool_calls=tuple(_call_from_dict(c) for c in d.get("tool_calls", ())),
        prompt_token_ids=_tuple(d.get("prompt_token_ids")),
        token_ids=_tuple(d.get("token_ids")),
        logprobs=_tuple(d.get("logprobs")),
        prompt_tokens=d.get("prompt_tokens", 0),
        completion_tokens=d.get("completion_tokens", 0),
        finish_reason=d.get("finish_reason"),
        latency_s=d.get("latency_s", 0.0),
        reasoning=d.get("reasoning"),
    )


def _obs_to_dict(o: Observation) -> dict[str, Any]:
    return {"call_id": o.call_id, "tool": o.tool, "text": o.text, "chunk_ids": list(o.chunk_ids),
            "doc_ids": list(o.doc_ids), "is_error": o.is_error, "n_tokens": o.n_tokens, "metadata": dict(o.metadata)}


def _obs_from_dict(d: Mapping[str, Any]) -> Observation:
    return Observation(call_id=d["call_id"], tool=d["tool"], text=d["text"], chunk_ids=tuple(d.get("chunk_ids", ())),
                       doc_ids=tuple(d.get("doc_ids", ())), is_error=d.get("is_error", False),
                       n_tokens=d.get("n_tokens", 0), metadata=d.get("metadata", {}))


def trajectory_to_dict(t: Trajectory) -> dict[str, Any]:
    """A JSON-ready dict of a trajectory (see the module docstring)."""
    return {
        "schema": SCHEMA_VERSION,
        "query": t.query,
        "messages": [_message_to_dict(m) for m in t.messages],
        "steps": [
            {"turn": _turn_to_dict(s.turn), "observations": [_obs_to_dict(o) for o in s.observations],
             "pruned": list(s.pruned), "tokens_used": s.tokens_used, "duration_s": s.duration_s}
            for s in t.steps
        ],
        "documents": [{"doc_id": d.doc_id, "justification": d.justification, "score": d.score} for d in t.documents],
        "evidence": [_evidence_to_dict(e) for e in t.evidence],
        "stop_reason": None if t.stop_reason is None else t.stop_reason.value,
        "error": t.error,
        "token_budget": t.token_budget,
        "metadata": t.metadata,
    }


def trajectory_from_dict(d: Mapping[str, Any]) -> Trajectory:
    """Rebuild a `Trajectory` from `trajectory_to_dict`'s output."""
    schema = d.get("schema", SCHEMA_VERSION)
    if schema != SCHEMA_VERSION:
        raise ValueError(f"unsupported trajectory schema {schema!r}; this version reads schema {SCHEMA_VERSION}")
    traj = Trajectory(
        query=d["query"],
        messages=[_message_from_dict(m) for m in d.get("messages", ())],
        steps=[
            Step(turn=_turn_from_dict(s["turn"]),
                 observations=tuple(_obs_from_dict(o) for o in s.get("observations", ())),
                 pruned=tuple(s.get("pruned", ())), tokens_used=s.get("tokens_used", 0),
                 duration_s=s.get("duration_s", 0.0))
            for s in d.get("steps", ())
        ],
        documents=[RankedDocument(x["doc_id"], x.get("justification", ""), x.get("score", 0.0))
                   for x in d.get("documents", ())],
        stop_reason=None if d.get("stop_reason") is None else StopReason(d["stop_reason"]),
        error=d.get("error"),
        token_budget=d.get("token_budget", 0),
        metadata=dict(d.get("metadata", {})),
        evidence=[_evidence_from_dict(e) for e in d.get("evidence", ())],
    )
    if "evidence" not in d:  # written before passages existed (issue 34)
        from context1.evidence import recompute_evidence

        traj.evidence = recompute_evidence(traj)
        traj.metadata["evidence"] = "recomputed" if traj.evidence or not traj.documents else "unknown"
    return traj


def _evidence_to_dict(e: Evidence) -> dict[str, Any]:
    return {"chunk_id": e.chunk_id, "doc_id": e.doc_id, "text": e.text, "score": e.score, "reason": e.reason,
            "title": e.title, "page": e.page, "section": e.section, "found_by": list(e.found_by),
            "speakers": list(e.speakers)}


def _evidence_from_dict(d: Mapping[str, Any]) -> Evidence:
    return Evidence(chunk_id=d["chunk_id"], doc_id=d["doc_id"], text=d.get("text", ""), score=d.get("score", 0.0),
                    reason=d.get("reason", ""), title=d.get("title"), page=d.get("page"), section=d.get("section"),
                    found_by=tuple(d.get("found_by", ())), speakers=tuple(d.get("speakers", ())))


def save_trajectories(path: str | Path, trajectories: Iterable[Trajectory], *, append: bool = False) -> int:
    """Write trajectories as JSONL (one per line); returns how many were written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("a" if append else "w", encoding="utf-8") as f:
        for t in trajectories:
            f.write(json.dumps(trajectory_to_dict(t), ensure_ascii=False) + "\n")
            n += 1
    return n


def load_trajectories(path: str | Path) -> list[Trajectory]:
    """Read a JSONL file of trajectories; a truncated last line is skipped with a warning."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    out: list[Trajectory] = []
    for j, (lineno, line) in enumerate(numbered):
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            if j == len(numbered) - 1:
                warnings.warn(
                    f"{path}:{lineno}: the last line is truncated or malformed ({exc}); skipped it and kept "
                    f"the {len(out)} trajectories before it",
                    TruncatedTrajectoryWarning,
                    stacklevel=2,
                )
                break
            raise ValueError(f"{path}:{lineno}: not a JSON trajectory line ({exc})") from exc
        out.append(trajectory_from_dict(record))
    return out
