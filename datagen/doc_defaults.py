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
_PARAM_ITEM = re.compile(r"^[ \t]*[*+-][ \t]+(?:`(?P<name>[A-Za-z_]\w*)`|(?P<plain>[a-z]\w*_\w+)|(?P<word>[a-z][a-z0-9]+))[ \t]*(?:[-–—:])[ \t]+"
                         r"(?P<body>[^\n]*)$", re.MULTILINE)
# a parameter as API references write it outside a bullet list: a field list ":param timeout: … Defaults to 5.",
# ":param int timeout: …", or a rendered parameter line "timeout (int) – … Default: 5" / "timeout – …"
_PARAM_LINE = re.compile(
    r"^[ \t]*(?::param(?:[ \t]+[\w\[\], .|]+?)?[ \t]+(?P<field>[A-Za-z_]\w*)[ \t]*:"
    r"|\*{0,2}(?P<dashed>[A-Za-z_]\w*)\*{0,2}[ \t]*(?:\([^)\n]{1,40}\))?[ \t]+[–—][ \t]+)[ \t]*(?P<body>[^\n]*)$",
    re.MULTILINE,
)
# "(default: 5)", "[default: 5]", "Default: 5" inside a parameter's description (the value up to the bracket / end)
_INLINE_DEFAULT = re.compile(r"[(\[]default:?[ \t]+(?P<br>[^)\]\n]{1,40})[)\]]|(?:^|(?<=[.;]\s))Default(?: value)?:[ \t]*"
                             r"(?P<field>[^\n]{1,40}?)\.?[ \t]*$", re.IGNORECASE)
# a command-line option in a help page: "  --port INTEGER  Port to bind.  [default: 5000]"
_CLI_OPTION = re.compile(r"^[ \t]*(?:-\w,[ \t]*)?(?P<opt>--[a-z][\w-]*)(?:[ \t=]+[A-Z][A-Z_]*|[ \t]*/[ \t]*--[\w-]+)?"
                         r"[ \t]+[^\n]*?\[default:[ \t]*(?P<value>[^\]\n]{1,40})\]", re.MULTILINE)
# the command a help page is of: "Usage: serve [OPTIONS]"
_USAGE = re.compile(r"^[ \t]*Usage:[ \t]+(?P<cmd>[\w.-]+(?:[ \t]+[a-z][\w-]*)*?)[ \t]+\[", re.MULTILINE)
# cleaned text's "Defaults to 600." (no code span): one token, up to the sentence's end
# ("Defaults to 2 weeks." is no value of one token: the token must end the sentence, or "2" is read)
_PLAIN_DEFAULT = re.compile(r"^\s*(?:Defaults\s+to|The\s+default\s+is)\s+(?P<value>[^\s`]+?)(?:\.(?=\s|$)|$)")


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
        line_start = text.rfind("\n", 0, m.start()) + 1
        if block is None or _PARAM_ITEM.match(text, line_start) or _PARAM_LINE.match(text, line_start):
            continue  # list items and parameter lines are read below; prose outside a block is nobody's default
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
        if m.group("word") and not _argument_list(before + "\n" + text[:m.start()]):
            continue  # "- compresslevel - …" is a parameter only in a list the text says lists them
        value = _param_value(m.group("body"), inline=False)
        if not value:
            continue
        lead = before + "\n" if before else ""
        owner = owner_before(lead + text, len(lead) + m.start())
        name = m.group("name") or m.group("plain") or m.group("word")
        fact = _owned_fact(chunk, text, owner, name, value, m.start(), m.end(), skipped)
        if fact is not None:
            out.append(fact)
    out += _param_lines(chunk, text, before, blocks, skipped)
    out += _cli_options(chunk, text, skipped)
    return out


# the lead-in of a list of parameters: "The following arguments are supported:", "Parameters:", "Options:"
_ARGUMENT_LEAD = re.compile(r"\b(?:arguments|parameters|options|keyword arguments|settings)\b[^\n]{0,40}:[ \t]*$", re.IGNORECASE)


