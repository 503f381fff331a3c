"""The sparse leg: BM25 over the chunk table, with English stemming and stopwords.

We tokenize ourselves (lower-case, `\\w\\w+` words as in bm25s and scikit-learn, optional
stopwords, optional Snowball stemming through PyStemmer), so the query and the corpus are
guaranteed the same tokenization and row i of the index is row i of the chunk table. The score matrix is built here (one vectorised pass, where bm25s loops over every
document in Python) and saved in bm25s's file layout (CSC arrays and JSON parameters), which this
module reads and writes itself: bm25s is not a dependency of context1, and any bm25s release (or
none) may be installed beside it. The layout stays bm25s's so `bm25s.BM25.load` reads our folders
(tests/corpus_tools/test_bm25_parity.py checks it against bm25s 0.3.16, the test set-up's). Scoring
a query sums the matrix columns of its terms. `Corpus.add`/`delete` rebuild the matrix
from the saved term ids of the rows they keep (only new chunks are tokenised).

Scoring variants (corpus_tools.bm25_scoring, after Kamphuis et al., ECIR 2020): "lucene" by
default; "robertson" is the original Okapi BM25 of rank-bm25's BM25Okapi up to a constant factor
(k1 + 1) when every idf is positive. tests/corpus_tools/test_bm25_parity.py compares the scores
with rank-bm25 and with bm25s's public API.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from corpus_tools import bm25_scoring
from corpus_tools.column_files import (  # noqa: F401  NPY_LOCK: re-exported, its historic home
    NPY_LOCK,
    ColumnFile,
    block_sizes,
    merge_sorted,
    remove_sorted,
    save_sorted,
)
from corpus_tools.config import BM25Config
from corpus_tools.pages import release_rows

_TOKEN = re.compile(r"(?u)\b\w\w+\b")
# Term ids the index was built from (so updates re-tokenise only new chunks), beside bm25s's files.
_TERMS, _OFFSETS, _VOCAB = "terms.npy", "term_offsets.npy", "term_vocab.json"
_BLOCK_DOCS = 8192  # documents per block when the score matrix is built
_FILL_PAIRS = 1 << 22  # (document, term) pairs per range of columns when the matrix is filled into files
# bm25s's file names for the CSC score matrix and its parameters (what `bm25s.BM25.load` reads).
_DATA, _INDICES, _INDPTR = "data.csc.index.npy", "indices.csc.index.npy", "indptr.csc.index.npy"
_NONOCC, _BM25S_VOCAB, _PARAMS = "nonoccurrence_array.index.npy", "vocab.index.json", "params.index.json"
# Ours beside them: the term frequency of each stored score, so that scores can be recomputed at
# query time once commits change the corpus-wide statistics (corpus_tools.bm25_segments).
_TF = "tf.csc.index.npy"
# The query-time vocabulary as sorted UTF-8 terms (SortedVocab): a cold search reads three arrays
# instead of parsing vocab.index.json (1.5 s of CPU for 1.06M terms at 1M chunks).
_SORTED_VOCAB = "vocab.sorted.npz"
# The bm25s release whose file layout the folders follow (written into params.index.json, as bm25s
# does); the parity tests load our folders with it.
BM25S_LAYOUT = "0.3.16"
_REMAP_BLOCK = 1 << 18  # term ids mapped to the merged vocabulary per step (a 1 MB temporary)
# A spilled build's vocabulary is kept per block of this many documents (BM25Builder): memory holds one
# block's terms, and `write` merges the blocks' sorted terms from disk.
_VOCAB_BLOCK_DOCS = 65_536


class BM25Tokenizer:
    """Text → BM25 terms. Thread-safe (PyStemmer stemmers are per thread)."""

    def __init__(self, stem: bool = True, stopwords: str | None = "en") -> None:
        self.stem = stem
        self.stopwords = frozenset(bm25_scoring.STOPWORDS_EN) if stopwords == "en" else frozenset()
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
    builds the score matrix straight into memory-mapped files: what a build holds then is 8 bytes
    a chunk and one block's vocabulary, not 4 bytes a token plus the matrix and every term. Past
    `_VOCAB_BLOCK_DOCS` documents the block's terms go to disk sorted (their ids in the spill are
    the block's own), and `write` merges the blocks into one sorted vocabulary (a term's id is its
    rank) and maps each block's ids to it. A vocabulary grows with the corpus (the 1M-chunk
    benchmark has 1.06M terms: ~160 bytes a document as a dict); which id a term gets changes
    no score.
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
        # A spilled build's sealed vocabulary blocks: (first and end term id of the spill they cover, files).
        self._vocab_blocks: list[tuple[int, int, Path]] = []
        self._block_start = 0  # where the current vocabulary block starts in the spill
        self._block_docs = 0
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
                self._block_docs += len(self._pending_lengths)
                if self._block_docs >= _VOCAB_BLOCK_DOCS:
                    self._seal_vocab()
            else:
                self._parts.append(np.frombuffer(self._pending, dtype=np.int32).copy())
            self._lengths.append(np.frombuffer(self._pending_lengths, dtype=np.int64).copy())
            self._pending, self._pending_lengths = array("i"), array("q")

    def _seal_vocab(self) -> None:
        """Write the current vocabulary block's terms, sorted, beside the spill; start an empty one."""
        if self._spilled == self._block_start and not self.vocab:
            return
        stem = Path(f"{self._spill}.vocab{len(self._vocab_blocks)}")
        save_sorted(stem, self.vocab)
        self._vocab_blocks.append((self._block_start, self._spilled, stem))
        self.vocab, self._block_start, self._block_docs = {}, self._spilled, 0

    def _merge_vocab(self, folder: Path) -> tuple[int, list[np.ndarray]]:
        """Merge the blocks' sorted terms into the vocabulary files of `folder`: (terms, each block's id map).

        One pass over every block's terms in UTF-8 order (heapq.merge): the id of a term is its rank,
        written to the JSON vocabularies and the sorted one as it comes; memory holds the id maps
        (4 bytes a term of each block) and the sorted vocabulary's offsets, not a dict of every term.
        """
        stems = [stem for _, _, stem in self._vocab_blocks]
        maps = [np.empty(size, dtype=np.int32) for size in block_sizes(stems)]
        ends = array("q")
        n_terms = 0
        with open(folder / _VOCAB, "w", encoding="utf-8") as vocab_json, open(folder / f"{_SORTED_VOCAB}.blob", "wb") as blob:
            vocab_json.write("{")
            for term, rank, number, local in merge_sorted(stems):
                if rank == n_terms:  # a term not seen before: the next id
                    encoded = term.encode("utf-8")
                    blob.write(encoded)
                    ends.append((ends[-1] if ends else 0) + len(encoded))
                    vocab_json.write(f"{', ' if n_terms else ''}{json.dumps(term, ensure_ascii=False)}: {n_terms}")
                    n_terms += 1
                maps[number][local] = rank
            vocab_json.write("}")
        shutil.copyfile(folder / _VOCAB, folder / _BM25S_VOCAB)
        blob_path = folder / f"{_SORTED_VOCAB}.blob"
        blob_bytes = np.memmap(blob_path, dtype=np.uint8, mode="r") if blob_path.stat().st_size else np.zeros(0, np.uint8)
        with open(folder / _SORTED_VOCAB, "wb") as f:
            np.savez(f, blob=blob_bytes, ends=np.frombuffer(ends, dtype=np.int64), ids=np.arange(n_terms, dtype=np.int64))
        del blob_bytes
        blob_path.unlink()
        for stem in stems:
            remove_sorted(stem)
        return n_terms, maps

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
        self._seal_vocab()
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        lengths = np.concatenate(self._lengths) if self._lengths else np.zeros(0, dtype=np.int64)
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        n_terms, maps = self._merge_vocab(folder)
        terms_out = np.lib.format.open_memmap(folder / _TERMS, mode="w+", dtype=np.int32, shape=(self._spilled,))
        if self._spilled:
            spilled = np.memmap(self._spill, dtype=np.int32, mode="r", shape=(self._spilled,))
            for (first, end, _), ids in zip(self._vocab_blocks, maps, strict=True):
                for start in range(first, end, _REMAP_BLOCK):
                    stop = min(start + _REMAP_BLOCK, end)
                    terms_out[start:stop] = ids[spilled[start:stop]]  # the block's ids → the merged vocabulary's
                    # Pages written or read stay in the page cache, not in this process (corpus_tools/pages.py).
                    release_rows(terms_out, start, stop)
                    release_rows(spilled, start, stop)
            del spilled
        del maps
        self._vocab_blocks = []
        terms_out.flush()
        Path(self._spill).unlink(missing_ok=True)
        np.save(folder / _OFFSETS, offsets)
        if len(lengths) and n_terms and self._spilled:
            matrix = _score_matrix(terms_out, offsets, n_terms, self.config, out=folder)
            _save_params(folder, matrix, self.config, None)
        else:  # no score matrix: no query vocabulary beside it either (as before)
            for name in (_BM25S_VOCAB, _SORTED_VOCAB):
                (folder / name).unlink(missing_ok=True)
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
            index._matrix = _score_matrix(terms, offsets, len(self.vocab), self.config)
        index._terms, index._offsets = terms, offsets
        index._vocab = self.vocab
        return index


