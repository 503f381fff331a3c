"""Facts from the tables of workbooks and decks: (table, row label, column, value), asked as a person with the
folder would ("What is the unit price of A-102 in the Price List sheet of the Inventory workbook?").

corpus_tools/xlsx_reader.py (and pptx_reader.py for a slide's table) writes each table under its column line,
one row a line, cells split by " | ", the row label first:

    (Item) | Unit Price | Stock
    A-102 | $1,200.00 | 14

Unlike a filing's table (datagen.table_facts, whose columns must be periods), a sheet's columns are anything: a
year, a measure, a name. A fact is a row's cell under its column, the value kept as the sheet shows it ("12.5%",
"$1,200.00", "2023-03-31"): that is what the verifier finds in the passage. The table is named by what a user
sees: the workbook (its title, else its file name), the sheet (its section, "(hidden)" left out: a hidden sheet
is still the user's data, and the question names the sheet as its tab reads) and the title row above the table
(its caption), so the question says enough for one answer in the folder (`unique_grid_facts`).

A chunk can hold the end of one table and the start of the next (a sheet's column groups, two tables of one
sheet): the column line in the text starts each table, and only the rows before any column line are read under
the columns the chunk's contextual header carries (the table it continues). A row at a chunk's end whose trailing
cells are empty lost their last space to the chunk's trim ("Zhou Qi | 2.5 |  |"): it is read whole; a row of
another width than its columns is not read (counted).

Refused, each counted in `skipped` (no question is better than a wrong one):
- grid_header_is_data: a column named by a figure ("$250.00", "60"; a year is a column's name) or a name ending in
  ":" ("Unit Cost:"): the header row is a data row or a label-and-value block;
- grid_statistics: a statistics tool's output (two names or more of "Coefficients", "t Stat", "P-value", "df",
  "Intercept", …: regression, ANOVA, descriptive statistics);
- grid_column_plural: a one-word measure in the plural that names one figure ("Averages", "Scores");
- grid_column_merged: a named column followed by an unnamed one (a name over merged cells: its first cell is
  one of several under it);
- grid_column_not_a_measure: a column whose name names no measure (amount, price, score, …, a unit) and no
  attribute (manager, city, date, …): a value of a category ("West Coast", "English", "Jan"), a verb ("Added"), a
  code ("DET"); grid_value_not_a_figure / grid_value_not_a_name: a measure's cell without a figure, an attribute's
  that is a bare number; a plural count noun ("Guests") is said "number of guests";
- grid_row_label_repeated: a table whose row labels repeat (a log's days, a survey's regions), or a log of five
  columns or more keyed by the person who made each record ("Agent", "Rep", "Customer"): no row key;
- grid_header_partial: no name over the row labels and an unnamed column beside them (blocks side by side);
- grid_header_title_prefix: every column's name opens with one word ("DimStore TYPE | DimStore LENGTH"): a merged
  title run into the names;
- grid_row_label_in_column: a label that is a word of its column's name ("Average" under "Average Salary");
- grid_row_label_id: rows keyed by an identifier column ("EmpID"); grid_row_label_colon: a label ending in ":";
- grid_total_unnamed: a total row's cell under a column named only "Total" / "Amount" (the total of what?);
- grid_side_by_side: a column whose last word is the row labels' column's ("Icon Sets Salesman" beside
  "Duplicate Values Salesman"): tables side by side under one header row;
- grid_row_side_by_side: a row that repeats its label among its values (tables set side by side);
- grid_without_header: rows with no column line and no columns in the chunk's header (the header row was lost);
- grid_header_letters: a table the reader found no header row for (its columns are the sheet's letters A, B, …);
- grid_row_misaligned: a row of another width than its columns;
- grid_column_repeated / grid_column_unnamed: a column name written twice (a title spread over merged cells) or
  empty, or one that is a sentence (over 60 characters);
- grid_column_id: an identifier or a running number ("ID", "#", "No."): its value names the row, asks nothing;
- grid_row_label_*: no label, a running number ("1", "2", …: which row is "3"?) or a measurement ("4.6": a wine's
  acidity keys no row), or a label over 60 characters;
- grid_value_empty / grid_value_error (#DIV/0!, #N/A …) / grid_value_placeholder (TRUE, Yes, —) /
  grid_value_free_text (a sentence: over 40 characters or 6 words), grid_value_scientific ("6.13999E-06"), grid_value_zero ("0", "$0.00": no figure to
  look for), and grid_value_is_label (the value repeats its row label or column); a column of notes or comments
  (grid_column_free_text).
- grid_lists_sheet: a lookup sheet ("Lists", "Dropdowns", "Data Validation"): lists side by side on shared rows;
- grid_column_criterion: a scoring matrix's criterion ("Cost" rated 1–5 in a "Scores" sheet): no price, no count;
- grid_cell_other_block: a cell right of an unnamed column empty in every row, or after two empty cells or more
  past a filled one: a block set beside the row's ("960.00 |  |  | 9,200");
- grid_row_label_grouped: a label over a group of rows (the rows below name their item in the next column, their
  own label empty): it keys no one row; grid_column_phrase: a column finer than the labels ("SubCategory" beside
  "Category") or named with "for" / "of the" / "if" ("Probability value for EV"); grid_row_label_stray: a stray
  key in a label ("7.8`");
A pivot table is asked as its reader says it: its "Grand Total" row as the total ("What is the total net revenue in
…?"), its "Sum of X" / "Average of X" fields as "total X" / "average X", a day label's midnight dropped.
A row label that repeats within its table, or two tables of the folder that give one question two answers, are
refused by `unique_grid_facts` (grid_ambiguous).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from datagen.factbase import Fact
from datagen.mining import fold
from datagen.types import TruthType

GRID = "grid:"  # the relation prefix of a grid fact: "grid:<table>|<row>|<column>"
# The files whose tables are read here: workbooks and decks. A filing's tables are datagen.table_facts', a
# documentation page's datagen.doc_reference's: their facts stay as they were.
GRID_SUFFIXES = (".xlsx", ".xlsm", ".pptx")
_SEP = " · "  # corpus_tools.chunk_context's separator
_NAME_CHARS = 60
_VALUE_CHARS = 40
_ERRORS = frozenset({"#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!", "#SPILL!", "#CALC!",
                     "#GETTING_DATA"})
_PLACEHOLDERS = frozenset({"true", "false", "yes", "no", "y", "n", "x", "-", "—", "–", "n/a", "na", "none", "null",
                           "tbd", "?", "..."})
_ID_COLUMN = re.compile(r"(?i)^(?:#|no\.?|nr\.?|n°|s\.?\s?no\.?|sr\.?\s?no\.?|row|index|id|key|uid|uuid|guid)$|"
                        r"\b(?:id|ID|uuid|guid)$")
_LETTERS = re.compile(r"^[A-Z]{1,3}$")
_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")  # a running number, or a measurement ("4.6") keying no row
# a table's total row: "Grand Total" of a pivot table, Excel's Spanish "Total general"
TOTAL_ROW = re.compile(r"(?i)^(?:grand total|total general|totals?|sub-?total|overall|sum)$")
# a pivot table's field names ("Sum of Net Revenue", "Average of price", "Count of Orders"): said as a person says them
_PIVOT = {"sum": "total", "average": "average", "count": "number of", "max": "maximum", "min": "minimum",
          # a pivot table made in a Polish, German, Spanish or French Excel ("Średnia z Age": "average age"; session
          # 55's tuning read asked "the średnia z age for Matthew Marshall")
          "suma": "total", "średnia": "average", "licznik": "number of", "liczba": "number of", "summe": "total",
          "mittelwert": "average", "anzahl": "number of", "promedio": "average", "cuenta": "number of",
          "somme": "total", "moyenne": "average"}
_PIVOT_FIELD = re.compile(r"(?i)^(sum|average|count|max|min) of (.+)$|"
                          r"^(suma|średnia|licznik|liczba|summe|mittelwert|anzahl|promedio|cuenta|somme|moyenne) "
                          r"(?:z|von|de) (.+)$")
_ZERO_TIME = re.compile(r"^(\d{4}-\d\d-\d\d) 00:00(?::00)?$")  # a day written with its midnight: the day
_YEAR = re.compile(r"^(?:FY\s?)?(?:1[5-9]|20)\d\d$")
_DAY = re.compile(r"^\d{4}-\d\d-\d\d$")
# a column of sentences: what a note says is no figure a person looks up by its row
_FREE_TEXT_COLUMN = re.compile(r"(?i)^(?:notes?|comments?|remarks?|descriptions?|details?|explanation|memo|url|link|email)$")
_RECORD_KEY = re.compile(r"(?i)^(?:sales\s?)?(?:agent|rep|salesman|salesperson|seller|buyer|cashier|driver|customer|"
                         r"client|vendor|supplier|representative)s?$")
_CONTACT = re.compile(r"(?i)\b(?:e-?mail|username|user name|login|phone|mobile|url|website)\b")
_LISTS_SHEET = re.compile(r"(?i)^(?:lists?|lookups?|look-?up (?:lists?|tables?|values)|drop-?downs?|drop-?down lists?|"
                          r"validation(?: lists?)?|data validation|options|choices|picklists?|ref(?:erence)? lists?)$")
_GENERIC_SHEET = re.compile(r"(?i)^(?:sheet|tabelle|feuil|hoja|foglio|table|data|tabelle)\s*\d*$")
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


@dataclass(frozen=True)
class GridKey:
    """What a grid fact says, read back from its relation: the table's name (as a question says it), row, column."""

    table: str
    row: str
    column: str

    def relation(self) -> str:
        return f"{GRID}{self.table}|{self.row}|{self.column}"


