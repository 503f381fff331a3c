"""Rich Text Format files (.rtf): paragraphs in order, headings as sections, tables as rows, footnotes last.

RTF is what TextEdit, WordPad, legal and medical systems, and "Save as RTF" write: a stream of groups
(`{…}`), control words (`\\par`, `\\s2`, `\\u8212`) and text. Read here in one pass with the standard
library (the RTF 1.9.1 specification's model), and written through `blocks.BlockWriter` as a .docx is:

- **Text and its encoding.** Bytes escaped as `\\'hh` (and raw 8-bit bytes) are decoded in the code page
  in force: the document's (`\\ansicpg1251`, `\\mac`, `\\pc`) or the current font's (`\\fcharset204`
  is Cyrillic, 128 Shift-JIS…), so a Russian or Japanese RTF reads as its author wrote it; `\\uN` is a
  Unicode character (surrogate pairs joined) whose `\\ucN` fallback characters are skipped.
- **What is no text**: font, colour, style and list tables, pictures and embedded objects' data,
  headers and footers (page furniture, as the PDF reader leaves it out), field instructions (a
  hyperlink's URL; its shown text is kept), hidden text (`\\v`, which Word neither shows nor prints),
  annotations, index and TOC entries and the generated result of a TOC or INDEX field, shape properties, and
  every `{\\*\\dest …}` a reader does not know.
- **Structure**: a paragraph whose style is named "heading N" (or carries `\\outlinelevelN`) is a heading
  of that level, "Title" the title; list paragraphs (`\\ls`, `\\ilvl`, or a `\\listtext` / `\\pntext`
  number) are "- " items; table rows (`\\cell` … `\\row`) are rows under their header; footnotes
  (`{\\footnote …}`) are numbered where they are called and written under "Footnotes".
- **Properties**: `{\\info{\\title}{\\author}{\\creatim}{\\revtim}}` give the title, author and dates.

Refused with a reason (`UnreadableFileError`): a file that does not open with `{\\rtf` (a text file
named .rtf), and one over `MAX_RTF_BYTES`. A file cut short (groups left open at its end) is read up to
the cut, and says so in its metadata (`read_note`).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus_tools.blocks import BlockWriter, WordDocument
from corpus_tools.readers import UnreadableFileError, is_meaningful_title, read_limited

MAX_RTF_BYTES = 256 * 1024 * 1024
# One token: a control word with its optional number (a space after it is its delimiter, and part of it),
# a hex-escaped byte, a control symbol, a brace, a run of text, or line ends (which RTF ignores).
_TOKEN = re.compile(r"\\([a-zA-Z]{1,32})(-?\d{1,10})? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z'])|([{}])|([^\\{}\r\n]+)|[\r\n]+|\\")
# Destinations whose content is no text of the document.
_SKIP = frozenset({
    "colortbl", "pict", "objdata", "objclass", "objname", "header", "headerl", "headerr", "headerf", "footer",
    "footerl", "footerr", "footerf", "fldinst", "listtable", "listoverridetable", "rsidtbl", "generator",
    "themedata", "colorschememapping", "datastore", "latentstyles", "xmlnstbl", "filetbl", "revtbl", "pgdsctbl",
    "mmathPr", "nonshppict", "sn", "sv", "bkmkstart", "bkmkend", "atnid", "atnauthor", "annotation", "atrfstart",
    "atrfend", "atndate", "xe", "tc", "tcn", "template", "userprops", "docvar", "ftnsep", "ftnsepc", "aftnsep",
    "aftnsepc", "pnseclvl", "pn", "listtext", "pntext", "protusertbl", "wgrffmtfilter", "passwordhash",
    "fchars", "lchars", "bookmark", "formfield", "datafield", "blipuid", "pgptbl", "xmlopen", "xmlclose",
    "fontemb", "fontfile", "falt", "panose", "keycode", "defchp", "defpap", "shppict", "shpinst", "ud",
})
# The info fields read as properties.
_INFO_TEXT = {"title": "title", "author": "author", "subject": "subject"}
_INFO_TIME = {"creatim": "created", "revtim": "modified"}
# \fcharsetN → code page (the RTF specification's table; 0, 1 = the document's own, 2 = symbol fonts).
_CHARSET_CODEPAGE = {
    77: "mac_roman", 128: "cp932", 129: "cp949", 130: "johab", 134: "gbk", 136: "cp950", 161: "cp1253",
    162: "cp1254", 163: "cp1258", 177: "cp1255", 178: "cp1256", 186: "cp1257", 204: "cp1251", 222: "cp874",
    238: "cp1250", 254: "cp437", 255: "cp850",
}
_DOC_CODEPAGE = {"ansi": "cp1252", "mac": "mac_roman", "pc": "cp437", "pca": "cp850"}
_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_SYMBOLS = {"~": "\u00a0", "_": "\u2011", "-": "", "{": "{", "}": "}", "\\": "\\", "|": "", ":": ""}
_CHAR_WORDS = {
    "tab": "\t", "emdash": "\u2014", "endash": "\u2013", "emspace": "\u2003", "enspace": "\u2002",
    "qmspace": "\u2005", "bullet": "\u2022", "lquote": "\u2018", "rquote": "\u2019", "ldblquote": "\u201c",
    "rdblquote": "\u201d", "zwj": "\u200d", "zwnj": "\u200c", "line": "\n", "lbr": "\n",
}


def read_rtf(path: Path) -> WordDocument:
    """An RTF file with its sections and tables (see the module docstring)."""
    return read_rtf_bytes(read_limited(path, MAX_RTF_BYTES, ": an RTF this large is mostly embedded pictures; save "
                                                            "it as .docx or PDF and index that file"))


def read_rtf_bytes(data: bytes) -> WordDocument:
    """The same, from the file's bytes."""
    text = data.decode("latin-1")  # one character per byte: \bin counts bytes, and \'hh decodes later
    start = len(text) - len(text.lstrip("\ufeff\u00ef\u00bb\u00bf \t\r\n\0"))
    if not text.startswith("{\\rtf", start):
        raise UnreadableFileError("not an RTF file (it does not begin with {\\rtf): a text file named .rtf? "
                                  "rename it .txt, or open it and save it as RTF again")
    reader = _Reader()
    reader.read(text, start)
    blocks = reader.blocks
    meta = dict(reader.info)
    title = meta.pop("title", None)
    if title and not is_meaningful_title(title):
        title = None
    if reader.open_groups:
        meta["read_note"] = (f"the file ends inside {reader.open_groups} open group(s) (cut short?): its text is "
                             "read up to the cut")
    return WordDocument.written(blocks, title, meta)


