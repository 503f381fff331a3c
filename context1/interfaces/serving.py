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

from context1.config import MAX_ROLLOUTS, AgentConfig, check_rollouts
from corpus_tools.filters import check_where
from corpus_tools.limits import MAX_IDS, MAX_K, MAX_QUERY_CHARS, check_ids, check_k, check_query

_AGENT = AgentConfig()
# The limits of a request are corpus_tools.limits' (MAX_QUERY_CHARS, MAX_K, MAX_IDS, the filter's
# bounds) and context1.config's MAX_ROLLOUTS: the same numbers and messages as in Python and the CLI.
# What only a network surface takes:
MAX_PRUNE_IDS = _AGENT.max_prune_ids  # prune_chunks, as the harness allows
MAX_TEXT_CHARS = 200_000  # text per count_tokens call (~50k tokens, more than any context)
EXCERPT_CHARS = 60  # of the caller's input quoted in an error message
# A request's answer sizes are checked against the serving agent's config (`SearchAgent.check_request`),
# with the message Python gives: the bound is the server's, so no model here can hold it.
_SIZE_HELP = "Return at most this many {what} (1 to the server's agent's number; default: all it returns)."


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
        if err.get("type") == "value_error":  # a corpus_tools.limits check: its message is the contract's own
            parts.append(str(err.get("ctx", {}).get("error", err.get("msg", "invalid"))))
        elif err.get("type") == "extra_forbidden":
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


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, not a silent default


# The limit checks, as pydantic validators: a ValueError's text becomes the reply's `detail` as is.
def _query(value: str | None) -> str | None:
    return value if value is None else check_query(value)


def _pattern(value: str) -> str:
    return check_query(value, what="pattern")


def _k(value: int) -> int:
    return check_k(value)


def _exclude(value: list[str] | None) -> list[str] | None:
    return value if value is None else check_ids(value, "exclude")


def _chunk_ids(value: list[str]) -> list[str]:
    return check_ids(value, "chunk_ids")


def _where_filter(value: dict[str, Any] | None) -> dict[str, Any] | None:
    return check_where(value)


def _rollouts(value: int | None) -> int | None:
    return value if value is None else check_rollouts(value)


Text = Annotated[StrictStr, Field(min_length=1, max_length=MAX_QUERY_CHARS)]  # an id: 404 when unknown
# Length and blankness are checked by check_query and check_ids (their messages are the contract's);
# the schema still documents the bounds for OpenAPI readers.
Query = Annotated[StrictStr, Field(json_schema_extra={"minLength": 1, "maxLength": MAX_QUERY_CHARS})]
IdList = Annotated[list[Text], Field(json_schema_extra={"maxItems": MAX_IDS})]
_K_RANGE = {"minimum": 1, "maximum": MAX_K}


# ---------------------------------------------------------------- HTTP bodies (context1 serve)

class SearchBody(_Body):
    query: Query = Field(description=f"What to search for (keywords or a question; at most {MAX_QUERY_CHARS:,} characters).")
    k: StrictInt = Field(10, description=f"Most hits to return (1 to {MAX_K:,}).", json_schema_extra=_K_RANGE)
    exclude: IdList = Field(default_factory=list,
                            description=f"Chunk ids never to return (already seen; at most {MAX_IDS:,}).")
    token_budget: StrictInt | None = Field(None, ge=1, description="Cut the hits to fit this many tokens.")
    where: dict[str, Any] | None = Field(
        None, description='Filter on document metadata, Chroma syntax: {"file_name": "q3.pdf"}, '
                          '{"year": {"$gte": 2022}}.')
    constraints: Literal["auto"] | dict[str, Any] | None = Field(
        None, description='Prefer the documents the query names: "auto" reads company, period and form from the '
                          'query; or metadata values such as {"company": ["Apple Inc."], "period_end": ["2023-07-01"]}.')

    _q = field_validator("query")(_query)
    _k = field_validator("k")(_k)
    _x = field_validator("exclude")(_exclude)
    _w = field_validator("where")(_where_filter)


