"""The offline generator: multi-hop bridge tasks mined from the corpus itself, no model at all.

A chain D1 → D2 → … → Dh follows links (datagen.mining): a sentence of D_i names D_{i+1}. The
answer is a typed span (date, number, entity) of D_h. Each document contributes one clue, a
window of a sentence around what matters in it — the bridge mention for D_1..D_{h-1}, the answer
for D_h — so the question carries each hop's evidence but not whole sentences a single search
would match. Every later document is masked wherever it is named (its bridge surface and its
title become a variable X, Y, Z), and the answer becomes "___": the reader must find D_1 from its
clue, read the bridge, search for it, and so on. Single-hop tasks (h = 1) are one window around an
answer span; they are what a reranker trains on.

How it departs from HotpotQA/MQA-QG: no hyperlinks or question templates are needed (titles and
rare shared entities are the links), the question is a masked composition of the clue windows
rather than a fluent question, and the quotes (the unmasked windows) travel with the task so the
extraction verifier checks them like an LLM's.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from datagen.mining import MinedCorpus, Span
from datagen.types import Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import date_aliases

VARIABLES = ("X", "Y", "Z")  # the masked documents 2..4 of a chain
BLANK = "___"
_ASK = {
    TruthType.DATE.value: "Which date fills the blank",
    TruthType.NUMBER.value: "Which number fills the blank",
    TruthType.ENTITY.value: "Which name fills the blank",
}
OFFLINE_TYPES = (TruthType.DATE.value, TruthType.NUMBER.value, TruthType.ENTITY.value)


@dataclass(frozen=True)
class OfflineConfig:
    """Knobs of the offline generator.

    first_clue_words: words in the entry document's clue window; enough context to find it with a
        search (HotpotQA questions spend ~10-20 words on their first hop).
    clue_words: words in each later clue window: short, so the clue alone rarely finds its
        document and the bridge must be followed.
    single_hop_words: window of a 1-hop task (the whole query).
    max_doc_uses: how many tasks may use one document, so hub documents do not dominate.
    chain_tries: random walks tried per candidate before the seed is given up.
    """

    first_clue_words: int = 20
    clue_words: int = 10
    single_hop_words: int = 16
    max_doc_uses: int = 3
    chain_tries: int = 20


class OfflineGenerator:
    """Proposes candidates from a `MinedCorpus`; `propose(hops, rng)` returns one or a DropReason."""

    def __init__(self, mined: MinedCorpus, config: OfflineConfig | None = None) -> None:
        self.mined = mined
        self.config = config or OfflineConfig()
        self.uses: Counter = Counter()
        self._type_turn = 0
        self._starts = sorted(d for d, links in mined.links.items() if links)
        self._answer_docs = sorted(d for d, spans in mined.answers.items() if spans)

    def next_type(self) -> str:
        """Truth types in rotation (answers stay diverse); falls back when a document lacks one."""
        t = OFFLINE_TYPES[self._type_turn % len(OFFLINE_TYPES)]
        self._type_turn += 1
        return t

    def usable(self, doc_id: str) -> bool:
        return self.uses[doc_id] < self.config.max_doc_uses

    def _pick_answer(self, doc_id: str, want: str, rng: random.Random, avoid: Sequence[str]) -> Span | None:
        spans = self.mined.answers.get(doc_id, [])
        avoid_keys = {" ".join(a.casefold().split()) for a in avoid}
        spans = [s for s in spans if " ".join(s.text.casefold().split()) not in avoid_keys]
        if not spans:
            return None
        typed = [s for s in spans if s.kind == want]
        return rng.choice(typed or spans)

    def chain(self, hops: int, rng: random.Random) -> list[Span] | None:
        """h-1 links D1→…→Dh over unvisited, not over-used documents; None when none is found."""
        if hops == 1:
            return []
        for _ in range(self.config.chain_tries):
            if not self._starts:
                return None
            start = rng.choice(self._starts)
            if not self.usable(start):
                continue
            path: list[Span] = []
            visited = {start}
            current = start
            while len(path) < hops - 1:
                options = [
                    link
                    for link in self.mined.links.get(current, [])
                    if link.target not in visited and self.usable(link.target)
                ]
                if len(path) == hops - 2:  # the last document must offer an answer
                    options = [link for link in options if self.mined.answers.get(link.target)]
                if not options:
                    break
                titled = [link for link in options if link.kind == "title"]
                link = rng.choice(titled or options)  # a title names its document; an entity only hints
                path.append(link)
                visited.add(link.target)
                current = link.target
            if len(path) == hops - 1:
                return path
        return None

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        want = self.next_type()
        cfg = self.config
        if hops == 1:
            pool = [d for d in self._answer_docs if self.usable(d)]
            if not pool:
                return DropReason.NO_ANSWER_SPAN
            doc_id = rng.choice(pool)
            answer = self._pick_answer(doc_id, want, rng, avoid=self.mined.title_forms.get(doc_id, []))
            if answer is None:
                return DropReason.NO_ANSWER_SPAN
            quote, clue = _window(answer.sentence.text, (answer.start, answer.end), cfg.single_hop_words, [], answer)
            return self._candidate([doc_id], [answer], [quote], [clue], [], answer)
        path = self.chain(hops, rng)
        if path is None:
            return DropReason.NO_CHAIN
        docs = [path[0].sentence.doc_id] + [link.target for link in path]
        masks: list[tuple[str, str]] = []  # (surface, variable) for documents 2..h
        for i, link in enumerate(path):
            var = VARIABLES[i]
            masks.append((link.text, var))
            masks.extend((form, var) for form in self.mined.title_forms.get(link.target, []))
        avoid = [s for s, _ in masks] + self.mined.title_forms.get(docs[0], [])
        answer = self._pick_answer(docs[-1], want, rng, avoid=avoid)
        if answer is None:
            return DropReason.NO_ANSWER_SPAN
        spans = list(path) + [answer]
        quotes, clues = [], []
        for i, span in enumerate(spans):
            words = cfg.first_clue_words if i == 0 else cfg.clue_words
            quote, clue = _window(
                span.sentence.text, (span.start, span.end), words, masks, answer if i == len(spans) - 1 else None
            )
            if i > 0:
                clue = f"{VARIABLES[i - 1]}: {clue}"
            quotes.append(quote)
            clues.append(clue)
        return self._candidate(docs, spans, quotes, clues, [link.text for link in path], answer)

    def _candidate(
        self,
        docs: list[str],
        spans: list[Span],
        quotes: list[str],
        clues: list[str],
        bridges: list[str],
        answer: Span,
    ) -> Candidate:
        items = tuple(
            SupportingItem(
                doc_id=doc,
                chunk_ids=(span.sentence.chunk_id,),
                quotes=(quote,),
                clue_quotes=(clue.split(": ", 1)[1] if i > 0 else clue,),
                contains_truth=i == len(docs) - 1,
            )
            for i, (doc, span, quote, clue) in enumerate(zip(docs, spans, quotes, clues, strict=True))
        )
        ask = _ASK.get(answer.kind, "What fills the blank")
        question = f"{ask}? " + " ".join(c if c.endswith((".", "?", "!")) else c + "." for c in clues)
        return Candidate(
            question=question,
            answer=answer.text,
            aliases=date_aliases(answer.text) if answer.kind == TruthType.DATE.value else (),
            supporting=items,
            hops=len(docs),
            truth_type=TruthType(answer.kind),
            clues=tuple(clues),
            bridges=tuple(bridges),
            generator="offline",
            metadata={"link_kinds": [s.kind for s in spans[:-1]]},
        )

    def commit(self, candidate: Candidate) -> None:
        """Count an accepted candidate's documents against `max_doc_uses`."""
        for doc in candidate.doc_ids:
            self.uses[doc] += 1


