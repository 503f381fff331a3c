"""The passage that defines what a question names: "What does SECRET_KEY do?" is answered by its definition.

In documentation the commonest question names a thing (a setting, a function, a parameter, an option) and
the passage a user wants is the one that *defines* it, not the pages that mention it in passing: Flask's
`config.rst` entry `.. py:data:: SECRET_KEY`, Starlette's parameter list item "`directory` - A string …",
FastAPI's heading "`FastAPI` class". The Markdown and rst readers record where a page defines a name
(markup.SectionWriter.define) and the chunk holding that place carries the names in its metadata
("defines", chunking.chunk_parts). When a question names one of them, `Corpus.search` ranks the chunks defining
it as a third list beside BM25 and dense (an entry opening at a chunk's tail may be in neither leg's top 100)
and `lift_defined` multiplies their fused scores by 1 + weight (`SearchConfig.defined_names`, 0 = off: main's
order exactly).

A query names a defined name when one of its tokens (identifier characters, dots, leading dashes; backticks
and a trailing "()" dropped) is the name, or its last dotted part(s) ("Flask.route" and "route" for
`flask.Flask.route`), and the token reads as code, not as a word of the sentence: it holds "_" or ".", starts
with "-", has a capital past its first letter (`ALLCAPS`, `camelCase`), was written in backticks, or is
capitalised inside the sentence (not its first word: "How do I use Depends?"); a token with a hyphen inside
that has a capital past its first letter is read whole as well ("LSM-tree", a paper's acronym). So "How do I run the app?"
does not name `Flask.run`, "What does `run` do?" does. Names compare exactly, case and all, except that a
name holding "_" also matches in any case ("secret_key").

A paper's term ("a tablet", corpus_tools.paper_definitions) is named by a question asking what it is: "What is a
tablet?", "In the Bigtable paper, what is a tablet?" (asked_terms). A paper's names lift their definition only
for a question asking what they mean ("What does GFS stand for?", not "How does Bigtable use GFS?": asked_defines),
since a paper's body uses its acronyms in most passages that answer something else.

A plain word is a name too when the question asks it as one and the search says the index defines it
(`query_names(query, defined)`, `SearchConfig.defined_words`, session 49): manual pages define `openat2`, `chdir`,
`mount` on their NAME line, and "What does openat2 do?" names the call though nothing in it reads as code.
Asked as a name (`asked_as_name`): "What does read do?", "What is utmp for?", "the mount command"; so "How do I
read a file?" does not pull read(2)'s page, however common or rare the word.

Only a question is lifted (it ends with "?", or opens with a question word and does not end with "." or "!"): a phrase that names code the way a
heading does ("Returning a custom Response", "Dataclasses in response_model") asks for that section, not for
the name's definition; lifting such phrases cost the heading proxy MRR on tuning (session 41).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from corpus_tools.paper_definitions import is_paper

DEFINES_SEPARATOR = ", "  # between the names of a chunk's "defines" metadata (no Python or option name holds it)
_TOKEN = re.compile(r"`[^`]+`|-{1,2}[A-Za-z][\w-]*|[A-Za-z_][\w.]*\w|[A-Za-z_]")
_QUESTION_WORDS = frozenset("what which who whom whose when where why how is are does do did can could should will "
                            "would was were".split())
# "LSM-tree", "B-Tree": a name with a hyphen inside, read whole besides its parts (a paper's acronym,
# corpus_tools.paper_definitions); only added, so a documentation name matches as it did before
_HYPHENATED = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+(?![\w-])")
# "What is a tablet?", "In the Bigtable paper, what is a tablet?", "What is an SSTable in …?": the term asked, its
# article kept (a paper's defined term is recorded so, corpus_tools.paper_definitions)
_ASKED_TERM = re.compile(r"\bwhat\s+is\s+(?P<t>an?\s+[A-Za-z][\w\-]*(?:\s[A-Za-z][\w\-]*){0,2}?)"
                         r"\s*(?=\?|$|,|\s+(?:in|according\s+to|as\s+defined\s+in)\b)", re.IGNORECASE)
_NAME = re.compile(r"^(?:-{1,2}[A-Za-z][\w-]*|[A-Za-z_][\w.]*)$")


def is_name(text: str) -> bool:
    """Whether `text` reads as one code name (an identifier, a dotted path, an option like `--output`)."""
    return bool(_NAME.match(text.strip())) and not text.strip().endswith(".")


def is_question(query: str) -> bool:
    """Whether a query is asked as a question: it ends with "?", or its first word is a question word and it
    does not end as a statement does ("What FastAPI checks is that it is callable." is a sentence)."""
    words = query.strip().split()
    if not words:
        return False
    end = query.rstrip()[-1]
    return end == "?" or (end not in ".!" and words[0].lower().strip("`\"'") in _QUESTION_WORDS)


def query_names(query: str, defined: Callable[[str], bool] | None = None) -> set[str]:
    """The tokens of a query that read as code (see the module docstring), as written.

    With `defined` (does the index record this very word as a defined name?) a plain word is a name too when
    the question asks it as a name (`asked_as_name`: "What does openat2 do?", "the mount command") and
    `defined(word)` holds, and only when the question names nothing as code: then the entry of the code name
    answers it ("When does chdir fail with EACCES?" is chdir's EACCES entry, not its NAME line; lifting both cost
    the man tuning folder's tag proxies hit@1 −0.058, 0 won / 28 lost). A word said in passing, even a rare
    one, is not taken: "For that an explicit fsync() on the directory is needed?" asks for that paragraph, and
    lifting fsync(2)'s NAME line above it cost the man folder's sentences asked as questions hit@1 −0.095
    (0 / 23) when rare words (≤ 2 % of chunks) and "X()" / "X(2)" counted as asked. None (the default) =
    code-shaped tokens only."""
    out: set[str] = set()
    words: list[str] = []
    for position, match in enumerate(_TOKEN.finditer(query)):
        token = match.group(0)
        quoted = token.startswith("`")
        if quoted:
            token = token.strip("`").strip()
            if token.endswith("()"):
                token = token[:-2]
            if not is_name(token):
                continue
        token = token.rstrip(".")
        if not token:
            continue
        if quoted or _code_like(token) or (position > 0 and token[0].isupper() and len(token) > 1):
            out.add(token)
        elif defined is not None and _plain_word(token):
            words.append(token)
    for match in _HYPHENATED.finditer(query):
        if _code_like(match.group(0)) and match.start() > 0:
            out.add(match.group(0))
    if out:  # "When does chdir fail with EACCES?": the entry of EACCES, not chdir's NAME line, answers it
        return out
    for word in dict.fromkeys(words):  # the index's lookup last: asking is read off the question
        if asked_as_name(query, word) and defined(word):
            out.add(word)
    return out


# A few words no index should take as a name (a chunk may define "is" or "do": an option's value, a keyword).
_GRAMMAR = frozenset("a an the of to in on at by for from with and or not no if as it its this that these those be "
                     "been has have had then than there their so such into about".split()) | _QUESTION_WORDS
# "the X call", "the X(2) system call", "the X command": words that say X names a call, a program or an option.
_KIND_OF_NAME = (r"(?:system\s+call|syscall|call|function|command|utility|program|tool|option|flag|macro|method|"
                 r"setting|parameter|argument|variable|keyword|directive|field|class|module|attribute)s?")


def _plain_word(token: str) -> bool:
    return len(token) > 1 and token.replace("_", "").isalnum() and token.lower() not in _GRAMMAR


def asked_as_name(query: str, word: str) -> bool:
    """Whether the question asks about `word` as a name rather than saying it as a word: "What does X do?",
    "What is X (used) for?", "the X call / command / function / option …" ("the X(2) system call")."""
    w = re.escape(word)
    return bool(re.search(rf"(?i:\bwhat\s+(?:does|do|did)\s+){w}(?i:\s+do\b)"
                          rf"|(?i:\bwhat\s+(?:is|are)\s+){w}(?i:\s+(?:used\s+)?for\b)"
                          rf"|(?i:\b(?:the|a|an)\s+){w}(?:\(\d\w*\))?(?i:\s+{_KIND_OF_NAME}\b)", query))


def asked_terms(query: str) -> set[str]:
    """The terms a question asks the definition of, lowercased with their article: "What is a skew heap?" →
    {"a skew heap"}. A paper's defined term is recorded so; a code name never holds a space, so documentation's
    names match as they did."""
    return {" ".join(m.group("t").lower().split()) for m in _ASKED_TERM.finditer(query)} if is_question(query) else set()


def asks_meaning(query: str, name: str) -> bool:
    """Whether a question asks what `name` means, not something else about it: "What does LSM-tree stand for?",
    "What is (an) LSM-tree?", "What is an LSM-tree in the paper …?", "What do CLRs mean?", "Define RPC", "the
    meaning of RPC". "How does Bigtable use GFS?" names GFS without asking what it is. A term ("a tablet") is only
    ever named by a question asking what it is (asked_terms)."""
    if " " in name:
        return True
    n = r"[`\"“']?" + re.escape(name) + r"[`\"”']?"
    return bool(re.search(
        rf"\bwhat\s+(?:does|do|did)\s+(?:the\s+)?(?:acronym\s+|abbreviation\s+|term\s+)?{n}\s+(?:stand\s+for|mean|refer\s+to)\b"
        rf"|\bwhat\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?{n}\s*(?=\?|$|,|\s+(?:in|according\s+to|as\s+defined\s+in)\b)"
        rf"|\b(?:define|definition\s+of|meaning\s+of|expansion\s+of)\s+(?:the\s+)?{n}(?![\w-])"
        rf"|(?<![\w-]){n}\s+stands?\s+for\b", query, re.IGNORECASE))


def asked_defines(query: str, metadata: Mapping[str, object] | None, doc_id: str = "") -> object:
    """A chunk's "defines" metadata as the question may name it: as it is, except that a paper's name the question
    does not ask the meaning of is left out ("How does Bigtable use GFS?" does not lift GFS's expansion: tuning,
    session 49, a body sentence naming a defined acronym asked as a question lost hit@1 .625 → .125 without this).
    `doc_id`: the chunk's document, for metadata that no longer carries its file's name (the agent's shown
    passages keep a few keys only: without it the agent lifted a paper's definition the question did not ask)."""
    meta = metadata or {}
    value = meta.get("defines")
    # a paper's names (corpus_tools.paper_definitions) are named only by a question asking what they mean
    if not value or not is_paper(doc_id, meta):
        return value
    kept = [n for n in split_defines(value) if asks_meaning(query, n)]
    return DEFINES_SEPARATOR.join(kept) if kept else None


def _code_like(token: str) -> bool:
    return ("_" in token or "." in token or token.startswith("-")
            or (len(token) > 1 and any(ch.isupper() for ch in token[1:])))


def forms(name: str) -> set[str]:
    """The ways a query may write a defined name: whole, and its last one or two dotted parts."""
    parts = name.split(".")
    return {name, parts[-1], ".".join(parts[-2:])} if len(parts) > 1 else {name}


def names_match(tokens: Iterable[str], name: str) -> bool:
    """Whether one of the query's code tokens writes `name` (see the module docstring)."""
    if " " in name:  # a paper's term, "a tablet": asked whole (asked_terms), case aside
        return name.lower() in tokens
    written = forms(name)
    folded = {f.lower() for f in written if "_" in f}
    return any(t in written or ("_" in t and t.lower() in folded) for t in tokens)


def split_defines(value: object) -> list[str]:
    """A chunk's "defines" metadata as names; anything but a non-empty string defines nothing."""
    if not isinstance(value, str) or not value.strip():
        return []
    return [name.strip() for name in value.split(DEFINES_SEPARATOR) if name.strip()]


def lift_defined(query: str, fused: Sequence[tuple[str, float]], defines: Sequence[object],
                 weight: float, tokens: set[str] | None = None) -> list[tuple[str, float]]:
    """The fused ranking with the score of each candidate defining a name the query names × (1 + weight).

    defines: per candidate, its "defines" metadata. Unchanged (the same list, in order) when the query names
    no code or no candidate defines what it names; ties keep their order. tokens: the names the query names when
    the caller read them itself (`query_names` with the index's words); None = `query_names(query)`.
    """
    if weight < 0:
        raise ValueError(f"weight must be >= 0, got {weight!r}")
    if tokens is None:
        tokens = query_names(query)
    tokens = tokens | asked_terms(query) if is_question(query) else set()
    if not tokens or weight == 0:
        return list(fused)
    lifted = [any(names_match(tokens, name) for name in split_defines(d)) for d in defines]
    if not any(lifted):
        return list(fused)
    scored = [(cid, s * (1.0 + weight) if up else s) for (cid, s), up in zip(fused, lifted, strict=True)]
    return sorted(scored, key=lambda pair: -pair[1])
