"""BM25 ease and question forms of generated meeting tasks vs a meeting set's real questions, on one index.

    python benchmarks/datagen_meetings.py INDEX OUT/tasks.jsonl QUERIES.jsonl

Session 41 (issue 36) ran it on ELITR-Bench: the tuning part `/work/data41/elitr/queries-tune.jsonl` and the
reporting part once (benchmarks/README.md). QUERIES: JSON lines with "question" and "meeting" (the meeting's
file name without its suffix), as the ELITR export writes them.

BM25 leg alone, document level: gold@1 = the question's meeting
ranked first, gold@10 = in the first ten. Real questions: every line of QUERIES (field "meeting" names the
meeting; its document is "<meeting>.txt" or the document whose id starts with it). Generated minus real
gold@1 with a 95 % bootstrap interval (unpaired, 2,000 resamples, seed 0); budget +0.10. Forms: who / what /
when / howmany by the question's opening words (ELITR's own "type" field is printed beside for the real ones).
"""
from __future__ import annotations

import json
import random
import sys
from collections import Counter

from corpus_tools import Corpus
from datagen.pipeline import top_documents


def form(q: str) -> str:
    low = q.lower().lstrip()
    if low.startswith("who"):
        return "who"
    if low.startswith("when"):
        return "when"
    if low.startswith(("how many", "how much", "how long")):
        return "howmany"
    return "what"


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit("usage: python benchmarks/datagen_meetings.py INDEX TASKS.jsonl QUERIES.jsonl")
    index, tasks_path, queries_path = sys.argv[1:4]
    gen = [json.loads(line) for line in open(tasks_path)]
    real = [json.loads(line) for line in open(queries_path)]
    with Corpus.open(index) as c:
        ids = list(c.doc_ids())

        def doc_of(meeting: str) -> str:
            return next((d for d in ids if d == meeting or d.startswith(meeting + ".") or d.startswith(meeting)), meeting)

        def hits(rows: list[tuple[str, list[str]]]) -> list[tuple[int, int]]:
            out = []
            for q, gold in rows:
                ranked = top_documents(c.search_leg(q, "bm25", k=50), 10)
                out.append((int(bool(ranked) and ranked[0] in gold), int(all(g in ranked for g in gold))))
            return out

        r = hits([(x["question"], [doc_of(x["meeting"])]) for x in real])
        g = hits([(x["query"], x["gold_doc_ids"]) for x in gen])

    def rate(h: list[tuple[int, int]]) -> str:
        n = max(len(h), 1)
        return f"{len(h)} questions: gold@1 {sum(a for a, _ in h) / n:.3f}, gold@10 {sum(b for _, b in h) / n:.3f}"

    print("real questions:", rate(r))
    print("generated:     ", rate(g))
    if g and r:
        rng = random.Random(0)
        a, b = [x for x, _ in g], [x for x, _ in r]
        diffs = sorted(sum(rng.choice(a) for _ in a) / len(a) - sum(rng.choice(b) for _ in b) / len(b)
                       for _ in range(2000))
        d = sum(a) / len(a) - sum(b) / len(b)
        print(f"gold@1 generated - real: {d:+.3f} [{diffs[50]:+.3f}, {diffs[1949]:+.3f}] (budget +0.10)")
    rf = Counter(form(x["question"]) for x in real)
    gf = Counter(form(x["query"]) for x in gen)
    print(f"forms      real (n={len(real)})        generated (n={len(gen)})")
    for f in ("who", "what", "when", "howmany"):
        print(f"  {f:8s} {rf[f]:4d} ({rf[f] / max(len(real), 1):.2f})   {gf[f]:4d} ({gf[f] / max(len(gen), 1):.2f})")
    print("  real, ELITR's own type field:", dict(Counter(x.get("type", "") for x in real)))


if __name__ == "__main__":
    main()
