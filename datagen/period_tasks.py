"""Questions across filings: a company's figure for a period, compared across quarters or companies,
or reached through another company's quarter, from the table facts of `datagen.table_facts`.

Forms (metadata["form"]):
- single:     "What were Apple's total net sales, in millions of dollars, for the quarter ended July 1, 2023?"
- comparison across periods: "Were Apple's total net sales larger for the quarter ended April 1, 2023
              or for the quarter ended July 1, 2023?" (two filings; the answer is one of the periods);
- comparison across companies: "Which company had larger net income for the quarter ended June 30,
              2023, Amazon or Microsoft?" (the answer is one of the companies);
- bridge:     "What was Intel's net revenue, in millions of dollars, for the quarter that ended on the same
              day as the quarter in which Apple's total net sales were $81,797 million?" — the first filing
              gives the day, the second the figure; the value named must give one period only.
- bridged comparison (three filings): "In the quarter in which Intel's net income was $1,473 million, which
              company had larger revenue for its quarter ended within a week of it, Amazon or Apple?" — the
              first filing gives the quarter, the other two the figures compared. Companies whose fiscal
              quarters end a few days apart (Apple's July 1, Amazon's June 30) are compared over the quarter
              each ended within a week of the first; the metric must be one line item under each company's
              own name for it (`concept`). Every hop is needed: the two companies must both state the metric
              for another quarter too, so the comparison cannot be found without the first filing's quarter
              (metadata["period_decides"] says whether that other quarter's comparison goes the other way).

- driver:     "What was the primary driver of the change in Apple's total net sales in the third quarter of 2023?"
              → "lower net sales of Mac": the cause one sentence of the discussion of results gives for a change
              (`datagen.filing_drivers`), asked as an analyst asks, beside the single-figure questions.

- event:      "How many votes were cast for Virginia C. Drosos in the election of directors at Foot Locker's annual
              meeting on May 18, 2022?", "Who was appointed President and Chief Executive Officer of Foot Locker,
              effective September 1, 2022?": an 8-K's or a release's event (`datagen.event_facts`), single-hop.
- event bridge: "In the quarter in which PepsiCo held its 2023 annual meeting of shareholders, what was its net
              revenue, in millions of dollars?": the 8-K gives the day, the company's fiscal calendar the quarter
              that holds it, that quarter's report the figure (`datagen.event_periods`); two documents.
- event comparison: "Was eBay's revenue larger in the quarter in which it appointed Shripriya Mahesh to its Board
              of Directors or in the quarter ended June 30, 2023?": the event's quarter against another quarter
              the company reports; three documents.

Two companies' money is compared whatever unit each table uses (a release in thousands, a 10-K in millions);
a release's quarters ("Q4 2022") are compared with another release's (`datagen.release_facts`).

A statement is (company, metric, period, unit); it is asked only when every passage that states it
gives the same value (a segment's "Operating expenses" row and the company's total share a label:
their values differ, so neither is asked), and every passage that states it is gold (a quarter's
figure repeats as the prior-year column of the next year's filing: extra positives, `Task.facts`).
The answers are the cells as written; each supporting item carries the row and, when the answer is a
period or a company, the line of the filing that writes it (the column line, the cover page), so the
extraction verifier finds every answer in the passages.

`PeriodTasks` wraps the corpus's natural generator: a corpus with no table facts is left to it
unchanged; with them, single-hop and 2-hop proposals alternate between the two.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from corpus_tools.section_prior import aside_sections
from datagen.event_facts import Event, read_events
from datagen.event_periods import EventChain, display_company, event_chains
from datagen.factbase import Fact, FactBase, fact_key
from datagen.filing_drivers import Driver, ask_driver, calendar_year, groups, read_drivers
from datagen.mining import MinedCorpus, fold
from datagen.positives import POSITIVES
from datagen.table_facts import (
    FOREIGN,
    TableKey,
    ask,
    bare_year_periods,
    cased,
    filing_dates,
    is_table,
    possessive,
    table_columns,
    table_key,
    verb_for,
)
from datagen.types import Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import normalize

_SCALE = {"in thousands of dollars": 1e3, "in millions of dollars": 1e6, "in billions of dollars": 1e9}


@dataclass(frozen=True)
class Statement:
    """One (company, metric, period, unit) with its value and every passage that states it (primary first:
    the filing whose own period it is, else the earliest)."""

    company: str
    key: TableKey
    value: str
    facts: tuple[Fact, ...]

    @property
    def fact(self) -> Fact:
        return self.facts[0]

    def number(self) -> float | None:
        text = self.value.replace(",", "").replace("$", "").strip()
        negative = text.startswith("(") or text.startswith("-")
        try:
            n = float(text.strip("()%-"))
        except ValueError:
            return None
        return -n if negative else n

    def dollars(self) -> float | None:
        """The value in dollars when the unit is money ("in millions of dollars"), else the number as written."""
        n = self.number()
        return None if n is None else n * _SCALE.get(self.key.unit, 1)

    def amount(self) -> str:
        """The value as a question names it: "$81,797 million" (money), else as written."""
        unit = {"in millions of dollars": "million", "in thousands of dollars": "thousand",
                "in billions of dollars": "billion"}.get(self.key.unit)
        if unit:
            return f"${self.value} {unit}"
        return f"${self.value}" if re.search(r"(?i)per share", self.key.metric) else self.value


def read_statements(facts: FactBase, mined: MinedCorpus, skipped: Counter) -> list[Statement]:
    """Every statement of the table facts whose passages agree on one value (see the module docstring)."""
    own = {doc: _period_end(chunks) for doc, chunks in mined.chunks.items()}
    groups: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    foreign: set[tuple[str, str]] = set()
    for fs in facts.facts.values():
        for f in fs:
            if f.relation.startswith(FOREIGN):
                foreign.add((fold(f.subject), fold(f.relation[len(FOREIGN):])))
                continue
            key = table_key(f)
            if key is not None:
                groups[(fold(f.subject), fold(key.relation()))].append(f)
    # the rest of that table: its next chunk lost the line naming Rivian but keeps its section and columns
    chunk = {c.chunk_id: c for cs in mined.chunks.values() for c in cs}
    foreign_tables = {_table_of(chunk[f.chunk_id]) for fs in facts.facts.values() for f in fs
                      if f.relation.startswith(FOREIGN) and f.chunk_id in chunk}
    for k, fs in list(groups.items()):
        if k in foreign or any(f.chunk_id in chunk and _table_of(chunk[f.chunk_id]) in foreign_tables for f in fs):
            del groups[k]
            skipped["table_statement_of_another_subject"] += 1
    # A day is one of the company's period ends when tables of two sections use it; "Inventories | 941" as of
    # Dec 29, 2021 in one note about an acquired business is the business's, not Intel's inventories then.
    # A filing read without sections (Intel's: every chunk's section is "") tells its tables apart by their
    # column lines instead; a day that ends one of the company's own filings' periods is one of its ends.
    sections: dict[tuple[str, str], set[str]] = defaultdict(set)
    for (company, _), fs in groups.items():
        for f in fs:
            key = table_key(f)
            if key is not None and f.chunk_id in chunk:
                _, section, columns = _table_of(chunk[f.chunk_id])
                sections[(company, key.period.end.isoformat())].add(section or " | ".join(columns))
    for f in (f for fs in groups.values() for f in fs):
        if own.get(f.doc_id):
            sections[(fold(f.subject), own[f.doc_id])].update(("own", "period"))
    out = []
    for (company, _relation), fs in sorted(groups.items()):
        key = table_key(fs[0])
        # a release's "Q4 2022" names the company's own quarter by itself (no stray day of a note's table)
        if key is not None and not key.period.length.startswith("fiscal ") and len(sections[(company, key.period.end.isoformat())]) < 2:
            skipped["table_period_of_one_section"] += 1
            continue
        values = {fold(f.answer) for f in fs}
        if len(values) != 1:
            skipped["table_statement_ambiguous"] += 1
            continue
        key = table_key(fs[0])
        assert key is not None
        # one passage per chunk; the filing whose own period it is first (the statement's home)
        seen: dict[str, Fact] = {}
        for f in fs:
            seen.setdefault(f.chunk_id, f)
        ordered = sorted(seen.values(), key=lambda f: (own.get(f.doc_id) != key.period.end.isoformat(), f.doc_id, f.chunk_id))
        out.append(Statement(fs[0].subject, key, fs[0].answer, tuple(ordered)))
    return out


def _table_of(chunk: Any) -> tuple[str, str, tuple[str, ...]]:
    """Which table a chunk belongs to: its document, section and column headers."""
    metadata = getattr(chunk, "metadata", None) or {}
    return chunk.doc_id, str(metadata.get("section", "")), tuple(table_columns(chunk.text, metadata)[0])


def _period_end(chunks: Sequence[Any]) -> str:
    for c in chunks:
        end = (getattr(c, "metadata", None) or {}).get("period_end")
        if end:
            return str(end)
    return ""


class PeriodTasks:
    """The natural generator with the filings forms added (see the module docstring)."""

    def __init__(self, inner: Any, mined: MinedCorpus, facts: FactBase, *, share: float = 0.5, tries: int = 20) -> None:
        self.inner = inner
        self.tries = tries
        self.mined = mined
        self.share = share
        self.own_stages: Counter = Counter()
        self.statements = read_statements(facts, mined, self.own_stages)
        # the rows table_facts read no fact from (a lost header row or heading, a hedged item, …), each counted in
        # the run's stages
        self.own_stages.update({k: v for k, v in getattr(facts, "skipped", {}).items() if k.startswith("table_")})
        # the corpus's lower-case words: "Net Sales for AWS" reads "net sales for AWS", "Americas" stays
        self.common = frozenset(
            w for chunks in mined.chunks.values() for c in chunks for w in re.findall(r"\b[a-z][a-z-]+\b", c.text)
        )
        self.uses: Counter = Counter()  # statement relation+company -> tasks that used it
        self._tried: set[tuple[str, ...]] = set()
        self.asked: set[str] = set()  # questions and fact keys written (the prose repeats, see _screened)
        # The inner generator asks table rows too (datagen.natural's named facts); here they are asked
        # once their passages agree, so its own table questions are taken out.
        named = getattr(inner, "named", None)
        if isinstance(named, dict):
            for doc in list(named):
                named[doc] = [f for f in named[doc] if table_key(f) is None and not f.relation.startswith(FOREIGN)]
                if not named[doc]:
                    del named[doc]
        by_series: dict[tuple[str, str, str, str], list[Statement]] = defaultdict(list)
        by_period: dict[tuple[str, str, str], list[Statement]] = defaultdict(list)
        for s in self.statements:
            # a 10-K's year against the one before; a release's quarter against another release's
            if s.key.period.length in ("quarter", "as of", "year", "fiscal quarter", "fiscal year"):
                by_series[(fold(s.company), s.key.metric, s.key.period.length, s.key.unit)].append(s)
            # two companies' money compares whatever unit each table uses (Ulta's release in thousands, Best Buy's
            # 10-K in millions): the question names no unit, the values are scaled (`dollars`)
            by_period[(s.key.metric, s.key.period.key(), "dollars" if s.key.unit in _SCALE else s.key.unit)].append(s)
        self.series = {k: v for k, v in by_series.items() if len(v) >= 2}
        self.across = {k: v for k, v in by_period.items() if len({fold(s.company) for s in v}) >= 2}
        self.by_period: dict[str, list[Statement]] = defaultdict(list)
        for s in self.statements:
            self.by_period[s.key.period.key()].append(s)
        self.pairs = self._comparable_pairs()
        # what the discussion of results says drove a change (datagen.filing_drivers): asked beside the rows
        tables = {c.chunk_id for chunks in mined.chunks.values() for c in chunks if is_table(c.metadata)}
        self.drivers = groups(read_drivers(mined, self.own_stages, tables)) if self.statements else []
        # 8-Ks' and releases' events (a vote's count, an officer appointed, a dividend: datagen.event_facts)
        self.events: list[Event] = read_events(mined, self.own_stages) if self.statements else []
        # an 8-K's event placed in the company's quarter or fiscal year, whose figures its report states
        # (datagen.event_periods): "In the quarter in which PepsiCo held its 2023 annual meeting …, what was its …?"
        self.event_chains: list[EventChain] = event_chains(mined, self.statements, self.own_stages) if self.statements else []
        self.event_series = [(c, s, t) for c in self.event_chains for s in c.statements for t in self._other_periods(c, s)]
        self.own_stages["filings:event comparisons"] = len(self.event_series)
        self.own_stages["table:statements"] = len(self.statements)
        self.own_stages["filings:3-hop pairs"] = len(self.pairs)

    @property
    def stages(self) -> Counter:
        return Counter(getattr(self.inner, "stages", {})) + self.own_stages

    def commit(self, candidate: Candidate) -> None:
        for k in (*candidate.metadata.get("statements", ()), *([candidate.metadata["pair"]] if "pair" in candidate.metadata else [])):
            self.uses[k] += 1
        self.asked.add(normalize(candidate.question))
        self.asked.update(candidate.metadata.get("fact_keys") or ())
        if candidate.metadata.get("generator_part") != "filings":
            self.inner.commit(candidate)

    def exhausted(self, hops: int) -> str | None:
        if (hops == 1 and self.statements) or (hops == 2 and (self.series or self.across or self.event_chains)):
            return None
        if hops == 3 and (self.pairs or self.event_series):
            return None
        inner = getattr(self.inner, "exhausted", None)
        why = inner(hops) if inner is not None else None
        if why is not None and hops >= 3 and self.statements:
            # what stops the filings' chains, said beside the prose's reason
            own = ("no two companies state one line item for two quarters that end within a week of a third "
                   "company's" if hops == 3 else
                   "a 4-document chain needs four companies whose quarters end within a week of each other, or a "
                   "second bridge from a figure to a company, which the table rows do not give")
            return f"{why}; filings: {own}"
        return why

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        inner_spent = getattr(self.inner, "exhausted", lambda h: None)(hops) is not None
        if hops == 3 and self.event_series and (not self.pairs or rng.random() < 0.5) and (
                inner_spent or rng.random() < self.share):
            found = self._event_comparison(rng)
            self.own_stages[f"filings:event_comparison:{'no' if isinstance(found, DropReason) else 'proposed'}"] += 1
            return found
        if hops == 3 and self.pairs and (inner_spent or rng.random() < self.share):
            found = self._bridged_comparison(rng)
            self.own_stages[f"filings:bridged_comparison:{'no' if isinstance(found, DropReason) else 'proposed'}"] += 1
            return found
        if not self.statements or hops > 2 or (not inner_spent and rng.random() >= self.share):
            return self._not_aside(screen_prose(self.inner.propose(hops, rng), self.asked, self.own_stages, self.common))
        if hops == 1:
            if self.events and rng.random() < 0.25:
                self.own_stages["filings:event:proposed"] += 1
                return self._event(rng)
            if self.drivers and rng.random() < self.share:
                self.own_stages["filings:driver:proposed"] += 1
                return self._driver(rng)
            return self._single(rng)
        # a folder with 8-K events in held periods asks them too (the draw is unchanged for one without)
        form = rng.choice(("periods", "companies", "bridge", *(("event",) if self.event_chains else ())))
        make = {"periods": self._compare_periods, "companies": self._compare_companies, "bridge": self._bridge,
                "event": self._event_bridge}[form]
        found: Candidate | DropReason = DropReason.NO_CHAIN
        for _ in range(self.tries):  # each form is tried in turn, so the easy one does not fill the set
            found = make(rng)
            if not isinstance(found, DropReason):
                break
        self.own_stages[f"filings:{form}:{'no' if isinstance(found, DropReason) else 'proposed'}"] += 1
        return found

    def _not_aside(self, found: Candidate | DropReason) -> Candidate | DropReason:
        """A prose question read from a filing's aside sections only (risk factors, legal proceedings, exhibits:
        corpus_tools.section_prior), unless it names the section: a case's parties and courts ("Which
        organization did the Supreme Court rule in?" → "Busk") are cut from sentences no reader places."""
        if isinstance(found, DropReason):
            return found
        chunk = {c.chunk_id: c for c in self._chunks_of(found)}
        sections = [str((chunk[cid].metadata or {}).get("section", "")) for item in found.supporting
                     for cid in item.chunk_ids if cid in chunk]
        if sections and all(aside_sections(found.question, sections)):
            self.own_stages["prose:aside_section"] += 1
            return DropReason.NO_ANSWER_SPAN
        return found

    def _chunks_of(self, found: Candidate) -> list[Any]:
        return [c for item in found.supporting for c in self.mined.chunks.get(item.doc_id, [])]

    # -- forms -----------------------------------------------------------------------------------
    def _fresh(self, *parts: str) -> bool:
        if parts in self._tried:
            return False
        self._tried.add(parts)
        return True

    def _single(self, rng: random.Random) -> Candidate | DropReason:
        for _ in range(20):
            s = rng.choice(self.statements)
            # one question per company, period and value: two labels of one row ("International" under
            # "Net sales", "international net sales" in a segment table) are one fact
            if self.uses[_id(s)] or not self._fresh("single", _id(s)) or not self._fresh("value", _value_id(s)):
                continue
            question = ask(s.key, s.company, self.common)
            # a row under "2023 | 2022" columns: the cover line that gives the year's day goes with it
            line = self._period_line(s) if s.key.period.length == "year" else ()
            lines = (line,) if line and line[0] != s.fact.chunk_id else ()
            return self._candidate("single", [s], [(s.fact, *lines)], question, s.value, aliases=s.fact.aliases)
        return DropReason.NO_ANSWER_SPAN

    def _compare_periods(self, rng: random.Random) -> Candidate | DropReason:
        if not self.series:
            return DropReason.NO_CHAIN
        series = self.series[rng.choice(sorted(self.series))]
        a, b = sorted(rng.sample(series, 2), key=lambda s: s.key.period.end)
        if not self._fresh("periods", _id(a), _id(b)) or not self._apart(a, b):
            return DropReason.NO_CHAIN
        na, nb = a.number(), b.number()
        if na is None or nb is None or na == nb or na < 0 or nb < 0:
            return DropReason.NO_ANSWER_SPAN  # a loss or a tie does not read as "larger"
        win = a if na > nb else b
        pa, pb = a.key.period.phrase(), b.key.period.phrase()
        at = "as of" if a.key.period.length == "as of" else "for"
        question = f"{_verb(a).capitalize()} {possessive(a.company)} {self._m(a)} {_more(a)} {at} {pa} or {at} {pb}?"
        items = [(a.fact, self._period_line(a)), (b.fact, self._period_line(b))]
        return self._candidate("comparison", [a, b], items, question, win.key.period.phrase(),
                               aliases=win.key.period.forms(), options=(pa, pb), winner=win)

    def _compare_companies(self, rng: random.Random) -> Candidate | DropReason:
        if not self.across:
            return DropReason.NO_CHAIN
        group = self.across[rng.choice(sorted(self.across))]
        a, b = rng.sample(group, 2)
        if fold(a.company) == fold(b.company) or not self._fresh("companies", *sorted((_id(a), _id(b)))):
            return DropReason.NO_CHAIN
        if not self._apart(a, b):
            return DropReason.NO_CHAIN
        na, nb = a.dollars(), b.dollars()
        if na is None or nb is None or na == nb or na < 0 or nb < 0:
            return DropReason.NO_ANSWER_SPAN
        win = a if na > nb else b
        when = f"as of {a.key.period.phrase()}" if a.key.period.length == "as of" else f"for {a.key.period.phrase()}"
        question = f"Which company had {_more(a)} {self._m(a)} {when}, {a.company} or {b.company}?"
        items = [(a.fact, self._company_line(a)), (b.fact, self._company_line(b))]
        return self._candidate("comparison", [a, b], items, question, win.company, options=(a.company, b.company),
                               winner=win)

    def _bridge(self, rng: random.Random) -> Candidate | DropReason:
        """The first filing's figure names a day; the second company's figure for the period ending that day."""
        periods = [p for p, ss in sorted(self.by_period.items()) if len({fold(s.company) for s in ss}) >= 2]
        if not periods:
            return DropReason.NO_CHAIN
        group = self.by_period[rng.choice(periods)]
        a, b = rng.sample(group, 2)
        if fold(a.company) == fold(b.company) or not self._fresh("bridge", _id(a), _id(b)) or not self._apart(a, b):
            return DropReason.NO_CHAIN
        if a.key.period.length == "as of" or a.key.metric == b.key.metric:
            return DropReason.NO_CHAIN
        # the value must give one period of its series: "the quarter in which Apple's sales were $X" is one quarter
        same = [s for s in self.statements if fold(s.company) == fold(a.company) and s.key.metric == a.key.metric
                and s.key.period.length == a.key.period.length and fold(s.value) == fold(a.value)]
        if len(same) != 1 or fold(b.value) in fold(a.value):
            return DropReason.NO_ANSWER_SPAN
        na = a.number()
        # "the quarter in which …" names a quarter, "the year in which …" (two 10-Ks) a year; a loss reads badly
        # as an amount
        span = a.key.period.length
        if span not in ("quarter", "year") or b.key.period.length not in (span, "as of") or na is None or na <= 0:
            return DropReason.NO_CHAIN
        if not _anchor(a):
            self.own_stages["filings:bridge small_anchor"] += 1
            return DropReason.NO_ANSWER_SPAN
        units = f", {b.key.unit}," if b.key.unit else ""
        when = f"at the end of that {span}" if b.key.period.length == "as of" else f"for its {span} ended the same day"
        question = (f"In the {span} in which {possessive(a.company)} {self._m(a)} {_verb(a)} {a.amount()}, "
                    f"what {_verb(b)} {possessive(b.company)} {self._m(b)}{units} {when}?")
        clues = (f"In which {span} {_verb(a)} {possessive(a.company)} {self._m(a)} {a.amount()}?", ask(b.key, b.company, self.common))
        items = [(a.fact, self._period_line(a)), (b.fact, ())]
        return self._candidate("bridge", [a, b], items, question, b.value, aliases=b.fact.aliases, clues=clues)

    def _comparable_pairs(self) -> list[tuple[Statement, Statement, tuple[str, Any, str]]]:
        """(b, c, (concept, quarter end, unit)): two companies' figures for one line item and one calendar
        quarter, both positive and different, where the two also state that line item for another quarter
        (else the pair alone gives the answer and the bridge is not needed; counted)."""
        groups: dict[tuple[str, Any, str], dict[str, Statement]] = defaultdict(dict)
        for s in self.statements:
            end = _calendar_quarter(s)
            n = s.number()
            if end is not None and concept(s) and n is not None and n > 0:
                groups[(concept(s), end, s.key.unit)].setdefault(fold(s.company), s)
        pairs = []
        for key, by_company in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1].isoformat(), kv[0][2])):
            names = sorted(by_company)
            for i, x in enumerate(names):
                for y in names[i + 1:]:
                    b, c = by_company[x], by_company[y]
                    if b.number() == c.number() or not self._apart(b, c):
                        continue
                    others = [k for k, g in groups.items() if k[0] == key[0] and k[2] == key[2] and k[1] != key[1]
                              and x in g and y in g]
                    if not others:
                        self.own_stages["filings:3-hop pair_of_one_quarter"] += 1
                        continue
                    pairs.append((b, c, key))
        # how many chains the folder holds: each pair times the third companies' money figures that name its
        # quarter (one value in their series); what stops the rest is counted above and in _bridged_comparison
        for b, c, key in pairs:
            firms = {fold(b.company), fold(c.company)}
            n = sum(1 for a in self.statements if fold(a.company) not in firms and _anchor(a)
                    and _calendar_quarter(a) == key[1] and self._names_one_quarter(a))
            self.own_stages["filings:3-hop chains"] += n
            self.own_stages["filings:3-hop chains the bridge decides"] += n * self._period_decides(b, c, *key)
        return pairs

    def _names_one_quarter(self, a: Statement) -> bool:
        """Whether "the quarter in which A's metric was X" is one quarter: X positive and no other quarter's."""
        n = a.number()
        return n is not None and n > 0 and sum(
            1 for s in self.statements if fold(s.company) == fold(a.company) and s.key.metric == a.key.metric
            and s.key.period.length == "quarter" and fold(s.value) == fold(a.value)) == 1

    def _bridged_comparison(self, rng: random.Random) -> Candidate | DropReason:
        """A third company's figure names the quarter; two companies' figures for it are compared."""
        # pairs whose answer another quarter turns around first: there the bridge decides the answer
        decisive = [p for p in self.pairs if self._period_decides(*p[:2], *p[2])]
        pool = decisive if decisive and rng.random() < 0.5 else self.pairs
        b, c, (item, end, unit) = pool[rng.randrange(len(pool))]
        pair_id = f"pair|{_id(b)}|{_id(c)}"
        if self.uses[pair_id] >= 2:  # one comparison asked through two bridges at most
            return DropReason.DUPLICATE
        firms = {fold(b.company), fold(c.company)}
        # the first figure is an amount of money (a count of shares or a rate names a quarter less plainly)
        bridges = [a for a in self.statements if fold(a.company) not in firms and a.key.period.length == "quarter"
                   and _anchor(a) and _calendar_quarter(a) == end and self._apart(a, b) and self._apart(a, c)]
        if not bridges:
            self.own_stages["filings:3-hop no_third_company"] += 1
            return DropReason.NO_CHAIN
        headline = [a for a in bridges if concept(a)]  # "net income", "revenue": what a person names a quarter by
        a = rng.choice(headline if headline and rng.random() < 0.5 else bridges)
        if not self._names_one_quarter(a):
            return DropReason.NO_ANSWER_SPAN  # the value must name one quarter of its series, as an amount
        if not self._fresh("bridged", _value_id(a), _id(b), _id(c)):  # one figure under two labels is one bridge
            return DropReason.DUPLICATE
        first, second = (b, c) if rng.random() < 0.5 else (c, b)
        win = b if (b.number() or 0) > (c.number() or 0) else c
        days = {a.key.period.end, b.key.period.end, c.key.period.end}
        when = "its quarter ended the same day" if len(days) == 1 else "its quarter ended within a week of it"
        question = (f"In the quarter in which {possessive(a.company)} {self._m(a)} {_verb(a)} {a.amount()}, which company had "
                    f"larger {item} for {when}, {first.company} or {second.company}?")
        clues = (f"In which quarter {_verb(a)} {possessive(a.company)} {self._m(a)} {a.amount()}?",
                 f"Which company had larger {item} for the quarter ended {b.key.period.phrase()[len('the quarter ended '):]}"
                 f", {first.company} or {second.company}?")
        items = [(a.fact, self._period_line(a)),
                 (first.fact, self._company_line(first), self._period_line(first)),
                 (second.fact, self._company_line(second), self._period_line(second))]
        decides = self._period_decides(b, c, item, end, unit)
        return self._candidate("bridged_comparison", [a, first, second], items, question, win.company,
                               options=(first.company, second.company), winner=win, clues=clues,
                               extra={"period_decides": decides, "pair": pair_id})

    def _period_decides(self, b: Statement, c: Statement, item: str, end: Any, unit: str) -> bool:
        """Whether, in another quarter both companies state, the other company had the larger figure."""
        b_wins = (b.number() or 0) > (c.number() or 0)
        by_end: dict[Any, dict[str, float]] = defaultdict(dict)
        for s in self.statements:
            q = _calendar_quarter(s)
            n = s.number()
            if q is not None and q != end and concept(s) == item and s.key.unit == unit and n is not None:
                by_end[q].setdefault(fold(s.company), n)
        x, y = fold(b.company), fold(c.company)
        return any(x in g and y in g and (g[x] > g[y]) != b_wins for g in by_end.values())

    def _m(self, s: Statement) -> str:
        return cased(s.key.metric, self.common)

    # -- evidence --------------------------------------------------------------------------------
    def _apart(self, a: Statement, b: Statement) -> bool:
        """Two statements only different filings hold: no document states both (else one hop)."""
        return not ({f.doc_id for f in a.facts} & {f.doc_id for f in b.facts})

    def _period_line(self, s: Statement) -> tuple[str, str]:
        """(chunk id, line) of the column line that writes the statement's period, in its row's filing (the
        column line itself, "(in millions) | Three Months Ended …", before any row that happens to hold the day)."""
        def dated(line: str) -> bool:
            return " | " in line and any(f in line for f in s.key.period.forms())
        def cover() -> tuple[str, str]:
            # the cover's "For the fiscal year ended January 28, 2023" (or "quarterly period ended …")
            return self._line(s.fact, lambda line: " | " not in line and "ended" in line.lower()
                              and any(f in line for f in s.key.period.forms()), cover=True)
        chunk = next((c for c in self.mined.chunks.get(s.fact.doc_id, []) if c.chunk_id == s.fact.chunk_id), None)
        if chunk is not None and bare_year_periods(table_columns(chunk.text, chunk.metadata)[0], filing_dates(chunk.metadata)):
            # an annual report's "2023 | 2022" columns: the cover says which day the year ends (another table's
            # dated column line would not say it is the year)
            return cover() or self._line(s.fact, dated)
        # no line writes the day whole (a column's day and year on two stacked header lines): the cover, if it does
        return self._line(s.fact, lambda line: dated(line) and line.startswith("(")) or self._line(s.fact, dated) or cover()

    def _company_line(self, s: Statement) -> tuple[str, str]:
        """(chunk id, line) of the filing naming the company: the cover's "Apple Inc." (the first chunks first),
        before a table row or a sentence that names it."""
        def named(line: str) -> bool:
            return bool(re.search(rf"\b{re.escape(s.company)}\b", line))
        chunks = self.mined.chunks.get(s.fact.doc_id, [])
        full = fold(str(chunks[0].metadata.get("company", ""))) if chunks else ""
        # the registrant's name as the cover writes it ("INTEL CORPORATION"), else a short line naming it
        return (self._line(s.fact, lambda line: bool(full) and fold(line.strip()).startswith(full), cover=True)
                or self._line(s.fact, lambda line: named(line) and " | " not in line and len(line.split()) <= 6, cover=True)
                or self._line(s.fact, named))

    def _line(self, fact: Fact, wanted: Any, cover: bool = False) -> tuple[str, str]:
        chunks = self.mined.chunks.get(fact.doc_id, [])
        at = next((i for i, c in enumerate(chunks) if c.chunk_id == fact.chunk_id), 0)
        order = chunks if cover else [chunks[at], *reversed(chunks[:at]), *chunks[at + 1:]] if chunks else []
        for c in order:
            for line in c.text.split("\n"):
                if wanted(line):
                    return c.chunk_id, line.strip()
        return ()

    def _driver(self, rng: random.Random) -> Candidate:
        """"What was the primary driver of the change in Apple's total net sales in the second quarter of
        2023?": the cause one MD&A sentence gives (datagen.filing_drivers), every other sentence that gives
        it for that quarter an extra positive."""
        group: list[Driver] = self.drivers.pop(rng.randrange(len(self.drivers)))  # each asked once
        d = group[0]
        key = "driver:" + "|".join(map(str, d.key()))
        question = ask_driver(d, calendar_year(self.mined, d.doc_id), self.common)
        return Candidate(
            question=question, answer=d.cause,
            supporting=(SupportingItem(doc_id=d.doc_id, chunk_ids=(d.chunk_id,), quotes=(d.sentence,), contains_truth=True),),
            hops=1, truth_type=TruthType.ENTITY, generator="natural",
            metadata={
                "form": "driver", "generator_part": "filings", "split_by": "fact",
                "relations": [f"driver:{fold(d.metric)}"], "fact_keys": [key],
                POSITIVES: [{"doc_id": o.doc_id, "chunk_id": o.chunk_id, "quote": o.sentence} for o in group[1:20]],
            },
        )

    def _event(self, rng: random.Random) -> Candidate:
        """"How many votes were cast for …?", "Who was appointed …?": one passage of an 8-K or a release, each asked
        once (datagen.event_facts)."""
        # a kind of event first (a vote, an appointment, a dividend …), then one of it: one 8-K's twenty nominees'
        # vote counts would otherwise fill the set
        kinds = sorted({x.key.split("|", 1)[0] for x in self.events})
        kind = rng.choice(kinds)
        e = self.events.pop(rng.choice([i for i, x in enumerate(self.events) if x.key.split("|", 1)[0] == kind]))
        truth = TruthType(e.kind) if e.kind in {t.value for t in TruthType} else TruthType.ENTITY
        return Candidate(
            question=e.question, answer=e.answer,
            supporting=(SupportingItem(doc_id=e.doc_id, chunk_ids=e.chunk_ids, quotes=e.quotes, contains_truth=True),),
            hops=1, truth_type=truth, generator="natural",
            metadata={"form": "event", "generator_part": "filings", "split_by": "fact",
                      "relations": [f"event:{e.key.split('|', 1)[0]}"], "fact_keys": [f"event:{e.doc_id}|{e.key}"]},
        )

    def _other_periods(self, chain: EventChain, s: Statement) -> list[Statement]:
        """The company's same figure for another period of the same length that no document of `s` states: what
        the event's period is compared with."""
        return [t for t in self.statements if fold(t.company) == fold(s.company) and t.key.metric == s.key.metric
                and t.key.unit == s.key.unit and t.key.period.length == s.key.period.length
                and t.key.period.end != s.key.period.end and self._apart(s, t)
                and not any(f.doc_id == chain.event.doc_id for f in t.facts)]

    def _event_question(self, chain: EventChain) -> tuple[str, str]:
        """("quarter" | "fiscal year", "eBay appointed Shripriya Mahesh to its Board of Directors")."""
        span = "quarter" if chain.period.length == "quarter" else "fiscal year"
        return span, f"{display_company(chain.event.company)} {chain.event.act}"

    def _event_item(self, chain: EventChain) -> SupportingItem:
        e = chain.event
        return SupportingItem(doc_id=e.doc_id, chunk_ids=(e.chunk_id,), quotes=(e.quote,), contains_truth=False)

    def _with_event(self, found: Candidate, chain: EventChain, extra: dict[str, Any]) -> Candidate:
        """`found` with the 8-K's passage as its first hop (the day that names the period)."""
        positives = [{**p, "item": p["item"] + 1} for p in found.metadata.get(POSITIVES, [])]
        e = chain.event
        return dataclasses.replace(
            found, supporting=(self._event_item(chain), *found.supporting), hops=len(found.supporting) + 1,
            metadata={**found.metadata, POSITIVES: positives,
                      "fact_keys": [f"event:{e.doc_id}|{e.key()}", *found.metadata["fact_keys"]],
                      "relations": [f"event:{e.kind}", *found.metadata["relations"]], **extra})

    def _decides(self, s: Statement) -> bool:
        """Whether the company states this figure for another period with another value (the event's day is then
        what tells the answer from the rest)."""
        return any(fold(t.company) == fold(s.company) and t.key.metric == s.key.metric
                   and t.key.period.length == s.key.period.length and t.key.period.end != s.key.period.end
                   and fold(t.value) != fold(s.value) for t in self.statements)

    def _event_bridge(self, rng: random.Random) -> Candidate | DropReason:
        """"In the quarter in which PepsiCo held its 2023 annual meeting of shareholders, what was its net revenue,
        in millions of dollars?": the 8-K gives the day, the quarter's report the figure."""
        # a company's quarter first, then one of the events in it: three PepsiCo 8-Ks in one quarter would
        # otherwise crowd out eBay's and McDonald's
        chain = _quarter_first(self.event_chains, lambda c: c, rng)
        e = chain.event
        quarter = f"{fold(e.company)}|{chain.period.end.isoformat()}"
        # a quarter's figures asked through four events at most, each figure once whichever event names the quarter
        # (two acts on one day, or three in one quarter, name one quarter: its figure is one fact)
        if self.uses[f"event|{quarter}|bridge"] >= 4:
            return DropReason.DUPLICATE
        # a figure the day decides (another quarter's differs), an amount rather than a loss in parentheses
        pool = [s for s in chain.statements if self._decides(s)] or list(chain.statements)
        pool = [s for s in pool if (s.number() or 0) > 0] or pool
        headline = [s for s in pool if concept(s)]
        s = rng.choice(headline if headline and rng.random() < 0.7 else pool)
        if not self._fresh("event_bridge", quarter, _id(s)):
            return DropReason.DUPLICATE
        span, who = self._event_question(chain)
        units = f", {s.key.unit}" if s.key.unit else ""
        question = f"In the {span} in which {who}, what {_verb(s)} its {self._m(s)}{units}?"
        clues = (f"In which {span} did this happen: {who}?", ask(s.key, display_company(s.company), self.common))
        found = self._candidate("event_bridge", [s], [(s.fact, self._period_line(s))], question, s.value,
                                aliases=s.fact.aliases, clues=clues)
        return self._with_event(found, chain, {"pair": f"event|{quarter}|bridge", "period_decides": self._decides(s),
                                               "event_day": e.day.isoformat(),
                                               "period": [chain.period.start.isoformat(), chain.period.end.isoformat()]})

    def _event_comparison(self, rng: random.Random) -> Candidate | DropReason:
        """"Was eBay's revenue larger in the quarter in which it appointed Shripriya Mahesh to its Board of Directors
        or in the second quarter of 2023?": the 8-K gives the day, two reports the figures compared."""
        chain, s, t = _quarter_first(self.event_series, lambda x: x[0], rng)
        e = chain.event
        quarter = f"{fold(e.company)}|{chain.period.end.isoformat()}"
        if self.uses[f"event|{quarter}|comparison"] >= 4 or not self._fresh("event_comparison", quarter, _id(s), _id(t)):
            return DropReason.DUPLICATE
        ns, nt = s.number(), t.number()
        if ns is None or nt is None or ns == nt or ns < 0 or nt < 0:
            return DropReason.NO_ANSWER_SPAN
        span, _ = self._event_question(chain)
        company = display_company(e.company)
        other = t.key.period.phrase()
        question = (f"{_verb(s).capitalize()} {possessive(company)} {self._m(s)} {_more(s)} in the {span} in which it {e.act} "
                    f"or in {other}?")
        win = s if ns > nt else t
        # the answer is one of the two options as the question names them; the event's quarter also by its name
        mine = f"the {span} in which it {e.act}"
        answer = mine if win is s else other
        aliases = (s.key.period.phrase(), *s.key.period.forms()) if win is s else win.key.period.forms()
        clues = (f"In which {span} did this happen: {company} {e.act}?", ask(t.key, company, self.common))
        items = [(s.fact, self._period_line(s)), (t.fact, self._period_line(t))]
        found = self._candidate("event_comparison", [s, t], items, question, answer, aliases=aliases,
                                options=(mine, other), winner=win, clues=clues)
        return self._with_event(found, chain, {"pair": f"event|{quarter}|comparison", "event_day": e.day.isoformat()})

    def _candidate(
        self, form: str, statements: Sequence[Statement], items: Sequence[tuple[Any, ...]],
        question: str, answer: str, *, aliases: Sequence[str] = (), options: Sequence[str] = (),
        winner: Statement | None = None, clues: Sequence[str] = (), extra: dict[str, Any] | None = None,
    ) -> Candidate:
        """items: (fact, (chunk id, line) …) per filing: the row, then the lines that write its period or company."""
        supporting = []
        answer_doc = (winner or statements[-1]).fact.doc_id
        for fact, *lines in items:
            chunk_ids, quotes = [fact.chunk_id], [fact.sentence]
            for line in lines:
                if line and line[0] not in chunk_ids:
                    chunk_ids.append(line[0])
                if line and line[1] not in quotes:
                    quotes.append(line[1])
            supporting.append(SupportingItem(doc_id=fact.doc_id, chunk_ids=tuple(chunk_ids), quotes=tuple(quotes),
                                             contains_truth=fact.doc_id == answer_doc))
        # every other passage that states a hop's figure (the quarter repeated as next year's prior-year column)
        # is a positive of that hop, checked against the figure
        positives = [
            {"doc_id": f.doc_id, "chunk_id": f.chunk_id, "quote": f.sentence, "item": i, "value": s.value}
            for i, s in enumerate(statements) for f in s.facts[1:20]
        ]
        return Candidate(
            question=question, answer=answer, aliases=tuple(a for a in aliases if a and a != answer),
            supporting=tuple(supporting), hops=len(supporting),
            truth_type=TruthType.ENTITY if options else TruthType.NUMBER,
            clues=tuple(clues), generator="natural",
            metadata={
                "form": form, "generator_part": "filings", "split_by": "fact",
                "relations": [s.key.relation() for s in statements],
                # the split keeps facts on one side: by row, and by company, period and value (one figure
                # under two labels is one fact)
                "fact_keys": [k for s in statements for k in (fact_key(s.fact, s.company), _value_id(s))],
                "statements": [_id(s) for s in statements],
                POSITIVES: positives,
                **({"options": list(options)} if options else {}),
                **(extra or {}),
            },
        )


