"""What a hand-written API reference states (issue 36, session 42): the pages a library writes about its classes,
functions, settings and environment, read as a user of the library would ask them.

Session 41's unseen folder showed the gap: HTTPX's MkDocs pages (no changelog in the folder, no Sphinx markup)
gave no task at all, because the documentation readers (datagen.doc_defaults, doc_versions, doc_releases) read
changelogs, version notes and `Default:` fields. This module reads six shapes, each only where the passage itself
says whose thing it is and states the answer verbatim:

- a signature's defaults, `Signature: Response.set_cookie(key, value, max_age=None, ..., samesite="lax")` or a
  line that is the section's own heading written as a call ("What is the default value of the samesite parameter
  of Response.set_cookie()?" → `"lax"`), `doc:ref:signature_default`;
- a settings / parameters table with a header row naming a `Default` or `Type` column ("(Parameter) | Type |
  Description"): "What type is the summary parameter?" → `str`, `doc:ref:table_default`, `doc:ref:type`; a table
  with no header row names no column and gives nothing (`doc_ref_table_no_header`);
- an attribute list under a class's heading, "- .status_code - int", "- def .json() - Any" (the cleaned form of
  "* `.status_code` - **int**"): "What type is Response.status_code?" → `int`, "What does Response.json()
  return?" → `Any`, `doc:ref:type` / `doc:ref:returns`; the heading must be one code name (the owner), the item's
  body one type and nothing else (an item with no description, or a sentence, gives nothing);
- what raises what: "When a request contains invalid data, FastAPI internally raises a RequestValidationError."
  → "What exception does FastAPI raise when a request contains invalid data?", `doc:ref:raises`; the raiser must
  be a code name or a CamelCase name (never "it", "this", a heading) and the exception a CamelCase name;
- an environment variable's purpose: "You can … by setting the FLASK_SKIP_DOTENV environment variable" →
  "Which environment variable can you set to …?", "The NAME environment variable controls X" → "Which environment
  variable controls X?", and an entry that defines the variable (its heading, or the chunk's `defines`, on a page
  about the environment) by its first sentence after its field lines, "This contains …" → "Which environment
  variable contains …?", "If this environment variable is set then HTTPX will load …" → "Which environment
  variable, when set, makes HTTPX load …?", `doc:ref:envvar`.

Each fact keeps the passage's text from its owner to its answer as its quote, so the verifier checks the answer
against the passage as it does every documentation fact, and the project is named by datagen.doc_projects.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from datagen.factbase import Fact
from datagen.types import TruthType
from datagen.verify import normalize

SIGNATURE_DEFAULT = "doc:ref:signature_default"
TABLE_DEFAULT = "doc:ref:table_default"
TYPE = "doc:ref:type"
RETURNS = "doc:ref:returns"
RAISES = "doc:ref:raises"
ENVVAR = "doc:ref:envvar"

# the project-named form of each question (datagen.doc_projects.ASKS takes these)
NAMED_ASKS = {
    SIGNATURE_DEFAULT: "What is the default value of {s} in {p}?",
    TABLE_DEFAULT: "What is the default value of {s} in {p}?",
    TYPE: "What type is {s} in {p}?",
    RETURNS: "What does {s} return in {p}?",
}

# a code name as reference pages write one: dotted, a call, snake_case, or CamelCase with an inner capital
_NAME = r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*"
_CODE_NAME = re.compile(rf"^(?:{_NAME}\(\)|{_NAME}\.{_NAME}|[a-z_]\w*_\w+|_?[A-Z][a-z0-9]+[A-Z]\w*|[A-Z][A-Za-z0-9]*)$")
# "Signature: Response(content, status_code=200)": the line that states a callable's parameters
_SIGNATURE = re.compile(rf"^[ \t]*(?:Signature:[ \t]*)(?:def[ \t]+|class[ \t]+)?(?P<call>{_NAME})\((?P<args>[^\n]*)\)[ \t]*:?[ \t]*$",
                        re.MULTILINE)
_CALL_LINE = re.compile(rf"^[ \t]*(?:def[ \t]+|class[ \t]+)?(?P<call>{_NAME})\((?P<args>[^\n]*)\)[ \t]*$", re.MULTILINE)
# a value a reader can check in the text: a literal, not an expression that runs ("1024*1024" is read verbatim)
_LITERAL = re.compile(r"""^(?:-?\d[\d_.]*(?:\s*\*\s*\d[\d_.]*)*|None|True|False|"[^"\n]{0,40}"|'[^'\n]{0,40}'|[A-Za-z_][\w.]*(?:\([^()\n]{0,30}\))?)$""")
# a type as an attribute list writes it: "int", "str | None", "Optional[str]", "bytes or str", "bytes iterator"
_ONE_TYPE = r"[A-Za-z_][\w.]*(?:\[[\w., \[\]|]{1,40}\])?"
_A_TYPE = rf"(?:async[ \t]+)?{_ONE_TYPE}(?:[ \t]+(?:async[ \t]+)?iterator)?"  # "bytes iterator" too
_TYPE = re.compile(rf"^{_A_TYPE}(?:[ \t]*(?:\||,|or|,[ \t]*or)[ \t]*{_A_TYPE}){{0,2}}$")
# "- .status_code - int", "* `def .json()` - **Any**", "- def .iter_bytes([chunk_size]) - bytes iterator" (read: one type only)
_ATTR_ITEM = re.compile(r"^[ \t]*[*+-][ \t]+`?(?P<def>def[ \t]+)?(?P<name>\.?[A-Za-z_]\w*(?:\((?P<args>[^()\n]{0,60})\))?)`?"
                        r"[ \t]+[-–—:][ \t]*\*{0,2}(?P<body>[^\n]*?)\*{0,2}[ \t]*$", re.MULTILINE)
