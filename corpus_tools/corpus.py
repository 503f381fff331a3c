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
import logging
import re
import statistics
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools import build as _build
from corpus_tools import store_sync
from corpus_tools.bibliography import asks_for_references
from corpus_tools.bibliography import is_section as is_bibliography
from corpus_tools.bm25 import BM25Tokenizer
from corpus_tools.bm25_segments import SegmentedBM25
from corpus_tools.config import CorpusConfig, SearchConfig
from corpus_tools.constraints import FIELDS, MetadataCatalog, check_constraints
from corpus_tools.corpus_kind import CONVERSATION, kind_of_texts, sampled
from corpus_tools.deadline import checked
from corpus_tools.defined_names import (
    asked_defines,
    asked_terms,
    is_question,
    lift_defined,
    names_match,
    query_names,
    split_defines,
)
from corpus_tools.embed import CachedEmbedder
from corpus_tools.figure_prior import has_figure, lower_figureless
from corpus_tools.filters import check_where, matches_where
from corpus_tools.fusion import reciprocal_rank_fusion
from corpus_tools.grep import TIME_LIMIT_S, GrepBuffer, grep_rows
from corpus_tools.index_format import (
    BUILD_REPORT,
    MANIFEST,
    REBUILD_HINT,
    SKIPPED,
    WRITE_LOCK,
    commit_generation,
    read_generation,
    read_manifest,
    read_skipped,
    write_json_atomic,
)
from corpus_tools.learned_fusion import LearnedFusion, is_fusion_folder
from corpus_tools.limits import check_k, check_query
from corpus_tools.line_items import canonical_names, derived_named, expansion
from corpus_tools.loaders import ReadOptions
from corpus_tools.meeting_names import SITTING_LINES, MeetingCatalog
from corpus_tools.metadata_index import FileColumns, MetadataIndex, scan_columns
from corpus_tools.named_section import named_by, show_named_section
from corpus_tools.neighbour_prior import continue_figureless
from corpus_tools.repair import matrix_from_store
from corpus_tools.rerank import (
    BiEncoderReranker,
    NoReranker,
    blend_with_first_stage,
    check_cross_encoder_folder,
    make_reranker,
)
from corpus_tools.row_match import row_labels, row_match_scores
from corpus_tools.section_prior import aside_sections
from corpus_tools.source_reader import SOURCE_SUFFIXES
from corpus_tools.speakers import (
    MIN_TURNS,
    backchannel_share,
    label_speaker,
    line_speakers,
    named_speakers,
    share_of,
    turns,
)
from corpus_tools.store import CHROMA_DIR, ChromaStore, chunk_metadata, embedded_client, vector_id
from corpus_tools.table import ChunkTable
from corpus_tools.table_pieces import WINDOW, prose_beside_tables
from corpus_tools.types import (
    BuildReport,
    Chunk,
    Embedder,
    FileNote,
    GrepResult,
    Hit,
    IndexFormatError,
    InvalidPatternError,
    Leg,
    Reranker,
    SkippedFile,
    Tokenizer,
    UnknownDocumentError,
)
from corpus_tools.update import SyncReport, sync_folder
from corpus_tools.vectors import VectorMatrix

logger = logging.getLogger("corpus_tools")


# `_State.transcript()`'s kind: a conversation whose passages hold several turns (where `SearchConfig.speaker_lift` reads)
_TRANSCRIPT = "transcript"


