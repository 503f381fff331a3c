"""What a person or a company did to a thing, and when, read from conversations, mail and filings,
whose objects are common noun phrases no NER type covers: "Melanie: I painted a sunrise last year" →
"What did Melanie paint?" → "a sunrise"; "Kestrel Motors assembles electric delivery vans" → "What
does Kestrel Motors assemble?"; "Caroline: I went to a LGBTQ support group yesterday" in the session
of 8 May 2023 → "When did Caroline go to the LGBTQ support group?" → "7 May 2023" (`dated_facts`,
with datagen.dates; the verifier recomputes the date).

The subject is a chat turn's or a mail's speaker standing for "I" (`naming.chat_speaker`), or, in a
document without a title to ask about, a company a filing says does something as its business.
Only verbs whose object is a thing one can name are read (`ACTIVITY_VERBS`; never "had", "did",
"said"), in a plain statement (past tense, "have" + participle, a habit such as "I play clarinet",
a company's present tense, a plan "I'm going to… next month"): no question, negation, modal,
condition or reported wish ("I want to buy a house" is no purchase).

The answer is the object's own words (a verbatim span, so the verifier's exact-answer check holds):
a noun phrase of at most six words, no pronoun or person ("it", "my kids"), no clause or list. The
question names no object, so it is determined only when its subject did that verb to one thing in
the whole corpus: `unique_activities` drops every (subject, verb) stated with two different objects
anywhere, counting the mentions no question could be written from ("did I tell you I read Moby
Dick?"), and every dated act whose thing ("the pride parade", whatever the verb) has two dates.

A dated act is also asked for its thing, as LoCoMo asks it: "I donated my old car to a shelter
yesterday" (session of 4 December 2023) → "What did Maria donate to the shelter on 3 December
2023?" → "old car"; kept only when no other thing she donated may fall in those days (another dated
donation whose days overlap, or an undated one told in a session written after they began). "We"
dates the speaker's act too ("We went camping last week"); "had a great time at the pride event last
month" asks "When was Caroline at the pride event?".
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import replace
from typing import Any

from datagen.chat_lists import list_groups
from datagen.dates import date_phrase, date_span, is_future, relative_dates
from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.syntax import entity_of, tidy
from datagen.types import TruthType

RELATION_SHAPE = "thing"  # the relation key "lemma|thing|other" marks a noun-phrase object
DATED_THING_SHAPE = "what-when"  # "donate@December 2023:car|what-when|other": what one act dated so did to
WITH_SHAPE = "with"  # "take:work:take up the community work|with|other": who one act was done with
WHY_SHAPE = "why"  # "take:trip:the short trip to rome|why|other": what one act was for, in its own words
DATED_SHAPE = "when"  # "go:group:to the lgbtq support group|when|date": the date of one act (verb:thing:words)
# Lemmas whose direct object is a thing a person or company makes, buys, visits or takes up: what
# LoCoMo's single-hop questions ask ("What did Melanie paint?", "What did Caroline adopt?").
ACTIVITY_VERBS = frozenset(
    "paint draw sketch bake cook knit sew sculpt build make craft design invent compose write publish record "
    "buy purchase order sell adopt rescue plant grow visit attend join start found open launch finish complete "
    "read watch learn study teach play win receive earn lose find collect organize organise host decorate "
    "renovate repair fix restore photograph assemble manufacture produce supply acquire operate close "
    "take get try see pick celebrate perform practice practise donate hold throw run pass fail explore "
    "sprain injure break tear own manage catch hunt raise breed brew sing ride fly foster speak".split()
)
# "What did Maria join in June 2023?": an act dated by the sentence, asked for its thing; not the verbs
# whose object says little of what was done ("had an interview", "got some feedback", "took a trip").
_WHAT_WHEN_VERBS = ACTIVITY_VERBS - frozenset("get try see pick take".split())
# What a company does as its business, in a filing's present tense ("Kestrel Motors assembles vans").
BUSINESS_VERBS = frozenset(
    "assemble manufacture produce make build supply sell distribute operate design develop own publish "
    "grow mine refine ship".split()
)
# where one went that names no place ("went to a place I've always wanted to see"); "went for a walk" is told
_NOWHERE = frozenset("place places spot somewhere something thing things anywhere".split())
# "I play clarinet": the present tense of "I" states a habit only for these (not "I get help").
HABITS = frozenset(
    "play read watch collect write paint draw cook bake knit sew practice practise study teach grow run own manage "
    # what people tell of their pastimes and trades in the present ("I catch rainbow trout", "I raise chickens")
    "catch hunt raise breed brew restore fix build sing ride fly foster rescue speak".split()
)
# Heads that name no thing: pronouns, placeholders, and what one "has" without doing ("had a blast").
_VAGUE = frozenset(
    "thing things something anything everything nothing stuff lot lots ton tons bunch one ones bit kind sort way time "
    "times day days blast fun chance moment experience feeling idea look break step walk care part place "
    "advantage note sense hold touch notice action connection connections progress difference decision "
    "decisions mistake mistakes effort impact change changes memory memories help support advice "
    # a stretch of time is no thing done: "I spent an hour watching …" → "When did Leo spend the hour?"
    "hour hours minute minutes while "
    # what anything learned is: "What was Lucy learning in May 2023?" → "a new skill" tells nothing
    "skill skills".split()
)
# People are asked with "who", not "what" ("What did Melanie take?" → "the kids" is no thing she took).
_PEOPLE = frozenset(
    "kids kid children child family friends friend people folks son daughter sons daughters wife husband "
    "mom dad mother father parents brother sister partner team teammates colleagues students".split()
)
# One relative, whom "the" would not name ("took my son to…" is no "took the son to…").
_KIN = frozenset("son daughter wife husband mom dad mother father brother sister partner boyfriend girlfriend".split())
_PERSONAL = frozenset("i me my mine you your yours we us our ours it its this that these those".split())
_MAX_OBJECT_TOKENS = 6
# A verb and object that say how things went, not a thing done: "make a difference", "got this".
_IDIOMS = frozenset(
    [("make", w) for w in "difference progress sense team impact effort decision change changes memories point "
     "friends mistake mistakes living money time way".split()]
    + [("get", w) for w in "this chance idea hang feeling sense point lot".split()]
    + [("take", w) for w in "care time chance break step moment look".split()]
    + [("find", w) for w in "way time peace balance".split()]
    + [("join", "force")]  # "joined forces with…"
    + [("learn", w) for w in "lesson lessons".split()]  # "I learned my lesson"
    + [("lose", w) for w in "mind temper track touch patience cool weight sleep interest hope faith count".split()]
    + [("break", w) for w in "heart rule rules ice bank silence habit".split()]
    + [("hurt", w) for w in "feeling feelings".split()]
    + [("see", w) for w in "point way impact".split()]
)
_ADVERB_PARTICLES = frozenset("together up out off back on away down over".split())
# Light verbs: the verb says little, the object says what was done ("took a trip", "got a job"), so
# "What did John take?" asks nothing one can tell apart; their thing is asked with its date only.
_LIGHT_VERBS = frozenset("have get take pick try see".split())
# What one "has" that happened on a day: an event ("had a picnic", "had an interview"); anything else one
# "has" is a state or a figure of speech ("had a setback", "had a real battle", "had a huge writing issue").
_HAD_EVENTS = frozenset(
    "picnic party interview meeting dinner lunch breakfast brunch barbecue bbq cookout potluck game match concert "
    "show gig exhibition exhibit call-out baby surgery operation appointment checkup check-up exam test wedding "
    "birthday celebration recital performance session class lesson date trip vacation holiday tournament "
    "competition race photoshoot shoot reunion sleepover sale ceremony graduation fundraiser workshop meetup "
    "get-together gathering playdate tryout audition seminar conference festival fair camp retreat tour accident "
    "garden-party tasting".split()
)
# Objects of a light verb that are no thing done: "picked up a new hobby", "got some feedback", "took a hit".
_ABSTRACT = frozenset(
    "setback setbacks issue issues problem problems battle battles incident struggle struggles challenge challenges "
    "trouble troubles conversation conversations talk talks chat chats discussion argument fight realization "
    "breakthrough thought thoughts situation crisis mess hobby hobbies habit habits skill skills interest interests "
    "tip tips feedback news inspiration motivation confidence courage strength lesson lessons hit week weekend "
    "month year night morning evening afternoon rest nap shot risk leap plunge".split()
)


def activity_facts(doc: Any, doc_id: str, chunk_id: str, text: str, name: str, speaker: str) -> list[Fact]:
    """(subject, verb, noun-phrase object) facts of one parsed sentence (see the module docstring).
    name: the document's name ("" when it has none to ask about); speaker: who "I" is, or ""."""
    out = []
    for verb in doc:
        if verb.pos_ != "VERB" or _lemma_of(verb) not in ACTIVITY_VERBS:
            continue
        subject = _subject(verb, name, speaker, we=True)
        obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if subject is None or obj is None:
            continue
        relation = f"{_lemma_of(verb)}|{RELATION_SHAPE}|{TruthType.OTHER.value}"
        if (_lemma_of(verb), obj.lemma_.lower().strip("-–—")) in _IDIOMS:
            continue  # "I learned my lesson", "we can make a difference": no thing, no witness of one
        # "I sold my old car" → "What did Ari sell?" → "old car": the speaker's own thing is asked without
        # the "my" (a relative stays no thing: `_PEOPLE`)
        answer = _object_phrase(obj, own=bool(speaker) and subject == speaker)
        if _lemma_of(verb) in _INJURIES and not _body_part(obj, answer):
            answer = ""  # "broke my leg skiing": the parse's compound is no body part
        if _bare_product(_lemma_of(verb), obj):
            answer = ""  # "I painted a new picture": what a painting is called, not which (a witness still)
        alone = not any(
            c.dep_ == "nsubj" and (c.lower_ == "we" or any(g.dep_ == "conj" and g.lower_ == "i" for g in c.children))
            for c in verb.children
        )
        # "we made a cake" is a witness only: what the speaker made alone may be something else
        ask = (
            _ask(verb) if alone and _clean(verb) and not text.rstrip().endswith("?") and _lemma_of(verb) not in _LIGHT_VERBS
            else ""
        )
        if not answer or not ask or fold(answer) in fold(subject) or fold(subject) in fold(answer):
            # no question, but a witness: "I'd love to paint that lake" or "I painted it" tells that
            # "What did Melanie paint?" may have another answer (`unique_activities`)
            if (_lemma_of(verb), obj.lemma_.lower()) in _IDIOMS:
                continue  # "we can make a difference" made nothing: no witness of another thing made
            answer, ask = obj.doc[obj.left_edge.i : obj.right_edge.i + 1].text, ""
        out.append(
            Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=subject, about_doc=False,
                relation=relation, answer=answer, kind=TruthType.OTHER.value, ask=tidy(ask),
            )
        )
    return out


