"""What a meeting decided, agreed or set, as the people in it would ask it (issue 36: the "what / when / how many").

datagen.meeting_statements reads who will do what; half of what people ask of a meeting is what it settled:
a tool chosen, a date set, an amount needed, a proposal taken. This module reads those from the transcript's
own lines, with no parse, with meeting_statements' turns, sentences, hedges and things (the same rules: a
hedge, a question, a pronoun or a stammer refuses a sentence):

- **a choice**: "we use Overleaf for the deliverable documents", "we decided to use Zoom for the calls",
  "Overleaf is used for the slides" → "What is used for the deliverable documents?" → "Overleaf" (the answer a
  name: capitalised words or a placeholder, `[ORGANIZATION1]`);
- **a decision**: "we decided to include a separate track for [ORGANIZATION1]", "let's include a separate
  track for [ORGANIZATION1]" *when the next turn, another speaker's, assents* ("Yes.", "Okay, agreed.") →
  "What did the meeting decide to include for [ORGANIZATION1]?" → "a separate track" (a decision is asked by
  what it is about, the words after its object: one with no such words asks nothing);
- **a date set**: "the workshop will take place on the 1st of June", "the review was postponed to September",
  "the shared task data should be ready by the end of November", "the deadline for the paper is 21.02.2020"
  (the dates meeting_statements does not read: a month's end or middle, "Feb 21", numeric days) →
  "When will the workshop take place?", "When should the shared task data be ready?";
- **an amount**: "we need 130 minutes of English data", "there are three platforms in the deliverable", "the
  book is 150 pages long", "we will ask for 2 or 3 months of extension" → "How many minutes of English data
  are needed?", "How long is the book?";
- **who runs what**: "[ORGANIZATION11] is running the translation module" → "Who is running the translation
  module?", "Plan C is what [PERSON9] and [PERSON1] will focus on" → "Who will focus on Plan C?" (a placeholder
  or a speaker of the folder, as meeting_statements' assignments).

Kept general: no word of one meeting set's subjects; the verbs are those of deciding and scheduling anywhere.
What is not read (precision first, the issue's bar): a decision whose thing names nothing ("let's do that"),
an unanswered or contested "let's", a relative date alone ("next week", "soon"), a disfluent span (a cut word
"alread-", a `<unintelligible/>` tag, a restart). The question names no meeting, so it must have one answer in
the folder (meeting_statements' `_unique`). Relations "meet:use", "meet:decide|VERB", "meet:when|…",
"meet:amount", "meet:run|VERB"; skips counted in `FactBase.skipped` ("decision_*", "statement_*").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping

from corpus_tools.types import Chunk
from datagen.factbase import Fact
from datagen.meeting_statements import (
    _CLAUSE,
    _DATE,
    _HEDGE,
    _LEAD,
    _MAY,
    _NUMBER_WORDS,
    _PLACEHOLDERS,
    _fact,
    _quote,
    _sentences,
    _thing,
    _unique,
    meeting_people,
    opener,
    turn_lines,
)
from datagen.mining import fold
from datagen.types import TruthType

# this module's relations ("meet:" + kind): the generator asks them only with `--mix decisions=1`
DECISIONS = tuple(f"meet:{kind}|" for kind in ("use", "decide", "when", "amount", "run"))
_PLACE = r"\[[A-Z][A-Z_]*\d+\]"
# a chosen thing's name: capitalised words or a placeholder, three at most ("Overleaf", "Google Docs", "[PROJECT1]")
_NAME = rf"(?:{_PLACE}|[A-Z](?:[\w.+-]*[\w+])?)(?: (?:{_PLACE}|[A-Z](?:[\w.+-]*[\w+])?)){{0,2}}"
_NOT_A_NAME = frozenset("I It This That These Those There Here We You They He She Which What".split())
_MONTHS = ("January|February|March|April|May|June|July|August|September|October|November|December")
_ABBR = r"(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
# dates a meeting sets that meeting_statements' `_DATE` leaves out: a month's end, middle or start, "mid June",
# "Feb 21", "21.02.2020", "June 2021"; tried before it, so the longest reading wins ("the end of November",
# not "November")
_MORE_DATE = (
    rf"(?:the )?(?:end|beginning|middle|start|first half|second half|2nd half|1st half) of (?:{_MONTHS})"
    rf"|mid[- ]?(?:{_MONTHS})"
    rf"|{_ABBR} \d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)? {_ABBR}"
    r"|\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})\b"
    rf"|(?:{_MONTHS}) \d{{4}}"
)
_DAYS = "Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday"
# "next Friday, Feb 21": a weekday with its date said after it is read whole
_ANY_DATE = rf"(?:(?:(?:next |this )?(?:{_DAYS}),? )?(?:{_MORE_DATE})|{_DATE})"
_NUM = rf"(?:\d+(?:\.\d+)?|{_NUMBER_WORDS}|a hundred|a thousand)"
_NUMS = rf"{_NUM}(?:(?: or |-| to ){_NUM})?"
_APPROX = r"(?:about |around |roughly |approximately |some |at least |at most )?"
# the verbs of a decision: what a meeting does with a thing (no verb of saying or thinking)
_DECIDE_VERBS = (
    "include|use|keep|add|drop|remove|exclude|postpone|move|hold|organize|organise|schedule|cancel|start|stop|"
    "split|merge|release|submit|publish|create|choose|select|adopt|accept|reject|extend|limit|restrict|provide|"
    "invite|contact|hire|buy|fund|allocate|spend|approve|support|recommend|rename|replace|switch to|focus on|"
    "go with|stick with|stay with|ask for|apply for|reduce|increase|translate|annotate|record|run|host|present"
)
_WE = r"(?:[Ww]e|[Tt]he committee|[Tt]he group|[Tt]he board|[Ee]veryone|[Ee]verybody)"
_DECIDED = r"(?: have| 've|'ve|’ve)? (?:decided|agreed|settled on deciding|resolved)"
_USE = re.compile(
    rf"^(?:[Ww]e)(?P<mod> will| are going to|'re going to|’re going to|'ll|’ll| are| have| now|{_DECIDED} to|)"
    rf" (?:use|using|used) (?P<x>{_NAME}) (?P<prep>for|as) (?P<rest>.*)$"
)
_USED = re.compile(rf"^(?P<x>{_NAME}) (?P<mod>is|will be|was) used (?P<prep>for|as) (?P<rest>.*)$")
_DECIDE = re.compile(rf"^{_WE}{_DECIDED} (?:to|that we will|that we'll|that we’ll) (?P<verb>{_DECIDE_VERBS}) (?P<rest>.*)$")
_DECISION_IS = re.compile(rf"^[Tt]he (?:final )?decision (?:is|was) to (?P<verb>{_DECIDE_VERBS}) (?P<rest>.*)$")
# "we agreed that the colour should be yellow": what a thing was settled as
_SETTLED = re.compile(
    rf"^{_WE}{_DECIDED} that (?P<thing>(?:the|our) [a-z][\w'’ -]*?) (?:will|would|should|is going to|is gonna|'s gonna|"
    rf"’s gonna|is|was|are|were) (?:be |stay |remain )?(?P<value>.+)$"
)
_LETS = re.compile(rf"^(?:[Ll]et's|[Ll]et’s|[Ll]et us) (?P<verb>{_DECIDE_VERBS}) (?P<rest>.*)$")
# a decision's object, then what it is about: "one separate track | for [ORGANIZATION1]"
_OBJECT_TOPIC = re.compile(r"^(?P<obj>[^,;:]+?) (?P<prep>for|in|as|on|at|from) (?P<topic>.+)$")
_THING_NP = r"(?:[Tt]he|[Oo]ur|[Tt]his|[Nn]ext|[Tt]he next) (?:[\w'’-]+ ){0,6}?[\w'’-]+|" + _PLACE + r"(?:'s)?(?: [\w'’-]+){0,5}?"
_WHEN = re.compile(
    rf"^(?P<thing>{_THING_NP})(?: itself)? (?P<verb>will be held|will take place|takes place|will happen|will be|"
    rf"is scheduled|is planned|was moved|has been moved|is moved|was postponed|has been postponed|is postponed|"
    rf"is due|are due|will be published|will be released|will be presented|will be launched|will be announced)"
    rf"(?: on| for| in| at| to| until)? (?P<date>{_ANY_DATE})(?![\w-])(?P<rest>.*)$"
)
_STATES = "ready|finished|done|submitted|available|delivered|sent|completed|provided|uploaded|published|frozen|prepared"
_BY = re.compile(
    rf"^(?P<thing>{_THING_NP}) (?P<mod>should|must|has to|have to|needs to|need to|will|is to|are to) be "
    rf"(?P<state>{_STATES}) (?:by|on|in|before|until|at|for)? ?(?P<date>{_ANY_DATE})(?![\w-])(?P<rest>.*)$"
)
# "the deadline for X is the end of November" (meeting_statements reads the plainest of these too: a question it
# asks already is not asked again, `decision_facts`' `asked`)
_DEADLINE = re.compile(
    rf"^(?:[Tt]he|[Oo]ur|[Tt]his) deadline for (?P<thing>[^,;]+?) is (?:on |by |in )?(?P<date>{_ANY_DATE})(?![\w-])(?P<rest>.*)$"
)
_UNITS = (
    "minutes|hours|days|weeks|months|years|pages|words|sentences|documents|files|papers|people|participants|"
    "persons|annotators|euros|dollars|pounds|percent|slides|items|meetings|sessions|talks|languages|tracks|"
    "subsets|systems|platforms|examples|samples|recordings|transcripts"
)
_NEED = re.compile(
    rf"^{_WE} (?:will |still |also )?need {_APPROX}(?P<n>{_NUMS}) (?P<unit>{_UNITS}) (?P<prep>of|for) (?P<rest>.*)$"
)
_ASK_FOR = re.compile(
    rf"^{_WE} (?:will |'ll |’ll |are going to |decided to |agreed to )?(?:ask|apply) for {_APPROX}(?P<n>{_NUMS}) "
    rf"(?P<unit>{_UNITS}) (?:of )?(?P<rest>.*)$"
)
_THERE_ARE = re.compile(rf"^[Tt]here (?:are|is) {_APPROX}(?P<n>{_NUMS}) (?P<unit>{_UNITS}) (?P<prep>in|for|on|at) (?P<rest>.*)$")
_LONG_UNITS = "minutes|hours|days|weeks|months|pages|words|slides"
_LONG = re.compile(
    rf"^(?P<thing>{_THING_NP}) (?P<mod>is|will be) {_APPROX}(?P<n>{_NUMS}) (?P<unit>{_LONG_UNITS})(?: long)?(?P<rest>[.!]?)$"
)
_RUN_VERBS = "running|hosting|handling|organizing|organising|coordinating|leading|managing|chairing|providing|maintaining"
_RUN = re.compile(rf"^(?P<who>{_PLACEHOLDERS}|[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){{0,3}}) (?:is|are) (?P<verb>{_RUN_VERBS}) (?P<rest>.*)$")
# "Plan C is what [PERSON9] and [PERSON1] will focus on": the thing first, who takes it after
_CLEFT = re.compile(
    rf"^(?P<thing>{_NAME}|(?:[Tt]he|[Oo]ur) [\w'’ -]+?) is what (?P<who>{_PLACEHOLDERS}) (?:will|are going to|is going to) "
    r"(?P<verb>focus on|work on|prepare|present|run|lead|handle|write|review|coordinate|organize|organise)(?P<rest>[.!]?)$"
)
# a speaker's span that is no clean statement: a cut word ("alread-", "h- would"), a transcriber's tag, a
# dash restart, a word said twice over
_DISFLUENT = re.compile(r"\w-(?=\s|$|[,.])|<[^>]*>|\s[-–—](?:\s|$)|\b(\w+) \1\b|\b(?:uh+|um+|uhm|ehm|eh|er|erm|hmm)\b",
                        re.IGNORECASE)
# a next turn that takes a proposal ("let's …"): assent alone, or assent opening it
_ASSENT = re.compile(r"^(?:yes|yeah|yep|ok|okay|sure|agreed|fine|good|great|right|exactly|perfect|absolutely|"
                     r"of course|sounds good|i agree|that's fine|that's good)\b(?![^.!]*\b(?:but|no|not|n't)\b)",
                     re.IGNORECASE)
# a hesitation the transcript writes, read past: ", uh," "um" (the answer must still be verbatim)
_FILLER = re.compile(r"(?<![\w-])(?:uh+|um+|uhm+|ehm+|eh|er|erm)(?![\w-]),?\s*", re.IGNORECASE)
# where a clause joined to the one before ends that one: ", and", " but", "and" (the clause split's own)
_COORDINATED = re.compile(r"(?:,\s*|\s)(?:and|but)\s*$|,\s*$")
# hedges that scope over every clause after them: thought, condition, possibility adverbs, a question
_SCOPING = re.compile(r"\b(?:if|whether|unless|maybe|perhaps|probably|possibly|think|guess|suppose|hope|wish|wonder|"
                      r"sure|know|unclear|clear|said|says|say)\b|\?",
                      re.IGNORECASE)
MAX_ANSWER_WORDS = 6


def _answer_words(answer: str) -> bool:
    """A short answer a reader can check: a name or a noun phrase of `MAX_ANSWER_WORDS` words at most."""
    return 0 < len(answer.split()) <= MAX_ANSWER_WORDS


def _object(words: str) -> str:
    """A decision's object or value as an answer: meeting_statements' thing (no pronoun, stammer or aside),
    "one" allowed as its determiner ("one separate track"), `MAX_ANSWER_WORDS` words at most; "" if none."""
    words = words.strip()
    lead, _, rest = words.partition(" ")
    body = _thing(rest) if lead.lower() == "one" and rest else _thing(words)
    out = f"{lead} {body}" if lead.lower() == "one" and body else body
    return out if _answer_words(out) else ""


def _named(x: str) -> bool:
    """A chosen thing that is a name, not a sentence's pronoun or a question word."""
    return x.split()[0] not in _NOT_A_NAME


