"""What a chat's speaker answered when the other asked them a plain question: the other speaker's question
gives the question, the reply its answer, as conversation benchmarks ask what a person said of themself
("What kind of books does Caroline have in her library?", "What pet does Melanie have?"):

- "Lucy: What type of movies do you like?" / "Sunny: I like action and comedy movies."
  → "What type of movies does Sunny like?" → "action and comedy movies"
- "Rene: Which park did you go to?" / "Emily: I went to Green Meadow Park and saw …"
  → "Which park did Emily go to?" → "Green Meadow Park"
- "Who is your favorite country music artist?" / "Definitely Kenny Rogers."
  → "Who is Jo's favorite country music artist?" → "Kenny Rogers"

The question is the other speaker's last sentence on the line just before, asked of "you" about a thing
("What/Which [kind of] NOUN do/did you VERB?", "Where do/did you VERB?", "What are you VERB-ing?",
"Who/What is your favorite NOUN?"), said again of the speaker by name ("do you like" → "does Sunny like",
"your" → "Sunny's"); nothing else in it may point at the chat ("it", "that", "them", "I", "me", "we") or
ask an opinion ("think", "feel", "mean"), and a question bound to the day ("today", "last night") is
asked by its chat ("In the chat of 3 May 2023, …"). The answer is read from the reply's first sentence
only: the object of the question's own verb said with "I"/"we" ("I like X", "we saw X"), the noun phrase
whose head is the question's noun ("Green Meadow Park" for "Which park"), "My favorite is X", or a reply
that is only the thing ("Definitely Kenny Rogers."), at most `_MAX_WORDS` words; a hedge ("maybe",
"probably", "I think"), a negation or a pointing answer ("that one") gives none.

The relation is the question itself: the same question answered otherwise elsewhere gives two answers
and no question (`datagen.chat_facts.unique_chat_facts`).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from datagen.chat_facts import SHAPE
from datagen.dates import format_date
from datagen.factbase import Fact
from datagen.types import TruthType
from datagen.verify import TOLD_OPENING

REPLY = "reply"
_PHOTO = re.compile(r"\s*\[shares? a photo[^\]]*\]")
# "What type of movies do you like?", "Which park did you go to?", "Where do you work?"
_DO_YOU = re.compile(
    r"^(?P<wh>What|Which|Where|Who)(?P<noun>(?: [a-z][\w'’-]*){0,4}?) (?P<aux>do|did) you (?P<adv>(?:usually |"
    r"recently |still |also |normally )?)(?P<verb>[a-z]+)(?P<rest>(?: [\w'’-]+){0,4})\?$"
)
# "What are you studying?", "Where have you traveled to?"
_BE_YOU = re.compile(
    r"^(?P<wh>What|Which|Where)(?P<noun>(?: [a-z][\w'’-]*){0,4}?) (?P<aux>are|were|have) you (?P<adv>(?:recently |"
    r"currently |still |also )?)(?P<verb>[a-z]+(?:ing|ed))(?P<rest>(?: [\w'’-]+){0,4})\?$"
)
# "Who is your favorite country music artist?", "What's your favourite flavor?"
_FAVORITE = re.compile(
    r"^(?P<wh>What|Who|Which)(?: is|'s|’s) your (?P<fav>favou?rite(?: [a-z][\w'’-]*){1,4})\?$"
)
_AUX = {"do": "does", "did": "did", "are": "is", "were": "was", "have": "has"}
# verbs whose object a reply names as a thing one could look up ("like", "watch", "visit")
_VERBS = frozenset(
    "like love enjoy prefer have play watch see read visit go travel attend study work live listen eat cook make "
    "buy get adopt name use drive own collect speak teach practice bake grow paint draw write sing plan".split()
)
_LIKES = frozenset("like love enjoy prefer".split())
_LEANING = frozenset(
    "it its this that these those them they he him his she her i me my we us our mine yours yourself there "
    "think feel mean about else other one ones".split()
)
_DAY_WORDS = frozenset("today tonight yesterday lately recently weekend morning".split())
_HEDGES = frozenset("maybe perhaps probably possibly think guess not sure depends".split())
_OPENERS = frozenset(
    "definitely oh well haha lol yes yeah hmm um honestly actually absolutely mostly woah wow omg aww".split()
)
_QUOTES = frozenset({'"', "“", "”"})
_NAME_POS = frozenset("PROPN NOUN DET ADJ NUM CCONJ PART".split())  # a reply that is only a name's words
_COURTESIES = frozenset("thanks thank hi hey hello sure wow aww congrats congratulations sorry nice cool great".split())
_MAX_WORDS = 6
# heads that name no thing ("all kinds of music", "lots of stuff")
_VAGUE = frozenset("one ones kind kinds sort sorts type types stuff things thing lot lots bit variety".split())


def reply_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, context: str,
                day: dt.date | None) -> list[Fact]:
    """The speaker's answer to the other speaker's question on the line before (see the module docstring)."""
    question = _asked(text, speaker, context)
    if question is None:
        return []
    frame, wh, noun, verb = question
    if any(t.lower_ in _HEDGES or t.dep_ == "neg" for t in doc):
        return []
    answer = _answer(doc, wh, noun, verb, speaker)
    if not answer:
        return []
    if any(w in _DAY_WORDS for w in frame.lower().replace("?", "").split()):
        if day is None:
            return []
        frame = f"{TOLD_OPENING}{format_date(day)}, {frame[0].lower()}{frame[1:]}"
    return [Fact(
        doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
        relation=f"{REPLY}:{frame.lower()}|{SHAPE}|{TruthType.OTHER.value}", answer=answer,
        kind=TruthType.OTHER.value, ask=frame,
    )]


def _asked(text: str, speaker: str, context: str) -> tuple[str, str, str, str] | None:
    """(the question said of the speaker with "{s}", its wh-word, its noun, its verb) where `text` opens
    the speaker's reply to the other speaker's plain question on the line just before, or None."""
    at = context.find(text)
    if at < 0:
        return None
    start = context.rfind("\n", 0, at) + 1
    opening = context[start:at]
    if not (text.startswith(speaker + ":") and not opening) and not _courtesy(opening, speaker):
        return None  # only the first sentence of a turn answers the line before, or one after "Thanks, Mel!"
    before = context[:start].rstrip("\n").split("\n")[-1]
    if before.startswith(speaker + ":") or ":" not in before:
        return None
    said = _PHOTO.sub("", before.split(":", 1)[1]).strip()
    if not said.endswith("?"):
        return None  # the line goes on after its question: the reply may answer something else
    asked = re.split(r"(?<=[.!?])\s+", said)[-1].strip()
    for pattern in (_FAVORITE, _DO_YOU, _BE_YOU):
        m = pattern.match(asked)
        if m is not None:
            break
    else:
        return None
    if pattern is _FAVORITE:
        words = m.group("fav").split()
        if any(w.lower() in _LEANING for w in words):
            return None
        return f"{m.group('wh')} is {{s}}'s {m.group('fav')}?", m.group("wh").lower(), words[-1].lower(), "be"
    noun = m.group("noun").strip()
    wh, verb, rest = m.group("wh"), m.group("verb"), m.group("rest").strip()
    base = _base(verb.lower())
    words = [*noun.lower().split(), *rest.lower().split()]
    if base is None or any(w in _LEANING or w in ("you", "your") for w in words):
        return None
    if (wh in ("What", "Which") and not noun) or (wh in ("Where", "Who") and noun) or (noun.split()[:1] in (["kind"], ["type"], ["sort"]) and " of " not in f" {noun} "):
        return None  # "What did you make?" (other readers ask it of other acts), "What kind do you like?"
    parts = [wh + (f" {noun}" if noun else ""), _AUX[m.group("aux")], "{s}", m.group("adv").strip(), verb, rest]
    frame = " ".join(p for p in parts if p) + "?"
    return frame, wh.lower(), (noun.split()[-1].lower() if noun else ""), base


def _courtesy(opening: str, speaker: str) -> bool:
    """Whether the turn's words before the sentence are only a short thanks or exclamation ("Melanie:
    Thanks, Caroline!", "Jo: Wow, cool!"), so the sentence still answers the line before."""
    if not opening.startswith(speaker + ":"):
        return False
    words = re.findall(r"[\w'’]+", opening[len(speaker) + 1 :])
    return 0 < len(words) <= 4 and words[0].lower() in _COURTESIES | _OPENERS and opening.rstrip()[-1:] in "!."


