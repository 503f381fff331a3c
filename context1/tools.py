"""The four tools: schemas, argument validation, corpus calls and rendering.

A tool call goes through three pure-ish stages so that one turn's calls can hit the corpus in
parallel yet be sized against the budget one after the other, in call order:

1. `validate_call(call, config)` → a `ToolRequest`, or the error text for the model;
2. `fetch(corpus, request, runtime)` → the raw hits (thread-safe; the only slow part);
3. `render_hits(...)` → the observation text, its chunk spans and the chunks shown.

The model's arguments (`ToolRequest.argument`) are kept apart from the harness's runtime
overrides (`Runtime`: excluded chunk ids, how many candidates to fetch, the query used for
reranking read_document), as in harness-1. Tools return text for the model plus metadata for the
code; failures become text starting with "Error: ", never exceptions.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from context1 import prompts
from context1.config import AgentConfig
from context1.prompts import GREP_CORPUS, PRUNE_CHUNKS, READ_DOCUMENT, SEARCH_CORPUS, TOOL_NAMES
from context1.types import ToolCall

# The one argument each tool takes, and its JSON type.
_ARGUMENT = {
    SEARCH_CORPUS: ("query", "string"),
    GREP_CORPUS: ("pattern", "string"),
    READ_DOCUMENT: ("doc_id", "string"),
    PRUNE_CHUNKS: ("chunk_ids", "array"),
}


def tool_schemas(config: AgentConfig, reranked: bool = False) -> list[dict[str, Any]]:
    """The four tools as OpenAI-style function schemas (chat-completions `tools=`).

    reranked: the corpus reranks search results; only then does search_corpus say so.
    """
    params = {
        SEARCH_CORPUS: {"query": {"type": "string", "description": "What to search for (keywords or a question)."}},
        GREP_CORPUS: {"pattern": {"type": "string", "description": "An RE2 regular expression, e.g. \"(?i)acme corp\"."}},
        READ_DOCUMENT: {"doc_id": {"type": "string", "description": "The doc attribute of a chunk you were shown."}},
        PRUNE_CHUNKS: {
            "chunk_ids": {
                "type": "array",
                "items": {"type": "string"},
                "description": "The id attributes of the chunks to remove from your context.",
            }
        },
    }
    return [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": prompts.TOOL_DESCRIPTIONS[name].format(
                    grep_k=config.grep_k, reranked=prompts.RERANKED if reranked else ""
                ),
                "parameters": {
                    "type": "object",
                    "properties": params[name],
                    "required": [_ARGUMENT[name][0]],
                    "additionalProperties": False,
                },
            },
        }
        for name in TOOL_NAMES
    ]


@dataclass(frozen=True)
class ToolRequest:
    """A validated call: the tool, its one argument, and notes for the model (ignored keys)."""

    call: ToolCall
    tool: str
    argument: str | tuple[str, ...]
    notes: tuple[str, ...] = ()


def _error(text: str) -> str:
    return text if text.startswith(prompts.ERROR_PREFIX) else prompts.ERROR_PREFIX + text


def validate_call(call: ToolCall, config: AgentConfig) -> ToolRequest | str:
    """Check a call's name and arguments; returns the request or the error text for the model."""
    if call.name not in _ARGUMENT:
        return _error(f"unknown tool {call.name!r}. Available tools: {', '.join(TOOL_NAMES)}.")
    key, kind = _ARGUMENT[call.name]
    if call.parse_error is not None:
        raw = call.raw_arguments if len(call.raw_arguments) <= 200 else call.raw_arguments[:200] + "…"
        return _error(
            f"could not parse the arguments of {call.name} as a JSON object ({call.parse_error}). "
            f'Arguments received: {raw!r}. Expected {{"{key}": <{kind}>}}.'
        )
    args = call.arguments
    if not isinstance(args, Mapping):
        return _error(f'the arguments of {call.name} must be a JSON object like {{"{key}": <{kind}>}}.')
    if key not in args:
        return _error(f'{call.name} needs the argument "{key}" ({kind}); got {sorted(args) or "none"}.')
    notes: tuple[str, ...] = ()
    extra = sorted(k for k in args if k != key)
    if extra:
        notes = (f"[Ignored unknown argument(s) {', '.join(map(repr, extra))}: {call.name} takes only {key!r}.]",)
    value = args[key]
    if kind == "string":
        if not isinstance(value, str):
            return _error(f'"{key}" of {call.name} must be a string, got {type(value).__name__}.')
        value = unescape_entities(value).strip()
        if not value:
            return _error(f'"{key}" of {call.name} is empty.')
        if len(value) > config.max_argument_chars:
            return _error(
                f'"{key}" of {call.name} is {len(value):,} characters long; the limit is {config.max_argument_chars:,}.'
            )
        return ToolRequest(call=call, tool=call.name, argument=value, notes=notes)
    # prune_chunks: a list of chunk ids (a single string is accepted as a one-element list).
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        return _error(f'"chunk_ids" of prune_chunks must be a list of strings, got {value!r:.200}.')
    ids = tuple(dict.fromkeys(unescape_entities(v).strip() for v in value if v.strip()))
    if not ids:
        return _error("prune_chunks needs at least one chunk id.")
    if len(ids) > config.max_prune_ids:
        return _error(f"prune_chunks got {len(ids):,} ids; at most {config.max_prune_ids:,} per call.")
    if any(len(v) > config.max_argument_chars for v in ids):
        return _error(f"a chunk id given to prune_chunks is longer than {config.max_argument_chars:,} characters.")
    return ToolRequest(call=call, tool=PRUNE_CHUNKS, argument=ids, notes=notes)


