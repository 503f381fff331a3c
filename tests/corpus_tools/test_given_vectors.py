"""Bring-your-own vectors: a record's vector field is indexed instead of embedding its text.

Each document here carries the vector of *another* text, so a dense search finds it by that
text only if its own vector was used (embedding the record's text would not). A vector of the
wrong dimension or from another model is refused with both named; on the old code the field is
silently dropped and every test here fails.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from corpus_tools import Corpus, CorpusConfig, Document, load_documents
from corpus_tools.embed import load_embedder

MODEL = CorpusConfig().embedding_model
# (id, text, the text whose vector the record carries)
ROWS = [
    ("a", "Apples ripen in the orchard in late September.", "the lighthouse keeper climbs the stairs at night"),
    ("b", "Quarterly revenue rose on strong cloud demand.", "a wombat digs a burrow under the hill"),
    ("c", "The river town was founded by wool merchants.", "sailing ships unload spices in the harbour"),
]


def _vector(text: str) -> list[float]:
    return load_embedder(MODEL).encode_document([text])[0].tolist()


def _write_jsonl(path, rows, dim_cut: int | None = None):
    with path.open("w") as handle:
        for doc_id, text, borrowed in rows:
            vector = _vector(borrowed)[:dim_cut] if dim_cut else _vector(borrowed)
            handle.write(json.dumps({"id": doc_id, "text": text, "emb": vector, "year": 2024}) + "\n")
    return path


def test_vectors_from_a_jsonl_field_are_indexed_as_given(tmp_path, config):
    source = _write_jsonl(tmp_path / "docs.jsonl", ROWS)
    report = load_documents(source, vector_field="emb", vector_model=MODEL)
    assert not report.skipped and report.documents[0].metadata == {"year": 2024}  # the vector is no metadata
    with Corpus.build(report, tmp_path / "idx", config=config, progress=False) as corpus:
        for (doc_id, _, borrowed) in ROWS:
            assert corpus.search_leg(borrowed, "dense", k=1)[0].chunk.doc_id == doc_id, borrowed
        # add takes them too, and the row holds the given vector (normalised)
        given = np.asarray(_vector("an emu crosses the sheep farm at dawn"), np.float32)
        corpus.add([Document("d", "Tax rates changed in the fourth quarter.", vector=given, vector_model=MODEL)])
        assert corpus.search_leg("an emu crosses the sheep farm at dawn", "dense", k=1)[0].chunk.doc_id == "d"
        row = corpus._state.chunks.row_of("d#0")
        stored = corpus._state.vectors.lines(corpus._state.chunks.row_lines([row]))[0]
        assert np.allclose(stored, given / np.linalg.norm(given), atol=1e-6)


def test_a_parquet_vector_column(tmp_path, config):
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table({
        "id": [r[0] for r in ROWS], "text": [r[1] for r in ROWS], "emb": [_vector(r[2]) for r in ROWS],
    })
    pq.write_table(table, tmp_path / "docs.parquet")
    report = load_documents(tmp_path / "docs.parquet", vector_field="emb", vector_model=MODEL)
    assert [d.doc_id for d in report.documents] == ["a", "b", "c"]
    with Corpus.build(report, tmp_path / "idx", config=config, progress=False) as corpus:
        assert corpus.search_leg(ROWS[1][2], "dense", k=1)[0].chunk.doc_id == "b"


def test_wrong_dimension_names_both(tmp_path, config):
    report = load_documents(_write_jsonl(tmp_path / "d.jsonl", ROWS, dim_cut=128), vector_field="emb",
                            vector_model=MODEL)
    with pytest.raises(ValueError, match=r"128-d vector.*all-MiniLM-L6-v2.*384-d"):
        Corpus.build(report, tmp_path / "idx", config=config, progress=False)
    assert not (tmp_path / "idx").exists()  # nothing half-built is left


def test_another_model_names_both(tmp_path, config):
    report = load_documents(_write_jsonl(tmp_path / "d.jsonl", ROWS), vector_field="emb",
                            vector_model="BAAI/bge-small-en-v1.5")
    with pytest.raises(ValueError, match=r"made by 'BAAI/bge-small-en-v1.5'.*embeds with 'all-MiniLM-L6-v2'"):
        Corpus.build(report, tmp_path / "idx", config=config, progress=False)
    # a hub-style id of the same model is the same model
    ok = load_documents(tmp_path / "d.jsonl", vector_field="emb", vector_model=f"sentence-transformers/{MODEL}")
    Corpus.build(ok, tmp_path / "idx2", config=config, progress=False).close()


def test_bad_vector_input(tmp_path, config):
    with pytest.raises(ValueError, match="vector_field and vector_model go together"):
        load_documents(tmp_path, vector_field="emb")
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"id": "x", "text": "no vector here"},
        {"id": "y", "text": "a string", "emb": "0.1 0.2"},
        {"id": "z", "text": "zeros", "emb": [0.0, 0.0]},
    ]) + "\n")
    report = load_documents(path, vector_field="emb", vector_model=MODEL)
    assert not report.documents and len(report.skipped) == 3
    assert "no vector in field 'emb'" in report.skipped[0].reason
    unnamed = Document("u", "A vector without its model.", vector=np.ones(384, np.float32))
    with pytest.raises(ValueError, match="no vector_model"):
        Corpus.build([unnamed], tmp_path / "idx", config=config, progress=False)
    long_text = " ".join(f"word{i}" for i in range(600))  # several chunks: one vector cannot cover them
    doc = Document("long", long_text, vector=np.ones(384, np.float32), vector_model=MODEL)
    with pytest.raises(ValueError, match="carries one vector but makes"):
        Corpus.build([doc], tmp_path / "idx", config=config, progress=False)


def test_device_is_checked(tmp_path):
    from corpus_tools.embed import check_device

    with pytest.raises(ValueError, match="CorpusConfig.device"):
        CorpusConfig(device="tpu")
    check_device("cpu")
    import torch

    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="sees no CUDA GPU"):
            check_device("cuda")
