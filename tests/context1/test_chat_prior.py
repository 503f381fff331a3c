"""The learned policy's conversation prior (context1/backends/chat_prior; issue 34, sessions 37-38): it ships
with the package, is small, was fit on chats that are none of the reported sets, and the untrained policy
starts from it on a conversation corpus only ("auto"), from the hand-set prior on any other; either can be
forced, and a name that is neither is an error."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from context1 import SearchAgent
from context1.backends.learned import (
    CHAT_PRIOR,
    DEFAULT_PRIOR,
    DOC_FEATURES,
    PASSAGE_FEATURES,
    PRIORS,
    QUERY_FEATURES,
    LearnedSearchPolicy,
    PolicyWeights,
    open_policy,
    resolve_prior,
)
from corpus_tools import Corpus, CorpusConfig, Document

QUESTION = "Who is the mayor of the river town founded by salt merchants?"
REPORTED = ("hotpotqa", "musique", "locomo")  # the reported sets: never what the prior is fit on

CHAT_SESSIONS = [
    Document("chat-1", "Caroline: I went to a support group yesterday.\nMelanie: That sounds powerful! "
             "I painted a lake at dawn last week.\nCaroline: Send me a photo of the lake!", title="session 1"),
    Document("chat-2", "Melanie: We went camping by the river with the kids.\nCaroline: Did they swim?\n"
             "Melanie: All day, and we roasted marshmallows.", title="session 2"),
    Document("chat-3", "Caroline: I signed up for a pottery class.\nMelanie: What will you make first?\n"
             "Caroline: A bowl for my mother.", title="session 3"),
]


@pytest.fixture(scope="module")
def chat_corpus(tmp_path_factory):
    config = CorpusConfig(embedding_cache=str(tmp_path_factory.mktemp("chat-embedding-cache")))
    with Corpus.build(CHAT_SESSIONS, tmp_path_factory.mktemp("chat-index") / "index", config=config,
                      progress=False) as corpus:
        yield corpus


def _x(seed: int, n: int = 6) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, len(PASSAGE_FEATURES)))


def test_the_chat_prior_is_a_small_linear_policy_fit_on_other_chats_only():
    w = open_policy(CHAT_PRIOR)
    assert sum(p.stat().st_size for p in CHAT_PRIOR.iterdir()) < 20_000  # KBs, committed
    assert (w.query.kind, w.doc.kind, w.passage.kind) == ("linear", "linear", "linear")
    spec = json.loads((CHAT_PRIOR / "policy.json").read_text())
    assert "index" not in spec  # meant for every chat corpus: no index to warn about
    fit_on = [t["tasks"].lower() for t in spec["trained_on"]]
    assert fit_on and not any(s in t for t in fit_on for s in REPORTED)
    assert not any("office" in t for t in fit_on)  # chats only (session 37's fit took the office fixture too)
    rng = np.random.default_rng(0)
    for scorer, names in ((w.query, QUERY_FEATURES), (w.doc, DOC_FEATURES), (w.passage, PASSAGE_FEATURES)):
        s = scorer(rng.normal(size=(9, len(names))))
        assert s.shape == (9,) and np.isfinite(s).all() and np.ptp(s) > 0
    x = _x(0, 50)  # it learned something: it does not rank as the hand-set prior does
    assert not np.array_equal(np.argsort(-w.passage(x)), np.argsort(-PolicyWeights.prior().passage(x)))


def test_auto_is_the_chat_prior_on_a_conversation_and_the_hand_set_one_on_any_other_corpus(chat_corpus,
                                                                                           harness_corpus):
    assert set(PRIORS) == {"auto", "chat", "hand"} and DEFAULT_PRIOR == "auto"
    assert resolve_prior("auto", chat_corpus) == "chat"
    assert resolve_prior("auto", harness_corpus) == "hand"
    assert resolve_prior("auto", None) == "hand"  # nothing to read: the hand-set prior, as before
    assert resolve_prior("hand", chat_corpus) == "hand" and resolve_prior("chat", harness_corpus) == "chat"
    x = _x(1)
    hand, chat = PolicyWeights.prior().passage(x), open_policy(CHAT_PRIOR).passage(x)
    auto_chat = PolicyWeights.start("auto", corpus=chat_corpus)
    auto_docs = PolicyWeights.start("auto", corpus=harness_corpus)
    assert np.array_equal(auto_chat.passage(x), chat) and auto_chat.meta["prior"] == "chat"
    assert np.array_equal(auto_docs.passage(x), hand) and auto_docs.meta["prior"] == "hand"
    assert auto_chat.meta["asked"] == "auto" and "index" not in auto_chat.meta
    assert auto_chat.config == auto_docs.config  # the same knobs as the untrained policy's, agreement included
    # the untrained policy (no folder) starts from the same choice
    assert np.array_equal(LearnedSearchPolicy(chat_corpus).weights.passage(x), chat)
    assert np.array_equal(LearnedSearchPolicy(harness_corpus).weights.passage(x), hand)
    assert np.array_equal(LearnedSearchPolicy(harness_corpus, prior="chat").weights.passage(x), chat)
    assert np.array_equal(LearnedSearchPolicy(chat_corpus, prior="hand").weights.passage(x), hand)


def test_a_prior_that_is_neither_is_an_error():
    for bad in ("shipped", "learned-somewhere", ""):
        with pytest.raises(ValueError, match="choose one of auto, chat, hand"):
            PolicyWeights.start(bad)
        with pytest.raises(ValueError, match="choose one of"):
            resolve_prior(bad, None)


def test_an_episode_runs_on_a_chat_corpus_from_the_chat_prior_without_an_index_warning(chat_corpus):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        backend = LearnedSearchPolicy(chat_corpus)
    assert backend.index_match is None and backend.weights.meta["prior"] == "chat"
    result = SearchAgent(chat_corpus, backend).run("What did Caroline sign up for?")
    assert result.doc_ids and result.evidence


def test_an_episode_runs_from_the_chat_prior_on_pages_when_forced(harness_corpus):
    backend = LearnedSearchPolicy(harness_corpus, prior="chat")
    result = SearchAgent(harness_corpus, backend).run(QUESTION)
    assert result.doc_ids and result.evidence
