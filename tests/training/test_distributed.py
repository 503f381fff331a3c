"""Rollouts on Ray (training.distributed) with a real local Ray (2 CPUs) and a real index server.

The actors reach the index through `context1 serve` (uvicorn on 127.0.0.1) with `context1.Client`.
What must hold: the same rollouts as one process for the same seeds, a dead worker's jobs re-run
(or dropped and counted), a worker killed mid-step restarted and its jobs re-run, a hung one killed
after the timeout, a keyed server used with its key by every worker and a wrong key refused with one
error naming the server, clear errors for an unreachable cluster or index server (issues 23, 37).
"""

from __future__ import annotations

import socket
import threading
import time

import pytest

from context1.interfaces.server import ServerConfig, create_app
from training.distributed import RolloutPool, check_reachable
from training.rl import agent_config_for_small_model
from training.rollouts import run_rollouts

ray = pytest.importorskip("ray", reason="the ray extra: pip install 'context1[ray]'")
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


KEY = "s3cret-rollout-key"


def _serve(corpus, config=None):
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(corpus, config=config), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}", server, thread


@pytest.fixture(scope="module")
def index_url(mini_corpus):
    url, server, thread = _serve(mini_corpus)
    yield url
    server.should_exit = True
    thread.join(timeout=30)


@pytest.fixture(scope="module")
def keyed_url(mini_corpus):
    url, server, thread = _serve(mini_corpus, ServerConfig(api_key=KEY))
    yield url
    server.should_exit = True
    thread.join(timeout=30)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _jobs(tasks, n=2):
    return [(t, 100 + 10 * i + g) for i, t in enumerate(tasks) for g in range(n)]


def _tokens(rollout):
    return [list(s.turn.token_ids or ()) for s in rollout.trajectory.steps]


def test_ray_rollouts_equal_single_process_ones_for_the_same_seeds(local_ray, index_url, mini_tasks, smollm2) -> None:
    from context1 import Client
    from context1.backends import make_backend

    cfg = agent_config_for_small_model(max_turns=1)
    spec = {"kind": "transformers", "model": str(smollm2), "max_new_tokens": 8, "temperature": 1.0}
    jobs = _jobs(mini_tasks)
    with RolloutPool(index_url, spec, cfg, workers=2) as pool:
        remote = pool.run(jobs)
    with Client(index_url) as corpus:
        backend = make_backend("transformers", model=str(smollm2), max_new_tokens=8, temperature=1.0)
        local = run_rollouts(corpus, backend, [t for t, _ in jobs], cfg, [s for _, s in jobs])
    assert [r.task.task_id for r in remote] == [t.task_id for t, _ in jobs]
    assert not any(r.failed for r in remote)
    assert [_tokens(r) for r in remote] == [_tokens(r) for r in local]
    assert len({str(_tokens(r)) for r in remote}) > 1  # the seeds really differ
    assert pool.stats == {"rerun": 0, "dropped": 0, "workers_lost": 0, "timed_out": 0, "restarted": 0}


def test_a_dead_worker_has_its_jobs_rerun_or_dropped_and_counted(local_ray, index_url, mini_tasks) -> None:
    cfg = agent_config_for_small_model(max_turns=2)
    jobs = _jobs(mini_tasks)
    with RolloutPool(index_url, {"kind": "iterative"}, cfg, workers=2) as pool:
        baseline = pool.run(jobs)
        ray.kill(pool.actors[0])  # a worker lost mid-run (node gone, OOM killer)
        again = pool.run(jobs)
        assert pool.stats["workers_lost"] == 1 and pool.stats["rerun"] == 2 and pool.stats["dropped"] == 0
    assert [r.trajectory.documents for r in again] == [r.trajectory.documents for r in baseline]
    with RolloutPool(index_url, {"kind": "iterative"}, cfg, workers=2, max_retries=0) as pool:
        ray.kill(pool.actors[1])
        out = pool.run(jobs)
        assert pool.stats["dropped"] == 2
    assert sum(r.failed for r in out) == 2 and "Ray worker running this rollout died" in next(r.error for r in out if r.failed)
    assert sum(not r.failed for r in out) == 2  # the step goes on with the others


def test_an_unreachable_cluster_or_index_server_is_a_clear_error(index_url) -> None:
    address = f"127.0.0.1:{_free_port()}"
    with pytest.raises(ConnectionError, match=address):
        check_reachable(address, timeout_s=2)
    with pytest.raises(ConnectionError, match=address):
        RolloutPool(index_url, {"kind": "iterative"}, agent_config_for_small_model(), ray_address=address)
    gone = f"http://127.0.0.1:{_free_port()}"
    with pytest.raises(ConnectionError, match=gone):
        RolloutPool(gone, {"kind": "iterative"}, agent_config_for_small_model())
    with pytest.raises(ValueError, match="host:port"):
        check_reachable("no-port-here")


