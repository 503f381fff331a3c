"""chunk_document: token-bounded, overlapping, verbatim slices, cut at sentence ends where it can."""

from __future__ import annotations

import random

import pytest

from corpus_tools.chunking import ChunkingConfig, chunk_document, chunk_documents
from corpus_tools.models import default_tokenizer
from corpus_tools.types import Document


@pytest.fixture(scope="module")
def tokenizer():
    return default_tokenizer()


def _prose(n_paragraphs: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    words = "river stone meadow lantern harbor copper violet thunder orchard compass internationalization".split()
    paragraphs = []
    for _ in range(n_paragraphs):
        sentences = [
            " ".join(rng.choice(words) for _ in range(rng.randint(4, 14))).capitalize() + "."
            for _ in range(rng.randint(2, 6))
        ]
        paragraphs.append(" ".join(sentences))
    return "\n\n".join(paragraphs)


def _spans(text: str, chunks) -> list[tuple[int, int]]:
    """Character span of each chunk in the source (chunks are verbatim slices, in order)."""
    spans, cursor = [], 0
    for chunk in chunks:
        start = text.find(chunk.text, cursor)
        assert start >= 0, f"chunk {chunk.chunk_id} is not a verbatim slice of the document"
        spans.append((start, start + len(chunk.text)))
        cursor = start + 1
    return spans


def test_config_validates_overlap_and_size():
    assert ChunkingConfig() == ChunkingConfig(chunk_tokens=256, overlap_tokens=32)
    with pytest.raises(ValueError, match="overlap_tokens"):
        ChunkingConfig(chunk_tokens=64, overlap_tokens=64)
    with pytest.raises(ValueError, match="overlap_tokens"):
        ChunkingConfig(chunk_tokens=64, overlap_tokens=-1)
    with pytest.raises(ValueError, match="chunk_tokens"):
        ChunkingConfig(chunk_tokens=0, overlap_tokens=0)


def test_short_document_is_one_chunk(tokenizer):
    doc = Document("notes/a.md", "  The Moon is tidally locked.\n", title="Moon", metadata={"lang": "en"})
    [chunk] = chunk_document(doc, tokenizer, ChunkingConfig())
    assert chunk.chunk_id == "notes/a.md#0" and chunk.doc_id == "notes/a.md" and chunk.position == 0
    assert chunk.text == "The Moon is tidally locked."  # the exact slice, without the surrounding blanks
    assert chunk.n_tokens == tokenizer.count(chunk.text)
    assert chunk.metadata == {"lang": "en", "title": "Moon"}


def test_untitled_document_gets_an_empty_title(tokenizer):
    [chunk] = chunk_document(Document("x", "Text."), tokenizer, ChunkingConfig())
    assert chunk.metadata == {"title": ""}


def test_whitespace_only_document_has_no_chunks(tokenizer):
    assert chunk_document(Document("blank", " \n\t \n"), tokenizer, ChunkingConfig()) == []


@pytest.mark.parametrize(("size", "overlap"), [(256, 32), (64, 8), (16, 4), (8, 0)])
def test_long_document_chunks_are_bounded_verbatim_and_overlapping(tokenizer, size, overlap):
    text = _prose(25)
    chunks = chunk_document(Document("d", text, "T"), tokenizer, ChunkingConfig(size, overlap))
    assert len(chunks) > 1
    assert [c.position for c in chunks] == list(range(len(chunks)))
    assert [c.chunk_id for c in chunks] == [f"d#{i}" for i in range(len(chunks))]
    assert all(0 < c.n_tokens <= size and c.n_tokens == tokenizer.count(c.text) for c in chunks)
    spans = _spans(text, chunks)
    # Together the chunks cover every token of the document.
    covered = set()
    for start, end in spans:
        covered.update(range(start, end))
    assert all(all(i in covered for i in range(s, e)) for s, e in tokenizer.offsets(text))
    for (s1, e1), (s2, _) in zip(spans, spans[1:], strict=False):
        assert s1 < s2  # progress
        shared = tokenizer.count(text[s2:e1]) if s2 < e1 else 0
        assert shared <= overlap
        if overlap == 0:
            assert s2 >= e1


def test_overlap_repeats_the_end_of_the_previous_chunk(tokenizer):
    text = " ".join(f"word{i}" for i in range(400))  # no sentence ends: cuts fall between words
    chunks = chunk_document(Document("d", text), tokenizer, ChunkingConfig(64, 16))
    for left, right in zip(chunks, chunks[1:], strict=False):
        first_word = right.text.split()[0]
        assert first_word in left.text.split()[-8:]  # the next chunk starts inside the previous one's tail


def test_windows_prefer_sentence_ends(tokenizer):
    text = _prose(30, seed=1).replace("\n\n", " ")  # one paragraph: only sentence and word boundaries
    chunks = chunk_document(Document("d", text), tokenizer, ChunkingConfig(128, 16))
    assert len(chunks) > 3
    # Sentences are at most ~20 tokens, so the last quarter (32 tokens) of every window holds an end.
    assert all(c.text.endswith(".") for c in chunks)


def test_windows_prefer_paragraph_breaks(tokenizer):
    paragraphs = [" ".join(["alpha beta gamma."] * 10) for _ in range(12)]  # ~40 tokens each
    text = "\n\n".join(paragraphs)
    chunks = chunk_document(Document("d", text), tokenizer, ChunkingConfig(100, 0))
    spans = _spans(text, chunks)
    assert all(text[end : end + 2] == "\n\n" for _, end in spans[:-1])


def test_text_without_spaces_is_cut_mid_word_and_still_fits(tokenizer):
    # Hyphens split pre-tokens but leave no whitespace gap, so no window finds a word boundary.
    rng = random.Random(5)
    text = "prefix " + "-".join("".join(rng.choice("abcdefghij") for _ in range(12)) for _ in range(60)) + " suffix"
    chunks = chunk_document(Document("d", text), tokenizer, ChunkingConfig(32, 4))
    assert len(chunks) > 2
    assert all(c.n_tokens <= 32 and c.text in text for c in chunks)


def test_chunking_is_deterministic(tokenizer):
    doc = Document("d", _prose(15, seed=3), "T")
    config = ChunkingConfig(48, 8)
    assert chunk_document(doc, tokenizer, config) == chunk_document(doc, tokenizer, config)


def test_chunk_documents_streams_every_document(tokenizer):
    docs = [Document("a", "First."), Document("b", "  "), Document("c", _prose(6))]
    chunks = list(chunk_documents(docs, tokenizer, ChunkingConfig(32, 4)))
    assert chunks[0].chunk_id == "a#0"
    assert {c.doc_id for c in chunks} == {"a", "c"}
    assert [c.position for c in chunks if c.doc_id == "c"] == list(range(len(chunks) - 1))
