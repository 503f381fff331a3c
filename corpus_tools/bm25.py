"""The sparse leg: bm25s over the chunk table, with English stemming and stopwords.

We tokenize ourselves (lower-case, `\\w\\w+` words as in bm25s and scikit-learn, optional
stopwords, optional Snowball stemming through PyStemmer) and hand bm25s lists of strings, so the
query and the corpus are guaranteed the same tokenization and the rows of the bm25s index are the
rows of the chunk table. bm25s has no incremental add: `Corpus.add`/`delete` rebuild its score
matrix, but from the saved term ids of the rows they keep (only new chunks are tokenised), with
one vectorised pass instead of bm25s's per-document loop (benchmarks/corpus_update.py measures it).

Scoring variants are bm25s's (Kamphuis et al., ECIR 2020): "lucene" by default; "robertson" is the
original Okapi BM25 of rank-bm25's BM25Okapi up to a constant factor (k1 + 1) when every idf is
positive (tests/corpus_tools/test_bm25_parity.py checks this).
"""

from __future__ import annotations

import json
import re
import threading
from array import array
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from corpus_tools.config import BM25Config

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
# Term ids the index was built from (so updates re-tokenise only new chunks), beside bm25s's files.
_TERMS, _OFFSETS, _VOCAB = "terms.npy", "term_offsets.npy", "term_vocab.json"
_BLOCK_DOCS = 8192  # documents per block when the score matrix is built
# bm25s's file names for the CSC score matrix (what `bm25s.BM25.load` reads).
_DATA, _INDICES, _INDPTR = "data.csc.index.npy", "indices.csc.index.npy", "indptr.csc.index.npy"
_COPY_BLOCK = 1 << 24  # term ids copied per step from the spill file into terms.npy
# Held around every .npy/.npz read: numpy parses their headers with `ast.literal_eval`, and CPython
# 3.11's AST validation is not thread-safe (gh-106905: "SystemError: AST constructor recursion depth
# mismatch" when two threads open an index at once, e.g. readers while `Corpus.sync` commits).
NPY_LOCK = threading.Lock()


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


