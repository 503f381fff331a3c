"""Question constraints: the company, period and form a question names, matched to an index's own metadata.

"What was the gross margin for Apple in the latest 10-Q?" names a company, a form and a period. On a
folder of filings those words are weak evidence for BM25 and dense alike (every 10-Q says "gross
margin"; "Apple" is one word among hundreds), yet they pick one document out of twenty. This module
reads them from the question and resolves them against the document-level metadata the index holds
("company", "ticker", "form", "period_end", "fiscal_year", "fiscal_quarter": see `types.Chunk`), so
`Corpus.search(..., constraints="auto")` can rank the named documents first.

No model: companies are matched against the corpus's own values (the "company" string with and
without its legal suffix, the ticker as written in capitals), periods by regular expressions and
dates. A period is resolved through the metadata, never a hardcoded calendar: "Q3 2023" matches a
filing whose fiscal_year/fiscal_quarter say so (Apple's quarter ended July 1, 2023) *or* whose
period_end falls in calendar Q3 2023 by the middle of its quarter (NVIDIA's quarter ended October
29, 2023 mostly covers August-September) *or* that is the company's third quarterly report issued in
calendar 2023 (the report order, as collections of filings label them: docugami's "2023 Q1 MSFT" is
Microsoft's report for the quarter ended December 31, 2022, its first 10-Q of 2023, which is neither
its fiscal Q1 nor calendar Q1); "fiscal Q3 2023" only the first. An unqualified label matches every
document any reading names (all rank first: a soft constraint, never a filter to one wrong reading),
and the documents most readings agree on are named in "period_preferred" for a mild lift among them
(`SearchConfig.period_lift`); on a tie the report order wins, the one reading that gives each of a
year's three quarterly reports one label whatever the fiscal calendar. "Latest" / "most recent"
means the latest period the corpus holds for each company named (every company when none is), among
periodic reports (an 8-K's date is an event's). A fiscal year named alone ("FY2023") is read two ways, the
fiscal year the company names and the calendar year its whole year ends in (a retailer's year ending
January 28, 2023 is its "fiscal 2022"), and names the documents that report the whole year (a 10-K, a
fourth-quarter release) where the company has one; of several years named, the latest is preferred (its
annual report prints the earlier as comparatives). An 8-K is named by its date ("dated 1st July 2022"). A
company named with no period ("How much does Pfizer expect to pay …") prefers that company's newest periodic
report ("period_preferred", lifted like an unqualified quarter's most-agreed reading; no filing dropped): on
the filings' tuning halves it won one FinanceBench question and lost none (session 33).

The result is a JSON-able dict: the metadata values to prefer ({"company": [...], "period_end": [...],
"form": [...]}; fiscal_year/fiscal_quarter when the matched documents have no period_end), the names
that look like companies but that the corpus does not hold ("unmatched"), and "notes" saying what was
dropped and why. An index without such metadata gives {}.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from corpus_tools.meeting_names import MeetingCatalog

# The document-level fields a constraint dict may name (a subset of `types.Chunk`'s keys).
FIELDS = ("company", "ticker", "form", "period_end", "fiscal_year", "fiscal_quarter")
# "period_preferred": the period_end values of the reading most readings agree on (see `_period_documents`).
# "meeting": the doc ids of the meetings a question names (corpus_tools.meeting_names.MeetingCatalog), ranked first.
_RESULT_KEYS = (*FIELDS, "meeting", "period_preferred", "unmatched", "notes")

_LEGAL = re.compile(
    r"[,\s]+(?:inc|incorporated|corp|corporation|co|company|ltd|limited|plc|llc|lp|sa|ag|nv|se|group|holdings?)\.?$",
    re.IGNORECASE,
)
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
# A year: "2023", "FY2023", "FY23", "fiscal 2023", "fiscal year 2023", "'23", "'2023" (two digits only with FY or ', so
# "Q3 10-Q" is no year).
_YEAR = r"(?:(?:FY\s?|fiscal\s+(?:year\s+)?)'?(?:\d{4}|\d{2})|'(?:\d{4}|\d{2})|\d{4})"
_Q = r"(?:(?P<fq>fiscal\s+)?Q(?P<q>[1-4]))"
_PERIODS = [
    # "Q3 2023", "Q3 FY2023", "fiscal Q3 2023", "Q3'23", "Q3 of fiscal 2023"
    re.compile(rf"\b{_Q}\s*(?:of\s+)?(?P<y>{_YEAR})\b", re.IGNORECASE),
    # "2023 Q3", "FY2023 Q3"
    re.compile(r"\b(?P<y>(?:FY\s?)?(\d{4}))\s+Q(?P<q>[1-4])\b", re.IGNORECASE),
    # "third quarter of 2023", "third fiscal quarter of 2023", "third quarter of fiscal 2023", "the 3rd quarter 2023"
    re.compile(
        r"\b(?P<w>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?P<fq>fiscal\s+)?quarter\s+(?:of\s+|in\s+)?(?:the\s+)?"
        rf"(?P<y>{_YEAR})\b",
        re.IGNORECASE,
    ),
]
_QUARTER_ALONE = re.compile(r"\b(?:Q(?P<q>[1-4])|(?P<w>first|second|third|fourth)\s+(?:fiscal\s+)?quarter)\b", re.IGNORECASE)
_FISCAL_YEAR = re.compile(r"\b(?:fiscal\s+(?:year\s+)?|FY\s?)'?(?P<y>\d{4}|\d{2})\b", re.IGNORECASE)
_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
     "december"], start=1)}
_MONTH_NAME = (r"(?P<m>January|February|March|April|May|June|July|August|September|October|November|December|"
               r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)")
# "July 1, 2022", "July 1st 2022" and the day first: "1st July 2022", "1 July, 2022", "the 1st of July 2022".
_DATES = (
    re.compile(rf"\b{_MONTH_NAME}\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b", re.IGNORECASE),
    re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_NAME}\.?,?\s+(?P<y>\d{{4}})\b",
               re.IGNORECASE),
)
_LATEST = re.compile(
    r"\b(?:latest|most\s+recent(?:ly)?|last\s+(?:reported\s+)?(?:quarter|10-?Q|filing|report)|current\s+quarter|"
    r"newest|recent\s+(?:quarter|10-?Q|filing))\b",
    re.IGNORECASE,
)
_FORMS = {
    "10-Q": re.compile(r"\b10-?Q\b|\bquarterly\s+report\b", re.IGNORECASE),
    "10-K": re.compile(r"\b10-?K\b|\bannual\s+report\b", re.IGNORECASE),
    "8-K": re.compile(r"\b8-?K\b", re.IGNORECASE),
    "20-F": re.compile(r"\b20-?F\b", re.IGNORECASE),
}
# A capitalised name that reads as a company: possessive, followed by a legal suffix, or after a verb or
# preposition that introduces one ("for Tesla", "did Tesla"). Used only to say what the corpus lacks.
_NAME = r"([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)"
_COMPANY_LIKE = [
    re.compile(_NAME + r"(?:'s|’s)\b"),
    re.compile(_NAME + r",?\s+(?:Inc|Corp|Corporation|Ltd|plc|LLC)\b\.?"),
    re.compile(r"\b(?:for|by|from|did|does|has|had|was|at)\s+" + _NAME),
]
_NOT_NAMES = {"q1", "q2", "q3", "q4", "fy", "the", "what", "how", "which", "who", "in", "for", "did", "does",
              "form", "item", "part", "note", "fiscal", "quarter", "gaap", "sec", "u.s", "us", "usd", "eps"}
# Calendar quarter of a period: the one holding the period's middle (a 13-week quarter ends ~45 days after it).
_HALF_QUARTER = dt.timedelta(days=45)
_ANNUAL_FORMS = ("10-K", "20-F", "40-F")
# A quarter's length, and how long after its end a quarterly report comes out (SEC: 40-45 days).
_QUARTER = dt.timedelta(days=91)
_FILING_LAG = dt.timedelta(days=40)


@dataclass(frozen=True)
class DocumentFacts:
    """One document's metadata that constraints are matched to (None where the index has no value)."""

    doc_id: str
    company: str | None = None
    ticker: str | None = None
    form: str | None = None
    period_end: dt.date | None = None
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None

    def value(self, field: str) -> Any:
        value = getattr(self, field)
        return value.isoformat() if isinstance(value, dt.date) else value

    def period_key(self) -> tuple:
        """Orders periods: by period_end where known, else by fiscal year and quarter."""
        return (self.period_end or dt.date.min, self.fiscal_year or 0, self.fiscal_quarter or 0)

    def periodic(self) -> bool:
        """A report on a period (10-Q, 10-K, an earnings release), not a current report whose date is an event's."""
        return self.form != "8-K"

    def whole_year(self) -> bool:
        """Reports a whole fiscal year: an annual report, or a fiscal fourth quarter's (a full-year release)."""
        return self.form in _ANNUAL_FORMS or (self.fiscal_quarter == 4 and self.periodic())

    def calendar_quarter(self) -> tuple[int, int] | None:
        """The calendar quarter holding a quarterly period's middle; None for an annual report (a year has no
        middle quarter: a 10-K is a quarter's only as its fiscal fourth) and for an 8-K."""
        if self.period_end is None or not self.periodic() or self.form in _ANNUAL_FORMS:
            return None
        middle = self.period_end - _HALF_QUARTER
        return middle.year, (middle.month - 1) // 3 + 1

    def report_order(self) -> tuple[int, int] | None:
        """(year, n): this is the n-th quarterly report the company issued in calendar `year`.

        A report comes out ~40 days after its period ends (`_FILING_LAG`); the company's earlier
        quarters are found by stepping back a quarter at a time, and its fiscal fourth quarter, which
        an annual report covers, is not counted. None without a period end, or for a fiscal Q4.
        """
        if self.period_end is None or self.fiscal_quarter == 4 or not self.periodic():
            return None
        year = (self.period_end + _FILING_LAG).year
        n, end, quarter = 1, self.period_end, self.fiscal_quarter
        while True:
            end, quarter = end - _QUARTER, (quarter - 2) % 4 + 1 if quarter else None
            if (end + _FILING_LAG).year != year:
                return year, n
            if quarter != 4:
                n += 1


