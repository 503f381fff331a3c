"""What a repository's Python source states about its API (issue 36, session 43): the questions a user of the
library asks about a function or method that its own definition answers.

Since session 43 an index can read `.py` files (corpus_tools.source_reader): each class / function / method is a
section titled `pkg.mod.Class.method (line N)` whose text part is the signature as written then the docstring,
marked `defines` = the qualified name. datagen.doc_reference reads reference *pages*; on a source section it reads
nothing (its signature shape needs a "Signature:" line or a heading written as a call, and a source section's
heading is `flask.app.Flask.make_response (line 1224)`). This module reads three shapes from that text part only:

- a parameter's default in the signature (`force: bool = False`): "What is the default value of the force
  parameter of TaggedJSONSerializer.register()?" → `False`, `doc:src:default`;
- the return annotation (`-> ParameterSource | None`) or a `:rtype:` field: "What type does
  Context.get_parameter_source() return?", `doc:src:returns`;
- a raises field with its condition (`:raise KeyError: if the tag key is already registered …`, or a Google-style
  `Raises:` entry `KeyError: If …`): "What exception does TaggedJSONSerializer.register() raise if …?",
  `doc:src:raises`.

The owner is asked as a user writes it: `Class.method` (the module path dropped), the class itself for
`__init__`, `module.function` for a module-level function; never the section's `(line N)`. The passage states it:
its section and `defines` are the qualified name, and the signature line names the definition. The signature is
parsed with `ast` (a default's text is its source as written). Refused and counted (`doc_src_*`): private names
(a `_`-led module, class or function; a dunder other than `__init__`), test and example folders, `self` / `cls`,
`*args` / `**kwargs`, and defaults or annotations that are expressions a reader cannot state (`UNSET`, `()`,
`os.getcwd()`, `[]`, a TypeVar `V`). Each fact's quote is the passage's text from the signature's start to its
answer, verified as every documentation fact; the project is named by datagen.doc_projects.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Any

from datagen.factbase import Fact
from datagen.types import TruthType

DEFAULT = "doc:src:default"
RETURNS = "doc:src:returns"
RAISES = "doc:src:raises"

# the project-named form of each question (datagen.doc_projects.ASKS takes these); raises keeps its own (its
# condition ends the question)
NAMED_ASKS = {
    DEFAULT: "What is the default value of {s} in {p}?",
    RETURNS: "What type does {s} return in {p}?",
}
# a property's type, asked as an attribute's ("What type is AppContext.session in Flask?")
NAMED_PROPERTY_ASK = "What type is {s} in {p}?"

SOURCE_SUFFIXES = (".py", ".pyi")
# folders whose code is no library API: its tests, its examples, the docs' own example scripts
_NOT_API_DIRS = frozenset("tests test testing examples example docs_src".split())
_NOT_API_FILES = re.compile(r"^(?:test_.*|.*_test|conftest|setup|noxfile)\.pyi?$")
# the signature: decorators / comments above it, then `def` / `async def` / `class` up to the `:` closing it
_DEF = re.compile(r"^(?P<indent>[ \t]*)(?:async[ \t]+)?(?:def|class)[ \t]+(?P<name>[A-Za-z_]\w*)\b", re.MULTILINE)
# a return type a reader can state: names, dots, brackets, `|`, `,` (no call, no string, no lambda)
_TYPE_TEXT = re.compile(r"^[A-Za-z_][\w.]*(?:[\[\], |.\w]*)$")
# `V`, `T`, `T_before_request`: a type variable says nothing on its own (it is what the caller passed)
_TYPEVAR = re.compile(r"(?<![\w.])(?:[A-Z]|T_\w+)(?![\w])")
# ":raise KeyError: if …", ":raises ValueError: when …"
_FIELD_RAISES = re.compile(r"^[ \t]*:raises?[ \t]+(?P<exc>[A-Za-z_][\w.]*)[ \t]*:[ \t]*(?P<clause>(?:if|when)\b[^\n]*(?:\n[ \t]+[^\n:][^\n]*)*)",
                           re.MULTILINE | re.IGNORECASE)
# Google style: "Raises:" then "    KeyError: If …"
_GOOGLE_RAISES = re.compile(r"^[ \t]*Raises:[ \t]*\n(?P<body>(?:[ \t]+[^\n]+\n?)+)", re.MULTILINE)
_GOOGLE_ITEM = re.compile(r"^[ \t]+(?P<exc>[A-Za-z_][\w.]*)[ \t]*:[ \t]*(?P<clause>(?:if|when)\b[^\n]*)", re.MULTILINE | re.IGNORECASE)
_RTYPE = re.compile(r"^[ \t]*:rtype:[ \t]*(?P<type>[^\n]+?)[ \t]*$", re.MULTILINE)


def is_source_chunk(chunk: Any) -> bool:
    """A chunk of a Python file read as source: its document is `.py` / `.pyi` and it holds a definition's text
    part (`defines`, set by corpus_tools.source_reader)."""
    return str(chunk.doc_id).endswith(SOURCE_SUFFIXES) and bool((chunk.metadata or {}).get("defines"))


def source_facts(chunk: Any, skipped: Counter) -> list[Fact]:
    """Every API fact one source section's text part states (see the module docstring); what is refused is
    counted in `skipped` under `doc_src_*`. A chunk that is not a source definition gives nothing."""
    if not is_source_chunk(chunk):
        return []
    meta = chunk.metadata or {}
    module = str(meta.get("title") or "")
    parts = str(chunk.doc_id).replace("\\", "/").split("/")
    if set(parts[:-1]) & _NOT_API_DIRS or _NOT_API_FILES.match(parts[-1]):
        skipped["doc_src_not_api"] += 1  # a test or an example defines nothing a user calls
        return []
    # small definitions share a chunk: `defines` lists each ("click.core.Context, click.core.Context.__init__")
    out: list[Fact] = []
    for qualified in re.split(r"[,\n]\s*", str(meta.get("defines"))):
        out += _definition_facts(chunk, module, qualified.strip(), skipped)
    return out


def _definition_facts(chunk: Any, module: str, qualified: str, skipped: Counter) -> list[Fact]:
    """One definition's facts (`qualified` is the name the reader marks it with)."""
    if not module or not qualified.startswith(module + "."):
        skipped["doc_src_no_owner"] += 1
        return []
    inner = qualified[len(module) + 1:].split(".")
    if any(p.startswith("_") for p in module.split(".")) or any(_private(p) for p in inner):
        skipped["doc_src_private"] += 1
        return []
    init = inner[-1] == "__init__"
    if init:
        inner = inner[:-1]
        if not inner:
            return []
    # "Flask.make_response", "Flask" (its __init__), "flask.helpers.url_for" (a module's own function)
    owner = ".".join(inner) if len(inner) > 1 or init else f"{module}.{inner[0]}"
    text = chunk.text
    sig = _signature(text, "__init__" if init else inner[-1])
    if sig is None:
        skipped["doc_src_no_signature"] += 1  # a later window of a long definition, or a signature ast cannot read
        return []
    start, node, snippet = sig
    # this definition's text ends where the next one's signature starts (a docstring field is its own only)
    following = _DEF.search(text, start + len(snippet))
    text = text[:following.start()] if following else text
    if isinstance(node, ast.ClassDef):
        return _raises(chunk, text, owner, start, skipped)  # a class's own parameters are its __init__'s section's
    out = [*_defaults(chunk, text, owner, start, node, snippet, skipped)]
    if not init:
        out += _returns(chunk, text, owner, start, node, snippet, skipped)
    out += _raises(chunk, text, owner, start, skipped)
    return out


