"""What a generated task set's deep tasks teach (issue 36): per task file, its tasks of 3+ documents, their
forms and distinct chains, the document most of them pass through, and whether every hop's gold passage
is a positive the training labels (`training.search_policy.gold_chunks`) and a chunk of the index.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/deep_labels.py --index /work/indexes/bench-musique-256 \
        runs/gen-musique/tasks.jsonl runs/gen-musique-34/tasks.jsonl
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from corpus_tools import Corpus  # noqa: E402
from eval.loaders import load_tasks  # noqa: E402
from eval.types import Task  # noqa: E402
from training.search_policy import gold_chunks  # noqa: E402


def hop_positives(task: Task, in_index: Callable[[str], bool]) -> tuple[int, int]:
    """(hops, hops whose every supporting chunk is a training positive and in the index); a hop is one
    supporting document of the task's metadata."""
    gold = gold_chunks(task) or set()
    hops = (task.metadata or {}).get("supporting") or []
    ok = sum(bool(h.get("chunk_ids")) and all(c in gold and in_index(c) for c in h["chunk_ids"]) for h in hops)
    return len(hops), ok


def summary(tasks: Iterable[Task], in_index: Callable[[str], bool]) -> dict[str, object]:
    deep = [t for t in tasks if len(t.gold_doc_ids) >= 3]
    hops = [hop_positives(t, in_index) for t in deep]
    later = Counter(d for t in deep for d in t.gold_doc_ids[1:])
    top, n = later.most_common(1)[0] if later else ("–", 0)
    return {"deep": len(deep), "forms": Counter((t.metadata or {}).get("form", "?") for t in deep),
            "chains": len({tuple(t.gold_doc_ids) for t in deep}), "hops": sum(h for h, _ in hops),
            "positive": sum(p for _, p in hops), "top_later": f"{top} ({n})"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", required=True, help="the index the task files were generated over")
    parser.add_argument("tasks", nargs="+", help="task files (JSONL)")
    args = parser.parse_args()
    with Corpus.open(args.index) as corpus:
        def in_index(chunk_id: str) -> bool:
            try:
                corpus.chunk(chunk_id)
            except (KeyError, ValueError, IndexError):
                return False
            return True

        print("| task file | tasks | 3+-document tasks | forms | distinct chains | hops | hops whose gold passage "
              "is a positive | most frequent later document |\n|---|--:|--:|---|--:|--:|--:|---|")
        for path in args.tasks:
            tasks = list(load_tasks(path).tasks)
            s = summary(tasks, in_index)
            forms = ", ".join(f"{k} {v}" for k, v in s["forms"].most_common())  # type: ignore[union-attr]
            print(f"| {path} | {len(tasks)} | {s['deep']} | {forms or '–'} | {s['chains']} | {s['hops']} | "
                  f"{s['positive']} | {s['top_later']} |")


if __name__ == "__main__":
    main()
