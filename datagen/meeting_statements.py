"""What a meeting states, as the people in it would ask it (issue 36: a meeting folder must yield).

Session 40's guard (datagen.meeting_guard) kept a meeting's facts only where the prose readers read them
safely, and left almost none (QMSum tuning 142 → 5): those readers look for a named subject doing something
to a named thing, and a meeting rarely says that. What a meeting does say, and what people ask of it
("Who is in charge of preparing the corpus?", "Who will take care of the list of figures?", "How many
subsets will there be in the shared task data?", "When is the deadline for the report?"), is read here
from the transcript's own lines, with no parse:

- **an assignment a speaker takes**: "I will check the list of figures", "I'll send the agenda to
  everyone", "I'm in charge of the evaluation" → "Who will check the list of figures?" → the speaker, as
  the folder writes that person in speech (`[PERSON6]` where the transcript writes its anonymised people so,
  else the label: "Kirsty Williams AM");
- **an assignment said of someone**: "[PERSON5] will prepare the corpus", "[ORGANIZATION5] will provide the
  server", "Jane Roe is responsible for the budget" → that one, when they are a placeholder (`[X12]`) or a
  speaker of the folder as the transcript writes them;
- **a count said aloud**: "there will be three subsets in the shared task data" → "How many subsets will
  there be in the shared task data?" → "three";
- **a deadline said aloud**: "the deadline for the camera-ready paper is March 3rd", "the report is due on
  Friday" → "When is the deadline for the camera-ready paper?", "When is the report due?" (a month or a
  weekday only: "soon" dates nothing).

Who speaks a line: a transcript line opens with its speaker, "Name: text" or "(Name) text", and in the
second style the lines after it, until the next opener, continue the turn (`turn_lines`). A line whose
speaker the passage does not show (a passage opening mid-turn) gives no first-person fact.

What is not a fact (session 40's lesson: a hedge, a question, a hypothetical is no statement): a sentence
with a question mark, a condition or a possibility ("if", "maybe", "would", "could", "should", "might",
"probably", "not", "try", "think", "hope", "want"), a thing named by a pronoun or a demonstrative ("send
you a link", "do that"), a disfluent thing ("the the corpus", "um", a `<unint/>` tag). A speaker label that
names no one (a role or a letter code: datagen.meeting_guard.tag_labels) gives no answer.

The question names no meeting, so it must have one answer in the whole folder: a thing said in more than one
meeting (its words, folded, in two meetings' texts) is not asked (`statement_not_unique`), nor a question two
speakers answer differently (`statement_disputed`). Skips are counted in `FactBase.skipped` ("statement_*").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence

from corpus_tools.types import Chunk
from datagen.factbase import Fact
from datagen.meeting_guard import STATEMENT
from datagen.mining import fold
from datagen.types import TruthType

RELATION = STATEMENT  # "meet:": the guard lets these through, the generator draws them as a page's notes
# "(PERSON6) text": a speaker in parentheses opening a line; the lines after it continue the turn
_PAREN_OPENER = re.compile(r"^\(([A-Z][\w'’.-]*(?: [A-Za-z][\w'’.-]*){0,4})\)[ \t]+(?=\S)")
# "Kirsty Williams AM: text" (datagen.meeting_guard's label)
_COLON_OPENER = re.compile(r"^([A-Z][\w'’.-]*(?: [A-Za-z][\w'’.-]*){0,4}):[ \t]+(?=\S)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
# spoken openers that carry nothing: "So, okay, I will …"
_FILLER = r"(?:so|and|okay|ok|yes|yeah|yep|well|um+|uh+|eh+|ehm+|hm+|mm+|then|now|alright|right|good|fine|great)"
_LEAD = re.compile(rf"^(?:{_FILLER}\b[,.]?\s+)+", re.IGNORECASE)
# work one takes on in a meeting: the verb of an assignment (a verb of saying or asking is no task)
_VERBS = (
    "take care of|look into|look at|work on|set up|prepare|send|write|check|update|create|finish|organize|"
    "organise|present|upload|review|read|fix|contact|register|handle|run|submit|draft|edit|translate|annotate|"
    "collect|book|schedule|share|distribute|test|install|evaluate|summarize|summarise|compile|coordinate|"
    "lead|train|deploy|rewrite|add|complete|publish|circulate|provide|implement|process|clean|merge|record|"
    "download|convert|finalize|finalise|design|build|produce|arrange|select|email|e-mail|forward|reserve|host|"
    "print|order|buy|analyze|analyse|document|extend|measure|compute|transcribe|focus on|work with|write to|"
    "bring|draw|sketch|mail|look up|follow up on|pick up|write up|type up"
)
_FIRST = re.compile(rf"^I(?: will|'ll|’ll| am going to|'m going to|’m going to) "
                    rf"(?:also |then |now |just |definitely |certainly )?(?P<verb>{_VERBS})\b(?P<rest>.*)$", re.IGNORECASE)
# "I can read the other chapters": a speaker offering to take the work, asked as the offer it is
_OFFER = re.compile(rf"^I can (?:also |just )?(?P<verb>{_VERBS})\b(?P<rest>.*)$", re.IGNORECASE)
_FIRST_CHARGE = re.compile(r"^I(?:'m|’m| am) (?:the one )?(?P<verb>responsible for|in charge of) (?P<rest>.*)$",
                           re.IGNORECASE)
# a placeholder for an anonymised person or body ("[PERSON6]", "[ORGANIZATION5]")
_PLACEHOLDER = r"\[[A-Z][A-Z_]*\d+\]"
# "[PERSON10] and [PERSON1] will focus on …": placeholders said together are answered together
_PLACEHOLDERS = rf"{_PLACEHOLDER}(?:(?:, | and ){_PLACEHOLDER})*"
_THIRD = re.compile(rf"^(?P<who>{_PLACEHOLDERS}|[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){{0,3}}) "
                    rf"(?P<modal>will|should|is going to|are going to) (?:also |then |now )?(?P<verb>{_VERBS})\b(?P<rest>.*)$")
_THIRD_CHARGE = re.compile(rf"^(?P<who>{_PLACEHOLDERS}|[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){{0,3}}) "
                           r"(?:is|are|will be) (?:the one |the ones )?(?P<verb>responsible for|in charge of) (?P<rest>.*)$")
_NUMBER_WORDS = ("two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
                 "hundred")
_COUNT = re.compile(rf"^[Tt]here (?P<tense>will be|are going to be) (?P<n>\d+|{_NUMBER_WORDS}) "
                    r"(?P<things>[a-z][a-z-]*s)\b(?P<rest>.*)$")
_MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|December")
_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
_DATE = (rf"(?:(?:the )?\d{{1,2}}(?:st|nd|rd|th)? (?:of )?(?:{_MONTHS})|(?:{_MONTHS}) (?:the )?\d{{1,2}}(?:st|nd|rd|th)?"
         rf"|(?:next |this )?(?:{_DAYS})|(?:the )?(?:end|beginning|middle) of (?:{_MONTHS})|(?:{_MONTHS}))")
_DEADLINE = re.compile(rf"^(?:[Tt]he|[Oo]ur|[Tt]his) deadline for (?P<thing>[^,;]+?) is (?:on |by )?(?P<date>{_DATE})\b"
                       r"(?P<rest>.*)$")
_DUE = re.compile(rf"^(?P<thing>[Tt]he [a-z][\w' -]+?) (?:is|are) due (?:on |by )?(?P<date>{_DATE})\b(?P<rest>.*)$")
# a sentence that states nothing done or settled
_HEDGE = re.compile(
    r"\b(?:if|whether|would|could|should|might|maybe|perhaps|probably|possibly|not|never|try|trying|guess|"
    r"wonder|hope|wish|want|wants|unless|think|suppose|supposed|can|cannot)\b|n't\b|n’t\b|\?",
    re.IGNORECASE,
)
_MAY = re.compile(r"\bmay\b")  # lower case only: "due on May 3rd" is a date
# where an assignment's thing ends: a new clause, a hedge, an aside
_THING_END = re.compile(
    r"[,;:(<–—]| - | -$|\bfrom now|\b(?:because|but|so|and then|if|maybe|or|like|until|when|since|as soon as|I think|you know|"
    r"I mean|which|who|that is|and|again|today|tomorrow|now|later|soon|first|then|also|too|as well|right|okay|ok|yeah)\b",
    re.IGNORECASE,
)
# a thing named by a pronoun, a demonstrative or a filler names nothing a question could ask for
_NAMES_NOTHING = frozenset(
    "i me my mine you your yours we us our ours it its this that these those them they their he him his she her "
    "something anything everything nothing stuff thing things there here one ones some um uh eh ehm hm mm "
    "whatever somebody someone anyone everyone".split()
)
_STOP = frozenset("a an the of to for in on at with and by from about into some all any".split())
MAX_THING_WORDS = 10
QUOTE_LINES = 3  # how far above its sentence a turn's opener is quoted with it
# where a sentence's next clause may open: "…, and the ELG paper is due next Friday", "… and [PERSON6] will …"
_CLAUSE = re.compile(r"\b(?:decided|agreed) that\s+|,\s+(?:(?:and|so|but|then)\s+)?|(?<!\])\s+(?:and|so|but)\s+(?=(?:I|there|the|\[)\b|\[)")


def opener(line: str) -> tuple[str, int]:
    """(speaker label, where the text after it starts) of a transcript line opening with its speaker
    ("(PERSON6) text", "Jane Roe: text"); ("", 0) for a line that does not."""
    for pattern in (_PAREN_OPENER, _COLON_OPENER):
        m = pattern.match(line)
        if m:
            return m.group(1), m.end()
    return "", 0


def turn_lines(text: str) -> list[tuple[str, int, int]]:
    """(speaker, start, end) of each non-blank line of a passage: the text of the line after its opener, the
    speaker its opener names, or the last opener's before it (a turn's continuation line); "" while the
    passage has shown no opener yet (it opens mid-turn)."""
    out: list[tuple[str, int, int]] = []
    speaker, pos = "", 0
    for line in text.split("\n"):
        label, at = opener(line)
        if label:
            speaker = label
        if line.strip():
            out.append((speaker, pos + at, pos + len(line)))
        pos += len(line) + 1
    return out


def _sentences(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """Spans of the sentences of text[start:end]."""
    at = start
    for m in _SENTENCE_END.finditer(text, start, end):
        yield at, m.start()
        at = m.end()
    if at < end:
        yield at, end


def _thing(rest: str) -> str:
    """The thing an assignment or a count names: `rest` cut where a new clause or an aside begins, its
    trailing punctuation off; "" when what is left names nothing (see `_NAMES_NOTHING`)."""
    cut = _THING_END.search(rest)
    thing = (rest[: cut.start()] if cut else rest).strip().rstrip(".!-–— ").strip()
    words = thing.split()
    if not words or len(words) > MAX_THING_WORDS:
        return ""
    low = [w.lower().strip("'’") for w in words]
    if any(w in _NAMES_NOTHING for w in low) or low[-1] in _STOP:
        return ""
    if any(a == b for a, b in zip(low, low[1:], strict=False)):  # "the the corpus": a stammer
        return ""
    if any(a == b and a in _STOP for a, b in zip(low, low[2:], strict=False)):  # "the on the technical aspect"
        return ""
    if not any(len(w) >= 3 and w not in _STOP for w in low):
        return ""
    if len(low) == 1 and low[0].endswith("ly"):  # "I will schedule accordingly": a manner, no thing
        return ""
    return thing


def _person(label: str, said: str) -> str:
    """A speaker as the folder writes that person in speech: "[PERSON6]" where its texts bracket the label so,
    else the label itself."""
    return f"[{label}]" if f"[{label}]" in said else label


def meeting_people(meetings: Sequence[str], doc_text: Mapping[str, str], tags: set[str]) -> dict[str, str]:
    """The speakers of `meetings`, by folded label and folded written form, as the folder writes them in speech
    (`_person`); labels that name no one (`tags`, `meeting_guard.tag_labels`) left out. Shared by this module's,
    `meeting_decisions`' and `meeting_replies`' readers."""
    said = "\n".join(doc_text[d] for d in meetings)
    labels = {opener(line)[0] for d in meetings for line in doc_text[d].split("\n")} - {""}
    people: dict[str, str] = {}
    for label in labels:
        if fold(label) in tags:
            continue
        written = _person(label, said)
        people[fold(label)] = written
        people[fold(written)] = written
    return people


def _quote(text: str, start: int, end: int) -> str:
    """The quote of the sentence text[start:end], showing who says it: from its turn's opener when that is on
    the sentence's line or up to `QUOTE_LINES` lines above ("(PERSON5) Okay, at some point.\nI will finish
    installing the dependencies."), else the sentence alone (the passage still holds the opener)."""
    at = text.rfind("\n", 0, start) + 1
    for _ in range(QUOTE_LINES + 1):
        if opener(text[at:end])[0]:
            return text[at:end].strip()
        if at == 0:
            break
        at = text.rfind("\n", 0, at - 1) + 1
    return text[start:end].strip()


