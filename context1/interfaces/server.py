"""`context1 serve`: one index and its search agent over HTTP (FastAPI + uvicorn).

    from context1 import Corpus
    from context1.interfaces.server import create_app
    app = create_app(Corpus.open("my_index"))          # uvicorn.run(app, host="127.0.0.1", port=8765)

Endpoints (OpenAPI docs at `/docs`):

| method, path | what | Python equivalent |
| --- | --- | --- |
| GET `/health` | liveness, index size, backend, episode counters | – |
| POST `/search` `/grep` `/read` `/search_leg` | ranked hits | `Corpus.search` / `grep_report` / `read` / `search_leg` |
| POST `/constraints` | what a question names | `Corpus.question_constraints` |
| GET `/chunk`, `/document`, `/documents`, `/has_doc` | lookups | `Corpus.chunk` / `chunks` + `title` / `doc_ids` / `has_doc` |
| POST `/similarity`, `/count_tokens` | what the agent's policy asks the corpus | `Corpus.similarity` / `count_tokens` |
| POST `/ask` | the agent, run to completion | `SearchAgent.run` |
| POST `/ask/stream` | the agent's events as server-sent events | `SearchAgent.stream` |

Why it is shaped this way:
- Safe to share (`context1.interfaces.guard`): with an API key (`CONTEXT1_API_KEY` or `--api-key-file`) every
  path but `/health` needs `Authorization: Bearer KEY` (401 otherwise); bodies are counted while
  they are read, chunked or not (413 past `max_body_bytes`); at most `max_in_flight` requests are
  handled at once (429 past it); bound to a loopback address, only loopback Host/Origin headers are
  accepted (421/403: DNS rebinding).
- Bad input is the client's fault and says so: validation errors are 422 with a readable
  `detail` (the same models as MCP's tool arguments, `context1.interfaces.serving`; unknown fields are
  errors), an invalid regular expression 400, an unknown id 404, a request past the configured
  time limit 504. No reply quotes more than a short excerpt of the input. A 500 means a bug.
- `/ask` returns the ranked passages (`evidence`: chunk and doc ids, text, page, section, score,
  reason) and the documents ranked from them, with a trimmed trajectory (query, documents,
  evidence, stop reason) by default; `"include_trajectory": true` sends every turn and observation (often 100s of KB).
  `/ask/stream` sends every event as it happens, and the same choice applies to its final event.
- Corpus calls are blocking (embedding, BM25, Chroma); they run on worker threads so one slow
  search never stalls the event loop, and a request past `request_timeout_s` is answered 504 at
  once (the abandoned thread finishes its search and exits; nothing waits on it).
- `ask` episodes run on their own threads (`context1.interfaces.episodes`), at most `max_episodes` at once
  (503 with Retry-After past it), cancelled when the client goes away or past `ask_timeout_s`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Annotated, Any

import anyio
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, Field, StrictStr
from sse_starlette import EventSourceResponse, ServerSentEvent

from context1.agent import SearchAgent
from context1.config import AnswerSizeError
from context1.events import FinalEvent
from context1.interfaces import wire
from context1.interfaces.episodes import EPISODE_THREAD_PREFIX, Episodes, EpisodesBusy, EpisodeTimeout
from context1.interfaces.guard import Guard, GuardConfig, is_loopback
from context1.interfaces.serving import (
    MAX_QUERY_CHARS,
    AskBody,
    ConstraintsBody,
    CountBody,
    GrepBody,
    ReadBody,
    SearchBody,
    SearchLegBody,
    SimilarityBody,
    public_errors,
    shorten,
    validation_message,
)
from context1.version import __version__
from corpus_tools.deadline import deadline
from corpus_tools.types import CorpusError, InvalidPatternError, UnknownDocumentError

__all__ = ["EPISODE_THREAD_PREFIX", "ServerConfig", "create_app", "serve"]


@dataclass(frozen=True)
class ServerConfig:
    """Limits and access of one server process.

    request_timeout_s: longest a search / grep / read / lookup may take before it is answered 504.
    ask_timeout_s: longest one `ask` episode may run (all rollouts); past it the episode is
        cancelled and the client gets an error (a 504, or an `error` event on a stream).
    max_episodes: `ask` episodes running at once; more are answered 503 with Retry-After.
    max_body_bytes: largest request body accepted (413 above it, counted while reading).
    max_in_flight: requests handled at once (429 above it); with max_body_bytes it bounds memory.
    api_key: when set, every path but /health needs `Authorization: Bearer KEY` (401 otherwise).
    host: the address the server binds to; a loopback one turns on the Host/Origin checks.
    """

    request_timeout_s: float = 30.0
    ask_timeout_s: float = 600.0
    max_episodes: int = 16
    max_body_bytes: int = 1 << 20
    max_in_flight: int = 128
    api_key: str | None = None
    host: str = "127.0.0.1"

    def __post_init__(self) -> None:
        for name in ("request_timeout_s", "ask_timeout_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds, got {getattr(self, name)!r}")
        for name in ("max_episodes", "max_body_bytes", "max_in_flight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")

    def guard(self) -> GuardConfig:
        return GuardConfig(api_key=self.api_key, loopback_only=is_loopback(self.host),
                           max_in_flight=self.max_in_flight, max_body_bytes=self.max_body_bytes)


class HitsOut(BaseModel):
    hits: list[dict[str, Any]] = Field(description="corpus_tools.Hit objects, best first.")


# ---------------------------------------------------------------- the app

def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), status_code=status, media_type="application/json",
                    headers=headers)


def _error(status: int, detail: str, kind: str, headers: dict[str, str] | None = None, **extra: Any) -> Response:
    """An error body: `detail` for people, `error` (a fixed code) for programs such as `context1.Client`.

    `detail` is cut to a few hundred characters: messages quote at most an excerpt of the input.
    """
    return _json({"detail": shorten(detail), "error": kind, **extra}, status, headers)


class _Cut(Exception):
    """A request answered with a 4xx/5xx and a message (raised inside handlers)."""

    def __init__(self, status: int, detail: str, kind: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.kind, self.headers = status, detail, kind, headers


_log = logging.getLogger("context1.server")


def _internal_detail(exc: BaseException) -> str:
    """A 500's reply: an id to quote, never the exception's text (it can hold paths, queries or
    secrets); the traceback goes to the server's log under the same id."""
    error_id = uuid.uuid4().hex[:12]
    _log.error("internal error %s", error_id, exc_info=exc)
    return f"internal error {error_id}: a bug in the server; its log has the details under this id"


