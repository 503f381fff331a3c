"""Retrieval quality of corpus_tools on HotpotQA, MuSiQue and SciFact (train), leg by leg.

For each dataset the corpus is the benchmark's paragraph pool as `eval.loaders.load_benchmark`
builds it (HotpotQA/MuSiQue: the de-duplicated union of every question's paragraphs, title + text,
plus the HippoRAG corpus files beside them; SciFact: corpus.csv abstracts). Retrieval runs on
chunks; each document is scored at its best chunk's rank. Configurations:

  bm25       the sparse leg alone              dense   the dense leg alone
  hybrid     RRF of both legs (SearchConfig defaults: 100 per leg, rrf_k 60)
  +biencoder hybrid, top 50 reranked by the index's embedder (cosine)
  +cross     hybrid, top 50 reranked by a local CrossEncoder (--cross-encoder PATH; none ships)

Metrics: HotpotQA/MuSiQue recall@{2,5,10,50} of the gold paragraphs and all-recall@{5,10} (every
gold paragraph in the top k); SciFact nDCG@10, recall@10 and recall@100 against the BEIR qrels.
Each leg is fetched DEPTH chunks deep so that ~100 distinct documents exist even at small chunk
sizes; the hybrid list is exactly the production fusion (legs cut at leg_k) followed by the fusion
of the deeper legs for the documents beyond it.

Indexes are built once under --index-root and reused; embeddings come from the shared content
cache, so rebuilding an index (or another chunk size with the same chunks) embeds nothing twice.

  HF_HUB_OFFLINE=1 .venv/bin/python benchmarks/corpus_quality.py --data-dir ../shared/data
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from corpus_tools import ChunkingConfig, Corpus, CorpusConfig, SearchConfig, reciprocal_rank_fusion  # noqa: E402
from corpus_tools.rerank import make_reranker  # noqa: E402
from eval.loaders import load_benchmark  # noqa: E402
from eval.metrics import all_recall_at_k, ndcg_at_k, recall_at_k  # noqa: E402
from eval.types import Benchmark  # noqa: E402

DEPTH = 500  # chunks fetched per leg: >= 100 distinct SciFact abstracts even at 128-token chunks
MULTIHOP_RECALL_KS = (2, 5, 10, 50)
MULTIHOP_ALL_KS = (5, 10)


# ---------------------------------------------------------------- data and indexes


def limited(bench: Benchmark, limit: int | None) -> Benchmark:
    """The first `limit` tasks over a corpus of their gold documents plus 20x as many others (for development)."""
    if not limit:
        return bench
    tasks = bench.tasks[:limit]
    gold = {d for t in tasks for d in t.gold_doc_ids}
    others = [d for d in bench.documents if d.doc_id not in gold][: 20 * limit]
    docs = [d for d in bench.documents if d.doc_id in gold] + others
    return replace(bench, tasks=tasks, documents=docs)


def open_or_build(bench: Benchmark, path: Path, chunk_tokens: int, progress: bool) -> tuple[Corpus, dict[str, Any]]:
    """The index at `path` if it holds this corpus at this chunk size, else a fresh build."""
    chunking = ChunkingConfig(chunk_tokens=chunk_tokens, overlap_tokens=chunk_tokens // 8)
    info: dict[str, Any] = {"index": str(path), "chunk_tokens": chunk_tokens, "overlap_tokens": chunking.overlap_tokens}
    manifest_path = path / "manifest.json"
    if manifest_path.exists():
        manifest = json.loads(manifest_path.read_text())
        same_docs = manifest.get("doc_count") == len(bench.documents)
        same_chunking = manifest.get("config", {}).get("chunking") == {
            "chunk_tokens": chunking.chunk_tokens,
            "overlap_tokens": chunking.overlap_tokens,
        }
        if same_docs and same_chunking:
            info["built"] = "reused"
            return _open(path), info
    started = time.perf_counter()
    Corpus.build(bench.documents, path, config=CorpusConfig(chunking=chunking), progress=progress).close()
    info["built"] = f"{time.perf_counter() - started:.0f} s"
    return _open(path), info


def _open(path: Path) -> Corpus:
    # Every candidate of both legs comes back with its leg ranks; fusion and reranking happen here.
    return Corpus.open(path, reranker="none", search=SearchConfig(leg_k=DEPTH, candidates=2 * DEPTH))


# ---------------------------------------------------------------- rankings


def leg_rankings(corpus: Corpus, query: str) -> dict[str, list[str]]:
    """Chunk ids best first for the BM25 leg and the dense leg, each DEPTH deep."""
    hits = corpus.search(query, k=2 * DEPTH)
    legs: dict[str, list[str]] = {}
    for leg in ("bm25", "dense"):
        ranked = sorted((h.ranks[leg], h.chunk.chunk_id) for h in hits if leg in h.ranks)
        legs[leg] = [cid for _, cid in ranked]
    return legs


def hybrid(legs: dict[str, list[str]], search: SearchConfig) -> list[str]:
    """Production RRF (legs cut at leg_k), then the deeper fusion's extra chunks."""
    head = [
        cid
        for cid, _ in reciprocal_rank_fusion(
            [legs["bm25"][: search.leg_k], legs["dense"][: search.leg_k]], k=search.rrf_k
        )
    ]
    seen = set(head)
    tail = [cid for cid, _ in reciprocal_rank_fusion([legs["bm25"], legs["dense"]], k=search.rrf_k) if cid not in seen]
    return head + tail


