"""Issue 35's question constraints on the surfaces: `context1 search --constraints`, HTTP /search and the Client."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
import typer
from serve_helpers import live_server
from typer.testing import CliRunner

from context1 import Client
from context1.interfaces import cli_corpus
from context1.interfaces.server import create_app
from corpus_tools import Corpus, CorpusConfig

FILINGS = Path(__file__).resolve().parents[1] / "fixtures" / "filings_meta" / "filings.jsonl"
QUESTION = "What was the gross margin for Northgate in the latest 10-Q report?"


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("indexes") / "filings"
    config = CorpusConfig(embedding_cache=str(tmp_path_factory.mktemp("embedding-cache")))
    Corpus.build(FILINGS, path, config=config, progress=False).close()
    return path


@pytest.fixture(scope="module")
def filings(index):
    with Corpus.open(index) as corpus:
        yield corpus


def test_cli_search_takes_constraints(index, tmp_path):
    app = typer.Typer(pretty_exceptions_enable=False)
    cli_corpus.register(app)
    runner = CliRunner(env={"COLUMNS": "200", "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path / "home")})
    shown = runner.invoke(app, ["search", str(index), QUESTION, "--constraints", "auto", "-k", "3"])
    assert shown.exit_code == 0, shown.output
    assert "constraints: company Northgate Retail, Inc.; period_end 2023-09-30; form 10-Q" in shown.output
    as_json = runner.invoke(app, ["search", str(index), QUESTION, "--constraints", "auto", "-k", "1", "--json"])
    assert as_json.exit_code == 0 and '"ngr-fy2023-q3#0"' in as_json.output
    explicit = runner.invoke(app, ["search", str(index), "gross margin", "-k", "1", "--json",
                                   "--constraints", '{"ticker": ["VNTR"], "period_end": ["2023-07-30"]}'])
    assert explicit.exit_code == 0 and '"vntr-fy2024-q2#0"' in explicit.output
    # "Q3 2023" for a January fiscal year: fiscal Q3 2023 (Oct 2022) and calendar Q3 2023 (Oct 2023) both rank
    # first; the one two readings agree on is said.
    read_two_ways = runner.invoke(app, ["search", str(index), "For Q3 2023, what was Vantor's gross margin?",
                                        "--constraints", "auto", "-k", "2"])
    assert read_two_ways.exit_code == 0, read_two_ways.output
    assert "period_end 2022-10-30, 2023-10-29; preferring period_end 2023-10-29" in read_two_ways.output
    unheld = runner.invoke(app, ["search", str(index), "Tesla's gross margin in Q3 2023", "--constraints", "auto"])
    assert unheld.exit_code == 0 and "not in this index: Tesla" in unheld.output
    bad = runner.invoke(app, ["search", str(index), "gross margin", "--constraints", "{not json"])
    assert bad.exit_code == 2 and "--constraints takes 'auto' or JSON" in bad.output
    unknown = runner.invoke(app, ["search", str(index), "gross margin", "--constraints", '{"sector": ["tech"]}'])
    assert unknown.exit_code == 2 and "unknown constraint 'sector'" in unknown.output


def test_http_and_the_client_take_constraints_as_python_does(filings):
    local = [h.chunk.chunk_id for h in filings.search(QUESTION, k=4, constraints="auto")]
    assert local[0] == "ngr-fy2023-q3#0"
    wanted = {"company": ["Vantor Graphics Corporation"], "period_end": ["2023-10-29"]}
    with live_server(create_app(filings)) as url, Client(url, timeout=60) as client:
        assert [h.chunk.chunk_id for h in client.search(QUESTION, k=4, constraints="auto")] == local
        assert client.search("gross margin", k=1, constraints=wanted)[0].chunk.doc_id == "vntr-fy2024-q3"
        raw = httpx.post(f"{url}/search", json={"query": QUESTION, "k": 4, "constraints": "auto"}).json()
        assert [h["chunk"]["chunk_id"] for h in raw["hits"]] == local
        bad = httpx.post(f"{url}/search", json={"query": QUESTION, "constraints": {"sector": ["tech"]}})
        assert bad.status_code == 400 and "unknown constraint" in bad.text
        assert httpx.post(f"{url}/search", json={"query": QUESTION, "constraints": "on"}).status_code == 422
        with pytest.raises(ValueError, match="unknown constraint"):
            client.search(QUESTION, constraints={"sector": ["tech"]})
