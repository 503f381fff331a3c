"""Rejection-sampling fine-tuning's selection: N rollouts per task, the best by RL reward (issue 23)."""

from __future__ import annotations

from context1.types import ModelTurn, Observation, RankedDocument, Step, StopReason, Trajectory
from eval.types import Task
from training.reward import compute_reward
from training.sft import generate_teacher_trajectories, keep_best_by_reward

TASK = Task("t1", "Which city?", answers=("Paris",), gold_doc_ids=("A", "B"))


def _traj(docs, stop=StopReason.ANSWERED, fallback=False, task_id="t1") -> Trajectory:
    obs = Observation(call_id="c", tool="search_corpus", text="The tower is in Paris.", chunk_ids=("A#0",),
                      doc_ids=("A",), metadata={"chunk_spans": [["A#0", 0, 22]]})
    return Trajectory(query=TASK.query, steps=[Step(turn=ModelTurn(text=""), observations=(obs,))],
                      documents=[RankedDocument(d) for d in docs], stop_reason=stop,
                      metadata={"task_id": task_id, "answer_fallback": fallback})


def test_the_best_by_reward_is_kept_and_a_fallback_never_wins() -> None:
    fallback_perfect = _traj(["A", "B"], stop=StopReason.MAX_TURNS, fallback=True)
    concluded_half = _traj(["A"])
    concluded_wrong = _traj(["C"])
    other = _traj(["A"], task_id="unknown-task")
    kept, rewards = keep_best_by_reward([fallback_perfect, concluded_wrong, concluded_half, other], [TASK])
    assert kept == [concluded_half]
    assert rewards == [compute_reward(concluded_half, TASK, beta=4.0).reward]


def test_best_of_n_over_real_teacher_rollouts(mini_corpus, mini_tasks, tmp_path) -> None:
    from context1.backends import make_backend
    from training.rl import agent_config_for_small_model

    teacher = make_backend("iterative", corpus=mini_corpus)
    cfg = agent_config_for_small_model(max_turns=2)
    trajs = generate_teacher_trajectories(mini_corpus, mini_tasks, teacher, cfg, tmp_path / "t.jsonl",
                                          rollouts_per_task=3, seed=1, progress=False)
    assert len(trajs) == 6
    kept, rewards = keep_best_by_reward(trajs, mini_tasks)
    assert [t.metadata["task_id"] for t in kept] == [t.task_id for t in mini_tasks]
    for task, best, r in zip(mini_tasks, kept, rewards, strict=True):
        own = [compute_reward(t, task, beta=4.0).reward for t in trajs if t.metadata["task_id"] == task.task_id]
        assert len(own) == 3 and r == max(own)
        assert best in trajs
