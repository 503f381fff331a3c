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
import struct
import threading
from pathlib import Path
from typing import IO, Any

import numpy as np

from corpus_tools.pages import gather_rows, release_rows

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
_ADD_BLOCK = 16_384  # lines added to the index per step (bounds the float32 copy a build holds: 25 MB at 384-d)


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


def _trained(vectors: np.ndarray, codec: str = CODEC, nlist: int | None = None, seed: int = 0) -> Any:
    """An empty FAISS IVF index trained on a sample of `vectors` (at most MAX_LISTS × TRAIN_PER_LIST lines)."""
    faiss = _faiss()
    n, dim = vectors.shape
    nlist = nlist or n_lists(n)
    index = faiss.index_factory(int(dim), f"IVF{nlist},{codec}", faiss.METRIC_INNER_PRODUCT)
    rng = np.random.default_rng(seed)
    sample = np.sort(rng.choice(n, size=min(n, TRAIN_PER_LIST * nlist), replace=False))
    # A memory-mapped matrix's pages are dropped once read (corpus_tools/pages.py): the sample
    # touches pages all over the file, and the blocks below every page of it.
    training = gather_rows(vectors, sample, np.float32)
    index.train(training)
    return index


# FAISS's serialisation of an IVF index ends with its inverted lists (faiss/impl/index_write.cpp,
# write_InvertedLists, "ilar"): per list its size, then each list's codes followed by its ids.
# An index with no vector ends with the empty ("sprs") form of that block: _EMPTY_LISTS bytes.
_EMPTY_LISTS = 4 + 8 + 8 + 4 + 8  # "ilar", nlist, code_size, "sprs", an empty vector's length
_NTOTAL_AT = slice(8, 16)  # the header's ntotal (after the fourcc and d), an int64


def write_index(vectors: np.ndarray, out: IO[bytes], codec: str = CODEC, nlist: int | None = None,
                seed: int = 0) -> int:
    """Write the FAISS file `AnnIndex.train(vectors)` would serialise, holding one block of lines at a time.

    `AnnIndex.train` then `faiss.write_index` held the whole index (SQ8: 384 bytes a line, 394 MB at
    1M lines, more while its lists grow): the build's memory grew with the corpus. Here every line's
    list is found first (8 bytes a line), then the lists are filled and written a group at a time,
    each group encoded by FAISS itself (`add_core` with the lists found) into an index emptied
    after it. Lines are assigned in the same blocks and each list holds its lines in ascending
    order, as one `add_with_ids` leaves them: the bytes are the same (tests/corpus_tools/test_ann.py).
    Returns the bytes written.
    """
    faiss = _faiss()
    index = _trained(vectors, codec, nlist, seed)
    ivf = faiss.extract_index_ivf(index)
    n, nlist = len(vectors), int(ivf.nlist)
    lists = np.empty(n, dtype=np.int64)
    for start in range(0, n, _ADD_BLOCK):
        block = np.ascontiguousarray(vectors[start : start + _ADD_BLOCK], dtype=np.float32)
        _, found = ivf.quantizer.search(block, 1)
        lists[start : start + len(block)] = found[:, 0]
        release_rows(vectors, start, start + len(block))
    if n and (lists < 0).any():
        raise ValueError("FAISS assigned a vector to no inverted list (a NaN in the vector matrix?)")
    order = np.argsort(lists, kind="stable")  # by list, lines ascending within each
    sizes = np.bincount(lists, minlength=nlist).astype(np.uint64)
    empty = bytearray(faiss.serialize_index(index).tobytes())
    if bytes(empty[-_EMPTY_LISTS : -_EMPTY_LISTS + 4]) != b"ilar" or bytes(empty[-12:-8]) != b"sprs":
        raise RuntimeError("this FAISS release serialises IVF lists differently; cannot stream the index file")
    head = empty[:-_EMPTY_LISTS]
    head[_NTOTAL_AT] = np.int64(n).tobytes()
    code_size = int(ivf.code_size)
    written = out.write(bytes(head))
    written += out.write(b"ilar" + np.array([nlist, code_size], dtype=np.uint64).tobytes() + b"full")
    written += out.write(np.uint64(nlist).tobytes() + sizes.tobytes())
    ends = np.cumsum(sizes.astype(np.int64))
    first = 0
    while first < nlist:
        # The lists whose lines fill about one block (a list larger than a block goes alone).
        start = int(ends[first - 1]) if first else 0
        last = max(first + 1, int(np.searchsorted(ends, start + _ADD_BLOCK, side="right")))
        stop = int(ends[last - 1])
        rows = order[start:stop]
        if len(rows):
            block = gather_rows(vectors, rows, np.float32)  # lines from all over the file
            # A fresh copy of the empty trained index per group: emptying one (`reset`) keeps every
            # list's capacity, so over all groups it held the whole index again.
            group = faiss.clone_index(index)
            lists_of = faiss.extract_index_ivf(group)
            ids, assigned = np.ascontiguousarray(rows), lists[rows]  # named: swig_ptr holds no reference
            lists_of.add_core(len(rows), faiss.swig_ptr(block), faiss.swig_ptr(ids), faiss.swig_ptr(assigned))
            del block, ids, assigned
            for number in range(first, last):
                size = lists_of.invlists.list_size(number)
                if size:
                    codes = faiss.rev_swig_ptr(lists_of.invlists.get_codes(number), size * code_size)
                    written += out.write(codes.tobytes())
                    written += out.write(faiss.rev_swig_ptr(lists_of.invlists.get_ids(number), size).view(np.uint8).tobytes())
            del lists_of, group
        first = last
    return written


