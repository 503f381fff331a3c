"""Many episodes in lockstep: one batched `generate` call per turn for every episode waiting on the model.

    trajectories = run_lockstep(agent, queries, seeds=[0, 1, 2, 3])

RL steps and evaluations run hundreds of independent episodes; run one after the other, a GPU
engine (vLLM) or even a CPU model decodes one sequence at a time and its batching is never used.
Here every live episode advances together: the harness (`Episode`, the same one `SearchAgent`
drives — one harness, principle 1) builds each episode's visible context, the backend generates
every waiting episode's next turn in one call, and each episode acts on its own turn. Episodes
that end (answer, limit, error) drop out; the others go on.

A backend batches when it has

    generate_batch(requests: Sequence[tuple[stream, messages, tools]]) -> list[ModelTurn | BackendError]

where each `stream` is that episode's own copy of the backend (`backend.with_seed(seed)`): it
carries the episode's conversation state (token in / token out ids) and sampling seed, while the
weights and the engine are shared. A failure of one request is returned in its place (that
episode ends with `StopReason.BACKEND_ERROR`), never raised for the whole batch. Backends without
`generate_batch` are called one stream at a time, so any backend works here.

Per episode the behaviour is `SearchAgent._rollout`'s: the same window check before every turn
(an episode whose prompt plus reply would outgrow the model's context window ends with
TOKEN_BUDGET and an error; the others go on), the same call-id normalisation and step timings
(`model_s` is the batched call's wall time, shared by the `batch` episodes of that call).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from context1.harness import Episode, normalize_call_ids
from context1.types import BackendError, ModelTurn, StopReason, Trajectory


def generate_many(backend: Any, requests: Sequence[tuple[Any, Any, Any]]) -> list[ModelTurn | BackendError]:
    """Every request's next turn: one `backend.generate_batch` call when it has one, else one by one."""
    if not requests:
        return []
    batch = getattr(backend, "generate_batch", None)
    if callable(batch):
        results = list(batch(requests))
        if len(results) != len(requests):
            raise RuntimeError(f"{type(backend).__name__}.generate_batch returned {len(results)} turns for "
                               f"{len(requests)} requests")
        return results
    out: list[ModelTurn | BackendError] = []
    for stream, messages, tools in requests:
        try:
            out.append(stream.generate(messages, tools))
        except BackendError as exc:
            out.append(exc)
    return out


def run_lockstep(agent: Any, queries: Sequence[str], seeds: Sequence[int]) -> list[Trajectory | ValueError]:
    """Run one episode per query with `agent`'s corpus, config and backend, all turns batched.

    agent: a `context1.SearchAgent` (its config, token counter and window are used as they are).
    seeds: one per query; episode i samples with `agent.backend.with_seed(seeds[i])` when the
        backend has `with_seed`, else with the shared backend (which must then be stateless).
    Returns, per query, its trajectory, or the ValueError that kept its episode from starting (a
    query that does not fit the budget). Never raises on a backend failure.
    """
    if len(queries) != len(seeds):
        raise ValueError(f"one seed per query: got {len(queries)} queries and {len(seeds)} seeds")
    backend = agent.backend
    with_seed = getattr(backend, "with_seed", None)
    name = getattr(backend, "name", type(backend).__name__)
    results: list[Trajectory | ValueError] = []
    episodes: dict[int, Episode] = {}
    streams: dict[int, Any] = {}
    for i, (query, seed) in enumerate(zip(queries, seeds, strict=True)):
        try:
            episode = agent.episode(query)
        except ValueError as exc:
            results.append(exc)
            continue
        episode.trajectory.metadata.update(backend=name, rollout=0, seed=seed, lockstep=True)
        episodes[i] = episode
        streams[i] = with_seed(seed) if callable(with_seed) else backend
        results.append(episode.trajectory)
    live = sorted(episodes)
    try:
        while live:
            requests, ready, context_s = [], [], {}
            for i in live:
                episode = episodes[i]
                c0 = time.perf_counter()
                messages = episode.messages()
                context_s[i] = time.perf_counter() - c0
                if _outgrows_window(agent, episode):
                    continue
                ready.append(i)
                requests.append((streams[i], messages, episode.tool_schemas))
            m0 = time.perf_counter()
            turns = generate_many(backend, requests)
            model_s = time.perf_counter() - m0
            for i, turn in zip(ready, turns, strict=True):
                episode = episodes[i]
                if isinstance(turn, BackendError):
                    episode.finish(StopReason.BACKEND_ERROR, error=f"{type(turn).__name__}: {turn}")
                    continue
                episode.act(normalize_call_ids(turn, len(episode.trajectory.steps)))
                episode.trajectory.metadata["step_timings"][-1].update(
                    model_s=model_s, context_s=context_s[i], batch=len(ready)
                )
            live = [i for i in live if not episodes[i].done]
    finally:
        for episode in episodes.values():  # an exception (a bug) is on its way: no episode left open
            if not episode.done:
                episode.finish(StopReason.CANCELLED)
    return results


def _outgrows_window(agent: Any, episode: Episode) -> bool:
    """End `episode` (TOKEN_BUDGET, with an error) when its prompt plus a reply would not fit the window."""
    window, reply = agent.context_window, agent.reply_tokens or 0
    if window is None or episode.tokens_used + reply <= window:
        return False
    episode.finish(StopReason.TOKEN_BUDGET, error=(
        f"the prompt ({episode.tokens_used:,} tokens) plus the reply ({reply:,}) would exceed the model's "
        f"{window:,}-token context window"))
    return True
