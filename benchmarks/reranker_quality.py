"""Trained cross-encoder reranker vs none vs the bi-encoder, with the latency of each speed variant (issue 8).

Same index, same run, same fused candidates: for each task the production fusion (BM25 ∥ dense, RRF)
gives the ranking "hybrid" (no reranker); "+biencoder" reorders its top 50 by cosine with the
index's embedder; "+ce:<variant>" reorders them with the trained CrossEncoder, one row per speed
variant (fp32 / int8 dynamic quantisation × max tokens of query + chunk), each timed per rerank of
50 candidates (p50/p95, torch threads = --threads, cache off so every call is scored).

Metrics as benchmarks/corpus_quality.py: SciFact nDCG@10, recall@10, recall@100 (BEIR qrels);
HotpotQA/MuSiQue recall@{2,5,10,50} and all-recall@{5,10}, documents ranked by their best chunk.

Tasks are split by a hash of the task id into a tuning part (--part tune, 25%) where the variant is
chosen and a reporting part (--part report, 75%) that the choice never saw. --limit N takes the
first N tasks of the part (in hash order).

  PYTHONPATH=$PWD .venv/bin/python benchmarks/reranker_quality.py --dataset scifact \
      --index indexes/bench-scifact-256 --cross-encoder runs/rerankers/scifact \
      --variants fp32:256,int8:256,fp32:128,int8:128 --part tune --limit 100
"""

from __future__ import annotations

import argparse
import hashlib
import json
import signal
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_quality import _open, doc_ranking, hybrid, leg_rankings, reranked, task_metrics  # noqa: E402

from corpus_tools import SearchConfig  # noqa: E402
from corpus_tools.rerank import CrossEncoderReranker, blend_with_first_stage, make_reranker  # noqa: E402
from eval.loaders import load_benchmark  # noqa: E402
from training.splits import part_of  # noqa: E402,F401 (datagen_natural.py imports it from here)


def select(tasks: list[Any], part: str, limit: int | None) -> list[Any]:
    chosen = [t for t in tasks if t.gold_doc_ids and (part == "all" or part_of(t.task_id) == part)]
    chosen.sort(key=lambda t: hashlib.sha256(t.task_id.encode()).hexdigest())
    return chosen[:limit] if limit else chosen


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", required=True, choices=["scifact", "hotpotqa", "musique"])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--index", required=True)
    parser.add_argument(
        "--cross-encoder", action="append", default=[], help="trained CrossEncoder folder (repeat to compare; rows use the folder name)"
    )
    parser.add_argument(
        "--blend",
        default="0",
        help="comma list of SearchConfig.first_stage_weight values for the CE rows (0 = CE order alone; "
        "w > 0 adds a row '+blend<w>': RRF of the CE order and the fused order)",
    )
    parser.add_argument("--variants", default="int8:256", help="comma list of fp32|int8:max_length")
    parser.add_argument("--no-biencoder", action="store_true")
    parser.add_argument("--part", default="report", choices=["tune", "report", "all"])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--threads", type=int, default=2, help="torch threads while reranking (2 = the issue's budget)")
    parser.add_argument("--out", default=None, help="JSON of the results")
    args = parser.parse_args()

    bench = load_benchmark(args.dataset, args.data_dir)
    tasks = select(bench.tasks, args.part, args.limit)
    corpus = _open(Path(args.index))
    rerankers: dict[str, Any] = {}
    if not args.no_biencoder:
        rerankers["biencoder"] = make_reranker("biencoder", corpus.embedder)
    several = len(args.cross_encoder) > 1
    for folder in args.cross_encoder:
        for variant in [v for v in args.variants.split(",") if v]:
            precision, length = variant.split(":")
            label = f"ce[{Path(folder).name}]:{variant}" if several else f"ce:{variant}"
            rerankers[label] = CrossEncoderReranker(
                folder, max_length=int(length), quantize=precision == "int8", cache_size=0
            )
    blends = [float(w) for w in args.blend.split(",") if w.strip()]
    search = SearchConfig()
    per: dict[str, dict[str, list[float]]] = {}
    seconds: dict[str, list[float]] = {}
    started = time.perf_counter()
    # A time limit (`timeout` sends SIGTERM) ends the loop early; the table covers the tasks done.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        _loop(tasks, corpus, rerankers, blends, search, per, seconds, started, args)
    except KeyboardInterrupt:
        print("  stopped early (time limit): the table covers the tasks finished", file=sys.stderr, flush=True)
    corpus.close()
    if not per.get("hybrid"):
        print("no task finished")
        return
    done = min(len(v) for v in per["hybrid"].values())  # tasks whose every row was scored
    for values in per.values():
        for metric in values:
            values[metric] = values[metric][:done]
    _report(args, tasks[:done], per, {k: v[:done] for k, v in seconds.items()})


def _loop(tasks, corpus, rerankers, blends, search, per, seconds, started, args) -> None:  # noqa: ANN001
    for i, task in enumerate(tasks, 1):
        torch.set_num_threads(1)  # one short query encodes fastest on one thread (corpus_quality's finding)
        legs = leg_rankings(corpus, task.query)
        fused = hybrid(legs, search)
        rankings = {"hybrid": fused}
        torch.set_num_threads(args.threads)
        for name, reranker in rerankers.items():
            if not name.startswith("ce"):
                t0 = time.perf_counter()
                rankings[f"hybrid+{name}"] = reranked(corpus, reranker, task.query, fused, search.candidates)
                seconds.setdefault(name, []).append(time.perf_counter() - t0)
                continue
            top = [corpus.chunk(cid) for cid in fused[: search.candidates]]
            t0 = time.perf_counter()
            scores = reranker.score(task.query, top)
            seconds.setdefault(name, []).append(time.perf_counter() - t0)
            for weight in blends:
                order, _ = blend_with_first_stage(scores, weight, search.rrf_k)
                label = f"hybrid+{name}" + (f"+blend{weight:g}" if weight > 0 else "")
                rankings[label] = [top[i].chunk_id for i in order] + fused[search.candidates :]
        for config, chunk_ids in rankings.items():
            metrics = task_metrics(args.dataset, doc_ranking(corpus, chunk_ids), task.gold_doc_ids)
            for metric, value in metrics.items():
                if value is not None:
                    per.setdefault(config, {}).setdefault(metric, []).append(value)
        if i % 25 == 0:
            print(f"  {i}/{len(tasks)} tasks, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


def _report(args, tasks, per, seconds) -> None:  # noqa: ANN001
    metrics = list(next(iter(per.values())))
    header = ["config", *metrics, "rerank p50 ms", "rerank p95 ms"]
    lines = [
        f"### {args.dataset} ({args.part} part, {len(tasks)} tasks, {args.threads} torch threads)",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    result: dict[str, Any] = {"args": vars(args), "tasks": len(tasks), "configs": {}}
    for config, values in per.items():
        name = config.split("+")[1] if "+" in config else None
        times = seconds.get(name, []) if name else []
        row = {m: statistics.fmean(v) for m, v in values.items()}
        if times:
            row["p50_ms"] = 1000 * statistics.median(times)
            row["p95_ms"] = 1000 * percentile(times, 0.95)
        result["configs"][config] = row
        cells = [config, *(f"{row[m]:.3f}" for m in metrics)]
        cells += [f"{row['p50_ms']:.0f}", f"{row['p95_ms']:.0f}"] if times else ["–", "–"]
        lines.append("| " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print(table)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
