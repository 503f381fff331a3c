"""Which document a name names, and which titles name nothing.

Links are strict (issue 26's "real chains"): an object names a document only when its text is that
document's title (or the title without its parenthetical) and no other document's; a single word
names a document only when it is a proper noun that no other title shares. Shared common words,
homonym titles and hub titles are no link. A place titled "City, State" is named by "City" alone only
where the naming document also names the state.

One exception, the article: HotpotQA- and MuSiQue-style corpora split a Wikipedia page into
paragraphs that all carry the page's title ("Paris" ×6). Documents sharing one exact title are one
article when at least half of them name that title in their own text (an "Introduction" or
"Session 2" heading shared by unrelated documents does not); a name then resolves to the article,
its facts are read together (a relation stated with two answers in two paragraphs is not asked), and
the gold document of each fact is the paragraph that states it (`articles`, `FactBase.article`).

Documents whose title names nothing (a heading many chat turns share, a file name the text never
says) are asked about the subjects they name (`heading_titles`, `file_labels`), and a chat turn's
"I" is its speaker (`chat_speaker`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping

from datagen.factbase import FactBase
from datagen.mail_facts import is_mail, own_part
from datagen.mining import MinedCorpus, word_keys

_MAX_TITLE_WORDS = 8


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
        # a chat's or a mail's heading ("Caroline & Melanie, session 1") is named by its title alone: its
        # short forms are the speakers' names, which every turn says
        chat = any(chat_speaker(mined.doc_text(d)) for d in docs if d in mined.chunks)
        forms = [strip_article(re.sub(r"\s*\([^()]*\)\s*$", "", title))] if chat else short_names(title)
        pattern = re.compile(r"\b(?:" + "|".join(re.escape(f) for f in forms) + r")\b", re.IGNORECASE)
        naming = sum(1 for d in docs if any(pattern.search(s.text) for s in mined.sentences.get(d, [])))
        if naming >= min_naming * len(docs):
            group = tuple(docs)
            out.update({d: group for d in docs})
    return out


# Words a title may end with that name its kind, not the thing ("Yale University", "Ohio River"): no short name.
_KIND_ENDINGS = frozenset(
    "university college school church river island islands republic kingdom state county city district "
    "province region war battle act party league company dynasty empire museum park lake mountain mountains "
    "station airport bridge street avenue road award awards prize cup games olympics series season album film "
    "song band team club language languages history list period age ages records gardens industries brook creek "
    "boys girls brothers sisters family group".split()
)
_PARTICLES = frozenset("of de la le du da von van der den del di al el and the".split())


def short_names(title: str) -> list[str]:
    """The names a page's own paragraphs call it by, longest first: the title without its parenthesis
    and leading article; for "City, State" the city ("Tucson is located…" in "Tucson, Arizona"); for a
    person's or a team's name of two to four capitalised words the last ("Gaddafi" in "Muammar Gaddafi",
    "Cubs" in "Chicago Cubs"), unless that word names a kind ("Yale University", "Ohio River").

    Wikipedia-like corpora split one page into paragraphs that all carry its title; its later paragraphs
    say "Tucson" or "Gaddafi", rarely the whole title, so reading them by the whole title alone left 92
    of MuSiQue's pages in pieces (issue 36): no name could link to a page several documents share, and
    no fact of the later paragraphs was the page's."""
    bare = strip_article(re.sub(r"\s*\([^()]*\)\s*$", "", title)).strip()
    if not bare:
        return []
    forms = [bare]
    head, comma, qualifier = bare.partition(",")
    if comma and head.strip() and re.fullmatch(r"\s*(?:[A-Z][\w.'’-]*\s*)+", qualifier):
        forms.append(head.strip())
    words = head.split() if comma else bare.split()
    last = words[-1] if words else ""
    if (
        2 <= len(words) <= 4
        and all(w[:1].isupper() or w.lower() in _PARTICLES for w in words)
        and not any(ch.isdigit() for ch in bare)
        and len(last) >= 4 and last.isalpha() and last[:1].isupper()
        and last.lower() not in _KIND_ENDINGS
    ):
        forms.append(last)
    return list(dict.fromkeys(forms))


