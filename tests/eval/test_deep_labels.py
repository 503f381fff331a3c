"""benchmarks/deep_labels.py: a deep task's hop counts only when its gold passage is a training positive and
a chunk of the index (issue 36: what a deep task teaches)."""

from __future__ import annotations

from eval.types import Task
from tests.eval.bench_modules import bench


def _chain(task_id: str, docs: tuple[str, ...], gold_chunks: tuple[str, ...], form: str = "bridge") -> Task:
    supporting = [{"doc_id": d, "chunk_ids": [f"{d}#0"]} for d in docs]
    return Task(task_id, "q", gold_doc_ids=docs, gold_chunk_ids=gold_chunks,
                metadata={"supporting": supporting, "form": form})


def test_a_hop_counts_only_when_its_passage_is_a_positive_in_the_index():
    dl = bench("deep_labels")
    index = {"A#0", "B#0", "C#0", "D#0"}
    whole = _chain("t1", ("A", "B", "C"), ("A#0", "B#0", "C#0"))
    unlabelled = _chain("t2", ("A", "B", "D"), ("A#0", "D#0"))  # the middle hop is no positive
    missing = _chain("t3", ("A", "B", "E"), ("A#0", "B#0", "E#0"))  # the last passage is not in the index
    two_hop = _chain("t4", ("A", "B"), ("A#0", "B#0"))
    assert dl.hop_positives(whole, index.__contains__) == (3, 3)
    assert dl.hop_positives(unlabelled, index.__contains__) == (3, 2)
    assert dl.hop_positives(missing, index.__contains__) == (3, 2)
    s = dl.summary([whole, unlabelled, missing, two_hop], index.__contains__)
    assert (s["deep"], s["chains"], s["hops"], s["positive"]) == (3, 3, 9, 7)
    assert s["top_later"] == "B (3)"
