"""Facts read off a parsed corpus: (subject, relation, typed object), each with the question that asks
for the object and the phrase that describes the object through the subject.

From "Buckaroo Sheriff of Texas is a 1951 American western film directed by Philip Ford." the parse
gives the fact (Buckaroo Sheriff of Texas, direct·by, Philip Ford: person) with

- ask:      "Who directed {s}?"           (wh-movement on the parse; {s} is where the subject goes)
- describe: "the director of {s}"          (the object, described and never named)
- target:   the document titled "Philip Ford", when that name resolves to exactly one document.

A bridge question nests them: the answer fact of the last document asks about the description built
from the one before ("When was the director of Buckaroo Sheriff of Texas born?"), as HotpotQA and
2WikiMultihopQA compose theirs. Only a few dependency shapes are read (object of a preposition, of a
passive "by", direct object, "was a member of"; and, without a verb, the defining sentence's "X is a
city in Y" / "X is a song by Y" and a life parenthesis "(1857 in A – 1945 in B)", which state most of
MuSiQue's first hops), and a fact is dropped rather than guessed whenever
its question would need more than the sentence's core (long objects, lists, clauses): a fact we
cannot phrase well is worth less than no fact.

Links are strict (the issue's "real chains"): an object names a document only when its text is that
document's title (or the title without its parenthetical) and no other document's; a single word
names a document only when it is a proper noun that no other title shares. Shared common words,
homonym titles and hub titles are no link. A place titled "City, State" is named by "City" alone only
where the naming document also names the state.

Documents whose title names nothing (a heading many chat turns share, a file name the text never
says) are asked about the subjects they name, and a chat turn's "I" is its speaker.

One exception, the article: HotpotQA- and MuSiQue-style corpora split a Wikipedia page into
paragraphs that all carry the page's title ("Paris" ×6). Documents sharing one exact title are one
article when at least half of them name that title in their own text (an "Introduction" or
"Session 2" heading shared by unrelated documents does not); a name then resolves to the article,
its facts are read together (a relation stated with two answers in two paragraphs is not asked), and
the gold document of each fact is the paragraph that states it (`articles`, `FactBase.article`).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from datagen.mining import MinedCorpus, fold, word_keys
from datagen.types import TruthType

# spaCy entity label → the answer's truth type (NORP, ORDINAL, PERCENT… are never answers here).
KIND = {
    "DATE": TruthType.DATE.value,
    "PERSON": TruthType.PERSON.value,
    "GPE": TruthType.PLACE.value,
    "LOC": TruthType.PLACE.value,
    "FAC": TruthType.PLACE.value,
    "ORG": TruthType.ORGANIZATION.value,
    "WORK_OF_ART": TruthType.ENTITY.value,
    "EVENT": TruthType.ENTITY.value,
    "PRODUCT": TruthType.ENTITY.value,
}
# A class word for an object when its own document gives none.
FALLBACK_CLASS = {
    TruthType.PERSON.value: "person",
    TruthType.PLACE.value: "place",
    TruthType.ORGANIZATION.value: "organization",
    TruthType.ENTITY.value: "work",
}
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
_OBJECT_SLOTS = frozenset("dobj attr acomp oprd prt".split())
# Prepositions whose object is a relation worth asking about ("plays for X", "merged with X").
_RELATION_PREPS = frozenset("for with into to under against alongside onto from".split())
_PRONOUNS = frozenset("he she it they his her its their".split())
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_MONTH = "(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_CLEAN_DATE = re.compile(rf"(?:\d{{1,2}} {_MONTH} \d{{4}}|{_MONTH} \d{{1,2}}, \d{{4}}|{_MONTH} \d{{4}}|\d{{4}})")
_DEMONYM_OR_NUMBER = re.compile(r"^[\d.,]+$")
_MAX_SLOT_TOKENS = 6
_MAX_TITLE_WORDS = 8


@dataclass(frozen=True)
class Fact:
    """One relation of a document's subject, with what it takes to ask about it.

    sentence: verbatim sentence of chunk `chunk_id` (a slice of the chunk's text).
    subject: how the sentence names its subject; about_doc: the subject is the document itself
        (its title, or a pronoun in a titled document), so `{s}` may be filled with the title.
    relation: a key "lemma|prep|kind" that identifies the relation across documents (comparisons,
        and the check that a document states it once). answer: the object, verbatim; kind: its type.
    ask: the wh-question with "{s}" for the subject. describe: a noun phrase naming the object
        through the subject, "{s}" for the subject and "{c}" for the object's class ("" if none).
    compare: "Which {c} was founded first, {a} or {b}?"-style template ("" if the relation has none).
    target: the document the object names ("" when it names none).
    """

    doc_id: str
    chunk_id: str
    sentence: str
    subject: str
    about_doc: bool
    relation: str
    answer: str
    kind: str
    ask: str
    describe: str = ""
    compare: str = ""
    target: str = ""
    aliases: tuple[str, ...] = ()


@dataclass
class FactBase:
    """Every fact of a corpus, the class word of each document, and what was skipped.

    classes: doc id → a short class noun phrase from the document's defining sentence
    ("Philip Ford was an American film director" → "film director").
    names: doc id → the name used for the document in questions (its title without a parenthetical).
    skipped: reason → sentences not read (non-English, too long, no parse).
    articles: doc id → every paragraph of its article, the first one standing for it (see the module
        docstring); documents that are an article alone are not listed.
    """

    facts: dict[str, list[Fact]] = field(default_factory=dict)
    classes: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    skipped: Counter = field(default_factory=Counter)
    sentences: int = 0
    articles: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def article(self, doc_id: str) -> str:
        """The document standing for `doc_id`'s article (itself when it is an article alone)."""
        return self.articles.get(doc_id, (doc_id,))[0]

    def n_facts(self) -> int:
        return sum(len(v) for v in self.facts.values())

    def n_links(self) -> int:
        return sum(1 for v in self.facts.values() for f in v if f.target)


def articles(mined: MinedCorpus, min_naming: float = 0.5) -> dict[str, tuple[str, ...]]:
    """doc id → the paragraphs of its article, in corpus order, for documents that share their exact
    title with others and are one article's paragraphs: at least `min_naming` of them name the title
    in their own text (see the module docstring)."""
    by_title: dict[str, list[str]] = defaultdict(list)
    for doc_id, title in mined.titles.items():
        if title.strip():
            by_title[title.strip()].append(doc_id)
    out: dict[str, tuple[str, ...]] = {}
    for title, docs in by_title.items():
        if len(docs) < 2:
            continue
        bare = _strip_article(re.sub(r"\s*\([^()]*\)\s*$", "", title))
        pattern = re.compile(r"\b" + re.escape(bare) + r"\b", re.IGNORECASE)
        naming = sum(1 for d in docs if any(pattern.search(s.text) for s in mined.sentences.get(d, [])))
        if naming >= min_naming * len(docs):
            group = tuple(docs)
            out.update({d: group for d in docs})
    return out


def title_resolver(
    mined: MinedCorpus, grouped: Mapping[str, tuple[str, ...]] | None = None
) -> Callable[..., str]:
    """name → the one document (or article, by its first paragraph) it names, or "" (see the module
    docstring for what counts). grouped: `articles(mined)`.

    A place titled "City, State" is named by "City" alone only where the naming document also names
    the state (`context`, the naming document's text): "born in Stamford" in a page that never says
    Connecticut may be Stamford, Lincolnshire, which the corpus may not hold."""
    grouped = grouped or {}
    by_key: dict[tuple[str, ...], set[str]] = defaultdict(set)
    qualifier: dict[tuple[str, ...], str] = {}  # the key "Stamford" → "Connecticut" (the comma's right side)
    for doc_id, forms in mined.title_forms.items():
        for form in forms:
            names = [(form, "")]
            if "," in form:  # "Portland, Oregon" is named "Portland" in running text
                names.append((form.split(",", 1)[0], form.split(",", 1)[1].strip()))
            for name, qual in names:
                key = word_keys(_strip_article(name))
                if 0 < len(key) <= _MAX_TITLE_WORDS:
                    by_key[key].add(grouped.get(doc_id, (doc_id,))[0])
                    if qual:
                        qualifier[key] = qual
                    else:
                        qualifier.pop(key, "")  # also a title of its own: no qualifier needed

    def resolve(name: str, proper: bool, context: str | None = None) -> str:
        key = word_keys(_strip_article(name))
        docs = by_key.get(key)
        if not docs or len(docs) != 1:
            return ""  # unknown, or a homonym several documents share
        if len(key) == 1 and (not proper or len(key[0]) < 4):
            return ""  # one short or common word identifies nothing
        qual = qualifier.get(key)
        if qual and context is not None and not re.search(r"(?<!\w)" + re.escape(qual.split(",")[0].strip()) + r"(?!\w)", context):
            return ""  # "Stamford" without "Connecticut" may be another Stamford
        return next(iter(docs))

    return resolve


def _strip_article(text: str) -> str:
    return re.sub(r"^(the|a|an)\s+", "", text.strip(), flags=re.IGNORECASE)


def _latin_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if c.isascii() or "\u00c0" <= c <= "\u024f") / len(letters)


