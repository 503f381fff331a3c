"""A learned fusion of the two legs, fitted on generated tasks, against RRF on real questions (issue 8's
"what does earn its place" question, asked of the cheapest possible reranker).

RRF keeps only the ranks of the BM25 and dense legs. This fits a linear score over a few per-candidate
features of the fused top 50 (each leg's RRF term, the BM25 score over the query's best BM25 score,
the cosine and its gap to the query's best cosine, a leg-missed flag each) by listwise softmax
cross-entropy on GENERATED tasks over the same corpus (the reranker trainer's queries and clues,
`runs/tasks/<corpus>-offline-train.jsonl`), then reorders the fused top 50 of the benchmark's real
questions with it. The questions are never used to fit; the reporting part is reranker_quality's.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/fusion_learned.py --dataset scifact \
        --index indexes/bench-scifact-256 --tasks runs/tasks/scifact-offline-train.jsonl
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_quality import DEPTH, _open, doc_ranking, hybrid, task_metrics  # noqa: E402
from reranker_quality import select  # noqa: E402

from corpus_tools import SearchConfig  # noqa: E402
from datagen.records import read_task_file  # noqa: E402
from eval.loaders import load_benchmark  # noqa: E402
from training.reranker_data import hop_queries, question_query  # noqa: E402

FEATURES = ("rrf_bm25", "rrf_dense", "bm25/best", "cosine", "cosine-best", "bm25 missed", "dense missed")


def candidates(corpus: Any, query: str, search: SearchConfig) -> tuple[list[str], np.ndarray]:
    """The production fused top `search.candidates` chunk ids and their feature rows."""
    hits = {h.chunk.chunk_id: h for h in corpus.search(query, k=2 * DEPTH)}
    legs = {
        leg: [cid for _, cid in sorted((h.ranks[leg], cid) for cid, h in hits.items() if leg in h.ranks)]
        for leg in ("bm25", "dense")
    }
    top = hybrid(legs, search)[: search.candidates]  # the production fused order
    bm25 = [h.scores["bm25"] for h in hits.values() if "bm25" in h.scores] or [1.0]
    cos = [h.scores["dense"] for h in hits.values() if "dense" in h.scores] or [0.0]
    best_bm25, best_cos, floor_cos = max(bm25), max(cos), min(cos)
    rows = []
    for cid in top:
        h = hits[cid]
        rb, rd = h.ranks.get("bm25"), h.ranks.get("dense")
        c = h.scores.get("dense", floor_cos)  # a chunk the dense leg missed scores below its last hit
        rows.append(
            [
                search.rrf_k / (search.rrf_k + rb) if rb else 0.0,
                search.rrf_k / (search.rrf_k + rd) if rd else 0.0,
                h.scores.get("bm25", 0.0) / best_bm25 if best_bm25 > 0 else 0.0,
                c,
                c - best_cos,
                float(rb is None),
                float(rd is None),
            ]
        )
    return top, np.asarray(rows, dtype=np.float64)


def fit(groups: list[tuple[np.ndarray, np.ndarray]], l2: float = 1e-3) -> np.ndarray:
    """Weights minimising mean listwise softmax cross-entropy (positives share the target mass)."""

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = 0.0, np.zeros_like(w)
        for x, y in groups:
            s = x @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            target = y / y.sum()
            total -= float(target @ np.log(p + 1e-12))
            grad += x.T @ (p - target)
        n = len(groups)
        return total / n + l2 * float(w @ w), grad / n + 2 * l2 * w

    w0 = np.zeros(len(FEATURES))
    w0[:2] = 1.0  # start at RRF itself
    return minimize(loss, w0, jac=True, method="L-BFGS-B").x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", required=True, choices=["scifact", "hotpotqa", "musique"])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--index", required=True)
    parser.add_argument("--tasks", required=True, help="generated task file over the same corpus (never the questions)")
    parser.add_argument("--max-queries", type=int, default=1500, help="generated queries to fit on")
    parser.add_argument("--part", default="report", choices=["tune", "report", "all"])
    args = parser.parse_args()

    search = SearchConfig()
    corpus = _open(Path(args.index))
    started = time.perf_counter()
    queries: list[tuple[str, set[str]]] = []
    for task in read_task_file(args.tasks):
        kind = (task.metadata or {}).get("truth_type")
        queries.append((question_query(task.query, kind), set(task.gold_chunk_ids)))
        queries += [(question_query(q, kind), set(ids)) for q, ids in hop_queries(task)]
    groups, skipped = [], 0
    # How lexical each query set is: the share whose BM25 (dense) top hit is gold.
    top1: dict[str, list[tuple[bool, bool]]] = {"generated": [], "questions": []}
    for query, gold in queries[: args.max_queries]:
        top, x = candidates(corpus, query, search)
        y = np.array([1.0 if cid in gold or corpus.chunk(cid).doc_id in gold else 0.0 for cid in top])
        if y.sum() == 0 or len(top) < 2:
            skipped += 1  # no gold chunk in the top 50: nothing to learn about the order
            continue
        groups.append((x, y))
        top1["generated"].append((y[int(np.argmax(x[:, 0]))] > 0, y[int(np.argmax(x[:, 1]))] > 0))
    w = fit(groups)
    fit_s = time.perf_counter() - started
    print(f"fitted on {len(groups)} generated queries ({skipped} without a gold chunk in the top 50) in {fit_s:.0f} s")
    print("weights: " + ", ".join(f"{n} {v:+.3f}" for n, v in zip(FEATURES, w, strict=True)))

    bench = load_benchmark(args.dataset, args.data_dir)
    tasks = select(bench.tasks, args.part, None)
    per: dict[str, dict[str, list[float]]] = {"hybrid (RRF)": {}, "learned fusion": {}}
    for task in tasks:
        top, x = candidates(corpus, task.query, search)
        gold = set(task.gold_doc_ids)
        top1["questions"].append(tuple(corpus.chunk(top[int(np.argmax(x[:, j]))]).doc_id in gold for j in (0, 1)))
        learned = [top[i] for i in sorted(range(len(top)), key=lambda i: (-float(x[i] @ w), i))]
        for name, ranking in (("hybrid (RRF)", top), ("learned fusion", learned)):
            for metric, value in task_metrics(args.dataset, doc_ranking(corpus, ranking), task.gold_doc_ids).items():
                if value is not None:
                    per[name].setdefault(metric, []).append(value)
    corpus.close()
    metrics = list(per["hybrid (RRF)"])
    print(f"\n### {args.dataset}, {args.part} part ({len(tasks)} questions), top {search.candidates} reordered\n")
    print("| config | " + " | ".join(metrics) + " |\n|---|" + "---|" * len(metrics))
    for name, values in per.items():
        print(f"| {name} | " + " | ".join(f"{statistics.fmean(values[m]):.3f}" for m in metrics) + " |")
    print("\n| query set | queries | BM25 top hit is gold | dense top hit is gold |\n|---|---|---|---|")
    for name, pairs in top1.items():
        bm25, dense = (statistics.fmean(float(p[j]) for p in pairs) for j in (0, 1))
        print(f"| {name} | {len(pairs)} | {bm25:.3f} | {dense:.3f} |")


if __name__ == "__main__":
    main()
