"""Who gave a chat's or a mail's speaker a thing, when the speaker names the giver: a relative ("my
grandma") or a person by name. Conversation benchmarks ask it ("What was grandma's gift to Caroline?",
"Who gave Caroline the necklace?"); read as:

- "My grandma gave me this necklace when I was young" → "Who gave Caroline the necklace?" → "grandma"
- "This necklace is a gift from my grandma"           → the same question and answer (a second positive)

The thing is the object's head noun ("this old necklace" → "necklace"); the giver is the kin word the
speaker used (datagen.chat_facts.KIN) or a name the parse tags a person. Not read from a question, a
negation, a modal or a condition, nor when the giver or the thing is a list or a pronoun ("my parents
gave me everything"). The relation is the thing ("gift:necklace"), with the chat facts' shape
(datagen.chat_facts.SHAPE), so `unique_chat_facts` keeps it only when the whole corpus names one giver of
that person's necklace; every turn that states it is a positive of its task.
"""

from __future__ import annotations

from typing import Any

from datagen.chat_facts import KIN, SHAPE
from datagen.chat_plans import VAGUE, plain_clause
from datagen.factbase import Fact
from datagen.types import TruthType

_ME = frozenset({"me", "us"})


def gift_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str) -> list[Fact]:
    """Who gave the speaker what, from one parsed sentence (see the module docstring)."""
    if not speaker or text.rstrip().endswith("?"):
        return []
    out: list[Fact] = []
    for tok in doc:
        giver = thing = None
        if tok.lemma_ == "give" and tok.pos_ == "VERB" and tok.tag_ in ("VBD", "VBN"):
            # "My grandma gave me this necklace": the giver is the subject, the speaker the dative
            if not any(c.dep_ == "dative" and c.lower_ in _ME for c in tok.children):
                continue
            giver = next((c for c in tok.children if c.dep_ == "nsubj"), None)
            thing = next((c for c in tok.children if c.dep_ == "dobj"), None)
            clause = tok
        elif tok.lower_ == "gift" and tok.dep_ == "attr" and tok.head.lemma_ == "be":
            # "This necklace is a gift from my grandma"
            prep = next((c for c in tok.children if c.dep_ == "prep" and c.lower_ == "from"), None)
            giver = next((g for g in prep.children if g.dep_ == "pobj"), None) if prep is not None else None
            thing = next((c for c in tok.head.children if c.dep_ == "nsubj"), None)
            clause = tok.head
        else:
            continue
        if giver is None or thing is None or not plain_clause(clause):
            continue
        if thing.pos_ != "NOUN" or thing.lower_ in VAGUE:
            continue
        who = _giver(giver)
        several = any(c.dep_ == "conj" for c in (*giver.children, *thing.children))
        # "My friends gave me a book": no question, but a witness that the book has another giver
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"gift:{thing.lemma_.lower()}|{SHAPE}|{TruthType.PERSON.value}",
            answer=who if who and not several else "\x00" + giver.text, kind=TruthType.PERSON.value,
            ask=f"Who gave {{s}} the {thing.lower_}?" if who and not several else "",
        ))
    return out


def _giver(token: Any) -> str:
    """"grandma" for "my grandma", "Jean" for a person's name; "" for anyone else ("a friend", "they")."""
    if token.lower_ in KIN and any(c.dep_ == "poss" and c.lower_ in ("my", "our") for c in token.children):
        return token.text
    if token.ent_type_ == "PERSON" and token.pos_ == "PROPN":
        # the whole name: "Russell Diamond has given me …" → "Russell Diamond", not its head "Diamond"
        first = min([token, *(c for c in token.children if c.dep_ == "compound" and c.pos_ == "PROPN")], key=lambda t: t.i)
        return token.doc[first.i : token.i + 1].text
    return ""
