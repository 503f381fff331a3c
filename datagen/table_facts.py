"""Facts from table rows (filings, reports): a company's metric for a period, asked as a person would
("What were Apple's total net sales, in millions of dollars, for the quarter ended July 1, 2023?").

A table chunk (metadata "kind": "table", written by the structured readers of corpus_tools) holds
one row a line, cells split by " | ", under a column line whose corner cell gives the units:

    (In millions) | Three Months Ended Sep 30, 2023 | Three Months Ended Sep 24, 2022
    Net revenue | $ 14,158 | $ 15,338

The columns come from that line, or from the chunk's contextual header ("columns: … · in millions")
when a long table's later chunk no longer shows it. Each column must read as one period
(`parse_period`: "Three Months Ended June 25, 2022" → the quarter ended that day; "June 25, 2022" →
as of that day; the PDF reader's shuffled "Three June Months 25, Ended 2022" is put back in order).
A table whose columns are no periods (a table of contents, "Fair Value … Level 2", a bare "2023"
whose months were lost), a row whose cells do not line up with the columns, or a table with no column
line at all (its header row lost) gives no fact and is counted: a value without its period is a guess.
So does a row whose heading was lost: a table captioned with a segment's name ("North America", in the
contextual header only) whose rows do not repeat it ("Net sales | 74,430" is the segment's, not the
company's) — `table_row_heading_lost`; a row of a hedge or derivative table ("Hedged assets/(liabilities):
Current and non-current term debt" is the hedged item's carrying amount, not the balance sheet's term debt)
— `table_row_hedge_item`; and a two-decimal cell in a table "in millions, except per share amounts"
("Income tax effects | 0.39" is per share) — `table_value_per_share_unit`.

An earnings release's columns name quarters ("Q4 2022 | Q4 2021 | Q4 % Change", "Full Year 2022") or carry their
unit ("Twelve Months Ended June 30, 2023 $ million"): datagen.release_facts reads them; the "% Change" columns
give nothing. A release's "Segment Information" section whose rows are bare metrics ("Net sales | 11,151", the
segment's name lost above them) gives nothing either (`table_row_heading_lost`).

The company is the chunk's "company" metadata, else a release's dateline (datagen.release_facts), else the
document's title; questions use its short
name ("Apple Inc." → "Apple"). The value is kept as the cell writes it ("14,158"), since that is what
the verifier finds in the text. Everything a question about the row needs travels in the fact's
relation (`TableKey`), so the cross-document forms (datagen.period_tasks) read it back without
parsing the row again; the same relation and value in two filings is the same fact (extra positives).
Chunks without a "kind" (indexes built before document structure) are not tables: nothing changes.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from datagen.factbase import Fact, malformed_subject
from datagen.release_facts import fiscal_forms, fiscal_phrase, release_period
from datagen.types import TruthType

_VALUE = re.compile(r"^\(?-?\$?\s*\d[\d,]*(?:\.\d+)?\)?\s*%?$")
_SYMBOLS = {"$", "%", "", "—", "-", "–"}
_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December"]
_MONTHS = {m[:3].lower(): i + 1 for i, m in enumerate(_MONTH_NAMES)}
_MONTH_WORDS = {m.lower() for m in _MONTH_NAMES} | {m[:3].lower() for m in _MONTH_NAMES} | {"sept"}
_DURATIONS = {"three": "quarter", "six": "six months", "nine": "nine months", "twelve": "twelve months"}
_GLUED_HEADING = re.compile(r"^(?:Assets|Liabilities|Equity|Revenues|Expenses)\s+[A-Z]")
_BARE_UNIT = re.compile(r"(?i)^\((millions|thousands|billions)\b")  # a corner cell "(MILLIONS, EXCEPT PER SHARE DATA)"
# a 52/53-week calendar's periods: 13-week quarters (a retailer), or PepsiCo's 12-week quarters and 16/17-week fourth
# quarter, 24 and 36 weeks to date
_WEEKS = {"12": "quarter", "13": "quarter", "14": "quarter", "16": "quarter", "17": "quarter", "24": "six months",
          "26": "six months", "36": "nine months", "39": "nine months", "52": "year", "53": "year"}
# a release's "6/17/2023"; McDonald's "Quarters Ended March 31, Inc/ (Dec) Excluding Currency 2023" (a header of
# two stacked lines: the change columns' words run into the period's)
_NUMERIC_DAY = re.compile(r"\b(1[0-2]|0?[1-9])/(3[01]|[12]\d|0?[1-9])/((?:19|20)\d{2})\b")
_LIGATURE_LOST = re.compile(r"(?i)\b(?:ow|ows|nanc\w*|xed|scal|nite|gures?)\b")
_CHANGE_WORDS = re.compile(r"(?i)\bInc\s*/\s*\(Dec\)|\bExcluding(?: Currency)?(?: Translation)?\b")
_UNIT = re.compile(r"\(?(?:dollars |amounts |\$ )?\$?\s*in (millions|thousands|billions)\)?", re.IGNORECASE)
# a release's column "Twelve Months Ended June 30, 2023 $ million": the unit written in the column itself
_COLUMN_UNIT = re.compile(r"(?i)\s*\$\s*(million|thousand|billion)s?\s*$")
_SUFFIX = re.compile(
    r"(?:,?\s+(?:Inc\.?|Incorporated|Corporation|Corp\.?|Co\.|Company|LLC|L\.L\.C\.|Ltd\.?|Limited|plc|Plc|PLC|N\.V\.|S\.A\.|AG))+$"
)
_BUSINESS_WORDS = frozenset({"Wholesale", "Communications", "Holdings", "Group", "Enterprises", "Industries"})
_COMMON_NAME_WORDS = frozenset({"united", "american", "general", "first", "national", "international", "global"})
# Row labels that are no metric of their own: a heading row, a running subtotal of nothing named.
_NO_METRIC = re.compile(r"^(?:total|other|net|amount|balance|subtotal)$", re.IGNORECASE)
_STOCK = re.compile(r"(?i)\b(?:balance|balances|beginning|ending|beginning of|end of (?:the )?period|as of)\b")
# A row label holding one of these names a metric without its heading ("Current liabilities: Short-term debt").
_METRIC_NOUN = re.compile(
    r"(?i)\b(?:income|margin|loss|losses|expense|expenses|revenue|revenues|sales|profit|cash|debt|assets|liabilities"
    r"|equity|receivable|receivables|payable|inventories|goodwill|earnings|dividends|repurchases|taxes|cost|costs"
    r"|rate|investments|securities|deposits|borrowings|capital|compensation|depreciation|amortization)\b"
)


@dataclass(frozen=True)
class Period:
    """A column's period: `length` "quarter", "six months", "nine months", "year", or "as of" (a balance);
    `end` the day it ends. Two filings writing "Sep 30, 2023" and "September 30, 2023" state one period."""

    length: str
    end: dt.date

    def phrase(self) -> str:
        """"the quarter ended July 1, 2023" / "the nine months ended …" / "July 1, 2023" (as of)."""
        if self.length.startswith("fiscal "):  # an earnings release's "Q4 2022" (datagen.release_facts)
            return fiscal_phrase(self.length, self.end)
        day = f"{_MONTH_NAMES[self.end.month - 1]} {self.end.day}, {self.end.year}"
        return day if self.length == "as of" else f"the {self.length} ended {day}"

    def key(self) -> str:
        return f"{self.length}@{self.end.isoformat()}"

    def forms(self) -> tuple[str, ...]:
        """How a column may write the day: "September 30, 2023", "Sep 30, 2023", "Sept 30, 2023"."""
        if self.length.startswith("fiscal "):
            return fiscal_forms(self.length, self.end)
        month = _MONTH_NAMES[self.end.month - 1]
        tail = f" {self.end.day}, {self.end.year}"
        return tuple(dict.fromkeys((month + tail, month[:3] + tail, *(("Sept" + tail,) if self.end.month == 9 else ()))))


@dataclass(frozen=True)
class TableKey:
    """What a table fact says, read back from its relation: the metric (as asked), the period and the unit."""

    metric: str
    period: Period
    unit: str

    def relation(self) -> str:
        return f"table:{self.metric}:{self.period.key()}:{self.unit}|row|{TruthType.NUMBER.value}"


FOREIGN = "foreign-"  # the relation prefix of a row of a table about another subject (see table_facts)
_FOREIGN_INTRO = re.compile(r"(?i)\bsummari[sz]ed\b|\bfinancial information of\b|\binvestee|\bequity[- ]method\b")


def _intro(text: str) -> str:
    """The prose line just above a chunk's column line ("" when the chunk shows no column line)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if " | " in line and line.startswith("("):
            return next((p for p in reversed(lines[:i]) if p.strip()), "")
    return ""


