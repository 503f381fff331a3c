"""The dense leg without Chroma on its read path: the chunk vectors as memory-mapped matrices, searched exactly.

A cold `context1 search` spent about 1 s of CPU in Chroma alone at 50k chunks: importing chromadb
(0.66 s), opening its client and loading the HNSW graph on the first query (0.4 s). Here the
vectors live beside the chunk table as float32 `.npy` files, one row per table *line* (the base
file, then one file per delta segment, as the table's files are), L2-normalised when written.
Opening maps them (no read); a search is one matrix-vector product over every line, the deleted
lines dropped by the table's row → line map, and an exact top-n. At 50k × 384 that is ~20M
multiply-adds, a few milliseconds, where HNSW is approximate: exact search finds every vector
HNSW finds, and the ones its graph walk misses. Past `ann.ANN_MIN_LINES` lines an index also keeps
a FAISS index of its base file (`VectorMatrix.ann`): candidates from it, re-scored exactly here.

Chroma still holds the same vectors: it is written by every build and commit (so an index can
move to a server, and a `where`-free reader of an older version still works), and it answers
for indexes written before the matrix existed (see `Corpus.open`). The files are written by
`index_format` (atomically, as every index file); this module only reads them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from corpus_tools.ann import EXACT_ALLOWED, AnnIndex, AnnUnreadable, rescore
from corpus_tools.bm25 import NPY_LOCK

logger = logging.getLogger(__name__)


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length as float32 (a zero row stays zero): cosine becomes a dot product."""
    out = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1).copy()
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    np.divide(out, norms, out=out, where=norms > 0)
    return out


