"""The learned fusion: a linear score over the legs' ranks and scores, fitted on generated tasks, applied
inside `Corpus.search` from a folder like any reranker (corpus_tools.learned_fusion, training.fusion)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from _reranker_fixtures import build_mini_index

from corpus_tools import Corpus
from corpus_tools.learned_fusion import FEATURES, FUSION_FILE, RRF_WEIGHTS, LearnedFusion
from eval.loaders import save_tasks
from training.fusion import TooFewQueriesError, fit_fusion, fit_weights
from training.reranker_data import sentence_window_tasks

QUERIES = ["lighthouse keeper", "river trade in the north", "who founded the observatory", "glass furnace"]


@pytest.fixture(scope="module")
def mini_index():
    return build_mini_index()


def ids(hits):  # noqa: ANN001, ANN201
    return [h.chunk.chunk_id for h in hits]


def test_rrf_weights_reproduce_the_fused_order_exactly(mini_index, tmp_path) -> None:  # noqa: ANN001
    LearnedFusion(RRF_WEIGHTS).save(tmp_path / "rrf")
    with Corpus.open(mini_index, reranker="none") as plain, Corpus.open(mini_index, reranker=tmp_path / "rrf") as fused:
        assert isinstance(fused.reranker, LearnedFusion)
        for q in QUERIES:
            assert ids(plain.search(q, k=10)) == ids(fused.search(q, k=10))


def test_weights_reorder_the_candidates_by_what_they_weigh(mini_index, tmp_path) -> None:  # noqa: ANN001
    cosine_only = [0.0] * len(FEATURES)
    cosine_only[FEATURES.index("cosine")] = 1.0
    LearnedFusion(cosine_only).save(tmp_path / "dense")
    changed = 0
    with Corpus.open(mini_index, reranker="none") as plain, Corpus.open(mini_index, reranker=tmp_path / "dense") as corpus:
        for q in QUERIES:
            hits = corpus.search(q, k=10)
            cos = [h.scores["dense"] for h in hits if "dense" in h.scores]
            assert cos == sorted(cos, reverse=True) and all("rerank" in h.ranks for h in hits)
            changed += ids(hits) != ids(plain.search(q, k=10))
    assert changed  # a fusion that only reproduced RRF would pass the sort check by luck, not this one


def test_the_fit_finds_the_feature_that_marks_the_gold() -> None:
    rng = np.random.default_rng(0)
    groups = []
    for i in range(80):
        x = rng.random((20, len(FEATURES)))
        y = np.zeros(20)
        y[int(np.argmax(x[:, FEATURES.index("bm25/best")]))] = 1.0
        groups.append((f"t{i}", x, y))
    w = fit_weights(groups)
    j = FEATURES.index("bm25/best")
    assert w[j] > 5 * max(abs(v) for k, v in enumerate(w) if k != j)


def test_fit_writes_a_folder_the_corpus_opens_and_warns_on_copied_tasks(mini_index, tmp_path) -> None:  # noqa: ANN001
    with Corpus.open(mini_index, reranker="none") as corpus:
        tasks = sentence_window_tasks(corpus, n=60, seed=2, per_chunk=4)
    said: list[str] = []
    fusion, report = fit_fusion(mini_index, tasks, tmp_path / "fz", progress=False, log=said.append)
    assert report.copied_share == 1.0 and "copied from the text" in said[0]
    assert report.train_queries + report.val_queries == report.queries and report.queries + sum(report.skipped.values()) == 60
    assert set(report.weights) == set(FEATURES) and 0 < report.mrr_fitted <= 1
    reopened = LearnedFusion.load(tmp_path / "fz")
    assert np.allclose(reopened.weights, fusion.weights) and reopened.report["tasks"] == 60
    with Corpus.open(mini_index, reranker=tmp_path / "fz") as corpus:
        assert len(corpus.search(QUERIES[0], k=5)) == 5
    with pytest.raises(TooFewQueriesError, match="too few usable queries"):
        fit_fusion(mini_index, tasks[:5], tmp_path / "small", progress=False)
    assert not (tmp_path / "small").exists()


def test_damaged_or_foreign_fusion_files_fail_at_open_with_what_to_do(mini_index, tmp_path) -> None:  # noqa: ANN001
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / FUSION_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="no readable"):
        Corpus.open(mini_index, reranker=folder)
    (folder / FUSION_FILE).write_text(json.dumps({"format": "other", "weights": [1, 1]}), encoding="utf-8")
    with pytest.raises(ValueError, match="--kind fusion"):
        Corpus.open(mini_index, reranker=folder)
    with pytest.raises(ValueError, match="finite weights"):
        LearnedFusion([1.0, float("nan"), 0, 0, 0, 0])
    with pytest.raises(TypeError, match="Corpus.search"):
        LearnedFusion(RRF_WEIGHTS).score("q", [])


def test_cli_fits_a_fusion_by_default_and_refuses_an_unknown_kind(mini_index, tmp_path) -> None:  # noqa: ANN001
    from typer.testing import CliRunner

    from context1.interfaces.cli import app
    from training.cli import register

    register(app) if "train" not in {g.name for g in app.registered_groups} else None
    with Corpus.open(mini_index, reranker="none") as corpus:
        save_tasks(sentence_window_tasks(corpus, n=60, seed=3, per_chunk=4), tmp_path / "tasks.jsonl")
    args = ["train", "reranker", str(mini_index), "--tasks", str(tmp_path / "tasks.jsonl"), "--out", str(tmp_path / "fz")]
    result = CliRunner().invoke(app, [*args, "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "learned fusion" in result.output and (tmp_path / "fz" / FUSION_FILE).is_file()
    bad = CliRunner().invoke(app, [*args, "--kind", "bogus"])
    assert bad.exit_code != 0 and "--kind must be" in bad.output


def test_an_index_built_with_a_fusion_folder_uses_it_and_a_damaged_one_is_refused_before_indexing(mini_index, tmp_path) -> None:  # noqa: ANN001
    """`context1 index SOURCE DIR --reranker FOLDER` (Corpus.build(reranker=)): recorded, reopened with it."""
    from _reranker_fixtures import MINI_CORPUS, _root

    from corpus_tools import CorpusConfig

    LearnedFusion(RRF_WEIGHTS).save(tmp_path / "fz")
    config = CorpusConfig(embedding_cache=str(_root() / "embedding-cache"))
    Corpus.build(MINI_CORPUS, tmp_path / "idx", config=config, progress=False, reranker=tmp_path / "fz").close()
    with Corpus.open(tmp_path / "idx") as corpus, Corpus.open(mini_index, reranker="none") as plain:
        assert isinstance(corpus.reranker, LearnedFusion)
        assert ids(corpus.search(QUERIES[0], k=10)) == ids(plain.search(QUERIES[0], k=10))
    (tmp_path / "fz" / FUSION_FILE).write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="no readable"):
        Corpus.build(MINI_CORPUS, tmp_path / "idx2", config=config, progress=False, reranker=tmp_path / "fz")
    assert not (tmp_path / "idx2").exists()


class _LiftedIndex:
    """A search whose served order holds what the legs cannot show (as the filings' constraint lifts and
    line-item rows do): the gold chunk is always first, its leg ranks and scores drawn like the others'."""

    def __init__(self) -> None:
        from types import SimpleNamespace

        self.config = SimpleNamespace(search=SimpleNamespace(rrf_k=60, candidates=20))
        self.calls: list[dict] = []
        self.rng = np.random.default_rng(0)

    def search(self, query: str, k: int = 10, constraints=None):  # noqa: ANN001, ANN201
        from corpus_tools.types import Chunk, Hit

        self.calls.append({"query": query, "constraints": constraints})
        n = int(query.split()[-1])
        bm25 = self.rng.permutation(k) + 1
        dense = self.rng.permutation(k) + 1
        return [Hit(Chunk(f"d{n}-{i}#0", f"d{n}-{i}", "text", 0, 1), 1.0 / (i + 1),
                    {"bm25": int(bm25[i]), "dense": int(dense[i])},
                    {"bm25": float(self.rng.random()), "dense": float(self.rng.random())}) for i in range(k)]


