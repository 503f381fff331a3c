"""Hybrid search: relevance on the fixture corpus, leg bookkeeping, exclusions, budgets, rerankers."""

from __future__ import annotations

import numpy as np
import pytest

from corpus_tools import Corpus, EmptyQueryError, Leg, SearchConfig, make_reranker
from corpus_tools.models import default_embedding_model_path
from corpus_tools.rerank import BiEncoderReranker, CrossEncoderReranker, NoReranker


def ids(hits):
    return [h.chunk.chunk_id for h in hits]


@pytest.mark.parametrize(
    ("query", "expected_doc"),
    [
        ("who designed the basalt lighthouse", "korrin-bay"),
        ("first woman captain of a steamship on the Grey Sea", "mirelle-dask"),
        ("mayor of Veldhaven", "veldhaven"),
        ("hiking path named after an engineer", "quell-trail"),
    ],
)
def test_search_finds_the_relevant_document_first(corpus, query, expected_doc):
    hits = corpus.search(query, k=5)
    assert hits[0].chunk.doc_id == expected_doc


def test_hits_keep_every_legs_rank_and_score(corpus):
    hits = corpus.search("Tobias Quell lighthouse engineer", k=10)
    assert len(hits) == 10
    assert [h.ranks[Leg.FUSED.value] for h in hits] == list(range(1, 11))  # no reranker: fused order
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    for hit in hits:
        assert set(hit.ranks) == set(hit.scores)
        assert set(hit.ranks) <= {Leg.BM25.value, Leg.DENSE.value, Leg.FUSED.value}
        assert Leg.DENSE.value in hit.ranks  # every chunk is a dense candidate in a 20-chunk corpus
        assert hit.score == pytest.approx(hit.scores[Leg.FUSED.value])
        # RRF with k=60 over the legs that saw the chunk
        expected = sum(1 / (60 + hit.ranks[leg]) for leg in (Leg.BM25.value, Leg.DENSE.value) if leg in hit.ranks)
        assert hit.scores[Leg.FUSED.value] == pytest.approx(expected)
    top = hits[0]
    assert top.ranks[Leg.BM25.value] == 1 and top.scores[Leg.BM25.value] > 0
    assert -1.0 <= top.scores[Leg.DENSE.value] <= 1.0


def test_bm25_leg_ranks_only_matching_chunks(corpus):
    hits = corpus.search("salamander", k=20)
    bm25_hits = [h for h in hits if Leg.BM25.value in h.ranks]
    assert ids(bm25_hits) == ["sallow-hills#0"]


def test_exclusions_do_not_shrink_the_result(corpus):
    first = corpus.search("Ostmere river towns", k=5)
    excluded = ids(first)
    second = corpus.search("Ostmere river towns", k=5, exclude=excluded)
    assert len(second) == 5
    assert not set(ids(second)) & set(excluded)
    # Excluding everything but three chunks leaves exactly those three.
    everything = ids(corpus.search("Ostmere", k=len(corpus)))
    assert len(everything) == len(corpus) == 20
    rest = corpus.search("Ostmere", k=10, exclude=everything[3:])
    assert sorted(ids(rest)) == sorted(everything[:3])


def test_exclusion_renumbers_leg_ranks(corpus):
    top = corpus.search("smoked herring market", k=3)
    again = corpus.search("smoked herring market", k=3, exclude=[top[0].chunk.chunk_id])
    assert again[0].ranks[Leg.FUSED.value] == 1
    assert again[0].chunk.chunk_id == top[1].chunk.chunk_id


def test_token_budget_cuts_at_the_first_chunk_that_does_not_fit(corpus):
    hits = corpus.search("Brennholt academy", k=10)
    sizes = [h.chunk.n_tokens for h in hits]
    budget = sizes[0] + sizes[1] + sizes[2] - 1  # the third no longer fits
    cut = corpus.search("Brennholt academy", k=10, token_budget=budget)
    assert ids(cut) == ids(hits[:2])
    assert sum(h.chunk.n_tokens for h in cut) <= budget
    assert corpus.search("Brennholt academy", k=10, token_budget=sizes[0] - 1) == []
    assert corpus.search("Brennholt academy", k=10, token_budget=0) == []
    assert ids(corpus.search("Brennholt academy", k=10, token_budget=10**6)) == ids(hits)


