"""Excel workbooks (.xlsx, .xlsm): sheets in workbook order, each table's rows under its header row.

A workbook is a zip of XML parts (ECMA-376 part 1, SpreadsheetML): `xl/workbook.xml` lists the sheets
in the order the tabs show them, `xl/_rels/workbook.xml.rels` names each sheet's part
(`xl/worksheets/sheet1.xml`), `xl/sharedStrings.xml` holds the text cells point into, and
`xl/styles.xml` the number format each cell is shown with. Read with the standard library's
`zipfile` and ElementTree (no openpyxl: a dependency for one reader, and it reads dates but shows no
figure as the sheet shows it); a sheet part is streamed (`ElementTree.iterparse`), never held whole,
since one sheet can hold 100,000 rows.

What a reader of the sheet sees is what is written:
- a number as its format shows it: a date cell (a serial day count under a date format: built-in
  formats 14-22 and 45-47, or a custom one with d, m, y, h or s) as the date ("2023-03-31", ISO:
  the built-in date format is shown in the reader's own locale, so no one spelling is "the" sheet's);
  a percentage as "12.5%"; a fixed-decimal or thousands format ("#,##0.00") with its decimals and
  separators, a currency symbol kept; General as the shortest exact figure (0.1 + 0.2 reads "0.3");
- a formula by its cached value (the figure Excel computed when it last saved); one never computed
  (a file written by a program) reads as blank, never as its formula text;
- shared and inline strings, booleans (TRUE / FALSE) and errors (#DIV/0!) as shown;
- a merged cell's value spread over every cell it covers, so a header merged over three columns heads
  each of them and a label merged down a block labels each row.

Each sheet is a section named by the sheet. A sheet's rows split into blocks at blank rows; a block
with one filled column (a title, "Budget 2023", a note) is text, the section's lead; a table's header
row is the first row whose cells are mostly text, rows above it (titles) kept as lead text, and the
table is written with `render_table`: one row a line under its column line, the header in the part's
context so every chunk of it carries its columns (corpus_tools/chunking.py). A second header row under
a header spread over merged cells is joined to it ("Q1 Revenue"). Empty columns are left out.

Hidden sheets are read (a user hides a lookup table or last year's figures, which are still theirs
to find: the tuning folder's hidden sheets hold data), their section says "(hidden)"; "veryHidden"
sheets, which only a macro can show, are program machinery and are left out.

A table wider than `MAX_TABLE_COLUMNS` columns is written in column groups, each a table of its own under the
same row labels (the tuning folder's 23-255-column sheets: a row cut by a passage's end lost its label).

Limits: `MAX_ROWS` rows a sheet (the rest is not read: the document's metadata says so), cells past
column `MAX_COLUMNS` are dropped, a merged range spreads over at most `MAX_MERGE_CELLS` cells.

Refused with a reason (`UnreadableFileError`, via corpus_tools/ooxml.py): a binary .xls renamed, a
password-protected workbook, a truncated file, a zip with no workbook part, broken XML in the
workbook or a sheet. A workbook with no filled cell reads as an empty text (the loader's "empty file").
"""

from __future__ import annotations

import datetime as dt
import math
import posixpath
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from corpus_tools.ooxml import MAX_PART_BYTES, Package, core_properties, open_package, read_part
from corpus_tools.pdf_layout import Row, Table
from corpus_tools.readers import UnreadableFileError, _short
from corpus_tools.structure import PartsWriter, render_table
from corpus_tools.types import DocumentPart

CONVERT_HELP = "open it in Excel or LibreOffice and save it as .xlsx, then index that file"
EXCEL = Package(".xlsx", "Excel", "an Excel workbook", "binary Excel 97-2003 file",
                "File > Info > Protect Workbook > Encrypt with Password (clear it)", CONVERT_HELP)
