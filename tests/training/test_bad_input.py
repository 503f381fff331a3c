"""Bad input that needs no model: malformed task files, crashing backends, interrupted checkpoints."""

from __future__ import annotations

import json

import pytest

from context1 import AgentConfig
from context1.backends.scripted import ScriptedBackend, call, turn
from training.rollouts import load_task_file, run_rollout, score_rollout, summarize
from training.run_state import RunDir, TrainingDiverged, check_finite


def test_malformed_task_records_are_skipped_and_named(tmp_path) -> None:
    good = {"task_id": "a", "query": "Who?", "gold_doc_ids": ["veldhaven"]}
    lines = [
        json.dumps(good),
        "{not json",
        json.dumps(["a", "list"]),
        json.dumps({"task_id": "b"}),  # no query
        json.dumps({"task_id": "c", "query": "Why?"}),  # no gold to reward
        json.dumps(good),  # duplicate id
        json.dumps({"task_id": "d", "query": "When?", "gold_doc_ids": "veldhaven"}),  # a string, not a list
        "",
        json.dumps({"task_id": "e", "query": "Where?", "facts": [["korrin-bay"]], "hops": 2}),
    ]
    path = tmp_path / "tasks.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.warns(UserWarning, match="skipped 6 malformed"):
        tf = load_task_file(path)
    assert [t.task_id for t in tf.tasks] == ["a", "e"]
    assert len(tf.skipped) == 6 and tf.skipped[0].startswith("tasks.jsonl:2")
    assert any("duplicate task_id" in s for s in tf.skipped)


def test_a_task_file_with_nothing_usable_is_an_error(tmp_path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("{}\n")
    with pytest.raises(ValueError, match="no usable task records"), pytest.warns(UserWarning):
        load_task_file(path)
    with pytest.raises(FileNotFoundError):
        load_task_file(tmp_path / "missing.jsonl")


def test_a_backend_failing_mid_rollout_is_dropped_and_counted(mini_corpus, mini_tasks) -> None:
    cfg = AgentConfig(max_turns=4)
    # one good turn, then the script runs out: BackendError mid-rollout
    failing = ScriptedBackend([turn(call("search_corpus", query="mayor river town"))])
    ro = run_rollout(mini_corpus, failing, mini_tasks[0], cfg, seed=0)
    assert ro.failed and ro.trajectory is not None and "BackendError" in ro.error
    assert len(ro.trajectory.steps) == 1  # the partial trajectory is kept

    class Exploding:
        name = "exploding"

        def generate(self, messages, tools):
            raise RuntimeError("CUDA error: device-side assert")

        def count_tokens(self, text):
            return len(text.split())

    crashed = run_rollout(mini_corpus, Exploding(), mini_tasks[0], cfg, seed=0)
    assert crashed.failed and crashed.trajectory is None and "RuntimeError" in crashed.error
    summary = summarize([score_rollout(ro, cfg, None), score_rollout(crashed, cfg, None)])
    assert summary["failed"] == 1.0 and summary["n"] == 2.0


def test_metrics_past_the_checkpoint_are_dropped_on_resume(tmp_path) -> None:
    class Model:
        def save_pretrained(self, path):
            import pathlib

            pathlib.Path(path).mkdir(parents=True)
            (pathlib.Path(path) / "adapter_config.json").write_text("{}")

    run = RunDir(tmp_path)
    for step in (1, 2):
        run.log(step, {"reward": 0.1 * step})
        run.save(Model(), None, step)
    run.log(3, {"reward": 0.3})  # killed after logging step 3, before its checkpoint
    # and killed between the checkpoint renames of an even later save:
    (tmp_path / "checkpoint").rename(tmp_path / "checkpoint.old")
    state = RunDir(tmp_path).load_state()
    assert state["step"] == 2
    assert [r["step"] for r in run.read_metrics()] == [1, 2]
    assert (tmp_path / "adapter" / "adapter_config.json").is_file()


def test_non_finite_loss_stops_with_a_clear_message(tmp_path) -> None:
    check_finite(1.0, "loss", 1, tmp_path)
    with pytest.raises(TrainingDiverged, match="nan at step 7.*last good checkpoint"):
        check_finite(float("nan"), "the CISPO loss", 7, tmp_path)
    with pytest.raises(TrainingDiverged, match="inf"):
        check_finite(float("inf"), "the SFT loss", 1, tmp_path)
