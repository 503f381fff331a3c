"""The learned policy's shipped prior (context1/backends/policy_prior; issue 34, session 37): it ships with
the package, is small, loads and scores, and the untrained policy can start from it or from the hand-set prior."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from context1 import SearchAgent
from context1.backends.learned import (
    DEFAULT_PRIOR,
    DOC_FEATURES,
    PASSAGE_FEATURES,
    PRIORS,
    QUERY_FEATURES,
    SHIPPED_PRIOR,
    LearnedSearchPolicy,
    PolicyWeights,
    open_policy,
)

QUESTION = "Who is the mayor of the river town founded by salt merchants?"
REPORTED = ("hotpotqa", "musique", "locomo")  # the reported sets: never what the shipped prior is fit on


def test_the_shipped_prior_is_a_small_linear_policy_fit_on_other_corpora():
    w = open_policy(SHIPPED_PRIOR)
    assert sum(p.stat().st_size for p in SHIPPED_PRIOR.iterdir()) < 20_000  # KBs, committed
    assert (w.query.kind, w.doc.kind, w.passage.kind) == ("linear", "linear", "linear")
    spec = json.loads((SHIPPED_PRIOR / "policy.json").read_text())
    assert "index" not in spec  # meant for every corpus: no index to warn about
    assert spec["trained_on"] and not any(s in t["tasks"].lower() for t in spec["trained_on"] for s in REPORTED)
    rng = np.random.default_rng(0)
    for scorer, names in ((w.query, QUERY_FEATURES), (w.doc, DOC_FEATURES), (w.passage, PASSAGE_FEATURES)):
        s = scorer(rng.normal(size=(9, len(names))))
        assert s.shape == (9,) and np.isfinite(s).all() and np.ptp(s) > 0
    # it learned something: it does not score as the hand-set prior does
    hand = PolicyWeights.prior()
    x = rng.normal(size=(50, len(PASSAGE_FEATURES)))
    assert not np.array_equal(np.argsort(-w.passage(x)), np.argsort(-hand.passage(x)))


def test_start_picks_the_shipped_or_the_hand_set_prior():
    x = np.random.default_rng(1).normal(size=(6, len(PASSAGE_FEATURES)))
    hand, shipped = PolicyWeights.start("hand"), PolicyWeights.start("shipped")
    assert np.array_equal(hand.passage(x), PolicyWeights.prior().passage(x))
    assert np.array_equal(shipped.passage(x), open_policy(SHIPPED_PRIOR).passage(x))
    assert shipped.config == hand.config  # the same knobs as the untrained policy's, agreement included
    assert "index" not in shipped.meta
    with pytest.raises(ValueError, match="choose one of shipped, hand"):
        PolicyWeights.start("learned-somewhere")
    assert set(PRIORS) == {"shipped", "hand"} and DEFAULT_PRIOR in PRIORS
    default = LearnedSearchPolicy(None)
    assert np.array_equal(default.weights.passage(x), PolicyWeights.start(DEFAULT_PRIOR).passage(x))
    assert np.array_equal(LearnedSearchPolicy(None, prior="shipped").weights.passage(x), shipped.passage(x))


def test_an_episode_runs_from_the_shipped_prior_without_an_index_warning(harness_corpus):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        backend = LearnedSearchPolicy(harness_corpus, prior="shipped")
    assert backend.index_match is None
    result = SearchAgent(harness_corpus, backend).run(QUESTION)
    assert result.doc_ids and result.evidence
