"""LangChain and LlamaIndex retrievers over Corpus.search and over the agent, with the real libraries."""

from __future__ import annotations

import importlib
import sys

import pytest
from serve_helpers import live_server

from context1 import Client, SearchAgent
from context1.interfaces.server import create_app

QUERY = "Who designed the lighthouse of Korrin Bay?"


def test_langchain_search_retriever_returns_the_hybrid_hits(harness_corpus):
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    from context1.interfaces.integrations import LangChainSearchRetriever

    retriever = LangChainSearchRetriever(corpus=harness_corpus, k=4)
    assert isinstance(retriever, BaseRetriever)
    docs = retriever.invoke("lighthouse engineer")
    hits = harness_corpus.search("lighthouse engineer", k=4)
    assert all(isinstance(d, Document) for d in docs)
    assert [d.metadata["chunk_id"] for d in docs] == [h.chunk.chunk_id for h in hits]
    assert [d.page_content for d in docs] == [h.chunk.text for h in hits]
    assert docs[0].metadata["doc_id"] == hits[0].chunk.doc_id and "fused" in docs[0].metadata["ranks"]
    assert docs[0].metadata["score"] == pytest.approx(hits[0].score)


def test_langchain_agent_retriever_returns_the_agents_passages(harness_corpus):
    from context1.interfaces.integrations import LangChainAgentRetriever

    result = SearchAgent(harness_corpus).run(QUERY)
    assert result.evidence
    docs = LangChainAgentRetriever(agent=SearchAgent(harness_corpus)).invoke(QUERY)
    assert [d.id for d in docs] == [e.chunk_id for e in result.evidence]
    assert [d.page_content for d in docs] == [e.text for e in result.evidence]
    assert [(d.metadata["chunk_id"], d.metadata["doc_id"]) for d in docs] == [(e.chunk_id, e.doc_id)
                                                                             for e in result.evidence]
    assert [d.metadata["score"] for d in docs] == pytest.approx([e.score for e in result.evidence])
    assert docs[0].metadata["reason"] == result.evidence[0].reason and docs[0].metadata["reason"].startswith("Found by")
    assert [d.metadata["rank"] for d in docs] == list(range(1, len(docs) + 1))


def test_langchain_agent_retriever_still_returns_documents_on_request(harness_corpus):
    from context1.interfaces.integrations import LangChainAgentRetriever

    result = SearchAgent(harness_corpus).run(QUERY)
    docs = LangChainAgentRetriever(agent=SearchAgent(harness_corpus), unit="document").invoke(QUERY)
    assert [d.metadata["doc_id"] for d in docs] == result.doc_ids
    assert [d.metadata["justification"] for d in docs] == [d.justification for d in result.documents]
    top = result.doc_ids[0]
    assert docs[0].page_content == "\n".join(c.text for c in harness_corpus.chunks(top))
    with pytest.raises(ValueError, match="unit must be one of"):
        LangChainAgentRetriever(agent=SearchAgent(harness_corpus), unit="chapter").invoke(QUERY)


def test_llamaindex_search_retriever_returns_the_hybrid_hits(harness_corpus):
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.schema import NodeWithScore

    from context1.interfaces.integrations import LlamaIndexSearchRetriever

    retriever = LlamaIndexSearchRetriever(harness_corpus, k=4)
    assert isinstance(retriever, BaseRetriever)
    nodes = retriever.retrieve("lighthouse engineer")
    hits = harness_corpus.search("lighthouse engineer", k=4)
    assert all(isinstance(n, NodeWithScore) for n in nodes)
    assert [n.node.node_id for n in nodes] == [h.chunk.chunk_id for h in hits]
    assert [n.node.get_content() for n in nodes] == [h.chunk.text for h in hits]
    assert [n.score for n in nodes] == pytest.approx([h.score for h in hits])


def test_llamaindex_agent_retriever_returns_the_agents_passages(harness_corpus):
    from context1.interfaces.integrations import LlamaIndexAgentRetriever

    result = SearchAgent(harness_corpus).run(QUERY)
    nodes = LlamaIndexAgentRetriever(SearchAgent(harness_corpus)).retrieve(QUERY)
    assert [n.node.node_id for n in nodes] == [e.chunk_id for e in result.evidence]
    assert [n.node.get_content() for n in nodes] == [e.text for e in result.evidence]
    assert nodes[0].node.metadata["doc_id"] == result.evidence[0].doc_id
    assert [n.score for n in nodes] == pytest.approx([e.score for e in result.evidence])
    docs = LlamaIndexAgentRetriever(SearchAgent(harness_corpus), unit="document").retrieve(QUERY)
    assert [n.node.node_id for n in docs] == result.doc_ids


def test_adapters_work_over_the_http_client_too(harness_corpus):
    """The same adapters over `context1.Client`: a LangChain app and a shared index server."""
    from context1.interfaces.integrations import LangChainAgentRetriever, LlamaIndexSearchRetriever

    with live_server(create_app(harness_corpus)) as url, Client(url) as client:
        nodes = LlamaIndexSearchRetriever(client, k=3).retrieve("lighthouse engineer")
        assert [n.node.node_id for n in nodes] == [h.chunk.chunk_id for h in harness_corpus.search("lighthouse engineer", k=3)]
        docs = LangChainAgentRetriever(agent=client).invoke(QUERY)
        expected = SearchAgent(harness_corpus).run(QUERY).evidence
        assert [(d.id, d.page_content) for d in docs] == [(e.chunk_id, e.text) for e in expected]


@pytest.mark.parametrize(("name", "library", "extra"), [
    ("LangChainSearchRetriever", "langchain_core", "langchain"),
    ("LlamaIndexAgentRetriever", "llama_index", "llamaindex"),
])
def test_a_missing_extra_names_the_install(monkeypatch, name, library, extra):
    import context1.interfaces.integrations as integrations

    for mod in [m for m in sys.modules if m == library or m.startswith(library + ".")]:
        monkeypatch.setitem(sys.modules, mod, None)  # the library is "not installed"
    monkeypatch.setitem(sys.modules, library, None)
    module = integrations._WHERE[name]
    monkeypatch.delitem(sys.modules, module, raising=False)
    with pytest.raises(ImportError, match=rf'pip install "context1\[{extra}\]"'):
        getattr(integrations, name)
    with pytest.raises(AttributeError, match="LangChainSearchRetriever"):
        integrations.NoSuchRetriever  # noqa: B018
    monkeypatch.undo()
    importlib.import_module(module)  # and it imports again once the library is back
