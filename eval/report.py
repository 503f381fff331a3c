"""A markdown report of one or several runs: overview, breakdowns, a side-by-side comparison, plots.

`write_report([run1.jsonl, run2.jsonl], out_dir)` writes `out_dir/summary.md` plus PNGs beside it
and returns the markdown's path. Runs are labelled by file name; each table shows only the metrics
some run has. A cell is "–" where a metric is undefined for every task of that run or group (no
answers, no gold at that granularity), and a mean over fewer tasks than the group holds says so,
e.g. `0.512 (n=300)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from eval import plots
from eval.aggregate import GROUP_BY, Summary, aggregate, summarize
from eval.runners import read_run
from eval.types import RunRecord

Runs = Mapping[str, Sequence[RunRecord]]

# The headline columns, in order; a run shows those it has.
OVERVIEW = (
    "answer_found",
    "document.recall",
    "document.precision",
    "document.f1",
    "document.f_beta",
    "document.recall@2",
    "document.recall@5",
    "document.recall@10",
    "document.all_recall@2",
    "document.all_recall@5",
    "document.all_recall@10",
    "document.ndcg@10",
    "fact.recall",
    "chunk.recall",
    "passage.answer_found",
    "passage.document.recall@5",
    "passage.document.all_recall@5",
    "passage.chunk.recall",
    "passage.fact.recall",
    "trajectory.document.recall",
    "trajectory.chunk.recall",
    "prune_accuracy",
    "usage.turns",
    "usage.tool_calls",
    "usage.context_tokens",
    "usage.prompt_tokens",
    "usage.completion_tokens",
    "time.total_s",
)
BREAKDOWN = (
    "answer_found",
    "passage.answer_found",
    "document.recall",
    "document.f1",
    "document.recall@5",
    "document.all_recall@10",
    "trajectory.document.recall",
    "usage.turns",
)
NAMES = {"source": "dataset", "hops": "hops", "question_type": "question type"}


def load_runs(paths: Sequence[str | Path]) -> dict[str, list[RunRecord]]:
    """Run files by label (the file name without .jsonl; the parent folder is added on a clash)."""
    runs: dict[str, list[RunRecord]] = {}
    for p in map(Path, paths):
        label = p.stem if p.stem not in runs else f"{p.parent.name}/{p.stem}"
        runs[label] = read_run(p)
    return runs


def _fmt(summary: Summary, metric: str) -> str:
    value = summary.means.get(metric)
    if value is None:
        return "–"
    digits = 1 if metric.startswith(("usage.", "time.")) and abs(value) >= 10 else 3
    text = f"{value:.{digits}f}"
    n = summary.counts.get(metric, 0)
    return text if n == summary.n else f"{text} (n={n})"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _present(summaries: Sequence[Summary], candidates: Sequence[str]) -> list[str]:
    return [m for m in candidates if any(m in s.means for s in summaries)]


def overview_table(runs: Runs, metrics: Sequence[str] = OVERVIEW) -> str:
    """One row per run: tasks, errors and the headline metrics."""
    summaries = {label: summarize(recs) for label, recs in runs.items()}
    cols = _present(list(summaries.values()), metrics)
    rows = []
    for label, s in summaries.items():
        retrievers = sorted({r.run for r in runs[label]}) or ["–"]
        rows.append([label, ", ".join(retrievers), str(s.n), str(s.errors), *(_fmt(s, m) for m in cols)])
    return _table(["run", "retriever", "tasks", "errors", *cols], rows)


def breakdown_table(records: Sequence[RunRecord], by: str, metrics: Sequence[str] = BREAKDOWN) -> str | None:
    """One row per group of `by` (None when there is only one group: nothing to break down)."""
    groups = aggregate(records, by=by)
    if len(groups) < 2:
        return None
    cols = _present(groups, metrics)
    rows = [[g.group, str(g.n), *(_fmt(g, m) for m in cols)] for g in groups]
    return _table([NAMES[by], "tasks", *cols], rows)


def comparison_table(runs: Runs, by: str, metric: str) -> str | None:
    """Side by side: groups of `by` as rows, runs as columns, cells = the mean of `metric`."""
    per_run = {label: {g.group: g for g in aggregate(recs, by=by)} for label, recs in runs.items()}
    groups = [g.group for g in aggregate([r for recs in runs.values() for r in recs], by=by)]  # natural order
    if len(groups) < 2 or not any(metric in s.means for d in per_run.values() for s in d.values()):
        return None
    rows = [[g, *(_fmt(per_run[label][g], metric) if g in per_run[label] else "–" for label in runs)] for g in groups]
    return _table([NAMES[by], *runs], rows)


def summary_markdown(runs: Runs, images: Sequence[str] = (), title: str = "Evaluation report") -> str:
    """The whole report as markdown (images: PNG file names to embed, relative to the markdown)."""
    parts = [f"# {title}", "", "## Overview", "", overview_table(runs), ""]
    if len(runs) > 1:
        parts += ["## Comparison", ""]
        for by in GROUP_BY:
            for metric in ("document.recall", "answer_found"):
                table = comparison_table(runs, by, metric)
                if table:
                    parts += [f"### {metric} by {NAMES[by]}", "", table, ""]
    for label, records in runs.items():
        sections = [(by, breakdown_table(records, by)) for by in GROUP_BY]
        sections = [(by, t) for by, t in sections if t]
        if sections:
            parts += [f"## {label}", ""]
            for by, table in sections:
                parts += [f"### by {NAMES[by]}", "", table, ""]
    if images:
        parts += ["## Plots", ""] + [f"![{Path(i).stem}]({i})" for i in images] + [""]
    parts += [
        "Means are over the tasks where a metric is defined; `(n=…)` marks a mean over fewer tasks than the row holds.",
        "",
    ]
    return "\n".join(parts)


def write_report(run_paths: Sequence[str | Path], out_dir: str | Path, title: str = "Evaluation report") -> Path:
    """Reads the run files, writes `summary.md` and its PNG plots into `out_dir`; returns the markdown path."""
    if not run_paths:
        raise ValueError("write_report needs at least one run file")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    runs = load_runs(run_paths)
    images = []
    for name, made in (
        ("recall_at_k.png", plots.plot_recall_at_k(runs, out / "recall_at_k.png")),
        ("recall_by_hops.png", plots.plot_by_hops(runs, out / "recall_by_hops.png")),
        ("usage.png", plots.plot_usage(runs, out / "usage.png")),
    ):
        if made is not None:
            images.append(name)
    path = out / "summary.md"
    path.write_text(summary_markdown(runs, images, title), encoding="utf-8")
    return path
