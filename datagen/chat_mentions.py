"""The day of the one chat in which a speaker tells a lasting fact about themself: "Charlie: I've been a
dentist for the past 14 years" in the session of 3 March 2022 → "In which chat did Charlie mention
being a dentist?" → "3 March 2022"; "Harper: I volunteer at a local homeless shelter sometimes" →
"In which chat did Harper mention volunteering at a local homeless shelter?"; a named thing
(datagen.chat_named) by its name: "In which chat did John mention watching Titanic?".

datagen.chat_sessions asks the day of a noun-phrase act ("joining the gym"); the statements a speaker
makes about their job, home, origin, field or pastime (datagen.chat_roles, datagen.chat_facts: the
"said" relations, "What does Charlie do for a living?") are asked only for their object. A
conversation benchmark asks both ("When did Caroline mention she was a counselor?"), and the second
question needs the session, not the fact: on a set of chats that state few dated acts (MSC: 56 of 90
sessions give a question, 35 of them one at most) it is most of what a session can give.

The phrase is the sentence's own words from the verb to the end of the answer ("volunteer at a local
homeless shelter" → "volunteering at a local homeless shelter"; "I'm from the midwest" → "being from
the Midwest"), so it says what the speaker said and nothing more. It is written only where

- the speaker states it of themself, or a relative's present job as "their mom being a nurse" (the
  speaker's gender is not known; "his mom" or "her mom" would guess it),
- at most four plain words stand between the verb and the answer, none pointing at someone ("my",
  "our", "his": "mention living in my parents' house" would need whose),
- the speaker's own lines name the answer in no other session of the corpus (a job told in the first
  chat and again in the third has no one day), and no other fact gives the same question.

The verifier recomputes the day from the supporting document's title (`verify.told_when_in_support`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace

from datagen.chat_named import NAMED
from datagen.chat_sessions import TOLD_WHEN_SHAPE, gerund
from datagen.dates import format_date
from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.types import TruthType
from datagen.verify import TOLD_WHICH

SAID_SHAPE = "said"
# the verb a said relation is told with, where its key does not start with it ("from": "I'm from X")
_COPULAS = frozenset("am 'm ’m is 's ’s are 're ’re was were be been being".split())
_IRREGULAR = {
    "grow": ("grew", "grown"), "be": ("was", "were", "been"), "teach": ("taught",), "study": ("studied",),
    "apply": ("applied",), "live": ("lived",), "work": ("worked",), "have": ("had", "has"),
}
_I_AM = frozenset({"i'm", "i’m", "im"})  # not any "'s": "a local doctor's office as an assistant"
_COPULA_KEYS = frozenset({"work as", "from"})  # "I'm a chef", "I'm from India"; never "applied to be a …"
# words between the verb and the answer that say nothing of the fact ("I am also a travel agent")
_FILLERS = frozenset("also still just really currently now actually sometimes even already".split())
_POINTING = frozenset("my our your his her their its me him them us i you he she we they".split())
_MAX_BETWEEN = 4
# a participle after these is passive, and keeps its voice: "I just got accepted for a fashion
# internship" → "getting accepted for a fashion internship" (not "accepting for": the speaker was
# accepted, they accepted nothing)
_GET_AUX = frozenset("get gets got gotten getting".split())
_BE_AUX = frozenset("am 'm ’m is are was were be been being".split())
_KIN_JOB = re.compile(r"^What does \{s\}'s ([a-z]+) do for a living\?$")
_HOW_MANY = re.compile(r"^How many ([a-z]+) does \{s\} have\?$")


def told_when_said(base: FactBase, anchors: Mapping[str, dt.date], texts: Mapping[str, str]) -> list[Fact]:
    """The "In which chat did X mention …?" facts of the corpus's said relations (see the module
    docstring). anchors: each document's day; texts: each document's text (to find the speaker's
    other sessions that name the answer)."""
    found: list[Fact] = []
    for facts in base.facts.values():
        for f in facts:
            if not f.ask or f.about_doc or f.doc_id not in anchors or f.doc_id not in texts or _shape(f) != SAID_SHAPE:
                continue
            key = f.relation.split("|")[0]
            if key.startswith(f"{NAMED}:"):  # "What movie did John watch?" → "mention watching Titanic"
                phrase = f"{gerund(key.split(':')[1])} {f.answer}"
                key = key.split(":")[1]
            elif key.startswith("job:") and (m := _KIN_JOB.match(f.ask)):
                # "What does Emery's mom do for a living?" → "mention their mom being a nurse" (no gender)
                phrase = f"their {m.group(1)} being {_article(f.answer, f.sentence)}{f.answer}"
            elif key.startswith("count:") and (m := _HOW_MANY.match(f.ask)):
                phrase = f"having {f.answer} {m.group(1)}"  # "How many dogs does Jesse have?" → "having 2 dogs"
            elif ":" in key or not f.subject or f.kind == TruthType.DATE.value:
                continue  # a relative's job, a count, a plan, a duration: no phrase of the speaker's own
            else:
                phrase = mention_phrase(key, f.answer, f.sentence)
            if phrase:
                found.append(replace(
                    f, relation=f"{key}:{fold(f.answer)}|{TOLD_WHEN_SHAPE}|{TruthType.DATE.value}",
                    answer=format_date(anchors[f.doc_id]), kind=TruthType.DATE.value,
                    ask=f"{TOLD_WHICH}{{s}} mention {phrase}?",
                ))
    # the speaker names the answer in one session only, and one day answers each question
    days: dict[str, set[str]] = defaultdict(set)
    for f in found:
        days[f.ask.replace("{s}", f.subject)].add(f.answer)
    out, seen = [], set()
    for f in found:
        question = f.ask.replace("{s}", f.subject)
        if len(days[question]) != 1 or question in seen:
            continue
        answer = _answer_of(f)
        days_named = {anchors.get(d) for d, text in texts.items() if _speaker_names(text, f.subject, answer)}
        if days_named - {anchors[f.doc_id]}:
            continue
        seen.add(question)
        out.append(f)
    return out


def mention_phrase(key: str, answer: str, sentence: str) -> str:
    """"volunteer at" + "local homeless shelter" in "I volunteer at a local homeless shelter sometimes."
    → "volunteering at a local homeless shelter"; "" when the sentence does not hold the verb within
    four plain words before the answer."""
    m = re.search(rf"(?<![\w-]){re.escape(answer)}(?![\w-])", sentence, re.IGNORECASE)
    if m is None:
        return ""
    before = re.findall(r"[\w'’-]+", sentence[: m.start()])
    if key == "fan":  # a noun, no verb: "I'm a big fan of pottery" → "being a fan of pottery" (not "faning of")
        return f"being a fan of {answer}" if [w.lower() for w in before[-2:]] == ["fan", "of"] else ""
    lemma = key.split()[0] if key.split() and key != "from" else ""
    forms = _forms(lemma)
    for back in range(1, min(len(before), _MAX_BETWEEN + 1) + 1):
        word = before[-back].lower()
        between = [w for w in before[len(before) - back + 1:] if w.lower() not in _FILLERS]
        if any(w.lower() in _POINTING for w in between):
            return ""
        if word in forms:
            verb = gerund(lemma)
            aux = before[-back - 1].lower() if back < len(before) else ""
            if word.endswith("ed") or word in _IRREGULAR.get(lemma, ()):
                if aux in _GET_AUX:
                    verb = f"getting {word}"
                elif aux in _BE_AUX and lemma != "be":
                    verb = f"being {word}"
        elif key in _COPULA_KEYS and (word in _COPULAS or word in _I_AM):
            verb = "being"
        else:
            continue
        if key == "from" and (not between or between[-1].lower() != "from"):
            return ""
        words = " ".join([verb, *between, answer])
        return words if len(words.split()) <= 10 else ""
    return ""


def _article(answer: str, sentence: str) -> str:
    """"a " or "an " where the sentence says "a nurse", "an engineer"; "" otherwise."""
    m = re.search(rf"\b(an?) {re.escape(answer)}\b", sentence, re.IGNORECASE)
    return f"{m.group(1).lower()} " if m else ""


def _forms(lemma: str) -> set[str]:
    if not lemma.isalpha():
        return set()
    forms = {lemma, lemma + "s", lemma + "es", lemma + "ed", lemma + "d", gerund(lemma)}
    if lemma.endswith("y"):
        forms |= {lemma[:-1] + "ies", lemma[:-1] + "ied"}
    return forms | set(_IRREGULAR.get(lemma, ()))


def _answer_of(fact: Fact) -> str:
    """The thing the told-when question names (its relation key holds it after the colon)."""
    return fact.relation.split("|")[0].rsplit(":", 1)[1]


def _speaker_names(text: str, speaker: str, answer: str) -> bool:
    """Whether one of `speaker`'s lines in a chat's text names `answer` (folded, whole words)."""
    head = f"{speaker}:"
    pattern = re.compile(rf"(?<![\w-]){re.escape(answer)}(?![\w-])")
    return any(line.startswith(head) and pattern.search(fold(line)) for line in text.split("\n"))


def _shape(fact: Fact) -> str:
    parts = fact.relation.split("|")
    return parts[1] if len(parts) > 1 else ""
