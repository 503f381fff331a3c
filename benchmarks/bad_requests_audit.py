"""Every bad request we know of, through every interface, and what each gets back.

    python benchmarks/bad_requests_audit.py [--index runs/audit-index]

Builds (once) a small index of tests/fixtures/mini_corpus, serves it with `context1 serve`'s app
on 127.0.0.1 behind an API key, and prints one markdown table: interface, request, the status
(HTTP), `isError` (MCP) or exception (Python), the reply's size and the start of its message.
A row whose status is 5xx, or whose reply is longer than 2,000 bytes, is a finding.
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KEY = "audit-key"


def _index(path: Path) -> Any:
    from corpus_tools import Corpus

    if (path / "manifest.json").exists():
        return Corpus.open(path)
    return Corpus.build(ROOT / "tests" / "fixtures" / "mini_corpus", path, progress=False)


def _serve(app: Any) -> tuple[str, Any]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server


def _row(rows: list, interface: str, request: str, outcome: str, size: int, message: str) -> None:
    flat = " ".join(str(message).split())
    rows.append((interface, request, outcome, size, flat[:110] + ("…" if len(flat) > 110 else "")))


def http_rows(url: str) -> list:
    import httpx

    auth = {"Authorization": f"Bearer {KEY}"}
    rows: list = []

    def chunked(n_bytes: int):
        yield b'{"query": "'
        for _ in range(n_bytes // 65536):
            yield b"x" * 65536
        yield b'"}'

    cases: list[tuple[str, str, str, dict[str, Any]]] = [
        ("no API key", "POST", "/search", {"json": {"query": "mill"}}),
        ("wrong API key", "POST", "/search", {"json": {"query": "mill"}, "headers": {"Authorization": "Bearer x"}}),
        ("/docs without key", "GET", "/docs", {}),
        ("/health without key", "GET", "/health", {}),
        ("Host: evil.example (DNS rebinding)", "POST", "/search",
         {"json": {"query": "mill"}, "headers": {**auth, "Host": "evil.example"}}),
        ("Origin: http://evil.example", "POST", "/search",
         {"json": {"query": "mill"}, "headers": {**auth, "Origin": "http://evil.example"}}),
        ("20 MB chunked body", "POST", "/search",
         {"content": chunked(20 << 20), "headers": {**auth, "content-type": "application/json"}}),
        ("2 MB body with Content-Length", "POST", "/search", {"json": {"query": "x" * (2 << 20)}, "headers": auth}),
        ("query of 2,001 characters", "POST", "/search", {"json": {"query": "x" * 2001}, "headers": auth}),
        ("empty query", "POST", "/search", {"json": {"query": ""}, "headers": auth}),
        ("blank query", "POST", "/search", {"json": {"query": "   "}, "headers": auth}),
        ("query is a number", "POST", "/search", {"json": {"query": 5}, "headers": auth}),
        ("k = 0", "POST", "/search", {"json": {"query": "mill", "k": 0}, "headers": auth}),
        ("k = '5'", "POST", "/search", {"json": {"query": "mill", "k": "5"}, "headers": auth}),
        ("k = 100000", "POST", "/search", {"json": {"query": "mill", "k": 100000}, "headers": auth}),
        ("unknown field 'colour'", "POST", "/search", {"json": {"query": "mill", "colour": "red"}, "headers": auth}),
        ("unknown field named by 5,000 chars", "POST", "/search",
         {"json": {"query": "mill", "c" * 5000: 1}, "headers": auth}),
        ("exclude of 1,001 ids", "POST", "/search", {"json": {"query": "mill", "exclude": ["a"] * 1001},
                                                   "headers": auth}),
        ("where with unknown operator", "POST", "/search",
         {"json": {"query": "mill", "where": {"year": {"$regex": "x"}}}, "headers": auth}),
        ("where not an object", "POST", "/search", {"json": {"query": "mill", "where": "year"}, "headers": auth}),
        ("malformed JSON", "POST", "/search",
         {"content": b"{not json", "headers": {**auth, "content-type": "application/json"}}),
        ("invalid regex", "POST", "/grep", {"json": {"pattern": "(unclosed"}, "headers": auth}),
        ("unknown doc id", "POST", "/read", {"json": {"doc_id": "atlantis"}, "headers": auth}),
        ("unknown chunk id", "GET", "/chunk", {"params": {"chunk_id": "nope#0"}, "headers": auth}),
        ("similarity, unknown chunk", "POST", "/similarity", {"json": {"query": "x", "chunk_ids": ["nope#0"]},
                                                             "headers": auth}),
        ("ask, rollouts = 99", "POST", "/ask", {"json": {"query": "mill", "rollouts": 99}, "headers": auth}),
        ("ask, include_trajectory = 'yes'", "POST", "/ask",
         {"json": {"query": "mill", "include_trajectory": "yes"}, "headers": auth}),
        ("unknown path", "GET", "/nope", {"headers": auth}),
    ]
    with httpx.Client(base_url=url, timeout=120) as http:
        for name, method, path, kwargs in cases:
            r = http.request(method, path, **kwargs)
            try:
                detail = r.json().get("detail", r.text)
            except ValueError:
                detail = r.text
            _row(rows, "HTTP", f"{method} {path}: {name}", str(r.status_code), len(r.content), detail)
    return rows


def flood_rows(corpus: Any) -> list:
    """Requests past the in-flight cap: each gets 429 at once (max_in_flight=2, 2 searches held)."""
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from context1.interfaces.server import ServerConfig, create_app

    release, entered = threading.Event(), threading.Semaphore(0)

    class Held:
        def __getattr__(self, name: str) -> Any:
            return getattr(corpus, name)

        def __len__(self) -> int:
            return len(corpus)

        def search(self, *args: Any, **kwargs: Any) -> Any:
            entered.release()
            release.wait(60)
            return corpus.search(*args, **kwargs)

    url, server = _serve(create_app(Held(), config=ServerConfig(max_in_flight=2)))
    rows: list = []
    with ThreadPoolExecutor(max_workers=2) as holders:
        held = [holders.submit(httpx.post, f"{url}/search", json={"query": "mill"}, timeout=60) for _ in range(2)]
        entered.acquire()
        entered.acquire()
        started = time.perf_counter()
        with httpx.Client(base_url=url, timeout=60) as http, ThreadPoolExecutor(max_workers=16) as pool:
            flood = list(pool.map(lambda _: http.post("/search", json={"query": "mill"}), range(2000)))
        seconds = time.perf_counter() - started
        release.set()
        statuses = sorted({r.status_code for r in flood})
        _row(rows, "HTTP", f"2,000 searches while 2 are held (max_in_flight=2), {len(flood) / seconds:,.0f} req/s",
             "/".join(map(str, statuses)), len(flood[0].content), flood[0].json()["detail"])
        _row(rows, "HTTP", "the 2 held searches, released", "/".join(str(f.result().status_code) for f in held), 0, "")
    server.should_exit = True
    return rows


def mcp_rows(corpus: Any) -> list:
    import anyio
    from mcp import Client

    from context1.interfaces.mcp_server import create_mcp

    cases = [
        ("search_corpus", {"query": "  "}, "blank query"),
        ("search_corpus", {"query": "x" * 2001}, "query of 2,001 characters"),
        ("search_corpus", {"query": 5}, "query is a number"),
        ("search_corpus", {"query": "mill", "colour": "red"}, "unknown argument"),
        ("search_corpus", {"query": "mill", "exclude": ["a"] * 1001}, "exclude of 1,001 ids"),
        ("grep_corpus", {"pattern": "(unclosed"}, "invalid regex"),
        ("read_document", {"doc_id": "atlantis"}, "unknown doc id"),
        ("prune_chunks", {"chunk_ids": ["a"] * 257}, "257 ids"),
        ("prune_chunks", {"chunk_ids": []}, "no ids"),
        ("ask", {"query": "x" * 5000}, "query of 5,000 characters"),
        ("ask", {"query": "mill", "rollouts": 99}, "rollouts = 99"),
        ("ask", {"query": "mill", "max_turns": 3}, "unknown argument"),
        ("no_such_tool", {}, "unknown tool"),
    ]

    async def main() -> list:
        rows: list = []
        async with Client(create_mcp(corpus)) as client:
            for tool, args, name in cases:
                try:
                    result = await client.call_tool(tool, args)
                    text = "\n".join(getattr(b, "text", "") for b in result.content)
                    _row(rows, "MCP", f"{tool}: {name}", f"isError={result.is_error}", len(text), text)
                except Exception as exc:  # noqa: BLE001 - a protocol error is a row too
                    _row(rows, "MCP", f"{tool}: {name}", type(exc).__name__, len(str(exc)), str(exc))
        return rows

    return anyio.run(main)


def python_rows(corpus: Any) -> list:
    from context1 import SearchAgent
    from context1.interfaces.guard import load_api_key

    agent = SearchAgent(corpus)
    cases = [
        ("Corpus.search(k=0)", lambda: corpus.search("mill", k=0)),
        ("Corpus.search(k=-1)", lambda: corpus.search("mill", k=-1)),
        ("Corpus.search(k='5')", lambda: corpus.search("mill", k="5")),
        ("Corpus.search(k=100000)", lambda: corpus.search("mill", k=100_000)),
        ("Corpus.search('')", lambda: corpus.search("")),
        ("Corpus.search(100,000 chars)", lambda: corpus.search("x" * 100_000)),
        ("Corpus.search(where={'$regex': 1})", lambda: corpus.search("mill", where={"$regex": 1})),
        ("Corpus.grep('(unclosed')", lambda: corpus.grep("(unclosed")),
        ("Corpus.read('atlantis')", lambda: corpus.read("atlantis")),
        ("SearchAgent.run(100,000 chars)", lambda: agent.run("x" * 100_000)),
        ("SearchAgent.run(rollouts=0)", lambda: agent.run("mill", rollouts=0)),
        ("load_api_key(key_file=missing)", lambda: load_api_key(None, "/nonexistent/key")),
        ("load_api_key('')", lambda: load_api_key("", None)),
    ]
    rows: list = []
    for name, fn in cases:
        try:
            out = fn()
            _row(rows, "Python", name, "returned", len(repr(out)), repr(out)[:80])
        except Exception as exc:  # noqa: BLE001 - every outcome is a row
            _row(rows, "Python", name, type(exc).__name__, len(str(exc)), str(exc))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index", type=Path, default=ROOT / "runs" / "audit-index")
    args = parser.parse_args()
    from context1.interfaces.server import ServerConfig, create_app

    corpus = _index(args.index)
    url, server = _serve(create_app(corpus, config=ServerConfig(api_key=KEY)))
    rows = http_rows(url) + flood_rows(corpus) + mcp_rows(corpus) + python_rows(corpus)
    server.should_exit = True
    print("| interface | request | outcome | reply bytes | message |")
    print("| --- | --- | --- | ---: | --- |")
    for interface, request, outcome, size, message in rows:
        print(f"| {interface} | {request} | {outcome} | {size:,} | {message.replace('|', '/')} |")
    bad = [r for r in rows if r[2].startswith("5") or r[3] > 2_000]
    print(f"\n{len(rows)} requests; {len(bad)} findings (5xx or a reply over 2,000 bytes)", file=sys.stderr)
    json.dump([list(r) for r in bad], sys.stderr)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
