"""The plain-transformers MiniLM embedder: sentence-transformers' vectors, without importing it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from corpus_tools.embed import MeanPoolingEmbedder, SentenceTransformerEmbedder, load_embedder, mean_pooling_layout
from corpus_tools.models import default_embedding_model_path

REPO = Path(__file__).resolve().parents[2]

TEXTS = [
    "Which magazine was started first, Arthur's Magazine or First for Women?",
    "x",
    "Zürich – naïve café, 東京, emoji 🙂 and tabs\tand\nnewlines",
    " ".join(f"word{i}" for i in range(600)),  # past the 256-token limit: truncated alike
    "The bell of Brennholt was cast in 1512. " * 12,
    "",
]


def test_same_vectors_as_sentence_transformers():
    fast = load_embedder(None)
    assert isinstance(fast, MeanPoolingEmbedder)
    reference = SentenceTransformerEmbedder(None)
    assert fast.name == reference.name and fast.dim == reference.dim
    for encode in ("encode_document", "encode_query"):
        ours = getattr(fast, encode)(TEXTS)
        theirs = getattr(reference, encode)(TEXTS)
        assert ours.dtype == np.float32 and ours.shape == theirs.shape
        assert np.abs(ours - theirs).max() < 1e-5
    # One text alone gives the vector it gets in a padded batch.
    assert np.abs(fast.encode_document([TEXTS[0]])[0] - fast.encode_document(TEXTS)[0]).max() < 1e-5


def _model_copy(tmp_path: Path, pooling: dict | None = None, prompts: dict | None = None) -> Path:
    src = default_embedding_model_path()
    dst = tmp_path / "model"
    (dst / "1_Pooling").mkdir(parents=True)
    for name in ("modules.json", "sentence_bert_config.json"):
        (dst / name).write_text((src / name).read_text())
    config = json.loads((src / "1_Pooling" / "config.json").read_text())
    config.update(pooling or {})
    (dst / "1_Pooling" / "config.json").write_text(json.dumps(config))
    if prompts is not None:
        (dst / "config_sentence_transformers.json").write_text(json.dumps({"prompts": prompts}))
    return dst


def test_only_plain_mean_pooling_models_skip_sentence_transformers(tmp_path):
    assert mean_pooling_layout(default_embedding_model_path()) == 256
    assert mean_pooling_layout(_model_copy(tmp_path / "a")) == 256
    cls = {"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False}
    assert mean_pooling_layout(_model_copy(tmp_path / "b", pooling=cls)) is None
    assert mean_pooling_layout(_model_copy(tmp_path / "c", prompts={"query": "query: "})) is None
    assert mean_pooling_layout(tmp_path / "missing") is None


@pytest.mark.slow
def test_open_and_search_never_import_sentence_transformers_torch_or_transformers(mini_index):
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from corpus_tools import Corpus\n"
        f"with Corpus.open({str(mini_index)!r}) as c:\n"
        "    assert c.search('harbour town', k=3)\n"
        "print(sorted(m for m in ('sentence_transformers', 'sklearn', 'torch', 'transformers') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], env={**os.environ, "HF_HUB_OFFLINE": "1"}, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_numpy_query_vectors_are_the_torch_ones():
    """Queries (numpy, no torch) and documents (torch) share one vector space, to float precision."""
    from corpus_tools.query_encoder import NumpyBertEncoder

    path = default_embedding_model_path()
    numpy_vectors = NumpyBertEncoder(path, 256).encode(TEXTS)
    torch_vectors = load_embedder(None)._encode(TEXTS)  # the torch path (a few documents would go to numpy)
    assert numpy_vectors.dtype == np.float32
    assert np.abs(numpy_vectors - torch_vectors).max() < 1e-5


def test_the_tokenizers_library_counts_and_splits_as_transformers_does():
    from transformers import AutoTokenizer

    from corpus_tools.models import HFTokenizer

    ours = HFTokenizer(None)
    assert ours._fast is not None  # the folder ships tokenizer.json: transformers is not needed
    theirs = AutoTokenizer.from_pretrained(str(default_embedding_model_path()), local_files_only=True)
    for text in TEXTS:
        enc = theirs(text, add_special_tokens=False, truncation=False, return_offsets_mapping=True)
        assert ours.count(text) == len(enc["input_ids"])
        assert ours.offsets(text) == [tuple(span) for span in enc["offset_mapping"]]