# What a page may call the thing a title's parenthesis names ("Twins (group)" is "the Hong Kong duo Twins").
_KIND_WORDS = {
    "group": ("group", "band", "duo", "trio", "quartet"), "band": ("band", "group", "duo", "trio", "quartet"),
    "singer": ("singer", "sang", "sung", "recorded", "vocalist"), "musician": ("musician", "band", "album", "song"),
    "rapper": ("rapper", "rap", "album", "song"), "footballer": ("footballer", "football", "club"),
}


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
    spelled: dict[tuple[str, ...], set[str]] = defaultdict(set)  # the key → the names as titles spell them
    kind_word: dict[tuple[str, ...], str] = {}  # "Richard Wright" → "author" (of "Richard Wright (author)")
    for doc_id, forms in mined.title_forms.items():
        m = re.search(r"\(([^()]*)\)\s*$", mined.titles.get(doc_id, ""))
        word = next((w for w in reversed(m.group(1).split()) if w.isalpha()), "") if m else ""
        for form in forms:
            names = [(form, "")]
            if "," in form:  # "Portland, Oregon" is named "Portland" in running text
                names.append((form.split(",", 1)[0], form.split(",", 1)[1].strip()))
            if word and form != mined.titles[doc_id].strip():
                kind_word[word_keys(strip_article(form))] = word.lower()
            for name, qual in names:
                key = word_keys(strip_article(name))
                if 0 < len(key) <= _MAX_TITLE_WORDS:
                    by_key[key].add(grouped.get(doc_id, (doc_id,))[0])
                    spelled[key].add(" ".join(strip_article(name).casefold().split()))
                    if qual:
                        qualifier[key] = qual
                    else:
                        qualifier.pop(key, "")  # also a title of its own: no qualifier needed

    def resolve(name: str, proper: bool, context: str | None = None) -> str:
        key = word_keys(strip_article(name))
        docs = by_key.get(key)
        if not docs or len(docs) != 1:
            return ""  # unknown, or a homonym several documents share
        if len(key) == 1 and (not proper or len(key[0]) < 4):
            return ""  # one short or common word identifies nothing
        said = " ".join(strip_article(name).casefold().split())
        if "ñ" in said and not any("ñ" in t for t in spelled[key]):
            # "born in Cañada (de Gómez)", an Argentine town, is not Canada: ñ is a letter of its own, where
            # other accents are only dropped ("Mondelēz International" is the page "Mondelez International")
            return ""
        qual = qualifier.get(key)
        if qual and context is not None and not re.search(r"(?<!\w)" + re.escape(qual.split(",")[0].strip()) + r"(?!\w)", context):
            return ""  # "Stamford" without "Connecticut" may be another Stamford
        word = kind_word.get(key)
        said = "|".join(re.escape(w) for w in _KIND_WORDS.get(word, (word,))) if word else ""
        if word and context is not None and not re.search(r"(?<!\w)(?:" + said + r")s?(?!\w)", context, re.IGNORECASE):
            # a page its title sets apart ("Richard Wright (author)") is named by the bare name only where
            # the naming page says what it is: "recordings made by Richard Wright" (Pink Floyd's) is not
            # the author's (the corpus need not hold the other page for there to be one)
            return ""
        return next(iter(docs))

    return resolve


def strip_article(text: str) -> str:
    return re.sub(r"^(the|a|an)\s+", "", text.strip(), flags=re.IGNORECASE)


