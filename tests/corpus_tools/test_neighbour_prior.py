"""Figures that continue a passage (issue 35): in a search narrowed to a filing, a figure-less hit that opens a
subject gives its place to the next chunk, which states the subject's figures; a hit with a figure never moves
down, and unnarrowed searches are untouched."""

from __future__ import annotations

import dataclasses

import pytest

from corpus_tools import Corpus, Document, SearchConfig
from corpus_tools.chunking import ChunkingConfig
from corpus_tools.figure_prior import has_figure
from corpus_tools.neighbour_prior import continue_figureless, position


def test_a_chunk_id_names_its_document_and_place():
    assert position("2023 Q2 AMZN.pdf#84") == ("2023 Q2 AMZN.pdf", 84)
    assert position("a#b#3") == ("a#b", 3)
    assert position("no-number") is None
    assert position("doc#x") is None


FIGURED = {"d#0": False, "d#1": True, "d#2": True, "d#3": False, "d#4": True, "d#5": True, "d#6": True,
           "e#0": True, "e#1": False, "f#0": False, "f#1": False, "f#2": False, "g#0": False}


def _figured(cid):
    return FIGURED.get(cid)


def _no_section(cid):
    return None


def test_a_figureless_hit_keeps_its_place_and_its_figured_neighbour_takes_the_lowest_figureless_one():
    # d#3 states no figure; its neighbour d#4 (6th) takes the place of f#1, the figure-less hit below it, which
    # takes d#4's old place
    ranking = ["d#3", "e#0", "f#1", "d#6", "d#5", "d#4"]
    assert continue_figureless(ranking, _figured, _no_section) == ["d#3", "e#0", "d#4", "d#6", "d#5", "f#1"]
    # no figure-less hit below it: nothing moves (the opener may be the answer itself)
    assert continue_figureless(["d#3", "e#0", "d#6", "d#4"], _figured, _no_section) == ["d#3", "e#0", "d#6", "d#4"]
    # a neighbour already shown is not moved; the other one is brought in from outside the candidates
    assert continue_figureless(["d#3", "d#4", "f#1"], _figured, _no_section) == ["d#3", "d#4", "d#2", "f#1"]


def test_a_neighbour_outside_the_ranking_is_read_and_the_figureless_hit_moves_after_the_window():
    # d#3's neighbours d#4 and d#2 are both outside the ranking: the following one is shown
    ranking = ["e#0", "d#3", "d#6", "f#1", "d#5", "x#9"]
    assert continue_figureless(ranking, _figured, _no_section) == ["e#0", "d#3", "d#6", "d#4", "d#5", "f#1", "x#9"]
    # a neighbour the search may not return (figured() is None: excluded or filtered out) is never brought in
    only = {"d#3": False, "f#1": False}
    assert continue_figureless(["d#3", "f#1"], only.get, _no_section) == ["d#3", "f#1"]


def test_the_middle_of_a_passage_shown_in_pieces_takes_the_lowest_figureless_place():
    # d#4 and d#6 are shown, d#5 between them states figures: it takes the place of g#0, the lowest figure-less hit
    ranking = ["d#4", "f#1", "d#6", "e#0", "g#0", "d#5"]
    assert continue_figureless(ranking, _figured, _no_section) == ["d#4", "f#1", "d#6", "e#0", "d#5", "g#0"]
    # no figure-less hit shown: nothing gives its place
    ranking = ["d#4", "d#6", "e#0", "d#1", "d#2", "d#5"]
    assert continue_figureless(ranking, _figured, _no_section) == ranking


def test_a_neighbour_in_another_section_does_not_continue_the_passage():
    sections = {"d#3": "Item 1A. Risk Factors", "d#4": "Item 2. Management's Discussion", "d#2": "Item 1A. Risk Factors"}
    assert continue_figureless(["d#3", "f#1"], _figured, sections.get) == ["d#3", "d#2", "f#1"]
    sections["d#2"] = "Item 1. Financial Statements"
    assert continue_figureless(["d#3", "f#1"], _figured, sections.get) == ["d#3", "f#1"]
    with pytest.raises(ValueError, match="window"):
        continue_figureless(["d#3"], _figured, sections.get, window=0)


def test_the_config_takes_only_true_or_false():
    assert SearchConfig().continue_figures is True  # on by default
    with pytest.raises(ValueError, match="continue_figures"):
        SearchConfig(continue_figures=1)


# One filing whose legal-proceedings note runs over two chunks: the opener repeats the question's words and states no
# figure, the continuation states the damages and shares no word with the question. Around them: cautionary prose
# that repeats the question's words (no figure) and passages that state figures and share a few of its words.
OPENER = ("Legal proceedings and patent litigation. Vantor discloses here the legal proceedings and the patent "
          "litigation that it is a party to, including the patent claims brought against Vantor.")
