"""Fixtures of the datagen tests (the corpus helpers live in datagen_fixtures.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the suite never downloads anything

from datagen_fixtures import as_chunks, fixture_documents  # noqa: E402

from corpus_tools.types import Chunk  # noqa: E402


@pytest.fixture(scope="session")
def nlp():  # noqa: ANN201
    """spaCy's en_core_web_sm as datagen loads it (cached: one load for the whole run)."""
    from datagen.nlp import load_pipeline

    return load_pipeline()


@pytest.fixture()
def chunks() -> list[Chunk]:
    return as_chunks(fixture_documents())


@pytest.fixture(scope="session")
def datagen_index(tmp_path_factory) -> Path:
    """A real index (MiniLM embeddings, embedded Chroma) of the datagen fixture corpus."""
    from corpus_tools import Corpus, CorpusConfig

    root = tmp_path_factory.mktemp("datagen-index")
    config = CorpusConfig(embedding_cache=str(root / "cache"))
    Corpus.build(fixture_documents(), root / "index", config=config, progress=False).close()
    return root / "index"
