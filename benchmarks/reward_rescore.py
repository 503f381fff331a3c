"""The old and the new reward on the same rollouts (issue 37): a CISPO run saved with `train rl --save-rollouts`
is re-scored with the reward as it was on main at 5e74342 (benchmarks/reward_table.py's `main_reward`) and with
today's `training.reward.compute_reward`, per step.

    python benchmarks/reward_rescore.py RUN/rl --tasks RUN/tasks_train.jsonl --index indexes/bench-hotpotqa-256

Columns: rollouts scored; mean reward now (re-computed: it must equal the run's own, "= run" checks) and on
main (over the rollouts main kept); rollouts main dropped (an overflow or a backend error: scored 0, no
gradient) that now are a kept -0.5; the shares that never answered (-0.5) and that answered without a usable
ranking (-0.2); and "adv. flips", the rollouts whose group advantage (reward minus the group's mean, what
CISPO weighs the tokens by) has another sign under main than now: where the fix changes what the policy is
pushed towards. r_fa on main reads any shown chunk of a returned document (its full text, from the index's
chunks.jsonl).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reward_table import main_reward  # noqa: E402

from training.reward import EMPTY_ANSWER, NO_ANSWER, compute_reward  # noqa: E402
from training.rl import ROLLOUTS_FILE, read_rollouts  # noqa: E402
from training.rollouts import load_task_file  # noqa: E402
from training.run_state import RunDir  # noqa: E402
from training.types import RewardConfig  # noqa: E402


def chunk_texts(index: Path, wanted: set[str]) -> dict[str, str]:
    """chunk id → text of the wanted chunks, read from the index's chunks.jsonl (no embedding model)."""
    out = {}
    with (index / "chunks.jsonl").open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row["chunk_id"] in wanted:
                out[row["chunk_id"]] = row["text"]
    return out


def _sign(x: float, eps: float = 1e-9) -> int:
    return 0 if abs(x) <= eps else (1 if x > 0 else -1)


def rescore(run: Path, tasks: Path, index: Path) -> list[dict[str, float]]:
    """One dict per step: the columns of the module docstring."""
    config_path = run / "run.json"
    cfg = json.loads(config_path.read_text(encoding="utf-8"))["config"] if config_path.is_file() else {}
    reward_cfg = RewardConfig(**cfg.get("rl", {}).get("reward", {})) if cfg.get("rl", {}).get("reward") else RewardConfig()
    max_turns = cfg.get("agent", {}).get("max_turns")
    by_id = {t.task_id: t for t in load_task_file(tasks).tasks}
    rows = read_rollouts(run / ROLLOUTS_FILE)
    metrics = {int(m["step"]): m for m in RunDir(run).read_metrics()}
    seen = {c for r in rows if r["trajectory"] is not None for c in r["trajectory"].seen_chunk_ids()}
    texts = chunk_texts(index, seen)
    out = []
    for step in sorted({r["step"] for r in rows}):
        beta = float(metrics.get(step, {}).get("beta", reward_cfg.beta_start))
        groups: dict[tuple[str, int], list[tuple[float | None, float, str]]] = {}
        for i, r in enumerate(x for x in rows if x["step"] == step):
            if r["failed"] or r["trajectory"] is None:
                continue  # an infrastructure failure: dropped under both rewards
            task, traj = by_id[r["task_id"]], r["trajectory"]
            now = compute_reward(traj, task, beta=beta, config=reward_cfg, max_turns=max_turns)
            old = main_reward(traj, beta, reward_cfg, task, texts.get)
            groups.setdefault((r["task_id"], i // max(1, cfg.get("rl", {}).get("group_size", 1))), []).append(
                (old, now.reward, now.ending))
        scored = [x for g in groups.values() for x in g]
        kept_old = [o for o, _, _ in scored if o is not None]
        flips = 0
        for g in groups.values():
            mean_now = sum(n for _, n, _ in g) / len(g)
            olds = [0.0 if o is None else o for o, _, _ in g]  # main scored a dropped rollout 0
            mean_old = sum(olds) / len(olds)
            flips += sum(_sign(o - mean_old) != _sign(n - mean_now) for o, (_, n, _) in zip(olds, g, strict=True))
        n = len(scored)
        out.append({
            "step": step,
            "rollouts": n,
            "now": sum(x for _, x, _ in scored) / n if n else float("nan"),
            "run": float(metrics.get(step, {}).get("reward", float("nan"))),
            "main": sum(kept_old) / len(kept_old) if kept_old else float("nan"),
            "main_dropped": sum(o is None for o, _, _ in scored),
            "no_answer": sum(e == NO_ANSWER for _, _, e in scored) / n if n else float("nan"),
            "empty_answer": sum(e == EMPTY_ANSWER for _, _, e in scored) / n if n else float("nan"),
            "adv_flips": flips,
        })
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run", type=Path, help="a `train rl --save-rollouts` run folder")
    ap.add_argument("--tasks", type=Path, required=True, help="the task file the run trained on")
    ap.add_argument("--index", type=Path, required=True, help="the index the run searched")
    args = ap.parse_args()
    rows = rescore(args.run, args.tasks, args.index)
    print("| step | rollouts | reward now | = run | reward main 5e74342 | main dropped | no-answer | empty answer | "
          "adv. flips |")
    print("| ---: | ---: | ---: | :-: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        if r["run"] != r["run"]:  # NaN: the step's rollouts are written, its update is not done yet
            same = "– (step running)"
        else:
            same = "yes" if abs(r["now"] - r["run"]) < 1e-6 else f"**{r['run']:+.3f}**"
        print(f"| {r['step']} | {r['rollouts']} | {r['now']:+.3f} | {same} | {r['main']:+.3f} | {r['main_dropped']} | "
              f"{r['no_answer']:.3f} | {r['empty_answer']:.3f} | {r['adv_flips']} |")
    total = sum(r["rollouts"] for r in rows)
    if total:
        print(f"\n{total} rollouts over {len(rows)} steps; main dropped {sum(r['main_dropped'] for r in rows)}, "
              f"advantage sign differs on {sum(r['adv_flips'] for r in rows)}")


if __name__ == "__main__":
    main()
