"""Slide decks (.pptx): slides in presentation order, each slide a section of its title, its text in reading order,
tables and chart data as rows under their headers, speaker notes under the slide.

A .pptx is a zip of XML parts (ECMA-376 PresentationML): `ppt/presentation.xml` lists the slides in the order they
are shown (`sldIdLst`, each entry a relationship id that `ppt/_rels/presentation.xml.rels` resolves to a part such as
`ppt/slides/slide7.xml`). Part names are not the order: slide10.xml sorts before slide2.xml, and a reordered deck
keeps its old names. Each slide's own relationships name its layout, its speaker notes (`ppt/notesSlides/`) and its
charts (`ppt/charts/chartN.xml`, whose series keep a cache of their categories and values).

How a slide is read:
- Its heading is the text of its title placeholder (`title` / `ctrTitle`). A slide without one is headed by its
  first line, cut short, and says so: "Memory layout … (slide 7, no title)". A heading that repeats the slide
  before's ("Example", "Example") gets the slide's number, so that two slides never share a section and no chunk
  runs from one into the next (the chunker joins consecutive parts of one section).
- The shapes are read in reading order, not in the XML's order, which is the order they were drawn in: the slide
  is cut where no shape spans the cut, into bands top to bottom, a band into columns left to right, and so on down
  (an XY cut), so a code box on the left is read whole before the labels of the diagram on its right, and two
  columns side by side are read one after the other; shapes that overlap both ways (a callout over a code box) keep
  the order they were drawn in. A placeholder without its own place takes its layout's (or
  master's). A group is read as one block at its place, its members in the same order inside it.
- Body text keeps its bullet levels as "- " lines ("  - " one level down); a text box's paragraphs are bulleted only
  where they say so. Dates, footers and slide numbers (their placeholders) are furniture, left out.
- A table is one "table" part through `render_table` (its first row the header); a chart with cached data is one
  "table" part too: a row per category, a column per series, its title as caption.
- Speaker notes follow the slide's own text in the same section, opened by "Notes:", so a passage holds the slide
  and what its speaker says about it.
- Hidden slides (`show="0"`) are read: a hidden slide is not a deleted one (backup and appendix slides are hidden
  and hold real content a user searches for); their numbers are kept in the metadata (`hidden_slides`).

Every part's `page` is its slide's number in presentation order (hidden slides counted, as PowerPoint numbers them).
The deck's title is the core properties' title, else the first slide's title; "PowerPoint Presentation", "Slide 1"
and file names are no titles. A first slide's title other than the deck's is kept in the metadata
(`first_slide_title`): a core title is often a template's, copied into every deck made from it. Refused with a reason (`UnreadableFileError`): a binary 97-2003 deck or a
password-protected one (both OLE files), a truncated or non-zip file, a zip without a presentation part, a slide
missing or with broken XML. A deck without any text is no error: the loader skips it as "empty file".
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from corpus_tools.ooxml import Package, core_properties, open_package, read_part
from corpus_tools.pdf_layout import Row, Table
from corpus_tools.readers import UnreadableFileError, is_meaningful_title
from corpus_tools.structure import PartsWriter, render_table, short_heading
from corpus_tools.types import DocumentPart

if TYPE_CHECKING:
    from pathlib import Path

CONVERT_HELP = "open it in PowerPoint or LibreOffice Impress and save it as .pptx or PDF, then index that file"
POWERPOINT = Package(".pptx", "PowerPoint", "a PowerPoint presentation", "binary PowerPoint 97-2003 file",
                     "File > Info > Protect Presentation", CONVERT_HELP)
# Titles PowerPoint writes itself (a new deck's core title, the first slide's default) name no deck.
_NO_TITLES = frozenset({"powerpoint presentation", "presentation", "presentation1", "slide 1", "title",
                        "click to add title", "powerpoint-präsentation", "template title"})
# Shapes overlapping by less than this (EMU; 914,400 to the inch) are still cut apart: text boxes touch.
_CUT_SLACK_EMU = 57_150
Box = tuple[int, int, int, int]  # (top, left, height, width) in EMU; top -1 where the shape has no place
_UNTITLED_CHARS = 60
_WORD = re.compile(r"[^\W\d_]{2,}")  # the first line that heads a slide without a title, cut here
_MAX_CHART_ROWS = 200
_TITLE_TYPES = frozenset({"title", "ctrTitle"})
_FURNITURE_TYPES = frozenset({"dt", "ftr", "sldNum", "hdr", "sldImg"})
_BULLETED_TYPES = frozenset({"body", "obj"})  # placeholders whose paragraphs are bulleted unless they say not
_OFFICE_DOCUMENT = "/officeDocument"


@dataclass(frozen=True)
class PptxDocument:
    """A deck read: its title (None when it names none), text, parts, metadata and counts."""

    title: str | None
    text: str
    parts: tuple[DocumentPart, ...]
    metadata: dict[str, Any] = field(default_factory=dict)
    slides: int = 0
    untitled: int = 0
    notes: int = 0
    tables: int = 0
    charts: int = 0
    hidden: tuple[int, ...] = ()


def read_pptx(path: Path, *, hidden: bool = True) -> PptxDocument:
    """A slide deck with a section per slide (see the module docstring). hidden: False leaves hidden slides out."""
    with open_package(path, POWERPOINT) as archive:
        deck = _Deck(archive)
        presentation_name = deck.presentation_part()
        presentation = read_part(archive, presentation_name, POWERPOINT, required=True)
        rels = deck.rels(presentation_name)
        core = core_properties(read_part(archive, "docProps/core.xml", POWERPOINT))
        writer = PartsWriter()
        counts = {"untitled": 0, "notes": 0, "tables": 0, "charts": 0}
        hidden_slides: list[int] = []
        first_title: str | None = None
        previous = ""
        number = 0
        for entry in _children(_child(presentation, "sldIdLst")):
            target = rels.get(_rel_id(entry) or "")
            if target is None:
                continue  # an entry whose relationship is gone names no slide PowerPoint would show
            number += 1
            if target not in deck.names:
                raise UnreadableFileError(f"broken .pptx: slide {number} ({target}) is missing from the zip; open the "
                                          "deck in PowerPoint or LibreOffice Impress, save it again and index it again")
            slide = read_part(archive, target, POWERPOINT, required=True)
            is_hidden = slide.get("show") in ("0", "false")
            if is_hidden:
                hidden_slides.append(number)
                if not hidden:
                    continue
            read = _SlideReader(deck, target, number).read(slide)
            if number == 1 and read.title:
                first_title = read.title
            heading = read.heading
            if heading == previous:
                heading = short_heading(f"{heading} (slide {number})")
            previous = heading
            counts["untitled"] += read.title is None and bool(read.body or read.blocks)
            for kind, text, context in read.blocks:
                writer.emit(text, number, heading, kind, context)
            if read.notes:
                counts["notes"] += 1
                writer.emit("Notes: " + read.notes, number, heading, "text")
            counts["tables"] += read.tables
            counts["charts"] += read.charts
    title = core.pop("title", None)
    if not _names_deck(title):
        title = first_title if _names_deck(first_title) else None
    metadata: dict[str, Any] = dict(core)
    metadata["slides"] = number
    if first_title and first_title != title:
        # the first slide's own title beside a core title that may be a template's (datagen names a deck by it)
        metadata["first_slide_title"] = first_title
    if hidden_slides:
        metadata["hidden_slides"] = ", ".join(map(str, hidden_slides))
    return PptxDocument(title, writer.text, tuple(writer.parts), metadata, number, counts["untitled"], counts["notes"],
                        counts["tables"], counts["charts"], tuple(hidden_slides))


def _names_deck(title: str | None) -> bool:
    """False for no title, junk, and the names PowerPoint gives a new deck in any language ("PowerPoint-Präsentation",
    "Презентация PowerPoint": the word PowerPoint and one more)."""
    if not title or not is_meaningful_title(title):
        return False
    words = title.lower().split()
    return " ".join(words) not in _NO_TITLES and not ("powerpoint" in words and len(words) <= 3)


# --- the package: parts, relationships, layouts ------------------------------------------------------------------

def _local(tag: Any) -> str:
    """An element's name without its namespace: transitional and strict OOXML name the same elements in two."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _child(element: Any, name: str) -> Any:
    if element is None:
        return None
    for child in element:
        if _local(child.tag) == name:
            return child
    return None


