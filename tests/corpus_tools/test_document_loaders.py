"""load_documents: every supported source shape, stable ids, and a reason for everything skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpus_tools.loaders import content_id, load_documents
from corpus_tools.types import Document, LoadReport

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "loaders"
DOCS = FIXTURES / "docs"
RECORDS = FIXTURES / "records"


def _by_id(report: LoadReport) -> dict[str, Document]:
    return {doc.doc_id: doc for doc in report.documents}


def _reasons(report: LoadReport) -> dict[str, str]:
    """Skip reasons keyed by file name (a single file is reported by the path it was given as)."""
    return {Path(skip.path).name: skip.reason for skip in report.skipped}


def test_folder_loads_every_supported_file_with_relative_posix_ids():
    report = load_documents(DOCS)
    docs = _by_id(report)
    assert list(docs) == [
        "honeybees.md",
        "latin1.txt",
        "lighthouse.html",
        "paper.pdf",
        "sub/glaciers.md",
        "volcanoes.txt",
    ]
    # Non-UTF-8 text is decoded (charset detection), and the guess is reported, not hidden.
    assert docs["latin1.txt"].text.startswith("café au lait")
    assert docs["latin1.txt"].metadata["encoding"] and [n.path for n in report.notes] == ["latin1.txt"]
    # The file name and relative path are kept for search and filters.
    meta = docs["sub/glaciers.md"].metadata
    assert meta["source"] == "sub/glaciers.md" and meta["file_name"] == "glaciers.md" and meta["source_size"] > 0
    assert docs["honeybees.md"].title == "Honeybee Navigation"  # first markdown heading
    assert docs["sub/glaciers.md"].title == "glaciers"  # no heading: the file name's stem
    assert docs["volcanoes.txt"].title == "volcanoes"
    assert "Mount Etna" in docs["volcanoes.txt"].text


def test_html_keeps_visible_text_and_takes_the_title_tag():
    doc = _by_id(load_documents(DOCS / "lighthouse.html"))["lighthouse.html"]
    assert doc.title == "The Pharos of Alexandria"
    assert "built by the Ptolemaic Kingdom" in doc.text
    assert "console.log" not in doc.text and "color: red" not in doc.text


def test_pdf_text_and_title_from_metadata():
    doc = _by_id(load_documents(DOCS / "paper.pdf"))["paper.pdf"]
    assert doc.title == "Tidal Locking"
    assert "rotation period equals its orbital period" in doc.text


def test_folder_reports_every_skipped_file_with_its_reason():
    reasons = _reasons(load_documents(DOCS))
    assert set(reasons) == {".hidden.txt", "archive.txt", "blank.md", "diagram.png", "empty.txt"}
    assert "binary" in reasons["archive.txt"]
    assert "empty" in reasons["empty.txt"] and "empty" in reasons["blank.md"]
    assert "unsupported file type" in reasons["diagram.png"] and ".md" in reasons["diagram.png"]
    assert "hidden" in reasons[".hidden.txt"]


def test_loading_twice_gives_the_same_ids_texts_and_order():
    first, second = load_documents(FIXTURES), load_documents(FIXTURES)
    assert [(d.doc_id, d.title, d.text) for d in first.documents] == [
        (d.doc_id, d.title, d.text) for d in second.documents
    ]
    assert first.skipped == second.skipped


def test_glob_filters_a_folder():
    report = load_documents(DOCS, glob="**/*.md")
    assert [d.doc_id for d in report.documents] == ["honeybees.md", "sub/glaciers.md"]
    assert list(_reasons(report)) == ["blank.md"]


def test_beir_jsonl_without_options():
    docs = _by_id(load_documents(RECORDS / "beir_corpus.jsonl"))
    assert list(docs) == ["b1", "b2", "b3"]
    assert docs["b1"].title == "Photosynthesis"
    assert docs["b1"].text == "Plants convert light energy into chemical energy."
    assert docs["b2"].title is None  # an empty title is no title


def test_flashrag_contents_first_line_is_the_title():
    docs = _by_id(load_documents(RECORDS / "flashrag_corpus.jsonl"))
    assert docs["0"].title == "Aaron"  # FlashRAG wiki dumps quote the title line
    assert docs["0"].text == "Aaron is a prophet, high priest, and the brother of Moses."
    assert docs["1"].title == "Ada Lovelace"
    assert docs["2"].title is None and docs["2"].text == "A single line without a title."


def test_json_list_detects_common_names_and_hashes_missing_ids():
    report = load_documents(RECORDS / "records.json")
    docs = _by_id(report)
    assert docs["r1"].text.startswith("Saturn") and docs["r1"].metadata == {"year": 2020}
    expected_id = content_id("No id here", "A record without an id gets a stable hash id.")
    assert expected_id in docs and docs[expected_id].title == "No id here"
    assert load_documents(RECORDS / "records.json").documents == report.documents


def test_json_single_record():
    docs = _by_id(load_documents(RECORDS / "one_record.json"))
    assert list(docs) == ["solo"] and docs["solo"].title == "Neptune"


def test_csv_rows_with_multiline_fields_and_empty_text_reported():
    report = load_documents(RECORDS / "records.csv")
    docs = _by_id(report)
    assert docs["c2"].text == "Zinc is used to galvanize steel.\nIt prevents rust."
    assert docs["c1"].metadata == {"source": "wiki"}
    assert _reasons(report) == {"records.csv:5": "empty text in field 'text'"}


def test_messy_jsonl_keeps_first_duplicate_and_reports_bad_lines():
    report = load_documents(RECORDS / "messy.jsonl")
    docs = _by_id(report)
    assert list(docs) == ["m1", "m3"]
    assert docs["m1"].title == "Kept"
    reasons = _reasons(report)
    assert set(reasons) == {"messy.jsonl:2", "messy.jsonl:3", "messy.jsonl:4", "messy.jsonl:5"}
    assert "duplicate doc_id 'm1'" in reasons["messy.jsonl:2"] and "messy.jsonl:1" in reasons["messy.jsonl:2"]
    assert "no text field" in reasons["messy.jsonl:3"] and "text_field=" in reasons["messy.jsonl:3"]
    assert "invalid JSON" in reasons["messy.jsonl:4"]
    assert "list" in reasons["messy.jsonl:5"]


def test_explicit_fields(tmp_path):
    path = tmp_path / "corpus.jsonl"
    rows = [{"key": "k1", "head": "H", "passage_text": "Some text.", "text": "not this"}, {"key": "k2", "head": "G"}]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    report = load_documents(path, id_field="key", title_field="head", text_field="passage_text")
    assert [(d.doc_id, d.title, d.text) for d in report.documents] == [("k1", "H", "Some text.")]
    assert "no text field 'passage_text'" in _reasons(report)["corpus.jsonl:2"]
    missing_id = load_documents(path, id_field="nope")
    assert "no id field 'nope'" in _reasons(missing_id)["corpus.jsonl:1"] and not missing_id.documents


def test_invalid_utf8_line_in_jsonl_skips_only_that_line(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_bytes(b'{"id": "a", "text": "fine"}\n{"id": "b", "text": "caf\xe9"}\n{"id": "c", "text": "also fine"}\n')
    report = load_documents(path)
    assert [d.doc_id for d in report.documents] == ["a", "c"]
    assert "UTF-8" in _reasons(report)["c.jsonl:2"]


def test_broken_json_and_binary_csv_are_reported(tmp_path):
    (tmp_path / "broken.json").write_text('[{"id": "x", "text": "y"')
    (tmp_path / "bin.csv").write_bytes(b"id,text\n1,\x00\x00\n")
    reasons = _reasons(load_documents(tmp_path))
    assert "invalid JSON" in reasons["broken.json"]
    assert "binary" in reasons["bin.csv"]


def test_hf_dataset_rows_are_records():
    datasets = pytest.importorskip("datasets")
    beir = datasets.Dataset.from_list(
        [{"_id": "1", "title": "T", "text": "Body one."}, {"_id": "2", "title": "", "text": ""}]
    )
    report = load_documents(beir)
    assert [(d.doc_id, d.title, d.text) for d in report.documents] == [("1", "T", "Body one.")]
    assert _reasons(report) == {"dataset[1]": "empty text in field 'text'"}
    flashrag = datasets.Dataset.from_list([{"id": "9", "contents": '"Title"\nBody.'}])
    assert load_documents(flashrag).documents[0].title == "Title"
    with pytest.raises(ValueError, match="pick a split"):
        load_documents(datasets.DatasetDict({"train": beir}))


def test_iterable_of_documents_and_dicts():
    items = [
        Document("a", "Alpha text.", "A"),
        Document("b", "   "),
        Document("a", "Another alpha."),
        {"id": "c", "text": "From a dict."},
    ]
    report = load_documents(items)
    assert [d.doc_id for d in report.documents] == ["a", "c"]
    assert report.documents[0].text == "Alpha text."
    reasons = _reasons(report)
    assert reasons["b"] == "empty text" and "duplicate doc_id 'a'" in reasons["<documents>[2]"]


def test_load_report_passes_through():
    report = LoadReport([Document("x", "y")])
    assert load_documents(report) is report


def test_bad_sources_raise_clear_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="No such file or folder"):
        load_documents(tmp_path / "missing")
    with pytest.raises(ValueError, match="Cannot load documents from a int"):
        load_documents(42)
    with pytest.raises(ValueError, match="wrap a single one in a list"):
        load_documents(Document("a", "b"))
    with pytest.raises(ValueError, match="expected a Document"):
        load_documents([Document("a", "b"), 3])
    with pytest.raises(ValueError, match="text_field"):
        load_documents(RECORDS, text_field="")


def test_unsupported_single_file_is_reported(tmp_path):
    path = tmp_path / "table.tsv"
    path.write_text("a\tb\n")
    report = load_documents(path)
    assert not report.documents and "unsupported file type" in report.skipped[0].reason


def test_a_western_windows_file_is_not_read_as_central_european(tmp_path):
    """A French transcript saved as cp1252: charset-normalizer's guesses cp1250 and cp1252 tie on every measure it has
    and its own order put cp1250 first ("Rivière" read "Rivičre", session 50's meetings); the Western code page wins
    the tie. A Polish cp1250 file ties with nothing and stays cp1250."""
    from corpus_tools.readers import decode_text

    french = "Gérard Rivière, Présidente: la séance est ouverte. Léa répond.\r\n"
    text, encoding = decode_text(french.encode("cp1252"))
    assert text == french and encoding == "cp1252"
    polish = "Zażółć gęślą jaźń, powiedział Paweł w Łodzi."
    assert decode_text(polish.encode("cp1250")) == (polish, "cp1250")
    (tmp_path / "sitting.txt").write_bytes(french.encode("latin-1"))
    [doc] = load_documents(tmp_path).documents
    assert "Rivière" in doc.text and doc.metadata["encoding"] == "cp1252"


def test_windows_and_old_mac_line_ends_read_as_plain_lines(tmp_path):
    """A transcript saved on Windows (CRLF) or old Mac (CR) is the same text as on Unix: no chunk keeps a stray "\\r"
    that `ask` would print and a model would be shown (a chunk's text is a span of its document's)."""
    lines = ["Weekly sync", "", "Alice: We agreed the unit price is 25 euros.", "Bob: Fine by me."]
    (tmp_path / "windows.txt").write_bytes("\r\n".join(lines).encode("cp1252") + b"\r\n")
    (tmp_path / "mac.md").write_bytes("\r".join(lines).encode())
    (tmp_path / "unix.txt").write_text("\n".join(lines) + "\n")
    docs = {d.doc_id: d for d in load_documents(tmp_path).documents}
    assert docs["windows.txt"].text == docs["unix.txt"].text
    assert "\r" not in docs["mac.md"].text and docs["mac.md"].text.split("\n")[2:] == lines[2:]
