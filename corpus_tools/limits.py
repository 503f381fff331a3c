"""The limits of one request, the same on every surface: Python, the CLI, HTTP, `Client` and MCP.

Defined once, here at the bottom of the house, because `Corpus.search` enforces them itself and
corpus_tools imports nothing of ours (DESIGN.md); the agent (`context1.config`), the CLI and the
request models of `context1 serve` / `context1 mcp` (`context1.interfaces.serving`) call these
same checks, so one bad request gets one message wherever it is sent (HTTP: 422 with it as
`detail`; MCP: a tool error; CLI: `error: …`, exit 2; Python and `Client`: a ValueError).
`benchmarks/limits_table.py` prints every limit on every surface.

A filter's size and depth are bounded by `corpus_tools.filters` (re-exported below).
"""

from __future__ import annotations

from typing import Any

from corpus_tools.filters import MAX_IN_VALUES, MAX_VALUE_CHARS, MAX_WHERE_CONDITIONS, MAX_WHERE_DEPTH
from corpus_tools.types import EmptyQueryError

__all__ = [
    "MAX_IDS", "MAX_IN_VALUES", "MAX_K", "MAX_QUERY_CHARS", "MAX_VALUE_CHARS", "MAX_WHERE_CONDITIONS",
    "MAX_WHERE_DEPTH", "check_ids", "check_k", "check_query",
]

# Longest query, question or grep pattern (characters): ~5k tokens, a pasted paragraph or two. A
# whole document is indexed, not searched for.
MAX_QUERY_CHARS = 20_000
# Most hits one search or grep returns. Past the configured candidates (50) the fused pool widens
# to k, so every hit asked for is ranked (and reranked); 1,000 is 20 times that pool and more than
# any evaluation reads (recall@10 over k·5 chunks), and over HTTP ~1 MB of reply. More: page with
# `exclude`.
MAX_K = 1_000
# Most ids one network request lists (`exclude`, `chunk_ids`): ~300 KB of ids, within the 1 MB
# body limit, and the newest 10,000 chunks an MCP session remembers. A Python caller's own list
# is not bounded: its ids are already in its memory.
MAX_IDS = 10_000


def check_query(query: Any, limit: int = MAX_QUERY_CHARS, what: str = "query") -> str:
    """`query` if it is a non-blank string of at most `limit` characters; else ValueError saying why.

    what: the word the message uses ("query"; "pattern" for grep).

    EmptyQueryError (a ValueError) for a blank one: the dense leg would rank every chunk against
    nothing and return confident-looking noise.
    """
    if not isinstance(query, str):
        raise ValueError(f"the {what} must be a string, got {type(query).__name__}")
    if not query.strip():
        raise EmptyQueryError(f"the {what} is empty; give some words to search for")
    if len(query) > limit:
        raise ValueError(
            f"the {what} is {len(query):,} characters long; the limit is {limit:,}: search for a question or "
            "keywords, not a document (index long text with `context1 index` and search it)"
        )
    return query


def check_k(k: Any, name: str = "k") -> int:
    """`k` if it is an int in 1..MAX_K; TypeError for a k that is not an int, ValueError out of range."""
    if isinstance(k, bool) or not isinstance(k, int) and not hasattr(k, "__index__"):
        raise TypeError(f"{name} must be a positive int (how many hits), got {type(k).__name__} {k!r:.40}")
    if not 1 <= k <= MAX_K:
        raise ValueError(f"{name} must be between 1 and {MAX_K:,}, got {k}; for more hits, search again with "
                         "the ones you have in `exclude`")
    return int(k)


def check_ids(ids: Any, name: str = "exclude") -> list[str]:
    """A network request's id list, at most MAX_IDS long (ValueError saying why otherwise)."""
    ids = list(ids)
    if len(ids) > MAX_IDS:
        raise ValueError(f"{name} lists {len(ids):,} ids; a request over the network may list at most {MAX_IDS:,} "
                         "(the body limit); send the most recent ones")
    return ids
