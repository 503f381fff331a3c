"""Fits a learned fusion (corpus_tools.learned_fusion) on generated tasks over an index.

Each task's question, and each hop's sub-question, is searched with the index's own hybrid search
(no reranker) as the agent searches (`constraints="auto"`: on an index with company and period
metadata the question's constraints lift their filings and add the line-item ranking); the top
`SearchConfig.candidates` and their leg ranks and scores are the candidates, and the task's gold
chunks (or, for a task with gold documents only, any chunk of a
gold document) are the positives. The weights minimise the mean listwise softmax cross-entropy
(positives share the target mass) with a small L2 penalty, by L-BFGS from RRF's own weights. Queries with no gold candidate teach nothing about the order and
are skipped and counted. Held-back tasks (by task id) give a validation MRR under RRF, under the
order the index's search served (RRF plus its constraint, line-item, row-match and boilerplate
adjustments, which a fusion of the two legs cannot see) and under the fitted weights. A fit that ranks
the held-back queries below the search's own order would make every search worse and is refused
(`FusionLosesError`, nothing written): on the 20 10-Q filings a fit on 197 generated tasks went from
plain RRF's 0.243 to 0.242 while the constrained search's own order held 0.691, and searching with it
lost a fifth of the real tuning questions' figures (benchmarks/agent_passages.py filings --reranker).

A fusion fitted on cloze tasks (queries copied from the text) learns "trust BM25" and loses on real
questions (benchmarks/README.md, issue 26): `fit_fusion` reports the share of copied tasks.
"""

from __future__ import annotations

import inspect
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools.learned_fusion import FEATURES, RRF_WEIGHTS, LearnedFusion, fusion_features
from training.reranker_data import copied_query, hop_queries, question_query
from training.splits import hash_fraction


class TooFewQueriesError(ValueError):
    """Fewer usable queries than a fit needs."""


class FusionLosesError(ValueError):
    """The fitted fusion ranks held-back queries below the order the index's search already serves."""


@dataclass
class FusionReport:
    """What a fit saw and did. mrr_*: mean reciprocal rank of the first gold candidate on held-back
    queries, under RRF and under the fitted weights."""

    tasks: int = 0
    queries: int = 0
    train_queries: int = 0
    val_queries: int = 0
    copied_share: float = 0.0
    skipped: Counter = field(default_factory=Counter)
    mrr_rrf: float = 0.0
    mrr_search: float = 0.0
    mrr_fitted: float = 0.0
    weights: dict[str, float] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["skipped"] = dict(self.skipped)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FusionReport:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**{**known, "skipped": Counter(known.get("skipped", {}))})


def _groups(
    corpus: Any, tasks: Sequence[Any], use_hops: bool, report: FusionReport, progress: bool
) -> list[tuple[str, np.ndarray, np.ndarray]]:
    from tqdm.auto import tqdm

    rrf_k, depth = corpus.config.search.rrf_k, corpus.config.search.candidates
    # the agent passes the question's constraints on every search (AgentConfig.constraints); an index
    # without company metadata parses none, so its order is plain RRF's either way
    constrained = "constraints" in inspect.signature(corpus.search).parameters
    out = []
    for task in tqdm(tasks, desc="searching task queries", unit="task", disable=not progress):
        kind = (getattr(task, "metadata", {}) or {}).get("truth_type")
        queries = [(task.query, tuple(task.gold_chunk_ids) or tuple(task.gold_doc_ids))]
        if use_hops:
            queries += hop_queries(task)
        for query, ids in queries:
            query = question_query(query, kind)
            if not query.strip():
                report.skipped["empty query"] += 1
                continue
            hits = corpus.search(query, k=depth, constraints="auto") if constrained else corpus.search(query, k=depth)
            wanted = set(ids)
            y = np.array([1.0 if h.chunk.chunk_id in wanted or h.chunk.doc_id in wanted else 0.0 for h in hits])
            if len(hits) < 2 or y.sum() == 0:
                report.skipped["no gold chunk among the candidates"] += 1
                continue
            x = fusion_features([h.ranks for h in hits], [h.scores for h in hits], rrf_k)
            out.append((str(task.task_id), x, y))
            report.queries += 1
    return out


def _loss(w: np.ndarray, groups: Sequence[tuple[str, np.ndarray, np.ndarray]], l2: float) -> tuple[float, np.ndarray]:
    total, grad = 0.0, np.zeros_like(w)
    for _, x, y in groups:
        s = x @ w
        p = np.exp(s - s.max())
        p /= p.sum()
        target = y / y.sum()
        total -= float(target @ np.log(p + 1e-12))
        grad += x.T @ (p - target)
    n = max(len(groups), 1)
    return total / n + l2 * float(w @ w), grad / n + 2 * l2 * w


