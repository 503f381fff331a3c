"""The version in which a documented thing was added, changed, deprecated or removed (issue 36: a project's docs).

"In which version was SECRET_KEY_FALLBACKS added?" → "3.1"; "In which version was ENV removed?" → "2.3";
"In which version did FastAPI add support for Annotated?" → "0.95.0". Read only where the text says whose
version note it is:

- a Sphinx version directive (`.. versionadded:: 3.1`, `versionchanged`, `deprecated`; in cleaned text
  "New in version 3.1", "Changed in version 2.3", "Deprecated since version 3.2") nested in an object's block
  (`.. py:data:: SECRET_KEY_FALLBACKS`, datagen.doc_markup): the object's note, unless its body names what
  it added or removed (then the next shape);
- a version directive whose body names things in code: a body of names alone (".. versionadded:: 0.8 /
  ``TRAP_HTTP_EXCEPTIONS``, ``APPLICATION_ROOT``"), "Added :data:`MAX_COOKIE_SIZE` to …", "``ENV`` was
  removed.", "Removed ``PRESERVE_CONTEXT_ON_EXCEPTION``.": each name's note;
- prose that names who did it: "FastAPI added support for `Annotated` … in version 0.95.0.", "In version
  0.121.0, FastAPI added support for `Depends(scope="function")` …".

A page's opening ".. versionadded:: 2.0" under its title is no object's (what would the question name? the
title's words): it gives nothing. A thing with two notes of one kind in a document ("changed in 1.0", "changed
in 2.3") is left to `factbase.unique_named`, which keeps a (subject, relation) only with one answer.

Where a documentation reader cleaned the page (no indent left to say a note is nested), a note with no name
in its body is given the owner the page's structure says it sits in (`owners`, `--mix owners=0|1`; session 41,
issue 36: Click's MyST notes and Sphinx notes inside an entry were refused, 72 on the tuning folder):

- the entry it sits in: the closest definition before it in the passage (the chunk's `defines` metadata,
  corpus_tools.defined_names: "flask.ctx.RequestContext" / "Deprecated since version 3.2: Merged with …"),
  when the entry's name reads as code (not a template global "config") and the note's body names no other
  setting or defined name (a section's closing list "New in version 0.4:
  LOGGER_NAME" names what it is about, not the entry above it);
- the section it opens: "Screen Clearing" / "New in version 2.0:" (a MyST `{versionadded}` as a section's
  first line) is that section's note, asked only for "added" and only when the heading is one code name or
  a short noun phrase (not the page's title, not "Notes" or "How to …": what would the question name?).

An owner defined in an earlier passage is not read: the task's passage would not name what it asks about.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from corpus_tools.defined_names import DEFINES_SEPARATOR, is_name
from datagen.doc_markup import block_at, code_spans, identifier, object_blocks, role_target
from datagen.factbase import Fact
from datagen.types import TruthType

VERSION = r"v?\d+(?:\.\d+){1,2}(?:\.?(?:a|b|rc|dev|post)\d+)?"
ASKS = {
    "added": "In which version was {s} added?",
    "changed": "In which version did {s} change?",
    "deprecated": "In which version was {s} deprecated?",
    "removed": "In which version was {s} removed?",
}
_DIRECTIVE_KIND = {"versionadded": "added", "versionchanged": "changed", "deprecated": "deprecated",
                   "versionremoved": "removed"}
_CLEANED_KIND = {"new": "added", "added": "added", "changed": "changed", "deprecated": "deprecated",
                 "removed": "removed"}
# `.. versionadded:: 3.1` (its body the lines indented under it), or Sphinx's rendering in cleaned text
NOTE = re.compile(
    rf"^(?P<indent>[ \t]*)(?:\.\.[ \t]+(?P<directive>versionadded|versionchanged|deprecated|versionremoved)::[ \t]+"
    rf"(?P<v1>{VERSION})|(?P<cleaned>New|Added|Changed|Deprecated|Removed)[ \t]+(?:in|since)[ \t]+(?:version[ \t]+)?"
    rf"(?P<v2>{VERSION})[:.]?)[ \t]*(?P<rest>[^\n]*)$",
    re.MULTILINE,
)
_ADDED_NAME = re.compile(r"(?:^|(?<=[.!?]\s)|(?<=\n))\s*Added\s+(?=(?::[\w:-]+:)?`)")
_REMOVED_NAME = re.compile(r"(?:^|(?<=[.!?]\s)|(?<=\n))\s*Removed\s+(?=(?::[\w:-]+:)?`)")
_WERE_REMOVED = re.compile(r"\b(?:was|were)\s+removed\b")
# "FastAPI added support for `Annotated` (and started recommending it) in version 0.95.0."
_SUPPORT_AFTER = re.compile(
    rf"(?P<who>\b[A-Z][A-Za-z0-9]+)\s+added\s+support\s+for\s+(?P<what>(?::[\w:-]+:)?`[^`\n]+`)"
    rf"(?:\s*\([^()\n]*\))?\s+in\s+version\s+`?(?P<v>{VERSION})`?"
)
# "In version 0.121.0, FastAPI added support for `Depends(scope="function")` for dependencies with `yield`."
_SUPPORT_BEFORE = re.compile(
    rf"\bIn\s+version\s+`?(?P<v>{VERSION})`?,\s+(?P<who>[A-Z][A-Za-z0-9]+)\s+added\s+support\s+for\s+"
    rf"(?P<what>(?::[\w:-]+:)?`[^`\n]+`)"
)


def _body(text: str, m: re.Match[str]) -> tuple[str, int]:
    """A note's body (its first line's rest and the lines indented deeper than it) and where it ends."""
    indent = len(m.group("indent").expandtabs(4))
    pos = m.end() + 1
    end = pos
    while pos < len(text):
        nl = text.find("\n", pos)
        line = text[pos:] if nl < 0 else text[pos:nl]
        if line.strip() and len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip()) <= indent:
            break
        end = len(text) if nl < 0 else nl
        if nl < 0:
            break
        pos = nl + 1
    return (m.group("rest") + "\n" + text[m.end() + 1:end]).strip(), max(end, m.end())


def _names(fragment: str) -> list[str]:
    return [n for s in code_spans(fragment) if identifier(n := role_target(s))]


def version_facts(chunk: Any, skipped: Counter, owners: bool = True) -> list[Fact]:
    """The version notes one passage states (see the module docstring); skips counted in `skipped`.
    owners: a note nobody's by its markup takes the entry or section it sits in (False: refused, as before)."""
    text = chunk.text
    out: list[Fact] = []
    blocks = object_blocks(text)
    for m in NOTE.finditer(text):
        kind = _DIRECTIVE_KIND[m.group("directive")] if m.group("directive") else _CLEANED_KIND[m.group("cleaned").lower()]
        version = m.group("v1") or m.group("v2")
        body, end = _body(text, m)
        quote = text[m.start():end].strip()
        named: list[tuple[str, str]] = []  # (name, kind)
        for said in _ADDED_NAME.finditer(body):
            named += [(n, "added") for n in _names(_sentence(body, said.end()))[:1]]
        for said in _REMOVED_NAME.finditer(body):
            named += [(n, "removed") for n in _names(_sentence(body, said.end()))]
        for said in _WERE_REMOVED.finditer(body):
            start = max(body.rfind(". ", 0, said.start()), body.rfind("\n\n", 0, said.start()), -1) + 1
            named += [(n, "removed") for n in _names(body[start:said.start()])]
        if not named and body and _only_names(body) and kind == "added":
            named = [(n, "added") for n in _names(body)]
        if named:
            for name, how in dict.fromkeys(named):
                out.append(_fact(chunk, _quote_through(text, m.start(), end, name) or quote, name, how, version))
            continue
        block = block_at(blocks, m.start())
        # cleaned text has no indent to say a note is the object's: only Sphinx's rendering of a note nested in
        # it, "New in version 3.1:" alone on its line right under the object's "Default:" field, counts ("New in
        # version 0.4: LOGGER_NAME" closing a page names another thing; a section's "New in version 0.8:" under
        # "flask.Response" is the section's)
        loose = block is not None and block.kind == "object" and (
            m.group("rest").strip() or not _after_default(text, m.start()))
        if block is None or loose or block.start == m.start() or not _nested(text, block, m):
            owned = _owner(chunk, m, kind, body, end) if owners else None
            if owned is None:
                skipped["doc_version_without_owner"] += 1
                continue
            out.append(_fact(chunk, owned[1], owned[0], kind, version))
            continue
        out.append(_fact(chunk, text[block.start:end].strip(), block.name, kind, version))
    for pattern in (_SUPPORT_AFTER, _SUPPORT_BEFORE):
        for m in pattern.finditer(text):
            spans = code_spans(m.group("what"))
            what = role_target(spans[0]) if spans else ""
            if not what or len(what) > 40:
                skipped["doc_version_unnamed"] += 1
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            line_end = text.find("\n", m.end())
            quote = text[line_start:len(text) if line_end < 0 else line_end].strip()
            out.append(Fact(
                doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=what, about_doc=False,
                relation=f"doc:support:{m.group('who').lower()}", answer=m.group("v"), kind=TruthType.ENTITY.value,
                ask=f"In which version did {m.group('who')} add support for {{s}}?",
            ))
    return out


