"""Generated filings tasks by kind of filing: which kinds (10-K, 10-Q, 8-K, earnings release) a datagen run's
tasks use, by form, and how many table facts each kind gave (issue 36: real folders of mixed filings).

    python benchmarks/datagen_kinds.py INDEX OUT [OUT ...]

A task counts once for every kind among its gold filings. A filing's kind is its cover's "form" (chunk
metadata), except an earnings release: a document whose id or title says "earnings" or "results" (an 8-K's
Exhibit 99.1 press release reads as one), since the forms reader may call it an 8-K or nothing. The table
facts per kind are re-read from the index with datagen.table_facts (no parse needed; the company as
datagen.relations reads it, a release's from its dateline), with the counters of what stopped the rest, and
then the funnel a figure passes before a task can ask it (datagen.period_tasks): a statement (every passage
agrees on one value; a filing holding it), a series of two or more periods in two filings (a comparison
across periods), a group of two companies for one period (across companies); and the event questions of
datagen.event_facts (8-K votes and officers, a release's dividend).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools.types import Chunk  # noqa: E402
from datagen.factbase import FactBase  # noqa: E402
from datagen.mining import mine  # noqa: E402
from datagen.release_facts import filing_company  # noqa: E402
from datagen.table_facts import is_table, table_facts  # noqa: E402


class _NoProse:
    """The prose generator left out: only the filings forms' statements are counted."""

    stages: Counter = Counter()

    def propose(self, hops: int, rng: object) -> None:
        return None

    def commit(self, candidate: object) -> None:
        pass

    def exhausted(self, hops: int) -> str:
        return "not counted"


def funnel(chunks: list[Chunk], kinds: dict[str, str]) -> tuple[dict[str, Counter], Counter]:
    """Per kind: table facts, the stops of the rest, statements, series, groups across companies, events."""
    from datagen.period_tasks import PeriodTasks

    mined = mine(chunks)
    base = FactBase()
    out: dict[str, Counter] = defaultdict(Counter)
    for doc, cs in mined.chunks.items():
        for c in cs:
            if is_table(c.metadata):
                skipped: Counter = Counter()
                company = filing_company(c.metadata, [x.text for x in cs[:4]], mined.titles.get(doc, ""))
                facts = table_facts(c, company, skipped)
                base.facts.setdefault(doc, []).extend(facts)
                out[kinds[doc]]["facts"] += len(facts)
                out[kinds[doc]].update({f"stop:{k}": v for k, v in skipped.items()})
    tasks = PeriodTasks(_NoProse(), mined, base)
    for s in tasks.statements:
        for k in {kinds[f.doc_id] for f in s.facts}:
            out[k]["statements"] += 1
    for name, groups in (("series", tasks.series), ("across", tasks.across)):
        for group in groups.values():
            for k in {kinds[f.doc_id] for s in group for f in s.facts}:
                out[k][name] += 1
    for e in tasks.events:
        out[kinds[e.doc_id]]["events"] += 1
    return out, Counter({k: v for k, v in tasks.own_stages.items() if k.startswith("event")})


def kind(doc_id: str, metadata: dict) -> str:
    text = f"{doc_id} {metadata.get('title', '')}".lower()
    if "earnings" in text or "results" in text:
        return "release"
    return str(metadata.get("form") or "?")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("index", type=Path)
    ap.add_argument("out", type=Path, nargs="+")
    args = ap.parse_args()
    kinds: dict[str, str] = {}
    chunks: list[Chunk] = []
    with (args.index / "chunks.jsonl").open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            meta = row.get("metadata") or {}
            kinds.setdefault(row["doc_id"], kind(row["doc_id"], meta))
            position = int(row["chunk_id"].rsplit("#", 1)[1]) if "#" in row["chunk_id"] else len(chunks)
            chunks.append(Chunk(row["chunk_id"], row["doc_id"], row["text"], position, 0, meta))
    facts, event_stages = funnel(chunks, kinds)
    docs = Counter(kinds.values())
    print("| kind | filings | table facts | statements | series (2+ periods) | across companies | events "
          "| what stopped the most rows |\n|---|---|---|---|---|---|---|---|")
    for k in sorted(docs):
        c = facts[k]
        stops = ", ".join(f"{name.removeprefix('stop:table_')} {n}" for name, n in c.most_common() if name.startswith("stop:"))
        print(f"| {k} | {docs[k]} | {c['facts']} | {c['statements']} | {c['series']} | {c['across']} | {c['events']} "
              f"| {stops[:160]} |")
    print(f"\nevents: {dict(sorted(event_stages.items()))}")
    for out in args.out:
        tasks = [json.loads(x) for x in (out / "tasks.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
        by: dict[str, Counter] = defaultdict(Counter)
        for t in tasks:
            form = f"{t['hops']}:{t['metadata'].get('form', '?')}"
            for k in {kinds.get(d, "?") for d in t["gold_doc_ids"]}:
                by[k][form] += 1
        print(f"\n{out}: {len(tasks)} tasks\n| kind | tasks | by hops:form |\n|---|---|---|")
        for k in sorted(set(docs) | set(by)):
            print(f"| {k} | {sum(by[k].values())} | {', '.join(f'{f} {n}' for f, n in sorted(by[k].items()))} |")


if __name__ == "__main__":
    main()
