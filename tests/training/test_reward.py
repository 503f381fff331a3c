"""The SPEC §5 reward on hand-built trajectories: each term, the floor, the cap, every way an episode
ends (concluded, empty answer, fallback, failed), chunk-level r_fa, β annealing, curriculum."""

from __future__ import annotations

import random

import pytest

from context1.types import ModelTurn, Observation, RankedDocument, Step, StopReason, ToolCall, Trajectory
from eval.types import Task
from training.reward import (
    CONCLUDED,
    EMPTY_ANSWER,
    NO_ANSWER,
    beta_for_epoch,
    compute_reward,
    conclusion,
    curriculum_weights,
    prune_penalty,
    returned_passages,
    sample_tasks,
    turn_penalty,
)
from training.types import RewardConfig

TASK = Task("t1", "Which city?", answers=("Paris",), gold_doc_ids=("A", "B"))
# The text of each document's first chunk, as a search would show it.
TEXTS = {"A": "The tower is in Paris.", "B": "Built in 1889.", "C": "Unrelated.", "D": "Nothing."}


def _call(name: str, i: int = 0) -> ToolCall:
    return ToolCall(id="c", name=name, arguments={"n": i})  # distinct arguments: no call repeats another


def _obs(chunks: dict[str, str]) -> Observation:
    """A search observation showing `chunks` (id -> text), with the spans the harness records."""
    text, spans = "", []
    for cid, body in chunks.items():
        head = f"[{cid}] "
        spans.append([cid, len(text) + len(head), len(text) + len(head) + len(body)])
        text += head + body + "\n"
    return Observation(call_id="c", tool="search_corpus", text=text, chunk_ids=tuple(chunks),
                       doc_ids=tuple(dict.fromkeys(c.split("#")[0] for c in chunks)), metadata={"chunk_spans": spans})


def _traj(returned: list[str], seen: list[str], calls: list[str] = (), n_steps: int = 1,
          stop: StopReason = StopReason.ANSWERED, error: str | None = None, fallback: bool | None = None) -> Trajectory:
    obs = _obs({f"{d}#0": TEXTS[d] for d in seen})
    steps = [Step(turn=ModelTurn(text="", tool_calls=tuple(_call(n, i) for i, n in enumerate(calls))), observations=(obs,))]
    steps += [Step(turn=ModelTurn(text="")) for _ in range(n_steps - 1)]
    meta = {} if fallback is None else {"answer_fallback": fallback}
    return Trajectory(query=TASK.query, steps=steps, documents=[RankedDocument(d) for d in returned],
                      stop_reason=stop, error=error, metadata=meta)


def test_every_term_by_hand() -> None:
    traj = _traj(returned=["A", "C", "D"], seen=["A", "C", "B"])  # P = 1/3, R = 1/2, trajectory recall 1
    b2 = compute_reward(traj, TASK, beta=2.0)
    assert b2.f_beta == pytest.approx(5 / 11)  # (1+4)·(1/3)(1/2) / (4/3 + 1/2)
    assert b2.recall == 0.5 and b2.trajectory_recall == 1.0 and b2.answer_found == 1.0
    assert b2.reward == pytest.approx(0.7 * 5 / 11 + 0.3 * 1.0 + 1.0)
    b4 = compute_reward(traj, TASK, beta=4.0)
    assert b4.f_beta == pytest.approx(17 / 35)  # β = 4 weights recall 16× precision
    no_answer = compute_reward(_traj(["B"], ["B"]), TASK, beta=2.0)
    assert no_answer.answer_found == 0.0
    assert no_answer.reward == pytest.approx(0.7 * (5 * 1 * 0.5 / (4 * 1 + 0.5)) + 0.3 * 0.5)


def test_prune_penalty_counts_calls_beyond_a_streak_of_three_and_caps() -> None:
    p, s = "prune_chunks", "search_corpus"
    assert prune_penalty([p, p, p]) == 0.0
    assert prune_penalty([p] * 5 + [s] + [p] * 4) == pytest.approx(0.3)  # 2 + 1 beyond the streaks
    assert prune_penalty([p] * 10) == pytest.approx(0.5)  # 0.7 capped at 0.5
    traj = _traj(["A"], ["A"], calls=[p] * 5)
    b = compute_reward(traj, TASK, beta=2.0)
    assert b.prune_penalty == pytest.approx(0.2)
    assert b.reward == pytest.approx(b.pre_penalty - 0.2)


def test_turn_penalty_is_linear_from_64_to_128_turns_without_a_known_limit() -> None:
    assert [turn_penalty(t) for t in (10, 64, 96, 128, 300)] == pytest.approx([0, 0, 0.25, 0.5, 0.5])


