"""`make_backend`: one entry point from a backend kind (CLI flag, config file) to a `Backend`.

Every backend module is imported only when its kind is asked for, so torch, vLLM or the
corpus-bound policies load only when used.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from context1.types import Backend


class BackendKind(str, Enum):
    OPENAI = "openai"  # any OpenAI-compatible server: OpenAI, vLLM serve, llama.cpp, SGLang
    TRANSFORMERS = "transformers"  # a local HF model (default: the bundled SmolLM2-135M GGUF)
    VLLM = "vllm"  # in-process vLLM engine (pip install context1[gpu])
    ITERATIVE = "iterative"  # the LLM-free policy; needs corpus=
    LEARNED = "learned"  # the learned search policy; corpus= and policy= a folder from `context1 train policy`
    SCRIPTED = "scripted"  # replays scripted turns (tests, demos)


def make_backend(
    kind: str | BackendKind,
    *,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    **kwargs: Any,
) -> Backend:
    """Build a backend by kind; `kwargs` go to its constructor.

    openai: base_url (required), model (None = the server's first model), api_key.
    transformers / vllm: model is the local model path (transformers: None = SmolLM2-135M GGUF).
    iterative: corpus= the opened Corpus. learned: corpus= and policy= the folder `context1 train policy`
    wrote (a missing or foreign folder raises here). scripted: the scripted backend's own arguments.
    Raises ValueError naming the valid kinds for an unknown kind.
    """
    try:
        kind = BackendKind(kind)
    except ValueError:
        raise ValueError(f"unknown backend kind {kind!r}; valid kinds: {[k.value for k in BackendKind]}") from None
    if kind != BackendKind.OPENAI and (base_url is not None or api_key is not None):
        raise ValueError(f"base_url / api_key apply to the 'openai' backend only, not {kind.value!r}")
    if kind == BackendKind.OPENAI:
        if not base_url:
            raise ValueError("the 'openai' backend needs base_url, e.g. http://127.0.0.1:8000/v1")
        from context1.backends.openai_compat import OpenAIBackend

        return OpenAIBackend(base_url, model, api_key, **kwargs)
    if kind == BackendKind.TRANSFORMERS:
        from context1.backends.transformers_local import TransformersBackend

        return TransformersBackend(_model_path(model, kwargs), **kwargs)
    if kind == BackendKind.VLLM:
        from context1.backends.vllm_backend import VLLMBackend

        path = _model_path(model, kwargs)
        if path is None:
            raise ValueError("the 'vllm' backend needs model= a local model folder")
        return VLLMBackend(path, **kwargs)
    if model is not None:
        raise ValueError(f"the {kind.value!r} backend takes no model")
    if kind == BackendKind.ITERATIVE:
        from context1.backends.iterative import IterativeRetrievalPolicy

        return IterativeRetrievalPolicy(**kwargs)
    if kind == BackendKind.LEARNED:
        from context1.backends.learned import LearnedSearchPolicy

        if kwargs.get("policy") is None:
            raise ValueError("the 'learned' backend needs policy= a folder written by `context1 train policy`")
        return LearnedSearchPolicy(**kwargs)
    from context1.backends.scripted import ScriptedBackend

    return ScriptedBackend(**kwargs)


def _model_path(model: str | None, kwargs: dict[str, Any]) -> Any:
    path = kwargs.pop("model_path", None)
    if model is not None and path is not None:
        raise ValueError("give the model path once: model= or model_path=, not both")
    return model if model is not None else path
