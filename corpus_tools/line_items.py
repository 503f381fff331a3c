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
Single words that also name other things ("sales", "profit", "cash", "investments", "debt", "earnings") are left
out on purpose: "Sales and marketing" is an expense, not revenue; "Corporate debt securities" is no borrowing.

Analysts also write abbreviations (session 34, issue 35: FinanceBench's "PPNE", docugami's "operational
expenditures"): those holding "&" or "/" and coined words (capex, opex, topline, ebitda) are names in LINE_ITEMS, read in
any case; the ones spelt in capital letters only (COGS, PPNE, EBIT, FCF, DSO ...) are ABBREVIATIONS, read only as
written, so "cogs in a machine" or a person called Ebit names nothing. Ratios and amounts no statement prints whose
parts sit on different statements (working capital, days sales outstanding, EBITDA, margins) are read as their
parts (READ_AS_PARTS); those whose parts one table prints (gross profit, free cash flow, the liquidity ratios) are
named by that table (DERIVED).
"""

from __future__ import annotations

import re
from functools import lru_cache

LINE_ITEMS: tuple[tuple[str, ...], ...] = (
    # income statement
    ("revenue", "revenues", "net revenue", "net revenues", "total revenue", "total revenues", "net sales",
     "total net sales", "turnover", "top line", "topline", "top-line", "sales revenue"),
    ("cost of revenue", "cost of revenues", "cost of sales", "total cost of sales", "cost of goods sold",
     "cost of products sold", "cost of merchandise sold"),
    ("gross profit", "gross margin", "gross profit margin"),
    ("research and development", "r&d", "technology and content", "technology and infrastructure"),
    ("selling, general and administrative", "selling general and administrative", "sg&a",
     "marketing, general and administrative", "general and administrative",
     "selling, general and administrative expenses"),
    ("total operating expenses", "operating expenses", "operating costs",
     "total costs and expenses", "costs and expenses", "opex",
     "operating expenditures", "operating expenditure", "operational expenditures", "operational expenditure",
     "operational expenses"),
    ("operating income", "income from operations", "operating profit", "operating income (loss)",
     "loss from operations", "operating loss"),
    ("interest expense", "interest costs"),
    ("other income (expense), net", "other income (expense)", "other income/(expense), net",
     "interest and other income (expense), net", "non-operating income"),
    ("provision for income taxes", "income tax expense", "income taxes", "tax provision",
     "provision for (benefit from) income taxes", "effective tax rate"),
    ("net income", "net earnings", "net profit", "net income (loss)", "net loss", "bottom line", "bottom-line"),
    ("earnings per share", "net income per share", "earnings per common share", "net earnings per share",
     "diluted earnings per share", "basic earnings per share"),
    ("depreciation and amortization", "d&a", "depreciation, amortization"),
    # balance sheet
    ("cash and cash equivalents", "cash and equivalents", "cash on hand"),
    ("marketable securities", "short-term investments"),
    ("accounts receivable", "accounts receivable, net", "trade receivables", "receivables", "a/r"),
    ("inventories", "inventory", "total inventories"),
    ("property and equipment", "property, plant and equipment", "property and equipment, net",
     "property, plant and equipment, net", "pp&e", "fixed assets",
     "property, plant and equipment, net of accumulated depreciation", "net fixed assets"),
    ("goodwill", "intangible assets"),
    ("total current assets", "current assets"),
    ("retained earnings", "accumulated deficit", "retained earnings (accumulated deficit)"),
    ("total assets",),
    ("accounts payable", "trade payables", "a/p"),
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
     "cash provided by operations", "cash flow from operating activities", "cash flows from operations",
     "cash from operating activities"),
    ("capital expenditures", "capex", "capital expenditure", "capital spending", "purchases of property and equipment",
     "purchases of property, plant and equipment",
     "additions to property and equipment", "additions to property, plant and equipment",
     "payments for acquisition of property, plant and equipment"),
    ("repurchases of common stock", "repurchase of common stock", "share repurchases", "stock repurchases",
     "common stock repurchased", "buybacks", "share buybacks"),
    ("dividends paid", "dividends", "cash dividends", "payments for dividends"),
    ("free cash flow", "free cash flows"),
    # ratios an analyst asks for by name; the statement prints their parts (DERIVED)
    ("quick ratio", "acid-test ratio", "acid test ratio"),
    ("current ratio", "working capital ratio"),
    ("working capital", "net working capital"),
    ("operating margin", "operating profit margin"),
    ("net margin", "net profit margin", "profit margin", "net income margin"),
    ("days sales outstanding", "days sales in receivables", "receivable days"),
    ("days payable outstanding", "payable days"),
    ("days inventory outstanding", "days in inventory", "days sales of inventory", "inventory days"),
    ("inventory turnover", "inventory turns"),
    ("ebitda", "earnings before interest, taxes, depreciation and amortization",
     "earnings before interest, taxes, depreciation, and amortization"),
    ("return on equity",),
    ("return on assets",),
    ("debt to equity", "debt-to-equity", "debt-to-equity ratio", "debt to equity ratio"),
)


# Abbreviations an analyst writes in capitals, matched only as written (case and all): "COGS" is cost of goods
# sold, "cogs in a machine" is not; "EBIT" is earnings before interest and taxes, "Ebit" a surname. Forms holding
# "&" or "/" (R&D, SG&A, PP&E, D&A, A/R, A/P) and coined words no dictionary holds otherwise (capex, opex, topline,
# ebitda) are in LINE_ITEMS above, in any case. Left out on purpose: "PPE" (personal protective equipment in
# every pharmaceutical and retail filing of 2020-2022), "AR" / "AP" (augmented reality, a state, a news agency),
# "CFO" (the officer), "GM" (a company), "NI", "OI" (too short to tell from initials).
# Sources: the expansions used in the CFA Institute's curriculum glossary and the Corporate Finance Institute's
# list of financial-analysis abbreviations (EBIT, EBITDA, FCF, COGS, SG&A, D&A, DSO, DPO, DIO, NWC, ROE, ROA,
# OCF), and the SEC's "Beginners' Guide to Financial Statements" for their statement rows; "PPNE" is the
# spelling of PP&E without the ampersand, as analysts' spreadsheets and data vendors' field names write it.
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "cost of revenue": ("COGS",),
    "selling, general and administrative": ("SGA",),
    "earnings per share": ("EPS",),
    "operating income": ("EBIT",),
    "property and equipment": ("PPNE",),
    "free cash flow": ("FCF",),
    "net cash provided by operating activities": ("OCF", "CFFO"),
    "working capital": ("NWC",),
    "days sales outstanding": ("DSO",),
    "days payable outstanding": ("DPO",),
    "days inventory outstanding": ("DIO",),
    "return on equity": ("ROE",),
    "return on assets": ("ROA",),
}

# Items an analyst asks for by name that no statement prints and whose parts sit on different statements or
# pieces of one (working capital: current assets and current liabilities, cut into two chunks; days sales
# outstanding: receivables on the balance sheet, revenue on the income statement). A question naming one is read
# as asking for its parts, so each part's row counts as naming what was asked (corpus_tools.row_match) and the
# parts' names join the BM25 text; a table printing only one part still answers half of it. Standard definitions:
# working capital = current assets - current liabilities; DSO = receivables / revenue x days; DPO = payables /
# cost of revenue x days; DIO and inventory turnover = inventories and cost of revenue; EBITDA = operating income
# + depreciation and amortization; operating and net margin = operating or net income / revenue (read as parts,
# not as other names of those items: "margin" in the BM25 text of every net-income search drew gross-margin
# paragraphs, tuning q70); ROE / ROA = net income over equity / total assets; debt to equity.
READ_AS_PARTS: dict[str, tuple[str, ...]] = {
    "working capital": ("total current assets", "total current liabilities"),
    "operating margin": ("operating income", "revenue"),
    "net margin": ("net income", "revenue"),
    "days sales outstanding": ("accounts receivable", "revenue"),
    "days payable outstanding": ("accounts payable", "cost of revenue"),
    "days inventory outstanding": ("inventories", "cost of revenue"),
    "inventory turnover": ("inventories", "cost of revenue"),
    "ebitda": ("operating income", "depreciation and amortization"),
    "return on equity": ("net income", "shareholders' equity"),
    "return on assets": ("net income", "total assets"),
    "debt to equity": ("long-term debt", "shareholders' equity"),
}


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


def _normal(text: str, lower: bool = True) -> str:
    """Lower case (unless not `lower`), typographic apostrophes and dashes made plain, runs of space made one
    (positions in the text read with and without case agree but for the rare letter whose lower case is longer)."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").replace("\u2014", "-")
    text = re.sub(r"\s+", " ", text)
    return text.lower() if lower else text


