"""`context1 mcp INDEX`: the index as an MCP server (official `mcp` SDK), over stdio or streamable HTTP.

Five tools: the agent's own four — `search_corpus`, `grep_corpus`, `read_document`,
`prune_chunks` — so an outside agent (Claude, an IDE, another framework) can search the corpus the
way the context1 agent does, plus `ask`, which runs the whole context1 search agent and returns
the passages that answer, best first, as plain text (`render_answer`: each passage's id, document,
title, page and section, its text and why it was returned), then the documents they come from.

Like the harness, `search_corpus` and `grep_corpus` skip chunks already shown: the caller may pass
them in `exclude` (stateless, always works), and the server also remembers what it showed to
one client. Over stdio that client is the process's only one, so memory is per process; over
streamable HTTP it is per `mcp-session-id` header, and a client without one (the sessionless
2026-07-28 protocol) gets no memory and must use `exclude`. `prune_chunks` adds chunks to that
memory's excluded set. `include_seen=true` turns the memory off for one call. Chunks are
rendered exactly as the agent sees them (`<chunk id=… doc=… title=…>`), within the agent
config's per-call token budgets. While `ask` runs, each turn, tool call and observation is sent
as a progress notification (to clients that ask for progress), so they can show the trace live.

Arguments are validated by the same models and limits as `context1 serve`'s bodies
(`context1.interfaces.serving`; unknown arguments are errors), and every failure comes back as a tool result
with `isError` set and a message the caller can act on. `ask` shares the HTTP server's episode cap
and time limit (`context1.interfaces.episodes`). Over streamable HTTP the same gate as `context1 serve`
(`context1.interfaces.guard`: API key, body limit, requests in flight, Host/Origin) stands in front of /mcp.

    run_mcp(corpus, agent, transport="stdio")                 # what `context1 mcp INDEX` does
    run_mcp(corpus, agent, transport="http", port=8766)       # streamable HTTP at http://HOST:PORT/mcp
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from context1 import prompts
from context1.agent import SearchAgent
from context1.config import MAX_ROLLOUTS, AnswerSizeError
from context1.events import FinalEvent, ModelTurnEvent, ObservationEvent, ToolCallEvent
from context1.interfaces.episodes import Episodes, EpisodesBusy, EpisodeTimeout
from context1.interfaces.excerpt import place_labels
from context1.interfaces.guard import Guard, GuardConfig, is_loopback
from context1.interfaces.serving import MCP_ARGUMENTS, check_arguments, excerpt, shorten
from context1.tools import corpus_reranks, tool_schemas
from context1.version import __version__
from corpus_tools.limits import MAX_IDS
from corpus_tools.types import CorpusError, InvalidPatternError, UnknownDocumentError

TRANSPORTS = ("stdio", "http")
MAX_SESSIONS = 1_024  # session states kept (least recently used dropped first)
SESSION_TTL_S = 3_600.0  # an HTTP session idle this long is forgotten (stdio's one session is not)
MAX_SHOWN = MAX_IDS  # chunk ids remembered per session (oldest dropped: they may be shown again)
INSTRUCTIONS = (
    "Search one document collection. search_corpus (hybrid BM25 + dense) and grep_corpus (RE2 regex) return "
    "chunks not yet shown in this session; read_document returns a whole document; prune_chunks drops chunks you "
    "no longer need. ask runs the context1 search agent and returns the ranked passages that answer, each with "
    "its source and why it was returned."
)
ASK_DESCRIPTION = (
    "Run the context1 search agent: it searches over several turns and returns the ranked passages that "
    f"support answering the question, each with its document, page and why it was returned. rollouts: 1 to {MAX_ROLLOUTS} independent "
    "runs fused with RRF (k× mode)."
)


@dataclass
class _Session:
    shown: dict[str, None] = field(default_factory=dict)  # chunk ids shown, in first-shown order
    pruned: set[str] = field(default_factory=set)
    used: float = 0.0  # when a call last used it (time.monotonic)

    def remember(self, chunk_ids: list[str]) -> None:
        """Add shown chunk ids, keeping the newest MAX_SHOWN (and as many pruned ids): memory per session is bounded."""
        for cid in chunk_ids:
            self.shown.setdefault(cid, None)
        while len(self.shown) > MAX_SHOWN:
            self.shown.pop(next(iter(self.shown)))
        if len(self.pruned) > MAX_SHOWN:
            self.pruned = set(list(self.pruned)[-MAX_SHOWN:])

    def excluded(self, include_seen: bool) -> set[str]:
        return set(self.pruned) if include_seen else set(self.shown) | self.pruned


class _Sessions:
    """What the server showed each client, bounded: MAX_SESSIONS (least recently used dropped first),
    SESSION_TTL_S idle, MAX_SHOWN ids each; so a server's memory does not grow with its clients.

    per_process: one client per process (stdio). Else the key is the `mcp-session-id` header, and a
    request without one gets a fresh, throw-away state (no memory across calls).
    """

    def __init__(self, per_process: bool, clock: Any = time.monotonic) -> None:
        self._lock = threading.Lock()
        self._states: OrderedDict[str, _Session] = OrderedDict()
        self.per_process = per_process
        self._clock = clock

    def key(self, ctx: Context | None) -> str | None:
        if self.per_process:
            return "process"
        headers = (ctx.headers if ctx is not None else None) or {}
        return headers.get("mcp-session-id") or None

    def get(self, ctx: Context | None) -> _Session:
        key = self.key(ctx)
        if key is None:
            return _Session()
        now = self._clock()
        with self._lock:
            # Least recently used first: drop the idle ones from the front.
            while not self.per_process and self._states:
                oldest = next(iter(self._states.values()))
                if now - oldest.used <= SESSION_TTL_S:
                    break
                self._states.popitem(last=False)
            state = self._states.pop(key, None) or _Session()
            state.used = now
            self._states[key] = state
            while len(self._states) > MAX_SESSIONS:
                self._states.popitem(last=False)
            return state

    def __len__(self) -> int:
        return len(self._states)


def _render(corpus: Any, hits: list[Any]) -> str:
    blocks = []
    for hit in hits:
        c = hit.chunk
        title = (c.metadata or {}).get("title") or corpus.title(c.doc_id)
        blocks.append(prompts.render_chunk(c.chunk_id, c.doc_id, title, c.text))
    return "\n\n".join(blocks)


def render_answer(result: Any) -> str:
    """The agent's answer as plain text for the calling model: one numbered block per passage — its
    chunk and document ids (JSON strings: ids may hold spaces and quotes), title, page, section
    and score, its whole text, and why it was returned — then the documents, best first. No
    markup to strip, no escapes (`ensure_ascii=False`)."""
    blocks = []
    for rank, e in enumerate(result.evidence, 1):
        where = place_labels(e.doc_id, e.page, e.section, section_word="section ")
        if e.speakers:
            where.append(f"speakers {', '.join(e.speakers)}")
        head = (f"[{rank}] passage {json.dumps(e.chunk_id, ensure_ascii=False)} of document "
                f"{json.dumps(e.doc_id, ensure_ascii=False)}" + (f" ({e.title})" if e.title else "")
                + "".join(f", {w}" for w in where) + f", score {e.score:.4g}")
        blocks.append(f"{head}\n{e.text.strip()}\nWhy: {e.reason}")
    if not blocks:
        blocks.append("The agent returned no passages.")
    unmatched = result.trajectory.metadata.get("unmatched")
    if unmatched:
        blocks.insert(0, f"Note: the index holds nothing about {', '.join(map(str, unmatched))}; "
                         "these are the closest passages it has.")
    docs = ", ".join(json.dumps(d.doc_id, ensure_ascii=False) for d in result.documents)
    blocks.append(f"Documents: {docs or '(none)'}")
    return "\n\n".join(blocks)


class _CheckedServer(MCPServer):
    """An MCPServer whose tool arguments pass `context1.interfaces.serving`'s models first (unknown ones are errors)."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> Any:
        model = MCP_ARGUMENTS.get(name)
        if model is not None:
            try:
                check_arguments(model, arguments or {})
            except ValueError as exc:
                raise ToolError(f"invalid arguments for {name}: {exc}") from None
        return await super().call_tool(name, arguments, context)


