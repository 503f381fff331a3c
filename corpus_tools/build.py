"""Building an index folder, atomically: read, chunk, embed, write.

The folder's layout, its manifest and generations are `corpus_tools.index_format`'s.

A build writes everything into a sibling staging folder `<path>.building-<pid>` and renames it
into place at the end (the previous index is moved to `<path>.old-<pid>` first, then removed), so
a build killed at any point leaves the previous index intact. The next build removes stale
staging folders (restoring a moved-aside index if the kill fell between the two renames); since
every embedding batch was committed to the content-addressed cache, it re-embeds nothing done.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
import uuid
import warnings
from array import array
from collections.abc import Iterable, Iterator, Sequence, Sized
from dataclasses import asdict
from importlib import metadata as _metadata
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools.bm25 import BM25Builder
from corpus_tools.boilerplate import N_HASHES, score_signatures, signature
from corpus_tools.chunking import chunk_document
from corpus_tools.config import CorpusConfig
from corpus_tools.embed import CachedEmbedder, bm25_text, load_embedder, open_cache, retrieval_text
from corpus_tools.index_format import (
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    SKIPPED,
    STAGING_MARK,
    VECTORS,
    ChunkTableWriter,
    VectorWriter,
    fsync_dir,
    now,
    set_counts,
    write_ann,
    write_atomic,
    write_json_atomic,
    write_line_index,
    write_rows,
    write_skipped,
)
from corpus_tools.loaders import ReadOptions, file_notes, iter_documents, load_documents
from corpus_tools.models import default_tokenizer, resolve_model_path
from corpus_tools.pages import trim_heap
from corpus_tools.rerank import reranker_record
from corpus_tools.seen_ids import SeenDocIds
from corpus_tools.store import (
    CHROMA_DIR,
    ChromaStore,
    drop_collection,
    embedded_client,
    settle_embedded,
    vector_id,
)
from corpus_tools.types import (
    BuildReport,
    Chunk,
    CorpusError,
    Document,
    Embedder,
    FileNote,
    LoadReport,
    NothingToIndexError,
    SkippedFile,
    Tokenizer,
)

# Chunks embedded per group = batch_size * EMBED_GROUP (1,024 by default): large enough that
# sorting a group by length leaves little padding, small enough that memory stays flat.
EMBED_GROUP = 16
SEEN_IDS = ".seen-doc-ids.sqlite"  # the staging folder's scratch file of the ids taken (seen_ids.py)


# ---------------------------------------------------------------- manifest fields


def versions() -> dict[str, str]:
    found = {}
    for dist in ("context1", "chromadb", "sentence-transformers"):  # bm25s: not used (corpus_tools.bm25 is ours)
        try:
            found[dist] = _metadata.version(dist)
        except _metadata.PackageNotFoundError:
            found[dist] = "unknown"
    return found


# ---------------------------------------------------------------- shared steps


def make_embedder(config: CorpusConfig) -> Embedder:
    """The index's embedder, behind the embedding cache unless the config disables it."""
    embedder = load_embedder(config.embedding_model, config.device)
    if config.embedding_cache is None:
        return embedder
    try:
        cache = open_cache(config.embedding_cache)
    except (OSError, sqlite3.Error) as exc:
        # An index opened where its recorded cache folder cannot be written (another user, a
        # read-only home) still works; it just embeds without reuse.
        warnings.warn(
            f"Embedding cache {config.embedding_cache!r} unavailable ({exc}); embedding without it", stacklevel=2
        )
        return embedder
    return CachedEmbedder(embedder, cache)


def make_tokenizer(config: CorpusConfig) -> Tokenizer:
    return default_tokenizer(str(resolve_model_path(config.embedding_model)))


def chunk_report(
    report: LoadReport, tokenizer: Tokenizer, config: CorpusConfig, progress: bool = False
) -> tuple[list[Document], list[Chunk], list[SkippedFile]]:
    """(documents indexed, their chunks in order, skipped entries including documents without chunks)."""
    from tqdm.auto import tqdm

    documents, chunks = [], []
    skipped = list(report.skipped)
    for doc in tqdm(report.documents, desc="chunking", unit="doc", disable=not progress):
        pieces = chunk_document(doc, tokenizer, config.chunking)
        if not pieces:
            skipped.append(SkippedFile(doc.doc_id, "no text to index"))
            continue
        check_given_vector(doc, pieces, config)
        documents.append(doc)
        chunks.extend(pieces)
    return documents, chunks, skipped


