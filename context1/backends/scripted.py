"""`ScriptedBackend`: replays given turns — a deterministic driver for tests, demos and the CLI.

    backend = ScriptedBackend([
        turn(call("search_corpus", query="harbour town"), call("grep_corpus", pattern="(?i)lighthouse")),
        lambda messages: turn(call("prune_chunks", chunk_ids=[...])),     # built from what it saw
        "<Document id=town-3><Justification>Names the harbour.</Justification></Document>",
    ])

A script item is a `ModelTurn`, a string (an answer: text with no tool call), a dict in the JSON
form `{"text": ..., "tool_calls": [{"name": ..., "arguments": {...}}]}` (what a script file holds,
one per line), or a callable that receives the visible messages and returns any of those.
When the script runs out, `generate` raises `BackendError` (or answers with empty text when
`when_exhausted="answer"`), which makes it the natural way to test backend failures.

`with_seed(seed)` returns a fresh replay from the first item, so each k× rollout (and each
`SearchAgent.run`) replays the whole script.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from context1.budget import estimate_tokens
from context1.types import BackendError, Message, ModelTurn, ToolCall

ScriptItem = ModelTurn | str | Mapping[str, Any] | Callable[[Sequence[Message]], Any]


def call(name: str, /, **arguments: Any) -> ToolCall:
    """A well-formed tool call (the id is filled in by the harness)."""
    return ToolCall(id="", name=name, arguments=arguments, raw_arguments=json.dumps(arguments, ensure_ascii=False))


def raw_call(name: str, raw_arguments: str) -> ToolCall:
    """A tool call as a backend parses it from raw text: bad JSON gets `parse_error` set."""
    try:
        parsed = json.loads(raw_arguments)
    except json.JSONDecodeError as exc:
        return ToolCall(id="", name=name, raw_arguments=raw_arguments, parse_error=f"invalid JSON: {exc}")
    if not isinstance(parsed, dict):
        return ToolCall(id="", name=name, raw_arguments=raw_arguments,
                        parse_error=f"expected a JSON object, got {type(parsed).__name__}")
    return ToolCall(id="", name=name, arguments=parsed, raw_arguments=raw_arguments)


def turn(*calls: ToolCall, text: str = "") -> ModelTurn:
    """A model turn with these tool calls (in emission order)."""
    return ModelTurn(text=text, tool_calls=tuple(calls))


def to_turn(item: Any) -> ModelTurn:
    """Normalize a script item's value (not a callable) to a `ModelTurn`."""
    if isinstance(item, ModelTurn):
        return item
    if isinstance(item, str):
        return ModelTurn(text=item)
    if isinstance(item, Mapping):
        calls = []
        for c in item.get("tool_calls", ()):
            if "raw_arguments" in c and "arguments" not in c:
                calls.append(raw_call(c["name"], c["raw_arguments"]))
            else:
                calls.append(call(c["name"], **dict(c.get("arguments", {}))))
        return ModelTurn(text=str(item.get("text", "")), tool_calls=tuple(calls))
    raise ValueError(
        f"a script item must be a ModelTurn, a str, a dict or a callable returning one; got {type(item).__name__}"
    )


def load_script(path: str | Path) -> list[Mapping[str, Any]]:
    """A script file: JSONL, one turn dict per line (see the module docstring)."""
    items = []
    for lineno, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{lineno}: not a JSON turn ({exc})") from exc
    return items


class ScriptedBackend:
    """A `Backend` that replays a script of turns (thread-safe; see the module docstring).

    requests: every (messages, tools) it was asked to answer, for assertions.
    count_tokens: `token_counter` if given, else the harness's word/character estimate.
    deterministic: every rollout replays the same script, so `SearchAgent` refuses k× mode with
    it (k identical rollouts); script different rollouts with a backend whose `with_seed` varies.
    """

    deterministic = True
    varies_with_seed = False

    def __init__(
        self,
        turns: Sequence[ScriptItem] = (),
        *,
        path: str | Path | None = None,
        name: str = "scripted",
        token_counter: Callable[[str], int] | None = None,
        when_exhausted: str = "error",
        seed: int | None = None,
    ) -> None:
        if when_exhausted not in ("error", "answer"):
            raise ValueError(f"when_exhausted must be 'error' or 'answer', got {when_exhausted!r}")
        items = list(turns) + (load_script(path) if path is not None else [])
        self.name = name
        self.seed = seed
        self._items = items
        self._counter = token_counter
        self._when_exhausted = when_exhausted
        self._next = 0
        self._lock = threading.Lock()
        self.requests: list[tuple[list[Message], list[Mapping[str, Any]]]] = []

    def with_seed(self, seed: int) -> ScriptedBackend:
        """A fresh replay of the same script (k× rollouts each replay it from the start)."""
        return ScriptedBackend(self._items, name=self.name, token_counter=self._counter,
                               when_exhausted=self._when_exhausted, seed=seed)

    def count_tokens(self, text: str) -> int:
        return self._counter(text) if self._counter is not None else estimate_tokens(text)

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> ModelTurn:
        with self._lock:
            index = self._next
            self._next += 1
            self.requests.append((list(messages), list(tools)))
        if index >= len(self._items):
            if self._when_exhausted == "answer":
                return ModelTurn(text="")
            raise BackendError(f"the script has {len(self._items)} turn(s) and turn {index + 1} was asked for")
        item = self._items[index]
        if callable(item) and not isinstance(item, ModelTurn | str | Mapping):
            item = item(list(messages))
        return to_turn(item)
