"""The learned passage ranker (issue 34): one filing's table row that cosine ranks below prose about the
same metric is lifted into the agent's answer; an index without a ranker answers exactly as before."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from context1 import SearchAgent
from context1.backends.iterative import (
    DocPart,
    DocParts,
    IterativeConfig,
    IterativeRetrievalPolicy,
    rerank_one_document,
)
from context1.backends.llm_free import Ranking
from corpus_tools import ChunkingConfig, Corpus, CorpusConfig, Document
from corpus_tools.passage_ranker import (
    COSINE_WEIGHTS,
    FEATURES,
    PASSAGE_RANKER_DIR,
    RANKER_FILE,
    PassageRanker,
    PassageRankerError,
    index_passage_ranker,
    passage_features,
)
from corpus_tools.types import Task

FILLER = "The condensed consolidated financial statements are unaudited and were prepared for interim periods. "
QUESTION = "How much did Korrin Foods spend on research and development in the quarter ended June 30, 2023?"
# The weights `context1 train reranker --kind passage` fitted on 400 generated tasks over the real filings
# (cosine gap, row match, table, term share, first search, years, figures), rounded.
FILINGS_WEIGHTS = (9.7, 1.8, 1.0, 2.5, 3.0, -1.7, 1.6)


def _filing(company: str, rd: str) -> Document:
    """A 10-Q where seven paragraphs talk about research and development and one table row gives the figure."""
    prose = [
        f"Research and development. {company} invests in research and development to build new products; "
        f"research and development spending supports the long-term strategy of {company}. " + FILLER,
        f"Our research and development teams work on engineering and product design, and research and development "
        f"remains a priority for {company}. " + FILLER,
        f"Risk factors. If our research and development efforts fail, {company} may lose customers. " + FILLER,
        f"Management believes research and development investment drives growth at {company}. " + FILLER,
        f"Research and development costs are expensed as incurred by {company}. " + FILLER,
        f"{company} expects research and development spending to grow next year. " + FILLER,
        f"Competition requires continued research and development by {company}. " + FILLER,
    ]
    table = ("Statements of operations (in millions) | Three months ended June 30, 2023 | Three months ended June 30, 2022\n"
             "Net sales | 81,797 | 82,959\nCost of sales | 45,384 | 47,074\nGross margin | 36,413 | 35,885\n"
             "Interest income | 1,200 | 980\nOther income | 230 | 190\nDepreciation | 2,900 | 2,800\n"
             f"Research and development | {rd} | 6,797\nSelling, general and administrative | 5,973 | 6,012\n"
             "Total operating expenses | 13,415 | 12,809\nOperating income | 22,998 | 23,076")
    return Document(doc_id=f"{company.lower().split()[0]}-10q.txt",
                    text="\n\n".join([f"{company} Form 10-Q.", *prose, table, FILLER * 2]), title=f"{company} 10-Q")


@pytest.fixture(scope="module")
def filing_index(tmp_path_factory):
    """The index folder (no ranker in it yet) and its open corpus."""
    folder = tmp_path_factory.mktemp("passage-ranker") / "index"
    config = CorpusConfig(chunking=ChunkingConfig(chunk_tokens=64, overlap_tokens=0),
                          embedding_cache=str(tmp_path_factory.mktemp("passage-ranker-cache")))
    with Corpus.build([_filing("Korrin Foods", "7,442"), _filing("Velmora Industries", "3,100")], folder,
                      config=config, progress=False) as corpus:
        yield folder, corpus


@pytest.fixture
def with_ranker(filing_index):
    folder, corpus = filing_index
    PassageRanker(FILINGS_WEIGHTS).save(folder / PASSAGE_RANKER_DIR)
    yield corpus
    shutil.rmtree(folder / PASSAGE_RANKER_DIR)


def _figure_rank(result) -> int | None:
    return next((i for i, e in enumerate(result.evidence) if "7,442" in e.text), None)


def test_the_ranker_lifts_the_answer_row_that_cosine_ranks_below_prose(filing_index, with_ranker):
    _folder, corpus = filing_index
    # the fixture is hard: cosine and one search rank the talk about R&D above the table that holds the figure
    top5 = corpus.search(QUESTION, k=5)
    assert not any("7,442" in h.chunk.text for h in top5)
    off = SearchAgent(corpus, IterativeRetrievalPolicy(corpus, IterativeConfig(passage_ranker="none"))).run(QUESTION)
    assert _figure_rank(off) is None  # the agent's top 5 miss it without the ranker
    on = SearchAgent(corpus).run(QUESTION)  # the default policy finds INDEX/passage_ranker by itself
    assert _figure_rank(on) is not None and _figure_rank(on) <= 1
    assert on.evidence[0].doc_id == "korrin-10q.txt" and on.doc_ids[0] == "korrin-10q.txt"
    shown = set(on.trajectory.seen_chunk_ids())
    assert all(e.chunk_id in shown for e in on.evidence)  # only what the agent was shown
    # the same ranker named by path works on an index that holds none
    folder = corpus.path / PASSAGE_RANKER_DIR
    by_path = IterativeRetrievalPolicy(corpus, IterativeConfig(passage_ranker=str(folder)))
    assert [e.chunk_id for e in SearchAgent(corpus, by_path).run(QUESTION).evidence] == [e.chunk_id for e in on.evidence]


def test_an_index_without_a_ranker_answers_exactly_as_before(filing_index):
    _folder, corpus = filing_index
    assert index_passage_ranker(corpus.path) is None
    default = SearchAgent(corpus).run(QUESTION)
    off = SearchAgent(corpus, IterativeRetrievalPolicy(corpus, IterativeConfig(passage_ranker="none"))).run(QUESTION)
    assert [(e.chunk_id, e.score) for e in default.evidence] == [(e.chunk_id, e.score) for e in off.evidence]


def test_cosine_weights_keep_the_cosine_order_and_the_features_read_rows_and_years():
    texts = ["Research and development | 7,442 | 6,797\nNet sales | 81,797 | 82,959",
             "We invest in research and development for the long term.", "Net sales | 81,797 | 82,959"]
    cosines = [0.4, 0.9, 0.3]
    x = passage_features("research and development in 2023", texts, cosines, [None, 1, 2])
    assert x.shape == (3, len(FEATURES))
    column = {name: x[:, i] for i, name in enumerate(FEATURES)}
    assert column["cosine gap"].tolist() == pytest.approx([-0.5, 0.0, -0.6])
    assert column["row match"][0] > 0.5 and column["row match"][1] == column["row match"][2] == 0.0
    assert column["table"].tolist() == [1.0, 0.0, 1.0]
    assert column["first search"].tolist() == pytest.approx([0.0, 1.0, 5 / 6])
    assert column["years"].tolist() == [0.0, 0.0, 0.0]  # 2023 is in none of them
    scores = PassageRanker(COSINE_WEIGHTS).score("research and development in 2023", texts, cosines, [None, 1, 2])
    assert np.argsort(-scores).tolist() == np.argsort(-np.asarray(cosines)).tolist()
    with pytest.raises(ValueError, match="one cosine and one first-search rank per text"):
        passage_features("q", texts, cosines[:2], [None, 1, 2])


def test_a_first_search_over_several_documents_is_left_alone():
    chunks = {"a#0": ("a", "", "prose"), "a#1": ("a", "", "Research and development | 7 | 6"),
              "b#0": ("b", "", "prose"), "c#0": ("c", "", "prose")}
    rel = {"a#0": 0.9, "a#1": 0.5, "b#0": 0.8, "c#0": 0.7}
    docs = {d: DocPart(rel[c], c, 0.0, None, "", 0.0, None, "") for d, c in (("a", "a#0"), ("b", "b#0"), ("c", "c#0"))}
    parts = DocParts(docs, chunks, {}, {}, [], "cosine", rel)
    ranker = PassageRanker((0.0, 10.0, 0.0, 0.0, 0.0, 0.0, 0.0))  # row match only: a#1 would lead

    def similarity(query, ids):
        return [rel[i] for i in ids]

    passages = [("a#0", 0.9), ("b#0", 0.8), ("c#0", 0.7), ("a#1", 0.5)]
    spread = [Ranking("h1-search", "search_corpus", "q", [("a#0", "a", "", ""), ("b#0", "b", "", ""),
                                                          ("c#0", "c", "", "")])]
    assert rerank_one_document("research and development", parts, spread, passages, "a", ranker, 5, 0.6,
                               similarity) == passages
    one = [Ranking("h1-search", "search_corpus", "q", [("a#0", "a", "", ""), ("a#1", "a", "", "")])]
    out = rerank_one_document("research and development", parts, one, passages, "a", ranker, 5, 0.6, similarity)
    assert [c for c, _ in out] == ["a#1", "a#0", "b#0", "c#0"]
    assert all(s1 >= s2 for (_, s1), (_, s2) in zip(out[:-1], out[1:], strict=True))  # scores never rise down the list


def test_a_broken_ranker_file_is_a_clear_error_and_is_left_in_place(tmp_path):
    with pytest.raises(PassageRankerError, match="no passage ranker at"):
        PassageRanker.load(tmp_path / "missing")
    folder = tmp_path / "ranker"
    folder.mkdir()
    (folder / RANKER_FILE).write_text("{not json", encoding="utf-8")
    with pytest.raises(PassageRankerError, match="cannot read the passage ranker"):
        PassageRanker.load(folder)
    assert (folder / RANKER_FILE).read_text(encoding="utf-8") == "{not json"  # nothing lost
    PassageRanker(COSINE_WEIGHTS).save(folder)
    body = json.loads((folder / RANKER_FILE).read_text(encoding="utf-8"))
    body["features"] = ["cosine gap"]
    (folder / RANKER_FILE).write_text(json.dumps(body), encoding="utf-8")
    with pytest.raises(PassageRankerError, match="retrain it"):
        PassageRanker.load(folder)
    with pytest.raises(PassageRankerError, match="finite weights"):
        PassageRanker([1.0, float("nan"), 0, 0, 0, 0, 0])
    policy = IterativeRetrievalPolicy(None, IterativeConfig(passage_ranker=str(tmp_path / "missing")))
    with pytest.raises(PassageRankerError):
        policy.passage_ranker(policy.config)
    assert IterativeRetrievalPolicy(None).passage_ranker(IterativeConfig()) is None  # no corpus, no index ranker


def test_fitting_on_the_indexs_own_tasks_learns_the_row_and_writes_a_ranker(filing_index, tmp_path):
    from training.passage_ranker import TooFewGroupsError, fit_passage_ranker

    _folder, corpus = filing_index
    tables = {c.doc_id: c.chunk_id for d in corpus.doc_ids() for c in corpus.chunks(d) if " | " in c.text
              and "Research and development |" in c.text}
    metrics = ["research and development", "research and development spending", "research and development costs"]
    tasks = [Task(task_id=f"t{i}-{d}", query=f"What was {name}'s {m} for the quarter ended June 30, 2023?",
                  gold_doc_ids=(d,), gold_chunk_ids=(cid,))
             for i, m in enumerate(metrics) for d, cid in tables.items()
             for name in (("Korrin Foods",) if d.startswith("korrin") else ("Velmora Industries",))]
    ranker, report = fit_passage_ranker(corpus, tasks, tmp_path / "ranker", val_fraction=0.01, min_groups=3,
                                        progress=False)
    assert report.groups == len(tasks) and (tmp_path / "ranker" / RANKER_FILE).is_file()
    weights = dict(zip(FEATURES, ranker.weights, strict=True))
    assert weights["row match"] > 0 or weights["table"] > 0  # what marks the gold here
    assert PassageRanker.load(tmp_path / "ranker").weights.tolist() == pytest.approx(ranker.weights.tolist())
    with pytest.raises(TooFewGroupsError, match="Generate more tasks"):
        fit_passage_ranker(corpus, tasks[:1], tmp_path / "few", progress=False)
    assert not (tmp_path / "few").exists()


def test_the_cli_fits_a_passage_ranker_into_the_index_and_refuses_too_few_tasks(filing_index, tmp_path):
    from typer.testing import CliRunner

    from context1.interfaces.cli import app
    from eval.loaders import save_tasks
    from training.cli import register

    register(app) if "train" not in {g.name for g in app.registered_groups} else None
    folder, corpus = filing_index
    table = {c.doc_id: c.chunk_id for d in corpus.doc_ids() for c in corpus.chunks(d) if "Research and development |" in c.text}
    tasks = [Task(task_id=f"c{i}-{d}", query=f"What was the {m} for the quarter ended June 30, 2023?",
                  gold_doc_ids=(d,), gold_chunk_ids=(cid,))
             for i, m in enumerate(["research and development", "R&D expense", "research spending"] * 8)
             for d, cid in table.items()]
    save_tasks(tasks, tmp_path / "tasks.jsonl")
    save_tasks(tasks[:2], tmp_path / "few.jsonl")
    out = folder / PASSAGE_RANKER_DIR
    args = ["train", "reranker", str(folder), "--out", str(out), "--kind", "passage", "--no-progress"]
    try:
        result = CliRunner().invoke(app, [*args, "--tasks", str(tmp_path / "tasks.jsonl")])
        assert result.exit_code == 0, result.output
        assert "fitted a passage ranker" in result.output and "the agent uses it on this index" in result.output
        assert index_passage_ranker(folder) is not None
        few = CliRunner().invoke(app, [*args, "--tasks", str(tmp_path / "few.jsonl")])
        assert few.exit_code != 0 and "too few usable groups" in few.output
        assert index_passage_ranker(folder) is not None  # the ranker already there is kept
    finally:
        shutil.rmtree(out, ignore_errors=True)
