"""context1-mini: the 20-step CISPO run through the batched rollout path, next to the 10-step run (issue 23).

    RL_STEPS=20 bash benchmarks/train_mini_pipeline.sh runs/mini20     # index, tasks, teacher, SFT, 20 CISPO steps
    python benchmarks/train_mini_rl20.py runs/mini20 --figure benchmarks/figures/context1-mini-rl20.png

Reads RUN/rl_v2/metrics.jsonl (as many steps as are done) and draws reward and trajectory recall
per step of training rollouts, with the seventh session's 10-step run (runs/mini7, sequential
rollouts) beside it, then prints the per-step table. The 10-step run's metrics.jsonl did not
survive; its values below are read off benchmarks/figures/context1-mini-rl7.png (±0.01). Both runs
draw the same train tasks at each step (same task file, seed 3), but the 10-step run was scored
with the reward before issue 23 (a fallback ranking was paid F-beta; now -0.5 / -0.2), so its
reward is not on the same scale; trajectory recall is.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

# runs/mini7/rl_v2, steps 1-10, read off benchmarks/figures/context1-mini-rl7.png
RL10_REWARD = (0.78, 0.40, 0.38, 0.81, 0.94, 0.29, 0.18, 0.30, 0.19, 0.36)
RL10_TRAJECTORY_RECALL = (0.646, 0.438, 0.438, 0.438, 0.563, 0.281, 0.167, 0.292, 0.208, 0.417)

KEYS = ("reward", "f_beta", "trajectory_recall", "recall", "valid_tool_call_rate", "entropy", "groups_used",
        "rollouts_failed", "rollout_s", "rollout_tokens_per_s", "step_s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="the pipeline's run folder (runs/mini20)")
    ap.add_argument("--figure", type=Path, help="write the reward / recall figure here")
    args = ap.parse_args()
    path = args.run / "rl_v2" / "metrics.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    steps = [r["step"] for r in rows]
    print(f"{path}: {len(rows)} steps\n")
    print("| step | " + " | ".join(KEYS) + " | 10-step run: reward | 10-step run: trajectory recall |")
    print("| ---: | " + " | ".join("---:" for _ in KEYS) + " | ---: | ---: |")
    for r in rows:
        s = r["step"]
        old = (f"{RL10_REWARD[s - 1]:.2f} | {RL10_TRAJECTORY_RECALL[s - 1]:.3f}" if s <= len(RL10_REWARD) else "– | –")
        cells = [f"{r[k]:.3f}" if isinstance(r.get(k), float) else str(r.get(k, "–")) for k in KEYS]
        print(f"| {s} | " + " | ".join(cells) + f" | {old} |")
    if args.figure:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(11, 4.2))
        for i, (key, old, label) in enumerate((("reward", RL10_REWARD, "reward"),
                                               ("trajectory_recall", RL10_TRAJECTORY_RECALL, "trajectory recall"))):
            ax = fig.add_subplot(1, 2, i + 1)
            ax.plot(steps, [r.get(key) for r in rows], marker="o", label=f"{len(rows)} steps, batched rollouts")
            ax.plot(range(1, len(old) + 1), old, marker="s", alpha=0.7,
                    label="10 steps, sequential (runs/mini7" + (", old reward)" if key == "reward" else ")"))
            ax.set_title(label)
            ax.set_xlabel("step (2 tasks x 4 rollouts, same tasks per step in both runs)")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
        fig.suptitle("context1-mini: CISPO from the piecewise SFT adapter, training rollouts, 2 CPU cores")
        fig.tight_layout()
        fig.savefig(args.figure, dpi=110)
        print(f"\nfigure: {args.figure}")


if __name__ == "__main__":
    main()
