"""What a chat's speaker said they did, asked by that chat's day: the general reader of a first-person
past act on a concrete thing or place, or liking, where the other chat readers each take one narrow pattern
(issue 36: the funnel of the three tuning chat sets found most unread concrete acts in no pattern at all):

- "I finally finished the quilt for my sister."   → "In the chat of 6 July 2023, what did Anna finish?"
  → "the quilt for my sister"
- "I just got a new grill."                         → "…, what did Jesse get?" → "a new grill"
- "Last weekend we went to Yosemite with the kids." → "…, where did Maria go?" → "Yosemite"
- "I love Olive Garden."                            → "…, what did Pat mention loving?" → "Olive Garden"

Read from the parse: a verb in the simple past or "have" + participle, or a liking ("love", "like", "enjoy",
"adore") in the present, whose subject is the speaker's "I", "we" or "my kids and I" (the speaker took part,
as datagen.activity_facts dates it), in the sentence's own clause (`chat_doing.own_clause`) told plainly
(`chat_doing.told_plainly`: no question, hedge or joke; `chat_plans.plain_clause`: no negation, modal or
condition); and its thing: the direct object, the object of the verb's own preposition for the verbs of
`_PREP_ACTS` ("signed up for"), or the place one went or moved to. The verb says what was done
(`_SAYS_NOTHING`: never "had", "said", "thought", "saw"; "got" and "took" only with a thing, `_NOT_GOT`,
`_TAKEN`); the thing is no idiom ("made a difference", `activity_facts._IDIOMS`), no vague, abstract or
felt word, no person (asked with "who", not here), no place word alone ("moved to a new city") and no
pointing; it is the object's own words cut as `chat_doing.thing_phrase` cuts them (and before "with …"),
the speaker's "my" kept as said.

The relation is the day and the act ("act:6 July 2023:finish"; every liking one key): two different
things the speaker did so that day — a thing no question could be written from counting as one — give
no question (`datagen.chat_facts.unique_chat_facts`); the same thing told twice is
one task. The verifier checks the supporting chat was written that day. A thing another reader already
asks of the same sentence, whole or in part ("What did John finish?" → "the quilt", datagen.activity_facts),
is not asked again by its day (`drop_asked_elsewhere`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from datagen.activity_facts import _ABSTRACT, _IDIOMS, _PEOPLE, _VAGUE, _bare_product
from datagen.chat_doing import own_clause, thing_phrase, told_plainly
from datagen.chat_facts import SHAPE
from datagen.chat_plans import VAGUE, plain_clause
from datagen.dates import format_date
from datagen.factbase import Fact, FactBase
from datagen.mining import bare_words
from datagen.types import TruthType
from datagen.verify import TOLD_OPENING

ACT = "act"
# verbs whose object says what was done only with another word ("had a blast", "got it", "took a
# while"), that tell a state, a feeling or a thought ("loved the show", "needed a change", "saw your
# post"), or a saying (its object is words, not a thing)
_SAYS_NOTHING = frozenset(
    "be have do give put keep let use spend say tell ask talk speak think know feel love like enjoy hate "
    "want need mean guess hope wish believe remember forget realize realise notice understand see hear seem "
    "look sound miss thank appreciate try help show call meet mention imagine expect admire envy prefer "
    "consider decide agree manage happen come stay leave bring send hit check reach face deal cause suppose "
    "owe lose fail catch hold pass set turn follow end begin continue stop share contact".split()
)
# verbs whose thing is the object of their own preposition, with the preposition asked
_PREP_ACTS: dict[str, tuple[str, ...]] = {
    "sign": ("for",), "apply": ("for",), "work": ("on",), "prepare": ("for",), "train": ("for",),
    "volunteer": ("at", "with"), "enroll": ("in",), "register": ("for",), "compete": ("in",),
    "audition": ("for",), "shop": ("for",), "search": ("for",), "vote": ("for",), "enter": ("into",),
    "participate": ("in",),
}
# "got a puppy", "took a pottery class": light verbs say what was done only with these things
_TAKEN = frozenset("class classes course courses lesson lessons workshop workshops trip trips vacation cruise".split())
_NOT_GOT = frozenset(
    "turnout response reaction call message text email letter invite invitation offer feedback news results result "
    "score grade ticket tickets chance idea sense feeling support help advice compliment compliments praise "
    "attention recognition approval permission opportunity opportunities break rest sleep cold flu surge lead leads "
    "boost rush thrill glimpse taste kick".split()
)
# what one feels or meets rather than a thing ("developed a love for reading", "encountered some difficulties")
_NO_THING = frozenset(
    "love passion appreciation fondness respect difficulty difficulties share lesson lessons obstacle obstacles "
    "hardship hardships trouble troubles".split()
)
_MORE_IDIOMS = frozenset([("make", "wish"), ("make", "plan"), ("make", "friend"), ("make", "call"),
                          ("raise", "awareness"), ("find", "time"), ("start", "day")])
# people, asked with "who" (datagen.activity_facts' relatives and these)
_PERSONS = frozenset(
    "mentor coach therapist counselor counsellor doctor teacher boss neighbor neighbour cousin aunt uncle grandma "
    "grandpa grandmother grandfather nephew niece fiance fiancee fiancé roommate classmate coworker co-worker "
    "boyfriend girlfriend guy girl lady man woman buddy pal veteran veterans mentee teen teens person".split()
)
# a place word that names no place without another word ("moved to a new city", "went to the city")
_BARE_PLACES = frozenset("city town area country state neighborhood neighbourhood place village region".split())
# where one went: the place is asked with "where"
_GO = frozenset("go move travel fly drive head relocate".split())
# "went to bed", "went to work": no place one tells of
_NO_PLACE = frozenset(
    "bed work school sleep church class college university town home war hell heaven extremes length lengths "
    "pieces waste trouble bat court jail prison".split()
)
# "I love Olive Garden", "I really enjoy jazz": what the speaker likes, told that day
_LIKES = {"love": "loving", "like": "liking", "enjoy": "enjoying", "adore": "adoring"}
_AUX_PERFECT = frozenset("'ve have has".split())


def act_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, day: dt.date | None) -> list[Fact]:
    """What the speaker said they did in one parsed sentence (see the module docstring)."""
    if not told_plainly(doc, text, speaker, day):
        return []
    told = format_date(day)
    out: list[Fact] = []
    for verb in doc:
        lemma = verb.lemma_.lower()
        liking = lemma in _LIKES and verb.tag_ == "VBP" and not any(c.dep_ in ("aux", "auxpass") for c in verb.children)
        if verb.pos_ != "VERB" or not (liking or said_done(verb)) or (lemma in _SAYS_NOTHING and not liking):
            continue
        subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
        # "I", "we", or "my kids and I": the speaker did it, alone or with others
        if subject is None or not (subject.lower_ in ("i", "we") or any(
                c.dep_ == "conj" and c.lower_ == "i" for c in subject.children)):
            continue
        found = _thing(verb, lemma)
        if found is None:
            continue
        frame, obj, answer = found
        if _bare_product(frame.rpartition("|")[2], obj):
            answer = ""  # "In the chat of …, what did Val paint?" → "a new picture": says no more than the verb
        if liking and answer.lower().startswith("the ") and not any(t.pos_ == "PROPN" for t in obj.subtree):
            answer = ""  # "I love the colors!", "I like the actors and the plot": what the chat shows, not a liking
        wh, _, act = frame.rpartition("|")  # "where|go": "where did … go?"
        # one key for every liking: "I love X" beside "I enjoy Y" that day gives no question
        relation = f"{ACT}:{told}:{'like' if liking else act}|{SHAPE}|{TruthType.OTHER.value}"
        # "we went to the beach", "my friends and I went to Disney": the speaker went too (as
        # datagen.activity_facts dates it); the day's question asks what was done, not whether alone
        asked = bool(answer) and own_clause(verb) and plain_clause(verb)
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False, relation=relation,
            # a thing no question is written from still tells that the day's act has another answer
            answer=answer if asked else obj.doc[obj.left_edge.i : obj.right_edge.i + 1].text,
            kind=TruthType.OTHER.value,
            # "what did Pat mention loving?" (as datagen.chat_sessions asks by the day): no "he" or "she" to guess
            ask=(f"{TOLD_OPENING}{told}, what did {{s}} mention {_LIKES[lemma]}?" if liking
                 else f"{TOLD_OPENING}{told}, {wh or 'what'} did {{s}} {act}?") if asked else "",
        ))
    return out


def said_done(verb: Any) -> bool:
    """Simple past ("finished"), or "have" + participle ("I've finished"); never a passive."""
    kids = list(verb.children)
    if any(c.dep_ == "auxpass" for c in kids):
        return False
    auxes = [c.lower_.replace("’", "'") for c in kids if c.dep_ == "aux"]
    if verb.tag_ == "VBD":
        return not auxes
    return verb.tag_ == "VBN" and bool(auxes) and auxes[0] in _AUX_PERFECT and len(auxes) == 1


def _thing(verb: Any, lemma: str) -> tuple[str, Any, str] | None:
    """(the question's act, the thing's head, the thing's words or "" when it is no answer), or None
    when the verb has no thing of its own."""
    prt = next((c for c in verb.children if c.dep_ == "prt"), None)
    said = lemma if prt is None else f"{lemma} {prt.lower_}"
    after = verb.i + 1 + (prt is not None and prt.i == verb.i + 1)
    if lemma in _GO:
        prep = next((c for c in verb.children if c.dep_ == "prep" and c.lower_ == "to" and c.i == after), None)
        obj = next((g for g in prep.children if g.dep_ == "pobj"), None) if prep is not None else None
        if obj is None or prt is not None:
            return None
        return f"where|{lemma}", obj, _answer(verb, obj, lemma, place=True)
    if lemma in _PREP_ACTS:
        prep = next((c for c in verb.children if c.dep_ == "prep" and c.lower_ in _PREP_ACTS[lemma] and c.i == after), None)
        obj = next((g for g in prep.children if g.dep_ == "pobj"), None) if prep is not None else None
        if obj is not None:
            if prep.lower_ in ("at", "with") and lemma == "volunteer":
                return f"where|{said}", obj, _answer(verb, obj, lemma, place=True)
            return f"{said} {prep.lower_}", obj, _answer(verb, obj, lemma)
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None or obj.pos_ not in ("NOUN", "PROPN") or any(c.lower_ == "no" for c in obj.children):
        return None  # "I've got no trouble makers": nothing had
    if (lemma, obj.lemma_.lower().strip("-–—")) in _IDIOMS | _MORE_IDIOMS:
        return None  # "made a difference" made nothing: no thing, no witness of one
    if prt is not None and prt.i > obj.i:
        return None  # "explored the coast | up in the Pacific Northwest": no particle of the verb's
    if lemma == "get" and verb.tag_ == "VBN":
        return None  # "we've got some projects": what one has, not a thing one got
    if lemma == "take" and obj.lemma_.lower() not in _TAKEN:
        return None  # "took a while", "took a picture": no thing taken up
    if lemma == "get" and (obj.lemma_.lower() in _NOT_GOT or prt is not None):
        return None  # "got a great turnout", "got a call", "got over it"
    return said, obj, _answer(verb, obj, lemma)


def _answer(verb: Any, obj: Any, lemma: str, place: bool = False) -> str:
    """The thing's words, or "" when they name no thing one could ask for (see the module docstring)."""
    head = obj.lemma_.lower().strip("-–—")
    if {head, obj.lower_} & (_VAGUE | _ABSTRACT | VAGUE | _PEOPLE | _NO_THING | _PERSONS):
        return ""
    if obj.ent_type_ in ("PERSON", "NORP", "DATE", "TIME", "CARDINAL", "MONEY", "PERCENT", "QUANTITY", "ORDINAL"):
        return ""  # a person is asked with "who"; a number or a time is no thing done
    if place and (head in _NO_PLACE or obj.lower_ in _NO_PLACE):
        return ""
    if obj.i + 1 < len(obj.doc) and obj.doc[obj.i + 1].text == ":":
        return ""  # "found my real muses: painting and pottery": the thing is what follows
    if any(c.dep_ == "relcl" or c.dep_ == "acl" and c.lower_ in ("called", "named", "titled") for c in obj.children):
        return ""  # "the book I told you about" runs on into a clause; a name is datagen.chat_named's
    answer = thing_phrase(obj)
    # "watched The Conjuring | with my boyfriend on Netflix": who with and where are no part of the thing
    # (the parser hangs them on the object); a name's own words end at its first preposition
    cut = next((c for c in obj.children if c.dep_ == "prep" and c.i > obj.i and (
        c.lower_ == "with" or obj.pos_ == "PROPN")), None)
    if answer and cut is not None and f" {cut.text} " in answer:
        answer = answer[: answer.index(f" {cut.text} ")]
    doc = obj.doc
    if answer and any(t.text == "," and t.i + 1 < len(doc) and doc[t.i + 1].pos_ in ("NOUN", "PROPN", "ADJ")
                      for t in doc[obj.i + 1 : obj.right_edge.i + 2]):
        return ""  # "got some massages, pedicures, …": a list cut short
    words = answer.split()
    if place and words and words[-1].lower() in _BARE_PLACES and not any(
            t.pos_ == "PROPN" for t in obj.subtree):
        return ""
    return answer if answer and answer[-1].isalnum() else ""


def drop_asked_elsewhere(base: FactBase) -> None:
    """Drop a day's act whose sentence another asked fact already answers with the same thing or a part
    of it ("What did John finish?" → "the quilt" beside "…, what did John finish?" → "the quilt for my
    sister"): one question per thing said. Run after the uniqueness passes, so the other is asked."""
    for doc_id in list(base.facts):
        facts = base.facts[doc_id]
        said: dict[str, list[str]] = {}
        for f in facts:
            if f.ask and not f.relation.startswith(f"{ACT}:"):
                said.setdefault(f.sentence, []).append(_bare(f.answer))
        kept = [f for f in facts if not (f.relation.startswith(f"{ACT}:") and any(
            a and (a in _bare(f.answer) or _bare(f.answer) in a) for a in said.get(f.sentence, ())))]
        if kept:
            base.facts[doc_id] = kept
        else:
            del base.facts[doc_id]


def _bare(answer: str) -> str:
    """The answer's words, articles, "my" and "our" aside, padded so that containment is by whole words."""
    return bare_words(answer, drop=("a", "an", "the", "my", "our", "some"), pad=True)
