"""Build memory that does not grow with the corpus: the BM25 score matrix is built block by block.

Measured with tracemalloc (numpy reports its buffers to it), so the checks are about bytes, not time.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from corpus_tools import BM25Config
from corpus_tools import bm25 as bm25_module


def synthetic(n_docs: int, per_doc: int = 50, n_vocab: int = 30_000, seed: int = 0):
    rng = np.random.default_rng(seed)
    terms = (rng.zipf(1.3, n_docs * per_doc) % n_vocab).astype(np.int32)
    offsets = np.arange(0, n_docs * per_doc + 1, per_doc, dtype=np.int64)
    return terms, offsets, {f"t{i}": i for i in range(n_vocab)}


def matrix(built) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return built.data, built.indices, built.indptr


@pytest.mark.parametrize("method", ["lucene", "robertson", "atire"])
def test_blocks_give_the_same_matrix_as_one_pass(method, monkeypatch):
    terms, offsets, vocab = synthetic(2_000, per_doc=30, n_vocab=500)
    config = BM25Config(method=method)
    monkeypatch.setattr(bm25_module, "_BLOCK_DOCS", 10**9)
    whole = matrix(bm25_module._score_matrix(terms, offsets, len(vocab), config))
    monkeypatch.setattr(bm25_module, "_BLOCK_DOCS", 77)  # blocks that do not divide the corpus
    blocked = matrix(bm25_module._score_matrix(terms, offsets, len(vocab), config))
    for a, b in zip(whole, blocked, strict=True):
        assert np.array_equal(a, b)


def test_score_matrix_build_peak_is_a_small_multiple_of_the_matrix(monkeypatch):
    # 20k documents, 1M tokens, in blocks of 1,024 documents (the default block is 8,192: a
    # smaller one shows the same at a test's size). The one-pass build held ~5 int64 arrays per
    # token of the whole corpus at once (np.unique over every (doc, term) key): ~8.8x the matrix.
    monkeypatch.setattr(bm25_module, "_BLOCK_DOCS", 1024, raising=False)
    terms, offsets, vocab = synthetic(20_000)
    bm25_module._score_matrix(terms[:100], offsets[:3], len(vocab), BM25Config())  # imports outside the trace
    tracemalloc.start()
    try:
        built = bm25_module._score_matrix(terms, offsets, len(vocab), BM25Config())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    size = sum(a.nbytes for a in matrix(built))
    assert peak < 5 * size, f"peak {peak / 2**20:.1f} MiB for a {size / 2**20:.1f} MiB matrix"
