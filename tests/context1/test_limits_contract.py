"""One limits contract on every surface: the same bad request gets the same message from Python
(`Corpus.search`, `SearchAgent`), the CLI, HTTP (422), `Client` (ValueError) and MCP (a tool error).

The limits are corpus_tools.limits' (query length, k, ids per request, the filter's bounds) and
context1.config.MAX_ROLLOUTS; each case below is sent to every surface that takes the argument.
"""

from __future__ import annotations

import json

import anyio
import httpx
import pytest
import typer
from mcp import Client as McpClient
from serve_helpers import live_server
from typer.testing import CliRunner

from context1 import Client, SearchAgent
from context1.config import MAX_ROLLOUTS, AgentConfig
from context1.interfaces import cli_ask, cli_corpus
from context1.interfaces.mcp_server import create_mcp
from context1.interfaces.server import create_app
from corpus_tools.limits import MAX_IDS, MAX_K, MAX_QUERY_CHARS, MAX_WHERE_DEPTH

LONG = "lighthouse " * (MAX_QUERY_CHARS // 11 + 1)  # 20,009 characters
DEEP: dict = {"year": 2020}
for _ in range(MAX_WHERE_DEPTH + 1):
    DEEP = {"$and": [DEEP, {"year": 2021}]}

# (case, the message every surface gives)
K_MESSAGE = f"k must be between 1 and {MAX_K:,}, got {MAX_K + 1}"
LONG_MESSAGE = f"the query is {len(LONG):,} characters long; the limit is {MAX_QUERY_CHARS:,}"
BLANK_MESSAGE = "the query is empty; give some words to search for"
DEEP_MESSAGE = f"the filter nests deeper than {MAX_WHERE_DEPTH} levels"
ROLLOUTS_MESSAGE = f"rollouts must be an integer between 1 and {MAX_ROLLOUTS}"
SIZE_MESSAGE = f"max_documents must be an integer between 1 and {AgentConfig().max_documents} (this agent's"
IDS_MESSAGE = f"exclude lists {MAX_IDS + 1:,} ids; a request over the network may list at most {MAX_IDS:,}"


def test_the_numbers_are_the_ones_the_readme_states():
    assert (MAX_QUERY_CHARS, MAX_K, MAX_IDS, MAX_ROLLOUTS) == (20_000, 1_000, 10_000, 16)
    assert AgentConfig().max_query_chars == MAX_QUERY_CHARS


# ---------------------------------------------------------------- Python

@pytest.mark.parametrize(("kwargs", "message"), [
    ({"query": "lighthouse", "k": MAX_K + 1}, K_MESSAGE),
    ({"query": LONG}, LONG_MESSAGE),
    ({"query": "   "}, BLANK_MESSAGE),
    ({"query": "lighthouse", "where": DEEP}, DEEP_MESSAGE),
])
def test_python_corpus_search(harness_corpus, kwargs, message):
    with pytest.raises(ValueError) as caught:
        harness_corpus.search(**kwargs)
    assert message in str(caught.value)
    assert harness_corpus.search("lighthouse", k=MAX_K)  # the limit itself is allowed


def test_python_agent(harness_corpus):
    agent = SearchAgent(harness_corpus)
    with pytest.raises(ValueError, match=LONG_MESSAGE):
        agent.run(LONG)
    with pytest.raises(ValueError, match=BLANK_MESSAGE):
        agent.run("  ")
    with pytest.raises(ValueError, match=ROLLOUTS_MESSAGE):
        agent.run("lighthouse", rollouts=MAX_ROLLOUTS + 1)
    with pytest.raises(ValueError) as caught:
        agent.run("lighthouse", max_documents=agent.config.max_documents + 1)
    assert SIZE_MESSAGE in str(caught.value)
    # Fewer than the agent's: the same answer's best, cut after ranking.
    full = agent.run("lighthouse keeper")
    cut = agent.run("lighthouse keeper", max_documents=1, max_passages=1)
    assert len(full.documents) > 1 and len(full.evidence) > 1
    assert cut.doc_ids == full.doc_ids[:1] and [e.chunk_id for e in cut.evidence] == [full.evidence[0].chunk_id]
    with pytest.raises(ValueError, match=ROLLOUTS_MESSAGE):
        AgentConfig(rollouts=MAX_ROLLOUTS + 1)
    with pytest.raises(ValueError, match=f"search_k must be at most {MAX_K:,}"):
        AgentConfig(search_k=MAX_K + 1)


# ---------------------------------------------------------------- CLI

def _cli(*args: str) -> tuple[int, str]:
    app = typer.Typer()
    app.callback()(lambda: None)
    cli_corpus.register(app)
    cli_ask.register(app)
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "400"})
    return result.exit_code, " ".join(result.output.split())


@pytest.mark.parametrize(("args", "message"), [
    (["search", "{index}", "lighthouse", "-k", str(MAX_K + 1)], K_MESSAGE),
    (["search", "{index}", LONG], LONG_MESSAGE),
    (["search", "{index}", "   "], BLANK_MESSAGE),
    (["search", "{index}", "lighthouse", "--where", json.dumps(DEEP)], DEEP_MESSAGE),
    (["ask", "{index}", LONG], LONG_MESSAGE),
    (["ask", "{index}", "lighthouse", "--rollouts", str(MAX_ROLLOUTS + 1)], ROLLOUTS_MESSAGE),
])
def test_cli(harness_corpus, args, message):
    code, output = _cli(*[a.replace("{index}", str(harness_corpus.path)) for a in args])
    assert code == 2 and output.startswith("error: ") and message in output, output[:400]


