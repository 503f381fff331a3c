"""What a research paper states verifiably (issue 36: a folder of papers, a real folder kind, yields questions).

A paper (a PDF that is no filing, read by `corpus_tools.pdf_layout` with `CorpusConfig.pdf_columns`) holds none of
the shapes the filing and documentation readers take. Two of its shapes are stated so that a passage verifies the
answer and the question names the paper it is about:

- an acronym the paper defines, "Log-Structured Merge-Tree (LSM-tree)" → "What does LSM-tree stand for in the paper
  “…”?" → "Log-Structured Merge-Tree" (`ACRONYM`): only the paper's first definition of it, and only where the
  expansion's initials are the acronym's letters, in order, each content word giving one ("Flat Datacenter Storage
  (FDS)"; a hyphen's parts one each, "Log-Structured" → L S; "of", "and", "the", … give none); the expansion opens
  with a content word, and one written otherwise later in the paper ("FDS" read as two things) is refused;
- a term the paper defines, "A tablet is a range of rows …" → "In the paper “…”, what is a tablet?" → "a range of
  rows" (`TERM`): the sentence opens with "A" / "An", the term (one to three words, no pronoun, no phrase of the
  argument), "is a(n)" and the genus, cut at its first clause; two content words at least, none that only places
  the term beside another ("a similar operation").

The prose templates' questions about a paper ("Which place did Dave go off to?", "Which organization does Sn act
on?") name no paper, so a folder of many cannot answer them, and a table's rows in a paper are no filing's: with this
reader on, a paper's only questions are these two kinds and the claims (`relations.read_facts`, counted as
`paper_prose_template`).

Every question names its paper by the title its first page sets (`pdf_layout.page_title`), or, where the title
opens with a system's name ("Bigtable: A Distributed …"), by that name ("in the Bigtable paper"); a title another
paper of the folder shares names none of them, and its questions are refused. An answer the question's own words
give (an expansion the title spells) is refused by the caller (`relations._no_leaks`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from corpus_tools.paper_definitions import MINOR as _MINOR
from corpus_tools.paper_definitions import acronyms as _acronyms
from corpus_tools.paper_definitions import defined_term
from corpus_tools.readers import stem_title
from datagen.factbase import Fact
from datagen.types import TruthType

ACRONYM = "doc:paper_acronym"
TERM = "doc:paper_term"

# a sentence: a capital, then to its end mark (lines joined: a paper's sentence runs over its column's lines)
_SENTENCE = re.compile(r"(?:(?<=^)|(?<=[.!?]\s))(?P<s>[A-Z][^.!?]*?(?:\.(?=\w)[^.!?]*?)*[.!?])(?=\s|$)")
# a bibliography's heading, on a line of its own
_REFERENCES = re.compile(r"(?:^|\n)\s*(?:\d+\.?\s*)?(?:references|bibliography|literature cited)\s*(?:\n|$)", re.IGNORECASE)
# a system's name opening its paper's title: "Bigtable: A Distributed …", "Dynamo: Amazon's …"
_TITLE_NAME = re.compile(r"^(?P<n>[A-Z][\w\-]*(?:\s[A-Z0-9][\w\-]*)?)\s*:\s+\S")


def paper_name(title: str) -> str:
    """How a question names its paper: "the Bigtable paper" where the title opens with a system's name, else the
    paper by its title, "the paper “An Axiomatic Basis for Computer Programming”" (one set in capitals written
    in title case); "" for a title no reader would name a paper by (a file's name, over 20 words)."""
    title = " ".join(title.split())
    if ("_" in title or len(title.split()) > 20 or not re.search(r"[A-Za-z]{3}", title)
            or re.search(r"[{}@]|\.(?:docx?|dvi|pdf|tex|ps)\b|\bABSTRACT\b", title)):
        return ""
    if title.isupper():
        title = " ".join(w.lower() if w.lower() in _MINOR and n else w.capitalize() for n, w in enumerate(title.split()))
    m = _TITLE_NAME.match(title)
    if m and len(m.group("n").split()) <= 2:
        return f"the {m.group('n')} paper"
    return f"the paper “{title}”"


def paper_facts(doc_id: str, title: str, chunks: Sequence[Any], skipped: Counter, *,
                unique_title: bool = True) -> list[Fact]:
    """Every fact of one paper's passages (see the module docstring); refusals counted in `skipped`."""
    if not title.strip() or not unique_title:
        skipped["paper_title_shared" if title.strip() else "paper_no_title"] += 1
        return []
    named = paper_name(title)
    if not named:
        skipped["paper_title_shape"] += 1
        return []
    if " ".join(title.split()).lower() == stem_title(Path(doc_id)).lower():
        # no title read from the paper: the file's name ("affective computing Theories Methods …") names it as
        # its folder does, not as a reader would
        skipped["paper_title_is_file_name"] += 1
        return []
    if _title_disowned(title, doc_id):
        skipped["paper_title_not_the_files"] += 1
        return []
    return defined_facts(chunks, named, skipped)


def defined_facts(chunks: Sequence[Any], named: str, skipped: Counter, acronym_relation: str = ACRONYM,
                  term_relation: str = TERM) -> list[Fact]:
    """The acronyms and terms a document's passages define (see the module docstring), each question naming the
    document as `named` says ("the Bigtable paper"; datagen.doc_office names a report or a policy its own way);
    `acronym_relation` and `term_relation` are the relations they are filed under. Refusals counted in `skipped`."""
    out: list[Fact] = []
    expansions: dict[str, set[str]] = {}
    defined: set[str] = set()
    cut: set[str] = set()  # acronyms some sentence spells inside a longer name (corpus_tools.paper_definitions)
    for chunk in chunks:
        if _REFERENCES.search(chunk.text) or _REFERENCES.match(str((getattr(chunk, "metadata", None) or {}).get("section") or "")):
            # the bibliography, and what follows it (appendices are rare; a cited venue's acronym is not the
            # paper's: "JSAC", "ENTCS"), is no passage to ask from
            skipped["paper_after_references"] += len(chunks) - chunks.index(chunk)
            break
        flat = " ".join(chunk.text.split())
        for m in _SENTENCE.finditer(flat):
            sentence = m.group("s")
            for acronym, expansion in _acronyms(sentence, skipped, cut):
                expansions.setdefault(acronym, set()).add(expansion.lower())
                if acronym in {f.subject for f in out if f.relation == acronym_relation}:
                    continue  # the first definition only
                out.append(Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=sentence, subject=acronym,
                                about_doc=False, relation=acronym_relation, answer=expansion, kind=TruthType.ENTITY.value,
                                ask=stand_for(acronym, named)))
            for fact in _term(chunk, sentence, named, skipped, term_relation):
                if fact.subject.lower() in defined:
                    skipped["paper_term_defined_again"] += 1
                    continue
                defined.add(fact.subject.lower())
                out.append(fact)
    kept = []
    for fact in out:
        if fact.relation == acronym_relation and len(expansions.get(fact.subject, ())) > 1:
            skipped["paper_acronym_two_expansions"] += 1  # "SS" as two things in one paper: no one answer
            continue
        if fact.relation == acronym_relation and fact.subject in cut:
            skipped["paper_acronym_cut_elsewhere"] += 1  # the document writes a longer name for it elsewhere
            continue
        kept.append(fact)
    return kept


