"""Documentation folders (.md, .rst) as documents: the loader, chunking by section, the flag, old indexes and sync."""

from __future__ import annotations

import json
import os

import pytest
import typer
from typer.testing import CliRunner

from corpus_tools import Corpus, CorpusConfig
from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.loaders import load_documents

PAGE = """# Query Parameters { #query-parameters }

When you declare other function parameters that are not part of the path parameters, they are
automatically interpreted as query parameters.

{* ../../docs_src/query_params/tutorial001_py310.py hl[9] *}

## Defaults { #defaults }

Query parameters can have default values such as `skip=0`.

```python
def read_item(skip: int = 0, limit: int = 10):
    return items[skip : skip + limit]
```

/// tip

Defaults make a parameter optional.

///
"""

SPHINX = """Configuration Handling
======================

.. py:data:: SECRET_KEY

    A secret key used for securely signing the session cookie.

.. versionadded:: 2.2
    The ``SECRET_KEY_FALLBACKS`` option.
"""


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "query-params.md").write_text(PAGE, encoding="utf-8")
    (root / "config.rst").write_text(SPHINX, encoding="utf-8")
    (root / "latin.md").write_bytes("# Café crème\n\nDéjà vu: naïve façade, très élégant.\n".encode("latin-1"))
    (root / "open.md").write_text("# Open\n\n```\nnever closed\n", encoding="utf-8")
    return root


def test_loader_reads_pages_as_documents_with_notes(folder):
    report = load_documents(folder)
    docs = {d.doc_id: d for d in report.documents}
    page = docs["query-params.md"]
    assert page.title == "Query Parameters"  # not "Query Parameters { #query-parameters }" as main read it
    assert {p.section for p in page.parts} == {"Query Parameters", "Query Parameters > Defaults"}
    assert "{*" not in page.text and "{ #" not in page.text and "///" not in page.text
    assert page.metadata["markup_dropped"] == "include 1"
    assert docs["config.rst"].title == "Configuration Handling"
    assert "New in version 2.2: The SECRET_KEY_FALLBACKS option." in " ".join(docs["config.rst"].text.split())
    assert docs["latin.md"].title.startswith("Caf") and "encoding" in docs["latin.md"].metadata  # a guessed 8-bit code
    notes = {n.path: n.note for n in report.notes}
    assert "not closed" in notes["open.md"] and "not UTF-8" in notes["latin.md"]
    assert docs["open.md"].text.endswith("never closed")  # nothing lost


def test_read_markup_false_reads_flat_text_as_before(folder):
    docs = {d.doc_id: d for d in load_documents(folder, markup=False).documents}
    page = docs["query-params.md"]
    assert page.parts == () and page.text == PAGE
    assert page.title == "Query Parameters { #query-parameters }"  # main's reading, unchanged
    assert docs["config.rst"].title == "config"


class _Words:
    """A whitespace tokenizer: a token a word (enough to test where windows fall)."""

    def offsets(self, text):
        import re

        return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]

    def count(self, text):
        return len(text.split())


def test_chunks_carry_the_section_and_keep_a_code_block_whole(folder):
    page = next(d for d in load_documents(folder).documents if d.doc_id == "query-params.md")
    chunks = chunk_document(page, _Words(), ChunkingConfig(chunk_tokens=60, overlap_tokens=8))
    assert [c.metadata["section"] for c in chunks] == ["Query Parameters", "Query Parameters > Defaults"]
    assert "Query Parameters > Defaults" in chunks[1].metadata["header"]
    assert "def read_item(skip: int = 0, limit: int = 10):\n    return items[skip : skip + limit]" in chunks[1].text


def test_an_index_built_before_the_flag_reads_markup_on_sync(tmp_path, folder, cache_dir):
    """Old manifests record no read_markup: it reads True. Unchanged files keep their chunks; a changed one is re-read."""
    assert CorpusConfig.from_dict({"embedding_model": CorpusConfig().embedding_model}).read_markup is True
    index = tmp_path / "index"
    config = CorpusConfig(embedding_cache=str(cache_dir), read_markup=False, chroma=False)
    Corpus.build(folder, index, config=config, progress=False).close()
    manifest = index / "manifest.json"
    data = json.loads(manifest.read_text())
    del data["config"]["read_markup"]  # as written before session 40
    manifest.write_text(json.dumps(data))
    page = folder / "query-params.md"
    page.write_text(PAGE + "\n## Aliases { #aliases }\n\nAn alias renames a parameter.\n", encoding="utf-8")
    os.utime(page, ns=(1, 1))
    with Corpus.open(index) as corpus:
        assert corpus.chunks("config.rst")[0].metadata.get("section") is None  # flat, as built
        report = corpus.sync(folder)
        assert report.updated == ["query-params.md"]
        sections = [c.metadata.get("section") for c in corpus.chunks("query-params.md")]
        assert "Query Parameters > Aliases" in sections
        assert corpus.chunks("config.rst")[0].metadata.get("section") is None  # unchanged: not re-read


def test_cli_index_read_and_info_show_sections_and_counts(folder, tmp_path):
    from context1.interfaces import cli_corpus

    app = typer.Typer(pretty_exceptions_enable=False)
    cli_corpus.register(app)
    runner = CliRunner(env={"COLUMNS": "220", "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path)})
    index = tmp_path / "cli-index"
    result = runner.invoke(app, ["index", str(folder), str(index), "--no-progress"])
    assert result.exit_code == 0, result.output
    info = runner.invoke(app, ["info", str(index)])
    assert "(.md 3, .rst 1)" in info.output
    shown = runner.invoke(app, ["read", str(index), "query-params.md"])
    assert "section Query Parameters > Defaults" in " ".join(shown.output.split())
    assert json.loads((index / "manifest.json").read_text())["config"]["read_markup"] is True

    flat = tmp_path / "flat-index"
    result = runner.invoke(app, ["index", str(folder), str(flat), "--flat-markup", "--no-chroma", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert json.loads((flat / "manifest.json").read_text())["config"]["read_markup"] is False
    shown = runner.invoke(app, ["read", str(flat), "query-params.md"])
    assert "{ #defaults }" in shown.output and "section Query Parameters" not in shown.output
