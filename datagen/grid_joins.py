"""Questions across two tables of a user's folder: a lookup join (issue 36, multi-hop from real folders).

A folder of workbooks holds its data as related tables, as a database would: an Orders sheet whose Customer ID
column names a row of the Customers sheet (or workbook), a Products table whose Supplier column names a row of
Suppliers. A person who owns the folder asks across them:

    Orders (Order ID | Customer ID | …)          "ORD-7 | C012 | …"
    Customers (Customer ID | Company Name | …)   "C012 | Hanari Carnes | …"
    → "What is the company name of the customer who placed order ORD-7 in the Orders workbook?" → "Hanari Carnes"

The first passage (the order's row) gives the key (C012), never the answer; the second (the customer's row) is
found only through that key, which the question does not say. So the chain is genuine.

A link (table A's column → table B's rows) is taken only where the folder shows it, not where two cells happen to
match: B's row keys are unique in B; at least `MIN_MATCHED` distinct values of A's column, and `MIN_COVERAGE` of
its filled cells, are B's keys; the column's name and B's key column (or its sheet or workbook) share a word
("Customer_ID" and "(CustomerID)", "Latest purchase product" and "(Type of product)") unless the values are
names of two words or more (a Manager column's "Ana Ruiz", a row of the Staff sheet); B lies in A's workbook or
in A's folder (a user's project folder: another folder's Customers with the same keys is another company's); and
one table only of that folder fits (two make the question a guess).

Refused, each counted in `stages` ("grid_join:…"): a property that is no property (an identifier, contact data, a
description, an empty or placeholder cell, a long text), an answer an earlier passage already states (the leak), a
key the question's own words hold ("pizza spinach_fet_l" names the pizza type spinach_fet),
A's row key that a question cannot say (a bare running number under a column that names no record), a first
table whose keys repeat (an order-details sheet lists several products under one order: "the product of order
10248" is a guess), a link over `PER_LINK` questions (a 800-row Orders sheet must not fill the set).

Links are followed on through further workbooks, up to `MAX_LINKS` links (a document a hop, none read twice):
"What is the name of the region of the country of location 1000 in the Location workbook?" (Location → Country →
Regions, hops 3). Each hop is said by the thing it reaches, its column's header turned into the noun a person says
("CustomerID" → customer, "Product_Name" → product, "Mgr" → manager, "ShipVia" → shipper: datagen.grid_join_words),
with the words that join two things ("the customer who placed the order in order detail 53", "the manager of the
Apollo project"); a header that names no thing (a participle, a verb phrase, a report's block) links nothing. One
chain only from the row's table may end on a thing; the answer must be in no passage before the last.

Two sheets of one workbook are one document: their join is a one-document task over two passages (hops 1, as
datagen.chat_bridges' session bridges); two or more workbooks a task of as many hops, held by the pipeline's one-search
drop like every bridge, but judged by passage (`hop_unit`, datagen.types): the question names the first workbook and
the asked column, so one search finds both workbooks of nearly every join (71 of 72 on a tuning folder), while the row
the key leads to is in its top 10 chunks for about half; a join one search answers, rows and all, is dropped. `GridJoins` wraps the natural generator (with its grid forms, datagen.grid_tasks) the way
`GridTasks` does: joins are proposed beside the inner generator's tasks, never instead of them.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from datagen.grid_facts import book_name, cells, is_grid_source, table_name
from datagen.grid_join_words import (
    KEY_WORDS,
    NAMED_KINDS,
    column_phrase,
    column_stems,
    column_words,
    ends_noun,
    hop_joint,
    key_noun,
    thing_of,
)
from datagen.mining import MinedCorpus, fold
from datagen.positives import POSITIVES
from datagen.types import HOP_UNIT, PASSAGE_HOPS, Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import contains, normalize

# the pipeline's form: a join is a bridge (its key masked), so the one-search drop and the lexical budget hold it as
# they hold every bridge (datagen.pipeline._searched_form), by its passages; metadata["grid_form"] says join_workbooks /
# join_sheets
FORM = "bridge"
GRID_FORM = "join"
MIN_MATCHED = 3  # distinct values of A's column found among B's keys
MIN_COVERAGE = 0.8  # share of A's filled cells that are B's keys
PER_LINK = 4  # questions asked through one link (A's column → B), or one chain of links
MAX_LINKS = 3  # a chain of four tables at most (hops 4)
_SEP = " · "  # corpus_tools.chunk_context's separator (as datagen.grid_facts reads it)
_VALUE_CHARS = 40
# a B column that is no property a person asks for by the join: contact data (the brief: properties, not contact
# data), an identifier, a text
_NOT_PROPERTY = re.compile(
    r"(?i)\b(?:e-?mail|phone|mobile|fax|contact|address|website|url|link|username|password|"
    r"description|notes?|comments?|remarks?)\b|(?:^|[\s_])(?:id|key|code|sku|uuid|guid)$|"
    r"[a-z](?:ID|Id|Key|Code)$"
)
_MONTH = re.compile(r"(?i)^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?(?:\s+\d{2,4})?$")
_DAY = re.compile(r"^\d{4}-\d\d-\d\d(?:\s.*)?$|^\d{1,2}/\d{1,2}/\d{2,4}$")
# a column that sums up other rows: no property of the row a join reaches
_AGGREGATES = frozenset({"total", "totals", "sum", "subtotal", "count", "average", "avg", "mean"})
_PLACEHOLDER = frozenset(
    {"", "-", "—", "–", "n/a", "na", "none", "null", "tbd", "?", "0", "true", "false", "yes", "no"}
)
_ERROR = re.compile(r"^#[A-Z/0!?]+")
_RUNNING = re.compile(r"^\d+$")
_EXPORT_SHEET = re.compile(r"(?i)^(?:export worksheet|export|query\d*|sql results?)$")
_FILE = re.compile(r"(?i)[\w-]+\.(?:pic|jpe?g|png|gif|bmp|tiff?|pdf|docx?|xlsx?|csv|txt)")
_MACHINE = re.compile(r"(?i)(?=[a-z]*\d)[0-9a-f]{12,}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_WHOLE = re.compile(r"[1-9]\d*\.0+")
_NUMBER = re.compile(r"^[-+]?[$€£]?\d[\d,]*(?:\.\d+)?%?$")


@dataclass(eq=False)  # one table is one object: a link's key
class KeyedTable:
    """One table of a workbook read by its first column: key → (chunk id, row line, column → value)."""

    doc_id: str
    where: str  # as a question names it: "the Orders sheet of the Sales workbook"
    folder: str  # the workbook's folder in the corpus (a user's project folder)
    corner: str  # the row keys' column name
    columns: tuple[str, ...]
    rows: dict[str, tuple[str, str, dict[str, str]]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # folded key → the key as written
    repeated: bool = False


@dataclass(frozen=True)
class Link:
    """A's column whose values are B's row keys."""

    a: KeyedTable
    column: str
    b: KeyedTable


@dataclass(frozen=True)
class Join:
    """One question: A's row `key`, through each link's value (`vias`) to the last table's row, whose `prop` is
    `answer`."""

    path: tuple[Link, ...]
    key: str
    vias: tuple[str, ...]
    prop: str
    answer: str


def _key(cell: str) -> str:
    """A row key as a link compares it: case-folded, a whole number as one ("704.00" in an orders sheet a tool wrote
    as decimals is the products sheet's 704; a tuning folder's near link). Nothing else is taken as the same key:
    "007" and "7", "P-015" and "P015" may be two things."""
    folded = fold(cell)
    return folded.split(".")[0] if _WHOLE.fullmatch(folded) else folded


def _header(metadata: Mapping[str, Any]) -> tuple[list[str], str]:
    """(columns, corner) the chunk's contextual header carries for the table it continues (see grid_facts)."""
    bits = str(metadata.get("header", "")).split(_SEP)
    at = next((i for i, b in enumerate(bits) if b.startswith("columns: ")), None)
    if at is None:
        return [], ""
    corner = bits[at + 1] if at + 1 < len(bits) else "columns"
    return cells(bits[at][len("columns: ") :]), corner


