"""What the Markdown and reStructuredText readers share: a section path, parts, tables, front matter, HTML.

A documentation page (an MkDocs or Sphinx source file) is read as a Word document is
(docx_reader.py): one `DocumentPart` per run of prose under its heading path ("Query Parameters >
Defaults"), a code block as a part of kind "code" whose lines are kept verbatim (an identifier search
finds them), and a table through `structure.render_table`, one row a line under its column line.
Markup (anchors, roles, admonition fences, include and toctree directives, HTML tags) never reaches
the text or BM25; what was dropped is counted, and what was guessed (an unclosed fence, broken front
matter, ragged table rows) is said in `notes`, so nothing is lost silently.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from corpus_tools.pdf_layout import Row, Table
from corpus_tools.structure import PartsWriter, render_table, short_heading
from corpus_tools.types import DocumentPart

SECTION_SEPARATOR = " > "  # as the PDF, HTML and .docx readers write a path
_MARK = "\x01"  # put before a line that defines a name until the part is written (never in read text)
_BLANK_RUNS = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_HTML_IMG = re.compile(r"<img\b[^>]*?\balt\s*=\s*(\"[^\"]*\"|'[^']*')[^>]*>", re.IGNORECASE)
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*?)?/?>")
_HTML_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_FRONT_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*[:=]\s*(.*)$")


# Admonition words as a reader sees them: MkDocs' "tip" is shown as "Tip", "danger" as "Danger".
LABELS = {"seealso": "See also", "note": "Note", "info": "Info", "tip": "Tip", "warning": "Warning",
          "danger": "Danger", "caution": "Caution", "important": "Important", "check": "Check", "bug": "Bug",
          "example": "Example", "question": "Question", "quote": "Quote", "abstract": "Abstract",
          "success": "Success", "failure": "Failure", "attention": "Attention", "hint": "Hint", "error": "Error"}


def admonition_label(kind: str, title: str = "") -> str:
    """ "Tip:", "Note: Title" — a reader's label, title-cased for kinds not listed."""
    name = LABELS.get(kind.lower(), kind.replace("-", " ").replace("_", " ").capitalize())
    title = " ".join(title.split())
    return f"{name}: {title}" if title else f"{name}:"


@dataclass(frozen=True)
class MarkupDocument:
    """A Markdown or reStructuredText file read: title (None when it names none), text, parts and counts.

    metadata: the front matter's simple values (title excepted), and "description" when it has one.
    notes: what the reader guessed ("front matter not closed: read as text"); dropped: what markup it
    left out, by kind ("include": 12, "comment": 3), so a count says nothing was lost by accident.
    """

    title: str | None
    text: str
    parts: tuple[DocumentPart, ...]
    metadata: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    dropped: dict[str, int] = field(default_factory=dict)
    headings: int = 0
    code_blocks: int = 0
    tables: int = 0


