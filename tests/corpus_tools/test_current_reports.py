"""An 8-K read as a document (issue 35): its decimal Items, and the exhibits attached after its signatures as
sections of their own, so the press release of an Item 2.02 (Exhibit 99.1) reads as content while the exhibit
list of Item 9.01, the signatures and an attached contract stay aside in a narrowed search.

Fixtures: invented laid-out pages (no PDF), as `corpus_tools.pdf_layout` would read them.
"""

from __future__ import annotations

import pytest

from corpus_tools import Corpus, load_documents
from corpus_tools.pdf_layout import Line, PageLayout, Word
from corpus_tools.section_prior import aside_sections
from corpus_tools.structure import build_structure


def _line(text: str, top: float, size: float = 9.0, bold: bool = False) -> Line:
    return Line(tuple(Word(72 + 40 * i, 100 + 40 * i, top, top + size, w, size, bold)
                      for i, w in enumerate(text.split())))


def _page(number: int, *lines: tuple[str, bool]) -> PageLayout:
    return PageLayout(number, [_line(text, 40 + 20 * i, 9.0, bold) for i, (text, bold) in enumerate(lines)])


COVER = _page(1, ("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", True), ("FORM 8-K", True),
              ("CURRENT REPORT", True),
              ("Date of Report (Date of earliest event reported): February 1, 2024", False),
              ("Vantor Graphics Corporation", True), ("(Exact name of registrant as specified in its charter)", False))
ITEMS = _page(2, ("Item 2.02 Results of Operations and Financial Condition", True),
              ("On February 1, 2024, Vantor Graphics Corporation issued a press release on its results for the", False),
              ("fourth quarter of fiscal 2023. The press release is furnished as Exhibit 99.1.", False),
              ("Item 9.01 Financial Statements and Exhibits", True),
              ("(d) Exhibits.", False),
              ("10.1 Credit Agreement among Vantor Graphics Corporation and the lenders, dated January 30, 2024.", False),
              ("99.1 Press Release of Vantor Graphics Corporation, dated February 1, 2024.", False))
SIGNED = _page(3, ("SIGNATURES", True),
               ("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly", False),
               ("caused this report to be signed on its behalf by the undersigned hereunto duly authorized.", False))
CONTRACT = _page(4, ("Exhibit 10.1", False), ("CREDIT AGREEMENT", True),
                 ("The lenders make revolving loans to Vantor Graphics Corporation. Revenue for the fourth quarter of", False),
                 ("each fiscal year, as reported for fiscal 2023 and after, sets the revenue covenant of the Borrower.", False))
RELEASE = _page(5, ("Exhibit 99.1", False), ("Vantor Graphics Reports Fourth Quarter Fiscal 2023 Results", True),
                ("Revenue for the fourth quarter was $812 million, up 14 percent; gross margin was 41.2 percent.", False))
EIGHT_K = [COVER, ITEMS, SIGNED, CONTRACT, RELEASE]


def _sections(pages: list[PageLayout]) -> dict[str, str]:
    """Each part's text → its section path."""
    structured = build_structure(pages)
    return {structured.text[p.start:p.end]: p.section for p in structured.parts}


def _section_of(sections: dict[str, str], phrase: str) -> str:
    (section,) = {s for text, s in sections.items() if phrase in text}
    return section


def test_an_8k_keeps_its_item_numbers_and_gives_each_attached_exhibit_its_own_section():
    sections = _sections(EIGHT_K)
    assert _section_of(sections, "issued a press release") == "Item 2.02. Results of Operations and Financial Condition"
    assert _section_of(sections, "99.1 Press Release of") == "Item 9.01. Financial Statements and Exhibits"  # the list
    assert _section_of(sections, "duly authorized") == "Item 9.01. Financial Statements and Exhibits > SIGNATURES"
    assert _section_of(sections, "revolving loans") == "Exhibit 10.1 > CREDIT AGREEMENT"
    assert _section_of(sections, "$812 million") == (
        "Exhibit 99.1 > Vantor Graphics Reports Fourth Quarter Fiscal 2023 Results")


