"""A thing one person did, asked through another of their acts told in another session: "What did
Maria join after taking the solo trip?" → "a gym" (LoCoMo's temporal multi-hop questions: "What did
Caroline do after the pride parade?"). Two sessions are needed: one dates the anchor (the solo trip),
the other tells the thing and its date; the question names neither date.

Built from the dated acts of title-less documents (`datagen.activity_facts`): the thing is a dated
act asked for its thing ("What did Maria join in the week before 16 June 2023?"), the anchor a dated
act of the same person ("When did Maria take the solo trip?"). A pair is asked only when every hop is
needed and the answer is unique, as far as the whole corpus tells:

- the person did that verb to another thing too (else "What did Maria join?" alone asks it, and the
  anchor is decoration);
- every other such thing falls on the other side of the anchor: for "after", each is dated before the
  anchor began, or told (undated) in a session written before it; for "before", each is dated after the
  anchor ended (an undated one could be any time before it was told: no question);
- the days the thing and the anchor may mean (`datagen.dates.date_span`) do not overlap, so "after"
  holds whatever day "last week" was, and each of the two acts has one date in the corpus.

The verifier recomputes both dates from the quotes and the sessions' dates and finds the answer in the
thing's quote (`verify.anchored_in_support`).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from datagen.activity_facts import (
    DATED_SHAPE,
    DATED_THING_SHAPE,
    WHY_SHAPE,
    WITH_SHAPE,
    activity_act,
    activity_lemma,
    activity_shape,
    is_activity,
)
from datagen.chat_sessions import gerund
from datagen.dates import date_phrase, date_span
from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.types import Candidate, DropReason, SupportingItem, TruthType

ANCHORED_FORM = "anchored"
_LEAD = "When did {s} "


@dataclass(frozen=True)
class Anchored:
    """One question: the thing's fact (its answer the thing), the anchor's fact (a dated act of the
    same person in another document), "after" or "before", and the anchor's words ("take the solo trip")."""

    thing: Fact
    anchor: Fact
    direction: str
    anchor_words: str
    question: str


def anchored_questions(base: FactBase, anchors: dict) -> list[Anchored]:
    """Every anchored question the corpus allows (see the module docstring). Call before
    `unique_activities`: the mentions no question could be written from still count."""
    facts = [f for fs in base.facts.values() for f in fs]
    acts: dict[tuple[str, str], list[tuple[str, tuple | None, str]]] = defaultdict(list)
    dates_of: dict[tuple[str, str], set] = defaultdict(set)  # an anchor's thing must have one date
    for f in facts:
        if is_activity(f) and activity_shape(f) not in (WHY_SHAPE, WITH_SHAPE):
            acts[(fold(f.subject), activity_lemma(f))].append(activity_act(f))
        if activity_shape(f) == DATED_SHAPE and is_activity(f):
            dates_of[(fold(f.subject), _anchor_key(f))].add(f.answer)
    for key, found in acts.items():
        # "I joined a gym last week" is read both dated and as a plain thing: one act, with its date
        dated_here = {(a[0], a[2]) for a in found if a[1] is not None}
        acts[key] = [a for a in found if a[1] is not None or (a[0], a[2]) not in dated_here]
    things = [f for f in facts if f.ask and activity_shape(f) == DATED_THING_SHAPE and _stem(f)]
    dated = [
        f for f in facts
        if f.ask.startswith(_LEAD) and activity_shape(f) == DATED_SHAPE and is_activity(f)
        and date_span(f.answer) is not None and len(dates_of[(fold(f.subject), _anchor_key(f))]) == 1
    ]
    out: list[Anchored] = []
    seen: set[str] = set()
    for y in things:
        subject, lemma = fold(y.subject), activity_lemma(y)
        thing, span_y, _ = activity_act(y)
        if span_y is None or any(a[0] == thing and a[1] not in (None, span_y) for a in acts[(subject, lemma)]):
            continue  # the thing told with two dates: which one is after the anchor?
        for x in dated:
            if fold(x.subject) != subject or x.doc_id == y.doc_id:
                continue
            x_thing, span_x, _ = activity_act(x)
            others = [
                a for a in acts[(subject, lemma)]
                if a[0] != thing and not (a[0] == x_thing and a[1] in (None, span_x) and activity_lemma(x) == lemma)
            ]
            if not others or span_x is None:
                continue  # the person did that verb to one thing: the anchor would be decoration
            if span_y[0] > span_x[1] and all(
                (a[1] is not None and a[1][1] < span_x[0]) or (a[1] is None and a[2] in anchors and anchors[a[2]] < span_x[0])
                for a in others
            ):
                direction = "after"
            elif span_y[1] < span_x[0] and all(a[1] is not None and a[1][0] > span_x[1] for a in others):
                direction = "before"
            else:
                continue
            words = x.ask[len(_LEAD) : -1].strip()
            verb, _, rest = words.partition(" ")
            question = f"{_stem(y)} {direction} {gerund(verb)} {rest}".strip() + "?"
            question = question.replace("{s}", y.subject)
            if question in seen:
                continue
            seen.add(question)
            out.append(Anchored(y, x, direction, words, question))
    return out


