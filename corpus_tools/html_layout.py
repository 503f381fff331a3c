"""HTML documents with their structure: headings as sections, tables as rows under their column headers.

An EDGAR .htm filing sets its statements as <table>s padded with spacer cells, "$" and ")" in cells
of their own, and the column headers ("Three Months Ended", "July 1, 2023") in the first rows.
Flattened to text, those rows become "Gross margin 36,413 35,885" with the periods lines away.
Here every table is laid out on a grid (colspan honoured), its leading rows without figures are
its column headers, spacer columns are dropped, and it is written as `structure.render_table`
writes a PDF's tables, as a "table" part whose context (columns, units) every chunk of it carries.
Headings <h1>–<h4> (and <p>/<div> holding only bold text, as EDGAR sets them) give the section path.
A table with no figures (a layout table) stays text.
"""

from __future__ import annotations

import re
from typing import Any

from corpus_tools.pdf_layout import Row, Table, is_number
from corpus_tools.structure import PartsWriter, StructuredText, render_table

_UNITS = re.compile(r"\bin\s+(thousands|millions|billions)\b", re.IGNORECASE)
_HEADINGS = ("h1", "h2", "h3", "h4")
# Below this share of the page's visible characters the block reading lost text: the page is read flat.
LOST_TEXT_SHARE = 0.8
_SIGNS = frozenset({"$", "%", ")", "(", "€", "£"})


def title_and_strip(soup: Any) -> str | None:
    """The page's title (<title>, else the first <h1>), after which what never shows is dropped
    from `soup` (scripts, styles, the head). Shared with `readers.read_html`'s flat reading."""
    title = None
    for tag in (soup.title, soup.find("h1")):
        if tag is not None and tag.get_text(strip=True):
            title = " ".join(tag.get_text(" ", strip=True).split())
            break
    for tag in soup(["script", "style", "noscript", "template", "head"]):
        tag.decompose()
    return title


def html_structure(html: str) -> tuple[str | None, StructuredText]:
    """(title, structured text) of an HTML page (see the module docstring)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    title = title_and_strip(soup)
    writer = PartsWriter()
    counts = {"tables": 0, "rows": 0, "with_headers": 0}
    section: list[str] = []
    pending: list[str] = []

    def emit(piece: str, kind: str = "text", context: str = "") -> None:
        writer.emit(piece, None, " > ".join(section), kind, context)

    def flush() -> None:
        if pending:
            emit("\n".join(pending))
            pending.clear()

    body = soup.body or soup
    for element in _blocks(body):
        if element.name == "table":
            table = read_table(element)
            if table is None:
                pending.extend(_lines(element.get_text("\n")))
                continue
            flush()
            counts["tables"] += 1
            counts["rows"] += len(table.rows)
            counts["with_headers"] += len(table.rows) if all(table.columns) else 0
            text, context = render_table(table)
            emit(text, "table", context)
            continue
        text = " ".join(element.get_text(" ").split())
        if not text:
            continue
        level = _heading_level(element, text)
        if level:
            flush()
            del section[level - 1 :]
            section.append(text[:90])
        pending.append(text)
    flush()
    text = writer.text
    flat = body.get_text("\n")
    if len("".join(text.split())) < LOST_TEXT_SHARE * len("".join(flat.split())):
        # Text outside the blocks read here (bare text in <body>, exotic markup): keep it all, flat.
        text = "\n".join(_lines(flat))
        return title, StructuredText(text, (), 0, 0, 0, 0, 0)
    return title, StructuredText(text, tuple(writer.parts), counts["tables"], counts["rows"], counts["with_headers"], 0, 0)


def _blocks(root: Any) -> list[Any]:
    """The page's tables and innermost text blocks, in order (a table's cells are not blocks of their own)."""
    found = []
    for element in root.find_all(["table", "p", "div", "li", *_HEADINGS], recursive=True):
        if element.find_parent("table") is not None:
            continue
        if element.name != "table" and element.find(["table", "p", "div", "li", *_HEADINGS]) is not None:
            continue  # a container: its children are the blocks
        found.append(element)
    return found


def _heading_level(element: Any, text: str) -> int:
    if element.name in _HEADINGS:
        return min(int(element.name[1]), 3)
    if len(text) > 90 or text.endswith((".", ",", ";")):
        return 0
    bold = element.find_all(["b", "strong"]) or [
        s for s in element.find_all("span") if "bold" in (s.get("style") or "").replace(" ", "") or
        "font-weight:700" in (s.get("style") or "").replace(" ", "")]
    bold_text = " ".join(" ".join(b.get_text(" ").split()) for b in bold)
    return 3 if bold and bold_text.strip() == text else 0


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def read_table(element: Any) -> Table | None:
    """A <table> as rows under column headers; None for a table without figures (layout, contents pages)."""
    grid = []
    for tr in element.find_all("tr"):
        row: list[str] = []
        for cell in tr.find_all(["td", "th"]):
            text = " ".join(cell.get_text(" ").split())
            span = int(cell.get("colspan", 1)) if str(cell.get("colspan", 1)).isdigit() else 1
            row.extend([text] + [""] * (span - 1) if span > 1 and not text else [text] * max(span, 1))
        if any(row):
            grid.append(row)
    if not grid:
        return None
    width = max(len(r) for r in grid)
    grid = [r + [""] * (width - len(r)) for r in grid]
    # A row whose cells other than the first hold a figure is a body row; the rows above the first are headers.
    first_body = next((i for i, r in enumerate(grid) if any(_figure(c) for c in r[1:])), None)
    if first_body is None:
        return None
    header, body = grid[:first_body], grid[first_body:]
    value_cols = [j for j in range(1, width) if any(_figure(r[j]) for r in body)]
    if not value_cols:
        return None
    rows = []
    for r in body:
        label = " ".join(c for c in r[: value_cols[0]] if c and c not in _SIGNS) or r[0]
        values = tuple(_clean(r[j], r[j + 1] if j + 1 < width else "") for j in value_cols)
        if any(values) or label:
            rows.append(Row(label, values))
    columns = tuple(" ".join(h[j] for h in header if h[j]).strip() for j in value_cols)
    context = " ".join(" ".join(h) for h in header)
    units = _UNITS.search(context)
    return Table(columns, tuple(rows), f"in {units.group(1).lower()}" if units else "", "")


def _figure(cell: str) -> bool:
    text = cell.replace("$", "").strip()
    return bool(text) and is_number(text) and not _year(text)


def _year(cell: str) -> bool:
    return bool(re.fullmatch(r"(?:19|20)\d\d", cell.strip()))


def _clean(value: str, after: str) -> str:
    """A figure cell with the sign its neighbour holds ("12.5" + "%", "(265" + ")")."""
    value = value.replace("$", "").strip()
    if after.strip() in ("%", ")") and value:
        value += after.strip()
    return value
