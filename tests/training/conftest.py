"""Fixtures for the training tests: the mini corpus as a real index, and tasks over it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from corpus_tools import Corpus, CorpusConfig, load_documents  # noqa: E402
from eval.types import Task  # noqa: E402

MINI_CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mini_corpus"


@pytest.fixture(scope="session")
def mini_corpus(tmp_path_factory) -> Corpus:
    docs = list(load_documents(MINI_CORPUS).documents)
    config = CorpusConfig(embedding_cache=str(tmp_path_factory.mktemp("train-embedding-cache")))
    path = tmp_path_factory.mktemp("train-index") / "index"
    with Corpus.build(docs, path, config=config, progress=False) as corpus:
        yield corpus


@pytest.fixture(scope="session")
def mini_tasks() -> list[Task]:
    return [
        Task("t-mayor", "Who is the mayor of the river town founded by salt merchants?", answers=("Ilsa Marrow",),
             gold_doc_ids=("veldhaven", "ilsa-marrow"), hops=2),
        Task("t-bay", "Where was the glassblower mayor of Veldhaven born?", answers=("Korrin Bay",),
             gold_doc_ids=("ilsa-marrow", "korrin-bay"), hops=2),
    ]

