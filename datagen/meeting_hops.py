"""Questions across two meetings of one series or one committee (issue 36: "no multi-hop on meetings", session 51).

`datagen.meeting_said` asks a fact of one named meeting ("In the ES2002 detailed design meeting, what production
cost did the project manager give?"). A folder's meetings come in order: a design team's series ("ES2002a" …
"ES2002d", `corpus_tools.meeting_names`) and a committee's numbered sittings ("the 14th meeting of the Special
Committee on …"). Two questions join two of them:

- **a bridge by order** (`meet_hops`): the second meeting is named only through what the first one states and its
  place after (or before) it: "In the ES2002 meeting after the one in which the marketing expert reported that
  seventy percent of users find remote controls ugly, what production cost did the project manager give?" Hop 1
  finds the meeting that states the finding, hop 2 reads the fact in the next meeting of its series. Genuine only
  when (each refused case counted in the funnel):
  - the two meetings are next to each other in the folder (ES2002a then ES2002b; the 14th sitting then the 15th):
    a series with a meeting missing has no "after" across the gap (``gap``);
  - the first meeting's statement is stated in no other meeting of the group (its kind and value, or its name):
    else "the one in which" names two meetings (``anchor_not_unique``);
  - the answer is not stated in the first meeting (the same value or name anywhere in its text): else a reader
    answers from hop 1 alone (``answer_in_earlier_meeting``);
  - the answer is not in the question (``answer_in_question``).
- **a comparison** (`meet_compare`): one quantity one speaker gave in two meetings of a series, the values
  differing: "Which production cost did the project manager give higher, the one in the ES2002 conceptual design
  meeting or the one in the ES2002 detailed design meeting?" → "twelve fifty Euro" (the higher value; a value the
  other meeting also states is refused, ``value_in_both``). NaturalConfig caps them at a share of the multi-hop
  tasks (issue 36: ≤ 25 %).

Only `meeting_said`'s facts are used (they are verbatim, one value a meeting): no new reading here. Everything is
counted in `funnel` ("meet_hop:*" stages of the run).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from corpus_tools.meeting_names import stem
from datagen.factbase import Fact
from datagen.meeting_said import _MONEY, FIGURES, PETITIONS, ROLES, SHARES, _number, _value
from datagen.mining import fold
from datagen.verify import contains

BRIDGE_FORM = "meet_bridge"
COMPARE_FORM = "meet_compare"
_SERIES = re.compile(r"^(?P<series>.*\d)(?P<letter>[a-h])$")
_SERIES_NAME = re.compile(r"^the (?:[a-z-]+ )+?(?P<series>\S*\d) (?:[a-z-]+ )*?meeting$")
_WORD_ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())}
_SITTING = re.compile(r"^the (?P<ord>\d{1,3}(?:st|nd|rd|th)|[a-z]+) (?P<kind>(?:virtual |hybrid |public |special )?meeting) "
                      r"(?P<body>of the .+)$")
_NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen "
    "eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred a".split())
_SHARE_ASK = re.compile(r"what percentage of (?P<finding>.+), according to (?P<who>.+)\?$")
_ROLE_ASK = re.compile(r"who was (?P<role>.+)\?$")
_PETITION_ASK = re.compile(r"which member presented (?P<what>a petition about .+)\?$")


# which statement of a meeting names it best in "the one in which …": a finding or a figure says most of it, a
# role's name least (every kick-off has one)
_ANCHOR_RANK = (SHARES, FIGURES, PETITIONS, ROLES)


@dataclass(frozen=True)
class MeetHop:
    """Two facts of two meetings (`first` read first) and the question joining them; `answer` is one of them."""

    first: Fact
    second: Fact
    question: str
    answer: Fact
    form: str

    @property
    def docs(self) -> tuple[str, str]:
        return self.first.doc_id, self.second.doc_id


def meeting_order(names: Mapping[str, str]) -> dict[str, tuple[str, int]]:
    """doc id → (its group's name in a question, its place in the group) for the named meetings whose order the folder
    shows: a series' letter ("ES2002c" → ("the ES2002 meeting", 3)), a sitting's number ("the 14th meeting of the
    Special Committee on X" → ("the meeting of the Special Committee on X", 14)); a meeting with neither is left out."""
    out: dict[str, tuple[str, int]] = {}
    for doc_id, name in names.items():
        m = _SERIES.match(stem(doc_id))
        if m and f" {m.group('series')} " in f"{name} ":
            out[doc_id] = (f"the {m.group('series')} meeting", ord(m.group("letter")) - ord("a") + 1)
            continue
        s = _SITTING.match(name)
        if not s:
            continue
        word = s.group("ord")
        place = int(re.sub(r"\D", "", word)) if word[0].isdigit() else _WORD_ORDINALS.get(word)
        if place:
            out[doc_id] = (f"the {s.group('kind')} {s.group('body')}", place)
    # two meetings at one place of one group (a sitting said twice) are no order
    seen = Counter(out.values())
    return {d: v for d, v in out.items() if seen[v] == 1}


def _body(fact: Fact, name: str) -> str:
    """The question a fact asks, without the meeting that names it ("what selling price did the project manager
    give?"); "" when the ask does not open with its meeting."""
    for lead in (f"In {name}, ", f"At {name}, "):
        if fact.ask.startswith(lead):
            return fact.ask[len(lead):]
    return ""


def _clause(fact: Fact, name: str) -> str:
    """What the meeting states, as "the one in which …" says it; "" for a fact this module does not describe."""
    body = _body(fact, name)
    if fact.relation.startswith(FIGURES):
        who = fact.subject.rsplit(" by ", 1)[-1]
        kind = fact.relation[len(FIGURES):].replace("-", " ")
        return f"{who} gave a {kind} of {_mid(fact.answer)}"
    if fact.relation.startswith(SHARES) and (m := _SHARE_ASK.search(body)):
        return f"{m.group('who')} reported that {_mid(fact.answer)} of {m.group('finding')}"
    if fact.relation.startswith(ROLES) and (m := _ROLE_ASK.search(body)):
        return f"{fact.answer} said they were {m.group('role')}"
    if fact.relation.startswith(PETITIONS) and (m := _PETITION_ASK.search(body)):
        return f"{fact.answer} presented {m.group('what')}"
    return ""


def _mid(value: str) -> str:
    """A spoken figure inside a sentence: "Seventy five percent" (a turn's first word) → "seventy five percent"."""
    return value[0].lower() + value[1:] if value.split()[0].lower() in _NUMBER_WORDS else value


def _numeric(fact: Fact) -> float | None:
    if fact.relation.startswith(FIGURES):
        return _value(fact.answer)
    if fact.relation.startswith(SHARES):
        return _number(re.sub(r" ?(?:percent|per cent|%)$", "", fact.answer, flags=re.IGNORECASE))
    return None


def _states(text: str, fact: Fact) -> bool:
    """Whether a meeting's text states the fact's answer anywhere: a money figure of the same value, a share said
    the same way, a name."""
    if fact.relation.startswith(FIGURES):
        value = _value(fact.answer)
        return any(_value(m.group("amount")) == value for m in _MONEY.finditer(text))
    return contains(text, fact.answer) or any(contains(text, a) for a in fact.aliases)


def _same_statement(anchor: Fact, text: str, facts: Sequence[Fact]) -> bool:
    """Whether another meeting (its text, its facts) states what `anchor` states: a fact of the same relation and
    answer; a figure of the same value anywhere (a price said again); a share said the same way; a petition's bill
    with its member (a role's name alone is said in every meeting a person is addressed: only its fact counts)."""
    value = _numeric(anchor)
    if any(f.relation == anchor.relation and (fold(f.answer) == fold(anchor.answer) or (
            value is not None and _numeric(f) == value)) for f in facts):
        return True
    if anchor.relation.startswith((FIGURES, SHARES)):
        return _states(text, anchor)
    if anchor.relation.startswith(PETITIONS):
        bill = anchor.subject.rsplit(": ", 1)[-1]
        return contains(text, bill) and contains(text, anchor.answer)
    return False


def meeting_hops(facts: Mapping[str, Sequence[Fact]], names: Mapping[str, str], texts: Mapping[str, str],
                 funnel: Counter) -> tuple[list[MeetHop], list[MeetHop]]:
    """(bridges, comparisons) across the ordered meetings of `facts` (`meeting_said`'s facts by doc id); names: doc id →
    its name (`corpus_tools.meeting_names`); texts: doc id → transcript. See the module docstring."""
    order = meeting_order({d: n for d, n in names.items() if d in facts})
    groups: dict[str, dict[int, str]] = defaultdict(dict)
    for doc_id, (group, place) in order.items():
        groups[group][place] = doc_id
    bridges: list[MeetHop] = []
    comparisons: list[MeetHop] = []
    asked: set = set()  # questions, and pairs of statements joined
    for group, members in sorted(groups.items()):
        for place, x in sorted(members.items()):
            for step, word in ((1, "after"), (-1, "before")):
                y = members.get(place + step)
                if y is None:
                    funnel["bridge:gap"] += 1 if (place + step) in range(1, max(members) + 1) else 0
                    continue
                _bridges(group, word, x, y, members, facts, names, texts, funnel, asked, bridges)
        _comparisons(group, members, facts, names, texts, funnel, asked, comparisons)
    funnel["bridge:asked"] += len(bridges)
    funnel["compare:asked"] += len(comparisons)
    return bridges, comparisons


def _bridges(group: str, word: str, x: str, y: str, members: Mapping[int, str], facts: Mapping[str, Sequence[Fact]],
             names: Mapping[str, str], texts: Mapping[str, str], funnel: Counter, asked: set,
             out: list[MeetHop]) -> None:
    others = [d for d in members.values() if d != x]
    used: set[tuple[str, str, str]] = set()
    for anchor in sorted(facts.get(x, ()), key=lambda f: _ANCHOR_RANK.index(f.relation.split("|")[0] + "|")):
        clause = _clause(anchor, names[x])
        if not clause:
            funnel["bridge:anchor_not_described"] += 1
            continue
        # "the one in which …" must name x alone in its group: no other meeting of it states the same
        if any(_same_statement(anchor, texts.get(d, ""), facts.get(d, ())) for d in others):
            funnel["bridge:anchor_not_unique"] += 1
            continue
        for target in facts.get(y, ()):
            body = _body(target, names[y])
            if not body:
                funnel["bridge:target_not_described"] += 1
                continue
            if _states(texts.get(x, ""), target):
                funnel["bridge:answer_in_earlier_meeting"] += 1
                continue
            if (target.sentence, target.answer, word) in used:
                funnel["bridge:target_asked_already"] += 1
                continue
            question = f"In {group} {word} the one in which {clause}, {body}"
            if contains(question, target.answer) or any(contains(question, a) for a in target.aliases):
                funnel["bridge:answer_in_question"] += 1
                continue
            pair = frozenset({(anchor.doc_id, anchor.sentence, anchor.answer), (target.doc_id, target.sentence, target.answer)})
            if question in asked or pair in asked:
                # the same two statements the other way round ("before the one in which Reissa said …, what price?" and
                # "after the one with that price, who was Reissa?"): one question reads both passages already
                funnel["bridge:pair_asked_already"] += 1
                continue
            asked.update((question, pair))
            used.add((target.sentence, target.answer, word))
            out.append(MeetHop(anchor, target, question, target, BRIDGE_FORM))


def _comparisons(group: str, members: Mapping[int, str], facts: Mapping[str, Sequence[Fact]], names: Mapping[str, str],
                 texts: Mapping[str, str], funnel: Counter, asked: set, out: list[MeetHop]) -> None:
    series = group[len("the "):-len(" meeting")] if group.endswith(" meeting") else ""
    if not series:
        return  # a committee's sittings: no quantity one member gives in two of them (petitions are names)
    by_body: dict[str, list[tuple[str, Fact]]] = defaultdict(list)
    for _place, doc_id in sorted(members.items()):
        for f in facts.get(doc_id, ()):
            if f.relation.startswith(FIGURES) and (body := _body(f, names[doc_id])):
                by_body[body].append((doc_id, f))
    for body, said in sorted(by_body.items()):
        for i, (a, fa) in enumerate(said):
            for b, fb in said[i + 1:]:
                if a == b:
                    continue
                funnel["compare:pairs"] += 1
                va, vb = _numeric(fa), _numeric(fb)
                if va is None or vb is None or va == vb:
                    funnel["compare:same_value"] += 1
                    continue
                high, low = (fa, fb) if va > vb else (fb, fa)
                if _states(texts.get(low.doc_id, ""), high):
                    funnel["compare:value_in_both"] += 1
                    continue
                m = re.match(r"what (?P<kind>.+) did (?P<who>.+) give\?$", body)
                if not m:
                    continue
                question = (f"Which {m.group('kind')} did {m.group('who')} give higher, the one in {names[a]} or the one "
                            f"in {names[b]}?")
                if question in asked:
                    continue
                asked.add(question)
                out.append(MeetHop(fa, fb, question, high, COMPARE_FORM))
