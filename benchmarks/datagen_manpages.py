"""Datagen on a folder of Unix manual pages (session 49, issue 36: a real folder kind not used before).

    python benchmarks/datagen_manpages.py INDEX [OUT ...] [--styles 0|1]

For INDEX: manual pages indexed (documents read by corpus_tools.man_reader: "man_names" on their chunks), the facts
`datagen.doc_manpages` reads by kind (distinct question/answer) and what it refused, by reason. For each OUT (a
`context1 datagen` run on INDEX): tasks written, by kind, pages with a task, and how lexical the questions are: one
BM25 search per question on INDEX, document level, gold@1 and all-gold@10, per kind.

Session 50: the facts read as `--mix man_styles` (`--styles`, default 1 as NaturalConfig) reads them, and the questions
across pages (datagen.man_hops, `--mix man_hops`): the links the pages state by kind, the paths of 2, 3 and 4 pages
along them, the chains asked and each refusal by cause, the comparisons; per OUT its tasks by form and hop count.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.datagen_docs import _chunks, _rate  # noqa: E402
from datagen.doc_manpages import is_man_page, man_facts  # noqa: E402
from datagen.factbase import FactBase  # noqa: E402
from datagen.man_hops import man_chains, man_comparisons, man_links  # noqa: E402


def _kind(row: dict) -> str:
    return (row["metadata"].get("relations") or [row["metadata"].get("form") or "?"])[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", type=Path)
    ap.add_argument("outs", type=Path, nargs="*")
    ap.add_argument("--styles", type=int, default=1, choices=(0, 1), help="read as --mix man_styles does (default 1)")
    args = ap.parse_args()

    by_doc = _chunks(args.index)
    pages = {d: cs for d, cs in by_doc.items() if cs and is_man_page(cs[0].metadata)}
    print(f"== {args.index}: {len(by_doc)} documents, {len(pages)} manual pages, "
          f"{sum(len(c) for c in pages.values())} passages")
    base = FactBase()
    for doc_id, chunks in pages.items():
        found = man_facts(doc_id, chunks, base.skipped, styles=bool(args.styles))
        if found:
            base.facts[doc_id] = found
    seen = {(f.relation, f.ask.replace("{s}", f.subject), f.answer) for fs in base.facts.values() for f in fs}
    kinds = Counter(r.split(":", 1)[1] for r, _, _ in seen)
    print("   manual-page facts read (distinct question/answer), by kind: "
          + (", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "none") + f"; pages holding one: {len(base.facts)}")
    print("   refused: " + (", ".join(f"{k} {v}" for k, v in base.skipped.most_common()) or "none"))
    # questions across pages (the facts as read here, before the generator's corpus-wide uniqueness)
    funnel: Counter = Counter()
    texts = {d: "\n\n".join(c.text for c in cs) for d, cs in pages.items()}
    links = man_links(pages, funnel)
    chains = man_chains(links, base.facts, texts, funnel)
    compared = man_comparisons(base.facts, pages, texts, funnel)
    print("   links stated: " + (", ".join(f"{k[5:]} {v}" for k, v in sorted(funnel.items()) if k.startswith("link:"))
                                  or "none") + "; not links: " + (", ".join(
        f"{k} {v}" for k, v in sorted(funnel.items()) if k.startswith("link_")) or "none"))
    for hops in (2, 3, 4):
        refused = ", ".join(f"{k.split(':', 2)[2]} {v}" for k, v in sorted(funnel.items())
                            if k.startswith(f"refused:{hops}:"))
        print(f"   {hops} pages: {funnel[f'paths:{hops}']} path(s) along stated links, "
              f"{sum(1 for c in chains if len(c.facts) == hops)} question(s) asked; refused: {refused or 'none'}")
    print(f"   comparisons (Linux versions of pages whose SEE ALSO names the other): {len(compared)} asked of "
          f"{funnel['compare:related_pairs']} related pairs; refused: " + (", ".join(
              f"{k[8:]} {v}" for k, v in sorted(funnel.items()) if k.startswith("compare:")
              and k not in ("compare:asked", "compare:related_pairs")) or "none"))
    from corpus_tools import Corpus

    corpus = Corpus.open(args.index)
    try:
        for out in args.outs:
            path = out / "tasks.jsonl"
            rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()] \
                if path.is_file() else []
            kind = Counter(_kind(r) for r in rows)
            hops = Counter(len(r["metadata"].get("relations") or []) for r in rows)
            docs = {d for r in rows for d in r.get("gold_doc_ids") or ()}
            forms = Counter(f"{r['metadata'].get('form')}:{r.get('hops')}" for r in rows)
            print(f"== {out}: {len(rows)} tasks from {len(docs)} documents; hops: "
                  + ", ".join(f"{k} {v}" for k, v in sorted(hops.items())) + "; kinds: "
                  + (", ".join(f"{k} {v}" for k, v in kind.most_common()) or "none") + "; forms:hops: "
                  + ", ".join(f"{k} {v}" for k, v in forms.most_common()))
            if not rows:
                continue
            print(f"   BM25 by document, all: {_rate(corpus, [(r['query'], r.get('gold_doc_ids') or []) for r in rows])}")
            for k in sorted(kind):
                these = [(r["query"], r.get("gold_doc_ids") or []) for r in rows if _kind(r) == k]
                print(f"   BM25 by document, {k}: {_rate(corpus, these)}")
            for form in sorted({r["metadata"].get("form") for r in rows} - {"single", None}):
                # a question across pages: all-gold@10 low where one search does not reach the page the link names
                these = [(r["query"], r.get("gold_doc_ids") or []) for r in rows if r["metadata"].get("form") == form]
                print(f"   BM25 by document, form {form}: {_rate(corpus, these)}")
    finally:
        corpus.close()


if __name__ == "__main__":
    main()
