"""A smaller SciFact (or other dev set) index for reranker experiments on a loaded 2-core machine.

The corpus is the gold documents of the first --claims tasks (in the hash order that
benchmarks/reranker_quality.py splits and selects by) plus --others other documents drawn at random
(seeded): every selected task keeps all its gold documents, and the distractors are real corpus
documents. Absolute scores on it are higher than on the full corpus (fewer distractors); the
comparison between rerankers on the same subset index is what it is for.

  PYTHONPATH=$PWD .venv/bin/python benchmarks/reranker_subset_index.py --dataset scifact \
      --claims 80 --others 1000 --out runs/rerank/idx-scifact-sub
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from reranker_quality import select  # noqa: E402

from corpus_tools import Corpus  # noqa: E402
from eval.loaders import load_benchmark  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="scifact")
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--claims", type=int, default=80)
    parser.add_argument("--others", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    bench = load_benchmark(args.dataset, args.data_dir)
    tasks = select(bench.tasks, "all", args.claims)
    gold = {d for t in tasks for d in t.gold_doc_ids}
    others = [d for d in bench.documents if d.doc_id not in gold]
    docs = [d for d in bench.documents if d.doc_id in gold] + random.Random(args.seed).sample(others, args.others)
    started = time.perf_counter()
    with Corpus.build(docs, args.out, progress=True) as corpus:
        print(f"{len(docs)} documents ({len(gold)} gold of {len(tasks)} tasks), {len(corpus)} chunks, "
              f"{time.perf_counter() - started:.0f} s -> {args.out}")


if __name__ == "__main__":
    main()