def _read_body(body: str, people: Mapping[str, str], acked: bool) -> tuple[str, ...] | None:
    """(the words read, thing, relation, answer, kind, ask) of a sentence's body, or None (module docstring).
    acked: the next turn, another speaker's, assents (a "let's" is a decision only then)."""
    if not body:
        return None
    m = _USE.match(body) or _USED.match(body)
    if m:
        x, thing = m.group("x"), _thing(m.group("rest"))
        if not thing or not _named(x):
            return None
        mod, prep = m.group("mod").strip(), m.group("prep")
        if m.re is _USED:
            ask = {"is": "What is used {p} {s}?", "will be": "What will be used {p} {s}?", "was": "What was used {p} {s}?"}[mod]
        elif mod in ("will", "are going to", "'re going to", "’re going to", "'ll", "’ll"):
            ask = "What will be used {p} {s}?"
        elif "decided" in mod or "agreed" in mod or "resolved" in mod:
            ask = "What did the meeting decide to use {p} {s}?"
        else:
            ask = "What is used {p} {s}?"
        said = body[: m.start("rest")] + thing
        return said, thing, f"use|{prep}", x, TruthType.ENTITY.value, ask.replace("{p}", prep)
    m = _SETTLED.match(body)
    if m:
        thing, value = _thing(m.group("thing")), _object(m.group("value"))
        if not thing or not value:
            return None
        said = body[: m.start("value")] + value
        # reported speech: "agreed that the colour would be yellow" states what was agreed, no hedge
        said = re.sub(r"\b(?:would|should)\b", "will", said, count=1)
        thing = thing[0].lower() + thing[1:]
        return said, thing, "decide|settled", value, TruthType.ENTITY.value, "What was decided about {s}?"
    m = _DECIDE.match(body) or _DECISION_IS.match(body) or (_LETS.match(body) if acked else None)
    if m:
        verb = m.group("verb").lower()
        rest = m.group("rest")
        parts = _OBJECT_TOPIC.match(rest)
        if parts is None:
            return None
        obj = parts.group("obj").strip()
        topic = _thing(parts.group("topic"))
        # the object whole, or nothing: "stop the piecemeal announcements and finally confirm …" is two acts
        if not topic or _object(obj) != obj:
            return None
        prep = parts.group("prep")
        said = body[: m.start("rest")] + obj + f" {prep} " + topic
        if m.re is _LETS:
            said = said.replace("'s", " us", 1).replace("’s", " us", 1)
        ask = f"What did the meeting decide to {verb} {prep} {{s}}?"
        return said, topic, f"decide|{verb}|{prep}", obj, TruthType.ENTITY.value, ask
    m = _WHEN.match(body) or _BY.match(body) or _DEADLINE.match(body)
    if m:
        thing = _thing(m.group("thing"))
        if not thing or _DISFLUENT.search(m.group("rest")[:2]):
            return None
        date = m.group("date")
        if m.re is _WHEN:
            verb = m.group("verb")
            if "postponed" in verb or "moved" in verb:
                ask = "What is the new date for {s}?"
            elif verb in ("is scheduled", "is planned", "is due", "are due"):
                ask = f"When {verb.split()[0]} {{s}} {verb.split()[1]}?"
            elif verb.startswith("will be ") and verb != "will be held":
                ask = f"When will {{s}} be {verb.split()[-1]}?"
            else:
                ask = "When will {s} take place?"
            relation = "when|" + verb.split()[-1]
        elif m.re is _BY:
            state = m.group("state")
            ask = f"When will {{s}} be {state}?" if m.group("mod") == "will" else f"When should {{s}} be {state}?"
            relation = f"when|{state}"
        else:
            ask = "When is the deadline for {s}?"
            relation = "when|deadline"
        if m.re is not _DEADLINE:
            thing = thing[0].lower() + thing[1:] if thing[:1].isupper() and not thing.startswith("[") else thing
        said = body[: m.end("date")]
        if m.re is _BY:  # "should" here is the date set itself, no hedge
            said = re.sub(r"\b(?:should|must)\b", "will", said, count=1)
        return said, thing, relation, date, TruthType.DATE.value, ask
    m = _NEED.match(body) or _ASK_FOR.match(body) or _THERE_ARE.match(body)
    if m:
        thing = _thing(m.group("rest"))
        if not thing:
            return None
        unit, n = m.group("unit"), m.group("n")
        if m.re is _NEED:
            ask = f"How many {unit} {m.group('prep')} {{s}} are needed?"
        elif m.re is _ASK_FOR:
            ask = f"How many {unit} of {{s}} will be asked for?"
        else:
            ask = f"How many {unit} are there {m.group('prep')} {{s}}?"
        said = body[: m.start("rest")] + thing
        return said, thing, f"amount|{unit}", f"{n} {unit}" if m.re is not _THERE_ARE else n, TruthType.NUMBER.value, ask
    m = _LONG.match(body)
    if m:
        thing = _thing(m.group("thing"))
        if not thing:
            return None
        thing = thing[0].lower() + thing[1:] if thing[:1].isupper() and not thing.startswith("[") else thing
        ask = "How long is {s}?" if m.group("mod") == "is" else "How long will {s} be?"
        said = body[: m.end("unit")]
        return said, thing, f"amount|long|{m.group('unit')}", f"{m.group('n')} {m.group('unit')}", TruthType.NUMBER.value, ask
    m = _CLEFT.match(body)
    if m:
        thing = _thing(m.group("thing"))
        if not thing:
            return None
        verb = m.group("verb")
        return body[: m.end("verb")], thing, f"run|{verb}", m.group("who"), TruthType.PERSON.value, f"Who will {verb} {{s}}?"
    m = _RUN.match(body)
    if m:
        named = m.group("who")
        who = named if re.fullmatch(_PLACEHOLDERS, named) else people.get(fold(named), "")
        thing = _thing(m.group("rest"))
        if not who or not thing:
            return None
        verb = m.group("verb")
        return body[: m.start("rest")] + thing, thing, f"run|{verb}", who, TruthType.PERSON.value, f"Who is {verb} {{s}}?"
    return None


