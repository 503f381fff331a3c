"""Any OpenAI-compatible chat-completions server: OpenAI, vLLM (`vllm serve`), llama.cpp, SGLang, ...

Talks plain HTTP through httpx (no SDK dependency): POST {base_url}/chat/completions with the
conversation and the OpenAI `tools` schemas. Tool calls come back structured in
`message.tool_calls`; calls a server leaves as `<tool_call>{...}</tool_call>` text in `content`
are parsed too (toolcalls.py). Malformed arguments never raise: the call keeps `raw_arguments`
and gets `parse_error`, so the harness can answer the model with an error message.

Transient failures (HTTP 429, 5xx, timeouts, refused connections) are retried with exponential
backoff and jitter, honouring `Retry-After`; other 4xx fail at once. Either way the final
failure is a `BackendError` saying what happened and what to do.

What it records: text, tool calls, usage, finish_reason, latency, the server's separate
reasoning text (`reasoning_content`, as vLLM's reasoning parsers and DeepSeek return it; kept in
`ModelTurn.reasoning`, never sent back), and the sampled tokens' logprobs when `logprobs=True` and
the server returns them. It does not record token ids (the chat API has none); train from the
transformers or vLLM backends, which do. `prompt_tokens` is the server's reported usage, 0 when
the server reports none (the harness then has nothing to check its own count against).

Call ids are made here, not taken from the server (vLLM's are random): `call_{n}_{i}` with n the
number of messages in the prompt and i the call's position, so a seeded run records the same ids.

Token accounting: with `tokenizer_path` (a local HF tokenizer folder, or a .gguf file whose
tokenizer and chat template transformers can read) `count_tokens` is exact and
`count_prompt_tokens` renders the model's own chat template; without one, tokens are estimated
and the harness calibrates its template estimate from the server's reported prompt_tokens.
`context_window`: the server's context length; None reads vLLM's `max_model_len` from /models
when the server lists it (llama.cpp's OpenAI server does not: pass its --n_ctx).

`tools_in_prompt`: for a server whose chat template cannot carry tools or tool results, send no
`tools` at all: the tools are described in the system prompt, calls are written back as
`<tool_call>` blocks and tool results folded into user turns as `<tool_response>` blocks (the
convention of toolcalls.py, the same text the transformers backend renders for SmolLM2), and the
model's `<tool_call>` text is parsed. Why it exists: llama-cpp-python's
`--chat_format chatml-function-calling` template renders no `tool` message content at all (the
model never sees a search result), and its plain chat formats drop tool messages; served with
its own template (no --chat_format) and `tools_in_prompt=True`, SmolLM2 sees every observation,
and `count_prompt_tokens` renders what the server renders (counts agree to about 1 token).
"""

from __future__ import annotations

import copy
import dataclasses
import email.utils
import json
import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx

from context1.backends.toolcalls import messages_with_tools_in_prompt, parse_arguments, parse_tool_calls
from context1.types import BackendError, Message, ModelTurn, Role, ToolCall

CHARS_PER_TOKEN = 4  # rough average for English text with BPE tokenizers (OpenAI's rule of thumb)
_RETRY_STATUS = frozenset({408, 429})  # request timeout, rate limited; plus every 5xx
_BODY_EXCERPT = 500


