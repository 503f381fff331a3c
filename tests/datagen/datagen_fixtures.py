"""Fixtures of the datagen tests: the invented linked corpus of tests/fixtures/datagen_corpus.

Its documents form one 5-document chain by titles (Marrow Lighthouse → Ilsa Venn → Kestrel
Institute → Orvald Pike → Tarn), a painter/cathedral side branch, a document that names nothing,
a look-alike distractor, two German documents and a Japanese one.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from corpus_tools.types import Chunk, Document
from datagen.types import DropReason

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "datagen_corpus" / "docs.jsonl"


def fixture_documents() -> list[Document]:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Document(r["doc_id"], r["text"], r["title"]) for r in rows]


# a page resolver that finds no page: what a fact's target is when no title names it
NO_PAGE = lambda name, proper=True, context=None: ""  # noqa: E731


def titled_chunks(docs: dict[str, tuple[str, str]]) -> list[Chunk]:
    """doc id → (title, text): one chunk per document, the title in its metadata."""
    return [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": t}) for d, (t, text) in docs.items()]


def as_chunks(docs: list[Document]) -> list[Chunk]:
    """One chunk per document (what a 256-token index makes of these short texts)."""
    return [
        Chunk(f"{d.doc_id}#0", d.doc_id, d.text, 0, len(d.text.split()), {"title": d.title or ""}) for d in docs
    ]


class NoProseGenerator:
    """The natural generator of a corpus whose prose gives nothing: every task the filings' or the report
    forms' generators wrap it with is theirs."""

    stages: Counter = Counter()

    def propose(self, hops: int, rng: random.Random) -> DropReason:
        return DropReason.NO_CHAIN

    def commit(self, candidate: object) -> None:
        pass

    def exhausted(self, hops: int) -> str:
        return "no prose facts"
