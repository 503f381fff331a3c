"""Document structure: laid-out pages → one text with its pages, sections and tables as `DocumentPart`s.

Sections: a 10-Q or 10-K is organised in Parts and Items ("PART I — FINANCIAL INFORMATION",
"Item 2. Management's Discussion and Analysis…"), an 8-K in numbered Items ("Item 9.01 Financial
Statements and Exhibits"); those lines set the first two levels of the path, and other headings
(larger or bold short lines) nest below them. The exhibits an 8-K attaches follow its signatures,
each opened by a line of its own ("Exhibit 99.1"): that line starts a section of its own
("Exhibit 99.1 > …"), so the press release is not read as part of Item 9.01, whose own text is the
exhibit list. (A 10-K's or 10-Q's attached exhibits, certifications and contracts, stay in Part IV
or Item 6, the Items that list them.) A document without Items (a report, a protocol) gets its
headings alone, levelled by font size. Table-of-contents lines
("Item 2. … 15") are not headings. Page furniture — running headers and footers that repeat on
most pages ("Apple Inc. | Q3 2023 Form 10-Q | 17") — is left out of the text.

Tables are written one row a line, "label | value | value", under a caption line and a column
line; their caption, column headers and units also go into the part's `context`, which every
chunk of the table carries in its header.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from corpus_tools.bibliography import is_heading as is_bibliography_heading
from corpus_tools.pdf_layout import Line, PageLayout, Soup, Table
from corpus_tools.types import DocumentPart

_PART = re.compile(r"^PART\s+(IV|I{1,3})\b(?!,)\s*[—–\-:.]?\s*(.*)$", re.IGNORECASE)
# "Item 2. Management's …", "Item 1A: Risk Factors"; an 8-K's "Item 9.01 Financial Statements and Exhibits"
# (its numbers carry two decimals, with or without a point after them).
_ITEM = re.compile(r"^ITEM\s+(?:(\d{1,2}\.\d{2})\b\.?|(\d{1,2}[A-C]?)\s*[.:])\s*(\S.*)?$", re.IGNORECASE)
# The signatures of a filing, and after them the first line of an attached exhibit ("Exhibit 99.1", "EXHIBIT 10.2").
_SIGNATURES = re.compile(r"^SIGNATURES?$", re.IGNORECASE)
_EXHIBIT = re.compile(r"^EXHIBIT\s+(\d{1,3}(?:\.\d{1,3})?)$", re.IGNORECASE)
_TOC_ENTRY = re.compile(r"(?:\s|\.)\d{1,3}$")  # "Item 2. Management's Discussion … 15"
_DIGITS = re.compile(r"\d+")
_SECTION_CHARS = 90  # a heading longer than this is cut in the path (the text keeps all of it)

# A line repeating at the top or bottom of at least this share of pages is a running header/footer.
FURNITURE_SHARE = 0.3
FURNITURE_EDGE_LINES = 3
# A page marker at a page's top or bottom ("Page 1 of 4", "Page 2 of 4 NYC08CA055", "- 7 -", "Page 3") is page
# furniture on any document, however short, with or without a report number after it: it is the
# page, which every part already carries, never text or a heading.
_PAGE_MARKER = re.compile(r"^(?:page\s+\d{1,4}(?:\s+of\s+\d{1,4})?(?:\s+\S*\d\S*)?|[-–—]\s*\d{1,4}\s*[-–—])$", re.IGNORECASE)


@dataclass(frozen=True)
class StructuredText:
    """The document's text, its parts, and what the layout reader made of its tables."""

    text: str
    parts: tuple[DocumentPart, ...]
    tables: int  # tables read with their columns
    rows: int  # their rows
    rows_with_headers: int  # rows all of whose values sit under a column header
    soups: int  # runs of figures whose columns could not be told apart (indexed as text)
    pages: int
    furniture: str = ""  # the running headers/footers left out ("Apple Inc. | Q3 2023 Form 10-Q | 17")


class PartsWriter:
    """Joins a document's pieces with blank lines, recording each one's span as a `DocumentPart`.

    Shared by the PDF structure (`build_structure`) and the HTML layout reader (html_layout.py).
    """

    def __init__(self) -> None:
        self._out: list[str] = []
        self.parts: list[DocumentPart] = []
        self._length = 0

    def emit(self, piece: str, page: int | None, section: str, kind: str, context: str = "",
             defines: Sequence[tuple[int, str]] = (), programs: Sequence[tuple[int, str]] = ()) -> None:
        """defines: (offset in `piece`, name) of the names the piece defines (DocumentPart.defines); programs:
        (offset in `piece`, program) of its option entries a `.. program::` governs (DocumentPart.programs)."""
        if not piece.strip():
            return
        if self._out:
            self._out.append("\n\n")
            self._length += 2
        self._out.append(piece)
        at = tuple((self._length + offset, name) for offset, name in defines)
        prog = tuple((self._length + offset, name) for offset, name in programs)
        self.parts.append(DocumentPart(self._length, self._length + len(piece), page, section, kind, context, at,
                                       prog))
        self._length += len(piece)

    @property
    def text(self) -> str:
        return "".join(self._out)