# the exception: a CamelCase name, "raises a ClientDisconnect", "raise the WebSocketDisconnect exception"
_EXC = r"(?P<exc>[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)"
_RAISER = r"(?P<who>[A-Za-z_][\w.]*(?:\(\))?)(?:\s+(?:method|function|class))?"
_CLAUSE = r"(?P<clause>[^,.;:\n]{6,120}?)"
# "When a request contains invalid data, FastAPI internally raises a RequestValidationError."
_RAISES_AFTER = re.compile(rf"(?:^|(?<=[.!?]\s))(?P<conj>When|If)\s+{_CLAUSE},\s+(?:then\s+)?(?:the\s+)?(?:await\s+)?{_RAISER}\s+"
                           rf"(?:\w+ly\s+)?(?P<will>will\s+)?raises?\s+(?:an?\s+|the\s+)?{_EXC}(?:\s+(?:exception|error))?\s*[.;,]",
                           re.MULTILINE)
# "Response.raise_for_status() raises HTTPStatusError if the response was not a 2xx."
_RAISES_BEFORE = re.compile(rf"(?:^|(?<=[.!?]\s)|(?<=\n)){_RAISER}\s+(?:\w+ly\s+)?(?P<will>will\s+)?raises?\s+(?:an?\s+|the\s+)?{_EXC}"
                            rf"(?:\s+(?:exception|error))?\s+(?P<conj>if|when)\s+{_CLAUSE}\s*[.;]", re.MULTILINE)
_PRONOUNS = frozenset("it this that these those which they he she we you one".split())
# an environment variable's name: upper case, an underscore in it ("SSL_CERT_FILE", "FLASK_SKIP_DOTENV")
_ENV = r"(?P<env>[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])"
_ENV_NAME = re.compile(rf"^{_ENV}$")
# "You can tell Flask not to load dotenv files … by setting the FLASK_SKIP_DOTENV environment variable." ("you could
# … by setting OPENAPI_URL" is a tutorial's own example app, not the library: FastAPI reads no OPENAPI_URL)
_BY_SETTING = re.compile(rf"(?:^|(?<=[.!?]\s))(?:Then\s+)?(?:you|You)\s+(?P<modal>can)\s+(?P<vp>[a-z][^.;:]{{8,160}}?)\s+by\s+setting\s+"
                         rf"(?:the\s+)?(?:environment\s+variable\s+{_ENV}|{_ENV.replace('env', 'env2')}\s+environment\s+variable)"
                         r"(?:\s+to\s+(?P<value>[^.,;:\n]{1,40}?))?\s*(?:,\s*like)?[.:]", re.MULTILINE)
# "The FLASK_DEBUG environment variable controls …" / "The X environment variable is used to …"
_ENV_VERB = re.compile(rf"(?:^|(?<=[.!?]\s))The\s+{_ENV}\s+environment\s+variable\s+(?P<verb>sets|controls|specifies|configures|enables|"
                       r"disables|overrides|determines|selects|changes|is\s+used\s+to|can\s+be\s+used\s+to)\s+(?P<rest>[^.;:]{4,140}?)\s*\.",
                       re.MULTILINE)
