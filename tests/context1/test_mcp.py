"""`context1 mcp`: the MCP server driven by the official SDK's own client — in-process, over stdio
(the real `context1 mcp INDEX` subprocess) and over streamable HTTP (a real uvicorn server)."""

from __future__ import annotations

import json
import os
import re
import sys
import threading
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from serve_helpers import live_server

from context1 import SearchAgent
from context1.interfaces.mcp_server import create_mcp

ROOT = Path(__file__).resolve().parents[2]
QUERY = "Who designed the lighthouse of Korrin Bay?"
TOOLS = {"search_corpus", "grep_corpus", "read_document", "prune_chunks", "ask"}
_CHUNK_ID = re.compile(r'<chunk id="([^"]+)"')


def _text(result) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def _chunk_ids(result) -> list[str]:
    return _CHUNK_ID.findall(_text(result))


def _doc_ids(text: str) -> list[str]:
    """The document ids of an `ask` answer's passages, in order, each once (JSON strings: ids may
    hold spaces and quotes)."""
    ids = [json.loads(m) for m in re.findall(r'^\[\d+\] passage "(?:[^"\\]|\\.)*" of document ("(?:[^"\\]|\\.)*")',
                                             text, re.M)]
    return list(dict.fromkeys(ids))


async def _exercise(client: Client, corpus, expected_docs: list[str]) -> dict[str, object]:
    """List the tools and call each one; returns what the assertions need."""
    tools = {t.name: t for t in (await client.list_tools()).tools}
    first = await client.call_tool("search_corpus", {"query": "lighthouse engineer"})
    grep = await client.call_tool("grep_corpus", {"pattern": "(?i)ferry"})
    read = await client.call_tool("read_document", {"doc_id": "lanmouth-harbour", "query": "shipyard"})
    pruned = await client.call_tool("prune_chunks", {"chunk_ids": _chunk_ids(first)[:2]})
    progress: list[str] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append(message or "")

    ask = await client.call_tool("ask", {"query": QUERY}, progress_callback=on_progress)
    return {"tools": tools, "first": first, "grep": grep, "read": read, "pruned": pruned, "ask": ask,
            "progress": progress}


def _check(out: dict[str, object], corpus, expected_docs: list[str]) -> None:
    assert set(out["tools"]) == TOOLS
    assert "query" in out["tools"]["search_corpus"].input_schema["properties"]
    assert _chunk_ids(out["first"]) == [h.chunk.chunk_id for h in corpus.search("lighthouse engineer", k=10,
                                                                                 token_budget=4096)]
    grep_ids = _chunk_ids(out["grep"])
    assert grep_ids and all("ferry" in corpus.chunk(c).text.lower() for c in grep_ids)
    read_ids = _chunk_ids(out["read"])
    assert read_ids and all(c.startswith("lanmouth-harbour#") for c in read_ids)
    assert "Pruned" in _text(out["pruned"]) or "exclude" in _text(out["pruned"])
    assert _doc_ids(_text(out["ask"])) == expected_docs


# ---------------------------------------------------------------- in-process: behaviour

def test_tools_over_the_sdk_client_in_process(harness_corpus):
    expected = list(dict.fromkeys(e.doc_id for e in SearchAgent(harness_corpus).run(QUERY).evidence))

    async def main():
        async with Client(create_mcp(harness_corpus)) as client:
            return await _exercise(client, harness_corpus, expected)

    out = anyio.run(main)
    _check(out, harness_corpus, expected)
    assert "Pruned 2 chunk(s)" in _text(out["pruned"])
    assert any("search_corpus" in line for line in out["progress"])  # the live trace, as progress notifications


def test_searches_skip_chunks_already_shown_and_pruned(harness_corpus):
    async def main():
        async with Client(create_mcp(harness_corpus)) as client:
            a = _chunk_ids(await client.call_tool("search_corpus", {"query": "harbour"}))
            b = _chunk_ids(await client.call_tool("search_corpus", {"query": "harbour"}))
            again = _chunk_ids(await client.call_tool("search_corpus", {"query": "harbour", "include_seen": True}))
            await client.call_tool("prune_chunks", {"chunk_ids": [a[0]]})
            after_prune = _chunk_ids(await client.call_tool("search_corpus", {"query": "harbour", "include_seen": True}))
            return a, b, again, after_prune

    a, b, again, after_prune = anyio.run(main)
    assert a and b and not set(a) & set(b)  # dedup, as the harness does
    assert again[0] == a[0]
    assert a[0] not in after_prune  # pruned chunks stay excluded


