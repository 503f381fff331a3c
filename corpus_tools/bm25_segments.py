"""BM25 over a base and delta segments, scored at query time: a commit costs what it changed.

A BM25 score depends on corpus-wide numbers (each term's document frequency, the document count,
the mean length), so one added document changes every score a little. The single score matrix
was therefore rebuilt from every kept row's term ids at each `add`/`delete` and at each open of
an index with deltas: O(corpus) time and int64 temporaries the size of the corpus's tokens.

Here the base keeps its score matrix and, beside it, the term frequency of each entry
(bm25.py's tf file); each delta segment keeps its postings (built from its `terms.<g>.npz`, a few
milliseconds per commit). A query:
- with no segment and no deleted line, sums the base matrix's columns as before (the fast path);
- otherwise gathers each query term's postings across base and segments, keeps the live lines,
  counts them (the term's live document frequency), and computes idf and the term-frequency
  component from the live counts, lengths and mean length, with the very formulas and float32
  steps the matrix build uses (bm25_scoring) — so the scores equal a rebuild's to float rounding
  (tests/corpus_tools/test_bm25_segments.py checks it after add/delete sequences, every variant).
A commit tokenises only the new chunks (new terms get ids past the vocabulary: a small overlay,
not a copy of it); a compaction (`Corpus.compact`, `context1 repair`) folds everything into a new
base with a fresh matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from corpus_tools import bm25_scoring
from corpus_tools.bm25 import BM25Index, BM25Tokenizer, top_rows
from corpus_tools.config import BM25Config


@dataclass(frozen=True)
class Postings:
    """A delta segment's postings: per term (sorted ids) its lines (absolute, ascending) and term frequencies."""

    first_line: int
    terms: np.ndarray  # (n,) int64, sorted, unique
    ptr: np.ndarray  # (n + 1,) int64: where each term's postings start
    lines: np.ndarray  # (nnz,) int64
    tf: np.ndarray  # (nnz,) int64
    term_ids: np.ndarray  # (tokens,) int32: the segment's flat term ids (for a compaction)
    lengths: np.ndarray  # (segment lines,) int64

    @classmethod
    def from_term_ids(cls, terms: np.ndarray, lengths: np.ndarray, first_line: int) -> Postings:
        terms = np.asarray(terms, dtype=np.int64)
        lengths = np.asarray(lengths, dtype=np.int64)
        width = int(terms.max()) + 1 if terms.size else 1
        doc_of = np.repeat(np.arange(len(lengths), dtype=np.int64), lengths)
        pairs, tf = np.unique(doc_of * width + terms, return_counts=True)  # by document, then term
        docs, ids = pairs // width, pairs % width
        order = np.argsort(ids, kind="stable")  # by term; documents stay ascending within a term
        ids, docs, tf = ids[order], docs[order], tf[order]
        unique, starts = np.unique(ids, return_index=True)
        ptr = np.append(starts, len(ids)).astype(np.int64)
        return cls(first_line, unique, ptr, docs + first_line, tf.astype(np.int64), terms.astype(np.int32), lengths)

    def get(self, term: int) -> tuple[np.ndarray, np.ndarray]:
        i = int(np.searchsorted(self.terms, term))
        if i == len(self.terms) or self.terms[i] != term:
            return _EMPTY, _EMPTY
        return self.lines[self.ptr[i] : self.ptr[i + 1]], self.tf[self.ptr[i] : self.ptr[i + 1]]


_EMPTY = np.zeros(0, dtype=np.int64)


@dataclass
class _BaseTf:
    """The base's term frequencies in score-matrix order (the tf file; recomputed for an older index)."""

    indptr: np.ndarray
    indices: np.ndarray
    tf: np.ndarray