class _State:
    """An immutable snapshot of the chunk table (read from disk on demand), its BM25 index and vectors.

    vectors: the memory-mapped vector matrix the dense leg searches (None: an index written before
    it existed, or one on a Chroma server; the dense leg then asks Chroma).
    """

    def __init__(self, chunks: ChunkTable, bm25: SegmentedBM25, vectors: VectorMatrix | None = None) -> None:
        self.chunks = chunks
        self.bm25 = bm25
        self.vectors = vectors
        self._grep_buffer: GrepBuffer | None = None
        self._grep_lock = threading.Lock()
        self._masks: dict[str, np.ndarray] = {}
        self._catalogs: dict[bool, MetadataCatalog] = {}  # with and without the meetings a question may name
        self._kinds: dict[bool, str] = {}  # transcript()'s reading, with and without committee labels
        self._has_key: dict[str, bool] = {}
        self._metadata: MetadataIndex | None = None

    @property
    def lines(self) -> np.ndarray | None:
        return self.chunks.lines

    def has_key(self, key: str) -> bool:
        """Whether any row's metadata may hold `key` (a byte search of the table files, cached)."""
        with self._grep_lock:
            found = self._has_key.get(key)
        if found is None:
            found = self.chunks.mentions(json.dumps(key).encode() + b": ")
            with self._grep_lock:
                self._has_key[key] = found
        return found

    def transcript(self, labels: bool = False) -> bool:
        """Whether the index holds conversations whose passages are stretches of several turns (a meeting, a chat
        session), not one turn each: corpus_tools.corpus_kind's conversation (most sampled documents' first chunks
        open with a speaker line, two speakers or more) whose sampled first chunks hold a median of at least
        `speakers.MIN_TURNS` speaker lines. `labels` (SearchConfig.speaker_names): a committee's speaker labels
        ("Hon. Mary Ng (Minister of …): …") count as speaker lines too (`speakers.label_speaker`). Read once each."""
        with self._grep_lock:
            kind = self._kinds.get(labels)
        if kind is None:
            ids = self.chunks.doc_ids()
            rows = [self.chunks.doc_rows(ids[i]) for i in sampled(len(ids))]
            texts = [self.chunks[r[0]].text for r in rows if r]
            kind = kind_of_texts(texts, label_speaker) if labels else kind_of_texts(texts)
            if kind == CONVERSATION and statistics.median(turns(t, labels) for t in texts) >= MIN_TURNS:
                kind = _TRANSCRIPT
            with self._grep_lock:
                self._kinds[labels] = kind
        return kind == _TRANSCRIPT

    def catalog(self, meetings: bool = False) -> MetadataCatalog:
        """The document-level metadata values (company, period, ...), read once from each document's first row.

        Empty without parsing a row when no table file mentions any of those keys (e.g. Wikipedia sets).
        meetings (SearchConfig.meeting_names): with the meetings a question may name (corpus_tools.meeting_names:
        file stems and series from the doc ids; numbered sittings from the first lines of each document, read only
        when some table file says "elcome to", a chair's opening), read once per snapshot, never per query.
        """
        with self._grep_lock:
            catalog = self._catalogs.get(meetings)
        if catalog is None:
            named = self._meeting_catalog() if meetings else None
            if any(self.has_key(key) for key in FIELDS):
                rows = ((doc_id, self.chunks.doc_rows(doc_id)) for doc_id in self.chunks.doc_ids())
                catalog = MetadataCatalog.from_documents(((d, self.chunks[r[0]].metadata) for d, r in rows if r), named)
            else:
                catalog = MetadataCatalog([], named)
            with self._grep_lock:
                self._catalogs[meetings] = catalog
        return catalog

    def _meeting_catalog(self) -> MeetingCatalog:
        ids = self.chunks.doc_ids()
        first_lines: dict[str, str] = {}
        if self.chunks.mentions(b"elcome to"):
            for doc_id in ids:
                rows = self.chunks.doc_rows(doc_id)
                if rows:
                    first_lines[doc_id] = "\n".join(self.chunks[rows[0]].text.split("\n")[:SITTING_LINES])
        return MeetingCatalog(ids, first_lines)

    def allowed_rows(self, where: dict[str, Any] | None) -> np.ndarray | None:
        """Boolean mask of the rows whose metadata passes `where` (None: no filter), cached per filter.

        From the metadata index's columns (numpy, no row parsed); a filter on chunk ids reads
        every row once (streamed, not kept).
        """
        if not where:
            return None
        key = json.dumps(where, sort_keys=True, default=str)
        with self._grep_lock:
            mask = self._masks.get(key)
        doc_ids = _doc_id_filter(where) if mask is None else None
        if doc_ids is not None:  # rows of named documents: found by id, no row parsed
            mask = np.zeros(len(self.chunks), dtype=bool)
            mask[self.chunks.rows_of_docs(doc_ids)] = True
        elif mask is None and MetadataIndex.covers(where):
            mask = self.metadata().mask(where)[self.chunks.row_lines()]
        elif mask is None:
            mask = np.fromiter(
                (matches_where(where, chunk_metadata(c)) for c in checked(iter(self.chunks))),
                dtype=bool,
                count=len(self.chunks),
            )
            with self._grep_lock:
                if len(self._masks) >= 32:
                    self._masks.clear()
                self._masks[key] = mask
        return mask

    def metadata(self) -> MetadataIndex:
        """The table files' metadata columns: saved beside each file, else scanned once (an older index)."""
        with self._grep_lock:
            if self._metadata is None:
                self._metadata = MetadataIndex(
                    FileColumns.load(path, data) or FileColumns(scan_columns(data, lines))
                    for path, data, lines in self.chunks.files()
                )
            return self._metadata

    def grep_buffer(self) -> GrepBuffer:
        """The joined text buffer grep scans, built on first use (a copy of the texts)."""
        with self._grep_lock:
            if self._grep_buffer is None:
                self._grep_buffer = GrepBuffer(checked(self.chunks.texts()))
            return self._grep_buffer


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
        store: Callable[[], ChromaStore],
        embedder: Embedder,
        tokenizer: Tokenizer,
        reranker: Reranker,
        skipped: list[SkippedFile],
    ) -> None:
        self.path = path
        self._manifest = manifest
        self.config = config
        self._state = state
        # The vector store is opened on first use (a write, or the dense leg of an index without a
        # vector matrix): importing chromadb and opening its client cost ~0.75 s of a cold search.
        self._open_store = store
        self._opened_store: ChromaStore | None = None
        self._store_lock = threading.Lock()
        self.embedder = embedder
        self._query_vectors: dict[str, np.ndarray] = {}  # similarity's memo (oldest dropped first)
        self._query_vectors_lock = threading.Lock()
        self.tokenizer = tokenizer
        self.reranker = reranker
        self.skipped = skipped
        self._biencoder = BiEncoderReranker(embedder, self._stored_vectors)
        self.reranker_note: str | None = None  # set when opened with another reranker than the manifest's
        self.structure_note: str | None = None  # set when the index predates documents read with their structure
        # The BM25 leg runs here while the calling thread runs the dense leg.
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="corpus-bm25")
        self._write_lock = threading.Lock()
        # What the build that made this object did (None for an index opened from disk).
        # What the last `Corpus.build` into this folder did (None for an index built before it was kept).
        self.build_report: BuildReport | None = _read_build_report(path)
        self.last_commit_bytes = 0  # chunk-table bytes the last add/delete wrote (benchmarks read it)

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
        "biencoder", a CrossEncoder or a learned-fusion folder, recorded in the manifest (overrides
        config.search).
        A bad file never aborts the build: it is skipped with its reason. What was indexed,
        skipped (and why) and noted is in the returned corpus's `build_report`, and a summary is
        logged (a warning when anything was skipped) on the "corpus_tools" logger.
        """
        config = config or CorpusConfig()
        if reranker is not None:
            config = dataclasses.replace(config, search=_with_reranker(config.search, reranker))
        elif config.search.reranker.lower() not in ("none", "biencoder", "bi-encoder"):
            config = dataclasses.replace(config, search=_with_reranker(config.search, config.search.reranker))
        final, report = _build.build_index(source, path, config, client=client, progress=progress)
        if report.skipped or report.notes:
            logger.warning("%s See Corpus.build_report for every file.", report.summary())
        else:
            logger.info("%s", report.summary())
        # Kept beside the index so that a later `Corpus.open` still knows what the build did.
        record = dataclasses.asdict(report)
        # each skip entry as path and reason (a project file's declared name lives in the index: read_skipped), so
        # that code from before session 46 reads this report too
        record["skipped"] = [{"path": s.path, "reason": s.reason} for s in report.skipped]
        _build.write_json_atomic(Path(final) / BUILD_REPORT, record)
        corpus = cls.open(final, client=client)
        corpus.build_report = report
        return corpus

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
        manifest = read_manifest(path)
        config = CorpusConfig.from_dict(manifest["config"])
        if search is not None:
            config = dataclasses.replace(config, search=search)
        # Loading the query encoder runs in a thread while this one reads table, BM25 and vectors.
        loader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="corpus-open")
        embedder_future = loader.submit(_build.make_embedder, config)
        tokenizer_future = loader.submit(_build.make_tokenizer, config)
        loader.shutdown(wait=False)
        store = _StoreOpener(path, manifest, client)
        try:
            manifest, chunks, bm25, vectors = read_generation(path, manifest, config)
            if bm25.n_docs != len(chunks):
                raise IndexFormatError(
                    f"Index {str(path)!r} is inconsistent: BM25 has {bm25.n_docs} rows, the chunk table "
                    f"{len(chunks)}. {REBUILD_HINT}"
                )
        except (OSError, ValueError, KeyError) as exc:
            raise IndexFormatError(f"Index {str(path)!r} is damaged ({exc}). {REBUILD_HINT}") from exc
        # The model's own errors (a missing model folder) pass through unchanged.
        embedder = embedder_future.result()
        if embedder.dim != manifest.get("embedding_dim", embedder.dim):
            raise IndexFormatError(
                f"Index {str(path)!r} holds {manifest['embedding_dim']}-d vectors but its model "
                f"{config.embedding_model!r} makes {embedder.dim}-d ones. {REBUILD_HINT}"
            )
        tokenizer = tokenizer_future.result()
        skipped = read_skipped(path / SKIPPED)
        corpus = cls(
            path,
            manifest,
            config,
            _State(chunks, bm25, vectors),
            store,
            embedder,
            tokenizer,
            NoReranker(),
            skipped,
        )
        try:
            chosen = make_reranker(
                reranker if reranker is not None else config.search.reranker,
                embedder,
                corpus._stored_vectors,
                config.device,
            )
        except Exception:
            corpus.close()
            raise
        corpus.reranker = chosen
        built = str(config.search.reranker)
        name = str(getattr(chosen, "name", type(chosen).__name__))
        if name not in (built, f"cross-encoder:{Path(built).expanduser()}"):
            corpus.reranker_note = f"opened with reranker {name!r}; the index was built with {built!r}"
        corpus.structure_note = _build.structure_note(manifest)
        return corpus

    def _stored_vectors(self, chunk_ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors of chunks of the current table, by chunk id (for the bi-encoder)."""
        state = self._state
        rows = {cid: state.chunks.row_of(cid) for cid in chunk_ids}
        if state.vectors is not None:
            known = {cid: row for cid, row in rows.items() if row is not None}
            found_rows = state.vectors.lines(state.chunks.row_lines(list(known.values())))
            return dict(zip(known, found_rows, strict=True))
        wanted = {state.chunks.vector_id(row): cid for cid, row in rows.items() if row is not None}
        found = self._store.vectors(list(wanted))
        return {wanted[vid]: vec for vid, vec in found.items() if vid in wanted}

    def close(self) -> None:
        """Release the thread pool and the embedded store (a server client stays the caller's)."""
        self._pool.shutdown(wait=True)
        with self._store_lock:
            if self._opened_store is not None:
                self._opened_store.close()

    @property
    def _store(self) -> ChromaStore:
        """The Chroma store, opened (and chromadb imported) on first use, and brought in step if behind."""
        with self._store_lock:
            opened = self._opened_store is None
            if opened:
                self._opened_store = self._open_store()
            store = self._opened_store
        # Outside the store lock: catching up takes the write locks, which an add may hold while
        # it asks for the (already open) store.
        if opened and read_manifest(self.path).get(store_sync.BEHIND):
            self._bring_store_in_step(store)
        return store

    def _write_store(self) -> ChromaStore | None:
        """The store an add/delete writes through now; None when it keeps no copy or it is deferred.

        An embedded index with a vector matrix defers its Chroma writes unless this process has
        the collection open already: opening it loads its whole graph (corpus_tools/store_sync.py).
        """
        kind = self._manifest.get("vector_store")
        if kind == "matrix" or (kind == "embedded" and self._state.vectors is not None and self._opened_store is None):
            return None
        return self._store

    def _bring_store_in_step(self, store: ChromaStore) -> None:
        """Write the adds and deletes Chroma missed (store_sync), then clear the manifest's mark."""
        try:
            with self._write_lock, self._index_lock():
                self._reload_if_changed()
                manifest = read_manifest(self.path)
                state = self._state
                if not manifest.get(store_sync.BEHIND) or state.vectors is None:
                    return
                added, removed = store_sync.bring_in_step(store, state.chunks, state.vectors)
                del manifest[store_sync.BEHIND]
                write_json_atomic(self.path / MANIFEST, manifest)
                self._manifest = manifest
                logger.info("Index %s: Chroma brought in step (%d upserted, %d deleted)", self.path, added, removed)
        except OSError as exc:  # a read-only folder: the matrix still answers every search
            warnings.warn(f"Could not bring the Chroma copy of index {str(self.path)!r} in step ({exc})", stacklevel=3)

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
        return f"Corpus({str(self.path)!r}, documents={state.chunks.n_docs()}, chunks={len(state.chunks)})"

    def doc_ids(self) -> list[str]:
        return self._state.chunks.doc_ids()

    def has_doc(self, doc_id: str) -> bool:
        return self._state.chunks.doc_rows(doc_id) is not None

    def chunk(self, chunk_id: str) -> Chunk:
        state = self._state
        row = state.chunks.row_of(chunk_id)
        if row is None:
            raise UnknownDocumentError(_unknown("chunk_id", chunk_id, _near_chunk_ids(state.chunks, chunk_id)))
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
        rows = state.chunks.doc_rows(doc_id)
        if rows is None:
            raise UnknownDocumentError(_unknown("doc_id", doc_id, state.chunks.doc_ids()))
        return rows

    # ------------------------------------------------------------ retrieval

    def search(
        self,
        query: str,
        k: int = 10,
        exclude: Iterable[str] = (),
        token_budget: int | None = None,
        where: dict[str, Any] | None = None,
        constraints: str | dict[str, Any] | None = None,
    ) -> list[Hit]:
        """Hybrid search: BM25 ∥ dense → drop excluded → RRF → rerank top candidates → top k → budget.

        where: a Chroma-style filter on chunk metadata (the document's metadata plus doc_id,
        title, position; e.g. {"file_name": "acme-q3.pdf"} or {"year": {"$gte": 2022}}), applied
        inside Chroma for the dense leg and to the BM25 leg alike.
        constraints: None (default: plain search); "auto" reads them from `query` itself
        (`question_constraints`); or a dict of document metadata values to prefer, e.g.
        {"company": ["Apple Inc."], "period_end": ["2023-07-01"]}. The documents meeting every
        constraint rank first, then those of the named company alone, then the rest: a boost, not
        a filter, so a constraint that matches nothing changes nothing. An index without such
        metadata searches as with None.
        Chunks whose "boilerplate" metadata is high are placed lower (`SearchConfig.boilerplate_weight`).
        EmptyQueryError (a ValueError) for an empty query, as the CLI refuses it: the dense leg
        would rank every chunk against nothing and return confident-looking noise. ValueError for a
        query over MAX_QUERY_CHARS or a k outside 1..MAX_K (`corpus_tools.limits`, the same on every
        surface), TypeError for a k that is not an int; ValueError for constraints that are not None, "auto" or a valid dict. A k past
        `config.search.candidates` widens the fused (and reranked) pool to k.
        """
        return self._search_views(query, [(k, exclude)], token_budget, where, constraints)[0]

    def search_pair(
        self,
        query: str,
        k: int = 10,
        exclude: Iterable[str] = (),
        unexcluded_k: int = 10,
        token_budget: int | None = None,
        where: dict[str, Any] | None = None,
        constraints: str | dict[str, Any] | None = None,
    ) -> tuple[list[Hit], list[Hit]]:
        """`search(query, k, exclude, ...)` and `search(query, unexcluded_k, exclude=(), ...)` in one call.

        An agent that never re-shows a chunk still wants to know where its query ranks the chunks it excluded (which
        chunks this search found again). Excluded chunks leave each leg before fusion, so their ranks cannot be read
        off the excluded search: it takes a second ranking. Here the query is encoded once for both (the encoder is
        most of a search's time); each ranking is then exactly what `search` returns for its arguments.
        """
        check_k(unexcluded_k, "unexcluded_k")
        views = [(k, exclude), (unexcluded_k, ())]
        hits, unexcluded = self._search_views(query, views, token_budget, where, constraints)
        return hits, unexcluded

    def _search_views(
        self,
        query: str,
        views: Sequence[tuple[int, Iterable[str]]],
        token_budget: int | None,
        where: dict[str, Any] | None,
        constraints: str | dict[str, Any] | None,
    ) -> list[list[Hit]]:
        """One ranking per (k, exclude) view of the same query, the query encoded once (see `search`)."""
        check_query(query)
        for k, _ in views:
            check_k(k)
        where = check_where(where)
        state = self._state
        tiers, preferred = self._constraint_tiers(state, query, constraints)
        if not state.chunks:
            return [[] for _ in views]
        encoded: list[np.ndarray] = []

        def query_vector() -> np.ndarray:  # computed once per call, while the first BM25 leg runs
            if not encoded:
                encoded.append(self.embedder.encode_query([query])[0])
            return encoded[0]

        cfg = self.config.search
        lift: dict[str, float] = {}
        if cfg.constraint_boost > 0 and len(tiers) > 1:  # the full match and the company's other documents share one ranking
            lift, tiers = dict.fromkeys(tiers[0], 1.0 + cfg.constraint_boost), [[d for tier in tiers for d in tier]]
        for doc_id in preferred if cfg.period_lift > 0 else ():  # the period most readings agree on, among the others
            lift[doc_id] = lift.get(doc_id, 1.0) * (1.0 + cfg.period_lift)
        # The other names of the line items the query asks about ("gross margin" → "profit"), for the BM25 leg
        # of the narrowed searches below; only on indexes whose chunks may be tables (row match's indexes).
        expand = cfg.line_item_expansion and cfg.row_match_weight > 0 and state.has_key("kind")
        extra = expansion(query) if expand and (tiers or where is not None) else ""
        out = []
        for k, exclude in views:
            excluded = set(exclude)
            hits: list[Hit] = []
            for tier in [*tiers, None]:
                tier_where = where if tier is None else _and_where(where, {"doc_id": {"$in": tier}})
                # Row labels repeat across every filing of a kind: a row match tells which table, not which document,
                # so it ranks only a search already narrowed to named documents (a constraint tier or a where filter).
                narrowed = tier is not None or where is not None
                found = self._ranked(state, query, query_vector, k - len(hits), excluded, tier_where, lift, narrowed,
                                     sparse_query=f"{query} {extra}" if narrowed and extra else None)
                hits.extend(found)
                excluded |= {h.chunk.chunk_id for h in found}
                if len(hits) >= k:
                    break
            out.append(fit_budget(hits, token_budget))
        return out

    def question_constraints(self, question: str) -> dict[str, Any]:
        """The company, period and form `question` names, resolved against this index's document metadata.

        A JSON-able dict: {"company": [...], "period_end": [...] (or "fiscal_year"/"fiscal_quarter" when
        the documents have no period end), "form": [...], "unmatched": [names of companies the corpus
        does not hold], "notes": [what was dropped and why]}; {} for an index without such metadata.
        See corpus_tools.constraints for the rules.
        """
        check_query(question)
        return self._state.catalog(self.config.search.meeting_names).read(question)

    def _constraint_tiers(self, state: _State, query: str, constraints: Any) -> tuple[list[list[str]], set[str]]:
        """The doc-id tiers to rank first (best first), and the documents of the period most readings agree on."""
        if constraints is None:
            return [], set()
        meetings = self.config.search.meeting_names
        if constraints == "auto":
            catalog = state.catalog(meetings)
            if not catalog:
                return [], set()
            read = catalog.read(query)
        elif isinstance(constraints, str):
            raise ValueError(f'constraints must be None, "auto" or a dict of metadata values, got {constraints!r}')
        else:
            catalog, read = state.catalog(meetings), check_constraints(constraints)
        return catalog.tiers(read), catalog.preferred(read)

    def _ranked(
        self,
        state: _State,
        query: str,
        query_vector_of: Callable[[], np.ndarray],
        k: int,
        excluded: set[str],
        where: dict[str, Any] | None,
        lift: Mapping[str, float] | None = None,
        row_match: bool = True,
        sparse_query: str | None = None,
    ) -> list[Hit]:
        """One hybrid ranking of the chunks `where` allows, the `excluded` ones left out: the best k hits.

        lift: doc id → a factor its chunks' fused scores are multiplied by (those meeting every
        constraint, when `SearchConfig.constraint_boost` ranks them among the company's others; the
        period most readings agree on, by `SearchConfig.period_lift`).
        row_match: whether the search is narrowed to named documents: table chunks are then lifted by their best row's
            match (`SearchConfig.row_match_weight`) and passages stating no figure placed lower (`figureless_weight`).
        sparse_query: the BM25 leg's text when it differs from `query` (line-item names added); the dense
        leg and the row match read `query`.
        """
        cfg = self.config.search
        pool = max(cfg.candidates, k)
        leg_k = max(cfg.leg_k, k)
        n = leg_k + len(excluded)
        allowed = state.allowed_rows(where)  # once for both legs (a mask over every row: ~5 ms at 1M rows)
        sparse_future = self._pool.submit(state.bm25.top, sparse_query or query, n, allowed)
        query_vector = query_vector_of()
        # Each leg's rows, named by chunk id (read off the table's packed ids; no row is parsed).
        row_of: dict[str, int] = {}
        dense, sparse = [], []
        for found, ranking in ((self._dense(state, query_vector, n, where, allowed), dense), (sparse_future.result(), sparse)):
            for row, s in found:
                cid = state.chunks.chunk_id(row)
                row_of[cid] = row
                if cid not in excluded:
                    ranking.append((cid, s))
        legs = {Leg.BM25.value: sparse[:leg_k], Leg.DENSE.value: dense[:leg_k]}
        rankings = [[cid for cid, _ in ranking] for ranking in legs.values()]
        reports = row_match and state.has_key("kind")  # narrowed, on an index that may hold table rows (reports)
        tables = reports and cfg.row_match_weight > 0
        if tables and cfg.line_item_rows > 0 and cfg.line_item_names and allowed is not None:
            items = _line_item_tables(state, query, allowed, excluded, cfg.line_item_rows)
            row_of.update(items)
            rankings.append(list(items))
        names = (_query_names(state, query, cfg.defined_words) | asked_terms(query)
                 if cfg.defined_names > 0 and is_question(query) and state.has_key("defines") else set())
        naming = bool(names)
        if naming:  # the chunks defining what the question names: a ranking of their own (BM25 may miss them)
            defining = _defining_chunks(state, query, allowed, excluded, tokens=names)
            row_of.update(defining)
            rankings.append(list(defining))
        fused = reciprocal_rank_fusion(rankings, k=cfg.rrf_k)
        if lift:
            factor = {cid: lift.get(state.chunks.doc_id(row_of[cid]), 1.0) for cid, _ in fused}
            fused = sorted(((cid, s * factor[cid]) for cid, s in fused), key=lambda pair: -pair[1])
        if where is not None and cfg.aside_section_weight > 0 and state.has_key("section"):
            fused = _lower_aside_sections(state, query, fused, row_of, cfg.aside_section_weight)
        if cfg.bibliography_weight > 0 and state.has_key("section") and not asks_for_references(query):
            fused = _lower_bibliography(state, fused, row_of, cfg.bibliography_weight)
        if cfg.speaker_lift > 0 and state.transcript(cfg.speaker_names):
            fused = _lift_named_speakers(state, query, fused, row_of, cfg.speaker_lift, cfg.speaker_names)
        if cfg.backchannel_weight > 0 and state.transcript(cfg.speaker_names):
            fused = _lower_backchannels(state, fused, row_of, cfg.backchannel_weight, cfg.speaker_names)
        if cfg.source_weight > 0 and getattr(self.config, "read_source", False):
            fused = _lower_source(state, query, fused, row_of, cfg.source_weight)
        if naming:
            fused = lift_defined(query, fused, [asked_defines(query, state.chunks[row_of[cid]].metadata) for cid, _ in fused],
                                 cfg.defined_names, tokens=names)
        fused = fused[:pool]
        if tables:
            fused = _lift_row_matches(state, query, fused, row_of, cfg.row_match_weight,
                                      canonical_names if cfg.line_item_names else None)
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

        # Rows are parsed only for chunks that can be returned: all candidates when a reranker
        # reads their text, else the top k (ids were resolved and fused without parsing a row).
        reranking = not isinstance(self.reranker, NoReranker)
        candidates = [state.chunks[row_of[cid]] for cid, _ in (fused if reranking else fused[:k])]
        final = [float(s) for _, s in fused]
        if reranking and candidates:
            if isinstance(self.reranker, LearnedFusion):  # the legs' own numbers, no text read
                ids = [c.chunk_id for c in candidates]
                rerank_scores = self.reranker.score_candidates([ranks[i] for i in ids], [scores[i] for i in ids], cfg.rrf_k)
            else:
                rerank_scores = self._rerank(self.reranker, query, candidates, query_vector)
            order = sorted(range(len(candidates)), key=lambda i: (-float(rerank_scores[i]), i))
            for rank, i in enumerate(order, start=1):
                ranks[candidates[i].chunk_id][Leg.RERANK.value] = rank
                scores[candidates[i].chunk_id][Leg.RERANK.value] = float(rerank_scores[i])
            final = [float(rerank_scores[i]) for i in order]
            if cfg.first_stage_weight > 0:
                order, final = blend_with_first_stage(rerank_scores, cfg.first_stage_weight, cfg.rrf_k)
            candidates = [candidates[i] for i in order]
        # the prose and figure rules read the whole pool (a passage below k may take a slot in the first WINDOW / k)
        prose = tables and cfg.prose_beside_tables
        figures = reports and cfg.figureless_weight > 0
        # an index of earnings calls (a document identity, no laid-out tables): the figure prior with its own weight
        call_figures = (row_match and not reports and cfg.call_figureless_weight > 0 and state.has_key("form"))
        if cfg.boilerplate_weight > 0 and state.has_key("boilerplate"):
            candidates, final = _demote_boilerplate(state, candidates, final, row_of, fused, cfg.boilerplate_weight,
                                                    len(final) if prose or figures or call_figures else k)
        if prose:
            candidates, final = _prose_beside_tables(state, candidates, final, row_of, fused, ranks)
        if figures:  # last: a rule above may have brought a figure-less passage up
            candidates, final = _lower_figureless(state, candidates, final, row_of, fused, cfg.figureless_weight)
            if cfg.continue_figures:
                candidates, final = _continue_figureless(state, candidates, final, excluded, allowed)
        elif call_figures:
            candidates, final = _lower_figureless(state, candidates, final, row_of, fused, cfg.call_figureless_weight)
        if reports and cfg.named_sections and state.has_key("section"):  # last: it reads the order the rules left
            candidates, final = _show_named_section(state, query, candidates, final, row_of, fused)
        for c in candidates[:k]:  # a neighbour read from the table was ranked by no leg
            ranks.setdefault(c.chunk_id, {})
            scores.setdefault(c.chunk_id, {})
        return [
            Hit(chunk=c, score=s, ranks=ranks[c.chunk_id], scores=scores[c.chunk_id])
            for c, s in zip(candidates[:k], final[:k], strict=True)
        ]

    def search_leg(
        self,
        query: str,
        leg: Leg | str,
        k: int = 10,
        exclude: Iterable[str] = (),
        where: dict[str, Any] | None = None,
    ) -> list[Hit]:
        """One leg of hybrid search alone ("bm25" or "dense"): for baselines and per-leg timing."""
        check_query(query)
        check_k(k)
        where = check_where(where)
        leg = Leg(leg)
        if leg not in (Leg.BM25, Leg.DENSE):
            raise ValueError(f"search_leg takes leg 'bm25' or 'dense', got {leg.value!r}; use search() for hybrid")
        state = self._state
        excluded = set(exclude)
        if not state.chunks:
            return []
        n = k + len(excluded)
        if leg is Leg.BM25:
            ranking = [
                (state.chunks.chunk_id(row), s) for row, s in state.bm25.top(query, n, state.allowed_rows(where))
            ]
        else:
            rows = self._dense(state, self.embedder.encode_query([query])[0], n, where)
            ranking = [(state.chunks.chunk_id(row), s) for row, s in rows]
        ranking = [(cid, s) for cid, s in ranking if cid not in excluded][:k]
        return [
            Hit(
                chunk=state.chunks[state.chunks.row_of(cid)],
                score=float(s),
                ranks={leg.value: r},
                scores={leg.value: float(s)},
            )
            for r, (cid, s) in enumerate(ranking, start=1)
        ]

    def _dense(
        self, state: _State, query_vector: np.ndarray, n: int, where: dict[str, Any] | None,
        allowed: np.ndarray | None | bool = False,
    ) -> list[tuple[int, float]]:
        """(row, cosine): exact, from the vector matrix; else from Chroma, keeping vectors the table names.

        With a matrix, `where` is the same row mask the BM25 leg applies (filters.matches_where);
        allowed: that mask when the caller has it (False: not computed yet).
        """
        if state.vectors is not None:
            mask = state.allowed_rows(where) if allowed is False else allowed
            return state.vectors.top(query_vector, n, state.chunks.row_lines(), mask)  # type: ignore[arg-type]
        found = self._store.query(query_vector, n, where=where)
        rows = [(state.chunks.row_of_vector(vid), s) for vid, s in found]
        return [(row, s) for row, s in rows if row is not None]

    def grep(
        self, pattern: str, k: int = 5, exclude: Iterable[str] = (), time_limit: float | None = TIME_LIMIT_S
    ) -> list[Hit]:
        """Chunks whose text matches the RE2 `pattern`, most matches first (ties in index order).

        Matches chunk text only (not titles). Counts are capped at MAX_COUNT per chunk and the
        scan is bounded by `time_limit` seconds; `grep_report` says whether it was cut short.
        InvalidPatternError for a pattern RE2 rejects.
        """
        return list(self.grep_report(pattern, k=k, exclude=exclude, time_limit=time_limit).hits)

    def grep_report(
        self, pattern: str, k: int = 5, exclude: Iterable[str] = (), time_limit: float | None = TIME_LIMIT_S
    ) -> GrepResult:
        """`grep`, with whether the scan covered every chunk (`complete`) and how far it got."""
        try:
            check_query(pattern, what="pattern")
        except ValueError as exc:  # the contract's message, as the pattern error grep callers catch
            raise InvalidPatternError(str(exc)) from None
        check_k(k)
        state = self._state
        skip = {row for cid in exclude if (row := state.chunks.row_of(cid)) is not None}
        texts = state.chunks.text_view()
        scan = grep_rows(pattern, texts, k, skip, buffer=state.grep_buffer(), time_limit=time_limit)
        hits = [
            Hit(
                chunk=state.chunks[row],
                score=float(count),
                ranks={Leg.GREP.value: rank},
                scores={Leg.GREP.value: float(count)},
            )
            for rank, (row, count) in enumerate(scan.rows, start=1)
        ]
        return GrepResult(hits=hits, complete=scan.complete, scanned=scan.scanned, total=scan.total, capped=scan.capped)

    def read(self, doc_id: str, query: str | None = None, token_budget: int | None = None) -> list[Hit]:
        """A document's chunks: in position order, or with a query most relevant first; cut to the budget.

        With a query the corpus reranker orders them; when that is "none" (or a learned fusion, which
        needs a search's leg ranks) the bi-encoder does, since ordering by relevance is the point of
        passing a query.
        """
        state = self._state
        chunks = [state.chunks[r] for r in self._rows(state, doc_id)]
        if query is None:
            hits = [Hit(chunk=c, score=1.0 / (c.position + 1), ranks={Leg.READ.value: c.position + 1}) for c in chunks]
            return fit_budget(hits, token_budget)
        text_free = isinstance(self.reranker, (NoReranker, LearnedFusion))
        reranker = self._biencoder if text_free else self.reranker
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
        return self._biencoder.score(query, chunks, query_vector=self._query_vector(query))

    def _query_vector(self, query: str) -> np.ndarray:
        """The query's embedding, memoised (a policy scores the same question every turn)."""
        with self._query_vectors_lock:
            vec = self._query_vectors.get(query)
        if vec is None:
            vec = self.embedder.encode_query([query])[0]
            with self._query_vectors_lock:
                if len(self._query_vectors) >= 1_024:
                    self._query_vectors.pop(next(iter(self._query_vectors)))
                self._query_vectors[query] = vec
        return vec

    @staticmethod
    def _rerank(reranker: Reranker, query: str, chunks: Sequence[Chunk], query_vector: np.ndarray | None) -> np.ndarray:
        if isinstance(reranker, BiEncoderReranker):
            return reranker.score(query, chunks, query_vector=query_vector)
        return np.asarray(reranker.score(query, chunks), dtype=np.float32)

    # ------------------------------------------------------------ updates

    def add(self, documents: Any) -> int:
        """Index more documents (any source `Corpus.build` takes); a known doc_id is replaced.

        Returns the number of documents indexed; what was skipped (and why) is appended to
        `skipped` and logged. Crash-safe and incremental (see `_commit`).
        """
        with self._write_lock, self._index_lock():
            self._reload_if_changed()
            state = self._state
            report = _build.as_report(documents, ReadOptions.from_config(self.config))
            docs, new_chunks, skipped = _build.chunk_report(report, self.tokenizer, self.config)
            if skipped:
                logger.warning(
                    "Corpus.add skipped %d: %s", len(skipped), "; ".join(f"{s.path}: {s.reason}" for s in skipped[:5])
                )
            if not docs:
                if skipped:
                    self._commit(np.arange(len(state.chunks)), [], [], [], skipped)
                return 0
            new_ids = {d.doc_id for d in docs}
            new_vids = [self._vector_id(c) for c in new_chunks]
            # Vectors first, under content-keyed ids: nothing the committed table names is
            # overwritten, so a kill here leaves the old state whole (plus unnamed vectors).
            given = _build.given_vectors(docs, new_chunks, self.embedder)  # bring-your-own vectors
            new_vectors = _build.embed_into(
                self._write_store(), new_chunks, self.embedder, self.config.batch_size, progress=False,
                vector_ids=new_vids, given=given,
            )
            replaced = state.chunks.rows_of_docs(sorted(new_ids))
            keep = np.setdiff1d(np.arange(len(state.chunks), dtype=np.int64), replaced, assume_unique=True)
            fresh = set(new_vids)
            stale = [vid for r in replaced.tolist() if (vid := state.chunks.vector_id(r)) not in fresh]
            self._commit(keep, new_chunks, new_vids, stale, skipped, new_vectors)
            return len(docs)

    def delete(self, doc_ids: Iterable[str]) -> int:
        """Remove documents; unknown ids are ignored. Returns the number of documents removed."""
        if isinstance(doc_ids, str):
            doc_ids = [doc_ids]
        doc_ids = list(doc_ids)
        with self._write_lock, self._index_lock():
            self._reload_if_changed()
            state = self._state
            gone = {d for d in doc_ids if state.chunks.doc_rows(d) is not None}
            if not gone:
                return 0
            removed = state.chunks.rows_of_docs(sorted(gone))
            keep = np.setdiff1d(np.arange(len(state.chunks), dtype=np.int64), removed, assume_unique=True)
            stale = [state.chunks.vector_id(r) for r in removed.tolist()]
            self._commit(keep, [], [], stale, [])
            return len(gone)

    def sync(
        self, folder: str | Path, glob: str | None = None, on_file: Callable[[str], None] | None = None
    ) -> SyncReport:
        """Re-index only the files of `folder` that were added, changed or removed since (see update.sync_folder).

        on_file: called with each changed file's path (relative to `folder`) just before it is read.
        """
        return sync_folder(self, folder, glob, on_file=on_file)

    def _vector_id(self, chunk: Chunk) -> str:
        # Indexes built before content-keyed vector ids keep bare chunk ids (and their old
        # overwrite-in-place behaviour); rebuilding one moves it to the crash-safe layout.
        return vector_id(chunk) if self._manifest.get("vector_ids") == "content" else chunk.chunk_id

    def _index_lock(self) -> Any:
        """An inter-process lock on the index folder: one writer at a time, across processes."""
        from filelock import FileLock

        return FileLock(str(self.path / WRITE_LOCK), timeout=600)

    def _reload_if_changed(self) -> None:
        """Adopt a generation another process committed since this one was loaded."""
        on_disk = read_manifest(self.path)
        if on_disk.get("generation") == self._manifest.get("generation"):
            return
        manifest, chunks, bm25, vectors = read_generation(self.path, on_disk, self.config)
        self._manifest = manifest
        self._state = _State(chunks, bm25, vectors)
        self.skipped = read_skipped(self.path / SKIPPED)

    def _commit(
        self,
        keep: Sequence[int],
        new_chunks: Sequence[Chunk],
        new_vids: Sequence[str],
        stale_vids: Sequence[str],
        skipped: Sequence[SkippedFile],
        new_vectors: np.ndarray | None = None,
        compact: bool | None = None,
    ) -> None:
        """Write and switch to the next generation (see `index_format.commit_generation`).

        An embedded index without a vector matrix (written before it existed) gets one here: its
        vectors are read from Chroma, and the commit writes them (a compaction).
        """
        state = self._state
        vectors = state.vectors
        if vectors is None and self._manifest.get("vector_store") == "embedded":
            vectors = self._matrix_from_store(state.chunks)
        if vectors is None:
            new_vectors = None
        store = self._write_store()
        current = self._manifest
        if store is None and current.get("vector_store") == "embedded" and (new_chunks or stale_vids):
            current = {**current, store_sync.BEHIND: True}  # Chroma catches up when next opened
        done = commit_generation(
            self.path,
            current,
            state.chunks,
            state.bm25,
            self.config,
            keep,
            new_chunks,
            new_vids,
            self.skipped,
            skipped,
            vectors,
            new_vectors,
            compact,
        )
        self._manifest, self._state = done.manifest, _State(done.table, done.bm25, done.vectors)
        self.skipped, self.last_commit_bytes = done.skipped, done.bytes_written
        if stale_vids and store is not None:
            store.delete(stale_vids)

    def add_document_fields(self) -> int:
        """Give documents indexed before the cover-page fields existed their company, form and period.

        For each document whose chunks carry none of `doc_metadata.DOCUMENT_KEYS`, its own indexed
        text is read as a build reads a file's (`doc_metadata.read_metadata`: the cover, the fiscal words);
        the fields found are written onto every chunk of it, so `where` and `constraints` can use them.
        The text, title, vectors and BM25 terms stay as they are: nothing is re-read or re-embedded
        (the contextual header and boilerplate scores need the files read again: add/sync or a
        rebuild). Returns the number of documents given fields; 0 writes nothing.
        """
        from corpus_tools.doc_metadata import DOCUMENT_KEYS, read_metadata

        with self._write_lock, self._index_lock():
            self._reload_if_changed()
            state = self._state
            changed: list[Chunk] = []
            for doc_id in state.chunks.doc_ids():
                chunks = [state.chunks[r] for r in self._rows(state, doc_id)]
                if any(key in chunks[0].metadata for key in DOCUMENT_KEYS):
                    continue
                # The whole text, as a build reads it: the cover from its first COVER_CHARS, the fiscal quarter from
                # the words anywhere ("first quarter of fiscal year 2024"). Overlapping windows repeat a little text,
                # which counts every quarter named in it alike.
                found = read_metadata("\n".join(c.text for c in chunks))
                if "form" in found and ("company" in found or "period_end" in found):  # a cover, not a stray "Form"
                    changed.extend(dataclasses.replace(c, metadata={**c.metadata, **found}) for c in chunks)
            if not changed:
                return 0
            rows = state.chunks.rows_of_docs(sorted({c.doc_id for c in changed}))
            keep = np.setdiff1d(np.arange(len(state.chunks), dtype=np.int64), rows)
            by_id = {c.chunk_id: c for c in changed}
            ordered = [by_id[state.chunks.chunk_id(int(r))] for r in rows]
            vids = [state.chunks.vector_id(int(r)) for r in rows]
            vectors = state.vectors.lines(state.chunks.row_lines(rows)) if state.vectors is not None else None
            self._commit(keep, ordered, vids, [], [], vectors)  # a new state: its metadata catalog is read afresh
            return len({c.doc_id for c in changed})

    def compact(self) -> None:
        """Rewrite the index as one base (table, BM25, vectors) and retrain its FAISS index (`context1 repair`)."""
        with self._write_lock, self._index_lock():
            self._reload_if_changed()
            self._commit(np.arange(len(self._state.chunks), dtype=np.int64), [], [], [], [], compact=True)

    @property
    def dense_note(self) -> str | None:
        """Why the dense leg searches exactly although the index has a FAISS file (None: nothing to say)."""
        vectors = self._state.vectors
        return vectors.note if vectors is not None else None

    def _matrix_from_store(self, table: ChunkTable) -> VectorMatrix | None:
        """The vectors of every table line read from Chroma (zeros for deleted lines); None if any live one is missing."""
        found = matrix_from_store(self._store, table, int(self._manifest["embedding_dim"]))
        if found is None:
            logger.warning("Index %s: some vectors are missing from Chroma; the dense leg stays on Chroma", self.path)
            return None
        return VectorMatrix([found], found.shape[1])

    @property
    def cache_stats(self) -> dict[str, int]:
        """Embedding-cache hits and misses in this process (zeros when the cache is disabled)."""
        if isinstance(self.embedder, CachedEmbedder):
            return {"hits": self.embedder.cache.hits, "misses": self.embedder.cache.misses}
        return {"hits": 0, "misses": 0}