class OpenAIBackend:
    """Chat completions with tools against an OpenAI-compatible server.

    base_url: the API root including its version prefix, as the OpenAI SDK takes it
        ("https://api.openai.com/v1", "http://127.0.0.1:8000/v1"); a bare host gets "/v1".
    model: the served model name; None asks the server (GET /models) and takes the first.
    api_key: sent as a Bearer token when given (the CLI reads it from the environment).
    timeout_s: per-request timeout. max_retries: retries after the first attempt on transient
        failures. backoff_s / max_backoff_s: first and largest wait between attempts.
    temperature, top_p, max_tokens, seed: sampling parameters sent with every request
        (None leaves the server's default).
    tool_choice: sent when tools are given ("auto", "required", {"type": "function", ...}; None
        omits it). "auto" is the OpenAI default, sent explicitly because llama.cpp's server
        otherwise answers in text only.
    logprobs: ask for the sampled tokens' logprobs (recorded in `ModelTurn.logprobs`).
    extra_body: merged into every request body (server-specific options, e.g. vLLM's
        {"chat_template_kwargs": {...}} or {"top_k": 20}).
    tokenizer_path: a local Hugging Face tokenizer folder (or a .gguf file) for `count_tokens` and
        `count_prompt_tokens`; without one, tokens are estimated as ceil(characters / 4).
    context_window: the served context length in tokens (None: vLLM's /models `max_model_len`
        when listed, else unknown).
    tools_in_prompt: describe the tools in the system prompt and carry calls and results as text
        instead of sending `tools` (module docstring: for templates without tool support).
    client: an httpx.Client to reuse (connection pooling across backends); one is made otherwise.
    """

    def __init__(
        self,
        base_url: str,
        model: str | None = None,
        api_key: str | None = None,
        *,
        timeout_s: float = 120.0,  # long prompts on a busy vLLM server can take a minute
        max_retries: int = 4,  # 1 + 4 attempts ≈ 30 s of backoff at the defaults below
        backoff_s: float = 1.0,
        max_backoff_s: float = 30.0,
        temperature: float | None = 1.0,  # RL rollouts sample at T=1 (on-policy)
        top_p: float | None = None,
        max_tokens: int | None = 4096,  # one turn: reasoning plus a few tool calls
        seed: int | None = None,
        tool_choice: str | Mapping[str, Any] | None = "auto",  # OpenAI's default, but llama.cpp needs it sent
        logprobs: bool = False,
        extra_body: Mapping[str, Any] | None = None,
        tokenizer_path: str | None = None,
        client: httpx.Client | None = None,
        context_window: int | None = None,
        tools_in_prompt: bool = False,
    ) -> None:
        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        self.base_url = _normalize_base_url(base_url)
        self.model = model
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.temperature = temperature
        self.top_p = top_p
        self.max_tokens = max_tokens
        self.seed = seed
        self.tool_choice = tool_choice
        self.logprobs = logprobs
        self.extra_body = dict(extra_body or {})
        self.tokenizer_path = tokenizer_path
        self.tools_in_prompt = tools_in_prompt
        self._tokenizer: Any = None
        self._context_window = context_window
        self._window_probed = context_window is not None
        self._client = client or httpx.Client(timeout=timeout_s)
        self._sleep = time.sleep  # replaced in tests to observe backoff without waiting
        self._rng = random.Random()  # jitter only; never affects what the model sees

    @property
    def name(self) -> str:
        return f"openai:{self.model or '?'}"

    # -- Backend protocol ------------------------------------------------------------------

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> ModelTurn:
        body = self.request_body(messages, tools)
        start = time.perf_counter()
        data = self._post_json("/chat/completions", body)
        latency = time.perf_counter() - start
        return self._parse_response(data, messages, latency)

    def count_tokens(self, text: str) -> int:
        """Tokens in `text`: the local tokenizer's count, else ceil(len(text) / 4)."""
        if self.tokenizer_path:
            return len(self.tokenizer.encode(text, add_special_tokens=False))
        return math.ceil(len(text) / CHARS_PER_TOKEN)

    @property
    def tokenizer(self) -> Any:
        """The local tokenizer of `tokenizer_path` (loaded on first use)."""
        if self._tokenizer is None:
            if not self.tokenizer_path:
                raise NotImplementedError("no tokenizer_path given")
            from transformers import AutoTokenizer

            path = str(self.tokenizer_path)
            if path.endswith(".gguf"):
                import os

                self._tokenizer = AutoTokenizer.from_pretrained(
                    os.path.dirname(path) or ".", gguf_file=os.path.basename(path), local_files_only=True
                )
            else:
                self._tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        return self._tokenizer

    def count_prompt_tokens(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> int:
        """Tokens of the prompt rendered with the local tokenizer's chat template.

        Raises NotImplementedError without `tokenizer_path` or when the tokenizer has no template
        (the harness then estimates). It is the model's template, which is what vLLM serves; a
        server with its own tool format (llama.cpp's chatml-function-calling) differs, and the
        harness records the difference (`prompt_token_check`).
        """
        if not self.tokenizer_path or not getattr(self.tokenizer, "chat_template", None):
            raise NotImplementedError("no local chat template")
        from context1.backends.toolcalls import render_prompt

        # tools_in_prompt=False leaves the choice to the template, as before (None = decide from it)
        text = render_prompt(self.tokenizer, messages, tools, tools_in_prompt=self.tools_in_prompt or None)
        return len(self.tokenizer.encode(text, add_special_tokens=False))

    @property
    def context_window(self) -> int | None:
        """The served context length, when given or listed by the server (vLLM's max_model_len)."""
        if not self._window_probed:
            self._window_probed = True
            headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
            try:  # one quick attempt: the window is optional, a slow or absent /models is no error
                data = self._client.get(self.base_url + "/models", headers=headers, timeout=5.0).json()
            except (httpx.HTTPError, ValueError):
                return None
            listed = data.get("data", []) if isinstance(data, Mapping) else []
            for m in listed if isinstance(listed, list) else []:
                if isinstance(m, Mapping) and isinstance(m.get("max_model_len"), int) and (
                    self.model is None or m.get("id") == self.model
                ):
                    self._context_window = int(m["max_model_len"])
                    break
        return self._context_window

    # -- public helpers --------------------------------------------------------------------

    def with_seed(self, seed: int | None) -> OpenAIBackend:
        """A copy sampling with another seed (k× rollouts), sharing the HTTP connection pool
        (so `close()` on any copy closes it for all)."""
        clone = copy.copy(self)
        clone.seed = seed
        clone.extra_body = dict(self.extra_body)
        return clone

    def request_body(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The JSON body sent to /chat/completions (exposed for debugging and tests)."""
        if self.tools_in_prompt:
            chat: list[dict[str, Any]] = list(messages_with_tools_in_prompt(messages, tools))
            body: dict[str, Any] = {"model": self._resolve_model(), "messages": chat}
        else:
            body = {"model": self._resolve_model(), "messages": to_openai_messages(messages)}
        if tools and not self.tools_in_prompt:
            body["tools"] = [dict(t) for t in tools]
            if self.tool_choice is not None:
                body["tool_choice"] = self.tool_choice
        for key in ("temperature", "top_p", "max_tokens", "seed"):
            value = getattr(self, key)
            if value is not None:
                body[key] = value
        if self.logprobs:
            # top_logprobs too: llama.cpp's server returns no logprobs without it.
            body["logprobs"], body["top_logprobs"] = True, 1
        body.update(self.extra_body)
        return body

    def list_models(self) -> list[str]:
        """The model ids the server serves (GET /models)."""
        data = self._request("GET", "/models", None)
        return [m.get("id", "") for m in data.get("data", []) if isinstance(m, Mapping)]

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> OpenAIBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- HTTP ------------------------------------------------------------------------------

    def _resolve_model(self) -> str:
        if self.model is None:
            models = self.list_models()
            if not models:
                raise BackendError(f"{self.base_url}/models lists no model; pass model= explicitly")
            self.model = models[0]
        return self.model

    def _post_json(self, path: str, body: Mapping[str, Any]) -> dict[str, Any]:
        return self._request("POST", path, body)

    def _request(self, method: str, path: str, body: Mapping[str, Any] | None) -> dict[str, Any]:
        url = self.base_url + path
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        attempts = self.max_retries + 1
        last_problem = ""
        for attempt in range(attempts):
            retry_after: float | None = None
            try:
                response = self._client.request(method, url, json=body, headers=headers, timeout=self.timeout_s)
            except httpx.TimeoutException as exc:
                last_problem = f"timed out after {self.timeout_s:g}s ({type(exc).__name__})"
            except httpx.TransportError as exc:
                last_problem = f"connection failed ({type(exc).__name__}: {exc})"
            else:
                if response.status_code < 400:
                    try:
                        data = response.json()
                    except ValueError:
                        raise BackendError(
                            f"{method} {url} returned HTTP {response.status_code} with a body that is not JSON: "
                            f"{_excerpt(response.text)!r}. Is base_url pointing at an OpenAI-compatible API?"
                        ) from None
                    if not isinstance(data, dict):
                        raise BackendError(
                            f"{method} {url} returned JSON that is not an object: {_excerpt(response.text)!r}"
                        )
                    return data
                status = response.status_code
                last_problem = f"HTTP {status}: {_excerpt(response.text)!r}"
                if status not in _RETRY_STATUS and status < 500:
                    raise BackendError(f"{method} {url} failed with {last_problem}. {_advice(status, self.model)}")
                retry_after = _retry_after_s(response.headers.get("retry-after"))
            if attempt + 1 < attempts:
                self._sleep(self._backoff(attempt, retry_after))
        raise BackendError(
            f"{method} {url} failed after {attempts} attempt(s); last: {last_problem}. "
            "The server is down, overloaded or too slow: check it is running and reachable, "
            "or raise max_retries / timeout_s."
        )

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        """Exponential backoff with full jitter in [0.5, 1.5)×; a server's Retry-After wins when longer."""
        delay = min(self.max_backoff_s, self.backoff_s * (2**attempt)) * (0.5 + self._rng.random())
        if retry_after is not None:
            delay = max(delay, min(retry_after, self.max_backoff_s * 4))
        return delay

    # -- response parsing ------------------------------------------------------------------

    def _parse_response(self, data: Mapping[str, Any], messages: Sequence[Message], latency: float) -> ModelTurn:
        choices = data.get("choices")
        if not choices or not isinstance(choices, list) or not isinstance(choices[0], Mapping):
            raise BackendError(f"the server's response has no choices: {_excerpt(json.dumps(data))!r}")
        choice = choices[0]
        message = choice.get("message") or {}
        content = message.get("content") or ""
        if not isinstance(content, str):  # content parts (a list of {"type": "text", ...})
            content = "".join(p.get("text", "") for p in content if isinstance(p, Mapping))
        # Deterministic ids (module docstring): the server's own (random under vLLM) are not kept.
        n = len(messages)
        calls = [
            dataclasses.replace(_parse_openai_call(c, ""), id=f"call_{n}_{i}")
            for i, c in enumerate(message.get("tool_calls") or [])
        ]
        text, text_calls = parse_tool_calls(content, id_prefix=f"call_{n}_t")
        calls += text_calls
        reasoning = message.get("reasoning_content") or message.get("reasoning")
        usage = data.get("usage") or {}
        prompt_tokens = usage.get("prompt_tokens")
        completion_tokens = usage.get("completion_tokens")
        if prompt_tokens is None:
            prompt_tokens = 0  # not reported: unknown (see the module docstring)
        if completion_tokens is None:
            completion_tokens = self.count_tokens(content)
        return ModelTurn(
            reasoning=reasoning if isinstance(reasoning, str) and reasoning else None,
            text=text,
            tool_calls=tuple(calls),
            logprobs=_parse_logprobs(choice.get("logprobs")),
            prompt_tokens=int(prompt_tokens),
            completion_tokens=int(completion_tokens),
            finish_reason=choice.get("finish_reason"),
            latency_s=latency,
        )


def to_openai_messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Messages in chat-completions shape: assistant calls with JSON-string arguments, tool
    results with their `tool_call_id`."""
    out: list[dict[str, Any]] = []
    for msg in messages:
        role = Role(msg.role)
        if role == Role.TOOL:
            if not msg.tool_call_id:
                raise ValueError("a tool message needs tool_call_id (the id of the call it answers)")
            out.append({"role": "tool", "tool_call_id": msg.tool_call_id, "content": msg.content})
        elif role == Role.ASSISTANT and msg.tool_calls:
            out.append(
                {
                    "role": "assistant",
                    "content": msg.content,
                    "tool_calls": [
                        {
                            "id": c.id,
                            "type": "function",
                            "function": {
                                "name": c.name,
                                # what the model wrote when it did not parse, so the model sees its own mistake
                                "arguments": c.raw_arguments
                                if c.parse_error is not None
                                else json.dumps(dict(c.arguments), ensure_ascii=False),
                            },
                        }
                        for c in msg.tool_calls
                    ],
                }
            )
        else:
            out.append({"role": role.value, "content": msg.content})
    return out


def _parse_openai_call(raw: Any, fallback_id: str) -> ToolCall:
    if not isinstance(raw, Mapping):
        return ToolCall(
            id=fallback_id, name="", raw_arguments=json.dumps(raw), parse_error="tool call is not an object"
        )
    fn = raw.get("function") or {}
    name = fn.get("name") or ""
    raw_args = fn.get("arguments", "")
    raw_text = raw_args if isinstance(raw_args, str) else json.dumps(raw_args, ensure_ascii=False)
    arguments, error = parse_arguments(raw_args)
    if not name and error is None:
        error = "the tool call has no function name"
    return ToolCall(
        id=str(raw.get("id") or fallback_id), name=name, arguments=arguments, raw_arguments=raw_text, parse_error=error
    )


def _parse_logprobs(raw: Any) -> tuple[float, ...] | None:
    """`choice.logprobs.content[*].logprob` (the chat API's shape), or None when absent."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("content"), list):
        return None
    values = [item.get("logprob") for item in raw["content"] if isinstance(item, Mapping)]
    if any(not isinstance(v, (int, float)) for v in values):
        return None
    return tuple(float(v) for v in values)


def _normalize_base_url(base_url: str) -> str:
    url = base_url.strip().rstrip("/")
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"base_url must start with http:// or https://, got {base_url!r}")
    for suffix in ("/chat/completions", "/completions"):
        if url.endswith(suffix):
            url = url[: -len(suffix)]
    if urlsplit(url).path in ("", "/"):
        url += "/v1"
    return url


def _retry_after_s(value: str | None) -> float | None:
    """Retry-After as seconds: either delta-seconds or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _advice(status: int, model: str | None) -> str:
    if status in (401, 403):
        return "Check the API key (the CLI reads it from the environment)."
    if status == 404:
        return f"Check base_url (it should end in the API version, e.g. /v1) and that model {model!r} is served."
    if status in (400, 422):
        return (
            "The server rejected the request: check the model name, the tool schemas, and that the server "
            "supports tools (llama.cpp: --chat_format chatml-function-calling; vLLM: --enable-auto-tool-choice "
            "--tool-call-parser ...)."
        )
    return "The request was rejected; retrying will not help."


def _excerpt(text: str) -> str:
    text = text.strip()
    return text if len(text) <= _BODY_EXCERPT else text[:_BODY_EXCERPT] + "…"
