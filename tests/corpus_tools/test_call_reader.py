"""The vendor export of an earnings call read as a document (corpus_tools/call_reader.py).

Fixtures (tests/fixtures/calls, written for these tests): an invented company's call laid out as the vendor lays
it out, the same in cp1252 bytes, and one whose participants list was cut off above the remarks.
"""

from __future__ import annotations

from pathlib import Path

from corpus_tools import load_documents
from corpus_tools.call_reader import read_call
from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.corpus_kind import DOCUMENTS, kind_of_texts
from corpus_tools.models import default_tokenizer

CALLS = Path(__file__).resolve().parents[1] / "fixtures" / "calls"
VENDOR = "Q2 2024 Northwind Harbor Corp Earnings Call.txt"
CUT = "Q2 2024 Northwind Harbor Corp Earnings.txt"


def _read(name: str):
    return read_call((CALLS / name).read_text(encoding="utf-8"))


def test_the_participants_are_metadata_not_text():
    call = _read(VENDOR)
    assert "CORPORATE PARTICIPANTS" not in call.text
    assert call.metadata["participants"] == ("Dana K. Whitfield (CEO & Director, Northwind Harbor Corporation); "
                                             "Luis Ortega (CFO, Northwind Harbor Corporation)")
    assert call.metadata["analysts"] == "Priya Raman (Analyst, Crédit Suisse AG, Research Division)"


def test_each_turn_a_part_with_its_section_and_speaker():
    call = _read(VENDOR)
    assert [(p.section, p.context) for p in call.parts] == [
        ("Presentation", "Operator"), ("Presentation", "Luis Ortega"), ("Questions and Answers", "Operator"),
        ("Questions and Answers", "Priya Raman"), ("Questions and Answers", "Dana K. Whitfield"),
        ("Questions and Answers", "Operator")]
    assert call.parts[0].start == 0 and call.parts[-1].end == len(call.text)
    assert all(a.end == b.start for a, b in zip(call.parts, call.parts[1:], strict=False))
    said = call.text[call.parts[1].start:call.parts[1].end]
    assert said.startswith("Luis Ortega (Northwind Harbor Corporation - CFO)\n")


def test_lines_unwrapped_operator_marks_and_disclaimer_dropped():
    call = _read(VENDOR)
    assert "that are subject to risks" in call.text  # "… subject\nto risks …" in the file
    assert "Operator Instructions" not in call.text and "(Operator" not in call.text
    assert "DISCLAIMER" not in call.text and "warranty" not in call.text
    assert "Earnings Conference Call. Please note" in call.text
    assert set(call.notes) == {"(Operator Instructions) removed 2", "vendor disclaimer dropped"}


def test_a_cut_off_participants_list_still_reads_the_turns():
    call = _read(CUT)
    assert "participants" not in call.metadata
    assert [p.context for p in call.parts] == ["Operator", "Luis Ortega"]
    assert call.text.startswith("Operator\nWelcome, everyone.\n")


def test_text_not_laid_out_as_a_call_is_not_read():
    assert read_call("Revenue for the second quarter was $412.5 million.\nThank you.") is None
    assert read_call("") is None


def test_a_folder_of_calls_chunks_with_section_speakers_and_identity_and_is_no_chat():
    docs = {d.doc_id: d for d in load_documents(CALLS).documents}
    cp1252 = docs["Q2 2024 Northwind Harbor Corp Earnings Call cp1252.txt"]
    assert cp1252.text == docs[VENDOR].text and "Crédit Suisse" in cp1252.metadata["analysts"]
    chunks = chunk_document(docs[VENDOR], default_tokenizer(), ChunkingConfig(chunk_tokens=64, overlap_tokens=8))
    assert chunks[0].metadata["section"] == "Presentation" and chunks[-1].metadata["section"] == "Questions and Answers"
    assert "Luis Ortega" in " ".join(c.metadata["speakers"] for c in chunks)
    assert all("Northwind Harbor Corporation" in c.metadata["header"] and "Q2 FY2024" in c.metadata["header"]
               for c in chunks)
    assert kind_of_texts([c.text for c in chunks[:1]] + [docs[CUT].text]) == DOCUMENTS
    assert "(Operator Instructions) removed" in docs[VENDOR].metadata["read_note"]


def test_calls_off_keeps_the_vendor_text(tmp_path):
    (tmp_path / VENDOR).write_bytes((CALLS / VENDOR).read_bytes())
    doc = load_documents(tmp_path, calls=False).documents[0]
    assert doc.text.startswith("CORPORATE PARTICIPANTS") and not doc.parts


def test_a_heading_with_no_speaker_under_it_is_not_a_call():
    assert read_call("Agenda\nPRESENTATION\nSlides one to four cover the budget.\nQuestions welcome.") is None
