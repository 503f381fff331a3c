"""What a chat's or a mail's speaker says of themself and of the people and animals they name, with no
date: the single-hop facts conversation benchmarks ask ("What is the name of John's daughter?", "What
instrument does Melanie play?", "Where is Caroline's grandma from?", "What is Melanie a fan of?").

Read from plain statements of the speaker of the line (`naming.sentence_speaker`):

- a name:       "my daughter Sara", "Oscar, my guinea pig", "our one-year-old … his name is Kyle", "a
                puppy … Her name's Coco" (the name's noun is the last kin or pet noun the speaker said in
                the lines just before) → "What is the name of John's daughter?" → "Sara";
- an instrument: "I play the clarinet" → "What instrument does Melanie play?";
- a fan:        "I'm a big fan of pottery" → "What is Melanie a fan of?";
- a favourite:  "My favorite book is Charlotte's Web" / "… is my favorite book" → "What is Melanie's
                favorite book?";
- a place:      "I'm from Sweden", "my grandma is from Sweden", "my sister moved to Denver", "my brother
                lives in Ohio", "I grew up in Ohio" → "Where did Jon's sister move to?";
- a job:        "I work as a nurse" → "What does Gina do for a living?"; "lost my job at Door Dash" → "Where did
                Gina work?".

Each question names no answer, so it is kept only when the whole corpus gives that person and relation
one answer (`unique_chat_facts`), counting the mentions no question is written from: "my cats", "another
cat", "your other dog", "my oldest daughter" tell that "What is the name of Melanie's cat?" has more
than one answer, and a pup and a puppy are one kind of animal. Every turn that states the fact is a
positive of its task (the fact key is the same: datagen.factbase.fact_key).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.naming import chat_speaker
from datagen.types import TruthType

SHAPE = "said"  # "name:dog|said|other": one of the speaker's own facts, read here
# Relatives one names: "my daughter Sara". Friends, colleagues and neighbours are many; never asked.
KIN = {
    "son": "son", "daughter": "daughter", "wife": "wife", "husband": "husband", "partner": "partner",
    "boyfriend": "boyfriend", "girlfriend": "girlfriend", "fiance": "fiance", "fiancee": "fiancee",
    "brother": "brother", "sister": "sister", "cousin": "cousin", "aunt": "aunt", "uncle": "uncle",
    "niece": "niece", "nephew": "nephew", "grandma": "grandma", "grandmother": "grandma",
    "grandpa": "grandpa", "grandfather": "grandpa", "mom": "mom", "mother": "mom", "mum": "mom",
    "dad": "dad", "father": "dad", "baby": "baby", "one-year-old": "one-year-old", "toddler": "toddler",
    "stepson": "stepson", "stepdaughter": "stepdaughter",
}
# Animals one names; the kind is what tells two apart ("pup" and "puppy" are one dog).
PETS = {
    "dog": "dog", "puppy": "dog", "pup": "dog", "cat": "cat", "kitten": "cat", "kitty": "cat",
    "guinea pig": "guinea pig", "hamster": "hamster", "rabbit": "rabbit", "bunny": "rabbit",
    "parrot": "parrot", "bird": "bird", "horse": "horse", "pony": "horse", "turtle": "turtle",
    "tortoise": "turtle", "snake": "snake", "lizard": "lizard", "goldfish": "fish", "fish": "fish",
    "ferret": "ferret", "gerbil": "gerbil", "chicken": "chicken", "goat": "goat",
}
# How a question says the kind: "Caroline's guinea pig", "Maria's dog" (never "pup").
_SAID_AS = {"dog": "dog", "cat": "cat"}
INSTRUMENTS = frozenset(
    "piano guitar violin viola cello clarinet flute saxophone sax trumpet trombone drums drum ukulele harp "
    "bass banjo mandolin accordion harmonica oboe bassoon keyboard keyboards tuba organ".split()
)
_NOUN = "|".join(sorted((re.escape(k) for k in (*KIN, *PETS)), key=len, reverse=True))
_PLURAL = "|".join(sorted((re.escape(k) + ("es" if k.endswith(("sh", "ch")) else "s") for k in (*KIN, *PETS)),
                          key=len, reverse=True)) + "|children|kids|puppies|grandparents"
_NAME = r"([A-Z][a-z][\w'’-]*(?: [A-Z][a-z][\w'’-]*)?)"
_NOT_NAME = frozenset(
    "I I'm Im The My Our Your His Her Its Their He She It They We You This That These Those Yes Yeah No Oh "
    "Wow Hey Hi Thanks Thank Mom Dad Grandma Grandpa Mum And But So Also Just Well Anyway Today".split()
)
# "my daughter Sara", "our puppy, Coco" (not "my daughter Sara's birthday" cut at the "'s": that still names her)
_MY_NOUN_NAME = re.compile(rf"\b(?:[Mm]y|[Oo]ur) (?:(?:little|new|baby|youngest|oldest|eldest|sweet|adorable|cute|late)\s)?({_NOUN}),? {_NAME}")
_NAME_MY_NOUN = re.compile(rf"\b{_NAME}, (?:my|our) (?:(?:little|new|baby|sweet|adorable|cute|late)\s)?({_NOUN})\b")
_A_NOUN_NAMED = re.compile(rf"\b(?:a|an|this|our|my) (?:[\w-]+ ){{0,2}}({_NOUN}) (?:named|called) {_NAME}")
_NAME_IS = re.compile(rf"\b(?:[Hh]is|[Hh]er|[Ii]ts|[Tt]heir) name(?:'s|’s| is) {_NAME}")
# the noun a later "her name is X" names: the last kin or pet noun the speaker said just before
_LAST_NOUN = re.compile(rf"\b(?:a|an|my|our|this|the) (?:[\w-]+ ){{0,2}}({_NOUN})\b", re.IGNORECASE)
# more than one of a kind: "my cats", "another cat", "your other dog", "my oldest daughter", "two dogs"
_SEVERAL = re.compile(
    rf"\b(?:(?:my|our|your|his|her) (?:\w+ )?({_PLURAL})|(?:another|other|second|third|oldest|eldest|youngest|"
    rf"older|younger|middle|two|three|four|both) ({_NOUN}))\b",
    re.IGNORECASE,
)
_PLAY = re.compile(r"\bI(?: also| still)? (?:play|'ve played|have played|'ve been playing|have been playing|am playing|'m playing) (?:the |a |my )?([a-z]+)\b")
_INSTRUMENT_ANY = re.compile(
    r"\b(?:my|play|plays|played|playing|learn|learning|learned|practice|practicing|practise|practising)\s+"
    r"(?:the\s+|my\s+|acoustic\s+|electric\s+|some\s+)?([A-Za-z]+)"
)
_FAN = re.compile(r"\bI(?:'m| am) (?:a |an )?(?:big |huge |massive |total |real |longtime |long-time )?fan of ((?:the )?[\w'’-]+(?: [\w'’-]+){0,4})")
_FAVORITE_IS = re.compile(r"\b[Mm]y (?:all-time )?favou?rite ([a-z]+(?: [a-z]+)?) (?:is|was|has to be|'s) ([^.!?,;]+)")
_IS_FAVORITE = re.compile(r"(?:^|[.!?:]\s*)([^.!?,;:]+?) (?:is|are) (?:definitely |probably |still )?my (?:all-time )?favou?rite ([a-z]+(?: [a-z]+)?)\b")
# a place may be typed in lowercase ("I'm from san francisco"): the parse's GPE/LOC decides (`_place`)
_FROM = re.compile(r"\bI(?:'m| am|m) (?:originally )?from ((?:the )?[A-Za-z][\w .'’-]+)")
_GREW_UP = re.compile(r"\bI grew up in ((?:the )?[A-Za-z][\w .'’-]+)")
_KIN_PLACE = re.compile(
    rf"\b[Mm]y ({_NOUN}) (is from|was from|comes from|moved to|lives in|has moved to|just moved to|recently moved to) ((?:the )?[A-Za-z][\w .'’-]+)"
)
# "lost my job at Door Dash", "I work for Acme": where one works or worked (one answer in the corpus)
_WORK_AT = re.compile(
    r"\b((?:I(?:'ve| have)? (?:work|worked|used to work|am working|'m working) (?:at|for))|(?:(?:lost|quit|left) )?my "
    r"(?:old |new |current |first |last |former )?job (?:at|with))\s+(?:the )?([A-Z][\w&.'’-]*(?: [A-Z&][\w&.'’-]*){0,3})"
)
_WORK_AS = re.compile(r"\bI(?:'m| am)? (?:currently |now )?(?:work|working) as (?:a |an )([a-z]+(?: [a-z]+){0,2})\b")
# a statement only: no negation, wish, condition or question before the pattern in its clause
_HEDGE = re.compile(r"\b(not|never|n't|no longer|if|wish|would|could|should|might|may|hope|want|wanna|someday|maybe)\b|n't\b", re.IGNORECASE)
_KIN_ASK = {
    "is from": "Where is {s}'s {n} from?", "was from": "Where was {s}'s {n} from?", "comes from": "Where is {s}'s {n} from?",
    "moved to": "Where did {s}'s {n} move to?", "has moved to": "Where did {s}'s {n} move to?",
    "just moved to": "Where did {s}'s {n} move to?", "recently moved to": "Where did {s}'s {n} move to?",
    "lives in": "Where does {s}'s {n} live?",
}
_KIN_VERB = {verb: ("move" if "moved" in verb else "live" if "lives" in verb else "from") for verb in _KIN_ASK}
_MAX_ANSWER_WORDS = 6


def chat_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, context: str = "") -> list[Fact]:
    """The speaker's own facts one sentence states (see the module docstring), with witnesses: facts
    with no question (ask "") that tell a relation has more than one answer. context: the document's
    text, where "Her name is Coco" finds the noun the speaker said before it."""
    if not speaker or not text.strip():
        return []
    body = re.sub(r"^\s*[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}:\s+", "", text)  # "Maria: " opens a turn
    asked = not body.rstrip().endswith("?")
    out: list[Fact] = []

    def add(key: str, answer: str, ask: str, kind: str, at: int) -> None:
        answer = answer.strip().strip("\"'“”‘’").strip()
        words = answer.split()
        if ask and (not words or len(words) > _MAX_ANSWER_WORDS or fold(answer) in _STOP_ANSWERS):
            return  # a witness (no ask) counts whatever its words
        good = asked and not _HEDGE.search(_clause_before(body, at))
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"{key}|{SHAPE}|{kind}", answer=answer, kind=kind, ask=ask if good else "",
        ))

    for m in _SEVERAL.finditer(body):
        noun = (m.group(1) or m.group(2) or "").lower()
        kind = _kind_of(_singular(noun))
        yours = re.match(r"(?i)your\b", m.group(0)) or re.search(r"(?i)\byour\s+$", body[: m.start()])
        if kind and not yours:
            add(f"name:{kind}", "\x00several", "", _name_kind(kind), m.start())
        elif kind:  # "your other dog": the other person of the chat has several
            other = addressee(context, speaker)
            if other:
                out.append(Fact(doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=other, about_doc=False,
                                relation=f"name:{kind}|{SHAPE}|{_name_kind(kind)}", answer="\x00several",
                                kind=_name_kind(kind), ask=""))
    named: list[tuple[str, str, int]] = []  # (noun, name, where)
    for pattern in (_MY_NOUN_NAME, _A_NOUN_NAMED):
        for m in pattern.finditer(body):
            if pattern is _A_NOUN_NAMED and m.group(1) in KIN and not m.group(0).lower().startswith(("my", "our")) \
                    and not re.search(r"\b(?:have|had|has)\s+(?:\w+\s+)?$", body[: m.start()]):
                continue  # "a movie about a father named Chris Gardner": a relative is the speaker's by "my" or "I have a"
            named.append((m.group(1), m.group(2), m.start()))
    for m in _NAME_MY_NOUN.finditer(body):
        named.append((m.group(2), m.group(1), m.start()))
    for m in _NAME_IS.finditer(body):
        before = body[: m.start()]
        noun = _last_noun(before) or _last_noun(_speaker_lines_before(context, text, speaker))
        if noun:
            named.append((noun, m.group(1), m.start()))
    proper = {t.text for t in doc if t.pos_ == "PROPN" or t.ent_type_ in ("PERSON", "ORG", "GPE", "NORP")}
    for noun, name, at in named:
        name = re.sub(r"['’]s$", "", name)
        if name.split()[0] in _NOT_NAME or re.sub(r"['’]s$", "", name.split()[0]) not in proper:
            continue  # "Thankfully, my son's ok": a capital word the parse calls no name names no one
        kind = _kind_of(noun.lower())
        if not kind:
            continue
        if re.search(rf"\b(?:another|other|second|third) (?:[\w-]+ ){{0,2}}{re.escape(noun)}\b", body, re.IGNORECASE):
            add(f"name:{kind}", "\x00several", "", _name_kind(kind), at)
            continue
        said = _SAID_AS.get(kind, kind)
        add(f"name:{kind}", name, f"What is the name of {{s}}'s {said}?", _name_kind(kind), at)
    for m in _PLAY.finditer(body):
        if m.group(1) in INSTRUMENTS:
            add("play:instrument", m.group(1), "What instrument does {s} play?", TruthType.OTHER.value, m.start())
    for m in _INSTRUMENT_ANY.finditer(body):  # "playing my violin", "learning the piano": another answer
        if m.group(1).lower() in INSTRUMENTS:
            add("play:instrument", m.group(1).lower(), "", TruthType.OTHER.value, m.start())
    for m in _FAN.finditer(body):
        thing = _cut(m.group(1))
        if not thing:  # "a fan of both classical and modern music": more than one thing, asked never
            add("fan", "\x00" + m.group(1), "", TruthType.OTHER.value, m.start())
        else:
            who = any(thing in e.text or e.text in thing for e in doc.ents if e.label_ == "PERSON")
            add("fan", thing, "Who is {s} a fan of?" if who else "What is {s} a fan of?",
                TruthType.PERSON.value if who else TruthType.OTHER.value, m.start())
    for m in _FAVORITE_IS.finditer(body):
        what, thing = _favorite_kind(m.group(1)), _cut(m.group(2))
        if not what:
            continue
        if not thing:
            add(f"favorite:{what}", "\x00" + m.group(2), "", TruthType.OTHER.value, m.start())
        elif what not in ("part", "thing", "one", "things", "way", "time"):
            add(f"favorite:{what}", thing, f"What is {{s}}'s favorite {what}?", TruthType.OTHER.value, m.start())
    for m in _IS_FAVORITE.finditer(body):
        thing, what = _cut(m.group(1)), _favorite_kind(m.group(2))
        if thing and what and what not in ("part", "thing", "one", "things", "way", "time") and fold(thing) not in _PRONOUNS:
            add(f"favorite:{what}", thing, f"What is {{s}}'s favorite {what}?", TruthType.OTHER.value, m.start())
    for pattern, key, ask in ((_FROM, "from", "Where is {s} from?"), (_GREW_UP, "grow up", "Where did {s} grow up?")):
        for m in pattern.finditer(body):
            place = _place(doc, m.group(1))
            if place:
                add(key, place, ask, TruthType.PLACE.value, m.start())
    for m in _KIN_PLACE.finditer(body):
        noun, verb, place = m.group(1).lower(), m.group(2), _place(doc, m.group(3))
        if place and noun in KIN:
            kin = KIN[noun]
            add(f"{_KIN_VERB[verb]}:{kin}", place,
                _KIN_ASK[verb].replace("{n}", kin), TruthType.PLACE.value, m.start())
    for m in _WORK_AT.finditer(body):
        org = _organization(doc, m.group(2))
        if org:
            past = bool(re.search(r"worked|used to|lost|quit|left|old|last|first|former", m.group(1)))
            add("work at", org, "Where did {s} work?" if past else "Where does {s} work?",
                TruthType.ORGANIZATION.value, m.start())
    for m in _WORK_AS.finditer(body):
        job = _cut(m.group(1))
        if job:
            add("work as", job, "What does {s} do for a living?", TruthType.OTHER.value, m.start())
    return out


def session_texts(titles: dict[str, str], doc_text: Any) -> dict[str, str]:
    """doc id → the text of its whole conversation, where a chat is indexed one turn a document (the turns
    share their session's title): "Her name is Shadow!" finds its puppy in the turn before, and "your
    other dog" its addressee. A document alone under its title is its own text (not listed)."""
    by_title: dict[str, list[str]] = defaultdict(list)
    for doc_id, title in titles.items():
        if title:
            by_title[title].append(doc_id)
    out: dict[str, str] = {}
    for docs in by_title.values():
        if len(docs) > 1 and chat_speaker(doc_text(docs[0])):  # pages sharing a title are no chat
            text = "\n".join(doc_text(d) for d in docs)
            out.update(dict.fromkeys(docs, text))
    return out


def unique_chat_facts(base: FactBase) -> None:
    """Keep a fact of this module only when its person and relation have one answer in the whole corpus
    (witnesses of "several" count as another answer), and drop the witnesses themselves."""
    answers: dict[tuple[str, str], set[str]] = defaultdict(set)
    for facts in base.facts.values():
        for f in facts:
            if _ours(f):
                answers[(fold(f.subject), f.relation)].add(fold(f.answer))
    for doc_id in list(base.facts):
        kept = [f for f in base.facts[doc_id]
                if not _ours(f) or (f.ask and len(answers[(fold(f.subject), f.relation)]) == 1)]
        if kept:
            base.facts[doc_id] = kept
        else:
            del base.facts[doc_id]


def _ours(fact: Fact) -> bool:
    parts = fact.relation.split("|")
    return len(parts) == 3 and parts[1] == SHAPE


_STOP_ANSWERS = frozenset("it this that them him her me you us one mine yours".split())
_PRONOUNS = frozenset("it this that these those which what mine".split())


def _clause_before(body: str, at: int) -> str:
    """The words of the pattern's clause before it: from the last stop, comma or "but"."""
    head = body[:at]
    cut = max(head.rfind(c) for c in ".!?;,")
    head = head[cut + 1 :]
    return re.split(r"\bbut\b", head)[-1]


def _cut(phrase: str) -> str:
    """A short noun phrase, or "": a list ("Bach and Mozart, as well as …") or a clause asks no one thing."""
    phrase = re.split(r"\s+(?:-|–|—)\s+|\s+(?:because|since|when|which|that|who|so|and i|but)\b", phrase.strip())[0]
    phrase = phrase.strip(" \"'“”‘’")
    # a chat's trailing asides are no part of the thing: "an english teacher though", "pottery lol"
    phrase = re.sub(r"(?:\s+(?:though|too|now|lol|haha|anyway|actually|also|either|tho))+$", "", phrase, flags=re.IGNORECASE)
    if not phrase or re.search(r"\b(and|or|as well as|like)\b|,", phrase):
        return ""
    if fold(phrase.split()[0]) in ("my", "your", "his", "her", "our", "their", "it", "this", "that", "both"):
        return ""
    return phrase if len(phrase.split()) <= _MAX_ANSWER_WORDS else ""


def _favorite_kind(words: str) -> str:
    """The kind of thing a favourite is, cut before a function word: "my favorite because of christmas"
    names no kind ("" ); "favorite band ever" → "band"."""
    kept = []
    for word in words.lower().split():
        if word in _FUNCTION_WORDS:
            break
        kept.append(word)
    return " ".join(kept)


_FUNCTION_WORDS = frozenset(
    "because of for to and but so in on at too since now ever of all is was as by with from than when".split()
)


def _place(doc: Any, words: str) -> str:
    """The place a phrase opens with, when the parse calls it a place (GPE/LOC): "Sweden 4 years ago" →
    "Sweden"; typed in lowercase, printed as a person writes it ("the uk" → "the UK")."""
    the = words.lower().startswith("the ")
    bare = words[4:] if the else words
    for ent in doc.ents:
        name = ent.text[4:] if ent.text.lower().startswith("the ") else ent.text
        if ent.label_ in ("GPE", "LOC") and name and bare.startswith(name):
            return display_place(name, the=the or name != ent.text)
    return ""


def display_place(name: str, the: bool = False) -> str:
    """A place as a person writes it: "california" → "California", "uk" → "UK", "the uk" → "the UK";
    a name already capitalised is kept ("New York", "Sweden")."""
    name = name.strip()
    if name.lower().startswith("the "):
        the, name = True, name[4:]
    if name.islower():
        name = name.upper() if len(name) <= 3 else " ".join(w.capitalize() for w in name.split())
    return f"the {name}" if the else name


def _organization(doc: Any, words: str) -> str:
    """The organization a phrase opens with, when the parse calls it one (ORG): "Door Dash" in "Door Dash,
    and …"."""
    for ent in doc.ents:
        if ent.label_ == "ORG" and words.startswith(ent.text.removeprefix("the ")):
            return ent.text.removeprefix("the ")
    # a name the parse tags no entity ("Door Dash") still counts when each of its words is a proper noun
    names = words.split()
    tags = {t.text: t.pos_ for t in doc}
    if names and all(tags.get(w) == "PROPN" for w in names) and not any(e.text == words and e.label_ == "PERSON" for e in doc.ents):
        return words
    return ""


def _singular(noun: str) -> str:
    if noun in ("children", "kids"):
        return "child"
    if noun == "puppies":
        return "puppy"
    for key in (*KIN, *PETS):
        if noun in (key + "s", key + "es"):
            return key
    return noun


def _kind_of(noun: str) -> str:
    noun = noun.lower()
    if noun in PETS:
        return PETS[noun]
    return KIN.get(noun, "")


def _name_kind(kind: str) -> str:
    return TruthType.PERSON.value if kind in KIN.values() else TruthType.OTHER.value


def _last_noun(text: str) -> str:
    found = _LAST_NOUN.findall(text)
    return found[-1].lower() if found else ""


def _speaker_lines_before(context: str, sentence: str, speaker: str) -> str:
    """The speaker's own lines among the three lines before the sentence's line ("I got a puppy!" …
    "What's her name?" … "Her name is Coco")."""
    at = context.find(sentence)
    if at < 0:
        return ""
    start = context.rfind("\n", 0, at) + 1
    lines = context[:start].rstrip("\n").split("\n")[-3:]
    own = [ln for ln in lines if ln.startswith(speaker + ":")]
    this_line = context[start:at]
    return "\n".join([*own, this_line])


def addressee(context: str, speaker: str) -> str:
    """The other speaker of a two-person chat ("" when there is not exactly one)."""
    names = {m.group(1) for m in re.finditer(r"(?m)^([A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}):\s", context)}
    others = names - {speaker}
    return next(iter(others)) if len(others) == 1 else ""
