"""LoCoMo loader (long-term conversational memory, Maharana et al. 2024).

A file holds one conversation (`speaker_a, speaker_b, session_<k>, session_<k>_date_time, qa`), or
a list of them in the upstream `locomo10.json` shape (`sample_id, conversation{...}, qa`).

Documents: every dialog turn (the default, unit="turn"), or every session (unit="session").
Doc ids carry the conversation, because dialog ids repeat across conversations:
`"conv26/D2:8"` is turn 8 of session 2 of conversation 26; a session is `"conv26/D2"`. A turn's text
is `"<speaker>: <text>"` plus the caption of a shared photo; a session's text is its turns, one
per line. Titles name the speakers, session and date, so a date question can find its session.

Gold = the turns named in `evidence` (or their sessions). Evidence strings are parsed leniently
("D8:6; D9:17" is two turns, "D:11:26" is D11:26); ids that name no turn are dropped with a note.
Category 5 questions are adversarial: their answer is not in the conversation, so `answers` is
empty (the `adversarial_answer` is kept in metadata). question_type = "category_<n>" (the files do
not name the categories; see the README before naming them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from corpus_tools.types import Document
from eval.loaders.paragraphs import as_paths, dedupe_by_id, dedupe_tasks, read_json_records, require
from eval.types import Benchmark, Task

UNITS = ("turn", "session")
_SESSION_KEY = re.compile(r"session_(\d+)")
_EVIDENCE = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_CONV_IN_NAME = re.compile(r"conv[-_]?(\d+)")


def parse_evidence(items: Iterable[Any]) -> tuple[list[str], list[str]]:
    """Dialog ids ("D<session>:<turn>") found in evidence strings, and the strings that held none."""
    found, unparsed = [], []
    for item in items:
        matches = _EVIDENCE.findall(str(item))
        if not matches:
            unparsed.append(str(item))
        found.extend(f"D{s}:{t}" for s, t in matches)
    return list(dict.fromkeys(found)), unparsed


def _conversations(path: Path) -> list[tuple[str, Mapping[str, Any], list[Any]]]:
    """(conversation id, sessions mapping, qa list) for every conversation in a file."""
    records = read_json_records(path)
    many = len(records) > 1
    out = []
    for i, rec in enumerate(records):
        where = f"{path.name}[{i}]" if many else path.name
        require(rec, ("qa",), where)
        if "conversation" in rec:  # upstream locomo10.json shape
            conv_id = str(rec.get("sample_id") or f"{path.stem}-{i}").replace("-", "")
            sessions = rec["conversation"]
        else:
            m = _CONV_IN_NAME.search(path.stem)
            conv_id = str(rec.get("sample_id") or (f"conv{m.group(1)}" if m else path.stem)).replace("-", "")
            sessions = rec
        out.append((conv_id, sessions, rec["qa"]))
    return out


def _turn_text(turn: Mapping[str, Any]) -> str:
    text = f"{turn.get('speaker', '')}: {turn.get('text', '')}".strip()
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def load_locomo(paths: str | Path | Iterable[str | Path], *, unit: str = "turn", name: str = "locomo") -> Benchmark:
    """Tasks and corpus from LoCoMo conversation files; documents are turns or sessions."""
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
    documents: list[Document] = []
    tasks: list[Task] = []
    notes: list[str] = []
    for path in as_paths(paths):
        for conv, convo, qa in _conversations(path):
            speakers = f"{convo.get('speaker_a', '?')} & {convo.get('speaker_b', '?')}"
            turn_ids: set[str] = set()
            session_keys = sorted((int(m.group(1)), k) for k in convo if (m := _SESSION_KEY.fullmatch(k)))
            for number, key in session_keys:
                turns = convo[key] or []
                date = convo.get(f"{key}_date_time", "")
                title = f"{speakers}, session {number} ({date})" if date else f"{speakers}, session {number}"
                base = {"dataset": name, "conversation": conv, "session": number, "date_time": date}
                for turn in turns:
                    turn_ids.add(str(turn.get("dia_id")))
                if unit == "turn":
                    for turn in turns:
                        meta = {**base, "dia_id": turn.get("dia_id"), "speaker": turn.get("speaker")}
                        doc_id = f"{conv}/{turn.get('dia_id')}"
                        documents.append(Document(doc_id=doc_id, text=_turn_text(turn), title=title, metadata=meta))
                elif turns:
                    text = "\n".join(_turn_text(t) for t in turns)
                    documents.append(Document(doc_id=f"{conv}/D{number}", text=text, title=title, metadata=base))
            for i, item in enumerate(qa):
                task_id = f"{conv}/q{i}"
                require(item, ("question",), f"{path.name} {task_id}")
                evidence, unparsed = parse_evidence(item.get("evidence") or [])
                unknown = [e for e in evidence if e not in turn_ids]
                if unparsed or unknown:
                    notes.append(f"{task_id}: evidence {unparsed + unknown} names no turn; left out of gold")
                turns_gold = [e for e in evidence if e in turn_ids]
                if unit == "turn":
                    gold = [f"{conv}/{e}" for e in turns_gold]
                else:
                    gold = list(dict.fromkeys(f"{conv}/{e.split(':')[0]}" for e in turns_gold))
                category = item.get("category")
                adversarial = category == 5
                answer = item.get("answer")
                meta: dict[str, Any] = {
                    "conversation": conv,
                    "category": category,
                    "evidence": list(item.get("evidence") or []),
                }
                if "adversarial_answer" in item:
                    meta["adversarial_answer"] = item["adversarial_answer"]
                tasks.append(
                    Task(
                        task_id=task_id,
                        query=str(item["question"]),
                        answers=() if adversarial or answer in (None, "") else (str(answer),),
                        gold_doc_ids=tuple(gold),
                        facts=tuple((g,) for g in gold),
                        source=name,
                        question_type=f"category_{category}" if category is not None else None,
                        metadata=meta,
                    )
                )
    unique_docs = dedupe_by_id(documents, "doc_id", "document", notes)
    return Benchmark(name=name, tasks=dedupe_tasks(tasks, notes), documents=unique_docs, notes=tuple(notes))