_ENTITY = re.compile(r"&(?:#\d{1,6}|#[xX][0-9a-fA-F]{1,6}|quot|amp|lt|gt|apos);")


def unescape_entities(value: str) -> str:
    """HTML character references in an argument, decoded (`&#34;` → `"`).

    The observation format writes no entities the model should copy (prompts.py), but a server's
    chat template may HTML-escape the prompt (a Jinja environment with autoescape) and a model
    copies what it saw; no query, pattern or id means a literal `&#34;`.
    """
    return html.unescape(value) if "&" in value and _ENTITY.search(value) else value


@dataclass(frozen=True)
class Runtime:
    """Harness-side overrides of a corpus call, kept apart from the model's arguments."""

    exclude: frozenset[str] = frozenset()
    fetch_k: int = 10
    rerank_query: str | None = None
    # The question's constraints (issue 35), passed to every search_corpus call; None: unconstrained.
    constraints: Mapping[str, Any] | None = None
    # Re-found chunks (issue 34): a search_corpus call with exclusions also asks the corpus for the top
    # `refind_k` of the same query without them, so the harness can tell which chunks already shown the
    # search matched again, and at what rank (`Fetched.ranking`). 0: not asked.
    refind_k: int = 0


@dataclass
class Fetched:
    """The raw outcome of one corpus call."""

    hits: list[Any] = field(default_factory=list)  # corpus_tools Hit
    error: str | None = None
    corpus_s: float = 0.0  # wall time of the corpus call
    cpu_s: float = 0.0  # CPU time of the calling thread during the call (harness-overhead accounting)
    notes: list[str] = field(default_factory=list)
    doc_id: str | None = None  # read_document: the document actually read
    doc_chunks: int = 0  # read_document: how many chunks the document has
    exception: str | None = None  # an unexpected corpus failure, recorded in the observation's metadata
    # search_corpus with `Runtime.refind_k`: the query's own ranking (chunk ids, best first) with nothing excluded,
    # the chunks shown before included; None when not asked. `ranking_error`: why that ranking failed (the
    # search's own hits stand).
    ranking: tuple[str, ...] | None = None
    ranking_error: str | None = None


