"""Task subsets for context1-mini from datagen's generated tasks (corpus text only, never benchmark
questions): multi-hop (hops ≥ 2) tasks, a seeded sample of the train split for SFT/RL and of the
test split (no supporting document shared with any train task) for held-back evaluation.

    python benchmarks/train_mini_tasks.py --tasks runs/tasks/hotpotqa-offline --n-train 8 --n-test 6 --out runs/mini
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path


def _pick(path: Path, n: int, seed: int) -> list[str]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    multi = [ln for ln in lines if (json.loads(ln).get("hops") or 0) >= 2]
    random.Random(seed).shuffle(multi)
    return multi[:n]


def main() -> None:
    ap = argparse.ArgumentParser(description="context1-mini task subsets")
    ap.add_argument("--tasks", default="runs/tasks/hotpotqa-offline", help="prefix of <prefix>-train/-test.jsonl")
    ap.add_argument("--n-train", type=int, default=8)
    ap.add_argument("--n-test", type=int, default=6)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--out", type=Path, default=Path("runs/mini"))
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for split, n in (("train", args.n_train), ("test", args.n_test)):
        rows = _pick(Path(f"{args.tasks}-{split}.jsonl"), n, args.seed)
        (args.out / f"tasks_{split}.jsonl").write_text("".join(r + "\n" for r in rows), encoding="utf-8")
        print(f"{split}: {len(rows)} multi-hop tasks -> {args.out / f'tasks_{split}.jsonl'}")


if __name__ == "__main__":
    main()