class VectorMatrix:
    """Read-only unit vectors of an index's table lines: base file, then segments, memory-mapped.

    Line i of the table has vector row i across the parts in order. Thread-safe (nothing changes
    after construction); `derive` makes the next generation's matrix without reading the old one.
    """

    def __init__(self, parts: Sequence[np.ndarray], dim: int, ann: AnnIndex | None = None) -> None:
        self.parts = list(parts)
        self.dim = dim
        self.n_lines = sum(len(p) for p in self.parts)
        self._starts = np.cumsum([0, *(len(p) for p in self.parts)])
        # The approximate leg over lines 0..ann.n_lines-1 (corpus_tools.ann); None: exact search.
        self.ann = ann
        self.note: str | None = None  # why an index's ANN file was not used (index_format.open_ann)
        self._live: tuple[np.ndarray, np.ndarray] | None = None  # (row_lines, its line mask), the last used

    @classmethod
    def open(cls, paths: Sequence[Path], dim: int) -> VectorMatrix:
        """Map the `.npy` files `paths`; ValueError naming the file when one is not a float32 (n, dim) matrix."""
        return cls([_load(Path(p), dim) for p in paths], dim)

    def derive(self, segment: Path | None) -> VectorMatrix:
        """This matrix with the lines of one more segment file (a delta commit)."""
        parts = [*self.parts, *([_load(segment, self.dim)] if segment is not None else [])]
        derived = VectorMatrix(parts, self.dim, self.ann)  # the ANN keeps its lines; new ones are searched exactly
        derived.note = self.note
        return derived

    def lines(self, lines: np.ndarray) -> np.ndarray:
        """The vectors of the given table lines, (len(lines), dim) float32 (a copy)."""
        lines = np.asarray(lines, dtype=np.int64)
        out = np.empty((len(lines), self.dim), dtype=np.float32)
        part_of = np.searchsorted(self._starts, lines, side="right") - 1
        for p in np.unique(part_of):
            at = part_of == p
            out[at] = self.parts[p][lines[at] - self._starts[p]]
        return out

    def scores(self, query: np.ndarray) -> np.ndarray:
        """Cosine of the (normalised) query with every line, (n_lines,) float32."""
        q = normalise(np.asarray(query, dtype=np.float32).reshape(1, -1))[0]
        if q.shape[0] != self.dim:
            raise ValueError(f"the query vector has {q.shape[0]} dimensions, the index's vectors {self.dim}")
        if not self.parts:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate([p @ q for p in self.parts])

    def top(
        self, query: np.ndarray, n: int, row_lines: np.ndarray, allowed: np.ndarray | None = None
    ) -> list[tuple[int, float]]:
        """(row, cosine) of the `n` best rows, best first, ties by row; `row_lines[r]` is row r's line.

        allowed: a boolean mask over rows (a `where` filter); rows outside it are never returned.
        With an ANN (corpus_tools.ann) the candidates come from it and the lines past it, and are
        re-scored exactly; without one every line is scored.
        """
        if self.ann is not None:
            try:
                return self._top_ann(query, n, row_lines, allowed)
            except AnnUnreadable as exc:  # its body, read at the first search, is damaged: exact from now on
                self.ann = None
                self.note = (f"The FAISS index is unreadable ({exc}); the dense leg searches exactly (slower, same "
                             "results) until `context1 repair` rebuilds it")
                logger.warning("%s", self.note)
        scores = self.scores(query)[row_lines]  # (rows,)
        candidates = np.flatnonzero(allowed) if allowed is not None else None
        if candidates is not None:
            scores = scores[candidates]
        n = min(n, len(scores))
        if n < 1:
            return []
        best = np.argpartition(-scores, n - 1)[:n] if n < len(scores) else np.arange(len(scores))
        best = best[np.lexsort((best, -scores[best]))]
        rows = candidates[best] if candidates is not None else best
        return [(int(r), float(s)) for r, s in zip(rows.tolist(), scores[best].tolist(), strict=True)]


    def _top_ann(
        self, query: np.ndarray, n: int, row_lines: np.ndarray, allowed: np.ndarray | None
    ) -> list[tuple[int, float]]:
        """`top` through the ANN: its candidates plus the lines it does not cover, re-scored exactly.

        Relies on `row_lines` ascending (rows are live lines in order; see corpus_tools.table).
        """
        q = normalise(np.asarray(query, dtype=np.float32).reshape(1, -1))[0]
        if q.shape[0] != self.dim:
            raise ValueError(f"the query vector has {q.shape[0]} dimensions, the index's vectors {self.dim}")
        ok_lines = row_lines if allowed is None else row_lines[allowed]
        if n < 1 or not len(ok_lines):
            return []
        assert self.ann is not None
        covered = self.ann.n_lines
        if allowed is not None and len(ok_lines) <= EXACT_ALLOWED:  # a selective filter: its lines, exactly
            candidates = np.asarray(ok_lines, dtype=np.int64)
        else:
            inside = ok_lines[ok_lines < covered]
            mask = None
            if allowed is not None:
                mask = np.zeros(covered, dtype=bool)
                mask[inside] = True
            elif len(inside) < covered:  # deleted lines: the same mask for every query of this table
                mask = self._live_mask(row_lines, inside, covered)
            found = self.ann.search(q, rescore(n), mask, len(inside) / max(covered, 1))
            candidates = np.concatenate([found, ok_lines[ok_lines >= covered]]).astype(np.int64)
        scores = self.lines(candidates) @ q
        n = min(n, len(candidates))
        best = np.argpartition(-scores, n - 1)[:n] if n < len(scores) else np.arange(len(scores))
        rows = np.searchsorted(row_lines, candidates[best])
        order = np.lexsort((rows, -scores[best]))
        return [(int(r), float(s)) for r, s in zip(rows[order].tolist(), scores[best][order].tolist(), strict=True)]

    def _live_mask(self, row_lines: np.ndarray, inside: np.ndarray, covered: int) -> np.ndarray:
        live = self._live
        if live is None or live[0] is not row_lines:
            mask = np.zeros(covered, dtype=bool)
            mask[inside] = True
            live = self._live = (row_lines, mask)  # holding row_lines keeps its identity unique
        return live[1]


def _load(path: Path, dim: int) -> np.ndarray:
    try:
        with NPY_LOCK:
            matrix = np.load(path, mmap_mode="r", allow_pickle=False)
    except FileNotFoundError:
        raise
    except (OSError, ValueError) as exc:
        raise ValueError(f"vector file {path.name!r} cannot be read ({exc})") from exc
    if matrix.dtype != np.float32 or matrix.ndim != 2 or matrix.shape[1] != dim:
        raise ValueError(
            f"vector file {path.name!r} holds a {matrix.dtype} array of shape {matrix.shape}, not float32 (n, {dim})"
        )
    return matrix
