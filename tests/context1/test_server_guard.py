"""A server safe to share: API key, body limit while reading, Host/Origin, requests in flight, short errors.

Real uvicorn servers on 127.0.0.1 and real HTTP clients. Nothing here waits on the clock: a slow
corpus call is a `threading.Event` the test releases, and "the request is in the server" is an
Event the corpus sets.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from serve_helpers import live_server
from typer.testing import CliRunner

from context1 import Client
from context1.interfaces.guard import ApiKeyError, load_api_key
from context1.interfaces.server import ServerConfig, create_app

KEY = "s3cret-key-for-tests"


class HeldCorpus:
    """The real corpus, but `search` waits until the test releases it (and says when it is waiting)."""

    def __init__(self, corpus) -> None:
        self._corpus = corpus
        self.entered = threading.Semaphore(0)
        self.release = threading.Event()

    def __getattr__(self, name):
        return getattr(self._corpus, name)

    def __len__(self) -> int:
        return len(self._corpus)

    def search(self, *args, **kwargs):
        self.entered.release()
        assert self.release.wait(120), "the test never released the held search"
        return self._corpus.search(*args, **kwargs)


@pytest.fixture(scope="module")
def keyed(harness_corpus):
    with live_server(create_app(harness_corpus, config=ServerConfig(api_key=KEY))) as url:
        yield url


# ---------------------------------------------------------------- API key

def test_every_route_but_health_needs_the_key(keyed):
    assert httpx.get(f"{keyed}/health").status_code == 200
    for method, path, body in [("POST", "/search", {"query": "lighthouse"}), ("GET", "/documents", None),
                               ("GET", "/docs", None), ("GET", "/openapi.json", None),
                               ("POST", "/ask", {"query": "lighthouse"}), ("GET", "/no-such-path", None)]:
        bare = httpx.request(method, f"{keyed}{path}", json=body)
        assert bare.status_code == 401, (path, bare.text)
        assert "Authorization: Bearer" in bare.json()["detail"] and bare.headers["www-authenticate"].startswith("Bearer")
        wrong = httpx.request(method, f"{keyed}{path}", json=body, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and "wrong API key" in wrong.json()["detail"]
    ok = httpx.post(f"{keyed}/search", json={"query": "lighthouse"}, headers={"Authorization": f"Bearer {KEY}"})
    assert ok.status_code == 200 and ok.json()["hits"]


def test_the_client_sends_the_key(keyed, harness_corpus):
    with Client(keyed, api_key=KEY) as client:
        assert [h.chunk.chunk_id for h in client.search("lighthouse", k=3)] == [
            h.chunk.chunk_id for h in harness_corpus.search("lighthouse", k=3)]
    with Client(keyed) as anonymous, pytest.raises(PermissionError, match="api_key"):
        anonymous.search("lighthouse")


def test_unusable_key_files_are_refused(tmp_path):
    empty = tmp_path / "empty.key"
    empty.write_text("  \n")
    with pytest.raises(ApiKeyError, match="is empty"):
        load_api_key(None, empty)
    with pytest.raises(ApiKeyError, match="cannot read"):
        load_api_key(None, tmp_path / "missing.key")
    with pytest.raises(ApiKeyError, match="cannot read"):
        load_api_key(None, tmp_path)  # a folder, not a file
    with pytest.raises(ApiKeyError, match="set but empty"):
        load_api_key("", None)
    good = tmp_path / "good.key"
    good.write_text(f"{KEY}\n")
    assert load_api_key("other", good) == KEY  # the file wins over the variable
    assert load_api_key(None, None) is None


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_serve_refuses_to_start_with_an_empty_key_file(harness_corpus, tmp_path, command):
    from context1.interfaces.cli import _register_all, app

    _register_all()
    empty = tmp_path / "k"
    empty.write_text("")
    extra = ["--transport", "http"] if command == "mcp" else []
    result = CliRunner().invoke(app, [command, str(harness_corpus.path), "--api-key-file", str(empty), *extra])
    assert result.exit_code == 2
    assert "is empty" in result.output


# ---------------------------------------------------------------- body size, error size

def test_a_chunked_body_over_the_limit_is_refused_while_reading(harness_corpus):
    config = ServerConfig(max_body_bytes=64 * 1024)
    with live_server(create_app(harness_corpus, config=config)) as url:
        sent = {"n": 0}

        def body():  # no Content-Length: httpx sends it chunked
            yield b'{"query": "'
            for _ in range(20 * 1024):  # 20 MB in all, if the server read it
                sent["n"] += 1
                yield b"x" * 1024
            yield b'"}'

        response = httpx.post(f"{url}/search", content=body(), headers={"content-type": "application/json"})
        assert response.status_code == 413, response.text[:200]
        assert "limit of 65,536 bytes" in response.json()["detail"]
        assert len(response.content) < 1_000
        small = httpx.post(f"{url}/search", content=iter([b'{"query": ', b'"lighthouse"}']),
                           headers={"content-type": "application/json"})
        assert small.status_code == 200 and small.json()["hits"]  # a chunked body under the limit is served
        assert httpx.get(f"{url}/health").json()["status"] == "ok"


def test_errors_quote_only_an_excerpt_of_the_input(keyed):
    auth = {"Authorization": f"Bearer {KEY}"}
    huge = "lighthouse " * 50_000  # 550,000 characters: under the body limit, over the query limit
    response = httpx.post(f"{keyed}/search", json={"query": huge}, headers=auth)
    assert response.status_code == 422
    assert len(response.content) < 2_000 and "20,000" in response.json()["detail"]
    unknown = httpx.post(f"{keyed}/search", json={"query": "x", "c" * 5_000: 1}, headers=auth)
    assert unknown.status_code == 422 and "unknown field" in unknown.json()["detail"]
    assert len(unknown.content) < 2_000


# ---------------------------------------------------------------- Host and Origin

def test_loopback_servers_refuse_foreign_hosts_and_origins(keyed):
    auth = {"Authorization": f"Bearer {KEY}"}
    rebinding = httpx.post(f"{keyed}/search", json={"query": "x"}, headers={**auth, "Host": "evil.example:8765"})
    assert rebinding.status_code == 421 and "DNS rebinding" in rebinding.json()["detail"]
    cross = httpx.post(f"{keyed}/search", json={"query": "x"}, headers={**auth, "Origin": "http://evil.example"})
    assert cross.status_code == 403
    local = httpx.post(f"{keyed}/search", json={"query": "lighthouse"},
                       headers={**auth, "Host": "localhost", "Origin": "http://localhost:3000"})
    assert local.status_code == 200


def test_a_server_bound_elsewhere_accepts_any_host(harness_corpus):
    with live_server(create_app(harness_corpus, config=ServerConfig(host="0.0.0.0"))) as url:
        response = httpx.post(f"{url}/search", json={"query": "lighthouse"}, headers={"Host": "search.example"})
        assert response.status_code == 200


# ---------------------------------------------------------------- a flood

def test_a_flood_gets_429s_and_the_server_keeps_serving(harness_corpus):
    """Past max_in_flight every request is answered 429 at once; nothing queues, nothing fails."""
    held = HeldCorpus(harness_corpus)
    cap = 4
    with live_server(create_app(held, config=ServerConfig(max_in_flight=cap))) as url:
        with ThreadPoolExecutor(max_workers=cap) as holders:
            first = [holders.submit(httpx.post, f"{url}/search", json={"query": "lighthouse"}, timeout=120)
                     for _ in range(cap)]
            for _ in range(cap):
                assert held.entered.acquire(timeout=120)  # all `cap` requests are inside the server
            with httpx.Client(base_url=url, timeout=60) as http, ThreadPoolExecutor(max_workers=16) as pool:
                flood = list(pool.map(lambda _: http.post("/search", json={"query": "lighthouse"}), range(300)))
            assert {r.status_code for r in flood} == {429}
            assert flood[0].headers["retry-after"] == "1" and "retry" in flood[0].json()["detail"]
            assert httpx.get(f"{url}/health").status_code == 200  # liveness is never refused
            held.release.set()
            assert [f.result().status_code for f in first] == [200] * cap
        after = httpx.post(f"{url}/search", json={"query": "lighthouse"})
        assert after.status_code == 200 and after.json()["hits"]
