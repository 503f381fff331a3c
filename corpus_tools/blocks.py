"""A word processor's blocks → one text with its sections and tables as `DocumentPart`s.

Word (.docx) and RTF files hold the same things in different syntax: paragraphs, each maybe a heading
of some level, a title, or a list item; tables; footnotes. Their readers walk their own syntax and
hand each block here, which writes it as every other reader does (`structure.PartsWriter`): paragraphs
run together under their heading path ("Results > Regional sales"), a table as a "table" part, one row
a line ("West | 12.5 | 14.1") under its header row, whose cells every chunk of the table carries in
its context; footnotes last, under "Footnotes".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from corpus_tools.pdf_layout import Row, Table
from corpus_tools.structure import PartsWriter, render_table, short_heading
from corpus_tools.types import DocumentPart

# A table whose cells average more than this many characters is a layout table (text set in
# columns), read as paragraphs rather than as rows of figures.
LAYOUT_CELL_CHARS = 200
# A "heading" longer than this is a paragraph set in a heading style, not a heading.
_HEADING_CHARS = 200


@dataclass(frozen=True)
class WordDocument:
    """A word processor's file read (.docx, .doc, .rtf, .odt): its title (None when it names none), text, parts,
    metadata (title, author, dates; a `read_note`) and counts."""

    title: str | None
    text: str
    parts: tuple[DocumentPart, ...]
    metadata: dict[str, Any] = field(default_factory=dict)
    tables: int = 0
    headings: int = 0

    @classmethod
    def written(cls, blocks: BlockWriter, title: str | None, metadata: dict[str, Any]) -> WordDocument:
        """What `blocks` wrote, titled by `title`, else the Title style's paragraph, else an opening heading."""
        return cls(title or blocks.title_style or blocks.opening_heading, blocks.writer.text,
                   tuple(blocks.writer.parts), metadata, blocks.tables, blocks.headings)


class BlockWriter:
    """Blocks in document order → `writer.text` and `writer.parts`; counts of tables and headings."""

    def __init__(self) -> None:
        self.writer = PartsWriter()
        self.path: list[tuple[int, str]] = []  # (level, heading), outermost first
        self.pending: list[str] = []
        self.title_style: str | None = None  # the first paragraph set in the Title style
        self.opening_heading: str | None = None  # a heading that opens the document (no text before it)
        self.tables = 0
        self.headings = 0

    @property
    def section(self) -> str:
        return " > ".join(h for _level, h in self.path)

    def flush(self) -> None:
        if self.pending:
            self.writer.emit("\n".join(self.pending), None, self.section, "text")
            self.pending = []

    def paragraph(self, text: str, level: int | None = None, list_depth: int | None = None) -> None:
        """One paragraph: level 0 = the Title style, 1–9 = a heading of that level, None = body text
        (a list item at `list_depth` 0–4 when it is one)."""
        lines = [" ".join(line.split()) for line in text.split("\n")]
        text = "\n".join(line for line in lines if line)
        if not text:
            return
        if level == 0:  # the Title style: the document's title when its properties give none
            self.title_style = self.title_style or text
            self.pending.append(text)
            return
        if level is not None and len(text) <= _HEADING_CHARS:
            if not self.writer.parts and not self.pending:
                self.opening_heading = text  # it names the document, as an HTML page's first <h1> does
            self.flush()
            self.headings += 1
            self.path = [(lv, h) for lv, h in self.path if lv < level]
            self.path.append((level, short_heading(text)))
            self.pending.append(text)
            return
        if list_depth is not None:
            text = "  " * min(max(list_depth, 0), 4) + "- " + text
        self.pending.append(text)

    def table(self, grid: list[list[str]]) -> None:
        """A table's cells, row by row (a merged cell's text already repeated where it spans)."""
        grid = [row for row in grid if any(row)]
        if not grid:
            return
        width = max(len(r) for r in grid)
        grid = [r + [""] * (width - len(r)) for r in grid]
        cells = [c for r in grid for c in r if c]
        if width < 2 or len(grid) < 2 or sum(map(len, cells)) / len(cells) > LAYOUT_CELL_CHARS:
            # One column, one row, or text set in columns: paragraphs, cell by cell.
            self.pending.extend(line for r in grid for c in r if c for line in c.split("\n"))
            return
        self.flush()
        header, body = grid[0], grid[1:]
        rows = tuple(Row(" ".join(r[0].split()), tuple(" ".join(c.split()) for c in r[1:])) for r in body)
        # The header row's first cell names the row labels ("Region"): it stands where a statement's
        # units stand in the column line ("(Region) | Q1 | Q2"), so it is kept with the headers.
        table = Table(tuple(" ".join(c.split()) for c in header[1:]), rows, " ".join(header[0].split()), "")
        text, context = render_table(table)
        self.tables += 1
        self.writer.emit(text, None, self.section, "table", context)

    def footnotes(self, notes: list[str]) -> None:
        """The numbered notes ("[1] …"), after the body, under "Footnotes"."""
        self.flush()
        if notes:
            self.path = [(1, "Footnotes")]
            self.pending = list(notes)
            self.flush()
