"""Runners on a tiny real index: every retrieval leg, the agent, concurrency, and resuming."""

from __future__ import annotations

import json

import pytest

from eval.retrievers import Retrieval, SingleShotRetriever, collapse_to_documents, open_retriever
from eval.runners import document_texts, read_run, run_eval
from eval.types import Task


def _tasks(bench) -> list[Task]:
    extra = [
        Task(
            "s1",
            "stone bridge built in 1820",
            answers=("1820",),
            gold_doc_ids=("Ashford Bridge",),
            hops=1,
            source="synthetic",
            question_type="lookup",
        ),
        Task(
            "s2",
            "reservoir that supplies water",
            answers=("Heron Lake",),
            gold_doc_ids=("Heron Lake",),
            hops=1,
            source="synthetic",
            question_type="lookup",
        ),
        Task("s3", "ruined priory gate", gold_doc_ids=("Kestrel Priory",), hops=1, source="synthetic"),
        Task(
            "s4",
            "abbey founded by monks",
            answers=("monks",),
            gold_doc_ids=("Millbrook Abbey",),
            hops=1,
            source="synthetic",
        ),
        Task("s5", "civil parish in Devon", gold_doc_ids=(), source="synthetic"),
    ]
    return list(bench.tasks) + extra


class Counting:
    """Wraps a retriever, counting calls; optionally stops the run (Ctrl-C) after N calls."""

    def __init__(self, inner, stop_after: int | None = None, fail_on: str | None = None) -> None:
        self.inner, self.stop_after, self.fail_on = inner, stop_after, fail_on
        self.name = inner.name
        self.queries: list[str] = []

    def retrieve(self, query: str) -> Retrieval:
        if self.stop_after is not None and len(self.queries) >= self.stop_after:
            raise KeyboardInterrupt
        self.queries.append(query)
        if self.fail_on is not None and self.fail_on in query:
            raise RuntimeError("index went away")
        return self.inner.retrieve(query)


@pytest.fixture(scope="module")
def bm25(tiny_index):
    retriever = open_retriever("bm25", tiny_index, k=3)
    yield retriever
    retriever.corpus.close()


def test_collapse_to_documents_keeps_best_chunk_order():
    doc_of = {"a#0": "a", "b#0": "b", "a#1": "a", "c#0": "c"}
    assert collapse_to_documents(["a#1", "b#0", "a#0", "c#0"], doc_of, 2) == ["a", "b"]


@pytest.mark.parametrize("leg", ["bm25", "dense", "hybrid", "hybrid+rerank"])
def test_every_leg_finds_the_obvious_document(tiny_index, leg):
    retriever = open_retriever(leg, tiny_index, k=3)
    try:
        got = retriever.retrieve("stone bridge built in 1820")
    finally:
        retriever.corpus.close()
    assert got.doc_ids[0] == "Ashford Bridge"
    assert len(got.doc_ids) == len(set(got.doc_ids)) <= 3
    assert got.chunk_ids and all("#" in c for c in got.chunk_ids)
    assert retriever.name == leg if leg != "hybrid+rerank" else retriever.name.startswith("hybrid+rerank:")


def test_leg_and_reranker_must_agree(tiny_index):
    from corpus_tools import Corpus

    with Corpus.open(tiny_index, reranker="biencoder") as corpus:
        with pytest.raises(ValueError, match="reranker='none'"):
            SingleShotRetriever(corpus, "hybrid")
        with pytest.raises(ValueError, match="leg must be one of"):
            SingleShotRetriever(corpus, "splade")
    with pytest.raises(ValueError, match="retriever must be one of"):
        open_retriever("colbert", tiny_index)


