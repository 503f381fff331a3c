"""A transcript's passages say where they are: `ask` prints a passage's start time and its speakers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from context1.evidence import passage_speakers
from context1.interfaces import cli_ask

TRANSCRIPTS = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"


@pytest.fixture(scope="module")
def meeting_index(tmp_path_factory) -> Path:
    from corpus_tools import Corpus, CorpusConfig

    path = tmp_path_factory.mktemp("transcripts") / "index"
    config = CorpusConfig(embedding_cache=str(tmp_path_factory.mktemp("transcript-cache")))
    Corpus.build(TRANSCRIPTS, path, config=config, progress=False).close()  # broken.vtt / empty.srt skipped
    return path


def _ask(index: Path, question: str, *extra: str):
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """context1 (test)."""

    cli_ask.register(app)
    return CliRunner().invoke(app, ["ask", str(index), question, *extra], env={"COLUMNS": "200"})


def test_ask_prints_a_transcript_passages_start_time_and_speakers(meeting_index):
    res = _ask(meeting_index, "What did Marco Bianchi say about the solar cell?")
    assert res.exit_code == 0, res.output
    answer = res.output[res.output.index("passage(s) for"):]
    assert "— 00:00:02 · Priya Shah, Marco Bianchi" in answer
    data = json.loads(_ask(meeting_index, "What did Marco Bianchi say about the solar cell?", "--json").output)
    first = next(p for p in data["passages"] if p["doc_id"] == "teams_meeting.vtt")
    assert first["section"] == "00:00:02" and first["speakers"] == ["Priya Shah", "Marco Bianchi"]


def test_a_passages_speakers_from_its_metadata_else_from_its_lines():
    assert passage_speakers("anything", "Ann Lee, Bo") == ("Ann Lee", "Bo")
    assert passage_speakers("to the budget.\nAnn: Yes.\nBo: No.") == ("Ann", "Bo")
    # a document with a stray label line names nobody; neither does prose
    assert passage_speakers("Revenue grew.\nIt was a good year.\nNote: unaudited.") == ()
    assert passage_speakers("One line of prose.") == ()
