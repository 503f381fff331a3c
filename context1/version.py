"""The installed context1 version (`context1 --version`, the servers' /openapi.json and MCP handshake)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("context1")
except PackageNotFoundError:  # a source checkout run without `pip install -e .`
    __version__ = "0.1.0"
