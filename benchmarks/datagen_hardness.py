"""How hard are generated tasks? Single-shot hybrid vs the LLM-free agent, next to the real questions.

For a corpus with a shared index, evaluates on (a) generated multi-hop tasks (hops >= 2) of a task
file and (b) the benchmark's real questions, with `eval` exactly as `context1 eval --retriever
hybrid|agent` does (10 documents each). The share of tasks one search solves is the hybrid
all-recall@10 (every gold document in one search's top 10). Run files are kept (and resumed) in
--runs, so a rerun only scores what is missing.

Real questions: the ones the LLM-free policy was not tuned on (HotpotQA 151+, MuSiQue 121+,
see benchmarks/README.md), first --real-n of them. Generated tasks: the first --n multi-hop ones.

    python benchmarks/datagen_hardness.py --corpus hotpotqa --index indexes/bench-hotpotqa-256 \
        --tasks runs/tasks/hotpotqa-offline.jsonl --n 100 --real-n 100
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from eval.loaders import load_benchmark, load_tasks  # noqa: E402
from eval.retrievers import open_retriever  # noqa: E402
from eval.runners import corpus_texts, run_eval  # noqa: E402

TUNED_ON = {"hotpotqa": 150, "musique": 120}  # first questions the iterative policy was tuned on


def mean(values: list[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def fmt(v: float | None) -> str:
    return "–" if v is None else f"{v:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--index", required=True)
    ap.add_argument("--tasks", required=True, help="generated task file (JSONL)")
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--real-n", type=int, default=100)
    ap.add_argument("--only-hard", action="store_true", help="keep generated tasks whose one_search_recall@10 < 1")
    ap.add_argument("--runs", default="runs/datagen-hardness")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    generated = [t for t in load_tasks(args.tasks).tasks if (t.hops or 0) >= 2]
    if args.only_hard:
        generated = [t for t in generated if float(t.metadata.get("one_search_recall@10", 0.0)) < 1.0]
    generated = generated[: args.n]
    real = []
    if args.real_n:
        bench = load_benchmark(args.corpus, args.data_dir)
        real = bench.tasks[TUNED_ON.get(args.corpus, 0) :][: args.real_n]
    sets = [("generated", generated), ("real", real)]
    results: dict[tuple[str, str], list] = {}
    for kind in ("hybrid", "agent"):
        retriever = open_retriever(kind, args.index, k=10, backend="iterative" if kind == "agent" else None)
        text = corpus_texts(retriever.corpus)
        try:
            for name, tasks in sets:
                if not tasks:
                    continue
                out = Path(args.runs) / f"{args.corpus}-{name}{'-hard' if args.only_hard and name == 'generated' else ''}-{kind}.jsonl"
                records = run_eval(tasks, retriever, out, k=10, doc_text=text, progress=False, workers=args.workers)
                results[(name, kind)] = records
        finally:
            retriever.corpus.close()

    print(f"\n**{args.corpus}** (index {args.index}; generated: {args.tasks}{' only_hard' if args.only_hard else ''})\n")
    print("| tasks | n | hops | hybrid R@10 | hybrid all-R@10 = one search solves | agent R@10 | agent all-R@10 | agent answer found |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, tasks in sets:
        if not tasks:
            continue
        groups: dict[str, list[int]] = defaultdict(list)
        for i, t in enumerate(tasks):
            groups["all"].append(i)
            if name == "generated" or t.hops:
                groups[str(t.hops)].append(i)
        for group, idx in sorted(groups.items(), key=lambda kv: (kv[0] != "all", kv[0])):
            h = [results[(name, "hybrid")][i].metrics for i in idx]
            a = [results[(name, "agent")][i].metrics for i in idx]
            print(
                f"| {name} | {len(idx)} | {group} | {fmt(mean([m.get('document.recall@10') for m in h]))} "
                f"| {fmt(mean([m.get('document.all_recall@10') for m in h]))} "
                f"| {fmt(mean([m.get('document.recall@10') for m in a]))} "
                f"| {fmt(mean([m.get('document.all_recall@10') for m in a]))} "
                f"| {fmt(mean([m.get('answer_found') for m in a]))} |"
            )


if __name__ == "__main__":
    main()
