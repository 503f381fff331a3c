"""What the two LLM-free policies share: reading the visible conversation, and the pieces both build on.

The iterative policy (context1/backends/iterative.py) and the learned one (learned.py) are backends:
they see the conversation a model sees, nothing else. This module turns it into structured
observations, once, for both: every tool result becomes a `Ranking` of `ShownChunk`s tied to the
call (and search round) that produced it, the usage line becomes numbers (`latest_usage`), and a refusal
past the hard limit is recognised by the harness's own notice (`over_cutoff`). The parsing is
`context1.prompts`' (`read_chunks`, `read_usage`, `is_hard_cutoff`), beside the rendering it
inverts, so no policy reads the harness's words.

Also here: the pieces both policies use to pick bridge sources (`best_chunks`), to skip headings
and footers (`boilerplate`), to tell a name from a date or an amount (`name_like`), to shape the
question as a searcher types it (`question_phrases`), to quote and explain a passage (`justify`),
and to write tool calls (`tool_call`, `tool_turn`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from context1.backends.entities import STOP_WORDS, entities, keywords, norm
from context1.prompts import ShownChunk, is_hard_cutoff, read_chunks, read_refound, read_usage
from context1.types import Message, ModelTurn, Role, ToolCall

__all__ = [
    "Ranking", "ShownChunk", "best_chunks", "best_passage", "boilerplate", "justify", "last_turn_pruned_only",
    "latest_usage", "name_like", "over_cutoff", "question_phrases", "search_rounds", "tool_call", "tool_turn",
    "visible_rankings",
]


class BridgeWeighted(Protocol):
    """The one knob `visible_rankings` reads of a policy's config (`IterativeConfig.bridge_weight`)."""

    bridge_weight: float


@dataclass
class Ranking:
    """One tool call's ordered chunks, and where the call came from."""

    call_id: str
    tool: str
    query: str
    chunks: list[ShownChunk] = field(default_factory=list)  # (chunk_id, doc_id, title, text) tuples
    weight: float = 1.0
    round: int = 0
    # Chunks shown before that this call's search matched again, with its rank for each (the harness's re-found
    # note, `prompts.read_refound`; issue 34): dedup keeps them out of `chunks`.
    refound: list[tuple[str, int]] = field(default_factory=list)


def visible_rankings(messages: Sequence[Message], cfg: BridgeWeighted) -> list[Ranking]:
    """Every visible tool result as a ranking, linked to the call (and round) that produced it."""
    calls: dict[str, tuple[ToolCall, int]] = {}
    round_no = -1
    out: list[Ranking] = []
    for m in messages:
        if m.role == Role.ASSISTANT and m.tool_calls:
            if any(c.name != "prune_chunks" for c in m.tool_calls):  # a prune-only turn is no round
                round_no += 1
            for c in m.tool_calls:
                calls[c.id] = (c, round_no)
        elif m.role == Role.TOOL and m.tool_call_id in calls:
            call, rnd = calls[m.tool_call_id]
            if call.name not in ("search_corpus", "grep_corpus", "read_document"):
                continue
            query = str(call.arguments.get("query") or call.arguments.get("pattern") or "")
            weight = 1.0 if rnd == 0 else _bridge_weight(call.id, cfg)
            out.append(Ranking(call.id, call.name, query, read_chunks(m.content), weight, rnd, read_refound(m.content)))
    return out


def _bridge_weight(call_id: str, cfg: BridgeWeighted) -> float:
    # Call ids encode the source chunk's rank ("r1-s0-e1"): bridges from better sources count more.
    m = re.match(r"r(\d+)-s(\d+)-e(\d+)", call_id)
    if not m:
        return 0.5
    rnd, src, ent = (int(x) for x in m.groups())
    return cfg.bridge_weight / (1 + src + 0.5 * ent) / rnd


def best_chunks(rankings: list[Ranking], n: int) -> list[ShownChunk]:
    """Round-robin over the rankings by weight: the best chunks of the previous round."""
    ordered = sorted(rankings, key=lambda r: -r.weight)
    out: list[ShownChunk] = []
    seen: set[str] = set()
    depth = 0
    while len(out) < n and any(depth < len(r.chunks) for r in ordered):
        for r in ordered:
            if depth < len(r.chunks) and r.chunks[depth][0] not in seen:
                seen.add(r.chunks[depth][0])
                out.append(r.chunks[depth])
                if len(out) == n:
                    break
        depth += 1
    return out


def over_cutoff(messages: Sequence[Message], hard_cutoff: float = 0.75) -> bool:
    """True once the harness refuses tools (its hard-limit notice) or usage passed the hard cutoff."""
    for m in reversed(messages):
        if m.role != Role.TOOL:
            continue
        if is_hard_cutoff(m.content):
            return True
        u = read_usage(m.content)
        if u:
            used, total = u
            return used >= hard_cutoff * total
    return False


