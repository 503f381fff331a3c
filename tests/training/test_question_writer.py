"""The question writer's training pairs: only tuning-part questions (the split the benchmarks report on
the other side of), in the shapes the writer is prompted with."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from training.question_writer import part_of, writer_pairs

ROOT = Path(__file__).resolve().parents[2]


def test_the_split_is_the_benchmarks_split() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from reranker_quality import part_of as benchmark_part

    ids = [f"q{i}" for i in range(40)] + [str(i) for i in range(40)]
    assert [part_of(i) for i in ids] == [benchmark_part(i) for i in ids]
    assert {part_of(i) for i in ids} == {"tune", "report"}


def _data(root: Path) -> Path:
    # q0 is in the tuning part, q1 in the reporting part; claim 8 tuning, claim 1 reporting.
    (root / "hotpotqa").mkdir(parents=True)
    hotpot = [
        {"id": qid, "question": f"Who built the tower of {qid}?", "answer": answer, "type": "bridge",
         "supporting_facts": {"title": ["Marrow", "Venn"], "sent_id": [0, 0]},
         "context": {"title": ["Marrow", "Venn"],
                     "sentences": [["Marrow Lighthouse was designed by Ilsa Venn."], ["Ilsa Venn was an engineer."]]}}
        for qid, answer in (("q0", "Ilsa Venn"), ("q1", "Ilsa Venn"), ("q4", "yes"))
    ]
    (root / "hotpotqa" / "hotpot_sample.json").write_text(json.dumps(hotpot))
    (root / "musique").mkdir()
    musique = [
        {"id": qid, "question": "x", "answer": "1862", "paragraphs": [
            {"idx": 0, "title": "Marrow Lighthouse", "paragraph_text": "Marrow Lighthouse was designed by Ilsa Venn. It has a lamp."},
            {"idx": 1, "title": "Ilsa Venn", "paragraph_text": "Ilsa Venn built her first tower in 1862."}],
         "question_decomposition": [
             {"id": 1, "question": "who designed marrow lighthouse", "answer": "Ilsa Venn", "paragraph_support_idx": 0},
             {"id": 2, "question": "when did #1 build her first tower", "answer": "1862", "paragraph_support_idx": 1}]}
        for qid in ("q0", "q1")
    ]
    (root / "musique" / "musique_sample.json").write_text(json.dumps(musique))
    (root / "musique" / "musique_sample_corpus.json").write_text("[]")
    (root / "scifact").mkdir()
    with (root / "scifact" / "corpus.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["doc_id", "title", "abstract", "structured"])
        w.writerow(["11", "Towers and tides", "['Background here.' 'Tides rose by 3 cm a year.']", "False"])
    with (root / "scifact" / "claims_train.csv").open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "claim", "evidence_doc_id", "evidence_label", "evidence_sentences", "cited_doc_ids"])
        w.writerow(["8", "Tides are rising.", "11", "SUPPORT", "[1]", "[11]"])
        w.writerow(["1", "Tides are falling.", "11", "CONTRADICT", "[1]", "[11]"])
        w.writerow(["9", "A claim without evidence.", "", "", "[]", "[11]"])
    return root


def test_pairs_come_from_the_tuning_part_only(tmp_path: Path) -> None:
    data = _data(tmp_path)
    pairs = writer_pairs(data)
    assert pairs and all(part_of(p.question_id) == "tune" for p in pairs)
    assert {p.question_id for p in pairs} == {"q0", "8"}
    reported = writer_pairs(data, part="report")
    assert {p.question_id for p in reported} == {"q1", "1"}

    hotpot = [p for p in pairs if p.source.startswith("hotpotqa")]
    assert [(p.answer, p.target) for p in hotpot] == [("Ilsa Venn", "Who built the tower of q0?")]
    assert hotpot[0].passage == "Marrow: Marrow Lighthouse was designed by Ilsa Venn.\nVenn: Ilsa Venn was an engineer."

    musique = [(p.passage, p.answer, p.target) for p in pairs if p.source.startswith("musique")]
    assert musique == [
        ("Marrow Lighthouse: Marrow Lighthouse was designed by Ilsa Venn.", "Ilsa Venn", "Who designed marrow lighthouse?"),
        ("Ilsa Venn: Ilsa Venn built her first tower in 1862.", "1862", "When did Ilsa Venn build her first tower?"),
    ]
    claims = [(p.form, p.passage, p.answer, p.target) for p in pairs if p.source.startswith("scifact")]
    assert claims == [("claim", "Towers and tides: Tides rose by 3 cm a year.", "", "Tides are rising.")]
