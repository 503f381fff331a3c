"""Boilerplate: passages repeated nearly verbatim across many documents, scored 0..1 at build.

Filings repeat the same certifications, exhibit indexes, safe-harbour notices and contents pages
in every document; on a shared index those passages match many questions well and crowd out the
passage that answers. They are not deleted (a question about the certification must still find
it): each chunk gets metadata "boilerplate" = the share of the *other* documents that hold a near
copy of it, which search can score down.

Near copies are found with MinHash over word 5-shingles (Broder 1997) and LSH banding (16 bands
of 4 rows: pairs with Jaccard similarity ≥ 0.5 become candidates with probability ≥ 0.65, and ≥ 0.98
at 0.8); a candidate counts when its estimated Jaccard similarity is at least NEAR_COPY. Figures
are kept in the shingles, so this quarter's income statement is no copy of last quarter's.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from corpus_tools.pages import gather_rows, release, release_rows

SHINGLE_WORDS = 5
N_HASHES = 64
BANDS = 16
NEAR_COPY = 0.6
_GATHER_ROWS = 4_096  # signature rows read between two releases of a mapped spill file's pages (each read maps ~64 KB)
# Near copies found are kept on disk (_PairFiles): at most this many keys (8 bytes each) in memory at once,
# in files of this many chunks' keys.
_PAIR_BUFFER = 1 << 19  # 4 MB of keys (deduplicated at a flush: three copies)
_PAIR_RANGE_ROWS = 1 << 16
MIN_SHINGLES = 3  # a passage of fewer than 7 words is too short to call a copy
_WORD = re.compile(r"\w+")
_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def _salts() -> np.ndarray:
    digest = b"".join(hashlib.blake2b(f"minhash-{i}".encode(), digest_size=8).digest() for i in range(N_HASHES))
    return np.frombuffer(digest, dtype=np.uint64).copy()


_SALTS = _salts()


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a fast, well-spread 64-bit permutation (wraps around by design)."""
    with np.errstate(over="ignore"):
        x = x ^ (x >> np.uint64(30))
        x = x * np.uint64(0xBF58476D1CE4E5B9)
        x = x ^ (x >> np.uint64(27))
        x = x * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def signature(text: str) -> np.ndarray | None:
    """The MinHash signature (N_HASHES uint64) of a text's word shingles; None when it is too short."""
    words = _WORD.findall(text.lower())
    shingles = {" ".join(words[i : i + SHINGLE_WORDS]) for i in range(max(0, len(words) - SHINGLE_WORDS + 1))}
    if len(shingles) < MIN_SHINGLES:
        return None
    hashed = np.array(
        [int.from_bytes(hashlib.blake2b(s.encode(), digest_size=8).digest(), "little") for s in shingles],
        dtype=np.uint64,
    )
    return _mix(hashed[:, None] ^ _SALTS[None, :]).min(axis=0)


def boilerplate_scores(doc_ids: Sequence[str], signatures: Sequence[np.ndarray | None]) -> list[float]:
    """For each chunk, the share of the other documents holding a near copy of it (0 when none or unknown)."""
    numbers = {doc: i for i, doc in enumerate(sorted(set(doc_ids)))}
    valid = np.array([sig is not None for sig in signatures], dtype=bool)
    sigs = np.zeros((len(signatures), N_HASHES), dtype=np.uint64)
    for i, sig in enumerate(signatures):
        if sig is not None:
            sigs[i] = sig
    docs = np.array([numbers[d] for d in doc_ids], dtype=np.int64)
    return score_signatures(docs, sigs, valid).tolist()


