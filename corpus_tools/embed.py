"""Embedders, and the content-addressed embedding cache that makes rebuilds and resumes cheap.

Embedding is the slow step of indexing (~21 chunks/s for MiniLM on a laptop CPU), so every vector
is cached in sqlite under (model name, sha256(text)) and committed per batch: a rebuild, a build
resumed after a kill, or `Corpus.add` of an unchanged document embeds nothing twice.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from corpus_tools import query_encoder
from corpus_tools.models import DEFAULT_EMBEDDING_MODEL, resolve_model_path
from corpus_tools.readers import path_words
from corpus_tools.types import Chunk, Embedder


def retrieval_text(chunk: Chunk) -> str:
    """What BM25, the embedder and the rerankers see of a chunk: its header (else its title), a newline, its text.

    Titles carry much of the meaning of short passages (Wikipedia paragraphs rarely repeat the
    article's subject), so they are indexed with every chunk. A chunk of a structured document
    (a laid-out PDF) has a contextual header instead — title · company · period · section, and a
    table's columns (corpus_tools/chunk_context.py) — which starts with the title. Chunks without
    one (records, plain text) read exactly as before. chunk.text itself stays the exact slice of
    the document.
    """
    lead = chunk.metadata.get("header") or chunk.metadata.get("title") or ""
    return f"{lead}\n{chunk.text}" if lead else chunk.text


def bm25_text(chunk: Chunk) -> str:
    """What the BM25 leg indexes: the retrieval text plus the source file's path as words.

    File names carry what users ask by (company, quarter, year: "acme_10-Q_2023-Q3.pdf") and
    often appear nowhere in the text, so they are always searchable by keyword. They are kept
    out of the embedded text, where a path would only blur the vector.
    """
    text = retrieval_text(chunk)
    source = chunk.metadata.get("source")
    if isinstance(source, str) and source:
        return f"{text}\n{path_words(source)}"
    return text


@contextmanager
def _quiet_weight_loading() -> Iterator[None]:
    """transformers draws a "Loading weights" bar on every model load: noise for a local 90 MB model."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - a dependency of sentence-transformers
        yield
        return
    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()


class SentenceTransformerEmbedder:
    """A local sentence-transformers model behind the `Embedder` protocol (unit-norm float32).

    Thread-safe: encoding is serialised by a lock, because Hugging Face fast tokenizers fail
    ("Already borrowed") when two threads use one at once; a query takes milliseconds.
    """

    def __init__(self, model: str | Path | None = None, device: str | None = None, batch_size: int = 64) -> None:
        from sentence_transformers import SentenceTransformer

        self.path = resolve_model_path(model)
        is_default = model is None or str(model) == DEFAULT_EMBEDDING_MODEL
        self.name = DEFAULT_EMBEDDING_MODEL if is_default else str(self.path.resolve())
        self.batch_size = batch_size
        with _quiet_weight_loading():
            self._model = SentenceTransformer(str(self.path), device=device, local_files_only=True)
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        self._lock = threading.Lock()

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vectors = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)

    def encode_query(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts)

    def encode_document(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(texts)


# The first this many documents of a process are embedded without torch (see encode_document):
# a 256-token chunk takes ~50 ms on one core in numpy, so an add of up to a few hundred short
# documents stays under the seconds that importing torch costs; past them (a build, a large add)
# torch's batched forward pass is the faster one.
NUMPY_DOCUMENTS = 256


class MeanPoolingEmbedder:
    """A [Transformer, mean Pooling, Normalize] sentence-transformers model run with plain transformers.

    Same vectors as `SentenceTransformerEmbedder` (tests/corpus_tools/test_embed_fast.py checks
    them to 1e-5), without importing sentence-transformers, which pulls in scikit-learn and costs
    seconds of every CLI cold start. `load_embedder` uses it only for folders whose module list is
    exactly that (all-MiniLM-L6-v2's); anything else goes to sentence-transformers.
    Nothing heavy happens at construction: torch and the model load on the first document batch,
    and on a CPU queries go through `NumpyBertEncoder` (same vectors, no torch), so opening an index
    and searching it never imports torch.
    """

    def __init__(self, path: Path, name: str, max_seq_length: int, device: str | None = None, batch_size: int = 64):
        import json

        self.path = path
        self.name = name
        self.batch_size = batch_size
        self.max_seq_length = max_seq_length
        self.dim = int(json.loads((path / "config.json").read_text())["hidden_size"])
        self._device_name = device
        self._numpy_queries = (device or "cpu") == "cpu" and query_encoder.supports(path)
        self._queries: query_encoder.NumpyBertEncoder | None = None
        self._numpy_documents = 0  # documents embedded by the numpy encoder so far (encode_document)
        self._model = None
        self._lock = threading.Lock()

    def _load_torch(self) -> None:
        """The torch model and tokenizer, loaded once (call with the lock held)."""
        if self._model is not None:
            return
        import torch
        from transformers import AutoModel, AutoTokenizer

        self._torch = torch
        with _quiet_weight_loading():
            self._tokenizer = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
            model = AutoModel.from_pretrained(str(self.path), local_files_only=True)
        self._device = torch.device(self._device_name or "cpu")
        self._model = model.to(self._device).eval()

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not len(texts):
            return out
        # Longest first, as sentence-transformers does: batches of similar length pad little.
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        with self._lock:
            self._load_torch()
        torch = self._torch
        with self._lock, torch.inference_mode():
            for start in range(0, len(order), self.batch_size):
                picked = order[start : start + self.batch_size]
                batch = self._tokenizer(
                    [texts[i] for i in picked],
                    padding=True,
                    truncation="longest_first",
                    max_length=self.max_seq_length,
                    return_tensors="pt",
                ).to(self._device)
                hidden = self._model(**batch).last_hidden_state
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                pooled = torch.nn.functional.normalize(pooled, p=2, dim=1)
                out[picked] = pooled.float().cpu().numpy()
        return out

    def _numpy(self) -> query_encoder.NumpyBertEncoder:
        with self._lock:
            if self._queries is None:
                self._queries = query_encoder.NumpyBertEncoder(self.path, self.max_seq_length)
        return self._queries

    def encode_query(self, texts: Sequence[str]) -> np.ndarray:
        if not self._numpy_queries:
            return self._encode(texts)
        return self._numpy().encode(texts)

    def encode_document(self, texts: Sequence[str]) -> np.ndarray:
        # A process's first documents go through the numpy encoder (the same vectors to ~1e-6):
        # importing torch and transformers cost a process's first add of one document ~5 s of CPU,
        # over a minute of wall time on a loaded machine. Past NUMPY_DOCUMENTS, torch.
        if self._numpy_queries and self._model is None and self._numpy_documents + len(texts) <= NUMPY_DOCUMENTS:
            self._numpy_documents += len(texts)
            return self._numpy().encode(texts)
        return self._encode(texts)


def mean_pooling_layout(path: Path) -> int | None:
    """max_seq_length when the folder is a plain [Transformer, mean Pooling, Normalize] model, else None."""
    import json

    try:
        modules = json.loads((path / "modules.json").read_text())
        kinds = [m["type"].rsplit(".", 1)[-1] for m in modules]
        if kinds != ["Transformer", "Pooling", "Normalize"]:
            return None
        pooling = json.loads((path / modules[1]["path"] / "config.json").read_text())
        modes = {k for k, v in pooling.items() if k.startswith("pooling_mode") and v}
        if modes != {"pooling_mode_mean_tokens"}:
            return None
        st_config = path / "config_sentence_transformers.json"
        extra = json.loads(st_config.read_text()) if st_config.exists() else {}
        if extra.get("prompts") or extra.get("default_prompt_name"):
            return None  # queries and documents get different prompts: sentence-transformers knows how
        bert = json.loads((path / "sentence_bert_config.json").read_text())
        if bert.get("do_lower_case"):
            return None
        return int(bert["max_seq_length"])
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None


class EmbeddingCache:
    """Vectors in sqlite, keyed by (model name, sha256 of the text). Safe across threads and processes.

    hits / misses count lookups since this object was created (tests and build reports read them).
    """

    FILE_NAME = "embeddings.sqlite3"

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder).expanduser()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / self.FILE_NAME
        self._lock = threading.Lock()
        # WAL lets one process write while others read; a kill -9 mid-transaction loses only
        # that uncommitted batch.
        self._db = sqlite3.connect(str(self.path), timeout=60, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS embeddings ("
            " model TEXT NOT NULL, key TEXT NOT NULL, dim INTEGER NOT NULL, vector BLOB NOT NULL,"
            " PRIMARY KEY (model, key))"
        )
        self._db.commit()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def get_many(self, model: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """The cached vectors among `keys` (absent keys are simply missing from the result)."""
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(unique), 500):  # sqlite's host-parameter limit
                part = unique[start : start + 500]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT key, dim, vector FROM embeddings WHERE model = ? AND key IN ({marks})", [model, *part]
                ).fetchall()
                for key, dim, blob in rows:
                    found[key] = np.frombuffer(blob, dtype=np.float32, count=dim)
            hit_count = sum(1 for k in keys if k in found)
            self.hits += hit_count
            self.misses += len(keys) - hit_count
        return found

    def put_many(self, model: str, items: Sequence[tuple[str, np.ndarray]]) -> None:
        """Store vectors and commit (one transaction per call, i.e. per embedding batch)."""
        rows = [(model, key, int(vec.shape[0]), np.asarray(vec, dtype=np.float32).tobytes()) for key, vec in items]
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO embeddings VALUES (?, ?, ?, ?)", rows)
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedEmbedder:
    """An `Embedder` whose document vectors go through an `EmbeddingCache` (queries are not cached)."""

    def __init__(self, embedder: Embedder, cache: EmbeddingCache) -> None:
        self.inner = embedder
        self.cache = cache
        self.name = embedder.name
        self.dim = embedder.dim

    def encode_query(self, texts: Sequence[str]) -> np.ndarray:
        return self.inner.encode_query(texts)

    def encode_document(self, texts: Sequence[str]) -> np.ndarray:
        keys = [EmbeddingCache.key(t) for t in texts]
        found = self.cache.get_many(self.name, keys)
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            # Identical texts within the batch are embedded once.
            todo = list(dict.fromkeys(keys[i] for i in missing))
            first_text = {keys[i]: texts[i] for i in reversed(missing)}
            vectors = self.inner.encode_document([first_text[k] for k in todo])
            fresh = list(zip(todo, vectors, strict=True))
            self.cache.put_many(self.name, fresh)
            found.update(fresh)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, key in enumerate(keys):
            out[i] = found[key]
        return out


