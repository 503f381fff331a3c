"""Builders shared by the reranker tests (cached: built once per session however many files use them).

mini_index: the 20-document fixture corpus, indexed with the embedding cache in a session temp folder.
tiny_encoder: the packaged all-MiniLM-L6-v2 cut to its first 2 layers (real pretrained weights,
~3x faster to train than all six), saved as a transformers folder a CrossEncoder can start from.
"""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the suite never downloads anything

MINI_CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mini_corpus"


@functools.cache
def _root() -> Path:
    return Path(tempfile.mkdtemp(prefix="context1-reranker-tests-"))


@functools.cache
def build_mini_index() -> Path:
    from corpus_tools import Corpus, CorpusConfig

    path = _root() / "mini"
    config = CorpusConfig(embedding_cache=str(_root() / "embedding-cache"))
    Corpus.build(MINI_CORPUS, path, config=config, progress=False).close()
    return path


@functools.cache
def build_tiny_encoder() -> Path:
    from transformers import AutoModel, AutoTokenizer

    from corpus_tools.models import default_embedding_model_path

    source = default_embedding_model_path()
    model = AutoModel.from_pretrained(str(source), local_files_only=True)
    model.encoder.layer = model.encoder.layer[:2]
    model.config.num_hidden_layers = 2
    out = _root() / "minilm-2-layers"
    model.save_pretrained(str(out))
    AutoTokenizer.from_pretrained(str(source), local_files_only=True).save_pretrained(str(out))
    return out
