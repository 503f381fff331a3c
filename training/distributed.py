"""Rollouts and evaluation on Ray: episodes spread over actors that share one index server.

    pool = RolloutPool("http://10.0.0.5:8765", {"kind": "transformers", "model": "/models/qwen"},
                       agent_config, workers=8, ray_address="10.0.0.5:6379")
    rollouts = pool.run([(task, seed), ...])      # list[Rollout], in job order
    pool.close()

DESIGN principle 4: rollouts scale out with Ray, no home-made distributed layer. Each actor opens
a `context1.Client` on the `context1 serve` server (one index for every machine; `Client`
mirrors `Corpus`, so the actor runs the same harness as a single process), builds its own backend
from `backend_spec` (`context1.backends.make_backend(kind, **kwargs)`; the LLM-free `iterative`
policy gets the client as its corpus), and runs its share of the jobs with
`training.rollouts.run_rollouts` (lockstep, batched). The learner gathers the `Rollout`s: plain,
picklable data. A job's seed travels with it, so a job gives the same rollout on any actor and in
a single process (`run_rollouts` rows do not depend on their batch companions).

Failures: an actor that dies mid-step (RayActorError: killed, out of memory, node lost) has its
jobs re-run on the actors still alive, up to `max_retries` times, then dropped and counted as
failed rollouts (`stats["rerun"]`, `stats["dropped"]`); the step goes on. An index server that
cannot be reached fails at construction with a `ConnectionError` naming its URL; one that goes
away is found before the next step's rollouts start (`run` checks it): a ConnectionError naming
its URL, and the trainer's last checkpoint (written after every step) is kept. A Ray cluster that cannot be reached raises `ConnectionError` naming the
address before `ray.init` is tried.

Needs the `ray` extra: `pip install 'context1[ray]'`; Ray is imported only when a pool is built.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlparse

from eval.types import Task
from training.rollouts import Rollout

_INSTALL_HINT = "rollouts on Ray need the ray extra: pip install 'context1[ray]'"


def import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ImportError(f"{_INSTALL_HINT} ({exc})") from exc
    return ray


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """Raise ConnectionError naming `address` (host:port, ray://host:port) when nothing listens there."""
    target = address if "://" in address else f"ray://{address}"
    parsed = urlparse(target)
    if not parsed.hostname or not parsed.port:
        raise ValueError(f"a Ray address is host:port (e.g. 10.0.0.5:6379) or ray://host:10001, got {address!r}")
    try:
        with socket.create_connection((parsed.hostname, parsed.port), timeout=timeout_s):
            pass
    except OSError as exc:
        raise ConnectionError(
            f"the Ray cluster at {address!r} cannot be reached ({exc}); start it with `ray start --head` on that "
            "machine (docs/distributed.md), or leave --ray-address out to run on this machine"
        ) from exc


def check_index_server(url: str) -> None:
    """Raise ConnectionError naming `url` when no `context1 serve` server answers there."""
    from context1 import Client

    try:
        with Client(url, timeout=10) as client:
            client.health()
    except Exception as exc:  # noqa: BLE001 - any failure means: not usable
        raise ConnectionError(
            f"no context1 index server answers at {url!r} ({type(exc).__name__}: {exc}); start one with "
            "`context1 serve INDEX --host 0.0.0.0` and pass its URL"
        ) from exc


class RolloutWorker:
    """One Ray actor: a client of the index server, its own backend, and the harness."""

    def __init__(self, index_url: str, backend_spec: Mapping[str, Any], agent_config: Any) -> None:
        from context1 import Client

        self.corpus = Client(index_url)
        self.spec = dict(backend_spec)
        self.agent_config = agent_config
        self.backend = self._build(None)

    def _build(self, adapter: str | None) -> Any:
        from context1.backends import make_backend

        spec = dict(self.spec)
        kind = spec.pop("kind")
        if adapter is not None:
            spec["adapter"] = adapter
        if kind in ("iterative", "learned"):  # the LLM-free policies search the served index
            spec.setdefault("corpus", self.corpus)
        return make_backend(kind, **spec)

    def load_adapter(self, path: str) -> bool:
        """Sample with the adapter folder `path` from now on (a path every node can read)."""
        self.backend = self._build(path)
        return True

    def run(self, jobs: Sequence[tuple[Task, int]]) -> list[Rollout]:
        from training.rollouts import run_rollouts

        return run_rollouts(self.corpus, self.backend, [t for t, _ in jobs], self.agent_config, [s for _, s in jobs])

    def ping(self) -> bool:
        return True


class RolloutPool:
    """`workers` Ray actors running rollouts against the index server at `index_url` (module docstring).

    backend_spec: {"kind": "transformers" | "iterative" | "openai" | ..., **make_backend kwargs}.
    ray_address: an existing cluster ("host:6379", "ray://host:10001"); None starts a local Ray with
        `num_cpus` CPUs (None: all of them). cpus_per_worker: the CPUs Ray reserves for each actor.
    max_retries: how many times the jobs of a dead actor are re-run on the surviving actors.
    """

    def __init__(
        self,
        index_url: str,
        backend_spec: Mapping[str, Any],
        agent_config: Any,
        *,
        workers: int = 2,
        ray_address: str | None = None,
        num_cpus: int | None = None,
        cpus_per_worker: float = 1.0,
        max_retries: int = 1,
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        if "kind" not in backend_spec:
            raise ValueError("backend_spec needs a 'kind' (a context1.backends.make_backend kind)")
        ray = import_ray()
        if ray_address is not None:
            check_reachable(ray_address)
        check_index_server(index_url)
        if not ray.is_initialized():
            if ray_address is not None:
                ray.init(address=ray_address, log_to_driver=False)
            else:
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        self._ray = ray
        self.index_url = index_url
        self.max_retries = max_retries
        self.stats = {"rerun": 0, "dropped": 0, "workers_lost": 0}
        actor_cls = ray.remote(num_cpus=cpus_per_worker, max_restarts=0)(RolloutWorker)
        self.actors = [actor_cls.remote(index_url, dict(backend_spec), agent_config) for _ in range(workers)]
        ray.get([a.ping.remote() for a in self.actors])

    def load_adapter(self, path: str) -> None:
        """Every live actor samples with the adapter folder `path` from now on (RL after an update)."""
        self._call_all(lambda a: a.load_adapter.remote(str(path)))

    def run(self, jobs: Sequence[tuple[Task, int]]) -> list[Rollout]:
        """Each (task, seed) job's rollout, in job order; jobs of a dead actor re-run or dropped (counted).

        Raises ConnectionError naming the index server's URL when it no longer answers (checked
        first: episodes against a dead index would end as tool errors, not as a clear stop).
        """
        check_index_server(self.index_url)
        results: list[Rollout | None] = [None] * len(jobs)
        pending = list(range(len(jobs)))
        for attempt in range(self.max_retries + 1):
            if not pending or not self.actors:
                break
            if attempt:
                self.stats["rerun"] += len(pending)
            shares = [pending[w :: len(self.actors)] for w in range(len(self.actors))]
            futures = [(a, s, a.run.remote([jobs[i] for i in s])) for a, s in zip(self.actors, shares, strict=True) if s]
            lost: list[int] = []
            for actor, share, future in futures:
                try:
                    for i, rollout in zip(share, self._ray.get(future), strict=True):
                        results[i] = rollout
                except self._ray.exceptions.RayActorError:
                    self._drop(actor)
                    lost += share
            pending = sorted(lost)
        for i in pending:
            self.stats["dropped"] += 1
            results[i] = Rollout(jobs[i][0], None, "the Ray worker running this rollout died")
        return results  # type: ignore[return-value]

    def _drop(self, actor: Any) -> None:
        if actor in self.actors:
            self.actors.remove(actor)
            self.stats["workers_lost"] += 1

    def _call_all(self, submit: Any) -> None:
        for actor in list(self.actors):
            try:
                self._ray.get(submit(actor))
            except self._ray.exceptions.RayActorError:
                self._drop(actor)
        if not self.actors:
            raise RuntimeError("every Ray rollout worker has died")

    def close(self) -> None:
        for actor in self.actors:
            self._ray.kill(actor)
        self.actors = []

    def __enter__(self) -> RolloutPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
