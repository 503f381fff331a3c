"""Fixtures for the eval tests: the hand-written benchmark files, and one tiny real index.

The index holds the six paragraphs of the HotpotQA fixture (plus its corpus file), embedded with
the real MiniLM model into a per-session embedding cache, so runners are tested end to end.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the suite never downloads anything

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "eval"


@pytest.fixture(scope="session")
def hotpot_bench():
    from eval.loaders import load_hotpotqa

    return load_hotpotqa(
        [FIX / "hotpotqa/hotpot_hf.json", FIX / "hotpotqa/hotpot_original.json"],
        corpus_paths=[FIX / "hotpotqa/hotpot_corpus.json"],
    )


@pytest.fixture(scope="session")
def tiny_index(tmp_path_factory, hotpot_bench) -> Path:
    from corpus_tools import Corpus, CorpusConfig

    root = tmp_path_factory.mktemp("eval-index")
    config = CorpusConfig(embedding_cache=str(root / "cache"))
    Corpus.build(hotpot_bench.documents, root / "index", config=config, progress=False).close()
    return root / "index"