# ---------------------------------------------------------------- helpers




def _read_build_report(path: Path) -> BuildReport | None:
    try:
        data = json.loads((Path(path) / BUILD_REPORT).read_text(encoding="utf-8"))
        return BuildReport(
            **{**data, "skipped": tuple(SkippedFile(**s) for s in data.get("skipped", ())),
               "notes": tuple(FileNote(**n) for n in data.get("notes", ()))}
        )
    except (OSError, ValueError, TypeError, KeyError):
        return None  # no report (an older index, or one made by add/sync only): nothing to show


def _doc_id_filter(where: dict[str, Any]) -> list[str] | None:
    """The doc ids of a filter that only names documents ({"doc_id": X} or {"doc_id": {"$in": [...]}}), else None."""
    if list(where) != ["doc_id"]:
        return None
    value = where["doc_id"]
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict) and list(value) == ["$in"] and all(isinstance(v, str) for v in value["$in"]):
        return list(value["$in"])
    return None


def _and_where(where: dict[str, Any] | None, extra: dict[str, Any]) -> dict[str, Any]:
    return extra if not where else {"$and": [where, extra]}


_ROW_TERMS = BM25Tokenizer()


DEFINING_CHUNKS = 10  # chunks defining a named name ranked beside the legs (one name is defined once or twice)
DEFINING_SCAN = 2_000  # rows holding the name read for their metadata (a name in every chunk: stop there)
_ITEM_SCAN_LIMIT = 5_000  # rows a narrowed search scans for line-item tables (a few filings: ~250 rows each)


