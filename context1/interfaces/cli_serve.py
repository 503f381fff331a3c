"""`context1 serve INDEX` and `context1 mcp INDEX`: the index and its agent over HTTP / MCP.

Thin layers over `context1.interfaces.server.serve` and `context1.interfaces.mcp_server.run_mcp`: they open the index
(a missing or damaged one ends the command with one line saying what to do, exit status 2, before
anything listens), build the backend exactly as `context1 ask` does, and start serving.

Access: the server's own key comes from `--api-key-file PATH` or the CONTEXT1_API_KEY variable
(read here, the only place); a key file that cannot be read or is empty stops the command before
anything listens. `--model-api-key` is the key of the `--backend openai` endpoint; `--api-key`, which
once meant that, is refused with a message naming both flags (it read as this server's key).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from context1.config import MAX_ROLLOUTS, AgentConfig
from context1.interfaces.cli_ask import BACKENDS, ModelApiKey, build_backend
from context1.interfaces.cli_corpus import (
    EXIT_USAGE,
    CommandError,
    IndexArg,
    OldRolloutsK,
    chroma_client,
    deprecated_rollouts_k,
    open_index,
)
from corpus_tools.types import CorpusError

Host = Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")]
Backend = Annotated[str, typer.Option("--backend", "-b", help=f"Inference backend of `ask`: {', '.join(BACKENDS)}.")]
BaseUrl = Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint for --backend openai.")]
Model = Annotated[str | None, typer.Option("--model", help="Model name (openai) or local model path.")]
OldApiKey = Annotated[str | None, typer.Option("--api-key", hidden=True, help="Refused: use --model-api-key or --api-key-file.")]
ApiKeyFile = Annotated[Path | None, typer.Option(
    "--api-key-file",
    help="File holding this server's key: clients must send `Authorization: Bearer KEY` (all but /health). "
         "Default: the CONTEXT1_API_KEY variable; neither: no key.")]
MaxInFlight = Annotated[int, typer.Option("--max-in-flight", help="Requests handled at once; more get 429.", min=1)]
Policy = Annotated[Path | None, typer.Option("--policy", help="--backend learned: a `context1 train policy` folder.")]
Script = Annotated[Path | None, typer.Option("--script", help="Turns to replay for --backend scripted (JSONL).")]
Budget = Annotated[int, typer.Option("--budget", help="Token budget T_budget of each episode.", min=512)]
Rollouts = Annotated[int, typer.Option("--rollouts", help=f"Default k× rollouts of `ask` (1 to {MAX_ROLLOUTS}).")]
MaxTurns = Annotated[int, typer.Option("--max-turns", help="Most model turns per rollout.", min=1)]
ChromaHost = Annotated[str | None, typer.Option("--chroma-host", help="Chroma server holding the vectors.", show_default="in INDEX")]
ChromaPort = Annotated[int, typer.Option("--chroma-port", help="Port of the Chroma server.", min=1, max=65535)]


@contextmanager
def _clean_exit() -> Iterator[None]:
    """Expected failures: one line on stderr and exit status 2, no traceback."""
    try:
        yield
    except (CommandError, CorpusError, FileNotFoundError, ValueError) as exc:  # ApiKeyError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        raise typer.Exit(EXIT_USAGE) from None


def refuse_api_key(old: str | None) -> None:
    """`serve|mcp --api-key` named two keys (the upstream model's, read as this server's): refused, naming both flags."""
    if old is not None:
        raise CommandError("--api-key is ambiguous here and no longer accepted: this server's own key comes from "
                           "--api-key-file PATH or the CONTEXT1_API_KEY variable; the --backend openai endpoint's key "
                           "is --model-api-key (or OPENAI_API_KEY)")


def server_key(key_file: Path | None) -> str | None:
    """This server's API key: --api-key-file, else CONTEXT1_API_KEY, else None (ApiKeyError when unusable)."""
    from context1.interfaces.guard import API_KEY_ENV, load_api_key

    return load_api_key(os.environ.get(API_KEY_ENV), key_file)


def _warn_if_open(host: str, key: str | None, what: str) -> None:
    from context1.interfaces.guard import is_loopback

    if key is None and not is_loopback(host):
        print(f"context1: warning: {what} on {host} without an API key: anyone who can reach it can search the "
              "index and run the agent; set CONTEXT1_API_KEY or --api-key-file", file=sys.stderr)


def open_agent(index: Path, backend: str, *, base_url: str | None, model: str | None, api_key: str | None,
               script: Path | None, budget: int, rollouts: int, max_turns: int, chroma_host: str | None,
               chroma_port: int, policy: Path | None = None) -> tuple[Any, Any]:
    """(corpus, SearchAgent) for a serve/mcp command; CommandError when the index cannot be used."""
    from context1.agent import SearchAgent

    config = AgentConfig(token_budget=budget, rollouts=rollouts, max_turns=max_turns)
    corpus = open_index(index, chroma_client(chroma_host, chroma_port))
    chosen = build_backend(backend, corpus, base_url=base_url, model=model, api_key=api_key, script=script,
                           policy=policy)
    return corpus, SearchAgent(corpus, chosen, config)


