"""Our nDCG@k, Recall@k and MRR against trec_eval (pytrec_eval), on BEIR-style runs with ties.

The cases: graded qrels (0, 1, 2), judged-but-irrelevant documents, runs whose scores tie (trec_eval
breaks ties by document id, descending, and so must we), run documents absent from the qrels, a
query absent from the run (0 for us; trec_eval leaves it out, so it is counted as 0 here too), and
a query without a positive judgement (skipped by both). Then 40 random queries whose scores come
from four values, so most of each ranking is ties.
"""

from __future__ import annotations

import random

import pytest

from eval.metrics import beir_evaluate, mrr_at_k

pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is in the dev extra")

KS = (1, 3, 5, 10, 100)

HAND_QRELS = {
    "q1": {"d1": 2, "d2": 1, "d3": 0, "d9": 1},  # graded, one judged irrelevant, one never retrieved
    "q2": {"d4": 1},
    "q3": {"d5": 1, "d6": 2},  # absent from the run
    "q4": {"d7": 0},  # no positive: skipped
}
HAND_RUN = {
    "q1": {"d3": 5.0, "d1": 5.0, "d2": 5.0, "d8": 4.0, "x1": 1.0},  # a three-way tie at the top
    "q2": {"a": 1.0, "b": 1.0, "d4": 1.0, "c": 0.5},  # the relevant one ties with two others
    "q4": {"d7": 1.0},
}


def _random_case(seed: int) -> tuple[dict, dict]:
    rng = random.Random(seed)
    qrels, run = {}, {}
    for q in range(40):
        docs = [f"doc{rng.randrange(60):02d}" for _ in range(30)]
        qrels[f"q{q}"] = {d: rng.choice([0, 1, 1, 2]) for d in rng.sample(docs, 4)}
        run[f"q{q}"] = {d: float(rng.choice([0.25, 0.5, 0.75, 1.0])) for d in docs}
    return qrels, run


def _reference(qrels: dict, run: dict) -> dict[str, float]:
    """Means over the queries with a positive judgement, as beir_evaluate averages (missing = 0)."""
    measures = {"recip_rank"} | {f"ndcg_cut.{','.join(map(str, KS))}", f"recall.{','.join(map(str, KS))}"}
    per_query = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    scored = [q for q, rels in qrels.items() if any(v > 0 for v in rels.values())]
    out = {}
    for k in KS:
        out[f"NDCG@{k}"] = sum(per_query.get(q, {}).get(f"ndcg_cut_{k}", 0.0) for q in scored) / len(scored)
        out[f"Recall@{k}"] = sum(per_query.get(q, {}).get(f"recall_{k}", 0.0) for q in scored) / len(scored)
    out["MRR"] = sum(per_query.get(q, {}).get("recip_rank", 0.0) for q in scored) / len(scored)
    return out


def _ours(qrels: dict, run: dict) -> dict[str, float]:
    out = beir_evaluate(qrels, run, ks=KS)
    scored = [q for q, rels in qrels.items() if any(v > 0 for v in rels.values())]
    total = 0.0
    for q in scored:
        scores = run.get(q, {})
        ranked = [d for d, _ in sorted(scores.items(), key=lambda item: (item[1], item[0]), reverse=True)]
        positives = [d for d, v in qrels[q].items() if v > 0]
        total += mrr_at_k(ranked, positives, max(len(ranked), 1)) or 0.0
    out["MRR"] = total / len(scored)
    return out


@pytest.mark.parametrize("case", ["hand", "random-1", "random-2"])
def test_ndcg_recall_and_mrr_equal_trec_eval(case):
    qrels, run = (HAND_QRELS, HAND_RUN) if case == "hand" else _random_case(int(case[-1]))
    ours, reference = _ours(qrels, run), _reference(qrels, run)
    assert set(ours) == set(reference)
    for key, value in reference.items():
        assert ours[key] == pytest.approx(value, abs=1e-4), key  # trec_eval prints 4 decimals' worth


def test_the_hand_case_turns_on_the_tie_rule():
    """With ties broken by ascending id instead, q1's nDCG@1 and q2's reciprocal rank would differ."""
    from eval.metrics import ndcg_at_k

    per_query = pytrec_eval.RelevanceEvaluator(HAND_QRELS, {"ndcg_cut.1", "recip_rank"}).evaluate(HAND_RUN)
    for q in ("q1", "q2"):
        ascending = [d for d, _ in sorted(HAND_RUN[q].items(), key=lambda item: (-item[1], item[0]))]
        positives = [d for d, v in HAND_QRELS[q].items() if v > 0]
        differs = (
            ndcg_at_k(ascending, HAND_QRELS[q], 1) != pytest.approx(per_query[q]["ndcg_cut_1"])
            or mrr_at_k(ascending, positives, 10) != pytest.approx(per_query[q]["recip_rank"])
        )
        assert differs, q
