"""The CLI help audit: every command's --help, walked from the root, reads as one grammar.

Fails on a placeholder the help names but the command does not define ("write it to OUT" in a
command without OUT), an option without help text, a default that is not shown, a stray " ."
or a "{name}" left unformatted, and on an index argument not called INDEX.
"""

from __future__ import annotations

import re

import pytest
import typer
from typer.testing import CliRunner

from context1.interfaces.cli import _register_all, app

# Upper-case words that are names, not placeholders.
ACRONYMS = {
    "API", "BEIR", "BM25", "CISPO", "CPU", "CSV", "CUDA", "DPO", "GPU", "GRPO", "HF", "HTML", "HTTP", "ID", "IDS",
    "JSON", "JSONL", "LLM", "LORA", "MCP", "NDCG", "OCR", "PDF", "PNG", "RAM", "RE2", "RL", "RRF", "SFT", "SSE",
    "TEXT", "URL", "UTF", "PATH", "INTEGER", "FLOAT", "BOOLEAN", "OPTIONS", "COMMAND", "ARGS", "KEY", "MIN", "MAX",
    "AGENT", "TSV", "ONNX", "MRR", "AMP", "BF16", "FP16", "FP32", "ASGI", "OK", "RAG", "QA", "CE", "K", "N", "NOT",
    "DOC", "ONE", "SPEC", "IR", "KL", "LR", "BPE", "OPENAI", "QPS", "CLI", "CLS", "TF", "IDF", "FAISS",
}


def _commands():
    _register_all()
    root = typer.main.get_command(app)

    def walk(command, path):
        yield path, command
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, [*path, name])

    return list(walk(root, []))


COMMANDS = _commands()


def _help(path: list[str]) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "400", "NO_COLOR": "1", "TERM": "dumb"})
    assert result.exit_code == 0, result.output
    return result.output


# Environment variables the help names (not placeholders).
ENV_VARS = {"OPENAI_API_KEY", "CONTEXT1_API_KEY", "HF_HUB_OFFLINE", "CUDA_VISIBLE_DEVICES"}


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) or "context1" for p, _ in COMMANDS])
def test_every_help_is_complete_and_names_only_what_exists(path, command):
    text = _help(path)
    params = getattr(command, "params", [])
    defined = {(p.metavar or p.name or "").upper() for p in params}
    defined |= {w for p in params for w in re.findall(r"[A-Z][A-Z0-9_]+", p.metavar or "")}
    words = set(re.findall(r"(?<![\w.-])[A-Z][A-Z0-9_]+(?![\w-])", text))
    undefined = sorted(words - defined - ACRONYMS - ENV_VARS)
    if hasattr(command, "commands"):  # a group lists its commands' own sentences: checked in each command
        undefined = []
    assert not undefined, f"`context1 {' '.join(path)} --help` names placeholders it does not define: {undefined}"
    stray = re.search(r"\S \.(?=\s|$)", text)
    assert stray is None, f"a stray ' .' in the help: {text[max(0, stray.start() - 60):stray.end()]!r}"
    assert not re.search(r"\{[a-z_]+\}", text), "an unformatted {placeholder} in the help"
    for param in params:
        if param.param_type_name != "option" or param.hidden or param.name in ("help", "version"):
            continue
        assert (param.help or "").strip(), f"`context1 {' '.join(path)}` option {param.opts[0]} has no help text"
        shown = param.default is not None and not param.is_flag
        if shown:
            assert param.show_default is not False, f"{param.opts[0]} hides its default"


def test_the_index_is_one_positional_INDEX_everywhere():
    """Every command that opens an index takes it the same way: a positional INDEX, never `--index`."""
    takes_index = set()
    for path, command in COMMANDS:
        for param in getattr(command, "params", []):
            if param.name in ("index", "directory"):
                assert param.param_type_name == "argument", f"`context1 {' '.join(path)}` takes the index as an option"
                assert param.metavar == "INDEX", (path, param.name, param.metavar)
                takes_index.add(" ".join(path))
            assert "--index" not in getattr(param, "opts", ()), path
    expected = {"index", "add", "delete", "sync", "search", "ask", "serve", "mcp", "datagen", "eval",
                "train sft", "train rl", "train eval", "train reranker", "train policy"}
    assert expected <= takes_index, expected - takes_index


def test_version():
    from context1 import __version__

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"context1 {__version__}"


def test_old_k_for_rollouts_still_works_but_warns(tmp_path):
    result = CliRunner().invoke(app, ["ask", str(tmp_path / "missing"), "a question", "-k", "2"])
    assert "deprecated" in result.output and "--rollouts 2" in result.output
    ask_flags = {opt for p in typer.main.get_command(app).commands["ask"].params for opt in p.opts}
    assert set(re.findall(r"(?<![\w-])--[a-z][\w-]*", result.output)) <= ask_flags  # every flag named exists in ask
    assert not re.search(r"\s-k\s", _help(["ask"]))  # hidden: --help shows --rollouts only


def _bracketed_help(command) -> list[str]:
    """Help texts (options and the command's own) that hold a `[...]` the source wrote."""
    texts = [p.help or "" for p in getattr(command, "params", [])] + [command.help or ""]
    return [t for t in texts if re.search(r"\[\w+\]", t)]


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) or "context1" for p, _ in COMMANDS])
def test_help_shows_what_the_source_says(path, command):
    """No `<bool>` beside a flag, and brackets survive: `pip install 'context1[gpu]'`, not `'context1'`."""
    text = _help(path)
    assert "<bool>" not in text
    flat = " ".join(text.split())
    for source in _bracketed_help(command):
        for bracketed in re.findall(r"'?[\w-]+\[\w+\]'?", source):
            assert bracketed in flat, f"{bracketed!r} of the source is not in the help of {' '.join(path)}"


def test_a_bracketed_extra_is_in_some_help():
    assert any(_bracketed_help(c) for _, c in COMMANDS)  # the test above checks something
