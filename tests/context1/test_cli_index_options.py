"""`context1 index --device/--no-chroma/--vector-field/--vector-model`: wired through to the build.

On the old code none of these options exists (typer exits 2 with "No such option").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corpus_tools import Corpus
from corpus_tools.embed import load_embedder

MODEL = "all-MiniLM-L6-v2"


@pytest.fixture(scope="module")
def runner(tmp_path_factory) -> CliRunner:
    home = tmp_path_factory.mktemp("home")
    return CliRunner(env={"COLUMNS": "220", "HF_HUB_OFFLINE": "1", "HOME": str(home)})


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    """Two records, each carrying the vector of a text unlike its own."""
    path = tmp_path_factory.mktemp("src") / "docs.jsonl"
    embed = load_embedder(MODEL).encode_document
    rows = [("p", "Pension liabilities fell.", "a lighthouse keeper at night"),
            ("q", "Inventory turns improved.", "wombats dig under the hill")]
    path.write_text("".join(json.dumps({"id": i, "text": t, "vec": embed([b])[0].tolist()}) + "\n" for i, t, b in rows))
    return path


def test_index_on_cpu_without_chroma_with_given_vectors(corpus_cli, runner, records, tmp_path):
    out = tmp_path / "idx"
    args = ["index", str(records), str(out), "--device", "cpu", "--no-chroma", "--vector-field", "vec",
            "--vector-model", MODEL, "--no-progress"]
    result = runner.invoke(corpus_cli, args)
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["vector_store"] == "matrix" and not (out / "chroma").exists()
    assert manifest["config"]["device"] is None  # where it was built says nothing about where it is searched
    with Corpus.open(out) as corpus:
        assert corpus.search_leg("wombats dig under the hill", "dense", k=1)[0].chunk.doc_id == "q"


def test_index_option_errors(corpus_cli, runner, records, tmp_path):
    def one_line(args, *fragments):
        result = runner.invoke(corpus_cli, ["index", str(records), str(tmp_path / "x"), "--no-progress", *args])
        assert result.exit_code == 2 and "Traceback" not in result.output, result.output
        message = " ".join(result.stderr.split())
        for fragment in fragments:
            assert fragment in message, message

    one_line(["--device", "tpu"], "CorpusConfig.device must be")
    one_line(["--vector-field", "vec"], "vector_field and vector_model go together")
    one_line(["--vector-field", "vec", "--vector-model", "bge-small-en-v1.5"], "'bge-small-en-v1.5'", MODEL)
    one_line(["--no-chroma", "--chroma-host", "localhost"], "--no-chroma and --chroma-host")
    import torch

    if not torch.cuda.is_available():
        one_line(["--device", "cuda"], "sees no CUDA GPU")
