"""The RL reward of SPEC §5, its β annealing and the hop curriculum — pure functions.

    r = clamp(0.7·F_beta + 0.3·r_traj + r_fa − p_prune − p_turn, ε, r_pre)

computed over the *unpruned* trajectory with `eval.metrics` (one implementation of each metric):
F_beta of the returned documents, trajectory recall of everything seen (pruned chunks included),
r_fa when a returned *chunk* holds the answer (SPEC §5: a chunk the agent was shown, pruned or
not, of a document it returned — not any text of that document). p_prune charges prune calls
beyond a streak of 3 consecutive ones (one-chunk-at-a-time pruning), p_turn endless searching.

Every way an episode ends is scored on purpose (a reward is an API a policy will exploit):

| end | reward |
| --- | --- |
| concluded: an answer with at least one document | the formula above, floored at ε |
| concluded with nothing usable (no document id parsed) | −`empty_answer_penalty` (0.2) |
| never concluded: turn limit or token budget, the harness's fallback ranking | −`no_answer_penalty` (0.5) |
| failed: backend error, cancelled | 0, and the rollout is dropped from the batch |

The harness fills `trajectory.documents` with a fallback ranking of what was visible when an
episode ends without an answer (useful in production); scoring that ranking would pay a policy
that never concludes, so it is never scored. The two penalties follow harness-1 (−0.2 / −0.5):
below every concluded reward (≥ ε), an empty answer above running out the clock, since the
endless-search failure costs the most compute and is the one RL would otherwise drift into.
Every constant lives in `RewardConfig`.
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

CONCLUDED, EMPTY_ANSWER, NO_ANSWER = "concluded", "empty_answer", "no_answer"


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


def conclusion(trajectory: Any) -> str:
    """How an episode ended, for the reward: CONCLUDED, EMPTY_ANSWER or NO_ANSWER.

    CONCLUDED: the model answered and at least one document id was parsed from its answer.
    EMPTY_ANSWER: it answered, but nothing usable was parsed (the harness fell back).
    NO_ANSWER: it never answered (turn limit, token budget, or a failure): `documents` is the
    harness's fallback ranking (`metadata["answer_fallback"]`), not the model's.
    """
    reason = getattr(trajectory.stop_reason, "value", trajectory.stop_reason)
    if reason != "answered":
        return NO_ANSWER
    if trajectory.metadata.get("answer_fallback") is True or not trajectory.documents:
        return EMPTY_ANSWER
    return CONCLUDED


def returned_chunks(trajectory: Any, returned_doc_ids: Sequence[str]) -> list[tuple[str, str]]:
    """(chunk id, shown text) of every chunk the agent was shown whose document it returned.

    Pruned chunks count (the trajectory is the truth); each chunk once, first showing. The text is
    the chunk's span in the observation (`metadata["chunk_spans"]`), "" where no span is recorded.
    """
    wanted = set(returned_doc_ids)
    out: dict[str, str] = {}
    for step in trajectory.steps:
        for obs in step.observations:
            spans = {c: (s, e) for c, s, e in obs.metadata.get("chunk_spans", ())}
            only_doc = obs.doc_ids[0] if len(obs.doc_ids) == 1 else None
            for cid in obs.chunk_ids:
                doc = metrics.parent_doc_id(cid) or only_doc
                if cid in out or doc not in wanted:
                    continue
                s, e = spans.get(cid, (0, 0))
                out[cid] = obs.text[s:e]
    return list(out.items())


def compute_reward(
    trajectory: Any,
    task: Task,
    *,
    beta: float,
    chunk_text: Callable[[str], str | None] | None = None,
    config: RewardConfig = RewardConfig(),
) -> RewardBreakdown:
    """The reward of one rollout and each of its terms (the table in the module docstring).

    chunk_text: chunk id → the chunk's full text (e.g. `lambda c: corpus.chunk(c).text`) for r_fa;
        None reads the text the agent was shown (the observation's span of that chunk).
    Tasks without gold at `config.granularity` score F_beta / recall terms as 0. Without a
    conclusion, F_beta, r_fa and r_traj are not paid: `recall` still reports the fallback
    ranking's recall (a figure, not a reward term) and `trajectory_recall` what was seen.
    """
    units = metrics.gold_units(task, config.granularity)
    returned = [d.doc_id for d in trajectory.documents]
    r = metrics.recall(returned, units) or 0.0
    traj_r = metrics.trajectory_recall(trajectory, units, config.granularity) or 0.0
    names = [c.name for s in trajectory.steps for c in s.turn.tool_calls]
    pp = prune_penalty(names, config)
    pt = turn_penalty(len(trajectory.steps), config)
    ended = conclusion(trajectory)
    if trajectory_failed(trajectory) or ended != CONCLUDED:
        penalty = 0.0 if trajectory_failed(trajectory) else (
            config.empty_answer_penalty if ended == EMPTY_ANSWER else config.no_answer_penalty
        )
        return RewardBreakdown(
            reward=-penalty if penalty else 0.0, f_beta=0.0, beta=beta, recall=r, trajectory_recall=traj_r, answer_found=0.0,
            prune_penalty=pp, turn_penalty=pt, pre_penalty=0.0, concluded=False, fallback_penalty=penalty,
        )
    p = metrics.precision(returned, units)
    fb = metrics.f_beta_score(p, r, beta) or 0.0
    found = 0.0
    if task.answers:
        chunks = returned_chunks(trajectory, returned)
        texts = [(chunk_text(c) if chunk_text is not None else shown) or "" for c, shown in chunks]
        found = metrics.answer_found([t for t in texts if t], task.answers) or 0.0
    pre = config.f_beta_weight * fb + config.trajectory_weight * traj_r + config.answer_bonus * found
    reward = min(pre - pp - pt, pre)  # the cap: penalties never lift a reward above its pre-penalty value
    floored = reward < config.epsilon
    if floored:
        reward = config.epsilon
    return RewardBreakdown(
        reward=reward,
        f_beta=fb,
        beta=beta,
        recall=r,
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
