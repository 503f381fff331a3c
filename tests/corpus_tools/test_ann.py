"""The approximate dense leg (corpus_tools.ann): FAISS candidates re-scored exactly, kept current by commits.

A plain IVF search without the live-line selector returns deleted lines, and one without the
widened nprobe returns fewer hits than a `where` allows; these tests would catch both. The recall
figure on real MiniLM vectors is benchmarks/ann_choice.py's; here clustered vectors with close
neighbours stand in (hard enough that a single probed list loses most of the top 100).
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from corpus_tools import Corpus, Document, ann, index_format
from corpus_tools.ann import AnnIndex
from corpus_tools.maintenance import repair_index
from corpus_tools.vectors import VectorMatrix, normalise

QUERIES = ("Who founded the river town?", "lighthouse keeper", "ships in the harbour", "wool and sheep farming")


def _clustered(n: int, dim: int = 48, seed: int = 0) -> np.ndarray:
    """Topics of 400 vectors each, spread wide enough that a query's top 100 spans several lists."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((-(-n // 400), dim)).astype(np.float32)
    return normalise(np.repeat(centres, 400, axis=0)[:n] + 0.5 * rng.standard_normal((n, dim)).astype(np.float32))


def _recall(exact: list[tuple[int, float]], approx: list[tuple[int, float]]) -> float:
    return len({r for r, _ in exact} & {r for r, _ in approx}) / max(len(exact), 1)


@pytest.fixture(scope="module")
def vectors() -> np.ndarray:
    return _clustered(40_000)


@pytest.fixture(scope="module")
def index(vectors) -> AnnIndex:
    return AnnIndex.train(vectors)


def test_candidates_rescored_exactly_find_the_exact_top_100(vectors, index):
    exact, approx = VectorMatrix([vectors], vectors.shape[1]), VectorMatrix([vectors], vectors.shape[1], index)
    rows = np.arange(len(vectors))
    rng = np.random.default_rng(1)
    recalls = []
    for _ in range(30):
        q = vectors[rng.integers(len(vectors))] + 0.3 * rng.standard_normal(vectors.shape[1]).astype(np.float32)
        e, a = exact.top(q, 100, rows), approx.top(q, 100, rows)
        recalls.append(_recall(e, a))
        found = dict(e)
        # The scores returned are the exact cosines, not FAISS's quantised ones.
        assert all(abs(s - found[r]) < 1e-5 for r, s in a if r in found)
        assert [s for _, s in a] == sorted((s for _, s in a), reverse=True)
    assert np.mean(recalls) >= 0.98
    # The same index probing a single list misses most of them: the figure above is not free.
    one = AnnIndex(index.index, index.n_lines, nprobe=1)
    narrow = VectorMatrix([vectors], vectors.shape[1], one)
    q = vectors[7] + 0.3 * rng.standard_normal(vectors.shape[1]).astype(np.float32)
    assert _recall(exact.top(q, 100, rows), narrow.top(q, 100, rows)) < 0.8


def test_deleted_lines_and_rows_outside_where_are_never_returned(vectors, index):
    approx = VectorMatrix([vectors], vectors.shape[1], index)
    exact = VectorMatrix([vectors], vectors.shape[1])
    live = np.setdiff1d(np.arange(len(vectors)), np.arange(0, len(vectors), 3))  # a third deleted
    rng = np.random.default_rng(2)
    for share in (0.6, 0.2, 0.01):  # broad (FAISS with a selector), narrower, selective (exact over it)
        allowed = rng.random(len(live)) < share
        for _ in range(5):
            q = vectors[rng.integers(len(vectors))]
            got = approx.top(q, 100, live, allowed)
            assert len(got) == min(100, int(allowed.sum()))
            assert all(allowed[r] for r, _ in got)  # rows index `live`; deleted lines have no row at all
            assert _recall(exact.top(q, 100, live, allowed), got) >= 0.95
    q = vectors[0]  # a deleted line's own vector: it must not come back
    assert all(live[r] != 0 for r, _ in approx.top(q, 10, live))


def test_lines_past_the_index_are_searched_exactly(vectors, index):
    extra = _clustered(1_000, seed=5)
    matrix = VectorMatrix([vectors, extra], vectors.shape[1], index)
    rows = np.arange(matrix.n_lines)
    got = matrix.top(extra[10], 5, rows)
    assert got[0] == (len(vectors) + 10, pytest.approx(1.0, abs=1e-5))


@pytest.fixture
def small_ann(monkeypatch):
    """A threshold the 20-chunk fixture passes, so its builds and commits keep an ANN file."""
    monkeypatch.setattr(ann, "ANN_MIN_LINES", 10)


def _dense(corpus: Corpus, query: str, k: int = 8) -> list[str]:
    return [h.chunk.chunk_id for h in corpus.search_leg(query, "dense", k=k)]


def test_a_build_past_the_threshold_keeps_an_ann_the_manifest_shows(tmp_path, config, mini_docs, small_ann):
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as corpus:
        files, dense = corpus.manifest["files"], corpus.manifest["dense"]
        assert (path / files["ann"]).exists() and files["ann_of"] == files["vectors"]
        assert dense["exact_below_lines"] == 10 and dense["search"].startswith("faiss IVF")
        assert corpus._state.vectors.ann is not None and corpus.dense_note is None
        exact = {q: _dense(corpus, q) for q in QUERIES}
    with Corpus.open(path) as reopened:
        assert reopened._state.vectors.ann is not None
        reopened._state.vectors.ann = None  # the exact leg, for comparison
        assert {q: _dense(reopened, q) for q in QUERIES} == exact


