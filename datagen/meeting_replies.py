"""A question asked in a meeting and answered in the next turn, as a participant would ask it afterwards (issue 36).

datagen.meeting_statements and datagen.meeting_decisions read what one sentence states; a hand-transcribed
meeting rarely states a fact in one clean sentence, and where it does say one it is often in dialogue: one
speaker asks, the next answers in a fragment ("When is the review?" / "End of November."). This module reads
those pairs, with no parse, with meeting_statements' turns, sentences, fillers and hedges:

- **the question**: the last sentence of a speaker's turn (or the one before the asker's own guess: "How long
  is this tutorial? 3 hours?"), a wh-question (when / what / who / which / where / how many / how much / how
  long) of 4–20 words with a thing to ask about; not a yes-no question, not one about the meeting's own talk
  ("what do you mean", "what was that", "what do you think"), not advice or a hypothetical ("what should we do",
  "would", "if"), not of the meeting's own place and day ("here", "now", "this year"), no stammer, restart, cut
  word or transcriber's tag in it; a "what" / "which" must name its thing (a capitalised word, a placeholder,
  a number: "What is the ending of the word?" asks of nothing one could name afterwards);
- **the answer**: the first sentence of the next turn, opened by *another* speaker, short (`MAX_ANSWER_WORDS`),
  its leading fillers off ("Um, Friday." → "Friday"), of the question's type: a date or a clock time for
  "when", a number for "how many / how much / how long", a placeholder (`[PERSON5]`), a speaker of the folder or
  the answerer's own "I will" / "I do" / "Me" for "who", a place name after its preposition for "where", a
  short noun phrase for "what / which" (a bare number to a "what" left out: its unit or owner is elsewhere,
  "What is the Welsh consequential?" / "Fifty-six."); no hedge ("I think", "maybe", "not sure", "I don't know"), no question back, no filler
  inside it, and verbatim in the passage (the verifier's test);
- **made self-contained**: the asked question is kept, its tense too; "you" / "your" become the answerer as the
  folder writes them ("When will you send the slides?" → "When will [PERSON3] send the slides?"), "I" / "my"
  the asker, "we" / "our" the team ("When do we meet?" → "When does the team meet?"); a pronoun or a
  demonstrative standing alone ("When is it due?", "What does this mean?") refuses the pair — nothing in the
  question says what it is; "this tutorial" / "that paper" reads "the tutorial", "the paper" (one answer in
  the folder decides whether that names one thing).

The question names no meeting, so it must have one answer in the folder (meeting_statements' `_unique`: its
thing said in one meeting only). Relation "meet:reply|FORM"; skips counted in `FactBase.skipped` ("reply_*").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping

from corpus_tools.types import Chunk
from datagen.factbase import Fact
from datagen.meeting_decisions import _ANY_DATE, _DISFLUENT, _NUMS, _PLACE
from datagen.meeting_statements import (
    _HEDGE,
    _LEAD,
    _NAMES_NOTHING,
    _PLACEHOLDERS,
    _STOP,
    _fact,
    _sentences,
    _unique,
    meeting_people,
    opener,
    turn_lines,
)
from datagen.mining import fold
from datagen.types import TruthType

REPLIES = ("meet:reply|",)  # this module's relations: the generator asks them only with `--mix replies=1`
MAX_ANSWER_WORDS = 6
MIN_QUESTION_WORDS, MAX_QUESTION_WORDS = 4, 20
# the question's form, its word(s), and what follows: "When | is the deadline for the report"
_WH = re.compile(r"^(?P<wh>[Hh]ow many|[Hh]ow much|[Hh]ow long|[Ww]hen|[Ww]hat|[Ww]ho|[Ww]hich|[Ww]here)(?P<contr>'s|’s)?\b"
                 r"(?P<rest>[^?]*)\?$")
# talk about the meeting's own talk, advice, a hypothetical or an opinion: no fact to ask afterwards
_ABOUT_TALK = re.compile(
    r"\b(?:mean|means|meant|say|says|said|saying|talk|talking|asked|asking|hear|heard|think|guess|propose|suggest|"
    r"about|else|next|wrong|problem|should|would|could|might|if|whether|maybe|perhaps|probably|not|n't|"
    r"happened|happen|going on|do with|like)\b|n’t",
    re.IGNORECASE,
)
# a pronoun or a demonstrative standing for something the question does not name
_UNRESOLVED = frozenset("it its this that these those they them their theirs he him his she her one ones there "
                        "something anything everything stuff thing things".split())
_DETERMINERS = frozenset("this that these those".split())
# person rewrites: the auxiliary agrees with its new subject ("do you" → "does [PERSON3]")
_AGREE = {"do": "does", "are": "is", "have": "has", "were": "was", "am": "is", "'re": "is", "’re": "is"}
# an answer that is the answerer taking it on: "I will.", "I do.", "Me."
_SELF = re.compile(r"^(?:That's me|That’s me|That is me|It's me|It’s me|I will|I'll|I’ll|I do|I am|I'm|I’m|I did|I can|Me|Myself)(?: do it| take it| take care of it)?"
                   r"(?: too| myself)?[.!]?$")
_TIME = r"(?:(?:at )?(?:\d{1,2}(?:[:.]\d{2})?(?: ?[ap]\.?m\.?| o'clock)?|half past \d{1,2}|noon|midday))"
_WHEN_ANSWER = re.compile(
    rf"^(?:(?:[Oo]n|[Bb]y|[Ii]n|[Aa]t|[Uu]ntil|[Bb]efore|[Ff]rom|[Ss]ince) )?(?:{_ANY_DATE})(?:,? {_TIME})?(?: \d{{4}})?[.!]?$"
    rf"|^{_TIME}[.!]?$|^(?:in |since )?(?:19|20)\d\d[.!]?$"
)
_APPROX = r"(?:about |around |roughly |approximately |almost |nearly |over |under |at least |at most |more than |less than )?"
_NUMBER_ANSWER = re.compile(rf"^{_APPROX}(?P<n>{_NUMS}|\d[\d,.]*%?)(?: [\w'’%-]+){{0,3}}[.!]?$", re.IGNORECASE)
_NAME = rf"(?:{_PLACE}|[A-Z][\w.'’-]*)(?: (?:of |de |the )?(?:{_PLACE}|[A-Z][\w.'’-]*)){{0,3}}"
# a place: a placeholder, or a name after its preposition ("In Prague."); a capitalised word alone may be "Oh."
_WHERE_ANSWER = re.compile(rf"^(?:(?:[Ii]n|[Aa]t|[Tt]o|[Ff]rom|[Oo]n) (?:the )?(?P<x>{_NAME})|(?P<p>{_PLACE}))[.!]?$")
_WHO_ANSWER = re.compile(rf"^(?P<x>{_PLACEHOLDERS}|[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){{0,2}})(?: will| does| did| is)?[.!]?$")
# a reply that is no answer: assent, refusal, a hedge, deferral
_NO_ANSWER = frozenset("yes yeah yep no nope ok okay sure right exactly sorry hm hmm mhm mm mmm oh ah aha hi hello "
                       "bye huh pardon thanks thank well good fine great perfect nothing none everything all".split())
# "where did that come from": a demonstrative before a verb is a pronoun, not a determiner
_VERBS_AFTER = frozenset("come comes came go goes went work works worked mean means happen happens look looks sound "
                         "sounds take takes make makes start starts end ends used again here now then".split())
# "this year", "that week": a time said from the meeting's own day, which a question asked afterwards cannot keep
_DEICTIC_TIME = frozenset("year week month time morning afternoon evening day days weekend semester term".split())
# the meeting's own place and day: "Where is X here?", "Where will we go now?"
_DEICTIC = frozenset("here now today tonight tomorrow yesterday currently still".split())
_AUX = frozenset("is are was were will does do did has have can shall".split())
# a guess the asker adds after the question, for the answer to confirm or correct ("3 hours?", "Friday?")
_GUESS = re.compile(r"^(?!(?:[Ww]hen|[Ww]hat|[Ww]ho|[Ww]hich|[Ww]here|[Hh]ow)\b)(?:\S+ ){0,3}\S+\?$")
_TITLES = frozenset("Mr Ms Mrs Dr Hon St Prof Sir Madam".split())
_VERBISH = re.compile(r"\b(?:is|are|was|were|be|been|will|would|can|could|do|does|did|have|has|had|should|must|"
                      r"know|think|mean|see|need|want|get|go|going|said|say)\b", re.IGNORECASE)


def form_word(m: re.Match[str]) -> str:
    return m.group("wh").lower()


def _written(label: str, people: Mapping[str, str]) -> str:
    """How a speaker label is written in speech ("[PERSON3]"), "" when it names no one."""
    return people.get(fold(label), "")


def _rewrite(words: list[str], asker: str, answerer: str) -> list[str] | None:
    """The question's words made self-contained: "you" the answerer, "I" the asker, "we" the team; None where a
    person it names has no written form or a pronoun stands alone (module docstring)."""
    out: list[str] = []
    for n, w in enumerate(words):
        low = w.lower()
        nxt = words[n + 1].lower() if n + 1 < len(words) else ""
        if low in ("you", "i", "we"):
            who = {"you": answerer, "i": asker, "we": "the team"}[low]
            if not who:
                return None
            if out and out[-1].lower() in _AGREE:  # "do you" → "does [PERSON3]"
                out[-1] = _AGREE[out[-1].lower()]
            elif out and out[-1].lower() not in ("will", "did", "can", "shall", "was", "does", "has", "is"):
                if n > 0 and words[n - 1].lower() not in ("for", "to", "with", "by", "from", "of", "and"):
                    return None  # a subject after a word we cannot agree with: left unasked
            if nxt in ("are", "have", "do", "were", "am"):
                return None  # "who you are", "what we have": the verb would need to agree too
            out.append(who)
        elif low in ("your", "my", "our"):
            who = {"your": answerer, "my": asker, "our": "the team"}[low]
            if not who:
                return None
            out.append(f"{who}'s")
        elif low in ("me", "us", "yourself", "myself", "ourselves"):
            return None
        elif (low in _DETERMINERS and nxt and nxt not in _STOP and nxt.isalpha() and nxt not in _UNRESOLVED
              and not _VERBISH.search(nxt) and nxt not in _VERBS_AFTER and nxt not in _DEICTIC_TIME):
            out.append("the")  # "this tutorial": the thing is named
        elif low.strip("'’s") in _UNRESOLVED or low in _UNRESOLVED:
            return None
        else:
            out.append(w)
    return out


def read_question(sentence: str, asker: str, answerer: str) -> tuple[str, str, str] | None:
    """(form, question, thing) of a turn's last sentence when it is a wh-question a participant could ask
    afterwards (module docstring), else None. asker, answerer: the speakers as written in speech ("" = no one)."""
    body = _LEAD.sub("", sentence.strip())
    if not body.endswith("?") or body.count("?") > 1 or _DISFLUENT.search(body) or "<" in body:
        return None
    m = _WH.match(body)
    if m is None:
        return None
    rest = m.group("rest").strip(" ,")
    words = rest.split()
    if not MIN_QUESTION_WORDS <= len(words) + 1 + (1 if m.group("contr") else 0) <= MAX_QUESTION_WORDS:
        return None
    if _ABOUT_TALK.search(rest) or _HEDGE.search(rest.replace("can ", "")) or "," in rest:
        return None
    low = [w.lower() for w in words]
    if any(a == b for a, b in zip(low, low[1:], strict=False)) or _WH.match(" ".join(words[1:]) + "?"):
        return None
    # a question's auxiliary comes early ("What is …", "Which file did …", "How many pages will …"): "What the
    # alignment's doing?" is a restart, "where did th where did …" too
    if form_word(m) != "who" and not m.group("contr") and not any(w in _AUX for w in low[:3]):
        return None
    if re.search(r"\b(?:when|what|who|which|where)\b", " ".join(low)) or any(w in _DEICTIC for w in low):
        return None
    if any(w in _AUX and words[n][:1].isupper() for n, w in enumerate(low)):
        return None  # "What is Are the freq?": a restart
    rewritten = _rewrite(words, asker, answerer)
    if rewritten is None:
        return None
    wh = m.group("wh")
    form = wh.lower()
    aux = ("is" if m.group("contr") else "")
    # the thing asked about: what follows the auxiliary ("When is | the deadline for the report")
    lead = rewritten[0].lower() if rewritten else ""
    thing_words = rewritten[1:] if not aux and lead in {
        "is", "are", "was", "were", "will", "does", "do", "did", "has", "have", "can", "shall"} else rewritten
    thing = " ".join(thing_words)
    content = [w for w in fold(thing).split() if len(w) >= 3 and w not in _STOP and w not in _NAMES_NOTHING]
    if not content:
        return None
    # a "what" or "which" asks of a named thing ("the Welsh consequential", "[PROJECT1]'s deadline"): "What is
    # the ending of the word?" names nothing one could ask of after the meeting
    if form in ("what", "which") and not re.search(rf"{_PLACE}|(?<=\s)[A-Z][\w-]+|\d", " " + thing):
        return None
    question = f"{wh[0].upper()}{wh[1:]}{' is' if aux else ''} {' '.join(rewritten)}?"  # "What's" → "What is"
    return form, question, thing


# a "what" answered with a time or place phrase asked of no thing ("during Eurospeech", "in the lab")
_PLACE_OR_TIME_WORDS = frozenset("during in at on before after since until by from".split())


def read_answer(sentence: str, form: str, answerer: str, people: Mapping[str, str]) -> str | None:
    """The short answer the next turn's first sentence gives to a question of `form` (module docstring), as it
    stands in the text (an "I will" as the answerer's written form), or None."""
    raw = sentence.strip()
    body = _LEAD.sub("", raw).strip()
    if not body or "?" in body or _HEDGE.search(body) or _DISFLUENT.search(body) or "<" in body:
        if form == "who" and body and _SELF.match(body) and answerer:  # "I can." is the hedge test's "can"
            return answerer
        return None
    if form != "who":  # "It's in Denmark.": the answer after its pointing opener
        # (in either case: "and Uh, that's during Eurospeech" leaves "that's …" once its fillers are off)
        body = re.sub(r"^(?:It's|It’s|It is|It was|That's|That’s|That is|That was) (?=\S)", "", body, flags=re.IGNORECASE)
    words = body.rstrip(".!").split()
    if words and words[-1].rstrip(".") in _TITLES:
        return None  # "Mr." of "Mr. Chair, …": the sentence split at a title, no answer
    if not words or len(words) > MAX_ANSWER_WORDS or fold(words[0].strip(",")) in _NO_ANSWER:
        return None
    text = body.rstrip(".!").strip()
    if form == "when":
        # "End of November." opens the turn with a capital the date patterns write in lower case
        return text if _WHEN_ANSWER.match(body) or _WHEN_ANSWER.match(body[:1].lower() + body[1:]) else None
    if form in ("how many", "how much", "how long"):
        return text if _NUMBER_ANSWER.match(body) else None
    if form == "who":
        if _SELF.match(body):
            return answerer or None
        m = _WHO_ANSWER.match(body)
        if m is None:
            return None
        x = m.group("x")
        if re.fullmatch(_PLACEHOLDERS, x):
            return x
        return people.get(fold(x)) or None
    if form == "where":
        return text if _WHERE_ANSWER.match(body) else None
    # what / which: a short noun phrase, no clause, no pronoun
    low = [fold(w.strip(",.;:!")) for w in words]
    if _NUMBER_ANSWER.match(body):
        return None  # a number to a "what" is an amount whose unit or owner the question left out ("Fifty-six.")
    if low[0] in _PLACE_OR_TIME_WORDS:
        return None  # "What's September sixth?" / "during Eurospeech": a when or where said, no thing named
    if any(w in _NAMES_NOTHING or w in _UNRESOLVED for w in low) or _VERBISH.search(text):
        return None
    if low[-1] in _STOP or not any(len(w) >= 3 and w not in _STOP for w in low) or "," in text:
        return None
    return text


def _answer_span(text: str, lines: list[tuple[str, int, int]], at: int) -> tuple[int, int] | None:
    """The span of the first sentence of the turn opening at line `at` that is more than a hesitation ("Uhm.",
    "Ehm." then "November 30th.": the turn's second line), within its first two lines; None if none."""
    speaker = lines[at][0]
    for who, start, end in lines[at: at + 2]:
        if who != speaker or (start != lines[at][1] and opener(text[text.rfind("\n", 0, start) + 1: end])[0]):
            return None
        for s, e in _sentences(text, start, end):
            if _LEAD.sub("", text[s:e].strip() + " ").strip():
                return s, e
    return None


def meeting_reply_facts(
    chunks: Mapping[str, list[Chunk]],
    meetings: list[str],
    doc_text: Mapping[str, str],
    tags: set[str],
    skipped: Counter,
) -> dict[str, list[Fact]]:
    """The questions asked and answered in the next turn (module docstring) of the `meetings` among `chunks`'
    documents, by document; one fact per (document, quote, answer) though passages overlap. tags: the folded
    speaker labels that name no one (`meeting_guard.tag_labels`). Skips counted in `skipped`."""
    meetings = [d for d in meetings if d in chunks]
    people = meeting_people(meetings, doc_text, tags)
    found: dict[str, list[Fact]] = defaultdict(list)
    seen: set[tuple[str, str, str]] = set()
    for doc_id in meetings:
        for chunk in chunks[doc_id]:
            text = chunk.text
            lines = turn_lines(text)
            for n in range(len(lines) - 1):
                asker, qs, qe = lines[n]
                answerer, as_, ae = lines[n + 1]
                line_start = text.rfind("\n", 0, as_) + 1
                # the next line must open another speaker's turn: a continuation line is the asker's own
                if not asker or answerer == asker or not opener(text[line_start:ae])[0]:
                    continue
                q_span = list(_sentences(text, qs, qe))
                if len(q_span) < 2 and n > 0 and lines[n - 1][0] == asker:  # the turn's line above
                    q_span = [*_sentences(text, lines[n - 1][1], lines[n - 1][2]), *q_span]
                if not q_span:
                    continue
                s, e = q_span[-1]
                if not text[s:e].rstrip().endswith("?"):
                    continue
                if len(q_span) > 1 and _GUESS.match(_LEAD.sub("", text[s:e].strip())):
                    s, e = q_span[-2]  # "How long is the tutorial? 3 hours?": the asker's guess after the question
                asked = read_question(text[s:e], _written(asker, people), _written(answerer, people))
                if asked is None:
                    continue
                form, question, thing = asked
                a_span = _answer_span(text, lines, n + 1)
                if a_span is None:
                    continue
                a_s, a_e = a_span
                if a_e >= len(text.rstrip()) and not text[a_s:a_e].rstrip().endswith((".", "!")):
                    skipped["reply_cut_end"] += 1
                    continue
                answer = read_answer(text[a_s:a_e], form, _written(answerer, people), people)
                if not answer:
                    skipped["reply_no_short_answer"] += 1
                    continue
                if fold(answer) in fold(question) or fold(answer) in tags:
                    skipped["reply_answer_in_question"] += 1
                    continue
                quote_at = text.rfind("\n", 0, s) + 1
                for _ in range(3):  # from the asker's opener (the turn may run over lines above)
                    if opener(text[quote_at:e])[0] or quote_at == 0:
                        break
                    quote_at = text.rfind("\n", 0, quote_at - 1) + 1
                quote = text[quote_at:a_e].strip()
                key = (doc_id, quote, answer)
                if key in seen:
                    continue
                seen.add(key)
                kind = {"when": TruthType.DATE, "who": TruthType.PERSON, "how many": TruthType.NUMBER,
                        "how much": TruthType.NUMBER, "how long": TruthType.NUMBER}.get(form, TruthType.ENTITY).value
                ask = question.replace(thing, "{s}", 1)
                found[doc_id].append(_fact(doc_id, chunk, quote, thing, f"reply|{form}", answer, kind, ask))
    return _unique(found, {d: fold(doc_text[d]) for d in meetings}, skipped)
