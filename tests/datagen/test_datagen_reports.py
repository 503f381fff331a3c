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
    # asked as a person asks: the report named by its accident, the field in the form's words
    q = "What is the location listed for accident NYC08CA02?"
    assert q in tasks and tasks[q].answers[0] == "Northern District of California", list(tasks)
    dates = {"NYC08CA01": "2007-12-08", "NYC08CA02": "2007-11-27", "NYC08CA03": "2008-01-02", "NYC08CA04": "2007-12-20"}
    compared = [t for t in tasks.values() if t.hops == 2]
    assert compared
    for t in compared:
        a, b = t.metadata["options"]
        assert t.query == f"Which was earlier, accident {a} or accident {b}?"
        assert t.answers[0] == min((a, b), key=dates.get) and len(set(t.gold_doc_ids)) == 2


def test_a_report_is_named_by_its_identifier_noun_and_a_later_date_label_is_named() -> None:
    from datagen.report_fields import report_name

    assert report_name("Accident Number", "NYC08CA055") == "accident NYC08CA055"
    assert report_name("Protocol No.", "ABC-123") == "protocol ABC-123"
    assert report_name("Case ID", "C2023X1") == "case C2023X1"
    assert report_name("Number", "X12345") == "report X12345"  # nothing left: "report"
    assert report_name("NTSB Number", "X12345") == "NTSB X12345"  # an acronym keeps its capitals


def test_a_folder_without_an_identifier_field_is_left_to_the_prose_generator() -> None:
    from datagen.report_fields import with_report_fields

    chunks = [Chunk(f"d{i}#0", f"d{i}", f"Location: Reno, NV Weather: Calm\nPilot: Jo {i}", 0, 10, {}) for i in range(4)]
    inner = NoProseGenerator()
    assert with_report_fields(inner, mine(chunks)) is inner


def _protocol(i: int, cover: str, prose: str = "Participants will be randomised to usual care or not.") -> list[Chunk]:
    """A clinical-trial protocol of its own sponsor's form, its file named by its trial's code."""
    doc = f"NCT0614{i:04d}_Prot_000.pdf"
    meta = {"kind": "text", "title": f"NCT0614{i:04d} Prot 000"}  # the title the indexer gives a PDF without one
    return [Chunk(f"{doc}#0", doc, cover, 0, 60, meta), Chunk(f"{doc}#1", doc, prose, 1, 20, meta)]


def _protocols() -> list[Chunk]:
    return [
        *_protocol(1, "Treatment of Oral Chronic Graft-versus-host Disease With Human\n\nUmbilical Cord Stem Cell Dressing\n\n"
                      "Principal Investigator: Gao Lei\nResearch Institution: Second Affiliated Hospital of Army Medical\n"
                      "University (formerly Third Military Medical University)\nDepartment: Hematology"),
        *_protocol(2, "Prospective Clinical Evaluation of Electronic Stimulation\n\nSponsor: Lutronic, Inc.\nFunded by: Lutronic, Inc.\n"
                      "Clinical Protocol Number: AFL19006\nSponsor R&D No: TBC\n\nCONFIDENTIAL",
                  # two counts: which is the plan? neither is asked
                  "The study will enroll up to 60 subjects. We will recruit 64 subjects to allow for dropout."),
        *_protocol(3, "Understanding the Effectiveness of an Online Support Group for Older Ovarian Cancer\n"
                      "Patients: A Randomized Controlled Trial\n\nOct-16-2023"),
        *_protocol(4, "Study Protocol\n\nOfficial Title: Access-H20: Sensor driven smart faucet to enable and empower\n"
                      "independent drinking and grooming for individuals with spinal cord injury\nGrant Number: 1R43HD108061-01A1\n"
                      "Document Date: March 2022\nFaculty sponsor/Co-PI: Dr. Martha Kole-White\n\nThe study is a feasibility study.",
                  "We will recruit 20 subjects who are living with an SCI above C7. Earlier, 50 patients per group will be included."),
        # a protocol and its consent form share one trial's code: neither is the trial alone
        *_protocol(5, "Project Name: Isokinetic Training\n\nSponsor: Qianfoshan Hospital\n\nInvestigator: Ran Shi\n"),
        *[Chunk(c.chunk_id.replace("Prot", "ICF"), c.doc_id.replace("Prot", "ICF"), c.text, c.position, c.n_tokens, c.metadata)
          for c in _protocol(5, "Project Name: Isokinetic Training\n\nSponsor: Qianfoshan Hospital\n\nInvestigator: Ran Shi\n")],
    ]


