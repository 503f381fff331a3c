"""Markdown (.md, .markdown) read as a document: sections, code blocks and tables, markup removed.

Written for the documentation users index first (MkDocs-Material, Docusaurus, GitHub READMEs), with
the standard library alone (a line-by-line reading; no Markdown dependency renders what a search
needs, which is the text with its place, not HTML):

- headings, ATX (`## Defaults { #defaults }`) and setext (a line over `===` / `---`), set the section
  path; their `{ #anchor }` / `{: .class }` attribute lists are dropped;
- YAML (`---`) or TOML (`+++`) front matter gives the title and metadata, never text (markup.front_matter);
  the title is else the first heading, else (the loader) the file name;
- code, fenced (``` / ~~~) or indented, is kept verbatim as a part of kind "code";
- admonitions read as their label and text: `!!! note "Title"` (its indented body), `/// tip | Title`
  … `///` (pymdownx blocks; `//// tab | Python 3.10+` gives its title as a line), Docusaurus `:::note`
  … `:::` → "Note: Title …";
- links to their text, images to their alt text, inline code and emphasis to their text, HTML tags
  stripped (their text kept), entities decoded; HTML comments, link definitions and snippet includes
  (`{* ../../docs_src/app.py hl[9] *}`, `{!…!}`, `--8<--`) and Hugo shortcodes (`{{< tabs … >}}`,
  `{{< relref "…" >}}`) dropped and counted, Hugo's `{{% note %}}` … `{{% /note %}}` read as an admonition; an mkdocstrings
  reference (`::: fastapi.FastAPI` and its indented options) read as the name it documents;
- pipe tables through render_table (markup.SectionWriter.table), ragged rows padded with a note.

An unclosed fence reads to the end of the file as code, with a note; nothing is dropped unsaid.
"""

from __future__ import annotations

import re