# A sheet past this many rows is cut (a data dump of 100,000 rows is not read to the end: its first
# rows show what it holds, and one workbook must not take an index's whole budget).
MAX_ROWS = 20_000
MAX_COLUMNS = 256
MAX_MERGE_CELLS = 10_000
# A table wider than this many columns (besides its row labels) is written in groups of this many, each under
# the row labels: twelve figures and a label make a line a 256-token passage holds whole.
MAX_TABLE_COLUMNS = 12
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship"
# Built-in number formats (ECMA-376 part 1, 18.8.30) a cell's style can name without writing them out.
_BUILTIN_FORMATS = {
    0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 9: "0%", 10: "0.00%", 11: "0.00E+00",
    12: "# ?/?", 13: "# ??/??", 14: "yyyy-mm-dd", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM",
    19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss", 22: "yyyy-mm-dd h:mm", 37: "#,##0 ;(#,##0)",
    38: "#,##0 ;[Red](#,##0)", 39: "#,##0.00;(#,##0.00)", 40: "#,##0.00;[Red](#,##0.00)", 45: "mm:ss",
    46: "[h]:mm:ss", 47: "mmss.0", 48: "##0.0E+0", 49: "@",
}
_DATE_IDS = frozenset(range(14, 23)) | {45, 46, 47}
_QUOTED = re.compile(r'"[^"]*"|\\.|_.|\*.')
_BRACKET = re.compile(r"\[[^\]]*\]")
_CURRENCY = re.compile(r"\[\$([^\]-]*)(?:-[0-9A-Fa-f]+)?\]")
_CELL_REF = re.compile(r"^([A-Za-z]{1,3})(\d+)$")
_MAX_SERIAL = 2_958_465  # 9999-12-31
# A cell longer than this is a sentence, not a column name (the tuning folder's data dictionaries: a
# definition sheet's blank rows must not make each definition a header).
_HEADER_CHARS = 60
_YEAR = re.compile(r"^(?:FY\s?)?(?:19|20)\d\d$")


@dataclass(frozen=True)
class XlsxDocument:
    """A workbook read: its title (None when its properties name none), text, parts, metadata and counts."""

    title: str | None
    text: str
    parts: tuple[DocumentPart, ...]
    metadata: dict[str, Any] = field(default_factory=dict)
    sheets: int = 0
    tables: int = 0


def read_xlsx(path: Path) -> XlsxDocument:
    """A workbook's sheets and tables (see the module docstring)."""
    with open_package(path, EXCEL) as archive:
        book = _Book(archive)
        core = core_properties(read_part(archive, "docProps/core.xml", EXCEL))
        writer = PartsWriter()
        counts = {"sheets": 0, "tables": 0}
        capped: list[str] = []
        hidden: list[str] = []
        for name, state, part in book.sheets:
            grid, cut = _read_sheet(archive, part, book.strings, book.styles)
            section = f"{name} (hidden)" if state == "hidden" else name
            if state == "hidden":
                hidden.append(name)
            if cut:
                capped.append(f"{name}: first {MAX_ROWS:,} rows read")
            if grid:
                counts["sheets"] += 1
                counts["tables"] += _write_sheet(writer, grid, section)
    # no filled cell: an empty text, which the loader skips as an "empty file", as it does a blank .docx
    metadata: dict[str, Any] = dict(core)
    title = metadata.pop("title", None)
    if capped:
        metadata["rows_capped"] = "; ".join(capped)
    if hidden:
        metadata["hidden_sheets"] = ", ".join(hidden)
    return XlsxDocument(title, writer.text, tuple(writer.parts), metadata, counts["sheets"], counts["tables"])


def sheet_cells(path: Path, shown: bool = True) -> dict[str, dict[int, dict[int, str]]]:
    """Each read sheet's filled cells, name → row → column → text (0-based), as `read_xlsx` reads them; shown=False:
    numbers as stored, no format applied (a date its serial). For measuring the reading against another reader's."""
    with open_package(path, EXCEL) as archive:
        book = _Book(archive)
        styles = book.styles if shown else _Styles(None, False)
        return {name: _read_sheet(archive, part, book.strings, styles)[0] for name, _state, part in book.sheets}


class _Book:
    """A workbook's parts: its sheets (name, state, part) in tab order, shared strings and styles."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        name = _workbook_part(archive)
        workbook = read_part(archive, name, EXCEL, required=True)
        base = posixpath.dirname(name)
        rels = _resolve(_relationships(read_part(archive, _rels_name(name), EXCEL)), base)
        self.strings = _shared_strings(archive, _target(rels, "sharedStrings") or f"{base}/sharedStrings.xml")
        self.styles = _Styles(read_part(archive, _target(rels, "styles") or f"{base}/styles.xml", EXCEL),
                              _date1904(workbook))
        names = set(archive.namelist())
        self.sheets: list[tuple[str, str, str]] = []
        for sheet, state, rid in _sheets(workbook):
            part = rels.get(rid, ("", ""))[1]
            # a "veryHidden" sheet only a macro shows is left out; a chart sheet or a dangling entry has no cells
            if state != "veryHidden" and part in names and rels[rid][0] == "worksheet":
                self.sheets.append((sheet, state, part))


def _local(tag: str) -> str:
    """A tag or attribute name without its namespace: Strict OOXML files use other namespace URIs."""
    return tag.rsplit("}", 1)[-1]


def _children(element: Any, name: str) -> Iterator[Any]:
    return (child for child in element if _local(child.tag) == name)


def _workbook_part(archive: zipfile.ZipFile) -> str:
    """The workbook part the package's relationships name (xl/workbook.xml in every file seen)."""
    root = read_part(archive, "_rels/.rels", EXCEL)
    for rel in root.iter() if root is not None else ():
        if _local(rel.tag) == "Relationship" and (rel.get("Type") or "").endswith("/officeDocument"):
            target = (rel.get("Target") or "").lstrip("/")
            if target in archive.namelist():
                return target
    if "xl/workbook.xml" in archive.namelist():
        return "xl/workbook.xml"
    raise UnreadableFileError("not an Excel workbook (the zip holds no xl/workbook.xml)")


