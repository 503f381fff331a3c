"""Facts a verb states: "directed by X", "was born in X", "founded X", "plays for X", "was a member
of X", each turned into a wh-question by moving the object's wh-word to the front with
subject-auxiliary inversion or do-support ("When was {s} first published?", "Which team did {s}
play for?") and, where the relation describes its object, a description ("the director of {s}").

A fact is dropped rather than guessed whenever its question would need more than the sentence's
core (long objects, lists, clauses, negation), or the verb is not one whose date, place or object
a question can ask for (`_DATE_VERBS`, `_PLACE_VERBS`, `_DOBJ_VERBS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from datagen.factbase import KIND, Fact
from datagen.mining import fold, word_keys
from datagen.syntax import (
    MAX_SLOT_TOKENS,
    ImpliedWord,
    join_tokens,
    object_span,
    opening_participle,
    passive_participle,
    past_tense,
    place_target,
    slot_words,
    subject_of,
    tidy,
)
from datagen.types import TruthType

# "directed by X" → X is "the director of S": agent nouns of the verbs whose by-phrase names a role.
AGENT = {
    "direct": "director", "write": "writer", "produce": "producer", "found": "founder", "create": "creator",
    "design": "designer", "compose": "composer", "develop": "developer", "publish": "publisher", "own": "owner",
    "edit": "editor", "invent": "inventor", "discover": "discoverer", "build": "builder", "manage": "manager",
    "paint": "painter", "illustrate": "illustrator", "perform": "performer", "host": "host", "narrate": "narrator",
    "establish": "founder", "co-found": "co-founder", "cofound": "co-founder", "distribute": "distributor",
    "manufacture": "manufacturer", "operate": "operator", "sponsor": "sponsor", "translate": "translator",
    "coach": "coach", "present": "presenter", "record": "recording artist", "sing": "singer", "release": "label",
}


# Verbs whose date or place is a fact a question can ask for (and a description can name): "the city
# where X was born" identifies a place, "the place where X was released" does not (films are
# released in many places). Lemmas.
_DATE_VERBS = frozenset(
    "bear die found establish release publish open build construct complete form launch create premiere air "
    "marry elect appoint close start begin end inaugurate introduce sign retire join debut record issue reissue "
    "consecrate design sell acquire merge award graduate found incorporate discover invent write compose "
    "paint produce direct abolish dissolve demolish restore rename name erect dedicate win become".split()
)
_PLACE_VERBS = frozenset("bear die locate base headquarter bury situate found establish raise grow educate form".split())
# Verbs whose direct object is a relation worth a question ("founded X", "married X", "won X").
_DOBJ_VERBS = frozenset(
    "found create establish win receive marry join sign acquire buy own lead coach manage direct write produce "
    "compose design build represent attend replace succeed defeat host publish release record invent discover "
    "portray star play co-found cofound develop operate sponsor train teach".split()
)


# "X was the site of the first World Series": a place's attribute names what happened there, one of
# many ("Which work was Boston the site of?" has no one answer; MuSiQue hand-read, session 28).
_PLACE_NOUNS = frozenset("site home location scene venue part one example centre center hub setting birthplace".split())
# Verbs of opinion, and of where a place lies (a border is no agent: "Who bordered San Marcos?"): "described by The New York Times as …" says who said something, not a relation.
_OPINION_VERBS = frozenset(
    "describe call consider regard praise criticize criticise rank list cite review label dub term hail quote "
    "deem rate acclaim border surround flank".split()
)


# Prepositions whose object is a relation worth asking about ("plays for X", "merged with X").
_RELATION_PREPS = frozenset("for with into to under against alongside onto from on".split())
# "in" relates a work or an organisation ("starred in Pitfall", "competes in the Premier League");
# with a place it is a location (above), with a person an aside.
_IN_KINDS = frozenset((TruthType.ORGANIZATION.value, TruthType.ENTITY.value))


def verb_facts(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str],
    speaker: str = "", own_class: str = "",
) -> list[Fact]:
    """The facts of every verb of a parsed sentence whose subject is known (`subject_of`, with the
    document's `own_class` word), in order."""
    facts = []
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX"):
            continue
        who = subject_of(verb, name, speaker, own_class)
        if who is None:
            continue
        subject, about = who
        if speaker and subject == speaker and verb.dep_ == "relcl" and verb.head.pos_ == "NOUN" and not any(
            c.dep_ == "dobj" for c in verb.children
        ):
            continue  # "a trip I took to Tibet": the act's object is the noun outside ("Which place did Susan take to?")
        for path in _object_paths(verb):
            fact = _fact(verb, path, subject, about, doc_id, chunk_id, text, resolve)
            if fact is not None:
                facts.append(fact)
    return facts


def _object_paths(verb: Any) -> Iterable[tuple[str, Any, Any | None, Any | None]]:
    """(shape, object token, preposition, attribute noun) for each object the verb governs."""
    for child in verb.children:
        if child.dep_ in ("dobj", "oprd") and verb.lemma_ in ("bear", "born") and child.ent_type_ == "PERSON":
            # "He was born Philip Davis Guggenheim in St. Louis": the name is the birth name, no object
            # of "born", and the parser hangs the place and the date on it; they are the verb's
            for prep in (c for c in child.children if c.dep_ == "prep"):
                pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
                if pobj is not None:
                    yield "prep", pobj, prep, None
            continue
        if child.dep_ == "dobj":
            yield "dobj", child, None, None
        elif child.dep_ == "agent":
            pobj = next((c for c in child.children if c.dep_ == "pobj"), None)
            if pobj is not None:
                yield "agent", pobj, child, None
        elif child.dep_ == "prep":
            pobj = next((c for c in child.children if c.dep_ == "pobj"), None)
            if pobj is not None:
                yield "prep", pobj, child, None
        elif child.dep_ == "attr" and child.pos_ == "NOUN" and child.lemma_.lower() not in _PLACE_NOUNS:
            for prep in (c for c in child.children if c.dep_ == "prep" and c.lower_ == "of"):
                pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
                if pobj is not None:
                    yield "attr", pobj, prep, child


# Names a number completes ("State Highway 95", "Interstate 40").
_NUMBERED = re.compile(r"\b(?:Route|Highway|Road|Interstate|Freeway|Motorway|Expressway|Avenue|Street|Line|Runway)$")


def _fact(
    verb: Any,
    path: tuple[str, Any, Any | None, Any | None],
    subject: str,
    about: bool,
    doc_id: str,
    chunk_id: str,
    text: str,
    resolve: Callable[[str, bool], str],
) -> Fact | None:
    shape, obj, prep, attr = path
    vtext = verb.lower_ if opening_participle(verb) else verb.text  # "Born in X, …" asks "was … born"
    ent = object_span(obj)
    if ent is None:
        return None
    kind = KIND[ent.label_]
    answer = ent.text
    for quote in ('"', "“", "”"):
        if answer.count(quote) == 1 and (answer.startswith(quote) or answer.endswith(quote)):
            answer = answer.strip(quote).strip()  # NER took the opening quote of a quoted name, not its close
    if kind in (TruthType.PERSON.value, TruthType.ORGANIZATION.value) and re.search(
        "[\"“]" + re.escape(answer) + "[\"”]", text
    ):
        kind = TruthType.ENTITY.value  # a quoted name is a title ("she released \"Breakthrough\""), never a person
    if word_keys(answer) == word_keys(subject) or fold(answer) in fold(subject):
        return None
    if kind == TruthType.PLACE.value and _NUMBERED.search(answer) and ent.end < len(ent.doc) and ent.doc[ent.end].like_num:
        return None  # NER cut a road's number off its name: "West Virginia Route" of "West Virginia Route 102"
    skip = {c.i for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "aux", "auxpass")}
    skip.update(t.i for t in (prep, attr) if t is not None)
    if shape == "dobj":
        skip.add(obj.i)
    if verb.lemma_ in ("bear", "born"):  # a birth name is no slot of the question (`_object_paths`)
        skip.update(c.i for c in verb.children if c.dep_ in ("dobj", "oprd") and c.ent_type_ == "PERSON")
    if any(c.dep_ == "neg" for c in verb.children):
        return None  # a negated relation answers nothing
    middle = slot_words(verb, skip)
    if middle is None:
        return None
    if attr is not None:
        attr_words = [t for t in attr.subtree if t.i < prep.i]  # "a member" of "a member of X"
        if len(attr_words) > MAX_SLOT_TOKENS or any(
            t.dep_ not in ("det", "amod", "compound", "poss", "nummod") for t in attr_words if t is not attr
        ):
            return None
        middle = sorted(middle + attr_words, key=lambda t: t.i)
    adverbs = [t for t in middle if t.dep_ == "advmod" and t.head.i == verb.i]  # spaCy makes a new Token per access
    middle = [t for t in middle if t.i not in {a.i for a in adverbs}]  # "first" goes before the verb: "was first lit"
    auxes: list[Any] = [c for c in verb.children if c.dep_ in ("aux", "auxpass") and c.i < verb.i]
    if not auxes and verb.tag_ == "VBN" and verb.dep_ == "conj":
        # "was produced by A and filmed in B": the conjunct shares the first verb's auxiliaries
        auxes = [c for c in verb.head.children if c.dep_ in ("aux", "auxpass") and c.i < verb.head.i]
    if not auxes and verb.dep_ == "acl" and verb.tag_ == "VBN" and verb.head.dep_ == "attr":
        # "X is/was an astronomer, born in 1851" → "was … born": a participle reports a past event
        auxes = [ImpliedWord("was" if verb.head.head.lower_ in ("is", "was") else "were", "auxpass")]
    if not auxes and opening_participle(verb):
        auxes = [ImpliedWord("was", "auxpass")]  # "Born in X, Y…" → "Where was {s} born?"
    first_person = any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "i" for c in verb.children)
    if first_person:
        # a chat turn's "I" is asked about as its speaker: "I've been to Paris" → "has {s} been to"
        auxes = [ImpliedWord(_THIRD_PERSON.get(a.text.lower(), a.text), a.dep_) for a in auxes]
        if any(a.text.startswith("'") for a in auxes) or not _chat_answer(ent):
            return None
    if any(a.text.startswith(("'", "’")) for a in auxes):
        # a contraction cut from its subject leads no question: "I've seen and spoken with X", the conjunct inheriting
        # its head's "'ve", was asked "Which person 've Barry Hughes spoken with?" (session 51, an unseen split)
        return None
    copula = verb.lemma_ == "be" and not auxes
    p = prep.lower_ if prep is not None else ""
    relation = f"{verb.lemma_.lower()}|{p or shape}|{kind}"
    rest = join_tokens(middle)

    def clause(with_aux: bool) -> str:
        """'{s} was first published', '{s} founded the company' (declarative, for descriptions)."""
        words = [join_tokens(auxes)] if with_aux and auxes else []
        words += [join_tokens(adverbs), vtext]
        return " ".join(w for w in ["{s}", *words, rest] if w)

    def inverted(wh: str) -> str:
        """wh-movement with subject-auxiliary inversion or do-support: 'When was {s} first published?'"""
        pre = join_tokens(adverbs)
        if auxes:
            lead, others = auxes[0].text, [a.text for a in auxes[1:]]
            body = [*others, pre, vtext, rest]
        elif copula:
            lead, body = vtext, [pre, rest]
        else:
            # "do" only after "they": a named subject is singular, so a VBP there is a mis-tag ("swam")
            plural = any(c.dep_ == "nsubj" and c.lower_ == "they" for c in verb.children)
            do = {"VBD": "did", "VBZ": "does", "VBP": "do" if plural else "does" if first_person else None}.get(verb.tag_)
            if do is None:
                return ""
            lead, body = do, [pre, verb.lemma_.lower(), rest]
        words = [wh, lead.lower(), "{s}", *body]
        if wh.startswith(("Which", "Who")) and shape in ("prep", "attr"):
            words.append(p)  # a stranded preposition: "Which team did {s} play for?"
        return " ".join(w for w in words if w) + "?"

    ask = describe = compare = ""
    passive = any(a.dep_ == "auxpass" for a in auxes)
    if kind in (TruthType.DATE.value, TruthType.PLACE.value) and copula and rest:
        return None  # "Where is X a tributary of Y?" asks two things at once
    lemma = verb.lemma_.lower()
    if lemma == "bear" and any(getattr(t, "pos_", "") == "PROPN" for t in middle):
        return None  # "born Marvin Pentz Gay Jr.; April 2, 1939": a birth name is no part of the question
    if kind == TruthType.DATE.value and lemma not in _DATE_VERBS:
        return None
    if kind == TruthType.PLACE.value and shape == "prep" and p in ("in", "at") and lemma not in _PLACE_VERBS:
        return None
    if shape == "dobj" and lemma not in _DOBJ_VERBS:
        return None
    if kind == TruthType.DATE.value:
        if shape != "prep" or p not in ("in", "on", "during"):
            return None
        year_only = bool(re.fullmatch(r"(in\s+)?\d{4}", answer.strip()))
        ask = inverted("In what year" if year_only else "When")
        if passive and not rest:
            # "first published" asks "Which journal was published first", not "was first published first"
            kept = [a for a in adverbs if a.lower_ != "first"]
            compare = "Which {c} was " + " ".join(x for x in [join_tokens(kept), vtext] if x) + " first, {a} or {b}?"
    elif kind == TruthType.PLACE.value and shape == "prep" and p in ("in", "at"):
        ask = inverted("Where")
        describe = "the {c} where " + clause(True)
    elif shape == "agent" and kind in (TruthType.PERSON.value, TruthType.ORGANIZATION.value):
        past = past_tense(verb)
        if rest or lemma in _OPINION_VERBS:
            return None
        ask = f"Who {past} {{s}}?" if past else f"Who was {{s}} {vtext} by?"
        noun = AGENT.get(verb.lemma_.lower())
        if noun:
            describe = f"the {noun} of {{s}}"
        elif past:
            describe = "the {c} " + ("who" if kind == TruthType.PERSON.value else "that") + f" {past} {{s}}"
    elif shape in ("dobj", "prep", "attr") and kind != TruthType.DATE.value:
        wh = "Who" if kind == TruthType.PERSON.value and shape == "dobj" else "Which {c}"
        # "built along the western bank of the Mississippi River": where a place lies, along a river or a coast
        along = p == "along" and kind == TruthType.PLACE.value
        if shape == "prep" and ((p not in _RELATION_PREPS and not (p == "in" and kind in _IN_KINDS) and not along) or copula):
            return None  # adjuncts ("in the film", "as a child", "including") are no relation worth asking
        if shape == "prep" and p == "on" and kind == TruthType.PERSON.value:
            return None  # "released on Adam Duritz of Counting Crows's label": a record is released on a label
        ask = inverted(wh)
        if shape == "attr":
            # "X is the father of Y" → Y is "the {c} whose father is X"
            noun = join_tokens(t for t in attr.subtree if t.i < prep.i and t.dep_ != "det" and t.dep_ != "poss")
            describe = f"the {{c}} whose {noun} {vtext} {{s}}"
        elif shape == "dobj":
            participle = passive_participle(verb)
            describe = f"the {{c}} {participle} by {{s}}" if participle and not rest else ""
        else:
            describe = "the {c} that " + clause(True) + f" {p}"
    if not ask:
        return None
    proper = obj.pos_ == "PROPN"
    if kind == TruthType.PLACE.value:
        target = place_target(ent.root, ent, resolve)
    else:
        target = resolve(answer, proper) if kind != TruthType.DATE.value else ""
    if target == doc_id:
        return None
    return Fact(
        doc_id=doc_id,
        chunk_id=chunk_id,
        sentence=text,
        subject=subject,
        about_doc=about,
        relation=relation,
        answer=answer,
        kind=kind,
        ask=tidy(ask),
        describe=tidy(describe),
        compare=tidy(compare),
        target=target,
    )


# "I am / I have / I do" become the speaker's "is / has / does" ("'d" may be had or would: left out)
_THIRD_PERSON = {"am": "is", "'m": "is", "have": "has", "'ve": "has", "do": "does", "are": "is", "'re": "is", "'ll": "will"}
_WEEKDAYS = re.compile(r"(?i)^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(day)?\.?$")


def _chat_answer(ent: Any) -> bool:
    """An answer a chat turn's NER can be trusted with: a proper name of a place or an organisation,
    not an acronym or a weekday (in chat, NER calls towns and brands persons: "Which person did
    Joanna go to?" → Woodhaven; and titles works: "Which work did Caroline come for?" → Pride Month)."""
    text = ent.text.strip()
    return (
        ent.root.pos_ == "PROPN" and ent.label_ in ("GPE", "LOC", "FAC", "ORG")
        and not text.isupper() and not _WEEKDAYS.match(text) and len(text) >= 4
    )