def build_structure(pages: Sequence[PageLayout], references: bool = False) -> StructuredText:
    """One text for the whole document, its parts in order (see the module docstring).

    references: a bibliography's heading ("References", "5 REFERENCES") starts a section in a document that is no
    filing even where it is set in body type (a paper's reference list then has a section of its own,
    `corpus_tools.bibliography`); False = as before session 49.
    """
    furniture = _furniture(pages)
    body_size = _body_size(pages)
    items = [m for p in pages for b in p.blocks if isinstance(b, Line) and (m := _item(b.text))]
    # A filing names two Items or more; an 8-K may report one alone ("Item 5.07. Submission of Matters to a
    # Vote of Security Holders"), but its decimal number is no other document's heading.
    is_filing = len(items) >= 2 or any(m.group(1) for m in items)
    path = _SectionPath(references)
    writer = PartsWriter()
    emit = writer.emit
    tables = rows = rows_with_headers = soups = 0
    pending: list[str] = []  # lines of the current text paragraph run
    pending_page = None
    pending_section = ""

    def flush() -> None:
        nonlocal pending
        if pending:
            emit("\n".join(pending), pending_page, pending_section, "text")
            pending = []

    removed: dict[str, str] = {}
    for page in pages:
        previous: Line | None = None
        edge = _edge_lines(page)
        for block in page.blocks:
            if isinstance(block, Line):
                key = _DIGITS.sub("#", block.text.strip())
                marker = id(block) in edge and _PAGE_MARKER.match(block.text.strip()) is not None
                if key in furniture or marker or (block.text.strip().isdigit() and len(block.text.strip()) <= 3):
                    removed.setdefault(key, block.text.strip())
                    continue
                heading = path.consider(block, is_filing, body_size)
                gap = previous is not None and block.top - previous.bottom > 0.9 * max(previous.bottom - previous.top, 4)
                if heading or gap or pending_page != page.number or pending_section != path.text:
                    flush()
                if not pending:
                    pending_page, pending_section = page.number, path.text
                pending.append(block.text)
                previous = block
                continue
            flush()
            previous = None
            if isinstance(block, Table):
                tables += 1
                rows += len(block.rows)
                if all(block.columns):
                    rows_with_headers += len(block.rows)
                text, context = render_table(block)
                emit(text, page.number, path.text, "table", context)
            elif isinstance(block, Soup):  # its lines as they read, counted
                soups += 1
                emit("\n".join(line.text for line in block.lines), page.number, path.text, "text")
        flush()
    return StructuredText(writer.text, tuple(writer.parts), tables, rows, rows_with_headers, soups, len(pages),
                          "\n".join(v for v in removed.values() if not v.isdigit()))


def render_table(table: Table) -> tuple[str, str]:
    """(text, context) of a table: caption and column lines then one row a line; context for headers."""
    columns = " | ".join(c or "—" for c in table.columns)
    # The column line reads as the table's top row, units in its corner cell: "(in millions) | Three Months…".
    head = [f"({table.units or 'columns'}) | {columns}"] if any(table.columns) else []
    body = [" | ".join([row.label, *row.values]) for row in table.rows]
    context_bits = [table.caption, f"columns: {columns}" if any(table.columns) else "", table.units]
    return "\n".join([*head, *body]), " · ".join(b for b in context_bits if b)


def _item(text: str) -> re.Match[str] | None:
    match = _ITEM.match(text.strip())
    if match is None or _TOC_ENTRY.search(text.strip()) or len(text) > 160:
        return None
    return match


