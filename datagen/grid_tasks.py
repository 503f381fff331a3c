"""Questions from the tables of workbooks and decks (datagen.grid_facts), one hop and two.

Forms (metadata["form"]):
- single:     "What is the unit price for A-102 in the Price List sheet of the Inventory workbook?" → "$1,200.00";
- comparison, rows of one table (one document, `hops` 1): "In the Results sheet of the Elections workbook,
              which had the higher votes, Chile or Peru?" → the row label, which its row line writes;
- comparison across workbooks (two documents; metadata["grid_form"] "comparison_workbooks", the one inside a
              table "comparison_table"): "Which had the higher simple average error, Monmouth University
              in the 2019 pollster stats workbook or Siena College in the 2020 pollster stats workbook?";
- bridge (two documents): a cell's value is another table's row label ("Creek Side" in a bookings list, the row of
              a property list in another workbook): "What is the nightly rate for the property for Ann Lee in the
              Revenue Log sheet of the Master P&L workbook?". The second table's (row, column) must give one answer
              in the whole folder, its answer must not be in the first passage, and the value must be a name (not
              a figure) that labels exactly one row of the folder's tables.

Comparisons are at most `comparison_share` of the multi-hop tasks written (issue 36: 25 %): a comparison names
both of its documents, so one search finds them, and a set of them teaches little searching.

No workbook gives more than its fair share of a run of `n` tasks (`workbook_cap`): the larger of n / 6 and n / the
number of workbooks with a question. A workbook of many sheets alike (session 55's Decision Matrix workbook filled
16 of 30 of a sample; tuning folder B's payroll of 102 employees 13 of 30) must not fill the set once the folder's
small workbooks are spent; a task counts for each workbook it reads. The two-hop forms, few and each tried once, are
not held back (a chain popped for a full workbook would be lost). A share of the tasks written so far instead of n
(1/6 of what is written) gave tuning folder B 41 tasks of 200: a folder whose questions sit in a few workbooks
stops early.

A statement is a question with one answer (`unique_grid_facts`); every chunk that states it is a positive. Like
datagen.period_tasks.PeriodTasks, `GridTasks` wraps the corpus's natural generator: the prose questions go on
alongside, single-hop and two-hop proposals alternate between the two.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from datagen.factbase import Fact, FactBase
from datagen.grid_facts import _YEAR, GRID, TOTAL_ROW, GridKey, _column_phrase, grid_key, is_grid_source, row_phrase
from datagen.grid_shape import LINE_ITEM, SCALE_LEVEL
from datagen.mining import MinedCorpus, fold
from datagen.positives import POSITIVES
from datagen.types import Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import contains, normalize

_DERIVED_ROW = re.compile(r"(?i)^(?:total|net|grand|sub-?total|sum|overall)\b|%")
# a rating scale's level and a statement's line item are compared with nothing (datagen.grid_shape, where the gate
# refuses tables keyed by them)
_SCALE_LEVEL, _LINE_ITEM = SCALE_LEVEL, LINE_ITEM
_RANK = re.compile(r"(?i)\b(?:rank|ranking|position|place|seed|standing)s?\b")
HUB_CAP = 3  # chains that may end on one cell (issue 36: hub documents capped)
_FIGURE = re.compile(r"^\(?[-+]?[$€£]?\s*\d[\d,]*(?:\.\d+)?\s*%?\)?$")


@dataclass(frozen=True)
class Statement:
    """One question's answer and every passage that states it (first: the first read)."""

    key: GridKey
    value: str
    facts: tuple[Fact, ...]

    @property
    def fact(self) -> Fact:
        return self.facts[0]

    def number(self) -> float | None:
        text = self.value.replace(",", "").replace("$", "").replace("€", "").replace("£", "").strip()
        if not _FIGURE.match(self.value.replace(" ", "")):
            return None
        negative = text.startswith("(") or text.startswith("-")
        try:
            n = float(text.strip("()%+-"))
        except ValueError:
            return None
        return -n if negative else n


def read_grid_statements(facts: FactBase) -> list[Statement]:
    """The grid facts grouped by question: each a statement, its passages in reading order."""
    groups: dict[str, list[Fact]] = defaultdict(list)
    for fs in facts.facts.values():
        for f in fs:
            if f.relation.startswith(GRID):
                groups[fold(f.ask)].append(f)
    out = []
    for _question, fs in sorted(groups.items()):
        key = grid_key(fs[0])
        seen: dict[str, Fact] = {}
        for f in fs:
            seen.setdefault(f.chunk_id, f)
        if key is not None:
            out.append(Statement(key, fs[0].answer, tuple(seen.values())))
    return out


