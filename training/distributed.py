"""Rollouts and evaluation on Ray: episodes spread over actors that share one index server (or several).

    pool = RolloutPool("http://10.0.0.5:8765", {"kind": "transformers", "model": "/models/qwen"},
                       agent_config, workers=8, ray_address="10.0.0.5:6379", api_key=key)
    rollouts = pool.run([(task, seed), ...])      # list[Rollout], in job order
    pool.close()

DESIGN principle 4: rollouts scale out with Ray, no home-made distributed layer. Each actor opens
a `context1.Client` on a `context1 serve` server (one index for every machine, or a list of URLs
serving the same index: actor i uses URL i mod n; `Client` mirrors `Corpus`, so the actor runs
the same harness as a single process), builds its own backend from `backend_spec`
(`context1.backends.make_backend(kind, **kwargs)`; the LLM-free `iterative` policy gets the client
as its corpus), and runs its share of the jobs with `training.rollouts.run_rollouts` (lockstep,
batched). The learner gathers the `Rollout`s: plain, picklable data. A job's seed travels with it,
so a job gives the same rollout on any actor and in a single process.

Safe against a shared server (issue 37): the server's API key (`api_key`: the CLI reads
CONTEXT1_API_KEY or --api-key-file) goes to every actor and every check; a wrong or missing key is
one `PermissionError` naming the server, raised by the learner before any actor starts. Nothing here
suggests serving without a key on a public address. An actor asks the server whether a document
exists (GET /has_doc) instead of downloading every id, and counts tokens itself with the index's
tokenizer when it has the same model locally (checked against the server on a probe text; otherwise
it asks the server).

Failures: every wait has a timeout (`ray.wait`). An actor that dies or hangs mid-step (killed, out
of memory, node lost, past `timeout_s`) has its jobs re-run on the actors alive, up to `max_retries`
times, then dropped and counted as failed rollouts (`stats`: workers_lost, timed_out, restarted,
rerun, dropped); the step goes on. Actors restart (`max_restarts`): a restarted one is given the
current adapter again before it runs anything. An index server that cannot be reached fails at
construction, and before each run, with a `ConnectionError` naming its URL (the trainer's last
checkpoint is kept). A Ray cluster that cannot be reached raises `ConnectionError` naming the address
before `ray.init` is tried.

Needs the `ray` extra: `pip install 'context1[ray]'`; Ray is imported only when a pool is built.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlparse

from eval.types import Task
from training.rollouts import Rollout

_INSTALL_HINT = "rollouts on Ray need the ray extra: pip install 'context1[ray]'"
_KEY_PROBE = "context1-key-check"  # an id asked for only to prove the key is accepted
_TOKEN_PROBE = "Token counts must agree: 1,234.5 km² — naïve café, 東京."
SERVE_HINT = ("start one with `context1 serve INDEX --api-key-file KEYFILE --host ADDRESS` and pass its URL, with the "
              "same key in CONTEXT1_API_KEY or --api-key-file")


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


def check_index_server(url: str, api_key: str | None = None, timeout_s: float = 10.0) -> dict[str, Any]:
    """The server's /health, once it has answered and accepted `api_key` on a keyed path.

    ConnectionError naming `url` when no `context1 serve` server answers there; PermissionError
    naming it when it refuses the key (or needs one and none was given).
    """
    from context1 import Client

    try:
        with Client(url, api_key=api_key, timeout=timeout_s) as client:
            health = client.health()
            client.has_doc(_KEY_PROBE)  # every path but /health needs the key when the server has one
    except PermissionError as exc:
        given = "refused the API key it was given" if api_key else "needs an API key and none was given"
        raise PermissionError(
            f"the context1 index server at {url!r} {given} ({exc}); give the server's key to the trainer and its "
            "workers: CONTEXT1_API_KEY or --api-key-file"
        ) from None
    except Exception as exc:  # noqa: BLE001 - any other failure means: not usable
        raise ConnectionError(
            f"no context1 index server answers at {url!r} ({type(exc).__name__}: {exc}); {SERVE_HINT}"
        ) from exc
    return health


class LocalTokenCounts:
    """An index client whose `count_tokens` runs here, in the index's own tokenizer.

    Every other method is the client's. The LLM-free policies and the harness count tokens for
    every observation; over HTTP that is a round trip per text to one server process.
    """

    def __init__(self, client: Any, tokenizer: Any) -> None:
        self._client, self._tokenizer = client, tokenizer

    def count_tokens(self, text: str) -> int:
        return self._tokenizer.count(text)

    def search(self, *args: Any, **kwargs: Any) -> Any:
        return self._client.search(*args, **kwargs)

    def grep(self, *args: Any, **kwargs: Any) -> Any:
        return self._client.grep(*args, **kwargs)

    def read(self, *args: Any, **kwargs: Any) -> Any:
        return self._client.read(*args, **kwargs)

    def chunk(self, chunk_id: str) -> Any:
        return self._client.chunk(chunk_id)

    def has_doc(self, doc_id: str) -> bool:
        return self._client.has_doc(doc_id)

    def title(self, doc_id: str) -> str | None:
        return self._client.title(doc_id)

    def __getattr__(self, name: str) -> Any:  # similarity, chunks, doc_ids, health, ...
        return getattr(self._client, name)


def local_token_counter(client: Any, tokenizer_name: str | None) -> Any:
    """`client` wrapped with a local tokenizer when this machine has the index's model and it counts as
    the server does (on a probe text); else `client` itself (the server counts)."""
    if not tokenizer_name:
        return client
    try:
        from corpus_tools.models import default_tokenizer

        tokenizer = default_tokenizer(tokenizer_name)
        if tokenizer.count(_TOKEN_PROBE) != client.count_tokens(_TOKEN_PROBE):
            return client
    except Exception:  # noqa: BLE001 - no such model here, or it differs: the server's count is the truth
        return client
    return LocalTokenCounts(client, tokenizer)


class RolloutWorker:
    """One Ray actor: a client of the index server, its own backend, and the harness."""

    def __init__(self, index_url: str, backend_spec: Mapping[str, Any], agent_config: Any,
                 api_key: str | None = None) -> None:
        from context1 import Client

        health = check_index_server(index_url, api_key)  # a wrong key: one clear error, naming the server
        self.corpus = local_token_counter(Client(index_url, api_key=api_key), health.get("tokenizer"))
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

    def counts_tokens_locally(self) -> bool:
        return isinstance(self.corpus, LocalTokenCounts)


class RolloutPool:
    """`workers` Ray actors running rollouts against the index server(s) at `index_url` (module docstring).

    index_url: one URL, or a list of URLs serving the same index (actor i uses URL i mod n).
    backend_spec: {"kind": "transformers" | "iterative" | "openai" | ..., **make_backend kwargs}.
    api_key: the index server's key (None: a server without one, on this machine).
    ray_address: an existing cluster ("host:6379", "ray://host:10001"); None starts a local Ray with
        `num_cpus` CPUs (None: all of them). cpus_per_worker: the CPUs Ray reserves for each actor.
    max_retries: how many times the jobs of a dead or hung actor are re-run on the actors alive.
    timeout_s: the longest a run's share may take on an actor before the actor is deemed hung.
    start_timeout_s: the longest an actor may take to start (or restart: its model loads).
    max_restarts: how many times Ray restarts each actor after it dies.
    """

    def __init__(
        self,
        index_url: str | Sequence[str],
        backend_spec: Mapping[str, Any],
        agent_config: Any,
        *,
        workers: int = 2,
        ray_address: str | None = None,
        num_cpus: int | None = None,
        cpus_per_worker: float = 1.0,
        max_retries: int = 1,
        api_key: str | None = None,
        timeout_s: float = 3_600.0,
        start_timeout_s: float = 600.0,
        max_restarts: int = 3,
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        if "kind" not in backend_spec:
            raise ValueError("backend_spec needs a 'kind' (a context1.backends.make_backend kind)")
        urls = [index_url] if isinstance(index_url, str) else list(index_url)
        if not urls:
            raise ValueError("index_url: give at least one `context1 serve` URL")
        ray = import_ray()
        if ray_address is not None:
            check_reachable(ray_address)
        for url in urls:
            check_index_server(url, api_key)
        if not ray.is_initialized():
            if ray_address is not None:
                ray.init(address=ray_address, log_to_driver=False)
            else:
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        self._ray = ray
        self.index_urls, self.api_key = urls, api_key
        self.max_retries, self.timeout_s, self.start_timeout_s = max_retries, timeout_s, start_timeout_s
        self.stats = {"rerun": 0, "dropped": 0, "workers_lost": 0, "timed_out": 0, "restarted": 0}
        self._adapter: str | None = None
        self._stale: set[Any] = set()  # actors seen dying or hung, not yet seen alive again
        actor_cls = ray.remote(num_cpus=cpus_per_worker, max_restarts=max_restarts, max_task_retries=0)(RolloutWorker)
        self.actors = [actor_cls.remote(urls[i % len(urls)], dict(backend_spec), agent_config, api_key)
                       for i in range(workers)]
        alive = self._ping(self.actors)
        if len(alive) < len(self.actors):
            self.close()
            raise RuntimeError(f"{workers - len(alive)} of {workers} Ray rollout workers did not start within "
                               f"{start_timeout_s:g} s (see the Ray logs: `ray logs`)")

    @property
    def index_url(self) -> str:
        return self.index_urls[0]

    def load_adapter(self, path: str) -> None:
        """Every live actor samples with the adapter folder `path` from now on (RL after an update)."""
        self._adapter = str(path)
        futures = {a.load_adapter.remote(self._adapter): a for a in self.actors}
        ready, hung = self._ray.wait(list(futures), num_returns=len(futures), timeout=self.start_timeout_s)
        for f in ready:
            try:
                self._ray.get(f)
            except self._ray.exceptions.RayActorError:
                self._lost(futures[f])
        for f in hung:
            self._hung(futures[f])
        if not self._ping(self.actors):
            raise RuntimeError("every Ray rollout worker has died")

    def run(self, jobs: Sequence[tuple[Task, int]]) -> list[Rollout]:
        """Each (task, seed) job's rollout, in job order; jobs of a dead or hung actor re-run or dropped (counted).

        Raises ConnectionError naming the index server's URL when it no longer answers (checked
        first: episodes against a dead index would end as tool errors, not as a clear stop).
        """
        for url in self.index_urls:
            check_index_server(url, self.api_key)
        results: list[Rollout | None] = [None] * len(jobs)
        pending = list(range(len(jobs)))
        actors = list(self.actors)
        for attempt in range(self.max_retries + 1):
            if attempt or self._stale:
                actors = self._ping(self.actors)  # the lost ones restarted, or are gone for good
            if not pending or not actors:
                break
            if attempt:
                self.stats["rerun"] += len(pending)
            shares = [pending[w :: len(actors)] for w in range(len(actors))]
            futures = {self._submit(a, [jobs[i] for i in s]): (a, s) for a, s in zip(actors, shares, strict=True) if s}
            ready, hung = self._ray.wait(list(futures), num_returns=len(futures), timeout=self.timeout_s)
            lost: list[int] = []
            for f in ready:
                actor, share = futures[f]
                try:
                    for i, rollout in zip(share, self._ray.get(f), strict=True):
                        results[i] = rollout
                except self._ray.exceptions.RayActorError:
                    self._lost(actor)
                    lost += share
            for f in hung:
                actor, share = futures[f]
                self._hung(actor)
                lost += share
            pending = sorted(lost)
        for i in pending:
            self.stats["dropped"] += 1
            results[i] = Rollout(jobs[i][0], None, "the Ray worker running this rollout died or hung")
        return results  # type: ignore[return-value]

    def _submit(self, actor: Any, jobs: list[tuple[Task, int]]) -> Any:
        return actor.run.remote(jobs)

    def _lost(self, actor: Any) -> None:
        self.stats["workers_lost"] += 1
        self._stale.add(actor)

    def _hung(self, actor: Any) -> None:
        """An actor past the timeout: killed and restarted by Ray (its work is re-run elsewhere)."""
        self.stats["timed_out"] += 1
        self._ray.kill(actor, no_restart=False)
        self._lost(actor)

    def _ping(self, actors: Sequence[Any]) -> list[Any]:
        """The actors that answer within `start_timeout_s`; the dead for good are removed from the pool.

        An actor that died and was restarted by Ray answers again: it is given the current adapter first.
        """
        alive = []
        for actor in self._answering(actors):
            if actor in self._stale:
                self._stale.discard(actor)
                self.stats["restarted"] += 1
                if self._adapter is not None:
                    try:
                        self._ray.get(actor.load_adapter.remote(self._adapter), timeout=self.start_timeout_s)
                    except (self._ray.exceptions.RayActorError, self._ray.exceptions.GetTimeoutError):
                        continue
            alive.append(actor)
        return alive

    def _answering(self, actors: Sequence[Any]) -> list[Any]:
        """The actors whose ping returns within `start_timeout_s`. One that Ray is restarting answers
        `ActorUnavailableError` until its constructor has run again (its model loads): it is asked
        again until the deadline, and kept in the pool if it is still restarting then. One dead for good
        (restarts spent, or killed without restart) leaves the pool."""
        unavailable = getattr(self._ray.exceptions, "ActorUnavailableError", ())
        deadline = time.monotonic() + self.start_timeout_s
        todo, alive, wait_s = list(actors), [], 0.2
        while todo:
            futures = {a.ping.remote(): a for a in todo}
            left = max(0.0, deadline - time.monotonic())
            ready, _ = self._ray.wait(list(futures), num_returns=len(futures), timeout=left)
            todo = []
            for f in ready:
                actor = futures[f]
                try:
                    self._ray.get(f)
                    alive.append(actor)
                except unavailable:
                    todo.append(actor)  # restarting: ask again
                except self._ray.exceptions.RayActorError:
                    if actor in self.actors:
                        self.actors.remove(actor)
                    self._stale.discard(actor)
            if not todo or time.monotonic() >= deadline:
                break
            time.sleep(wait_s)
            wait_s = min(2.0, wait_s * 2)
        return alive

    def close(self) -> None:
        for actor in self.actors:
            self._ray.kill(actor)
        self.actors = []

    def __enter__(self) -> RolloutPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
