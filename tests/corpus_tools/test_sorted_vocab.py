"""A search looks its terms up in the sorted vocabulary file, not by parsing the JSON vocabulary.

At 1M chunks vocab.index.json holds 1.06M terms and parsing it was 1.5 s of a 1.9 s cold search.
"""

from __future__ import annotations

import numpy as np
import pytest

from corpus_tools import Corpus, Document
from corpus_tools.bm25 import SortedVocab

TEXTS = ["Über die Brücke ging der Schäfer mit seinen Schafen.", "The river town was founded by wool merchants.",
         "A lighthouse keeper watched ships in the harbour.", "Naïve café owners sold crème brûlée by the river."]


def test_sorted_vocab_finds_every_term_and_nothing_else(tmp_path):
    vocab = {"river": 3, "über": 0, "café": 7, "a": 1, "zebra": 2, "brücke": 5, "crème": 4, "riverside": 6}
    SortedVocab.save(tmp_path / "v.npz", vocab)
    found = SortedVocab.load(tmp_path / "v.npz", len(vocab))
    assert found is not None and len(found) == len(vocab)
    assert {term: found[term] for term in vocab} == vocab
    assert dict(found.items()) == vocab and set(found) == set(vocab)
    for missing in ("", "rive", "rivers", "zzz", "0", "caf"):
        assert missing not in found and found.get(missing) is None
    assert SortedVocab.load(tmp_path / "v.npz", len(vocab) + 1) is None  # out of step with the matrix
    assert SortedVocab.load(tmp_path / "absent.npz", 3) is None


def _bm25_folder(path):
    return next(p.parent for p in path.rglob("vocab.index.json"))


def test_a_search_does_not_parse_the_json_vocabulary(tmp_path):
    path = tmp_path / "idx"
    docs = [Document(f"d{i}", text) for i, text in enumerate(TEXTS)]
    with Corpus.build(docs, path, progress=False) as corpus:
        want = [(h.chunk.doc_id, h.score) for h in corpus.search_leg("river café Brücke", "bm25", k=4)]
    assert want and want[0][0] in ("d1", "d3")
    folder = _bm25_folder(path)
    for name in ("vocab.index.json", "term_vocab.json"):
        (folder / name).write_text("{not json")  # the query path must not need them
    with Corpus.open(path, reranker="none") as corpus:
        got = [(h.chunk.doc_id, h.score) for h in corpus.search_leg("river café Brücke", "bm25", k=4)]
    assert [d for d, _ in got] == [d for d, _ in want]
    assert np.allclose([s for _, s in got], [s for _, s in want])


def test_a_sorted_vocabulary_out_of_step_falls_back_to_the_json(tmp_path):
    path = tmp_path / "idx"
    docs = [Document(f"d{i}", text) for i, text in enumerate(TEXTS)]
    with Corpus.build(docs, path, progress=False) as corpus:
        want = [h.chunk.doc_id for h in corpus.search_leg("lighthouse harbour", "bm25", k=2)]
    SortedVocab.save(_bm25_folder(path) / "vocab.sorted.npz", {"lighthouse": 0})  # one term: stale
    with Corpus.open(path, reranker="none") as corpus:
        assert [h.chunk.doc_id for h in corpus.search_leg("lighthouse harbour", "bm25", k=2)] == want


@pytest.mark.parametrize("deleted", [[1], [0, 3], [5, -1, 2]])
def test_deleted_lines_out_of_range_are_ignored_when_a_table_opens(tmp_path, deleted):
    from corpus_tools import index_format
    from corpus_tools.table import ChunkTable
    from corpus_tools.types import Chunk

    table = tmp_path / "chunks.jsonl"
    with open(table, "wb") as f:
        index_format.write_rows(f, [Chunk(f"c{i}", f"d{i}", f"text {i}", 0, 2, {}) for i in range(4)])
    opened = ChunkTable.open([table], np.asarray(deleted, dtype=np.int64))
    assert [c.chunk_id for c in opened] == [f"c{i}" for i in range(4) if i not in deleted]
