"""An 8-K's event placed in the company's fiscal calendar (issue 36: "In the quarter when X happened, what was Y?").

A current report tells what happened and on which day: "On March 14, 2023, the Board of Directors … of eBay Inc.
… appointed Shripriya Mahesh as a member of the Board", "PepsiCo … held its 2023 Annual Meeting of Shareholders
on May 3, 2023", "On July 21, 2021 … the Company completed the acquisition of Slack Technologies". It states no
figure of the quarter; the company's 10-Q, 10-K or earnings release for the period that holds that day does. So
"In the quarter in which eBay appointed Shripriya Mahesh to its Board of Directors, what was its revenue?" takes
two documents: the 8-K gives the day, the company's calendar the quarter, the quarter's report the figure.

`read_dated_events` reads such acts (the day written in the sentence, else the 8-K's "Date of Report" — its
metadata `period_end` — when the sentence gives none; neither: counted `event_without_day`).

`fiscal_calendar` reads, per company, the periods the folder holds a report of (document metadata `period_end`,
`fiscal_quarter`, `fiscal_year`; 8-Ks hold no period) and when each began, since a day falls in a quarter only
between the end of the one before and its own end:
- the previous period's end when the folder holds it (eBay's first quarter ended March 31, 2023, its second
  began April 1);
- else what the report says of its own length: "12 weeks ended March 25, 2023" began 84 days earlier (a
  52/53-week calendar: PepsiCo), "three months ended March 31, 2023" on January 1, "52 weeks ended" / "fiscal
  year ended June 30, 2023" a year earlier;
- else the start is unknown and no day is placed in it (counted `event_calendar_unknown`): a quarter of 12
  weeks and one of three months would place a day near its start differently.

`period_of` answers which held period holds a day; none (`event_period_not_held`: McDonald's notes issued in
August 2023, a quarter the folder has no report of) gives no question.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from datagen.dates import MONTHS
from datagen.event_facts import APPOINTED, DAY
from datagen.mining import MinedCorpus, fold
from datagen.release_facts import filing_company
from datagen.table_facts import short_company

_PERSON = r"[A-Z][a-z]+(?: \(“[A-Z][a-z]+”\))?(?: [A-Z]\.)*(?: [A-Z][a-z'’-]+){1,2}(?:,? Jr\.|,? Sr\.| III| II)?"
_COMPANY_TAG = r"\((?:the )?[“\"](?:Company|[A-Z][A-Za-z]+)[”\"]\)"
# "On March 14, 2023, the Board of Directors (the “Board”) of eBay Inc. (the “Company”) increased its size … and
# appointed Shripriya Mahesh as a member of the Board"
_BOARD = re.compile(
    rf"(?:On (?P<day>{DAY}), )?[Tt]he Board of Directors (?:\(the “Board”\) )?of (?P<who>[^;“(]{{2,60}}?) {_COMPANY_TAG}"
    rf"[^.;]{{0,120}}?\bappointed (?P<name>{_PERSON}),? (?:as )?(?:a )?(?:member|director) of the Board"
)
# "PepsiCo, Inc. (“PepsiCo”) held its 2023 Annual Meeting of Shareholders on May 3, 2023"; "At the annual meeting of
# stockholders held on May 18, 2022"
_MEETING = re.compile(
    rf"(?i)(?:held its (?P<year>\d{{4}} )?annual meeting of (?:share|stock)holders(?: \(the “[^”]+”\))? on (?P<day>{DAY})"
    rf"|(?P<year2>\d{{4}} )?annual meeting of (?:share|stock)holders (?:was )?held on (?P<day2>{DAY}))"
)
# "On July 21, 2021 (the “Closing Date”) the Company completed the acquisition of Slack Technologies, Inc.";
# "On January 4, 2023, Salesforce, Inc. (the “Company”) announced a restructuring plan"; "On May 26, 2023, PepsiCo
# entered into a new $4,200,000,000 364 day unsecured revolving credit agreement"
_ACT = re.compile(
    rf"(?:On|Effective) (?P<day>{DAY}),? (?:\(the “[^”]+”\),? )?(?P<who>the Company|[A-Z][^;“(]{{1,60}}?)"
    rf"(?: {_COMPANY_TAG})?,? (?P<act>(?:completed the acquisition of|announced a|entered into a new|issued \$[\d.,]+ "
    rf"(?:million|billion) of its|issued an? (?:press release|employee communication) (?:regarding|introducing|announcing)) [^.;(]{{3,110}}?)(?=,(?!\d)| \(|\.|;| pursuant| under| with| among| to reduce| intended)"
)
_PAUSE = re.compile(r"(?i)\b(?:may|might|could|would|intends?|expects?|plans? to)\b")


@dataclass(frozen=True)
class DatedEvent:
    """An act of a company on a day, read from one passage of an 8-K: `act` completes "In the quarter in which
    {company} …" ("appointed Shripriya Mahesh to its Board of Directors")."""

    doc_id: str
    company: str
    day: dt.date
    act: str
    chunk_id: str
    quote: str
    kind: str
    announced: dt.date | None = None  # an appointment's announcement, when its day is the effective one

    def days(self) -> tuple[dt.date, ...]:
        return (self.day,) if self.announced is None else (self.day, self.announced)

    def key(self) -> str:
        return f"{fold(self.company)}|{fold(self.act)}"


