"""The LLM-free search policy: iterative retrieval with entity bridging and score-guided pruning.

It is a `Backend` like any model, so it drives the very same harness through the same four tools
(search_corpus, grep_corpus, read_document, prune_chunks). It works on a fresh machine with no
model configured, and it is the non-LLM baseline that evaluations compare agents against.

How it departs from single-shot hybrid retrieval (the idea is multi-hop "bridging", as in
IRCoT / multi-hop dense retrieval, with entity strings in place of a model's reasoning):

1. hop 1: `search_corpus(query)`; the question's quoted or capitalised phrases that look like
   names are also grepped, so documents that mention them verbatim are surfaced.
2. bridging: the best hop-1 chunks are mined for entities (capitalised spans, titles) that the
   question does not mention — in a bridge question the second document is about exactly such an
   entity. Each becomes a `search_corpus("<entity> <question keywords>")`, all issued in one turn
   (parallel tool calls). A second bridging round starts from the best bridged chunks, for 3-4
   hop chains.
3. pruning: after each round, chunks far down every ranking are pruned, keeping the context small.
4. answer: every document seen is scored by the cosine of the question and its best chunk
   (stored vectors), plus a decaying bonus for its hop-1 hybrid rank, plus half the relevance of
   the best chunk that names it (its title occurs in that chunk's text): the second hop of a
   bridge question is a document that a relevant document names.

The policy keeps no state between calls: everything is re-derived from the visible conversation,
so one instance can serve many concurrent episodes (k x mode) safely.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from context1.types import Message, ModelTurn, Role, ToolCall

# Parses the harness's chunk rendering (see context1/prompts.py).
_CHUNK_RE = re.compile(
    r'<chunk id="(?P<id>[^"]*)" doc="(?P<doc>[^"]*)" title="(?P<title>[^"]*)">\n(?P<text>.*?)\n</chunk>', re.S
)
_USAGE_RE = re.compile(r"\[Token usage: ([\d,]+)/([\d,]+)\]")
# Capitalised spans, allowing a few lower-case connectors inside names ("Bank of America").
_ENTITY_RE = re.compile(
    r"\b[A-Z][\w'’\-]*(?:[ \t]+(?:(?:of|the|de|del|da|von|van|der|la|le|du|and|for|on|in)[ \t]+)?[A-Z0-9][\w'’\-]*)*"
)
_QUOTED_RE = re.compile(r'"([^"]{3,80})"|“([^”]{3,80})”')
_STOP = frozenset(
    "a an the of in on at to for from by with and or but is are was were be been being what which who whom whose "
    "when where why how that this these those it its as into than then there their they he she his her him do does "
    "did has have had not no yes also both either neither same other one two first second many much more most".split()
)
_SENTENCE_START = frozenset(
    "The A An In On At He She It They His Her Its This That These Those After Before During When While "
    "However Although As By For From Since With Following According Born We You I There Today Also Then Later".split()
)


@dataclass(frozen=True)
class IterativeConfig:
    """Knobs of the LLM-free policy. Defaults were tuned on the first 150 HotpotQA / 120 MuSiQue dev
    questions of ../shared/data (docs/LOG.md has the sweep)."""

    bridge_sources: int = 3  # best hop-1 chunks mined for bridge entities
    entities_per_source: int = 2  # bridge searches issued per source chunk
    bridge_rounds: int = 2  # 2 rounds reach 3-hop chains; MuSiQue goes up to 4 hops
    keep_per_ranking: int = 8  # chunks kept visible per ranking; the rest are pruned
    bridge_weight: float = 0.8  # weight of a bridge ranking relative to the hop-1 one (no-corpus fallback)
    hybrid_weight: float = 0.35  # bonus for the hop-1 hybrid rank: w * 5/(4 + rank)
    link_weight: float = 0.5  # share of a naming chunk's relevance a bridged document inherits
    rrf_k: int = 60  # SPEC §1 reciprocal rank fusion constant
    max_documents: int = 10  # documents in the final answer
    grep_names: bool = True  # grep quoted names from the question in hop 1


@dataclass
class _Ranking:
    """One tool call's ordered chunks, and where the call came from."""

    call_id: str
    tool: str
    query: str
    chunks: list[tuple[str, str, str, str]] = field(default_factory=list)  # (chunk_id, doc_id, title, text)
    weight: float = 1.0
    round: int = 0


