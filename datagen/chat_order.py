"""Temporal order across a conversation's sessions: two dated acts of one person, told in two
documents, asked as "Which did Caroline do first, go to the LGBTQ support group or join the mentorship
program?" → "go to the LGBTQ support group" (LoCoMo's temporal questions; both sessions are needed,
each for one date).

The acts are the dated facts of title-less documents (`datagen.activity_facts.dated_facts`: "When did
{s} go to the LGBTQ support group?" → 7 May 2023, from "yesterday" and the session date), already kept
only when their thing has one date in the corpus. A pair is asked only when the days the two answers
may mean (`datagen.dates.date_span`) do not overlap, so "first" is decided whatever day "last week"
was. The verifier recomputes both dates from the quotes and the documents' dates
(`verify.ordered_in_support`); nothing is taken on the generator's word.

Each act is asked in at most `max_uses` orders (so one act does not fill the set), each pair once: three
(at two, a person's n dated acts gave at most n orders of their n(n-1)/2 pairs, and the orders ran out
first on the LoCoMo tuning export: 38 written, "written or spent").
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from datagen.dates import date_span
from datagen.factbase import Fact
from datagen.mining import fold
from datagen.types import Candidate, DropReason, SupportingItem, TruthType

ORDER_FORM = "order"
_LEAD = "When did {s} "


@dataclass(frozen=True)
class Act:
    """One dated act: its fact, its words as a verb phrase ("go to the LGBTQ support group"), and the
    first and last day its date may mean."""

    fact: Fact
    words: str
    first: object
    last: object


class OrderPairs:
    """The pairs of one person's dated acts in different documents whose dates do not overlap."""

    def __init__(self, facts_by_doc: Mapping[str, Sequence[Fact]], max_uses: int = 3, max_words: int = 32) -> None:
        by_subject: dict[str, list[Act]] = {}
        for _doc, facts in sorted(facts_by_doc.items()):
            for f in facts:
                span = date_span(f.answer) if f.kind == TruthType.DATE.value else None
                if span is None or not f.ask.startswith(_LEAD) or not f.ask.endswith("?"):
                    continue  # plans ("When is {s} going…") and visits ("When was {s} at…") read badly as "do first"
                by_subject.setdefault(fold(f.subject), []).append(Act(f, f.ask[len(_LEAD) : -1].strip(), span[0], span[1]))
        self.pairs: list[tuple[Act, Act]] = [
            (a, b)
            for _, acts in sorted(by_subject.items())
            for i, a in enumerate(acts)
            for b in acts[i + 1 :]
            if a.fact.doc_id != b.fact.doc_id and fold(a.words) != fold(b.words)
            and (a.last < b.first or b.last < a.first)  # type: ignore[operator]
            and len(f"Which did {a.fact.subject} do first, {a.words} or {b.words}?".split()) <= max_words
        ]
        self.max_uses = max_uses
        self.uses: Counter = Counter()

    def _open(self, pair: tuple[Act, Act], usable: Callable[[str], bool]) -> bool:
        return all(self.uses[_act_key(a.fact)] < self.max_uses and usable(a.fact.doc_id) for a in pair)

    def left(self, usable: Callable[[str], bool]) -> bool:
        return any(self._open(p, usable) for p in self.pairs)

    def propose(
        self, rng: random.Random, usable: Callable[[str], bool], fact_key: Callable[[Fact], str]
    ) -> Candidate | DropReason:
        open_pairs = [p for p in self.pairs if self._open(p, usable)]
        if not open_pairs:
            return DropReason.NO_CHAIN
        pair = rng.choice(open_pairs)
        self.pairs.remove(pair)  # each pair is asked once, whatever becomes of it
        x, y = pair if rng.random() < 0.5 else (pair[1], pair[0])
        first = x if x.last < y.first else y  # type: ignore[operator]
        subject = x.fact.subject
        question = f"Which did {subject} do first, {x.words} or {y.words}?"
        return Candidate(
            question=question,
            answer=first.words,
            supporting=tuple(
                SupportingItem(a.fact.doc_id, (a.fact.chunk_id,), (a.fact.sentence,), contains_truth=a is first)
                for a in (x, y)
            ),
            hops=2,
            truth_type=TruthType.OTHER,
            clues=tuple(a.fact.ask.replace("{s}", subject) for a in (x, y)),
            generator="natural",
            metadata={
                "form": ORDER_FORM,
                "options": [x.words, y.words],
                "relations": [x.fact.relation, y.fact.relation],
                "fact_keys": [fact_key(x.fact), fact_key(y.fact)],
            },
        )

    def commit(self, candidate: Candidate) -> None:
        """Count a written order against both of its acts."""
        relations = candidate.metadata.get("relations") or ()
        for item, relation in zip(candidate.supporting, relations, strict=False):
            if item.quotes:
                self.uses[(item.doc_id, item.quotes[0], relation)] += 1


def _act_key(fact: Fact) -> tuple[str, str, str]:
    return fact.doc_id, fact.sentence, fact.relation
