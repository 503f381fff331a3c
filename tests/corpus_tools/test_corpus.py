"""Building, reopening, updating and inspecting an index; every bad-input path gives a clear error."""

from __future__ import annotations

import json
import shutil

import pytest

from corpus_tools import (
    Chunk,
    ChunkingConfig,
    Corpus,
    CorpusConfig,
    CorpusError,
    Document,
    IndexFormatError,
    Leg,
    UnknownDocumentError,
)


def test_build_writes_a_self_contained_folder(mini_index):
    names = {p.name for p in mini_index.iterdir()}
    assert {"manifest.json", "chunks.jsonl", "bm25", "chroma", "skipped.jsonl"} <= names
    assert not list(mini_index.parent.glob("mini.building-*"))
    manifest = json.loads((mini_index / "manifest.json").read_text())
    assert manifest["format"] == "context1-index" and manifest["format_version"] == 1
    assert manifest["embedding_model"] == "all-MiniLM-L6-v2" and manifest["embedding_dim"] == 384
    assert manifest["doc_count"] == 20 and manifest["chunk_count"] == 20
    assert manifest["counts"]["documents"] == 20
    assert manifest["config"]["chunking"] == {"chunk_tokens": 256, "overlap_tokens": 32, "turn_starts": False}
    assert manifest["config"]["search"]["rrf_k"] == 60 and manifest["config"]["search"]["candidates"] == 50
    assert manifest["vector_store"] == "embedded"
    assert {"chromadb", "context1"} <= set(manifest["versions"]) and "bm25s" not in manifest["versions"]
    assert manifest["created_at"] and manifest["updated_at"]


def test_open_restores_everything(corpus, mini_docs):
    assert len(corpus) == 20
    assert corpus.doc_ids() == [d.doc_id for d in mini_docs]
    assert corpus.has_doc("pellis") and not corpus.has_doc("atlantis")
    assert corpus.title("aurora-ship") == "Aurora (steamship)"
    chunk = corpus.chunk("pellis#0")
    assert isinstance(chunk, Chunk)
    assert chunk.doc_id == "pellis" and chunk.position == 0
    assert chunk.text.startswith("Pellis is a small island town")
    assert chunk.n_tokens == corpus.count_tokens(chunk.text)
    assert corpus.chunks("pellis") == [chunk]
    assert corpus.manifest["chunk_count"] == 20
    assert corpus.skipped == []
    assert corpus.embedder.dim == 384
    assert corpus.count_tokens("") == 0 and corpus.count_tokens("lighthouse keeper") >= 2


def test_chunk_ids_are_stable_across_builds(tmp_path, config, corpus, mini_corpus_path):
    with Corpus.build(mini_corpus_path, tmp_path / "again", config=config, progress=False) as again:
        assert [again.chunk(c).text for c in [f"{d}#0" for d in again.doc_ids()]] == [
            corpus.chunk(f"{d}#0").text for d in corpus.doc_ids()
        ]
        assert {c.chunk_id for d in again.doc_ids() for c in again.chunks(d)} == {
            c.chunk_id for d in corpus.doc_ids() for c in corpus.chunks(d)
        }


def test_rebuild_reuses_cached_embeddings(tmp_path, config, corpus, mini_corpus_path):
    stats = corpus.cache_stats
    with Corpus.build(mini_corpus_path, tmp_path / "cached", config=config, progress=False) as rebuilt:
        after = rebuilt.cache_stats
    assert after["misses"] == stats["misses"]
    assert after["hits"] - stats["hits"] >= 20


def test_long_documents_are_chunked_with_positions(tmp_path, config):
    text = " ".join(f"Sentence number {i} tells of the harbour at Veldhaven." for i in range(120))
    cfg = CorpusConfig(
        embedding_cache=config.embedding_cache, chunking=ChunkingConfig(chunk_tokens=64, overlap_tokens=8)
    )
    with Corpus.build([Document("long", text, title="Long")], tmp_path / "long", config=cfg, progress=False) as c:
        chunks = c.chunks("long")
        assert len(chunks) > 5
        assert [ch.position for ch in chunks] == list(range(len(chunks)))
        assert [ch.chunk_id for ch in chunks] == [f"long#{i}" for i in range(len(chunks))]
        assert all(ch.n_tokens <= 64 for ch in chunks)
        assert c.manifest["config"]["chunking"]["chunk_tokens"] == 64


