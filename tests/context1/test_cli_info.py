"""`context1 info INDEX`: what an index holds, as text and as JSON."""

from __future__ import annotations

import json
import re

import typer
from typer.testing import CliRunner

from context1.interfaces import cli_corpus


def _run(*args: str):
    app = typer.Typer()
    app.callback()(lambda: None)
    cli_corpus.register(app)
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def test_info_as_json_and_text(harness_corpus, tmp_path):
    res = _run("info", str(harness_corpus.path), "--json")
    assert res.exit_code == 0, res.output
    info = json.loads(res.output)
    assert info["documents"] == len(harness_corpus.doc_ids()) == 23 and info["chunks"] == len(harness_corpus)
    assert info["embedding_model"] == "all-MiniLM-L6-v2" and info["embedding_dim"] == 384
    assert "title" in info["fields"] and "header" not in info["fields"] and not info["fields_sampled"]
    assert info["reranker"] == harness_corpus.config.search.reranker
    assert info["dense_search"] == "exact"  # 31 chunks: far below the FAISS threshold
    on_disk = sum(f.stat().st_size for f in harness_corpus.path.rglob("*") if f.is_file())
    assert abs(info["size_bytes"] - on_disk) < 64 * 1024 and info["size_bytes"] > 100_000
    chunking = harness_corpus.config.chunking
    assert info["built"] and info["chunking"] == {"chunk_tokens": chunking.chunk_tokens, "overlap_tokens": chunking.overlap_tokens}
    text = _run("info", str(harness_corpus.path))
    assert text.exit_code == 0, text.output
    out = text.output
    assert re.search(r"^documents +23$", out, re.M) and re.search(r"^embedding model +all-MiniLM-L6-v2 \(384", out, re.M)
    assert re.search(r"^dense search +exact$", out, re.M) and re.search(r"^size on disk +[\d.,]+ (KB|MB)$", out, re.M)
    assert re.search(r"^fields +.*\btitle\b", out, re.M) and "Traceback" not in out
    missing = _run("info", str(tmp_path / "nowhere"))
    assert missing.exit_code == 2 and "no index at" in missing.output
