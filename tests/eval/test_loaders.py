"""Loaders on small hand-written fixtures in every format, and on the real shared data when present."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval.loaders import (
    load_beir,
    load_benchmark,
    load_flashrag,
    load_hotpotqa,
    load_locomo,
    load_musique,
    load_scifact,
    load_tasks,
    parse_sentence_list,
    save_tasks,
    task_to_dict,
)
from eval.loaders.paragraphs import short_hash

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"

MARKET_TOWN = "Riverton is a market town in Lancashire. The River Lune flows through Riverton."
PARISH = "Riverton is a civil parish in Devon."


def _docs(bench):
    return {d.doc_id: d for d in bench.documents}


# --- HotpotQA ---


def test_hotpotqa_both_layouts_and_corpus_file():
    bench = load_hotpotqa(
        [FIX / "hotpotqa/hotpot_hf.json", FIX / "hotpotqa/hotpot_original.json"],
        corpus_paths=[FIX / "hotpotqa/hotpot_corpus.json"],
    )
    docs = _docs(bench)
    town, parish = f"Riverton [{short_hash(MARKET_TOWN)}]", f"Riverton [{short_hash(PARISH)}]"
    assert set(docs) == {"Ashford Bridge", town, parish, "Millbrook Abbey", "Kestrel Priory", "Heron Lake"}
    assert docs["Ashford Bridge"].text == "Ashford Bridge is a stone bridge in Riverton. It was built in 1820."
    assert docs["Ashford Bridge"].title == "Ashford Bridge"
    assert docs[town].text == MARKET_TOWN
    # hp1 appears in both files: kept once, with a note
    assert [t.task_id for t in bench.tasks] == ["hp1", "hp2", "hp3"]
    assert any("hp1" in n for n in bench.notes)
    hp1, hp2, hp3 = bench.tasks
    # gold "Riverton" is the paragraph of the SAME question's context (the market town)
    assert hp1.gold_doc_ids == ("Ashford Bridge", town)
    assert hp1.facts == (("Ashford Bridge",), (town, parish))  # either Riverton may carry the fact
    assert hp1.answers == ("River Lune",)
    assert (hp1.hops, hp1.question_type, hp1.source) == (2, "bridge", "hotpotqa")
    assert hp2.gold_doc_ids == ("Millbrook Abbey", "Kestrel Priory")
    assert hp3.gold_doc_ids == ("Kestrel Priory", "Millbrook Abbey")  # distinct titles, first-mention order
    assert hp3.metadata["level"] == "hard"


def test_hotpotqa_doc_ids_do_not_depend_on_file_order():
    files = [FIX / "hotpotqa/hotpot_hf.json", FIX / "hotpotqa/hotpot_original.json"]
    a, b = load_hotpotqa(files), load_hotpotqa(files[::-1])
    assert set(_docs(a)) == set(_docs(b))
    assert {t.task_id: t.gold_doc_ids for t in a.tasks} == {t.task_id: t.gold_doc_ids for t in b.tasks}


def test_hotpotqa_unique_title_keeps_the_plain_title():
    bench = load_hotpotqa(FIX / "hotpotqa/hotpot_original.json")
    assert "Riverton" in _docs(bench)
    assert bench.tasks[1].gold_doc_ids == ("Ashford Bridge", "Riverton")


def test_hotpotqa_malformed_record_names_file_and_field(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"question": "q", "answer": "a", "supporting_facts": []}]))
    with pytest.raises(ValueError, match=r"bad\.json\[0\].*context"):
        load_hotpotqa(bad)
    broken = tmp_path / "broken.json"
    broken.write_text('[{"question": ')
    with pytest.raises(ValueError, match="broken.json"):
        load_hotpotqa(broken)
    with pytest.raises(FileNotFoundError):
        load_hotpotqa(tmp_path / "missing.json")


# --- MuSiQue ---


def test_musique_jsonl_with_corpus_file():
    bench = load_musique(FIX / "musique/musique_dev.jsonl", corpus_paths=FIX / "musique/musique_corpus.json")
    docs = _docs(bench)
    lune = f"Lune [{short_hash('The Lune flows through Riverton.')}]"
    assert len(docs) == 7  # whitespace variants and the corpus file's repeat are one paragraph each
    assert {lune, "Riverton Abbey", "Heron Lake", "Kestrel Priory", "Kestrel Gate", "Otter Mill"} < set(docs)
    t1, t2 = bench.tasks
    assert t1.gold_doc_ids == (lune, "Riverton Abbey")
    assert t1.facts == ((lune,), ("Riverton Abbey",))
    assert t1.answers == ("Cistercian monks", "the Cistercians")
    assert (t1.hops, t1.question_type) == (2, "2hop")
    assert t2.gold_doc_ids == ("Heron Lake", "Kestrel Priory", "Kestrel Gate")
    assert (t2.hops, t2.question_type) == (3, "3hop1")


# --- LoCoMo ---


def test_locomo_turns():
    bench = load_locomo(FIX / "locomo/locomo_conv7.json")
    docs = _docs(bench)
    assert list(docs) == ["conv7/D1:1", "conv7/D1:2", "conv7/D1:3", "conv7/D2:1", "conv7/D2:2"]
    assert docs["conv7/D1:2"].text == "Ben: Nice! I adopted a dog named Biscuit."
    assert "[shares a photo: a photo of a blue bowl]" in docs["conv7/D1:3"].text
    assert docs["conv7/D2:1"].title == "Ana & Ben, session 2 (10:00 am on 20 June, 2023)"
    q0, q1, q2, q3, q4 = bench.tasks
    assert q0.task_id == "conv7/q0" and q0.gold_doc_ids == ("conv7/D1:2",) and q0.answers == ("Biscuit",)
    assert q0.question_type == "category_4"
    assert q1.gold_doc_ids == ("conv7/D1:3", "conv7/D2:2")  # "D1:3; D2:2" is two turns
    assert q2.gold_doc_ids == ("conv7/D2:2",) and q2.answers == ("2023",)  # "D:2:2" repaired, D9:9 dropped
    assert any("D9:9" in n for n in bench.notes)
    assert q3.answers == () and q3.metadata["adversarial_answer"] == "bowls"  # category 5: no answer
    assert q4.gold_doc_ids == ()


def test_locomo_sessions():
    bench = load_locomo(FIX / "locomo/locomo_conv7.json", unit="session")
    docs = _docs(bench)
    assert list(docs) == ["conv7/D1", "conv7/D2"]
    assert docs["conv7/D2"].text == "Ben: Biscuit learned to sit.\nAna: I sold three bowls at the fair."
    assert bench.tasks[1].gold_doc_ids == ("conv7/D1", "conv7/D2")
    with pytest.raises(ValueError, match="turn"):
        load_locomo(FIX / "locomo/locomo_conv7.json", unit="utterance")


# --- BEIR and SciFact ---


def test_beir_folder():
    bench = load_beir(FIX / "beir")
    assert bench.name == "beir" and len(bench.documents) == 3
    assert _docs(bench)["d3"].title is None
    q1, q2 = bench.tasks  # q3 has no qrels
    assert q1.gold_doc_ids == ("d1", "d2") and q1.metadata["qrels"] == {"d1": 2, "d2": 1}
    assert q2.gold_doc_ids == ("d3",)
    assert any("d9" in n for n in bench.notes)  # a qrel naming no document is reported
    with pytest.raises(FileNotFoundError, match="test"):
        load_beir(FIX / "beir", split="dev")


def test_parse_sentence_list():
    assert parse_sentence_list("['a b.' 'c d.']") == ["a b.", "c d."]  # not glued as literal_eval would
    assert parse_sentence_list("['it\\'s' \"don't\"\n 'x']") == ["it's", "don't", "x"]
    assert parse_sentence_list('["json", "list"]') == ["json", "list"]
    assert parse_sentence_list("[]") == []
    assert parse_sentence_list("plain text") == ["plain text"]
    assert parse_sentence_list("['cut off' 'mid") == ["cut off"]  # broken: best effort, no exception


def test_scifact_csv_layout():
    folder = FIX / "scifact"
    bench = load_scifact(folder / "corpus.csv", folder / "claims_train.csv", folder / "qrels_beir_train.tsv")
    docs = _docs(bench)
    assert docs["101"].text == (
        "Aspirin lowers fever in adults. It's widely used; the effect is dose-dependent. Children (n = 12) were excluded."
    )
    assert docs["102"].text == 'Statins do not impair memory. A trial of 2,000 patients found no "cognitive" decline.'
    assert docs["101"].title == "Aspirin and fever"
    assert [(t.task_id, t.gold_doc_ids) for t in bench.tasks] == [("1", ("101",)), ("2", ("102",))]
    assert bench.tasks[0].query == "Aspirin reduces fever." and bench.tasks[0].answers == ()
    cited = load_scifact(folder / "corpus.csv", folder / "claims_train.csv")
    assert [(t.task_id, t.gold_doc_ids) for t in cited.tasks] == [
        ("1", ("101", "102")),
        ("2", ("102",)),
        ("3", ("103",)),
    ]


def test_scifact_through_load_benchmark(tmp_path):
    (tmp_path / "scifact").symlink_to(FIX / "scifact")
    bench = load_benchmark("scifact", tmp_path)
    assert len(bench.tasks) == 2 and len(bench.documents) == 3


# --- FlashRAG ---


def test_flashrag_jsonl():
    bench = load_flashrag(FIX / "flashrag.jsonl", corpus_path=FIX / "flashrag_corpus.jsonl", name="flash")
    docs = _docs(bench)
    f1, f2, f3 = bench.tasks
    assert f1.gold_doc_ids == ("Riverton",) and f1.answers == ("River Lune", "Lune") and f1.question_type == "bridge"
    assert f2.gold_doc_ids == ("Riverton Abbey",) and f2.hops == 1
    assert f3.gold_doc_ids == () and f3.answers == ("Preston",)
    assert docs["w1"].title == "Preston" and docs["w1"].text == "Preston is the administrative centre of Lancashire."
    assert docs["w2"].title is None and docs["w2"].text == "no title line"
    assert {"Riverton", "Heron Lake", "Riverton Abbey", "Otter Mill"} < set(docs)


# --- generated task files ---


def test_task_file_jsonl():
    bench = load_tasks(FIX / "tasks.jsonl")
    g1, g2 = bench.tasks
    assert bench.documents == []
    assert g1.facts == (("Heron Lake#0", "Otter Mill"), ("Ashford Bridge",))
    assert g1.gold_chunk_ids == ("Heron Lake#0",) and g1.hops == 2
    assert g2.metadata["difficulty_note"] == "a field this version does not know"  # kept, not dropped


def test_task_file_round_trips(tmp_path):
    tasks = load_tasks(FIX / "tasks.jsonl").tasks
    save_tasks(tasks, tmp_path / "t.jsonl")
    assert load_tasks(tmp_path / "t.jsonl").tasks == tasks


def test_task_file_saved_hf_dataset(tmp_path):
    datasets = pytest.importorskip("datasets")
    tasks = load_tasks(FIX / "tasks.jsonl").tasks
    datasets.Dataset.from_list([task_to_dict(t) for t in tasks]).save_to_disk(str(tmp_path / "ds"))
    loaded = load_tasks(tmp_path / "ds").tasks
    assert [(t.task_id, t.facts, t.gold_doc_ids, t.hops) for t in loaded] == [
        (t.task_id, t.facts, t.gold_doc_ids, t.hops) for t in tasks
    ]
    assert loaded[0].metadata["seed"] == "Riverton"
    datasets.DatasetDict({"test": datasets.Dataset.from_list([task_to_dict(tasks[0])])}).save_to_disk(
        str(tmp_path / "dd")
    )
    assert [t.task_id for t in load_tasks(tmp_path / "dd", split="test").tasks] == ["g1"]
    with pytest.raises(ValueError, match="splits"):
        load_tasks(tmp_path / "dd", split="train")


def test_task_file_malformed_line(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text('{"task_id": "a", "query": "q"}\n{"task_id": "b"}\n')
    with pytest.raises(ValueError, match=r"t\.jsonl\[1\].*query"):
        load_tasks(path)
    path.write_text('{"task_id": "a", "query": "q"}\n{"task_id": \n')
    with pytest.raises(ValueError, match=r"t\.jsonl:2"):
        load_tasks(path)


def test_load_benchmark_rejects_unknown_names(tmp_path):
    with pytest.raises(ValueError, match="hotpotqa"):
        load_benchmark("nosuchbench", tmp_path)
    with pytest.raises(FileNotFoundError):
        load_benchmark("musique", tmp_path)


# --- the real shared data ---

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="the shared development data is not here")


@needs_shared
def test_real_hotpotqa_counts():
    files = sorted(p for p in (SHARED / "hotpotqa").glob("*.json") if not p.stem.endswith("_corpus"))
    assert sum(len(load_hotpotqa(p).tasks) for p in files) == 450  # records
    bench = load_benchmark("hotpotqa", SHARED)
    assert len(bench.tasks) == 449  # distinct questions
    assert all(len(t.gold_doc_ids) == 2 for t in bench.tasks)
    _check_gold_in_corpus(bench)


@needs_shared
def test_real_musique_counts():
    bench = load_benchmark("musique", SHARED)
    assert len(bench.tasks) == 250
    assert all(len(t.gold_doc_ids) == t.hops for t in bench.tasks)
    assert {t.hops for t in bench.tasks} == {2, 3, 4}
    _check_gold_in_corpus(bench)


@needs_shared
def test_real_locomo_counts():
    bench = load_benchmark("locomo", SHARED)
    assert len(bench.tasks) == 999
    assert len(bench.documents) == 2760  # ~2,760 turns
    by_category = {}
    for t in bench.tasks:
        by_category[t.metadata["category"]] = by_category.get(t.metadata["category"], 0) + 1
    assert by_category == {1: 142, 2: 156, 3: 46, 4: 418, 5: 237}
    assert all(t.answers == () for t in bench.tasks if t.metadata["category"] == 5)
    _check_gold_in_corpus(bench)


@needs_shared
def test_real_scifact_counts():
    bench = load_benchmark("scifact", SHARED)
    assert len(bench.tasks) == 809
    assert len(bench.documents) == 5183
    assert sum(len(t.metadata["qrels"]) for t in bench.tasks) == 919
    assert not any(d.text.startswith("['") for d in bench.documents)  # abstracts parsed, not printed lists
    _check_gold_in_corpus(bench)


def _check_gold_in_corpus(bench):
    ids = {d.doc_id for d in bench.documents}
    assert len(ids) == len(bench.documents)
    assert all(g in ids for t in bench.tasks for g in t.gold_doc_ids)