def test_a_fit_that_ranks_below_the_index_s_own_search_is_refused_and_nothing_written(tmp_path) -> None:
    from corpus_tools.types import Task
    from training.fusion import FusionLosesError

    index = _LiftedIndex()
    tasks = [Task(f"t{i}", f"What was the figure of filing {i}", answers=("1",), gold_chunk_ids=(f"d{i}-0#0",))
             for i in range(200)]
    with pytest.raises(FusionLosesError, match="below the index's own search") as refused:
        fit_fusion(index, tasks, tmp_path / "fz", use_hops=False, progress=False)
    assert "MRR" in str(refused.value) and "1.000" in str(refused.value)  # the served order finds every gold first
    assert not (tmp_path / "fz").exists()
    assert {c["constraints"] for c in index.calls} == {"auto"}  # fitted on the searches the agent makes


def test_another_corpus_s_tasks_join_the_fit_as_its_own_queries(mini_index, tmp_path) -> None:  # noqa: ANN001
    """Issue 36: MuSiQue's dev corpus gives too few queries; another index's tasks join the fit, each searched
    in its own index. Split across two task sets, the fit is the one the whole set gives; alone, the five
    main tasks are too few."""
    with Corpus.open(mini_index, reranker="none") as corpus:
        tasks = sentence_window_tasks(corpus, n=60, seed=2, per_chunk=4)
    with pytest.raises(TooFewQueriesError):
        fit_fusion(mini_index, tasks[:5], tmp_path / "alone", progress=False)
    whole, whole_report = fit_fusion(mini_index, tasks, tmp_path / "whole", progress=False)
    joined, report = fit_fusion(mini_index, tasks[:5], tmp_path / "joined", progress=False,
                                extra=[(mini_index, tasks[5:])])
    assert report.tasks == 60 and report.queries == whole_report.queries
    assert np.allclose(joined.weights, whole.weights)
