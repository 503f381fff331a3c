"""reStructuredText (.rst) read as a document: sections, code blocks and tables, markup removed.

Written for Sphinx documentation, with the standard library alone (docutils would add a dependency
and fails on every Sphinx-only directive and role without Sphinx itself):

- section titles, underlined or over- and underlined, get their level in the order the file first
  uses each adornment style (as docutils does); `.. _label:` targets are dropped;
- code, `.. code-block::` / `.. sourcecode::` / `.. code::` bodies, `::` literal blocks and `>>>`
  doctest blocks, is kept verbatim as a part of kind "code";
- admonitions read as their label and text: `.. note::` → "Note: …", `.. admonition:: Title` →
  "Title: …", `.. versionadded:: 2.0` → "New in version 2.0: …" (Sphinx's own words);
- roles to their text: `:func:`~flask.Flask.route`` → "flask.Flask.route". Sphinx would show "route()"
  for the "~" form; the full dotted name is kept because it is what a user searches for
  ("Flask.route", "flask.url_for") and it holds the short name as a word anyway; `:doc:`Title <path>``
  → "Title"; hyperlinks `` `text <url>`_ `` → "text"; inline literals and emphasis to their text;
- comments, `toctree`, `include` / `literalinclude`, `currentmodule`, substitution and link targets
  dropped and counted; `.. program:: dmypy` writes no text but names the command whose `.. option::` entries
  follow (DocumentPart.programs, the chunk's "programs"); autodoc (`.. autofunction:: flask.url_for`) read as the name it documents,
  domain directives (`.. py:data:: SECRET_KEY`) as their signature followed by their text;
- grid, simple, `list-table` and `csv-table` tables through render_table.
"""

from __future__ import annotations

import csv
import re

from corpus_tools.defined_names import is_name
from corpus_tools.markup import (
    MarkupDocument,
    SectionWriter,
    admonition_label,
    dedent,
    front_matter,
    split_lines,
    strip_html,
)

_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")  # a line of one punctuation character, 3 or more
_DIRECTIVE = re.compile(r"^\.\.[ \t]+([\w:.+-]+)[ \t]*::(?:[ \t]+(.*))?$")
_TARGET = re.compile(r"^\.\.[ \t]+_[^:]*:.*$|^__[ \t]+\S")
_SUBSTITUTION = re.compile(r"^\.\.[ \t]+\|[^|]+\|[ \t]+[\w:-]+::")
_FIELD = re.compile(r"^:([\w -]+):(?:[ \t]+(.*))?$")
_ROLE = re.compile(r"(?::[\w:+.-]+:)?`([^`]+)`(?::[\w:+.-]+:)?(__?)?")
_LITERAL = re.compile(r"``(.+?)``", re.DOTALL)
_EXPLICIT = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.DOTALL)
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.DOTALL)
_EM = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])", re.DOTALL)
_FOOTNOTE_REF = re.compile(r"\s?\[(?:#[\w-]*|\*|\d+)\]_")
_REFERENCE = re.compile(r"\b([A-Za-z][\w-]*)__?(?![\w])")
_HOLE = re.compile("\x00(\\d+)\x00")
_BULLET = re.compile(r"^(\s*)[*+•](?=[ \t])")
_GRID_BORDER = re.compile(r"^\s*\+(?:[-=]+\+)+\s*$")
_SIMPLE_BORDER = re.compile(r"^\s*=+(?:[ \t]+=+)+\s*$")
_SIMPLE_RULE = re.compile(r"^\s*-+(?:[ \t]+-+)+\s*$")  # a simple table's rule under its header

CODE_DIRECTIVES = frozenset({"code-block", "sourcecode", "code", "highlight-block"})
DROPPED_DIRECTIVES = frozenset({"toctree", "include", "literalinclude", "currentmodule", "module", "highlight",
                                "contents", "index", "meta", "raw", "rst-class", "sectionauthor", "moduleauthor",
                                "default-role", "role", "tabularcolumns", "spelling", "autosummary",
                                "default-domain", "testsetup", "testcleanup"})
AUTODOC = frozenset({"autofunction", "autoclass", "automodule", "autodata", "automethod", "autoattribute",
                     "autoexception", "autodecorator", "autoproperty"})
VERSION_LABELS = {"versionadded": "New in version", "versionchanged": "Changed in version",
                  "deprecated": "Deprecated since version", "versionremoved": "Removed in version"}