def _fact(doc_id: str, chunk: Chunk, quote: str, thing: str, relation: str, answer: str, kind: str,
          ask: str) -> Fact:
    return Fact(doc_id=doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=thing, about_doc=False,
                relation=RELATION + relation, answer=answer, kind=kind, ask=ask)


def _read_sentence(sentence: str, speaker: str, people: Mapping[str, str]) -> tuple[str, ...] | None:
    """(thing, relation, answer, kind, ask) a sentence states, or None. people: how each speaker of the folder
    is written in speech, by the label's folded form and by that written form's."""
    sentence = sentence.strip()
    for start in [0, *(m.end() for m in _CLAUSE.finditer(sentence))]:
        body = _LEAD.sub("", sentence[start:])
        read = _read_body(body, speaker, people)
        if read is None:
            continue
        said, *fact = read
        # a hedge counts where it bears on what is read, from the sentence's start: "I will check the list of
        # figures maybe we should add some" states the check; "I think I will check …", "If it works, I'll
        # send the slides" do not
        said = sentence[:start] + " " + said
        if _HEDGE.search(said) or _MAY.search(said):
            return None
        return tuple(fact)
    return None


def _stated(body: str, m: re.Match[str], thing: str) -> str:
    """The part of `body` a fact was read from: up to its thing's end."""
    return body[: m.start("rest")] + " " + thing


