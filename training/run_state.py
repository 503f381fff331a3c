"""A training run's folder: checkpoints you can resume from, metrics JSONL, PNG plots.

    OUT/
      checkpoint/          the last good step: adapter/ (PEFT) + state.pt (step, optimizer, RNG)
      metrics.jsonl        one line per finished step
      adapter/             the latest adapter, for `context1 ask --adapter OUT/adapter`
      plots/*.png

Crash safety: a step's metrics line is appended first, then the checkpoint is written to
`checkpoint.tmp/` and swapped in with renames (`checkpoint.old/` covers the instant between
them). On resume, metrics lines past the checkpoint's step are dropped and those steps redone,
so no step is ever counted twice. Nothing is written after a non-finite loss: the last good
checkpoint stays.
"""

from __future__ import annotations

import json
import math
import random
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch


class TrainingDiverged(RuntimeError):
    """The loss became NaN or inf; the run stopped and its last good checkpoint is kept."""


def check_finite(value: float, what: str, step: int, out: Path) -> None:
    if not math.isfinite(value):
        raise TrainingDiverged(
            f"{what} is {value} at step {step}; stopped without saving it. The last good checkpoint is "
            f"{out / 'checkpoint'} (resume with --resume after lowering the learning rate or checking the data)."
        )


class RunDir:
    def __init__(self, out: str | Path) -> None:
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.metrics_path = self.out / "metrics.jsonl"

    @property
    def checkpoint(self) -> Path:
        return self.out / "checkpoint"

    def has_checkpoint(self) -> bool:
        self._recover()
        return (self.checkpoint / "state.pt").is_file()

    def _recover(self) -> None:
        old, tmp = self.out / "checkpoint.old", self.out / "checkpoint.tmp"
        if not self.checkpoint.exists() and old.exists():  # killed between the two renames
            old.rename(self.checkpoint)
        if tmp.exists() and not (tmp / "state.pt").is_file():
            shutil.rmtree(tmp)

    def save(self, model: Any, optimizer: Any, step: int, extra: Mapping[str, Any] | None = None) -> None:
        """Checkpoint after `step` finished steps: adapter + optimizer + RNG, swapped in atomically."""
        tmp, old = self.out / "checkpoint.tmp", self.out / "checkpoint.old"
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir()
        model.save_pretrained(str(tmp / "adapter"))
        state = {
            "step": step,
            "optimizer": optimizer.state_dict() if optimizer is not None else None,
            "torch_rng": torch.get_rng_state(),
            "python_rng": random.getstate(),
            "extra": dict(extra or {}),
        }
        torch.save(state, tmp / "state.pt")
        if old.exists():
            shutil.rmtree(old)
        if self.checkpoint.exists():
            self.checkpoint.rename(old)
        tmp.rename(self.checkpoint)
        if old.exists():
            shutil.rmtree(old)
        latest = self.out / "adapter"
        if latest.exists():
            shutil.rmtree(latest)
        shutil.copytree(self.checkpoint / "adapter", latest)

    def load_state(self) -> dict[str, Any]:
        """The checkpoint's state; trims metrics.jsonl to the steps it covers."""
        if not self.has_checkpoint():
            raise FileNotFoundError(f"no checkpoint under {self.out}; start without --resume")
        state = torch.load(self.checkpoint / "state.pt", weights_only=False)
        torch.set_rng_state(state["torch_rng"])
        random.setstate(state["python_rng"])
        self.trim_metrics(int(state["step"]))
        return state

    def trim_metrics(self, last_step: int) -> None:
        if not self.metrics_path.is_file():
            return
        keep = [
            ln
            for ln in self.metrics_path.read_text(encoding="utf-8").splitlines()
            if ln.strip() and _step_of(ln) is not None and _step_of(ln) <= last_step
        ]  # type: ignore[operator]
        self.metrics_path.write_text("".join(ln + "\n" for ln in keep), encoding="utf-8")

    def reset(self) -> None:
        """A fresh run in this folder: previous checkpoint and metrics removed."""
        for name in ("checkpoint", "checkpoint.tmp", "checkpoint.old", "adapter", "plots"):
            p = self.out / name
            if p.exists():
                shutil.rmtree(p)
        if self.metrics_path.exists():
            self.metrics_path.unlink()

    def log(self, step: int, values: Mapping[str, Any]) -> None:
        with self.metrics_path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps({"step": step, **values}, default=_plain) + "\n")

    def read_metrics(self) -> list[dict[str, Any]]:
        if not self.metrics_path.is_file():
            return []
        out = []
        for ln in self.metrics_path.read_text(encoding="utf-8").splitlines():
            try:
                out.append(json.loads(ln))
            except json.JSONDecodeError:  # a line cut off by a kill
                continue
        return out


def _step_of(line: str) -> int | None:
    try:
        return int(json.loads(line)["step"])
    except (json.JSONDecodeError, KeyError, TypeError, ValueError):
        return None


def _plain(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return str(value)


def plot_metrics(
    rows: Sequence[Mapping[str, Any]], keys: Sequence[str], out_dir: str | Path, title: str = ""
) -> list[Path]:
    """One PNG per metric key (value per step), written under out_dir; keys with no values skipped."""
    # A bare Figure renders with the Agg canvas without touching pyplot's global backend, so a
    # notebook that trains keeps its inline plots.
    from matplotlib.figure import Figure

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for key in keys:
        pts = [(r["step"], r[key]) for r in rows if isinstance(r.get(key), (int, float)) and math.isfinite(r[key])]
        if not pts:
            continue
        fig = Figure(figsize=(5, 3.2))
        ax = fig.subplots()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3)
        ax.set_xlabel("step")
        ax.set_ylabel(key)
        ax.set_title(f"{title} {key}".strip(), fontsize=9)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        path = out_dir / f"{key.replace('/', '_')}.png"
        fig.savefig(path, dpi=100)
        written.append(path)
    return written