def dated_facts(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, speaker: str, anchor: dt.date | None
) -> list[Fact]:
    """When the subject did something, from a relative time the sentence gives and the date its
    document was written (`datagen.dates`): "Caroline: I went to a LGBTQ support group yesterday" in
    the session of 8 May 2023 → "When did Caroline go to the LGBTQ support group?" → 7 May 2023.

    One time expression per sentence (else which act it dates is a guess), attached to a past-tense
    verb of the subject whose complements are a short object or prepositional phrase, "a/an"
    becoming "the" (the question refers to the thing the sentence introduced)."""
    if anchor is None or text.rstrip().endswith("?"):
        return []
    found = relative_dates(text, anchor)
    if len(found) != 1:
        return [*_undated_trips(doc, doc_id, chunk_id, text, name, speaker),
                *_undated_purposes(doc, doc_id, chunk_id, text, name, speaker),
                *(_ongoing(doc, doc_id, chunk_id, text, speaker, anchor) if not found else [])]
    expression, answer = found[0]
    start = text.find(expression)
    words = [t for t in doc if start <= t.idx < start + len(expression)]
    root = next((t for t in words if t.head not in words), None)
    verb = root.head if root is not None else None
    if verb is not None and verb.pos_ != "VERB" and root.dep_ in ("appos", "npadvmod", "amod"):
        # "I just joined a new activist group last Tues": the parser hangs the date on the object it
        # ends; it dates the verb whose object or prepositional object that is
        verb = _verb_of_object(verb, words)
    if verb is None or verb.pos_ != "VERB":
        return []
    got = _got_passive(verb, {t.i for t in words}) if speaker and not is_future(expression) else None
    if got is not None:
        # "Last month I got hurt", "I got noticed by fashion editors last week": an event of the speaker's
        return [Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"get:{verb.lemma_.lower()}:{fold(got)}|{DATED_SHAPE}|{TruthType.DATE.value}", answer=answer,
            kind=TruthType.DATE.value, ask=tidy(f"When did {{s}} get {got}?"),
        )]
    # "we went camping": the speaker went too; "my grandma passed away": the speaker's grandma
    subject = _subject(verb, name, speaker, we=True, kin=True)
    if subject is None:
        return []
    skip = {t.i for t in words}
    # the thing the act is about, so that "the pride parade" and "the LGBTQ+ pride parade" count as
    # one question with two answers (`unique_activities`); an act we cannot phrase still counts
    dobj = next((c for c in verb.children if c.dep_ == "dobj" and c.lower_ not in _PEOPLE), None)
    pobj = next(
        (g for c in verb.children if c.dep_ == "prep" and c.i > verb.i for g in c.children if g.dep_ == "pobj"), None
    )
    lemma = _lemma_of(verb)
    if lemma in _STATES:
        return []  # "Loved the show yesterday": a feeling, not a thing done
    # "I went hiking last week": the activity is the thing
    # (the parser makes "camping" of "went camping" an object as often as a complement)
    doing = next((c for c in verb.children if c.dep_ in ("xcomp", "dobj") and c.tag_ == "VBG" and c.i == verb.i + 1), None)
    if lemma != "go" or any(c.dep_ in ("dobj", "xcomp", "ccomp") for c in doing.children) if doing is not None else True:
        doing = None
    if doing is not None and dobj is not None and dobj.i == doing.i:
        dobj = None
    thing = dobj if dobj is not None else pobj if pobj is not None else doing
    witness = [
        Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=subject, about_doc=False,
            relation=f"{lemma}:{_thing_key(thing)}:|{DATED_SHAPE}|{TruthType.DATE.value}", answer=answer,
            kind=TruthType.DATE.value, ask="",
        )
    ] if thing is not None else []
    past = (
        _past(verb) and not is_future(expression) and _clean(verb)
        and (lemma != verb.lower_ or lemma in _SAME_PAST)
    )
    place = _had_time_at(verb)
    if place is not None:
        # "We had a great time at the pride event last month" → "When was Caroline at the pride
        # event?", keyed as going there: one question whichever way the visits are told
        sub = _act_words(place)
        pobj = next(c for c in place.children if c.dep_ == "pobj")
        if not past or sub is None or any(t.i in skip for t in sub):
            return [replace(w, relation=f"go:{_thing_key(pobj)}:|{DATED_SHAPE}|{TruthType.DATE.value}") for w in witness]
        rest = _words(sub)
        return [
            Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=subject, about_doc=False,
                relation=f"go:{_thing_key(pobj)}:{fold(rest)}|{DATED_SHAPE}|{TruthType.DATE.value}", answer=answer,
                kind=TruthType.DATE.value, ask=tidy(f"When was {{s}} {rest}?"),
            )
        ]
    if not _concrete_act(lemma, dobj):
        return witness  # "had a setback last week", "picked up a new hobby": no thing done to ask about
    if past:
        lead = f"When did {{s}} {lemma}"
    elif verb.tag_ == "VBG" and (is_future(expression) or expression.lower() == "this month") and _planned(verb):
        lead = f"When is {{s}} {verb.lower_}"  # "I'm going to a conference next month"
    else:
        return witness
    parts: list[list[Any]] = []
    lost = False  # words that told the thing apart were left out
    company = ""  # who the act was done with, when the act's words leave them out
    for child in verb.children:
        if child.dep_ == "advmod" and child.lower_ in _ADVERB_PARTICLES and child.i == verb.i + 1:
            parts.append([child])  # "putting together an art show"
            continue
        if child.i in skip or child.i < verb.i or child.dep_ in ("nsubj", "punct", "cc", "conj", "advmod", "intj", "npadvmod"):
            continue  # what comes before the verb is its subject or a fronted aside ("On another note, I made…")
        core = any(t.head == verb and t.dep_ in ("dobj", "prep") for p in parts for t in p)
        if doing is not None and child.i == doing.i:
            parts.append([doing])  # "go hiking"
            continue
        if child.dep_ == "xcomp" and not core and _decided(verb, child):
            sub = _act_words(child)  # "decided to run for office again": what was decided is the act
            if sub is None or any(t.i in skip for t in sub):
                return witness
            parts.append(sub)
            break
        if child.dep_ not in ("dobj", "prep", "prt"):
            if core:
                break  # "made a line last week to show off my style": the act is told, then why
            return witness  # "went to see…", "said that…": more than a thing done
        sub = _act_words(child, poss=not core, skip=skip)
        if sub is None or any(t.i in skip for t in sub):
            if core and child.dep_ == "prep":
                lost = True
                company = _company(child)
                break  # "took up community work | with my friends from church": the act without the company
            return witness
        if child.dep_ == "dobj" and (child.lower_ in _VAGUE or child.pos_ not in ("NOUN", "PROPN")):
            return witness
        if child.dep_ == "prep" and any(t.dep_ == "pobj" and t.head == child and t.lower_ in _NOWHERE for t in sub):
            return witness  # "went to a place I've always wanted to see": "When did Leo go to the place?"
        parts.append(sub)
        if len(sub) < len(list(child.subtree)):
            lost = lost or any(t.lower_ in _PERSONAL for t in child.subtree)  # "my writing | for my book"
            break  # a clause or company was cut from this phrase: what follows may belong to it
    words_of = [t for p in parts for t in p if t.head.i == dobj.i] if dobj is not None else []
    if lost and words_of and all(t.dep_ in ("det", "poss") for t in words_of):
        return witness  # "finished up my writing | for my book": "the writing" alone names no one thing
    if not any(
        p[0].head == verb and p[0].dep_ in ("dobj", "prep", "xcomp") or any(t.dep_ in ("dobj", "pobj") for t in p)
        or (doing is not None and p[0].i == doing.i)
        for p in parts
    ) and not _event(lemma, parts, verb):
        return witness  # "When did Caroline go?" asks nothing one can tell apart
    # "went to a convention together": who with is not said, "together" is no part of the act
    rest = _words([
        t for p in parts for t in p if not (t.lower_ == "together" and t.dep_ == "advmod" and t.i != verb.i + 1)
    ])
    key = f"{lemma}:{_thing_key(thing) if thing is not None else ''}:{fold(rest)}"
    out = [
        Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=subject, about_doc=False,
            relation=f"{key}|{DATED_SHAPE}|{TruthType.DATE.value}", answer=answer,
            kind=TruthType.DATE.value, ask=tidy(f"{lead} {rest}?"),
        )
    ]
    thing_answer = _object_phrase(dobj, own=True) if dobj is not None and past and lemma in _WHAT_WHEN_VERBS else ""
    if thing_answer and date_span(answer) is not None:
        # the other way round, as LoCoMo asks it: "What did Maria donate to the homeless shelter in
        # December 2023?" → "old car"; the rest of the act without its object, the date as a phrase
        others = _words([t for p in parts for t in p if not any(u.i == dobj.i for u in p)])
        out.append(_said(
            doc_id, chunk_id, text, subject, f"{lemma}@{answer}:{fold(dobj.text)}|{DATED_THING_SHAPE}|{TruthType.OTHER.value}",
            thing_answer, f"What did {{s}} {lemma} {others} {date_phrase(answer)}?",
        ))
    if not company:  # "took up some community work | with my friends": the phrase hangs on the object
        said = {t.i for p in parts for t in p}
        company = next((
            found for c in [*verb.children, *(dobj.children if dobj is not None else ())]
            if c.dep_ == "prep" and c.i not in said and (found := _company(c))
        ), "")
    if company and past:
        # who with, when the sentence says it: "Yesterday, I took up some community work with my friends
        # from church" → "Who did Maria take up the community work with?" → "friends from church"
        out.append(_said(
            doc_id, chunk_id, text, subject, f"{key}|{WITH_SHAPE}|{TruthType.OTHER.value}", company,
            f"Who did {{s}} {lemma} {rest} with?",
        ))
    purpose = _purpose(verb, parts) if past else None
    if purpose:
        # why, when the sentence says it: "Took a short trip last week to Rome to clear my mind" →
        # "Why did Jon take the short trip to Rome?" → "to clear my mind a little" (its own words)
        out.append(_said(
            doc_id, chunk_id, text, subject, f"{key}|{WHY_SHAPE}|{TruthType.OTHER.value}", purpose,
            f"Why did {{s}} {lemma} {rest}?",
        ))
    place = _place(parts, verb) if past and lemma in _TRAVEL and subject == speaker else None
    if place is not None and date_span(answer) is not None:
        # where one went, asked by the date: "I went to a LGBTQ support group yesterday" → "Where did
        # Caroline go on 7 May 2023?" → "a LGBTQ support group"; kept only when no other going of hers
        # may fall in those days (`unique_activities`, with the undated trips `_undated_trips` reads)
        words, head = place
        others = _words([t for p in parts for t in p if not any(t.i == u.i for u in words) and t.lower_ != "together"])
        out.append(_said(
            doc_id, chunk_id, text, subject, f"{lemma}@{answer}:{fold(head.text)}|{DATED_THING_SHAPE}|{TruthType.OTHER.value}",
            verb.doc[words[1].i : words[-1].i + 1].text, f"Where did {{s}} {lemma} {others} {date_phrase(answer)}?",
        ))
    return out


