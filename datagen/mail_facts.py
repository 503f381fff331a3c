"""What a person asks of their own mail: who sent a message, to whom, when, and what file came with it.

A mailbox exported one message per record has its subject and date in the title ("West Position
(7 December 2001)") and its header lines at the top of the text ("From: Heather Dunton <h.dunton@…>",
"To: …", "Cc: …"); the body follows. People find a message by its subject, and ask:

- 'Who sent the email "West Position"?'                      → "Heather Dunton" (the From line's name)
- 'Who was the email "West Position" sent to?'               → "Phillip Allen" (one named recipient, no Cc)
- 'Who was copied on the email "West Position"?'             → "Tim Belden" (one named Cc)
- 'When was the email "West Position" sent?'                 → "7 December 2001" (the title's date; the
  verifier recomputes it from the supporting document's title, `verify.sent_in_support`)
- 'Which file was attached to the email "West Position"?'    → "west_delta_pos.xls" (one file named in
  the message's own part: "<< File: west_delta_pos.xls >>" or a closing " - west_delta_pos.xls" line)
- 'Where is the meeting in the email "All-Employee Meeting" held?' → "Houston's Hyatt Regency Imperial
  Ballroom" (the message's own text says where one meeting is: "The meeting will be held in …", "We will
  be meeting in Conference Room 307"; a named place, never a time)

A subject is asked only when no other message of the corpus has it (a "Re:"/"Fw:" of it included: the
original and its reply would be two answers), when it says something (letters, not only "(no subject)"
or a date), and each answer only when the message gives one: a sender shown by name (an address alone
is no one to name), a single recipient, a single file. Quoted and forwarded parts below the message's
own text belong to earlier messages (`own_part`): their files are not this message's.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping

from datagen.factbase import Fact
from datagen.mining import fold
from datagen.types import TruthType

MAIL_SHAPE = "mail"  # "mail:from|west position|person": a header fact of one message
ASK_FROM = 'Who sent the email "{subject}"?'
ASK_TO = 'Who was the email "{subject}" sent to?'
ASK_CC = 'Who was copied on the email "{subject}"?'
ASK_WHEN = 'When was the email "{subject}" sent?'
ASK_WHERE = 'Where is the meeting in the email "{subject}" held?'
ASK_FILE = 'Which file was attached to the email "{subject}"?'
# the question's subject, read back by the verifier (`verify.sent_in_support`)
SENT_QUESTION = re.compile(r'^When was the email "(.+)" sent\?$')

_HEADER_LINE = re.compile(r"^(From|To|Cc)\s*:\s*(.*)$", re.IGNORECASE)
_ANY_HEADER = re.compile(r"^(?:[A-Z][\w-]{0,30}\s*:\s|\s+\S)")  # "Date: …", "Subject: …", a folded line
_TITLE = re.compile(r"^(?P<subject>.*\S)\s*\((?P<date>[^()]*\d{4})\)\s*$")
_REPLY = re.compile(r"^\s*(?:(?:re|fw|fwd|aw)\s*:\s*)+", re.IGNORECASE)
_PERSON = re.compile(r"^([^<>@]+?)\s*<[^<>\s]+@[^<>\s]+>$")
_NAME = re.compile(r"^[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){1,3}$")
# Where a message's own text ends: an earlier message quoted or forwarded below it.
QUOTE_START = re.compile(
    r"^\s*(?:-+\s*Original Message\s*-+|-+\s*Forwarded by\b.*|.{0,80}\bwrote:\s*$|>\s?\S.*|From:\s.*|Sent:\s.*"
    r"|To:\s.*@.*|\S.*@\S+\s*$)",
    re.IGNORECASE | re.MULTILINE,
)
# "The meeting will be held in Houston's Hyatt Regency Imperial Ballroom", "We will be meeting in Conference
# Room 307": a capitalised place (a room's number may close it), never "at 10 a.m."
_MEETING_PLACE = re.compile(
    r"\b(?i:meeting\s+(?:will\s+be|is|was)\s+held|meeting\s+will\s+take\s+place|we\s+will\s+be\s+meeting"
    r"|we\s+are\s+meeting|we\s+will\s+meet)"
    r"\s+(?:in|at)\s+(?:the\s+)?(?P<place>(?:[A-Z][\w'’&-]*\s+){0,5}[A-Z][\w'’&-]*(?:\s+\d{1,5}[A-Z]?\b)?)",
)
_FILE = r"[\w][\w .()&'-]{0,80}?\.(?:xls|xlsx|doc|docx|pdf|ppt|pptx|txt|zip|csv|rtf|htm|html|jpg|gif|tif|wpd|vsd)"
_ATTACHED = re.compile(rf"<<\s*File:\s*({_FILE})\s*>>|^\s*-\s+({_FILE})\s*$", re.IGNORECASE | re.MULTILINE)


def is_mail(text: str) -> bool:
    """Whether a document is a message of a mail export: its text opens with a From header line."""
    return bool(re.match(r"\s*From\s*:", text))


def headers_and_body(text: str) -> tuple[list[str], str]:
    """The header lines at the top of a message (up to the first blank line) and the rest."""
    head, _, body = text.lstrip().partition("\n\n")
    lines = head.split("\n")
    if not all(_ANY_HEADER.match(line) for line in lines):
        return [], text
    return lines, body


def own_part(text: str) -> str:
    """The message's own text: its body up to the first quoted or forwarded earlier message."""
    _, body = headers_and_body(text)
    m = QUOTE_START.search(body)
    return body[: m.start()] if m else body


