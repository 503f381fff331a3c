"""A Jupyter notebook (.ipynb) read as a document: its cells as a person reads them, not its JSON.

A notebook is a page of Markdown cells and code cells with what the code printed. It is read into
the same `markup.MarkupDocument` a Markdown page gives (sections under their heading path, code
blocks as parts of kind "code", tables through `structure.render_table`), so chunking, section
titles, defined names and `ask`'s excerpts work on it unchanged:

- Markdown cells through the Markdown reader (markdown_reader.read_into), all cells into one writer:
  a heading in one cell is the section of the cells after it; nbformat 3's "heading" cells too;
- code cells verbatim as code blocks (IPython magics and `!shell` lines are code too); the kernel's
  language goes into the metadata; execution counts ("In [3]:") are never text;
- outputs under their cell, labelled "Output:": plain text and stdout kept, the first
  `OUTPUT_LINES` lines of a long one with a count of the rest; a DataFrame's HTML table read as a
  table (its first `TABLE_ROWS` rows); an error as its exception line, ANSI colours removed;
  images, widgets, JavaScript, stderr (warnings, progress bars) and the text twins of images
  ("<Figure size 640x480 with 1 Axes>") and of objects ("<... at 0x7f...>") dropped and counted
  in `MarkupDocument.dropped`, so nothing leaves unsaid.

A file that is not a notebook (invalid JSON, no cells) raises UnreadableFileError with the reason; a
cell the reader cannot read is left out with a note, never the whole notebook.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from corpus_tools import markdown_reader
from corpus_tools.markup import MarkupDocument, SectionWriter, split_lines, strip_html
from corpus_tools.readers import UnreadableFileError, decode_text

# An output is read for what it says, not kept whole: a 5,000-line training log says as much in its first lines.
OUTPUT_LINES = 12
OUTPUT_LINE_CHARS = 300
TABLE_ROWS = 20
# A notebook over this size is refused before it is parsed (a parsed JSON costs several times its size in memory);
# notebooks of tens of MB are nearly all base64 images and are read (their images dropped).
MAX_NOTEBOOK_BYTES = 256 * 1024 * 1024
OUTPUT_LABEL = "Output:"

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[@-Z\\-_]")
# The text/plain of an object with no repr of its own: "<matplotlib.axes._subplots.AxesSubplot at 0x7f…>",
# "[<matplotlib.lines.Line2D at 0x1a…>]", "<Figure size 432x288 with 1 Axes>": what a plot cell returns; and
# "<IPython.core.display.HTML object>", the text twin of a progress bar (fastai's training loop shows one per epoch).
_OBJECT_REPR = re.compile(r"^\[?\s*<[^<>]*(?:\bat 0x[0-9a-fA-F]+|Figure size [^<>]*|[\w.] object)>\s*(?:,\s*<[^<>]*>\s*)*\]?$")
# In a cell that drew a figure, the value its last line returned is the plotting call's ("<Axes: ylabel='Count'>",
# "[Text(0.5, 0, 'x')]", "(-1.0, 1.0, -1.0, 1.0)" from plt.axis): the figure is what the author meant to show.
_PLOT_RETURN = re.compile(r"^\[?\s*(?:<|Text\(|\(-?\d)")
_IMAGE_TYPES = ("image/",)
_DROPPED_TYPES = {"application/javascript": "javascript", "application/vnd.jupyter.widget-view+json": "widget",
                  "application/vnd.jupyter.widget-state+json": "widget"}


def read_notebook_file(path: Path) -> MarkupDocument:
    """`read_notebook` of a file, its size checked before it is read."""
    try:
        size = path.stat().st_size
        if size > MAX_NOTEBOOK_BYTES:
            raise UnreadableFileError(_too_large(size))
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None
    return read_notebook(data)


def _too_large(size: int) -> str:
    return (f"notebook of {size / 2**20:,.0f} MB is over the {MAX_NOTEBOOK_BYTES // 2**20} MB a notebook is read at; "
            "clear its outputs (jupyter nbconvert --clear-output) and index it again")


def read_notebook(data: bytes | str) -> MarkupDocument:
    """A notebook's bytes (or text) read as a document (see the module docstring).

    Raises UnreadableFileError when it is not a notebook (not JSON, no cell list) or has no text at all.
    """
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise UnreadableFileError(_too_large(len(data)))
    text = decode_text(data)[0] if isinstance(data, bytes) else data
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableFileError(f"not a Jupyter notebook: invalid JSON ({exc.msg} at line {exc.lineno} column "
                                  f"{exc.colno})") from None
    cells, notes = _cells(notebook)
    metadata = notebook.get("metadata") if isinstance(notebook.get("metadata"), Mapping) else {}
    language = _language(metadata)
    writer = SectionWriter()
    open_blocks = 0
    read = 0
    for index, cell in enumerate(cells):
        if not isinstance(cell, Mapping):
            notes.append(f"cell {index + 1} is a {type(cell).__name__}, not a cell: left out")
            continue
        source = _text(cell.get("source", cell.get("input", "")))
        if source is None:
            notes.append(f"cell {index + 1}'s source is a {type(cell.get('source')).__name__}: left out")
            continue
        kind = cell.get("cell_type")
        if kind == "markdown":
            writer.line("")
            open_blocks += len(markdown_reader.read_into(writer, notes, split_lines(source)))
            writer.end_block()
        elif kind == "heading":  # nbformat 3: a heading is a cell of its own, with its level
            level = cell.get("level") if isinstance(cell.get("level"), int) else 1
            writer.heading(max(1, min(level, 6)), markdown_reader.inline(" ".join(source.split()), writer))
        elif kind == "code":
            writer.code(split_lines(source))
            _outputs(writer, cell.get("outputs"), notes, index)
        elif kind == "raw":  # text for nbconvert (LaTeX, reST) the notebook itself never shows
            if source.strip():
                writer.dropped["raw cell"] += 1
            continue
        else:
            notes.append(f"cell {index + 1} of unknown type {kind!r}: left out")
            continue
        read += 1
    if open_blocks:
        notes.append(f"{open_blocks} admonition(s) not closed within their cell")
    title = metadata.get("title") if isinstance(metadata.get("title"), str) and metadata["title"].strip() else None
    document = writer.document(" ".join(title.split()) if title else None,
                               {"language": language} if language else {}, notes)
    if not document.text.strip():
        raise UnreadableFileError(f"empty notebook ({len(cells)} cell(s), none with text)")
    return document


def _cells(notebook: Any) -> tuple[list[Any], list[str]]:
    """The cell list of nbformat 4 (`cells`) or 3 (`worksheets[].cells`), and a note when it is the old format."""
    if not isinstance(notebook, Mapping):
        raise UnreadableFileError(f"not a Jupyter notebook: the JSON holds a {type(notebook).__name__}, not an object")
    if isinstance(notebook.get("cells"), list):
        return list(notebook["cells"]), []
    worksheets = notebook.get("worksheets")
    if isinstance(worksheets, list):
        cells = [c for sheet in worksheets if isinstance(sheet, Mapping) and isinstance(sheet.get("cells"), list)
                 for c in sheet["cells"]]
        return cells, [f"nbformat {notebook.get('nbformat', 3)} notebook (worksheets): read as nbformat 4"]
    raise UnreadableFileError("not a Jupyter notebook: no 'cells' list (nor nbformat 3 'worksheets')")


def _language(metadata: Mapping[str, Any]) -> str | None:
    """The kernel's language: kernelspec.language, else language_info.name (nbformat 3: metadata.language)."""
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        value = metadata.get(key)
        if isinstance(value, Mapping) and isinstance(value.get(field), str) and value[field].strip():
            return value[field].strip().lower()
    value = metadata.get("language")
    return value.strip().lower() if isinstance(value, str) and value.strip() else None


