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

# The session 44 readings (issue 36), each its own `--mix` flag (datagen.natural): a bulleted options list
# (LISTS: "- --group (-G): The group to add the dependency to."), a description's "this …" about the option's own
# value (THIS: "Bind socket to this host."), a noun-phrase description (NOUNS: "The number of worker processes.").
LISTS, THIS, NOUNS = "lists", "this", "nouns"
# Session 45 (issue 36): an rST `.. option::` entry under `.. program:: dmypy` (the chunk's "programs" metadata,
# corpus_tools.rst_reader) is asked as that command's ("Which dmypy command-line option …?"), not the project's.
PROGRAM = "program"
SHAPES = frozenset({LISTS, THIS, NOUNS, PROGRAM})

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


def option_facts(chunk: Any, skipped: Counter, shapes: frozenset[str] = frozenset()) -> list[Fact]:
    """Every option / setting entry one passage states (see the module docstring); refusals counted in `skipped`.
    shapes: the session 44 readings asked too (`SHAPES`; empty: session 43's exactly)."""
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
    # each option name's own programs (`.. program::`; "--timeout dmypy"), in the order the chunk defines them
    owners: dict[str, list[str]] = {}
    for item in (meta.get("programs") if isinstance(meta.get("programs"), str) else "").split(", "):
        name, _, owner = item.strip().partition(" ")
        if owner.strip():
            owners.setdefault(name, []).append(owner.strip())
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
            if re.search(rf"^[ \t]*{re.escape(m.group('sig'))}\(", text, re.MULTILINE):
                # a line of the passage calls it ("np.full((3, 4), np.pi)" under a heading "np.full" in a notebook): a
                # function, not a configuration setting (session 45's reporting read: "Which configuration setting
                # creates an array …?" → np.full). Prose naming a call is no sign: Gunicorn's sendfile setting
                # "Disables the use of sendfile()", and a hook's default "def on_reload(server):" is a setting's
                skipped["doc_opt_called"] += 1
                continue
            entries.append((n, [m.group("sig")]))
    out: list[Fact] = []
    seen: Counter = Counter()  # entries of each name so far: the k-th entry of "--timeout" is its k-th program's
    for i, (n, names) in enumerate(entries):
        end = entries[i + 1][0] if i + 1 < len(entries) else len(lines)
        # a name in `defines` with no dash is asked as a configuration setting; reworded ("sets the …") only on a
        # page that speaks of configuration: Flask's API page defines `g` ("A proxy to a namespace object …")
        worded = shapes if names[0].startswith("-") or _PAGE_WORDS.search(page) else shapes & {LISTS}
        facts = _entry(chunk, text, starts, lines, n, end, names, end == len(lines), skipped, worded)
        owner = _owner(names, entries, owners, seen) if PROGRAM in shapes else ""
        if owner and not program:  # a title naming the program ("… (stubgen)") asks as before
            facts = [replace(f, ask=f.ask.replace("Which command-line option", f"Which {owner} command-line option",
                                                  1)) for f in facts]
        out += facts
    out += _help_facts(chunk, text, starts, lines, heads, help_lines, skipped, shapes)
    if LISTS in shapes:
        out += _bullet_facts(chunk, text, starts, lines, skipped, shapes)
    if program:
        out = [replace(f, ask=f.ask.replace("Which command-line option", f"Which {program} option", 1)) for f in out]
    return out


def _owner(names: list[str], entries: list[tuple[int, list[str]]], owners: dict[str, list[str]],
           seen: Counter) -> str:
    """The program of the entry naming `names` (PROGRAM): the one program its name has in the chunk, or, where one
    name is two programs' options ("--timeout" of mypy and of dmypy), by order when the chunk's entries of that name
    and its recorded programs agree in number; "" otherwise (asked as the project's, as before)."""
    name = next((x for x in names if x in owners), "")
    if not name:
        return ""
    k = seen[name]
    seen[name] += 1
    programs = owners[name]
    if len(set(programs)) == 1:
        return programs[0]
    count = sum(name in other for _n, other in entries)
    return programs[k] if count == len(programs) else ""


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
           last: bool, skipped: Counter, shapes: frozenset[str] = frozenset()) -> list[Fact]:
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
        clause = _asked(" ".join(desc), lines[n], lines[n], not name.startswith("-"), shapes, skipped, text)
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
    sentence = _sentence(desc)
    if sentence is None:
        return None  # "Per-test capturing method:" — no full sentence
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