ADMONITIONS = frozenset({"note", "warning", "tip", "important", "caution", "attention", "danger", "error",
                         "hint", "seealso", "todo"})
# Sphinx domain entries: their signature, then their text; each defines the name its signature gives.
ENTRIES = frozenset({"function", "class", "method", "attribute", "data", "exception", "decorator", "property",
                     "envvar", "option", "describe", "object", "confval", "cmdoption"})
# Directives whose body is text to read even when it shows code lines (a tab of code is read as its text).
NAMED_CONTAINERS = frozenset({"tabs", "tab", "group-tab", "code-tab", "only", "container", "rubric", "centered",
                              "topic", "sidebar", "glossary", "hlist", "productionlist"})
_CODE_LINE = re.compile(r"^(?:@[\w.]+|def |class |import |from [\w.]+ import |return\b|if .*:$|for .*:$|with .*:$"
                        r"|>>> |\$ |[\w.]+\(.*\)$|[\w.]+ = |\))")
TABLE_DIRECTIVES = frozenset({"list-table", "csv-table", "table"})


def read_rst(text: str, myst: bool = True) -> MarkupDocument:
    """A reStructuredText text with its sections, code, tables and metadata (see the module docstring); myst:
    an extension's directive whose body is code read as code (CorpusConfig.read_myst; False: as its text)."""
    lines = split_lines(text.lstrip("\ufeff"))
    keys, skip, note = front_matter(lines) if lines and lines[0].strip() == "+++" else ({}, 0, "")
    notes = [note] if note else []
    writer = SectionWriter(myst)
    reader = _Reader(writer, notes)
    lines = lines[skip:]
    keys.update(reader.docinfo(lines))
    reader.run(lines)
    title = keys.pop("title", None)
    return writer.document(inline(title) if title else None, keys, notes)


def read_into(writer: SectionWriter, notes: list[str], lines: list[str]) -> None:
    """rst lines read into another reader's writer (a MyST ```{eval-rst} block of a Markdown page)."""
    _Reader(writer, notes).run(dedent(list(lines)))


def inline(text: str) -> str:
    """One line's inline markup to its text: literals, roles, hyperlinks, emphasis, footnote references."""
    holes: list[str] = []

    def keep(value: str) -> str:
        holes.append(value)
        return f"\x00{len(holes) - 1}\x00"

    text = _LITERAL.sub(lambda m: keep(m.group(1)), text)
    text = _ROLE.sub(lambda m: keep(role_text(m.group(1), m.group(0).startswith(":doc:"))), text)
    text = _FOOTNOTE_REF.sub("", text)
    text = _STRONG.sub(lambda m: m.group(1), text)
    text = _EM.sub(lambda m: m.group(1), text)
    text = _REFERENCE.sub(lambda m: m.group(1), text)
    text = strip_html(text) if "<" in text or "&" in text else text
    for _ in range(2):
        text = _HOLE.sub(lambda m: holes[int(m.group(1))], text)
    return text.replace("\\ ", "").replace("\\", "") if "\\" in text else text


def role_text(content: str, doc: bool = False) -> str:
    """`Title <target>` → Title; `~a.b.c` → a.b.c (see the module docstring); `!name`, `.name` → name; a :doc: path
    without a title → its last name as words (":doc:`/patterns/appfactories`" → "appfactories")."""
    explicit = _EXPLICIT.match(content)
    if explicit and explicit.group(1).strip():
        return explicit.group(1).strip()
    content = content.lstrip("~!.").strip()  # ".Request.max_content_length": Sphinx's relative lookup
    return content.rstrip("/").rsplit("/", 1)[-1] if doc else content


