"""Contracts of corpus_tools: the nouns every other package speaks.

Everything here is plain, frozen and picklable. Pluggable parts (embedders, rerankers) are
Protocols so a user can bring their own without subclassing anything of ours.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, runtime_checkable

import numpy as np


@dataclass(frozen=True)
class Document:
    """A source document before chunking.

    doc_id: stable identifier, unique within a corpus (a relative path, a dataset id, a title).
    text: the full text. title: optional, prepended to every chunk for retrieval.
    metadata: free-form JSON-able values carried onto every chunk.
    """

    doc_id: str
    text: str
    title: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Chunk:
    """One retrievable unit of a document.

    chunk_id: f"{doc_id}#{position}" — stable: the same content and chunking give the same ids.
    position: 0-based order of the chunk inside its document.
    n_tokens: length of `text` in the embedding model's tokenizer (used for token budgets).
    """

    chunk_id: str
    doc_id: str
    text: str
    position: int
    n_tokens: int
    metadata: Mapping[str, Any] = field(default_factory=dict)


class Leg(str, Enum):
    """The stages of hybrid search whose rank a `Hit` remembers."""

    BM25 = "bm25"
    DENSE = "dense"
    FUSED = "fused"
    RERANK = "rerank"
    GREP = "grep"
    READ = "read"


@dataclass(frozen=True)
class Hit:
    """One ranked chunk.

    score: the score the final ordering used (rerank score, else fused RRF score).
    ranks: 1-based rank of the chunk in each leg that saw it (a leg that missed it is absent).
    scores: the raw score of each leg that saw it (BM25 score, cosine similarity, RRF, rerank).
    """

    chunk: Chunk
    score: float
    ranks: Mapping[str, int] = field(default_factory=dict)
    scores: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class SkippedFile:
    """A source file or record that was not indexed, and why (never skipped silently)."""

    path: str
    reason: str


@dataclass(frozen=True)
class LoadReport:
    """What a loader produced: the documents and everything it refused, with reasons."""

    documents: Sequence[Document]
    skipped: Sequence[SkippedFile] = ()


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit-norm vectors. Queries and documents may be encoded differently."""

    name: str  # stable model identifier, recorded in the manifest and the embedding cache key
    dim: int

    def encode_query(self, texts: Sequence[str]) -> np.ndarray:  # (N, dim) float32
        ...

    def encode_document(self, texts: Sequence[str]) -> np.ndarray:  # (N, dim) float32
        ...


@runtime_checkable
class Tokenizer(Protocol):
    """Counts and splits text into tokens; chunking and token budgets use it."""

    def count(self, text: str) -> int: ...

    def offsets(self, text: str) -> list[tuple[int, int]]:
        """Character span of every token of `text`, in order (special tokens excluded)."""
        ...


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, chunk) pairs; higher is more relevant."""

    name: str

    def score(self, query: str, chunks: Sequence[Chunk]) -> np.ndarray:  # (N,) float
        ...


class CorpusError(Exception):
    """Base class of every error corpus_tools raises on bad input."""


class UnknownDocumentError(CorpusError, KeyError):
    """A doc_id or chunk_id that the corpus does not hold."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class InvalidPatternError(CorpusError, ValueError):
    """A grep pattern that is not a valid (RE2) regular expression."""


class IndexFormatError(CorpusError):
    """A folder that is not a complete context1 index (missing or broken manifest)."""
