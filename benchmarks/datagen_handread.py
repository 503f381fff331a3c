"""Hand-read sheet of a `context1 datagen` output folder: a seeded sample of tasks to judge, and a table.

Prints, for each OUT folder: tasks by form and hops, tasks with extra positives (another passage that
states the answer fact), and the leaks of the split datagen wrote (tasks-train.jsonl / tasks-test.jsonl:
shared fact keys, answer sentences and question texts; shared documents are counted apart, since a
filings folder is split by fact). Then the sample (question, answer, every supporting quote) to read.

With --verdicts FILE (JSON: {task_id: "ncg"}: n natural, c correct, g a genuine chain, each letter
present when it holds), the table adds the hand counts over the sample.

With --relation PREFIX (repeatable: "doing:", "interest:"), the sample is drawn only from the tasks one of
whose relations opens with a PREFIX (the tasks one reader wrote), and the table counts them.

    python benchmarks/datagen_handread.py OUT [OUT …] --sample 30 --seed 0 [--verdicts v.json] [--relation P]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datagen.split import leak_keys  # noqa: E402
from datagen.verify import normalize  # noqa: E402


def _read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()] if path.is_file() else []


def _as_task(record: dict):  # noqa: ANN202
    from corpus_tools.types import Task

    return Task(record["task_id"], record["query"], tuple(record.get("answers") or ()), tuple(record.get("gold_doc_ids") or ()),
                metadata=record.get("metadata") or {})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="+", help="datagen output folders")
    ap.add_argument("--sample", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--verdicts", default=None, help="JSON {task_id: 'ncg'} of hand judgments")
    ap.add_argument("--quiet", action="store_true", help="the table only, no sample")
    ap.add_argument("--relation", action="append", default=[], help="sample only tasks with a relation opening so")
    args = ap.parse_args()
    verdicts = json.loads(Path(args.verdicts).read_text()) if args.verdicts else {}
    rows = []
    for out in map(Path, args.out):
        tasks = _read(out / "tasks.jsonl")
        train, test = _read(out / "tasks-train.jsonl"), _read(out / "tasks-test.jsonl")
        forms = Counter(f"{t['hops']}:{t['metadata'].get('form', '?')}" for t in tasks)
        extra = sum(bool(t["metadata"].get("extra_positives")) for t in tasks)
        train_keys = {k for t in train for k in leak_keys(_as_task(t)) if not k.startswith("doc:")}
        leaks = sum(1 for t in test if {k for k in leak_keys(_as_task(t)) if not k.startswith("doc:")} & train_keys)
        same_q = len({normalize(t["query"]) for t in train} & {normalize(t["query"]) for t in test})
        shared_docs = len({d for t in train for d in t["gold_doc_ids"]} & {d for t in test for d in t["gold_doc_ids"]})
        kind = [t for t in tasks if any(r.startswith(p) for r in t["metadata"].get("relations") or () for p in args.relation)]
        pool = kind if args.relation else tasks
        sample = random.Random(args.seed).sample(pool, min(args.sample, len(pool)))
        judged = [verdicts[t["task_id"]] for t in sample if t["task_id"] in verdicts]
        multi = [verdicts[t["task_id"]] for t in sample if t["task_id"] in verdicts and t["hops"] > 1]
        rows.append((out.name, len(tasks), len(kind) if args.relation else "-", ", ".join(f"{k} {v}" for k, v in sorted(forms.items())), extra,
                     f"{len(train)}/{len(test)}", leaks, same_q, shared_docs,
                     f"{sum('n' in v for v in judged)}/{len(judged)}" if judged else "-",
                     f"{sum('c' in v for v in judged)}/{len(judged)}" if judged else "-",
                     f"{sum('g' in v for v in multi)}/{len(multi)}" if multi else "-"))
        if not args.quiet:
            print(f"\n=== {out} (sample of {len(sample)}, seed {args.seed})")
            for i, t in enumerate(sample, 1):
                print(f"\n[{i}] {t['task_id']} hops={t['hops']} form={t['metadata'].get('form')} "
                      f"verdict={verdicts.get(t['task_id'], '?')}")
                print(f"  Q: {t['query']}\n  A: {t['answers'][:3]}")
                for item in t["metadata"].get("supporting") or ():
                    for q in item.get("quotes") or ():
                        print(f"   - {item['doc_id']}: {q[:220]}")
                if t["metadata"].get("extra_positives"):
                    print(f"   + extra positives: {len(t['metadata']['extra_positives'])}")
    head = ("folder", "tasks", "of the kind", "hops:form", "extra+", "train/test", "test leaks", "same question", "shared docs",
            "natural", "correct", "genuine chain")
    print("\n| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(str(x) for x in row) + " |")


if __name__ == "__main__":
    main()
