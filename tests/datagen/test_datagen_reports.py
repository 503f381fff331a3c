"""Reports of one form (NTSB accident reports): fields read from "Label: value" lines whose labels the
folder teaches, each report named by its identifier, compared across reports by date. Old code: no
datagen.report_fields; the folder gave 17 tasks, 16 of them "Who mandated The National Transportation
Safety Board?" (one boilerplate sentence in every report)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from datagen_fixtures import NoProseGenerator

from corpus_tools.types import Chunk
from datagen.mining import mine
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file


def _report(i: int, place: str, date: str, gear: str, owner_line: str) -> list[Chunk]:
    doc = f"report-{i}"
    head = (f"Aviation Accident Final Report\nLocation: {place} Accident Number: NYC08CA0{i}\n"
            f"Date & Time: {date}, 1730 {['EST', 'PST', 'CST', 'MST'][i % 4]} Registration: N{i}21D\nAircraft Category: Airplane\nInjuries: {i} Minor")
    body = (f"Landing Gear Type: {gear} Seats: {i + 1}\n{owner_line}\n"
            f"Investigator In Charge (IIC): {['Robert J Gretz', 'Aaron M Sauer', 'Todd G Gunther', 'Jason T Aguilera'][i - 1]} "
        f"Report Date: 0{i}/31/2008")
    prose = "The NTSB, established in 1967, is an independent federal agency mandated by Congress."
    return [Chunk(f"{doc}#0", doc, head, 0, 40, {"kind": "text"}), Chunk(f"{doc}#1", doc, body, 1, 40, {"kind": "text"}),
            Chunk(f"{doc}#2", doc, prose, 2, 20, {"kind": "text"})]


def _folder() -> list[Chunk]:
    return [
        *_report(1, "Tallahassee, FL", "12/08/2007", "Tricycle", "Registered Owner: Willis O Forman Operating Certificate(s): None"),
        *_report(2, "Northern District of California", "11/27/2007", "Tailwheel", "Registered Owner: Wausau Flying Service Operating Certificate(s): None"),
        *_report(3, "Belen, NM", "01/02/2008", "Tricycle", "Registered Owner: Mark Meehleis Operating Certificate(s) None"),
        *_report(4, "Reno, NV", "12/20/2007", "Tricycle", "Registered Owner: Versatile Aviation Inc Operating Certificate(s): None"),
    ]




def test_labels_are_learned_from_the_folder_and_values_kept_whole() -> None:
    from datagen.report_fields import learn_labels, read_reports

    mined = mine(_folder())
    labels = learn_labels(mined)
    assert {"Location", "Accident Number", "Date & Time", "Seats", "Registered Owner"} <= set(labels)
    skipped: Counter = Counter()
    reports = {r.code: r for r in read_reports(mined, skipped=skipped)}
    assert set(reports) == {"NYC08CA01", "NYC08CA02", "NYC08CA03", "NYC08CA04"}
    fields = {label: f.value for label, f in reports["NYC08CA02"].fields.items()}
    assert fields["Location"] == "Northern District of California"  # whole, up to the next label
    assert fields["Seats"] == "3"
    tricycle = {label: f.value for label, f in reports["NYC08CA01"].fields.items()}
    assert tricycle["Seats"] == "2" and "Tricycle Seats" not in tricycle  # "Tricycle" is the gear type's value
    assert "Aircraft Category" not in fields  # "Airplane" in every report tells none apart
    assert "Registered Owner" not in {label for label in reports["NYC08CA03"].fields}  # ran into a label lost its colon
    assert skipped["field_value_common"] and skipped["field_value_runs_on"] >= 1


def test_reports_give_field_questions_and_date_comparisons_across_reports(tmp_path: Path) -> None:
    from datagen.report_fields import ReportFieldTasks

    mined = mine(_folder())
    generator = ReportFieldTasks(NoProseGenerator(), mined)
    report = generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=60, hops=(1, 2), patience=40, seed=2))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    assert report.written == len(tasks) > 10 and not report.drops.get("answer_not_in_supporting_chunk"), report.drops
    q = "What does the report with accident number NYC08CA02 give as its location?"
    assert q in tasks and tasks[q].answers[0] == "Northern District of California", list(tasks)
    dates = {"NYC08CA01": "2007-12-08", "NYC08CA02": "2007-11-27", "NYC08CA03": "2008-01-02", "NYC08CA04": "2007-12-20"}
    compared = [t for t in tasks.values() if t.hops == 2]
    assert compared
    for t in compared:
        a, b = t.metadata["options"]
        assert t.query == f"Which has the earlier date & time, accident number {a} or accident number {b}?"
        assert t.answers[0] == min((a, b), key=dates.get) and len(set(t.gold_doc_ids)) == 2


def test_a_folder_without_an_identifier_field_is_left_to_the_prose_generator() -> None:
    from datagen.report_fields import with_report_fields

    chunks = [Chunk(f"d{i}#0", f"d{i}", f"Location: Reno, NV Weather: Calm\nPilot: Jo {i}", 0, 10, {}) for i in range(4)]
    inner = NoProseGenerator()
    assert with_report_fields(inner, mine(chunks)) is inner
