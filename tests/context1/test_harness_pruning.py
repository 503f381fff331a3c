"""Pruning changes what the model sees, never what was recorded (DESIGN principle 2)."""

from __future__ import annotations

from context1 import AgentConfig, Episode, SearchAgent, replay_messages
from context1.backends.scripted import ScriptedBackend, call, turn
from context1.prompts import render_pruned

QUERY = "Who designed the lighthouse of Korrin Bay?"


def visible_text(ep: Episode) -> str:
    return "\n".join(m.content for m in ep.messages())


def test_pruning_removes_from_view_but_not_from_the_record(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig())
    [search] = ep.act(turn(call("search_corpus", query="lighthouse")))
    victim = search.chunk_ids[1]
    victim_text = harness_corpus.chunk(victim).text
    before = ep.tokens_used
    [obs] = ep.act(turn(call("prune_chunks", chunk_ids=[victim])))
    assert not obs.is_error and f"Pruned 1 chunk(s): {victim}." in obs.text
    assert obs.metadata["pruned"] == [victim]
    # the view: the chunk is replaced by the marker, the other chunks stay, and the context shrank
    view = visible_text(ep)
    assert render_pruned(victim) in view and victim_text not in view
    for other in search.chunk_ids:
        if other != victim:
            assert harness_corpus.chunk(other).text in view
    assert ep.tokens_used < before
    assert victim not in ep.visible_chunk_ids() and search.chunk_ids[0] in ep.visible_chunk_ids()
    # the record: the observation's full text, the ids shown, and when the chunk was pruned
    traj = ep.trajectory
    assert victim_text in traj.steps[0].observations[0].text
    assert traj.steps[0].observations[0].chunk_ids == search.chunk_ids
    assert traj.steps[1].pruned == (victim,)
    assert traj.pruned_chunk_ids() == [victim]
    assert victim in traj.seen_chunk_ids() and harness_corpus.chunk(victim).doc_id in traj.seen_doc_ids()


def test_pruned_chunks_stay_excluded_from_search(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig())
    [search] = ep.act(turn(call("search_corpus", query="lighthouse")))
    ep.act(turn(call("prune_chunks", chunk_ids=list(search.chunk_ids))))
    [again] = ep.act(turn(call("search_corpus", query="lighthouse")))
    assert not set(again.chunk_ids) & set(search.chunk_ids)


def test_prune_reports_invalid_and_already_pruned_ids_and_prunes_the_valid_ones(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig())
    [search] = ep.act(turn(call("search_corpus", query="lighthouse")))
    a, b = search.chunk_ids[:2]
    ep.act(turn(call("prune_chunks", chunk_ids=[a])))
    [obs] = ep.act(turn(call("prune_chunks", chunk_ids=[a, b, "veldhaven#0", "made-up#9"])))
    assert obs.is_error and obs.text.startswith("Error: ")
    assert "veldhaven#0, made-up#9" in obs.text and f"Pruned 1 chunk(s): {b}." in obs.text
    assert f"Already pruned: {a}." in obs.text
    assert obs.metadata["invalid_ids"] == ["veldhaven#0", "made-up#9"]
    assert ep.trajectory.steps[-1].pruned == (b,)
    assert ep.trajectory.pruned_chunk_ids() == [a, b]


def test_read_after_prune_shows_the_chunk_again_in_the_new_message_only(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig())
    [search] = ep.act(turn(call("search_corpus", query="Korrin Bay lighthouse")))
    victim = next(c for c in search.chunk_ids if c.startswith("korrin-bay#"))
    ep.act(turn(call("prune_chunks", chunk_ids=[victim])))
    [read] = ep.act(turn(call("read_document", doc_id="korrin-bay")))
    assert victim in read.chunk_ids
    msgs = ep.messages()
    assert render_pruned(victim) in msgs[3].content  # the search result, still pruned
    assert harness_corpus.chunk(victim).text in msgs[-1].content  # the read, visible
    assert victim in ep.visible_chunk_ids()
    [again] = ep.act(turn(call("prune_chunks", chunk_ids=[victim])))
    assert not again.is_error and render_pruned(victim) in ep.messages()[-3].content


def test_prune_in_the_same_turn_as_the_search_that_showed_it(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig())
    [search] = ep.act(turn(call("search_corpus", query="lighthouse")))
    [grep, prune] = ep.act(turn(call("grep_corpus", pattern="(?i)harbour|ferry"),
                                call("prune_chunks", chunk_ids=[search.chunk_ids[0]])))
    assert grep.chunk_ids and not prune.is_error
    grep_then_prune = ep.trajectory.steps[-1]
    assert grep_then_prune.pruned == (search.chunk_ids[0],)


class Recorder:
    """A backend without `with_seed`, so the agent uses this very object and we can read its requests."""

    def __init__(self, items):
        self._inner = ScriptedBackend(items)
        self.name = "recorder"
        self.requests = self._inner.requests

    def generate(self, messages, tools):
        return self._inner.generate(messages, tools)

    def count_tokens(self, text):
        return self._inner.count_tokens(text)


def test_replay_rebuilds_exactly_what_the_model_saw_at_every_step(harness_corpus):
    def prune_two(messages):
        ids = [line.split('"')[1] for line in messages[3].content.splitlines() if line.startswith("<chunk id=")]
        return turn(call("prune_chunks", chunk_ids=ids[:2]), call("read_document", doc_id="korrin-bay"))

    backend = Recorder([
        turn(call("search_corpus", query="lighthouse"), call("grep_corpus", pattern="(?i)quell")),
        prune_two,
        turn(call("prune_chunks", chunk_ids=["korrin-bay#0", "tobias-quell#0"]), call("search_corpus", query="bay")),
        "<Document id=tobias-quell><Justification>Designed it.</Justification></Document>",
    ])
    result = SearchAgent(harness_corpus, backend, AgentConfig(training_hints=True)).run(QUERY)
    traj = result.trajectory
    assert len(backend.requests) == len(traj.steps) == 4
    for i, (messages, _tools) in enumerate(backend.requests):
        assert replay_messages(traj, i) == messages
    assert len(traj.pruned_chunk_ids()) >= 3
    # and after the last step: the final context, answer included
    final = replay_messages(traj)
    assert final[-1].content == traj.steps[-1].turn.text and len(final) == len(backend.requests[-1][0]) + 1
