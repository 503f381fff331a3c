"""vLLM as RL's sampler, against a stand-in engine (vLLM needs a CUDA GPU; none here, none in CI).

The stand-in implements only the surface VLLMBackend uses (`get_tokenizer`, `generate` with
`lora_request`, `reset_prefix_cache`) with the real SmolLM2 tokenizer, and replies from a script.
What is under test is our side: token in, token out across turns, the adapter-only reload after
every policy update (a new LoRA id, the adapter the trainer just saved), the prefix-cache reset,
and that every rollout is sampled by the sampler, never by the policy.
"""

from __future__ import annotations

import json
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import torch

from training import rl as rl_module
from training.policy import LoRAConfig, load_policy
from training.rl import RLConfig, agent_config_for_small_model, train_rl

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("lean_heap")]  # SFT/RL steps: tests/conftest.py

# Compact JSON, as models often write it: re-rendering the parsed call (json.dumps) would add spaces,
# so only a backend that extends the sampled ids passes the prefix test below.
SEARCH = '<tool_call>{"name":"search_corpus","arguments":{"query":"salt merchants river town mayor"}}</tool_call>'


@dataclass
class _Logprob:
    logprob: float


@dataclass
class _Completion:
    token_ids: list[int]
    logprobs: list[dict[int, _Logprob]]
    finish_reason: str = "stop"


@dataclass
class StandInEngine:
    """Replies SEARCH to its 1st, 3rd, ... request and prose to the others, so rewards differ in a group."""

    tokenizer: object
    prompts: list[list[int]] = field(default_factory=list)
    lora_requests: list[object] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)  # prompts per generate call
    seeds: list[int] = field(default_factory=list)
    cache_resets: int = 0

    def get_tokenizer(self):
        return self.tokenizer

    def generate(self, prompts, params, use_tqdm=False, lora_request=None):
        params = params if isinstance(params, list) else [params] * len(prompts)
        self.calls.append(len(prompts))
        out = []
        for prompt, p in zip(prompts, params, strict=True):
            text = SEARCH if len(self.prompts) % 2 == 0 else "I could not find it."
            self.prompts.append(list(prompt["prompt_token_ids"]))
            self.lora_requests.append(lora_request)
            self.seeds.append(p.seed)
            ids = self.tokenizer(text, add_special_tokens=False)["input_ids"] + [p.stop_token_ids[-1]]
            ids = ids[: p.max_tokens]
            out.append(types.SimpleNamespace(outputs=[_Completion(ids, [{t: _Logprob(-0.5)} for t in ids])]))
        return out

    def reset_prefix_cache(self) -> bool:
        self.cache_resets += 1
        return True


@pytest.fixture
def fake_vllm(monkeypatch):
    """The two names VLLMBackend imports from vllm: SamplingParams and LoRARequest."""
    vllm = types.ModuleType("vllm")
    vllm.SamplingParams = lambda **kw: types.SimpleNamespace(**kw)
    lora, request = types.ModuleType("vllm.lora"), types.ModuleType("vllm.lora.request")
    request.LoRARequest = lambda name, int_id, path: types.SimpleNamespace(name=name, id=int_id, path=path)
    for name, module in (("vllm", vllm), ("vllm.lora", lora), ("vllm.lora.request", request)):
        monkeypatch.setitem(sys.modules, name, module)
    return vllm


@pytest.fixture(scope="module")
def policy(smollm2):
    torch.manual_seed(0)
    return load_policy(smollm2, lora=LoRAConfig(rank=4, alpha=8), max_new_tokens=8, seed=0)  # checkpointing on: peak RSS


def test_vllm_turns_extend_the_previous_prompt_and_sampled_ids(fake_vllm, policy, mini_corpus, mini_tasks) -> None:
    from context1 import SearchAgent
    from context1.backends.vllm_backend import VLLMBackend

    engine = StandInEngine(policy.tokenizer)
    backend = VLLMBackend("stand-in", llm=engine, max_new_tokens=64, seed=0)
    cfg = agent_config_for_small_model(max_turns=2)
    result = SearchAgent(mini_corpus, backend=backend, config=cfg).run(mini_tasks[0].query)
    steps = result.trajectory.steps
    assert len(steps) == 2 and steps[0].turn.tool_calls  # the search ran, so the chat only grew
    first, second = steps[0].turn, steps[1].turn
    prefix = list(first.prompt_token_ids) + list(first.token_ids)
    assert list(second.prompt_token_ids[: len(prefix)]) == prefix
    assert engine.prompts[1] == list(second.prompt_token_ids)


