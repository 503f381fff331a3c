"""Word documents (.docx): paragraphs in order, headings as sections, tables as rows under their headers.

A .docx is a zip of XML parts (ECMA-376): `word/document.xml` holds the body, `word/styles.xml` the
paragraph styles (a heading is a paragraph whose style is "heading N" or "Title", or whose style or
own properties set an outline level), `word/footnotes.xml` the footnotes and `docProps/core.xml`
the title, author and dates. Read with the standard library's `zipfile` and ElementTree rather than
python-docx: python-docx needs lxml (a compiled wheel the install does not otherwise carry), does not
read footnotes, and hides the outline levels a heading can carry instead of a heading style; the
reading here is one pass over the body. (ElementTree resolves no external entities, and the expat
it runs on (>= 2.4) refuses entity-expansion bombs; each part's size is checked before it is read.)

The text is written as `structure.PartsWriter` writes a PDF's or HTML page's: one part per paragraph
run under a heading path ("Results > Regional sales"), and a table as a "table" part, one row a line
("West | 12.5 | 14.1") under its header row, whose cells every chunk of the table carries in its
context. Lists keep their items as "- item" lines; footnotes follow the body under "Footnotes",
each numbered as its reference in the text ("[1]").

Refused with a reason (`UnreadableFileError`): a file that is not a zip (truncated, or a binary .doc
renamed), a password-protected one (Word stores those as an encrypted OLE container, not a zip),
a zip without a Word body, and broken XML.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from corpus_tools.blocks import BlockWriter, WordDocument
from corpus_tools.ooxml import Package, core_properties, open_package, read_part
from corpus_tools.readers import UnreadableFileError

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
CONVERT_HELP = "open it in Word or LibreOffice and save it as .docx or PDF, then index that file"
WORD = Package(".docx", "Word", "a Word document", "binary Word 97-2003 file", "File > Info > Protect Document",
               CONVERT_HELP)


def read_docx(path: Path) -> WordDocument:
    """A Word document with its sections and tables (see the module docstring)."""
    with open_package(path, WORD) as archive:
        body = read_part(archive, "word/document.xml", WORD, required=True)
        styles = _Styles(read_part(archive, "word/styles.xml", WORD))
        footnotes = _footnotes(read_part(archive, "word/footnotes.xml", WORD))
        core = core_properties(read_part(archive, "docProps/core.xml", WORD))
    root = body.find(f"{_W}body")
    if root is None:
        raise UnreadableFileError("not a Word document (word/document.xml has no body)")
    reader = _BodyReader(styles, footnotes)
    reader.read(root)
    return WordDocument.written(reader.blocks, core.pop("title", None), core)


class _Styles:
    """Paragraph styles: the heading level each style id gives (0 for "Title", None for body text)."""

    def __init__(self, root: Any) -> None:
        self._names: dict[str, str] = {}
        self._based: dict[str, str] = {}
        self._outline: dict[str, int] = {}
        self._lists: set[str] = set()
        for style in root.iter(f"{_W}style") if root is not None else ():
            sid = style.get(f"{_W}styleId") or ""
            name = style.find(f"{_W}name")
            self._names[sid] = (name.get(f"{_W}val") if name is not None else "") or ""
            based = style.find(f"{_W}basedOn")
            if based is not None:
                self._based[sid] = based.get(f"{_W}val") or ""
            ppr = style.find(f"{_W}pPr")
            if ppr is not None:
                level = _outline_level(ppr)
                if level is not None:
                    self._outline[sid] = level
                if ppr.find(f"{_W}numPr") is not None:
                    self._lists.add(sid)

    def level(self, sid: str) -> int | None:
        """Heading level of a style (1-9), 0 for a title style, None for any other style."""
        for current in self._chain(sid):
            name = self._names.get(current, current)
            match = _HEADING_NAME.match(name) or _HEADING_NAME.match(current)
            if match:
                return int(match.group(1))
            if name.lower() == "title" or current.lower() == "title":
                return 0
            if current in self._outline:
                return self._outline[current]
        return None

    def is_list(self, sid: str) -> bool:
        return any(s in self._lists or self._names.get(s, s).lower().startswith("list") for s in self._chain(sid))

    def _chain(self, sid: str) -> Iterator[str]:
        seen: set[str] = set()
        while sid and sid not in seen:  # a style based on itself (it happens) ends the chain
            seen.add(sid)
            yield sid
            sid = self._based.get(sid, "")


def _outline_level(ppr: Any) -> int | None:
    """A paragraph's (or style's) outline level as a heading level 1-9; None for body text (level 9)."""
    element = ppr.find(f"{_W}outlineLvl")
    value = element.get(f"{_W}val") if element is not None else None
    if value is None or not value.isdigit() or int(value) >= 9:
        return None
    return int(value) + 1


def _footnotes(root: Any) -> dict[str, str]:
    """Footnote id → its text (the separator notes Word keeps in the part are left out)."""
    notes: dict[str, str] = {}
    for note in root.iter(f"{_W}footnote") if root is not None else ():
        if note.get(f"{_W}type") in ("separator", "continuationSeparator", "continuationNotice"):
            continue
        text = " ".join(" ".join(_runs_text(p, {}) .split()) for p in note.iter(f"{_W}p")).strip()
        if text:
            notes[note.get(f"{_W}id") or ""] = text
    return notes


def _hidden(run: Any) -> bool:
    """A run set hidden (`<w:vanish/>`, not `<w:vanish w:val="0"/>`)."""
    vanish = run.find(f"{_W}rPr/{_W}vanish")
    return vanish is not None and (vanish.get(f"{_W}val") or "true").lower() not in ("0", "false", "off")


def _runs_text(element: Any, refs: dict[str, int]) -> str:
    """The visible text of a paragraph (or any element holding runs), in order.

    Tracked deletions, hidden runs (`w:vanish`: Word neither shows nor prints them) and the fallback copy of a
    drawing's text box are left out; tabs and breaks become whitespace; a footnote reference becomes "[n]",
    numbered in order of first reference.
    """
    out: list[str] = []

    def walk(node: Any) -> None:
        for child in node:
            tag = child.tag
            if tag in (f"{_W}del", _MC_FALLBACK, f"{_W}instrText") or (tag == f"{_W}r" and _hidden(child)):
                continue
            if tag == f"{_W}t":
                out.append(child.text or "")
            elif tag == f"{_W}tab":
                out.append("\t")
            elif tag in (f"{_W}br", f"{_W}cr"):
                out.append("\n")
            elif tag == f"{_W}noBreakHyphen":
                out.append("-")
            elif tag == f"{_W}footnoteReference":
                note = child.get(f"{_W}id") or ""
                out.append(f"[{refs.setdefault(note, len(refs) + 1)}]")
            elif tag == f"{_W}p" and out:
                out.append("\n")  # a text box's paragraphs inside this one
                walk(child)
            else:
                walk(child)

    walk(element)
    return "".join(out)


class _BodyReader:
    """One pass over the body: each paragraph and table handed to a `BlockWriter`, footnotes last."""

    def __init__(self, styles: _Styles, footnotes: dict[str, str]) -> None:
        self.styles = styles
        self.footnotes = footnotes
        self.refs: dict[str, int] = {}
        self.blocks = BlockWriter()

    def read(self, body: Any) -> None:
        self._blocks(body)
        notes = [f"[{n}] {self.footnotes[i]}" for i, n in sorted(self.refs.items(), key=lambda kv: kv[1])
                 if i in self.footnotes]
        self.blocks.footnotes(notes)

    def _blocks(self, container: Any) -> None:
        for child in container:
            if child.tag == f"{_W}p":
                self._paragraph(child)
            elif child.tag == f"{_W}tbl":
                self.blocks.table(_grid(child, self.refs))
            elif child.tag == f"{_W}sdt":  # a content control (a cover page, a table of contents): its content
                gallery = child.find(f"{_W}sdtPr/{_W}docPartObj/{_W}docPartGallery")
                if gallery is not None and (gallery.get(f"{_W}val") or "").lower().startswith("table of contents"):
                    continue  # a generated copy of the headings (page numbers and all), as the PDF reader drops it
                content = child.find(f"{_W}sdtContent")
                if content is not None:
                    self._blocks(content)

    def _paragraph(self, p: Any) -> None:
        text = _runs_text(p, self.refs)
        ppr = p.find(f"{_W}pPr")
        style = ""
        if ppr is not None and (element := ppr.find(f"{_W}pStyle")) is not None:
            style = element.get(f"{_W}val") or ""
        level = self.styles.level(style) if style else None
        if level is None and ppr is not None:
            level = _outline_level(ppr)
        depth = None
        numpr = ppr.find(f"{_W}numPr") if ppr is not None else None
        if numpr is not None or (style and self.styles.is_list(style)):
            depth = 0
            ilvl = numpr.find(f"{_W}ilvl") if numpr is not None else None
            if ilvl is not None and (ilvl.get(f"{_W}val") or "").isdigit():
                depth = int(ilvl.get(f"{_W}val"))
        self.blocks.paragraph(text, level, depth)


def _grid(tbl: Any, refs: dict[str, int]) -> list[list[str]]:
    """A table's cells on its grid: a merged cell's text repeated across the columns (gridSpan) and
    rows (vMerge) it covers, so every value keeps its row label and column header."""
    grid: list[list[str]] = []
    for tr in tbl.findall(f"{_W}tr"):
        row: list[str] = []
        for tc in tr.findall(f"{_W}tc"):
            tcpr = tc.find(f"{_W}tcPr")
            span, merged = 1, False
            if tcpr is not None:
                element = tcpr.find(f"{_W}gridSpan")
                if element is not None and (element.get(f"{_W}val") or "").isdigit():
                    span = max(1, min(int(element.get(f"{_W}val")), 64))
                vmerge = tcpr.find(f"{_W}vMerge")
                merged = vmerge is not None and vmerge.get(f"{_W}val") != "restart"
            column = len(row)
            if merged and grid and column < len(grid[-1]):
                text = grid[-1][column]
            else:
                parts = []
                for p in tc.iter(f"{_W}p"):
                    piece = " ".join(_runs_text(p, refs).split())
                    if piece:
                        parts.append(piece)
                text = " ".join(parts)
            row.extend([text] * span)
        grid.append(row)
    return grid