def reranked(corpus: Corpus, reranker: Any, query: str, fused: list[str], candidates: int) -> list[str]:
    """The top `candidates` of the fused list reordered by the reranker, the rest in fused order."""
    top = [corpus.chunk(cid) for cid in fused[:candidates]]
    scores = reranker.score(query, top)
    order = sorted(range(len(top)), key=lambda i: (-float(scores[i]), i))
    return [top[i].chunk_id for i in order] + fused[candidates:]


def doc_ranking(corpus: Corpus, chunk_ids: Sequence[str]) -> list[str]:
    """Documents in the order of their best chunk."""
    return list(dict.fromkeys(corpus.chunk(cid).doc_id for cid in chunk_ids))


# ---------------------------------------------------------------- evaluation


def evaluate(bench: Benchmark, corpus: Corpus, rerankers: dict[str, Any]) -> dict[str, dict[str, float]]:
    search = SearchConfig()
    per_config: dict[str, dict[str, list[float]]] = {}
    seconds: dict[str, float] = {}
    for task in bench.tasks:
        if not task.gold_doc_ids:
            continue
        started = time.perf_counter()
        legs = leg_rankings(corpus, task.query)
        fused = hybrid(legs, search)
        rankings = {"bm25": legs["bm25"], "dense": legs["dense"], "hybrid": fused}
        seconds["legs"] = seconds.get("legs", 0.0) + time.perf_counter() - started
        for name, reranker in rerankers.items():
            started = time.perf_counter()
            rankings[f"hybrid+{name}"] = reranked(corpus, reranker, task.query, fused, search.candidates)
            seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - started
        for config, chunk_ids in rankings.items():
            scores = per_config.setdefault(config, {})
            for metric, value in task_metrics(bench.name, doc_ranking(corpus, chunk_ids), task.gold_doc_ids).items():
                if value is not None:
                    scores.setdefault(metric, []).append(value)
    result = {config: {m: statistics.fmean(v) for m, v in metrics.items()} for config, metrics in per_config.items()}
    n = max(1, sum(1 for t in bench.tasks if t.gold_doc_ids))
    for config in result:
        extra = seconds.get(config.split("+", 1)[1], 0.0) if "+" in config else 0.0
        result[config]["ms_per_query"] = 1000 * (seconds.get("legs", 0.0) + extra) / n
    return result


def task_metrics(dataset: str, docs: list[str], gold: Sequence[str]) -> dict[str, float | None]:
    if dataset == "scifact":
        qrels = dict.fromkeys(gold, 1.0)
        return {
            "ndcg@10": ndcg_at_k(docs, qrels, 10),
            "recall@10": recall_at_k(docs, gold, 10),
            "recall@100": recall_at_k(docs, gold, 100),
        }
    metrics: dict[str, float | None] = {f"recall@{k}": recall_at_k(docs, gold, k) for k in MULTIHOP_RECALL_KS}
    metrics.update({f"all@{k}": all_recall_at_k(docs, gold, k) for k in MULTIHOP_ALL_KS})
    return metrics


