"""Fifth-place answer rules tried offline on saved filings episodes (benchmarks/agent_slot_rules.py): how a compound
question is split into its asks, which chunk each rule picks from what the policy saw, and how a rule is scored
against the agent's own top 5 (won, lost, the 5th place turned into or out of a holder)."""

from __future__ import annotations

import pytest
from bench_modules import bench


def _module():
    return bench("agent_slot_rules")


def test_a_compound_question_splits_at_its_joins_and_a_single_ask_does_not():
    sr = _module()
    assert sr.question_parts("How did Apple's operating expenses for Q1 2023 compare to its revenue for the same "
                             "quarter?") == ["How did Apple's operating expenses for Q1 2023",
                                             "its revenue for the same quarter"]
    assert sr.question_parts("What was Apple's gross margin in the latest 10-Q?") == []
    # a join whose second half has no ask of its own ("what was the magnitude"): one ask
    assert sr.question_parts("Did Microsoft undertake any share repurchase programs in Q3 2023, and what was the "
                             "magnitude?") == []


def test_an_instruction_after_the_question_is_no_part_and_a_bare_and_joins_only_when_asked():
    sr = _module()
    q = ("Has AMCOR's quick ratio improved or declined between FY2023 and FY2022? If the quick ratio is not "
         "something a financial analyst would ask about, then state that and explain why.")
    assert sr.question_parts(q) == []
    names = "How do the insights from the liquidity and capital resources section relate to cash flow from operations?"
    assert sr.question_parts(names) == ["How do the insights from the liquidity and capital resources section",
                                        "cash flow from operations"]
    assert sr.question_parts(names, bare_and=True)[:2] == ["How do the insights from the liquidity",
                                                          "capital resources section"]


class _Vectors:
    """Cosine by shared words: enough to say which shown chunk is closest to a part."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def similarity(self, query: str, ids: list[str]) -> list[float]:
        q = set(query.lower().split())
        return [len(q & set(self.texts[c].lower().split())) / (1 + len(q)) for c in ids]


def _episode(passages: list[str], first: list[str], later: list[str]) -> dict:
    return {"id": "q1", "rule": "figures", "figures": ["100", "200", "300", "400"], "question": "How did Apple's revenue by segment compare to its "
            "total operating expenses?", "passages": passages,
            "observations": [{"tool": "search_corpus", "query": "q", "ids": first},
                             {"tool": "prune_chunks", "query": "", "ids": []},
                             {"tool": "search_corpus", "query": "later", "ids": later}],
            "first": first, "holds": {"f#1": ["100"], "f#2": [], "f#3": [], "f#4": [], "f#5": ["200"]}}


def test_each_rule_picks_from_what_the_policy_saw():
    sr = _module()
    first = ["f#1", "f#2", "f#3", "f#4", "f#5", "f#9", "f#12", "f#6"]
    ep = _episode(first[:5], first, ["f#40", "f#41"])
    texts = {c: "balance sheet" for c in first}
    texts["f#12"] = "total operating expenses research and development"
    texts["f#1"] = "revenue by segment"
    assert sr.parts_cosine(_Vectors(texts))(ep) == "f#12"  # the 2nd part's closest shown chunk, not in the top 4
    assert sr.adjacent_top(1)(ep) is None  # f#2 is in the top 5 already; nothing 6-10 borders f#1
    assert sr.adjacent_top(5)(ep) == "f#6"  # f#6 borders f#5
    assert sr.later_top1(ep) == "f#40"  # the first later search_corpus, past the prune
    sections = {"f#1": "a", "f#2": "b", "f#3": "b", "f#4": "b", "f#5": "b", "f#9": "b", "f#12": "c", "f#6": "b"}
    assert sr.section_diverse(sections.get)(ep) == "f#12"  # 4 of the top 5 (the 5th too) in "b"


def test_a_rule_is_scored_by_questions_won_and_lost_and_its_fifth_places():
    sr = _module()
    held = _episode(["f#1", "f#2", "f#3", "f#4", "f#5"], ["f#1", "f#2", "f#3", "f#4", "f#5", "f#7"], [])
    missed = dict(_episode(["f#1", "f#2", "f#3", "f#4", "f#6"], ["f#1", "f#2", "f#3", "f#4", "f#6", "f#5"], []),
                  id="q2", holds={"f#1": ["100"], "f#2": [], "f#3": [], "f#4": [], "f#6": []})
    asked = []

    def holds(ep: dict, cid: str):  # a chunk the trace did not record is read once, on demand
        asked.append(cid)
        return ["200"] if cid == "f#5" else []

    out = sr.score_rule([held, missed], lambda ep: "f#7" if ep["id"] == "q1" else "f#5", holds)
    assert out == {"fired": 2, "gained": 1, "dropped": 1, "won": ["q2"], "lost": ["q1"]}
    assert asked == ["f#7", "f#5"]
    # the ceiling picks only for a missed answer, and only a chunk that completes it
    assert sr.ceiling(lambda ep: ep["first"][5:])(held) is None
    assert sr.ceiling(lambda ep: ep["first"][5:])(missed) == "f#5"


def test_agreement_counts_every_search_that_showed_or_refound_a_chunk_beyond_its_best():
    sr = _module()
    ep = _episode(["f#1", "f#2", "f#3", "f#4", "f#5"], ["f#1", "f#2", "f#3", "f#4", "f#5", "f#9", "f#12"], ["f#40"])
    assert sr.agreement(ep) == {}  # a trace saved without --refound: no search re-found anything
    assert sr.agreement_top(True)(ep) is None
    ep["observations"][2]["refound"] = [["f#12", 1], ["f#5", 6]]
    agree = sr.agreement(ep)
    assert agree == pytest.approx({"f#12": 5 / 11, "f#5": 5 / 10})  # f#12: rank 7 then re-found at 1 (the best term dropped)
    assert sr.agreement_top(True)(ep) is None  # the searches agree on the 5th as much as on f#12: no change
    ep["observations"][2]["refound"] = [["f#12", 1]]
    assert sr.agreement_top(True)(ep) == "f#12"


class _Searches:
    """A corpus whose searches return fixed rankings, recording the query and the narrowing each was asked with."""

    def __init__(self, rankings: dict[str, list[str]]) -> None:
        self.rankings, self.asked = rankings, []

    def question_constraints(self, question: str) -> dict:
        return {"company": ["Apple"]}

    def search(self, query: str, k: int, constraints=None):
        from types import SimpleNamespace

        self.asked.append((query, constraints))
        ids = next((v for key, v in self.rankings.items() if query.startswith(key)), [])
        return [SimpleNamespace(chunk=SimpleNamespace(chunk_id=c)) for c in ids[:k]]


def test_a_sub_search_fills_the_fifth_place_with_its_best_chunk_the_question_search_did_not_show():
    sr = _module()
    first = ["f#1", "f#2", "f#3", "f#4", "f#5", "f#9"]
    ep = _episode(first[:5], first, [])
    corpus = _Searches({"How did Apple's revenue by segment": ["f#1", "f#9", "f#30"]})
    assert sr.sub_search_fill(corpus, "part")(ep) == "f#30"  # f#1 and f#9 were shown by the question's search
    assert corpus.asked[0] == ("How did Apple's revenue by segment", {"company": ["Apple"]})  # narrowed as asked
    one_ask = dict(ep, question="What was Apple's gross margin?")
    assert sr.sub_search_fill(_Searches({}), "part")(one_ask) is None
