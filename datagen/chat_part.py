"""What a chat's or a mail's speaker took part in, said with a preposition rather than an object: the
events, classes and places conversation benchmarks ask about ("What did Maria participate in last
weekend?" → "a 5K charity run"; "What event did John participate in to show support for veterans'
rights?" → "marching event"):

- "I participated in a 5K charity run for a homeless shelter" → "What did Maria participate in?" → "5K charity run"
- "I signed up for a pottery class"                          → "What did Melanie sign up for?"  → "pottery class"
- "I volunteered at a local dog shelter"                     → "Where did Maria volunteer?"     → "local dog shelter"
- "I just got accepted for a fashion internship!"            → "What did Gina get accepted for?" → "fashion internship"
- "I moved from Sweden 4 years ago" → "Where did Caroline move from?"; "I'm allergic to cats" → "What is Jon allergic to?"

Read from the parse: a verb of taking part (`_FRAMES`) whose subject is the speaker ("I", or "we"), in a
statement (past, perfect or progressive; no question, negation, modal or condition), and the object of
its preposition, cut to the noun phrase up to its head without its article or possessive. A list ("a
race and a bake sale"), a pronoun or a person is no answer.

The relation is the verb and its preposition ("participate in"); facts carry the chat facts' shape
(datagen.chat_facts.SHAPE), so `unique_chat_facts` keeps one only when the whole corpus gives that
person and relation one answer (Maria volunteering at two shelters asks neither), and every turn that
states it is a positive of its task (same fact key).
"""

from __future__ import annotations

from typing import Any

from datagen.chat_facts import SHAPE
from datagen.chat_plans import object_phrase, plain_clause, speaker_subject
from datagen.factbase import Fact
from datagen.types import TruthType

# (verb lemma, particle or "", preposition) → question; "{s}" is the person
_FRAMES = {
    ("participate", "", "in"): "What did {s} participate in?",
    ("take", "", "part in"): "What did {s} take part in?",
    ("compete", "", "in"): "What did {s} compete in?",
    ("enroll", "", "in"): "What did {s} enroll in?",
    ("enrol", "", "in"): "What did {s} enrol in?",
    ("sign", "up", "for"): "What did {s} sign up for?",
    ("volunteer", "", "at"): "Where did {s} volunteer?",
    ("perform", "", "at"): "Where did {s} perform?",
    ("audition", "", "for"): "What did {s} audition for?",
    ("graduate", "", "from"): "Where did {s} graduate from?",
    ("speak", "", "at"): "Where did {s} speak?",
    ("work", "", "on"): "What was {s} working on?",
    ("major", "", "in"): "What did {s} major in?",
    ("move", "", "to"): "Where did {s} move to?",
    ("move", "", "from"): "Where did {s} move from?",
    ("allergic", "", "to"): "What is {s} allergic to?",
    ("promote", "", "to"): "What was {s} promoted to?",
    ("train", "", "for"): "What was {s} training for?",
    ("save", "up", "for"): "What was {s} saving up for?",
    ("save", "", "for"): "What was {s} saving for?",
    ("prepare", "", "for"): "What was {s} preparing for?",
    ("look", "", "for"): "What was {s} looking for?",
    ("apply", "", "for"): "What did {s} apply for?",
    ("apply", "", "to"): "What did {s} apply to?",
    # said in the passive: "I just got accepted for a fashion internship", "we were invited to a gala"
    ("accept", "", "for"): "What did {s} get accepted for?",
    ("accept", "", "into"): "What did {s} get accepted into?",
    ("accept", "", "to"): "What did {s} get accepted to?",
    ("invite", "", "to"): "What was {s} invited to?",
    ("select", "", "for"): "What was {s} selected for?",
    ("nominate", "", "for"): "What was {s} nominated for?",
}
# Frames read only in the passive ("I got accepted…"), and those whose object must say which one it is
# ("working on the business plan", not "working on myself" or "working on my business").
_PASSIVE = frozenset({"accept", "invite", "select", "nominate", "promote"})
_PLACES = frozenset({"move"})  # "moved to a new flat" is no place one looks up: only a named place
_TWO_WORDS = frozenset({"work"})
_OWN = frozenset("a an the my our your his her their own this that".split())  # chat_plans' words, and "this"/"that"
_MAX_WORDS = 6