def score_signatures(docs: np.ndarray, sigs: np.ndarray, valid: np.ndarray, scratch: Path | None = None) -> np.ndarray:
    """`boilerplate_scores` over arrays: docs (n,) document numbers, sigs (n, N_HASHES) (a memory map
    of a build's spill file), valid (n,) False where a chunk was too short for a signature.
    scratch: a folder for the near copies found (a build's staging folder); None: a temporary one.

    Memory stays flat in n and in how often a passage repeats. Each LSH band is one hashed key a
    chunk, sorted in numpy; only the members of buckets holding two documents or more are compared;
    a pair of chunks is kept only in the first band they share (so 16 bands find it once); and each
    near copy found, one int64 (chunk, other document) key, goes to files on disk (`_PairFiles`),
    counted per chunk at the end. The former set of every key in memory held 8 bytes per pair of
    near copies, with sorting copies: a passage in k documents costs k² of them (about 1 GB on the
    1M-chunk benchmark, whose every real paragraph recurs ~48 times).
    """
    n = len(docs)
    scores = np.zeros(n, dtype=np.float64)
    n_docs = len(np.unique(docs))
    if n_docs < 2:
        return scores
    docs = np.asarray(docs, dtype=np.int64)
    stride = int(docs.max()) + 1
    index = np.flatnonzero(valid)
    with _PairFiles(n, stride, scratch) as pairs:
        for band in range(BANDS):
            keys = _band_keys(sigs, index, band)
            order = np.argsort(keys, kind="stable").astype(np.int32)  # 4 bytes a chunk (n < 2**31)
            keys = keys[order]
            first = np.ones(len(keys), dtype=bool)
            first[1:] = keys[1:] != keys[:-1]
            del keys
            starts = np.flatnonzero(first).astype(np.int32)
            del first
            sizes = np.diff(np.append(starts, len(order)))
            touched = 0
            for start, size in zip(starts[sizes >= 2].tolist(), sizes[sizes >= 2].tolist(), strict=True):
                members = index[order[start : start + size]]
                if len(np.unique(docs[members])) >= 2:
                    for found in _near_copies(members, docs, sigs, stride, band):
                        pairs.add(found)
                    touched += size
                    if touched >= _GATHER_ROWS:  # the compared rows' pages, scattered over the file
                        release_rows(sigs, 0, n)
                        touched = 0
            release_rows(sigs, 0, n)
            del order, starts, sizes
        counts = pairs.counts()
    hit = np.flatnonzero(counts)
    for at in range(0, len(hit), _GATHER_ROWS):  # Python's rounding, as before; a block of Python floats at a time
        rows = hit[at : at + _GATHER_ROWS]
        scores[rows] = [round(c / (n_docs - 1), 3) for c in counts[rows].tolist()]
    return scores


def _band_keys(sigs: np.ndarray, index: np.ndarray, band: int) -> np.ndarray:
    """One uint64 per row of `index`: its band `band` (N_HASHES // BANDS values) mixed into one key.

    Rows with equal band values get equal keys; distinct values that happen to mix to one key only
    put two rows in one bucket, and `_near_copies` counts a pair only in a band where its values are
    equal, so a collision costs a comparison, never a score. Gathered a block of rows at a time, the
    pages read released as the loop goes (pages.py): a memory-mapped spill file (512 MB at 1M
    chunks) otherwise ends up resident, band after band.
    """
    width = N_HASHES // BANDS
    keys = np.empty(len(index), dtype=np.uint64)
    n = len(sigs)
    for at in range(0, len(index), _GATHER_ROWS):
        part = gather_rows(sigs, index[at : at + _GATHER_ROWS])[:, band * width : (band + 1) * width]
        mixed = np.zeros(len(part), dtype=np.uint64)
        for column in range(width):
            mixed = _mix(mixed ^ part[:, column])
        keys[at : at + _GATHER_ROWS] = mixed
        release_rows(sigs, 0, n)
    return keys


