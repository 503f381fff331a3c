"""Datagen on a folder of Jupyter notebooks (session 47, issue 36: 0 tasks before `datagen.doc_notebooks`).

    python benchmarks/datagen_notebooks.py INDEX [OUT ...]

For INDEX (no parse needed: the notebook readers read passages, not parses): notebooks indexed, the facts
`datagen.doc_notebooks` reads by kind (distinct question/answer), before and after the folder-wide one-answer rule
(`factbase.unique_in_corpus`), and what it refused, by reason. For each OUT (a `context1 datagen` run on INDEX):
tasks written, by kind and by the folder's top-level folder (a repository), notebooks with a task, and how lexical the questions are: one BM25 search per question,
document level, gold@1 (the gold notebook first) and all-gold@10 (every gold notebook in the top 10), per kind.
With two OUTs or more, the first against the last, paired by notebook (every notebook of INDEX): tasks per notebook,
the mean difference (first − last) with its 95 % paired bootstrap interval, and the notebooks won / lost.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.datagen_docs import _chunks, _rate  # noqa: E402
from benchmarks.docs_reading import paired  # noqa: E402
from datagen.doc_notebooks import is_notebook, notebook_facts  # noqa: E402
from datagen.factbase import FactBase, unique_in_corpus  # noqa: E402


def _kinds(base: FactBase) -> Counter:
    seen = {(f.relation, f.ask.replace("{s}", f.subject), f.answer) for fs in base.facts.values() for f in fs}
    return Counter(r.split(":", 1)[1] for r, _, _ in seen)


def _folder(doc_id: str) -> str:
    """A notebook's top-level folder (its repository in a folder of several), or "." for a notebook at the top."""
    return doc_id.split("/", 1)[0] if "/" in doc_id else "."


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", type=Path)
    ap.add_argument("outs", type=Path, nargs="*")
    args = ap.parse_args()

    by_doc = _chunks(args.index)
    notebooks = {d: cs for d, cs in by_doc.items() if cs and is_notebook(d, cs[0].metadata)}
    print(f"== {args.index}: {len(by_doc)} documents, {len(notebooks)} notebooks")
    base = FactBase()
    for doc_id, chunks in notebooks.items():
        found = notebook_facts(doc_id, str(chunks[0].metadata.get("title") or ""), chunks, base.skipped,
                               printed=True, defaults=True, wrapped=True)  # datagen's defaults
        if found:
            base.facts[doc_id] = found
    print("   notebook facts read (distinct question/answer), by kind: "
          + (", ".join(f"{k} {v}" for k, v in _kinds(base).most_common()) or "none"))
    unique_in_corpus(base, "doc:")
    print("   after one answer across the folder: " + (", ".join(f"{k} {v}" for k, v in _kinds(base).most_common()) or "none")
          + f"; notebooks holding one: {len(base.facts)}")
    print("   refused: " + (", ".join(f"{k} {v}" for k, v in base.skipped.most_common()) or "none"))
    if not args.outs:
        return
    from corpus_tools import Corpus

    per_notebook: list[list[float]] = []
    corpus = Corpus.open(args.index)
    try:
        for out in args.outs:
            path = out / "tasks.jsonl"
            rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()] if path.is_file() else []
            kind = Counter((r["metadata"].get("relations") or ["?"])[-1] for r in rows)
            docs = {d for r in rows for d in r.get("gold_doc_ids") or ()}
            first_gold = Counter((r.get("gold_doc_ids") or ["?"])[0] for r in rows)
            per_notebook.append([float(first_gold[d]) for d in sorted(notebooks)])
            print(f"== {out}: {len(rows)} tasks from {len(docs)} notebooks; kinds: "
                  + (", ".join(f"{k} {v}" for k, v in kind.most_common()) or "none"))
            folders = Counter((_folder(d), k) for r in rows for k in [(r["metadata"].get("relations") or ["?"])[-1]]
                              for d in (r.get("gold_doc_ids") or ["?"])[:1])
            for folder in sorted({f for f, _ in folders}):
                print(f"   {folder}: " + ", ".join(f"{k} {v}" for (f, k), v in sorted(folders.items()) if f == folder))
            print(f"   BM25 by document, all: {_rate(corpus, [(r['query'], r.get('gold_doc_ids') or []) for r in rows])}")
            for k in sorted(kind):
                these = [(r["query"], r.get("gold_doc_ids") or []) for r in rows
                         if (r["metadata"].get("relations") or ["?"])[-1] == k]
                print(f"   BM25 by document, {k}: {_rate(corpus, these)}")
        if len(per_notebook) >= 2 and notebooks:
            mean, won, lost, lo, hi = paired(per_notebook[-1], per_notebook[0])
            print(f"== {args.outs[0]} − {args.outs[-1]}, paired by notebook ({len(notebooks)}): tasks per notebook "
                  f"{mean:+.3f} [95 % bootstrap {lo:+.3f}, {hi:+.3f}], notebooks won / lost {won} / {lost}")
    finally:
        close = getattr(corpus, "close", None)
        if close is not None:
            close()


if __name__ == "__main__":
    main()
