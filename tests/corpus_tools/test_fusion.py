"""Reciprocal rank fusion against hand-computed cases."""

from __future__ import annotations

import pytest

from corpus_tools import reciprocal_rank_fusion


def test_hand_computed_case():
    bm25 = ["a", "b", "c"]
    dense = ["c", "a", "d"]
    fused = dict(reciprocal_rank_fusion([bm25, dense], k=60))
    # a: 1/61 + 1/62 ; b: 1/62 ; c: 1/63 + 1/61 ; d: 1/63
    assert fused["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert fused["b"] == pytest.approx(1 / 62)
    assert fused["c"] == pytest.approx(1 / 63 + 1 / 61)
    assert fused["d"] == pytest.approx(1 / 63)
    assert [item for item, _ in reciprocal_rank_fusion([bm25, dense])] == ["a", "c", "b", "d"]


def test_small_k_changes_the_balance():
    # With k=0: x = 1/1 ; y = 1/2 + 1/2 = 1.0 -> tie broken by first appearance (x first).
    assert reciprocal_rank_fusion([["x", "y"], ["z", "y"]], k=0) == [("x", 1.0), ("y", 1.0), ("z", 1.0)]


def test_weights():
    fused = reciprocal_rank_fusion([["a", "b"], ["b", "a"]], k=60, weights=[2.0, 1.0])
    assert fused[0][0] == "a"
    assert fused[0][1] == pytest.approx(2 / 61 + 1 / 62)
    with pytest.raises(ValueError, match="one weight per ranking"):
        reciprocal_rank_fusion([["a"], ["b"]], weights=[1.0])


def test_generic_ids_duplicates_and_empty_inputs():
    # Doc ids from k rollouts (the agent's k× mode); an id repeated in one ranking counts once.
    fused = reciprocal_rank_fusion([["d1", "d2", "d1"], ["d2"], []], k=60)
    assert dict(fused) == pytest.approx({"d1": 1 / 61, "d2": 1 / 62 + 1 / 61})
    assert [d for d, _ in fused] == ["d2", "d1"]
    assert reciprocal_rank_fusion([]) == []
    assert reciprocal_rank_fusion([[], []]) == []
    assert reciprocal_rank_fusion([[3, 1, 2]]) == [(3, 1 / 61), (1, 1 / 62), (2, 1 / 63)]
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([["a"]], k=-1)


def test_deterministic_tie_breaking():
    a = reciprocal_rank_fusion([["p", "q"], ["q", "p"]])
    b = reciprocal_rank_fusion([["p", "q"], ["q", "p"]])
    assert a == b and [x for x, _ in a] == ["p", "q"]
