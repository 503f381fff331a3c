"""`OpenAIBackend(tools_in_prompt=True)`: tools, calls and results carried as text, for servers
whose chat template cannot carry them (llama.cpp's), and `context1 ask --tokenizer/--tools-in-prompt`.

Why it matters: llama-cpp-python's "chatml-function-calling" template renders no content of a
`tool` message, so a model served that way never sees a search result. The fake server here
checks what a text-only template would receive; the slow test runs SmolLM2 on a real llama.cpp
server with the GGUF's own template and checks the model is shown the observations and that the
harness's token count equals the server's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from llama_server import llama_server  # noqa: F401  (pytest fixture)
from test_agent_served import vllm, vllm_reply  # noqa: F401  (pytest fixture + reply helper)
from test_cli_ask import app, run  # noqa: F401  (pytest fixture + CLI runner)

from context1 import AgentConfig, SearchAgent, StopReason, load_trajectories
from context1.backends import OpenAIBackend, default_model_path
from context1.types import Message, Role, ToolCall

QUERY = "Who designed the lighthouse of Korrin Bay?"
LLAMA_N_CTX = 2048  # read by the llama_server fixture
LLAMA_CHAT_FORMAT = None  # the GGUF's own template (SmolLM2's chatml), not chatml-function-calling
CHUNK_RE = re.compile(r'<chunk id="([^"]+)"')


def text_reply(content: str):
    """A completion whose calls are written as `<tool_call>` text in `content` (no tool_calls field)."""
    return vllm_reply(content=content)


def call_block(name: str, arguments: dict[str, Any]) -> str:
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}\n</tool_call>"


def assert_text_only(request: dict[str, Any]) -> None:
    assert "tools" not in request and "tool_choice" not in request
    assert {m["role"] for m in request["messages"]} <= {"system", "user", "assistant"}
    assert all(isinstance(m["content"], str) for m in request["messages"])


def test_a_text_tools_episode_shows_the_model_every_observation(vllm, harness_corpus) -> None:  # noqa: F811
    def prune_and_read(request: dict[str, Any]) -> dict[str, Any]:
        last = request["messages"][-1]
        # the search result reached the model, as a user turn of <tool_response> blocks
        assert last["role"] == "user" and last["content"].startswith("<tool_response")
        first = CHUNK_RE.search(last["content"]).group(1)
        return text_reply("Pruning the first one.\n" + call_block("prune_chunks", {"chunk_ids": [first]})
                          + "\n" + call_block("read_document", {"doc_id": "korrin-bay"}))(request)

    server = vllm([
        text_reply(call_block("search_corpus", {"query": "Korrin Bay lighthouse designer"})),
        prune_and_read,
        text_reply("<Document id=korrin-bay><Justification>Names the designer.</Justification></Document>"),
    ])
    backend = OpenAIBackend(server.base_url, temperature=0.0, seed=0, max_retries=0, tools_in_prompt=True)
    result = SearchAgent(harness_corpus, backend, AgentConfig(max_turns=4)).run(QUERY)
    traj = result.trajectory

    assert traj.stop_reason == StopReason.ANSWERED, traj.error
    assert [d.doc_id for d in result.documents][:1] == ["korrin-bay"]
    obs = [o for s in traj.steps for o in s.observations]
    assert [o.tool for o in obs] == ["search_corpus", "prune_chunks", "read_document"]
    assert not any(o.is_error for o in obs)
    assert traj.pruned_chunk_ids() and traj.pruned_chunk_ids()[0] == traj.steps[0].observations[0].chunk_ids[0]

    assert len(server.requests) == 3
    for request in server.requests:
        assert_text_only(request)
    system = server.requests[0]["messages"][0]["content"]
    assert system.startswith("You are a retrieval subagent")  # the harness's prompt, then the tools
    assert '"name": "search_corpus"' in system and "<tool_call>" in system
    # the model's calls go back as the text it wrote; the read result follows the pruned view
    third = server.requests[2]["messages"]
    assert third[-2]["role"] == "assistant" and third[-2]["content"].count("<tool_call>") == 2
    assert "pruned/>" in third[-3]["content"]
    assert "Korrin Bay" in third[-1]["content"] and 'name="read_document"' in third[-1]["content"]


def test_native_mode_is_unchanged(vllm) -> None:  # noqa: F811
    server = vllm([text_reply("done")])
    call = ToolCall(id="c1", name="search_corpus", arguments={"query": "x"}, raw_arguments='{"query": "x"}')
    conversation = [Message(Role.SYSTEM, "sys"), Message(Role.USER, "q"),
                    Message(Role.ASSISTANT, "", tool_calls=(call,)), Message(Role.TOOL, "result", tool_call_id="c1")]
    tools = [{"type": "function", "function": {"name": "search_corpus", "parameters": {"type": "object"}}}]
    OpenAIBackend(server.base_url, "m", max_retries=0).generate(conversation, tools)
    body = server.requests[0]
    assert body["tools"] == tools and body["tool_choice"] == "auto"
    assert body["messages"][3] == {"role": "tool", "tool_call_id": "c1", "content": "result"}


# ---------------------------------------------------------------------------------------------
# context1 ask --tokenizer / --tools-in-prompt
# ---------------------------------------------------------------------------------------------


def test_ask_tokenizer_makes_template_costs_exact(app, vllm, harness_corpus, tmp_path: Path) -> None:  # noqa: F811
    server = vllm([
        text_reply(call_block("search_corpus", {"query": "Korrin Bay lighthouse"})),
        text_reply("<Document id=korrin-bay><Justification>The lighthouse.</Justification></Document>"),
    ])
    saved = tmp_path / "traj.jsonl"
    res = run(app, harness_corpus.path, QUERY, "--backend", "openai", "--base-url", server.base_url, "--model",
              "served-model", "--tokenizer", default_model_path(), "--tools-in-prompt", "--save-trajectories", saved)
    assert res.exit_code == 0, res.output
    [traj] = load_trajectories(saved)
    assert traj.stop_reason == StopReason.ANSWERED
    # measured with SmolLM2's own template (the fake's usage then calibrates it: it counts chars / 3)
    assert traj.metadata["token_accounting"].startswith("chat template of ")
    assert all("tools" not in r for r in server.requests)

    # without --tokenizer the same run can only estimate
    saved2 = tmp_path / "traj2.jsonl"
    server2 = vllm([text_reply("<Document id=korrin-bay><Justification>x</Justification></Document>")])
    res = run(app, harness_corpus.path, QUERY, "--backend", "openai", "--base-url", server2.base_url, "--model",
              "served-model", "--save-trajectories", saved2)
    assert res.exit_code == 0, res.output
    [traj2] = load_trajectories(saved2)
    assert traj2.metadata["token_accounting"].startswith("estimate")
    assert "tools" in server2.requests[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--backend", "openai", "--base-url", "http://127.0.0.1:9/v1", "--tokenizer", "/no/such/tokenizer"],
         "no such file or folder"),
        (["--tokenizer", "/no/such/tokenizer"], "go with --backend openai"),
        (["--tools-in-prompt"], "go with --backend openai"),
    ],
)
def test_ask_tokenizer_bad_options_exit_2(app, harness_corpus, args, message) -> None:  # noqa: F811
    res = run(app, harness_corpus.path, QUERY, *args)
    assert res.exit_code == 2 and message in " ".join(res.output.split()), res.output


# ---------------------------------------------------------------------------------------------
# A real llama.cpp server with SmolLM2's own template
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_smollm2_via_llama_cpp_sees_the_results_and_the_count_is_exact(
    llama_server: str,  # noqa: F811
    harness_corpus,
) -> None:
    backend = OpenAIBackend(llama_server, temperature=0.0, max_tokens=48, seed=0, max_retries=0, timeout_s=600,
                            context_window=LLAMA_N_CTX, tokenizer_path=str(default_model_path()),
                            tools_in_prompt=True)
    backend.model = backend.list_models()[0]
    tools = [{"type": "function", "function": {"name": "search_corpus", "description": "Search.",
                                               "parameters": {"type": "object", "properties": {
                                                   "query": {"type": "string"}}, "required": ["query"]}}}]
    call = ToolCall(id="c1", name="search_corpus", arguments={"query": "lighthouse"},
                    raw_arguments='{"query": "lighthouse"}')
    short = [Message(Role.SYSTEM, "Find documents."), Message(Role.USER, QUERY),
             Message(Role.ASSISTANT, "", tool_calls=(call,))]
    result = "The lighthouse of Korrin Bay was designed by the engineer Tobias Quell in 1871. " * 8
    long = [*short, Message(Role.TOOL, result, tool_call_id="c1", name="search_corpus")]
    a = backend.generate([*short, Message(Role.TOOL, "none", tool_call_id="c1", name="search_corpus")], tools)
    b = backend.generate(long, tools)
    # the server rendered the tool result (its size shows in the prompt), as the harness counts it
    # (within 2 tokens: token merges at message boundaries)
    assert b.prompt_tokens - a.prompt_tokens >= backend.count_tokens(result) - backend.count_tokens("none") - 2
    counted = backend.count_prompt_tokens(long, tools)
    assert abs(b.prompt_tokens - counted) <= 2, (b.prompt_tokens, counted)

    agent = SearchAgent(harness_corpus, backend, AgentConfig(max_turns=2, search_k=3, grep_k=2,
                                                             search_token_budget=256, read_token_budget=256))
    traj = agent.run(QUERY).trajectory
    assert traj.stop_reason in {StopReason.ANSWERED, StopReason.MAX_TURNS, StopReason.TOKEN_BUDGET}, traj.error
    checks = traj.metadata["prompt_token_check"]
    assert checks and abs(checks[0][0] - checks[0][1]) <= 2, checks  # server count vs harness count
    assert traj.metadata["token_accounting"].startswith("chat template of ")
