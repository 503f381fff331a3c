"""Token counting and the three-level token budget (SPEC §2).

The budget is measured over the whole visible context: every message's content, the tool calls'
names and raw arguments, and a small per-message overhead for the chat template's role markers.
The tool schemas are not counted (they are a constant offset the backend adds).

Counting uses the backend's tokenizer when it has one. Results are cached per distinct string,
so re-counting the context after each call costs only the messages that changed (pruning
re-renders a message; everything else is a dictionary hit).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from context1.config import AgentConfig
from context1.types import Message

# Tokens a chat template adds around each message (role header + end marker): 3–5 in the
# ChatML / Llama-3 / Harmony templates.
MESSAGE_OVERHEAD = 4

TokenCountFn = Callable[[str], int]


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: the larger of ~4 characters per token and 1 token per word.

    BPE tokenizers average 3.5–4.5 characters per token on English prose; code, numbers and
    identifiers have more tokens per word, which the word count floors.
    """
    if not text:
        return 0
    return max(math.ceil(len(text) / 4), len(text.split()))


class TokenCounter:
    """Counts tokens with `count_fn`, caching by string (thread-safe, bounded)."""

    def __init__(self, count_fn: TokenCountFn | None = None, max_cache: int = 8_192) -> None:
        self._fn = count_fn or estimate_tokens
        self._cache: dict[str, int] = {}
        self._max_cache = max_cache
        self._lock = threading.Lock()

    @property
    def is_estimate(self) -> bool:
        return self._fn is estimate_tokens

    def __call__(self, text: str) -> int:
        if not text:
            return 0
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        with self._lock:  # tokenizers (HF fast ones included) are not safe to call from several threads
            n = int(self._fn(text))
            if len(self._cache) >= self._max_cache:
                self._cache.clear()  # an episode holds a few hundred distinct strings; start afresh
            self._cache[text] = n
        return n

    def message(self, msg: Message) -> int:
        """Tokens one message takes in the context."""
        n = MESSAGE_OVERHEAD + self(msg.content)
        for call in msg.tool_calls:
            n += self(call.name) + self(call.raw_arguments or _args_text(call.arguments))
        return n

    def messages(self, msgs: Iterable[Message]) -> int:
        return sum(self.message(m) for m in msgs)


def _args_text(arguments: object) -> str:
    import json

    try:
        return json.dumps(arguments, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return str(arguments)


@dataclass(frozen=True)
class BudgetState:
    """Where a context of `used` tokens stands against an `AgentConfig`'s limits."""

    used: int
    config: AgentConfig

    @property
    def past_soft(self) -> bool:
        return self.used >= self.config.soft_limit

    @property
    def past_hard(self) -> bool:
        return self.used >= self.config.hard_limit

    @property
    def exhausted(self) -> bool:
        """The budget is spent: the episode stops with TOKEN_BUDGET.

        Tool results never push the context past T_budget − response_reserve (see `available`);
        what can eat into the reserve is small harness text (refusals, usage lines) and the model's
        own turns, so reaching T_budget itself means no reply can fit any more.
        """
        return self.used >= self.config.token_budget

    def available(self, per_call_cap: int) -> int:
        """Tokens a tool's output may take: its own cap, and what remains after the reserve."""
        room = self.config.token_budget - self.config.response_reserve - self.used - SAFETY_MARGIN
        return max(0, min(per_call_cap, room))


# Kept free on top of the reserve for what the harness adds after a tool's output is sized: the
# tool message overhead, the usage line, a notice or the training hint (~40 tokens together).
SAFETY_MARGIN = 64