def is_table(metadata: Mapping[str, Any]) -> bool:
    return str(metadata.get("kind", "")) == "table"


def possessive(name: str) -> str:
    """"Apple" → "Apple's"; "McDonald's" stays "McDonald's" (not "McDonald's's")."""
    return name if re.search(r"['’]s$", name) else f"{name}'s"


def short_company(name: str) -> str:
    """"Apple Inc." → "Apple", "Amazon.com, Inc." → "Amazon", "NVIDIA Corporation" → "NVIDIA"; "" for a
    name that is only a suffix ("Inc.") or a heading."""
    name = re.sub(r"\s+", " ", name).strip()
    # "eBay Inc.": a brand written with a lower-case first letter is still a name (malformed_subject reads a
    # lower-case first word as no name)
    checked = name[:1].upper() + name[1:] if re.match(r"[a-z][A-Z]", name) else name
    if malformed_subject(checked):
        return ""
    short = _SUFFIX.sub("", name).strip(" ,")
    # a release's capitals "McDONALD'S" as the name is written: "McDonald's"
    short = re.sub(r"\bMc([A-Z])([A-Z]+['’]S|[A-Z]{2,})\b", lambda m: "Mc" + m.group(1) + m.group(2).lower(), short)
    short = re.sub(r"\.com$", "", short)
    # a trailing word of the line of business ("Costco Wholesale", "Verizon Communications"): people, analysts
    # and earnings releases say "Costco", "Verizon"; kept when what is left would be a common word ("United")
    words = short.split()
    if len(words) >= 2 and words[-1] in _BUSINESS_WORDS and len(words[-2]) >= 4 and not (
            len(words) == 2 and words[0].lower() in _COMMON_NAME_WORDS):
        short = " ".join(words[:-1])
    checked = short[:1].upper() + short[1:] if re.match(r"[a-z][A-Z]", short) else short
    return short if short and not malformed_subject(checked) and re.search(r"[A-Za-z]{2}", short) else ""