def _got_passive(verb: Any, skip: set[int]) -> str | None:
    """The words after "got" of a plain "I got hurt", "I got mentored by this amazing business dude"
    (a participle, "got" its passive auxiliary, "I" its subject, at most one "by"/prepositional phrase
    right after it), as the question says them ("hurt", "mentored by the amazing business dude"), or None."""
    if verb.tag_ != "VBN" or (verb.dep_ not in ("ROOT", "conj") and not _after_speaker(verb)):
        return None
    auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass", "neg")]
    if [(a.dep_, a.lower_) for a in auxes] != [("auxpass", "got")]:
        return None
    if not any(c.dep_ == "nsubjpass" and c.lower_ == "i" for c in verb.children):
        return None
    parts = [verb]
    after = next((c for c in verb.children if c.i == verb.i + 1 and c.dep_ in ("agent", "prep")), None)
    if after is not None:
        sub = _act_words(after, skip=skip)
        if sub is None or any(t.i in skip for t in sub) or len(sub) < 2:
            return None
        parts.extend(sub)
    return _words(parts)


def _concrete_act(lemma: str, dobj: Any | None) -> bool:
    """Whether a light verb's act names a thing done: "have" an event ("had a picnic", "had our first
    call-out"), "take"/"get"/"pick up" anything but an abstract noun; other verbs always do."""
    if lemma not in _LIGHT_VERBS:
        return True
    if dobj is None:
        return lemma != "have"  # "took off", "got back": their particle or place is the act
    head = _hyphened(dobj).lower()
    return head in _HAD_EVENTS if lemma == "have" else head not in _ABSTRACT and head not in _VAGUE


