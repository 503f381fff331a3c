"""What a documentation page's options and settings lists state (issue 36, session 43): the entries a user reads
to find "the option that does X" and "X's default", written as lists rather than tables.

Session 42's `datagen.doc_reference` reads signatures, tables with a header row and attribute lists; a command's
options and a configuration file's settings are most often written as one entry after another instead, and gave
no task. Three shapes are read here, each from the readers' cleaned text and metadata (no reader changed):

- a Sphinx `.. option:: -m MODULE, --module MODULE` / `.. confval:: warn_unused_configs` entry, which the rST
  reader writes as a line holding the entry's signature alone with its names in the chunk's `defines`, then
  field lines (":type: boolean", ":default: False") and the description;
- a settings page written one heading per setting (MkDocs' "### site_url" … "**default**: `null`"): a line that
  is the chunk's own section heading, a code-like name, on a page whose title or section speaks of configuration,
  settings or options;
- a command's help output in a code block ("  --trace-config        Trace considerations of conftest.py files",
  a description on the option's line or on the indented lines under it, "Default: X." in it; its "[default: 8000]"
  is datagen.doc_defaults' since session 40).

Each entry gives "Which command-line option / configuration setting <does what its description's first sentence
says>?" → the option's name (`doc:opt:which`; "Asks mypy to type check the provided module." → "Which
command-line option asks mypy to type check the provided module?" → `--module`), and a default the entry states
as one literal → "What is the default value of the --durations-min option?" (`doc:opt:default`). The question's
project is named by datagen.doc_projects ("Which mypy command-line option …?").

Refused and counted (`doc_opt_*`): an entry with no description (`no_description`), a description the chunk's end
cuts (`cut`: the help line or paragraph runs to the chunk's last line), a first sentence that is no clause a
question can take (`not_a_clause`: "Per-test capturing method:", "A regular expression that …"), a default that is
a placeholder or an expression ("NUM", "<path>", "0.005 (or 0.0 if -vv is given)", "'GitHub' or 'GitLab' if …":
`default_unstated`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from datagen.factbase import Fact
from datagen.types import TruthType
from datagen.verify import normalize

WHICH = "doc:opt:which"
DEFAULT = "doc:opt:default"
# the project-named form of a default's question (datagen.doc_projects.ASKS takes it); a "Which …" question
# takes the project before its noun (`named_which`)
NAMED_ASKS = {DEFAULT: "What is the default value of {s} in {p}?"}

# one option as a signature writes it: "-m MODULE", "--module MODULE", "--color=WHEN", "--code-highlight={yes,no}",
# "--debug=[DEBUG_FILE_NAME]", "-s"
_OPT = r"-{1,2}[A-Za-z0-9?][\w-]*(?:(?:=|[ \t])(?:\{[^}\n]*\}|\[[^\]\n]*\]|<[^>\n]*>|[A-Z][A-Z0-9_.]*|[a-z][a-z_]*))?"
_OPT_LINE = re.compile(rf"^[ \t]*(?P<sig>{_OPT}(?:,[ \t]*{_OPT})*)[ \t]*$")
_OPT_NAME = re.compile(r"-{1,2}[A-Za-z0-9?][\w-]*")
# a setting's name as an entry line or a heading writes it: "warn_unused_configs", "site_url", "markdown_extensions"
_SETTING_LINE = re.compile(r"^[ \t]*(?P<sig>[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)*)[ \t]*$")
# an entry's field line: ":type: boolean", ":default: False", "default: null", "Type: int", "Command line: -w INT"
_FIELD = re.compile(r"^[ \t]*:?(?P<key>type|default|default value|command[ -]line|config(?:uration)?|valid values|values|"
                    r"environment variable|env)[ \t]*:[ \t]*:?[ \t]*(?P<value>[^\n]*)$", re.IGNORECASE)
_PAGE_WORDS = re.compile(r"\b(?:config\w*|settings?|options?|flags?|command[ -]line|cli)\b", re.IGNORECASE)
# a default a reader can state as it is written: a number, a constant, a quoted string or one lower-case word
_LITERAL = re.compile(r"""^(?:-?\d[\d_]*(?:\.\d+)?|None|True|False|null|true|false|"[^"\n]{1,40}"|'[^'\n]{1,40}'|[a-z][\w.-]{0,30})$""")
# the first sentence of a description: up to a full stop (not "e.g." / "i.e." / "etc.") that ends it
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)\.(?=\s|$)")
# help output: "  --trace-config        Trace …" (the description two spaces on), or the option alone on its line
_HELP_LINE = re.compile(rf"^(?P<indent>[ \t]*)(?P<sig>{_OPT}(?:,[ \t]*{_OPT})*|[a-z][a-z0-9_]*(?:[ \t]+\([a-z]+\))?:?)"
                        r"(?:[ \t]{2,}(?P<desc>\S[^\n]*))?$")