def _rels_name(part: str) -> str:
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", f"{name}.rels")


def _relationships(root: Any) -> dict[str, tuple[str, str]]:
    """Relationship id → (type's last word, part name in the zip)."""
    found: dict[str, tuple[str, str]] = {}
    for rel in root.iter() if root is not None else ():
        if _local(rel.tag) != "Relationship" or rel.get("TargetMode") == "External":
            continue
        target = rel.get("Target") or ""
        kind = (rel.get("Type") or "").rsplit("/", 1)[-1]
        found[rel.get("Id") or ""] = (kind, target)
    return found


def _target(rels: dict[str, tuple[str, str]], kind: str) -> str | None:
    return next((target for k, target in rels.values() if k == kind), None)


def _resolve(rels: dict[str, tuple[str, str]], base: str) -> dict[str, tuple[str, str]]:
    """Targets made zip names: relative to the workbook's folder, or absolute ("/xl/worksheets/sheet1.xml")."""
    out = {}
    for rid, (kind, target) in rels.items():
        name = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(base, target))
        out[rid] = (kind, name)
    return out


def _date1904(workbook: Any) -> bool:
    for element in workbook.iter():
        if _local(element.tag) == "workbookPr":
            return (element.get("date1904") or "").lower() in ("1", "true")
    return False


def _sheets(workbook: Any) -> Iterator[tuple[str, str, str]]:
    """(name, state, relationship id) of each sheet, in the order of the workbook's tabs."""
    for sheets in _children(workbook, "sheets"):
        for sheet in _children(sheets, "sheet"):
            rid = next((v for k, v in sheet.attrib.items() if k.startswith("{") and _local(k) == "id"), "")
            yield " ".join((sheet.get("name") or "").split()), sheet.get("state") or "visible", rid


def _text_of(element: Any) -> str:
    """A string item's text: its runs' text, phonetic guides (rPh) left out."""
    out: list[str] = []

    def walk(node: Any) -> None:
        for child in node:
            name = _local(child.tag)
            if name == "rPh":
                continue
            if name == "t":
                out.append(child.text or "")
            else:
                walk(child)

    walk(element)
    return "".join(out)


def _shared_strings(archive: zipfile.ZipFile, name: str) -> list[str]:
    if name not in archive.namelist():
        return []
    strings: list[str] = []
    for _event, element in _stream(archive, name):
        if _local(element.tag) == "si":
            strings.append(_text_of(element))
            element.clear()
    return strings


def _stream(archive: zipfile.ZipFile, name: str) -> Iterator[tuple[str, Any]]:
    """A part's elements as each ends (iterparse): the part is never held whole."""
    info = archive.getinfo(name)
    if info.file_size > MAX_PART_BYTES * 4:
        raise UnreadableFileError(f"{name} unpacks to {info.file_size:,} bytes (over {MAX_PART_BYTES * 4:,}: a zip bomb?)")
    try:
        with archive.open(info) as handle:
            yield from ElementTree.iterparse(handle, events=("end",))
    except ElementTree.ParseError as exc:
        raise UnreadableFileError(f"broken XML in {name} ({exc})") from None
    except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError) as exc:
        raise UnreadableFileError(
            f"broken .xlsx: cannot unpack {name} ({type(exc).__name__}: {_short(exc)})"
        ) from None