def only_quoted(text: str) -> bool:
    """Whether a message's body (below headers read as headers) is nothing but an earlier message quoted
    or forwarded. A header block that does not read as one (a To list cut across passages) is no such
    message: its "body" would start at the From line and hold no own text by mistake."""
    headers, body = headers_and_body(text)
    m = QUOTE_START.search(body)
    return bool(headers) and m is not None and not re.search(r"\w", body[: m.start()])


def subject_and_date(title: str) -> tuple[str, str]:
    """("West Position", "7 December 2001") of "West Position (7 December 2001)"; ("", "") otherwise."""
    m = _TITLE.match(title or "")
    return (m.group("subject").strip(), m.group("date").strip()) if m else ("", "")


def _says_something(subject: str) -> bool:
    bare = _REPLY.sub("", subject).strip()
    # "Re: [Re:]", "FW: Fw:": reply and forward marks anywhere name nothing
    words = [w for w in re.findall(r"[A-Za-z]{2,}", bare) if w.lower() not in ("re", "fw", "fwd", "aw")]
    # a program's subject ("Start Date: 4/26/01; HourAhead hour: 20; <CODESITE>") is fields, not words
    machine = "<" in bare or ";" in bare
    return bool(words) and bare.lower() not in ("(no subject)", "no subject") and '"' not in bare and "{" not in bare \
        and not machine


def _person(value: str) -> str:
    """The name of "Heather Dunton <h.dunton@x.com>" (a person shown by name), else ""."""
    m = _PERSON.match(value.strip())
    name = m.group(1).strip().strip('"') if m else ""
    return name if _NAME.match(name) else ""


def mail_facts(
    titles: Mapping[str, str], texts: Mapping[str, str], chunks: Mapping[str, list[tuple[str, str]]],
    skipped: Counter | None = None,
) -> dict[str, list[Fact]]:
    """Header facts of every message of the corpus (see the module docstring), by doc id.

    titles, texts: doc id → title and full text; chunks: doc id → its passages as (chunk id, text), in
    order (a fact's sentence is a line of the passage that holds it). A message whose body is only an
    earlier message quoted or forwarded says nothing of its own: its header questions would ask after a
    copy ("Who sent the email 'Fw: Gas contract'?"), so it gives none, counted in `skipped`
    ("mail_only_quoted")."""
    by_subject: dict[str, list[str]] = defaultdict(list)
    for doc_id, text in texts.items():
        if is_mail(text) and only_quoted(text):
            if skipped is not None:
                skipped["mail_only_quoted"] += 1
            continue
        subject, _ = subject_and_date(titles.get(doc_id, ""))
        if subject and is_mail(text):
            by_subject[fold(_REPLY.sub("", subject))].append(doc_id)
    out: dict[str, list[Fact]] = {}
    for key, docs in by_subject.items():
        if len(docs) != 1:
            continue  # a thread or a shared subject: "the email 'lunch'" names several
        facts = _message_facts(docs[0], key, titles[docs[0]], texts[docs[0]], chunks.get(docs[0]) or [])
        if facts:
            out[docs[0]] = facts
    return out


def _message_facts(doc_id: str, key: str, title: str, text: str, passages: list[tuple[str, str]]) -> list[Fact]:
    """The header facts of one message whose subject no other message has (key: the folded subject)."""
    subject, day = subject_and_date(title)
    if not _says_something(subject) or not passages:
        return []
    headers, _ = headers_and_body(text)
    fields = {m.group(1).lower(): (line, m.group(2)) for line in headers if (m := _HEADER_LINE.match(line))}

    def holder(line: str) -> str:
        return next((cid for cid, ctext in passages if line in ctext), "")

    if "from" not in fields or not holder(fields["from"][0]):
        return []
    from_line, from_value = fields["from"]
    sender = _person(from_value)

    def fact(relation: str, answer: str, kind: TruthType, ask: str, sentence: str) -> Fact:
        return Fact(
            doc_id=doc_id, chunk_id=holder(sentence), sentence=sentence, subject=sender or subject, about_doc=False,
            relation=f"{MAIL_SHAPE}:{relation}|{key}|{kind.value}", answer=answer, kind=kind.value,
            ask=ask.replace("{subject}", subject),
        )

    facts: list[Fact] = []
    if sender:
        facts.append(fact("from", sender, TruthType.PERSON, ASK_FROM, from_line))
    if "to" in fields and "cc" not in fields and "," not in fields["to"][1] and holder(fields["to"][0]):
        recipient = _person(fields["to"][1])
        if recipient and fold(recipient) != fold(sender):
            facts.append(fact("to", recipient, TruthType.PERSON, ASK_TO, fields["to"][0]))
    if "cc" in fields and "," not in fields["cc"][1] and holder(fields["cc"][0]):
        copied = _person(fields["cc"][1])
        if copied and fold(copied) != fold(sender):
            facts.append(fact("cc", copied, TruthType.PERSON, ASK_CC, fields["cc"][0]))
    if day:
        facts.append(fact("when", day, TruthType.DATE, ASK_WHEN, from_line))
    own = own_part(text)
    places = {m.group("place").strip() for m in _MEETING_PLACE.finditer(own)}
    if len(places) == 1:
        place = next(iter(places))
        line = next(m.group(0) for m in _MEETING_PLACE.finditer(own))
        if holder(line):
            facts.append(fact("where", place, TruthType.PLACE, ASK_WHERE, line))
    files = {(m.group(1) or m.group(2)).strip() for m in _ATTACHED.finditer(own)}
    if len(files) == 1:
        line = next(m.group(0).strip() for m in _ATTACHED.finditer(own))
        if holder(line):
            facts.append(fact("file", next(iter(files)), TruthType.OTHER, ASK_FILE, line))
    return facts
