"""The SPEC §5 reward on hand-built trajectories: each term, the floor, the cap, β annealing, curriculum."""

from __future__ import annotations

import random

import pytest

from context1.types import ModelTurn, Observation, RankedDocument, Step, StopReason, ToolCall, Trajectory
from eval.types import Task
from training.reward import (
    beta_for_epoch,
    compute_reward,
    curriculum_weights,
    prune_penalty,
    sample_tasks,
    turn_penalty,
)
from training.types import RewardConfig

TASK = Task("t1", "Which city?", answers=("Paris",), gold_doc_ids=("A", "B"))
TEXTS = {"A": "The tower is in Paris.", "B": "Built in 1889.", "C": "Unrelated.", "D": "Nothing."}


def _call(name: str) -> ToolCall:
    return ToolCall(id="c", name=name, arguments={})


def _traj(returned: list[str], seen: list[str], calls: list[str] = (), n_steps: int = 1,
          stop: StopReason = StopReason.ANSWERED, error: str | None = None) -> Trajectory:
    obs = Observation(call_id="c", tool="search_corpus", text="...", chunk_ids=tuple(f"{d}#0" for d in seen),
                      doc_ids=tuple(seen))
    steps = [Step(turn=ModelTurn(text="", tool_calls=tuple(_call(n) for n in calls)), observations=(obs,))]
    steps += [Step(turn=ModelTurn(text="")) for _ in range(n_steps - 1)]
    return Trajectory(query=TASK.query, steps=steps, documents=[RankedDocument(d) for d in returned],
                      stop_reason=stop, error=error)


def test_every_term_by_hand() -> None:
    traj = _traj(returned=["A", "C", "D"], seen=["A", "C", "B"])  # P = 1/3, R = 1/2, trajectory recall 1
    b2 = compute_reward(traj, TASK, beta=2.0, doc_text=TEXTS.get)
    assert b2.f_beta == pytest.approx(5 / 11)  # (1+4)·(1/3)(1/2) / (4/3 + 1/2)
    assert b2.recall == 0.5 and b2.trajectory_recall == 1.0 and b2.answer_found == 1.0
    assert b2.reward == pytest.approx(0.7 * 5 / 11 + 0.3 * 1.0 + 1.0)
    b4 = compute_reward(traj, TASK, beta=4.0, doc_text=TEXTS.get)
    assert b4.f_beta == pytest.approx(17 / 35)  # β = 4 weights recall 16× precision
    no_answer = compute_reward(_traj(["B"], ["B"]), TASK, beta=2.0, doc_text=TEXTS.get)
    assert no_answer.answer_found == 0.0
    assert no_answer.reward == pytest.approx(0.7 * (5 * 1 * 0.5 / (4 * 1 + 0.5)) + 0.3 * 0.5)


def test_prune_penalty_counts_calls_beyond_a_streak_of_three_and_caps() -> None:
    p, s = "prune_chunks", "search_corpus"
    assert prune_penalty([p, p, p]) == 0.0
    assert prune_penalty([p] * 5 + [s] + [p] * 4) == pytest.approx(0.3)  # 2 + 1 beyond the streaks
    assert prune_penalty([p] * 10) == pytest.approx(0.5)  # 0.7 capped at 0.5
    traj = _traj(["A"], ["A"], calls=[p] * 5)
    b = compute_reward(traj, TASK, beta=2.0, doc_text=TEXTS.get)
    assert b.prune_penalty == pytest.approx(0.2)
    assert b.reward == pytest.approx(b.pre_penalty - 0.2)


def test_turn_penalty_is_linear_from_64_to_128_turns() -> None:
    assert [turn_penalty(t) for t in (10, 64, 96, 128, 300)] == pytest.approx([0, 0, 0.25, 0.5, 0.5])
    b = compute_reward(_traj(["A"], ["A"], n_steps=96), TASK, beta=2.0, doc_text=TEXTS.get)
    assert b.turn_penalty == pytest.approx(0.25)


def test_floor_for_completed_trajectories_and_zero_for_failed_ones() -> None:
    nothing = _traj(["C"], ["C"], calls=["prune_chunks"] * 9)
    b = compute_reward(nothing, TASK, beta=2.0, doc_text=TEXTS.get)
    assert b.pre_penalty == 0.0 and b.reward == RewardConfig().epsilon and b.floored
    cfg = RewardConfig(epsilon=0.05)
    assert compute_reward(nothing, TASK, beta=2.0, config=cfg).reward == 0.05
    failed = _traj(["A"], ["A"], stop=StopReason.BACKEND_ERROR, error="BackendError: down")
    assert compute_reward(failed, TASK, beta=2.0, doc_text=TEXTS.get).reward == 0.0


def test_reward_is_capped_at_its_pre_penalty_value() -> None:
    # A misconfigured negative penalty would lift the reward: the cap keeps it at r_pre.
    cfg = RewardConfig(prune_penalty=-0.1)
    b = compute_reward(_traj(["A"], ["A"], calls=["prune_chunks"] * 6), TASK, beta=2.0, doc_text=TEXTS.get, config=cfg)
    assert b.reward == pytest.approx(b.pre_penalty)


def test_weights_come_from_the_config() -> None:
    cfg = RewardConfig(f_beta_weight=1.0, trajectory_weight=0.0, answer_bonus=0.0)
    b = compute_reward(_traj(["A", "B"], ["A", "B"]), TASK, beta=2.0, doc_text=TEXTS.get, config=cfg)
    assert b.reward == pytest.approx(1.0)


def test_beta_anneals_from_4_to_2_across_epochs() -> None:
    assert [beta_for_epoch(e, 5) for e in range(5)] == pytest.approx([4.0, 3.5, 3.0, 2.5, 2.0])
    assert beta_for_epoch(0, 1) == 4.0
    with pytest.raises(ValueError):
        beta_for_epoch(0, 0)


def test_hop_curriculum_favours_few_hops_first_then_many() -> None:
    tasks = [Task(f"t{h}", "q", hops=h) for h in (2, 3, 4)] + [Task("tn", "q")]
    assert curriculum_weights(tasks, 0.1) == pytest.approx([1.0, 0.5, 0.25, 0.5])
    assert curriculum_weights(tasks, 0.9) == pytest.approx([1.0, 2.0, 4.0, 2.0])
    many = [Task(f"a{i}", "q", hops=2) for i in range(50)] + [Task(f"b{i}", "q", hops=4) for i in range(50)]
    early = sample_tasks(many, 20, 0.0, random.Random(0))
    late = sample_tasks(many, 20, 1.0, random.Random(0))
    assert sum(t.hops == 2 for t in early) > 10 > sum(t.hops == 2 for t in late)
    assert len({t.task_id for t in early}) == 20  # distinct tasks