@dataclass(frozen=True)
class ScoreMatrix:
    """The BM25 score of every (document, term) pair, as a CSC matrix: column t holds term t's documents.

    data/indices/indptr are scipy's CSC arrays (and bm25s's files); nonoccurrence is the per-term
    score of a document lacking the term (BM25L/BM25+ only, None otherwise), which `data` excludes.
    """

    data: np.ndarray  # (nnz,) float32
    indices: np.ndarray  # (nnz,) document of each score
    indptr: np.ndarray  # (n_vocab + 1,) where each term's column starts
    n_docs: int
    nonoccurrence: np.ndarray | None = None  # (n_vocab,) float32
    tf: np.ndarray | None = None  # (nnz,) uint16: the term frequency behind each score (None: an older index)

    def scores(self, term_ids: Sequence[int]) -> np.ndarray:
        """Score of every document: the sum of the query terms' columns (a repeated term counts again)."""
        ids = np.asarray(term_ids, dtype=np.int64)
        starts, ends = self.indptr[ids], self.indptr[ids + 1]
        rows = np.concatenate([self.indices[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True)])
        weights = np.concatenate([self.data[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True)])
        # One bincount (summing in float64) instead of a scatter-add per term.
        scores = np.bincount(rows, weights=weights, minlength=self.n_docs).astype(np.float32)
        if self.nonoccurrence is not None:
            scores += np.float32(self.nonoccurrence[ids].sum())
        return scores