from corpus_tools import rst_reader
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

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`]*)$")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ATTRS = re.compile(r"\s*\{\s*[#.:][^{}]*\}")  # { #anchor }, {: .class }, {.internal-link target=_blank}
_CLOSING_HASHES = re.compile(r"[ \t]+#+[ \t]*$")
_LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)")
_BULLET = re.compile(r"^(\s*)[*+](?=[ \t])")
_QUOTE = re.compile(r"^ {0,3}>[ \t]?")
_LINK_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*\S+")
_INCLUDE = re.compile(r"^\s*(?:\{\*.*\*\}|\{!.*!\}|-{2}8<-{2}.*)\s*$")
_MKDOCSTRINGS = re.compile(r"^:::[ \t]+([\w.]+)\s*$")
# Hugo shortcodes (Poetry's, Kubernetes' docs): a line holding one tag, `{{% note %}}` … `{{% /note %}}`,
# `{{< tabs tabTotal="4" … >}}`, and one inside a line, `{{< relref "repositories" >}}`; `title="…"` titles an admonition
_SHORTCODE_LINE = re.compile(r"^\s*\{\{([<%])\s*(/)?\s*([\w-]+)([^{}]*?)/?\s*[%>]\}\}\s*$")
_SHORTCODE = re.compile(r"[ \t]*\{\{[<%][^{}]*?[%>]\}\}")
_SHORTCODE_TITLE = re.compile(r"""\btitle\s*=\s*(?:"([^"]*)"|'([^']*)')""")
_DOCUSAURUS = re.compile(r"^ {0,3}(:{3,})[ \t]*([A-Za-z][\w-]*)?[ \t]*(.*)$")
_BLOCK = re.compile(r"^\s*(/{3,})[ \t]*([A-Za-z][\w-]*)?[ \t]*(?:\|[ \t]*(.*))?$")
_MATERIAL = re.compile(r"^ {0,3}(!!!|\?\?\?\+?)[ \t]+([\w-]+)(?:[ \t]+(?:\"([^\"]*)\"|'([^']*)'))?.*$")
_DELIMITER = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)*\|?\s*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_IMAGE = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\](?:\((?:[^()]|\([^()]*\))*\)|\[[^\]]*\])")
# Link text may hold one level of brackets ("[@pr-submit[bot]](https://…)").
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])+)\](?:\((?:[^()]|\([^()]*\))*\)|\[[^\]]*\])")
_AUTOLINK = re.compile(r"<((?:https?|ftp|mailto):[^<>\s]+)>")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
_EM_UNDER = re.compile(r"(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_HOLE = re.compile("\x00(\\d+)\x00")
_MYST_ROLE = re.compile(r"(?<![^\s(\[\"'])\{([a-z][a-z0-9:+-]*)\}(`+)(.+?)\2")  # {func}`click.option`, {ref}`text <target>`
_MYST_FENCE = re.compile(r"^\{([\w:.+-]+)\}\s*(.*)$")  # ```{eval-rst}, ```{note} Title, ```{versionadded} 2.0
_MYST_TARGET = re.compile(r"^ {0,3}\([\w.:-]+\)=\s*$")  # a MyST label "(options)=": a link target, not text
_DEFINED_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])[ \t]+`([^`]+)`[ \t]*(?:-|–|—|:)[ \t]+\S")
_KIND_WORDS = frozenset({"class", "function", "method", "parameter", "attribute", "option", "decorator", "module",
                         "object", "setting", "property", "argument", "exception", "middleware", "field"})
def read_markdown(text: str, myst: bool = True) -> MarkupDocument:
    """A Markdown text with its sections, code, tables and metadata (see the module docstring); myst: MyST
    directives, roles and labels and a fence inside a list item read too (CorpusConfig.read_myst)."""
    lines = split_lines(text.lstrip("\ufeff"))
    keys, skip, note = front_matter(lines)
    notes = [note] if note else []
    writer = SectionWriter(myst)
    reader = _Reader(writer, notes)
    reader.run(lines[skip:])
    if reader.open_blocks:
        notes.append(f"{len(reader.open_blocks)} admonition(s) opened by {reader.open_blocks[0]!r} not closed: "
                     "read to the end of the file")
    title = keys.pop("title", None)
    title = inline(title, writer) if title else None
    return writer.document(title, keys, notes)


def read_into(writer: SectionWriter, notes: list[str], lines: list[str]) -> list[str]:
    """Markdown lines read into another reader's writer (a notebook's Markdown cell: notebook_reader.py), so the
    cells of one notebook share one heading path; the admonition fences left open are returned."""
    reader = _Reader(writer, notes)
    reader.run(list(lines))
    return reader.open_blocks


def inline(text: str, writer: SectionWriter | None = None) -> str:
    """One line's inline markup to its text: code spans, links, images, emphasis, HTML, attribute lists."""
    holes: list[str] = []

    def hole(match: re.Match[str]) -> str:
        holes.append(match.group(2).strip() if match.group(2).strip() else match.group(2))
        return f"\x00{len(holes) - 1}\x00"

    text = _ESCAPE.sub(lambda m: f"\x00{holes.append(m.group(1)) or len(holes) - 1}\x00", text)
    if "}`" in text and (writer is None or writer.myst):  # a MyST role reads as Sphinx's (rst_reader.role_text): the target's full name, a link's text
        def role(match: re.Match[str]) -> str:
            holes.append(rst_reader.role_text(match.group(3), match.group(1) == "doc"))
            return f"\x00{len(holes) - 1}\x00"

        text = _MYST_ROLE.sub(role, text)
    text = _CODE_SPAN.sub(hole, text)
    if "{{" in text:  # a Hugo shortcode inside a line (a code span showing one was holed above)
        text, count = _SHORTCODE.subn("", text)
        if writer is not None and count:
            writer.dropped["shortcode"] += count
    text = _IMAGE.sub(lambda m: m.group(1), text)
    text = _AUTOLINK.sub(lambda m: m.group(1), text)
    for _ in range(2):  # a link inside a link's text ("[![badge](…)](…)" left "[badge](…)")
        text = _LINK.sub(lambda m: m.group(1), text)
    text = strip_html(text, writer.dropped if writer else None)
    text = _ATTRS.sub("", text)
    text = _STRONG.sub(lambda m: m.group(2), text)
    text = _STRIKE.sub(lambda m: m.group(1), text)
    text = _EM_STAR.sub(lambda m: m.group(1), text)
    text = _EM_UNDER.sub(lambda m: m.group(1), text)
    for _ in range(2):  # an escape inside a code span came back as a hole inside a hole
        text = _HOLE.sub(lambda m: holes[int(m.group(1))], text)
    return text