def _hyphened(token: Any) -> str:
    """A head with the words hyphened to it before ("call-out", which the parser splits in three)."""
    i = token.i
    while i >= 2 and token.doc[i - 1].text == "-" and not token.doc[i - 1].whitespace_ and not token.doc[i - 2].whitespace_:
        i -= 2
    return token.doc[i : token.i + 1].text


def _company(prep: Any) -> str:
    """The people of a "with my friends from church" phrase, without the speaker's "my" ("friends from
    church"), or "" when it names no people or says more than a short phrase."""
    if prep.lower_ != "with":
        return ""
    obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
    if obj is None or obj.lower_ not in _PEOPLE:
        return ""
    words = [t for t in obj.subtree if not (t.dep_ == "poss" and t.head == obj and t.lower_ in ("my", "our"))]
    if len(words) > _MAX_OBJECT_TOKENS or any(t.lower_ in _PERSONAL or t.is_punct or t.dep_ in ("relcl", "acl", "conj") for t in words):
        return ""
    if words[-1].i - words[0].i + 1 != len(words):
        return ""
    return prep.doc[words[0].i : words[-1].i + 1].text


_MAX_PURPOSE_WORDS = 12


def _purpose(verb: Any, parts: list[list[Any]]) -> str:
    """The "to …" clause after an act that says what it was for ("… to clear my mind a little"), in the
    sentence's words, or "": a plain infinitive with no clause of its own, after the act's words."""
    end = max((t.i for p in parts for t in p), default=verb.i)
    for c in verb.children:
        if c.dep_ != "advcl" or c.tag_ != "VB" or c.i <= end:
            continue
        to = next((a for a in c.children if a.dep_ == "aux" and a.lower_ == "to" and a.i == c.i - 1), None)
        if to is None:
            return ""
        words = list(c.subtree)
        while words and words[-1].is_punct:
            words.pop()
        if len(words) > _MAX_PURPOSE_WORDS or any(
            t.dep_ in ("advcl", "ccomp", "relcl") or (t.dep_ == "conj" and t.pos_ == "VERB") for t in words if t is not c
        ):
            return ""
        start = c.left_edge.i if c.left_edge.lower_ == "for" else to.i  # "for customers to make orders"
        return verb.doc[start : words[-1].i + 1].text.rstrip(" -–—")
    return ""


# Verbs of going somewhere, whose place a question may ask by the date ("Where did Jon go on …?").
_TRAVEL = frozenset("go travel fly drive move head return".split())
_PLACE_PREPS = frozenset("to in at".split())


def _place(parts: list[list[Any]], verb: Any) -> tuple[list[Any], Any] | None:
    """The act's "to/in/at <place>" part and the place's head, when it names a place in plain words
    (contiguous, no pronoun, no person), else None."""
    for p in parts:
        if p[0].head != verb or p[0].dep_ != "prep" or p[0].lower_ not in _PLACE_PREPS or len(p) < 2:
            continue
        head = next((t for t in p if t.dep_ == "pobj" and t.head == p[0]), None)
        if head is None or head.pos_ not in ("NOUN", "PROPN") or head.lower_ in _PEOPLE or head.lower_ in _VAGUE:
            return None
        # "to a convention | together": who with is no part of the place
        p = [t for t in p if not (t.dep_ == "advmod" and t.lower_ == "together")]
        if any(t.lower_ in _PERSONAL for t in p) or p[-1].i - p[1].i + 1 != len(p) - 1:
            return None
        return p, head
    return None


# What one is doing these days, told in the present ("I'm currently reading The Lean Startup"): asked
# by the month of the session that tells it ("What was Jon reading in March 2023?").
_ONGOING = frozenset(
    "read write build learn plan paint study practice practise organize organise prepare teach watch work train "
    "knit sew draw design compose record".split()
)
_ONGOING_PREP = {"work": "on", "train": "for"}  # "working on my online store", "training for a marathon"


def _ongoing(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, anchor: dt.date) -> list[Fact]:
    """"Jon: I'm currently reading a business book" in a session of March 2023 → "What was Jon reading in
    March 2023?" → "a business book": a plain "I'm …ing" of the speaker, its object one thing; kept by
    `unique_activities` only when nothing else he read may fall in that month."""
    out = []
    for verb in doc:
        lemma = verb.lemma_.lower()
        if verb.tag_ != "VBG" or lemma not in _ONGOING or not speaker:
            continue
        if verb.dep_ != "ROOT" and not _after_speaker(verb):
            continue
        auxes = [c for c in verb.children if c.dep_ == "aux"]
        if len(auxes) != 1 or auxes[0].lower_ not in ("'m", "am", "’m") or any(c.dep_ in ("neg", "mark") for c in verb.children):
            continue
        if not any(c.dep_ == "nsubj" and c.lower_ == "i" for c in verb.children):
            continue
        prep = _ONGOING_PREP.get(lemma)
        if prep:
            at = next((c for c in verb.children if c.dep_ == "prep" and c.lower_ == prep), None)
            obj = next((c for c in at.children if c.dep_ == "pobj"), None) if at is not None else None
        else:
            obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
        thing = _object_phrase(obj, own=True) if obj is not None else ""
        if not thing or (len(thing.split()) <= 2 and any(c.dep_ == "prep" for c in obj.rights)):
            continue  # "a trip | to the East Coast": the thing without its place says too little
        after = obj.right_edge.i + 1
        if after < len(doc) and doc[after].lower_ in ("and", "or", "&"):
            continue  # "my business | and some new dance routines": maybe one of several things
        month = f"{anchor:%B} {anchor.year}"
        out.append(_said(
            doc_id, chunk_id, text, speaker, f"{lemma}@{month}:{fold(obj.text)}|{DATED_THING_SHAPE}|{TruthType.OTHER.value}",
            thing, f"What was {{s}} {verb.lower_} {prep or ''} {date_phrase(month)}?",
        ))
    return out


