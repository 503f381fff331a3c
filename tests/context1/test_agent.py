"""`SearchAgent`: run, stream, k× rollouts fused with RRF, backend failures, the default policy."""

from __future__ import annotations

import pytest

from context1 import (
    AgentConfig,
    BackendError,
    FinalEvent,
    ModelTurn,
    ModelTurnEvent,
    ObservationEvent,
    PruneEvent,
    RolloutEndEvent,
    SearchAgent,
    SearchResult,
    StopReason,
    ToolCallEvent,
    UsageEvent,
)
from context1.backends.scripted import ScriptedBackend, call, turn
from corpus_tools import reciprocal_rank_fusion

QUERY = "Who designed the lighthouse of Korrin Bay?"


def answer(*docs: str) -> str:
    return "\n".join(f"<Document id={d}><Justification>about {d} (rollout)</Justification></Document>" for d in docs)


def three_turns() -> list:
    return [
        turn(call("search_corpus", query="lighthouse"), call("grep_corpus", pattern="(?i)quell")),
        turn(call("prune_chunks", chunk_ids=["grey-sea#0"]), text="Pruning the sea."),
        answer("tobias-quell", "korrin-bay"),
    ]


def test_run_returns_ranked_documents_trajectory_usage_and_timings(harness_corpus):
    result = SearchAgent(harness_corpus, ScriptedBackend(three_turns())).run(QUERY)
    assert isinstance(result, SearchResult)
    assert result.doc_ids == ["tobias-quell", "korrin-bay"]
    assert result.documents[0].justification == "about tobias-quell (rollout)"
    assert result.stop_reason is StopReason.ANSWERED and result.trajectory.error is None
    assert result.rollouts == [result.trajectory]
    u = result.usage
    assert (u.turns, u.tool_calls) == (3, 3)
    assert u.context_tokens == result.trajectory.steps[-1].tokens_used > 0
    assert set(result.timings) == {"total_s", "model_s", "corpus_s", "harness_s", "harness_cpu_s"}
    assert result.timings["total_s"] >= result.timings["corpus_s"] > 0
    meta = result.trajectory.metadata
    assert meta["backend"] == "scripted" and meta["rollout"] == 0 and meta["config"]["token_budget"] == 32_768
    assert len(meta["step_timings"]) == 3


def test_stream_event_order(harness_corpus):
    events = list(SearchAgent(harness_corpus, ScriptedBackend(three_turns())).stream(QUERY))
    kinds = [type(e).__name__ for e in events]
    assert kinds == [
        "ModelTurnEvent", "ToolCallEvent", "ToolCallEvent", "ObservationEvent", "ObservationEvent", "UsageEvent",
        "ModelTurnEvent", "ToolCallEvent", "ObservationEvent", "PruneEvent", "UsageEvent",
        "ModelTurnEvent",
        "RolloutEndEvent", "FinalEvent",
    ]
    assert [e.step for e in events if isinstance(e, ModelTurnEvent)] == [0, 1, 2]
    calls = [e.call for e in events if isinstance(e, ToolCallEvent)]
    observations = [e.observation for e in events if isinstance(e, ObservationEvent)]
    assert [c.id for c in calls] == [o.call_id for o in observations] and all(c.id for c in calls)
    assert next(e for e in events if isinstance(e, PruneEvent)).chunk_ids == ("grey-sea#0",)
    usage = [e for e in events if isinstance(e, UsageEvent)]
    final = events[-1].result
    assert [u.tokens_used for u in usage] == [s.tokens_used for s in final.trajectory.steps[:2]]
    assert isinstance(events[-2], RolloutEndEvent) and events[-2].stop_reason is StopReason.ANSWERED
    # streaming and running take the same path: same documents, same recorded observations
    again = SearchAgent(harness_corpus, ScriptedBackend(three_turns())).run(QUERY)
    assert again.documents == final.documents
    assert [[o.text for o in s.observations] for s in again.trajectory.steps] == [
        [o.text for o in s.observations] for s in final.trajectory.steps
    ]


