"""benchmarks/policy_depth.py's separation table: which passage features set later-hop gold passages apart."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from context1.backends.learned import PASSAGE_FEATURES, Scorer

PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "policy_depth.py"


def _module():
    spec = importlib.util.spec_from_file_location("policy_depth", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_separation_counts_the_gold_passages_left_out_of_the_top_5_against_the_wrong_ones_in_it():
    """Six passages of a 3-gold question, scored by the first feature: gold g3 ranks 6th (missed) and
    holds the second feature; the top 5 holds two non-gold passages; a 2-gold question is not read."""
    n = len(PASSAGE_FEATURES)
    scorer = Scorer(np.zeros(n), np.ones(n), [(np.eye(n, 1), np.zeros(1))])  # the first feature's value
    x = np.zeros((7, n))
    x[:, 0] = [7, 6, 5, 4, 3, 2, 1]
    x[5, 1] = 1.0  # only the missed gold passage holds it
    docs = ["g1", "w1", "g2", "w2", "g1", "g3", "w3"]
    deep = {"gold": ["g1", "g2", "g3"]}
    shallow = {"gold": ["w1", "w2"]}
    table = _module().separation_table([(deep, x, docs), (shallow, x, docs)], scorer, lambda q: len(q["gold"]) >= 3)
    assert "1 missed gold passages, 2 non-gold in the top 5, 1 other non-gold" in table
    row = next(line for line in table.splitlines() if line.startswith(f"| {PASSAGE_FEATURES[1]} |"))
    assert row == f"| {PASSAGE_FEATURES[1]} | 1.000 | 0.000 | 0.000 |"
    none_missed = _module().separation_table([(shallow, x, docs)], scorer, lambda q: len(q["gold"]) >= 3)
    assert none_missed.startswith("(no gold passage missed")
