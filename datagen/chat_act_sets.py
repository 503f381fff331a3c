"""What a speaker did with one verb over several sessions, asked as the set: "What two things did Jesse buy?"
→ "a new grill and a kayak" (told on two days), "What two places did John travel to?" → "Yosemite and
Banff" (LoCoMo's multi-hop questions are mostly such sets: "What books has Melanie read?", "Where has
Melanie camped?", "What items has Melanie bought?"; every session that names one is needed, and gold).

The things are the dated acts `datagen.chat_acts` reads ("I just got a new grill" → "In the chat of 6
December 2022, what did Jesse get?"), grouped by speaker and verb over every session, whatever the day.
A set is asked only when it is complete as far as the corpus tells. The reader's own witnesses (an act
whose thing no question could name) are not enough for that: it reads only plain first-person clauses,
so "Did I tell you I bought a car?", "I went out and bought a guitar" (a second verb with no subject of
its own) or "I bought it" give it nothing. So every clause in which the speaker says they did the verb
(`act_mentions`: its past or participle, not negated, whose subject is the speaker's "I" / "we" or none,
read in every sentence the speaker says) must be one the reader asks; one it does not leaves the set
unknown, and nothing is asked. Two to four things, surely different (`datagen.chat_sets.different`),
told in two or more sessions; a liking ("I love jazz") is no act done.

Only verbs whose things make a set a person asks for (`ACT_SET_VERBS`: "bought", "read", "visited",
"went to", "signed up for"; not "got", "found", "made", which join unlike things). The question says how
many (`{n}`, filled by `datagen.chat_lists`); the verifier finds each thing in a supporting passage
(`verify.list_in_support`). Each set is written once, with the act sets of `datagen.chat_lists` and
`datagen.chat_sets`; one sharing a sentence with those is theirs (`NaturalConfig.act_sets`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from datagen.chat_acts import ACT, said_done
from datagen.chat_lists import LIST_VERBS, SLOT_COUNT_WORDS
from datagen.chat_sets import different
from datagen.factbase import Fact, FactBase
from datagen.mining import bare_words, fold

# where one went: asked as places ("What two places did John travel to?")
_GO = frozenset("go travel fly drive move".split())
# the verbs of datagen.chat_lists and those of a set one asks of a person's days out and sign-ups
ACT_SET_VERBS = LIST_VERBS | _GO | frozenset(
    "sign apply volunteer enroll register compete audition participate explore hike".split()
)


# a clause's subject: "Seeing their smiles made me feel good" has one, and it is not the speaker
_SUBJECTS = frozenset("nsubj nsubjpass csubj csubjpass expl".split())


@dataclass(frozen=True)
class Mention:
    """One clause in which a speaker says they did a verb, whatever its thing (see the module docstring)."""

    speaker: str
    lemma: str
    doc_id: str
    sentence: str


def act_mentions(doc: Any, doc_id: str, text: str, speaker: str) -> list[Mention]:
    """Every clause of one parsed sentence in which the speaker says they did a verb of `ACT_SET_VERBS`:
    its past ("bought") or "have" + participle ("I've read"), not negated, whose subject is "I", "we",
    "my kids and I" or none of its own (a verb joined to another, "went out and bought …"; a question's
    "Did I tell you I bought …" too). "You bought", "my mom bought" are another's."""
    if not speaker:
        return []
    out = []
    for verb in doc:
        lemma = verb.lemma_.lower()
        if lemma not in ACT_SET_VERBS or verb.tag_ not in ("VBD", "VBN") or verb.pos_ not in ("VERB", "AUX"):
            continue
        if verb.tag_ == "VBN" and not said_done(verb):
            continue  # "the book I was given", "a car bought last year": no act of the speaker's said
        if any(c.dep_ == "neg" for c in verb.children):
            continue  # "I didn't buy anything"
        subject = _subject(verb)
        if subject is None or subject.lower_ in ("i", "we") or any(
                c.dep_ == "conj" and c.lower_ == "i" for c in subject.children):
            out.append(Mention(fold(speaker), lemma, doc_id, text))
    return out


def _subject(verb: Any) -> Any:
    """The verb's subject, or that of the verb it is joined to ("I went out and bought …")."""
    while True:
        subject = next((c for c in verb.children if c.dep_ in _SUBJECTS), None)
        if subject is not None or verb.dep_ != "conj" or verb.head is verb:
            return subject
        verb = verb.head