def _read_body(body: str, speaker: str, people: Mapping[str, str]) -> tuple[str, str, str, str, str, str] | None:
    """(the words read, thing, relation, answer, kind, ask) of a sentence's body, or None (see `_read_sentence`)."""
    if not body:
        return None
    m = _FIRST.match(body) or _FIRST_CHARGE.match(body) or _OFFER.match(body)
    if m and speaker:
        who = people.get(fold(speaker), "")
        verb = m.group("verb").lower()
        thing = _thing(m.group("rest"))
        if who and thing:
            if m.re is _OFFER:
                ask = f"Who offered to {verb} {{s}}?"
                said = _stated(body, m, thing).replace("I can ", "I ", 1)  # "can" is the offer, no hedge here
                return said, thing, f"offer|{verb}", who, TruthType.PERSON.value, ask
            ask = f"Who is {verb} {{s}}?" if verb in ("responsible for", "in charge of") else f"Who will {verb} {{s}}?"
            return _stated(body, m, thing), thing, f"assign|{verb}", who, TruthType.PERSON.value, ask
        return None
    m = _THIRD.match(body) or _THIRD_CHARGE.match(body)
    if m:
        named = m.group("who")
        who = named if re.fullmatch(_PLACEHOLDERS, named) else people.get(fold(named), "")
        verb = m.group("verb").lower()
        thing = _thing(m.group("rest"))
        if who and thing:
            # "[PERSON5] and [PERSON11] should select the video": a task given to them, asked as said
            modal = "should" if "modal" in m.groupdict() and m.group("modal") == "should" else "will"
            ask = f"Who is {verb} {{s}}?" if verb in ("responsible for", "in charge of") else f"Who {modal} {verb} {{s}}?"
            said = _stated(body, m, thing)
            if modal == "should":  # the hedge test reads the rest: "should" here is the assignment itself
                said = said.replace(" should ", " will ", 1)
            return said, thing, f"assign|{verb}", who, TruthType.PERSON.value, ask
        return None
    m = _COUNT.match(body)
    if m:
        rest = m.group("rest").strip()
        tail = _thing(rest) if rest else ""
        if rest and not tail:
            return None
        things = m.group("things")
        # no slot: "How many subsets will there be in the shared task data?" keeps its words in order
        ask = f"How many {things} will there be{' ' + tail if tail else ''}?"
        return _stated(body, m, tail), f"{things} {tail}".strip(), "count", m.group("n"), TruthType.NUMBER.value, ask
    m = _DEADLINE.match(body) or _DUE.match(body)
    if m:
        thing = _thing(m.group("thing"))
        if not thing:
            return None
        date = m.group("date")
        ask = "When is the deadline for {s}?" if m.re is _DEADLINE else "When is {s} due?"
        if m.re is _DUE:
            thing = thing[0].lower() + thing[1:]
        return body[: m.end("date")], thing, "deadline", date, TruthType.DATE.value, ask
    return None


