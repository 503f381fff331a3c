"""What a chat's speaker said they were passionate about, keen on, crazy about, into or interested in, asked
by that chat's day: people tell a friend what they care for, and conversation benchmarks ask it ("What is
Caroline passionate about?"); "I'm a fan of X" is datagen.chat_facts' ("What is Melanie a fan of?"):

- "I'm passionate about dancing and it brings me joy."   → "In the chat of 20 January 2023, what was Jon
  passionate about?" → "dancing"
- "I'm crazy about pottery - the skill is awesome."      → "…, what was Melanie crazy about?" → "pottery"
- "I'm keen on counseling or working in mental health."  → "…, what was Caroline keen on?" → "counseling or
  working in mental health"
- "I'm into fashion, although I dress casually."         → "…, what was Blake into?" → "fashion"
- "My goal is to give kids a loving home."               → "…, what was Caroline's goal?" → "to give kids a
  loving home" (a goal, dream, aim, mission or hope said in the present with the speaker's "my")

Read from the parse: "I'm / I am / I've (always) been" with the speaker's "I" as subject, in the sentence's
own clause (no question, negation, modal, condition, hedge or joke marker), and one of `_FRAMES`: an
adjective ("passionate about", "keen on", "interested in", "obsessed with", "crazy about") or a bare
"into"; the thing is the preposition's object, cut as datagen.chat_doing cuts a thing
(before a time word, a clause or punctuation; never a pointing, vague or broken phrase): "I'm
obsessed with those" and "I'm interested in that" give none. A past "I was into…" is no present interest.

The relation is the day and the frame ("goal" for a goal) ("interest:20 January 2023:passionate about"): two different things
the speaker was passionate about that day give no question (`datagen.chat_facts.unique_chat_facts`);
the verifier checks the supporting chat was written that day.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from datagen.chat_doing import own_clause, thing_phrase, told_plainly
from datagen.chat_facts import SHAPE
from datagen.chat_plans import plain_clause
from datagen.dates import format_date
from datagen.factbase import Fact
from datagen.types import TruthType
from datagen.verify import TOLD_OPENING

INTEREST = "interest"
# the word the interest is said with → its preposition
_ADJECTIVES = {"passionate": "about", "keen": "on", "interested": "in", "obsessed": "with", "crazy": "about"}
_AIMS = frozenset("goal dream aim mission hope".split())


def interest_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, day: dt.date | None) -> list[Fact]:
    """What the speaker said they cared for in one parsed sentence (see the module docstring)."""
    if not told_plainly(doc, text, speaker, day):
        return []
    out: list[Fact] = []
    for be in doc:
        if be.lemma_ != "be" or not own_clause(be) or not plain_clause(be):
            continue
        told = format_date(day)
        aim = _aim(be)
        if aim is not None:
            noun, answer = aim
            out.append(Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
                relation=f"{INTEREST}:{told}:{noun}|{SHAPE}|{TruthType.OTHER.value}", answer=answer,
                kind=TruthType.OTHER.value, ask=f"{TOLD_OPENING}{told}, what was {{s}}'s {noun}?",
            ))
            continue
        if not any(c.dep_ == "nsubj" and c.lower_ == "i" for c in be.children) or not _present(be):
            continue
        found = _interest(be)
        if found is None:
            continue
        frame, obj = found
        answer = thing_phrase(obj)
        if not answer:
            continue
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"{INTEREST}:{told}:{frame}|{SHAPE}|{TruthType.OTHER.value}", answer=answer,
            kind=TruthType.OTHER.value, ask=f"{TOLD_OPENING}{told}, what was {{s}} {frame}?",
        ))
    return out


def _aim(be: Any) -> tuple[str, str] | None:
    """("goal", "to give kids a loving home") for "My goal is to give kids a loving home", or None: a
    present "is"/"'s" whose subject is the speaker's own goal, dream, aim, mission or hope."""
    if be.lower_.replace("’", "'") not in ("is", "'s") or any(c.dep_ == "aux" for c in be.children):
        return None
    noun = next((c for c in be.children if c.dep_ == "nsubj" and c.lemma_.lower() in _AIMS), None)
    if noun is None or noun.tag_ != "NN" or not any(c.dep_ == "poss" and c.lower_ == "my" for c in noun.children):
        return None
    if any(c.dep_ in ("amod", "compound", "prep", "relcl") for c in noun.children):
        return None  # "my biggest dream", "my goal for the year": another question
    act = next((c for c in be.children if c.dep_ in ("xcomp", "attr", "ccomp") and c.tag_ == "VB"), None)
    to = next((c for c in act.children if c.dep_ == "aux" and c.lower_ == "to"), None) if act is not None else None
    if to is None or to.i != be.i + 1:
        return None
    answer = thing_phrase(act, start=to.i)
    return (noun.lower_, answer) if answer else None


def _present(be: Any) -> bool:
    """"I'm", "I am", "I've (always) been": an interest the speaker holds at the chat."""
    auxes = [c.lower_.replace("’", "'") for c in be.children if c.dep_ == "aux"]
    if be.lower_.replace("’", "'") in ("'m", "am"):
        return not auxes
    return be.lower_ == "been" and auxes in (["'ve"], ["have"])


def _interest(be: Any) -> tuple[str, Any] | None:
    """(the question's frame, the thing's head) of "passionate about X", "into X", or None."""
    for c in be.children:
        if c.dep_ == "acomp" and c.lower_ in _ADJECTIVES:
            return _object(c, _ADJECTIVES[c.lower_], f"{c.lower_} {_ADJECTIVES[c.lower_]}")
        if c.dep_ == "prep" and c.lower_ == "into" and c.i == be.i + 1:
            return _object(c, "into", "into")
    return None


def _object(word: Any, prep: str, frame: str) -> tuple[str, Any] | None:
    at = word if word.lower_ == prep else next((c for c in word.children if c.dep_ == "prep" and c.lower_ == prep), None)
    if at is None:
        return None
    obj = next((g for g in at.children if g.dep_ in ("pobj", "pcomp")), None)
    return (frame, obj) if obj is not None else None
