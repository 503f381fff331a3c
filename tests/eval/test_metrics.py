"""Metrics against hand-computed cases, at document, chunk and fact granularity."""

from __future__ import annotations

import copy
import math

import pytest

from context1.types import ModelTurn, Observation, Step, Trajectory
from eval import metrics
from eval.metrics import (
    all_recall_at_k,
    answer_found,
    beir_evaluate,
    f1,
    f_beta,
    f_beta_score,
    gold_units,
    ndcg_at_k,
    normalize_answer,
    precision,
    prune_accuracy,
    recall,
    recall_at_k,
    trajectory_recall,
)
from eval.scoring import ScoreConfig, score_task
from eval.types import Granularity, Task

LOG2_3 = math.log2(3)


# --- answers ---


def test_normalize_answer_is_squad_normalization():
    assert normalize_answer("The  Cat's, hat!") == "cats hat"
    assert normalize_answer("An apple a day") == "apple day"
    assert normalize_answer("U.S.A.") == "usa"


def test_answer_found_matches_normalized_answer_or_alias():
    texts = ["Riverton is a town.", "The River Lune flows through Riverton."]
    assert answer_found(texts, ["river lune"]) == 1.0
    assert answer_found(texts, ["Ribble", "the Lune"]) == 1.0  # an alias
    assert answer_found(texts, ["Ribble"]) == 0.0
    assert answer_found(["It is not known."], ["no"]) == 0.0  # whole tokens only: "no" is not in "not"
    assert answer_found(["The answer is no."], ["No"]) == 1.0
    assert answer_found(["made in the U.S.A. in 1999"], ["USA"]) == 1.0
    assert answer_found([], ["x"]) == 0.0


def test_answer_found_is_none_without_an_answer():
    assert answer_found(["anything"], []) is None
    assert answer_found(["the"], ["The"]) is None  # normalizes to nothing


# --- document granularity ---

RETURNED = ["a", "x", "b", "y"]
GOLD = ["a", "b", "c"]


def test_set_metrics_document_granularity():
    assert recall(RETURNED, GOLD) == pytest.approx(2 / 3)
    assert precision(RETURNED, GOLD) == pytest.approx(0.5)
    assert f1(RETURNED, GOLD) == pytest.approx(4 / 7)  # 2·0.5·(2/3) / (0.5 + 2/3)
    assert f_beta(RETURNED, GOLD, beta=2.0) == pytest.approx(0.625)  # 5·P·R / (4P + R)
    assert f_beta_score(0.0, 0.0, 2.0) == 0.0


def test_repeated_ids_count_once():
    assert precision(["a", "a", "x"], ["a"]) == pytest.approx(0.5)
    assert recall_at_k(["x", "x", "a"], ["a"], 2) == 1.0  # the duplicate takes no slot


def test_undefined_values_are_none_not_zero():
    assert recall(["a"], []) is None
    assert precision(["a"], []) is None
    assert f1(["a"], []) is None
    assert precision([], ["a"]) == 0.0  # nothing returned: defined, and 0
    assert f_beta_score(None, 0.5) is None
    assert ndcg_at_k(["a"], [], 5) is None


def test_ranking_metrics_document_granularity():
    assert recall_at_k(RETURNED, GOLD, 1) == pytest.approx(1 / 3)
    assert recall_at_k(RETURNED, GOLD, 2) == pytest.approx(1 / 3)
    assert recall_at_k(RETURNED, GOLD, 3) == pytest.approx(2 / 3)
    assert all_recall_at_k(RETURNED, GOLD, 4) == 0.0
    assert all_recall_at_k(["b", "a"], ["a", "b"], 2) == 1.0
    assert all_recall_at_k(["b", "a"], ["a", "b"], 1) == 0.0
    # gains [1, 0, 1] vs ideal [1, 1, 1]: (1 + 1/2) / (1 + 1/log2(3) + 1/2)
    assert ndcg_at_k(RETURNED, GOLD, 3) == pytest.approx(1.5 / (1.5 + 1 / LOG2_3))


def test_ndcg_graded_qrels():
    qrels = {"a": 2, "b": 1, "c": 0}
    # ranked b, a: (1 + 2/log2 3) / (2 + 1/log2 3)
    assert ndcg_at_k(["b", "a"], qrels, 2) == pytest.approx((1 + 2 / LOG2_3) / (2 + 1 / LOG2_3))
    assert ndcg_at_k(["a", "b"], qrels, 2) == pytest.approx(1.0)
    assert ndcg_at_k(["c"], {"c": 0}, 1) is None


def test_ndcg_matches_scikit_learn():
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    ranked = ["d3", "d1", "d7", "d2", "d5"]
    qrels = {"d1": 3, "d2": 1, "d5": 2, "d9": 1}
    docs = ranked + ["d9"]  # sklearn scores a fixed candidate set: put the unretrieved doc last
    true = [[qrels.get(d, 0) for d in docs]]
    scores = [[len(docs) - i for i in range(len(docs))]]
    for k in (1, 3, 5):
        # sklearn's ideal ranking is over the candidates, which hold every relevant doc here
        assert ndcg_at_k(ranked, qrels, k) == pytest.approx(sklearn_metrics.ndcg_score(true, scores, k=k))


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="positive integer"):
        recall_at_k(["a"], ["a"], 0)
    with pytest.raises(ValueError, match="beta"):
        f_beta(["a"], ["a"], beta=0)
    with pytest.raises(ValueError, match="document"):
        gold_units(Task("t", "q"), "sentence")


