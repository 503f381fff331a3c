"""OpenDocument text files (.odt): headings as sections, lists, tables as rows, footnotes last.

LibreOffice, OpenOffice, Google Docs' "ODF" export and many public administrations (the EU's and
several states' standard format) write .odt: a zip whose `content.xml` holds the body (ODF 1.2/1.3,
OASIS), `meta.xml` the title, author and dates. Read here with `ooxml.open_package` / `read_part` (the
same zip and XML guards as Word's files) and written through `blocks.BlockWriter` as a .docx is:

- a `text:h` is a heading at its `text:outline-level` ("Title" style: the title);
- a `text:list`'s items are "- " lines, indented by their nesting;
- a `table:table` is rows under its header row, repeated cells (`table:number-columns-repeated`) and
  spanned ones (`table:number-columns-spanned`) spread as a reader sees them;
- a `text:note` (footnote or endnote) is numbered where it is cited and written under "Footnotes";
- `text:s` (runs of spaces), `text:tab`, `text:line-break`, and text boxes inside frames are read; tracked
  deletions, annotations (comments), the table of contents' and index's generated copies, and
  `text:soft-page-break` are not, nor is text set hidden (a "Hidden" style, or a hidden-text field that is hidden).

Refused with a reason (`UnreadableFileError`): a file that is no zip, a password-protected one (its
`META-INF/manifest.xml` lists encryption data: the body is ciphertext), a zip without `content.xml`, and
broken XML in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from corpus_tools.blocks import BlockWriter, WordDocument
from corpus_tools.ooxml import Package, open_package, read_part
from corpus_tools.readers import UnreadableFileError, is_meaningful_title

_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_DRAW = "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_DC = "{http://purl.org/dc/elements/1.1/}"
_META = "{urn:oasis:names:tc:opendocument:xmlns:meta:1.0}"
_MANIFEST = "{urn:oasis:names:tc:opendocument:xmlns:manifest:1.0}"
CONVERT_HELP = "open it in LibreOffice and save it as .odt, .docx or PDF, then index that file"
WRITER = Package(".odt", "LibreOffice", "an OpenDocument text", "binary file", "File > Properties > Security",
                 CONVERT_HELP)
# Generated copies of what the body already holds, and what is no text of the document.
_SKIP = frozenset({
    f"{_TEXT}table-of-content", f"{_TEXT}alphabetical-index", f"{_TEXT}illustration-index", f"{_TEXT}table-index",
    f"{_TEXT}object-index", f"{_TEXT}user-index", f"{_TEXT}bibliography", f"{_TEXT}tracked-changes",
    f"{_OFFICE}annotation", f"{_OFFICE}annotation-end", f"{_TEXT}soft-page-break", f"{_TEXT}sequence-decls",
    f"{_TEXT}variable-decls", f"{_TEXT}user-field-decls", f"{_OFFICE}forms",
})
_ROW_GROUPS = (f"{_TABLE}table-header-rows", f"{_TABLE}table-rows", f"{_TABLE}table-row-group")
_CELL_CAP = 1024  # repeated columns past the last filled one are LibreOffice's padding to the sheet's width
_HEADING_NAME = re.compile(r"^heading[ _]*([1-9])$", re.IGNORECASE)


def read_odt(path: Path) -> WordDocument:
    """An OpenDocument text with its sections and tables (see the module docstring)."""
    with open_package(path, WRITER) as archive:
        manifest = read_part(archive, "META-INF/manifest.xml", WRITER)
        if manifest is not None and manifest.find(f".//{_MANIFEST}encryption-data") is not None:
            raise UnreadableFileError("password-protected OpenDocument file; open it in LibreOffice, remove the "
                                      "password (File > Properties > Security), save, and index it again")
        content = read_part(archive, "content.xml", WRITER, required=True)
        meta = _meta(read_part(archive, "meta.xml", WRITER))
        styles = read_part(archive, "styles.xml", WRITER)
    body = content.find(f"{_OFFICE}body/{_OFFICE}text")
    if body is None:
        raise UnreadableFileError("not an OpenDocument text (content.xml has no office:text body: a spreadsheet or "
                                  f"a presentation saved as .odt?); {CONVERT_HELP}")
    reader = _BodyReader(*_styles(content, styles))
    reader.blocks_of(body)
    reader.blocks.footnotes(reader.notes)
    return WordDocument.written(reader.blocks, meta.pop("title", None), meta)


def _meta(root: Any) -> dict[str, Any]:
    """Title, author and dates (ISO days) of meta.xml; a junk title is left out."""
    found: dict[str, Any] = {}
    if root is None:
        return found
    for key, tag in (("title", f"{_DC}title"), ("author", f"{_META}initial-creator"), ("author", f"{_DC}creator"),
                     ("created", f"{_META}creation-date"), ("modified", f"{_DC}date")):
        element = root.find(f".//{tag}")
        value = " ".join((element.text or "").split()) if element is not None else ""
        if not value or key in found:
            continue
        if key == "title" and not is_meaningful_title(value):
            continue
        found[key] = value[:10] if key in ("created", "modified") else value
    return found


def _styles(content: Any, styles: Any) -> tuple[dict[str, int], set[str]]:
    """Paragraph style names → heading level (0 = the Title style), following each automatic style to its parent;
    and the styles that hide their text (`text:display="none"`, what LibreOffice's "Hidden" character property
    writes)."""
    levels: dict[str, int] = {}
    parents: dict[str, str] = {}
    hidden: set[str] = set()
    for root in (styles, content):
        for style in root.iter(f"{_STYLE}style") if root is not None else ():
            name = style.get(f"{_STYLE}name") or ""
            display = style.get(f"{_STYLE}display-name") or name
            parent = style.get(f"{_STYLE}parent-style-name")
            if parent:
                parents[name] = parent
            props = style.find(f"{_STYLE}text-properties")
            if props is not None and props.get(f"{_TEXT}display") == "none":
                hidden.add(name)
            if display.lower() == "title" or name.lower() == "title":
                levels[name] = 0
            elif (found := _HEADING_NAME.match(display.replace("_20_", " "))) is not None:
                levels[name] = int(found.group(1))
    for name in list(parents):
        seen, current = set(), name
        while current in parents and current not in levels and current not in seen:
            seen.add(current)
            current = parents[current]
        if current in levels and name not in levels:
            levels[name] = levels[current]
    return levels, hidden


class _BodyReader:
    def __init__(self, levels: dict[str, int], hidden: set[str]) -> None:
        self.levels = levels
        self.hidden = hidden
        self.blocks = BlockWriter()
        self.notes: list[str] = []

    def blocks_of(self, container: Any, depth: int | None = None) -> None:
        for child in container:
            tag = child.tag
            if tag in _SKIP:
                continue
            if tag == f"{_TEXT}h":
                level = child.get(f"{_TEXT}outline-level") or "1"
                self.blocks.paragraph(self._text(child), int(level) if level.isdigit() and 0 < int(level) < 10
                                      else 1)
            elif tag == f"{_TEXT}p":
                style = child.get(f"{_TEXT}style-name") or ""
                if style in self.hidden:
                    continue
                level = self.levels.get(style)
                self.blocks.paragraph(self._text(child), level if depth is None else None, depth)
                self._frames(child)
            elif tag == f"{_TEXT}list":
                for item in child:
                    if item.tag in (f"{_TEXT}list-item", f"{_TEXT}list-header"):
                        self.blocks_of(item, 0 if depth is None else depth + 1)
            elif tag == f"{_TABLE}table":
                self.blocks.table(self._grid(child))
            elif tag in (f"{_TEXT}section", f"{_TEXT}index-body"):
                self.blocks_of(child, depth)

    def _frames(self, paragraph: Any) -> None:
        """Text boxes anchored in a paragraph: their paragraphs after it."""
        for box in paragraph.iter(f"{_DRAW}text-box"):
            self.blocks_of(box)

    def _text(self, element: Any) -> str:
        out: list[str] = []

        def walk(node: Any) -> None:
            if node.text:
                out.append(node.text)
            for child in node:
                tag = child.tag
                if (tag in _SKIP or tag == f"{_DRAW}frame"  # a frame's text box is read after its paragraph
                        or child.get(f"{_TEXT}style-name") in self.hidden or child.get(f"{_TEXT}is-hidden") == "true"):
                    pass
                elif tag == f"{_TEXT}s":
                    count = child.get(f"{_TEXT}c") or "1"
                    out.append(" " * min(int(count) if count.isdigit() else 1, 64))
                elif tag == f"{_TEXT}tab":
                    out.append("\t")
                elif tag == f"{_TEXT}line-break":
                    out.append("\n")
                elif tag == f"{_TEXT}note":
                    body = child.find(f"{_TEXT}note-body")
                    note = " ".join(self._text(p) for p in body.iter(f"{_TEXT}p")) if body is not None else ""
                    self.notes.append(f"[{len(self.notes) + 1}] {' '.join(note.split())}".rstrip())
                    out.append(f"[{len(self.notes)}]")
                else:
                    walk(child)
                if child.tail:
                    out.append(child.tail)

        walk(element)
        return "".join(out)

    def _grid(self, table: Any) -> list[list[str]]:
        """A table's cells on its grid: a spanning cell's text repeated in the cells it covers (the one above
        for a row span, the one to the left for a column span), so every value keeps its row and column."""
        grid: list[list[str]] = []
        below: dict[int, tuple[str, int]] = {}  # column → (text of a row-spanning cell, rows it still covers)
        for row in _rows(table):
            cells: list[str] = []
            for cell in row:
                if cell.tag not in (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"):
                    continue
                column = len(cells)
                if cell.tag == f"{_TABLE}covered-table-cell":
                    text = below[column][0] if column in below else (cells[-1] if cells else "")
                else:
                    text = " ".join(" ".join(self._text(p).split()) for p in cell
                                    if p.tag in (f"{_TEXT}p", f"{_TEXT}h"))
                    rows, columns = _count(cell, "number-rows-spanned"), _count(cell, "number-columns-spanned")
                    for spanned in range(column, column + columns) if rows > 1 else ():
                        below[spanned] = (text, rows)
                cells.extend([text] * _count(cell, "number-columns-repeated"))
            below = {c: (text, left - 1) for c, (text, left) in below.items() if left > 1}
            while cells and not cells[-1]:
                cells.pop()
            grid.extend([cells] * (_count(row, "number-rows-repeated") if cells else 1))
        return grid


def _count(element: Any, attribute: str) -> int:
    """A table:number-… attribute, 1 when absent or broken, at most _CELL_CAP."""
    value = element.get(f"{_TABLE}{attribute}") or "1"
    return max(1, min(int(value), _CELL_CAP)) if value.isdigit() else 1


def _rows(container: Any) -> Iterator[Any]:
    """A table's own rows in order (a nested table's rows are its cell's text, not rows of this one)."""
    for child in container:
        if child.tag == f"{_TABLE}table-row":
            yield child
        elif child.tag in _ROW_GROUPS:
            yield from _rows(child)