def serve_command(
    index: IndexArg,
    host: Host = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.", min=1, max=65535)] = 8765,
    backend: Backend = "iterative",
    base_url: BaseUrl = None,
    model: Model = None,
    api_key: ModelApiKey = None,
    old_api_key: OldApiKey = None,
    api_key_file: ApiKeyFile = None,
    script: Script = None,
    policy: Policy = None,
    budget: Budget = 32_768,
    rollouts: Rollouts = 1,
    old_k: OldRolloutsK = None,
    max_turns: MaxTurns = 32,
    request_timeout: Annotated[
        float, typer.Option("--request-timeout", help="Seconds a search/grep/read may take before a 504.", min=0.001)
    ] = 30.0,
    ask_timeout: Annotated[
        float, typer.Option("--ask-timeout", help="Seconds an ask episode may run before it is cancelled.", min=0.001)
    ] = 600.0,
    max_episodes: Annotated[
        int, typer.Option("--max-episodes", help="Ask episodes running at once; more get 503.", min=1)
    ] = 16,
    max_in_flight: MaxInFlight = 128,
    chroma_host: ChromaHost = None,
    chroma_port: ChromaPort = 8000,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn's log level.")] = "info",
) -> None:
    """Serve INDEX over HTTP: search, grep, read and the streaming agent (`ask`); docs at /docs."""
    from context1.interfaces.server import ServerConfig, serve

    with _clean_exit():
        refuse_api_key(old_api_key)
        rollouts = deprecated_rollouts_k(old_k, rollouts)
        config = ServerConfig(request_timeout_s=request_timeout, ask_timeout_s=ask_timeout, max_episodes=max_episodes,
                              max_in_flight=max_in_flight, api_key=server_key(api_key_file), host=host)
        corpus, agent = open_agent(index, backend, base_url=base_url, model=model, api_key=api_key, script=script,
                                   budget=budget, rollouts=rollouts, max_turns=max_turns, chroma_host=chroma_host,
                                   chroma_port=chroma_port, policy=policy)
    _warn_if_open(host, config.api_key, "serving")
    access = "API key required" if config.api_key else "no API key"
    print(f"context1: serving {corpus!r} on http://{host}:{port} (docs at /docs; {access})", file=sys.stderr)
    serve(corpus, agent, config, port=port, log_level=log_level)


def mcp_command(
    index: IndexArg,
    transport: Annotated[
        str, typer.Option("--transport", "-t", help="'stdio' (for an MCP client that starts us) or 'http'.")
    ] = "stdio",
    host: Host = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port for --transport http.", min=1, max=65535)] = 8766,
    backend: Backend = "iterative",
    base_url: BaseUrl = None,
    model: Model = None,
    api_key: ModelApiKey = None,
    old_api_key: OldApiKey = None,
    api_key_file: ApiKeyFile = None,
    script: Script = None,
    policy: Policy = None,
    budget: Budget = 32_768,
    rollouts: Rollouts = 1,
    old_k: OldRolloutsK = None,
    max_turns: MaxTurns = 32,
    ask_timeout: Annotated[
        float, typer.Option("--ask-timeout", help="Seconds an ask call may run before it is cancelled.", min=0.001)
    ] = 600.0,
    max_episodes: Annotated[
        int, typer.Option("--max-episodes", help="Ask calls running at once; more get a busy error.", min=1)
    ] = 16,
    max_in_flight: MaxInFlight = 128,
    chroma_host: ChromaHost = None,
    chroma_port: ChromaPort = 8000,
) -> None:
    """Serve INDEX as an MCP server: search_corpus, grep_corpus, read_document, prune_chunks and ask."""
    from context1.interfaces.episodes import Episodes
    from context1.interfaces.guard import GuardConfig, is_loopback
    from context1.interfaces.mcp_server import TRANSPORTS, run_mcp

    with _clean_exit():
        refuse_api_key(old_api_key)
        rollouts = deprecated_rollouts_k(old_k, rollouts)
        if transport not in TRANSPORTS:
            raise CommandError(f"unknown transport {transport!r}; choose one of {', '.join(TRANSPORTS)}")
        key = server_key(api_key_file) if transport == "http" else None
        if transport == "stdio" and api_key_file is not None:
            raise CommandError("--api-key-file applies to --transport http (stdio has no network to protect)")
        guard = GuardConfig(api_key=key, loopback_only=is_loopback(host), max_in_flight=max_in_flight)
        corpus, agent = open_agent(index, backend, base_url=base_url, model=model, api_key=api_key, script=script,
                                   budget=budget, rollouts=rollouts, max_turns=max_turns, chroma_host=chroma_host,
                                   chroma_port=chroma_port, policy=policy)
        episodes = Episodes(agent, max_episodes=max_episodes, timeout_s=ask_timeout)
    if transport == "http":
        _warn_if_open(host, key, "serving MCP")
    run_mcp(corpus, agent, transport=transport, host=host, port=port, guard=guard, episodes=episodes)


def register(app: typer.Typer) -> None:
    """Add `serve` and `mcp` to the context1 command line."""
    app.command("serve")(serve_command)
    app.command("mcp")(mcp_command)