# "Default: pytestdebug.log." in a help line ("[default: 8000]" is datagen.doc_defaults' own: not read twice)
_HELP_DEFAULT = re.compile(r"\s*Default:\s*(?P<d>[^\s]+?)\.?(?=\s|$)")
_BRACKET_DEFAULT = re.compile(r"\s*\[default:[^\]\n]*\]")

# verbs a description opens with, in their base form: the imperative "Show …" and the third person "Shows …" both
# become "shows …" in the question ("Which option shows …?"); any other first word is no clause
_VERBS = frozenset("""activate add allow append apply ask assume bind cause change check collect configure consider control
continue create deactivate decrease define determine disable display emit enable exclude execute exit fail follow force generate give ignore
import include increase infer inspect install invoke limit list load look make mark output override pass perform prepend prevent print produce
provide raise read remove report require return run save search select send set show skip specify stop store suppress tell
trace treat try turn use warn write""".split())
# a word that opens a clause of its own: a verb after it is that clause's, not the description's
_SUBORDINATE = re.compile(r"\b(?:that|which|who|when|where|if|to|can|could|will|would|may|should|must)\b")


def _third(verb: str) -> str:
    """"show" → "shows", "specify" → "specifies", "pass" → "passes"."""
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    return verb + "s"


_BY_FORM = {**{v: _third(v) for v in _VERBS}, **{_third(v): _third(v) for v in _VERBS}}


def option_facts(chunk: Any, skipped: Counter) -> list[Fact]:
    """Every option / setting entry one passage states (see the module docstring); refusals counted in `skipped`."""
    meta = chunk.metadata or {}
    text = chunk.text
    defines = {d.strip() for d in str(meta.get("defines") or "").split(",") if d.strip()}
    section = str(meta.get("section") or "")
    leaf = section.rsplit(" > ", 1)[-1].strip().strip("`")
    page = f"{meta.get('title') or ''} {section}"
    lines = text.split("\n")
    starts = [m.start() for m in re.finditer(r"^", text, re.MULTILINE)]
    # a page about one program of the project ("Automatic stub generation (stubgen)"): its options are that
    # program's ("Which stubgen option …?"), not the project's main command's
    prog = re.search(r"\((?P<p>[a-z][a-z0-9_-]*)\)\s*$", str(meta.get("title") or ""))
    program = prog.group("p") if prog else ""
    heads, help_lines = _help_block(lines)
    entries: list[tuple[int, list[str]]] = []  # (line number, names)
    for n, line in enumerate(lines):
        if n in help_lines or (n and lines[n - 1].strip()):
            continue  # an entry opens after a blank line (or the chunk's start)
        m = _OPT_LINE.match(line)
        if m:
            names = _OPT_NAME.findall(_strip_metavars(m.group("sig")))
            if names and (set(names) & defines or line.strip() == leaf):
                entries.append((n, names))
            continue
        m = _SETTING_LINE.match(line)
        if m and (m.group("sig") in defines or (m.group("sig") == leaf and ("_" in leaf or "." in leaf)
                                                and _PAGE_WORDS.search(page))):
            entries.append((n, [m.group("sig")]))
    out: list[Fact] = []
    for i, (n, names) in enumerate(entries):
        end = entries[i + 1][0] if i + 1 < len(entries) else len(lines)
        out += _entry(chunk, text, starts, lines, n, end, names, end == len(lines), skipped)
    out += _help_facts(chunk, text, starts, lines, heads, help_lines, skipped)
    if program:
        out = [replace(f, ask=f.ask.replace("Which command-line option", f"Which {program} option", 1)) for f in out]
    return out


def _strip_metavars(sig: str) -> str:
    """"--code-highlight={yes,no}" → "--code-highlight=" (a metavariable's braces hold commas)."""
    return re.sub(r"\{[^}]*\}|\[[^\]]*\]|<[^>]*>", "", sig)


def _answer(names: list[str]) -> str:
    """The name a user would say: the long option where there is one ("--module" of "-m, --module")."""
    longs = [n for n in names if n.startswith("--")]
    # the longest: "--ff, --failed-first" is asked by "--failed-first" here and under its entry alike (two
    # answers to one question would drop both, factbase.unique_in_corpus)
    return max(longs, key=len) if longs else names[0]


def _noun(name: str) -> str:
    return "command-line option" if name.startswith("-") else "configuration setting"


