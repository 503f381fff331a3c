"""Word documents read as documents: sections from heading styles, tables as rows under their headers,
lists, footnotes, core properties; every broken file skipped with a reason and nothing else lost."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from corpus_tools import load_documents
from corpus_tools.chunking import chunk_document
from corpus_tools.config import ChunkingConfig
from corpus_tools.docx_reader import read_docx
from corpus_tools.readers import UnreadableFileError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "readers"
REPORT = FIXTURES / "report.docx"  # written by python-docx (make_fixtures.py): Word's own styles
W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def docx(path: Path, body: str, styles: str = "", footnotes: str = "", core: str = "") -> Path:
    """A minimal .docx holding `body` (WordprocessingML inside <w:body>) and the optional parts."""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", f"<w:document {W}><w:body>{body}</w:body></w:document>")
        if styles:
            z.writestr("word/styles.xml", f"<w:styles {W}>{styles}</w:styles>")
        if footnotes:
            z.writestr("word/footnotes.xml", f"<w:footnotes {W}>{footnotes}</w:footnotes>")
        if core:
            z.writestr("docProps/core.xml", core)
    return path


def p(text: str, style: str = "", extra: str = "") -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/>{extra}</w:pPr>' if style or extra else ""
    if extra and not style:
        ppr = f"<w:pPr>{extra}</w:pPr>"
    return f"<w:p>{ppr}<w:r><w:t xml:space=\"preserve\">{text}</w:t></w:r></w:p>"


def test_report_reads_sections_table_list_and_properties():
    doc = read_docx(REPORT)
    assert doc.title == "Northwind Quarterly Operations Review"
    assert doc.metadata == {"author": "Dana Whitfield", "created": "2024-04-02T09:30:00Z",
                            "modified": "2024-04-05T16:00:00Z"}
    sections = {doc.text[part.start:part.end].split("\n")[0]: part.section for part in doc.parts}
    assert sections["Summary"] == "Summary"
    assert sections["Deliveries by region"] == "Regional results > Deliveries by region"
    assert sections["Staffing"] == "Staffing"
    table = next(part for part in doc.parts if part.kind == "table")
    # every figure keeps its row label, and the table's chunks carry the column headers
    assert doc.text[table.start:table.end].split("\n") == [
        "(Region) | Q4 2023 | Q1 2024", "West | 412 | 455", "North | 198 | 176", "South | 305 | 331"]
    assert "columns: Q4 2023 | Q1 2024" in table.context
    assert table.section == "Regional results > Deliveries by region"
    assert "- Move two West vans to the North until June." in doc.text.split("\n")


def test_a_table_chunk_carries_its_section_and_headers():
    [document] = load_documents(REPORT).documents
    chunks = chunk_document(document, _Words(), ChunkingConfig(chunk_tokens=40, overlap_tokens=0))
    table = next(c for c in chunks if "North | 198 | 176" in c.text)
    assert table.metadata["kind"] == "table" and table.metadata["section"] == "Regional results > Deliveries by region"
    assert "columns: Q4 2023 | Q1 2024" in table.metadata["header"]
    assert document.title == "Northwind Quarterly Operations Review"
    assert document.metadata["author"] == "Dana Whitfield" and document.metadata["file_name"] == "report.docx"


class _Words:
    """A whitespace tokenizer (the chunker's contract), so the test loads no model."""

    def count(self, text: str) -> int:
        return len(text.split())

    def offsets(self, text: str) -> list[tuple[int, int]]:
        import re

        return [m.span() for m in re.finditer(r"\S+", text)]


def test_outline_levels_footnotes_merged_cells_and_tracked_deletions(tmp_path):
    styles = ('<w:style w:type="paragraph" w:styleId="Kop1"><w:name w:val="heading 1"/></w:style>'
              '<w:style w:type="paragraph" w:styleId="MyHead"><w:name w:val="Report Head"/><w:basedOn w:val="Kop1"/></w:style>'
              '<w:style w:type="paragraph" w:styleId="Outline2"><w:name w:val="Custom"/>'
              '<w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>')
    def cell(text: str, pr: str = "") -> str:
        return f"<w:tc>{pr}<w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc>"

    restart, below, wide = ('<w:tcPr><w:vMerge w:val="restart"/></w:tcPr>', "<w:tcPr><w:vMerge/></w:tcPr>",
                            '<w:tcPr><w:gridSpan w:val="2"/></w:tcPr>')
    table = ("<w:tbl>"
             f"<w:tr>{cell('Site')}{cell('Staff')}{cell('Vans')}</w:tr>"
             f"<w:tr>{cell('Bergen', restart)}{cell('12')}{cell('3')}</w:tr>"
             f"<w:tr>{cell('', below)}{cell('closed', wide)}</w:tr>"
             "</w:tbl>")
    body = (p("Fleet", "MyHead") + p("Depots", "Outline2") +
            '<w:p><w:r><w:t>Vans were moved</w:t></w:r><w:del><w:r><w:delText>secretly</w:delText></w:r></w:del>'
            '<w:r><w:footnoteReference w:id="7"/></w:r><w:r><w:t> in May.</w:t></w:r></w:p>' + table)
    footnotes = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
                 '<w:footnote w:id="7"><w:p><w:r><w:t>Two of them from the West.</w:t></w:r></w:p></w:footnote>')
    doc = read_docx(docx(tmp_path / "f.docx", body, styles, footnotes))
    assert "Vans were moved[1] in May." in doc.text and "secretly" not in doc.text
    parts = {doc.text[x.start:x.end]: x for x in doc.parts}
    rows = next(text for text, x in parts.items() if x.kind == "table").split("\n")
    assert rows == ["(Site) | Staff | Vans", "Bergen | 12 | 3", "Bergen | closed | closed"]
    assert next(x for x in doc.parts if x.kind == "table").section == "Fleet > Depots"
    assert parts["[1] Two of them from the West."].section == "Footnotes"
    assert doc.headings == 2