@dataclass(frozen=True)
class FilingDates:
    """What a filing's cover says of its own period (chunk metadata "period_end", "form", "fiscal_year"): the day
    it ends, whether it is an annual report, and the year its tables name that period by ("2022" in a 10-K
    whose year ended January 1, 2023). Columns that lost their year or their length are read against it."""

    end: dt.date
    annual: bool
    year: int

    def near(self, day: dt.date) -> bool:
        """Whether `day` falls within a week of the filing's own day of the year, in any year (52/53-week
        years end a few days apart: August 29, 2021; August 30, 2020; September 1, 2019)."""
        for year in (day.year - 1, day.year, day.year + 1):
            try:
                same = self.end.replace(year=year)
            except ValueError:  # February 29
                same = self.end.replace(year=year, day=28)
            if abs((day - same).days) <= 7:
                return True
        return False


def filing_dates(metadata: Mapping[str, Any]) -> FilingDates | None:
    """The filing's own period from its chunk's document metadata; None when the cover gave no day."""
    try:
        end = dt.date.fromisoformat(str(metadata.get("period_end") or ""))
    except ValueError:
        return None
    fiscal = metadata.get("fiscal_year")
    if end.month == 1 and end.day <= 7:
        year = end.year - 1  # a 52/53-week year that ends just after December 31 is named for the year before
    elif isinstance(fiscal, int) and fiscal in (end.year, end.year - 1):
        year = fiscal  # a retailer's year ended January 28, 2023 is "fiscal 2022" to one, "fiscal 2023" to another
    else:
        year = end.year
    return FilingDates(end, str(metadata.get("form") or "").upper() == "10-K", year)


