"""The dense leg on the vector matrix: exact, off Chroma's path, consistent through commits, clear when damaged.

The matrix (corpus_tools.vectors, written by index_format) holds each table line's unit vector;
Chroma keeps the same vectors for writes, servers and indexes written before the matrix existed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest

from corpus_tools import Corpus, Document, IndexFormatError, index_format, repair_vectors
from corpus_tools.vectors import VectorMatrix, normalise

QUERIES = ("Who founded the river town?", "lighthouse keeper", "ships in the harbour", "wool and sheep farming")


def _chroma_ranking(corpus: Corpus, query: str, k: int) -> list[tuple[str, float]]:
    table = corpus._state.chunks
    found = corpus._store.query(corpus.embedder.encode_query([query])[0], k)
    return [(table.chunk_id(row), s) for vid, s in found if (row := table.row_of_vector(vid)) is not None]


def test_open_and_search_do_not_import_chromadb(mini_index):
    child = """
import json, sys
from corpus_tools import Corpus
with Corpus.open(sys.argv[1]) as corpus:
    hits = corpus.search("Who founded the river town?", k=3)
    filtered = corpus.search("harbour", k=3, where={"doc_id": {"$ne": "nobody"}})
    corpus.similarity("harbour", [hits[0].chunk.chunk_id])
print(json.dumps({"hits": len(hits), "filtered": len(filtered), "chroma": "chromadb" in sys.modules}))
"""
    done = subprocess.run([sys.executable, "-c", child, str(mini_index)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out == {"hits": 3, "filtered": 3, "chroma": False}


def test_the_dense_leg_is_exact_and_agrees_with_chroma(corpus):
    assert corpus._state.vectors is not None
    table = corpus._state.chunks
    stored = corpus._store.vectors(table.vector_ids())  # what Chroma holds, by vector id
    matrix = normalise(np.stack([stored[table.vector_id(r)] for r in range(len(table))]))
    for query in QUERIES:
        hits = corpus.search_leg(query, "dense", k=len(table))
        q = normalise(corpus.embedder.encode_query([query]))[0]
        brute = matrix @ q
        order = sorted(range(len(table)), key=lambda r: (-brute[r], r))
        assert [h.chunk.chunk_id for h in hits] == [table.chunk_id(r) for r in order], query
        assert np.allclose([h.score for h in hits], brute[order], atol=1e-5)
        # At 20 chunks Chroma's HNSW is exact too: the same ranking, the same cosines.
        chroma = _chroma_ranking(corpus, query, 10)
        assert [cid for cid, _ in chroma] == [h.chunk.chunk_id for h in hits[:10]], query
        assert np.allclose([s for _, s in chroma], [h.score for h in hits[:10]], atol=1e-5)


def test_top_breaks_ties_by_row_and_honours_the_mask():
    parts = [normalise(np.array([[1, 0], [0, 1], [1, 0]], np.float32)), normalise(np.array([[1, 1]], np.float32))]
    matrix = VectorMatrix(parts, 2)
    lines = np.array([0, 1, 2, 3])
    assert matrix.top(np.array([1, 0], np.float32), 4, lines) == [
        (0, 1.0), (2, 1.0), (3, pytest.approx(0.7071, abs=1e-4)), (1, 0.0)
    ]
    assert [r for r, _ in matrix.top(np.array([1, 0]), 2, lines, np.array([False, True, True, False]))] == [2, 1]
    assert [r for r, _ in matrix.top(np.array([1, 0]), 5, np.array([3, 1]))] == [0, 1]  # rows map to lines


def test_the_matrix_follows_adds_deletes_and_compactions(tmp_path, config, mini_docs, monkeypatch):
    path = tmp_path / "idx"
    with Corpus.build(mini_docs[:10], path, config=config, progress=False) as corpus:
        for fraction in (10.0, 0.1):  # deltas first, then a compaction after each commit
            monkeypatch.setattr(index_format, "COMPACT_FRACTION", fraction)
            corpus.add([Document(f"new-{fraction}", f"Quokkas number {fraction} on the lighthouse stairs.")])
            if fraction < 1:
                corpus.compact()
            corpus.add([Document(mini_docs[1].doc_id, f"Replaced at {fraction}: wombats by the harbour.")])
            if fraction < 1:
                corpus.compact()
            corpus.delete([mini_docs[2 if fraction > 1 else 3].doc_id])
            if fraction < 1:
                corpus.compact()
            for current in (corpus, Corpus.open(path)):
                table = current._state.chunks
                assert current._state.vectors.n_lines == table.n_lines
                rows = current._state.vectors.lines(table.row_lines())
                stored = current._store.vectors(table.vector_ids())
                assert np.allclose(rows, normalise(np.stack([stored[v] for v in table.vector_ids()])), atol=1e-6)
                for query in QUERIES:
                    got = [h.chunk.chunk_id for h in current.search_leg(query, "dense", k=5)]
                    assert got == [cid for cid, _ in _chroma_ranking(current, query, 5)], query
                if current is not corpus:
                    current.close()
        files = corpus.manifest["files"]
        assert files["vectors"].startswith("vectors.") and not files.get("vector_segments")  # compacted


@pytest.mark.parametrize("damage", ["truncated", "wrong shape", "missing", "short"])
def test_a_damaged_matrix_is_a_clear_error_naming_the_fix(tmp_path, mini_index, damage):
    path = tmp_path / "idx"
    shutil.copytree(mini_index, path)
    with Corpus.open(path) as corpus:
        before = {q: [h.chunk.chunk_id for h in corpus.search(q, k=5)] for q in QUERIES}
    matrix = path / index_format.read_manifest(path)["files"]["vectors"]
    if damage == "truncated":
        matrix.write_bytes(matrix.read_bytes()[:1000])
    elif damage == "wrong shape":
        np.save(matrix, np.zeros((20, 7), np.float32))
    elif damage == "missing":
        matrix.unlink()
    else:  # fewer lines than the table (as a commit by an older version would leave it)
        np.save(matrix, np.load(matrix)[:-1])
    with pytest.raises(IndexFormatError, match=r"vector matrix .* damaged .*context1 repair"):
        Corpus.open(path)
    assert repair_vectors(path) == 20
    with Corpus.open(path) as repaired:
        assert {q: [h.chunk.chunk_id for h in repaired.search(q, k=5)] for q in QUERIES} == before


def test_repair_gives_an_older_index_its_matrix_and_line_numbers(tmp_path, mini_index):
    path = tmp_path / "idx"
    shutil.copytree(mini_index, path)
    manifest = index_format.read_manifest(path)
    (path / manifest["files"]["vectors"]).unlink()
    (path / "chunks.lines.npz").unlink()
    del manifest["files"]["vectors"]  # as an index written before the matrix existed
    index_format.write_json_atomic(path / index_format.MANIFEST, manifest)
    with Corpus.open(path) as old:
        assert old._state.vectors is None
        before = {q: [h.chunk.chunk_id for h in old.search(q, k=5)] for q in QUERIES}
    repair_vectors(path)
    assert (path / "chunks.lines.npz").exists()
    with Corpus.open(path) as upgraded:
        assert upgraded._state.vectors is not None
        assert {q: [h.chunk.chunk_id for h in upgraded.search(q, k=5)] for q in QUERIES} == before
