"""The names a research paper defines (session 49, issue 34): an acronym, "Log-Structured Merge-Tree (LSM-tree)"
defines LSM-tree, and a term, "A tablet is a range of rows …" defines a tablet.

One reader for read time and for datagen: `expansion` finds the words before an acronym's parenthesis whose
initials are the acronym's letters, in order, each content word giving one ("Flat Datacenter Storage (FDS)"; a
hyphen's parts one each, "Log-Structured" → L S; "of", "and", "the", … give none, or every word does: "mean time
to data loss (MTTDL)"); the expansion opens with a content word and is not the acronym again. `datagen.doc_papers`
asks "What does LSM-tree stand for in …?" of it; `paper_defines` marks, at read time, the place of each acronym's
first definition in a paper (DocumentPart.defines), so the chunk holding it carries the name ("defines") and a
question naming it ranks that chunk as a documentation page's definition is ranked (corpus_tools.defined_names).

A term's definition is read as `defined_term` says (datagen asks "In …, what is a tablet?" of it).

Only the first definition counts, and an acronym the paper expands two ways ("SS" as two things) defines nothing:
no one passage answers. Nothing after the paper's bibliography heading defines a name (a cited venue's "(JSAC)").
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Mapping, Sequence

from corpus_tools.bibliography import is_heading, is_section
from corpus_tools.types import DocumentPart

# "(LSM-tree)", "(FDS)", "(RPCs)": an acronym in parentheses, two capitals at least (see `letters`)
ACRONYM = re.compile(r"\((?P<a>[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)?)\)")
MINOR = frozenset("of and for the a an in on to with by from at via or as".split())
_EXPANSION_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9']*(?:-[A-Za-z0-9']+)*$")
# where a sentence ends: its end mark, space, and a capital (the read-time reader looks back to it)
_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z])")
LOOK_BACK = 400  # characters before a parenthesis read for its expansion (an expansion is a few words)

# "A tablet is a range of rows …", "An SSTable is a persistent, ordered immutable map …"
_DEFINITION = re.compile(
    r"^(?P<art>A|An)\s+(?P<t>[A-Za-z][\w\-]*(?:\s[A-Za-z][\w\-]*){0,2})\s+is\s+(?P<a>(?:a|an)\s+[^.!?]+?)[.!?:]?$")
_GENUS_END = re.compile(r"\s*(?:,|;|:|\(|\[|—|–| - |\s(?:that|which|who|whose|where|when|whereby|because|but|so|if)\s)")
_NOT_TERMS = frozenset("""
this these that those it they there here one each every our my your his her their its such which what another other
all both some any result results key idea goal main first second next last problem reason answer point difference
advantage way only example figure approach method data value we you case thing step option part rest same
good simple common typical new similar notable major important final basic
""".split())
_RELATIVE = frozenset("similar same other another third second first related following next good great simple useful "
                      "better best nice easy quick common special different bit lot little few couple number very "
                      "more less much".split())
MAX_GENUS_WORDS = 12
# where a definition may open at read time: "A" / "An" after a sentence's end, a line's start or the text's start
_TERM_OPENING = re.compile(r"(?:(?<=^)|(?<=[.!?]\s)|(?<=\n))An?\s")
_TERM_SENTENCE = re.compile(r"^[^.!?]*?(?:\.(?=\w)[^.!?]*?)*[.!?](?=\s|$)")  # to its end mark ("e.g" kept inside)
TERM_LENGTH = 400  # characters read for one definition's sentence


def is_paper(doc_id: str, metadata: Mapping[str, object] | None) -> bool:
    """Whether a document (or a chunk, by its metadata) was read from a PDF that is no filing (no form on its
    cover): a paper, whose names this module records and whose bibliography `corpus_tools.bibliography` marks."""
    meta = metadata or {}
    name = str(meta.get("file_name") or meta.get("source") or doc_id)
    return name.lower().endswith(".pdf") and not meta.get("form")


def letters(acronym: str) -> list[str]:
    """The letters an expansion's words must give: "LSM-tree" → l s m t, "RPCs" → r p c; [] for one that spells
    none ("B2B")."""
    out: list[str] = []
    for n, part in enumerate(acronym.split("-")):
        if part.isupper() or (n == 0 and part[:1].isupper()):
            body = part[:-1] if part.endswith("s") and part[:-1].isupper() else part  # "RPCs"
            if not body.isalpha() or not body.isupper():
                return []
            out += list(body.lower())
        elif part.isalpha():
            out.append(part[0].lower())  # "-tree"
        else:
            return []
    return out


def expansion(before: str, acronym: str) -> str | None:
    """The shortest run of the words ending `before` (the sentence up to the parenthesis) whose initials spell
    `acronym`; None when none does, or the run is the acronym again ("FDS (FDS)", all capitals)."""
    spelled = letters(acronym)
    if len(spelled) < 2:
        return None
    words = before.split()
    for start in range(len(words) - 1, max(len(words) - 2 * len(spelled) - 2, -1), -1):
        run = [w.strip(",;:“”\"'") for w in words[start:]]
        if not all(_EXPANSION_WORD.match(w) for w in run) or run[0].lower() in MINOR:
            continue
        initials = [p[0].lower() for w in run if w.lower() not in MINOR for p in w.split("-") if p]
        every = [p[0].lower() for w in run for p in w.split("-") if p]  # "mean time to data loss (MTTDL)"
        if spelled in (initials, every):
            found = " ".join(run)
            return None if found.upper() == found or found.lower() == acronym.lower() else found
    return None


def acronyms(sentence: str, skipped: Counter, cut: set[str] | None = None) -> list[tuple[str, str]]:
    """(acronym, expansion) for each acronym a sentence defines, in order; refusals counted in `skipped`, and an
    acronym refused as spelled inside a longer name added to `cut` (a document's other definitions of it are as
    unsure: a heading "Tobacco Tax and Trade Bureau (TTB)" cut from its "Alcohol and")."""
    out = []
    for m in ACRONYM.finditer(sentence):
        acronym = m.group("a")
        if len(letters(acronym)) < 2:
            continue
        found = expansion(sentence[:m.start()], acronym)
        if not found:
            skipped["paper_acronym_initials"] += 1
            continue
        if _cut_name(sentence[:m.start()].split(), len(found.split())):
            skipped["paper_acronym_cut_name"] += 1
            if cut is not None:
                cut.add(acronym)
            continue
        out.append((acronym, found))
    return out


def _cut_name(words: list[str], n: int) -> bool:
    """Whether the shortest spelling run (the last `n` of `words`) starts inside a longer name: the word before it
    is capitalised, mid-sentence, no minor word and no list's end ("the Alcohol and Tobacco Tax and Trade Bureau
    (TTB)" spells TTB from "Tax and Trade Bureau", session 55's reporting read). Which run the acronym stands for is
    then unsure, and a question asks nothing unsure; the read-time reader (`paper_defines`) keeps its own rule."""
    if len(words) <= n + 1:
        return False  # the run opens the sentence, or only its first word is before it
    prev = words[-n - 1]
    if prev[-1:] in ",;:.)]" or prev.lower() in MINOR:
        return False
    return prev.strip("“”\"'(")[:1].isupper()


def defined_term(sentence: str, skipped: Counter) -> tuple[str, str] | None:
    """("a tablet", "a range of rows") for a sentence defining a term: it opens with "A" / "An", the term (one to
    three words, no pronoun, no phrase of the argument), "is a(n)" and the genus, cut at its first clause; two
    content words at least, none that only places the term beside another ("a similar operation"), and not the
    term again ("A run is a deciding run …"). None otherwise; refusals counted in `skipped`."""
    m = _DEFINITION.match(sentence)
    if not m:
        return None
    term = m.group("t")
    words = term.lower().split()
    if words[0] in _NOT_TERMS or words[-1] in _NOT_TERMS or (len(words) > 1 and words[0].endswith("ing")):
        skipped["paper_not_a_term"] += 1
        return None
    genus = _GENUS_END.split(m.group("a"), maxsplit=1)[0].strip()
    content = [w for w in genus.split()[1:] if len(w) > 2]
    last = genus.split()[-1]
    if len(content) < 2 or len(genus.split()) > MAX_GENUS_WORDS or last.lower() in MINOR or len(last) < 2:
        # "a set of objects x": the genus ends on a variable, "a time interval [a, b]" on its bounds
        skipped["paper_genus_shape"] += 1
        return None
    head = words[words.index("of") - 1] if "of" in words[1:] else words[-1]  # "ensemble of functions": an ensemble
    if head.rstrip("s") in {w.lower().rstrip("s,;") for w in genus.split()[2:]}:
        # "A run is a deciding run provided that …" defines a deciding run, not a run (session 48's reporting read);
        # the head as the genus itself is a definition ("A singleton type is a type with a single member")
        skipped["paper_genus_circular"] += 1
        return None
    if genus.split()[1].lower() in _RELATIVE or genus.split()[1].lower().endswith("ly"):
        # "a similar operation" places the term beside another; "a potentially unfavorable situation" judges it
        skipped["paper_genus_relative"] += 1
        return None
    return ("an " if m.group("art") == "An" else "a ") + term, genus


def names(acronym: str) -> list[str]:
    """The names a definition of `acronym` records: as written, and "RPC" for "RPCs" (a question asks either)."""
    if acronym.endswith("s") and acronym[:-1].isupper() and len(acronym) > 2:
        return [acronym, acronym[:-1]]
    return [acronym]


def paper_defines(text: str, parts: Sequence[DocumentPart]) -> tuple[DocumentPart, ...]:
    """`parts` with each acronym's and each term's first definition in the paper's text recorded where it is
    written (DocumentPart.defines: the offset of the acronym's parenthesis, of the definition's "A" / "An"), before
    the bibliography only; an acronym expanded two ways (case aside) defines nothing. A term is recorded with its
    article, lowercased ("a tablet", "an sstable"): never a code name, and asked as "What is a tablet?"
    (defined_names.asked_terms). Parts that define nothing are returned as they were."""
    end = len(text)
    for part in parts:
        if is_section(part.section):
            end = min(end, part.start)
            break
    at = 0
    for line in text[:end].split("\n"):
        if is_heading(line):  # a references heading the layout did not make a section
            end = at
            break
        at += len(line) + 1
    first: dict[str, int] = {}
    expansions: dict[str, set[str]] = {}
    for part in parts:
        if part.kind != "text" or part.start >= end:
            continue
        body = text[part.start:min(part.end, end)]
        for m in ACRONYM.finditer(body):
            acronym = m.group("a")
            if len(letters(acronym)) < 2:
                continue
            at = part.start + m.start()
            # the document's text, not the part's: a paper's line or paragraph is a part of its own, and an
            # expansion may open on the line before ("… called Story Action Definition / Language (SADL)")
            before = " ".join(text[max(0, at - LOOK_BACK):at].split())
            cut = list(_SENTENCE_END.finditer(before))
            found = expansion(before[cut[-1].end():] if cut else before, acronym)
            if found:
                expansions.setdefault(acronym, set()).add(found.lower())
                first.setdefault(acronym, at)
    terms: dict[str, int] = {}
    for part in parts:
        if part.kind != "text" or part.start >= end:
            continue
        for m in _TERM_OPENING.finditer(text, part.start, min(part.end, end)):
            at = m.start()
            sentence = _TERM_SENTENCE.match(" ".join(text[at:min(at + TERM_LENGTH, end)].split()))
            found = defined_term(sentence.group(0), Counter()) if sentence else None
            if found:
                terms.setdefault(found[0].lower(), at)  # the first definition only (datagen's, case aside)
    defines: dict[int, list[tuple[int, str]]] = {}
    for term, offset in terms.items():
        defines.setdefault(offset, []).append((offset, term))
    for acronym, offset in first.items():
        if len(expansions[acronym]) == 1:
            defines.setdefault(offset, []).extend((offset, name) for name in names(acronym))
    if not defines:
        return tuple(parts)
    out = []
    for part in parts:
        mine = [d for offset, ds in sorted(defines.items()) if part.start <= offset < part.end for d in ds]
        out.append(dataclasses.replace(part, defines=tuple(part.defines) + tuple(mine)) if mine else part)
    return tuple(out)
