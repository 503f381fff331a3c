"""Rollouts/s: sequential episodes vs lockstep (batched generate) vs Ray workers, and peak memory (issue 23).

    python benchmarks/rollout_speed.py --index runs/i23/mini-index --episodes 8 32 --modes sequential batched ray

SmolLM2-135M (the bundled GGUF, fp32) on CPU samples every episode at T = 1 with its own seed;
harness budget 2,048, `--max-turns` turns, `--max-new-tokens` per turn. Each (mode, episodes) runs
in a fresh subprocess so peak memory is its own: the peak of the summed RSS of that process and
all its children (the Ray raylet, GCS and actors included), sampled every 0.2 s. `ray` starts a
local Ray with `--workers` CPUs and as many actors that reach the index through an in-process,
keyed `context1 serve` (the actors get its key, as in a shared deployment). "server CPU" is the CPU
time of that process during the rollouts (the index server's thread; the learner only waits in
`ray.wait`) and its share of the CPU time of every process of the run (issue 37).
The index is built from tests/fixtures/mini_corpus when the folder does not exist.

    python benchmarks/rollout_speed.py --index DIR --episodes 8 --modes ray --workers 1
    python benchmarks/rollout_speed.py --index DIR --episodes 8 --modes ray --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _queries(corpus, n: int) -> list[str]:
    docs = sorted(corpus.doc_ids())
    return [f"What is known about {corpus.title(docs[i % len(docs)]) or docs[i % len(docs)]} and who is linked to it?"
            for i in range(n)]


class PeakRSS:
    """Peak of the summed RSS of this process and its children, sampled in a thread."""

    def __init__(self, every_s: float = 0.2) -> None:
        import psutil

        self.proc, self.peak, self.every_s = psutil.Process(), 0, every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            total = 0
            for p in [self.proc, *self.proc.children(recursive=True)]:
                try:
                    total += p.memory_info().rss
                except Exception:  # noqa: BLE001 - a child that just exited
                    pass
            self.peak = max(self.peak, total)
            time.sleep(self.every_s)

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return self.peak / 2**30


def _cpu_times() -> tuple[float, dict[int, float]]:
    """(this process's CPU seconds, {pid: CPU seconds} of it and every child process)."""
    import psutil

    me = psutil.Process()
    out = {}
    for p in [me, *me.children(recursive=True)]:
        try:
            t = p.cpu_times()
            out[p.pid] = t.user + t.system
        except Exception:  # noqa: BLE001 - a child that just exited
            pass
    return out.get(me.pid, 0.0), out


def ensure_index(path: Path) -> None:
    if (path / "manifest.json").exists():
        return
    from corpus_tools import Corpus, load_documents

    docs = list(load_documents(ROOT / "tests" / "fixtures" / "mini_corpus").documents)
    Corpus.build(docs, path, progress=False).close()


def one(mode: str, n: int, index: str, max_turns: int, max_new_tokens: int, workers: int) -> dict:
    from corpus_tools import Corpus
    from eval.types import Task
    from training.rl import agent_config_for_small_model
    from training.rollouts import run_rollout, run_rollouts

    mem = PeakRSS()
    load_before = os.getloadavg()[0]
    corpus = Corpus.open(index)
    cfg = agent_config_for_small_model(max_turns=max_turns)
    tasks = [Task(f"q{i}", q, gold_doc_ids=("veldhaven",)) for i, q in enumerate(_queries(corpus, n))]
    seeds = [1000 + i for i in range(n)]
    pool = server = None
    t_setup = time.perf_counter()
    if mode in ("sequential", "batched"):
        from context1.backends import make_backend

        backend = make_backend("transformers", max_new_tokens=max_new_tokens, temperature=1.0)
    else:
        import socket

        import uvicorn

        from context1.interfaces.server import create_app
        from training.distributed import RolloutPool

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        from context1.interfaces.server import ServerConfig

        key = "rollout-speed-key"
        server = uvicorn.Server(uvicorn.Config(create_app(corpus, config=ServerConfig(api_key=key)), host="127.0.0.1",
                                               port=port, log_level="warning"))
        threading.Thread(target=server.run, daemon=True).start()
        while not server.started:
            time.sleep(0.05)
        import ray

        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        spec = {"kind": "transformers", "max_new_tokens": max_new_tokens, "temperature": 1.0}
        pool = RolloutPool(f"http://127.0.0.1:{port}", spec, cfg, workers=workers, api_key=key)
    setup_s = time.perf_counter() - t_setup
    cpu0 = _cpu_times()
    t0 = time.perf_counter()
    if mode == "sequential":
        rollouts = [run_rollout(corpus, backend, t, cfg, s) for t, s in zip(tasks, seeds, strict=True)]
    elif mode == "batched":
        rollouts = run_rollouts(corpus, backend, tasks, cfg, seeds)
    else:
        rollouts = pool.run(list(zip(tasks, seeds, strict=True)))
    wall = time.perf_counter() - t0
    cpu1 = _cpu_times()
    own_cpu, all_cpu = cpu1[0] - cpu0[0], sum(cpu1[1].values()) - sum(cpu0[1].get(p, 0.0) for p in cpu1[1])
    sampled = sum(s.turn.completion_tokens for r in rollouts if r.trajectory for s in r.trajectory.steps)
    turns = sum(len(r.trajectory.steps) for r in rollouts if r.trajectory)
    if pool is not None:
        pool.close()
        server.should_exit = True
    return {
        "mode": mode if mode != "ray" else f"ray ({workers} workers, batched)",
        "episodes": n,
        "failed": sum(r.failed for r in rollouts),
        "turns": turns,
        "sampled_tokens": sampled,
        "wall_s": round(wall, 1),
        "setup_s": round(setup_s, 1),
        "rollouts_per_s": round(n / wall, 4),
        "tokens_per_s": round(sampled / wall, 1),
        "peak_mem_gib": round(mem.stop(), 2),
        "load1": f"{load_before:.1f}-{os.getloadavg()[0]:.1f}",  # the machine's 1-min load average, start-end
        # this process's CPU during the rollouts (with ray: the index server's thread) and its share
        "server_cpu_s": round(own_cpu, 1) if mode == "ray" else None,
        "server_cpu_share": round(own_cpu / all_cpu, 3) if mode == "ray" and all_cpu > 0 else None,
        "torch_threads": __import__("torch").get_num_threads(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", default=str(ROOT / "runs" / "i23" / "mini-index"))
    ap.add_argument("--episodes", type=int, nargs="+", default=[8, 32])
    ap.add_argument("--modes", nargs="+", default=["sequential", "batched", "ray"])
    ap.add_argument("--max-turns", type=int, default=2)
    ap.add_argument("--max-new-tokens", type=int, default=48)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--one", action="store_true", help="(internal) run one configuration, print JSON")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(args.modes[0], args.episodes[0], args.index, args.max_turns, args.max_new_tokens,
                             args.workers)))
        return
    ensure_index(Path(args.index))
    rows = []
    for n in args.episodes:
        for mode in args.modes:
            cmd = [sys.executable, __file__, "--one", "--index", args.index, "--episodes", str(n), "--modes", mode,
                   "--max-turns", str(args.max_turns), "--max-new-tokens", str(args.max_new_tokens),
                   "--workers", str(args.workers)]
            out = subprocess.run(cmd, capture_output=True, text=True, check=False)
            lines = [x for x in out.stdout.splitlines() if x.startswith("{")]
            if out.returncode or not lines:
                print(f"{mode} x {n} failed:\n{out.stderr[-2000:]}", file=sys.stderr)
                continue
            rows.append(json.loads(lines[-1]))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    base = {r["episodes"]: r["rollouts_per_s"] for r in rows if r["mode"] == "sequential"}
    print("| mode | episodes | rollouts/s | × sequential | sampled tokens/s | turns | failed | wall s | peak mem GiB "
          "| server CPU s (share) | load avg |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        speedup = r["rollouts_per_s"] / base[r["episodes"]] if r["episodes"] in base else float("nan")
        print(f"| {r['mode']} | {r['episodes']} | {r['rollouts_per_s']:.3f} | {speedup:.2f} | {r['tokens_per_s']} | "
              f"{r['turns']} | {r['failed']} | {r['wall_s']} | {r['peak_mem_gib']} | "
              f"{_server_cpu(r)} | {r['load1']} |")


def _server_cpu(row: dict) -> str:
    if row.get("server_cpu_s") is None:
        return "-"
    return f"{row['server_cpu_s']} ({row['server_cpu_share']:.1%})"


if __name__ == "__main__":
    main()