def _query_names(state: _State, query: str, words: bool) -> set[str]:
    """The names a question names (defined_names.query_names): its code-shaped tokens, and with `words`
    (SearchConfig.defined_words) a plain word it asks as a name that this index records as defined ("What does
    openat2 do?"). Defined means a chunk defines the word itself, not a dotted name ending in it (a source
    file's internal `httpx._main.trace` took "What does \"trace\" do?" from the extension's section): one
    bounded grep of the chunk text for the word, then its hits' metadata."""
    if not words:
        return query_names(query)
    texts, buffer = state.chunks.text_view(), state.grep_buffer()

    def defined(word: str) -> bool:
        scan = grep_rows(rf"\b{re.escape(word)}\b", texts, DEFINING_SCAN, buffer=buffer, max_count=1)
        return any(word in split_defines(state.chunks[row].metadata.get("defines")) for row, _count in scan.rows)

    return query_names(query, defined)


def _defining_chunks(state: _State, query: str, allowed: np.ndarray | None, excluded: set[str],
                     n: int = DEFINING_CHUNKS, tokens: set[str] | None = None) -> dict[str, int]:
    """The chunks among `allowed` whose "defines" metadata holds a name the question names
    (corpus_tools.defined_names), in index order: chunk id → row. A third ranking beside BM25 and dense: the
    entry `.. py:data:: SECRET_KEY` opens at the tail of a chunk about other settings, which neither leg puts
    in its top 100 when tutorials repeat the name. Found by one bounded grep for the names' last parts
    (case-insensitive), then each hit's metadata read; {} when none defines them."""
    tokens = query_names(query) | asked_terms(query) if tokens is None else tokens
    parts = sorted({(t.split(".")[-1].split() or [""])[-1].lstrip("-") for t in tokens} - {""})  # "a tablet": "tablet"
    if not parts:
        return {}
    pattern = "(?i)" + "|".join(re.escape(p) for p in parts)
    scan = grep_rows(pattern, state.chunks.text_view(), DEFINING_SCAN, buffer=state.grep_buffer(), max_count=1)
    found: dict[str, int] = {}
    for row, _count in sorted(scan.rows):
        if allowed is not None and not allowed[row]:
            continue
        chunk = state.chunks[row]
        if chunk.chunk_id in excluded:
            continue
        if any(names_match(tokens, name) for name in split_defines(asked_defines(query, chunk.metadata))):
            found[chunk.chunk_id] = row
            if len(found) >= n:
                break
    return found


