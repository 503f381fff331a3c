"""`context1 ask`: live trace, ranked passages, --json, trajectories, and clean failures."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from context1 import load_trajectories
from context1.interfaces import cli_ask

QUERY = "Who designed the lighthouse of Korrin Bay?"


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:  # a group, so the command is invoked as `ask`
        """context1 (test)."""

    cli_ask.register(app)
    return app


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "script.jsonl"
    turns = [
        {"tool_calls": [{"name": "search_corpus", "arguments": {"query": "lighthouse"}},
                        {"name": "grep_corpus", "arguments": {"pattern": "(?i)quell"}}]},
        {"text": "Pruning.", "tool_calls": [{"name": "prune_chunks", "arguments": {"chunk_ids": ["grey-sea#0"]}},
                                            {"name": "read_document", "raw_arguments": '{"doc_id": '}]},
        {"text": "<Document id=tobias-quell><Justification>Designed the lighthouse.</Justification></Document>"},
    ]
    path.write_text("\n".join(json.dumps(t) for t in turns) + "\n", encoding="utf-8")
    return path


def run(app, *args):
    return CliRunner().invoke(app, ["ask", *map(str, args)], env={"COLUMNS": "200"})


def test_ask_prints_a_live_trace_and_the_ranked_passages(app, harness_corpus, script, tmp_path):
    saved = tmp_path / "traj.jsonl"
    res = run(app, harness_corpus.path, QUERY, "--backend", "scripted", "--script", script, "--save-trajectories", saved)
    assert res.exit_code == 0, res.output
    out = res.output
    for expected in ("turn 1", "→ search_corpus", "→ grep_corpus", "chunk(s) from", "[Token usage:", "turn 2",
                     "✂ pruned 1: grey-sea#0", "Error: could not parse", "ended: answered after 3 turn(s)",
                     f"1 passage(s) for {QUERY}", "1. Tobias Quell", "passage tobias-quell#", "why: Found by",
                     "documents: tobias-quell"):
        assert expected in out, expected
    assert out.index("turn 1") < out.index("turn 2") < out.index("1 passage(s)")
    # the passage as a person reads it: the question's words marked (« » off a terminal), no markup or escapes
    answer = out[out.index("1 passage(s)"):]
    assert "«designed» «lighthouses»" in answer  # "lighthouse" holds in "lighthouses"
    assert "<Document" not in answer and "<chunk" not in answer and "\\u" not in answer
    [traj] = load_trajectories(saved)
    assert traj.query == QUERY and len(traj.steps) == 3


def test_ask_json(app, harness_corpus, script):
    res = run(app, harness_corpus.path, QUERY, "--backend", "scripted", "--script", script, "--json", "--budget", "8192")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["documents"] == [{"rank": 1, "doc_id": "tobias-quell", "title": "Tobias Quell", "score": 1.0,
                                  "justification": "Designed the lighthouse."}]
    assert data["stop_reason"] == "answered" and data["usage"]["turns"] == 3 and data["usage"]["tool_calls"] == 4
    assert data["rollouts"] == [{"stop_reason": "answered", "turns": 3, "error": None, "answer_fallback": False,
                                 "answer_unseen_ids": []}]
    [passage] = data["passages"]
    assert passage["rank"] == 1 and passage["doc_id"] == "tobias-quell" and passage["chunk_id"].startswith("tobias-quell#")
    assert passage["text"] == harness_corpus.chunk(passage["chunk_id"]).text and passage["reason"].startswith("Found by")


def test_ask_k_rollouts_with_the_default_policy(app, harness_corpus):
    res = run(app, harness_corpus.path, QUERY, "--rollouts", "2", "--max-turns", "4", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert len(data["rollouts"]) == 2 and data["documents"]


def test_ask_backend_error_exits_1_with_the_partial_result(app, harness_corpus, tmp_path):
    path = tmp_path / "short.jsonl"
    path.write_text(json.dumps({"tool_calls": [{"name": "search_corpus", "arguments": {"query": "x"}}]}) + "\n")
    res = run(app, harness_corpus.path, QUERY, "--backend", "scripted", "--script", path)
    assert res.exit_code == 1
    assert "backend_error" in res.output and "passage(s)" in res.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--backend", "nope"], "unknown backend 'nope'"),
        (["--backend", "scripted"], "needs --script"),
        (["--backend", "openai"], "needs base_url"),
        (["--hard-cutoff", "0.2"], "between 0.5 and 1.0"),
        (["--model", "x"], "do not apply to the iterative"),
    ],
)
def test_ask_bad_options_exit_2(app, harness_corpus, args, message):
    res = run(app, harness_corpus.path, QUERY, *args)
    assert res.exit_code == 2 and message in res.output


def test_ask_missing_index_and_empty_query(app, tmp_path, harness_corpus):
    res = run(app, tmp_path / "nothing", QUERY)
    assert res.exit_code == 2 and "no index at" in res.output
    res = run(app, harness_corpus.path, "  ")
    assert res.exit_code == 2 and "the query is empty" in res.output


def test_ask_says_what_it_dropped_and_what_the_index_lacks(app, harness_corpus, tmp_path, monkeypatch):
    """An answer citing an id it never saw: dropped, and the output says so; a question naming what the
    index does not hold (issue 35's `unmatched`): the output says so before the passages."""
    path = tmp_path / "script.jsonl"
    turns = [{"tool_calls": [{"name": "search_corpus", "arguments": {"query": "lighthouse"}}]},
             {"text": "<Passage id=atlantis#4></Passage><Document id=tobias-quell></Document>"}]
    path.write_text("\n".join(json.dumps(t) for t in turns) + "\n", encoding="utf-8")
    from corpus_tools import Corpus

    monkeypatch.setattr(Corpus, "question_constraints", lambda self, q: {"unmatched": ["Microsoft"]}, raising=False)
    monkeypatch.setattr(Corpus, "search", _ignoring_constraints(Corpus.search))
    res = run(app, harness_corpus.path, QUERY, "--backend", "scripted", "--script", path)
    assert res.exit_code == 0, res.output
    assert "the answer cited 1 id(s) the agent was never shown, dropped: atlantis#4" in res.output
    assert "the index holds nothing about Microsoft" in res.output
    assert res.output.index("holds nothing about") < res.output.index("1 passage(s)")


def _ignoring_constraints(search):
    def wrapped(self, query, k=10, exclude=(), constraints=None, **kw):
        return search(self, query, k=k, exclude=exclude, **kw)
    return wrapped


def test_the_trace_shows_a_calls_arguments_without_json_escapes():
    """A policy that writes ASCII-escaped JSON ("Company\\u2019s") is traced as a person reads it; an
    argument text that is not JSON is shown as the model wrote it."""
    import io

    from rich.console import Console

    from context1.events import ToolCallEvent
    from context1.interfaces.cli_ask import print_event
    from context1.types import ToolCall

    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    escaped = ToolCall(id="c1", name="search_corpus", arguments={"query": "Company’s margin"},
                       raw_arguments='{"query": "Company\\u2019s margin"}')
    print_event(console, ToolCallEvent(step=0, call=escaped), tag_rollout=False)
    broken = ToolCall(id="c2", name="search_corpus", arguments={}, raw_arguments='{"query": "unclosed')
    print_event(console, ToolCallEvent(step=0, call=broken), tag_rollout=False)
    text = out.getvalue()
    assert 'search_corpus({"query": "Company’s margin"})' in text
    assert "\\u2019" not in text
    assert '{"query": "unclosed' in text


def test_a_passage_reads_as_one_indented_block_without_trailing_spaces(app, harness_corpus, script):
    """On a narrow terminal every wrapped line of a passage (title, source, excerpt, why) stays under its
    number, three spaces in, and no line is padded out with spaces (rich's Padding did both wrong)."""
    res = CliRunner().invoke(app, ["ask", str(harness_corpus.path), QUERY, "--backend", "scripted", "--script",
                                   str(script)], env={"COLUMNS": "60"})
    assert res.exit_code == 0, res.output
    answer = res.output[res.output.index("1 passage(s)"):]
    lines = answer.splitlines()
    assert all(line == line.rstrip() for line in lines), [line for line in lines if line != line.rstrip()]
    assert all(len(line) <= 60 for line in lines)
    passage = lines[next(i for i, x in enumerate(lines) if x.startswith("1. ")) + 1:]
    passage = passage[:next(i for i, x in enumerate(passage) if x.startswith("documents:")) - 1]
    why = next(i for i, x in enumerate(passage) if x.startswith("   why: "))
    assert why < len(passage) - 1, "the reason is long enough to wrap at 60 columns"
    assert all(x.startswith("   ") and not x.startswith("    ") for x in passage[why:]), passage[why:]
    assert all(x.startswith("   ") for x in passage if x), passage


@pytest.mark.parametrize("section, title, expected", [
    ("Grid search (video #8) > Review of tuning", "Grid search (video #8)", "Review of tuning"),
    ("Grid search (video #8)", "grid search (video #8)", ""),
    ("Results > Grid search", "Grid search", "Results > Grid search"),  # the title deeper down is the page's own
    (None, "Grid search", ""),
    ("Part II > Revenue", "Quarterly report", "Part II > Revenue"),
])
def test_a_passage_names_its_section_without_repeating_the_title(section, title, expected):
    from context1.interfaces.excerpt import section_below_title

    assert section_below_title(section, title) == expected