def test_read_in_position_order_and_by_relevance(tmp_path, config):
    text = "\n\n".join(
        [
            "The mill on the river ground wheat for the whole valley.",
            "In winter the miller repaired the great wooden wheel.",
            "A fox lived under the bridge and stole chickens from the farm.",
            "The miller's daughter became a famous painter of river scenes.",
        ]
    )
    cfg = CorpusConfig(
        embedding_cache=config.embedding_cache, chunking=ChunkingConfig(chunk_tokens=16, overlap_tokens=0)
    )
    with Corpus.build([Document("mill", text, title="The Mill")], tmp_path / "mill", config=cfg, progress=False) as c:
        hits = c.read("mill")
        assert [h.chunk.position for h in hits] == list(range(len(c.chunks("mill"))))
        assert [h.ranks[Leg.READ.value] for h in hits] == [h.chunk.position + 1 for h in hits]
        by_fox = c.read("mill", query="fox stealing chickens")
        assert "chickens" in by_fox[0].chunk.text
        assert [h.ranks[Leg.RERANK.value] for h in by_fox] == list(range(1, len(hits) + 1))
        assert sorted(h.chunk.chunk_id for h in by_fox) == sorted(h.chunk.chunk_id for h in hits)
        budget = hits[0].chunk.n_tokens + hits[1].chunk.n_tokens
        assert [h.chunk.position for h in c.read("mill", token_budget=budget)] == [0, 1]
        assert c.read("mill", token_budget=hits[0].chunk.n_tokens - 1) == []
        assert len(c.read("mill", query="fox", token_budget=by_fox[0].chunk.n_tokens)) == 1


def test_unknown_ids_suggest_close_ones(corpus):
    with pytest.raises(UnknownDocumentError, match="Did you mean 'pellis'"):
        corpus.read("pelis")
    with pytest.raises(UnknownDocumentError, match="Unknown doc_id 'nowhere'"):
        corpus.chunks("nowhere")
    with pytest.raises(UnknownDocumentError, match="Unknown chunk_id"):
        corpus.chunk("pellis#7")
    with pytest.raises(UnknownDocumentError):
        corpus.title("nope")
    try:
        corpus.read("pelis")
    except KeyError as exc:  # also a KeyError, printed without quotes
        assert str(exc).startswith("Unknown doc_id")


def test_add_new_and_replace_existing(fresh_corpus):
    c = fresh_corpus
    added = c.add(
        [Document("zephyr-mill", "The Zephyr windmill grinds barley beside the Ostmere.", title="Zephyr Mill")]
    )
    assert added == 1 and len(c) == 21 and c.has_doc("zephyr-mill")
    assert c.search("windmill barley", k=1)[0].chunk.doc_id == "zephyr-mill"
    assert c.grep("Zephyr")[0].chunk.chunk_id == "zephyr-mill#0"
    # Replacing: the old text is gone from every leg.
    c.add([Document("pellis", "Pellis is now famous for its observatory and meteor showers.", title="Pellis")])
    assert len(c) == 21
    assert "observatory" in c.chunk("pellis#0").text
    assert c.grep("sheep farming") == []
    assert c.search("observatory meteor", k=1)[0].chunk.doc_id == "pellis"
    assert c.manifest["generation"] == 2 and c.manifest["chunk_count"] == 21
    # Everything survives a reopen.
    path = c.path
    c.close()
    with Corpus.open(path) as reopened:
        assert len(reopened) == 21
        assert "observatory" in reopened.chunk("pellis#0").text
        assert reopened.search("windmill barley", k=1)[0].chunk.doc_id == "zephyr-mill"
        # The current generation and the previous one (kept for readers in other processes).
        # Generations 1 and 2 are deltas on the built base (each its new row and that row's term
        # ids; 2 also the dead line it replaced): a user's add never compacts.
        # Each table file has its line numbers and metadata columns beside it, each generation its vectors.
        assert sorted(
            p.name for p in path.iterdir() if p.name.startswith(("chunks", "bm25", "terms", "deleted", "vectors"))
        ) == [
            "bm25",
            "chunks.1.jsonl",
            "chunks.1.lines.npz",
            "chunks.1.meta.npz",
            "chunks.2.jsonl",
            "chunks.2.lines.npz",
            "chunks.2.meta.npz",
            "chunks.jsonl",
            "chunks.lines.npz",
            "chunks.meta.npz",
            "deleted.2.npy",
            "terms.1.npz",
            "terms.2.npz",
            "vectors.1.npy",
            "vectors.2.npy",
            "vectors.npy",
        ]


