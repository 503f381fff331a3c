"""What a chat's speaker said they were planning to do, asked by the chat it was told in: conversation
benchmarks ask plans as plans ("What did Maria plan to do later on the evening of 7 July, 2023?" →
"have dinner with friends from the gym"), answered by the plan's own words:

- "I'm planning to take a walk in the nearby park"  → "In the chat of 7 July 2023, what was Maria
  planning to do?" → "take a walk in the nearby park"
- "I am going to explore a cave on easter"            → "In the chat of 2 April 2022, what was Kim
  planning to do?" → "explore a cave on easter"

datagen.chat_plans asks a plan's object with no date ("What was Gina hoping to open?"); here the whole
act is the answer, so the chat it was told in is what makes the question one: a plan is read only from
"I'm planning to/on", "I plan to", "I'm going to", "I'm gonna" with the speaker's own "I", no negation,
modal, condition or guess (datagen.chat_plans.plain_clause: "if I plan to…", "I might be going to…";
"maybe", "probably"), and never from a wish or a hope ("I want to", "I hope to": those are no plan). The act is the
sentence's words from the verb to the end of its clause (cut at a comma, "and I", "but", "so", "because";
"go for a walk and buy some new books" is one plan, said whole),
at most `_MAX_WORDS` words, none pointing at something said elsewhere ("do it", "show you", "his
paintings": whose?; the speaker's own "my" is kept as said, "visit my parents"), and not a phrase that names no act ("keep going", "make it", "have to go", "try").
The relation is the day ("plan-do:7 July 2023"): two different plans told that day give no question
(`datagen.chat_facts.unique_chat_facts`); the verifier checks the supporting chat was written that day.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from datagen.chat_facts import SHAPE
from datagen.chat_plans import plain_clause
from datagen.dates import format_date
from datagen.factbase import Fact
from datagen.types import TruthType
from datagen.verify import TOLD_OPENING

DAY_PLAN = "plan-do"
# acts that say no plan of their own ("keep going", "make it", "try it", "have to …", "be there")
_LIGHT = frozenset("be keep make try have do get let say tell see stop start continue give come".split())
_POINTING = frozenset(
    "it its this that these those me my mine you your yours he him his she her they them their we us our "
    "there here something anything everything one".split()
)
# The speaker's own: the answer is the plan as the speaker said it ("visit my parents"), whose "my" is the
# asked person's and needs no guess
_OWN = frozenset("my mine".split())
_STOPS = frozenset("but so because though although while when if unless then".split())
_AND = frozenset("and or".split())
_HEDGES = frozenset("maybe perhaps probably possibly hopefully likely".split())
_MAX_WORDS = 12


def day_plan_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, day: dt.date | None) -> list[Fact]:
    """The speaker's stated plan in one parsed sentence, asked by its chat's day (see the module docstring)."""
    if not speaker or day is None or text.rstrip().endswith("?"):
        return []
    out: list[Fact] = []
    for head in doc:
        act = _planned_act(head)
        if act is None:
            continue
        words = _act_words(act)
        told = format_date(day)
        if not words:
            # still a plan of that day: a second answer, so a question whose act was read is not asked
            # while another plan of the day was said in words not read
            answer, ask = "\x00" + act.lower_, ""
        else:
            answer = "".join(w.text_with_ws for w in words).strip()
            ask = f"{TOLD_OPENING}{told}, what was {{s}} planning to do?"
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"{DAY_PLAN}:{told}|{SHAPE}|{TruthType.OTHER.value}", answer=answer,
            kind=TruthType.OTHER.value, ask=ask,
        ))
    return out


def _planned_act(head: Any) -> Any:
    """The act "I'm planning to X" / "I'm going to X" / "I'm gonna X" / "I plan to X" governs, or None."""
    low, lemma = head.lower_, head.lemma_.lower()
    progressive = any(c.dep_ == "aux" and c.lower_ in ("am", "'m", "’m", "m") for c in head.children)
    if lemma == "plan" and head.tag_ in ("VBG", "VBP"):
        if head.tag_ == "VBG" and not progressive:
            return None
    elif low == "going" and progressive:
        pass
    elif low in ("gon", "gonna") and progressive:
        pass
    else:
        return None
    if not _i_subject(head) or not plain_clause(head) or _hedged(head):
        return None
    for c in head.children:
        if c.dep_ == "xcomp" and c.tag_ == "VB":
            return c
        if c.dep_ == "prep" and c.lower_ == "on" and lemma == "plan":  # "planning on visiting X"
            return next((g for g in c.children if g.dep_ == "pcomp" and g.tag_ == "VBG"), None)
    return None


def _hedged(head: Any) -> bool:
    """ "Maybe I'm going to…", "I'm probably gonna…": a guess, no plan."""
    return any(c.dep_ == "advmod" and c.lower_ in _HEDGES for node in (head, *head.ancestors) for c in node.children)


def _i_subject(head: Any) -> bool:
    doc = head.doc
    return any(c.dep_ == "nsubj" and c.lower_ == "i" and not (c.i + 1 < len(doc) and doc[c.i + 1].text == ":")
               for c in head.children)


def _act_words(act: Any) -> list[Any]:
    """The act's words to the end of its clause, or [] where they name no plan one could check."""
    light = act.lemma_.lower() in _LIGHT and not (
        act.lemma_.lower() == "have" and any(c.dep_ == "dobj" and c.pos_ == "NOUN" for c in act.children))
    if light or any(c.dep_ == "neg" for c in act.children):
        return []  # "have dinner with friends" is a plan; "have to go", "have it" are none
    words = []
    doc = act.doc
    for t in doc[act.i : act.right_edge.i + 1]:
        if (t.is_punct and t.text not in ("'", "’", "-")) or (t.lower_ in _STOPS and t.i > act.i):
            break
        if t.lower_ == "to" and t.dep_ == "aux" and t.i > act.i + 1 and words:
            break  # "visit other museums to experience more culture": the plan, not its purpose
        if t.lower_ in _AND and t.i + 1 < len(doc) and doc[t.i + 1].tag_ in ("PRP", "EX"):
            break  # "…, and I want to bring my camera": another clause; "go for a walk and buy books" is one plan
        words.append(t)
    if not words or len(words) > _MAX_WORDS or len(words) < 2:
        return []  # "I'm going to relax": one word is no plan one could tell from another
    if any(w.lower_ not in _OWN and (w.lower_ in _POINTING or w.tag_ in ("PRP", "PRP$")) for w in words):
        return []
    return words