def check_given_vector(doc: Document, pieces: Sequence[Chunk], config: CorpusConfig) -> None:
    """Refuse a document's own vector (bring-your-own vectors) that the index's model could not have made.

    Queries are embedded by the index's model, so a vector from another model, or of another
    dimension, would be compared with them meaninglessly: both are named in the error. A vector
    stands for one chunk: a document that makes more is refused too. The dimension is checked
    against the loaded embedder (`given_vectors`).
    """
    if doc.vector is None:
        return
    model = config.embedding_model
    if doc.vector_model is None:
        raise ValueError(
            f"Document {doc.doc_id!r} carries a vector but no vector_model: name the model that made it "
            f"(this index embeds with {model!r})."
        )
    if not _same_model(doc.vector_model, model):
        raise ValueError(
            f"Document {doc.doc_id!r} carries a vector made by {doc.vector_model!r}, but this index embeds with "
            f"{model!r}: its queries would be compared with vectors of another model. Give vectors made by "
            f"{model!r}, or build with CorpusConfig(embedding_model={doc.vector_model!r})."
        )
    if len(pieces) != 1:
        raise ValueError(
            f"Document {doc.doc_id!r} carries one vector but makes {len(pieces)} chunks of "
            f"{config.chunking.chunk_tokens} tokens: give one record per chunk, or raise chunk_tokens."
        )


def _same_model(given: str, model: str) -> bool:
    """Whether `given` names the index's model: its name, or a path or hub-style id ending in it."""
    strip = lambda name: str(name).rstrip("/").rsplit("/", 1)[-1]  # noqa: E731
    return strip(given) == strip(model)


def given_vectors(docs: Sequence[Document], chunks: Sequence[Chunk], embedder: Embedder) -> dict[str, np.ndarray]:
    """chunk id -> the document's own vector, for documents that carry one (checked by check_given_vector)."""
    chunk_of = {c.doc_id: c.chunk_id for c in chunks}  # such a document has exactly one chunk
    found = {}
    for doc in docs:
        if doc.vector is None:
            continue
        if len(doc.vector) != int(embedder.dim):
            raise ValueError(
                f"Document {doc.doc_id!r} carries a {len(doc.vector)}-d vector, but the index's model "
                f"{embedder.name!r} makes {int(embedder.dim)}-d ones."
            )
        found[chunk_of[doc.doc_id]] = np.asarray(doc.vector, dtype=np.float32)
    return found


def embed_into(
    store: ChromaStore | None,
    chunks: Sequence[Chunk],
    embedder: Embedder,
    batch_size: int,
    progress: bool,
    vector_ids: Sequence[str] | None = None,
    given: dict[str, np.ndarray] | None = None,
) -> np.ndarray:
    """Embed `chunks` and upsert them into `store` (None: no store), in batches of similar length; their vectors.

    Batches are cut from the chunks sorted by length: a batch pads every text to its longest,
    so batching in document order spent about half of the encoder's time on padding. Each batch
    is committed to the embedding cache and the store before the next one starts.
    given: vectors computed elsewhere, by chunk id (`given_vectors`): those chunks are not embedded.
    """
    from tqdm.auto import tqdm

    given = given or {}
    todo = sorted((i for i, c in enumerate(chunks) if c.chunk_id not in given), key=lambda i: len(chunks[i].text))
    have = [i for i, c in enumerate(chunks) if c.chunk_id in given]
    batches = [todo[s : s + batch_size] for s in range(0, len(todo), batch_size)]
    batches += [have[s : s + batch_size] for s in range(0, len(have), batch_size)]
    out: np.ndarray | None = None
    with tqdm(total=len(chunks), desc="embedding", unit="chunk", disable=not progress) as bar:
        for picked in batches:
            part = [chunks[i] for i in picked]
            ids = [vector_ids[i] for i in picked] if vector_ids is not None else None
            texts = [retrieval_text(c) for c in part]
            if part[0].chunk_id in given:
                vectors = np.stack([given[c.chunk_id] for c in part])
            else:
                vectors = np.asarray(embedder.encode_document(texts), dtype=np.float32)
            if store is not None:
                store.upsert(part, texts, vectors, ids=ids)
            if out is None:
                out = np.empty((len(chunks), vectors.shape[1]), dtype=np.float32)
            out[picked] = vectors
            bar.update(len(part))
    return out if out is not None else np.zeros((0, int(embedder.dim)), dtype=np.float32)


