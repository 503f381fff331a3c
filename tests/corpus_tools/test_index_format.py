"""The on-disk format: an index written by the previous version opens; a killed commit leaves nothing behind.

tests/fixtures/index_v1 was written by the code of commit 5971c01 (before `index_format` owned the
format; tests/fixtures/make_index_v1.py says how), with a base table, a delta segment and deleted
lines, and records what that code answered.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from corpus_tools import Corpus, Document, index_format
from corpus_tools.metadata_index import meta_path
from corpus_tools.table import line_index_path
from corpus_tools.types import SkippedFile

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "index_v1"


@pytest.fixture
def old_index(tmp_path) -> Path:
    path = tmp_path / "index"
    shutil.copytree(FIXTURE / "index", path)  # opening and writing touch the folder: work on a copy
    return path


def test_an_index_written_by_the_previous_version_opens_and_answers_the_same(old_index):
    expected = json.loads((FIXTURE / "expected.json").read_text())
    with Corpus.open(old_index) as corpus:
        assert corpus.manifest["files"] == expected["manifest_files"]  # base + segment + deletions
        assert sorted(corpus.doc_ids()) == expected["doc_ids"]
        assert not corpus.has_doc(expected["deleted"])
        for query, hits in expected["bm25"].items():
            got = [(h.chunk.chunk_id, h.score) for h in corpus.search_leg(query, "bm25", k=5)]
            assert [cid for cid, _ in got] == [cid for cid, _ in hits], query
            assert np.allclose([s for _, s in got], [s for _, s in hits], atol=1e-4), query
        for query, ids in expected["hybrid"].items():
            assert [h.chunk.chunk_id for h in corpus.search(query, k=3)] == ids, query
        # It has no vector matrix: the dense leg asks Chroma ...
        assert corpus._state.vectors is None and "vectors" not in corpus.manifest["files"]
        # ... and today's code commits onto it, writing the matrix from Chroma's vectors.
        corpus.add([Document("newer", "A newer note about the copper bridge of Veldhaven.")])
        corpus.delete(["ostmere"])
    with Corpus.open(old_index) as reopened:
        assert "newer" in reopened.doc_ids() and "ostmere" not in reopened.doc_ids()
        assert reopened.search_leg("newer note copper bridge", "bm25", k=1)[0].chunk.doc_id == "newer"
        assert reopened._state.vectors is not None
        for query in [*expected["hybrid"], "newer note copper bridge"]:  # the matrix answers as Chroma does
            exact = [h.chunk.chunk_id for h in reopened.search_leg(query, "dense", k=5)]
            table = reopened._state.chunks
            found = reopened._store.query(reopened.embedder.encode_query([query])[0], 5)
            assert exact == [table.chunk_id(table.row_of_vector(vid)) for vid, _ in found], query


def _unnamed_files(path: Path) -> set[str]:
    """Files and folders of the index that neither the manifest nor the previous one names."""
    manifest = index_format.read_manifest(path)
    named = index_format.file_names(manifest["files"]) | index_format.file_names(manifest.get("previous_files", {}))
    own = {index_format.MANIFEST, index_format.SKIPPED, index_format.BUILD_REPORT, "chroma", index_format.WRITE_LOCK}
    tables = [name for name in named if name.endswith(".jsonl")]
    named |= {line_index_path(path / name).name for name in tables}  # kept with the table
    named |= {meta_path(path / name).name for name in tables}  # so are its metadata columns
    return {p.name for p in path.iterdir()} - named - own


def test_a_half_written_generation_is_ignored_on_open_and_removed_by_the_next_write(
    tmp_path, config, mini_docs, monkeypatch
):
    monkeypatch.setattr(index_format, "COMPACT_FRACTION", 10.0)  # deltas, as most commits are
    path = tmp_path / "idx"
    Corpus.build(mini_docs[:8], path, config=config, progress=False).close()
    real = index_format.write_json_atomic

    def killed(target, data):
        if Path(target).name == index_format.MANIFEST:
            raise KeyboardInterrupt("killed at the commit point")
        real(target, data)

    with Corpus.open(path) as corpus, monkeypatch.context() as m:
        m.setattr(index_format, "write_json_atomic", killed)
        with pytest.raises(KeyboardInterrupt):
            corpus.add([Document("half", "Half-written: quokkas on the lighthouse stairs.")])
    # What else a kill leaves: a temporary file mid-write and a half-written BM25 folder.
    (path / f".chunks.7.jsonl.tmp-{os.getpid() + 1}").write_text('{"chunk_id": "trunc')
    (path / "bm25.7").mkdir()
    (path / "bm25.7" / "data.csc.index.npy").write_bytes(b"\x93NUMPY")
    (path / f".vectors.7.npy.tmp-{os.getpid() + 1}").write_bytes(b"\x93NUMPY half a matrix")
    leftovers = _unnamed_files(path)
    assert {"chunks.1.jsonl", "terms.1.npz", "bm25.7", f".chunks.7.jsonl.tmp-{os.getpid() + 1}"} <= leftovers
    assert {"vectors.1.npy", "chunks.1.lines.npz", "chunks.1.meta.npz", f".vectors.7.npy.tmp-{os.getpid() + 1}"} <= leftovers

    with Corpus.open(path) as reopened:  # ignored on open: the manifest names none of it
        assert "half" not in reopened.doc_ids() and len(reopened.doc_ids()) == 8
        assert all(h.chunk.doc_id != "half" for h in reopened.search_leg("quokkas lighthouse stairs", "bm25", k=3))
        assert reopened._state.vectors.n_lines == 8  # the base matrix, not the killed commit's segment
        assert all(h.chunk.doc_id != "half" for h in reopened.search_leg("quokkas lighthouse stairs", "dense", k=3))
        reopened.add([Document("whole", "A whole commit about harbour cranes.")])  # the next write
        assert _unnamed_files(path) == set()
        assert "whole" in reopened.doc_ids() and "half" not in reopened.doc_ids()


def test_every_index_file_is_written_atomically_and_fsynced(tmp_path, monkeypatch):
    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(index_format.os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    target = tmp_path / index_format.SKIPPED
    index_format.write_skipped(target, [SkippedFile("a.bin", "binary file")])
    assert len(synced) == 2  # the file, then the folder (so the rename survives a power cut)
    assert index_format.read_skipped(target) == [SkippedFile("a.bin", "binary file")]
    assert [p.name for p in tmp_path.iterdir()] == [index_format.SKIPPED]  # no temporary left

    def fail(f):
        f.write(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        index_format.write_atomic(target, fail)
    assert index_format.read_skipped(target) == [SkippedFile("a.bin", "binary file")]  # old file intact
    assert [p.name for p in tmp_path.iterdir()] == [index_format.SKIPPED]


def test_the_updater_and_the_corpus_do_not_import_each_other():
    import ast

    root = Path(__file__).resolve().parents[2] / "corpus_tools"

    def imports(name: str) -> set[str]:
        tree = ast.parse((root / f"{name}.py").read_text())
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
        return found

    assert "corpus_tools.corpus" not in imports("update")
    assert "corpus_tools.corpus" not in imports("index_format")
    assert "corpus_tools.update" not in imports("index_format")
