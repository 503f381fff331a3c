"""The reranker trainer: it learns (a trained model ranks held-back positives above hard negatives far
better than the same model untrained), writes a loadable sentence-transformers folder, and refuses bad
input clearly (unknown gold ids counted, too few pairs, a folder that is not a CrossEncoder).

The model is a 2-layer cut of the packaged all-MiniLM-L6-v2 (real pretrained weights, ~3x faster
than all six layers), trained for a few dozen steps on the 20-document fixture corpus.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _reranker_fixtures import build_mini_index, build_tiny_encoder

from corpus_tools import Corpus
from corpus_tools.rerank import CrossEncoderReranker
from eval.loaders import save_tasks
from eval.types import Task
from training.reranker import (
    REPORT_FILE,
    RerankerTrainConfig,
    TooFewPairsError,
    group_mrr,
    group_scores,
    load_cross_encoder,
    remove_span,
    train_reranker,
)
from training.reranker_data import (
    Group,
    build_groups,
    copied_query,
    hop_queries,
    question_query,
    sentence_window_tasks,
    split_groups,
)


@pytest.fixture(scope="session")
def mini_index() -> Path:
    return build_mini_index()


@pytest.fixture(scope="session")
def tiny_encoder() -> Path:
    return build_tiny_encoder()


# Small enough to train in seconds on 2 idle cores: 4 groups of 1 positive + 3 negatives per step, 64 tokens.
# layers=None: the tiny encoder already has only 2 layers (the default keeps 3).
FAST = {"max_length": 64, "batch_groups": 4, "negatives": 3, "depth": 10, "eval_every": 10, "patience": 10, "layers": None}


@pytest.fixture(scope="module")
def tasks(mini_index) -> list[Task]:
    with Corpus.open(mini_index, reranker="none") as corpus:
        return sentence_window_tasks(corpus, n=200, seed=1, per_chunk=4)


def test_sentence_window_tasks_come_from_chunk_text(mini_index, tasks):
    with Corpus.open(mini_index, reranker="none") as corpus:
        for task in tasks[:20]:
            chunk = corpus.chunk(task.gold_chunk_ids[0])
            assert " ".join(task.query.split()) in " ".join(chunk.text.split())
            assert 6 <= len(task.query.split()) <= 18
    assert len({t.task_id for t in tasks}) == len(tasks) >= 60


def test_groups_have_gold_positive_and_non_gold_negatives(mini_index, tasks):
    with Corpus.open(mini_index, reranker="none") as corpus:
        groups, report = build_groups(corpus, tasks[:30], negatives=5, depth=15, seed=0)
        assert report.groups == len(groups) == 30 and report.missing_ids == 0
        for task, group in zip(tasks[:30], groups, strict=True):
            gold = corpus.chunk(task.gold_chunk_ids[0])
            assert gold.text in group.positive
            assert len(group.negatives) == 5 and all(gold.text not in n for n in group.negatives)


def test_unknown_gold_ids_are_skipped_and_counted(mini_index, tasks):
    bad = [Task(task_id=f"bad{i}", query="who founded the town", gold_chunk_ids=(f"nowhere#{i}",)) for i in range(3)]
    with Corpus.open(mini_index, reranker="none") as corpus:
        groups, report = build_groups(corpus, [*tasks[:5], *bad], negatives=5, depth=15)
    assert report.groups == len(groups) == 5
    assert report.missing_ids == 3 and report.skipped["no gold chunk in the index"] == 3
    assert "nowhere#0" in report.summary() and "not in the index" in report.summary()


def test_hop_clues_give_their_own_pairs(mini_index):
    task = Task(
        task_id="t",
        query="Which engineer designed the lighthouse of the mayor's birthplace?",
        gold_doc_ids=("korrin-bay", "ilsa-marrow"),
        facts=(("ilsa-marrow",), ("korrin-bay",)),
        metadata={"clues": ["the mayor of Veldhaven was born in a fishing village", "a basalt lighthouse from 1841"]},
    )
    assert hop_queries(task)[1] == ("a basalt lighthouse from 1841", ("korrin-bay",))
    with Corpus.open(mini_index, reranker="none") as corpus:
        groups, report = build_groups(corpus, [task], negatives=5, depth=15)
    assert report.by_source == {"query": 2, "hop": 2}
    hop = [g for g in groups if g.source == "hop"]
    assert "basalt" in hop[1].positive and all("basalt" not in n for n in hop[1].negatives)
    assert all(n.split("\n")[0] not in ("Korrin Bay", "Ilsa Marrow") for g in groups for n in g.negatives)


def test_split_is_by_task_and_remove_span():
    groups = [Group(query=f"q{i}", positive="p", negatives=("n",), task_id=f"t{i // 2}") for i in range(200)]
    train, val = split_groups(groups, 0.2, seed=3)
    assert len(train) + len(val) == 200 and 10 < len(val) < 70
    assert not {g.task_id for g in train} & {g.task_id for g in val}
    # A verbatim span goes (whitespace-insensitive); the first line, a chunk's title, always stays.
    assert remove_span("Title\nAlpha beta\n gamma delta epsilon.", "beta gamma delta") == "Title\nAlpha   epsilon."
    assert remove_span("Alpha beta", "not there at all") == "Alpha beta"


def test_inverse_cloze_removes_the_source_sentence_of_a_masked_clue_and_keeps_the_title():
    # datagen's clue windows carry masks ("X", "___"), so they never occur verbatim in their positive:
    # the first trainer's span removal silently did nothing for them.
    positive = (
        "Death of Samantha (song)\nIt was recorded in New York. Death of Samantha is a song written by Yoko Ono "
        "and first released on her 1973 album Approximately Infinite Universe. It was a B-side."
    )
    query = question_query(
        "Which date fills the blank? Death of Samantha is a song written by X and first released on her ___ album"
    )
    cut = remove_span(positive, query)
    assert cut.startswith("Death of Samantha (song)\n") and "Yoko Ono" not in cut
    assert "recorded in New York" in cut and "B-side" in cut
    assert remove_span(positive, "a sentence about something else entirely here") == positive


def test_inverse_cloze_applies_only_to_queries_copied_from_the_text(mini_index, tasks):
    """A natural question's source sentence holds its answer: removing it would teach the model to rank
    passages that do not answer. Only cloze windows and sentence windows are marked copied."""
    natural = Task(
        task_id="n1", query="Who designed the lighthouse of Korrin Bay?", gold_doc_ids=("korrin-bay",),
        metadata={"generator": "natural", "form": "single"},
    )
    cloze = Task(
        task_id="c1", query="Which person fills the blank? The lighthouse was designed by ___.",
        gold_doc_ids=("korrin-bay",), metadata={"generator": "offline"},
    )
    assert [copied_query(t) for t in (natural, cloze, tasks[0])] == [False, True, True]
    assert not copied_query(Task(task_id="u", query="my own question?", gold_doc_ids=("x",)))
    with Corpus.open(mini_index, reranker="none") as corpus:
        groups, _ = build_groups(corpus, [natural, cloze], negatives=3, depth=15)
    assert {g.task_id: g.copied for g in groups} == {"n1": False, "c1": True}


def test_cli_defaults_are_the_measured_recipe():
    """`context1 train reranker` with no options trains what the config's defaults say (3 layers, 128 tokens)."""
    import inspect

    from training.cli_reranker import reranker_command

    config = RerankerTrainConfig()
    assert (config.layers, config.max_length) == (3, 128)
    params = inspect.signature(reranker_command).parameters
    for name in ("layers", "negatives", "max_length", "batch_groups", "lr", "epochs", "max_minutes",
                 "eval_every", "max_val_groups", "patience", "ict_probability", "val_fraction", "seed"):
        assert params[name].default == getattr(config, name), name


