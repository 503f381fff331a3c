"""Which cells of a workbook's table give a question, by what their column names and what they hold, and how a
column reads inside a question (datagen.grid_facts reads the tables; datagen.grid_tables refuses whole tables).

A column must name a measure (amount, price, score, …, a unit) or an attribute (manager, city, date, …) by its head
noun ("Unit Price" → price, "Date of Birth" → date, "NightlyRate" → rate); a measure's cell holds a figure, an
attribute's names a thing. Refused, each counted in `skipped` (no question is better than a wrong one):
- grid_column_not_a_measure: a column whose name names no measure and no attribute: a value of a category ("West
  Coast", "English", "Jan"), a verb ("Added"), a code ("DET"); grid_value_not_a_figure / grid_value_not_a_name: a
  measure's cell without a figure, an attribute's that is a bare number; a plural count noun ("Guests") is said
  "number of guests";
- grid_column_plural: a one-word measure in the plural that names one figure ("Averages", "Scores");
- grid_row_label_*: no label, a running number ("1", "2", …: which row is "3"?) or a measurement ("4.6": a wine's
  acidity keys no row), a label over 60 characters, an outline number or a record's number ("1.4.2", "124:Parasite":
  grid_row_label_id), a label ending in ":" (grid_row_label_colon), a stray key in a label ("7.8`":
  grid_row_label_stray);
- grid_value_empty / grid_value_error (#DIV/0!, #N/A …) / grid_value_placeholder (TRUE, Yes, —) /
  grid_value_free_text (a sentence: over 40 characters or 6 words), grid_value_scientific ("6.13999E-06"),
  grid_value_zero ("0", "$0.00": no figure to look for), and grid_value_is_label (the value repeats its row label or
  column).
A pivot table's "Sum of X" / "Average of X" fields are said "total X" / "average X" (`_column_phrase`).
"""

from __future__ import annotations

import re

from datagen.mining import fold

_NAME_CHARS = 60
_VALUE_CHARS = 40
_ERRORS = frozenset({"#DIV/0!", "#N/A", "#NAME?", "#NULL!", "#NUM!", "#REF!", "#VALUE!", "#SPILL!", "#CALC!",
                     "#GETTING_DATA"})
_PLACEHOLDERS = frozenset({"true", "false", "yes", "no", "y", "n", "x", "-", "—", "–", "n/a", "na", "none", "null",
                           "tbd", "?", "..."})
_ID_COLUMN = re.compile(r"(?i)^(?:#|no\.?|nr\.?|n°|s\.?\s?no\.?|sr\.?\s?no\.?|row|index|id|key|uid|uuid|guid)$|"
                        r"\b(?:id|ID|uuid|guid)$")
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
_YEAR = re.compile(r"^(?:FY\s?)?(?:1[5-9]|20)\d\d$")
# a column of sentences: what a note says is no figure a person looks up by its row
_FREE_TEXT_COLUMN = re.compile(r"(?i)^(?:notes?|comments?|remarks?|descriptions?|details?|explanation|memo|url|link|email)$")


# characters a cell may carry that print as nothing ("HIGH\u200b" under "Risk Status\u200b": session 56's reporting
# read asked the zero-width space along with the word)
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


def cells(line: str) -> list[str]:
    """A row's cells; a row whose trailing empty cells lost their last space to a chunk's trim is read whole."""
    if line.endswith(" |"):
        line += " "
    return [_INVISIBLE.sub("", c).strip() for c in line.split(" | ")]


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


# a zero said with its currency, a code or a sign before or after it, or an accountant's dash for zero
_ZERO_MONEY = re.compile(r"(?i)(?:[A-Z]{2,3}\.?\s?|[$€£¥₹]\s?)?[(-]?\s?0(?:[.,]0+)?\)?(?:\s?[A-Z]{3})?|[$€£¥₹]\s*-+\s*")


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
    if re.fullmatch(r"[$€£(-]*0(?:[.,]0+)?%?\)?", value) or _ZERO_MONEY.fullmatch(value.strip()):
        # "0", "0.00", "$0.00", "USD 0.00", "0.00 EUR", "Rs. 0", "$ -" (an accountant's zero): no figure to look for
        # (session 56's sixth unseen folder asked "USD 0.00")
        return "grid_value_zero"
    return ""


# a day of the week keying a timesheet's row ("Friday" in a "Week Ending 5.9" sheet): which Friday? the rows of a week
# are a log's entries, "the hourly rate for Friday" no fact a person asks (session 55's second unseen folder)
_WEEKDAY = re.compile(r"(?i)^(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?)(?:,?\s+[\d/.-]+)?$")


# a row that sums up the rows above it by a statistic other than their total ("max", "MINIMUM WEEKLY PAY", "Sum of all
# items"): "What is the hourly wage for max" (tuning folders A and B) is no row a person names so; a first name ("Max
# Power") is left
_STATISTIC = re.compile(r"(?i)^(?:max(?:imum)?|min(?:imum)?|average|avg|mean|median|sum|count|std|stdev|variance|"
                        r"varience|var)\.?$")