def _line_item_tables(state: _State, query: str, allowed: np.ndarray, excluded: set[str], n: int) -> dict[str, int]:
    """The table chunks among `allowed` whose rows name the line items `query` names (corpus_tools.line_items),
    most items named first, then in document order (a filing's statements come before its notes): chunk id → row.

    A third ranking beside BM25 and dense for a search narrowed to a few documents: the statement whose
    "Inventories" row answers "inventory levels" may sit in neither leg's top 100 when the question's other
    words are about supply chains. {} when the query names no line item or the narrowing is too wide to scan.
    """
    items = set(canonical_names(query))
    rows = np.flatnonzero(allowed)
    if not items or len(rows) > _ITEM_SCAN_LIMIT:
        return {}
    found: list[tuple[int, int, str]] = []
    for row in rows.tolist():
        chunk = state.chunks[row]
        if chunk.metadata.get("kind") != "table" or chunk.chunk_id in excluded:
            continue
        labels = row_labels(chunk.text)
        named = max(max((len(items & set(canonical_names(label))) for label in labels), default=0),
                    len(derived_named(items, labels)))  # a derived item (gross profit) named by its components
        if named:
            found.append((-named, row, chunk.chunk_id))
    return {cid: row for _, row, cid in sorted(found)[:n]}


def _lift_row_matches(
    state: _State, query: str, fused: list[tuple[str, float]], row_of: dict[str, int], weight: float,
    names_of: Callable[[str], list[str]] | None = None,
) -> list[tuple[str, float]]:
    """The fused ranking with each table chunk's score multiplied by 1 + weight·(its best row's match to the
    query) (corpus_tools.row_match); unchanged when no candidate holds table rows."""
    chunks = [state.chunks[row_of[cid]] for cid, _ in fused]
    if not any(c.metadata.get("kind") == "table" for c in chunks):
        return fused
    texts = [c.text if c.metadata.get("kind") == "table" else "" for c in chunks]
    match = row_match_scores(query, texts, _ROW_TERMS, names_of)
    lifted = [(cid, s * (1.0 + weight * m)) for (cid, s), m in zip(fused, match, strict=True)]
    return sorted(lifted, key=lambda pair: -pair[1])


