"""The agent's passages on documentation (session 41, issue 34): does `ask` open with the defining passage?

    PYTHONPATH=. nice python benchmarks/docs_agent.py --part tune \
        --index /work/scratch41-lead/docs41-tune-merged --out /work/scratch41-agentdef/tune
    bash benchmarks/docs_agent_report.sh                      # the reporting folder: by the lead, once

The queries are benchmarks/docs_reading.py's proxies of the part's folder (same seed, same sample: "definition",
"heading", "sentence", "api"; gold = the chunks of the query's file sharing 3 five-word shingles with the
section), `--kinds` chooses which. Per query, three rankings of one index:

  search   one `Corpus.search(query, k=10)` (the index's search config: the defining chunk lifted, session 41);
  off      the LLM-free agent, `SearchAgent(corpus, config=AgentConfig(defined_first=False))`: its evidence
           passages in the answer's own order (main's order);
  on       the same with `defined_first=True` (the default): a passage defining what the question names first.

`--compare first_search` (session 42, issue 34's "never worse than one search"): off / on are the LLM-free agent with
session 42's IterativeConfig fields off (`first_search_order=False, link_name_share=0`, and the second round's two:
main's answer) / at their defaults (the head in the first search's order; a page name that many pages seen write links
none; only a new document displaces a first-search passage, never the top one), both with `defined_first` at its
default (True). `--compare first_search_top` (session 42, second round): off = 0ffd2a9's answer
(`first_search_new_documents=False, first_search_keeps_top=False`), on = the defaults. `--compare
first_search_links` (session 43): off = `IterativeConfig(first_search_links=0)` (ee9f243's answer: a link from any
passage seen lets a page displace a first-search passage), on = the defaults (only a link from the first search's top 5).
`--compare first_search_floor` (session 44): off = `IterativeConfig(first_search_floor=0)` (22d84e9's answer), on = the
defaults (a first-search passage quoting the question is never displaced by one quoting less of it). The earlier
compares' off arms run with the floor off too (the answers they stood for had none); their on arms are the defaults.

Columns: passage hit@1 and hit@5 (a gold chunk first / in the first 5), MRR@5 (search: @10), and the paired
differences on − off and on − search with a 95 % bootstrap interval and queries won / lost
(docs_reading.paired). Also how many queries the rule fired on (`metadata["defined_first"]`). Per-query
rows (passage ids of each arm) in OUT/rows-PART.jsonl.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docs_reading import DATA, chunks_by_doc, gold, make_queries, paired  # noqa: E402

ARMS = ("search", "off", "on")


def score(ranked: list[str], gold_ids: set[str], depth: int) -> dict[str, float]:
    first = next((r for r, cid in enumerate(ranked[:depth], 1) if cid in gold_ids), None)
    return {"hit1": float(first == 1), "hit5": float(first is not None and first <= 5),
            "mrr": 1.0 / first if first else 0.0}


def agents(corpus: Any, compare: str) -> dict[str, Any]:
    """The two agent arms, off and on, of the setting compared (module docstring)."""
    from context1 import SearchAgent
    from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy
    from context1.config import AgentConfig

    if compare == "defined_first":
        return {arm: SearchAgent(corpus, config=AgentConfig(defined_first=arm == "on")) for arm in ("off", "on")}
    if compare == "first_search_floor":  # 22d84e9's answer against this branch's (session 44)
        configs = {"off": IterativeConfig(first_search_floor=0.0), "on": IterativeConfig()}
    elif compare == "first_search_links":  # ee9f243's answer against this branch's (session 43)
        configs = {"off": IterativeConfig(first_search_links=0, first_search_floor=0.0), "on": IterativeConfig()}
    elif compare == "first_search_top":  # 0ffd2a9's defaults against this branch's (the second round's two fields)
        configs = {"off": IterativeConfig(first_search_new_documents=False, first_search_keeps_top=False,
                                          first_search_links=0, first_search_floor=0.0),
                   "on": IterativeConfig()}
    else:  # main's answer (3e1805b: every session 42 field off) against the defaults
        configs = {"off": IterativeConfig(first_search_order=False, link_name_share=0.0,
                                          first_search_new_documents=False, first_search_keeps_top=False,
                                          first_search_links=0, first_search_floor=0.0),
                   "on": IterativeConfig()}
    return {arm: SearchAgent(corpus, backend=IterativeRetrievalPolicy(corpus, cfg), config=AgentConfig())
            for arm, cfg in configs.items()}


def run(index: Path, queries: list[dict[str, Any]], out: Path, part: str,
        compare: str = "defined_first") -> list[dict[str, Any]]:
    from corpus_tools import Corpus

    by_doc = chunks_by_doc(index)
    corpus = Corpus.open(index)
    arms = agents(corpus, compare)
    rows = []
    path = out / f"rows-{part}.jsonl"
    try:
        arms["off"].run(queries[0]["query"])  # warm-up: model load
        with path.open("w", encoding="utf-8") as fh:
            for n, q in enumerate(queries, 1):
                gold_ids = set(gold(by_doc, q))
                row: dict[str, Any] = {k: q[k] for k in ("kind", "query", "doc_id", "section") if k in q}
                row["gold"] = sorted(gold_ids)
                row["search"] = [h.chunk.chunk_id for h in corpus.search(q["query"], k=10)]
                for arm, agent in arms.items():
                    t0 = time.perf_counter()
                    result = agent.run(q["query"])
                    row[f"{arm}_s"] = round(time.perf_counter() - t0, 3)
                    row[arm] = [e.chunk_id for e in result.evidence]
                    if arm == "on":
                        row["fired"] = result.trajectory.metadata.get("defined_first") is not None
                rows.append(row)
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                if n % 25 == 0:
                    print(f"[{n}/{len(queries)}]", file=sys.stderr, flush=True)
    finally:
        corpus.close()
    return rows


def table(rows: list[dict[str, Any]]) -> list[str]:
    groups: dict[str, list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        groups["all"].append(i)
        groups[r["kind"]].append(i)
    head = ["queries", "n", "fired"] + [f"{m} {a}" for m in ("hit@1", "hit@5") for a in ARMS] + [
        "Δ hit@1 on−off [95 % CI] won/lost", "Δ hit@5 on−off", "Δ hit@1 on−search", "MRR search", "MRR off", "MRR on",
        "Δ MRR on−off", "Δ hit@5 on−search"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name in sorted(groups, key=lambda g: (g != "all", g)):
        idx = groups[name]
        s = {a: [score(rows[i][a], set(rows[i]["gold"]), 10 if a == "search" else 5) for i in idx] for a in ARMS}

        def col(arm: str, metric: str, s: dict[str, list[dict[str, float]]] = s) -> list[float]:
            return [x[metric] for x in s[arm]]

        cells = [name, str(len(idx)), str(sum(rows[i].get("fired", False) for i in idx))]
        cells += [f"{statistics.fmean(col(a, m)):.3f}" for m in ("hit1", "hit5") for a in ARMS]
        for metric, base in (("hit1", "off"), ("hit5", "off"), ("hit1", "search")):
            d, won, lost, lo, hi = paired(col(base, metric), col("on", metric))
            cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}")
        cells += [f"{statistics.fmean(col(a, 'mrr')):.3f}" for a in ARMS]
        for metric, base in (("mrr", "off"), ("hit5", "search")):
            d, won, lost, lo, hi = paired(col(base, metric), col("on", metric))
            cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}")
        out.append("| " + " | ".join(cells) + " |")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("tune", "report"), required=True)
    parser.add_argument("--data", type=Path, default=DATA, help="the folder holding tune/ and report/")
    parser.add_argument("--index", type=Path, required=True, help="an index of DATA/PART (main's readers)")
    parser.add_argument("--out", type=Path, required=True, help="where rows and the table go")
    parser.add_argument("--kinds", nargs="+", default=["definition", "heading", "sentence"],
                        choices=("definition", "heading", "sentence", "api"))
    parser.add_argument("--limit", type=int, default=0, help="a seeded sample of at most this many queries of each kind (0: all)")
    parser.add_argument("--per-file", type=int, default=3)
    parser.add_argument("--per-file-definitions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--compare", choices=("defined_first", "first_search", "first_search_top", "first_search_links",
                                              "first_search_floor"),
                        default="defined_first",
                        help="the setting the off / on arms differ in (module docstring)")
    args = parser.parse_args(argv)
    folder = args.data / args.part
    if not folder.is_dir():
        parser.error(f"no folder {folder}")
    if not (args.index / "manifest.json").exists():
        parser.error(f"--index {args.index} is not an index (no manifest.json)")
    args.out.mkdir(parents=True, exist_ok=True)
    queries = [q for q in make_queries(folder, args.per_file, args.seed, args.per_file_definitions)
               if q["kind"] in args.kinds]
    if args.limit:  # a seeded sample of each kind larger than the limit, in the proxies' order (every project)
        rng = random.Random(args.seed)
        by_kind: dict[str, list[int]] = defaultdict(list)
        for i, q in enumerate(queries):
            by_kind[q["kind"]].append(i)
        keep = {i for idx in by_kind.values() for i in (rng.sample(idx, args.limit) if len(idx) > args.limit else idx)}
        queries = [q for i, q in enumerate(queries) if i in keep]
    if not queries:
        parser.error("no queries of those kinds in the folder")
    rows = run(args.index, queries, args.out, args.part, args.compare)
    setting = {"defined_first": "AgentConfig.defined_first",
               "first_search": "IterativeConfig's session 42 fields (main's answer) vs their defaults:",
               "first_search_top": "IterativeConfig first_search_new_documents / first_search_keeps_top (0ffd2a9's "
                                   "answer) vs their defaults:",
               "first_search_links": "IterativeConfig.first_search_links 0 (ee9f243's answer) vs 5:",
               "first_search_floor": "IterativeConfig.first_search_floor 0 (22d84e9's answer) vs 1:"}[args.compare]
    lines = [f"# The agent's passages on documentation, part {args.part} ({folder}; index {args.index})", "",
             f"{len(rows)} queries; search = one Corpus.search, off / on = the LLM-free agent with "
             f"{setting} False / True" if args.compare == "defined_first" else f"{setting} off / on", "", *table(rows)]
    secs = {a: statistics.median(r[f"{a}_s"] for r in rows) for a in ("off", "on")}
    lines += ["", f"ask seconds p50: off {secs['off']:.2f}, on {secs['on']:.2f}"]
    text = "\n".join(lines) + "\n"
    (args.out / f"table-{args.part}.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