def _quarter_first(items: Sequence[Any], chain_of: Any, rng: random.Random) -> Any:
    """One of `items`, drawn by its event's company and period first (each quarter as likely as another)."""
    by_quarter: dict[str, list[Any]] = defaultdict(list)
    for x in items:
        c = chain_of(x)
        by_quarter[f"{fold(c.event.company)}|{c.period.end.isoformat()}"].append(x)
    return rng.choice(by_quarter[rng.choice(sorted(by_quarter))])


def with_period_tasks(generator: Any, mined: MinedCorpus, facts: FactBase) -> Any:
    """`generator` with the filings forms added when the corpus has table statements; else itself."""
    wrapped = PeriodTasks(generator, mined, facts)
    return wrapped if wrapped.statements else generator


def screen_prose(
    found: Candidate | DropReason, asked: set[str], stages: Counter, common: frozenset[str] | None = None,
) -> Candidate | DropReason:
    """The prose generator's candidate, unless a folder of filings or reports makes it a repeat or its
    subject a heading.

    Such folders repeat their prose document after document ("In October 2014, the European Commission
    opened a formal investigation …" in four 10-Qs, the NTSB's own description in every report): the fact
    asked once is asked (its other passages are extra positives). A subject that is a heading run into a
    name ("Legal Proceedings Epic Games Epic Games, Inc.", "Litigation Related to") names nothing a
    person would ask about. asked: the questions and fact keys written so far."""
    if isinstance(found, DropReason):
        return found
    keys = found.metadata.get("fact_keys") or ()
    if normalize(found.question) in asked or any(k in asked for k in keys):
        stages["prose:repeat"] += 1
        return DropReason.DUPLICATE
    subjects = [k.split("|", 1)[0] for k in keys]
    if any(_heading_subject(sub) for sub in subjects) or _heading_subject(found.question):
        stages["prose:heading_subject"] += 1
        return DropReason.NO_ANSWER_SPAN
    if common is not None and any(_defined_term(x, common) for x in (*_written(found, subjects), found.answer)):
        stages["prose:defined_term"] += 1
        return DropReason.NO_ANSWER_SPAN
    if re.search(r"(?i)\b(?:our|we|us)\b", found.question):
        # the filer's own voice ("When was Paula F. Baker appointed our Chief Human Resources Officer?"): who is "our"?
        stages["prose:first_person"] += 1
        return DropReason.NO_ANSWER_SPAN
    return found