def latest_usage(messages: Sequence[Message]) -> tuple[int, int] | None:
    """(tokens used, budget) from the harness's latest `[Token usage: X/Y]` echo, None before the first."""
    for m in reversed(messages):
        if m.role == Role.TOOL:
            u = read_usage(m.content)
            if u:
                return u
    return None


def search_rounds(messages: Sequence[Message]) -> int:
    """Turns that searched (a prune-only turn is no search round)."""
    return sum(1 for m in messages if m.role == Role.ASSISTANT and m.tool_calls
               and any(c.name != "prune_chunks" for c in m.tool_calls))


def last_turn_pruned_only(messages: Sequence[Message]) -> bool:
    last = next((m for m in reversed(messages) if m.role == Role.ASSISTANT), None)
    return bool(last and last.tool_calls and all(c.name == "prune_chunks" for c in last.tool_calls))


def boilerplate(rankings: list[Ranking], share: float) -> set[str]:
    """Normalised spans found in many of the documents seen: headings and footers, not entities."""
    docs: dict[str, list[str]] = {}
    for r in rankings:
        for _cid, doc_id, _title, text in r.chunks:
            docs.setdefault(doc_id, []).append(text)
    if len(docs) < 3:
        return set()
    df: dict[str, int] = {}
    for texts in docs.values():
        seen = {norm(e) for t in texts for e in entities(t, "", keep_sentence_starts=True)}
        for e in seen:
            df[e] = df.get(e, 0) + 1
    need = max(3, math.ceil(share * len(docs)))
    return {e for e, n in df.items() if n >= need}


def tool_call(name: str, arguments: dict[str, Any], call_id: str) -> ToolCall:
    return ToolCall(id=call_id, name=name, arguments=arguments, raw_arguments=json.dumps(arguments))


def tool_turn(calls: list[ToolCall]) -> ModelTurn:
    return ModelTurn(text="", tool_calls=tuple(calls))


def justify(text: str, q_terms: list[str], score: float, measure: str, hop1_rank: int | None,
             quote_chars: int = 220) -> str:
    """The passage that made the document relevant, quoted, then why in plain words."""
    t = " " + norm(text) + " "
    mentioned = [w for w in q_terms if f" {norm(w)} " in t][:3]
    passage = best_passage(text, q_terms, quote_chars)
    first = f"“{passage}”" if passage else ""
    if mentioned:
        names = ", ".join(f"“{w}”" for w in mentioned)
        first += f" Mentions {names}, which the question asks about."
    else:
        first += " The passage is close in meaning to the question."
    if hop1_rank is not None and hop1_rank <= 3:
        first += f" Search for the question itself ranked it #{hop1_rank}."
    if measure == "cosine":
        first += f" (Relevance {score:.2f}: question–passage cosine similarity plus a search-rank bonus.)"
    else:
        first += f" (Relevance {score:.2f}: fused search ranks.)"
    return first.strip()


_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n{2,}")
_MONTHS = frozenset("january february march april may june july august september october november december".split())
_UNITS = frozenset("millions billions thousands percent million billion thousand".split())
# Letter openers and closers: capitalised at the start of a line, shared by every e-mail, names of no one.
_SALUTATIONS = frozenset("dear hi hello regards thanks best sincerely cheers kind".split())


def best_passage(text: str, terms: Sequence[str], max_chars: int = 220) -> str:
    """The sentence of `text` that shares most of the question's terms (the earliest on a tie), cut to max_chars."""
    sentences = [" ".join(s.split()) for s in _SENTENCE_SPLIT.split(text) if s.strip()]
    if not sentences:
        return ""
    wanted = [norm(w) for w in terms if norm(w)]

    def overlap(sentence: str) -> int:
        padded = " " + norm(sentence) + " "
        return sum(1 for w in wanted if f" {w} " in padded)

    best = max(range(len(sentences)), key=lambda i: (overlap(sentences[i]), -i))
    quote = sentences[best]
    return quote if len(quote) <= max_chars else quote[: max_chars - 1].rstrip() + "…"


def question_phrases(query: str, limit: int = 6) -> list[str]:
    """The question as a searcher would type it: its names whole ("Q3 2023", "Contoso Ltd"), then its
    content words (3+ letters, no stop words, no fragments such as a possessive's "s"), in order."""
    names = [re.sub(r"['’]s$", "", e) for e in entities(query, "", keep_sentence_starts=True)]  # NVIDIA's → NVIDIA
    names = [e for e in names if e.lower() not in STOP_WORDS]
    words = [w for w in keywords(query) if len(w) >= 3 and not any(w in n.split() for n in names)]
    out: list[str] = []
    for term in names + words:
        if all(norm(term) not in norm(t) for t in out):
            out.append(term)
    return out[:limit]


def name_like(entity: str) -> bool:
    """Whether a shared span can tie two documents together: a name, not a date, amount or unit."""
    words = entity.split()
    if not words or any(ch.isdigit() for ch in entity):
        return False
    return not all(w in _MONTHS or w in _UNITS or w in _SALUTATIONS for w in words)
