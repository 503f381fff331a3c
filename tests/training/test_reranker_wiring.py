"""A trained reranker in use: Corpus.build/open(reranker=...), the manifest, search and read_document,
the agent's tool description, the `context1 index --reranker` flag, the score cache and int8
quantisation, and the clear errors for a folder that is missing or not a CrossEncoder.

A CrossEncoder folder made from the 2-layer MiniLM cut (an untrained head is enough here: these
tests check plumbing, test_reranker.py checks that training helps).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from _reranker_fixtures import MINI_CORPUS, build_mini_index, build_tiny_encoder

from context1 import AgentConfig
from context1.harness import Episode
from context1.prompts import RERANKED, SEARCH_CORPUS
from corpus_tools import Corpus, CorpusConfig, Leg, SearchConfig
from corpus_tools.models import default_embedding_model_path
from corpus_tools.rerank import CrossEncoderReranker, NoReranker, blend_with_first_stage


@pytest.fixture(scope="session")
def mini_index() -> Path:
    return build_mini_index()


@pytest.fixture(scope="module")
def cross_encoder(tmp_path_factory) -> Path:
    from training.reranker import load_cross_encoder

    out = tmp_path_factory.mktemp("ce") / "tiny-ce"
    load_cross_encoder(build_tiny_encoder(), 128).save_pretrained(str(out))
    return out


def _search_description(corpus) -> str:
    episode = Episode(corpus, "who founded Veldhaven?", AgentConfig())
    return next(t["function"]["description"] for t in episode.tool_schemas if t["function"]["name"] == SEARCH_CORPUS)


def test_build_with_a_reranker_records_it_and_search_and_read_use_it(cross_encoder, tmp_path):
    config = CorpusConfig(embedding_cache=str(tmp_path / "cache"))
    with Corpus.build(MINI_CORPUS, tmp_path / "idx", config=config, progress=False, reranker=cross_encoder) as corpus:
        assert isinstance(corpus.reranker, CrossEncoderReranker) and corpus.reranker_note is None
        manifest = json.loads((tmp_path / "idx" / "manifest.json").read_text())
        assert manifest["reranker"]["kind"] == "cross-encoder"
        assert manifest["reranker"]["path"] == str(cross_encoder.absolute())
        assert manifest["config"]["search"]["reranker"] == str(cross_encoder.absolute())
        hits = corpus.search("who designed the lighthouse", k=5)
        assert [h.ranks[Leg.RERANK.value] for h in hits] == [1, 2, 3, 4, 5]
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True)
        read = corpus.read("korrin-bay", query="lighthouse")
        assert read and Leg.RERANK.value in read[0].ranks
        assert RERANKED.strip() in _search_description(corpus)
    with Corpus.open(tmp_path / "idx") as reopened:  # the manifest's reranker comes back by itself
        assert isinstance(reopened.reranker, CrossEncoderReranker)


def test_prompt_says_reranking_only_when_a_reranker_runs(mini_index):
    with Corpus.open(mini_index, reranker="none") as corpus:
        assert isinstance(corpus.reranker, NoReranker)
        assert "rerank" not in _search_description(corpus).lower()


def test_opening_with_another_reranker_is_allowed_and_recorded(mini_index, cross_encoder):
    with Corpus.open(mini_index, reranker=str(cross_encoder)) as corpus:
        assert isinstance(corpus.reranker, CrossEncoderReranker)
        assert corpus.reranker_note and "built with 'none'" in corpus.reranker_note
        assert corpus.search("salt merchants", k=3)


def test_missing_or_wrong_reranker_folders_fail_at_open(mini_index, tmp_path):
    with pytest.raises(ValueError, match="no such path exists"):
        Corpus.open(mini_index, reranker=str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="not a CrossEncoder"):  # a sentence-embedding model, not a reranker
        Corpus.open(mini_index, reranker=str(default_embedding_model_path()))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no config.json"):
        Corpus.open(mini_index, reranker=str(tmp_path / "empty"))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text(json.dumps({"architectures": ["BertForSequenceClassification"]}))
    with pytest.raises(ValueError, match="cannot load the CrossEncoder"):
        Corpus.open(mini_index, reranker=str(broken))


def test_a_trained_folder_is_served_at_the_length_it_was_trained_at(mini_index, cross_encoder, tmp_path):
    import shutil

    from corpus_tools.rerank import DEFAULT_CROSS_ENCODER_MAX_LENGTH, TRAINING_REPORT

    with Corpus.open(mini_index, reranker=str(cross_encoder)) as corpus:  # no training report: the default
        assert corpus.reranker.max_length == DEFAULT_CROSS_ENCODER_MAX_LENGTH
        assert corpus.reranker.describe()["quantized"] is True  # int8 on CPU: the only variant under 0.5 s
    trained = tmp_path / "trained-ce"
    shutil.copytree(cross_encoder, trained)
    (trained / TRAINING_REPORT).write_text(json.dumps({"steps": 3, "config": {"max_length": 96}}))
    with Corpus.open(mini_index, reranker=str(trained)) as corpus:
        assert corpus.reranker.max_length == 96
        assert corpus.reranker.describe()["max_length"] == 96
    for broken in ("{not json", '{"config": ["max_length", 96]}', '{"config": {"max_length": "96"}}'):
        (trained / TRAINING_REPORT).write_text(broken)  # unreadable report: served at the default, no error
        with Corpus.open(mini_index, reranker=str(trained)) as corpus:
            assert corpus.reranker.max_length == DEFAULT_CROSS_ENCODER_MAX_LENGTH


def test_build_refuses_a_non_cross_encoder_before_indexing(tmp_path):
    with pytest.raises(ValueError, match="not a CrossEncoder"):
        Corpus.build(MINI_CORPUS, tmp_path / "idx", progress=False, reranker=default_embedding_model_path())
    assert not (tmp_path / "idx").exists()


def test_score_cache_and_quantisation(mini_index, cross_encoder):
    with Corpus.open(mini_index, reranker="none") as corpus:
        chunks = [h.chunk for h in corpus.search("salt barges on the river", k=12)]
    fp32 = CrossEncoderReranker(cross_encoder, max_length=128, quantize=False)
    first = fp32.score("salt barges on the river", chunks)
    assert fp32.cache_misses == len(chunks) and fp32.cache_hits == 0
    again = fp32.score("salt barges on the river", chunks[:5])
    assert fp32.cache_hits == 5 and np.allclose(again, first[:5])
    fp32.score("another query", chunks[:2])
    assert fp32.cache_misses == len(chunks) + 2  # the key is (query, chunk)
    int8 = CrossEncoderReranker(cross_encoder, max_length=128, quantize=True, cache_size=0)
    quantized = int8.score("salt barges on the river", chunks)
    # An untrained head's logits differ by ~0.01, below int8 noise: only check it is really another model.
    assert quantized.shape == first.shape and np.all(np.isfinite(quantized)) and not np.allclose(quantized, first)
    assert int8.describe()["quantized"] is True


def test_index_cli_flag(cross_encoder, tmp_path):
    import typer
    from typer.testing import CliRunner

    from context1.interfaces import cli_corpus

    app = typer.Typer(pretty_exceptions_enable=False)
    cli_corpus.register(app)
    docs = MINI_CORPUS / "docs.jsonl"
    ok = CliRunner().invoke(app, ["index", str(docs), str(tmp_path / "i"), "--reranker", str(cross_encoder), "--no-progress"])
    assert ok.exit_code == 0, ok.output
    assert json.loads((tmp_path / "i" / "manifest.json").read_text())["reranker"]["kind"] == "cross-encoder"
    bad = CliRunner().invoke(app, ["index", str(docs), str(tmp_path / "j"), "--reranker", str(default_embedding_model_path())])
    assert bad.exit_code == 2 and "not a CrossEncoder" in bad.output


def test_blend_with_first_stage_is_weighted_rrf_of_the_two_orders():
    # Candidates arrive in first-stage order 0, 1, 2; the reranker prefers 2 > 0 > 1.
    scores = [0.5, 0.1, 0.9]
    assert blend_with_first_stage(scores, 0.0)[0] == [2, 0, 1]  # the reranker alone
    assert blend_with_first_stage(scores, 1.0)[0] == [0, 1, 2]  # the first stage alone
    order, blended = blend_with_first_stage(scores, 0.5, k=60)
    # 0: .5/62 + .5/61, 2: .5/61 + .5/63, 1: .5/63 + .5/62 (hand-computed)
    assert order == [0, 2, 1]
    assert blended[0] == pytest.approx(0.5 / 62 + 0.5 / 61)


def test_first_stage_weight_bounds_what_the_reranker_can_reorder(mini_index, cross_encoder):
    query = "who designed the lighthouse"
    with Corpus.open(mini_index, reranker="none") as corpus:
        fused = [h.chunk.chunk_id for h in corpus.search(query, k=8)]
    with Corpus.open(mini_index, reranker=str(cross_encoder)) as corpus:
        pure = corpus.search(query, k=8)
    with Corpus.open(mini_index, reranker=str(cross_encoder), search=SearchConfig(first_stage_weight=1.0)) as corpus:
        kept = corpus.search(query, k=8)
    assert [h.chunk.chunk_id for h in kept] == fused  # weight 1: the reranker only scores, the fusion orders
    assert [h.ranks[Leg.RERANK.value] for h in pure] == list(range(1, 9))
    assert all(Leg.RERANK.value in h.ranks for h in kept)  # the reranker's own rank is still recorded
    with pytest.raises(ValueError, match="first_stage_weight"):
        SearchConfig(first_stage_weight=1.5)
