"""Agent episodes run on behalf of network clients (HTTP `ask`, MCP `ask`), with one cap and one clock.

Each episode runs `SearchAgent.stream` on its own thread and hands events to the request through an
asyncio queue. The thread checks a stop flag between events: when the client goes away, or the
episode runs past its time limit, the flag is set and the thread closes the stream, which ends the
episode with `StopReason.CANCELLED` (the agent's own cleanup) and joins any k× rollout threads. A
backend call already under way is not interrupted; the episode stops right after it.

`Episodes` is shared by every interface of one process: at most `max_episodes` run at once (an
episode's slot is freed only when its thread has really stopped, so the cap bounds threads, not
requests), and a request past the cap gets `EpisodesBusy` at once instead of waiting in a queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from collections.abc import AsyncIterator
from typing import Any

import anyio

from context1.agent import SearchAgent
from context1.events import Event

EPISODE_THREAD_PREFIX = "context1-serve-episode"
_episode_ids = itertools.count(1)


class EpisodesBusy(RuntimeError):
    """Every episode slot is taken; retry shortly (HTTP 503, an MCP tool error)."""


class EpisodeTimeout(TimeoutError):
    """The episode ran past its time limit and was cancelled."""


class _Counters:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = self.finished = self.cancelled = self.failed = self.timed_out = self.refused = 0

    def add(self, **deltas: int) -> None:
        with self.lock:
            for name, delta in deltas.items():
                setattr(self, name, getattr(self, name) + delta)

    def snapshot(self) -> dict[str, int]:
        with self.lock:
            return {"running": self.running, "finished": self.finished, "cancelled": self.cancelled,
                    "failed": self.failed, "timed_out": self.timed_out, "refused": self.refused}


class Episode:
    """One `SearchAgent.stream` on its own thread, feeding an asyncio queue; `stop()` cancels it."""

    def __init__(self, owner: Episodes, query: str, rollouts: int | None, sizes: dict[str, int | None]) -> None:
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue = asyncio.Queue()
        self._stop = threading.Event()
        self._owner, self._query, self._rollouts, self._sizes = owner, query, rollouts, sizes
        self.deadline = self.loop.time() + owner.timeout_s
        self.thread = threading.Thread(target=self._work, name=f"{EPISODE_THREAD_PREFIX}-{next(_episode_ids)}",
                                       daemon=True)

    def stop(self) -> None:
        self._stop.set()  # a no-op for an episode that already finished

    def _put(self, item: tuple[str, Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone (server shutting down): nobody listens
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)

    def _work(self) -> None:
        stream = self._owner.agent.stream(self._query, rollouts=self._rollouts, **self._sizes)
        outcome = "failed"
        try:
            for event in stream:
                if self._stop.is_set():
                    outcome = "cancelled"
                    break
                self._put(("event", event))
            else:
                outcome = "finished"
        except Exception as exc:  # noqa: BLE001 - reported to the client as an error
            self._put(("error", exc))
        finally:
            stream.close()  # a stream left mid-episode finishes it as CANCELLED and joins k× threads
            self._owner._ended(self, outcome)
            self._put(("done", None))

    async def events(self) -> AsyncIterator[Event]:
        """The episode's events until its end; EpisodeTimeout past its deadline (the episode is stopped)."""
        try:
            while True:
                remaining = self.deadline - self.loop.time()
                if remaining <= 0:
                    raise TimeoutError
                kind, item = await asyncio.wait_for(self.queue.get(), remaining)
                if kind == "done":
                    return
                if kind == "error":
                    raise item
                yield item
        except TimeoutError:
            self._owner.counters.add(timed_out=1)
            raise EpisodeTimeout(
                f"the episode ran past the server's limit of {self._owner.timeout_s:g} s and was cancelled; "
                "ask a narrower question, or raise --ask-timeout") from None
        finally:
            self.stop()


class Episodes:
    """The episodes of one server process: a cap on how many run at once, a time limit, counters."""

    def __init__(self, agent: SearchAgent, *, max_episodes: int = 16, timeout_s: float = 600.0) -> None:
        if isinstance(max_episodes, bool) or not isinstance(max_episodes, int) or max_episodes < 1:
            raise ValueError(f"max_episodes must be a positive integer, got {max_episodes!r}")
        if not timeout_s > 0:
            raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s!r}")
        self.agent, self.max_episodes, self.timeout_s = agent, max_episodes, timeout_s
        self.counters = _Counters()
        self._slots = threading.BoundedSemaphore(max_episodes)
        self._live: set[Episode] = set()
        self._lock = threading.Lock()

    def start(self, query: str, rollouts: int | None = None, max_documents: int | None = None,
              max_passages: int | None = None) -> Episode:
        """A running episode; ValueError for a request the agent would refuse, EpisodesBusy when full."""
        self.agent.check_request(query, rollouts, max_documents, max_passages)
        if not self._slots.acquire(blocking=False):
            self.counters.add(refused=1)
            raise EpisodesBusy(f"the server already runs {self.max_episodes} ask episodes; retry shortly")
        episode = Episode(self, query, rollouts, {"max_documents": max_documents, "max_passages": max_passages})
        with self._lock:
            self._live.add(episode)
        self.counters.add(running=1)
        episode.thread.start()
        return episode

    def _ended(self, episode: Episode, outcome: str) -> None:  # on the episode's own thread, once it stopped
        self.counters.add(running=-1, **{outcome: 1})
        with self._lock:
            self._live.discard(episode)
        self._slots.release()

    async def shutdown(self, wait_s: float = 5.0) -> None:
        """Cancel what still runs and give each episode a moment to stop (server shutdown)."""
        with self._lock:
            live = list(self._live)
        for episode in live:
            episode.stop()
        for episode in live:
            await anyio.to_thread.run_sync(episode.thread.join, wait_s)
