"""Fits a passage ranker (corpus_tools.passage_ranker) on generated tasks over an index.

What it learns is the order of one document's passages for a question, which is what the agent's
answer needs once it knows the document (a 10-Q question names its filing; the passage that holds the
figure is the hard part). So each task gives one group per gold document: the candidates are the
chunks of that document the agent would have in view, approximated by the question's own search
(constraints on, as every agent search passes them; its ranks are the "first search" feature) and
the document's chunks most similar to the question (`Corpus.read` with the question: cosine order,
the first `depth`); the positives are the task's gold chunks (`training.search_policy.gold_chunks`:
its supporting passages, its facts' chunks, its extra positives) among them. A group whose document
has no positive or no negative in view teaches nothing and is skipped and counted.

The weights minimise the mean listwise softmax cross-entropy (positives share the target mass) with
a small L2 pull towards the cosine-only weights (`COSINE_WEIGHTS`, where fitting starts), by L-BFGS.
Held-back tasks (by task id) give a validation MRR before (cosine alone) and after.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools.passage_ranker import COSINE_WEIGHTS, FEATURES, PassageRanker, passage_features
from training.search_policy import gold_chunks
from training.splits import hash_fraction


class TooFewGroupsError(ValueError):
    """Fewer usable groups than a fit needs (nothing is written)."""


@dataclass
class PassageRankerReport:
    """What a fit saw and did. mrr_*: mean reciprocal rank of the first gold passage among its
    document's candidates on held-back groups, by cosine alone and by the fitted weights."""

    tasks: int = 0
    groups: int = 0
    train_groups: int = 0
    val_groups: int = 0
    skipped: Counter = field(default_factory=Counter)
    mrr_cosine: float = 0.0
    mrr_fitted: float = 0.0
    weights: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["skipped"] = dict(self.skipped)
        return out


Group = tuple[str, np.ndarray, np.ndarray]  # (task id, features, gold labels)


def document_candidates(corpus: Any, query: str, doc_id: str, depth: int) -> tuple[list[Any], dict[str, int]]:
    """The chunks of `doc_id` in view for `query`: its question search's hits in that document (their
    ranks in that search, the "first search" feature) and its `depth` chunks nearest by cosine."""
    first: dict[str, int] = {}
    chunks: dict[str, Any] = {}
    for rank, hit in enumerate(corpus.search(query, k=10, constraints="auto"), start=1):
        if hit.chunk.doc_id == doc_id:
            first.setdefault(hit.chunk.chunk_id, rank)
            chunks.setdefault(hit.chunk.chunk_id, hit.chunk)
    for hit in list(corpus.read(doc_id, query=query))[:depth]:
        chunks.setdefault(hit.chunk.chunk_id, hit.chunk)
    return list(chunks.values()), first


def build_groups(corpus: Any, tasks: Sequence[Any], depth: int, report: PassageRankerReport,
                 progress: bool = True) -> list[Group]:
    """One (task id, features, labels) group per task and gold document with a positive and a negative in view."""
    from tqdm.auto import tqdm

    known = set(corpus.doc_ids())
    out: list[Group] = []
    for task in tqdm(tasks, desc="ranking task documents", unit="task", disable=not progress):
        gold = gold_chunks(task)
        if not gold:
            report.skipped["no gold passage named"] += 1
            continue
        for doc_id in dict.fromkeys(task.gold_doc_ids):
            if doc_id not in known:
                report.skipped["gold document not in the index"] += 1
                continue
            chunks, first = document_candidates(corpus, task.query, doc_id, depth)
            y = np.array([1.0 if c.chunk_id in gold else 0.0 for c in chunks])
            if y.sum() == 0 or y.sum() == len(y):
                report.skipped["no gold passage in view" if y.sum() == 0 else "no negative in view"] += 1
                continue
            cos = corpus.similarity(task.query, [c.chunk_id for c in chunks])
            x = passage_features(task.query, [c.text for c in chunks], [float(v) for v in cos],
                                 [first.get(c.chunk_id) for c in chunks])
            out.append((str(task.task_id), x, y))
            report.groups += 1
    return out


