"""Rollouts through the one harness, task files that tolerate bad records, and policy evaluation.

A rollout is a plain `context1` episode (`SearchAgent.run`) with whatever backend is given: the
LLM-free policy as an SFT teacher, the trainable transformers policy for RL and evaluation. A
backend that fails mid-rollout ends it with `StopReason.BACKEND_ERROR`; any other exception of
one rollout is caught here as well: the rollout is *dropped and counted*, never fatal. A rollout
whose context outgrew the model's window is not `failed`: the policy caused it, and the reward
scores it as a no-answer (training.reward.failure_cause).

`run_rollouts` runs many at once through `context1.lockstep` (one batched generate per turn for
every live episode); `run_rollout` runs one. Episode i of `run_rollouts` samples with
`backend.with_seed(seeds[i])`, exactly as `run_rollout(..., seed)` does.
"""

from __future__ import annotations

import dataclasses
import json
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eval import metrics
from eval.types import Task
from training.reward import trajectory_failed


@dataclass
class Rollout:
    """One episode of one task: the trajectory (None when it crashed) and what went wrong.

    failed: an infrastructure failure (a crash, a backend or server down, a cancellation): RL drops it.
    """

    task: Task
    trajectory: Any | None
    error: str | None = None
    wall_s: float = 0.0

    @property
    def failed(self) -> bool:
        return self.trajectory is None or trajectory_failed(self.trajectory)


@dataclass
class TaskFile:
    """Tasks read from a JSONL file; malformed lines are skipped and listed in `skipped`."""

    tasks: list[Task]
    skipped: list[str] = field(default_factory=list)


def load_task_file(path: str | Path) -> TaskFile:
    """Read eval `Task` records (one JSON object per line), skipping malformed records.

    A record is malformed when it is not JSON, not an object, or lacks a usable task_id / query /
    gold (eval.loaders.tasks.task_from_dict's checks), or repeats a task id. Each skip is named
    in `skipped` (and warned about once) so nothing is lost silently.
    """
    from eval.loaders.tasks import task_from_dict

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"task file {str(path)!r} does not exist (JSONL of eval Task records)")
    tasks: list[Task] = []
    skipped: list[str] = []
    seen: set[str] = set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path.name}:{n}"
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError(f"expected a JSON object, got {type(record).__name__}")
            task = task_from_dict(record, where)
            if not task.query.strip():
                raise ValueError("empty query")
            if not (task.gold_doc_ids or task.gold_chunk_ids or task.facts):
                raise ValueError("no gold documents, chunks or facts to reward")
        except (ValueError, KeyError, TypeError) as exc:
            skipped.append(f"{where}: {exc}")
            continue
        if task.task_id in seen:
            skipped.append(f"{where}: duplicate task_id {task.task_id!r}")
            continue
        seen.add(task.task_id)
        tasks.append(task)
    if skipped:
        warnings.warn(f"{path}: skipped {len(skipped)} malformed task record(s), first: {skipped[0]}", stacklevel=2)
    if not tasks:
        raise ValueError(f"{path}: no usable task records ({len(skipped)} malformed)")
    return TaskFile(tasks, skipped)


def run_rollout(corpus: Any, backend: Any, task: Task, agent_config: Any, seed: int) -> Rollout:
    """One episode of `task`; never raises (a crash becomes a failed `Rollout`)."""
    from context1 import SearchAgent

    t0 = time.perf_counter()
    try:
        agent = SearchAgent(corpus, backend=backend, config=dataclasses.replace(agent_config, seed=seed, rollouts=1))
        result = agent.run(task.query)
    except Exception as exc:  # noqa: BLE001 - one crashed rollout must not end training
        return Rollout(task, None, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0)
    traj = result.trajectory
    return Rollout(task, traj, traj.error, time.perf_counter() - t0)


def run_rollouts(
    corpus: Any, backend: Any, tasks: Sequence[Task], agent_config: Any, seeds: Sequence[int]
) -> list[Rollout]:
    """One episode per (task, seed), all advanced in lockstep; never raises for one rollout's failure.

    A crash of the whole batch (a bug, not a backend error) fails every rollout of it, counted.
    """
    from context1 import SearchAgent
    from context1.lockstep import run_lockstep

    if len(tasks) != len(seeds):
        raise ValueError(f"one seed per task: got {len(tasks)} tasks and {len(seeds)} seeds")
    if not tasks:
        return []
    t0 = time.perf_counter()
    try:
        agent = SearchAgent(corpus, backend=backend, config=dataclasses.replace(agent_config, rollouts=1))
        results = run_lockstep(agent, [t.query for t in tasks], list(seeds))
    except Exception as exc:  # noqa: BLE001 - one crashed batch must not end training
        wall = time.perf_counter() - t0
        return [Rollout(t, None, f"{type(exc).__name__}: {exc}", wall) for t in tasks]
    wall = time.perf_counter() - t0
    out = []
    for task, res in zip(tasks, results, strict=True):
        if isinstance(res, Exception):
            out.append(Rollout(task, None, f"{type(res).__name__}: {res}", wall))
        else:
            out.append(Rollout(task, res, res.error, wall))
    return out