_SPEAKER = re.compile(r"^([A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}):\s")
# A mail's header block: "From: Tomasz Wren <t.wren@x.example>" (or "From: t.wren@x.example (Tomasz Wren)")
_HEADER = re.compile(r"^(?:From|To|Cc|Bcc|Date|Sent|Subject|Reply-To)\s*:", re.IGNORECASE)
_FROM = re.compile(r"^From\s*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)
_NAME = re.compile(r"^[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,3}$")


def chat_speaker(text: str) -> str:
    """Who says "I" in a document: a chat turn's speaker ("Caroline: I went to…" → "Caroline"), a
    mail's sender (its From header's name), or "" (a header word such as "Subject" is no speaker)."""
    text = text.lstrip()
    if _HEADER.match(text):
        m = _FROM.search(text[:2000])
        if m is None:
            return ""
        sender = m.group(1).strip()
        quoted = re.search(r"\(([^()]+)\)\s*$", sender)  # "t.wren@x.example (Tomasz Wren)"
        sender = quoted.group(1) if quoted else re.sub(r"\s*<[^>]*>\s*$", "", sender)
        sender = sender.strip().strip('"').strip()
        return sender if _NAME.match(sender) else ""
    m = _SPEAKER.match(text)
    return m.group(1) if m else ""


_SPEAKER_INSIDE = re.compile(r"\n[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}:\s")


def sentence_speaker(doc_text: str, sentence: str, doc_speaker: str) -> str:
    """Who says "I" in one sentence: in a chat exported one session per document ("Caroline: …" and
    "Melanie: …" lines), the speaker of the sentence's own line (or of the turn it continues), not
    the document's first speaker; a mail's sender for all of it. `doc_speaker` is `chat_speaker` of
    the whole text; a sentence that runs into another speaker's line has none (it is not one turn)."""
    if not doc_speaker:
        return doc_speaker
    if _HEADER.match(doc_text.lstrip()):
        # a mail's "I" is its sender in its own text only: below it, quoted and forwarded earlier
        # messages were written by others ("-----Original Message-----", "Forwarded by", "… wrote:")
        return doc_speaker if sentence in own_part(doc_text) else ""
    at = doc_text.find(sentence)
    if at < 0:
        return doc_speaker
    if _SPEAKER_INSIDE.search(sentence):
        return ""
    start = doc_text.rfind("\n", 0, at) + 1
    for _ in range(20):  # a turn of many lines: its speaker line is a few lines up
        m = _SPEAKER.match(doc_text[start:])
        if m:
            return m.group(1)
        if start == 0:
            break
        start = doc_text.rfind("\n", 0, start - 1) + 1
    return ""


def chat_labels(mined: MinedCorpus) -> set[str]:
    """Chats whose title their text never says ("Caroline & Melanie, session 1 (8 May 2023)" over one
    exported session), and every mail (a From header opens it; its title is its subject): a label, not
    a name to ask about, even when no other document shares it."""
    out = set()
    for doc_id, title in mined.titles.items():
        text = mined.doc_text(doc_id) if doc_id in mined.chunks else ""
        if title.strip() and is_mail(text):
            out.add(doc_id)  # a mail's subject labels it, even where a reply or a forward quotes it
            continue
        if not title.strip() or not chat_speaker(text):
            continue
        bare = strip_article(re.sub(r"\s*\([^()]*\)\s*$", "", title)).strip()
        if not bare or not re.search(r"\b" + re.escape(bare) + r"\b", text, re.IGNORECASE):
            out.add(doc_id)
    return out


def heading_titles(mined: MinedCorpus, grouped: Mapping[str, tuple[str, ...]]) -> set[str]:
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
        bare = strip_article(re.sub(r"\s*\([^()]*\)\s*$", "", title))
        pattern = re.compile(r"\b" + re.escape(bare) + r"\b", re.IGNORECASE)
        if not any(pattern.search(s.text) for d in docs for s in mined.sentences.get(d, [])):
            out.update(docs)
    return out


def file_labels(mined: MinedCorpus) -> set[str]:
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


def article_facts(base: FactBase, mined: MinedCorpus) -> None:
    """In a paragraph of a many-paragraph article, "it" and "the club" may be anything the paragraph
    is about (the stadium in a "Boston" paragraph), so a fact about the article must open with its
    name ("Boston was founded…"), and so must the sentence that gives the article's class."""
    for group in set(base.articles.values()):
        name = strip_article(base.names.get(group[0], ""))
        if not name:
            continue
        # the name as the sentence's subject: "Boston was…", "Boston, the capital…", not "Boston's arena"
        # or "Boston Braves"; a short name the page's paragraphs use counts ("Tucson is…" in "Tucson,
        # Arizona", "Gaddafi was…" in "Muammar Gaddafi")
        names = "|".join(re.escape(n) for n in short_names(mined.titles.get(group[0], "")) or [name])
        opens = re.compile(r"^(?:the\s+)?(?:" + names + r")(?=(?-i:\s+[a-z(])|\s*,)", re.IGNORECASE)
        # or a role of the name, right before its copula: "Canada's capital is Ottawa", "The highest
        # elevation in New York is Mount Marcy" (datagen.verbless_facts.role_facts); the name is said
        role = re.compile(
            r"^(?:the\s+)?(?:" + names + r")(?:'s|’s|'|’)(?:\s+[\w-]+){1,3}\s+(?:is|was)\s"
            r"|^the(?:\s+[\w-]+){1,3}\s+(?:of|in)\s+(?:the\s+)?(?:" + names + r")\s+(?:is|was)\s",
            re.IGNORECASE,
        )
        # or the role the other way round: "Memphis is the state's largest city", "Jacksonville is the most
        # populous city in Florida" (datagen.verbless_facts._held_role)
        held = re.compile(
            r"^[^,;]{1,80}?\s(?:is|was)\s+(?:the\s+)?(?:(?:" + names + r")(?:'s|’s|'|’)\s|[a-z]+(?:'s|’s)\s"
            r"|[\w\s-]{1,60}?\s(?:of|in)\s+(?:the\s+)?(?:" + names + r")\b)",
            re.IGNORECASE,
        )
        for d in group:
            if d in base.facts:
                base.facts[d] = [
                    f for f in base.facts[d]
                    if not f.about_doc or opens.match(f.sentence.strip()) or role.match(f.sentence.strip())
                    or held.match(f.sentence.strip())
                ]
        leads = [d for d in group if mined.sentences.get(d) and opens.match(mined.sentences[d][0].text.strip())]
        cls = next((base.classes[d] for d in leads if base.classes.get(d)), "")
        for d in group:
            base.classes.pop(d, None)
        if cls:
            base.classes[group[0]] = cls
