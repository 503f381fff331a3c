"""`search` over HTTP (`context1 serve` + `context1.Client`) against the in-process `Corpus.search`.

Same index, same queries (HotpotQA questions), same k = 10. Rows:

  in-process          Corpus.search in this process, one query at a time
  HTTP, 1 client      Client.search against a `context1 serve` subprocess, one query at a time
  HTTP, N clients     N threads, each with its own Client, sharing the server (throughput)
  HTTP /health        the fixed cost of one round trip with no search (what HTTP itself adds)

Both sides run torch with one thread (OMP_NUM_THREADS=1), as the serving workers do: on a
loaded 2-core machine more threads only add variance. The server is a separate process, as in a
deployment, so the client's Python does not share its interpreter lock. Each row runs the query
list after a warm-up pass; latencies are per request, wall clock. Goal: HTTP adds ≤ 20% at p50.

  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/serve_speed.py --data-dir ../shared/data

Index: `--index PATH` (e.g. indexes/bench-hotpotqa-256, opened read-only), else the paragraphs of
the first 40 HotpotQA questions built once into benchmarks/out/serve_index (git-ignored).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _time_each(fn: Callable[[str], object], queries: Sequence[str]) -> list[float]:
    out = []
    for q in queries:
        t0 = time.perf_counter()
        fn(q)
        out.append(time.perf_counter() - t0)
    return out


def _concurrent(url: str, queries: Sequence[str], n_clients: int) -> tuple[list[float], float, int]:
    from context1 import Client

    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()

    def work(i: int) -> None:
        nonlocal errors
        with Client(url) as client:
            for q in queries[i::n_clients]:
                t0 = time.perf_counter()
                try:
                    client.search(q, k=10)
                except Exception:  # noqa: BLE001 - counted and reported
                    with lock:
                        errors += 1
                    continue
                with lock:
                    latencies.append(time.perf_counter() - t0)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n_clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, time.perf_counter() - t0, errors


def _start_server(index: Path, port: int) -> subprocess.Popen:
    import httpx

    cmd = [sys.executable, "-c", "from context1.interfaces.cli import main; main()", "serve", str(index),
           "--port", str(port), "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    proc.terminate()
    raise SystemExit("the server did not start within 300 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--index", type=Path, default=None)
    parser.add_argument("--questions", type=int, default=200, help="queries per row")
    parser.add_argument("--clients", type=int, default=8, help="threads of the concurrent row")
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    from harness_overhead import load_hotpot

    from context1 import Client, Corpus

    docs, questions = load_hotpot(args.data_dir, 100)
    queries = (questions * (args.questions // len(questions) + 1))[: args.questions]
    index = args.index
    if index is None:
        index = ROOT / "benchmarks" / "out" / "serve_index"
        if not (index / "manifest.json").exists():
            small, _ = load_hotpot(args.data_dir, 40)
            print(f"building {index} from {len(small)} HotpotQA paragraphs (once)...", file=sys.stderr)
            Corpus.build(small, index, progress=False).close()
    corpus = Corpus.open(index)
    server = _start_server(index, args.port)
    url = f"http://127.0.0.1:{args.port}"
    try:
        client = Client(url)
        warm = queries[:20]
        _time_each(lambda q: corpus.search(q, k=10), warm)
        _time_each(lambda q: client.search(q, k=10), warm)
        rows = []
        for name, fn in (("in-process Corpus.search", lambda q: corpus.search(q, k=10)),
                         ("HTTP, 1 client (context1.Client)", lambda q: client.search(q, k=10))):
            t0 = time.perf_counter()
            lat = _time_each(fn, queries)
            rows.append((name, len(lat), len(lat) / (time.perf_counter() - t0), lat, 0))
        t0 = time.perf_counter()
        lat = _time_each(lambda q: client.health(), queries)
        health_row = ("HTTP /health, 1 client (no search)", len(lat), len(lat) / (time.perf_counter() - t0), lat, 0)
        lat, wall, errors = _concurrent(url, queries, args.clients)
        rows.append((f"HTTP, {args.clients} clients", len(lat), len(lat) / wall, lat, errors))
        rows.append(health_row)
        # Interleaved pairs (in-process, HTTP) on the same query: the machine's load hits both alike.
        pairs = [(_time_each(lambda q: corpus.search(q, k=10), [q])[0],
                  _time_each(lambda q: client.search(q, k=10), [q])[0]) for q in queries]
        client.close()
    finally:
        server.terminate()
        server.wait(timeout=30)

    print(f"\nindex: {index} ({len(corpus):,} chunks); {len(queries)} queries, k=10; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs\n")
    print("| path | requests | requests/s | p50 | p95 | errors |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, n, rps, lat, errs in rows:
        print(f"| {name} | {n} | {rps:.1f} | {statistics.median(lat) * 1000:.1f} ms | {_pct(lat, 0.95) * 1000:.1f} ms | {errs} |")
    local_p50 = statistics.median(rows[0][3])
    http_p50 = statistics.median(rows[1][3])
    inproc = statistics.median(p[0] for p in pairs)
    over = statistics.median(p[1] for p in pairs)
    added = statistics.median(p[1] - p[0] for p in pairs)
    print(f"\nHTTP overhead at p50: {100 * (http_p50 / local_p50 - 1):+.1f}% (separate runs); "
          f"interleaved pairs: in-process p50 {inproc * 1000:.1f} ms, HTTP p50 {over * 1000:.1f} ms, "
          f"median added {added * 1000:.1f} ms ({100 * (over / inproc - 1):+.1f}%)")


if __name__ == "__main__":
    main()
