"""Questions about what earnings calls state (issue 36: a folder of transcripts), from `datagen.call_figures`.

Forms (metadata["form"]), each naming the company and the quarter as the call's identity gives them:
- single:     "What revenue did Aaron's report for the first quarter of 2021?" → "$481.1 million";
              guidance: "What full-year 2021 revenue range did Aaron's guide to on its first-quarter 2021 call?"
              → "between $1.725 billion and $1.775 billion".
- comparison across quarters (two calls of one company): "Did Cleveland-Cliffs report higher revenue for the
              first quarter of 2021 or for the second quarter of 2021?";
- comparison across companies (two calls of one quarter): "Which company reported higher revenue for the third
              quarter of 2022, AGNC Investment or Acadia Realty Trust?";
- compare_read (a folder of one quarter's calls, where no bridge is possible; `--mix call_compare_read`, session 47):
              "What revenue did the company with the higher FFO per share for the third quarter of 2022, Whitestone
              REIT or Easterly Government Properties, report for that quarter?": both calls' figures decide which
              company, that company's call gives the answer. Asked only where both companies state the second metric
              and their values differ (the comparison decides the answer). Its answer is a figure, never one of the two
              companies: it is no comparison for the comparisons' share;
- bridge:     "In the quarter in which Aaron's reported revenue of $481.1 million, what adjusted EBITDA did
              Cleveland-Cliffs report?": the first call gives the quarter, the second company's call for that
              quarter the figure. Asked only where the second company has calls for two or more quarters whose
              figures differ, so the quarter (the first call) decides the answer.

A statement is (company, metric, period[, the call that guides]) with the value every passage that states it
agrees on (unhedged; "approximately" is a passage, not a source); every passage that states it is gold
(prepared remarks and answers repeat their figures: extra positives). Comparisons are held to
`comparison_share` of the multi-hop tasks written (issue 36: ≤ 25 %), bridges fill the rest; a folder with no
bridge (one quarter of calls) writes its comparisons up to the share and single-hop questions after.

On a calls' document the prose generator (datagen.natural) asks what base asked: "Which place does Dana join us
from?", "Who will Jeff Klenk succeed?" → "Tom" (base on the ECTSum tuning calls: 25 tasks at `--n 150`, most of them
neither natural nor whole); those are refused unless `prose` (`--mix call_prose=1`), counted `prose:call_document`,
and a folder of calls only never asks the prose generator.

`with_call_tasks` wraps the corpus's generator: a corpus with no call is left to it unchanged.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from datagen.call_figures import (
    CallFigure,
    CallIdentity,
    figure_number,
    is_call,
    period_forms,
    period_phrase,
    read_call_figures,
    same_value,
)
from datagen.mining import MinedCorpus, fold
from datagen.positives import POSITIVES
from datagen.types import Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import normalize

COMPARISON_SHARE = 0.25  # issue 36: comparisons at most a quarter of the multi-hop tasks (real sets: 2Wiki's 46 % compositional)


# a call that names its quarter or year as the company's fiscal one
_OWN_CALENDAR = re.compile(r"(?i)\bfiscal (?:(?:first|second|third|fourth)[- ]quarter|Q[1-4]|'\d{2}\b|(?:year )?(?:19|20)\d{2}\b)")
# with the guards (session 47), the year before the word too: "ended our 2020 fiscal year" (KB Home, whose calls
# never say "fiscal 2020": its November quarters had been bridged to calendar ones). Not "our fiscal year": on 593
# fresh ECTSum train calls it added 7 calendar companies (Arrow, Harley-Davidson, JLL, Wesco …) for 1 fiscal one
_OWN_CALENDAR_MORE = re.compile(r"(?i)\b(?:19|20)\d{2} fiscal (?:year|(?:first |second |third |fourth )?quarter)\b")


@dataclass(frozen=True)
class CallStatement:
    """One (company, metric, period) a call states, its value, and every passage that states it (the
    unhedged ones first, the asked one first of all). `call` is the guiding call's doc id for guidance."""

    company: str
    metric: str
    period: str
    value: str
    guidance: bool
    call: str
    facts: tuple[CallFigure, ...]

    @property
    def fact(self) -> CallFigure:
        return self.facts[0]

    def ident(self) -> str:
        return "|".join((fold(self.company), self.metric, self.period, "guidance" if self.guidance else "actual",
                         self.call if self.guidance else ""))

    def number(self) -> float | None:
        return figure_number(self.value)


