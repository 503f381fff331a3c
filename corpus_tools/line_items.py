"""Financial statement line items and the other names filings and people give them.

A question says "gross margin", "R&D" or "revenue"; the statement's row says "Gross profit",
"Technology and content" or "Total net sales". Neither BM25 nor the row match
(`corpus_tools.row_match`) sees that these are one line item, and the embedder sees it weakly in a
chunk of thirty rows (issue 35: "gross margin" against NVIDIA's "Gross profit", "R&D" against
Amazon's "Technology and content").

Where the aliases come from: the standard captions of the US-GAAP income statement, balance sheet
and cash-flow statement (the FASB taxonomy's element labels, e.g. "Revenues", "Cost of revenue",
"Gross profit", "Research and development expense", "Operating income (loss)", "Net income (loss)",
"Earnings per share, diluted", "Net cash provided by (used in) operating activities",
"Payments to acquire property, plant, and equipment"), the captions large filers print instead of
them ("net sales", "income from operations", "net earnings", "cost of sales"), and the
abbreviations an analyst writes (R&D, SG&A, EPS, PP&E, capex, COGS). Amazon's "technology and
content" / "technology and infrastructure" are listed with R&D because Amazon's own notes define
them as its research and development costs. The table is general: it was written from those
sources, not from the benchmark's questions, and no entry names a company's figure.

Each group is one line item: its first phrase is the canonical name. `line_items(text)` finds the
groups a text names (longest phrase first, no overlapping matches), `canonical_names` gives their
canonical names (row match adds them to both the question and a row label, so "R&D" meets
"Technology and content" on "research and development"), and `expansion` gives the other names of
the items a question asks about (appended to the BM25 text of a search narrowed to filings).
Single words that also name other things ("sales", "profit", "cash", "investments") are left out on purpose:
"Sales and marketing" is an expense, not revenue.
"""

from __future__ import annotations

import re
from functools import lru_cache

LINE_ITEMS: tuple[tuple[str, ...], ...] = (
    # income statement
    ("revenue", "revenues", "net revenue", "net revenues", "total revenue", "total revenues", "net sales",
     "total net sales", "turnover", "top line"),
    ("cost of revenue", "cost of revenues", "cost of sales", "total cost of sales", "cost of goods sold", "cogs",
     "cost of products sold"),
    ("gross profit", "gross margin"),
    ("research and development", "r&d", "technology and content", "technology and infrastructure"),
    ("selling, general and administrative", "selling general and administrative", "sg&a",
     "marketing, general and administrative", "general and administrative"),
    ("total operating expenses", "operating expenses", "operating costs", "operating expenditures",
     "total costs and expenses", "costs and expenses", "opex"),
    ("operating income", "income from operations", "operating profit", "operating income (loss)",
     "loss from operations", "operating loss"),
    ("interest expense", "interest costs"),
    ("other income (expense), net", "other income (expense)", "other income/(expense), net",
     "interest and other income (expense), net", "non-operating income"),
    ("provision for income taxes", "income tax expense", "income taxes", "tax provision",
     "provision for (benefit from) income taxes", "effective tax rate"),
    ("net income", "net earnings", "net profit", "net income (loss)", "net loss", "bottom line"),
    ("earnings per share", "eps", "net income per share", "earnings per common share", "net earnings per share",
     "diluted earnings per share", "basic earnings per share"),
    ("depreciation and amortization", "d&a", "depreciation, amortization"),
    # balance sheet
    ("cash and cash equivalents", "cash and equivalents", "cash on hand"),
    ("marketable securities", "short-term investments"),
    ("accounts receivable", "accounts receivable, net", "trade receivables", "receivables"),
    ("inventories", "inventory", "total inventories"),
    ("property and equipment", "property, plant and equipment", "property and equipment, net",
     "property, plant and equipment, net", "pp&e", "fixed assets"),
    ("goodwill", "intangible assets"),
    ("total current assets", "current assets"),
    ("total assets",),
    ("accounts payable", "trade payables"),
    ("deferred revenue", "unearned revenue", "contract liabilities"),
    ("long-term debt", "long term debt", "term debt", "total debt", "notes payable", "borrowings"),
    ("total current liabilities", "current liabilities"),
    ("total liabilities",),
    ("shareholders' equity", "stockholders' equity", "shareholders equity", "stockholders equity", "total equity",
     "book value"),
    # cash-flow statement
    ("net cash provided by operating activities", "net cash provided by (used in) operating activities",
     "cash generated by operating activities", "net cash from operating activities", "operating cash flow",
     "cash flow from operations", "cash flows from operating activities", "cash from operations",
     "cash provided by operations"),
    ("capital expenditures", "capex", "purchases of property and equipment", "purchases of property, plant and equipment",
     "additions to property and equipment", "additions to property, plant and equipment",
     "payments for acquisition of property, plant and equipment"),
    ("repurchases of common stock", "repurchase of common stock", "share repurchases", "stock repurchases",
     "common stock repurchased", "buybacks", "share buybacks"),
    ("dividends paid", "dividends", "cash dividends", "payments for dividends"),
    ("free cash flow",),
    # ratios an analyst asks for by name; the statement prints their parts (DERIVED)
    ("quick ratio", "acid-test ratio", "acid test ratio"),
    ("current ratio", "working capital ratio"),
)


