"""The BM25 variants as small pure functions: idf and term-frequency components.

Formulas from Kamphuis, de Vries, Boytsov & Lin, "Which BM25 Do You Mean? A Large-Scale
Reproducibility Study of Scoring Variants" (ECIR 2020), written as bm25s writes them, so a score
matrix built here is the matrix bm25s builds (tests/corpus_tools/test_bm25_parity.py checks it
against bm25s's public `BM25.index` / `get_scores`). We own them rather than import bm25s's
private `_select_*_scorer` helpers, which may change in any release.

BM25L and BM25+ give every document a score for a query term it lacks (the "non-occurrence"
score, idf * tfc(tf=0)); like bm25s, the matrix stores each score minus that constant and a query
adds the constants back, so the matrix stays sparse.
"""

from __future__ import annotations

import numpy as np

# Lucene's English stopword list (what bm25s ships as STOPWORDS_EN); kept here so the sparse leg
# needs no bm25s import (bm25s imports scipy, and numba when installed, at import time: part of a cold start).
STOPWORDS_EN = (
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no",
    "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this",
    "to", "was", "will", "with",
)  # fmt: skip
NONOCCURRENCE_METHODS = ("bm25l", "bm25+")
BM25_DELTA = 0.5  # BM25L/BM25+'s delta: bm25s's default (Lv & Zhai 2011 suggest 0.5 for BM25L)


def idf(method: str, df: np.ndarray, n_docs: int) -> np.ndarray:
    """Inverse document frequency of each term (float32); 0 for a term no document holds (as bm25s)."""
    df = np.asarray(df, dtype=np.float64)
    present = df > 0
    d = np.where(present, df, 1.0)  # placeholder where df == 0, masked out below
    n = float(n_docs)
    if method == "robertson":  # floored at 0 (log 1): bm25s's allow_negative=False
        values = np.log(np.maximum((n - d + 0.5) / (d + 0.5), 1.0))
    elif method == "lucene":
        values = np.log(1.0 + (n - d + 0.5) / (d + 0.5))
    elif method == "atire":
        values = np.log(n / d)
    elif method == "bm25l":
        values = np.log((n + 1.0) / (d + 0.5))
    elif method == "bm25+":
        values = np.log((n + 1.0) / d)
    else:
        raise ValueError(f"unknown BM25 method {method!r}; choose lucene, robertson, atire, bm25l or bm25+")
    return np.where(present, values, 0.0).astype(np.float32)


def tfc(
    method: str, tf: np.ndarray, doc_len: np.ndarray, avg_len: float, k1: float, b: float, delta: float = BM25_DELTA
) -> np.ndarray:
    """The term-frequency component of each (document, term) pair (float32, as bm25s stores scores).

    Computed in float32: a build evaluates it for every (document, term) pair of a block, and
    float64 temporaries doubled the build's memory peak.
    """
    tf = np.asarray(tf, dtype=np.float32)
    norm = (1.0 - b) + b * np.asarray(doc_len, dtype=np.float32) / float(avg_len)
    if method in ("robertson", "lucene"):
        return tf / (k1 * norm + tf)
    if method == "atire":
        return tf * (k1 + 1.0) / (tf + k1 * norm)
    if method == "bm25l":
        c = tf / norm
        return (k1 + 1.0) * (c + delta) / (k1 + c + delta)
    if method == "bm25+":
        return (k1 + 1.0) * tf / (k1 * norm + tf) + delta
    raise ValueError(f"unknown BM25 method {method!r}; choose lucene, robertson, atire, bm25l or bm25+")


def nonoccurrence(method: str, idf_v: np.ndarray, avg_len: float, k1: float, b: float) -> np.ndarray | None:
    """Per-term score of a document without the term (BM25L/BM25+; None for the other variants).

    bm25s evaluates tfc(0) at the average length; for both variants it does not depend on length.
    """
    if method not in NONOCCURRENCE_METHODS:
        return None
    zero = float(tfc(method, np.zeros(1), np.full(1, avg_len), avg_len, k1, b)[0])
    return (idf_v * np.float32(zero)).astype(np.float32)