def _alternation(phrases: list[str]) -> str:
    """One regex alternation of `phrases`, longest first (so "net cash provided by operating activities" wins
    over "net"-anything), bounded so "eps" never matches inside "steps" nor "EBIT" inside "EBITDA"."""
    ordered = sorted(phrases, key=lambda p: (-len(p), p))
    return rf"(?<![\w&'])(?:{'|'.join(re.escape(p) for p in ordered)})(?![\w&])"


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], dict[str, int]]:
    """The phrases of LINE_ITEMS (read in lower case) and the abbreviations (read as written), and each one's
    group. An abbreviation's group is its canonical name's."""
    group_of = {phrase: i for i, group in enumerate(LINE_ITEMS) for phrase in group}
    index = {group[0]: i for i, group in enumerate(LINE_ITEMS)}
    abbreviation_of = {form: index[name] for name, forms in ABBREVIATIONS.items() for form in forms}
    return (re.compile(_alternation(list(group_of))), re.compile(_alternation(list(abbreviation_of))),
            {**group_of, **abbreviation_of})


def line_items(text: str) -> list[int]:
    """Indexes into LINE_ITEMS of the line items `text` names, in order of first mention (no repeats).

    Names are read in lower case, abbreviations as written; where two overlap, the longer is read."""
    phrases, abbreviations, group_of = _patterns()
    spans = [(m.start(), -len(m.group(0)), group_of[m.group(0)]) for m in phrases.finditer(_normal(text))]
    spans += [(m.start(), -len(m.group(0)), group_of[m.group(0)])
              for m in abbreviations.finditer(_normal(text, lower=False))]
    found: list[int] = []
    end = 0
    for start, negative_length, group in sorted(spans):
        if start < end:  # inside a longer name read before it
            continue
        end = start - negative_length
        if group not in found:
            found.append(group)
    return found


def canonical_names(text: str) -> list[str]:
    """The canonical name of each line item `text` names: "R&D spending" → ["research and development"]; an
    item read as its parts (READ_AS_PARTS) gives its parts' names: "working capital" → ["total current assets",
    "total current liabilities"]."""
    names: list[str] = []
    for g in line_items(text):
        for name in READ_AS_PARTS.get(LINE_ITEMS[g][0], (LINE_ITEMS[g][0],)):
            if name not in names:
                names.append(name)
    return names


def expansion(text: str) -> str:
    """The words of the other names of the line items `text` names (an item read as its parts: its parts'
    names), that `text` lacks: what a search for "gross margin" should also match ("profit"). "" when it names
    none."""
    have = set(re.findall(r"\w+", _normal(text)))
    index = {group[0]: group for group in LINE_ITEMS}
    words: list[str] = []
    for name in canonical_names(text):
        for phrase in index[name]:
            for w in re.findall(r"\w+", phrase):
                if w not in have and len(w) > 1:
                    have.add(w)
                    words.append(w)
    return " ".join(words)
