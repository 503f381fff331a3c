"""What a chat's speaker asked the other for advice on, asked by the chat it was asked in: people talking
to a friend or to an assistant ask for tips, and conversation benchmarks ask what they sought ("What
did Jon ask Gina for advice on?"):

- "Got any advice or tips on running a successful biz?"  → "In the chat of 7 July 2023, what did Jon ask
  for advice on?" → "running a successful biz"
- "Can you give me some advice on how to relieve stress?" → … → "how to relieve stress"
- "Do you have any tips to help me maintain the habit of taking notes?" → … → "maintain the habit of
  taking notes"
- "I need some advice on training my puppy."               → … → "training my puppy"

Read from the parse: a noun of advice (advice, tip, suggestion, recommendation) that the speaker asks
for — in a question put to the other speaker ("Do you have…", "Can you give me…", "Got any…", "Any
advice on…?") or in "I need (some) advice on …" — and its topic: the words after "on/about/for" (or the
act after "to help me"), cut at a comma or a clause ("even when times are tough"), at most
`_MAX_WORDS`, none pointing at something said elsewhere ("on it", "for that", "for you"; the speaker's
own "my" is kept as said, as a plan keeps it). A negation or a question about advice given before
("What was your advice?") gives none.

The relation is the day ("advice:7 July 2023"): two different topics asked that day give no question
(`datagen.chat_facts.unique_chat_facts`); the verifier checks the supporting chat was written that day.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from datagen.chat_facts import SHAPE
from datagen.dates import format_date
from datagen.factbase import Fact
from datagen.types import TruthType
from datagen.verify import TOLD_OPENING

ADVICE = "advice"
_ADVICE_NOUNS = frozenset("advice tip tips suggestion suggestions recommendation recommendations".split())
# the verbs a request for advice is put with: "Do you have…", "Can you give me…", "Got any…", "I need…"
_ASKING = frozenset("have got get give share need".split())
_TOPIC_PREPS = frozenset("on about for".split())
_POINTING = frozenset(
    "it its this that these those me you your yours he him his she her they them their we us our "
    "there here something anything everything one else".split()
)
_STOPS = frozenset("but so because though although while when if unless then even or".split())
_MAX_WORDS = 8


def advice_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, day: dt.date | None) -> list[Fact]:
    """What the speaker asked the other for advice on in one parsed sentence (see the module docstring)."""
    if not speaker or day is None:
        return []
    out: list[Fact] = []
    asked = text.rstrip().endswith("?")
    for noun in doc:
        if noun.lower_ not in _ADVICE_NOUNS or not _requested(noun, asked):
            continue
        topic = _topic(noun)
        told = format_date(day)
        if topic:
            answer, ask = topic, f"{TOLD_OPENING}{told}, what did {{s}} ask for advice on?"
        else:
            # advice asked on a topic not read is still a second topic of that day
            has_topic = any(c.dep_ == "prep" and c.lower_ in _TOPIC_PREPS for c in noun.children)
            if not has_topic:
                continue  # "Do you have any suggestions?": asks nothing of its own
            answer, ask = "\x00" + noun.lower_ + str(noun.i), ""
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"{ADVICE}:{told}|{SHAPE}|{TruthType.OTHER.value}", answer=answer,
            kind=TruthType.OTHER.value, ask=ask,
        ))
    return out


def _requested(noun: Any, asked: bool) -> bool:
    """Whether the advice is what the speaker asks for: the question's object or its whole ("Any advice on
    X?"), with "you" (or no one) as the asker's addressee; or "I need advice" said plainly."""
    if any(c.dep_ == "neg" for node in (noun, *noun.ancestors) for c in node.children):
        return False
    if noun.dep_ == "ROOT" or (noun.dep_ in ("appos", "dep") and _turn_name(noun.head)):
        return asked  # "Any advice on staying motivated?" ("Jon: Any advice…" hangs it on the name)
    if noun.dep_ not in ("dobj", "conj"):
        return False
    verb = noun.head if noun.dep_ == "dobj" else noun.head.head
    if verb.lemma_.lower() not in _ASKING or any(c.dep_ == "mark" for c in verb.children):
        return False
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") and not _turn_name(c)), None)
    if asked:  # "Do you need advice on anything?" offers advice, it asks for none
        return verb.lemma_.lower() != "need" and (subject is None or subject.lower_ == "you")
    return verb.lemma_.lower() == "need" and subject is not None and subject.lower_ == "i"


def _turn_name(token: Any) -> bool:
    """The turn's "Maria:" the parser may read as the sentence's subject ("Maria: Got any tips…")."""
    doc = token.doc
    return token.i + 1 < len(doc) and doc[token.i + 1].text == ":"


def _topic(noun: Any) -> str:
    """The words the advice is on ("on staying motivated", "to help me maintain the habit"), or ""."""
    doc = noun.doc
    start = None
    prep = next((c for c in noun.children if c.dep_ == "prep" and c.lower_ in _TOPIC_PREPS), None)
    if prep is None and noun.dep_ == "conj":
        # "any advice or tips on running a biz": the topic hangs on the last of the coordinated nouns
        prep = next((c for c in noun.head.children if c.dep_ == "prep" and c.lower_ in _TOPIC_PREPS), None)
    if prep is not None:
        start = prep.i + 1
    else:
        helper = next((c for c in noun.children if c.dep_ in ("acl", "relcl") and c.lemma_.lower() == "help"), None)
        if helper is not None and any(c.lower_ == "me" for c in helper.children):
            act = next((c for c in helper.children if c.dep_ in ("xcomp", "ccomp") and c.tag_ == "VB"), None)
            start = act.i if act is not None else None
    if start is None:
        return ""
    words = []
    for t in doc[start:]:
        if (t.is_punct and t.text not in ("'", "’", "-")) or t.lower_ in _STOPS:
            break
        words.append(t)
    while words and words[-1].lower_ in ("and", "or", "the", "a", "an"):
        words = words[:-1]
    if not words or len(words) > _MAX_WORDS:
        return ""
    if any(w.lower_ in _POINTING or (w.tag_ in ("PRP", "PRP$", "WDT", "WP") and w.lower_ not in ("my", "i"))
           for w in words):
        return ""
    if any(w.lower_ == "i" for w in words):
        return ""  # "ways I can relax": the question would have to say "they"
    if not any(w.pos_ in ("NOUN", "PROPN", "VERB") for w in words):
        return ""
    return "".join(w.text_with_ws for w in words).strip()