def read_facts(
    mined: MinedCorpus,
    nlp: Any,
    *,
    progress: Callable[[int], None] | None = None,
    batch_size: int = 64,
    parse_cache: Path | None = None,
) -> FactBase:
    """Parse every sentence of the mined corpus once and extract its facts (see the module docstring).

    Sentences that are not in a Latin script (the English model cannot parse them) or longer than
    80 words are skipped and counted by reason in `FactBase.skipped`. parse_cache: a file (spaCy
    DocBin) that keeps the parse between runs (see `_parsed`).
    """
    base = FactBase(articles=articles(mined))
    resolve = title_resolver(mined, base.articles)
    headings = _headings(mined, base.articles) | _file_labels(mined)
    for doc_id in mined.titles:
        forms = mined.title_forms.get(doc_id) or []
        # the bare form (no parenthetical) when there is one; a heading many documents share names none
        base.names[doc_id] = forms[-1] if forms and doc_id not in headings else ""
    items: list[tuple[str, str, str]] = []  # (doc_id, chunk_id, sentence text)
    for doc_id, sentences in mined.sentences.items():
        for sent in sentences:
            text = sent.text.strip()
            if not text:
                continue
            if _latin_share(text) < 0.8:
                base.skipped["not_english"] += 1
                continue
            if len(text.split()) > 80:
                base.skipped["too_long"] += 1
                continue
            items.append((doc_id, sent.chunk_id, text))
    base.sentences = len(items)
    seen_first: set[str] = set()
    doc_texts: dict[str, str] = {}
    parsed = _parsed(nlp, [t for _, _, t in items], parse_cache, facts_fingerprint(mined), batch_size)
    for n, ((doc_id, chunk_id, text), doc) in enumerate(zip(items, parsed, strict=True)):
        if progress is not None and n % 200 == 0:
            progress(n)
        name = base.names.get(doc_id, "")
        first = doc_id not in seen_first
        seen_first.add(doc_id)
        if doc_id not in base.classes:
            cls = _defining_class(doc, name)
            if cls:
                base.classes[doc_id] = cls
        if doc_id not in doc_texts:
            doc_texts.clear()  # the sentences come document by document
            doc_texts[doc_id] = mined.doc_text(doc_id)
        resolve_here = partial(resolve, context=doc_texts[doc_id])
        speaker = _speaker(doc_texts[doc_id])
        for fact in _sentence_facts(doc, doc_id, chunk_id, text, name, resolve_here, first, speaker):
            if fact.target and fact.target == base.article(doc_id):
                continue  # "Paris" in a paragraph of the Paris article names its own article
            base.facts.setdefault(doc_id, []).append(fact)
    if progress is not None:
        progress(len(items))
    _article_facts(base, mined)
    return base