def _text(value: Any) -> str | None:
    """A multiline field (a list of lines, or one string as some writers save it); None when it is neither."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    return None


def _outputs(writer: SectionWriter, outputs: Any, notes: list[str], index: int) -> None:
    if not isinstance(outputs, list):
        return
    drew = any(isinstance(o, Mapping) and _has_image(o) for o in outputs)
    for output in outputs:
        if not isinstance(output, Mapping):
            notes.append(f"cell {index + 1} has an output that is a {type(output).__name__}: left out")
            continue
        kind = output.get("output_type")
        if kind == "stream":
            if output.get("name", output.get("stream")) == "stderr":  # warnings, progress bars: not what it says
                writer.dropped["stderr output"] += 1
            else:
                _lines(writer, _text(output.get("text")) or "")
        elif kind in ("error", "pyerr"):
            _error(writer, output)
        elif kind in ("execute_result", "display_data", "pyout"):
            _data(writer, output, drew)


def _mime(output: Mapping[str, Any]) -> Mapping[str, Any]:
    data = output.get("data")
    if not isinstance(data, Mapping):  # nbformat 3 keeps the types on the output itself ("text", "html", "png")
        data = {_V3_TYPES.get(key, key): value for key, value in output.items() if key in _V3_TYPES}
    return data


def _has_image(output: Mapping[str, Any]) -> bool:
    return any(kind.startswith(_IMAGE_TYPES) for kind in _mime(output))


def _data(writer: SectionWriter, output: Mapping[str, Any], drew: bool = False) -> None:
    """A rich output: a table from its HTML, else its plain text; images, widgets and scripts dropped and counted;
    drew: the cell drew a figure (a plotting call's return value is dropped too)."""
    data = _mime(output)
    dropped = [kind for kind in data if kind.startswith(_IMAGE_TYPES) or kind in _DROPPED_TYPES]
    for kind in dropped:
        writer.dropped["image" if kind.startswith(_IMAGE_TYPES) else _DROPPED_TYPES[kind]] += 1
    html = _text(data.get("text/html"))
    if html and "<table" in html.lower() and _table(writer, html):
        return
    plain = _text(data.get("text/plain"))
    if plain is None and html:
        plain = strip_html(re.sub(r"(?is)<(script|style)\b.*?</\1>", "", html))
    if plain is None:
        for kind in ("text/markdown", "text/latex"):
            plain = plain or _text(data.get(kind))
    if not plain or not plain.strip():
        return
    if dropped or _OBJECT_REPR.match(plain.strip()) or (drew and _PLOT_RETURN.match(plain.strip())):
        # "<Figure size …>" beside the image, "<… at 0x…>" alone, "<Axes: …>" under a figure
        writer.dropped["object repr"] += 1
        return
    _lines(writer, plain)


_V3_TYPES = {"text": "text/plain", "html": "text/html", "png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml",
             "latex": "text/latex", "javascript": "application/javascript"}


def _lines(writer: SectionWriter, text: str) -> None:
    """An output's text under the "Output:" label: ANSI colours and carriage-return progress removed, long cut."""
    lines = [_ANSI.sub("", line.rsplit("\r", 1)[-1]).rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        return
    more = len(lines) - OUTPUT_LINES
    if more > 2:  # cutting two lines to say "2 more lines" saves nothing
        lines = [*lines[:OUTPUT_LINES], f"… ({more:,} more lines)"]
    if len(lines) == 1:  # "Output: (1035, 6)"; a longer one starts under its label, its columns kept in line
        writer.label(OUTPUT_LABEL)
    else:
        writer.line("")
        writer.line(OUTPUT_LABEL)
    for line in lines:
        writer.line(line if len(line) <= OUTPUT_LINE_CHARS else line[: OUTPUT_LINE_CHARS - 1] + "…")
    writer.end_block()


def _error(writer: SectionWriter, output: Mapping[str, Any]) -> None:
    """An error output as its exception line ("ZeroDivisionError: division by zero"); the traceback dropped."""
    name = output.get("ename") if isinstance(output.get("ename"), str) else ""
    value = output.get("evalue") if isinstance(output.get("evalue"), str) else ""
    line = _ANSI.sub("", f"{name}: {value}" if value else name).strip()
    if not line:
        traceback = output.get("traceback")
        lines = [_ANSI.sub("", t).strip() for t in traceback if isinstance(t, str)] if isinstance(traceback, list) else []
        line = next((t for t in reversed(lines) if t), "")
    if isinstance(output.get("traceback"), list) and output["traceback"]:
        writer.dropped["traceback"] += 1
    if line:
        writer.label("Error:")
        writer.line(" ".join(line.split())[:OUTPUT_LINE_CHARS])
        writer.end_block()


def _table(writer: SectionWriter, html: str) -> bool:
    """The first <table> of an output (a pandas DataFrame) through SectionWriter.table; False when it holds none.

    pandas writes a second header row naming the index ("key | | |"): its name goes into the corner cell.
    """
    from bs4 import BeautifulSoup

    table = BeautifulSoup(html, "html.parser").find("table")
    if table is None:
        return False
    head, body = [], []
    spans: dict[int, tuple[str, int]] = {}  # column → (text, rows still covered) of a cell with rowspan
    for tr in table.find_all("tr"):
        cells: list[str] = []
        for cell in tr.find_all(("th", "td")):
            while len(cells) in spans:  # a MultiIndex level's label covers the rows under it
                cells.append(_carry(spans, len(cells)))
            text = " ".join(cell.get_text(" ").split())
            for _ in range(_span(cell, "colspan")):  # a column level's label over each column it heads
                if _span(cell, "rowspan") > 1:
                    spans[len(cells)] = (text, _span(cell, "rowspan") - 1)
                cells.append(text)
        while len(cells) in spans:
            cells.append(_carry(spans, len(cells)))
        if not cells:
            continue
        (head if tr.find_parent("thead") is not None else body).append(cells)
    if not head and body:
        head, body = [body[0]], body[1:]
    if not head or not body:
        return False
    header = head[0]
    for extra in head[1:]:  # the index's name row: its first cell names the corner, the rest are blank
        if extra and not any(extra[1:]):
            header = [extra[0] or header[0], *header[1:]]
        else:
            header = [f"{a} {b}".strip() for a, b in zip(header, extra + [""] * (len(header) - len(extra)), strict=False)]
    more = len(body) - TABLE_ROWS
    if more > 2:
        body = body[:TABLE_ROWS]
    writer.table([header, *body])
    if more > 2:
        writer.line(f"… ({more:,} more rows)")
    return True


def _span(cell: Any, name: str) -> int:
    try:
        return max(1, min(int(cell.get(name, 1)), 1000))
    except (TypeError, ValueError):
        return 1


def _carry(spans: dict[int, tuple[str, int]], column: int) -> str:
    text, left = spans.pop(column)
    if left > 1:
        spans[column] = (text, left - 1)
    return text