def test_fill_the_blank_queries_become_questions():
    assert question_query("Which date fills the blank? Ono released her ___ album Fly.") == (
        "When Ono released her album Fly?"
    )
    masked = "Which name fills the blank? Foli joined X in 1979. X: became the only ___ team to win."
    assert question_query(masked) == "Which Foli joined in 1979. became the only team to win?"
    assert question_query("How many people live in Berlin?") == "How many people live in Berlin?"
    assert question_query("Which number fills the blank? ___ of 20% respondents", "number").startswith("How many ")


def test_too_few_pairs_is_a_clear_error_and_writes_nothing(mini_index, tasks, tiny_encoder, tmp_path):
    out = tmp_path / "reranker"
    with pytest.raises(TooFewPairsError, match="too few pairs"):
        train_reranker(
            mini_index, tasks[:6], out, RerankerTrainConfig(base_model=str(tiny_encoder), **FAST), progress=False
        )
    assert not out.exists()


@pytest.fixture(scope="module")
def trained(mini_index, tasks, tiny_encoder, tmp_path_factory):
    out = tmp_path_factory.mktemp("reranker") / "ce"
    path = tmp_path_factory.mktemp("tasks") / "tasks.jsonl"
    save_tasks(tasks, path)
    config = RerankerTrainConfig(
        base_model=str(tiny_encoder),
        epochs=4,
        max_steps=40,
        lr=1e-4,
        val_fraction=0.25,
        min_groups=16,
        ict_probability=0.0,
        **FAST,
    )
    report = train_reranker(mini_index, path, out, config, progress=False)
    return out, report


# The "training beats the untrained model" check lived here as xfail(strict=False), which can never
# fail; it was removed (issue 23): on a fixture this small a fresh score head does not learn in 40
# steps (benchmarks/README.md, Issue 8), so learning is measured by benchmarks/reranker_quality.py
# on real data instead. What a run must always do is asserted here.
def test_training_runs_its_steps_and_reports_them(trained):
    out, report = trained
    assert report.steps > 0 and report.pairs_seen == report.steps * 4 * 4
    assert report.val_mrr and report.val_mrr[0][0] == 0  # the untrained model is measured first
    assert report.best_val_mrr == max(m for _, m in report.val_mrr)
    saved = json.loads((out / REPORT_FILE).read_text())
    assert saved["best_val_mrr"] == report.best_val_mrr and saved["pairs"]["groups"] > 0


