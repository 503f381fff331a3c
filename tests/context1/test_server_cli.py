"""`context1 serve` / `context1 mcp` from the command line: clean exits on bad indexes, and a real served index."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import typer
from serve_helpers import free_port
from typer.testing import CliRunner

from context1 import Client
from context1.interfaces import cli_serve

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:  # a group, so the commands are invoked by name
        """context1 (test)."""

    cli_serve.register(app)
    return app


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_a_missing_index_exits_with_a_clear_message(app, tmp_path, command):
    res = CliRunner().invoke(app, [command, str(tmp_path / "nowhere")])
    assert res.exit_code == 2
    assert "no index at" in res.output and "context1 index" in res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_a_damaged_index_exits_with_a_clear_message(app, tmp_path, command):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "manifest.json").write_text("{ not json", encoding="utf-8")
    res = CliRunner().invoke(app, [command, str(broken)])
    assert res.exit_code == 2
    assert "broken context1 index" in res.output and "Rebuild" in res.output
    not_an_index = tmp_path / "plain"
    not_an_index.mkdir()
    res = CliRunner().invoke(app, [command, str(not_an_index)])
    assert res.exit_code == 2 and "not a context1 index" in res.output


def test_bad_options_exit_cleanly(app, harness_corpus):
    res = CliRunner().invoke(app, ["serve", str(harness_corpus.path), "--backend", "nonsense"])
    assert res.exit_code == 2 and "unknown backend" in res.output
    res = CliRunner().invoke(app, ["mcp", str(harness_corpus.path), "--transport", "carrier-pigeon"])
    assert res.exit_code == 2 and "unknown transport" in res.output


@pytest.mark.parametrize("command", ["serve", "mcp"])
def test_the_upstream_key_is_model_api_key_and_api_key_is_refused(app, harness_corpus, monkeypatch, command):
    """`serve --api-key mysecret` once served without auth (it was the upstream model's key)."""
    res = CliRunner().invoke(app, [command, str(harness_corpus.path), "--api-key", "mysecret"])
    assert res.exit_code == 2 and "--api-key-file" in res.output and "--model-api-key" in res.output
    assert "mysecret" not in res.output
    seen = {}

    def fake_backend(name, corpus, **kwargs):
        seen.update(kwargs)
        raise cli_serve.CommandError("stop here")

    monkeypatch.setattr(cli_serve, "build_backend", fake_backend)
    res = CliRunner().invoke(app, [command, str(harness_corpus.path), "--model-api-key", "upstream"])
    assert res.exit_code == 2 and "stop here" in res.output and seen["api_key"] == "upstream"
    help_text = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "300"}).output
    assert "--model-api-key" in help_text and "--api-key " not in help_text


def test_ask_api_key_still_works_with_a_warning(harness_corpus, monkeypatch):
    from context1.interfaces import cli_ask

    ask = typer.Typer()
    ask.callback()(lambda: None)
    cli_ask.register(ask)
    seen = {}

    def fake_backend(name, corpus, **kwargs):
        seen.update(kwargs)
        raise cli_ask.CommandError("stop here")

    monkeypatch.setattr(cli_ask, "build_backend", fake_backend)
    res = CliRunner().invoke(ask, ["ask", str(harness_corpus.path), "lighthouse", "--api-key", "old"])
    assert res.exit_code == 2 and "deprecated" in res.output and "--model-api-key" in res.output
    assert seen["api_key"] == "old"


@pytest.mark.slow
def test_context1_serve_serves_an_index_until_stopped(harness_corpus, tmp_path):
    """The real command in its own process: health, a search, an ask, then a clean stop."""
    port = free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
    cmd = [sys.executable, "-c", "from context1.interfaces.cli import main; main()", "serve", str(harness_corpus.path),
           "--port", str(port), "--log-level", "warning"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 180
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.25)
        with Client(f"http://127.0.0.1:{port}") as client:
            assert [h.chunk.chunk_id for h in client.search("lighthouse", k=3)] == [
                h.chunk.chunk_id for h in harness_corpus.search("lighthouse", k=3)]
            assert client.run("Who designed the lighthouse of Korrin Bay?").documents
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert "serving" in log.read_text()
