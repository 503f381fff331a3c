"""Facts of current reports (8-Ks) and earnings releases that are events, not table figures (issue 36: a folder
of press releases and 8-Ks): what a person asks of them.

- a shareholder vote (Item 5.07): "How many votes were cast for Virginia C. Drosos in the election of directors at
  Foot Locker's annual meeting on May 18, 2022?" → "59,657,810", from a nominee's row under a "Votes For | Votes
  Against | …" column line, or from a proposal's "Votes For Votes Against …" line and the numbers under it;
- an officer appointed or leaving (Item 5.02): "Who was appointed President and Chief Executive Officer of Foot
  Locker, effective September 1, 2022?" → "Mary N. Dillon"; "When did Foot Locker announce that Richard A. Johnson
  would step down as its President and Chief Executive Officer?" → "August 19, 2022";
- a dividend declared with a release's results: "What quarterly cash dividend per share did Amcor declare with its
  results for the fourth quarter of fiscal 2023?" → "12.25 cents", and its payment date.

Each is read by a pattern from one passage (the vote's meeting day from the item's opening sentence), and the
answer is a span of those passages, so datagen.verify checks it as any other extraction. What stops a candidate is
counted: a vote table whose column line is lost (`event_vote_header_lost`: the numbers could be any column's), a
vote without its meeting's day, a document whose company is not found (`event_without_company`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from datagen.mining import MinedCorpus
from datagen.release_facts import filing_company
from datagen.table_facts import is_table, short_company, table_columns
from datagen.types import TruthType

# a day as a filing writes one ("May 3, 2023"), read by datagen.event_periods too
DAY = r"(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}"
# a person as a filing writes one: "Virginia C. Drosos", "Ulice Payne, Jr.", "Mary N. Dillon"
_PERSON = r"[A-Z][a-z]+(?: [A-Z]\.)*(?: [A-Z][a-z'’-]+){1,2}(?:,? Jr\.|,? Sr\.| III| II)?"
_PERSON_ROW = re.compile(rf"^{_PERSON}$")
_MEETING = re.compile(rf"(?i)annual meeting of (?:share|stock)holders held on ({DAY})")
_ROLE = r"(?:[A-Z][a-z]+ )*(?:Officer|President|Chair|Chairman|Chairwoman|Director|Treasurer|Secretary|Counsel|Controller)"
_ROLE_WORD = r"\b(?:Officer|President|Chief|Chair|Chairman|Director|Executive|Board|Company)\b"
_ROLES = rf"{_ROLE}(?: and {_ROLE})?"
APPOINTED = re.compile(
    rf"(?P<name>{_PERSON}), (?:\d{{2}}, )?(?:(?:(?!\. [A-Z])[^;]){{0,120}}?, )?(?:has been|was|will be) (?:appointed|named) "
    rf"(?:as )?(?:the )?(?:Company’s |Company's )?(?P<role>{_ROLES})\b[^.;]{{0,160}}?\beffective (?P<day>{DAY})"
)
_STEPS_DOWN = re.compile(
    rf"On (?P<announced>{DAY}), (?:(?!\. [A-Z])[^;]){{0,120}}?\bannouncing that,? (?:(?:(?!\. [A-Z])[^;]){{0,60}}?, )?(?P<name>{_PERSON}) will "
    rf"(?:step down|retire|resign) (?:as|from) (?:the )?(?P<role>{_ROLES}) of the Company, effective (?P<day>{DAY})"
)
_DIVIDEND = re.compile(r"declared a (?P<kind>quarterly|regular quarterly) cash dividend of (?P<amount>\d+(?:\.\d+)? cents|\$\d+\.\d+) per share")
_PAYMENT = re.compile(rf"(?:the )?payment date will be (?P<day>{DAY})")
_VOTE_LINE = re.compile(r"^Votes For Votes Against Abstentions(?: Broker Non-Votes)?$")
_NUMBERS = re.compile(r"^\d{1,3}(?:,\d{3})+(?: \d{1,3}(?:,\d{3})*)+$")
_PROPOSAL = re.compile(r"(?s)With respect to the proposal to (?P<what>.+?), the\s+votes were cast for the proposal")
_QUARTER_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth"}


@dataclass(frozen=True)
class Event:
    """One question of an event: its passages (chunk ids and verbatim quotes of document `doc_id`) and answer."""

    doc_id: str
    chunk_ids: tuple[str, ...]
    quotes: tuple[str, ...]
    question: str
    answer: str
    kind: str
    key: str


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _owned(what: str, company: str) -> str:
    """"the Company’s named executive officers’ (“NEOs”) compensation" → "Foot Locker's named executive officers'
    compensation": the filing's defined terms put back as a reader names them."""
    what = re.sub(r"\s*\((?:the )?[“\"][^”\"]+[”\"]\)", "", what)
    what = re.sub(r"\bthe Company[’']s\b", f"{company}'s", what)
    return re.sub(r"\bthe Company\b", company, what).replace("’", "'")