def test_turn_penalty_scales_with_the_episodes_max_turns() -> None:
    # SPEC's 64 → 128 never fired under a 32-turn (or 3-turn) limit; its ratio now scales to the limit.
    assert [turn_penalty(t, max_turns=32) for t in (8, 16, 24, 32)] == pytest.approx([0, 0, 0.25, 0.5])
    assert [turn_penalty(t, max_turns=3) for t in (1, 2, 3)] == pytest.approx([0, 0, 0.5])
    # tool-calling turns count; the limit comes from the argument or the recorded agent config
    traj = _traj(["A"], ["A"], calls=["search_corpus"], n_steps=1)
    traj.steps += [Step(turn=ModelTurn(text="", tool_calls=(ToolCall(id=f"s{i}", name="search_corpus",
                                                                        arguments={"query": f"q{i}"}),)))
                   for i in range(23)]  # 24 tool turns
    assert compute_reward(traj, TASK, beta=2.0, max_turns=32).turn_penalty == pytest.approx(0.25)
    assert compute_reward(traj, TASK, beta=2.0).turn_penalty == 0.0  # no limit known: SPEC's 64
    traj.metadata["config"] = {"max_turns": 32}
    assert compute_reward(traj, TASK, beta=2.0).turn_penalty == pytest.approx(0.25)


def test_floor_for_completed_trajectories_and_zero_for_failed_ones() -> None:
    nothing = _traj(["C"], ["C"], calls=["prune_chunks"] * 9)
    b = compute_reward(nothing, TASK, beta=2.0)
    assert b.pre_penalty == 0.0 and b.reward == RewardConfig().epsilon and b.floored
    cfg = RewardConfig(epsilon=0.05)
    assert compute_reward(nothing, TASK, beta=2.0, config=cfg).reward == 0.05
    failed = _traj(["A"], ["A"], stop=StopReason.BACKEND_ERROR, error="BackendError: down")
    assert compute_reward(failed, TASK, beta=2.0).reward == 0.0


def test_reward_is_capped_at_its_pre_penalty_value() -> None:
    # A misconfigured negative penalty would lift the reward: the cap keeps it at r_pre.
    cfg = RewardConfig(prune_penalty=-0.1)
    b = compute_reward(_traj(["A"], ["A"], calls=["prune_chunks"] * 6), TASK, beta=2.0, config=cfg)
    assert b.reward == pytest.approx(b.pre_penalty)


def test_weights_come_from_the_config() -> None:
    cfg = RewardConfig(f_beta_weight=1.0, trajectory_weight=0.0, answer_bonus=0.0)
    b = compute_reward(_traj(["A", "B"], ["A", "B"]), TASK, beta=2.0, config=cfg)
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


# --- every way an episode ends is scored on purpose -----------------------------------------------


def test_a_fallback_ranking_is_never_paid_even_when_it_holds_every_gold_document() -> None:
    # The turn limit hit with both gold documents visible: the harness's fallback ranking would
    # score F_beta = 1 and r_fa = 1 (2.0 in all); a policy that never concludes must not earn it.
    limit = _traj(["A", "B"], ["A", "B"], stop=StopReason.MAX_TURNS, fallback=True)
    b = compute_reward(limit, TASK, beta=2.0)
    assert conclusion(limit) == NO_ANSWER and not b.concluded
    assert b.reward == pytest.approx(-0.5) and b.f_beta == 0.0 and b.answer_found == 0.0
    assert b.recall == 1.0  # the figure is still reported; it is just not paid
    budget = _traj(["A", "B"], ["A", "B"], stop=StopReason.TOKEN_BUDGET, fallback=True)
    assert compute_reward(budget, TASK, beta=2.0).reward == pytest.approx(-0.5)


def test_an_answer_with_no_usable_document_earns_the_empty_answer_penalty() -> None:
    # Answered, but no document id parsed: the harness fell back to what was visible.
    empty = _traj(["A", "B"], ["A", "B"], stop=StopReason.ANSWERED, fallback=True)
    assert conclusion(empty) == EMPTY_ANSWER
    assert compute_reward(empty, TASK, beta=2.0).reward == pytest.approx(-0.2)
    nothing = _traj([], ["A"], stop=StopReason.ANSWERED)
    assert compute_reward(nothing, TASK, beta=2.0).reward == pytest.approx(-0.2)
    cfg = RewardConfig(empty_answer_penalty=0.3, no_answer_penalty=0.7)
    assert compute_reward(empty, TASK, beta=2.0, config=cfg).reward == pytest.approx(-0.3)