class BM25Builder:
    """Collects documents as compact term ids, then builds a `BM25Index` (vectorised, no per-doc loop).

    A streaming build adds each chunk as it is written, so texts need not stay in memory: an
    `array('i')` of term ids costs 4 bytes a token where a list of stemmed strings cost ~60.
    With `spill` (a file path), sealed term ids go to that file instead of memory and `write`
    builds the score matrix straight into memory-mapped files: what a build holds then is the
    vocabulary and 8 bytes a chunk, not 4 bytes a token plus the matrix.
    `Corpus.add`/`delete` start from the saved term ids of the rows they keep (`from_index`),
    so only new chunks are tokenised and stemmed again.
    """

    def __init__(self, config: BM25Config, vocab: dict[str, int] | None = None, spill: Path | None = None) -> None:
        self.config = config
        self.tokenizer = BM25Tokenizer(stem=config.stem, stopwords=config.stopwords)
        self.vocab: dict[str, int] = dict(vocab or {})
        self._parts: list[np.ndarray] = []  # flat term ids, one array per `extend` or per 4,096 docs
        self._lengths: list[np.ndarray] = []
        self._pending = array("i")
        self._pending_lengths = array("q")
        self._spill = spill
        self._spilled = 0  # term ids written to the spill file
        if spill is not None:
            Path(spill).write_bytes(b"")

    @classmethod
    def from_index(cls, index: BM25Index, keep_rows: np.ndarray) -> BM25Builder:
        """A builder holding the term ids of `keep_rows` (in that order) of a saved index."""
        terms, offsets = index.term_ids()
        return cls.from_term_ids(index.config, index.vocab(), terms, offsets, keep_rows)

    @classmethod
    def from_term_ids(
        cls, config: BM25Config, vocab: dict[str, int], terms: np.ndarray, offsets: np.ndarray, keep_rows: np.ndarray
    ) -> BM25Builder:
        """A builder holding rows `keep_rows` (in that order) of flat term ids split at `offsets`."""
        builder = cls(config, vocab)
        keep_rows = np.asarray(keep_rows, dtype=np.int64)
        lengths = offsets[keep_rows + 1] - offsets[keep_rows]
        if keep_rows.size:
            starts = np.repeat(offsets[keep_rows] - np.cumsum(lengths) + lengths, lengths)
            builder._parts.append(np.asarray(terms[starts + np.arange(int(lengths.sum()))], dtype=np.int32))
        builder._lengths.append(lengths.astype(np.int64))
        return builder

    def add(self, text: str) -> None:
        vocab = self.vocab
        n = 0
        for term in self.tokenizer(text):
            term_id = vocab.get(term)
            if term_id is None:
                term_id = vocab[term] = len(vocab)
            self._pending.append(term_id)
            n += 1
        self._pending_lengths.append(n)
        if len(self._pending_lengths) >= 4096:
            self._seal()

    def _seal(self) -> None:
        if len(self._pending_lengths):
            if self._spill is not None:
                with open(self._spill, "ab") as f:
                    f.write(self._pending.tobytes())
                self._spilled += len(self._pending)
            else:
                self._parts.append(np.frombuffer(self._pending, dtype=np.int32).copy())
            self._lengths.append(np.frombuffer(self._pending_lengths, dtype=np.int64).copy())
            self._pending, self._pending_lengths = array("i"), array("q")

    def write(self, folder: Path) -> None:
        """Build the index into `folder` (what `build().save(folder)` writes), matrix and term ids on disk.

        With a spill file the term ids are read back memory-mapped and the score matrix is filled in
        memory-mapped .npy files, so memory does not grow with the corpus; without one this is
        `build().save(folder)`.
        """
        if self._spill is None:
            self.build().save(folder)
            return
        self._seal()
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        lengths = np.concatenate(self._lengths) if self._lengths else np.zeros(0, dtype=np.int64)
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        terms_out = np.lib.format.open_memmap(folder / _TERMS, mode="w+", dtype=np.int32, shape=(self._spilled,))
        if self._spilled:
            spilled = np.memmap(self._spill, dtype=np.int32, mode="r", shape=(self._spilled,))
            for start in range(0, self._spilled, _COPY_BLOCK):
                terms_out[start : start + _COPY_BLOCK] = spilled[start : start + _COPY_BLOCK]
            del spilled
        terms_out.flush()
        Path(self._spill).unlink(missing_ok=True)
        np.save(folder / _OFFSETS, offsets)
        with open(folder / _VOCAB, "w", encoding="utf-8") as f:
            json.dump(self.vocab, f, ensure_ascii=False)
        if len(lengths) and self.vocab and self._spilled:
            model = _bm25s_model(terms_out, offsets, self.vocab, self.config, out=folder)
            _save_model_params(model, folder, len(lengths))
        del terms_out
        (folder / "n_docs.txt").write_text(str(len(lengths)))
        self._lengths = []

    def build(self) -> BM25Index:
        self._seal()
        terms = np.concatenate(self._parts) if self._parts else np.zeros(0, dtype=np.int32)
        lengths = np.concatenate(self._lengths) if self._lengths else np.zeros(0, dtype=np.int64)
        self._parts, self._lengths = [], []  # free the pieces before the score matrix is built
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        index = BM25Index(self.config, n_docs=len(lengths))
        if len(lengths) and self.vocab and len(terms):
            index._model = _bm25s_model(terms, offsets, self.vocab, self.config)
        index._terms, index._offsets = terms, offsets
        index._vocab = self.vocab
        self._parts, self._lengths = [], []
        return index


def _save_model_params(model, folder: Path, n_docs: int) -> None:
    """The vocabulary and parameter files `bm25s.BM25.save` writes beside a matrix already on disk."""
    import bm25s

    with open(folder / "vocab.index.json", "w", encoding="utf-8") as f:
        json.dump(model.vocab_dict, f, ensure_ascii=False)
    params = dict(
        k1=model.k1,
        b=model.b,
        delta=model.delta,
        method=model.method,
        idf_method=model.idf_method,
        dtype=model.dtype,
        int_dtype=model.int_dtype,
        num_docs=n_docs,
        version=bm25s.__version__,
        backend=model.backend,
    )
    with open(folder / "params.index.json", "w") as f:
        json.dump(params, f, indent=4)


