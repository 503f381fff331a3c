"""Real documents read as documents: tables with their headers, pages and sections, cover-page metadata,
contextual headers, boilerplate, titles (issue 35, the document half).

Fixtures: tests/fixtures/filing_pdf (two invented 10-Qs written by make_filing_pdf.py: an income
statement whose column headers sit on three lines above the figures, a run of scattered figures,
a certification both filings share, a title that is a code).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from corpus_tools import Corpus, Document, load_documents
from corpus_tools.boilerplate import boilerplate_scores, signature
from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.doc_metadata import document_title, fiscal_period, looks_like_code, read_metadata
from corpus_tools.embed import bm25_text, retrieval_text
from corpus_tools.pdf_layout import Table, Word, layout_page
from corpus_tools.readers import read_pdf_document

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from pdf_bytes import pdf_file  # noqa: E402 (tests/fixtures/pdf_bytes.py)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "filing_pdf"
ACME = FIXTURES / "acme_2023_q3.pdf"
COLUMNS = ("Three Months Ended July 1, 2023", "Three Months Ended June 25, 2022",
           "Nine Months Ended July 1, 2023", "Nine Months Ended June 25, 2022")


class _WordTokenizer:
    """Whitespace tokens with their character spans (the Tokenizer protocol), so chunk sizes are exact here."""

    def offsets(self, text: str) -> list[tuple[int, int]]:
        import re

        return [m.span() for m in re.finditer(r"\S+", text)]

    def count(self, text: str) -> int:
        return len(text.split())


@pytest.fixture(scope="module")
def acme() -> Document:
    report = load_documents(ACME)
    assert not report.skipped
    return report.documents[0]


def _words(line: str, y: float, positions: list[float]) -> list[Word]:
    """Words of `line` placed at the given x positions (one per word), 5 points a character."""
    return [Word(x, x + 5 * len(w), y, y + 9, w) for w, x in zip(line.split("|"), positions, strict=True)]


def test_a_table_row_keeps_its_column_headers_spread_over_three_lines():
    words = [
        *_words("Three Months Ended|Nine Months Ended", 100, [320, 450]),
        *_words("July 1,|June 25,|July 1,|June 25,", 112, [325, 380, 455, 510]),
        *_words("2023|2022|2023|2022", 124, [340, 400, 470, 530]),
        *_words("Net sales:", 140, [60]),
        *_words("Products|60,584|63,355|230,901|245,241", 152, [70, 330, 390, 455, 515]),
        *_words("Gross margin|36,413|35,885|128,721|132,687", 164, [60, 330, 390, 455, 515]),
    ]
    page = layout_page(1, words)
    tables = [b for b in page.blocks if isinstance(b, Table)]
    assert len(tables) == 1
    table = tables[0]
    assert table.columns == COLUMNS
    assert [r.label for r in table.rows] == ["Net sales: Products", "Gross margin"]
    assert table.rows[1].values == ("36,413", "35,885", "128,721", "132,687")


def test_figures_without_columns_are_no_table():
    words = [
        *_words("Unit shipments|12|7,310", 100, [60, 200, 300]),
        *_words("Regions|815|2,901", 113, [60, 150, 455]),
        *_words("Plants|31|66,002", 126, [60, 222, 520]),
    ]
    assert not any(isinstance(b, Table) for b in layout_page(1, words).blocks)


def test_the_pdf_is_read_with_its_table_a_soup_counted_and_pages_known():
    pdf = read_pdf_document(ACME)
    assert not pdf.layout_error
    assert pdf.pages == 4 and pdf.tables == 1 and pdf.rows == 6 and pdf.rows_with_headers == 6
    assert pdf.soups == 1  # the scattered figures of the MD&A page: indexed as text, counted
    assert "Gross margin | 36,413 | 35,885 | 128,721 | 132,687" in pdf.text
    assert "Q3 2023 Form 10-Q" not in pdf.text  # the running footer is page furniture
    assert "Unit shipments 12 7,310" in pdf.text


def test_cover_page_metadata_and_a_title_that_is_not_a_code(acme):
    meta = acme.metadata
    assert (meta["company"], meta["ticker"], meta["form"], meta["period_end"]) == (
        "Acme Widgets Inc.", "ACME", "10-Q", "2023-07-01")
    # The footer says Q3 2023 (the calendar would say Q2: July 1 is a 52/53-week quarter end).
    assert (meta["fiscal_year"], meta["fiscal_quarter"]) == (2023, 3)
    assert acme.title == "Acme Widgets Inc. 10-Q Q3 FY2023 (period ended 2023-07-01)"
    assert meta["table_soups"] == 1


def test_every_chunk_has_page_section_kind_header_and_the_document_fields(acme):
    chunks = chunk_document(acme, _WordTokenizer(), ChunkingConfig(chunk_tokens=60, overlap_tokens=8))
    for chunk in chunks:
        assert {"page", "kind", "header", "company", "ticker", "form", "period_end", "fiscal_year",
                "fiscal_quarter"} <= set(chunk.metadata)
        assert chunk.metadata["header"] not in chunk.text  # stored apart: the text stays the document's
        assert chunk.text in acme.text
    by_kind = {c.metadata["kind"] for c in chunks}
    assert by_kind == {"table", "text"}
    table = [c for c in chunks if c.metadata["kind"] == "table"]
    assert all(c.metadata["page"] == 2 for c in table)
    assert all(c.metadata["section"].startswith("Part I > Item 1. Financial Statements") for c in table)
    mdna = next(c for c in chunks if "Widgets, partially offset" in c.text)
    assert mdna.metadata["page"] == 3
    assert mdna.metadata["section"].startswith("Part I > Item 2. Management's Discussion")
    assert next(c for c in chunks if "SARBANES-OXLEY" in c.text).metadata["section"] == "Part II > Item 6. Exhibits"


def test_a_table_is_cut_between_rows_and_every_piece_carries_the_column_headers(acme):
    # 100 words: the header takes about 45, the table (a column line and six rows) needs two chunks.
    chunks = chunk_document(acme, _WordTokenizer(), ChunkingConfig(chunk_tokens=100, overlap_tokens=8))
    table = [c for c in chunks if c.metadata["kind"] == "table"]
    assert len(table) >= 2  # small windows: the table needs several chunks
    rows = [line for c in table for line in c.text.splitlines()]
    # The lead-in ("… (In millions, except per share amounts)") is chunked with the table it introduces.
    assert "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS" in table[0].text
    assert "Gross margin | 36,413 | 35,885 | 128,721 | 132,687" in rows
    for chunk in table:
        for line in chunk.text.splitlines():
            # A whole row (or the column line), never a piece of one; or a line of the lead-in above it.
            assert line.count("|") in (0, 4)
        for column in COLUMNS:
            assert column in chunk.metadata["header"]
        assert "in millions" in chunk.metadata["header"]
        assert chunk.metadata["header"].startswith(acme.title)
        text = retrieval_text(chunk)
        assert text.startswith(chunk.metadata["header"] + "\n") and text.endswith(chunk.text)
        assert bm25_text(chunk).startswith(text)


def test_records_and_plain_text_index_exactly_as_before():
    doc = Document("d1", "Tidal locking makes one face of the Moon point at Earth.", title="Tidal locking",
                   metadata={"year": 2020})
    (chunk,) = chunk_document(doc, _WordTokenizer(), ChunkingConfig())
    assert "header" not in chunk.metadata and "page" not in chunk.metadata
    assert retrieval_text(chunk) == "Tidal locking\nTidal locking makes one face of the Moon point at Earth."


def test_fiscal_calendars():
    import datetime as dt

    # Microsoft: the period ended September 30, 2023 is the first quarter of fiscal year 2024.
    text = "Revenue grew in the first quarter of fiscal year 2024. ... first quarter of fiscal year 2024 ..."
    assert fiscal_period(text, dt.date(2023, 9, 30)) == (2024, 1)
    # Intel's quarter ending October 1, 2022 is its third: a week back is September.
    assert fiscal_period("no fiscal words here", dt.date(2022, 10, 1)) == (2022, 3)
    # A named quarter far from the period (a comparison with an old year) is not taken.
    assert fiscal_period("the first quarter of fiscal 2019", dt.date(2023, 4, 1)) == (2023, 1)
    # Nor one the period cannot be: Intel's quarter ended October 1, 2022 compared with "the first
    # quarter of fiscal 2022" twice is still its third; Microsoft's comparisons with last year lose.
    assert fiscal_period("first quarter of fiscal 2022 ... first quarter of fiscal 2022", dt.date(2022, 10, 1)) == (
        2022, 3)
    assert fiscal_period("our Form 10-Q for the quarter ended April 2, 2022 (Q1 2022 Form 10-Q)",
                         dt.date(2022, 10, 1)) == (2022, 3)
    text = ("first quarter of fiscal year 2022, first quarter of fiscal year 2022, first quarter of fiscal year 2023")
    assert fiscal_period(text, dt.date(2022, 9, 30)) == (2023, 1)


def test_a_cover_without_the_registrant_line_still_names_the_company():
    # Microsoft's cover: the name in capitals after the commission file number, no "(Exact name…)".
    cover = ("FORM 10-Q\nFor the Quarterly Period Ended September 30, 2023\nCommission File Number 001-37845\n"
             "MICROSOFT CORPORATION\nWASHINGTON 91-1144442\nTitle of each class Trading Symbol Name of exchange\n"
             "Common stock, $0.00000625 par value per share MSFT NASDAQ\n"
             "Revenue grew in the first quarter of fiscal year 2024.")
    assert read_metadata(cover) == {"form": "10-Q", "period_end": "2023-09-30", "company": "Microsoft Corporation",
                                    "ticker": "MSFT", "fiscal_year": 2024, "fiscal_quarter": 1}


def test_period_words_before_the_year_line_head_every_column_and_glued_figures_stay_in_the_label():
    words = [
        *_words("Three|Months|Ended|September|30,|2023|2022", 100, [17, 37, 63, 85, 122, 474, 552]),
        *_words("Revenue:", 112, [17]),
        *_words("Product|$|15,535|$|15,741", 124, [28, 417, 462, 501, 542]),
        *_words("Receivables,|net|of|$512|and|$650|36,953|48,688", 136, [28, 90, 110, 122, 145, 165, 462, 542]),
    ]
    (table,) = [b for b in layout_page(1, words).blocks if isinstance(b, Table)]
    assert table.columns == ("Three Months Ended September 30, 2023", "Three Months Ended September 30, 2022")
    assert [(r.label, r.values) for r in table.rows] == [
        ("Revenue: Product", ("15,535", "15,741")),
        ("Revenue: Receivables, net of $512 and $650", ("36,953", "48,688")),
    ]


def test_titles_never_a_date_or_a_form_code():
    assert looks_like_code("04.01.2023 10Q Document")
    assert not looks_like_code("Tidal Locking")
    assert document_title({}, "04.01.2023 10Q Document", Path("2023 Q1 AAPL.pdf")) == "2023 Q1 AAPL"
    assert document_title({}, "Tidal Locking", Path("x.pdf")) == "Tidal Locking"


def test_metadata_missing_gives_a_shorter_header_not_an_error():
    assert read_metadata("A report on bees. Nothing about filings here.") == {}


def test_boilerplate_is_shared_text_across_documents_and_figures_make_a_difference():
    cert = ("the undersigned officer certifies that the report fully complies with the requirements of "
            "Section 13(a) of the Securities Exchange Act and fairly presents the financial condition")
    income = "Total net sales | 81,797 | 82,959 | 293,787 | 304,182 Gross margin | 36,413 | 35,885 | 128,721"
    other_income = "Total net sales | 94,836 | 97,278 | 211,990 | 221,223 Gross margin | 41,976 | 42,559 | 92,308"
    doc_ids = ["a", "a", "b", "b", "c"]
    texts = [cert, income, cert, other_income, "Bees pollinate flowers and make honey in their hives every summer."]
    scores = boilerplate_scores(doc_ids, [signature(t) for t in texts])
    assert scores[0] == scores[2] == 0.5  # in 1 of the 2 other documents
    assert scores[1] == scores[3] == scores[4] == 0.0  # same statement, other figures: no copy


def test_a_build_scores_the_shared_certification_and_search_shows_the_fields(tmp_path, config):
    folder = tmp_path / "filings"
    folder.mkdir()
    for pdf in FIXTURES.glob("*.pdf"):
        (folder / pdf.name).write_bytes(pdf.read_bytes())
    with Corpus.build(folder, tmp_path / "index", config=config, progress=False) as corpus:
        chunks = [c for d in corpus.doc_ids() for c in corpus.chunks(d)]
        cert = [c for c in chunks if "SARBANES-OXLEY" in c.text]
        assert len(cert) == 2 and all(c.metadata["boilerplate"] == 1.0 for c in cert)
        table = next(c for c in chunks if "Gross margin | 36,413" in c.text)
        assert table.metadata["boilerplate"] == 0.0
        where = {"$and": [{"ticker": "ACME"}, {"fiscal_quarter": 3}]}
        hits = corpus.search("Acme gross margin three months ended July 1, 2023", k=3, where=where)
        assert hits and all(h.chunk.metadata["company"] == "Acme Widgets Inc." for h in hits)
        assert "Gross margin | 36,413" in hits[0].chunk.text
        assert [n.note for n in corpus.build_report.notes] == [
            "1 table(s) of figures without clear columns, indexed as text"]
        (read_hit, *_) = corpus.read("acme_2023_q3.pdf")
        assert read_hit.chunk.metadata["period_end"] == "2023-07-01"
        assert corpus.structure_note is None
    (globex,) = load_documents(FIXTURES / "globex_2023_q2.pdf").documents
    assert globex.metadata["company"] == "Globex Corporation" and globex.metadata["ticker"] == "GBX"


def _drawing_only_pdf() -> bytes:
    """A valid one-page PDF whose page draws a line and no text: what a scan without OCR reads as."""
    stream = b"0 0 m 300 300 l S"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    return pdf_file(objects)


def test_malformed_pdfs_are_skipped_with_a_reason_and_lose_nothing_else(tmp_path):
    (tmp_path / "good.pdf").write_bytes(ACME.read_bytes())
    (tmp_path / "truncated.pdf").write_bytes(ACME.read_bytes()[:900])
    (tmp_path / "scan.pdf").write_bytes(_drawing_only_pdf())
    report = load_documents(tmp_path)
    assert [d.doc_id for d in report.documents] == ["good.pdf"]
    assert report.documents[0].parts  # the good file still read with its layout
    reasons = {s.path: s.reason for s in report.skipped}
    assert set(reasons) == {"truncated.pdf", "scan.pdf"}
    assert "unreadable PDF" in reasons["truncated.pdf"]
    assert "no extractable text" in reasons["scan.pdf"]


def test_an_index_built_before_these_fields_opens_searches_and_says_what_it_lacks(tmp_path):
    import shutil

    old = Path(__file__).resolve().parents[1] / "fixtures" / "index_v1" / "index"
    shutil.copytree(old, tmp_path / "index")
    with Corpus.open(tmp_path / "index") as corpus:
        assert corpus.search("lighthouse", k=3)
        assert "rebuild" in corpus.structure_note


def test_an_html_filing_table_keeps_its_spanning_headers_and_its_section():
    (doc,) = load_documents(FIXTURES / "initech_2023_q3.htm").documents
    assert doc.title == "Initech Corporation 10-Q Q3 FY2023 (period ended 2023-09-30)"  # not "d512345d10q.htm"
    assert "Gross margin percentage | 42.5% | 40.9% | 38.3% | 43.5%" in doc.text
    (table,) = [p for p in doc.parts if p.kind == "table"]
    assert table.section == "Item 2. Management's Discussion and Analysis"
    assert table.context == ("columns: Three Months Ended Sep 30, 2023 | Three Months Ended Sep 24, 2022 | "
                             "Nine Months Ended Sep 30, 2023 | Nine Months Ended Sep 24, 2022 · in millions")
    chunks = chunk_document(doc, _WordTokenizer(), ChunkingConfig())
    row = next(c for c in chunks if "Net revenue | 14,158" in c.text)
    assert row.metadata["kind"] == "table" and "Three Months Ended Sep 30, 2023" in row.metadata["header"]


def test_html_text_outside_blocks_is_never_lost(tmp_path):
    page = tmp_path / "minutes.html"
    page.write_text("<html><title>Board minutes</title><body>Minutes of the board.<p>Next meeting in May.</p>"
                    "</body></html>")
    (doc,) = load_documents(page).documents
    assert "Minutes of the board." in doc.text and "Next meeting in May." in doc.text


def test_page_markers_are_page_furniture_on_a_short_report_never_text_or_a_heading():
    """NTSB reports are 3-4 pages: "Page 1 of 3" (alone on page 1, with the report number after) repeats too
    rarely to be found as running furniture, and set apart it read as a heading ("… > Page 1 of 3")."""
    from corpus_tools.pdf_layout import Line, PageLayout, Word
    from corpus_tools.structure import build_structure

    def line(text: str, top: float, size: float = 9.0, bold: bool = False) -> Line:
        return Line(tuple(Word(72 + 40 * i, 100 + 40 * i, top, top + size, w, size, bold)
                          for i, w in enumerate(text.split())))

    pages = [
        PageLayout(1, [line("Aviation Accident Final Report", 40, 14, True), line("Analysis", 80, 11, True),
                       line("The pilot misjudged the approach over the trees.", 100),
                       line("Page 1 of 3", 760, 9, True)]),
        PageLayout(2, [line("Pilot Information", 40, 11, True), line("Certificate: Private Age: 85", 60),
                       line("Page 2 of 3 NYC08CA055", 760)]),
        PageLayout(3, [line("Wreckage and Impact Information", 40, 11, True), line("Aircraft Damage: Substantial", 60),
                       line("Page 3 of 3 NYC08CA055", 760)]),
    ]
    structured = build_structure(pages)
    assert "Page" not in structured.text
    assert not any("Page" in p.section for p in structured.parts)
    assert [p.page for p in structured.parts if "Substantial" in structured.text[p.start:p.end]] == [3]
    assert "The pilot misjudged" in structured.text and "Certificate: Private" in structured.text
    # Prose that mentions a page is text.
    body = build_structure([PageLayout(1, [line("Intro", 40, 11, True), line("See the table on page 4 below.", 60),
                                           line("More text.", 80), line("Page 4 shows.", 100),
                                           line("Closing line.", 120), line("Last line.", 140)])])
    assert "See the table on page 4 below." in body.text and "Page 4 shows." in body.text


def test_a_report_forms_bold_field_labels_and_bold_prose_are_not_headings():
    """An NTSB form sets its field labels in bold ("Registered Owner: Rated Power:") and some narratives'
    first lines too; read as headings they became the section of every chunk below them."""
    from corpus_tools.pdf_layout import Line, PageLayout, Word
    from corpus_tools.structure import build_structure

    def line(text: str, top: float, size: float = 9.0, bold: bool = False) -> Line:
        return Line(tuple(Word(72 + 40 * i, 100 + 40 * i, top, top + size, w, size, bold)
                          for i, w in enumerate(text.split())))

    pages = [PageLayout(1, [
        line("Aviation Accident Factual Report", 40, 14, True),
        line("Aircraft and Owner/Operator Information", 70, 11, True),
        line("Registered Owner: Rated Power:", 90, 9, True), line("Operator: On-demand Air Taxi", 100),
        line("Forecast/Actual:", 120, 9, True), line("Wind Direction: 290", 130),
        line("Analysis", 150, 11, True),
        line("On December 23, 2007, a Panama registered Cessna 172, HP762, was destroyed upon impact", 170, 9, True),
        line("with terrain near Boquete.", 180),
        line("The pilot's failure to maintain clearance while maneuvering. Factors", 200, 9, True),
        line("were the low altitude.", 210),
    ])]
    structured = build_structure(pages)
    sections = {p.section for p in structured.parts}
    assert sections <= {"Aviation Accident Factual Report",
                        "Aviation Accident Factual Report > Aircraft and Owner/Operator Information",
                        "Aviation Accident Factual Report > Analysis"}, sections
    assert "Aviation Accident Factual Report > Analysis" in sections
    assert "Registered Owner: Rated Power:" in structured.text and "destroyed upon impact" in structured.text
