"""The natural-question generator: questions in the forms of HotpotQA, 2WikiMultihopQA and MuSiQue,
written offline from the facts of a parsed corpus (datagen.relations), no language model needed.

Forms (metadata["form"]):
- single:     a wh-question transformed from one sentence ("When was Philip Ford born?"), for rerankers.
- bridge:     a compositional chain over h documents; each bridge entity is *described* by the fact
              that links to it, never named ("When was the director of Buckaroo Sheriff of Texas born?").
              The hop-by-hop sub-questions travel as the task's clues (MuSiQue's decomposition).
- comparison: two documents' values of the same relation ("Which magazine was started first, A or B?");
              the answer is one of the two names, which the question necessarily contains.

What keeps a question answerable by exactly one thing: a document's relation is used only when the
document states it with one answer (`factbase.unique_relations`); the bridge's object must name
exactly one document (`naming.title_resolver`); comparison values must differ in their year.

Documents are grouped by article (`FactBase.article`: a page split into paragraphs titled alike is
one subject): relations, links and the per-document use cap are counted per article, and each fact's
gold document is the paragraph that states it.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from datagen.factbase import FALLBACK_CLASS, Fact, FactBase, class_of, unique_named, unique_relations
from datagen.mining import MinedCorpus, fold
from datagen.types import Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import date_aliases

FORMS = ("single", "bridge", "comparison")


@dataclass(frozen=True)
class NaturalConfig:
    """Knobs of the natural generator.

    comparison_share: share of multi-hop (2-hop) proposals written as comparisons rather than bridges
        (HotpotQA's dev set is about one fifth comparison).
    max_doc_uses: tasks one document may support, so hub documents do not dominate.
    chain_tries: random walks tried per proposal.
    max_question_words: longer compositions read as puzzles; they are dropped.
    """

    comparison_share: float = 0.2
    max_doc_uses: int = 3
    chain_tries: int = 30
    max_question_words: int = 32


class NaturalGenerator:
    """Proposes natural candidates from a `FactBase`; the pipeline verifies and filters them."""

    def __init__(self, mined: MinedCorpus, facts: FactBase, config: NaturalConfig | None = None) -> None:
        self.mined = mined
        self.base = facts
        self.config = config or NaturalConfig()
        self.uses: Counter = Counter()
        self.stages: Counter = Counter()
        # Only facts about the document itself can be asked with its name or a description of it.
        by_article: dict[str, list[Fact]] = {}
        for d, fs in facts.facts.items():
            by_article.setdefault(facts.article(d), []).extend(fs)
        self.relations = {a: unique_relations(fs) for a, fs in by_article.items()}
        self.answerable = sorted(d for d, rels in self.relations.items() if rels and facts.names.get(d))
        # Documents without a title (mail, chat, filings) are asked about the subjects they name.
        self.named = {
            d: [f for f in unique_named(fs) if not facts.names.get(d)] for d, fs in facts.facts.items()
        }
        self.named = {d: fs for d, fs in self.named.items() if fs}
        self.links = {
            d: [f for f in rels.values() if f.target and f.describe and f.target in mined.chunks]
            for d, rels in self.relations.items()
        }
        self.starts = sorted(d for d, links in self.links.items() if links and facts.names.get(d))
        by_relation: dict[str, list[Fact]] = {}
        for rels in self.relations.values():
            for f in rels.values():
                if f.compare and f.kind == TruthType.DATE.value:
                    by_relation.setdefault(f.relation, []).append(f)
        self.comparable = {r: fs for r, fs in sorted(by_relation.items()) if len({f.doc_id for f in fs}) >= 2}

    def usable(self, doc_id: str) -> bool:
        return self.uses[self.base.article(doc_id)] < self.config.max_doc_uses

    def commit(self, candidate: Candidate) -> None:
        for doc in candidate.doc_ids:
            self.uses[self.base.article(doc)] += 1

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        if hops == 1:
            return self._single(rng)
        if hops == 2 and self.comparable and rng.random() < self.config.comparison_share:
            found = self._comparison(rng)
            if not isinstance(found, DropReason):
                return found
        return self._bridge(hops, rng)

    # -- forms -----------------------------------------------------------------------------------
    def _single(self, rng: random.Random) -> Candidate | DropReason:
        pool = [d for d in self.answerable + sorted(self.named) if self.usable(d)]
        if not pool:
            return DropReason.NO_ANSWER_SPAN
        doc = rng.choice(pool)
        if doc in self.named:
            fact = rng.choice(self.named[doc])
            question = _fill(fact.ask, s=fact.subject, c=class_of(self.base, fact.target, fact.kind, fact.answer))
            return self._candidate("single", [doc], [fact], question, fact, clues=[])
        facts = [f for f in self.relations[doc].values() if not f.target or rng.random() < 0.5]
        if not facts:
            return DropReason.NO_ANSWER_SPAN
        fact = rng.choice(facts)
        question = _fill(fact.ask, s=self.base.names[doc], c=class_of(self.base, fact.target, fact.kind, fact.answer))
        return self._candidate("single", [fact.doc_id], [fact], question, fact, clues=[])

    def _bridge(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        for _ in range(self.config.chain_tries):
            chain = self._walk(hops, rng)
            if chain is None:
                continue
            links, last = chain
            docs = [self.base.article(links[0].doc_id)] + [f.target for f in links]  # one per article
            names = {fold(self.base.names.get(d, "")) for d in docs}
            answers = [
                f
                for f in self.relations.get(last, {}).values()
                if f.target not in docs and fold(f.answer) not in names
            ]
            if not answers:
                continue
            answer = rng.choice(answers)
            # The description of each bridge document, nested: d1 describes docs[1] through docs[0], …
            described = self.base.names[docs[0]]
            clues = []
            for link in links:
                sub = _fill(link.ask, s=self._name_or(described, link.doc_id), c=class_of(self.base, link.target, link.kind))
                clues.append(sub)
                described = _fill(link.describe, s=described, c=class_of(self.base, link.target, link.kind))
            cls = class_of(self.base, answer.target, answer.kind, answer.answer)
            question = _fill(answer.ask, s=described, c=cls)
            clues.append(_fill(answer.ask, s=self.base.names[last], c=cls))
            if len(question.split()) > self.config.max_question_words:
                self.stages["bridge:too_long"] += 1
                continue
            chain_facts = [*links, answer]
            return self._candidate("bridge", [f.doc_id for f in chain_facts], chain_facts, question, answer,
                                   clues=clues, bridges=[self.base.names.get(d, "") for d in docs[1:]])
        return DropReason.NO_CHAIN

    def _name_or(self, described: str, doc_id: str) -> str:
        """Sub-questions name the document they ask about (they are each hop's own question)."""
        return self.base.names.get(doc_id) or described

    def _walk(self, hops: int, rng: random.Random) -> tuple[list[Fact], str] | None:
        starts = [d for d in self.starts if self.usable(d)]
        if not starts:
            return None
        current = rng.choice(starts)
        visited = {current}
        links: list[Fact] = []
        while len(links) < hops - 1:
            options = [f for f in self.links.get(current, []) if f.target not in visited and self.usable(f.target)]
            if len(links) == hops - 2:
                options = [f for f in options if self.relations.get(f.target)]
            if not options:
                return None
            link = rng.choice(options)
            links.append(link)
            visited.add(link.target)
            current = link.target
        if not self.base.names.get(current):
            return None
        return links, current

    def _comparison(self, rng: random.Random) -> Candidate | DropReason:
        relation = rng.choice(sorted(self.comparable))
        facts = [f for f in self.comparable[relation] if self.usable(f.doc_id) and self.base.names.get(f.doc_id)]
        if len(facts) < 2:
            return DropReason.NO_CHAIN
        a, b = rng.sample(facts, 2)
        if self.base.article(a.doc_id) == self.base.article(b.doc_id) or fold(self.base.names[a.doc_id]) == fold(
            self.base.names[b.doc_id]
        ):
            return DropReason.NO_CHAIN
        ya, yb = _year(a.answer), _year(b.answer)
        if ya is None or yb is None or ya == yb:
            return DropReason.NO_ANSWER_SPAN  # the same year does not decide "first"
        ca, cb = (self.base.classes.get(self.base.article(f.doc_id), "") for f in (a, b))
        same_class = bool(ca and cb and ca.split()[-1] == cb.split()[-1])
        if not same_class and not a.compare.startswith("Who"):
            return DropReason.NO_CHAIN  # "Which one was sold first, a magazine or a footballer?" compares nothing
        cls = ca.split()[-1] if same_class else "one"
        first = a if ya < yb else b
        name_a, name_b = self.base.names[a.doc_id], self.base.names[b.doc_id]
        question = _fill(a.compare, a=name_a, b=name_b, c=cls)
        winner = self.base.names[first.doc_id]
        clues = [_fill(a.ask, s=name_a, c=""), _fill(b.ask, s=name_b, c="")]
        return self._candidate("comparison", [a.doc_id, b.doc_id], [a, b], question, first, clues=clues,
                               answer_text=winner, options=(name_a, name_b))

    # -- assembly --------------------------------------------------------------------------------
    def _candidate(
        self,
        form: str,
        docs: Sequence[str],
        facts: Sequence[Fact],
        question: str,
        answer: Fact,
        *,
        clues: Sequence[str],
        bridges: Sequence[str] = (),
        answer_text: str | None = None,
        options: Sequence[str] = (),
    ) -> Candidate:
        text = answer_text if answer_text is not None else answer.answer
        kind = TruthType.ENTITY if answer_text is not None else TruthType(answer.kind)
        items = tuple(
            SupportingItem(
                doc_id=doc,
                chunk_ids=(fact.chunk_id,),
                quotes=(fact.sentence,),
                contains_truth=(fact is answer) if answer_text is None else doc == answer.doc_id,
            )
            for doc, fact in zip(docs, facts, strict=True)
        )
        aliases = date_aliases(text) if kind is TruthType.DATE else ()
        bare = re.sub(r"^(the|a|an)\s+", "", text, flags=re.IGNORECASE)
        if bare != text:
            aliases = (*aliases, bare)
        self.stages[f"form:{form}"] += 1
        return Candidate(
            question=question,
            answer=text,
            aliases=tuple(aliases),
            supporting=items,
            hops=len(docs),
            truth_type=kind,
            clues=tuple(clues),
            bridges=tuple(bridges),
            generator="natural",
            metadata={"form": form, "relations": [f.relation for f in facts], **({"options": list(options)} if options else {})},
        )


def _fill(template: str, **values: str) -> str:
    """A template with its slots filled; a filled question (it ends in "?") starts with a capital.
    "In which {c} is {s}?" with no class for the place ({c} = "place") asks "Where is {s}?"."""
    out = template
    if values.get("c") == FALLBACK_CLASS[TruthType.PLACE.value]:
        out = re.sub(r"^In which \{c\} (is|was|are|were) ", r"Where \1 ", out)
    for key, value in values.items():
        out = out.replace("{" + key + "}", value)
    out = re.sub(r"\s+", " ", out).strip()
    out = re.sub(r"\blocated located\?$", "located?", out)  # "Where is the city where X is located located?"
    return out[:1].upper() + out[1:] if out.endswith("?") else out


def _year(text: str) -> int | None:
    m = re.search(r"\b(1[0-9]{3}|20[0-9]{2})\b", text)
    return int(m.group(1)) if m else None