def read_events(mined: MinedCorpus, stages: Counter) -> list[Event]:
    """Every event question the folder's 8-Ks and releases give (see the module docstring)."""
    out: list[Event] = []
    for doc_id, chunks in mined.chunks.items():
        if not chunks:
            continue
        meta = chunks[0].metadata or {}
        text = "\n".join(c.text for c in chunks)
        if not (_MEETING.search(_flat(text)) or APPOINTED.search(_flat(text)) or _STEPS_DOWN.search(_flat(text))
                or _DIVIDEND.search(_flat(text))):
            continue
        company = short_company(filing_company(meta, [c.text for c in chunks[:4]], mined.titles.get(doc_id, "")))
        if not company:
            stages["event_without_company"] += 1
            continue
        out.extend(_votes(doc_id, chunks, company, stages))
        out.extend(_officers(doc_id, chunks, company, stages))
        if str(meta.get("form") or "").upper() not in ("10-K", "10-Q"):
            # a 10-Q's "On February 7, 2023, the Board declared …" is a later event, not its quarter's
            out.extend(_dividends(doc_id, chunks, company, meta, stages))
    # a title read as a name ("Chief Executive Officer, effective …"): no person
    kept = [e for e in out if not (e.kind == TruthType.PERSON.value and re.search(_ROLE_WORD, e.answer))]
    stages["event_person_is_a_title"] += len(out) - len(kept)
    unique: dict[str, Event] = {}
    for e in kept:  # one sentence read twice (overlapping chunks, an exhibit repeating its item): the first
        unique.setdefault(e.question, e)
    stages["event:questions"] += len(unique)
    return list(unique.values())


def _meeting(chunks: list[Any]) -> tuple[str, str, str] | None:
    """(chunk id, quote, day) of the sentence that gives the annual meeting's day."""
    for c in chunks:
        m = _MEETING.search(_flat(c.text))
        if m:
            flat = _flat(c.text)
            start = flat.rfind(". ", 0, m.start()) + 1
            end = flat.find(". ", m.end())
            return c.chunk_id, flat[start:end if end > 0 else len(flat)].strip(), m.group(1)
    return None


def _votes(doc_id: str, chunks: list[Any], company: str, stages: Counter) -> list[Event]:
    out: list[Event] = []
    meeting = _meeting(chunks)
    for i, c in enumerate(chunks):
        section = str((c.metadata or {}).get("section", ""))
        lines = [line.strip() for line in c.text.split("\n")]
        if is_table(c.metadata) and re.search(r"(?i)vote of security holders", section):
            columns, _ = table_columns(c.text, c.metadata)
            rows = [line for line in lines if " | " in line and not line.startswith("(")]
            heads = [re.sub(r".*:\s*", "", col).strip().lower() for col in columns]
            if "votes for" not in heads or "votes against" not in heads:
                stages["event_vote_header_lost"] += len(rows)  # which column is "for"? no question
                continue
            for line in rows:
                cells = [x.strip() for x in line.split(" | ")]
                if not _PERSON_ROW.match(cells[0]) or len(cells) - 1 != len(columns):
                    stages["event_vote_row_not_a_nominee"] += 1
                    continue
                if meeting is None:
                    stages["event_vote_without_meeting"] += 1
                    continue
                for side in ("for", "against"):
                    value = cells[1 + heads.index(f"votes {side}")]
                    question = (f"How many votes were cast {side} {cells[0]} in the election of directors at {company}'s "
                                f"annual meeting on {meeting[2]}?")
                    out.append(_event(doc_id, c, line, meeting, question, value, f"vote|{cells[0]}|{side}"))
        for j, line in enumerate(lines[:-1]):
            if not _VOTE_LINE.match(line) or not _NUMBERS.match(lines[j + 1]):
                continue
            before = "\n".join([chunks[i - 1].text if i else "", c.text[: c.text.find(line)]])
            proposals = list(_PROPOSAL.finditer(before))
            if not proposals or meeting is None:
                stages["event_vote_without_proposal"] += 1
                continue
            what = _owned(_flat(proposals[-1].group("what")), company)
            if len(what.split()) > 25:
                stages["event_vote_proposal_long"] += 1
                continue
            value = lines[j + 1].split()[0]
            quote = _flat(proposals[-1].group(0))
            host = chunks[i - 1] if quote not in _flat(c.text) and i else c
            owner = "its" if f"{company}'s" in what else f"{company}'s"
            question = f"How many votes were cast for the proposal to {what} at {owner} annual meeting on {meeting[2]}?"
            out.append(Event(doc_id, tuple(dict.fromkeys((c.chunk_id, host.chunk_id, meeting[0]))),
                             (lines[j + 1], quote, meeting[1]), question, value, TruthType.NUMBER.value,
                             f"vote|{what}|for"))
    return out


