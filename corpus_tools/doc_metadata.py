"""Document metadata read from a document's first pages, without a model: issuer, form, period, fiscal quarter.

An SEC filing's cover page says who files what for which period in fixed wording:
"FORM 10-Q", "For the quarterly period ended July 1, 2023", the company's name on the line above
"(Exact name of registrant as specified in its charter)", and its ticker in the "Trading
Symbol(s)" table. These become where-able fields on every chunk ("company", "ticker", "form",
"period_end" as an ISO date, "fiscal_year", "fiscal_quarter") and the document's title.

Fiscal quarter and year. A filing's fiscal calendar is the company's: Apple's third quarter of
fiscal 2023 ended July 1, 2023; Microsoft's first quarter of fiscal 2024 ended September 30, 2023.
The rule, in order:
  1. the document's own words: "Q3 2023 Form 10-Q" (a running footer), or the quarter named most
     often as "third quarter of fiscal (year) 2024" / "Q2 FY24" among those the period can be (a
     fiscal quarter q ending in calendar quarter c belongs to the fiscal year ending 4 - q quarters
     later: Microsoft's quarter ended September 30, 2023 can be Q1 FY2024, never Q1 FY2023);
  2. else the month its fiscal year ends, where the filing states it ("the fiscal year ended June 30,
     2022"): Amcor's quarter ended December 31, 2022 is the second of fiscal 2023;
  3. else the calendar: the quarter and year of the period end moved back a week (52/53-week
     years end a few days into the next month: Intel's "October 1, 2022" is its third quarter).
A 10-K's period is its fiscal year: fiscal_quarter 4. An 8-K covers no period: its "Date of Report" is
its period_end, with no fiscal quarter. A document with no cover (an earnings release) is read from its
dateline ("… – Johnson & Johnson (NYSE: JNJ) today announced results for second quarter 2023", the company as
it writes itself) or headline ("Amcor reports fiscal 2023 results"): the company, the form "earnings release",
the period from "the quarter and year ended …" and, where it says so, the fiscal quarter and year. datagen reads
a release's company with the same `release_company`, so search and generated questions name it alike.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"], start=1)}
_DATE = r"([A-Z][a-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})"
_PERIOD = re.compile(
    r"for\s+the\s+(quarterly\s+period|fiscal\s+year|year|quarter|transition\s+period)\s+ended\s+" + _DATE,
    re.IGNORECASE,
)
_FORM = re.compile(r"\bFORM\s+(10-Q|10-K|8-K|20-F|40-F|6-K|S-1|DEF\s*14A)\b", re.IGNORECASE)
_REGISTRANT = re.compile(r"\(\s*Exact\s+name\s+of\s+registrant", re.IGNORECASE)
_FILE_NUMBER = re.compile(r"Commission\s+File\s+Number", re.IGNORECASE)
_COMPANY_WORD = re.compile(r"\b(?:Inc|Corp|Corporation|Company|Co|Ltd|plc|LLC|Group|Holdings|N\.V|S\.A|AG)\b\.?",
                           re.IGNORECASE)
_TRADING = re.compile(r"Trading\s+Symbol", re.IGNORECASE)
_TICKER = re.compile(r"\b[A-Z]{1,5}\b")
# Words of the trading-symbol table that are not tickers.
_NOT_TICKERS = frozenset(
    {"LLC", "INC", "NYSE", "NASDAQ", "THE", "USD", "EUR", "CORP", "PLC", "LTD", "LP", "CO", "ADR", "ADS", "US", "N", "A",
     "I", "II", "NA", "GS", "GM", "CBOE", "OTC", "STOCK", "PAR", "PER", "AND", "OF", "ON", "NMS", "SA", "NV", "AG", "SE"}
)
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_FOOTER_QUARTER = re.compile(r"\bQ([1-4])\s+(?:FY\s?)?(\d{4})\s+Form\s+10-Q\b", re.IGNORECASE)
_NAMED_QUARTER = re.compile(
    r"\b(first|second|third|fourth)\s+quarter\s+of\s+fiscal\s+(?:year\s+)?(\d{4})\b|\bQ([1-4])\s+(?:of\s+)?FY\s?'?(\d{2,4})\b",
    re.IGNORECASE,
)
# An 8-K's "Date of Report (Date of earliest event reported): July 1, 2022": the first date after the label.
_REPORT_DATE = re.compile(r"Date\s+of\s+report\b[^:\n]{0,60}:?\s*" + _DATE, re.IGNORECASE)
# Or the date on the line above the label: "July 21, 2021\nDate of Report (date of earliest event reported)".
_REPORT_DATE_ABOVE = re.compile(_DATE + r"\s*\n\s*\(?Date\s+of\s+report\b", re.IGNORECASE)
# A press release's headline: "<Company> reports|announces … results" within its first lines.
_HEADLINE = re.compile(
    r"(?:^|\s)(?P<name>[A-Z][\w&.'-]*(?:[\s,]+(?:[A-Z][\w&.'-]*|&|and|of))*?)\s+"
    r"(?:reports|announces|reported|announced|posts)\s+(?P<what>.{0,120}?\bresults)\b",
    re.IGNORECASE,
)
_RELEASE_FURNITURE = re.compile(r"^(?:exhibit\s+99(?:\.\d+)?|news\s+release|press\s+release|for\s+immediate\s+release)\b",
                                re.IGNORECASE)
# Its listing: "(NASDAQ: ULTA)", "(NYSE: AMCR; ASX: AMC)".
_LISTING = re.compile(r"\((?:NYSE|NASDAQ|Nasdaq|NYSE\s+American)\s*:\s*([A-Z][A-Z.]{0,5})\b")
# Its dateline: the place (and date), a dash, the company as it writes itself, its listing, "today announced":
#   "New Brunswick, N.J. (January 24, 2023) – Johnson & Johnson (NYSE: JNJ) today announced results for …"
#   "CHICAGO, IL - McDonald's Corporation today announced results for the first quarter ended March 31, 2023."
#   "Las Vegas, Nevada, February 8, 2023 – MGM Resorts International (NYSE: MGM) (“MGM Resorts” …) today reported"
#   "BOLINGBROOK, Ill.--(BUSINESS WIRE)-- Ulta Beauty, Inc. (NASDAQ: ULTA) today announced"
#   "SAN FRANCISCO - salesforce.com, inc. (NYSE: CRM) today announced" (a lowercase name is the filer's own).
_DATELINE = re.compile(
    r"(?:\s[–—-]{1,2}\s+|\)(?:\s+[–—-]{0,2}|[–—-]{1,2})\s*)(?P<name>[A-Za-z][\w&.,'’ -]{1,60}?)\s*"
    r"(?:\((?:NYSE|NASDAQ|Nasdaq|NYSE\s+American|ASX|LSE)\s*:\s*(?P<ticker>[A-Z][A-Z.]{0,5})[^)]*\)\s*,?\s*)?"
    r"(?:\([^()]{0,60}\)\s*)?(?:today\s+)?(?:announced|reported)\b(?P<what>.{0,100})",
    re.MULTILINE,
)
# Words a dateline's subject starts with that are no company's name ("the Company today announced").
_NOT_DATELINE_NAMES = frozenset({"the", "our", "we", "it", "company", "management", "today"})
# The form an earnings release is given (an 8-K's Exhibit 99.1 filed or read alone): no SEC form of its own, a
# report on a period all the same (constraints.DocumentFacts.periodic), never an "8-K" (a current report's date
# is an event's, not a period's end).
RELEASE_FORM = "earnings release"
# "the thirteen-week period … ended January 28, 2023", "results for the quarter and year ended December 31, 2022",
# "the 12 weeks ended March 25, 2023".
_RELEASE_PERIOD = re.compile(r"\b(?:periods?|quarters?|year|weeks)\b[^.]{0,120}?\bended\s+" + _DATE, re.IGNORECASE)
# "fiscal year ended June 30, 2022", "fiscal year ending January 28, 2024": the company's fiscal calendar.
_FISCAL_YEAR_END = re.compile(r"\bfiscal\s+year\s+end(?:ed|ing|s)?\s+(?:on\s+)?" + _DATE, re.IGNORECASE)
# The keys `read_metadata` may set (all where-able on every chunk).
DOCUMENT_KEYS = ("company", "ticker", "form", "period_end", "fiscal_year", "fiscal_quarter")
# Only this much of the start of a document is searched for the cover (three pages of a filing).
COVER_CHARS = 12_000


def read_metadata(text: str, furniture: str = "") -> dict[str, Any]:
    """The metadata the first pages of `text` state (keys absent when not found; see the module docstring).

    furniture: running headers and footers the layout reader left out of `text`; a footer such
    as "Apple Inc. | Q3 2023 Form 10-Q | 17" states the fiscal quarter.
    """
    cover = text[:COVER_CHARS]
    found: dict[str, Any] = {}
    form = _FORM.search(cover)
    if form:
        found["form"] = re.sub(r"\s+", " ", form.group(1).upper())
    period = _PERIOD.search(cover)
    end = _date(*period.groups()[1:]) if period else None
    if end is not None:
        found["period_end"] = end.isoformat()
    company = _company(cover)
    if company:
        found["company"] = company
    ticker = _ticker(cover)
    if ticker:
        found["ticker"] = ticker
    if "company" not in found:
        # No cover names a registrant, yet a form was read: an earnings release (an 8-K's Exhibit 99.1 filed
        # alone) citing "Form 10-K" or "the year ended …" in its prose. Its headline says who and when.
        release = _release_metadata(text, cover)
        if release.get("company"):
            return release
    if end is None and found.get("form") == "8-K":
        # A current report covers no period: its date is the day it reports on (no fiscal quarter).
        reported = _REPORT_DATE.search(cover) or _REPORT_DATE_ABOVE.search(cover)
        day = _date(*reported.groups()) if reported else None
        if day is not None:
            found["period_end"] = day.isoformat()
        return found
    if not found:
        return _release_metadata(text, cover)
    if end is not None:
        annual = period is not None and "year" in period.group(1).lower() or found.get("form") == "10-K"
        year, quarter = fiscal_period(f"{furniture}\n{text}" if furniture else text, end, annual)
        found["fiscal_year"], found["fiscal_quarter"] = year, quarter
    return found


def _release_metadata(text: str, cover: str) -> dict[str, Any]:
    """An earnings release's fields (`_press_release`), the fiscal period from its period end where the headline
    names none."""
    found = _press_release(cover)
    end = dt.date.fromisoformat(found["period_end"]) if "period_end" in found else None
    if end is not None and "fiscal_year" not in found:
        found["fiscal_year"], found["fiscal_quarter"] = fiscal_period(text, end, annual=False)
    return found


def _press_release(cover: str) -> dict[str, Any]:
    """An earnings release's issuer and period, from its dateline and headline (no cover page to read).

    The dateline ("… – Johnson & Johnson (NYSE: JNJ) today announced results for second quarter 2023") names the
    company as it writes itself ("McDonald's Corporation", "PepsiCo, Inc."), so it is read first; the headline
    ("Amcor reports fiscal 2023 results …", "Ulta Beauty Announces Fourth Quarter Fiscal 2022 Results") where no
    dateline says who. Either gives, when it says so, the fiscal year and quarter ("full year" and "fiscal YEAR
    results" are the fourth); "(NASDAQ: ULTA)" the ticker; "… period (quarter, weeks) ended January 28, 2023" the
    period end; the form is `RELEASE_FORM` when it announces results. {} when neither reads so.
    """
    # The release's own furniture ("Exhibit 99.1", "NEWS RELEASE", "FOR IMMEDIATE RELEASE") names no one.
    lines = [_RELEASE_FURNITURE.sub("", ln).strip() for ln in cover.splitlines() if ln.strip()][:12]
    head = " ".join(lines)
    # A name holds a capital ("eBay Inc." does, "today announced … results" does not: no headline there).
    # "The Company today announced …" is no headline either.
    match = next((m for m in _HEADLINE.finditer(head) if any(c.isupper() for c in m.group("name").split()[0])
                  and m.group("name").split()[0].lower() not in _NOT_DATELINE_NAMES), None)
    dated = dateline(cover[:4000])
    if not match and not dated:
        return {}
    name = dated[0] if dated else _name_case(match.group("name").strip(" ,"))
    found: dict[str, Any] = {"company": name}
    said = " ".join(m.group("what") for m in (match,) if m) + " " + (dated[2] if dated else "")
    if re.search(r"\bresults\b", said, re.IGNORECASE):
        found["form"] = RELEASE_FORM
    ticker = (dated[1] if dated else "") or (m.group(1) if (m := _LISTING.search(cover[:4000])) else "")
    if ticker:
        found["ticker"] = ticker
    period = _RELEASE_PERIOD.search(cover[:4000])
    end = _date(*period.groups()) if period else None
    if end is not None:
        found["period_end"] = end.isoformat()
    year = re.search(r"\b(?:fiscal\s+(?:year\s+)?)?((?:19|20)\d\d)\b", said, re.IGNORECASE)
    quarter = re.search(r"\b(first|second|third|fourth)[\s-]+quarter\b", said, re.IGNORECASE)  # "First-Quarter"
    if year:
        found["fiscal_year"] = int(year.group(1))
        if quarter:
            found["fiscal_quarter"] = _QUARTER_WORDS[quarter.group(1).lower()]
        elif re.search(r"\bfull[-\s]year\b|\bfiscal\s+(?:year\s+)?(?:19|20)\d\d\s+results\b", said, re.IGNORECASE):
            found["fiscal_quarter"] = 4
    return found


def dateline(text: str) -> tuple[str, str, str] | None:
    """(company as written, ticker or "", what follows "announced") from a release's dateline in `text`, else None.

    Lines are joined first: a PDF breaks the dateline anywhere ("… – Johnson & Johnson (NYSE:\\nJNJ) today …").
    """
    joined = re.sub(r"[ \t]*\n[ \t]*", " ", text)
    for m in _DATELINE.finditer(joined):
        # "New Brunswick, N.J. (January 24, 2023) – Johnson & Johnson": the place ends at the date's parenthesis.
        # and "PURCHASE, N.Y. - February 9, 2023 - PepsiCo, Inc.": at the last dash.
        name = re.split(r"\s[–—-]{1,2}\s", m.group("name").split(") ")[-1])[-1].strip(" ,-–—")
        first = name.split()[0].lower() if name.split() else ""
        if not name or first in _NOT_DATELINE_NAMES or not (m.group("ticker") or _COMPANY_WORD.search(name)
                                                             or any(c.isupper() for c in name)):
            continue
        return name, m.group("ticker") or "", m.group("what")
    return None


def release_company(texts: Sequence[str]) -> str:
    """The company a release's dateline names ("Johnson & Johnson"), from its first chunks' texts; "" when none.

    The one reader of a dateline: search metadata (`read_metadata`) and datagen's table and event facts agree.
    """
    for text in texts:
        found = dateline(text)
        if found:
            return found[0]
    return ""


def fiscal_period(text: str, end: dt.date, annual: bool = False) -> tuple[int, int]:
    """(fiscal year, fiscal quarter) of a period ending `end` (the rule in the module docstring)."""
    shifted = end - dt.timedelta(days=7)
    if annual:
        # A 52/53-week year ending January 1, 2023 is fiscal 2022 (the week rule below, as for quarters).
        return _stated_year(text) or shifted.year, 4
    calendar_quarter = (shifted.month - 1) // 3 + 1

    def possible(year: int, quarter: int) -> bool:
        return year == shifted.year + (calendar_quarter + 4 - quarter > 4)

    # "Q3 2023 Form 10-Q" is a running footer, or another filing cited ("(Q1 2022 Form 10-Q)").
    footer = Counter((int(y), int(q)) for q, y in _FOOTER_QUARTER.findall(text) if possible(int(y), int(q)))
    if footer:
        return footer.most_common(1)[0][0]
    # "our fiscal year ended June 30, 2022": the month a fiscal year ends fixes every quarter's number.
    # Named quarters can mislead where this cannot: Amcor's 10-Q for December 2022 cites "the fourth
    # quarter of fiscal year 2022" (a past quarter) more often than its own second quarter of fiscal 2023.
    year_ends = Counter((_date(*m.groups()) - dt.timedelta(days=7)).month
                        for m in _FISCAL_YEAR_END.finditer(text) if _date(*m.groups()) is not None)
    if year_ends:
        month = year_ends.most_common(1)[0][0]
        offset = (shifted.month - month - 1) % 12  # 0 for the first month of the fiscal year
        return shifted.year + (shifted.month > month), offset // 3 + 1
    named: Counter[tuple[int, int]] = Counter()
    for word, year, q, short_year in _NAMED_QUARTER.findall(text):
        if word:
            named[(int(year), _QUARTER_WORDS[word.lower()])] += 1
        else:
            y = int(short_year)
            named[(y + 2000 if y < 100 else y, int(q))] += 1
    # Filings name other quarters too ("compared with the first quarter of fiscal year 2022"): only a
    # (year, quarter) this period can be is taken. Fiscal quarter q ending in calendar quarter cq
    # means the fiscal year ends 4 - q quarters later: in this calendar year if cq + 4 - q <= 4.
    plausible = [(n, key) for key, n in named.items() if possible(*key)]
    if plausible:
        return max(plausible)[1]
    return shifted.year, calendar_quarter


def _stated_year(text: str) -> int | None:
    match = re.search(r"\bfiscal\s+(?:year\s+)?(\d{4})\b", text[:COVER_CHARS * 4], re.IGNORECASE)
    return int(match.group(1)) if match else None


def _date(month: str, day: str, year: str) -> dt.date | None:
    number = _MONTHS.get(month.lower()) or next((v for k, v in _MONTHS.items() if k.startswith(month.lower()[:3])), None)
    try:
        return dt.date(int(year), number, int(day)) if number else None
    except ValueError:
        return None


def _company(cover: str) -> str | None:
    """The line above "(Exact name of registrant…)", in the case the company writes it."""
    match = _REGISTRANT.search(cover)
    if not match:
        # Some covers (Microsoft's) print the name in capitals after the commission file number.
        file_number = _FILE_NUMBER.search(cover)
        if not file_number:
            return None
        after = [ln.strip() for ln in cover[file_number.end() :].splitlines()[1:4] if ln.strip()]
        name = next((ln for ln in after if _COMPANY_WORD.search(ln) and len(ln) <= 80), None)
        return _name_case(name) if name else None
    # A rule line drawn with underscores may share the name's line ("_____ Amazon.com, Inc.").
    before = [ln.strip(" _") for ln in cover[: match.start()].splitlines() if ln.strip(" _")]
    if not before:
        return None
    name = before[-1]
    if len(name) > 80 or not any(c.isalpha() for c in name):
        return None
    return _name_case(name)


def _name_case(name: str) -> str:
    """'INTEL CORPORATION' → 'Intel Corporation', 'AMAZON.COM, INC.' → 'Amazon.com, Inc.'; 'Apple Inc.' stays."""
    if not name.isupper():
        return name
    words = []
    for word in name.split():
        low = word.lower()
        words.append(word if word in ("NVIDIA", "IBM", "AMD", "AT&T", "HP") else low[:1].upper() + low[1:])
    return " ".join(words)


def _ticker(cover: str) -> str | None:
    """The first symbol in the trading-symbol table (the common stock's)."""
    match = _TRADING.search(cover)
    if not match:
        return None
    after = cover[match.end() : match.end() + 600]
    lines = after.splitlines()[1:]
    for line in lines[:6]:
        # The symbol is the short capitalised word between the class and the exchange.
        for word in _TICKER.findall(line):
            if word not in _NOT_TICKERS and len(word) >= 2:
                return word
    return None


def document_title(metadata: dict[str, Any], pdf_title: str | None, path: Path) -> str:
    """A title a person would give: company + form + period when the cover says them, else the PDF's
    own title when it means something, else the file name.

    A PDF's metadata title on filings is often a date or a form code ("04.01.2023 10Q Document"):
    that is never kept ("Apple Inc. 10-Q Q3 FY2023 (period ended 2023-07-01)", or the file name).
    """
    from corpus_tools.readers import is_meaningful_title, stem_title

    if metadata.get("company") and metadata.get("form"):
        title = f"{metadata['company']} {metadata['form']}"
        if metadata.get("fiscal_quarter") and metadata.get("fiscal_year") and metadata["form"] in ("10-Q", RELEASE_FORM):
            title += f" Q{metadata['fiscal_quarter']} FY{metadata['fiscal_year']}"
        if metadata.get("period_end"):
            title += f" (period ended {metadata['period_end']})"
        return title
    if pdf_title and is_meaningful_title(pdf_title) and not looks_like_code(pdf_title):
        return pdf_title
    return stem_title(path)


def looks_like_code(title: str) -> bool:
    """True for titles made of a date and a form code: "04.01.2023 10Q Document", "10-Q 2023-07-01"."""
    words = re.sub(r"[^\w\s]", " ", title).lower().split()
    filler = {"document", "doc", "form", "filing", "pdf", "htm", "html", "final", "draft", "copy", "v", "rev"}
    meaningful = [w for w in words if not w.isdigit() and w not in filler and not re.fullmatch(r"\d+[a-z]{0,2}|[a-z]?\d+[a-z]?", w)]
    return len(meaningful) == 0
