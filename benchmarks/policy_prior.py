"""Rebuild the learned search policy's conversation prior, context1/backends/chat_prior (issue 34, sessions 37-38).

The conversation prior is `context1 train policy` run on generated tasks of chat corpora that are none of the
reported ones (never HotpotQA, MuSiQue or LoCoMo, nor LoCoMo's own conversations), its scorers copied into the
package (a few KB); the untrained learned policy starts from it on a conversation corpus (`--start auto`).
Session 38's build (session 37's fit also took the office fixture's 6 tasks; they are left out: the prior is
for chats), the MSC and MemoryBank exports indexed with `context1 index /work/data37/chat/{msc,mb}.jsonl IDX`:

    context1 datagen MSC_IDX /work/data37/tasks/prior-msc --n 300 --seed 1
    context1 datagen MB_IDX /work/data37/tasks/prior-mb --n 300 --seed 1
    python benchmarks/policy_prior.py --main MB_IDX=/work/data37/tasks/prior-mb/tasks.jsonl \\
        --extra MSC_IDX=/work/data37/tasks/prior-msc/tasks.jsonl --work RUN/prior \\
        --train-arg=--max-tasks=400 --train-arg=--label-tasks=400 --hand-query

It runs `context1 train policy MAIN --tasks TASKS [--extra-tasks IDX=TASKS ...] --out WORK --fresh --threads 1
--agreement-weight 0.05 --start hand [--train-arg ...]` (the untrained policy reads agreement at 0.05, so its
prior is fit reading it too; it starts from the hand-set prior, never from the folder it rebuilds) and writes
WORK's scorers into --out (policy.json: no training index, `trained_on` = each task file and its task count;
weights.npz); `--hand-query` keeps the hand-set query scorer. `--check` only loads the folder and prints its
weights.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def ship(work: Path, out: Path, trained_on: list[dict], hand_query: bool = False) -> Path:
    """WORK's scorers as the conversation prior in OUT (policy.json without the training index, weights.npz).
    hand_query: keep the hand-set query scorer (the chats' tasks label a handful of search decisions)."""
    from context1.backends.learned import PolicyWeights, open_policy

    w = open_policy(work)
    query = PolicyWeights.prior().query if hand_query else w.query
    meta = {"stage": "chat prior", "query": "hand-set" if hand_query else "trained", "trained_on": trained_on}
    return PolicyWeights(query, w.doc, w.config, meta, w.passage).save(out)


def main() -> None:
    from context1.backends.learned import CHAT_PRIOR

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--main", metavar="INDEX=TASKS", help="the corpus whose query decisions are learnt")
    parser.add_argument("--extra", action="append", default=[], metavar="INDEX=TASKS",
                        help="another corpus whose answer decisions join (`train policy --extra-tasks`)")
    parser.add_argument("--work", type=Path, help="scratch policy folder of the training run")
    parser.add_argument("--out", type=Path, default=CHAT_PRIOR)
    parser.add_argument("--train-arg", action="append", default=[], metavar="ARG",
                        help="one more argument for `context1 train policy` (e.g. --train-arg=--doc-anchor=0.3)")
    parser.add_argument("--hand-query", action="store_true",
                        help="ship the hand-set query scorer with the trained answer scorers")
    parser.add_argument("--ship-only", action="store_true", help="ship --work as it is (no training run)")
    parser.add_argument("--check", action="store_true", help="only load --out and print its scorers")
    args = parser.parse_args()
    if not args.check:
        if not (args.main and args.work):
            parser.error("--main and --work are needed (or --check)")
        index, _, tasks = args.main.partition("=")
    if not (args.check or args.ship_only):
        cmd = [sys.executable, "-m", "context1.interfaces.cli", "train", "policy", index, "--tasks", tasks,
               "--out", str(args.work), "--fresh", "--threads", "1", "--agreement-weight", "0.05", "--start", "hand"]
        for spec in args.extra:
            cmd += ["--extra-tasks", spec]
        cmd += args.train_arg
        print("+", " ".join(cmd), flush=True)
        subprocess.run(cmd, check=True)
    if not args.check:
        trained_on = []
        for spec in [args.main, *args.extra]:
            _, _, path = spec.partition("=")
            n = sum(1 for line in Path(path).read_text().splitlines() if line.strip())
            trained_on.append({"tasks": str(path), "n": n})
        ship(args.work, args.out, trained_on, args.hand_query)
    from context1.backends.learned import open_policy

    w = open_policy(args.out)
    size = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"{args.out}: {size} bytes; scorers query {w.query.kind}, doc {w.doc.kind}, passage "
          f"{w.passage.kind if w.passage else None}; trained on {w.meta.get('trained_on')}")


if __name__ == "__main__":
    main()
