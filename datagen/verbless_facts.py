"""Facts an encyclopedia states without a verb, which give most of MuSiQue's first hops:

- the defining sentence's class ("Philip Ford was an American film director" → "film director") and
  its relations: "Benton is a city in Franklin County, Illinois" (located in), "Cross Bones Style is
  a song by Cat Power" (performer);
- a role of the subject: "Its first director was the astronomer Orvald Pike";
- a life parenthesis: "Philip Ford (16 October 1900 – 12 January 1976)", with places after the
  dates "(May 14, 1857 in Seymour – January 10, 1945 in Stamford)".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from datagen.chains import class_type
from datagen.factbase import KIND, Fact
from datagen.mining import word_keys
from datagen.naming import strip_article
from datagen.syntax import (
    PLACE_CLASS,
    PRONOUNS,
    clause_subject,
    entity_of,
    fuller_name,
    join_tokens,
    names_subject,
    object_span,
    place_target,
    tidy,
    title_copula,
)
from datagen.types import TruthType

_MONTH = "(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_CLEAN_DATE = re.compile(rf"(?:\d{{1,2}} {_MONTH} \d{{4}}|{_MONTH} \d{{1,2}}, \d{{4}}|{_MONTH} \d{{4}}|\d{{4}})")


# "X is a song by Y": the class noun says which role the by-phrase names (MuSiQue's "performer",
# "author", "composer"). Nouns whose "by" names no single role (film: director? studio?) are not read.
BY_ROLE = {
    **dict.fromkeys("song single album ep track ballad hymn anthem record mixtape".split(), ("performer", "performed")),
    **dict.fromkeys("novel book poem play novella memoir story essay autobiography biography".split(), ("author", "wrote")),
    **dict.fromkeys("opera symphony concerto sonata oratorio operetta cantata".split(), ("composer", "composed")),
    **dict.fromkeys("painting portrait fresco".split(), ("painter", "painted")),
}


_PLACE_NOUNS = frozenset(
    "city town village county community municipality district region state country province suburb neighborhood "
    "neighbourhood borough hamlet commune parish settlement place area island capital seat".split()
)


def _proper_place(ent: Any) -> bool:
    """A named place that determines an answer ("Franklin County"), not a stretch of one ("the east coast")."""
    return ent.root.pos_ == "PROPN" and not re.match(
        r"(?i)(the\s+)?(north|south|east|west|central|northern|southern|eastern|western|upper|lower)\b", ent.text
    )


def copular_relations(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str]
) -> list[Fact]:
    """Relations an encyclopedia states in a defining sentence rather than with a verb:

    - "Benton is a city in Franklin County, Illinois" → (Benton, located in, Franklin County): "In which
      county is Benton located?", described as "the county where Benton is located";
    - "Cross Bones Style is a song by Cat Power" → (Cross Bones Style, performer, Cat Power): "Who
      performed Cross Bones Style?", described as "the performer of Cross Bones Style".
    """
    out: list[Fact] = []
    if not name:
        return out
    for verb in doc:
        if verb.lemma_ != "be" or verb.dep_ != "ROOT":
            continue
        subj = clause_subject(verb)
        # "a 1974 single by Hank Snow": the parser calls "single" an adjective
        attr = next((c for c in verb.children if c.dep_ == "attr" and (c.pos_ == "NOUN" or c.lower_ in BY_ROLE)), None)
        if attr is None and not any(c.dep_ in ("attr", "acomp") for c in verb.children):
            attr = verb  # "North Dakota is in the Great Plains": the place hangs off the verb itself
        if attr is None or any(c.dep_ == "neg" for c in verb.children):
            continue
        opening = title_copula(doc, name)
        titled = opening is not None and opening.i == verb.i
        if not titled and (subj is None or not (names_subject(subj, name) or (subj.lower_ in PRONOUNS and subj.dep_ != "poss"))):
            continue
        if subj is None:  # the title parsed as no noun phrase ("Deliver Us from Winter is a film …")
            subj = doc[0]
        # "X is a composer in Costa Rica" says where X works, not where X "is located"
        subject_ent = entity_of(subj)
        person = subj.lower_ in ("he", "she") or (
            subject_ent is not None and subject_ent.label_ == "PERSON" and attr.lower_ not in _PLACE_NOUNS
        )  # NER calls "Benton" (a city) a person too
        if not person:
            out.extend(_capital_of(attr, verb, doc_id, chunk_id, text, name, resolve))
        for prep in (c for c in attr.children if c.dep_ == "prep" and c.lower_ in ("in", "on", "by", "from")):
            pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
            ent = object_span(pobj) if pobj is not None else None
            if ent is None or word_keys(ent.text) == word_keys(name):
                continue
            kind = KIND[ent.label_]
            be = verb.text.lower()
            if prep.lower_ in ("in", "on") and kind == TruthType.PLACE.value and _proper_place(ent) and not person:
                m = PLACE_CLASS.search(ent.text)
                word = m.group(1).lower() if m else "{c}"  # {c}: the class of the place's own document
                ask = f"In which {word} {be} {{s}}?"  # "In which county is the city where X was born?"
                describe = f"the {word} where {{s}} {be} located"
                relation = f"locate|in|{kind}"
                target = place_target(ent.root, ent, resolve)
            elif prep.lower_ == "from" and kind == TruthType.PLACE.value and _proper_place(ent) and attr is not verb and (
                person or class_type(attr.lower_) in (TruthType.PERSON.value, TruthType.ORGANIZATION.value)
            ):
                # "Orodruin is an American doom metal band from Rochester, New York", "Rachel Goodrich is an
                # American musician from Miami, Florida": where a person or a group comes from (MuSiQue's
                # "country of origin"), not where a work or a place is
                m = PLACE_CLASS.search(ent.text)
                word = m.group(1).lower() if m else "{c}"
                ask, describe = f"Where {be} {{s}} from?", f"the {word} that {{s}} {be} from"
                relation = f"from|from|{kind}"
                target = place_target(ent.root, ent, resolve)
            elif prep.lower_ == "by" and kind in (TruthType.PERSON.value, TruthType.ORGANIZATION.value):
                role = BY_ROLE.get(attr.lower_)
                if role is None:
                    continue
                noun, past = role
                ask, describe = f"Who {past} {{s}}?", f"the {noun} of {{s}}"
                relation = f"{noun}|by|{kind}"
                target = resolve(ent.text, ent.root.pos_ == "PROPN")
            else:
                continue
            if target == doc_id:
                continue
            out.append(
                Fact(
                    doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True,
                    relation=relation, answer=ent.text, kind=kind, ask=tidy(ask), describe=tidy(describe),
                    target=target,
                )
            )
    return out


# Roles whose holder is a place whatever NER calls it.
_PLACE_ROLES = frozenset("capital seat city town port elevation point peak summit river lake".split())


def _capital_of(
    attr: Any, verb: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str]
) -> list[Fact]:
    """"Lisbon is the capital and the largest city of Portugal", "Nashville is the county seat of
    Davidson County" → (Lisbon, capital of, Portugal): "Of which country is Lisbon the capital?",
    described as "the country whose capital is Lisbon". A place's page says where it is this way more
    often than "located in" (issue 36: chains through big places ended there with no answer)."""
    words = [c for c in attr.lefts if c.dep_ == "compound" and c.pos_ == "NOUN"] + [attr]
    if attr.pos_ != "NOUN" or not (
        attr.lemma_.lower() in ("capital", "seat") or attr.lemma_.lower() == "city" and [w.lower_ for w in words[:-1]] == ["capital"]
    ):
        return []  # "the capital city of Canada" is one too
    if any(c.dep_ == "amod" for c in attr.children):
        return []  # "the former capital", "the largest city and cultural capital": not the capital now
    heads = [attr, *(c for c in attr.children if c.dep_ == "conj" and c.pos_ == "NOUN")]
    for head in heads:
        prep = next((c for c in head.children if c.dep_ == "prep" and c.lower_ == "of"), None)
        pobj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
        ent = object_span(pobj) if pobj is not None else None
        if ent is None or KIND[ent.label_] != TruthType.PLACE.value or not _proper_place(ent):
            continue
        if word_keys(ent.text) == word_keys(name):
            return []
        target = place_target(ent.root, ent, resolve)
        if target == doc_id:
            return []
        role = join_tokens(words).lower()
        be = verb.text.lower()
        m = PLACE_CLASS.search(ent.text)
        cls = m.group(1).lower() if m else "{c}"  # "Of which county is Nashville the county seat?"
        return [
            Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True,
                relation=("seat" if attr.lemma_.lower() == "seat" else "capital") + "-of|of|place", answer=ent.text, kind=TruthType.PLACE.value,
                ask=f"Of which {cls} {be} {{s}} the {role}?", describe=f"the {cls} whose {role} {be} {{s}}", target=target,
            )
        ]
    return []


# "… with the Blue Mountains to the west", "It borders Queensland to the north, Victoria to the south": one
# neighbour named alone for a side (after "with", "by", "borders" or a list's comma), not "Kentucky and
# Virginia to the north" (two names for one side)
_SIDE = re.compile(
    r"(?:^|,\s*(?:and\s+)?|\bwith\s+|\bby\s+|\bborders\s+)"
    r"(?P<name>(?:the\s+)?[A-Z][\w.'’-]*(?:\s+(?:of\s+)?[A-Z][\w.'’-]*)*)\s+to\s+the\s+(?P<side>north|south|east|west)\b"
)


def side_facts(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str]
) -> list[Fact]:
    """What lies on one side of a place its own page names: "Sydney is a coastal basin with the Tasman Sea
    to the east, the Blue Mountains to the west …" → (Sydney, lies west, the Blue Mountains): "What lies to
    the west of Sydney?", described as "the {c} to the west of Sydney". MuSiQue's "shares border with"
    hops end on such a big place's paragraph, which states nothing else with one answer (issue 36).

    The sentence must be about the page (it opens with the page's name or with "It"); each side is named
    by one place (a side named twice in the page is not asked: `factbase.unique_relations`)."""
    if not name or not re.match(r"^(?:the\s+)?(?:" + re.escape(strip_article(name)) + r"|It|Its\s+\w+)\b", text):
        return []
    out = []
    for m in _SIDE.finditer(text):
        start, end = m.span("name")
        ent = next((e for e in doc.ents if e.start_char <= start + 4 and e.end_char >= end - 1
                    and e.label_ in ("GPE", "LOC", "FAC", "ORG")), None)
        answer = m.group("name")
        if ent is None or word_keys(answer) == word_keys(name) or m.start("name") < 2 and not text.startswith(answer):
            continue
        if start == 0:
            continue  # the sentence's own subject ("Tennessee … to the north"): no neighbour
        if m.group(0).startswith(",") and not re.search(r"\b(?:north|south|east|west)\w*\s*$", text[: m.start()]):
            continue  # "Georgia, Alabama, and Mississippi to the south": the last of a list, not the one neighbour
        side = m.group("side")
        out.append(
            Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True,
                relation=f"side|{side}|{TruthType.PLACE.value}", answer=answer, kind=TruthType.PLACE.value,
                ask=f"What lies to the {side} of {{s}}?", describe=f"the {{c}} to the {side} of {{s}}",
                target=resolve(answer, True),
            )
        )
    return out


def role_facts(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str], own_class: str = ""
) -> list[Fact]:
    """A role of the subject named by a copula: 'Its first director was the astronomer Orvald Pike',
    "Canada's capital is Ottawa", "New South Wales' state capital is Sydney" (the possessive's own words,
    "New South", are the name, not the role), and the role as a noun of the page's name: "The highest
    elevation in New York is Mount Marcy", "The capital of Namibia is Windhoek". The last two are how a
    big place's later paragraphs state its facts (issue 36): MuSiQue chains ended there with no answer."""
    out = []
    for verb in doc:
        if verb.lemma_ != "be" or not name:
            continue
        subj = next((c for c in verb.children if c.dep_ == "nsubj" and c.pos_ == "NOUN"), None)
        attr = next((c for c in verb.children if c.dep_ == "attr"), None)
        if attr is not None and subj is None:
            out.extend(_held_role(verb, attr, doc_id, chunk_id, text, name, resolve, own_class))
        if subj is None or attr is None:
            continue
        poss = [c for c in subj.children if c.dep_ == "poss"]
        # "the highest elevation in New York": the page named by the role's own preposition
        of_page = [
            (c, g) for c in subj.children if c.dep_ == "prep" and c.lower_ in ("of", "in")
            for g in c.children if g.dep_ == "pobj" and g.pos_ == "PROPN" and names_subject(g, name)
        ]
        if poss:
            if len(poss) != 1 or not (poss[0].lower_ in ("its", "his", "her", "their") or names_subject(poss[0], name)):
                continue
            prep_word = "of"
            inside = {t.i for t in poss[0].subtree}
        elif len(of_page) == 1 and any(c.dep_ == "det" and c.lower_ == "the" for c in subj.children):
            prep, page = of_page[0]
            if any(c.dep_ not in ("det", "amod", "compound", "prep") for c in subj.children) or len(
                [c for c in subj.children if c.dep_ == "prep"]
            ) != 1:
                continue  # "the capital of X in 1990", "the city of X, which …": more than a role
            prep_word = prep.lower_
            inside = {t.i for t in prep.subtree}
        else:
            continue
        role_words = [t for t in subj.subtree if t.i not in inside and t.dep_ not in ("case", "det") and t.i <= subj.i]
        if len(role_words) > 3 or any(t.pos_ not in ("NOUN", "ADJ") for t in role_words):
            continue
        ent = object_span(attr)
        if ent is None or KIND[ent.label_] == TruthType.DATE.value:
            continue
        kind = KIND[ent.label_]
        if subj.lower_ in _PLACE_ROLES:
            kind = TruthType.PLACE.value  # "Veldmark's capital is Orsberg": NER may call a capital anything
        role = join_tokens(role_words).lower()
        wh = "Who" if kind == TruthType.PERSON.value else "Which {c}"
        if subj.lower_ in _PLACE_ROLES:
            wh = "What"  # the role says what it is: "Which capital city is the capital of X?" says it twice
        proper = ent.root.pos_ == "PROPN"
        target = resolve(ent.text, proper)
        if target == doc_id:
            continue
        out.append(
            Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True,
                relation=f"{subj.lemma_.lower()}|{prep_word}|{kind}", answer=ent.text, kind=kind,
                ask=f"{wh} {verb.text.lower()} the {role} {prep_word} {{s}}?", describe=f"the {role} {prep_word} {{s}}",
                target=target,
            )
        )
    return out