def test_k_and_odd_queries(corpus):
    with pytest.raises(ValueError, match="k must be between 1"):  # was [] without a word (issue 24)
        corpus.search("lanterns", k=0)
    assert len(corpus.search("lanterns", k=3)) == 3
    for empty in ("", "   \n"):  # refused, as the CLI refuses it (the dense leg would rank noise)
        with pytest.raises(EmptyQueryError, match="empty"):
            corpus.search(empty, k=3)
        with pytest.raises(ValueError, match="empty"):
            corpus.search_leg(empty, "dense")
    assert len(corpus.search("zzzqqq-unknownword", k=4)) == 4
    assert len(corpus.search("the of and", k=4)) == 4  # stopwords only
    with pytest.raises(ValueError, match="string"):
        corpus.search(None)


def test_search_is_deterministic(corpus):
    assert ids(corpus.search("glassworks owner", k=10)) == ids(corpus.search("glassworks owner", k=10))


def test_biencoder_reranker_orders_by_cosine(mini_index):
    with Corpus.open(mini_index, reranker="biencoder") as reranked:
        assert isinstance(reranked.reranker, BiEncoderReranker)
        hits = reranked.search("who captained the Aurora", k=8)
        assert [h.ranks[Leg.RERANK.value] for h in hits] == list(range(1, 9))
        scores = [h.scores[Leg.RERANK.value] for h in hits]
        assert scores == sorted(scores, reverse=True)
        assert all(h.score == h.scores[Leg.RERANK.value] for h in hits)
        # The rerank score is the dense leg's cosine (the same embedder, vectors read back from Chroma).
        for h in hits:
            assert h.scores[Leg.RERANK.value] == pytest.approx(h.scores[Leg.DENSE.value], abs=1e-4)


def test_custom_reranker_object_is_used(mini_index):
    class PreferPellis:
        name = "prefer-pellis"

        def score(self, query, chunks):
            return np.array([1.0 if c.doc_id == "pellis" else 0.0 for c in chunks])

    with Corpus.open(mini_index, reranker=PreferPellis()) as reranked:
        hits = reranked.search("Tobias Quell", k=3)
        assert hits[0].chunk.doc_id == "pellis"
        assert hits[0].ranks[Leg.RERANK.value] == 1 and hits[0].score == 1.0


def test_cross_encoder_reranker_from_a_local_path(corpus, tmp_path):
    # A sentence-embedding folder is refused (issue 8); the same weights saved with a one-logit head
    # are a CrossEncoder (untrained: enough to exercise the plumbing; tests/training train one).
    with pytest.raises(ValueError, match="not a CrossEncoder"):
        make_reranker(str(default_embedding_model_path()), corpus.embedder)
    from sentence_transformers import CrossEncoder

    CrossEncoder(str(default_embedding_model_path()), num_labels=1, local_files_only=True).save_pretrained(
        str(tmp_path / "ce")
    )
    reranker = make_reranker(str(tmp_path / "ce"), corpus.embedder)
    assert isinstance(reranker, CrossEncoderReranker)
    chunks = [corpus.chunk("pellis#0"), corpus.chunk("veldhaven#0")]
    scores = reranker.score("island sheep farming", chunks)
    assert scores.shape == (2,) and np.all(np.isfinite(scores))


def test_make_reranker_choices(corpus):
    assert isinstance(make_reranker("none", corpus.embedder), NoReranker)
    assert isinstance(make_reranker("biencoder", corpus.embedder), BiEncoderReranker)
    with pytest.raises(ValueError, match="none.*biencoder"):
        make_reranker("colbert", corpus.embedder)


def test_search_config_override(mini_index):
    with Corpus.open(mini_index, search=SearchConfig(candidates=3, leg_k=5)) as narrow:
        assert len(narrow.search("Ostmere", k=2)) == 2
        hits = narrow.search("Ostmere", k=10)
        assert len(hits) == 10  # k past the candidates widens the pool instead of a silent cap at 3


def test_search_leg_returns_one_legs_ranking(corpus):
    for leg in ("bm25", "dense"):
        hits = corpus.search_leg("lighthouse engineer", leg, k=5)
        assert 0 < len(hits) <= 5
        assert [h.ranks[leg] for h in hits] == list(range(1, len(hits) + 1))
        top = hits[0].chunk.chunk_id
        assert top not in {h.chunk.chunk_id for h in corpus.search_leg("lighthouse engineer", leg, 5, exclude=[top])}


def test_search_leg_rejects_other_legs(corpus):
    with pytest.raises(ValueError, match="bm25"):
        corpus.search_leg("x", "fused")


def test_similarity_is_the_dense_cosine(corpus):
    hit = corpus.search_leg("lighthouse engineer", "dense", k=1)[0]
    (sim,) = corpus.similarity("lighthouse engineer", [hit.chunk.chunk_id])
    assert abs(float(sim) - hit.scores["dense"]) < 1e-3
