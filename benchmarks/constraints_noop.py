"""`constraints="auto"` on a corpus without company/period metadata must change nothing: proved per question.

    python benchmarks/constraints_noop.py --sets hotpotqa musique --index-root /work/indexes \
        --data-dir /work/shared/data --limit 300

For each question of a dev set (its first --limit questions with gold documents, tuning and reporting
parts alike: nothing is tuned here), one hybrid search with constraints=None and one with "auto"
(k=50, documents ranked by their best chunk, as benchmarks/agent_llm_free.py's hybrid row). Prints
R@10 and all-R@10 both ways, how many questions got exactly the same chunks with the same scores,
what `question_constraints` returned (it must be {} on Wikipedia-style sets), and the one-time cost
of learning that the index holds no such metadata (a byte search of the chunk table).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from agent_llm_free import load_questions, scores  # noqa: E402

INDEX = {"hotpotqa": "bench-hotpotqa-256", "musique": "bench-musique-256", "scifact": "bench-scifact-256",
         "locomo": "bench-locomo-256"}


def docs_of(hits, k: int = 10) -> list[str]:
    out: list[str] = []
    for hit in hits:
        if hit.chunk.doc_id not in out:
            out.append(hit.chunk.doc_id)
    return out[:k]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=["hotpotqa", "musique"], choices=sorted(INDEX))
    parser.add_argument("--index-root", type=Path, default=Path("/work/indexes"))
    parser.add_argument("--data-dir", type=Path, default=Path("/work/shared/data"))
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--locomo-limit", type=int, default=300)
    args = parser.parse_args()
    from corpus_tools import Corpus

    print("| set | questions | R@10 off | R@10 auto | all-R@10 off | all-R@10 auto | identical rankings "
          "| question_constraints | first-call cost |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    for name in args.sets:
        questions = load_questions(name, args.data_dir, args.locomo_limit)[: args.limit]
        with Corpus.open(args.index_root / INDEX[name]) as corpus:
            started = time.perf_counter()
            found = corpus.question_constraints(questions[0]["query"])  # the first call learns the metadata
            first_cost = time.perf_counter() - started
            same, r_off, r_on, all_off, all_on, shapes = 0, 0.0, 0.0, 0.0, 0.0, set()
            for q in questions:
                off = corpus.search(q["query"], k=50)
                on = corpus.search(q["query"], k=50, constraints="auto")
                same += [(h.chunk.chunk_id, h.score) for h in off] == [(h.chunk.chunk_id, h.score) for h in on]
                shapes.add(repr(corpus.question_constraints(q["query"])))
                for hits, total in ((off, "off"), (on, "on")):
                    recall, every = scores(docs_of(hits), q["gold"], 10)
                    if total == "off":
                        r_off, all_off = r_off + recall, all_off + every
                    else:
                        r_on, all_on = r_on + recall, all_on + every
            n = len(questions)
            print(f"| {name} | {n} | {r_off / n:.3f} | {r_on / n:.3f} | {all_off / n:.3f} | {all_on / n:.3f} | "
                  f"{same}/{n} | {' '.join(sorted(shapes)) if found == {} else 'NOT EMPTY'} | {first_cost * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