def test_protocols_of_many_forms_are_asked_their_cover_fields_by_the_trial_code(tmp_path: Path) -> None:
    """Protocols from many sponsors share no form (no label half the folder writes): old code read no
    field and the folder of 20 NIH protocols gave 0 tasks. Each cover page's whole fields are read,
    the protocol named by the code its file carries."""
    from datagen.report_fields import ReportFieldTasks, read_cover_reports, read_reports

    mined = mine(_protocols())
    skipped: Counter = Counter()
    assert read_reports(mined) == []  # no shared form
    reports = {r.name: {label: f.value for label, f in r.fields.items()} for r in read_cover_reports(mined, skipped=skipped)}
    assert reports["NCT06140001"] == {"Principal Investigator": "Gao Lei"}  # the institution wraps; the department follows it
    assert reports["NCT06140002"] == {"Sponsor": "Lutronic, Inc.", "Funded by": "Lutronic, Inc.", "Clinical Protocol Number": "AFL19006"}  # "TBC" is no value
    assert "NCT06140003" not in reports  # "Patients:" is a wrapped title's last line, not a field
    assert reports["NCT06140004"] == {"Grant Number": "1R43HD108061-01A1", "Document Date": "March 2022",
                                      "Faculty sponsor/Co-PI": "Dr. Martha Kole-White", "planned enrollment|subjects": "20"}  # a count per group is no enrollment
    assert "NCT06140005" not in reports and skipped["cover_code_shared_or_missing"] == 2
    # a code only the file's name carries, neither its indexed title nor its text, cannot be searched for
    hidden = [c if c.position else Chunk(c.chunk_id, c.doc_id, c.text, 0, 60, {"kind": "text", "title": "Protocol PRP"})
              for c in _protocol(6, "A Trial\n\nIRB number: 5269\n\nMore.")]
    titled = [c if c.position else Chunk(c.chunk_id, c.doc_id, c.text, 0, 60, {"kind": "text", "title": "NCT06140007 Prot 000"})
              for c in _protocol(7, "A Trial\n\nIRB number: 5270\n\nMore.")]
    skipped = Counter()
    named = {r.name for r in read_cover_reports(mine(_protocols() + hidden + titled), skipped=skipped)}
    assert "NCT06140006" not in named and "NCT06140007" in named and skipped["cover_code_not_indexed"] >= 1
    generator = ReportFieldTasks(NoProseGenerator(), mined)
    generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=12, hops=(1,), patience=60, seed=3))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    q = "Who is the sponsor listed for NCT06140002?"
    assert q in tasks and tasks[q].answers[0] == "Lutronic, Inc." and tasks[q].gold_doc_ids == ("NCT06140002_Prot_000.pdf",)
    assert tasks["How many subjects does NCT06140004 plan to enroll?"].answers[0] == "20"
    # a label that names a who is asked as one; the form's own capitals stay
    assert "Who is NCT06140002 funded by?" in tasks and "Who is the faculty sponsor/Co-PI listed for NCT06140004?" in tasks
    assert len(tasks) == 8 and not any("Second Affiliated" in a for t in tasks.values() for a in t.answers)


def test_a_folder_whose_file_names_carry_no_code_gets_no_cover_fields() -> None:
    from datagen.report_fields import read_cover_reports

    chunks = [Chunk(f"plan-{w}.pdf#0", f"plan-{w}.pdf", "A Study\n\nSponsor: Acme Health\n\nMore.", 0, 10, {})
              for w in ("one", "two", "three", "four")]
    assert read_cover_reports(mine(chunks)) == []


def test_cut_labels_two_fields_in_one_and_values_read_as_labels_are_not_asked(tmp_path: Path) -> None:
    """Seen on the NTSB folder: "Altimeter Setting: Temperature/Dew Point: 24°C" gave the label "Point",
    "Age: 60, Male" the age "60, Male", "Flight Conducted Under: Part 91: General Aviation" the label
    "Part 91", and "Occurrence #1" was asked as "its occurrence #1"."""
    from datagen.report_fields import ReportFieldTasks, read_reports

    events = ["LOSS OF CONTROL - IN FLIGHT", "FUEL EXHAUSTION", "HARD LANDING", "ENGINE FAILURE"]
    rules = ["General Aviation - Instructional", "General Aviation - Personal", "Aerial Application", "Air Taxi"]
    chunks = []
    for i in range(1, 5):
        doc = f"report-{i}"
        altimeter = ("Altimeter Setting: Temperature/Dew Point: 24°C / 20°C" if i == 1 else
                     f"Altimeter Setting: 30.{i} inches Hg Temperature/Dew Point: {i}°C / -1{i}°C" if i == 2 else
                     f"Altimeter Setting: 29.{i}\nTemperature/Dew Point: {i}°C / -1{i}°C")
        state = ["FL", "TX", "CA", "NM"][i - 1]
        text = (f"Location: Town {i}, {state} Accident Number: NYC08CA0{i}\nDeparture Point: Field {i}, {state} Destination: Port {i}\n"
                f"{altimeter}\nCertificate: Private Age: {50 + i}, Male\nObservation Facility, Elevation: K{i}X, {i}93 ft msl\n"
                f"Flight Conducted Under: Part 91: {rules[i - 1]}\nOccurrence #1: {events[i - 1]}")
        chunks.append(Chunk(f"{doc}#0", doc, text, 0, 60, {"kind": "text"}))
    mined = mine(chunks)
    skipped: Counter = Counter()
    reports = read_reports(mined, skipped=skipped)
    labels = {label for r in reports for label in r.fields}
    assert {"Location", "Departure Point", "Temperature/Dew Point", "Occurrence #1"} <= labels, labels
    assert not labels & {"Point", "Age", "Observation Facility, Elevation", "Part 91"}, labels
    assert skipped["field_label_cut"] and skipped["field_two_in_one"]
    generator = ReportFieldTasks(NoProseGenerator(), mined)
    generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=30, hops=(1,), patience=60, seed=4))
    queries = {t.query: t.answers[0] for t in read_task_file(tmp_path / "t.jsonl")}
    firsts = {q: a for q, a in queries.items() if "occurrence" in q}
    assert firsts and all(q.startswith("What is the first occurrence listed for accident NYC08CA0") for q in firsts), queries


