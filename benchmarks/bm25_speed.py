"""Our BM25 against bm25s's public API (and against the previous, private-API version): scores and speed.

On N HotpotQA paragraphs (title + text, our tokenizer on every side, so only the scoring differs):
build time (best of 3, our tokenizer's time included on every side), per-query scoring time (all rows' scores, then the top 100), and the largest score
difference from bm25s over the questions. "previous" is corpus_tools/bm25.py of an older checkout
(BM25_OLD_CODE=<folder>, e.g. `git archive 5971c01 | tar -x -C /tmp/old`), which built bm25s
objects through its private `_select_*_scorer` helpers and scored with bm25s's `get_scores`.

  HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python benchmarks/bm25_speed.py --data-dir ../shared/data --docs 20000
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _old_module():
    folder = os.environ.get("BM25_OLD_CODE")
    if not folder:
        return None
    spec = importlib.util.spec_from_file_location("old_bm25", Path(folder) / "corpus_tools" / "bm25.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _timed(fn, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--docs", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()

    import bm25s

    from corpus_tools import BM25Config
    from corpus_tools.bm25 import BM25Index, BM25Tokenizer
    from eval.loaders import load_benchmark

    bench = load_benchmark("hotpotqa", args.data_dir)
    base = [f"{d.title}\n{d.text}" for d in bench.documents]
    # Past the 4,431 dev paragraphs, copies with a numbered suffix (so document frequencies grow).
    texts = [base[i % len(base)] + ("" if i < len(base) else f" copy{i // len(base)}") for i in range(args.docs)]
    queries = [t.query for t in bench.tasks[: args.queries]]
    config = BM25Config()
    tokenize = BM25Tokenizer(stem=config.stem, stopwords=config.stopwords)
    tokens = [tokenize(t) for t in texts]

    rows = []
    t_tok = _timed(lambda: [tokenize(t) for t in texts])
    theirs = bm25s.BM25(method=config.method, k1=config.k1, b=config.b)
    theirs_build = _timed(lambda: theirs.index(tokens, show_progress=False)) + t_tok

    def theirs_scores(query):
        ids = theirs.get_tokens_ids(tokenize(query))
        return theirs.get_scores(ids) if ids else np.zeros(len(texts), dtype=np.float32)

    expected = [theirs_scores(q) for q in queries]
    sides = {"bm25s public API (index, get_scores)": (theirs_build, theirs_scores, True)}

    ours = BM25Index.build(texts, config)
    sides["corpus_tools (owned)"] = (_timed(lambda: BM25Index.build(texts, config)), ours.scores, False)
    old = _old_module()
    if old is not None:
        previous = old.BM25Index.build(texts, config)
        build_s = _timed(lambda: old.BM25Index.build(texts, config))
        sides["previous corpus_tools (bm25s private API)"] = (build_s, previous.scores, False)

    for name, (build_s, score, is_ref) in sides.items():
        # Every side tokenizes the raw question with the same tokenizer, inside the timing.
        per_query = []
        worst = 0.0
        for q, ref in zip(queries, expected, strict=True):
            per_query.append(_timed(lambda q=q, score=score: np.argpartition(-score(q), 100)[:100]))
            if not is_ref:
                worst = max(worst, float(np.abs(score(q) - ref).max()))
        rows.append((name, build_s, statistics.median(per_query) * 1e3, np.mean(per_query) * 1e3, worst))

    print(f"\nBM25, {len(texts):,} HotpotQA paragraphs, {len(queries)} questions, method {config.method!r}")
    print("| implementation | build incl. tokenizing (s, best of 3) | query p50 (ms) | query mean (ms) | max |score diff| vs bm25s |")
    print("|---|---:|---:|---:|---:|")
    for name, build_s, p50, mean, worst in rows:
        diff = "reference" if name.startswith("bm25s") else f"{worst:.1e}"
        print(f"| {name} | {build_s:.2f} | {p50:.2f} | {mean:.2f} | {diff} |")


if __name__ == "__main__":
    main()
