"""The name of a thing a chat's speaker did something with, where the speaker gives it: "I watched a great
movie called "The Shawshank Redemption"" → "What movie did John watch?" → "The Shawshank Redemption";
"Today I learned a new dish called "Hui Guo Rou"" → "What dish did John learn?"; "I'm currently reading
a novel about love called "Silent Separation"" → "What novel was Emily reading?".

People tell their chats what they read, watched, cooked or visited by name ("a book called …", "a
song named …"), and a conversation benchmark asks for the name ("What is the name of the book Caroline
read?"). datagen.activity_facts reads the object of such a verb and asks for its own words ("What did
John watch?" → "a great movie"), which names no film; datagen.chat_facts names people and pets. This
reader takes the name after "called", "named" or "titled" (quoted, or capitalised words) on the direct
object of the speaker's own verb (subject "I", or "we": "We saw an art film called …"), in a plain clause (no question, negation, modal or
condition), past tense, "have" + participle or "am …-ing". Not read: a person or an animal (a friend
called Jo, a dog named Max: datagen.chat_facts), "have" and "be" (no act), a name of more than eight
words. The relation (verb and noun: "named:watch:movie") has the chat facts' shape, so
`chat_facts.unique_chat_facts` keeps it only when the whole corpus gives that person one such name.
"""

from __future__ import annotations

import re
from typing import Any

from datagen.chat_facts import KIN, SHAPE
from datagen.chat_plans import plain_clause
from datagen.chat_sessions import gerund
from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.types import TruthType

NAMED = "named"  # the relation key's head: "named:watch:movie|said|other"
_NAMING = frozenset({"called", "named", "titled", "entitled"})
_NO_ACT = frozenset({"have", "be", "get", "call", "name", "meet", "know", "like", "love", "hate"})
# nouns whose name is a person's or a pet's (read elsewhere) or no thing's
_LIVING = frozenset(
    "friend friends guy girl boy man woman lady person people teacher coach colleague coworker neighbor neighbour "
    "dog cat puppy kitten pet bird fish horse hamster rabbit bunny turtle snake parrot band singer artist "
    "author writer character actor actress player team".split()
) | frozenset(KIN)
_QUOTES = {'"': '"', "“": "”", "'": "'", "‘": "’"}
_JOINERS = frozenset("of the and in on a an to for with at from".split())
_MAX_NAME_WORDS = 8


def named_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str) -> list[Fact]:
    """The named things of one parsed sentence (see the module docstring)."""
    if not speaker or text.rstrip().endswith("?"):
        return []
    out: list[Fact] = []
    for tok in doc:
        if tok.lower_ not in _NAMING or tok.dep_ not in ("acl", "relcl", "amod") or tok.head.pos_ != "NOUN":
            continue
        thing = tok.head
        if thing.dep_ == "pobj" and thing.head.dep_ == "prep" and thing.head.head.dep_ == "dobj":
            thing = thing.head.head  # "a novel about love called X": the parse hangs the name on "love"
        verb = thing.head
        if thing.dep_ != "dobj" or verb.pos_ != "VERB" or verb.lemma_.lower() in _NO_ACT or thing.lower_ in _LIVING:
            continue
        if not _by_speaker(verb) or not plain_clause(verb):
            continue
        frame = _frame(verb)
        name = _name_after(doc, tok)
        if not frame or not name:
            continue
        noun = " ".join([*(c.lower_ for c in thing.children if c.dep_ == "compound" and c.i < thing.i), thing.lower_])
        lemma = verb.lemma_.lower()
        ask = (f"What {noun} was {{s}} {gerund(lemma)}?" if frame == "ing" else f"What {noun} did {{s}} {lemma}?")
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"{NAMED}:{lemma}:{thing.lemma_.lower()}|{SHAPE}|{TruthType.OTHER.value}",
            answer=name, kind=TruthType.OTHER.value, ask=ask,
        ))
    out.extend(_quoted_reads(doc, doc_id, chunk_id, text, speaker))
    return out