_shared_lock = threading.Lock()
_embedders: dict[tuple[str, str | None], Embedder] = {}
_caches: dict[Path, EmbeddingCache] = {}


def check_device(device: str | None) -> None:
    """Raise ValueError, saying what torch sees, when `device` ("cuda", "cuda:1", "mps") is not here."""
    kind = (device or "cpu").split(":")[0]
    if kind == "cpu":
        return
    import torch

    if kind == "cuda" and not torch.cuda.is_available():
        raise ValueError(
            f"device {device!r} asked for, but torch {torch.__version__} sees no CUDA GPU here "
            f"(built with CUDA {torch.version.cuda or 'none'}); use device 'cpu'"
        )
    if kind == "mps" and not torch.backends.mps.is_available():
        raise ValueError(f"device {device!r} asked for, but torch {torch.__version__} sees no Apple MPS device here")


def load_embedder(model: str | Path | None = None, device: str | None = None) -> Embedder:
    """One shared embedder per (model, device) in this process: loading costs a second or two.

    Mean-pooling models (the default MiniLM) run on plain transformers (`MeanPoolingEmbedder`);
    others through sentence-transformers.
    """
    key = (str(model) if model is not None else DEFAULT_EMBEDDING_MODEL, device)
    with _shared_lock:
        if key not in _embedders:
            check_device(device)
            path = resolve_model_path(model)
            max_len = mean_pooling_layout(path)
            if max_len is None:
                _embedders[key] = SentenceTransformerEmbedder(model, device=device)
            else:
                is_default = model is None or str(model) == DEFAULT_EMBEDDING_MODEL
                name = DEFAULT_EMBEDDING_MODEL if is_default else str(path.resolve())
                _embedders[key] = MeanPoolingEmbedder(path, name, max_len, device=device)
        return _embedders[key]


def open_cache(folder: str | Path) -> EmbeddingCache:
    """One shared `EmbeddingCache` per folder in this process (one sqlite connection, shared counters)."""
    path = Path(folder).expanduser().resolve()
    with _shared_lock:
        if path not in _caches:
            _caches[path] = EmbeddingCache(path)
        return _caches[path]
