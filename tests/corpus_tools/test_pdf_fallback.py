"""Every readable PDF indexed: pypdfium2 takes over when pypdf fails, and a file both refuse names both reasons.

The fixture PDFs are built here, byte by byte (1 KB each): one whose page holds a 100,002-element
TJ array, past pypdf's `array_maximum_element_count` (100,000) — the LimitReachedError that real
10-Q filings raise — and one that is not a PDF at all.
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path

import pytest

from corpus_tools.loaders import load_documents
from corpus_tools.readers import UnreadableFileError, _read_pdf_pypdf, read_pdf

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from pdf_bytes import pdf_file  # noqa: E402 (tests/fixtures/pdf_bytes.py)

TEXT = "Contoso net revenue rose 12 percent in the third quarter of 2023."


def make_pdf(text: str, array_elements: int = 0) -> bytes:
    """A one-page PDF showing `text`; array_elements > 0 adds a TJ array that long (empty strings)."""
    content = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET\n".encode()
    if array_elements:
        content += b"BT /F1 12 Tf 72 700 Td [" + b"() 0 " * (array_elements // 2) + b"] TJ ET\n"
    stream = zlib.compress(content, 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return pdf_file(objects)


@pytest.fixture
def filings(tmp_path: Path) -> Path:
    (tmp_path / "2023 Q1 CNTS.pdf").write_bytes(make_pdf(TEXT, array_elements=100_002))
    (tmp_path / "2023 Q2 CNTS.pdf").write_bytes(make_pdf(TEXT.replace("third", "second")))
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not a PDF body")
    return tmp_path


def test_the_fixture_makes_pypdf_fail_as_real_filings_do(filings):
    with pytest.raises(UnreadableFileError, match="LimitReachedError: Reached maximum array element count"):
        _read_pdf_pypdf(filings / "2023 Q1 CNTS.pdf")


def test_pdfium_reads_what_pypdf_cannot(filings):
    title, text, failed = read_pdf(filings / "2023 Q1 CNTS.pdf")
    assert TEXT in text and failed == 0 and "\r" not in text


def test_a_pdf_both_extractors_refuse_is_skipped_with_both_reasons(filings):
    with pytest.raises(UnreadableFileError) as caught:
        read_pdf(filings / "broken.pdf")
    message = str(caught.value)
    assert message.startswith("unreadable PDF (pypdf: ")
    assert "; pypdfium2: PdfiumError" in message and "re-save it as a PDF" in message


def test_every_readable_filing_is_loaded(filings):
    report = load_documents(filings)
    assert sorted(d.doc_id for d in report.documents) == ["2023 Q1 CNTS.pdf", "2023 Q2 CNTS.pdf"]
    assert [s.path for s in report.skipped] == ["broken.pdf"]
    assert "pypdf:" in report.skipped[0].reason and "pypdfium2:" in report.skipped[0].reason


def test_progress_hears_of_each_file_before_it_is_read(filings):
    """`on_file` (what the progress displays of index/add use) names a file before the loader opens it."""
    from corpus_tools.loaders import iter_documents

    events: list[str] = []
    for _item, where in iter_documents(filings, on_file=lambda name: events.append(f"open {name}")):
        events.append(f"done {where}")
    assert events == [f"{step} {name}" for name in ("2023 Q1 CNTS.pdf", "2023 Q2 CNTS.pdf", "broken.pdf")
                      for step in ("open", "done")]
