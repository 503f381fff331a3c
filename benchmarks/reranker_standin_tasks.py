"""Stand-in reranker training tasks made from an index's own chunk text (no LLM, no benchmark questions).

Until generated tasks (datagen) exist for a corpus, this gives `context1 train reranker` something to
train on that comes from the corpus alone, as GPL/InPars do with generated queries: a random window
of 6-18 words of one sentence of a chunk is the query, that chunk is its gold
(`training.reranker_data.sentence_window_tasks`). The trainer's inverse-cloze option removes the
window from the positive most of the time, so the model must match the query against the rest of
the passage rather than find a copied string. Only chunk texts are read: never the benchmark's
questions, claims or qrels.

  PYTHONPATH=$PWD .venv/bin/python benchmarks/reranker_standin_tasks.py indexes/bench-scifact-256 \
      --n 4000 --out runs/standin-scifact.jsonl
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from corpus_tools import Corpus  # noqa: E402
from eval.loaders import save_tasks  # noqa: E402
from training.reranker_data import sentence_window_tasks  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("index")
    parser.add_argument("--n", type=int, default=4000)
    parser.add_argument("--per-chunk", type=int, default=1, help="windows per chunk (more tasks from small corpora)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with Corpus.open(args.index, reranker="none") as corpus:
        tasks = sentence_window_tasks(corpus, args.n, args.seed, args.per_chunk)
    print(f"{save_tasks(tasks, args.out)} stand-in tasks from {args.index} -> {args.out}")


if __name__ == "__main__":
    main()