class GridTasks:
    """The natural generator with the workbook forms added (see the module docstring)."""

    def __init__(self, inner: Any, mined: MinedCorpus, facts: FactBase, *, share: float = 0.5,
                 comparison_share: float = 0.25, tries: int = 20, across: bool = False, n: int | None = None) -> None:
        self.inner = inner
        self.mined = mined
        self.share = share
        self.comparison_share = comparison_share
        self.tries = tries
        self.own_stages: Counter = Counter()
        self.statements = read_grid_statements(facts)
        self.own_stages.update({k: v for k, v in getattr(facts, "skipped", {}).items() if k.startswith("grid_")})
        self.own_stages["grid:statements"] = len(self.statements)
        # the inner generator asks named facts too; the grid's are asked here, once
        named = getattr(inner, "named", None)
        if isinstance(named, dict):
            for doc in list(named):
                named[doc] = [f for f in named[doc] if not f.relation.startswith(GRID)]
                if not named[doc]:
                    del named[doc]
        self.chunk_text = {c.chunk_id: c.text for cs in mined.chunks.values() for c in cs}
        self.asked: set[str] = set()
        self.written: Counter = Counter()  # form -> tasks written (the comparisons' share of multi-hop)
        self._tried: set[tuple[str, ...]] = set()
        # a table is its workbook's: two workbooks may name theirs alike ("the budget workbook"), and a workbook
        # drawn first must give its own cell (tuning folder A: one budget gave 41 of 200 past its fair share of 34,
        # drawn through three other budgets' names)
        by_table_column: dict[tuple[str, str, str], list[Statement]] = defaultdict(list)
        by_column: dict[str, list[Statement]] = defaultdict(list)
        by_cell: dict[tuple[str, str], list[Statement]] = defaultdict(list)
        for s in self.statements:
            # a total is no row to compare; nor is a rank ("the higher rank": 1 is the highest, and the larger
            # number the lower rank; session 55's tuning)
            # nor a derived row ("Total expenses", "Net income", "% expense": session 55's tuning compared Groceries
            # with the total of which they are a part); nor a rating scale's level ("which had the higher score, Very Low
            # or High?": session 55's reporting read, mended after it)
            if (s.number() is not None and not TOTAL_ROW.match(s.key.row.strip()) and not _RANK.search(s.key.column)
                    and not _DERIVED_ROW.search(s.key.row.strip()) and not _SCALE_LEVEL.match(s.key.row.strip())
                    and not _LINE_ITEM.search(s.key.row)):
                by_table_column[(s.key.table, fold(s.key.column), s.fact.doc_id)].append(s)
                by_column[fold(s.key.column)].append(s)
            by_cell[(fold(s.key.row), fold(s.key.column))].append(s)
        # a column with figures below zero is a ledger of flows: incomes, expenses written negative, accounts' balances
        # ("Category | Amount": "which had the higher amount, [Bank of America Travel] or [Apple RSU]?", "Interest Inc
        # or Adjustment?"); its rows are no things of one kind to compare (session 57's reporting read, 10 of 12)
        self.in_table = {k: v for k, v in by_table_column.items()
                         if len({fold(s.key.row) for s in v}) >= 2 and all((s.number() or 0) >= 0 for s in v)}
        self.in_table_docs: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for k in sorted(self.in_table):
            self.in_table_docs[self.in_table[k][0].fact.doc_id].append(k)
        self.by_table: dict[tuple[str, str], list[Statement]] = defaultdict(list)
        tables: dict[str, set[str]] = defaultdict(set)
        for s in self.statements:
            self.by_table[(s.fact.doc_id, s.key.table)].append(s)
            tables[s.fact.doc_id].add(s.key.table)
        self.docs = sorted(tables)
        self.tables = {d: sorted(t) for d, t in tables.items()}
        # a workbook's share of the folder, not of the workbooks that happen to be askable: a folder of 44 workbooks
        # where three are askable gave one expense list 95 of 104 tasks (session 57's reporting read)
        folder = {d for d, cs in mined.chunks.items() if cs and is_grid_source(cs[0].metadata or {})}
        self.cap = workbook_cap(n, len(folder | set(self.docs)))
        self.per_doc: Counter = Counter()  # grid tasks written that read each workbook
        # two workbooks' rows under one column name compared ("Utilities in one P&L or Marketing in another") read
        # as no question a person asks (hand-read, tuning folder): off unless asked for
        self.across = {k: v for k, v in by_column.items() if len({s.fact.doc_id for s in v}) >= 2} if across else {}
        self.bridges = self._bridges(by_cell)
        self.own_stages["grid:in-table comparison groups"] = len(self.in_table)
        self.own_stages["grid:cross-workbook comparison groups"] = len(self.across)
        self.own_stages["grid:2-hop bridges"] = len(self.bridges)

    def _bridges(self, by_cell: dict[tuple[str, str], list[Statement]]) -> list[tuple[Statement, Statement]]:
        """(a, b): a's value is b's row label in another document, b's (row, column) has one answer in the folder,
        and the value labels one row of the folder's tables."""
        rows: dict[str, set[tuple[str, str]]] = defaultdict(set)  # row label -> (document, table) it labels
        for s in self.statements:
            rows[fold(s.key.row)].add((s.fact.doc_id, s.key.table))
        out = []
        per_second: Counter = Counter()  # a hub row ("Direct" in a funnel table) ends at most HUB_CAP chains
        for a in self.statements:
            value = fold(a.value)
            if a.number() is not None or len(value) < 3 or not re.search(r"[a-z]", value) or len(rows.get(value, ())) != 1:
                continue
            if len(a.value.split()) < 2 or not a.value[:1].isupper():
                # a category ("Direct") or a first name ("Michael") names a row of any table that lists such; a
                # name of two words or more ("Lakeside Holdings LLC") names one (hand-read, tuning folder)
                self.own_stages["grid:bridge value not a name"] += 1
                continue
            for b in self.statements:
                if fold(b.key.row) != value or b.fact.doc_id == a.fact.doc_id:
                    continue
                if not _stems(a.key.column) & _stems(b.fact.describe):
                    # "Jordan" a guest's first name and "Jordan" a country of another workbook: the first cell's
                    # column must name what the second table's rows are (Owner → "Owner / entity name")
                    self.own_stages["grid:bridge kinds differ"] += 1
                    continue
                if len({fold(s.value) for s in by_cell[(value, fold(b.key.column))]}) != 1:
                    self.own_stages["grid:bridge second cell ambiguous"] += 1
                    continue
                if contains(normalize(self.chunk_text.get(a.fact.chunk_id, "")), normalize(b.value), normalized=True):
                    self.own_stages["grid:bridge answer in first passage"] += 1
                    continue
                if per_second[b.fact.ask] >= HUB_CAP:
                    self.own_stages["grid:bridge hub capped"] += 1
                    continue
                per_second[b.fact.ask] += 1
                out.append((a, b))
        return out

    @property
    def stages(self) -> Counter:
        return Counter(getattr(self.inner, "stages", {})) + self.own_stages

    def commit(self, candidate: Candidate) -> None:
        self.asked.add(normalize(candidate.question))
        self.asked.update(candidate.metadata.get("fact_keys") or ())
        if candidate.metadata.get("generator_part") == "grid":
            self.written[candidate.metadata.get("grid_form", "")] += 1
            self.per_doc.update({item.doc_id for item in candidate.supporting})
        else:
            self.inner.commit(candidate)

    def _open(self, doc: str) -> bool:
        """Whether a workbook is still below its fair share of the run (`workbook_cap`)."""
        return self.cap is None or self.per_doc[doc] < self.cap

    def exhausted(self, hops: int) -> str | None:
        if (hops == 1 and self.statements and any(map(self._open, self.docs))) or (
                hops == 2 and (self.bridges or self.across)):
            return None
        inner = getattr(self.inner, "exhausted", None)
        why = inner(hops) if inner is not None else None
        if why is not None and self.statements and hops == 1:
            return f"{why}; workbooks: every workbook has its fair share ({self.cap} tasks) of the run"
        if why is not None and self.statements and hops >= 2:
            own = ("no cell's value labels a row of another workbook's table, and no column is shared by two "
                   "workbooks" if hops == 2 else "a workbook chain of three tables or more is not built")
            return f"{why}; workbooks: {own}"
        return why

    def _comparison_due(self) -> bool:
        multi = sum(v for k, v in self.written.items() if k in ("bridge", "comparison_workbooks"))
        return (self.written["comparison_workbooks"] + 1) <= self.comparison_share * (multi + 1)

    def deferred(self, hops: int) -> str | None:
        """Why no 2-hop task is due now: the bridges are spent and the comparisons at their share (they come due
        again as the set grows); else the prose generator's own reason, if any."""
        inner = getattr(self.inner, "deferred", None)
        why = inner(hops) if inner is not None else None
        inner_spent = getattr(self.inner, "exhausted", lambda h: None)(hops) is not None
        if hops == 2 and inner_spent and not self.bridges and self.across and not self._comparison_due():
            return f"workbook comparisons at their share ({self.comparison_share:.0%}) of multi-hop tasks"
        return why

    def single_fill(self) -> str:
        """Single-hop cells fill a multi-hop run once its chains are spent (a folder of workbooks has few)."""
        return "workbook tables: single-hop questions fill the rest" if any(map(self._open, self.docs)) else ""

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        inner_spent = getattr(self.inner, "exhausted", lambda h: None)(hops) is not None
        if not self.statements or hops > 2 or (not inner_spent and rng.random() >= self.share):
            return self.inner.propose(hops, rng)
        if hops == 1:
            if self.in_table and rng.random() < 0.2:
                return self._tried_form("in_table", self._compare_in_table, rng)
            return self._single(rng)
        if self.across and self._comparison_due() and (not self.bridges or rng.random() < self.comparison_share):
            return self._tried_form("comparison_across", self._compare_across, rng)
        if self.bridges:
            return self._tried_form("bridge", self._bridge, rng)
        self.own_stages["grid:comparison over its share"] += 1
        return DropReason.NO_CHAIN

    def _tried_form(self, form: str, make: Any, rng: random.Random) -> Candidate | DropReason:
        found: Candidate | DropReason = DropReason.NO_CHAIN
        for _ in range(self.tries):
            found = make(rng)
            if not isinstance(found, DropReason):
                break
        self.own_stages[f"grid:{form}:{'no' if isinstance(found, DropReason) else 'proposed'}"] += 1
        return found

    def _fresh(self, *parts: str) -> bool:
        if parts in self._tried:
            return False
        self._tried.add(parts)
        return True

    # -- forms -----------------------------------------------------------------------------------
    def _single(self, rng: random.Random) -> Candidate | DropReason:
        # a workbook first, then one of its tables, then a cell: a 200-row sheet, or a workbook of 40 sheets alike
        # (session 55's tuning: one workbook's use-case sheets gave 11 of 30 tasks), must not fill the set
        docs = [d for d in self.docs if self._open(d)]
        for _ in range(self.tries if docs else 0):
            doc = rng.choice(docs)
            table = rng.choice(self.tables[doc])
            s = rng.choice(self.by_table[(doc, table)])
            if not self._fresh("single", s.fact.ask) or normalize(s.fact.ask) in self.asked:
                continue
            self.own_stages["grid:single:proposed"] += 1
            return self._candidate("single", [s], s.fact.ask, s.value)
        return DropReason.NO_ANSWER_SPAN

    def _compare_in_table(self, rng: random.Random) -> Candidate | DropReason:
        docs = [d for d in sorted(self.in_table_docs) if self._open(d)]
        if not docs:
            return DropReason.NO_CHAIN
        doc = rng.choice(docs)  # a workbook first, as for a single cell
        group = self.in_table[rng.choice(self.in_table_docs[doc])]
        a, b = rng.sample(group, 2)
        if fold(a.key.row) == fold(b.key.row) or not self._fresh("in_table", *sorted((a.fact.ask, b.fact.ask))):
            return DropReason.NO_CHAIN
        win = _higher(a, b)
        if win is None:
            return DropReason.NO_ANSWER_SPAN
        column = _column_phrase(a.key.column)
        what = f"value in {column}" if _YEAR.match(column) else column
        question = f"In {a.key.table}, which had the higher {what}, {a.key.row} or {b.key.row}?"
        return self._candidate("comparison", [a, b], question, win.key.row, options=(a.key.row, b.key.row),
                               one_document=True, scope="table")

    def _compare_across(self, rng: random.Random) -> Candidate | DropReason:
        group = self.across[rng.choice(sorted(self.across))]
        a, b = rng.sample(group, 2)
        if a.fact.doc_id == b.fact.doc_id or fold(a.key.row) == fold(b.key.row):
            return DropReason.NO_CHAIN
        if not self._fresh("across", *sorted((a.fact.ask, b.fact.ask))):
            return DropReason.DUPLICATE
        win = _higher(a, b)
        if win is None:
            return DropReason.NO_ANSWER_SPAN
        column = _column_phrase(a.key.column)
        question = (f"Which had the higher {column}, {a.key.row} in {a.key.table} or {b.key.row} in "
                    f"{b.key.table}?")
        return self._candidate("comparison", [a, b], question, win.key.row, options=(a.key.row, b.key.row),
                               clues=(a.fact.ask, b.fact.ask), scope="workbooks")

    def _bridge(self, rng: random.Random) -> Candidate | DropReason:
        a, b = self.bridges.pop(rng.randrange(len(self.bridges)))  # each chain tried once
        question = (f"What is the {_column_phrase(b.key.column)} of the {_column_phrase(a.key.column)} "
                    f"{row_phrase(a.key.row)} in {a.key.table}?")
        clues = (a.fact.ask, f"What is the {_column_phrase(b.key.column)} {row_phrase(b.key.row)}?")
        return self._candidate("bridge", [a, b], question, b.value, clues=clues, bridges=(a.value,))

    def _candidate(self, form: str, statements: Sequence[Statement], question: str, answer: str, *,
                   options: Sequence[str] = (), clues: Sequence[str] = (), bridges: Sequence[str] = (),
                   one_document: bool = False, scope: str = "") -> Candidate:
        """One supporting item per document (both rows in one item for a comparison inside one table)."""
        answer_doc = statements[-1].fact.doc_id if not options else next(
            s.fact.doc_id for s in statements if s.key.row == answer)
        items: dict[str, tuple[list[str], list[str]]] = {}
        for s in statements:
            chunk_ids, quotes = items.setdefault(s.fact.doc_id, ([], []))
            if s.fact.chunk_id not in chunk_ids:
                chunk_ids.append(s.fact.chunk_id)
            if s.fact.sentence not in quotes:
                quotes.append(s.fact.sentence)
        supporting = tuple(SupportingItem(doc_id=d, chunk_ids=tuple(c), quotes=tuple(q), contains_truth=d == answer_doc)
                           for d, (c, q) in items.items())
        positives = [{"doc_id": f.doc_id, "chunk_id": f.chunk_id, "quote": f.sentence, "item": self._item(supporting, s),
                      "value": s.value} for s in statements for f in s.facts[1:20]]
        kind = TruthType.NUMBER if not options and re.search(r"\d", answer) else TruthType.ENTITY
        return Candidate(
            question=question, answer=answer, supporting=supporting, hops=1 if one_document else len(supporting),
            truth_type=kind, clues=tuple(clues), bridges=tuple(bridges), generator="natural",
            metadata={
                "form": form, "generator_part": "grid", "split_by": "fact", "grid_form": f"{form}_{scope}" if scope else form,
                "relations": [s.key.relation() for s in statements],
                "fact_keys": [f"grid|{fold(s.fact.ask)}" for s in statements],
                POSITIVES: positives,
                **({"options": list(options)} if options else {}),
            },
        )

    @staticmethod
    def _item(supporting: Sequence[SupportingItem], s: Statement) -> int:
        return next(i for i, item in enumerate(supporting) if item.doc_id == s.fact.doc_id)