@dataclass
class _Group:
    """What a group changes and its closing brace restores."""

    skip: bool = False  # inside a destination that is no text
    uc: int = 1  # fallback characters after \uN
    codepage: str | None = None  # the current font's, when it names one
    dest: str = ""  # the destination being read: "", "fonttbl", "stylesheet", "info:title", "footnote", …
    style: int = 0  # paragraph style (\sN)
    outline: int | None = None  # \outlinelevelN
    in_table: bool = False  # \intbl
    list_level: int | None = None  # \ilvlN
    in_list: bool = False  # \lsN, or a list number read
    star: bool = False  # opened with {\*: a destination unknown to the reader is skipped
    hidden: bool = False  # \v: hidden text, which Word does not show or print


class _Reader:
    def __init__(self) -> None:
        self.blocks = BlockWriter()
        self.info: dict[str, Any] = {}
        self.doc_codepage = "cp1252"
        self.font_codepage: dict[int, str] = {}
        self.style_names: dict[int, str] = {}
        self.style_outline: dict[int, int] = {}
        self.chars: list[str] = []  # the paragraph (or cell, or footnote) being read
        self.raw = bytearray()  # escaped bytes waiting to be decoded together (a DBCS character is two)
        self.raw_codepage = "cp1252"
        self.raw_group = _Group()
        self.high_surrogate: int | None = None
        self.fallback = 0  # fallback characters still to skip after \uN
        self.row: list[str] = []  # cells of the table row being read
        self.grid: list[list[str]] = []  # rows of the table being read
        self.notes: list[str] = []
        self.saved_chars: list[list[str]] = []  # the body's paragraph while a footnote is read
        self.instruction: list[str] = []  # the last field instruction read
        self.open_groups = 0
        # a destination's own text: a font's name (for its charset), a style's name, an info field
        self.dest_text: list[str] = []
        self.dest_number: int | None = None
        self.dest_charset: int | None = None
        self.time: dict[str, int] = {}

    # ---------------------------------------------------------------- the token loop

    def read(self, text: str, start: int) -> None:
        stack: list[_Group] = []
        group = _Group()
        pos, end = start, len(text)
        while pos < end:
            m = _TOKEN.match(text, pos)
            if m is None:  # unreachable: the last alternative matches a lone backslash
                break
            pos = m.end()
            word, number, hexbyte, symbol, brace, run = m.groups()
            if brace == "{":
                self._flush_raw()
                stack.append(group)
                group = _Group(group.skip, group.uc, group.codepage, group.dest, group.style, group.outline,
                               group.in_table, group.list_level, group.in_list, hidden=group.hidden)
                self.fallback = 0
            elif brace == "}":
                self._flush_raw()
                self._close(group, stack[-1] if stack else None)
                if not stack:
                    break  # a stray closing brace before any group: nothing more is RTF
                group = stack.pop()
                self.fallback = 0
                if not stack:
                    break  # the document's own group closed: what follows (a NUL, a second copy) is no RTF
            elif word is not None:
                param = int(number) if number is not None else None
                if word == "bin" and param:
                    pos += max(param, 0)  # binary data (a picture's): skipped by its length
                    continue
                starting = text[m.start() - 1:m.start()] == "{" or (group.star and _after_star(text, m))
                self._word(group, word, param, starting)
            elif hexbyte is not None:
                if group.skip:
                    continue
                if self.fallback:
                    self.fallback -= 1
                    continue
                self._byte(group, int(hexbyte, 16))
            elif symbol is not None:
                if symbol == "*":
                    group.star = True  # an ignorable destination follows: skipped unless the reader knows it
                    continue
                if symbol == "\n" or symbol == "\r":  # "\" before a line end: \par
                    self._word(group, "par", None, starting=False)
                elif not group.skip:
                    self._text(group, _SYMBOLS.get(symbol, symbol))
            elif run is not None:
                if group.skip:
                    if group.dest == "fldinst":  # a field's instruction: "TOC \\o …", "HYPERLINK …"
                        self.instruction.append(run)
                    continue
                if self.fallback:
                    skip = min(self.fallback, len(run))
                    self.fallback -= skip
                    run = run[skip:]
                if any(ord(c) > 127 for c in run):  # raw 8-bit bytes: the code page's characters
                    for c in run:
                        if ord(c) > 127:
                            self._byte(group, ord(c))
                        else:
                            self._text(group, c)
                elif run:
                    self._text(group, run)
        self._flush_raw()
        self.open_groups = len(stack)
        self._end_paragraph(group)
        self._end_table()
        self.blocks.footnotes(self.notes)

    # ---------------------------------------------------------------- control words

    def _word(self, group: _Group, word: str, param: int | None, starting: bool) -> None:
        if starting and (word in _SKIP or (group.star and word not in ("footnote", "shptxt", "fldrslt"))):
            group.skip, group.dest = True, word
            if word == "fldinst":
                self.instruction = []
            return
        if starting and word in ("fonttbl", "stylesheet", "info", "footnote", "fldrslt", "shptxt", "field"):
            # never un-skips a header's field; a table of contents' or an index's result is a generated copy of the
            # headings (page numbers and all), left out as the PDF reader leaves it
            generated = word == "fldrslt" and "".join(self.instruction).split()[:1] in (["TOC"], ["INDEX"])
            group.skip = group.skip or generated or word in ("fonttbl", "stylesheet", "info")
            group.dest = word
            if word == "footnote" and not group.skip:
                self._open_footnote()
            return
        if group.dest in ("fonttbl", "fonttbl:font"):
            if word == "f" and param is not None:
                self._record_font()  # TextEdit lists its fonts in one group: "\f0 …Helvetica;\f1 …"
                group.dest, self.dest_number, self.dest_charset = "fonttbl:font", param, None
            elif word == "fcharset" and param is not None:
                self.dest_charset = param
            elif word == "cpg" and param is not None:
                self.dest_charset = -param  # a code page named outright
            return
        if group.dest in ("stylesheet", "stylesheet:style"):
            if word == "s" and param is not None:
                group.dest, self.dest_number, group.skip = "stylesheet:style", param, False  # its name is read
                self.dest_text = []
            elif word == "outlinelevel" and param is not None and self.dest_number is not None:
                self.style_outline[self.dest_number] = param
            elif word in ("cs", "ds", "ts"):
                group.dest, self.dest_number = "stylesheet:other", None
            return
        if group.dest.startswith("info"):
            if starting and word in _INFO_TEXT:
                group.dest, self.dest_text, group.skip = f"info:{_INFO_TEXT[word]}", [], False  # its text is read
            elif starting and word in _INFO_TIME:
                group.dest, self.time = f"info-time:{_INFO_TIME[word]}", {}
            elif group.dest.startswith("info-time:") and param is not None and word in ("yr", "mo", "dy", "hr", "min"):
                self.time[word] = param
            return
        if group.skip:
            return
        if word in ("ansi", "mac", "pc", "pca"):
            self.doc_codepage = _DOC_CODEPAGE[word]
        elif word == "ansicpg" and param:
            self.doc_codepage = _codepage(f"cp{param}") or self.doc_codepage
        elif word == "f" and param is not None:
            self._flush_raw()
            group.codepage = self.font_codepage.get(param)
        elif word == "uc" and param is not None:
            group.uc = max(param, 0)
        elif word == "u" and param is not None:
            self._unicode(group, param)
        elif word in ("par", "sect", "page"):
            if group.in_table or self.saved_chars:
                self._text(group, "\n")  # a paragraph inside a cell or a footnote: a line of it
            else:
                self._end_paragraph(group)
        elif word in ("cell", "nestcell"):
            self._flush_raw()
            self.row.append(" ".join("".join(self.chars).split()))
            self.chars = []
        elif word in ("row", "nestrow"):
            self._flush_raw()
            if "".join(self.chars).strip():  # text after the last \cell: its own cell
                self.row.append(" ".join("".join(self.chars).split()))
            self.chars = []
            if self.row:
                self.grid.append(self.row)
            self.row = []
        elif word == "pard":
            group.style, group.outline, group.in_table, group.list_level, group.in_list = 0, None, False, None, False
        elif word == "s" and param is not None:
            group.style = param
        elif word == "outlinelevel" and param is not None:
            group.outline = param
        elif word == "intbl":
            group.in_table = True
        elif word == "ls":
            group.in_list = True
        elif word == "ilvl" and param is not None:
            group.list_level = param
        elif word == "v":
            self._flush_raw()
            group.hidden = param != 0
        elif word == "plain":
            self._flush_raw()
            group.hidden = False
        elif word in _CHAR_WORDS:
            self._text(group, _CHAR_WORDS[word])

    def _close(self, group: _Group, outer: _Group | None) -> None:
        """A group ends: what its destination read goes where it belongs."""
        dest = group.dest
        if outer is not None and outer.dest == dest:
            return  # a group nested inside the same destination (a font name in braces)
        if dest == "fonttbl:font":
            self._record_font()
        elif dest == "stylesheet:style" and self.dest_number is not None:
            self.style_names[self.dest_number] = "".join(self.dest_text).split(";")[0].strip()
            self.dest_number = None
        elif dest.startswith("info:"):
            value = " ".join("".join(self.dest_text).split())
            if value:
                self.info[dest.split(":", 1)[1]] = value
        elif dest.startswith("info-time:") and {"yr", "mo", "dy"} <= self.time.keys():
            t = self.time
            if 1 <= t["mo"] <= 12 and 1 <= t["dy"] <= 31:
                self.info[dest.split(":", 1)[1]] = f"{t['yr']:04d}-{t['mo']:02d}-{t['dy']:02d}"
        elif dest == "footnote" and not group.skip:
            self._close_footnote()
        elif dest in ("pntext", "listtext") and outer is not None:
            outer.in_list = True  # a list number was written before this paragraph

    def _record_font(self) -> None:
        """The font being read in the font table, with its code page when its charset names one."""
        if self.dest_number is None:
            return
        charset = self.dest_charset
        page = _codepage(f"cp{-charset}") if charset is not None and charset < 0 else (
            _CHARSET_CODEPAGE.get(charset) if charset is not None else None)
        if page:
            self.font_codepage[self.dest_number] = page
        self.dest_number = None

    # ---------------------------------------------------------------- text

    def _text(self, group: _Group, piece: str) -> None:
        self._flush_raw()
        if not piece.isprintable():  # NULs and other controls some writers leave in runs: no text
            piece = _CONTROLS.sub("", piece)
        if group.dest.startswith(("info:", "stylesheet:style")):
            self.dest_text.append(piece)
        elif not group.skip and not group.hidden:
            self.chars.append(piece)

    def _byte(self, group: _Group, value: int) -> None:
        page = group.codepage or self.doc_codepage
        if self.raw and page != self.raw_codepage:
            self._flush_raw()
        self.raw_codepage = page
        self.raw.append(value)
        self.raw_group = group

    def _flush_raw(self) -> None:
        if not self.raw:
            return
        piece = bytes(self.raw).decode(self.raw_codepage, errors="replace")
        self.raw.clear()
        group = self.raw_group
        if group.dest.startswith(("info:", "stylesheet:style")):
            self.dest_text.append(piece)
        elif not group.skip and not group.hidden:
            self.chars.append(piece)

    def _unicode(self, group: _Group, value: int) -> None:
        if value < 0:
            value += 65536
        self.fallback = group.uc
        if 0xD800 <= value < 0xDC00:
            self.high_surrogate = value
            return
        if 0xDC00 <= value < 0xE000 and self.high_surrogate is not None:
            value = 0x10000 + ((self.high_surrogate - 0xD800) << 10) + (value - 0xDC00)
        self.high_surrogate = None
        if 0xD800 <= value < 0xE000:
            return  # a lone surrogate: no character
        self._text(group, chr(value))

    # ---------------------------------------------------------------- paragraphs, tables, footnotes

    def _end_paragraph(self, group: _Group) -> None:
        self._flush_raw()
        text = "".join(self.chars)
        self.chars = []
        if not text.strip():
            return
        self._end_table()
        name = self.style_names.get(group.style, "")
        level: int | None = None
        if name.lower() == "title":
            level = 0
        elif (found := _HEADING_NAME.match(name)) is not None:
            level = int(found.group(1))
        elif group.outline is not None and 0 <= group.outline < 9:
            level = group.outline + 1
        elif group.style in self.style_outline and 0 <= self.style_outline[group.style] < 9:
            level = self.style_outline[group.style] + 1
        depth = (group.list_level or 0) if group.in_list else None
        self.blocks.paragraph(text, level, depth)

    def _end_table(self) -> None:
        if self.row:
            self.grid.append(self.row)
            self.row = []
        if self.grid:
            self.blocks.flush()
            self.blocks.table(self.grid)
            self.grid = []

    def _open_footnote(self) -> None:
        self._flush_raw()
        self.notes.append("")
        self.chars.append(f"[{len(self.notes)}]")
        self.saved_chars.append(self.chars)
        self.chars = []

    def _close_footnote(self) -> None:
        self._flush_raw()
        text = " ".join("".join(self.chars).split())
        self.notes[-1] = f"[{len(self.notes)}] {text}".rstrip()
        self.chars = self.saved_chars.pop() if self.saved_chars else []


def _after_star(text: str, m: re.Match[str]) -> bool:
    """A control word right after `{\\*`: the word names an ignorable destination."""
    return text[max(m.start() - 3, 0):m.start()] == "{\\*" or text[max(m.start() - 4, 0):m.start()].rstrip() == "{\\*"


def _codepage(name: str) -> str | None:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None
