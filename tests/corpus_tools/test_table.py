"""An opened index keeps its chunk table on disk, and its BM25 build keeps term ids and matrix there too.

Memory is measured with tracemalloc (Python objects and numpy buffers report to it; memory-mapped
file pages do not), so the checks are about bytes held by the process, not time.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from corpus_tools import BM25Config, Chunk
from corpus_tools import bm25 as bm25_module
from corpus_tools import table as table_module
from corpus_tools.bm25 import BM25Builder, BM25Index
from corpus_tools.index_format import write_chunk_table
from corpus_tools.table import ChunkTable


def _chunks(n: int, text_chars: int = 1000) -> list[Chunk]:
    filler = "lorem ipsum dolor sit amet " * (text_chars // 27 + 1)
    return [
        Chunk(
            f"doc-{i // 4}#{i % 4}", f"doc-{i // 4}", f"row {i} {filler}"[:text_chars], i % 4, 200, {"title": f"T{i}"}
        )
        for i in range(n)
    ]


def test_an_opened_table_holds_numbers_not_rows(tmp_path):
    chunks = _chunks(4_000)  # ~4 MB of text
    path = tmp_path / "chunks.jsonl"
    write_chunk_table(path, chunks)
    del chunks
    tracemalloc.start()
    try:
        table = ChunkTable.open([path])
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # ~60 bytes of numbers a line (the rows stay in the mapped file); as Chunk objects the same
    # table held ~2.4 KB a row.
    assert held < 4_000 * 200, f"{held / 4_000:.0f} bytes a row"
    assert len(table) == 4_000
    assert table[1234].text.startswith("row 1234 ")
    assert table.row_of("doc-308#2") == 1234
    assert table.doc_rows("doc-308") == [1232, 1233, 1234, 1235]
    assert table.row_of("doc-308#9") is None and table.doc_rows("nope") is None
    assert table.n_docs() == 1_000 and table.doc_ids()[:2] == ["doc-0", "doc-1"]


def test_lookups_are_confirmed_against_the_row_so_hash_collisions_cannot_mislead(tmp_path, monkeypatch):
    path = tmp_path / "chunks.jsonl"
    write_chunk_table(path, _chunks(40, text_chars=50))
    # Every id, vector id and doc id "collides": only the parsed row can tell them apart.
    monkeypatch.setattr(table_module, "_key", lambda text: 7)
    table = ChunkTable.open([path])
    assert table.row_of("doc-3#1") == 13
    assert table.doc_rows("doc-3") == [12, 13, 14, 15]
    assert table.row_of_vector(table.vector_id(21)) == 21
    assert table.row_of("doc-3#7") is None


def test_derive_keeps_rows_and_appends_a_segment(tmp_path):
    base, segment = tmp_path / "chunks.jsonl", tmp_path / "chunks.1.jsonl"
    write_chunk_table(base, _chunks(8, text_chars=40))
    extra = [Chunk("new#0", "new", "a new row", 0, 3, {})]
    write_chunk_table(segment, extra)
    table = ChunkTable.open([base]).derive(np.array([0, 1, 2, 3, 6]), segment)
    assert [c.chunk_id for c in table] == ["doc-0#0", "doc-0#1", "doc-0#2", "doc-0#3", "doc-1#2", "new#0"]
    assert table.lines.tolist() == [0, 1, 2, 3, 6, 8] and table.n_lines == 9
    assert table.doc_rows("doc-1") == [4] and table.row_of("new#0") == 5
    # The same rows as opening both files with the deleted lines.
    reopened = ChunkTable.open([base, segment], deleted=np.array([4, 5, 7]))
    assert [c.chunk_id for c in reopened] == [c.chunk_id for c in table]


def _texts(n_docs: int, per_doc: int, n_vocab: int, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    ids = rng.zipf(1.3, (n_docs, per_doc)) % n_vocab
    return [" ".join(f"w{t}" for t in row) for row in ids]


@pytest.mark.parametrize("method", ["lucene", "robertson"])
def test_a_spilled_bm25_build_scores_as_the_in_memory_one(tmp_path, method):
    config = BM25Config(method=method, stem=False, stopwords=None)
    texts = _texts(3_000, 40, 800)
    in_memory, spilled = BM25Builder(config), BM25Builder(config, spill=tmp_path / "terms.spill")
    for text in texts:
        in_memory.add(text)
        spilled.add(text)
    in_memory.build().save(tmp_path / "a")
    spilled.write(tmp_path / "b")
    assert not (tmp_path / "terms.spill").exists()
    a, b = BM25Index.load(tmp_path / "a", config), BM25Index.load(tmp_path / "b", config)
    assert a.n_docs == b.n_docs == 3_000
    for query in ("w1 w2", "w17 w300 w5", "w799"):
        assert np.array_equal(a.scores(query), b.scores(query))
    # The same terms row by row; a spilled build numbers them by rank (its vocabulary is merged from blocks).
    (terms_a, offsets_a), (terms_b, offsets_b) = a.term_ids(), b.term_ids()
    assert np.array_equal(offsets_a, offsets_b)
    names_a, names_b = sorted(a.vocab(), key=a.vocab().get), sorted(b.vocab(), key=b.vocab().get)
    assert [names_a[t] for t in terms_a.tolist()] == [names_b[t] for t in terms_b.tolist()]


def test_a_spilled_bm25_build_holds_neither_term_ids_nor_matrix(tmp_path, monkeypatch):
    monkeypatch.setattr(bm25_module, "_BLOCK_DOCS", 512)  # one block's temporaries stay small
    config = BM25Config(stem=False, stopwords=None)
    builder = BM25Builder(config, spill=tmp_path / "terms.spill")
    for text in _texts(20_000, 50, 3_000):
        builder.add(text)
    tracemalloc.start()
    try:
        builder.write(tmp_path / "bm25")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    on_disk = sum(
        (tmp_path / "bm25" / name).stat().st_size
        for name in ("terms.npy", "data.csc.index.npy", "indices.csc.index.npy")
    )
    # In memory the term ids and the matrix (~12 MB here) were all held at once.
    assert peak < 0.3 * on_disk, f"peak {peak / 2**20:.1f} MiB for {on_disk / 2**20:.1f} MiB on disk"
    index = BM25Index.load(tmp_path / "bm25", config)
    assert isinstance(index._matrix.data, np.memmap)  # searched from the page cache
    assert index.top("w3", 1)


def test_row_heads_read_without_parsing_give_what_json_gives(tmp_path):
    """The fast path (ids read off each row's head) against json.loads, on ids that need escapes, non-ASCII
    ids, and rows of an older layout (no vector_id, other key order) mixed into one file."""
    import json

    chunks = [
        Chunk("plain#0", "plain", "text one", 0, 3, {"a": 1}),
        Chunk('quo"ted\\doc#1', 'quo"ted\\doc', 'a "quoted" text', 1, 4, {}),
        Chunk("café/ünïcode 𝄞#0", "café/ünïcode 𝄞", "ünïcode text", 0, 2, {"t": "é"}),
        Chunk("tab\tid#2", "tab\tid", "x", 2, 1, {}),
    ]
    path = tmp_path / "chunks.jsonl"
    write_chunk_table(path, chunks, ["plain#0:v", "vec-other", "café/ünïcode 𝄞#0", "tab\tid#2:v"])
    old_row = {"doc_id": "legacy", "chunk_id": "legacy#0", "text": "old layout", "position": 0, "n_tokens": 2,
               "metadata": {}}  # fmt: skip
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(old_row) + "\n")
    table = ChunkTable.open([path])
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(table) == len(rows) == 5
    for i, row in enumerate(rows):
        assert table.chunk_id(i) == row["chunk_id"]
        assert table.vector_id(i) == (row.get("vector_id") or row["chunk_id"])
        assert table.row_of(row["chunk_id"]) == i and table.doc_rows(row["doc_id"]) == [i]
        assert table[i] == Chunk(row["chunk_id"], row["doc_id"], row["text"], row["position"], row["n_tokens"],
                                 row["metadata"])  # fmt: skip
    assert table.n_tokens_total() == sum(r["n_tokens"] for r in rows)


def test_an_add_hashes_the_doc_ids_only(tmp_path):
    # A process's first add looks its documents up by doc id; hashing every chunk id and vector id
    # as well was two thirds of a first add at 1M lines (3M Python hashes, 0.9 s of 1.4 s).
    from corpus_tools import Corpus, Document

    path = tmp_path / "idx"
    Corpus.build([Document(f"d{i}", f"Paragraph {i} about rivers and hills.") for i in range(20)], path,
                 progress=False).close()
    with Corpus.open(path, reranker="none") as corpus:
        corpus.add([Document("d3", "A new text for the third paragraph."), Document("new", "A new document.")])
        lines = corpus._state.chunks._lines
        assert set(lines._hashes) == {2}
        assert sorted({c.doc_id for c in corpus._state.chunks}) == sorted([f"d{i}" for i in range(20)] + ["new"])
        assert [c.text for c in corpus._state.chunks if c.doc_id == "d3"] == ["A new text for the third paragraph."]