def _undated_purposes(doc: Any, doc_id: str, chunk_id: str, text: str, name: str, speaker: str) -> list[Fact]:
    """Why the speaker did a thing, told without a date: "I built a new website for customers to make
    orders" → "Why did Gina build the new website?" → "for customers to make orders"; the act is its
    verb and object alone (and a particle), a plain past statement of "I"."""
    out = []
    for verb in doc:
        if verb.pos_ != "VERB" or not _past(verb) or _lemma_of(verb) in _STATES or not _clean(verb):
            continue
        if not speaker or _subject(verb, name, speaker) != speaker or (_lemma_of(verb) == verb.lower_ and verb.lower_ not in _SAME_PAST):
            continue
        dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if dobj is None or dobj.lower_ in _VAGUE or dobj.lower_ in _PEOPLE or dobj.pos_ not in ("NOUN", "PROPN"):
            continue
        sub = _act_words(dobj)
        if sub is None:
            continue
        parts = [[c] for c in verb.children if c.dep_ == "prt"] + [sub]
        purpose = _purpose(verb, parts)
        if not purpose:
            continue
        rest = _words([t for p in parts for t in p])
        out.append(_said(
            doc_id, chunk_id, text, speaker, f"{_lemma_of(verb)}:{_thing_key(dobj)}:{fold(rest)}|{WHY_SHAPE}|{TruthType.OTHER.value}",
            purpose, f"Why did {{s}} {_lemma_of(verb)} {rest}?",
        ))
    return out


def _undated_trips(doc: Any, doc_id: str, chunk_id: str, text: str, name: str, speaker: str) -> list[Fact]:
    """The speaker's goings a sentence tells without one date ("I went to the beach with the kids"):
    no question, but witnesses that a "Where did Melanie go on …?" told elsewhere may have another
    answer (`unique_activities` counts them as undated acts of the verb)."""
    out = []
    for verb in doc:
        if verb.pos_ != "VERB" or not _past(verb) or _lemma_of(verb) not in _TRAVEL:
            continue
        if _subject(verb, name, speaker, we=True) != speaker or not speaker:
            continue
        for prep in verb.children:
            obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep.dep_ == "prep" else None
            if obj is not None and prep.lower_ in _PLACE_PREPS:
                out.append(_said(doc_id, chunk_id, text, speaker, f"{_lemma_of(verb)}|{RELATION_SHAPE}|{TruthType.OTHER.value}", obj.text, ""))
                break
    return out


# Verbs of feeling and thinking: what one felt yesterday is no act a question dates.
_STATES = frozenset(
    "love like enjoy hate miss want need feel think know mean appreciate remember forget wish hope realize "
    "realise wonder guess bet".split()
)
# Acts that are events by their verb alone ("I graduated last week", "my grandma passed away"): a
# question without an object still names one thing that happened to its subject.
_EVENTS = frozenset(
    "graduate retire marry relocate pass:away break:down break:up move:out move:in move:away".split()
)
# "I decided to run for office again last week": the decision is dated, and it names the act.
_DECIDE = frozenset("decide start begin choose help".split())


def _event(lemma: str, parts: list[list[Any]], verb: Any) -> bool:
    """Whether an act told with no object or place is an event by its verb (and particle) alone,
    with nothing else said after the verb ("I graduated last week!")."""
    particles = [t.lower_ for p in parts for t in p if t.dep_ == "prt" and t.head == verb]
    if len(parts) != len(particles):
        return False
    return ":".join([lemma, *particles]) in _EVENTS


def _decided(verb: Any, child: Any) -> bool:
    """"decided to run for office", "started to learn the guitar": an infinitive after a verb of
    deciding or beginning."""
    to = any(c.dep_ == "aux" and c.lower_ == "to" and c.i == child.i - 1 for c in child.children)
    # "helped renovate a community center" needs no "to"
    return verb.lemma_.lower() in _DECIDE and child.tag_ == "VB" and (to or verb.lemma_.lower() == "help")


def _verb_of_object(noun: Any, date_words: list[Any]) -> Any | None:
    """The verb whose direct object (or the object of whose preposition) `noun` is, when the date's
    words end that object's phrase ("joined [a new LGBTQ activist group last Tues]"), else None."""
    if noun.pos_ not in ("NOUN", "PROPN") or max(t.i for t in noun.subtree) != max(t.i for t in date_words):
        return None
    head = noun.head
    if noun.dep_ == "dobj" and head.pos_ == "VERB":
        return head
    if noun.dep_ == "pobj" and head.dep_ == "prep" and head.head.pos_ == "VERB":
        return head.head
    return None


def _said(doc_id: str, chunk_id: str, text: str, subject: str, relation: str, answer: str, ask: str) -> Fact:
    """A fact one sentence states of its speaker (or a relative), asked with `ask`; its answer a phrase."""
    return Fact(
        doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=subject, about_doc=False, relation=relation,
        answer=answer, kind=TruthType.OTHER.value, ask=tidy(ask),
    )


def _thing_key(token: Any) -> str:
    """Which thing a dated act is about: its head with the noun right before it ("art show", "talent
    show": two shows; "pride parade" and "LGBTQ+ pride parade": one)."""
    compound = next((c for c in token.lefts if c.dep_ == "compound" and c.i == token.i - 1), None)
    return fold(f"{compound.text} {token.text}" if compound is not None else token.text)


def _words(tokens: list[Any]) -> str:
    """Tokens as the question says them: "a/an/some/my/our" become "the" (the question refers to the
    thing the sentence introduced), and the speaker's praise of it is left out (`_praise`)."""
    tokens = sorted((t for t in tokens if not _praise(t)), key=lambda t: t.i)
    if not tokens:
        return ""
    return "".join(
        ("the" if t.dep_ in ("det", "poss") and t.lower_ in ("a", "an", "some", "my", "our", "this", "that", "these", "those")
         and not _as_role(t) else t.text)
        + (t.whitespace_ if nxt is not None and nxt.i == t.i + 1 else " ")
        for t, nxt in zip(tokens, [*tokens[1:], None], strict=True)
    ).strip()


# What the speaker thought of a thing, not which thing it was: "I went to a really nice movie theater" is
# asked "When did Jack go to the movie theater?", not "… the really nice movie theater?", which no one
# who read the chat would say (issue 36, session 37). "good" stays: "a good cause" is the thing's name.
_PRAISE = frozenset(
    "great nice amazing awesome wonderful fantastic lovely beautiful cute cool incredible terrific excellent "
    "fabulous gorgeous adorable delicious interesting stunning brilliant memorable unforgettable".split()
)


def _praise(token: Any) -> bool:
    """Whether a token is a praising adjective of a noun ("great" of "a great restaurant") or the
    intensifier of one ("really" of "really nice")."""
    word = token.head if token.dep_ == "advmod" and token.head.dep_ == "amod" else token
    return word.dep_ == "amod" and word.lower_ in _PRAISE and word.head.pos_ in ("NOUN", "PROPN") and not _named_in(word)


def _named_in(token: Any) -> bool:
    """A capitalised word inside a name ("the Great Wall", "Nice Work Café") is the name's, not praise."""
    return token.text[:1].isupper() and token.head.pos_ == "PROPN"


def _as_role(token: Any) -> bool:
    """"(lost my job) as a banker": a role keeps its "a", it is no thing the sentence introduced."""
    head = token.head
    return token.lower_ in ("a", "an") and head.dep_ == "pobj" and head.head.lower_ == "as"


_GOOD_TIME = frozenset("time blast ball fun day night experience".split())
# Past tenses spelled as their verb: any other verb whose lemma is its past form is a parser's guess
# ("retook" for "retake"), which "When did John retook…?" would repeat.
_SAME_PAST = frozenset("put cut set hit let quit read spread cost hurt shut bet bid burst cast fit split upset".split())


