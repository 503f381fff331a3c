"""The approximate dense leg of a large index: a FAISS inverted-file index over the base vector matrix.

Exact search reads every vector per query: 1M × 384 float32 is 1.5 GB of memory traffic, far
past a 50 ms budget on two cores. Past `ANN_MIN_LINES` lines an index also keeps a FAISS IVF
index (`ann.<g>.faiss`) of its base vector file: a query visits the `nprobe` lists nearest to it,
takes `rescore(n)` candidates, and re-scores them exactly from the memory-mapped matrix, so the
scores returned are the exact cosines and only which lines are found can differ from exact
search (benchmarks/ann_choice.py measured the kind and the parameters: recall@100 vs exact).

Kept current without a retrain per commit:
- ids are table line numbers, which a commit never changes (it appends segments and lists dead
  lines); the FAISS index covers the lines of the base file it was built from ("ann_lines" in the
  manifest's files block, "ann_of" names that base file);
- lines a commit appends (delta segments) are searched exactly beside it: they are at most
  what accumulated since the last compaction;
- deleted lines, and rows outside a `where`, are excluded inside FAISS by an `IDSelectorBitmap`
  (with `nprobe` widened by the share of lines allowed, and exact search over the allowed lines
  when they are few), so a filter never returns fewer hits than it allows.
A compaction (a new base) trains a new index; so does `context1 repair`.

An index below `ANN_MIN_LINES`, one written before this file existed, and one whose FAISS file is
missing or out of step with its vectors (detected at open, `Corpus.dense_note` says so) search
exactly: slower, never wrong. `faiss` is imported only when an index has an ANN file.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools.pages import release_rows

ANN_MIN_LINES = 100_000  # below this many base lines, exact search (a few ms) beats training an index
# FAISS's index_factory codec after "IVF<nlist>,": 8-bit scalar quantisation (benchmarks/ann_choice.py).
CODEC = "SQ8"
# Inverted lists visited per query: a quarter of 1,024. Measured on real MiniLM vectors grown to 300k
# (benchmarks/ann_choice.py): recall@100 of exact 0.911 / 0.958 / 0.980 / 0.994 at 32 / 64 / 128 / 256
# (tuning questions), 7 ms; 0.969 at 128 on the reporting questions. Probing, not re-scoring, was the limit.
# At 1M lines: 0.994 (tuning) and 0.982 (reporting) at 256.
NPROBE = 256
RESCORE_MIN = 1_000  # candidates re-scored exactly per query, at least (1.5 MB of rows: ~0.5 ms) ...
RESCORE_FACTOR = 4  # ... and this many per hit asked for
TRAIN_PER_LIST = 40  # training vectors per inverted list (FAISS warns below 39)
MAX_LISTS = 1_024  # caps the training sample (40 × 1,024 vectors, 63 MB) so a build's memory stays flat
EXACT_ALLOWED = 20_000  # a `where` allowing at most this many lines is searched exactly over them
_ADD_BLOCK = 65_536  # lines added to the index per step (bounds the float32 copy a build holds)


def n_lists(n_lines: int) -> int:
    """Inverted lists for `n_lines` vectors: ≈ 2·sqrt(n) up to MAX_LISTS, with 39 training points per list at least.

    At 1M lines that is 1,024 lists of ~1,000 vectors; NPROBE 256 then scans ~250k SQ8 codes a query.
    """
    return max(1, min(int(2 * math.sqrt(n_lines)), n_lines // 39, MAX_LISTS))


def rescore(n: int) -> int:
    """How many FAISS candidates are re-scored exactly for `n` hits."""
    return max(RESCORE_MIN, RESCORE_FACTOR * n)


def _faiss() -> Any:
    import faiss

    return faiss


class AnnIndex:
    """A trained FAISS IVF index whose ids are table lines 0..n_lines-1 (the base file's lines)."""

    def __init__(self, index: Any, n_lines: int, nprobe: int = NPROBE) -> None:
        self.index = index
        self.n_lines = int(n_lines)
        self.nprobe = int(nprobe)
        self.nlist = int(_faiss().extract_index_ivf(index).nlist)

    @classmethod
    def train(
        cls, vectors: np.ndarray, codec: str = CODEC, nlist: int | None = None, nprobe: int = NPROBE, seed: int = 0
    ) -> AnnIndex:
        """Train on a sample of `vectors` (lines, dim: unit rows, possibly memory-mapped) and add every line."""
        faiss = _faiss()
        n, dim = vectors.shape
        nlist = nlist or n_lists(n)
        index = faiss.index_factory(int(dim), f"IVF{nlist},{codec}", faiss.METRIC_INNER_PRODUCT)
        rng = np.random.default_rng(seed)
        sample = np.sort(rng.choice(n, size=min(n, TRAIN_PER_LIST * nlist), replace=False))
        training = np.ascontiguousarray(vectors[sample], dtype=np.float32)
        # A memory-mapped matrix's pages are dropped once read (corpus_tools/pages.py): the sample
        # touches pages all over the file, and the blocks below every page of it.
        release_rows(vectors, 0, n)
        index.train(training)
        del training
        for start in range(0, n, _ADD_BLOCK):
            block = np.ascontiguousarray(vectors[start : start + _ADD_BLOCK], dtype=np.float32)
            index.add_with_ids(block, np.arange(start, start + len(block), dtype=np.int64))
            release_rows(vectors, start, start + len(block))
        return cls(index, n, nprobe)

    def to_bytes(self) -> bytes:
        return _faiss().serialize_index(self.index).tobytes()

    @classmethod
    def load(cls, path: Path, n_lines: int, dim: int, nprobe: int = NPROBE) -> AnnIndex:
        """Read an index file; ValueError saying why when it is unreadable or does not hold `n_lines` lines."""
        faiss = _faiss()
        try:
            # Read into memory (SQ8: 394 MB at 1M lines), not mapped: FAISS touches a mapped index's
            # pages even on release, so a file damaged in place would kill the process (SIGBUS).
            index = faiss.read_index(str(path))
        except RuntimeError as exc:
            raise ValueError(f"{path.name!r} is not a readable FAISS index ({str(exc).splitlines()[0]})") from exc
        if index.d != dim or index.ntotal != n_lines:
            raise ValueError(
                f"{path.name!r} holds {index.ntotal} vectors of {index.d} dimensions; "
                f"the base vector file has {n_lines} of {dim}"
            )
        return cls(index, n_lines, nprobe)

    def search(self, query: np.ndarray, r: int, allowed: np.ndarray | None, share: float = 1.0) -> np.ndarray:
        """Up to `r` candidate lines for the unit `query`; `allowed`: a bool mask over this index's lines.

        share: the fraction of lines allowed; nprobe grows by 1/share so a filter finds as many candidates.
        """
        faiss = _faiss()
        nprobe = min(self.nlist, math.ceil(self.nprobe / max(share, 1e-6)))
        params = faiss.SearchParametersIVF(nprobe=nprobe)
        if allowed is not None:
            bitmap = np.packbits(allowed, bitorder="little")
            selector = faiss.IDSelectorBitmap(len(bitmap), faiss.swig_ptr(bitmap))  # its size in bytes
            params.sel = selector  # the selector (and bitmap) stay referenced until the search returns
        _, ids = self.index.search(np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32), r, params=params)
        found = ids[0]
        return found[found >= 0]
