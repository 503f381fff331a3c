"""Loading task files as a `Benchmark` (JSONL of `Task`, or a saved HF dataset).

The JSONL codec (`task_to_dict`, `task_from_dict`, `save_tasks`) is `corpus_tools.tasks`'s, shared
with datagen; it is re-exported here. A saved Hugging Face dataset
(`Dataset.save_to_disk`) with the same columns is read with `datasets.load_from_disk`; a
`DatasetDict` is read split by split (or one split when `split` is given). Generated tasks are
asked over an existing index, so the returned `Benchmark` has no documents.
"""

from __future__ import annotations

from pathlib import Path

from corpus_tools.tasks import TASK_FIELDS, save_tasks, task_from_dict, task_to_dict
from eval.loaders.paragraphs import dedupe_tasks, read_json_records
from eval.types import Benchmark

__all__ = ["TASK_FIELDS", "load_tasks", "save_tasks", "task_from_dict", "task_to_dict"]

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