def parse_period(column: str, filing: FilingDates | None = None) -> Period | None:
    """One column header as a period, or None when it is not exactly one (see the module docstring).

    With the filing's own period (`filing`), two losses of the PDF reader are made good: a column whose year
    was lost ("Three Months Ended July 2,") is the filing's own period when its day is the filing's, the year
    before when its day is the filing's a year (or 52 or 53 weeks) earlier (July 3, 2022 beside July 2, 2023);
    and in an annual report a column "… Ended <day>" whose length was lost ("Weeks Ended August 29, 2021",
    its "52" dropped) is a year when its day is the filing's year-end day. Without it, both stay None."""
    text = re.sub(r"(?i)\(unaudited\)", " ", _UNIT.sub(" ", _COLUMN_UNIT.sub(" ", column)))  # a release's "(Unaudited)"
    fiscal = release_period(text)
    if fiscal is not None:  # a release's "Q4 2022", "Full Year 2022"
        return Period(*fiscal)
    text = _NUMERIC_DAY.sub(lambda m: f"{_MONTH_NAMES[int(m.group(1)) - 1]} {int(m.group(2))}, {m.group(3)}", text)
    if _CHANGE_WORDS.search(text):
        text = _CHANGE_WORDS.sub(" ", text)
        if not re.search(r"\b(?:19|20)\d{2}\b", text):
            return None  # the change column itself ("Inc/ (Dec)"): no period, whatever day it carries
    # "13 Weeks Ended" (a retailer's quarter), "52 Weeks Ended" (its year): the count is no day
    weeks = re.search(r"(?i)\b(12|13|14|16|17|24|26|36|39|52|53)\s+weeks\b", text)
    if weeks:
        text = text[: weeks.start(1)] + text[weeks.end(1):]
    words = re.findall(r"[A-Za-z]+|\d+", text)
    if not words:
        return None
    durations = [w.lower() for w in words if w.lower() in _DURATIONS]
    months = [w for w in words if w.lower() in _MONTH_WORDS]
    numbers = [w for w in words if w.isdigit()]
    others = [
        w for w in words
        if w not in months and not w.isdigit() and w.lower() not in _DURATIONS
        and w.lower() not in {"months", "month", "ended", "ending", "weeks", "week", "as", "of", "at", "quarter", "quarters", "year",
                              "years", "fiscal", "for", "the"}
    ]
    if others or len(months) != 1 or len(durations) > 1:
        return None  # "Fair Value … Level 2", two dates, or no month: not one period
    days = [int(n) for n in numbers if len(n) <= 2]
    years = [int(n) for n in numbers if len(n) == 4]
    if len(days) != 1 or len(years) > 1 or (not years and filing is None):
        return None
    month = _MONTHS[months[0][:3].lower()]
    try:
        if years:
            end = dt.date(years[0], month, days[0])
        elif (month, days[0]) == (filing.end.month, filing.end.day):
            end = filing.end  # the filing's own period, its year lost
        else:
            end = dt.date(filing.end.year - 1, month, days[0])
            if (filing.end - end).days not in (364, 365, 366, 371):
                return None  # neither the filing's day nor the one a (52- or 53-week) year before: which year?
    except ValueError:
        return None
    lower = [w.lower() for w in words]
    if durations:
        length = _DURATIONS[durations[0]]
    elif "quarter" in lower or "quarters" in lower:
        length = "quarter"
    elif weeks:
        length = _WEEKS[weeks.group(1)]
    elif ("year" in lower or "years" in lower) and "ended" in lower:
        length = "year"
    elif "ended" in lower or "months" in lower or "weeks" in lower:
        if not (filing is not None and filing.annual and "months" not in lower and filing.near(end)):
            return None  # "Months Ended June 25, 2022" without how many months
        length = "year"  # an annual report's "Weeks Ended August 29, 2021" (its "52" lost): the year
    else:
        length = "as of"
    return Period(length, end)


_BARE_YEAR = re.compile(r"(?:Fiscal\s+)?(\d{4})")


def bare_year_periods(columns: list[str], filing: FilingDates | None) -> list[dt.date | None] | None:
    """An annual report's columns that are years only ("2023 | 2022 | 2021", "Fiscal 2022 | Fiscal 2021"): the
    first, the filing's own year, ends on the filing's day (the year's length or a balance as of it is the
    row's to say); earlier years' days are not written anywhere in the table, so they give no period (None).
    None when the columns are not such a line (not all years, not newest first, or not from the filing's year)."""
    if filing is None or not filing.annual or len(columns) < 2:
        return None
    matches = [_BARE_YEAR.fullmatch(c.strip()) for c in columns]
    if not all(matches):
        return None
    years = [int(m.group(1)) for m in matches if m]
    if years[0] != filing.year or any(b >= a for a, b in zip(years, years[1:], strict=False)):
        return None  # a schedule of maturities (2024 | 2025 | Thereafter), or another year's table
    return [filing.end] + [None] * (len(columns) - 1)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.split(" | ")]


# A caption that names a subject rather than the table ("North America", "Client Computing"): a segment's or a
# business's table, whose rows ("Net sales | 74,430") do not repeat the name. Words that make a caption a
# title of the table instead (statements, periods, a note) keep it out.
_TABLE_TITLE = re.compile(r"(?i)\b(?:statements?|balance|sheets?|notes?|item|part|months|ended|ending|year|quarter|fiscal"
                          r"|total|number|table|contents|index|results|summary|selected|information|unaudited)\b")
# A row of a hedge or derivative table: "Hedged assets/(liabilities): Current and non-current term debt" is the
# carrying amount of the hedged item, not the balance sheet's term debt.
_HEDGE = re.compile(r"(?i)\bhedg|\bderivative|\bnotional\b")


def table_caption(metadata: Mapping[str, Any]) -> str:
    """The caption the structured reader found over a table (a part of the contextual header that is not the
    document's title, the section, the column line or the units); "" when there is none."""
    parts = [p.strip() for p in str(metadata.get("header", "")).split(" · ")]
    section = str(metadata.get("section", "")).strip()
    rest = [p for p in parts[1:] if p and p != section and not p.startswith("columns:") and not _UNIT.fullmatch(p)]
    caption = " ".join(rest)
    return re.sub(r"(?i)^(?:table of contents|index)\s+", "", caption).strip()


