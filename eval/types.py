"""Contracts of eval: the `Task` every loader produces and every runner consumes.

A task file on disk (JSONL, one `Task` per line as `dataclasses.asdict` writes it) is the
interchange format with `datagen`, which writes the same field names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


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