def test_backend_error_keeps_the_partial_trajectory(harness_corpus):
    class Flaky:
        name = "flaky"

        def __init__(self):
            self.calls = 0

        def count_tokens(self, text):
            return len(text.split())

        def generate(self, messages, tools):
            self.calls += 1
            if self.calls == 1:
                return turn(call("search_corpus", query="lighthouse"))
            raise BackendError("server went away (after 3 retries)")

    result = SearchAgent(harness_corpus, Flaky()).run(QUERY)
    traj = result.trajectory
    assert result.stop_reason is StopReason.BACKEND_ERROR
    assert traj.error == "BackendError: server went away (after 3 retries)"
    assert len(traj.steps) == 1 and traj.steps[0].observations[0].chunk_ids
    assert result.documents and traj.metadata["answer_fallback"] is True  # from the chunks in view
    # the same through streaming: the rollout-end event carries the error
    events = list(SearchAgent(harness_corpus, Flaky()).stream(QUERY))
    end = next(e for e in events if isinstance(e, RolloutEndEvent))
    assert end.stop_reason is StopReason.BACKEND_ERROR and "server went away" in end.error


def test_exhausted_script_is_a_backend_error(harness_corpus):
    result = SearchAgent(harness_corpus, ScriptedBackend([turn(call("search_corpus", query="x"))])).run(QUERY)
    assert result.stop_reason is StopReason.BACKEND_ERROR and "turn 2 was asked for" in result.trajectory.error


def test_other_backend_exceptions_propagate(harness_corpus):
    class Broken:
        name = "broken"

        def count_tokens(self, text):
            return 1

        def generate(self, messages, tools):
            raise ZeroDivisionError("a bug")

    with pytest.raises(ZeroDivisionError):
        SearchAgent(harness_corpus, Broken()).run(QUERY)


def test_max_turns_through_the_agent(harness_corpus):
    looping = ScriptedBackend([lambda m, i=i: turn(call("search_corpus", query=f"query {i}")) for i in range(10)])
    result = SearchAgent(harness_corpus, looping, AgentConfig(max_turns=3)).run(QUERY)
    assert result.stop_reason is StopReason.MAX_TURNS and len(result.trajectory.steps) == 3
    assert result.documents and result.trajectory.metadata["answer_fallback"] is True


class PerSeed:
    """A 'sampling' backend: each seed replays its own script (what with_seed is for)."""

    name = "per-seed"

    def __init__(self, scripts):
        self.scripts = scripts
        self.seeds = []

    def with_seed(self, seed):
        self.seeds.append(seed)
        return ScriptedBackend(self.scripts[seed % len(self.scripts)], name=f"per-seed-{seed}")

    def count_tokens(self, text):
        return len(text) // 4 + 1

    def generate(self, messages, tools):
        raise AssertionError("k× mode must use the seeded copies")


def test_k_rollouts_are_fused_with_rrf(harness_corpus):
    rankings = [
        ["tobias-quell", "korrin-bay", "grey-sea"],
        ["korrin-bay", "tobias-quell"],
        ["korrin-bay", "pellis", "tobias-quell"],
    ]
    scripts = [[turn(call("search_corpus", query="lighthouse")), answer(*r)] for r in rankings]
    scripts[1][1] = scripts[1][1].replace("about korrin-bay (rollout)", "korrin-bay, best-ranked in rollout 1")
    # only what a rollout was shown can be returned: the third one also searches for pellis
    scripts[2][0] = turn(call("search_corpus", query="lighthouse"), call("search_corpus", query="Pellis"))
    backend = PerSeed(scripts)
    result = SearchAgent(harness_corpus, backend, AgentConfig(seed=0)).run(QUERY, rollouts=3)
    assert sorted(backend.seeds) == [0, 1, 2]
    assert len(result.rollouts) == 3 and result.trajectory is result.rollouts[0]
    assert [t.metadata["seed"] for t in result.rollouts] == [0, 1, 2]
    assert [[d.doc_id for d in t.documents] for t in result.rollouts] == rankings
    expected = reciprocal_rank_fusion(rankings, k=60)
    assert [(d.doc_id, d.score) for d in result.documents] == [(i, pytest.approx(s)) for i, s in expected]
    assert result.doc_ids[0] == "korrin-bay"
    # justification from the best-ranked occurrence (rank 1 in rollout 1, the earliest such rollout)
    assert result.documents[0].justification == "korrin-bay, best-ranked in rollout 1"
    assert result.usage.turns == 6 and result.usage.tool_calls == 4
    # the passages are fused the same way, by chunk id
    fused = reciprocal_rank_fusion([[e.chunk_id for e in t.evidence] for t in result.rollouts], k=60)
    assert [(e.chunk_id, e.score) for e in result.evidence] == [(c, pytest.approx(s)) for c, s in fused[:5]]