def _read(path: Path | None, n_lines: int) -> Any:
    """The FAISS index in `path`, read into memory; AnnUnreadable when FAISS cannot read it."""
    faiss = _faiss()
    try:
        # Read into memory, not mapped: FAISS touches a mapped index's pages even on release, so a
        # file damaged in place would kill the process (SIGBUS).
        index = faiss.read_index(str(path))
    except RuntimeError as exc:
        raise AnnUnreadable(f"{Path(str(path)).name!r} is not a readable FAISS index "
                            f"({str(exc).splitlines()[0]})") from exc
    if index.ntotal != n_lines:
        raise AnnUnreadable(f"{Path(str(path)).name!r} holds {index.ntotal} vectors; its header said {n_lines}")
    return index


# The start of every FAISS index file: its type's four letters, the dimension, the vectors it holds.
_HEADER = struct.Struct("<4siq")


class AnnUnreadable(ValueError):
    """A FAISS file whose header was sound but whose body FAISS cannot read (found at the first search)."""


class AnnIndex:
    """A trained FAISS IVF index whose ids are table lines 0..n_lines-1 (the base file's lines).

    One opened from a file (`load`) is checked by its header at once and read on its first search:
    opening an index, building one (which opens what it wrote) or adding to one never holds it
    (SQ8: 394 MB at 1M lines), so their memory does not grow with the corpus.
    """

    def __init__(self, index: Any, n_lines: int, nprobe: int = NPROBE, path: Path | None = None) -> None:
        self._index = index
        self._path = path
        self._lock = threading.Lock()
        self.n_lines = int(n_lines)
        self.nprobe = int(nprobe)
        self._nlist: int | None = None

    @property
    def index(self) -> Any:
        if self._index is None:
            with self._lock:
                if self._index is None:
                    self._index = _read(self._path, self.n_lines)
        return self._index

    @property
    def nlist(self) -> int:
        if self._nlist is None:
            self._nlist = int(_faiss().extract_index_ivf(self.index).nlist)
        return self._nlist

    @classmethod
    def train(
        cls, vectors: np.ndarray, codec: str = CODEC, nlist: int | None = None, nprobe: int = NPROBE, seed: int = 0
    ) -> AnnIndex:
        """Train on a sample of `vectors` (lines, dim: unit rows, possibly memory-mapped) and add every line.

        The whole index is then in memory (SQ8: 384 bytes a line); a build writes its file with
        `write_index` instead, which holds one block of lines.
        """
        index = _trained(vectors, codec, nlist, seed)
        n = len(vectors)
        for start in range(0, n, _ADD_BLOCK):
            block = np.ascontiguousarray(vectors[start : start + _ADD_BLOCK], dtype=np.float32)
            index.add_with_ids(block, np.arange(start, start + len(block), dtype=np.int64))
            release_rows(vectors, start, start + len(block))
        return cls(index, n, nprobe)

    def to_bytes(self) -> bytes:
        return _faiss().serialize_index(self.index).tobytes()

    @classmethod
    def load(cls, path: Path, n_lines: int, dim: int, nprobe: int = NPROBE) -> AnnIndex:
        """An index file, its header checked now and its body read on the first search; ValueError saying
        why when it is missing, not a FAISS index, or does not hold `n_lines` lines of `dim`."""
        _faiss()  # ImportError now, as when the file was read here
        try:
            with open(path, "rb") as f:
                head = f.read(_HEADER.size)
        except OSError as exc:
            raise ValueError(f"{path.name!r} cannot be read ({exc.strerror})") from exc
        if len(head) < _HEADER.size or not head[:4].isalpha() or head[:1] != b"I":
            raise ValueError(f"{path.name!r} is not a readable FAISS index (no FAISS header)")
        _, d, ntotal = _HEADER.unpack(head)
        if d != dim or ntotal != n_lines:
            raise ValueError(
                f"{path.name!r} holds {ntotal} vectors of {d} dimensions; the base vector file has {n_lines} of {dim}"
            )
        return cls(None, n_lines, nprobe, path=path)

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