def _had_time_at(verb: Any) -> Any | None:
    """The "at" phrase of "had a great time / a blast at <a place or event>", or None."""
    if verb.lemma_.lower() not in ("have", "spend"):  # "had a great time at", "spent some time at"
        return None
    dobj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if dobj is None or dobj.lower_ not in _GOOD_TIME:
        return None
    at = next((c for c in [*verb.children, *dobj.children] if c.dep_ == "prep" and c.lower_ == "at" and c.i > dobj.i), None)
    if at is None or not any(c.dep_ == "pobj" and c.pos_ in ("NOUN", "PROPN") for c in at.children):
        return None
    return at


def _act_words(child: Any, *, poss: bool = True, skip: frozenset[int] | set[int] = frozenset()) -> list[Any] | None:
    """The words of one complement of a dated act, as the question repeats them: a clause that
    describes the thing is cut ("a violin concert | that we all enjoyed"), "my"/"our" before a thing
    becomes "the" (`dated_facts`: "donated my old car" → "donate the old car"); None when what is
    left is too long, holds a pronoun, a list or an aside (poss=False: a phrase after the act's own,
    "with my friends from church", keeps its "my" and is left out)."""
    cut = {t.i for c in child.subtree if c.dep_ in ("relcl", "acl") and c is not child for t in c.subtree}
    if cut and any(t.lower_ in _PEOPLE for t in child.subtree if t.i not in cut and t.pos_ == "NOUN"):
        return None  # "my friend | who is a fan of Harry Potter": without it, which friend?
    # "the community work | with my friends from church": the company, not the thing
    cut |= {
        t.i for c in child.subtree if c.dep_ == "prep" and c is not child and c.head is not child.head
        and any(u.lower_ in _PERSONAL for u in c.subtree) for t in c.subtree
    }
    sub = [t for t in child.subtree if t.i not in cut]
    while sub and sub[-1].i in skip and len(sub) > 1:
        sub.pop()  # the date that ends the phrase ("a new group | last Tues") is no part of the thing
    if any(t.i not in {u.i for u in sub} for t in child.doc[sub[0].i : sub[-1].i + 1]):
        return None  # the cut clause sat inside the phrase, not at its end
    for t in sub:
        if (
            poss and t.dep_ == "poss" and t.lower_ in ("my", "our") and t.head.lower_ not in _KIN and t.head.pos_ == "NOUN"
            and not (t.head.lower_ in _PEOPLE and t.head.tag_ == "NN")  # "the kids" are hers; "the friend" is anyone's
        ):
            continue  # "my old car" is the old car, "my kids" the kids; "my son" is no "the son"
        if t.dep_ == "det" and t.lower_ in _DEMONSTRATIVES and t.head.i == child.i and _named_enough(t.head):
            continue  # "this apple pie" (the one in the photo) is the apple pie; "this dress" says too little
        if t.text == "-" and not t.whitespace_ and t.i > 0 and not t.doc[t.i - 1].whitespace_:
            continue  # "service-focused"
        if t.lower_ in _PERSONAL or t.is_punct or t.dep_ in ("ccomp", "advcl", "conj", "appos"):
            return None
    return sub if len(sub) <= _MAX_OBJECT_TOKENS + 1 else None


_DEMONSTRATIVES = frozenset("this that these those".split())


def _named_enough(head: Any) -> bool:
    """Whether a noun says what it is without "this": it has a modifier ("this apple pie")."""
    return any(c.dep_ in ("compound", "amod") for c in head.lefts)


def _planned(verb: Any) -> bool:
    """"I'm going to a conference next month": a progressive of "I" with no negation, no clause above."""
    auxes = [c for c in verb.children if c.dep_ == "aux"]
    return (
        len(auxes) == 1 and auxes[0].lemma_ == "be" and (verb.dep_ == "ROOT" or _after_speaker(verb))
        and not any(c.dep_ in ("neg", "mark") for c in verb.children)
    )


def unique_activities(base: FactBase, anchors: dict[str, dt.date] | None = None) -> None:
    """Keep a noun-phrase fact only when its (subject, relation) has one answer in the whole corpus,
    counting the mentions no question could be written from (the question "What did Melanie paint?"
    names nothing else that could tell two paintings apart); drop those mentions.

    A dated one ("What did Maria donate in December 2023?") is kept when no other thing the subject
    did with that verb may fall in its dates: another dated act whose dates overlap, or an undated
    one told in a document written (`anchors`: doc id → date) after its dates began, or of unknown date."""
    # the sets a single-answer question cannot ask are asked as a whole ("What two things did Maria join?")
    base.lists = list_groups([f for facts in base.facts.values() for f in facts], RELATION_SHAPE)
    answers: dict[tuple[str, str], set[str]] = defaultdict(set)
    acts: dict[tuple[str, str], list[tuple[str, tuple[dt.date, dt.date] | None, str]]] = defaultdict(list)
    # A dated sentence gives its act twice, undated ("What did Maria join?" → a gym) and dated (… the
    # week before 16 June): the undated one has that sentence's date, not an unknown one. Counted as of
    # unknown date, "I joined a gym last week" (16 June) had blocked "Just yesterday I joined a nearby
    # church" (5 May) as though the gym might have been joined then (issue 36).
    told: dict[tuple[str, str, str, str], set[tuple[dt.date, dt.date]]] = defaultdict(set)
    for facts in base.facts.values():
        for f in facts:
            if _is_activity(f) and _shape(f) in (DATED_THING_SHAPE, DATED_SHAPE) and (span := _act(f)[1]):
                told[(fold(f.subject), _lemma(f), f.doc_id, f.sentence)].add(span)
    for facts in base.facts.values():
        for f in facts:
            if _is_activity(f):
                answers[_question_key(f)].add(fold(f.answer))
                if _shape(f) not in (WHY_SHAPE, WITH_SHAPE):  # what an act was for, or with whom, is no other act
                    thing, when, doc = _act(f)
                    spans = told.get((fold(f.subject), _lemma(f), f.doc_id, f.sentence), set())
                    if when is None and len(spans) == 1:  # one date told for the verb in its sentence
                        when = next(iter(spans))
                    acts[(fold(f.subject), _lemma(f))].append((thing, when, doc))
    for doc_id in list(base.facts):
        kept = [
            f for f in base.facts[doc_id]
            if not _is_activity(f) or (f.ask and (
                _alone_in_time(f, acts[(fold(f.subject), _lemma(f))], anchors or {}) if _shape(f) == DATED_THING_SHAPE
                else len(answers[_question_key(f)]) == 1
                # why or with whom: of one act, so its thing has at most one date ("two parades": which?)
                and (_shape(f) not in (WHY_SHAPE, WITH_SHAPE) or len(answers[(fold(f.subject), "when" + _question_key(f)[1][len(_shape(f)):])]) <= 1)
            ))
        ]
        if kept:
            base.facts[doc_id] = kept
        else:
            del base.facts[doc_id]


def _question_key(fact: Fact) -> tuple[str, str]:
    """What tells two facts' questions apart: the subject and the relation; for a dated act, the thing
    ("parade"), not the verb nor the words that describe it: "putting together an art show next month"
    and "having an art show next month", told in two sessions a month apart, date no one show."""
    relation = fact.relation
    shape = relation.split("|")[1]
    if shape in (DATED_SHAPE, WHY_SHAPE, WITH_SHAPE):
        # an act without a thing ("graduated", "decided to run for office") is told apart by its verb
        relation = ("when" if shape == DATED_SHAPE else shape) + ":" + (relation.split(":")[1] or "~" + relation.split(":")[0])
    return fold(fact.subject), relation