def test_k_rollouts_stream_interleaves_tagged_events(harness_corpus):
    scripts = [[turn(call("search_corpus", query="lighthouse")), answer("korrin-bay")]]
    agent = SearchAgent(harness_corpus, PerSeed(scripts), AgentConfig(rollouts=2))
    events = list(agent.stream(QUERY))
    assert isinstance(events[-1], FinalEvent) and sum(isinstance(e, FinalEvent) for e in events) == 1
    ends = [e for e in events if isinstance(e, RolloutEndEvent)]
    assert sorted(e.rollout for e in ends) == [0, 1]
    for r in (0, 1):
        mine = [type(e).__name__ for e in events if getattr(e, "rollout", None) == r]
        assert mine == ["ModelTurnEvent", "ToolCallEvent", "ObservationEvent", "UsageEvent", "ModelTurnEvent",
                        "RolloutEndEvent"]


def test_a_backend_error_in_one_rollout_does_not_sink_the_others(harness_corpus):
    scripts = [[turn(call("search_corpus", query="lighthouse")), answer("korrin-bay")], [turn(text="")][:0]]
    result = SearchAgent(harness_corpus, PerSeed(scripts)).run(QUERY, rollouts=2)
    reasons = [t.stop_reason for t in result.rollouts]
    assert reasons == [StopReason.ANSWERED, StopReason.BACKEND_ERROR]
    assert result.doc_ids[0] == "korrin-bay"


def test_stopping_the_stream_early_cancels_the_rollout(harness_corpus):
    agent = SearchAgent(harness_corpus, ScriptedBackend(three_turns()))
    stream = agent.stream(QUERY)
    first = next(stream)
    assert isinstance(first, ModelTurnEvent)
    stream.close()  # the consumer walks away; nothing hangs, nothing raises


def test_rollouts_and_query_are_validated(harness_corpus):
    agent = SearchAgent(harness_corpus, ScriptedBackend([]))
    with pytest.raises(ValueError, match="rollouts"):
        agent.run(QUERY, rollouts=0)
    with pytest.raises(ValueError, match="the query is empty"):
        agent.run("   ")
    with pytest.raises(ValueError, match="Backend"):
        SearchAgent(harness_corpus, object())


def test_episode_can_be_stepped_by_hand(harness_corpus):
    backend = ScriptedBackend(three_turns())
    agent = SearchAgent(harness_corpus, backend)
    ep = agent.episode(QUERY)
    assert ep.messages()[1].content == QUERY and len(ep.tool_schemas) == 4
    while not ep.done:
        ep.act(backend.generate(ep.messages(), ep.tool_schemas))
    assert [d.doc_id for d in ep.trajectory.documents] == ["tobias-quell", "korrin-bay"]
    assert ep.stop_reason is StopReason.ANSWERED


def test_default_backend_is_the_llm_free_policy(harness_corpus):
    agent = SearchAgent(harness_corpus)
    assert agent.backend.name == "iterative"
    result = agent.run("Who designed the lighthouse of the fishing village where Ilsa Marrow was born?")
    assert result.stop_reason is StopReason.ANSWERED and result.documents
    assert {"korrin-bay", "tobias-quell"} & set(result.doc_ids[:5])


def test_a_turn_with_only_text_is_the_answer_even_with_finish_reason_length(harness_corpus):
    backend = ScriptedBackend([turn(call("search_corpus", query="Veldhaven")),
                               ModelTurn(text="<Document id=veldhaven><Justification>cut off", finish_reason="length")])
    result = SearchAgent(harness_corpus, backend).run(QUERY)
    assert result.stop_reason is StopReason.ANSWERED and result.doc_ids == ["veldhaven"]
    assert [e.doc_id for e in result.evidence] == ["veldhaven"]