def _private(name: str) -> bool:
    return name.startswith("_") and name != "__init__"


def _signature(text: str, name: str) -> tuple[int, ast.AST, str] | None:
    """The definition's signature in the chunk: (its offset, its ast node, its text), the first `def`/`class`
    line naming `name` whose lines up to a closing `:` parse."""
    for m in _DEF.finditer(text):
        if m.group("name") != name:
            continue
        lines = text[m.start():].split("\n")
        for n in range(1, min(len(lines), 60) + 1):
            head = "\n".join(lines[:n])
            if not head.rstrip().endswith(":"):
                continue
            try:
                tree = ast.parse(_dedent(head) + "\n" + " " * (4 + len(m.group("indent"))) + "...")
            except SyntaxError:
                continue
            return m.start(), tree.body[0], head
        return None
    return None


def _dedent(head: str) -> str:
    indent = len(head) - len(head.lstrip(" \t"))
    return "\n".join(line[indent:] if line[:indent].strip() == "" else line for line in head.split("\n"))


def _segment(snippet: str, node: ast.AST) -> tuple[str, int]:
    """A node's source as written and the offset in `snippet` just after it (col offsets are UTF-8 bytes)."""
    indent = len(snippet) - len(snippet.lstrip(" \t"))
    lines = snippet.split("\n")
    def at(lineno: int, col: int) -> int:
        line = lines[lineno - 1]
        shift = indent if line[:indent].strip() == "" else 0
        return sum(len(x) + 1 for x in lines[:lineno - 1]) + shift + len(line[shift:].encode()[:col].decode(errors="ignore"))
    begin = at(node.lineno, node.col_offset)
    end = at(node.end_lineno or node.lineno, node.end_col_offset or 0)
    return snippet[begin:end], end