# a setting's name as a page writes it (upper case and "_"): a note's body naming one is about that setting
_SETTING = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
_NAME_LIST = re.compile(r"^[\w.()]+(?:\s*(?:,|\band\b)\s*[\w.()]+)*\s*\.?$")
# headings that name no thing a question could ask about ("Notes", "How to …", "Example")
_NO_THING = frozenset("how why what when where which who using use see notes note introduction overview example "
                      "examples usage about tutorial quickstart reference api changes changelog".split())
_MAX_ENTRY_CHARS = 1200  # a note farther from its entry's opening line than this is read as nobody's


def _owner(chunk: Any, note: re.Match[str], kind: str, body: str, end: int) -> tuple[str, str] | None:
    """(owner, quote) of a note its markup gives no owner (see the module docstring), or None."""
    text = chunk.text
    line_start = text.rfind("\n", 0, note.start()) + 1
    defined = [n for n in str((chunk.metadata or {}).get("defines") or "").split(DEFINES_SEPARATOR) if n]
    opened = [(at, n) for n in defined if (at := _defining_line(text, n, note.start())) >= 0]
    if opened:
        at, name = max(opened)
        if not _reads_as_code(name):
            return None  # a template global `config`, a proxy `g`: "When was config added?" names a word, not the entry
        between = text[at:line_start]
        others = set(_SETTING.findall(body)) | {n for n in defined if n != name and re.search(
            rf"(?<![\w.]){re.escape(n.rsplit('.', 1)[-1])}(?![\w])", body)}
        if kind == "added" and body and sum(1 for ln in between.splitlines() if ln.strip()) > 1:
            # an "added" note after the entry's description, saying what it added, is about that: request_scheduled's
            # ".. versionadded:: 2.11.2 / Allow dropping requests with IgnoreRequest." closes a signal far older than
            # 2.11.2 (session 45's reporting read: "When was the Scrapy version that added request_scheduled
            # released?"); a note right under the entry's line ("verbatim_url / New in version 2.17.0: Set this key
            # to True …") is the entry's own
            return None
        if ((not body or not _NAME_LIST.match(body)) and not (others - {name}) and len(between) <= _MAX_ENTRY_CHARS
                and not NOTE.search(between) and (kind != "changed" or text[end:].strip())):
            # a change note closing the passage: the entry may go on in the next one with another change
            # (SERVER_NAME's 3.1, then 1.0 and 2.3), and the question would have three answers
            return name, text[at:end].strip()
        return None
    if kind != "added" or body:
        return None
    path = [p.strip() for p in str((chunk.metadata or {}).get("section") or "").split(" > ") if p.strip()]
    lines = [ln.strip() for ln in text[:line_start].splitlines() if ln.strip()]
    if len(path) < 2 or not lines or lines[-1] != path[-1] or not _thing_heading(path[-1]):
        return None
    head = text.rfind(path[-1], 0, line_start)
    paragraph = re.search(r"\S[\s\S]*?(?=\n[ \t]*\n|$)", text[end:])
    return path[-1], text[head:end + (paragraph.end() if paragraph else 0)].strip()