_SPEAKER = re.compile(r"^([A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}):\s")


def _speaker(text: str) -> str:
    """Who speaks a chat turn ("Caroline: I went to…" → "Caroline"), or ""."""
    m = _SPEAKER.match(text.lstrip())
    return m.group(1) if m else ""


def _headings(mined: MinedCorpus, grouped: Mapping[str, tuple[str, ...]]) -> set[str]:
    """Documents whose title is a heading, not a name: three or more documents share it, they are no
    article, and none names it ("Caroline & Melanie, session 1" over a chat session's turns). They are
    asked about the subjects they name, as documents without a title are."""
    by_title: dict[str, list[str]] = defaultdict(list)
    for doc_id, title in mined.titles.items():
        if title.strip() and doc_id not in grouped:
            by_title[title.strip()].append(doc_id)
    out: set[str] = set()
    for title, docs in by_title.items():
        if len(docs) < 3:
            continue
        bare = _strip_article(re.sub(r"\s*\([^()]*\)\s*$", "", title))
        pattern = re.compile(r"\b" + re.escape(bare) + r"\b", re.IGNORECASE)
        if not any(pattern.search(s.text) for d in docs for s in mined.sentences.get(d, [])):
            out.update(docs)
    return out


def _file_labels(mined: MinedCorpus) -> set[str]:
    """Files whose title is their file name ("2025 06 30 wren farewell" for mail/2025-06-30-wren-farewell.txt)
    and which never say it: a label, not a name to ask about (mail, chat logs, filings)."""
    out = set()
    for doc_id, title in mined.titles.items():
        if not re.search(r"\.[A-Za-z0-9]{1,5}$", doc_id) or not title.strip():
            continue
        pattern = re.compile(r"\b" + re.escape(title.strip()) + r"\b", re.IGNORECASE)
        if not any(pattern.search(s.text) for s in mined.sentences.get(doc_id, [])):
            out.add(doc_id)
    return out


