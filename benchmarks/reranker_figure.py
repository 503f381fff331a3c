"""One picture of issue 8's quality table: each corpus's headline metric for every reranker config.

Reads the JSON files `benchmarks/reranker_quality.py --out` writes (one per corpus) and draws grouped
bars: SciFact nDCG@10, HotpotQA and MuSiQue recall@2 / recall@5 / all-recall@10, one bar per config
(no reranker, the bi-encoder, the trained cross-encoder per speed variant, and its blends).

    python benchmarks/reranker_figure.py runs/rr/q-scifact.json runs/rr/q-hotpotqa.json runs/rr/q-musique.json \
        --out benchmarks/figures/reranker-quality.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

HEADLINES = {"scifact": ["ndcg@10", "recall@10"], "hotpotqa": ["recall@2", "recall@5", "all@10"]}
HEADLINES["musique"] = HEADLINES["hotpotqa"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="reranker_quality.py --out JSON files")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    runs = [json.loads(p.read_text()) for p in args.results]
    fig = Figure(figsize=(4.2 * len(runs), 4.0), dpi=110)
    FigureCanvasAgg(fig)
    for i, run in enumerate(runs, 1):
        dataset = run["args"]["dataset"]
        metrics = HEADLINES[dataset]
        configs = list(run["configs"])
        ax = fig.add_subplot(1, len(runs), i)
        width = 0.8 / len(configs)
        for j, config in enumerate(configs):
            values = [run["configs"][config].get(m, 0.0) for m in metrics]
            xs = [m + (j - (len(configs) - 1) / 2) * width for m in range(len(metrics))]
            ax.bar(xs, values, width, label=config.removeprefix("hybrid+") if j else "none (fused order)")
        ax.set_xticks(range(len(metrics)), metrics)
        ax.set_ylim(0, 1.3)  # headroom for the legend above the bars
        ax.set_title(f"{dataset} ({run['args']['part']} part, {run['tasks']} questions)", fontsize=9)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=7, loc="upper left", ncol=2)
    fig.suptitle("Reordering the fused top 50: none vs bi-encoder vs the trained cross-encoder", fontsize=10)
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
