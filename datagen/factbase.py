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
    lists: the complete sets of one speaker's things done with one verb, each a tuple of facts, one per
        thing (`datagen.chat_lists.list_groups`).
    """

    facts: dict[str, list[Fact]] = field(default_factory=dict)
    classes: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    skipped: Counter = field(default_factory=Counter)
    sentences: int = 0
    articles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # doc id → the project its documentation page documents, where one is read (datagen.doc_projects, set by
    # `relations.name_projects`): what a question joining two pages (datagen.doc_bridges) must hold one of
    projects: dict[str, str] = field(default_factory=dict)
    # complete sets of one person's noun-phrase acts with one verb (datagen.chat_lists)
    lists: list[tuple[Fact, ...]] = field(default_factory=list)
    # one person's thing asked through another of their dated acts (datagen.chat_anchors.Anchored)
    anchored: list = field(default_factory=list)
    # a session's day-asked thing asked through another sentence of that session (datagen.chat_bridges.Bridge)
    bridges: list = field(default_factory=list)
    # complete cross-session sets of one speaker's dated acts with one verb (datagen.chat_act_sets)
    act_sets: list[tuple[Fact, ...]] = field(default_factory=list)
    # (speaker, verb) pairs with a clause of the verb no reader asks a thing of: no set of them is complete
    unread_acts: frozenset[tuple[str, str]] = frozenset()

    def article(self, doc_id: str) -> str:
        """The document standing for `doc_id`'s article (itself when it is an article alone)."""
        return self.articles.get(doc_id, (doc_id,))[0]

    def n_facts(self) -> int:
        return sum(len(v) for v in self.facts.values())

    def n_links(self) -> int:
        return sum(1 for v in self.facts.values() for f in v if f.target)


# A company's legal suffix alone ("Inc.", "LLC") names no company; a filing heading ("Item 2.", "Note 5",
# "RISK FACTORS") is no subject. Both came out of 10-Q prose as subjects ("Which place did Inc. file for?").
_LEGAL_SUFFIX = frozenset("inc llc ltd corp co plc lp llp na sa ag nv bv gmbh company corporation limited incorporated".split())
_HEADING = re.compile(r"^(?:item|part|note|section|table|schedule|exhibit|article)\s+[\dIVXivx]+\b", re.IGNORECASE)
# "Western District" cut from "Western District of Washington": the name runs on through "of <Name>".
# …and "Cañada" from "Cañada de Gómez": a Spanish, French or Italian name runs on through "de", "del", "di".
_RUNS_ON = re.compile(r"^ (?:of|de|del|di|da|do|du) (?:the |la |los |las )?[A-Z][\w.'’-]*(?: (?:of |and |de )?[A-Z][\w.'’-]*)*")


def malformed_subject(subject: str) -> bool:
    """Whether a named subject cannot be asked about: empty, a bare legal suffix, a heading, a
    shouting heading ("RISK FACTORS"), or not a name at all (lower case, digits first)."""
    text = re.sub(r"^(the|a|an)\s+", "", subject.strip(), flags=re.IGNORECASE)
    words = [w.strip(".,;:()") for w in text.split()]
    words = [w for w in words if w]
    if not words or not words[0][:1].isupper():
        return True
    if all(fold(w).replace(".", "") in _LEGAL_SUFFIX for w in words):
        return True
    if _HEADING.match(text):
        return True
    letters = [c for c in text if c.isalpha()]
    return len(words) >= 2 and sum(c.isupper() for c in letters) > 0.8 * len(letters)


def whole_value(answer: str, sentence: str) -> str:
    """The answer with the "of <Name>" its sentence continues it with ("Western District" → "Western
    District of Washington"); unchanged when the sentence does not run on or holds it twice."""
    at = sentence.find(answer)
    if at < 0 or sentence.find(answer, at + 1) >= 0:
        return answer
    m = _RUNS_ON.match(sentence[at + len(answer) :])
    return answer + m.group(0).rstrip(".'’-") if m else answer