@dataclass
class SegmentedBM25:
    """The BM25 of a generation: base index + delta segments, rows = live table lines in order.

    Same reading interface as `BM25Index` (`n_docs`, `scores`, `top`); immutable once made
    (`derive` makes the next generation's), so readers need no lock.
    """

    config: BM25Config
    base: BM25Index
    base_lines: int
    lengths: np.ndarray  # (lines,) int64: every line's token count, base then segments
    segments: list[Postings] = field(default_factory=list)
    overlays: list[dict[str, int]] = field(default_factory=list)  # terms each segment added, by id
    row_lines: np.ndarray | None = None  # live lines in order (None: every line)
    _base_tf: _BaseTf | None = None

    def __post_init__(self) -> None:
        self.tokenizer = BM25Tokenizer(stem=self.config.stem, stopwords=self.config.stopwords)
        self.n_lines = len(self.lengths)
        rows = self.row_lines
        self.n_docs = self.n_lines if rows is None else len(rows)
        self.total_length = int(self.lengths.sum() if rows is None else self.lengths[rows].sum())
        self._live: np.ndarray | None = None

    # ------------------------------------------------------------ vocabulary

    def term_id(self, term: str) -> int | None:
        found = self.base._term_lookup().get(term)
        if found is None:
            for overlay in self.overlays:
                found = overlay.get(term)
                if found is not None:
                    break
        return found

    def vocab_size(self) -> int:
        return len(self.base._term_lookup()) + sum(len(o) for o in self.overlays)

    def vocab(self) -> dict[str, int]:
        """Every term → id (a merged copy: for a compaction only)."""
        merged = dict(self.base._term_lookup().items())
        for overlay in self.overlays:
            merged.update(overlay)
        return merged

    def term_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """(flat term ids, offsets) over every line, base then segments (a compaction's input)."""
        terms, _ = self.base.term_ids()
        parts = [np.asarray(terms), *(s.term_ids for s in self.segments)]
        offsets = np.zeros(self.n_lines + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=offsets[1:])
        return np.concatenate(parts), offsets

    def has_term_ids(self) -> bool:
        return self.base.has_term_ids()

    # ------------------------------------------------------------ the next generation

    def tokenize_new(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, dict[str, int]]:
        """Term ids of new texts (unknown terms get ids past the vocabulary): (flat ids, lengths, new terms)."""
        overlay: dict[str, int] = {}
        next_id = self.vocab_size()
        flat: list[int] = []
        lengths = []
        for text in texts:
            words = self.tokenizer(text)
            for word in words:
                term = self.term_id(word)
                if term is None:
                    term = overlay.get(word)
                    if term is None:
                        term = overlay[word] = next_id
                        next_id += 1
                flat.append(term)
            lengths.append(len(words))
        return np.asarray(flat, dtype=np.int32), np.asarray(lengths, dtype=np.int64), overlay

    def derive(self, keep_rows: np.ndarray, segment: Postings | None, overlay: dict[str, int]) -> SegmentedBM25:
        """The next generation: rows `keep_rows` of this one, then the lines of `segment` (O(change) + the row map)."""
        kept = self.rows()[np.asarray(keep_rows, dtype=np.int64)]
        lengths, segments, overlays = self.lengths, self.segments, self.overlays
        if segment is not None:
            lengths = np.concatenate([lengths, segment.lengths])
            segments = [*segments, segment]
            overlays = [*overlays, overlay] if overlay else overlays
            kept = np.concatenate([kept, np.arange(self.n_lines, len(lengths), dtype=np.int64)])
        return SegmentedBM25(self.config, self.base, self.base_lines, lengths, segments, overlays, kept, self._base_tf)

    def rows(self) -> np.ndarray:
        return self.row_lines if self.row_lines is not None else np.arange(self.n_lines, dtype=np.int64)

    # ------------------------------------------------------------ scoring

    def _fast(self) -> bool:
        return not self.segments and (self.row_lines is None or len(self.row_lines) == self.n_lines)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every row for `query`, as a rebuild of the live rows would give it."""
        if self._fast():
            return self.base.scores(query)
        ids = [i for t in self.tokenizer(query) if (i := self.term_id(t)) is not None]
        if not ids or not self.n_docs:
            return np.zeros(self.n_docs, dtype=np.float32)
        live = self._live_lines()
        found = []
        for term in ids:  # in query order, a repeated term again: as the matrix sums its columns
            lines, tf = self._postings(term)
            keep = live[lines]
            found.append((lines[keep], tf[keep]))
        method, k1, b = self.config.method, self.config.k1, self.config.b
        idf = bm25_scoring.idf(method, np.array([len(lines) for lines, _ in found]), self.n_docs)
        avg = self.total_length / self.n_docs
        nonocc = bm25_scoring.nonoccurrence(method, idf, avg, k1, b)
        rows, weights = [], []
        for i, (lines, tf) in enumerate(found):
            w = idf[i] * bm25_scoring.tfc(method, tf, self.lengths[lines], avg, k1, b)
            if nonocc is not None:
                w -= nonocc[i]
            rows.append(lines)
            weights.append(w)
        per_line = np.bincount(np.concatenate(rows), weights=np.concatenate(weights), minlength=self.n_lines)
        scores = per_line.astype(np.float32)[self.rows()]
        if nonocc is not None:
            scores += np.float32(nonocc.sum())
        return scores

    def _live_lines(self) -> np.ndarray:
        if self._live is None:
            live = np.zeros(self.n_lines, dtype=bool)
            live[self.rows()] = True
            self._live = live
        return self._live

    def _postings(self, term: int) -> tuple[np.ndarray, np.ndarray]:
        parts = [self._base_postings(term), *(s.get(term) for s in self.segments)]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def _base_postings(self, term: int) -> tuple[np.ndarray, np.ndarray]:
        base = self._base_tf or self._load_base_tf()
        if term + 1 >= len(base.indptr):
            return _EMPTY, _EMPTY
        start, end = int(base.indptr[term]), int(base.indptr[term + 1])
        return np.asarray(base.indices[start:end], dtype=np.int64), np.asarray(base.tf[start:end], dtype=np.int64)

    def _load_base_tf(self) -> _BaseTf:
        matrix = self.base.matrix()
        if matrix is None:
            found = _BaseTf(np.zeros(1, np.int64), _EMPTY, _EMPTY)
        elif matrix.tf is not None:
            found = _BaseTf(matrix.indptr, matrix.indices, matrix.tf)
        else:  # a base written before the tf file: its frequencies from its term ids, once
            from corpus_tools.bm25 import _score_matrix

            terms, offsets = self.base.term_ids()
            rebuilt = _score_matrix(terms, offsets, len(self.base.vocab()), self.config)
            found = _BaseTf(rebuilt.indptr, rebuilt.indices, rebuilt.tf)
        self._base_tf = found
        return found

    def top(self, query: str, n: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
        """(row, score) of the `n` best rows with a positive score, best first (ties: lower row first)."""
        if self._fast():
            return self.base.top(query, n, allowed)
        return top_rows(self.scores(query), n, allowed)

