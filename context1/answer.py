"""Parsing the final answer into cited passages (and ranked documents), and the fallback when
nothing parses.

The expected answer is a list of blocks, most relevant first, each citing one passage the agent
was shown by its chunk id:

    <Passage id=CHUNK_ID><Justification>1–3 sentences</Justification></Passage>

The older SPEC §2 form, `<Document id=DOC_ID>…</Document>`, is still read (a trained model or an
old script may write it): a document id is resolved to the best passage of that document the
agent saw (`context1.evidence.resolve_citations`). `parse_citations` returns the blocks as
`Citation`s for the harness; `parse_final_answer` is the document-level reading of the same
blocks (ids resolved to documents by the caller's `resolve`).

Models slip; the parser accepts: quoted or unquoted ids (single, double or no quotes, ids with
spaces up to the `>`), HTML-escaped ids, any case and whitespace in the tags, a missing or unclosed
`<Justification>` (the block's text is used), a missing `</Document>` (the block ends at the next
`<Document` or the end), markdown code fences around it all, and a chunk id (`doc#3`) where a doc
id belongs (mapped to its document). Duplicates keep their first position; ids that resolve to no
document are dropped and reported. Scores are 1/rank, unless the answer writes a `score="…"` attribute.

Fallback (documented behaviour, `Trajectory.metadata["answer_fallback"] = True`): when no block
cites a passage the agent was shown — or the episode ended without an answer (max turns, budget,
backend error) — the chunks still in view (shown and not pruned) are the passages, ranked by the
best rank a tool gave them, ties broken by which was shown first; their documents are ranked the
same way (`fallback_documents`). A chunk the agent kept in view is its implicit vote; a chunk it
pruned is not.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from context1.evidence import Citation
from context1.types import RankedDocument

_FENCE = re.compile(r"^\s*```[\w-]*\s*$", re.MULTILINE)
_OPEN = re.compile(r"<\s*(?:document|passage)\b([^>]*)>", re.IGNORECASE)
_CLOSE = re.compile(r"<\s*/\s*(?:document|passage)\s*>", re.IGNORECASE)
_ID = re.compile(r"""\bid\s*=\s*(?:"([^"]*)"?|'([^']*)'?|(.*))""", re.IGNORECASE | re.DOTALL)
_JUST = re.compile(r"<\s*justification\s*>(.*?)(?:<\s*/\s*justification\s*>|$)", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")
# An optional score="0.83" attribute (the LLM-free policy writes its evidence score there); without
# one, a document's score is 1/rank.
_SCORE = re.compile(r"""\bscore\s*=\s*["']?([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)""", re.IGNORECASE)
_WS = re.compile(r"\s+")

Resolver = Callable[[str], "str | None"]


@dataclass(frozen=True)
class ParsedAnswer:
    """What `parse_final_answer` found.

    documents: resolved, deduplicated, capped, most relevant first.
    unknown_ids: ids that resolved to no document (dropped). mapped: chunk id → doc id mappings
    applied. duplicates: ids dropped as repeats. blocks: `<Document` blocks seen. truncated:
    documents dropped by the `max_documents` cap.
    """

    documents: list[RankedDocument]
    unknown_ids: list[str] = field(default_factory=list)
    mapped: dict[str, str] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)
    blocks: int = 0
    truncated: int = 0


def _clean(text: str) -> str:
    return _WS.sub(" ", _TAG.sub(" ", text)).strip()


def _id_candidates(attrs: str) -> list[str]:
    m = _ID.search(attrs)
    if not m:
        return []
    if m.group(1) is not None or m.group(2) is not None:
        raw = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
        return [raw] if raw else []
    rest = m.group(3).strip().rstrip("/").strip()
    out = [rest] if rest else []
    first = rest.split()[0] if rest.split() else ""
    if first and first != rest:
        out.append(first)
    return out


def _blocks(text: str) -> list[tuple[str, str]]:
    """(attributes, body) of every `<Document …>` / `<Passage …>` block, in order."""
    text = _FENCE.sub("", text or "")
    opens = list(_OPEN.finditer(text))
    out = []
    for i, m in enumerate(opens):
        end = opens[i + 1].start() if i + 1 < len(opens) else len(text)
        body = text[m.end() : end]
        close = _CLOSE.search(body)
        if close:
            body = body[: close.start()]
        out.append((m.group(1), body))
    return out


