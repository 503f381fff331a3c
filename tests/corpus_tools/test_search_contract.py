"""`Corpus.search` argument contracts: k, the query length shared with the agent, and build_report on open."""

from __future__ import annotations

import dataclasses

import pytest

from corpus_tools import Corpus
from corpus_tools.limits import MAX_K as MAX_SEARCH_K
from corpus_tools.limits import MAX_QUERY_CHARS


@pytest.mark.parametrize("k", [0, -1, MAX_SEARCH_K + 1])
def test_k_out_of_range_is_a_clear_error(corpus, k):
    with pytest.raises(ValueError, match=f"between 1 and {MAX_SEARCH_K:,}"):
        corpus.search("mill", k=k)
    with pytest.raises(ValueError, match="between 1"):
        corpus.search_leg("mill", "bm25", k=k)
    with pytest.raises(ValueError, match="between 1"):
        corpus.grep("mill", k=k)


@pytest.mark.parametrize("k", ["5", 2.0, True, None])
def test_k_of_the_wrong_type_names_the_type(corpus, k):
    with pytest.raises(TypeError, match="k must be a positive int"):
        corpus.search("mill", k=k)


def test_k_past_the_candidates_is_not_capped(corpus):
    """k above SearchConfig.candidates widens the pool: every chunk can be returned, none silently dropped."""
    n = len(corpus)
    small = Corpus.open(corpus.path, search=dataclasses.replace(corpus.config.search, candidates=5, leg_k=5))
    try:
        assert len(small.search("mill", k=3)) == 3
        hits = small.search("mill", k=n)
        assert len(hits) == n  # the old code returned 5 (the candidates) without a word
        assert len({h.chunk.chunk_id for h in hits}) == n
        top = [h.chunk.chunk_id for h in small.search("mill", k=5)]
        assert [h.chunk.chunk_id for h in hits[:5]] == top  # the head of the ranking is unchanged
    finally:
        small.close()


def test_the_query_limit_is_the_agents(corpus):
    from context1.config import AgentConfig

    assert AgentConfig().max_query_chars == MAX_QUERY_CHARS
    assert corpus.search("mill " * 10, k=1)
    with pytest.raises(ValueError, match=f"limit is {MAX_QUERY_CHARS:,}"):
        corpus.search("mill " * 20_001, k=1)


def test_build_report_survives_reopening(corpus, mini_index):
    report = corpus.build_report
    assert report is not None and report.documents == len(corpus.doc_ids()) and report.chunks == len(corpus)
    with Corpus.open(mini_index) as again:
        assert again.build_report == report