def _stateable(node: ast.AST) -> bool:
    """A default a reader can state and check in the text: a constant, a negative number (`-1`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
        return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if not isinstance(node, ast.Constant) or isinstance(node.value, bytes):
        return False
    return not isinstance(node.value, str) or (0 < len(node.value) <= 40 and "\n" not in node.value)


def _defaults(chunk: Any, text: str, owner: str, start: int, node: Any, snippet: str, skipped: Counter) -> list[Fact]:
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True),
             *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None)]
    skipped["doc_src_self"] += sum(a.arg in ("self", "cls") for a in positional[:1])
    skipped["doc_src_star_args"] += bool(args.vararg) + bool(args.kwarg)
    out = []
    for arg, default in pairs:
        if arg.arg.startswith("_"):
            skipped["doc_src_private"] += 1
            continue
        if not _stateable(default):
            skipped["doc_src_default_expression"] += 1  # `UNSET`, `[]`, `os.getcwd()`: nothing a reader can state
            continue
        value, end = _segment(snippet, default)
        if not value:
            continue
        out.append(_fact(chunk, text, f"the {arg.arg} parameter of {owner}()", DEFAULT, value,
                         "What is the default value of {s}?", start, start + end))
    return out


def _returns(chunk: Any, text: str, owner: str, start: int, node: Any, snippet: str, skipped: Counter) -> list[Fact]:
    if node.returns is not None:
        value, end = _segment(snippet, node.returns)
        where = (start, start + end)
    else:
        m = _RTYPE.search(text, start + len(snippet))
        if m is None:
            return []
        value, where = m.group("type").strip().strip("`"), (start, m.end())
    value = value.strip()
    if value in ("None", "NoReturn", "t.NoReturn", "te.NoReturn"):
        return []  # "returns nothing" is no fact a user asks
    if value in ("Any", "t.Any", "typing.Any", "object"):
        skipped["doc_src_return_unstated"] += 1  # "returns Any" says nothing (3 of 30 tasks read on tuning)
        return []
    if not _TYPE_TEXT.match(value) or _TYPEVAR.search(value) or len(value) > 40 or "Self" in value:
        skipped["doc_src_return_unstated"] += 1  # a TypeVar, a string annotation, a long union
        return []
    if _is_property(text[:start]):
        # a property is read, not called: "What type is AppContext.session?"
        return [_fact(chunk, text, owner, RETURNS, value, "What type is {s}?", *where)]
    return [_fact(chunk, text, f"{owner}()", RETURNS, value, "What type does {s} return?", *where)]


def _is_property(before: str) -> bool:
    """Whether the decorators right above a signature (`before`: the chunk's text up to its `def`) make it a
    property (`@property`, `@functools.cached_property`)."""
    for line in reversed(before.rstrip().split("\n")):
        line = line.strip()
        if not line.startswith(("@", "#")):
            return False
        if re.fullmatch(r"@[\w.]*property", line):
            return True
    return False


def _raises(chunk: Any, text: str, owner: str, start: int, skipped: Counter) -> list[Fact]:
    found = [(m.group("exc"), m.group("clause"), m.end()) for m in _FIELD_RAISES.finditer(text, start)]
    for block in _GOOGLE_RAISES.finditer(text, start):
        base = block.start("body")
        found += [(m.group("exc"), m.group("clause"), base + m.end()) for m in _GOOGLE_ITEM.finditer(block.group("body"))]
    out = []
    for exc, clause, end in found:
        clause = " ".join(re.sub(r"``?([^`]+)``?", r"\1", clause).split()).rstrip(" .;")
        if len(clause.split()) < 3 or len(clause.split()) > 25:
            skipped["doc_src_raises_unstated"] += 1
            continue
        clause = clause[0].lower() + clause[1:]
        out.append(_fact(chunk, text, f"{owner}() raise {clause}", RAISES, exc.rsplit(".", 1)[-1],
                         "What exception does {s}?", start, end))
    return out


def _fact(chunk: Any, text: str, subject: str, relation: str, answer: str, ask: str, start: int, end: int) -> Fact:
    kind = TruthType.NUMBER.value if re.match(r"^-?\d[\d_,.]*$", answer) else TruthType.ENTITY.value
    return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=text[start:end].strip(), subject=subject,
                about_doc=False, relation=relation, answer=answer, kind=kind, ask=ask)
