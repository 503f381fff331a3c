"""What a chat's speaker said they were busy with at the time of the chat, asked by that chat's day: people
tell a friend or an assistant what they are learning, making or looking for these days, and conversation
benchmarks ask it ("What is Caroline creating for when she has kids?", "What is Melanie learning?"):

- "I'm creating a library for when I have kids."       → "In the chat of 6 July 2023, what was Caroline
  creating?" → "a library"
- "I'm still searching for a place to open my studio."   → "…, what was Jon searching for?" → "a place to
  open my studio"
- "Recently, I've been studying world history."          → "…, what was Frank studying?" → "world history"
- "Recently, I have been learning to cook."              → "…, what was Lucy learning to do?" → "cook"
- "I've been learning how to make noodles."              → "…, what was Sunny learning?" → "how to make noodles"
- "I'm getting ready for a dance comp next month."       → "…, what was Jon getting ready for?" → "a dance comp"

Read from the parse: a verb of `_ACTS` in "I'm / I am / I've been / I have been …-ing" whose subject is the
speaker's "I", the sentence's own clause (not under "I think …", no question, negation, modal or
condition, no joke marker), and its thing: the direct object, the object of the verb's own preposition
("searching for", "working on", "looking into"), or "to"/"how to" with an act ("learning to cook"). The
thing is cut before a time word ("next month", "lately"), a clause ("when …", "but …") or punctuation, at
most `_MAX_WORDS` words, and refused when it points ("it", "that", "you", "stuff"), is a pronoun, or
names a vague thing ("my best", "a lot", "some changes"); the speaker's own "my" and "our" are kept as said. "I'm reading a novel called X" is left to
datagen.chat_named, and the one-"'m" form of datagen.activity_facts' month reader ("I'm currently reading
a business book" → "What was Jon reading in March 2023?") is left to it.

The relation is the day and the act ("doing:6 July 2023:creating"): two different things the speaker was
creating that day give no question (`datagen.chat_facts.unique_chat_facts`); the same thing said twice is
one task with both turns gold. The verifier checks the supporting chat was written that day. A thing
another reader already asks of the same sentence ("What was Jesse looking for?", datagen.chat_part,
where the corpus gives one answer) is not asked again by the day (`drop_restated`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from datagen.activity_facts import _ONGOING as MONTH_ACTS  # the month reader's acts (see the docstring)
from datagen.chat_facts import SHAPE
from datagen.chat_plans import VAGUE, plain_clause
from datagen.dates import format_date
from datagen.factbase import Fact, FactBase
from datagen.mining import bare_words
from datagen.types import TruthType
from datagen.verify import TOLD_OPENING

DOING = "doing"
# acts a person is busy with over days, each with the preposition its thing takes ("" for a direct object)
_ACTS: dict[str, tuple[str, ...]] = {
    "learn": ("",), "study": ("",), "read": ("",), "watch": ("",), "write": ("",), "create": ("",),
    "make": ("",), "build": ("",), "paint": ("",), "draw": ("",), "knit": ("",), "sew": ("",), "bake": ("",),
    "plan": ("",), "organize": ("",), "organise": ("",), "practice": ("",), "practise": ("",), "take": ("",),
    "teach": ("",), "research": ("",), "design": ("",), "record": ("",), "renovate": ("",), "decorate": ("",),
    "collect": ("",), "grow": ("",), "develop": ("",), "compose": ("",), "fix": ("",), "redo": ("",),
    "remodel": ("",), "restore": ("",), "host": ("",), "offer": ("",), "launch": ("",), "expand": ("",),
    "enjoy": ("",), "try": ("",), "attend": ("",), "foster": ("",), "explore": ("",),
    "start": ("",), "spruce": ("",),
    "look": ("into", "for"), "search": ("for",), "work": ("on",), "prepare": ("for",), "prep": ("for",),
    "train": ("for",), "save": ("for",), "shop": ("for",), "volunteer": ("at", "with"), "apply": ("for",),
    "recover": ("from",), "deal": ("with",), "struggle": ("with",), "go": ("through",), "wait": ("for",),
    "get": ("for",),  # only "getting ready for"
}
# "take" says nothing without a class ("taking it easy", "taking a break")
_CLASSES = frozenset("class classes course courses lessons lesson".split())
_POINTING = frozenset(
    "it its this that these those me you your yours he him his she her they them their we us there here "
    "something anything everything someone stuff things thing".split()
)
_MORE_VAGUE = frozenset(
    "best lot lots work trouble fun break step steps changes things stuff well okay ok part hard tons ton "
    "business research one ones options opportunity opportunities life day days moment moments".split()
)
_STOPS = frozenset("but so because though although while when whenever if unless then even since as".split())
# "a book", "a new skill": a thing too bare to be the answer (which book?)
_BARE = frozenset("book books novel novels movie movies film films show shows series song songs skill skills language "
                  "languages class classes course courses game games project projects hobby hobbies".split())
_TIME_WORDS = frozenset(
    "next last lately recently today tonight tomorrow yesterday now currently again too also these every this "
    "soon right".split()
)
_JOKES = frozenset("lol haha hahaha lmao jk xd rofl".split())
_HEDGES = frozenset("maybe perhaps probably possibly guess".split())
_MAX_WORDS = 8


def told_plainly(doc: Any, text: str, speaker: str, day: dt.date | None) -> bool:
    """Whether a parsed chat sentence can tell a fact of its speaker on its chat's day: a speaker and a day
    known, no question, no joke marker and no hedge anywhere in it (shared by chat_doing and chat_interests)."""
    if not speaker or day is None or text.rstrip().endswith("?"):
        return False
    return not any(t.lower_ in _JOKES or t.lower_ in _HEDGES for t in doc)


def doing_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, day: dt.date | None) -> list[Fact]:
    """What the speaker said they were busy with in one parsed sentence (see the module docstring)."""
    if not told_plainly(doc, text, speaker, day):
        return []
    out: list[Fact] = []
    for verb in doc:
        lemma = _lemma(verb)
        if verb.tag_ != "VBG" or lemma not in _ACTS or not own_clause(verb) or not plain_clause(verb):
            continue
        auxes = [c.lower_.replace("’", "'") for c in verb.children if c.dep_ == "aux"]
        if auxes not in (["'m"], ["am"], ["'ve", "been"], ["have", "been"]):
            continue
        if not any(c.dep_ == "nsubj" and c.lower_ == "i" for c in verb.children):
            continue
        if auxes in (["'m"], ["am"]) and lemma in MONTH_ACTS:
            continue  # the month reader's ("What was Jon reading in March 2023?")
        found = _thing(verb, lemma)
        if found is None:
            continue
        frame, answer = found
        wh, _, act = frame.rpartition("|")  # "what class|taking": "what class was … taking?"
        told = format_date(day)
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"{DOING}:{told}:{act}|{SHAPE}|{TruthType.OTHER.value}", answer=answer,
            kind=TruthType.OTHER.value, ask=f"{TOLD_OPENING}{told}, {wh or 'what'} was {{s}} {act}?",
        ))
    return out


def _lemma(verb: Any) -> str:
    """The verb's lemma, read from its "-ing" form where the tagger's is no word ("prepping" → "preppe")."""
    lemma = verb.lemma_.lower()
    if lemma in _ACTS or not verb.lower_.endswith("ing"):
        return lemma
    stem = verb.lower_[:-3]
    for cand in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem):
        if cand in _ACTS:
            return cand
    return lemma


def own_clause(verb: Any) -> bool:
    """The verb is its sentence's main clause, or one joined to it by "and" with its own "I" — not under
    "I think…", "because…" or a relative clause."""
    if verb.dep_ == "ROOT":
        return True
    if verb.dep_ == "conj" and verb.head.dep_ == "ROOT":
        return True
    if verb.dep_ == "ccomp" and verb.i < verb.head.i and verb.head.dep_ == "ROOT" and any(
            t.text in (",", "-", "–", "—", ";") for t in verb.doc[verb.i : verb.head.i]):
        return True  # "I'm a fan of jazz - the chords are amazing": the parser hangs the first clause on the second
    # "Frank: I've been …": the parser may hang the clause on the turn's name
    head = verb.head
    return verb.dep_ in ("dep", "ccomp", "appos") and head.pos_ == "PROPN" and head.i + 1 < len(verb.doc) and (
        verb.doc[head.i + 1].text == ":")


def _thing(verb: Any, lemma: str) -> tuple[str, str] | None:
    """(the question's act, the thing) of a busy verb, or None."""
    preps = _ACTS[lemma]
    said = verb.lower_
    prt = next((c for c in verb.children if c.dep_ == "prt"), None)
    if prt is not None:
        if prt.lower_ not in ("up", "out", "on"):
            return None  # "looking back": no thing
        said = f"{said} {prt.lower_}"
    if lemma == "get":
        # "getting ready for a dance comp": the readiness's "for" holds the thing
        ready = next((c for c in verb.children if c.dep_ == "acomp" and c.lower_ == "ready" and c.i == verb.i + 1), None)
        prep = next((c for c in ready.children if c.dep_ == "prep" and c.lower_ == "for"), None) if ready else None
        obj = next((g for g in prep.children if g.dep_ == "pobj"), None) if prep is not None else None
        answer = thing_phrase(obj) if obj is not None else ""
        return ("getting ready for", answer) if answer else None
    if "" in preps:
        obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if obj is not None:
            if any(c.dep_ == "acl" and c.lower_ in ("called", "named", "titled") for c in obj.children):
                return None  # datagen.chat_named asks the name
            if lemma == "take":
                if obj.lemma_.lower() not in _CLASSES:
                    return None
                # "taking a poetry class": "what class was Maria taking?" (a bare "what was she taking?" reads as pills)
                said = f"what {obj.lemma_.lower()}|{said}"
            answer = thing_phrase(obj)
            return (said, answer) if answer else None
        act = next((c for c in verb.children if c.dep_ == "xcomp" and c.tag_ == "VB"), None)
        if act is not None and lemma == "learn":
            if any(c.lower_ == "how" for c in act.children):
                answer = thing_phrase(act, start=next(c for c in act.children if c.lower_ == "how").i)
                return (said, answer) if answer else None
            if any(c.dep_ == "aux" and c.lower_ == "to" for c in act.children):
                answer = thing_phrase(act, start=act.i)
                return (f"{said} to do", answer) if answer else None
        return None
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ in preps and c.i == verb.i + 1 + (prt is not None)):
        obj = next((g for g in prep.children if g.dep_ == "pobj"), None)
        if obj is None:
            return None
        answer = thing_phrase(obj)
        if prep.lower_ == "at":  # "volunteering at the homeless shelter": "where was Maria volunteering?"
            return (f"where|{said}", answer) if answer else None
        return (f"{said} {prep.lower_}", answer) if answer else None
    return None