def _loss(w: np.ndarray, groups: Sequence[Group], l2: float, w0: np.ndarray) -> tuple[float, np.ndarray]:
    total, grad = 0.0, np.zeros_like(w)
    for _, x, y in groups:
        s = x @ w
        p = np.exp(s - s.max())
        p /= p.sum()
        target = y / y.sum()
        total -= float(target @ np.log(p + 1e-12))
        grad += x.T @ (p - target)
    n = max(len(groups), 1)
    d = w - w0
    return total / n + l2 * float(d @ d), grad / n + 2 * l2 * d


def fit_weights(groups: Sequence[Group], l2: float = 1e-2) -> np.ndarray:
    """Weights minimising the listwise loss over the groups, from (and pulled towards) cosine's."""
    from scipy.optimize import minimize

    w0 = np.asarray(COSINE_WEIGHTS, dtype=np.float64) * 10.0  # cosine gaps are ~0.1: a usable temperature
    return minimize(_loss, w0, args=(list(groups), l2, w0), jac=True, method="L-BFGS-B").x


def group_mrr(w: np.ndarray, groups: Sequence[Group]) -> float:
    """Mean reciprocal rank of each group's first gold passage under weights `w` (ties by position)."""
    if not groups:
        return 0.0
    rr = []
    for _, x, y in groups:
        order = sorted(range(len(y)), key=lambda i: (-float(x[i] @ w), i))
        rr.append(next(1.0 / r for r, i in enumerate(order, start=1) if y[i] > 0))
    return float(np.mean(rr))


def fit_passage_ranker(
    index: str | Path | Any,
    tasks: Sequence[Any],
    out: str | Path,
    *,
    depth: int = 40,
    val_fraction: float = 0.2,
    l2: float = 1e-2,
    min_groups: int = 20,
    seed: int = 0,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
) -> tuple[PassageRanker, PassageRankerReport]:
    """Fits and writes a passage ranker for `index` to folder `out`; returns it and its report.
    TooFewGroupsError (nothing written) when fewer than `min_groups` training groups remain."""
    from corpus_tools import Corpus

    started = time.perf_counter()
    report = PassageRankerReport(tasks=len(tasks))
    owned = not hasattr(index, "search")
    corpus = Corpus.open(index, reranker="none") if owned else index
    try:
        groups = build_groups(corpus, tasks, depth, report, progress)
    finally:
        if owned:
            corpus.close()

    def held_back(task_id: str) -> bool:
        return hash_fraction(f"{seed}:{task_id}") < val_fraction

    train = [g for g in groups if not held_back(g[0])]
    val = [g for g in groups if held_back(g[0])]
    report.train_groups, report.val_groups = len(train), len(val)
    if len(train) < min_groups:
        raise TooFewGroupsError(
            f"too few usable groups to fit a passage ranker: {len(train)} (need {min_groups}); "
            f"skipped: {dict(report.skipped) or 'none'}. Generate more tasks over this index "
            "(`context1 datagen INDEX OUT --hops 1`), whose gold passages are its chunks.")
    w = fit_weights(train, l2)
    report.mrr_cosine = group_mrr(np.asarray(COSINE_WEIGHTS), val)
    report.mrr_fitted = group_mrr(w, val)
    report.weights = {name: round(float(v), 6) for name, v in zip(FEATURES, w, strict=True)}
    report.seconds = round(time.perf_counter() - started, 1)
    if log:
        log(f"{report.groups} groups ({report.train_groups} train, {report.val_groups} held back); "
            f"skipped {dict(report.skipped) or 'none'}")
    ranker = PassageRanker(w, path=Path(out).absolute(), report=report.to_dict())
    ranker.save(out)
    return ranker, report
