"""`context1 mcp`: the MCP server driven by the official SDK's own client — in-process, over stdio
(the real `context1 mcp INDEX` subprocess) and over streamable HTTP (a real uvicorn server)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from serve_helpers import live_server

from context1 import SearchAgent
from context1.mcp_server import create_mcp

ROOT = Path(__file__).resolve().parents[2]
QUERY = "Who designed the lighthouse of Korrin Bay?"
TOOLS = {"search_corpus", "grep_corpus", "read_document", "prune_chunks", "ask"}
_CHUNK_ID = re.compile(r'<chunk id="([^"]+)"')


def _text(result) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def _chunk_ids(result) -> list[str]:
    return _CHUNK_ID.findall(_text(result))


def _doc_ids(text: str) -> list[str]:
    return re.findall(r"<Document id=([^>]+)>", text)


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
    expected = SearchAgent(harness_corpus).run(QUERY).doc_ids

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
                "huge": await client.call_tool("ask", {"query": "x" * 5000}),
                "type": await client.call_tool("search_corpus", {"query": 5}),
                "rollouts": await client.call_tool("ask", {"query": "ok", "rollouts": 99}),
            }

    out = anyio.run(main)
    assert "invalid regular expression" in _text(out["regex"])
    assert "unknown document id 'atlantis'" in _text(out["doc"])
    assert "query must be 1 to 2000 characters" in _text(out["empty"])
    assert "query must be 1 to 2000 characters" in _text(out["huge"])
    assert out["type"].is_error and "query" in _text(out["type"])
    assert "rollouts must be between 1 and 16" in _text(out["rollouts"])


# ---------------------------------------------------------------- real transports

@pytest.mark.slow
def test_context1_mcp_over_stdio(harness_corpus):
    """The real `context1 mcp INDEX` subprocess, started and driven by the SDK's stdio client."""
    expected = SearchAgent(harness_corpus).run(QUERY).doc_ids
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from context1.cli import main; main()", "mcp", str(harness_corpus.path)],
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
    expected = SearchAgent(harness_corpus).run(QUERY).doc_ids
    app = create_mcp(harness_corpus, per_process_memory=False).streamable_http_app()
    with live_server(app) as url:
        async def main():
            with anyio.fail_after(120):
                async with Client(f"{url}/mcp") as client:
                    return await _exercise(client, harness_corpus, expected)

        out = anyio.run(main)
    _check(out, harness_corpus, expected)
