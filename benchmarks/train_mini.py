"""context1-mini: the table of the smallest end-to-end training run (issue 9).

Reads what the `context1 train` commands wrote and prints markdown tables: base SmolLM2, the
LLM-free teacher, the SFT model(s) and the RL model on the same held-back tasks, then the per-step
curves and cost figures. The commands (repository root, 2 CPU cores; `runs/mini/run.sh` and
`run2.sh`, `run3.sh`, `run4.sh` are the drivers that produced the figures in benchmarks/README.md):

    python benchmarks/train_mini_tasks.py --tasks /work/tasks/hotpotqa-offline --n-train 48 --n-test 12 --out runs/mini
    H="--budget 2048 --max-turns 2 --no-progress"; IDX=indexes/bench-hotpotqa-256
    E="context1 train eval $IDX --tasks runs/mini/tasks_test.jsonl $H"
    $E --backend iterative --out runs/mini/teacher_test.jsonl > runs/mini/teacher_test_summary.json
    $E --max-new-tokens 96 --out runs/mini/base_test.jsonl > runs/mini/base_test_summary.json
    context1 train sft $IDX --tasks runs/mini/tasks_train.jsonl --out runs/mini/sft --limit 24 --epochs 2 $H
    $E --adapter runs/mini/sft/adapter --max-new-tokens 96 --out runs/mini/sft_test.jsonl > runs/mini/sft_test_summary.json
    context1 train sft ... --out runs/mini/sft2 --teacher-trajectories runs/mini/sft/teacher.jsonl --epochs 3 --lr 1e-3 $H
    $E --adapter runs/mini/sft2/adapter ... > runs/mini/sft2_test_summary.json   # and with --max-new-tokens 192
    context1 train rl $IDX --tasks runs/mini/tasks_train.jsonl --out runs/mini/rl --init-adapter runs/mini/sft2/adapter \
        --steps 10 --epochs 1 --tasks-per-step 2 --group-size 4 --lr 1e-4 --max-new-tokens 192 --seed 3 $H
    $E --adapter runs/mini/rl/adapter --max-new-tokens 192 --out runs/mini/rl_192_test.jsonl > runs/mini/rl_192_test_summary.json
    # SFT2 at 192 tokens: tasks 1-3 by run3.sh (sft2_192_test.jsonl), 4-12 by run5.sh (tasks_test_4to12.jsonl)
    $E --adapter runs/mini/sft2/adapter --max-new-tokens 192 --tasks runs/mini/tasks_test_4to12.jsonl --out runs/mini/sft2_192_4to12_test.jsonl
    python benchmarks/train_mini.py --runs runs/mini

Sixth session (`runs/mini5/prep.sh`, `run.sh`, `eval.sh`, `eval2.sh`, `run_v2.sh`; 2 CPU cores):

    python benchmarks/datagen_tasksets.py --corpus hotpotqa --n 1500 --hops 1,1,2,2,3,4 --seed 0 \
        --data-dir ../shared/data --out runs/tasks/hotpotqa-offline.jsonl
    python benchmarks/train_mini_tasks.py --tasks runs/tasks/hotpotqa-offline --n-train 240 --n-test 36 --out runs/mini5
    R=runs/mini5; E="context1 train eval $IDX --tasks $R/tasks_test.jsonl --max-new-tokens 192 $H"
    context1 train eval $IDX --tasks $R/tasks_test.jsonl --backend iterative $H --out $R/teacher_test.jsonl
    $E --limit 12 --out $R/base_192_test.jsonl
    S="--lr 1e-3 --batch-size 4 --no-gradient-checkpointing --checkpoint-every 4"
    context1 train sft $IDX --tasks $R/tasks_train.jsonl --out $R/sft --epochs 1 --max-steps 26 $S $H
    $E --adapter $R/sft/adapter --out $R/sft_192_test.jsonl     # then --epochs 2 --max-steps 54 --resume: sft54_*
    context1 train sft ... --out $R/sft_v2 --teacher-trajectories $R/sft/teacher.jsonl --epochs 1 --max-steps 26 $S $H
    $E --adapter $R/sft_v2/adapter --out $R/sft_v2_192_test.jsonl
    python benchmarks/train_mini.py --session6 runs/mini5

Seventh session: the same, from the corpus, in one resumable driver, then CISPO from the piecewise
SFT adapter and both adapters on the 36 held-back tasks (`bash benchmarks/train_mini_pipeline.sh
runs/mini7`; its header has the commands):

    python benchmarks/train_mini.py --session6 runs/mini7 --rl-figure benchmarks/figures/context1-mini-rl7.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

COLUMNS = (
    "valid_tool_call_rate",
    "rollouts_with_a_call",
    "calls_per_turn",
    "turns",
    "trajectory_recall",
    "output_recall",
    "answer_found",
    "answered",
)


def _fmt(v: object) -> str:
    return f"{v:.3f}" if isinstance(v, float) else ("–" if v is None else str(v))


def _summary(path: Path) -> dict | None:
    if not path.is_file() or not path.read_text().strip():
        return None
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError:
        return None


def _summary_of(paths: list[Path]) -> dict | None:
    """The eval summary of per-task JSONL files taken together (one evaluation run in pieces)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from training.rollouts import summarize

    if not all(p.is_file() for p in paths):
        return None
    scores = [json.loads(x)["scores"] for p in paths for x in p.read_text().splitlines() if x.strip()]
    return summarize(scores) if scores else None


