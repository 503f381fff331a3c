"""What a chat's or a mail's speaker says they plan, want, hope or consider doing to a thing: the intentions
conversation benchmarks ask about ("How does John plan to honor the memories of his beloved pet?" → "by
adopting a rescue dog"), read as plainly as a person asks them:

- "We're considering adopting a rescue dog"            → "What was John considering adopting?" → "rescue dog"
- "I wanna start a dance studio so I can teach others"  → "What did Jon want to start?"         → "dance studio"
- "I'm hoping to open my own yoga studio next year"     → "What was Gina hoping to open?"       → "yoga studio"
- "I'm thinking of opening a bakery"                    → "What was Maria thinking of opening?" → "bakery"

Read from the parse: a head verb of intention (plan, want/wanna, hope, aim, intend, decide, consider,
think of, dream of) whose subject is the speaker ("I", or "we": their household), its act (the verb it
governs, with its particle: "set up") and the act's direct object, cut to the noun phrase before any
preposition or clause. Nothing is read from a question, a negation, a condition or a modal ("I might
want to…"), from a light act ("want to have fun", "hope to make it") or from an object that is a
pronoun or a list ("start a blog and a shop": which one?).

The relation is the act, not the head ("plan:open"): "I want to open a bakery" and later "I'm planning
to open a café" give the person two answers, so neither is asked. Facts carry the chat facts' shape
(datagen.chat_facts.SHAPE), so `unique_chat_facts` keeps one only when the whole corpus gives that person
and act one answer; every turn that states it shares the fact key and is a positive of the task.
"""

from __future__ import annotations

from typing import Any

from datagen.chat_facts import SHAPE
from datagen.factbase import Fact
from datagen.types import TruthType

# head verb lemma (or its chat spelling) → the question's frame: "{s}" the person, "{v}" the act
_TO_HEADS = {  # an act said with "to": "planning to open X"
    "plan": "What was {s} planning to {v}?",
    "want": "What did {s} want to {v}?",
    "wanna": "What did {s} want to {v}?",
    "hope": "What was {s} hoping to {v}?",
    "aim": "What was {s} aiming to {v}?",
    "intend": "What did {s} intend to {v}?",
    "decide": "What did {s} decide to {v}?",
}
_ING_HEADS = {  # an act said with "-ing": "considering adopting X", "thinking of opening X"
    "consider": "What was {s} considering {v}?",
    "think": "What was {s} thinking of {v}?",
    "dream": "What did {s} dream of {v}?",
    "plan": "What was {s} planning on {v}?",
}
# Acts that name no deed of their own ("want to have fun", "hope to make it", "decided to give it a go").
_LIGHT_ACTS = frozenset(
    "be have get take make do try see give keep find feel go come let put say tell talk ask know think "
    "show use need want like love help stay hear share check chat catch learn turn bring spend".split()
)
_OWN = frozenset("a an the my our your his her their own".split())
# Heads that, alone, name no thing: "a place for people to dance", "a difference", "the world".
VAGUE = frozenset(
    "place way time difference impact change progress sense point part future world life people space spot "
    "something anything everything lot bit kind sort ways ideas help support opportunities inspiration job jobs while".split()
)
_MAX_WORDS = 5


def plan_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str) -> list[Fact]:
    """The speaker's stated intentions in one parsed sentence (see the module docstring)."""
    if not speaker or text.rstrip().endswith("?"):
        return []
    out: list[Fact] = []
    for head in doc:
        lemma = _head_lemma(head)
        if lemma not in _TO_HEADS and lemma not in _ING_HEADS:
            continue
        if not statement_subject(head) or any(c.dep_ in ("dobj", "ccomp") for c in head.children):
            continue  # "I want 'em to feel…": another's act
        act, frame = _act(head, lemma)
        if act is None:
            continue
        particle = next((c.text.lower() for c in act.children if c.dep_ == "prt"), "")
        if act.lemma_.lower() in _LIGHT_ACTS or any(c.dep_ == "neg" for c in act.children):
            continue
        if any(c.dep_ in ("prep", "dative") and c.lower_ in ("into", "to") for c in act.children):
            continue  # "turn my passion into a business": the object alone is not what is planned
        obj = next((c for c in act.children if c.dep_ == "dobj"), None)
        if obj is None or obj.pos_ not in ("NOUN", "PROPN") or obj.tag_ == "PRP":
            continue
        if any(c.dep_ == "prep" and c.lower_ in ("for", "of") for c in obj.children):
            continue  # "blend my love for dance", "create a place for people to dance": the head alone says nothing
        answer = object_phrase(obj)
        verb = act.text.lower() if act.tag_ == "VBG" else act.lemma_.lower()
        verb = f"{verb} {particle}" if particle else verb
        several = any(c.dep_ == "conj" for c in obj.children)  # "a blog and a shop": a list asks no one thing
        ask = "" if several or not answer else frame.replace("{v}", verb)
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"plan:{act.lemma_.lower()}{' ' + particle if particle else ''}|{SHAPE}|{TruthType.OTHER.value}",
            answer=answer or ("\x00" + obj.text), kind=TruthType.OTHER.value, ask=ask,
        ))
    return out