def test_run_writes_one_scored_record_per_task(tmp_path, hotpot_bench, bm25):
    tasks = _tasks(hotpot_bench)
    out = tmp_path / "run.jsonl"
    records = run_eval(tasks, bm25, out, k=3, doc_text=document_texts(hotpot_bench.documents), progress=False)
    assert [r.task_id for r in records] == [t.task_id for t in tasks]
    lines = out.read_text().splitlines()
    assert len(lines) == len(tasks)
    first = json.loads(lines[0])
    assert {"task_id", "run", "doc_ids", "chunk_ids", "metrics", "usage", "timings", "task", "trajectory"} <= set(first)
    s1 = next(r for r in records if r.task_id == "s1")
    assert s1.doc_ids[0] == "Ashford Bridge"
    assert s1.metrics["document.recall@1"] == 1.0 and s1.metrics["answer_found"] == 1.0
    assert "document.recall@5" not in s1.metrics  # k=3
    assert "document.recall" not in next(r for r in records if r.task_id == "s5").metrics  # no gold
    assert read_run(out) == records


def test_interrupted_run_resumes_without_duplicates(tmp_path, hotpot_bench, bm25):
    tasks = _tasks(hotpot_bench)
    out = tmp_path / "run.jsonl"
    first = Counting(bm25, stop_after=3)
    with pytest.raises(KeyboardInterrupt):
        run_eval(tasks, first, out, k=3, progress=False)
    assert len(out.read_text().splitlines()) == 3
    second = Counting(bm25)
    records = run_eval(tasks, second, out, k=3, progress=False)
    assert len(second.queries) == len(tasks) - 3  # only the missing tasks ran
    ids = [json.loads(line)["task_id"] for line in out.read_text().splitlines()]
    assert sorted(ids) == sorted(t.task_id for t in tasks) and len(ids) == len(set(ids))
    assert [r.task_id for r in records] == [t.task_id for t in tasks]


def test_truncated_last_line_is_dropped_and_rerun(tmp_path, hotpot_bench, bm25):
    tasks = _tasks(hotpot_bench)
    out = tmp_path / "run.jsonl"
    run_eval(tasks[:4], bm25, out, k=3, progress=False)
    data = out.read_bytes()
    out.write_bytes(data[: len(data) - 40])  # the last record, cut off mid-write
    assert len(read_run(out)) == 3  # readable as is
    again = Counting(bm25)
    run_eval(tasks, again, out, k=3, progress=False)
    assert len(again.queries) == len(tasks) - 3
    lines = out.read_text().splitlines()
    assert len(lines) == len(tasks)
    assert all(json.loads(line) for line in lines)  # every line is whole JSON again
    assert len({json.loads(line)["task_id"] for line in lines}) == len(tasks)


def test_broken_line_in_the_middle_is_an_error(tmp_path, hotpot_bench, bm25):
    tasks = _tasks(hotpot_bench)
    out = tmp_path / "run.jsonl"
    run_eval(tasks[:3], bm25, out, k=3, progress=False)
    lines = out.read_text().splitlines()
    out.write_text("\n".join([lines[0], "{not json", *lines[1:]]) + "\n")
    before = out.read_bytes()
    with pytest.raises(ValueError, match=r"run\.jsonl:2"):
        run_eval(tasks, bm25, out, k=3, progress=False)
    assert out.read_bytes() == before  # nothing lost or rewritten


def test_concurrent_workers_complete_every_task_once(tmp_path, hotpot_bench, bm25):
    tasks = _tasks(hotpot_bench)
    out = tmp_path / "run.jsonl"
    records = run_eval(tasks, bm25, out, k=3, workers=3, progress=False)
    assert [r.task_id for r in records] == [t.task_id for t in tasks]
    assert len(out.read_text().splitlines()) == len(tasks)
    serial = run_eval(tasks, bm25, tmp_path / "serial.jsonl", k=3, progress=False)
    assert [r.doc_ids for r in records] == [r.doc_ids for r in serial]


