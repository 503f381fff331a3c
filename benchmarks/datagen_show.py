"""Print generated tasks as markdown, so a reader can judge them (benchmarks/README.md shows 20).

Picks tasks deterministically: every task whose index is a multiple of len/N per file, round-robin
over the files given, hop counts mixed.

    python benchmarks/datagen_show.py runs/tasks/hotpotqa-offline.jsonl runs/tasks/musique-offline.jsonl --n 20
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datagen.records import read_task_file  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--n", type=int, default=20)
    args = ap.parse_args()
    per_file = max(1, args.n // len(args.files))
    shown = 0
    for path in args.files:
        tasks = read_task_file(path)
        if not tasks:
            continue
        step = max(1, len(tasks) // per_file)
        picked = tasks[::step][:per_file]
        for t in picked:
            shown += 1
            meta = t.metadata
            docs = " → ".join(f"`{d}`" for d in t.gold_doc_ids)
            print(f"{shown}. **{Path(path).stem}**, {t.hops} hop(s), {meta.get('truth_type')}: {t.query}  ")
            print(f"   answer: **{t.answers[0]}** · documents: {docs} · links: {meta.get('link_kinds') or '–'}")
            print()


if __name__ == "__main__":
    main()
