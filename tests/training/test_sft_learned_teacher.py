"""`context1 train sft --teacher learned --policy DIR` and `train eval --backend learned` (issue 22).

No language model is loaded: `train_sft` is replaced by a recorder, so the tests see exactly the
teacher trajectories the command would train on.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from typer.testing import CliRunner

from context1 import SearchAgent, load_trajectories
from context1.backends.learned import PolicyWeights
from context1.interfaces.cli import app
from training import sft as sft_module
from training.cli import register
from training.rl import agent_config_for_small_model

register(app) if "train" not in {g.name for g in app.registered_groups} else None


@pytest.fixture()
def files(mini_corpus, mini_tasks, tmp_path):
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps(dataclasses.asdict(t)) + "\n" for t in mini_tasks))
    policy = PolicyWeights.prior().save(tmp_path / "policy")
    return str(mini_corpus.path), str(tasks), policy


@pytest.fixture()
def trained(monkeypatch):
    """Replace the LoRA training by a recorder of the trajectories it is handed."""
    seen: list = []

    def fake_train_sft(trajs, out, config, **_):
        seen.extend(trajs)
        return sft_module.SFTResult(out, 0, len(trajs), 0, None)

    monkeypatch.setattr(sft_module, "train_sft", fake_train_sft)
    return seen


def _calls(traj) -> list:
    return [[(c.name, c.arguments) for c in s.turn.tool_calls] for s in traj.steps]


def _docs(traj) -> list[str]:
    return [d.doc_id for d in traj.documents]


def _sft(index, tasks, out, *extra):
    return CliRunner().invoke(app, ["train", "sft", index, "--tasks", tasks, "--out", str(out), "--teacher", "learned",
                                    "--max-turns", "2", "--no-progress", *extra])


def test_a_learned_teacher_needs_a_real_policy_folder(files, tmp_path, trained):
    index, tasks, _ = files
    res = _sft(index, tasks, tmp_path / "o")
    assert res.exit_code != 0 and "--teacher learned needs --policy" in res.output
    res = _sft(index, tasks, tmp_path / "o", "--policy", str(tmp_path / "nothing-here"))
    assert res.exit_code != 0 and "no learned policy" in res.output
    (tmp_path / "foreign").mkdir()
    res = _sft(index, tasks, tmp_path / "o", "--policy", str(tmp_path / "foreign"))
    assert res.exit_code != 0 and "not a learned search policy folder" in res.output
    assert not trained


def test_best_of_n_samples_each_rollout_with_its_own_seed_and_n1_is_greedy(files, mini_corpus, tmp_path, trained):
    index, tasks, policy = files
    res = _sft(index, tasks, tmp_path / "b3", "--policy", str(policy), "--best-of", "3", "--seed", "5")
    assert res.exit_code == 0, res.output
    sampled = load_trajectories(tmp_path / "b3" / "teacher.jsonl")
    assert len(sampled) == 6 and "best-of-3: kept 2 of 6" in res.output
    assert {t.metadata["task_id"] for t in trained} <= {"t-mayor", "t-bay"}
    # rollout j samples with seed 5 + j: the same as the policy sampled by hand with that seed
    from context1.backends import make_backend

    cfg = agent_config_for_small_model(token_budget=2048, max_turns=2, max_documents=3)  # the command's
    by_hand = make_backend("learned", corpus=mini_corpus, policy=policy, temperature=1.0)
    for j in (0, 4):
        ref = SearchAgent(mini_corpus, by_hand, dataclasses.replace(cfg, seed=5 + j)).run(sampled[j].query).trajectory
        assert _calls(ref) == _calls(sampled[j]) and _docs(ref) == _docs(sampled[j])
    assert len({json.dumps([_calls(t), _docs(t)]) for t in sampled}) > 2  # the seeds differ, so do the rollouts

    trained.clear()
    res = _sft(index, tasks, tmp_path / "b1", "--policy", str(policy))
    assert res.exit_code == 0, res.output
    greedy = load_trajectories(tmp_path / "b1" / "teacher.jsonl")
    assert len(greedy) == 2
    ref = SearchAgent(mini_corpus, make_backend("learned", corpus=mini_corpus, policy=policy), cfg).run(greedy[0].query)
    assert _calls(ref.trajectory) == _calls(greedy[0]) and _docs(ref.trajectory) == _docs(greedy[0])


def test_eval_takes_the_learned_backend(files, tmp_path):
    index, tasks, policy = files
    args = ["train", "eval", index, "--tasks", tasks, "--backend", "learned", "--max-turns", "2", "--no-progress"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code != 0 and "--backend learned needs --policy" in res.output
    res = CliRunner().invoke(app, [*args, "--policy", str(policy), "--out", str(tmp_path / "e.jsonl")])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout[res.stdout.index("{"):])
    assert summary["n"] == 2 and summary["valid_tool_call_rate"] == 1.0


def test_a_resumed_sft_loads_the_checkpointed_adapter_once(tmp_path, monkeypatch):
    # sft_policy hands back a fresh LoRA; train_sft_datums copies the checkpoint's weights into it.
    (tmp_path / "checkpoint" / "adapter").mkdir(parents=True)
    (tmp_path / "checkpoint" / "state.pt").write_bytes(b"")
    calls: list[dict] = []
    monkeypatch.setattr(sft_module, "load_policy", lambda *a, **kw: calls.append(kw) or "policy")
    assert sft_module.sft_policy(sft_module.SFTConfig(), None, None) == "policy"
    assert calls and calls[0].get("adapter") is None
