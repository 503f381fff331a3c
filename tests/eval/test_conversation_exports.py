"""benchmarks/datagen_conversations.py export-msc: Multi-Session Chat exported as a user would (one record a
session, the date only in the title, "name: text" lines, two names per conversation no other uses, each
session dated by MSC's own gaps), and a clear error for a missing file or too many conversations."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from bench_modules import bench


def _session(lines: list[str], num: int, unit: str) -> dict:
    return {"dialog": [{"text": t} for t in lines], "time_num": num, "time_unit": unit}


def _row(tag: str) -> dict:
    first = _session([f"Hi, I'm a nurse ({tag}).", "I live in  ohio."], 2, "days")
    second = _session(["How was work?", "Busy."], 5, "hours")
    return {"previous_dialogs": [first, second], "dialog": [{"text": "Back again!", "id": "Speaker 1"},
                                                            {"text": "Hello.", "id": "Speaker 2"}]}


def test_msc_is_exported_one_session_a_record_with_named_speakers_and_dated_titles(tmp_path: Path) -> None:
    conv = bench("datagen_conversations")
    source = tmp_path / "test.txt"
    source.write_text("\n".join(json.dumps(_row(t)) for t in "abc") + "\n", encoding="utf-8")
    n = conv.export_msc(source, tmp_path / "out.jsonl", conversations=2, seed=1)
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert n == 6 and len(records) == 6 and set(records[0]) == {"id", "title", "text"}
    first, second, third = records[:3]
    a, b = first["title"].split(",")[0].split(" & ")
    assert first["text"].splitlines() == [f"{a}: Hi, I'm a nurse (" + first["text"].split("(")[1].split(")")[0] + ").",
                                          f"{b}: I live in ohio."]
    assert first["title"].startswith(f"{a} & {b}, session 1 (") and second["title"].startswith(f"{a} & {b}, session 2 (")
    # the second session is two days after the first, the third five hours after the second
    when = [dt.datetime.strptime(r["title"].split("(")[1].rstrip(")"), "%I:%M %p on %d %B, %Y") for r in records[:3]]
    assert when[1] - when[0] == dt.timedelta(days=2) and when[2] - when[1] == dt.timedelta(hours=5)
    names = {r["title"].split(",")[0] for r in records}
    assert len(names) == 2 and len({w for n in names for w in n.split(" & ")}) == 4  # nobody shares a name


def test_a_missing_file_or_too_many_conversations_is_a_clear_error(tmp_path: Path) -> None:
    conv = bench("datagen_conversations")
    with pytest.raises(SystemExit, match="no MSC session file"):
        conv.export_msc(tmp_path / "absent.txt", tmp_path / "out.jsonl", conversations=1, seed=1)
    source = tmp_path / "test.txt"
    source.write_text(json.dumps(_row("a")) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="at most 1"):
        conv.export_msc(source, tmp_path / "out.jsonl", conversations=2, seed=1)
    assert not (tmp_path / "out.jsonl").exists()


def test_memorybank_is_exported_one_day_a_record_with_the_person_and_the_companion_named(tmp_path: Path) -> None:
    """export-memorybank: each person's chats with the AI companion, one record a day (the day in the
    title), "Name: …" and "Assistant: …" lines; a day with no turn is no record; a missing or broken file
    is a clear error."""
    conv = bench("datagen_conversations")
    source = tmp_path / "memory_bank_en.json"
    source.write_text(json.dumps({
        " Ivy ": {"name": " Ivy ", "history": {
            "2023-04-28": [{"query": "I went to  Green Meadow Park.", "response": "Which park?"}],
            "2023-04-27": [{"query": "Hello, my name is Ivy.", "response": ""}],
            "2023-04-29": [],
        }},
    }), encoding="utf-8")
    n = conv.export_memorybank(source, tmp_path / "out.jsonl")
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert n == 2 and [r["id"] for r in records] == ["mb-Ivy-D1", "mb-Ivy-D2"]
    assert records[0]["title"] == "Ivy & Assistant, session 1 (27 April, 2023)"
    assert records[0]["text"] == "Ivy: Hello, my name is Ivy."
    assert records[1]["text"].splitlines() == ["Ivy: I went to Green Meadow Park.", "Assistant: Which park?"]
    with pytest.raises(SystemExit, match="no MemoryBank file"):
        conv.export_memorybank(tmp_path / "absent.json", tmp_path / "x.jsonl")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(SystemExit, match="not MemoryBank's JSON"):
        conv.export_memorybank(tmp_path / "bad.json", tmp_path / "x.jsonl")