def _quoted_reads(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str) -> list[Fact]:
    """ "I'm currently reading "The Lean Startup"" → "What book was Jon reading?" → "The Lean Startup": a
    title in quotes read by the speaker names a book though no "a book called" says so (a film or a song
    one watched or heard could be a show or an album: not asked)."""
    out = []
    for obj in doc:
        verb = obj.head
        if obj.dep_ != "dobj" or verb.lemma_.lower() != "read" or not _by_speaker(verb) or not plain_clause(verb):
            continue
        start, end = obj.left_edge.i, obj.right_edge.i  # the parse hangs the quotes on the title
        if end - start < 2 or _QUOTES.get(doc[start].text) != doc[end].text:
            continue  # only the whole object in quotes: "reading "Dune" with my son" names the book alone
        frame = _frame(verb)
        words = doc[start + 1 : end].text.strip(" ,.!;:").split()
        if not frame or not words or len(words) > _MAX_NAME_WORDS or any(w.lower() in ("i", "my", "me") for w in words):
            continue
        ask = "What book was {s} reading?" if frame == "ing" else "What book did {s} read?"
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"{NAMED}:read:book|{SHAPE}|{TruthType.OTHER.value}", answer=" ".join(words),
            kind=TruthType.OTHER.value, ask=ask,
        ))
    return out


def _by_speaker(verb: Any) -> bool:
    """Whether "I" (or "we", the speaker among them) does the verb, itself or as the second verb of
    "I went to the cinema and watched …"."""
    for node in (verb, verb.head if verb.dep_ == "conj" else None):
        subjects = [c for c in node.children if c.dep_ == "nsubj"] if node is not None else []
        if subjects:
            return subjects[0].lower_ in ("i", "we")
    return False


def _frame(verb: Any) -> str:
    """"did" for a past act ("I watched", "I've read"), "ing" for one going on ("I'm reading"), "" else."""
    aux = {c.lower_ for c in verb.children if c.dep_ in ("aux", "auxpass")}
    if verb.dep_ == "conj" and verb.tag_ == "VBD" and verb.head.tag_ == "VBD":
        return "did"
    if verb.tag_ == "VBD" and not aux:
        return "did"
    if verb.tag_ == "VBN" and aux & {"have", "'ve", "’ve", "has", "had"}:
        return "did"
    if verb.tag_ == "VBG" and aux & {"am", "'m", "’m", "was"}:
        return "ing"
    return ""


def _name_after(doc: Any, naming: Any) -> str:
    """The name that follows "called": a quoted span, or capitalised words (with "of", "the" … inside)."""
    i = naming.i + 1
    if i >= len(doc):
        return ""
    close = _QUOTES.get(doc[i].text)
    if close is not None:
        end = next((j for j in range(i + 1, min(len(doc), i + 2 + _MAX_NAME_WORDS)) if doc[j].text == close), None)
        if end is None or end == i + 1:
            return ""
        span = doc[i + 1 : end]
    else:
        j = i
        while j < len(doc) and (doc[j].is_title or doc[j].is_digit or (
            doc[j].lower_ in _JOINERS and j > i and j + 1 < len(doc) and doc[j + 1].is_title
        )):
            j += 1
        if j == i or doc[i].ent_type_ == "PERSON":
            return ""
        span = doc[i:j]
    words = span.text.strip(" ,.!;:").split()
    if not words or len(words) > _MAX_NAME_WORDS or any(w.lower() in ("i", "my", "me") for w in words):
        return ""
    return " ".join(words)


def prefer_names(base: FactBase) -> None:
    """Where a sentence names the thing, drop the questions that ask it by its common noun: "I watched a
    movie called "Manchester by the Sea"" asks "What movie did Jack watch?", not "What did Jack watch?"
    → "a movie", nor "In the chat of 3 May 2023, what did Jack mention watching?" → "a movie", nor
    "… mention watching the movie?" (one task with "… mention watching Manchester by the Sea?"). The
    day of the act ("When did Jack watch the movie?") stays."""
    for doc_id, facts in list(base.facts.items()):
        # (sentence, verb) → the names the sentence gives (folded, as a told-when key holds them)
        named: dict[tuple[str, str], set[str]] = {}
        for f in facts:
            if f.relation.startswith(f"{NAMED}:"):
                named.setdefault((f.sentence, f.relation.split(":")[1]), set()).add(fold(f.answer))
        if named:
            base.facts[doc_id] = [f for f in facts if f.relation.startswith(f"{NAMED}:") or _by_name(f, named)]


def _by_name(fact: Fact, named: dict[tuple[str, str], set[str]]) -> bool:
    """Whether a fact may stay beside the named ones: another sentence or verb, or it asks by the name."""
    key, _, rest = fact.relation.partition("|")
    if rest.startswith("when|"):
        return True  # "When did Emily find the novel?" asks the day, not the thing
    verb, _, thing = key.partition(":")
    names = named.get((fact.sentence, re.split(r"[@:]", verb)[0]))
    return names is None or thing in names