def statement_facts(
    chunks: Mapping[str, list[Chunk]],
    meetings: Iterable[str],
    doc_text: Mapping[str, str],
    tags: set[str],
    skipped: Counter,
) -> dict[str, list[Fact]]:
    """The statements (see the module docstring) of the `meetings` among `chunks`' documents, by document;
    one fact per (document, sentence, answer) though passages overlap. tags: the folded speaker labels that
    name no one (`meeting_guard.tag_labels`). Skips counted in `skipped`."""
    meetings = [d for d in meetings if d in chunks]
    people = meeting_people(meetings, doc_text, tags)
    found: dict[str, list[Fact]] = defaultdict(list)
    seen: set[tuple[str, str, str]] = set()
    for doc_id in meetings:
        for chunk in chunks[doc_id]:
            text = chunk.text
            for speaker, start, end in turn_lines(text):
                for s, e in _sentences(text, start, end):
                    read = _read_sentence(text[s:e], speaker, people)
                    if read is None:
                        continue
                    thing, relation, answer, kind, ask = read
                    if fold(answer) in tags:
                        skipped["statement_speaker_tag"] += 1
                        continue
                    quote = _quote(text, s, e)
                    key = (doc_id, quote, answer)
                    if key in seen:
                        continue
                    seen.add(key)
                    found[doc_id].append(_fact(doc_id, chunk, quote, thing, relation, answer, kind, ask))
    return _unique(found, {d: fold(doc_text[d]) for d in meetings}, skipped)


def _unique(found: dict[str, list[Fact]], folded: Mapping[str, str], skipped: Counter) -> dict[str, list[Fact]]:
    """The facts whose question has one answer in the folder: its thing said in one meeting only, and every
    sentence that states it giving the same answer."""
    answers: dict[tuple[str, str], set[str]] = defaultdict(set)
    for facts in found.values():
        for f in facts:
            answers[(fold(f.subject), f.ask)].add(fold(f.answer))
    out: dict[str, list[Fact]] = {}
    for doc_id, facts in found.items():
        kept = []
        for f in facts:
            thing = fold(f.subject)
            if sum(1 for text in folded.values() if thing in text) > 1:
                skipped["statement_not_unique"] += 1
            elif len(answers[(thing, f.ask)]) > 1:
                skipped["statement_disputed"] += 1
            else:
                kept.append(f)
        if kept:
            out[doc_id] = kept
    return out
