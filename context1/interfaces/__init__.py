"""The interfaces: how people and programs reach the harness core (DESIGN.md's layers).

    context1 (the console script)  -> context1.interfaces.cli:main
    HTTP server / client           -> create_app, serve, ServerConfig / Client, ServerError
    MCP server                     -> create_mcp, run_mcp
    LangChain / LlamaIndex         -> context1.interfaces.integrations

They translate for the core (`context1.agent`, `context1.harness`, `context1.backends`, ...) and
the core never imports them: tests/test_layers.py fails on an arrow from the core into this package.
Each name is imported on first use, so `context1 search` does not pay for FastAPI, httpx or MCP.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "main": "context1.interfaces.cli",
    "Client": "context1.interfaces.client",
    "ServerError": "context1.interfaces.client",
    "ServerConfig": "context1.interfaces.server",
    "create_app": "context1.interfaces.server",
    "serve": "context1.interfaces.server",
    "create_mcp": "context1.interfaces.mcp_server",
    "run_mcp": "context1.interfaces.mcp_server",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'context1.interfaces' has no attribute {name!r}; it has {', '.join(__all__)}")
    return getattr(import_module(module), name)
