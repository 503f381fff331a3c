"""Fact questions about one named meeting, read from its speakers' own lines (issue 36, session 50).

What a participant or a reader asks of a meeting folder is a fact of one meeting: who held which role, what
figure someone gave, who brought what to the committee. Each question names its meeting as a user would
(`corpus_tools.meeting_names`), so it has one answer however often the folder's other meetings say the like; each
answer is a verbatim span of the line that states it (verified by extraction, as every other task). Three
readers, each its own `--mix` key:

- **roles** (`meet_roles`): a speaker labelled by a role ("Project Manager: … I'm Laura and I'm the project
  manager") who says their name → "In the ES2002 kick-off meeting, who was the project manager?" → "Laura"; a
  label that is a field, not a person noun ("Marketing"), is asked "who was in charge of marketing?".
- **figures** (`meet_figures`): a money figure said as a selling price, a production cost or a profit target
  ("we're gonna be selling this remote control for twenty five Euro") → "In the ES2002 kick-off meeting, what
  selling price did the project manager give?" → "twenty five Euro"; one meeting, one kind, one value (figures
  said as words are read as numbers: "twelve fifty", "twelve and a half" and "12.5" agree).
- **shares** (`meet_shares`): a finding a speaker reports as a share of a group ("seventy five percent of users
  find most remote controls ugly") → "In the ES2002 functional design meeting, what percentage of users find most
  remote controls ugly, according to the marketing expert?" → "seventy five percent" (the group people, users,
  respondents or customers; what they do or say a short clean clause: no filler, no stammer, no hedge).
- **petitions** (`meet_petitions`): a member presenting a petition about a bill ("Mr. Arnold Viersen (Peace
  River—Westlock, CPC): … I am presenting a petition … Bill C-7 …") → "At the 14th meeting of the Special
  Committee on the COVID-19 Pandemic, which member presented a petition about Bill C-7?" → "Arnold Viersen".

Refused (precision first: a person would not ask it, or the line does not state it): a hedge or a question
("maybe", "if", "would", "?"), a figure with no subject word beside it, two figures in one clause, a filler inside
the figure ("twelve uh fifty"), a name that is a common word ("I'm Sorry"), a speaker label that names no one
(a letter code, "PhD B"), a meeting with no name. Counts in `FactBase.skipped` ("said_*").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping

from corpus_tools.types import Chunk
from datagen.factbase import Fact
from datagen.meeting_guard import STATEMENT
from datagen.mining import fold
from datagen.types import TruthType

# this module's relations: "meet:said-role|", "meet:said-figure|", "meet:said-petition|", "meet:said-share|"
ROLES, FIGURES, PETITIONS, SHARES = (f"{STATEMENT}said-{k}|" for k in ("role", "figure", "petition", "share"))
SAID = (ROLES, FIGURES, PETITIONS, SHARES)

# "Mr. Garnett Genuis (Sherwood Park—Fort Saskatchewan, CPC): text" — a label may hold parentheses, nested
# ("The Chair (Hon. Anthony Rota (Nipissing—Timiskaming, Lib.))"); the first ":" outside them ends it
_MAX_LABEL = 160
_MAX_QUOTE = 700  # a petition's quote runs from its speaker's label: a longer one is a speech, not a quote
_TITLES = frozenset("mr mr. mrs mrs. ms ms. miss dr dr. hon hon. prof prof. the right rt. sir dame".split())
# a role label's last word when it names a person ("Project Manager"); else the label is a field ("Marketing")
_PERSON_NOUNS = frozenset(
    "manager designer expert chair chairman chairwoman chairperson secretary engineer director officer analyst "
    "lead leader head member minister clerk witness moderator facilitator developer researcher coordinator "
    "president treasurer".split()
)
_NAME = r"[A-Z][a-z]{1,14}(?:-[A-Z][a-z]{1,14})?"
# "I'm Laura", "my name's David", "I am Craig": the name then a clause end, "and", or the end of the turn
_INTRO = re.compile(rf"(?:\bI'm|\bI am|\bmy name is|\bmy name's|\bMy name is|\bMy name's)\s+(?P<name>{_NAME})(?=\s*(?:[,.;!]|and\b|$))")
_NOT_NAMES = frozenset(
    "sorry just not going gonna here afraid okay yeah yes fine good sure glad happy still also really so the "
    "a an in on at supposed back done ready new only um uh mm well right like actually now then there what "
    "gonna called working trying".split()
)
_HEDGE = re.compile(
    r"\b(?:if|maybe|might|could|would|wonder|wondering|perhaps|probably|guess|suppose|imagine|unless|whether|like)\b|\?"
    # doubt about a figure someone else set is no figure given (session 51, an unseen split: "I think it's hard to
    # uh sell it for twenty five Euros", "I don't see why we have to sell it for twenty five Euros now")
    r"|\b(?:why|hard to|difficult to|don't see|do not see|don't think|not sure|doubt|impossible)\b",
    re.IGNORECASE,
)
_FILLER = re.compile(r"\b(?:uh|um|er|erm|hmm|mm)\b", re.IGNORECASE)
# numbers said aloud
_UNITS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen".split())}
_TENS = {w: 10 * (i + 2) for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_NUMWORD = "|".join([*_UNITS, *_TENS, *_SCALES, "a", "and", "half", "point"])
_CURRENCY = r"(?:[Ee]uros?|[Pp]ounds?|[Dd]ollars?|[Cc]ents?)"
# "twenty five Euro", "twelve Euro fifty", "12.50 Euros", "fifty million Euro", "twelve and a half Euros"
_MONEY = re.compile(
    rf"(?<![\w-])(?P<amount>(?:\d+(?:[.,]\d+)?|(?:{_NUMWORD})(?:[ -](?:{_NUMWORD}))*)"
    rf"(?: (?:million|billion))? {_CURRENCY}(?: (?:fifty|twenty five|twenty-five|seventy five|seventy-five|\d\d))?)(?![\w-])"
)
# the kinds of figure a meeting sets, each by the words said beside it (before the figure, in its clause)
_KINDS = (
    ("selling price", re.compile(r"\b(?:selling price|sales price|retail price|price of selling|sell(?:ing|s)? (?:it |them |this [\w ]{1,30}?|the [\w ]{1,30}?|each unit |our [\w ]{1,30}?)?(?:for|at)|sold (?:for|at))\b", re.IGNORECASE)),
    ("production cost", re.compile(r"\b(?:production (?:cost|costs|price)|cost of production|manufacturing cost|costs? (?:under|no more than|not be more than|not more than|any more than|a maximum of|at most)|should only cost|only cost)\b", re.IGNORECASE)),
    ("profit target", re.compile(r"\b(?:profit (?:aim|target|goal)|profit of|aiming to make|aim to make|make a profit of)\b", re.IGNORECASE)),
)
_ASK_FIGURE = {
    "selling price": "{meeting}, what selling price did {who} give?",
    "production cost": "{meeting}, what production cost did {who} give?",
    "profit target": "{meeting}, what profit target did {who} give?",
}
_PETITION = re.compile(
    r"\b(?:present|presenting|table|tabling|to present|to table)\b[^.?!]{0,40}\b(?:e-)?petitions?\b[^.?!]*?\b(?P<bill>Bill [A-Z]-\d{1,4})\b"
)


# "seventy five percent of users find most remote controls ugly": the share, the group, what the group does
_SHARE = re.compile(
    rf"(?<![\w-])(?P<share>(?:\d{{1,3}}|(?!(?:a|and|half|point)\b)(?:{_NUMWORD})(?:[ -](?:{_NUMWORD})){{0,2}}) "
    r"(?:percent|per cent|%)) of (?:the )?(?P<group>users|people|respondents|customers|consumers|participants)"
    r" (?P<vp>(?:said|say|says|find|found|would|are|were|use|used|have|had|think|thought|want|wanted|prefer|preferred|"
    r"lose|lost|zap|mentioned|indicated|like|liked|spend|buy)\b[^,;:]*)$",
    re.IGNORECASE,
)
_SHARE_MAX_WORDS = 14
_ARTICLES = frozenset("a an the".split())
_FUNCTION = frozenset("when with a an the and to of that which who or but for in on at".split())
# in what the group does, "would" and "like" are the finding's own words ("would spend more money"): not hedges
_VP_HEDGE = re.compile(r"\b(?:if|maybe|might|could|perhaps|probably|guess|suppose|unless|whether)\b|\?", re.IGNORECASE)


def split_label(line: str) -> tuple[str, str]:
    """(speaker label, the turn's text) of a "Label: text" line whose label may hold (nested) parentheses;
    ("", line) when the line opens with no label or its parentheses never close."""
    depth = 0
    for i, ch in enumerate(line[:_MAX_LABEL]):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return "", line
        elif ch == ":" and depth == 0:
            label, text = line[:i].strip(), line[i + 1 :].strip()
            head = label.split("(", 1)[0].split()
            # a label is a few capitalised words (titles with their dots: "Mr. Dane Lloyd"), not a sentence
            # cut at a colon ("we need three things: …")
            if text and head and len(head) <= 6 and all(w[0].isupper() for w in head):
                return label, text
            return "", line
    return "", line


def person_of(label: str) -> str:
    """The person a label names, as a reader writes them: titles and the riding / party parenthesis off
    ("Mr. Garnett Genuis (Sherwood Park—Fort Saskatchewan, CPC)" → "Garnett Genuis"); the person inside a
    chair's parenthesis ("The Chair (Hon. Anthony Rota (…))" → "Anthony Rota"); "" for a role or a code."""
    outer = label.split("(", 1)
    words = [w for w in outer[0].split() if w.lower() not in _TITLES]
    if len(outer) > 1 and (not words or words[-1].lower() in _PERSON_NOUNS):
        inner = outer[1].split("(", 1)[0]
        words = [w for w in inner.split() if w.lower() not in _TITLES]
    words = [w.strip(",") for w in words]
    if len(words) < 2 or not all(re.fullmatch(r"[A-Z][\w'’.-]*", w) for w in words):
        return ""  # "Grad E", "PhD B", "Marketing": no person's name
    if any(len(w) == 1 for w in words):  # a letter code ("Professor B")
        return ""
    return " ".join(words)


def role_phrase(label: str, tags: Collection[str]) -> str:
    """How a question names the holder of a role label: "project manager"; "" for a label that is no role.
    tags: the folded labels that name no person (`meeting_guard.tag_labels`: roles and letter codes, read from
    how the folder writes the label's words outside labels); a letter code ("PhD B") is no role either."""
    if fold(label) not in tags or "(" in label or any(c.isdigit() for c in label):
        return ""
    words = label.lower().split()
    if not words or len(words) > 4 or any(len(w) == 1 for w in words):
        return ""
    return " ".join(words)


def _who(label: str, tags: Collection[str]) -> str:
    role = role_phrase(label, tags)
    if role:
        return f"the {role}" if role.split()[-1] in _PERSON_NOUNS else f"the person in charge of {role}"
    return "" if fold(label) in tags else person_of(label)


def _number(words: str) -> float | None:
    """The value of a figure said aloud ("twelve fifty" 12.5, "twelve and a half" 12.5, "twenty five" 25,
    "fifty million" 5e7, "12.50" 12.5); None where the words do not read as one number."""
    words = words.lower().replace("-", " ").replace(",", ".")
    if re.fullmatch(r"\d+(?:\.\d+)?", words):
        return float(words)
    tokens = [t for t in words.split() if t != "and"]
    total, part, frac = 0.0, 0.0, None
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t == "a" and i + 1 < len(tokens) and tokens[i + 1] == "half":
            frac = 0.5
            i += 2
            continue
        if t == "point" and i + 1 < len(tokens) and tokens[i + 1] in _UNITS:
            frac = _UNITS[tokens[i + 1]] / 10
            i += 2
            continue
        if t in _UNITS:
            part += _UNITS[t]
        elif t in _TENS:
            if part and part < 20:  # "twelve fifty": twelve and fifty cents
                frac = _TENS[t] / 100
            else:
                part += _TENS[t]
        elif t in _SCALES:
            total += max(part, 1) * _SCALES[t]
            part = 0
        else:
            return None
        i += 1
    value = total + part + (frac or 0)
    return value or None


def _value(amount: str) -> float | None:
    """A money figure's value, its unit's cents ("twelve Euro fifty") read after the unit."""
    m = re.match(rf"^(?P<n>.+?) {_CURRENCY}(?: (?P<cents>.+))?$", amount)
    if not m:
        return None
    n = _number(m.group("n"))
    if n is None:
        return None
    if m.group("cents"):
        cents = _number(m.group("cents"))
        if cents is None:
            return None
        n += cents / 100
    return round(n, 2)


def _clauses(text: str) -> Iterable[str]:
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        yield from (c.strip() for c in re.split(r",|;| and (?=we|the|our|it)", sentence) if c.strip())


def _fact(doc_id: str, chunk: Chunk, sentence: str, subject: str, relation: str, answer: str, kind: str,
          ask: str, aliases: tuple[str, ...] = ()) -> Fact:
    return Fact(doc_id=doc_id, chunk_id=chunk.chunk_id, sentence=sentence, subject=subject, about_doc=False,
                relation=relation, answer=answer, kind=kind, ask=ask, aliases=aliases)


def _sentence_of(text: str, at: int) -> tuple[int, int]:
    """The span of the sentence of `text` (one transcript line's text) holding offset `at`."""
    start = max(text.rfind(". ", 0, at), text.rfind("? ", 0, at), text.rfind("! ", 0, at))
    start = start + 2 if start >= 0 else 0
    ends = [e for e in (text.find(". ", at), text.find("? ", at), text.find("! ", at)) if e >= 0]
    end = min(ends) + 1 if ends else len(text)
    return start, end


def said_facts(
    chunks: Mapping[str, list[Chunk]],
    names: Mapping[str, str],
    tags: Collection[str],
    skipped: Counter,
    *,
    roles: bool = True,
    figures: bool = True,
    petitions: bool = True,
    shares: bool = True,
) -> dict[str, list[Fact]]:
    """The facts (the module docstring) of the named meetings among `chunks`' documents, by document. names:
    doc id → how a question names it (`meeting_names.meeting_names`); tags: `role_phrase`'s. One fact per (document, question,
    answer) though passages overlap; a question two lines of one meeting answer differently is not asked."""
    found: dict[str, dict[str, list[Fact]]] = defaultdict(lambda: defaultdict(list))
    readers = [read for on, read in ((roles, _roles), (figures, _figures), (shares, _shares)) if on]
    for doc_id, doc_chunks in chunks.items():
        meeting = names.get(doc_id)
        if not meeting:
            continue
        for chunk in doc_chunks:
            for line in chunk.text.split("\n"):
                label, text = split_label(line)
                if not label:
                    continue
                for read in readers:
                    for f in read(doc_id, chunk, label, text, meeting, tags, skipped):
                        found[doc_id][f.ask].append(f)
                if petitions:
                    for f in _petitions(doc_id, chunk, line, label, text, meeting, skipped):
                        found[doc_id][f.ask].append(f)
    out: dict[str, list[Fact]] = {}
    for doc_id, by_ask in found.items():
        kept: list[Fact] = []
        for facts in by_ask.values():
            values = {_value(f.answer) if f.relation.startswith(FIGURES) else fold(f.answer) for f in facts}
            if len(values) > 1:
                skipped["said_disputed"] += 1
                continue
            seen: set[tuple[str, str]] = set()
            for f in facts:
                if (f.sentence, f.answer) not in seen:
                    seen.add((f.sentence, f.answer))
                    kept.append(f)
        if kept:
            out[doc_id] = kept
    return out


def _roles(doc_id: str, chunk: Chunk, label: str, text: str, meeting: str, tags: Collection[str],
           skipped: Counter) -> Iterable[Fact]:
    role = role_phrase(label, tags)
    if not role:
        return
    for m in _INTRO.finditer(text):
        name = m.group("name")
        if name.lower() in _NOT_NAMES or fold(name) == fold(label) or name.lower() in role.split():
            skipped["said_role_not_a_name"] += 1
            continue
        s, e = _sentence_of(text, m.start())
        sentence = text[s:e].strip()
        if _HEDGE.search(sentence) and not re.search(r"\bI'm \w+ and I'm\b", sentence):
            skipped["said_role_hedged"] += 1  # "I'm I'm Well, maybe we have …"
            continue
        who = f"the {role}" if role.split()[-1] in _PERSON_NOUNS else None
        ask = f"In {meeting}, who was {who}?" if who else f"In {meeting}, who was in charge of {role}?"
        # the subject holds the meeting: two meetings' project managers are two facts (fact keys, extra positives)
        yield _fact(doc_id, chunk, sentence, f"{meeting}: {role}", ROLES + "name", name, TruthType.PERSON.value, ask)


def _figures(doc_id: str, chunk: Chunk, label: str, text: str, meeting: str, tags: Collection[str],
             skipped: Counter) -> Iterable[Fact]:
    if "euro" not in text.lower() and "pound" not in text.lower() and "dollar" not in text.lower():
        return
    who = _who(label, tags)
    for clause in _clauses(text):
        monies = list(_MONEY.finditer(clause))
        if not monies:
            continue
        kinds = [(k, p.search(clause[: monies[0].start()])) for k, p in _KINDS]
        kinds = [(k, m) for k, m in kinds if m]
        if not kinds:
            skipped["said_figure_no_subject"] += 1
            continue
        if len(monies) > 1 or len(kinds) > 1:
            skipped["said_figure_two_figures"] += 1
            continue
        kind, said = kinds[0]
        money = monies[0]
        between = clause[said.end(): money.start()]
        if len(between.split()) > 8:
            skipped["said_figure_far"] += 1
            continue
        if _HEDGE.search(clause) or re.match(r"^(?:(?:so|and|but|well|okay|uh|um),? )*then\b", clause, re.IGNORECASE):
            # "then we have to sell it for thirty Euros": the consequence of a condition said before, not a figure set
            skipped["said_figure_hedged"] += 1
            continue
        amount = money.group("amount")
        if _FILLER.search(amount) or _value(amount) is None:
            skipped["said_figure_disfluent"] += 1
            continue
        if not who:
            skipped["said_figure_no_speaker"] += 1
            continue
        value = _value(amount)
        unit = re.search(_CURRENCY, amount)
        shown = f"{value / 1e6:g} million" if value >= 1e6 and value % 1e6 == 0 else f"{value:g}"
        digits = f"{shown} {unit.group(0)}" if unit else ""
        yield _fact(doc_id, chunk, clause, f"{meeting}: {kind} by {who}", FIGURES + kind.replace(" ", "-"), amount,
                    TruthType.NUMBER.value, _ASK_FIGURE[kind].format(meeting=f"In {meeting}", who=who),
                    (digits,) if digits and digits != amount else ())


def _shares(doc_id: str, chunk: Chunk, label: str, text: str, meeting: str, tags: Collection[str],
            skipped: Counter) -> Iterable[Fact]:
    if "percent" not in text and "per cent" not in text:
        return
    who = _who(label, tags)
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        # the finding runs to its sentence's end: "… would look, …" is cut, not said
        m = _SHARE.search(sentence.rstrip(".! "))
        if not m:
            continue
        vp, share = m.group("vp").strip(), m.group("share")
        low = vp.lower().split()
        before = sentence[: m.start()]
        if _HEDGE.search(before) or _VP_HEDGE.search(vp) or _FILLER.search(sentence) or len(low) > _SHARE_MAX_WORDS \
                or any(a == b or (b.startswith(a) and len(a) >= 3) or (a in _ARTICLES and b in _FUNCTION)
                       for a, b in zip(low, low[1:], strict=False)):
            skipped["said_share_unclean"] += 1  # a stammer, a cut word ("most repo remote controls"), a restart
            continue
        if re.search(r"\b(?:I|you|we)\b|percent|per cent|%|,", before) or low[-1] in _FUNCTION | _ARTICLES \
                or re.search(r"\b(?:it|this|that|them|those|these)$", vp):
            skipped["said_share_unclean"] += 1  # "you said fifty percent …", "… is seventy five percent of …"
            continue
        value = _number(re.sub(r" ?(?:percent|per cent|%)$", "", share, flags=re.IGNORECASE))
        if value is None or value > 100:
            skipped["said_share_disfluent"] += 1  # "eighty hundred per cent"
            continue
        clause = sentence
        if not who:
            skipped["said_share_no_speaker"] += 1
            continue
        if _number(share.rsplit(" ", 1)[0].replace(" per", "")) is None:
            skipped["said_share_disfluent"] += 1
            continue
        yield _fact(doc_id, chunk, clause, f"{meeting}: {m.group('group')} {vp}", SHARES + m.group("group"), share,
                    TruthType.NUMBER.value,
                    f"In {meeting}, what percentage of {m.group('group')} {vp}, according to {who}?")


def _petitions(doc_id: str, chunk: Chunk, line: str, label: str, text: str, meeting: str,
               skipped: Counter) -> Iterable[Fact]:
    if "petition" not in text:
        return
    person = person_of(label)
    offset = line.find(text)
    for m in _PETITION.finditer(text):
        if not person or "chair" in label.lower().split("(")[0]:
            skipped["said_petition_no_member"] += 1
            continue
        # the quote shows who says it: the line from its label to the end of the sentence that states it (a
        # slice of the passage, as every quote)
        s, e = _sentence_of(line, m.start() + offset)
        if e > _MAX_QUOTE:
            skipped["said_petition_long_turn"] += 1
            continue
        sentence = line[:e].strip()
        yield _fact(doc_id, chunk, sentence, f"{meeting}: {m.group('bill')}", PETITIONS + "bill", person, "person",
                    f"At {meeting}, which member presented a petition about {m.group('bill')}?")

