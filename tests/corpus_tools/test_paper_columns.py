"""A folder of research papers (session 48, issue 36): two-column pages read column by column, a word broken at a
line's end joined, the title the first page sets (`CorpusConfig.pdf_columns`); off reads as before. Bad input: a
page with no text layer, an encrypted PDF, a paper with no abstract. The PDFs are invented, written by hand."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from corpus_tools.config import CorpusConfig
from corpus_tools.loaders import ReadOptions, load_documents
from corpus_tools.pdf_layout import (
    SOFT_HYPHEN,
    Line,
    Vocabulary,
    Word,
    column_lines,
    find_gutter,
    group_lines,
    join_hyphens,
)
from corpus_tools.readers import read_pdf_document

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from paper_pdf import paper_pdf, two_column_page  # noqa: E402 (tests/fixtures/paper_pdf.py)

LEFT = ["Bluefin is a storage system for sea charts that", "keeps every chart in a Tidal Ordered Log (TOL)",
        "and serves reads from memory. A harbour is a", "group of charts that one server owns. Our distrib-",
        "uted design scales to many servers and many", "harbours without any central coordinator at all."]
RIGHT = ["The second column opens here and explains how", "replicas agree on the order of chart writes.",
         "Each replica keeps a copy of the log on disk and", "answers reads from the most recent checkpoint.",
         "Recovery replays the log from that checkpoint.", "Nothing in this column belongs to the first one."]
HEAD = [(150.0, 50.0, "Bluefin: A Chart Store for Harbours", 16.0), (250.0, 75.0, "Ada Lovelace and Alan Turing", 10.0)]


def _paper(tmp_path: Path, name: str = "bluefin.pdf", **kw) -> Path:
    path = tmp_path / name
    path.write_bytes(paper_pdf([two_column_page(LEFT, RIGHT, head=HEAD)], title="Microsoft Word - draft3.doc", **kw))
    return path


def test_two_columns_read_column_by_column(tmp_path):
    text = read_pdf_document(_paper(tmp_path), columns=True).text
    assert "Bluefin is a storage system for sea charts that\nkeeps every chart in a Tidal Ordered Log (TOL)" in text
    assert text.index("harbours without any central coordinator") < text.index("The second column opens here")
    assert "replicas agree on the order of chart writes.\nEach replica keeps" in text


def test_off_reads_as_before(tmp_path):
    # the old reading, asked for explicitly: since session 49 every caller reads columns by default
    path = _paper(tmp_path)
    assert read_pdf_document(path).text == read_pdf_document(path, columns=True).text
    assert "Bluefin is a storage system" not in read_pdf_document(path, columns=False).text  # the base's soup


def test_a_word_broken_at_a_lines_end_is_joined(tmp_path):
    text = read_pdf_document(_paper(tmp_path), columns=True).text
    assert "Our distributed\ndesign scales" in text
    assert "distrib" not in text.replace("distributed", "")


def test_the_title_is_the_first_pages_largest_type(tmp_path):
    path = _paper(tmp_path)
    assert read_pdf_document(path, columns=True).page_title == "Bluefin: A Chart Store for Harbours"
    on = load_documents(tmp_path).documents[0]  # the default reading since session 49, as `context1 index`'s
    off = load_documents(tmp_path, pdf_columns=False).documents[0]  # the old reading, asked for explicitly
    assert on.title == "Bluefin: A Chart Store for Harbours"
    assert off.title != on.title


def test_a_title_marks_and_stamps_are_dropped(tmp_path):
    head = [(100.0, 50.0, "[hal-0012, v1] Bluefin: A Chart Store 1", 16.0)]
    (tmp_path / "p.pdf").write_bytes(paper_pdf([two_column_page(LEFT, RIGHT, head=head)]))
    assert read_pdf_document(tmp_path / "p.pdf", columns=True).page_title == "Bluefin: A Chart Store"


def test_a_drop_cap_is_no_title(tmp_path):
    head = [(150.0, 50.0, "Bluefin: A Chart Store", 14.0), (60.0, 80.0, "T", 30.0), (80.0, 80.0, "HE harbour grows", 9.0)]
    (tmp_path / "p.pdf").write_bytes(paper_pdf([two_column_page(LEFT, RIGHT, head=head, top=120)]))
    assert read_pdf_document(tmp_path / "p.pdf", columns=True).page_title == "Bluefin: A Chart Store"


def test_a_one_column_page_reads_the_same_either_way(tmp_path):
    lines = [f"Line {i} of a single column runs across the whole width of the page, as a report sets it."
             for i in range(30)]
    (tmp_path / "one.pdf").write_bytes(paper_pdf([[(60.0, 80.0 + 12 * i, t, 10.0) for i, t in enumerate(lines)]]))
    assert read_pdf_document(tmp_path / "one.pdf").text == read_pdf_document(tmp_path / "one.pdf", columns=False).text


def test_the_gutter_from_words():
    words = [Word(60 + 30 * k, 85 + 30 * k, 100 + 11 * i, 109 + 11 * i, "word") for i in range(20) for k in range(7)]
    words += [Word(320 + 30 * k, 345 + 30 * k, 104 + 11 * i, 113 + 11 * i, "word") for i in range(20) for k in range(7)]
    gutter = find_gutter(words)
    assert gutter is not None and 270 < gutter < 320
    assert len(column_lines(words)) == 40
    assert len(group_lines(words)) < 40  # across the width, the drifting baselines run lines together


def test_config_flag_reaches_the_loader():
    assert CorpusConfig().pdf_columns is True
    assert ReadOptions.from_config(CorpusConfig(pdf_columns=False)).pdf_columns is False
    assert CorpusConfig.from_dict({}).pdf_columns is False  # an index built before reads as before
    with pytest.raises(ValueError):
        CorpusConfig(pdf_columns="yes")


# ---------------------------------------------------------------- bad input


def test_a_page_with_no_text_layer_is_skipped_with_the_others_read(tmp_path):
    scanned = paper_pdf([[]])  # a page as a scanner gives it, an image and no text: here nothing at all
    (tmp_path / "scan.pdf").write_bytes(scanned)
    _paper(tmp_path)
    report = load_documents(tmp_path, pdf_columns=True)
    assert [d.title for d in report.documents] == ["Bluefin: A Chart Store for Harbours"]
    assert [s.path for s in report.skipped if "scan" in s.path] and "no extractable text" in report.skipped[0].reason


def test_an_encrypted_paper_readable_without_a_password_is_read_and_a_locked_one_skipped(tmp_path):
    from pypdf import PdfReader, PdfWriter

    plain = paper_pdf([two_column_page(LEFT, RIGHT, head=HEAD)])
    for name, user in (("restricted.pdf", ""), ("locked.pdf", "open-sesame")):
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(plain)))
        writer.encrypt(user_password=user, owner_password="s3cret", algorithm="AES-128")
        buffer = io.BytesIO()
        writer.write(buffer)
        (tmp_path / name).write_bytes(buffer.getvalue())
    report = load_documents(tmp_path, pdf_columns=True)
    assert [d.title for d in report.documents] == ["Bluefin: A Chart Store for Harbours"]
    assert "Bluefin is a storage system for sea charts that" in report.documents[0].text
    assert [s.path for s in report.skipped] == ["locked.pdf"]


def test_a_paper_with_no_abstract_and_no_title_type(tmp_path):
    # every line in one size: no title stands out, so none is read from the page (the metadata's is kept)
    (tmp_path / "plain.pdf").write_bytes(paper_pdf([two_column_page(LEFT, RIGHT)], title="Bluefin Notes"))
    doc = load_documents(tmp_path, pdf_columns=True).documents[0]
    assert doc.title == "Bluefin Notes"
    assert doc.text.startswith("Bluefin is a storage system")


def _w(text: str, x: float = 0.0, top: float = 0.0) -> Word:
    return Word(x, x + 5 * len(text), top, top + 10, text)


@pytest.mark.parametrize("stem, rest, elsewhere, expected", [
    # PDFium marks the word's own hyphen at a line's end as it marks the typesetter's: the document decides
    ("forward", "looking", ["forward-looking"], "forward-looking"),
    ("non", "controlling", ["non-controlling", "interest"], "non-controlling"),
    ("non", "controlling", ["noncontrolling"], "noncontrolling"),
    ("distrib", "uted,", ["distributed"], "distributed,"),
    ("distrib", "uted", [], "distributed"),  # no evidence: the typesetter's hyphen
    ("non", "GAAP", [], "non-GAAP"),  # no evidence, a capital after the break: the word's own
    ("COVID", "19", [], "COVID-19"),
])
def test_a_broken_words_hyphen_is_kept_where_the_document_writes_it(stem, rest, elsewhere, expected):
    vocabulary = Vocabulary.of([_w(t, top=100) for t in elsewhere])
    lines = [Line((_w("the"), _w(stem + SOFT_HYPHEN, 30))), Line((_w(rest, top=12), _w("statements", 60, 12)))]
    joined = join_hyphens(lines, vocabulary)
    assert [line.text for line in joined] == [f"the {expected}", "statements"]


def test_two_columns_are_the_documents_layout_not_an_odd_pages(tmp_path):
    """A filing's term / definition table has a gutter, but the filing is one column: row by row, each definition
    beside its term (session 49: on the 10-Qs the odd page read in columns separated them)."""
    one_column = [[(60.0, 80.0 + 12 * i, f"Line {i} of page {p} runs across the whole width of the page, as a filing sets it.",
                    10.0) for i in range(30)] for p in range(4)]
    odd = two_column_page(LEFT, RIGHT, drift=0.0)
    (tmp_path / "filing.pdf").write_bytes(paper_pdf([*one_column, odd]))
    (tmp_path / "paper.pdf").write_bytes(paper_pdf([odd, odd]))
    filing = read_pdf_document(tmp_path / "filing.pdf", columns=True).text
    assert "Bluefin is a storage system for sea charts that The second column opens here and explains how" in filing
    paper = read_pdf_document(tmp_path / "paper.pdf", columns=True).text
    assert "Bluefin is a storage system for sea charts that\nkeeps every chart" in paper
