"""Trajectory → training datums, from the recorded token ids (token in, token out).

Each turn of a rollout recorded the exact prompt ids the model was given and the ids it sampled.
Turns are concatenated into one datum while each next prompt *extends* everything so far
(previous prompt + sampled ids + new observation tokens); a prompt that does not extend it —
pruning replaced chunks by markers, so the prefix changed — starts a new datum. This is
tinker-cookbook's `trajectory_to_data` idea. Only sampled tokens are trained on (observation and
prompt tokens are masked), and the trajectory's advantage applies to every one of its datums.

SFT on teacher trajectories from a backend without token ids (the LLM-free policy, an API model)
goes through `teacher_turn_ids`: the student's chat template renders each prompt and the teacher's
reply, so the student learns to write what the teacher wrote in the student's own format.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from training.types import Datum

TurnIds = tuple[Sequence[int], Sequence[int], Sequence[float] | None]  # (prompt ids, sampled ids, logprobs)


def turns_to_datums(turns: Iterable[TurnIds], advantage: float = 0.0, trajectory_index: int = 0) -> list[Datum]:
    """Concatenate turns into datums, starting a new one wherever a prompt breaks the prefix.

    turns: per inference, (prompt ids, sampled ids, sampler logprobs or None → 0.0).
    A turn extends the current datum when its prompt ids begin with the datum's ids; the prompt's
    remaining ids (the observation) are appended masked, then the sampled ids unmasked.
    """
    datums: list[Datum] = []
    ids: list[int] = []
    mask: list[int] = []
    lps: list[float] = []

    def flush() -> None:
        if ids and any(mask):
            datums.append(Datum(tuple(ids), tuple(mask), tuple(lps), advantage, trajectory_index))

    for prompt, sampled, logprobs in turns:
        prompt, sampled = list(prompt), list(sampled)
        if logprobs is not None and len(logprobs) != len(sampled):
            raise ValueError(f"a turn has {len(sampled)} sampled ids but {len(logprobs)} logprobs")
        if ids and len(prompt) >= len(ids) and prompt[: len(ids)] == ids:
            new = prompt[len(ids) :]
        else:  # first turn, or the prefix broke (pruning): a new segment
            flush()
            ids, mask, lps = [], [], []
            new = prompt
        ids += new
        mask += [0] * len(new)
        lps += [0.0] * len(new)
        ids += sampled
        mask += [1] * len(sampled)
        lps += [float(x) for x in logprobs] if logprobs is not None else [0.0] * len(sampled)
    flush()
    return datums


def trajectory_turns(trajectory: Any) -> list[TurnIds]:
    """The recorded (prompt ids, sampled ids, logprobs) of each step; raises if a step lacks ids."""
    out: list[TurnIds] = []
    for i, step in enumerate(trajectory.steps):
        turn = step.turn
        if turn.prompt_token_ids is None or turn.token_ids is None:
            raise ValueError(
                f"step {i} of the trajectory has no recorded token ids; RL needs a backend that records them "
                "(transformers, vllm). For teacher trajectories without ids use `sft_datums`."
            )
        out.append((turn.prompt_token_ids, turn.token_ids, turn.logprobs))
    return out


def trajectory_to_datums(trajectory: Any, advantage: float, trajectory_index: int = 0) -> list[Datum]:
    """RL datums of one rollout (see module docstring)."""
    return turns_to_datums(trajectory_turns(trajectory), advantage, trajectory_index)


def teacher_turn_ids(trajectory: Any, tokenizer: Any, *, tools: Sequence[Any] | None = None) -> list[TurnIds]:
    """(prompt ids, reply ids, None) per step of a teacher trajectory, in the student's template.

    The prompt of step i is the visible context the teacher saw (`context1.replay_messages`),
    rendered with the student's chat template; the reply is the teacher's turn (text and
    `<tool_call>` blocks) as the template renders an assistant message, ending with its
    end-of-turn token. The end-of-turn token is part of what the student must learn to produce.
    """
    from context1 import replay_messages, tool_schemas
    from context1.backends.toolcalls import render_prompt
    from context1.config import AgentConfig
    from context1.types import Message, Role

    cfg_dict = trajectory.metadata.get("config") or {}
    if tools is None:
        known = {k: v for k, v in cfg_dict.items() if k in AgentConfig.__dataclass_fields__}
        tools = tool_schemas(AgentConfig(**known))
    out: list[TurnIds] = []
    seen_text, seen_ids = "", []  # the previous prompt and reply, as text and as the ids trained on
    for i, step in enumerate(trajectory.steps):
        messages = replay_messages(trajectory, i)
        prompt = render_prompt(tokenizer, messages, tools)
        reply_msg = Message(role=Role.ASSISTANT, content=step.turn.text, tool_calls=step.turn.tool_calls)
        chat, kwargs = _chat_for(tokenizer, [*messages, reply_msg], tools)
        full = tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=False, **kwargs)
        if not full.startswith(prompt):
            raise ValueError("the chat template does not render the reply as an extension of the prompt")
        reply = _cut_after_end_marker(full[len(prompt) :], tokenizer)
        if seen_text and prompt.startswith(seen_text):  # extend the ids, as the backend does at run time
            prompt_ids = seen_ids + tokenizer(prompt[len(seen_text) :], add_special_tokens=False)["input_ids"]
        else:  # first turn, or pruning changed what came before
            prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
        reply_ids = reply_token_ids(reply, _argument_strings(step.turn.tool_calls), tokenizer)
        out.append((prompt_ids, reply_ids, None))
        seen_text, seen_ids = prompt + reply, [*prompt_ids, *reply_ids]
    return out


def reply_token_ids(reply: str, values: Sequence[str], tokenizer: Any) -> list[int]:
    """The reply's ids with each argument string value tokenized on its own, the JSON around it apart.

    Why: a student copies a query from the question token by token, and the question's tokens end
    where its text ends ("... ___." then end-of-turn: `Ġ__`, `_.`). Tokenized whole, the teacher's
    call merges that end with the JSON's closing quote (`Ġ___`, `."`, `}}`), a sequence the copy
    never produces; SmolLM2 then stopped mid-string (every "split blank" call of the sixth session's
    SFT evaluation was invalid). Tokenized piecewise, the trained ids are the copy's ids followed by
    the closing `"}}`. The text is unchanged: the ids decode to `reply` exactly.
    """
    ids: list[int] = []
    at = 0
    for value in values:
        escaped = json.dumps(value, ensure_ascii=False)[1:-1]  # as render_tool_call writes it
        found = reply.find(escaped, at) if escaped else -1
        if found < 0:
            continue
        for piece in (reply[at:found], escaped):
            if piece:
                ids += tokenizer(piece, add_special_tokens=False)["input_ids"]
        at = found + len(escaped)
    return ids + (tokenizer(reply[at:], add_special_tokens=False)["input_ids"] if at < len(reply) else [])


def _argument_strings(calls: Sequence[Any]) -> list[str]:
    """String argument values of the calls, in the order `render_tool_call` writes them."""
    return [v for c in calls if c.parse_error is None for v in dict(c.arguments).values() if isinstance(v, str)]


def sft_datums(trajectory: Any, tokenizer: Any, trajectory_index: int = 0) -> list[Datum]:
    """SFT datums of a teacher trajectory: recorded ids when it has them, else rendered ones."""
    has_ids = all(s.turn.prompt_token_ids is not None and s.turn.token_ids is not None for s in trajectory.steps)
    turns = trajectory_turns(trajectory) if has_ids and trajectory.steps else teacher_turn_ids(trajectory, tokenizer)
    return turns_to_datums(turns, 1.0, trajectory_index)


def _chat_for(
    tokenizer: Any, messages: Sequence[Any], tools: Sequence[Any]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Chat dicts and template kwargs, as `context1.backends.toolcalls.render_prompt` builds them."""
    from context1.backends.toolcalls import (
        messages_for_native_template,
        messages_with_tools_in_prompt,
        template_supports_tools,
    )

    if template_supports_tools(getattr(tokenizer, "chat_template", None)):
        return messages_for_native_template(messages), ({"tools": [dict(t) for t in tools]} if tools else {})
    return list(messages_with_tools_in_prompt(messages, tools)), {}


