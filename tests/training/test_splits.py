"""One hash split for every tuning/reporting part and held-back set (training/splits.py)."""

from __future__ import annotations

import hashlib

from training.splits import TUNE_SHARE, hash_fraction, part_of


def test_the_split_is_the_one_every_earlier_figure_used():
    # The four copies this replaced computed exactly this; a change would move every tuning/reporting part.
    for key in ["q0", "5a8b57f25542995d1e6f1371", "0:2hop__128_36", "use:x"]:
        old = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") / 2**64
        assert hash_fraction(key) == old
    assert [part_of(f"q{i}") for i in range(8)] == ["report" if hash_fraction(f"q{i}") >= TUNE_SHARE else "tune"
                                                     for i in range(8)]


def test_the_tuning_part_is_about_a_quarter():
    parts = [part_of(str(i)) for i in range(4_000)]
    assert 0.22 < parts.count("tune") / len(parts) < 0.28
    assert all(0.0 <= hash_fraction(str(i)) < 1.0 for i in range(100))
