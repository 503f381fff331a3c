"""Issue 34, "never worse than one search" (session 43): which links let a page new to the answer's head displace a
first-search passage (`IterativeConfig.first_search_links`).

Traced on the documentation tuning proxies: the head lost a gold first-search passage to a page a bridge search found,
"linked" by a passage outside the first search's top 5 (Starlette's `middleware.md` and FastAPI's `cors.md` naming
each other, FastAPI's `index.md` named by "index" in the release notes). With the rule a link counts as that evidence
only from the first search's top k; a link from there (HotpotQA's bridge) still displaces the weakest passage."""

from __future__ import annotations

import dataclasses

import pytest

from context1.answer import parse_citations
from context1.backends.iterative import DocPart, IterativeConfig, IterativeRetrievalPolicy
from context1.backends.learned import LearnedConfig
from context1.backends.llm_free import Ranking

QUESTION = "How is a full request tested?"


def _first(linker_rank: int) -> list[tuple[str, str, str, str]]:
    """The question's own search, 7 chunks; the one at `linker_rank` (1-based) names the page "Middleware"."""
    out = [(f"d{i}.md#0", f"d{i}.md", f"D{i}", f"Passage {i} about requests.") for i in range(1, 8)]
    i = linker_rank - 1
    out[i] = (out[i][0], out[i][1], out[i][2], "Add it with the Middleware class.")
    return out


def _answer(linker_rank: int, **fields) -> list[str]:
    """The answer step alone, ranks for relevance (no vectors): a bridge search finds `middleware.md` first; its
    only evidence is the link from the first-search chunk at `linker_rank`."""
    later = [("middleware.md#0", "middleware.md", "Middleware", "Middleware wraps the application.")]
    rankings = [Ranking("h1-search", "search_corpus", QUESTION, _first(linker_rank), 1.0, 0),
                Ranking("r1-s0-e0", "search_corpus", "Middleware requests", later, 1.0, 1)]
    cfg = IterativeConfig(cosine_scoring=False, **fields)
    text = IterativeRetrievalPolicy(None, cfg)._answer(QUESTION, rankings, cfg)
    return [c.raw_ids[-1] for c in parse_citations(text)][:5]


FIRST5 = ["d1.md#0", "d2.md#0", "d3.md#0", "d4.md#0", "d5.md#0"]


def test_a_link_from_outside_the_first_searchs_top_5_displaces_nothing():
    # the linker is 6th in the question's own search: ee9f243's answer lets middleware.md take d5's place
    off = _answer(6, first_search_links=0)
    assert "middleware.md#0" in off and "d5.md#0" not in off
    assert _answer(6) == FIRST5  # on (the default, k = 5): the head is the first search's top 5
    assert _answer(6, first_search_links=6) == off[:5]  # a k that reaches the linker counts it again


def test_a_link_from_the_first_search_still_displaces_the_weakest_passage():
    # the 2-hop bridge: the 2nd passage of the question's own search names the page; both settings take it
    on = _answer(2)
    assert on == _answer(2, first_search_links=0)
    assert "middleware.md#0" in on and "d2.md#0" in on and "d5.md#0" not in on


def test_doc_parts_keep_every_link_for_the_scores_and_count_first_search_links_apart():
    later = [("middleware.md#0", "middleware.md", "Middleware", "Middleware wraps the application.")]
    rankings = [Ranking("h1-search", "search_corpus", QUESTION, _first(6), 1.0, 0),
                Ranking("r1-s0-e0", "search_corpus", "Middleware requests", later, 1.0, 1)]
    for k, first_link in ((5, 0.0), (0, 0.0), (6, 0.5)):
        cfg = IterativeConfig(cosine_scoring=False, first_search_links=k)
        part = IterativeRetrievalPolicy(None, cfg).doc_parts(QUESTION, rankings, cfg).docs["middleware.md"]
        assert part.link == pytest.approx(0.5) and part.linker == "d6.md"  # 5 / (4 + 6): the score keeps it
        assert part.first_link == pytest.approx(first_link)


def test_the_flag_is_a_field_off_is_ee9f243_and_the_learned_policy_keeps_it_off():
    assert IterativeConfig().first_search_links == 5
    assert dataclasses.replace(IterativeConfig(), first_search_links=0).first_search_links == 0
    assert LearnedConfig().iterative.first_search_links == 0
    assert LearnedConfig.from_dict({}).iterative.first_search_links == 0  # a folder saved before it: off
    assert LearnedConfig.from_dict({"iterative": {"first_search_links": 5}}).iterative.first_search_links == 5
    assert DocPart(1.0, "a#0", 0.0, None, "", 0.0, None, "").first_link == 0.0  # old positional callers


@pytest.mark.parametrize("bad", [-1, 2.5, "5"])
def test_a_bad_k_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="first_search_links must be an int >= 0"):
        IterativeConfig(first_search_links=bad)