def _window(
    sentence: str, focus: tuple[int, int], n_words: int, masks: Sequence[tuple[str, str]], answer: Span | None
) -> tuple[str, str]:
    """(quote, clue): up to n_words whole words of `sentence` around `focus` (always all of it);
    the clue is the quote with mask surfaces replaced by their variable and the answer by BLANK."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", sentence)]
    inside = [i for i, (s, e) in enumerate(words) if s < focus[1] and e > focus[0]]
    lo, hi = (inside[0], inside[-1]) if inside else (0, 0)
    if len(words) <= n_words + n_words // 2:  # a short sentence is kept whole: no dangling fragments
        lo, hi = 0, len(words) - 1
    while hi - lo + 1 < n_words and (lo > 0 or hi < len(words) - 1):
        if hi < len(words) - 1:
            hi += 1
        if lo > 0 and hi - lo + 1 < n_words:
            lo -= 1
    start, end = words[lo][0], words[hi][1]
    quote = sentence[start:end].strip(" ,;:\"'“”()")
    if not quote:
        quote = sentence[start:end]
    start += sentence[start:end].find(quote)
    clue = quote
    if answer is not None:
        a, b = answer.start - start, answer.end - start
        if 0 <= a < b <= len(quote):
            clue = quote[:a] + BLANK + quote[b:]
    for surface, var in sorted(masks, key=lambda m: -len(m[0])):
        if surface.strip():
            clue = re.sub(rf"(?<!\w){re.escape(surface)}(?!\w)", var, clue, flags=re.IGNORECASE)
    return quote, clue