# Line items some filers never print, and the rows they are computed from (US-GAAP identities: gross profit =
# revenue - cost of revenue; free cash flow = operating cash flow - capital expenditures). Amazon's statement of
# operations has "Total net sales" and "Cost of sales" but no gross-profit row: for "Amazon's gross margin" that
# statement holds what answers it. Keys and components are canonical names (first phrases of LINE_ITEMS).
DERIVED: dict[str, tuple[str, ...]] = {
    "gross profit": ("revenue", "cost of revenue"),
    "free cash flow": ("net cash provided by operating activities", "capital expenditures"),
    # liquidity ratios, read off the balance sheet: quick assets (cash, receivables) or all current assets over
    # current liabilities. A balance sheet is cut into several chunks, and the current assets are printed (and
    # chunked) first: the piece that prints them is where the ratio's reading starts.
    "quick ratio": ("cash and cash equivalents", "accounts receivable", "total current assets"),
    "current ratio": ("cash and cash equivalents", "total current assets"),
}


def derived_named(items: set[str], labels: list[str]) -> set[str]:
    """The derived line items among `items` (canonical names) whose components the rows `labels` name, all of
    them, between them: a table printing "Total net sales" and "Cost of sales" names "gross profit"."""
    wanted = [item for item in items if item in DERIVED]
    if not wanted:
        return set()
    named = {name for label in labels for name in canonical_names(label)}
    return {item for item in wanted if set(DERIVED[item]) <= named}


def _normal(text: str) -> str:
    """Lower case, typographic apostrophes and dashes made plain, runs of space made one."""
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"\s+", " ", text)


@lru_cache(maxsize=1)
def _pattern() -> tuple[re.Pattern[str], dict[str, int]]:
    """One alternation of every phrase, longest first (so "net cash provided by operating activities"
    wins over "net"-anything), bounded so "eps" never matches inside "steps"."""
    group_of = {phrase: i for i, group in enumerate(LINE_ITEMS) for phrase in group}
    phrases = sorted(group_of, key=lambda p: (-len(p), p))
    alternation = "|".join(re.escape(p) for p in phrases)
    return re.compile(rf"(?<![\w&'])(?:{alternation})(?![\w&])"), group_of


def line_items(text: str) -> list[int]:
    """Indexes into LINE_ITEMS of the line items `text` names, in order of first mention (no repeats)."""
    pattern, group_of = _pattern()
    found: list[int] = []
    for m in pattern.finditer(_normal(text)):
        group = group_of[m.group(0)]
        if group not in found:
            found.append(group)
    return found


def canonical_names(text: str) -> list[str]:
    """The canonical name of each line item `text` names: "R&D spending" → ["research and development"]."""
    return [LINE_ITEMS[g][0] for g in line_items(text)]


def expansion(text: str) -> str:
    """The words of the other names of the line items `text` names, that `text` lacks: what a search for
    "gross margin" should also match ("profit"). "" when it names none."""
    have = set(re.findall(r"\w+", _normal(text)))
    words: list[str] = []
    for g in line_items(text):
        for phrase in LINE_ITEMS[g]:
            for w in re.findall(r"\w+", phrase):
                if w not in have and len(w) > 1:
                    have.add(w)
                    words.append(w)
    return " ".join(words)