class _Reader:
    """One pass over a page's lines; a directive's body is read by a recursive pass."""

    def __init__(self, writer: SectionWriter, notes: list[str]) -> None:
        self.w = writer
        self.notes = notes
        self.styles: list[tuple[str, bool]] = []  # adornment styles (character, overlined) in order of first use
        self.program = ""  # the command a `.. program:: NAME` names: the option entries after it are its own

    def docinfo(self, lines: list[str]) -> dict[str, str]:
        """Sphinx file-wide metadata (`:orphan:`, `:title: …` field lines opening the file): read, then blanked."""
        keys: dict[str, str] = {}
        for k, line in enumerate(lines):
            field = _FIELD.match(line)
            if not line.strip():
                continue
            if field is None:
                break
            if field.group(2):
                keys[field.group(1).strip().lower()] = field.group(2).strip()
            lines[k] = ""
        return keys

    def level(self, char: str, over: bool) -> int:
        style = (char, over)
        if style not in self.styles:
            self.styles.append(style)
        return self.styles.index(style) + 1

    def run(self, lines: list[str]) -> None:
        w = self.w
        i, n = 0, len(lines)
        previous_blank = True
        while i < n:
            line = lines[i]
            stripped = line.strip()
            if not stripped:
                w.line("")
                previous_blank = True
                i += 1
                continue
            # Over- and underlined title: adornment, title, same adornment.
            if (previous_blank and _ADORNMENT.match(line) and i + 2 < n and lines[i + 1].strip()
                    and _ADORNMENT.match(lines[i + 2]) and lines[i + 2].strip()[0] == stripped[0]
                    and not _ADORNMENT.match(lines[i + 1])):
                w.heading(self.level(stripped[0], True), inline(lines[i + 1].strip()))
                i += 3
                previous_blank = True
                continue
            if (previous_blank and not line[:1].isspace() and i + 1 < n and _ADORNMENT.match(lines[i + 1])
                    and not _ADORNMENT.match(line) and not _SIMPLE_BORDER.match(lines[i + 1])
                    and len(lines[i + 1].strip()) >= min(len(stripped), 4) and not stripped.startswith("..")):
                w.heading(self.level(lines[i + 1].strip()[0], False), inline(stripped))
                i += 2
                previous_blank = True
                continue
            if previous_blank and _ADORNMENT.match(line) and len(stripped) >= 4:  # a transition
                w.dropped["transition"] += 1
                i += 1
                continue
            if _GRID_BORDER.match(line):
                i = self._grid_table(lines, i)
                previous_blank = True
                continue
            if _SIMPLE_BORDER.match(line):
                i = self._simple_table(lines, i)
                previous_blank = True
                continue
            if stripped.startswith(".."):
                i = self._explicit(lines, i)
                previous_blank = True
                continue
            if stripped.startswith(">>>") and previous_blank:
                body, i = _until_blank(lines, i)
                w.code(body)
                previous_blank = True
                continue
            # A paragraph: its lines up to a blank line; "::" at its end opens a literal block.
            paragraph, i = _until_blank(lines, i)
            literal = paragraph[-1].rstrip().endswith("::")
            if literal:
                before = paragraph[-1].rstrip()[:-2]
                # "Example::" reads "Example:"; "Example: ::" and a lone "::" leave no colon (docutils' rule).
                paragraph[-1] = before + (":" if before.strip() and not before[-1].isspace() else "")
            indent = len(paragraph[0]) - len(paragraph[0].lstrip())
            # Inline markup may run across the lines of a paragraph ("``from app\nimport *``"): read it whole.
            block = "\n".join(_BULLET.sub(r"\1-", text[indent:] if text[:indent].isspace() else text.lstrip()).rstrip()
                              for text in paragraph)
            for text in inline(block).split("\n"):
                w.line(text)
            previous_blank = False
            if literal:
                j = i
                while j < n and not lines[j].strip():
                    j += 1
                if j < n and len(lines[j]) - len(lines[j].lstrip()) > indent:
                    body, i = _indented(lines, j, indent + 1)
                    w.code(body)
                    previous_blank = True

    def _explicit(self, lines: list[str], i: int) -> int:
        """An explicit markup block at lines[i] (".. …"): a directive, a target, a substitution or a comment."""
        w = self.w
        line = lines[i].strip()
        directive = _DIRECTIVE.match(line)
        if _TARGET.match(line) or _SUBSTITUTION.match(line) or directive is None:
            kind = "label" if _TARGET.match(line) else "substitution" if _SUBSTITUTION.match(line) else "comment"
            w.dropped[kind] += 1
            body, j = _indented(lines, i + 1, len(lines[i]) - len(lines[i].lstrip()) + 1)
            return j
        name = directive.group(1).lower()
        name = name.split(":", 1)[1] if name.startswith(("py:", "rst:", "std:", "js:", "c:", "cpp:")) else name
        argument = (directive.group(2) or "").strip()
        base = len(lines[i]) - len(lines[i].lstrip())
        body, j = _indented(lines, i + 1, base + 1)
        body = dedent(body)
        options: dict[str, str] = {}
        while body and (field := _FIELD.match(body[0].strip())) is not None and body[0].strip():
            options[field.group(1).strip().lower()] = (field.group(2) or "").strip()
            body.pop(0)
        known = name in (CODE_DIRECTIVES | DROPPED_DIRECTIVES | AUTODOC | ENTRIES | NAMED_CONTAINERS | ADMONITIONS
                         | TABLE_DIRECTIVES | VERSION_LABELS.keys() | {"admonition", "image", "figure"})
        # An extension's directive with no argument whose body follows at once (".. click:example::" over a
        # decorated function, no blank line): all of it is body.
        example = w.myst and not known and not argument and looks_like_code(body)
        # Arguments continue on the following lines until options or a blank line (a long signature).
        while body and body[0].strip() and not example:
            if name in CODE_DIRECTIVES:
                break
            argument = f"{argument} {body.pop(0).strip()}".strip()
            if name in TABLE_DIRECTIVES or name in ADMONITIONS or name == "admonition":
                break
        if name in CODE_DIRECTIVES:
            w.code(body)
        elif name == "program":
            # no text (Sphinx shows none); the entries up to the next `.. program::` are this command's options
            # (mypy's page on dmypy: "--timeout" is dmypy's), recorded with their names (DocumentPart.programs).
            # Sphinx's "None" ends the scope; a subcommand ("git commit") is kept whole.
            w.dropped[name] += 1
            self.program = "" if argument in ("", "None") else " ".join(inline(argument).split())
        elif name in DROPPED_DIRECTIVES:
            w.dropped[name] += 1
        elif name in AUTODOC:
            w.dropped["autodoc"] += 1
            w.line("")  # no name defined here: the entry's text is the code's docstring, not in the folder
            w.line(argument)
            w.line("")
            self.run(body)
        elif name in VERSION_LABELS:
            version, _, rest = argument.partition(" ")
            w.label(f"{VERSION_LABELS[name]} {version}:")
            if rest.strip():
                w.line(inline(rest.strip()))
            self.run(body)
            w.end_block()
        elif name in ADMONITIONS or name == "admonition":
            if name == "admonition":
                w.label(f"{inline(argument)}:" if argument else "Note:")
            else:
                w.label(admonition_label(name))
                if argument:
                    w.line(inline(argument))
            self.run(body)
            w.end_block()
        elif name in ("image", "figure"):
            alt = options.get("alt", "")
            if alt:
                w.line(inline(alt))
            else:
                w.dropped[name] += 1
            self.run(body)
        elif name == "list-table":
            self._list_table(body, argument)
        elif name == "csv-table":
            self._csv_table(body, argument, options)
        elif name in ENTRIES:
            w.line("")
            w.define(*signature_names(name, argument),
                     program=self.program if name in ("option", "cmdoption") else "")
            w.line(inline(argument))
            w.line("")
            self.run(body)
        elif w.myst and not known and body and looks_like_code(body):
            # an extension's example directive (".. click:example::" holding a decorated function): code
            w.dropped[f"directive {name}"] += 1
            w.code(body)
        else:  # tabs, only, container, rubric and directives of extensions: their text, marker dropped
            if name not in NAMED_CONTAINERS:
                w.dropped[f"directive {name}"] += 1
            if argument and name not in ("only",):
                w.line("")
                w.line(inline(argument))
            self.run(body)
            w.line("")
        return j

    def _grid_table(self, lines: list[str], i: int) -> int:
        border = lines[i].rstrip()
        cuts = [k for k, ch in enumerate(border) if ch == "+"]
        j = i + 1
        grid: list[list[str]] = []
        current: list[list[str]] = [[] for _ in cuts[:-1]]
        header_rows = 0
        while j < len(lines) and lines[j].strip() and lines[j].lstrip()[:1] in "+|":
            row = lines[j].rstrip()
            if _GRID_BORDER.match(row):
                if any(any(c) for c in current):
                    grid.append([" ".join(c) for c in current])
                current = [[] for _ in cuts[:-1]]
                if "=" in row:
                    header_rows = len(grid)
            else:
                for k in range(len(cuts) - 1):
                    cell = row[cuts[k] + 1 : cuts[k + 1]] if len(row) > cuts[k] else ""
                    cell = cell.strip().strip("|").strip()
                    if cell:
                        current[k].append(cell)
            j += 1
        if header_rows > 1:  # a multi-row header: its rows joined, one header a column
            head = [" ".join(r[k] for r in grid[:header_rows] if r[k]) for k in range(len(cuts) - 1)]
            grid = [head, *grid[header_rows:]]
        self.w.table([[inline(c) for c in row] for row in grid], header=header_rows > 0)
        return j

    def _simple_table(self, lines: list[str], i: int) -> int:
        """A simple table: a border of "=" runs (the columns), rows, a border under the header, rows, a border.

        A line whose first column is blank continues the row above it; the table ends at a border
        followed by a blank line. Without a header border the table is read without column headers.
        """
        spans = [(m.start(), m.end()) for m in re.finditer(r"=+", lines[i].rstrip())]
        j = i + 1
        rows: list[list[str]] = []
        header = False
        while j < len(lines):
            line = lines[j].rstrip()
            j += 1
            if _SIMPLE_RULE.match(line):
                header = True
                continue
            if _SIMPLE_BORDER.match(line):
                if j >= len(lines) or not lines[j].strip():
                    break
                header = True  # a border inside the table closes its header rows
                continue
            if not line.strip():
                continue
            cells = []
            for k, (a, _b) in enumerate(spans):
                end = spans[k + 1][0] if k + 1 < len(spans) else len(line)
                cells.append(line[a:end].strip() if len(line) > a else "")
            if not cells[0] and rows:  # a continuation line: its text joins the row above
                rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], cells, strict=True)]
            else:
                rows.append(cells)
        self.w.table([[inline(c) for c in row] for row in rows], header=header)
        return j

    def _list_table(self, body: list[str], caption: str) -> None:
        grid: list[list[str]] = []
        for line in body:
            stripped = line.strip()
            if stripped.startswith("* -"):
                grid.append([stripped[3:].strip()])
            elif stripped.startswith("- ") and grid:
                grid[-1].append(stripped[2:].strip())
            elif stripped and grid and grid[-1]:
                grid[-1][-1] = f"{grid[-1][-1]} {stripped}"
        self.w.table([[inline(c) for c in row] for row in grid], inline(caption))

    def _csv_table(self, body: list[str], caption: str, options: dict[str, str]) -> None:
        rows = [r for r in csv.reader([line for line in body if line.strip()], skipinitialspace=True)]
        if options.get("header"):
            rows.insert(0, next(csv.reader([options["header"]], skipinitialspace=True)))
        if not rows:
            self.notes.append(f"csv-table {caption!r} has no rows in the file (a :file: table is not read)")
            return
        self.w.table([[inline(c) for c in row] for row in rows], inline(caption))