def _lift_named_speakers(
    state: _State, query: str, fused: list[tuple[str, float]], row_of: dict[str, int], weight: float,
    people: bool = False,
) -> list[tuple[str, float]]:
    """The fused ranking with each candidate's score multiplied by 1 + weight × the share of its speaker lines
    that the speakers the query names say (corpus_tools.speakers); unchanged when it names none of theirs.
    `people` (SearchConfig.speaker_names): a committee's labels read too, and a speaker named as a person."""
    texts = [state.chunks[row_of[cid]].text for cid, _ in fused]
    said = [line_speakers(text, labels=people) for text in texts]
    named = named_speakers(query, {s for lines in said for s in lines}, people=people)
    if not named:
        return fused
    shares = [share_of(lines, named) for lines in said]
    lifted = [(cid, s * (1.0 + weight * share)) for (cid, s), share in zip(fused, shares, strict=True)]
    return sorted(lifted, key=lambda pair: -pair[1])


def _lower_backchannels(
    state: _State, fused: list[tuple[str, float]], row_of: dict[str, int], weight: float, labels: bool,
) -> list[tuple[str, float]]:
    """The fused ranking with each candidate's score multiplied by 1 − weight × the share of its turns that are
    backchannels ("Mm-hmm.", "Yeah, okay.": corpus_tools.speakers.backchannel_share; SearchConfig.backchannel_weight)."""
    shares = [backchannel_share(state.chunks[row_of[cid]].text, labels) for cid, _ in fused]
    lowered = [(cid, s * (1.0 - weight * share)) for (cid, s), share in zip(fused, shares, strict=True)]
    return sorted(lowered, key=lambda pair: -pair[1])