def as_report(source: Any, read: ReadOptions) -> LoadReport:
    """A LoadReport from any source `load_documents` accepts (a LoadReport passes through), its files read as `read`
    says (`ReadOptions.from_config` of the index's CorpusConfig)."""
    return source if isinstance(source, LoadReport) else load_documents(source, **asdict(read))


def new_manifest(config: CorpusConfig, embedder: Embedder, collection: str, store: str) -> dict[str, Any]:
    """A fresh manifest; store: "embedded", "server" or "matrix" (no Chroma copy: CorpusConfig.chroma)."""
    stamp = now()
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "embedding_model": embedder.name,
        "embedding_dim": int(embedder.dim),
        # The build's device says nothing about where the index will be searched: queries pick their own.
        "config": {**config.to_dict(), "device": None},
        "reranker": reranker_record(config.search.reranker),
        "collection": collection,
        "vector_store": store,
        "versions": versions(),
        "created_at": stamp,
        "updated_at": stamp,
        "generation": 0,
        "files": {"chunks": "chunks.jsonl", "bm25": "bm25"},
        "vector_ids": "content",  # Chroma ids are store.vector_id(chunk), not bare chunk ids
        "document_structure": DOCUMENT_STRUCTURE,
    }


# Version of how files are read into chunks: 1 = pages, sections, tables with their headers, cover-page
# fields, contextual headers and boilerplate scores (issue 35). Absent from indexes built before.
DOCUMENT_STRUCTURE = 1


def structure_note(manifest: dict[str, Any]) -> str | None:
    """What an index built before DOCUMENT_STRUCTURE lacks, and how to add it; None for a current one.

    Such an index opens and searches as it always did. Its PDF chunks have no page, section, table
    headers, cover-page fields, contextual header or boilerplate score: those need the files read
    again, which `Corpus.add`/`sync` do for the files they re-read and a rebuild does for all
    (`context1 repair` rewrites vectors, it does not re-read sources).
    """
    if manifest.get("document_structure"):
        return None
    return ("index built before documents were read with their structure (pages, sections, table headers, "
            "company/period fields, contextual headers, boilerplate): it searches as before; files re-read by "
            "add/sync get them, a rebuild (context1 index SOURCE INDEX) gives them to all")


# ---------------------------------------------------------------- staging


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # our own leftovers (an earlier build in this process that failed)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _siblings(path: Path, tag: str) -> list[tuple[Path, int]]:
    found = []
    for p in path.parent.glob(f"{path.name}.{tag}-*"):
        suffix = p.name[len(f"{path.name}.{tag}-") :]
        if suffix.isdigit():
            found.append((p, int(suffix)))
    return found


def clean_stale(path: Path, client: Any = None) -> None:
    """Remove what killed builds of `path` left behind; refuse if another build is running."""
    for folder, pid in _siblings(path, "building"):
        if _pid_alive(pid):
            raise CorpusError(
                f"Another build of {str(path)!r} is running (process {pid}, staging folder {str(folder)!r}). "
                "Wait for it, or delete that folder if the process is not a build."
            )
        if client is not None:
            try:
                drop_collection(client, json.loads((folder / STAGING_MARK).read_text())["collection"])
            except (OSError, ValueError, KeyError):
                pass  # no mark: the store was embedded in the folder
        shutil.rmtree(folder, ignore_errors=True)
    for folder, pid in _siblings(path, "old"):
        if _pid_alive(pid):
            continue
        if not (path / MANIFEST).exists():
            # Killed between the two renames: the moved-aside index is the current one.
            if path.exists():
                shutil.rmtree(path)
            os.replace(folder, path)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def _check_target(path: Path) -> None:
    if path.exists() and not path.is_dir():
        raise ValueError(f"Index path {str(path)!r} is a file; give a folder path")
    if path.is_dir() and any(path.iterdir()) and not (path / MANIFEST).exists():
        raise ValueError(
            f"{str(path)!r} exists and is not a context1 index (no {MANIFEST}); refusing to replace it. "
            "Give an empty or new folder path."
        )


