"""Figures that continue a passage (issue 35): in a search narrowed to a filing, a figure-less hit that opens a
subject gives its place to the next chunk, which states the subject's figures; a hit with a figure never moves
down, and unnarrowed searches are untouched."""

from __future__ import annotations

import dataclasses

import pytest

from corpus_tools import Corpus, Document, SearchConfig
from corpus_tools.chunking import ChunkingConfig
from corpus_tools.neighbour_prior import continue_figureless, position


def test_a_chunk_id_names_its_document_and_place():
    assert position("2023 Q2 AMZN.pdf#84") == ("2023 Q2 AMZN.pdf", 84)
    assert position("a#b#3") == ("a#b", 3)
    assert position("no-number") is None
    assert position("doc#x") is None


FIGURED = {"d#0": False, "d#1": True, "d#2": True, "d#3": False, "d#4": True, "d#5": True, "d#6": True,
           "e#0": True, "e#1": False}


def _figured(cid):
    return FIGURED.get(cid)


def test_a_figureless_hit_swaps_places_with_its_figured_neighbour():
    # d#3 states no figure; its neighbour d#4 (ranked 6th) takes its place and d#3 takes d#4's
    ranking = ["d#1", "d#3", "e#0", "d#6", "d#5", "d#4"]
    assert continue_figureless(ranking, _figured, lambda cid: None) == ["d#1", "d#4", "e#0", "d#6", "d#5", "d#3"]
    # a neighbour just below in the window swaps too; one ranked above the figure-less hit stays where it is
    assert continue_figureless(["d#0", "d#1", "e#1", "e#0"], _figured, lambda cid: None) == ["d#1", "d#0", "e#0", "e#1"]
    assert continue_figureless(["e#0", "e#1", "d#6"], _figured, lambda cid: None) == ["e#0", "e#1", "d#6"]


def test_a_neighbour_outside_the_ranking_is_brought_in_after_the_window():
    # d#3's neighbours: d#4 (figured, not a candidate) and d#2 (figured, not a candidate); the following one wins
    ranking = ["e#0", "d#3", "d#6", "d#1", "d#5", "x#9"]
    assert continue_figureless(ranking, _figured, lambda cid: None) == ["e#0", "d#4", "d#6", "d#1", "d#5", "d#3", "x#9"]
    # a neighbour the search may not return (figured() is None: excluded or filtered out) is never brought in
    assert continue_figureless(["d#3"], lambda cid: {"d#3": False}.get(cid), lambda cid: None) == ["d#3"]


def test_the_middle_of_a_passage_shown_in_pieces_takes_the_lowest_figureless_place():
    # d#4 and d#6 are shown, d#5 between them states figures: it takes the place of d#0 (the lowest figure-less)
    figured = {**FIGURED, "d#4": True, "d#5": True, "d#6": True, "f#1": False, "f#0": False, "f#2": False}
    ranking = ["d#0", "d#4", "f#1", "d#6", "e#0", "d#5"]
    # step one: d#0 swaps with d#1 (not a candidate: brought in); f#1 has no figured neighbour; step two: d#5 fills
    # the gap in the place of f#1, the lowest figure-less hit shown
    assert continue_figureless(ranking, figured.get, lambda cid: None) == [
        "d#1", "d#4", "d#5", "d#6", "e#0", "d#0", "f#1"]
    # no figure-less hit shown: nothing gives its place
    assert continue_figureless(["d#4", "d#6", "e#0", "d#5"], figured.get, lambda cid: None) == [
        "d#4", "d#6", "e#0", "d#5"]


def test_a_neighbour_in_another_section_does_not_continue_the_passage():
    sections = {"d#3": "Item 1A. Risk Factors", "d#4": "Item 2. Management's Discussion", "d#2": "Item 1A. Risk Factors"}
    assert continue_figureless(["d#3", "e#0"], _figured, sections.get) == ["d#2", "e#0", "d#3"]
    sections["d#2"] = "Item 1. Financial Statements"
    assert continue_figureless(["d#3", "e#0"], _figured, sections.get) == ["d#3", "e#0"]
    with pytest.raises(ValueError, match="window"):
        continue_figureless(["d#3"], _figured, sections.get, window=0)


def test_the_config_takes_only_true_or_false():
    assert SearchConfig().continue_figures is True  # on by default
    with pytest.raises(ValueError, match="continue_figures"):
        SearchConfig(continue_figures=1)


# One filing whose legal-proceedings note runs over two chunks: the opener repeats the question's words and states no
# figure, the continuation states the damages and shares no word with the question. Three passages elsewhere in the
# filing state figures and share some of the question's words.
OPENER = ("Legal proceedings. Vantor is a party to patent litigation and other legal proceedings. "
          "The legal proceedings described here concern patent claims against Vantor.")
DAMAGES = ("In May a jury awarded the plaintiff $517 million; a second verdict added $1.03 billion, "
           "which the company has appealed.")
ELSEWHERE = ["Vantor's patent licensing revenue rose 4% to $120 million in the quarter.",
             "Legal and other professional fees were $35 million, up 2% on the prior year.",
             "Vantor paid $12 million to settle a supplier claim unrelated to patents."]
QUESTION = "What legal proceedings and patent litigation did Vantor disclose?"


@pytest.fixture(scope="module")
def filing(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("indexes") / "continued"
    meta = {"company": "Vantor Graphics Corporation", "form": "10-Q", "kind": "text"}
    text = "\n\n".join([*ELSEWHERE[:2], OPENER, DAMAGES, ELSEWHERE[2]])
    docs = [Document("vantor", text, title="Vantor Graphics 10-Q", metadata=meta),
            Document("other", "Orchard Computer sells tablets and phones for $400 each.", title="Orchard 10-Q",
                     metadata={"company": "Orchard Computer, Inc.", "form": "10-Q", "kind": "text"})]
    small = dataclasses.replace(config, chunking=ChunkingConfig(chunk_tokens=36, overlap_tokens=0))
    Corpus.build(docs, path, config=small, progress=False).close()
    return path


def _holder(corpus, words):
    return next(c.chunk_id for c in corpus.chunks("vantor") if words in c.text)


def test_a_narrowed_search_returns_the_figures_that_continue_the_passage_naming_the_question(filing):
    off_config = SearchConfig(continue_figures=False)
    with Corpus.open(filing) as on, Corpus.open(filing, search=off_config) as off:
        opener, damages = _holder(on, "described here"), _holder(on, "$517 million")
        assert position(damages)[1] == position(opener)[1] + 1  # the fixture: two consecutive chunks
        narrowed = {"where": {"doc_id": "vantor"}}
        before = [h.chunk.chunk_id for h in off.search(QUESTION, k=3, **narrowed)]
        assert opener in before and damages not in before  # without the rule the damages are not in the top 3
        after = [h.chunk.chunk_id for h in on.search(QUESTION, k=3, **narrowed)]
        assert damages in after and opener not in after
        assert [c for c in before if c != opener] == [c for c in after if c != damages]  # figured hits stay put
        assert opener in [h.chunk.chunk_id for h in on.search(QUESTION, k=10, **narrowed)]  # lower, not removed
        # Not narrowed (no constraint, no where): unchanged.
        assert [(h.chunk.chunk_id, h.score) for h in on.search(QUESTION, k=6)] == [
            (h.chunk.chunk_id, h.score) for h in off.search(QUESTION, k=6)]
