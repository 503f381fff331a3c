"""The acronyms a research paper defines: "Log-Structured Merge-Tree (LSM-tree)" defines LSM-tree (session 49,
issue 34).

One reader for read time and for datagen: `expansion` finds the words before an acronym's parenthesis whose
initials are the acronym's letters, in order, each content word giving one ("Flat Datacenter Storage (FDS)"; a
hyphen's parts one each, "Log-Structured" → L S; "of", "and", "the", … give none, or every word does: "mean time
to data loss (MTTDL)"); the expansion opens with a content word and is not the acronym again. `datagen.doc_papers`
asks "What does LSM-tree stand for in …?" of it; `paper_defines` marks, at read time, the place of each acronym's
first definition in a paper (DocumentPart.defines), so the chunk holding it carries the name ("defines") and a
question naming it ranks that chunk as a documentation page's definition is ranked (corpus_tools.defined_names).

Only the first definition counts, and an acronym the paper expands two ways ("SS" as two things) defines nothing:
no one passage answers. Nothing after the paper's bibliography heading defines a name (a cited venue's "(JSAC)").
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence

from corpus_tools.bibliography import is_heading, is_section
from corpus_tools.types import DocumentPart

# "(LSM-tree)", "(FDS)", "(RPCs)": an acronym in parentheses, two capitals at least (see `letters`)
ACRONYM = re.compile(r"\((?P<a>[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)?)\)")
MINOR = frozenset("of and for the a an in on to with by from at via or as".split())
_EXPANSION_WORD = re.compile(r"^[A-Za-z][A-Za-z0-9']*(?:-[A-Za-z0-9']+)*$")
# where a sentence ends: its end mark, space, and a capital (the read-time reader looks back to it)
_SENTENCE_END = re.compile(r"[.!?]\s+(?=[A-Z])")
LOOK_BACK = 400  # characters before a parenthesis read for its expansion (an expansion is a few words)


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


def acronyms(sentence: str, skipped: Counter) -> list[tuple[str, str]]:
    """(acronym, expansion) for each acronym a sentence defines, in order; refusals counted in `skipped`."""
    out = []
    for m in ACRONYM.finditer(sentence):
        acronym = m.group("a")
        if len(letters(acronym)) < 2:
            continue
        found = expansion(sentence[:m.start()], acronym)
        if not found:
            skipped["paper_acronym_initials"] += 1
            continue
        out.append((acronym, found))
    return out


def names(acronym: str) -> list[str]:
    """The names a definition of `acronym` records: as written, and "RPC" for "RPCs" (a question asks either)."""
    if acronym.endswith("s") and acronym[:-1].isupper() and len(acronym) > 2:
        return [acronym, acronym[:-1]]
    return [acronym]


def paper_defines(text: str, parts: Sequence[DocumentPart]) -> tuple[DocumentPart, ...]:
    """`parts` with each acronym's first definition in the paper's text recorded where it is written
    (DocumentPart.defines: the offset of its parenthesis), before the bibliography only; an acronym expanded two
    ways (case aside) defines nothing. Parts that define nothing are returned as they were."""
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
    defines: dict[int, list[tuple[int, str]]] = {}
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