def subject_caption(caption: str) -> str:
    """The caption when it names a subject of its own (a segment, a business): a short name of capitalised
    words, no metric in it ("Net Sales", "Other Comprehensive Income" are metrics) and no title word; else ""."""
    words = caption.split()
    if not words or len(words) > 4 or re.search(r"\d", caption) or _METRIC_NOUN.search(caption):
        return ""
    if _TABLE_TITLE.search(caption) or caption.isupper():
        return ""
    if not all(w[:1].isupper() or w in {"and", "&", "of"} for w in words):
        return ""
    return caption


def _names(label: str, subject: str) -> bool:
    """Whether a row label names the subject ("Net Sales: North America" names "North America")."""
    stem = [w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]+", subject) if w.lower() not in {"and", "of"}]
    text = label.lower()
    return all(w in text for w in stem)


def table_columns(text: str, metadata: Mapping[str, Any]) -> tuple[list[str], str]:
    """(column headers, units) of a table chunk, or ([], "") when its header row is lost."""
    header = str(metadata.get("header", ""))
    unit = _UNIT.search(header.rsplit("·", 1)[-1]) if "·" in header else None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        cells = _cells(line)
        if len(cells) >= 2 and cells[0].startswith("(") and cells[0].endswith(")"):
            corner = _UNIT.search(cells[0]) or _BARE_UNIT.search(cells[0])
            below = _cells(lines[i + 1]) if i + 1 < len(lines) else []
            if len(below) == len(cells) and below[0].startswith("(") and below[0].endswith(")"):
                # two stacked header lines, "(columns) | Three Months Ended July 2, | …" over "(MILLIONS, EXCEPT
                # PER SHARE DATA) | 2023 | …": each column is its two cells
                cells = [f"{a} {b}".strip() for a, b in zip(cells, below, strict=True)]
                corner = corner or _UNIT.search(below[0]) or _BARE_UNIT.search(below[0])
            found = corner or unit
            if found is None:
                # no corner unit: a release writes it in each column ("… June 30, 2023 $ million")
                written = [_COLUMN_UNIT.search(c) for c in cells[1:]]
                if written and all(written):
                    return cells[1:], f"{written[0].group(1).lower()}s"
            return cells[1:], found.group(1).lower() if found else ""
    m = re.search(r"columns:\s*(.+?)(?:\s+·\s+|$)", header)
    if m:
        return _cells(m.group(1)), unit.group(1).lower() if unit else ""
    return [], ""


_RUN_IN_SEGMENT = re.compile(r"^((?:[A-Za-z]+ )*?(?:[Ii]ncome|[Rr]evenues?|[Ss]ales)) ([A-Z][a-z]+(?: (?:and|[A-Z][a-z]+))*)$")