def _first(element: Any, *names: str) -> Any:
    """The first child named one of `names`, in their order (an Element with no children is falsy: no `or`)."""
    for name in names:
        found = _child(element, name)
        if found is not None:
            return found
    return None


def _children(element: Any, name: str | None = None) -> list[Any]:
    if element is None:
        return []
    return [c for c in element if name is None or _local(c.tag) == name]


def _path(element: Any, *names: str) -> Any:
    for name in names:
        element = _child(element, name)
    return element


def _attr(element: Any, name: str) -> str | None:
    """An attribute by its local name (r:id, r:embed are namespaced, and strict OOXML uses another namespace)."""
    if element is None:
        return None
    for key, value in element.attrib.items():
        if _local(key) == name:
            return value
    return None


def _rel_id(element: Any) -> str | None:
    for key, value in element.attrib.items():
        if key.startswith("{") and _local(key) == "id":
            return value
    return None


class _Deck:
    """The package's relationships and layouts, each read once."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.archive = archive
        self.names = frozenset(archive.namelist())
        self._rels: dict[str, dict[str, str]] = {}
        self._types: dict[str, dict[str, str]] = {}
        self._places: dict[str, dict[tuple[str, str], Box]] = {}

    def presentation_part(self) -> str:
        """The main part the package's root relationships name (ppt/presentation.xml in every deck seen)."""
        self.rels("")
        for rid, kind in self._types.get("", {}).items():
            if kind.endswith(_OFFICE_DOCUMENT) and rid in self._rels[""]:
                return self._rels[""][rid]
        return "ppt/presentation.xml"

    def rels(self, part: str) -> dict[str, str]:
        """Relationship id → the part it targets, for `part` ("" for the package); external targets left out."""
        if part in self._rels:
            return self._rels[part]
        folder, name = posixpath.split(part)
        root = read_part(self.archive, posixpath.join(folder, "_rels", f"{name}.rels"), POWERPOINT)
        targets: dict[str, str] = {}
        types: dict[str, str] = {}
        for rel in _children(root, "Relationship"):
            rid, target = rel.get("Id") or "", rel.get("Target") or ""
            if not rid or not target or rel.get("TargetMode") == "External":
                continue
            resolved = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
            targets[rid] = resolved
            types[rid] = rel.get("Type") or ""
        self._rels[part], self._types[part] = targets, types
        return targets

    def related(self, part: str, kind: str) -> str | None:
        """The first part `part` relates to of the relationship type ending in `kind` ("/notesSlide")."""
        targets = self.rels(part)
        for rid, rel_type in self._types.get(part, {}).items():
            if rel_type.endswith(kind):
                return targets.get(rid)
        return None

    def placeholder_places(self, part: str | None) -> dict[tuple[str, str], Box]:
        """(("idx", n) or ("type", t)) → box of a layout's or master's placeholders, its master's beneath."""
        if part is None:
            return {}
        if part in self._places:
            return self._places[part]
        self._places[part] = {}  # a layout that names itself as master does not recurse
        places = dict(self.placeholder_places(self.related(part, "/slideMaster")))
        root = read_part(self.archive, part, POWERPOINT)
        for shape in _path(root, "cSld", "spTree") or []:
            ph = _path(shape, "nvSpPr", "nvPr", "ph")
            at = _offset(shape)
            if ph is None or at is None:
                continue
            kind = _placeholder_type(ph)
            places[("type", "body" if kind == "obj" else kind)] = at
            if ph.get("idx"):
                places[("idx", ph.get("idx"))] = at
        self._places[part] = places
        return places


