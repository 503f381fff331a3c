"""`context1 serve`: one index and its search agent over HTTP (FastAPI + uvicorn).

    from context1 import Corpus
    from context1.server import create_app
    app = create_app(Corpus.open("my_index"))          # uvicorn.run(app, host="127.0.0.1", port=8765)

Endpoints (OpenAPI docs at `/docs`):

| method, path | what | Python equivalent |
| --- | --- | --- |
| GET `/health` | liveness, index size, backend, episode counters | – |
| POST `/search` `/grep` `/read` | ranked hits | `Corpus.search` / `grep` / `read` |
| GET `/chunk`, `/document`, `/documents` | lookups | `Corpus.chunk` / `chunks` + `title` / `doc_ids` |
| POST `/similarity`, `/count_tokens` | what the agent's policy asks the corpus | `Corpus.similarity` / `count_tokens` |
| POST `/ask` | the agent, run to completion | `SearchAgent.run` |
| POST `/ask/stream` | the agent's events as server-sent events | `SearchAgent.stream` |

Why it is shaped this way:
- Bad input is the client's fault and says so: validation errors are 422 with a readable
  `detail`, an invalid regular expression 400, an unknown id 404, a body over the size limit 413,
  a request past the configured time limit 504. A 500 means a bug.
- Corpus calls are blocking (embedding, BM25, Chroma); they run on worker threads so one slow
  search never stalls the event loop, and a request past `request_timeout_s` is answered 504 at
  once (the abandoned thread finishes its search and exits; nothing waits on it).
- Each `ask` episode runs `SearchAgent.stream` on its own thread and hands events to the
  request through a queue. The thread checks a stop flag between events: when the client goes
  away mid-stream, or the episode runs past `ask_timeout_s`, the flag is set and the thread
  closes the stream, which ends the episode with `StopReason.CANCELLED` (the agent's own
  cleanup) and joins any k× rollout threads. A backend call already under way is not interrupted;
  the episode stops right after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Annotated, Any

import anyio
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, field_validator
from sse_starlette import EventSourceResponse, ServerSentEvent

from context1 import wire
from context1.agent import SearchAgent
from context1.events import Event, FinalEvent
from corpus_tools.types import CorpusError, InvalidPatternError, UnknownDocumentError

# Longest query / pattern / id accepted (characters): AgentConfig.max_argument_chars, the harness's
# own limit, so a request the server accepts is one the agent could also have made.
MAX_QUERY_CHARS = 2_000
MAX_K = 200  # hits per call; Corpus.search fuses the top 50 by default, so more is never useful
MAX_IDS = 10_000  # ids in an exclude / chunk_ids list (a whole 32k-token context is ~120 chunks)
MAX_TEXT_CHARS = 200_000  # text per count_tokens call (~50k tokens, more than any context)
MAX_ROLLOUTS = 16  # k× mode per ask request (the reference used 4×)
EPISODE_THREAD_PREFIX = "context1-serve-episode"


@dataclass(frozen=True)
class ServerConfig:
    """Limits of one server process.

    request_timeout_s: longest a search / grep / read / lookup may take before it is answered 504.
    ask_timeout_s: longest one `ask` episode may run (all rollouts); past it the episode is
        cancelled and the client gets an error (a 504, or an `error` event on a stream).
    max_episodes: `ask` episodes running at once; more are answered 503 with Retry-After.
    max_body_bytes: largest request body accepted (413 above it).
    """

    request_timeout_s: float = 30.0
    ask_timeout_s: float = 600.0
    max_episodes: int = 16
    max_body_bytes: int = 1 << 20

    def __post_init__(self) -> None:
        for name in ("request_timeout_s", "ask_timeout_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds, got {getattr(self, name)!r}")
        for name in ("max_episodes", "max_body_bytes"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")


# ---------------------------------------------------------------- request bodies

def _not_blank(value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise ValueError("must not be blank")
    return value


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, not a silent default


Text = Annotated[StrictStr, Field(min_length=1, max_length=MAX_QUERY_CHARS)]
IdList = Annotated[list[Text], Field(max_length=MAX_IDS)]


class SearchBody(_Body):
    query: Text = Field(description="What to search for (keywords or a question).")
    k: StrictInt = Field(10, ge=1, le=MAX_K, description="Most hits to return.")
    exclude: IdList = Field(default_factory=list, description="Chunk ids never to return (already seen).")
    token_budget: StrictInt | None = Field(None, ge=1, description="Cut the hits to fit this many tokens.")

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

    _check = field_validator("query")(_not_blank)


class HitsOut(BaseModel):
    hits: list[dict[str, Any]] = Field(description="corpus_tools.Hit objects, best first.")


# ---------------------------------------------------------------- episodes

class _Counters:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = self.finished = self.cancelled = self.failed = self.timed_out = 0

    def add(self, **deltas: int) -> None:
        with self.lock:
            for name, delta in deltas.items():
                setattr(self, name, getattr(self, name) + delta)

    def snapshot(self) -> dict[str, int]:
        with self.lock:
            return {"running": self.running, "finished": self.finished, "cancelled": self.cancelled,
                    "failed": self.failed, "timed_out": self.timed_out}


_episode_ids = itertools.count(1)


class _Episode:
    """`SearchAgent.stream` on its own thread, feeding an asyncio queue; `stop()` cancels it.

    on_end: called on the episode's thread once it has stopped (frees the episode's slot only when
    the thread is really gone, so `max_episodes` bounds threads, not requests).
    """

    def __init__(self, agent: SearchAgent, query: str, rollouts: int | None, counters: _Counters,
                 on_end: Callable[[_Episode], None]) -> None:
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue = asyncio.Queue()
        self._stop = threading.Event()
        self._agent, self._query, self._rollouts, self._counters = agent, query, rollouts, counters
        self._on_end = on_end
        self.thread = threading.Thread(target=self._work, name=f"{EPISODE_THREAD_PREFIX}-{next(_episode_ids)}",
                                       daemon=True)

    def start(self) -> None:
        self._counters.add(running=1)
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _put(self, item: tuple[str, Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone (server shutting down): nobody listens
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)

    def _work(self) -> None:
        stream = self._agent.stream(self._query, rollouts=self._rollouts)
        outcome = "failed"
        try:
            for event in stream:
                if self._stop.is_set():
                    outcome = "cancelled"
                    break
                self._put(("event", event))
            else:
                outcome = "finished"
        except Exception as exc:  # noqa: BLE001 - reported to the client as an error event / 500
            self._put(("error", exc))
        finally:
            stream.close()  # a stream left mid-episode finishes it as CANCELLED and joins k× threads
            self._counters.add(running=-1, **{outcome: 1})
            self._put(("done", None))
            self._on_end(self)

    async def events(self, deadline: float) -> AsyncIterator[Event]:
        """The episode's events until its end; TimeoutError past `deadline` (loop time)."""
        while True:
            remaining = deadline - self.loop.time()
            if remaining <= 0:
                raise TimeoutError
            kind, item = await asyncio.wait_for(self.queue.get(), remaining)
            if kind == "done":
                return
            if kind == "error":
                raise item
            yield item


