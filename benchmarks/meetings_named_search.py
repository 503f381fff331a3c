"""Questions that name their meeting, searched (issue 34 with issue 36's meeting questions): does one search — and the
LLM-free agent — find the meeting a question names ("In the ES2002 kick-off meeting, what price did …?", "In Bmr009,
what …?")? `SearchConfig.meeting_names` reads such a name and ranks that meeting first (corpus_tools.meeting_names).

    python benchmarks/meetings_named_search.py run --data DATA --index INDEX --out OUT [--tasks TASKS.jsonl] \
        [--variant off=meeting_names:false --variant on=meeting_names:true] [--agent 150]
    python benchmarks/meetings_named_search.py table OUT/named.jsonl

Sets (each query searched once per variant, `Corpus.search(q, k=50, constraints="auto")` as `ask` searches):
- `generated` (with --tasks): datagen's tasks over the folder that name their meeting (session 50's `meet_*` keys:
  "In the first ES2012 meeting, what selling price did the project manager give?"); gold = the task's gold chunks.
- `qmsum-named`: QMSum's real specific queries (DATA/queries.jsonl, `meetings_search.py export`) whose meeting has a
  name (`meeting_names.meeting_names` over DATA/docs), the name put before the question as a user would write it
  ("In the ES2002 kick-off meeting, what did …?"); `qmsum-stem`: the same queries with the bare file stem ("In
  ES2002a, what did …?"); `qmsum-control`: the same queries unnamed, as QMSum asks them (must not move). A proxy: the
  naming is ours, the question and its gold (the chunks holding a relevant line) are QMSum's.
Metrics per query: gold@1 (the first passage is gold), hit@5 (a gold chunk among the first 5), meeting@5 (the
named meeting among the first 5 distinct documents). The first variant is the base: mean difference, 95 % paired
bootstrap interval, won / lost. `--agent N`: the LLM-free agent's top 5 on N evenly spaced queries of each named
set, under the last variant, against that variant's one search (issue 34's never-worse rule). `--limit N`: N
evenly spaced queries of each set. Per-query JSONL and the table under OUT.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from meetings_search import chunk_lines, gold_of, paired, parse_variant, relevant  # noqa: E402

METRICS = ("gold1", "hit5", "meeting5")
SETS = ("generated", "qmsum-named", "qmsum-stem", "qmsum-control")


def in_meeting(name: str, query: str) -> str:
    """"In the ES2002 kick-off meeting, what did …?" — the question's first letter lowered unless it is a name or "I"."""
    first = query.split(" ", 1)[0]
    keep = first == "I" or first.startswith("I'") or (len(first) > 1 and not first[1:].islower())
    return f"In {name}, {query if keep else query[:1].lower() + query[1:]}"