def test_junk_core_title_gives_way_to_the_title_style(tmp_path):
    core = ('<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
            'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Document1</dc:title>'
            '<dc:creator>J. Smith</dc:creator></cp:coreProperties>')
    doc = read_docx(docx(tmp_path / "t.docx", p("Storm Review 2024", "Title") + p("Body text."), core=core))
    assert doc.title == "Storm Review 2024" and doc.metadata == {"author": "J. Smith"}


@pytest.mark.parametrize("make, reason", [
    (lambda f: f.write_bytes(REPORT.read_bytes()[:4000]), "not a readable .docx (truncated"),
    (lambda f: f.write_bytes(b"plain text named .docx"), "not a readable .docx"),
    (lambda f: f.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 64 + "EncryptionInfo".encode("utf-16-le")),
     "password-protected Word file"),
    (lambda f: f.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600), "binary Word 97-2003 file named .docx; open it in Word"),
    (lambda f: zipfile.ZipFile(f, "w").close(), "not a Word document (the zip holds no word/document.xml)"),
    (lambda f: docx(f, "<w:p><w:r><w:t>unclosed</w:r></w:p>"), "broken XML in word/document.xml"),
])
def test_broken_files_are_refused_with_a_reason(tmp_path, make, reason):
    path = tmp_path / "bad.docx"
    make(path)
    with pytest.raises(UnreadableFileError, match=None) as caught:
        read_docx(path)
    assert str(caught.value).startswith(reason), str(caught.value)


def test_a_folder_loses_only_its_broken_files(tmp_path):
    shutil.copy(REPORT, tmp_path / "good.docx")
    (tmp_path / "cut.docx").write_bytes(REPORT.read_bytes()[:3000])
    (tmp_path / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    docx(tmp_path / "blank.docx", p(""))
    report = load_documents(tmp_path)
    assert [d.doc_id for d in report.documents] == ["good.docx"]
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["cut.docx"].startswith("not a readable .docx (truncated")
    assert reasons["old.doc"].startswith("broken compound file")  # a .doc is read (doc_reader): this one is no file
    assert reasons["blank.docx"] == "empty file"


def test_a_heading_opening_the_document_is_its_title(tmp_path):
    doc = read_docx(docx(tmp_path / "h.docx", p("Fleet Plan 2025", "Heading1") + p("Vans first.") + p("Later", "Heading1")))
    assert doc.title == "Fleet Plan 2025"
    later = read_docx(docx(tmp_path / "l.docx", p("Intro text.") + p("Later", "Heading1")))
    assert later.title is None


def test_a_table_of_contents_and_hidden_runs_are_no_text(tmp_path):
    toc = ('<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/></w:docPartObj></w:sdtPr>'
           f'<w:sdtContent>{p("Contents")}{p("Findings 3")}{p("Depths by berth 4")}</w:sdtContent></w:sdt>')
    cover = ('<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Cover Pages"/></w:docPartObj></w:sdtPr>'
             f'<w:sdtContent>{p("Harbour Survey 2021")}</w:sdtContent></w:sdt>')
    hidden = ('<w:p><w:r><w:t xml:space="preserve">The quay silted by 1.4 m.</w:t></w:r>'
              '<w:r><w:rPr><w:vanish/></w:rPr><w:t xml:space="preserve"> Reviewer: check.</w:t></w:r>'
              '<w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t xml:space="preserve"> Shown again.</w:t></w:r></w:p>')
    doc = read_docx(docx(tmp_path / "survey.docx", cover + toc + p("Findings", "Heading1") + hidden,
                         styles='<w:style w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>'))
    assert doc.text == "Harbour Survey 2021\n\nFindings\nThe quay silted by 1.4 m. Shown again."