def _near_copies(
    members: np.ndarray, docs: np.ndarray, sigs: np.ndarray, stride: int, band: int
) -> Iterator[np.ndarray]:
    """Keys chunk * stride + document of the near-copy pairs among `members` (one bucket of LSH band `band`)
    whose first shared band is this one (a pair sharing several bands is counted in its first), a
    block of ~4 MB of comparisons at a time."""
    block = gather_rows(sigs, members)
    width = N_HASHES // BANDS
    step = max(1, (1 << 22) // (len(members) * N_HASHES))
    for at in range(0, len(members), step):
        equal = block[at : at + step, None, :] == block[None, :, :]
        near = equal.mean(axis=2) >= NEAR_COPY
        shape = equal.shape[:2]
        near &= equal[:, :, band * width : (band + 1) * width].all(axis=2)
        if band:
            near &= ~equal[:, :, : band * width].reshape(*shape, band, width).all(axis=3).any(axis=2)
        a, b = np.nonzero(near)
        first, other = members[at + a], docs[members[b]]
        keep = docs[first] != other
        yield first[keep] * stride + other[keep]


class _PairFiles:
    """(chunk, document) keys, on disk in files by chunk range, deduplicated and counted per chunk at the end.

    Memory holds at most `_PAIR_BUFFER` keys before they are appended to their range's file, and
    `counts` reads one range at a time (a range whose keys exceed the buffer in slices of chunks,
    each at most the buffer unless one chunk alone has more).
    """

    def __init__(self, n: int, stride: int, scratch: Path | None) -> None:
        self.n, self.stride = n, stride
        self._temporary = tempfile.TemporaryDirectory(prefix=".boilerplate-pairs-", dir=scratch)
        self.folder = Path(self._temporary.name)
        self.rows = max(1, _PAIR_RANGE_ROWS)
        self.sizes = np.zeros(-(-n // self.rows), dtype=np.int64)  # keys written to each range's file
        self._buffer: list[np.ndarray] = []
        self._buffered = 0

    def __enter__(self) -> _PairFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self._temporary.cleanup()

    def _file(self, part: int) -> Path:
        return self.folder / f"{part}.keys"

    def add(self, keys: np.ndarray) -> None:
        if len(keys):
            self._buffer.append(keys)
            self._buffered += len(keys)
            if self._buffered >= _PAIR_BUFFER:
                self._flush()

    def _flush(self) -> None:
        if not self._buffer:
            return
        keys = np.unique(np.concatenate(self._buffer))
        self._buffer, self._buffered = [], 0
        parts = keys // self.stride // self.rows
        bounds = np.searchsorted(parts, np.arange(len(self.sizes) + 1))  # keys are sorted: so are parts
        for part in np.flatnonzero(np.diff(bounds)).tolist():
            with open(self._file(part), "ab") as f:
                f.write(keys[bounds[part] : bounds[part + 1]].tobytes())
            self.sizes[part] += bounds[part + 1] - bounds[part]

    def counts(self) -> np.ndarray:
        """How many distinct documents hold a near copy of each chunk (n,)."""
        self._flush()
        counts = np.zeros(self.n, dtype=np.int64)
        for part in np.flatnonzero(self.sizes).tolist():
            keys = np.memmap(self._file(part), dtype=np.int64, mode="r")
            lo = part * self.rows
            # Slices of this range's chunks holding at most _PAIR_BUFFER keys each (one pass to count them).
            per_chunk = np.zeros(min(self.rows, self.n - lo), dtype=np.int64)
            for at in range(0, len(keys), _PAIR_BUFFER):
                per_chunk += np.bincount(keys[at : at + _PAIR_BUFFER] // self.stride - lo, minlength=len(per_chunk))
                release(keys, at * 8, (at + _PAIR_BUFFER) * 8)
            ends = np.cumsum(per_chunk)
            first = 0
            while first < len(per_chunk):
                done = int(ends[first - 1]) if first else 0
                last = max(first + 1, int(np.searchsorted(ends, done + _PAIR_BUFFER, side="right")))
                counts[lo + first : lo + last] = self._distinct(keys, lo + first, lo + last)
                first = last
            del keys
        return counts

    def _distinct(self, keys: np.ndarray, lo: int, hi: int) -> np.ndarray:
        """Distinct documents per chunk of chunks [lo, hi), from a range file's keys (read in blocks)."""
        picked = []
        for at in range(0, len(keys), _PAIR_BUFFER):
            block = np.asarray(keys[at : at + _PAIR_BUFFER])
            chunk = block // self.stride
            picked.append(block[(chunk >= lo) & (chunk < hi)])
            release(keys, at * 8, (at + _PAIR_BUFFER) * 8)
        found = np.unique(np.concatenate(picked))
        return np.bincount(found // self.stride - lo, minlength=hi - lo)
