"""A training run's folder: checkpoints you can resume from, metrics JSONL, PNG plots.

    OUT/
      run.json             what the run is: its configuration, that configuration's hash, the version
      checkpoint/          the last good step: adapter/ (PEFT) + state.pt (step, optimizer, RNG)
      metrics.jsonl        one line per finished step
      adapter/             the latest adapter, for `context1 ask --adapter OUT/adapter`
      plots/*.png

Crash safety: a step's metrics line is appended first, then the checkpoint is written to
`checkpoint.tmp/` and swapped in with renames (`checkpoint.old/` covers the instant between
them). On resume, metrics lines past the checkpoint's step are dropped and those steps redone,
so no step is ever counted twice. Nothing is written after a non-finite loss: the last good
checkpoint stays.

Honest resumes (issue 37): a resume continues the run OUT holds or refuses, before any rollout.
`RunDir.begin` compares the configuration with OUT/run.json's (every setting but how many steps to
run: extending a run is a resume) and raises `RunMismatch` naming what differs; a folder without
run.json, or from another context1 version, is refused the same way (start over with --fresh).
state.pt is read with `torch.load(weights_only=True)`: tensors and plain JSON-like values only
(the Python RNG state is saved as a list), so a file that is not ours is refused, never unpickled.
"""

from __future__ import annotations

import hashlib
import json
import math
import pickle
import random
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch

STATE_FORMAT = "context1-run-state/2"  # /1: pickled Python objects, loaded with weights_only=False
RUN_FILE = "run.json"


class RunMismatch(ValueError):
    """A resume into a folder whose run was made with other settings, or by another version."""


class ForeignCheckpoint(ValueError):
    """A checkpoint file that is not a context1 run state: refused, never unpickled."""


def _version() -> str:
    from context1.version import __version__

    return __version__


def config_hash(config: Mapping[str, Any]) -> str:
    """sha256 of the configuration as canonical JSON (sorted keys; non-JSON values as their str)."""
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()


def _plain_json(config: Mapping[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(config, sort_keys=True, default=str))


def check_run_config(folder: str | Path, config: Mapping[str, Any], what: str = "run") -> None:
    """Raise RunMismatch unless `folder`'s run.json records `config` under this version.

    The message names each setting that differs (recorded → now) and the way out (--fresh).
    """
    folder = Path(folder)
    path = folder / RUN_FILE
    way_out = "pass --fresh to start over in it, or give another --out"
    if not path.is_file():
        raise RunMismatch(f"{folder} holds a {what} without {RUN_FILE} (made by an older context1, or not by "
                          f"context1): it cannot be resumed safely; {way_out}")
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
        old_config, old_version = recorded["config"], recorded["version"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise RunMismatch(f"{path} is not a context1 run record ({exc}); {way_out}") from None
    if old_version != _version():
        raise RunMismatch(f"{folder} was written by context1 {old_version}, this is {_version()}; {way_out}")
    now = _plain_json(config)
    if config_hash(now) != recorded.get("config_hash") or now != old_config:
        diffs = _differences(old_config, now)
        raise RunMismatch(f"{folder} holds a {what} made with other settings ({'; '.join(diffs[:6]) or 'hash differs'}"
                          f"{'; …' if len(diffs) > 6 else ''}): resuming would mix two runs; {way_out}")


def tasks_fingerprint(tasks: Sequence[Any]) -> dict[str, Any]:
    """The task set a run trains on, for its run.json: how many, and a hash of their ids in order."""
    ids = "\n".join(str(getattr(t, "task_id", t)) for t in tasks)
    return {"n": len(tasks), "ids_sha256": hashlib.sha256(ids.encode()).hexdigest()[:16]}


def write_run_config(folder: str | Path, config: Mapping[str, Any]) -> Path:
    """Record `config`, its hash and this version in `folder`/run.json."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    plain = _plain_json(config)
    path = folder / RUN_FILE
    record = {"version": _version(), "config_hash": config_hash(plain), "config": plain}
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path


def _differences(old: Any, new: Any, prefix: str = "") -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in sorted(set(old) | set(new)):
            out += _differences(old.get(key, "<unset>"), new.get(key, "<unset>"), f"{prefix}{key}.")
        return out
    return [] if old == new else [f"{prefix.rstrip('.')}: {old!r} → {new!r}"]


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

    def begin(self, config: Mapping[str, Any], resume: bool, what: str = "run") -> bool:
        """Start a fresh run here, or check that the one here is this one; True when resuming.

        resume False (--fresh): the folder is reset. resume True with a checkpoint: `config`
        (JSON-able; leave out how many steps to run) must equal the recorded one, else RunMismatch
        before anything is loaded. Either way run.json then records `config`.
        """
        resuming = resume and self.has_checkpoint()
        if resuming:
            check_run_config(self.out, config, what)
        else:  # a fresh run (also when a killed run never reached its first checkpoint)
            self.reset()
        write_run_config(self.out, config)
        return resuming

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
        version, internal, gauss = random.getstate()
        state = {  # tensors and JSON-like values only: loadable with weights_only=True
            "format": STATE_FORMAT,
            "step": step,
            "optimizer": optimizer.state_dict() if optimizer is not None else None,
            "torch_rng": torch.get_rng_state(),
            "python_rng": [version, list(internal), gauss],
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
        state = load_state_file(self.checkpoint / "state.pt")
        torch.set_rng_state(state["torch_rng"])
        version, internal, gauss = state["python_rng"]
        random.setstate((version, tuple(internal), gauss))
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


def load_state_file(path: str | Path) -> dict[str, Any]:
    """A run state written by `RunDir.save`, read with weights_only=True; ForeignCheckpoint otherwise."""
    try:
        state = torch.load(path, weights_only=True, map_location="cpu")
    except (pickle.UnpicklingError, RuntimeError, EOFError, AttributeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ForeignCheckpoint(
            f"{path} is not a context1 run state this version can read safely ({first[:160]}); it was refused, "
            "not unpickled. Start over with --fresh, or give another --out"
        ) from None
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        found = state.get("format", "none") if isinstance(state, dict) else type(state).__name__
        raise ForeignCheckpoint(f"{path} is not a {STATE_FORMAT} run state (format: {found}); start over with --fresh")
    return state


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


def peak_rss_gb() -> float:
    """This process's peak resident memory so far, in GiB (the `peak_rss_gb` of a run's metrics)."""
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return peak / (2**30 if sys.platform == "darwin" else 2**20)