def _sentence(desc: str) -> str | None:
    """A description's first sentence, its asides ("(only if --color is also enabled)"), backticks and "see …"
    tail dropped; None when no full stop ends one."""
    desc = re.sub(r"\s*\([^()]*\)", "", desc).replace("`", "")
    m = _SENTENCE_END.search(desc)
    if not m:
        return None
    return " ".join(re.split(r",?\s+\(?see\b", desc[:m.start()], maxsplit=1)[0].split()).rstrip(".")


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
                skipped: Counter, shapes: frozenset[str] = frozenset()) -> list[Fact]:
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
        clause = _asked(plain if plain.endswith(".") else plain + ".", lines[n], m.group("sig"), False, shapes, skipped,
                        text)
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


def _asked(desc: str, line: str, sig: str, setting: bool, shapes: frozenset[str], skipped: Counter,
           context: str = "") -> str | None:
    """The description as a question's predicate (`_clause`), or with the session 44 shapes the forms it refuses:
    a "this …" about the option's own value (THIS) and a noun phrase (NOUNS); None when none reads. A predicate
    holding one of the line's placeholders ("uses FILE as the status file") is none either."""
    clause = _clause(desc)
    if clause is None and shapes & {THIS, NOUNS}:
        clause = _reworded(desc, setting or _takes_value(sig), shapes, skipped, context)
    if clause is not None and _metavar(line, clause):
        clause = None
    return clause


def _takes_value(sig: str) -> bool:
    """Whether an option's signature writes a value after a name ("--host TEXT", "--directory=DIRECTORY",
    "-m MODULE", "--code-highlight={yes,no}"): its description's "this host" is that value."""
    sig = re.sub(r"\(-[^()]*\)", "", sig)  # "(-C)": the short alias
    return bool(re.search(r"-{1,2}[A-Za-z0-9?][\w-]*(?:=|[ \t]+)[\[{<A-Za-z]", sig))


def _reworded(desc: str, value: bool, shapes: frozenset[str], skipped: Counter, context: str = "") -> str | None:
    """A first sentence `_clause` refuses, asked in a form that stays true: "Bind socket to this host." of an
    option taking a value → "sets the host to bind socket to" (THIS); "The number of worker processes." → "sets
    the number of worker processes" (NOUNS). Refusals counted: `doc_opt_this` (the "this" is not the option's
    value: "Display this application version." of `--version`, or no verb to carry it), `doc_opt_noun` (no clean
    noun phrase either)."""
    sentence = _sentence(desc)
    if not sentence or ":" in sentence or len(sentence.split()) > 22:
        return None
    deictic = re.findall(r"\b(?:this|these|that one)\b", sentence, re.IGNORECASE)
    if deictic:
        clause = _this_clause(sentence, value) if THIS in shapes and deictic == ["this"] else None
        if clause is None and THIS in shapes:
            skipped["doc_opt_this"] += 1
        return clause
    if NOUNS not in shapes:
        return None
    clause = _verb_first(sentence)
    if clause is not None:
        return clause
    clause = _noun_clause(sentence, value, context)
    if clause is None:
        skipped["doc_opt_noun"] += 1
    return clause


# "this host" / "this file name" ending the sentence or followed by the verb's preposition ("Use this file as …")
_THIS = re.compile(r"\bthis ((?:[a-z][a-z-]* ){0,2}?[a-z][a-z-]*)(?=$| (?:as|for|to|in|on|from|with|when|if|before|after|instead)\b)")
_BASE = {**{v: v for v in _VERBS}, **{_third(v): v for v in _VERBS}}


def _this_clause(sentence: str, value: bool) -> str | None:
    """"Bind socket to this host" → "sets the host to bind socket to"; "Use this file as the log config" → "sets
    the file to use as the log config". Only of an option that takes a value (the "this" is that value), and only
    where the sentence opens with one of `_VERBS`; None otherwise."""
    m = _THIS.search(sentence)
    if not value or not m:
        return None
    before, after = sentence[:m.start()].strip(), sentence[m.end():].strip()
    first, _, rest = before.partition(" ")
    verb = _BASE.get(first.lower())
    if not verb or first.isupper():
        return None
    tail = " ".join(x for x in (rest, after) if x)
    return f"sets the {m.group(1)} to {verb}" + (f" {tail}" if tail else "")


