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
class DocumentPart:
    """A stretch `text[start:end]` of a document with its place in it (read from a PDF's layout).

    page: 1-based page it is on. section: the heading path it sits under ("Part I > Item 2. …").
    kind: "text", or "table" (one row a line, cells split by " | "; chunked by whole rows).
    context: for a table, its caption, column headers and units: every chunk of the table
        carries them in its header, so a row is never indexed apart from its headers.
    defines: (offset in the document's text, name) of each name this stretch defines there: a documentation
        page's `.. py:data:: SECRET_KEY` entry, a heading that is a code name, a parameter list's item
        (markup.SectionWriter.define); the chunk holding the offset is that name's definition.
    programs: (offset, program) of each Sphinx `.. option::` entry a `.. program:: NAME` governs, at the same
        offset as its names in `defines`: the entry is an option of command NAME (dmypy's `--timeout`, not mypy's).
    """

    start: int
    end: int
    page: int | None = None
    section: str = ""
    kind: str = "text"
    context: str = ""
    defines: tuple[tuple[int, str], ...] = ()
    programs: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class Document:
    """A source document before chunking.

    doc_id: stable identifier, unique within a corpus (a relative path, a dataset id, a title).
    text: the full text. title: optional, prepended to every chunk for retrieval.
    metadata: free-form JSON-able values carried onto every chunk.
    parts: where the text's pages, sections and tables are (in order, covering the text), when
        the reader knows; empty for plain text and records, which are chunked as before.
    vector: a vector computed elsewhere for the document's one chunk (bring-your-own vectors: a
        record's vector field), used instead of embedding it; vector_model names the model that
        made it, which must be the index's (the build checks both it and the dimension).
    """

    doc_id: str
    text: str
    title: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    parts: tuple[DocumentPart, ...] = ()
    vector: Any = field(default=None, compare=False, repr=False)
    vector_model: str | None = None


@dataclass(frozen=True)
class Task:
    """A query with its gold evidence: what a retriever is judged on (benchmarks and generated tasks alike).

    It lives here, at the bottom of the house, because both datagen (which writes tasks) and eval
    (which scores them) need it, and neither may import the other; its gold is this package's
    nouns (doc ids, chunk ids). Task files are `corpus_tools.tasks`'s.

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
class Chunk:
    """One retrievable unit of a document.

    chunk_id: f"{doc_id}#{position}" — stable: the same content and chunking give the same ids.
    position: 0-based order of the chunk inside its document.
    n_tokens: length of `text` in the embedding model's tokenizer (used for token budgets).
    metadata: the document's metadata (below) plus the chunk's own. Keys with a meaning here:
        "title", "source" (file path); "page" (1-based int, first page the chunk covers),
        "section" (the heading path it sits under, e.g. "Part I > Item 2. MD&A"),
        "header" (the contextual header: title, company, period, section — indexed by both
        legs before the text, never part of `text`), "boilerplate" (0..1: how nearly the same
        passage repeats across documents; scored down, never deleted), "kind" ("table" rows
        with their headers, or "text").
        Document-level keys read from the document (filings: the cover page): "company",
        "ticker", "form" ("10-Q"), "period_end" (ISO date), "fiscal_year" (int),
        "fiscal_quarter" (int 1-4). All are `where`-able.
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
class GrepScan:
    """What one bounded grep scan found (row numbers of the chunk table).

    rows: (row, match count) of the best rows, most matches first, ties in row order; counts are
        capped (see corpus_tools.grep.MAX_COUNT).
    complete: False when the time limit stopped the scan before every row was considered; the
        rows are then the best of the `scanned` first rows.
    capped: some returned count reached the cap (the ranking among those rows is by row order).
    """

    rows: Sequence[tuple[int, int]]
    complete: bool
    scanned: int
    total: int
    capped: bool


@dataclass(frozen=True)
class GrepResult:
    """`Corpus.grep_report`: the hits and whether the scan covered the whole index.

    complete: False when the time limit ended the scan early (hits are the best found so far).
    scanned / total: chunks considered / chunks in the index. capped: see `GrepScan`.
    """

    hits: Sequence[Hit]
    complete: bool
    scanned: int
    total: int
    capped: bool


@dataclass(frozen=True)
class SkippedFile:
    """A source file or record that was not indexed, and why (never skipped silently)."""

    path: str
    reason: str


@dataclass(frozen=True)
class SkippedProjectFile(SkippedFile):
    """A repository's project file (`pyproject.toml`, `setup.cfg`, `mkdocs.yml`): not indexed as content, but read
    for the project name it declares (corpus_tools.project_files; CorpusConfig.read_project_files).

    declares: that name as the file writes it ("django-debug-toolbar", "HTTPX").
    """

    declares: str = ""


@dataclass(frozen=True)
class FileNote:
    """Something worth knowing about a file that was indexed anyway ("decoded as cp1252")."""

    path: str
    note: str


@dataclass(frozen=True)
class LoadReport:
    """What a loader produced: the documents, everything it refused (with reasons), and notes."""

    documents: Sequence[Document]
    skipped: Sequence[SkippedFile] = ()
    notes: Sequence[FileNote] = ()


@dataclass(frozen=True)
class BuildReport:
    """What `Corpus.build` (or `add`) did: counts, what was skipped and why, notes, and speed.

    seconds: wall time of the whole build. embed_seconds: time spent computing embeddings (cache
    hits cost none). chunks_per_s: chunks / seconds.
    """

    documents: int
    chunks: int
    skipped: Sequence[SkippedFile] = ()
    notes: Sequence[FileNote] = ()
    seconds: float = 0.0
    embed_seconds: float = 0.0
    cache_hits: int = 0
    cache_misses: int = 0

    @property
    def chunks_per_s(self) -> float:
        return self.chunks / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        """One paragraph a person can read: counts, then skip reasons grouped with counts."""
        line = f"Indexed {self.documents:,} documents ({self.chunks:,} chunks) in {self.seconds:.1f} s"
        if not self.skipped and not self.notes:
            return line + "."
        groups: dict[str, int] = {}
        for entry in self.skipped:
            kind = entry.reason.split(" (")[0].split(";")[0].split(":")[0]
            groups[kind] = groups.get(kind, 0) + 1
        parts = [f"{count} {kind}" for kind, count in sorted(groups.items(), key=lambda kv: -kv[1])]
        text = f"{line}; skipped {len(self.skipped)}" + (f" ({', '.join(parts)})" if parts else "")
        if self.notes:
            text += f"; {len(self.notes)} note(s), e.g. {self.notes[0].path}: {self.notes[0].note}"
        return text + "."


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


class NothingToIndexError(CorpusError):
    """A build whose source held no indexable document; `skipped` says why for each file."""

    def __init__(self, message: str, skipped: Sequence[SkippedFile] = ()) -> None:
        super().__init__(message)
        self.skipped = list(skipped)


class EmptyQueryError(CorpusError, ValueError):
    """A search query with no words in it (refused, as the CLI refuses it)."""


class InvalidPatternError(CorpusError, ValueError):
    """A grep pattern that is not a valid (RE2) regular expression."""


class IndexFormatError(CorpusError):
    """A folder that is not a complete context1 index (missing or broken manifest)."""
