"""context1-mini through the fixed reward (issue 37): CISPO per step, next to session 24's 20-step run.

    nohup nice -n 15 bash benchmarks/train_mini_quick.sh RUN >> RUN.log 2>&1 &
    python benchmarks/train_mini_fixed_reward.py RUN [--index indexes/bench-hotpotqa-256]

Reads RUN/rl/metrics.jsonl (as many steps as are done) and RUN/sft/metrics.jsonl, and prints the per-step
table of training rollouts: reward, entropy of the update, the share of scored rollouts that never answered
(overflow included), that answered with no usable document (the usual degenerate ending of a 2-turn episode;
--index reads it from the saved rollouts of a run that did not log it), and that overflowed, valid tool calls, calls per turn, trajectory recall, rollouts dropped
as infrastructure failures, groups used (a group whose rewards are all equal gives no gradient), datums, and
seconds. Beside it, session 24's run (docs/LOG.md, "the 20-step CISPO run of context1-mini finished"; its run
folder is gone, so the values are restated below). Both runs draw the same train tasks at each step (same
task file recipe, seed 3, 2 tasks x 4 rollouts), but session 24 started from a 26-step SFT adapter on 240 tasks
(batch 4) and was scored with the reward before issue 37 (no-answer share not recorded then); this run
starts from a smaller SFT (train_mini_quick.sh) and the fixed reward, so rewards are not on one scale.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# docs/LOG.md, session 24 (steps 1-20): reward, entropy, valid_tool_call_rate, trajectory_recall
S24 = (
    (0.535, 0.238, 1.000, 0.583), (0.501, 0.343, 0.889, 0.500), (0.353, 0.322, 0.727, 0.458),
    (0.490, 0.258, 0.818, 0.438), (1.083, 0.219, 1.000, 0.750), (0.188, 0.284, 0.917, 0.260),
    (0.451, 0.374, 0.824, 0.417), (0.380, 0.268, 0.700, 0.375), (0.877, 0.306, 0.900, 0.375),
    (0.174, float("nan"), 0.900, 0.167), (1.378, 0.285, 0.950, 0.552), (0.602, 0.387, 0.833, 0.500),
    (0.407, 0.281, 0.850, 0.458), (0.278, 0.515, 0.682, 0.219), (0.266, 0.481, 0.882, 0.312),
    (0.526, 0.756, 0.875, 0.750), (0.458, 0.584, 1.000, 0.500), (0.472, 0.790, 0.917, 0.667),
    (0.388, 0.542, 0.938, 0.542), (0.463, 0.666, 0.727, 0.344),
)
KEYS = ("reward", "entropy", "no_answer", "empty_answer", "overflowed", "valid_tool_call_rate", "calls_per_turn", "trajectory_recall",
        "rollouts_failed", "groups_used", "datums", "rollout_s", "step_s")


def _cell(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()] if path.is_file() else []


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="train_mini_quick.sh's run folder")
    ap.add_argument("--index", type=Path, help="the run's index: the empty-answer share from RUN/rl/rollouts.jsonl "
                    "when metrics.jsonl has none")
    args = ap.parse_args()
    sft = _rows(args.run / "sft" / "metrics.jsonl")
    if sft:
        print(f"SFT: {len(sft)} steps, loss first {sft[0]['loss']:.3f}, last {sft[-1]['loss']:.3f} "
              f"(mean of the last 4: {sum(r['loss'] for r in sft[-4:]) / len(sft[-4:]):.3f})")
    check = args.run / "sft_check_t1_summary.json"
    if check.is_file():
        print(f"SFT adapter at T = 1 on held-back tasks: {check.read_text().strip()}")
    rows = _rows(args.run / "rl" / "metrics.jsonl")
    if rows and "empty_answer" not in rows[0] and args.index and (args.run / "rl" / "rollouts.jsonl").is_file():
        # a run from before `train rl` logged it: the share from its saved rollouts
        from reward_rescore import rescore

        empty = {r["step"]: r["empty_answer"] for r in rescore(args.run / "rl", args.run / "tasks_train.jsonl",
                                                                args.index)}
        for r in rows:
            r.setdefault("empty_answer", empty.get(r["step"]))
    print(f"\n{args.run / 'rl' / 'metrics.jsonl'}: {len(rows)} steps\n")
    print("| step | " + " | ".join(KEYS) + " | s24 reward | s24 entropy | s24 valid calls | s24 trajectory recall |")
    print("| ---: | " + " | ".join("---:" for _ in KEYS) + " | ---: | ---: | ---: | ---: |")
    for r in rows:
        s = r["step"]
        old = " | ".join(_cell(v) for v in S24[s - 1]) if s <= len(S24) else "– | – | – | –"
        print(f"| {s} | " + " | ".join(_cell(r.get(k)) for k in KEYS) + f" | {old} |")
    if rows:
        n = len(rows)
        mean = {k: sum(float(r[k]) for r in rows if isinstance(r.get(k), (int, float)) and not math.isnan(r[k]))
                / max(1, sum(isinstance(r.get(k), (int, float)) and not math.isnan(r[k]) for r in rows))
                for k in ("reward", "entropy", "no_answer", "empty_answer", "valid_tool_call_rate")}
        s24 = S24[:n]
        ent = [e for _, e, _, _ in s24 if not math.isnan(e)]
        print(f"\nsteps 1-{n}: reward {mean['reward']:.3f} (s24 {sum(x[0] for x in s24) / len(s24):.3f}), entropy "
              f"{mean['entropy']:.3f} (s24 {sum(ent) / max(1, len(ent)):.3f}), no-answer {mean['no_answer']:.3f} "
              f"(s24 not recorded), empty answer {mean['empty_answer']:.3f}, valid calls {mean['valid_tool_call_rate']:.3f} "
              f"(s24 {sum(x[2] for x in s24) / len(s24):.3f})")


if __name__ == "__main__":
    main()
