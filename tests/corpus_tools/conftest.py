"""Shared fixtures: one tiny index (20 invented documents) built once per test session.

The embedding cache lives in a session temp folder, so rebuilding the fixture corpus elsewhere in
the suite costs no embedding at all (and nothing touches ~/.cache).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the suite never downloads anything

from corpus_tools import Corpus, CorpusConfig, Document, load_documents  # noqa: E402

MINI_CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mini_corpus"


@pytest.fixture(scope="session")
def mini_corpus_path() -> Path:
    """tests/fixtures/mini_corpus: 20 short invented documents (towns, people, ships) as JSONL."""
    return MINI_CORPUS


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("embedding-cache")


@pytest.fixture(scope="session")
def config(cache_dir) -> CorpusConfig:
    return CorpusConfig(embedding_cache=str(cache_dir))


@pytest.fixture(scope="session")
def mini_docs() -> list[Document]:
    return list(load_documents(MINI_CORPUS).documents)


@pytest.fixture(scope="session")
def mini_index(tmp_path_factory, config) -> Path:
    """Path of the session's read-only index of tests/fixtures/mini_corpus."""
    path = tmp_path_factory.mktemp("indexes") / "mini"
    Corpus.build(MINI_CORPUS, path, config=config, progress=False).close()
    return path


@pytest.fixture(scope="session")
def corpus(mini_index):
    """The session's shared, read-only Corpus (tests that add or delete build their own)."""
    with Corpus.open(mini_index) as opened:
        yield opened


@pytest.fixture
def fresh_corpus(tmp_path, config):
    """A private copy of the mini index, for tests that modify it (cheap: embeddings are cached)."""
    with Corpus.build(MINI_CORPUS, tmp_path / "index", config=config, progress=False) as built:
        yield built
