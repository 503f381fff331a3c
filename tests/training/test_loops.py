"""SFT and CISPO RL loops on the real SmolLM2-135M (CPU, LoRA rank 4, a few tiny steps).

One policy is loaded for the module and trained in place by each test in turn (the tests check
behaviour — masks, resumes, failures — not what the model learns).
"""

from __future__ import annotations

import dataclasses
import json

import pytest
import torch

from context1 import SearchAgent
from context1.types import BackendError
from training import rl as rl_module
from training.policy import LoRAConfig, load_policy, pad_datums, token_logprobs
from training.rl import RLConfig, agent_config_for_small_model, train_rl
from training.run_state import TrainingDiverged
from training.sft import SFTConfig, generate_teacher_trajectories, train_sft
from training.types import Datum, RewardBreakdown

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("lean_heap")]  # SFT/RL steps: tests/conftest.py


@pytest.fixture(scope="module")
def policy(smollm2):
    torch.manual_seed(0)
    return load_policy(smollm2, lora=LoRAConfig(rank=4, alpha=8), max_new_tokens=6, seed=0)


def _lora_norm(model) -> float:
    return float(sum(p.detach().abs().sum() for n, p in model.named_parameters() if "lora_B" in n))


def test_action_only_logits_match_the_full_forward(policy) -> None:
    d = Datum(tuple(range(100, 130)), tuple([0] * 20 + [1] * 5 + [0] * 3 + [1] * 2), tuple([0.0] * 30))
    batch = pad_datums([d], 0, "cpu")
    with torch.no_grad():
        fast, ent_fast = token_logprobs(policy.model, batch["ids"], batch["attn"], 1.0, batch["mask"])
        full, ent_full = token_logprobs(policy.model, batch["ids"], batch["attn"], 1.0)
    m = batch["mask"] > 0
    assert torch.allclose(fast[m], full[m], atol=1e-4) and torch.allclose(ent_fast[m], ent_full[m], atol=1e-3)
    assert (fast[~m] == 0).all()


def test_gradient_checkpointing_is_a_switch(policy, smollm2) -> None:
    # On by default (a 2k-token datum's activations are GiBs on CPU); off trades memory for ~25 % speed.
    assert policy.model.base_model.model.is_gradient_checkpointing
    fast = load_policy(smollm2, lora=LoRAConfig(rank=4, alpha=8, gradient_checkpointing=False), max_new_tokens=2)
    assert not fast.model.base_model.model.is_gradient_checkpointing


