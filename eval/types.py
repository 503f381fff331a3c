"""Contracts of eval: benchmarks, run records and metric granularity.

`Task` (a query with its gold evidence), which every loader produces and every runner consumes, is
`corpus_tools.types.Task`: datagen writes tasks too, and may not import eval (DESIGN's arrows run
downward only). It is re-exported here so `from eval.types import Task` keeps working.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from corpus_tools.types import Document, Task

__all__ = ["Benchmark", "Granularity", "RunRecord", "Task"]


class Granularity(str, Enum):
    """The unit a metric counts: whole documents, chunks, or facts (SPEC §3)."""

    DOCUMENT = "document"
    CHUNK = "chunk"
    FACT = "fact"


@dataclass(frozen=True)
class Benchmark:
    """A loaded benchmark: its tasks and the corpus they are asked over.

    name: e.g. "hotpotqa". tasks: in file order, task ids unique. documents: the de-duplicated
    union of the benchmark's paragraphs with the doc ids its tasks' gold refers to (empty for task
    files generated over an existing index). notes: what the loader dropped or repaired, and why
    (duplicate task ids, evidence ids that name no document) — never silently.
    """

    name: str
    tasks: list[Task]
    documents: list[Document] = field(default_factory=list)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RunRecord:
    """One evaluated task, as one line of a run's JSONL file.

    run: the retriever's label ("bm25", "hybrid+rerank", "agent:iterative", ...).
    doc_ids: the returned documents, most relevant first. chunk_ids: the returned chunks when the
        retriever ranks chunks (single-shot search), else empty.
    passages: the returned passages as (chunk id, text), best first: the agent's evidence, or a
        single search's top chunks (issue 34). Empty in records written before passages existed.
    metrics: flat metric name -> value ("document.recall@10", "answer_found", ...); None where
        undefined (no gold at that granularity, no answer, no prune).
    usage: the agent's `Usage` as a dict (empty for single-shot retrievers). timings: seconds.
    trajectory: the serialized unpruned trajectory (agents only). error: why the task failed,
        else None (a failed task still gets a record, so resuming does not retry it forever).
    """

    task: Task
    run: str
    doc_ids: tuple[str, ...] = ()
    chunk_ids: tuple[str, ...] = ()
    passages: tuple[tuple[str, str], ...] = ()
    metrics: Mapping[str, float | None] = field(default_factory=dict)
    usage: Mapping[str, int] = field(default_factory=dict)
    timings: Mapping[str, float] = field(default_factory=dict)
    trajectory: Mapping[str, Any] | None = None
    error: str | None = None

    @property
    def task_id(self) -> str:
        return self.task.task_id
