"""An earnings call exported by a transcript vendor, read as a document: who spoke, where, and what they said.

The vendor's text (a PDF's, saved as .txt) lays a call out as:

    CORPORATE PARTICIPANTS            the company's people: a name line, then "Company - Title"
    CONFERENCE CALL PARTICIPANTS      the analysts, alike
    PRESENTATION                      the prepared remarks
    QUESTIONS AND ANSWERS             the analysts' questions and the answers
    DISCLAIMER                        the vendor's legal notice, the same in every file

Each turn is a blank line, the speaker's name, their "Company - Title" line (none for the Operator), then what they
said, hard-wrapped at the page's width. Read plainly (session 46's trace of 74 tuning calls): the participants
list is a chunk of names in every call, three lines in four end mid-sentence, 233 chunks hold "(Operator
Instructions)", every file ends in the same disclaimer, and a passage does not say who is speaking in it.

`read_call` gives:
  - the participants as metadata, not text: "participants" (the company's people) and "analysts", each
    "Name (Title, Company)" joined by "; ";
  - each turn a `DocumentPart(kind="turn")` whose section is "Presentation" or "Questions and Answers" and whose
    context is the speaker (chunking.chunk_turns then gives every chunk "section" and "speakers");
  - the turn's text opened by "Name (Company - Title)" and its lines un-wrapped: a line break is kept only after
    a line that ends a sentence well short of the page's width (a paragraph's end);
  - "(Operator Instructions)" (the vendor's mark for the operator's dial-in script) removed, and an Operator
    turn left with nothing dropped; the vendor's DISCLAIMER block dropped (counted in the notes).
With `own_titles` (CorpusConfig.call_own_titles, session 47) a turn of the call's own company's people opens with
"Name (Title)": the company is named once, in the chunk's contextual header and the metadata, not in every turn
(session 46's smoke read: "Michael R. Emory (Allied Properties Real Estate Investment Trust - President …)" put
the company's words in every Q&A turn, so a question naming the company ranked those turns above the passage
stating its figure). An analyst's turn keeps their firm ("Name (Firm, Research Division - Analyst)"): it says
whose question it is. The call's own company is the one the participants list names most.
A speaker line is opened as "Name (…)" with no colon, so `corpus_kind` reads a call as documents, never as a chat:
the chat-only rules (the speaker lift, the conversation prior) are for "Name: text" exports.
Anything not laid out so (no PRESENTATION or QUESTIONS AND ANSWERS heading line, or no speaker under it) is not
read: None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from corpus_tools.types import DocumentPart

SECTIONS = {"PRESENTATION": "Presentation", "QUESTIONS AND ANSWERS": "Questions and Answers"}
_LISTS = {"CORPORATE PARTICIPANTS": "participants", "CONFERENCE CALL PARTICIPANTS": "analysts"}
_END = "DISCLAIMER"
_HEADINGS = {*SECTIONS, *_LISTS, _END}
OPERATOR_MARK = re.compile(r"\s*\(Operator Instructions\)\s*", re.IGNORECASE)
# "AGNC Investment Corp. - President, CEO & Director", "Crédit Suisse AG, Research Division - Director".
_AFFILIATION = re.compile(r"^(?P<company>\S.{0,100}?)\s+[-–—]\s+(?P<title>\S.{0,120})$")
# A speaker's name line: a few words, no sentence end ("Peter J. Federico", "Operator", "Unidentified Analyst").
_NAME = re.compile(r"^[A-Z][\w.'’-]*(?:\s+[\w.'’()-]+){0,6}$")
_SENTENCE_END = re.compile(r"[.?!:\"”')]$")
# A line this much shorter than the page's width that ends a sentence ends a paragraph.
PARAGRAPH_WIDTH = 0.8


@dataclass(frozen=True)
class CallDocument:
    """A call read by `read_call`: its text, one part per turn, its metadata and what was left out."""

    text: str
    parts: tuple[DocumentPart, ...]
    metadata: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


def is_vendor_call(text: str) -> bool:
    """Whether `text` is laid out as the vendor export (a PRESENTATION or QUESTIONS AND ANSWERS heading line)."""
    return any(line.strip() in SECTIONS for line in text.splitlines())


def read_call(text: str, own_titles: bool = False) -> CallDocument | None:
    """The call in `text` read as the module docstring says; None when it is not laid out as a vendor export.
    own_titles: the company's own people's turns open with "Name (Title)" (False: "Name (Company - Title)", as
    session 46 read them)."""
    if not is_vendor_call(text):
        return None
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    where: str | None = None  # the heading the current line is under
    blocks: dict[str, list[list[str]]] = {}  # heading → its blank-line separated blocks
    dropped_disclaimer = False
    for line in lines:
        if line.strip() in _HEADINGS:
            where = line.strip()
            blocks.setdefault(where, []).append([])
            dropped_disclaimer |= where == _END
            continue
        if where is None or where == _END:
            continue
        if not line.strip():
            blocks[where].append([])
        else:
            blocks[where][-1].append(line.strip())
    metadata: dict[str, Any] = {}
    people: dict[str, str] = {}
    for heading, key in _LISTS.items():
        listed = [_participant(block) for block in blocks.get(heading, []) if block]
        listed = [p for p in listed if p is not None]
        people.update({name: role for name, role in listed})
        if listed:
            metadata[key] = "; ".join(f"{name} ({_role_words(role)})" if role else name for name, role in listed)
    listed_own = [_participant(block) for block in blocks.get("CORPORATE PARTICIPANTS", []) if block]
    own = own_company(p[1] for p in listed_own if p is not None)
    width = max((len(line) for line in lines), default=0)
    out: list[str] = []
    parts: list[DocumentPart] = []
    at = 0
    removed_marks = 0
    for heading, section in SECTIONS.items():
        for speaker, role, said in _turns(blocks.get(heading, []), people, rejoin=own_titles):
            # un-wrapped first: the vendor breaks "(Operator\nInstructions)" across lines too
            body = _unwrap(said, width)
            removed_marks += len(OPERATOR_MARK.findall(body))
            body = "\n".join(" ".join(OPERATOR_MARK.sub(" ", p).split()) for p in body.split("\n")).strip()
            if not body.strip():
                continue
            if own_titles and own:
                role = _without_own_company(role, own)
            turn = f"{speaker} ({role})\n{body}" if role else f"{speaker}\n{body}" if speaker else body
            chunk = turn + "\n\n"
            parts.append(DocumentPart(start=at, end=at + len(chunk), section=section, kind="turn", context=speaker))
            out.append(chunk)
            at += len(chunk)
    if not any(part.context for part in parts):  # headings but no speaker: not a call's layout
        return None
    notes = []
    if removed_marks:
        notes.append(f"(Operator Instructions) removed {removed_marks}")
    if dropped_disclaimer:
        notes.append("vendor disclaimer dropped")
    if "participants" not in metadata and "CORPORATE PARTICIPANTS" in blocks:
        notes.append("participants list without a 'Company - Title' line (cut off?)")
    return CallDocument(text="".join(out), parts=tuple(parts), metadata=metadata, notes=tuple(notes))


def _participant(block: list[str]) -> tuple[str, str] | None:
    """(name, "Company - Title") of a participants-list block, the role "" when its line is missing."""
    name = block[0]
    if not _NAME.match(name):
        return None
    return name, block[1] if len(block) > 1 and _AFFILIATION.match(block[1]) else ""


def _folded(name: str) -> str:
    return " ".join(name.casefold().replace(",", " ").split())


def own_company(roles: Any) -> str:
    """The company the participants' "Company - Title" lines name most (the call's own; "" when none)."""
    counts: dict[str, int] = {}
    for role in roles:
        m = _AFFILIATION.match(role or "")
        if m:
            counts[_folded(m.group("company"))] = counts.get(_folded(m.group("company")), 0) + 1
    return max(counts, key=lambda c: (counts[c], c)) if counts else ""


def _without_own_company(role: str, own: str) -> str:
    """"Allied Properties … Trust - President, CEO" → "President, CEO" when the company is the call's own; any
    other company's line (an analyst's firm) as it is."""
    m = _AFFILIATION.match(role)
    return m.group("title") if m and _folded(m.group("company")) == own else role


def _role_words(role: str) -> str:
    m = _AFFILIATION.match(role)
    return f"{m.group('title')}, {m.group('company')}" if m else role


def _turns(blocks: list[list[str]], people: dict[str, str], rejoin: bool = False) -> list[tuple[str, str, list[str]]]:
    """(speaker, "Company - Title" or "", lines said) of a section's blocks; a block that opens with no speaker
    line continues the turn before it. rejoin (with own_titles): a speaker line cut from its name by a page break
    (the name alone at a page's foot, "Company - Title" atop the next) is the name's role, not words said."""
    turns: list[tuple[str, str, list[str]]] = []
    for block in blocks:
        if not block:
            continue
        first, rest = block[0], block[1:]
        affiliated = bool(rest) and _AFFILIATION.match(rest[0]) is not None and not _SENTENCE_END.search(rest[0])
        known = first in people or first == "Operator" or first.startswith("Unidentified")
        cut_role = (rejoin and bool(turns) and not turns[-1][2] and _AFFILIATION.match(first) is not None
                    and not _SENTENCE_END.search(first))
        if cut_role:
            speaker, role, said = turns[-1]
            turns[-1] = (speaker, role or first, said)
            said.extend(rest)
        elif _NAME.match(first) and (known or affiliated) and len(first) <= 60:
            role = rest[0] if affiliated else people.get(first, "")
            turns.append((first, role, rest[1:] if affiliated else rest))
        elif turns:
            turns[-1][2].extend(block)
        else:
            turns.append(("", "", block))
    return turns


def _unwrap(lines: list[str], width: int) -> str:
    """The hard-wrapped lines joined back into paragraphs (a break kept after a short line ending a sentence)."""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in lines:
        if not line:
            continue
        current.append(line)
        if _SENTENCE_END.search(line) and len(line) < PARAGRAPH_WIDTH * width:
            paragraphs.append(" ".join(current))
            current = []
    if current:
        paragraphs.append(" ".join(current))
    return "\n".join(paragraphs)