class _Styles:
    """Each cell style's number format code, and whether the workbook counts days from 1904."""

    def __init__(self, root: Any, date1904: bool) -> None:
        self.date1904 = date1904
        custom: dict[int, str] = {}
        self.formats: list[tuple[int, str]] = []
        if root is None:
            return
        for element in root:
            if _local(element.tag) == "numFmts":
                for fmt in _children(element, "numFmt"):
                    if (fmt.get("numFmtId") or "").isdigit():
                        custom[int(fmt.get("numFmtId"))] = fmt.get("formatCode") or ""
        for element in root:
            if _local(element.tag) == "cellXfs":
                for xf in _children(element, "xf"):
                    fid = int(xf.get("numFmtId")) if (xf.get("numFmtId") or "").isdigit() else 0
                    self.formats.append((fid, custom.get(fid, _BUILTIN_FORMATS.get(fid, "General"))))

    def show(self, value: str, style: str | None) -> str:
        """A number cell's text as its format shows it."""
        try:
            number = float(value)
        except ValueError:
            return value
        if not math.isfinite(number):
            return value
        fid, code = (0, "General")
        if style and style.isdigit() and int(style) < len(self.formats):
            fid, code = self.formats[int(style)]
        return show_number(number, fid, code, self.date1904)


def _bare(code: str) -> str:
    """A format section without its literal text and escapes, brackets kept apart ([h] is elapsed hours)."""
    return _QUOTED.sub("", code)


def is_date_format(fid: int, code: str) -> bool:
    if fid in _DATE_IDS:
        return True
    bare = _BRACKET.sub("", _bare(code.split(";")[0])).lower()
    if "general" in bare:
        return False
    # d, y, h, s only stand in dates and times; m is a month or a minute unless figures stand beside it
    return bool(re.search(r"[dyhs]", bare)) or ("m" in bare and not re.search(r"[0#?]", bare))


def show_number(number: float, fid: int, code: str, date1904: bool = False) -> str:
    """A number as the format `code` (built-in id `fid`) shows it; see the module docstring."""
    if is_date_format(fid, code) and 0 <= number <= _MAX_SERIAL:
        return _show_date(number, fid, code, date1904)
    sections = code.split(";")
    section = sections[0]
    negative = number < 0
    if negative and len(sections) > 1 and sections[1].strip():
        section = sections[1]
        sign = ""
        number = -number
    else:
        sign = "-" if negative else ""
        number = abs(number)
    bare = _bare(section)
    currency = "".join(_CURRENCY.findall(bare)) or "".join(ch for ch in bare if ch in "$€£¥")
    bare = _BRACKET.sub("", bare)
    if "%" in bare:
        return f"{sign}{_fixed(number * 100, _decimals(bare), False)}%"
    if "general" in bare.lower() or not re.search(r"[0#?]", bare) or re.search(r"e[+-]", bare, re.IGNORECASE):
        text = _general(number)
    else:
        text = _fixed(number, _decimals(bare), "," in bare.split(".")[0])
    wrap = "(" in bare and ")" in bare and not sign and negative
    text = f"{currency}{text}"
    return f"({text})" if wrap else f"{sign}{text}"


