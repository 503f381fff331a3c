"""Mining an indexed corpus for what the offline generator needs: sentences, links, answer spans.

A *link* A → B is a sentence of document A that names document B: B's title (HotpotQA builds its
bridge questions from exactly such hyperlinks) or, for corpora whose titles name nothing (chat
turns, files), a *distinctive entity* — a capitalised span that occurs in at most `max_entity_df`
documents, A and B among them (MQA-QG's FindBridge, done on any corpus). Hub titles named by
more than `max_in_links` documents ("United States") are no bridge: they identify nothing.

An *answer span* is a typed span of a sentence: a date (full date or year), a number (two or more
digits), or a named entity (a capitalised span that is not the sentence's first word alone).

All of it is pattern work on `Chunk.text`, which is an exact slice of the document, so every
sentence (and every window of one) is a verbatim quote of its document.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from corpus_tools.types import Chunk
from datagen.types import TruthType

_WORD = re.compile(r"\w+")
# A sentence ends at . ! ? followed by space and a non-lowercase start, or at CJK full stops.
_SENT_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[^\s\w]*[\w(\[\"“])|(?<=[。！？])")
_ABBREV = frozenset("mr mrs ms dr st jr sr prof gen col lt sgt vs etc inc ltd co no vol fig ca c u s e g i".split())
_MONTHS = (
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan\\.|Feb\\.|Mar\\.|Apr\\.|Aug\\.|Sept?\\.|Oct\\.|Nov\\.|Dec\\."
)
_DATE = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\s+\d{{4}}|(?:{_MONTHS})\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}"
    rf"|(?:{_MONTHS})\s+\d{{4}}|(?:1[0-9]|20)\d{{2}})\b(?!\s*(?:%|percent))"
)
_NUMBER = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d{2,})(?:\.\d+)?(?![\w])")
_CONNECTORS = frozenset("of the de del da di von van der den la le du des for on".split())  # not "and": lists
_LEADING_FUNCTION = frozenset(
    "the a an in on at after before during when while however although as by for from since with "
    "following according born this that these those his her its their our my your".split()
)
_STOPWORDS = frozenset(
    "a an the of in on at to for from by with and or but is are was were be been it its as this that "
    "he she they we you i his her their our one two first new old".split()
)


def fold(text: str) -> str:
    """Accent-free, case-folded form of a word (the key titles and entities are matched by)."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


# the words a thing's answer may open with and still be the same thing ("a new grill", "the new grill")
_LEAD_WORDS = ("a", "an", "the", "my", "some")


def bare_words(answer: str, drop: Iterable[str] = _LEAD_WORDS, pad: bool = False) -> str:
    """An answer's folded words without the leading `drop` words, so that two readers' answers for one
    thing compare equal; `pad` puts a space at each end, so that containment is by whole words ("" when no
    word is left either way)."""
    words = fold(answer).split()
    while words and words[0] in drop:
        words = words[1:]
    joined = " ".join(words)
    return f" {joined} " if pad and joined else joined


def word_keys(text: str) -> tuple[str, ...]:
    return tuple(fold(m.group()) for m in _WORD.finditer(text))


@dataclass(frozen=True)
class Sentence:
    """A sentence of a chunk. text is `chunk.text[start:end]`; index orders a document's sentences."""

    doc_id: str
    chunk_id: str
    text: str
    index: int


@dataclass(frozen=True)
class Span:
    """A typed or linking span of a sentence: text == sentence.text[start:end]."""

    sentence: Sentence
    start: int
    end: int
    kind: str  # a TruthType value for answers; "title" or "entity" for links
    target: str = ""  # for links: the document it names

    @property
    def text(self) -> str:
        return self.sentence.text[self.start : self.end]


@dataclass
class MinedCorpus:
    """Everything the offline generator samples from (see the module docstring).

    titles: doc id -> title. chunks: doc id -> its chunks in order. sentences: doc id -> sentences.
    links: doc id -> its outgoing links (Span with target). answers: doc id -> answer spans.
    title_forms: doc id -> the surface forms of its title that count as naming it.
    declared: a project file's path -> the project name it declares (the index's `SkippedProjectFile`s,
    corpus_tools.project_files; empty for an index built before session 46 or of no repository).
    """

    titles: dict[str, str] = field(default_factory=dict)
    chunks: dict[str, list[Chunk]] = field(default_factory=dict)
    sentences: dict[str, list[Sentence]] = field(default_factory=dict)
    links: dict[str, list[Span]] = field(default_factory=dict)
    answers: dict[str, list[Span]] = field(default_factory=dict)
    title_forms: dict[str, list[str]] = field(default_factory=dict)
    declared: dict[str, str] = field(default_factory=dict)

    def doc_text(self, doc_id: str) -> str:
        return "\n".join(c.text for c in self.chunks[doc_id])

    def n_links(self) -> int:
        return sum(len(v) for v in self.links.values())