def _verb_first(sentence: str) -> str | None:
    """A description opening with a verb `_VERBS` does not hold, which the tagger reads as a noun: an imperative
    of `_MORE_VERBS` ("Clean output directory before building." → "cleans output directory before building") or
    a third person the parse confirms after "to" ("Disallows subclassing a value of type Any." → "disallows …",
    "Hides error codes …"), its next word no preposition or particle (a plural noun: "Features to install",
    "Platforms for which …", "Options passed to …" stay noun phrases). None otherwise."""
    from datagen.nlp import load_pipeline

    words = sentence.split()
    first, rest = words[0], " ".join(words[1:])
    low = first.lower()
    if not rest or first.isupper() or not low.isalpha():
        return None
    if low in _MORE_VERBS:
        return _agree(f"{_third(low)} {rest}")
    if not low.endswith("s") or low.endswith("ss"):
        return None
    nxt = load_pipeline()(sentence)[1]
    if (nxt.pos_ in ("ADP", "PART", "PRON", "PUNCT", "SCONJ", "CCONJ", "AUX") and nxt.lower_ != "that") or nxt.tag_ in ("VBN", "VBD"):
        return None
    stems = [low[:-3] + "y"] if low.endswith("ies") else [low[:-1]] + ([low[:-2]] if low.endswith("es") else [])
    for stem in stems:
        parsed = load_pipeline()(f"to {stem} {rest}")
        if parsed[1].pos_ == "VERB" and parsed[1].tag_ == "VB":
            return _agree(f"{low} {rest}")
    return None


# a noun phrase's wh-forms a user asks as they are: "How many characters per line to allow", "Where to write it"
_WH = re.compile(r"^(?:How (?:many|much|long|often)\s|(?:What|Where|When) to\s)")
# heads of a noun phrase that, on an option taking no value, name what it shows rather than a value it sets
_SHOWN = frozenset({"help", "version", "message", "messages", "mode", "output", "information", "info", "summary"})


def _noun_clause(sentence: str, value: bool, context: str = "") -> str | None:
    """A noun-phrase description as what the option sets: "The number of worker processes" → "sets the number of
    worker processes", "Python versions that should be supported" → "sets the Python versions that should be
    supported", "How many characters per line to allow" → "sets how many characters per line to allow". spaCy's
    parse decides the noun phrase: its root a noun, nothing before the root a verb; None otherwise ("Per-test
    capturing method" ends in ":", "Clean output directory before building" is an imperative whose verb the tagger
    took for an adjective, "Debug mode" of a flag taking no value names no value). The first word keeps its
    capital only where `context` (the passage) writes it so inside a sentence ("Python versions", not "Extras")."""
    if _WH.match(sentence):
        if re.match(r"How \w+(?: \w+)? (?:should|can|could|will|would|does|do|is|are|must)\b", sentence):
            return None  # "How many sessions should pytest keep …": a question's word order, no phrase to set
        return "sets " + sentence[0].lower() + sentence[1:]
    if len(sentence.split()) < 2:
        return None  # "- -k foobar: syntax.": one word names nothing a user asks for
    if "/" in sentence.split()[0] and any(w.lower() in _BY_FORM or w.lower() in _MORE_VERBS
                                          for w in sentence.split()[0].split("/")):
        return None  # "Prepend/append to sys.path when …": two verbs, not a noun
    if re.match(r"(?:Defaults?|Default value)\b", sentence):
        return None  # "Defaults to the current directory": the default, not what the option sets
    from datagen.nlp import load_pipeline  # loaded once per process; only when a noun phrase is tried

    doc = load_pipeline()(sentence)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or doc[0].pos_ not in ("DET", "ADJ", "NOUN", "PROPN", "NUM"):
        return None
    root = roots[0]
    # "The group to add the dependency to": the tagger makes "add" the root and "group" its subject; a noun, then
    # "to" and the root verb, is a noun with its infinitive (as "Features to install" parses)
    subject = [c for c in root.children if c.dep_ == "nsubj" and c.pos_ in ("NOUN", "PROPN") and c.i == root.i - 2]
    if root.pos_ == "VERB" and subject and doc[root.i - 1].tag_ == "TO":
        root = subject[0]
    elif root.pos_ not in ("NOUN", "PROPN") or any(t.dep_ in ("nsubj", "nsubjpass") and t.head == root for t in doc):
        return None
    if any(t.pos_ in ("VERB", "AUX") for t in doc[:root.i]):
        return None
    if not value and root.lemma_.lower() in _SHOWN:
        return None
    words = sentence.split()
    first = words[0]
    if _imperative(doc, sentence, context):
        return None
    if doc[0].pos_ == "DET":
        if first.lower() not in ("the", "a", "an"):
            return None  # "Any file …", "All tests …": a quantifier, not the value set
        words[0] = "the"
    elif first.isupper() or any(c.isupper() for c in first[1:]) or re.search(rf"[a-z,] {re.escape(first)}\b", context):
        words.insert(0, "the")  # "Python versions …" → "the Python versions …"
    else:
        words[0] = first[0].lower() + first[1:]
        words.insert(0, "the")
    return "sets " + " ".join(words)


