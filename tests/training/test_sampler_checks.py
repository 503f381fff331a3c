"""The CPU twin of tests/training/test_gpu.py's sampler tests: the same checks (tests/training/_sampler_checks.py)
on the real SmolLM2-135M in fp32, so that the normal suite exercises what the GPU suite (`-m gpu`) repeats in bf16.

On CPU the sampler and the trainer run the same fp32 weights, so their log-probs agree to float rounding (the KV
cache's incremental decode against one full forward); the GPU bounds (bf16, other kernels) are far looser.
"""

from __future__ import annotations

import pytest
import torch
from _sampler_checks import (
    check_token_in_token_out_across_a_prune,
    forced_turn,
    perturb_lora,
    sampled_logprob_deltas,
    trainer_deltas,
)

from training.datums import trajectory_to_datums
from training.policy import LoRAConfig, load_policy

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("lean_heap")]

CPU_PARITY_MAX = 1e-3  # nats; fp32 on both sides


@pytest.fixture(scope="module")
def policy(smollm2):
    policy = load_policy(smollm2, device="cpu", lora=LoRAConfig(rank=4, alpha=8), max_new_tokens=24, seed=0)
    perturb_lora(policy.model)  # a zero-initialised adapter would leave the LoRA path untested
    return policy


def test_token_in_token_out_across_a_pruned_episode(policy, mini_corpus, mini_tasks) -> None:
    trajectory = check_token_in_token_out_across_a_prune(policy, mini_corpus, mini_tasks[0].query)
    # the forced turns are trained on the log-probs the sampler recorded for them: equal to the trainer's
    delta = trainer_deltas(policy, trajectory_to_datums(trajectory, 1.0, 0), "cpu")
    assert delta.numel() >= 40 and float(delta.max()) <= CPU_PARITY_MAX


def test_a_forced_turn_is_a_turn_the_sampler_recorded(policy, mini_corpus, mini_tasks) -> None:
    from _sampler_checks import FIRST_SEARCH

    from context1 import SearchAgent
    from training.rl import agent_config_for_small_model

    stream = policy.with_seed(0)
    episode = SearchAgent(mini_corpus, policy, agent_config_for_small_model()).episode(mini_tasks[1].query)
    turn = forced_turn(stream, episode.messages(), episode.tool_schemas, FIRST_SEARCH)
    assert turn.tool_calls[0].arguments == FIRST_SEARCH.arguments and turn.finish_reason == "stop"
    assert all(lp <= 0.0 for lp in turn.logprobs)
    # the copy is itself again: its own draw and token limit, and the next turn samples
    assert "_sample" not in vars(stream) and stream.max_new_tokens == policy.max_new_tokens
    episode.act(turn)
    sampled = stream.generate(episode.messages(), episode.tool_schemas)
    prefix = list(turn.prompt_token_ids) + list(turn.token_ids)
    assert list(sampled.prompt_token_ids[: len(prefix)]) == prefix


def test_sampler_logprobs_match_the_trainers(policy, mini_corpus, mini_tasks) -> None:
    # the GPU test's loop (at least 256 tokens there) on one task and a few tokens: CI pays for the code path only
    delta = sampled_logprob_deltas(policy, policy, mini_corpus, mini_tasks[:1], "cpu", min_tokens=24)
    print(f"log-prob parity on CPU: {delta.numel()} tokens, mean |Δ| {delta.mean():.2e}, max {delta.max():.2e}")
    assert delta.numel() >= 24 and float(delta.max()) <= CPU_PARITY_MAX
    assert torch.isfinite(delta).all()
