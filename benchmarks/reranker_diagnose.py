"""Why a trained reranker fails on real questions: parity, shortcuts and what its scores follow (issue 8).

For each CrossEncoder folder given, on the same tasks (the tuning part of benchmarks/reranker_quality.py's
split, so the reporting part stays untouched):

1. parity — the trainer's validation scoring (`training.reranker.group_scores`) and the search-time
   `CrossEncoderReranker.score` on the same (query, chunk) pairs: largest absolute difference;
2. what the scores follow on the fused top 50 of real questions — Spearman correlation of the
   score with the chunk's length (tokens), with its fused rank (negative = agrees with the first
   stage), and with the number of query words it contains (lexical overlap);
3. the mask shortcut — doc R@2 of the reranked top 50 for the real question, and for the same
   question wrapped in the offline generator's template ("Which name fills the blank? …"): a
   model that keyed on the template ranks better with it;
4. whether truncation eats the query: the share of pairs whose query tokens are cut at max_length.

  PYTHONPATH=$PWD python benchmarks/reranker_diagnose.py --dataset hotpotqa --index indexes/bench-hotpotqa-256 \
      --cross-encoder runs/rr/ce-old --cross-encoder runs/rr/ce-new --limit 30
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from corpus_quality import _open, doc_ranking, hybrid, leg_rankings  # noqa: E402
from reranker_quality import select  # noqa: E402

from corpus_tools import SearchConfig  # noqa: E402
from corpus_tools.embed import retrieval_text  # noqa: E402
from corpus_tools.rerank import CrossEncoderReranker  # noqa: E402
from eval.loaders import load_benchmark  # noqa: E402
from eval.metrics import recall_at_k  # noqa: E402
from training.reranker import group_scores, load_cross_encoder  # noqa: E402
from training.reranker_data import Group  # noqa: E402


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    if ra.std() == 0 or rb.std() == 0:
        return 0.0
    return float(np.corrcoef(ra, rb)[0, 1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", required=True, choices=["scifact", "hotpotqa", "musique"])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--index", required=True)
    parser.add_argument("--cross-encoder", action="append", required=True)
    parser.add_argument("--max-length", type=int, default=256)
    parser.add_argument("--limit", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    bench = load_benchmark(args.dataset, args.data_dir)
    tasks = select(bench.tasks, "tune", args.limit)
    corpus = _open(Path(args.index))
    search = SearchConfig()
    pools = []
    torch.set_num_threads(1)
    for task in tasks:
        fused = hybrid(leg_rankings(corpus, task.query), search)[: search.candidates]
        pools.append((task, [corpus.chunk(c) for c in fused]))
    torch.set_num_threads(args.threads)
    words = re.compile(r"\w+")
    print(
        f"### {args.dataset}: {len(tasks)} tuning-part questions, fused top {search.candidates}, {args.max_length} tokens\n"
    )
    header = "| model | parity max abs diff | R@2 hybrid | R@2 reranked | R@2 with blank template | rho(score, length) | rho(score, fused rank) | rho(score, query words) | query cut |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for folder in args.cross_encoder:
        # fp32, as the trainer scores: parity compares the two code paths, not int8 against fp32.
        reranker = CrossEncoderReranker(folder, max_length=args.max_length, quantize=False, cache_size=0)
        trainer_view = load_cross_encoder(folder, args.max_length)
        tokenizer = reranker._tokenizer
        diffs, r2_h, r2_r, r2_t, rho_len, rho_rank, rho_words, cut = [], [], [], [], [], [], [], []
        for task, chunks in pools:
            texts = [retrieval_text(c) for c in chunks]
            scores = reranker.score(task.query, chunks)
            group = Group(query=task.query, positive=texts[0], negatives=tuple(texts[1:]), task_id=task.task_id)

            diffs.append(float(np.max(np.abs(np.asarray(group_scores(trainer_view, [group])[0]) - scores))))
            templ = reranker.score(f"Which name fills the blank? {task.query}", chunks)
            ids = [c.chunk_id for c in chunks]
            fused_docs = doc_ranking(corpus, ids)
            order = [ids[i] for i in np.argsort(-scores, kind="stable")]
            torder = [ids[i] for i in np.argsort(-templ, kind="stable")]
            r2_h.append(recall_at_k(fused_docs, task.gold_doc_ids, 2))
            r2_r.append(recall_at_k(doc_ranking(corpus, order), task.gold_doc_ids, 2))
            r2_t.append(recall_at_k(doc_ranking(corpus, torder), task.gold_doc_ids, 2))
            rho_len.append(spearman(scores.tolist(), [c.n_tokens for c in chunks]))
            rho_rank.append(spearman(scores.tolist(), list(range(len(chunks)))))
            qwords = {w.lower() for w in words.findall(task.query) if len(w) > 2}
            rho_words.append(
                spearman(scores.tolist(), [len(qwords & {w.lower() for w in words.findall(t)}) for t in texts])
            )
            n_query = len(tokenizer(task.query, add_special_tokens=False)["input_ids"])
            cut.append(float(n_query + 3 > args.max_length))
        m = statistics.fmean
        print(
            f"| {Path(folder).name} | {max(diffs):.1e} | {m(r2_h):.3f} | {m(r2_r):.3f} | {m(r2_t):.3f} | "
            f"{m(rho_len):+.2f} | {m(rho_rank):+.2f} | {m(rho_words):+.2f} | {m(cut):.2f} |",
            flush=True,
        )
    corpus.close()


if __name__ == "__main__":
    main()