def facts_from_metadata(doc_id: str, metadata: Mapping[str, Any]) -> DocumentFacts:
    """A document's facts from its chunk metadata; values of the wrong kind are left out, never guessed."""

    def text(key: str) -> str | None:
        value = metadata.get(key)
        return value.strip() or None if isinstance(value, str) else None

    def integer(key: str, low: int, high: int) -> int | None:
        value = metadata.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else None

    period_end = None
    if isinstance(metadata.get("period_end"), str):
        try:
            period_end = dt.date.fromisoformat(metadata["period_end"][:10])
        except ValueError:
            period_end = None
    return DocumentFacts(doc_id, text("company"), text("ticker"), text("form"), period_end,
                         integer("fiscal_year", 1900, 2200), integer("fiscal_quarter", 1, 4))


# First words that name no company on their own ("General Motors" is not "General").
_GENERIC_FIRST = {"general", "american", "international", "united", "national", "first", "bank", "global", "new",
                  "the", "data", "digital", "energy", "financial", "capital", "royal", "western", "eastern",
                  "northern", "southern", "central", "pacific", "atlantic", "union", "standard", "advanced", "applied"}


def core_name(company: str) -> str:
    """The name without its legal suffixes and a leading "The": "Best Buy Co., Inc." → "Best Buy",
    "The Kraft Heinz Company" → "Kraft Heinz" (suffixes come stacked: "Co., Inc.", "Holdings, Inc.")."""
    name = " ".join(company.split())
    while (shorter := _LEGAL.sub("", name).strip(" ,")) != name and shorter:
        name = shorter
    return re.sub(r"^the\s+", "", name, flags=re.IGNORECASE) if len(name.split()) > 1 else name


