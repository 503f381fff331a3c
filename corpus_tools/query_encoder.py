"""A BERT encoder in numpy for queries: a search process that never imports torch.

Opening an index and running one search from the CLI cost ~8–10 s here, most of it importing
torch and transformers and building the model, all to embed a dozen query tokens. A query is one
short sequence, so a plain numpy forward pass over the safetensors weights takes a few
milliseconds and the imports it needs (numpy, safetensors, tokenizers) cost a fraction of a
second. Documents are still embedded by torch (`MeanPoolingEmbedder`), whose batched matmuls are
faster; both give the same vectors to ~1e-6 (tests/corpus_tools/test_query_encoder.py), so
queries from here meet documents from there in one vector space.

Supported: BERT-style encoders (absolute positions, post-LayerNorm, GELU) in a
[Transformer, mean Pooling, Normalize] sentence-transformers folder — all-MiniLM-L6-v2 and its
kin. `supports(path)` says whether a folder qualifies; anything else stays on torch.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np


def supports(path: Path) -> bool:
    """True when the folder holds a BERT model this encoder can run (weights as safetensors, a tokenizer.json)."""
    try:
        config = json.loads((path / "config.json").read_text())
    except (OSError, ValueError):
        return False
    return (
        config.get("model_type") == "bert"
        and config.get("hidden_act") == "gelu"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and (path / "model.safetensors").is_file()
        and (path / "tokenizer.json").is_file()
    )


def load_tokenizer(path: Path):
    """The folder's fast tokenizer (tokenizer.json) with no truncation and no padding of its own."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def map_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The float32 tensors of a safetensors file as read-only memory maps (other dtypes are skipped).

    Lets a cold search read only the pages it touches of the 47 MB word-embedding table (a dozen
    rows), where safetensors.numpy.load_file read all 90 MB and astype copied it once more.
    The layout: an 8-byte little-endian header length, a JSON header naming each tensor's dtype,
    shape and byte range, then the data. A tensor whose bytes are not 4-byte aligned is copied
    (numpy's matmul falls back from BLAS to a loop ~100x slower on unaligned arrays).
    """
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
    header.pop("__metadata__", None)
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    out = {}
    for name, meta in header.items():
        if meta["dtype"] != "F32":  # e.g. BERT's int64 position_ids buffer: not a weight
            continue
        start, stop = (8 + n + o for o in meta["data_offsets"])
        tensor = raw[start:stop].view(np.float32).reshape(meta["shape"])
        out[name] = tensor if tensor.flags.aligned else np.array(tensor)
    return out


def erf(x: np.ndarray) -> np.ndarray:
    """The error function in numpy, within 1.2e-7 of the exact one (float32's resolution).

    Replaces scipy.special.erf, whose import (0.2-0.6 s here) a cold search paid for one function.
    The Chebyshev fit erfc(z) = t·exp(-z² + P(t)), t = 1/(1 + z/2) of Numerical Recipes (erfcc,
    relative error < 1.2e-7 everywhere), odd-extended to negative x.
    """
    z = np.abs(x.astype(np.float64))  # float64 inside: in float32 the polynomial loses ~3 ulps
    t = 1.0 / (1.0 + 0.5 * z)
    poly = -1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (
        0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))))  # fmt: skip
    erfc = t * np.exp(-z * z + poly)
    return np.where(x >= 0, 1.0 - erfc, erfc - 1.0).astype(x.dtype, copy=False)


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class NumpyBertEncoder:
    """Mean-pooled, unit-norm sentence vectors from a BERT folder, one sequence at a time. Thread-safe."""

    def __init__(self, path: Path, max_seq_length: int) -> None:
        config = json.loads((path / "config.json").read_text())
        self.dim = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.max_seq_length = max_seq_length
        weights = map_safetensors(path / "model.safetensors")
        # Some checkpoints prefix every name with "bert."; the encoder needs no pooler.
        # The word-embedding table (half the file) stays mapped: a query gathers a dozen rows of
        # it. Matrices are copied into memory: BLAS on the mapped pages ran 2-10x slower here.
        self.w = {
            k.removeprefix("bert."): np.asarray(v) if k.endswith("word_embeddings.weight") else np.array(v)
            for k, v in weights.items()
        }
        if "embeddings.word_embeddings.weight" not in self.w:  # weights stored as float16/bfloat16
            from safetensors.numpy import load_file

            loaded = load_file(str(path / "model.safetensors"))
            self.w = {k.removeprefix("bert."): np.array(v, dtype=np.float32) for k, v in loaded.items()}
        # One BLAS thread for a query's tiny matmuls: OpenBLAS's thread pool took 1.5 s a query on
        # a loaded 2-core machine against 0.07 s on one thread (benchmarks/cold_start.py).
        from threadpoolctl import ThreadpoolController

        self._blas = ThreadpoolController()
        self._tokenizer = load_tokenizer(path)
        self._tokenizer.enable_truncation(max_length=max_seq_length)
        self._lock = threading.Lock()  # tokenizers' Tokenizer is not safe across threads

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # One forward pass at a time, as the torch embedder does: a query takes milliseconds, and
        # many server threads calling into the BLAS library at once is not a path worth trusting
        # (a 64-client CI run saw wrong search results under load with the forward unlocked).
        with self._lock, self._blas.limit(limits=1, user_api="blas"):
            for i, text in enumerate(texts):
                enc = self._tokenizer.encode(text)
                out[i] = self._forward(np.asarray(enc.ids, dtype=np.int64), np.asarray(enc.type_ids, dtype=np.int64))
        return out

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.w[f"{name}.weight"].T + self.w[f"{name}.bias"]

    def _forward(self, ids: np.ndarray, type_ids: np.ndarray) -> np.ndarray:
        w, n = self.w, len(ids)
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][type_ids]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        head_dim = self.dim // self.heads
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}"
            # (heads, n, head_dim) for queries, keys and values; one sequence, so no padding mask.
            q, k, v = (
                self._linear(x, f"{p}.attention.self.{name}").reshape(n, self.heads, head_dim).transpose(1, 0, 2)
                for name in ("query", "key", "value")
            )
            scores = q @ k.transpose(0, 2, 1) / np.sqrt(head_dim)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(1, 0, 2).reshape(n, self.dim)
            attended = self._linear(context, f"{p}.attention.output.dense") + x
            x = _layer_norm(
                attended,
                w[f"{p}.attention.output.LayerNorm.weight"],
                w[f"{p}.attention.output.LayerNorm.bias"],
                self.eps,
            )
            hidden = self._linear(x, f"{p}.intermediate.dense")
            hidden = 0.5 * hidden * (1.0 + erf(hidden / np.sqrt(2.0)))  # exact GELU, as BERT's "gelu"
            x = _layer_norm(
                self._linear(hidden, f"{p}.output.dense") + x,
                w[f"{p}.output.LayerNorm.weight"],
                w[f"{p}.output.LayerNorm.bias"],
                self.eps,
            )
        pooled = x.mean(0)
        return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)
