"""`ask` (the LLM-free agent) against one `search`, single-document questions: top-1/top-5, documents
returned, time, and the passage each answer quotes.

    python benchmarks/ask_vs_search.py [--index runs/office-index] [--pdfs FOLDER --questions FILE]

Default data: tests/fixtures/office_corpus (10-Q-style reports and mail; questions.jsonl holds the
gold document of each question). `--pdfs`/`--questions` run it on any folder (e.g. real filings)
with a JSONL of {"question", "gold_doc_ids"}. `search` ranks documents by their best chunk among
the top 25 hybrid hits; `ask` is `SearchAgent(corpus).run` with the default iterative policy.
Prints a markdown table per question (the answering passage is the quote that opens the first
gold document's justification) and a summary row.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OFFICE = ROOT / "tests" / "fixtures" / "office_corpus"


def _index(source: Path, path: Path) -> Any:
    from corpus_tools import Corpus, load_documents

    if (path / "manifest.json").exists():
        return Corpus.open(path)
    docs = [d for d in load_documents(source).documents if not d.doc_id.endswith((".jsonl", "README.md"))]
    return Corpus.build(docs, path, progress=False)


def search_docs(corpus: Any, question: str, n: int = 5) -> list[str]:
    out: list[str] = []
    for hit in corpus.search(question, k=25):
        if hit.chunk.doc_id not in out:
            out.append(hit.chunk.doc_id)
    return out[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index", type=Path, default=ROOT / "runs" / "office-index")
    parser.add_argument("--pdfs", type=Path, default=OFFICE, help="folder of documents")
    parser.add_argument("--questions", type=Path, default=OFFICE / "questions.jsonl")
    args = parser.parse_args()
    from context1 import SearchAgent

    corpus = _index(args.pdfs, args.index)
    agent = SearchAgent(corpus)
    tasks = [json.loads(line) for line in args.questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    agent.run(tasks[0]["question"])  # warm-up: model load and caches are not the policy's time
    rows, totals = [], {"s1": 0, "s5": 0, "a1": 0, "a5": 0, "docs": 0, "ts": 0.0, "ta": 0.0}
    for task in tasks:
        q, gold = task["question"], set(task["gold_doc_ids"])
        started = time.perf_counter()
        found = search_docs(corpus, q)
        totals["ts"] += time.perf_counter() - started
        started = time.perf_counter()
        result = agent.run(q)
        totals["ta"] += time.perf_counter() - started
        asked = result.doc_ids
        s_rank = next((i for i, d in enumerate(found, 1) if d in gold), None)
        a_rank = next((i for i, d in enumerate(asked, 1) if d in gold), None)
        totals["s1"] += s_rank == 1
        totals["s5"] += s_rank is not None and s_rank <= 5
        totals["a1"] += a_rank == 1
        totals["a5"] += a_rank is not None and a_rank <= 5
        totals["docs"] += len(asked)
        gold_doc = next((d for d in result.documents if d.doc_id in gold), None)
        quote = gold_doc.justification.split("”")[0].lstrip("“") if gold_doc else "(gold not returned)"
        top = result.documents[0].score if result.documents else 0.0
        rows.append((task.get("id", ""), q, s_rank or "–", a_rank or "–", len(asked), f"{top:.2f}", quote[:160]))
    print("| id | question | search rank | ask rank | ask docs | ask top score | answering passage (quoted by ask) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for row in rows:
        print("| " + " | ".join(str(c).replace("|", "/") for c in row) + " |")
    n = len(tasks)
    print(f"\n| {n} questions | top-1 | top-5 | mean docs returned | s/question |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| search (top 25 hits → documents) | {totals['s1']}/{n} | {totals['s5']}/{n} | 5 | {totals['ts'] / n:.2f} |")
    print(f"| ask (iterative policy) | {totals['a1']}/{n} | {totals['a5']}/{n} | {totals['docs'] / n:.1f} | "
          f"{totals['ta'] / n:.2f} |")


if __name__ == "__main__":
    main()