class _Reader:
    """One pass over a page's lines (a recursive one for an admonition's indented body)."""

    def __init__(self, writer: SectionWriter, notes: list[str]) -> None:
        self.w = writer
        self.notes = notes
        self.open_blocks: list[str] = []  # "///" fences and ":::" containers open, innermost last

    def _fence(self, fence: str, kind: str | None, title: str) -> None:
        """A pymdownx ("/// tip | T", "/// tab | Python") or Docusaurus (":::note T") fence: an opening one labels
        the text it holds, a closing one ends the innermost block it opened, a closing one nobody opened is
        counted and dropped."""
        w = self.w
        if kind:
            self.open_blocks.append(fence)
            if kind.lower() == "tab":  # a tab's title is a heading-like line of its own, not an admonition
                w.line("")
                w.line(inline(title, w))
            else:
                w.label(admonition_label(kind, inline(title, w)))
        elif fence in self.open_blocks:
            while self.open_blocks and self.open_blocks.pop() != fence:
                pass
            w.end_block()
        else:
            w.dropped["stray fence"] += 1

    def run(self, lines: list[str]) -> None:
        w = self.w
        i, n = 0, len(lines)
        in_list = False
        previous_blank = True
        while i < n:
            line = lines[i]
            stripped = line.strip()
            if not stripped:
                w.line("")
                previous_blank = True
                i += 1
                continue
            # a fence inside a list item is indented past the item's marker ("-   item" then "    ```shell")
            fence = _FENCE.match(line) or (_FENCE.match(line.lstrip()) if in_list and w.myst else None)
            if fence and not (fence.group(2)[0] == "`" and "`" in fence.group(3)):
                i = self._fenced(lines, i, fence)
                previous_blank = True
                continue
            if stripped.startswith("<!--"):
                end = next((j for j in range(i, n) if "-->" in lines[j]), None)
                if end is None:
                    self.notes.append("HTML comment not closed: its lines read as text")
                    lines[i] = line.replace("<!--", "", 1)
                    continue
                w.dropped["html comment"] += 1
                rest = lines[end].split("-->", 1)[1]
                i = end + 1
                if rest.strip():
                    w.line(inline(rest, w))
                continue
            indented_code = previous_blank and not in_list and line.startswith("    ")
            shortcode = None if indented_code else _SHORTCODE_LINE.match(line)
            if shortcode:  # an admonition's shortcode is its label ("Note:") and its end; any other tag goes
                name, title = shortcode.group(3).lower(), _SHORTCODE_TITLE.search(shortcode.group(4))
                if name in rst_reader.ADMONITIONS and shortcode.group(2):
                    w.end_block()
                elif name in rst_reader.ADMONITIONS:
                    w.label(admonition_label(name, inline(title.group(1) or title.group(2) or "", w) if title else ""))
                else:
                    w.dropped["shortcode"] += 1
                    w.line("")
                i += 1
                continue
            if _INCLUDE.match(line):
                w.dropped["include"] += 1
                i += 1
                continue
            reference = _MKDOCSTRINGS.match(line)
            if reference:  # the name an API reference page documents; its options are for the renderer
                w.dropped["autodoc"] += 1
                w.line("")
                w.line(reference.group(1))
                w.line("")
                i += 1
                while i < n and (not lines[i].strip() or lines[i][:1].isspace()):
                    i += 1
                continue
            block = _BLOCK.match(line) or _DOCUSAURUS.match(line)
            if block:
                i += 1
                self._fence(block.group(1), block.group(2), block.group(3) or "")
                continue
            material = _MATERIAL.match(line)
            if material:
                body, i = _indented(lines, i + 1)
                w.label(admonition_label(material.group(2), inline(material.group(3) or material.group(4) or "", w)))
                self.run(dedent(body))
                w.end_block()
                continue
            heading = _ATX.match(line)
            if heading:
                title = _CLOSING_HASHES.sub("", heading.group(2) or "")
                w.define(*heading_names(title))
                w.heading(len(heading.group(1)), inline(title, w))
                in_list, previous_blank = False, True
                i += 1
                continue
            if (i + 1 < n and previous_blank and not _LIST_ITEM.match(line) and not line[:1].isspace()
                    and _SETEXT.match(lines[i + 1]) and not _QUOTE.match(line) and "|" not in line):
                level = 1 if lines[i + 1].strip()[0] == "=" else 2
                w.heading(level, inline(_ATTRS.sub("", stripped), w))
                in_list, previous_blank = False, True
                i += 2
                continue
            if _BREAK.match(line):
                w.line("")
                previous_blank = True
                i += 1
                continue
            if "|" in line and i + 1 < n and "|" in lines[i + 1] + line and _DELIMITER.match(lines[i + 1]) \
                    and "-" in lines[i + 1]:
                i = self._table(lines, i)
                previous_blank = True
                continue
            if previous_blank and not in_list and line.startswith("    ") and not _LIST_ITEM.match(line):
                body, i = _indented(lines, i, 4)
                w.code(body)
                previous_blank = True
                continue
            if w.myst and _MYST_TARGET.match(line):
                w.dropped["label"] += 1
                i += 1
                continue
            if _LINK_DEF.match(line):
                w.dropped["link definition"] += 1
                i += 1
                continue
            item = _LIST_ITEM.match(line)
            if item:
                in_list = True
            elif not line[:1].isspace() and previous_blank:
                in_list = False
            text = _QUOTE.sub("", line)
            while _QUOTE.match(text):
                text = _QUOTE.sub("", text)
            text = _BULLET.sub(r"\1-", text)
            defined = _DEFINED_ITEM.match(text) if item else None
            if defined and is_name(defined.group(1)):  # "- `directory` - A string …": a parameter list's entry
                w.define(defined.group(1).strip())
            w.line(inline(text.rstrip() if item else text.strip(), w))
            previous_blank = False
            i += 1

    def _fenced(self, lines: list[str], i: int, fence: re.Match[str]) -> int:
        indent, marker = len(fence.group(1)), fence.group(2)
        body: list[str] = []
        j = i + 1
        while j < len(lines):
            candidate = lines[j].strip()
            if candidate.startswith(marker[0] * len(marker)) and not candidate.strip(marker[0]):
                break
            raw = lines[j]
            body.append(raw[min(indent, len(raw) - len(raw.lstrip())):])
            j += 1
        else:
            self.notes.append(f"code fence opened at line {i + 1} is not closed: read to the end as code")
        myst = _MYST_FENCE.match(fence.group(3).strip()) if fence.group(2)[0] == "`" and self.w.myst else None
        if myst:
            self._myst(myst.group(1).lower(), myst.group(2).strip(), body)
        elif body and all(_INCLUDE.match(line) for line in body if line.strip()) and any(map(str.strip, body)):
            self.w.dropped["include"] += 1  # a fence around a snippet include ("{!> ../../docs_src/app.js!}"): no code
        else:
            self.w.code(body)
        return j + 1

    def _myst(self, name: str, argument: str, body: list[str]) -> None:
        """A MyST directive fence (```{name} argument, `:option:` lines, body), read as Sphinx reads it: `eval-rst`
        by the rst reader, code as code, admonitions and version notes as their label and Markdown text,
        toctree / include / contents / currentmodule … dropped and counted (rst_reader's lists)."""
        w = self.w
        name = name.split(":", 1)[1] if name.startswith(("py:", "std:", "rst:")) else name
        while body and re.match(r"^\s*:[\w -]+:", body[0]):  # directive options (":caption: hello.py")
            body = body[1:]
        if name == "eval-rst":
            w.line("")
            rst_reader.read_into(w, self.notes, body)
            w.line("")
        elif name in rst_reader.CODE_DIRECTIVES:
            w.code(body)
        elif name in rst_reader.DROPPED_DIRECTIVES or name in ("image", "figure"):
            w.dropped[name] += 1
        elif name in rst_reader.VERSION_LABELS:
            version, _, rest = argument.partition(" ")
            w.label(f"{rst_reader.VERSION_LABELS[name]} {version}:")
            if rest.strip():
                w.line(inline(rest, w))
            self.run(dedent(body))
            w.end_block()
        elif name in rst_reader.ADMONITIONS or name == "admonition":
            if name == "admonition":
                w.label(f"{inline(argument, w)}:" if argument else "Note:")
            else:
                w.label(admonition_label(name))
                if argument:
                    w.line(inline(argument, w))
            self.run(dedent(body))
            w.end_block()
        else:  # a directive of an extension: its text, marker dropped and counted
            w.dropped[f"directive {name}"] += 1
            if argument:
                w.line("")
                w.line(inline(argument, w))
            self.run(dedent(body))
            w.line("")

    def _table(self, lines: list[str], i: int) -> int:
        grid = [_cells(lines[i])]
        j = i + 2
        while j < len(lines) and lines[j].strip() and "|" in lines[j]:
            grid.append(_cells(lines[j]))
            j += 1
        self.w.table([[inline(c, self.w) for c in row] for row in grid])
        return j


