"""What an evaluation runs: a single-shot retriever (one leg of the hybrid index) or the agent.

Both sit behind one `Retriever` protocol whose `retrieve(query)` returns a `Retrieval`, so the
runner neither knows nor cares which it drives.

Single shot: one `Corpus.search`-style query for k·`chunk_factor` chunks, collapsed to a document
ranking by each document's best chunk (a document ranks where its first chunk ranked).
Legs: "hybrid" (BM25 ∥ dense, RRF, no reranker), "hybrid+rerank" (the same, top candidates
reranked, SPEC §1), "bm25" and "dense" (one leg alone). `Corpus` exposes no per-leg search, so the
two lone legs call its internals (the BM25 index of its current snapshot and its vector store),
the same ones `Corpus.search` fans out to; a public per-leg method is used instead when present.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from context1.types import Trajectory
    from corpus_tools import Corpus

LEGS = ("bm25", "dense", "hybrid", "hybrid+rerank")
RETRIEVERS = (*LEGS, "agent")
DEFAULT_RERANKER = "biencoder"  # the only reranker that needs no extra model (corpus_tools.rerank)


@dataclass
class Retrieval:
    """One query's outcome.

    doc_ids: ranked documents. chunk_ids: ranked chunks (single shot), else empty.
    passages: the returned passages, (chunk id, text), best first: the agent's evidence, or a
    single search's top `passage_k` chunks.
    trajectory / usage: the agent's, else None / {}. timings: seconds by phase.
    """

    doc_ids: list[str]
    chunk_ids: list[str] = field(default_factory=list)
    passages: list[tuple[str, str]] = field(default_factory=list)
    trajectory: Trajectory | None = None
    usage: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)


@runtime_checkable
class Retriever(Protocol):
    """Anything evaluated: `name` labels the run; `retrieve` may be called from several threads."""

    name: str

    def retrieve(self, query: str) -> Retrieval: ...


def collapse_to_documents(chunk_ids: Sequence[str], doc_of: Mapping[str, str], k: int) -> list[str]:
    """Documents in the order of their best (first-ranked) chunk, the top k."""
    docs: dict[str, None] = {}
    for cid in chunk_ids:
        docs.setdefault(doc_of[cid], None)
        if len(docs) >= k:
            break
    return list(docs)


def _reranker_name(corpus: Corpus) -> str:
    return str(getattr(corpus.reranker, "name", "none"))


class SingleShotRetriever:
    """Top-k documents from one search of one retrieval leg (see the module docstring)."""

    def __init__(self, corpus: Corpus, leg: str = "hybrid", k: int = 10, chunk_factor: int = 5,
                 passage_k: int = 5) -> None:
        if leg not in LEGS:
            raise ValueError(f"leg must be one of {LEGS}, got {leg!r}")
        if k < 1 or chunk_factor < 1:
            raise ValueError(f"k and chunk_factor must be positive, got k={k}, chunk_factor={chunk_factor}")
        reranked = _reranker_name(corpus) != "none"
        if leg == "hybrid" and reranked:
            raise ValueError("leg 'hybrid' needs a corpus without reranker: Corpus.open(path, reranker='none')")
        if leg == "hybrid+rerank" and not reranked:
            raise ValueError("leg 'hybrid+rerank' needs a reranker: Corpus.open(path, reranker='biencoder' or a path)")
        self.corpus = corpus
        self.leg = leg
        self.k = k
        # Documents of several chunks take several slots; k·5 chunks nearly always hold k documents.
        self.n_chunks = k * chunk_factor
        # The passages a single search "returns": its top chunks, as many as the agent's evidence holds.
        self.passage_k = passage_k
        self.name = leg if leg != "hybrid+rerank" else f"hybrid+rerank:{_reranker_name(corpus)}"

    def _chunks(self, query: str) -> list[tuple[str, str, str]]:
        """(chunk_id, doc_id, text) of the leg's ranking."""
        corpus, n = self.corpus, self.n_chunks
        if self.leg in ("hybrid", "hybrid+rerank"):
            hits = corpus.search(query, k=n)
        else:
            hits = corpus.search_leg(query, self.leg, k=n)
        return [(h.chunk.chunk_id, h.chunk.doc_id, h.chunk.text) for h in hits]

    def retrieve(self, query: str) -> Retrieval:
        start = time.perf_counter()
        triples = self._chunks(query)
        doc_of = {cid: doc for cid, doc, _ in triples}
        chunk_ids = [cid for cid, _, _ in triples]
        docs = collapse_to_documents(chunk_ids, doc_of, self.k)
        passages = [(cid, text) for cid, _, text in triples[: self.passage_k]]
        return Retrieval(doc_ids=docs, chunk_ids=chunk_ids, passages=passages,
                         timings={"search_s": time.perf_counter() - start})