def _written(found: Candidate, subjects: Sequence[str]) -> list[str]:
    """The subjects as the question writes them (fact keys are folded: "plan" is "Plan" in the question)."""
    out = []
    for sub in subjects:
        m = re.search(rf"(?i)\b{re.escape(sub)}\b", found.question)
        out.append(m.group(0) if m else sub)
    return out


def _defined_term(text: str, common: frozenset[str]) -> bool:
    """A contract's defined term used as a name: "Company", "Participant", "Plan", "Shares", "This Award
    Agreement" in a 10-Q's exhibits — capitalised words every one of which the corpus also writes as a common
    word. "Who held Shares?" → "Participant" asks nothing a reader can place; "Intel", "the European
    Commission" ("european" is no common word here) are names."""
    words = re.sub(r"^(?:this|the|such)\s+", "", text.strip(), flags=re.IGNORECASE).split()
    return 0 < len(words) <= 3 and all(w[:1].isupper() and w[1:].islower() and w.lower() in common for w in words)


_HEADING_WORDS = re.compile(
    r"(?i)\b(?:legal proceedings|litigation related to|risk factors|note \d+|item \d+[a-z]?\.?|part i+)\b"
)


def _heading_subject(text: str) -> bool:
    """A subject (or question) that carries a 10-Q heading, ends on a preposition, or names itself twice."""
    words = fold(text).split()
    doubled = any(words[i:i + 2] == words[i + 2:i + 4] for i in range(len(words) - 3))
    return bool(_HEADING_WORDS.search(text)) or (bool(words) and words[-1] in {"to", "of", "for", "in", "on"}) or doubled


