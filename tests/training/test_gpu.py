"""The GPU path: sampler log-probs against the trainer's, a policy/adapter update reaching the
sampler, token in / token out across a pruned episode, bf16 CISPO steps. Marked `gpu`: deselected
by default (addopts -m 'not gpu'); they run wherever CUDA is:

    pytest -m gpu tests/training/test_gpu.py                       # the bundled SmolLM2 GGUF
    CONTEXT1_GPU_MODEL=/models/SmolLM2-135M-Instruct pytest -m gpu tests/training/test_gpu.py

Each sampler test runs with the transformers sampler (the policy samples its own rollouts, bf16,
batched by `generate_batch`) and with vLLM when it is installed and CONTEXT1_GPU_MODEL is a Hugging
Face folder with safetensors weights (vLLM's LoRA path does not take a GGUF).
Status (issue 23): the transformers rows ran on an H200 on 2026-11-26 (two passed; the parity bound
and the pruned-episode test's seed were changed after that run and have not run on a GPU since:
docs/LOG.md). A second lease ran the merged batched sampler and CISPO micro-batches through
benchmarks/gpu_check.py (parity mean 0.046, p99 0.20: inside this file's bounds) but ran out before
this suite. The vLLM rows have never run (no vLLM wheel reaches this project's GPU machine).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.gpu, pytest.mark.slow]

# Sampler vs trainer log-probs of the same tokens, both bf16 weights, T = 1. The kernels differ in
# summation order (and the batched sampler pads), so equality is not expected; the CISPO ratio
# exp(Δ) must stay near 1. Measured on an H200 with the transformers sampler (2026-11-26): this
# test 0.028 nats mean |Δ|; benchmarks/gpu_check.py over 3,134 tokens of real harness prompts
# mean 0.047, p99 0.21, max 0.37 (an fp32 trainer: 0.040 / 0.18, so bf16 rounding is most of it).
# The bounds leave room for other GPUs and kernels, not for a sampler off by more than rounding.
PARITY_MEAN, PARITY_P99 = 0.08, 0.35
PARITY_TOKENS = 256  # compared tokens at least (sampled across episodes)
LORA_RANK = 16  # vLLM's max_lora_rank accepts 8, 16, 32, 64, ...: rank 4 (the CPU tests') is refused


@pytest.fixture(scope="module")
def model_path() -> str:
    if not torch.cuda.is_available():
        pytest.skip("no CUDA GPU")
    from context1.backends.transformers_local import default_model_path

    path = os.environ.get("CONTEXT1_GPU_MODEL") or str(default_model_path())
    if not (Path(path) / "config.json").is_file() and not path.endswith(".gguf"):
        pytest.skip(f"CONTEXT1_GPU_MODEL={path!r} is neither a Hugging Face model folder nor a .gguf file")
    return path


@pytest.fixture(scope="module")
def policy(model_path):
    from training.policy import LoRAConfig, load_policy

    return load_policy(model_path, device="cuda", lora=LoRAConfig(rank=LORA_RANK, alpha=2 * LORA_RANK),
                       max_new_tokens=64, seed=0)


@pytest.fixture(scope="module", params=["transformers", "vllm"])
def sampler(request, model_path, policy):
    """The rollout sampler: the policy itself (transformers), or a vLLM engine following its adapter."""
    if request.param == "transformers":
        return policy
    pytest.importorskip("vllm")
    if not (Path(model_path) / "config.json").is_file():
        pytest.skip("vLLM needs CONTEXT1_GPU_MODEL to be a Hugging Face folder (its LoRA path takes no GGUF)")
    from context1.backends.vllm_backend import VLLMBackend

    engine = {"enable_lora": True, "max_lora_rank": LORA_RANK, "gpu_memory_utilization": 0.35, "dtype": "bfloat16"}
    return VLLMBackend(model_path, max_new_tokens=64, temperature=1.0, seed=0, engine_kwargs=engine)


def _follow(policy, sampler, folder: Path, step: int) -> None:
    """Give a separate sampler the policy's current adapter; the policy sampling itself needs nothing
    but to drop its cached ids and KV cache from before the update."""
    from training.rl import publish_adapter

    if sampler is policy:
        policy.reset()
    else:
        publish_adapter(policy.model, sampler, folder, step)


def _perturb(model, scale: float = 0.02) -> None:
    with torch.no_grad():
        g = torch.Generator(device="cpu").manual_seed(3)
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.add_((scale * torch.randn(p.shape, generator=g)).to(p.device, p.dtype))


def test_sampler_logprobs_match_the_trainers(policy, sampler, mini_corpus, mini_tasks, tmp_path) -> None:
    from context1 import SearchAgent
    from training.datums import trajectory_to_datums
    from training.policy import pad_datums, token_logprobs
    from training.rl import agent_config_for_small_model

    _perturb(policy.model)
    _follow(policy, sampler, tmp_path / "adapters", 1)
    deltas, n = [], 0
    # Episodes of every task and several seeds until PARITY_TOKENS sampled tokens are compared: one
    # episode gave 19 on the H200 (issue 37), too few for a p99.
    for seed in range(16):
        agent = SearchAgent(mini_corpus, sampler, agent_config_for_small_model(max_turns=2, seed=seed))
        for task in mini_tasks:
            traj = agent.run(task.query).trajectory
            for d in trajectory_to_datums(traj, 1.0, 0):
                batch = pad_datums([d], 0, "cuda")
                with torch.no_grad():
                    lp, _ = token_logprobs(policy.model, batch["ids"], batch["attn"], 1.0, batch["mask"])
                m = batch["mask"] > 0
                deltas.append((lp[m] - batch["old"][m]).abs().float().cpu())
                n += int(m.sum())
        if n >= PARITY_TOKENS:
            break
    delta = torch.cat(deltas)
    assert delta.numel() >= PARITY_TOKENS
    print(f"log-prob parity: {delta.numel()} tokens, mean |Δ| {delta.mean():.4f}, p99 {delta.quantile(0.99):.4f}")
    assert float(delta.mean()) <= PARITY_MEAN and float(delta.quantile(0.99)) <= PARITY_P99


def test_an_adapter_reload_changes_the_samples(policy, sampler, tmp_path) -> None:
    from context1.types import Message, Role

    messages = [Message(role=Role.USER, content="Name three rivers in Europe.")]
    sampler.temperature = 0.0
    try:
        _follow(policy, sampler, tmp_path / "a", 1)
        before = sampler.with_seed(0).generate(messages, []).token_ids
        _perturb(policy.model, 0.2)
        _follow(policy, sampler, tmp_path / "a", 2)
        after = sampler.with_seed(0).generate(messages, []).token_ids
    finally:
        sampler.temperature = 1.0
    assert before != after


def test_token_in_token_out_across_a_pruned_episode(sampler, mini_corpus, mini_tasks) -> None:
    from context1 import SearchAgent
    from context1.backends.scripted import call, turn
    from context1.harness import normalize_call_ids
    from training.datums import trajectory_to_datums
    from training.rl import agent_config_for_small_model

    agent = SearchAgent(mini_corpus, sampler, agent_config_for_small_model(max_turns=4))
    # An untrained adapter often answers at once (the H200 run's seed 5 did): take the first seed
    # whose model turn calls a tool, so that the episode goes on to the prune.
    for seed in range(5, 25):
        stream = sampler.with_seed(seed)
        episode = agent.episode(mini_tasks[0].query)
        episode.act(normalize_call_ids(turn(call("search_corpus", query="Veldhaven mayor")), 0))  # a search to prune
        first = stream.generate(episode.messages(), episode.tool_schemas)
        episode.act(first)
        if not episode.done:
            break
    else:
        pytest.skip("the model answered at once under 20 seeds; nothing to prune after")
    shown = episode.visible_chunk_ids()[:1]
    episode.act(normalize_call_ids(turn(call("prune_chunks", chunk_ids=shown)), len(episode.trajectory.steps)))
    assert not episode.done
    second = stream.generate(episode.messages(), episode.tool_schemas)
    # after the prune the prompt is rendered afresh (the prefix broke), and it shows the marker
    prefix = list(first.prompt_token_ids) + list(first.token_ids)
    assert list(second.prompt_token_ids[: len(prefix)]) != prefix
    rendered = sampler.tokenizer(sampler.render(episode.messages(), episode.tool_schemas),
                                 add_special_tokens=False)["input_ids"]
    assert list(second.prompt_token_ids) == rendered
    episode.act(second)
    datums = trajectory_to_datums(episode.trajectory, 1.0, 0)
    sampled = [list(s.turn.token_ids) for s in episode.trajectory.steps if s.turn.token_ids]
    got = [[i for i, m in zip(d.input_ids_T, d.action_mask_T, strict=True) if m] for d in datums]
    assert sum(got, []) == sum(sampled, [])  # every sampled id trained on exactly once, in order


def test_bf16_cispo_steps_move_the_adapter(policy, mini_corpus, mini_tasks, tmp_path) -> None:
    import dataclasses

    from training.rl import RLConfig, agent_config_for_small_model, train_rl

    assert all(p.dtype == torch.bfloat16 for n, p in policy.model.named_parameters() if "base_layer" in n)
    before = {n: p.detach().float().clone() for n, p in policy.model.named_parameters() if "lora_A" in n}
    cfg = RLConfig(steps=2, epochs=1, tasks_per_step=2, group_size=4, substeps=2, lr=1e-4, max_new_tokens=64)
    result = train_rl(mini_corpus, mini_tasks, tmp_path / "rl", cfg, agent_config=agent_config_for_small_model(),
                      policy=policy, progress=False)
    rows = result.metrics
    assert len(rows) == 2 and all(r["loss"] == r["loss"] for r in rows)  # finite (NaN != NaN)
    if any(r["datums"] for r in rows):
        assert any(not torch.equal(p.detach().float(), before[n])
                   for n, p in policy.model.named_parameters() if n in before)
    assert dataclasses.asdict(cfg)["rollout_mode"] == "batched"
