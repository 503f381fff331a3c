"""Honest resumes (issue 37): a run folder records its configuration; resuming it with other settings,
from another version, or from a checkpoint that is not ours is a clear error before any rollout, and
nothing is ever unpickled (`torch.load(weights_only=True)`). `train policy` refuses to hand back an
untrained prior as if it had learned something."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from eval.types import Task
from training.run_state import ForeignCheckpoint, RunDir, RunMismatch, load_state_file


class _Model:
    def save_pretrained(self, path):
        Path(path).mkdir(parents=True)
        (Path(path) / "adapter_config.json").write_text("{}")


def _trained(tmp_path, config) -> RunDir:
    run = RunDir(tmp_path / "run")
    assert run.begin(config, resume=True) is False  # nothing to resume: a fresh run
    run.log(1, {"reward": 0.1})
    run.save(_Model(), None, 1)
    return run


def test_a_state_round_trips_under_weights_only_with_both_rngs(tmp_path) -> None:
    run = _trained(tmp_path, {"lr": 0.1})
    random.seed(5)
    torch.manual_seed(5)
    run.save(_Model(), torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.1), 2)
    expected = (random.random(), float(torch.rand(1)))
    random.seed(99)
    torch.manual_seed(99)
    state = RunDir(tmp_path / "run").load_state()
    assert state["step"] == 2 and state["optimizer"]["param_groups"][0]["lr"] == 0.1
    assert (random.random(), float(torch.rand(1))) == expected


class _Payload:
    def __reduce__(self):  # what a hostile pickle does: run code at load time
        return (Path.touch, (Path(_Payload.target),))


def test_a_checkpoint_that_is_not_ours_is_refused_not_unpickled(tmp_path) -> None:
    run = _trained(tmp_path, {"lr": 0.1})
    state = run.checkpoint / "state.pt"
    _Payload.target = str(tmp_path / "pwned")
    torch.save({"step": 1, "format": "context1-run-state/2", "x": _Payload()}, state)
    with pytest.raises(ForeignCheckpoint, match="refused, not unpickled"):
        run.load_state()
    assert not (tmp_path / "pwned").exists()
    state.write_bytes(pickle.dumps({"step": 1}))  # a plain pickle, not a torch file
    with pytest.raises(ForeignCheckpoint):
        load_state_file(state)
    # the format before issue 37 (random.getstate() tuple, no format key) is named, not guessed at
    torch.save({"step": 1, "optimizer": None, "torch_rng": torch.get_rng_state(), "python_rng": random.getstate()},
               state)
    with pytest.raises(ForeignCheckpoint, match="format: none"):
        load_state_file(state)


def test_resuming_with_other_settings_or_from_another_version_is_a_clear_error(tmp_path) -> None:
    _trained(tmp_path, {"lr": 0.1, "agent": {"max_turns": 3}})
    again = RunDir(tmp_path / "run")
    assert again.begin({"lr": 0.1, "agent": {"max_turns": 3}}, resume=True) is True
    with pytest.raises(RunMismatch, match=r"agent\.max_turns: 3 → 4.*--fresh"):
        again.begin({"lr": 0.1, "agent": {"max_turns": 4}}, resume=True)
    record = json.loads((tmp_path / "run" / "run.json").read_text())
    (tmp_path / "run" / "run.json").write_text(json.dumps({**record, "version": "0.0.1"}))
    with pytest.raises(RunMismatch, match="written by context1 0.0.1"):
        again.begin({"lr": 0.1, "agent": {"max_turns": 3}}, resume=True)
    (tmp_path / "run" / "run.json").unlink()  # a folder from before run.json existed
    with pytest.raises(RunMismatch, match="without run.json"):
        again.begin({"lr": 0.1, "agent": {"max_turns": 3}}, resume=True)
    assert (again.checkpoint / "state.pt").is_file()  # refused: nothing was reset
    assert again.begin({"lr": 0.2}, resume=False) is False  # --fresh starts over
    assert not again.checkpoint.exists() and json.loads((tmp_path / "run" / "run.json").read_text())["config"] == {
        "lr": 0.2}


def test_train_rl_refuses_another_runs_folder_before_loading_a_model(tmp_path) -> None:
    from training.rl import RLConfig, train_rl

    _trained(tmp_path, {"kind": "rl", "rl": {"lr": 1.0}})
    task = Task("t", "q", gold_doc_ids=("a",))
    with pytest.raises(RunMismatch, match="other settings"):  # the model path does not even exist
        train_rl(object(), [task], tmp_path / "run", RLConfig(steps=1), model_path=tmp_path / "no-model",
                 resume=True, progress=False)


@pytest.fixture()
def policy_cli(mini_corpus, mini_tasks, tmp_path):
    from context1.interfaces.cli import app
    from training.cli import register

    register(app) if "train" not in {g.name for g in app.registered_groups} else None
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps(dataclasses.asdict(t)) + "\n" for t in mini_tasks))

    def run(*extra):
        return CliRunner().invoke(app, ["train", "policy", str(mini_corpus.path), "--tasks", str(tasks), "--out",
                                        str(tmp_path / "policy"), "--min-tasks", "1", *extra])
    return run


def test_train_policy_exits_non_zero_when_it_would_learn_nothing_and_on_other_flags(policy_cli, tmp_path) -> None:
    # two tasks: a handful of labelled decisions, below the 5 a fit needs; no CISPO steps
    res = policy_cli()
    assert res.exit_code != 0, res.output
    assert "would learn nothing" in res.output and "labelled decision" in res.output
    assert not (tmp_path / "policy" / "weights.npz").exists()  # no untrained policy handed back as trained
    res = policy_cli("--doc-anchor", "0.5")  # resumes by default: another flag is refused, naming it
    assert res.exit_code != 0 and "doc_anchor: 1.0 → 0.5" in res.output and "--fresh" in res.output
    res = policy_cli("--agreement-weight", "0.05")  # the flag reaches the policy's config (saved, compared)
    assert res.exit_code != 0 and "agreement_weight: 0.0 → 0.05" in res.output, res.output
    assert policy_cli("--agreement-weight", "-1").exit_code != 0


def test_train_policy_says_which_prior_it_starts_from_and_refuses_a_prior_it_does_not_know(policy_cli) -> None:
    # issue 34, session 38: --start auto (the default) reads the index; the mini corpus's pages are no chat
    res = policy_cli("--fresh")
    assert "start: the hand prior (auto: no conversation corpus)" in res.output, res.output
    res = policy_cli("--fresh", "--start", "chat")
    assert "start: the chat prior" in res.output and "auto" not in res.output.split("start: the chat prior")[1][:8]
    for bad in ("shipped", "Auto"):
        res = policy_cli("--fresh", "--start", bad)
        assert res.exit_code != 0 and f"--start {bad!r}: choose auto, chat, hand" in res.output, res.output


def test_learned_nothing_names_why_and_only_when_nothing_was_learned() -> None:
    from training.search_policy import learned_nothing

    prior = {"query": {"train_decisions": 3, "chosen": "prior (too few labelled decisions)"},
             "doc": {"train_decisions": 0, "chosen": "prior (too few labelled decisions)"}}
    why = learned_nothing(prior, None, [])
    assert "query 3 labelled decision(s)" in why and "no CISPO steps" in why
    flat = [{"step": 1, "groups_used": 0}, {"step": 2, "groups_used": 0}]
    assert "2 CISPO step(s), none with a group" in learned_nothing(prior, None, flat)
    assert learned_nothing(prior, None, [*flat, {"step": 3, "groups_used": 1}]) is None  # CISPO updated
    assert learned_nothing(prior, {"n": 8}, []) is None  # best-of-N fine-tuned
    fitted = {**prior, "doc": {"train_decisions": 40, "chosen": "linear"}}
    assert learned_nothing(fitted, None, []) is None
    # the prior chosen on held-back tasks over a fit is a result, not "nothing learned"
    judged = {k: {"train_decisions": 40, "chosen": "prior"} for k in ("query", "doc")}
    assert learned_nothing(judged, None, []) is None


def test_train_policy_refuses_a_malformed_or_missing_extra_task_set(policy_cli, tmp_path, mini_corpus) -> None:
    res = policy_cli("--extra-tasks", "no-equals-sign")
    assert res.exit_code != 0 and "INDEX=TASKS" in res.output, res.output
    res = policy_cli("--extra-tasks", f"{mini_corpus.path}={tmp_path / 'missing.jsonl'}")
    assert res.exit_code != 0 and "no task file" in res.output, res.output
    res = policy_cli("--extra-tasks", f"{tmp_path / 'no-index'}={tmp_path / 'tasks.jsonl'}")
    assert res.exit_code != 0 and "no index at" in res.output, res.output
    assert not (tmp_path / "policy").exists()  # nothing written before the flags are read


def test_train_reranker_fusion_refuses_a_malformed_extra_task_set_and_a_cross_encoder_with_one(
        mini_corpus, tmp_path) -> None:
    from context1.interfaces.cli import app
    from training.cli import register

    register(app) if "train" not in {g.name for g in app.registered_groups} else None
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("")

    def run(*extra):
        return CliRunner().invoke(app, ["train", "reranker", str(mini_corpus.path), "--tasks", str(tasks), "--out",
                                        str(tmp_path / "fusion"), *extra])
    res = run("--extra-tasks", "no-equals-sign")
    assert res.exit_code == 2 and "INDEX=TASKS" in res.output, res.output
    res = run("--extra-tasks", f"{tmp_path / 'no-index'}={tasks}")
    assert res.exit_code == 2 and "no index at" in res.output, res.output
    res = run("--kind", "cross-encoder", "--extra-tasks", f"{mini_corpus.path}={tasks}")
    assert res.exit_code == 2 and "fusion only" in res.output, res.output
    assert not (tmp_path / "fusion").exists()


def test_train_policy_s_knobs_are_the_untrained_prior_s_but_its_weights_and_bare_config_is_base(policy_cli,
                                                                                               tmp_path) -> None:
    """Issue 34, session 52: the trained row and the prior row of the chain must differ in their weights only. Before,
    `train policy` built its knobs from a bare `IterativeConfig`, so a trained folder said conversation_first_search
    "speakers" where the untrained prior (`LearnedConfig()`) says "off". Now the knobs are the prior's, the
    --agreement-weight apart; --bare-config writes what base wrote. The run is refused for too few decisions, but its
    run.json (the knobs its policy.json would hold) is written first."""
    from context1.backends.iterative import IterativeConfig
    from context1.backends.learned import LearnedConfig

    def knobs() -> dict:
        return json.loads((tmp_path / "policy" / "run.json").read_text())["config"]["config"]["learned"]

    def plain(c: LearnedConfig) -> dict:
        return json.loads(json.dumps(c.to_dict()))

    policy_cli("--fresh", "--agreement-weight", "0.05")
    assert knobs() == plain(LearnedConfig())  # the prior's, agreement at its 0.05 as the chain passes it
    assert knobs()["iterative"]["conversation_first_search"] == "off"
    policy_cli("--fresh")  # the flag's own default (0): only the agreement weight differs from the prior's
    assert knobs() == plain(dataclasses.replace(
        LearnedConfig(), iterative=dataclasses.replace(LearnedConfig().iterative, agreement_weight=0.0)))
    policy_cli("--fresh", "--agreement-weight", "0.05", "--bare-config")
    assert knobs() == plain(LearnedConfig(iterative=IterativeConfig(agreement_weight=0.05, link_name_share=0.0,
                                                                    first_search_links=0, first_search_floor=0.0)))
    assert knobs()["iterative"]["conversation_first_search"] == "speakers"  # base's record
    # a folder made with base's knobs is not resumed silently with the prior's (the run.json names the change)
    res = policy_cli("--agreement-weight", "0.05")
    assert res.exit_code != 0 and "conversation_first_search" in res.output and "--fresh" in res.output, res.output