def markdown_table(dataset: str, rows: list[dict[str, Any]]) -> str:
    metrics = [m for m in rows[0]["metrics"][next(iter(rows[0]["metrics"]))] if m != "ms_per_query"]
    header = ["chunk tokens", "chunks", "config", *metrics, "ms/query"]
    lines = [f"### {dataset}", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        for config, values in row["metrics"].items():
            cells = [str(row["chunk_tokens"]), f"{row['chunks']:,}", config]
            cells += [f"{values.get(m, float('nan')):.3f}" for m in metrics]
            cells.append(f"{values['ms_per_query']:.0f}")
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--datasets", nargs="+", default=["hotpotqa", "musique", "scifact"])
    parser.add_argument("--chunk-tokens", type=int, default=256, help="the main chunk size, run on every dataset")
    parser.add_argument(
        "--sweep", type=int, nargs="*", default=[128, 512], help="more chunk sizes for --sweep-datasets"
    )
    parser.add_argument("--sweep-datasets", nargs="*", default=["scifact", "musique"])
    parser.add_argument("--cross-encoder", default=None, help="local sentence-transformers CrossEncoder folder")
    parser.add_argument("--limit", type=int, default=None, help="first N tasks over a small corpus (development)")
    parser.add_argument("--index-root", default=str(ROOT / "indexes"))
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "out" / "corpus_quality.json"))
    parser.add_argument("--build-only", action="store_true", help="build (or check) the indexes and stop")
    parser.add_argument("--progress", action="store_true")
    parser.add_argument(
        "--query-threads",
        type=int,
        default=1,
        help="torch threads while evaluating: one short query does not parallelise, and on a shared "
        "2-core machine 2 threads made query encoding 10-100x slower (8 ms vs 0.2-1 s)",
    )
    args = parser.parse_args(argv)

    results: dict[str, Any] = {"args": vars(args), "datasets": {}}
    tables = []
    for dataset in args.datasets:
        bench = limited(load_benchmark(dataset, args.data_dir), args.limit)
        sizes = [args.chunk_tokens] + (
            [s for s in args.sweep if s != args.chunk_tokens] if dataset in args.sweep_datasets else []
        )
        rows = []
        for size in sorted(sizes):
            suffix = f"-limit{args.limit}" if args.limit else ""
            path = Path(args.index_root) / f"bench-{dataset}-{size}{suffix}"
            print(
                f"[{dataset} @ {size}] {len(bench.documents):,} documents, {len(bench.tasks):,} tasks -> {path}",
                flush=True,
            )
            corpus, info = open_or_build(bench, path, size, args.progress)
            info.update({"documents": len(bench.documents), "chunks": len(corpus), "tasks": len(bench.tasks)})
            print(f"[{dataset} @ {size}] index {info['built']}, {len(corpus):,} chunks", flush=True)
            if args.build_only:
                corpus.close()
                continue
            rerankers: dict[str, Any] = {"biencoder": make_reranker("biencoder", corpus.embedder)}
            if args.cross_encoder:
                rerankers["cross"] = make_reranker(args.cross_encoder, corpus.embedder)
            threads = torch.get_num_threads()
            torch.set_num_threads(args.query_threads)
            started = time.perf_counter()
            info["metrics"] = evaluate(bench, corpus, rerankers)
            torch.set_num_threads(threads)
            info["eval_seconds"] = round(time.perf_counter() - started, 1)
            corpus.close()
            rows.append(info)
            print(f"[{dataset} @ {size}] evaluated in {info['eval_seconds']} s", flush=True)
        if rows:
            results["datasets"][dataset] = rows
            tables.append(markdown_table(dataset, rows))
            print("\n" + tables[-1] + "\n", flush=True)
    if tables:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=2))
        print("\n\n".join(tables))
        print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
