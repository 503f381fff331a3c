"""A speaker's thing asked by the conversation it was told in, when the whole corpus gives the speaker
and verb several things but that conversation one: "In the chat of 14 June 2023, what did Maria mention
joining?" → "a nearby church" (Maria joined a gym and a church, told in two sessions). Conversation
benchmarks ask so ("What new activity did Maria start recently, as mentioned on 3 June, 2023?"); the
date is the one the export puts in each session's title (`datagen.dates.anchor_date`). The other way
round, an undated act told in one chat only is asked for that chat's day: "In which chat did Maria
mention joining the gym?" → "16 June 2023" (`told_when_facts`).

The facts are datagen.activity_facts' noun-phrase acts ("What did Maria join?"), read before
`activity_facts.unique_activities` drops those with several answers. One is asked by its session only
when every fact of that speaker and verb told in the documents written that day (witnesses without a
question, and dated acts, included) names the same thing, and never for the verbs whose object says
little of what was done ("got some feedback", "took a trip"). The verifier recomputes the session's
date from the supporting document's title (`verify.told_in_support`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import replace

from datagen.activity_facts import DATED_THING_SHAPE, RELATION_SHAPE
from datagen.dates import format_date, relative_dates
from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.types import TruthType
from datagen.verify import TOLD_OPENING, TOLD_WHICH

TOLD_WHEN_SHAPE = "told-when"  # "join:gym|told-when|date": the day of the chat that tells of one act
TOLD_SHAPE = "told-on"  # "join@14 June 2023|told-on|other": the thing one verb's act names in one day's talk
# Verbs whose object says what was done; "get", "take", "try", "see", "pick", "find" say too little
# ("What did John mention getting?" → "some good feedback").
_VAGUE_VERBS = frozenset("get try see pick take find have receive".split())
_ASK = re.compile(r"^What (?:did|does|do|has|have) \{s\} (?:\w+)((?: \w+)*)\?$")


def told_on_facts(base: FactBase, anchors: dict[str, dt.date]) -> list[Fact]:
    """The session-anchored facts of the corpus (see the module docstring): call before
    `unique_activities`, add the result after it."""
    by_day: dict[tuple[str, str, dt.date], list[Fact]] = defaultdict(list)
    everywhere: dict[tuple[str, str], set[str]] = defaultdict(set)
    for facts in base.facts.values():
        for f in facts:
            shape = _shape(f)
            if shape not in (RELATION_SHAPE, DATED_THING_SHAPE):
                continue
            key = (fold(f.subject), _lemma(f))
            everywhere[key].add(fold(f.answer))
            if f.doc_id in anchors:
                by_day[(*key, anchors[f.doc_id])].append(f)
    out = []
    for (subject, lemma, day), facts in sorted(by_day.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        if len(everywhere[(subject, lemma)]) < 2 or lemma in _VAGUE_VERBS:
            continue  # one thing in the whole corpus: "What did Maria join?" asks it without a date
        if len({fold(f.answer) for f in facts}) != 1:
            continue  # two things that day: the day tells them no better than the corpus
        fact = next((f for f in facts if f.ask and _shape(f) == RELATION_SHAPE), None)
        m = _ASK.match(fact.ask) if fact else None
        if fact is None or m is None:
            continue
        ask = f"{TOLD_OPENING}{format_date(day)}, what did {{s}} mention {gerund(lemma)}{m.group(1)}?"
        relation = f"{lemma}@{format_date(day)}|{TOLD_SHAPE}|{fact.kind}"
        out.extend(replace(f, relation=relation, ask=ask) for f in facts if f.ask and _shape(f) == RELATION_SHAPE)
    return out


def told_when_facts(base: FactBase, anchors: dict[str, dt.date]) -> list[Fact]:
    """"In which chat did Maria mention joining the gym?" → "16 June 2023": the day of the one chat in
    which the speaker tells of doing that verb to that thing (its head word), for an undated act (a
    dated one is asked when it happened, `activity_facts.dated_facts`; two questions of one sentence
    whose answers are two different days would read alike). Call before `unique_activities`."""
    days: dict[tuple[str, str, str], set[dt.date | None]] = defaultdict(set)
    for facts in base.facts.values():
        for f in facts:
            if _shape(f) in (RELATION_SHAPE, DATED_THING_SHAPE):
                days[(fold(f.subject), _lemma(f), _head(f.answer))].add(anchors.get(f.doc_id))
    out = []
    seen: set[tuple[str, str, str]] = set()
    for facts in base.facts.values():
        for f in facts:
            key = (fold(f.subject), _lemma(f), _head(f.answer))
            if _shape(f) != RELATION_SHAPE or not f.ask or f.doc_id not in anchors or key in seen:
                continue
            if len(days[key]) != 1 or _lemma(f) in _VAGUE_VERBS or relative_dates(f.sentence, anchors[f.doc_id]):
                continue  # told in two chats (or one of unknown day), or dated in its own words
            thing = _thing_words(f.answer)
            if thing and not thing.startswith("the ") and re.search(
                rf"\b(?:this|that|these|those) (?:\w+ )?{re.escape(f.answer)}\b", f.sentence, re.IGNORECASE
            ):
                thing = "the " + thing  # "I finished this cute little bookmark": the answer lost its pointing word
            if re.search(rf"\b(?:my|our) (?:\w+ )?{re.escape(f.answer)}\b", f.sentence, re.IGNORECASE):
                thing = ""  # "I lost my wallet": "mention losing wallet" would need whose (his? her?)
            m = _ASK.match(f.ask)
            if not thing or m is None:
                continue
            seen.add(key)
            day = format_date(anchors[f.doc_id])
            out.append(replace(
                f, relation=f"{_lemma(f)}:{key[2]}|{TOLD_WHEN_SHAPE}|{TruthType.DATE.value}", answer=day,
                kind=TruthType.DATE.value, ask=f"{TOLD_WHICH}{{s}} mention {gerund(_lemma(f))}{m.group(1)} {thing}?",
            ))
    return out


def _head(answer: str) -> str:
    """The thing's head word: the last word before a preposition ("a painting of a castle" → "painting")."""
    words = re.split(r"\b(?:of|for|with|from|in|at|on|to|about|by)\b", fold(answer))[0].split()
    return words[-1] if words else ""