def _read_sentence(sentence: str, people: Mapping[str, str], acked: bool) -> tuple[str, ...] | None:
    """(thing, relation, answer, kind, ask) a sentence states, or None: each clause of it read (meeting_statements'
    `_CLAUSE`), a hedge, a question or a disfluent span before the thing's end refusing it.

    A hand transcript writes its hesitations ("the recorded uh, demo"): they are read past (`_FILLER`), and the
    answer must still stand verbatim in the sentence (the verifier finds it in the passage). A modal or a
    negation of an earlier clause joined by "and" / "but" ("We would like to finish it, and the paper is due
    next Friday") is that clause's own; a hedge of thought or condition ("I think", "if", "maybe") scopes over
    the whole sentence."""
    original = sentence.strip()
    sentence = _FILLER.sub("", original).strip()
    for start in [0, *(m.end() for m in _CLAUSE.finditer(sentence))]:
        body = _LEAD.sub("", sentence[start:])
        read = _read_body(body, people, acked)
        if read is None:
            continue
        said, *fact = read
        before = sentence[:start]
        if _COORDINATED.search(before[-12:]) and not _SCOPING.search(before):
            before = ""
        said = before + " " + said
        if _HEDGE.search(said) or _MAY.search(said) or _DISFLUENT.search(said):
            return None
        if fact[2] not in original:
            return None
        return tuple(fact)
    return None


