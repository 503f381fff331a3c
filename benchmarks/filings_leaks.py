"""Do generated filings tasks hold a real filings question? (issue 36: train on generated tasks, score on real ones)

    python benchmarks/filings_leaks.py TASKS.jsonl [--real docugami|financebench] [--out CLEAN.jsonl]

Real questions: every row of docugami's qna_data.csv (both halves of `search_policy.filings_split`: a
user's loop never sees them, so a task equal to a tuning question is as much a leak as a reporting one),
or with --real financebench every FinanceBench question (benchmarks/financebench.py's jsonl, both halves;
its filing is its `doc_name` + ".pdf", the doc id the FinanceBench folder's index gives it). Both kinds
are read into one shape and checked by the same code.
A generated task leaks when
  - its question equals a real question (case and spacing ignored), or
  - one of its answers holds a figure of a real question's answer (filings_passages.answer_figures: dates,
    form codes, quarters and years are no figures) and its gold documents include that question's filing, or
  - an answer without figures (a cause, "lower net sales of Mac": datagen.filing_drivers) of at least
    PHRASE_WORDS words (numbers and a period's words not counted: a comparison's "the quarter ended
    September 30, 2023" is no phrase) occurs inside a real answer whose filing its gold documents include.
Printed beside them, not dropped: "same fact" tasks, whose supporting quotes hold at least half of a
real answer's figures in that answer's filing (the generator read the table row the real question asks
about; the task asks something else of it, so it is the folder's content, not the question).
With --out the leaking tasks are left out of the written file; the exit status is 1 when any leaks and
no --out was given, so a script cannot train on a leaking file by accident.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from filings_passages import answer_figures, holds_figures  # noqa: E402

QNA = Path("/work/data/filings10q/qna_data.csv")
PHRASE_WORDS = 3  # a phrase answer this long found inside a real answer is that answer's fact, not a coincidence


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


# words of a period ("the quarter ended September 30, 2023", a comparison's answer): every filing says them
_PERIOD_WORDS = frozenset(
    "the quarter quarters ended ending three six nine months month year fiscal january february march april may "
    "june july august september october november december".split()
)


def _phrase_words(answer: str) -> int:
    """The words of an answer that say what it is: letters only, a period's words and numbers not counted."""
    return sum(1 for w in re.findall(r"[^\W\d_]{2,}", answer.lower()) if w not in _PERIOD_WORDS)


def real_questions(qna: Path) -> list[dict]:
    """Every question of the CSV with its filings (Source Docs, "*2023 Q3 AAPL*" → "2023 Q3 AAPL.pdf")
    and its answer's strict figures."""
    rows = []
    with qna.open(encoding="utf-8-sig", newline="") as f:
        for i, row in enumerate(csv.DictReader(f)):
            docs = {d.strip().strip("*") + ".pdf" for d in re.split(r",\s*", row["Source Docs"]) if d.strip()}
            rows.append({"id": f"q{i}", "question": _norm(row["Question"]), "docs": docs,
                         "figures": answer_figures(row["Answer"]), "answer": _norm(row["Answer"])})
    return rows


def _whole(figures: set[str]) -> set[str]:
    """FinanceBench writes whole amounts with cents ("$1577.00"); a table cell writes "1,577": one figure."""
    return {re.sub(r"\.0+(?=%?$)", "", f) for f in figures}


def financebench_real(jsonl: Path | None = None) -> list[dict]:
    """FinanceBench's questions (benchmarks/financebench.py reads them: --jsonl or the mirror) in the shape of
    `real_questions`: the filing is the question's `doc_name` + ".pdf"."""
    from financebench import load_jsonl

    return [{"id": row.get("financebench_id", f"fb{i}"), "question": _norm(row["question"]),
             "docs": {row["doc_name"] + ".pdf"}, "figures": _whole(answer_figures(str(row["answer"]))),
             "answer": _norm(str(row["answer"]))} for i, row in enumerate(load_jsonl(jsonl))]


def check(tasks: list, real: list[dict]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(leaks, same facts): (task id, real question id) pairs, as the module docstring defines them."""
    by_text = {q["question"]: q["id"] for q in real}
    leaks, same = [], []
    for task in tasks:
        gold = set(task.gold_doc_ids)
        if _norm(task.query) in by_text:
            leaks.append((task.task_id, by_text[_norm(task.query)]))
            continue
        answered = {f for a in task.answers for f in answer_figures(a)}
        phrases = [_norm(a) for a in task.answers if not answer_figures(a) and _phrase_words(a) >= PHRASE_WORDS]
        quotes = [q for s in (task.metadata or {}).get("supporting", []) for q in s.get("quotes", [])]
        for q in real:
            if not q["docs"] & gold:
                continue
            if any(p in q["answer"] for p in phrases):
                leaks.append((task.task_id, q["id"]))
                break
            if not q["figures"]:
                continue
            if answered & q["figures"]:
                leaks.append((task.task_id, q["id"]))
                break
            if quotes and holds_figures(q["figures"], quotes):
                same.append((task.task_id, q["id"]))
    return leaks, same


def main() -> None:
    from eval.loaders.tasks import load_tasks, save_tasks

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tasks", type=Path)
    parser.add_argument("--qna", type=Path, default=QNA)
    parser.add_argument("--real", choices=("docugami", "financebench"), default="docugami",
                        help="whose real questions: docugami's qna_data.csv (--qna) or FinanceBench's (--jsonl)")
    parser.add_argument("--jsonl", type=Path, default=None, help="FinanceBench's jsonl (default: the mirror)")
    parser.add_argument("--out", type=Path, default=None, help="write the tasks without the leaking ones here")
    args = parser.parse_args()
    tasks = list(load_tasks(args.tasks).tasks)
    real = real_questions(args.qna) if args.real == "docugami" else financebench_real(args.jsonl)
    leaks, same = check(tasks, real)
    print(f"{len(tasks)} generated tasks, {len(real)} real questions: {len(leaks)} leak(s), "
          f"{len({t for t, _ in same})} task(s) on the same fact as a real question (kept)")
    for task_id, qid in leaks:
        print(f"  leak: {task_id} ~ {qid}")
    if args.out is not None:
        bad = {t for t, _ in leaks}
        n = save_tasks([t for t in tasks if t.task_id not in bad], args.out)
        print(f"{n} tasks -> {args.out}")
    elif leaks:
        sys.exit(1)


if __name__ == "__main__":
    main()
