"""Datagen on a folder of research papers (session 48, issue 36: a real folder kind not used before).

    python benchmarks/datagen_papers.py INDEX [OUT ...]

For INDEX: papers indexed (PDFs with no filing's form), the facts `datagen.doc_papers` reads by kind (distinct
question/answer), what it refused, by reason, and how many documents' titles are file names. For each OUT (a
`context1 datagen` run, on INDEX or another index of the same folder): tasks written, by kind, papers with a task,
and how lexical the questions are: one BM25 search per question on that run's own index (its tasks.jsonl's
`index` when it names one, else INDEX), document level, gold@1 and all-gold@10, per kind.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.datagen_docs import _chunks, _rate  # noqa: E402
from corpus_tools.paper_definitions import is_paper  # noqa: E402
from datagen.doc_papers import paper_facts  # noqa: E402
from datagen.factbase import FactBase  # noqa: E402


def _kinds(base: FactBase) -> Counter:
    seen = {(f.relation, f.ask.replace("{s}", f.subject), f.answer) for fs in base.facts.values() for f in fs}
    return Counter(r.split(":", 1)[1] for r, _, _ in seen)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", type=Path)
    ap.add_argument("outs", type=Path, nargs="*")
    ap.add_argument("--index-of", action="append", default=[], metavar="OUT=INDEX",
                    help="the index an OUT was generated from, where it is not INDEX")
    args = ap.parse_args()
    index_of = dict(x.split("=", 1) for x in args.index_of)

    by_doc = _chunks(args.index)
    papers = {d: cs for d, cs in by_doc.items() if cs and is_paper(d, cs[0].metadata)}
    titles = Counter(" ".join(str(cs[0].metadata.get("title") or "").split()).lower() for cs in papers.values())
    stems = sum(1 for d, cs in papers.items() if str(cs[0].metadata.get("title") or "").lower().replace(" ", "")
                == Path(d).stem.lower().replace("_", "").replace("-", "").replace(" ", ""))
    print(f"== {args.index}: {len(by_doc)} documents, {len(papers)} papers, "
          f"{sum(len(c) for c in papers.values())} passages; titles that are the file's name: {stems}")
    base = FactBase()
    for doc_id, chunks in papers.items():
        title = str(chunks[0].metadata.get("title") or "")
        found = paper_facts(doc_id, title, chunks, base.skipped,
                            unique_title=titles[" ".join(title.split()).lower()] < 2)
        if found:
            base.facts[doc_id] = found
    print("   paper facts read (distinct question/answer), by kind: "
          + (", ".join(f"{k} {v}" for k, v in _kinds(base).most_common()) or "none") + f"; papers holding one: {len(base.facts)}")
    print("   refused: " + (", ".join(f"{k} {v}" for k, v in base.skipped.most_common()) or "none"))
    from corpus_tools import Corpus

    for out in args.outs:
        path = out / "tasks.jsonl"
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()] if path.is_file() else []
        kind = Counter((r["metadata"].get("relations") or [r["metadata"].get("form") or "?"])[-1] for r in rows)
        hops = Counter(len(r["metadata"].get("relations") or []) for r in rows)
        docs = {d for r in rows for d in r.get("gold_doc_ids") or ()}
        print(f"== {out}: {len(rows)} tasks from {len(docs)} papers; hops: "
              + ", ".join(f"{k} {v}" for k, v in sorted(hops.items())) + "; kinds: "
              + (", ".join(f"{k} {v}" for k, v in kind.most_common()) or "none"))
        if not rows:
            continue
        corpus = Corpus.open(Path(index_of.get(str(out), args.index)))
        try:
            print(f"   BM25 by document, all: {_rate(corpus, [(r['query'], r.get('gold_doc_ids') or []) for r in rows])}")
            for k in sorted(kind):
                these = [(r["query"], r.get("gold_doc_ids") or []) for r in rows
                         if (r["metadata"].get("relations") or [r["metadata"].get("form") or "?"])[-1] == k]
                print(f"   BM25 by document, {k}: {_rate(corpus, these)}")
        finally:
            close = getattr(corpus, "close", None)
            if close is not None:
                close()


if __name__ == "__main__":
    main()
