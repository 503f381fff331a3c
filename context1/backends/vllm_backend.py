"""vLLM in-process (offline `vllm.LLM`): fast GPU rollouts that record token ids and logprobs.

Needs the GPU extra: `pip install context1[gpu]`. vLLM is imported only when the backend is
built, so the rest of context1 works without it.

It renders the prompt with the model's chat template exactly as the transformers backend does
(toolcalls.render_prompt), feeds vLLM the prompt token ids, and records the sampled token ids
and their logprobs. By default the engine is started with `logprobs_mode="processed_logprobs"`
(vLLM >= 0.10.2), so the logprobs are those of the tempered, top-p-truncated distribution the
tokens were drawn from — the same quantity TransformersBackend records. Override through
`engine_kwargs` (e.g. {"logprobs_mode": "raw_logprobs"}) for untempered model logprobs.

Token in, token out across turns as in the transformers backend (`token_ids.PromptExtender`).

Batched (`generate_batch`, driven by `context1.lockstep` and RL's rollouts): every waiting
episode's prompt goes to one `LLM.generate` call with its own SamplingParams (its own seed), so
the engine batches them; each episode is a `with_seed` copy holding its own token-in/token-out ids.

As RL's sampler (`train_rl(..., sampler=VLLMBackend(..., engine_kwargs={"enable_lora": True}))`):
after every policy update the trainer saves only the LoRA adapter and calls `load_adapter`, which
samples with it from then on under a new LoRA id (vLLM caches adapters by id) and resets the prefix
cache (its KV blocks were computed by the previous policy). Not run here: no GPU on this project's
machines; the wiring is tested against a stand-in engine (tests/training/test_vllm_sampler.py).

To serve many processes instead, run `vllm serve` and use OpenAIBackend (docs/backends.md).
"""

from __future__ import annotations

import copy
import random
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from context1.backends.token_ids import PromptExtender, stop_token_ids
from context1.backends.toolcalls import chat_for_template, render_prompt
from context1.backends.transformers_local import turn_from_tokens
from context1.types import BackendError, Message, ModelTurn

_INSTALL_HINT = "VLLMBackend needs vLLM and a CUDA GPU: pip install context1[gpu]"


def _import_vllm() -> Any:
    try:
        import vllm
    except ImportError as exc:
        raise ImportError(f"{_INSTALL_HINT} ({exc})") from exc
    return vllm


