"""An earnings call's identity: which company's call, for which quarter, in the filings' keys.

A folder of earnings-call transcripts names each call in its file name, as the vendor or the user exported it:
"Q3 2022 Equinix Inc Earnings Call.txt" (company, quarter, year), "AA_q3_2021.txt" (ticker, quarter, year). The
text says it again: the vendor export lists the company's own people as "Name" then "Company - Title" under
CORPORATE PARTICIPANTS, and the operator opens "Welcome to the Equinix Third Quarter 2022 Earnings Conference Call".
Read into `doc_metadata.DOCUMENT_KEYS` ("company", "ticker", "form" = `CALL_FORM`, "fiscal_year", "fiscal_quarter";
never "period_end": a call states no period end), so search's `constraints="auto"` narrows "Equinix … Q3 2022"
to that call, and datagen reads the same company and quarter.

The order, field by field (the file name is the user's own label; the operator misspeaks: two of session 46's
74 tuning calls are welcomed as "Third Quarter 2021" in a Q3 2022 call):
  - company: the participants list's most named company, else the file name's, else the welcome line's;
  - ticker: a "TICKER_qN_YYYY" file name's only (a call's text rarely states it);
  - quarter and year: the file name's, else the welcome line's "third quarter 2022 … call" / "Q3 2022 … call";
    no quarter is ever guessed from the prose (calls compare quarters all the time: "up from the first quarter
    of 2021"), so a call that names none in its name or title line carries no fiscal keys;
  - form: `CALL_FORM` when the name or the text reads as a call (see `reads_as_call`).
A file that is not a call (no call wording, no "TICKER_qN_YYYY" name) gets {}: a plain text folder is read as before.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

CALL_FORM = "earnings call"
# Only this much of a call's start is read for its participants and its welcome line.
OPENING_CHARS = 8_000

_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
# "Q3 2022 Equinix Inc Earnings Call", "Equinix Q3 2022 Earnings Call", "Q3 2022 Earnings Call - Equinix".
# The vendor cuts long names short ("Q3 2022 Washington Real Estate Investment Trust Earnings"): the quarter
# leading a file name is read with or without the words after the company; whether it is a call is the text's say.
_VENDOR_NAME = re.compile(r"^\s*Q(?P<q>[1-4])\s+(?:FY\s?)?(?P<y>(?:19|20)\d\d)\s+(?P<company>.+?)"
                          r"(?:\s+(?:Earnings|Results|Investor|Conference)\b.*)?$", re.IGNORECASE)
_NAME_FIRST = re.compile(r"^\s*(?P<company>.+?)\s+Q(?P<q>[1-4])\s+(?:FY\s?)?(?P<y>(?:19|20)\d\d)\s+"
                         r"(?:Earnings|Results|Investor|Conference)\b.*\bCall\b", re.IGNORECASE)
# "AA_q3_2021", "BRK.B_Q1_2020", "aapl-q4-2022": a ticker, the quarter, the year.
_TICKER_NAME = re.compile(r"^(?P<ticker>[A-Za-z][A-Za-z0-9.]{0,6})[_\- ]+q(?P<q>[1-4])[_\- ]+(?P<y>(?:19|20)\d\d)$",
                          re.IGNORECASE)
# The operator's or host's title line: "Welcome to the Equinix Third Quarter 2022 Earnings Conference Call",
# "welcome to Crown Castle's Q3 2022 Earnings Call", "Community Healthcare Trust 2022 Third Quarter Earnings …".
_PERIOD = (r"(?:(?P<w>first|second|third|fourth)\s+quarter(?:\s+of)?(?:\s+fiscal(?:\s+year)?)?\s+(?P<y>(?:19|20)\d\d)"
           r"|(?:fiscal\s+(?:year\s+)?)?(?P<y2>(?:19|20)\d\d)\s+(?:fiscal\s+)?(?P<w2>first|second|third|fourth)\s+quarter"
           r"|Q(?P<q>[1-4])\s+(?:of\s+)?(?:fiscal\s+|FY\s?)?(?P<y3>(?:19|20)\d\d))")
_TITLE_LINE = re.compile(
    r"welcome\s+to\s+(?:the\s+|today's\s+)?(?P<company>[^.\n]{0,80}?)(?:'s|’s)?\s*" + _PERIOD
    + r"\s+(?:[\w&'’-]+\s+){0,5}?(?:conference\s+)?call\b",
    re.IGNORECASE,
)
_CALL_WORDS = re.compile(r"\b(?:earnings|conference|investor|results)\s+call\b|\bearnings\s+conference\b",
                         re.IGNORECASE)
# A call speaking of itself ("on today's call", "this call"): read only in a file whose name already says which
# company and quarter it is (general prose says "the call" too).
_SELF_MENTION = re.compile(r"\b(?:this|today's|today’s|our|the)\s+(?:earnings\s+|conference\s+)?call\b",
                           re.IGNORECASE)
_PARTICIPANTS = re.compile(r"^\s*CORPORATE\s+PARTICIPANTS\s*$", re.MULTILINE)
# The list ends where the analysts' list or the call itself begins.
_LIST_END = re.compile(r"^\s*(?:CONFERENCE\s+CALL\s+PARTICIPANTS|PRESENTATION|QUESTIONS\s+AND\s+ANSWERS)\s*$",
                       re.MULTILINE)
# "AG Mortgage Investment Trust, Inc. - CFO, Treasurer & Principal Accounting Officer": company, a dash, a title.
_AFFILIATION = re.compile(r"^\s*(?P<company>[^\n]{2,100}?)\s+[-–—]\s+(?P<title>[^\n]{2,120})$")


def call_identity(file_name: str, text: str) -> dict[str, Any]:
    """The call's identity (`DOCUMENT_KEYS` that were read; see the module docstring), {} for a file not a call.

    file_name: the file's name ("Q3 2022 Equinix Inc Earnings Call.txt"); text: its decoded text.
    """
    stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", file_name.strip())
    named = _from_name(stem)
    opening = text[:OPENING_CHARS]
    # A name holding a quarter but no call wording ("Q3 2022 budget notes.txt") needs a text that reads as a call.
    if not (named.get("form") or reads_as_call(opening) or "ticker" in named):
        return {}
    found: dict[str, Any] = {}
    company = participants_company(opening) or named.get("company") or ""
    titled = _from_title_line(opening)
    company = company or titled.get("company", "")
    if company:
        found["company"] = company
    if named.get("ticker"):
        found["ticker"] = named["ticker"]
    if named.get("form") or reads_as_call(text) or ("fiscal_quarter" in named and _SELF_MENTION.search(text)):
        found["form"] = CALL_FORM
    period = named if "fiscal_quarter" in named else titled
    if "fiscal_quarter" in period:
        found["fiscal_year"], found["fiscal_quarter"] = period["fiscal_year"], period["fiscal_quarter"]
    return found


def reads_as_call(text: str) -> bool:
    """Whether a text reads as an earnings call: the vendor's participants list, or call wording ("earnings call",
    "conference call") in it."""
    return bool(_PARTICIPANTS.search(text) or _CALL_WORDS.search(text))


def participants_company(text: str) -> str:
    """The company most of the CORPORATE PARTICIPANTS list works for ("AG Mortgage Investment Trust, Inc."), ""
    when the text has no such list (or the list was cut off before any "Company - Title" line)."""
    start = _PARTICIPANTS.search(text)
    if start is None:
        return ""
    end = _LIST_END.search(text, start.end())
    block = text[start.end(): end.start() if end else len(text)]
    counts = Counter(m.group("company").strip() for line in block.splitlines() if (m := _AFFILIATION.match(line)))
    return counts.most_common(1)[0][0] if counts else ""


def _from_name(stem: str) -> dict[str, Any]:
    for pattern in (_VENDOR_NAME, _NAME_FIRST):
        m = pattern.match(stem)
        if m:
            company = m.group("company").strip(" -_,")
            found: dict[str, Any] = {"fiscal_year": int(m.group("y")), "fiscal_quarter": int(m.group("q"))}
            if re.search(r"\bcall\b", stem, re.IGNORECASE):
                found["form"] = CALL_FORM
            if company and not re.fullmatch(r"(?:Q[1-4]|FY)?\s*\d*", company, re.IGNORECASE):
                found["company"] = company
            return found
    m = _TICKER_NAME.match(stem)
    if m:
        return {"ticker": m.group("ticker").upper(), "fiscal_year": int(m.group("y")),
                "fiscal_quarter": int(m.group("q"))}
    if _CALL_WORDS.search(stem.replace("_", " ")):
        return {"form": CALL_FORM}
    return {}


def _from_title_line(text: str) -> dict[str, Any]:
    m = _TITLE_LINE.search(" ".join(text.split()))  # hard-wrapped lines: a title may break anywhere
    if m is None:
        return {}
    word = m.group("w") or m.group("w2")
    quarter = _QUARTER_WORDS[word.lower()] if word else int(m.group("q"))
    year = int(m.group("y") or m.group("y2") or m.group("y3"))
    found: dict[str, Any] = {"fiscal_year": year, "fiscal_quarter": quarter}
    company = " ".join(m.group("company").split()).strip(" ,")
    # "Welcome to the third quarter 2022 Acadia … call" puts the name after the period: none read before it.
    if company and company[0].isupper() and company.lower() not in ("our", "the", "this", "today's"):
        found["company"] = company
    return found