def spaced(items: list[Any], limit: int | None) -> list[Any]:
    if not limit or limit >= len(items):
        return items
    return [items[i * len(items) // limit] for i in range(limit)]


def build_sets(data: Path, tasks: Path | None, corpus: Any, limit: int | None) -> list[dict[str, Any]]:
    from corpus_tools.meeting_names import meeting_names, stem

    docs = data / "docs"
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(docs.glob("*.txt"))}
    names = meeting_names(texts)
    lines_of = {d: chunk_lines(corpus, d, t) for d, t in texts.items()}
    records: list[dict[str, Any]] = []
    if tasks is not None:
        for t in spaced([json.loads(x) for x in tasks.read_text(encoding="utf-8").splitlines() if x.strip()], limit):
            records.append({"set": "generated", "query": t["query"], "meeting": t["gold_doc_ids"][0],
                            "gold": list(t["gold_chunk_ids"])})
    queries = [json.loads(x) for x in (data / "queries.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    named = spaced([q for q in queries if f"{q['meeting']}.txt" in names], limit)
    for q in named:
        doc = f"{q['meeting']}.txt"
        gold = gold_of(lines_of[doc], relevant(q["lines"]))
        for kind, text in (("qmsum-named", in_meeting(names[doc], q["query"])),
                           ("qmsum-stem", in_meeting(stem(doc), q["query"])), ("qmsum-control", q["query"])):
            records.append({"set": kind, "query": text, "meeting": doc, "gold": gold, "name": names[doc]})
    return records


def run(args: argparse.Namespace) -> Path:
    from context1 import SearchAgent
    from corpus_tools import Corpus

    corpus = Corpus.open(args.index)
    base_config = corpus.config.search
    records = build_sets(args.data, args.tasks, corpus, args.limit)
    corpus.close()
    variants = [parse_variant(v) for v in args.variant] or [("off", {"meeting_names": False}),
                                                            ("on", {"meeting_names": True})]
    for label, overrides in variants:
        corpus = Corpus.open(args.index, search=dataclasses.replace(base_config, **overrides))
        t0 = time.perf_counter()
        for rec in records:
            hits = corpus.search(rec["query"], k=50, constraints="auto")
            rec[f"search@{label}"] = {"passages": [h.chunk.chunk_id for h in hits[:10]],
                                      "docs": list(dict.fromkeys(h.chunk.doc_id for h in hits))[:10]}
        print(f"[{label}: {len(records)} searches, {time.perf_counter() - t0:.0f} s]", file=sys.stderr, flush=True)
        corpus.close()
    if args.agent:
        label = variants[-1][0]
        corpus = Corpus.open(args.index, search=dataclasses.replace(base_config, **variants[-1][1]))
        agent = SearchAgent(corpus)
        for kind in ("generated", "qmsum-named", "qmsum-stem"):
            for rec in spaced([r for r in records if r["set"] == kind], args.agent):
                result = agent.run(rec["query"])
                rec[f"agent@{label}"] = {"passages": [e.chunk_id for e in result.evidence][:10],
                                         "docs": list(result.doc_ids)[:10]}
        corpus.close()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "named.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def score(ranked: dict[str, list[str]], rec: dict[str, Any]) -> dict[str, float]:
    gold = set(rec["gold"])
    passages = ranked["passages"]
    return {"gold1": float(bool(passages) and passages[0] in gold),
            "hit5": float(any(p in gold for p in passages[:5])),
            "meeting5": float(rec["meeting"] in ranked["docs"][:5])}


def table(path: Path) -> str:
    records = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    labels = list(dict.fromkeys(k.split("@", 1)[1] for r in records for k in r if k.startswith("search@")))
    out = [f"{path}: {len(records)} searches", "",
           "| set | ranking | queries | gold@1 | hit@5 | meeting@5 | gold@1 Δ [95 %] won/lost | hit@5 Δ [95 %] won/lost "
           "| meeting@5 Δ [95 %] won/lost |", "|---|---|--:|--:|--:|--:|---|---|---|"]
    for kind in SETS:
        subset = [r for r in records if r["set"] == kind]
        if not subset:
            continue
        base = [score(r[f"search@{labels[0]}"], r) for r in subset]
        for label in labels:
            rows = [score(r[f"search@{label}"], r) for r in subset]
            cells = _delta_cells(base, rows) if label != labels[0] else ["", "", ""]
            means = [statistics.fmean(x[m] for x in rows) for m in METRICS]
            out.append(f"| {kind} | search@{label} | {len(subset)} | " + " | ".join(f"{v:.3f}" for v in means)
                       + " | " + " | ".join(cells) + " |")
        agent_keys = sorted({k for r in subset for k in r if k.startswith("agent@")})
        for key in agent_keys:
            both = [r for r in subset if key in r]
            search_key = "search@" + key.split("@", 1)[1]
            a = [score(r[key], r) for r in both]
            s = [score(r[search_key], r) for r in both]
            cells = _delta_cells(s, a)
            means = [statistics.fmean(x[m] for x in a) for m in METRICS]
            out.append(f"| {kind} | {key} vs {search_key} | {len(both)} | " + " | ".join(f"{v:.3f}" for v in means)
                       + " | " + " | ".join(cells) + " |")
    out += ["", f"Why search@{labels[0]} misses (hit@5 = 0), counted:", ""] + trace(records, labels[0])
    return "\n".join(out)


def _delta_cells(base: list[dict[str, float]], rows: list[dict[str, float]]) -> list[str]:
    """Each metric's paired difference rows − base: "+0.306 [+0.236, +0.382] 44/0"."""
    cells = []
    for m in METRICS:
        d, won, lost, lo, hi = paired([b[m] for b in base], [x[m] for x in rows])
        cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}")
    return cells


def _series(doc_id: str) -> str:
    from corpus_tools.meeting_names import stem

    s = stem(doc_id)
    return s[:-1] if s[-1:].islower() and s[-2:-1].isdigit() else s


def trace(records: list[dict[str, Any]], label: str) -> list[str]:
    """Per set: the misses, the wrong meeting (a sibling of its series among the top 5 documents, or only other
    meetings), the right meeting in the top 5 with no gold passage there."""
    out = ["| set | misses | wrong meeting | — a sibling of its series in the top 5 | — no meeting of its series |"
           " right meeting, wrong place |", "|---|--:|--:|--:|--:|--:|"]
    for kind in SETS:
        subset = [r for r in records if r["set"] == kind]
        misses = [r for r in subset if not score(r[f"search@{label}"], r)["hit5"]]
        if not subset:
            continue
        wrong = [r for r in misses if r["meeting"] not in r[f"search@{label}"]["docs"][:5]]
        sibling = [r for r in wrong if any(_series(d) == _series(r["meeting"]) and d != r["meeting"]
                                           for d in r[f"search@{label}"]["docs"][:5])]
        out.append(f"| {kind} | {len(misses)} of {len(subset)} | {len(wrong)} | {len(sibling)} | "
                   f"{len(wrong) - len(sibling)} | {len(misses) - len(wrong)} |")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--data", type=Path, required=True)
    r.add_argument("--index", type=Path, required=True)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--tasks", type=Path, default=None, help="datagen tasks.jsonl over the same folder")
    r.add_argument("--variant", action="append", default=[], help="NAME=key:value,... (SearchConfig fields)")
    r.add_argument("--limit", type=int, default=None)
    r.add_argument("--agent", type=int, default=0, help="the LLM-free agent on N queries of each named set")
    t = sub.add_parser("table")
    t.add_argument("path", type=Path)
    args = parser.parse_args(argv)
    if args.cmd == "run":
        path = run(args)
        text = table(path)
        (args.out / "table.md").write_text(text + "\n", encoding="utf-8")
        print(text)
    else:
        print(table(args.path))


if __name__ == "__main__":
    main()
