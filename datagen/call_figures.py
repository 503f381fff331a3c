"""What an earnings call states: (company, metric, period, value) read from the speakers' own sentences
(issue 36: real folders of transcripts).

A call says its figures in prose, in the prepared remarks and again in the answers to analysts:

    For the first quarter of 2021, revenues were $481.1 million compared to $432.8 million for …
    On an adjusted basis, diluted earnings per share were $1.24 in the first quarter of 2021 …
    For the full year, we expect consolidated revenues of between $1.725 billion and $1.775 billion …

`read_call_figures` reads each such sentence into a `CallFigure`: a metric from a fixed list of what the
calls' own summaries report (revenue, earnings per share, EBITDA, net income, cash flow, margins, FFO, book
value), the first figure a level verb gives it ("were $481.1 million", not the prior year's "$432.8 million"
after "compared to", not a change "up $40 million"), written whole ("$1.725 billion and $1.775 billion"), and
the period the sentence names or, when it names none, the call's own quarter. Guidance ("we expect … of $X to
$Y") is its own metric: a range for the full year or the next quarter, said on this call.

Refused, each counted in `skipped` (the run's stages): a document without a call identity (`call:no_identity`)
or whose company is no name ("Inc.", `call:bare_company`); an analyst's turn or a question (`call:analyst`);
an estimate, consensus or the Street's number (`call:estimate`); a figure with no metric before it
(`call:figure_without_metric`); a figure of another period than the one asked (the prior year's quarter,
`call:other_period`). A hedged figure ("approximately $1.5 billion") is kept as a passage that states it but
never as the one a question is written from (`hedged`).

With `guards` (`--mix call_guards=1`, session 47: the faults of a hand read of 60 tuning tasks and of the
reporting read's classes, found again on tuning) a figure is refused, and counted, when it is:
  - conditional (`call:conditional`): "if the deal closes, revenue would be …", a pro-forma or an outlook "excluding
    the impact of" something;
  - summed with another quantity (`call:summed`): "new investments and capital expenditures totaled $X";
  - one of two figures of the metric the sentence gives (`call:metric_twice`): "Capital expenditures were $20.4
    million … net of disposal proceeds, and gross capex was $21.9 million";
  - a segment's named in the sentence before (`call:segment_context`): "At FirstService Residential, we generated
    revenues of …" then "This strong top line performance drove EBITDA of $49.6 million";
  - a segment's whose name holds "&" (`call:segment_named`): "In Meals & Beverages, net sales increased 6% to …".
Off, the reader is session 46's exactly.

The call's identity is its document metadata (`corpus_tools.doc_metadata.DOCUMENT_KEYS`: company, ticker,
form "earnings call", fiscal_year, fiscal_quarter, as `corpus_tools.call_identity` reads them), read here and
nowhere else in datagen. A call named by ticker only ("AAN_q1_2021.txt") is asked by its ticker.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from corpus_tools.call_identity import CALL_FORM
from datagen.mining import MinedCorpus, split_sentences
from datagen.table_facts import short_company

_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}
_QUARTER_WORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "q1": 1, "q2": 2, "q3": 3, "q4": 4}


@dataclass(frozen=True)
class CallIdentity:
    """A call's company (as a question names it: "AGNC Investment", never a bare "Inc."), ticker and the
    fiscal quarter it reports."""

    company: str
    ticker: str
    fiscal_year: int
    fiscal_quarter: int

    def quarter_phrase(self) -> str:
        """"the third quarter of 2022"."""
        return quarter_phrase(self.fiscal_quarter, self.fiscal_year)


@dataclass(frozen=True)
class CallFigure:
    """One figure one sentence of a call states.

    metric: as a question names it ("revenue", "adjusted earnings per share"). period: "Q3 2022" (a quarter)
    or "FY 2022" (a full year). value: as the call writes it, whole ("$3.1 billion", "$0.60 to $0.65").
    guidance: a range the company expects (its own metric: "revenue guidance"). hedged: "approximately",
    "about": a passage that states the figure, never the one asked from. sentence: the verbatim quote.
    """

    doc_id: str
    chunk_id: str
    sentence: str
    company: str
    metric: str
    period: str
    value: str
    guidance: bool = False
    hedged: bool = False

    def key(self) -> tuple[str, str, str, bool]:
        return (self.company.casefold(), self.metric, self.period, self.guidance)

    def number(self) -> float | None:
        """The value in units (dollars or percent) for comparing; None for a range."""
        return figure_number(self.value)


def quarter_phrase(quarter: int, year: int) -> str:
    return f"the {_ORDINAL[quarter]} quarter of {year}"


def period_phrase(period: str) -> str:
    """"Q3 2022" → "the third quarter of 2022"; "FY 2022" → "full-year 2022"."""
    kind, year = period.split()
    return f"full-year {year}" if kind == "FY" else quarter_phrase(int(kind[1]), int(year))


def period_forms(period: str) -> tuple[str, ...]:
    """How a call may write the period ("third quarter", "Q3 2022", "full year")."""
    kind, year = period.split()
    if kind == "FY":
        return (f"full year {year}", f"full-year {year}", f"fiscal {year}", f"fiscal year {year}", "full year", "full-year")
    word = _ORDINAL[int(kind[1])]
    return (f"{word} quarter of {year}", f"{kind} {year}", f"{word} quarter {year}", f"{year} {word} quarter",
            f"{word} quarter", kind)


def is_call(metadata: Mapping[str, Any]) -> bool:
    """Whether a document's metadata marks it an earnings call: its form, or (ECTSum's "AAN_q1_2021.txt", whose
    text may never say "call") a ticker and a quarter with no form at all."""
    form = str(metadata.get("form") or "").casefold()
    return form == CALL_FORM or (not form and bool(metadata.get("ticker")) and bool(metadata.get("fiscal_quarter")))


def identity_of(metadata: Mapping[str, Any], skipped: Counter) -> CallIdentity | None:
    """The identity an earnings call's document metadata gives, or None (counted) when it gives none: no quarter,
    or neither a company that is a name nor a ticker."""
    try:
        year, quarter = int(metadata.get("fiscal_year") or 0), int(metadata.get("fiscal_quarter") or 0)
    except (TypeError, ValueError):
        year = quarter = 0
    if not (1900 < year < 2100 and 1 <= quarter <= 4):
        skipped["call:no_identity"] += 1
        return None
    raw = str(metadata.get("company") or "").strip()
    ticker = str(metadata.get("ticker") or "").strip()
    company = short_company(raw) if raw else ""
    if raw and not company:
        skipped["call:bare_company"] += 1  # a bare "Inc." or a heading names no company
    # a folder that names its calls by ticker only ("AAN_q1_2021.txt"): the ticker, as analysts write it
    company = company or ticker
    if not company:
        skipped["call:no_identity"] += 1
        return None
    if len(company) < 2:
        skipped["call:one_letter_ticker"] += 1  # "Which company reported higher revenue, A or ADM?" names nothing
        return None
    return CallIdentity(company, ticker, year, quarter)


# -- the sentence reader -----------------------------------------------------------------------------------
# (metric as asked, pattern as said); the first that matches before a figure names it. Longer names first.
_EPS = r"(?:earnings per (?:diluted )?share|EPS|earnings per share, diluted)"
_METRICS: tuple[tuple[str, str], ...] = (
    ("adjusted earnings per share", rf"(?:adjusted|non-GAAP|core|operating) (?:diluted )?{_EPS}"),
    ("GAAP earnings per share", rf"GAAP (?:diluted )?{_EPS}"),
    ("diluted earnings per share", rf"diluted {_EPS}"),
    ("earnings per share", _EPS),
    ("core FFO per share", r"core FFO(?: per (?:diluted )?share)?"),
    # a qualified FFO is its own measure: "adjusted FFO per diluted share was $0.31" is not the company's FFO
    ("adjusted FFO per share", r"adjusted (?:FFO|funds from operations)(?: per (?:diluted )?share)?"),
    ("normalized FFO per share", r"normalized (?:FFO|funds from operations)(?: per (?:diluted )?share)?"),
    ("AFFO per share", r"AFFO(?: per (?:diluted )?share)?"),
    ("FFO per share", r"(?:nareit )?FFO(?: per (?:diluted )?share)?|funds from operations(?: per (?:diluted )?share)?"),
    ("tangible book value per share", r"tangible (?:net )?book value per (?:common )?share"),
    ("book value per share", r"(?:net )?book value per (?:common )?share"),
    ("adjusted EBITDA margin", r"adjusted EBITDA margins?"),
    ("adjusted EBITDA", r"adjusted EBITDA"),
    ("EBITDA", r"EBITDA"),
    ("adjusted net income", r"(?:adjusted|non-GAAP) net income"),
    ("adjusted gross margin", r"(?:adjusted|non-GAAP) gross margins?"),
    ("adjusted operating margin", r"(?:adjusted|non-GAAP) operating margins?"),
    ("net income", r"net income"),
    ("adjusted operating income", r"(?:adjusted|non-GAAP) operating income"),
    ("net operating income", r"net operating income|NOI"),
    ("operating income", r"operating income"),
    ("adjusted free cash flow", r"(?:adjusted|non-GAAP) free cash flows?"),
    ("free cash flow", r"free cash flows?"),
    ("operating cash flow", r"(?:operating cash flows?|cash flows? from operations|cash flows? from operating activities)"),
    ("gross margin", r"gross margins?"),
    ("operating margin", r"operating margins?"),
    ("net interest margin", r"net interest margin"),
    ("net interest income", r"net interest income"),
    ("capital expenditures", r"capital expenditures|capex"),
    ("backlog", r"(?:total )?backlog"),
    ("revenue", r"(?:total |consolidated |net )?(?:revenues?|net sales|total sales)"),
)
_PERCENT_METRICS = frozenset({"adjusted EBITDA margin", "gross margin", "adjusted gross margin", "adjusted operating margin", "operating margin", "net interest margin"})
# words a company total's metric may follow ("In the quarter, our total revenues"), and the words that may open
# its phrase; any other word just before it makes it a part's ("European", "Consumer segment", "subscription")
_TOTAL_WORDS = frozenset(
    "the our its total consolidated overall reported company's company record quarterly quarter quarter's year's first "
    "second third fourth q1 q2 q3 q4 full-year full year fiscal this gaap adjusted non-gaap diluted net a an".split()
) | {str(y) for y in range(2000, 2031)} | {f"'{y:02d}" for y in range(0, 31)}
_OPENERS = frozenset(
    "expect expects expecting anticipate anticipates see sees guide guiding forecast project projecting target "
    "reaffirm reaffirming raise raising maintain maintaining narrow narrowing "
    "in for and with we as that which reported delivered generated had achieved posted produced recorded grew "
    "saw see drove closed ended finished also then so while both".split()
)
_GAP_WORDS = frozenset(
    "for the quarter quarters in q1 q2 q3 q4 this our its year fiscal first second third fourth full full-year was were "
    "of on a an basis reported gaap non-gaap adjusted total period three twelve months ended and also again came at is "
    "are to be will would remain remains expected range".split()
) | {str(y) for y in range(2000, 2031)} | {f"'{y:02d}" for y in range(0, 31)}
# what before the metric makes it a part's or a basis other than the company's reported one
_PART_BEFORE = re.compile(r"(?i)\b(?!(?:gaap|reported|consolidated|adjusted|non-gaap|diluted|full[- ]year|quarterly|as-reported)\b)"
                          r"[\w-]+ basis\b|^(?-i:[a-z])|\b(?:segments?|divisions?|business(?:es)?|within|excluding|constant (?:currency|dollars?)|organic(?:ally)?"
                          r"|pro forma|same[- ]store|comparable|like-for-like)\b")
_PART_AFTER = re.compile(r"(?i)\s+(?:attributable to non|from (?:continuing|discontinued)|for (?:the|our|this) (?:[\w-]+ )?segment"
                         r"|in (?:the|our) (?:[\w-]+ ){1,3}(?:segment|business|division)|excluding|growth|(?-i:for [A-Z])|per (?:unit|ton|barrel"
                         r"|student|home|store))")
_ADJUSTABLE = {"diluted earnings per share": "adjusted earnings per share", "earnings per share": "adjusted earnings per share",
               "GAAP earnings per share": "adjusted earnings per share", "net income": "adjusted net income",
               "operating income": "adjusted operating income", "EBITDA": "adjusted EBITDA",
               "gross margin": "adjusted gross margin", "operating margin": "adjusted operating margin",
               "free cash flow": "adjusted free cash flow", "revenue": "adjusted revenue"}
_BASE_METRIC = {adjusted: plain for plain, adjusted in _ADJUSTABLE.items()}
_METRIC_RE = [(name, re.compile(rf"(?i)(?<![\w-])(?:{pattern})(?![\w-])")) for name, pattern in _METRICS]

_MONEY = r"\$\s?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?(?:million|billion|thousand))?"
_PERCENT = r"\d+(?:\.\d+)?\s?(?:%|percent)"
_RANGE = rf"(?:between\s+)?(?P<lo>{_MONEY})\s*(?:to|and|-|–)\s*(?P<hi>{_MONEY})"
# a level, not a change: "were $481.1 million", "at $3.1 billion", "increased 10% to $2.4 billion"
_LEVEL = (r"(?:was|were|is|of|at|totaled|totaling|totalled|came in at|reached|amounted to|landed at|ended at|"
          r"(?:increased|grew|rose|improved|expanded|climbed|decreased|declined|fell|dropped|contracted)"
          r"(?: by)?(?: \d+(?:\.\d+)?\s?(?:%|percent|basis points))?(?: [\w-]+){0,3}? to)")
_GUIDE = re.compile(r"(?i)\b(?:expect|expects|expected|expecting|guidance|guiding|guide|outlook|forecast|anticipate|"
                    r"project|projecting|see|sees|target|reaffirm|reaffirming|raise|raising|narrow|narrowing|range)\b")
_ESTIMATE = re.compile(r"(?i)\b(?:estimates?|consensus|the street|street's|analysts?|ibes|refinitiv)\b")
_OTHER_TIME = re.compile(r"(?i)\b(?:last year|prior year|prior-year|a year ago|year-ago|same period|same quarter|"
                         r"last quarter|prior quarter|previous quarter|compared (?:to|with)|versus|vs\.?|"
                         r"year-to-date|year to date|first half|second half|nine months|six months|ytd|pro forma)\b")
_CHANGE = re.compile(r"(?i)\b(?:increase|decrease|growth|decline|improvement|reduction|change|impact|benefit|headwinds?|"
                     r"tailwinds?|contribution|higher|lower|up|down|growth of|share|portion|percentage|use|loss|negative|outflow)\b")
# after the figure: a part of it ("$12 million of early termination revenue"), several figures ("respectively"), or
# another period ("in the first nine months", "in 2020")
_AFTER_PART = re.compile(r"(?i)^,?\s+of\s+(?!which)\w")
_AFTER_OTHER = re.compile(r"(?i)\b(?:nine months|six months|first half|second half|year-to-date|year to date|respectively"
                          r"|for the (?:full )?year|full[- ]year)\b")
# a capitalised possessive that is not the company's: "EIG's operating income", "PSEG Power's EBITDA"
_POSSESSIVE = re.compile(r"\b([A-Z][\w&.-]*)['’]s\b")
_QUESTION = re.compile(r"(?i)^(?:and |so |but |okay,? |ok,? )?(?:can|could|would|will|do|did|is|are|was|were|should|how|what|why)"
                       r"\s+(?:you|they|we)\b|\byour\b")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_TO_DATE = re.compile(r"(?i)\byear[- ]to[- ]date\b|\bytd\b|\bnine months\b|\bsix months\b|\bfirst half\b|\bthrough the\b"
                      r"|\btrailing\b|\bttm\b|\buses of cash\b|\bsources of cash\b")
# a sentence that sets the figure against another period ("Comparatively, … in the linked fourth quarter")
_COMPARATIVE = re.compile(r"(?i)\bcomparatively\b|\blinked (?:first |second |third |fourth )?quarter\b")
_QUARTER_NAMED = re.compile(r"(?i)\b(first|second|third|fourth)[- ]quarter\b|\b(Q[1-4])\b")
# the figure set against a bare year ("Gross margins were 34.8%, up 140 basis points compared to fiscal 2020"): the year's
# figure, not the quarter's, unless the sentence names a quarter
_YEAR_BASIS = re.compile(r"(?i)\b(?:compared (?:to|with)|versus|vs\.?|over|from|than)\s+(?:the\s+)?(?:full[- ]year\s+|fiscal\s+)?"
                         r"(?:year\s+)?(?:19|20)\d{2}\b(?!\s*(?:first|second|third|fourth|quarter|Q[1-4]))")
_FULL_YEAR = re.compile(r"(?i)\bfull[- ]year\b|\bfor the year\b|\bfiscal (?:year )?(?:19|20)\d{2}\b|\bannual\b|\bfor (?:19|20)\d{2}\b")
# an analyst's turn in a vendor export: the speaker's "Firm, Research Division - Analyst" line
_ANALYST_LINE = re.compile(r"(?i)research division|\banalyst\b|securities llc|capital markets")
_TITLE_LINE = re.compile(r"^\s*\S.{1,90}\s-\s\S.{1,60}$")


# the index's own speaker line (corpus_tools.call_reader): "Peter J. Federico (President & CEO)" when the company is
# named once (CorpusConfig.call_own_titles), "Name (Firm, Research Division - Analyst)" for an analyst
_TURN_LINE = re.compile(r"^[A-Z][\w.'’-]*(?:\s+[\w.'’-]+){0,5}\s\([^()]{2,150}\)$")


def _speaker_line(line: str) -> bool:
    """"AGNC Investment Corp. - Executive VP & CFO" or "Name (Title)": a short speaker line with no figure in it."""
    return (bool(_TITLE_LINE.match(line)) or bool(_TURN_LINE.match(line.strip()))) and "$" not in line and "%" not in line \
        and not line.rstrip().endswith((".", "?", "!", ","))


# -- the guards (session 47) ---------------------------------------------------------------------------------
# a figure under a condition or on another basis than what was reported: "if the acquisition closes … would", "on a
# pro forma basis", "assuming", "excluding the impact of"
# ("if we turn to the next page", "I would note that" are the speaker's way of talking, not a condition)
_CONDITIONAL = re.compile(r"(?i)\bif\b(?!\s+(?:you|we)\s+(?:look|turn|go|move|think)\b)|\bwould\b(?!\s+(?:like|note|say|point|add"
                          r"|highlight|remind|characterize|describe|call)\b)|\b(?:assuming|assumes|pro[- ]forma|upon (?:the )?"
                          r"(?:closing|completion)|once the|excluding the (?:impact|effect)s?)\b")
# an outlook on another basis ("excluding the impact of LaPlaya", pro forma, "if the sale closes"); "assuming current
# trends continue" is how guidance is said, not another basis (tuning: MHK's and PWR's outlooks are the company's own)
_CONDITIONAL_GUIDE = re.compile(r"(?i)\bif\b(?!\s+(?:you|we)\s+(?:look|turn|go|move|think)\b)|\bpro[- ]forma\b"
                                r"|\bupon (?:the )?(?:closing|completion)\b|\bonce the\b|\bexcluding the (?:impact|effect)s?\b")
# a part named before the figure with "&" or "and" in its name, which `_other_owner` reads as no name ("In Meals &
# Beverages, net sales increased 6% to $1.3 billion": tuning, CPB)
_PART_LEAD = re.compile(r"\b(?:At|Within|In|For)\s+((?:[A-Z][\w'’-]*\s+)+(?:&|and)\s+(?:[A-Z][\w'’-]*\s?){1,3}),")
# a second figure of the metric on another basis after the first ("…, and gross capex was $21.9 million")
_OTHER_BASIS = re.compile(r"(?i)\b(?:gross|net|total|reported|underlying|normalized|comparable|organic)\s+$")
_COMPARED = re.compile(r"(?i)\b(?:compared|versus|vs\.?|from|last year|prior|a year ago|year-ago|previous|respectively)\b")
# a quantity joined to the metric ("new investments and capital expenditures", "capex plus acquisitions"): the sum's
# (money spent, summed: two metrics named together, "earnings and earnings per share of $1.69", are not a sum)
_SUMMED_BEFORE = re.compile(r"(?i)\b(?:investments?|acquisitions?|capex|expenditures|dividends?|buybacks?|repurchases?|"
                            r"spending|development|maintenance)\s+(?:and|plus|&)\s*$")
# the sentence before names a part of the company, and this one goes on about it ("This strong top line …", "It")
_SEGMENT_LEAD = re.compile(r"(?i)^\s*(?:at|within|in|for|turning to|moving to|on) (?:the |our )?(?:[A-Z][\w&'’-]*\s?){1,4}"
                           r"(?:segment|division|business|unit)?,|\b(?:segment|division)\b")
# the sentence before states a segment's figure ("Segment adjusted EBITDA was $100.6 million, up 61% …"): a figure
# after it with no owner of its own goes on about that segment ("Adjusted EBITDA margin of 15.6% increased …")
_SEGMENT_FIGURE = re.compile(r"(?i)^\s*(?:the\s+|our\s+)?(?:[\w&'’-]+\s+){0,3}segments?['’]?s?\s+(?:[\w-]+\s+){0,4}?"
                             r"(?:was|were|of|totaled|increased|decreased|grew|rose|declined|improved)\b[^.]*[$%\d]")
_WHOLE_COMPANY = re.compile(r"(?i)\b(?:consolidated|total company|company-wide|overall|enterprise|we|our company|the company)\b")
# a figure compared with a span's ("35.3% compared with 34.9% in the first six months of fiscal 2019"): like is
# compared with like, so the figure is that span's too, not the quarter's
_TO_DATE_BASIS = re.compile(r"(?i)\b(?:compared (?:to|with)|versus|vs\.?|from)\s+[^,;]{0,40}?\b(?:year[- ]to[- ]date|ytd|"
                            r"(?:first )?nine months|(?:first )?six months|first half|trailing twelve months)\b")
# a sentence that opens on a part of the business in lower case ("In retail, NOI of $13 million …", "Within our
# office portfolio, …"): that part's figure; not the quarter, the total or the speaker's "In addition,"
_LOWER_PART_LEAD = re.compile(r"^(?:In|At|Within|Across|For) (?:our |the )?(?P<p>[a-z][\w-]*(?: [a-z][\w-]*){0,2}),")
_NOT_PARTS = re.compile(r"(?i)\b(?:quarter|year|period|months?|weeks?|basis|total|totality|sum|summary|addition|aggregate|"
                        r"short|general|particular|fact|turn|terms|conclusion|closing|comparison|contrast|all|"
                        r"which|that|this|these|those|light|line|order|case|other words|essence|effect|reality)\b")
# a year named as what a figure is set against ("compared to the midpoint of our 2020 guidance", "versus 2019")
_BASIS_YEAR = re.compile(r"(?i)\b(?:compared (?:to|with)|versus|vs\.?|over|from|than)\s+(?:[\w'’-]+\s+){0,5}?"
                         r"(?P<y>(?:19|20)\d{2})\b")
# the sentence before opens on a span's figures ("Year-to-date adjusted operating income … increased 156%", "Our
# year-to-date adjusted margin is 30.7%"): a figure after it naming no quarter of its own is that span's too
_TO_DATE_LEAD = re.compile(r"(?i)^\s*(?:our |for the |in the |through the )?(?:year[- ]to[- ]date|ytd|first nine months|"
                           r"first six months|first half|nine months|six months)\b")
_ANAPHORA = re.compile(r"(?i)^\s*(?:this|that|these|those|it|its|the (?:segment|division|business|unit)|segment|division)\b")


def _to_date_run(previous: str, text: str) -> bool:
    """Whether `text` goes on with the span the sentence before opened on (`_TO_DATE_LEAD`), naming no quarter."""
    return bool(previous) and bool(_TO_DATE_LEAD.match(previous)) and not _QUARTER_NAMED.search(text) \
        and not re.search(r"(?i)\b(?:for|in|this|the) quarter\b|\bquarterly\b", text)


def _segment_context(previous: str, text: str, ident: CallIdentity) -> bool:
    """Whether `text` goes on about a part the sentence before it named (see the module docstring)."""
    if previous and _SEGMENT_FIGURE.match(re.sub(r"\s+", " ", previous)) and not _WHOLE_COMPANY.search(text) \
            and not _QUARTER_NAMED.match(text.strip()):
        return True
    if not previous or not _ANAPHORA.match(text):
        return False
    flat = re.sub(r"\s+", " ", previous)
    # (not `_other_owner`'s "X generated": "our operational performance generated net income of …" is the company's)
    return bool(_SEGMENT_LEAD.search(flat)) or _named_segment(flat, ident)


def read_call_figures(mined: MinedCorpus, skipped: Counter, *,
                      guards: bool = False) -> tuple[dict[str, CallIdentity], list[CallFigure]]:
    """(doc id -> identity, every figure the calls state); what is refused is counted in `skipped`. guards: the
    session 47 guards (the module docstring)."""
    identities: dict[str, CallIdentity] = {}
    figures: list[CallFigure] = []
    for doc, chunks in mined.chunks.items():
        if not chunks:
            continue
        metadata = chunks[0].metadata or {}
        if not is_call(metadata):
            continue
        skipped["call:documents"] += 1
        ident = identity_of(metadata, skipped)
        if ident is None:
            continue
        identities[doc] = ident
        analyst = False
        first, parts = len(figures), set()  # this call's figures start here; the figures a guard refused
        for chunk in chunks:
            previous = ""
            for start, end in split_sentences(chunk):
                text = chunk.text[start:end]
                # a vendor export's speaker lines ("Bose Thomas George" / "Keefe, …, Research Division - MD") run into
                # the turn's first sentence: they say whose turn it is, and the quote starts after them
                lines = text.split("\n")
                for i, line in enumerate(lines[:-1]):
                    if _speaker_line(line):
                        analyst = bool(_ANALYST_LINE.search(line))
                        text = "\n".join(lines[i + 1:])
                    elif line.strip() == "Operator":
                        analyst, text = False, "\n".join(lines[i + 1:])
                text = text.strip()
                if not text:
                    continue
                said = sentence_figures(text, doc, chunk.chunk_id, ident, skipped, analyst=analyst, guards=guards)
                if guards:  # what a guard refused here: its other passages too (below)
                    plain = sentence_figures(text, doc, chunk.chunk_id, ident, Counter(), analyst=analyst)
                    parts.update({(f.metric, f.period, f.value) for f in plain} - {(f.metric, f.period, f.value) for f in said})
                if said and guards and _to_date_run(previous, text):
                    skipped["call:to_date_basis"] += len(said)
                    parts.update((f.metric, f.period, f.value) for f in said)
                elif said and guards and _segment_context(previous, text, ident):
                    skipped["call:segment_context"] += len(said)  # counted as figures the sentence gave
                    parts.update((f.metric, f.period, f.value) for f in said)
                else:
                    figures.extend(said)
                previous = text
        if parts:
            # chunks overlap: the same sentence opens the next chunk with its lead cut off ("Beverages, net sales …");
            # a figure a guard refused in one passage is refused in every passage of the call
            figures[first:] = [f for f in figures[first:] if (f.metric, f.period, f.value) not in parts]
    return identities, figures


def sentence_figures(
    text: str, doc_id: str, chunk_id: str, ident: CallIdentity, skipped: Counter, *, analyst: bool = False,
    guards: bool = False,
) -> list[CallFigure]:
    """The figures one sentence states (see the module docstring); refusals counted."""
    if "$" not in text and "%" not in text and "percent" not in text:
        return []
    if analyst or text.rstrip().endswith("?") or _QUESTION.search(text):
        skipped["call:analyst"] += 1
        return []
    if _ESTIMATE.search(text):
        skipped["call:estimate"] += 1
        return []
    flat = re.sub(r"\s+", " ", text)
    if _COMPARATIVE.search(flat):
        skipped["call:other_period"] += 1
        return []
    if re.search(r"(?i)\brespectively\b", flat):
        skipped["call:several_figures"] += 1  # "… of $210 million and $154 million …, respectively"
        return []
    guidance = bool(_GUIDE.search(flat)) and bool(re.search(_RANGE, flat))
    found = _guidance(flat, ident, skipped, guards=guards) if guidance else _actual(flat, ident, skipped, guards=guards)
    if guards and guidance and found and _CONDITIONAL_GUIDE.search(flat):
        skipped["call:conditional"] += 1  # "we expect revenue of $X to $Y excluding the impact of LaPlaya"
        return []
    return [CallFigure(doc_id, chunk_id, text, ident.company, metric, period, value, guidance, hedged)
            for metric, period, value, hedged in found]


def _metric_before(flat: str, at: int) -> tuple[str, int] | None:
    """The metric named nearest before position `at` (within 12 words), and where its phrase starts (its
    modifiers included: "Consolidated adjusted EBITDA"); None when a segment's or a part's ("European revenues",
    "Technology segment EBITDA", "net income attributable to noncontrolling interest")."""
    best: tuple[int, int, str] | None = None  # (end, -start, name): the nearest, then the longest name
    for name, rx in _METRIC_RE:
        for m in rx.finditer(flat, 0, at):
            gap = flat[m.end():at]
            # only the period or the basis between the metric and its verb ("Net income for the quarter was"): any
            # other word makes it another thing's figure ("a large direct sale of", "attributed to Oil-Dri … was")
            if len(gap.split()) > 8 or any(w.strip(",()").lower() not in _GAP_WORDS for w in gap.split()):
                continue
            if best is None or (m.end(), -m.start()) > best[:2]:
                best = (m.end(), -m.start(), name)
    if best is None:
        return None
    end, start, name = best[0], -best[1], best[2]
    # the words just before the metric: only a company total's ("our total", "the quarter's", "consolidated")
    words = flat[:start].split()
    i = len(words)
    while i > 0 and not words[i - 1].endswith((",", ";", ":", ".")) and words[i - 1].lower().replace("’", "'") in _TOTAL_WORDS:
        i -= 1
    lead = words[i - 1] if i > 0 else ""
    if lead and not lead.endswith((",", ";", ":", ".")) and lead.lower() not in _OPENERS:
        return "", start
    if _PART_AFTER.match(flat[end:]):
        return "", start
    modifiers = " ".join(words[i:]).lower()
    if re.search(r"\b(?:adjusted|non-gaap)\b", modifiers) and name in _ADJUSTABLE:
        name = _ADJUSTABLE[name]  # "Our adjusted quarterly earnings per share of $2.81"
    return name, start - len(" ".join(words[i:])) - (1 if words[i:] else 0)


def _actual(flat: str, ident: CallIdentity, skipped: Counter, *, guards: bool = False) -> list[tuple[str, str, str, bool]]:
    out = []
    level = re.compile(rf"(?i)\b{_LEVEL}\s+(?P<hedge>(?:approximately|about|roughly|nearly|almost|around|over|more than"
                       rf"|close to)\s+)?(?P<value>{_MONEY}(?:\s+per (?:diluted |common )?share)?|{_PERCENT})")
    for m in level.finditer(flat):
        value = m.group("value").strip()
        found = _metric_before(flat, m.start())
        if found is None:
            skipped["call:figure_without_metric"] += 1
            continue
        metric, start = found
        if not metric:
            skipped["call:segment_metric"] += 1
            continue
        if re.search(r"(?i)\b(?:adjusted|non-GAAP) basis\b|\bnon-GAAP\b", flat[:start]) and metric in _ADJUSTABLE:
            metric = _ADJUSTABLE[metric]  # "On a non-GAAP basis, diluted earnings per share were $1.24"
        if (metric in _PERCENT_METRICS) != value.endswith(("%", "percent")):
            skipped["call:figure_without_metric"] += 1  # a margin's dollars, revenue's percent: a change or a share
            continue
        per_share = "per share" in metric
        if per_share and re.search(r"million|billion", value) or not per_share and "per " in value or (
                not per_share and metric not in _PERCENT_METRICS and not re.search(r"million|billion|thousand|\d,\d", value)):
            skipped["call:figure_without_metric"] += 1  # "revenue … $0.78 per share", "EPS … $53 million"
            continue
        span = flat[start:m.start()]
        after = flat[m.end():]
        if re.match(rf"(?i)\s*(?:to|-|–)\s*{_MONEY}", after) or _GUIDE.search(flat[:m.start()]):
            skipped["call:outlook"] += 1  # a range or an expectation with no range: an outlook, not a result
            continue
        if (_AFTER_PART.match(after) or _other_owner(flat[:m.start()], ident) or _PART_BEFORE.search(flat[:m.start()])
                or _named_segment(flat[:m.start()], ident)):
            skipped["call:segment_metric"] += 1
            continue
        # what follows the figure up to its comparison ("compared to $388.0 million in the first quarter of 2023")
        following = re.split(r"(?i),|;|\b(?:compared|versus|vs\.?|from|up|down|against|over|an increase|a decrease|and)\b",
                             after, maxsplit=1)[0]
        period = _period(flat[:m.start()], ident, following)
        if period and period.startswith("Q") and _YEAR_BASIS.search(after) and not _QUARTER_NAMED.search(flat) \
                and not re.search(r"(?i)\bquarter", flat):
            period = None
        if period is None or _OTHER_TIME.search(span) or _OTHER_TIME.search(following) or _AFTER_OTHER.search(following) or _other_year(following, ident):
            skipped["call:other_period"] += 1
            continue
        if guards:
            refused = _guarded(flat, start, m, metric, value, ident)
            if refused:
                skipped[refused] += 1
                continue
        out.append((metric, period, re.sub(r"\s+per (?:diluted |common )?share$", "", value), bool(m.group("hedge"))))
        break  # the sentence's first figure: what follows is most often the comparison
    return out


def _guarded(flat: str, start: int, m: re.Match[str], metric: str, value: str, ident: CallIdentity) -> str:
    """The stage a session 47 guard refuses an actual figure under, or "" (the module docstring)."""
    for lead in _PART_LEAD.finditer(flat[:m.start()]):
        names = {w.casefold().strip("'’") for w in lead.group(1).split()} - {"&", "and", "of", "the"}
        own = {w.casefold() for w in re.findall(r"[\w&-]+", f"{ident.company} {ident.ticker}")}
        if names and not names <= own | _QUARTER_WORD.keys() | {"our", "fiscal", "full", "year", "total", "addition",
                                                                  "summary", "short", "general", "aggregate", "terms"}:
            return "call:segment_named"  # "In Meals & Beverages, net sales increased 6% to $1.3 billion"
    # after the figure only a condition on it ("$530.2 million if Delta Valves is included"), not a second metric
    # ("GAAP earnings per share of $0.27 per share and pro forma earnings per share of $0.25": RYN on tuning)
    if _CONDITIONAL.search(flat[:m.start()]) or re.match(r"(?i)[^.;]{0,40}\b(?:if|assuming)\b", flat[m.end():]):
        return "call:conditional"
    if _SUMMED_BEFORE.search(flat[:start]):
        return "call:summed"
    if _TO_DATE_BASIS.search(flat[m.end():]) and not _QUARTER_NAMED.search(flat) \
            and not re.search(r"(?i)\b(?:for|in|this) the quarter\b|\bthis quarter\b", flat):
        return "call:to_date_basis"
    lead = _LOWER_PART_LEAD.match(flat)
    if lead and lead.end() <= m.start() and not _NOT_PARTS.search(lead.group("p")):
        return "call:segment_named"  # "In retail, NOI of $13 million reflected …"
    if re.match(r"(?i)\s*(?:during [\w ]{1,20}\s+)?net of\b", flat[m.end():]):
        return "call:metric_twice"  # a figure qualified after it ("$20.4 million during Q4 net of disposal proceeds")
    rx = dict(_METRIC_RE).get(metric) or dict(_METRIC_RE).get(_BASE_METRIC.get(metric, ""))
    for again in rx.finditer(flat, m.end()) if rx is not None else ():
        if _COMPARED.search(flat[m.end():again.start()]) or not _OTHER_BASIS.search(flat[m.end():again.start()]):
            continue
        later = re.match(rf"(?i)\s+(?:[\w-]+\s+){{0,3}}?{_LEVEL}\s+(?:approximately |about )?(?P<v>{_MONEY}|{_PERCENT})",
                         flat[again.end():])
        if later and not same_value(later.group("v"), value):
            return "call:metric_twice"  # "…, and gross capex was $21.9 million": which of the two is asked?
    return ""


def _guidance(flat: str, ident: CallIdentity, skipped: Counter, *,
              guards: bool = False) -> list[tuple[str, str, str, bool]]:
    m = re.search(_RANGE, flat)
    assert m is not None
    found = _metric_before(flat, m.start())
    if found is None:
        skipped["call:figure_without_metric"] += 1
        return []
    metric, start = found
    if not metric:
        skipped["call:segment_metric"] += 1
        return []
    if metric in _PERCENT_METRICS:
        return []
    lo, hi = m.group("lo"), m.group("hi")
    if ("million" in hi or "billion" in hi) != ("million" in lo or "billion" in lo) and not re.search(r"million|billion", hi):
        return []
    # the next quarter or the year the sentence names, never the quarter this call reports
    named = _QUARTER_NAMED.search(flat)
    year = ident.fiscal_year
    years = [int(y) for y in _YEAR.findall(flat)]
    if guards:
        # a year the outlook is measured against is no period of it ("… growth of 21.4% to 26.2% compared to the
        # midpoint of our 2020 guidance": the range is the next year's, said two sentences before)
        basis = [int(b.group("y")) for b in _BASIS_YEAR.finditer(flat)]
        years = [y for y in years if y not in basis]
        if basis and not years and not _FULL_YEAR.search(flat):
            skipped["call:guidance_without_period"] += 1
            return []
    if _FULL_YEAR.search(flat) or (years and not named):
        if years and any(y not in (ident.fiscal_year, ident.fiscal_year + 1) for y in years):
            skipped["call:other_period"] += 1
            return []
        year = years[0] if years else ident.fiscal_year
        if year == ident.fiscal_year and ident.fiscal_quarter == 4:
            skipped["call:other_period"] += 1  # a fourth-quarter call's "full year" is most often the next one's
            return []
        period = f"FY {year}"
    elif named:
        q = _QUARTER_WORD[(named.group(1) or named.group(2)).lower()]
        if q == ident.fiscal_quarter:
            skipped["call:other_period"] += 1
            return []
        period = f"Q{q} {year + 1 if q < ident.fiscal_quarter else year}"
    else:
        skipped["call:guidance_without_period"] += 1
        return []
    value = flat[m.start():m.end()]
    return [(metric, period, value, False)]


def _other_owner(before: str, ident: CallIdentity) -> bool:
    """Whether a possessive before the figure names another business than the company ("EIG's", "Airtech had")."""
    own = {w.casefold() for w in re.findall(r"[\w&-]+", f"{ident.company} {ident.ticker} company")}
    for m in _POSSESSIVE.finditer(before):
        if m.group(1).casefold().strip(".") not in own:
            return True
    # the subject of "… generated / delivered / had …": we, the company or its name ("supply chain solutions
    # generated … an operating margin of 9.7%" is a segment's)
    for m in re.finditer(r"\b([\w&'’-]+)\s+(?:had|generated|delivered|posted|achieved|recorded|produced)\b", before):
        if m.group(1).casefold().strip("'’") not in own | {"we", "it", "this", "that", "also", "and", "have", "has"}:
            return True
    # "At FirstService Residential, we generated revenues of …": a division's figure
    for m in re.finditer(r"\b(?:At|Within|In|For)\s+((?:[A-Z][\w&'’-]*\s?){1,4}),", before):
        names = {w.casefold().strip("'’") for w in m.group(1).split()}
        if not names <= own | _QUARTER_WORD.keys() | {"the", "our", "fiscal", "full", "year"}:
            return True
    return False


def _named_segment(flat: str, ident: CallIdentity) -> bool:
    """Whether the sentence names a business's own revenue or sales before the figure ("In the third quarter,
    Marine Transportation revenues were $338.5 million with an operating income of $16.9 million"): capitalised
    words, not the company's and not the sentence's first, just before "revenues" or "sales"."""
    own = {w.casefold() for w in re.findall(r"[\w&-]+", f"{ident.company} {ident.ticker}")}
    for m in re.finditer(r"((?:\b[A-Z][a-z][\w&-]*\s+){1,3})(?:net\s+)?(?:revenues?|sales)\b", flat):
        words = m.group(1).split()
        inner = words[1:] if m.start() == 0 else words
        if any(w.casefold() not in own | _TOTAL_WORDS for w in inner):
            return True
    return False


def _other_year(following: str, ident: CallIdentity) -> bool:
    years = [int(y) for y in _YEAR.findall(following)]
    named = _QUARTER_NAMED.search(following)
    other_quarter = bool(named) and _QUARTER_WORD[(named.group(1) or named.group(2)).lower()] != ident.fiscal_quarter
    return any(y != ident.fiscal_year for y in years) or other_quarter


def _period(before: str, ident: CallIdentity, following: str = "") -> str | None:
    """The call's quarter ("Q3 2022"), its full year, or None when the words before the figure name another
    quarter or year."""
    if _TO_DATE.search(before):
        return None  # "On a year-to-date basis through the third quarter, operating cash flow of $151 million"
    named = _QUARTER_NAMED.search(before)
    years = [int(y) for y in _YEAR.findall(before)]
    if years and any(y != ident.fiscal_year for y in years):
        return None
    if named:
        q = _QUARTER_WORD[(named.group(1) or named.group(2)).lower()]
        return f"Q{q} {ident.fiscal_year}" if q == ident.fiscal_quarter else None
    if _FULL_YEAR.search(before):
        # a fourth-quarter call reports its year; another's "full year" is an outlook or year-to-date
        return f"FY {ident.fiscal_year}" if ident.fiscal_quarter == 4 else None
    if re.search(r"(?i)\b(?:months|annual|annually|half)\b|\byear\b(?![- ]over)", before):
        return None
    if ident.fiscal_quarter == 4 and not re.search(r"(?i)\bquarter(?:ly)?\b|\bQ4\b", before + following):
        return None  # a fourth-quarter call states the year's figures too: the sentence must say it is the quarter's
    return f"Q{ident.fiscal_quarter} {ident.fiscal_year}"


def figure_number(value: str) -> float | None:
    """"$3.1 billion" → 3.1e9, "$0.78" → 0.78, "15.4%" → 15.4; None for a range or no number."""
    if re.search(r"\bto\b|\band\b|–", value):
        return None
    m = re.search(r"(\d[\d,]*(?:\.\d+)?)\s?(million|billion|thousand)?", value)
    if m is None:
        return None
    n = float(m.group(1).replace(",", ""))
    return n * {"million": 1e6, "billion": 1e9, "thousand": 1e3}.get(m.group(2) or "", 1)


def same_value(a: str, b: str) -> bool:
    """"$1.5 billion" and "$1.50 billion" state one value; ranges compare as written."""
    na, nb = figure_number(a), figure_number(b)
    if na is None or nb is None:
        return re.sub(r"\s+", " ", a).strip().casefold() == re.sub(r"\s+", " ", b).strip().casefold()
    return abs(na - nb) <= 1e-9 * max(abs(na), 1.0)