def test_a_field_is_asked_in_the_words_its_label_and_value_call_for() -> None:
    """Hand-read on the NTSB folder (s31): "What is the seats listed …", "What is the investigator in charge
    (IIC) listed …", "What is the airplane rating(s) listed …" read as templates, not as a person asks."""
    from datagen.report_fields import field_question

    name = "accident NYC08CA055"
    assert field_question("Registration", "N5921D", name) == "What is the registration listed for accident NYC08CA055?"
    assert field_question("Seats", "4", name) == "How many seats are listed for accident NYC08CA055?"
    assert field_question("Total Injuries", "1 Minor", name) == "What are the total injuries listed for accident NYC08CA055?"
    assert field_question("Airplane Rating(s)", "Single-engine Land", name) == "What are the airplane ratings listed for accident NYC08CA055?"
    assert field_question("Investigator In Charge (IIC)", "Jim Silliman", name) == (
        "Who is the investigator in charge (IIC) listed for accident NYC08CA055?")
    assert field_question("Sponsor R&D No", "4431", "NCT06152666") == "What is the sponsor R&D no listed for NCT06152666?"  # a number, no who


def test_a_protocols_phase_and_primary_outcome_are_asked_only_when_it_states_one(tmp_path: Path) -> None:
    """The NIH protocols (s31 left them unread): "single arm phase II study" is the trial's phase, a completed
    phase I trial or a cited one is not; a title's "PHASE II STUDY" against "this Phase I/II clinical trial"
    gives none. A primary outcome one line long under its heading is asked; a wrapped one is not."""
    from datagen.report_fields import ReportFieldTasks, read_cover_reports

    cover = "Sponsor: Hospital {i}\n\nInvestigator: Dr. Ran {i}\n"
    chunks = [
        *_protocol(11, "Phase II clinical study of daratumumab combined with bortezomib,\nlenalidomide and dexamethasone\n\n"
                       + cover.format(i=11),
                   "Study endpoints Primary endpoints:\n\x9f Negative rate of MRD (after maintenance therapy)\nSecondary endpoints:\n"
                   "\x9f sCR\nStudy design This study is a single arm phase II study using the DVRd protocol.\n"
                   "In Chile, we have completed the first phase I clinical trial for treating melanoma.\n"
                   "Patients will enter the maintenance phase 2 of lenalidomide therapy.\n"
                   "Escobar A. Dendritic cells pulsed with tumor antigens: a phase 1 study"),
        *_protocol(12, "PHASE II STUDY OF IMMUNIZATION WITH DENDRITIC CELLS\n\n" + cover.format(i=12),
                   "The idea of this Phase I/II clinical trial will be an adaptation of the protocol by Nestle.\n\n"
                   "Primary Endpoint:\nPhotographic evaluation by an independent, blinded reviewer with correct identification of pre\n"
                   "treatment baseline images when compared to post-treatment images.\n\nSecondary Endpoints:\n1. Global improvement"),
        *_protocol(13, "Day-case endourology\n\n" + cover.format(i=13),
                   "Primary outcome measure: .................................................. 16\n\n"
                   "Primary outcome measure:\n• Enablers of successful day-case endourology surgery pathways\n\n"
                   "Secondary outcome measures:\n• Barriers to day-case pathways"),
    ]
    mined = mine(chunks)
    reports = {r.name: {label: f.value for label, f in r.fields.items()} for r in read_cover_reports(mined)}
    assert reports["NCT06140011"]["trial phase"] == "Phase II"
    assert reports["NCT06140011"]["primary|primary endpoint"] == "Negative rate of MRD (after maintenance therapy)"
    assert "trial phase" not in reports["NCT06140012"]  # II in the title, I/II in the text: no one phase
    assert not any(k.startswith("primary|") for k in reports["NCT06140012"])  # the endpoint wraps onto a second line
    assert reports["NCT06140013"]["primary|primary outcome measure"] == "Enablers of successful day-case endourology surgery pathways"
    assert "trial phase" not in reports["NCT06140013"]
    generator = ReportFieldTasks(NoProseGenerator(), mined)
    generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=20, hops=(1,), patience=60, seed=3))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    assert tasks["What phase is the NCT06140011 trial?"].answers[0] == "Phase II"
    assert tasks["What is the primary endpoint of NCT06140011?"].gold_doc_ids == ("NCT06140011_Prot_000.pdf",)
    assert "What is the primary outcome measure of NCT06140013?" in tasks
