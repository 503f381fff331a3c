"""`SearchAgent`: the public API — run a query to ranked passages (and the documents ranked from
them), stream it, or run k× rollouts.

    from context1 import Corpus, SearchAgent
    agent = SearchAgent(Corpus.open("indexes/wiki"), backend=None)   # None: the LLM-free policy
    result = agent.run("which company ...")                          # SearchResult: .evidence, .documents
    for event in agent.stream("which company ..."): ...              # events as they happen
    result = agent.run("which company ...", rollouts=4)              # 4 rollouts fused with RRF

`run` consumes `stream`, and `stream` drives `harness.Episode`: one code path.

Budget and window: when the backend's context window is known (`AgentConfig.context_window`, or
the backend's own, see `context_window_of`) and T_budget plus the reply would not fit in it, the
budget is fitted to the window (`config.fit_to_window`; `agent.config` holds the result), and
every prompt is checked against the window before it is sent. Token counts include the chat
template's costs (`context1.budget.PromptCosts`), measured with the model's own template when the
backend can render it; `Trajectory.metadata["token_accounting"]` says which.

k× mode with a deterministic backend (`deterministic = True` and not `varies_with_seed`, e.g. a
plain script) raises ValueError: k identical rollouts fuse to the same list at k times the cost.

A backend failure does not raise: the rollout stops with `StopReason.BACKEND_ERROR`,
`trajectory.error` holds the message, the partial trajectory is kept and `documents` gets the
fallback ranking (context1.answer). Check `result.stop_reason`. Other exceptions (bugs) propagate.

Seeds (k× mode): a backend that samples may define `with_seed(seed: int) -> Backend`, returning a
copy that samples with that seed; rollout i then runs on `backend.with_seed(config.seed + i)`
(1× included, so runs are reproducible). Backends without it are shared by all rollouts and must be
thread-safe.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from context1.budget import PromptCosts, TokenCounter, estimate_costs, measure_costs
from context1.config import AgentConfig, check_answer_size, check_rollouts, fit_to_window
from context1.events import (
    Event,
    FinalEvent,
    ModelTurnEvent,
    ObservationEvent,
    PruneEvent,
    RolloutEndEvent,
    ToolCallEvent,
    UsageEvent,
)
from context1.harness import Episode, check_query, normalize_call_ids
from context1.tools import tool_schemas
from context1.types import (
    Backend,
    BackendError,
    CorpusLike,
    Evidence,
    RankedDocument,
    SearchResult,
    StopReason,
    Trajectory,
    Usage,
    check_corpus,
)


def default_backend(corpus: Any = None, config: AgentConfig | None = None) -> Backend:
    """The LLM-free default policy (context1.backends.iterative.IterativeRetrievalPolicy)."""
    try:
        from context1.backends.iterative import IterativeRetrievalPolicy
    except ImportError as exc:
        raise ImportError(
            "SearchAgent(backend=None) uses the LLM-free IterativeRetrievalPolicy from "
            f"context1/backends/iterative.py, which could not be imported ({exc}). Pass a backend, e.g. "
            "context1.backends.make_backend('openai', base_url=..., model=...)."
        ) from exc
    return IterativeRetrievalPolicy(corpus=corpus, agent_config=config)


def context_window_of(backend: Any) -> int | None:
    """The backend's context window in tokens, when it knows it.

    A `context_window` attribute (OpenAIBackend: given, or read from a vLLM server's /models), else
    a local transformers model's `max_position_embeddings`.
    """
    window = getattr(backend, "context_window", None)
    if window is None:
        model_config = getattr(getattr(backend, "model", None), "config", None)
        window = getattr(model_config, "max_position_embeddings", None)
    return int(window) if isinstance(window, int) and window > 0 else None


def reply_tokens_of(backend: Any) -> int | None:
    """The most tokens one reply may take (`max_tokens` / `max_new_tokens`), when the backend says."""
    for name in ("max_tokens", "max_new_tokens"):
        value = getattr(backend, name, None)
        if isinstance(value, int) and value > 0:
            return value
    return None


def prompt_costs(backend: Any, counter: TokenCounter, tools: list) -> PromptCosts:
    """Template costs for `backend`: measured with its chat template when it can render one
    (`count_prompt_tokens(messages, tools)`), else estimated (context1.budget)."""
    fn = getattr(backend, "count_prompt_tokens", None)
    if not callable(fn) and callable(getattr(backend, "render", None)):  # a local model (transformers, vLLM)
        render, tokenizer = backend.render, getattr(backend, "tokenizer", None)
        if tokenizer is not None:
            def fn(messages, tools):  # noqa: ANN001, ANN202
                return len(tokenizer(render(messages, tools), add_special_tokens=False)["input_ids"])
    if callable(fn):
        try:
            return measure_costs(fn, counter, tools, name=getattr(backend, "name", type(backend).__name__))
        except NotImplementedError:
            pass
    return estimate_costs(counter, tools)


def _count_fn(backend: Any):
    """The backend's token counter, or None (estimate) when it has none that works."""
    fn = getattr(backend, "count_tokens", None)
    if fn is None:
        return None
    try:
        fn("probe")
    except NotImplementedError:
        return None
    return fn


class SearchAgent:
    """A retrieval subagent over `corpus`: query in; ranked passages (`evidence`), and the documents
    ranked from them, out.

    backend: any `context1.types.Backend`; None uses the LLM-free `IterativeRetrievalPolicy`.
    config: limits and budgets (`AgentConfig`); `config.rollouts` > 1 turns on k× mode.
    """

    def __init__(self, corpus: CorpusLike, backend: Backend | None = None, config: AgentConfig | None = None) -> None:
        check_corpus(corpus)
        self.corpus = corpus
        config = config or AgentConfig()
        self.backend = default_backend(corpus, config) if backend is None else backend
        if not callable(getattr(self.backend, "generate", None)):
            raise ValueError(f"backend must implement context1.types.Backend (a generate method); got {self.backend!r}")
        # The model's window bounds the budget: a 2k-context model cannot take a 32k-token context.
        self.context_window = config.context_window or context_window_of(self.backend)
        self.reply_tokens = reply_tokens_of(self.backend)
        if self.context_window is not None:
            config = fit_to_window(config, self.context_window, self.reply_tokens)
        self.config = config
        bind = getattr(self.backend, "bind_agent_config", None)
        if callable(bind):  # a policy that reads the harness's limits (the LLM-free one)
            self.backend = bind(config)
        # One cached counter for every episode of this agent: search results repeat across queries.
        self.counter = TokenCounter(_count_fn(self.backend))
        self.counter.costs = prompt_costs(self.backend, self.counter, tool_schemas(config))

    def episode(self, query: str) -> Episode:
        """A fresh `Episode` with this agent's corpus, config and token counter, to step by hand."""
        return Episode(self.corpus, query, self.config, token_counter=self.counter)

    def run(self, query: str, *, rollouts: int | None = None, max_documents: int | None = None,
            max_passages: int | None = None) -> SearchResult:
        """Search for `query` until the agent answers or a limit stops it; never raises on backend failure.

        max_documents / max_passages: return at most this many (1 to the config's; default: the config's).
        """
        result = None
        for event in self.stream(query, rollouts=rollouts, max_documents=max_documents, max_passages=max_passages):
            if isinstance(event, FinalEvent):
                result = event.result
        assert result is not None
        return result

    def check_request(self, query: str, rollouts: int | None = None, max_documents: int | None = None,
                      max_passages: int | None = None) -> int:
        """The number of rollouts `stream(query, rollouts=...)` would run; ValueError if it would refuse.

        Servers call it before starting an episode, so a bad request is answered as one.
        """
        k = self.config.rollouts if rollouts is None else rollouts
        check_rollouts(k)
        check_answer_size(max_documents, "max_documents", self.config.max_documents)
        check_answer_size(max_passages, "max_passages", self.config.max_passages)
        check_query(query, self.config)
        if k > 1 and getattr(self.backend, "deterministic", False) and not getattr(self.backend, "varies_with_seed", False):
            raise ValueError(
                f"rollouts={k} with the deterministic backend {getattr(self.backend, 'name', self.backend)!r} would run "
                f"{k} identical rollouts; use rollouts=1, or a backend that samples (or varies with its seed)"
            )
        return k

    def stream(self, query: str, *, rollouts: int | None = None, max_documents: int | None = None,
               max_passages: int | None = None) -> Iterator[Event]:
        """Yield `context1.events` as the episode unfolds; the last event is `FinalEvent` (see `run`)."""
        k = self.check_request(query, rollouts, max_documents, max_passages)
        t0 = time.perf_counter()
        trajectories: list[Trajectory | None] = [None] * k
        if k == 1:
            yield from self._rollout(query, 0, trajectories)
        else:
            yield from self._parallel(query, k, trajectories)
        done = [t for t in trajectories if t is not None]
        result = self._result(query, done, time.perf_counter() - t0)
        # A request for fewer is cut after ranking: the same answer's best, never a different search.
        yield FinalEvent(dataclasses.replace(result, documents=result.documents[:max_documents],
                                             evidence=result.evidence[:max_passages]))

    # -- rollouts -----------------------------------------------------------------------
    def _backend_for(self, index: int) -> Backend:
        with_seed = getattr(self.backend, "with_seed", None)
        return with_seed(self.config.seed + index) if callable(with_seed) else self.backend

    def _rollout(
        self, query: str, index: int, out: list[Trajectory | None], stop: threading.Event | None = None
    ) -> Iterator[Event]:
        backend = self._backend_for(index)
        episode = self.episode(query)
        traj = episode.trajectory
        traj.metadata.update(backend=getattr(backend, "name", type(backend).__name__), rollout=index,
                             seed=self.config.seed + index)
        out[index] = traj
        try:
            while not episode.done:
                if stop is not None and stop.is_set():
                    episode.finish(StopReason.CANCELLED)
                    break
                c0 = time.perf_counter()
                messages = episode.messages()
                context_s = time.perf_counter() - c0
                if self.context_window is not None and episode.tokens_used + (self.reply_tokens or 0) > self.context_window:
                    episode.finish(StopReason.TOKEN_BUDGET, error=(
                        f"the prompt ({episode.tokens_used:,} tokens) plus the reply ({self.reply_tokens or 0:,}) would "
                        f"exceed the model's {self.context_window:,}-token context window"))
                    break
                m0 = time.perf_counter()
                try:
                    turn = backend.generate(messages, episode.tool_schemas)
                except BackendError as exc:
                    episode.finish(StopReason.BACKEND_ERROR, error=f"{type(exc).__name__}: {exc}")
                    break
                model_s = time.perf_counter() - m0
                step = len(traj.steps)
                turn = normalize_call_ids(turn, step)
                yield ModelTurnEvent(step, turn, index)
                for call in turn.tool_calls:
                    yield ToolCallEvent(step, call, index)
                observations = episode.act(turn)
                traj.metadata["step_timings"][-1].update(model_s=model_s, context_s=context_s)
                for obs in observations:
                    yield ObservationEvent(step, obs, index)
                if traj.steps[-1].pruned:
                    yield PruneEvent(step, traj.steps[-1].pruned, index)
                if observations:
                    yield UsageEvent(step, traj.steps[-1].tokens_used, traj.token_budget, index)
        finally:
            if not episode.done:  # the consumer stopped iterating, or an exception is on its way
                episode.finish(StopReason.CANCELLED)
        yield RolloutEndEvent(traj.stop_reason, len(traj.steps), traj.error, index)

    def _parallel(self, query: str, k: int, out: list[Trajectory | None]) -> Iterator[Event]:
        events: queue.Queue = queue.Queue()
        stop = threading.Event()
        done_marker = object()

        def work(i: int) -> None:
            try:
                for event in self._rollout(query, i, out, stop):
                    events.put(event)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the consumer's thread
                events.put(exc)
            finally:
                events.put(done_marker)

        threads = [threading.Thread(target=work, args=(i,), name=f"context1-rollout-{i}", daemon=True) for i in range(k)]
        for t in threads:
            t.start()
        try:
            remaining = k
            while remaining:
                item = events.get()
                if item is done_marker:
                    remaining -= 1
                elif isinstance(item, BaseException):
                    raise item
                else:
                    yield item
        finally:
            stop.set()
            for t in threads:
                t.join()

    # -- results ------------------------------------------------------------------------
    def _result(self, query: str, trajectories: Sequence[Trajectory], wall_s: float) -> SearchResult:
        if len(trajectories) == 1:
            documents = list(trajectories[0].documents)
            evidence = list(trajectories[0].evidence)
        else:
            documents = fuse_rankings([t.documents for t in trajectories], self.config.max_documents, self.config.rrf_k)
            evidence = fuse_evidence([t.evidence for t in trajectories], self.config.max_passages, self.config.rrf_k)
        return SearchResult(
            query=query,
            documents=documents,
            trajectory=trajectories[0],
            usage=_usage(trajectories),
            timings=_timings(trajectories, wall_s),
            rollouts=list(trajectories),
            evidence=evidence,
        )


def fuse_rankings(
    rankings: Sequence[Sequence[RankedDocument]], max_documents: int = 10, rrf_k: int = 60
) -> list[RankedDocument]:
    """Fuse ranked document lists with RRF (k× mode). Each document keeps the justification of
    its best-ranked occurrence (lowest rank; the earliest list on ties); its score is the RRF score."""
    from corpus_tools.fusion import reciprocal_rank_fusion

    best: dict[str, tuple[int, int, str]] = {}
    for r, docs in enumerate(rankings):
        for pos, d in enumerate(docs):
            cand = (pos, r, d.justification)
            if d.doc_id not in best or cand[:2] < best[d.doc_id][:2]:
                best[d.doc_id] = cand
    fused = reciprocal_rank_fusion([[d.doc_id for d in docs] for docs in rankings], k=rrf_k)
    return [RankedDocument(doc_id, best[doc_id][2], float(score)) for doc_id, score in fused[:max_documents]]


def fuse_evidence(rankings: Sequence[Sequence[Evidence]], max_passages: int = 5, rrf_k: int = 60) -> list[Evidence]:
    """Fuse the rollouts' passages with RRF (k× mode), as `fuse_rankings` does documents: each
    passage keeps its best-ranked occurrence (reason, found_by) and takes the RRF score."""
    from corpus_tools.fusion import reciprocal_rank_fusion

    best: dict[str, tuple[int, int, Evidence]] = {}
    for r, passages in enumerate(rankings):
        for pos, e in enumerate(passages):
            if e.chunk_id not in best or (pos, r) < best[e.chunk_id][:2]:
                best[e.chunk_id] = (pos, r, e)
    fused = reciprocal_rank_fusion([[e.chunk_id for e in passages] for passages in rankings], k=rrf_k)
    return [dataclasses.replace(best[cid][2], score=float(score)) for cid, score in fused[:max_passages]]


def _usage(trajectories: Sequence[Trajectory]) -> Usage:
    return Usage(
        context_tokens=max((t.steps[-1].tokens_used if t.steps else 0) for t in trajectories),
        prompt_tokens=sum(s.turn.prompt_tokens for t in trajectories for s in t.steps),
        completion_tokens=sum(s.turn.completion_tokens for t in trajectories for s in t.steps),
        turns=sum(len(t.steps) for t in trajectories),
        tool_calls=sum(len(s.turn.tool_calls) for t in trajectories for s in t.steps),
    )


def _timings(trajectories: Sequence[Trajectory], wall_s: float) -> dict[str, float]:
    steps = [st for t in trajectories for st in t.metadata.get("step_timings", ())]
    model_s = sum(st.get("model_s", 0.0) for st in steps)
    corpus_s = sum(st.get("corpus_s", 0.0) for st in steps)
    harness_s = sum(st.get("act_s", 0.0) + st.get("context_s", 0.0) for st in steps) - corpus_s
    harness_cpu_s = sum(st.get("harness_cpu_s", 0.0) for st in steps)
    return {"total_s": wall_s, "model_s": model_s, "corpus_s": corpus_s, "harness_s": max(0.0, harness_s),
            "harness_cpu_s": harness_cpu_s}
