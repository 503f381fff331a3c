"""What an earnings release's tables need that a 10-K's or 10-Q's do not: the company, when the cover gives none,
and the periods its columns name by quarter rather than by day (issue 36: a folder of press releases).

A release is no SEC form with a cover page: an index built before search read datelines holds no company for it
(J&J's "JOHNSON JOHNSON 2022Q4 EARNINGS" had none), and the release names itself in its dateline instead:

    New Brunswick, N.J. (January 24, 2023) – Johnson & Johnson (NYSE: JNJ) today announced results for …

`release_company` (corpus_tools.doc_metadata, the one dateline reader: search metadata reads a release's company the
same way) reads that line (the company as it writes itself, its listing, then "announced" or "reported");
a release whose first pages name no company this way gives no table fact, counted as `table_without_company`
by datagen.table_facts, since a figure without its company is no question.

Releases write their periods as a person says them ("Q4 2022", "Fourth Quarter 2022", "Full Year 2022")
and the "% Change" and "vs. prior period" columns beside them are no period: `release_period` reads the first
kind as a `Period` of length "fiscal quarter" or "fiscal year", whose `end` is only the calendar quarter's last
day that orders them (J&J's fourth quarter of 2022 ended on January 1, 2023, a day the release never writes);
the question names the quarter as the release does ("for the fourth quarter of 2022").
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

from corpus_tools.doc_metadata import release_company

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_ORDINAL_WORDS = {v: k for k, v in _ORDINALS.items()}
# "Q4 2022", "Fourth Quarter 2022", "Fourth-Quarter 2022", "4Q 2022"; the whole column, nothing else in it
_QUARTER = re.compile(r"(?i)^(?:Q([1-4])|([1-4])Q|(first|second|third|fourth)[- ]quarter)(?:\s+of)?\s+((?:19|20)\d{2})$")
_FULL_YEAR = re.compile(r"(?i)^full[- ]year\s+((?:19|20)\d{2})$")


def filing_company(metadata: Mapping[str, Any], first_texts: Sequence[str], title: str) -> str:
    """The company whose figures a table states: the cover's (document metadata "company"), else the release's
    dateline, else the document's title (datagen.table_facts refuses a title that names no company)."""
    return str(metadata.get("company") or release_company(first_texts) or title)


def release_period(column: str) -> tuple[str, dt.date] | None:
    """("fiscal quarter" | "fiscal year", the calendar day that orders it) for a release's column, else None."""
    text = re.sub(r"\s+", " ", column).strip()
    m = _QUARTER.match(text)
    if m:
        quarter = int(m.group(1) or m.group(2) or _ORDINALS[m.group(3).lower()])
        year = int(m.group(4))
        month = 3 * quarter
        return "fiscal quarter", dt.date(year, month, 31 if month in (3, 12) else 30)
    m = _FULL_YEAR.match(text)
    if m:
        return "fiscal year", dt.date(int(m.group(1)), 12, 31)
    return None


def fiscal_phrase(length: str, end: dt.date) -> str:
    """"the fourth quarter of 2022", "the full year 2022"."""
    if length == "fiscal quarter":
        return f"the {_ORDINAL_WORDS[end.month // 3]} quarter of {end.year}"
    return f"the full year {end.year}"


def fiscal_forms(length: str, end: dt.date) -> tuple[str, ...]:
    """How a release writes the period: "Q4 2022", "Fourth Quarter 2022", "2022 Fourth-Quarter", "Full Year 2022"."""
    if length == "fiscal quarter":
        q = end.month // 3
        word = _ORDINAL_WORDS[q]
        return (f"Q{q} {end.year}", f"{word} quarter {end.year}", f"{word} quarter of {end.year}",
                f"{end.year} {word}-quarter", f"{q}Q {end.year}")
    return (f"Full Year {end.year}", f"Full-Year {end.year}", f"{end.year} Full-Year", f"full year {end.year}")
