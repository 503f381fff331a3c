"""Generated filings tasks by kind of filing: which kinds (10-K, 10-Q, 8-K, earnings release) a datagen run's
tasks use, by form, and how many table facts each kind gave (issue 36: real folders of mixed filings).

    python benchmarks/datagen_kinds.py INDEX OUT [OUT ...]

A task counts once for every kind among its gold filings. A filing's kind is its cover's "form" (chunk
metadata), except an earnings release: a document whose id or title says "earnings" or "results" (an 8-K's
Exhibit 99.1 press release reads as one), since the forms reader may call it an 8-K or nothing. The table
facts per kind are re-read from the index with datagen.table_facts (no parse needed), with the counters of
what stopped the rest.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datagen.table_facts import is_table, table_facts  # noqa: E402


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
    facts: dict[str, Counter] = defaultdict(Counter)
    with (args.index / "chunks.jsonl").open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            meta = row.get("metadata") or {}
            k = kinds.setdefault(row["doc_id"], kind(row["doc_id"], meta))
            if is_table(meta):
                chunk = SimpleNamespace(doc_id=row["doc_id"], chunk_id=row["chunk_id"], text=row["text"], metadata=meta)
                skipped: Counter = Counter()
                facts[k]["facts"] += len(table_facts(chunk, str(meta.get("company") or meta.get("title", "")), skipped))
                facts[k].update(skipped)
    docs = Counter(kinds.values())
    print("| kind | filings | table facts | what stopped the most rows |\n|---|---|---|---|")
    for k in sorted(docs):
        stops = ", ".join(f"{name.removeprefix('table_')} {n}" for name, n in facts[k].most_common() if name != "facts")
        print(f"| {k} | {docs[k]} | {facts[k]['facts']} | {stops[:160]} |")
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
