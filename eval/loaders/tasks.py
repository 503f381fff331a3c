"""Task files: the interchange format with `datagen` (JSONL of `Task`, or a saved HF dataset).

One `Task` per line as `dataclasses.asdict` writes it; lists come back as tuples. Unknown fields
(a newer datagen) are kept under `metadata` rather than dropped. A saved Hugging Face dataset
(`Dataset.save_to_disk`) with the same columns is read with `datasets.load_from_disk`; a
`DatasetDict` is read split by split (or one split when `split` is given). Generated tasks are
asked over an existing index, so the returned `Benchmark` has no documents.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from eval.loaders.paragraphs import dedupe_tasks, read_json_records
from eval.types import Benchmark, Task

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


def _is_hf_dataset(path: Path) -> bool:
    return path.is_dir() and any((path / n).exists() for n in ("dataset_info.json", "dataset_dict.json", "state.json"))


def load_tasks(path: str | Path, *, split: str | None = None, name: str | None = None) -> Benchmark:
    """Tasks from a JSONL/JSON task file or a saved HF dataset folder."""
    path = Path(path)
    name = name or path.stem
    if _is_hf_dataset(path):
        from datasets import DatasetDict, load_from_disk

        data = load_from_disk(str(path))
        if isinstance(data, DatasetDict):
            if split is not None and split not in data:
                raise ValueError(f"split {split!r} not in {path}; splits: {list(data)}")
            parts = [(split, data[split])] if split else list(data.items())
            rows = [(f"{path.name}/{s}[{i}]", r) for s, d in parts for i, r in enumerate(d)]
        else:
            rows = [(f"{path.name}[{i}]", r) for i, r in enumerate(data)]
    elif path.is_file():
        rows = [(f"{path.name}[{i}]", r) for i, r in enumerate(read_json_records(path))]
    else:
        raise FileNotFoundError(f"{str(path)!r} is neither a task file nor a saved Hugging Face dataset folder")
    notes: list[str] = []
    tasks = dedupe_tasks([task_from_dict(r, where) for where, r in rows], notes)
    return Benchmark(name=name, tasks=tasks, documents=[], notes=tuple(notes))
