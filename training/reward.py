"""The RL reward of SPEC §5, its β annealing and the hop curriculum — pure functions.

    r = clamp(0.7·F_beta + 0.3·r_traj + r_fa − p_prune − p_turn, ε, r_pre)

computed over the *unpruned* trajectory with `eval.metrics` (one implementation of each metric):
F_beta of the returned documents, trajectory recall of everything seen (pruned chunks included),
r_fa when a returned document's text contains the answer. p_prune charges prune calls beyond a
streak of 3 consecutive ones (one-chunk-at-a-time pruning), p_turn endless searching. A
trajectory that completed without error is floored at ε; one that failed (backend error,
cancelled) gets 0. Every constant lives in `RewardConfig`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from eval import metrics
from eval.types import Task
from training.types import CurriculumConfig, RewardBreakdown, RewardConfig

PRUNE_TOOL = "prune_chunks"
_FAILED = {"backend_error", "cancelled"}


def prune_penalty(tool_names: Sequence[str], config: RewardConfig = RewardConfig()) -> float:
    """0.1 per prune call beyond a streak of 3 consecutive prune calls, capped at 0.5.

    tool_names: every tool call of the trajectory, in emission order (across turns).
    """
    total = 0
    streak = 0
    for name in tool_names:
        streak = streak + 1 if name == PRUNE_TOOL else 0
        if streak > config.prune_free_streak:
            total += 1
    return min(config.prune_penalty * total, config.prune_penalty_cap)


def turn_penalty(turns: int, config: RewardConfig = RewardConfig()) -> float:
    """Linear from 0 at 64 turns to 0.5 at 128 turns (and 0.5 beyond)."""
    span = config.turn_penalty_full - config.turn_penalty_start
    frac = (turns - config.turn_penalty_start) / span if span > 0 else float(turns >= config.turn_penalty_full)
    return config.turn_penalty_max * min(1.0, max(0.0, frac))


def beta_for_epoch(epoch: int, n_epochs: int, config: RewardConfig = RewardConfig()) -> float:
    """β annealed between epochs, linearly from beta_start (first epoch) to beta_end (last)."""
    if n_epochs < 1 or not 0 <= epoch:
        raise ValueError(f"need 0 <= epoch and n_epochs >= 1, got epoch={epoch}, n_epochs={n_epochs}")
    if n_epochs == 1:
        return config.beta_start
    t = min(epoch, n_epochs - 1) / (n_epochs - 1)
    return config.beta_start + t * (config.beta_end - config.beta_start)


def trajectory_failed(trajectory: Any) -> bool:
    """A rollout that did not complete (backend error, cancelled, or an error message)."""
    reason = getattr(trajectory.stop_reason, "value", trajectory.stop_reason)
    return reason in _FAILED or trajectory.error is not None


def compute_reward(
    trajectory: Any,
    task: Task,
    *,
    beta: float,
    doc_text: Callable[[str], str | None] | None = None,
    config: RewardConfig = RewardConfig(),
) -> RewardBreakdown:
    """The reward of one rollout and each of its terms.

    doc_text: the text of a returned document (for r_fa); None leaves r_fa at 0.
    Tasks without gold at `config.granularity` score F_beta / recall terms as 0.
    """
    units = metrics.gold_units(task, config.granularity)
    returned = [d.doc_id for d in trajectory.documents]
    p, r = metrics.precision(returned, units), metrics.recall(returned, units)
    fb = metrics.f_beta_score(p, r, beta) or 0.0
    traj_r = metrics.trajectory_recall(trajectory, units, config.granularity) or 0.0
    found = 0.0
    if doc_text is not None and task.answers:
        texts = [t for t in (doc_text(d) for d in returned) if t]
        found = metrics.answer_found(texts, task.answers) or 0.0
    names = [c.name for s in trajectory.steps for c in s.turn.tool_calls]
    pp = prune_penalty(names, config)
    pt = turn_penalty(len(trajectory.steps), config)
    pre = config.f_beta_weight * fb + config.trajectory_weight * traj_r + config.answer_bonus * found
    raw = pre - pp - pt
    floored = False
    if trajectory_failed(trajectory):
        reward = 0.0
    else:
        reward = min(raw, pre)  # the cap: penalties never lift a reward above its pre-penalty value
        if reward < config.epsilon:
            reward, floored = config.epsilon, True
    return RewardBreakdown(
        reward=reward,
        f_beta=fb,
        beta=beta,
        recall=r or 0.0,
        trajectory_recall=traj_r,
        answer_found=found,
        prune_penalty=pp,
        turn_penalty=pt,
        pre_penalty=pre,
        floored=floored,
    )


# --- hop curriculum -------------------------------------------------------------------------------


def curriculum_weights(
    tasks: Sequence[Task], progress: float, config: CurriculumConfig = CurriculumConfig()
) -> list[float]:
    """Sampling weight of each task at `progress` (0 = start of training, 1 = end).

    Phase 1 (progress < switch_at) favours few-hop tasks, phase 2 many-hop ones: the weight falls
    (phase 1) or rises (phase 2) geometrically across the hop range by a factor `skew`. Tasks
    without a hop count get the middle weight; with a single hop value every weight is 1.
    """
    hops = [t.hops for t in tasks if t.hops is not None]
    if not hops or min(hops) == max(hops):
        return [1.0] * len(tasks)
    lo, hi = min(hops), max(hops)
    sign = -1.0 if progress < config.switch_at else 1.0
    out = []
    for t in tasks:
        x = 0.5 if t.hops is None else (t.hops - lo) / (hi - lo)  # 0 = fewest hops, 1 = most
        out.append(math.exp(sign * math.log(config.skew) * x))
    return out


def sample_tasks(
    tasks: Sequence[Task], n: int, progress: float, rng: random.Random, config: CurriculumConfig = CurriculumConfig()
) -> list[Task]:
    """n distinct tasks (all of them if fewer), drawn with the curriculum's weights."""
    pool = list(range(len(tasks)))
    weights = curriculum_weights(tasks, progress, config)
    chosen: list[int] = []
    while pool and len(chosen) < n:
        i = rng.choices(range(len(pool)), weights=[weights[j] for j in pool])[0]
        chosen.append(pool.pop(i))
    return [tasks[i] for i in chosen]


def mean(values: Iterable[float]) -> float:
    vals = list(values)
    return sum(vals) / len(vals) if vals else float("nan")
