"""The gate in front of `context1 serve` and `context1 mcp --transport http`: one pure-ASGI middleware.

In order, for every HTTP request:
1. Host / Origin (when the server is bound to a loopback address): a browser page on another site
   can make a victim's browser send requests to 127.0.0.1 under its own host name (DNS
   rebinding). A Host header that is not a loopback name is answered 421, a cross-site Origin 403.
2. API key (when one is set): every path but `/health` needs `Authorization: Bearer KEY`, compared
   in constant time (`hmac.compare_digest`); otherwise 401. `/health` stays open for load balancers.
3. Requests in flight: past `max_in_flight` at once the request is answered 429 with Retry-After at
   once, so a flood costs a small reply each instead of a queued thread and a buffered body.
4. Body size: the body is read here, counting bytes as they arrive, chunked or not, and a body
   past `max_body_bytes` is answered 413 before the application parses any of it. What was read
   (at most the limit) is handed on to the application unchanged.

Memory is therefore bounded by `max_in_flight × max_body_bytes (128 MiB by default)` whatever clients send.
"""

from __future__ import annotations

import hmac
import json
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from ipaddress import ip_address
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

OPEN_PATHS = frozenset({"/health"})  # answered without a key (liveness probes)
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
API_KEY_ENV = "CONTEXT1_API_KEY"  # read by the CLI only (no environment reads below it)


class ApiKeyError(ValueError):
    """The API key cannot be used (an unreadable or empty key file): the server must not start."""


def load_api_key(key: str | None = None, key_file: str | Path | None = None) -> str | None:
    """The API key from `--api-key-file` (preferred) or a value (CONTEXT1_API_KEY); None when neither is set.

    ApiKeyError for a key file that cannot be read or is empty, or an empty value: a server the
    user meant to protect must not start unprotected.
    """
    if key_file is not None:
        path = Path(key_file).expanduser()
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
            raise ApiKeyError(f"cannot read the API key file {str(path)!r} ({reason}); give a readable file "
                              "holding one line, the key") from None
        key = text.strip()
        if not key:
            raise ApiKeyError(f"the API key file {str(path)!r} is empty; write the key into it, e.g. "
                              "`python -c 'import secrets; print(secrets.token_urlsafe(32))' > FILE`")
        return key
    if key is None:
        return None
    if not key.strip():
        raise ApiKeyError(f"{API_KEY_ENV} is set but empty; set it to the key, or unset it to serve without one")
    return key.strip()


def is_loopback(host: str) -> bool:
    """Whether the address a server binds to is reachable from this machine only."""
    name = host.strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ip_address(name).is_loopback
    except ValueError:
        return False


def _host_name(value: str) -> str:
    """The host part of a Host header ("127.0.0.1:8765", "[::1]:8765", "localhost")."""
    if value.startswith("["):
        return value[1:].split("]", 1)[0].lower()
    return value.rsplit(":", 1)[0].lower() if value.count(":") == 1 else value.lower()


@dataclass(frozen=True)
class GuardConfig:
    """api_key: None serves without authentication. loopback_only: check Host/Origin (set it when bound
    to a loopback address). max_in_flight: requests handled at once (429 past it). max_body_bytes: 413 past it.
    """

    api_key: str | None = None
    loopback_only: bool = True
    max_in_flight: int = 128
    max_body_bytes: int = 1 << 20

    def __post_init__(self) -> None:
        for name in ("max_in_flight", "max_body_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if self.api_key is not None and not self.api_key.strip():
            raise ValueError("api_key must not be empty (None serves without a key)")


class _TooLarge(Exception):
    pass


class Guard:
    """The ASGI middleware described in the module docstring."""

    def __init__(self, app: Any, config: GuardConfig) -> None:
        self.app, self.config = app, config
        self._key = config.api_key.encode() if config.api_key else None
        self._lock = threading.Lock()
        self.in_flight = 0

    async def __call__(self, scope: dict, receive: Callable[[], Awaitable[dict]], send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or ()}
        path = scope.get("path", "")
        refusal = self._check_headers(headers, path)
        if refusal is not None:
            await _reply(send, *refusal)
            return
        if path in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        with self._lock:
            full = self.in_flight >= self.config.max_in_flight
            if not full:
                self.in_flight += 1
        if full:
            await _reply(send, 429, f"the server already handles {self.config.max_in_flight} requests; retry shortly",
                         "busy", extra_headers=[(b"retry-after", b"1")])
            return
        try:
            length = headers.get("content-length", "")
            if length.isdigit() and int(length) > self.config.max_body_bytes:
                raise _TooLarge
            body = await _read_body(receive, self.config.max_body_bytes)
            await self.app(scope, _replay(body, receive), send)
        except _TooLarge:
            await _reply(send, 413, f"the request body is over the server's limit of {self.config.max_body_bytes:,} "
                                    "bytes; send shorter queries or fewer ids", "too_large")
        finally:
            with self._lock:
                self.in_flight -= 1

    def _check_headers(self, headers: dict[str, str], path: str) -> tuple[int, str, str] | None:
        if self.config.loopback_only:
            host = headers.get("host", "")
            if not is_loopback(_host_name(host)):
                return 421, "this server listens on a loopback address and answers only Host: localhost or " \
                            "127.0.0.1 (DNS rebinding protection); bind to another --host to serve other names", \
                       "bad_host"
            origin = headers.get("origin")
            if origin is not None and origin != "null" and not is_loopback(urlsplit(origin).hostname or ""):
                return 403, "cross-site requests are refused (Origin is not this machine)", "bad_origin"
            if origin == "null":
                return 403, "cross-site requests are refused (Origin: null)", "bad_origin"
        if self._key is not None and path not in OPEN_PATHS:
            given = headers.get("authorization", "")
            scheme, _, token = given.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode(), self._key):
                what = "no API key given" if not given else "wrong API key"
                return 401, f"{what}: send the header `Authorization: Bearer KEY` (the server's CONTEXT1_API_KEY " \
                            "or --api-key-file); Client(url, api_key=KEY) does it for you", "unauthorized"
        return None


async def _read_body(receive: Callable[[], Awaitable[dict]], limit: int) -> list[dict]:
    """The request's messages up to the end of its body; _TooLarge as soon as the bytes pass `limit`."""
    messages, total = [], 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages  # the client went away: the app sees the disconnect
        total += len(message.get("body", b""))
        if total > limit:
            raise _TooLarge
        if not message.get("more_body", False):
            return messages


def _replay(messages: list[dict], receive: Callable[[], Awaitable[dict]]) -> Callable[[], Awaitable[dict]]:
    pending = list(messages)

    async def replayed() -> dict:
        if pending:
            return pending.pop(0)
        return await receive()  # after the body: wait for the disconnect, as the app expects

    return replayed


async def _reply(send: Callable, status: int, detail: str, kind: str,
                 extra_headers: list[tuple[bytes, bytes]] | None = None) -> None:
    body = json.dumps({"detail": detail, "error": kind}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="context1"'))
    await send({"type": "http.response.start", "status": status, "headers": headers + (extra_headers or [])})
    await send({"type": "http.response.body", "body": body})
