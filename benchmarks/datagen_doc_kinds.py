"""Tasks per kind of each datagen run (issue 36, session 43: one documentation kind capped, `--mix doc_kind`).

    python benchmarks/datagen_doc_kinds.py RUN [RUN ...]

For each run folder (a `context1 datagen` output): tasks written, kinds, the largest kind's share, the stated
defaults whose answer a reader guesses without the page (None / False / True / [] / 0: `natural._TRIVIAL_DEFAULT`),
the tasks per kind, and how many tasks no documentation reader wrote (prose: a sentence template or a claim)."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from datagen.natural import _doc_kind


def kinds(run: Path) -> str:
    path = run / "tasks.jsonl"
    if not path.is_file():
        return f"{run.name}: no tasks.jsonl"
    tasks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    count: Counter = Counter()
    trivial = prose = 0
    for t in tasks:
        meta = t.get("metadata", {})
        relation = "claim" if meta.get("form") == "claim" else (meta.get("relations") or ["?"])[0]
        count[relation] += 1
        trivial += _doc_kind(relation, (t.get("answers") or [""])[0]).endswith(":trivial")
        prose += not relation.startswith("doc:")
    top = max(count.values()) / len(tasks) if tasks else 0.0
    return (f"{run.name}: {len(tasks)} tasks, {len(count)} kinds, largest kind {top:.2f}, trivial defaults {trivial}, "
            f"prose {prose}: " + ", ".join(f"{k} {v}" for k, v in count.most_common()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", type=Path)
    for run in ap.parse_args().runs:
        print(kinds(run))


if __name__ == "__main__":
    main()
