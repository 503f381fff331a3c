"""The rollout log (`train rl --save-rollouts`, issue 37): every step's rollouts as trained on, read back
whole, so a reward can be audited or re-scored on exactly the same episodes (benchmarks/reward_rescore.py)."""

from __future__ import annotations

from context1.types import ModelTurn, RankedDocument, Step, StopReason, Trajectory
from eval.types import Task
from training.rl import read_rollouts, write_rollouts
from training.rollouts import Rollout

TASK = Task("t1", "Who?", answers=("Ilsa",), gold_doc_ids=("a",))


def _rollout(doc: str | None, tokens: tuple[int, ...] = (5, 6)) -> Rollout:
    if doc is None:  # an infrastructure failure: no trajectory
        return Rollout(TASK, None, error="server down")
    turn = ModelTurn(text=f"<Document id={doc}></Document>", prompt_token_ids=(1, 2), token_ids=tokens,
                     logprobs=(-0.5,) * len(tokens))
    traj = Trajectory(query=TASK.query, steps=[Step(turn=turn)], documents=[RankedDocument(doc)],
                      stop_reason=StopReason.ANSWERED)
    return Rollout(TASK, traj)


def test_rollouts_round_trip_and_a_redone_step_replaces_its_first_block(tmp_path) -> None:
    path = tmp_path / "rollouts.jsonl"
    jobs = [(TASK, 11), (TASK, 12), (TASK, 13)]
    write_rollouts(path, 1, jobs, [_rollout("a"), _rollout("b"), _rollout(None)], [1.0, 0.2, 0.0])
    # step 2 killed after its rollouts were written, then redone from the step-1 checkpoint
    write_rollouts(path, 2, jobs, [_rollout("b"), _rollout("b"), _rollout("b")], [0.2, 0.2, 0.2])
    write_rollouts(path, 2, jobs, [_rollout("a", (7,)), _rollout("b"), _rollout("a")], [1.0, 0.2, 1.0])
    with path.open("a", encoding="utf-8") as f:
        f.write('{"step": 3, "block": 9, "task_id": "t1", "traj')  # cut short by a kill mid-write
    rows = read_rollouts(path)
    assert [(r["step"], r["seed"]) for r in rows] == [(1, 11), (1, 12), (1, 13), (2, 11), (2, 12), (2, 13)]
    assert [r["reward"] for r in rows[3:]] == [1.0, 0.2, 1.0]  # the redone block, not the first
    first = rows[3]["trajectory"]
    assert isinstance(first, Trajectory) and first.documents[0].doc_id == "a"
    assert first.steps[0].turn.token_ids == (7,) and first.stop_reason is StopReason.ANSWERED
    assert rows[2]["failed"] and rows[2]["trajectory"] is None and rows[2]["error"] == "server down"
    assert not rows[0]["failed"] and rows[0]["task_id"] == "t1"


def test_the_cli_flag_reaches_train_rl(mini_corpus, mini_tasks, tmp_path, monkeypatch) -> None:
    import dataclasses
    import json

    from typer.testing import CliRunner

    import training.rl
    from context1.interfaces.cli import app
    from training.cli import register

    register(app) if "train" not in {g.name for g in app.registered_groups} else None
    seen = {}

    def fake_train_rl(*args, **kwargs):
        seen.update(kwargs)
        return training.rl.RLResult(tmp_path, 0, [])

    monkeypatch.setattr(training.rl, "train_rl", fake_train_rl)
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps(dataclasses.asdict(t)) + "\n" for t in mini_tasks))
    args = ["train", "rl", str(mini_corpus.path), "--tasks", str(tasks), "--out", str(tmp_path / "rl"), "--no-progress"]
    for extra, expected in (([], False), (["--save-rollouts"], True)):
        res = CliRunner().invoke(app, [*args, *extra])
        assert res.exit_code == 0, res.output
        assert seen["save_rollouts"] is expected
