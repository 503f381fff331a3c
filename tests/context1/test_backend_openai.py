"""OpenAIBackend against a real llama.cpp server, and its failure paths against a scripted HTTP server."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from llama_server import llama_server  # noqa: F401  (pytest fixture)

from context1.backends import IterativeRetrievalPolicy, OpenAIBackend, make_backend
from context1.backends.openai_compat import to_openai_messages
from context1.types import Backend, BackendError, Message, ModelTurn, Role, ToolCall

SEARCH_TOOL = {
    "type": "function",
    "function": {
        "name": "search_corpus",
        "description": "Search the corpus for passages relevant to a query.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "the search query"}},
            "required": ["query"],
        },
    },
}
CONVERSATION = [
    Message(Role.SYSTEM, "You are a search agent. Use the tools to find documents."),
    Message(Role.USER, "Find documents about the Eiffel Tower."),
]


# ---------------------------------------------------------------------------------------------
# A real server: llama-cpp-python serving SmolLM2-135M (tests/context1/llama_server.py)
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def backend(llama_server: str) -> Iterator[OpenAIBackend]:  # noqa: F811
    # model=None: the backend asks the server's /models (llama.cpp names the model by its path)
    with OpenAIBackend(llama_server, temperature=0.0, max_tokens=24, seed=0, max_retries=1) as b:
        yield b


@pytest.mark.slow
def test_plain_completion_returns_text(backend: OpenAIBackend) -> None:
    turn = backend.generate(CONVERSATION, [])
    assert isinstance(backend, Backend)
    assert backend.model and backend.model.endswith(".gguf")
    assert turn.text.strip()
    assert turn.tool_calls == ()
    assert turn.prompt_tokens > 0 and 0 < turn.completion_tokens <= 24
    assert turn.finish_reason in ("stop", "length")
    assert turn.latency_s > 0
    assert turn.token_ids is None  # the chat API has no token ids


@pytest.mark.slow
def test_tools_offered_returns_a_well_formed_turn(backend: OpenAIBackend) -> None:
    # tool_choice="auto" (the default): SmolLM2-135M may or may not call a tool, so assert on structure.
    assert backend.request_body(CONVERSATION, [SEARCH_TOOL])["tool_choice"] == "auto"
    turn = backend.generate(CONVERSATION, [SEARCH_TOOL])
    assert isinstance(turn, ModelTurn)
    assert isinstance(turn.text, str)
    for call in turn.tool_calls:
        assert isinstance(call, ToolCall) and call.id
        assert isinstance(call.arguments, dict)


@pytest.mark.slow
def test_forced_tool_choice_gives_a_parsed_call(backend: OpenAIBackend) -> None:
    # llama.cpp constrains a forced call with a grammar built from the schema: deterministic shape.
    forced = OpenAIBackend(
        backend.base_url,
        backend.model,
        temperature=0.0,
        max_tokens=48,
        tool_choice={"type": "function", "function": {"name": "search_corpus"}},
    )
    turn = forced.generate(CONVERSATION, [SEARCH_TOOL])
    assert len(turn.tool_calls) == 1
    call = turn.tool_calls[0]
    assert call.name == "search_corpus"
    assert call.parse_error is None, call.raw_arguments
    assert isinstance(call.arguments["query"], str)
    assert json.loads(call.raw_arguments) == call.arguments
    assert turn.finish_reason == "tool_calls"

    # The call and a tool result go back to the server as a valid multi-turn conversation.
    follow_up = [
        *CONVERSATION,
        Message(Role.ASSISTANT, turn.text, tool_calls=turn.tool_calls),
        Message(Role.TOOL, "[doc1#0] The Eiffel Tower is in Paris.", tool_call_id=call.id, name=call.name),
    ]
    assert isinstance(backend.generate(follow_up, [SEARCH_TOOL]), ModelTurn)


@pytest.mark.slow
def test_logprobs_are_recorded_when_requested(backend: OpenAIBackend) -> None:
    b = OpenAIBackend(backend.base_url, backend.model, temperature=0.0, max_tokens=12, logprobs=True)
    turn = b.generate(CONVERSATION, [])
    assert turn.logprobs is not None
    assert len(turn.logprobs) == turn.completion_tokens
    assert all(lp <= 0 for lp in turn.logprobs)


@pytest.mark.slow
def test_wrong_path_on_a_real_server_fails_at_once(llama_server: str) -> None:  # noqa: F811
    b = OpenAIBackend(llama_server.replace("/v1", "/nope/v1"), "m", max_retries=3)
    b._sleep = _fail_if_called
    with pytest.raises(BackendError, match=r"HTTP 404.*base_url"):
        b.generate(CONVERSATION, [])


# ---------------------------------------------------------------------------------------------
# A scripted HTTP server for the failure paths
# ---------------------------------------------------------------------------------------------


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # dict -> JSON; str -> sent as is
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class ScriptedServer:
    base_url: str
    replies: list[Reply]
    requests: list[dict[str, Any]] = field(default_factory=list)


def completion(content: str | None = "ok", tool_calls: list[dict] | None = None, usage: bool = True) -> dict:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    data: dict[str, Any] = {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
    if usage:
        data["usage"] = {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14}
    return data


@pytest.fixture
def scripted() -> Iterator[ScriptedServer]:
    """Answers POSTs with the queued replies in order (the last one repeats); records requests."""
    state = ScriptedServer(base_url="", replies=[])

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            length = int(self.headers.get("content-length", 0))
            state.requests.append(
                {"path": self.path, "headers": dict(self.headers), "json": json.loads(self.rfile.read(length))}
            )
            reply = state.replies[min(len(state.requests), len(state.replies)) - 1]
            if reply.delay_s:
                time.sleep(reply.delay_s)
            payload = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
            try:
                self.send_response(reply.status)
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.send_header("content-type", "application/json")
                self.end_headers()
                self.wfile.write(payload.encode())
            except (BrokenPipeError, ConnectionResetError):  # the client timed out first
                pass

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    state.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    yield state
    server.shutdown()
    server.server_close()


def _backend(server: ScriptedServer, **kwargs: Any) -> tuple[OpenAIBackend, list[float]]:
    b = OpenAIBackend(server.base_url, "test-model", **{"backoff_s": 0.01, **kwargs})
    delays: list[float] = []
    b._sleep = delays.append  # observe the backoff without waiting
    return b, delays


def _fail_if_called(_: float) -> None:
    raise AssertionError("must not retry")


def test_503_twice_then_200_succeeds_after_backoff(scripted: ScriptedServer) -> None:
    scripted.replies = [Reply(503, {"error": "busy"}), Reply(503, {"error": "busy"}), Reply(200, completion("hello"))]
    b, delays = _backend(scripted, max_retries=3)
    turn = b.generate(CONVERSATION, [])
    assert turn.text == "hello"
    assert (turn.prompt_tokens, turn.completion_tokens) == (11, 3)
    assert len(scripted.requests) == 3
    assert len(delays) == 2 and delays[1] > 0


def test_always_500_raises_backend_error_with_status_and_body(scripted: ScriptedServer) -> None:
    scripted.replies = [Reply(500, {"error": {"message": "CUDA out of memory"}})]
    b, delays = _backend(scripted, max_retries=2)
    with pytest.raises(BackendError) as info:
        b.generate(CONVERSATION, [])
    message = str(info.value)
    assert "3 attempt(s)" in message and "HTTP 500" in message and "CUDA out of memory" in message
    assert "max_retries" in message  # says what to do
    assert len(scripted.requests) == 3 and len(delays) == 2


def test_429_respects_retry_after(scripted: ScriptedServer) -> None:
    scripted.replies = [Reply(429, {"error": "slow down"}, headers={"Retry-After": "7"}), Reply(200, completion())]
    b, delays = _backend(scripted, max_retries=1)
    assert b.generate(CONVERSATION, []).text == "ok"
    assert delays[0] >= 7.0


def test_backoff_grows_exponentially_and_is_capped() -> None:
    b = OpenAIBackend("http://127.0.0.1:9/v1", "m", backoff_s=1.0, max_backoff_s=8.0)
    b._rng.random = lambda: 0.5  # middle of the jitter range: no jitter
    assert [b._backoff(a, None) for a in range(5)] == [1.0, 2.0, 4.0, 8.0, 8.0]


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_other_4xx_fail_immediately(scripted: ScriptedServer, status: int) -> None:
    scripted.replies = [Reply(status, {"error": {"message": "bad thing"}})]
    b, _ = _backend(scripted, max_retries=3)
    b._sleep = _fail_if_called
    with pytest.raises(BackendError, match=f"HTTP {status}.*bad thing"):
        b.generate(CONVERSATION, [SEARCH_TOOL])
    assert len(scripted.requests) == 1


def test_401_advice_names_the_api_key(scripted: ScriptedServer) -> None:
    scripted.replies = [Reply(401, {"error": "no"})]
    b, _ = _backend(scripted)
    with pytest.raises(BackendError, match="API key"):
        b.generate(CONVERSATION, [])


def test_timeout_is_retried_then_reported(scripted: ScriptedServer) -> None:
    scripted.replies = [Reply(200, completion(), delay_s=1.0), Reply(200, completion("late but fine"))]
    b, delays = _backend(scripted, timeout_s=0.2, max_retries=1)
    assert b.generate(CONVERSATION, []).text == "late but fine"
    assert len(delays) == 1

    scripted.requests.clear()
    scripted.replies = [Reply(200, completion(), delay_s=1.0)]
    with pytest.raises(BackendError, match="timed out"):
        b.generate(CONVERSATION, [])


def test_connection_refused_is_retried_then_reported() -> None:
    from llama_server import free_port

    b = OpenAIBackend(f"http://127.0.0.1:{free_port()}/v1", "m", max_retries=2, backoff_s=0.01)
    delays: list[float] = []
    b._sleep = delays.append
    with pytest.raises(BackendError, match=r"3 attempt\(s\).*connection failed"):
        b.generate(CONVERSATION, [])
    assert len(delays) == 2


def test_non_json_200_is_a_clear_error(scripted: ScriptedServer) -> None:
    scripted.replies = [Reply(200, "<html>hello</html>")]
    b, _ = _backend(scripted)
    with pytest.raises(BackendError, match="not JSON"):
        b.generate(CONVERSATION, [])


def test_malformed_tool_call_json_sets_parse_error(scripted: ScriptedServer) -> None:
    calls = [
        {"id": "a", "type": "function", "function": {"name": "search_corpus", "arguments": '{"query": eiffel tower}'}},
        {"id": "b", "type": "function", "function": {"name": "search_corpus", "arguments": '{"query": "paris"}'}},
        {"id": "c", "type": "function", "function": {"name": "prune_chunks", "arguments": '["x#0"]'}},
    ]
    scripted.replies = [Reply(200, completion(None, calls))]
    b, _ = _backend(scripted)
    turn = b.generate(CONVERSATION, [SEARCH_TOOL])
    bad, good, not_object = turn.tool_calls
    # ids are ours and deterministic (call_{messages}_{i}); the server's ("a") are not kept
    assert (bad.id, bad.name, bad.arguments) == ("call_2_0", "search_corpus", {})
    assert bad.raw_arguments == '{"query": eiffel tower}' and "invalid JSON" in bad.parse_error
    assert good.arguments == {"query": "paris"} and good.parse_error is None
    assert not_object.arguments == {} and "JSON object" in not_object.parse_error
    assert turn.text == ""

    # A call that failed to parse goes back to the server as the model wrote it.
    sent = to_openai_messages([Message(Role.ASSISTANT, "", tool_calls=turn.tool_calls)])
    assert sent[0]["tool_calls"][0]["function"]["arguments"] == '{"query": eiffel tower}'


def test_tool_calls_written_in_content_are_parsed(scripted: ScriptedServer) -> None:
    content = 'Searching.\n<tool_call>\n{"name": "search_corpus", "arguments": {"query": "eiffel"}}\n</tool_call>'
    scripted.replies = [Reply(200, completion(content, usage=False))]
    b, _ = _backend(scripted)
    turn = b.generate(CONVERSATION, [SEARCH_TOOL])
    assert turn.text == "Searching."
    assert [(c.name, dict(c.arguments)) for c in turn.tool_calls] == [("search_corpus", {"query": "eiffel"})]
    # no usage reported: prompt size unknown (0, so the harness has nothing to check against);
    # the completion is estimated
    assert turn.prompt_tokens == 0 and turn.completion_tokens > 0


def test_request_body_and_headers(scripted: ScriptedServer) -> None:
    scripted.replies = [Reply(200, completion())]
    b, _ = _backend(
        scripted, api_key="sk-test", seed=3, temperature=0.5, max_tokens=9, tool_choice="auto",
        extra_body={"top_k": 20},
    )  # fmt: skip
    call = ToolCall(id="c1", name="search_corpus", arguments={"query": "x"}, raw_arguments='{"query": "x"}')
    conversation = [
        *CONVERSATION,
        Message(Role.ASSISTANT, "", tool_calls=(call,)),
        Message(Role.TOOL, "result", tool_call_id="c1", name="search_corpus"),
    ]
    b.with_seed(11).generate(conversation, [SEARCH_TOOL])
    request = scripted.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == "Bearer sk-test"
    body = request["json"]
    assert body["model"] == "test-model" and body["seed"] == 11 and body["temperature"] == 0.5
    assert body["max_tokens"] == 9 and body["top_k"] == 20 and body["tool_choice"] == "auto"
    assert body["tools"] == [SEARCH_TOOL]
    assert body["messages"][2]["tool_calls"][0] == {
        "id": "c1",
        "type": "function",
        "function": {"name": "search_corpus", "arguments": '{"query": "x"}'},
    }
    assert body["messages"][3] == {"role": "tool", "tool_call_id": "c1", "content": "result"}
    assert b.seed == 3  # with_seed made a copy


def test_tool_message_without_call_id_is_a_programmer_error() -> None:
    with pytest.raises(ValueError, match="tool_call_id"):
        to_openai_messages([Message(Role.TOOL, "result")])


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("http://h:8000", "http://h:8000/v1"),
        ("http://h:8000/v1/", "http://h:8000/v1"),
        ("https://api.example.com/v1/chat/completions", "https://api.example.com/v1"),
        ("http://h/api/openai", "http://h/api/openai"),
    ],
)
def test_base_url_normalisation(given: str, expected: str) -> None:
    assert OpenAIBackend(given, "m").base_url == expected


def test_bad_base_url_is_rejected() -> None:
    with pytest.raises(ValueError, match="http"):
        OpenAIBackend("localhost:8000", "m")


def test_count_tokens_estimate_is_four_chars_per_token() -> None:
    b = OpenAIBackend("http://h/v1", "m")
    assert b.count_tokens("") == 0
    assert b.count_tokens("abcd") == 1 and b.count_tokens("abcde") == 2


# ---------------------------------------------------------------------------------------------
# make_backend
# ---------------------------------------------------------------------------------------------


def test_make_backend_openai() -> None:
    b = make_backend("openai", base_url="http://127.0.0.1:1/v1", model="m", api_key="k", max_retries=0)
    assert isinstance(b, OpenAIBackend) and b.api_key == "k" and b.max_retries == 0 and b.name == "openai:m"


def test_make_backend_iterative_takes_the_corpus() -> None:
    sentinel = object()
    b = make_backend("iterative", corpus=sentinel)
    assert isinstance(b, IterativeRetrievalPolicy) and isinstance(b, Backend)


def test_make_backend_scripted() -> None:
    from context1.backends.scripted import ScriptedBackend

    assert isinstance(make_backend("scripted"), ScriptedBackend)


def test_make_backend_rejects_unknown_kinds_and_missing_arguments() -> None:
    with pytest.raises(ValueError, match="valid kinds.*openai.*transformers.*vllm.*iterative.*scripted"):
        make_backend("gpt")
    with pytest.raises(ValueError, match="base_url"):
        make_backend("openai", model="m")
    with pytest.raises(ValueError, match="openai"):
        make_backend("transformers", base_url="http://h/v1")
    with pytest.raises(ValueError, match="model"):
        make_backend("vllm")


def test_vllm_missing_names_the_install() -> None:
    try:
        import vllm  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match=r"pip install context1\[gpu\]"):
            make_backend("vllm", model="/nonexistent")
    else:
        pytest.skip("vLLM is installed here")