def _placeholder_type(ph: Any) -> str:
    return ph.get("type") or "obj"  # a placeholder without a type is a content (object) placeholder


def _offset(shape: Any) -> Box | None:
    """The box of a shape that states its own position (a graphic frame keeps it in its own `xfrm`)."""
    props = _first(shape, "spPr", "grpSpPr")
    return _box(_child(props, "xfrm") if props is not None else _child(shape, "xfrm"))


def _box(xfrm: Any) -> Box | None:
    off, ext = _child(xfrm, "off"), _child(xfrm, "ext")
    if off is None:
        return None
    try:
        height, width = (int(ext.get("cy") or 0), int(ext.get("cx") or 0)) if ext is not None else (0, 0)
        return int(off.get("y") or 0), int(off.get("x") or 0), max(height, 0), max(width, 0)
    except ValueError:
        return None


# --- a slide --------------------------------------------------------------------------------------------------------

@dataclass
class _Block:
    """A shape's content at its place (`box`): lines of text, or a table's (text, context)."""

    box: Box
    order: int
    kind: str  # "title", "text", "table", "group"
    lines: list[str] = field(default_factory=list)
    table: tuple[str, str] | None = None
    members: list[_Block] = field(default_factory=list)


@dataclass
class _ReadSlide:
    title: str | None
    heading: str
    body: str
    blocks: list[tuple[str, str, str]]  # (kind, text, context) in order
    notes: str
    tables: int
    charts: int