def _written_score(attrs: str) -> float | None:
    written = _SCORE.search(attrs.split('"', 2)[-1] if attrs.count('"') >= 2 else attrs)  # not inside the id
    return float(written.group(1)) if written else None


def parse_citations(text: str) -> list[Citation]:
    """Every block of the answer as a `Citation` (ids as written, HTML-unescaped readings added),
    in the answer's order; resolution against what the agent saw is `context1.evidence`'s."""
    out = []
    for attrs, body in _blocks(text):
        just = _JUST.search(body)
        ids: list[str] = []
        for raw in _id_candidates(attrs):
            ids.extend(c for c in (raw, html.unescape(raw)) if c not in ids)
        out.append(Citation(tuple(ids), _clean(just.group(1) if just else body), _written_score(attrs)))
    return out


def parse_final_answer(text: str, resolve: Resolver, max_documents: int = 10) -> ParsedAnswer:
    """Parse `<Document id=...>` blocks of `text` into ranked documents.

    resolve: maps an id the model wrote to a doc id of the corpus (a doc id to itself, a chunk id
    to its document), or None when it names nothing in the corpus.
    """
    if max_documents < 1:
        raise ValueError(f"max_documents must be >= 1, got {max_documents}")
    blocks = _blocks(text)
    docs: list[RankedDocument] = []
    index: dict[str, int] = {}
    unknown: list[str] = []
    mapped: dict[str, str] = {}
    duplicates: list[str] = []
    scores: list[float | None] = []  # a written score="…" per document, None when absent
    for attrs, body in blocks:
        just = _JUST.search(body)
        justification = _clean(just.group(1) if just else body)
        doc_id = None
        candidates = _id_candidates(attrs)
        for raw in candidates:
            for cand in dict.fromkeys((raw, html.unescape(raw))):
                doc_id = resolve(cand)
                if doc_id is not None:
                    if doc_id != cand:
                        mapped[cand] = doc_id
                    break
            if doc_id is not None:
                break
        if doc_id is None:
            if candidates:
                unknown.append(candidates[0])
            continue
        if doc_id in index:
            duplicates.append(doc_id)
            prev = docs[index[doc_id]]
            if not prev.justification and justification:
                docs[index[doc_id]] = RankedDocument(prev.doc_id, justification, prev.score)
            continue
        index[doc_id] = len(docs)
        scores.append(_written_score(attrs))
        docs.append(RankedDocument(doc_id=doc_id, justification=justification, score=0.0))
    truncated = max(0, len(docs) - max_documents)
    docs = [RankedDocument(d.doc_id, d.justification, 1.0 / rank if score is None else score)
            for rank, (d, score) in enumerate(zip(docs[:max_documents], scores, strict=False), 1)]
    return ParsedAnswer(docs, unknown, mapped, duplicates, len(blocks), truncated)


@dataclass(frozen=True)
class ShownChunk:
    """A chunk the agent was shown: its rank within the observation and when it was first shown."""

    chunk_id: str
    doc_id: str
    rank: int  # 1-based position in the observation that first showed it
    order: int  # 0-based first-shown order over the episode


def fallback_documents(visible: Sequence[ShownChunk], max_documents: int = 10) -> list[RankedDocument]:
    """Rank the documents of the chunks still in view (see the module docstring)."""
    best: dict[str, ShownChunk] = {}
    for c in visible:
        cur = best.get(c.doc_id)
        if cur is None or (c.rank, c.order) < (cur.rank, cur.order):
            best[c.doc_id] = c
    ranked = sorted(best.values(), key=lambda c: (c.rank, c.order))[:max_documents]
    return [
        RankedDocument(
            doc_id=c.doc_id,
            justification=f"(fallback: no parsable answer) chunk {c.chunk_id} was still in view, shown at rank {c.rank}.",
            score=1.0 / pos,
        )
        for pos, c in enumerate(ranked, 1)
    ]