def _base(verb: str) -> str | None:
    """The verb of `_VERBS` a question's form says ("studying" → "study", "planning" → "plan"), or None."""
    for form in (verb, re.sub(r"(ing|ed)$", "", verb)):
        for cand in (form, form + "e", form[:-1]):
            if cand in _VERBS:
                return cand
    return None


def _answer(doc: Any, wh: str, noun: str, verb: str, speaker: str) -> str:
    """The thing the reply's first sentence names for the question, or ""."""
    # after "Name:" ("John Zhang:" is two words); only the colon right after the speaker's name opens
    # the turn: the one in "CS:GO" is part of the answer
    colon = next((t.i for t in doc[:5] if t.text == ":" and t.idx == len(speaker)), -1)
    tokens = list(doc[colon + 1 :])
    # a reply that is only the thing's name: "Definitely Kenny Rogers.", "The Foo Fighters."
    clause = []
    for t in tokens:
        if t.is_punct:
            break
        clause.append(t)
    while clause and clause[0].lower_ in _OPENERS:
        clause = clause[1:]
    if clause and not any(t.pos_ in ("VERB", "AUX") for t in clause):
        if wh != "where" and any(t.pos_ == "PROPN" for t in clause) and clause[0].lower_ not in _COURTESIES and all(
                t.pos_ in _NAME_POS for t in clause):
            return _plain(clause)
        return ""
    # "My favorite is X"
    if verb == "be":
        for t in tokens:
            if t.lemma_ == "be" and any(c.dep_ == "nsubj" and c.lower_ in ("favorite", "favourite") for c in t.children):
                attr = next((c for c in t.children if c.dep_ == "attr"), None)
                return _phrase(attr, noun) if attr is not None else ""
        return ""
    for t in tokens:
        if t.pos_ not in ("VERB", "AUX") or not any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in t.children):
            continue
        same = t.lemma_.lower() == verb or (verb in _LIKES and t.lemma_.lower() in _LIKES) or (
            verb == "have" and t.lemma_.lower() == "get" and any(c.lower_ in ("'ve", "’ve", "have") for c in t.children))
        if not same:
            continue
        if wh == "where":
            prep = next((c for c in t.children if c.dep_ == "prep" and c.lower_ in ("in", "at", "to", "near")), None)
            obj = next((g for g in prep.children if g.dep_ == "pobj"), None) if prep is not None else None
        else:
            obj = next((c for c in t.children if c.dep_ == "dobj"), None)
            if obj is None:
                prep = next((c for c in t.children if c.dep_ == "prep"), None)
                obj = next((g for g in prep.children if g.dep_ == "pobj"), None) if prep is not None else None
        return _phrase(obj, noun) if obj is not None else ""
    if noun:
        # "Which park did you go to?" / "I went to Green Meadow Park": the phrase whose head is the noun
        for t in tokens:
            if t.lemma_.lower() == noun and t.pos_ in ("NOUN", "PROPN") and any(
                    c.dep_ in ("compound", "poss") and c.pos_ == "PROPN" for c in t.children):
                return _phrase(t, noun)
    return ""


