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
from collections.abc import Sequence

import numpy as np

from corpus_tools.pages import release_rows

SHINGLE_WORDS = 5
N_HASHES = 64
BANDS = 16
NEAR_COPY = 0.6
_GATHER_ROWS = 4_096  # signature rows read between two releases of a mapped spill file's pages (each read maps ~64 KB)
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


def score_signatures(docs: np.ndarray, sigs: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """`boilerplate_scores` over arrays: docs (n,) document numbers, sigs (n, N_HASHES) (a memory map
    of a build's spill file), valid (n,) False where a chunk was too short for a signature.

    Memory stays flat in n: each LSH band is a (n, 4) slice sorted in numpy, only the members of
    buckets holding two documents or more are compared, and each near copy found is one int64
    (chunk, other document) key, deduplicated band by band. The former dict of every band's
    buckets held 16 Python keys a chunk, and a set per chunk held its copies: gigabytes at 1M.
    """
    n = len(docs)
    scores = np.zeros(n, dtype=np.float64)
    n_docs = len(np.unique(docs))
    if n_docs < 2:
        return scores
    docs = np.asarray(docs, dtype=np.int64)
    stride = int(docs.max()) + 1
    index = np.flatnonzero(valid)
    width = N_HASHES // BANDS
    found = np.zeros(0, dtype=np.int64)  # chunk * stride + document holding a near copy of it
    for band in range(BANDS):
        # Gathered a block of rows at a time, and the pages read released as the loop goes (pages.py):
        # a memory-mapped spill file (512 MB at 1M chunks) otherwise ends up resident, band after band.
        part = np.empty((len(index), width), dtype=np.uint64)
        for at in range(0, len(index), _GATHER_ROWS):
            part[at : at + _GATHER_ROWS] = sigs[index[at : at + _GATHER_ROWS], band * width : (band + 1) * width]
            release_rows(sigs, 0, n)
        order = np.lexsort(part.T[::-1])
        ordered = part[order]
        first = np.ones(len(order), dtype=bool)
        first[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
        starts = np.flatnonzero(first)
        sizes = np.diff(np.append(starts, len(order)))
        keys = [found]
        touched = 0
        for start, size in zip(starts[sizes >= 2].tolist(), sizes[sizes >= 2].tolist(), strict=True):
            members = index[order[start : start + size]]
            if len(np.unique(docs[members])) >= 2:
                keys.append(_near_copies(members, docs, sigs, stride))
                touched += size
                if touched >= _GATHER_ROWS:  # the compared rows' pages, scattered over the file
                    release_rows(sigs, 0, n)
                    touched = 0
        release_rows(sigs, 0, n)
        found = np.unique(np.concatenate(keys))
    counts = np.bincount(found // stride, minlength=n)
    hit = np.flatnonzero(counts)
    scores[hit] = [round(c / (n_docs - 1), 3) for c in counts[hit].tolist()]  # Python's rounding, as before
    return scores


def _near_copies(members: np.ndarray, docs: np.ndarray, sigs: np.ndarray, stride: int) -> np.ndarray:
    """Keys chunk * stride + document of every near-copy pair among `members` (one LSH bucket)."""
    block = np.asarray(sigs[members])
    step = max(1, (1 << 22) // (len(members) * N_HASHES))  # ~4 MB of comparisons at a time
    keys = []
    for at in range(0, len(members), step):
        near = (block[at : at + step, None, :] == block[None, :, :]).mean(axis=2) >= NEAR_COPY
        a, b = np.nonzero(near)
        first, other = members[at + a], docs[members[b]]
        keep = docs[first] != other
        keys.append(first[keep] * stride + other[keep])
    return np.concatenate(keys)
