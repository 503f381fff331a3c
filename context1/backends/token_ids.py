"""Token in, token out across turns, for the backends that sample token ids themselves.

verl's agent-loop notes report PPO failing to converge when the chat template is re-applied
between turns: the model then conditions on a re-serialisation of its parsed tool calls, not on
the tokens it sampled. `PromptExtender` remembers the last turn (its chat, prompt text, prompt ids
and sampled ids). When the next conversation is that one plus the assistant message the harness
built from it plus messages of other roles (nothing pruned or edited), the next prompt is

    previous prompt ids + sampled ids + ids of the new messages

and the assistant message's rendering by the template is never tokenized. A turn cut off by
max_new_tokens gets the template's end-of-turn token appended, as a prompt token. Anything else
(pruning replaced chunks by markers, other tools) renders the prompt afresh: the append-only prefix
breaks there, and `training.datums` starts a new training segment at exactly such breaks.

The transformers and vLLM backends share this, so their recorded ids mean the same thing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass
class _LastTurn:
    """What the previous turn saw and produced."""

    chat: list[dict[str, Any]]  # the chat dicts of its prompt
    tools_key: str  # the tool schemas it was given, serialised (a change breaks the prefix)
    prompt_text: str  # its rendered prompt (generation prompt included)
    ids: list[int]  # its prompt ids + sampled ids (+ the end-of-turn id when generation was cut off)
    ended: bool  # the sampled ids end with an end-of-turn token


class PromptExtender:
    """The next prompt's ids: extended from the last turn where the chat allows it, else rendered.

    tokenizer: a Hugging Face tokenizer with a chat template. stop_ids: the end-of-turn token ids
    the sampler stops on (the marker the template closes an assistant turn with is among them).
    """

    def __init__(self, tokenizer: Any, stop_ids: frozenset[int]) -> None:
        self.tokenizer = tokenizer
        self.stop_ids = stop_ids
        self._last: _LastTurn | None = None
        self._pending: tuple[list[dict[str, Any]], str, str] | None = None

    def reset(self) -> None:
        """Forget the last turn: the next prompt is rendered afresh."""
        self._last = None
        self._pending = None

    def prompt(
        self, chat: list[dict[str, Any]], kwargs: Mapping[str, Any], tools: Sequence[Mapping[str, Any]], extend: bool
    ) -> list[int]:
        """The prompt ids for `chat` (template kwargs `kwargs`); `extend` False always renders afresh."""
        tools_key = json.dumps([dict(t) for t in tools], sort_keys=True, default=str)
        text = self.tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True, **kwargs)
        ids = self._extend(chat, kwargs, tools_key, text) if extend else None
        if ids is None:
            ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
        self._pending = (chat, tools_key, text)
        return ids

    def record(self, prompt_ids: Sequence[int], token_ids: Sequence[int]) -> None:
        """What was sampled for the last `prompt` call: the next prompt may extend it."""
        if self._pending is None:
            raise RuntimeError("record() without a prompt() before it")
        chat, tools_key, text = self._pending
        ended = bool(token_ids) and int(token_ids[-1]) in self.stop_ids
        self._last = _LastTurn(chat, tools_key, text, [*prompt_ids, *token_ids], ended)
        self._pending = None

    def _extend(self, chat: list[dict[str, Any]], kwargs: Mapping[str, Any], tools_key: str, prompt_text: str) -> list[int] | None:
        """Previous ids + sampled ids + the new messages' ids, or None (render afresh).

        None unless `chat` is the previous prompt's chat plus one assistant message plus messages
        of other roles, with the same tools, and the template renders it as the previous prompt
        followed by text (append-only). The assistant message's rendering is replaced by the
        sampled ids.
        """
        last = self._last
        n = len(last.chat) if last is not None else 0
        if last is None or last.tools_key != tools_key or len(chat) <= n + 1 or chat[:n] != last.chat:
            return None
        if chat[n].get("role") != "assistant" or any(c.get("role") == "assistant" for c in chat[n + 1 :]):
            return None
        with_reply = self.tokenizer.apply_chat_template(chat[: n + 1], tokenize=False, add_generation_prompt=False, **kwargs)
        if not (with_reply.startswith(last.prompt_text) and prompt_text.startswith(with_reply)):
            return None
        reply = with_reply[len(last.prompt_text) :]
        end = _last_marker(reply, self._stop_texts())
        if end is None:
            return None
        marker, at = end
        ids = list(last.ids)
        if not last.ended:  # cut off by max_new_tokens: the template closes the turn, as a prompt token
            ids.append(int(self.tokenizer.convert_tokens_to_ids(marker)))
        bridge = reply[at + len(marker) :] + prompt_text[len(with_reply) :]
        return ids + self.tokenizer(bridge, add_special_tokens=False)["input_ids"]

    def _stop_texts(self) -> list[str]:
        return [t for t in self.tokenizer.convert_ids_to_tokens(sorted(self.stop_ids)) if t]


def _last_marker(text: str, markers: Sequence[str]) -> tuple[str, int] | None:
    """The end-of-turn marker that occurs last in `text`, and where; None when none does."""
    best: tuple[str, int] | None = None
    for m in markers:
        at = text.rfind(m)
        if at >= 0 and (best is None or at > best[1]):
            best = (m, at)
    return best


def stop_token_ids(tokenizer: Any, generation_eos: Any = None) -> frozenset[int]:
    """End-of-turn ids: the tokenizer's eos, the generation config's eos (int or list), <|im_end|>."""
    ids: set[int] = set()
    for cand in (tokenizer.eos_token_id, generation_eos):
        if isinstance(cand, int):
            ids.add(cand)
        elif isinstance(cand, (list, tuple)):
            ids.update(int(c) for c in cand)
    for marker in ("<|im_end|>", "<|eot_id|>", "<|end|>"):
        tid = tokenizer.convert_tokens_to_ids(marker)
        if isinstance(tid, int) and tid != tokenizer.unk_token_id and tid >= 0:
            ids.add(tid)
    if not ids:
        raise ValueError("the tokenizer defines no end-of-sequence token; generation could not stop")
    return frozenset(ids)