def _entry(chunk: Any, text: str, starts: list[int], lines: list[str], n: int, end: int, names: list[str],
           last: bool, skipped: Counter) -> list[Fact]:
    """One entry's facts: lines n (its signature) to end (the next entry, or the chunk's end when `last`)."""
    name = _answer(names)
    body = lines[n + 1:end]
    while last and body and not body[-1].strip():
        body.pop()  # the chunk's trailing newline closes nothing
    fields: dict[str, str] = {}
    desc: list[str] = []
    para_closed = False
    for line in body:
        f = _FIELD.match(line)
        if f:
            fields.setdefault(f.group("key").lower().split()[0], f.group("value").strip())
            if desc:
                para_closed = True
            continue
        if not line.strip():
            if desc:
                para_closed = True
            continue
        if not para_closed:
            desc.append(line.strip())
    out: list[Fact] = []
    quote_end = starts[end] if end < len(lines) else len(text)
    if not desc:
        skipped["doc_opt_cut" if last else "doc_opt_no_description"] += 1
    elif last and not para_closed and not _SENTENCE_END.search(" ".join(desc)):
        skipped["doc_opt_cut"] += 1  # the first sentence runs to the chunk's end: its next line may be cut off
    else:
        clause = _clause(" ".join(desc))
        if clause is not None and _metavar(lines[n], clause):
            clause = None  # "uses FILE as the status file": the question would hold a placeholder
        if clause is None:
            skipped["doc_opt_not_a_clause"] += 1
        else:
            out.append(_fact(chunk, text, name, WHICH, name, _which(name, clause), starts[n], quote_end))
    if "default" in fields:
        value = _default(fields["default"])
        if value is None:
            skipped["doc_opt_default_unstated"] += 1
        else:
            out.append(_fact(chunk, text, f"the {name} {_noun(name).split()[-1]}", DEFAULT, value,
                             "What is the default value of {s}?", starts[n], quote_end))
    return out


def _default(raw: str) -> str | None:
    """A default field's value as one literal, or None (a placeholder, a condition, a list of choices)."""
    value = raw.strip().rstrip(".").strip()
    spans = re.findall(r"`+([^`]+)`+", value)
    if spans:
        if len(spans) > 1 or re.sub(r"`+[^`]+`+", "", value).strip():
            return None  # "`'GitHub'`, `'Bitbucket'` or … if …": a rule, not a value
        value = spans[0].strip()
    if not _LITERAL.match(value) or not normalize(value):
        return None
    return value


def _clause(desc: str) -> str | None:
    """The description's first sentence as a question's predicate ("Asks mypy to …" → "asks mypy to …",
    "This flag will make mypy …" → "makes mypy …", "Whether …" → "controls whether …", "When set, provides …"
    → ", when set, provides …"), or None when it is no clause (a noun phrase, a sentence cut off, a long one)."""
    desc = re.sub(r"\s*\([^()]*\)", "", desc).replace("`", "")  # "(only if --color is also enabled)": an aside
    m = _SENTENCE_END.search(desc)
    if not m:
        return None  # "Per-test capturing method:" — no full sentence
    sentence = " ".join(re.split(r",?\s+\(?see\b", desc[:m.start()], maxsplit=1)[0].split()).rstrip(".")
    if not sentence or ":" in sentence or len(sentence.split()) > 22 or re.search(r"\b(?:this|these|that one)\b", sentence):
        return None  # no clause, too long to ask, or "this log file": whose?
    w = re.match(r"(?:When|If)\s+(set|enabled|true|given|present|specified),\s+", sentence)
    if w:
        sentence = sentence[w.end():]
    sentence = re.sub(r"^This\s+(?:flag|option|setting|config(?:uration)?\s+option)\s+", "", sentence)
    if sentence.startswith("will "):
        sentence = sentence[5:]
    elif re.match(r"Whether\s", sentence):
        return "controls w" + sentence[1:]
    elif re.match(r"(?:Shortcut|Alias|Short)\s+for\s", sentence):
        return "is a " + sentence[0].lower() + sentence[1:]
    first, _, rest = sentence.partition(" ")
    verb = _BY_FORM.get(first.lower())
    if not verb or not rest or first.isupper():
        return None
    # "Exit on test failure and continue from …", "Show cache contents, don't perform …": every verb agrees
    # (not inside a clause of its own: "… so that PyAnnotate can read it and add …" keeps its verb)
    rest = re.sub(r"(?:(?<=\band )|(?<=\bbut )|(?<=\bor )|(?<=, ))[a-z]+\b",
                  lambda m: _third(m.group(0)) if m.group(0) in _VERBS and not _SUBORDINATE.search(rest[:m.start()])
                  else m.group(0), rest)
    rest = re.sub(r"\bdon't\b", "doesn't", rest)
    return f", when {w.group(1)}, {verb} {rest}" if w else f"{verb} {rest}"


