"""The filings trace (benchmarks/agent_passages.py `filings-trace`): from a saved episode, whether the agent's top 5
holds the answer, and where a passage that would complete a missed answer sat (later searches, the question's own
search beyond its top 5) — what an offline answer rule has to find."""

from __future__ import annotations

from bench_modules import bench


def _module():
    return bench("agent_passages")


def _figure_episode(passages: list[str]) -> dict:
    # four figures wanted: half of them (2) hold the answer; the line items' rows sit in different chunks
    return {
        "id": "q1", "rule": "figures", "figures": ["122584", "127358", "4774", "9000"], "passages": passages,
        "observations": [
            {"tool": "search_corpus", "query": "question", "ids": ["f#1", "f#2", "f#3", "f#4", "f#5"]},
            {"tool": "search_corpus", "query": "Weighted-average question", "ids": ["f#9", "f#7"]},
        ],
        "first": ["f#1", "f#2", "f#3", "f#4", "f#5", "f#6", "f#7"],
        "holds": {"f#1": ["122584"], "f#2": [], "f#3": [], "f#4": [], "f#5": [], "f#6": [], "f#7": ["127358"],
                  "f#9": []},
    }


def test_a_figure_answer_is_held_by_half_its_figures_between_passages():
    ap = _module()
    ep = _figure_episode(["f#1", "f#2", "f#3", "f#4", "f#5"])
    assert not ap.episode_held(ep, ep["passages"])
    assert ap.episode_held(ep, ["f#1", "f#7"])  # two rows of two chunks: 2 of 4 figures
    assert not ap.episode_held(ep, ["f#2", "f#3", "f#4", "f#5", "f#6", "f#1", "f#7"])  # only the top 5 count


def test_a_miss_says_which_later_search_and_own_search_rank_hold_the_completing_passage():
    ap = _module()
    places = ap.holder_places(_figure_episode(["f#1", "f#2", "f#3", "f#4", "f#5"]))
    assert not places["held"] and not places["slot5_needed"]
    assert places["later"] == [(1, 2, "Weighted-average question")]  # observation 1 (after the first), rank 2
    assert places["first"] == [7]


def test_a_hit_that_needs_its_fifth_passage_is_flagged():
    ap = _module()
    places = ap.holder_places(_figure_episode(["f#2", "f#3", "f#1", "f#4", "f#7"]))
    assert places["held"] and places["slot5_needed"] and places["later"] == [] and places["first"] == []
    assert not ap.holder_places(_figure_episode(["f#1", "f#7", "f#2", "f#3", "f#4"]))["slot5_needed"]


def test_a_page_episode_is_held_by_one_passage_on_an_evidence_page():
    ap = _module()
    ep = {"id": "fb1", "rule": "page", "figures": [], "passages": ["a#1", "a#2"],
          "observations": [{"tool": "search_corpus", "query": "q", "ids": ["a#1", "a#2"]},
                           {"tool": "grep_corpus", "query": "PPNE", "ids": ["a#8"]}],
          "first": ["a#1", "a#2"], "holds": {"a#1": False, "a#2": False, "a#8": True}}
    places = ap.holder_places(ep)
    assert not places["held"] and places["later"] == [(1, 1, "PPNE")]
    assert ap.holder_places(dict(ep, passages=["a#8"]))["held"]