def test_written_folder_is_a_loadable_cross_encoder(trained, mini_index, tasks):
    out, report = trained
    from sentence_transformers import CrossEncoder

    assert CrossEncoder(str(out), local_files_only=True).predict([("a", "b")]).shape == (1,)
    # The saved weights are the best validation step's: re-scoring the validation view reproduces it.
    with Corpus.open(mini_index, reranker="none") as corpus:
        groups, _ = build_groups(corpus, tasks[-40:], negatives=3, depth=10, seed=7)
    assert 0.0 < group_mrr(group_scores(load_cross_encoder(out, 64), groups, 64)) <= 1.0
    assert report.best_step in [s for s, _ in report.val_mrr]
    # The corpus-side reranker scores the same pairs consistently with the trainer's view.
    reranker = CrossEncoderReranker(out, max_length=64, quantize=False)
    with Corpus.open(mini_index, reranker="none") as corpus:
        chunk_ids = [h.chunk.chunk_id for h in corpus.search(tasks[0].query, k=8)]
        chunks = [corpus.chunk(c) for c in chunk_ids]
    scores = reranker.score(tasks[0].query, chunks)
    assert scores.shape == (len(chunks),) and len(set(scores.tolist())) > 1


def test_search_scores_exactly_what_validation_scored(trained, mini_index, tasks):
    # Train/inference parity: the reranker a Corpus opens must give the trainer's validation scores for
    # the same (query, chunk) pairs — same text (title + chunk), pair order, truncation and head.
    # A drift here (e.g. scoring chunk.text without the title, or a head lost at save) is how a model
    # can look good in validation and rank real searches at random.
    out, _ = trained
    from corpus_tools.embed import retrieval_text

    with Corpus.open(mini_index, reranker="none") as corpus:
        groups, _ = build_groups(corpus, tasks[-12:], negatives=3, depth=10, seed=5)
        searched = {h.chunk.chunk_id: h.chunk for t in tasks[-12:] for h in corpus.search(t.query, k=10)}
    by_text = {retrieval_text(c): c for c in searched.values()}
    reranker = CrossEncoderReranker(out, max_length=64, quantize=False, cache_size=0)
    validation = group_scores(load_cross_encoder(out, 64), groups)
    compared = 0
    for group, expected in zip(groups, validation, strict=True):
        texts = (group.positive, *group.negatives)
        if not all(t in by_text for t in texts):
            continue
        got = reranker.score(group.query, [by_text[t] for t in texts])
        assert got == pytest.approx(expected, abs=1e-4)
        compared += 1
    assert compared >= 3


def test_cli_trains_and_reports(mini_index, tasks, tiny_encoder, tmp_path):
    from typer.testing import CliRunner

    from context1.interfaces.cli import app
    from training.cli import register

    register(app) if "train" not in {g.name for g in app.registered_groups} else None
    path = tmp_path / "tasks.jsonl"
    save_tasks(tasks, path)
    out = tmp_path / "ce"
    args = ["train", "reranker", str(mini_index), "--tasks", str(path), "--out", str(out), "--kind", "cross-encoder"]
    args += ["--max-steps", "3"]
    args += ["--base-model", str(tiny_encoder), "--layers", "2", "--max-length", "64", "--no-progress", "--eval-every", "3"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "validation MRR" in result.output and (out / "config.json").is_file()
    missing = CliRunner().invoke(
        app, ["train", "reranker", str(mini_index), "--tasks", str(tmp_path / "no.jsonl"), "--out", str(out)]
    )
    assert missing.exit_code == 2 and "no such task file" in missing.output


def test_layers_keeps_the_first_encoder_layers_and_the_folder_reloads_at_that_depth(tmp_path):
    """--layers: a shallower, faster reranker that is still a normal CrossEncoder folder."""
    from training.reranker import load_cross_encoder

    full = load_cross_encoder(None, 64)
    shallow = load_cross_encoder(None, 64, layers=2)
    assert len(full[0].auto_model.encoder.layer) == 6
    assert len(shallow[0].auto_model.encoder.layer) == 2
    # the kept layers are the pretrained ones, not fresh weights
    kept = shallow[0].auto_model.encoder.layer[1].output.dense.weight
    assert kept.equal(full[0].auto_model.encoder.layer[1].output.dense.weight)
    shallow.save_pretrained(str(tmp_path / "ce"))
    reloaded = CrossEncoderReranker(tmp_path / "ce", max_length=64)
    from corpus_tools import Chunk

    chunks = [
        Chunk("d#0", "d", "Paris is the capital of France.", 0, 8),
        Chunk("e#0", "e", "Bananas are yellow.", 0, 5),
    ]
    scores = reloaded.score("capital of France", chunks)
    assert len(scores) == 2 and all(abs(float(x)) < 1e6 for x in scores)
    assert json.loads((tmp_path / "ce" / "config.json").read_text())["num_hidden_layers"] == 2
    with pytest.raises(ValueError, match="at most 6"):
        load_cross_encoder(None, 64, layers=7)
    with pytest.raises(ValueError, match="layers"):
        RerankerTrainConfig(layers=0)
