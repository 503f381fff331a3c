"""Rerankers: score (query, chunk) pairs behind the one `Reranker` protocol.

- "none": no reranking; `Corpus.search` keeps the fused RRF order.
- "biencoder": cosine similarity between the query and chunk embeddings of the index's own
  embedder (chunk vectors are read back from the vector store, so nothing is re-embedded).
- a path to a sentence-transformers CrossEncoder (`context1 train reranker --kind cross-encoder`): loaded and
  checked when made, never downloaded.
- a path to a learned-fusion folder (`context1 train reranker --kind fusion`; corpus_tools.learned_fusion):
  a linear score over the legs' ranks and scores, applied inside `Corpus.search`.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools.embed import retrieval_text
from corpus_tools.learned_fusion import LearnedFusion, is_fusion_folder
from corpus_tools.types import Chunk, Embedder, Reranker

RERANKER_CHOICES = ("none", "biencoder", "<path to a CrossEncoder or learned-fusion folder>")

# Chosen by benchmarks/reranker_quality.py's timings (benchmarks/README.md, issue 8, eighth session):
# a 3-layer model at 128 tokens reranks 50 SciFact abstracts in 610 ms p50 in fp32 and 311 ms in
# int8 on 2 idle cores, for 0.03 nDCG@10 less; only int8 meets the 0.5 s budget, so a CrossEncoder
# is quantised on CPU unless asked not to. The length is a fallback: a trained folder is served at
# the length it was trained at (`trained_max_length`).
DEFAULT_CROSS_ENCODER_MAX_LENGTH = 256
DEFAULT_CROSS_ENCODER_QUANTIZE = True

# Written beside the weights by `context1 train reranker` (training.reranker.REPORT_FILE): its
# config records the query + chunk length the model was trained at, which is the length to serve it at.
TRAINING_REPORT = "context1_reranker.json"

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
    """A sentence-transformers CrossEncoder from a local folder (e.g. `context1 train reranker`'s output).

    Loaded and checked when constructed, so a wrong folder fails at `Corpus.open`, not at the first
    search. Speed knobs (benchmarks/reranker_speed.py measured each against fp32 in one run):
    max_length: query + chunk tokens scored (chunks are cut first; None = the model's own limit).
    quantize: int8 dynamic quantisation of the Linear layers (torch.ao.quantization.quantize_dynamic);
        on by default, ignored on a GPU.
    cache_size: (query, chunk) scores kept (LRU), so an agent episode that meets a chunk again for
        the same query (read_document after search_corpus, repeated queries) does not score it twice.
    """

    def __init__(
        self,
        path: str | Path,
        device: str | None = None,
        batch_size: int = 16,
        max_length: int | None = DEFAULT_CROSS_ENCODER_MAX_LENGTH,
        quantize: bool = DEFAULT_CROSS_ENCODER_QUANTIZE,
        cache_size: int = 4096,
    ) -> None:
        self.path = Path(path).expanduser()
        check_cross_encoder_folder(self.path)
        self.name = f"cross-encoder:{self.path}"
        self.device = device
        self.batch_size = batch_size
        self.max_length = max_length
        self.quantize = quantize
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, str, int], float] = OrderedDict()
        self.cache_hits = 0
        self.cache_misses = 0
        self._lock = threading.Lock()  # guards the tokenizer (not thread-safe) and the cache
        self._model, self._tokenizer = self._load()

    def describe(self) -> dict[str, Any]:
        """What the manifest records about this reranker."""
        return {
            "kind": "cross-encoder",
            "path": str(self.path),
            "max_length": self.max_length,
            "quantized": self.quantize,
        }

    def _load(self) -> tuple[Any, Any]:
        try:
            import torch
            from sentence_transformers import CrossEncoder
        except ImportError as exc:  # pragma: no cover - a core dependency
            raise ImportError(
                "CrossEncoder reranking needs sentence-transformers: pip install sentence-transformers"
            ) from exc
        try:
            model = CrossEncoder(
                str(self.path), device=self.device or "cpu", local_files_only=True, max_length=self.max_length
            )
        except Exception as exc:  # noqa: BLE001 - transformers raises many types for a broken folder
            raise ValueError(
                f"cannot load the CrossEncoder at {str(self.path)!r}: {type(exc).__name__}: {exc}"
            ) from exc
        model.eval()
        limit = getattr(model.tokenizer, "model_max_length", 512) or 512
        if self.max_length is None or self.max_length > limit:
            self.max_length = min(int(limit), 512)
        if self.quantize and model.device.type != "cpu":
            self.quantize = False  # dynamic int8 is a CPU kernel; on a GPU the float model is the fast one
        if self.quantize:
            # The whole module tree: the encoder's Linear layers and a mean-pooling head's Dense alike.
            model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        return model, model.tokenizer

    def score(self, query: str, chunks: Sequence[Chunk]) -> np.ndarray:
        if not chunks:
            return np.zeros(0, dtype=np.float32)
        import torch

        texts = [retrieval_text(c) for c in chunks]
        keys = [(query, c.chunk_id, hash(t)) for c, t in zip(chunks, texts, strict=True)]
        out = np.zeros(len(chunks), dtype=np.float32)
        with self._lock:
            todo = []
            for i, key in enumerate(keys):
                cached = self._cache.get(key)
                if cached is None:
                    todo.append(i)
                else:
                    self._cache.move_to_end(key)
                    out[i] = cached
            self.cache_hits += len(chunks) - len(todo)
            self.cache_misses += len(todo)
            # Similar lengths batched together: padding is most of the cost of mixed batches.
            todo.sort(key=lambda i: len(texts[i]))
            with torch.inference_mode():
                for start in range(0, len(todo), self.batch_size):
                    part = todo[start : start + self.batch_size]
                    texts_part = [texts[i] for i in part]
                    logits = cross_encoder_scores(self._model, [query] * len(part), texts_part).numpy()
                    out[part] = logits
            if self.cache_size:
                for i in todo:
                    self._cache[keys[i]] = float(out[i])
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return out


def cross_encoder_scores(model: Any, queries: Sequence[str], texts: Sequence[str]) -> Any:
    """Raw scores (B,) of (query, text) pairs: THE scoring path, shared by search and by training.

    `model` is a sentence-transformers CrossEncoder (a classification head on [CLS], or
    `context1 train reranker`'s mean-pooling head). Tokenisation is the model's own `preprocess`
    (pairs cut longest-first to the model's max length, so a long chunk is cut before a short
    query), no activation: the reranker only orders, the trainer's loss wants logits. Gradients
    flow when the caller has them on; one function means training and search cannot drift apart.
    """
    features = model.preprocess(list(zip(queries, texts, strict=True)))
    device = model.device  # a GPU-trained model: the tokenizer's tensors start on the CPU
    features = {k: v.to(device) if hasattr(v, "to") else v for k, v in features.items()}
    return model(features)["scores"].reshape(-1).float()


def blend_with_first_stage(scores: Sequence[float], weight: float, k: int = 60) -> tuple[list[int], list[float]]:
    """(order, blended scores) of candidates given in first-stage order, reranker `scores` alike.

    Reciprocal rank fusion of the reranker's order (weight 1 - `weight`) and the incoming order
    (`weight`): the candidates' position is their first-stage rank. weight 0 = the reranker's order.
    """
    from corpus_tools.fusion import reciprocal_rank_fusion

    n = len(scores)
    by_reranker = sorted(range(n), key=lambda i: (-float(scores[i]), i))
    fused = reciprocal_rank_fusion([by_reranker, list(range(n))], k=k, weights=[1.0 - weight, weight])
    return [i for i, _ in fused], [s for _, s in fused]


def check_cross_encoder_folder(path: Path) -> None:
    """A clear ValueError unless `path` holds a CrossEncoder: a sequence-classification model, or a
    sentence-transformers folder whose config says model_type "CrossEncoder"."""
    hint = "train one with `context1 train reranker INDEX --tasks FILE --out DIR --kind cross-encoder`, or use 'biencoder' / 'none'"
    if not path.exists():
        raise ValueError(f"CrossEncoder path {str(path)!r} does not exist; valid rerankers: {RERANKER_CHOICES}")
    config_file = path / "config.json"
    if not path.is_dir() or not config_file.is_file():
        raise ValueError(f"{str(path)!r} is not a CrossEncoder folder (no config.json); {hint}")
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{str(config_file)!r} is not valid JSON ({exc}); {hint}") from exc
    architectures = config.get("architectures") or []
    if any(str(a).endswith("ForSequenceClassification") for a in architectures):
        return
    # A modular sentence-transformers CrossEncoder (encoder + pooling + score head, as `context1 train
    # reranker` writes by default) says so in its own config; an embedding model's folder does not.
    st_file = path / "config_sentence_transformers.json"
    try:
        st_config = json.loads(st_file.read_text(encoding="utf-8")) if st_file.is_file() else {}
    except (OSError, ValueError):
        st_config = {}
    if st_config.get("model_type") != "CrossEncoder":
        raise ValueError(
            f"{str(path)!r} holds a {architectures or 'model without architectures'}, not a CrossEncoder "
            f"(a sequence-classification model, e.g. a sentence embedding model was given); {hint}"
        )


def reranker_record(name_or_path: str | None) -> dict[str, Any]:
    """What an index's manifest records about its reranker (read from the folder; the model is not loaded)."""
    key = str(name_or_path or "none")
    if key.lower() in ("none", "biencoder", "bi-encoder"):
        return {"kind": key.lower().replace("bi-encoder", "biencoder")}
    path = Path(key).expanduser()
    record: dict[str, Any] = {
        "kind": "cross-encoder",
        "path": str(path.absolute()),
        "max_length": DEFAULT_CROSS_ENCODER_MAX_LENGTH,
        "quantized": DEFAULT_CROSS_ENCODER_QUANTIZE,
    }
    trained = _training_report(path)
    if trained:
        record["trained"] = {k: trained.get(k) for k in ("pairs", "train_groups", "best_val_mrr", "steps")}
        record["max_length"] = _report_max_length(trained) or record["max_length"]
    return record


def _training_report(path: Path) -> dict[str, Any]:
    """The training report beside a CrossEncoder's weights ({} when there is none or it is unreadable)."""
    try:
        report = json.loads((path / TRAINING_REPORT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return report if isinstance(report, dict) else {}


def trained_max_length(path: str | Path) -> int | None:
    """The query + chunk length a `context1 train reranker` model was trained at (None: not recorded).

    Served at that length by default: a model trained on 128 tokens has never seen the tail of a
    longer input, and scoring 128 tokens costs about half of 256 (benchmarks/README.md, issue 8).
    """
    return _report_max_length(_training_report(Path(path).expanduser()))


def _report_max_length(report: dict[str, Any]) -> int | None:
    config = report.get("config")
    value = config.get("max_length") if isinstance(config, dict) else None
    return value if isinstance(value, int) and value > 0 else None


def make_reranker(
    name_or_path: str | Path | Reranker | None,
    embedder: Embedder,
    vectors: VectorLookup | None = None,
    device: str | None = None,
) -> Reranker:
    """A reranker from its name ("none", "biencoder"), a CrossEncoder or learned-fusion folder, or a
    Reranker as is."""
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
    if is_fusion_folder(Path(key).expanduser()):
        return LearnedFusion.load(Path(key).expanduser())
    if Path(key).expanduser().exists():
        return CrossEncoderReranker(
            key, device=device, max_length=trained_max_length(key) or DEFAULT_CROSS_ENCODER_MAX_LENGTH
        )
    raise ValueError(f"Unknown reranker {key!r}: valid choices are {RERANKER_CHOICES} (no such path exists)")