def _help_block(lines: list[str]) -> tuple[list[int], set[int]]:
    """A help output's option lines and every line of it (theirs and their continuation lines): a line that opens
    with an option and its description two spaces on ("  --trace-config        Trace …"), or the option alone and
    its description on the deeper-indented lines under it. One such line alone is no help output (a prose line)."""
    heads: list[int] = []
    for n, line in enumerate(lines):
        m = _HELP_LINE.match(line)
        if not m or not m.group("sig").startswith("-"):
            continue
        nxt = lines[n + 1] if n + 1 < len(lines) else ""
        if m.group("desc") or (nxt.strip() and _indent(nxt) > len(m.group("indent")) + 4):
            heads.append(n)
    if len(heads) < 2:
        return [], set()
    block = set(heads)
    for n in heads:  # the continuation lines: deeper than the option's indent, up to the next option line
        k = n + 1
        while k < len(lines) and k not in block and lines[k].strip() and _indent(lines[k]) > _indent(lines[n]) + 4:
            block.add(k)
            k += 1
    return heads, block


def _help_facts(chunk: Any, text: str, starts: list[int], lines: list[str], heads: list[int], block: set[int],
                skipped: Counter) -> list[Fact]:
    """A help output's options: the option line's description (its own and its continuation lines)."""
    out: list[Fact] = []
    for n in heads:
        m = _HELP_LINE.match(lines[n])
        names = _OPT_NAME.findall(_strip_metavars(m.group("sig")))
        k = n + 1
        desc = [m.group("desc") or ""]
        while k in block and k not in heads:
            desc.append(lines[k].strip())
            k += 1
        if not any(line.strip() for line in lines[k:]) or n == 0:
            # the chunk ends inside this option's help (it may go on), or opens on it (its indent is lost)
            skipped["doc_opt_cut"] += 1
            continue
        full = " ".join(d for d in desc if d)
        if not names or not full:
            skipped["doc_opt_no_description"] += 1
            continue
        name = _answer(names)
        end = starts[k] if k < len(starts) else len(text)
        d = _HELP_DEFAULT.search(full)
        if d and re.match(r"\s*(?:\(|if\b|or\b|unless\b)", full[d.end():]):
            skipped["doc_opt_default_unstated"] += 1  # "Default: 0.005 (or 0.0 if -vv is given)": a rule
            d = None
        plain = _BRACKET_DEFAULT.sub("", _HELP_DEFAULT.sub("", full)).strip()
        clause = _clause(plain if plain.endswith(".") else plain + ".")
        if clause is not None and _metavar(lines[n], clause):
            clause = None
        if clause is None:
            skipped["doc_opt_not_a_clause"] += 1
        else:
            out.append(_fact(chunk, text, name, WHICH, name, _which(name, clause), starts[n], end))
        if d:
            value = _default(d.group("d"))
            if value is None:
                skipped["doc_opt_default_unstated"] += 1
            else:
                out.append(_fact(chunk, text, f"the {name} option", DEFAULT, value, "What is the default value of {s}?",
                                 starts[n], end))
    return out


def _which(name: str, clause: str) -> str:
    """"Which command-line option shows …?", "Which configuration setting, when set, provides …?"."""
    return f"Which {_noun(name)}{'' if clause.startswith(',') else ' '}{clause}?"


def _metavar(signature: str, clause: str) -> bool:
    """Whether the clause holds one of the signature's placeholders ("FILE", "NUM", "X.Y")."""
    return any(re.search(rf"(?<![\w.]){re.escape(v)}(?![\w.])", clause) for v in re.findall(r"\b[A-Z][A-Z0-9_.]*\b", signature))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def named_which(ask: str, project: str) -> str:
    """"Which command-line option …?" → "Which mypy command-line option …?"; a program's own ("Which stubgen
    option …?") names its program already."""
    if not project or not ask.startswith(("Which command-line option", "Which configuration setting")):
        return ask
    return "Which " + project + ask[5:]


def _fact(chunk: Any, text: str, subject: str, relation: str, answer: str, ask: str, start: int, end: int) -> Fact:
    kind = TruthType.NUMBER.value if re.match(r"^-?\d[\d_,.]*$", answer) else TruthType.ENTITY.value
    return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=text[start:end].strip(), subject=subject,
                about_doc=False, relation=relation, answer=answer, kind=kind, ask=ask)