def _event(doc_id: str, chunk: Any, quote: str, meeting: tuple[str, str, str], question: str, answer: str,
           key: str) -> Event:
    return Event(doc_id, tuple(dict.fromkeys((chunk.chunk_id, meeting[0]))), (quote, meeting[1]), question, answer,
                 TruthType.NUMBER.value, key)


def _officers(doc_id: str, chunks: list[Any], company: str, stages: Counter) -> list[Event]:
    out: list[Event] = []
    for c in chunks:
        flat = _flat(c.text)
        for m in APPOINTED.finditer(flat):
            question = f"Who was appointed {m.group('role')} of {company}, effective {m.group('day')}?"
            out.append(Event(doc_id, (c.chunk_id,), (m.group(0),), question, m.group("name"), TruthType.PERSON.value,
                             f"appointed|{m.group('role')}|{m.group('day')}"))
        for m in _STEPS_DOWN.finditer(flat):
            role = m.group("role")
            out.append(Event(doc_id, (c.chunk_id,), (m.group(0),),
                             f"Who did {company} announce would step down as its {role}, effective {m.group('day')}?",
                             m.group("name"), TruthType.PERSON.value, f"departs|{role}|{m.group('day')}"))
            out.append(Event(doc_id, (c.chunk_id,), (m.group(0),),
                             f"When did {company} announce that {m.group('name')} would step down as its {role}?",
                             m.group("announced"), TruthType.DATE.value, f"departure announced|{m.group('name')}"))
    return out


def _dividends(doc_id: str, chunks: list[Any], company: str, meta: Any, stages: Counter) -> list[Event]:
    """The dividend a release declares, asked by the release's quarter (document metadata fiscal_year and
    fiscal_quarter); a release that gives no quarter gives no question ("the dividend declared today": when?)."""
    out: list[Event] = []
    year, quarter = meta.get("fiscal_year"), meta.get("fiscal_quarter")
    for c in chunks:
        flat = _flat(c.text)
        m = _DIVIDEND.search(flat)
        if not m:
            continue
        if not (isinstance(year, int) and quarter in _QUARTER_WORDS):
            stages["event_dividend_without_quarter"] += 1
            continue
        when = f"with its results for the {_QUARTER_WORDS[quarter]} quarter of fiscal {year}"
        amount = m.group("amount")
        out.append(Event(doc_id, (c.chunk_id,), (m.group(0),),
                         f"What quarterly cash dividend per share did {company} declare {when}?", amount,
                         TruthType.NUMBER.value, f"dividend|{year}|{quarter}"))
        pay = _PAYMENT.search(flat)
        if pay:
            out.append(Event(doc_id, (c.chunk_id,), (m.group(0), pay.group(0)),
                             f"On what date was the quarterly dividend of {amount} per share that {company} declared "
                             f"{when} to be paid?", pay.group("day"), TruthType.DATE.value, f"dividend paid|{year}|{quarter}"))
    return out
