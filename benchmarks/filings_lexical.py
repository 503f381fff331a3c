"""Do generated filings questions read like the real ones? (issue 36: a person would have asked them)

    python benchmarks/filings_lexical.py TASKS.jsonl [TASKS2.jsonl …] [--at 0.5]

The real questions are the TUNING half of docugami's qna_data.csv (`search_policy.filings_split` of the
id q<row>); the reporting half is never read. A question's words are its lower-cased letters-and-digits
tokens less a short list of function words ("what", "the", "of", …) and less company names and years (both
sides name the same five companies and years: sharing them says nothing about the question's shape).

For each generated question: overlap = the largest share of its words that one real tuning question
holds (|G ∩ R| / |G|, best R). Printed per file and form: tasks, mean overlap, and the share of tasks
whose overlap is at least --at (default 0.5: half its words are in one real question).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from search_policy import filings_split  # noqa: E402

QNA = Path("/work/data/filings10q/qna_data.csv")
_STOP = frozenset(
    "a an the of in on for to and or by with from at as is was were be been are what which who how did does do "
    "its it their this that these those s inc corporation corp com ended quarter".split()
)
_NAMES = frozenset("apple amazon intel microsoft nvidia aapl amzn intc msft nvda".split())


def words(question: str) -> frozenset[str]:
    toks = re.findall(r"[a-z0-9]+", question.lower().replace("’", "'"))
    return frozenset(t for t in toks if t not in _STOP and t not in _NAMES and not re.fullmatch(r"(?:19|20)\d\d|\d+", t))


def tuning_questions(qna: Path = QNA) -> list[frozenset[str]]:
    with qna.open(encoding="utf-8-sig", newline="") as f:
        return [words(row["Question"]) for i, row in enumerate(csv.DictReader(f)) if filings_split(f"q{i}") == "tuning"]


def overlap(question: str, real: list[frozenset[str]]) -> float:
    g = words(question)
    return max((len(g & r) / len(g) for r in real), default=0.0) if g else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", nargs="+", type=Path, help="task JSONL files (one task per line, 'query' and metadata.form)")
    ap.add_argument("--at", type=float, default=0.5, help="an overlap at least this counts as close (default 0.5)")
    args = ap.parse_args()
    real = tuning_questions()
    print(f"real tuning questions: {len(real)}; overlap ≥ {args.at}\n")
    print(f"{'file':<40} {'form':<22} {'tasks':>6} {'mean':>6} {'share≥':>7}")
    for path in args.tasks:
        if not path.is_file():
            sys.exit(f"no such task file: {path}")
        by_form: dict[str, list[float]] = defaultdict(list)
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            task = json.loads(line)
            form = (task.get("metadata") or {}).get("form") or "prose"
            if (task.get("metadata") or {}).get("generator_part") != "filings" and form not in ("driver",):
                form = "prose"
            o = overlap(task.get("query") or task.get("question") or "", real)
            by_form[form].append(o)
            by_form["ALL"].append(o)
        for form in sorted(by_form, key=lambda f: (f == "ALL", f)):
            vals = by_form[form]
            close = sum(v >= args.at for v in vals) / len(vals)
            print(f"{str(path)[-40:]:<40} {form:<22} {len(vals):>6} {sum(vals) / len(vals):>6.2f} {close:>7.1%}")


if __name__ == "__main__":
    main()
