"""Fixtures of the datagen tests (the corpus helpers live in datagen_fixtures.py)."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the suite never downloads anything

from datagen_fixtures import as_chunks, fixture_documents  # noqa: E402

from corpus_tools.types import Chunk  # noqa: E402


@pytest.fixture()
def chunks() -> list[Chunk]:
    return as_chunks(fixture_documents())
