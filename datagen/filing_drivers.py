"""Analyst questions from a filing's discussion of results: what drove a change in a line item.

A 10-Q's MD&A states a change and its cause in one sentence:

    "Total net sales decreased 3% or $2.4 billion during the second quarter of 2023 compared to the same
     quarter in 2022, primarily due to lower net sales of Mac."
    → "What was the primary driver of the change in Apple's total net sales in the second quarter of 2023?"
      answer: "lower net sales of Mac"

Real filings questions are asked this way (broad, by an analyst: "what was the primary driver behind the
change in Apple's net income?"), not as one cell of a table. The company and the fiscal calendar come from
the filing's cover metadata (`company`, `fiscal_quarter`, `fiscal_year`, `period_end`); the quarter comes
from the sentence itself, which must name the filing's own quarter ("in Q3 2023", "the third quarter of
fiscal year 2024"): a sentence with no quarter may speak of the year to date, and is refused.

A cause is read only when it is the sentence's first cause ("decreased 3 points driven by sales mix shift …,
primarily due to higher energy costs": the mix shift, the energy costs explain it), and it is whole: it runs to
the end of its clause (", partially offset by …" ends it), does not end on a function word (a phrase cut
by the chunker), does not begin with a pronoun ("this", "these") and is not vague ("a variety of factors").
One question per (company, line item, quarter), asked only when every sentence that states it gives one
cause; every other sentence that does (the same sentence in the filing's second section, or in the next
quarter's filing, naming the same quarter) is an extra positive. What is read and refused is counted by
reason (`driver:*`) in the run's stages.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from datagen.mining import MinedCorpus, fold
from datagen.table_facts import possessive
from datagen.table_facts import short_company as named

_CHANGE = r"(?:increased|decreased|grew|declined|rose|fell|was up|was down)"
# the first cause the sentence gives, "primarily" or not (Apple writes "… compared to the same quarter in 2022 due to …")
_MARK = r"(?:(?:primarily|mainly|largely|predominantly)\s+)?(?:due to|driven by|reflecting|as a result of|attributable to)"
# "Total net sales decreased 3% … primarily due to CAUSE" / "The decrease in AWS operating income … is primarily due to CAUSE"
_CHANGED = re.compile(rf"^(?P<metric>(?:[A-Z]|i[A-Z])[^,;:()]*?)\s+{_CHANGE}\b(?P<between>.*?)\b{_MARK}\s+(?P<cause>.+)$")
_THE_CHANGE = re.compile(
    rf"^The (?:increase|decrease|growth|decline) in (?P<metric>[^,;:()]+?)"
    r"(?= in absolute dollars| in Q[1-4]| during| for the| in the| from|,)"
    rf"(?P<between>.*?)\b(?:is|was)\s+{_MARK}\s+(?P<cause>.+)$"
)
# the marker is matched at its first occurrence, so only a cause it does not list can come before it
_EARLIER_CAUSE = re.compile(r"\bbecause\b")
_CLAUSE_END = re.compile(r",?\s+(?:partially offset|offset in part|partly offset|which|both of which|as well as the)\b|;"
                         r"|,\s+(?:(?:primarily|mainly|largely) )?(?:due (?:in part )?to|driven by|resulting from)\b|,\s+(?:though|while|whereas)\b"
                         r"|\.\s+(?=[▪•]|[A-Z][a-z])|\s▪")  # a bullet or a sentence the splitter missed ends it too
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_ORDINAL_NAME = {v: k for k, v in _ORDINAL.items()}
_QUARTER = re.compile(r"\b(?P<from>from )?(?:Q(?P<q>[1-4])\s+(?P<y>(?:19|20)\d\d)"
                      r"|(?:the )?(?P<ord>first|second|third|fourth) quarter of (?:fiscal )?(?:year )?(?P<y2>(?:19|20)\d\d))\b")
_PRONOUN = {"it", "its", "this", "these", "those", "that", "they", "their", "them", "our", "we", "which", "such", "he", "she"}
_VAGUE = re.compile(r"\b(?:variety of|various|several|number of|other) factors?\b|\bthe (?:above|following|factors?)\b"
                    r"|\bas (?:described|discussed|noted)\b|\bother items\b|\bchanges? in (?:various|other)\b")
_TAIL = {"and", "or", "of", "the", "a", "an", "to", "from", "by", "in", "with", "for", "including", "on", "at", "as",
         "than", "our", "its", "primarily", "mainly", "which", "that"}
_METRIC_WORDS = 7
_HEADING_WORD = re.compile(r"\b(?:Highlights|Overview|Results|Summary|Discussion|Analysis)\b")  # "Quarterly Highlights Total net sales"


@dataclass(frozen=True)
class Driver:
    """One sentence's (company, line item, quarter) and the cause it gives for the line item's change."""

    doc_id: str
    chunk_id: str
    sentence: str
    company: str
    metric: str  # as the sentence writes it, article dropped: "Total net sales", "AWS operating income"
    quarter: int
    year: int  # fiscal year, as the sentence and the cover page give it
    cause: str  # a span of `sentence`

    def key(self) -> tuple[str, str, int, int]:
        return (fold(self.company), fold(self.metric), self.quarter, self.year)


def _cover(mined: MinedCorpus, doc_id: str) -> dict[str, object]:
    for chunk in mined.chunks.get(doc_id, ()):
        meta = chunk.metadata or {}
        if meta.get("company") and meta.get("fiscal_quarter") and meta.get("fiscal_year"):
            return dict(meta)
    return {}


def sentence_quarters(text: str) -> list[tuple[int, int]]:
    """(quarter, fiscal year) of every quarter a sentence names; "from Q3 2021" is the base of a
    year-over-year change, so the quarter it speaks of is Q3 2022."""
    out = []
    for m in _QUARTER.finditer(text):
        if m.group("q"):
            q, y = int(m.group("q")), int(m.group("y"))
        else:
            q, y = _ORDINAL[m.group("ord")], int(m.group("y2"))
        out.append((q, y + 1 if m.group("from") else y))
    return out


def read_cause(text: str, stages: Counter) -> tuple[str, str] | None:
    """(line item, cause) of a sentence that states a change and its cause, or None (refusals counted)."""
    text = " ".join(text.replace("•", " ").split())
    m = _CHANGED.match(text) or _THE_CHANGE.match(text)
    if m is None:
        return None
    stages["driver:sentences"] += 1
    metric = re.sub(r"^(?:The|Our)\s+", "", m.group("metric").strip())
    # "Europe Europe net sales", "Income Tax Expense Income tax expense": the heading glued to its paragraph
    metric = re.sub(r"(?i)^(.+?) (\1\b)", r"\2", metric)
    # "Graphics - Segment operating income" is the Graphics segment's operating income
    metric = re.sub(r"^([A-Z][\w&. ]*?)\s+[-–]\s+Segment\s+", r"\1 segment ", metric)
    words = metric.split()
    if (not words or len(words) > _METRIC_WORDS or any(w.lower() in _PRONOUN for w in words) or " - " in metric
            or _HEADING_WORD.search(metric)):
        stages["driver:refused_metric"] += 1
        return None
    if _EARLIER_CAUSE.search(m.group("between")):
        stages["driver:refused_nested_cause"] += 1  # "decreased because of A, primarily due to B": which one?
        return None
    if not text.endswith((".", "!")):
        stages["driver:refused_cut"] += 1  # the chunker cut the sentence: its cause may be cut too
        return None
    cause = _CLAUSE_END.split(m.group("cause").rstrip(". "), maxsplit=1)[0].strip(" ,")
    cwords = cause.split()
    if cwords and cwords[0].lower() in _PRONOUN:
        stages["driver:refused_pronoun"] += 1
        return None
    if not 2 <= len(cwords) <= 25 or cwords[-1].lower().strip(",") in _TAIL:
        stages["driver:refused_cut"] += 1
        return None
    if _VAGUE.search(cause):
        stages["driver:refused_vague"] += 1
        return None
    return metric[0].upper() + metric[1:], cause


def read_drivers(mined: MinedCorpus, stages: Counter, skip_chunks: frozenset[str] | set[str] = frozenset()) -> list[Driver]:
    """Every (company, line item, quarter) → cause the corpus's filings state once (see the module
    docstring): the first sentence is the filing's own (its quarter is the cover's); the others are the
    extra positives. Refusals are counted in `stages`."""
    read: list[Driver] = []
    for doc_id, sentences in mined.sentences.items():
        cover = _cover(mined, doc_id)
        if not cover:
            continue
        own = (int(cover["fiscal_quarter"]), int(cover["fiscal_year"]))  # type: ignore[call-overload]
        for sent in sentences:
            if sent.chunk_id in skip_chunks:
                continue
            found = read_cause(sent.text, stages)
            if found is None:
                continue
            quarters = sentence_quarters(sent.text)
            if not quarters:
                stages["driver:refused_no_quarter"] += 1  # may speak of the year to date
                continue
            quarter = max(quarters, key=lambda p: (p[1], p[0]))  # the later of a comparison's two quarters
            if (quarter[1], quarter[0]) > (own[1], own[0]):
                stages["driver:refused_later_quarter"] += 1
                continue
            metric, cause = found
            read.append(Driver(doc_id, sent.chunk_id, " ".join(sent.text.split()), str(cover["company"]),
                               metric, quarter[0], quarter[1], cause))
    by_key: dict[tuple[str, str, int, int], list[Driver]] = defaultdict(list)
    for d in read:
        by_key[d.key()].append(d)
    out: list[Driver] = []
    for key, group in by_key.items():
        company, metric, quarter, year = key
        if any(k[0] == company and k[2:] == (quarter, year) and k[1].endswith(" " + metric)
               and fold(g[0].cause) == fold(group[0].cause) for k, g in by_key.items()):
            stages["driver:refused_cut_metric"] += len(group)  # "Other expenses": "All Other expenses" cut by a chunk
            continue
        if len({fold(d.cause) for d in group}) > 1:
            stages["driver:refused_two_causes"] += len(group)  # "the" cause is not one here
            continue
        owned = [d for d in group if (_cover(mined, d.doc_id).get("fiscal_quarter"), _cover(mined, d.doc_id).get("fiscal_year"))
                 == (d.quarter, d.year)]
        if not owned:
            stages["driver:refused_not_own_quarter"] += len(group)
            continue
        first = owned[0]
        out.append(first)
        out.extend(d for d in group if d is not first)
    stages["driver:questions"] = len({d.key() for d in out})
    return out


def groups(drivers: Sequence[Driver]) -> list[list[Driver]]:
    """The drivers of `read_drivers` by (company, line item, quarter), the filing's own sentence first."""
    by_key: dict[tuple[str, str, int, int], list[Driver]] = {}
    for d in drivers:
        by_key.setdefault(d.key(), []).append(d)
    return list(by_key.values())


