"""Retrieval metrics (SPEC §3): pure functions of ranked ids and gold, at any granularity.

Every function takes ranked ids (most relevant first) and gold evidence and returns a number, or
None where the metric is undefined (no gold, no answer, no prune) — an undefined value is left out
of averages rather than counted as 0. Inputs are never mutated and nothing is rounded here.

Gold is a sequence of *units*. A unit is one id (a document or chunk) or a collection of
alternative ids (a fact, found when any id carrying it is returned). The same functions therefore
score documents, chunks and facts; `gold_units(task, granularity)` builds the units of a `Task`.

Matching ids across granularities follows the chunk-id convention of corpus_tools
(chunk_id = f"{doc_id}#{position}"): a returned document covers every chunk of its own, and a
returned chunk covers its document. So an agent that returns documents gets credit for gold chunks
inside them, and a fact listed by chunk id is found by returning its document.

nDCG follows BEIR/pytrec_eval: linear gains, log2 discount, ideal ranking from the qrels.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from eval.types import Granularity, Task

if TYPE_CHECKING:  # metrics stay importable without the agent stack (training calls them per rollout)
    from context1.types import Trajectory

GoldUnit = str | Collection[str]

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)


# --- answers -------------------------------------------------------------------------------------


def normalize_answer(text: str) -> str:
    """SQuAD v1.1 normalization: lower-case, drop punctuation and articles, collapse whitespace."""
    text = text.lower().translate(_PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def contains_answer(text: str, answers: Iterable[str]) -> bool:
    """Whether any answer occurs in `text` once both are normalized.

    The match is on whole normalized tokens (" no " is not found inside "not"), so short answers
    such as "yes"/"no" or numbers do not match parts of longer words. Answers that normalize to
    nothing (e.g. "the") are ignored.
    """
    haystack = f" {normalize_answer(text)} "
    for answer in answers:
        needle = normalize_answer(answer)
        if needle and f" {needle} " in haystack:
            return True
    return False


def answer_found(texts: Iterable[str], answers: Sequence[str]) -> float | None:
    """Final answer found (SPEC §3): 1.0 when any returned text contains an answer, else 0.0.

    texts: the returned documents' (or chunks') texts. answers: the answer and its aliases.
    None when the task has no answer (retrieval-only sets, adversarial questions).
    """
    if not any(normalize_answer(a) for a in answers):
        return None
    return 1.0 if any(contains_answer(t, answers) for t in texts) else 0.0


# --- matching ------------------------------------------------------------------------------------


def parent_doc_id(item_id: str) -> str | None:
    """The document of a chunk id (`doc#3` -> `doc`), or None when `item_id` is not a chunk id."""
    head, sep, tail = item_id.rpartition("#")
    return head if sep and head and tail.isdigit() else None


def covers(returned_id: str, gold_id: str) -> bool:
    """A returned id covers a gold id when equal, or one is a chunk of the other (a document)."""
    return returned_id == gold_id or parent_doc_id(gold_id) == returned_id or parent_doc_id(returned_id) == gold_id


def _units(gold: Iterable[GoldUnit]) -> list[tuple[str, ...]]:
    return [(unit,) if isinstance(unit, str) else tuple(unit) for unit in gold]


def _distinct(ids: Iterable[str]) -> list[str]:
    """Ids in first-seen order: a repeated id is one retrieved item, ranked where it first came."""
    return list(dict.fromkeys(ids))


def _found(returned: Sequence[str], unit: Sequence[str]) -> bool:
    return any(covers(r, g) for r in returned for g in unit)


def _is_positive(returned_id: str, units: Sequence[Sequence[str]]) -> bool:
    return any(covers(returned_id, g) for unit in units for g in unit)


def gold_units(task: Task, granularity: Granularity | str) -> list[tuple[str, ...]]:
    """The gold units of a task at a granularity (empty when the task has none at that level)."""
    granularity = _granularity(granularity)
    if granularity is Granularity.DOCUMENT:
        return [(d,) for d in _distinct(task.gold_doc_ids)]
    if granularity is Granularity.CHUNK:
        return [(c,) for c in _distinct(task.gold_chunk_ids)]
    return [tuple(fact) for fact in task.facts if fact]


def _granularity(value: Granularity | str) -> Granularity:
    try:
        return Granularity(value)
    except ValueError:
        raise ValueError(f"granularity must be one of {[g.value for g in Granularity]}, got {value!r}") from None


# --- set metrics ---------------------------------------------------------------------------------


def recall(returned: Sequence[str], gold: Iterable[GoldUnit]) -> float | None:
    """Found gold units / all gold units; None when there is no gold."""
    units = _units(gold)
    if not units:
        return None
    returned = _distinct(returned)
    return sum(_found(returned, u) for u in units) / len(units)


def precision(returned: Sequence[str], gold: Iterable[GoldUnit]) -> float | None:
    """Returned items that are positive / returned items.

    0.0 when nothing was returned; None when there is no gold (nothing could be positive).
    """
    units = _units(gold)
    if not units:
        return None
    returned = _distinct(returned)
    if not returned:
        return 0.0
    return sum(_is_positive(r, units) for r in returned) / len(returned)


def f_beta_score(precision_value: float | None, recall_value: float | None, beta: float = 1.0) -> float | None:
    """F_beta from precision and recall: recall weighted beta² times precision (van Rijsbergen).

    0.0 when both are 0; None when either is undefined.
    """
    if beta <= 0:
        raise ValueError(f"beta must be positive, got {beta!r}")
    if precision_value is None or recall_value is None:
        return None
    b2 = beta * beta
    denom = b2 * precision_value + recall_value
    return 0.0 if denom == 0 else (1 + b2) * precision_value * recall_value / denom


def f_beta(returned: Sequence[str], gold: Iterable[GoldUnit], beta: float = 1.0) -> float | None:
    """F_beta of a returned list against gold (SPEC §3, the RL reward's main term)."""
    units = _units(gold)
    return f_beta_score(precision(returned, units), recall(returned, units), beta)


def f1(returned: Sequence[str], gold: Iterable[GoldUnit]) -> float | None:
    """F1 = F_beta with beta = 1."""
    return f_beta(returned, gold, 1.0)


def trajectory_recall(
    trajectory: Trajectory, gold: Iterable[GoldUnit], granularity: Granularity | str = Granularity.DOCUMENT
) -> float | None:
    """Gold units encountered at any point of the unpruned trajectory / all gold units (SPEC §3).

    Document granularity reads `seen_doc_ids()`, chunk granularity `seen_chunk_ids()`, and fact
    granularity both (a fact may be listed by document or by chunk id).
    """
    granularity = _granularity(granularity)
    if granularity is Granularity.DOCUMENT:
        seen = trajectory.seen_doc_ids()
    elif granularity is Granularity.CHUNK:
        seen = trajectory.seen_chunk_ids()
    else:
        seen = trajectory.seen_chunk_ids() + trajectory.seen_doc_ids()
    return recall(seen, gold)


def prune_accuracy(pruned_chunk_ids: Sequence[str], gold: Iterable[GoldUnit]) -> float | None:
    """Fraction of pruned chunks that were not gold (SPEC §3: pruned chunks that were irrelevant).

    A pruned chunk is gold when it covers a gold id (it is a gold chunk, or a chunk of a gold
    document, or carries a fact). None when nothing was pruned: no prune is neither right nor wrong.
    """
    pruned = _distinct(pruned_chunk_ids)
    if not pruned:
        return None
    units = _units(gold)
    return sum(not _is_positive(c, units) for c in pruned) / len(pruned)


# --- ranking metrics -----------------------------------------------------------------------------


def _check_k(k: int) -> None:
    if not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")


def recall_at_k(ranked: Sequence[str], gold: Iterable[GoldUnit], k: int) -> float | None:
    """Recall of the top k of a ranking; None when there is no gold."""
    _check_k(k)
    return recall(_distinct(ranked)[:k], gold)


def all_recall_at_k(ranked: Sequence[str], gold: Iterable[GoldUnit], k: int) -> float | None:
    """1.0 when every gold unit is in the top k, else 0.0 (multi-hop needs them all); None without gold."""
    r = recall_at_k(ranked, gold, k)
    return None if r is None else float(r == 1.0)


def mrr_at_k(ranked: Sequence[str], gold: Iterable[GoldUnit], k: int) -> float | None:
    """Reciprocal rank of the first returned item that covers a gold unit, within the top k (0 if none).

    None when there is no gold. Averaged over queries it is MRR@k (trec_eval's recip_rank with k
    the run's length; tests/eval/test_metrics_parity.py checks it against pytrec_eval).
    """
    _check_k(k)
    units = _units(gold)
    if not units:
        return None
    for rank, r in enumerate(_distinct(ranked)[:k], start=1):
        if _is_positive(r, units):
            return 1.0 / rank
    return 0.0


def dcg(gains: Sequence[float]) -> float:
    """Discounted cumulative gain of gains in rank order: sum gain_i / log2(i + 1), i from 1."""
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


def ndcg_at_k(ranked: Sequence[str], gold: Mapping[str, float] | Iterable[GoldUnit], k: int) -> float | None:
    """nDCG@k with linear gains (BEIR / pytrec_eval convention); None when nothing is relevant.

    gold: graded qrels `{id: relevance}` (exact id match, the BEIR case), or gold units with
    binary relevance, each unit credited once, at the first returned item that covers it.
    """
    _check_k(k)
    top = _distinct(ranked)[:k]
    if isinstance(gold, Mapping):
        ideal = sorted((float(v) for v in gold.values() if v > 0), reverse=True)[:k]
        gains = [max(float(gold.get(r, 0.0)), 0.0) for r in top]
    else:
        units = _units(gold)
        ideal = [1.0] * min(len(units), k)
        found = [False] * len(units)
        gains = []
        for r in top:
            gain = 0.0
            for i, unit in enumerate(units):
                if not found[i] and any(covers(r, g) for g in unit):
                    found[i] = True
                    gain = 1.0
            gains.append(gain)
    best = dcg(ideal)
    return None if best == 0 else dcg(gains) / best


# --- BEIR-style plain dicts ----------------------------------------------------------------------


def beir_evaluate(
    qrels: Mapping[str, Mapping[str, int]],
    run: Mapping[str, Mapping[str, float]],
    ks: Sequence[int] = (1, 10, 100),
) -> dict[str, float]:
    """Mean nDCG@k and Recall@k over the queries of `qrels`, as BEIR reports them.

    qrels: {query_id: {doc_id: relevance}}; run: {query_id: {doc_id: score}} (higher first; ties
    broken by doc id, descending, like pytrec_eval). A query absent from the run scores 0; queries
    without a positive qrel are skipped. Keys: "NDCG@k", "Recall@k".
    """
    totals = {f"{name}@{k}": 0.0 for name in ("NDCG", "Recall") for k in ks}
    n = 0
    for qid, rels in qrels.items():
        positives = [d for d, v in rels.items() if v > 0]
        if not positives:
            continue
        n += 1
        scores = run.get(qid, {})
        ranked = [d for d, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)]
        for k in ks:
            totals[f"NDCG@{k}"] += ndcg_at_k(ranked, rels, k) or 0.0
            totals[f"Recall@{k}"] += recall_at_k(ranked, positives, k) or 0.0
    return {key: (value / n if n else 0.0) for key, value in totals.items()}