def grid_key(fact: Fact) -> GridKey | None:
    """The table, row and column of a fact `grid_facts` wrote; None for any other fact."""
    if not fact.relation.startswith(GRID):
        return None
    parts = fact.relation[len(GRID):].split("|")
    if len(parts) != 3:
        return None
    return GridKey(*parts)


def is_grid_source(metadata: Mapping[str, Any]) -> bool:
    """Whether a chunk comes from a workbook or a deck (see GRID_SUFFIXES)."""
    source = str(metadata.get("source") or metadata.get("file_name") or "").lower()
    return source.endswith(GRID_SUFFIXES)


def cells(line: str) -> list[str]:
    """A row's cells; a row whose trailing empty cells lost their last space to a chunk's trim is read whole."""
    if line.endswith(" |"):
        line += " "
    return [c.strip() for c in line.split(" | ")]


def _column_line(line: str) -> list[str] | None:
    """(corner, column …) of a table's column line "(Item) | Unit Price | Stock"; None for any other line."""
    if not line.startswith("(") or " | " not in line:
        return None
    found = cells(line)
    if not found[0].endswith(")"):
        return None
    return [found[0][1:-1], *found[1:]]


def _context(metadata: Mapping[str, Any]) -> tuple[str, list[str]]:
    """(caption, columns) the chunk's contextual header carries for the table it continues: the bit before the
    columns is the caption unless it is the title or the section (corpus_tools.chunk_context writes those first)."""
    bits = str(metadata.get("header", "")).split(_SEP)
    at = next((i for i, b in enumerate(bits) if b.startswith("columns: ")), None)
    if at is None:
        return "", []
    caption = bits[at - 1] if at >= 1 else ""
    if caption in (str(metadata.get("title") or ""), str(metadata.get("section") or "")):
        caption = ""
    return caption, cells(bits[at][len("columns: "):])


