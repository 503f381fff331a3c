"""`context1 eval` and `context1 report` through typer's CliRunner, on the fixture benchmark."""

from __future__ import annotations

import json
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from eval.cli import register

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "eval"


@pytest.fixture()
def app() -> typer.Typer:
    app = typer.Typer()
    register(app)
    return app


@pytest.fixture()
def data_dir(tmp_path) -> Path:
    root = tmp_path / "data"
    root.mkdir()
    (root / "hotpotqa").symlink_to(FIX / "hotpotqa")
    return root


def test_registered_through_the_entry_point_group():
    eps = {ep.name: ep.value for ep in entry_points(group="context1.commands")}
    assert eps.get("eval") == "eval.cli:register"


def _eval(app, *args):
    return CliRunner().invoke(app, ["eval", *args, "--no-progress"])


def test_eval_builds_the_index_then_resumes(app, data_dir, tmp_path):
    index, out = tmp_path / "index", tmp_path / "runs" / "bm25.jsonl"
    common = [
        str(index),
        "--benchmark",
        "hotpotqa",
        "--data-dir",
        str(data_dir),
        "--out",
        str(out),
        "--retriever",
        "bm25",
        "--max-documents",
        "3",
    ]
    result = _eval(app, *common, "--limit", "2")
    assert result.exit_code == 0, result.output
    assert (index / "manifest.json").is_file()  # built, since it was absent
    assert len(out.read_text().splitlines()) == 2
    assert "| bm25 |" in result.output
    result = _eval(app, *common)
    assert result.exit_code == 0, result.output
    ids = [json.loads(line)["task_id"] for line in out.read_text().splitlines()]
    assert ids == ["hp1", "hp2", "hp3"]

    agent_out = tmp_path / "runs" / "agent.jsonl"
    result = _eval(
        app,
        str(index),
        "--benchmark",
        "hotpotqa",
        "--data-dir",
        str(data_dir),
        "--out",
        str(agent_out),
        "--retriever",
        "agent",
        "--backend",
        "iterative",
        "--max-documents",
        "5",
        "--workers",
        "2",
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in agent_out.read_text().splitlines()]
    assert len(records) == 3 and all(r["trajectory"] and r["usage"]["turns"] >= 1 for r in records)

    report_dir = tmp_path / "report"
    result = CliRunner().invoke(app, ["report", str(out), str(agent_out), "--out", str(report_dir)])
    assert result.exit_code == 0, result.output
    md = (report_dir / "summary.md").read_text()
    assert "| bm25 |" in md and "| agent |" in md
    assert (report_dir / "recall_at_k.png").is_file() and (report_dir / "usage.png").is_file()


def test_eval_on_a_task_file_needs_an_existing_index(app, tmp_path):
    result = _eval(
        app,
        str(tmp_path / "none"),
        "--benchmark",
        str(FIX / "tasks.jsonl"),
        "--out",
        str(tmp_path / "r.jsonl"),
    )
    assert result.exit_code == 2
    assert "carries no documents" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--retriever", "colbert"], "unknown retriever"),
        (["--retriever", "bm25", "--backend", "openai"], "apply to --retriever agent only"),
        (["--benchmark", "nosuch"], "unknown benchmark"),
    ],
)
def test_eval_bad_options_exit_2_with_one_line(app, data_dir, tmp_path, args, message):
    base = {
        "--benchmark": "hotpotqa",
        "--data-dir": str(data_dir),
        "--out": str(tmp_path / "r.jsonl"),
    }
    for flag, value in zip(args[::2], args[1::2], strict=True):
        base[flag] = value
    result = _eval(app, str(tmp_path / "i"), *[x for pair in base.items() for x in pair])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "i").exists()  # nothing built on bad input


def test_report_missing_run_file(app, tmp_path):
    result = CliRunner().invoke(app, ["report", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "r")])
    assert result.exit_code == 2 and "no such run file" in result.output
