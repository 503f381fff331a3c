"""The learned fusion (corpus_tools.learned_fusion) fitted on each generated task set, against RRF, on
the real questions of the same corpus (issue 26's transfer proof, for the cheapest trained reranker).

Each `--tasks NAME=FILE` (generated over the index, never the questions) is fitted with
`training.fusion.fit_fusion` exactly as `context1 train reranker --kind fusion` does, into
OUT/NAME (kept: a rerun reuses it unless --refit), and the corpus is then opened with that folder as
its reranker, so what is measured is the production `Corpus.search`. Questions: the reporting part
(reranker_quality's split by task-id hash) unless --part says otherwise; on MuSiQue its 3–4-hop
questions get their own rows as well.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/fusion_learned.py --dataset hotpotqa \
        --index indexes/bench-hotpotqa-256 --tasks natural=runs/tasks/hotpotqa-natural-train.jsonl \
        --tasks cloze=runs/tasks/hotpotqa-offline-train.jsonl --out runs/fusion
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_quality import doc_ranking, task_metrics  # noqa: E402
from reranker_quality import select  # noqa: E402

from corpus_tools import Corpus  # noqa: E402
from corpus_tools.learned_fusion import LearnedFusion, is_fusion_folder  # noqa: E402
from eval.loaders import load_benchmark, load_tasks  # noqa: E402
from training.fusion import FusionReport, fit_fusion  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", required=True, choices=["scifact", "hotpotqa", "musique", "locomo"])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--index", required=True)
    parser.add_argument("--tasks", action="append", required=True, help="NAME=FILE: a generated task set to fit on")
    parser.add_argument("--out", default="runs/fusion", help="fitted folders go to OUT/<dataset>-NAME")
    parser.add_argument("--refit", action="store_true", help="fit again even if the folder exists")
    parser.add_argument("--part", default="report", choices=["tune", "report", "all"])
    args = parser.parse_args()

    folders: dict[str, Path] = {}
    for spec in args.tasks:
        name, _, path = spec.partition("=")
        folder = Path(args.out) / f"{args.dataset}-{name}"
        if args.refit or not is_fusion_folder(folder):
            report = fit_fusion(args.index, list(load_tasks(path).tasks), folder, progress=False, log=print)[1]
        else:
            report = FusionReport.from_dict(LearnedFusion.load(folder).report)
            print(f"{name}: reusing {folder}")
        print(
            f"{name}: {report.train_queries} queries, {report.seconds:.0f} s; held-back MRR {report.mrr_rrf:.3f} (RRF), "
            f"{report.mrr_search:.3f} (the index's search) -> {report.mrr_fitted:.3f}; weights " + ", ".join(f"{k} {v:+.2f}" for k, v in report.weights.items())
        )
        folders[name] = folder

    bench = load_benchmark(args.dataset, args.data_dir)
    tasks = select(bench.tasks, args.part, None)
    configs = {"hybrid (RRF)": "none", **{f"fusion fitted on {n}": str(f) for n, f in folders.items()}}
    per: dict[str, dict[str, dict[str, float]]] = {}  # config -> metric -> task id -> value
    ms: dict[str, list[float]] = {}
    for name, reranker in configs.items():
        with Corpus.open(args.index, reranker=reranker) as corpus:
            for task in tasks:
                started = time.perf_counter()
                hits = corpus.search(task.query, k=corpus.config.search.candidates)
                ms.setdefault(name, []).append(1000 * (time.perf_counter() - started))
                docs = doc_ranking(corpus, [h.chunk.chunk_id for h in hits])
                for metric, value in task_metrics(args.dataset, docs, task.gold_doc_ids).items():
                    if value is not None:
                        per.setdefault(name, {}).setdefault(metric, {})[task.task_id] = value
    print(f"\n### {args.dataset}, {args.part} part ({len(tasks)} questions), production Corpus.search\n")
    print(comparison(per, ms))
    deep = {t.task_id for t in tasks if (t.hops or 0) >= 3}
    if args.dataset == "musique" and deep:
        # issue 36: deeper training data must help on MuSiQue's 3–4-hop questions, so they get their own rows
        print(f"\n### {args.dataset}, {args.part} part, 3–4 hops alone ({len(deep)} questions)\n")
        print(comparison(per, ms, keep=deep))


def comparison(per: dict[str, dict[str, dict[str, float]]], ms: dict[str, list[float]],
               keep: set[str] | None = None) -> str:
    """The mean of each metric per config, then each fitted config paired against RRF question by question,
    over the questions `keep` names (every question when None)."""
    rrf = per["hybrid (RRF)"]
    metrics = list(rrf)

    def values(name: str, metric: str) -> list[float]:  # in RRF's question order, so pairs line up
        return [per[name][metric][q] for q in rrf[metric] if keep is None or q in keep]

    lines = ["| config | " + " | ".join(metrics) + " | search ms p50 |", "|---|" + "---|" * (len(metrics) + 1)]
    for name in per:
        cells = " | ".join(f"{statistics.fmean(values(name, m)):.3f}" for m in metrics)
        lines.append(f"| {name} | {cells} | {statistics.median(ms[name]):.0f} |")
    lines.append("\nPaired question by question (won / lost, mean difference, 95 % bootstrap interval):\n")
    fits = [name for name in per if name != "hybrid (RRF)"]
    # each fit against RRF, then each later fit against the first (new task sets against the old one)
    pairs = [(name, "hybrid (RRF)") for name in fits] + [(name, fits[0]) for name in fits[1:]]
    for name, base in pairs:
        for metric in dict.fromkeys(metrics[:1] + [m for m in metrics if m in ("recall@5", "all@10")]):
            lines.append(f"- {name} vs {base}, {metric}: " + paired(values(name, metric), values(base, metric)))
    return "\n".join(lines)


def paired(new: list[float], old: list[float], resamples: int = 10_000, seed: int = 0) -> str:
    """Why paired: the configurations answer the same questions, so the spread that matters is that of
    the per-question differences, not of each mean; a bootstrap over questions gives its interval."""
    diffs = [a - b for a, b in zip(new, old, strict=True)]
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(diffs, k=len(diffs))) for _ in range(resamples))
    low, high = means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]
    won, lost = sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)
    return f"{won} / {lost}, {statistics.fmean(diffs):+.4f} [{low:+.4f}, {high:+.4f}]"


if __name__ == "__main__":
    main()