def period_phrase(quarter: int, year: int, calendar: bool) -> str:
    """"the second quarter of 2023" for a company whose fiscal year is the calendar's, else "of fiscal 2024"."""
    return f"the {_ORDINAL_NAME[quarter]} quarter of {'' if calendar else 'fiscal '}{year}"


def short_company(company: str) -> str:
    """"Apple Inc." → "Apple", "NVIDIA Corporation" → "NVIDIA": as a person names the company, by the rule the
    table questions use (datagen.table_facts.short_company: "Amcor Plc" → "Amcor", "Costco Wholesale" →
    "Costco"), so a company is named alike in every question; the suffix cut alone when that rule gives ""."""
    if named(company):
        return named(company)
    name = re.sub(r",?\s+(?:Inc\.?|Incorporated|Corporation|Corp\.?|Co\.?|Ltd\.?|Limited|plc|N\.V\.|S\.A\.)$", "", company.strip())
    return re.sub(r"\.com$", "", name)


def calendar_year(mined: MinedCorpus, doc_id: str) -> bool:
    """Whether the filing's fiscal year is the calendar's: its quarter ends in that calendar quarter, or in
    the first week after it (Intel's second quarter of 2023 ended July 1; Apple's third quarter of fiscal
    2023 ended July 1 too, and is not the calendar's)."""
    cover = _cover(mined, doc_id)
    try:
        end = dt.date.fromisoformat(str(cover.get("period_end") or "")) - dt.timedelta(days=7)
    except ValueError:
        return False
    return end.year == int(cover["fiscal_year"]) and (end.month + 2) // 3 == int(cover["fiscal_quarter"])  # type: ignore[call-overload]


def ask_driver(d: Driver, calendar: bool, common: frozenset[str] | None = None) -> str:
    """The question; common: the corpus's lower-case words ("total" is one, "europe" is not)."""
    first, *rest = d.metric.split()
    # "Total net sales" reads "total net sales"; "NEX revenue", "Europe net sales", "All Other expenses",
    # "Compute & Networking segment …" keep the names they start with
    named = first.isupper() or any(w[:1].isupper() for w in rest) or (common is not None and first.lower() not in common)
    metric = d.metric if named else d.metric[0].lower() + d.metric[1:]
    return (f"What was the primary driver of the change in {possessive(short_company(d.company))} {metric} in "
            f"{period_phrase(d.quarter, d.year, calendar)}?")