def thing_phrase(head: Any, start: int | None = None) -> str:
    """The head's words from `start` (its left edge) to its right edge, cut before a time word, a clause or
    punctuation; "" when it points, runs long, names nothing or is cut inside a phrase ("creating a safe
    | , inviting place": every word kept must hang on a word kept, or be the head)."""
    doc = head.doc
    begin = head.left_edge.i if start is None else start
    words = []
    for t in doc[begin : head.right_edge.i + 1]:
        if t.i > head.i and (t.lower_ in _STOPS or t.lower_ in _TIME_WORDS or t.dep_ in ("relcl", "advcl")
                             and t.tag_ != "VB"):
            break
        if t.text == "," and t.i + 1 < len(doc) and doc[t.i + 1].pos_ == "PROPN" and t.i < head.right_edge.i:
            return ""  # "Magnum, P.I.": a name the comma would cut
        if (t.is_punct and t.text not in ("'", "’", "-")) or (t.i > head.i and t.lower_ == "for"
                                                               and t.i + 1 < len(doc) and doc[t.i + 1].lower_ == "when"):
            break
        words.append(t)
    while words and (words[-1].lower_ in ("and", "or", "the", "a", "an", "to", "for", "with", "in", "at", "of", "on")
                     or words[-1].is_punct):
        words = words[:-1]
    if not words or len(words) > _MAX_WORDS or all(w.i < head.i for w in words):
        return ""
    kept = {w.i for w in words}
    if any(w.i != head.i and w.head.i not in kept for w in words):
        return ""
    if any(t.dep_ == "conj" and t.i not in kept and t.head.i in kept for t in head.subtree):
        return ""  # "how to catch | , clean, and cook fish": a list cut short
    end = words[-1].i
    after = doc[end + 2] if end + 2 < len(doc) and doc[end + 1].lower_ in ("and", "or", "&") else None
    if after is not None and after.pos_ != "PRON" and after.dep_ not in ("nsubj", "nsubjpass") and not (
            after.dep_ == "conj" and after.head.pos_ in ("VERB", "AUX")):
        # "passionate about fashion trends | and finding unique pieces" (the parser hangs the second thing on
        # the adjective); a second act ("expanding X and offering Y") leaves X whole
        return ""
    if any(w.lower_ in _POINTING or (w.tag_ in ("PRP", "WDT", "WP") and w.lower_ not in ("my", "our", "i")) for w in words):
        return ""
    if any(w.lower_ == "i" for w in words):
        return ""  # "a library for when I have kids": the question would have to say "they"
    after = sum(1 for w in words if w.i > head.i)
    if head.pos_ in ("NOUN", "PROPN") and (head.lower_ in VAGUE or head.lower_ in _MORE_VAGUE) and after < 2:
        return ""  # "a place" says nothing; "a place to open my dance studio" does
    if not any(w.pos_ in ("NOUN", "PROPN", "VERB") for w in words):
        return ""
    named = [w for w in words if w.lower_ not in ("a", "an", "new", "some", "the", "my")]
    if len(named) == 1 and named[0].lower_ in _BARE:
        return ""
    return "".join(w.text_with_ws for w in words).strip()


def drop_restated(base: FactBase, heads: tuple[str, ...] = (DOING,)) -> None:
    """Drop a by-the-day fact (relation opening with one of `heads`) whose sentence another asked fact
    already answers with the same thing, articles and "my" aside: one question per thing said. Run after
    the uniqueness passes, so the other question is one that is asked."""
    for doc_id in list(base.facts):
        facts = base.facts[doc_id]
        said = {(f.sentence, bare_words(f.answer)) for f in facts if f.ask and not f.relation.startswith(heads)}
        kept = [f for f in facts if not (f.relation.startswith(heads) and (f.sentence, bare_words(f.answer)) in said)]
        if kept:
            base.facts[doc_id] = kept
        else:
            del base.facts[doc_id]
