"""`context1 index` then `context1 search` on a tiny folder, and the one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from context1.interfaces import cli_corpus

FIXTURE_DOCS = Path(__file__).resolve().parents[1] / "fixtures" / "loaders" / "docs"


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    # The default embedding cache lives under ~/.cache: keep the tests' cache in a temp HOME.
    return tmp_path_factory.mktemp("home")


@pytest.fixture(scope="module")
def runner(home) -> CliRunner:
    # A wide terminal so table cells are not folded.
    return CliRunner(env={"COLUMNS": "220", "HF_HUB_OFFLINE": "1", "HOME": str(home)})


@pytest.fixture(scope="module")
def built(corpus_cli, runner, home) -> tuple[Path, str]:
    """(index folder, output of `context1 index`) for the fixture docs, built once."""
    directory = home / "index"
    args = ["index", str(FIXTURE_DOCS), str(directory), "--chunk-tokens", "64", "--overlap", "8", "--no-progress"]
    result = runner.invoke(corpus_cli, args)
    assert result.exit_code == 0, result.output
    return directory, result.output


def _assert_one_line_error(result, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    message = " ".join(result.stderr.split())
    assert message.startswith("error:"), result.stderr
    for fragment in fragments:
        assert fragment in message


def test_index_prints_counts_and_what_was_skipped(built):
    directory, output = built
    assert (directory / "manifest.json").exists()
    assert "documents" in output and "chunks" in output and "time" in output
    assert "Skipped" in output
    for reason in ("binary file", "empty file", "unsupported file type", "hidden file"):
        assert reason in output
    assert "archive.txt" in output
    # Latin-1 text is indexed, and the guessed encoding is shown.
    assert "Indexed with notes" in output and "latin1.txt" in output and "decoded as" in output


def test_search_table_shows_the_best_chunk(corpus_cli, runner, built):
    directory, _ = built
    result = runner.invoke(corpus_cli, ["search", str(directory), "Which ancient wonder stood on the island of Pharos?"])
    assert result.exit_code == 0, result.output
    assert "lighthouse.html#0" in result.output
    for column in ("bm25", "dense", "fused", "text"):
        assert column in result.output


def test_search_json_is_machine_readable(corpus_cli, runner, built):
    directory, _ = built
    result = runner.invoke(corpus_cli, ["search", str(directory), "waggle dance of honeybees", "-k", "3", "--json"])
    assert result.exit_code == 0, result.output
    hits = json.loads(result.stdout)
    assert 1 <= len(hits) <= 3
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    top = hits[0]
    assert top["doc_id"] == "honeybees.md" and top["title"] == "Honeybee Navigation"
    assert top["chunk_id"].startswith("honeybees.md#") and "waggle" in top["text"]
    assert {"fused"} <= set(top["ranks"]) and isinstance(top["score"], float)


def test_search_token_budget_limits_the_text_returned(corpus_cli, runner, built):
    directory, _ = built
    result = runner.invoke(corpus_cli, ["search", str(directory), "volcano eruptions", "--budget", "70", "--json"])
    assert result.exit_code == 0, result.output
    hits = json.loads(result.stdout)
    assert sum(h["n_tokens"] for h in hits) <= 70


def test_read_prints_a_document_its_chunks_and_one_chunk(corpus_cli, runner, built):
    directory, _ = built
    doc = runner.invoke(corpus_cli, ["read", str(directory), "lighthouse.html"])
    assert doc.exit_code == 0, doc.output
    assert doc.output.startswith("lighthouse.html") and "lighthouse.html#0" in doc.output and "Pharos" in doc.output
    assert "file_name: lighthouse.html" in doc.output  # the document's where-able fields
    one = runner.invoke(corpus_cli, ["read", str(directory), "lighthouse.html#0", "--chunk", "--json"])
    assert one.exit_code == 0, one.output
    (chunk,) = json.loads(one.stdout)
    assert chunk["chunk_id"] == "lighthouse.html#0" and chunk["doc_id"] == "lighthouse.html" and chunk["text"]
    _assert_one_line_error(runner.invoke(corpus_cli, ["read", str(directory), "no-such-doc.txt"]), "no-such-doc.txt")
    _assert_one_line_error(runner.invoke(corpus_cli, ["read", str(directory), "lighthouse.html", "--chunk"]), "chunk")

def test_search_missing_index_says_how_to_build_one(corpus_cli, runner, tmp_path):
    result = runner.invoke(corpus_cli, ["search", str(tmp_path / "nowhere"), "anything"])
    _assert_one_line_error(result, "no index at", "context1 index")


def test_search_folder_that_is_not_an_index(corpus_cli, runner, tmp_path):
    result = runner.invoke(corpus_cli, ["search", str(tmp_path), "anything"])
    _assert_one_line_error(result, "not a context1 index", "context1 index")


def test_index_bad_options_and_sources(corpus_cli, runner, tmp_path):
    bad_overlap = runner.invoke(
        corpus_cli, ["index", str(FIXTURE_DOCS), str(tmp_path / "i"), "--chunk-tokens", "32", "--overlap", "32"]
    )
    _assert_one_line_error(bad_overlap, "overlap_tokens")
    missing = runner.invoke(corpus_cli, ["index", str(tmp_path / "no-docs"), str(tmp_path / "i")])
    _assert_one_line_error(missing, "no such file or folder")
    bad_reranker = runner.invoke(corpus_cli, ["index", str(FIXTURE_DOCS), str(tmp_path / "i"), "--reranker", "magic"])
    _assert_one_line_error(bad_reranker, "unknown reranker", "biencoder")
    assert not (tmp_path / "i").exists()


def test_index_with_nothing_loadable_reports_why(corpus_cli, runner, tmp_path):
    source = tmp_path / "docs"
    source.mkdir()
    (source / "empty.txt").write_text("")
    (source / "image.png").write_bytes(b"\x89PNG\x00")
    result = runner.invoke(corpus_cli, ["index", str(source), str(tmp_path / "i"), "--no-progress"])
    _assert_one_line_error(result, "nothing to index")
    assert "empty file" in result.stdout and "unsupported file type" in result.stdout


def test_skip_groups_merge_reasons_that_differ_only_in_details():
    from corpus_tools.types import SkippedFile

    skipped = [
        SkippedFile("a.txt", "not valid UTF-8 (byte 0xe9 at offset 3)"),
        SkippedFile("b.txt", "not valid UTF-8 (byte 0xff at offset 0)"),
        SkippedFile("c.jsonl:2", "duplicate doc_id 'x' (first loaded from c.jsonl:1)"),
    ]
    assert cli_corpus.skip_groups(skipped) == [
        ("not valid UTF-8", ["a.txt", "b.txt"]),
        ("duplicate doc_id", ["c.jsonl:2"]),
    ]


def test_search_server_index_without_host_says_which_options_to_pass(corpus_cli, runner, tmp_path):
    (tmp_path / "manifest.json").write_text('{"format": "context1-index", "vector_store": "server"}')
    result = runner.invoke(corpus_cli, ["search", str(tmp_path), "anything"])
    _assert_one_line_error(result, "Chroma server", "--chroma-host")


def test_index_unreachable_chroma_server(corpus_cli, runner, tmp_path):
    args = ["index", str(FIXTURE_DOCS), str(tmp_path / "i"), "--chroma-host", "127.0.0.1", "--chroma-port", "9"]
    _assert_one_line_error(runner.invoke(corpus_cli, args), "cannot reach a Chroma server", "chroma run")


def test_a_damaged_vector_matrix_names_repair_and_repair_fixes_it(corpus_cli, runner, built, tmp_path):
    import shutil

    directory = tmp_path / "index"
    shutil.copytree(built[0], directory)
    manifest = json.loads((directory / "manifest.json").read_text())
    (directory / manifest["files"]["vectors"]).write_bytes(b"\x93NUMPY broken")
    query = "Which ancient wonder stood on the island of Pharos?"
    _assert_one_line_error(runner.invoke(corpus_cli, ["search", str(directory), query]), "damaged", "context1 repair")
    repaired = runner.invoke(corpus_cli, ["repair", str(directory)])
    assert repaired.exit_code == 0 and "rewrote the vector matrix" in repaired.output, repaired.output
    assert "compacted" in repaired.output
    result = runner.invoke(corpus_cli, ["search", str(directory), query])
    assert result.exit_code == 0 and "lighthouse.html#0" in result.output, result.output