def test_the_ann_follows_adds_and_deletes_without_retraining(tmp_path, config, mini_docs, small_ann, monkeypatch):
    monkeypatch.setattr(index_format, "COMPACT_FRACTION", 10.0)  # every commit a delta
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as corpus:
        ann_file = corpus.manifest["files"]["ann"]
        corpus.add([Document("quokka", "Quokkas crowd the lighthouse keeper's stairs at dawn.")])
        corpus.delete([mini_docs[0].doc_id])
        assert corpus.manifest["files"]["ann"] == ann_file  # no retrain per commit
        top = corpus.search_leg("quokkas on the lighthouse stairs", "dense", k=3)
        assert top[0].chunk.doc_id == "quokka"  # a line past the ANN, found exactly
        gone = {c.chunk_id for c in corpus.chunks(mini_docs[1].doc_id)}
        for current in (corpus, Corpus.open(path)):
            for q in QUERIES:
                got = _dense(current, q, k=30)
                assert not any(cid.startswith(f"{mini_docs[0].doc_id}#") for cid in got)
            if current is not corpus:
                current.close()
        hits = corpus.search_leg("harbour", "dense", k=5, where={"doc_id": mini_docs[1].doc_id})
        assert hits and {h.chunk.chunk_id for h in hits} <= gone
        corpus.compact()  # a new base: a newly trained index over it
        assert corpus.manifest["files"]["ann"] != ann_file and not corpus.manifest["files"].get("vector_segments")
        assert corpus.search_leg("quokkas on the lighthouse stairs", "dense", k=1)[0].chunk.doc_id == "quokka"


@pytest.mark.parametrize("damage", ["garbage", "missing", "another generation's"])
def test_an_ann_out_of_step_is_detected_searched_exactly_and_repaired(tmp_path, config, mini_docs, small_ann, damage):
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as corpus:
        before = {q: _dense(corpus, q) for q in QUERIES}
    manifest = json.loads((path / "manifest.json").read_text())
    ann_path = path / manifest["files"]["ann"]
    if damage == "garbage":
        ann_path.write_bytes(b"not a faiss index")
    elif damage == "missing":
        ann_path.unlink()
    else:  # a commit killed after writing a new base but naming an old index (files out of step)
        manifest["files"]["ann_of"] = "vectors.7.npy"
        (path / "manifest.json").write_text(json.dumps(manifest))
    with Corpus.open(path) as damaged:
        assert damaged._state.vectors.ann is None
        assert "out of step" in damaged.dense_note and "context1 repair" in damaged.dense_note
        assert {q: _dense(damaged, q) for q in QUERIES} == before  # exact: same results, slower
    said = repair_index(path)
    assert "compacted" in said and "faiss" in said
    with Corpus.open(path) as repaired:
        assert repaired.dense_note is None and repaired._state.vectors.ann is not None
        assert {q: _dense(repaired, q) for q in QUERIES} == before


def test_an_index_below_the_threshold_or_older_stays_exact(tmp_path, mini_index):
    path = tmp_path / "idx"
    shutil.copytree(mini_index, path)
    manifest = json.loads((path / "manifest.json").read_text())
    assert "ann" not in manifest["files"] and manifest["dense"]["search"] == "exact"
    manifest.pop("dense")  # as written before this existed
    (path / "manifest.json").write_text(json.dumps(manifest))
    with Corpus.open(path) as corpus:
        assert corpus._state.vectors.ann is None and corpus.dense_note is None
        assert corpus.search("harbour", k=3)


def test_opening_an_index_reads_its_faiss_file_only_at_the_first_dense_search(tmp_path, config, mini_docs, small_ann):
    """A build opens what it wrote, and an add opens the index: neither may hold the FAISS index (394 MB
    at 1M lines, the last thing that made a 1M build's memory grow with the corpus)."""
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as built:
        assert built._state.vectors.ann is not None and built._state.vectors.ann._index is None
    with Corpus.open(path) as corpus:
        ann_index = corpus._state.vectors.ann
        assert ann_index is not None and ann_index._index is None  # header checked, body not read
        corpus.search_leg("harbour", "bm25", k=3)
        assert ann_index._index is None  # the BM25 leg never needs it
        assert corpus.search_leg("harbour", "dense", k=3)
        assert ann_index._index is not None and ann_index.index.ntotal == ann_index.n_lines


def test_a_faiss_file_damaged_past_its_header_is_searched_exactly_and_said(tmp_path, config, mini_docs, small_ann):
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as corpus:
        before = {q: _dense(corpus, q) for q in QUERIES}
    manifest = json.loads((path / "manifest.json").read_text())
    ann_path = path / manifest["files"]["ann"]
    body = ann_path.read_bytes()
    ann_path.write_bytes(body[:64] + b"\x00" * 16)  # the header intact, the lists cut off
    with Corpus.open(path) as damaged:
        assert damaged._state.vectors.ann is not None and damaged.dense_note is None  # found at the first search
        assert {q: _dense(damaged, q) for q in QUERIES} == before  # exact: same results, no error
        assert damaged._state.vectors.ann is None
        assert "unreadable" in damaged.dense_note and "context1 repair" in damaged.dense_note
