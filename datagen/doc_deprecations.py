"""What a release deprecated or removed, as changelogs and deprecation pages write it (issue 36; session 46).

Deprecations and removals are version notes too ("In which version of HTTPX was the proxies argument deprecated?"
→ "0.26.0"), but two shapes real projects write them in had no owner reading (datagen.doc_versions reads notes
nested in an entry):

- **a changelog's items**, under a release heading (datagen.doc_releases reads the heading and its day):

      0.26.0 (20th December, 2023)          4.4.0 (2024-05-26)                  0.45.0 (December 29, 2024)
      Deprecated                            - Deprecated the OBSERVE_REQUEST_     Removed
      - The proxies argument is now           CALLBACK setting and added check    - Drop Python 3.8 support #2823.
        deprecated. …                         …                                   - Remove deprecated allow_redirects
                                                                                    argument from TestClient #2808.

  The kind is the item's own verb ("Deprecate …", "Remove …", "Drop …", "… has been deprecated"), and, where it
  sits under a "Deprecated" / "Deprecations" / "Removed" / "Removals" label of its release, the label must agree.
  The thing is what the item names in code (a name with "_", ".", an inner capital or a leading "-":
  `OBSERVE_REQUEST_CALLBACK`, `Request.form()`), with the kind of thing the item says after it ("the
  OBSERVE_REQUEST_CALLBACK setting"), or a plain word only with such a kind ("the proxies argument"), or "support
  for Python 3.8". Prose that names no such thing ("Deprecate configuring hook specs/impls using attributes/marks",
  "Removed the static file path validation check …") gives nothing, counted. The version is the release heading's,
  in the same passage (the passage must answer), with no other release heading between.

- **a deprecation page's sections** (pytest's deprecations.rst): a section headed by one thing, its first lines
  the notes `.. deprecated:: 6.0` / `.. versionremoved:: 7.0` ("The pytest.collect module" / "Deprecated since
  version 6.0:" / "Removed in version 7.0:"). datagen.doc_versions gives a section's opening note an owner only for
  "added" (`_owner`); here a deprecated or removed note opening a section headed "The X module" / "X command-line
  option" / a lone code name is that thing's, each of a section's opening notes, with nothing but notes between the
  heading and it.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from datagen.doc_releases import release_headings
from datagen.doc_versions import ASKS, NOTE
from datagen.factbase import Fact
from datagen.types import TruthType

# the kind of thing an item or heading names after the thing itself ("the proxies argument")
NOUNS = ("command-line option", "command line option", "ini option", "ini setting", "configuration option",
         "keyword argument", "environment variable", "import proxy", "function/decorator", "argument", "parameter",
         "attribute", "property", "method", "function", "class", "module", "setting", "option", "hook", "shortcut",
         "alias", "decorator", "fixture", "marker", "flag", "constant", "exception", "warning", "field",
         "collector", "extra", "dependency", "package", "global", "prefix", "signal", "panel", "backend",
         "middleware")
_NOUN = "|".join(re.escape(n) for n in sorted(NOUNS, key=len, reverse=True))
# a name as a page writes code: dotted, with "_", "()", or an option's dashes
_CODE = r"(?:--?[A-Za-z][\w-]*|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*(?:\(\))?)"
_LABELS = {"deprecated": "deprecated", "deprecations": "deprecated", "removed": "removed", "removals": "removed"}
# a release's section label on its own line: "Deprecated", "### Removed", "Removals and backward incompatible breaking
# changes"; any other label ("Fixed", "Added") ends the one above it
_LABEL = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+)?(?P<label>Deprecated|Deprecations|Removed|Removals|Added|Changed|Fixed|"
                    r"Features|Bug\s+Fixes|Bugfixes|Improvements|Security|Refactor|Documentation|Trivial)"
                    r"(?:\s+and\s+[^\n]{1,60})?[ \t]*$", re.MULTILINE)
_ITEM = re.compile(r"^[ \t]*[-*+][ \t]+(?P<body>[^\n]*(?:\n(?![ \t]*[-*+][ \t])(?![ \t]*\n)[^\n]+)*)", re.MULTILINE)
# an item's leading issue reference ("#10012: ", "`#14533`_: ") and an emoji or two
_LEAD = re.compile(r"^(?:[^\w\s`(#-]+[ \t]*)*(?:#\d+:[ \t]*)?")
_VERB_FIRST = re.compile(
    rf"^(?:We\s+(?:have\s+)?)?(?P<verb>(?i:deprecated?s?|removed?s?|drop(?:ped|s)?))\s+(?:the\s+)?(?:deprecated\s+|private\s+|undocumented\s+)?"
    rf"(?P<things>{_CODE}(?:\s*(?:,|,?\s+and)\s+{_CODE})*)(?:\s+(?P<noun>{_NOUN})s?)?"
    rf"(?=\s*(?:$|[.;,:(#]|\s(?:and|from|in|on|since|as|because|which|that|in\s+favou?r)\b))")
_THING_FIRST = re.compile(
    rf"^(?:The\s+)?(?:deprecated\s+|private\s+)?(?P<things>{_CODE})(?:\s+(?P<noun>{_NOUN}))?\s+"
    rf"(?:has\s+been|have\s+been|is\s+now|are\s+now|was|were|is|are)\s+(?:now\s+|officially\s+)?"
    rf"(?P<verb>deprecated|removed|dropped)\b")
_SUPPORT = re.compile(
    r"^(?:We\s+(?:have\s+)?)?(?P<verb>(?i:drop(?:ped|s)?|remove[ds]?))\s+(?:support\s+for\s+(?P<a>[A-Z][A-Za-z]+\s+\d+(?:\.\d+)?)"
    r"|(?P<b>[A-Z][A-Za-z]+\s+\d+(?:\.\d+)?)\s+support)(?=\s*(?:$|[.;,(#]|\s(?:as|since|because|following)\b))")
# a deprecation page's heading naming one thing: "The pytest.collect module", "--no-print-logs command-line option"
_HEADING = re.compile(rf"^(?:The\s+)?(?P<thing>{_CODE})(?:\s+(?P<noun>{_NOUN}))?$")


def reads_as_code(name: str) -> bool:
    """Whether a name reads as code in a question, not as a word (as datagen.doc_versions' `_reads_as_code`)."""
    bare = name.removesuffix("()")
    return ("_" in bare or "." in bare or bare.startswith("-") or any(ch.isupper() for ch in bare[1:])
            or name.endswith("()"))


def _kind(verb: str) -> str:
    return "deprecated" if verb.lower().startswith("deprecat") else "removed"


def _subject(thing: str, noun: str | None) -> str:
    return f"the {thing} {noun}" if noun else thing


def item_things(body: str) -> tuple[str, list[str]] | None:
    """(kind, things) one changelog item deprecates or removes (see the module docstring), None when it names none."""
    first = _LEAD.sub("", body.strip())
    first = re.split(r"(?<=[a-z0-9)\]])\.(?:\s|$)", first, maxsplit=1)[0]  # its first sentence
    first = re.sub(r"\s+", " ", first)
    m = _SUPPORT.match(first)
    if m:
        return "removed", [f"support for {m.group('a') or m.group('b')}"]
    m = _VERB_FIRST.match(first) or _THING_FIRST.match(first)
    if not m:
        return None
    noun = m.group("noun")
    things = [t for t in re.split(r"\s*(?:,|,?\s+and)\s+", m.group("things")) if t]
    if not noun and not all(reads_as_code(t) for t in things):
        return None  # "Drop fixtures …": a word, not a named thing
    if noun and len(things) > 1:
        return None  # "the A and B arguments": a plural noun; asked one by one it would misquote
    return _kind(m.group("verb")), [_subject(t, noun) for t in things]


def changelog_facts(chunk: Any, skipped: Counter, named: bool = False) -> list[Fact]:
    """The deprecation and removal items of one passage of a changelog (see the module docstring). named: a release
    heading naming its project is read too (datagen.doc_releases, `release_names`)."""
    text = chunk.text
    heads = release_headings(text, named)
    if not heads:
        return []
    out: list[Fact] = []
    for m in _ITEM.finditer(text):
        above = [h for h in heads if h[1] <= m.start()]
        found = item_things(m.group("body"))
        if found is None:
            continue
        if not above:
            skipped["doc_deprecation_without_version"] += 1
            continue
        kind, things = found
        release = above[-1]
        labels = [_LABELS.get(lm.group("label").lower()) for lm in _LABEL.finditer(text, release[1], m.start())]
        if labels and labels[-1] not in (None, kind):
            skipped["doc_deprecation_label_disagrees"] += 1  # "Remove …" under "Deprecated": which is it?
            continue
        line_end = text.find("\n", m.end())
        quote = text[release[0]:len(text) if line_end < 0 else line_end].strip()
        for thing in things:
            out.append(_fact(chunk, quote, thing, kind, release[2]))
    return out


def page_facts(chunk: Any, skipped: Counter) -> list[Fact]:
    """A deprecation page's section notes (see the module docstring): a deprecated or removed note among a section's
    opening lines, the section headed by one thing."""
    text = chunk.text
    path = [p.strip() for p in str((chunk.metadata or {}).get("section") or "").split(" > ") if p.strip()]
    out: list[Fact] = []
    for m in NOTE.finditer(text):
        kind = _kind_of(m)
        if kind not in ("deprecated", "removed") or m.group("rest").strip():
            continue
        lines = [ln.strip() for ln in text[:m.start()].splitlines() if ln.strip()]
        while lines and NOTE.fullmatch(lines[-1]):
            lines.pop()  # the section's notes before this one ("Deprecated since version 6.0:" over "Removed in …")
        if not lines:
            continue
        heading = lines[-1]
        h = _HEADING.match(heading)
        if not h or (not h.group("noun") and not reads_as_code(h.group("thing"))):
            continue
        head = text.rfind(heading, 0, m.start())
        if heading not in path and not _alone(text, head, len(heading)):
            continue  # a line of a paragraph, not the section's heading
        end = text.find("\n", m.end())
        out.append(_fact(chunk, text[head:len(text) if end < 0 else end].strip(),
                         _subject(h.group("thing"), h.group("noun")), kind, m.group("v1") or m.group("v2")))
    return out


def _alone(text: str, at: int, size: int) -> bool:
    """Whether text[at:at + size] is a line of its own between blank lines (or the passage's start): a heading as
    cleaned text keeps it (a chunk opening inside a section holds its heading but names another section)."""
    before = text[:at]
    after = text[at + size:]
    return (not before.strip() or before.endswith("\n\n") or bool(re.search(r"\n[ \t]*\n[ \t]*$", before))) \
        and bool(re.match(r"[ \t]*\n[ \t]*\n", after))


def _kind_of(m: re.Match[str]) -> str:
    if m.group("directive"):
        return {"deprecated": "deprecated", "versionremoved": "removed"}.get(m.group("directive"), "")
    return {"deprecated": "deprecated", "removed": "removed"}.get(m.group("cleaned").lower(), "")


def deprecation_facts(chunk: Any, skipped: Counter, named: bool = False) -> list[Fact]:
    """Both shapes' facts of one passage."""
    return [*changelog_facts(chunk, skipped, named), *page_facts(chunk, skipped)]


_STEMS = {"deprecated": ("deprecat",), "removed": ("remov", "drop", "no longer")}


def undisputed(facts: list[Fact], text: str, skipped: Counter, named: bool = False) -> list[Fact]:
    """The changelog facts of a page (`text`: the whole page) whose thing no other release of the page also says it
    deprecated or removed: HTTPX's 0.7.6 "Drop `proxies` parameter from the high-level API" and 0.28.0's "The
    deprecated `proxies` argument has now been removed" answer "When was the proxies parameter removed?" twice,
    and the question names no API to tell them apart. A release's text is its heading to the next one's."""
    heads = release_headings(text, named)
    if not heads:
        return facts
    sections = [(h[2], text[h[1]:nxt[0] if nxt else len(text)]) for h, nxt in zip(heads, [*heads[1:], None], strict=True)]
    out = []
    for f in facts:
        bare = re.sub(rf"^the\s+|\s+(?:{_NOUN})$", "", f.subject)
        kind = f.relation.removeprefix("doc:")
        if kind in _STEMS and not f.subject.startswith("support for "):
            said = {v for v, body in sections if any(
                re.search(rf"(?<![\w.-]){re.escape(bare)}(?![\w-])", s) and any(st in s.lower() for st in _STEMS[kind])
                for s in re.split(r"(?<=[.!?])\s+|\n\s*\n|\n[ \t]*[-*+][ \t]", body))}
            if len(said - {f.answer}) > 0:
                skipped["doc_deprecation_disputed"] += 1
                continue
        out.append(f)
    return out


def _fact(chunk: Any, quote: str, thing: str, kind: str, version: str) -> Fact:
    return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=thing, about_doc=False,
                relation=f"doc:{kind}", answer=version, kind=TruthType.ENTITY.value, ask=ASKS[kind])