# An acronym that leads a company's name ("MGM" of "MGM Resorts International"): people shorten the
# name to it, so it counts as a short name though it is under four letters, matched in capitals only.
_ACRONYM = re.compile(r"[A-Z]{3,4}")


def short_name(company: str) -> str | None:
    """The first word of a multi-word company name, as people shorten it ("Orchard" for "Orchard Computer, Inc.",
    "MGM" for "MGM Resorts International"), unless it is generic; matched only as capitalised in the name."""
    words = core_name(company).split()
    if len(words) < 2 or words[0].lower() in _GENERIC_FIRST or not words[0][0].isupper():
        return None
    if len(words[0]) < 4 and not _ACRONYM.fullmatch(words[0]):
        return None
    return words[0]


def company_aliases(company: str) -> set[str]:
    """Lower-case names a question may use for `company`: "Amazon.com, Inc." → {"amazon.com, inc.", "amazon.com",
    "amazon"}; "Best Buy Co., Inc." → {"best buy co., inc.", "best buy"}."""
    full = " ".join(company.split())
    core = core_name(full)
    out = {full.lower(), core.lower(), re.sub(r"\.com$", "", core, flags=re.IGNORECASE).lower()}
    return {a for a in out if len(a) >= 3}


class MetadataCatalog:
    """The document-level metadata values of an index: the vocabulary a question's constraints resolve to."""

    def __init__(self, facts: Iterable[DocumentFacts], meetings: MeetingCatalog | None = None) -> None:
        # meetings: the folder's meetings a question may name ("the ES2002 kick-off meeting", "in Bmr009"); None
        # (SearchConfig.meeting_names off) or an empty one reads questions exactly as before
        self.meetings = meetings if meetings else None
        self.facts = [f for f in facts if any(f.value(name) is not None for name in FIELDS)]
        self._aliases: dict[str, set[str]] = {}
        for f in self.facts:
            if f.company:
                for alias in company_aliases(f.company):
                    self._aliases.setdefault(alias, set()).add(f.company)
        self._tickers = {f.ticker: f.company or f.ticker for f in self.facts if f.ticker and len(f.ticker) >= 2}
        # Tickers no document names a company for ("AA_q3_2021.txt": a call known by its file name's ticker): a
        # question naming one is constrained by "ticker", as no "company" value selects those documents.
        named = {f.company for f in self.facts if f.company}
        self._bare_tickers = {f.ticker for f in self.facts if f.ticker and not f.company and f.ticker not in named}
        # Short names count only when one company of the corpus has them (two "Orchard ..." would be ambiguous).
        shorts: dict[str, set[str]] = {}
        for company in {f.company for f in self.facts if f.company}:
            if (short := short_name(company)) is not None:
                shorts.setdefault(short, set()).add(company)
        self._short = {short: next(iter(names)) for short, names in shorts.items() if len(names) == 1}

    def __bool__(self) -> bool:
        return bool(self.facts) or self.meetings is not None

    @classmethod
    def from_documents(cls, items: Iterable[tuple[str, Mapping[str, Any]]],
                       meetings: MeetingCatalog | None = None) -> MetadataCatalog:
        """From (doc_id, metadata) pairs, e.g. each document's first chunk."""
        return cls((facts_from_metadata(doc_id, meta) for doc_id, meta in items), meetings)

    # ------------------------------------------------------------ reading a question

    def companies_in(self, question: str) -> list[str]:
        """The corpus companies a question names, by company name (any case) or ticker (as written in capitals)."""
        found: list[str] = []
        lowered = question.lower()
        for alias in sorted(self._aliases, key=len, reverse=True):
            if re.search(rf"(?<![\w.]){re.escape(alias)}(?![\w])", lowered):
                found.extend(sorted(self._aliases[alias]))
        for cased, company in [*self._tickers.items(), *self._short.items()]:  # as written, case and all
            if re.search(rf"(?<![\w$]){re.escape(cased)}(?![\w])", question):
                found.append(company)
        # One company's documents may spell it in two cases (an 8-K's cover "Mgm Resorts International", its
        # release "MGM Resorts International"): a ticker or short name found one spelling, the others go with it.
        same = {c.casefold() for c in found}
        found.extend(sorted(c for cs in self._aliases.values() for c in cs if c.casefold() in same))
        return list(dict.fromkeys(found))

    def unmatched_names(self, question: str) -> list[str]:
        """Capitalised names that read as companies but match no company or ticker the corpus holds."""
        out = []
        for pattern in _COMPANY_LIKE:
            for m in pattern.finditer(question):
                name = m.group(1).strip(" .,")
                words = [w for w in name.split() if w.lower().strip(".") not in _NOT_NAMES]
                if not words or _PERIOD_TOKEN.fullmatch(words[0]) or _MONTH_TOKEN.fullmatch(words[0]):
                    continue
                name = " ".join(words)
                if not self.companies_in(name) and name.lower() not in _NOT_NAMES:
                    out.append(name)
        return list(dict.fromkeys(out))

    def read(self, question: str) -> dict[str, Any]:
        """The question's constraints resolved against this catalog ({} for a catalog without metadata); "meeting":
        the meetings of the folder it names, when it names any."""
        if not self:
            return {}
        out = self._read_filings(question) if self.facts else {}
        named = self.meetings.named_in(question) if self.meetings is not None else []
        if named:
            out = {**out, "meeting": named, "notes": out.get("notes", [])}
        return out

    def _read_filings(self, question: str) -> dict[str, Any]:
        """The company, period and form the question names, resolved against the documents' metadata."""
        notes: list[str] = []
        companies = self.companies_in(question)
        unmatched = [n for n in self.unmatched_names(question) if n not in companies]
        tickers = [c for c in companies if c in self._bare_tickers]
        companies = [c for c in companies if c not in tickers]
        if unmatched and not companies and not tickers:
            # The question is about a company the corpus lacks: its period or form would only pull up
            # other companies' filings, so nothing is constrained.
            notes.append(f"the corpus holds no company named {', '.join(unmatched)}: no constraint applied")
            return {"company": [], "form": [], "period_end": [], "unmatched": unmatched, "notes": notes}
        pool = ([f for f in self.facts if f.company in companies or (not f.company and f.ticker in tickers)]
                if companies or tickers else list(self.facts))
        forms = [form for form, pattern in _FORMS.items() if pattern.search(question)]
        held_forms = {f.form for f in self.facts if f.form}
        if forms and not set(forms) & held_forms:
            notes.append(f"no document is a {'/'.join(forms)}: form constraint dropped")
            forms = []
        matched, preferred, period_note = _period_documents(question, pool)
        if period_note:
            notes.append(period_note)
        out: dict[str, Any] = {"company": companies, "form": [f for f in forms if f in held_forms]}
        if tickers and not companies:  # both named: the company's documents hold no bare ticker; keep the names
            out["ticker"] = tickers
        out.update(_period_values(matched))
        if preferred and len(preferred) < len(matched) and all(f.period_end for f in preferred):
            out["period_preferred"] = sorted({f.value("period_end") for f in preferred})
        elif (companies or tickers) and not matched and not period_note:
            newest = _newest_reports(pool)
            if newest and len(newest) < len(pool):
                out["period_preferred"] = sorted({f.value("period_end") for f in newest})
        out["unmatched"] = unmatched
        out["notes"] = notes
        return out

    # ------------------------------------------------------------ applying constraints

    def tiers(self, constraints: Mapping[str, Any]) -> list[list[str]]:
        """Doc ids to rank first, best tier first: all constraints met, then the company's alone.

        Empty when the constraints name nothing, or nothing the corpus holds (the fallback: plain search). The
        meetings a question names ("meeting") come before any of those.
        """
        meetings = list(dict.fromkeys(constraints.get("meeting") or ()))
        tiers = self._filing_tiers(constraints)
        if not meetings:
            return tiers
        rest = [[d for d in tier if d not in set(meetings)] for tier in tiers]
        return [meetings, *(tier for tier in rest if tier)]

    def _filing_tiers(self, constraints: Mapping[str, Any]) -> list[list[str]]:
        wanted = {k: set(v) for k, v in constraints.items() if k in FIELDS and v}
        if not wanted:
            return []
        tiers: list[list[str]] = []
        full = [f.doc_id for f in self.facts if all(f.value(k) in values for k, values in wanted.items())]
        if full:
            tiers.append(full)
        named = {k: v for k, v in wanted.items() if k in ("company", "ticker")}
        if named and len(named) < len(wanted):
            same = [f.doc_id for f in self.facts
                    if f.doc_id not in set(full) and all(f.value(k) in v for k, v in named.items())]
            if same:
                tiers.append(same)
        return tiers

    def preferred(self, constraints: Mapping[str, Any]) -> set[str]:
        """Doc ids of the full match whose period is the one most readings agree on ("period_preferred")."""
        periods = set(constraints.get("period_preferred") or ())
        if not periods:
            return set()
        tiers = self._filing_tiers({k: v for k, v in constraints.items() if k != "period_preferred"})
        full = set(tiers[0]) if tiers else set()
        return {f.doc_id for f in self.facts if f.doc_id in full and f.value("period_end") in periods}


