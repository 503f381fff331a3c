"""The reward against degenerate policies (issue 37): each scores strictly below an honest one.

The table's scripted trajectories (benchmarks/reward_table.py) and the real harness: an episode that
outgrows the model's window is a −0.5 no-answer kept in the batch, an infrastructure failure is
dropped and counted, guessed ids earn nothing, padding costs, r_fa reads the returned passages.
On main (5e74342) the overflow scored 0 and was dropped, a guessed gold title raised the reward,
and repeating a search or searching to the limit tied the honest policy.
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from context1.types import Evidence, ModelTurn, RankedDocument, Step, StopReason, Trajectory
from training.reward import (
    EMPTY_ANSWER,
    INFRASTRUCTURE,
    NO_ANSWER,
    POLICY,
    compute_reward,
    conclusion,
    failure_cause,
    returned_passages,
)
from training.rl import build_batch
from training.rollouts import Rollout

TABLE_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "reward_table.py"


@pytest.fixture(scope="module")
def table():
    spec = importlib.util.spec_from_file_location("reward_table", TABLE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("beta", [4.0, 3.0, 2.0])
def test_every_degenerate_policy_scores_strictly_below_the_honest_one(table, beta) -> None:
    rows = table.rows()
    names = [n for n, _ in rows]
    for wanted in ("never answer", "overflow", "guessed ids", "everything seen", "one broad search",
                   "repeat the same search", "prune one chunk"):
        assert any(wanted in n for n in names), wanted
    honest = compute_reward(rows[0][1], table.TASK, beta=beta)
    assert honest.concluded and honest.answer_found == 1.0
    for name, traj in rows[1:]:
        assert failure_cause(traj) != INFRASTRUCTURE, name  # every row stays in the batch
        assert compute_reward(traj, table.TASK, beta=beta).reward < honest.reward, name


def test_repeating_a_search_costs_even_when_it_finds_everything(table) -> None:
    rows = dict(table.rows())
    repeat = compute_reward(rows["repeat the same search"], table.TASK, beta=2.0)
    assert repeat.f_beta == 1.0 and repeat.answer_found == 1.0 and repeat.repeat_penalty == pytest.approx(0.2)


def test_overflow_in_the_real_harness_is_a_no_answer_kept_in_the_batch(mini_corpus, mini_tasks) -> None:
    from context1 import SearchAgent
    from context1.backends.scripted import ScriptedBackend, call, turn
    from training.rl import agent_config_for_small_model

    task = mini_tasks[0]
    cfg = agent_config_for_small_model(max_turns=4)
    ids = {"prompt_token_ids": (5, 6), "token_ids": (7,), "logprobs": (-0.5,)}  # what RL trains on
    answer = ModelTurn(text="<Document id=veldhaven><Justification>The river town.</Justification></Document>",
                       **ids)

    def run(script, window=None):
        agent = SearchAgent(mini_corpus, ScriptedBackend(list(script)), cfg)
        if window is not None:
            agent.context_window = window  # as a small model's: the first turn fits, the second not
        return agent.run(task.query).trajectory

    search = dataclasses.replace(turn(call("search_corpus", query="river town salt merchants")), **ids)
    honest = run([search, answer])
    overflow = run([search, search, answer], window=1100)  # the prompt is ~930 tokens, ~1,190 after a search
    assert overflow.stop_reason is StopReason.TOKEN_BUDGET and "context window" in overflow.error
    infra = run([search])  # the script runs out: a backend failure that is not the policy's
    assert failure_cause(overflow) == POLICY and failure_cause(infra) == INFRASTRUCTURE
    b = compute_reward(overflow, task, beta=2.0)
    assert conclusion(overflow) == NO_ANSWER and b.reward == pytest.approx(-0.5) and b.failure == POLICY

    group = [Rollout(task, honest, honest.error), Rollout(task, overflow, overflow.error),
             Rollout(task, infra, infra.error)]
    assert [ro.failed for ro in group] == [False, False, True]
    rewards = [compute_reward(ro.trajectory, task, beta=2.0).reward if not ro.failed else 0.0 for ro in group]
    datums, counts = build_batch([group], [rewards], scale_by_std=False)
    assert counts["rollouts_failed"] == 1 and counts["rollouts_overflowed"] == 1 and counts["groups_used"] == 1
    # both kept rollouts carry datums; the overflow's advantage is negative
    by_index = {d.trajectory_index: d.advantage for d in datums}
    assert set(by_index) == {0, 1} and by_index[1] < 0 < by_index[0]


@pytest.mark.parametrize("error,cause", [
    ("BackendError: the prompt (8,100 tokens) plus max_new_tokens (512) exceeds the model's 8,192-token window",
     POLICY),  # transformers_local.generate_batch
    ("BackendError: the prompt (33,000 tokens) exceeds the engine's max_model_len (32,768)", POLICY),  # vLLM
    ("BackendError: POST http://h/v1/chat/completions failed with HTTP 400: 'This model's maximum context length "
     "is 4096 tokens'", POLICY),  # an OpenAI-compatible server
    ("BackendError: vLLM generation failed: RuntimeError: CUDA out of memory", INFRASTRUCTURE),
    ("BackendError: POST http://h/v1/chat/completions failed after 3 attempt(s); last: connection failed",
     INFRASTRUCTURE),
    ("BackendError: the script has 1 turn(s) and turn 2 was asked for", INFRASTRUCTURE),
])
def test_backend_failures_are_blamed_on_the_policy_only_for_overflow(error, cause) -> None:
    traj = Trajectory(query="q", stop_reason=StopReason.BACKEND_ERROR, error=error)
    assert failure_cause(traj) == cause
    assert compute_reward(traj, _task(), beta=2.0).reward == (-0.5 if cause == POLICY else 0.0)
    assert failure_cause(Trajectory(query="q", stop_reason=StopReason.CANCELLED)) == INFRASTRUCTURE
    assert failure_cause(Trajectory(query="q", stop_reason=StopReason.TOKEN_BUDGET)) is None  # the budget limit


def _task():
    from eval.types import Task

    return Task("t", "Which city?", answers=("Paris",), gold_doc_ids=("A", "B"))


def _shown(*chunks: tuple[str, str]) -> Step:
    from context1.types import Observation, ToolCall

    text, spans = "", []
    for cid, body in chunks:
        spans.append([cid, len(text), len(text) + len(body)])
        text += body + "\n"
    obs = Observation(call_id="c", tool="search_corpus", text=text, chunk_ids=tuple(c for c, _ in chunks),
                      doc_ids=tuple(dict.fromkeys(c.split("#")[0] for c, _ in chunks)),
                      metadata={"chunk_spans": spans})
    return Step(turn=ModelTurn(text="", tool_calls=(ToolCall(id="c", name="search_corpus",
                                                             arguments={"query": text[:20]}),)), observations=(obs,))


def _answer(steps, docs, evidence=()) -> Trajectory:
    return Trajectory(query="q", steps=[*steps, Step(turn=ModelTurn(text="..."))],
                      documents=[RankedDocument(d) for d in docs], evidence=list(evidence),
                      stop_reason=StopReason.ANSWERED, metadata={"answer_fallback": False})


def test_a_guessed_id_earns_nothing_and_costs_precision() -> None:
    seen = [_shown(("A#0", "The tower is in Paris."), ("C#0", "Unrelated."))]
    without = compute_reward(_answer(seen, ["A"]), _task(), beta=4.0)
    guessed = compute_reward(_answer(seen, ["A", "B"]), _task(), beta=4.0)  # B is gold but was never shown
    assert guessed.recall == without.recall == 0.5
    assert guessed.reward < without.reward
    only_guesses = _answer(seen, ["B", "Z"])
    assert conclusion(only_guesses) == EMPTY_ANSWER
    assert compute_reward(only_guesses, _task(), beta=4.0).reward == pytest.approx(-0.2)


def test_padding_scores_below_the_gold_bearing_subset_at_every_beta() -> None:
    seen = [_shown(("C#0", "Unrelated."), ("D#0", "Nothing."), ("E#0", "Other.")),
            _shown(("A#0", "The tower is in Paris."), ("B#0", "Built in 1889."))]
    for beta in (4.0, 2.0):
        subset = compute_reward(_answer(seen, ["A", "B"]), _task(), beta=beta)
        everything = compute_reward(_answer(seen, ["C", "D", "E", "A", "B"]), _task(), beta=beta)
        assert subset.answer_found == 1.0 and everything.answer_found == 0.0  # the answer sits at rank 4 of 5
        assert everything.reward < subset.reward


def test_r_fa_reads_the_returned_passages_not_every_shown_chunk_of_a_returned_document() -> None:
    seen = [_shown(("A#1", "Its height is 330 metres."), ("B#0", "Built in 1889.")),
            _shown(("A#0", "The tower is in Paris."))]
    # without evidence: A's best passage is A#1 (ranked first when shown), not A#0
    traj = _answer(seen, ["A", "B"])
    assert [c for c, _ in returned_passages(traj)] == ["A#1", "B#0"]
    assert compute_reward(traj, _task(), beta=2.0).answer_found == 0.0
    # with evidence: the passages the agent returned; one never shown is not evidence
    ev = [Evidence("A#0", "A", "The tower is in Paris."), Evidence("B#0", "B", "Built in 1889.")]
    assert compute_reward(_answer(seen, ["A", "B"], ev), _task(), beta=2.0).answer_found == 1.0
    forged = [Evidence("A#7", "A", "The tower is in Paris.")]  # never shown: its text is the model's claim
    assert returned_passages(_answer(seen, ["A"], forged)) == []
    assert compute_reward(_answer(seen, ["A"], forged), _task(), beta=2.0).answer_found == 0.0
