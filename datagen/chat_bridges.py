"""A session asked by what was said in it, not by its date: "In the chat in which Jon mentioned
reading The Lean Startup, how was Gina feeling?" → "excited and kinda nervous" (conversation
benchmarks find the session by its content: "What did Melanie say after Caroline told her about the
adoption agency?"). Two facts of the readers are combined, and nothing new is read:

- the thing: a question the readers ask by the chat's day, "In the chat of 27 May 2023, how was Gina
  feeling?" (`verify.TOLD_OPENING`); its reader already made sure that day's chats give it one answer,
  so the one session the anchor names gives it one too;
- the anchor: another sentence of the same session that no other session of the corpus repeats,
  said as a clause of what the speaker mentioned: the readers' "In which chat did Jon mention reading
  The Lean Startup?" (`datagen.chat_mentions`, `datagen.chat_sessions`: told in one chat only) →
  "Jon mentioned reading The Lean Startup", or another day-asked fact whose answer no other session's
  text holds ("what was Jon planning to do?" → "open a dance studio" → "Jon mentioned planning to
  open a dance studio").

So the question needs both hops: the anchor picks one session out of the whole conversation, the
thing is read there. Both quotes are the task's, from one document (one session: one gold document,
two passages when they lie in two chunks); the verifier finds each quote in it and the answer in a
quoted passage, as for any single-hop task. Refused anchors: feelings (many sessions feel "great"),
anything said with "my", "you" or "we" (the question would have to say whose), a clause longer than
`max_anchor_words`, and an anchor whose words hold the thing's answer.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.types import Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import TOLD_WHICH, contains

BRIDGE_FORM = "session_bridge"
BRIDGE_OPENING = "In the chat in which "
_DAY_ASK = re.compile(r"^In the chat of \d{1,2} [A-Z][a-z]+ \d{4}, (.+\?)$")
# Day-asked questions whose answer completes a clause of what the speaker mentioned: "what was {s}
# hosting?" + "a dance competition" → "{s} mentioned hosting a dance competition".
_CLAUSES = (
    (re.compile(r"^what was \{s\} planning to do\?$"), "mentioned planning to "),
    (re.compile(r"^what was \{s\} hoping to do\?$"), "mentioned hoping to "),
    (re.compile(r"^what was \{s\} thinking about doing\?$"), "mentioned thinking about "),
    (re.compile(r"^what did \{s\} want to do\?$"), "mentioned wanting to "),
    (re.compile(r"^what did \{s\} ask for advice on\?$"), "asked for advice on "),
    (re.compile(r"^what did \{s\} mention (\w+ing(?: \w+)?)\?$"), r"mentioned \1 "),
    (re.compile(r"^what was \{s\} (passionate about|keen on|into)\?$"), r"mentioned being \1 "),
    (re.compile(r"^what was \{s\} (\w+ing(?: (?:into|for|on|out|up|about|with))?)\?$"), r"mentioned \1 "),
)
# "I was so excited…" is said in many sessions: a feeling names no one session
_FEELING = re.compile(r"^how (?:was|did|is) \{s\}|\b(?:thankful|grateful|thrilled|excited|proud|happy|glad)\b")
# what "asked for advice on" may be followed by: a question word, a determiner, a gerund or a plural
_ASKED_ON = re.compile(r"(?i)(?:(?:how|what|where|which|who|when|whether|a|an|the|some|any)\b|\w+ing\b|\w+s\b)")
# words that point at a speaker: the question would have to say whose ("my dance studio")
_POINTING = frozenset("i me my mine we us our ours you your yours myself yourself".split())


@dataclass(frozen=True)
class Bridge:
    """One question: the day-asked thing, the anchor of the same session, and the question written."""

    thing: Fact
    anchor: Fact
    question: str


def anchor_clause(fact: Fact, chats: Mapping[str, str]) -> str:
    """What `fact` says as "Jon mentioned reading The Lean Startup" (its subject filled), or "" when it
    cannot name its session: a feeling, a speaker's "my", or words another session's text holds too."""
    if fact.ask.startswith(TOLD_WHICH) and fact.ask.endswith("?"):
        rest = fact.ask[len(TOLD_WHICH):-1]  # "{s} mention reading The Lean Startup"
        m = re.match(r"^\{s\} mention (.+)$", rest)
        if m is None or _FEELING.search(m.group(1)):
            return ""
        words = m.group(1)  # told in one chat only: the reader checked it
        if _passive(words, fact.sentence):
            return ""  # "I just got accepted for a fashion internship" is no "accepting for" of hers
    else:
        m = _DAY_ASK.match(fact.ask)
        if m is None or _FEELING.search(m.group(1)):
            return ""
        ask = m.group(1)[:1].lower() + m.group(1)[1:]
        for pattern, lead in _CLAUSES:
            if pattern.match(ask):
                words = pattern.sub(lead, ask).replace("mentioned ", "", 1) + _as_named(fact.answer, fact.sentence)
                break
        else:
            return ""
        # the answer is what names the session: no other chat of the corpus may hold its words
        if sum(contains(text, fact.answer) for text in chats.values()) != 1:
            return ""
    if any(w in _POINTING for w in re.findall(r"[a-z']+", words.lower())):
        return ""
    if words.startswith("asked for advice on ") and not _ASKED_ON.match(words[len("asked for advice on "):]):
        return ""  # "tips to help me maintain the habit" gave "maintain the habit": "advice on maintain …"
    verb = "asked" if words.startswith("asked ") else "mentioned"
    words = words.removeprefix("asked ")
    return f"{fact.subject} {verb} {words}"


def _as_named(answer: str, sentence: str) -> str:
    """The answer as a clause names it: "I painted that lake sunrise" gave "lake sunrise", which the clause
    says as "the lake sunrise" (the pointing word lost, as `datagen.chat_sessions` restores it)."""
    if re.match(r"(?i)(?:a|an|the|some)\b", answer):
        return answer
    if re.search(rf"(?i)\b(?:this|that|these|those) {re.escape(answer)}\b", sentence):
        return "the " + answer
    return answer


def _passive(words: str, sentence: str) -> bool:
    """Whether the clause's verb ("accepting for …") is said passive in its sentence ("got accepted for")."""
    m = re.match(r"(\w+)ing\b", words)
    if m is None:
        return False
    stem = m.group(1)
    return bool(re.search(rf"(?i)\b(?:got|get|gets|been|was|were|is|am|are|'m|be)\s+(?:\w+\s+)?{re.escape(stem)}e?d\b", sentence))


