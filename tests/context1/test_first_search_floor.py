"""Issue 34, "never worse than one search" (session 44): the floor under the first search's passages
(`IterativeConfig.first_search_floor`).

Traced on the documentation tuning proxies: the gold passages the agent's top 5 still lost to one search quoted the
heading or sentence asked ("Changes between 2.1.2 and 2.1.3", "Package Requirements"); a later search's passage took
their place through a link written as an ordinary word in a first-search passage ("deprecations", "index"). With the
floor a first-search passage quoting the question is never displaced by one quoting less of it; a passage that does not
quote it (a bridge question's weakest hop-1 passage) is displaced as before."""

from __future__ import annotations

import dataclasses
import math

import pytest

from context1.answer import parse_citations
from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy, phrase_held, quoted_run
from context1.backends.learned import LearnedConfig
from context1.backends.llm_free import Ranking

QUESTION = "Changes between 2.1.2 and 2.1.3"
LATER = [("deprecations.md#0", "deprecations.md", "Deprecations", "Features deprecated in past releases.")]


def _first(fifth: str) -> list[tuple[str, str, str, str]]:
    """The question's own search, 5 chunks: the 2nd names the page "Deprecations" (an ordinary word of release
    notes), the 5th holds `fifth`."""
    out = [(f"d{i}.md#0", f"d{i}.md", f"D{i}", f"Release {i} notes.") for i in range(1, 6)]
    out[1] = ("d2.md#0", "d2.md", "D2", "See the deprecations page for what was removed.")
    out[4] = ("d5.md#0", "d5.md", "D5", fifth)
    return out


def _answer(fifth: str, later=LATER, **fields) -> list[str]:
    """The answer step alone, ranks for relevance (no vectors): a bridge search finds `later` first; its evidence is
    the link from the first search's 2nd passage, which the answer counts (`first_search_links`)."""
    rankings = [Ranking("h1-search", "search_corpus", QUESTION, _first(fifth), 1.0, 0),
                Ranking("r1-s0-e0", "search_corpus", "Deprecations changes", later, 1.0, 1)]
    cfg = IterativeConfig(cosine_scoring=False, **fields)
    text = IterativeRetrievalPolicy(None, cfg)._answer(QUESTION, rankings, cfg)
    return [c.raw_ids[-1] for c in parse_citations(text)][:5]


GOLD = "Changes between 2.1.2 and 2.1.3\n\nFixed the collection of doctests."
FIRST5 = ["d1.md#0", "d2.md#0", "d3.md#0", "d4.md#0", "d5.md#0"]


def test_a_passage_quoting_the_question_is_not_displaced_by_a_linked_page():
    # 22d84e9's answer: the linked page takes the weakest first-search passage's place, the one quoting the heading
    off = _answer(GOLD, first_search_floor=0.0)
    assert "deprecations.md#0" in off and "d5.md#0" not in off
    # the default: the floor holds it; the linked page takes the place of the weakest passage quoting less (the 4th)
    assert _answer(GOLD) == ["d1.md#0", "d2.md#0", "d3.md#0", "deprecations.md#0", "d5.md#0"]


def test_a_passage_not_quoting_the_question_is_displaced_as_before():
    # a bridge question's weakest hop-1 passage quotes nothing: the linked page (the second hop) still takes its place
    on = _answer("Release 5 notes.")
    assert on == _answer("Release 5 notes.", first_search_floor=0.0)
    assert "deprecations.md#0" in on and "d5.md#0" not in on


def test_a_newcomer_quoting_the_question_as_fully_may_take_the_place():
    quoting = [("deprecations.md#0", "deprecations.md", "Deprecations", "Changes between 2.1.2 and 2.1.3 removed.")]
    on = _answer(GOLD, later=quoting)
    assert on == _answer(GOLD, later=quoting, first_search_floor=0.0)
    assert "deprecations.md#0" in on and "d5.md#0" not in on


def test_every_first_search_passage_quoting_the_question_holds_the_head_as_one_search():
    rankings = [Ranking("h1-search", "search_corpus", QUESTION,
                        [(f"d{i}.md#0", f"d{i}.md", f"D{i}", GOLD) for i in range(1, 6)], 1.0, 0),
                Ranking("r1-s0-e0", "search_corpus", "Deprecations changes", LATER, 1.0, 1)]
    rankings[0].chunks[1] = ("d2.md#0", "d2.md", "D2", GOLD + " See the deprecations page.")
    cfg = IterativeConfig(cosine_scoring=False)
    text = IterativeRetrievalPolicy(None, cfg)._answer(QUESTION, rankings, cfg)
    assert [c.raw_ids[-1] for c in parse_citations(text)][:5] == FIRST5


def test_quoted_run_counts_the_questions_words_in_a_row():
    assert quoted_run(QUESTION, GOLD) == len("changes between 2 1 2 and 2 1 3".split())
    assert quoted_run(QUESTION, "The changes between versions") == 2
    assert quoted_run(QUESTION, "Changes between releases 2.1.2 and 2.1.3") == 7  # "2 1 2 and 2 1 3"
    assert quoted_run(QUESTION, "") == 0 and quoted_run("", GOLD) == 0
    # a share: half the question's words in a row holds at 0.5, not at 1.0; one word never holds
    half = "changes between 2 1 2"  # 5 of the 9 words
    assert phrase_held(QUESTION, half, "", 0.5) and not phrase_held(QUESTION, half, "", 1.0)
    assert not phrase_held("Installation", "Installation", "", 1.0)
    assert not phrase_held(QUESTION, GOLD, GOLD, 1.0)  # a newcomer quoting as much


def test_the_flag_is_a_field_off_is_22d84e9_and_the_learned_policy_keeps_it_off():
    assert IterativeConfig().first_search_floor == 1.0
    assert dataclasses.replace(IterativeConfig(), first_search_floor=0).first_search_floor == 0
    assert LearnedConfig().iterative.first_search_floor == 0.0
    assert LearnedConfig.from_dict({}).iterative.first_search_floor == 0.0  # a folder saved before it: off
    assert LearnedConfig.from_dict({"iterative": {"first_search_floor": 1.0}}).iterative.first_search_floor == 1.0


@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, "1", True, None])
def test_a_bad_share_is_a_clear_error(bad):
    with pytest.raises(ValueError, match=r"first_search_floor must be a share in \[0, 1\]"):
        IterativeConfig(first_search_floor=bad)