class _SlideReader:
    def __init__(self, deck: _Deck, part: str, number: int) -> None:
        self.deck = deck
        self.part = part
        self.number = number
        self.places = deck.placeholder_places(deck.related(part, "/slideLayout"))
        self.order = 0
        self.tables = 0
        self.charts = 0

    def read(self, slide: Any) -> _ReadSlide:
        tree = _path(slide, "cSld", "spTree")
        blocks = self._shapes(tree, _identity)
        title_lines = [line for b in blocks if b.kind == "title" for line in b.lines]
        title = " ".join(" ".join(title_lines).split()) or None
        out: list[tuple[str, str, str]] = []
        pending: list[str] = []

        def flush() -> None:
            if pending:
                out.append(("text", "\n".join(pending), ""))
                pending.clear()

        def walk(items: list[_Block]) -> None:
            for block in _reading_order(items):
                if block.kind == "group":
                    walk(block.members)
                elif block.table is not None:
                    flush()
                    out.append(("table", *block.table))
                else:
                    pending.extend(block.lines)

        # The title opens the slide's text wherever it is drawn, as a heading opens a section.
        walk([b for b in blocks if b.kind == "title"])
        walk([b for b in blocks if b.kind != "title"])
        flush()
        body = "\n".join(text for kind, text, _ in out if kind == "text")
        if title:
            heading = short_heading(title)
        else:
            # the first line of its text that holds a word (not a diagram's "0", "23423100"); a slide of a table or chart alone: the chart's title
            first = next((line.lstrip("- ").strip() for kind, text, _c in out if kind == "text"
                          for line in text.split("\n") if _WORD.search(line)), "")
            first = first or next((c.split(" · ")[0] for kind, _t, c in out if kind == "table" and c
                                   and not c.startswith("columns: ")), "")
            if len(first) > _UNTITLED_CHARS:
                first = first[: _UNTITLED_CHARS - 1].rstrip() + "…"
            heading = f"{first} (slide {self.number}, no title)" if first else f"Slide {self.number} (no title)"
        return _ReadSlide(title, heading, body, out, self._notes(), self.tables, self.charts)

    def _shapes(self, tree: Any, place: Any) -> list[_Block]:
        blocks: list[_Block] = []
        for shape in _children(tree):
            name = _local(shape.tag)
            if name == "AlternateContent":  # a newer shape with an older fallback: the first choice it offers
                choice = _first(shape, "Choice", "Fallback")
                blocks.extend(self._shapes(choice, place))
                continue
            block = self._shape(shape, name, place)
            if block is not None:
                blocks.append(block)
        return blocks

    def _shape(self, shape: Any, name: str, place: Any) -> _Block | None:
        self.order += 1
        if name == "sp":
            ph = _path(shape, "nvSpPr", "nvPr", "ph")
            kind = _placeholder_type(ph) if ph is not None else ""
            if kind in _FURNITURE_TYPES:
                return None
            lines = _text_lines(_child(shape, "txBody"), bulleted=kind in _BULLETED_TYPES)
            if not lines:
                return None
            return _Block(place(self._where(shape, ph)), self.order, "title" if kind in _TITLE_TYPES else "text", lines)
        if name == "grpSp":
            box = place(_offset(shape))
            members = self._shapes(shape, _compose(place, _group_transform(shape)))
            if not members:
                return None
            return _Block(box, self.order, "group", members=members)
        if name == "graphicFrame":
            data = _path(shape, "graphic", "graphicData")
            box = place(_box(_child(shape, "xfrm")))
            table = _child(data, "tbl")
            if table is not None:
                return self._table(table, box)
            chart = _child(data, "chart")
            if chart is not None:
                return self._chart(chart, box)
            return None
        return None  # pictures, connectors, media: no text

    def _where(self, shape: Any, ph: Any) -> Box | None:
        own = _offset(shape)
        if own is not None or ph is None:
            return own
        kind = _placeholder_type(ph)
        idx = ph.get("idx")
        if idx and ("idx", idx) in self.places:
            return self.places[("idx", idx)]
        return self.places.get(("type", "body" if kind == "obj" else kind))

    def _table(self, tbl: Any, box: Box) -> _Block | None:
        grid = _table_grid(tbl)
        grid = [row for row in grid if any(row)]
        if not grid:
            return None
        width = max(len(r) for r in grid)
        grid = [r + [""] * (width - len(r)) for r in grid]
        if width < 2 or len(grid) < 2:  # one row or one column: a list set in a box, read as lines
            return _Block(box, self.order, "text", [c for r in grid for c in r if c])
        header, body = grid[0], grid[1:]
        rows = tuple(Row(r[0], tuple(r[1:])) for r in body)
        self.tables += 1
        return _Block(box, self.order, "table", table=render_table(Table(tuple(header[1:]), rows, header[0], "")))

    def _chart(self, chart: Any, box: Box) -> _Block | None:
        target = self.deck.rels(self.part).get(_rel_id(chart) or "")
        if target is None:
            return None
        root = read_part(self.deck.archive, target, POWERPOINT)
        table = _chart_table(root)
        if table is None:
            return None
        self.charts += 1
        return _Block(box, self.order, "table", table=render_table(table))

    def _notes(self) -> str:
        target = self.deck.related(self.part, "/notesSlide")
        if target is None:
            return ""
        root = read_part(self.deck.archive, target, POWERPOINT)
        lines: list[str] = []
        for shape in _path(root, "cSld", "spTree") or []:
            ph = _path(shape, "nvSpPr", "nvPr", "ph")
            if ph is None or _placeholder_type(ph) != "body":
                continue  # the slide's image, its number, the header: not what the speaker wrote
            lines.extend(_text_lines(_child(shape, "txBody"), bulleted=False))
        return "\n".join(lines)


