"""Transcripts: WebVTT / SubRip files read as speaker turns with start times, chunks that say where they are."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from corpus_tools import load_documents
from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.models import default_tokenizer
from corpus_tools.readers import UnreadableFileError
from corpus_tools.transcripts import clock, parse_time, read_transcript, read_turns
from corpus_tools.types import Document

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"


def _doc(name: str) -> Document:
    report = load_documents(FIXTURES / name)
    assert not report.skipped, report.skipped
    (doc,) = report.documents
    return doc


def test_a_zoom_export_with_a_bom_and_crlf_merges_a_speakers_cues_into_one_turn_with_its_start_time():
    doc = _doc("zoom_meeting.vtt")
    assert doc.text.splitlines() == [
        "Jane Roe: Welcome, everyone, to the design review. Today we settle the case material.",
        "Tom Lee: I would go with rubber. It is cheaper and softer.",
        "Jane Roe: Agreed, rubber it is.",
    ]
    assert [(p.section, p.context, p.kind) for p in doc.parts] == [
        ("00:00:01", "Jane Roe", "turn"), ("00:00:08", "Tom Lee", "turn"), ("00:12:31", "Jane Roe", "turn")]
    assert [doc.text[p.start:p.end] for p in doc.parts] == doc.text.splitlines()
    assert doc.title == "zoom meeting"


def test_a_teams_export_reads_voice_tags_and_drops_notes_styles_ids_settings_and_markup():
    doc = _doc("teams_meeting.vtt")
    assert doc.text.splitlines() == [
        "Priya Shah: The budget is twelve euros a unit. That is the & hard limit.",
        "Marco Bianchi: Then the solar cell has to go.",  # <c.yellow>, <i>, a karaoke stamp, <v.loud …>
        "Priya Shah: Fine, no solar cell.",
    ]
    # overlapping times are kept in file order; a cue without hours ("01:02.000") reads
    assert [p.section for p in doc.parts] == ["00:00:02", "00:00:07", "00:01:02"]
    assert "NOTE" not in doc.text and "cue" not in doc.text and "-->" not in doc.text


def test_a_subrip_file_keeps_a_malformed_cues_text_without_a_time_and_an_unnamed_cue_continues_the_turn():
    doc = _doc("otter_call.srt")
    assert doc.text.splitlines() == [
        "Speaker 1: Thanks for joining the earnings call. Revenue grew nine percent this quarter.",
        "Speaker 2: What drove the margin?",  # "{\an8}" dropped
        "Speaker 1: Mostly pricing.",
    ]
    assert [p.section for p in doc.parts] == ["00:00:00", "00:00:06", ""]


def test_a_broken_and_an_empty_transcript_are_skipped_with_a_reason_and_the_folder_loses_nothing_else(tmp_path):
    report = load_documents(FIXTURES)
    skipped = {s.path: s.reason for s in report.skipped}
    assert skipped["broken.vtt"].startswith("WebVTT file with no cues")
    assert skipped["empty.srt"] == "empty file"
    assert sorted(d.doc_id for d in report.documents) == ["otter_call.srt", "teams_meeting.vtt", "zoom_meeting.vtt"]
    # a binary file named .vtt is refused by the text reader, not read as cues
    shutil.copy(FIXTURES / "zoom_meeting.vtt", tmp_path / "ok.vtt")
    (tmp_path / "video.vtt").write_bytes(b"\x00\x01\x02WEBVTT\x00" * 50)
    report = load_documents(tmp_path)
    assert [d.doc_id for d in report.documents] == ["ok.vtt"]
    assert [s.path for s in report.skipped] == ["video.vtt"]


@pytest.mark.parametrize("text, why", [
    ("WEBVTT\n\nNOTE nothing was said\n", "WebVTT file with no cues"),
    ("Minutes of the meeting\n\nAnn: hello\n", "not a subtitle/caption transcript: no cue timing line"),
    ("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\n00:00:03.000 --> 00:00:04.000\n<i></i>\n", "no cue text"),
])
def test_cues_without_text_or_without_timing_are_no_transcript(text, why):
    with pytest.raises(UnreadableFileError, match=why):
        read_turns(text)


def test_messy_cues_a_header_with_no_blank_line_cr_line_ends_entities_and_labels_that_are_no_speakers():
    text = ("WEBVTT\r00:00:01.000 --> 00:00:02.000\rNote: the room was noisy\r\r"
            "00:00:02.000 --> 00:00:03.000\rAnn: Tom &lt;3 rubber\r")
    body, parts = read_transcript(text)
    assert body == "Note: the room was noisy\nAnn: Tom <3 rubber"
    assert [p.context for p in parts] == ["", "Ann"]
    assert read_transcript("") == ("", ())


def test_timestamps_read_in_both_formats_and_bad_ones_read_as_none():
    assert parse_time("01:02:03.500") == 3723.5
    assert parse_time("02:03,5") == 123.5
    assert parse_time("1:02:03") == 3723.0
    assert parse_time("00:0x:03.000") is None and parse_time("") is None and parse_time("99") is None
    assert clock(3723.9) == "01:02:03"


def test_a_transcript_chunk_says_its_start_time_and_speakers_and_is_cut_as_the_same_text_would_be():
    tokenizer = default_tokenizer()
    lines = [f"{'Ann Lee' if i % 2 else 'Bo Chen'}: point number {i} about the rubber case and the budget."
             for i in range(60)]
    text, parts = read_transcript("WEBVTT\n\n" + "\n\n".join(
        f"00:{i // 60:02d}:{i % 60:02d}.000 --> 00:{i // 60:02d}:{i % 60:02d}.900\n{line}" for i, line in
        enumerate(lines)))
    config = ChunkingConfig(chunk_tokens=64, overlap_tokens=8)
    chunks = chunk_document(Document("m.vtt", text, "m", {}, parts), tokenizer, config)
    plain = chunk_document(Document("m.vtt", text, "m", {}), tokenizer, config)
    assert [c.text for c in chunks] == [c.text for c in plain] and len(chunks) > 3
    for chunk in chunks:
        start = text.find(chunk.text)
        turn = max(i for i, p in enumerate(parts) if p.start <= start)
        assert chunk.metadata["section"] == f"00:00:{turn:02d}"
        assert set(chunk.metadata["speakers"].split(", ")) == {"Ann Lee", "Bo Chen"}
    assert "speakers" not in plain[0].metadata and "section" not in plain[0].metadata


def _meeting(n: int = 80) -> str:
    said = ["we should look at the rubber case again before the budget review on Friday",
            "yes", "the solar cell costs too much. I would drop it. The battery is enough for a year of use",
            "OK, noted, let us move on to the buttons and the scroll wheel"]
    return "\n".join(f"{('Ann', 'Bo', 'Cy')[i % 3]}: {said[i % 4]} (point {i})." for i in range(n))


def test_with_turn_starts_a_transcripts_chunks_open_and_end_at_turns_and_prose_is_cut_as_before():
    tokenizer = default_tokenizer()
    text = _meeting()
    plain = chunk_document(Document("m.txt", text), tokenizer, ChunkingConfig(chunk_tokens=64, overlap_tokens=8))
    turned = chunk_document(Document("m.txt", text), tokenizer,
                            ChunkingConfig(chunk_tokens=64, overlap_tokens=8, turn_starts=True))
    assert all(c.n_tokens <= 64 for c in turned)
    assert all(c.text.split(":", 1)[0] in ("Ann", "Bo", "Cy") for c in turned)  # each opens with its speaker
    assert sum(c.text.split(":", 1)[0] in ("Ann", "Bo", "Cy") for c in plain) < len(plain) / 2
    covered = {i for c in turned for i in range(text.find(c.text), text.find(c.text) + len(c.text))}
    assert {i for i, ch in enumerate(text) if ch != "\n"} <= covered  # nothing left out but line breaks
    prose = "The case is rubber. " * 120
    config = ChunkingConfig(chunk_tokens=64, overlap_tokens=8)
    assert [c.text for c in chunk_document(Document("p.txt", prose), tokenizer, config)] == \
        [c.text for c in chunk_document(Document("p.txt", prose), tokenizer,
                                        ChunkingConfig(chunk_tokens=64, overlap_tokens=8, turn_starts=True))]


def test_turn_starts_must_be_a_boolean():
    with pytest.raises(ValueError, match="turn_starts"):
        ChunkingConfig(turn_starts="yes")