# --- chunk granularity ---


def test_chunk_granularity():
    gold_chunks = ["d1#1", "d2#0"]
    returned_chunks = ["d1#0", "d2#3", "d1#1"]
    assert recall(returned_chunks, gold_chunks) == pytest.approx(0.5)  # d1#0 is another chunk
    assert precision(returned_chunks, gold_chunks) == pytest.approx(1 / 3)
    assert recall_at_k(returned_chunks, gold_chunks, 2) == 0.0
    # a returned document covers its chunks
    assert recall(["d1"], gold_chunks) == pytest.approx(0.5)
    assert precision(["d1", "d3"], gold_chunks) == pytest.approx(0.5)
    # a returned chunk covers its document
    assert recall(["d2#5"], ["d2"]) == 1.0
    # a '#' that is not a chunk position is part of the id
    assert recall(["C#"], ["C"]) == 0.0


# --- fact granularity ---

FACTS = [("d1#0", "d3"), ("d2#1",), ("d4",)]


def test_fact_granularity():
    returned = ["d3", "d2", "d5"]
    assert recall(returned, FACTS) == pytest.approx(2 / 3)
    assert precision(returned, FACTS) == pytest.approx(2 / 3)
    # gains [1, 1, 0], ideal [1, 1, 1]
    assert ndcg_at_k(returned, FACTS, 3) == pytest.approx((1 + 1 / LOG2_3) / (1 + 1 / LOG2_3 + 0.5))
    # two carriers of the same fact find it once
    assert recall(["d3", "d1"], FACTS) == pytest.approx(1 / 3)
    assert ndcg_at_k(["d3", "d1"], FACTS, 2) == pytest.approx(1 / (1 + 1 / LOG2_3))
    assert all_recall_at_k(["d1", "d2", "d4"], FACTS, 3) == 1.0


def test_gold_units_of_a_task():
    task = Task("t", "q", gold_doc_ids=("a", "b", "a"), gold_chunk_ids=("a#0",), facts=(("a#0", "c"), ()))
    assert gold_units(task, Granularity.DOCUMENT) == [("a",), ("b",)]
    assert gold_units(task, "chunk") == [("a#0",)]
    assert gold_units(task, Granularity.FACT) == [("a#0", "c")]  # an empty fact is no fact


# --- trajectory ---


def _trajectory() -> Trajectory:
    def obs(cids, dids):
        return Observation(call_id="c", tool="search_corpus", text="...", chunk_ids=cids, doc_ids=dids)

    steps = [
        Step(turn=ModelTurn(text=""), observations=(obs(("a#0", "b#0"), ("a", "b")),)),
        Step(turn=ModelTurn(text=""), observations=(obs(("c#2", "a#0"), ("c", "a")),), pruned=("a#0", "z#1")),
    ]
    return Trajectory(query="q", steps=steps)


def test_trajectory_recall_credits_pruned_chunks():
    traj = _trajectory()
    assert trajectory_recall(traj, ["a", "c", "d"], Granularity.DOCUMENT) == pytest.approx(2 / 3)
    assert trajectory_recall(traj, ["a#0", "d#0"], "chunk") == pytest.approx(0.5)  # a#0 was pruned later
    assert trajectory_recall(traj, [("d#0", "c"), ("e",)], "fact") == pytest.approx(0.5)
    assert trajectory_recall(traj, [], "document") is None


def test_prune_accuracy():
    traj = _trajectory()
    assert prune_accuracy(traj.pruned_chunk_ids(), ["a", "c"]) == pytest.approx(0.5)  # a#0 was gold, z#1 not
    assert prune_accuracy(["x#0", "y#0"], ["a"]) == 1.0
    assert prune_accuracy(["a#3"], ["a#3"]) == 0.0
    assert prune_accuracy([], ["a"]) is None  # no prune: neither right nor wrong
    assert prune_accuracy(["x#0"], []) == 1.0  # without gold every prune is right


# --- purity ---


def test_metrics_never_mutate_their_inputs():
    returned, gold, facts, qrels = ["a", "x", "a"], ("a", "b"), [["d1#0", "d3"], ["d4"]], {"a": 2, "b": 1}
    before = copy.deepcopy((returned, gold, facts, qrels))
    for fn in (recall, precision, f1):
        fn(returned, gold)
        fn(returned, facts)
    for k in (1, 3):
        recall_at_k(returned, gold, k)
        all_recall_at_k(returned, facts, k)
        ndcg_at_k(returned, qrels, k)
        ndcg_at_k(returned, facts, k)
    prune_accuracy(returned, facts)
    assert (returned, gold, facts, qrels) == before


def test_values_are_not_rounded():
    assert recall(["a"], ["a", "b", "c"]) == 1 / 3


