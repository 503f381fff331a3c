"""The agent on the folder kinds measured so far with one search only (session 50, issue 34): is its answer at
least as good as one search's?

    PYTHONPATH=. nice python benchmarks/agent_folders.py man --data /work/scratch49-man/tune \\
        --index /work/scratch49-man/idx-final --out /work/runs/s50/lead/agent-man --limit 300
    PYTHONPATH=. nice python benchmarks/agent_folders.py papers --index /work/scratch49-acro/sub1-def \\
        --out /work/runs/s50/lead/agent-papers --limit 300

Issue 34 asks that on every kind of folder the agent's final top 5 passages be at least as good as one search's
top 5. Sessions 48–49 measured manual pages and research papers with one search only. Here their proxy queries
— `benchmarks/manpages_search.py`'s ("What does NAME do?", "When does openat2 fail with E2BIG?", "What does the
-r option of mount do?", a DESCRIPTION sentence) and `benchmarks/papers_search.py`'s (an acronym's or a term's
definition asked with and without its paper, a body sentence's first words, a sentence using a defined acronym) —
a seeded sample of `--limit`, go through one hybrid search (`k=5`, `constraints="auto"`, what the agent's own
searches pass) and through the LLM-free `SearchAgent`; both are scored on the same gold chunks: hit@1, hit@5 and
MRR@5 of the five passages, agent − one search with the 95 % paired bootstrap and queries won / lost, overall and
by kind. Rows in OUT/rows.jsonl (the queries, both top 5s and the agent's tool calls).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docs_reading import chunks_by_doc, paired  # noqa: E402


def man_queries(data: Path, index: Path, per_page: int, seed: int) -> list[dict[str, Any]]:
    """manpages_search's proxies of the pages under `data`, each with its gold chunk ids in `index`."""
    from manpages_search import gold_ids, make_queries

    by_doc = chunks_by_doc(index)
    queries = make_queries(data, per_page, seed)
    for q in queries:
        q["gold_ids"] = sorted(gold_ids(by_doc.get(q["doc"], []), q))
    return queries


def paper_queries(index: Path) -> list[dict[str, Any]]:
    """papers_search's proxies of the papers in `index` (3 body sentences and 3 acronym uses a paper, as its
    defaults), each with its gold chunk ids."""
    from papers_search import chunks_of, gold_ids, proxies

    by_doc = chunks_of(index)
    return [{"kind": q["kind"], "doc": q["doc_id"], "query": q["query"], "gold_ids": sorted(gold_ids(by_doc, q))}
            for q in proxies(by_doc, 3, 3)]


def ranks(passages: list[str], gold: set[str]) -> dict[str, float]:
    first = next((r for r, cid in enumerate(passages[:5], 1) if cid in gold), None)
    return {"hit1": float(first == 1), "hit5": float(first is not None), "mrr": 1.0 / first if first else 0.0}


def main(argv: list[str] | None = None) -> None:
    from context1 import SearchAgent
    from corpus_tools import Corpus

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=("man", "papers"))
    parser.add_argument("--data", type=Path, help="man: the folder of manual pages the index was built from")
    parser.add_argument("--index", type=Path, required=True, help="an index of the folder (read as main reads it)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=300, help="queries sampled (seeded) from the proxies")
    parser.add_argument("--per-page", type=int, default=2, help="man: most tag queries a page")
    parser.add_argument("--seed", type=int, default=50)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    if args.kind == "man" and args.data is None:
        parser.error("man: --data FOLDER (the pages the index was built from) is needed to ask about them")
    queries = (man_queries(args.data, args.index, args.per_page, args.seed) if args.kind == "man"
               else paper_queries(args.index))
    queries = [q for q in queries if q["gold_ids"]]
    queries = random.Random(args.seed).sample(queries, min(args.limit, len(queries)))

    corpus = Corpus.open(args.index)
    agent = SearchAgent(corpus)
    agent.run(queries[0]["query"])  # warm-up: model load and caches
    rows = []
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as log:
        for n, q in enumerate(queries, 1):
            gold = set(q["gold_ids"])
            search = [h.chunk.chunk_id for h in corpus.search(q["query"], k=5, constraints="auto")]
            result = agent.run(q["query"])
            passages = [e.chunk_id for e in result.evidence]
            row = {"kind": q["kind"], "doc": q["doc"], "query": q["query"], "gold": q["gold_ids"],
                   "search_passages": search, "agent_passages": passages,
                   "calls": [f"{c.name}({json.dumps(c.arguments, ensure_ascii=False)})"
                             for step in result.trajectory.steps for c in step.turn.tool_calls],
                   "search": ranks(search, gold), "agent": ranks(passages, gold)}
            rows.append(row)
            log.write(json.dumps(row, ensure_ascii=False) + "\n")
            if n % 25 == 0:
                print(f"[{n}/{len(queries)}]", file=sys.stderr, flush=True)
    corpus.close()

    print(f"# The agent on {args.kind}: {args.index} ({len(rows)} proxy queries, seed {args.seed})\n")
    print("| queries | metric | n | one search | agent | agent − one search | won / lost |")
    print("| --- | --- | ---: | ---: | ---: | --- | --- |")
    groups = [("all", rows)] + [(k, [r for r in rows if r["kind"] == k]) for k in sorted({r["kind"] for r in rows})]
    for metric in ("hit1", "hit5", "mrr"):
        for label, group in groups:
            a = [r["search"][metric] for r in group]
            b = [r["agent"][metric] for r in group]
            mean, won, lost, lo, hi = paired(a, b)
            print(f"| {label} | {metric} | {len(group)} | {sum(a) / len(a):.3f} | {sum(b) / len(b):.3f} | "
                  f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}] | {won} / {lost} |")


if __name__ == "__main__":
    main()