def _defining_line(text: str, name: str, before: int) -> int:
    """Where the last line before `before` opening `name`'s entry starts (the name alone, or called:
    "flask.Flask.route(rule, **options)"), or -1."""
    found = -1
    for m in re.finditer(rf"^[ \t]*`{{0,2}}{re.escape(name)}(?:\(\)|\([^\n]*\))?`{{0,2}}[ \t]*$", text[:before], re.MULTILINE):
        found = m.start()
    return found


def _reads_as_code(name: str) -> bool:
    """Whether a name reads as code in a question, not as a word: "_", ".", a leading "-", or a capital past its
    first letter (as corpus_tools.defined_names reads a question's tokens)."""
    return "_" in name or "." in name or name.startswith("-") or any(ch.isupper() for ch in name[1:])


def _thing_heading(heading: str) -> bool:
    """Whether a section heading names one thing a question may ask about: a code name, or a noun phrase of
    one to four plain words none of which says the section is a note, a how-to or an example."""
    if is_name(heading) and _reads_as_code(heading):
        return True
    words = heading.split()
    return (1 <= len(words) <= 4 and all(re.fullmatch(r"[A-Za-z][A-Za-z-]*", w) for w in words)
            and not any(w.lower() in _NO_THING for w in words))


def _nested(text: str, block: Any, note: re.Match[str]) -> bool:
    """Whether the note is indented under the block's directive (a note at the directive's indent is the
    page's or the section's, whatever object stood above it)."""
    line_start = text.rfind("\n", 0, block.start) + 1
    own = text[line_start:text.find("\n", block.start) if "\n" in text[block.start:] else len(text)]
    block_indent = len(own.expandtabs(4)) - len(own.expandtabs(4).lstrip())
    return len(note.group("indent").expandtabs(4)) > block_indent or block.kind == "object"