class GrepBody(_Body):
    pattern: Query = Field(description='An RE2 regular expression, e.g. "(?i)lighthouse".')
    k: StrictInt = Field(5, description=f"Most hits to return (1 to {MAX_K:,}).", json_schema_extra=_K_RANGE)
    exclude: IdList = Field(default_factory=list)

    _p = field_validator("pattern")(_pattern)
    _k = field_validator("k")(_k)
    _x = field_validator("exclude")(_exclude)


class SearchLegBody(_Body):
    query: Query = Field(description="What to search for.")
    leg: Literal["bm25", "dense"] = Field(description="One leg of hybrid search alone.")
    k: StrictInt = Field(10, description=f"Most hits to return (1 to {MAX_K:,}).", json_schema_extra=_K_RANGE)
    exclude: IdList = Field(default_factory=list)
    where: dict[str, Any] | None = None

    _q = field_validator("query")(_query)
    _k = field_validator("k")(_k)
    _x = field_validator("exclude")(_exclude)
    _w = field_validator("where")(_where_filter)


class ConstraintsBody(_Body):
    query: Query = Field(description="A question; the company, period and form it names are read from it.")

    _q = field_validator("query")(_query)


class ReadBody(_Body):
    doc_id: Text
    query: Query | None = Field(None, description="Order the chunks by relevance to this query.")
    token_budget: StrictInt | None = Field(None, ge=1)

    _q = field_validator("query")(_query)


class SimilarityBody(_Body):
    query: Query
    chunk_ids: IdList

    _q = field_validator("query")(_query)
    _c = field_validator("chunk_ids")(_chunk_ids)


class CountBody(_Body):
    text: Annotated[StrictStr, Field(max_length=MAX_TEXT_CHARS)]


class AskBody(_Body):
    query: Query = Field(description="The question to find supporting documents for.")
    rollouts: StrictInt | None = Field(None, description=f"k× mode, 1 to {MAX_ROLLOUTS}; default: the server's.")
    include_trajectory: StrictBool = Field(
        False, description="Send each rollout's turns and observations (often 100s of KB). Default false: "
                           "`trajectory` and `rollouts` then carry the query, stop reason and documents only.")
    max_documents: StrictInt | None = Field(None, description=_SIZE_HELP.format(what="documents"))
    max_passages: StrictInt | None = Field(None, description=_SIZE_HELP.format(what="passages"))

    _q = field_validator("query")(_query)
    _r = field_validator("rollouts")(_rollouts)


# ---------------------------------------------------------------- MCP tool arguments (context1 mcp)

class SearchCorpusArgs(_Body):
    query: Query
    k: StrictInt | None = None  # default: the agent's search_k
    exclude: IdList | None = None
    include_seen: StrictBool = False

    _q = field_validator("query")(_query)
    _k = field_validator("k")(lambda v: v if v is None else check_k(v))
    _x = field_validator("exclude")(_exclude)


class GrepCorpusArgs(_Body):
    pattern: Query
    k: StrictInt | None = None  # default: the agent's grep_k
    exclude: IdList | None = None
    include_seen: StrictBool = False

    _p = field_validator("pattern")(_pattern)
    _k = field_validator("k")(lambda v: v if v is None else check_k(v))
    _x = field_validator("exclude")(_exclude)


class ReadDocumentArgs(_Body):
    doc_id: Text
    query: Query | None = None

    _q = field_validator("query")(_query)


class PruneChunksArgs(_Body):
    chunk_ids: Annotated[list[Text], Field(min_length=1, max_length=MAX_PRUNE_IDS)]


class AskArgs(_Body):
    query: Query
    rollouts: StrictInt = 1
    max_documents: StrictInt | None = None
    max_passages: StrictInt | None = None

    _q = field_validator("query")(_query)
    _r = field_validator("rollouts")(_rollouts)


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