def create_app(corpus: Any, agent: SearchAgent | None = None, config: ServerConfig | None = None) -> FastAPI:
    """The FastAPI app serving `corpus` and `agent` (default: `SearchAgent(corpus)`, the LLM-free policy)."""
    config = config or ServerConfig()
    agent = agent if agent is not None else SearchAgent(corpus)
    episodes = Episodes(agent, max_episodes=config.max_episodes, timeout_s=config.ask_timeout_s)
    n_documents = len(corpus.doc_ids())

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await episodes.shutdown()

    app = FastAPI(
        title="context1",
        summary="Hybrid search over one index, and the context1 search agent, over HTTP.",
        version=__version__,
        lifespan=lifespan,
    )
    app.state.corpus, app.state.agent, app.state.config, app.state.episodes = corpus, agent, config, episodes
    app.add_middleware(Guard, config=config.guard())

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        errors = list(exc.errors())
        return _error(422, validation_message(errors), "invalid_request", errors=public_errors(errors))

    async def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking corpus call on a worker thread, within the request time limit."""
        def bounded() -> Any:
            # The worker thread stops at its next deadline check once the 504 has been sent.
            with deadline(config.request_timeout_s):
                return fn(*args, **kwargs)

        try:
            with anyio.fail_after(config.request_timeout_s):
                return await anyio.to_thread.run_sync(bounded, abandon_on_cancel=True)
        except TimeoutError:
            raise _Cut(504, f"{getattr(fn, '__name__', 'the call')} took longer than the server's limit of "
                            f"{config.request_timeout_s:g} s and was abandoned; retry, or raise --request-timeout",
                       "timeout") from None
        except InvalidPatternError as exc:
            raise _Cut(400, f"invalid regular expression: {exc} (grep uses RE2 syntax)", "invalid_pattern") from None
        except UnknownDocumentError as exc:
            raise _Cut(404, str(exc), "unknown_id") from None
        except (CorpusError, ValueError, TypeError) as exc:
            raise _Cut(400, str(exc), "invalid_request") from None

    @app.exception_handler(_Cut)
    async def _cut(request: Request, exc: _Cut) -> Response:
        return _error(exc.status, exc.detail, exc.kind, exc.headers)

    @app.exception_handler(Exception)
    async def _failed(request: Request, exc: Exception) -> Response:
        return _error(500, _internal_detail(exc), "internal")

    def hits(found: list[Any]) -> Response:
        return _json({"hits": [wire.hit_to_json(h) for h in found]})

    @app.get("/health", summary="Liveness, index size, backend and episode counters (no API key needed)")
    async def health() -> dict[str, Any]:
        # No index path here: /health answers without a key, and a path tells a stranger about the host.
        return {"status": "ok", "documents": n_documents,
                "chunks": len(corpus), "backend": getattr(agent.backend, "name", type(agent.backend).__name__),
                "episodes": episodes.counters.snapshot(), "auth": config.api_key is not None,
                "tokenizer": _tokenizer_name(corpus)}

    @app.post("/search", response_model=HitsOut, summary="Hybrid search (BM25 ∥ dense, RRF, rerank)")
    async def search(body: SearchBody) -> Response:
        return hits(await call(corpus.search, body.query, k=body.k, exclude=body.exclude,
                               token_budget=body.token_budget, where=body.where,
                               **({"constraints": body.constraints} if body.constraints is not None else {})))

    @app.post("/search_leg", response_model=HitsOut, summary="One leg of hybrid search alone (bm25 or dense)")
    async def search_leg(body: SearchLegBody) -> Response:
        return hits(await call(corpus.search_leg, body.query, body.leg, k=body.k, exclude=body.exclude,
                               where=body.where))

    @app.post("/grep", response_model=HitsOut, summary="Chunks matching an RE2 regular expression")
    async def grep(body: GrepBody) -> Response:
        # `complete`, `scanned`, `total`, `capped`: Corpus.grep_report's account of the bounded scan.
        found = await call(corpus.grep_report, body.pattern, k=body.k, exclude=body.exclude)
        return _json({"hits": [wire.hit_to_json(h) for h in found.hits], "complete": found.complete,
                      "scanned": found.scanned, "total": found.total, "capped": found.capped})

    @app.post("/constraints", summary="The company, period and form a question names (Corpus.question_constraints)")
    async def constraints(body: ConstraintsBody) -> Response:
        return _json(await call(corpus.question_constraints, body.query))

    @app.post("/read", response_model=HitsOut, summary="A document's chunks, in order or by relevance to a query")
    async def read(body: ReadBody) -> Response:
        return hits(await call(corpus.read, body.doc_id, query=body.query, token_budget=body.token_budget))

    @app.get("/chunk", summary="One chunk by id")
    async def chunk(chunk_id: Annotated[StrictStr, Query(min_length=1, max_length=MAX_QUERY_CHARS)]) -> Response:
        return _json(wire.chunk_to_json(await call(corpus.chunk, chunk_id)))

    @app.get("/document", summary="A document's title and chunks")
    async def document(doc_id: Annotated[StrictStr, Query(min_length=1, max_length=MAX_QUERY_CHARS)]) -> Response:
        chunks = await call(corpus.chunks, doc_id)
        return _json({"doc_id": doc_id, "title": corpus.title(doc_id),
                      "chunks": [wire.chunk_to_json(c) for c in chunks]})

    @app.get("/has_doc", summary="Whether a document id is in the index (one id, not the whole list)")
    async def has_doc(doc_id: Annotated[StrictStr, Query(min_length=1, max_length=MAX_QUERY_CHARS)]) -> Response:
        return _json({"doc_id": doc_id, "exists": bool(corpus.has_doc(doc_id))})

    @app.get("/documents", summary="Every document id")
    async def documents() -> Response:
        return _json({"doc_ids": corpus.doc_ids()})

    @app.post("/similarity", summary="Cosine similarity of a query to chunks (stored vectors)")
    async def similarity(body: SimilarityBody) -> Response:
        values = await call(corpus.similarity, body.query, body.chunk_ids)
        return _json({"scores": [float(v) for v in values]})

    @app.post("/count_tokens", summary="Tokens of a text in the index's tokenizer")
    async def count_tokens(body: CountBody) -> Response:
        return _json({"tokens": await call(corpus.count_tokens, body.text)})

    def start_episode(body: AskBody) -> Any:
        try:  # a request the agent would refuse is the client's error (4xx), not a failed episode
            return episodes.start(body.query, body.rollouts, body.max_documents, body.max_passages)
        except AnswerSizeError as exc:  # past the serving agent's sizes: a limit like k's, with Python's message
            raise _Cut(422, str(exc), "invalid_request") from None
        except ValueError as exc:
            raise _Cut(400, str(exc), "invalid_request") from None
        except EpisodesBusy as exc:
            raise _Cut(503, str(exc), "busy", {"Retry-After": "5"}) from None

    @app.post("/ask", summary="Run the search agent to completion (SearchAgent.run)")
    async def ask(body: AskBody) -> Response:
        episode = start_episode(body)
        try:
            async for event in episode.events():
                if isinstance(event, FinalEvent):
                    return _json(wire.result_to_json(event.result, include_trajectory=body.include_trajectory))
            raise RuntimeError("the agent's stream ended without a final event")
        except EpisodeTimeout as exc:
            return _error(504, str(exc), "timeout")

    @app.post("/ask/stream", summary="Stream the search agent's events (SearchAgent.stream) as server-sent events",
              response_class=EventSourceResponse)
    async def ask_stream(body: AskBody, request: Request) -> EventSourceResponse:
        episode = start_episode(body)

        async def sse() -> AsyncIterator[ServerSentEvent]:
            # Cancelled by sse-starlette when the client disconnects: `events()` then stops the episode.
            try:
                async for event in episode.events():
                    if isinstance(event, FinalEvent):
                        event = FinalEvent(result=wire.trimmed(event.result, body.include_trajectory))
                    name, data = wire.event_to_json(event)
                    yield ServerSentEvent(data=json.dumps(data, ensure_ascii=False), event=name)
            except EpisodeTimeout as exc:
                yield ServerSentEvent(data=json.dumps({"status": 504, "detail": str(exc), "error": "timeout"}),
                                      event=wire.ERROR_EVENT)
            except Exception as exc:  # noqa: BLE001 - a stream has no status code left to change
                yield ServerSentEvent(data=json.dumps({"status": 500, "detail": _internal_detail(exc),
                                                       "error": "internal"}), event=wire.ERROR_EVENT)
            finally:
                episode.stop()

        return EventSourceResponse(sse(), ping=15)

    return app


def _tokenizer_name(corpus: Any) -> str | None:
    """The embedding model whose tokenizer counts the index's tokens: a client on a machine that has it
    counts locally instead of asking here for every text (training.distributed)."""
    model = getattr(getattr(corpus, "config", None), "embedding_model", None)
    return None if model is None else str(model)


def serve(corpus: Any, agent: SearchAgent | None = None, config: ServerConfig | None = None, *,
          host: str | None = None, port: int = 8765, log_level: str = "info") -> None:
    """Serve until interrupted (what `context1 serve` calls). host: default `config.host`."""
    import dataclasses

    import uvicorn

    config = config or ServerConfig()
    if host is not None and host != config.host:
        config = dataclasses.replace(config, host=host)
    uvicorn.run(create_app(corpus, agent, config), host=config.host, port=port, log_level=log_level)
