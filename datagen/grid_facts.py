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

Refused, each counted in `skipped` (no question is better than a wrong one): whole tables by their shape
(datagen.grid_tables: a header row that is data, blocks side by side, a log whose key repeats, a lookup sheet, a
statistics tool's output), single cells by what their column names and what they hold (datagen.grid_columns: a
column that names no measure, a value that is no figure, an empty or placeholder value, a running number for a row
label), and here, cell by cell:
- grid_without_header: rows with no column line and no columns in the chunk's header (the header row was lost);
- grid_row_misaligned: a row of another width than its columns;
- grid_row_side_by_side: a row that repeats its label among its values (tables set side by side);
- grid_column_criterion: a scoring matrix's criterion ("Cost" rated 1–5 in a "Scores" sheet): no price, no count;
- grid_cell_other_block: a cell right of an unnamed column empty in every row, or after two empty cells or more
  past a filled one: a block set beside the row's ("960.00 |  |  | 9,200");
- grid_column_phrase: a column finer than the labels ("SubCategory" beside "Category") or named with "for" /
  "of the" / "if" ("Probability value for EV");
- grid_column_merged: a named column followed by an unnamed one (a name over merged cells: its first cell is
  one of several under it);
- grid_column_repeated / grid_column_unnamed: a column name written twice (a title spread over merged cells) or
  empty, or one that is a sentence (over 60 characters);
- grid_column_id: an identifier or a running number ("ID", "#", "No."): its value names the row, asks nothing;
  a column of notes or comments (grid_column_free_text);
