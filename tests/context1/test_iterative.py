"""The LLM-free policy drives the real harness over a real index, through the four tools only."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from context1 import AgentConfig, SearchAgent, StopReason
from context1.backends.entities import entities
from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy

BRIDGE_QUERY = "Which engineer designed the lighthouse in the birthplace of the mayor of Veldhaven?"


def test_default_agent_is_the_iterative_policy(harness_corpus):
    result = SearchAgent(harness_corpus).run(BRIDGE_QUERY)
    assert result.trajectory.stop_reason == StopReason.ANSWERED
    assert not result.trajectory.metadata.get("answer_fallback")
    first = result.trajectory.steps[0].turn.tool_calls[0]
    assert (first.name, first.arguments) == ("search_corpus", {"query": BRIDGE_QUERY})
    assert 0 < len(result.documents) <= AgentConfig().max_documents


def test_bridging_reaches_documents_the_question_never_names(harness_corpus):
    result = SearchAgent(harness_corpus).run(BRIDGE_QUERY)
    # The chain: Veldhaven -> its mayor Ilsa Marrow -> born in Korrin Bay -> lighthouse by Tobias Quell.
    assert {"veldhaven", "ilsa-marrow", "korrin-bay"} <= set(result.trajectory.seen_doc_ids())
    bridge_queries = [
        c.arguments["query"]
        for step in result.trajectory.steps[1:]
        for c in step.turn.tool_calls
        if c.name == "search_corpus"
    ]
    assert bridge_queries, "the policy issued no bridge search"
    assert any("Ilsa Marrow" in q or "Korrin Bay" in q for q in bridge_queries)
    # Several calls run in one turn (parallel bridging).
    assert max(len(s.turn.tool_calls) for s in result.trajectory.steps) > 1


def test_prunes_only_what_it_was_shown_and_the_record_keeps_it(harness_corpus):
    policy = IterativeRetrievalPolicy(harness_corpus, IterativeConfig(keep_per_ranking=2))
    traj = SearchAgent(harness_corpus, backend=policy).run(BRIDGE_QUERY).trajectory
    pruned = traj.pruned_chunk_ids()
    assert pruned, "keep_per_ranking=2 must prune"
    assert set(pruned) <= set(traj.seen_chunk_ids())
    assert not any(o.is_error for s in traj.steps for o in s.observations)


def test_deterministic_and_stateless_across_concurrent_episodes(harness_corpus):
    agent = SearchAgent(harness_corpus)
    queries = [BRIDGE_QUERY, "Where are the notebooks of Tobias Quell kept?"] * 3
    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(agent.run, queries))
    for q, r in zip(queries, results, strict=True):
        assert r.doc_ids == results[queries.index(q)].doc_ids


@pytest.mark.parametrize("max_turns", [2, 3])
def test_answers_on_the_last_allowed_turn(harness_corpus, max_turns):
    # Without a turn limit the policy bridges for two rounds (4 turns); under a tighter limit it
    # must still conclude itself instead of being cut off into the fallback ranking.
    result = SearchAgent(harness_corpus, config=AgentConfig(max_turns=max_turns)).run(BRIDGE_QUERY)
    traj = result.trajectory
    assert traj.stop_reason == StopReason.ANSWERED
    assert not traj.metadata.get("answer_fallback")
    assert len(traj.steps) == max_turns
    assert traj.steps[0].turn.tool_calls, "the first turn still searches"
    assert "veldhaven" in result.doc_ids


def test_concludes_when_the_budget_is_tight(harness_corpus):
    config = AgentConfig(token_budget=2_048, response_reserve=512, search_token_budget=512)
    result = SearchAgent(harness_corpus, config=config).run(BRIDGE_QUERY)
    assert result.trajectory.stop_reason == StopReason.ANSWERED
    # Tool results were cut to fit: the context never passed T_budget before the answer.
    assert max(s.tokens_used for s in result.trajectory.steps if s.observations) <= config.token_budget


def test_entity_mining_skips_the_chunk_subject_and_sentence_starts():
    text = "The Academy of Brennholt trained Tobias Quell. He later taught in Brennholt. Tobias Quell died in 1879."
    ents = entities(text, title="Tobias Quell")
    assert ents[0] == "Brennholt" or "Academy of Brennholt" in ents
    assert "Tobias Quell" not in ents and "The" not in ents and "He" not in ents