def _fixed(number: float, decimals: int, commas: bool) -> str:
    """`number` to `decimals` places, halves rounded away from zero as Excel shows them (12.5% at "0%" is 13%)."""
    exact = Decimal(repr(round(number, 12))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    return f"{exact:,f}" if commas else f"{exact:f}"


def _decimals(bare: str) -> int:
    match = re.search(r"\.([0#?]+)", bare)
    return len(match.group(1)) if match else 0


def _general(number: float) -> str:
    """General as Excel shows it: at most 11 characters (ECMA-376 18.8.30: General shows up to 11 digits, the
    decimal point counted), the last digit rounded and trailing zeros dropped (3.25097719979614 reads 3.2509772, and
    0.1 + 0.2 reads 0.3); an integer of 12 digits or more, or a fraction too small to show, in scientific form."""
    size = abs(number)
    if size == 0:
        return "0"
    if number == int(number) and size < 1e11:
        return str(int(number))
    if 1e-5 <= size < 1e11:
        whole = len(str(int(size)))
        decimals = max(0, 10 - whole)  # 11 characters: the whole digits, the point, the decimals
        text = _fixed(size, decimals, False)
        text = text.rstrip("0").rstrip(".") if "." in text else text
        return ("-" if number < 0 else "") + text
    mantissa, exponent = f"{size:.5E}".split("E")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{'-' if number < 0 else ''}{mantissa}E{exponent[0]}{int(exponent[1:]):02d}"


def _show_date(serial: float, fid: int, code: str, date1904: bool) -> str:
    days = math.floor(serial)
    seconds = round((serial - days) * 86400)
    if seconds >= 86400:
        days, seconds = days + 1, 0
    if date1904:
        day = dt.date(1904, 1, 1) + dt.timedelta(days=days)
    elif days == 60:
        day = None  # Excel's 1900-02-29, a day that never was (kept from Lotus 1-2-3)
    else:
        day = dt.date(1899, 12, 31 if days < 60 else 30) + dt.timedelta(days=days)
    bare = _BRACKET.sub("", _bare(code.split(";")[0])).lower()
    if fid in _DATE_IDS:
        bare = _BRACKET.sub("", _BUILTIN_FORMATS[fid]).lower()
    has_time = "h" in bare or "s" in bare or (":" in bare)
    has_date = "d" in bare or "y" in bare or (re.search(r"m", bare) is not None and not has_time)
    hh, rest = divmod(seconds, 3600)
    mm, ss = divmod(rest, 60)
    clock = f"{hh:02d}:{mm:02d}" + (f":{ss:02d}" if "s" in bare else "")
    if "[h" in _bare(code).lower():  # elapsed hours ("[h]:mm:ss"): a duration, not a time of day
        return f"{days * 24 + hh}:{mm:02d}" + (f":{ss:02d}" if "s" in bare else "")
    if not has_date:
        return clock
    text = "1900-02-29" if day is None else (day.isoformat() if "d" in bare or fid in (14, 22) else
                                             day.strftime("%b %Y"))
    return f"{text} {clock}" if has_time and (fid == 22 or "h" in bare) else text


def _column(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def _ref(ref: str) -> tuple[int, int] | None:
    match = _CELL_REF.match(ref or "")
    return (int(match.group(2)) - 1, _column(match.group(1))) if match else None


def _read_sheet(archive: zipfile.ZipFile, part: str, strings: list[str],
                styles: _Styles) -> tuple[dict[int, dict[int, str]], bool]:
    """A sheet's filled cells (row → column → text) and whether it was cut at MAX_ROWS."""
    grid: dict[int, dict[int, str]] = {}
    merges: list[tuple[int, int, int, int]] = []
    row_no, col_no = -1, -1
    cut = False
    for _event, element in _stream(archive, part):
        name = _local(element.tag)
        if name == "c":
            where = _ref(element.get("r") or "")
            if where is None:  # no reference (some writers leave it out): the cell after the last one
                where = (max(row_no, 0), col_no + 1)
            row, col_no = where
            text = _cell_text(element, strings, styles)
            if text and col_no < MAX_COLUMNS:
                grid.setdefault(row, {})[col_no] = text
            element.clear()
        elif name == "row":
            number = element.get("r")
            row_no = int(number) if number and number.isdigit() else row_no + 1
            col_no = -1
            element.clear()
            if len(grid) >= MAX_ROWS:
                cut = True
                break
        elif name == "mergeCell":
            span = (element.get("ref") or "").split(":")
            if len(span) == 2 and (a := _ref(span[0])) and (b := _ref(span[1])):
                merges.append((a[0], a[1], b[0], b[1]))
    for r0, c0, r1, c1 in merges:
        value = grid.get(r0, {}).get(c0)
        if not value or (r1 - r0 + 1) * (c1 - c0 + 1) > MAX_MERGE_CELLS:
            continue
        for r in range(r0, r1 + 1):
            for c in range(c0, min(c1, MAX_COLUMNS - 1) + 1):
                if r in grid or r == r0:
                    grid.setdefault(r, {}).setdefault(c, value)
    return grid, cut


def _cell_text(c: Any, strings: list[str], styles: _Styles) -> str:
    kind = c.get("t") or "n"
    value = None
    inline = None
    for child in c:
        name = _local(child.tag)
        if name == "v":
            value = child.text
        elif name == "is":
            inline = _text_of(child)
    if kind == "inlineStr":
        text = inline or ""
    elif value is None:
        return ""  # a formula never computed, or a styled empty cell
    elif kind == "s":
        text = strings[int(value)] if value.strip().isdigit() and int(value) < len(strings) else ""
    elif kind == "b":
        text = "TRUE" if value.strip() in ("1", "true") else "FALSE"
    elif kind in ("e", "str"):
        text = value
    elif kind == "d":  # an ISO date written as such (Strict files, some writers)
        text = value.replace("T00:00:00", "").rstrip("Z")
    else:
        text = styles.show(value.strip(), c.get("s"))
    return " ".join(text.split())


# ---- a sheet's grid as text: blocks at blank rows, each a table under its header or lead text ----


def _is_text(value: str) -> bool:
    """A header-like cell: words, not a figure, a date or a percentage."""
    stripped = value.replace(",", "").replace("%", "").replace("$", "").replace("(", "").replace(")", "").strip()
    try:
        float(stripped)
        return False
    except ValueError:
        return not re.match(r"^\d{4}-\d\d(-\d\d)?( \d\d:\d\d(:\d\d)?)?$|^\d\d:\d\d", value)


def _is_header(cells: dict[int, str], columns: list[int]) -> bool:
    """A header row: two cells or more, mostly words or years ("2023" heads a column of figures), short ones (a
    column name, not a sentence), across at least half the block's columns."""
    values = list(cells.values())
    if len(set(values)) < 2:  # one value spread over merged cells: a title, not column names
        return False
    named = sum(_is_text(v) or bool(_YEAR.match(v)) for v in values)
    return (len(values) >= 2 and len(values) * 2 >= len(columns) and named * 2 > len(values)
            and sum(len(v) <= _HEADER_CHARS for v in values) * 2 > len(values))


def _write_sheet(writer: PartsWriter, grid: dict[int, dict[int, str]], section: str) -> int:
    """Emit a sheet's blocks (see the module docstring); the number of tables written."""
    rows = sorted(grid)
    blocks: list[list[int]] = []
    for r in rows:
        if blocks and r == blocks[-1][-1] + 1:
            blocks[-1].append(r)
        else:
            blocks.append([r])
    tables = 0
    lead: list[str] = []
    last: dict[int, str] = {}  # the last table's header, column → name: a table cut by a blank row goes on under it
    for block in blocks:
        columns = sorted({c for r in block for c in grid[r]})
        header_at = next((i for i, r in enumerate(block[:10]) if _is_header(grid[r], columns)), None)
        titles: list[str] = []
        if header_at is None and last and len(columns) >= 2 and set(columns) <= set(last) and not lead:
            body, header = block, [last.get(c, "") for c in columns]
        elif len(columns) < 2 or len(block) < 2:
            lead.extend(_line(grid[r]) for r in block)
            continue
        elif header_at is not None:
            titles = [_line(grid[r]) for r in block[:header_at]]
            header_row = grid[block[header_at]]
            body = block[header_at + 1:]
            header = [header_row.get(c, "") for c in columns]
            # a header spread over merged cells ("Q1" over three columns) and a row of names under it
            if body and len(body) > 1 and len(set(header_row.values())) < len(header_row) and \
                    sum(map(_is_text, grid[body[0]].values())) == len(grid[body[0]]):
                under = grid[body[0]]
                header = [" ".join(dict.fromkeys(x for x in (h, under.get(c, "")) if x)) for h, c in zip(header, columns, strict=True)]
                body = body[1:]
        else:
            body = block
            header = [_letters(c) for c in columns]
        lead.extend(titles)
        # the title just above a table ("Budget 2023", a blank row between or not) names it in every chunk of it
        caption = lead[-1] if lead and len(lead[-1]) <= _HEADER_CHARS * 2 else ""
        if lead:
            writer.emit("\n".join(lead), None, section, "text")
            lead = []
        if not body:
            lead.append(" | ".join(h for h in header if h))
            continue
        last = dict(zip(columns, header, strict=True))
        # A wide table is written in column groups, each under the row labels: a row wider than a passage would be
        # cut by the chunker, and its second half would stand without its label and under the wrong columns.
        for at in range(1, max(len(columns), 2), MAX_TABLE_COLUMNS):
            group = columns[at:at + MAX_TABLE_COLUMNS]
            names = header[at:at + MAX_TABLE_COLUMNS]
            table_rows = tuple(Row(grid[r].get(columns[0], ""), tuple(grid[r].get(c, "") for c in group)) for r in body
                               if not group or any(c in grid[r] for c in group))
            if table_rows:
                text, context = render_table(Table(tuple(names), table_rows, header[0], caption))
                writer.emit(text, None, section, "table", context)
        tables += 1
    if lead:
        writer.emit("\n".join(lead), None, section, "text")
    return tables


def _line(cells: dict[int, str]) -> str:
    """A row outside any table, its cells joined; a value spread over merged cells (a title) written once."""
    values = [cells[c] for c in sorted(cells)]
    return " | ".join(v for i, v in enumerate(values) if i == 0 or v != values[i - 1])


def _letters(col: int) -> str:
    out = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out
