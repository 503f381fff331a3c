"""A per-thread deadline: work a caller gave up on stops at its next check instead of running on.

`context1 serve` runs each corpus call on a worker thread and answers 504 past its time limit;
the thread used to go on (a filter on chunk ids parsing every row, a first grep joining every
text) and hold a core for nothing. The server now runs the call inside `deadline(seconds)`, and
the loops that grow with the corpus call `check()`, which raises `DeadlineExceeded` once the time
is up. Outside a `deadline` block `check` costs one attribute read and never raises.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

_local = threading.local()


class DeadlineExceeded(TimeoutError):
    """The calling thread's deadline passed; its result would be thrown away."""


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Calls to `check` in this thread inside the block raise DeadlineExceeded after `seconds` (None: never)."""
    previous = getattr(_local, "at", None)
    _local.at = None if seconds is None else time.monotonic() + seconds
    try:
        yield
    finally:
        _local.at = previous


def check() -> None:
    at = getattr(_local, "at", None)
    if at is not None and time.monotonic() > at:
        raise DeadlineExceeded("the caller's time limit passed; the work was stopped")


def checked(items: Iterator, every: int = 1024) -> Iterator:
    """`items`, calling `check` every `every` items (for loops over every row)."""
    for i, item in enumerate(items):
        if not i % every:
            check()
        yield item