def _argument_list(text: str) -> bool:
    """Whether the list that ends `text` (its items so far) is introduced as a list of parameters: the paragraph
    before its items, the first one back that does not open with an item, ends "… arguments are supported:"."""
    for para in reversed(re.split(r"\n[ \t]*\n", text.rstrip())):
        if re.match(r"^[ \t]*[*+-][ \t]", para):
            continue
        return bool(_ARGUMENT_LEAD.search(para.rstrip().rsplit("\n", 1)[-1]))
    return False


def _param_value(body: str, inline: bool = True) -> str:
    """The default a parameter's description states: "Defaults to `x`", "The default is x", and with `inline`
    "(default: x)", "Default: x" (a list item's own prose does not write those)."""
    said = _DEFAULTS_TO.search(body)
    if said:
        return _value(body[said.end():])
    plain = re.search(r"(?:^|(?<=[.!?]\s))(?:Defaults\s+to|The\s+default\s+is)\s", body)
    if plain:
        found = _PLAIN_DEFAULT.match(body[plain.start():])
        return found.group("value") if found else ""
    said_inline = _INLINE_DEFAULT.search(body) if inline else None
    if said_inline:
        return _value(said_inline.group("br") or said_inline.group("field") or "")
    return ""


def _owned_fact(chunk: Any, text: str, owner: str, name: str, value: str, start: int, end: int,
                skipped: Counter) -> Fact | None:
    """"OWNER's NAME" defaults to `value`, or None (counted) when no owner says whose parameter it is or the value
    cannot be verified in the text."""
    if not owner:
        skipped["doc_default_without_owner"] += 1
        return None
    if not _verifiable(value):
        skipped["doc_default_unverifiable"] += 1
        return None
    return _fact(chunk, text, f"{owner}'s {name}", value, start, end)


def _param_lines(chunk: Any, text: str, before: str, blocks: list, skipped: Counter) -> list[Fact]:
    """A field list's or a rendered parameter line's default, owned by the object block it sits in (`.. function::
    connect(timeout=5)`) or the one class its section names; no owner, no fact (whose `timeout`?)."""
    out = []
    for m in _PARAM_LINE.finditer(text):
        value = _param_value(m.group("body"))
        if not value:
            continue
        block = block_at(blocks, m.start())
        lead = before + "\n" if before else ""
        owner = block.name if block is not None else owner_before(lead + text, len(lead) + m.start())
        fact = _owned_fact(chunk, text, owner, m.group("field") or m.group("dashed"), value,
                           block.start if block is not None else m.start(), m.end(), skipped)
        if fact is not None:
            out.append(fact)
    return out


def _cli_options(chunk: Any, text: str, skipped: Counter) -> list[Fact]:
    """A command-line option's default as its help page prints it ("--port INTEGER … [default: 5000]"), the
    command named when a "Usage:" line above names it ("the --port option of serve")."""
    out = []
    for m in _CLI_OPTION.finditer(text):
        value = m.group("value").strip()
        if not _verifiable(value):
            skipped["doc_default_unverifiable"] += 1
            continue
        usage = [u for u in _USAGE.finditer(text, 0, m.start())]
        subject = f"the {m.group('opt')} option" + (f" of {usage[-1].group('cmd')}" if usage else "")
        out.append(_fact(chunk, text, subject, value, usage[-1].start() if usage else m.start(), m.end()))
    return out


def _fact(chunk: Any, text: str, subject: str, value: str, start: int, end: int) -> Fact:
    return Fact(
        doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=text[start:end].strip(), subject=subject, about_doc=False,
        relation=RELATION, answer=value, kind=_kind(value), ask=ASK,
    )


def _kind(value: str) -> str:
    return TruthType.NUMBER.value if re.match(r"^-?\d[\d_,.]*$", value) else TruthType.ENTITY.value