def build_index(
    source: Any, path: str | Path, config: CorpusConfig, client: Any = None, progress: bool = True
) -> tuple[Path, BuildReport]:
    """Index `source` into the folder `path` atomically (see the module docstring).

    Streams: documents are read, chunked, embedded and written in groups of `EMBED_GROUP`
    batches, so memory holds one group of chunks (plus the BM25 term ids), not the corpus.
    Returns the path and a `BuildReport`.
    """
    started = time.perf_counter()
    path = Path(path).expanduser().absolute()
    _check_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(path, client)
    previous = _previous_collection(path) if client is not None else None
    staging = path.with_name(f"{path.name}.building-{os.getpid()}")
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir()
    store = None
    try:
        embedder = make_embedder(config)
        tokenizer = make_tokenizer(config)
        base = config.collection_name or "context1"
        kind = "server" if client is not None else "embedded" if config.chroma else "matrix"
        if kind == "matrix":
            collection = base  # recorded, never created
        elif kind == "embedded":
            collection = base
            store = ChromaStore(embedded_client(staging / CHROMA_DIR), collection, create=True, owns_client=True)
        else:
            collection = f"{base}-{uuid.uuid4().hex[:12]}"
            write_json_atomic(staging / STAGING_MARK, {"collection": collection})
            store = ChromaStore(client, collection, create=True)
        hits_before, misses_before = _cache_counts(embedder)
        sink = _IndexSink(staging, store, embedder, config, matrix=client is None)
        skipped, notes = _stream_into(sink, source, tokenizer, config, progress)
        sink.flush()
        sink.close()
        sink.score_boilerplate(staging / "chunks.jsonl")
        trim_heap()  # each phase's temporaries leave the process before the next (corpus_tools/pages.py)
        if not sink.n_chunks:
            reasons = "; ".join(f"{s.path}: {s.reason}" for s in skipped[:5]) or "the source is empty"
            raise NothingToIndexError(f"No documents to index ({len(skipped)} skipped: {reasons})", skipped)
        write_skipped(staging / SKIPPED, skipped)
        sink.bm25.write(staging / "bm25")
        trim_heap()
        # Save the dense graph through the last vector, so that every process that opens the
        # index searches the same graph (corpus_tools/store.py says why it would not).
        if store is not None:
            store.save_every_write()
        if kind == "embedded":
            store.close()
            store = None
            settle_embedded(staging / CHROMA_DIR, collection)
        manifest = new_manifest(config, embedder, collection, kind)
        if client is None:  # the dense leg reads this matrix; a server index queries the server
            manifest["files"]["vectors"] = VECTORS
            write_ann(staging, manifest, 0)  # past ann.ANN_MIN_LINES lines, the FAISS index of them
        set_counts(manifest, sink.n_docs, sink.n_chunks, len(skipped), sink.n_tokens)
        (staging / STAGING_MARK).unlink(missing_ok=True)
        write_json_atomic(staging / MANIFEST, manifest)
        if store is not None:
            store.close()  # release the embedded store's files before the folder moves
            store = None
        _swap_into_place(staging, path)
    except BaseException:
        if store is not None:
            if client is not None:
                store.drop()
            store.close()
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if previous is not None and previous != collection:
        drop_collection(client, previous)
    hits, misses = _cache_counts(embedder)
    report = BuildReport(
        documents=sink.n_docs,
        chunks=sink.n_chunks,
        skipped=tuple(skipped),
        notes=tuple(notes),
        seconds=time.perf_counter() - started,
        embed_seconds=sink.embed_seconds,
        cache_hits=hits - hits_before,
        cache_misses=misses - misses_before,
    )
    return path, report


def _cache_counts(embedder: Embedder) -> tuple[int, int]:
    if isinstance(embedder, CachedEmbedder):
        return embedder.cache.hits, embedder.cache.misses
    return 0, 0


