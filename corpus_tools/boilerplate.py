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
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

SHINGLE_WORDS = 5
N_HASHES = 64
BANDS = 16
NEAR_COPY = 0.6
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
    documents = sorted(set(doc_ids))
    n_docs = len(documents)
    scores = [0.0] * len(doc_ids)
    if n_docs < 2:
        return scores
    rows = N_HASHES // BANDS
    buckets: dict[tuple[int, bytes], list[int]] = defaultdict(list)
    for i, sig in enumerate(signatures):
        if sig is None:
            continue
        for band in range(BANDS):
            buckets[(band, sig[band * rows : (band + 1) * rows].tobytes())].append(i)
    copies: dict[int, set[str]] = defaultdict(set)
    checked: set[tuple[int, int]] = set()
    for members in buckets.values():
        if len(members) < 2 or len({doc_ids[m] for m in members}) < 2:
            continue
        for a_pos, a in enumerate(members):
            for b in members[a_pos + 1 :]:
                if doc_ids[a] == doc_ids[b] or (a, b) in checked:
                    continue
                checked.add((a, b))
                if float(np.mean(signatures[a] == signatures[b])) >= NEAR_COPY:
                    copies[a].add(doc_ids[b])
                    copies[b].add(doc_ids[a])
    for i, others in copies.items():
        scores[i] = round(len(others) / (n_docs - 1), 3)
    return scores