def split_sentences(chunk: Chunk) -> list[tuple[int, int]]:
    """Character spans of the sentences of a chunk's text (abbreviations and initials kept whole)."""
    text = chunk.text
    spans, start = [], 0
    for m in _SENT_END.finditer(text):
        before = text[start : m.start()].rstrip("\"'”’)]")
        last = before.rsplit(None, 1)[-1] if before.split() else ""
        last_word = last.rstrip(".").rsplit(".", 1)[-1]
        if fold(last_word) in _ABBREV or (len(last_word) == 1 and last_word.isalpha()):
            continue  # "Dr. Smith", "J. R. R. Tolkien", "U.S. Army"
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text)))
    out = []
    for s, e in spans:
        piece = text[s:e]
        lead = len(piece) - len(piece.lstrip())
        trail = len(piece.rstrip())
        if trail - lead >= 12:  # shorter "sentences" are fragments (headings, list markers)
            out.append((s + lead, s + trail))
    return out


def _tokens(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text)]


def capitalised_spans(text: str) -> list[tuple[int, int]]:
    """Name-like spans: runs of capitalised words, with lower-case connectors inside ("Bank of
    America"), never a lone sentence-initial word, leading function words dropped."""
    toks = _tokens(text)
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(toks):
        if not toks[i][2][0].isupper():
            i += 1
            continue
        j = i
        while j + 1 < len(toks):
            gap = text[toks[j][1] : toks[j + 1][0]]
            ok_gap = gap.isspace() or gap in ("-", "'", "’") or (gap.strip() == "." and len(toks[j][2]) <= 2)
            if not ok_gap:
                break
            nxt = toks[j + 1][2]
            if nxt[0].isupper() or (nxt[0].isdigit() and j > i):
                j += 1
            elif fold(nxt) in _CONNECTORS and j + 2 < len(toks) and toks[j + 2][2][0].isupper():
                gap2 = text[toks[j + 1][1] : toks[j + 2][0]]
                if not gap2.isspace():
                    break
                j += 2
            else:
                break
        a = i
        while a <= j and fold(toks[a][2]) in _LEADING_FUNCTION:
            a += 1
        if a <= j:
            single = a == j
            initial = toks[a][0] == 0 or not text[: toks[a][0]].strip()
            if not (single and (initial or len(toks[a][2]) < 4 or fold(toks[a][2]) in _STOPWORDS)):
                spans.append((toks[a][0], toks[j][1]))
        i = j + 1
    return spans


def _title_forms(title: str) -> list[str]:
    """The surface forms that name a document: its title, and the title without a trailing
    parenthetical ("Radio City (Indian radio station)" → "Radio City")."""
    forms = [title.strip()]
    bare = re.sub(r"\s*\([^()]*\)\s*$", "", title).strip()
    if bare and bare != forms[0]:
        forms.append(bare)
    good = []
    for form in forms:
        keys = word_keys(form)
        if not keys or not any(any(c.isalpha() for c in k) for k in keys):
            continue
        if len(keys) == 1 and (len(keys[0]) < 4 or keys[0] in _STOPWORDS):
            continue
        good.append(form)
    return good