def _column_line(line: str) -> list[str] | None:
    if not line.startswith("(") or " | " not in line:
        return None
    found = cells(line)
    return [found[0][1:-1], *found[1:]] if found[0].endswith(")") else None


def read_keyed_tables(mined: MinedCorpus) -> list[KeyedTable]:
    """Every workbook table of the corpus, its rows by their first cell (an identifier too: joins go by them)."""
    tables: dict[tuple[str, str, tuple[str, ...]], KeyedTable] = {}
    for doc_id, chunks in mined.chunks.items():
        for chunk in chunks:
            meta = chunk.metadata or {}
            if not is_grid_source(meta) or str(meta.get("source") or "").lower().endswith(".pptx"):
                continue
            source = str(meta.get("source") or doc_id)
            book = book_name(str(meta.get("title") or ""), source)
            sheet = str(meta.get("section", ""))
            columns, corner = _header(meta)
            head = [corner, *columns] if columns else None
            for i, block in enumerate(b for b in chunk.text.split("\n\n") if b.strip()):
                lines = block.strip("\n").split("\n")
                found = _column_line(lines[0])
                if found is not None:
                    head, lines = found, lines[1:]
                elif i > 0:
                    head = None  # a text block between tables: no table's rows
                if not head or len(head) < 2:
                    continue
                key = (doc_id, sheet, tuple(head))
                table = tables.get(key)
                if table is None:
                    # a sheet named as its workbook ("Sellers" in Sellers.xlsx) is not said twice
                    # and a database export's one sheet ("Export Worksheet", Oracle's) is no name its owner gave it
                    # or a machine's ("7bb8e241f2691456f4788efbe4823f5": no owner says it; held-out read)
                    said = (
                        ""
                        if column_words(sheet) == column_words(book)
                        or _EXPORT_SHEET.match(sheet)
                        or _MACHINE.fullmatch(sheet)
                        else sheet
                    )
                    table = tables[key] = KeyedTable(
                        doc_id, table_name(book, said, ""), str(PurePosixPath(source).parent), head[0], tuple(head[1:])
                    )
                for line in lines:
                    row = cells(line)
                    if len(row) != len(head) or not row[0]:
                        continue
                    label, whole = _key(row[0]), line.rstrip()
                    held = table.rows.get(label)
                    if held is not None and held[1] != whole:
                        if not _cut_of(held[1], whole) and not _cut_of(whole, held[1]):
                            table.repeated = True  # two rows under one key: it keys neither
                        elif len(whole) <= len(held[1]):
                            continue  # the row cut at a chunk's end ("… | Essex |"), read whole elsewhere
                        held = None
                    if held is None:
                        table.rows[label] = (chunk.chunk_id, whole, dict(zip(head[1:], row[1:], strict=True)))
                    table.labels.setdefault(label, row[0])
    return [t for t in tables.values() if t.rows]