def _article_facts(base: FactBase, mined: MinedCorpus) -> None:
    """In a paragraph of a many-paragraph article, "it" and "the club" may be anything the paragraph
    is about (the stadium in a "Boston" paragraph), so a fact about the article must open with its
    name ("Boston was founded…"), and so must the sentence that gives the article's class."""
    for group in set(base.articles.values()):
        name = _strip_article(base.names.get(group[0], ""))
        if not name:
            continue
        # the name as the sentence's subject: "Boston was…", "Boston, the capital…", not "Boston's arena"
        # or "Boston Braves"
        opens = re.compile(r"^(?:the\s+)?" + re.escape(name) + r"(?=(?-i:\s+[a-z(])|\s*,)", re.IGNORECASE)
        for d in group:
            if d in base.facts:
                base.facts[d] = [f for f in base.facts[d] if not f.about_doc or opens.match(f.sentence.strip())]
        leads = [d for d in group if mined.sentences.get(d) and opens.match(mined.sentences[d][0].text.strip())]
        cls = next((base.classes[d] for d in leads if base.classes.get(d)), "")
        for d in group:
            base.classes.pop(d, None)
        if cls:
            base.classes[group[0]] = cls


def _defining_class(doc: Any, name: str) -> str:
    """'X is/was a [NORP] [compound] NOUN' → 'compound NOUN' (lower case), for a sentence about X."""
    for sent in doc.sents:
        root = sent.root
        if root.lemma_ != "be":
            continue
        subj = next((c for c in root.children if c.dep_ == "nsubj"), None)
        attr = next((c for c in root.children if c.dep_ == "attr"), None)
        if subj is None or attr is None or attr.pos_ != "NOUN":
            continue
        if not (_names_subject(subj, name) or subj.lower_ in _PRONOUNS):
            continue
        compounds = [c for c in attr.lefts if c.dep_ == "compound" and c.pos_ == "NOUN"]
        words = [c.lower_ for c in compounds[-1:]] + [attr.lower_]
        return " ".join(words)
    return ""


def _names_subject(token: Any, name: str) -> bool:
    if not name:
        return False
    span = word_keys(_strip_article(token.doc[token.left_edge.i : token.i + 1].text))
    full = word_keys(_strip_article(name))
    if span == full:
        return True
    if "," in name and span == word_keys(_strip_article(name.split(",", 1)[0])):
        return True  # "Stamford" in the document "Stamford, Connecticut"
    # "Bauer attended…" in the document "John Bauer": a person's later sentences use the surname
    return (
        len(span) == 1 and 2 <= len(full) <= 4 and span[0] == full[-1] and token.pos_ == "PROPN"
        and len(span[0]) >= 3 and span[0].isalpha() and not _PLACE_CLASS.search(name)
        and all(w[:1].isupper() for w in name.split())
    )


def _entity_of(token: Any) -> Any | None:
    for ent in token.doc.ents:
        if ent.start <= token.i < ent.end:
            return ent
    return None


