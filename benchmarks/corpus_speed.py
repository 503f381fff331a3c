"""Speed and memory of corpus_tools: the BM25 leg, hybrid search, rerankers, indexing, peak RSS.

Measurements (each in its own subprocess, so peak RSS is that job's alone):
  bm25     our BM25 leg (`BM25Index.top`, bm25s) vs rank-bm25's BM25Okapi on the same chunks and
           the same tokens (scoring + top-100 per query); goal: >= 50x faster.
  search   `Corpus.search(k=10)` p50/p95 at ~5k and ~50k chunks, next to its parts measured alone
           (query embedding, the BM25 leg, the dense leg), and per reranker ("none", "biencoder",
           a CrossEncoder folder with --cross-encoder).
  index    indexing throughput (chunks/s, cold embedding cache in a temp folder) next to the
           embedding model's own encode throughput on the same texts.
  memory   peak RSS of building each index and of a process serving searches on it.

The ~5k corpus is HotpotQA's paragraph pool (eval.loaders); the ~50k corpus is the same
paragraphs copied 11 times under distinct doc ids (the content-addressed embedding cache makes
the copies cheap to embed, which is the point: the index still holds 50k vectors).

  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/corpus_speed.py --data-dir ../shared/data
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LEG_K = 100  # SearchConfig.leg_k: what each leg fetches per search


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _ms(values: Sequence[float]) -> dict[str, float]:
    return {
        "p50_ms": 1000 * _pct(values, 0.5),
        "p95_ms": 1000 * _pct(values, 0.95),
        "mean_ms": 1000 * statistics.fmean(values),
    }


def _load(data_dir: str, dataset: str):
    from eval.loaders import load_benchmark

    return load_benchmark(dataset, data_dir)


def _documents(data_dir: str, dataset: str, copies: int, limit: int | None = None):
    from corpus_tools import Document

    docs = _load(data_dir, dataset).documents[:limit]
    out = list(docs)
    for i in range(1, copies):
        out += [Document(f"{d.doc_id}@copy{i}", d.text, d.title, d.metadata) for d in docs]
    return out


# ---------------------------------------------------------------- workers (run in subprocesses)


def worker_build(args: argparse.Namespace) -> dict[str, Any]:
    from corpus_tools import ChunkingConfig, Corpus, CorpusConfig

    docs = _documents(args.data_dir, args.dataset, args.copies)
    config = CorpusConfig(chunking=ChunkingConfig(args.chunk_tokens, args.chunk_tokens // 8))
    started = time.perf_counter()
    corpus = Corpus.build(docs, args.path, config=config, progress=False)
    seconds = time.perf_counter() - started
    result = {"documents": len(docs), "chunks": len(corpus), "build_s": seconds, "peak_rss_mb": _peak_rss_mb()}
    corpus.close()
    return result


def worker_serve(args: argparse.Namespace) -> dict[str, Any]:
    import torch

    from corpus_tools import Corpus

    torch.set_num_threads(args.threads)
    queries = [t.query for t in _load(args.data_dir, args.dataset).tasks][: args.queries]
    started = time.perf_counter()
    corpus = Corpus.open(args.path, reranker=args.reranker)
    result: dict[str, Any] = {"chunks": len(corpus), "open_s": time.perf_counter() - started}
    for q in queries[:5]:  # warm-up: first calls load lazily and fill caches
        corpus.search(q, k=10)
    timings = []
    for q in queries:
        t0 = time.perf_counter()
        corpus.search(q, k=10)
        timings.append(time.perf_counter() - t0)
    result["search"] = _ms(timings)
    if args.parts:
        # The parts of a search, alone (private attributes: a benchmark may look inside).
        state, store = corpus._state, corpus._store
        parts: dict[str, list[float]] = {"query_embedding": [], "bm25": [], "dense": []}
        for q in queries:
            t0 = time.perf_counter()
            vector = corpus.embedder.encode_query([q])[0]
            t1 = time.perf_counter()
            state.bm25.top(q, LEG_K)
            t2 = time.perf_counter()
            store.query(vector, LEG_K)
            t3 = time.perf_counter()
            parts["query_embedding"].append(t1 - t0)
            parts["bm25"].append(t2 - t1)
            parts["dense"].append(t3 - t2)
        result["parts"] = {name: _ms(values) for name, values in parts.items()}
    if args.reranker != "none":
        from corpus_tools import BiEncoderReranker

        # Scoring 50 candidates alone; the bi-encoder reuses the query vector the dense leg computed,
        # as Corpus.search does, so its cost here is reading and scoring the stored chunk vectors.
        candidates = [h.chunk for h in corpus.search(queries[0], k=50)]
        reuse_vector = isinstance(corpus.reranker, BiEncoderReranker)
        rerank_times = []
        for q in queries:
            extra = {"query_vector": corpus.embedder.encode_query([q])[0]} if reuse_vector else {}
            t0 = time.perf_counter()
            corpus.reranker.score(q, candidates, **extra)
            rerank_times.append(time.perf_counter() - t0)
        result["rerank_50"] = _ms(rerank_times)
    result["peak_rss_mb"] = _peak_rss_mb()
    corpus.close()
    return result


def worker_throughput(args: argparse.Namespace) -> dict[str, Any]:
    from corpus_tools import ChunkingConfig, Corpus, CorpusConfig, retrieval_text
    from corpus_tools.build import make_tokenizer
    from corpus_tools.chunking import chunk_documents
    from corpus_tools.embed import load_embedder

    docs = _documents(args.data_dir, args.dataset, 1, limit=args.limit)
    config = CorpusConfig(chunking=ChunkingConfig(args.chunk_tokens, args.chunk_tokens // 8))
    chunks = list(chunk_documents(docs, make_tokenizer(config), config.chunking))
    texts = [retrieval_text(c) for c in chunks]
    embedder = load_embedder(None)
    embedder.encode_document(texts[:64])  # warm-up
    started = time.perf_counter()
    embedder.encode_document(texts)  # one call: sentence-transformers sorts by length, little padding
    encode_s = time.perf_counter() - started
    started = time.perf_counter()
    for i in range(0, len(texts), config.batch_size):  # as a build feeds it: batches in document order
        embedder.encode_document(texts[i : i + config.batch_size])
    batched_s = time.perf_counter() - started
    del embedder
    with tempfile.TemporaryDirectory() as tmp:
        cold = CorpusConfig(chunking=config.chunking, embedding_cache=str(Path(tmp) / "cache"))
        started = time.perf_counter()
        corpus = Corpus.build(docs, Path(tmp) / "index", config=cold, progress=False)
        build_s = time.perf_counter() - started
        n = len(corpus)
        corpus.close()
    return {
        "documents": len(docs),
        "chunks": n,
        "encode_chunks_per_s": len(texts) / encode_s,
        "encode_in_order_batches_chunks_per_s": len(texts) / batched_s,
        "index_chunks_per_s": n / build_s,
        "build_s": build_s,
        "encode_s": encode_s,
        "peak_rss_mb": _peak_rss_mb(),
    }


def _per_query(fn: Any, queries: list[str], repeats: int = 3) -> list[float]:
    """Seconds per query: the best of `repeats` passes over all queries."""
    best = [float("inf")] * len(queries)
    for _ in range(repeats):
        for i, q in enumerate(queries):
            t0 = time.perf_counter()
            fn(q)
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def worker_bm25(args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np
    from rank_bm25 import BM25Okapi

    from corpus_tools import BM25Config, Corpus, retrieval_text
    from corpus_tools.bm25 import BM25Index

    corpus = Corpus.open(args.path)
    chunks = [corpus.chunk(cid) for cid in _chunk_ids(corpus)]
    texts = [retrieval_text(c) for c in chunks]
    corpus.close()
    queries = [t.query for t in _load(args.data_dir, args.dataset).tasks][: args.queries]
    ours = BM25Index.build(texts, BM25Config())
    tokens = [ours.tokenizer(t) for t in texts]
    theirs = BM25Okapi(tokens)
    for q in queries[:5]:  # warm-up (first calls allocate)
        ours.top(q, LEG_K)
        theirs.get_scores(ours.tokenizer(q))
    def theirs_top(q: str) -> None:
        scores = theirs.get_scores(ours.tokenizer(q))
        top = np.argpartition(-scores, LEG_K)[:LEG_K]
        top[np.argsort(-scores[top])]

    # Each library runs all queries in its own loop (best of 3 passes per query), so neither
    # evicts the other's working set from the CPU caches between calls.
    ours_t = _per_query(lambda q: ours.top(q, LEG_K), queries)
    theirs_t = _per_query(theirs_top, queries)
    return {
        "chunks": len(texts),
        "queries": len(queries),
        "ours": _ms(ours_t),
        "rank_bm25": _ms(theirs_t),
        "speedup_mean": statistics.fmean(theirs_t) / statistics.fmean(ours_t),
        "speedup_p50": _pct(theirs_t, 0.5) / _pct(ours_t, 0.5),
    }


def _chunk_ids(corpus) -> list[str]:
    return [c.chunk_id for doc_id in corpus.doc_ids() for c in corpus.chunks(doc_id)]


WORKERS = {"build": worker_build, "serve": worker_serve, "throughput": worker_throughput, "bm25": worker_bm25}


def run_worker(kind: str, **options: Any) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--worker", kind]
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            cmd.append(flag)
        elif value is not None and value is not False:
            cmd += [flag, str(value)]
    print("  $", " ".join(cmd[1:]), flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"worker {kind} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------- orchestration and tables


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--dataset", default="hotpotqa")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 11], help="copies of the corpus per index")
    parser.add_argument("--chunk-tokens", type=int, default=256)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--threads", type=int, default=1, help="torch threads of the serving processes")
    parser.add_argument("--cross-encoder", default=None)
    parser.add_argument("--throughput-docs", type=int, default=1000, help="documents embedded with a cold cache")
    parser.add_argument("--reuse", action="store_true", help="reuse existing indexes (no build time or RSS)")
    parser.add_argument("--index-root", default=str(ROOT / "indexes"))
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "out" / "corpus_speed.json"))
    # worker-only options
    parser.add_argument("--worker", choices=sorted(WORKERS))
    parser.add_argument("--path")
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--reranker", default="none")
    parser.add_argument("--parts", action="store_true")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args(argv)

    if args.worker:
        print(json.dumps(WORKERS[args.worker](args)))
        return

    common = {"data_dir": args.data_dir, "dataset": args.dataset}
    results: dict[str, Any] = {"args": vars(args), "indexes": {}}
    for copies in args.sizes:
        path = Path(args.index_root) / f"speed-{args.dataset}-x{copies}"
        entry: dict[str, Any] = {"path": str(path)}
        print(f"[x{copies}] {path}", flush=True)
        if not (args.reuse and (path / "manifest.json").exists()):
            entry["build"] = run_worker("build", path=path, copies=copies, chunk_tokens=args.chunk_tokens, **common)
        rerankers = ["none", "biencoder"] + ([args.cross_encoder] if args.cross_encoder else [])
        entry["serve"] = {}
        for reranker in rerankers:
            entry["serve"][reranker] = run_worker(
                "serve",
                path=path,
                reranker=reranker,
                queries=args.queries,
                threads=args.threads,
                parts=reranker == "none",
                **common,
            )
        entry["bm25"] = run_worker("bm25", path=path, queries=min(args.queries, 100), **common)
        results["indexes"][f"x{copies}"] = entry
        print(json.dumps(entry, indent=1), flush=True)
    print("[throughput] cold cache", flush=True)
    results["throughput"] = run_worker(
        "throughput", limit=args.throughput_docs, chunk_tokens=args.chunk_tokens, **common
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2))
    print(tables(results))
    print(f"\nwrote {out}")


def tables(results: dict[str, Any]) -> str:
    lines = [
        "### BM25 leg vs rank-bm25 (top-100 per query)",
        "",
        "| chunks | ours p50 ms | rank-bm25 p50 ms | speedup (mean) | speedup (p50) |",
        "|---|---|---|---|---|",
    ]
    for entry in results["indexes"].values():
        b = entry["bm25"]
        lines.append(
            f"| {b['chunks']:,} | {b['ours']['p50_ms']:.2f} | {b['rank_bm25']['p50_ms']:.1f} | "
            f"{b['speedup_mean']:.0f}x | {b['speedup_p50']:.0f}x |"
        )
    lines += [
        "",
        "### Hybrid search latency (k=10) and its parts alone",
        "",
        "| chunks | search p50 | search p95 | query embedding p50 | BM25 leg p50 | dense leg p50 | sum of parts p50 |",
        "|---|---|---|---|---|---|---|",
    ]
    for entry in results["indexes"].values():
        s = entry["serve"]["none"]
        p = s["parts"]
        total = sum(p[k]["p50_ms"] for k in ("query_embedding", "bm25", "dense"))
        lines.append(
            f"| {s['chunks']:,} | {s['search']['p50_ms']:.1f} ms | {s['search']['p95_ms']:.1f} ms | "
            f"{p['query_embedding']['p50_ms']:.1f} ms | {p['bm25']['p50_ms']:.1f} ms | {p['dense']['p50_ms']:.1f} ms | {total:.1f} ms |"
        )
    lines += [
        "",
        "### Rerankers (50 candidates)",
        "",
        "| chunks | reranker | search p50 | search p95 | rerank alone p50 | serving peak RSS |",
        "|---|---|---|---|---|---|",
    ]
    for entry in results["indexes"].values():
        for name, s in entry["serve"].items():
            rr = s.get("rerank_50", {}).get("p50_ms")
            lines.append(
                f"| {s['chunks']:,} | {name} | {s['search']['p50_ms']:.1f} ms | {s['search']['p95_ms']:.1f} ms | "
                f"{'–' if rr is None else f'{rr:.1f} ms'} | {s['peak_rss_mb']:.0f} MiB |"
            )
    lines += [
        "",
        "### Building",
        "",
        "| chunks | build time | build peak RSS | serving peak RSS (no reranker) |",
        "|---|---|---|---|",
    ]
    for entry in results["indexes"].values():
        b = entry.get("build")
        s = entry["serve"]["none"]
        if b:
            lines.append(
                f"| {b['chunks']:,} | {b['build_s']:.0f} s (warm embedding cache) | {b['peak_rss_mb']:.0f} MiB | {s['peak_rss_mb']:.0f} MiB |"
            )
    t = results["throughput"]
    lines += [
        "",
        "### Indexing throughput (cold embedding cache)",
        "",
        "| chunks | Corpus.build chunks/s | model encode, one call | model encode, 64-chunk batches in order | build / encode |",
        "|---|---|---|---|---|",
        f"| {t['chunks']:,} | {t['index_chunks_per_s']:.1f} | {t['encode_chunks_per_s']:.1f} | "
        f"{t['encode_in_order_batches_chunks_per_s']:.1f} | {t['index_chunks_per_s'] / t['encode_chunks_per_s']:.2f} |",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