class _IndexSink:
    """Where a streaming build puts chunks: vector store, chunk table and BM25 term ids, group by group."""

    def __init__(
        self, folder: Path, store: ChromaStore | None, embedder: Embedder, config: CorpusConfig, matrix: bool = True
    ) -> None:
        self.folder = folder
        self.store = store
        self.embedder = embedder
        self.config = config
        self.table = ChunkTableWriter(folder / "chunks.jsonl")
        self.vectors = VectorWriter(folder / VECTORS, int(embedder.dim)) if matrix else None
        # BM25 term ids go to a file as they come; the score matrix is filled in mapped files.
        self.bm25 = BM25Builder(config.bm25, spill=folder / ".bm25-terms.spill")
        self.pending: list[Chunk] = []
        self.given: dict[str, np.ndarray] = {}  # the pending chunks' own vectors (bring-your-own)
        self.n_docs = self.n_chunks = self.n_tokens = 0
        self.embed_seconds = 0.0
        self.group = config.batch_size * EMBED_GROUP
        # MinHash signatures of structured chunks, for score_boilerplate: spilled to a file as they
        # come (N_HASHES uint64 a row, zeros when too short), with their rows and document numbers
        # in compact arrays, so that memory stays flat in the corpus size.
        self.sig_path = folder / ".boilerplate.spill"
        self._sig_file: Any = None
        self.sig_rows, self.sig_docs, self.sig_valid = array("q"), array("q"), array("b")
        self._last_doc: tuple[str, int] = ("", -1)  # (doc id, number) of the last structured chunk

    def add(self, doc: Document, chunks: Sequence[Chunk]) -> None:
        self.n_docs += 1
        self.pending.extend(chunks)
        self.given.update(given_vectors([doc], chunks, self.embedder))
        if len(self.pending) >= self.group:
            self.flush()

    def flush(self) -> None:
        chunks, self.pending = self.pending, []
        given, self.given = self.given, {}
        if not chunks:
            return
        t0 = time.perf_counter()
        ids = [vector_id(c) for c in chunks]
        vectors = embed_into(
            self.store, chunks, self.embedder, self.config.batch_size, progress=False, vector_ids=ids, given=given
        )
        if self.vectors is not None:
            self.vectors.write(vectors)
        self.embed_seconds += time.perf_counter() - t0
        self.table.write(chunks, ids)
        for row, chunk in enumerate(chunks, start=self.n_chunks):
            self.bm25.add(bm25_text(chunk))
            if chunk.metadata.get("header"):
                # Structured documents only (laid-out PDFs): the benchmarks' records are never compared.
                self._spill_signature(row, chunk)
        self.n_chunks += len(chunks)
        self.n_tokens += sum(c.n_tokens for c in chunks)

    def _spill_signature(self, row: int, chunk: Chunk) -> None:
        if self._sig_file is None:
            self._sig_file = open(self.sig_path, "wb")  # noqa: SIM115 - closed in score_boilerplate
        sig = signature(chunk.text)
        self._sig_file.write((sig if sig is not None else np.zeros(N_HASHES, np.uint64)).tobytes())
        doc, number = self._last_doc
        if chunk.doc_id != doc:  # a document's chunks come together, and ids are unique in a build
            self._last_doc = doc, number = chunk.doc_id, number + 1
        self.sig_rows.append(row)
        self.sig_docs.append(number)
        self.sig_valid.append(sig is not None)

    def score_boilerplate(self, table: Path) -> None:
        """Add "boilerplate" (corpus_tools/boilerplate.py) to the metadata of every structured chunk.

        Needs every document's chunks, so it runs once the table is written: the table is copied
        line by line with the scored rows rewritten (one batch of chunks in memory at a time), and
        so is their metadata in the vector store (their vectors are untouched).
        """
        if self._sig_file is None:
            return
        self._sig_file.close()
        sigs = np.memmap(self.sig_path, dtype=np.uint64, mode="r").reshape(-1, N_HASHES)
        valid = np.frombuffer(self.sig_valid, dtype=np.int8).astype(bool)
        # The near copies found go to files in the staging folder (boilerplate._PairFiles), not memory.
        scores = score_signatures(np.frombuffer(self.sig_docs, dtype=np.int64), sigs, valid, scratch=self.folder)
        del sigs
        self.sig_path.unlink()
        # The scored rows ascend (chunks are spilled in order): walked beside the table's lines,
        # not a {row: score} dict of every structured chunk (≈ 100 bytes each).
        scored_rows = np.frombuffer(self.sig_rows, dtype=np.int64)

        def rewrite(out: Any) -> None:
            at = 0  # the next scored row
            batch: list[tuple[Chunk, str]] = []
            with open(table, "rb") as lines:
                for row, line in enumerate(lines):
                    if at >= len(scored_rows) or scored_rows[at] != row:
                        self._write_scored(out, batch)  # rows stay in order
                        batch = []
                        out.write(line)
                        continue
                    data = json.loads(line)
                    chunk = Chunk(data["chunk_id"], data["doc_id"], data["text"], data["position"], data["n_tokens"],
                                  {**data["metadata"], "boilerplate": float(scores[at])})
                    at += 1
                    batch.append((chunk, data.get("vector_id") or data["chunk_id"]))
                    if len(batch) >= 1024:
                        self._write_scored(out, batch)
                        batch = []
            self._write_scored(out, batch)

        write_atomic(table, rewrite)
        # Scored: the per-chunk arrays (17 bytes a chunk) are not kept through the rest of the build.
        scored_rows = scores = valid = None  # type: ignore[assignment]
        self.sig_rows, self.sig_docs, self.sig_valid = array("q"), array("q"), array("b")
        write_line_index(table)

    def _write_scored(self, out: Any, batch: list[tuple[Chunk, str]]) -> None:
        if not batch:
            return
        chunks, vector_ids = [c for c, _ in batch], [v for _, v in batch]
        write_rows(out, chunks, vector_ids)
        if self.store is not None:
            self.store.update_metadata(chunks, vector_ids)

    def close(self) -> None:
        self.table.close()
        if self.vectors is not None:
            self.vectors.close()