def _text_lines(body: Any, *, bulleted: bool) -> list[str]:
    """The lines of a text body: one a paragraph (a line break inside one starts a new line), list items as "- "."""
    lines: list[str] = []
    for paragraph in _children(body, "p"):
        pieces: list[str] = []
        for run in paragraph:
            name = _local(run.tag)
            if name in ("r", "fld"):
                text = _child(run, "t")
                pieces.append(text.text or "" if text is not None else "")
            elif name == "br":
                pieces.append("\n")
        text = "".join(pieces).replace("\u000b", "\n")  # a vertical tab is PowerPoint's soft line break
        parts = [" ".join(part.split()) for part in text.split("\n")]
        parts = [part for part in parts if part]
        if not parts:
            continue
        props = _child(paragraph, "pPr")
        level = props.get("lvl") if props is not None else None
        depth = min(int(level), 4) if level and level.isdigit() else 0
        marks = {_local(c.tag) for c in props} if props is not None else set()
        is_item = ("buNone" not in marks) and (bulleted or bool(marks & {"buChar", "buAutoNum", "buBlip"}))
        if is_item:
            parts[0] = "  " * depth + "- " + parts[0]
        lines.extend(parts)
    return lines


def _identity(box: Box | None) -> Box:
    return box if box is not None else (-1, -1, 0, 0)


def _group_transform(group: Any) -> tuple[float, float, float, float, float, float] | None:
    """A group's child space onto its parent's: (off_y, off_x, ch_y, ch_x, scale_y, scale_x)."""
    xfrm = _path(group, "grpSpPr", "xfrm")
    try:
        off, ext, ch_off, ch_ext = (_child(xfrm, n) for n in ("off", "ext", "chOff", "chExt"))
        if off is None or ext is None or ch_off is None or ch_ext is None:
            return None
        sy = int(ext.get("cy") or 0) / max(int(ch_ext.get("cy") or 0), 1)
        sx = int(ext.get("cx") or 0) / max(int(ch_ext.get("cx") or 0), 1)
        return (int(off.get("y") or 0), int(off.get("x") or 0), int(ch_off.get("y") or 0), int(ch_off.get("x") or 0),
                sy or 1.0, sx or 1.0)
    except ValueError:
        return None


def _compose(place: Any, transform: Any) -> Any:
    """A member's box on the slide: its group's transform, then the group's own place."""

    def inner(box: Box | None) -> Box:
        if box is None or transform is None:
            return place(box)
        oy, ox, cy, cx, sy, sx = transform
        return place((int(oy + (box[0] - cy) * sy), int(ox + (box[1] - cx) * sx), int(box[2] * sy), int(box[3] * sx)))

    return inner