@dataclass(frozen=True)
class FiscalPeriod:
    """A quarter or fiscal year the folder holds a report of: `start`..`end` inclusive, the reports' documents."""

    company: str
    length: str  # "quarter" | "year"
    fiscal_year: int
    fiscal_quarter: int
    start: dt.date
    end: dt.date
    doc_ids: tuple[str, ...]

    def holds(self, day: dt.date) -> bool:
        return self.start <= day <= self.end


def parse_day(text: str) -> dt.date | None:
    m = re.fullmatch(r"([A-Z][a-z]+) (\d{1,2}), (\d{4})", text.strip())
    if not m or m.group(1) not in MONTHS:
        return None
    try:
        return dt.date(int(m.group(3)), MONTHS.index(m.group(1)) + 1, int(m.group(2)))
    except ValueError:
        return None


def company_name(meta: Any, texts: list[str], title: str) -> str:
    """The company a filing is of, short ("PepsiCo"), read as datagen.table_facts reads it; a cover in capitals
    ("McDONALD’S CORPORATION", "LOCKHEED MARTIN CORPORATION") read as the name it writes."""
    name = filing_company(meta, texts, title)
    return short_company(name) or short_company(display_company(re.sub(
        r"\b[A-Z][A-Z’'&.-]{2,}\b", lambda m: m.group(0) if m.group(0).startswith("MC") else m.group(0).capitalize(), name)))


def company_key(name: str) -> str:
    """One key for a company however a document writes it ("McDONALD’S CORPORATION", "McDonald's")."""
    return re.sub(r"[^a-z0-9]", "", fold(short_company(name) or name).replace("’", "'"))


def display_company(name: str) -> str:
    """"McDONALD’S" (a cover's capitals) → "McDonald's"; "Mgm Resorts" → "MGM Resorts"; other names as written."""
    name = re.sub(r"\bM[Cc]([A-Z])([A-Z’']+)\b", lambda m: "Mc" + m.group(1) + m.group(2).lower(), name)
    name = re.sub(r"^Mgm\b", "MGM", name)
    return name.replace("’", "'")


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _sentence(flat: str, start: int, end: int) -> str:
    """The sentence of `flat` around [start, end) (the quote a verifier finds in the passage); "Inc. (" and "N.A."
    end no sentence."""
    stops = [m.start() for m in re.finditer(r"(?<!\bInc)(?<!\bCorp)(?<!\bCo)(?<!\bNo)(?<!\b[A-Z])\. (?=[A-Z(])", flat[:start])]
    left = stops[-1] if stops else -1
    right = flat.find(". ", end)
    return flat[left + 2 if left >= 0 else 0: right + 1 if right > 0 else len(flat)].strip()


def _amount(m: re.Match) -> str:
    """"$4,200,000,000" → "$4.2 billion": an amount as a person says it."""
    n = int(m.group(0)[1:].replace(",", ""))
    scale, word = (1e9, "billion") if n >= 1e9 else (1e6, "million")
    return f"${n / scale:g} {word}"


def _its(act: str) -> str:
    act = re.sub(r"\$\d{1,3}(?:,\d{3}){2,3}(?![\d,])", _amount, act)
    act = re.sub(r"\bthe Company[’']s\b", "its", act)
    return re.sub(r"\bthe Company\b", "it", act).replace("’", "'").strip(" ,")


