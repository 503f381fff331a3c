"""Scores one task: every metric of `eval.metrics` at every granularity the task has gold for.

The result is a flat `{name: value}` mapping, the shape a run's JSONL record stores and the report
averages. Names: `"<granularity>.<metric>"` for the returned list ("document.recall",
"chunk.ndcg@10", "fact.all_recall@5"), `"trajectory.<granularity>.recall"` for what the agent saw,
`"answer_found"` and `"prune_accuracy"`; and, over the returned *passages* (issue 34, SPEC §3's
final-answer-found asks whether a returned chunk holds the answer): `"passage.answer_found"`,
`"passage.<granularity>.recall"`, `"passage.<granularity>.recall@5"`,
`"passage.<granularity>.all_recall@5"` — "passage.chunk.recall" is chunk recall (exact chunk
ids), "passage.fact.recall" fact recall (a fact is found when any passage carries it: its chunk,
or a chunk of its document), "passage.document.recall" the documents the passages come from. A
granularity without gold contributes no names; a value
that is undefined for this task (no answer, no prune) is None.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from eval import metrics
from eval.types import Granularity, Task

if TYPE_CHECKING:
    from context1.types import Trajectory


@dataclass(frozen=True)
class ScoreConfig:
    """What `score_task` computes.

    ks: cut-offs of recall@k, all_recall@k and nDCG@k (BEIR reports 1/10/100; multi-hop papers 2/5/10/20).
    beta: F_beta's recall weight. 2 = the value the reference's RL reward anneals to (SPEC §5: β 4 → 2).
    yes_no_answer_found: score answer_found for tasks whose answers are all "yes"/"no" (HotpotQA
        comparison questions). Off: such an answer is a judgement, not a span a document can
        contain (on the HotpotQA dev data 3% of them "occur" in a retrieved document, vs ~85% of
        span answers), so counting them would only measure how often "yes" appears in Wikipedia.
    """

    ks: tuple[int, ...] = (1, 2, 5, 10, 20, 50, 100)
    beta: float = 2.0
    yes_no_answer_found: bool = False


def score_task(
    task: Task,
    doc_ids: Sequence[str],
    *,
    chunk_ids: Sequence[str] = (),
    texts: Iterable[str] | None = None,
    trajectory: Trajectory | None = None,
    max_k: int | None = None,
    config: ScoreConfig = ScoreConfig(),
    passages: Sequence[tuple[str, str]] | None = None,
) -> dict[str, float | None]:
    """All metrics of one task.

    doc_ids: the returned documents, ranked. chunk_ids: the returned chunks, ranked, when the
    retriever ranks chunks (chunk granularity otherwise scores the documents, which cover their
    chunks). texts: the returned documents' texts, for answer_found (left out when None).
    trajectory: the agent's unpruned record, for trajectory recall and prune accuracy.
    max_k: cut-offs above it are left out (a top-10 run says nothing about recall@20).
    passages: the returned passages, (chunk id, text), best first; None: no passage metrics.
    """
    out: dict[str, float | None] = {"n_returned": float(len(dict.fromkeys(doc_ids)))}
    ks = [k for k in config.ks if max_k is None or k <= max_k]
    qrels = task.metadata.get("qrels") if isinstance(task.metadata, Mapping) else None
    all_units: list[tuple[str, ...]] = []
    for granularity in Granularity:
        units = metrics.gold_units(task, granularity)
        if not units:
            continue
        all_units += units
        g = granularity.value
        ranked = list(chunk_ids) if granularity is Granularity.CHUNK and chunk_ids else list(doc_ids)
        p, r = metrics.precision(ranked, units), metrics.recall(ranked, units)
        out[f"{g}.recall"] = r
        out[f"{g}.precision"] = p
        out[f"{g}.f1"] = metrics.f_beta_score(p, r, 1.0)
        out[f"{g}.f_beta"] = metrics.f_beta_score(p, r, config.beta)
        for k in ks:
            out[f"{g}.recall@{k}"] = metrics.recall_at_k(ranked, units, k)
            out[f"{g}.all_recall@{k}"] = metrics.all_recall_at_k(ranked, units, k)
            graded = qrels if granularity is Granularity.DOCUMENT and isinstance(qrels, Mapping) and qrels else None
            out[f"{g}.ndcg@{k}"] = metrics.ndcg_at_k(ranked, graded if graded is not None else units, k)
        if trajectory is not None:
            out[f"trajectory.{g}.recall"] = metrics.trajectory_recall(trajectory, units, granularity)
    judgement = bool(task.answers) and {metrics.normalize_answer(a) for a in task.answers} <= {"yes", "no"}
    skip = judgement and not config.yes_no_answer_found
    if texts is not None:
        out["answer_found"] = None if skip else metrics.answer_found(texts, task.answers)
    if passages is not None:
        out.update(passage_metrics(task, passages, skip_answer=skip))
    if trajectory is not None:
        out["prune_accuracy"] = metrics.prune_accuracy(trajectory.pruned_chunk_ids(), all_units)
    return out


# How many passages the "@5" passage metrics read: the agent's default evidence size
# (AgentConfig.max_passages), and the top-5 a reader is usually handed.
PASSAGE_K = 5


def passage_metrics(task: Task, passages: Sequence[tuple[str, str]], *, skip_answer: bool = False
                    ) -> dict[str, float | None]:
    """The passage-level metrics of one task (module docstring)."""
    ids = [cid for cid, _ in passages]
    out: dict[str, float | None] = {"passage.n": float(len(dict.fromkeys(ids)))}
    out["passage.answer_found"] = None if skip_answer else metrics.answer_found([t for _, t in passages], task.answers)
    for granularity in Granularity:
        units = metrics.gold_units(task, granularity)
        if not units:
            continue
        g = granularity.value
        out[f"passage.{g}.recall"] = metrics.recall(ids, units)
        out[f"passage.{g}.recall@{PASSAGE_K}"] = metrics.recall_at_k(ids, units, PASSAGE_K)
        out[f"passage.{g}.all_recall@{PASSAGE_K}"] = metrics.all_recall_at_k(ids, units, PASSAGE_K)
    return out
