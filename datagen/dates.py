"""Dates a conversation or a mail states relative to when it was written: "I went to a support group
yesterday" in a LoCoMo session headed "(1:56 pm on 8 May, 2023)" happened on 7 May 2023.

`anchor_date` finds when a document was written: the date in its heading (LoCoMo's session
date-time, which the loader puts in the title), its mail Date header, or a date-stamped file name
("mail/2025-06-30-wren-farewell.txt"). `relative_dates` lists a sentence's relative time expressions
with the answer each gives, in LoCoMo's own answer forms: "7 May 2023" (yesterday, last night, two
days ago), "8 May 2023" (today, this morning, tonight), "the week before 8 May 2023" (last week),
"the weekend before …" (last or this past weekend), "the Friday before …" (last Friday: which
Friday is not said), "April 2023" (last month, a month ago), "2022" (last year), "two weeks before
8 May 2023" (two weeks ago), "2013" (ten years ago); and for plans, "9 May 2023" (tomorrow), "the
week after …" (next week or weekend), "June 2023" (next month), "May 2023" (this month), "2024"
(next year). Vague ones ("recently", "a while ago", "the other day", "a few weeks ago") and
approximate ones ("about five years ago") give nothing.

Both are pure functions of the texts, so the verifier recomputes them (`verify.check_candidate`)
rather than trusting the generator: a resolved date is an exact answer only as long as the rule
that made it is the one that checks it.
"""

from __future__ import annotations

import datetime as dt
import re

MONTHS = "January February March April May June July August September October November December".split()
_MONTH = "(" + "|".join(MONTHS) + "|" + "|".join(m[:3] for m in MONTHS) + r")\.?"
WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
# "1:56 pm on 8 May, 2023", "30 Jun 2025", "May 8, 2023"
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})\s+{_MONTH},?\s+(\d{{4}})\b", re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}}),?\s+(\d{{4}})\b", re.IGNORECASE)
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_DATE_HEADER = re.compile(r"^(?:Date|Sent)\s*:\s*(.+)$", re.IGNORECASE | re.MULTILINE)
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10,
}


def format_date(day: dt.date) -> str:
    """LoCoMo's form: "7 May 2023"."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def parse_date(text: str) -> dt.date | None:
    """The first full date (day, month, year) written in `text`, or None."""
    found = []
    for pattern, order in ((_DAY_MONTH_YEAR, (1, 2, 3)), (_MONTH_DAY_YEAR, (2, 1, 3)), (_ISO, None)):
        for m in pattern.finditer(text):
            try:
                if order is None:
                    day = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
                else:
                    month = _month_number(m.group(order[1]))
                    day = dt.date(int(m.group(order[2])), month, int(m.group(order[0])))
            except ValueError:
                continue
            found.append((m.start(), day))
    return min(found)[1] if found else None


def _month_number(name: str) -> int:
    key = name.strip(".").lower()[:3]
    return next(i for i, m in enumerate(MONTHS, 1) if m.lower().startswith(key))


def anchor_date(title: str, text: str, doc_id: str = "") -> dt.date | None:
    """When a document was written: its heading's date (in parentheses, LoCoMo's session time), a
    mail's Date header, or a date in its file name; None when none is stated."""
    heading = re.search(r"\(([^()]*\d{4}[^()]*)\)\s*$", title or "")
    if heading and (day := parse_date(heading.group(1))):
        return day
    header = _DATE_HEADER.search(text[:2000]) if re.match(r"\s*(From|To|Date|Subject|Sent)\s*:", text) else None
    if header and (day := parse_date(header.group(1))):
        return day
    name = doc_id.rsplit("/", 1)[-1]
    m = _ISO.search(name)
    if m:
        try:
            return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    return None


_COUNT = r"a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,2}"
_RELATIVE = re.compile(
    r"\b(?:(?P<yesterday>yesterday|last night)"
    r"|(?P<today>today|this morning|this afternoon|this evening|tonight|earlier today)"
    r"|(?:last|this past) (?P<unit>week|weekend|month|year)"
    r"|(?:last|this past) (?P<weekday>" + "|".join(WEEKDAYS) + r"|(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\.?(?!\w))"
    r"|(?P<n>two|three|four|five|six|\d) days ago"
    r"|(?P<ago_n>" + _COUNT + r") (?P<ago_unit>week|weekend|month|year)s? ago"
    r"|(?P<tomorrow>tomorrow)|next (?P<next>week|weekend|month|year)|(?P<this_month>this month))\b",
    re.IGNORECASE,
)


# "about five years ago" (no year one could check), "feels like just yesterday" (no day at all)
_APPROXIMATE = re.compile(
    r"\b(?:about|around|almost|nearly|over|roughly|like|maybe|some|just under|just over)\s+(?:just\s+)?$", re.IGNORECASE
)


def is_future(expression: str) -> bool:
    """Whether a relative time expression points after the anchor ("tomorrow", "next month")."""
    return expression.lower().startswith(("tomorrow", "next "))