def test_sft_trains_on_teacher_trajectories(policy, mini_corpus, mini_tasks, tmp_path) -> None:
    from context1.backends import make_backend

    # a shorter datum (1.2k tokens, not 1.4k): a CPU step's activations grow with it (peak RSS of the suite)
    cfg = agent_config_for_small_model(search_token_budget=128, read_token_budget=128)
    teacher = make_backend("iterative", corpus=mini_corpus)
    trajs = generate_teacher_trajectories(mini_corpus, mini_tasks[:1], teacher, cfg, tmp_path / "t.jsonl",
                                          progress=False)
    assert trajs and (tmp_path / "t.jsonl").is_file()
    # The teacher's turns, rendered in the student's template, are the only trained tokens.
    from training.datums import sft_datums

    (datum,) = sft_datums(trajs[0], policy.tokenizer)  # the teacher never pruned: one segment
    actions = policy.tokenizer.decode([t for t, m in zip(datum.input_ids_T, datum.action_mask_T, strict=True) if m])
    assert actions.count("<|im_end|>") == len(trajs[0].steps)
    assert '"name": "search_corpus"' in actions and "<Passage id=" in actions  # the answer cites passages
    assert "<tool_response" not in actions and "# Tools" not in actions
    before = _lora_norm(policy.model)
    result = train_sft(trajs, tmp_path / "sft", SFTConfig(epochs=2, batch_size=1, lr=1e-3, checkpoint_every=1),
                       policy=policy, progress=False)
    rows = [json.loads(x) for x in (tmp_path / "sft" / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2] and result.datums >= 1
    assert rows[1]["loss"] < rows[0]["loss"]  # the same datum twice: the second pass fits it better
    assert _lora_norm(policy.model) > before  # LoRA B starts at zero
    assert (tmp_path / "sft" / "adapter" / "adapter_config.json").is_file()
    assert not policy.model.training  # handed back ready to sample with the KV cache


def _varied_rewards(monkeypatch) -> None:
    """Rewards that differ within a group, so the loop has something to learn from."""
    counter = iter(range(10_000))

    def fake(traj, task, *, beta, chunk_text=None, config=None, max_turns=None):
        r = float(next(counter) % 3) / 2
        return RewardBreakdown(r, r, beta, r, r, 0.0, 0.0, 0.0, r)

    monkeypatch.setattr(rl_module, "compute_reward", fake)


def test_rl_steps_failures_resume_and_divergence(policy, mini_corpus, mini_tasks, tmp_path, monkeypatch) -> None:
    _varied_rewards(monkeypatch)
    real_generate = type(policy).generate
    policy.model.train()  # as a caller might hand it over: rollouts must still sample in eval mode
    modes = []

    real_batch = type(policy).generate_batch

    def flaky(self, messages, tools):  # every rollout of the second task fails
        modes.append(self.model.training)
        if any("glassblower" in m.content for m in messages):
            raise BackendError("server went away")
        return real_generate(self, messages, tools)

    def flaky_batch(self, requests):  # the batched path (RLConfig.rollout_mode="batched"): the same failures
        modes.append(self.model.training)
        bad = [any("glassblower" in m.content for m in msgs) for _, msgs, _ in requests]
        good = real_batch(self, [r for r, b in zip(requests, bad, strict=True) if not b]) if not all(bad) else []
        it = iter(good)
        return [BackendError("server went away") if b else next(it) for b in bad]

    monkeypatch.setattr(type(policy), "generate", flaky)
    monkeypatch.setattr(type(policy), "generate_batch", flaky_batch)
    cfg = RLConfig(steps=1, epochs=1, tasks_per_step=2, group_size=2, substeps=2, lr=1e-3, max_new_tokens=4,
                   lora=LoRAConfig(rank=4, alpha=8))
    agent_cfg = agent_config_for_small_model(max_turns=1, system_prompt="Find the documents. Use the tools.")
    out = tmp_path / "rl"
    before = _lora_norm(policy.model)
    # the base model in 4 tokens makes no valid call: said once, at the first step (session 24's H200 finding)
    with pytest.warns(UserWarning, match="step 1: no valid tool call"):
        train_rl(mini_corpus, mini_tasks, out, cfg, agent_config=agent_cfg, policy=policy, progress=False,
                 chunk_text=lambda c: None, save_rollouts=True)
    (row,) = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    assert row["groups_all_failed"] == 1 and row["rollouts_failed"] == 2 and row["groups_used"] == 1
    assert 0.0 <= row["empty_answer"] <= 1.0 and row["empty_answer"] + row["no_answer"] <= 1.0
    saved = rl_module.read_rollouts(out / rl_module.ROLLOUTS_FILE)  # what was trained on, failures included
    assert sorted(r["failed"] for r in saved) == [False, False, True, True]
    assert all(r["reward"] == 0.0 and r["task_id"] == "t-bay" for r in saved if r["failed"])
    assert all(r["trajectory"].steps[0].turn.token_ids for r in saved if not r["failed"])
    assert row["datums"] == 2 and row["action_tokens"] > 0 and row["entropy"] > 0
    assert modes and not any(modes)  # every rollout sampled in eval mode (KV cache on)
    assert _lora_norm(policy.model) != before
    # A run killed after logging step 2 but before checkpointing it: resume redoes step 2 once.
    with (out / "metrics.jsonl").open("a") as fh:
        fh.write(json.dumps({"step": 2, "reward": 123.0}) + "\n")
    train_rl(mini_corpus, mini_tasks, out, dataclasses.replace(cfg, steps=2), agent_config=agent_cfg, policy=policy,
             resume=True, progress=False, chunk_text=lambda c: None)
    rows = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2] and rows[1]["reward"] != 123.0
    # NaN loss: a clear stop, and the checkpoint of step 2 is kept.
    monkeypatch.setattr(rl_module, "cispo_loss", lambda *a, **k: (torch.tensor(float("nan"), requires_grad=True),
                                                                   None))
    with pytest.raises(TrainingDiverged, match="NaN|nan"):
        train_rl(mini_corpus, mini_tasks, out, dataclasses.replace(cfg, steps=3), agent_config=agent_cfg,
                 policy=policy, resume=True, progress=False, chunk_text=lambda c: None)
    state = torch.load(out / "checkpoint" / "state.pt", weights_only=True)
    assert state["step"] == 2
    assert [json.loads(x)["step"] for x in (out / "metrics.jsonl").read_text().splitlines()] == [1, 2]