def session_bridges(base: FactBase, chats: Mapping[str, str], max_anchor_words: int = 12) -> list[Bridge]:
    """Every (thing, anchor) pair of one session (see the module docstring). chats: each chat
    document's text (mail is asked by its own header, never here)."""
    by_doc: dict[str, list[tuple[Fact, str]]] = defaultdict(list)
    for doc_id, facts in sorted(base.facts.items()):
        if doc_id not in chats:
            continue
        for f in facts:
            clause = anchor_clause(f, chats) if f.ask else ""
            if clause and len(clause.split()) <= max_anchor_words:
                by_doc[doc_id].append((f, clause))
    out: list[Bridge] = []
    for doc_id, facts in sorted(base.facts.items()):
        for thing in facts:
            m = _DAY_ASK.match(thing.ask)
            if m is None or doc_id not in chats:
                continue
            rest = m.group(1).replace("{s}", thing.subject)
            for anchor, clause in by_doc.get(doc_id, ()):
                if anchor.sentence == thing.sentence or fold(anchor.answer) == fold(thing.answer):
                    continue  # one sentence is no two hops
                if _same_question(anchor, thing) or _shares_words(clause, thing.answer) or _same_frame(anchor, clause, thing):
                    continue  # the anchor would ask, give away or blur the thing
                question = f"{BRIDGE_OPENING}{clause}, {rest}"
                out.append(Bridge(thing, anchor, question))
    return out


_STOP = frozenset("a an the of in on at to for and or with my our your his her their it this that".split())


def _shares_words(clause: str, answer: str) -> bool:
    """Whether the anchor's words hold the answer or half its content words ("looking into counseling
    or mental health work" all but tells "counseling and mental health")."""
    words = {w for w in re.findall(r"[a-z0-9']+", answer.lower()) if w not in _STOP}
    said = set(re.findall(r"[a-z0-9']+", clause.lower()))
    return contains(clause, answer) or bool(words) and 2 * len(words & said) >= len(words)


# plans, wishes and hopes are one frame: "In the chat in which Jason mentioned planning to go on
# adventures, what was Jason planning?" has two answers to a reader
_WISHES = {"plan": "wish", "want": "wish", "hop": "wish", "think": "wish", "wish": "wish"}