# table header row as the readers write it: "(Parameter) | Type | Description" (the row-label column in brackets)
# each cell one or more characters after its "|" (spaces its own: a pattern that let the spaces around a "|" go to
# either cell backtracked exponentially on an office table's header ending in "|", "(columns) | OR Num. | Amt | … |")
_TABLE_HEAD = re.compile(r"^\((?P<row>[^()\n|]{1,30})\)(?P<cols>[ \t]*(?:\|[^|\n]+)+)$", re.MULTILINE)
_ROW_NOUNS = frozenset("parameter argument option setting field attribute key variable flag".split())


def reference_facts(chunk: Any, skipped: Counter) -> list[Fact]:
    """Every reference fact one passage states (see the module docstring); what is refused is counted in
    `skipped` under `doc_ref_*`."""
    text = chunk.text
    section = str((chunk.metadata or {}).get("section") or "")
    leaf = section.rsplit(" > ", 1)[-1].strip().strip("`") if section else ""
    out = [*_signature_defaults(chunk, text, leaf, skipped), *_attribute_types(chunk, text, leaf, skipped),
           *_raises(chunk, text, skipped), *_envvars(chunk, text, leaf, skipped)]
    if str((chunk.metadata or {}).get("kind") or "") == "table":
        out += _table_facts(chunk, text, skipped)
    return out


def _split_args(args: str) -> list[str]:
    """A parameter list split at its top-level commas (brackets and quotes kept whole)."""
    parts, depth, quote, cur = [], 0, "", []
    for ch in args:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def _signature_defaults(chunk: Any, text: str, leaf: str, skipped: Counter) -> list[Fact]:
    """The defaults a "Signature:" line states, or a line that is the section's own heading written as a call
    (an example's `def f(x=1)` states nobody's API: only these two lines are read)."""
    lines = [*_SIGNATURE.finditer(text)]
    if leaf and "(" in leaf and _CALL_LINE.match(leaf.strip()):
        lines += [m for m in _CALL_LINE.finditer(text)
                  if m.group(0).strip() == leaf.strip() and not any(s.start() <= m.start() < s.end() for s in lines)]
    out = []
    for m in lines:
        call = m.group("call")
        line = text[m.start():m.end()]
        at = 0
        for arg in _split_args(m.group("args")):
            # the quote runs from the line's start to this parameter: two parameters defaulting to `None` on one
            # line are two tasks, not one quote and answer twice (the generator keys a task on them)
            at = line.find(arg, at) + len(arg) if line.find(arg, at) >= 0 else len(line)
            name, eq, value = arg.partition("=")
            name = name.split(":", 1)[0].strip()
            value = value.strip()
            if not eq or not re.fullmatch(r"[A-Za-z_]\w*", name) or name in ("self", "cls"):
                continue
            if not _LITERAL.match(value) or not normalize(value):
                skipped["doc_ref_unverifiable"] += 1  # "[]", "{}", an expression: nothing a reader can check
                continue
            out.append(_fact(chunk, text, f"the {name} parameter of {call}()", SIGNATURE_DEFAULT, value,
                             "What is the default value of {s}?", m.start(), m.start() + at))
    return out


def _attribute_types(chunk: Any, text: str, leaf: str, skipped: Counter) -> list[Fact]:
    """An attribute list's types under a heading that is one class name ("Response": "- .status_code - int")."""
    items = [m for m in _ATTR_ITEM.finditer(text) if m.group("name").startswith(".") or m.group("def")]
    if not items:
        return []
    if not leaf or not re.fullmatch(r"[A-Za-z_][\w.]*", leaf):
        skipped["doc_ref_attribute_without_owner"] += len(items)
        return []
    out = []
    for m in items:
        body = m.group("body").strip().strip("*`").strip()
        if not body or body.endswith(".") or not _TYPE.match(body) or body.lower() in _PRONOUNS:
            skipped["doc_ref_attribute_no_type"] += 1  # no description, or a sentence: no type stated
            continue
        name = m.group("name")
        method = bool(m.group("def")) or "(" in name
        member = name.split("(", 1)[0]
        member = leaf + (member if member.startswith(".") else "." + member)
        if method:
            out.append(_fact(chunk, text, member + "()", RETURNS, body, "What does {s} return?", m.start(), m.end()))
        else:
            out.append(_fact(chunk, text, member, TYPE, body, "What type is {s}?", m.start(), m.end()))
    return out