def _cut_after_end_marker(reply: str, tokenizer: Any) -> str:
    """The assistant reply up to and including its end-of-turn marker (what the model samples)."""
    for marker in ("<|im_end|>", "<|eot_id|>", "<|end|>", tokenizer.eos_token or ""):
        if marker and marker in reply:
            return reply[: reply.rindex(marker) + len(marker)]
    return reply


def chat_reply_ids(tokenizer: Any, prompt: str, reply: str) -> tuple[list[int], list[int]]:
    """(prompt ids, reply ids) of one user message and the assistant's reply, in the tokenizer's chat
    template: the prompt ends with the generation prompt, the reply with its end-of-turn marker (what a
    model samples after that prompt)."""
    user = [{"role": "user", "content": prompt}]
    head = tokenizer.apply_chat_template(user, tokenize=False, add_generation_prompt=True)
    full = tokenizer.apply_chat_template([*user, {"role": "assistant", "content": reply}], tokenize=False)
    if not full.startswith(head):
        raise ValueError("the chat template does not render the reply as an extension of the prompt")
    tail = _cut_after_end_marker(full[len(head) :], tokenizer)
    return (
        tokenizer(head, add_special_tokens=False)["input_ids"],
        tokenizer(tail, add_special_tokens=False)["input_ids"],
    )