def read_call_statements(figures: list[CallFigure], skipped: Counter) -> list[CallStatement]:
    """The statements whose unhedged passages agree on one value; the rest counted."""
    groups: dict[tuple[Any, ...], list[CallFigure]] = defaultdict(list)
    for f in figures:
        groups[(*f.key(), f.doc_id if f.guidance else "")].append(f)
    out = []
    for (_, metric, period, guidance, call), fs in sorted(groups.items(), key=lambda kv: kv[0]):
        firm = [f for f in fs if not f.hedged]
        if not firm:
            skipped["call:only_hedged"] += 1
            continue
        value = firm[0].value
        if any(not same_value(f.value, value) for f in firm):
            skipped["call:ambiguous"] += 1  # two figures for one metric and period: a segment's and the total's
            continue
        seen: dict[str, CallFigure] = {}
        for f in sorted(fs, key=lambda f: (f.hedged, f.doc_id, f.chunk_id)):
            if same_value(f.value, value):  # a hedged passage of the same value is a passage that states it
                seen.setdefault(f.chunk_id, f)
        out.append(CallStatement(firm[0].company, metric, period, value, guidance, call, tuple(seen.values())))
    skipped["call:statements"] = len(out)
    return out


class CallTasks:
    """The corpus's generator with the calls' forms added (see the module docstring)."""

    def __init__(self, inner: Any, mined: MinedCorpus, *, share: float = 0.5,
                 comparison_share: float = COMPARISON_SHARE, prose: bool = False, tries: int = 20,
                 guards: bool = False, compare_read: bool = False) -> None:
        self.inner = inner
        # the prose generator's questions about a call ("Which place does Dana join us from?"): asked only with prose
        self.prose = prose
        self.call_docs = {doc for doc, chunks in mined.chunks.items() if chunks and is_call(chunks[0].metadata or {})}
        self.all_calls = bool(self.call_docs) and self.call_docs == set(mined.chunks)
        self.mined = mined
        self.share = share
        self.comparison_share = comparison_share
        self.tries = tries
        self.own_stages: Counter = Counter()
        self.identities, figures = read_call_figures(mined, self.own_stages, guards=guards)
        self.own_stages["call:figures"] = len(figures)
        self.statements = read_call_statements(figures, self.own_stages)
        self.singles = list(self.statements)
        self.uses: Counter = Counter()
        self._tried: set[tuple[str, ...]] = set()
        self.written = Counter()  # "comparison" / "bridge" multi-hop tasks written
        # companies on a fiscal calendar of their own ("fiscal third quarter", "fiscal 2021"): their "Q3 2021" is not
        # another company's, so they take no part in questions across companies (a fiscal third quarter had been
        # bridged to a calendar one)
        self.own_calendar = {fold(ident.company) for doc, ident in self.identities.items()
                             if any(_OWN_CALENDAR.search(c.text) for c in mined.chunks.get(doc, []))}
        self.own_stages["call:own_calendar_companies"] = len(self.own_calendar)
        if guards:
            more = {fold(ident.company) for doc, ident in self.identities.items()
                    if any(_OWN_CALENDAR_MORE.search(c.text) for c in mined.chunks.get(doc, []))} - self.own_calendar
            self.own_calendar |= more
            self.own_stages["call:own_calendar_words"] = len(more)
        actual = [s for s in self.statements if not s.guidance and s.number() is not None and (s.number() or 0) > 0]
        by_series: dict[tuple[str, str, str], list[CallStatement]] = defaultdict(list)
        by_period: dict[tuple[str, str], list[CallStatement]] = defaultdict(list)
        for s in actual:
            by_series[(fold(s.company), s.metric, s.period[0])].append(s)  # quarters with quarters, years with years
            if fold(s.company) not in self.own_calendar:
                by_period[(s.metric, s.period)].append(s)
        self.series = {k: v for k, v in by_series.items() if len({s.period for s in v}) >= 2}
        self.across = {k: v for k, v in by_period.items() if len({fold(s.company) for s in v}) >= 2}
        # a bridge's second company: two or more quarters of one metric whose values differ (the quarter decides)
        self.bridge_ends = [s for k, v in self.series.items() for s in v
                            if s.period.startswith("Q") and len({round(x.number() or 0, 6) for x in v}) >= 2
                            and fold(s.company) not in self.own_calendar]
        self.anchors = [s for s in actual if s.period.startswith("Q") and not s.metric.endswith(("per share", "margin"))
                        and fold(s.company) not in self.own_calendar and self._names_one_quarter(s)]
        # an end needs another company's figure for its quarter to name that quarter
        self.bridge_ends = [b for b in self.bridge_ends if any(
            a.period == b.period and fold(a.company) != fold(b.company) and self._apart(a, b) for a in self.anchors)]
        # a folder of one quarter's calls has no bridge: a comparison that decides whose figure is asked (compare_read)
        self.read_pairs: list[tuple[CallStatement, CallStatement]] = []
        if compare_read and not self.bridge_ends:
            stated: dict[tuple[str, str], dict[str, CallStatement]] = defaultdict(dict)
            for s in actual:
                stated[(fold(s.company), s.period)][s.metric] = s
            self.stated = stated
            self.read_pairs = [(a, b) for group in self.across.values() for i, a in enumerate(group) for b in group[i + 1:]
                               if fold(a.company) != fold(b.company) and self._apart(a, b) and a.number() != b.number()
                               and self._read_metrics(a, b)]
            self.own_stages["call:compare_read_pairs"] = len(self.read_pairs)
        self.own_stages["call:series"] = len(self.series)
        self.own_stages["call:company_groups"] = len(self.across)
        self.own_stages["call:bridge_ends"] = len(self.bridge_ends)

    # -- the Generator protocol ----------------------------------------------------------------------
    @property
    def stages(self) -> Counter:
        return Counter(getattr(self.inner, "stages", {})) + self.own_stages

    def commit(self, candidate: Candidate) -> None:
        for k in candidate.metadata.get("statements", ()):
            self.uses[k] += 1
        form = candidate.metadata.get("form", "")
        if candidate.hops > 1:
            self.written["comparison" if "comparison" in form else "other"] += 1
        if candidate.metadata.get("generator_part") != "calls":
            self.inner.commit(candidate)

    def _comparisons_due(self) -> bool:
        """Whether one more comparison keeps them within their share of the multi-hop tasks."""
        total = self.written["comparison"] + self.written["other"] + 1
        return (self.written["comparison"] + 1) <= self.comparison_share * total + 1e-9

    def _bridges_left(self) -> bool:
        return bool(self.bridge_ends and self.anchors)

    def _inner_spent(self, hops: int) -> str | None:
        if self.all_calls and not self.prose:
            return "a folder of calls: the prose generator's questions are not asked (--mix call_prose=1 asks them)"
        inner = getattr(self.inner, "exhausted", None)
        return inner(hops) if inner is not None else None

    def _inner_propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        found = self.inner.propose(hops, rng)
        if not self.prose and isinstance(found, Candidate) and set(found.doc_ids) <= self.call_docs:
            self.own_stages["prose:call_document"] += 1
            return DropReason.NO_ANSWER_SPAN
        return found

    def exhausted(self, hops: int) -> str | None:
        why = self._inner_spent(hops)
        if hops == 1 and self.singles:
            return None
        if hops == 2 and (self._bridges_left() or bool(self.read_pairs)
                          or (self._comparisons_due() and (self.series or self.across))):
            return None
        if why is None:
            return None
        own = ("calls: every figure asked" if hops == 1 else
               "calls: no bridge left (one needs a company with calls for two quarters whose figures differ, and another "
               "company's call for one of them) and comparisons are held to "
               f"{self.comparison_share:.0%} of the multi-hop tasks" if hops == 2 else
               "calls: a chain of three calls is not built")
        return f"{why}; {own}"

    def single_fill(self) -> str:
        inner = getattr(self.inner, "single_fill", None)
        note = inner() if inner is not None and not (self.all_calls and not self.prose) else ""
        if note or not self.singles:
            return note
        return ("the calls' multi-hop tasks are spent (comparisons held to their share, bridges only where a company has "
                "two quarters): single-hop figure questions are written for the rest")

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        inner_spent = self._inner_spent(hops) is not None
        if hops > 2 or (not inner_spent and rng.random() >= self.share):
            return self._inner_propose(hops, rng) if not inner_spent else DropReason.NO_CHAIN
        if hops == 1:
            if not self.singles:
                return self._inner_propose(hops, rng) if not inner_spent else DropReason.NO_ANSWER_SPAN
            return self._single(rng)
        forms = []
        if self._bridges_left():
            forms.append("bridge")
        if self.read_pairs:
            forms.append("compare_read")
        if self._comparisons_due():
            forms += [f for f, ok in (("periods", self.series), ("companies", self.across)) if ok]
        if not forms:
            return self._inner_propose(hops, rng) if not inner_spent else DropReason.NO_CHAIN
        form = rng.choice(forms)
        make = {"periods": self._compare_periods, "companies": self._compare_companies, "bridge": self._bridge,
                "compare_read": self._compare_read}[form]
        found: Candidate | DropReason = DropReason.NO_CHAIN
        for _ in range(self.tries):
            found = make(rng)
            if not isinstance(found, DropReason):
                break
        self.own_stages[f"calls:{form}:{'no' if isinstance(found, DropReason) else 'proposed'}"] += 1
        if isinstance(found, DropReason) and form == "bridge":
            self.own_stages["calls:bridge_tries_spent"] += 1
            if self.own_stages["calls:bridge_tries_spent"] >= 50:
                self.bridge_ends = []  # fifty rounds found no new bridge: the folder's are spent
        return found

    # -- forms ---------------------------------------------------------------------------------------
    def _fresh(self, *parts: str) -> bool:
        if parts in self._tried:
            return False
        self._tried.add(parts)
        return True

    def _single(self, rng: random.Random) -> Candidate:
        s = self.singles.pop(rng.randrange(len(self.singles)))  # each statement asked once
        ident = self.identities[s.fact.doc_id]
        question = ask_call(s, ident)
        return self._candidate("single", [s], question, s.value, truth=TruthType.NUMBER)

    def _compare_periods(self, rng: random.Random) -> Candidate | DropReason:
        series = self.series[rng.choice(sorted(self.series))]
        a, b = sorted(rng.sample(series, 2), key=lambda s: s.period.split()[::-1])
        if a.period == b.period or not self._apart(a, b) or not self._fresh("periods", a.ident(), b.ident()):
            return DropReason.NO_CHAIN
        na, nb = a.number(), b.number()
        if na is None or nb is None or na == nb:
            return DropReason.NO_ANSWER_SPAN
        win = a if na > nb else b
        pa, pb = period_phrase(a.period), period_phrase(b.period)
        question = f"Did {a.company} report higher {a.metric} for {pa} or for {pb}?"
        return self._candidate("comparison", [a, b], question, period_phrase(win.period), winner=win,
                               options=(pa, pb), aliases=period_forms(win.period)[:4])

    def _compare_companies(self, rng: random.Random) -> Candidate | DropReason:
        group = self.across[rng.choice(sorted(self.across))]
        a, b = rng.sample(group, 2)
        if fold(a.company) == fold(b.company) or not self._apart(a, b):
            return DropReason.NO_CHAIN
        if not self._fresh("companies", *sorted((a.ident(), b.ident()))):
            return DropReason.DUPLICATE
        na, nb = a.number(), b.number()
        if na is None or nb is None or na == nb:
            return DropReason.NO_ANSWER_SPAN
        win = a if na > nb else b
        if not (self._names_company(a) and self._names_company(b)):
            self.own_stages["calls:company_not_in_call"] += 1
            return DropReason.NO_ANSWER_SPAN
        question = (f"Which company reported higher {a.metric} for {period_phrase(a.period)}, "
                    f"{a.company} or {b.company}?")
        return self._candidate("comparison", [a, b], question, win.company, winner=win, options=(a.company, b.company))

    def _bridge(self, rng: random.Random) -> Candidate | DropReason:
        b = rng.choice(self.bridge_ends)
        anchors = [a for a in self.anchors if a.period == b.period and fold(a.company) != fold(b.company)
                   and self._apart(a, b)]
        if not anchors:
            self.own_stages["calls:bridge_no_anchor"] += 1
            return DropReason.NO_CHAIN
        # the headline figure names a quarter as a person names it ("revenue of $481.1 million")
        headline = [a for a in anchors if a.metric == "revenue"]
        a = rng.choice(headline if headline and rng.random() < 0.7 else anchors)
        if self.uses[b.ident()] >= 2 or not self._fresh("bridge", a.ident(), b.ident()):
            return DropReason.DUPLICATE
        if normalize(b.value) in normalize(a.value) or not self._names_period(a):
            return DropReason.NO_ANSWER_SPAN
        question = (f"In the quarter in which {a.company} reported {a.metric} of {a.value}, "
                    f"what {b.metric} did {b.company} report?")
        ident_b = self.identities[b.fact.doc_id]
        clues = (f"In which quarter did {a.company} report {a.metric} of {a.value}?", ask_call(b, ident_b))
        return self._candidate("bridge", [a, b], question, b.value, truth=TruthType.NUMBER, clues=clues)

    def _read_metrics(self, a: CallStatement, b: CallStatement) -> list[str]:
        """The metrics other than the compared one both companies state for the quarter, with values that differ."""
        sa, sb = self.stated[(fold(a.company), a.period)], self.stated[(fold(b.company), b.period)]
        return sorted(m for m in set(sa) & set(sb) if m != a.metric and not same_value(sa[m].value, sb[m].value)
                      and sa[m].fact.doc_id == a.fact.doc_id and sb[m].fact.doc_id == b.fact.doc_id)

    def _compare_read(self, rng: random.Random) -> Candidate | DropReason:
        a, b = rng.choice(self.read_pairs)
        if rng.random() < 0.5:
            a, b = b, a
        metric = rng.choice(self._read_metrics(a, b))
        if not self._fresh("compare_read", *sorted((a.ident(), b.ident())), metric):
            return DropReason.DUPLICATE
        if max(self.uses[a.ident()], self.uses[b.ident()]) >= 2:
            return DropReason.DUPLICATE  # one company's figure in every question (tuning: ISC's revenue in 4 of 7)
        if not (self._names_company(a) and self._names_company(b)):
            self.own_stages["calls:company_not_in_call"] += 1
            return DropReason.NO_ANSWER_SPAN
        win = a if (a.number() or 0) > (b.number() or 0) else b
        read = self.stated[(fold(win.company), win.period)][metric]
        if self.uses[read.ident()] >= 2 or normalize(read.value) in normalize(f"{a.value} {b.value}"):
            return DropReason.DUPLICATE
        question = (f"What {metric} did the company with the higher {a.metric} for {period_phrase(a.period)}, "
                    f"{a.company} or {b.company}, report for that quarter?")
        found = self._candidate("compare_read", [a, b, read], question, read.value, truth=TruthType.NUMBER, winner=read,
                                options=(a.company, b.company))
        # one supporting item per call: the winner's call holds its compared figure and the figure asked
        items: dict[str, SupportingItem] = {}
        for item in found.supporting:
            held = items.get(item.doc_id)
            items[item.doc_id] = item if held is None else SupportingItem(
                doc_id=item.doc_id, chunk_ids=tuple(dict.fromkeys(held.chunk_ids + item.chunk_ids)),
                quotes=tuple(dict.fromkeys(held.quotes + item.quotes)), contains_truth=held.contains_truth or item.contains_truth)
        order = list(items)
        positives = [{**p, "item": order.index([a, b, read][p["item"]].fact.doc_id)} for p in found.metadata[POSITIVES]]
        return dataclasses.replace(found, supporting=tuple(items.values()), hops=len(items),
                                   metadata={**found.metadata, POSITIVES: positives})

    # -- evidence ------------------------------------------------------------------------------------
    def _names_one_quarter(self, a: CallStatement) -> bool:
        """Whether "the quarter in which A reported its metric of X" is one quarter: no other quarter's value is X."""
        return sum(1 for s in self.statements if fold(s.company) == fold(a.company) and s.metric == a.metric
                   and not s.guidance and same_value(s.value, a.value)) == 1

    def _apart(self, a: CallStatement, b: CallStatement) -> bool:
        """Two statements only different calls hold (else one hop)."""
        return not ({f.doc_id for f in a.facts} & {f.doc_id for f in b.facts})

    def _line(self, doc_id: str, wanted: Any) -> tuple[str, str] | None:
        """(chunk id, line) of the first line of the call that `wanted` accepts."""
        for c in self.mined.chunks.get(doc_id, []):
            for line in c.text.split("\n"):
                if wanted(line):
                    return c.chunk_id, line.strip()
        return None

    def _period_line(self, s: CallStatement) -> tuple[str, str] | None:
        forms = [normalize(f) for f in period_forms(s.period)[:4]]
        if any(f in normalize(s.fact.sentence) for f in forms):
            return None  # the figure's own sentence names the quarter
        return self._line(s.fact.doc_id, lambda line: any(f in normalize(line) for f in forms) and len(line) < 400)

    def _names_period(self, s: CallStatement) -> bool:
        forms = [normalize(f) for f in period_forms(s.period)[:4]]
        return any(f in normalize(s.fact.sentence) for f in forms) or self._period_line(s) is not None

    def _company_line(self, s: CallStatement) -> tuple[str, str] | None:
        rx = re.compile(rf"\b{re.escape(s.company)}\b")  # a name as written: "AN" is no "an"
        if rx.search(s.fact.sentence):
            return None
        return self._line(s.fact.doc_id, lambda line: bool(rx.search(line)) and len(line) < 400)

    def _names_company(self, s: CallStatement) -> bool:
        rx = re.compile(rf"\b{re.escape(s.company)}\b")  # a name as written: "AN" is no "an"
        return bool(rx.search(s.fact.sentence)) or self._company_line(s) is not None

    def _candidate(
        self, form: str, statements: list[CallStatement], question: str, answer: str, *,
        truth: TruthType = TruthType.ENTITY, winner: CallStatement | None = None, options: tuple[str, ...] = (),
        aliases: tuple[str, ...] = (), clues: tuple[str, ...] = (),
    ) -> Candidate:
        answer_doc = (winner or statements[-1]).fact.doc_id
        supporting = []
        for s in statements:
            chunk_ids, quotes = [s.fact.chunk_id], [s.fact.sentence]
            extra = [self._period_line(s)] if form != "single" else []
            if form in ("comparison", "compare_read") and s.company in options:  # companies compared: the line naming each
                extra.append(self._company_line(s))
            for line in extra:
                if line is not None:
                    if line[0] not in chunk_ids:
                        chunk_ids.append(line[0])
                    if line[1] not in quotes:
                        quotes.append(line[1])
            supporting.append(SupportingItem(doc_id=s.fact.doc_id, chunk_ids=tuple(chunk_ids), quotes=tuple(quotes),
                                             contains_truth=s.fact.doc_id == answer_doc))
        # every other passage that states a hop's figure (the remarks' figure repeated in an answer) is gold
        positives = [{"doc_id": f.doc_id, "chunk_id": f.chunk_id, "quote": f.sentence, "item": i, "value": f.value}
                     for i, s in enumerate(statements) for f in s.facts[1:20]]
        return Candidate(
            question=question, answer=answer, aliases=tuple(a for a in aliases if a and a != answer),
            supporting=tuple(supporting), hops=len(supporting), truth_type=truth, clues=clues, generator="natural",
            metadata={
                "form": form, "generator_part": "calls", "split_by": "fact",
                "relations": [f"call:{s.metric}{':guidance' if s.guidance else ''}" for s in statements],
                "fact_keys": [f"call:{s.ident()}" for s in statements],
                "statements": [s.ident() for s in statements],
                POSITIVES: positives,
                **({"options": list(options)} if options else {}),
            },
        )


