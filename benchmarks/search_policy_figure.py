"""Reward, recall and entropy per CISPO step of learned-policy runs, one PNG (issue 22).

    python benchmarks/search_policy_figure.py musique-cloze=runs/policy-musique-cloze \
        [NAME=DIR ...] --out benchmarks/figures/search-policy-rl.png

Reads DIR/rl/metrics.jsonl (training/search_policy.py) and prints the per-step table.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

KEYS = ("reward", "recall", "trajectory_recall", "entropy")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", metavar="NAME=DIR")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/figures/search-policy-rl.png"))
    args = ap.parse_args()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4 * len(KEYS), 3.2))
    axes = fig.subplots(1, len(KEYS))
    for item in args.runs:
        name, _, folder = item.partition("=")
        rows = [json.loads(ln) for ln in (Path(folder) / "rl" / "metrics.jsonl").read_text().splitlines() if ln.strip()]
        print(f"\n{name}\n| step | " + " | ".join(KEYS) + " | groups used | step s |")
        print("| ---: |" + " ---: |" * (len(KEYS) + 2))
        for r in rows:
            vals = " | ".join(f"{r[k]:.3f}" if isinstance(r.get(k), float) else str(r.get(k)) for k in KEYS)
            print(f"| {r['step']} | {vals} | {r.get('groups_used')}/{r.get('groups')} | {r.get('step_s', 0):.0f} |")
        for ax, key in zip(axes, KEYS, strict=True):
            pts = [(r["step"], r[key]) for r in rows if isinstance(r.get(key), (int, float))]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3, label=name)
    for ax, key in zip(axes, KEYS, strict=True):
        ax.set_title(key, fontsize=10)
        ax.set_xlabel("CISPO step")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle("learned search policy: CISPO on generated tasks (2-core VM, no GPU)", fontsize=10)
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=100)
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
