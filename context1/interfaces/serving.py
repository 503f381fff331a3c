"""What the HTTP server and the MCP server share: limits, request models and error text.

One validation layer for every network interface: `context1 serve` validates its JSON bodies and
`context1 mcp` its tool arguments with the pydantic models below, so a request one accepts the
other accepts too, with the same limits, and an unknown field is an error in both (not a silently
ignored default). Messages name the field and the limit but never repeat the caller's input past
a short excerpt (`excerpt`): a 20 MB query must not come back as a 20 MB error.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, ValidationError, field_validator

from context1.config import AgentConfig

_AGENT = AgentConfig()
# Longest query / pattern / id accepted (characters): AgentConfig.max_argument_chars, the harness's
# own limit, so a request the server accepts is one the agent could also have made.
MAX_QUERY_CHARS = _AGENT.max_argument_chars
# Hits per call over the network (Corpus.search itself takes up to corpus_tools.types.MAX_SEARCH_K):
# 200 hits of 256-token chunks is a ~200 KB reply, and more than any agent context holds.
MAX_K = 200
# Ids in an exclude / chunk_ids list: a whole 32k-token context is ~120 chunks, so 1,000 is every
# chunk a long session could have seen; more is a runaway client (and 2 MB of ids at 2,000 chars).
MAX_IDS = 1_000
MAX_PRUNE_IDS = _AGENT.max_prune_ids  # prune_chunks, as the harness allows
MAX_TEXT_CHARS = 200_000  # text per count_tokens call (~50k tokens, more than any context)
MAX_ROLLOUTS = 16  # k× mode per ask request (the reference used 4×)
EXCERPT_CHARS = 60  # of the caller's input quoted in an error message


def excerpt(value: Any, n: int = EXCERPT_CHARS) -> str:
    """A short, one-line quote of `value` for an error message (its length when cut)."""
    text = value if isinstance(value, str) else repr(value)
    flat = " ".join(text.split())
    if len(flat) <= n:
        return repr(flat)
    return f"{flat[: n - 1]!r}… ({len(text):,} characters)"


def shorten(message: str, n: int = 500) -> str:
    """An error message cut to `n` characters (a safety net for texts that quote input)."""
    return message if len(message) <= n else message[: n - 1] + "…"


def _where(loc: Any) -> str:
    """A field path for a message; each part cut short (an unknown field's name is the caller's input too)."""
    parts = [str(p) if len(str(p)) <= 40 else str(p)[:39] + "…" for p in loc or () if p != "body"]
    return ".".join(parts) or "body"


def validation_message(errors: list[dict[str, Any]]) -> str:
    """`field: what is wrong; …` of pydantic errors, without the rejected values."""
    parts = []
    for err in errors:
        where = _where(err.get("loc"))
        if err.get("type") == "extra_forbidden":
            parts.append(f"{where}: unknown field (check its spelling)")
        elif err.get("type") == "json_invalid":
            at = next((p for p in err.get("loc", ()) if isinstance(p, int)), None)
            parts.append("the body is not valid JSON" + (f" (at character {at})" if at is not None else ""))
        else:
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return shorten("; ".join(dict.fromkeys(parts)) or "invalid request")


def public_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """pydantic errors as JSON, each rejected value cut to an excerpt (never the whole input)."""
    out = []
    for err in errors[:20]:
        item = {"type": err.get("type"), "loc": _where(err.get("loc")).split("."), "msg": err.get("msg")}
        if "input" in err:
            item["input"] = excerpt(err["input"])
        out.append(item)
    return out


def _not_blank(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise ValueError("must not be blank")
    return value


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, not a silent default


Text = Annotated[StrictStr, Field(min_length=1, max_length=MAX_QUERY_CHARS)]
IdList = Annotated[list[Text], Field(max_length=MAX_IDS)]


# ---------------------------------------------------------------- HTTP bodies (context1 serve)

class SearchBody(_Body):
    query: Text = Field(description="What to search for (keywords or a question).")
    k: StrictInt = Field(10, ge=1, le=MAX_K, description=f"Most hits to return (1 to {MAX_K}).")
    exclude: IdList = Field(default_factory=list, description="Chunk ids never to return (already seen).")
    token_budget: StrictInt | None = Field(None, ge=1, description="Cut the hits to fit this many tokens.")
    where: dict[str, Any] | None = Field(
        None, description='Filter on document metadata, Chroma syntax: {"file_name": "q3.pdf"}, '
                          '{"year": {"$gte": 2022}}.')
    constraints: Literal["auto"] | dict[str, Any] | None = Field(
        None, description='Prefer the documents the query names: "auto" reads company, period and form from the '
                          'query; or metadata values such as {"company": ["Apple Inc."], "period_end": ["2023-07-01"]}.')

    _check = field_validator("query")(_not_blank)


class GrepBody(_Body):
    pattern: Text = Field(description='An RE2 regular expression, e.g. "(?i)lighthouse".')
    k: StrictInt = Field(5, ge=1, le=MAX_K)
    exclude: IdList = Field(default_factory=list)


class ReadBody(_Body):
    doc_id: Text
    query: Text | None = Field(None, description="Order the chunks by relevance to this query.")
    token_budget: StrictInt | None = Field(None, ge=1)

    _check = field_validator("query")(_not_blank)


class SimilarityBody(_Body):
    query: Text
    chunk_ids: IdList


class CountBody(_Body):
    text: Annotated[StrictStr, Field(max_length=MAX_TEXT_CHARS)]


class AskBody(_Body):
    query: Text = Field(description="The question to find supporting documents for.")
    rollouts: StrictInt | None = Field(None, ge=1, le=MAX_ROLLOUTS, description="k× mode; default: the server's.")
    include_trajectory: StrictBool = Field(
        False, description="Send each rollout's turns and observations (often 100s of KB). Default false: "
                           "`trajectory` and `rollouts` then carry the query, stop reason and documents only.")

    _check = field_validator("query")(_not_blank)


# ---------------------------------------------------------------- MCP tool arguments (context1 mcp)

class SearchCorpusArgs(_Body):
    query: Text
    exclude: IdList | None = None
    include_seen: StrictBool = False

    _check = field_validator("query")(_not_blank)


class GrepCorpusArgs(_Body):
    pattern: Text
    exclude: IdList | None = None
    include_seen: StrictBool = False


class ReadDocumentArgs(_Body):
    doc_id: Text
    query: Text | None = None


class PruneChunksArgs(_Body):
    chunk_ids: Annotated[list[Text], Field(min_length=1, max_length=MAX_PRUNE_IDS)]


class AskArgs(_Body):
    query: Text
    rollouts: StrictInt = Field(1, ge=1, le=MAX_ROLLOUTS)

    _check = field_validator("query")(_not_blank)


MCP_ARGUMENTS: dict[str, type[_Body]] = {
    "search_corpus": SearchCorpusArgs,
    "grep_corpus": GrepCorpusArgs,
    "read_document": ReadDocumentArgs,
    "prune_chunks": PruneChunksArgs,
    "ask": AskArgs,
}


def check_arguments(model: type[_Body], arguments: dict[str, Any]) -> _Body:
    """`model` validated from `arguments`; ValueError with `validation_message` when they are wrong."""
    try:
        return model.model_validate(arguments)
    except ValidationError as exc:
        raise ValueError(validation_message(exc.errors())) from None
