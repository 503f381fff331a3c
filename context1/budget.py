"""Token counting and the three-level token budget (SPEC §2).

The budget is measured over the whole prompt the model is given: every message's content, the
tool calls' names and raw arguments, each message's chat-template markup (role header, end marker),
and a fixed part — the tool schemas as the template renders them, plus the generation prompt.
`PromptCosts` holds those template costs and says how they were obtained (`source`):

* "chat template": measured by rendering probe conversations with the model's own template
  (`measure_costs`; the backend offers `count_prompt_tokens(messages, tools)`);
* "estimate": schemas counted as their JSON text plus 4 tokens per message (`estimate_costs`),
  when the backend has no template to render (a remote server without a local tokenizer);
* "... calibrated": the fixed part corrected once from the prompt_tokens a server reported
  for a prompt whose counted size is known (`PromptCosts.calibrated`).

Counting uses the backend's tokenizer when it has one. Results are cached per distinct string,
so re-counting the context after each call costs only the messages that changed (pruning
re-renders a message; everything else is a dictionary hit).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from context1.config import AgentConfig
from context1.types import Message

# Tokens a chat template adds around each message (role header + end marker): 3–5 in the
# ChatML / Llama-3 / Harmony templates.
MESSAGE_OVERHEAD = 4

TokenCountFn = Callable[[str], int]


@dataclass(frozen=True)
class PromptCosts:
    """Tokens the prompt format adds beyond the messages' own text.

    fixed: once per prompt (tool schemas as rendered, generation prompt, BOS).
    per_message: role → tokens of one message's markup (role header + end marker).
    source: how the numbers were obtained (see the module docstring); reported in
    `Trajectory.metadata["token_accounting"]`.
    """

    fixed: int
    per_message: Mapping[str, int]
    source: str

    def message_overhead(self, role: str) -> int:
        return self.per_message.get(role, MESSAGE_OVERHEAD)

    def calibrated(self, reported: int, counted: int) -> PromptCosts:
        """These costs with `fixed` moved so a prompt counted as `counted` counts as `reported`."""
        return PromptCosts(max(0, self.fixed + reported - counted), self.per_message,
                           self.source.split(",")[0] + ", calibrated from the server's prompt_tokens")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: the larger of ~4 characters per token and 1 token per word.

    BPE tokenizers average 3.5–4.5 characters per token on English prose; code, numbers and
    identifiers have more tokens per word, which the word count floors.
    """
    if not text:
        return 0
    return max(math.ceil(len(text) / 4), len(text.split()))


class TokenCounter:
    """Counts tokens with `count_fn`, caching by string (thread-safe, bounded).

    costs: the template's per-message and fixed costs (None until `Episode` sets them: then
    4 tokens per message and no fixed part).
    """

    def __init__(self, count_fn: TokenCountFn | None = None, max_cache: int = 8_192,
                 costs: PromptCosts | None = None) -> None:
        self.costs = costs
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
        n = self.overhead(msg.role) + self(msg.content)
        for call in msg.tool_calls:
            n += self(call.name) + self(call.raw_arguments or _args_text(call.arguments))
        return n

    def messages(self, msgs: Iterable[Message]) -> int:
        return sum(self.message(m) for m in msgs)

    def overhead(self, role: Any) -> int:
        """Template tokens around one message of this role."""
        if self.costs is None:
            return MESSAGE_OVERHEAD
        return self.costs.message_overhead(getattr(role, "value", role))

    @property
    def fixed(self) -> int:
        """Template tokens once per prompt (tool schemas, generation prompt)."""
        return 0 if self.costs is None else self.costs.fixed


def estimate_costs(counter: TokenCounter, tools: Sequence[Mapping[str, Any]]) -> PromptCosts:
    """Template costs without a template: the schemas' JSON text, 4 tokens per message."""
    import json

    schema_text = json.dumps(list(tools), ensure_ascii=False, separators=(",", ":")) if tools else ""
    fixed = counter(schema_text) + (MESSAGE_OVERHEAD if tools else 0) + 3  # + generation prompt
    return PromptCosts(fixed, {}, f"estimate: tool schemas as JSON text + {MESSAGE_OVERHEAD} tokens per message")


PromptCountFn = Callable[[Sequence[Message], Sequence[Mapping[str, Any]]], int]


def measure_costs(prompt_tokens: PromptCountFn, counter: TokenCounter, tools: Sequence[Mapping[str, Any]],
                  name: str = "the model") -> PromptCosts:
    """Template costs measured with the model's own chat template.

    `prompt_tokens(messages, tools)` is the exact token count of the rendered prompt. Per-role
    overheads are differences between probe conversations; the fixed part is what remains of
    the smallest conversation once its messages are accounted for.
    """
    from context1.types import Role, ToolCall

    sys_m, user_m = Message(Role.SYSTEM, "You search."), Message(Role.USER, "Find the lighthouse.")
    base_msgs = [sys_m, user_m]
    base = prompt_tokens(base_msgs, tools)
    call = ToolCall(id="call_0_0", name="search_corpus", arguments={"query": "lighthouse"},
                    raw_arguments='{"query": "lighthouse"}')
    assistant = Message(Role.ASSISTANT, "Searching.", tool_calls=(call,))
    with_asst = prompt_tokens([*base_msgs, assistant], tools)
    tool_m = Message(Role.TOOL, "The lighthouse stands on the cape.", tool_call_id="call_0_0", name="search_corpus")
    with_tool = prompt_tokens([*base_msgs, assistant, tool_m], tools)
    per = {
        Role.ASSISTANT.value: max(0, with_asst - base - counter(assistant.content) - counter(call.name)
                                  - counter(call.raw_arguments)),
        Role.TOOL.value: max(0, with_tool - with_asst - counter(tool_m.content)),
    }
    # system/user markup: a second user message's cost (templates render every user turn alike)
    with_user = prompt_tokens([*base_msgs, Message(Role.USER, "And the harbour?")], tools)
    per[Role.USER.value] = max(0, with_user - base - counter("And the harbour?"))
    per[Role.SYSTEM.value] = per[Role.USER.value]
    fixed = max(0, base - counter(sys_m.content) - counter(user_m.content) - 2 * per[Role.USER.value])
    return PromptCosts(fixed, per, f"chat template of {name}")


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
