"""Deterministic splits by a hash of an id: the same id lands on the same side on every machine and run.

One function (`hash_fraction`) makes the number every split compares: the reporting/tuning parts of
the benchmarks (`part_of`), the held-back validation tasks of the reranker, fusion and search-policy
trainers. Python's `hash()` would not do: it is salted per process.
"""

from __future__ import annotations

import hashlib

# The tuning share of the dev benchmarks' task-id split (benchmarks/reranker_quality.py and the
# question writer tune on it; everything else of a benchmark is the reporting part).
TUNE_SHARE = 0.25


def hash_fraction(key: str) -> float:
    """A number in [0, 1) fixed by `key`: the first 8 bytes of its SHA-256, as a fraction of 2**64."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") / 2**64


def part_of(task_id: str, tune_share: float = TUNE_SHARE) -> str:
    """"tune" or "report": the benchmarks' split of a task by a hash of its id (`TUNE_SHARE` tunes)."""
    return "tune" if hash_fraction(task_id) < tune_share else "report"