def ask_call(s: CallStatement, ident: CallIdentity) -> str:
    """The single question, naming the company and the period (and for guidance, the call it was given on)."""
    if s.guidance:
        call = f"{ident.quarter_phrase().removeprefix('the ').replace(' quarter of ', '-quarter ')} call"
        target = period_phrase(s.period).removeprefix("the ").replace(" quarter of ", "-quarter ")
        return f"What {target} {s.metric} range did {s.company} guide to on its {call}?"
    return f"What {s.metric} did {s.company} report for {period_phrase(s.period)}?"


def calls_only(mined: MinedCorpus) -> bool:
    """Whether every document of the corpus is an earnings call (the prose generator then has nothing to ask:
    `run_datagen` skips its parse, minutes on a folder of calls)."""
    return bool(mined.chunks) and all(chunks and is_call(chunks[0].metadata or {}) for chunks in mined.chunks.values())


class NoProse:
    """The prose generator's place in a folder of calls only, when its questions are not asked."""

    stages: Counter = Counter()

    def propose(self, hops: int, rng: random.Random) -> DropReason:
        return DropReason.NO_CHAIN

    def commit(self, candidate: Candidate) -> None:
        pass

    def exhausted(self, hops: int) -> str:
        return "a folder of calls: the prose generator's questions are not asked (--mix call_prose=1 asks them)"


def with_call_tasks(generator: Any, mined: MinedCorpus, *, comparison_share: float = COMPARISON_SHARE,
                    prose: bool = False, guards: bool = False, compare_read: bool = False) -> Any:
    """`generator` with the calls' forms added when the corpus holds calls; else itself (a folder with no call is
    left to it unchanged). prose: the prose generator's questions about calls are asked too. guards: session 47's
    precision guards (datagen.call_figures; `--mix call_guards`). compare_read: the compare-then-read form in a folder
    with no bridge (`--mix call_compare_read`)."""
    wrapped = CallTasks(generator, mined, comparison_share=comparison_share, prose=prose, guards=guards,
                        compare_read=compare_read)
    return wrapped if wrapped.call_docs else generator