def _subject(verb: Any, name: str, speaker: str = "") -> tuple[str, bool] | None:
    """(how the subject is named, whether it is the document itself) for a verb, or None."""
    subj = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None and verb.dep_ in ("conj", "acl", "relcl") and verb.head.pos_ in ("VERB", "AUX", "NOUN"):
        # "X was born in A and died in B": the conjunct shares the first verb's subject;
        # "X is a film directed by Y": the participle's noun is the sentence's attribute of X.
        head = verb.head
        if verb.dep_ == "acl" and head.dep_ == "attr":
            head = head.head
        subj = next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None and _opening_participle(verb):
        # "Born in Benton, Illinois, Bauer attended…": the opening participle's subject is the clause's
        subj = next((c for c in verb.head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is not None and subj.lower_ in ("that", "which", "who") and verb.dep_ == "relcl":
        # "X is a school that was founded in 1887": the relative pronoun stands for the noun it
        # follows, which is X itself when it is the attribute of "X is".
        head = verb.head
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
    if subj.lower_ in _PRONOUNS and subj.dep_ != "poss":
        return (name, True) if name else None
    if _names_subject(subj, name):
        return name, True
    ent = _entity_of(subj)
    if ent is not None and ent.root == subj and ent.label_ in ("PERSON", "ORG", "GPE", "FAC", "WORK_OF_ART", "EVENT"):
        return ent.text, False
    return None


def _opening_participle(verb: Any) -> bool:
    """A past participle opening its sentence as an adverbial clause ("Born in X, Y attended…")."""
    return verb.dep_ == "advcl" and verb.tag_ == "VBN" and verb.i < verb.head.i and verb.i == verb.sent.start


def _object_span(token: Any) -> Any | None:
    """The typed entity an object token heads (a date must hold a year), or None.

    A common noun stands for the name it introduces: "the engineer Ilsa Venn" (apposition),
    "the mountain village of Tarn" (a proper noun after "of")."""
    if token.pos_ == "NOUN" and _entity_of(token) is None:
        named = [c for c in token.children if c.dep_ == "appos" and c.pos_ == "PROPN"]
        named += [
            g for c in token.children if c.dep_ == "prep" and c.lower_ == "of"
            for g in c.children if g.dep_ == "pobj" and g.pos_ == "PROPN"
        ]
        if len(named) != 1:
            return None
        token = named[0]
    ent = _entity_of(token)
    if ent is None or ent.label_ not in KIND:
        return None
    if ent.label_ == "DATE" and not _YEAR.search(ent.text):
        return None
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
    other = _entity_of(conjs[0])
    if other is None or KIND.get(other.label_) != TruthType.PLACE.value:
        return None
    return other


def _place_target(token: Any, ent: Any, resolve: Callable[[str, bool], str]) -> str:
    """The document a place names, trying its qualified form first ("Benton, Illinois", then "Benton")."""
    larger = _place_qualifier(token, ent) if any(c.dep_ == "conj" for c in token.children) else None
    if larger is not None:
        found = resolve(f"{ent.text}, {larger.text}", True)
        if found:
            return found
    return resolve(ent.text, token.pos_ == "PROPN")


def _slot_words(verb: Any, skip: set[int]) -> list[Any] | None:
    """Tokens of the verb's core a question keeps (objects, particles, negation, a few adverbs), in
    order; None when a kept slot is too long to ask about."""
    kept = []
    for child in verb.children:
        if child.i in skip:
            continue
        if child.dep_ in _OBJECT_SLOTS:
            sub = list(child.subtree)
            if len(sub) > _MAX_SLOT_TOKENS or any(
                t.is_punct or t.dep_ in ("relcl", "acl", "appos", "cc", "conj") or t.tag_ in ("WDT", "WP", "WP$")
                for t in sub
            ):  # a relative pronoun in a slot ("sold which to") belongs to another clause
                return None
            kept.extend(sub)
        elif child.dep_ == "advmod" and child.lower_ in _KEEP_ADVERBS:
            kept.append(child)
    return sorted(kept, key=lambda t: t.i)


def _join(tokens: Iterable[Any]) -> str:
    """Tokens as text: the sentence's own spacing between neighbours ("Arthur's"), one space elsewhere."""
    tokens = list(tokens)
    out = ""
    for t, nxt in zip(tokens, [*tokens[1:], None], strict=False):
        adjacent = nxt is not None and hasattr(t, "i") and hasattr(nxt, "i") and nxt.i == t.i + 1
        out += t.text + (t.whitespace_ if adjacent else " ")
    return re.sub(r"\s+", " ", out).strip()


@dataclass(frozen=True)
class _Word:
    """An auxiliary the sentence implies but does not spell ("an astronomer, born in…" → "was")."""

    text: str
    dep_: str
    whitespace_: str = " "


def _participle(verb: Any) -> str:
    """'founded' for "X founded Y" (the passive participle of "the company founded by X"), or ""."""
    text = verb.lower_
    if verb.tag_ in ("VBD", "VBN") and text.endswith("ed"):
        return text
    return {past: part for part, past in IRREGULAR_PAST.items()}.get(text, "")


def _past(verb: Any) -> str:
    text = verb.lower_
    if verb.tag_ == "VBD" or text.endswith("ed"):
        return text
    return IRREGULAR_PAST.get(text, "")


def _sentence_facts(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str], first: bool,
    speaker: str = "",
) -> list[Fact]:
    facts = []
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX"):
            continue
        who = _subject(verb, name, speaker)
        if who is None:
            continue
        subject, about = who
        for path in _object_paths(verb):
            fact = _fact(verb, path, subject, about, doc_id, chunk_id, text, resolve)
            if fact is not None:
                facts.append(fact)
    facts.extend(_life_dates(doc, doc_id, chunk_id, text, name, first, resolve))
    facts.extend(_roles(doc, doc_id, chunk_id, text, name, resolve))
    facts.extend(_copular_relations(doc, doc_id, chunk_id, text, name, resolve))
    return facts


# "X is a song by Y": the class noun says which role the by-phrase names (MuSiQue's "performer",
# "author", "composer"). Nouns whose "by" names no single role (film: director? studio?) are not read.
BY_ROLE = {
    **dict.fromkeys("song single album ep track ballad hymn anthem record mixtape".split(), ("performer", "performed")),
    **dict.fromkeys("novel book poem play novella memoir story essay autobiography biography".split(), ("author", "wrote")),
    **dict.fromkeys("opera symphony concerto sonata oratorio operetta cantata".split(), ("composer", "composed")),
    **dict.fromkeys("painting portrait fresco".split(), ("painter", "painted")),
}
# "a city in Franklin County": the place word of the answer's own name, when it has one.
_PLACE_CLASS = re.compile(
    r"\b(County|Province|District|State|Region|Department|Prefecture|Parish|Municipality|Borough|Oblast|Canton)$"
)


_PLACE_NOUNS = frozenset(
    "city town village county community municipality district region state country province suburb neighborhood "
    "neighbourhood borough hamlet commune parish settlement place area island capital seat".split()
)


def _proper_place(ent: Any) -> bool:
    """A named place that determines an answer ("Franklin County"), not a stretch of one ("the east coast")."""
    return ent.root.pos_ == "PROPN" and not re.match(
        r"(?i)(the\s+)?(north|south|east|west|central|northern|southern|eastern|western|upper|lower)\b", ent.text
    )


def _copular_relations(
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
        subj = next((c for c in verb.children if c.dep_ == "nsubj"), None)
        # "a 1974 single by Hank Snow": the parser calls "single" an adjective
        attr = next((c for c in verb.children if c.dep_ == "attr" and (c.pos_ == "NOUN" or c.lower_ in BY_ROLE)), None)
        if attr is None and not any(c.dep_ in ("attr", "acomp") for c in verb.children):
            attr = verb  # "North Dakota is in the Great Plains": the place hangs off the verb itself
        if subj is None or attr is None or any(c.dep_ == "neg" for c in verb.children):
            continue
        if not (_names_subject(subj, name) or (subj.lower_ in _PRONOUNS and subj.dep_ != "poss")):
            continue
        # "X is a composer in Costa Rica" says where X works, not where X "is located"
        subject_ent = _entity_of(subj)
        person = subj.lower_ in ("he", "she") or (
            subject_ent is not None and subject_ent.label_ == "PERSON" and attr.lower_ not in _PLACE_NOUNS
        )  # NER calls "Benton" (a city) a person too
        for prep in (c for c in attr.children if c.dep_ == "prep" and c.lower_ in ("in", "on", "by")):
            pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
            ent = _object_span(pobj) if pobj is not None else None
            if ent is None or word_keys(ent.text) == word_keys(name):
                continue
            kind = KIND[ent.label_]
            be = verb.text.lower()
            if prep.lower_ in ("in", "on") and kind == TruthType.PLACE.value and _proper_place(ent) and not person:
                m = _PLACE_CLASS.search(ent.text)
                word = m.group(1).lower() if m else "{c}"  # {c}: the class of the place's own document
                ask = f"In which {word} {be} {{s}}?"  # "In which county is the city where X was born?"
                describe = f"the {word} where {{s}} {be} located"
                relation = f"locate|in|{kind}"
                target = _place_target(ent.root, ent, resolve)
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
                    relation=relation, answer=ent.text, kind=kind, ask=_tidy(ask), describe=_tidy(describe),
                    target=target,
                )
            )
    return out