def _verb(word: str) -> str:
    """A verb's stem, crudely ("planning" → "plan", "reading" → "read", "wanting" → "want"), enough to
    tell one frame from another; plans, wishes and hopes are one ("wish")."""
    w = word.lower()
    if w.endswith("ing") and len(w) > 5:
        w = w[:-3]
        if len(w) > 2 and w[-1] == w[-2]:
            w = w[:-1]  # "planning" → "plan"
    for stem, frame in _WISHES.items():
        if w.startswith(stem):
            return frame
    return w[:4]


def _same_frame(anchor: Fact, clause: str, thing: Fact) -> bool:
    """Whether the anchor tells the thing's own frame of the same person ("mentioned planning to read the
    classics" for "what did Linda mention reading?"): the question would read as asking the anchor back."""
    if fold(anchor.subject) != fold(thing.subject):
        return False
    m = _DAY_ASK.match(thing.ask)
    asked = [w for w in re.findall(r"[a-z']+", m.group(1).lower().split("{s}")[-1]) if w not in _FRAME_FILLERS] if m else []
    said = [w for w in clause[len(anchor.subject):].split()[1:4] if w not in _FRAME_FILLERS]  # after "mentioned"
    return bool(asked) and _verb(asked[-1]) in {_verb(w) for w in said}


_FRAME_FILLERS = frozenset("to do doing mention being about on for into in out up with of".split())


def _same_question(a: Fact, b: Fact) -> bool:
    """Whether two day-asked facts ask the same thing of the same person ("what was Jon planning to do?")."""
    ma, mb = _DAY_ASK.match(a.ask), _DAY_ASK.match(b.ask)
    return bool(ma and mb and ma.group(1) == mb.group(1) and fold(a.subject) == fold(b.subject))


class SessionBridges:
    """The bridged questions of a chat corpus: each thing asked once this way, an anchor used for at
    most `max_uses` things (so one striking sentence does not name every question of its session)."""

    def __init__(self, found: Sequence[Bridge], max_uses: int = 2, max_words: int = 32) -> None:
        by_question: dict[str, Bridge] = {}
        for b in found:  # one thing said twice in a session asks one question, whichever sentence
            if len(b.question.split()) <= max_words:
                by_question.setdefault(b.question, b)
        self.found = list(by_question.values())
        self.max_uses = max_uses
        self.uses: dict[tuple[str, str], int] = defaultdict(int)
        self.asked: set[tuple[str, str, str]] = set()

    def _open(self, b: Bridge, usable: Callable[[str], bool]) -> bool:
        return (
            _thing_key(b.thing) not in self.asked and self.uses[(b.anchor.doc_id, b.anchor.sentence)] < self.max_uses
            and usable(b.thing.doc_id)
        )

    def left(self, usable: Callable[[str], bool]) -> bool:
        return any(self._open(b, usable) for b in self.found)

    def propose(
        self, rng: random.Random, usable: Callable[[str], bool], fact_key: Callable[[Fact], str]
    ) -> Candidate | DropReason:
        open_ = [b for b in self.found if self._open(b, usable)]
        if not open_:
            return DropReason.NO_ANSWER_SPAN
        thing = rng.choice(sorted({_thing_key(b.thing) for b in open_}))
        b = rng.choice([x for x in open_ if _thing_key(x.thing) == thing])  # a thing first, then its anchor
        self.asked.add(thing)  # asked once this way, whatever becomes of it
        self.uses[(b.anchor.doc_id, b.anchor.sentence)] += 1
        chunks = tuple(dict.fromkeys((b.anchor.chunk_id, b.thing.chunk_id)))
        return Candidate(
            question=b.question,
            answer=b.thing.answer,
            supporting=(SupportingItem(b.thing.doc_id, chunks, (b.anchor.sentence, b.thing.sentence), contains_truth=True),),
            hops=1,
            truth_type=_truth_type(b.thing.kind),
            generator="natural",
            metadata={
                "form": BRIDGE_FORM,
                "anchor": b.anchor.ask.replace("{s}", b.anchor.subject),
                "relations": [b.anchor.relation, b.thing.relation],
                "fact_keys": [fact_key(b.anchor), fact_key(b.thing)],
            },
        )


def _thing_key(fact: Fact) -> tuple[str, str, str]:
    """The thing's session, day question (subject filled) and answer: one thing however often it is said."""
    return (fact.doc_id, fact.ask.replace("{s}", fact.subject), fold(fact.answer))


def _truth_type(kind: str) -> TruthType:
    try:
        return TruthType(kind)
    except ValueError:
        return TruthType.OTHER
