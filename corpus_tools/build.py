"""Building an index folder, atomically, and the files it is made of.

Layout of an index folder:
  manifest.json   format, models, configs, counts, versions, file names (written last)
  chunks.jsonl    the chunk table, one Chunk per line in row order (grep, read, budgets use it)
  bm25/           the bm25s index; row i is line i of the chunk table
  chroma/         the embedded Chroma store (absent when vectors live on a Chroma server)
  skipped.jsonl   what the loader refused, and why

A build writes everything into a sibling staging folder `<path>.building-<pid>` and renames it
into place at the end (the previous index is moved to `<path>.old-<pid>` first, then removed), so
a build killed at any point leaves the previous index intact. The next build removes stale
staging folders (restoring a moved-aside index if the kill fell between the two renames); since
every embedding batch was committed to the content-addressed cache, it re-embeds nothing done.
`Corpus.add`/`delete` write new generations of the chunk table and BM25 index (`chunks.<g>.jsonl`,
`bm25.<g>/`) and then replace the manifest that names them, so readers see old or new, never half.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
import sqlite3
import uuid
import warnings
from collections.abc import Sequence
from importlib import metadata as _metadata
from pathlib import Path
from typing import Any

from corpus_tools.bm25 import BM25Index
from corpus_tools.chunking import chunk_document
from corpus_tools.config import CorpusConfig
from corpus_tools.embed import CachedEmbedder, load_embedder, open_cache, retrieval_text
from corpus_tools.loaders import load_documents
from corpus_tools.models import default_tokenizer, resolve_model_path
from corpus_tools.rerank import reranker_record
from corpus_tools.store import CHROMA_DIR, ChromaStore, drop_collection, embedded_client
from corpus_tools.types import Chunk, CorpusError, Document, Embedder, LoadReport, SkippedFile, Tokenizer

FORMAT = "context1-index"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
SKIPPED = "skipped.jsonl"
STAGING_MARK = "staging.json"  # inside a staging folder: its server collection, for cleanup


# ---------------------------------------------------------------- files


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to a temporary sibling, fsync, then os.replace: readers never see half a file."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_chunk_table(path: Path, chunks: Sequence[Chunk]) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        for c in chunks:
            row = {
                "chunk_id": c.chunk_id,
                "doc_id": c.doc_id,
                "position": c.position,
                "n_tokens": c.n_tokens,
                "text": c.text,
                "metadata": dict(c.metadata),
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_chunk_table(path: Path) -> list[Chunk]:
    chunks = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            chunks.append(
                Chunk(row["chunk_id"], row["doc_id"], row["text"], row["position"], row["n_tokens"], row["metadata"])
            )
    return chunks


def write_skipped(path: Path, skipped: Sequence[SkippedFile]) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        for s in skipped:
            f.write(json.dumps({"path": s.path, "reason": s.reason}, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def read_skipped(path: Path) -> list[SkippedFile]:
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        return [SkippedFile(**json.loads(line)) for line in f if line.strip()]


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def versions() -> dict[str, str]:
    found = {}
    for dist in ("context1", "chromadb", "bm25s", "sentence-transformers"):
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
        documents.append(doc)
        chunks.extend(pieces)
    return documents, chunks, skipped


def embed_into(
    store: ChromaStore, chunks: Sequence[Chunk], embedder: Embedder, batch_size: int, progress: bool
) -> None:
    """Embed `chunks` batch by batch (each batch committed to the cache) and upsert them into `store`."""
    from tqdm.auto import tqdm

    with tqdm(total=len(chunks), desc="embedding", unit="chunk", disable=not progress) as bar:
        for start in range(0, len(chunks), batch_size):
            part = chunks[start : start + batch_size]
            texts = [retrieval_text(c) for c in part]
            store.upsert(part, texts, embedder.encode_document(texts))
            bar.update(len(part))


def as_report(source: Any) -> LoadReport:
    """A LoadReport from any source `load_documents` accepts (a LoadReport passes through)."""
    return source if isinstance(source, LoadReport) else load_documents(source)


def new_manifest(config: CorpusConfig, embedder: Embedder, collection: str, server: bool) -> dict[str, Any]:
    stamp = now()
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "embedding_model": embedder.name,
        "embedding_dim": int(embedder.dim),
        "config": config.to_dict(),
        "reranker": reranker_record(config.search.reranker),
        "collection": collection,
        "vector_store": "server" if server else "embedded",
        "versions": versions(),
        "created_at": stamp,
        "updated_at": stamp,
        "generation": 0,
        "files": {"chunks": "chunks.jsonl", "bm25": "bm25"},
    }


def set_counts(manifest: dict[str, Any], chunks: Sequence[Chunk], n_skipped: int) -> None:
    n_docs = len({c.doc_id for c in chunks})
    manifest["doc_count"] = n_docs
    manifest["chunk_count"] = len(chunks)
    manifest["counts"] = {
        "documents": n_docs,
        "chunks": len(chunks),
        "skipped": n_skipped,
        "tokens": int(sum(c.n_tokens for c in chunks)),
    }


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


def build_index(source: Any, path: str | Path, config: CorpusConfig, client: Any = None, progress: bool = True) -> Path:
    """Index `source` into the folder `path` atomically (see the module docstring). Returns the path."""
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
        report = as_report(source)
        documents, chunks, skipped = chunk_report(report, tokenizer, config, progress)
        if not chunks:
            reasons = "; ".join(f"{s.path}: {s.reason}" for s in skipped[:5]) or "the source is empty"
            raise CorpusError(f"No documents to index ({len(skipped)} skipped: {reasons})")
        base = config.collection_name or "context1"
        if client is None:
            collection = base
            store = ChromaStore(embedded_client(staging / CHROMA_DIR), collection, create=True, owns_client=True)
        else:
            collection = f"{base}-{uuid.uuid4().hex[:12]}"
            write_json_atomic(staging / STAGING_MARK, {"collection": collection})
            store = ChromaStore(client, collection, create=True)
        write_chunk_table(staging / "chunks.jsonl", chunks)
        write_skipped(staging / SKIPPED, skipped)
        BM25Index.build([retrieval_text(c) for c in chunks], config.bm25).save(staging / "bm25")
        embed_into(store, chunks, embedder, config.batch_size, progress)
        manifest = new_manifest(config, embedder, collection, server=client is not None)
        set_counts(manifest, chunks, len(skipped))
        (staging / STAGING_MARK).unlink(missing_ok=True)
        write_json_atomic(staging / MANIFEST, manifest)
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
    return path


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
        shutil.rmtree(aside, ignore_errors=True)
    else:
        os.replace(staging, path)
