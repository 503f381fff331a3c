"""Stand-in training tasks until datagen's generated tasks exist (issue 9).

Builds a small index from HippoRAG's HotpotQA *train* sample (100 questions, 994 paragraphs in
`../shared/data/hotpotqa/hipporag_hotpotqa_train100*.json`) and writes its questions as task
files, split 70 / 30 by a seeded shuffle: `train.jsonl` for SFT/RL, `test.jsonl` held back for
evaluation. These are train-split HotpotQA questions, not the dev questions eval reports on.

    PYTHONPATH=$PWD python benchmarks/train_standin_tasks.py --out runs/standin
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from corpus_tools import Corpus
from eval.loaders.hotpotqa import load_hotpotqa
from eval.loaders.tasks import save_tasks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("runs/standin"))
    ap.add_argument("--seed", type=int, default=9)
    args = ap.parse_args()
    folder = args.data_dir / "hotpotqa"
    bench = load_hotpotqa([folder / "hipporag_hotpotqa_train100.json"],
                          corpus_paths=[folder / "hipporag_hotpotqa_train100_corpus.json"], name="standin")
    args.out.mkdir(parents=True, exist_ok=True)
    index = args.out / "index"
    if not (index / "manifest.json").is_file():
        Corpus.build(bench.documents, index, progress=True).close()
    tasks = list(bench.tasks)
    random.Random(args.seed).shuffle(tasks)
    n_train = int(0.7 * len(tasks))
    save_tasks(tasks[:n_train], args.out / "train.jsonl")
    save_tasks(tasks[n_train:], args.out / "test.jsonl")
    print(f"| documents | train tasks | test tasks |\n| ---: | ---: | ---: |\n"
          f"| {len(bench.documents)} | {n_train} | {len(tasks) - n_train} |")


if __name__ == "__main__":
    main()
