"""Plain words as defined names (session 49, issue 34): `SearchConfig.defined_words` off vs on, one index.

    PYTHONPATH=. python benchmarks/defined_words.py man --data PAGES --index READER_INDEX --out OUT
    PYTHONPATH=. python benchmarks/defined_words.py docs --data FOLDER --index INDEX --out OUT

A question naming a lowercase call or command ("What does openat2 do?", "When does chdir fail with ENOENT?") was
not read as naming it: `defined_names.query_names` took code-shaped tokens only. With `defined_words` a plain word
the index records as defined is a name too when the question asks it as one. Both arms search the same index (one
hybrid `Corpus.search`, k=10): "off" with defined_words False (the base reading), "on" with True. The proxies are those of the benchmarks that built them:
  man   benchmarks/manpages_search.py's name / tag / sentence proxies of the folder of pages (its gold), and
        "sentence?": each sentence proxy ending in "?" (a question saying names and common words in passing);
  docs  benchmarks/docs_reading.py's heading / api / sentence / definition proxies of a documentation folder.
Prints hit@1, hit@5 and MRR@10 per proxy kind, off and on, with on − off's 95 % paired bootstrap interval and
queries won / lost, then the queries whose rank moved. Per-query rows in OUT/rows.jsonl.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docs_reading import chunks_by_doc, paired  # noqa: E402


def _queries(mode: str, data: Path, seed: int | None) -> tuple[list[dict[str, Any]], Any]:
    """The proxy queries and the function giving a query's gold chunk ids from the index's chunks by document."""
    if mode == "man":
        import manpages_search

        queries = manpages_search.make_queries(data, 2, 49 if seed is None else seed)
        # each DESCRIPTION sentence asked as a question too: names said in passing ("… as fork(2) does"), common
        # words that are calls ("read", "open"), the guard's test (a statement is never lifted: is_question)
        queries += [{**q, "kind": "sentence?", "query": q["query"].rstrip(" .") + "?"}
                    for q in queries if q["kind"] == "sentence"]
        return queries, lambda by_doc, q: manpages_search.gold_ids(by_doc.get(q["doc"], []), q)
    import docs_reading

    queries = docs_reading.make_queries(data, 3, 40 if seed is None else seed, 8)
    for q in queries:
        q["doc"] = q["doc_id"]
    return queries, lambda by_doc, q: set(docs_reading.gold(by_doc, q))


def run(index: Path, queries: list[dict[str, Any]], gold_of: Any, words: bool) -> list[dict[str, Any]]:
    from corpus_tools import Corpus

    by_doc = chunks_by_doc(index)
    base = Corpus.open(index)
    search = dataclasses.replace(base.config.search, defined_words=words)
    base.close()
    corpus = Corpus.open(index, search=search)
    rows = []
    try:
        for n, q in enumerate(queries, 1):
            gold = gold_of(by_doc, q)
            hits = [h.chunk.chunk_id for h in corpus.search(q["query"], k=10)]
            first = next((r for r, cid in enumerate(hits, 1) if cid in gold), None)
            rows.append({"hit1": float(first == 1), "hit5": float(first is not None and first <= 5),
                         "mrr": 1.0 / first if first else 0.0, "rank": first, "gold": len(gold)})
            if n % 200 == 0:
                print(f"[defined_words {words} {n}/{len(queries)}]", file=sys.stderr, flush=True)
    finally:
        corpus.close()
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("man", "docs"))
    parser.add_argument("--data", type=Path, required=True, help="the folder the index was built from")
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=None, help="the proxies' seed (default: their benchmark's)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    queries, gold_of = _queries(args.mode, args.data, args.seed)
    arms = {"off": run(args.index, queries, gold_of, False), "on": run(args.index, queries, gold_of, True)}
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as fh:
        for i, q in enumerate(queries):
            fh.write(json.dumps({"kind": q["kind"], "doc": q["doc"], "query": q["query"],
                                 **{a: r[i] for a, r in arms.items()}}) + "\n")
    kinds = sorted({q["kind"] for q in queries})
    print(f"# defined_words, {args.mode}: {args.data} ({len(queries)} queries), index {args.index}\n")
    print("| queries | metric | n | off | " + " | ".join(f"{a} | {a} − off [95 % CI] | won / lost" for a in arms
                                                     if a != "off") + " |")
    print("|---|---|--:|--:|" + "--:|---|---|" * (len(arms) - 1))
    for label in ["all", *kinds]:
        idx = [i for i, q in enumerate(queries) if label in ("all", q["kind"])]
        for metric in ("hit1", "hit5", "mrr"):
            off = [arms["off"][i][metric] for i in idx]
            cells = [label, metric, str(len(idx)), f"{statistics.fmean(off):.3f}"]
            for arm, rows in arms.items():
                if arm == "off":
                    continue
                on = [rows[i][metric] for i in idx]
                d, won, lost, lo, hi = paired(off, on)
                cells += [f"{statistics.fmean(on):.3f}", f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]", f"{won} / {lost}"]
            print("| " + " | ".join(cells) + " |")
    last = list(arms)[-1]
    moved = [(arms["off"][i]["rank"], arms[last][i]["rank"], q) for i, q in enumerate(queries)
             if arms["off"][i]["rank"] != arms[last][i]["rank"]]
    print(f"\n## Queries whose gold rank moved, off → {last}: {len(moved)}\n")
    for a, b, q in sorted(moved, key=lambda m: (m[1] or 99) - (m[0] or 99))[:60]:
        print(f"- {a} → {b}  [{q['kind']}] {q['query'][:110]}  ({q['doc']})")


if __name__ == "__main__":
    main()