def _cut_of(short: str, whole: str) -> bool:
    """Whether a row line is another cut at a chunk's end: its text up to the cut cell is the whole row's."""
    stem = short.rstrip(" |")
    return len(stem) < len(whole) and whole.startswith(stem)


def find_links(tables: Sequence[KeyedTable], stages: Counter) -> list[Link]:
    """The links the folder shows (see the module docstring), each counted."""
    keyed = [t for t in tables if not t.repeated and len(t.rows) >= MIN_MATCHED]
    out = []
    for a in tables:
        if a.repeated:
            # "the product of order 10248" in an order-details sheet that lists three products for it: a guess
            stages["grid_join:first table's keys repeat"] += 1
            continue
        for column in a.columns:
            values = [_key(r[2].get(column, "")) for r in a.rows.values()]
            values = [v for v in values if v]
            # the header's words and the thing it names ("ShipVia": shipper, "Dept": department), so that a Shippers
            # or a Departments table is named by it
            said = column_stems(column) | column_stems(thing_of(column) or "")
            if len(set(values)) < MIN_MATCHED or not said:
                continue
            fits = []
            for b in keyed:
                if b is a or (b.doc_id != a.doc_id and b.folder != a.folder):
                    continue
                matched = [v for v in values if v in b.rows]
                if len(set(matched)) < MIN_MATCHED or len(matched) < MIN_COVERAGE * len(values):
                    continue
                named = (
                    column_stems(b.corner)
                    | column_stems(b.where.split(" sheet of ")[0])
                    | column_stems(PurePosixPath(b.doc_id).stem)
                )
                # names of two words or more ("Ana Ruiz") match by chance almost never: a manager column whose
                # names are the Staff sheet's rows is that link though the two names share no word
                spelled = all(len(v.split()) >= 2 and re.search(r"[a-z]", v) for v in matched)
                if not said & named and not spelled:
                    stages["grid_join:values match, names differ"] += 1  # a running number 1-5 in two tables
                    continue
                if (
                    fold(column) == fold(a.corner)
                    or column_stems(a.corner) == column_stems(b.corner)
                    and column_stems(a.corner)
                ):
                    stages["grid_join:same entity"] += 1  # Customers in two workbooks: no join, one thing twice
                    continue
                if sum(1 for k in b.rows if _MONTH.match(k)) * 2 >= len(b.rows):
                    # a table of months sums up a log's rows by month ("the expense of the month of 2025-06-12"):
                    # a period's total, no property of the row the question names
                    stages["grid_join:a period's summary"] += 1
                    continue
                fits.append((len(said & column_stems(b.corner)), b))
            if not fits:
                continue
            if thing_of(column) is None:
                # "Quantity on hand by store ProductID" (a report's block named over its columns): "the supplier of
                # the quantity on hand by store product of Foldable Tote Bag" (session 56's third unseen folder); a
                # participle or a verb phrase ("Approved", "Reports To"): no thing a hop reaches
                stages["grid_join:column named as no one says it"] += 1
                continue
            best = max(n for n, _ in fits)
            top = [b for n, b in fits if n == best]
            if len(top) > 1:
                stages["grid_join:link to two tables"] += 1
                continue
            out.append(Link(a, column, top[0]))
    stages["grid_join:links"] += len(out)
    stages["grid_join:links across workbooks"] += sum(1 for link in out if link.a.doc_id != link.b.doc_id)
    return out