def fit_weights(groups: Sequence[tuple[str, np.ndarray, np.ndarray]], l2: float = 1e-3) -> np.ndarray:
    """Weights minimising the listwise loss over (task id, features, gold labels) groups, from RRF's."""
    from scipy.optimize import minimize

    w0 = np.asarray(RRF_WEIGHTS, dtype=np.float64)
    return minimize(_loss, w0, args=(list(groups), l2), jac=True, method="L-BFGS-B").x


def _mrr(w: np.ndarray | None, groups: Sequence[tuple[str, np.ndarray, np.ndarray]]) -> float:
    """Held-back MRR under weights `w`; None: the order the search returned the candidates in."""
    if not groups:
        return 0.0
    rr = []
    for _, x, y in groups:
        order = list(range(len(y))) if w is None else sorted(range(len(y)), key=lambda i: (-float(x[i] @ w), i))
        rr.append(next(1.0 / r for r, i in enumerate(order, start=1) if y[i] > 0))
    return float(np.mean(rr))


def fit_fusion(
    index: str | Path | Any,
    tasks: Sequence[Any],
    out: str | Path,
    *,
    use_hops: bool = True,
    val_fraction: float = 0.1,
    l2: float = 1e-3,
    min_queries: int = 20,
    seed: int = 0,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    extra: Sequence[tuple[str | Path | Any, Sequence[Any]]] = (),
) -> tuple[LearnedFusion, FusionReport]:
    """Fits and writes a learned fusion for `index` to folder `out`; returns it and its report.

    extra: (index, tasks) pairs of other corpora whose queries join the fit (and the held-back check),
    each searched in its own index: the weights read leg ranks and scores, which mean the same in any
    hybrid index, and MuSiQue's dev corpus alone gives ~130 queries (issue 36: fitted with HotpotQA's
    tasks too, its reporting R@5 rose +0.026 [+0.013, +0.042] over the MuSiQue tasks alone)."""
    from corpus_tools import Corpus

    started = time.perf_counter()
    every = [*tasks, *(t for _, more in extra for t in more)]
    report = FusionReport(tasks=len(every))
    report.copied_share = sum(copied_query(t) for t in every) / max(len(every), 1)
    if log and report.copied_share > 0.5:
        log(f"{report.copied_share:.0%} of these tasks are cloze windows copied from the text: a fusion fitted on "
            "them trusts BM25 and lost to RRF on every real benchmark (generate natural tasks: `context1 datagen`)")
    groups = []
    for where, its_tasks in [(index, tasks), *extra]:
        owned = not hasattr(where, "search")
        corpus = Corpus.open(where, reranker="none") if owned else where
        try:
            groups += _groups(corpus, its_tasks, use_hops, report, progress)
        finally:
            if owned:
                corpus.close()

    def held_back(task_id: str) -> bool:
        return hash_fraction(f"{seed}:{task_id}") < val_fraction

    train = [g for g in groups if not held_back(g[0])]
    val = [g for g in groups if held_back(g[0])]
    report.train_queries, report.val_queries = len(train), len(val)
    if len(train) < min_queries:
        raise TooFewQueriesError(
            f"too few usable queries to fit a fusion: {len(train)} (need {min_queries}); "
            f"skipped: {dict(report.skipped) or 'none'}. Generate more tasks over this index."
        )
    w = fit_weights(train, l2)
    report.mrr_rrf, report.mrr_fitted = _mrr(np.asarray(RRF_WEIGHTS), val), _mrr(w, val)
    report.mrr_search = _mrr(None, val)
    report.weights = {name: round(float(v), 6) for name, v in zip(FEATURES, w, strict=True)}
    report.seconds = time.perf_counter() - started
    if report.mrr_fitted < report.mrr_search:
        raise FusionLosesError(
            f"the fitted fusion ranks the {len(val)} held-back queries below the index's own search (MRR "
            f"{report.mrr_fitted:.3f} vs {report.mrr_search:.3f}; plain RRF {report.mrr_rrf:.3f}): this index's "
            "search adds what a fusion of the BM25 and dense legs cannot see (constraint lifts, line-item rows, "
            "row matches, boilerplate demotion), so searching with it would be worse. Nothing written; search "
            "without a reranker."
        )
    fusion = LearnedFusion(w, path=Path(out).absolute(), report=report.to_dict())
    fusion.save(out)
    return fusion, report
