"""The section a question names (issue 35): in a search narrowed to a filing, when the question names the heading of
a note ("Note 4 — Debt" for a question about debt), the first five hits show three of its chunks, not one among the
other sections that repeat the question's words; a heading named in part, or a parent's, is not named; unnarrowed
searches are untouched."""

from __future__ import annotations

import dataclasses

import pytest

from corpus_tools import Corpus, Document, SearchConfig
from corpus_tools.bm25 import BM25Tokenizer
from corpus_tools.chunking import ChunkingConfig
from corpus_tools.named_section import heading_terms, named_by, show_named_section

TERMS = BM25Tokenizer()


def test_a_heading_is_named_when_the_question_holds_every_content_word_of_it():
    sections = ["Part I > Item 1. Financial Statements > Note 5 — DEBT",
                "Part I > Item 2. Management's Discussion > Reportable Segments",  # "reported" names half of it
                "Part I > Item 3. Market Risk > Interest Rate Risk",
                "Part I > Item 1. Business",  # its own heading, named
                "Part I > Item 1. Financial Statements > Note 5",  # numbering only: no content word
                "", None]
    question = "What changes in debt and interest rates were reported, and was the business capital intensive?"
    assert named_by(question, sections, TERMS) == [True, False, False, True, False, False, False]
    assert named_by("Did Vantor buy back shares?", ["Part II > Share Repurchases"], TERMS) == [False]  # "buy back"
    assert named_by("What share repurchases did Vantor make?", ["Part II > Share Repurchases"], TERMS) == [True]
    # only the chunk's own heading is read, never a parent's
    assert named_by(question, ["Part I > Item 1. Business > Human Capital"], TERMS) == [False]
    assert heading_terms("Part I > Item 1. Business > Human Capital", TERMS) == {"human", "capit"}
    assert heading_terms("Part I > Item 1. Financial Statements > Note 5 — DEBT", TERMS) == {"debt"}
    assert heading_terms(["Part I"], TERMS) == set()  # not a string: no heading


A, B = ("f", "Note 4 — Debt"), ("f", "Legal Proceedings")


def test_the_named_section_takes_the_lowest_places_of_the_others_up_to_three():
    # A is named and shown at 2nd; its two best-ranked chunks below the window take the places of the two lowest
    # hits of other sections, which move to just after the window, in their order
    keys = [None, A, None, None, None, None, A, A, A]
    assert show_named_section(keys) == [0, 1, 2, 6, 7, 3, 4, 5, 8]
    # a hit of the section already shown between the freed places keeps its place
    keys = [None, None, None, A, None, A, A]
    assert show_named_section(keys) == [0, 1, 5, 3, 6, 2, 4]
    # the first hit never gives its place
    keys = [None, A, A, None, None, A]
    assert show_named_section(keys, window=3) == [0, 1, 2, 3, 4, 5]
    assert show_named_section([None, A, None, A, A], window=3) == [0, 1, 3, 2, 4]


def test_nothing_moves_without_a_named_section_shown_and_held_three_times():
    assert show_named_section([None, None, None, None, None, A, A, A]) == list(range(8))  # none shown
    assert show_named_section([None, A, None, None, None, A]) == list(range(6))  # two among the candidates
    keys = [A, A, A, None, None, A]
    assert show_named_section(keys) == list(range(6))  # already three shown
    # two named sections: the one whose chunk ranks best is read
    keys = [None, B, A, None, None, A, B, A, B]
    assert show_named_section(keys) == [0, 1, 2, 6, 8, 3, 4, 5, 7]
    assert show_named_section([]) == []
    with pytest.raises(ValueError, match="slots"):
        show_named_section([A], slots=0)
    with pytest.raises(ValueError, match="window"):
        show_named_section([A], window=0)


def test_the_config_takes_only_true_or_false():
    assert SearchConfig().named_sections is True  # on by default
    with pytest.raises(ValueError, match="named_sections"):
        SearchConfig(named_sections="yes")


