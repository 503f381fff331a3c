"""Document metadata as an index stores it (issue 35): which documents lack a company, form or period, and why.

    python benchmarks/doc_metadata.py --index DIR [--part tuning|report|tuning2] [--extras] [--jsonl PATH]

Prints one row per document (its first chunk's company, ticker, form, period_end, fiscal_year, fiscal_quarter
and title) and a coverage table: how many documents have each field. With --part, only the documents of
FinanceBench's questions in that part (benchmarks/financebench.py's company halves, tuning2 for its extra
companies); --extras adds the documents no question names (the distractors of a folder such as tuning2's).
A title that is a code ("JOHNSON JOHNSON 2022Q4 EARNINGS", "Exhibit 99.1 - 6.30.2023") is counted as such:
corpus_tools.doc_metadata.looks_like_code, or a title that is the file's own stem.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

FIELDS = ("company", "ticker", "form", "period_end", "fiscal_year", "fiscal_quarter")


def code_title(title: str, doc_id: str) -> bool:
    """A title no better than the file name: the stem itself, a date and form code, or an exhibit label."""
    from corpus_tools.doc_metadata import looks_like_code
    from corpus_tools.readers import stem_title

    return (not title or title == stem_title(Path(doc_id)) or looks_like_code(title)
            or title.lower().startswith("exhibit") or "exhibit 99" in title.lower())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--part", choices=("tuning", "report", "tuning2"), default=None)
    parser.add_argument("--extras", action="store_true", help="with --part: also the documents no question names")
    parser.add_argument("--jsonl", type=Path, default=None)
    args = parser.parse_args()

    from corpus_tools import Corpus

    corpus = Corpus.open(args.index)
    doc_ids = sorted(corpus.doc_ids())
    if args.part:
        from benchmarks.financebench import held_questions, load_jsonl

        part_of = {q["doc"]: q["part"] for q in held_questions(load_jsonl(args.jsonl), doc_ids)}
        doc_ids = [d for d in doc_ids if part_of.get(d) == args.part or (args.extras and d not in part_of)]
    if not doc_ids:
        raise SystemExit(f"{args.index}: no document of part {args.part}")
    have = dict.fromkeys(FIELDS, 0)
    coded = 0
    print("| document | title | " + " | ".join(FIELDS) + " |")
    print("|---" * (len(FIELDS) + 2) + "|")
    for doc_id in doc_ids:
        meta = corpus.chunks(doc_id)[0].metadata
        for key in FIELDS:
            have[key] += meta.get(key) not in (None, "")
        title = str(meta.get("title") or "")
        coded += code_title(title, doc_id)
        print(f"| {doc_id} | {title} | " + " | ".join(str(meta.get(k, "")) for k in FIELDS) + " |")
    n = len(doc_ids)
    print(f"\nindex {args.index} · part {args.part or 'all'}{' + extras' if args.extras else ''} · {n} documents\n")
    print("| " + " | ".join(FIELDS) + " | title not a code |")
    print("|" + "---:|" * (len(FIELDS) + 1))
    print("| " + " | ".join(f"{have[k]}/{n}" for k in FIELDS) + f" | {n - coded}/{n} |")


if __name__ == "__main__":
    main()
