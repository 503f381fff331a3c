"""The dense leg returns the same ranking in every process that opens an index (issue 24).

Chroma re-inserted the vectors written after its last save of the HNSW graph (every 1000 vectors)
into the graph each time a process loaded it, in a different order each time; the approximate
top-100 changed from one open to the next, and `ask` with seed 0 with it. Each `Corpus.open` below
starts a fresh Chroma client, which loads the graph as a new process would.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from corpus_tools import Corpus, CorpusConfig
from corpus_tools import build as build_module
from corpus_tools.chunking import ChunkingConfig
from corpus_tools.store import ChromaStore

OFFICE = Path(__file__).resolve().parents[1] / "fixtures" / "office_corpus"
# 37 documents in windows of 32 tokens: 249 vectors, all past Chroma's first save (at 1000).
SMALL_CHUNKS = ChunkingConfig(chunk_tokens=32, overlap_tokens=0)


@pytest.fixture
def office_config(config: CorpusConfig) -> CorpusConfig:
    return dataclasses.replace(config, chunking=SMALL_CHUNKS)


def queries(corpus: Corpus) -> list[str]:
    """The fixture's 14 questions and the opening words of each document: 51 queries."""
    lines = (OFFICE / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    asked = [json.loads(line)["question"] for line in lines if line.strip()]
    return asked + [corpus.chunks(doc_id)[0].text[:80] for doc_id in corpus.doc_ids()]


def dense_rankings(corpus: Corpus, asked: list[str]) -> list[list[str]]:
    """The dense leg's top 100 (SearchConfig.leg_k, what hybrid search fuses) for each query."""
    return [[hit.chunk.chunk_id for hit in corpus.search_leg(q, "dense", k=100)] for q in asked]


def differing(first: list[list[str]], other: list[list[str]]) -> int:
    return sum(a != b for a, b in zip(first, other, strict=True))


def test_a_new_index_ranks_the_same_in_the_building_process_and_every_later_open(tmp_path, office_config):
    with Corpus.build(OFFICE, tmp_path / "index", config=office_config, progress=False) as built:
        asked = queries(built)
        first = dense_rankings(built, asked)
    for _ in range(2):
        with Corpus.open(tmp_path / "index") as opened:
            assert differing(first, dense_rankings(opened, asked)) == 0


def test_an_index_built_before_the_fix_is_settled_by_its_first_open(tmp_path, office_config, monkeypatch):
    with monkeypatch.context() as old_build:  # the build as it was: the graph's tail left unsaved
        old_build.setattr(ChromaStore, "save_every_write", lambda self: None)
        old_build.setattr(build_module, "settle_embedded", lambda folder, name: None)
        Corpus.build(OFFICE, tmp_path / "index", config=office_config, progress=False).close()
    with Corpus.open(tmp_path / "index") as opened:
        assert opened._store.saves_every_write()
        asked = queries(opened)
        first = dense_rankings(opened, asked)
    for _ in range(2):
        with Corpus.open(tmp_path / "index") as opened:
            assert differing(first, dense_rankings(opened, asked)) == 0
