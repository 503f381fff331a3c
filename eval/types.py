"""Contracts of eval: the `Task` every loader produces and every runner consumes.

A task file on disk (JSONL, one `Task` per line as `dataclasses.asdict` writes it) is the
interchange format with `datagen`, which writes the same field names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from corpus_tools.types import Document


class Granularity(str, Enum):
    """The unit a metric counts: whole documents, chunks, or facts (SPEC §3)."""

    DOCUMENT = "document"
    CHUNK = "chunk"
    FACT = "fact"


@dataclass(frozen=True)
class Task:
    """A query with its gold evidence.

    task_id: unique within its source. query: the question given to the retriever or agent.
    answers: the answer and its aliases (empty for retrieval-only sets such as SciFact).
    gold_doc_ids: documents that support the answer, as doc ids of the benchmark's corpus.
    gold_chunk_ids: chunk-level gold when known (generated tasks); else empty.
    facts: one tuple per fact, holding every doc/chunk id that carries that fact; a fact is
        found when any of them is returned (SPEC §3 fact granularity). Empty when unknown.
    hops: reasoning hops (MuSiQue 2-4, HotpotQA 2); None when unknown.
    source: dataset name, e.g. "hotpotqa". question_type: e.g. "bridge", "comparison".
    """

    task_id: str
    query: str
    answers: tuple[str, ...] = ()
    gold_doc_ids: tuple[str, ...] = ()
    gold_chunk_ids: tuple[str, ...] = ()
    facts: tuple[tuple[str, ...], ...] = ()
    hops: int | None = None
    source: str = ""
    question_type: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)


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
    metrics: Mapping[str, float | None] = field(default_factory=dict)
    usage: Mapping[str, int] = field(default_factory=dict)
    timings: Mapping[str, float] = field(default_factory=dict)
    trajectory: Mapping[str, Any] | None = None
    error: str | None = None

    @property
    def task_id(self) -> str:
        return self.task.task_id