# ---------------------------------------------------------------- HTTP and Client

HTTP_CASES = [
    ("/search", {"query": "lighthouse", "k": MAX_K + 1}, K_MESSAGE),
    ("/grep", {"pattern": "lighthouse", "k": MAX_K + 1}, K_MESSAGE),
    ("/search", {"query": LONG}, LONG_MESSAGE),
    ("/search", {"query": "   "}, BLANK_MESSAGE),
    ("/search", {"query": "lighthouse", "where": DEEP}, DEEP_MESSAGE),
    ("/search", {"query": "lighthouse", "exclude": ["a#0"] * (MAX_IDS + 1)}, IDS_MESSAGE),
    ("/ask", {"query": LONG}, LONG_MESSAGE),
    ("/ask", {"query": "lighthouse", "rollouts": MAX_ROLLOUTS + 1}, ROLLOUTS_MESSAGE),
    ("/ask", {"query": "lighthouse", "max_documents": AgentConfig().max_documents + 1}, SIZE_MESSAGE),
]


@pytest.fixture(scope="module")
def server(harness_corpus):
    with live_server(create_app(harness_corpus)) as url:
        yield url


@pytest.mark.parametrize(("path", "body", "message"), HTTP_CASES, ids=[f"{p}-{m[:20]}" for p, _, m in HTTP_CASES])
def test_http(server, path, body, message):
    response = httpx.post(f"{server}{path}", json=body, timeout=60)
    assert response.status_code == 422, response.text[:300]
    assert message in response.json()["detail"] and response.json()["error"] == "invalid_request"


@pytest.mark.parametrize(("call", "message"), [
    (lambda c: c.search("lighthouse", k=MAX_K + 1), K_MESSAGE),
    (lambda c: c.grep("lighthouse", k=MAX_K + 1), K_MESSAGE),
    (lambda c: c.search(LONG), LONG_MESSAGE),
    (lambda c: c.search("   "), BLANK_MESSAGE),
    (lambda c: c.search("lighthouse", where=DEEP), DEEP_MESSAGE),
    (lambda c: c.search("lighthouse", exclude=["a#0"] * (MAX_IDS + 1)), IDS_MESSAGE),
    (lambda c: c.run(LONG), LONG_MESSAGE),
    (lambda c: c.run("lighthouse", rollouts=MAX_ROLLOUTS + 1), ROLLOUTS_MESSAGE),
    (lambda c: c.run("lighthouse", max_documents=AgentConfig().max_documents + 1), SIZE_MESSAGE),
])
def test_client(server, call, message):
    with Client(server, timeout=60) as client, pytest.raises(ValueError) as caught:
        call(client)
    assert message in str(caught.value)


def test_fewer_documents_and_passages_per_request_over_http(server):
    with Client(server, timeout=60) as client:
        full = client.run("lighthouse keeper")
        cut = client.run("lighthouse keeper", max_documents=1, max_passages=1)
    assert len(full.documents) > 1 and cut.doc_ids == full.doc_ids[:1] and len(cut.evidence) == 1


# ---------------------------------------------------------------- MCP

MCP_CASES = [
    ("search_corpus", {"query": "lighthouse", "k": MAX_K + 1}, K_MESSAGE),
    ("grep_corpus", {"pattern": "lighthouse", "k": MAX_K + 1}, K_MESSAGE),
    ("search_corpus", {"query": LONG}, LONG_MESSAGE),
    ("search_corpus", {"query": "   "}, BLANK_MESSAGE),
    ("search_corpus", {"query": "lighthouse", "exclude": ["a#0"] * (MAX_IDS + 1)}, IDS_MESSAGE),
    ("ask", {"query": LONG}, LONG_MESSAGE),
    ("ask", {"query": "lighthouse", "rollouts": MAX_ROLLOUTS + 1}, ROLLOUTS_MESSAGE),
    ("ask", {"query": "lighthouse", "max_documents": AgentConfig().max_documents + 1}, SIZE_MESSAGE),
]


def test_mcp(harness_corpus):
    async def main():
        async with McpClient(create_mcp(harness_corpus)) as client:
            bad = [await client.call_tool(tool, args) for tool, args, _ in MCP_CASES]
            good = await client.call_tool("search_corpus", {"query": "lighthouse", "k": 2})
            return bad, good

    bad, good = anyio.run(main)
    for (tool, _, message), result in zip(MCP_CASES, bad, strict=True):
        text = " ".join(block.text for block in result.content if getattr(block, "type", "") == "text")
        assert result.is_error and f"invalid arguments for {tool}: {message}" in text, text[:300]
    assert not good.is_error and good.content[0].text.count("<chunk id=") == 2  # k is honoured


def test_the_readme_table_is_the_one_the_code_prints():
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "benchmarks"))
    try:
        import limits_table
    finally:
        sys.path.remove(str(root / "benchmarks"))
    assert limits_table.markdown() in (root / "README.md").read_text(encoding="utf-8")