def _reading_order(blocks: list[_Block]) -> list[_Block]:
    """The blocks in reading order (an XY cut, see the module docstring); a block without a place keeps its place in
    the drawing order, at the block drawn before it."""
    placed: list[tuple[int, int, int, int, int, _Block]] = []  # top, left, bottom, right, order, block
    last: Box = (-1, -1, 0, 0)
    for block in sorted(blocks, key=lambda b: b.order):
        if block.box[0] >= 0:
            last = block.box
        top, left = last[0], last[1]
        placed.append((top, left, top + last[2], left + last[3], block.order, block))
    return [item[5] for item in _xy_cut(placed)]


def _xy_cut(items: list[tuple[int, int, int, int, int, _Block]]) -> list[tuple[int, int, int, int, int, _Block]]:
    if len(items) < 2:
        return items
    for start, end in ((0, 2), (1, 3)):  # bands top to bottom first, then columns left to right
        groups = _cut(items, start, end)
        if len(groups) > 1:
            return [item for group in groups for item in _xy_cut(group)]
    return sorted(items, key=lambda t: t[4])  # shapes overlapping both ways: the order they were drawn in


def _cut(items: list[Any], start: int, end: int) -> list[list[Any]]:
    """Items split where none spans the gap along one axis (start, end: the indexes of its extent in an item)."""
    groups: list[list[Any]] = []
    reach = 0
    for item in sorted(items, key=lambda t: (t[start], t[4])):
        if groups and not (item[start] > groups[-1][-1][start] + _CUT_SLACK_EMU and item[start] >= reach - _CUT_SLACK_EMU):
            groups[-1].append(item)
        else:
            groups.append([item])
        reach = max(reach, item[end]) if len(groups[-1]) > 1 else item[end]
    return groups


def _table_grid(tbl: Any) -> list[list[str]]:
    """A table's cells: a merged cell's text repeated across the columns and rows it covers, so every value keeps
    its row label and column header."""
    grid: list[list[str]] = []
    for tr in _children(tbl, "tr"):
        row: list[str] = []
        for tc in _children(tr, "tc"):
            column = len(row)
            if tc.get("vMerge") in ("1", "true") and grid and column < len(grid[-1]):
                row.append(grid[-1][column])
            elif tc.get("hMerge") in ("1", "true") and row:
                row.append(row[-1])
            else:
                row.append(" ".join(" ".join(line.lstrip("- ") for line in _text_lines(_child(tc, "txBody"),
                                                                                       bulleted=False)).split()))
        grid.append(row)
    return grid


def _chart_table(root: Any) -> Table | None:
    """A chart's cached data as a table: a row per category, a column per series; None when it caches none."""
    chart = _child(root, "chart")
    plot = _child(chart, "plotArea")
    if plot is None:
        return None
    caption = " ".join("".join(t.text or "" for t in _child(chart, "title").iter() if _local(t.tag) == "t").split()) \
        if _child(chart, "title") is not None else ""
    columns: list[str] = []
    values: list[dict[int, str]] = []
    categories: dict[int, str] = {}
    for kind in _children(plot):
        for series in _children(kind, "ser"):
            name = " ".join(_points(_child(series, "tx")).values()) or _rich_text(_child(series, "tx"))
            columns.append(name or f"Series {len(columns) + 1}")
            values.append(_points(_first(series, "val", "yVal")))
            for idx, label in _points(_first(series, "cat", "xVal")).items():
                categories.setdefault(idx, label)
    if not columns or not any(values):
        return None
    indexes = sorted(set(categories) | {i for v in values for i in v})[:_MAX_CHART_ROWS]
    rows = tuple(Row(categories.get(i, str(i + 1)), tuple(v.get(i, "") for v in values)) for i in indexes)
    return Table(tuple(columns), rows, "", caption or "Chart")


def _points(element: Any) -> dict[int, str]:
    """idx → value of a series' cached points (a string, number or multi-level cache: its first level)."""
    found: dict[int, str] = {}
    if element is None:
        return found
    for node in element.iter():
        if _local(node.tag) == "lvl" and found:
            break  # a multi-level category: the innermost level, listed first, names each point
        if _local(node.tag) != "pt":
            continue
        value = _child(node, "v")
        try:
            idx = int(node.get("idx") or 0)
        except ValueError:
            continue
        if value is not None and (value.text or "").strip():
            found.setdefault(idx, " ".join(value.text.split()))
    return found


def _rich_text(element: Any) -> str:
    if element is None:
        return ""
    return " ".join("".join(t.text or "" for t in element.iter() if _local(t.tag) == "t").split())