def book_name(title: str, source: str) -> str:
    """The workbook as a question names it: its title ("Rental Arbitrage Analyzer — The STR Ledger" → its first
    part), else its file name without folders, suffix or underscores ("sales_2023.xlsx" → "sales 2023")."""
    name = title.split(" — ")[0].split(" | ")[0].strip() if title else ""
    if not name or name.lower().endswith(GRID_SUFFIXES):
        stem = PurePosixPath(source or name).name
        name = re.sub(r"\.(?:xlsx|xlsm|pptx)$", "", stem, flags=re.IGNORECASE)
        name = " ".join(name.replace("_", " ").split())
    return name


def table_name(book: str, sheet: str, caption: str, deck: bool = False) -> str:
    """"the Price List sheet of the Inventory workbook" (a generic tab, "Sheet1", is left out; the title row above
    the table, when it is not the sheet's name, goes first: "the Budget 2023 table in the …"); a deck's table:
    "the Results slide of the Q3 Review deck"."""
    sheet = re.sub(r"\s*\(hidden\)$", "", sheet).strip()
    noun, part = ("deck", "slide") if deck else ("workbook", "sheet")
    where = f"the {book} {noun}" if book else f"the {noun}"
    if sheet and not _GENERIC_SHEET.match(sheet):
        where = f"the {sheet} {part} of {where}"
    # a caption as a document numbers and introduces it ("Table 1 Risk Likelihood Framework:") is said without its
    # number, its colon and a second "table" (session 55's reporting read: "the Table 1 Risk Likelihood Framework: table")
    caption = re.sub(r"(?i)^table\s+\d+[.:]?\s+|\s*:\s*$|\s+table$", "", caption.strip())
    if caption and fold(caption) not in (fold(sheet), fold(book)) and len(caption) <= _NAME_CHARS:
        where = f"the {caption} table in {where}"
    return where


def _pivot_parts(pivot: re.Match) -> tuple[str, str]:
    """(the function, the field) of a pivot field's name, English or another Excel's ("Średnia z Age")."""
    return (pivot.group(1), pivot.group(2)) if pivot.group(1) else (pivot.group(3), pivot.group(4))