def test_delete_removes_from_every_leg(fresh_corpus):
    c = fresh_corpus
    assert c.delete(["korrin-bay", "no-such-doc"]) == 1
    assert c.delete("korrin-bay") == 0
    assert not c.has_doc("korrin-bay") and len(c) == 19
    assert "korrin-bay#0" not in [h.chunk.chunk_id for h in c.search("basalt lighthouse village", k=19)]
    assert c.grep("basalt") == []
    assert c._store.count() == 19
    with pytest.raises(UnknownDocumentError):
        c.read("korrin-bay")
    path = c.path
    c.close()
    with Corpus.open(path) as reopened:
        assert len(reopened) == 19 and not reopened.has_doc("korrin-bay")


def test_add_reports_documents_without_text(fresh_corpus):
    assert fresh_corpus.add([Document("blank", "   \n ")]) == 0
    assert any(s.path == "blank" for s in fresh_corpus.skipped)
    assert len(fresh_corpus) == 20


def test_build_records_what_the_loader_skipped(tmp_path, config):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text("Quarry workers cut the grey stone of Brennholt.")
    (src / "b.bin").write_bytes(b"\x00\x01\x02")
    (src / "empty.txt").write_text("  ")
    with Corpus.build(src, tmp_path / "idx", config=config, progress=False) as c:
        assert c.doc_ids() == ["a.txt"]
        assert {s.path.split("/")[-1] for s in c.skipped} == {"b.bin", "empty.txt"}
        assert c.manifest["counts"]["skipped"] == 2
    with Corpus.open(tmp_path / "idx") as reopened:
        assert len(reopened.skipped) == 2


def test_build_from_nothing_is_an_error(tmp_path, config):
    with pytest.raises(CorpusError, match="No documents to index"):
        Corpus.build([], tmp_path / "none", config=config, progress=False)
    assert not (tmp_path / "none").exists()
    assert not list(tmp_path.glob("none.building-*"))


def test_build_refuses_to_replace_a_folder_that_is_not_an_index(tmp_path, config, mini_corpus_path):
    target = tmp_path / "precious"
    target.mkdir()
    (target / "thesis.txt").write_text("do not delete")
    with pytest.raises(ValueError, match="not a context1 index"):
        Corpus.build(mini_corpus_path, target, config=config, progress=False)
    assert (target / "thesis.txt").read_text() == "do not delete"


def test_rebuild_replaces_an_existing_index(tmp_path, config):
    path = tmp_path / "idx"
    Corpus.build([Document("a", "Alpha text about owls.")], path, config=config, progress=False).close()
    with Corpus.build([Document("b", "Beta text about otters.")], path, config=config, progress=False) as c:
        assert c.doc_ids() == ["b"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]


def test_open_errors_say_what_is_missing(tmp_path, mini_index):
    with pytest.raises(IndexFormatError, match="does not exist"):
        Corpus.open(tmp_path / "missing")
    (tmp_path / "plain").mkdir()
    with pytest.raises(IndexFormatError, match="no manifest.json.*Corpus.build"):
        Corpus.open(tmp_path / "plain")
    broken = tmp_path / "broken"
    shutil.copytree(mini_index, broken)
    (broken / "manifest.json").write_text("{not json")
    with pytest.raises(IndexFormatError, match="not valid JSON"):
        Corpus.open(broken)
    (broken / "manifest.json").write_text(json.dumps({"format": "something-else"}))
    with pytest.raises(IndexFormatError, match="not a context1 manifest"):
        Corpus.open(broken)
    manifest = json.loads((mini_index / "manifest.json").read_text())
    (broken / "manifest.json").write_text(json.dumps({**manifest, "format_version": 99}))
    with pytest.raises(IndexFormatError, match="format version 99"):
        Corpus.open(broken)
    (broken / "manifest.json").write_text(json.dumps(manifest))
    shutil.rmtree(broken / "bm25")
    with pytest.raises(IndexFormatError, match="missing its bm25"):
        Corpus.open(broken)


def test_config_round_trips_through_the_manifest(corpus):
    config = CorpusConfig.from_dict(corpus.manifest["config"])
    assert config == corpus.config
    with pytest.raises(ValueError, match="batch_size"):
        CorpusConfig(batch_size=0)