def create_mcp(corpus: Any, agent: SearchAgent | None = None, *, per_process_memory: bool = True,
               episodes: Episodes | None = None) -> MCPServer:
    """An `MCPServer` exposing `corpus` (and `agent`, default `SearchAgent(corpus)`) as five tools.

    per_process_memory: remember shown and pruned chunks for the whole process (right for stdio,
    where the process serves one client); False keys that memory by `mcp-session-id` (HTTP).
    episodes: the cap and time limit of `ask` (default: 16 at once, 600 s each, as `context1 serve`).
    """
    agent = agent if agent is not None else SearchAgent(corpus)
    episodes = episodes if episodes is not None else Episodes(agent)
    cfg = agent.config
    sessions = _Sessions(per_process_memory)
    mcp = _CheckedServer(name="context1", instructions=INSTRUCTIONS, version=__version__)
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    # The descriptions the agent's own model sees, rendered the same way (no unfilled placeholders).
    described = {s["function"]["name"]: s["function"]["description"]
                 for s in tool_schemas(cfg, reranked=corpus_reranks(corpus))}

    async def blocking(fn: Any, *args: Any, **kwargs: Any) -> Any:
        return await anyio.to_thread.run_sync(lambda: fn(*args, **kwargs))

    def shown(state: _Session, hits: list[Any]) -> list[Any]:
        state.remember([h.chunk.chunk_id for h in hits])
        return hits

    @mcp.tool(description=described[prompts.SEARCH_CORPUS], annotations=read_only, structured_output=False)
    async def search_corpus(query: str, k: int | None = None, exclude: list[str] | None = None,
                            include_seen: bool = False, ctx: Context | None = None) -> str:
        """query: what to search for. k: most chunks to return (default: the agent's). exclude: chunk ids never
        to return (ones you already saw or pruned)."""
        state = sessions.get(ctx)
        skip = state.excluded(include_seen) | set(exclude or ())
        try:
            hits = await blocking(corpus.search, query, k=k or cfg.search_k, exclude=skip,
                                  token_budget=cfg.search_token_budget)
        except (CorpusError, ValueError) as exc:
            raise ToolError(f"search_corpus failed: {shorten(str(exc))}") from None
        return _render(corpus, shown(state, hits)) or prompts.NO_RESULTS

    @mcp.tool(description=described[prompts.GREP_CORPUS], annotations=read_only, structured_output=False)
    async def grep_corpus(pattern: str, k: int | None = None, exclude: list[str] | None = None,
                          include_seen: bool = False, ctx: Context | None = None) -> str:
        """pattern: an RE2 regular expression, e.g. "(?i)acme corp". k: most chunks to return (default: the
        agent's). exclude: chunk ids never to return."""
        state = sessions.get(ctx)
        skip = state.excluded(include_seen) | set(exclude or ())
        try:
            hits = await blocking(corpus.grep, pattern, k=k or cfg.grep_k, exclude=skip)
        except InvalidPatternError as exc:
            raise ToolError(f"invalid regular expression {excerpt(pattern)}: {shorten(str(exc), 200)}. "
                            "grep_corpus uses RE2 syntax.") from None
        return _render(corpus, shown(state, hits)) or prompts.NO_RESULTS

    @mcp.tool(description=described[prompts.READ_DOCUMENT], annotations=read_only, structured_output=False)
    async def read_document(doc_id: str, query: str | None = None, ctx: Context | None = None) -> str:
        """doc_id: the doc attribute of a chunk. query: order the chunks by relevance to it (optional)."""
        state = sessions.get(ctx)
        try:
            hits = await blocking(corpus.read, doc_id, query=query or None, token_budget=cfg.read_token_budget)
        except UnknownDocumentError:
            raise ToolError(f"unknown document id {excerpt(doc_id)}. Use the doc attribute of a chunk you were "
                            "shown.") from None
        except (CorpusError, ValueError) as exc:
            raise ToolError(f"read_document failed: {shorten(str(exc))}") from None
        return _render(corpus, shown(state, hits)) or prompts.NO_RESULTS

    @mcp.tool(description=described[prompts.PRUNE_CHUNKS], structured_output=False)
    async def prune_chunks(chunk_ids: list[str], ctx: Context | None = None) -> str:
        """chunk_ids: the id attributes of the chunks to drop."""
        if sessions.key(ctx) is None:
            return ("This connection has no session, so the server keeps no memory between calls: pass these ids "
                    "in the exclude argument of search_corpus / grep_corpus to keep them out of later results.")
        state = sessions.get(ctx)
        known = [c for c in chunk_ids if c in state.shown]
        unknown = [c for c in chunk_ids if c not in state.shown]
        state.pruned.update(known)
        state.remember([])  # keeps the pruned set bounded too
        text = f"Pruned {len(known)} chunk(s); they stay excluded from later searches."
        if unknown:
            text += (f" Never shown here, ignored: {', '.join(excerpt(c) for c in unknown[:20])}"
                     + (" …" if len(unknown) > 20 else ""))
        return text

    @mcp.tool(description=ASK_DESCRIPTION, annotations=read_only, structured_output=False)
    async def ask(query: str, rollouts: int = 1, max_documents: int | None = None, max_passages: int | None = None,
                  ctx: Context | None = None) -> str:
        """query: the question. rollouts: independent agent runs fused with RRF (k× mode).
        max_documents / max_passages: return at most this many (default: all the agent returns)."""
        try:
            episode = episodes.start(query, rollouts, max_documents, max_passages)
        except AnswerSizeError as exc:  # past the serving agent's sizes: a bad argument, as HTTP's 422
            raise ToolError(f"invalid arguments for ask: {exc}") from None
        except (ValueError, EpisodesBusy) as exc:
            raise ToolError(str(exc)) from None

        async def trace(line: str, step: int) -> None:
            if ctx is None:
                return
            try:  # progress, not log messages: MCP deprecated the logging capability (SEP-2577)
                await ctx.report_progress(step + 1, None, line)
            except Exception:  # noqa: BLE001 - a client that ignores notifications must not break the episode
                pass

        result = None
        try:
            async for event in episode.events():
                if isinstance(event, ModelTurnEvent):
                    await trace(f"turn {event.step + 1}: {len(event.turn.tool_calls)} tool call(s)", event.step)
                elif isinstance(event, ToolCallEvent):
                    args = event.call.raw_arguments or json.dumps(dict(event.call.arguments), ensure_ascii=False)
                    await trace(f"  -> {event.call.name}({shorten(args, 200)})", event.step)
                elif isinstance(event, ObservationEvent):
                    await trace(f"  <- {len(event.observation.chunk_ids)} chunk(s)", event.step)
                elif isinstance(event, FinalEvent):
                    result = event.result
        except EpisodeTimeout as exc:
            raise ToolError(str(exc)) from None
        if result is None:
            raise ToolError("the agent's episode ended without a result")
        return render_answer(result)

    return mcp


def run_mcp(corpus: Any, agent: SearchAgent | None = None, *, transport: str = "stdio", host: str = "127.0.0.1",
            port: int = 8766, guard: GuardConfig | None = None, episodes: Episodes | None = None) -> None:
    """Serve until the client disconnects (stdio) or the process is interrupted (http, at /mcp).

    guard: the HTTP gate (API key, limits); default: no key, Host/Origin checks when `host` is loopback.
    """
    if transport not in TRANSPORTS:
        raise ValueError(f"unknown transport {transport!r}; choose one of {', '.join(TRANSPORTS)}")
    mcp = create_mcp(corpus, agent, per_process_memory=transport == "stdio", episodes=episodes)
    if transport == "stdio":
        mcp.run("stdio")
        return
    import uvicorn

    uvicorn.run(http_app(mcp, guard or GuardConfig(loopback_only=is_loopback(host)), host=host),
                host=host, port=port, log_level="info")


def http_app(mcp: MCPServer, guard: GuardConfig, host: str = "127.0.0.1") -> Any:
    """The MCP server's streamable-HTTP app at /mcp, behind `context1.interfaces.guard.Guard`."""
    return Guard(mcp.streamable_http_app(host=host, max_request_body_size=guard.max_body_bytes), guard)
