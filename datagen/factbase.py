"""What the sentence readers produce: a `Fact` (subject, relation, typed object, and the question
and description templates that ask for it) and the corpus's `FactBase`, with the lookups the
question writer (datagen.natural) makes on them: a document's relations stated with one answer, the
facts about subjects a title-less document names, the class word of an object.

How facts are read is datagen.relations (the reader) and the modules it calls.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from datagen.mining import fold
from datagen.types import TruthType

# spaCy entity label → the answer's truth type (NORP, ORDINAL, PERCENT… are never answers here).
KIND = {
    "DATE": TruthType.DATE.value,
    "PERSON": TruthType.PERSON.value,
    "GPE": TruthType.PLACE.value,
    "LOC": TruthType.PLACE.value,
    "FAC": TruthType.PLACE.value,
    "ORG": TruthType.ORGANIZATION.value,
    "WORK_OF_ART": TruthType.ENTITY.value,
    "EVENT": TruthType.ENTITY.value,
    "PRODUCT": TruthType.ENTITY.value,
}
# A class word for an object when its own document gives none.
FALLBACK_CLASS = {
    TruthType.PERSON.value: "person",
    TruthType.PLACE.value: "place",
    TruthType.ORGANIZATION.value: "organization",
    TruthType.ENTITY.value: "work",
}


@dataclass(frozen=True)
class Fact:
    """One relation of a document's subject, with what it takes to ask about it.

    sentence: verbatim sentence of chunk `chunk_id` (a slice of the chunk's text).
    subject: how the sentence names its subject; about_doc: the subject is the document itself
        (its title, or a pronoun in a titled document), so `{s}` may be filled with the title.
    relation: a key "lemma|prep|kind" that identifies the relation across documents (comparisons,
        and the check that a document states it once). answer: the object, verbatim; kind: its type.
    ask: the wh-question with "{s}" for the subject. describe: a noun phrase naming the object
        through the subject, "{s}" for the subject and "{c}" for the object's class ("" if none).
    compare: "Which {c} was founded first, {a} or {b}?"-style template ("" if the relation has none).
    target: the document the object names ("" when it names none).
    """

    doc_id: str
    chunk_id: str
    sentence: str
    subject: str
    about_doc: bool
    relation: str
    answer: str
    kind: str
    ask: str
    describe: str = ""
    compare: str = ""
    target: str = ""
    aliases: tuple[str, ...] = ()


@dataclass
class FactBase:
    """Every fact of a corpus, the class word of each document, and what was skipped.

    classes: doc id → a short class noun phrase from the document's defining sentence
    ("Philip Ford was an American film director" → "film director").
    names: doc id → the name used for the document in questions (its title without a parenthetical).
    skipped: reason → sentences not read (non-English, too long, no parse).
    articles: doc id → every paragraph of its article, the first one standing for it (see the module
        docstring); documents that are an article alone are not listed.
    """

    facts: dict[str, list[Fact]] = field(default_factory=dict)
    classes: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    skipped: Counter = field(default_factory=Counter)
    sentences: int = 0
    articles: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def article(self, doc_id: str) -> str:
        """The document standing for `doc_id`'s article (itself when it is an article alone)."""
        return self.articles.get(doc_id, (doc_id,))[0]

    def n_facts(self) -> int:
        return sum(len(v) for v in self.facts.values())

    def n_links(self) -> int:
        return sum(1 for v in self.facts.values() for f in v if f.target)


_AWARD = re.compile(r"\b(Award|Awards|Prize|Medal|Trophy|Cup|Championship)\b")


def class_of(base: FactBase, doc_id: str, kind: str, answer: str = "") -> str:
    """The class word for a document in a description ('the {c} where…'); without a document, a word
    for the answer's type ("award" for "the Academy Award for Best Actress", which NER calls an ORG)."""
    if base.classes.get(doc_id):
        return base.classes[doc_id]
    if _AWARD.search(answer):
        return "award"
    return FALLBACK_CLASS.get(kind, "one")


def unique_relations(facts: Iterable[Fact]) -> Mapping[str, Fact]:
    """relation → fact, for the relations a document states with exactly one answer (a relation with
    two different answers, "born in A … born in B", determines neither and is left out)."""
    by: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        if f.about_doc:
            by[f.relation].append(f)
    out = {}
    for rel, fs in by.items():
        answers = {fold(f.answer) for f in fs}
        if len(answers) == 1:
            out[rel] = fs[0]
    return out


def unique_named(facts: Iterable[Fact]) -> list[Fact]:
    """Facts about subjects the sentence names (not the document itself) whose (subject, relation)
    has one answer in the document: what a title-less document can be asked."""
    by: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for f in facts:
        if not f.about_doc:
            by[(fold(f.subject), f.relation)].append(f)
    return [fs[0] for fs in by.values() if len({fold(f.answer) for f in fs}) == 1]


def fact_key(fact: Fact, subject: str = "") -> str:
    """What a fact is, whichever document states it: subject (`subject`, else the sentence's), relation
    and answer, folded. Two tasks with a fact key in common ask for the same thing (the split keeps
    them on one side); two passages with one state the same fact (extra positives)."""
    return "|".join((" ".join(fold(subject or fact.subject).split()), fact.relation, " ".join(fold(fact.answer).split())))
