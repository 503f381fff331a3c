"""What both retriever adapters share: turning hits, passages and ranked documents into text + metadata.

Kept free of LangChain and LlamaIndex so each adapter module is only its library's glue.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from corpus_tools.types import Hit


def missing_extra(library: str, extra: str, exc: ImportError) -> ImportError:
    return ImportError(
        f"this adapter needs {library}, which is not installed ({exc}). "
        f'Install it with: pip install "context1[{extra}]"'
    )


def hit_metadata(hit: Hit, corpus: Any = None) -> dict[str, Any]:
    """JSON-able metadata of one hit: ids, position, score, each leg's rank, title, chunk metadata."""
    chunk = hit.chunk
    meta = {str(k): v for k, v in dict(chunk.metadata).items() if isinstance(v, str | int | float | bool)}
    meta.update(chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, position=chunk.position, score=float(hit.score),
                ranks=dict(hit.ranks))
    return meta


UNITS = ("passage", "document")


def agent_results(agent: Any, corpus: Any, query: str, unit: str, max_chunks: int | None
                  ) -> list[tuple[str, str, dict[str, Any]]]:
    """(id, text, metadata) of what the agent returns, best first: its passages (`unit="passage"`,
    the default of both adapters: one item per `SearchResult.evidence` passage, id = chunk id) or
    its documents (`unit="document"`: the whole document's text, id = doc id)."""
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
    if unit == "document":
        return [(meta["doc_id"], text, meta) for text, meta in agent_documents(agent, corpus, query, max_chunks)]
    return [(meta["chunk_id"], text, meta) for text, meta in agent_passages(agent, query)]


def agent_passages(agent: Any, query: str) -> list[tuple[str, dict[str, Any]]]:
    """(text, metadata) of each passage the agent returns, best first (`SearchResult.evidence`).

    metadata: chunk_id, doc_id, rank, score, title, page and section (omitted when the index does
    not know them), reason (why it was returned), found_by (the searches that showed it, joined
    by " | "), stop_reason. Plain str/int/float values, so any vector store accepts them.
    """
    result = agent.run(query)
    stop = result.stop_reason.value if result.stop_reason else None
    out = []
    for rank, e in enumerate(result.evidence, start=1):
        meta: dict[str, Any] = {"chunk_id": e.chunk_id, "doc_id": e.doc_id, "rank": rank, "score": float(e.score),
                                "reason": e.reason, "found_by": " | ".join(e.found_by), "stop_reason": stop}
        meta.update({k: v for k, v in (("title", e.title), ("page", e.page), ("section", e.section)) if v is not None})
        out.append((e.text, meta))
    return out


def agent_documents(agent: Any, corpus: Any, query: str, max_chunks: int | None) -> list[tuple[str, dict[str, Any]]]:
    """(text, metadata) of each document the agent returns, best first.

    agent: anything with `run(query) -> SearchResult` (`SearchAgent`, or `context1.Client`).
    corpus: where the documents' text comes from (`Corpus` or `Client`): the first `max_chunks`
    chunks of each document (None: all), joined.
    """
    result = agent.run(query)
    out = []
    for rank, doc in enumerate(result.documents, start=1):
        chunks: Sequence[Any] = corpus.chunks(doc.doc_id)
        if max_chunks is not None:
            chunks = chunks[:max_chunks]
        text = "\n".join(c.text for c in chunks)
        meta = {"doc_id": doc.doc_id, "rank": rank, "score": float(doc.score), "justification": doc.justification,
                "title": corpus.title(doc.doc_id) or "",
                "stop_reason": result.stop_reason.value if result.stop_reason else None}
        out.append((text, meta))
    return out