# What makes a role one thing: a superlative ("the largest city", "the most populous city") or a word
# that says there is one ("the principal city", "the national sport"). "Nick Bowen is a player of X" is none.
_ONE_OF_A_KIND = frozenset("principal main chief official national predominant only".split())
# Roles whose holder is a named thing NER rarely types: a religion, a language, a sport.
_NAMED_ROLES = frozenset("religion language sport".split())


def _held_role(
    verb: Any, attr: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str],
    own_class: str,
) -> list[Fact]:
    """The role the other way round: "Jacksonville is the most populous city in Florida", "Brazil is the
    largest country in South America", "Memphis is the state's largest city" (in the page of a state):
    a role the page holds once, named by the sentence's subject. MuSiQue asks them ("the largest city of
    the state where …"); a big place's later paragraphs state them this way and were read as nothing.

    Only a role of one holder is read: a superlative or a word of one kind (`_ONE_OF_A_KIND`), the page
    named by the role's own "of"/"in" or possessive ("the state's" only in a page whose class is a state),
    and nothing else hung on the role ("the last Chief Minister of X under the Congress alliance")."""
    subj = next((c for c in verb.children if c.dep_ == "nsubj" and c.pos_ == "PROPN"), None)
    if subj is None or attr.pos_ != "NOUN" or attr.tag_ != "NN" or not name:
        return []
    if not any(c.dep_ == "det" and c.lower_ == "the" for c in attr.children) and not any(c.dep_ == "poss" for c in attr.children):
        return []
    poss = [c for c in attr.children if c.dep_ == "poss"]
    # "…, with a population of 653,450" adds to the role; "the largest city by area in X" changes it
    preps = [c for c in attr.children if c.dep_ == "prep" and c.lower_ != "with"]
    if poss:
        holder = poss[0]
        own = holder.pos_ == "NOUN" and own_class and holder.lower_ == own_class and any(
            c.dep_ == "det" and c.lower_ == "the" for c in holder.children
        )
        if len(poss) != 1 or preps or not (own or holder.pos_ == "PROPN" and names_subject(holder, name)):
            return []
        prep_word, inside = "of", {t.i for t in holder.subtree}
    else:
        if len(preps) != 1 or preps[0].lower_ not in ("of", "in"):
            return []
        page = [g for g in preps[0].children if g.dep_ == "pobj" and g.pos_ == "PROPN" and names_subject(g, name)]
        if len(page) != 1:
            return []
        prep_word, inside = preps[0].lower_, {t.i for t in preps[0].subtree}
    if any(c.dep_ not in ("det", "amod", "compound", "advmod", "poss", "prep", "punct") for c in attr.children if c.i < attr.i):
        return []
    if any(c.i > attr.i and c.dep_ not in ("prep", "punct", "cc", "conj") for c in attr.children):
        return []  # "the only part of the United Kingdom that shares a land border…": the clause is the role
    if any(t.dep_ in ("relcl", "acl") and t.head.i in inside for t in attr.doc):
        return []
    words = [t for t in attr.subtree if t.i not in inside and t.i <= attr.i and t.dep_ not in ("det", "case")]
    said = [t for t in words if t.text not in ("-", "–")]  # "non - Christian" is one word
    if not 2 <= len(said) <= 4 or any(t.pos_ not in ("NOUN", "ADJ", "ADV") for t in said):
        return []
    superlative = any(t.tag_ in ("JJS", "RBS") for t in words)
    if not (superlative or any(t.lower_ in _ONE_OF_A_KIND for t in words)):
        return []
    ent = object_span(subj)
    kind = KIND.get(ent.label_, "") if ent is not None else ""
    if kind != TruthType.DATE.value and (attr.lower_ in _PLACE_ROLES or attr.lower_ in _NAMED_ROLES):
        # the role says what the holder is, whatever NER made of it (NER tags neither "Memphis" here nor
        # "Buddhism"): "Memphis is the state's largest city", "Buddhism is the state's largest religion"
        kind = TruthType.PLACE.value if attr.lower_ in _PLACE_ROLES else TruthType.ENTITY.value
        answer = ent.text if ent is not None else join_tokens([t for t in subj.subtree])
    elif ent is None or kind in ("", TruthType.DATE.value):
        return []
    else:
        answer = ent.text
    if not answer or any(t.pos_ not in ("PROPN", "DET", "PART", "ADP") for t in subj.subtree if t.text not in answer):
        return []
    role = join_tokens(words)  # mid-sentence, so its case is the writer's: "largest non-Christian religion"
    target = resolve(answer, True)
    if target == doc_id:
        return []
    wh = "Who" if kind == TruthType.PERSON.value else "What"
    return [
        Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True,
            relation=f"{role.lower()}|{prep_word}|{kind}", answer=answer, kind=kind,
            ask=f"{wh} {verb.text.lower()} the {role} {prep_word} {{s}}?", describe=f"the {role} {prep_word} {{s}}",
            target=target,
        )
    ]


