"""A real llama.cpp OpenAI-compatible server (llama-cpp-python) serving the bundled SmolLM2-135M GGUF.

Import the fixture into a test module: `from llama_server import llama_server  # noqa: F401`.
A module may set `LLAMA_N_CTX = 4096` to serve a larger context than the default 2048, and
`LLAMA_CHAT_FORMAT = None` to serve with the GGUF's own chat template instead of llama-cpp-python's
"chatml-function-calling" (which carries OpenAI `tools` but renders no tool-result content).
It starts `python -m llama_cpp.server` on 127.0.0.1 with a free port, waits for /v1/models,
yields the base URL (".../v1") and stops the process after the module's tests.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from context1.backends.transformers_local import default_model_path

STARTUP_TIMEOUT_S = 180.0  # model load is ~1 s here; generous for a loaded CI machine
INSTALL_HINT = (
    'pip install "llama-cpp-python[server]" (with CMAKE_ARGS="-DGGML_NATIVE=OFF"), or pip install -e ".[dev]"'
)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def llama_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.fail(f"the llama.cpp server tests need llama-cpp-python: {INSTALL_HINT}")
    port = free_port()
    log_path: Path = tmp_path_factory.mktemp("llama") / "server.log"
    cmd = [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(default_model_path()),
        "--host", "127.0.0.1", "--port", str(port),
        "--n_ctx", str(getattr(request.module, "LLAMA_N_CTX", 2048)),
        # One thread for generation and one for prompts (the batch default is every core): llama.cpp's
        # threads spin at each barrier, so two threads on a busy 2-core machine (pytest, the other
        # tests' servers, whatever else runs) spent 10-15x the CPU of one for the same tokens.
        "--n_threads", "1", "--n_threads_batch", "1",
    ]  # fmt: skip
    chat_format = getattr(request.module, "LLAMA_CHAT_FORMAT", "chatml-function-calling")
    if chat_format is not None:
        cmd += ["--chat_format", chat_format]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama.cpp server exited with {proc.returncode}:\n{_tail(log_path)}")
            try:
                if httpx.get(f"{base_url}/models", timeout=2.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama.cpp server not ready after {STARTUP_TIMEOUT_S:g}s:\n{_tail(log_path)}")
            time.sleep(0.25)
        yield base_url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _tail(path: Path, n: int = 3000) -> str:
    return path.read_text(errors="replace")[-n:]