def _row_phrase(table: KeyedTable, key: str) -> str:
    """A's row as the question says it: "order ORD-7" under an "Order ID" key column ("country IT" under
    "COUNTRY_ID"), a name as written ("Bill Gates" under "Name"); "" when a bare number keys a column that names
    no record, or a heading keys it ("ACTUAL RESULTS": a dashboard's block, no record)."""
    if key.isupper() and len(key.split()) >= 2 or _DAY.match(key) or _MACHINE.search(key):
        # a heading, a day ("the month of 2025-06-12": a log's entry, no record), or a key a machine wrote ("the
        # department of attendance 4d3e2b9d-152c-…": session 57's reporting read)
        return ""
    noun = key_noun(table.corner)
    noun = re.sub(r"\bsales$", "sale", noun)  # "Sales ID" keys a sale
    coded = any(w in KEY_WORDS for w in column_words(table.corner))
    if coded or _RUNNING.match(key) or (re.search(r"\d", key) and fold(table.corner) != fold(noun)):
        return f"{noun} {key}" if noun and noun not in ("columns", "s") else ""
    return key


def _refusal(prop: str, answer: str, b: KeyedTable) -> str:
    # the name's words too: "SupplierContact" is contact data as "Supplier Contact" is
    if (
        prop == b.corner
        or not column_words(prop)
        or _NOT_PROPERTY.search(prop)
        or _NOT_PROPERTY.search(" ".join(column_words(prop)))
    ):
        return "grid_join:not a property"
    words = column_words(prop)
    if len(words) > 4 or not ends_noun(words[-1]):
        # "the stock value by store ($) store c of …", "the approved of the order in order detail 51"
        return "grid_join:property named as no one says it"
    if words[0] in _AGGREGATES:
        # "the total of the type of Allowance": a category's total sums many rows of A, no property of the one row
        # the question names (session 56's reporting read: a finance book's totals by type)
        return "grid_join:an aggregate"
    if len(words[-1]) > 3 and words[-1].endswith("s") and not words[-1].endswith(("ss", "us", "is")):
        return "grid_join:plural property"  # "What is the customers of the rating of …" reads as no question
    value = answer.strip()
    if re.search(r"@|https?://|www\.", value) or _FILE.fullmatch(value):
        # an address under a column named otherwise; a file's name ("EmpID7.pic" under Photo: the picture, unread)
        return "grid_join:not a property"
    if fold(value) in _PLACEHOLDER or _ERROR.match(value) or re.fullmatch(r"[$€£]?0(?:\.0+)?%?", value):
        return "grid_join:value empty or placeholder"
    if len(value) > _VALUE_CHARS or len(value.split()) > 6:
        return "grid_join:value free text"
    if re.fullmatch(r"-?\d+\.\d*(?:99999|00000)\d+", value):
        # a float's stored noise (49.29999924 for 49.30): no one asks for it so, and the passage says no other
        return "grid_join:value a float's noise"
    if "date" in words and re.fullmatch(r"\d{5}(?:\.\d+)?", value):
        return "grid_join:value a date's serial number"  # "the date of the product in sale 131" → 45894, unread
    if re.fullmatch(r"\d+(?:\.\d+)?E[-+]?\d+", value, re.IGNORECASE):
        return "grid_join:value scientific"
    return ""


