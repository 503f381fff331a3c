"""What both retriever adapters share: turning hits and ranked documents into text + metadata.

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
