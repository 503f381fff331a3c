"""benchmarks/policy_tasks.py's held-out slice (session 36): `--hold-out N` trains on the tuning part after its
first N questions, which `search_policy.py --split tuning --limit N` then measures out of sample."""

from __future__ import annotations

import sys

import pytest
from bench_modules import bench

from corpus_tools.types import Task
from eval.loaders.tasks import load_tasks, save_tasks


def _task(i: int, prefix: str = "t") -> Task:
    return Task(task_id=f"{prefix}{i}", query=f"question {prefix}{i}?", gold_doc_ids=[f"d{i}"])


def _run(monkeypatch, tmp_path, *argv: str) -> list[str]:
    pt = bench("policy_tasks")
    tuning, report = [_task(i) for i in range(10)], [_task(i, "r") for i in range(5)]
    monkeypatch.setattr(pt, "parts", lambda name, data_dir: (tuning, report))
    out = tmp_path / "tasks.jsonl"
    monkeypatch.setattr(sys, "argv", ["policy_tasks.py", "--set", "musique", "--out", str(out), *argv])
    pt.main()
    return [t.task_id for t in load_tasks(out).tasks]


def test_the_held_out_questions_are_never_trained_on(monkeypatch, tmp_path):
    gen = tmp_path / "gen.jsonl"
    # generated tasks: one new, one asking a held-out tuning question word for word
    save_tasks([_task(0, "g"), Task(task_id="g1", query="Question t2?", gold_doc_ids=["d2"])], gen)
    assert _run(monkeypatch, tmp_path) == [f"t{i}" for i in range(10)]  # default: the whole tuning part
    ids = _run(monkeypatch, tmp_path, "--hold-out", "4", "--extra", str(gen))
    assert ids == ["t4", "t5", "t6", "t7", "t8", "t9", "g0"]  # t0-t3 held out, and g1 (it asks t2)
    assert _run(monkeypatch, tmp_path, "--hold-out", "4", "--max-tuning", "3") == ["t4", "t5", "t6"]


@pytest.mark.parametrize(("argv", "says"), [(("--hold-out", "10"), "none would be left to train on"),
                                             (("--hold-out", "-1"), "0 or more"), (("--max-tuning", "-2"), "0 or more")])
def test_a_hold_out_leaving_nothing_or_a_negative_count_is_refused(monkeypatch, tmp_path, capsys, argv, says):
    with pytest.raises(SystemExit) as err:
        _run(monkeypatch, tmp_path, *argv)
    assert err.value.code == 2 and says in capsys.readouterr().err
    assert not (tmp_path / "tasks.jsonl").exists()  # nothing written


# session 48: a generated task whose chain is (most of) a reporting or held-out question's chain is no training data
CHAIN_FIXTURE = __import__("pathlib").Path(__file__).parents[1] / "fixtures" / "chain_leaks" / "generated.jsonl"


def _run_chains(monkeypatch, tmp_path, *argv: str) -> list[str]:
    pt = bench("policy_tasks")
    tuning = [Task(task_id="t0", query="Which state did Orla Brenn move to?", gold_doc_ids=["Amber Lantern (song)",
                                                                                          "Orla Brenn", "Kelbria"]),
              Task(task_id="t1", query="Who founded Orsberg Works?", gold_doc_ids=["Orsberg Works", "Veldmark"])]
    report = [Task(task_id="r0", query="Which river flows through the capital of Veldmark?",
                   gold_doc_ids=["Mount Orra", "Veldmark", "Orsberg", "Selk River"])]
    monkeypatch.setattr(pt, "parts", lambda name, data_dir: (tuning, report))
    out = tmp_path / "tasks.jsonl"
    monkeypatch.setattr(sys, "argv", ["policy_tasks.py", "--set", "musique", "--out", str(out),
                                      "--extra", str(CHAIN_FIXTURE), *argv])
    pt.main()
    return [t.task_id for t in load_tasks(out).tasks]


def test_a_generated_chain_sharing_two_gold_documents_with_a_reporting_question_is_dropped(monkeypatch, tmp_path):
    # off (the default): the file as before, every generated task kept
    assert _run_chains(monkeypatch, tmp_path, "--drop-leaks") == ["t0", "t1", "g-leak", "g-one", "g-held", "g-clean"]
    # g-leak shares Mount Orra and Veldmark with r0; g-one shares only Orsberg; a tuning question (t1 shares
    # Veldmark) is never dropped by the rule
    ids = _run_chains(monkeypatch, tmp_path, "--drop-leaks", "--chain-leaks", "2")
    assert ids == ["t0", "t1", "g-one", "g-held", "g-clean"]
    # g-held is t0's chain: dropped once t0 is held out (measured on), kept while t0 is trained on
    ids = _run_chains(monkeypatch, tmp_path, "--drop-leaks", "--chain-leaks", "2", "--hold-out", "1")
    assert ids == ["t1", "g-one", "g-clean"]


def test_a_chain_leak_without_drop_leaks_writes_nothing(monkeypatch, tmp_path, capsys):
    with pytest.raises(SystemExit) as err:
        _run_chains(monkeypatch, tmp_path, "--chain-leaks", "2")
    assert "share 2+ gold documents with a reporting question" in str(err.value)
    assert not (tmp_path / "tasks.jsonl").exists()


def test_an_empty_generated_task_file_is_said_and_the_tuning_part_still_written(monkeypatch, tmp_path, capsys):
    """A datagen run that wrote no task (an empty tasks.jsonl) adds nothing, and the run says so instead of
    training on the tuning part alone in silence (issue 34's chain reads GEN/SET/tasks.jsonl as it is)."""
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert _run(monkeypatch, tmp_path, "--extra", str(empty)) == [f"t{i}" for i in range(10)]
    assert f"note: {empty} holds no task" in capsys.readouterr().err
