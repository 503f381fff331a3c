"""Full `SearchAgent` episodes over OpenAIBackend against a fake vLLM-style server (no GPU).

The server plays back what `vllm serve --enable-auto-tool-choice --reasoning-parser ...` returns:
structured `tool_calls` with random ids, `reasoning_content`, per-token `logprobs`, usage, and a
`/v1/models` listing with `max_model_len`. The fake is what is under test here: the backend's
parsing and the harness's handling of what a real vLLM server sends.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from context1 import AgentConfig, SearchAgent, StopReason, load_trajectories, replay_messages, save_trajectories
from context1.backends import OpenAIBackend

QUERY = "Who designed the lighthouse of Korrin Bay?"
Reply = Callable[[dict[str, Any]], dict[str, Any]]


class VLLMPlayback:
    """Answers /chat/completions with the next scripted reply (a function of the request)."""

    def __init__(self, replies: list[Reply], max_model_len: int = 32_768) -> None:
        self.replies = replies
        self.max_model_len = max_model_len
        self.requests: list[dict[str, Any]] = []
        self.base_url = ""


@pytest.fixture
def vllm() -> Iterator[Callable[..., VLLMPlayback]]:
    servers: list[ThreadingHTTPServer] = []

    def start(replies: list[Reply], max_model_len: int = 32_768) -> VLLMPlayback:
        state = VLLMPlayback(replies, max_model_len)

        class Handler(BaseHTTPRequestHandler):
            def _send(self, data: dict[str, Any]) -> None:
                payload = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:  # noqa: N802
                self._send({"object": "list", "data": [
                    {"id": "served-model", "object": "model", "max_model_len": state.max_model_len}]})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
                state.requests.append(body)
                i = min(len(state.requests), len(state.replies)) - 1
                self._send(state.replies[i](body))

            def log_message(self, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        state.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        return state

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()


def vllm_reply(*calls: tuple[str, Any], content: str | None = None, reasoning: str | None = None) -> Reply:
    """A vLLM chat completion: random call ids (as vLLM makes them), logprobs, usage."""

    def reply(request: dict[str, Any]) -> dict[str, Any]:
        tool_calls = [
            {"id": f"chatcmpl-tool-{uuid.uuid4().hex}", "type": "function",
             "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
            for name, args in calls
        ]
        message: dict[str, Any] = {"role": "assistant", "content": content, "reasoning_content": reasoning}
        if tool_calls:
            message["tool_calls"] = tool_calls
        n_out = 5
        prompt_chars = len(json.dumps(request["messages"])) + len(json.dumps(request.get("tools", [])))
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion", "model": "served-model",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if tool_calls else "stop",
                         "logprobs": {"content": [{"token": "x", "logprob": -0.25 * (k + 1), "bytes": [120],
                                                   "top_logprobs": []} for k in range(n_out)]}}],
            "usage": {"prompt_tokens": prompt_chars // 3, "completion_tokens": n_out,
                      "total_tokens": prompt_chars // 3 + n_out},
        }

    return reply


def first_chunk_id(request: dict[str, Any]) -> str:
    """The id of the first chunk the model was shown (as a copying model would take it)."""
    import re

    for m in request["messages"]:
        if m["role"] == "tool":
            hit = re.search(r'<chunk id="([^"]+)"', m["content"])
            if hit:
                return hit.group(1)
    raise AssertionError("no chunk shown yet")


def script() -> list[Reply]:
    def prune_first(request: dict[str, Any]) -> dict[str, Any]:
        # a copying model behind an autoescaping template: the id comes back with an entity in it
        cid = first_chunk_id(request)
        return vllm_reply(("prune_chunks", {"chunk_ids": [cid, "invented#9"]}),
                          ("search_corpus", '{"query": "&#34;Tobias Quell&#34; engineer"}'),
                          reasoning="The first chunk is noise; prune it.")(request)

    return [
        vllm_reply(("search_corpus", {"query": "Korrin Bay lighthouse"}), ("grep_corpus", {"pattern": "(?i)quell"}),
                   reasoning="Search for the lighthouse, grep the engineer."),
        vllm_reply(("read_document", {"doc_id": "korrin-bay"}), ("search_corpus", "{not json"),
                   reasoning="Read the village page."),
        prune_first,
        vllm_reply(content="<Document id=korrin-bay><Justification>Names Tobias Quell.</Justification></Document>\n"
                           "<Document id=tobias-quell><Justification>The engineer.</Justification></Document>",
                   reasoning="I have enough."),
    ]


def test_a_full_episode_against_vllm_style_replies(vllm, harness_corpus, tmp_path: Path) -> None:
    server = vllm(script())
    backend = OpenAIBackend(server.base_url, "served-model", logprobs=True, seed=7, max_tokens=512)
    agent = SearchAgent(harness_corpus, backend, AgentConfig(seed=7))
    result = agent.run(QUERY)
    traj = result.trajectory
    assert result.stop_reason is StopReason.ANSWERED
    assert result.doc_ids == ["korrin-bay", "tobias-quell"]
    assert len(traj.steps) == 4
    # every call parsed or became an error observation the model could read
    for step in traj.steps:
        assert len(step.observations) == len(step.turn.tool_calls)
        for call, obs in zip(step.turn.tool_calls, step.observations, strict=True):
            assert obs.call_id == call.id
            assert (call.parse_error is None) or obs.is_error
    bad = traj.steps[1].observations[1]
    assert bad.is_error and "could not parse" in bad.text
    # reasoning_content kept in the record, never sent back to the server
    assert [s.turn.reasoning for s in traj.steps][0] == "Search for the lighthouse, grep the engineer."
    assert all("reasoning" not in json.dumps(m) for req in server.requests for m in req["messages"])
    # logprobs recorded per sampled token
    assert traj.steps[0].turn.logprobs == (-0.25, -0.5, -0.75, -1.0, -1.25)
    # deterministic call ids (the server's random ones are not kept) and consistent in the replies
    ids = [c.id for s in traj.steps for c in s.turn.tool_calls]
    assert ids[:2] == ["call_2_0", "call_2_1"]
    sent = server.requests[1]["messages"]
    assert [c["id"] for c in sent[2]["tool_calls"]] == ["call_2_0", "call_2_1"]
    assert [m["tool_call_id"] for m in sent[3:5]] == ["call_2_0", "call_2_1"]
    # an HTML entity copied into the arguments does not reach the corpus; the real id is pruned
    prune, search = traj.steps[2].observations
    assert prune.metadata["pruned"] and prune.metadata["invalid_ids"] == ["invented#9"]
    assert '"Tobias Quell" engineer' not in json.dumps(search.metadata)  # no crash, a normal search
    assert not search.is_error
    # usage lines and the server's prompt counts
    for step in traj.steps[:-1]:
        assert step.observations[-1].text.endswith(f"/{agent.config.token_budget:,}]")
    checks = traj.metadata["prompt_token_check"]
    assert len(checks) == 4 and all(reported > 0 and counted > 0 for reported, counted in checks)
    assert "calibrated" in traj.metadata["token_accounting"]
    # the trajectory round-trips, and replaying it gives exactly the prompts the server got
    path = tmp_path / "t.jsonl"
    save_trajectories(path, [traj])
    (back,) = load_trajectories(path)
    assert back == traj
    assert back.steps[0].turn.reasoning == traj.steps[0].turn.reasoning
    from context1.backends.openai_compat import to_openai_messages

    for i, req in enumerate(server.requests):
        assert to_openai_messages(replay_messages(back, i)) == req["messages"]


def test_same_seed_same_requests_and_ids(vllm, harness_corpus) -> None:
    runs = []
    for _ in range(2):
        server = vllm(script())
        backend = OpenAIBackend(server.base_url, "served-model", seed=3)
        result = SearchAgent(harness_corpus, backend, AgentConfig(seed=3)).run(QUERY)
        runs.append((server.requests, [c.id for s in result.trajectory.steps for c in s.turn.tool_calls]))
    assert runs[0][1] == runs[1][1]
    assert [r["seed"] for r in runs[0][0]] == [3, 3, 3, 3]
    assert json.dumps(runs[0][0]) == json.dumps(runs[1][0])


def test_budget_is_fitted_to_the_served_context_window(vllm, harness_corpus) -> None:
    server = vllm(script(), max_model_len=2_048)
    backend = OpenAIBackend(server.base_url, "served-model", max_tokens=256)
    agent = SearchAgent(harness_corpus, backend)  # default 32,768 budget cannot fit a 2k window
    assert agent.context_window == 2_048
    assert agent.config.token_budget == 2_048 - 256
    result = agent.run(QUERY)
    assert result.stop_reason in (StopReason.ANSWERED, StopReason.TOKEN_BUDGET)
    # no prompt the server got was larger than its window (by the server's own count)
    for reported, _counted in result.trajectory.metadata["prompt_token_check"]:
        assert reported + 256 <= 2_048 * 1.5  # the fake counts chars/3, a coarser unit than tokens
    for step in result.trajectory.steps:
        assert step.tokens_used <= agent.config.token_budget


def test_a_window_too_small_for_any_episode_is_a_clear_error(vllm, harness_corpus) -> None:
    server = vllm(script(), max_model_len=600)
    with pytest.raises(ValueError, match="context window"):
        SearchAgent(harness_corpus, OpenAIBackend(server.base_url, "served-model", max_tokens=256))
