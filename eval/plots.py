"""PNG plots of one or several runs: recall@k curves, per-hop bars, turn and token distributions.

Figures are drawn with matplotlib's object API on an Agg canvas (`Figure` + `FigureCanvasAgg`),
so nothing touches pyplot's global state or the process-wide backend: safe in threads, servers
and tests. Each function returns the path it wrote, or None when the runs hold nothing to plot
(single-shot runs have no turns; a benchmark without hop counts has no per-hop bars).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from eval.aggregate import aggregate, summarize
from eval.types import RunRecord

Runs = Mapping[str, Sequence[RunRecord]]
_AT_K = re.compile(r"^(?P<name>.+)@(?P<k>\d+)$")


def _figure(width: float = 7.0, height: float = 4.2):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=110)
    FigureCanvasAgg(fig)
    return fig


def _legend(ax, n_series: int) -> None:
    """Inside the axes for a few series; beside them (never over the data) for many."""
    if n_series <= 5:
        ax.legend(fontsize=8)
    else:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path


def curve_points(records: Sequence[RunRecord], metric: str) -> list[tuple[int, float]]:
    """(k, mean metric@k) for every k the records hold, ascending."""
    means = summarize(records).means
    points = []
    for name, value in means.items():
        m = _AT_K.match(name)
        if m and m.group("name") == metric:
            points.append((int(m.group("k")), value))
    return sorted(points)


def plot_recall_at_k(runs: Runs, path: str | Path, granularity: str = "document") -> Path | None:
    """recall@k and all_recall@k against k, one line per run."""
    series = {
        label: (curve_points(recs, f"{granularity}.recall"), curve_points(recs, f"{granularity}.all_recall"))
        for label, recs in runs.items()
    }
    if not any(r for r, _ in series.values()):
        return None
    fig = _figure(10.0 if len(series) <= 5 else 12.0, 4.2)
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    for label, (rec, all_rec) in series.items():
        if rec:
            left.plot([k for k, _ in rec], [v for _, v in rec], marker="o", label=label)
        if all_rec:
            right.plot([k for k, _ in all_rec], [v for _, v in all_rec], marker="o", label=label)
    ks = sorted({k for rec, all_rec in series.values() for k, _ in rec + all_rec})
    for ax, title in ((left, f"{granularity} recall@k"), (right, f"{granularity} all-recall@k (every gold found)")):
        ax.set_xscale("log")
        ax.set_xticks(ks, [str(k) for k in ks])
        ax.minorticks_off()
        ax.set_xlabel("k")
        ax.set_ylim(0, 1.02)
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
    _legend(right, len(series))
    return _save(fig, Path(path))


def plot_by_hops(runs: Runs, path: str | Path, metric: str = "document.recall") -> Path | None:
    """Grouped bars: the mean of `metric` per hop count, one bar per run."""
    table = {label: {s.group: s.means.get(metric) for s in aggregate(recs, by="hops")} for label, recs in runs.items()}
    hops = sorted({h for groups in table.values() for h, v in groups.items() if v is not None and h != "-"}, key=int)
    if not hops:
        return None
    fig = _figure(7.0 if len(table) <= 5 else 9.0, 4.2)
    ax = fig.add_subplot(1, 1, 1)
    width = 0.8 / max(len(table), 1)
    for i, (label, groups) in enumerate(table.items()):
        xs = [j + i * width for j in range(len(hops))]
        ax.bar(xs, [groups.get(h) or 0.0 for h in hops], width=width, label=label)
    ax.set_xticks([j + width * (len(table) - 1) / 2 for j in range(len(hops))], [f"{h} hops" for h in hops])
    ax.set_ylim(0, 1.02)
    ax.set_ylabel(metric)
    ax.set_title(f"{metric} by hop count")
    _legend(ax, len(table))
    ax.grid(True, axis="y", alpha=0.3)
    return _save(fig, Path(path))


def plot_usage(
    runs: Runs, path: str | Path, fields: Sequence[str] = ("turns", "context_tokens", "tool_calls")
) -> Path | None:
    """Histograms of per-task usage (turns, tokens, tool calls), one overlaid series per run."""
    data = {
        name: {
            label: [float(r.usage[name]) for r in recs if isinstance(r.usage.get(name), int | float)]
            for label, recs in runs.items()
        }
        for name in fields
    }
    data = {name: {lab: v for lab, v in series.items() if v} for name, series in data.items()}
    data = {name: series for name, series in data.items() if series}
    if not data:
        return None
    fig = _figure(4.2 * len(data), 3.8)
    for i, (name, series) in enumerate(data.items(), start=1):
        ax = fig.add_subplot(1, len(data), i)
        for label, values in series.items():
            ax.hist(values, bins=min(30, max(5, len(set(values)))), alpha=0.5, label=label)
        ax.set_title(f"{name} per task")
        ax.set_xlabel(name)
        ax.set_ylabel("tasks")
    _legend(fig.axes[-1], max(len(series) for series in data.values()))
    return _save(fig, Path(path))