def cut_word(answer: str, sentence: str) -> bool:
    """Whether every place `sentence` holds `answer` is inside a written word: spaCy splits "CS:GO" at its
    colon, and "CS" or "GO" alone would be a wrong answer. An answer the sentence does not hold as
    written (a lemma, a normalised date) is not cut."""
    spots = [m.start() for m in re.finditer(re.escape(answer), sentence)] if answer else []
    return bool(spots) and all(
        re.match(r"[\w]|:\w", sentence[at + len(answer) : at + len(answer) + 2])
        or re.search(r"\w:?$", sentence[max(0, at - 2) : at]) for at in spots)


# The speaker's own words for themself: "my daughter's birthday", "inviting a few other friends of mine",
# "our own pots". An answer keeping them is the chat's phrase, not a reader's: a person asking "What did
# Melanie celebrate?" expects "her daughter's birthday", and no rewrite knows whose "her". Lowercase
# only (and "I"), so "US Open" and "Us Weekly" stay names.
_FIRST_PERSON = re.compile(r"(?<![\w'’-])(?:i|I|me|my|mine|myself|we|us|our|ours|ourselves)(?![\w'’-])")


def speaker_words(answer: str) -> bool:
    """Whether an answer keeps its speaker's first-person words (see `_FIRST_PERSON`)."""
    return bool(_FIRST_PERSON.search(answer))


_SCHOOL = re.compile(r"\b(University|College|School|Academy|Conservatory|Seminary)\b")
# A place whose own name says what it is ("the Ottawa River", "Kelby County"), when no page of it does.
_PLACE_WORD = re.compile(
    r"\b(River|Lake|Sea|Ocean|Island|Mountain|Bay|Peninsula|Valley|County|Province|District|Parish|Municipality)$"
)
_AWARD = re.compile(r"\b(Award|Awards|Prize|Medal|Trophy|Cup|Championship)\b")


def class_of(base: FactBase, doc_id: str, kind: str, answer: str = "") -> str:
    """The class word for a document in a description ('the {c} where…'); without a document, a word
    for the answer's type ("award" for "the Academy Award for Best Actress", which NER calls an ORG)."""
    if base.classes.get(doc_id):
        # a capital is a city ("the city where Jean-Louis Aumer was born", not "the capital where …")
        return "city" if base.classes[doc_id] == "capital" else base.classes[doc_id]
    if _AWARD.search(answer):
        return "award"
    school = _SCHOOL.search(answer)
    if school and kind == TruthType.ORGANIZATION.value:
        return school.group(1).lower()  # "Which college did Virginia Woolf attend?", not "Which organization"
    named = _PLACE_WORD.search(answer)
    if named and kind == TruthType.PLACE.value:
        return named.group(1).lower()  # "Which river does Ottawa stand on?", not "Which place"
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


def unique_in_corpus(base: FactBase, prefix: str) -> None:
    """Keep a fact whose relation starts with `prefix` only when its (subject, relation, question) has one answer
    in the whole corpus: "In which version was X added?" names no document, so two pages that disagree (or speak
    of two things of one name) make it ambiguous; documents left without a fact are dropped. The question
    template is part of the key: one that names its project ("In which version of Click was X added?",
    datagen.doc_projects) needs one answer in that project only."""
    answers: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for facts in base.facts.values():
        for f in facts:
            if f.relation.startswith(prefix):
                answers[(fold(f.subject), f.relation, f.ask)].add(fold(f.answer))
    for doc_id in list(base.facts):
        kept = [f for f in base.facts[doc_id]
                if not f.relation.startswith(prefix) or len(answers[(fold(f.subject), f.relation, f.ask)]) == 1]
        if len(kept) < len(base.facts[doc_id]):
            base.skipped["doc_fact_disputed"] += len(base.facts[doc_id]) - len(kept)
        if kept:
            base.facts[doc_id] = kept
        else:
            del base.facts[doc_id]
