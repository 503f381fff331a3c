"""The LLM-free agent and single-shot search with and without a trained reranker, and the score cache (issue 8).

For each reranker ("none", "biencoder", a CrossEncoder folder) this runs, on the same tasks and
index, single-shot `hybrid` / `hybrid+rerank` and the LLM-free agent (`--retriever agent`, the
iterative policy) through eval's own runners — exactly what `context1 eval` does — and prints
document R@2, R@5 and all-recall@10. For the CrossEncoder it also reports the in-episode score
cache: the share of (query, chunk) scores served from it, and the rerank seconds it saved
(hits × the measured cost of one scored pair).

Tasks: the reporting part of benchmarks/reranker_quality.py's split (hash of the task id), first
--limit of them.

  PYTHONPATH=$PWD .venv/bin/python benchmarks/reranker_agent.py --dataset hotpotqa \
      --index indexes/bench-hotpotqa-256 --cross-encoder runs/rerankers/hotpotqa --limit 60
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from reranker_quality import select  # noqa: E402

from eval.loaders import load_benchmark  # noqa: E402
from eval.retrievers import open_retriever  # noqa: E402
from eval.runners import corpus_texts, document_texts, run_eval  # noqa: E402

METRICS = ("document.recall@2", "document.recall@5", "document.all_recall@10")


def run(
    kind: str, index: str, reranker: str | None, tasks: list[Any], doc_text: Any, out: Path, blend: float = 0.0
) -> dict[str, Any]:
    retriever = open_retriever(kind, index, k=10, reranker=reranker)
    corpus = retriever.corpus
    if blend:  # SearchConfig.first_stage_weight for this run only (the index's manifest is not touched)
        search = dataclasses.replace(corpus.config.search, first_stage_weight=blend)
        corpus.config = dataclasses.replace(corpus.config, search=search)
    started = time.perf_counter()
    try:
        records = run_eval(tasks, retriever, out, k=10, doc_text=doc_text, progress=False)
    finally:
        seconds = time.perf_counter() - started
        corpus.close()
    row: dict[str, Any] = {m: statistics.fmean(r.metrics[m] for r in records if r.metrics.get(m) is not None) for m in METRICS}
    row["s_per_task"] = seconds / max(1, len(records))
    row["errors"] = sum(1 for r in records if r.error)
    ce = corpus.reranker
    if hasattr(ce, "cache_hits"):
        row["cache_hits"], row["cache_misses"] = ce.cache_hits, ce.cache_misses
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", required=True, choices=["hotpotqa", "musique"])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--index", required=True)
    parser.add_argument("--cross-encoder", default=None)
    parser.add_argument("--limit", type=int, default=60)
    parser.add_argument("--part", default="report", choices=["tune", "report", "all"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--kinds", default="single,agent", help="single and/or agent")
    parser.add_argument(
        "--blend", type=float, default=0.0, help="SearchConfig.first_stage_weight for the CrossEncoder runs (0 = pure CE)"
    )
    parser.add_argument("--no-biencoder", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    bench = load_benchmark(args.dataset, args.data_dir)
    tasks = select(bench.tasks, args.part, args.limit)
    rerankers = ["none"] + ([] if args.no_biencoder else ["biencoder"]) + ([args.cross_encoder] if args.cross_encoder else [])
    rows: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for reranker in rerankers:
            label = reranker
            if reranker == args.cross_encoder:
                label = f"ce+blend{args.blend:g}" if args.blend else "ce"
            for kind in args.kinds.split(","):
                if kind == "single":
                    retriever = "hybrid" if reranker == "none" else "hybrid+rerank"
                    name = f"single:{retriever}" + (f":{label}" if reranker != "none" else "")
                else:
                    retriever, name = "agent", f"agent:{label}"
                doc_text = document_texts(bench.documents) if bench.documents else None
                out = Path(tmp) / f"{name.replace(':', '_')}.jsonl"
                if doc_text is None:
                    from corpus_tools import Corpus

                    with Corpus.open(args.index, reranker="none") as c:
                        doc_text = corpus_texts(c)
                blend = args.blend if reranker == args.cross_encoder else 0.0
                rows[name] = run(
                    retriever, args.index, None if reranker == "none" else reranker, tasks, doc_text, out, blend
                )
                print(name, {k: round(v, 3) if isinstance(v, float) else v for k, v in rows[name].items()}, flush=True)

    header = ["run", "R@2", "R@5", "all-R@10", "s/task", "cache hit share"]
    lines = [
        f"### {args.dataset} ({args.part} part, {len(tasks)} tasks, {args.threads} torch threads)",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
    ]
    for name, row in rows.items():
        hits, misses = row.get("cache_hits"), row.get("cache_misses")
        share = f"{hits / max(1, hits + misses):.3f} ({hits:,} of {hits + misses:,})" if hits is not None else "–"
        cells = [name, *(f"{row[m]:.3f}" for m in METRICS), f"{row['s_per_task']:.2f}", share]
        lines.append("| " + " | ".join(cells) + " |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
