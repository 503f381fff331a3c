"""Rerankers: score (query, chunk) pairs behind the one `Reranker` protocol.

- "none": no reranking; `Corpus.search` keeps the fused RRF order.
- "biencoder": cosine similarity between the query and chunk embeddings of the index's own
  embedder (chunk vectors are read back from the vector store, so nothing is re-embedded).
- a path to a sentence-transformers CrossEncoder: loaded lazily on first use, never downloaded.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from corpus_tools.embed import retrieval_text
from corpus_tools.types import Chunk, Embedder, Reranker

RERANKER_CHOICES = ("none", "biencoder", "<path to a sentence-transformers CrossEncoder>")

# chunk ids -> their stored unit vectors (missing ids absent); lets the bi-encoder skip re-embedding.
VectorLookup = Callable[[Sequence[str]], dict[str, np.ndarray]]


class NoReranker:
    """Keeps the incoming order: every score is 0 (callers skip the rerank stage for it)."""

    name = "none"

    def score(self, query: str, chunks: Sequence[Chunk]) -> np.ndarray:
        return np.zeros(len(chunks), dtype=np.float32)


class BiEncoderReranker:
    """Cosine similarity of query and chunk embeddings (the dense leg's own measure)."""

    name = "biencoder"

    def __init__(self, embedder: Embedder, vectors: VectorLookup | None = None) -> None:
        self.embedder = embedder
        self.vectors = vectors

    def score(self, query: str, chunks: Sequence[Chunk], query_vector: np.ndarray | None = None) -> np.ndarray:
        """Cosine scores; `query_vector` (already computed by the caller) avoids a second encode."""
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        if query_vector is None:
            query_vector = self.embedder.encode_query([query])[0]
        stored = self.vectors([c.chunk_id for c in chunks]) if self.vectors is not None else {}
        missing = [c for c in chunks if c.chunk_id not in stored]
        if missing:
            fresh = self.embedder.encode_document([retrieval_text(c) for c in missing])
            stored = {**stored, **{c.chunk_id: v for c, v in zip(missing, fresh, strict=True)}}
        matrix = np.stack([stored[c.chunk_id] for c in chunks]).astype(np.float32)
        return matrix @ np.asarray(query_vector, dtype=np.float32)


class CrossEncoderReranker:
    """A sentence-transformers CrossEncoder from a local folder, loaded on first use."""

    def __init__(self, path: str | Path, device: str | None = None, batch_size: int = 32) -> None:
        self.path = Path(path).expanduser()
        if not self.path.exists():
            raise ValueError(
                f"CrossEncoder path {str(self.path)!r} does not exist; valid rerankers: {RERANKER_CHOICES}"
            )
        self.name = f"cross-encoder:{self.path}"
        self.device = device
        self.batch_size = batch_size
        self._model = None
        self._lock = threading.Lock()  # guards loading, and the tokenizer (not thread-safe)

    def score(self, query: str, chunks: Sequence[Chunk]) -> np.ndarray:
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        pairs = [(query, retrieval_text(c)) for c in chunks]
        with self._lock:
            if self._model is None:
                try:
                    from sentence_transformers import CrossEncoder
                except ImportError as exc:  # pragma: no cover - a core dependency
                    raise ImportError(
                        "CrossEncoder reranking needs sentence-transformers: pip install sentence-transformers"
                    ) from exc
                self._model = CrossEncoder(str(self.path), device=self.device, local_files_only=True)
            scores = self._model.predict(pairs, batch_size=self.batch_size, show_progress_bar=False)
        return np.asarray(scores, dtype=np.float32).reshape(len(chunks))


def make_reranker(
    name_or_path: str | Path | Reranker | None,
    embedder: Embedder,
    vectors: VectorLookup | None = None,
    device: str | None = None,
) -> Reranker:
    """A reranker from its name ("none", "biencoder"), a CrossEncoder folder, or a Reranker as is."""
    if name_or_path is None:
        return NoReranker()
    if isinstance(name_or_path, Reranker) and not isinstance(name_or_path, (str, Path)):
        return name_or_path
    if not isinstance(name_or_path, (str, Path)):
        raise ValueError(f"reranker must be a name, a path or a Reranker, got {type(name_or_path).__name__}")
    key = str(name_or_path)
    if key.lower() == "none":
        return NoReranker()
    if key.lower() in ("biencoder", "bi-encoder"):
        return BiEncoderReranker(embedder, vectors)
    if Path(key).expanduser().exists():
        return CrossEncoderReranker(key, device=device)
    raise ValueError(f"Unknown reranker {key!r}: valid choices are {RERANKER_CHOICES} (no such path exists)")