def test_an_8k_without_exhibits_or_with_its_exhibit_list_only_has_no_exhibit_section():
    assert not any(s.startswith("Exhibit") for s in _sections([COVER, ITEMS]).values())
    listed = _sections([COVER, ITEMS, SIGNED])  # an exhibit index, nothing attached
    assert not any(s.startswith("Exhibit") for s in listed.values())
    assert _section_of(listed, "99.1 Press Release of") == "Item 9.01. Financial Statements and Exhibits"
    # "Exhibit 99.1" on a line of its own before the signatures is part of the list, not an attached exhibit.
    early = _page(2, ("Item 2.02 Results of Operations and Financial Condition", True),
                  ("Item 9.01 Financial Statements and Exhibits", True), ("Exhibit 99.1", False),
                  ("Press release dated February 1, 2024.", False))
    assert _section_of(_sections([COVER, early, SIGNED]), "Press release dated") == (
        "Item 9.01. Financial Statements and Exhibits")


def test_a_10q_keeps_its_attached_certifications_in_the_item_that_lists_them():
    pages = [_page(1, ("PART II — OTHER INFORMATION", True), ("Item 1. Legal Proceedings", True),
                   ("None.", False), ("Item 6. Exhibits", True), ("31.1 Certification of the CEO.", False)),
             _page(2, ("SIGNATURES", True), ("Pursuant to the requirements of the Exchange Act.", False)),
             _page(3, ("Exhibit 31.1", False), ("CERTIFICATION", True),
                   ("I, Ann Vantor, certify that I have reviewed.", False))]
    assert _section_of(_sections(pages), "certify that") == "Part II > Item 6. Exhibits > CERTIFICATION"


def test_an_attached_exhibit_99_reads_as_content_the_list_signatures_and_contracts_stay_aside():
    paths = ["Item 9.01. Financial Statements and Exhibits", "Item 9.01. Financial Statements and Exhibits > SIGNATURES",
             "Exhibit 10.1 > CREDIT AGREEMENT", "Exhibit 99.1 > Vantor Graphics Reports Fourth Quarter Results",
             "Exhibit 99.2", "Item 2.02. Results of Operations and Financial Condition"]
    assert aside_sections("What was Vantor's fourth quarter revenue?", paths) == [True, True, True, False, False, False]
    # A question naming exhibits asks for them.
    assert aside_sections("What does exhibit 10.1 of Vantor's 8-K provide?", paths)[2] is False


@pytest.fixture()
def eight_k_index(tmp_path, config, monkeypatch):
    """An index of the 8-K above, read through the PDF reader (its layout replaced by the pages above)."""
    import corpus_tools.readers as readers

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "vantor_8k.pdf").write_bytes(b"%PDF-1.4\n")  # the layout below stands in for its pages
    monkeypatch.setattr(readers, "_layout", lambda path: (EIGHT_K, None, 0))
    report = load_documents(folder)
    assert not report.skipped
    path = tmp_path / "index"
    Corpus.build(report.documents, path, config=config, progress=False).close()
    return path


def test_a_narrowed_search_returns_the_press_release_of_an_8k_first(eight_k_index):
    with Corpus.open(eight_k_index) as corpus:
        assert corpus.question_constraints("What was Vantor Graphics' revenue?")  # narrowed to the 8-K
        hits = corpus.search("What was Vantor Graphics' revenue for the fourth quarter of fiscal 2023?", k=5,
                             constraints="auto")
        assert "$812 million" in hits[0].chunk.text  # the release, not Item 2.02's pointer to it
        assert hits[0].chunk.metadata["section"].startswith("Exhibit 99.1")
        # The exhibit list and the credit agreement, which repeat the question's words, are placed lower, kept.
        texts = [h.chunk.text for h in hits]
        assert any("99.1 Press Release of" in t for t in texts) and any("revolving loans" in t for t in texts)
