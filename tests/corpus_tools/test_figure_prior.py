"""Figure prior (issue 35): in a search narrowed to a filing, a passage that states no figure ranks below one that
does, however many of the question's words it repeats; nothing is removed, and unnarrowed searches are untouched."""

from __future__ import annotations

import pytest

from corpus_tools import Corpus, Document, SearchConfig
from corpus_tools.figure_prior import has_figure, lower_figureless


def test_a_figure_is_an_amount_a_percentage_a_grouped_number_or_a_scaled_decimal():
    for text in ("net sales decreased $1.2 billion", "down 15% from Q2", "rose 3 percent", "Net sales | 36,413 | 35,4",
                 "revenue of 12.9 billion", "an approximate $ 690 million increase", "(1,295)",
                 "Reported Growth | (6) | (5) | — | 4", "Diluted | 0.35 | 1.86"):
        assert has_figure(text), text
    # headings and dates are not figures: an exhibit or item number, a version, a year, a day, a note number
    for text in ("Exhibit 32.1 CERTIFICATION", "our IDM 2.0 strategy", "Item 1.01 Entry into an Agreement",
                 "as of July 1, 2023", "See Note 5 for the fiscal 2023 plan", "Name | Title", ""):
        assert not has_figure(text), text


def test_a_passage_without_a_figure_sorts_as_if_further_down():
    texts = ["no figure here", "sales were $5 million", "no figure either", "up 4%"]
    # ranks 1..4 sort at 4, 2, 12, 4 with weight 3: ties keep the ranking's order
    assert lower_figureless(texts, 3.0) == [1, 0, 3, 2]
    assert lower_figureless(texts, 0.0) == [0, 1, 2, 3]
    assert lower_figureless([], 3.0) == []
    with pytest.raises(ValueError, match="weight"):
        lower_figureless(texts, -1.0)


def test_a_negative_weight_is_refused_by_the_config():
    with pytest.raises(ValueError, match="figureless_weight"):
        SearchConfig(figureless_weight=-0.5)


# The cautionary passage repeats every word of the question; the results passage states what happened.
CAUTION = ("Foreign exchange rates may affect Vantor's financial performance. Changes in foreign exchange rates "
           "could specifically affect our financial performance, and foreign exchange rate movements may affect "
           "the performance reported in this 10-Q.")
RESULTS = ("Quarterly highlights. Weakness in foreign currencies relative to the U.S. dollar had an unfavorable "
           "impact on net sales, which decreased 1% or $1.2 billion during the quarter.")
QUESTION = "How did foreign exchange rates specifically affect Vantor's financial performance in its 10-Q?"


@pytest.fixture(scope="module")
def filing(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("indexes") / "figures"
    vantor = {"company": "Vantor Graphics Corporation", "form": "10-Q", "kind": "text"}
    docs = [Document("caution", CAUTION, title="Vantor Graphics 10-Q", metadata=vantor),
            Document("results", RESULTS, title="Vantor Graphics 10-Q", metadata=vantor),
            Document("other", "Orchard Computer sells tablets and phones for $400 each.", title="Orchard 10-Q",
                     metadata={"company": "Orchard Computer, Inc.", "form": "10-Q", "kind": "text"})]
    Corpus.build(docs, path, config=config, progress=False).close()
    return path


def test_a_narrowed_search_places_the_passage_with_the_figure_above_prose_that_only_repeats_the_question(filing):
    assert SearchConfig().figureless_weight > 0  # on by default
    with Corpus.open(filing) as on, Corpus.open(filing, search=SearchConfig(figureless_weight=0.0)) as off:
        assert [h.chunk.doc_id for h in off.search(QUESTION, k=2, constraints="auto")] == ["caution", "results"]
        hits = on.search(QUESTION, k=2, constraints="auto")
        assert [h.chunk.doc_id for h in hits] == ["results", "caution"]  # placed lower, never removed
        # the hits keep the scores their ranking gave them
        scores = {h.chunk.doc_id: h.score for h in off.search(QUESTION, k=2, constraints="auto")}
        assert {h.chunk.doc_id: h.score for h in hits} == scores
        narrowed = on.search(QUESTION, k=2, where={"doc_id": {"$in": ["caution", "results"]}})
        assert [h.chunk.doc_id for h in narrowed] == ["results", "caution"]
        # Not narrowed (no constraint, no where): unchanged.
        assert [(h.chunk.chunk_id, h.score) for h in on.search(QUESTION, k=3)] == [
            (h.chunk.chunk_id, h.score) for h in off.search(QUESTION, k=3)]