# ---------------------------------------------------------------- the app

def _json(data: Any, status: int = 200) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), status_code=status, media_type="application/json")


def _error(status: int, detail: str, kind: str, **extra: Any) -> Response:
    """An error body: `detail` for people, `error` (a fixed code) for programs such as `context1.Client`."""
    return _json({"detail": detail, "error": kind, **extra}, status)


def _validation_detail(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


class _BodyLimit:
    """Reject bodies over `limit` bytes with 413 before anything reads them (pure ASGI)."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] == "http":
            length = dict(scope.get("headers") or ()).get(b"content-length")
            if length is not None and length.isdigit() and int(length) > self.limit:
                response = _error(413, f"request body of {int(length):,} bytes is over the server's limit of "
                                       f"{self.limit:,} bytes; send shorter queries or fewer ids", "too_large")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class _Cut(Exception):
    """A request answered with a 4xx/5xx and a message (raised inside handlers)."""

    def __init__(self, status: int, detail: str, kind: str) -> None:
        super().__init__(detail)
        self.status, self.detail, self.kind = status, detail, kind


def create_app(corpus: Any, agent: SearchAgent | None = None, config: ServerConfig | None = None) -> FastAPI:
    """The FastAPI app serving `corpus` and `agent` (default: `SearchAgent(corpus)`, the LLM-free policy)."""
    config = config or ServerConfig()
    agent = agent if agent is not None else SearchAgent(corpus)
    counters = _Counters()
    live: set[_Episode] = set()
    n_documents = len(corpus.doc_ids())
    episode_slots = threading.BoundedSemaphore(config.max_episodes)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        for episode in list(live):  # shutting down: cancel what still runs, give each a moment to stop
            episode.stop()
        for episode in list(live):
            await anyio.to_thread.run_sync(episode.thread.join, 5.0)

    app = FastAPI(
        title="context1",
        summary="Hybrid search over one index, and the context1 search agent, over HTTP.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.corpus, app.state.agent, app.state.config, app.state.counters = corpus, agent, config, counters
    app.add_middleware(_BodyLimit, limit=config.max_body_bytes)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        return _error(422, _validation_detail(exc), "invalid_request", errors=json.loads(json.dumps(exc.errors(), default=str)))

    async def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking corpus call on a worker thread, within the request time limit."""
        try:
            with anyio.fail_after(config.request_timeout_s):
                return await anyio.to_thread.run_sync(lambda: fn(*args, **kwargs), abandon_on_cancel=True)
        except TimeoutError:
            raise _Cut(504, f"{getattr(fn, '__name__', 'the call')} took longer than the server's limit of "
                            f"{config.request_timeout_s:g} s and was abandoned; retry, or raise --request-timeout",
                       "timeout") from None
        except InvalidPatternError as exc:
            raise _Cut(400, f"invalid regular expression: {exc} (grep uses RE2 syntax)", "invalid_pattern") from None
        except UnknownDocumentError as exc:
            raise _Cut(404, str(exc), "unknown_id") from None
        except (CorpusError, ValueError) as exc:
            raise _Cut(400, str(exc), "invalid_request") from None

    @app.exception_handler(_Cut)
    async def _cut(request: Request, exc: _Cut) -> Response:
        return _error(exc.status, exc.detail, exc.kind)

    @app.exception_handler(Exception)
    async def _failed(request: Request, exc: Exception) -> Response:
        return _error(500, f"internal error ({type(exc).__name__}: {exc}); this is a bug, please report it",
                      "internal")

    def hits(found: list[Any]) -> Response:
        return _json({"hits": [wire.hit_to_json(h) for h in found]})

    @app.get("/health", summary="Liveness, index size, backend and episode counters")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "index": str(getattr(corpus, "path", "")), "documents": n_documents,
                "chunks": len(corpus), "backend": getattr(agent.backend, "name", type(agent.backend).__name__),
                "episodes": counters.snapshot()}

    @app.post("/search", response_model=HitsOut, summary="Hybrid search (BM25 ∥ dense, RRF, rerank)")
    async def search(body: SearchBody) -> Response:
        return hits(await call(corpus.search, body.query, k=body.k, exclude=body.exclude,
                               token_budget=body.token_budget))

    @app.post("/grep", response_model=HitsOut, summary="Chunks matching an RE2 regular expression")
    async def grep(body: GrepBody) -> Response:
        return hits(await call(corpus.grep, body.pattern, k=body.k, exclude=body.exclude))

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

    def start_episode(body: AskBody) -> _Episode:
        try:  # a request the agent would refuse is the client's error (4xx), not a failed episode
            agent.check_request(body.query, body.rollouts)
        except ValueError as exc:
            raise _Cut(400, str(exc), "invalid_request") from None
        if not episode_slots.acquire(blocking=False):
            raise _Cut(503, f"the server already runs {config.max_episodes} ask episodes; retry shortly", "busy")
        episode = _Episode(agent, body.query, body.rollouts, counters, on_end=episode_ended)
        live.add(episode)
        episode.start()
        return episode

    def episode_ended(episode: _Episode) -> None:  # on the episode's own thread, once it stopped
        live.discard(episode)
        episode_slots.release()

    def end_episode(episode: _Episode) -> None:
        episode.stop()  # a no-op for an episode that already finished

    def too_long() -> str:
        return (f"the episode ran past the server's limit of {config.ask_timeout_s:g} s and was cancelled; "
                "ask a narrower question, or raise --ask-timeout")

    @app.post("/ask", summary="Run the search agent to completion (SearchAgent.run)")
    async def ask(body: AskBody) -> Response:
        episode = start_episode(body)
        deadline = episode.loop.time() + config.ask_timeout_s
        try:
            async for event in episode.events(deadline):
                if isinstance(event, FinalEvent):
                    return _json(wire.result_to_json(event.result))
            raise RuntimeError("the agent's stream ended without a final event")
        except TimeoutError:
            counters.add(timed_out=1)
            return _error(504, too_long(), "timeout")
        finally:
            end_episode(episode)

    @app.post("/ask/stream", summary="Stream the search agent's events (SearchAgent.stream) as server-sent events",
              response_class=EventSourceResponse)
    async def ask_stream(body: AskBody, request: Request) -> EventSourceResponse:
        episode = start_episode(body)
        deadline = episode.loop.time() + config.ask_timeout_s

        async def sse() -> AsyncIterator[ServerSentEvent]:
            # Cancelled by sse-starlette when the client disconnects: `finally` stops the episode.
            try:
                async for event in episode.events(deadline):
                    name, data = wire.event_to_json(event)
                    yield ServerSentEvent(data=json.dumps(data, ensure_ascii=False), event=name)
            except TimeoutError:
                counters.add(timed_out=1)
                yield ServerSentEvent(data=json.dumps({"status": 504, "detail": too_long(), "error": "timeout"}), event=wire.ERROR_EVENT)
            except Exception as exc:  # noqa: BLE001 - a stream has no status code left to change
                yield ServerSentEvent(data=json.dumps({"status": 500, "detail": f"{type(exc).__name__}: {exc}",
                                                            "error": "internal"}),
                                      event=wire.ERROR_EVENT)
            finally:
                end_episode(episode)

        return EventSourceResponse(sse(), ping=15)

    return app


def serve(corpus: Any, agent: SearchAgent | None = None, config: ServerConfig | None = None, *,
          host: str = "127.0.0.1", port: int = 8765, log_level: str = "info") -> None:
    """Serve until interrupted (what `context1 serve` calls)."""
    import uvicorn

    uvicorn.run(create_app(corpus, agent, config), host=host, port=port, log_level=log_level)