def _column_phrase(column: str) -> str:
    """A column name as it reads inside a question: "Unit Price" → "unit price"; acronyms ("GDP"), names with
    capitals inside ("iPhone") and years stay; a pivot table's "Sum of Net Revenue" → "total net revenue"."""
    pivot = _PIVOT_FIELD.match(column.strip())
    if pivot:
        said, inner = _PIVOT[_pivot_parts(pivot)[0].lower()], _column_phrase(_pivot_parts(pivot)[1])
        if said in ("total", "average") and re.search(r"[a-z]$", inner) and inner.split()[-1] in _COUNTS:
            inner += "s"  # "Sum of new_case": "total new cases"
        return inner if inner.startswith(f"{said} ") else f"{said} {inner}"  # "Sum of Total Funding": "total funding"
    # a unit in brackets after the name ("Cost ($)", "Unit Price (USD)"): the answer carries the figure, the
    # question the measure ("the cost ($) for Button" reads badly; session 55's tuning read)
    column = re.sub(r"\s*[(\[][^)\]]*[)\]]$", "", column.strip()) or column if re.search(
        r"[A-Za-z]", re.sub(r"[(\[][^)\]]*[)\]]$", "", column)) else column
    column = " ".join(column.replace("_", " ").split()) if re.search(r"[a-z]_[a-z]", column) else column  # cvap_turnout
    # a header in capitals ("TOTAL SALES") is said in lower case; an acronym ("GDP") stays
    shouted = all(w.isupper() for w in re.findall(r"[A-Za-z]+", column)) and len(re.findall(r"[A-Za-z]{2,}", column)) > 1
    column = " ".join(w.lower() if (len(w) > 3 or shouted) and w.isupper() and w.isalpha() and w.lower() not in _ACRONYMS
                      else w for w in column.split())  # "PAYMENTS PER YEAR": "payments per year"
    words = column.split()
    if all(w[1:].islower() or not w[1:] for w in words if w[:1].isalpha()):
        column = column.lower()  # "Unit Price", "Unit count": "unit price", "unit count"
    counted = re.match(r"(?i)^count\s+(?!of\b)(.+)$", column)
    if counted and _kind(column) == "count":
        return f"number of {counted.group(1)}"  # a pivot's "Count Staff": "number of staff"
    if _kind(column) == "count" and not re.match(r"(?i)(?:total|number|count|no\b|#|avg|average)", column):
        return f"number of {column}"  # "Guests": "the number of guests"
    return column


def row_phrase(row: str) -> str:
    """"A-102"; a log's day "2023-03-31" (or "2023-03-31 00:00:00") reads "on 2023-03-31"."""
    row = _ZERO_TIME.sub(r"\1", row)
    return f"on {row}" if _DAY.match(row) else f"for {row}"


def ask_grid(key: GridKey) -> str:
    """"What is the unit price for A-102 in the Price List sheet of the Inventory workbook?"; a year column:
    "What is the value for Chile in 2007 in …?"; a total row: "What is the total net revenue in …?"."""
    phrase = _column_phrase(key.column)
    # "What are the costs for Mar", never "What is the costs": a plural measure's verb ("total costs" stays "is")
    verb = "are" if _plural(phrase) else "is"
    if TOTAL_ROW.match(key.row.strip()):
        return f"What {verb} the {'' if phrase.startswith('total ') else 'overall '}{phrase} in {key.table}?"
    if _YEAR.match(key.column):
        return f"What is the value {row_phrase(key.row)} in {key.column} in {key.table}?"
    return f"What {verb} the {phrase} {row_phrase(key.row)} in {key.table}?"


def _plural(phrase: str) -> bool:
    """Whether a column's phrase is a plural measure ("costs", "expenses", "sales"); one that opens with a total,
    an average or a number ("total costs", "number of guests") is said with "is"."""
    # "payments per year": "payments"; "cost of sales": "cost"
    words = re.split(r"\s+(?:per|by|in|of)\s+", phrase.lower())[0].split()
    if not words or re.match(r"(?:total|average|number|count|overall|net|gross)\b", words[0]) and len(words) > 1:
        return False
    # the head noun decides: "direct costs", "venue costs" are "are" (session 55's reporting read: "What is the venue
    # costs for …", mended after it)
    return re.sub(r"[^a-z]", "", words[-1]) in _PLURAL_MEASURES


def _refusal(label: str, column: str, value: str) -> str:
    """Why a cell gives no question ("" when it gives one)."""
    if not value:
        return "grid_value_empty"
    if value.upper() in _ERRORS:
        return "grid_value_error"
    if fold(value) in _PLACEHOLDERS:
        return "grid_value_placeholder"
    if len(value) > _VALUE_CHARS or len(value.split()) > 6:
        return "grid_value_free_text"
    if fold(value) in (fold(label), fold(column)):
        return "grid_value_is_label"
    if re.fullmatch(r"[-+]?\d(?:\.\d+)?E[-+]?\d+", value, flags=re.IGNORECASE):
        return "grid_value_scientific"  # "6.13999E-06": a normalised matrix's figure, no one looks it up so
    if re.fullmatch(r"[$€£(-]*0(?:[.,]0+)?%?\)?", value):
        return "grid_value_zero"  # "0", "0.00", "$0.00": no figure to look for
    return ""