def mine(
    chunks: Iterable[Chunk],
    *,
    titles: dict[str, str] | None = None,
    exclude: Iterable[str] = (),
    max_in_links: int = 25,
    max_entity_df: int = 3,
    max_title_words: int = 8,
) -> MinedCorpus:
    """Sentences, links and answer spans of a corpus given as chunks (see the module docstring).

    titles: doc id -> title (default: each chunk's metadata["title"]). exclude: doc ids left out
    entirely (neither linked to nor from, never a supporting document).
    """
    excluded = set(exclude)
    mined = MinedCorpus()
    for chunk in chunks:
        if chunk.doc_id in excluded:
            continue
        mined.chunks.setdefault(chunk.doc_id, []).append(chunk)
        if chunk.doc_id not in mined.titles:
            title = (titles or {}).get(chunk.doc_id) or str(chunk.metadata.get("title") or "")
            mined.titles[chunk.doc_id] = title
    # Sentences, de-duplicated per document (overlapping chunks repeat text).
    for doc_id, doc_chunks in mined.chunks.items():
        doc_chunks.sort(key=lambda c: c.position)
        seen: set[str] = set()
        sentences = []
        for chunk in doc_chunks:
            for s, e in split_sentences(chunk):
                key = " ".join(chunk.text[s:e].split())
                if key in seen:
                    continue
                seen.add(key)
                sentences.append(Sentence(doc_id, chunk.chunk_id, chunk.text[s:e], len(sentences)))
        mined.sentences[doc_id] = sentences

    # Titles shared by several documents name none of them (LoCoMo sessions, "Introduction").
    by_title: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for doc_id, title in mined.titles.items():
        forms = _title_forms(title) if title else []
        mined.title_forms[doc_id] = forms
        for form in forms:
            by_title[word_keys(form)].append(doc_id)
    title_index = {k: v[0] for k, v in by_title.items() if len(set(v)) == 1 and len(k) <= max_title_words}

    # Capitalised entities and their document frequency.
    entity_docs: dict[tuple[str, ...], set[str]] = defaultdict(set)
    sentence_entities: dict[tuple[str, int], list[tuple[int, int, tuple[str, ...]]]] = {}
    for doc_id, sentences in mined.sentences.items():
        for sent in sentences:
            ents = [(s, e, word_keys(sent.text[s:e])) for s, e in capitalised_spans(sent.text)]
            sentence_entities[(doc_id, sent.index)] = ents
            for _, _, key in ents:
                entity_docs[key].add(doc_id)

    title_links: dict[str, list[Span]] = defaultdict(list)
    in_links: dict[str, set[str]] = defaultdict(set)
    for doc_id, sentences in mined.sentences.items():
        own = {word_keys(f) for f in mined.title_forms.get(doc_id, [])}
        for sent in sentences:
            toks = _tokens(sent.text)
            keys = [fold(t[2]) for t in toks]
            i = 0
            while i < len(toks):
                hit = None
                for n in range(min(max_title_words, len(toks) - i), 0, -1):
                    key = tuple(keys[i : i + n])
                    target = title_index.get(key)
                    if target is not None and target != doc_id and key not in own and toks[i][2][:1].isupper():
                        hit = (n, target)
                        break
                if hit is None:
                    i += 1
                    continue
                n, target = hit
                title_links[doc_id].append(Span(sent, toks[i][0], toks[i + n - 1][1], "title", target))
                in_links[target].add(doc_id)
                i += n
    for doc_id, spans in title_links.items():
        mined.links[doc_id] = [s for s in spans if len(in_links[s.target]) <= max_in_links]

    # Entity links where titles do not link (or add nothing): shared rare entities.
    for doc_id, sentences in mined.sentences.items():
        own = {word_keys(f) for f in mined.title_forms.get(doc_id, [])}
        linked = {(s.sentence.index, s.target) for s in mined.links.get(doc_id, [])}
        for sent in sentences:
            for s, e, key in sentence_entities[(doc_id, sent.index)]:
                docs = entity_docs[key]
                if key in own or key in title_index or not 2 <= len(docs) <= max_entity_df:
                    continue
                for target in sorted(docs - {doc_id}):
                    if (sent.index, target) not in linked:
                        mined.links.setdefault(doc_id, []).append(Span(sent, s, e, "entity", target))

    # Name answers: several words, or one rare word; a lone common word ("Welsh", "Conference") is
    # a poor truth, and names with digits ("U.S. 57") are citations more than names.
    for doc_id, sentences in mined.sentences.items():
        answers = []
        for sent in sentences:
            names = [
                (s, e, key)
                for s, e, key in sentence_entities[(doc_id, sent.index)]
                if not any(k.isdigit() for k in key) and (len(key) >= 2 or len(entity_docs[key]) <= max_entity_df)
            ]
            answers.extend(answer_spans(sent, names, names_given=True))
        mined.answers[doc_id] = answers
    return mined


def answer_spans(
    sent: Sentence, entities: Sequence[tuple[int, int, tuple[str, ...]]] = (), names_given: bool = False
) -> list[Span]:
    """Typed answer candidates of a sentence: dates, numbers (not inside a date), named entities
    (`entities` when names_given, else every capitalised span)."""
    out: list[Span] = []
    taken: list[tuple[int, int]] = []
    for m in _DATE.finditer(sent.text):
        out.append(Span(sent, m.start(), m.end(), TruthType.DATE.value))
        taken.append((m.start(), m.end()))
    for m in _NUMBER.finditer(sent.text):
        if not any(a <= m.start() < b or a < m.end() <= b for a, b in taken):
            out.append(Span(sent, m.start(), m.end(), TruthType.NUMBER.value))
    if not names_given:
        entities = [(s, e, ()) for s, e in capitalised_spans(sent.text)]
    for s, e, _ in entities:
        if not any(a < e and s < b for a, b in taken):
            out.append(Span(sent, s, e, TruthType.ENTITY.value))
    return out
