"""`context1 serve`: a real uvicorn server on 127.0.0.1, driven by real HTTP clients (httpx, context1.Client)."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from serve_helpers import SlowSearches, live_server

from context1 import Client, SearchAgent
from context1.events import FinalEvent, ModelTurnEvent, UsageEvent
from context1.interfaces.server import EPISODE_THREAD_PREFIX, ServerConfig, create_app
from context1.interfaces.wire import event_from_json, event_to_json
from corpus_tools.types import InvalidPatternError, UnknownDocumentError

QUERY = "Who designed the lighthouse of Korrin Bay?"


@pytest.fixture(scope="module")
def server(harness_corpus):
    with live_server(create_app(harness_corpus)) as url:
        yield url


@pytest.fixture
def client(server):
    with Client(server, timeout=60) as c:
        yield c


def _ids(hits):
    return [h.chunk.chunk_id for h in hits]


def _wait_for(predicate, timeout_s: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


# ---------------------------------------------------------------- endpoints

def test_health_docs_and_openapi(server, harness_corpus):
    health = httpx.get(f"{server}/health").json()
    assert health["status"] == "ok"
    assert health["chunks"] == len(harness_corpus)
    assert health["documents"] == len(harness_corpus.doc_ids())
    assert health["backend"] == "iterative"
    docs = httpx.get(f"{server}/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    spec = httpx.get(f"{server}/openapi.json").json()
    assert {"/search", "/grep", "/read", "/ask", "/ask/stream", "/health"} <= set(spec["paths"])
    assert "SearchBody" in json.dumps(spec["paths"]["/search"])  # the request schema is documented
    assert spec["components"]["schemas"]["SearchBody"]["properties"]["query"]["maxLength"] == 20_000


def test_search_grep_read_over_http_equal_the_in_process_calls(client, harness_corpus):
    local = harness_corpus.search(QUERY, k=7)
    remote = client.search(QUERY, k=7)
    assert _ids(remote) == _ids(local)
    assert [h.score for h in remote] == pytest.approx([h.score for h in local])
    assert remote[0].ranks == local[0].ranks and remote[0].chunk == local[0].chunk
    excluded = _ids(local)[:3]
    assert _ids(client.search(QUERY, k=7, exclude=excluded)) == _ids(harness_corpus.search(QUERY, k=7, exclude=excluded))
    assert _ids(client.grep("(?i)lighthouse", k=3)) == _ids(harness_corpus.grep("(?i)lighthouse", k=3))
    assert _ids(client.read("lanmouth-harbour")) == _ids(harness_corpus.read("lanmouth-harbour"))
    assert _ids(client.read("lanmouth-harbour", query="shipyard", token_budget=200)) == _ids(
        harness_corpus.read("lanmouth-harbour", query="shipyard", token_budget=200))


def test_lookups_over_http(client, harness_corpus):
    cid = harness_corpus.chunks("lanmouth-harbour")[1].chunk_id
    assert client.chunk(cid) == harness_corpus.chunk(cid)
    assert client.chunks("lanmouth-harbour") == harness_corpus.chunks("lanmouth-harbour")
    assert client.title("lanmouth-harbour") == harness_corpus.title("lanmouth-harbour")
    assert sorted(client.doc_ids()) == sorted(harness_corpus.doc_ids())
    assert client.has_doc("veldhaven") and not client.has_doc("atlantis")
    assert len(client) == len(harness_corpus)
    ids = [cid, harness_corpus.chunks("veldhaven")[0].chunk_id]
    assert client.similarity("shipyard", ids) == pytest.approx(harness_corpus.similarity("shipyard", ids), abs=1e-5)
    assert client.count_tokens("The harbour of Lanmouth") == harness_corpus.count_tokens("The harbour of Lanmouth")


def test_has_doc_asks_the_server_one_id_at_a_time(server):
    # A rollout worker on a large index must not download every doc id to check one (issue 37).
    paths = []
    with Client(server, timeout=60) as c:
        c._http.event_hooks["request"].append(lambda request: paths.append(request.url.path))
        assert c.has_doc("veldhaven") and not c.has_doc("atlantis") and c.has_doc("veldhaven")
        assert c.health()["tokenizer"]  # the index's tokenizer, for workers that count locally
    assert paths == ["/has_doc", "/has_doc", "/health"]  # the repeated id was remembered


def test_ask_runs_the_servers_agent(client, harness_corpus):
    local = SearchAgent(harness_corpus).run(QUERY)
    before = client.health()["episodes"]
    remote = client.run(QUERY, include_trajectory=True)
    assert _wait_for(lambda: client.health()["episodes"]["running"] == 0)
    after = client.health()["episodes"]
    assert after["finished"] == before["finished"] + 1  # a completed episode is never counted as cancelled
    assert after["cancelled"] == before["cancelled"] and after["failed"] == before["failed"]
    assert remote.doc_ids == local.doc_ids and remote.doc_ids
    assert remote.evidence == local.evidence and remote.evidence  # the passages, with text and reasons
    assert [d.justification for d in remote.documents] == [d.justification for d in local.documents]
    assert remote.stop_reason == local.stop_reason
    assert len(remote.trajectory.steps) == len(local.trajectory.steps)
    assert remote.trajectory.seen_chunk_ids() == local.trajectory.seen_chunk_ids()


def test_ask_leaves_the_trajectory_out_unless_asked(server, client, harness_corpus):
    local = SearchAgent(harness_corpus).run(QUERY)
    lean = httpx.post(f"{server}/ask", json={"query": QUERY}, timeout=120)
    full = httpx.post(f"{server}/ask", json={"query": QUERY, "include_trajectory": True}, timeout=120)
    assert lean.status_code == full.status_code == 200
    assert lean.json()["trajectory"]["steps"] == [] and lean.json()["trajectory"]["messages"] == []
    assert lean.json()["trajectory"]["metadata"]["steps_omitted"] == len(local.trajectory.steps)
    passages = lean.json()["evidence"]  # the lean answer still carries every passage
    assert [(p["chunk_id"], p["text"], p["reason"]) for p in passages] == [
        (e.chunk_id, e.text, e.reason) for e in local.evidence]
    assert len(full.json()["trajectory"]["steps"]) == len(local.trajectory.steps)
    assert len(lean.content) < len(full.content) / 3
    remote = client.run(QUERY)  # the Client's default is the server's: no steps, same documents
    assert remote.doc_ids == local.doc_ids and remote.stop_reason == local.stop_reason
    assert remote.trajectory.steps == [] and remote.trajectory.documents == local.trajectory.documents


def test_where_filters_over_http_and_in_the_client(server, client, harness_corpus):
    where = {"doc_id": "lanmouth-harbour"}
    local = harness_corpus.search("shipyard", k=5, where=where)
    assert local and all(h.chunk.doc_id == "lanmouth-harbour" for h in local)
    assert _ids(client.search("shipyard", k=5, where=where)) == _ids(local)
    raw = httpx.post(f"{server}/search", json={"query": "shipyard", "k": 5, "where": where}).json()
    assert [h["chunk"]["chunk_id"] for h in raw["hits"]] == _ids(local)
    with pytest.raises(ValueError, match="operator"):
        client.search("shipyard", where={"doc_id": {"$regex": "x"}})


def test_ask_stream_is_read_event_by_event(server, harness_corpus):
    local = list(SearchAgent(harness_corpus).stream(QUERY))
    names = []
    with httpx.stream("POST", f"{server}/ask/stream", json={"query": QUERY}, timeout=60) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        event_name = None
        for line in response.iter_lines():
            if line.startswith("event:"):
                event_name = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                event = event_from_json(event_name, json.loads(line.split(":", 1)[1]))
                names.append(event_name)
                if len(names) == 1:  # the first event arrives on its own, before the episode is over
                    assert isinstance(event, ModelTurnEvent) and event.step == 0
                if event_name == "final":
                    break
    assert names == [event_to_json(e)[0] for e in local]
    assert [p.chunk_id for p in event.result.evidence] == [e.chunk_id for e in local[-1].result.evidence]
    assert names[-1] == "final" and "usage" in names and "observation" in names


def test_client_stream_yields_the_same_events_as_the_agent(client, harness_corpus):
    local = list(SearchAgent(harness_corpus).stream(QUERY))
    remote = list(client.stream(QUERY))
    assert [type(e) for e in remote] == [type(e) for e in local]
    # Every event but the final one (whose timings differ) is equal field by field.
    for a, b in zip(remote[:-1], local[:-1], strict=True):
        if isinstance(a, ModelTurnEvent):
            assert a.turn.tool_calls == b.turn.tool_calls and a.turn.text == b.turn.text
        elif isinstance(a, UsageEvent):
            assert a == b
    assert isinstance(remote[-1], FinalEvent) and remote[-1].result.doc_ids == local[-1].result.doc_ids


def test_wire_round_trip_of_every_event(harness_corpus):
    for event in SearchAgent(harness_corpus).stream(QUERY):
        if isinstance(event, FinalEvent):
            back = event_from_json(*event_to_json(event))
            assert back.result.documents == event.result.documents
            assert back.result.trajectory.steps == event.result.trajectory.steps
        else:
            assert event_from_json(*event_to_json(event)) == event


def test_a_local_agent_over_the_client_matches_the_in_process_agent(client, harness_corpus):
    """A rollout worker in another process: its own harness, the shared index over HTTP."""
    local = SearchAgent(harness_corpus).run(QUERY)
    remote_index = SearchAgent(client).run(QUERY)
    assert remote_index.doc_ids == local.doc_ids
    assert remote_index.trajectory.seen_chunk_ids() == local.trajectory.seen_chunk_ids()


# ---------------------------------------------------------------- bad requests

BAD = [
    ("/search", {"query": ""}, 422, "query"),
    ("/search", {"query": "   "}, 422, "the query is empty"),
    ("/search", {"query": "x" * 20_001}, 422, "the limit is 20,000"),
    ("/search", {"query": 123}, 422, "query"),
    ("/search", {"query": "ok", "k": 0}, 422, "k"),
    ("/search", {"query": "ok", "k": "ten"}, 422, "k"),
    ("/search", {"query": "ok", "k": 1_001}, 422, "k must be between 1 and 1,000"),
    ("/search", {"query": "ok", "where": {"year": {"$regex": "x"}}}, 422, "where"),
    ("/search", {"query": "ok", "where": "year"}, 422, "where"),
    ("/search", {"query": "ok", "exclude": "veldhaven#0"}, 422, "exclude"),
    ("/search", {"query": "ok", "colour": "red"}, 422, "colour"),
    ("/search", {}, 422, "query"),
    ("/grep", {"pattern": "(unclosed"}, 400, "regular expression"),
    ("/grep", {"pattern": "a{1,99999}"}, 400, "regular expression"),
    ("/read", {"doc_id": "atlantis"}, 404, "atlantis"),
    ("/read", {"doc_id": "veldhaven", "token_budget": -1}, 422, "token_budget"),
    ("/similarity", {"query": "x", "chunk_ids": ["nope#0"]}, 404, "nope#0"),
    ("/ask", {"query": ""}, 422, "query"),
    ("/ask", {"query": "ok", "rollouts": 0}, 422, "rollouts"),
    ("/ask", {"query": "ok", "rollouts": "many"}, 422, "rollouts"),
    ("/ask/stream", {"query": None}, 422, "query"),
]


@pytest.mark.parametrize(("path", "body", "status", "needle"), BAD, ids=[f"{p}-{i}" for i, (p, *_ ) in enumerate(BAD)])
def test_bad_requests_get_a_4xx_with_a_message(server, path, body, status, needle):
    response = httpx.post(f"{server}{path}", json=body, timeout=30)
    assert response.status_code == status, response.text
    data = response.json()
    assert needle.lower() in data["detail"].lower()
    assert data["error"] in {"invalid_request", "invalid_pattern", "unknown_id"}


def test_malformed_and_oversized_bodies_and_unknown_lookups(server):
    not_json = httpx.post(f"{server}/search", content=b"{not json", headers={"content-type": "application/json"})
    assert not_json.status_code == 422 and not_json.json()["detail"]
    huge = httpx.post(f"{server}/search", json={"query": "x", "exclude": ["c" * 1000] * 2000})
    assert huge.status_code == 413 and "limit" in huge.json()["detail"]
    assert httpx.get(f"{server}/chunk", params={"chunk_id": "veldhaven#99"}).status_code == 404
    assert httpx.get(f"{server}/document", params={"doc_id": "atlantis"}).status_code == 404
    assert httpx.get(f"{server}/chunk").status_code == 422
    assert httpx.get(f"{server}/no-such-endpoint").status_code == 404


def test_client_raises_the_corpus_exceptions(client):
    with pytest.raises(InvalidPatternError, match="regular expression"):
        client.grep("(unclosed")
    with pytest.raises(UnknownDocumentError, match="atlantis"):
        client.read("atlantis")
    with pytest.raises(ValueError, match="query"):
        client.search("")
    with pytest.raises(ConnectionError, match="context1 serve"):
        Client("http://127.0.0.1:9", timeout=2).search("x")


# ---------------------------------------------------------------- concurrency

@pytest.mark.slow
def test_64_concurrent_clients_get_the_right_answers_with_zero_errors(server, harness_corpus):
    queries = ["lighthouse engineer", "salt merchants river town", "ferry timetable", "shipyard closed",
               "glassblower politician", "university city academy", "herring market", "copper bridge lantern"]
    expected = {q: _ids(harness_corpus.search(q, k=5)) for q in queries}
    expected_grep = _ids(harness_corpus.grep("(?i)harbour", k=5))
    expected_read = _ids(harness_corpus.read("veldhaven"))
    errors: list[str] = []

    def one_client(i: int) -> int:
        done = 0
        with httpx.Client(base_url=server, timeout=60) as http:
            for j in range(4):  # 64 clients x 4 requests, bounded
                q = queries[(i + j) % len(queries)]
                try:
                    if j == 1:
                        got = [h["chunk"]["chunk_id"] for h in http.post("/grep", json={"pattern": "(?i)harbour"}).json()["hits"]]
                        ok = got == expected_grep
                    elif j == 2:
                        got = [h["chunk"]["chunk_id"] for h in http.post("/read", json={"doc_id": "veldhaven"}).json()["hits"]]
                        ok = got == expected_read
                    else:
                        r = http.post("/search", json={"query": q, "k": 5})
                        ok = r.status_code == 200 and [h["chunk"]["chunk_id"] for h in r.json()["hits"]] == expected[q]
                    if not ok:
                        errors.append(f"client {i} request {j}: wrong answer")
                    done += 1
                except Exception as exc:  # noqa: BLE001 - every failure is counted, none may happen
                    errors.append(f"client {i} request {j}: {type(exc).__name__}: {exc}")
        return done

    with ThreadPoolExecutor(max_workers=64) as pool:
        done = sum(pool.map(one_client, range(64), timeout=240))
    assert errors == []
    assert done == 64 * 4
    assert httpx.get(f"{server}/health").json()["status"] == "ok"


# ---------------------------------------------------------------- cancellation and limits

def _episode_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(EPISODE_THREAD_PREFIX)]


@pytest.mark.slow
@pytest.mark.parametrize("rollouts", [1, 2])
def test_a_client_that_disconnects_mid_stream_cancels_its_episode(harness_corpus, rollouts):
    slow = SlowSearches(n=40, delay_s=0.2)
    backend = slow.backend()
    # k× with a script is refused (identical rollouts); here each rollout replays the same slow script
    # on purpose, to test that cancelling a k× stream stops every rollout thread.
    backend.varies_with_seed = True
    agent = SearchAgent(harness_corpus, backend)
    with live_server(create_app(harness_corpus, agent)) as url:
        with Client(url) as client:
            stream = client.stream("lighthouse", rollouts=rollouts)
            first = next(stream)
            assert isinstance(first, ModelTurnEvent)
            stream.close()  # the client goes away after one event
            assert _wait_for(lambda: client.health()["episodes"]["running"] == 0)
            episodes = client.health()["episodes"]
            assert episodes["cancelled"] == 1 and episodes["finished"] == 0
            assert _wait_for(lambda: not _episode_threads())
            calls = slow.calls
            assert calls < 10 * rollouts  # 40 slow turns per rollout were scripted: the episode stopped early
            assert not [t for t in threading.enumerate() if t.name.startswith("context1-rollout")]
            time.sleep(0.5)
            assert slow.calls == calls  # and nothing keeps running in the background


@pytest.mark.slow
def test_an_episode_past_the_time_limit_is_cut_with_a_clear_error(harness_corpus):
    slow = SlowSearches(n=40, delay_s=0.2)
    agent = SearchAgent(harness_corpus, slow.backend())
    config = ServerConfig(ask_timeout_s=0.8)
    with live_server(create_app(harness_corpus, agent, config)) as url:
        response = httpx.post(f"{url}/ask", json={"query": "lighthouse"}, timeout=60)
        assert response.status_code == 504
        assert response.json()["error"] == "timeout" and "0.8 s" in response.json()["detail"]
        with Client(url) as client:
            events = []
            with pytest.raises(TimeoutError, match="limit of 0.8 s"):
                for event in client.stream("lighthouse"):
                    events.append(event)
            assert events and not any(isinstance(e, FinalEvent) for e in events)
            assert _wait_for(lambda: client.health()["episodes"]["running"] == 0)
            counts = client.health()["episodes"]
            assert counts["timed_out"] == 2 and counts["cancelled"] == 2
        assert _wait_for(lambda: not _episode_threads())


def test_a_search_past_the_request_time_limit_is_answered_504(harness_corpus):
    with live_server(create_app(harness_corpus, config=ServerConfig(request_timeout_s=1e-6))) as url:
        response = httpx.post(f"{url}/search", json={"query": "lighthouse"}, timeout=30)
        assert response.status_code == 504 and "limit" in response.json()["detail"]
        with Client(url) as client, pytest.raises(TimeoutError):
            client.search("lighthouse")
        assert httpx.get(f"{url}/health").status_code == 200  # the server is fine afterwards


def test_more_episodes_than_allowed_are_answered_503(harness_corpus):
    slow = SlowSearches(n=40, delay_s=0.2)
    agent = SearchAgent(harness_corpus, slow.backend())
    with live_server(create_app(harness_corpus, agent, ServerConfig(max_episodes=1))) as url:
        with Client(url) as client:
            stream = client.stream("lighthouse")
            next(stream)
            busy = httpx.post(f"{url}/ask", json={"query": "other"}, timeout=30)
            assert busy.status_code == 503 and busy.json()["error"] == "busy"
            stream.close()
            assert _wait_for(lambda: client.health()["episodes"]["running"] == 0)


def test_k_rollouts_and_concurrent_episodes(client, harness_corpus):
    local = SearchAgent(harness_corpus).run(QUERY, rollouts=2)
    remote = client.run(QUERY, rollouts=2)
    assert len(remote.rollouts) == 2 and remote.doc_ids == local.doc_ids
    expected = SearchAgent(harness_corpus).run(QUERY).doc_ids
    with ThreadPoolExecutor(max_workers=4) as pool:
        streams = list(pool.map(lambda _: list(client.stream(QUERY)), range(4), timeout=240))
    assert all(isinstance(s[-1], FinalEvent) and s[-1].result.doc_ids == expected for s in streams)
    assert _wait_for(lambda: client.health()["episodes"]["running"] == 0)


def test_a_request_the_agent_would_refuse_is_a_400_not_a_500(harness_corpus):
    agent = SearchAgent(harness_corpus, SlowSearches(n=1, delay_s=0.0).backend())  # a deterministic script
    with live_server(create_app(harness_corpus, agent)) as url:
        for path in ("/ask", "/ask/stream"):
            response = httpx.post(f"{url}{path}", json={"query": "lighthouse", "rollouts": 2}, timeout=60)
            assert response.status_code == 400, response.text
            assert "identical rollouts" in response.json()["detail"]
        assert httpx.get(f"{url}/health", timeout=60).json()["episodes"]["running"] == 0


def test_a_request_past_its_time_limit_stops_its_work(harness_corpus, monkeypatch):
    """Issue 38: a 504 used to leave the worker thread scanning; now it stops at its next deadline check."""
    from corpus_tools import deadline

    progress = {"steps": 0, "stopped": threading.Event()}

    class Endless:  # a corpus whose search checks its deadline as every row-scanning loop does
        def __getattr__(self, name):
            return getattr(harness_corpus, name)

        def search(self, *args, **kwargs):
            try:
                while True:
                    deadline.check()
                    progress["steps"] += 1
                    time.sleep(0.01)
            except deadline.DeadlineExceeded:
                progress["stopped"].set()
                raise

    with live_server(create_app(Endless(), config=ServerConfig(request_timeout_s=0.3))) as url:
        response = httpx.post(f"{url}/search", json={"query": "lighthouse"}, timeout=30)
        assert response.status_code == 504
        assert progress["stopped"].wait(5), "the worker thread kept running after the 504"
        steps = progress["steps"]
        time.sleep(0.2)
        assert progress["steps"] == steps


def test_a_500_quotes_an_id_not_the_exception_and_health_shows_no_path(harness_corpus, caplog):
    """A bug's reply must not echo its exception (paths, queries, secrets) to whoever asked, and the
    keyless /health must not tell a stranger where the index lives; the log keeps the details."""

    class Broken:
        def __getattr__(self, name):
            return getattr(harness_corpus, name)

        def search(self, *args, **kwargs):
            raise RuntimeError("cannot read /srv/private/acme-index/secret.key")

    with caplog.at_level("ERROR", logger="context1.server"), live_server(create_app(Broken())) as url:
        response = httpx.post(f"{url}/search", json={"query": "lighthouse"}, timeout=60)
        health = httpx.get(f"{url}/health", timeout=60).json()
    assert response.status_code == 500 and response.json()["error"] == "internal"
    detail = response.json()["detail"]
    assert "secret" not in detail and "/srv" not in detail and "RuntimeError" not in detail
    error_id = detail.split()[2].rstrip(":")
    assert any(error_id in r.getMessage() and r.exc_info for r in caplog.records)
    assert "index" not in health and str(getattr(harness_corpus, "path", "@")) not in json.dumps(health)