def test_stateless_callers_use_exclude(harness_corpus):
    async def main():
        async with Client(create_mcp(harness_corpus, per_process_memory=False)) as client:
            a = _chunk_ids(await client.call_tool("search_corpus", {"query": "harbour"}))
            same = _chunk_ids(await client.call_tool("search_corpus", {"query": "harbour"}))
            b = _chunk_ids(await client.call_tool("search_corpus", {"query": "harbour", "exclude": a}))
            prune = _text(await client.call_tool("prune_chunks", {"chunk_ids": a[:1]}))
            return a, same, b, prune

    a, same, b, prune = anyio.run(main)
    assert same == a and not set(a) & set(b)
    assert "exclude" in prune


def test_bad_tool_input_comes_back_as_a_readable_error(harness_corpus):
    async def main():
        async with Client(create_mcp(harness_corpus)) as client:
            return {
                "regex": await client.call_tool("grep_corpus", {"pattern": "(unclosed"}),
                "doc": await client.call_tool("read_document", {"doc_id": "atlantis"}),
                "empty": await client.call_tool("search_corpus", {"query": "  "}),
                "huge": await client.call_tool("ask", {"query": "x" * 20_001}),
                "type": await client.call_tool("search_corpus", {"query": 5}),
                "rollouts": await client.call_tool("ask", {"query": "ok", "rollouts": 99}),
                "unknown": await client.call_tool("search_corpus", {"query": "ok", "colour": "red"}),
                "ids": await client.call_tool("search_corpus", {"query": "ok", "exclude": ["a#0"] * 10_001}),
                "prune": await client.call_tool("prune_chunks", {"chunk_ids": ["a#0"] * 257}),
            }

    out = anyio.run(main)
    assert all(result.is_error for result in out.values()), {k: _text(v)[:80] for k, v in out.items()}
    assert "invalid regular expression" in _text(out["regex"])
    assert "unknown document id 'atlantis'" in _text(out["doc"])
    assert "the query is empty; give some words to search for" in _text(out["empty"])
    assert "the query is 20,001 characters long; the limit is 20,000" in _text(out["huge"])
    assert len(_text(out["huge"])) < 300  # the 20,001 characters are not echoed
    assert "query" in _text(out["type"])
    assert "rollouts must be an integer between 1 and 16" in _text(out["rollouts"])
    assert "colour: unknown field" in _text(out["unknown"])
    assert "exclude lists 10,001 ids; a request over the network may list at most 10,000" in _text(out["ids"])
    assert "chunk_ids: List should have at most 256 items" in _text(out["prune"])


def test_tool_descriptions_are_rendered(harness_corpus):
    async def main():
        async with Client(create_mcp(harness_corpus)) as client:
            return {t.name: t.description for t in (await client.list_tools()).tools}

    descriptions = anyio.run(main)
    assert set(descriptions) == TOOLS
    assert not [name for name, text in descriptions.items() if "{" in text or "}" in text]
    assert descriptions["search_corpus"].startswith("Hybrid BM25 + dense search")


def test_ask_answer_is_plain_passages_with_quoted_ids():
    """Passages as a model reads them: ids as JSON strings (spaces, quotes), page and section, the
    text with no markup or \\u escapes, the reason; then the documents."""
    from context1.interfaces.mcp_server import render_answer
    from context1.types import Evidence, RankedDocument, SearchResult, Trajectory, Usage

    evidence = [Evidence("2022 Q3 AMZN.pdf#4", "2022 Q3 AMZN.pdf", "Net sales rose 15% to $127.1 billion — “record”.",
                         0.5, "Found by the search “net sales” (#1).", "Amazon 10-Q", 7, "Part I > Item 2"),
                Evidence('say "hi".txt#0', 'say "hi".txt', "Hello.", 0.25, "Holds none of the question's words.")]
    docs = [RankedDocument("2022 Q3 AMZN.pdf", "", 0.5), RankedDocument('say "hi".txt', "", 0.25)]
    result = SearchResult("q", docs, Trajectory("q"), Usage(), evidence=evidence)
    text = render_answer(result)
    assert text.startswith('[1] passage "2022 Q3 AMZN.pdf#4" of document "2022 Q3 AMZN.pdf" (Amazon 10-Q), page 7, '
                           "section Part I > Item 2, score 0.5\nNet sales rose 15% to $127.1 billion — “record”.")
    assert _doc_ids(text) == ["2022 Q3 AMZN.pdf", 'say "hi".txt']
    assert "<Document" not in text and "\\u" not in text and "Why: Found by the search “net sales” (#1)." in text


