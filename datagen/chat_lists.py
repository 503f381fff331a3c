"""Set questions of a conversation: everything one person did with one verb, told over one or more
sessions, asked as a whole: "What two things did Maria join?" → "a nearby church and a gym" (LoCoMo's
"What activities has Melanie done with her family?"; each session that tells one thing is needed).

The things are the speaker's noun-phrase acts (`datagen.activity_facts`: "Maria: I joined a gym"),
collected before `unique_activities` drops the acts a single-answer question cannot ask. A set is kept
only when it is complete as far as the corpus can tell: every mention of that subject and verb, in the
whole corpus, is a thing a question could name (no "I joined it", no "did I tell you I joined…?"
left out), two or three things in all, with different head words (so "a pup" and "this cute pup",
maybe one dog, are no two things). The verifier finds each thing in a supporting passage and checks
that the question says how many (`verify.list_in_support`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from datagen.factbase import Fact
from datagen.mining import fold
from datagen.types import Candidate, DropReason, SupportingItem, TruthType

LIST_FORM = "list"
COUNT_WORDS = {2: "two", 3: "three"}
# a set whose ask says where the count goes may hold four things (datagen.chat_act_sets; the verifier's
# largest count): "What four places did Caroline go to?"
SLOT_COUNT_WORDS = {**COUNT_WORDS, 4: "four"}
# Verbs whose things make a set a person would ask for; "got", "took", "found" join unlike things
# ("some new shoes", "a temp job", "some great news").
LIST_VERBS = frozenset(
    "paint draw bake cook knit sew sculpt build make craft design compose write publish record buy purchase "
    "adopt rescue plant grow visit attend join start open launch read watch learn study play win collect "
    "host organize organise perform donate".split()
)


def list_groups(facts: Sequence[Fact], shape: str) -> list[tuple[Fact, ...]]:
    """The complete sets among noun-phrase acts (see the module docstring): for each (subject, relation)
    of `shape` whose every mention is askable, one fact per thing (its first mention), two or three
    things with different heads; else nothing for it."""
    groups: dict[tuple[str, str], list[Fact]] = {}
    for f in facts:
        parts = f.relation.split("|")
        if len(parts) > 1 and parts[1] == shape:
            groups.setdefault((fold(f.subject), f.relation), []).append(f)
    out = []
    for (_, relation), mentions in sorted(groups.items()):
        mentions = [f for f in mentions if f.ask or not _no_thing(f)]
        if relation.split("|")[0] not in LIST_VERBS or any(not f.ask for f in mentions):
            continue  # a mention no question could name ("I painted it"): the set may hold a thing we cannot say
        things: dict[str, Fact] = {}
        for f in mentions:
            things.setdefault(fold(f.answer), f)
        heads = {key.split()[-1] for key in things if key}
        if not 2 <= len(things) <= max(COUNT_WORDS) or len(heads) != len(things):
            continue
        keys = sorted(things)
        if any(a != b and a in b for a in keys for b in keys):
            continue  # "a pie" and "apple pie": maybe one thing told twice
        out.append(tuple(things.values()))
    return out


# Objects that name no thing done ("made a difference", "joined forces", "got any tips?").
_NO_THING_HEADS = frozenset(
    "difference differences impact forces progress memories memory time fun blast sense point effort part".split()
)


def _no_thing(fact: Fact) -> bool:
    """Whether an unaskable mention names no thing at all (an idiom's object, or a question's "any …"),
    so it cannot hide a member of the set."""
    words = fold(fact.answer).split()
    return bool(words) and (words[-1] in _NO_THING_HEADS or words[0] == "any" or fact.sentence.rstrip().endswith("?"))


class ListQuestions:
    """The sets of a chat corpus, each asked once."""

    def __init__(self, sets: Sequence[tuple[Fact, ...]], max_words: int = 32) -> None:
        self.sets = [s for s in sets if s[0].ask.startswith("What ") and len(_question(s).split()) <= max_words]

    def left(self, hops: int, usable: Callable[[str], bool]) -> bool:
        return any(self._open(s, hops, usable) for s in self.sets)

    @staticmethod
    def _open(items: tuple[Fact, ...], hops: int, usable: Callable[[str], bool]) -> bool:
        docs = {f.doc_id for f in items}
        return len(docs) == hops and all(usable(d) for d in docs)

    def propose(
        self, hops: int, rng: random.Random, usable: Callable[[str], bool], fact_key: Callable[[Fact], str]
    ) -> Candidate | DropReason:
        open_sets = [s for s in self.sets if self._open(s, hops, usable)]
        if not open_sets:
            return DropReason.NO_CHAIN
        items = rng.choice(open_sets)
        self.sets.remove(items)  # each set is asked once, whatever becomes of it
        options = [f.answer for f in items]
        by_doc: dict[str, list[Fact]] = {}
        for f in items:
            by_doc.setdefault(f.doc_id, []).append(f)
        return Candidate(
            question=_question(items),
            answer=_join(options),
            supporting=tuple(
                SupportingItem(doc, tuple(dict.fromkeys(f.chunk_id for f in fs)), tuple(dict.fromkeys(f.sentence for f in fs)),
                               contains_truth=True)
                for doc, fs in by_doc.items()
            ),
            hops=len(by_doc),
            truth_type=TruthType.OTHER,
            generator="natural",
            metadata={
                "form": LIST_FORM,
                "options": options,
                "relations": [f.relation for f in items],
                "fact_keys": [fact_key(f) for f in items],
            },
        )


def _question(items: Sequence[Fact]) -> str:
    """"What did {s} join?" → "What two things did Maria join?"; an ask that says where the count goes
    ("What are the names of {s}'s {n} dogs?", datagen.chat_sets) gets it there."""
    first = items[0]
    if "{n}" in first.ask:
        return first.ask.replace("{s}", first.subject).replace("{n}", SLOT_COUNT_WORDS[len(items)])
    return first.ask.replace("{s}", first.subject).replace("What ", f"What {COUNT_WORDS[len(items)]} things ", 1)


def _join(options: Sequence[str]) -> str:
    return " and ".join(options) if len(options) == 2 else f"{', '.join(options[:-1])} and {options[-1]}"