def fetch(corpus: Any, request: ToolRequest, runtime: Runtime) -> Fetched:
    """Run a search/grep/read request against the corpus. Never raises for bad input."""
    from corpus_tools.types import CorpusError, InvalidPatternError, UnknownDocumentError

    t0, c0 = time.perf_counter(), time.thread_time()
    out = Fetched()
    try:
        if request.tool == SEARCH_CORPUS:
            extra = {"constraints": dict(runtime.constraints)} if runtime.constraints else {}
            if runtime.refind_k and runtime.exclude and _pairs(corpus):
                out.hits, out.ranking, out.ranking_error = _search_pair(corpus, request.argument, runtime, extra)
            else:
                probe = None
                if runtime.refind_k and runtime.exclude:  # alongside the search: no wait where cores are free
                    probe = _PROBES.submit(_unexcluded_ranking, corpus, request.argument, runtime, extra)
                out.hits = list(corpus.search(request.argument, k=runtime.fetch_k, exclude=runtime.exclude, **extra))
                if probe is not None:
                    out.ranking, out.ranking_error = probe.result()
                elif runtime.refind_k:  # nothing excluded: the search's own order is the ranking
                    out.ranking = tuple(h.chunk.chunk_id for h in out.hits[: runtime.refind_k])
        elif request.tool == GREP_CORPUS:
            out.hits = list(corpus.grep(request.argument, k=runtime.fetch_k, exclude=runtime.exclude))
        elif request.tool == READ_DOCUMENT:
            doc_id = str(request.argument)
            if not corpus.has_doc(doc_id):
                doc_id = _doc_of_chunk(corpus, doc_id)
                if doc_id is None:
                    out.error = _error(
                        f"unknown document id {request.argument!r}. Use the doc attribute of a chunk you were shown."
                    )
                    return out
                out.notes.append(f"[{request.argument!r} is a chunk id; reading its document {doc_id!r}.]")
            out.doc_id = doc_id
            out.hits = list(corpus.read(doc_id, query=runtime.rerank_query))
            out.doc_chunks = len(out.hits)
        else:  # prune_chunks never reaches the corpus
            raise ValueError(f"fetch() handles {SEARCH_CORPUS}, {GREP_CORPUS}, {READ_DOCUMENT}; got {request.tool!r}")
    except InvalidPatternError as exc:
        out.error = _error(f"invalid regular expression {request.argument!r}: {exc}. grep_corpus uses RE2 syntax.")
    except UnknownDocumentError as exc:
        out.error = _error(f"unknown document id {request.argument!r} ({exc}).")
    except CorpusError as exc:
        out.error = _error(f"{request.tool} failed: {exc}")
    except Exception as exc:  # noqa: BLE001 - a store failure (e.g. a Chroma server hiccup) is a tool failure
        out.error = _error(f"{request.tool} failed ({type(exc).__name__}: {exc}). You may retry or conclude.")
        out.exception = f"{type(exc).__name__}: {exc}"
    finally:
        out.corpus_s = time.perf_counter() - t0
        out.cpu_s = time.thread_time() - c0
    return out


def _pairs(corpus: Any) -> bool:
    """Whether the corpus's own class offers `search_pair` (corpus_tools.Corpus does). Asked of the class, not the
    object: a wrapper that forwards unknown attributes to a corpus (a proxy counting or failing searches) must see
    its own `search` called, so it gets the two calls below."""
    return callable(getattr(type(corpus), "search_pair", None))


def _search_pair(
    corpus: Any, query: str, runtime: Runtime, extra: Mapping[str, Any]
) -> tuple[list[Any], tuple[str, ...] | None, str | None]:
    """The search and its query's top `runtime.refind_k` with nothing excluded, in one corpus call
    (`Corpus.search_pair`: the query is encoded once for both, so the record costs a fraction of a second search;
    each ranking is exactly what its own `search` call returns). Should that call fail, the search alone is asked
    again and only the record is lost, as when the second of two calls fails; bad input fails that search too."""
    try:
        hits, again = corpus.search_pair(query, k=runtime.fetch_k, exclude=runtime.exclude,
                                         unexcluded_k=runtime.refind_k, **extra)
        return list(hits), tuple(h.chunk.chunk_id for h in again), None
    except Exception as exc:  # noqa: BLE001 - the record is optional; the search's own result stands
        error = f"{type(exc).__name__}: {exc}"
    return list(corpus.search(query, k=runtime.fetch_k, exclude=runtime.exclude, **extra)), None, error