def call_stats(trajectory: Any, agent_config: Any) -> dict[str, float]:
    """Tool-call figures of one trajectory: calls, valid calls, prune calls, turns, sampled tokens."""
    from context1.tools import validate_call

    calls = [c for s in trajectory.steps for c in s.turn.tool_calls]
    valid = sum(1 for c in calls if not isinstance(validate_call(c, agent_config), str))
    return {
        "calls": float(len(calls)),
        "valid_calls": float(valid),
        "prune_calls": float(sum(1 for c in calls if c.name == "prune_chunks")),
        "turns": float(len(trajectory.steps)),
        "sampled_tokens": float(sum(s.turn.completion_tokens for s in trajectory.steps)),
    }


def score_rollout(
    rollout: Rollout, agent_config: Any, doc_text: Callable[[str], str | None] | None, granularity: str = "document"
) -> dict[str, float | None]:
    """Retrieval figures of one rollout (eval.metrics) plus its call statistics."""
    traj = rollout.trajectory
    if traj is None:
        return {"failed": 1.0}
    units = metrics.gold_units(rollout.task, granularity)
    returned = [d.doc_id for d in traj.documents]
    found = None
    if doc_text is not None and rollout.task.answers:
        found = metrics.answer_found([t for t in (doc_text(d) for d in returned) if t], rollout.task.answers)
    return {
        "failed": float(rollout.failed),
        "recall": metrics.recall(returned, units),
        "trajectory_recall": metrics.trajectory_recall(traj, units, granularity),
        "answer_found": found,
        "answered": float(getattr(traj.stop_reason, "value", None) == "answered"),
        **call_stats(traj, agent_config),
    }


def summarize(scores: Sequence[dict[str, float | None]]) -> dict[str, float | None]:
    """Means over rollouts (None values left out), plus the valid tool-call rate over all calls."""

    def avg(key: str) -> float | None:
        vals = [s[key] for s in scores if s.get(key) is not None]
        return sum(vals) / len(vals) if vals else None  # type: ignore[arg-type]

    calls = sum(s.get("calls") or 0.0 for s in scores)
    valid = sum(s.get("valid_calls") or 0.0 for s in scores)
    turns = sum(s.get("turns") or 0.0 for s in scores)
    return {
        "n": float(len(scores)),
        "failed": avg("failed"),
        "valid_tool_call_rate": valid / calls if calls else None,
        "rollouts_with_a_call": avg_bool(scores, lambda s: (s.get("calls") or 0) > 0),
        "calls_per_turn": calls / turns if turns else None,
        "turns": avg("turns"),
        "trajectory_recall": avg("trajectory_recall"),
        "output_recall": avg("recall"),
        "answer_found": avg("answer_found"),
        "answered": avg("answered"),
        "prune_calls": avg("prune_calls"),
    }


def avg_bool(scores: Sequence[dict[str, Any]], pred: Callable[[dict[str, Any]], bool]) -> float | None:
    return sum(pred(s) for s in scores) / len(scores) if scores else None


def evaluate_policy(
    corpus: Any,
    backend: Any,
    tasks: Sequence[Task],
    agent_config: Any,
    *,
    seed: int = 0,
    doc_text: Callable[[str], str | None] | None = None,
    out: str | Path | None = None,
    progress: bool = True,
    batch: int = 8,
    pool: Any = None,
) -> dict[str, float | None]:
    """Run one rollout per task and summarise (valid tool-call rate, turns, recalls, answer found).

    Task i samples with seed `seed + i`. batch: episodes run in lockstep (`run_rollouts`); 1 runs
    them one by one. pool: a `training.distributed.RolloutPool`, which runs them on Ray actors.
    out: a JSONL file receiving one line per task (task id, scores, the trajectory).
    """
    from tqdm import tqdm

    from context1 import trajectory_to_dict

    if batch < 1:
        raise ValueError(f"batch must be >= 1, got {batch}")
    scores = []
    jobs = [(t, seed + i) for i, t in enumerate(tasks)]
    size = len(jobs) if pool is not None else batch
    fh = open(out, "w", encoding="utf-8") if out is not None else None  # noqa: SIM115
    bar = tqdm(total=len(jobs), desc="eval", disable=not progress)
    try:
        for start in range(0, len(jobs), max(size, 1)):
            chunk = jobs[start : start + size]
            if pool is not None:
                rollouts = pool.run(chunk)
            elif batch == 1:
                rollouts = [run_rollout(corpus, backend, t, agent_config, s) for t, s in chunk]
            else:
                rollouts = run_rollouts(corpus, backend, [t for t, _ in chunk], agent_config, [s for _, s in chunk])
            for (task, _), rollout in zip(chunk, rollouts, strict=True):
                s = score_rollout(rollout, agent_config, doc_text)
                scores.append(s)
                if fh is not None:
                    rec = {
                        "task_id": task.task_id,
                        "scores": s,
                        "error": rollout.error,
                        "trajectory": trajectory_to_dict(rollout.trajectory) if rollout.trajectory else None,
                    }
                    fh.write(json.dumps(rec, default=str) + "\n")
                    fh.flush()
            bar.update(len(chunk))
    finally:
        bar.close()
        if fh is not None:
            fh.close()
    return summarize(scores)