def test_rl_with_a_vllm_sampler_reloads_only_the_adapter_after_each_update(
    fake_vllm, policy, mini_corpus, mini_tasks, tmp_path, monkeypatch
) -> None:
    from context1.backends.vllm_backend import VLLMBackend

    engine = StandInEngine(policy.tokenizer)
    sampler = VLLMBackend("stand-in", llm=engine, max_new_tokens=64, seed=0)

    def policy_must_not_sample(self, messages, tools):
        raise AssertionError("the policy sampled a rollout; the sampler should have")

    monkeypatch.setattr(type(policy), "generate", policy_must_not_sample)
    monkeypatch.setattr(type(policy), "generate_batch", policy_must_not_sample)
    published: list[dict[str, torch.Tensor]] = []
    real_publish = rl_module.publish_adapter

    def spy(model, smp, folder, step):
        target = real_publish(model, smp, folder, step)
        from safetensors.torch import load_file

        published.append(load_file(str(Path(target) / "adapter_model.safetensors")))
        return target

    monkeypatch.setattr(rl_module, "publish_adapter", spy)
    # a group of 2 is a SEARCH and a prose reply (the stand-in alternates): rewards differ, the group is used
    cfg = RLConfig(steps=2, epochs=1, tasks_per_step=1, group_size=2, substeps=1, lr=1e-2, max_new_tokens=64,
                   lora=LoRAConfig(rank=4, alpha=8))
    agent_cfg = agent_config_for_small_model(max_turns=1, system_prompt="Find the documents. Use the tools.")
    out = tmp_path / "rl"
    train_rl(mini_corpus, mini_tasks[:1], out, cfg, agent_config=agent_cfg, policy=policy, sampler=sampler,
             progress=False, chunk_text=lambda c: None)
    rows = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2] and all(r["groups_used"] == 1 for r in rows)
    # before step 1, then after each of the two updates: a fresh LoRA id each time, prefix cache dropped
    assert len(published) == 3 and engine.cache_resets == 3
    ids = [r.id for r in engine.lora_requests]
    assert ids == sorted(ids) and len(set(ids)) == 2  # step 1's rollouts under id 1, step 2's under id 2
    assert engine.lora_requests[-1].path.endswith("step-00001")
    assert any(not torch.equal(published[0][k], published[1][k]) for k in published[0])  # the update travelled
    assert sorted(p.name for p in (out / "sampler_adapter").iterdir()) == ["step-00001", "step-00002"]


def test_a_sampler_that_cannot_follow_the_policy_is_refused(policy, mini_corpus, mini_tasks, tmp_path) -> None:
    with pytest.raises(TypeError, match="load_adapter"):
        train_rl(mini_corpus, mini_tasks, tmp_path / "rl", RLConfig(steps=1, tasks_per_step=1, group_size=2),
                 policy=policy, sampler=object(), progress=False, chunk_text=lambda c: None)


def test_vllm_generates_every_waiting_episode_in_one_call(fake_vllm, policy, mini_corpus) -> None:
    import random

    from context1 import SearchAgent
    from context1.backends.vllm_backend import VLLMBackend
    from context1.lockstep import run_lockstep

    engine = StandInEngine(policy.tokenizer)
    backend = VLLMBackend("stand-in", llm=engine, max_new_tokens=64, seed=0)
    agent = SearchAgent(mini_corpus, backend=backend, config=agent_config_for_small_model(max_turns=2))
    queries = ["Who is the mayor of Veldhaven?", "Where was Ilsa Marrow born?", "Who designed the lighthouse?",
               "What is the Ostmere?"]
    trajs = run_lockstep(agent, queries, seeds=[11, 12, 13, 14])
    # turn 1: all four in one call; the stand-in answers SEARCH to 1st and 3rd, prose to the others,
    # so two episodes end and the two that searched share the second call
    assert engine.calls == [4, 2]
    assert [len(t.steps) for t in trajs] == [2, 1, 2, 1]
    for t in (trajs[0], trajs[2]):  # token in, token out per episode, inside a batch
        first, second = t.steps[0].turn, t.steps[1].turn
        prefix = list(first.prompt_token_ids) + list(first.token_ids)
        assert list(second.prompt_token_ids[: len(prefix)]) == prefix
    # each request carries its own episode's seed stream (what with_seed(seed) would draw one by one)
    assert engine.seeds[:4] == [random.Random(s).randrange(2**31) for s in (11, 12, 13, 14)]


def test_vllm_batch_refuses_only_the_prompt_past_max_model_len(fake_vllm, policy) -> None:
    import types as t

    from context1.backends.vllm_backend import VLLMBackend
    from context1.types import BackendError, Message, Role

    engine = StandInEngine(policy.tokenizer)
    engine.llm_engine = t.SimpleNamespace(model_config=t.SimpleNamespace(max_model_len=200))
    backend = VLLMBackend("stand-in", llm=engine, max_new_tokens=16, seed=0)
    small = [Message(role=Role.USER, content="Say hello.")]
    huge = [Message(role=Role.USER, content="word " * 400)]
    out = backend.generate_batch([(backend.with_seed(0), small, []), (backend.with_seed(1), huge, []),
                                  (backend.with_seed(2), small, [])])
    assert isinstance(out[1], BackendError) and "max_model_len" in str(out[1])
    assert not isinstance(out[0], BackendError) and not isinstance(out[2], BackendError)
    assert engine.calls == [2]  # the others went on, together