# --- BEIR plain dicts ---


def test_beir_evaluate_hand_computed():
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}, "q3": {"x": 0}}
    run = {"q1": {"a": 0.9, "z": 0.8, "b": 0.1}}
    scores = beir_evaluate(qrels, run, ks=(1, 10))
    # q3 has no positive qrel: skipped. q2 is missing from the run: 0.
    assert scores["Recall@1"] == pytest.approx(0.25)
    assert scores["NDCG@1"] == pytest.approx(0.5)
    assert scores["Recall@10"] == pytest.approx(0.5)
    assert scores["NDCG@10"] == pytest.approx((1.5 / (1 + 1 / LOG2_3)) / 2)
    assert qrels == {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}, "q3": {"x": 0}}


# --- one task, every granularity ---


def test_score_task_names_and_values():
    task = Task(
        "t1",
        "which river?",
        answers=("River Lune",),
        gold_doc_ids=("a", "b"),
        gold_chunk_ids=("b#1",),
        facts=(("a", "c"), ("b#1",)),
        hops=2,
    )
    scores = score_task(
        task,
        ["c", "a", "x"],
        chunk_ids=["c#0", "a#0", "b#0", "x#0"],
        texts=["The River Lune flows."],
        max_k=5,
        config=ScoreConfig(ks=(1, 5, 10), beta=2.0),
    )
    assert scores["document.recall"] == 0.5
    assert scores["document.precision"] == pytest.approx(1 / 3)
    assert scores["document.recall@1"] == 0.0
    assert scores["document.all_recall@5"] == 0.0
    assert "document.recall@10" not in scores  # above max_k
    assert scores["chunk.recall"] == 0.0  # b#0 is not b#1
    assert scores["fact.recall"] == 0.5  # c carries the first fact
    assert scores["fact.ndcg@1"] == 1.0
    assert scores["answer_found"] == 1.0
    assert scores["n_returned"] == 3.0
    assert "prune_accuracy" not in scores and "trajectory.document.recall" not in scores
    traj_scores = score_task(task, ["a"], trajectory=_trajectory())
    assert traj_scores["trajectory.document.recall"] == 1.0  # a and b were both shown
    assert traj_scores["trajectory.chunk.recall"] == 0.0  # b#1 never was
    assert traj_scores["prune_accuracy"] == 0.5
    assert "answer_found" not in traj_scores  # no texts given


def test_score_task_uses_graded_qrels_for_documents():
    task = Task("q", "claim", gold_doc_ids=("a", "b"), metadata={"qrels": {"a": 2, "b": 1}})
    scores = score_task(task, ["b", "a"], config=ScoreConfig(ks=(2,)))
    assert scores["document.ndcg@2"] == pytest.approx((1 + 2 / LOG2_3) / (2 + 1 / LOG2_3))


def test_metrics_module_needs_no_agent_stack():
    # training calls these per rollout; they must not drag in the index or models
    assert "Trajectory" not in vars(metrics)


def test_yes_no_answers_are_not_scored_for_containment_by_default():
    task = Task("c", "Are both ruins?", answers=("yes",), gold_doc_ids=("a",))
    assert score_task(task, ["a"], texts=["yes, it is"])["answer_found"] is None
    scored = score_task(task, ["a"], texts=["yes, it is"], config=ScoreConfig(yes_no_answer_found=True))
    assert scored["answer_found"] == 1.0


def test_passage_metrics_read_the_returned_passages_not_their_documents():
    """SPEC §3: final answer found asks whether a returned *chunk* holds the answer. A document that
    holds it somewhere does not count, and a fact found in any of its chunks does (issue 34)."""
    task = Task("t", "gross margin?", answers=("$36,413 million",), gold_doc_ids=("aapl", "msft"),
                gold_chunk_ids=("aapl#57",), facts=(("aapl#57", "aapl#90"), ("msft#3",)))
    boilerplate = [("aapl#0", "Apple Inc. Form 10-Q. Item 1. Financial Statements."), ("msft#9", "Risk factors.")]
    # the document-level reading: the whole filing holds the figure, so answer_found says 1
    assert score_task(task, ["aapl", "msft"], texts=["... gross margin was $36,413 million ..."])["answer_found"] == 1.0
    scores = score_task(task, ["aapl", "msft"], passages=boilerplate)
    assert scores["passage.answer_found"] == 0.0
    assert scores["passage.chunk.recall"] == 0.0 and scores["passage.fact.recall"] == 0.0
    assert scores["passage.document.recall@5"] == 1.0  # both filings are there; their answering passages are not
    found = score_task(task, ["aapl"], passages=[("aapl#90", "Total gross margin was $36,413 million.")])
    assert found["passage.answer_found"] == 1.0
    assert found["passage.fact.recall"] == 0.5  # the fact sits in aapl#57 and aapl#90: either finds it
    assert found["passage.chunk.recall"] == 0.0  # the one gold chunk id was not returned
    assert found["passage.document.all_recall@5"] == 0.0 and found["passage.n"] == 1.0
    assert "passage.answer_found" not in score_task(task, ["aapl"])  # no passages given: no passage metrics