def _head_lemma(token: Any) -> str:
    low = token.lower_
    if low in ("wanna", "hoping", "hope", "hoped", "hopes"):  # the tagger lemmatises "hoping" as "hop"
        return "wanna" if low == "wanna" else "hope"
    return token.lemma_.lower() if token.pos_ in ("VERB", "AUX") else ""


def statement_subject(head: Any) -> bool:
    """The speaker's own plain statement: subject I/we, no negation, modal or condition on the head or
    the clauses above it ("if I want to…", "I might want to…", "I don't plan to…")."""
    return speaker_subject(head) and plain_clause(head)


def speaker_subject(verb: Any) -> bool:
    """Whether the verb's subject is "I" or "we", found up a chain of verbs that share it ("I'm wrapping
    up the plan and looking for investors", "I just started volunteering at a dog shelter")."""
    subject = _subject_of(verb)
    while subject is None and verb.dep_ in ("conj", "xcomp"):
        verb = verb.head
        subject = _subject_of(verb)
    return subject is not None and subject.lower_ in ("i", "we")


def _subject_of(verb: Any) -> Any:
    """The verb's subject; the parse may hang a turn's "Robin:" on the verb as one, which is no subject."""
    doc = verb.doc
    return next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")
                 and not (c.i + 1 < len(doc) and doc[c.i + 1].text == ":")), None)


def plain_clause(head: Any) -> bool:
    """No negation, modal or condition on the clause or the clauses above it."""
    for node in (head, *head.ancestors):
        for c in node.children:
            if c.dep_ == "neg" or (c.dep_ == "aux" and c.lower_ in ("might", "may", "could", "would", "should")):
                return False
            if c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether"):
                return False
        if node.dep_ == "ccomp" and node.i < node.head.i and any(t.text == "," for t in node.doc[node.i : node.head.i]):
            # "I live in a condo, so it's not ideal for BBQ": the parser hangs a whole first clause under
            # the second; what the second denies is not the first's
            break
    return True


def _act(head: Any, lemma: str) -> tuple[Any, str]:
    """The act the head governs and the question's frame, or (None, "")."""
    for c in head.children:
        if c.dep_ == "xcomp" and c.tag_ == "VB" and lemma in _TO_HEADS:
            if any(a.dep_ == "aux" and a.lower_ == "to" for a in c.children) or lemma == "wanna":
                return c, _TO_HEADS[lemma]
        if c.dep_ == "xcomp" and c.tag_ == "VBG" and lemma == "consider":
            return c, _ING_HEADS[lemma]
        if c.dep_ == "prep" and c.lower_ in ("of", "about", "on") and lemma in _ING_HEADS:
            act = next((g for g in c.children if g.dep_ == "pcomp" and g.tag_ == "VBG"), None)
            if act is not None and (lemma != "plan" or c.lower_ == "on"):
                return act, _ING_HEADS[lemma]
    return None, ""


def object_phrase(obj: Any, own: frozenset[str] = _OWN, max_words: int = _MAX_WORDS) -> str:
    """The object's noun phrase up to its head, without the leading words in `own` (article, possessive,
    "own": "my own yoga studio" → "yoga studio"), or "" when it is longer than `max_words`, leans on a
    pronoun or is a vague head alone."""
    words = list(obj.doc[obj.left_edge.i : obj.i + 1])
    while words and words[0].lower_ in own:
        words = words[1:]
    if not words or len(words) > max_words or any(t.tag_ in ("PRP", "PRP$", "WDT", "WP") for t in words):
        return ""
    if len(words) == 1 and words[0].lower_ in VAGUE:
        return ""  # "create a place for people to dance": the head alone names nothing one could look up
    text = "".join(t.text_with_ws for t in words).strip()
    return text if any(ch.isalpha() for ch in text) else ""
