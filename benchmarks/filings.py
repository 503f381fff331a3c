"""Real SEC filings through the whole document path: every file of a folder indexed, or skipped with its reason.

    python benchmarks/filings.py --docs FOLDER [--index runs/filings-index] [--qna qna_data.csv
        --questions-out runs/filings-questions.jsonl --per-doc 2]

Issue 24's set: the 20 10-Q filings (Apple, Amazon, Intel, Microsoft, NVIDIA; 2022 Q3 – 2023 Q3, 24 MB of
PDFs) of docugami/KG-RAG-datasets (MIT; `sec-10-q/data/v1/docs` and `qna_data.csv` at commit 547f132).
SEC filings are public domain, but 24 MB is too much for the repository: they are read from a folder.
Getting them (the GitHub snapshot tool; any copy of that folder does):

    git -C KG-RAG-datasets archive 547f132 sec-10-q/data/v1 | tar -x -C /tmp/filings10q --strip-components=3

Prints (1) each PDF read by each extractor alone — pypdf, then pypdfium2 — with its pages, characters or
error and time, so the files that need the fallback are visible; (2) what `Corpus.build` made of the
folder (the real path: loaders, the fallback, chunking, embedding): each document's characters and
chunks, each skipped file with its reason, and `indexed N/M`. With --qna (docugami's CSV: Question,
Source Docs, Question Type, ...) it writes the single-filing questions as JSONL ({"id", "question",
"gold_doc_ids"}), --per-doc of each filing in file order, for `benchmarks/ask_vs_search.py --index
INDEX --pdfs FOLDER --questions JSONL`.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def probe_pdf(path: Path) -> dict[str, str]:
    """Each extractor alone on one PDF: 'N pages, M chars (T s)' or its error."""
    from corpus_tools import readers

    out: dict[str, str] = {}
    for name, read in (("pypdf", readers._read_pdf_pypdf), ("pypdfium2", readers._read_pdf_pdfium)):
        started = time.perf_counter()
        try:
            _title, text, failed = read(path)
            note = f"{len(text):,} chars" + (f", {failed} page(s) failed" if failed else "")
            out[name] = f"ok: {note} ({time.perf_counter() - started:.1f} s)"
        except readers.UnreadableFileError as exc:
            out[name] = f"**fails**: {str(exc)[:90]} ({time.perf_counter() - started:.1f} s)"
    return out


def single_filing_questions(qna: Path, docs: list[str], per_doc: int) -> list[dict[str, Any]]:
    """docugami's questions whose Source Docs name one filing ('*2023 Q3 NVDA*'), per_doc of each."""
    by_stem = {Path(d).stem: d for d in docs}
    taken: Counter = Counter()
    out = []
    with qna.open(encoding="utf-8-sig", newline="") as f:
        for i, row in enumerate(csv.DictReader(f)):
            stem = row["Source Docs"].strip().strip("*")
            if not row["Question Type"].startswith("Single-Doc") or stem not in by_stem or taken[stem] >= per_doc:
                continue
            taken[stem] += 1
            out.append({"id": f"q{i}", "question": row["Question"].strip(), "gold_doc_ids": [by_stem[stem]]})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=Path, required=True, help="folder of filings (PDF, HTML, text)")
    parser.add_argument("--index", type=Path, default=ROOT / "runs" / "filings-index")
    parser.add_argument("--no-probe", action="store_true", help="skip reading each PDF with each extractor alone")
    parser.add_argument("--qna", type=Path, default=None, help="docugami's qna_data.csv")
    parser.add_argument("--questions-out", type=Path, default=ROOT / "runs" / "filings-questions.jsonl")
    parser.add_argument("--per-doc", type=int, default=2)
    args = parser.parse_args()
    from corpus_tools import Corpus

    files = sorted(p for p in args.docs.rglob("*") if p.is_file() and not p.name.startswith("."))
    if not args.no_probe:
        print("| file | MB | pypdf alone | pypdfium2 alone |\n| --- | ---: | --- | --- |")
        for path in files:
            if path.suffix.lower() == ".pdf":
                got = probe_pdf(path)
                print(f"| {path.name} | {path.stat().st_size / 1e6:.1f} | {got['pypdf']} | {got['pypdfium2']} |")
        print()

    if (args.index / "manifest.json").exists():
        raise SystemExit(f"{args.index} already holds an index: give a new --index (this measures a fresh build)")
    started = time.perf_counter()
    corpus = Corpus.build(args.docs, args.index, progress=False)
    seconds = time.perf_counter() - started
    print("| document | chunks | characters |\n| --- | ---: | ---: |")
    for doc_id in sorted(corpus.doc_ids()):
        doc_chunks = corpus.chunks(doc_id)
        print(f"| {doc_id} | {len(doc_chunks)} | {sum(len(c.text) for c in doc_chunks):,} |")
    print()
    if corpus.skipped:
        print("| skipped | reason |\n| --- | --- |")
        for s in corpus.skipped:
            print(f"| {s.path} | {s.reason} |")
        print()
    print(f"indexed {len(corpus.doc_ids())}/{len(files)} files ({len(corpus.skipped)} skipped), "
          f"{len(corpus):,} chunks, in {seconds:.0f} s -> {args.index}")

    if args.qna is not None:
        tasks = single_filing_questions(args.qna, sorted(corpus.doc_ids()), args.per_doc)
        args.questions_out.parent.mkdir(parents=True, exist_ok=True)
        args.questions_out.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
        print(f"wrote {len(tasks)} single-filing questions to {args.questions_out}")
    corpus.close()


if __name__ == "__main__":
    main()