def _save_params(folder: Path, matrix: ScoreMatrix, config: BM25Config, vocab: dict[str, int] | None) -> None:
    """The vocabulary, parameter and non-occurrence files bm25s writes beside its matrix.

    vocab None: its vocabulary files are written already (a spilled build's `BM25Builder._merge_vocab`).
    """
    if matrix.nonoccurrence is not None:
        np.save(folder / _NONOCC, matrix.nonoccurrence)
    if vocab is not None:
        with open(folder / _BM25S_VOCAB, "w", encoding="utf-8") as f:
            json.dump(vocab, f, ensure_ascii=False)
        SortedVocab.save(folder / _SORTED_VOCAB, vocab)
    params = dict(
        k1=config.k1,
        b=config.b,
        delta=bm25_scoring.BM25_DELTA,
        method=config.method,
        idf_method=config.method,
        dtype="float32",
        int_dtype="int32",
        num_docs=matrix.n_docs,
        version=BM25S_LAYOUT,
        backend="numpy",
    )
    with open(folder / _PARAMS, "w") as f:
        json.dump(params, f, indent=4)


class SortedVocab(Mapping[str, int]):
    """Term → column, read from sorted UTF-8 terms by binary search (no dict of every term built).

    Saved beside the JSON vocabulary from the same dict; `load` refuses (None) a file that does
    not hold `n_columns` terms, so a stale or missing one only costs the JSON parse.
    """

    def __init__(self, blob: bytes, ends: np.ndarray, ids: np.ndarray) -> None:
        self.blob, self.ends, self.ids = blob, ends, ids

    @staticmethod
    def save(path: Path, vocab: Mapping[str, int]) -> None:
        terms = sorted((term.encode("utf-8"), column) for term, column in vocab.items())
        with open(path, "wb") as f:
            np.savez(
                f,
                blob=np.frombuffer(b"".join(t for t, _ in terms), dtype=np.uint8),
                ends=np.cumsum([len(t) for t, _ in terms], dtype=np.int64),
                ids=np.asarray([c for _, c in terms], dtype=np.int64),
            )

    @classmethod
    def load(cls, path: Path, n_columns: int) -> SortedVocab | None:
        try:
            with NPY_LOCK, np.load(path, allow_pickle=False) as saved:
                blob, ends, ids = saved["blob"].tobytes(), saved["ends"], saved["ids"]
        except (OSError, ValueError, KeyError, EOFError):
            return None
        if len(ends) != len(ids) or len(ids) != n_columns or (len(ends) and ends[-1] != len(blob)):
            return None
        return cls(blob, ends, ids)

    def _term(self, i: int) -> bytes:
        return self.blob[int(self.ends[i - 1]) if i else 0 : int(self.ends[i])]

    def __getitem__(self, term: str) -> int:
        key = term.encode("utf-8")
        lo, hi = 0, len(self.ends)
        while lo < hi:  # the first term >= key
            mid = (lo + hi) // 2
            if self._term(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        if lo < len(self.ends) and self._term(lo) == key:
            return int(self.ids[lo])
        raise KeyError(term)

    def __iter__(self) -> Iterator[str]:
        return (self._term(i).decode("utf-8") for i in range(len(self.ends)))

    def __len__(self) -> int:
        return len(self.ends)

    def items(self) -> Iterator[tuple[str, int]]:  # type: ignore[override]
        """Every (term, column) in one pass (a compaction's merged vocabulary), not a search per term."""
        starts = np.concatenate([[0], self.ends[:-1]]).tolist()
        return ((self.blob[a:b].decode("utf-8"), c) for a, b, c in zip(starts, self.ends.tolist(), self.ids.tolist(), strict=True))


class _PairColumns:
    """A matrix build's (document, term, tf) pairs, block by block, in files of a scratch folder inside `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder / f".pairs.tmp-{os.getpid()}"
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.columns = [ColumnFile(self.folder / name, np.int32) for name in ("doc", "term", "tf")]
        self.ends: list[int] = []

    def __enter__(self) -> _PairColumns:
        return self

    def __exit__(self, *exc: object) -> None:
        for column in self.columns:
            column.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def append(self, doc_idx: np.ndarray, term_idx: np.ndarray, tf: np.ndarray) -> None:
        for column, values in zip(self.columns, (doc_idx, term_idx, tf), strict=True):
            column.append(values)
        self.ends.append(self.columns[0].rows)

    def blocks(self) -> Iterator[tuple[np.ndarray, ...]]:
        start = 0
        for end in self.ends:
            yield tuple(column.read(start, end) for column in self.columns)
            start = end


def _score_matrix(
    terms: np.ndarray, offsets: np.ndarray, n_vocab: int, config: BM25Config, out: Path | None = None
) -> ScoreMatrix:
    """The score matrix of documents given as flat term ids split at `offsets`.

    out: a folder to fill the matrix in as memory-mapped .npy files (bm25s's names), so it never
    has to fit in memory; the returned matrix's arrays are those maps.

    bm25s counts terms with a Counter per document (a Python loop over every chunk); here
    np.unique over (doc, term) pairs does it, which is what keeps `Corpus.add` cheap at 100k chunks.
    """
    n_docs = len(offsets) - 1
    lengths = np.diff(offsets)

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
        release_rows(terms, int(offsets[start]), int(offsets[stop]))  # a memory map's pages (pages.py)
        return (pairs // n_vocab).astype(np.int32), (pairs % n_vocab).astype(np.int32), tf

    blocks = [(start, min(start + _BLOCK_DOCS, n_docs)) for start in range(0, n_docs, _BLOCK_DOCS)]
    df = np.zeros(n_vocab, dtype=np.int64)
    # Into mapped files, the (document, term, tf) pairs are counted once and kept in files: the matrix
    # is then filled a range of columns at a time (below), each range a pass over them.
    pairs = _PairColumns(out) if out is not None else None
    for start, stop in blocks:
        doc_idx, term_idx, tf = block_pairs(start, stop)
        df += np.bincount(term_idx, minlength=n_vocab)
        if pairs is not None:
            pairs.append(doc_idx, term_idx, tf)
    method = config.method
    idf = bm25_scoring.idf(method, df, n_docs)
    l_avg = float(lengths.mean())
    nonocc = bm25_scoring.nonoccurrence(method, idf, l_avg, config.k1, config.b)
    indptr = np.zeros(n_vocab + 1, dtype=np.int64)
    np.cumsum(df, out=indptr[1:])
    del df
    nnz = int(indptr[-1])
    index_dtype = np.int32 if max(nnz, n_docs) < 2**31 else np.int64
    if out is None:
        indices = np.empty(nnz, dtype=index_dtype)
        data = np.empty(nnz, dtype=np.float32)
        tfs = np.empty(nnz, dtype=np.uint16)
    else:
        indices = np.lib.format.open_memmap(out / _INDICES, mode="w+", dtype=index_dtype, shape=(nnz,))
        data = np.lib.format.open_memmap(out / _DATA, mode="w+", dtype=np.float32, shape=(nnz,))
        tfs = np.lib.format.open_memmap(out / _TF, mode="w+", dtype=np.uint16, shape=(nnz,))

    def place(doc_idx: np.ndarray, term_idx: np.ndarray, tf: np.ndarray, cursor: np.ndarray, first: int) -> None:
        """Scores of pairs into their columns' next free slots (`cursor[t - first]` for column t)."""
        tfc = bm25_scoring.tfc(method, tf, lengths[doc_idx], l_avg, config.k1, config.b)
        scores = idf[term_idx] * tfc
        if nonocc is not None:
            scores -= nonocc[term_idx]
        order = np.argsort(term_idx, kind="stable")  # by column, documents ascending within it
        cols = term_idx[order]
        # Each pair's place in its column: the column's cursor plus its rank among the block's pairs of
        # that column (arrays the size of the block; two the size of the vocabulary per block before).
        change = np.ones(len(cols), dtype=bool)
        change[1:] = cols[1:] != cols[:-1]
        starts = np.flatnonzero(change)
        present, counts = cols[starts] - first, np.diff(np.append(starts, len(cols)))
        slots = np.repeat(cursor[present] - starts, counts) + np.arange(len(cols), dtype=np.int64)
        indices[slots] = doc_idx[order]
        data[slots] = scores[order]
        tfs[slots] = np.minimum(tf[order], np.iinfo(np.uint16).max)  # a chunk is far shorter than 65,535 tokens
        cursor[present] += counts

    if pairs is None:
        cursor = indptr[:-1].copy()  # next free slot of each column
        for start, stop in blocks:
            place(*block_pairs(start, stop), cursor, 0)
    else:
        # A block of documents writes a few slots into every column it holds, pages all over the three
        # files: at 1M chunks one block dirtied most of their 700 MB, resident until released. A range
        # of columns is one contiguous span of each file, so what is resident is that span.
        with pairs:
            first = 0
            while first < n_vocab:
                last = max(first + 1, int(np.searchsorted(indptr, indptr[first] + _FILL_PAIRS, side="right")) - 1)
                last = min(last, n_vocab)
                cursor = indptr[first:last].copy()
                for doc_idx, term_idx, tf in pairs.blocks():
                    inside = (term_idx >= first) & (term_idx < last)
                    if inside.any():
                        place(doc_idx[inside], term_idx[inside], tf[inside], cursor, first)
                for column in (indices, data, tfs):  # mapped files: the written pages leave this process (pages.py)
                    release_rows(column, int(indptr[first]), int(indptr[last]))
                first = last
    indptr = indptr.astype(index_dtype)
    if out is not None:
        data.flush()
        indices.flush()
        tfs.flush()
        np.save(out / _INDPTR, indptr)
    return ScoreMatrix(data, indices, indptr, n_docs, nonocc, tfs)


class BM25Index:
    """A BM25 index whose document i is row i of the chunk table (plus the term ids it was built from)."""

    def __init__(self, config: BM25Config, n_docs: int = 0) -> None:
        self.config = config
        self.tokenizer = BM25Tokenizer(stem=config.stem, stopwords=config.stopwords)
        self.n_docs = n_docs
        self._matrix: ScoreMatrix | None = None
        self._query_vocab: Mapping[str, int] | None = None  # bm25s's vocab, read on the first query
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
        if self._matrix is not None:
            np.save(folder / _DATA, self._matrix.data)
            np.save(folder / _INDICES, self._matrix.indices)
            np.save(folder / _INDPTR, self._matrix.indptr)
            if self._matrix.tf is not None:
                np.save(folder / _TF, self._matrix.tf)
            _save_params(folder, self._matrix, self.config, self.vocab())
        terms, offsets = self.term_ids()
        np.save(folder / _TERMS, terms)
        np.save(folder / _OFFSETS, offsets)
        with open(folder / _VOCAB, "w", encoding="utf-8") as f:
            json.dump(self.vocab(), f, ensure_ascii=False)
        (folder / "n_docs.txt").write_text(str(self.n_docs))

    @classmethod
    def load(cls, folder: str | Path, config: BM25Config) -> BM25Index:
        folder = Path(folder)
        n_docs = int((folder / "n_docs.txt").read_text())
        index = cls(config, n_docs=n_docs)
        index._folder = folder
        if n_docs and (folder / _PARAMS).exists():
            # Memory-mapped: the score matrix is read from the page cache, not copied into the process.
            with NPY_LOCK:
                data = np.load(folder / _DATA, mmap_mode="r")
                indices = np.load(folder / _INDICES, mmap_mode="r")
                indptr = np.load(folder / _INDPTR)
                nonocc = np.load(folder / _NONOCC) if (folder / _NONOCC).exists() else None
                tf = np.load(folder / _TF, mmap_mode="r") if (folder / _TF).exists() else None
            index._matrix = ScoreMatrix(data, indices, indptr, n_docs, nonocc, tf)
        return index

    def _term_lookup(self) -> Mapping[str, int]:
        """Term → column of the score matrix (the vocabulary bm25s's loader reads, or its sorted copy)."""
        if self._query_vocab is None:
            path = self._folder / _BM25S_VOCAB if self._folder is not None else None
            n_columns = len(self._matrix.indptr) - 1 if self._matrix is not None else -1
            sorted_vocab = SortedVocab.load(self._folder / _SORTED_VOCAB, n_columns) if self._folder else None
            if sorted_vocab is not None:
                self._query_vocab = sorted_vocab
            elif path is not None and path.exists():
                self._query_vocab = json.loads(path.read_text(encoding="utf-8"))
            else:
                self._query_vocab = self.vocab()
        return self._query_vocab

    def vocab(self) -> dict[str, int]:
        """Term → id of the saved term ids (loaded on first use)."""
        if self._vocab is None:
            path = self._folder / _VOCAB if self._folder is not None else None
            if path is not None and path.exists():
                self._vocab = json.loads(path.read_text(encoding="utf-8"))
            elif self._folder is not None and (self._folder / _BM25S_VOCAB).exists():
                self._vocab = dict(self._term_lookup().items())
            else:
                self._vocab = {}
        return self._vocab

    def matrix(self) -> ScoreMatrix | None:
        """The score matrix (None for an empty index)."""
        return self._matrix

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
        if self._matrix is None:
            return np.zeros(self.n_docs, dtype=np.float32)
        lookup = self._term_lookup()
        ids = [lookup[t] for t in self.tokenizer(query) if t in lookup]
        if not ids:
            return np.zeros(self.n_docs, dtype=np.float32)
        return self._matrix.scores(ids)

    def top(self, query: str, n: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
        """(row, score) of the `n` best rows with a positive score, best first (ties: lower row first).

        allowed: a boolean mask of the rows that may be returned (a metadata filter); None allows all.
        """
        return top_rows(self.scores(query), n, allowed)


def top_rows(scores: np.ndarray, n: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
    """(row, score) of the `n` best rows of `scores` with a positive score, best first (ties: lower
    row first); `allowed` masks the rows that may be returned."""
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
