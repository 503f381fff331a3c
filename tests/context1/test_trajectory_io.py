"""Trajectories to JSONL and back: exact round trips, pickling, and a file cut off mid-line."""

from __future__ import annotations

import dataclasses
import json
import pickle

import pytest

from context1 import (
    AgentConfig,
    ModelTurn,
    SearchAgent,
    Trajectory,
    TruncatedTrajectoryWarning,
    load_trajectories,
    replay_messages,
    save_trajectories,
    trajectory_from_dict,
    trajectory_to_dict,
)
from context1.backends.scripted import ScriptedBackend, call, raw_call, turn

QUERY = "Who designed the lighthouse of Korrin Bay?"


@pytest.fixture(scope="module")
def trajectories(harness_corpus) -> list[Trajectory]:
    """Two real trajectories with every kind of record: chunks, errors, prunes, parse errors, token ids."""
    sampled = ModelTurn(
        text="",
        tool_calls=(call("read_document", doc_id="korrin-bay"),),
        prompt_token_ids=(1, 2, 3),
        token_ids=(7, 8),
        logprobs=(-0.25, -1.5),
        prompt_tokens=3,
        completion_tokens=2,
        finish_reason="tool_calls",
        latency_s=0.125,
    )
    script = [
        turn(call("search_corpus", query="lighthouse"), raw_call("grep_corpus", '{"pattern": ')),
        turn(call("prune_chunks", chunk_ids=["grey-sea#0", "nope#1"]), call("web_search", q="x"), text="Hmm."),
        sampled,
        "<Document id=tobias-quell><Justification>Designed it — “quoted” ünïcode.</Justification></Document>",
    ]
    answered = SearchAgent(harness_corpus, ScriptedBackend(script), AgentConfig(training_hints=True)).run(QUERY)
    failed = SearchAgent(harness_corpus, ScriptedBackend(script[:1])).run(QUERY)
    return [answered.trajectory, failed.trajectory]


def test_jsonl_round_trip_is_exact(trajectories, tmp_path):
    path = tmp_path / "runs" / "t.jsonl"
    assert save_trajectories(path, trajectories) == 2
    loaded = load_trajectories(path)
    assert loaded == trajectories
    first = loaded[0]
    assert isinstance(first.steps[0].observations, tuple) and isinstance(first.steps[2].turn.token_ids, tuple)
    assert first.steps[2].turn.logprobs == (-0.25, -1.5)
    assert first.steps[0].turn.tool_calls[1].parse_error is not None
    assert loaded[1].error and loaded[1].stop_reason.value == "backend_error"
    # what the model saw can be rebuilt from the loaded record
    for i in range(len(first.steps)):
        assert replay_messages(first, i) == replay_messages(trajectories[0], i)
    # one JSON object per line
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["schema"] == 1


def test_append_and_dict_round_trip(trajectories, tmp_path):
    path = tmp_path / "t.jsonl"
    save_trajectories(path, trajectories[:1])
    save_trajectories(path, trajectories[1:], append=True)
    assert load_trajectories(path) == trajectories
    assert trajectory_from_dict(json.loads(json.dumps(trajectory_to_dict(trajectories[0])))) == trajectories[0]


def test_trajectories_pickle(trajectories):
    assert pickle.loads(pickle.dumps(trajectories)) == trajectories


def test_truncated_last_line_is_reported_and_the_rest_kept(trajectories, tmp_path):
    path = tmp_path / "t.jsonl"
    save_trajectories(path, trajectories)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: len(text) - 200], encoding="utf-8")  # killed mid-write
    with pytest.warns(TruncatedTrajectoryWarning, match=r"t\.jsonl:2: the last line is truncated"):
        loaded = load_trajectories(path)
    assert loaded == trajectories[:1]


def test_a_broken_line_in_the_middle_is_an_error(trajectories, tmp_path):
    path = tmp_path / "t.jsonl"
    save_trajectories(path, trajectories)
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0][:50], lines[1]]) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"t\.jsonl:1: not a JSON trajectory line"):
        load_trajectories(path)


def test_unknown_schema_is_refused(trajectories):
    record = trajectory_to_dict(trajectories[0])
    record["schema"] = 99
    with pytest.raises(ValueError, match="schema 99"):
        trajectory_from_dict(record)


def test_recorded_values_are_plain_json(trajectories):
    """Everything the harness records survives json without a custom encoder (so round trips are exact)."""
    for t in trajectories:
        json.dumps(t.metadata)
        for step in t.steps:
            for obs in step.observations:
                json.dumps(dict(obs.metadata))
        assert dataclasses.replace(t) == t