def test_ask_shares_the_episode_cap_and_time_limit(harness_corpus):
    from context1.backends.scripted import ScriptedBackend, call, turn
    from context1.interfaces.episodes import Episodes

    started, release = threading.Event(), threading.Event()

    def held(messages):
        started.set()
        assert release.wait(120)
        return turn(call("search_corpus", query="Veldhaven"))

    agent = SearchAgent(harness_corpus, ScriptedBackend([held, "<Document id=veldhaven><Justification>x"
                                                                "</Justification></Document>"]))
    episodes = Episodes(agent, max_episodes=1)

    async def main():
        async with Client(create_mcp(harness_corpus, agent, episodes=episodes)) as client:
            async with anyio.create_task_group() as tg:
                results = {}

                async def first():
                    results["first"] = await client.call_tool("ask", {"query": "lighthouse"})

                tg.start_soon(first)
                await anyio.to_thread.run_sync(started.wait, 120)
                results["second"] = await client.call_tool("ask", {"query": "other"})
                release.set()
            return results

    out = anyio.run(main)
    assert out["second"].is_error and "already runs 1 ask episodes" in _text(out["second"])
    assert not out["first"].is_error and _doc_ids(_text(out["first"])) == ["veldhaven"]
    assert episodes.counters.snapshot()["refused"] == 1


# ---------------------------------------------------------------- real transports

@pytest.mark.slow
def test_context1_mcp_over_stdio(harness_corpus):
    """The real `context1 mcp INDEX` subprocess, started and driven by the SDK's stdio client."""
    expected = list(dict.fromkeys(e.doc_id for e in SearchAgent(harness_corpus).run(QUERY).evidence))
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from context1.interfaces.cli import main; main()", "mcp", str(harness_corpus.path)],
        env={"PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1",
             "PATH": os.environ.get("PATH", "")},
        cwd=str(ROOT),
    )

    async def main():
        with anyio.fail_after(240):
            async with Client(params, read_timeout_seconds=180) as client:
                return await _exercise(client, harness_corpus, expected)

    out = anyio.run(main)
    _check(out, harness_corpus, expected)
    assert "Pruned 2 chunk(s)" in _text(out["pruned"])


@pytest.mark.slow
def test_mcp_over_streamable_http(harness_corpus):
    expected = list(dict.fromkeys(e.doc_id for e in SearchAgent(harness_corpus).run(QUERY).evidence))
    app = create_mcp(harness_corpus, per_process_memory=False).streamable_http_app()
    with live_server(app) as url:
        async def main():
            with anyio.fail_after(120):
                async with Client(f"{url}/mcp") as client:
                    return await _exercise(client, harness_corpus, expected)

        out = anyio.run(main)
    _check(out, harness_corpus, expected)


def test_mcp_over_http_needs_the_key_and_keeps_the_limits(harness_corpus):
    import httpx

    from context1.interfaces.guard import GuardConfig
    from context1.interfaces.mcp_server import http_app

    app = http_app(create_mcp(harness_corpus, per_process_memory=False),
                   GuardConfig(api_key="k3y", max_body_bytes=4096))
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "test", "version": "0"}}}
    accept = {"Accept": "application/json, text/event-stream"}
    with live_server(app) as url:
        bare = httpx.post(f"{url}/mcp", json=init, headers=accept)
        assert bare.status_code == 401 and "Bearer" in bare.json()["detail"]
        keyed = httpx.post(f"{url}/mcp", json=init, headers={**accept, "Authorization": "Bearer k3y"})
        assert keyed.status_code == 200, keyed.text[:300]
        big = httpx.post(f"{url}/mcp", content=iter([b"{" + b" " * 8192 + b"}"]),
                         headers={**accept, "Authorization": "Bearer k3y", "content-type": "application/json"})
        assert big.status_code == 413


def test_sessions_are_bounded_by_count_idle_time_and_ids_shown(monkeypatch):
    """Issue 38: a server's memory must not grow with its clients (before: 1,024 unbounded `shown` sets, no TTL)."""
    from types import SimpleNamespace

    from context1.interfaces import mcp_server

    monkeypatch.setattr(mcp_server, "MAX_SESSIONS", 3)
    monkeypatch.setattr(mcp_server, "MAX_SHOWN", 5)
    now = [0.0]
    sessions = mcp_server._Sessions(per_process=False, clock=lambda: now[0])

    def ctx(key: str) -> SimpleNamespace:
        return SimpleNamespace(headers={"mcp-session-id": key})

    first = sessions.get(ctx("a"))
    first.remember([f"c{i}" for i in range(8)])
    assert list(first.shown) == ["c3", "c4", "c5", "c6", "c7"]  # the newest MAX_SHOWN
    for key in "bcd":
        sessions.get(ctx(key))
    assert len(sessions) == 3 and sessions.get(ctx("a")) is not first  # least recently used dropped
    now[0] += mcp_server.SESSION_TTL_S + 1
    sessions.get(ctx("e"))
    assert len(sessions) == 1  # every idle session forgotten
    stdio = mcp_server._Sessions(per_process=True, clock=lambda: now[0])
    kept = stdio.get(None)
    now[0] += 10 * mcp_server.SESSION_TTL_S
    assert stdio.get(None) is kept  # stdio's one client keeps its memory
