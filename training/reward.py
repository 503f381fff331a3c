"""The RL reward of SPEC §5, its β annealing and the hop curriculum — pure functions.

    r = clamp(0.7·F_beta + 0.3·r_traj + r_fa − p_prune − p_turn − p_repeat, ε, r_pre)

computed over the *unpruned* trajectory with `eval.metrics` (one implementation of each metric).
A reward is an API a policy will exploit (issue 37): every term pays only for what the agent was
*shown* and chose to *return*, and every way an episode ends is scored on purpose.

| end | reward |
| --- | --- |
| concluded: an answer citing at least one document it was shown | the formula above, floored at ε |
| answered with nothing usable (no id parsed, or only ids it was never shown) | −`empty_answer_penalty` (0.2) |
| never concluded: turn limit, token budget, context-window overflow, any backend failure its own output caused | −`no_answer_penalty` (0.5), kept in the batch |
| infrastructure failure (server down, engine crash, cancelled) | 0, dropped from the batch and counted |

Where this departs from SPEC §5, and why (each closes a way to game the reward):

- **Only what was shown is paid.** A returned document the trajectory never showed (a guessed
  title: HotpotQA and MuSiQue ids *are* titles) counts as a wrong item: it adds nothing to recall
  and lowers precision. An answer citing only such ids is an empty answer.
- **r_fa reads the returned passages, and only the top ones.** SPEC pays +1 "when a returned chunk
  holds the answer". The returned passages are `Trajectory.evidence` (shown chunks only) when the
  harness filled it, else one passage per returned document: the best-ranked chunk of it the agent
  was shown (`returned_passages`). r_fa is paid when one of the first G passages holds the
  answer, G = the task's number of gold units (at least 1): a policy that returns everything it
  saw in the order it saw it no longer collects r_fa for the answer buried at rank 9, and pays the
  padding in F_beta's precision; ranked best-first, the same answer keeps r_fa.
- **p_turn scales with the episode's `max_turns`.** SPEC's 0 at 64 → 0.5 at 128 turns never fires
  when the harness stops at 32 (or 3 in small-model RL). With `max_turns` known (the argument, or
  the trajectory's recorded agent config), p_turn grows from 0 at ⌈max_turns·64/128⌉ turns that
  called a tool to 0.5 at max_turns; without it, SPEC's absolute 64 → 128.
- **p_repeat**, not in SPEC: 0.1 per tool call identical to an earlier one of the episode (same
  tool, same arguments up to case and spacing), capped at 0.5 — "repeat the same search" is the
  cheapest form of endless low-yield searching and costs nothing else when it finds nothing new.
- **Overflow is a no-answer.** A rollout whose context outgrew the model's window (TOKEN_BUDGET
  with an error, or a BackendError saying the prompt exceeds the window / max_model_len) failed
  because of its own output: it scores −0.5 and stays in the batch, so RL sees its gradient.
  Before, it scored 0 and was dropped — an exit from the no-answer penalty.

The harness fills `trajectory.documents` with a fallback ranking of what was visible when an
episode ends without an answer (useful in production); scoring it would pay a policy that never
concludes, so it is never scored. The two penalties follow harness-1 (−0.2 / −0.5): below every
concluded reward (≥ ε), an empty answer above running out the clock, since the endless-search
failure costs the most compute and is the one RL would otherwise drift into. Every constant lives
in `RewardConfig`; `benchmarks/reward_table.py` scores one scripted trajectory per degenerate
policy against an honest one.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from eval import metrics
from eval.types import Task
from training.types import CurriculumConfig, RewardBreakdown, RewardConfig

PRUNE_TOOL = "prune_chunks"

CONCLUDED, EMPTY_ANSWER, NO_ANSWER = "concluded", "empty_answer", "no_answer"
POLICY, INFRASTRUCTURE = "policy", "infrastructure"

# What the harness and the backends say when a prompt no longer fits the model (context1/agent.py,
# lockstep.py, backends/transformers_local.py, vllm_backend.py; an OpenAI-compatible server's
# HTTP 400 "maximum context length"). The policy's own output grew the context: its failure.
_OVERFLOW = re.compile(
    r"context window|-token window|max_model_len|maximum context length|context length|prompt is too long",
    re.IGNORECASE,
)


def failure_cause(trajectory: Any) -> str | None:
    """Who made an episode fail: None (it did not fail), POLICY or INFRASTRUCTURE.

    POLICY: the context outgrew the model's window (an overflow the policy's own turns caused).
    INFRASTRUCTURE: anything else that stopped it with an error — a server down, an engine crash,
    a scripted backend out of turns, a cancellation. A plain TOKEN_BUDGET stop without an error is
    the harness's budget limit, not a failure (a no-answer like the turn limit).
    """
    reason = getattr(trajectory.stop_reason, "value", trajectory.stop_reason)
    error = trajectory.error
    if reason == "cancelled":
        return INFRASTRUCTURE
    if error is None and reason != "backend_error":
        return None
    return POLICY if error and _OVERFLOW.search(error) else INFRASTRUCTURE


def trajectory_failed(trajectory: Any) -> bool:
    """A rollout the policy cannot be blamed for (an infrastructure failure): dropped from the batch."""
    return failure_cause(trajectory) == INFRASTRUCTURE


def shown_doc_ids(trajectory: Any) -> set[str]:
    """Every document the agent was shown: observed documents and the parents of shown chunks."""
    shown = set(trajectory.seen_doc_ids())
    shown.update(d for d in (metrics.parent_doc_id(c) for c in trajectory.seen_chunk_ids()) if d)
    return shown


def conclusion(trajectory: Any) -> str:
    """How an episode ended, for the reward: CONCLUDED, EMPTY_ANSWER or NO_ANSWER.

    CONCLUDED: the model answered and cited at least one document it was shown.
    EMPTY_ANSWER: it answered, but nothing usable was parsed (the harness fell back), or every
    document it cited was one it was never shown (a guess).
    NO_ANSWER: it never answered (turn limit, token budget, overflow, or a failure): `documents`
    is the harness's fallback ranking (`metadata["answer_fallback"]`), not the model's.
    """
    reason = getattr(trajectory.stop_reason, "value", trajectory.stop_reason)
    if reason != "answered":
        return NO_ANSWER
    if trajectory.metadata.get("answer_fallback") is True or not trajectory.documents:
        return EMPTY_ANSWER
    shown = shown_doc_ids(trajectory)
    if not any(d.doc_id in shown for d in trajectory.documents):
        return EMPTY_ANSWER
    return CONCLUDED


def _shown_chunks(trajectory: Any) -> dict[str, tuple[int, int, str | None, str]]:
    """chunk id → (best rank in any observation, first-seen order, its document, the text shown).

    The text is the chunk's span in the observation (`metadata["chunk_spans"]`), "" where no span
    is recorded. Pruned chunks count (the trajectory is the truth).
    """
    out: dict[str, tuple[int, int, str | None, str]] = {}
    for step in trajectory.steps:
        for obs in step.observations:
            spans = {c: (s, e) for c, s, e in obs.metadata.get("chunk_spans", ())}
            only_doc = obs.doc_ids[0] if len(obs.doc_ids) == 1 else None
            for rank, cid in enumerate(obs.chunk_ids):
                s, e = spans.get(cid, (0, 0))
                if cid in out:
                    best, order, doc, text = out[cid]
                    out[cid] = (min(best, rank), order, doc, text or obs.text[s:e])
                else:
                    out[cid] = (rank, len(out), metrics.parent_doc_id(cid) or only_doc, obs.text[s:e])
    return out


def returned_passages(trajectory: Any) -> list[tuple[str, str]]:
    """(chunk id, shown text) of each returned passage, best first — what r_fa reads.

    `Trajectory.evidence` when the harness filled it (its chunks the agent was not shown are
    dropped: they cannot be evidence); else one passage per returned document, in the answer's
    order: the chunk of that document the tools ranked highest when they showed it (ties: the one
    shown first). Never every chunk of a returned document: that paid padding (issue 37).
    """
    shown = _shown_chunks(trajectory)
    out: dict[str, str] = {}
    evidence = list(getattr(trajectory, "evidence", None) or ())
    if evidence:
        for ev in evidence:
            if ev.chunk_id in shown and ev.chunk_id not in out:
                out[ev.chunk_id] = shown[ev.chunk_id][3] or ev.text
        return list(out.items())
    for doc in dict.fromkeys(d.doc_id for d in trajectory.documents):
        mine = [(rank, order, cid) for cid, (rank, order, d, _) in shown.items() if d == doc]
        if mine:
            cid = min(mine)[2]
            out[cid] = shown[cid][3]
    return list(out.items())


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


def turn_penalty(turns: int, config: RewardConfig = RewardConfig(), max_turns: int | None = None) -> float:
    """0 up to the start, linear to `turn_penalty_max` (0.5) at the full mark, 0.5 beyond.

    max_turns None: SPEC's absolute marks, 64 → 128 turns. Else the marks scale with the
    episode's limit, keeping SPEC's ratio: ⌈max_turns·64/128⌉ → max_turns.
    """
    start, full = float(config.turn_penalty_start), float(config.turn_penalty_full)
    if max_turns is not None and max_turns > 0 and full > 0:
        start, full = float(math.ceil(max_turns * start / full)), float(max_turns)
    span = full - start
    frac = (turns - start) / span if span > 0 else float(turns >= full)
    return config.turn_penalty_max * min(1.0, max(0.0, frac))


def _canonical(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.lower().split())
    if isinstance(value, Mapping):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return value


def repeat_penalty(calls: Iterable[Any], config: RewardConfig = RewardConfig()) -> float:
    """`repeat_penalty` (0.1) per tool call identical to an earlier one, capped at `repeat_penalty_cap`.

    Identical: the same tool with the same arguments up to case and spacing (the raw text when
    the arguments did not parse).
    """
    seen: set[str] = set()
    repeats = 0
    for call in calls:
        args = call.arguments if call.arguments else getattr(call, "raw_arguments", "")
        key = json.dumps([call.name, _canonical(args)], sort_keys=True, default=str)
        repeats += key in seen
        seen.add(key)
    return min(config.repeat_penalty * repeats, config.repeat_penalty_cap)


def episode_max_turns(trajectory: Any) -> int | None:
    """The turn limit the episode ran under (the harness records its AgentConfig), else None."""
    value = (trajectory.metadata.get("config") or {}).get("max_turns")
    return int(value) if isinstance(value, (int, float)) and value > 0 else None


def beta_for_epoch(epoch: int, n_epochs: int, config: RewardConfig = RewardConfig()) -> float:
    """β annealed between epochs, linearly from beta_start (first epoch) to beta_end (last)."""
    if n_epochs < 1 or not 0 <= epoch:
        raise ValueError(f"need 0 <= epoch and n_epochs >= 1, got epoch={epoch}, n_epochs={n_epochs}")
    if n_epochs == 1:
        return config.beta_start
    t = min(epoch, n_epochs - 1) / (n_epochs - 1)
    return config.beta_start + t * (config.beta_end - config.beta_start)


def compute_reward(
    trajectory: Any,
    task: Task,
    *,
    beta: float,
    chunk_text: Callable[[str], str | None] | None = None,
    config: RewardConfig = RewardConfig(),
    max_turns: int | None = None,
) -> RewardBreakdown:
    """The reward of one rollout and each of its terms (the table in the module docstring).

    chunk_text: chunk id → the chunk's full text (e.g. `lambda c: corpus.chunk(c).text`) for r_fa;
        None reads the text the agent was shown (the observation's span of that chunk).
    max_turns: the episode's turn limit for p_turn; None reads it from the trajectory's recorded
        agent config (SPEC's absolute 64 → 128 when neither is known).
    Tasks without gold at `config.granularity` score F_beta / recall terms as 0. Without a
    conclusion, F_beta, r_fa and r_traj are not paid: `recall` still reports the fallback
    ranking's recall (a figure, not a reward term) and `trajectory_recall` what was seen.
    """
    units = metrics.gold_units(task, config.granularity)
    returned = [d.doc_id for d in trajectory.documents]
    shown = shown_doc_ids(trajectory)
    # A document never shown is paid as a wrong item: it counts in precision's denominator only.
    paid = [d if d in shown else f"\x00unshown:{d}" for d in returned]
    r = metrics.recall(paid, units) or 0.0
    traj_r = metrics.trajectory_recall(trajectory, units, config.granularity) or 0.0
    calls = [c for s in trajectory.steps for c in s.turn.tool_calls]
    pp = prune_penalty([c.name for c in calls], config)
    tool_turns = sum(1 for s in trajectory.steps if s.turn.tool_calls)
    pt = turn_penalty(tool_turns, config, max_turns if max_turns is not None else episode_max_turns(trajectory))
    pr = repeat_penalty(calls, config)
    cause = failure_cause(trajectory)
    ended = conclusion(trajectory)
    if cause is not None or ended != CONCLUDED:
        if cause == INFRASTRUCTURE:
            penalty = 0.0
        else:
            penalty = config.empty_answer_penalty if ended == EMPTY_ANSWER else config.no_answer_penalty
        return RewardBreakdown(
            reward=-penalty if penalty else 0.0, f_beta=0.0, beta=beta, recall=r, trajectory_recall=traj_r,
            answer_found=0.0, prune_penalty=pp, turn_penalty=pt, pre_penalty=0.0, concluded=False,
            fallback_penalty=penalty, repeat_penalty=pr, ending=ended, failure=cause,
        )
    p = metrics.precision(paid, units)
    fb = metrics.f_beta_score(p, r, beta) or 0.0
    found = 0.0
    if task.answers:
        top = returned_passages(trajectory)[: max(1, len(units))]
        texts = [(chunk_text(c) if chunk_text is not None else shown_text) or shown_text for c, shown_text in top]
        found = metrics.answer_found([t for t in texts if t], task.answers) or 0.0
    pre = config.f_beta_weight * fb + config.trajectory_weight * traj_r + config.answer_bonus * found
    reward = min(pre - pp - pt - pr, pre)  # the cap: penalties never lift a reward above its pre-penalty value
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
        repeat_penalty=pr,
        ending=ended,
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
