"""Aside sections (issue 35): in a search narrowed to a filing, its risk factors, legal proceedings and exhibits
rank below the sections that report results, unless the question names them."""

from __future__ import annotations

import pytest

from corpus_tools import Corpus, Document, SearchConfig
from corpus_tools.section_prior import aside_sections

RISK = "Part II > Item 1A. Risk Factors"
MDNA = "Part I > Item 2. Management's Discussion and Analysis"
EXHIBITS = "Item 9.01 Financial Statements and Exhibits"


def test_a_section_is_aside_unless_the_question_names_it():
    sections = [RISK, MDNA, EXHIBITS, "Part II > Item 1. Legal Proceedings", None, ""]
    assert aside_sections("How much did Vantor pay for the spin-off?", sections) == [
        True, False, True, True, False, False]
    # a question naming risks or litigation asks for those sections: they are not aside for it
    assert aside_sections("What risks does the spin-off pose?", sections) == [False, False, True, True, False, False]
    assert aside_sections("Is Vantor in any litigation?", sections)[3] is False
    assert aside_sections("", []) == []


# The risk factor repeats the question's words; the MD&A passage states the amount paid.
RISK_TEXT = ("The planned spin-off of our consumer business may not be completed. The spin-off of the consumer "
             "business could cost Vantor more than expected and the consumer business spin-off may not achieve the "
             "expected benefits; Vantor may pay significant costs for the spin-off.")
MDNA_TEXT = ("Separation costs. In the second quarter we incurred $412 million of costs to separate the consumer "
             "segment, mainly advisory fees, and expect $150 million more before the separation completes.")
QUESTION = "How much did Vantor pay for the spin-off of its consumer business?"


@pytest.fixture(scope="module")
def filing(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("indexes") / "sections"
    vantor = {"company": "Vantor Graphics Corporation", "form": "10-Q", "kind": "text"}
    docs = [Document("risk", RISK_TEXT, title="Vantor Graphics 10-Q", metadata={**vantor, "section": RISK}),
            Document("mdna", MDNA_TEXT, title="Vantor Graphics 10-Q", metadata={**vantor, "section": MDNA}),
            Document("other", "Orchard Computer sells tablets and phones.", title="Orchard 10-Q",
                     metadata={"company": "Orchard Computer, Inc.", "form": "10-Q", "kind": "text", "section": MDNA})]
    Corpus.build(docs, path, config=config, progress=False).close()
    return path


def test_a_narrowed_search_places_the_risk_factor_below_the_results_it_would_outrank(filing):
    assert SearchConfig().aside_section_weight > 0  # on by default
    # the aside rule alone: the figure prior (corpus_tools.figure_prior) would also place the figure-less risk factor lower
    alone = SearchConfig(figureless_weight=0.0)
    with Corpus.open(filing, search=alone) as on, \
            Corpus.open(filing, search=SearchConfig(aside_section_weight=0.0, figureless_weight=0.0)) as off:
        assert [h.chunk.doc_id for h in off.search(QUESTION, k=2, constraints="auto")] == ["risk", "mdna"]
        hits = on.search(QUESTION, k=2, constraints="auto")
        assert [h.chunk.doc_id for h in hits] == ["mdna", "risk"]  # placed lower, never removed
        assert [h.chunk.doc_id for h in on.search(QUESTION, k=2, where={"doc_id": {"$in": ["risk", "mdna"]}})] == [
            "mdna", "risk"]
        # A question naming risks still gets the risk factor first.
        named = "What risks does the spin-off of Vantor's consumer business pose, and what may it cost?"
        assert on.search(named, k=1, constraints="auto")[0].chunk.doc_id == "risk"
        # Not narrowed (no constraint, no where): unchanged.
        assert [(h.chunk.chunk_id, h.score) for h in on.search(QUESTION, k=3)] == [
            (h.chunk.chunk_id, h.score) for h in off.search(QUESTION, k=3)]


def test_a_weight_outside_0_1_is_refused():
    for bad in (-0.1, 1.0, 2):
        with pytest.raises(ValueError, match="aside_section_weight"):
            SearchConfig(aside_section_weight=bad)