def unread_acts(base: FactBase, mentions: Iterable[Mention]) -> frozenset[tuple[str, str]]:
    """The (speaker, verb) pairs with a clause no reader asks a thing of (see the module docstring):
    a sentence's clauses of the verb outnumber the things the readers ask of it there, whichever reader
    (`datagen.chat_acts`, `datagen.chat_facts`' said facts, `datagen.activity_facts`). No set of that
    speaker and verb is complete as far as anyone can tell. Call before the uniqueness passes drop facts."""
    read: dict[tuple[str, str, str, str], set[str]] = defaultdict(set)
    for facts in base.facts.values():
        for f in facts:
            verb = set_verb(f.relation)
            if f.ask and verb and not f.about_doc:
                read[(fold(f.subject), verb, f.doc_id, f.sentence)].add(_thing_key(f.answer))
    said: dict[tuple[str, str, str, str], int] = defaultdict(int)
    for m in mentions:
        said[(m.speaker, m.lemma, m.doc_id, m.sentence)] += 1
    return frozenset(key[:2] for key, n in said.items() if n > len(read[key]))


def set_verb(relation: str) -> str:
    """The verb of `ACT_SET_VERBS` a fact's relation asks of, or "": "act:6 July 2023:sign up for|said|other"
    (datagen.chat_acts), "sign up for|said|other" (datagen.chat_facts), "join|…" (datagen.activity_facts)
    → "sign", "sign", "join"."""
    head = relation.split("|")[0]
    if head.startswith(f"{ACT}:"):
        head = head.rsplit(":", 1)[1]
    words = head.split()
    return words[0] if words and words[0] in ACT_SET_VERBS else ""


def act_sets(base: FactBase, unread: frozenset[tuple[str, str]], max_things: int = max(SLOT_COUNT_WORDS)) -> list[tuple[Fact, ...]]:
    """The complete cross-session sets of the speakers' acts (see the module docstring), one fact per
    thing (its first askable mention), each with the set's question for its ask ("{n}" for the count);
    `unread`: `unread_acts`. Call before `chat_facts.unique_chat_facts` drops the acts of a day with two
    answers."""
    acts: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for facts in base.facts.values():
        for f in facts:
            if f.relation.startswith(f"{ACT}:") and not f.about_doc and (verb := set_verb(f.relation)):
                acts[(fold(f.subject), verb)].append(f)
    out = []
    for key, facts in sorted(acts.items()):
        asked = [f for f in facts if f.ask]
        if len(asked) < 2 or len({_verb(f) for f in facts}) != 1 or len(facts) != len(asked):
            continue  # a mention no question names ("I bought it"), or two acts of one verb ("sign up" / "sign")
        if key in unread:
            continue  # a clause the reader did not take: the set may hold a thing we cannot say
        things: dict[str, list[Fact]] = {}
        for f in sorted(asked, key=lambda f: f.doc_id):
            things.setdefault(_thing_key(f.answer), []).append(f)
        keys = sorted(things)
        if not 2 <= len(keys) <= max_things or not all(keys) or not different(keys):
            continue
        firsts = [things[k][0] for k in keys]
        if len({f.doc_id for f in firsts}) < 2:
            continue  # told in one session: one passage's list, not this module's
        question = _question(asked[0])
        out.append(tuple(replace(f, ask=question) for f in sorted(firsts, key=lambda f: f.doc_id)))
    return out


def _thing_key(answer: str) -> str:
    """"my new grill", "the new grill" → "new grill": one thing."""
    return bare_words(answer, drop=("a", "an", "the", "my", "our", "some"))


def _verb(fact: Fact) -> str:
    """"act:6 July 2023:sign up for|said|other" → "sign up for"."""
    return fact.relation.split("|")[0].rsplit(":", 1)[1]


def _question(fact: Fact) -> str:
    """"In the chat of …, what did {s} buy?" → "What {n} things did {s} buy?"; a place one went to is a
    place ("What {n} places did {s} travel to?", "… volunteer at?")."""
    verb = _verb(fact)
    if " where did " in fact.ask:
        return f"What {{n}} places did {{s}} {verb} {'at' if verb.startswith('volunteer') else 'to'}?"
    return f"What {{n}} things did {{s}} {verb}?"