DAMAGES = ("In May a jury in Texas awarded the plaintiff $517 million; a second verdict in Delaware added $1.03 "
           "billion, which the company has appealed and which it has not yet recorded.")
CAUTION = ["Patent litigation and legal proceedings could harm Vantor, and Vantor may disclose further proceedings "
           "in later reports as claims are filed against it by competitors, customers or others in the future.",
           "Vantor cannot predict the outcome of legal proceedings, and patent litigation is costly, slow and "
           "uncertain, so an adverse result could hurt the business in ways we cannot foresee.",
           "Legal proceedings may divert Vantor's management from running the business, and adverse patent rulings "
           "could limit the products we sell or the markets where we sell them.",
           "Vantor may become party to new patent litigation at any time, and we disclose all legal proceedings when "
           "they arise and when an outcome becomes probable and can be estimated.",
           "Claims of patent infringement against Vantor, whether or not they have merit, could lead to legal "
           "proceedings that are expensive to defend and that take years to resolve in court.",
           "Vantor relies on patents to protect its designs, and litigation to enforce those patents may provoke "
           "counterclaims and further legal proceedings against Vantor in other countries and regions.",
           "Regulators may open proceedings against Vantor under competition law, and such legal proceedings could "
           "require changes to how we license our patents or how we price the products that we sell.",
           "Vantor's insurance may not cover the cost of patent litigation or other legal proceedings, and we may "
           "have to pay those costs ourselves even when the claims against us fail.",
           "Legal proceedings about patents can also arise from acquisitions, and Vantor may inherit patent "
           "litigation that the acquired company had not resolved before the purchase.",
           "Patent litigation against Vantor's customers could lead them to seek indemnity from Vantor, adding "
           "to the legal proceedings that Vantor must defend or settle.",
           "Vantor's employees may be named in legal proceedings about trade secrets and patents, and defending "
           "them could raise our costs and distract our engineers."]
FIGURES = ["Vantor's patent licensing revenue rose 4% to $120 million in the quarter, as two new licensees "
           "signed agreements covering the graphics patents that the company holds.",
           "Legal and other professional fees were $35 million, up 2% on the prior year, reflecting higher "
           "spending on outside counsel and on the audit of the new segment.",
           "Vantor's reserve for patent litigation and other legal proceedings was $40 million at the end of the "
           "quarter, unchanged from the reserve it held at the end of the prior year."]
QUESTION = "What legal proceedings and patent litigation did Vantor disclose?"


@pytest.fixture(scope="module")
def filing(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("indexes") / "continued"
    meta = {"company": "Vantor Graphics Corporation", "form": "10-Q", "kind": "text"}
    text = "\n\n".join([FIGURES[0], *CAUTION[:4], OPENER, DAMAGES, *CAUTION[4:], *FIGURES[1:]])
    docs = [Document("vantor", text, title="Vantor Graphics 10-Q", metadata=meta),
            Document("other", "Orchard Computer sells tablets and phones for $400 each.", title="Orchard 10-Q",
                     metadata={"company": "Orchard Computer, Inc.", "form": "10-Q", "kind": "text"})]
    small = dataclasses.replace(config, chunking=ChunkingConfig(chunk_tokens=44, overlap_tokens=0))  # a paragraph a chunk
    Corpus.build(docs, path, config=small, progress=False).close()
    return path


def _holder(corpus, words):
    return next(c.chunk_id for c in corpus.chunks("vantor") if words in c.text)


def test_a_narrowed_search_shows_the_figures_that_continue_the_passage_naming_the_question(filing):
    with Corpus.open(filing) as on, Corpus.open(filing, search=SearchConfig(continue_figures=False)) as off:
        opener, damages = _holder(on, "discloses here"), _holder(on, "$517 million")
        assert position(damages)[1] == position(opener)[1] + 1  # the fixture: two consecutive chunks
        narrowed = {"where": {"doc_id": "vantor"}}
        before = [h.chunk.chunk_id for h in off.search(QUESTION, k=5, **narrowed)]
        assert opener in before and damages not in before  # without the rule the damages are not in the top 5
        after = [h.chunk.chunk_id for h in on.search(QUESTION, k=5, **narrowed)]
        assert damages in after and opener in after  # shown beside the opener, which keeps its place
        assert before.index(opener) == after.index(opener)
        figured = [c for c in before if has_figure(on.chunk(c).text)]
        assert all(c in after for c in figured)  # no hit stating a figure leaves the window
        assert len(set(after) - set(before)) == 1  # one figure-less hit gave its place, the lowest one
        # Not narrowed (no constraint, no where): unchanged.
        assert [(h.chunk.chunk_id, h.score) for h in on.search(QUESTION, k=8)] == [
            (h.chunk.chunk_id, h.score) for h in off.search(QUESTION, k=8)]
        # the constraints read from the question narrow the search too
        assert damages in [h.chunk.chunk_id for h in on.search(QUESTION, k=5, constraints="auto")]