def _sampling_cost(path: Path) -> tuple[int, float, float, int] | None:
    """(turns, prompt tokens per turn, sampled tokens/s end to end with prefill, turns cut off by
    max_new_tokens) of an eval file."""
    if not path.is_file():
        return None
    turns, prompt, sampled, seconds, cut = 0, 0, 0, 0.0, 0
    for line in path.read_text().splitlines():
        traj = json.loads(line).get("trajectory") if line.strip() else None
        for step in (traj or {}).get("steps", []):
            t = step["turn"]
            if t.get("latency_s") and t.get("completion_tokens") is not None:
                turns += 1
                prompt += t.get("prompt_tokens") or 0
                sampled += t["completion_tokens"]
                seconds += t["latency_s"]
                cut += t.get("finish_reason") == "length"
    return (turns, prompt / turns, sampled / seconds, cut) if turns and seconds else None


def rl_figure(metrics: Path, out: Path, title: str) -> None:
    """Four panels of a CISPO run, per step: reward, trajectory recall, valid tool-call rate, entropy."""
    from matplotlib.figure import Figure

    rows = [json.loads(x) for x in metrics.read_text().splitlines() if x.strip()]
    steps = [r["step"] for r in rows]
    fig = Figure(figsize=(10, 6.5))
    keys = ("reward", "trajectory_recall", "valid_tool_call_rate", "entropy")
    for i, key in enumerate(keys):
        ax = fig.add_subplot(2, 2, i + 1)
        ax.plot(steps, [r.get(key) for r in rows], marker="o")
        ax.set_title(key.replace("_", " "))
        ax.set_xlabel("step (2 tasks x 4 rollouts)")
        ax.grid(alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


SFT_KEYS = ("loss", "tokens", "step_s", "train_tokens_per_s")
RL_KEYS = (
    "reward",
    "f_beta",
    "recall",
    "trajectory_recall",
    "entropy",
    "clip_fraction",
    "groups_used",
    "rollouts_failed",
    "valid_tool_call_rate",
    "turns",
    "rollout_tokens_per_s",
    "step_s",
    "peak_rss_gb",
)


def per_step_tables(runs: Path, parts: tuple[tuple[str, str], ...]) -> None:
    """A per-step table of each run folder's metrics.jsonl (SFT keys, or RL keys for "rl")."""
    for label, sub in parts:
        path = runs / sub / "metrics.jsonl"
        if not path.is_file():
            continue
        keys = RL_KEYS if sub.startswith("rl") else SFT_KEYS
        lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        print(f"\n{label} per step ({len(lines)} steps)\n")
        print("| step | " + " | ".join(keys) + " |")
        print("| ---: | " + " | ".join("---:" for _ in keys) + " |")
        for r in lines:
            print(f"| {r['step']} | " + " | ".join(_fmt(r.get(k)) for k in keys) + " |")


def _documents_per_answer(path: Path) -> float | None:
    """Mean number of documents in the final answers of an eval file (the SFT student lists fewer than its teacher)."""
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.is_file() else []
    counts = [len((r.get("trajectory") or {}).get("documents") or []) for r in lines]
    return sum(counts) / len(counts) if counts else None


def _rows(path: Path, lo: int, hi: int) -> list[dict]:
    """Per-task score records lo..hi-1 (0-based) of one evaluation file."""
    lines = [x for x in path.read_text().splitlines() if x.strip()] if path.is_file() else []
    return [json.loads(x)["scores"] for x in lines[lo:hi]]


def session6(runs: Path) -> None:
    """The sixth session's run folder (runs/mini5; commands in this module's docstring): SFT on the
    122 selected teacher trajectories of 240 train tasks, every
    policy on the same 36 held-back tasks (sampled with the earlier rows' seed; tasks 13-36 are a
    second part), then the per-step SFT and RL tables."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from training.rollouts import summarize

    policies = [
        ("base SmolLM2-135M (192 tokens)", "base_192_test.jsonl"),
        ("teacher (LLM-free policy)", "teacher_test.jsonl"),
        ("SFT, 26 steps (104 of the 122 selected trajectories), replies tokenized whole", "sft_192_test.jsonl"),
        ("SFT, 54 steps (1.8 epochs), replies tokenized whole", "sft54_192_test.jsonl"),
        ("SFT, 26 steps, replies tokenized piecewise (the fix)", "sft_v2_192_test.jsonl"),
        ("piecewise SFT + CISPO, 10 steps (seventh session)", "rl_v2_192_test.jsonl"),
        ("piecewise SFT + CISPO, 20 steps (seventh session)", "rl_v2_step20_192_test.jsonl"),
    ]
    policies = [(name, file) for name, file in policies if (runs / file).is_file()]  # a folder holds some
    for title, lo, hi in (("tasks 1-12", 0, 12), ("tasks 13-36", 12, 36), ("all 36", 0, 36)):
        print(f"\nHeld-back {title}\n")
        print("| policy | n | " + " | ".join(COLUMNS) + " |")
        print("| --- | ---: | " + " | ".join("---:" for _ in COLUMNS) + " |")
        for name, file in policies:
            scores = _rows(runs / file, lo, hi)
            if not scores:
                continue
            s = summarize(scores)
            print(f"| {name} | {int(s['n'])} | " + " | ".join(_fmt(s.get(c)) for c in COLUMNS) + " |")
    for name, file in policies:
        cost = _sampling_cost(runs / file)
        if cost is not None and file != "teacher_test.jsonl":
            print(
                f"\n{name}: {cost[0]} turns, {cost[1]:.0f} prompt tokens/turn, {cost[2]:.2f} sampled tokens/s "
                f"(prefill included), {cost[3]} turns cut by max_new_tokens"
            )
    print("\nDocuments per final answer (at most 3):")
    for name, file in policies:
        per = _documents_per_answer(runs / file)
        if per is not None:
            print(f"- {name}: {per:.2f}")
    for name, file in policies:
        if file.startswith("rl_v2"):
            task_changes(runs / "sft_v2_192_test.jsonl", runs / file, name)
    per_step_tables(
        runs,
        (("SFT, whole (steps 27-29 ran beside CI)", "sft"), ("SFT, piecewise", "sft_v2"), ("CISPO", "rl_v2")),
    )


def task_changes(before: Path, after: Path, name: str) -> None:
    """Task by task, what RL changed against its SFT start: valid calls, recall and answer found up/down."""
    a, b = _rows(before, 0, 10_000), _rows(after, 0, 10_000)
    if not a or len(a) != len(b):
        return
    per_task = {  # per-task score records hold counts; the summary's names map to these
        "valid calls": lambda s: s.get("valid_calls") or 0.0,
        "invalid calls": lambda s: (s.get("calls") or 0.0) - (s.get("valid_calls") or 0.0),
        "trajectory_recall": lambda s: s.get("trajectory_recall") or 0.0,
        "output_recall": lambda s: s.get("recall") or 0.0,
        "answer_found": lambda s: s.get("answer_found") or 0.0,
    }
    print(f"\n{name} against its SFT start, task by task ({len(a)} tasks):")
    for key, get in per_task.items():
        pairs = [(get(x), get(y)) for x, y in zip(a, b, strict=True)]
        up, down = sum(y > x for x, y in pairs), sum(y < x for x, y in pairs)
        print(f"- {key}: up on {up}, down on {down}, same on {len(pairs) - up - down}")


def main() -> None:
    ap = argparse.ArgumentParser(description="context1-mini table")
    ap.add_argument("--runs", type=Path, default=Path("runs/mini"))
    ap.add_argument(
        "--rl-figure", type=Path, help="also draw the RL run's reward/recall/valid-call/entropy curves here"
    )
    ap.add_argument(
        "--session6",
        type=Path,
        help="the sixth session's run folder (runs/mini5: SFT on 122 trajectories); prints its tables instead",
    )
    args = ap.parse_args()
    if args.session6:
        if args.rl_figure:
            title = "context1-mini: CISPO from the piecewise SFT adapter, 2 CPU cores"
            rl_figure(args.session6 / "rl_v2" / "metrics.jsonl", args.rl_figure, title)
        session6(args.session6)
        return
    if args.rl_figure:
        title = "context1-mini: CISPO from the SFT adapter, 10 steps on 2 CPU cores"
        rl_figure(args.runs / "rl" / "metrics.jsonl", args.rl_figure, title)
    rows = [
        ("base SmolLM2-135M", "base_test_summary.json"),
        ("teacher (LLM-free policy)", "teacher_test_summary.json"),
        ("SFT (lr 2e-4, 2 epochs)", "sft_test_summary.json"),
        ("SFT (lr 1e-3, 3 epochs)", "sft2_test_summary.json"),
        ("SFT (lr 1e-3), 192 new tokens, first 3 tasks", ["sft2_192_test.jsonl"]),
        ("SFT (lr 1e-3), 192 new tokens", ["sft2_192_test.jsonl", "sft2_192_4to12_test.jsonl"]),
        ("SFT + CISPO (10 steps), 192 new tokens", ["rl_192_test.jsonl"]),
    ]
    print("| policy | n | " + " | ".join(COLUMNS) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in COLUMNS) + " |")
    for name, file in rows:
        s = _summary_of([args.runs / f for f in file]) if isinstance(file, list) else _summary(args.runs / file)
        if s is None:
            print(f"| {name} | not run | " + " | ".join("" for _ in COLUMNS) + " |")
            continue
        print(f"| {name} | {int(s['n'])} | " + " | ".join(_fmt(s.get(c)) for c in COLUMNS) + " |")
    print("\nSampling cost of the evaluations above (transformers backend, greedy)\n")
    print(
        "| policy | turns | prompt tokens / turn | sampled tokens/s (prefill included) | turns cut by max_new_tokens |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, file in rows:
        if isinstance(file, list):
            continue  # pieces of one evaluation: their cost rows are their own files'
        cost = _sampling_cost(args.runs / file.replace("_summary.json", ".jsonl"))
        if cost is not None:
            print(f"| {name} | {cost[0]} | {cost[1]:.0f} | {cost[2]:.2f} | {cost[3]} |")
    per_step_tables(args.runs, (("SFT (lr 2e-4)", "sft"), ("SFT (lr 1e-3)", "sft2"), ("RL", "rl")))


if __name__ == "__main__":
    main()