def _quote_through(text: str, start: int, end: int, name: str) -> str:
    """The note from its version line to the end of the sentence naming `name`: each thing a note names gets
    its own quote (a task is its passage, quote and answer: "``A`` was removed. Added ``B``." in 2.0 asks two
    things, not one twice)."""
    at = text.find(name, start, end)
    if at < 0:
        return ""
    stop = re.search(r"[.!?](?=\s|$)|\n[ \t]*\n|,", text[at + len(name):end])
    return text[start:at + len(name) + (stop.end() if stop and stop.group(0) in ".!?" else 0)].strip()


def _after_default(text: str, at: int) -> bool:
    """Whether the last non-blank line before `at` is a "Default: …" field line."""
    lines = [line for line in text[:at].splitlines() if line.strip()]
    return bool(lines) and bool(re.match(r"^\s*Default(?: value)?\s*:", lines[-1], re.IGNORECASE))


def _sentence(body: str, start: int) -> str:
    """The body from `start` to the end of its sentence (a name list, "Added :data:`X` to control …")."""
    m = re.search(r"[.!?](?:\s|$)", body[start:])
    return body[start:start + m.start()] if m else body[start:]


def _only_names(body: str) -> bool:
    """Whether a note's body is nothing but names in code, commas and "and" ("``A``, ``B``")."""
    rest = body
    for s in reversed(code_spans(body)):
        rest = rest[:s.start] + rest[s.end:]
    return bool(code_spans(body)) and not re.sub(r"[\s,]|\band\b", "", rest)


def _fact(chunk: Any, quote: str, name: str, how: str, version: str) -> Fact:
    return Fact(
        doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=name, about_doc=False,
        relation=f"doc:{how}", answer=version, kind=TruthType.ENTITY.value, ask=ASKS[how],
    )