def test_an_index_server_that_goes_away_stops_the_next_run_with_its_url(local_ray, mini_corpus, mini_tasks) -> None:
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(mini_corpus), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    with RolloutPool(url, {"kind": "iterative"}, agent_config_for_small_model(), workers=1) as pool:
        assert not any(r.failed for r in pool.run(_jobs(mini_tasks[:1], 1)))
        server.should_exit = True
        thread.join(timeout=30)
        with pytest.raises(ConnectionError, match=url):
            pool.run(_jobs(mini_tasks[:1], 1))


def test_a_keyed_server_is_used_with_its_key_and_a_wrong_key_is_one_clear_error(local_ray, keyed_url,
                                                                                mini_tasks) -> None:
    cfg = agent_config_for_small_model(max_turns=2)
    with pytest.raises(PermissionError, match=f"{keyed_url}.*refused the API key"):
        RolloutPool(keyed_url, {"kind": "iterative"}, cfg, workers=1, api_key="wrong")
    with pytest.raises(PermissionError, match=f"{keyed_url}.*needs an API key"):
        RolloutPool(keyed_url, {"kind": "iterative"}, cfg, workers=1)
    with RolloutPool(keyed_url, {"kind": "iterative"}, cfg, workers=2, api_key=KEY) as pool:
        out = pool.run(_jobs(mini_tasks))
        # each worker counts tokens itself (the index's MiniLM tokenizer is on this machine)
        assert all(ray.get([a.counts_tokens_locally.remote() for a in pool.actors]))
    assert not any(r.failed for r in out) and all(r.trajectory.documents for r in out)


class _KillsMidStep(RolloutPool):
    """Kills (with a restart) the first actor right after its share of the first run was submitted."""

    killed = False

    def _submit(self, actor, jobs):
        future = super()._submit(actor, jobs)
        if not self.killed:
            self.killed = True
            ray.kill(actor, no_restart=False)  # the worker process dies with the share in flight
        return future


def test_a_worker_killed_mid_step_is_restarted_and_its_jobs_rerun(local_ray, index_url, mini_tasks) -> None:
    cfg = agent_config_for_small_model(max_turns=2)
    jobs = _jobs(mini_tasks)
    with RolloutPool(index_url, {"kind": "iterative"}, cfg, workers=2) as pool:
        baseline = pool.run(jobs)
    with _KillsMidStep(index_url, {"kind": "iterative"}, cfg, workers=2) as pool:
        out = pool.run(jobs)
        assert pool.stats["workers_lost"] == 1 and pool.stats["restarted"] == 1 and pool.stats["rerun"] == 2
        assert pool.stats["dropped"] == 0 and len(pool.actors) == 2  # the killed one is back
        assert not any(r.failed for r in pool.run(jobs))  # and takes work again
    assert [r.trajectory.documents for r in out] == [r.trajectory.documents for r in baseline]


def test_a_hung_worker_is_killed_after_the_timeout_and_its_jobs_dropped_and_counted(local_ray, index_url,
                                                                                     mini_tasks) -> None:
    cfg = agent_config_for_small_model(max_turns=2)
    with RolloutPool(index_url, {"kind": "iterative"}, cfg, workers=2, max_retries=0) as pool:
        pool.timeout_s = 0.0  # no share can finish in no time: every actor is "hung"
        out = pool.run(_jobs(mini_tasks))
        assert pool.stats["timed_out"] == 2 and pool.stats["dropped"] == 4
        assert all(r.failed and "died or hung" in r.error for r in out)
        pool.timeout_s = 600.0
        assert not any(r.failed for r in pool.run(_jobs(mini_tasks)))  # restarted, the pool goes on
        assert pool.stats["restarted"] == 2


def test_the_cli_gives_workers_the_key_from_the_environment_or_a_file(keyed_url, mini_corpus, mini_tasks,
                                                                       tmp_path, monkeypatch) -> None:
    import dataclasses
    import json

    from typer.testing import CliRunner

    from context1.interfaces.cli import app
    from training.cli import register

    register(app) if "train" not in {g.name for g in app.registered_groups} else None
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps(dataclasses.asdict(t)) + "\n" for t in mini_tasks))
    args = ["train", "eval", str(mini_corpus.path), "--tasks", str(tasks), "--backend", "iterative", "--workers", "1",
            "--index-url", keyed_url, "--no-progress"]
    monkeypatch.setenv("CONTEXT1_API_KEY", "wrong")
    res = CliRunner().invoke(app, args)  # refused before Ray starts: one line naming the server
    assert res.exit_code == 2 and keyed_url in res.output and "refused the API key" in res.output
    (tmp_path / "empty.key").write_text("\n")
    res = CliRunner().invoke(app, [*args, "--api-key-file", str(tmp_path / "empty.key")])
    assert res.exit_code == 2 and "is empty" in res.output
