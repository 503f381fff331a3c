"""How long a chat's speaker has been doing or being something, when they say it: conversation benchmarks
ask it ("How long has Caroline had her current group of friends for?" → "4 years"), and people say it
when they meet ("I've been a dentist for the past 14 years").

Read from the parse of the speaker's plain statement in the present perfect, a "for" phrase whose object
counts a unit of time:

- "I've been a dentist for the past 14 years"                    → "How long has Charlie been a dentist?" → "14 years"
- "I've been working with computer software for over 10 years"   → "How long has Drew been working with
  computer software?" → "over 10 years"
- "We've been married for 5 years"                               → "How long has Mel been married?" → "5 years"
- "How long have you been into art?" — "Melanie: Seven years now" → "How long has Melanie been into art?"
  → "Seven years" (a reply that opens with a duration, to the other speaker's question just before)

Nothing is read from a question, a negation, a modal or a condition, from a vague count ("for a few
years", "for ages", "for a while"), or when the rest of the clause leans on a word the question cannot
carry ("working on it", "known these friends", "my job": whose? which?). The relation is the question
itself, with the chat facts' shape (datagen.chat_facts.SHAPE), so `unique_chat_facts` keeps it only when
the corpus gives that person one duration for it.
"""

from __future__ import annotations

import re
from typing import Any

from datagen.chat_facts import SHAPE
from datagen.chat_plans import plain_clause, speaker_subject
from datagen.factbase import Fact
from datagen.types import TruthType

_UNITS = frozenset("year years month months week weeks decade decades day days".split())
_COUNTS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty a an".split()
)
# what the question cannot carry: a pronoun, a pointing or possessive word, a place word ("lived here")
_LEANING = frozenset("it this that these those here there them him her me us my our your his their".split())
_MAX_REST = 6


def duration_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, context: str = "") -> list[Fact]:
    """"How long has X been …?" facts of one parsed sentence (see the module docstring). context: the
    session's text, where a reply ("5 years already!") finds the question it answers."""
    if not speaker or text.rstrip().endswith("?"):
        return []
    out: list[Fact] = _answered(doc, doc_id, chunk_id, text, speaker, context)
    for verb in doc:
        if verb.tag_ not in ("VBN", "VBG") or not speaker_subject(verb) or not plain_clause(verb):
            continue
        auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
        if not any((a.lemma_ == "have" or a.lower_ in ("'ve", "’ve")) and a.tag_ in ("VBP", "VBZ") for a in auxes):
            continue  # the present perfect only: "I had been …", "I will have …" say no duration up to now
        if verb.tag_ == "VBG" and not any(a.lower_ == "been" for a in auxes):
            continue
        span = _duration(verb)
        if not span:
            continue
        rest = _rest(verb, span)
        if rest is None:
            continue
        been = any(c.dep_ in ("aux", "auxpass") and c.lower_ == "been" for c in verb.children)
        words = ["been"] if been else []  # "been working …", "been married"
        core = " ".join([*words, verb.lower_, *rest])
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"how long:{core}|{SHAPE}|{TruthType.OTHER.value}", answer=span.text,
            kind=TruthType.OTHER.value, ask=f"How long has {{s}} {core}?",
        ))
    return out


# "How long have you been married?" asked by the other speaker on the line before
_ASKED = re.compile(r"\bHow long have you ((?:been )?[a-z]+)((?: [\w'’-]+){0,5})\?", re.IGNORECASE)


def _answered(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, context: str) -> list[Fact]:
    """A reply that opens with a duration ("Melanie: 5 years already!") to the other speaker's "How long
    have you been married?" on the line just before: "How long has Melanie been married?" → "5 years"."""
    at = context.find(text)
    if at < 0 or not text.startswith(speaker + ":"):
        return []  # only the first sentence of a turn answers the line before
    before = context[:at].rstrip("\n").split("\n")[-1]
    if before.startswith(speaker + ":"):
        return []
    said = before.split(":", 1)[-1]  # the line's words after its speaker ("?" may be only in a name)
    m = _ASKED.search(said.split("?")[-2] + "?") if "?" in said else None
    if m is None:
        return []
    rest = m.group(2).split()
    if any(w.lower() in _LEANING or w.lower() in ("you", "your", "yours", "such") for w in rest):
        return []
    opening = [t for t in doc if t.i > 1][:3]  # the reply's first words, after "Name:"
    unit = next((t for t in opening if t.lower_ in _UNITS), None)
    count = next((c for c in unit.children if c.dep_ in ("nummod", "det") and (c.like_num or c.lower_ in _COUNTS)), None) if unit else None
    if unit is None or count is None or count.i != opening[0].i:
        return []
    core = " ".join([m.group(1).lower(), *(w.lower() for w in rest)])
    return [Fact(
        doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
        relation=f"how long:{core}|{SHAPE}|{TruthType.OTHER.value}", answer=doc[count.i : unit.i + 1].text,
        kind=TruthType.OTHER.value, ask=f"How long has {{s}} {core}?",
    )]


def _duration(verb: Any) -> Any:
    """The "for" phrase's object span when it counts a unit of time ("14 years", "over 10 years"),
    without "the past"/"the last"; None for a vague one."""
    # "for" hangs on the verb, or on its complement ("been | a dentist for the past 14 years")
    heads = [verb, *(c for c in verb.children if c.dep_ in ("attr", "dobj", "acomp"))]
    for prep in (c for h in heads for c in h.children if c.dep_ == "prep" and c.lower_ == "for"):
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None or obj.lower_ not in _UNITS:
            continue
        count = next((c for c in obj.children if c.dep_ in ("nummod", "det") and (c.like_num or c.lower_ in _COUNTS)), None)
        if count is None or any(c.lower_ in ("few", "several", "many", "couple") for c in obj.subtree):
            continue
        start = count.i
        for c in count.children:  # "over 10 years", "about 3 months"
            if c.dep_ in ("quantmod", "advmod") and c.i < start:
                start = c.i
        return obj.doc[start : obj.i + 1]
    return None


def _rest(verb: Any, span: Any) -> list[str] | None:
    """The words of the clause the question keeps: the verb's complements after it, without the
    duration's phrase ("been | a dentist", "working | with computer software"); None when they lean on
    a word the question cannot carry, or run long."""
    duration = {t.i for t in span.root.head.subtree}  # "for the past 14 years (already)"
    tokens = [
        t for c in verb.rights if c.dep_ in ("attr", "dobj", "acomp", "prep", "prt", "oprd")
        for t in c.subtree if t.i not in duration
    ]
    tokens.sort(key=lambda t: t.i)
    if any(t.lower_ in _LEANING or t.tag_ in ("PRP", "PRP$") for t in tokens) or len(tokens) > _MAX_REST:
        return None
    if tokens and tokens[-1].i >= span.start:
        return None  # a complement after the duration ("for 3 years in Ohio") is asked no better
    if not tokens and (verb.lemma_ in ("be", "have") or verb.dep_ in ("relcl", "acl") or verb.tag_ != "VBN" or not any(
        c.lower_ == "been" for c in verb.children
    )):
        return None  # "I've been for 3 years", "a business we've had for 11 years": been what, had what?
        # (bare, only a state: "been married", "been sober")
    return [t.text.lower() if t.pos_ != "PROPN" else t.text for t in tokens]