def part_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str) -> list[Fact]:
    """What the speaker took part in, from one parsed sentence (see the module docstring)."""
    if not speaker or text.rstrip().endswith("?"):
        return []
    out: list[Fact] = []
    for verb in doc:
        clause = verb
        if verb.lower_ == "allergic" and verb.dep_ == "acomp":  # "I'm allergic to cats": the adjective's subject
            clause = verb.head
        elif verb.pos_ != "VERB" or verb.tag_ not in ("VBD", "VBN", "VBG", "VBP"):
            continue
        if not speaker_subject(clause):
            continue
        # a negated, hedged or habitual mention ("I volunteer at X", others being plans) asks nothing, but
        # still tells the relation has that answer (a witness)
        plain = plain_clause(clause) and (verb.tag_ != "VBP" or verb.lemma_.lower() == "volunteer")
        particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), "")
        if plain:
            out.extend(_class_taken(verb, doc_id, chunk_id, text, speaker))
        for prep in verb.children:
            if prep.dep_ != "prep":
                continue
            key = (verb.lemma_.lower(), particle, prep.lower_)
            pobj = next((g for g in prep.children if g.dep_ == "pobj"), None)
            if key[0] == "take" and prep.lower_ == "in":  # "took part in": the noun "part" is the object
                if not any(c.dep_ == "dobj" and c.lower_ == "part" for c in verb.children):
                    continue
                key = ("take", "", "part in")
            if key not in _FRAMES or pobj is None or pobj.pos_ not in ("NOUN", "PROPN") or pobj.ent_type_ in ("DATE", "TIME", "PERSON"):
                continue
            # "looking into some jobs for a while": the "for" may not be the frame's (a witness only)
            plain_here = plain and sum(c.dep_ in ("prep", "prt") for c in verb.children) <= 1 + bool(particle)
            passive = any(c.dep_ in ("nsubjpass", "auxpass") for c in verb.children)
            if passive != (key[0] in _PASSIVE):
                continue  # "I accepted for…" or "a class I was signed up for": not the frame's voice
            answer = object_phrase(pobj, _OWN, _MAX_WORDS)
            if key[0] in _TWO_WORDS and len(answer.split()) < 2:
                answer = ""
            if key[0] in _PLACES and pobj.ent_type_ not in ("GPE", "LOC"):
                continue
            after = pobj.doc[pobj.i + 1] if pobj.i + 1 < len(pobj.doc) else None
            if (after is not None and after.pos_ in ("NOUN", "PROPN", "VERB") and after.dep_ != "npadvmod"
                    and after.ent_type_ not in ("DATE", "TIME")):
                answer = ""  # "a 5K charity run" parsed with "run" as a verb: the phrase is cut, not asked
            several = any(c.dep_ == "conj" for c in pobj.children)
            ask = "" if several or not answer or not plain_here else _FRAMES[key]
            out.append(Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
                relation=f"{' '.join(w for w in key if w)}|{SHAPE}|{TruthType.OTHER.value}",
                answer=answer or ("\x00" + pobj.text), kind=TruthType.OTHER.value, ask=ask,
            ))
    return out


_CLASSES = frozenset("class course workshop lesson seminar".split())


def _class_taken(verb: Any, doc_id: str, chunk_id: str, text: str, speaker: str) -> list[Fact]:
    """"I took a creative writing class" → "What class did Maria take?" ("take" is a light verb elsewhere;
    with a class, a course or a workshop it names what one took part in). A bare "a class" says which
    one nowhere: not asked."""
    if verb.lemma_.lower() != "take" or verb.tag_ not in ("VBD", "VBN", "VBG"):
        return []
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None or obj.lemma_.lower() not in _CLASSES:
        return []
    noun = obj.lemma_.lower()
    answer = object_phrase(obj, _OWN, _MAX_WORDS)
    if obj.tag_ == "NNS":  # "some online classes" → "What classes was Harper taking?" → "online classes"
        noun = obj.lower_
        answer = " ".join(w for w in answer.split() if w.lower() not in ("some", "few", "couple", "of"))
    several = any(c.dep_ == "conj" for c in obj.children)
    ask = "" if several or len(answer.split()) < 2 else (
        f"What {noun} was {{s}} taking?" if verb.tag_ == "VBG" else f"What {noun} did {{s}} take?")
    return [Fact(
        doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
        relation=f"take {noun}|{SHAPE}|{TruthType.OTHER.value}", answer=answer or ("\x00" + obj.text),
        kind=TruthType.OTHER.value, ask=ask,
    )]