# A filing whose debt note runs over four paragraphs: its opener repeats the question's words; the term loan, the
# credit facility and the commercial paper follow in words the question does not use. Around it, three other sections
# repeat "debt", "interest" and "obligations" with figures of their own: the financing cash flows, the interest
# income and expense, the commitments. Every paragraph states a figure, so the figure priors move none of them.
ITEM1, ITEM2 = "Part I > Item 1. Financial Statements", "Part I > Item 2. Management's Discussion and Analysis"
SECTIONS = [
    (f"{ITEM1} > Revenue", [
        "Vantor's revenue grew 11% to $31.2 billion in the quarter, led by graphics cards sold to data centers.",
        "Revenue from gaming consoles was $4.1 billion, down 3% on the prior year as a console cycle ended."]),
    (f"{ITEM1} > Note 4 — Debt", [
        "Debt and interest obligations. As of March 31, Vantor had $6.5 billion of senior notes and $900 million "
        "of borrowings; the changes in its debt and interest obligations are disclosed in this note.",
        "In January Vantor entered into a $4.0 billion unsecured 364-day term loan with a group of lenders, which "
        "matures next January and bears a floating rate plus a spread of 0.75%.",
        "The revolving facility had $900 million drawn at a rate of 6.1%, and a commitment fee of 0.45% is paid "
        "on the undrawn portion of the facility.",
        "Commercial paper of $3.8 billion was outstanding at March 31, at a weighted-average effective rate of 4.7% "
        "including issuance costs."]),
    (f"{ITEM1} > Commitments", [
        "Vantor's obligations, including interest on debt and its lease obligations, total $101 billion; the changes "
        "in these debt and interest obligations are disclosed in the commitments table.",
        "Purchase obligations of $12 billion for wafers and memory are not debt, and they carry no interest."]),
    (f"{ITEM2} > Liquidity and Capital Resources", [
        "Changes in debt and interest obligations: cash used in financing of $2.1 billion reflects repayments of "
        "debt and interest obligations, which Vantor discloses in its notes.",
        "Vantor expects to meet its debt and interest obligations from operating cash flow of $12 billion, and it "
        "disclosed no changes to the covenants of its debt."]),
    (f"{ITEM2} > Interest Income and Expense", [
        "Interest expense on debt rose to $820 million and interest income to $610 million, as changes in interest "
        "rates raised the interest due on Vantor's debt obligations."]),
    (f"{ITEM2} > Outlook", [
        "Vantor expects revenue of $33 billion next quarter, plus or minus 2%, with gross margin near 64%."]),
]
QUESTION = "What changes in debt and interest obligations did Vantor disclose?"


@pytest.fixture(scope="module")
def filing(tmp_path_factory, config):
    """The filing's sections as documents of one company (a section each, as `test_section_prior` builds them), and
    another company's filing."""
    path = tmp_path_factory.mktemp("indexes") / "named"
    meta = {"company": "Vantor Graphics Corporation", "form": "10-Q", "kind": "text"}
    docs = [Document(f"vantor-{i}", "\n\n".join(paragraphs), title="Vantor Graphics 10-Q",
                     metadata={**meta, "section": section}) for i, (section, paragraphs) in enumerate(SECTIONS)]
    docs.append(Document("other", "Orchard Computer sells tablets and phones for $400 each.", title="Orchard 10-Q",
                         metadata={"company": "Orchard Computer, Inc.", "form": "10-Q", "kind": "text"}))
    small = dataclasses.replace(config, chunking=ChunkingConfig(chunk_tokens=64, overlap_tokens=0))
    Corpus.build(docs, path, config=small, progress=False).close()
    return path


NARROWED = {"where": {"company": "Vantor Graphics Corporation"}}


def _note(corpus) -> list[str]:
    return [c.chunk_id for c in corpus.chunks("vantor-1")]


def test_a_narrowed_search_shows_three_chunks_of_the_note_the_question_names(filing):
    with Corpus.open(filing) as on, Corpus.open(filing, search=SearchConfig(named_sections=False)) as off:
        note = _note(on)
        assert len(note) >= 3  # the fixture: the note runs over three chunks or more
        narrowed = NARROWED
        before = [h.chunk.chunk_id for h in off.search(QUESTION, k=8, **narrowed)]
        assert sum(c in note for c in before[:5]) == 1  # without the rule the top 5 show the note's opener alone
        after = [h.chunk.chunk_id for h in on.search(QUESTION, k=8, **narrowed)]
        assert sum(c in note for c in after[:5]) == 3
        assert after[0] == before[0]  # the first hit keeps its place
        given = [c for c in before[:5] if c not in after[:5]]
        assert len(given) == 2 and after[5:7] == given  # the two that gave their places follow the window
        assert sorted(after) == sorted(set(after))  # nothing shown twice
        # a question that names no heading of the filing: unchanged
        other = "What did Vantor say about the obligations it repays?"
        assert [h.chunk.chunk_id for h in on.search(other, k=8, **narrowed)] == [
            h.chunk.chunk_id for h in off.search(other, k=8, **narrowed)]
        # Not narrowed (no constraint, no where): unchanged.
        assert [(h.chunk.chunk_id, h.score) for h in on.search(QUESTION, k=8)] == [
            (h.chunk.chunk_id, h.score) for h in off.search(QUESTION, k=8)]
        # the constraints read from the question narrow the search too
        shown = [h.chunk.chunk_id for h in on.search(QUESTION, k=5, constraints="auto")]
        assert sum(c in note for c in shown) == 3


def test_a_section_that_is_not_a_heading_path_is_never_named(tmp_path, config):
    # an index whose chunks carry a list, a number or nothing as their section (written by other readers, or
    # before sections were read): the search runs and nothing moves
    meta = {"company": "Vantor Graphics Corporation", "form": "10-Q", "kind": "text"}
    sections = [["Note 4", "Debt"], 4, None, "", "Debt"]
    docs = [Document(f"d{i}", SECTIONS[1][1][i % 4], metadata={**meta, **({"section": s} if s is not None else {})})
            for i, s in enumerate(sections)]
    Corpus.build(docs, tmp_path / "odd", config=config, progress=False).close()
    with Corpus.open(tmp_path / "odd") as on, Corpus.open(tmp_path / "odd", search=SearchConfig(named_sections=False)) as off:
        assert [h.chunk.chunk_id for h in on.search(QUESTION, k=5, **NARROWED)] == [
            h.chunk.chunk_id for h in off.search(QUESTION, k=5, **NARROWED)]
