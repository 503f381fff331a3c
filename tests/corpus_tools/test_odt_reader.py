"""OpenDocument texts read as documents: headings, lists, tables with spans, footnotes; what is no text left out."""

from __future__ import annotations

import zipfile

import pytest

from corpus_tools.loaders import load_documents
from corpus_tools.odt_reader import read_odt
from corpus_tools.readers import UnreadableFileError

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
      'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
      'xmlns:dc="http://purl.org/dc/elements/1.1/" '
      'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"')
STYLES = f"""<office:document-styles {NS}><office:styles>
<style:style style:name="Title" style:family="paragraph"/>
<style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph"/>
</office:styles></office:document-styles>"""
BODY = """
<text:table-of-content><text:index-body><text:p>Findings ..... 1</text:p></text:index-body></text:table-of-content>
<text:p text:style-name="P9">Harbour Survey</text:p>
<text:h text:outline-level="1">Findings</text:h>
<text:p>The east quay silted<text:s text:c="3"/>by 1.4 m<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>Measured at low tide.</text:p></text:note-body></text:note> since 2019.<office:annotation><dc:creator>Ann</dc:creator><text:p>check this</text:p></office:annotation><text:span text:style-name="Hid"> Reviewer only.</text:span></text:p>
<text:tracked-changes><text:changed-region><text:deletion><text:p>deleted words</text:p></text:deletion></text:changed-region></text:tracked-changes>
<text:list><text:list-item><text:p>Dredge the east quay</text:p><text:list><text:list-item><text:p>Move the buoys</text:p></text:list-item></text:list></text:list-item></text:list>
<text:p>Map:<draw:frame><draw:text-box><text:p>Figure 1: the berths</text:p></draw:text-box></draw:frame></text:p>
<text:p text:style-name="P8">Depths by berth</text:p>
<table:table><table:table-column table:number-columns-repeated="3"/>
<table:table-header-rows><table:table-row><table:table-cell table:number-rows-spanned="2"><text:p>Berth</text:p></table:table-cell><table:table-cell table:number-columns-spanned="2"><text:p>Depth (m)</text:p></table:table-cell><table:covered-table-cell/></table:table-row>
<table:table-row><table:covered-table-cell/><table:table-cell><text:p>2019</text:p></table:table-cell><table:table-cell><text:p>2021</text:p></table:table-cell></table:table-row></table:table-header-rows>
<table:table-row><table:table-cell><text:p>North</text:p></table:table-cell><table:table-cell><text:p>9.2</text:p></table:table-cell><table:table-cell><text:p>8.9</text:p></table:table-cell><table:table-cell table:number-columns-repeated="1020"/></table:table-row>
<table:table-row><table:table-cell><text:p>East</text:p></table:table-cell><table:table-cell table:number-columns-repeated="2"><text:p>6.7</text:p></table:table-cell></table:table-row>
</table:table>
"""
CONTENT = f"""<office:document-content {NS}><office:automatic-styles>
<style:style style:name="P9" style:family="paragraph" style:parent-style-name="Title"/>
<style:style style:name="P8" style:family="paragraph" style:parent-style-name="Heading_20_2"/>
<style:style style:name="Hid" style:family="text"><style:text-properties text:display="none"/></style:style>
</office:automatic-styles><office:body><office:text>{BODY}</office:text></office:body></office:document-content>"""
META = f"""<office:document-meta {NS}><office:meta><dc:title>Harbour Survey 2021</dc:title>
<meta:initial-creator>R. Ortega</meta:initial-creator><meta:creation-date>2021-03-04T10:05:00</meta:creation-date>
</office:meta></office:document-meta>"""
MANIFEST = ('<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>{}'
            '</manifest:manifest>')


def odt(path, content=CONTENT, meta=META, manifest=MANIFEST.format("")):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("META-INF/manifest.xml", manifest)
        if content is not None:
            z.writestr("content.xml", content)
        z.writestr("styles.xml", STYLES)
        z.writestr("meta.xml", meta)
    return path


def test_an_odt_reads_with_its_sections_lists_tables_and_notes(tmp_path):
    doc = read_odt(odt(tmp_path / "survey.odt"))
    assert doc.title == "Harbour Survey 2021"
    assert doc.metadata == {"author": "R. Ortega", "created": "2021-03-04"}
    assert doc.text == (
        "Harbour Survey\n\n"
        "Findings\nThe east quay silted by 1.4 m[1] since 2019.\n- Dredge the east quay\n  - Move the buoys\n"
        "Map:\nFigure 1: the berths\n\n"
        "Depths by berth\n\n"
        "(Berth) | Depth (m) | Depth (m)\nBerth | 2019 | 2021\nNorth | 9.2 | 8.9\nEast | 6.7 | 6.7\n\n"
        "[1] Measured at low tide."
    )
    assert [(p.section, p.kind) for p in doc.parts] == [
        ("", "text"), ("Findings", "text"), ("Findings > Depths by berth", "text"),
        ("Findings > Depths by berth", "table"), ("Footnotes", "text"),
    ]
    for absent in ("..... 1", "check this", "Ann", "Reviewer", "deleted words"):
        assert absent not in doc.text


def test_the_title_style_names_a_document_whose_properties_do_not(tmp_path):
    doc = read_odt(odt(tmp_path / "a.odt", meta=f"<office:document-meta {NS}><office:meta/></office:document-meta>"))
    assert doc.title == "Harbour Survey"


@pytest.mark.parametrize("make, reason", [
    (lambda f: f.write_bytes(b"PK\x03\x04 cut short"), "not a readable .odt (truncated"),
    (lambda f: odt(f, manifest=MANIFEST.format(
        '<manifest:file-entry manifest:full-path="x"><manifest:encryption-data/></manifest:file-entry>')),
     "password-protected OpenDocument file"),
    (lambda f: odt(f, content=None), "not an OpenDocument text (the zip holds no content.xml)"),
    (lambda f: odt(f, content="<office:document-content><unclosed>"), "broken XML in content.xml"),
    (lambda f: odt(f, content=f"<office:document-content {NS}><office:body><office:spreadsheet/></office:body>"
                              "</office:document-content>"),
     "not an OpenDocument text (content.xml has no office:text body"),
])
def test_broken_files_are_refused_with_a_reason(tmp_path, make, reason):
    path = tmp_path / "bad.odt"
    make(path)
    with pytest.raises(UnreadableFileError) as caught:
        read_odt(path)
    assert str(caught.value).startswith(reason), str(caught.value)


def test_a_folder_loses_only_its_broken_odt_files(tmp_path):
    odt(tmp_path / "survey.odt")
    odt(tmp_path / "locked.odt", manifest=MANIFEST.format("<manifest:encryption-data/>"))
    odt(tmp_path / "blank.odt", content=f"<office:document-content {NS}><office:body><office:text/></office:body>"
                                        "</office:document-content>")
    report = load_documents(tmp_path)
    assert [d.doc_id for d in report.documents] == ["survey.odt"]
    assert {p.section for p in report.documents[0].parts} >= {"Findings", "Findings > Depths by berth"}
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["locked.odt"].startswith("password-protected OpenDocument file")
    assert reasons["blank.odt"] == "empty file"
