"""`context1.Client` has every read method of `Corpus` and every query method of `SearchAgent`, and
answers them as the local objects do (the README says it has their methods)."""

from __future__ import annotations

import inspect

import pytest
from serve_helpers import live_server

from context1 import Client, SearchAgent
from context1.interfaces.server import create_app
from corpus_tools import Corpus
from corpus_tools.types import GrepResult

# What a client of a served index does not offer, and why.
NOT_ON_CLIENT = {
    "build": "builds an index on this machine",
    "open": "opens an index folder on this machine",
    "add": "a served index is read-only",
    "delete": "a served index is read-only",
    "sync": "a served index is read-only",
    "compact": "a served index is read-only",
    "add_document_fields": "a served index is read-only (`context1 repair` runs it on the index's machine)",
    "manifest": "the index folder's bookkeeping, on the server's disk",
    "cache_stats": "the server process's embedding cache",
    "dense_note": "the server's vector files",
    "episode": "steps a local harness by hand; the server's agent runs whole episodes (run, stream)",
    "check_request": "the server checks every /ask itself and answers 4xx",
}


def _methods(cls: type) -> set[str]:
    return {name for name, value in inspect.getmembers(cls) if not name.startswith("_") and callable(value)}


def test_the_client_has_every_read_method_of_corpus_and_the_agent():
    wanted = (_methods(Corpus) | _methods(SearchAgent)) - set(NOT_ON_CLIENT)
    missing = sorted(wanted - _methods(Client))
    assert not missing, f"Client lacks {missing}: implement them, or list them in NOT_ON_CLIENT with why"
    assert {"grep_report", "question_constraints", "search_leg"} <= _methods(Client)
    names = {n for cls in (Corpus, SearchAgent) for n in dir(cls) if not n.startswith("_")}  # properties too
    stale = sorted(set(NOT_ON_CLIENT) - names)
    assert not stale, f"NOT_ON_CLIENT names methods that no longer exist: {stale}"


@pytest.fixture(scope="module")
def client(harness_corpus):
    with live_server(create_app(harness_corpus)) as url, Client(url, timeout=60) as c:
        yield c


def _ids(hits):
    return [h.chunk.chunk_id for h in hits]


def test_grep_report_search_leg_and_constraints_answer_as_the_corpus_does(client, harness_corpus):
    local, remote = harness_corpus.grep_report("(?i)lighthouse", k=3), client.grep_report("(?i)lighthouse", k=3)
    assert isinstance(remote, GrepResult) and _ids(remote.hits) == _ids(local.hits) and remote.hits
    assert (remote.complete, remote.scanned, remote.total, remote.capped) == (
        local.complete, local.scanned, local.total, local.capped)
    assert _ids(client.grep("(?i)lighthouse", k=3)) == _ids(local.hits)
    for leg in ("bm25", "dense"):
        assert _ids(client.search_leg("lighthouse keeper", leg, k=4)) == _ids(
            harness_corpus.search_leg("lighthouse keeper", leg, k=4))
    question = "Who designed the lighthouse of Korrin Bay?"
    assert client.question_constraints(question) == harness_corpus.question_constraints(question)
    with pytest.raises(ValueError, match="leg"):
        client.search_leg("lighthouse", "fused")
    shown = _ids(harness_corpus.search("lighthouse", k=3))
    remote, local = client.search_pair("lighthouse keeper", k=5, exclude=shown), harness_corpus.search_pair(
        "lighthouse keeper", k=5, exclude=shown)
    assert [_ids(h) for h in remote] == [_ids(h) for h in local] and set(shown) & set(_ids(remote[1]))
