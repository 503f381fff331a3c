"""context1-mini: the table of the smallest end-to-end training run (issue 9).

Reads what the `context1 train` commands wrote and prints one markdown table: base SmolLM2,
the LLM-free teacher, the SFT model and the RL model on the same held-back tasks, then the RL
curve and the cost figures. The commands (run from the repository root, ~2 shared CPU cores):

    python benchmarks/train_standin_tasks.py --out runs/standin          # or datagen's tasks
    context1 train eval --index runs/standin/index --tasks runs/standin/test.jsonl --limit 8 \\
        --max-new-tokens 160 --out runs/mini/base_test.jsonl > runs/mini/base_test_summary.json
    context1 train eval ... --backend iterative --out runs/mini/teacher_test8.jsonl > runs/mini/teacher_test8_summary.json
    context1 train sft --index runs/standin/index --tasks runs/standin/train.jsonl --out runs/mini/sft \\
        --limit 20 --epochs 2 --batch-size 4
    context1 train eval ... --adapter runs/mini/sft/adapter --out runs/mini/sft_test.jsonl > runs/mini/sft_test_summary.json
    context1 train rl --index runs/standin/index --tasks runs/standin/train.jsonl --out runs/mini/rl \\
        --init-adapter runs/mini/sft/adapter --steps 10 --tasks-per-step 1 --group-size 4 --substeps 2 \\
        --max-new-tokens 96 --lr 2e-5
    context1 train eval ... --adapter runs/mini/rl/adapter --out runs/mini/rl_test.jsonl > runs/mini/rl_test_summary.json
    python benchmarks/train_mini.py --runs runs/mini
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

COLUMNS = ("valid_tool_call_rate", "rollouts_with_a_call", "calls_per_turn", "turns", "trajectory_recall",
           "output_recall", "answer_found", "answered")


def _fmt(v: object) -> str:
    return f"{v:.3f}" if isinstance(v, float) else ("–" if v is None else str(v))


def _summary(path: Path) -> dict | None:
    if not path.is_file() or not path.read_text().strip():
        return None
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError:
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description="context1-mini table")
    ap.add_argument("--runs", type=Path, default=Path("runs/mini"))
    args = ap.parse_args()
    rows = [("base SmolLM2-135M", "base_test_summary.json"), ("teacher (LLM-free policy)", "teacher_test8_summary.json"),
            ("SFT", "sft_test_summary.json"), ("SFT + CISPO", "rl_test_summary.json")]
    print("| policy | n | " + " | ".join(COLUMNS) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in COLUMNS) + " |")
    for name, file in rows:
        s = _summary(args.runs / file)
        if s is None:
            print(f"| {name} | not run | " + " | ".join("" for _ in COLUMNS) + " |")
            continue
        print(f"| {name} | {int(s['n'])} | " + " | ".join(_fmt(s.get(c)) for c in COLUMNS) + " |")
    for label, sub, keys in (
        ("SFT", "sft", ("loss", "tokens", "step_s", "train_tokens_per_s")),
        ("RL", "rl", ("reward", "f_beta", "recall", "trajectory_recall", "entropy", "clip_fraction", "groups_used",
                      "rollouts_failed", "valid_tool_call_rate", "turns", "rollout_tokens_per_s", "step_s",
                      "peak_rss_gb")),
    ):
        path = args.runs / sub / "metrics.jsonl"
        if not path.is_file():
            continue
        lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        print(f"\n{label} per step ({len(lines)} steps)\n")
        print("| step | " + " | ".join(keys) + " |")
        print("| ---: | " + " | ".join("---:" for _ in keys) + " |")
        for r in lines:
            print(f"| {r['step']} | " + " | ".join(_fmt(r.get(k)) for k in keys) + " |")


if __name__ == "__main__":
    main()
