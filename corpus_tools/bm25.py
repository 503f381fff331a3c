"""The sparse leg: bm25s over the chunk table, with English stemming and stopwords.

We tokenize ourselves (lower-case, `\\w\\w+` words as in bm25s and scikit-learn, optional
stopwords, optional Snowball stemming through PyStemmer) and hand bm25s lists of strings, so the
query and the corpus are guaranteed the same tokenization and the rows of the bm25s index are the
rows of the chunk table. bm25s has no incremental add: `Corpus.add`/`delete` rebuild the index from
the chunk table, which takes about a second per 100k chunks.

Scoring variants are bm25s's (Kamphuis et al., ECIR 2020): "lucene" by default; "robertson" is the
original Okapi BM25 of rank-bm25's BM25Okapi up to a constant factor (k1 + 1) when every idf is
positive (tests/corpus_tools/test_bm25_parity.py checks this).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from corpus_tools.config import BM25Config

_TOKEN = re.compile(r"(?u)\b\w\w+\b")


class BM25Tokenizer:
    """Text → BM25 terms. Thread-safe (PyStemmer stemmers are per thread)."""

    def __init__(self, stem: bool = True, stopwords: str | None = "en") -> None:
        from bm25s.stopwords import STOPWORDS_EN

        self.stem = stem
        self.stopwords = frozenset(STOPWORDS_EN) if stopwords == "en" else frozenset()
        self._local = threading.local()

    def _stemmer(self):
        stemmer = getattr(self._local, "stemmer", None)
        if stemmer is None:
            import Stemmer

            stemmer = self._local.stemmer = Stemmer.Stemmer("english")
        return stemmer

    def __call__(self, text: str) -> list[str]:
        words = [w for w in _TOKEN.findall(text.lower()) if w not in self.stopwords]
        if self.stem and words:
            words = self._stemmer().stemWords(words)
        return words


class BM25Index:
    """A bm25s index whose document i is row i of the chunk table."""

    def __init__(self, config: BM25Config, model=None, n_docs: int = 0) -> None:
        self.config = config
        self.tokenizer = BM25Tokenizer(stem=config.stem, stopwords=config.stopwords)
        self._model = model
        self.n_docs = n_docs

    @classmethod
    def build(cls, texts: Sequence[str], config: BM25Config) -> BM25Index:
        import bm25s

        index = cls(config, n_docs=len(texts))
        if texts:
            model = bm25s.BM25(method=config.method, k1=config.k1, b=config.b)
            # Our own build progress bar covers this step; bm25s would add four bars of its own.
            model.index([index.tokenizer(t) for t in texts], show_progress=False)
            index._model = model
        return index

    def save(self, folder: str | Path) -> None:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        if self._model is not None:
            self._model.save(str(folder), show_progress=False)
        (folder / "n_docs.txt").write_text(str(self.n_docs))

    @classmethod
    def load(cls, folder: str | Path, config: BM25Config) -> BM25Index:
        import bm25s

        folder = Path(folder)
        n_docs = int((folder / "n_docs.txt").read_text())
        model = bm25s.BM25.load(str(folder), show_progress=False) if n_docs else None
        return cls(config, model=model, n_docs=n_docs)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every row for `query` (zeros when no query term is in the index)."""
        if self._model is None:
            return np.zeros(self.n_docs, dtype=np.float32)
        ids = self._model.get_tokens_ids(self.tokenizer(query))
        if not ids:
            return np.zeros(self.n_docs, dtype=np.float32)
        return self._model.get_scores(ids)

    def top(self, query: str, n: int) -> list[tuple[int, float]]:
        """(row, score) of the `n` best rows with a positive score, best first (ties: lower row first)."""
        scores = self.scores(query)
        positive = np.flatnonzero(scores > 0)
        if n < 1 or positive.size == 0:
            return []
        if positive.size > n:
            positive = positive[np.argpartition(-scores[positive], n - 1)[:n]]
        # Vectorised sort (score descending, row ascending on ties): a Python sort with a key
        # function cost as much as scoring itself on small corpora.
        order = positive[np.lexsort((positive, -scores[positive]))]
        return list(zip(order.tolist(), scores[order].astype(float).tolist(), strict=True))