def _raises(chunk: Any, text: str, skipped: Counter) -> list[Fact]:
    """"When CLAUSE, X raises E." / "X raises E if CLAUSE.": the exception X raises, asked with its condition."""
    out = []
    for m in [*_RAISES_AFTER.finditer(text), *_RAISES_BEFORE.finditer(text)]:
        who, exc = m.group("who"), m.group("exc")
        if not (re.search(r"[A-Z]", exc[1:]) or exc.endswith(("Error", "Exception", "Exit", "Abort", "Warning"))):
            continue  # "raises a Python" … : an exception is a class name
        if who.lower() in _PRONOUNS or not _CODE_NAME.match(who):
            skipped["doc_ref_raiser_not_a_name"] += 1  # "it raises …", "That will raise …": whose?
            continue
        clause = m.group("clause").strip()
        if re.search(r"\b(?:it|this|that|they)\b", clause, re.IGNORECASE) and len(clause.split()) < 4:
            skipped["doc_ref_raiser_not_a_name"] += 1
            continue
        # the subject holds the condition: one raiser may raise two exceptions under two conditions
        aux = "will" if m.group("will") else "does"
        subject = f"{who} raise {m.group('conj').lower()} {clause}"
        out.append(_fact(chunk, text, subject, RAISES, exc, f"What exception {aux} {{s}}?", m.start(), m.end()))
    return out


def _envvars(chunk: Any, text: str, leaf: str, skipped: Counter) -> list[Fact]:
    """An environment variable asked by what setting it does (see the module docstring)."""
    out = []
    for m in _BY_SETTING.finditer(text):
        env = m.group("env") or m.group("env2")
        value = f" to {m.group('value').strip()}" if m.group("value") else ""
        ask = f"Which environment variable can you set{value} to {_flat(m.group('vp'))}?"
        out.append(_fact(chunk, text, env, ENVVAR, env, ask, m.start(), m.end()))
    for m in _ENV_VERB.finditer(text):
        verb = re.sub(r"\s+", " ", m.group("verb"))
        out.append(_fact(chunk, text, m.group("env"), ENVVAR, m.group("env"),
                         f"Which environment variable {verb} {_flat(m.group('rest'))}?", m.start(), m.end()))
    out += _defined_envvars(chunk, text, leaf)
    return out


# an entry's first sentence that says what the variable does: "This contains a command-line … that will be
# prepended …", "Sets the …", "When set, pytest will …", "When set to 1, pytest will …", "When set, disables …"
_VERBS = r"(?:sets|controls|specifies|configures|enables|disables|overrides|determines|selects|changes|contains|defines|holds|tells)"
_DOES = re.compile(rf"\s*(?:This(?:\s+environment)?(?:\s+variable)?\s+)?(?P<verb>{_VERBS})\s+(?P<rest>[^.;:]{{4,160}}?)\s*[.:](?:\s|$)",
                   re.IGNORECASE)
_WHEN_SET = re.compile(r"\s*(?:When|If)\s+(?:this\s+(?:environment\s+)?variable\s+is\s+)?set(?P<to>\s+to\s+[^,.;:\n]{1,60}?)?,?\s+"
                       rf"(?:then\s+)?(?:(?P<who>[A-Za-z][\w.-]*)\s+will\s+(?P<rest>[a-z][^.;:]{{4,160}}?)|(?P<verb>{_VERBS})\s+"
                       r"(?P<rest2>[a-z][^.;:]{4,160}?))\s*[.:](?:\s|$)")
# an entry's field lines before its description: "Valid values: a filename", "Default: info"
_FIELD_LINES = re.compile(r"(?:[ \t]*(?:Valid values|Values|Default|Type|Example)s?[ \t]*:[^\n]*\n+)*", re.IGNORECASE)
# a line that is one environment variable's name: a Sphinx `envvar` entry or a heading, as the readers write them
_ENV_LINE = re.compile(r"^[ \t]*(?P<name>[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])[ \t]*$", re.MULTILINE)


