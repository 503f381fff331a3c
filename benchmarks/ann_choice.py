"""Which FAISS index for the approximate dense leg: IVF-Flat, IVF-SQ8, IVF-PQ or HNSW, measured.

Vectors: the real MiniLM chunk vectors of the benchmark indexes (their `vectors*.npy`), grown to
--n lines by reuse: line i past the real ones is normalise(x_a + u·x_b + noise) for random real
rows a, b (u ~ U(0, 0.6), noise σ = 0.01 per dimension), so the set keeps the real vectors'
geometry without copies sitting on top of each other. Queries: real questions encoded by the
index's query encoder, tuning and reporting halves apart (--tune-on, --report-on).

Per candidate: build seconds (train + add), bytes held in memory (the serialised index), query
p50/p95 (one thread, re-scoring included) and recall@100 against exact search over all lines,
with the candidates re-scored exactly as corpus_tools.ann does. The first table is on the tuning
questions (where nprobe was chosen); the chosen setting is then reported on the other questions.

  PYTHONPATH=. HF_HUB_OFFLINE=1 OMP_NUM_THREADS=1 nice -n 15 .venv/bin/python benchmarks/ann_choice.py \\
      --indexes /work/indexes/bench-*-256 --n 300000 --tune-on hotpotqa --report-on musique
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def real_vectors(indexes: list[Path]) -> np.ndarray:
    """Every live chunk vector of the given indexes (unit rows, float32)."""
    from corpus_tools.index_format import read_manifest, vector_files

    parts = []
    for index in indexes:
        if index.suffix == ".jsonl":  # chunks of an index still being built, their vectors beside (scale.py)
            parts.append(np.load(index.with_suffix(".npy")))
            continue
        manifest = read_manifest(index)
        for name in vector_files(manifest["files"]) or []:
            parts.append(np.load(index / name))
    vectors = np.concatenate(parts).astype(np.float32)
    return vectors[np.linalg.norm(vectors, axis=1) > 0.5]


def grow(real: np.ndarray, n: int, seed: int = 0, out: np.ndarray | None = None) -> np.ndarray:
    """`n` unit vectors: the real ones, then mixtures of two real ones plus noise (see the module docstring)."""
    from corpus_tools.vectors import normalise

    rng = np.random.default_rng(seed)
    out = np.empty((n, real.shape[1]), dtype=np.float32) if out is None else out
    m = min(n, len(real))
    out[:m] = real[:m]
    for start in range(m, n, 100_000):
        stop = min(start + 100_000, n)
        a, b = rng.integers(len(real), size=(2, stop - start))
        u = rng.uniform(0, 0.6, size=(stop - start, 1)).astype(np.float32)
        noise = rng.normal(0, 0.01, size=(stop - start, real.shape[1])).astype(np.float32)
        out[start:stop] = normalise(real[a] + u * real[b] + noise)
    return out


def questions(name: str, data_dir: str, limit: int) -> list[str]:
    from eval.loaders import load_benchmark

    return [t.query for t in load_benchmark(name, data_dir).tasks][:limit]


def encode(texts: list[str]) -> np.ndarray:
    from corpus_tools.build import make_embedder
    from corpus_tools.config import CorpusConfig
    from corpus_tools.vectors import normalise

    return normalise(make_embedder(CorpusConfig()).encode_query(texts))


def exact_top(vectors: np.ndarray, queries: np.ndarray, k: int) -> list[set[int]]:
    out = []
    for q in queries:
        scores = vectors @ q
        out.append(set(np.argpartition(-scores, k)[:k].tolist()))
    return out


def measure(index, vectors: np.ndarray, queries: np.ndarray, truth: list[set[int]], k: int, nprobe: int | None):
    """(recall@k, p50 ms, p95 ms) of `index` with exact re-scoring of max(400, 4k) candidates."""
    import faiss

    from corpus_tools.ann import rescore

    params = None
    if nprobe is not None:
        params = faiss.SearchParametersIVF(nprobe=nprobe)
    recalls, times = [], []
    for q, want in zip(queries, truth, strict=True):
        start = time.perf_counter()
        _, ids = index.search(q.reshape(1, -1), rescore(k), params=params)
        found = ids[0][ids[0] >= 0]
        exact = vectors[np.sort(found)] @ q
        best = np.sort(found)[np.argsort(-exact)[:k]]
        times.append((time.perf_counter() - start) * 1000)
        recalls.append(len(set(best.tolist()) & want) / k)
    times.sort()
    return statistics.mean(recalls), times[len(times) // 2], times[int(len(times) * 0.95)]


def build(kind: str, vectors: np.ndarray):
    import faiss

    from corpus_tools.ann import AnnIndex, n_lists

    start = time.perf_counter()
    if kind == "HNSW32":
        index = faiss.index_factory(vectors.shape[1], "HNSW32,Flat", faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = 80
        index.add(vectors)
    else:
        index = AnnIndex.train(vectors, codec=kind.split(",")[1], nlist=n_lists(len(vectors))).index
    seconds = time.perf_counter() - start
    return index, seconds, len(faiss.serialize_index(index))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--indexes", nargs="+", type=Path, required=True)
    parser.add_argument("--n", type=int, default=300_000)
    parser.add_argument("--data-dir", default="/work/shared/data")
    parser.add_argument("--tune-on", default="hotpotqa")
    parser.add_argument("--report-on", default="musique")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--kinds", nargs="+", default=["IVF,Flat", "IVF,SQ8", "IVF,PQ48", "HNSW32"])
    parser.add_argument("--nprobes", nargs="+", type=int, default=[8, 16, 32, 64])
    parser.add_argument("--choose", default="IVF,SQ8:32", help="the setting reported on the other questions")
    parser.add_argument("--rescore-min", type=int, default=None, help="override ann.RESCORE_MIN (candidates re-scored)")
    args = parser.parse_args()
    import faiss

    from corpus_tools import ann

    if args.rescore_min is not None:
        ann.RESCORE_MIN = args.rescore_min
    print(f"candidates re-scored: max({ann.RESCORE_MIN}, {ann.RESCORE_FACTOR}·k)")

    faiss.omp_set_num_threads(1)
    real = real_vectors(args.indexes)
    vectors = grow(real, args.n)
    print(f"{len(real):,} real MiniLM vectors from {len(args.indexes)} indexes, grown to {len(vectors):,}")
    tune = encode(questions(args.tune_on, args.data_dir, args.queries))
    report = encode(questions(args.report_on, args.data_dir, args.queries))
    truth_tune, truth_report = exact_top(vectors, tune, 100), exact_top(vectors, report, 100)
    start = time.perf_counter()
    exact_top(vectors, tune[:20], 100)
    exact_ms = (time.perf_counter() - start) / 20 * 1000
    print(f"exact search: {exact_ms:.1f} ms a query over {len(vectors):,} lines\n")
    print(f"tuning questions ({args.tune_on}, {len(tune)}): recall@100 vs exact, candidates re-scored exactly")
    print(f"{'index':<10} {'nprobe':>6} {'build s':>8} {'MB':>7} {'recall':>7} {'p50 ms':>7} {'p95 ms':>7}")
    built = {}
    for kind in args.kinds:
        index, seconds, size = build(kind, vectors)
        built[kind] = index
        for nprobe in ([None] if kind == "HNSW32" else args.nprobes):
            if kind == "HNSW32":
                index.hnsw.efSearch = 128
            recall, p50, p95 = measure(index, vectors, tune, truth_tune, 100, nprobe)
            shown = "ef128" if nprobe is None else str(nprobe)
            print(f"{kind:<10} {shown:>6} {seconds:>8.1f} {size / 1e6:>7.1f} {recall:>7.3f} {p50:>7.2f} {p95:>7.2f}")
    kind, nprobe = args.choose.split(":")
    if kind in built:
        recall, p50, p95 = measure(built[kind], vectors, report, truth_report, 100, int(nprobe))
        print(f"\nreporting questions ({args.report_on}, {len(report)}), {kind} nprobe {nprobe}: "
              f"recall@100 {recall:.3f}, p50 {p50:.2f} ms, p95 {p95:.2f} ms")


if __name__ == "__main__":
    main()