def test_adapter_loads_into_the_transformers_backend(policy, smollm2, mini_corpus, tmp_path) -> None:
    from context1.backends import make_backend

    model = policy.model
    saved = {n: p.detach().clone() for n, p in model.named_parameters() if "lora_B" in n}
    with torch.no_grad():  # a non-zero adapter: a fresh one (B = 0) would change nothing
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.add_(0.05 * torch.randn_like(p, generator=torch.Generator().manual_seed(1)))
    model.save_pretrained(str(tmp_path / "adapter"))
    ids = torch.tensor([list(range(300, 340))])
    with torch.no_grad():
        trained = model(input_ids=ids).logits[0, -1].log_softmax(-1)
        with model.disable_adapter():  # the base model's distribution (one model fewer in memory)
            plain = model(input_ids=ids).logits[0, -1].log_softmax(-1)
        for name, p in model.named_parameters():  # put the module's policy back as it was
            if name in saved:
                p.copy_(saved[name])
    backend = make_backend("transformers", model=str(smollm2), adapter=tmp_path / "adapter", max_new_tokens=4,
                           temperature=0.0)
    with torch.no_grad():
        loaded = backend.model(input_ids=ids).logits[0, -1].log_softmax(-1)
    # The loaded backend computes the trained policy's distribution (merged: fp32 rounding only),
    # not the base model's.
    assert torch.allclose(loaded, trained, atol=1e-3)
    assert (loaded - plain).abs().max() > 100 * (loaded - trained).abs().max()
    result = SearchAgent(mini_corpus, backend, agent_config_for_small_model(max_turns=1)).run("Who is the mayor?")
    turn = result.trajectory.steps[0].turn
    assert turn.token_ids and len(turn.logprobs) == len(turn.token_ids)
    with pytest.raises(FileNotFoundError, match="adapter_config.json"):
        make_backend("transformers", model=str(smollm2), adapter=tmp_path / "nothing-here")


def test_rollouts_sample_with_the_adapter_merged_and_the_weights_come_back(policy) -> None:
    from training.policy import lora_merged_for_sampling

    model = policy.model
    with torch.no_grad():  # a non-zero adapter, else merging changes nothing
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.add_(0.01 * torch.randn_like(p))
    base = {n: p.detach().clone() for n, p in model.named_parameters() if "base_layer" in n}
    ids = torch.tensor([list(range(200, 240))])
    with torch.no_grad():
        unmerged = model(input_ids=ids).logits
        with lora_merged_for_sampling(model) as merged:
            assert merged
            inside = model(input_ids=ids).logits
            # the deltas are really in the base weights while sampling
            assert any(not torch.equal(p, base[n]) for n, p in model.named_parameters() if n in base)
    # the same distribution up to fp32 rounding through 30 layers (what the CISPO ratio sees)
    assert torch.allclose(unmerged.log_softmax(-1), inside.log_softmax(-1), atol=1e-3)
    for n, p in model.named_parameters():
        if n in base:
            assert torch.allclose(p, base[n], atol=1e-6), n
    # bf16 weights would drift by an ulp of bf16 each step: those sample unmerged
    from peft import LoraConfig, get_peft_model

    tiny = get_peft_model(torch.nn.Sequential(torch.nn.Linear(4, 4)), LoraConfig(r=2, target_modules=["0"]))
    with lora_merged_for_sampling(tiny) as merged:
        assert merged
    with lora_merged_for_sampling(tiny.to(torch.bfloat16)) as merged:
        assert not merged