def _skippable(
    chain: Sequence[KeyedTable], rows: Sequence[Mapping[str, str]], vias: Sequence[str], direct: Mapping
) -> bool:
    """Whether a row of the chain names, by a direct link, a row two or more hops on: that hop reads nothing."""
    for i in range(len(chain) - 2):
        for j in range(i + 2, len(chain)):
            for column in direct.get((id(chain[i]), id(chain[j])), ()):
                if _key(rows[i].get(column, "")) == _key(vias[j - 1]):
                    return True
    return False


def chain_paths(links: Sequence[Link]) -> list[tuple[Link, ...]]:
    """Each link alone, and links followed on (Location → Country → Regions) through tables of as many workbooks,
    up to `MAX_LINKS` links: each workbook a hop, none read twice."""
    paths = [(link,) for link in links]
    frontier = [p for p in paths if p[0].a.doc_id != p[0].b.doc_id]
    for _ in range(MAX_LINKS - 1):
        longer = []
        for p in frontier:
            docs = {p[0].a.doc_id, *(link.b.doc_id for link in p)}
            longer += [(*p, link) for link in links if link.a is p[-1].b and link.b.doc_id not in docs]
        paths += longer
        frontier = longer
    return paths


def find_joins(
    paths: Iterable[tuple[Link, ...]], chunk_text: Mapping[str, str], stages: Counter, tables: Sequence[KeyedTable] = ()
) -> dict[tuple[Link, ...], list[Join]]:
    """Each path's askable joins (one per first row and last property), the refused counted by reason. `tables`:
    the folder's tables, so that a row the question names ("order 1 in the Orders workbook") is one row of them."""
    # a sheet's column groups (read as tables side by side, one key column each) are one table: counted once
    named = Counter(
        (where, label) for where, label, _doc in {(fold(t.where), k, t.doc_id) for t in tables for k in t.rows}
    )
    # a row's other column groups (the Orders sheet's ShipCountry, read as a table beside the first): a reader of the
    # row sees them too, so an answer there is given before the last hop
    groups: dict[tuple[str, str, str], list[str]] = {}
    for t in tables:
        for k, (chunk_id, _line, _values) in t.rows.items():
            groups.setdefault((t.doc_id, fold(t.where), k), []).append(chunk_id)
    paths = list(paths)
    # the direct links between two tables, by their columns: a chain's hop is skipped where an earlier row names the
    # later row itself (a student's college code beside the major's)
    direct: dict[tuple[int, int], list[str]] = {}
    for path in paths:
        if len(path) == 1:
            direct.setdefault((id(path[0].a), id(path[0].b)), []).append(path[0].column)
    out: dict[tuple[Link, ...], list[Join]] = {}
    for path in paths:
        first, last, found = path[0], path[-1], []
        alone = len(path) == 1  # a row's refusal is counted once, not once per chain it starts
        chain = [first.a, *(link.b for link in path)]
        for label, (chunk_id, _line, values) in first.a.rows.items():
            key = first.a.labels[label]
            read, vias, rows = [chunk_id], [], [values]
            for link in path:
                via = values.get(link.column, "")
                if _key(via) not in link.b.rows:
                    break
                vias.append(via)
                read.append(link.b.rows[_key(via)][0])
                values = link.b.rows[_key(via)][2]
                rows.append(values)
            if len(vias) < len(path):
                continue
            if _skippable(chain, rows, vias, direct):
                # "the college of the major of student R12345": the student's own row names the college (its
                # collegeCode), so the major's row is read for nothing (tuning t2, session 57)
                stages["grid_join:a hop the first rows skip"] += 1
                continue
            if not _row_phrase(first.a, key) or named[(fold(first.a.where), label)] > 1:
                # a bare number under a column that names no record; two users' Orders workbooks both holding
                # order 1: which row the question means is a guess
                stages[
                    "grid_join:first key unsayable"
                    if not _row_phrase(first.a, key)
                    else "grid_join:first row named alike elsewhere"
                ] += alone
                continue
            asked = normalize(f"{_row_phrase(first.a, key)} {first.a.where}")
            if any(contains(asked, normalize(via), normalized=True) for via in vias):
                # "the pizza type of pizza spinach_fet_l": the next row's key (spinach_fet) is in the question's
                # own words, so one search finds that row without the first (held-out read)
                stages["grid_join:bridge named by the question"] += alone
                continue
            beside = groups.get((first.a.doc_id, fold(first.a.where), label), [])
            earlier = [normalize(chunk_text.get(c, "")) for c in dict.fromkeys([*read[:-1], *beside])]
            for prop, answer in values.items():
                why = _refusal(prop, answer, last.b)
                if not why and any(contains(text, normalize(answer), normalized=True) for text in earlier):
                    why = "grid_join:answer in an earlier passage"  # the leak: a hop before already gives it
                if why:
                    stages[why] += 1
                    continue
                found.append(Join(path, key, tuple(vias), prop, answer.strip()))
        stages["grid_join:joins"] += len(found)
        if found:
            out[path] = found
    return out