def _stream_into(
    sink: _IndexSink, source: Any, tokenizer: Tokenizer, config: CorpusConfig, progress: bool
) -> tuple[list[SkippedFile], list[FileNote]]:
    """Read, chunk and hand every document of `source` to `sink`; (skipped, notes)."""
    from tqdm.auto import tqdm

    skipped: list[SkippedFile] = []
    notes: list[FileNote] = []
    if isinstance(source, LoadReport):
        skipped.extend(source.skipped)
        notes.extend(source.notes)
        items: Iterable[tuple[Any, str]] = ((doc, doc.doc_id) for doc in source.documents)
        total: int | None = len(source.documents)
        from_report = True
    else:
        total = _count_files(source)
        from_report = False
    # The ids taken so far, for the duplicate check: on disk in the staging folder (corpus_tools/seen_ids.py).
    seen = SeenDocIds(sink.folder / SEEN_IDS)
    bar = tqdm(total=total, desc="indexing", unit="doc", disable=not progress, smoothing=0.05)
    if not from_report:
        # Name the file being read before the loader opens it (one PDF can take seconds).
        items = iter_documents(source, on_file=lambda where: bar.set_description_str(f"indexing {where}"),
                               **asdict(ReadOptions.from_config(config)))
    items = _counted(items, bar)
    with bar, seen:
        for item, where in items:
            if isinstance(item, SkippedFile):
                skipped.append(item)
                continue
            first = seen.first(item.doc_id, where)
            if first is not None:
                skipped.append(SkippedFile(where, f"duplicate doc_id {item.doc_id!r} (first loaded from {first})"))
                continue
            pieces = chunk_document(item, tokenizer, config.chunking)
            if not pieces:
                skipped.append(SkippedFile(item.doc_id, "no text to index"))
                continue
            check_given_vector(item, pieces, config)
            if not from_report:
                notes.extend(file_notes(item, where))
            sink.add(item, pieces)
            bar.set_postfix(chunks=sink.n_chunks + len(sink.pending), skipped=len(skipped), refresh=False)
    return skipped, notes


def _counted(items: Iterable[tuple[Any, str]], bar: Any) -> Iterator[tuple[Any, str]]:
    for item in items:
        yield item
        bar.update(1)


def _count_files(source: Any) -> int | None:
    """Files under a folder source (the progress bar's total), None when unknown or not a folder."""
    if isinstance(source, (str, Path)):
        path = Path(source).expanduser()
        if path.is_file():
            return 1
        if path.is_dir():
            return sum(1 for p in path.rglob("*") if p.is_file())
    if isinstance(source, Sized):
        return len(source)
    return None


def _previous_collection(path: Path) -> str | None:
    try:
        manifest = json.loads((path / MANIFEST).read_text())
        return manifest["collection"] if manifest.get("vector_store") == "server" else None
    except Exception:
        return None


def _swap_into_place(staging: Path, path: Path) -> None:
    if path.exists():
        aside = path.with_name(f"{path.name}.old-{os.getpid()}")
        os.replace(path, aside)
        os.replace(staging, path)
        fsync_dir(path.parent)
        shutil.rmtree(aside, ignore_errors=True)
    else:
        os.replace(staging, path)
        fsync_dir(path.parent)
