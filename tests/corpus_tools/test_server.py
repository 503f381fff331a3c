"""The same Corpus with its vectors on a real Chroma server (`chroma run` on 127.0.0.1)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from corpus_tools import Corpus, Document, Leg

pytestmark = pytest.mark.slow

CHROMA_CLI = Path(sys.executable).parent / "chroma"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory):
    """(host, port) of a Chroma server started for this module, stopped at teardown."""
    import chromadb

    if not CHROMA_CLI.exists():
        pytest.fail(
            f"The chroma CLI is missing at {CHROMA_CLI}; it ships with the chromadb package (pip install chromadb)"
        )
    port = _free_port()
    data = tmp_path_factory.mktemp("chroma-server")
    log = open(data / "server.log", "w")  # noqa: SIM115 - closed at teardown
    proc = subprocess.Popen(
        [str(CHROMA_CLI), "run", "--path", str(data / "db"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"chroma run exited with code {proc.returncode}: {(data / 'server.log').read_text()[-2000:]}"
                )
            try:
                chromadb.HttpClient(host="127.0.0.1", port=port).heartbeat()
                break
            except Exception:
                if time.monotonic() > deadline:
                    pytest.fail(
                        f"chroma run did not answer its heartbeat within 60 s: {(data / 'server.log').read_text()[-2000:]}"
                    )
                time.sleep(0.2)
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def client(chroma_server):
    import chromadb

    host, port = chroma_server
    return chromadb.HttpClient(host=host, port=port)


@pytest.fixture(scope="module")
def server_corpus(tmp_path_factory, client, config, mini_corpus_path):
    path = tmp_path_factory.mktemp("server-index") / "idx"
    with Corpus.build(mini_corpus_path, path, config=config, client=client, progress=False) as built:
        yield built


def ids(hits):
    return [h.chunk.chunk_id for h in hits]


def test_index_folder_has_no_embedded_store(server_corpus, client):
    assert not (server_corpus.path / "chroma").exists()
    manifest = json.loads((server_corpus.path / "manifest.json").read_text())
    assert manifest["vector_store"] == "server"
    assert manifest["collection"].startswith("context1-")
    assert client.get_collection(manifest["collection"]).count() == 20


@pytest.mark.parametrize(
    ("query", "expected_doc"),
    [("who designed the basalt lighthouse", "korrin-bay"), ("mayor of Veldhaven", "veldhaven")],
)
def test_search_on_the_server_matches_embedded(server_corpus, corpus, query, expected_doc):
    hits = server_corpus.search(query, k=10)
    assert hits[0].chunk.doc_id == expected_doc
    assert ids(hits) == ids(corpus.search(query, k=10))
    assert [h.ranks for h in hits] == [h.ranks for h in corpus.search(query, k=10)]
    excluded = server_corpus.search(query, k=10, exclude=ids(hits[:5]))
    assert len(excluded) == 10 and not set(ids(excluded)) & set(ids(hits[:5]))
    for hit in hits:
        assert Leg.DENSE.value in hit.ranks


def test_grep_read_and_biencoder_work_on_the_server(server_corpus, client):
    assert ids(server_corpus.grep("Quell", k=2)) == ["quell-trail#0", "brennholt-archive#0"]
    assert server_corpus.read("pellis", query="school")[0].chunk.chunk_id == "pellis#0"
    with Corpus.open(server_corpus.path, client=client, reranker="biencoder") as reranked:
        hits = reranked.search("captain of the Aurora", k=3)
        assert all(Leg.RERANK.value in h.ranks for h in hits)


def test_opening_a_server_index_needs_the_client(server_corpus):
    with pytest.raises(ValueError, match="Chroma server.*client=chromadb.HttpClient"):
        Corpus.open(server_corpus.path)


def test_add_delete_and_rebuild_on_the_server(tmp_path, client, config):
    path = tmp_path / "idx"
    docs = [Document("a", "Otters swim in the cold river."), Document("b", "Owls hunt mice at night.")]
    with Corpus.build(docs, path, config=config, client=client, progress=False) as c:
        first = c.manifest["collection"]
        c.add([Document("c", "Badgers dig setts in the forest.")])
        c.delete(["a"])
        assert client.get_collection(first).count() == 2
        assert c.search("badger burrow", k=1)[0].chunk.doc_id == "c"
    with Corpus.build(docs, path, config=config, client=client, progress=False) as rebuilt:
        second = rebuilt.manifest["collection"]
    # A rebuild fills a fresh collection and drops the one it replaced.
    assert second != first
    names = {col.name for col in client.list_collections()}
    assert second in names and first not in names