# One line item under the names the five filers give it, for comparing companies: Intel's "Net revenue",
# Apple's "Total net sales" and Microsoft's "Total revenue" are each company's top line. Only company totals
# are listed: a bare "Net sales" row is a segment's in Amazon's tables.
_CONCEPTS = {
    "revenue": ("revenue", "total revenue", "net revenue", "total net revenue", "total net sales", "total revenues"),
    "net income": ("net income", "net income (loss)"),
    "operating income": ("operating income", "operating income (loss)", "total operating income"),
    "gross margin": ("gross margin", "total gross margin", "gross profit"),
    "research and development expense": ("research and development", "research and development expense",
                                         "research and development expenses"),
    "interest expense": ("interest expense",),
    "income before income taxes": ("income before income taxes", "income (loss) before income taxes",
                                   "income before provision for income taxes"),
    "provision for income taxes": ("provision for income taxes", "provision for (benefit from) income taxes",
                                   "provision for (benefit from) taxes"),
    "cash and cash equivalents": ("cash and cash equivalents", "total cash and cash equivalents"),
    "inventories": ("inventories", "total inventories"),
    "total assets": ("total assets",),
    "total liabilities": ("total liabilities",),
    "goodwill": ("goodwill",),
}
_CONCEPT_OF = {fold(name): concept for concept, names in _CONCEPTS.items() for name in names}