def _is_activity(fact: Fact) -> bool:
    shape = _shape(fact)
    if shape in (DATED_SHAPE, WHY_SHAPE, WITH_SHAPE):
        # an act's key is "verb:thing:words"; another reader's "X|with|person" (a prepositional
        # fact of a page, "X plays with the band") shares the shape's word but is no act
        return fact.relation.split("|")[0].count(":") == 2
    return shape in (RELATION_SHAPE, DATED_THING_SHAPE)


def _shape(fact: Fact) -> str:
    parts = fact.relation.split("|")
    return parts[1] if len(parts) > 1 else ""


def _lemma(fact: Fact) -> str:
    return re.split(r"[:@]", fact.relation.split("|")[0], maxsplit=1)[0]


def _act(fact: Fact) -> tuple[str, tuple[dt.date, dt.date] | None, str]:
    """(the thing, by its head word; the dates the act may fall in, None when not told; its document)."""
    head = fact.relation.split("|")[0]
    shape = _shape(fact)
    if shape == DATED_THING_SHAPE:
        when, _, thing = head.partition("@")[2].rpartition(":")
        return thing, date_span(when), fact.doc_id
    if shape == DATED_SHAPE:
        return head.split(":")[1].split()[-1:][0] if head.split(":")[1] else "", date_span(fact.answer), fact.doc_id
    words = fold(fact.answer).split()
    return (words[-1] if words else ""), None, fact.doc_id


def _alone_in_time(
    fact: Fact, acts: list[tuple[str, tuple[dt.date, dt.date] | None, str]], anchors: dict[str, dt.date]
) -> bool:
    """Whether no other thing done with the fact's verb by its subject may fall in the fact's dates."""
    thing, span, _ = _act(fact)
    if span is None:
        return False
    for other, when, doc_id in acts:
        if other == thing:
            continue  # the same thing told again ("a pup" and "this cute pup": one head, one act)
        if when is not None:
            if when[0] <= span[1] and span[0] <= when[1]:
                return False
        elif doc_id not in anchors or anchors[doc_id] >= span[0]:
            return False  # told undated, in a document written after the dates began: it may be then
    return True


def _subject(verb: Any, name: str, speaker: str, *, we: bool = False, kin: bool = False) -> str | None:
    """The speaker for "I"; in a document with no name to ask about, a company a filing says does
    something as its business ("Kestrel Motors assembles…": an organisation, present tense, one of
    `BUSINESS_VERBS`); else None. A person's past acts in an encyclopedia ("Chopin took lodgings")
    are no question ("What did Chopin take?").

    In a chat, a turn that drops its "I" ("Jon: Took a short trip last week") is the speaker's (the
    parser takes the speaker's name for the subject, or finds none); kin: "my grandma" is the
    speaker's grandma ("Maria's grandma")."""
    subjects = [c for c in verb.children if c.dep_ == "nsubj"]
    # the parser may take "Maria" of "Maria: …" for a subject: the speaker's name is no part of the sentence
    said = [c for c in subjects if speaker and _speaker_name(c, speaker)]
    subj = next((c for c in subjects if c not in said), None)
    if speaker and subj is None and _dropped_i(verb):
        return speaker
    if subj is None:
        return None
    if subj.lower_ == "i" or (we and subj.lower_ == "we"):
        return speaker or None
    if kin and speaker and subj.tag_ == "NN" and [c.lower_ for c in subj.children] == ["my"] and (
        subj.lower_ in _RELATIVES or verb.lemma_.lower() in _THING_EVENTS
    ):
        return f"{speaker}'s {subj.lower_}"  # "my grandma passed away", "my car broke down"
    if we and speaker and any(c.dep_ == "conj" and c.lower_ == "i" for c in subj.children):
        return speaker  # "My colleagues and I went to a convention": the speaker went too
    if we and speaker and any(c.lower_ == "i" for c in subjects if c is not subj) and any(
        c.dep_ == "cc" and c.lower_ == "and" for c in subj.children
    ):
        return speaker  # the parser may make both subjects: "Some friends from church | and | I went camping"
    if name or verb.tag_ != "VBZ" or verb.lemma_.lower() not in BUSINESS_VERBS:
        return None  # a titled document's subjects are read by the encyclopedia readers
    ent = entity_of(subj)
    if ent is not None and "\n" in verb.doc.text[ent.start_char : verb.idx]:
        # a filing's heading runs into its first sentence ("…Results of Operations\nKestrel Motors
        # assembles…"): the parse takes the heading for the subject; the name before the verb is it
        line = verb.doc.text.rfind("\n", 0, verb.idx) + 1
        name_words = [t for t in verb.doc if line <= t.idx < verb.idx]
        if 1 <= len(name_words) <= 4 and all(t.pos_ == "PROPN" for t in name_words):
            return verb.doc[name_words[0].i : verb.i].text
        return None
    if ent is not None and ent.root == subj and ent.label_ == "ORG" and subj.pos_ == "PROPN":
        return ent.text
    return None


# Whose acts a speaker tells as "my X …" and a question may name as "Maria's X" (one such person).
_RELATIVES = frozenset(
    "mom dad mother father grandma grandpa grandmother grandfather brother sister husband wife son daughter "
    "boyfriend girlfriend fiance fiancee partner uncle aunt cousin niece nephew boss".split()
)


# Verbs whose subject may be a thing of the speaker's ("my car broke down last Fri").
_THING_EVENTS = frozenset("break".split())


def _speaker_name(token: Any, speaker: str) -> bool:
    """Whether `token` is the speaker's name before the colon that opens a chat turn."""
    colon = next((t for t in token.sent[:6] if t.text == ":"), None)
    return colon is not None and token.i < colon.i and token.text == speaker.split()[0]


def _dropped_i(verb: Any) -> bool:
    """Whether a past-tense verb opens its sentence with no subject before it ("Took a short trip…",
    "Caroline: Lost my job…", "Just got back…"): the speaker's act, its "I" dropped as chats do."""
    sent = verb.sent
    if not _past(verb) or verb.dep_ != "ROOT" or sent.text.rstrip().endswith("?"):
        return False  # "Got any tips?" drops a "you"
    return all(t.pos_ == "ADV" and t.lower_ in ("just", "finally", "recently", "also") for t in verb.doc[_opening(verb) : verb.i])


def _opening(verb: Any) -> int:
    """Where the words of the verb's sentence begin: after "Caroline:" when a turn opens it."""
    colon = next((t for t in verb.sent[:6] if t.text == ":" and t.i < verb.i), None)
    return colon.i + 1 if colon is not None else verb.sent.start


def _past(verb: Any) -> bool:
    """A past tense, or a sentence that opens with one the parser took for a command ("Took a short
    trip…", "Lost my job…": an inflected form, so no imperative)."""
    if verb.tag_ == "VBD":
        return True
    return verb.tag_ == "VB" and verb.dep_ == "ROOT" and verb.i == _opening(verb) and verb.lower_ in _IRREGULAR_PAST


# Past forms the parser leaves as they are when it takes them for a command at a sentence's start.
_IRREGULAR_PAST = {
    "took": "take", "went": "go", "got": "get", "lost": "lose", "made": "make", "saw": "see", "bought": "buy",
    "found": "find", "gave": "give", "came": "come", "ran": "run", "won": "win", "wrote": "write", "drew": "draw",
    "built": "build", "sold": "sell", "met": "meet", "spent": "spend", "taught": "teach", "began": "begin",
    "brought": "bring", "caught": "catch", "held": "hold", "threw": "throw", "flew": "fly", "drove": "drive",
}