class AgentRetriever:
    """The search agent (context1.SearchAgent) with any backend; its trajectory is kept."""

    def __init__(self, corpus: Corpus, backend: Any = None, config: Any = None, name: str | None = None) -> None:
        from context1 import AgentConfig, SearchAgent

        self.corpus = corpus
        self.agent = SearchAgent(corpus, backend=backend, config=config or AgentConfig())
        backend_name = getattr(getattr(self.agent, "backend", backend), "name", None)
        self.name = name or (f"agent:{backend_name}" if backend_name else "agent")

    def retrieve(self, query: str) -> Retrieval:
        result = self.agent.run(query)
        return Retrieval(
            doc_ids=[d.doc_id for d in result.documents],
            passages=[(e.chunk_id, e.text) for e in result.evidence],
            trajectory=result.trajectory,
            usage=dataclasses.asdict(result.usage),
            timings=dict(result.timings),
        )


def open_retriever(
    kind: str,
    index: str | Path,
    *,
    k: int = 10,
    passage_k: int = 5,
    reranker: str | None = None,
    backend: Any = None,
    backend_options: Mapping[str, Any] | None = None,
    agent_config: Any = None,
    client: Any = None,
) -> Retriever:
    """Opens the index the way `kind` needs it and returns the retriever.

    kind: one of RETRIEVERS. passage_k: the passages a single search returns (its top chunks; the
    agent's are its evidence, `AgentConfig.max_passages`). reranker: for "hybrid+rerank" (default "biencoder") or the agent's
    corpus (default: the index's own). backend: the agent's Backend, or a kind for
    `context1.backends.make_backend` with `backend_options` (base_url, model, ...); None: SearchAgent's
    default (the LLM-free iterative policy).
    "hybrid" lets every fused candidate through (no reranker caps the pool at SPEC's 50);
    "hybrid+rerank" keeps the index's candidate count, the pool the reranker sees.
    """
    from corpus_tools import Corpus

    if kind not in RETRIEVERS:
        raise ValueError(f"retriever must be one of {RETRIEVERS}, got {kind!r}")
    if kind == "agent":
        corpus = Corpus.open(index, client=client, reranker=reranker)
        if isinstance(backend, str):
            from context1.backends import make_backend

            extra = {"corpus": corpus} if backend in ("iterative", "learned") else {}
            backend = make_backend(backend, **{**extra, **dict(backend_options or {})})
        return AgentRetriever(corpus, backend=backend, config=agent_config)
    if kind == "hybrid+rerank":
        corpus = Corpus.open(index, client=client, reranker=reranker or DEFAULT_RERANKER)
    else:
        search = _recorded_search_config(Path(index))
        n = k * 5
        search = dataclasses.replace(
            search, leg_k=max(search.leg_k, n), candidates=max(search.candidates, n), reranker="none"
        )
        corpus = Corpus.open(index, client=client, reranker="none", search=search)
    return SingleShotRetriever(corpus, kind, k=k, passage_k=passage_k)


def _recorded_search_config(index: Path) -> Any:
    """The SearchConfig an index's manifest recorded (defaults where it cannot be read)."""
    import json

    from corpus_tools import CorpusConfig, SearchConfig

    try:
        manifest = json.loads((index / "manifest.json").read_text(encoding="utf-8"))
        return CorpusConfig.from_dict(manifest["config"]).search
    except (OSError, ValueError, KeyError, TypeError):
        return SearchConfig()  # Corpus.open reports the broken index itself
