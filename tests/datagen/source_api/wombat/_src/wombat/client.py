"""The client."""

import os
from typing import Any, TypeVar

T_hook = TypeVar("T_hook")


class Response:
    """A response."""


class Client:
    """Sends requests.

    :param timeout: seconds to wait for the server.
    """

    def __init__(self, timeout: float = 5.0, base_url: str = "https://example.org", *args, **kwargs) -> None:
        self.timeout = timeout

    def get(
        self,
        url: str,
        *,
        follow_redirects: bool = False,
        retries: int = -1,
        hooks: tuple = (),
        cwd: str = os.getcwd(),
    ) -> Response:
        """Send a GET request.

        :raises TimeoutError: if the server does not answer within the timeout.
        """
        return self._send(url)

    @property
    def is_closed(self) -> bool:
        """Whether the client was closed."""
        return False

    def _send(self, url: str, attempt: int = 1) -> Response:
        return Response()


def load(data: bytes) -> Any:
    """Load data."""
    return data


def hook(f: T_hook) -> T_hook:
    """Register a hook."""
    return f


def build(name: str = "default") -> Client:
    """Build a client.

    Raises:
        ValueError: If name is empty or holds a space.
    """
    return Client()


class _Pool:
    def acquire(self, wait: bool = True) -> bool:
        return wait