def _lemma_of(verb: Any) -> str:
    """The verb's lemma, mended where the parser took a past form for a command ("Took" → "take")."""
    lemma = verb.lemma_.lower()
    return _IRREGULAR_PAST.get(verb.lower_, lemma) if lemma == verb.lower_ else lemma


def _clean(verb: Any) -> bool:
    """A plain statement: past tense, "have" + participle, or a third-person present ("assembles");
    no negation, modal, condition, or verb inside another's clause."""
    if verb.dep_ not in ("ROOT", "conj") and not _after_speaker(verb) and not (verb.dep_ == "ccomp" and verb.i < verb.head.i):
        # "I want to buy…", "because I bought…", "if I painted…"; but "I joined a choir - it's great"
        # (the parser makes the second clause the root) is a statement
        return False
    if any(c.dep_ == "neg" or (c.dep_ == "mark") for c in verb.children):
        return False
    auxes = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
    if any(a.dep_ == "auxpass" for a in auxes):
        return False
    if _past(verb):
        return not auxes
    if verb.tag_ == "VBN":
        return len(auxes) == 1 and auxes[0].lemma_ == "have" and not auxes[0].text.startswith("'d")
    if verb.tag_ == "VBZ" or (
        verb.tag_ == "VBP" and verb.lemma_.lower() in HABITS and any(c.dep_ == "nsubj" and c.lower_ == "i" for c in verb.children)
    ):
        # "assembles", "I play clarinet": what one does habitually; "I cook myself a nice meal" tells of one
        # meal (a habit has no one it is done for)
        return not auxes and not any(c.dep_ == "dative" for c in verb.children)
    return False


def _after_speaker(verb: Any) -> bool:
    """The parser hangs "Caroline: I adopted a dog" off the speaker's name: the verb is still the
    sentence's main one."""
    colon = next((t for t in verb.sent[:6] if t.text == ":"), None)
    return colon is not None and verb.head.i < colon.i < verb.i


# Verbs of an injury: their object is a body part, said with at most a side ("left ankle").
_INJURIES = frozenset("sprain injure break tear hurt".split())


def _body_part(obj: Any, answer: str) -> bool:
    """Whether an injury's object reads as one body part: its head alone, or after adjectives ("left
    knee"), never a head in -ing ("leg skiing") or a compound."""
    words = answer.split()
    return bool(words) and not obj.lower_.endswith("ing") and all(
        t.pos_ == "ADJ" for t in obj.lefts if t.dep_ not in ("poss", "det")
    ) and len(words) <= 2


# What each making verb makes, by the generic name of its product: "What did Val paint?" → "a new
# picture" tells nothing a reader did not know from the verb (issue 36, session 37). A product the
# sentence names further is a thing ("a picture of a sunset", "a landscape painting", "a Monet print").
_PRODUCTS = {
    "paint": frozenset("picture pictures painting paintings pic pics".split()),
    "draw": frozenset("picture pictures drawing drawings pic pics sketch sketches".split()),
    "take": frozenset("picture pictures photo photos photograph photographs pic pics shot shots selfie selfies".split()),
    "cook": frozenset("meal meals food dish dishes".split()),
    "make": frozenset("meal meals food dish dishes".split()),
}


def _bare_product(lemma: str, obj: Any) -> bool:
    """Whether a making verb's object is only its product's generic name, with no word that says which
    (`_PRODUCTS`): adjectives and determiners ("a new picture", "some nice photos") say no more."""
    head = obj.lemma_.lower()
    # "popped some popcorn", "painted a painting": the object is named after the verb, what it is says no more
    named_after = len(lemma) >= 3 and head.startswith(lemma) and head != lemma
    return (head in _PRODUCTS.get(lemma, ()) or named_after) and not any(
        c.dep_ in ("compound", "nmod", "appos") or c.pos_ == "PROPN" or (c.dep_ == "prep" and c.lower_ == "of")
        or (c.dep_ == "poss" and c.lower_ not in ("my", "our"))
        for c in obj.children
    )  # "a meal | for the kids": what follows is who it was for, the answer stays "a meal"


def _object_phrase(obj: Any, *, own: bool = False) -> str:
    """The object's words, when they name one thing (see the module docstring), else "". own: "my old
    car" is answered "old car" (the words after the speaker's "my"; a person stays no thing)."""
    if obj.pos_ not in ("NOUN", "PROPN") or obj.lower_ in _VAGUE or obj.lower_ in _PEOPLE:
        return ""
    ent = entity_of(obj)
    if ent is not None and ent.label_ in ("PERSON", "NORP", "DATE", "TIME", "CARDINAL", "GPE", "LOC", "FAC", "ORG"):
        return ""  # a person is no thing; a named place or organisation is the typed readers' ("Which organization…")
    demonstrative = next((c for c in obj.lefts if c.dep_ == "det" and c.lower_ in ("this", "that", "these", "those")), None)
    # a phrase attached after the head is no part of the thing ("Charlotte's Web | with the kids"),
    # except "of" ("a painting of a sunset"); nor is a clause after it ("a treehouse | to give the kids…")
    cut = min(
        (c.left_edge.i for c in obj.rights if (c.dep_ == "prep" and c.lower_ != "of") or c.dep_ in ("relcl", "acl")),
        default=None,
    )
    mine = next((c for c in obj.lefts if own and c.dep_ == "poss" and c.lower_ in ("my", "our") and c.i == obj.left_edge.i), None)
    words = [
        t for t in obj.subtree
        if (cut is None or t.i < cut) and (demonstrative is None or t.i != demonstrative.i) and (mine is None or t.i != mine.i)
    ]
    if not words:
        return ""  # a disfluent parse puts a prepositional child before the object (QMSum's tuning meetings): nothing is left
    if demonstrative is not None and (len(words) < 2 or words[0].i != demonstrative.i + 1):
        return ""  # "that lake sunrise" is "lake sunrise"; "this bowl" is just "bowl": too bare
    if len(words) > _MAX_OBJECT_TOKENS:
        return ""
    for t in words:
        if t.text == "-" and not t.whitespace_ and t.i > 0 and not t.doc[t.i - 1].whitespace_:
            continue  # "a service-focused group"
        if t.lower_ in _PERSONAL or t.pos_ == "PRON" or t.is_punct:
            return ""
        if t.dep_ in ("relcl", "acl", "ccomp", "advcl", "conj", "cc", "appos", "nummod") and t.i != obj.i:
            return ""
    # "a painting of a sunset" is one thing; "a lot of fun" is not (the head is vague)
    return obj.doc[words[0].i : words[-1].i + 1].text


def _ask(verb: Any) -> str:
    """"What did {s} paint?", "What has {s} painted?", "What does {s} assemble?"."""
    particle = " ".join(c.lower_ for c in verb.children if c.dep_ == "prt")
    lemma = _lemma_of(verb)
    if _past(verb):
        return f"What did {{s}} {lemma} {particle}?"
    if verb.tag_ == "VBN":
        return f"What has {{s}} {verb.lower_} {particle}?"
    if verb.tag_ in ("VBZ", "VBP"):
        return f"What does {{s}} {lemma} {particle}?"
    return ""


# What datagen.chat_anchors groups acts by, as `unique_activities` does.
is_activity, activity_shape, activity_lemma, activity_act = _is_activity, _shape, _lemma, _act