def heading_names(title: str) -> list[str]:
    """The name a heading defines: one code span that is a name, alone or with one kind word
    ("`FastAPI` class", "The `Request` class" is not one: two other words), else none."""
    spans = _CODE_SPAN.findall(title)
    if len(spans) != 1:
        return []
    name = spans[0][1].strip()
    if name.endswith("()"):
        name = name[:-2]
    rest = [word.lower() for word in _CODE_SPAN.sub(" ", _ATTRS.sub("", title)).split()]
    if not is_name(name) or len(rest) > 1 or (rest and rest[0] not in _KIND_WORDS):
        return []
    return [name]


def _indented(lines: list[str], i: int, width: int = 1) -> tuple[list[str], int]:
    """The lines from i indented by `width` or more (blank lines inside included), and the index after them."""
    body: list[str] = []
    j = i
    while j < len(lines):
        line = lines[j]
        if line.strip() and len(line) - len(line.lstrip()) < width:
            break
        body.append(line)
        j += 1
    while body and not body[-1].strip():  # trailing blank lines belong to what follows
        body.pop()
        j -= 1
    return body, j


def _cells(line: str) -> list[str]:
    """A pipe-table row's cells: split at | outside code spans and escapes, the outer pipes dropped."""
    cells, current, ticks, k = [], [], 0, 0
    text = line.strip()
    while k < len(text):
        ch = text[k]
        if ch == "\\" and k + 1 < len(text) and text[k + 1] == "|":
            current.append("|")
            k += 2
            continue
        if ch == "`":
            ticks ^= 1
        if ch == "|" and not ticks:
            cells.append("".join(current))
            current = []
        else:
            current.append(ch)
        k += 1
    cells.append("".join(current))
    if text.startswith("|"):
        cells = cells[1:]
    if text.endswith("|") and not text.endswith("\\|") and cells:
        cells = cells[:-1]
    return [c.strip() for c in cells]
