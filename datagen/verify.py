"""Verification by extraction (SPEC §4 step 3), deterministic and stricter than the reference.

The reference pipeline ends in a fuzzy cascade (2/3 of the quotes suffice) and re-asks an LLM
whether the answer leaks. Here the decision is pure functions of the texts:

- every quote must occur in its document after `normalize` (unicode NFKD with accents removed,
  case-folded, punctuation and symbols turned into spaces, thousands separators dropped,
  whitespace collapsed), at word boundaries, so "1956" does not match inside "19567";
- each supporting document must contribute at least one quote;
- the answer or one of its aliases must occur in at least one supporting chunk, or (a conversation's
  or a mail's date) be what a quote's relative time gives from the date its document was written
  ("yesterday" in the session of 8 May 2023: 7 May 2023; `datagen.dates`);
- no answer form may occur in the question or in any clue (except in a comparison, whose answer is
  one of the two names it asks to compare: there both must occur in the question; so in a bridged
  comparison, datagen.period_tasks: "In the quarter in which …, which company had larger …, A or B?");
- an order task ("Which did Caroline do first, A or B?", datagen.chat_order) is decided by two dates,
  each recomputed from its quote and its document's date: the answer's must all come before the other's;
- an anchored task ("What did Maria join after taking the solo trip?", datagen.chat_anchors) finds its
  answer in the second quote, whose date, recomputed, is all after (or before) the first quote's;
- a set task ("What two things did Maria join?", datagen.chat_lists) must find each of its things in a
  supporting passage, name them all in its answer, say how many in its question, and leak none of them;
- a question that names the chat a thing was told in ("In the chat of 14 June 2023, what did Maria
  mention joining?", datagen.chat_sessions) must have a supporting document written that day, and
  "In which chat did Maria mention joining the gym?" is answered by the day one was written;
- an answer that names nothing is refused (`names_nothing`): one led by a determiner or a quantity
  ("other popular fantasy series", "that one", "plenty of pics", "the same") or holding a word spelt
  with a letter stretched ("deeeelish");
- a distractor that contains any answer form is dropped.

Word boundaries are required only where the script separates words with spaces: for CJK text
(no spaces) a plain substring match is used, so non-English corpora verify too.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from datagen.dates import MONTHS, anchor_date, date_span, format_date, parse_date, relative_dates
from datagen.mail_facts import SENT_QUESTION, subject_and_date
from datagen.types import Candidate, DropReason, SupportingItem, Verdict

_THOUSANDS = re.compile(r"(?<=\d)[,\u00a0\u202f\u2009'’](?=\d{3}(?!\d))")
_SPACES = re.compile(r"\s+")
# Scripts written without spaces between words (CJK, kana, Thai): substring match there.
_NO_SPACE_SCRIPT = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# Words that, leading a phrase, point at something said elsewhere or at an amount, never at a thing:
# "other popular fantasy series" (which?), "that one", "the same", "plenty of beach pics", "a few".
_NAMELESS_LEADS = frozenset(
    "other another same such similar certain various several many few more most all both each every any either "
    "neither plenty lots lot bunch couple number this that these those".split()
)
_NAMELESS_HEADS = frozenset("one ones stuff thing things same it them".split())
_ARTICLES = frozenset("a an the some".split())
# No English word has one letter three times in a row: "deeeelish", "sooo good" are a chat's stretched spelling.
_STRETCHED = re.compile(r"([a-z])\1\1")


def normalize(text: str) -> str:
    """Text as the verifier compares it (see the module docstring); idempotent."""
    text = _THOUSANDS.sub("", text)
    text = unicodedata.normalize("NFKD", text)
    out = []
    for ch in text:
        if unicodedata.combining(ch):
            continue
        cat = unicodedata.category(ch)
        out.append(" " if cat[0] in "PSZC" else ch)
    return _SPACES.sub(" ", "".join(out).casefold()).strip()


def contains(haystack: str, needle: str, *, normalized: bool = False) -> bool:
    """Whether `needle` occurs in `haystack` after normalisation, as whole words.

    An empty (after normalisation) needle is never contained: a quote of only punctuation
    proves nothing. Pass normalized=True when both are already `normalize`d.
    """
    if not normalized:
        haystack, needle = normalize(haystack), normalize(needle)
    if not needle:
        return False
    if _NO_SPACE_SCRIPT.search(needle):
        return needle in haystack
    return f" {needle} " in f" {haystack} "


def quote_in_document(quote: str, document: str) -> bool:
    """A quote counts when it occurs verbatim in the document after normalisation."""
    return contains(document, quote)


def answer_in_texts(answers: Iterable[str], texts: Iterable[str]) -> bool:
    """Whether any answer form occurs in any of the texts."""
    forms = [a for a in (normalize(x) for x in answers) if a]
    normed = [normalize(t) for t in texts]
    return any(contains(t, a, normalized=True) for t in normed for a in forms)


def answer_leaks(answers: Iterable[str], question: str, clues: Sequence[str]) -> bool:
    """Whether any answer form occurs in the question or a clue."""
    return answer_in_texts(answers, [question, *clues])


def filter_distractors(
    answers: Iterable[str], distractors: Sequence[str], texts: Mapping[str, str]
) -> tuple[list[str], list[str]]:
    """Splits distractor doc ids into (kept, dropped): dropped ones contain an answer form.

    texts: doc id -> the text to search (a missing id is dropped too: it cannot be checked).
    """
    forms = [a for a in (normalize(x) for x in answers) if a]
    kept, dropped = [], []
    for doc_id in distractors:
        text = texts.get(doc_id)
        if text is None or any(contains(normalize(text), a, normalized=True) for a in forms):
            dropped.append(doc_id)
        else:
            kept.append(doc_id)
    return kept, dropped


def stretched(text: str) -> bool:
    """Whether a lowercase word of `text` repeats one letter three times ("deeeelish"): a spelling
    no vocabulary holds, which a question or an answer would only copy."""
    return any(_STRETCHED.search(w) for w in re.findall(r"[a-z]+", text))


def names_nothing(answer: str) -> bool:
    """Whether an answer's words name no thing (see the module docstring). Only lowercase words count:
    "The Other Woman" and "Volume One" are names."""
    words = re.findall(r"[\w'’-]+", answer)
    if not words:
        return False  # an empty answer is refused as empty
    if stretched(answer):
        return True
    i = 0
    while i < len(words) - 1 and words[i] in _ARTICLES:
        i += 1
    return words[i] in _NAMELESS_LEADS or words[-1] in _NAMELESS_HEADS


def check_candidate(
    candidate: Candidate,
    doc_texts: Mapping[str, str],
    chunk_texts: Mapping[str, str],
    titles: Mapping[str, str] | None = None,
) -> Verdict:
    """Accept or reject a candidate; every failing check is listed, in the order below.

    doc_texts: doc id -> full document text (quotes are looked up here). chunk_texts: chunk id ->
    text of every supporting item's chunk (the answer must occur in one of them; an item without
    chunk ids is searched in its whole document). titles: doc id -> title; given, a date answer may
    instead be what a quote's relative time gives from the date its document was written
    (`dated_in_support`).
    """
    reasons: list[DropReason] = []
    details: list[str] = []

    def fail(reason: DropReason, detail: str) -> None:
        if reason not in reasons:
            reasons.append(reason)
        details.append(f"{reason.value}: {detail}")

    if not normalize(candidate.question):
        fail(DropReason.EMPTY_QUESTION, "the question is empty after normalisation")
    if not any(normalize(a) for a in candidate.answers):
        fail(DropReason.EMPTY_ANSWER, f"answer {candidate.answer!r} is empty after normalisation")
    elif any(names_nothing(a) for a in [candidate.answer, *(candidate.metadata.get("options") or ())]):
        fail(DropReason.EMPTY_ANSWER, f"answer {candidate.answer!r} names nothing (a determiner, an amount or a "
             "stretched spelling leads it)")
    if not candidate.supporting:
        fail(DropReason.NO_SUPPORT, "no supporting documents")
    support_texts: list[str] = []
    clue_text = normalize(" \n ".join([candidate.question, *candidate.clues]))
    for item in candidate.supporting:
        doc = doc_texts.get(item.doc_id)
        if doc is None:
            fail(DropReason.UNKNOWN_DOCUMENT, f"{item.doc_id!r} is not in the corpus")
            continue
        quotes = [q for q in item.quotes if normalize(q)]
        if not quotes:
            fail(DropReason.DOC_WITHOUT_QUOTES, f"{item.doc_id!r} contributes no quote")
        doc_norm = normalize(doc)
        for quote in quotes:
            if not contains(doc_norm, normalize(quote), normalized=True):
                fail(DropReason.QUOTE_NOT_IN_DOCUMENT, f"{quote[:80]!r} not in {item.doc_id!r}")
        for clue_quote in item.clue_quotes:
            if normalize(clue_quote) and not contains(clue_text, normalize(clue_quote), normalized=True):
                fail(DropReason.CLUE_QUOTE_NOT_IN_CLUES, f"{clue_quote[:80]!r} is not in the question or clues")
        if item.chunk_ids:
            support_texts.extend(chunk_texts.get(cid, "") for cid in item.chunk_ids)
        else:
            support_texts.append(doc)
    form = candidate.metadata.get("form")
    if form == "list":
        # "What two things did Maria join?" → "a nearby church and a gym": each thing is checked alone
        if not list_in_support(candidate, support_texts):
            fail(DropReason.ANSWER_NOT_IN_SUPPORT, f"not every thing of {candidate.answer!r} is in a supporting passage "
                 "or the question does not say how many")
    elif form == "order":
        # "Which did Caroline do first, A or B?": the answer is not quoted, it is decided by two dates
        if not (titles is not None and ordered_in_support(candidate, doc_texts, titles)):
            fail(DropReason.ANSWER_NOT_IN_SUPPORT, f"the quotes' dates do not put {candidate.answer!r} first")
    elif form == "anchored":
        # "What did Maria join after taking the solo trip?": the thing in its quote, after the anchor's date
        if not (titles is not None and anchored_in_support(candidate, doc_texts, titles)):
            fail(DropReason.ANSWER_NOT_IN_SUPPORT, f"{candidate.answer!r} is not in the second quote or its date "
                 "is not on the question's side of the anchor's")
    elif (
        candidate.supporting
        and not answer_in_texts(candidate.answers, support_texts)
        and not (titles is not None and dated_in_support(candidate, doc_texts, titles))
        and not (titles is not None and told_when_in_support(candidate, doc_texts, titles))
        and not (titles is not None and sent_in_support(candidate, titles))
    ):
        fail(DropReason.ANSWER_NOT_IN_SUPPORT, f"{candidate.answer!r} occurs in no supporting chunk")
    day = told_day(candidate.question)
    if day is not None and not (titles is not None and any(
        anchor_date(titles.get(i.doc_id, ""), doc_texts.get(i.doc_id, ""), i.doc_id) == day for i in candidate.supporting
    )):
        fail(DropReason.ANSWER_NOT_IN_SUPPORT, f"no supporting document was written on the day {candidate.question!r} names")
    # "doc_compare": two documentation notes, which was added first (datagen.doc_bridges); "man_compare": two manual
    # pages' Linux versions (datagen.man_hops)
    if form in ("comparison", "order", "bridged_comparison", "event_comparison", "doc_compare", "man_compare"):
        options = candidate.metadata.get("options") or ()
        if len(options) != 2 or not all(contains(candidate.question, o) for o in options) or not any(
            normalize(candidate.answer) == normalize(o) for o in options
        ):
            fail(DropReason.ANSWER_LEAK, f"a comparison must name both options and answer one: {candidate.question!r}")
    elif form == "list":
        if answer_leaks(candidate.metadata.get("options") or (), candidate.question, candidate.clues):
            fail(DropReason.ANSWER_LEAK, f"a thing of {candidate.answer!r} occurs in the question or a clue")
    elif answer_leaks(candidate.answers, candidate.question, candidate.clues):
        fail(DropReason.ANSWER_LEAK, f"{candidate.answer!r} occurs in the question or a clue")
    return Verdict(tuple(reasons), tuple(details))


_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}
# "In the chat of 14 June 2023, what did Maria mention joining?" (datagen.chat_sessions): the day named
TOLD_OPENING = "In the chat of "
_TOLD = re.compile(r"^In the chat of (\d{1,2} [A-Z][a-z]+ \d{4}), ")


TOLD_WHICH = "In which chat did "


def told_when_in_support(candidate: Candidate, doc_texts: Mapping[str, str], titles: Mapping[str, str]) -> bool:
    """Whether "In which chat did Maria mention joining the gym?" is answered by the day a supporting
    document was written (its title's date) and that document's quote names the thing (the question's
    last word)."""
    if not candidate.question.startswith(TOLD_WHICH):
        return False
    forms = {normalize(a) for a in candidate.answers} - {""}
    words = normalize(candidate.question).split()
    for item in candidate.supporting:
        anchor = anchor_date(titles.get(item.doc_id, ""), doc_texts.get(item.doc_id, ""), item.doc_id)
        if anchor is None or normalize(format_date(anchor)) not in forms:
            continue
        if words and any(words[-1] in normalize(q).split() for q in item.quotes):
            return True
    return False


def told_day(question: str) -> dt.date | None:
    """The day a session-anchored question names, or None; its supporting document must have been
    written that day (its title's date, `datagen.dates.anchor_date`)."""
    m = _TOLD.match(question)
    return parse_date(m.group(1)) if m else None


def list_in_support(candidate: Candidate, support_texts: Sequence[str]) -> bool:
    """Whether a set task holds: two or more things, each found in a supporting passage, the answer
    naming them all and nothing else ("a, b and c"), and the question saying how many there are;
    each supporting document must give one of them (none is there for show)."""
    options = [o for o in candidate.metadata.get("options") or () if normalize(o)]
    word = _COUNT_WORDS.get(len(options))
    if word is None or len({normalize(o) for o in options}) != len(options):
        return False
    if not contains(candidate.question, word) or not all(answer_in_texts([o], support_texts) for o in options):
        return False
    joined = " and ".join(options) if len(options) == 2 else f"{', '.join(options[:-1])} and {options[-1]}"
    if normalize(candidate.answer) != normalize(joined):
        return False
    return all(
        any(answer_in_texts([o], item.quotes) for o in options) for item in candidate.supporting
    )


def sent_in_support(candidate: Candidate, titles: Mapping[str, str]) -> bool:
    """Whether 'When was the email "West Position" sent?' is answered by the date in the title of a
    supporting message whose subject is the one the question quotes (a mail export's title: "West
    Position (7 December 2001)", `datagen.mail_facts`)."""
    m = SENT_QUESTION.match(candidate.question)
    if m is None:
        return False
    forms = {normalize(a) for a in candidate.answers} - {""}
    for item in candidate.supporting:
        subject, day = subject_and_date(titles.get(item.doc_id, ""))
        if subject == m.group(1) and normalize(day) in forms:
            return True
    return False


def dated_in_support(candidate: Candidate, doc_texts: Mapping[str, str], titles: Mapping[str, str]) -> bool:
    """Whether the answer is the date a supporting quote's relative time ("yesterday", "last week")
    gives from the date its document was written ("I went there yesterday" in the session of 8 May
    2023 → "7 May 2023"), recomputed here by `datagen.dates`, not taken from the generator."""
    forms = {normalize(a) for a in candidate.answers} - {""}
    for item in candidate.supporting:
        anchor = anchor_date(titles.get(item.doc_id, ""), doc_texts.get(item.doc_id, ""), item.doc_id)
        if anchor is None:
            continue
        for quote in item.quotes:
            if any(normalize(answer) in forms for _, answer in relative_dates(quote, anchor)):
                return True
    return False


def ordered_in_support(candidate: Candidate, doc_texts: Mapping[str, str], titles: Mapping[str, str]) -> bool:
    """Whether an order task's answer came first, recomputed from its two quotes: each supporting
    item's quote names its option's words (all but the verb: "went to a LGBTQ support group" for "go to
    the LGBTQ support group") and gives one relative date from its document's date (`datagen.dates`);
    the answer's days all fall before the other's (`date_span`: "last week" may be any of 14 days)."""
    options = list(candidate.metadata.get("options") or ())
    if len(options) != 2 or len(candidate.supporting) != 2:
        return False
    spans = []
    for item, option in zip(candidate.supporting, options, strict=True):
        anchor = anchor_date(titles.get(item.doc_id, ""), doc_texts.get(item.doc_id, ""), item.doc_id)
        if anchor is None or len(item.quotes) != 1:
            return False
        quote = item.quotes[0]
        words = set(normalize(quote).split())
        if not all(w in words for w in normalize(option).split()[1:] if w != "the"):
            return False
        found = relative_dates(quote, anchor)
        span = date_span(found[0][1]) if len(found) == 1 else None
        if span is None:
            return False
        spans.append(span)
    answer = normalize(candidate.answer)
    if answer not in (normalize(o) for o in options):
        return False
    first = 0 if normalize(options[0]) == answer else 1
    return spans[first][1] < spans[1 - first][0]


def _quote_span(item: SupportingItem, doc_texts: Mapping[str, str], titles: Mapping[str, str]) -> tuple | None:
    """The days the one relative time of an item's one quote may mean, from its document's date."""
    anchor = anchor_date(titles.get(item.doc_id, ""), doc_texts.get(item.doc_id, ""), item.doc_id)
    if anchor is None or len(item.quotes) != 1:
        return None
    found = relative_dates(item.quotes[0], anchor)
    return date_span(found[0][1]) if len(found) == 1 else None


def anchored_in_support(candidate: Candidate, doc_texts: Mapping[str, str], titles: Mapping[str, str]) -> bool:
    """Whether "What did Maria join after taking the solo trip?" holds, recomputed from its two quotes:
    the first (the anchor's) names the anchor's words but its verb and gives its date, the second holds
    the answer and gives its date, and every day the second may mean is after (or before, as the
    question says) every day the first may mean."""
    direction = candidate.metadata.get("direction")
    words = normalize(str(candidate.metadata.get("anchor_words") or "")).split()
    if direction not in ("after", "before") or f" {direction} " not in candidate.question or len(words) < 2:
        return False
    if len(candidate.supporting) != 2:
        return False
    first, second = candidate.supporting
    quoted = set(normalize(" ".join(first.quotes)).split())
    if not all(w in quoted for w in words[1:] if w != "the") or not answer_in_texts(candidate.answers, second.quotes):
        return False
    span_x, span_y = _quote_span(first, doc_texts, titles), _quote_span(second, doc_texts, titles)
    if span_x is None or span_y is None:
        return False
    return span_y[0] > span_x[1] if direction == "after" else span_y[1] < span_x[0]


def date_aliases(text: str) -> tuple[str, ...]:
    """Other spellings of a full date ("3 July 2001" ↔ "July 3, 2001"), so answer checks match either."""
    m = re.fullmatch(r"(\d{1,2})\s+([A-Z][a-z]+)\s+(\d{4})", text.strip())
    if m and m.group(2) in MONTHS:
        return (f"{m.group(2)} {int(m.group(1))}, {m.group(3)}",)
    m = re.fullmatch(r"([A-Z][a-z]+)\s+(\d{1,2}),?\s+(\d{4})", text.strip())
    if m and m.group(1) in MONTHS:
        return (f"{int(m.group(2))} {m.group(1)} {m.group(3)}",)
    return ()
