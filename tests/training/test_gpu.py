"""The GPU path: sampler log-probs against the trainer's, a policy/adapter update reaching the
sampler, token in / token out across a pruned episode, bf16 CISPO steps. Marked `gpu`: deselected
by default (addopts -m 'not gpu'); they run wherever CUDA is:

    pytest -m gpu tests/training/test_gpu.py                       # the bundled SmolLM2 GGUF
    CONTEXT1_GPU_MODEL=/models/SmolLM2-135M-Instruct pytest -m gpu tests/training/test_gpu.py

Each sampler test runs with the transformers sampler (the policy samples its own rollouts, bf16,
batched by `generate_batch`) and with vLLM when it is installed and CONTEXT1_GPU_MODEL is a Hugging
Face folder with safetensors weights (vLLM's LoRA path does not take a GGUF); the pruned-episode test
with the transformers sampler only (its turns are forced through the sampler's own draw).
The parity and pruned-episode checks live in _sampler_checks.py; test_sampler_checks.py runs them on
CPU in the normal suite (fp32), so CI exercises what this file repeats in bf16.
Status: the transformers rows ran on an H200 on 2026-11-26 (three passed, four skipped: the vLLM rows,
and the pruned-episode test because the untrained model answered at once). Since then (issue 37) the
pruned-episode test forces its first three turns and cannot skip, and parity compares at least 256
sampled tokens (it compared 19); neither has run on a GPU yet. The vLLM rows have never run (no vLLM
wheel reaches this project's GPU machine).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from _sampler_checks import (  # noqa: E402  (the checks the CPU twin, test_sampler_checks.py, runs too)
    check_token_in_token_out_across_a_prune,
    perturb_lora,
    sampled_logprob_deltas,
    trainer_deltas,
)

from training.datums import trajectory_to_datums  # noqa: E402

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


def test_sampler_logprobs_match_the_trainers(policy, sampler, mini_corpus, mini_tasks, tmp_path) -> None:
    perturb_lora(policy.model)
    _follow(policy, sampler, tmp_path / "adapters", 1)
    # Episodes of every task over seeds until PARITY_TOKENS sampled tokens are compared (one episode gave 19
    # on the H200, too few for a p99); fails, never skips, when 64 seeds give fewer.
    delta = sampled_logprob_deltas(policy, sampler, mini_corpus, mini_tasks, "cuda", min_tokens=PARITY_TOKENS)
    print(f"log-prob parity: {delta.numel()} tokens, mean |Δ| {delta.mean():.4f}, p99 {delta.quantile(0.99):.4f}")
    assert float(delta.mean()) <= PARITY_MEAN and float(delta.quantile(0.99)) <= PARITY_P99


def test_an_adapter_reload_changes_the_samples(policy, sampler, tmp_path) -> None:
    from context1.types import Message, Role

    messages = [Message(role=Role.USER, content="Name three rivers in Europe.")]
    sampler.temperature = 0.0
    try:
        _follow(policy, sampler, tmp_path / "a", 1)
        before = sampler.with_seed(0).generate(messages, []).token_ids
        perturb_lora(policy.model, 0.2)
        _follow(policy, sampler, tmp_path / "a", 2)
        after = sampler.with_seed(0).generate(messages, []).token_ids
    finally:
        sampler.temperature = 1.0
    assert before != after


def test_token_in_token_out_across_a_pruned_episode(policy, mini_corpus, mini_tasks) -> None:
    # The transformers sampler only: its first three turns are forced (search, search, prune: the model's own
    # generate path emitting given ids), so an untrained adapter that answers at once can no longer skip the
    # test (the H200 run of 2026-11-26 did). vLLM's sampler has no draw to force; its rows never ran (no wheel).
    policy.reset()
    trajectory = check_token_in_token_out_across_a_prune(policy, mini_corpus, mini_tasks[0].query)
    delta = trainer_deltas(policy, trajectory_to_datums(trajectory, 1.0, 0), "cuda")
    assert delta.numel() >= 40 and float(delta.mean()) <= PARITY_MEAN  # forced ids train on the sampler's log-probs


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