def _roles(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str]
) -> list[Fact]:
    """'Its first director was the astronomer Orvald Pike' → (X, first director, Orvald Pike): the
    commonest way an encyclopedia names who holds a role of its subject."""
    out = []
    for verb in doc:
        if verb.lemma_ != "be" or not name:
            continue
        subj = next((c for c in verb.children if c.dep_ == "nsubj" and c.pos_ == "NOUN"), None)
        attr = next((c for c in verb.children if c.dep_ == "attr"), None)
        if subj is None or attr is None:
            continue
        poss = [c for c in subj.children if c.dep_ == "poss"]
        if len(poss) != 1 or not (poss[0].lower_ in ("its", "his", "her", "their") or _names_subject(poss[0], name)):
            continue
        role_words = [t for t in subj.subtree if t.dep_ not in ("poss", "case", "det") and t.i <= subj.i]
        if len(role_words) > 3 or any(t.pos_ not in ("NOUN", "ADJ") for t in role_words):
            continue
        ent = _object_span(attr)
        if ent is None or KIND[ent.label_] == TruthType.DATE.value:
            continue
        kind = KIND[ent.label_]
        role = _join(role_words).lower()
        wh = "Who" if kind == TruthType.PERSON.value else "Which {c}"
        proper = ent.root.pos_ == "PROPN"
        target = resolve(ent.text, proper)
        if target == doc_id:
            continue
        out.append(
            Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True,
                relation=f"{subj.lemma_.lower()}|of|{kind}", answer=ent.text, kind=kind,
                ask=f"{wh} {verb.text.lower()} the {role} of {{s}}?", describe=f"the {role} of {{s}}", target=target,
            )
        )
    return out


