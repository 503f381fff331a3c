"""Whether a workbook's table looks like a table of things with properties, the one shape a person asks a cell of
("What is the unit price for Desk Lamp in the Price List sheet …?"): a positive gate on the whole table, tried after
the refusals of datagen.grid_tables and datagen.grid_columns (which name shapes known to go wrong).

The refusals converge slowly: each new folder of workbooks shows a shape none before did (RACI matrices, scenario
tables, lookup sheets, codes as keys; session 56's reporting reads). The gate turns the question round: a table is
asked only when, from the table alone (its column line and its rows, read across all its chunks: a table is its
sheet and its columns, datagen.grid_facts.table_shapes),
- it is **in English**: no header, and fewer than a third of its row keys, holds a letter English does not write
  ("Serviços AWS", "Thép thanh": grid_shape_not_english; an English question would quote another language);
- its rows are keyed by **names**: at most a third of its row labels (total rows left out) are of one kind that is
  no name: a statistic or a formula ("Median", "Mode", "Average If": grid_shape_key_statistics, a block of
  statistics under a table), a date ("2023-03-31", "Mar-23": grid_shape_key_dates), a code, a number, a letter, a
  weekday or a short reference ("R14": grid_shape_key_codes), a rating scale's level ("Low", "3 — Neutral":
  grid_shape_key_levels), a statement's line item or a property ("Gross Margin", "COGS", "Interest Rate", "Monthly
  Payment": grid_shape_key_metrics, a scenario table, a statement or a form set on its side);
- it has **rows enough** to be a table: two keyed rows or more (grid_shape_one_row: a lone total or a label and its
  figure under a column line is a form's field);
- it has **one header row**: a first row of words over columns of figures is a second header row ("Actual | Budget"
  under "Revenue | Cost"), and every cell under it is asked by half its name (grid_shape_two_header_rows); the column
  line written again on the first row is one header;
- each named column holds **values of one kind**: figures, or names (grid_shape_mixed_column): a column holding
  "Unit 1" in some rows and "1,200" in others is two blocks set side by side with no empty column between.
Comparisons follow: datagen.grid_tasks compares two rows of one column of a table the gate asks, and never a line
item or a level (`LINE_ITEM`, `SCALE_LEVEL`, here). One row is refused inside a table the gate asks: a row that
compares two others ("vs Target", "Actual vs Budget", "Difference": grid_shape_row_comparison, `row_refusal`).

The gate refuses the cells every refusal before it left, each counted in `skipped` under its reason: what each part
costs, on top of the refusals, is benchmarks/datagen_sheets.py's refusal table. Without the workbook's view (a chunk
read alone, as the unit tests of single refusals do) the gate is off; datagen.relations.read_facts always passes it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from datagen.grid_columns import (
    _ERRORS,
    _PIVOT_FIELD,
    _PLACEHOLDERS,
    TOTAL_ROW,
    _label_refusal,
    _statistic_row,
    cells,
)
from datagen.mining import fold

# a rating scale's level: "Very Low", "High", or a score with its word ("3 — Neutral", "5 - Great": session 56's reads
# compared "3 — Neutral or 4 — Good")
SCALE_LEVEL = re.compile(
    r"(?i)^(?:very|extremely|fairly)?\s*(?:low|medium|moderate|high|minor|major|critical|negligible|"
    r"severe|rare|unlikely|possible|likely|almost certain|certain)$|^\d{1,2}\s*[—–-]\s*[A-Za-z][\w ]*$"
)
# a statement's line item ("Gross Margin", "COGS", "Sales Unit", "vs Target"): a scenario table's rows are measures of
# their own units, and "which had the higher best case, Gross Margin or Sales Unit?" compares dollars with units
# (session 56's fourth unseen folder); expense categories ("Rent", "Food") are not line items
LINE_ITEM = re.compile(
    r"(?i)\b(?:margins?|cogs|profits?|ebitda|ebit|revenues?|sales|targets?|turnover|earnings)\b|^vs\b"
)
# a row named by a property rather than a thing ("Interest Rate", "Monthly Payment", "Loan Amount", "Unit Price"): a
# form's fields or a table set on its side, its columns the things (a loan calculator's "Loan A | Loan B")
_PROPERTY_LABEL = re.compile(
    r"(?i)\b(?:rate|amount|price|payment|percent(?:age)?|ratio|average|balance|principal|"
    r"duration|term|count|quantity|number of)s?\s*(?:\([^)]*\))?:?$|^(?:number|no\.?|#) of\b"
)
# a row named by the formula that computed it ("Average If", "Mode", "COUNTIF", "Range", "Std Dev"), beyond the
# statistic rows datagen.grid_columns refuses one by one
_FORMULA_ROW = re.compile(
    r"(?i)^(?:(?:average|avg|sum|count|max|min)\s?ifs?|countifs?|sumifs?|counta|mode|range|std\.?\s*dev\.?|"
    r"stdev|percentile|quartile)$"
)
# a day keying a row: "2023-03-31", "3/31/2023", "31.03.2023", "Mar-23", "March 2023", "Q1 2023"
_DATE_LABEL = re.compile(
    r"(?i)^\d{4}-\d\d-\d\d(?:[ T]\d\d:\d\d(?::\d\d)?)?$|^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$|"
    r"^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?[\s'-]*\d{2,4}$|"
    r"^\d{1,2}[\s-](?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*(?:[\s-]\d{2,4})?$"
)
# the label refusals (datagen.grid_columns) that say a label is a code, not a name
_CODE_REFUSALS = frozenset(
    {
        "grid_row_label_code",
        "grid_row_label_letter",
        "grid_row_label_number",
        "grid_row_label_id",
        "grid_row_label_weekday",
        "grid_row_label_date_range",
        "grid_row_label_stray",
    }
)
# a short reference ("R14", "A6", "T1", "TC-07", "E00004"): a risk's, an asset's, a test's or an employee's number, not
# its name ("What is the net pay for E00004" under "EMPL Number": session 57's reporting read); a quarter or a half
# ("Q1", "H2") is a period and stays
_SHORT_CODE = re.compile(r"^(?![QqHh][1-4]$)[A-Za-z]{1,3}[-_]?\d{1,6}[A-Za-z]?$")
# a figure: no letters ("$1,200.00", "12.5%", "2023-03-31"), or a currency code or a short unit beside the number
# ("USD 400", "12 kg"); "Unit 1" is a name with its number
_FIGURE = re.compile(
    r"^[^A-Za-z]*\d[^A-Za-z]*$|^(?:[A-Z]{2,3}\s?)?[-+(]?[$€£¥₹]?\s?\d[\d,.]*\s?(?:%|[A-Za-z]{1,3}\.?)?\)?$"
)
_SHARE = 1 / 3  # labels of one kind other than names that make a key column no column of names


def label_class(label: str) -> str:
    """What a row label is: "name", or the kind that is no name ("statistics", "dates", "codes", "levels", "metrics")."""
    label = label.strip()
    if _statistic_row(label) or _FORMULA_ROW.match(label):
        return "statistics"
    if _DATE_LABEL.match(label):
        return "dates"
    if _label_refusal(label) in _CODE_REFUSALS or _SHORT_CODE.match(label):
        return "codes"
    if SCALE_LEVEL.match(label):
        return "levels"
    if LINE_ITEM.search(label) or _PROPERTY_LABEL.search(label):
        return "metrics"
    return "name"


# a row that compares two others ("vs Target", "Actual vs Budget", "Difference", "% of Total", "Change"): it keys no
# thing, and "What is the revenue for vs Target" asks a gap as if it were an item (session 56's sixth unseen folder)
_COMPARING_ROW = re.compile(
    r"(?i)^(?:vs\.?|versus)\s|\s(?:vs\.?|versus)\s|^(?:difference|diff\.?|change|delta|gap)\b|"
    r"^%\s*(?:of|change|diff)\b"
)


def row_refusal(label: str) -> str:
    """Why a row label keys no thing of a table the gate asks ("" when it keys one): a row that compares two others."""
    return "grid_shape_row_comparison" if _COMPARING_ROW.search(label.strip()) else ""


def _foreign(text: str) -> bool:
    """Whether a header or a row key holds a letter English does not write ("Serviços", "Thép thanh", "Категория"); an
    Excel's pivot field in another language ("Średnia z Age") is said in English."""
    return any(c.isalpha() and not c.isascii() for c in text) and not _PIVOT_FIELD.match(text.strip())