class SectionWriter:
    """Pieces of a page under their heading path: prose runs, code blocks and tables as parts."""

    def __init__(self, myst: bool = True) -> None:
        self.myst = myst  # session 41's reading (CorpusConfig.read_myst); False = session 40's
        self.writer = PartsWriter()
        self.path: list[tuple[int, str]] = []  # (level, heading), outermost first
        self.pending: list[str] = []
        self.first_heading: str | None = None
        self.headings = self.code_blocks = self.tables = 0
        self.notes: list[str] = []
        self.dropped: Counter[str] = Counter()
        self._label = ""  # an admonition's label, put before the next line of text ("Note: …")
        self._define: list[str] = []  # names the next line of text defines (define)
        self._marked: list[tuple[list[str], str]] = []  # per mark in `pending`, in order: its names and program
        self._program = ""  # the `.. program::` of the option entry the next define opens ("": none)

    @property
    def section(self) -> str:
        return SECTION_SEPARATOR.join(h for _level, h in self.path)

    def heading(self, level: int, text: str) -> None:
        text = " ".join(text.split())
        if not text:
            return
        self.flush()
        self.headings += 1
        if self.first_heading is None:
            self.first_heading = text
        self.path = [(lv, h) for lv, h in self.path if lv < level]
        self.path.append((level, short_heading(text)))
        self.pending.append(self._marked_line(text))  # the heading opens its section's text, as in a .docx

    def define(self, *names: str, program: str = "") -> None:
        """The next line of text defines `names` (a Sphinx entry's signature line, a heading that is a code name,
        a parameter list's item): the part holding it records where (DocumentPart.defines); program: the command
        whose option entry it is (a `.. program::` before it; DocumentPart.programs)."""
        self._define.extend(n for n in names if n and n not in self._define)
        if program and self._define:
            self._program = program

    def label(self, label: str) -> None:
        """An admonition's "Note:" / "New in version 2.0:": written before the next line of its text."""
        self.line("")
        self._label_alone()
        self._label = label

    def _label_alone(self) -> None:
        """A pending label that met no text line is written on its own line ("Note:" over a code block)."""
        if self._label:
            self.pending.append(self._label)
            self._label = ""

    def _marked_line(self, text: str) -> str:
        """`text`, marked as the place of the names `define` left for it (none: unchanged)."""
        if _MARK in text:  # a control character in the source: never read as a mark
            text = text.replace(_MARK, "")
        if text.strip() and self._define:
            text = _MARK + text
            self._marked.append((self._define, self._program))
            self._define, self._program = [], ""
        return text

    def line(self, text: str) -> None:
        text = self._marked_line(text)
        if text.strip() and self._label:
            text = f"{self._label} {text.lstrip()}"
            self._label = ""
        self.pending.append(text)

    def end_block(self) -> None:
        """An admonition ended: a label that met no text still stands, on its own line."""
        self._label_alone()
        self.line("")

    def flush(self) -> None:
        if not self.pending:
            return
        text = _BLANK_RUNS.sub("\n\n", "\n".join(line.rstrip() for line in self.pending)).strip("\n")
        self.pending = []
        defines: list[tuple[int, str]] = []
        programs: list[tuple[int, str]] = []
        if self._marked:  # each mark, in order, is where its names are defined; the marks leave the text
            pieces = text.split(_MARK)
            at = len(pieces[0])
            for (names, program), piece in zip(self._marked, pieces[1:], strict=True):
                defines.extend((at, name) for name in names)
                if program:
                    programs.append((at, program))
                at += len(piece)
            text = "".join(pieces)
            self._marked = []
        if text.strip():
            self.writer.emit(text, None, self.section, "text", defines=defines, programs=programs)

    def code(self, lines: list[str]) -> None:
        """A code block, verbatim (its common indentation removed), as a part of its own."""
        self._label_alone()
        self.flush()
        body = "\n".join(dedent(lines)).strip("\n")
        if body.strip():
            self.code_blocks += 1
            self.writer.emit(body, None, self.section, "code")

    def table(self, grid: list[list[str]], caption: str = "", header: bool = True) -> None:
        """A table (first row its header, unless `header` is False) through render_table; rows of another
        width than the first are padded or joined."""
        grid = [[" ".join(c.split()) for c in row] for row in grid]
        grid = [row for row in grid if any(row)]
        if not grid:
            return
        width = len(grid[0])
        ragged = sum(1 for row in grid if len(row) != width)
        if ragged:
            self.notes.append(f"table with {ragged} ragged row(s) under {self.section or 'the top'}: padded "
                              "short rows, joined extra cells into the last column")
            grid = [row + [""] * (width - len(row)) if len(row) <= width
                    else [*row[: width - 1], " ".join(c for c in row[width - 1 :] if c)] for row in grid]
        if width < 2 or len(grid) < 2:
            for row in grid:  # one column or one row: its cells as lines
                self.line(" | ".join(c for c in row if c))
            return
        self.flush()
        head, body = (grid[0], grid[1:]) if header else ([""] * width, grid)
        rows = tuple(Row(r[0], tuple(r[1:])) for r in body)
        text, context = render_table(Table(tuple(head[1:]), rows, head[0], caption))
        self.tables += 1
        self.writer.emit(text, None, self.section, "table", context)

    def document(self, title: str | None, metadata: dict[str, Any], notes: list[str]) -> MarkupDocument:
        self._label_alone()
        self.flush()
        return MarkupDocument(title or self.first_heading, self.writer.text, tuple(self.writer.parts), metadata,
                              tuple(notes + self.notes), dict(self.dropped), self.headings, self.code_blocks,
                              self.tables)


def dedent(lines: list[str]) -> list[str]:
    """Lines with their common leading whitespace removed (blank lines ignored in the measure)."""
    widths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(widths) if widths else 0
    return [line[cut:] if line.strip() else "" for line in lines]


def strip_html(text: str, dropped: Counter[str] | None = None) -> str:
    """Inline HTML to its text: comments dropped, an <img> to its alt text, other tags removed, entities decoded."""
    if "<" in text:
        if dropped is not None and "<!--" in text:
            dropped["html comment"] += text.count("<!--")
        text = _HTML_COMMENT.sub("", text)
        text = _HTML_IMG.sub(lambda m: m.group(1)[1:-1], text)
        text = _HTML_BREAK.sub(" ", text)
        text = _HTML_TAG.sub("", text)
    return html.unescape(text) if "&" in text else text


def front_matter(lines: list[str]) -> tuple[dict[str, str], int, str]:
    """(keys, lines it spans, note) of YAML (`---`) or TOML (`+++`) front matter opening a file.

    Read without a YAML dependency: simple `key: value` / `key = value` lines, quotes removed; nested
    or list values are skipped. Not closed within 200 lines, or holding no key,
    the opening line is a thematic break, not front matter: (keys {}, 0 lines, a note saying so).
    """
    if not lines or lines[0].strip() not in ("---", "+++"):
        return {}, 0, ""
    fence = lines[0].strip()
    end = next((i for i in range(1, min(len(lines), 200)) if lines[i].strip() in (fence, "..." if fence == "---"
                                                                                 else fence)), None)
    if end is None:
        return {}, 0, f"front matter opened by {fence!r} is not closed: read as text"
    keys: dict[str, str] = {}
    for raw in lines[1:end]:
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        match = _FRONT_KEY.match(raw)
        if match is None or raw[0].isspace():
            continue
        value = match.group(2).strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if value and value not in ("|", ">", "|-", ">-") and not value.startswith(("[", "{")):
            keys[match.group(1).lower()] = value
    # Nested and list values (MkDocs' `hide: [navigation]`) tell a renderer what to show: not text, not lost.
    return keys, end + 1, ""


def split_lines(text: str) -> list[str]:
    """The lines of a text whatever its line ends (CRLF, CR, LF, mixed), tabs as 4 spaces for indentation."""
    return [line.expandtabs(4) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
