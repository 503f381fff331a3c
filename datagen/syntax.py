"""Reading a spaCy parse for the sentence readers: who a verb's subject is (the document, a named
entity, a chat turn's speaker), which typed entity an object token heads, which words of a verb's
core a question keeps, and how tokens are joined back into text.

Tokens are spaCy `Token`s (typed `Any`: spaCy is imported lazily, by datagen.nlp).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from datagen.chains import class_type
from datagen.factbase import KIND
from datagen.mining import word_keys
from datagen.naming import strip_article
from datagen.types import TruthType

# Participles that are not "-ed": the active past for "Who wrote S?".
IRREGULAR_PAST = {
    "written": "wrote", "drawn": "drew", "sung": "sang", "begun": "began", "given": "gave", "shown": "showed",
    "taken": "took", "chosen": "chose", "driven": "drove", "ridden": "rode", "spoken": "spoke", "stolen": "stole",
    "held": "held", "led": "led", "won": "won", "sold": "sold", "bought": "bought", "taught": "taught",
    "built": "built", "made": "made", "founded": "founded", "run": "ran", "known": "knew", "seen": "saw",
    "thrown": "threw", "grown": "grew", "flown": "flew", "overseen": "oversaw", "set": "set", "put": "put",
    "brought": "brought", "fought": "fought", "sent": "sent", "spent": "spent", "kept": "kept", "told": "told",
}
_KEEP_ADVERBS = frozenset("first originally initially officially formally".split())


_OBJECT_SLOTS = frozenset("dobj attr acomp oprd prt".split())


PRONOUNS = frozenset("he she it they his her its their".split())
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")


# Words of rank or office before a name, which NER rightly leaves out of it ("President Woodrow Wilson").
_TITLE_WORDS = frozenset(
    "president king queen prince princess sir dame lord lady saint st dr general admiral captain senator governor "
    "mayor judge pope emperor empress chancellor minister premier bishop archbishop cardinal father mr mrs ms "
    "professor prof coach chief colonel major lieutenant sergeant representative rep sen gov justice commander "
    "vice secretary chairman ambassador rabbi reverend rev duke duchess count countess baron earl sheikh sultan".split()
)
# Parts of a place that stand for it after "of": on "the south bank of the Ottawa River" is on the river.
_SIDES = frozenset("bank banks shore shores coast edge outskirts foot mouth".split())
_DEMONYM_OR_NUMBER = re.compile(r"^[\d.,]+$")
MAX_SLOT_TOKENS = 6


# "a city in Franklin County": the place word of the answer's own name, when it has one.
PLACE_CLASS = re.compile(
    r"\b(County|Province|District|State|Region|Department|Prefecture|Parish|Municipality|Borough|Oblast|Canton)$"
)


def names_subject(token: Any, name: str) -> bool:
    if not name:
        return False
    span = word_keys(strip_article(token.doc[token.left_edge.i : token.i + 1].text))
    full = word_keys(strip_article(name))
    if span == full:
        return True
    # a name whose head comes first ("The Face of Another", "Story of Wine"): the subject's words up to
    # its end, or to the parenthesis after the title ("Story of Wine (스토리 오브 와인 …) is a film")
    words = [t for t in token.subtree if t.i >= token.left_edge.i]
    cut = next((k for k, t in enumerate(words) if t.text in ("(", ",")), len(words))
    if cut > 1 and word_keys(strip_article(token.doc[words[0].i : words[cut - 1].i + 1].text)) == full:
        return True
    if "," in name and span == word_keys(strip_article(name.split(",", 1)[0])):
        return True  # "Stamford" in the document "Stamford, Connecticut"
    if token.pos_ == "PROPN" and fuller_name(span, full):
        return True  # "Cynthia Ellen Nixon (born April 9, 1966) is …" in the document "Cynthia Nixon"
    # "Bauer attended…" in the document "John Bauer": a person's later sentences use the surname
    return (
        len(span) == 1 and 2 <= len(full) <= 4 and span[0] == full[-1] and token.pos_ == "PROPN"
        and len(span[0]) >= 3 and span[0].isalpha() and not PLACE_CLASS.search(name)
        and all(w[:1].isupper() for w in name.split())
    )


# What may follow an organisation's name in its own defining sentence ("Mondelez International, Inc.").
_LEGAL_SUFFIXES = frozenset("inc ltd llc plc corp co company sa ag gmbh nv bv lp".split())
# What may follow a person's full name ("John Samuel Waters Jr.").
_GENERATIONS = frozenset("jr sr ii iii iv".split())


# A short form → the given names it stands for ("Jim Cummings" opens "James Jonah Cummings (born …)").
_GIVEN_NAMES = {
    short: frozenset(full.split()) for short, full in {
        "jim": "james", "jimmy": "james", "bill": "william", "billy": "william", "will": "william", "bob": "robert",
        "bobby": "robert", "rob": "robert", "larry": "lawrence", "dick": "richard", "rick": "richard",
        "tom": "thomas", "tommy": "thomas", "mike": "michael", "mick": "michael", "dave": "david",
        "steve": "steven stephen", "ted": "edward theodore", "ed": "edward", "eddie": "edward", "ned": "edward",
        "chuck": "charles", "charlie": "charles", "harry": "henry", "hank": "henry", "jack": "john",
        "peggy": "margaret", "maggie": "margaret", "kate": "katherine catherine", "liz": "elizabeth",
        "beth": "elizabeth", "betty": "elizabeth", "sue": "susan", "tony": "anthony", "andy": "andrew",
        "sam": "samuel", "ben": "benjamin", "fred": "frederick", "joe": "joseph", "pat": "patrick patricia",
        "dan": "daniel", "danny": "daniel", "don": "donald", "ron": "ronald", "ray": "raymond", "gene": "eugene",
        "jerry": "gerald jerome", "frank": "francis franklin", "hal": "harold", "walt": "walter", "matt": "matthew",
        "nick": "nicholas", "alex": "alexander", "tim": "timothy", "greg": "gregory", "jeff": "jeffrey",
    }.items()
}


def fuller_name(span: tuple[str, ...], full: tuple[str, ...]) -> bool:
    """Whether `span` is the longer form of the name `full` a page's first sentence gives (Wikipedia's
    habit; before, such a page had no class, no birth date and no relation about itself, so no chain
    could end on it: 37 of a HotpotQA corpus's 158 links stopped there). A person's full name keeps the
    surname and starts with the title's first name or a longer form of it ("Kenneth Charles Loach" for
    "Ken Loach", "Nicholas Lofton Nick Hexum" for "Nick Hexum"); an organisation's adds a legal or club
    suffix of initials ("Leeds Rhinos R.L.F.C.", "Mondelez International, Inc."). One word names nothing."""
    if len(full) < 2 or len(span) <= len(full) or len(span) > len(full) + 6:
        return False
    if span[: len(full)] == full:
        return all(w in _LEGAL_SUFFIXES or len(w) == 1 for w in span[len(full):])
    if span[-1] in _GENERATIONS and full[-1] not in _GENERATIONS:
        span = span[:-1]  # "John Samuel Waters Jr." for "John Waters"
        if len(span) <= len(full):
            return False
    if len(span) > len(full) + 3 or span[-1] != full[-1]:
        return False
    first = full[0]
    # "Kenneth" for "Ken", and the other way, "John William Carson" for "Johnny Carson"
    longer = len(first) >= 3 and span[0].startswith(first) or len(span[0]) >= 4 and first.startswith(span[0])
    longer = longer or span[0] in _GIVEN_NAMES.get(first, ()) or first in _GIVEN_NAMES.get(span[0], ())
    if not (span[0] == first or longer or first in span[1:-1]):
        return False
    rest = iter(span[1:-1])
    return all(w in rest for w in full[1:-1])  # the title's middle words in order


def clause_subject(verb: Any) -> Any | None:
    """The subject of a clause: its nsubj, else the subject of a "born" clause the parser made the
    subject ("Christopher Edward Nolan ( ; born 30 July 1970) is a film director": Nolan is parsed as
    the subject of "born", and "born" as the subject of "is"; Wikipedia's pronunciation residue does it)."""
    subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    if subj is not None:
        return subj
    for clause in (c for c in verb.children if c.dep_ == "csubj" and c.lemma_ in ("bear", "born")):
        inner = next((c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if inner is not None and inner.i < clause.i:
            return inner
    return None


def clause_root(verb: Any) -> Any:
    """The verb whose subject a participle or a conjunct shares: "X was born in A and died in B" (died →
    born), "X is a film directed by Y" (directed → is), "X is a film written and directed by Y"
    (directed → written → is)."""
    head = verb
    while head.dep_ == "conj" and head.head.pos_ in ("VERB", "AUX"):
        head = head.head
    if head.dep_ == "acl" and head.head.dep_ == "attr":
        head = head.head.head
    return head


def title_copula(doc: Any, name: str) -> Any | None:
    """The "is"/"was" right after the page's name where a sentence opens with it ("The Dark Knight
    Rises is a 2012 superhero film", "Jalachhayam (മലയാളം: ) is a 2010 film"), or None. A title is
    often parsed as a clause of its own ("Rises" a verb, "Out" an adverb), so no subject names the page
    and its defining sentence gave nothing (issue 36: 22 "directed by" links of a HotpotQA corpus)."""
    if not name or len(name) < 2:
        return None
    m = re.match(
        r"^[\"“']?(?:the\s+)?" + re.escape(strip_article(name)) + r"[\"”']?\s*(?:\([^()]*\)\s*)?,?\s*(is|was|are|were)\s",
        doc.text, re.IGNORECASE,
    )
    if m is None:
        return None
    return next((t for t in doc if t.idx == m.start(1) and t.lemma_ == "be"), None)


def entity_of(token: Any) -> Any | None:
    for ent in token.doc.ents:
        if ent.start <= token.i < ent.end:
            return ent
    return None


def subject_of(verb: Any, name: str, speaker: str = "", own_class: str = "") -> tuple[str, bool] | None:
    """(how the subject is named, whether it is the document itself) for a verb, or None.

    own_class: the head word of what the document is ("album" for "Boots (album)" or a page defining
    "a studio album"): "The album was produced by Lee Hazlewood" is then about the document itself, as
    an encyclopedia's later sentences say it."""
    subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    opening = title_copula(verb.doc, name)
    if opening is not None and clause_root(verb).i == opening.i and (
        subj is None or verb.i == opening.i or subj.i < opening.i
    ):
        return name, True  # "The Dark Knight Rises is a 2012 film directed by …": the title is the subject
    if subj is None and verb.dep_ in ("conj", "acl", "relcl") and verb.head.pos_ in ("VERB", "AUX", "NOUN"):
        # "X was born in A and died in B": the conjunct shares the first verb's subject;
        # "X is a film directed by Y": the participle's noun is the sentence's attribute of X;
        # "X is a film written and directed by Y": so is a participle's conjunct
        head = clause_root(verb) if verb.dep_ in ("conj", "acl") else verb.head
        subj = next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None and verb.dep_ == "acl" and verb.tag_ == "VBN" and verb.head.dep_ in ("nsubj", "nsubjpass"):
        subj = verb.head  # "Hebron Academy, founded in 1804, is a school": the participle's noun is the subject
    if subj is None and opening_participle(verb):
        # "Born in Benton, Illinois, Bauer attended…": the opening participle's subject is the clause's
        subj = next((c for c in verb.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is not None and subj.lower_ in ("that", "which", "who") and verb.dep_ == "relcl":
        # "X is a school that was founded in 1887": the relative pronoun stands for the noun it
        # follows, which is X itself when it is the attribute of "X is".
        head = verb.head
        if head.dep_ == "attr" and any(
            c.dep_ == "prep" and c.i > head.i and c.right_edge.i >= subj.i - 2 for c in head.children
        ):
            # "Rome became the capital of the Kingdom of Italy, which, in 1946, became the Italian Republic":
            # "which" follows the "of" phrase and may stand for it (it does here), not for Rome
            return None
        if head.dep_ == "attr":
            subj = next((c for c in head.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        elif head.dep_ in ("nsubj", "nsubjpass"):
            subj = head
        else:
            return None
    if subj is None:
        return None
    if subj.lower_ == "i" and speaker:
        return speaker, False  # a chat turn's "I" is its speaker
    if subj.lower_ == "they" and not name.rstrip().lower().endswith("s"):
        # "they drive to Stamford" in "The Boat" is the episode's characters; "they" is a document
        # only when its name is a plural ("The Cardigans", "Hunter Industries")
        return None
    if subj.lower_ in PRONOUNS and subj.dep_ != "poss":
        if verb.dep_ == "relcl":
            return None  # "a book which covers MGM since 1969, when it was bought by Kerkorian": "it" is MGM
        if re.match(r"(?i)(?:the\s+)?lists?\s+of\b", name):
            return None  # "she was replaced by Rose McGowan" in "List of Charmed characters" is one of them
        if subj.lower_ in ("he", "she") and own_class and class_type(own_class) not in ("", TruthType.PERSON.value):
            return None  # "she made friends with Annet Artani" in the song "Everytime" is its singer, not the song
        return (name, True) if name else None
    if names_subject(subj, name):
        return name, True
    if name and own_class and refers_to_own_class(subj, own_class):
        return name, True
    ent = entity_of(subj)
    if ent is not None and ent.root == subj and ent.label_ in ("PERSON", "ORG", "GPE", "FAC", "WORK_OF_ART", "EVENT"):
        return ent.text, False
    return None


def refers_to_own_class(subj: Any, own_class: str) -> bool:
    """"The album" / "The film" alone (no other modifier), the document's own class word."""
    children = list(subj.children)
    return (
        subj.pos_ == "NOUN" and subj.lower_ == own_class.lower()
        and len(children) == 1 and children[0].dep_ == "det" and children[0].lower_ in ("the", "this")
    )


def own_class_word(title: str, defined: str) -> str:
    """The head word of what a document is: its title's parenthesis ("Boots (album)" → "album",
    "Pitfall (1962 film)" → "film"), else the last word of the class its first sentence defines."""
    m = re.search(r"\(([^()]*)\)\s*$", title)
    if m and m.group(1).split() and m.group(1).split()[-1].isalpha():
        return m.group(1).split()[-1].lower()
    return defined.split()[-1].lower() if defined.split() else ""


def opening_participle(verb: Any) -> bool:
    """A past participle opening its sentence as an adverbial clause ("Born in X, Y attended…")."""
    return verb.dep_ == "advcl" and verb.tag_ == "VBN" and verb.i < verb.head.i and verb.i == verb.sent.start


_COMPASS = frozenset("north south east west northeast northwest southeast southwest".split())


def object_span(token: Any) -> Any | None:
    """The typed entity an object token heads (a date must hold a year), or None.

    A common noun stands for the name it introduces: "the engineer Ilsa Venn" (apposition),
    "the mountain village of Tarn" (a proper noun after "of")."""
    if token.lower_ in _COMPASS and entity_of(token) is None:
        return None  # "bordered … to the east, North Carolina": a direction is no name, nor does it stand for one
    if token.pos_ in ("NOUN", "PROPN") and entity_of(token) is None:  # "the south bank" tagged PROPN too
        named = [c for c in token.children if c.dep_ == "appos" and c.pos_ == "PROPN"]
        if class_type(token.lower_) or token.lower_ in _SIDES:
            # "the village of Tarn", "the south bank of the Ottawa River" — not "citizens of Canada" nor
            # "the political control of the Papacy" (hand-read MuSiQue, session 30: "the country that visa
            # requirements were placed on", "the organization Rome fell under")
            named += [
                g for c in token.children if c.dep_ == "prep" and c.lower_ == "of"
                for g in c.children if g.dep_ == "pobj" and g.pos_ == "PROPN"
            ]
        if len(named) != 1:
            return None
        token = named[0]
    ent = entity_of(token)
    if ent is None or ent.label_ not in KIND:
        return None
    if ent.label_ == "DATE" and not _YEAR.search(ent.text):
        return None
    before = token.doc[ent.start - 1] if ent.start > 0 else None
    if (
        before is not None and before.dep_ == "compound" and before.pos_ == "PROPN"
        and ent.start <= before.head.i < ent.end and before.lower_.rstrip(".") not in _TITLE_WORDS
    ):
        return None  # NER cut the name: "Bora" of "Biswajeet Bora" answers with half of it ("President" is a title)
    if ent.label_ != "DATE" and _DEMONYM_OR_NUMBER.match(ent.text):
        return None
    if any(c.dep_ == "conj" for c in token.children) and not _place_qualifier(token, ent):
        return None  # "by A and B": the question would have two answers
    return ent


def _place_qualifier(token: Any, ent: Any) -> Any | None:
    """The place a place is qualified by ("Benton, Illinois": Illinois), or None: a conjunct that is a
    place, joined by a comma and no "and"/"or", is the larger place, not a second answer."""
    if KIND.get(ent.label_) != TruthType.PLACE.value or any(c.dep_ == "cc" for c in token.children):
        return None
    conjs = [c for c in token.children if c.dep_ == "conj"]
    if len(conjs) != 1 or conjs[0].i != ent.end + 1 or token.doc[ent.end].text != ",":
        return None
    other = entity_of(conjs[0])
    if other is None or KIND.get(other.label_) != TruthType.PLACE.value:
        return None
    return other


def place_target(token: Any, ent: Any, resolve: Callable[[str, bool], str]) -> str:
    """The document a place names, trying its qualified form first ("Benton, Illinois", then "Benton")."""
    larger = _place_qualifier(token, ent) if any(c.dep_ == "conj" for c in token.children) else None
    if larger is not None:
        found = resolve(f"{ent.text}, {larger.text}", True)
        if found:
            return found
    return resolve(ent.text, token.pos_ == "PROPN")


def slot_words(verb: Any, skip: set[int]) -> list[Any] | None:
    """Tokens of the verb's core a question keeps (objects, particles, negation, a few adverbs), in
    order; None when a kept slot is too long to ask about."""
    kept = []
    for child in verb.children:
        if child.i in skip:
            continue
        if child.dep_ in _OBJECT_SLOTS:
            sub = list(child.subtree)
            if len(sub) > MAX_SLOT_TOKENS or any(
                t.is_punct or t.dep_ in ("relcl", "acl", "appos", "cc", "conj") or t.tag_ in ("WDT", "WP", "WP$")
                for t in sub
            ):  # a relative pronoun in a slot ("sold which to") belongs to another clause
                return None
            kept.extend(sub)
        elif child.dep_ == "advmod" and child.lower_ in _KEEP_ADVERBS:
            kept.append(child)
    return sorted(kept, key=lambda t: t.i)


def join_tokens(tokens: Iterable[Any]) -> str:
    """Tokens as text: the sentence's own spacing between neighbours ("Arthur's"), one space elsewhere."""
    tokens = list(tokens)
    out = ""
    for t, nxt in zip(tokens, [*tokens[1:], None], strict=False):
        adjacent = nxt is not None and hasattr(t, "i") and hasattr(nxt, "i") and nxt.i == t.i + 1
        out += t.text + (t.whitespace_ if adjacent else " ")
    return re.sub(r"\s+", " ", out).strip()


@dataclass(frozen=True)
class ImpliedWord:
    """An auxiliary the sentence implies but does not spell ("an astronomer, born in…" → "was")."""

    text: str
    dep_: str
    whitespace_: str = " "


def passive_participle(verb: Any) -> str:
    """'founded' for "X founded Y" (the passive participle of "the company founded by X"), or ""."""
    text = verb.lower_
    if verb.tag_ in ("VBD", "VBN") and text.endswith("ed"):
        return text
    return {past: part for part, past in IRREGULAR_PAST.items()}.get(text, "")


def past_tense(verb: Any) -> str:
    text = verb.lower_
    if verb.tag_ == "VBD" or text.endswith("ed"):
        return text
    return IRREGULAR_PAST.get(text, "")


def tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\s+([?,.])", r"\1", text)