def concept(s: Statement) -> str:
    """The statement's metric as a line item comparable across companies ("" when it is not one of them)."""
    return _CONCEPT_OF.get(fold(s.key.metric), "")


def _more(s: Statement) -> str:
    """"higher" for a rate or a percentage ("Intel's effective tax rate"), "larger" for an amount."""
    return "higher" if s.value.endswith("%") or re.search(r"(?i)\b(?:rate|percentage|percent)\b", s.key.metric) else "larger"


def _anchor(s: Statement) -> bool:
    """Whether a figure names its quarter as a person would: an amount of money of some size ("net income was
    $2,872 million"); "realized gains … were $3 million" or a count of shares is no way to name a quarter."""
    n = s.number()
    return bool(s.key.unit) and n is not None and n >= 100


def _calendar_quarter(s: Statement) -> dt.date | None:
    """The calendar quarter end within a week of a quarter statement's end (Apple's July 1, 2023 and Amazon's
    June 30, 2023 are one quarter); None for another length or a fiscal quarter off the calendar (NVIDIA's
    October 29)."""
    if s.key.period.length != "quarter":
        return None
    day = s.key.period.end
    for year in (day.year - 1, day.year):
        for month, last in ((3, 31), (6, 30), (9, 30), (12, 31)):
            end = dt.date(year, month, last)
            if abs((day - end).days) <= 7:
                return end
    return None


def _verb(s: Statement) -> str:
    return verb_for(s.key.metric)


def _value_id(s: Statement) -> str:
    return f"{fold(s.company)}|{s.key.period.key()}|{fold(s.value)}"


def _id(s: Statement) -> str:
    return f"{fold(s.company)}|{s.key.relation()}"