def _bm25s_model(
    terms: np.ndarray, offsets: np.ndarray, vocab: dict[str, int], config: BM25Config, out: Path | None = None
):
    """A bm25s model with the same scores `bm25s.BM25.index` computes, from flat term ids.

    out: a folder to fill the score matrix in as memory-mapped .npy files (bm25s's names), so the
    matrix never has to fit in memory; the returned model's arrays are those maps.

    bm25s counts terms with a Counter per document (a Python loop over every chunk); here one
    np.unique over (doc, term) pairs does it, which is what keeps `Corpus.add` cheap at 100k chunks.
    The bm25l/bm25+ variants need bm25s's non-occurrence array, so they use bm25s's own path.
    """
    import bm25s
    import scipy.sparse as sp
    from bm25s.scoring import _select_idf_scorer, _select_tfc_scorer

    model = bm25s.BM25(method=config.method, k1=config.k1, b=config.b)
    n_docs, n_vocab = len(offsets) - 1, len(vocab)
    lengths = np.diff(offsets)
    if config.method in model.methods_requiring_nonoccurrence:
        if out is not None:
            raise ValueError(f"BM25 method {config.method!r} cannot be built on disk; build it in memory")
        docs = [terms[offsets[i] : offsets[i + 1]].tolist() for i in range(n_docs)]
        model.index((docs, vocab), show_progress=False)
        return model

    # The CSC matrix is filled block by block, in two passes over blocks of documents (document
    # frequencies first, then scores scattered into their columns), so besides the matrix itself
    # memory holds one block's temporaries. A single np.unique over every (doc, term) key held ~5
    # int64 arrays per token of the corpus, and scipy's COO->CSC conversion two more copies of the
    # matrix: the build's memory peak at 200k chunks. Blocks run in document order, so each
    # column's rows come out ascending, as scipy orders them.
    def block_pairs(start: int, stop: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        block = np.asarray(terms[offsets[start] : offsets[stop]], dtype=np.int64)
        doc_of = np.repeat(np.arange(start, stop, dtype=np.int64), lengths[start:stop])
        pairs, tf = np.unique(doc_of * n_vocab + block, return_counts=True)
        return (pairs // n_vocab).astype(np.int32), (pairs % n_vocab).astype(np.int32), tf

    blocks = [(start, min(start + _BLOCK_DOCS, n_docs)) for start in range(0, n_docs, _BLOCK_DOCS)]
    df = np.zeros(n_vocab, dtype=np.int64)
    for start, stop in blocks:
        df += np.bincount(block_pairs(start, stop)[1], minlength=n_vocab)
    idf_fn = _select_idf_scorer(model.idf_method)
    idf = np.array([idf_fn(int(d), N=n_docs) for d in df], dtype=np.float32)
    tfc_fn = _select_tfc_scorer(model.method)
    l_avg = float(lengths.mean())
    indptr = np.zeros(n_vocab + 1, dtype=np.int64)
    np.cumsum(df, out=indptr[1:])
    nnz = int(indptr[-1])
    index_dtype = np.int32 if max(nnz, n_docs) < 2**31 else np.int64
    if out is None:
        indices = np.empty(nnz, dtype=index_dtype)
        data = np.empty(nnz, dtype=np.float32)
    else:
        indices = np.lib.format.open_memmap(out / _INDICES, mode="w+", dtype=index_dtype, shape=(nnz,))
        data = np.lib.format.open_memmap(out / _DATA, mode="w+", dtype=np.float32, shape=(nnz,))
    cursor = indptr[:-1].copy()  # next free slot of each column
    for start, stop in blocks:
        doc_idx, term_idx, tf = block_pairs(start, stop)
        tfc = tfc_fn(
            tf_array=tf.astype(np.float32),
            l_d=lengths[doc_idx].astype(np.float32),
            l_avg=l_avg,
            k1=model.k1,
            b=model.b,
            delta=model.delta,
        )
        scores = (idf[term_idx] * tfc).astype(np.float32)
        order = np.argsort(term_idx, kind="stable")  # by column, documents ascending within it
        cols = term_idx[order]
        counts = np.bincount(cols, minlength=n_vocab)
        first = np.zeros(n_vocab + 1, dtype=np.int64)
        np.cumsum(counts, out=first[1:])
        slots = cursor[cols] + (np.arange(len(cols), dtype=np.int64) - first[cols])
        indices[slots] = doc_idx[order]
        data[slots] = scores[order]
        cursor += counts
    if out is not None:
        data.flush()
        indices.flush()
        np.save(out / _INDPTR, indptr.astype(index_dtype))
        model.scores = {"data": data, "indices": indices, "indptr": indptr.astype(index_dtype), "num_docs": n_docs}
        model.vocab_dict = vocab
        model.nonoccurrence_array = None
        return model
    matrix = sp.csc_matrix((data, indices, indptr.astype(index_dtype)), shape=(n_docs, n_vocab))
    model.scores = {"data": matrix.data, "indices": matrix.indices, "indptr": matrix.indptr, "num_docs": n_docs}
    model.vocab_dict = vocab
    model.nonoccurrence_array = None
    return model


class BM25Index:
    """A bm25s index whose document i is row i of the chunk table (plus the term ids it was built from)."""

    def __init__(self, config: BM25Config, model=None, n_docs: int = 0) -> None:
        self.config = config
        self.tokenizer = BM25Tokenizer(stem=config.stem, stopwords=config.stopwords)
        self._model = model
        self.n_docs = n_docs
        self._terms: np.ndarray | None = None
        self._offsets: np.ndarray | None = None
        self._vocab: dict[str, int] | None = None
        self._folder: Path | None = None

    @classmethod
    def build(cls, texts: Sequence[str], config: BM25Config) -> BM25Index:
        builder = BM25Builder(config)
        for text in texts:
            builder.add(text)
        return builder.build()

    def save(self, folder: str | Path) -> None:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        if self._model is not None:
            self._model.save(str(folder), show_progress=False)
        terms, offsets = self.term_ids()
        np.save(folder / _TERMS, terms)
        np.save(folder / _OFFSETS, offsets)
        with open(folder / _VOCAB, "w", encoding="utf-8") as f:
            json.dump(self.vocab(), f, ensure_ascii=False)
        (folder / "n_docs.txt").write_text(str(self.n_docs))

    @classmethod
    def load(cls, folder: str | Path, config: BM25Config) -> BM25Index:
        import bm25s

        folder = Path(folder)
        n_docs = int((folder / "n_docs.txt").read_text())
        model = None
        if n_docs and (folder / "params.index.json").exists():
            # Memory-mapped: the score matrix is read from the page cache, not copied into the process.
            with NPY_LOCK:
                model = bm25s.BM25.load(str(folder), mmap=True, show_progress=False)
        index = cls(config, model=model, n_docs=n_docs)
        index._folder = folder
        return index

    def vocab(self) -> dict[str, int]:
        """Term → id of the saved term ids (loaded on first use)."""
        if self._vocab is None:
            path = self._folder / _VOCAB if self._folder is not None else None
            if path is not None and path.exists():
                self._vocab = json.loads(path.read_text(encoding="utf-8"))
            elif self._model is not None:
                self._vocab = dict(self._model.vocab_dict)
            else:
                self._vocab = {}
        return self._vocab

    def term_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """(flat term ids, row offsets) the index was built from; memory-mapped when loaded.

        Indexes saved before term ids were kept have none: callers then rebuild from text.
        """
        if self._terms is None:
            if self._folder is None or not (self._folder / _TERMS).exists():
                raise FileNotFoundError("this BM25 index has no saved term ids")
            with NPY_LOCK:
                self._terms = np.load(self._folder / _TERMS, mmap_mode="r")
                self._offsets = np.load(self._folder / _OFFSETS)
        return self._terms, self._offsets

    def has_term_ids(self) -> bool:
        return self._terms is not None or (self._folder is not None and (self._folder / _TERMS).exists())

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every row for `query` (zeros when no query term is in the index)."""
        if self._model is None:
            return np.zeros(self.n_docs, dtype=np.float32)
        ids = self._model.get_tokens_ids(self.tokenizer(query))
        if not ids:
            return np.zeros(self.n_docs, dtype=np.float32)
        return self._model.get_scores(ids)

    def top(self, query: str, n: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
        """(row, score) of the `n` best rows with a positive score, best first (ties: lower row first).

        allowed: a boolean mask of the rows that may be returned (a metadata filter); None allows all.
        """
        scores = self.scores(query)
        if allowed is not None:
            scores = np.where(allowed, scores, 0)
        positive = np.flatnonzero(scores > 0)
        if n < 1 or positive.size == 0:
            return []
        if positive.size > n:
            positive = positive[np.argpartition(-scores[positive], n - 1)[:n]]
        # Vectorised sort (score descending, row ascending on ties): a Python sort with a key
        # function cost as much as scoring itself on small corpora.
        order = positive[np.lexsort((positive, -scores[positive]))]
        return list(zip(order.tolist(), scores[order].astype(float).tolist(), strict=True))
