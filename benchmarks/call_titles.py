"""Vendor calls searched with their own people's speaker lines named once (CorpusConfig.call_own_titles, session 47).

    python benchmarks/call_titles.py --tasks OUT/tasks.jsonl --base-index IDX_OFF --index IDX_ON [--no-agent]

Queries: the figure questions `context1 datagen` writes on a folder of vendor calls ("What core FFO per share did
Independence Realty Trust report for the third quarter of 2022?"), single-hop ones only. Gold: each task's passages that
state its figure (the supporting quote and every extra positive), found by text, since chunk ids change with the
re-index: a chunk is gold when it holds the quote's words around the figure (60 characters about the value, spaces
folded; the whole quote when shorter). IDX_OFF is the folder indexed with `--call-company-titles` (session 46's
reading), IDX_ON with the default.

Rankings: one search (`constraints` off and "auto") and the LLM-free agent (`SearchAgent(corpus).run(query)`, its
evidence), each on both indexes. Printed per ranking: hit@5 (a gold passage in the first five) and MRR@10 (the agent:
@5, its evidence), and against the same ranking on IDX_OFF: the mean difference, its 95 % paired bootstrap interval and
the queries won / lost.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from transcripts import paired  # noqa: E402


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def gold_marks(task: dict[str, Any]) -> list[str]:
    """The words around the figure of each passage that states it (see the module docstring)."""
    md = task.get("metadata") or {}
    value = _fold(str((task.get("answers") or [""])[0]))
    quotes = [s["quotes"][0] for s in md.get("supporting", []) if s.get("quotes")]
    quotes += [p["quote"] for p in md.get("extra_positives") or md.get("positives") or [] if p.get("quote")]
    marks = []
    for quote in quotes:
        q = _fold(quote)
        at = q.find(value) if value else -1
        marks.append(q if at < 0 or len(q) <= 60 else q[max(0, at - 30):at + len(value) + 30])
    return list(dict.fromkeys(marks))


def rank_of(marks: list[str], texts: list[str]) -> int:
    """1-based rank of the first gold passage, 0 when none."""
    for i, text in enumerate(texts, 1):
        t = _fold(text)
        if any(m in t for m in marks):
            return i
    return 0


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    from context1 import SearchAgent
    from corpus_tools import Corpus

    tasks = [json.loads(x) for x in args.tasks.read_text(encoding="utf-8").splitlines() if x.strip()]
    tasks = [t for t in tasks if (t.get("hops") or 1) == 1 and (t.get("metadata") or {}).get("generator_part") == "calls"]
    records = []
    indexes = {"off": Corpus.open(args.base_index), "on": Corpus.open(args.index)}
    agents = {} if args.no_agent else {side: SearchAgent(c) for side, c in indexes.items()}
    for n, task in enumerate(tasks):
        rec: dict[str, Any] = {"task_id": task["task_id"], "query": task["query"], "marks": gold_marks(task)}
        for side, corpus in indexes.items():
            for mode, kwargs in (("search", {}), ("search auto", {"constraints": "auto"})):
                t0 = time.perf_counter()
                hits = corpus.search(task["query"], k=10, **kwargs)
                rec[f"{mode} {side}"] = {"rank": rank_of(rec["marks"], [h.chunk.text for h in hits[:10]]),
                                         "s": time.perf_counter() - t0}
            if side in agents:
                t0 = time.perf_counter()
                evidence = list(agents[side].run(task["query"]).evidence)[:5]
                rec[f"agent {side}"] = {"rank": rank_of(rec["marks"], [e.text for e in evidence]),
                                        "s": time.perf_counter() - t0}
        records.append(rec)
        print(f"[{n + 1}/{len(tasks)}]", file=sys.stderr, flush=True)
    for c in indexes.values():
        c.close()
    return records


def table(records: list[dict[str, Any]]) -> str:
    lines = [f"{len(records)} single-hop figure questions; gold found on both indexes: "
             f"{sum(1 for r in records if any(r[k]['rank'] for k in r if k.endswith(' off')))} (some ranking, off) / "
             f"{sum(1 for r in records if any(r[k]['rank'] for k in r if k.endswith(' on')))} (on)", "",
             "| ranking | index | hit@5 | MRR@10 | hit@5 Δ vs off [95 %] won/lost | MRR Δ vs off [95 %] won/lost | s/query |",
             "|---|---|--:|--:|---|---|--:|"]
    for mode in ("search", "search auto", "agent"):
        if f"{mode} off" not in records[0]:
            continue
        scores = {}
        for side in ("off", "on"):
            ranks = [r[f"{mode} {side}"]["rank"] for r in records]
            scores[side] = ([float(0 < x <= 5) for x in ranks], [1.0 / x if x else 0.0 for x in ranks])
        for side in ("off", "on"):
            hit, rr = scores[side]
            cells = ["", ""]
            if side == "on":
                cells = []
                for i in (0, 1):
                    d, won, lost, lo, hi = paired(scores["off"][i], scores["on"][i])
                    cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}")
            secs = statistics.median(r[f"{mode} {side}"]["s"] for r in records)
            lines.append(f"| {mode} | {side} | {statistics.fmean(hit):.3f} | {statistics.fmean(rr):.3f} | {cells[0]} | "
                         f"{cells[1]} | {secs:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tasks", type=Path, required=True, help="a datagen OUT's tasks.jsonl, on vendor calls")
    ap.add_argument("--base-index", type=Path, required=True, help="the calls indexed with --call-company-titles")
    ap.add_argument("--index", type=Path, required=True, help="the calls indexed with the default")
    ap.add_argument("--no-agent", action="store_true", help="one search only")
    ap.add_argument("--out", type=Path, help="write the records (JSONL) and the table (.md beside it) here")
    args = ap.parse_args(argv)
    records = run(args)
    text = table(records)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        args.out.with_suffix(".md").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
