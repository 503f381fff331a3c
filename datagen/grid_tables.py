"""Whole tables of a workbook that give no question, by their shape (datagen.grid_facts reads the tables,
datagen.grid_columns refuses single cells): a header row that is data, blocks set side by side, a log whose key
repeats, a scoring matrix. Each refusal is counted in `skipped` for every row of the table (no question is better
than a wrong one):
- grid_header_letters: a table the reader found no header row for (its columns are the sheet's letters A, B, …);
- grid_header_is_data: a column named by a figure ("$250.00", "60"; a year is a column's name) or a name ending in
  ":" ("Unit Cost:"): the header row is a data row or a label-and-value block;
- grid_side_by_side: a column whose last word is the row labels' column's ("Icon Sets Salesman" beside
  "Duplicate Values Salesman"): tables side by side under one header row;
- grid_header_title_prefix: every column's name opens with one word ("DimStore TYPE | DimStore LENGTH"): a merged
  title run into the names;
- grid_statistics: a statistics tool's output (two names or more of "Coefficients", "t Stat", "P-value", "df",
  "Intercept", …: regression, ANOVA, descriptive statistics);
- grid_row_label_repeated: a table whose row labels repeat (a log's days, a survey's regions), or a log of five
  columns or more keyed by the person who made each record ("Agent", "Rep", "Customer"): no row key;
- grid_row_label_id: rows keyed by an identifier column ("EmpID") or an address ("Email");
- grid_header_partial: no name over the row labels and an unnamed column beside them (blocks side by side);
- grid_row_label_long: the row labels' column named by a sentence (a template's instructions);
- grid_row_label_grouped: a label over a group of rows (the rows below name their item in the next column, their
  own label empty): it keys no one row;
- grid_row_label_date_log: rows keyed by their day that record a thing by name (an invoice log: "2017-12-16 | Lolin
  LTD | €6,900.00"): a day keys no record a person asks about;
- grid_lists_sheet: a lookup sheet ("Lists", "Dropdowns", "Data Validation"): lists side by side on shared rows.
Inside a table it may ask, some columns and cells are another block's or a matrix's, found here and refused by
datagen.grid_facts cell by cell: a scoring matrix's criteria (`_criteria`: grid_column_criterion), the cells past a
gap between two blocks (`_gaps`, `_after_gap`: grid_cell_other_block), a column finer than the labels (`_finer`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from datagen.grid_columns import _ID_COLUMN, _MEASURES, _NAME_CHARS, _PIVOT, _YEAR, cells
from datagen.mining import fold

_LETTERS = re.compile(r"^[A-Z]{1,3}$")
# a sum of money inside a column's name ("Forecast €88.00"): the header row holds a figure, a data row's
_MONEY_IN_NAME = re.compile(r"[$€£¥₹]\s?\d|\d[\d,]*\.\d\d\b(?!\s*%)")
_RECORD_KEY = re.compile(r"(?i)^(?:sales\s?)?(?:agent|rep|salesman|salesperson|seller|buyer|cashier|driver|customer|"
                         r"client|vendor|supplier|representative)s?$")
_CONTACT = re.compile(r"(?i)\b(?:e-?mail|username|user name|login|phone|mobile|url|website)\b")
_LISTS_SHEET = re.compile(r"(?i)^(?:lists?|lookups?|look-?up (?:lists?|tables?|values)|drop-?downs?|drop-?down lists?|"
                          r"validation(?: lists?)?|data validation|options|choices|picklists?|ref(?:erence)? lists?|"
                          r"dictionar(?:y|ies)|dict|mappings?|legend|settings|config(?:uration)?|parameters)$")

# a column name that is a figure ("$250.00", "1,089.00", "60", "12%"), not a year: the reader took a data row, or a
# label-and-value block ("Unit Cost: | $250.00 | per set"), for the header row; its "columns" name nothing
_FIGURE_NAME = re.compile(r"^\(?[-+]?(?:[$€£¥₹]|[A-Z]{3}\s?)?\d[\d,]*(?:\.\d+)?\s*%?\)?$")
# a statistics tool's output (Excel's regression and ANOVA sheets): "the t Stat for Price of Ice Cream" is no
# question a person with the folder asks (session 53's reporting read)
_STATISTICS = frozenset({"coefficients", "standard error", "t stat", "t-stat", "p-value", "p value", "lower 95%",
                         "upper 95%", "lower 95.0%", "upper 95.0%", "significance f", "multiple r", "r square",
                         "adjusted r square", "intercept", "residual", "residuals", "anova", "ss", "ms", "df",
                         "f crit", "p(t<=t) one-tail", "p(t<=t) two-tail", "t critical one-tail", "t critical two-tail",
                         "hypothesized mean difference", "pooled variance", "observations", "standard deviation",
                         "sample variance", "kurtosis", "skewness", "confidence level(95.0%)"})
_KEYED_BY_ID = re.compile(r"(?i)^(?:order|emp|employee|customer|cust|user|product|item|student|invoice|transaction|"
                          r"txn|account|member|patient|client|staff|record|ticket|case|row|sale|sales)[ _-]?id$")


def table_refusal(head: Sequence[str], rows: Sequence[str], sheet: str) -> str:
    """Why a table (its column line `head`, its row lines, its sheet's name) gives no question ("" when it may);
    the rules are tried in this order, the first that holds names the refusal."""
    columns = head[1:]
    if columns and all(_LETTERS.match(c) for c in columns):
        return "grid_header_letters"  # the reader found no header row: A, B, C name nothing
    why_table = _table_refusal(head, rows)
    if why_table:
        return why_table
    letters = [c for line in rows for c in cells(line)[1:] if c]
    if len(columns) >= 3 and letters and sum(1 for c in letters if re.fullmatch(r"[RACIS](?:\s*/\s*[RACIS])?", c)) >= 0.7 * len(letters):
        # a RACI matrix: "What is the finance director for Enhance Customer Relationships?" → "C" (session 56's fourth
        # unseen folder) asks a role's letter as if it were the role's value
        return "grid_table_raci"
    labels = Counter(fold(cells(line)[0]) for line in rows if line.strip())
    if any(n > 1 for label, n in labels.items() if label):
        # a label written twice in one table ("Greater Accra" in a survey's answers, an agent's listings, a
        # day's orders): its first column keys no row, it is one of the record's fields; which row a question
        # means is a guess (session 55's tuning)
        return "grid_row_label_repeated"
    if (_ID_COLUMN.search(head[0].strip()) or re.search(r"[a-z](?:ID|Id)$", head[0].strip())
            or _KEYED_BY_ID.match(head[0].strip()) or _CONTACT.search(head[0])
            or "id" in re.split(r"[\s_]+", head[0].strip().lower())):  # "movie_id_title": ids and names
        # rows keyed by an identifier ("EmpID": "RM207") or an address ("Email"): no person asks for a row so
        return "grid_row_label_id"
    if _RECORD_KEY.search(head[0]) and len(columns) >= 5:
        # "Agent | Date list | Area | List price | … | Type": a log of records each made by a person; the
        # person keys no row ("the type for Deli" is one listing of several, whichever the chunk held)
        return "grid_row_label_repeated"
    if head[0] == "columns" and any(c in ("", "—", "-") for c in columns):
        # no name over the row labels and unnamed columns beside them: a form's blocks side by side ("Rent and
        # mortgage | 4,500.00 | … | Phone | 250.00 | … | (30.00)"), whose last figure is another block's
        return "grid_header_partial"
    if len(head[0]) > _NAME_CHARS:
        # the row labels' column named by a sentence ("Select a period to highlight at right. … MISSION"): a
        # template's instructions over a planner's header rows, not a table's keys
        return "grid_row_label_long"
    if any(not r[0] and any(r[1:2]) and not re.search(r"\d", r[1]) for r in map(cells, rows)
           if len(r) == len(columns) + 1) and any(fold(cells(line)[0]) for line in rows):
        # a label over a group of rows ("Bikes | Mountain Bikes | 300" then " | Road Bikes | 200"): the label
        # keys no one row ("What is the subcategory for Bikes?" is one of many; session 55's reporting read)
        return "grid_row_label_grouped"
    if _dated_log(columns, rows):
        # "2017-12-16 | Lolin LTD | €6,900.00 | …": an invoice log, each row a record of its day; "What is the
        # company on 2017-12-16" asks a day nobody names a record by (tuning folder A: 9 of 30 once the logs' repeated
        # dates were refused)
        return "grid_row_label_date_log"
    if _LISTS_SHEET.match(re.sub(r"\s*\(hidden\)$", "", sheet).strip()):
        # a lookup sheet: independent lists set side by side on shared rows (absence types beside employees),
        # a row's cells belong to no one label ("the type of absence for Employee 4"; round 1's held-out read)
        return "grid_lists_sheet"
    return ""


_DATED = re.compile(r"^\d{4}-\d\d-\d\d(?: \d\d:\d\d(?::\d\d)?)?$|^\d{1,2}/\d{1,2}/\d{2,4}$")


def _dated_log(columns: Sequence[str], rows: Sequence[str]) -> bool:
    """Whether a table's rows are keyed by their day (most labels a date) and record a thing by name in some column
    (most of its cells words without a figure: a company, a product type): a log, not a daily series ("2020-03-15 |
    1,204" new cases, still asked)."""
    table = [r for r in map(cells, rows) if len(r) == len(columns) + 1 and r[0]]
    if not table or sum(bool(_DATED.match(r[0])) for r in table) * 2 < len(table):
        return False
    for at in range(1, len(columns) + 1):
        values = [r[at] for r in table if r[at]]
        if values and sum(bool(re.search(r"[A-Za-z]", v)) and not re.search(r"\d", v) for v in values) * 2 > len(values):
            return True
    return False


def _table_refusal(head: Sequence[str], rows: Sequence[str]) -> str:
    """Why a whole table gives no question ("" when it may): its header row is data or a label-and-value block
    (grid_header_is_data), or it is a statistics tool's output (grid_statistics, two of its names or more)."""
    names = [c.strip() for c in head]
    if any(_FIGURE_NAME.match(c) and not _YEAR.match(c) for c in names[1:]) or any(c.endswith(":") for c in names if c):
        return "grid_header_is_data"
    if any(_MONEY_IN_NAME.search(c) for c in names[1:]):
        # "Forecast €88.00 | Reported €90.00 | Awards Ribbons / Plaques / Trophies | Forecast | Reported": a header
        # row run into its first figures, two blocks side by side under it ("which had the higher forecast,
        # Transport or Postage?" → Postage, read from the block beside; tuning folder A)
        return "grid_header_is_data"
    if names[0] not in ("", "columns") and fold(names[0]) in {fold(c) for c in names[1:]}:
        # "Row Labels | Count of gender | Row Labels | Count of race/ethnicity | Count of reading score": pivot tables
        # set side by side, the row labels' column written again for each; a row's later cells are another pivot's
        # ("the number of reading score for female" → 1000, the held-out read)
        return "grid_side_by_side"
    corner = _last_word(names[0])
    if corner and sum(_last_word(c) == corner for c in names[1:]) >= 1:
        # "Duplicate Values Salesman | Duplicate Values Sales | Icon Sets Salesman | Icon Sets Sales": tables set
        # side by side, each titled over its columns; a row's label keys only the first
        return "grid_side_by_side"
    firsts = [c.split()[0] for c in names[1:] if len(c.split()) >= 2]
    first = firsts[0].lower() if firsts else ""
    if (len(firsts) >= 2 and len(set(firsts)) == 1 and len(firsts) == len([c for c in names[1:] if c not in ("", "—")])
            and first not in _MEASURES and first not in _PIVOT and first not in ("max", "min", "avg", "net", "gross")):
        # "DimStore TYPE | DimStore LENGTH | DimStore description": a merged title spread over the columns
        # ("the DimStore type for OpenDate"); the reader's header is the title and the names run together
        return "grid_header_title_prefix"
    words = [fold(c) for c in names] + [fold(cells(line)[0]) for line in rows]
    if sum(w in _STATISTICS for w in words) >= 2:
        return "grid_statistics"
    return ""


def _last_word(name: str) -> str:
    words = re.findall(r"[a-z]+", name.lower())
    return words[-1] if words and words[-1] not in ("columns", "labels") else ""


# a scoring or decision matrix's sign: the sheet, its title row or a column names weights, scores or ratings
_SCORING = re.compile(r"(?i)\b(?:weights?|weighted|weighting|scores?|scoring|ratings?|rated|matrix|criteria|"
                      r"criterion|decision|evaluation|assessment)\b")
_RATING = re.compile(r"^\d{1,2}(?:\.\d+)?$")


def _criteria(where: str, head: Sequence[str], rows: Sequence[str]) -> set[int]:
    """The columns (their indexes among the columns) that are a scoring matrix's criteria, asked nowhere: in a sheet
    that says it scores ("Brock Scores", a "Weight" or "Total score" column, a "Decision Matrix" title), two columns or
    more whose every cell is a rating of 0–10 ("Cost | Reliability | Ease of use": 3 | 5 | 4). "What is the cost for
    Belt Fed" → 3 reads as a price (session 55's reporting read); a column that names its score ("Cost score",
    "Weighted total") is left to be asked as it says."""
    columns = head[1:]
    # a column named "Weight" may weigh a part in kilograms: only the sheet or its title says "weights" alone
    if not (_SCORING.search(where) or any(_SCORING.search(re.sub(r"(?i)\bweights?\b", "", c)) for c in head)):
        return set()
    table = [cells(line) for line in rows if line.strip()]
    # the rows a label keys: a legend or weights row under the matrix ("  |  | Scale: | Cheap-Expensive") is none
    table = [r for r in table if len(r) == len(columns) + 1 and r[0]]
    if not table:
        return set()  # one row is enough: the sheet's name already says it scores (a chunk may hold one row of it)
    rated = set()
    for at in range(len(columns)):
        values = [r[at + 1] for r in table if r[at + 1]]
        if values and all(_RATING.match(v) and float(v) <= 10 for v in values):
            rated.add(at)
    if len(rated) < 2:
        return set()
    return {at for at in rated if not _SCORING.search(columns[at]) and not re.search(r"(?i)\b(?:total|points?|rank)\b",
                                                                                      columns[at])}


def _finer(corner: str, column: str) -> bool:
    """Whether a column is finer than the row labels' ("SubCategory" beside "Category", "Sub-region" beside
    "Region"): each label has many."""
    inner = re.sub(r"(?i)^sub[\s_-]*", "", column.strip())
    return inner != column.strip() and bool(corner.strip()) and fold(inner) == fold(corner)


def _gaps(columns: Sequence[str], rows: Sequence[str]) -> int | None:
    """The index of the first unnamed column left empty in every row, past a named one: the gap between two blocks
    set side by side ("Item | Cost |  | Sponsor | Amount"); the cells right of it are the other block's."""
    table = [cells(line) for line in rows if line.strip()]
    table = [r for r in table if len(r) == len(columns) + 1]
    for at, column in enumerate(columns):
        if at and column in ("", "—", "-") and table and all(not r[at + 1] for r in table):
            return at
    return None


def _after_gap(values: Sequence[str], at: int) -> bool:
    """Whether a row's cell comes after a run of two empty cells or more that follows a filled one ("Day 1 venue
    hire | 960.00 |  |  | 9,200": 9,200 is a sponsors block's beside it, session 55's reporting read)."""
    seen, empty = False, 0
    for value in values[:at]:
        if value:
            seen, empty = True, 0
        else:
            empty += 1
    return seen and empty >= 2