_PERIOD_TOKEN = re.compile(r"Q[1-4]|FY\d*|\d+", re.IGNORECASE)
_MONTH_TOKEN = re.compile("|".join(_MONTHS) + r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec", re.IGNORECASE)


def _year(text: str) -> int:
    digits = re.sub(r"\D", "", text)
    return int(digits) + 2000 if len(digits) == 2 else int(digits)


def _period_documents(
    question: str, pool: list[DocumentFacts]
) -> tuple[list[DocumentFacts], list[DocumentFacts], str | None]:
    """The documents of `pool` whose period the question names, those most readings agree on, and a note
    when a named period matches none."""
    wanted: list[tuple[str, Any]] = []  # ("fiscal"|"either", (year, quarter)), ("date", date), ("fy", year), ...
    for m in (m for pattern in _DATES for m in pattern.finditer(question)):
        try:
            wanted.append(("date", dt.date(int(m["y"]), _MONTHS_ALL[m["m"].lower().rstrip(".")], int(m["d"]))))
        except (KeyError, ValueError):
            continue
    spans: list[tuple[int, int]] = []
    for pattern in _PERIODS:
        for m in pattern.finditer(question):
            if any(a <= m.start() < b for a, b in spans):
                continue
            spans.append(m.span())
            quarter = int(m["q"]) if "q" in m.groupdict() and m["q"] else _QUARTER_WORDS[m["w"].lower()]
            fiscal = bool(m.groupdict().get("fq")) or bool(re.search(r"FY|fiscal", m["y"], re.IGNORECASE))
            wanted.append(("fiscal" if fiscal else "either", (_year(m["y"]), quarter)))
    if not any(kind in ("fiscal", "either") for kind, _ in wanted):
        for m in _FISCAL_YEAR.finditer(question):
            wanted.append(("fy", _year(m["y"])))
        for m in _QUARTER_ALONE.finditer(question):
            quarter = int(m["q"]) if m["q"] else _QUARTER_WORDS[m["w"].lower()]
            wanted.append(("quarter", quarter))
    latest = bool(_LATEST.search(question))
    if not wanted and not latest:
        return [], [], None
    votes: dict[str, float] = {}  # doc id → how strongly the question's readings name it
    by_id = {f.doc_id: f for f in pool}
    years = sorted({value for kind, value in wanted if kind == "fy"})
    for kind, value in wanted:
        # "between FY2022 and FY2023": the later year's annual report prints the earlier as its comparative,
        # so the latest year named is preferred (an earlier one still matches).
        weight = 0.5 if kind == "fy" and value != years[-1] else 1.0
        for f in pool:
            vote = _period_vote(f, kind, value)
            if vote:
                votes[f.doc_id] = votes.get(f.doc_id, 0.0) + weight * vote
    if wanted and all(kind == "fy" for kind, _ in wanted):
        # A fiscal year named alone is the whole year: where a company has a document reporting the whole
        # year (an annual report, a fourth-quarter release), its quarterly reports of that year drop out.
        whole = {by_id[d].company for d in votes if by_id[d].whole_year()}
        votes = {d: v for d, v in votes.items() if by_id[d].whole_year() or by_id[d].company not in whole}
    matched = [by_id[d] for d in votes]
    if latest and not matched:
        newest: dict[str | None, DocumentFacts] = {}
        # The latest period is a periodic report's; an 8-K dated later is no "latest quarter".
        periodic = [f for f in pool if f.periodic()]
        for f in periodic or pool:
            if f.period_end or f.fiscal_year:
                if f.company not in newest or f.period_key() > newest[f.company].period_key():
                    newest[f.company] = f
        matched = list(newest.values())
    if wanted and not matched and not latest:
        return [], [], "no document matches the period the question names: period constraint dropped"
    # The most-agreed documents, per company (one company's fiscal calendar must not outvote another's).
    best: dict[str | None, float] = {}
    for d, vote in votes.items():
        best[by_id[d].company] = max(best.get(by_id[d].company, 0.0), vote)
    preferred = [by_id[d] for d, vote in votes.items() if vote == best[by_id[d].company]]
    return matched, preferred, None


def _newest_reports(pool: list[DocumentFacts]) -> list[DocumentFacts]:
    """Each company's periodic reports (8-Ks left out) of its latest period end: what a question that names a
    company but no period is taken to ask about first ("How much does Pfizer expect to pay …": its newest
    filing's figure), as a preference (`SearchConfig.period_lift`), never a filter."""
    newest: dict[str | None, dt.date] = {}
    for f in pool:
        if f.periodic() and f.period_end and (f.company not in newest or f.period_end > newest[f.company]):
            newest[f.company] = f.period_end
    return [f for f in pool if f.periodic() and f.period_end and f.period_end == newest.get(f.company)]


# The readings of an unqualified "Q3 2023": the fiscal quarter, the calendar quarter, the report order. Report
# order weighs a little more, so that it wins a tie (see the module docstring); two readings always beat one.
_READING_WEIGHT = {"fiscal": 1.0, "calendar": 1.0, "report": 1.5}


def _period_vote(f: DocumentFacts, kind: str, value: Any) -> float:
    """How strongly `f` is the period (kind, value) names: 0 when it is not, else its readings' weights summed."""
    fiscal = f.fiscal_year is not None and f.fiscal_quarter is not None
    if kind == "date":
        return float(f.period_end is not None and abs((f.period_end - value).days) <= 7)
    if kind == "fy":
        # Two readings, as for quarters: the fiscal year the company names, and the calendar year its whole
        # year ends in (a week back, as for quarters). They differ where a retailer names a year ending
        # January 28, 2023 "fiscal 2022"; an analyst may call it FY2023.
        ends = f.whole_year() and f.period_end is not None and (f.period_end - dt.timedelta(days=7)).year == value
        return float(f.fiscal_year == value) + float(ends)
    if kind == "quarter":
        calendar = f.calendar_quarter()
        return float((fiscal and f.fiscal_quarter == value) or (calendar is not None and calendar[1] == value))
    year, quarter = value
    vote = _READING_WEIGHT["fiscal"] if fiscal and (f.fiscal_year, f.fiscal_quarter) == (year, quarter) else 0.0
    if kind == "either":
        if f.calendar_quarter() == (year, quarter):
            vote += _READING_WEIGHT["calendar"]
        if f.report_order() == (year, quarter):
            vote += _READING_WEIGHT["report"]
    return vote


_MONTHS_ALL = {**_MONTHS, **{m[:3]: i for m, i in _MONTHS.items()}, "sept": 9}


def _period_values(matched: list[DocumentFacts]) -> dict[str, list[Any]]:
    """The metadata values that select `matched`: period_end where every one has it, else fiscal year/quarter."""
    if not matched:
        return {"period_end": []}
    if all(f.period_end for f in matched):
        return {"period_end": sorted({f.value("period_end") for f in matched})}
    return {"period_end": [], "fiscal_year": sorted({f.fiscal_year for f in matched if f.fiscal_year}),
            "fiscal_quarter": sorted({f.fiscal_quarter for f in matched if f.fiscal_quarter})}


def check_constraints(constraints: Any) -> dict[str, list[Any]]:
    """A caller's constraint dict, checked: known fields → lists of str/int values; ValueError naming what is wrong.

    "unmatched" and "notes" (what `read` returns beside the fields) are accepted and ignored, so a
    dict from `Corpus.question_constraints` can be passed back as it is.
    """
    if not isinstance(constraints, Mapping):
        raise ValueError(f'constraints must be None, "auto" or a dict such as {{"company": ["Apple Inc."]}}, '
                         f"got {constraints!r}")
    out: dict[str, list[Any]] = {}
    for key, value in constraints.items():
        if key not in _RESULT_KEYS:
            raise ValueError(f"unknown constraint {key!r}; valid: {', '.join(FIELDS)}")
        if key in ("unmatched", "notes"):
            continue
        values = [value] if isinstance(value, (str, int)) and not isinstance(value, bool) else value
        if not isinstance(values, list) or not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
            raise ValueError(f"constraint {key!r} must be a list of strings or integers, got {value!r}")
        out[key] = values
    return out