# Threads for the re-found probes of a corpus without `search_pair`, shared by every episode (a probe is one corpus
# call, as a search is).
_PROBES = ThreadPoolExecutor(max_workers=8, thread_name_prefix="refound")


def _unexcluded_ranking(
    corpus: Any, query: str, runtime: Runtime, extra: Mapping[str, Any]
) -> tuple[tuple[str, ...] | None, str | None]:
    """The top `runtime.refind_k` chunk ids of `query` with nothing excluded (what the search would have returned
    had nothing been shown before), for a corpus without `search_pair`. The corpus drops excluded chunks before
    fusing its legs, so the excluded search's order cannot tell where a shown chunk would have ranked: a second call
    can. Its failure loses nothing but this record."""
    try:
        again = corpus.search(query, k=runtime.refind_k, exclude=(), **extra)
        return tuple(h.chunk.chunk_id for h in again), None
    except Exception as exc:  # noqa: BLE001 - the record is optional; the search's own result stands
        return None, f"{type(exc).__name__}: {exc}"


def corpus_reranks(corpus: Any) -> bool:
    """Whether `corpus.search` reranks its fused candidates (a reranker other than "none" is set)."""
    return str(getattr(getattr(corpus, "reranker", None), "name", "none")) != "none"


def _doc_of_chunk(corpus: Any, chunk_id: str) -> str | None:
    from corpus_tools.types import UnknownDocumentError

    if "#" not in chunk_id:
        return None
    try:
        return corpus.chunk(chunk_id).doc_id
    except UnknownDocumentError:
        return None


@dataclass(frozen=True)
class Rendered:
    """An observation's text with the chunks it shows and where they sit in the text."""

    text: str
    hits: tuple[Any, ...]  # the hits shown, in display order
    spans: tuple[tuple[str, int, int], ...]
    omitted: int  # hits left out because they did not fit the budget


def chunk_title(hit: Any, title_of: Callable[[str], str | None]) -> str | None:
    title = hit.chunk.metadata.get("title") if hit.chunk.metadata else None
    return title if title is not None else title_of(hit.chunk.doc_id)


def render_hits(
    hits: Sequence[Any],
    *,
    limit: int,
    budget: int,
    count: Callable[[str], int],
    title_of: Callable[[str], str | None],
    notes: Sequence[str] = (),
) -> Rendered:
    """Render up to `limit` hits, best first, that fit in `budget` tokens.

    Greedy: a chunk that does not fit is skipped and a smaller, lower-ranked one may still fit;
    skipped chunks are not "shown", so later searches can still surface them.
    """
    notes_text = "\n".join(notes)
    used = count(notes_text)
    blocks: list[tuple[Any, str]] = []
    omitted = 0
    for hit in hits:
        if len(blocks) >= limit:
            break
        c = hit.chunk
        block = prompts.render_chunk(c.chunk_id, c.doc_id, chunk_title(hit, title_of), c.text)
        n = count(block) + 1  # + the blank-line separator
        if used + n > budget:
            omitted += 1
            continue
        blocks.append((hit, block))
        used += n
    parts: list[str] = []
    pos = 0
    spans: list[tuple[str, int, int]] = []

    def add(piece: str) -> None:
        nonlocal pos
        if parts:
            parts.append("\n\n")
            pos += 2
        parts.append(piece)
        pos += len(piece)

    for hit, block in blocks:
        start = pos + (2 if parts else 0)
        add(block)
        spans.append((hit.chunk.chunk_id, start, pos))
    if omitted:
        add(prompts.TRUNCATED.format(omitted=omitted))
    if notes_text:
        add(notes_text)
    return Rendered(text="".join(parts), hits=tuple(h for h, _ in blocks), spans=tuple(spans), omitted=omitted)
