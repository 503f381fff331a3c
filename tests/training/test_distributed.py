"""Rollouts on Ray (training.distributed) with a real local Ray (2 CPUs) and a real index server.

The actors reach the index through `context1 serve` (uvicorn on 127.0.0.1) with `context1.Client`.
What must hold: the same rollouts as one process for the same seeds, a dead worker's jobs re-run
(or dropped and counted), clear errors for an unreachable cluster or index server.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest

from context1.interfaces.server import create_app
from training.distributed import RolloutPool, check_reachable
from training.rl import agent_config_for_small_model
from training.rollouts import run_rollouts

ray = pytest.importorskip("ray", reason="the ray extra: pip install 'context1[ray]'")
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def index_url(mini_corpus):
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(mini_corpus), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
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
    assert pool.stats == {"rerun": 0, "dropped": 0, "workers_lost": 0}


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