def _anchor_key(fact: Fact) -> str:
    """An act's thing, whatever words tell it ("join:gym"; an act without a thing by its words)."""
    head = fact.relation.split("|")[0]
    lemma, thing, words = (head.split(":") + ["", ""])[:3]
    return f"{lemma}:{thing or words}"


def _stem(fact: Fact) -> str:
    """"What did {s} join in the week before 16 June 2023?" without its date: "What did {s} join"."""
    when = fact.relation.split("|")[0].partition("@")[2].rpartition(":")[0]
    suffix = f" {date_phrase(when)}?"
    return fact.ask[: -len(suffix)].strip() if when and fact.ask.endswith(suffix) else ""


class AnchoredQuestions:
    """The anchored questions of a chat corpus, each asked once; a thing or an anchor in at most
    `max_uses` of them."""

    def __init__(self, found: Sequence[Anchored], max_uses: int = 2, max_words: int = 32) -> None:
        self.found = [a for a in found if len(a.question.split()) <= max_words]
        self.max_uses = max_uses
        self.uses: dict[tuple[str, str], int] = defaultdict(int)

    def _open(self, a: Anchored, usable: Callable[[str], bool]) -> bool:
        return all(self.uses[(f.doc_id, f.sentence)] < self.max_uses and usable(f.doc_id) for f in (a.thing, a.anchor))

    def left(self, usable: Callable[[str], bool]) -> bool:
        return any(self._open(a, usable) for a in self.found)

    def propose(
        self, rng: random.Random, usable: Callable[[str], bool], fact_key: Callable[[Fact], str]
    ) -> Candidate | DropReason:
        open_ = [a for a in self.found if self._open(a, usable)]
        if not open_:
            return DropReason.NO_CHAIN
        a = rng.choice(open_)
        self.found.remove(a)  # each is asked once, whatever becomes of it
        for f in (a.thing, a.anchor):
            self.uses[(f.doc_id, f.sentence)] += 1
        return Candidate(
            question=a.question,
            answer=a.thing.answer,
            supporting=(
                SupportingItem(a.anchor.doc_id, (a.anchor.chunk_id,), (a.anchor.sentence,)),
                SupportingItem(a.thing.doc_id, (a.thing.chunk_id,), (a.thing.sentence,), contains_truth=True),
            ),
            hops=2,
            truth_type=TruthType.OTHER,
            clues=(a.anchor.ask.replace("{s}", a.anchor.subject),),
            generator="natural",
            metadata={
                "form": ANCHORED_FORM,
                "direction": a.direction,
                "anchor_words": a.anchor_words,
                "relations": [a.anchor.relation, a.thing.relation],
                "fact_keys": [fact_key(a.anchor), fact_key(a.thing)],
            },
        )