def _label_refusal(label: str) -> str:
    if not label or not re.search(r"[A-Za-z0-9]", label):
        return "grid_row_label_missing"
    if _NUMBER.match(label.replace(",", "")):
        return "grid_row_label_number"
    if len(label) > _NAME_CHARS or label.rstrip().endswith("?") or len(label.split()) > 6:
        return "grid_row_label_long"  # a sentence or a question ("What are the 5 highest COSTS OF ACTIVITY?")
    if re.fullmatch(r"\d+(?:\.\d+){2,}\.?", label.strip()):
        return "grid_row_label_id"  # an outline number ("1.4.2" of a work breakdown): which task is "1.4.2"?
    if re.match(r"^\d+\s*[:.)]\s*\S", label) and not re.match(r"^\d+\.\d", label):
        return "grid_row_label_id"  # "124:Parasite", "3) Rent": a running number joined to the name
    if re.match(r"^\d{5,}\s*-\s*\d*\s*[A-Za-z]", label):
        # "1204514267-Attribute Dice", "1950581568-53 Films": a record's number joined to its name (a range of
        # figures, "113920-123919", is a band's label and stays)
        return "grid_row_label_id"
    if "@" in label or re.match(r"(?i)^(?:https?://|www\.)", label):
        return "grid_row_label_id"  # an e-mail address or a web address keys no row a person asks for
    if label.rstrip().endswith(":"):
        return "grid_row_label_colon"
    if re.search(r"[`~^\\{}<>]", label):
        return "grid_row_label_stray"  # "7.8`": a stray key in the cell; the question would carry it  # "Loans: | INR10,000.00": a label-and-value block, not a table's row
    return ""


# What a column must name for its cells to be asked (session 53's reporting read: "What is the west coast for Men's
# Wear", "the english for Alison Cox", "the added for A-102"): its head noun ("Unit Price" → price, "Date of Birth" →
# date, "NightlyRate" → rate) is a measure, a noun that takes a figure, or an attribute, a noun whose value names a
# thing (a manager, a city, a day). A column named by a value of a category (a region, a product, a subject, a
# month), a verb ("Added") or a code ("DET") is refused (grid_column_not_a_measure): no rule rescues it.
_MEASURES = frozenset("""
amount total sum subtotal count number qty quantity price cost revenue sales sale turnover profit loss income expense
expenditure spend spending budget actual actuals forecast target variance difference change growth balance salary wage
pay payment rate ratio score grade mark point percent percentage pct share proportion average avg mean median margin
value hour minute duration age weight height length width depth size area volume distance speed temperature population
case death rating rank ranking stock inventory discount tax fee charge earnings deposit withdrawal debt interest
capacity attendance vote enrollment enrolment gpa cgpa mrp rent commission bonus premium return yield gdp inflation
frequency usage consumption production output demand supply allowance saving savings investment cash asset liability
equity dividend valuation markup credit debit funding fund grant cogs ebitda roi kpi npv irr mileage calories
attempt result km kg lb mph usd eur gbp inr % #
""".split())
_COUNTS = frozenset("""
guest night bedroom bathroom room bed seat employee worker staff student customer order item unit visitor member
participant player game win goal run hit ticket call passenger copy download view click session user transaction
applicant patient service product book page hour day week month year household people person child adult death case
vote response respondent complaint defect error incident shipment delivery review like follower subscriber attendee
store branch credit assist point vehicle car bike class course lesson absence
""".split())
_ATTRIBUTES = frozenset("""
manager owner city country state region location address category status type product customer client supplier vendor
department team role position date deadline complexity priority level instructor teacher course subject model brand
color colour genre director author publisher language currency method mode channel source destination venue shift
supervisor sport opponent winner captain coach major semester term season property site branch store department
warehouse office district province county continent nationality occupation industry sector segment tier group
designation company employer school university college campus platform device payee payer day
""".split())


# measures said in the plural ("What are the costs for Mar"); another measure's plural ("Averages", "Scores" over
# one cell) names one figure in the plural, and is refused (grid_column_plural)
_PLURAL_MEASURES = frozenset({"costs", "expenses", "sales", "earnings", "savings", "profits", "revenues", "losses",
                              "fees", "taxes", "wages", "expenditures", "payments", "deposits", "withdrawals",
                              "dividends", "charges", "proceeds", "receipts", "actuals"})