def _next_turn_assents(text: str, lines: list[tuple[str, int, int]], at: int, speaker: str) -> bool:
    """Whether the first line after line `at` that another speaker opens assents (`_ASSENT`); the speaker's own
    continuation lines between are passed over, at most three."""
    for n, (who, start, end) in enumerate(lines[at + 1: at + 5]):
        if who != speaker and opener(text[text.rfind("\n", 0, start) + 1: end])[0]:
            return bool(_ASSENT.match(_LEAD.sub("", text[start:end].strip()) or text[start:end].strip()))
        if n >= 3:
            break
    return False


def decision_facts(
    chunks: Mapping[str, list[Chunk]],
    meetings: list[str],
    doc_text: Mapping[str, str],
    tags: set[str],
    skipped: Counter,
    asked: Collection[str] = (),
) -> dict[str, list[Fact]]:
    """The decisions, dates, amounts and choices (the module docstring) of the `meetings` among `chunks`'
    documents, by document; one fact per (document, sentence, answer) though passages overlap. tags: the folded
    speaker labels that name no one (`meeting_guard.tag_labels`). asked: questions another reader asks already
    (meeting_statements' deadlines), not asked twice. Skips counted in `skipped`."""
    meetings = [d for d in meetings if d in chunks]
    people = meeting_people(meetings, doc_text, tags)
    found: dict[str, list[Fact]] = defaultdict(list)
    seen: set[tuple[str, str, str]] = set()
    for doc_id in meetings:
        for chunk in chunks[doc_id]:
            text = chunk.text
            lines = turn_lines(text)
            for n, (speaker, start, end) in enumerate(lines):
                if n == 0 and chunk.position > 0 and not opener(text[:end])[0]:
                    continue  # the passage may open mid-sentence ("… decided to use X" of "If we decided …")
                acked = None
                for s, e in _sentences(text, start, end):
                    sentence = text[s:e]
                    if e >= len(text.rstrip()) and not sentence.rstrip().endswith((".", "!")):
                        continue  # the passage's cut end: "… as a power sour"
                    if acked is None and _LETS.match(_LEAD.sub("", sentence.strip())):
                        acked = _next_turn_assents(text, lines, n, speaker)
                        if not acked:
                            skipped["decision_proposal_not_taken"] += 1
                    read = _read_sentence(sentence, people, bool(acked))
                    if read is None:
                        continue
                    thing, relation, answer, kind, ask = read
                    if fold(answer) in tags:
                        skipped["decision_speaker_tag"] += 1
                        continue
                    if ask.replace("{s}", thing) in asked:
                        skipped["decision_asked_as_statement"] += 1
                        continue
                    quote = _quote(text, s, e)
                    if relation.startswith("decide|") and _LETS.match(_LEAD.sub("", sentence.strip())):
                        # the quote shows the proposal and the turn that takes it
                        nxt = next((ln for ln in lines[n + 1:] if ln[0] != speaker), None)
                        at = text.rfind(quote, 0, e)
                        if nxt is not None and at >= 0:
                            quote = text[at: nxt[2]].strip()
                    key = (doc_id, quote, answer)
                    if key in seen:
                        continue
                    seen.add(key)
                    found[doc_id].append(_fact(doc_id, chunk, quote, thing, relation, answer, kind, ask))
    return _unique(found, {d: fold(doc_text[d]) for d in meetings}, skipped)