- grid_row_label_in_column: a label that is a word of its column's name ("Average" under "Average Salary");
- grid_total_unnamed: a total row's cell under a column named only "Total" / "Amount" (the total of what?);
- grid_total_crossed: a total row ("TOTAL COSTS") under another total's column ("Total Direct Costs");
- grid_total_of_rates: a total row under a rate, a price or a share ("Hourly wage"): a sum of rates;
- grid_pivot_sum_of_rate: a pivot's sum of a rate ("Sum of Hourly Wage"), asked for a row as "the total hourly wage".
Last, the positive gate (datagen.grid_shape): a table is asked only when it looks like a table of things with
properties (names as keys, two rows or more, one header row, columns of one kind: grid_shape_*), judged whole across
its chunks (`table_shapes`), and a row that compares two others ("vs Target") keys nothing.
A pivot table is asked as its reader says it: its "Grand Total" row as the total ("What is the total net revenue in
…?"), its "Sum of X" / "Average of X" fields as "total X" / "average X", a day label's midnight dropped.
A row label that repeats within its table, or two tables of the folder that give one question two answers, are
refused by `unique_grid_facts` (grid_ambiguous); a label that repeats in another chunk of its table, and every label of a
table where one in ten repeat (a log read in several chunks), key no row (grid_row_label_repeated_elsewhere,
`repeated_keys`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from datagen.factbase import Fact

# the cell and column rules (grid_columns) and the table rules (grid_tables) are imported here under their old
# names too: datagen.grid_tasks, datagen.relations and the benchmarks read them from this module
from datagen.grid_columns import (  # noqa: F401
    _ACRONYMS,
    _ATTRIBUTES,
    _COUNTS,
    _ERRORS,
    _FREE_TEXT_COLUMN,
    _ID_COLUMN,
    _MEASURES,
    _MONEY_HEAD,
    _NAME_CHARS,
    _NUMBER,
    _PIVOT,
    _PIVOT_FIELD,
    _PLACEHOLDERS,
    _PLURAL_MEASURES,
    _VALUE_CHARS,
    _YEAR,
    TOTAL_ROW,
    _column_phrase,
    _column_refusal,
    _kind,
    _label_refusal,
    _pivot_parts,
    _plural,
    _refusal,
    cells,
)
from datagen.grid_shape import row_refusal, shape_refusal
from datagen.grid_tables import (  # noqa: F401
    _CONTACT,
    _FIGURE_NAME,
    _KEYED_BY_ID,
    _LETTERS,
    _LISTS_SHEET,
    _RATING,
    _RECORD_KEY,
    _SCORING,
    _STATISTICS,
    _after_gap,
    _criteria,
    _finer,
    _gaps,
    _last_word,
    _table_refusal,
    table_refusal,
)
from datagen.mining import fold
from datagen.types import TruthType

GRID = "grid:"  # the relation prefix of a grid fact: "grid:<table>|<row>|<column>"
# The files whose tables are read here: workbooks and decks. A filing's tables are datagen.table_facts', a
# documentation page's datagen.doc_reference's: their facts stay as they were.
GRID_SUFFIXES = (".xlsx", ".xlsm", ".pptx")
_SEP = " · "  # corpus_tools.chunk_context's separator
_ZERO_TIME = re.compile(r"^(\d{4}-\d\d-\d\d) 00:00(?::00)?$")  # a day written with its midnight: the day
_PERSON = re.compile(r"(?i)^(?:mr|mrs|ms|miss|mx|dr|prof|sir|madam)\b\.?\s*[A-Z]")
_DAY = re.compile(r"^\d{4}-\d\d-\d\d$")
# a tab named by its place alone ("Sheet1", "1"): "the 1 sheet" names nothing a person says
_GENERIC_SHEET = re.compile(r"(?i)^(?:(?:sheet|tabelle|feuil|hoja|foglio|table|data)\s*)?\d*$")


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
    # a person's name above the table ("Mr.Avinash Kumar": who made the sheet) is no table's title: "In the Mr.Avinash
    # Kumar table in the interest calculator workbook" (tuning folder B, 6 of 30)
    caption = "" if _PERSON.match(caption) else caption
    # a figure above the table ("30.66%", a pivot's cell) names none: "the total profit in the 30.66% table" (session
    # 57's reporting read)
    caption = caption if re.search(r"[A-Za-z]", caption) else ""
    if caption and fold(caption) not in (fold(sheet), fold(book)) and len(caption) <= _NAME_CHARS:
        where = f"the {caption} table in {where}"
    return where


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


_RATE_HEAD = re.compile(r"(?i)\b(?:rate|wage|price|percent(?:age)?|pct|ratio|average|avg|mean|margin|grade|age|"
                        r"score)s?\b(?!\s*\w)|"
                        # a figure per hour or per unit ("Hourly Pay", "Rate per hour", "Cost/hr", "Unit Cost"): the
                        # total of hourly rates (session 56's sixth unseen folder) is no one's pay
                        r"\bhourly\b|\bper\s+(?:hour|hr|unit|item|piece|person|head)\b|/\s*(?:hr|hour|h|unit)\b|"
                        r"\b(?:rate|wage|price)s?\s+per\b|\bunit\s+(?:cost|price)\b|"
                        # a share ("% of Total", "Share"): its total row is 100% (the s57 held-out read)
                        r"%|\bshares?\b")


# the rates a pivot's sum adds up to no figure of anyone's (a price is left: a salesman's "Sum of Sale Price" is his sales)
_SUMMED_RATE = re.compile(r"(?i)\b(?:rate|wage|hourly|percent(?:age)?|pct|ratio|average|avg|mean|margin|grade|age|score)s?\b|%")


def _crossed_total(label: str, column: str) -> bool:
    """Whether a total row ("TOTAL COSTS", "Total income") stands under a column that is another total ("Total Direct
    Costs"): the total of one thing read as the total of another."""
    if TOTAL_ROW.match(label.strip()) or not re.match(r"(?i)(?:grand |sub-?)?totals?\b", label.strip()):
        return False
    said = fold(_column_phrase(column))
    return said.startswith("total") and fold(label) != said


def repeated_keys(chunks: Sequence[Any]) -> dict[tuple[str, tuple[str, ...]], frozenset[str]]:
    """The row labels of one workbook's tables (sheet, column line) that key no row, read across all their chunks:
    a label written in two rows or more ("Product D" in several rows of a sales log), and every label of a table
    where one in ten or more repeat (a log: its rows are records, not keys). A row read twice where two chunks
    overlap is one row. In one chunk a repeated label is `table_refusal`'s; across chunks only all of them tell: the
    chunk holding one "Product D" row would ask "What are the sales for Product D?", one sale of several. A roster
    of a hundred names with one written twice is no log: only that name is refused. The total rows of two tables or
    more of one sheet, named alike, are refused too: which block's total is "the overall forecast in the sheet"?"""
    seen: dict[tuple[str, tuple[str, ...]], dict[str, set[tuple[str, ...]]]] = defaultdict(lambda: defaultdict(set))
    totalled: dict[tuple[str, str], set[tuple[str, ...]]] = defaultdict(set)  # (sheet, caption) -> tables with a total
    for chunk in chunks:
        sheet = str((chunk.metadata or {}).get("section", ""))
        for caption, head, rows in _tables(chunk):
            for line in rows:
                row = cells(line)
                if head and row[0]:
                    seen[(sheet, tuple(head))][fold(row[0])].add(tuple(row))
                    if TOTAL_ROW.match(row[0].strip()):
                        totalled[(sheet, caption)].add(tuple(head))
    out: dict[tuple[str, tuple[str, ...]], frozenset[str]] = {}
    for table, labels in seen.items():
        repeated = frozenset(label for label, rows in labels.items() if len(rows) > 1)
        if repeated:
            out[table] = frozenset(labels) if len(repeated) >= 0.1 * len(labels) else repeated
    for (sheet, _caption), heads in totalled.items():
        if len(heads) > 1:
            # blocks of one sheet named alike, each with its total ("Miscellaneous … Total | €357.00" beside
            # "Publications … Total | €181.00"): "the overall forecast in the EXPENSES sheet" is one block's (tuning
            # folder A, seed 2)
            for head in heads:
                table = (sheet, head)
                out[table] = out.get(table, frozenset()) | {fold(label) for label in seen[table] if TOTAL_ROW.match(label)}
    return out


def table_shapes(chunks: Sequence[Any]) -> dict[tuple[str, tuple[str, ...]], str]:
    """Why each of one workbook's tables (sheet, column line) is no table of things with properties, read across all
    its chunks ("" when it is one; datagen.grid_shape): a chunk may hold one row of a table of forty, and the gate
    judges the table, not the chunk. A row read twice where two chunks overlap is one row."""
    # keyed by the sheet and the columns alone: a chunk that continues a table names its corner from the chunk's
    # header ("columns" where the header carries none), the chunk that starts it from the column line ("Task")
    rows: dict[tuple[str, tuple[str, ...]], dict[str, None]] = defaultdict(dict)
    corners: dict[tuple[str, tuple[str, ...]], str] = {}  # the row keys' column, from the chunk that starts the table
    for chunk in chunks:
        sheet = str((chunk.metadata or {}).get("section", ""))
        for _caption, head, lines in _tables(chunk):
            if head:
                table = (sheet, tuple(head[1:]))
                rows[table].update(dict.fromkeys(line.rstrip() for line in lines if line.strip()))
                if head[0] != "columns":
                    corners.setdefault(table, head[0])
    return {table: shape_refusal([corners.get(table, ""), *table[1]], list(lines)) for table, lines in rows.items()}


def grid_facts(chunk: Any, book: str, skipped: Counter,
               repeated_labels: Mapping[tuple[str, tuple[str, ...]], Collection[str]] | None = None,
               shapes: Mapping[tuple[str, tuple[str, ...]], str] | None = None) -> list[Fact]:
    """Every (table, row, column, value) fact of a workbook's or deck's table chunk (see the module docstring);
    `repeated_labels`: the row labels of the workbook's tables that key no row, read across chunks (`repeated_keys`);
    `shapes`: why each of the workbook's tables is no table of things, read across chunks (`table_shapes`; without
    it the gate is off: datagen.relations.read_facts always passes it)."""
    sheet = str((chunk.metadata or {}).get("section", ""))
    out: list[Fact] = []
    for caption, head, rows in _tables(chunk):
        if not head:
            skipped["grid_without_header"] += len(rows)
            continue
        why_table = table_refusal(head, rows, sheet)
        if why_table:
            skipped[why_table] += len(rows)
            continue
        unkeyed = (repeated_labels or {}).get((sheet, tuple(head)), ())
        # the positive gate (datagen.grid_shape): only a table of things with properties is asked; it refuses the
        # cells every refusal before it left, each counted under its reason (what the gate costs on top of them)
        # a chunk alone is no table (it may hold one row of forty): without the workbook's view the gate is off
        shape = shapes.get((sheet, tuple(head[1:])), "") if shapes is not None else ""
        columns = head[1:]
        deck = str((chunk.metadata or {}).get("source") or "").lower().endswith(".pptx")
        where = table_name(book, sheet, caption, deck)
        repeated = {c for c, n in Counter(fold(c) for c in columns).items() if n > 1}
        criteria = _criteria(f"{book} {sheet} {caption}", head, rows)  # "the Weighted Decision Matrix workbook"
        gap = _gaps(columns, rows)
        for line in rows:
            row = cells(line)
            if len(row) != len(columns) + 1:
                skipped["grid_row_misaligned"] += 1
                continue
            label, values = row[0], row[1:]
            why = "grid_row_label_repeated_elsewhere" if fold(label) in unkeyed else _label_refusal(label) or row_refusal(label)
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
                elif TOTAL_ROW.match(label.strip()) and _RATE_HEAD.search(column) and not _PIVOT_FIELD.match(column.strip()):
                    # a total row under a rate, a price or a share ("total | $280.24" under "Hourly wage"): a sum of
                    # rates is no figure anyone asks ("What is the overall hourly wage in the payroll workbook?")
                    skipped["grid_total_of_rates"] += 1
                elif _crossed_total(label, column):
                    # "TOTAL COSTS" under "Total Direct Costs": one block's total row read under another block's
                    # total column ("the total direct costs for TOTAL COSTS", session 55's first unseen folder)
                    skipped["grid_total_crossed"] += 1
                elif (pivot := _PIVOT_FIELD.match(column.strip())) and _pivot_parts(pivot)[0].lower() in (
                        "sum", "suma", "summe", "somme") and _SUMMED_RATE.search(_pivot_parts(pivot)[1]):
                    # a pivot's "Sum of Hourly Wage": "the total hourly wage for Saed Karem" sums a rate (the s57
                    # held-out read); "Sum of Sale Price" (a salesman's sales) and "Sum of January pay" are sums
                    skipped["grid_pivot_sum_of_rate"] += 1
                elif shape:
                    skipped[shape] += 1
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