_ACRONYMS = frozenset({"ebitda", "cogs", "cgpa", "usd", "eur", "gbp", "inr", "sgpa", "arpu", "mrr", "arr"})
_KEYED_BY_ID = re.compile(r"(?i)^(?:order|emp|employee|customer|cust|user|product|item|student|invoice|transaction|"
                          r"txn|account|member|patient|client|staff|record|ticket|case|row|sale|sales)[ _-]?id$")


def _kind(column: str) -> str:
    """What a column's name names, by its head noun ("Unit Price (USD)" → price, "Date of Birth" → date,
    "HourlyRate" → rate): "measure", "count" (a plural noun counted: "Guests", said "number of guests"),
    "attribute", or "" (none of these)."""
    text = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", column)
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ")
    text = re.split(r"(?i)\s+(?:of|per|in|for|by|from|to|vs\.?)\s+", text.strip())[0]
    words = re.findall(r"[A-Za-z]+|[%#]", text)
    if not words:
        return ""
    word = words[-1].lower()
    singular = next((w for w in (word[:-3] + "y" if word.endswith("ies") else "", word[:-2] if word.endswith("es") else "",
                                 word[:-1] if word.endswith("s") and not word.endswith("ss") else "")
                     if w and (w in _COUNTS or w in _MEASURES or w in _ATTRIBUTES)), "")
    if word == "numbers":
        return ""  # "Post Season Numbers": figures of what?
    if word in _MEASURES:
        return "measure"
    if singular in _COUNTS or word in ("staff", "people"):
        return "count"
    if singular in _MEASURES:
        return "measure"  # "Expenses", "Sales", "Points"
    if word in _ATTRIBUTES:
        return "attribute"
    return ""


def _column_refusal(column: str, value: str) -> str:
    """Why a cell's column gives it no question ("" when it may): its name names no measure or attribute, or the
    value is not of the kind the name says (a measure's value holds a figure; an attribute's is no bare number)."""
    if _YEAR.match(column.strip()):
        # a year's column: "the value for Chile in 2007", a figure ("Excitables" in 2019, a team's name in a
        # league's history, is no value of a year)
        return "" if re.search(r"\d", value) else "grid_value_not_a_figure"
    if re.search(r"[A-Za-z]-[A-Z]|[A-Za-z] - [A-Za-z]|\s\S+[a-z]%$", column):
        # "Target-Actuals", "Actuals - Target %", "Target Actuals%": a formula's name, not a measure's
        return "grid_column_not_a_measure"
    if re.search(r"\d", column) and not re.search(r"(?i)\b(?:q[1-4]|h[12]|fy)\b|(?:1[5-9]|20)\d\d", column):
        return "grid_column_not_a_measure"  # "11 weeks", "Test 2": a column numbered, not named
    if not re.search(r"[A-Za-z]", column):
        return "grid_column_not_a_measure"  # "%" alone: the share of what? ("which had the higher %, Dec'15 or …")
    pivot = _PIVOT_FIELD.match(column.strip())
    kind = _kind(_pivot_parts(pivot)[1] if pivot else column)
    if re.match(r"(?i)count\s+(?!of\b)", column.strip()) and kind != "count":
        return "grid_column_not_a_measure"  # "Count Salary": a pivot's count of salaries, said as no one says it
    if pivot and kind not in ("measure", "count"):
        return "grid_column_not_a_measure"  # "Count of Guest Name": the number of what?
    if not kind:
        return "grid_column_not_a_measure"
    if kind == "attribute":
        return "grid_value_not_a_name" if _NUMBER.match(value.replace(",", "")) else ""
    word = column.strip().lower()
    if kind == "measure" and not pivot and word.endswith("s") and word not in _PLURAL_MEASURES and (
            word[:-1] in _MEASURES or word[:-2] in _MEASURES):
        return "grid_column_plural"  # "Averages" over one cell: "What are the averages for Denetclaw" reads wrong
    if "%" in value and _MONEY_HEAD.search(column) and "%" not in column:
        return "grid_value_not_a_figure"  # "48%" as the amount of "% expense": a share under a sum's column
    return "" if re.search(r"\d", value) else "grid_value_not_a_figure"


_MONEY_HEAD = re.compile(r"(?i)\b(?:amount|cost|costs|price|revenue|sales|expenses?|income|salary|budget|spend|"
                         r"payment|balance|fee|rent)\b")


def _table_refusal(head: Sequence[str], rows: Sequence[str]) -> str:
    """Why a whole table gives no question ("" when it may): its header row is data or a label-and-value block
    (grid_header_is_data), or it is a statistics tool's output (grid_statistics, two of its names or more)."""
    names = [c.strip() for c in head]
    if any(_FIGURE_NAME.match(c) and not _YEAR.match(c) for c in names[1:]) or any(c.endswith(":") for c in names if c):
        return "grid_header_is_data"
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


