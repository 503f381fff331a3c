"""Inference backends: one `Backend` protocol (context1.types) for every engine."""

from context1.backends.factory import BackendKind, make_backend
from context1.backends.iterative import IterativeRetrievalPolicy
from context1.backends.learned import LearnedSearchPolicy
from context1.backends.openai_compat import OpenAIBackend
from context1.backends.toolcalls import parse_tool_calls, render_tools_prompt
from context1.backends.transformers_local import TransformersBackend, default_model_path
from context1.backends.vllm_backend import VLLMBackend

__all__ = [
    "BackendKind",
    "IterativeRetrievalPolicy",
    "LearnedSearchPolicy",
    "OpenAIBackend",
    "TransformersBackend",
    "VLLMBackend",
    "default_model_path",
    "make_backend",
    "parse_tool_calls",
    "render_tools_prompt",
]