class GridJoins:
    """The natural generator with the workbook joins added (see the module docstring)."""

    def __init__(self, inner: Any, mined: MinedCorpus, *, share: float = 0.5, per_link: int = PER_LINK) -> None:
        self.inner = inner
        self.share = share
        self.per_link = per_link
        self.own_stages: Counter = Counter()
        self.chunk_text = {c.chunk_id: c.text for cs in mined.chunks.values() for c in cs}
        tables = read_keyed_tables(mined)
        paths = chain_paths(find_links(tables, self.own_stages))
        joins = find_joins(paths, self.chunk_text, self.own_stages, tables)
        # by hop count, a document a hop: two sheets of one workbook are one (hops 1), a chain of workbooks as many
        self.pending: dict[int, dict[tuple[Link, ...], list[Join]]] = {}
        said = Counter((id(path[0].a), _said_hops(path)) for path in joins)
        for path, found in joins.items():
            if len(path) > 1 and said[(id(path[0].a), _said_hops(path))] > 1:
                # two chains from one table said by the same things (two Customer ID columns, each through its own
                # table to a Customers table): "the customer of the invoice of order 7" is either. Orders → Customers
                # and Orders → Invoices → Customers are two questions, each hop said ("the customer who placed order
                # 7", "the customer of the invoice of order 7")
                self.own_stages["grid_join:two chains said alike"] += len(found)
                continue
            hops = len({path[0].a.doc_id, *(link.b.doc_id for link in path)})
            self.pending.setdefault(hops, {})[path] = found
            self.own_stages[f"grid_join:{hops}-hop chains"] += 1
        self.by_id = {_path_id(p): p for v in self.pending.values() for p in v}
        self.asked: Counter = Counter()  # path → questions written through it

    @property
    def stages(self) -> Counter:
        return Counter(getattr(self.inner, "stages", {})) + self.own_stages

    def _left(self, hops: int) -> list[tuple[Link, ...]]:
        return [k for k, v in self.pending.get(hops, {}).items() if v and self.asked[k] < self.per_link]

    def commit(self, candidate: Candidate) -> None:
        if candidate.metadata.get("generator_part") == "grid_join":
            path = self.by_id.get(candidate.metadata.get("join_path", ""))
            if path is not None:
                self.asked[path] += 1
            self.own_stages[f"grid_join:asked {'across workbooks' if candidate.hops >= 2 else 'across sheets'}"] += 1
        else:
            self.inner.commit(candidate)

    def exhausted(self, hops: int) -> str | None:
        if self._left(hops):
            return None
        inner = getattr(self.inner, "exhausted", None)
        return inner(hops) if inner is not None else None

    def deferred(self, hops: int) -> str | None:
        inner = getattr(self.inner, "deferred", None)
        return inner(hops) if inner is not None and not self._left(hops) else None

    def single_fill(self) -> str:
        fill = getattr(self.inner, "single_fill", None)
        return fill() if fill is not None else ""

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        left = self._left(hops)
        inner_spent = getattr(self.inner, "exhausted", lambda h: None)(hops) is not None
        # a sheets join is one of the single-hop draws (a fifth of them), a workbooks chain one of the multi-hop ones
        share = 0.2 * self.share if hops == 1 else self.share
        if not left or (not inner_spent and rng.random() >= share):
            return self.inner.propose(hops, rng)
        path = left[rng.randrange(len(left))]
        found = self.pending[hops][path]
        join = found.pop(rng.randrange(len(found)))  # each join tried once
        self.own_stages["grid_join:proposed"] += 1
        return self._candidate(join)

    def _candidate(self, join: Join) -> Candidate:
        path, first, last = join.path, join.path[0], join.path[-1]
        tables = [first.a, *(link.b for link in path)]
        rows = [first.a.rows[_key(join.key)], *(link.b.rows[_key(v)] for link, v in zip(path, join.vias, strict=True))]
        prop = column_phrase(join.prop)
        # "the name of the supplier", not "the supplier name of the supplier"
        words = prop.split()
        if len(words) >= 2 and words[0].rstrip("s").lower() in column_stems(last.b.corner) | column_stems(last.column):
            prop = " ".join(words[1:])
        said = _row_phrase(first.a, join.key)
        # each hop said by the thing it reaches, from the row on: "the shipper of the order in order detail 53", not
        # "the shipper of order detail 53" (the lead's read of session 56: a hop's noun skipped garbles the chain)
        inner = key_noun(first.a.corner) if said != join.key else ""
        if said == join.key and key_noun(first.a.corner) in NAMED_KINDS:
            # a row named by its name is said with its kind: "the manager of the Apollo project", not "of Apollo"
            inner = key_noun(first.a.corner)
            said = f"the {join.key} {inner}"
        seen = set(inner.split())
        for link in path:
            noun = thing_of(link.column) or column_phrase(link.column)
            if len(noun.split()) == 2 and noun.split()[0] in seen:
                # the chain's thing is not said twice: "the category of the subcategory of product 478", not "the
                # product category of the product subcategory of product 478" (session 56's tuning read)
                noun = noun.split()[1]
            seen |= set(noun.split())
            said, inner = f"the {noun} {hop_joint(noun, inner)} {said}", noun
        question = f"What is the {prop} of {said} in {first.a.where}?"
        items: dict[str, tuple[list[str], list[str]]] = {}  # one supporting item a document, in chain order
        for table, (chunk_id, line, _values) in zip(tables, rows, strict=True):
            chunk_ids, quotes = items.setdefault(table.doc_id, ([], []))
            chunk_ids += [chunk_id] if chunk_id not in chunk_ids else []
            quotes.append(line)
        supporting = tuple(
            SupportingItem(d, tuple(c), tuple(q), contains_truth=d == last.b.doc_id) for d, (c, q) in items.items()
        )
        clues = [f"What is the {column_phrase(first.column)} of {said} in {first.a.where}?"]
        clues += [
            f"What is the {column_phrase(link.column)} of {v} in {link.a.where}?"
            for link, v in zip(path[1:], join.vias, strict=False)
        ]
        clues.append(f"What is the {column_phrase(join.prop)} of {join.vias[-1]} in {last.b.where}?")
        scope = "sheets" if len(supporting) == 1 else "workbooks"
        return Candidate(
            question=question,
            answer=join.answer,
            supporting=supporting,
            hops=len(supporting),
            truth_type=TruthType.NUMBER if _NUMBER.match(join.answer.replace(" ", "")) else TruthType.ENTITY,
            clues=tuple(clues),
            bridges=join.vias,
            generator="natural",
            metadata={
                "form": FORM,
                "generator_part": "grid_join",
                "grid_form": f"{GRID_FORM}_{scope}",
                # a workbook is found by its name and the asked column's header, its row only through the key: the
                # one-search drop looks for the rows (datagen.types.HOP_UNIT)
                HOP_UNIT: PASSAGE_HOPS,
                "split_by": "fact",
                "join_path": _path_id(path),
                "passages": len(rows),
                "fact_keys": [
                    f"grid_join|{fold(first.a.where)}|{fold(join.key)}|{fold(_path_id(path))}|{fold(join.prop)}"
                ],
                POSITIVES: [],
            },
        )


def _said_hops(path: tuple[Link, ...]) -> tuple[str, ...]:
    """The things a chain's hops are said by, in order ("order", "customer")."""
    return tuple(thing_of(link.column) or column_phrase(link.column) for link in path)


def _path_id(path: tuple[Link, ...]) -> str:
    return " → ".join(f"{link.a.doc_id}|{link.a.where}|{link.column}|{link.b.doc_id}|{link.b.where}" for link in path)


def with_grid_joins(generator: Any, mined: MinedCorpus) -> Any:
    """`generator` with the workbook joins added when the corpus's workbooks have a link; else itself."""
    wrapped = GridJoins(generator, mined)
    return wrapped if any(wrapped.pending.values()) else generator


def join_counts(stages: Mapping[str, int]) -> dict[str, int]:
    """The run's join figures (for the benchmark's table): links, joins found, proposed, asked, refused by reason."""
    return {k[len("grid_join:") :]: v for k, v in sorted(stages.items()) if k.startswith("grid_join:")}