def defining_class(doc: Any, name: str) -> str:
    """'X is/was a [NORP] [compound] NOUN' → 'compound NOUN' (lower case), for a sentence about X."""
    for sent in doc.sents:
        root = sent.root
        if root.lemma_ != "be":
            continue
        subj = clause_subject(root)
        attr = next((c for c in root.children if c.dep_ == "attr"), None)
        if attr is None or attr.pos_ != "NOUN":
            continue
        opening = title_copula(doc, name)
        titled = opening is not None and opening.i == root.i
        if not titled and (subj is None or not (names_subject(subj, name) or subj.lower_ in PRONOUNS)):
            continue
        if attr.lower_ in _KIN_NOUNS:
            return ""  # "X was the son of Y" says whose son, not what X is ("the son who portrayed Kato")
        if not class_type(attr.lower_):
            # "a basic cable and satellite television channel": the head is the last conjunct
            conj = [c for c in attr.children if c.dep_ == "conj" and c.pos_ == "NOUN" and class_type(c.lower_)]
            attr = conj[-1] if conj else attr
        compounds = [c for c in attr.lefts if c.dep_ == "compound" and c.pos_ == "NOUN"]
        words = [c.lower_ for c in compounds[-1:]] + [attr.lower_]
        return " ".join(words)
    return ""


