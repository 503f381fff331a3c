"""LangChain retrievers over a context1 index: one hybrid search, or the whole search agent.

    from context1 import Corpus, SearchAgent
    from context1.interfaces.integrations import LangChainSearchRetriever, LangChainAgentRetriever
    corpus = Corpus.open("my_index")                      # or context1.Client("http://...")
    docs = LangChainSearchRetriever(corpus=corpus, k=5).invoke("when was the bridge built")
    docs = LangChainAgentRetriever(agent=SearchAgent(corpus)).invoke("who designed the bridge?")

Search hits become one `Document` per chunk (metadata: chunk_id, doc_id, score, ranks, …);
the agent's answer becomes one `Document` per returned passage (its text the passage; metadata
chunk_id, doc_id, page, section, title, score, rank, reason), or with `unit="document"` one per
returned document (its text the document's chunks; metadata the justification and rank).
"""

from __future__ import annotations

from typing import Any

from context1.interfaces.integrations.common import agent_results, hit_metadata, missing_extra

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
except ImportError as _exc:  # pragma: no cover - exercised by a test that hides the library
    raise missing_extra("langchain-core", "langchain", _exc) from _exc

__all__ = ["LangChainAgentRetriever", "LangChainSearchRetriever"]


class LangChainSearchRetriever(BaseRetriever):
    """`Corpus.search` (or `Client.search`) as a LangChain retriever: one Document per chunk."""

    corpus: Any
    k: int = 10
    token_budget: int | None = None

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        hits = self.corpus.search(query, k=self.k, token_budget=self.token_budget)
        return [Document(page_content=h.chunk.text, metadata=hit_metadata(h), id=h.chunk.chunk_id) for h in hits]


class LangChainAgentRetriever(BaseRetriever):
    """The search agent (`SearchAgent` or `Client`) as a LangChain retriever: one Document per returned
    passage (`unit="passage"`), or per returned document (`unit="document"`).

    corpus (documents only): where document text comes from; default: `agent.corpus` (a
    SearchAgent's), else `agent` itself (a Client). max_chunks (documents only): most chunks of
    each document put in its text (None: all).
    """

    agent: Any
    unit: str = "passage"
    corpus: Any = None
    max_chunks: int | None = None

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        corpus = self.corpus if self.corpus is not None else getattr(self.agent, "corpus", self.agent)
        return [Document(page_content=text, metadata=meta, id=item_id)
                for item_id, text, meta in agent_results(self.agent, corpus, query, self.unit, self.max_chunks)]