class _SectionPath:
    """The heading path as lines go by: Part > Item > heading for filings, headings by size otherwise."""

    def __init__(self, references: bool = False) -> None:
        self.references = references  # a bibliography's heading in body type is a heading (build_structure)
        self.part = ""
        self.item = ""
        self.headings: list[tuple[float, str]] = []  # (font size, heading), outermost first
        self.current_report = False  # an 8-K: its Items are numbered with decimals ("Item 2.02")
        self.signed = False  # its signatures have been read: what follows is attached exhibits

    @property
    def text(self) -> str:
        names = [self.part, self.item, *(h for _s, h in self.headings)]
        return " > ".join(n for n in names if n)

    def consider(self, line: Line, is_filing: bool, body_size: float) -> bool:
        """Update the path if `line` is a heading; whether it was."""
        text = line.text.strip()
        if is_filing:
            if _SIGNATURES.match(text):
                self.signed = self.current_report
            exhibit = _EXHIBIT.match(text) if self.signed else None
            if exhibit:  # an attached exhibit: a section of its own, outside the Item that lists it
                self.part, self.item, self.headings = "", f"Exhibit {exhibit.group(1)}", []
                return True
            part = _PART.match(text)
            if part and not _TOC_ENTRY.search(text) and len(text) <= 80:
                name = f"Part {part.group(1).upper()}"
                if name == self.part and not part.group(2):
                    return False  # a running page head ("PART I" atop every page): no new section
                self.part, self.item, self.headings = name, "", []
                return True
            item = _item(text)
            if item:
                title = (item.group(3) or "").strip()
                number = (item.group(1) or item.group(2)).upper()
                self.current_report = self.current_report or item.group(1) is not None
                self.item = short_heading(f"Item {number}. {_titlecase(title)}".strip())
                self.headings = []
                return True
        if is_filing and not self.item:
            return False  # a filing's cover and contents pages are set in bold: no headings before Item 1
        if not (_is_heading(line, body_size) or (self.references and not is_filing and is_bibliography_heading(text))):
            return False
        size = line.size + (0.05 if line.bold else 0.0)
        while self.headings and self.headings[-1][0] <= size:
            self.headings.pop()
        # Filings nest one level of headings under the Item; other documents keep three.
        depth = 1 if is_filing else 3
        self.headings = self.headings[: depth - 1]
        self.headings.append((size, short_heading(text)))
        return True


def _is_heading(line: Line, body_size: float) -> bool:
    text = line.text.strip()
    if not 3 <= len(text) <= 90 or text.endswith((".", ",", ";")) or not any(c.isalpha() for c in text):
        return False
    if not (text[0].isupper() or text[0].isdigit()):
        return False
    if sum(c.isdigit() for c in text) > len(text) / 3:
        return False  # a date or a figure line, not a heading
    if text.endswith(":") or ": " in text:
        return False  # a form's field labels ("Registered Owner: Rated Power:"), bold on a report form
    if len(text.split()) > 12 or text.count(",") >= 2 or re.search(r"[a-z]\. [A-Z]", text):
        return False  # prose set in bold (a narrative's first line, a finding): a sentence, not a heading
    bigger = body_size and line.size >= body_size + 1.5
    return bool(bigger or (line.bold and (not body_size or line.size >= body_size - 0.5)))


def _titlecase(title: str) -> str:
    """'FINANCIAL STATEMENTS' → 'Financial Statements'; mixed-case titles stay as they are."""
    return title.title().replace("'S ", "'s ").replace("’S ", "’s ") if title.isupper() else title


def short_heading(text: str) -> str:
    """A heading as a section path shows it: cut at _SECTION_CHARS (the text keeps all of it). Every reader
    that writes sections (PDF, .docx, Markdown, reStructuredText) cuts it here."""
    return text if len(text) <= _SECTION_CHARS else text[: _SECTION_CHARS - 1].rstrip() + "…"


def _edge_lines(page: PageLayout) -> set[int]:
    """Ids of the lines at the page's top and bottom (FURNITURE_EDGE_LINES each), where furniture sits."""
    lines = [b for b in page.blocks if isinstance(b, Line)]
    return {id(line) for line in lines[:FURNITURE_EDGE_LINES] + lines[-FURNITURE_EDGE_LINES:]}


def _furniture(pages: Sequence[PageLayout]) -> set[str]:
    """Lines (digits masked) at a page's top or bottom that repeat on FURNITURE_SHARE of the pages."""
    if len(pages) < 4:
        return set()
    seen: Counter[str] = Counter()
    for page in pages:
        lines = [b for b in page.blocks if isinstance(b, Line)]
        edge = lines[:FURNITURE_EDGE_LINES] + lines[-FURNITURE_EDGE_LINES:]
        seen.update({_DIGITS.sub("#", line.text.strip()) for line in edge})
    floor = max(3, FURNITURE_SHARE * len(pages))
    return {key for key, n in seen.items() if n >= floor and len(key) >= 3}


def _body_size(pages: Sequence[PageLayout]) -> float:
    """The font size most characters are set in (0 when the PDF reports none)."""
    sizes: Counter[float] = Counter()
    for page in pages:
        for block in page.blocks:
            if isinstance(block, Line):
                for word in block.words:
                    sizes[word.size] += len(word.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0