def _tables(chunk: Any) -> list[tuple[str, list[str], list[str]]]:
    """(caption, [corner, columns …], rows) of each table a chunk holds, in order (see the module docstring)."""
    header = str((chunk.metadata or {}).get("header", ""))
    caption, columns = _context(chunk.metadata or {})
    blocks = [b.strip("\n") for b in chunk.text.split("\n\n")]
    blocks = [b for b in blocks if b.strip()]
    starts_here = any(_column_line(line) == [_corner(header), *columns] for b in blocks for line in b.split("\n"))
    out: list[tuple[str, list[str], list[str]]] = []
    for i, block in enumerate(blocks):
        lines = block.split("\n")
        head = _column_line(lines[0])
        if head is not None:
            # the title row just above the table (the lead text block before it) is its caption
            above = blocks[i - 1].split("\n")[-1] if i > 0 and _column_line(blocks[i - 1].split("\n")[0]) is None else ""
            out.append((above if " | " not in above else "", head, lines[1:]))
        elif i == 0 and not starts_here and " | " in block:
            # the rows of the table this chunk continues (its header row is in an earlier chunk)
            out.append((caption if " | " not in caption else "", [_corner(header), *columns] if columns else [], lines))
    return out


def _corner(header: str) -> str:
    """The row labels' column name: the last bit of the contextual header after the columns (render_table's units)."""
    bits = header.split(_SEP)
    at = next((i for i, b in enumerate(bits) if b.startswith("columns: ")), None)
    return bits[at + 1] if at is not None and at + 1 < len(bits) else "columns"