def _object_paths(verb: Any) -> Iterable[tuple[str, Any, Any | None, Any | None]]:
    """(shape, object token, preposition, attribute noun) for each object the verb governs."""
    for child in verb.children:
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
        elif child.dep_ == "attr" and child.pos_ == "NOUN":
            for prep in (c for c in child.children if c.dep_ == "prep" and c.lower_ == "of"):
                pobj = next((c for c in prep.children if c.dep_ == "pobj"), None)
                if pobj is not None:
                    yield "attr", pobj, prep, child


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
    vtext = verb.lower_ if _opening_participle(verb) else verb.text  # "Born in X, …" asks "was … born"
    ent = _object_span(obj)
    if ent is None:
        return None
    kind = KIND[ent.label_]
    answer = ent.text
    if word_keys(answer) == word_keys(subject) or fold(answer) in fold(subject):
        return None
    skip = {c.i for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "aux", "auxpass")}
    skip.update(t.i for t in (prep, attr) if t is not None)
    if shape == "dobj":
        skip.add(obj.i)
    if any(c.dep_ == "neg" for c in verb.children):
        return None  # a negated relation answers nothing
    middle = _slot_words(verb, skip)
    if middle is None:
        return None
    if attr is not None:
        attr_words = [t for t in attr.subtree if t.i < prep.i]  # "a member" of "a member of X"
        if len(attr_words) > _MAX_SLOT_TOKENS or any(
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
        auxes = [_Word("was" if verb.head.head.lower_ in ("is", "was") else "were", "auxpass")]
    if not auxes and _opening_participle(verb):
        auxes = [_Word("was", "auxpass")]  # "Born in X, Y…" → "Where was {s} born?"
    first_person = any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "i" for c in verb.children)
    if first_person:
        # a chat turn's "I" is asked about as its speaker: "I've been to Paris" → "has {s} been to"
        auxes = [_Word(_THIRD_PERSON.get(a.text.lower(), a.text), a.dep_) for a in auxes]
        if any(a.text.startswith("'") for a in auxes) or not _chat_answer(ent):
            return None
    copula = verb.lemma_ == "be" and not auxes
    p = prep.lower_ if prep is not None else ""
    relation = f"{verb.lemma_.lower()}|{p or shape}|{kind}"
    rest = _join(middle)

    def clause(with_aux: bool) -> str:
        """'{s} was first published', '{s} founded the company' (declarative, for descriptions)."""
        words = [_join(auxes)] if with_aux and auxes else []
        words += [_join(adverbs), vtext]
        return " ".join(w for w in ["{s}", *words, rest] if w)

    def inverted(wh: str) -> str:
        """wh-movement with subject-auxiliary inversion or do-support: 'When was {s} first published?'"""
        pre = _join(adverbs)
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
            compare = "Which {c} was " + " ".join(x for x in [_join(adverbs), vtext] if x) + " first, {a} or {b}?"
    elif kind == TruthType.PLACE.value and shape == "prep" and p in ("in", "at"):
        ask = inverted("Where")
        describe = "the {c} where " + clause(True)
    elif shape == "agent" and kind in (TruthType.PERSON.value, TruthType.ORGANIZATION.value):
        past = _past(verb)
        if rest:
            return None
        ask = f"Who {past} {{s}}?" if past else f"Who was {{s}} {vtext} by?"
        noun = AGENT.get(verb.lemma_.lower())
        if noun:
            describe = f"the {noun} of {{s}}"
        elif past:
            describe = "the {c} " + ("who" if kind == TruthType.PERSON.value else "that") + f" {past} {{s}}"
    elif shape in ("dobj", "prep", "attr") and kind != TruthType.DATE.value:
        wh = "Who" if kind == TruthType.PERSON.value and shape == "dobj" else "Which {c}"
        if shape == "prep" and (p not in _RELATION_PREPS or copula):
            return None  # adjuncts ("in the film", "as a child", "including") are no relation worth asking
        ask = inverted(wh)
        if shape == "attr":
            # "X is the father of Y" → Y is "the {c} whose father is X"
            noun = _join(t for t in attr.subtree if t.i < prep.i and t.dep_ != "det" and t.dep_ != "poss")
            describe = f"the {{c}} whose {noun} {vtext} {{s}}"
        elif shape == "dobj":
            participle = _participle(verb)
            describe = f"the {{c}} {participle} by {{s}}" if participle and not rest else ""
        else:
            describe = "the {c} that " + clause(True) + f" {p}"
    if not ask:
        return None
    proper = obj.pos_ == "PROPN"
    if kind == TruthType.PLACE.value:
        target = _place_target(ent.root, ent, resolve)
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
        ask=_tidy(ask),
        describe=_tidy(describe),
        compare=_tidy(compare),
        target=target,
    )


# "I am / I have / I do" become the speaker's "is / has / does" ("'d" may be had or would: left out)
_THIRD_PERSON = {"am": "is", "'m": "is", "have": "has", "'ve": "has", "do": "does", "are": "is", "'re": "is", "'ll": "will"}
_WEEKDAYS = re.compile(r"(?i)^(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(day)?\.?$")


def _chat_answer(ent: Any) -> bool:
    """An answer a chat turn's NER can be trusted with: a proper name, not an acronym or a weekday."""
    text = ent.text.strip()
    return ent.root.pos_ == "PROPN" and not text.isupper() and not _WEEKDAYS.match(text) and len(text) >= 4


_HONORIFICS = frozenset("sir dame lord lady saint st king queen prince princess pope dr general admiral".split())
_LIFE = re.compile(
    r"\(\s*(?:born\s+(?P<born>[^;()–—-]+?\d{4}(?:\s+in\s+[^;()–—-]+?)?)"
    r"|(?P<b2>[^;()–—-]*\d{4}(?:\s+in\s+[^;()–—-]+?)?)\s*[–—-]\s*(?P<d2>[^;()]*\d{4}(?:\s+in\s+[^;()]+?)?))\s*[;)]"
)