_KIN_NOUNS = frozenset(
    "son daughter wife husband brother sister father mother child grandson granddaughter grandfather grandmother "
    "nephew niece cousin heir widow widower uncle aunt".split()
)


_HONORIFICS = frozenset("sir dame lord lady saint st king queen prince princess pope dr general admiral".split())
# Before "born" may stand a pronunciation or its residue ("( ; born", "(] ; born", "(Russian: …; born"),
# and after it a birth name ("born William Jefferson Blythe III; August 19, 1946"); before a life span,
# only residue (a word there is another parenthesis: "(1857 in A; …)"). A year alone is a date ("(born 1972)").
_LIFE = re.compile(
    r"\(\s*(?:(?:[^()]{0,80}?;\s*)?born\s+(?:[A-Z][\w.'’ -]{0,60}?;\s*)?(?P<born>[^;()–—-]*?\d{4}(?:\s+in\s+[^;()–—-]+?)?)"
    r"|(?:[^()\w]{0,6};\s*)?(?P<b2>[^;()–—-]*\d{4}(?:\s+in\s+[^;()–—-]+?)?)\s*[–—-]\s*"
    r"(?P<d2>[^;()]*\d{4}(?:\s+in\s+[^;()]+?)?))\s*[;)]"
)


def life_facts(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, first: bool,
    resolve: Callable[[str, bool], str] | None = None,
) -> list[Fact]:
    """'Philip Ford (16 October 1900 – 12 January 1976) was…': born/died facts of a person's
    defining sentence, which the parse rarely attaches to a verb; with a place after a date
    ("(May 14, 1857 in Seymour, Connecticut – January 10, 1945 in Stamford)"), where."""
    if not first or not name:
        return []
    m = _LIFE.search(text)
    if m is None or m.start() > len(name) + 40:
        return _born_after_comma(doc_id, chunk_id, text, name)
    own = word_keys(name)
    # the name without its honorific and its comma part: "Sir James Knott, 1st Baronet" → "James Knott"
    core = tuple(w for w in word_keys(name.split(",")[0]))
    while core and core[0] in _HONORIFICS:
        core = core[1:]

    def names_the_page(ent: Any) -> bool:  # "John Ford" is not the page "John Ford House"
        return word_keys(ent.text) in (own, core) or fuller_name(word_keys(ent.text), core)

    persons = [e for e in doc.ents if e.label_ == "PERSON" and e.start_char < m.start() and names_the_page(e)]
    # "born" says a person even where NER, thrown by the residue, saw none ("Patrice Leconte (] ; born
    # 12 November 1947)"), and so does a person's class after a span of dates where NER took the name
    # for another thing ("Iain Banks (16 February 1954 – 9 June 2013) was a Scottish author": ORG); then
    # the words before the parenthesis must name the page
    opening = word_keys(text[: m.start()])
    page = opening in (own, core) or fuller_name(opening, core)
    # "Hartwig Schierbaum (born 26 May 1954), better known by his stage name Marian Gold, is …"
    stage = re.search(
        r"\bknown\s+(?:professionally\s+)?(?:by\s+(?:his|her|their)\s+(?:stage|pen|ring)\s+name|as)\s+[\"“]?"
        + re.escape(name) + r"[\"”]?\s*,", text[: m.end() + 120],
    )
    page = page or (stage is not None and len(opening) <= 4)
    person_class = class_type(defining_class(doc, name)) == TruthType.PERSON.value
    if not persons and not (page and (m.group("born") or person_class)):
        return []  # "Siege of Kut (7 December 1915 – 29 April 1916)" is no life
    out = []
    born = (m.group("born") or m.group("b2") or "").strip(" ,")
    died = (m.group("d2") or "").strip(" ,")
    if resolve is not None:
        out.extend(_life_places(doc, doc_id, chunk_id, text, name, resolve, m))
    born = re.sub(r"\s+in\s+[A-Z].*$", "", born).strip(" ,")
    died = re.sub(r"\s+in\s+[A-Z].*$", "", died).strip(" ,")
    for value, verb, ask, rel in (
        (born, "born", "When was {s} born?", "bear|in|date"),
        (died, "died", "When did {s} die?", "die|in|date"),
    ):
        value = re.sub(r"^(born)\s+", "", value).strip()
        if value and _CLEAN_DATE.fullmatch(value) and value in text:
            out.append(
                Fact(
                    doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True, relation=rel,
                    answer=value, kind=TruthType.DATE.value, ask=ask,
                    compare="Who " + ("was born" if verb == "born" else "died") + " first, {a} or {b}?",
                )
            )
    return out


