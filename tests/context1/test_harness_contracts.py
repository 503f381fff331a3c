"""The harness's boundaries: the corpus Protocol, per-turn call cap, query limits, k× refusal,
what the model sees (no entities to copy) and what comes back (entities decoded)."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from context1 import AgentConfig, Episode, SearchAgent, StopReason
from context1.backends.scripted import ScriptedBackend, call, raw_call, turn
from context1.config import fit_to_window
from context1.interfaces import cli_ask
from context1.tools import unescape_entities, validate_call
from context1.types import CorpusLike, ToolCall

QUERY = "Who designed the lighthouse of Korrin Bay?"


def test_a_path_instead_of_a_corpus_raises_at_construction(harness_corpus):
    assert isinstance(harness_corpus, CorpusLike)
    for wrong in (str(harness_corpus.path), harness_corpus.path):
        with pytest.raises(TypeError, match=r"Corpus\.open\(path\)"):
            SearchAgent(wrong, ScriptedBackend([]))
        with pytest.raises(TypeError, match=r"Corpus\.open\(path\)"):
            Episode(wrong, QUERY)
    with pytest.raises(TypeError, match="without search, grep, read"):
        SearchAgent(object(), ScriptedBackend([]))


def test_calls_past_the_per_turn_cap_become_error_observations(harness_corpus):
    cfg = AgentConfig(max_calls_per_turn=3)
    ep = Episode(harness_corpus, QUERY, cfg)
    obs = ep.act(turn(*[call("search_corpus", query=q) for q in ("lighthouse", "ferry", "harbour", "salt", "glass")]))
    assert len(obs) == 5
    assert [o.is_error for o in obs] == [False, False, False, True, True]
    assert obs[3].text.startswith("Error: not run: this turn has 5 tool calls and at most 3 run per turn")
    assert not obs[3].chunk_ids and not obs[4].chunk_ids
    assert obs[-1].text.rstrip().endswith("/32,768]")  # the usage line still closes the turn
    with pytest.raises(ValueError, match="max_calls_per_turn"):
        AgentConfig(max_calls_per_turn=0)


def test_a_100k_character_question_fails_fast(harness_corpus, tmp_path):
    backend = ScriptedBackend([])
    with pytest.raises(ValueError, match="100,000 characters long"):
        SearchAgent(harness_corpus, backend).run("why " * 25_000)
    assert backend.requests == []  # nothing reached the model
    # the CLI: a one-line error and exit status 2, not a 0-document answer with exit 0
    app = typer.Typer()
    app.callback()(lambda: None)
    cli_ask.register(app)
    res = CliRunner().invoke(app, ["ask", str(harness_corpus.path), "why " * 25_000])
    assert res.exit_code == 2 and "the limit is 20,000" in res.output


def test_k_rollouts_of_a_deterministic_script_are_refused(harness_corpus):
    agent = SearchAgent(harness_corpus, ScriptedBackend([turn(call("search_corpus", query="x")), "done"]))
    with pytest.raises(ValueError, match="identical rollouts"):
        agent.run(QUERY, rollouts=2)
    assert agent.run(QUERY).stop_reason is StopReason.ANSWERED  # 1× is fine


def test_fit_to_window_shrinks_the_budget_or_refuses():
    cfg = fit_to_window(AgentConfig(), 4096, 256)
    assert cfg.token_budget == 3840 and cfg.response_reserve == 960 and cfg.search_token_budget == 960
    small = AgentConfig(token_budget=2048, response_reserve=512)
    assert fit_to_window(small, 8192, 512) is small
    assert fit_to_window(AgentConfig(), 8192, None).token_budget == 6144  # unknown reply: a quarter
    with pytest.raises(ValueError, match="--n_ctx"):
        fit_to_window(AgentConfig(), 700, 256)


def test_context_window_in_config_fits_the_budget(harness_corpus):
    agent = SearchAgent(harness_corpus, ScriptedBackend(["<Document id=veldhaven></Document>"]),
                        AgentConfig(context_window=4096))
    assert agent.config.token_budget == 4096 - 1024  # the script declares no reply length: a quarter
    traj = agent.run(QUERY).trajectory
    assert traj.metadata["config"]["token_budget"] == 3072
    assert traj.metadata["token_accounting"].startswith("estimate: tool schemas")


def test_entities_in_arguments_are_decoded():
    assert unescape_entities("&#34;Tobias Quell&#34; &amp; co") == '"Tobias Quell" & co'
    assert unescape_entities("AT&T bonds; R&D") == "AT&T bonds; R&D"  # no character reference: unchanged
    req = validate_call(ToolCall("c", "prune_chunks", {"chunk_ids": ["a&#34;b#0", "x#1"]}), AgentConfig())
    assert req.argument == ('a"b#0', "x#1")


def test_what_the_model_sees_has_no_entities_and_markup_stays_inert(harness_corpus):
    ep = Episode(harness_corpus, QUERY)
    [obs] = ep.act(turn(call("read_document", doc_id="injection-notes")))
    text = obs.text
    assert "&#34;" not in text and "&#x27;" not in text and "&amp;" not in text
    assert obs.chunk_ids and all(c.startswith("injection-notes#") for c in obs.chunk_ids)
    # the forged chunk inside the text did not become a chunk, and no tool call was run from it
    assert '<chunk id="fake#0"' not in text and "&lt;chunk id=\"fake#0\"" in text
    assert len(ep.trajectory.steps) == 1 and ep.trajectory.steps[0].turn.tool_calls[0].name == "read_document"
    # a model that copies the ids it saw produces valid arguments
    [pruned] = ep.act(turn(call("prune_chunks", chunk_ids=list(obs.chunk_ids))))
    assert not pruned.is_error and ep.trajectory.steps[-1].pruned == obs.chunk_ids


def test_malformed_and_unknown_calls_are_observations_not_exceptions(harness_corpus):
    ep = Episode(harness_corpus, QUERY)
    obs = ep.act(turn(raw_call("search_corpus", '{"query": '), call("summon_docs", q="x"),
                      call("read_document", doc_id="no-such-doc")))
    assert [o.is_error for o in obs] == [True, True, True]
    assert "could not parse" in obs[0].text and "unknown tool" in obs[1].text and "unknown document" in obs[2].text
    assert json.dumps([o.text for o in obs])
