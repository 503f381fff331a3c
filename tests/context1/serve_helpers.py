"""Helpers for the server, MCP and integration tests: a real uvicorn server on 127.0.0.1, and a slow backend.

`live_server(app)` runs uvicorn in a thread on a free loopback port and yields its base URL; the
tests talk to it with real HTTP clients (httpx), as a user's process would.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from context1.backends.scripted import ScriptedBackend, call, turn

STARTUP_TIMEOUT_S = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def live_server(app: Any) -> Iterator[str]:
    """Serve `app` with uvicorn on 127.0.0.1:<free port> in a thread; yields "http://127.0.0.1:<port>"."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="test-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn did not start on port {port}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


class SlowSearches:
    """A script of `n` search turns, each taking `delay_s` of "model time", then an answer.

    `calls` counts the turns the backend was asked for: after a cancellation it stops growing.
    """

    def __init__(self, n: int = 40, delay_s: float = 0.2) -> None:
        self.calls = 0
        self._lock = threading.Lock()
        self.n, self.delay_s = n, delay_s

    def _search(self, i: int):
        def item(messages):
            with self._lock:
                self.calls += 1
            time.sleep(self.delay_s)
            return turn(call("search_corpus", query=f"harbour lighthouse ferry {i}"))
        return item

    def backend(self) -> ScriptedBackend:
        items = [self._search(i) for i in range(self.n)]
        items.append("<Document id=veldhaven><Justification>Done.</Justification></Document>")
        return ScriptedBackend(items)