def signature_names(directive: str, argument: str) -> list[str]:
    """The names a Sphinx entry defines, read from its signature: `Flask.route(rule, **options)` → Flask.route,
    `-o, --output <file>` (option) → -o, --output, `class click.Option(...)` → click.Option."""
    argument = inline(argument).strip()
    if directive in ("option", "cmdoption"):
        names = [re.split(r"[\s=<\[]", part.strip(), maxsplit=1)[0] for part in argument.split(",")]
    else:
        head = re.split(r"[(\[\s]", re.sub(r"^(?:class|async|classmethod|staticmethod|abstractmethod)\s+", "",
                                             argument), maxsplit=1)[0]
        names = [head]
    return [n for n in names if n and is_name(n)]


def looks_like_code(body: list[str]) -> bool:
    """Whether a directive's body is code: most of its lines are Python statements, decorators or prompts."""
    lines = [line.strip() for line in body if line.strip()]
    code = sum(bool(_CODE_LINE.match(line)) for line in lines)
    return bool(lines) and code * 2 >= len(lines) and code >= 1


def _until_blank(lines: list[str], i: int) -> tuple[list[str], int]:
    body = []
    while i < len(lines) and lines[i].strip():
        body.append(lines[i])
        i += 1
    return body, i


def _indented(lines: list[str], i: int, width: int) -> tuple[list[str], int]:
    """The lines from i indented by `width` or more (blank lines inside included), and the index after them."""
    body: list[str] = []
    j = i
    while j < len(lines):
        line = lines[j]
        if line.strip() and len(line) - len(line.lstrip()) < width:
            break
        body.append(line)
        j += 1
    while body and not body[-1].strip():
        body.pop()
        j -= 1
    return body, j