def _title_disowned(title: str, doc_id: str) -> bool:
    """Whether the first page's largest type is doubtful as the paper's name: the file's name describes the paper
    (three content words or more) and shares none with it — a report series' masthead set larger than the title
    ("Basic Research BRICS in Computer Science" over "optimal-purely-functional-priority-queues.pdf", session 48's
    reporting read). A file named by an id ("2101.00001.pdf") says nothing either way."""
    def content(text: str) -> set[str]:
        return {w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _MINOR}

    named = content(stem_title(Path(doc_id)))
    return len(named) >= 3 and not (named & content(title))


def _term(chunk: Any, sentence: str, named: str, skipped: Counter, relation: str = TERM) -> list[Fact]:
    found = defined_term(sentence, skipped)
    if found is None:
        return []
    subject, genus = found
    ask = f"In {named}, what is {{s}}?"
    return [Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=sentence, subject=subject, about_doc=False,
                 relation=relation, answer=genus, kind=TruthType.ENTITY.value, ask=ask)]


def stand_for(acronym: str, named: str) -> str:
    """An acronym's question: "What does SQL stand for in …?"; a plural acronym takes the plural verb ("What do
    AMOLEDs stand for …?": session 55 read "What does AMOLEDs stand for" from papers and office documents)."""
    verb = "do" if acronym.endswith("s") and acronym[:-1].isupper() else "does"
    return f"What {verb} {{s}} stand for in {named}?"
