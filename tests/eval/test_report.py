"""Aggregation, the markdown report and its PNG plots (opened back to check they are images)."""

from __future__ import annotations

import json

import pytest

from eval.aggregate import aggregate, summarize
from eval.plots import curve_points, plot_by_hops, plot_recall_at_k, plot_usage
from eval.report import comparison_table, overview_table, summary_markdown, write_report
from eval.runners import record_to_json
from eval.types import RunRecord, Task


def _record(
    task_id, hops, recall, *, source="hotpotqa", qtype="bridge", answer=None, turns=None, run="bm25", error=None
):
    metrics = {
        "document.recall": recall,
        "document.recall@1": recall / 2,
        "document.recall@5": recall,
        "document.all_recall@5": float(recall == 1.0),
        "answer_found": answer,
    }
    usage = {"turns": turns, "context_tokens": 100 * turns, "tool_calls": 2 * turns} if turns else {}
    task = Task(task_id, f"question {task_id}", gold_doc_ids=("a", "b"), hops=hops, source=source, question_type=qtype)
    return RunRecord(
        task=task, run=run, doc_ids=("a",), metrics=metrics, usage=usage, timings={"total_s": 0.5}, error=error
    )


def _write(path, records):
    path.write_text("".join(json.dumps(record_to_json(r)) + "\n" for r in records))
    return path


RUN_A = [
    _record("t1", 2, 1.0, answer=1.0),
    _record("t2", 2, 0.5, answer=0.0),
    _record("t3", 3, 0.0, qtype="comparison", answer=None, error="RuntimeError: x"),
    _record("t4", None, 0.5, source="musique", answer=1.0),
]
RUN_B = [
    _record("t1", 2, 1.0, answer=1.0, turns=3, run="agent:iterative"),
    _record("t2", 2, 1.0, answer=1.0, turns=5, run="agent:iterative"),
    _record("t3", 3, 0.5, qtype="comparison", answer=0.0, turns=4, run="agent:iterative"),
]


def test_summarize_averages_defined_values_only():
    s = summarize(RUN_A)
    assert s.n == 4 and s.errors == 1
    assert s.means["document.recall"] == pytest.approx(0.5)
    assert s.means["answer_found"] == pytest.approx(2 / 3)  # t3 has no answer: left out, not 0
    assert s.counts["answer_found"] == 3
    assert s.means["time.total_s"] == pytest.approx(0.5)


def test_aggregate_groups_in_natural_order():
    by_hops = aggregate(RUN_A, by="hops")
    assert [g.group for g in by_hops] == ["2", "3", "-"]
    assert by_hops[0].means["document.recall"] == pytest.approx(0.75)
    assert [g.group for g in aggregate(RUN_A, by="source")] == ["hotpotqa", "musique"]
    assert [g.group for g in aggregate(RUN_A, by="question_type")] == ["bridge", "comparison"]
    with pytest.raises(ValueError, match="source"):
        aggregate(RUN_A, by="level")


def test_curve_points():
    assert curve_points(RUN_A, "document.recall") == [(1, pytest.approx(0.25)), (5, pytest.approx(0.5))]


def test_tables():
    overview = overview_table({"a": RUN_A, "b": RUN_B})
    header, _, row_a, row_b = overview.splitlines()
    assert "answer_found" in header and "usage.turns" in header
    assert row_a.startswith("| a | bm25 | 4 | 1 |")
    assert "0.667 (n=3)" in row_a  # a mean over fewer tasks says so
    assert row_b.startswith("| b | agent:iterative | 3 | 0 |") and "4.000" in row_b
    table = comparison_table({"a": RUN_A, "b": RUN_B}, "hops", "document.recall")
    assert table.splitlines()[2] == "| 2 | 0.750 | 1.000 |"
    assert table.splitlines()[-1] == "| - | 0.500 | – |"
    md = summary_markdown({"a": RUN_A, "b": RUN_B}, images=["recall_at_k.png"])
    assert "## Comparison" in md and "### by hops" in md and "![recall_at_k](recall_at_k.png)" in md


def _check_png(path):
    from PIL import Image

    with Image.open(path) as img:
        img.verify()
    with Image.open(path) as img:
        assert img.format == "PNG" and img.size[0] > 100 and img.size[1] > 100
    import matplotlib.image

    assert matplotlib.image.imread(path).ndim == 3


def test_plots_are_valid_pngs(tmp_path):
    runs = {"a": RUN_A, "b": RUN_B}
    for made in (
        plot_recall_at_k(runs, tmp_path / "r.png"),
        plot_by_hops(runs, tmp_path / "h.png"),
        plot_usage(runs, tmp_path / "u.png"),
    ):
        assert made is not None
        _check_png(made)
    assert plot_usage({"a": RUN_A}, tmp_path / "none.png") is None  # single-shot runs have no turns
    assert not (tmp_path / "none.png").exists()


def test_write_report_from_run_files(tmp_path):
    a = _write(tmp_path / "bm25.jsonl", RUN_A)
    b = _write(tmp_path / "agent.jsonl", RUN_B)
    path = write_report([a, b], tmp_path / "report")
    md = path.read_text()
    assert path.name == "summary.md"
    assert "| bm25 |" in md and "| agent |" in md
    for name in ("recall_at_k.png", "recall_by_hops.png", "usage.png"):
        assert f"]({name})" in md
        _check_png(tmp_path / "report" / name)
    with pytest.raises(ValueError, match="at least one"):
        write_report([], tmp_path / "empty")
