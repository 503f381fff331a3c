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


def test_attached_exhibits_stay_aside_with_the_list_and_signatures_unless_the_question_names_exhibits():
    paths = ["Item 9.01. Financial Statements and Exhibits", "Item 9.01. Financial Statements and Exhibits > SIGNATURES",
             "Exhibit 10.1 > CREDIT AGREEMENT", "Exhibit 99.1 > Vantor Graphics Reports Fourth Quarter Results",
             "Item 2.02. Results of Operations and Financial Condition"]
    assert aside_sections("What was Vantor's fourth quarter revenue?", paths) == [True, True, True, True, False]
    # A question naming exhibits asks for them.
    assert aside_sections("What does exhibit 10.1 of Vantor's 8-K provide?", paths)[2:4] == [False, False]


# An earnings release filed alone (an 8-K's Exhibit 99.1): no cover, a headline, and prose that cites the forms.
RELEASE = """Exhibit 99.1
Kestrel Foods Reports First-Quarter 2024 Results; Raises Full-Year
Guidance
Net revenue growth | 10.2%
PURCHASE, N.Y. - April 23, 2024 - Kestrel Foods, Inc. (NASDAQ: KSTL) today reported results for
the first quarter 2024. Our results are discussed in our Quarterly Report on Form 10-Q for the 12 weeks
ended March 23, 2024 and the risks in our Annual Report on Form 10-K.
"""


def test_a_release_citing_forms_in_its_prose_is_read_from_its_headline():
    from corpus_tools.doc_metadata import read_metadata

    # The dateline names the company as it writes itself; its form is a release's, never the 10-Q its prose cites.
    assert read_metadata(RELEASE) == {"company": "Kestrel Foods, Inc.", "form": "earnings release", "ticker": "KSTL",
                                      "period_end": "2024-03-23", "fiscal_year": 2024, "fiscal_quarter": 1}
    # The release's furniture names no one; "the quarter and year ended" is its period; with no dateline the
    # headline names the company ("eBright Inc.", its own odd case).
    news = ("NEWS RELEASE\neBright Inc. Reports Fourth Quarter and Full Year 2023 Results\nSAN JOSE - the company "
            "(NYSE: BRTW) today reported financial results for the quarter and year ended December 31, 2023.")
    assert read_metadata(news) == {"company": "eBright Inc.", "form": "earnings release", "ticker": "BRTW",
                                   "period_end": "2023-12-31", "fiscal_year": 2023, "fiscal_quarter": 4}


def test_a_release_without_a_named_issuer_keeps_what_its_prose_gives():
    from corpus_tools.doc_metadata import read_metadata

    # "today announced … results" names no one (no capital): no company invented, the form read as before.
    unnamed = "FOR IMMEDIATE RELEASE\nthe company today announced second-quarter results.\nSee our Form 8-K."
    assert read_metadata(unnamed) == {"form": "8-K"}
    assert read_metadata("") == {}


def _release_pages() -> list[PageLayout]:
    return [_page(1, *[(line, i == 1) for i, line in enumerate(RELEASE.splitlines())]),
            _page(2, ("Raised guidance", True),
                  ("We raised our full-year guidance because pricing held and demand for snacks rose 9 percent.", False))]


def _single_item_8k() -> list[PageLayout]:
    cover = _page(1, ("FORM 8-K", True), ("CURRENT REPORT", True),
                  ("Date of Report (Date of earliest event reported): May 24, 2024", False),
                  ("Kestrel Foods, Inc.", True), ("(Exact name of registrant as specified in its charter)", False))
    item = _page(2, ("Item 8.01. Other Events.", True),
                 ("Kestrel Foods raised the commitments under its full-year revolving credit agreement, whose", False),
                 ("guidance on covenants is unchanged.", False))
    return [cover, item, _page(3, ("SIGNATURES", True), ("Pursuant to the requirements of the Exchange Act.", False))]


@pytest.fixture()
def kestrel_index(tmp_path, config, monkeypatch):
    """A release and an 8-K of one company, read through the PDF reader (their layouts given above)."""
    import corpus_tools.readers as readers

    folder = tmp_path / "docs"
    folder.mkdir()
    pages = {"kestrel_q1_release.pdf": _release_pages(), "kestrel_8k.pdf": _single_item_8k()}
    for name in pages:
        (folder / name).write_bytes(b"%PDF-1.4\n")  # the layouts below stand in for their pages
    monkeypatch.setattr(readers, "_layout", lambda path, columns=False: (pages[path.name], None, 0))
    report = load_documents(folder)
    assert not report.skipped
    path = tmp_path / "index"
    Corpus.build(report.documents, path, config=config, progress=False).close()
    return path


