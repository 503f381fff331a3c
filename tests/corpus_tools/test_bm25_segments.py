"""BM25 by segment (corpus_tools.bm25_segments): a commit tokenises only what it adds, and every
score still equals a rebuild of the live rows, whatever the add/delete sequence and BM25 variant.

On the old code a commit rebuilt the whole score matrix (`bm25._score_matrix` over every kept
row); `test_an_add_never_rebuilds_the_matrix` fails there.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from corpus_tools import Corpus, Document, bm25, index_format
from corpus_tools.bm25 import BM25Builder
from corpus_tools.bm25_segments import Postings, SegmentedBM25
from corpus_tools.config import BM25Config
from corpus_tools.embed import bm25_text

QUERIES = (
    "quokkas lighthouse",
    "harbour cranes harbour",  # a repeated term counts twice, as the matrix sums its column twice
    "bell tower Brennholt",
    "wombats cubic",
    "the town and its people",
    "zzzunknownterm",
)


def _rebuilt(corpus: Corpus) -> np.ndarray:
    """A fresh index of the live rows, in row order: what a full rebuild scores."""
    builder = BM25Builder(corpus.config.bm25)
    for chunk in corpus._state.chunks:
        builder.add(bm25_text(chunk))
    return builder.build()


def _assert_same_as_rebuild(corpus: Corpus) -> None:
    fresh = _rebuilt(corpus)
    for query in QUERIES:
        got, want = corpus._state.bm25.scores(query), fresh.scores(query)
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7, err_msg=query)
        got_top = corpus._state.bm25.top(query, 10)
        assert [r for r, _ in got_top] == [r for r, _ in fresh.top(query, 10)], query


@pytest.mark.parametrize("method", ["lucene", "robertson", "atire", "bm25l", "bm25+"])
def test_scores_equal_a_rebuild_after_any_add_delete_sequence(tmp_path, config, mini_docs, monkeypatch, method):
    monkeypatch.setattr(index_format, "COMPACT_FRACTION", 0.01)  # due at once: commits still never compact
    config = dataclasses.replace(config, bm25=BM25Config(method=method))
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as corpus:
        base = corpus.manifest["files"]["bm25"]
        steps = [
            lambda: corpus.add([Document("new-a", "Quokkas smile on Rottnest Island by the lighthouse.")]),
            lambda: corpus.delete([mini_docs[0].doc_id, mini_docs[5].doc_id]),
            lambda: corpus.add([Document("new-b", "Wombats have cubic droppings; harbour cranes harbour ships.")]),
            lambda: corpus.add([Document(mini_docs[3].doc_id, "Replaced: a bell tower in Brennholt, zzzfresh term.")]),
            lambda: corpus.delete(["new-a"]),
            lambda: corpus.add([Document("new-c", "Quokkas again, and the town and its people.")]),
        ]
        for step in steps:
            step()
            assert corpus.manifest["files"]["bm25"] == base  # a delta: the base matrix is untouched
            _assert_same_as_rebuild(corpus)
        with Corpus.open(path) as reopened:  # the segments read back from disk score the same
            assert isinstance(reopened._state.bm25, SegmentedBM25) and reopened._state.bm25.segments
            _assert_same_as_rebuild(reopened)
        corpus.compact()  # one matrix again, the same scores
        assert corpus.manifest["files"]["bm25"] != base and not corpus._state.bm25.segments
        _assert_same_as_rebuild(corpus)


def test_an_add_never_rebuilds_the_matrix(tmp_path, config, mini_docs, monkeypatch):
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as corpus:
        def refuse(*args, **kwargs):
            raise AssertionError("a commit rebuilt the BM25 score matrix over the corpus")

        monkeypatch.setattr(bm25, "_score_matrix", refuse)
        monkeypatch.setattr(BM25Builder, "from_term_ids", refuse)
        for i in range(4):
            corpus.add([Document(f"extra-{i}", f"Extra note {i} about harbour cranes and tides.")])
        corpus.delete(["extra-1"])
        assert corpus.search("harbour cranes tides", k=3)[0].chunk.doc_id.startswith("extra-")
        monkeypatch.undo()
        _assert_same_as_rebuild(corpus)


def test_segment_postings_hold_each_term_once_per_line_with_its_frequency():
    terms = np.array([3, 1, 3, 3, 0, 1, 2], dtype=np.int32)  # line 10: 3 1 3 3; line 11: 0 1 2
    postings = Postings.from_term_ids(terms, np.array([4, 3]), first_line=10)
    lines, tf = postings.get(3)
    assert lines.tolist() == [10] and tf.tolist() == [3]
    lines, tf = postings.get(1)
    assert lines.tolist() == [10, 11] and tf.tolist() == [1, 1]
    assert postings.get(7)[0].size == 0