def test_every_ending_is_ranked_concluded_over_empty_over_unfinished_and_failed_is_zero() -> None:
    concluded_badly = compute_reward(_traj(["C"], ["C"], fallback=False), TASK, beta=4.0)
    empty = compute_reward(_traj(["A"], ["A"], fallback=True), TASK, beta=4.0)
    unfinished = compute_reward(_traj(["A"], ["A"], stop=StopReason.MAX_TURNS, fallback=True), TASK, beta=4.0)
    failed = compute_reward(_traj(["A"], ["A"], stop=StopReason.BACKEND_ERROR, error="x", fallback=True), TASK,
                            beta=4.0)
    assert concluded_badly.reward == RewardConfig().epsilon
    assert concluded_badly.reward > empty.reward > unfinished.reward
    assert failed.reward == 0.0 and not failed.concluded


def test_final_answer_bonus_is_chunk_level() -> None:
    # Document A is returned; the agent saw only its chunk A#1, which does not hold "Paris"
    # (A#0 does, but the agent never saw it). Document-level matching would pay r_fa = 1.
    obs = _obs({"A#1": "Its height is 330 metres."})
    traj = Trajectory(query=TASK.query, steps=[Step(turn=ModelTurn(text=""), observations=(obs,))],
                      documents=[RankedDocument("A")], stop_reason=StopReason.ANSWERED)
    assert compute_reward(traj, TASK, beta=2.0).answer_found == 0.0
    # chunk_text reads the whole chunk from the corpus instead of what was shown
    full = {"A#1": "Its height is 330 metres, the tallest in Paris."}
    assert compute_reward(traj, TASK, beta=2.0, chunk_text=full.get).answer_found == 1.0
    # A shown chunk of a document that was *not* returned does not count either.
    other = _obs({"B#0": "The tower is in Paris."})
    traj2 = Trajectory(query=TASK.query, steps=[Step(turn=ModelTurn(text=""), observations=(obs, other))],
                       documents=[RankedDocument("A")], stop_reason=StopReason.ANSWERED)
    assert returned_passages(traj2) == [("A#1", "Its height is 330 metres.")]
    assert compute_reward(traj2, TASK, beta=2.0).answer_found == 0.0


def test_pruned_then_answered_credits_what_was_seen_and_pruned() -> None:
    # The agent saw A#0 (holds "Paris") and B#0, pruned both, then answered with A and B.
    show = Step(turn=ModelTurn(text="", tool_calls=(_call("search_corpus"),)),
                observations=(_obs({"A#0": TEXTS["A"], "B#0": TEXTS["B"]}),))
    prune = Step(turn=ModelTurn(text="", tool_calls=(_call("prune_chunks"),)), pruned=("A#0", "B#0"))
    traj = Trajectory(query=TASK.query, steps=[show, prune, Step(turn=ModelTurn(text="<Document id=A>..."))],
                      documents=[RankedDocument("A"), RankedDocument("B")], stop_reason=StopReason.ANSWERED,
                      metadata={"answer_fallback": False})
    b = compute_reward(traj, TASK, beta=2.0)
    assert conclusion(traj) == CONCLUDED and b.concluded
    assert b.f_beta == 1.0 and b.trajectory_recall == 1.0 and b.answer_found == 1.0
    assert b.reward == pytest.approx(0.7 + 0.3 + 1.0)


def test_the_real_harness_marks_each_ending_and_the_reward_reads_it(mini_corpus) -> None:
    from context1 import SearchAgent
    from context1.backends.scripted import ScriptedBackend, call, turn
    from training.rl import agent_config_for_small_model

    task = Task("t", "Who is the mayor of Veldhaven?", answers=("Ilsa Marrow",), gold_doc_ids=("veldhaven",))
    cfg = agent_config_for_small_model(max_turns=2)
    search = turn(call("search_corpus", query="mayor of Veldhaven"))

    def run(*script):
        return SearchAgent(mini_corpus, ScriptedBackend(list(script)), cfg).run(task.query).trajectory

    answered = run(search, "<Document id=veldhaven><Justification>Names the mayor.</Justification></Document>")
    empty = run(search, "I could not decide.")
    limit = run(search, search)
    assert [conclusion(t) for t in (answered, empty, limit)] == [CONCLUDED, EMPTY_ANSWER, NO_ANSWER]
    # all three return veldhaven (the fallback ranks what was visible); only the answer is paid
    assert all("veldhaven" in [d.doc_id for d in t.documents] for t in (answered, empty, limit))
    rewards = [compute_reward(t, task, beta=2.0).reward for t in (answered, empty, limit)]
    assert rewards[0] > 1.0 and rewards[1:] == pytest.approx([-0.2, -0.5])