def _imperative(doc: Any, sentence: str, context: str) -> bool:
    """Whether a sentence the tagger parsed as a noun phrase opens with a verb it did not know as one: a noun root
    taking an object ("Increment the phase …", "Verifies that …"), or a first word tagged an adjective, an unknown
    name or a compound noun before a name ("Clean output directory …", "Migrate outdated …", "Compile Python
    source files …") that reads as a verb after "to". Not a name the passage writes capitalised inside a sentence."""
    from datagen.nlp import load_pipeline

    first = sentence.split()[0].lower()
    if first in _MORE_VERBS or re.sub(r"ies$", "y", first) in _MORE_VERBS or first[:-1] in _MORE_VERBS:
        return True  # "Verifies that …", "Clean output directory …"
    if any(t.dep_ in ("dobj", "ccomp") for t in doc[0].head.children if doc[0].head.dep_ == "ROOT") or \
            any(t.dep_ in ("dobj", "ccomp") for t in doc[0].children):
        return True
    t0 = doc[0]
    after = doc[1] if len(doc) > 1 else None
    suspect = (t0.pos_ == "ADJ" or (t0.pos_ == "PROPN" and not re.search(rf"[a-z,] {re.escape(t0.text)}\b", context))
               or (t0.pos_ == "NOUN" and t0.dep_ == "compound" and after is not None and after.pos_ in ("PROPN", "ADJ", "DET")))
    return suspect and load_pipeline()("to " + sentence[0].lower() + sentence[1:])[1].pos_ in ("VERB", "AUX")


# a bullet or definition-list item opening with an option ("- --group (-G): The group to add the dependency to.",
# "* --host TEXT - Bind socket to this host.", "- --name=NAME: …"): its signature, a short alias in parentheses,
# then ": " or " - " and the description
_BOPT = rf"{_OPT}(?:=<[^>\n]*>)*"
_BULLET = re.compile(rf"^[ \t]*[-*+\u2022][ \t]+(?P<sig>{_BOPT}(?:,[ \t]*{_BOPT})*)(?P<alias>[ \t]*\(-[^()\n]*\))?"
                     r"[ \t]*(?::[ \t]+|[ \t]+[-\u2013\u2014][ \t]+)(?P<desc>\S[^\n]*)$")
_ITEM = re.compile(r"^[ \t]*(?:[-*+\u2022]|\d+[.)])[ \t]")


def _bullet_facts(chunk: Any, text: str, starts: list[int], lines: list[str], skipped: Counter,
                  shapes: frozenset[str]) -> list[Fact]:
    """A bulleted options list's entries (LISTS): the description on the bullet's line and the lines under it up to
    the next item or a blank line. The chunk's first line may be the tail of an item cut above (refused as `cut`),
    and a description whose first sentence runs to the chunk's end may go on in the next chunk (`cut` too)."""
    out: list[Fact] = []
    last = max((k for k, line in enumerate(lines) if line.strip()), default=-1)
    for n, line in enumerate(lines):
        m = _BULLET.match(line)
        if not m:
            continue
        names = _OPT_NAME.findall(_strip_metavars(m.group("sig") + (m.group("alias") or "")))
        k = n + 1
        desc = [m.group("desc")]
        while k < len(lines) and lines[k].strip() and not _ITEM.match(lines[k]):
            desc.append(lines[k].strip())
            k += 1
        full = _BRACKET_DEFAULT.sub("", " ".join(desc)).strip()
        if n == 0 or (k > last and _sentence(full) is None):
            skipped["doc_opt_cut"] += 1
            continue
        name = _answer(names)
        clause = _asked(full, m.group("sig"), m.group("sig"), False, shapes, skipped, text)
        if clause is None:
            skipped["doc_opt_not_a_clause"] += 1
            continue
        clause = _agree(clause)
        end = starts[k] if k < len(starts) else len(text)
        out.append(_fact(chunk, text, name, WHICH, name, _which(name, clause), starts[n], end))
    return out


# verbs a bulleted list's second clause writes that `_VERBS` (which opens a description) does not hold:
# "Output the operations but do not execute anything", "Add or replace a local version label", "Ignore existing
# lock file and overwrite it"
_MORE_VERBS = frozenset("build clean compile delete download increment keep migrate overwrite replace update upload verify"
                        .split())


def _agree(clause: str) -> str:
    """Every verb of a bullet's clause agrees with "Which option …": "outputs the operations but does not
    execute anything", "adds or replaces …", "ignores … and overwrites it" (not inside a clause of its own)."""
    clause = re.sub(r"(?:(?<=\band )|(?<=\bbut )|(?<=\bor ))do not\b",
                    lambda m: m.group(0) if _SUBORDINATE.search(clause[:m.start()]) else "does not", clause)
    return re.sub(r"(?:(?<=\band )|(?<=\bbut )|(?<=\bor ))[a-z]+\b",
                  lambda m: _third(m.group(0)) if m.group(0) in _MORE_VERBS and not _SUBORDINATE.search(clause[:m.start()])
                  else m.group(0), clause)


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