def metric_phrase(label: str) -> str:
    """A row label as a noun phrase after "Apple's": "Net sales: Total net sales" → "total net sales",
    "Earnings per share: Diluted" → "diluted earnings per share", "Net sales: Products" → "net sales
    for products"; "" for a label that names no metric of its own ("Balance, end of period", a long
    heading chain whose parts do not read as one phrase)."""
    label = re.sub(r"\s*(?:®|™|\(\d\)|\(\w\))", "", label)  # footnote marks: "iPad ® (1)"
    label = re.sub(r"(?<=[A-Za-z)])\s+\d(?:,\d)*$", "", label)  # a release's bare footnotes: "Adjusted EPS (diluted) 1,4"
    label = re.sub(r"\s+", " ", label).strip(" :")
    if ":" not in label:
        # a heading run into its row, "Accounts payable and accrued liabilities Accounts payable": the row's name
        # repeats the heading's first words; it is "heading: row"
        words = label.split()
        for k in range(len(words) // 2, 1, -1):
            if [w.lower() for w in words[-k:]] == [w.lower() for w in words[:k]] and len(words) > 2 * k - 1:
                label = f"{' '.join(words[:-k])}: {' '.join(words[-k:])}"
                break
    parts = [p.strip() for p in label.split(":") if p.strip()]
    if parts and re.match(r"(?i)(?:less|plus|within|add|deduct|excluding|including)\b", parts[-1]):
        return ""  # "Less cash and cash equivalents" (a net-debt table's step), "Within Total Operating Expenses"
    if not parts or _NO_METRIC.match(parts[-1]) or _STOCK.search(parts[-1]) or not re.search(r"[A-Za-z]{3}", parts[-1]):
        return ""
    child = parts[-1]
    parent = parts[-2] if len(parts) > 1 else ""
    if re.search(r"(?i)\b(?:included|recorded|reported)\s+(?:in|within)$", parent):
        # "Short-term contract liabilities included in: Accrued liabilities": the part of the accrued liabilities
        # that is contract liabilities, not the accrued liabilities
        child, parent = f"{parent} {child}", ""
    if re.match(r"(?i)changes? in\b", parent) and not re.search(r"(?i)\bchange", child):
        child, parent = f"change in {child}", ""  # "Changes in operating assets and liabilities: Accounts payable"
    if parent and not re.match(r"(?i)total\b", child) and not _METRIC_NOUN.search(child):
        if child.lower() in {"basic", "diluted", "consolidated", "international", "domestic"}:  # "international net sales"
            child = f"{child} {parent}"
        elif len(parent.split()) <= 3 and len(child.split()) <= 4 and re.search(r"(?i)\b(?:assets|liabilities)$", parent):
            child = f"{child} in {parent}"  # "Other current liabilities: Other accruals" → "other accruals in …"
        elif len(parent.split()) <= 3 and len(child.split()) <= 4:
            child = f"{parent} for {child}"
        else:
            return ""
    phrase = re.sub(r", net$", "", child)
    # a segment's name run into its metric: "Operating Income Productivity and Business Processes" → "Operating
    # Income for Productivity and Business Processes"
    phrase = _RUN_IN_SEGMENT.sub(r"\1 for \2", phrase)
    if not _METRIC_NOUN.search(phrase) or re.search(r"[,$\d;/—–]", phrase) or len(phrase.split()) > 8:
        return ""  # "Windows", "Intelligent Cloud" (a segment's row of which table?), "losses, net of tax of $(75)"
    return phrase


def cased(phrase: str, common: set[str] | frozenset[str] | None = None) -> str:
    """The metric as it reads inside a sentence: a capitalised word is lower-cased when it is a common
    word (`common`: the lower-case words of the corpus; the first word always: "Net Sales for Americas" →
    "net sales for Americas"); names and acronyms ("AWS", "Intel") stay."""
    words = phrase.split()
    bare = [w.strip("()") for w in words]  # "(Loss)" is a word like "Loss"
    titles = [b[:1].isupper() and b[1:] == b[1:].lower() for b in bare]
    # two capitalised words or more together, away from the first word, are one name ("revenue for United
    # States", not "United states", though "united" and "states" are common words)
    joined = [t or (0 < i < len(words) - 1 and words[i] in {"and", "&", "of"} and titles[i - 1] and titles[i + 1])
              for i, t in enumerate(titles)]  # "Productivity and Business Processes" is one name
    named: set[int] = set()
    start = 0
    for i in range(len(words) + 1):
        if i == len(words) or not joined[i]:
            if start > 0 and i - start >= 2:
                named.update(range(start, i))
            start = i + 1
    out = []
    for i, (w, title) in enumerate(zip(words, titles, strict=True)):
        in_name = i in named
        if title and (i == 0 or (common is not None and w.strip("()").lower() in common and not in_name)):
            w = w.lower()
        out.append(w)
    return " ".join(out)


def verb_for(metric: str) -> str:
    """"was" or "were" for a metric's head noun: the last word before "of", "for", "(", … ("net cash
    provided by operating activities" → was, "total operating expenses" → were)."""
    head = re.split(r"\s+(?:of|for|from|on|in|to|by|before|under|attributable|provided|used|paid|declared|acquired|net of)\b|\s*\(",
                    metric, maxsplit=1)[0]
    last = head.split()[-1].lower() if head.split() else ""
    return "were" if last.endswith("s") and not last.endswith(("ss", "ics", "us")) else "was"


def ask(key: TableKey, company: str, common: set[str] | frozenset[str] | None = None) -> str:
    """The single question: "What were Apple's total net sales, in millions of dollars, for the quarter …?"."""
    metric = cased(key.metric, common)
    when = f"as of {key.period.phrase()}" if key.period.length == "as of" else f"for {key.period.phrase()}"
    units = f", {key.unit}," if key.unit else ""
    return f"What {verb_for(key.metric)} {possessive(company)} {metric}{units} {when}?"


_FLOW = re.compile(r"(?i)\b(?:net cash|provided|used|income|expense|expenses|revenue|revenues|sales|cost|costs|margin"
                   r"|earnings|purchases|proceeds|payments|repurchases|depreciation|amortization|compensation)\b")
_STOCK_NOUN = re.compile(r"(?i)\b(?:assets|liabilities|inventories|goodwill|receivable|payable|debt|equity|investments"
                         r"|securities|deposits|borrowings|cash and cash equivalents)\b")


def _balance(metric: str, section: str) -> bool:
    """Whether a column that is only a date ("as of") fits the row: a balance (assets, debt) in a table
    that is not a statement of flows. A cash-flow table whose "Nine Months Ended" line was lost shows
    bare dates too; its rows are flows, and a flow as of a day is a misreading."""
    if _FLOW.search(metric):
        return False
    return bool(_STOCK_NOUN.search(metric)) or bool(re.search(r"(?i)balance sheet|financial (?:position|condition)", section))


def _unit_words(metric: str, unit: str, label: str = "") -> str:
    """"in millions of dollars" for money; "" for per-share amounts, ratios and counts of shares (a
    "Denominator:" row of dilutive securities is shares, whatever the table's "in millions" says)."""
    # a release's "EPS (diluted US cents)" is cents a share, whatever its table's "$ million" says
    if not unit or re.search(r"(?i)per share|percent|%|ratio|\bmix\b|\bshares\b|\bemployees\b|\bdays\b|denominator|dilutive"
                             r"|\bEPS\b|\bcents\b|\bcps\b",
                             f"{metric} {label}"):
        return ""
    return f"in {unit} of dollars"


_GENERIC = frozenset("total other current noncurrent non long short term assets asset liabilities liability net and the of in "
                     "for included from by to with at as".split())


def _stems(text: str) -> set[str]:
    return {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]{3,}", text) if w.lower() not in _GENERIC}


def _component(metric: str, section: str) -> bool:
    """Whether an annual report's balance row is a part of the balance sheet's line rather than the line: a note's
    table ("Insurance: Accrued liabilities | 65", the self-insurance liabilities inside accrued liabilities;
    "Purchase price allocation: Goodwill", an acquired business's) that is not the balance sheet, whose section
    names nothing of the row, and whose row is no total. "Total deferred tax assets" in "Income Taxes" and "Other
    long-term debt" in "Debt" stay."""
    if re.search(r"(?i)balance sheets?|financial (?:position|condition)|selected financial", section):
        return False
    if re.match(r"(?i)total\b", metric):
        return False
    return not (_stems(metric) & _stems(section))


def table_facts(chunk: Any, company: str, skipped: Counter) -> list[Fact]:
    """Every (company, metric, period, value) fact of a table chunk's rows (see the module docstring)."""
    name = short_company(company)
    if not name:
        skipped["table_without_company"] += 1
        return []
    columns, unit = table_columns(chunk.text, chunk.metadata)
    lines = [line for line in chunk.text.split("\n") if " | " in line]
    lines = [line for line in lines if not _cells(line)[0].startswith("(")]  # the column line itself
    if not columns or not any(columns):
        skipped["table_row_without_header"] += len(lines)
        return []
    filing = filing_dates(chunk.metadata)
    periods = [parse_period(c, filing) for c in columns]
    # a yearless column written twice ("Three Months Ended June 30, | Three Months Ended June 30,": this year's
    # and last year's, both June 30): the filing's day cannot tell them apart, so neither is read
    yearless = Counter(c for c in columns if not re.search(r"\d{4}", c))
    periods = [None if yearless.get(c, 0) > 1 else p for c, p in zip(columns, periods, strict=True)]
    form = str(chunk.metadata.get("form") or "").upper()
    if form != "10-Q":
        # a release's or an annual report's "Twelve Months Ended June 30, 2023" is the year ended that day, the
        # 10-K's period (a 10-Q's trailing twelve months are not a year of the company's)
        periods = [Period("year", p.end) if p is not None and p.length == "twelve months" else p for p in periods]
    # an earnings release (no 10-K or 10-Q) captions a segment's table by its section only ("Segment Information
    # > June 2023 quarter" over "Net sales | 11,151"): its bare rows are the segment's, not the company's
    # (a periodic report's sections say "Part I", "Item 8", "Note 3": those keep the 10-Q's own readers)
    where = str(chunk.metadata.get("section", ""))
    segment_release = (form not in ("10-K", "10-Q") and bool(re.search(r"(?i)\bsegment", where))
                       and not re.search(r"(?i)\b(?:part [IV]+|item \d|note \d)", where))
    bare = bare_year_periods(columns, filing)  # "2023 | 2022 | 2021" in a 10-K: the first is the filing's year
    # "Required summarized financial information of Rivian … is as follows:" over the column line: the rows
    # are another company's. They are kept, marked (FOREIGN), so the same row in the table's next chunk,
    # which no longer shows that line, is known to be Rivian's too (datagen.period_tasks drops both).
    foreign = bool(_FOREIGN_INTRO.search(_intro(chunk.text)))
    if foreign:
        skipped["table_of_another_subject"] += 1
    section = f"{chunk.metadata.get('section', '')} {chunk.metadata.get('header', '')}"
    if not any(periods) and not bare:
        skipped["table_columns_not_periods"] += len(lines)
        return []
    subject = subject_caption(table_caption(chunk.metadata))
    hedge = bool(_HEDGE.search(f"{table_caption(chunk.metadata)} {_intro(chunk.text)}"))
    out = []
    for line in lines:
        cells = _cells(line)
        label, values = cells[0], [c for c in cells[1:] if c not in _SYMBOLS]
        if not re.search(r"[A-Za-z]{3}", label) or not values:
            continue
        if len(values) != len(columns):
            skipped["table_row_misaligned"] += 1
            continue
        if (subject and not _names(label, subject)) or (segment_release and ":" not in label):
            # "Net sales | 74,430" under the caption "North America": the row is the segment's, and its label
            # lost the heading that says so; asked as Amazon's net sales it would be wrong
            skipped["table_row_heading_lost"] += 1
            continue
        if hedge or _HEDGE.search(label.rsplit(":", 1)[0] if ":" in label else ""):
            skipped["table_row_hedge_item"] += 1  # a hedged item's carrying amount, not the balance itself
            continue
        if _GLUED_HEADING.match(label):
            # "Liabilities Other current liabilities | 6,053" in a table of contract balances: the part of other
            # current liabilities that the table is about, under a heading the PDF reader glued on; not the
            # balance sheet's line, whatever its name says
            skipped["table_row_heading_glued"] += 1
            continue
        metric = metric_phrase(label)
        if not metric:
            skipped["table_row_without_metric"] += 1
            continue
        if _LIGATURE_LOST.search(metric):
            # eBay's "Free cash ow", "Net cash used in nancing activities": the PDF's "fl"/"fi" glyphs lost
            skipped["table_row_ligature_lost"] += 1
            continue
        row_periods: list[Period | None] = periods
        if bare:  # the filing's own year: the year ended its day, or a balance as of it, as the row's metric says
            # a cash-flow statement's "Adjustments to reconcile …: Credit losses and accounts receivable allowances"
            # names a receivable but is a flow of the year
            flows = bool(re.search(r"(?i)cash flows?|reconcil|statements? of (?:income|earnings|operations)|\bchanges? in\b",
                                   f"{label} {section}"))
            # a balance by its own name only ("Total long-term debt"), never by the section: a balance sheet's
            # "Cash dividends declared and paid" or "dividends per share" is the year's
            balance = _balance(metric, "") and not re.search(r"(?i)dividend|per share", metric)
            length = "as of" if balance and not flows else "year"
            row_periods = [Period(length, end) if end else None for end in bare]
        for period, value in zip(row_periods, values, strict=True):
            if period is not None and period.length != "as of" and _balance(metric, "") and not metric.startswith("change"):
                skipped["table_balance_over_a_period"] += 1  # "Accounts payable | … | Three Months Ended": a change of it
                continue
            if period is not None and period.length == "as of" and not _balance(metric, section):
                skipped["table_flow_without_length"] += 1  # "Net cash used … | Oct 29, 2023": nine months? a quarter?
                continue
            value = value.strip("$ ").strip()
            if period is None or not _VALUE.match(value) or not value.strip("()%-") or not re.search(r"[1-9]", value):
                continue
            if value.endswith("%") and not re.search(r"(?i)\b(?:rate|percentage|percent)\b", metric):
                skipped["table_share_not_metric"] += 1  # "Revenue | 100.0%": a share of revenue, not the revenue
                continue
            units = "" if value.endswith("%") or re.search(r"(?i)\brate\b", metric) else _unit_words(metric, unit, label)
            if units and re.fullmatch(r"\(?-?\d{1,2}\.\d{2}\)?", value):
                # "Income tax effects | 0.39" in a table "in millions, except per share amounts": a per-share
                # figure whose label does not say so; "$0.39 million" would be wrong
                skipped["table_value_per_share_unit"] += 1
                continue
            if not units and not value.endswith("%") and not re.search(r"(?i)per share", metric):
                skipped["table_value_without_unit"] += 1  # "1.3" in a table of shares of revenue: 1.3 what?
                continue
            if period.length == "as of" and filing is not None and filing.annual and _component(metric, section):
                skipped["table_balance_in_a_note"] += 1
                continue
            key = TableKey(metric, period, units)
            out.append(
                Fact(
                    doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=line, subject=name, about_doc=False,
                    relation=(FOREIGN if foreign else "") + key.relation(), answer=value, kind=TruthType.NUMBER.value, ask=ask(key, "{s}"),
                    aliases=(f"-{value.strip('()')}",) if value.startswith("(") else (),
                )
            )
    return out


def table_key(fact: Fact) -> TableKey | None:
    """The metric, period and unit of a fact `table_facts` wrote; None for any other fact."""
    if not fact.relation.startswith("table:"):
        return None
    body = fact.relation[len("table:"):].rsplit("|", 2)[0]
    parts = body.split(":")
    if len(parts) < 3:
        return None
    unit, period_key = parts[-1], parts[-2]
    metric = ":".join(parts[:-2])
    length, _, iso = period_key.partition("@")
    try:
        end = dt.date.fromisoformat(iso)
    except ValueError:
        return None
    return TableKey(metric, Period(length, end), unit)