def _higher(a: Statement, b: Statement) -> Statement | None:
    """The statement with the higher figure; None when either holds no figure or the two are equal (no answer)."""
    na, nb = a.number(), b.number()
    if na is None or nb is None or na == nb or _unit(a.value) != _unit(b.value):
        return None  # "12%" against "$6,000": no one compares a share with an amount
    if na < 0 or nb < 0:
        # a sheet that writes its expenses below zero: "which had the higher amount, Wants:Trips (-1,594.52) or
        # Needs:Dentist (-2.21)?" → the dentist, the smaller expense; income beside expense is no comparison either
        # (session 57's reporting read, 7 of 30)
        return None
    return a if na > nb else b


def _unit(value: str) -> tuple[bool, str]:
    """(a percentage?, its currency sign) of a figure as the sheet shows it."""
    return "%" in value, "".join(c for c in value if c in "$€£¥₹")


def _stems(text: str) -> set[str]:
    return {w.lower().rstrip("s") for w in re.findall(r"[A-Za-z]{3,}", text)}


def workbook_cap(n: int | None, workbooks: int) -> int | None:
    """The most grid tasks of a run of `n` that may read one workbook: the larger of n / 6 and n / workbooks, the
    folder's workbooks, askable or not (a folder of three workbooks gives each a third); None (no cap) when n is not
    known."""
    if not n or not workbooks:
        return None
    return max(math.ceil(n / 6), math.ceil(n / workbooks))


def with_grid_tasks(generator: Any, mined: MinedCorpus, facts: FactBase, n: int | None = None) -> Any:
    """`generator` with the workbook forms added when the corpus has grid statements; else itself. `n`: the run's
    size, which caps each workbook's share (`workbook_cap`)."""
    wrapped = GridTasks(generator, mined, facts, n=n)
    return wrapped if wrapped.statements else generator