class VLLMBackend:
    """Generate with an in-process vLLM engine.

    model_path: a local Hugging Face model folder (or anything `vllm.LLM(model=...)` accepts
        offline). max_new_tokens, temperature, top_p: sampling. seed: engine seed and the
        stream of per-request seeds (each request gets its own, so k copies made with
        `with_seed` sample independently and reproducibly).
    tools_in_prompt: None decides from the chat template (see toolcalls.render_prompt).
    engine_kwargs: passed to `vllm.LLM` (gpu_memory_utilization, max_model_len, dtype, ...;
        enable_lora=True and max_lora_rank for `load_adapter`).
    llm: an already built `vllm.LLM` to share between backends (engine_kwargs then ignored).
    adapter: a LoRA adapter folder to sample with from the start (see `load_adapter`).
    """

    def __init__(
        self,
        model_path: str,
        *,
        max_new_tokens: int = 1024,  # as TransformersBackend
        temperature: float = 1.0,  # RL rollouts sample at T=1 (on-policy)
        top_p: float = 1.0,
        seed: int = 0,
        tools_in_prompt: bool | None = None,
        engine_kwargs: Mapping[str, Any] | None = None,
        llm: Any = None,
        adapter: str | None = None,
    ) -> None:
        self._vllm = _import_vllm()
        self.model_path = model_path
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature
        self.top_p = top_p
        self.seed = seed
        self.tools_in_prompt = tools_in_prompt
        if llm is None:
            kwargs = {"logprobs_mode": "processed_logprobs", **dict(engine_kwargs or {})}
            llm = self._vllm.LLM(model=model_path, seed=seed, **kwargs)
        self.llm = llm
        self.tokenizer = llm.get_tokenizer()
        self._seeds = random.Random(seed)
        self._stop_ids = stop_token_ids(self.tokenizer)
        self._ids = PromptExtender(self.tokenizer, self._stop_ids)
        self._lora: Any = None  # the LoRARequest every generate call passes (None: base weights)
        self._lora_serial = 0
        if adapter is not None:
            self.load_adapter(adapter)

    @property
    def name(self) -> str:
        return f"vllm:{self.model_path}"

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=False))

    def with_seed(self, seed: int) -> VLLMBackend:
        """A copy with its own stream of request seeds, sharing the engine."""
        clone = copy.copy(self)
        clone.seed = seed
        clone._seeds = random.Random(seed)
        clone._ids = PromptExtender(self.tokenizer, self._stop_ids)  # each copy is its own conversation
        return clone

    def load_adapter(self, path: str) -> None:
        """Sample with the LoRA adapter folder `path` from now on (RL: after every policy update).

        Only the adapter travels; the engine needs enable_lora=True (and max_lora_rank at least
        the adapter's rank). A fresh id makes vLLM load these weights rather than its cached copy
        of an earlier adapter; the prefix cache and the last turn's ids are dropped (`reset`).
        """
        if not (Path(path) / "adapter_config.json").is_file():
            raise FileNotFoundError(f"no PEFT adapter at {str(path)!r} (expected adapter_config.json)")
        lora_request = _import_lora_request()
        self._lora_serial += 1
        self._lora = lora_request(f"policy-{self._lora_serial}", self._lora_serial, str(path))
        self.reset()

    def reset(self) -> None:
        """Forget the last turn's ids and the engine's prefix cache (the weights changed)."""
        self._ids.reset()
        reset_cache = getattr(self.llm, "reset_prefix_cache", None)
        if reset_cache is not None and reset_cache() is False:  # older vLLM returns None
            raise BackendError("vLLM could not reset its prefix cache (requests still running?)")

    def render(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> str:
        return render_prompt(self.tokenizer, messages, tools, tools_in_prompt=self.tools_in_prompt)

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> ModelTurn:
        (turn,) = self.generate_batch([(self, messages, tools)])
        if isinstance(turn, BackendError):
            raise turn
        return turn

    def generate_batch(
        self, requests: Sequence[tuple[VLLMBackend, Sequence[Message], Sequence[Mapping[str, Any]]]]
    ) -> list[ModelTurn | BackendError]:
        """The next turn of every (stream, messages, tools) request in one `LLM.generate` call.

        Each stream is a `with_seed` copy of this backend (its own ids and request seeds; the
        engine and the adapter are this backend's). vLLM schedules the prompts together (continuous
        batching). A prompt longer than the engine's max_model_len, or a request the engine rejects,
        gets a BackendError in its place: when the batched call fails, the requests are retried one
        by one so that only the failing ones fail.
        """
        start = time.perf_counter()
        limit = _max_model_len(self.llm)
        out: list[ModelTurn | BackendError | None] = [None] * len(requests)
        todo: list[tuple[int, VLLMBackend, list[int], Any]] = []
        for i, (stream, messages, tools) in enumerate(requests):
            chat, kwargs = chat_for_template(stream.tokenizer, messages, tools, tools_in_prompt=stream.tools_in_prompt)
            prompt_ids = list(stream._ids.prompt(chat, kwargs, tools, extend=True))
            if limit is not None and len(prompt_ids) >= limit:
                out[i] = BackendError(f"the prompt ({len(prompt_ids):,} tokens) exceeds the engine's "
                                      f"max_model_len ({limit:,})")
                continue
            todo.append((i, stream, prompt_ids, stream._params()))
        if todo:
            try:
                results = self._generate([p for _, _, p, _ in todo], [q for _, _, _, q in todo])
            except BackendError:
                results = []
                for _, _, p, q in todo:
                    try:
                        results.append(self._generate([p], [q])[0])
                    except BackendError as exc:
                        results.append(exc)
            for (i, stream, prompt_ids, _), result in zip(todo, results, strict=True):
                out[i] = result if isinstance(result, BackendError) else stream._turn(prompt_ids, result, start)
        return out  # type: ignore[return-value]

    def _params(self) -> Any:
        return self._vllm.SamplingParams(
            temperature=self.temperature,
            top_p=self.top_p,
            max_tokens=self.max_new_tokens,
            seed=self._seeds.randrange(2**31),
            logprobs=0,  # 0 = only the sampled token's logprob
            stop_token_ids=sorted(self._stop_ids),  # <|im_end|> too, not only the config's eos
        )

    def _generate(self, prompts: list[list[int]], params: list[Any]) -> list[Any]:
        try:
            results = self.llm.generate(
                [{"prompt_token_ids": p} for p in prompts], params, use_tqdm=False, lora_request=self._lora
            )
        except Exception as exc:  # engine failures (OOM, prompt longer than max_model_len, ...)
            raise BackendError(f"vLLM generation failed: {type(exc).__name__}: {exc}") from exc
        if len(results) != len(prompts):
            raise BackendError(f"vLLM returned {len(results)} results for {len(prompts)} prompts")
        return list(results)

    def _turn(self, prompt_ids: list[int], result: Any, start: float) -> ModelTurn:
        completion = result.outputs[0]
        token_ids = list(completion.token_ids)
        logprobs = None
        if completion.logprobs is not None:
            logprobs = [float(step[tok].logprob) for step, tok in zip(completion.logprobs, token_ids, strict=False)]
        # Where vLLM leaves the stop token out of token_ids, the extender closes the turn with the
        # template's end-of-turn token as a prompt token, as for a turn cut off by max_tokens.
        self._ids.record(prompt_ids, token_ids)
        return turn_from_tokens(
            self.tokenizer,
            prompt_ids,
            token_ids,
            logprobs,
            None if completion.finish_reason is None else str(completion.finish_reason),  # "stop" / "length"
            time.perf_counter() - start,
        )


def _max_model_len(llm: Any) -> int | None:
    """The engine's context window (vLLM: llm.llm_engine.model_config.max_model_len), when it says."""
    config = getattr(getattr(llm, "llm_engine", None), "model_config", None)
    value = getattr(config, "max_model_len", None)
    return value if isinstance(value, int) and value > 0 else None


def _import_lora_request() -> Any:
    try:
        from vllm.lora.request import LoRARequest
    except ImportError as exc:
        raise ImportError(f"{_INSTALL_HINT} ({exc})") from exc
    return LoRARequest