def read_dated_events(mined: MinedCorpus, stages: Counter) -> list[DatedEvent]:
    """Every dated act of the folder's 8-Ks (see the module docstring); one per (company, act)."""
    out: list[DatedEvent] = []
    for doc_id, chunks in mined.chunks.items():
        if not chunks:
            continue
        meta = chunks[0].metadata or {}
        if str(meta.get("form") or "").upper() != "8-K":
            continue
        company = company_name(meta, [c.text for c in chunks[:4]], mined.titles.get(doc_id, ""))
        reported = None
        try:
            reported = dt.date.fromisoformat(str(meta.get("period_end") or ""))
        except ValueError:
            pass
        found = []
        for c in chunks:
            flat = _flat(c.text)
            for m in _BOARD.finditer(flat):
                name = re.sub(r" \(“[A-Z][a-z]+”\)", "", m.group("name"))
                found.append((c, flat, m, m.group("day"), f"appointed {name} to its Board of Directors", "board"))
            for m in _MEETING.finditer(flat):
                year = (m.group("year") or m.group("year2") or "").strip()
                act = f"held its {year + ' ' if year else ''}annual meeting of shareholders"
                found.append((c, flat, m, m.group("day") or m.group("day2"), act, "meeting"))
            for m in APPOINTED.finditer(flat):
                # "Mary N. Dillon … has been appointed President and Chief Executive Officer … effective September
                # 1, 2022": the day it took effect and the 8-K's (announced) must fall in one period
                found.append((c, flat, m, m.group("day"), f"appointed {m.group('name')} as its {m.group('role')}",
                              "officer"))
            for m in _ACT.finditer(flat):
                who = m.group("who")
                if who != "the Company" and company_key(who) != company_key(company):
                    continue  # another party's act (a lender's, a subsidiary's)
                act = _its(m.group("act"))
                if _PAUSE.search(act) or len(act.split()) < 3 or re.search(r"\b(?:Mr|Ms|Mrs|Dr|No)$", act):
                    continue
                found.append((c, flat, m, m.group("day"), act, "act"))
        for c, flat, m, day_text, act, kind in found:
            if not company:
                stages["event_without_company"] += 1
                continue
            day = parse_day(day_text) if day_text else reported
            if day is None:
                stages["event_without_day"] += 1  # no day in the sentence, none on the 8-K's cover
                continue
            announced = reported if kind == "officer" and reported != day else None
            out.append(DatedEvent(doc_id, company, day, act, c.chunk_id, _sentence(flat, m.start(), m.end()), kind,
                                  announced))
    # one act told twice (an item and its exhibit, overlapping chunks): the first; one act on two days: none
    days: dict[str, set[dt.date]] = defaultdict(set)
    for e in out:
        days[e.key()].add(e.day)
    unique: dict[str, DatedEvent] = {}
    for e in out:
        if len(days[e.key()]) > 1:
            stages["event_act_on_two_days"] += 1
            continue
        unique.setdefault(e.key(), e)
    stages["event:dated"] += len(unique)
    return list(unique.values())


# how a report writes its own period's length: "12 weeks ended", "three months ended", "fiscal year ended"
_WEEKS = {"twelve": 12, "thirteen": 13, "fourteen": 14, "sixteen": 16, "seventeen": 17, "fifty-two": 52,
          "fifty-three": 53}
_MONTHS_WORDS = {"three": 3, "twelve": 12}


def _day_forms(day: dt.date) -> tuple[str, ...]:
    month = MONTHS[day.month - 1]
    return (f"{month} {day.day}, {day.year}", f"{month[:3]} {day.day}, {day.year}", f"{month[:3]}. {day.day}, {day.year}")


