"""Accepted candidates as `eval.types.Task` records, and the append-only task file.

Task ids are stable: a hash of the supporting documents (in chain order), the quotes and the
answer, so the same task generated twice has the same id, and a resumed run skips what the file
already holds. The JSONL file is append-only: each task is one line, flushed and fsynced as it is
written; a run killed mid-line leaves a partial last line, which the next writer cuts off (after
keeping every complete line) before appending.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from corpus_tools.tasks import task_from_dict, task_to_dict
from corpus_tools.types import Task
from datagen.types import Candidate


def task_id(candidate: Candidate) -> str:
    """A stable id: same documents, quotes and answer → same id."""
    key = json.dumps(
        [[item.doc_id, list(item.quotes)] for item in candidate.supporting] + [candidate.answer],
        ensure_ascii=False,
    )
    return "gen-" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def to_task(
    candidate: Candidate,
    *,
    source: str,
    chunks_with: Callable[[str, str], tuple[str, ...]] | None = None,
    extra: Mapping[str, Any] | None = None,
    positives: Sequence[tuple[int, str, str, str]] = (),
) -> Task:
    """The Task record of a verified candidate.

    chunks_with(doc_id, quote): every chunk of the document that carries the quote (the extra
    positives of SPEC §4 step 6: overlapping chunks repeat text); default: the item's own chunks.
    Facts: one per supporting item, the chunks that carry its quotes, and for the answer's item the
    other chunks that state the same fact (`positives`: (item index, doc id, chunk id, quote), checked by
    `datagen.positives.verified_positives`; SPEC §4.6), each of which counts as finding that fact.
    """
    facts = []
    gold_chunks: dict[str, None] = {}
    for item in candidate.supporting:
        carriers: dict[str, None] = dict.fromkeys(item.chunk_ids)
        if chunks_with is not None:
            for quote in item.quotes:
                carriers.update(dict.fromkeys(chunks_with(item.doc_id, quote)))
        gold_chunks.update(dict.fromkeys(item.chunk_ids))
        facts.append(tuple(carriers) or (item.doc_id,))
    for index, _doc, chunk, _quote in positives:
        if 0 <= index < len(facts) and chunk not in facts[index]:
            facts[index] = (*facts[index], chunk)
    metadata: dict[str, Any] = {
        "truth_type": candidate.truth_type.value,
        "clues": list(candidate.clues),
        "bridges": list(candidate.bridges),
        "supporting": [
            {
                "doc_id": item.doc_id,
                "chunk_ids": list(item.chunk_ids),
                "quotes": list(item.quotes),
                "clue_quotes": list(item.clue_quotes),
                "contains_truth": item.contains_truth,
            }
            for item in candidate.supporting
        ],
        "distractors": list(candidate.distractors),
        "extra_positives": [{"doc_id": d, "chunk_id": c, "quote": q} for _, d, c, q in positives],
        "generator": candidate.generator,
        **{k: v for k, v in candidate.metadata.items() if k != "positive_quotes"},  # kept as extra_positives
        **dict(extra or {}),
    }
    return Task(
        task_id=task_id(candidate),
        query=candidate.question,
        answers=candidate.answers,
        gold_doc_ids=candidate.doc_ids,
        gold_chunk_ids=tuple(gold_chunks),
        facts=tuple(facts),
        hops=candidate.hops,
        source=source,
        question_type="bridge" if candidate.hops > 1 else "single-hop",
        metadata=metadata,
    )


def read_task_file(path: str | Path) -> list[Task]:
    """Tasks of a JSONL file; a partial (unterminated, unparseable) last line is ignored."""
    path = Path(path)
    if not path.exists():
        return []
    tasks = []
    lines = path.read_text(encoding="utf-8").split("\n")
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if lineno == len(lines):  # the last line, cut by a kill: dropped, the rest kept
                break
            raise ValueError(f"{path}:{lineno}: not a JSON task line; is this a datagen task file?") from None
        tasks.append(task_from_dict(record, f"{path.name}:{lineno}"))
    return tasks


class TaskWriter:
    """Append-only JSONL of tasks that resumes: ids already in the file are never written again."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._repair()
        self.existing = read_task_file(self.path)
        self.ids = {t.task_id for t in self.existing}
        self._file = self.path.open("a", encoding="utf-8")

    def _repair(self) -> None:
        """Cut a partial last line (a killed run) so the next append starts on a fresh line."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        data = self.path.read_bytes()
        if data.endswith(b"\n"):
            return
        cut = data.rfind(b"\n") + 1
        with self.path.open("r+b") as f:
            f.truncate(cut)

    def __contains__(self, task_id: str) -> bool:
        return task_id in self.ids

    def write(self, task: Task) -> bool:
        """Append a task; False (nothing written) when its id is already in the file."""
        if task.task_id in self.ids:
            return False
        self._file.write(json.dumps(task_to_dict(task), ensure_ascii=False) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        self.ids.add(task.task_id)
        return True

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> TaskWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
