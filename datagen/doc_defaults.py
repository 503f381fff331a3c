"""A documented option's default value, as technical documentation states it (issue 36: a project's `docs/`).

"What is the default value of SESSION_COOKIE_NAME?" → "'session'"; "What does GZipMiddleware's minimum_size
default to?" → "500". Three shapes are read, each only where the text says whose default it is:

- a Sphinx object block's field line, `Default: ``'session'``` (or "Default: ``timedelta(days=31)``
  (``2678400`` seconds)": the first code span), inside `.. py:data:: SESSION_COOKIE_NAME` (datagen.doc_markup);
- the block's prose "Defaults to ``4093``." (MAX_COOKIE_SIZE), when the block states one default only;
- a Markdown list item of parameters, "* `max_age` - … Defaults to `600`.", owned by the one class the
  section's heading or its lead-in names ("## `GZipMiddleware`", "used by the `CORSMiddleware`"): without an
  owner `max_age` is anybody's, and the item gives nothing (counted `doc_default_without_owner`).

The value is the code span's text verbatim (`'session'` keeps its quotes: it is what the docs write and what
a user types); a value no word survives in ("[]", "''") cannot be verified and gives nothing
(`doc_default_unverifiable`). A block with two different defaults gives none (`doc_default_ambiguous`).
The quote is the passage's text from the object's name to the default (a chunk, so at most a passage long):
one quote shows both.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from datagen.doc_markup import block_at, code_spans, inner_directive_end, object_blocks, owner_before
from datagen.factbase import Fact
from datagen.types import TruthType
from datagen.verify import normalize

RELATION = "doc:default"
ASK = "What is the default value of {s}?"
# "Default: ``False``" — a field line of its own (rST field-list style), or the cleaned text's "Default: False"
_FIELD = re.compile(r"^[ \t]*Default(?: value)?[ \t]*:[ \t]*(?P<value>[^\n]+?)[ \t]*$", re.MULTILINE | re.IGNORECASE)
# "Defaults to ``4093``." opening a sentence, the value a code span right after the words; inside a sentence
# "an instance of X, which defaults to Y" is another thing's default (Flask's `g`: its class's)
_DEFAULTS_TO = re.compile(r"(?:^|(?<=[.!?:]\s)|(?<=[.!?:]\n)|(?<=^[ \t]))\s*(?:Defaults\s+to|The\s+default\s+is)\s+(?=(?::[\w:-]+:)?`)",
                          re.MULTILINE)
# a Markdown list item naming a parameter first: "* `max_age` - text", "- `allow_methods`: text"
# (cleaned text drops the backticks: "- max_age - …"; then the name must read as code, a "_" in it)
_PARAM_ITEM = re.compile(r"^[ \t]*[*+-][ \t]+(?:`(?P<name>[A-Za-z_]\w*)`|(?P<plain>[a-z]\w*_\w+))[ \t]*(?:[-–—:])[ \t]+"
                         r"(?P<body>[^\n]*)$", re.MULTILINE)
# cleaned text's "Defaults to 600." (no code span): one token, up to the sentence's end
_PLAIN_DEFAULT = re.compile(r"^\s*(?:Defaults\s+to|The\s+default\s+is)\s+(?P<value>[^\s`]+?)\.?(?=\s|$)")


def _value(after: str) -> str:
    """The value a "Default:" field or "defaults to" phrase gives: its first code span's text, else (cleaned
    text) the field's plain value when it is one short token run ("False", "None", "timedelta(days=31)")."""
    spans = code_spans(after)
    if spans and spans[0].start <= 1:
        return spans[0].text
    plain = after.strip().rstrip(".")
    if re.match(r"^[\w.'\"()=,\[\]{}: -]{1,40}$", plain) and len(plain.split()) <= 3 and "`" not in plain:
        return plain
    return ""


def _verifiable(value: str) -> bool:
    return bool(normalize(value))


def default_facts(chunk: Any, skipped: Counter, before: str = "") -> list[Fact]:
    """The documented defaults one passage states (see the module docstring); skips counted in `skipped`.
    before: the document's text before the passage (its previous passage): where a list's section heading
    may sit when the passage opens inside the section."""
    text = chunk.text
    out: list[Fact] = []
    blocks = object_blocks(text)
    found: dict[str, list[tuple[str, int, int]]] = {}  # block name -> (value, quote start, quote end)
    for m in _FIELD.finditer(text):
        block = block_at(blocks, m.start())
        if block is None or inner_directive_end(text, block, m.start()):
            skipped["doc_default_without_owner"] += 1
            continue
        value = _value(m.group("value"))
        if value:
            found.setdefault(block.name, []).append((value, block.start, m.end()))
    for m in _DEFAULTS_TO.finditer(text):
        block = block_at(blocks, m.start())
        if block is None or _PARAM_ITEM.match(text, text.rfind("\n", 0, m.start()) + 1):
            continue  # list items are read below; prose outside a block is nobody's default
        value = _value(text[m.end():m.end() + 200])
        if value:
            end = text.find("\n", m.end())
            found.setdefault(block.name, []).append((value, block.start, len(text) if end < 0 else end))
    for name, values in found.items():
        if len({v for v, _, _ in values}) > 1:
            skipped["doc_default_ambiguous"] += 1
            continue
        value, start, end = values[0]
        if not _verifiable(value):
            skipped["doc_default_unverifiable"] += 1
            continue
        out.append(_fact(chunk, text, name, value, start, end))
    for m in _PARAM_ITEM.finditer(text):
        said = _DEFAULTS_TO.search(m.group("body"))
        if said:
            value = _value(m.group("body")[said.end():])
        else:
            plain = re.search(r"(?:^|(?<=[.!?]\s))(?:Defaults\s+to|The\s+default\s+is)\s", m.group("body"))
            found = _PLAIN_DEFAULT.match(m.group("body")[plain.start():]) if plain else None
            value = found.group("value") if found else ""
        if not value:
            continue
        lead = before + "\n" if before else ""
        owner = owner_before(lead + text, len(lead) + m.start())
        if not owner:
            skipped["doc_default_without_owner"] += 1
            continue
        if not _verifiable(value):
            skipped["doc_default_unverifiable"] += 1
            continue
        out.append(_fact(chunk, text, f"{owner}'s {m.group('name') or m.group('plain')}", value, m.start(), m.end()))
    return out


def _fact(chunk: Any, text: str, subject: str, value: str, start: int, end: int) -> Fact:
    return Fact(
        doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=text[start:end].strip(), subject=subject, about_doc=False,
        relation=RELATION, answer=value, kind=_kind(value), ask=ASK,
    )


def _kind(value: str) -> str:
    return TruthType.NUMBER.value if re.match(r"^-?\d[\d_,.]*$", value) else TruthType.ENTITY.value