def _month_back(day: dt.date, months: int) -> dt.date:
    """The last day of the month `months` before `day`'s (a calendar-month period's day before it began)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    return dt.date(year, month + 1, calendar.monthrange(year, month + 1)[1])


def _stated_start(text: str, end: dt.date, length: str) -> dt.date | None:
    """The first day of the period ending `end`, from how the report writes its length; None when it does not."""
    forms = "|".join(re.escape(f) for f in _day_forms(end))
    # "PepsiCo's fourth quarter 2022 includes 17 weeks of results and its 2022 fiscal year includes 53 weeks"
    said = re.search(r"(?i)\b(?:first|second|third|fourth) quarter(?: of)? \d{4} includes (\d{1,2}) weeks" if length == "quarter"
                     else r"(?i)\bfiscal year includes (5[23]) weeks", text)
    if said:
        return end - dt.timedelta(days=7 * int(said.group(1)) - 1)
    # a 52/53-week calendar whose period happens to end on a month's last day (December 31) is no calendar quarter
    month_end = end.day == calendar.monthrange(end.year, end.month)[1] and not re.search(r"(?i)\bweeks (?:ended|of results)\b", text)
    for m in re.finditer(rf"(?i)\b(\d{{1,2}}|[a-z]+(?:-[a-z]+)?)[- ](weeks?|months?) ended,? (?:{forms})", text):
        n = int(m.group(1)) if m.group(1).isdigit() else _WEEKS.get(m.group(1).lower()) or _MONTHS_WORDS.get(m.group(1).lower())
        if not n:
            continue
        if m.group(2).lower().startswith("week") and (n < 20) == (length == "quarter"):
            return end - dt.timedelta(days=7 * n - 1)
        if m.group(2).lower().startswith("month") and month_end and n == (3 if length == "quarter" else 12):
            return _month_back(end, n) + dt.timedelta(days=1)
    if month_end and re.search(rf"(?i)\b(?:quarter|{'fiscal ' if length == 'year' else ''}year) ended,? (?:{forms})", text):
        return _month_back(end, 3 if length == "quarter" else 12) + dt.timedelta(days=1)
    return None


def fiscal_calendar(mined: MinedCorpus, stages: Counter) -> dict[str, list[FiscalPeriod]]:
    """company_key → the quarters and fiscal years the folder holds a report of (see the module docstring)."""
    reports: dict[tuple[str, str, dt.date], dict[str, Any]] = {}
    for doc_id, chunks in mined.chunks.items():
        if not chunks:
            continue
        meta = chunks[0].metadata or {}
        form = str(meta.get("form") or "").upper()
        year, quarter = meta.get("fiscal_year"), meta.get("fiscal_quarter")
        try:
            end = dt.date.fromisoformat(str(meta.get("period_end") or ""))
        except ValueError:
            continue
        if form == "8-K" or not isinstance(year, int) or quarter not in (1, 2, 3, 4):
            continue
        company = company_name(meta, [c.text for c in chunks[:4]], mined.titles.get(doc_id, ""))
        if not company:
            continue
        text = _flat("\n".join(c.text for c in chunks[:40]))
        lengths = ["year"] if form == "10-K" else ["quarter", "year"] if quarter == 4 and form != "10-Q" else ["quarter"]
        for length in lengths:
            slot = reports.setdefault((company_key(company), length, end), {
                "company": company, "year": year, "quarter": quarter, "docs": [], "start": None})
            slot["docs"].append(doc_id)
            slot["start"] = slot["start"] or _stated_start(text, end, length)
    out: dict[str, list[FiscalPeriod]] = defaultdict(list)
    for (key, length, end), slot in sorted(reports.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        # the period before, when the folder holds it, says exactly where this one began
        before = [e for (k, n, e) in reports if k == key and n == length and e < end
                  and (end - e).days <= (130 if length == "quarter" else 380)]
        start = max(before) + dt.timedelta(days=1) if before else slot["start"]
        if start is None:
            stages["event_calendar_unknown"] += 1
            continue
        out[key].append(FiscalPeriod(slot["company"], length, slot["year"], slot["quarter"], start, end,
                                     tuple(slot["docs"])))
    return dict(out)


def period_of(day: dt.date, periods: list[FiscalPeriod], length: str) -> FiscalPeriod | None:
    """The held period of `length` that holds `day` (None when the folder holds none, or two disagree)."""
    held = [p for p in periods if p.length == length and p.holds(day)]
    return held[0] if len({(p.start, p.end) for p in held}) == 1 else None


@dataclass(frozen=True)
class EventChain:
    """An 8-K's event, the held period that holds its day, and the company's statements for that period (each a
    `datagen.period_tasks.Statement`) read from the period's own report, none stated in the event's 8-K."""

    event: DatedEvent
    period: FiscalPeriod
    statements: tuple[Any, ...]


def _states(s: Any, p: FiscalPeriod) -> bool:
    """Whether statement `s` is the company's figure for period `p`: a column dated the period's last day ("Three
    Months Ended March 31, 2023"), or a release's "Q2 2023" / "Full Year 2022" of the period's fiscal year."""
    period = s.key.period
    if period.length == p.length:
        return period.end == p.end
    if period.length == f"fiscal {p.length}":
        return period.end.year == p.fiscal_year and (p.length == "year" or period.end.month // 3 == p.fiscal_quarter)
    return False


def event_chains(mined: MinedCorpus, statements: list[Any], stages: Counter) -> list[EventChain]:
    """Every 8-K event whose day the folder's calendar places in a held quarter or fiscal year with figures of it
    (what stops the rest is counted: `event_period_not_held`, `event_days_in_two_periods`,
    `event_period_without_figure`)."""
    calendar_of = fiscal_calendar(mined, stages)
    event_text = {}
    out = []
    for e in read_dated_events(mined, stages):
        periods = calendar_of.get(company_key(e.company), [])
        placed = False
        for length in ("quarter", "year"):
            p = period_of(e.day, periods, length)
            if p is None:
                continue
            if not all(p.holds(d) for d in e.days()):
                stages["event_days_in_two_periods"] += 1  # announced in one quarter, effective in the next
                continue
            placed = True
            if e.doc_id not in event_text:
                event_text[e.doc_id] = fold(" ".join(c.text for c in mined.chunks.get(e.doc_id, [])))
            own = tuple(
                s for s in statements
                if company_key(s.company) == company_key(e.company) and _states(s, p)
                and any(f.doc_id in p.doc_ids for f in s.facts)
                and not any(f.doc_id == e.doc_id for f in s.facts)
                and fold(s.value) not in event_text[e.doc_id]  # the 8-K would give the answer away
            )
            if not own:
                stages["event_period_without_figure"] += 1
                continue
            out.append(EventChain(e, p, own))
        if not placed:
            stages["event_period_not_held"] += 1
    stages["event:chains"] += len(out)
    return out