class IterativeRetrievalPolicy:
    """A deterministic, model-free `Backend`: see the module docstring for the algorithm."""

    name = "iterative"

    def __init__(self, corpus: Any = None, config: IterativeConfig | None = None) -> None:
        # The corpus is optional: the policy only needs it to count tokens like the index does.
        self.corpus = corpus
        self.config = config or IterativeConfig()

    # -- Backend protocol -------------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        if self.corpus is not None:
            return self.corpus.count_tokens(text)
        return max(1, len(text) // 4)

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> ModelTurn:
        query = next((m.content for m in messages if m.role == Role.USER), "")
        rankings = _rankings(messages, self.config)
        rounds_done = sum(1 for m in messages if m.role == Role.ASSISTANT and m.tool_calls)
        cutoff = _over_cutoff(messages)
        cfg = self.config

        if rounds_done == 0:
            return _turn(self._hop1_calls(query))
        if not cutoff and rounds_done <= cfg.bridge_rounds:
            round_no = rounds_done
            calls = self._bridge_calls(query, rankings, round_no)
            prune = self._prune_call(rankings, round_no)
            if calls:
                return _turn(([prune] if prune else []) + calls)
        return ModelTurn(text=self._answer(query, rankings))

    # -- the policy ---------------------------------------------------------------------------
    def _hop1_calls(self, query: str) -> list[ToolCall]:
        calls = [_call("search_corpus", {"query": query}, "h1-search")]
        if self.config.grep_names:
            for i, name in enumerate(_quoted_names(query)[:2]):
                calls.append(_call("grep_corpus", {"pattern": re.escape(name)}, f"h1-grep{i}"))
        return calls

    def _bridge_calls(self, query: str, rankings: list[_Ranking], round_no: int) -> list[ToolCall]:
        """Searches for entities found in the best chunks of the previous round."""
        cfg = self.config
        sources = _best_chunks([r for r in rankings if r.round == round_no - 1], cfg.bridge_sources)
        asked = {r.query.lower() for r in rankings}
        query_norm = _norm(query)
        keywords = " ".join(_keywords(query))
        calls: list[ToolCall] = []
        for s_rank, (_, _, title, text) in enumerate(sources):
            found = 0
            for entity in _entities(text, title):
                if _norm(entity) in query_norm or found >= cfg.entities_per_source:
                    continue
                q = f"{entity} {keywords}".strip()
                if q.lower() in asked:
                    continue
                asked.add(q.lower())
                calls.append(_call("search_corpus", {"query": q}, f"r{round_no}-s{s_rank}-e{found}"))
                found += 1
        return calls

    def _prune_call(self, rankings: list[_Ranking], round_no: int) -> ToolCall | None:
        """Prunes chunks that sit below `keep_per_ranking` in every ranking they appeared in."""
        keep: set[str] = set()
        visible: set[str] = set()
        for r in rankings:
            for i, (cid, *_rest) in enumerate(r.chunks):
                visible.add(cid)
                if i < self.config.keep_per_ranking:
                    keep.add(cid)
        drop = sorted(visible - keep)
        return _call("prune_chunks", {"chunk_ids": drop}, f"r{round_no}-prune") if drop else None

    def _answer(self, query: str, rankings: list[_Ranking]) -> str:
        """Ranks every document seen and writes the answer in the harness's format."""
        scored = self._doc_scores(query, rankings)
        ranked = sorted(scored, key=lambda d: (-scored[d][0], d))[: self.config.max_documents]
        parts = [
            f'<Document id="{html.escape(d, quote=True)}"><Justification>{html.escape(scored[d][1], quote=False)}'
            f"</Justification></Document>"
            for d in ranked
        ]
        return "\n".join(parts) if parts else "No supporting documents were found."

    def _doc_scores(self, query: str, rankings: list[_Ranking]) -> dict[str, tuple[float, str]]:
        """score(d) = relevance(q, d) + link_weight * max relevance(q, s) over chunks s that name d.

        relevance is the cosine of the question and the chunk (stored vectors, so cheap); "s names
        d" means d's title occurs in s's text: the bridge of a multi-hop question is exactly a
        document named by a relevant one. Without a corpus, reciprocal rank fusion of the
        rankings stands in for relevance.
        """
        chunks: dict[str, tuple[str, str, str]] = {}
        for r in rankings:
            for cid, doc_id, title, text in r.chunks:
                chunks.setdefault(cid, (doc_id, title, text))
        if not chunks:
            return {}
        ids = list(chunks)
        rel = self._relevance(query, ids, rankings)
        best: dict[str, tuple[float, str]] = {}
        for cid in ids:
            doc_id = chunks[cid][0]
            if rel[cid] > best.get(doc_id, (-1e9, ""))[0]:
                best[doc_id] = (rel[cid], cid)
        titles = {chunks[c][0]: _norm(chunks[c][1]) for c in ids if len(chunks[c][1]) >= 4}
        texts = {cid: " " + _norm(chunks[cid][2]) + " " for cid in ids}
        out: dict[str, tuple[float, str]] = {}
        for doc_id, (score, cid) in best.items():
            why = f"Its passage {cid} matches the question (similarity {score:.2f})."
            title = titles.get(doc_id)
            link, linker = 0.0, None
            if title:
                for sid in ids:
                    if chunks[sid][0] != doc_id and rel[sid] > link and f" {title} " in texts[sid]:
                        link, linker = rel[sid], chunks[sid][0]
            if linker is not None:
                why += f" It is named in {linker!r} (similarity {link:.2f}), a possible bridge."
            out[doc_id] = (score + self.config.link_weight * link, why)
        return out

    def _relevance(self, query: str, ids: list[str], rankings: list[_Ranking]) -> dict[str, float]:
        if self.corpus is not None and hasattr(self.corpus, "similarity"):
            try:
                rel = dict(zip(ids, (float(x) for x in self.corpus.similarity(query, ids)), strict=True))
            except KeyError:  # a chunk deleted meanwhile: fall back to ranks
                pass
            else:
                # The hybrid ranking of the question itself (BM25 + dense) knows things cosine alone
                # does not (rare names, numbers): its top ranks earn a decaying bonus.
                for r in rankings:
                    if r.round == 0 and r.tool == "search_corpus":
                        for i, (cid, *_rest) in enumerate(r.chunks, start=1):
                            rel[cid] += self.config.hybrid_weight * 5 / (4 + i)
                return rel
        rel: dict[str, float] = {}
        for r in rankings:
            for i, (cid, *_rest) in enumerate(r.chunks, start=1):
                rel[cid] = rel.get(cid, 0.0) + r.weight * self.config.rrf_k / (self.config.rrf_k + i)
        return rel


# -- reading the conversation -----------------------------------------------------------------


def _rankings(messages: Sequence[Message], cfg: IterativeConfig) -> list[_Ranking]:
    """Every visible tool result as a ranking, linked to the call (and round) that produced it."""
    calls: dict[str, tuple[ToolCall, int]] = {}
    round_no = -1
    out: list[_Ranking] = []
    for m in messages:
        if m.role == Role.ASSISTANT and m.tool_calls:
            round_no += 1
            for c in m.tool_calls:
                calls[c.id] = (c, round_no)
        elif m.role == Role.TOOL and m.tool_call_id in calls:
            call, rnd = calls[m.tool_call_id]
            if call.name not in ("search_corpus", "grep_corpus", "read_document"):
                continue
            chunks = [
                (html.unescape(g["id"]), html.unescape(g["doc"]), html.unescape(g["title"]), g["text"])
                for g in _CHUNK_RE.finditer(m.content)
            ]
            query = str(call.arguments.get("query") or call.arguments.get("pattern") or "")
            weight = 1.0 if rnd == 0 else _bridge_weight(call.id, cfg)
            out.append(_Ranking(call.id, call.name, query, chunks, weight, rnd))
    return out


def _bridge_weight(call_id: str, cfg: IterativeConfig) -> float:
    # Call ids encode the source chunk's rank ("r1-s0-e1"): bridges from better sources count more.
    m = re.match(r"r(\d+)-s(\d+)-e(\d+)", call_id)
    if not m:
        return 0.5
    rnd, src, ent = (int(x) for x in m.groups())
    return cfg.bridge_weight / (1 + src + 0.5 * ent) / rnd


def _best_chunks(rankings: list[_Ranking], n: int) -> list[tuple[str, str, str, str]]:
    """Round-robin over the rankings by weight: the best chunks of the previous round."""
    ordered = sorted(rankings, key=lambda r: -r.weight)
    out: list[tuple[str, str, str, str]] = []
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


def _over_cutoff(messages: Sequence[Message]) -> bool:
    """True once the harness refuses tools (its error says so) or usage passed 3/4 of the budget."""
    for m in reversed(messages):
        if m.role != Role.TOOL:
            continue
        if m.content.startswith("Error:") and "prune" in m.content and "conclude" in m.content:
            return True
        u = _USAGE_RE.search(m.content)
        if u:
            used, total = (int(x.replace(",", "")) for x in u.groups())
            return used >= 0.75 * total
    return False


# -- text helpers -------------------------------------------------------------------------------


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _keywords(query: str) -> list[str]:
    return [w for w in re.findall(r"\w+", query) if w.lower() not in _STOP][:8]


def _quoted_names(query: str) -> list[str]:
    """Phrases the question quotes: titles of works, nicknames — worth a verbatim grep."""
    return [a or b for a, b in _QUOTED_RE.findall(query)]


def _entities(text: str, title: str) -> list[str]:
    """Candidate bridge entities of a chunk, most salient first (frequency, then position).

    A single capitalised word that only ever opens a sentence ("Hikers", "Today") is no name.
    """
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    mid_sentence: set[str] = set()
    title_norm = _norm(title)
    for i, m in enumerate(_ENTITY_RE.finditer(text)):
        ent = m.group(0).strip(" ,'’-")
        words = ent.split()
        if words and words[0] in _SENTENCE_START:
            ent = " ".join(words[1:])
        if len(ent) < 3 or ent.lower() in _STOP or _norm(ent) == title_norm or _norm(ent) in title_norm:
            continue
        before = text[: m.start()].rstrip()
        if len(ent.split()) > 1 or (before and before[-1] not in ".!?\n"):
            mid_sentence.add(ent)
        counts[ent] = counts.get(ent, 0) + 1
        first.setdefault(ent, i)
    return sorted((e for e in counts if e in mid_sentence), key=lambda e: (-counts[e], first[e]))


def _call(name: str, arguments: dict[str, Any], call_id: str) -> ToolCall:
    import json

    return ToolCall(id=call_id, name=name, arguments=arguments, raw_arguments=json.dumps(arguments))


def _turn(calls: list[ToolCall]) -> ModelTurn:
    return ModelTurn(text="", tool_calls=tuple(calls))
