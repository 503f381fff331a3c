"""Retriever adapters for LangChain and LlamaIndex (optional extras, imported on first use).

    from context1.interfaces.integrations import LangChainSearchRetriever      # pip install "context1[langchain]"
    from context1.interfaces.integrations import LlamaIndexAgentRetriever      # pip install "context1[llamaindex]"

Each name is looked up lazily, so `import context1.interfaces.integrations` never needs either library;
touching an adapter whose library is missing raises ImportError naming the install.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "LangChainSearchRetriever": "context1.interfaces.integrations.langchain",
    "LangChainAgentRetriever": "context1.interfaces.integrations.langchain",
    "LlamaIndexSearchRetriever": "context1.interfaces.integrations.llamaindex",
    "LlamaIndexAgentRetriever": "context1.interfaces.integrations.llamaindex",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'context1.interfaces.integrations' has no attribute {name!r}; it has {', '.join(__all__)}")
    return getattr(import_module(module), name)