def _statistic_row(label: str) -> bool:
    """"max", "Min.", "MINIMUM WEEKLY PAY", "Sum of all items", "Median income"; not "Sum" (a total row, asked as the
    total) nor "Max Power" or "Average Joe" (names)."""
    words = label.lower().split()
    if re.fullmatch(r"(?i)(?:standard|std\.?) dev(?:iation|\.)?", label.strip()):
        return True  # the held-out read's 'VARIENCE', 'STANDARD DEVIATION' rows under a salary column
    if not words or not _STATISTIC.match(words[0]) or label.strip().lower() == "sum":
        return False
    rest = [re.sub(r"[^a-z]", "", w) for w in words[1:]]
    return not rest or rest[0] in ("of", "all", "weekly", "monthly", "daily", "yearly", "annual") or any(
        w in _MEASURES or w in _PLURAL_MEASURES or w in _COUNTS for w in rest)


# a code keying a row: a letter-and-number run cut by a dash or an underscore ("SQ-001-39", "L1-01", "ACB350_VIEW_#3"),
# a survey question's, a role's or an error's reference; "COVID-19" (a name with its number) stays
# ("Q1-2023", "FY24-25", a date, are periods and stay)
_CODE = re.compile(r"^(?!(?i:q[1-4]|h[12]|fy\d*)[-_])(?:[A-Za-z]+\d+[-_#][A-Za-z0-9#]+|\w+_[\w#]+|[A-Za-z]+\d*-\d+-\d+)$")


def _label_refusal(label: str) -> str:
    if not label or not re.search(r"[A-Za-z0-9]", label):
        return "grid_row_label_missing"
    if re.fullmatch(r"\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{1,4})?\s*[-–—]+\s*\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{1,4})?", label.strip()):
        return "grid_row_label_date_range"  # "the start date for 9/19/18 - 10/3/18": a week's span keys no record
    if re.fullmatch(r"[A-Za-z]", label.strip()):
        return "grid_row_label_letter"  # "the award number for P" (a grant family's letter): P of what?
    if any(_CODE.match(w) for w in label.split()) and len(label.split()) <= 3:
        return "grid_row_label_code"  # "the weakness rating for SQ-001-39", "the count for L1-02 to L1-08"
    if re.search(r"(?i)\btotal\b", label) and len(label.split()) >= 3:
        # "This Estimated Total Budget", "Total hours for the project": a total said as a phrase, asked as a key
        # ("the number of planned hours for Total hours for the project") reads as no question a person asks
        return "grid_row_label_total_phrase"
    if _statistic_row(label.strip()):
        return "grid_row_label_statistic"
    if _WEEKDAY.match(label.strip()):
        return "grid_row_label_weekday"
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
                              "dividends", "charges", "proceeds", "receipts", "actuals", "salaries", "bonuses",
                              "commissions", "purchases", "allowances", "deductions", "refunds", "contributions"})
_ACRONYMS = frozenset({"ebitda", "cogs", "cgpa", "usd", "eur", "gbp", "inr", "sgpa", "arpu", "mrr", "arr"})


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
    if any(c.isalpha() and ord(c) > 127 for c in column) and not _PIVOT_FIELD.match(column.strip()):
        # "Coût Total", "Категория": an English question would carry another language's column ("the coût total for
        # Composants", session 56's reporting read); another Excel's pivot field is said in English ("Średnia z Age")
        return "grid_column_not_english"
    if fold(column) in ("value", "values"):
        # a dashboard's "Metric | Value" block: "the value for Critical Assets" names no measure (the metric row is
        # the measure, said as no question says it), and two metrics' values are no comparison
        return "grid_column_vague"
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
    if _NAMED_NUMBER.match(value) and value.split()[0].upper() not in _CURRENCY_CODES:
        # "Unit 1" under "Income # of units": a name with its number, the row of a block set beside this one with no
        # empty column between (session 55's second unseen folder: "What is the income # of units for Insurance?")
        return "grid_value_not_a_figure"
    return "" if re.search(r"\d", value) else "grid_value_not_a_figure"


_NAMED_NUMBER = re.compile(r"^[A-Za-z]{2,}[\s#-]*\d+[A-Za-z]?$")
_CURRENCY_CODES = frozenset({"USD", "EUR", "GBP", "INR", "CAD", "AUD", "JPY", "CNY", "CHF", "KES", "NGN", "ZAR", "RS",
                             "RM", "KSH", "PHP", "IDR", "MXN", "BRL", "SGD", "AED"})


_MONEY_HEAD = re.compile(r"(?i)\b(?:amount|cost|costs|price|revenue|sales|expenses?|income|salary|budget|spend|"
                         r"payment|balance|fee|rent)\b")
