"""Slide decks read as documents: slides in presentation order, a section per slide, reading order, bullets, tables,
chart data, notes, groups and hidden slides; every broken deck skipped with a reason and nothing else lost.

The decks are written here (zipfile + minimal PresentationML), as the .docx tests write theirs."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from corpus_tools import load_documents
from corpus_tools.chunking import chunk_document
from corpus_tools.config import ChunkingConfig
from corpus_tools.pptx_reader import read_pptx
from corpus_tools.readers import UnreadableFileError

NS = ('xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" '
      'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"')
C = 'xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"'
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"'


def para(text: str, lvl: int = 0, bullet: str = "") -> str:
    props = f'<a:pPr lvl="{lvl}">{bullet}</a:pPr>' if lvl or bullet else ""
    return f"<a:p>{props}<a:r><a:t>{text}</a:t></a:r></a:p>"


def shape(paragraphs: str, ph: str = "", y: int | None = None, x: int = 0) -> str:
    nv = f"<p:nvPr>{ph}</p:nvPr>" if ph else "<p:nvPr/>"
    xfrm = f'<a:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="100" cy="100"/></a:xfrm>' if y is not None else ""
    return (f'<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/>{nv}</p:nvSpPr><p:spPr>{xfrm}</p:spPr>'
            f"<p:txBody><a:bodyPr/>{paragraphs}</p:txBody></p:sp>")


def title(text: str, kind: str = "title") -> str:
    return shape(para(text), f'<p:ph type="{kind}"/>', y=100)


def body(*paragraphs: str, y: int = 2_000_000, x: int = 0) -> str:
    return shape("".join(paragraphs), '<p:ph idx="1"/>', y=y, x=x)


def table(rows: list[list[str]], y: int = 4_000_000) -> str:
    trs = "".join("<a:tr>" + "".join(f"<a:tc><a:txBody><a:bodyPr/>{para(c)}</a:txBody></a:tc>" for c in row)
                  + "</a:tr>" for row in rows)
    return (f'<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="t"/><p:cNvGraphicFramePr/><p:nvPr/>'
            f'</p:nvGraphicFramePr><p:xfrm><a:off x="0" y="{y}"/><a:ext cx="1" cy="1"/></p:xfrm><a:graphic>'
            f'<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>{trs}</a:tbl>'
            "</a:graphicData></a:graphic></p:graphicFrame>")


def chart_frame(rid: str, y: int = 4_000_000) -> str:
    return (f'<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="6" name="c"/><p:cNvGraphicFramePr/><p:nvPr/>'
            f'</p:nvGraphicFramePr><p:xfrm><a:off x="0" y="{y}"/><a:ext cx="1" cy="1"/></p:xfrm><a:graphic>'
            f'<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">'
            f'<c:chart {C} r:id="{rid}"/></a:graphicData></a:graphic></p:graphicFrame>')


def group(*members: str, y: int, x: int = 0) -> str:
    return (f'<p:grpSp><p:nvGrpSpPr><p:cNvPr id="9" name="g"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr>'
            f'<a:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="100" cy="100"/><a:chOff x="0" y="0"/>'
            f'<a:chExt cx="100" cy="100"/></a:xfrm></p:grpSpPr>{"".join(members)}</p:grpSp>')


CHART = (f'<c:chartSpace {C} xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart>'
         "<c:title><c:tx><c:rich><a:p><a:r><a:t>Revenue by region</a:t></a:r></a:p></c:rich></c:tx></c:title>"
         "<c:plotArea><c:barChart>"
         + "".join(
             f"<c:ser><c:tx><c:strRef><c:strCache><c:pt idx=\"0\"><c:v>{name}</c:v></c:pt></c:strCache></c:strRef>"
             "</c:tx><c:cat><c:strRef><c:strCache><c:pt idx=\"0\"><c:v>West</c:v></c:pt><c:pt idx=\"1\"><c:v>East"
             f"</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:pt idx=\"0\"><c:v>{a}"
             f"</c:v></c:pt><c:pt idx=\"1\"><c:v>{b}</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>"
             for name, a, b in (("2023", "41.5", "38.2"), ("2024", "47.9", "36.0")))
         + "</c:barChart></c:plotArea></c:chart></c:chartSpace>")


def deck(path: Path, slides: list[dict], core_title: str = "", order: list[int] | None = None) -> Path:
    """A .pptx whose slides are `slides` (dicts: tree, show, notes, chart), listed in sldIdLst in `order` (indexes
    into `slides`, whose parts are named slide1.xml … in list order)."""
    order = order if order is not None else list(range(len(slides)))
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("_rels/.rels", f'<Relationships {PKG}><Relationship Id="rId1" Type="{REL}/officeDocument" '
                                  'Target="ppt/presentation.xml"/></Relationships>')
        ids = "".join(f'<p:sldId id="{256 + n}" r:id="rId{i + 10}"/>' for n, i in enumerate(order))
        z.writestr("ppt/presentation.xml", f"<p:presentation {NS}><p:sldIdLst>{ids}</p:sldIdLst></p:presentation>")
        rels = "".join(f'<Relationship Id="rId{i + 10}" Type="{REL}/slide" Target="slides/slide{i + 1}.xml"/>'
                       for i in range(len(slides)))
        z.writestr("ppt/_rels/presentation.xml.rels", f"<Relationships {PKG}>{rels}</Relationships>")
        for i, slide in enumerate(slides, 1):
            show = ' show="0"' if slide.get("hidden") else ""
            z.writestr(f"ppt/slides/slide{i}.xml", f"<p:sld {NS}{show}><p:cSld><p:spTree>{slide.get('tree', '')}"
                                                   "</p:spTree></p:cSld></p:sld>")
            own = ""
            if slide.get("notes"):
                own += f'<Relationship Id="rId2" Type="{REL}/notesSlide" Target="../notesSlides/notesSlide{i}.xml"/>'
                notes = (shape(para("1"), '<p:ph type="sldNum"/>') + shape(para("image"), '<p:ph type="sldImg"/>')
                         + shape(para(slide["notes"]), '<p:ph type="body" idx="1"/>'))
                z.writestr(f"ppt/notesSlides/notesSlide{i}.xml",
                           f"<p:notes {NS}><p:cSld><p:spTree>{notes}</p:spTree></p:cSld></p:notes>")
            if slide.get("chart"):
                own += f'<Relationship Id="rId3" Type="{REL}/chart" Target="../charts/chart{i}.xml"/>'
                z.writestr(f"ppt/charts/chart{i}.xml", slide["chart"])
            if own:
                z.writestr(f"ppt/slides/_rels/slide{i}.xml.rels", f"<Relationships {PKG}>{own}</Relationships>")
        if core_title:
            z.writestr("docProps/core.xml", '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/'
                       '2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">'
                       f"<dc:title>{core_title}</dc:title><dc:creator>Ines Varga</dc:creator></cp:coreProperties>")
    return path


REVIEW = [
    # slide1.xml: shown third
    {"tree": title("Regional revenue") + table([["Region", "Q1", "Q2"], ["West", "12.5", "14.1"], ["East", "9.8",
                                                                                                     "10.2"]])
     + body(para("Figures in millions of euros")), "notes": "West grew on the two new depots."},
    # slide2.xml: shown first (the cover)
    {"tree": title("Harbour Logistics Quarterly Review", "ctrTitle") + shape(para("Second quarter"),
                                                                             '<p:ph type="subTitle" idx="1"/>', y=900)
     + shape(para("7"), '<p:ph type="sldNum" idx="12"/>', y=9000)},
    # slide3.xml: shown second; the right column drawn before the left, both below the title
    {"tree": body(para("Hire two dispatchers"), y=2_000_000, x=5_000_000) + title("Priorities")
     + body(para("Open the Tilbury depot"), para("lease signed in May", lvl=1), y=2_000_000, x=0),
     "notes": "The depot opens on 3 June."},
    # slide4.xml: hidden appendix slide
    {"tree": title("Appendix: fleet") + body(para("Forty-two trucks, nine leased")), "hidden": True},
    # slide5.xml: a chart, and a group of two text boxes with no title placeholder
    {"tree": group(shape(para("Lower box text"), y=600_000), shape(para("Upper box text"), y=0), y=1_000_000)
     + chart_frame("rId3"), "chart": CHART},
]


def review(tmp_path: Path) -> Path:
    return deck(tmp_path / "review.pptx", REVIEW, core_title="PowerPoint Presentation", order=[1, 2, 0, 3, 4])


def test_slides_read_in_presentation_order_with_titles_as_sections(tmp_path):
    doc = read_pptx(review(tmp_path))
    # "PowerPoint Presentation" names no deck: the first slide's title does
    assert doc.title == "Harbour Logistics Quarterly Review"
    pages = [(p.page, p.section) for p in doc.parts]
    assert pages[0] == (1, "Harbour Logistics Quarterly Review")
    assert (2, "Priorities") in pages and (3, "Regional revenue") in pages and (4, "Appendix: fleet") in pages
    assert [p.page for p in doc.parts] == sorted(p.page for p in doc.parts)  # sldIdLst order, not file names
    assert doc.metadata["slides"] == 5 and doc.metadata["author"] == "Ines Varga"
    cover = doc.text[doc.parts[0].start:doc.parts[0].end]
    assert cover == "Harbour Logistics Quarterly Review\nSecond quarter"  # the slide number is furniture


def test_bullets_levels_and_reading_order(tmp_path):
    doc = read_pptx(review(tmp_path))
    [part] = [p for p in doc.parts if p.page == 2 and not doc.text[p.start:p.end].startswith("Notes")]
    assert doc.text[part.start:part.end].split("\n") == [
        "Priorities", "- Open the Tilbury depot", "  - lease signed in May", "- Hire two dispatchers"]


def test_a_column_is_read_whole_before_the_labels_beside_it(tmp_path):
    def box(text: str, y: int, x: int, cy: int, cx: int = 3_000_000) -> str:
        return (f'<p:sp><p:nvSpPr><p:cNvPr id="3" name="b"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm>'
                f'<a:off x="{x}" y="{y}"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>'
                f"{para(text)}</p:txBody></p:sp>")

    # drawn: a label, the code box, another label, a footnote under both; the labels sit right of the code box
    tree = (title("Stack frames") + box("Label: caller frame", 2_100_000, 5_000_000, 400_000)
            + box("int main() {", 2_000_000, 500_000, 2_500_000) + box("Label: callee frame", 3_200_000, 5_000_000,
                                                                       400_000)
            + box("Frames grow downwards", 5_000_000, 500_000, 300_000, 7_000_000))
    doc = read_pptx(deck(tmp_path / "cols.pptx", [{"tree": tree}]))
    assert doc.text.split("\n") == ["Stack frames", "int main() {", "Label: caller frame", "Label: callee frame",
                                    "Frames grow downwards"]


def test_table_chart_notes_group_and_hidden_slide(tmp_path):
    doc = read_pptx(review(tmp_path))
    text = {(p.page, p.kind, doc.text[p.start:p.end].split("\n")[0]): p for p in doc.parts}
    table = next(p for p in doc.parts if p.page == 3 and p.kind == "table")
    assert doc.text[table.start:table.end].split("\n") == ["(Region) | Q1 | Q2", "West | 12.5 | 14.1",
                                                           "East | 9.8 | 10.2"]
    assert "columns: Q1 | Q2" in table.context and table.section == "Regional revenue"
    notes = next(p for p in doc.parts if p.page == 3 and doc.text[p.start:p.end].startswith("Notes: "))
    assert doc.text[notes.start:notes.end] == "Notes: West grew on the two new depots."
    assert notes.section == "Regional revenue"  # under its slide, chunked with it
    chart = next(p for p in doc.parts if p.page == 5 and p.kind == "table")
    assert doc.text[chart.start:chart.end].split("\n") == ["(columns) | 2023 | 2024", "West | 41.5 | 47.9",
                                                           "East | 38.2 | 36.0"]
    assert chart.context.startswith("Revenue by region")
    group_part = next(p for p in doc.parts if p.page == 5 and p.kind == "text")
    assert doc.text[group_part.start:group_part.end] == "Upper box text\nLower box text"  # by position in the group
    assert group_part.section == "Upper box text (slide 5, no title)"
    assert (4, "text", "Appendix: fleet") in text and doc.metadata["hidden_slides"] == "4"
    assert doc.untitled == 1 and doc.notes == 2 and doc.tables == 1 and doc.charts == 1
    skipped = read_pptx(review(tmp_path), hidden=False)
    assert all(p.page != 4 for p in skipped.parts) and skipped.hidden == (4,)


def test_a_repeated_title_gets_its_slide_number_so_no_chunk_spans_two_slides(tmp_path):
    words = " ".join(f"word{i}" for i in range(40))
    path = deck(tmp_path / "twice.pptx", [{"tree": title("Example") + body(para(f"first {words}"))},
                                          {"tree": title("Example") + body(para(f"second {words}"))}])
    doc = read_pptx(path)
    assert [p.section for p in doc.parts] == ["Example", "Example (slide 2)"]
    [document] = load_documents(path).documents
    chunks = chunk_document(document, _Words(), ChunkingConfig(chunk_tokens=200, overlap_tokens=0))
    assert not any("first" in c.text and "second" in c.text for c in chunks)


def test_the_loader_reads_a_deck_and_keeps_the_good_one_beside_broken_ones(tmp_path):
    review(tmp_path)
    (tmp_path / "old.ppt").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    (tmp_path / "cut.pptx").write_bytes((tmp_path / "review.pptx").read_bytes()[:300])
    report = load_documents(tmp_path)
    [document] = report.documents
    assert document.title == "Harbour Logistics Quarterly Review" and document.metadata["file_name"] == "review.pptx"
    reasons = {s.path.split("/")[-1]: s.reason for s in report.skipped}
    assert "PowerPoint" in reasons["old.ppt"] and "save it as .pptx" in reasons["old.ppt"]
    assert "not a readable .pptx" in reasons["cut.pptx"]


def _ole(path: Path, encrypted: bool) -> Path:
    stream = "EncryptionInfo".encode("utf-16-le") if encrypted else b"PowerPoint Document"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 200 + stream + b"\0" * 200)
    return path


def test_broken_decks_are_refused_with_what_to_do(tmp_path):
    with pytest.raises(UnreadableFileError, match="password-protected PowerPoint file; remove the password"):
        read_pptx(_ole(tmp_path / "locked.pptx", True))
    with pytest.raises(UnreadableFileError, match="binary PowerPoint 97-2003 file named .pptx; open it in PowerPoint"):
        read_pptx(_ole(tmp_path / "renamed.pptx", False))
    good = review(tmp_path).read_bytes()
    (tmp_path / "cut.pptx").write_bytes(good[: len(good) // 2])
    with pytest.raises(UnreadableFileError, match="not a readable .pptx"):
        read_pptx(tmp_path / "cut.pptx")
    with zipfile.ZipFile(tmp_path / "nopres.pptx", "w") as z:
        z.writestr("ppt/slides/slide1.xml", f"<p:sld {NS}/>")
    with pytest.raises(UnreadableFileError, match="not a PowerPoint presentation .the zip holds no ppt/presentation"):
        read_pptx(tmp_path / "nopres.pptx")
    broken = deck(tmp_path / "badxml.pptx", [{"tree": title("Fine")}, {"tree": "<p:sp><unclosed>"}])
    with pytest.raises(UnreadableFileError, match="broken XML in ppt/slides/slide2.xml"):
        read_pptx(broken)
    whole = deck(tmp_path / "whole.pptx", [{"tree": title("Fine")}, {"tree": title("Lost")}])
    with zipfile.ZipFile(whole) as src, zipfile.ZipFile(tmp_path / "missing.pptx", "w") as z:
        for name in src.namelist():
            if name != "ppt/slides/slide2.xml":
                z.writestr(name, src.read(name))
    whole.unlink()
    with pytest.raises(UnreadableFileError, match=r"slide 2 \(ppt/slides/slide2.xml\) is missing from the zip; open"):
        read_pptx(tmp_path / "missing.pptx")
    report = load_documents(tmp_path)
    reasons = {s.path.split("/")[-1]: s.reason for s in report.skipped}
    assert set(reasons) == {"locked.pptx", "renamed.pptx", "cut.pptx", "nopres.pptx", "badxml.pptx", "missing.pptx"}
    assert [d.metadata["file_name"] for d in report.documents] == ["review.pptx"]


def test_a_deck_without_text_is_an_empty_file_not_an_error(tmp_path):
    deck(tmp_path / "pictures.pptx", [{"tree": ""}, {"tree": shape("<a:p/>", y=5)}])
    assert read_pptx(tmp_path / "pictures.pptx").text == ""
    report = load_documents(tmp_path)
    assert not report.documents and [s.reason for s in report.skipped] == ["empty file"]


class _Words:
    """A whitespace tokenizer (the chunker's contract), so the test loads no model."""

    def count(self, text: str) -> int:
        return len(text.split())

    def offsets(self, text: str) -> list[tuple[int, int]]:
        import re

        return [m.span() for m in re.finditer(r"\S+", text)]


def test_read_slides_off_skips_decks_as_before_and_an_older_index_reads_none(tmp_path):
    from corpus_tools.config import CorpusConfig

    review(tmp_path)
    report = load_documents(tmp_path, slides=False)
    assert not report.documents and report.skipped[0].reason.startswith("unsupported file type (.pptx files;")
    assert CorpusConfig().read_slides is True
    assert CorpusConfig.from_dict({}).read_slides is False  # an index built before session 52 never read its decks


def test_a_first_slide_title_other_than_the_core_title_is_kept_beside_it(tmp_path):
    # a template's core title copied into many decks names none of them: datagen names a deck by its first slide
    path = deck(tmp_path / "t.pptx", [{"tree": title("Beyond Containers", "ctrTitle") + body(para("Jimmy"))}],
                core_title="Conventionally Speaking")
    read = read_pptx(path)
    assert read.title == "Conventionally Speaking" and read.metadata["first_slide_title"] == "Beyond Containers"
    assert "first_slide_title" not in read_pptx(deck(tmp_path / "u.pptx", [{"tree": title("Beyond Containers")}])).metadata
