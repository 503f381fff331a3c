"""The Chroma copy of an embedded index: add/delete never open it, whoever opens it next brings it in step.

Opening the collection loads its whole HNSW graph (44 s at 100k chunks), which made a process's
first add cost that much. On the old code these tests fail: `add` and `delete` open Chroma.
An index built with `CorpusConfig(chroma=False)` keeps no copy at all.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from corpus_tools import Corpus, Document, store_sync
from corpus_tools import corpus as corpus_module
from corpus_tools.index_format import read_manifest
from corpus_tools.types import IndexFormatError
from corpus_tools.vectors import normalise

REPO = Path(__file__).resolve().parents[2]
NEW = [
    Document("quokka", "Quokkas smile on Rottnest Island, west of the river town."),
    Document("wombat", "Wombats dig burrows under the lighthouse hill."),
]


@pytest.fixture
def no_chroma_open(monkeypatch):
    """Fail any attempt to open a Chroma store in this process."""

    def refuse(self):
        raise AssertionError("Chroma was opened")

    monkeypatch.setattr(corpus_module._StoreOpener, "__call__", refuse)
    return monkeypatch


def _assert_chroma_matches_table(corpus: Corpus) -> None:
    table = corpus._state.chunks
    store = corpus._store
    assert store.count() == len(table)
    stored = store.vectors(table.vector_ids())
    matrix = corpus._state.vectors.lines(table.row_lines())
    assert np.allclose(matrix, normalise(np.stack([stored[v] for v in table.vector_ids()])), atol=1e-6)


def test_add_and_delete_leave_chroma_closed_and_the_next_open_catches_up(tmp_path, config, mini_docs, no_chroma_open):
    path = tmp_path / "idx"
    Corpus.build(mini_docs, path, config=config, progress=False).close()
    replaced = dataclasses.replace(mini_docs[1], text="Replaced: wombats by the harbour wall.")
    with Corpus.open(path) as corpus:
        assert corpus.add(NEW) == 2
        assert corpus.add([replaced]) == 1
        assert corpus.delete([mini_docs[3].doc_id]) == 1
        assert corpus.search_leg("quokkas smile on the island", "dense", k=1)[0].chunk.doc_id == "quokka"
        # counted from the change, not the whole table (index_format._doc_count)
        assert corpus.manifest["counts"]["documents"] == len(corpus.doc_ids()) == len(mini_docs) + 1
    no_chroma_open.undo()
    assert read_manifest(path)[store_sync.BEHIND] is True
    with Corpus.open(path) as corpus:
        _assert_chroma_matches_table(corpus)  # opening the store upserted 3 documents and dropped 2
        assert store_sync.BEHIND not in read_manifest(path)
        # Once open in this process, commits write through again and leave no mark.
        corpus.add([Document("emu", "Emus cross the sheep farm at dawn.")])
        assert store_sync.BEHIND not in read_manifest(path)
        _assert_chroma_matches_table(corpus)
        found = corpus._store.query(corpus.embedder.encode_query(["emus crossing a farm"])[0], 1)
        assert found[0][0] == corpus._state.chunks.vector_id(corpus._state.chunks.row_of("emu#0"))


def test_an_index_without_a_chroma_copy(tmp_path, config, mini_docs, no_chroma_open):
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=dataclasses.replace(config, chroma=False), progress=False) as corpus:
        assert corpus.manifest["vector_store"] == "matrix" and not (path / "chroma").exists()
        corpus.add(NEW)
        corpus.delete([mini_docs[0].doc_id])
        assert corpus.search("quokkas on Rottnest Island", k=1)[0].chunk.doc_id == "quokka"
        assert store_sync.BEHIND not in corpus.manifest  # nothing to catch up: there is no copy
    no_chroma_open.undo()
    with Corpus.open(path) as reopened:
        assert len(reopened.doc_ids()) == len(mini_docs) + 1
        with pytest.raises(IndexFormatError, match="keeps no Chroma copy"):
            _ = reopened._store


def test_chroma_flag_is_checked():
    from corpus_tools import CorpusConfig

    with pytest.raises(ValueError, match="CorpusConfig.chroma"):
        CorpusConfig(chroma="no")


def test_a_process_first_add_imports_neither_chromadb_nor_torch(tmp_path, config, mini_docs):
    """What made the first add of a process cost 44 s at 100k chunks (Chroma's graph) plus torch's import."""
    path = tmp_path / "idx"
    Corpus.build(mini_docs, path, config=config, progress=False).close()
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from corpus_tools import Corpus, Document\n"
        f"with Corpus.open({str(path)!r}) as c:\n"
        "    c.add([Document('kiwi', 'Kiwis forage at night in the river town.')])\n"
        "    c.delete(['kiwi'])\n"
        "print(sorted(m for m in ('chromadb', 'torch', 'transformers', 'sentence_transformers') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], env={**os.environ, "HF_HUB_OFFLINE": "1"},
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_repair_brings_the_chroma_copy_in_step(tmp_path, config, mini_docs):
    from corpus_tools.maintenance import repair_index

    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as corpus:
        corpus.add(NEW)
    assert read_manifest(path)[store_sync.BEHIND] is True
    assert "brought the Chroma copy in step" in repair_index(path)
    assert store_sync.BEHIND not in read_manifest(path)
    with Corpus.open(path) as corpus:
        assert corpus._store.count() == len(corpus._state.chunks)