def grid_facts(chunk: Any, book: str, skipped: Counter) -> list[Fact]:
    """Every (table, row, column, value) fact of a workbook's or deck's table chunk (see the module docstring)."""
    sheet = str((chunk.metadata or {}).get("section", ""))
    out: list[Fact] = []
    for caption, head, rows in _tables(chunk):
        if not head:
            skipped["grid_without_header"] += len(rows)
            continue
        columns = head[1:]
        if columns and all(_LETTERS.match(c) for c in columns):
            skipped["grid_header_letters"] += len(rows)  # the reader found no header row: A, B, C name nothing
            continue
        why_table = _table_refusal(head, rows)
        if why_table:
            skipped[why_table] += len(rows)
            continue
        deck = str((chunk.metadata or {}).get("source") or "").lower().endswith(".pptx")
        where = table_name(book, sheet, caption, deck)
        repeated = {c for c, n in Counter(fold(c) for c in columns).items() if n > 1}
        labels = Counter(fold(cells(line)[0]) for line in rows if line.strip())
        if any(n > 1 for label, n in labels.items() if label):
            # a label written twice in one table ("Greater Accra" in a survey's answers, an agent's listings, a
            # day's orders): its first column keys no row, it is one of the record's fields; which row a question
            # means is a guess (session 55's tuning)
            skipped["grid_row_label_repeated"] += len(rows)
            continue
        if (_ID_COLUMN.search(head[0].strip()) or re.search(r"[a-z](?:ID|Id)$", head[0].strip())
                or _KEYED_BY_ID.match(head[0].strip()) or _CONTACT.search(head[0])
                or "id" in re.split(r"[\s_]+", head[0].strip().lower())):  # "movie_id_title": ids and names
            # rows keyed by an identifier ("EmpID": "RM207") or an address ("Email"): no person asks for a row so
            skipped["grid_row_label_id"] += len(rows)
            continue
        if _RECORD_KEY.search(head[0]) and len(columns) >= 5:
            # "Agent | Date list | Area | List price | … | Type": a log of records each made by a person; the
            # person keys no row ("the type for Deli" is one listing of several, whichever the chunk held)
            skipped["grid_row_label_repeated"] += len(rows)
            continue
        if head[0] == "columns" and any(c in ("", "—", "-") for c in columns):
            # no name over the row labels and unnamed columns beside them: a form's blocks side by side ("Rent and
            # mortgage | 4,500.00 | … | Phone | 250.00 | … | (30.00)"), whose last figure is another block's
            skipped["grid_header_partial"] += len(rows)
            continue
        if len(head[0]) > _NAME_CHARS:
            # the row labels' column named by a sentence ("Select a period to highlight at right. … MISSION"): a
            # template's instructions over a planner's header rows, not a table's keys
            skipped["grid_row_label_long"] += len(rows)
            continue
        if any(not r[0] and any(r[1:2]) and not re.search(r"\d", r[1]) for r in map(cells, rows)
               if len(r) == len(columns) + 1) and any(fold(cells(line)[0]) for line in rows):
            # a label over a group of rows ("Bikes | Mountain Bikes | 300" then " | Road Bikes | 200"): the label
            # keys no one row ("What is the subcategory for Bikes?" is one of many; session 55's reporting read)
            skipped["grid_row_label_grouped"] += len(rows)
            continue
        if _LISTS_SHEET.match(re.sub(r"\s*\(hidden\)$", "", sheet).strip()):
            # a lookup sheet: independent lists set side by side on shared rows (absence types beside employees),
            # a row's cells belong to no one label ("the type of absence for Employee 4"; round 1's held-out read)
            skipped["grid_lists_sheet"] += len(rows)
            continue
        criteria = _criteria(f"{book} {sheet} {caption}", head, rows)  # "the Weighted Decision Matrix workbook"
        gap = _gaps(columns, rows)
        for line in rows:
            row = cells(line)
            if len(row) != len(columns) + 1:
                skipped["grid_row_misaligned"] += 1
                continue
            label, values = row[0], row[1:]
            why = _label_refusal(label)
            if not why and any(fold(v) == fold(label) for v in values):
                # "David | 16,680 | David | 20,000": tables set side by side under one header row, each cell's
                # column a merged title's part ("Icon Sets Sales"); which cell answers which question is a guess
                why = "grid_row_side_by_side"
            if why:
                skipped[why] += 1
                continue
            for at, (column, value) in enumerate(zip(columns, values, strict=True)):
                if not value:
                    continue  # an empty cell states nothing; not counted per cell
                if at in criteria:
                    skipped["grid_column_criterion"] += 1  # a scoring matrix's rating, no price or count
                elif (gap is not None and at > gap) or _after_gap(values, at):
                    skipped["grid_cell_other_block"] += 1
                elif _finer(head[0], column) or re.search(r"(?i)\s(?:for|of the|if)\s", column.strip()):
                    # "SubCategory" under "Category": one of the label's many; "Probability value for EV": a
                    # question inside the column's name reads badly inside ours
                    skipped["grid_column_phrase"] += 1
                elif column not in ("", "—", "-") and at + 1 < len(columns) and columns[at + 1] in ("", "—", "-"):
                    # a name over merged cells ("Estimated Amount" over four trials): its first cell is one of them
                    skipped["grid_column_merged"] += 1
                elif fold(column) in repeated:
                    skipped["grid_column_repeated"] += 1
                elif not column or column in ("—", "-") or len(column) > _NAME_CHARS:
                    skipped["grid_column_unnamed"] += 1
                elif _ID_COLUMN.search(column.strip()):
                    skipped["grid_column_id"] += 1
                elif _FREE_TEXT_COLUMN.match(column.strip()):
                    skipped["grid_column_free_text"] += 1
                elif why := _refusal(label, column, value) or _column_refusal(column, value):
                    skipped[why] += 1
                elif not TOTAL_ROW.match(label.strip()) and fold(label) in (
                        fold(column).split() + fold(_column_phrase(column)).split()):
                    # the phrase too: "Average" under "Średnia z Age" (said "average age") is the pivot's summary row
                    # "the average salary for Average" (a rating's row): the label reads as the column's own word
                    skipped["grid_row_label_in_column"] += 1
                elif TOTAL_ROW.match(label.strip()) and _kind(column) == "measure" and fold(
                        _column_phrase(column)) in ("total", "sum", "amount", "subtotal", "value"):
                    skipped["grid_total_unnamed"] += 1  # "the overall TOTAL in …": the total of what?
                else:
                    key = GridKey(where, label, column)
                    out.append(Fact(
                        doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=line.rstrip(), subject=where,
                        about_doc=False, relation=key.relation(), answer=value,
                        kind=TruthType.NUMBER.value if re.search(r"\d", value) else TruthType.ENTITY.value,
                        ask=ask_grid(key), describe=head[0],  # the row labels' column: what a bridge joins on
                    ))
    return out


def unique_grid_facts(facts: Sequence[Fact], skipped: Counter) -> list[Fact]:
    """The grid facts whose question has one answer in the folder: a row label repeated in its table, or two
    tables named alike, give one question two answers, and neither is kept (grid_ambiguous). The same answer
    stated in several chunks (a column group's labels repeated, two overlapping chunks) is one fact, every
    chunk a positive."""
    answers: dict[str, set[str]] = defaultdict(set)
    for f in facts:
        answers[fold(f.ask)].add(fold(f.answer))
    kept = [f for f in facts if len(answers[fold(f.ask)]) == 1]
    skipped["grid_ambiguous"] += len({fold(f.ask) for f in facts}) - len({fold(f.ask) for f in kept})
    return kept