def _defined_envvars(chunk: Any, text: str, leaf: str) -> list[Fact]:
    """An environment variable the passage defines (a line that is its name alone: a heading, a Sphinx `envvar`
    entry, or a name of the chunk's `defines`) on a page or section about the environment, or one the passage
    calls an environment variable, asked by its entry's first sentence after its field lines ("PYTEST_ADDOPTS" /
    "This contains a command-line … that will be prepended to the command line given by the user." → "Which
    environment variable contains a command-line … ?"). Flask's `SECRET_KEY` on its configuration page is a
    setting, not an environment variable: nothing there says so."""
    meta = chunk.metadata or {}
    where = f"{meta.get('title') or ''} {meta.get('section') or ''}".lower()
    out = []
    for line in _ENV_LINE.finditer(text):
        name = line.group("name")
        said_env = re.search(rf"\b{name}\s+environment\s+variable|environment\s+variable\s+{name}\b", text)
        if "environment" not in where and not said_env:
            continue
        body = text[line.end():]
        body = body[len(body) - len(body.lstrip()):]
        body = body[_FIELD_LINES.match(body).end():]
        said = _DOES.match(body)
        if said:
            ask = f"Which environment variable {said.group('verb').lower()} {_trim(said.group('rest'))}?"
        else:
            said = _WHEN_SET.match(body)
            if not said:
                continue
            when = "when set" + (f" to {_trim(said.group('to'))[3:]}" if said.group("to") else "")
            if said.group("verb"):
                ask = f"Which environment variable, {when}, {said.group('verb').lower()} {_trim(said.group('rest2'))}?"
            elif said.group("who").lower() in _PRONOUNS | {"the", "a", "an"}:
                continue
            else:
                ask = f"Which environment variable, {when}, makes {said.group('who')} {_trim(said.group('rest'))}?"
        out.append(_fact(chunk, text, name, ENVVAR, name, ask, line.start(), len(text) - len(body) + said.end()))
    return out


def _trim(phrase: str) -> str:
    """A description as a question's clause: on one line, its parentheses and its trailing "see …" dropped."""
    phrase = re.split(r",?\s+\(?see\b", phrase, maxsplit=1)[0]
    return _flat(re.sub(r"\s*\([^()]*\)", "", phrase))


def _flat(phrase: str) -> str:
    """A phrase the page wraps over lines, on one line."""
    return " ".join(phrase.split())


def _table_facts(chunk: Any, text: str, skipped: Counter) -> list[Fact]:
    """A parameters / settings table's defaults and types, by the header row's `Default` and `Type` columns."""
    head = _TABLE_HEAD.search(text)
    if head is None:
        if re.search(r"^[^|\n]+(?:\|[^|\n]*){1,}$", text, re.MULTILINE):
            skipped["doc_ref_table_no_header"] += 1  # rows with no header: which column is the default?
        return []
    row_noun = head.group("row").strip().lower()
    cols = [c.strip().lower() for c in head.group("cols").strip().strip("|").split("|")]
    wanted = {i: kind for i, c in enumerate(cols) for kind in (("default", TABLE_DEFAULT), ("type", TYPE))
              if c in (kind[0], kind[0] + " value")}
    if not wanted:
        return []
    if row_noun not in _ROW_NOUNS:
        skipped["doc_ref_table_unnamed_rows"] += 1  # "(Invocation) | …": its rows are not a thing's settings
        return []
    out = []
    for line in text[head.end():].split("\n")[1:]:
        cells = [c.strip() for c in line.split("|")]
        if len(cells) != len(cols) + 1:
            if line.strip():
                break  # the table ended (prose, or a row with another shape)
            continue
        name = cells[0].strip("`")
        if not re.fullmatch(r"-{0,2}[A-Za-z_][\w.-]*", name):
            continue
        for i, (_, relation) in wanted.items():
            value = cells[i + 1].strip("`").strip()
            if not value or value in ("-", "—") or len(value.split()) > 4 or not normalize(value):
                skipped["doc_ref_table_no_value"] += 1
                continue
            start = text.find(line, head.start())
            ask = "What is the default value of {s}?" if relation == TABLE_DEFAULT else "What type is {s}?"
            out.append(_fact(chunk, text, f"the {name} {row_noun}", relation, value, ask, head.start(), start + len(line)))
    return out


def _fact(chunk: Any, text: str, subject: str, relation: str, answer: str, ask: str, start: int, end: int) -> Fact:
    kind = TruthType.NUMBER.value if re.match(r"^-?\d[\d_,.]*$", answer) else TruthType.ENTITY.value
    return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=text[start:end].strip(), subject=subject,
                about_doc=False, relation=relation, answer=answer, kind=kind, ask=ask)