_OWNED = frozenset("my our your his her their its this that these those it".split())


def _thing_words(answer: str) -> str:
    """The answer as the question names it: "a gym" → "the gym"; said with no article, as said ("books",
    "high school", "english": "the books" would point at books never named before); none when another
    word points at someone ("a gift from my mom" would need whose mom)."""
    words = answer.split()
    article = bool(words) and fold(words[0]) in ("a", "an", "some", "the")
    if article:
        words = words[1:]
    if not words or any(fold(w) in _OWNED for w in words):
        return ""
    return ("the " if article else "") + " ".join(words)


def gerund(verb: str) -> str:
    """The -ing form of a verb's lemma: "join" → "joining", "make" → "making", "win" → "winning"."""
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    if (
        len(verb) >= 3 and verb[-1] in "bdgklmnprt" and verb[-2] in "aeiou" and verb[-3] not in "aeiou"
        and verb in _DOUBLE
    ):
        return verb + verb[-1] + "ing"
    return verb + "ing"


# one-syllable verbs (and a stressed last syllable) that double their last consonant
_DOUBLE = frozenset("win run plan shop stop drop sit get put swim begin knit jog hug dig skip grab shut cut hit set let bet "
                    "chat unplug".split())


def _shape(fact: Fact) -> str:
    parts = fact.relation.split("|")
    return parts[1] if len(parts) > 1 else ""


def _lemma(fact: Fact) -> str:
    return re.split(r"[:@]", fact.relation.split("|")[0], maxsplit=1)[0]