def shape_refusal(head: Sequence[str], rows: Sequence[str]) -> str:
    """Why a table (its column line `head`, the row keys' column first, its row lines, all its chunks' where known) is
    no table of things with properties ("" when it is one); see the module docstring."""
    columns = head[1:]
    table = [r for r in map(cells, rows) if len(r) == len(columns) + 1 and r[0].strip()]
    summed = [r for r in table if not TOTAL_ROW.match(r[0].strip())]
    if any(map(_foreign, head)) or summed and sum(_foreign(r[0]) for r in summed) >= _SHARE * len(summed):
        # a table in another language: an English question would quote its words ("the valor total for SES - in the
        # Precificação sheet", "which had the higher sale, Phôi thép or Thép thanh": session 57's reporting reads),
        # and its keys are no names a reader of the question knows; a few accented names in an English list stay
        return "grid_shape_not_english"
    kinds = Counter(label_class(r[0]) for r in summed)
    if summed and kinds["statistics"] >= _SHARE * len(summed):
        # "Average | Average If | Median | Mode | Max" under a payroll's columns: a block of statistics over the table
        # above, each row a formula, no thing (tuning folder E)
        return "grid_shape_key_statistics"
    keyed = [r for r in summed if label_class(r[0]) != "statistics"]
    if len({r[0].strip().lower() for r in keyed}) < 2:
        return "grid_shape_one_row"
    del kinds["statistics"]
    worst = max((k for k in kinds if k != "name"), key=lambda k: kinds[k], default="")
    if worst and kinds[worst] >= _SHARE * len(keyed):
        return f"grid_shape_key_{worst}"
    if _two_header_rows(columns, table):
        return "grid_shape_two_header_rows"
    for at, column in enumerate(columns, 1):
        if column.strip() in ("", "—", "-"):
            continue
        # a placeholder or a formula's error ("N/A", "#DIV/0!") is no value of either kind
        values = [r[at] for r in keyed if r[at] and fold(r[at]) not in _PLACEHOLDERS and r[at].upper() not in _ERRORS]
        figures = sum(bool(_FIGURE.match(v)) for v in values)
        fewer = min(figures, len(values) - figures)
        if fewer and (fewer >= 0.25 * len(values) or fewer >= max(2, 0.1 * len(values))):
            return "grid_shape_mixed_column"
    return ""


def _two_header_rows(columns: Sequence[str], table: Sequence[Sequence[str]]) -> bool:
    """Whether the first row is a second header row: words in two columns or more whose every later cell is a figure
    ("(Region) | Q1 | Q1 | Q2" over "Actual | Budget | Actual" over figures)."""
    if len(table) < 3:
        return False
    first, rest = table[0], table[1:]
    if sum(fold(a) == fold(b) for a, b in zip(first[1:], columns, strict=False) if b) * 2 >= len(
        [c for c in columns if c]
    ):
        return False  # the column line written again on the first row ("Task | Notes | Start Date"): one header, twice
    over = 0
    for at in range(1, len(columns) + 1):
        below = [r[at] for r in rest if r[at]]
        if first[at] and not _FIGURE.match(first[at]) and below and all(_FIGURE.match(v) for v in below):
            over += 1
    return over >= 2
