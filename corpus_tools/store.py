"""The dense leg's vector store: one Chroma collection, embedded in the index folder or on a server.

Embeddings are always passed explicitly (the collection has no embedding function), so Chroma
never loads or downloads a model of its own. Chunk ids are Chroma ids; chunk_id, doc_id,
position, n_tokens and title are also kept in metadata, because Chroma ignores a `where` filter
on "#id" without an error, and a metadata filter is the only reliable way to select by them.

Why the graph is saved on every write (`SAVE_EVERY_WRITE`): an embedded Chroma collection saves its
HNSW graph only every `sync_threshold` vectors (1000 by default). The vectors written after the
last save live only in Chroma's write-ahead log, and every process that opens the collection
re-inserts them into the graph it loads, in an order that changes each time (Chroma inserts a
hash map's entries in parallel). HNSW search is approximate, so a different graph returns a
slightly different top-n: on the HotpotQA bench index (4,656 vectors, 560 past the last save)
`ask` with seed 0 answered differently in each process. With a threshold of 1 each write, and the
first replay of an older index's tail, is saved at once; from then on every process loads the
same graph, and the search over a fixed graph is deterministic.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools.embed import retrieval_text
from corpus_tools.types import Chunk

CHROMA_DIR = "chroma"

# Save the HNSW graph after every write (Chroma's batch_size may not exceed sync_threshold);
# see the module docstring for why.
SAVE_EVERY_WRITE = {"hnsw": {"sync_threshold": 1, "batch_size": 1}}


def embedded_client(folder: str | Path) -> Any:
    """An embedded (on-disk) Chroma client for `folder`, with telemetry off (offline-first)."""
    import chromadb
    from chromadb.config import Settings

    return chromadb.PersistentClient(path=str(folder), settings=Settings(anonymized_telemetry=False))


def vector_id(chunk: Chunk) -> str:
    """The Chroma id of a chunk's vector: its chunk id plus a hash of the text it embeds.

    Re-indexing a document reuses its chunk ids, so vectors keyed by chunk id alone would be
    overwritten before the new chunk table is committed: a crash in between paired old text with
    new vectors. Content-keyed ids never overwrite a live vector; stale ones are deleted after
    the commit, and the dense leg ignores ids the committed table does not name.
    """
    digest = hashlib.sha256(retrieval_text(chunk).encode("utf-8")).hexdigest()
    return f"{chunk.chunk_id}@{digest[:16]}"


# Keys of chunk metadata Chroma keeps for itself; document metadata may not shadow them.
_RESERVED = ("chunk_id", "doc_id", "position", "n_tokens", "title")


def chunk_metadata(chunk: Chunk) -> dict[str, Any]:
    """What Chroma stores next to each vector (its values must be str, int, float or bool).

    The document's own scalar metadata (source, file_name, year, ...) is kept too, so a `where`
    filter on it runs inside Chroma.
    """
    meta: dict[str, Any] = {
        k: v for k, v in chunk.metadata.items() if k not in _RESERVED and isinstance(v, (str, int, float, bool))
    }
    meta.update(
        chunk_id=chunk.chunk_id,
        doc_id=chunk.doc_id,
        position=int(chunk.position),
        n_tokens=int(chunk.n_tokens),
        title=str(chunk.metadata.get("title") or ""),
    )
    return meta


def drop_collection(client: Any, name: str) -> None:
    """Delete a collection if it exists (a server collection an index no longer uses)."""
    try:
        client.delete_collection(name)
    except Exception:
        pass  # already gone: nothing to do


def settle_embedded(folder: str | Path, name: str) -> None:
    """Open the embedded collection `name` in `folder` afresh and save its graph through the last write.

    The writing client must be closed first: its loaded graph keeps the threshold it was loaded with.
    """
    store = ChromaStore(embedded_client(folder), name, create=False, owns_client=True)
    try:
        store.settle()
    finally:
        store.close()


class ChromaStore:
    """One collection with cosine distance. `owns_client`: close the client on `close()`."""

    def __init__(self, client: Any, name: str, *, create: bool, owns_client: bool = False) -> None:
        self.client = client
        self.name = name
        self.owns_client = owns_client
        if create:
            self.collection = client.get_or_create_collection(
                name, embedding_function=None, metadata={"hnsw:space": "cosine"}
            )
        else:
            self.collection = client.get_collection(name, embedding_function=None)
        try:
            max_batch = int(client.get_max_batch_size())
        except Exception:  # older servers lack the endpoint
            max_batch = 1000
        self._batch = max(1, min(max_batch, 1000))
        # Writes are serialised; reads run concurrently (Chroma's query path is thread-safe).
        self._write_lock = threading.Lock()

    def upsert(
        self, chunks: Sequence[Chunk], texts: Sequence[str], vectors: np.ndarray, ids: Sequence[str] | None = None
    ) -> None:
        """Store vectors under `ids` (default: the chunk ids, the layout of indexes before vector ids)."""
        ids = [c.chunk_id for c in chunks] if ids is None else list(ids)
        with self._write_lock:
            for start in range(0, len(chunks), self._batch):
                part = chunks[start : start + self._batch]
                self.collection.upsert(
                    ids=ids[start : start + len(part)],
                    embeddings=np.asarray(vectors[start : start + len(part)], dtype=np.float32),
                    documents=list(texts[start : start + len(part)]),
                    metadatas=[chunk_metadata(c) for c in part],
                )

    def update_metadata(self, chunks: Sequence[Chunk], ids: Sequence[str]) -> None:
        """Replace the stored metadata of `chunks` (stored under `ids`), vectors untouched."""
        with self._write_lock:
            for start in range(0, len(chunks), self._batch):
                part = chunks[start : start + self._batch]
                self.collection.update(
                    ids=list(ids[start : start + len(part)]), metadatas=[chunk_metadata(c) for c in part]
                )

    def delete(self, chunk_ids: Sequence[str]) -> None:
        with self._write_lock:
            ids = list(chunk_ids)
            for start in range(0, len(ids), self._batch):
                self.collection.delete(ids=ids[start : start + self._batch])

    def query(self, vector: np.ndarray, n: int, where: dict[str, Any] | None = None) -> list[tuple[str, float]]:
        """(vector id, cosine similarity) of the `n` nearest vectors, nearest first.

        where: a Chroma metadata filter ({"year": 2023}, {"$and": [...]}) on chunk metadata.
        """
        if n < 1:
            return []
        # Chroma returns fewer than n_results when the collection is smaller.
        result = self.collection.query(
            query_embeddings=np.asarray(vector, dtype=np.float32).reshape(1, -1),
            n_results=n,
            where=where or None,
            include=["distances"],
        )
        ids = result["ids"][0]
        distances = result["distances"][0]
        return [(cid, 1.0 - float(d)) for cid, d in zip(ids, distances, strict=True)]

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors of the given chunks (missing ids are absent from the result)."""
        if not chunk_ids:
            return {}
        result = self.collection.get(ids=list(chunk_ids), include=["embeddings"])
        return {
            cid: np.asarray(vec, dtype=np.float32) for cid, vec in zip(result["ids"], result["embeddings"], strict=True)
        }

    def count(self) -> int:
        return int(self.collection.count())

    def saves_every_write(self) -> bool:
        """Whether the collection saves its graph on every write (indexes built before 2026-11-26 do not)."""
        hnsw = (self.collection.configuration or {}).get("hnsw") or {}
        return hnsw.get("sync_threshold") == SAVE_EVERY_WRITE["hnsw"]["sync_threshold"]

    def save_every_write(self) -> None:
        """Make the collection save its graph after every write, from its next load on.

        A process that has already loaded the graph keeps its old threshold: reopen the client
        (or call `settle` before the first query) so that the vectors not yet saved are replayed
        and saved.
        """
        if not self.saves_every_write():
            with self._write_lock:
                self.collection.modify(configuration=SAVE_EVERY_WRITE)

    def settle(self) -> None:
        """Save the graph through the last write: replay the unsaved tail once, with saving on.

        Must run before this client's first query or write, so that Chroma loads the graph with
        the threshold `save_every_write` set (a query loads it and replays the log).
        """
        self.save_every_write()
        first = self.collection.get(limit=1, include=["embeddings"])
        if len(first["ids"]):
            self.collection.query(query_embeddings=np.asarray(first["embeddings"], dtype=np.float32), n_results=1)

    def drop(self) -> None:
        """Delete the whole collection."""
        drop_collection(self.client, self.name)

    def close(self) -> None:
        if self.owns_client:
            try:
                self.client.close()
            except Exception:
                pass