_SOURCE_ENDINGS = tuple(sorted(SOURCE_SUFFIXES))  # str.endswith takes a tuple
# A query that asks about code by name of its kind: the source's definitions are its answer (SearchConfig.source_weight).
_ASKS_CODE = re.compile(r"\b(?:functions?|methods?|class(?:es)?|parameters?|arguments?|return(?:s|ed)?|decorators?|"
                        r"attributes?|signatures?)\b", re.IGNORECASE)


def _lower_source(
    state: _State, query: str, fused: list[tuple[str, float]], row_of: dict[str, int], weight: float,
) -> list[tuple[str, float]]:
    """The fused ranking with the chunks of Python source files (read by source_reader.py) at 1 - weight of their
    score (SearchConfig.source_weight); unchanged when none is, or when the query asks about code by its words
    ("Which function …", "the parameters of …": `_ASKS_CODE`): there the code is the answer, not the prose."""
    if _ASKS_CODE.search(query):
        return fused
    # A folder's document id is its path: read off the packed ids, no chunk's metadata parsed (every search pays it).
    code = [state.chunks.doc_id(row_of[cid]).lower().endswith(_SOURCE_ENDINGS) for cid, _ in fused]
    if not any(code):
        return fused
    lowered = [(cid, s * (1.0 - weight) if low else s) for (cid, s), low in zip(fused, code, strict=True)]
    return sorted(lowered, key=lambda pair: -pair[1])


def _lower_bibliography(
    state: _State, fused: list[tuple[str, float]], row_of: dict[str, int], weight: float,
) -> list[tuple[str, float]]:
    """The fused ranking with the chunks of a PDF's bibliography (a section under a "References" heading:
    corpus_tools.bibliography) at 1 - weight of their score (SearchConfig.bibliography_weight); unchanged when none
    is. Only a PDF's chunks are read (its id is its path, read off the packed ids): a page of documentation's
    "References" section is no paper's reference list."""
    cited = [state.chunks.doc_id(row_of[cid]).lower().endswith(".pdf")
             and is_bibliography(state.chunks[row_of[cid]].metadata.get("section")) for cid, _ in fused]
    if not any(cited):
        return fused
    lowered = [(cid, s * (1.0 - weight) if low else s) for (cid, s), low in zip(fused, cited, strict=True)]
    return sorted(lowered, key=lambda pair: -pair[1])


def _lower_aside_sections(
    state: _State, query: str, fused: list[tuple[str, float]], row_of: dict[str, int], weight: float,
) -> list[tuple[str, float]]:
    """The fused ranking with the chunks of aside sections the query does not name (corpus_tools.section_prior:
    risk factors, legal proceedings, exhibits …) at 1 - weight of their score; unchanged when none is."""
    aside = aside_sections(query, [state.chunks[row_of[cid]].metadata.get("section") for cid, _ in fused])
    if not any(aside):
        return fused
    lowered = [(cid, s * (1.0 - weight) if low else s) for (cid, s), low in zip(fused, aside, strict=True)]
    return sorted(lowered, key=lambda pair: -pair[1])


def _whole_pool(
    state: _State, candidates: list[Chunk], row_of: dict[str, int], fused: list[tuple[str, float]]
) -> list[Chunk]:
    """The candidates extended to the whole fused pool: without a reranker only the top k were read, and a
    re-sort (prose beside tables, the figure prior, boilerplate) may raise one of the pool's rest."""
    return candidates + [state.chunks[row_of[cid]] for cid, _ in fused[len(candidates) :]]


