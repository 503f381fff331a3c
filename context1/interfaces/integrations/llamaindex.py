"""LlamaIndex retrievers over a context1 index: one hybrid search, or the whole search agent.

    from context1.interfaces.integrations import LlamaIndexSearchRetriever, LlamaIndexAgentRetriever
    nodes = LlamaIndexSearchRetriever(corpus, k=5).retrieve("when was the bridge built")
    nodes = LlamaIndexAgentRetriever(SearchAgent(corpus)).retrieve("who designed the bridge?")

Each result is a `NodeWithScore` over a `TextNode` whose id is the chunk id (search, and the
agent's passages) or the doc id (the agent with `unit="document"`), with the same metadata as the
LangChain adapters.
"""

from __future__ import annotations

from typing import Any

from context1.interfaces.integrations.common import agent_results, hit_metadata, missing_extra

try:
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as _exc:  # pragma: no cover - exercised by a test that hides the library
    raise missing_extra("llama-index-core", "llamaindex", _exc) from _exc

__all__ = ["LlamaIndexAgentRetriever", "LlamaIndexSearchRetriever"]


class LlamaIndexSearchRetriever(BaseRetriever):
    """`Corpus.search` (or `Client.search`) as a LlamaIndex retriever: one node per chunk."""

    def __init__(self, corpus: Any, k: int = 10, token_budget: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.corpus, self.k, self.token_budget = corpus, k, token_budget

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        hits = self.corpus.search(query_bundle.query_str, k=self.k, token_budget=self.token_budget)
        return [
            NodeWithScore(node=TextNode(id_=h.chunk.chunk_id, text=h.chunk.text, metadata=hit_metadata(h)),
                          score=float(h.score))
            for h in hits
        ]


class LlamaIndexAgentRetriever(BaseRetriever):
    """The search agent (`SearchAgent` or `Client`) as a LlamaIndex retriever: one node per returned
    passage (`unit="passage"`), or per returned document (`unit="document"`; `corpus` and
    `max_chunks` as for the LangChain adapter).

    The node score is the agent's passage (or document) score; the list order is its rank order.
    """

    def __init__(self, agent: Any, corpus: Any = None, max_chunks: int | None = None, unit: str = "passage",
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.agent, self.max_chunks, self.unit = agent, max_chunks, unit
        self.corpus = corpus if corpus is not None else getattr(agent, "corpus", agent)

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [
            NodeWithScore(node=TextNode(id_=item_id, text=text, metadata=meta), score=meta["score"])
            for item_id, text, meta in agent_results(self.agent, self.corpus, query_bundle.query_str, self.unit,
                                                     self.max_chunks)
        ]