def relative_dates(sentence: str, anchor: dt.date) -> list[tuple[str, str]]:
    """(expression as written, the date it gives) for each relative time expression of a sentence."""
    out = []
    for m in _RELATIVE.finditer(sentence):
        if _APPROXIMATE.search(sentence[: m.start()]):
            continue  # "about five years ago" gives no year one could check
        answer = _resolve(m, anchor)
        if answer:
            out.append((m.group(0), answer))
    return out


def _resolve(m: re.Match, anchor: dt.date) -> str:
    if m.group("yesterday"):
        return format_date(anchor - dt.timedelta(days=1))
    if m.group("today"):
        return format_date(anchor)
    unit = (m.group("unit") or "").lower()
    if unit in ("week", "weekend"):
        return f"the {unit} before {format_date(anchor)}"
    if unit == "month":
        first = anchor.replace(day=1) - dt.timedelta(days=1)
        return f"{MONTHS[first.month - 1]} {first.year}"
    if unit == "year":
        return str(anchor.year - 1)
    if m.group("weekday"):
        day = next(d for d in WEEKDAYS if d.lower().startswith(m.group("weekday").lower().rstrip(".")[:3]))
        return f"the {day} before {format_date(anchor)}"
    if m.group("ago_n"):
        return _ago(_count(m.group("ago_n")), m.group("ago_unit").lower(), anchor)
    if m.group("tomorrow"):
        return format_date(anchor + dt.timedelta(days=1))
    if m.group("next"):
        unit = m.group("next").lower()
        if unit in ("week", "weekend"):
            return f"the {unit} after {format_date(anchor)}"
        if unit == "month":
            nxt = (anchor.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
            return f"{MONTHS[nxt.month - 1]} {nxt.year}"
        return str(anchor.year + 1)
    if m.group("this_month"):
        return f"{MONTHS[anchor.month - 1]} {anchor.year}"
    if m.group("n"):
        return format_date(anchor - dt.timedelta(days=_count(m.group("n"))))
    return ""


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


def _ago(n: int, unit: str, anchor: dt.date) -> str:
    """"two weeks ago" → "two weeks before 8 May 2023" (which week is not said, only how far back);
    "a month ago" → "April 2023"; "ten years ago" → "2013". A week or weekend is named, not dated."""
    if unit in ("week", "weekend"):
        if n == 1:
            return f"the {unit} before {format_date(anchor)}"
        spelled = next((w for w, k in _NUMBERS.items() if k == n and w not in ("a", "an", "one")), str(n))
        return f"{spelled} {unit}s before {format_date(anchor)}"
    if unit == "month":
        months = anchor.year * 12 + anchor.month - 1 - n
        return f"{MONTHS[months % 12]} {months // 12}"
    return str(anchor.year - n)


_BEFORE = re.compile(r"^(?:the (?P<unit>week|weekend|\w+day)|(?P<n>\w+) (?P<units>weeks|weekends)) (?P<dir>before|after) (?P<date>.+)$")


def date_span(answer: str) -> tuple[dt.date, dt.date] | None:
    """The days a resolved answer (`relative_dates`) may mean, widely: "7 May 2023" is that day, "the
    week before 8 May 2023" any of the 14 days before it, "April 2023" the month, "2022" the year.
    None for a form it does not know. Two acts are told apart in time only when their spans do not
    overlap (`activity_facts.unique_activities`)."""
    text = answer.strip()
    if re.fullmatch(r"\d{4}", text):
        return dt.date(int(text), 1, 1), dt.date(int(text), 12, 31)
    m = re.fullmatch(r"([A-Z][a-z]+) (\d{4})", text)
    if m and m.group(1) in MONTHS:
        first = dt.date(int(m.group(2)), MONTHS.index(m.group(1)) + 1, 1)
        last = (first.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)
        return first, last
    m = _BEFORE.match(text)
    if m:
        day = parse_date(m.group("date"))
        if day is None:
            return None
        if m.group("n"):
            n = _count(m.group("n")) if m.group("n").lower() in _NUMBERS or m.group("n").isdigit() else None
            if n is None:
                return None
            near, far = 7 * n - 7, 7 * n + 7
        else:
            near, far = 1, {"week": 14, "weekend": 9}.get(m.group("unit"), 7)
        sign = -1 if m.group("dir") == "before" else 1
        ends = sorted((day + dt.timedelta(days=sign * near), day + dt.timedelta(days=sign * far)))
        return ends[0], ends[1]
    day = parse_date(text)
    return (day, day) if day is not None and text == format_date(day) else None


def date_phrase(answer: str) -> str:
    """How a question says a resolved date: "on 7 May 2023", "in the week before 8 May 2023", "on the
    Friday before …" (or weekend), "two weeks before …", "in April 2023", "in 2022"."""
    if re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}", answer) or re.match(r"the (\w+day|weekend) ", answer):
        return f"on {answer}"
    if re.match(r"(?!the\b)\w+ (weeks|weekends) ", answer):
        return answer
    return f"in {answer}"