def _prose_beside_tables(
    state: _State,
    candidates: list[Chunk],
    final: list[float],
    row_of: dict[str, int],
    fused: list[tuple[str, float]],
    ranks: dict[str, dict[str, int]],
) -> tuple[list[Chunk], list[float]]:
    """The ranking with the best-ranked prose passage in place of a repeated table piece in the first hits
    (corpus_tools.table_pieces); unchanged unless those hits are all tables. Each hit keeps its score."""
    if len(final) <= WINDOW:
        return candidates, final
    candidates = _whole_pool(state, candidates, row_of, fused)
    # one table = one document and one contextual header (a statement's pieces share its name, columns and units);
    # a table chunk with neither header nor section is its own table
    table_of = [(c.doc_id, c.metadata.get("header") or c.metadata.get("section") or c.chunk_id)
                if c.metadata.get("kind") == "table" else None for c in candidates]
    legs = (Leg.BM25.value, Leg.DENSE.value)
    leg_rank = [min((ranks[c.chunk_id][leg] for leg in legs if leg in ranks[c.chunk_id]), default=None)
                for c in candidates]
    order = prose_beside_tables(table_of, leg_rank)
    return [candidates[i] for i in order], [final[i] for i in order]


def _lower_figureless(
    state: _State,
    candidates: list[Chunk],
    final: list[float],
    row_of: dict[str, int],
    fused: list[tuple[str, float]],
    weight: float,
) -> tuple[list[Chunk], list[float]]:
    """The ranking with passages that state no figure placed lower (corpus_tools.figure_prior); each hit keeps
    its score. The whole pool is read, so a passage with a figure below k can rise into the first k."""
    candidates = _whole_pool(state, candidates, row_of, fused)
    order = lower_figureless([c.text for c in candidates], weight)
    return [candidates[i] for i in order], [final[i] for i in order]


def _continue_figureless(
    state: _State, candidates: list[Chunk], final: list[float], excluded: set[str], allowed: np.ndarray | None,
) -> tuple[list[Chunk], list[float]]:
    """The ranking with each figure-less hit of the first WINDOW replaced by its neighbour that states a figure
    (corpus_tools.neighbour_prior); each place keeps its score. A neighbour outside the candidates is read from
    the table when the search may return it (same filter, not excluded)."""
    by_id = {c.chunk_id: c for c in candidates}

    def chunk(cid: str) -> Chunk | None:
        if cid not in by_id:
            row = state.chunks.row_of(cid)
            if row is None or cid in excluded or (allowed is not None and not allowed[row]):
                return None
            by_id[cid] = state.chunks[row]
        return by_id[cid]

    def figured(cid: str) -> bool | None:
        found = chunk(cid)
        return None if found is None else has_figure(found.text)

    def section(cid: str) -> str | None:
        found = chunk(cid)
        return None if found is None else found.metadata.get("section")

    order = continue_figureless([c.chunk_id for c in candidates], figured, section)
    scores = final + [final[-1] if final else 0.0] * (len(order) - len(final))
    return [by_id[cid] for cid in order], scores


def _show_named_section(
    state: _State,
    query: str,
    candidates: list[Chunk],
    final: list[float],
    row_of: dict[str, int],
    fused: list[tuple[str, float]],
) -> tuple[list[Chunk], list[float]]:
    """The ranking with the section the query names shown in up to SLOTS of the first hits
    (corpus_tools.named_section); each place keeps its score. The whole fused pool is read (a rule above may
    have returned only the top k), each chunk once."""
    seen = {c.chunk_id for c in candidates}
    pool = candidates + [state.chunks[row_of[cid]] for cid, _ in fused if cid not in seen]
    sections = [c.metadata.get("section") for c in pool]
    distinct = sorted({s for s in sections if isinstance(s, str) and s})
    named = dict(zip(distinct, named_by(query, distinct, _ROW_TERMS), strict=True))
    keys = [(c.doc_id, s) if isinstance(s, str) and named.get(s) else None for c, s in zip(pool, sections, strict=True)]
    order = show_named_section(keys)
    if order == list(range(len(pool))):
        return candidates, final
    scores = final + [final[-1] if final else 0.0] * (len(pool) - len(final))
    return [pool[i] for i in order], scores


def _demote_boilerplate(
    state: _State,
    candidates: list[Chunk],
    final: list[float],
    row_of: dict[str, int],
    fused: list[tuple[str, float]],
    weight: float,
    k: int,
) -> tuple[list[Chunk], list[float]]:
    """The ranking with boilerplate placed lower: a chunk of boilerplate b at rank r sorts as if at r·(1 + weight·b).

    Scored down, never removed: a question about certifications still finds them, only below the
    passages that are not the same in every filing. Each hit keeps the score its leg gave it.
    """
    candidates = _whole_pool(state, candidates, row_of, fused)
    share = [float(c.metadata.get("boilerplate") or 0.0) for c in candidates]
    order = sorted(range(len(candidates)), key=lambda i: ((i + 1) * (1 + weight * min(max(share[i], 0.0), 1.0)), i))
    return [candidates[i] for i in order[:k]], [final[i] for i in order[:k]]


def _with_reranker(search: SearchConfig, reranker: str | Path) -> SearchConfig:
    """`search` with `reranker`; a CrossEncoder or learned-fusion folder is checked now and kept as an
    absolute path."""
    key = str(reranker)
    if key.lower() in ("none", "biencoder", "bi-encoder"):
        return dataclasses.replace(search, reranker=key.lower())
    path = Path(key).expanduser().absolute()
    if is_fusion_folder(path):
        LearnedFusion.load(path)  # a damaged file fails here, before embedding a whole corpus
    else:
        check_cross_encoder_folder(path)  # fail before embedding a whole corpus, not after
    return dataclasses.replace(search, reranker=str(path))


def _near_chunk_ids(table: ChunkTable, chunk_id: str) -> list[str]:
    """Chunk ids to suggest for an unknown one: its document's (ids are `<doc_id>#<n>`), else the first 5,000.

    Reading every id of a 200k-chunk table for a hint would cost seconds on an error path.
    """
    rows = table.doc_rows(chunk_id.rsplit("#", 1)[0]) or range(min(len(table), 5000))
    return [table[r].chunk_id for r in rows]


def _unknown(kind: str, key: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(key), list(known), n=3, cutoff=0.6)
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    return f"Unknown {kind} {key!r}.{hint}"


class _StoreOpener:
    """Opens an index's Chroma store when first called; the cheap checks run at construction."""

    def __init__(self, path: Path, manifest: dict[str, Any], client: Any) -> None:
        self.path, self.name, self.client = path, manifest["collection"], client
        self.kind = manifest["vector_store"]
        if client is None and self.kind != "matrix":
            if manifest["vector_store"] == "server":
                raise ValueError(
                    f"Index {str(path)!r} keeps its vectors on a Chroma server (collection {self.name!r}); "
                    "open it with client=chromadb.HttpClient(host=..., port=...)"
                )
            if not (path / CHROMA_DIR).is_dir():
                raise IndexFormatError(
                    f"Index {str(path)!r} is missing its vector store folder {CHROMA_DIR!r}. {REBUILD_HINT}"
                )

    def __call__(self) -> ChromaStore:
        if self.kind == "matrix":
            raise IndexFormatError(
                f"Index {str(self.path)!r} keeps no Chroma copy of its vectors (built with CorpusConfig(chroma=False)); "
                "its vector matrix is the only copy"
            )
        client, owns = self.client, self.client is None
        if owns:
            client = embedded_client(self.path / CHROMA_DIR)
        try:
            store = ChromaStore(client, self.name, create=False, owns_client=owns)
        except Exception as exc:
            if owns:
                client.close()
            raise IndexFormatError(
                f"Collection {self.name!r} of index {str(self.path)!r} was not found in the vector store ({exc}). "
                f"{REBUILD_HINT}"
            ) from exc
        if owns and not store.saves_every_write():
            # An index built before 2026-11-26 keeps up to 999 vectors outside its saved graph, which
            # each process re-inserted in its own order (store.py). Saved once here, before this
            # client's first query, they are the same for every later process.
            try:
                store.settle()
            except Exception as exc:  # a read-only folder: still searchable, as before
                warnings.warn(
                    f"Could not save the dense graph of index {str(self.path)!r} ({exc}); its dense results may "
                    "differ between processes until it is opened writable or rebuilt",
                    stacklevel=3,
                )
        return store
