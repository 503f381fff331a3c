"""Which documentation tasks one datagen run wrote that another did not (issue 36, session 42), for a reader.

    python benchmarks/datagen_docs_diff.py BASE_OUT NEW_OUT [--sheet FILE --sample 30 --seed 4201]

Prints how many tasks each run wrote, how many questions are new, gone and kept (a question is the task's key),
and the new ones by kind; writes every new task, and a seeded sample of them, as a reading sheet (question,
answer, gold document, the quote the answer was verified against), and the gone ones after them, then every task
of each run that no documentation reader wrote (kind "prose": a sentence template or a claim; session 43: the
release announcements' "Which organization has pytest-X been released to?"). Flags off ==
main is checked with `cmp` on tasks.jsonl by the report script, not here.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path


def _tasks(out: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in (out / "tasks.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return {r["query"]: r for r in rows}


def _kind(row: dict) -> str:
    rel = (row["metadata"].get("relations") or ["?"])[-1]
    return rel.split(":", 1)[1] if rel.startswith("doc:") else "prose"


def _card(n: int, row: dict) -> str:
    quotes = [q for s in row["metadata"].get("supporting") or [] for q in s.get("quotes") or []]
    quote = " ".join(" ".join(quotes).split())[:400]
    return (f"[{n}] {row['query']}\n    answer: {' | '.join(row.get('answers') or [])}    kind: {_kind(row)}\n"
            f"    gold: {', '.join(row.get('gold_doc_ids') or [])}\n    quote: {quote}\n"
            "    natural: _   correct: _\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--sheet", type=Path, help="write every new task (and the gone ones) here")
    ap.add_argument("--sample", type=int, default=30)
    ap.add_argument("--seed", type=int, default=4201)
    args = ap.parse_args()
    base, new = _tasks(args.base), _tasks(args.new)
    added = [q for q in new if q not in base]
    gone = [q for q in base if q not in new]
    print(f"{args.base}: {len(base)} tasks; {args.new}: {len(new)} tasks; new {len(added)}, gone {len(gone)}, "
          f"kept {len(new) - len(added)}")
    print("   new by kind: " + (", ".join(f"{k} {v}" for k, v in Counter(_kind(new[q]) for q in added).most_common()) or "none"))
    print(f"   prose tasks (no documentation reader's): {sum(_kind(r) == 'prose' for r in base.values())} -> "
          f"{sum(_kind(r) == 'prose' for r in new.values())}")
    print("   gone by kind: " + (", ".join(f"{k} {v}" for k, v in Counter(_kind(base[q]) for q in gone).most_common()) or "none"))
    if args.sheet:
        picked = random.Random(args.seed).sample(added, min(args.sample, len(added)))
        lines = [f"# {len(picked)} new tasks at random (seed {args.seed}) of {len(added)}: {args.new} against {args.base}\n"]
        lines += [_card(n, new[q]) for n, q in enumerate(picked, 1)]
        lines += [f"\n# every new task ({len(added)})\n"] + [_card(n, new[q]) for n, q in enumerate(added, 1)]
        lines += [f"\n# gone ({len(gone)}): written by {args.base} only\n"] + [_card(n, base[q]) for n, q in enumerate(gone, 1)]
        for name, run in ((args.base, base), (args.new, new)):
            prose = [q for q in run if _kind(run[q]) == "prose"]
            lines += [f"\n# prose tasks of {name} ({len(prose)})\n"] + [_card(n, run[q]) for n, q in enumerate(prose, 1)]
        args.sheet.write_text("\n".join(lines), encoding="utf-8")
        print(f"   sheet: {args.sheet}")


if __name__ == "__main__":
    main()
