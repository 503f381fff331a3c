"""Every limit of a request on every surface (Python, CLI, HTTP, Client, MCP), from the constants that enforce them.

    PYTHONPATH=. .venv/bin/python benchmarks/limits_table.py

The numbers come from corpus_tools.limits, corpus_tools.filters, context1.config and
context1.interfaces.serving / server, so the table cannot drift from the code;
tests/context1/test_limits_contract.py sends each bad request to each surface, and checks that the
README's table is this one.
"""

from __future__ import annotations

from context1.config import MAX_ROLLOUTS, AgentConfig
from context1.interfaces.server import ServerConfig
from context1.interfaces.serving import MAX_PRUNE_IDS, MAX_TEXT_CHARS
from corpus_tools.limits import (
    MAX_IDS,
    MAX_IN_VALUES,
    MAX_K,
    MAX_QUERY_CHARS,
    MAX_VALUE_CHARS,
    MAX_WHERE_CONDITIONS,
    MAX_WHERE_DEPTH,
)

SURFACES = ("Python (`Corpus`, `SearchAgent`)", "CLI", "HTTP (`context1 serve`)", "`Client`", "MCP (`context1 mcp`)")


def rows() -> list[tuple[str, ...]]:
    agent = AgentConfig()
    same = "same"
    query = f"1–{MAX_QUERY_CHARS:,} characters, not blank"
    k = f"1–{MAX_K:,}"
    where = (f"{MAX_WHERE_DEPTH} levels of $and/$or, {MAX_WHERE_CONDITIONS} conditions, "
             f"{MAX_IN_VALUES:,} values per $in/$nin, {MAX_VALUE_CHARS:,} characters per string")
    body = f"{ServerConfig().max_body_bytes // 1024:,} KiB body (413)"
    return [
        ("query, question, grep pattern", query, same, same, same, same),
        ("k (hits of search, grep, search_leg)", k, f"`search -k` {k}", f"`k` {k}", same,
         f"`k` {k} (search_corpus, grep_corpus; default {agent.search_k} / {agent.grep_k})"),
        ("ids per request (`exclude`, `chunk_ids`)", "no limit: the ids are already in the caller's memory", "—",
         f"≤ {MAX_IDS:,}", same, f"≤ {MAX_IDS:,} (`exclude`)"),
        ("filter (`where`)", where, "`--where`: same", same, same, "— (the agent's tools take no filter)"),
        ("rollouts (k× mode)", f"1–{MAX_ROLLOUTS}", f"`--rollouts` 1–{MAX_ROLLOUTS}", same, same, same),
        ("documents / passages per answer", f"`AgentConfig.max_documents` / `max_passages`, ≥ 1 (default "
         f"{agent.max_documents} / {agent.max_passages}); per call (`run`, `stream`) 1 to the config's",
         "`ask --max-documents` / `--max-passages`",
         "`max_documents` / `max_passages` per request, 1 to the server's agent's", same, same),
        ("ids per prune_chunks", f"1–{MAX_PRUNE_IDS} (the harness)", "—", "—", "—", f"1–{MAX_PRUNE_IDS}"),
        ("text per count_tokens", "no limit", "—", f"≤ {MAX_TEXT_CHARS:,} characters", same, "—"),
        ("request size", "—", "—", body, same, f"{body} (HTTP transport)"),
        ("a request past a limit gets", "ValueError (TypeError: a k that is not an int)", "`error: …`, exit 2",
         "422, the message as `detail`", "ValueError, the same message", "a tool error: `invalid arguments for TOOL: …`"),
    ]


def markdown() -> str:
    lines = ["| limit | " + " | ".join(SURFACES) + " |", "|---" * (len(SURFACES) + 1) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows()]
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
