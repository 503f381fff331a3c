"""Task files: the interchange format between datagen (which writes tasks) and eval (which scores them).

One `Task` per line of JSONL, as `dataclasses.asdict` writes it; lists come back as tuples.
Unknown fields (a newer writer) are kept under `metadata` rather than dropped.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from corpus_tools.types import Task

__all__ = ["TASK_FIELDS", "save_tasks", "task_from_dict", "task_to_dict"]

TASK_FIELDS = tuple(f.name for f in dataclasses.fields(Task))


def task_to_dict(task: Task) -> dict[str, Any]:
    """A JSON-able dict of a task (`dataclasses.asdict`, mappings made plain)."""
    out = dataclasses.asdict(task)
    out["metadata"] = dict(task.metadata)
    return out


def task_from_dict(record: Mapping[str, Any], where: str = "task") -> Task:
    """A Task from a dict as `task_to_dict`/`asdict` wrote it; a clear error names what is missing."""
    if not isinstance(record, Mapping):
        raise ValueError(f"{where}: expected a JSON object, got {type(record).__name__}")
    missing = [f for f in ("task_id", "query") if record.get(f) in (None, "")]
    if missing:
        raise ValueError(f"{where}: missing field(s) {missing}; a task needs at least task_id and query")
    metadata = record.get("metadata") or {}
    if isinstance(metadata, str):  # some writers store metadata as a JSON string (HF datasets)
        try:
            metadata = json.loads(metadata)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{where}: metadata is a string that is not JSON ({exc})") from exc
    if not isinstance(metadata, Mapping):
        raise ValueError(f"{where}: metadata must be an object, got {type(metadata).__name__}")
    metadata = dict(metadata)
    for key, value in record.items():
        if key not in TASK_FIELDS:
            metadata.setdefault(key, value)

    def strings(name: str) -> tuple[str, ...]:
        value = record.get(name) or ()
        if isinstance(value, str):
            raise ValueError(f"{where}: {name} must be a list of strings, got a string")
        return tuple(str(v) for v in value)

    facts = record.get("facts") or ()
    hops = record.get("hops")
    return Task(
        task_id=str(record["task_id"]),
        query=str(record["query"]),
        answers=strings("answers"),
        gold_doc_ids=strings("gold_doc_ids"),
        gold_chunk_ids=strings("gold_chunk_ids"),
        facts=tuple(tuple(str(i) for i in ([f] if isinstance(f, str) else f)) for f in facts),
        hops=int(hops) if hops is not None else None,
        source=str(record.get("source") or ""),
        question_type=record.get("question_type"),
        metadata=metadata,
    )


def save_tasks(tasks: Iterable[Task], path: str | Path) -> int:
    """Writes tasks as JSONL (one `task_to_dict` per line); returns how many."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as f:
        for task in tasks:
            f.write(json.dumps(task_to_dict(task), ensure_ascii=False) + "\n")
            n += 1
    return n
