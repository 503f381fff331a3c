"""Reading technical documentation's markup for facts: code spans, the object a block documents, its owner.

A project's `docs/` (MkDocs Markdown, Sphinx reStructuredText) states its facts around code: a setting's
default (`Default: ``'session'```), the version that added it (`.. versionadded:: 3.1`), a parameter's
default in a list item ("* `max_age` - … Defaults to `600`."). The readers of those facts
(datagen.doc_defaults, datagen.doc_versions) need three things from the text, the same whether an index
read the page as flat text (markup kept) or a documentation reader cleaned it (roles and fences gone):

- `code_spans`: a code span as written, ``X``, `X` or a Sphinx role :data:`X` / :meth:`~flask.Flask.run`,
  its inner text kept verbatim (an identifier or a value is an answer: "timedelta(days=31)", "'session'");
- `object_blocks`: the object an rST block documents (`.. py:data:: SESSION_COOKIE_NAME` and the lines
  indented under it), or in cleaned text a line holding the identifier alone; a fact read inside a block
  is the object's, and one outside every block is nobody's (precision first: no block, no fact);
- `identifier`: whether a span is code a question may name ("SESSION_COOKIE_NAME", "max_age",
  "flask.Flask.run", "send_file()"), not prose in backticks ("pip install flask").

Nothing here names a project or a folder: the readers work on any project's docs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# ``X`` (rST literal), `X` (Markdown code or rST default role), :role:`X` (Sphinx: :data:, :py:meth:, …)
_CODE = re.compile(r"(?::(?:[\w-]+:)?[\w-]+:)?(``?)([^`\n]+?)\1(?!`)")
# an rST object directive: `.. py:data:: NAME`, `.. autofunction:: flask.render_template`, `.. confval:: x`
_OBJECT_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)\.\.[ \t]+(?:(?:py|rst|std):)?(?P<kind>data|attribute|function|method|class|exception|"
    r"decorator|property|confval|envvar|option|autodata|autofunction|autoclass|automethod|autoattribute|"
    r"autoexception|setting)::[ \t]+(?P<name>\S[^\n]*)$",
    re.MULTILINE,
)
# any other directive line ends an object block at its own indent (`.. versionadded::` nested in it does not)
_ANY_DIRECTIVE = re.compile(r"^(?P<indent>[ \t]*)\.\.[ \t]+[\w:-]+::", re.MULTILINE)
# an identifier a question may name: a dotted name, optionally called ("send_file()", "Flask.run()")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\(\))?$")
# cleaned text: a line holding only an identifier that reads as code (upper case with "_", dotted, called)
_BARE_OBJECT_LINE = re.compile(r"^(?P<indent>[ \t]*)`{0,2}(?P<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|"
                               r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:\(\))?)`{0,2}[ \t]*$", re.MULTILINE)
# a class's name: capitalised, another capital inside, a lower-case letter ("CORSMiddleware", "APIRouter")
_OWNER = re.compile(r"^(?=[A-Z]\w*[a-z])(?=[A-Z]\w*?[A-Z])[A-Z][A-Za-z0-9]*$")
_PLAIN_OWNER_LINE = re.compile(r"^(?P<text>(?=[A-Z]\w*[a-z])(?=[A-Z]\w*?[A-Z])[A-Z][A-Za-z0-9]*)[ \t]*$", re.MULTILINE)
# a Markdown or rST heading line (what ends a Markdown section, whose name may be an owner)
_MD_HEADING = re.compile(r"^#{1,6}[ \t]+(?P<text>[^\n]+?)[ \t]*(?:\{[ \t]*#[^}]*\})?[ \t]*$", re.MULTILINE)


# what only documentation source writes: an rST directive or role, a Markdown fence, an MkDocs heading anchor or
# admonition fence ("## Query { #query }", "/// tip"), a Sphinx-rendered note ("New in version 2.0")
_DOC_MARKUP = re.compile(
    r"^[ \t]*\.\.[ \t]+[\w:-]+::|:(?:[\w-]+:)?[\w-]+:`[^`\n]+`|^[ \t]*```|\{[ \t]*#[\w-]+[ \t]*\}[ \t]*$|^///[ \t]*\w"
    r"|^[ \t]*(?:New|Changed) in version \d",
    re.MULTILINE,
)


# A line of a code block, kept verbatim when a documentation reader cleans the page (corpus_tools.markdown_reader,
# rst_reader drop the fences and backticks): an import, a def / class, a decorator, a prompt, a call assigned.
_CODE_LINE = re.compile(
    r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]+\w|import[ \t]+[a-z_][\w.]*[ \t]*(?:as[ \t]+\w+[ \t]*)?$|"
    r"(?:async[ \t]+)?def[ \t]+\w+\(|class[ \t]+[A-Z]\w*[(:]|@[a-z_][\w.]*(?:\(|$)|>>>[ \t]|"
    r"return[ \t]+[\w{\[(\"']|[a-z_][\w.]*[ \t]*=[ \t]*[A-Za-z_][\w.]*\(|(?:const|let|var)[ \t]+\w+[ \t]*=|"
    r"\$[ \t]+(?:pip|python|npm|git|curl|export|cd)\b)",
    re.MULTILINE,
)
# What the documentation readers drop from a page and count in its `markup_dropped` metadata ("include 6, label
# 2") that only a documentation build writes: snippet includes, autodoc, Sphinx labels, toctrees, module targets.
_DOC_DROPPED = re.compile(r"(?:^|, )(?:include|literalinclude|autodoc|label|toctree|currentmodule|module|directive \S+) \d")


def documentation_page(text: str, metadata: Mapping[str, Any] | None = None) -> bool:
    """Whether a document is technical documentation: its source (see `_DOC_MARKUP`), or its cleaned text — three
    code spans or more per thousand characters, three distinct code lines or more, or a documentation build's
    markup dropped by the reader (`metadata["markup_dropped"]`). Wikipedia, chats, mail, transcripts and filings
    write none of these: a documentation reader's page must not fall back to the sentence readers, which misread
    it ("Which organization would Behind a Proxy look in?" → "UI")."""
    if _DOC_MARKUP.search(text):
        return True
    if _DOC_DROPPED.search(str((metadata or {}).get("markup_dropped") or "")):
        return True
    if len({m.group(0).strip() for m in _CODE_LINE.finditer(text)}) >= 3:
        return True
    return len(code_spans(text)) >= 3 * max(1, len(text) // 1000)


@dataclass(frozen=True)
class CodeSpan:
    """A code span of a text: its inner text verbatim, where it sits, and the role it was written with."""

    text: str
    start: int
    end: int
    role: str = ""


def code_spans(text: str) -> list[CodeSpan]:
    """Every code span of `text` in order (``X``, `X`, :role:`X`), inner text verbatim."""
    out = []
    for m in _CODE.finditer(text):
        inner = m.group(2)
        if not inner.strip() or inner != inner.strip() or "''" in inner:
            continue  # "` `", "`` x``", or TeX quotes ("``Loser'' and ``Beercan''", Wikipedia dumps): no code
        role = m.group(0)[: m.start(1) - m.start()].strip(":")
        out.append(CodeSpan(inner, m.start(), m.end(), role))
    return out


def role_target(span: CodeSpan) -> str:
    """The name a role points at as a reader sees it: :meth:`~flask.Flask.run` → "Flask.run",
    :data:`SECRET_KEY` → "SECRET_KEY", :ref:`the guide <guide>` → "the guide"; a plain span unchanged."""
    text = span.text
    if not span.role:
        return text
    m = re.match(r"^(.*?)\s*<[^>]+>$", text)
    if m:
        return m.group(1)
    if text.startswith("~"):
        return text[1:].rsplit(".", 1)[-1] if "." in text else text[1:]
    return text.lstrip(".!")


def identifier(text: str) -> bool:
    """Whether `text` is a name of code a question may ask about: "max_age", "SESSION_COOKIE_NAME",
    "flask.Flask.run", "send_file()"; one plain word ("debug") only when it holds "_" or is upper case
    (a lower-case word alone is prose in backticks as often as a name)."""
    if not _IDENTIFIER.match(text) or len(text) > 60:
        return False
    bare = text.removesuffix("()")
    return "_" in bare or "." in bare or text.endswith("()") or bare.isupper() or bool(re.search(r"[a-z][A-Z]", bare))


@dataclass(frozen=True)
class ObjectBlock:
    """An object an rST block documents: its name (arguments dropped), its kind, and the span of `text`
    the block covers (the directive line to the last line indented under it)."""

    name: str
    kind: str
    start: int
    end: int


def _indent(s: str) -> int:
    return len(s.expandtabs(4))


def _block_end(text: str, body_from: int, indent: int) -> int:
    """Where the block whose directive sits at `indent` ends: the first non-blank line at or left of it."""
    pos = body_from
    while pos < len(text):
        nl = text.find("\n", pos)
        line = text[pos:] if nl < 0 else text[pos:nl]
        if line.strip() and _indent(line[: len(line) - len(line.lstrip())]) <= indent:
            return pos
        if nl < 0:
            return len(text)
        pos = nl + 1
    return len(text)


def object_blocks(text: str) -> list[ObjectBlock]:
    """The rST object blocks of `text` (`.. py:data:: NAME` and what is indented under it); where the text has
    none, the blocks cleaned text writes (an identifier alone on a line, then what follows it up to the next
    such line). A block whose name is no identifier a question may name (`identifier`: "config" alone) is
    left out."""
    out = []
    for m in _OBJECT_DIRECTIVE.finditer(text):
        raw = m.group("name").strip()
        name = re.sub(r"\(.*$", "", raw).strip()
        called = "()" if "(" in raw and m.group("kind") in ("function", "method", "autofunction", "automethod",
                                                             "decorator") else ""
        if not identifier(name + called):
            continue  # "config" alone (Flask's template global) asks "In which version was config added?": whose?
        end = _block_end(text, m.end() + 1, _indent(m.group("indent")))
        out.append(ObjectBlock(name + called, m.group("kind"), m.start(), end))
    if out:
        return out
    lines = list(_BARE_OBJECT_LINE.finditer(text))
    for i, m in enumerate(lines):
        end = lines[i + 1].start() if i + 1 < len(lines) else len(text)
        out.append(ObjectBlock(m.group("name"), "object", m.start(), end))
    return out


def block_at(blocks: list[ObjectBlock], pos: int) -> ObjectBlock | None:
    """The innermost block holding position `pos`, else None."""
    inside = [b for b in blocks if b.start <= pos < b.end]
    return min(inside, key=lambda b: b.end - b.start) if inside else None


def inner_directive_end(text: str, block: ObjectBlock, pos: int) -> bool:
    """Whether another object's directive starts between the block's start and `pos` at the block's own
    indent or left of it (a block that does not close where it should: a second object's text)."""
    for m in _ANY_DIRECTIVE.finditer(text, block.start + 1, pos):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _OBJECT_DIRECTIVE.match(text, line_start) and line_start > block.start:
            return True
    return False


def owner_before(text: str, pos: int) -> str:
    """The class or component a Markdown list of parameters at `pos` documents: the one CamelCase or dotted
    identifier in code that the section's heading names, else the one the prose between that heading (or
    the text's start) and the list names; "" when there is none or more than one (whose `max_age`?)."""
    # a "# comment" of a code example (kept verbatim in cleaned text) is no heading: a heading opens with a
    # capital, a digit or code ("## `GZipMiddleware`"), a comment mostly in lower case ("# default for …")
    heads = [m for m in _MD_HEADING.finditer(text, 0, pos) if not m.group("text")[:1].islower()]
    start = heads[-1].end() if heads else 0
    # cleaned text: a heading is a line of its own, here one that is only a class's name ("GZipMiddleware"); the
    # later of the two counts
    plain = [m for m in _PLAIN_OWNER_LINE.finditer(text, 0, pos)]
    if plain and (not heads or plain[-1].start() > heads[-1].start()):
        return plain[-1].group("text")
    if heads:
        named = _owners(heads[-1].group("text"))
        if len(named) == 1:
            return named[0]
        if named:
            return ""
    # the prose paragraphs before the list only (the list's own items name parameters, not owners)
    prose = "\n".join(line for line in text[start:pos].splitlines() if not re.match(r"^\s*[*+-]\s", line))
    named = _owners(prose)
    return named[0] if len(named) == 1 else ""


def _owners(text: str) -> list[str]:
    found: list[str] = []
    for span in code_spans(text):
        name = role_target(span).removesuffix("()").rsplit(".", 1)[-1]
        # a class or component: "GZipMiddleware", "CORSMiddleware", "APIRouter" (a module path names none)
        if _OWNER.match(name) and name not in found:
            found.append(name)
    return found