def test_a_question_naming_the_company_and_quarter_finds_its_release(kestrel_index):
    with Corpus.open(kestrel_index) as corpus:
        release = corpus.chunks("kestrel_q1_release.pdf")[0].metadata
        assert (release["company"], release["fiscal_year"], release["fiscal_quarter"]) == ("Kestrel Foods, Inc.", 2024, 1)
        assert release["form"] == "earnings release"  # its prose cites a 10-Q; it is none
        assert release["title"] == "Kestrel Foods, Inc. earnings release Q1 FY2024 (period ended 2024-03-23)"
        # The single-Item 8-K is read as a filing: its Item is a section.
        assert "Item 8.01. Other Events." in {c.metadata.get("section") for c in corpus.chunks("kestrel_8k.pdf")}
        question = "As of FY2024Q1, why did Kestrel Foods raise its full-year guidance?"
        assert "Kestrel Foods, Inc." in corpus.question_constraints(question)["company"]
        hits = corpus.search(question, k=3, constraints="auto")
        assert hits[0].chunk.doc_id == "kestrel_q1_release.pdf"


def test_a_company_spelt_in_two_cases_is_one_company_to_a_question():
    from corpus_tools.constraints import MetadataCatalog

    catalog = MetadataCatalog.from_documents([
        ("8k", {"company": "Mgm Resorts International", "form": "8-K", "period_end": "2023-03-01"}),
        ("release", {"company": "MGM Resorts International", "ticker": "MGM", "period_end": "2022-12-31",
                     "fiscal_year": 2022, "fiscal_quarter": 4})])
    assert set(catalog.companies_in("Which region led MGM in FY2022?")) == {
        "MGM Resorts International", "Mgm Resorts International"}


def test_an_8k_dated_above_its_date_of_report_label():
    from corpus_tools.doc_metadata import read_metadata

    cover = ("FORM 8-K\nCURRENT REPORT\nJuly 21, 2021\nDate of Report (date of earliest event reported)\n\n"
             "Vantor Graphics Corporation\n(Exact name of Registrant as specified in its charter)\n")
    assert read_metadata(cover)["period_end"] == "2021-07-21"
    # No date at all: the 8-K indexes without a period.
    assert "period_end" not in read_metadata(cover.replace("July 21, 2021\n", ""))


# Datelines as filers write them (J&J's, with no headline naming the company and prose citing "Form 8-K";
# McDonald's, with no listing; MGM's, with a parenthetical short name; Salesforce's, in lowercase).
JNJ_LIKE = """FOR IMMEDIATE RELEASE
• 2022 Fourth-Quarter reported sales decline of 4.4% to $23.7 Billion
New Brunswick, N.J. (January 24, 2023) – Medico & Medico (NYSE:
MDM) today announced results for fourth-quarter and full-year 2022. Read our Form 8-K and Form 10-K.
"""


@pytest.mark.parametrize("text, company, ticker", [
    (JNJ_LIKE, "Medico & Medico", "MDM"),
    ("Exhibit 99.1\nFOR IMMEDIATE RELEASE\nMcBURGER'S REPORTS FIRST QUARTER 2023 RESULTS\nCHICAGO, IL - McBurger's "
     "Corporation today announced results for the first quarter ended March 31, 2023.", "McBurger's Corporation", None),
    ("Las Vegas, Nevada, February 8, 2023 – MGR Resorts International (NYSE: MGR) (“MGR Resorts” or the “Company”) "
     "today reported financial results for the quarter and year ended December 31, 2022.", "MGR Resorts International",
     "MGR"),
    ("March 9, 2023\n\nGlow Beauty Announces Fourth Quarter\n\nFiscal 2022 Results\nBOLINGBROOK, Ill.--(BUSINESS WIRE)-- "
     "Glow Beauty, Inc. (NASDAQ: GLOW) today\nannounced financial results for the thirteen-week period ended January 28, "
     "2023.", "Glow Beauty, Inc.", "GLOW"),
    ("SAN FRANCISCO, Calif. - Dec. 1, 2021 - cloudforce.com, inc. (NYSE: CLF) today announced results for its third "
     "quarter fiscal 2022 ended October 31, 2021.", "cloudforce.com, inc.", "CLF"),
])
def test_a_release_is_read_from_its_dateline_as_the_filer_writes_its_name(text, company, ticker):
    from corpus_tools.doc_metadata import read_metadata, release_company
    from datagen.release_facts import filing_company

    found = read_metadata(text)
    assert (found.get("company"), found.get("ticker"), found.get("form")) == (company, ticker, "earnings release")
    # Search metadata and datagen read the one dateline alike (datagen's fallback when the index stored no company).
    assert release_company([text]) == company == filing_company({}, [text], "MEDICO 2022Q4 EARNINGS")


def test_a_dateline_release_states_its_fiscal_period_and_title():
    from pathlib import Path

    from corpus_tools.doc_metadata import document_title, read_metadata

    found = read_metadata(JNJ_LIKE)
    assert (found["fiscal_year"], found["fiscal_quarter"]) == (2022, 4)  # "fourth-quarter and full-year 2022"
    # The title is never the file's code ("MEDICO 2022Q4 EARNINGS") nor "8-K" when the dateline says more.
    assert document_title(found, "MEDICO 2022Q4 EARNINGS", Path("x.pdf")) == "Medico & Medico earnings release Q4 FY2022"
    # "the Company today announced": a dateline subject that names no one is no company.
    assert "company" not in read_metadata("FOR IMMEDIATE RELEASE\nCHICAGO - The Company today announced results.")
