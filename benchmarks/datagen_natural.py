"""How lexical are generated questions, next to the real questions of the same corpus? (issue 26)

For one corpus and its shared index, every question of each set is searched once per leg (BM25,
dense, hybrid; 50 chunks collapsed to the top 10 documents) and scored against its gold documents:

- top-1 gold: the leg's first document is a gold one;
- all@10: every gold document is in the leg's top 10;
- 2+@10 (multi-hop only): two or more gold documents are in BM25's top 10 (beyond the entry document
  a question names, BM25 finds a later one: the lexical budget's measure, order-free);
- overlap: the share of the question's content words that occur in its gold documents' text.

Sets: the benchmark's real questions (the tuning part, 25 % by a hash of the task id, is what the
datagen budget was set on; the table is on the reporting part), and any generated task files
given with --tasks NAME=PATH. Then 30 questions of each set are printed side by side, with the
mix of forms of the generated ones.

    python benchmarks/datagen_natural.py --corpus musique --index indexes/bench-musique-256 \
        --tasks natural=runs/tasks/musique-natural.jsonl --tasks cloze=runs/tasks/musique-offline.jsonl
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.reranker_quality import part_of  # noqa: E402
from corpus_tools import Corpus  # noqa: E402
from datagen.pipeline import top_documents  # noqa: E402
from eval.loaders import load_benchmark, load_tasks  # noqa: E402

_STOP = frozenset(
    "a an the of in on at to for from by with and or but is are was were be been it its as this that what which who "
    "whom whose when where why how did does do has have had first fills blank date name number".split()
)


def content_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2 and w not in _STOP]


def measure(corpus: Corpus, tasks, texts: dict[str, str]) -> dict[str, float]:  # noqa: ANN001
    rows = Counter()
    n = multi = 0
    overlap = 0.0
    for t in tasks:
        gold = list(t.gold_doc_ids)
        legs = {
            "hybrid": top_documents(corpus.search(t.query, k=50), 10),
            "bm25": top_documents(corpus.search_leg(t.query, "bm25", k=50), 10),
            "dense": top_documents(corpus.search_leg(t.query, "dense", k=50), 10),
        }
        n += 1
        for leg, ranked in legs.items():
            rows[f"{leg} top-1"] += bool(ranked) and ranked[0] in gold
            rows[f"{leg} all@10"] += all(g in ranked for g in gold)
        if len(gold) > 1:
            multi += 1
            rows["2+@10 (bm25)"] += sum(g in legs["bm25"] for g in gold) >= 2
        words = content_words(t.query)
        gold_words = set(content_words(" ".join(texts.get(g, "") for g in gold)))
        overlap += sum(w in gold_words for w in words) / len(words) if words else 0.0
    out = {k: v / n for k, v in rows.items() if "2+" not in k}
    out["2+@10 (bm25)"] = rows["2+@10 (bm25)"] / multi if multi else float("nan")
    out["overlap"] = overlap / n
    out["n"] = n
    out["multi-hop"] = multi
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--index", required=True)
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--tasks", action="append", default=[], help="NAME=PATH of a generated task file (repeatable)")
    ap.add_argument("--part", choices=("tune", "report", "all"), default="report", help="part of the real questions")
    ap.add_argument("--max", type=int, default=300, help="questions per set at most (hash order)")
    ap.add_argument("--multi-hop-only", action="store_true", help="generated sets: only tasks with hops >= 2")
    ap.add_argument("--form", default=None, help="generated natural sets: only tasks of this form (bridge, comparison, single)")
    ap.add_argument("--real-type", default=None, help="real questions: only this question_type (HotpotQA: bridge)")
    ap.add_argument("--show", type=int, default=30)
    args = ap.parse_args()

    bench = load_benchmark(args.corpus, args.data_dir)
    texts = {d.doc_id: d.text for d in bench.documents}
    real = [t for t in bench.tasks if t.gold_doc_ids and (args.part == "all" or part_of(t.task_id) == args.part)]
    if args.real_type:
        real = [t for t in real if t.question_type == args.real_type]
    sets = {f"real ({args.part})": real}
    for spec in args.tasks:
        name, path = spec.split("=", 1)
        tasks = [t for t in load_tasks(path).tasks if t.gold_doc_ids]
        if args.multi_hop_only:
            tasks = [t for t in tasks if (t.hops or len(t.gold_doc_ids)) > 1]
        if args.form:
            tasks = [t for t in tasks if t.metadata.get("form", args.form) == args.form]  # cloze sets have no form
        sets[name] = tasks
    rng = random.Random(0)
    sets = {k: (rng.sample(v, args.max) if len(v) > args.max else v) for k, v in sets.items()}

    with Corpus.open(args.index) as corpus:
        results = {name: measure(corpus, tasks, texts) for name, tasks in sets.items()}
    cols = ["n", "multi-hop", "bm25 top-1", "dense top-1", "hybrid top-1", "bm25 all@10", "dense all@10",
            "hybrid all@10", "2+@10 (bm25)", "overlap"]
    print(f"\n## {args.corpus}: how lexical each question set is (index {args.index})\n")
    print("| set | " + " | ".join(cols) + " |")
    print("| --- |" + " ---: |" * len(cols))
    for name, r in results.items():
        cells = [str(int(r[c])) if c in ("n", "multi-hop") else f"{r.get(c, float('nan')):.3f}" for c in cols]
        print(f"| {name} | " + " | ".join(cells) + " |")

    for name, tasks in sets.items():
        forms = Counter(str(t.metadata.get("form", "cloze" if "___" in t.query else "real")) for t in tasks)
        hops = Counter(t.hops or len(t.gold_doc_ids) for t in tasks)
        print(f"\n### {name}: {len(tasks)} questions; forms {dict(forms)}; hops {dict(sorted(hops.items()))}\n")
        for t in random.Random(1).sample(tasks, min(args.show, len(tasks))):
            answer = t.answers[0] if t.answers else ""
            print(f"- [{t.hops or len(t.gold_doc_ids)}] {t.query}  → {answer}")


if __name__ == "__main__":
    main()