# "Annet Artani ("Αννέτ Αρτάνη" in Greek), born 6 September 1976, is a Greek American singer"
_BORN_COMMA = re.compile(rf"^(?P<name>[^,()]+?)\s*(?:\([^()]*\)\s*)?,\s*born\s+(?P<born>{_CLEAN_DATE.pattern})\s*,")


def _born_after_comma(doc_id: str, chunk_id: str, text: str, name: str) -> list[Fact]:
    """A birth date set off by commas after the page's name (no parenthesis): the date only."""
    m = _BORN_COMMA.match(text)
    if m is None:
        return []
    opening, own = word_keys(m.group("name")), word_keys(name)
    if not (opening == own or fuller_name(opening, own)):
        return []
    return [
        Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True, relation="bear|in|date",
            answer=m.group("born"), kind=TruthType.DATE.value, ask="When was {s} born?",
            compare="Who was born first, {a} or {b}?",
        )
    ]


def _life_places(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str],
    m: Any,
) -> list[Fact]:
    """Born-in / died-in places of a life parenthesis: "<date> in <place>" (see `life_facts`)."""
    out = []
    born = "born" if m.group("born") else "b2"
    spans = [(born, "bear|in|place", "Where was {s} born?", "the {c} where {s} was born")]
    if m.group("d2"):
        spans.append(("d2", "die|in|place", "Where did {s} die?", "the {c} where {s} died"))
    for group, relation, ask, describe in spans:
        hit = re.search(r"\d{4}\s+in\s+", m.group(group) or "")
        if hit is None:
            continue
        at = m.start(group) + hit.end()
        ent = next((e for e in doc.ents if e.start_char == at), None)
        if ent is None or KIND.get(ent.label_) != TruthType.PLACE.value:
            continue
        target = place_target(ent.root, ent, resolve)
        if target == doc_id:
            continue
        out.append(
            Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True, relation=relation,
                answer=ent.text, kind=TruthType.PLACE.value, ask=ask, describe=describe, target=target,
            )
        )
    return out
