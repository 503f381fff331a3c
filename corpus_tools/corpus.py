"""`Corpus`: a persisted hybrid index — build, open, search, grep, read, add, delete.

Search (SPEC §1): the BM25 and dense legs run in parallel, each over-fetching
leg_k + len(exclude) candidates so exclusions never shrink the result; excluded chunks are
dropped; reciprocal rank fusion (k=60) merges the two rankings; the top 50 fused candidates are
reranked; the best k are returned, then cut to the token budget.

Thread safety: any number of threads may call search/grep/read/chunk at once. Readers take one
snapshot of the in-memory state (chunk table + BM25 index) per call; add/delete build a new
snapshot and swap it in with one assignment. Locks sit only around what is not thread-safe
(the embedder's tokenizer, cache and store writes).
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import shutil
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools import build as _build
from corpus_tools.bm25 import BM25Index
from corpus_tools.config import CorpusConfig, SearchConfig
from corpus_tools.embed import CachedEmbedder, retrieval_text
from corpus_tools.fusion import reciprocal_rank_fusion
from corpus_tools.grep import grep_rows
from corpus_tools.rerank import BiEncoderReranker, NoReranker, check_cross_encoder_folder, make_reranker
from corpus_tools.store import CHROMA_DIR, ChromaStore, embedded_client
from corpus_tools.types import (
    Chunk,
    Embedder,
    Hit,
    IndexFormatError,
    Leg,
    Reranker,
    SkippedFile,
    Tokenizer,
    UnknownDocumentError,
)

_REBUILD_HINT = "Rebuild it with Corpus.build(source, path)."


class _State:
    """An immutable snapshot of the chunk table and its BM25 index."""

    def __init__(self, chunks: list[Chunk], bm25: BM25Index) -> None:
        self.chunks = chunks
        self.texts = [c.text for c in chunks]
        self.bm25 = bm25
        self.row_of = {c.chunk_id: i for i, c in enumerate(chunks)}
        doc_rows: dict[str, list[int]] = {}
        for i, c in enumerate(chunks):
            doc_rows.setdefault(c.doc_id, []).append(i)
        for rows in doc_rows.values():
            rows.sort(key=lambda r: chunks[r].position)
        self.doc_rows = doc_rows


def fit_budget(hits: Sequence[Hit], token_budget: int | None) -> list[Hit]:
    """The leading hits whose chunks fit `token_budget` together.

    Stops at the first chunk that does not fit (no smaller chunk is pulled up past it, so the
    order stays the ranking's); returns nothing rather than exceed the budget.
    """
    if token_budget is None:
        return list(hits)
    kept, used = [], 0
    for hit in hits:
        if used + hit.chunk.n_tokens > token_budget:
            break
        kept.append(hit)
        used += hit.chunk.n_tokens
    return kept


class Corpus:
    """A persisted hybrid (BM25 + dense + RRF + rerank) index over chunked documents.

    Make one with `Corpus.build(source, path)` or `Corpus.open(path)`; don't call the constructor.
    """

    def __init__(
        self,
        path: Path,
        manifest: dict[str, Any],
        config: CorpusConfig,
        state: _State,
        store: ChromaStore,
        embedder: Embedder,
        tokenizer: Tokenizer,
        reranker: Reranker,
        skipped: list[SkippedFile],
    ) -> None:
        self.path = path
        self._manifest = manifest
        self.config = config
        self._state = state
        self._store = store
        self.embedder = embedder
        self.tokenizer = tokenizer
        self.reranker = reranker
        self.skipped = skipped
        self.reranker_note: str | None = None  # set when opened with another reranker than the manifest's
        self._biencoder = BiEncoderReranker(embedder, store.vectors)
        # The BM25 leg runs here while the calling thread runs the dense leg.
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="corpus-bm25")
        self._write_lock = threading.Lock()

    # ------------------------------------------------------------ construction

    @classmethod
    def build(
        cls,
        source: Any,
        path: str | Path,
        config: CorpusConfig | None = None,
        client: Any = None,
        progress: bool = True,
        reranker: str | Path | None = None,
    ) -> Corpus:
        """Index `source` into the folder `path` (replacing any index there, atomically) and open it.

        source: a folder or file path, an iterable of Document (or record dicts), a
        datasets.Dataset, or a LoadReport. client: a chromadb client (e.g. chromadb.HttpClient)
        to keep the vectors on a Chroma server instead of in `path`/chroma. reranker: "none",
        "biencoder" or a CrossEncoder folder, recorded in the manifest (overrides config.search).
        """
        config = config or CorpusConfig()
        if reranker is not None:
            config = dataclasses.replace(config, search=_with_reranker(config.search, reranker))
        elif config.search.reranker.lower() not in ("none", "biencoder", "bi-encoder"):
            config = dataclasses.replace(config, search=_with_reranker(config.search, config.search.reranker))
        final = _build.build_index(source, path, config, client=client, progress=progress)
        return cls.open(final, client=client)

    @classmethod
    def open(
        cls,
        path: str | Path,
        client: Any = None,
        reranker: str | Path | Reranker | None = None,
        search: SearchConfig | None = None,
    ) -> Corpus:
        """Reopen an index folder. reranker: None uses the manifest's; search overrides its SearchConfig.

        A reranker other than the one the index was built with is allowed; `reranker_note` records it.
        """
        path = Path(path).expanduser().absolute()
        manifest = _read_manifest(path)
        config = CorpusConfig.from_dict(manifest["config"])
        if search is not None:
            config = dataclasses.replace(config, search=search)
        embedder = _build.make_embedder(config)
        if embedder.dim != manifest.get("embedding_dim", embedder.dim):
            raise IndexFormatError(
                f"Index {str(path)!r} holds {manifest['embedding_dim']}-d vectors but its model "
                f"{config.embedding_model!r} makes {embedder.dim}-d ones. {_REBUILD_HINT}"
            )
        store = _open_store(path, manifest, client)
        try:
            chunks = _build.read_chunk_table(path / manifest["files"]["chunks"])
            bm25 = BM25Index.load(path / manifest["files"]["bm25"], config.bm25)
        except (OSError, ValueError, KeyError) as exc:
            store.close()
            raise IndexFormatError(f"Index {str(path)!r} is damaged ({exc}). {_REBUILD_HINT}") from exc
        if bm25.n_docs != len(chunks):
            store.close()
            raise IndexFormatError(
                f"Index {str(path)!r} is inconsistent: BM25 has {bm25.n_docs} rows, the chunk table {len(chunks)}. "
                + _REBUILD_HINT
            )
        try:
            chosen = make_reranker(
                reranker if reranker is not None else config.search.reranker, embedder, store.vectors, config.device
            )
        except Exception:
            store.close()
            raise
        skipped = _build.read_skipped(path / _build.SKIPPED)
        opened = cls(
            path,
            manifest,
            config,
            _State(chunks, bm25),
            store,
            embedder,
            _build.make_tokenizer(config),
            chosen,
            skipped,
        )
        built = str(config.search.reranker)
        name = str(getattr(chosen, "name", type(chosen).__name__))
        if name not in (built, f"cross-encoder:{Path(built).expanduser()}"):
            opened.reranker_note = f"opened with reranker {name!r}; the index was built with {built!r}"
        return opened

    def close(self) -> None:
        """Release the thread pool and the embedded store (a server client stays the caller's)."""
        self._pool.shutdown(wait=True)
        self._store.close()

    def __enter__(self) -> Corpus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ lookups

    @property
    def manifest(self) -> dict[str, Any]:
        return json.loads(json.dumps(self._manifest))  # a copy: the manifest on disk is the truth

    def __len__(self) -> int:
        return len(self._state.chunks)

    def __repr__(self) -> str:
        state = self._state
        return f"Corpus({str(self.path)!r}, documents={len(state.doc_rows)}, chunks={len(state.chunks)})"

    def doc_ids(self) -> list[str]:
        return list(self._state.doc_rows)

    def has_doc(self, doc_id: str) -> bool:
        return doc_id in self._state.doc_rows

    def chunk(self, chunk_id: str) -> Chunk:
        state = self._state
        row = state.row_of.get(chunk_id)
        if row is None:
            raise UnknownDocumentError(_unknown("chunk_id", chunk_id, state.row_of))
        return state.chunks[row]

    def chunks(self, doc_id: str) -> list[Chunk]:
        state = self._state
        return [state.chunks[r] for r in self._rows(state, doc_id)]

    def title(self, doc_id: str) -> str | None:
        state = self._state
        first = state.chunks[self._rows(state, doc_id)[0]]
        return first.metadata.get("title") or None

    def count_tokens(self, text: str) -> int:
        """Tokens of `text` in the embedding model's tokenizer (the unit of every token budget)."""
        return self.tokenizer.count(text)

    @staticmethod
    def _rows(state: _State, doc_id: str) -> list[int]:
        rows = state.doc_rows.get(doc_id)
        if rows is None:
            raise UnknownDocumentError(_unknown("doc_id", doc_id, state.doc_rows))
        return rows

    # ------------------------------------------------------------ retrieval

    def search(
        self, query: str, k: int = 10, exclude: Iterable[str] = (), token_budget: int | None = None
    ) -> list[Hit]:
        """Hybrid search: BM25 ∥ dense → drop excluded → RRF → rerank top candidates → top k → budget."""
        if not isinstance(query, str):
            raise ValueError(f"query must be a string, got {type(query).__name__}")
        state = self._state
        excluded = set(exclude)
        if k < 1 or not state.chunks:
            return []
        cfg = self.config.search
        n = cfg.leg_k + len(excluded)
        sparse_future = self._pool.submit(state.bm25.top, query, n)
        query_vector = self.embedder.encode_query([query])[0]  # computed once per search
        dense = [
            (cid, s) for cid, s in self._store.query(query_vector, n) if cid in state.row_of and cid not in excluded
        ]
        sparse = [(state.chunks[row].chunk_id, s) for row, s in sparse_future.result()]
        sparse = [(cid, s) for cid, s in sparse if cid not in excluded]
        legs = {Leg.BM25.value: sparse[: cfg.leg_k], Leg.DENSE.value: dense[: cfg.leg_k]}

        fused = reciprocal_rank_fusion([[cid for cid, _ in ranking] for ranking in legs.values()], k=cfg.rrf_k)
        fused = fused[: cfg.candidates]
        ranks: dict[str, dict[str, int]] = {cid: {} for cid, _ in fused}
        scores: dict[str, dict[str, float]] = {cid: {} for cid, _ in fused}
        for leg, ranking in legs.items():
            for rank, (cid, score) in enumerate(ranking, start=1):
                if cid in ranks:
                    ranks[cid][leg] = rank
                    scores[cid][leg] = float(score)
        for rank, (cid, score) in enumerate(fused, start=1):
            ranks[cid][Leg.FUSED.value] = rank
            scores[cid][Leg.FUSED.value] = float(score)

        candidates = [state.chunks[state.row_of[cid]] for cid, _ in fused]
        final = [float(s) for _, s in fused]
        if not isinstance(self.reranker, NoReranker) and candidates:
            rerank_scores = self._rerank(self.reranker, query, candidates, query_vector)
            order = sorted(range(len(candidates)), key=lambda i: (-float(rerank_scores[i]), i))
            candidates = [candidates[i] for i in order]
            final = [float(rerank_scores[i]) for i in order]
            for rank, chunk in enumerate(candidates, start=1):
                ranks[chunk.chunk_id][Leg.RERANK.value] = rank
                scores[chunk.chunk_id][Leg.RERANK.value] = final[rank - 1]
        hits = [
            Hit(chunk=c, score=s, ranks=ranks[c.chunk_id], scores=scores[c.chunk_id])
            for c, s in zip(candidates[:k], final[:k], strict=True)
        ]
        return fit_budget(hits, token_budget)

    def search_leg(self, query: str, leg: Leg | str, k: int = 10, exclude: Iterable[str] = ()) -> list[Hit]:
        """One leg of hybrid search alone ("bm25" or "dense"): for baselines and per-leg timing."""
        leg = Leg(leg)
        if leg not in (Leg.BM25, Leg.DENSE):
            raise ValueError(f"search_leg takes leg 'bm25' or 'dense', got {leg.value!r}; use search() for hybrid")
        state = self._state
        excluded = set(exclude)
        if k < 1 or not state.chunks:
            return []
        n = k + len(excluded)
        if leg is Leg.BM25:
            ranking = [(state.chunks[row].chunk_id, s) for row, s in state.bm25.top(query, n)]
        else:
            ranking = [(cid, s) for cid, s in self._store.query(self.embedder.encode_query([query])[0], n)]
        ranking = [(cid, s) for cid, s in ranking if cid in state.row_of and cid not in excluded][:k]
        return [
            Hit(chunk=state.chunks[state.row_of[cid]], score=float(s), ranks={leg.value: r}, scores={leg.value: float(s)})
            for r, (cid, s) in enumerate(ranking, start=1)
        ]

    def grep(self, pattern: str, k: int = 5, exclude: Iterable[str] = ()) -> list[Hit]:
        """Chunks whose text matches the RE2 `pattern`, most matches first (ties in index order).

        Matches chunk text only (not titles). InvalidPatternError for a pattern RE2 rejects.
        """
        state = self._state
        skip = {state.row_of[cid] for cid in exclude if cid in state.row_of}
        rows = grep_rows(pattern, state.texts, k, skip)
        return [
            Hit(
                chunk=state.chunks[row],
                score=float(count),
                ranks={Leg.GREP.value: rank},
                scores={Leg.GREP.value: float(count)},
            )
            for rank, (row, count) in enumerate(rows, start=1)
        ]

    def read(self, doc_id: str, query: str | None = None, token_budget: int | None = None) -> list[Hit]:
        """A document's chunks: in position order, or with a query most relevant first; cut to the budget.

        With a query the corpus reranker orders them; when that is "none" the bi-encoder does,
        since ordering by relevance is the point of passing a query.
        """
        state = self._state
        chunks = [state.chunks[r] for r in self._rows(state, doc_id)]
        if query is None:
            hits = [Hit(chunk=c, score=1.0 / (c.position + 1), ranks={Leg.READ.value: c.position + 1}) for c in chunks]
            return fit_budget(hits, token_budget)
        reranker = self._biencoder if isinstance(self.reranker, NoReranker) else self.reranker
        values = self._rerank(reranker, query, chunks, None)
        order = sorted(range(len(chunks)), key=lambda i: (-float(values[i]), chunks[i].position))
        hits = [
            Hit(
                chunk=chunks[i],
                score=float(values[i]),
                ranks={Leg.READ.value: chunks[i].position + 1, Leg.RERANK.value: rank},
                scores={Leg.RERANK.value: float(values[i])},
            )
            for rank, i in enumerate(order, start=1)
        ]
        return fit_budget(hits, token_budget)

    def similarity(self, query: str, chunk_ids: Sequence[str]) -> np.ndarray:
        """Cosine similarity of `query` to each chunk (the dense leg's measure, stored vectors).

        Cheap: one query encode, no document re-embedding. Used for score-guided decisions
        (pruning, answer ranking) by callers that already hold chunk ids. Unknown ids raise
        `UnknownDocumentError`.
        """
        chunks = [self.chunk(cid) for cid in chunk_ids]
        return self._biencoder.score(query, chunks)

    @staticmethod
    def _rerank(reranker: Reranker, query: str, chunks: Sequence[Chunk], query_vector: np.ndarray | None) -> np.ndarray:
        if isinstance(reranker, BiEncoderReranker):
            return reranker.score(query, chunks, query_vector=query_vector)
        return np.asarray(reranker.score(query, chunks), dtype=np.float32)

    # ------------------------------------------------------------ updates

    def add(self, documents: Any) -> int:
        """Index more documents (any source `Corpus.build` takes); a known doc_id is replaced.

        Returns the number of documents indexed. Documents without text are reported in `skipped`.
        """
        with self._write_lock:
            state = self._state
            report = _build.as_report(documents)
            docs, new_chunks, skipped = _build.chunk_report(report, self.tokenizer, self.config)
            if not docs:
                self._commit(state.chunks, [], skipped)
                return 0
            new_ids = {d.doc_id for d in docs}
            stale = [c.chunk_id for c in state.chunks if c.doc_id in new_ids]
            # Vectors first: the store may briefly hold more than the table (search ignores
            # unknown ids), never less.
            _build.embed_into(self._store, new_chunks, self.embedder, self.config.batch_size, progress=False)
            kept = [c for c in state.chunks if c.doc_id not in new_ids]
            fresh = {c.chunk_id for c in new_chunks}
            self._commit(kept + new_chunks, [cid for cid in stale if cid not in fresh], skipped)
            return len(docs)

    def delete(self, doc_ids: Iterable[str]) -> int:
        """Remove documents; unknown ids are ignored. Returns the number of documents removed."""
        if isinstance(doc_ids, str):
            doc_ids = [doc_ids]
        with self._write_lock:
            state = self._state
            gone = {d for d in doc_ids if d in state.doc_rows}
            if not gone:
                return 0
            stale = [c.chunk_id for c in state.chunks if c.doc_id in gone]
            self._commit([c for c in state.chunks if c.doc_id not in gone], stale, [])
            return len(gone)

    def _commit(self, chunks: list[Chunk], stale_ids: Sequence[str], skipped: Sequence[SkippedFile]) -> None:
        """Write a new generation of table + BM25, switch the manifest to it, then drop stale vectors."""
        manifest = json.loads(json.dumps(self._manifest))
        old_files = dict(manifest["files"])
        generation = int(manifest.get("generation", 0)) + 1
        files = {"chunks": f"chunks.{generation}.jsonl", "bm25": f"bm25.{generation}"}
        bm25 = BM25Index.build([retrieval_text(c) for c in chunks], self.config.bm25)
        shutil.rmtree(self.path / files["bm25"], ignore_errors=True)
        bm25.save(self.path / files["bm25"])
        _build.write_chunk_table(self.path / files["chunks"], chunks)
        all_skipped = [*self.skipped, *skipped]
        if skipped:
            _build.write_skipped(self.path / _build.SKIPPED, all_skipped)
        manifest.update(files=files, generation=generation, updated_at=_build.now())
        _build.set_counts(manifest, chunks, len(all_skipped))
        _build.write_json_atomic(self.path / _build.MANIFEST, manifest)
        self._manifest = manifest
        self._state = _State(chunks, bm25)
        self.skipped = all_skipped
        if stale_ids:
            self._store.delete(stale_ids)
        (self.path / old_files["chunks"]).unlink(missing_ok=True)
        shutil.rmtree(self.path / old_files["bm25"], ignore_errors=True)

    @property
    def cache_stats(self) -> dict[str, int]:
        """Embedding-cache hits and misses in this process (zeros when the cache is disabled)."""
        if isinstance(self.embedder, CachedEmbedder):
            return {"hits": self.embedder.cache.hits, "misses": self.embedder.cache.misses}
        return {"hits": 0, "misses": 0}


# ---------------------------------------------------------------- helpers


def _with_reranker(search: SearchConfig, reranker: str | Path) -> SearchConfig:
    """`search` with `reranker`; a CrossEncoder folder is checked now and kept as an absolute path."""
    key = str(reranker)
    if key.lower() in ("none", "biencoder", "bi-encoder"):
        return dataclasses.replace(search, reranker=key.lower())
    path = Path(key).expanduser().absolute()
    check_cross_encoder_folder(path)  # fail before embedding a whole corpus, not after
    return dataclasses.replace(search, reranker=str(path))


def _unknown(kind: str, key: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(key), list(known), n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    return f"Unknown {kind} {key!r}.{hint}"


def _read_manifest(path: Path) -> dict[str, Any]:
    if not path.is_dir():
        raise IndexFormatError(f"No index at {str(path)!r}: the folder does not exist. {_REBUILD_HINT}")
    manifest_path = path / _build.MANIFEST
    if not manifest_path.exists():
        raise IndexFormatError(f"{str(path)!r} is not a context1 index: it has no {_build.MANIFEST}. {_REBUILD_HINT}")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexFormatError(f"The manifest of {str(path)!r} is not valid JSON ({exc}). {_REBUILD_HINT}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != _build.FORMAT:
        raise IndexFormatError(
            f"{str(manifest_path)!r} is not a context1 manifest (format != {_build.FORMAT!r}). {_REBUILD_HINT}"
        )
    version = manifest.get("format_version")
    if version != _build.FORMAT_VERSION:
        raise IndexFormatError(
            f"Index {str(path)!r} has format version {version!r}; this context1 reads version "
            f"{_build.FORMAT_VERSION}. {_REBUILD_HINT}"
        )
    required = ("config", "collection", "vector_store", "files", "embedding_dim")
    missing = [key for key in required if key not in manifest]
    if missing:
        raise IndexFormatError(f"The manifest of {str(path)!r} lacks {missing}. {_REBUILD_HINT}")
    for key in ("chunks", "bm25"):
        name = manifest["files"].get(key) if isinstance(manifest["files"], dict) else None
        if not name or not (path / name).exists():
            raise IndexFormatError(f"Index {str(path)!r} is missing its {key} file {name!r}. {_REBUILD_HINT}")
    return manifest


def _open_store(path: Path, manifest: dict[str, Any], client: Any) -> ChromaStore:
    name = manifest["collection"]
    if client is None:
        if manifest["vector_store"] == "server":
            raise ValueError(
                f"Index {str(path)!r} keeps its vectors on a Chroma server (collection {name!r}); "
                "open it with client=chromadb.HttpClient(host=..., port=...)"
            )
        if not (path / CHROMA_DIR).is_dir():
            raise IndexFormatError(
                f"Index {str(path)!r} is missing its vector store folder {CHROMA_DIR!r}. {_REBUILD_HINT}"
            )
        client, owns = embedded_client(path / CHROMA_DIR), True
    else:
        owns = False
    try:
        return ChromaStore(client, name, create=False, owns_client=owns)
    except Exception as exc:
        if owns:
            client.close()
        raise IndexFormatError(
            f"Collection {name!r} of index {str(path)!r} was not found in the vector store ({exc}). {_REBUILD_HINT}"
        ) from exc