def _phrase(head: Any, noun: str) -> str:
    """The noun phrase of `head` with its coordinated heads ("action and comedy movies"), without a
    leading article; a thing "called"/"named" X is X; "" when it points, runs long or names no more than
    the question's noun ("What movie did you watch?" / "I watched a movie")."""
    doc = head.doc
    called = next((c for c in head.children if c.dep_ == "acl" and c.lower_ in ("called", "named")), None)
    name = next((c for c in called.children if c.dep_ in ("oprd", "dobj", "attr")), None) if called is not None else None
    if called is not None and called.i + 1 < len(doc) and doc[called.i + 1].text in _QUOTES:
        # 'a movie called "Manchester by the Sea"': the title is what the quotes hold
        close = next((t.i for t in doc[called.i + 2 :] if t.text in _QUOTES), None)
        return _plain(list(doc[called.i + 2 : close])) if close is not None else ""
    if name is not None:
        return _plain(list(doc[name.left_edge.i : name.right_edge.i + 1]))
    end = head.i
    for c in head.children:
        if c.dep_ in ("conj", "cc") and c.i > end:
            end = max(end, c.i if c.dep_ == "cc" else c.right_edge.i)
    words = list(doc[head.left_edge.i : end + 1])
    if head.lemma_.lower() == noun and all(t.pos_ in ("DET", "PRON") or t.i == head.i for t in words):
        return ""
    return _plain(words)


def _plain(words: list[Any]) -> str:
    # "a pup and a kitty" keeps its articles as said; "the UK", "some rock music" lose theirs
    listed = any(t.lower_ == "and" for t in words) and any(t.lower_ in ("a", "an") for t in words[1:])
    while words and ((words[0].lower_ in ("a", "an", "the", "some") and not listed) or words[0].lower_ in _OPENERS):
        words = words[1:]
    while words and (words[-1].is_punct or words[-1].lower_ in ("and", "or")):
        words = words[:-1]
    if not words or len(words) > _MAX_WORDS or any(t.is_punct and t.text not in ("'", "’", "-", "&") for t in words):
        return ""
    if any(t.lower_ in _LEANING and t.lower_ != "my" or t.tag_ in ("PRP", "WDT", "WP") for t in words):
        return ""
    if not any(t.pos_ in ("NOUN", "PROPN") for t in words) or words[-1].lower_ in _VAGUE or words[0].lower_ == "all":
        return ""
    return "".join(t.text_with_ws for t in words).strip()