def _life_dates(
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
        return []
    own = word_keys(name)
    # the name without its honorific and its comma part: "Sir James Knott, 1st Baronet" → "James Knott"
    core = tuple(w for w in word_keys(name.split(",")[0]))
    while core and core[0] in _HONORIFICS:
        core = core[1:]

    def names_the_page(ent: Any) -> bool:  # "John Ford" is not the page "John Ford House"
        return word_keys(ent.text) in (own, core)

    persons = [e for e in doc.ents if e.label_ == "PERSON" and e.start_char < m.start() and names_the_page(e)]
    if not persons:  # "Siege of Kut (7 December 1915 – 29 April 1916)" is no life
        return []
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


def _life_places(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str],
    m: Any,
) -> list[Fact]:
    """Born-in / died-in places of a life parenthesis: "<date> in <place>" (see `_life_dates`)."""
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
        target = _place_target(ent.root, ent, resolve)
        if target == doc_id:
            continue
        out.append(
            Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=name, about_doc=True, relation=relation,
                answer=ent.text, kind=TruthType.PLACE.value, ask=ask, describe=describe, target=target,
            )
        )
    return out


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\s+([?,.])", r"\1", text)


_AWARD = re.compile(r"\b(Award|Awards|Prize|Medal|Trophy|Cup|Championship)\b")


def class_of(base: FactBase, doc_id: str, kind: str, answer: str = "") -> str:
    """The class word for a document in a description ('the {c} where…'); without a document, a word
    for the answer's type ("award" for "the Academy Award for Best Actress", which NER calls an ORG)."""
    if base.classes.get(doc_id):
        return base.classes[doc_id]
    if _AWARD.search(answer):
        return "award"
    return FALLBACK_CLASS.get(kind, "one")


def unique_relations(facts: Iterable[Fact]) -> Mapping[str, Fact]:
    """relation → fact, for the relations a document states with exactly one answer (a relation with
    two different answers, "born in A … born in B", determines neither and is left out)."""
    by: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        if f.about_doc:
            by[f.relation].append(f)
    out = {}
    for rel, fs in by.items():
        answers = {fold(f.answer) for f in fs}
        if len(answers) == 1:
            out[rel] = fs[0]
    return out


def unique_named(facts: Iterable[Fact]) -> list[Fact]:
    """Facts about subjects the sentence names (not the document itself) whose (subject, relation)
    has one answer in the document: what a title-less document can be asked."""
    by: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for f in facts:
        if not f.about_doc:
            by[(fold(f.subject), f.relation)].append(f)
    return [fs[0] for fs in by.values() if len({fold(f.answer) for f in fs}) == 1]


def facts_fingerprint(mined: MinedCorpus) -> str:
    """What a fact base depends on: every chunk's id and text, and the parse model's version."""
    from datagen.nlp import MODEL_PACKAGE, MODEL_VERSION

    h = hashlib.sha1(f"{MODEL_PACKAGE}-{MODEL_VERSION}".encode())
    for doc_id in sorted(mined.chunks):
        for chunk in mined.chunks[doc_id]:
            h.update(chunk.chunk_id.encode("utf-8", "replace"))
            h.update(chunk.text.encode("utf-8", "replace"))
    return h.hexdigest()


def _parsed(nlp: Any, texts: list[str], cache: Path | None, key: str, batch_size: int) -> list[Any]:
    """spaCy docs of `texts`: from the cache when it holds this corpus's parse (same `key`), else
    parsed (the slow part: minutes on a large corpus) and saved there atomically before anything
    reads them, so a resumed or extended run, or a change to the extraction rules, never parses again."""
    from spacy.tokens import DocBin

    if cache is not None and cache.is_file() and cache.with_suffix(".key").is_file():
        try:
            if cache.with_suffix(".key").read_text(encoding="utf-8").strip() == key:
                docs = list(DocBin().from_disk(cache).get_docs(nlp.vocab))
                if len(docs) == len(texts):
                    return docs
        except (OSError, ValueError):
            pass  # a damaged cache is parsed again, never trusted
    docs = list(nlp.pipe(texts, batch_size=batch_size))
    if cache is not None:
        bin_ = DocBin(attrs=["ORTH", "TAG", "HEAD", "DEP", "ENT_IOB", "ENT_TYPE", "LEMMA", "POS", "SENT_START"])
        for doc in docs:
            bin_.add(doc)
        tmp = cache.with_suffix(".tmp")
        bin_.to_disk(tmp)
        os.replace(tmp, cache)
        cache.with_suffix(".key").write_text(key, encoding="utf-8")
    return docs