def test_a_failing_task_gets_an_error_record_and_can_be_retried(tmp_path, hotpot_bench, bm25):
    tasks = _tasks(hotpot_bench)
    out = tmp_path / "run.jsonl"
    records = run_eval(tasks, Counting(bm25, fail_on="priory gate"), out, k=3, progress=False)
    failed = next(r for r in records if r.task_id == "s3")
    assert failed.error == "RuntimeError: index went away" and failed.doc_ids == ()
    assert failed.metrics["document.recall"] == 0.0
    assert all(r.error is None for r in records if r.task_id != "s3")
    # without retry_errors the failed task counts as done; with it, only that task runs again
    again = Counting(bm25)
    run_eval(tasks, again, out, k=3, progress=False)
    assert again.queries == []
    records = run_eval(tasks, again, out, k=3, progress=False, retry_errors=True)
    assert again.queries == ["ruined priory gate"]
    assert next(r for r in records if r.task_id == "s3").error is None
    assert len(records) == len(tasks)


def test_duplicate_task_ids_are_refused(tmp_path, bm25):
    with pytest.raises(ValueError, match="unique"):
        run_eval([Task("a", "q"), Task("a", "q2")], bm25, tmp_path / "r.jsonl", progress=False)


def test_agent_runner_records_trajectory_and_usage(tmp_path, hotpot_bench, tiny_index):
    from context1 import trajectory_from_dict

    agent = open_retriever("agent", tiny_index, k=5)
    try:
        tasks = _tasks(hotpot_bench)[:3]
        records = run_eval(
            tasks,
            agent,
            tmp_path / "agent.jsonl",
            k=5,
            workers=2,
            doc_text=document_texts(hotpot_bench.documents),
            progress=False,
        )
    finally:
        agent.corpus.close()
    assert agent.name == "agent:iterative"
    for r in records:
        assert r.error is None
        assert r.usage["turns"] >= 1 and r.usage["tool_calls"] >= 1
        assert r.metrics["trajectory.document.recall"] is not None
        assert r.metrics["trajectory.document.recall"] >= r.metrics["document.recall"]  # output ⊆ what was seen
        traj = trajectory_from_dict(r.trajectory)
        assert traj.query == r.task.query and traj.steps
        # the agent's passages are the record's, and scored beside the documents (issue 34)
        assert r.passages and [c for c, _ in r.passages] == [e.chunk_id for e in traj.evidence]
        assert r.metrics["passage.n"] == len(r.passages) and "passage.document.recall@5" in r.metrics
    reread = {r.task_id: r for r in read_run(tmp_path / "agent.jsonl")}  # file order = completion order
    assert [reread[r.task_id].trajectory for r in records] == [r.trajectory for r in records]


def test_rescore_recomputes_metrics_from_stored_ids(tmp_path, hotpot_bench, tiny_index):
    from eval.runners import rescore, write_run
    from eval.scoring import ScoreConfig

    agent = open_retriever("agent", tiny_index, k=5)
    try:
        records = run_eval(
            _tasks(hotpot_bench)[:2],
            agent,
            tmp_path / "a.jsonl",
            k=5,
            progress=False,
            doc_text=document_texts(hotpot_bench.documents),
        )
    finally:
        agent.corpus.close()
    again = rescore(records, doc_text=document_texts(hotpot_bench.documents), k=5)
    assert [r.metrics for r in again] == [r.metrics for r in records]
    # a record written before passages existed: rescoring finds them in its trajectory (recomputed on load)
    import dataclasses

    old = []
    for r in records:
        traj = {k: v for k, v in r.trajectory.items() if k != "evidence"}
        old.append(dataclasses.replace(r, passages=(), trajectory=traj,
                                       metrics={k: v for k, v in r.metrics.items() if not k.startswith("passage.")}))
    revived = rescore(old, doc_text=document_texts(hotpot_bench.documents), k=5)
    assert all(r.passages and "passage.document.recall@5" in r.metrics for r in revived)
    narrow = rescore(records, k=5, config=ScoreConfig(ks=(1,)))
    assert all("document.recall@5" not in r.metrics and "answer_found" not in r.metrics for r in narrow)
    write_run(narrow, tmp_path / "b.jsonl")
    assert read_run(tmp_path / "b.jsonl") == narrow
