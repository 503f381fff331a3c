"""What an office document states in a plain sentence (issue 36, session 57): a requirement's time limit, a budget,
the next meeting's day. Read only where the sentence is that statement and nothing else, each asked naming the
document:

- "Search results should be displayed within a second." → "According to the Project Charter for TRACK-APP, within
  what time should search results be displayed?" → "a second" (`LIMIT`): a subject, a modal ("shall", "should",
  "must", "will"), its verb phrase, then "within" / "in under" / "in less than" a duration ending the sentence;
- "Total budget for drone hardware procurement is $300,000 USD." or a list's "Project budget $50,000." → "… what is
  the total budget for drone hardware procurement?" (`BUDGET`): money, whole;
- "The next meeting will be held on 4 May 2024." → "… when is the next meeting?" (`NEXT_MEETING`), a day.

Refused (counted in `skipped`): a statement the document makes twice with two values (a log of several meetings,
each with its next one: office_statement_two_values); a subject that is a pronoun or opens with a conjunction ("It
should load within 2 seconds": what is "it"?), or that holds a heading run into the sentence ("Performance
Requirement Database should be updated within a second": office_statement_subject).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from datagen.factbase import Fact
from datagen.mining import fold
from datagen.types import TruthType

LIMIT = "doc:office_limit"
BUDGET = "doc:office_budget"
NEXT_MEETING = "doc:office_next_meeting"

_UNITS = r"(?:milli)?seconds?|ms|minutes?|mins?|hours?|hrs?|days?|weeks?|months?"
# "<subject> <modal> <verb phrase> within <duration>." — the whole sentence
_LIMIT = re.compile(
    r"^(?P<subject>[A-Z][\w'’/-]*(?: [\w'’/-]+){0,5}?) (?P<modal>shall|should|must|will) (?P<rest>(?:not )?(?:be )?"
    r"[a-z][\w'’/-]*(?: [\w'’/-]+){0,8}?) (?P<prep>within|in under|in less than|in no more than) "
    rf"(?P<value>(?:a|an|one|\d+(?:\.\d+)?) ?(?:{_UNITS}))\.?$"
)
_MONEY = r"[$£€]\s?\d[\d,]*(?:\.\d\d)?(?:\s?(?:USD|EUR|GBP|k|million))?|\d[\d,]*(?:\.\d\d)?\s?(?:USD|EUR|GBP|dollars)"
# "Total budget for drone hardware procurement is $300,000 USD.", "Project budget $50,000."
_BUDGET = re.compile(
    r"^(?:[A-Z][\w ]{0,30}:\s*)?(?:the |our )?(?P<label>(?:(?:total|overall|project|estimated|approved) )?budget"
    rf"(?: for (?:the )?[\w -]{{3,50}}?)?)(?: is| will be| of)?:? (?P<value>{_MONEY})\.?$",
    re.IGNORECASE,
)
_DAY = (
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,? )?(?:\d{1,2}(?:st|nd|rd|th)? (?:of )?[A-Z][a-z]{2,8},? \d{4}"
    r"|[A-Z][a-z]{2,8} \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4})"
)
# "The next meeting will be held on 4 May 2024.", "Next meeting: 12/03/2019"
_NEXT = re.compile(
    rf"^(?:the )?next (?:group |team )?meeting(?: will be held| will be| is(?: scheduled)?)?(?: on|:)? (?P<value>{_DAY})\.?$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^(?:[-–•*·▪◦]|\d+[.)])\s*")
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)])[.!?]\s+(?=[A-Z])")
_NOT_SUBJECT = frozenset("it this that they these those there we i you he she which and or but so then also".split())


def _sentences(text: str) -> list[str]:
    """The sentences of a passage's lines, a list item's mark dropped."""
    out = []
    for line in text.split("\n"):
        line = _BULLET.sub("", line.strip())
        if line and " | " not in line:
            out += [s.strip() for s in _SENTENCE_END.split(line) if s.strip()]
    return out


def _subject(subject: str) -> str:
    """A sentence's subject as a question says it inside: "Search results" → "search results" ("API" stays)."""
    first, _, rest = subject.partition(" ")
    first = first if first.isupper() and len(first) > 1 else first.lower()
    return f"{first} {rest}".strip()


def statement_facts(chunks: Sequence[Any], named: str, skipped: Counter) -> list[Fact]:
    """Every statement of one office document's passages that `statement_facts` reads (see the module docstring),
    each question naming the document as `named`."""
    found: dict[tuple[str, str], list[Fact]] = {}

    def add(chunk: Any, sentence: str, relation: str, subject: str, answer: str, kind: str, ask: str) -> None:
        found.setdefault((relation, fold(subject)), []).append(
            Fact(
                doc_id=chunk.doc_id,
                chunk_id=chunk.chunk_id,
                sentence=sentence,
                subject=subject,
                about_doc=False,
                relation=relation,
                answer=answer,
                kind=kind,
                ask=ask,
            )
        )

    for chunk in chunks:
        for sentence in _sentences(chunk.text):
            m = _LIMIT.match(sentence)
            if m:
                words = m.group("subject").split()
                if (
                    fold(words[0]) in _NOT_SUBJECT
                    or sum(1 for w in words[1:] if w[:1].isupper() and not w.isupper()) >= 2
                ):
                    # "It should …": what is "it"? "Performance Requirement Database should …": a heading run into
                    # the sentence
                    skipped["office_statement_subject"] += 1
                    continue
                subject = _subject(m.group("subject"))
                phrase = f"{m.group('modal')} {subject} {m.group('rest')}"
                add(
                    chunk,
                    sentence,
                    LIMIT,
                    f"{subject} {m.group('rest')}",
                    m.group("value"),
                    TruthType.ENTITY.value,
                    f"According to {named}, within what time {phrase}?",
                )
                continue
            m = _BUDGET.match(sentence)
            if m:
                label = " ".join(m.group("label").lower().split())
                add(
                    chunk,
                    sentence,
                    BUDGET,
                    label,
                    m.group("value"),
                    TruthType.NUMBER.value,
                    f"According to {named}, what is the {label}?",
                )
                continue
            m = _NEXT.match(sentence)
            if m:
                add(
                    chunk,
                    sentence,
                    NEXT_MEETING,
                    "next meeting",
                    m.group("value"),
                    TruthType.DATE.value,
                    f"According to {named}, when is the next meeting?",
                )
    out = []
    for facts in found.values():
        if len({fold(f.answer) for f in facts}) > 1:
            skipped["office_statement_two_values"] += len(facts)  # minutes of several meetings, each its next one
            continue
        out.append(facts[0])
    return out
