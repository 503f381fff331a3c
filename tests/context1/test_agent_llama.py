"""Full `SearchAgent` episodes with a real model: SmolLM2-135M served by llama.cpp, and the same
model through the local transformers backend.

A 135M model is no search agent: these tests assert what the harness guarantees whatever the
model writes — the episode ends with a `StopReason`, every call parses or becomes an error
observation, the budget fits the model's window, the usage line and the prompt-size check are
there, pruning works, the trajectory round-trips and replays to the prompts actually sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from llama_server import llama_server  # noqa: F401  (pytest fixture)

from context1 import AgentConfig, Episode, SearchAgent, StopReason, load_trajectories, save_trajectories
from context1.backends import OpenAIBackend, default_model_path
from context1.types import Trajectory

LLAMA_N_CTX = 2048  # read by the llama_server fixture
# Small results keep each prompt near 1.5k tokens: a CPU serves SmolLM2 at a few hundred tokens/s.
SMALL = dict(search_k=3, grep_k=2, search_token_budget=256, read_token_budget=256)
QUERY = "Who designed the lighthouse of Korrin Bay?"
ENDS = {StopReason.ANSWERED, StopReason.MAX_TURNS, StopReason.TOKEN_BUDGET}


def check_episode(traj: Trajectory, config: AgentConfig, tmp_path: Path) -> None:
    assert traj.stop_reason in ENDS, traj.error
    assert traj.documents is not None
    for step in traj.steps:
        assert len(step.observations) == len(step.turn.tool_calls)
        for call, obs in zip(step.turn.tool_calls, step.observations, strict=True):
            assert obs.call_id == call.id
            if call.parse_error is not None or call.name not in {"search_corpus", "grep_corpus", "read_document",
                                                                 "prune_chunks"}:
                assert obs.is_error and obs.text.startswith("Error: ")
        if step.observations:
            assert step.observations[-1].text.rstrip().endswith(f"/{config.token_budget:,}]")
        assert step.tokens_used <= config.token_budget
    path = tmp_path / "traj.jsonl"
    save_trajectories(path, [traj])
    assert load_trajectories(path) == [traj]


@pytest.fixture(scope="module")
def served(llama_server: str) -> OpenAIBackend:  # noqa: F811
    backend = OpenAIBackend(llama_server, temperature=0.0, max_tokens=48, seed=0, max_retries=0, timeout_s=600,
                            context_window=LLAMA_N_CTX, tokenizer_path=str(default_model_path()))
    backend.list_models()
    backend.model = backend.list_models()[0]
    return backend


@pytest.mark.slow
def test_smollm2_episode_via_llama_cpp(served: OpenAIBackend, harness_corpus, tmp_path: Path) -> None:
    agent = SearchAgent(harness_corpus, served, AgentConfig(max_turns=2, **SMALL))
    # the default 32k budget was fitted to the 2k window the server runs with
    assert agent.config.token_budget == LLAMA_N_CTX - 48
    assert agent.counter.costs.source.startswith("chat template")
    result = agent.run(QUERY)
    traj = result.trajectory
    check_episode(traj, agent.config, tmp_path)
    assert result.usage.prompt_tokens > 0 and result.usage.turns == len(traj.steps) >= 1
    # the harness's count of each prompt against the server's own count: llama.cpp renders its
    # own tool format, not SmolLM2's template, so the first turn calibrates the fixed part
    checks = traj.metadata["prompt_token_check"]
    assert checks and all(0.5 * reported <= counted <= 1.5 * reported for reported, counted in checks)
    # after calibration the harness may over-count (SmolLM2's template wraps tool turns in more
    # markup than llama.cpp's format): a safe error for the window; it must not under-count
    for reported, counted in checks[1:]:
        assert reported - 16 <= counted <= 1.15 * reported + 16, checks


@pytest.mark.slow
def test_smollm2_forced_calls_search_then_prune(served: OpenAIBackend, harness_corpus) -> None:
    """Step an episode by hand with calls the server must emit (grammar-constrained tool_choice)."""

    def forced(name: str) -> OpenAIBackend:
        # 128 tokens: after the prompt's worked example SmolLM2 writes longer queries, and a call cut
        # mid-string is a parse error, not the search this test steps through
        return OpenAIBackend(served.base_url, served.model, temperature=0.0, max_tokens=128, seed=0,
                             timeout_s=600, tool_choice={"type": "function", "function": {"name": name}})

    agent = SearchAgent(harness_corpus, served, AgentConfig(max_turns=4, **SMALL))
    ep: Episode = agent.episode(QUERY)
    ep.act(forced("search_corpus").generate(ep.messages(), ep.tool_schemas))
    shown = ep.visible_chunk_ids()
    assert shown and ep.trajectory.steps[0].turn.tool_calls[0].name == "search_corpus"
    before = ep.tokens_used
    (obs,) = ep.act(forced("prune_chunks").generate(ep.messages(), ep.tool_schemas))
    pruned = ep.trajectory.steps[1].pruned
    # a small model may name chunks it never saw: those are refused by name, the rest pruned
    assert pruned or obs.is_error
    if pruned:
        assert ep.tokens_used < before + 64 and not set(pruned) & set(ep.visible_chunk_ids())
        assert set(pruned) <= set(ep.trajectory.seen_chunk_ids())  # the record keeps them
    # the ids in the model's context carry no HTML entities for it to copy
    for m in ep.messages():
        assert "&#34;" not in m.content and "&quot;" not in m.content.replace('title="', "")


@pytest.mark.slow
def test_smollm2_episode_via_transformers(smollm2: Path, harness_corpus, tmp_path: Path) -> None:
    from context1.backends import TransformersBackend

    # the session's SmolLM2 folder (tests/conftest.py): the same weights and template as the GGUF, whose
    # loading path tests/context1/test_backend_transformers.py covers
    backend = TransformersBackend(smollm2, max_new_tokens=48, temperature=0.0)
    agent = SearchAgent(harness_corpus, backend, AgentConfig(max_turns=2, **SMALL))
    assert agent.counter.costs.source.startswith("chat template")
    result = agent.run(QUERY)
    traj = result.trajectory
    check_episode(traj, agent.config, tmp_path)
    # the local backend counts its real prompt: the harness's piecewise count is within a few tokens
    for reported, counted in traj.metadata["prompt_token_check"]:
        assert abs(reported - counted) <= 0.05 * reported + 16, (reported, counted)
