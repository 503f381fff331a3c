"""Which facts of a meeting transcript a question may be written from (issue 36: precision first).

A meeting is a document of "Speaker: text" lines with three speakers or more and thirty turns or more,
most of its lines spoken (`is_meeting`); a chat export's session has two speakers and is never one, so the chat corpora's facts pass
untouched. The readers were written for chats and prose; on a meeting's disfluent many-speaker speech the
unseen QMSum folder read natural 2/30, correct 6/30 (session 39). What went wrong, and the rule for each:

- **a speaker label that names no one** (`tag_labels`): QMSum's AMI meetings are spoken by "Project Manager",
  "Marketing", "Industrial Designer", "User Interface" in every recording, ICSI's by "Grad E", "PhD D",
  "Professor B": "What did Grad E find?" names no person and no meeting. Read from the folder itself, never a
  dataset's fields: a *letter code* is a label whose last word is one letter or a number ("Grad E", "Speaker
  1", "F"); a *role* is a label the folder also writes in lower case, titles and honorifics aside
  ("marketing", "the project manager said"), or a title alone ("The Chair"), where a name is not ("Kirsty
  Williams AM": "kirsty williams" never; "Mark Reckless AM": "mark reckless" never). A fact whose
  subject or answer is such a label is not asked (a meeting anchor would be the other way; not built);
- **a subject that is no one a question can name alone**: a single word ("Jane", "Ralf", "Chair", "Bill",
  "House": a first name said in one meeting, or a common word capitalised) — a named subject has two
  words or more ("Navraj Brar", "the Government of Taiwan");
- **the chat readers' own facts** (a speaker's "said" facts, wishes, feelings, plans: "What did Professor
  E want to buy?", "How does Grad E feel about how much of the mental?"): on meeting speech they read
  hypotheticals, idioms and fillers as facts ("I'm afraid I …" → afraid). None is asked in a meeting;
- **a thing that is no named thing** (kind "other": "What did Huw Irranca-Davies AM draw?" → "attention",
  "What did Sian Gwenllian AM make?" → "recommendations"): only named answers (a person, place,
  organisation, work, date) are asked in a meeting;
- **a hedged or asked sentence** (`_HEDGED`): "maybe Jane should talk to Liz", "Now we will go to Ms.
  Ashton", "can they say today that Huawei will be banned …?" state nothing that happened;
- **a class the verb refutes** (`_TO_A_PERSON`): one says something to, talks to, hands over to, hears
  from a person: "Which place did Kirsty Williams AM say to?" → "Hefin" is a person read as a place; one
  dies from a disease, rises in the House (an idiom): a place or organisation answer after such a verb is
  not asked, nor one a title opens ("Ms. Ashton");
- **a meeting's own procedure** (`_PROCEDURE`): "Who joined Kirsty Williams AM?" → "Huw Morris" is
  true of one session of the eight she speaks in;
- **a value cut or glued** (`_GLUED`): "February18" (a date run into its number), "the Powder - Tower";
  a clause whose object the question skips (`_another_object`: "care packages to health care workers and
  hand sanitizer to the Peel Regional Police" asked as the packages' receiver);
- **a speaker's "we" asked as theirs** (`_PLURAL_ASK`): "Which organization are Kirsty Williams AM working
  with?", "Which organization have David Blaney provided funding to?";
- **a speaker label read as the sentence's subject** (`_speaker_as_subject`, session 41): "Mr. Dane Lloyd: The
  Government of Taiwan delivered 25,000 masks to …" asked "Which organization did Dane Lloyd deliver …?".

Two transcript styles are read: "Name: text" lines, and "(Name) text" lines whose following lines continue
the turn (ELITR's hand transcripts). A document is judged a meeting on its passages (`meeting_text`): joined
whole, the cut ends of long speeches outnumbered the turns and a committee was no meeting, its facts unguarded.
What a meeting states is read by datagen.meeting_statements (relations "meet:…"), which this guard lets through.

Rules are per fact; what a rule refuses is counted in `FactBase.skipped` ("meeting:<rule>").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from corpus_tools.speakers import HONORIFICS, TITLES, core
from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.types import TruthType

# "Name: text" at a line's start: a speaker label of one to five words (the committees' "Hon. Chrystia Freeland",
# "Mr. Yves-François Blanchet", "Right Hon. Justin Trudeau")
_LABEL = re.compile(r"^([A-Z][\w'’.-]*(?: [A-Za-z][\w'’.-]*){0,4}):[ \t]", re.MULTILINE)
# "(PERSON6) text": the other transcript style (ELITR's hand transcripts), where the lines after an opener,
# until the next one, continue its turn; a meeting of it has as many lines as turns or more
_PAREN_LABEL = re.compile(r"^\(([A-Z][\w'’.-]*(?: [A-Za-z][\w'’.-]*){0,4})\)[ \t]+(?=\S)", re.MULTILINE)
# of a "(Name) text" transcript's lines, this share at least open a turn (ELITR's tuning meetings: 0.27 to 0.57)
PAREN_TURN_SHARE = 0.2
MIN_SPEAKERS = 3
# a meeting runs long; a short session of three friends is a group chat, read by the chat readers as main did
# (a chat test holds three speakers in four lines)
MIN_TURNS = 30
NAMED_KINDS = frozenset({
    TruthType.PERSON.value, TruthType.PLACE.value, TruthType.ORGANIZATION.value, TruthType.ENTITY.value,
    TruthType.DATE.value,
})
STATEMENT = "meet:"  # datagen.meeting_statements' relations
_TITLE_WORDS = frozenset("mr mr. mrs mrs. ms ms. dr dr. hon hon. right the prof prof.".split())
# verbs whose object is a person one addresses ("said to Hefin"), or no place or body at all ("died from ALS",
# "rose in the House"): a place or an organisation after them is misread
_TO_A_PERSON = frozenset(
    "say speak talk turn hand handle discuss listen learn hear ask tell write send give go come get receive "
    "suggest slip dig hook argue refer defer pass report explain mention answer reply respond thank "
    "die suffer recover rise".split()
)
# a meeting's own procedure: who joined the witness, whom the chair welcomed — true of that one meeting,
# so asked with no meeting a question has as many answers as sessions
_PROCEDURE = frozenset("join welcome thank introduce chair".split())
# a sentence that states no act: a condition, a wish, a possibility, a future or an ask
_HEDGE_WORDS = (
    "if whether would could should might maybe perhaps probably wanna gonna want wants wanted wish hope can cannot "
    "supposed"
).split()
# "may" and "will" in lower case only: "On May 4, …", "Will Smith" are no hedge
_HEDGED = re.compile(
    r"\b(?:" + "|".join(f"[{w[0].upper()}{w[0]}]{w[1:]}" for w in _HEDGE_WORDS)
    + r"|may|will|[Gg]oing to|[Ll]et's|[Ll]et us)\b|'ll\b|'d\b|n't\b|\b[Nn]ot\b|\?"
)
# a word and a number run together ("February18", "18February") or a spaced hyphen inside a name
_GLUED = re.compile(r"[A-Za-z]{2,}\d|\d[A-Za-z]{3,}| - ")
# a speaker's "we" asked as theirs: "Which organization are Kirsty Williams AM working with?" (the
# government's act, and the question's verb agrees with "we")
_PLURAL_ASK = re.compile(r"\b(?:are|have|were) \{s\}")
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself|we|us|our|ours)\b", re.IGNORECASE)
_TITLED = re.compile(r"\b(?:Mr|Mrs|Ms|Dr|Miss)\.?\s+$")


def speaker_labels(text: str) -> list[str]:
    """The labels of `text`'s "Name: text" lines, one per line, in order; where it has none, of its
    "(Name) text" lines."""
    return _LABEL.findall(text) or _PAREN_LABEL.findall(text)


def is_meeting(text: str) -> bool:
    """A transcript of three speakers or more and thirty turns or more, at least half of whose lines are
    spoken ("Net Sales: …" lines of a filing are not); in the "(Name) text" style, whose lines after an
    opener continue its turn, at least `PAREN_TURN_SHARE` of its lines open a turn."""
    colon = _LABEL.findall(text)
    labels = colon or _PAREN_LABEL.findall(text)
    if len(set(labels)) < MIN_SPEAKERS or len(labels) < MIN_TURNS:
        return False
    lines = sum(1 for line in text.splitlines() if line.strip())
    return 2 * len(labels) >= lines if colon else len(labels) >= PAREN_TURN_SHARE * lines


def meeting_text(passages: Iterable[str]) -> str:
    """A document's passages joined as `is_meeting` reads them: a passage's first line that opens with no
    speaker is the cut end of a turn the passage before holds (an index cuts windows anywhere, and overlaps
    them), so it is left out. Joined whole, a committee of long speeches has more cut ends than turns and
    was no meeting: its facts went unguarded ("Which organization did House recognize on?" → "February18",
    session 40's reporting run, written where the guard never ran)."""
    kept = []
    for n, passage in enumerate(passages):
        first, _, rest = passage.partition("\n")
        opens = bool(_LABEL.match(first) or _PAREN_LABEL.match(first))
        kept.append(passage if n == 0 or opens else rest)
    return "\n".join(kept)


def tag_labels(texts: Iterable[str]) -> set[str]:
    """The folded speaker labels of the meetings in `texts` that name no person (the module docstring):
    letter codes and roles, read from how the folder writes the label's words outside the label."""
    labels: Counter[str] = Counter()
    bodies = []
    for text in texts:
        labels.update(set(speaker_labels(text)))
        bodies.append(_PAREN_LABEL.sub("", _LABEL.sub("", text)))
    body = "\n".join(bodies)
    out = set()
    for label in labels:
        words = label.split()
        last = words[-1]
        if len(last) == 1 or last.isdigit():
            out.add(fold(label))
            continue
        content = [w for w in words if w.lower() not in _TITLE_WORDS and w not in HONORIFICS]
        phrase = " ".join(w.lower() for w in content)
        if all(w.lower() in TITLES for w in content) or (
            phrase and re.search(rf"(?<![\w'’-]){re.escape(phrase)}(?![\w'’-])", body)
        ):
            out.add(fold(label))
    return out


def _named_alone(subject: str) -> bool:
    """Whether a question may name `subject` with no meeting: two words or more, one of them capitalised
    and not a title ("Navraj Brar", "the Government of Taiwan"; not "Jane", "Chair", "the Bill")."""
    words = [w for w in subject.split() if w.lower() not in _TITLE_WORDS]
    return len(words) >= 2 and any(w[:1].isupper() for w in words)


def refusal(fact: Fact, tags: set[str]) -> str:
    """Why a fact of a meeting is not asked ("" when it may be): see the module docstring."""
    if fact.relation.startswith(STATEMENT):
        return ""  # datagen.meeting_statements' own reading of a meeting: its rules are these
    subject, answer = fold(fact.subject), fold(fact.answer)
    if subject in tags or answer in tags:
        return "speaker_tag"
    if _speaker_as_subject(fact):
        return "speaker_as_subject"
    parts = fact.relation.split("|")
    if len(parts) != 3 or parts[1] == "said" or ":" in parts[0]:
        return "chat_reader"
    if fact.kind not in NAMED_KINDS:
        return "unnamed_answer"
    if not fact.about_doc and not _named_alone(fact.subject):
        return "subject_not_named"
    if _HEDGED.search(fact.sentence):
        return "hedged"
    verb = parts[0].split()[0] if parts[0] else ""
    if verb in _PROCEDURE:
        return "procedure"
    if fact.kind in (TruthType.PLACE.value, TruthType.ORGANIZATION.value):
        at = fact.sentence.find(fact.answer)
        if verb in _TO_A_PERSON or (at > 0 and _TITLED.search(fact.sentence[:at])):
            return "class"
    if _GLUED.search(fact.answer):
        return "glued"
    if _PLURAL_ASK.search(fact.ask):
        return "we_as_one"
    if _another_object(fact):
        return "cut_clause"
    return ""


def _speaker_as_subject(fact: Fact) -> bool:
    """Whether the subject is the label opening the sentence, which the sentence's words never make its
    subject: "Mr. Dane Lloyd: The Government of Taiwan delivered 25,000 masks to the Government of Manitoba."
    was asked "Which organization did Dane Lloyd deliver 25,000 masks to?" (the parse took the label's name
    for the verb's subject). A speaker is the subject where they say "I" (or we, my, our, me, us) or name
    themself after the label."""
    m = _LABEL.match(fact.sentence)
    if m is None:
        return False
    label, body = m.group(1), fact.sentence[m.end():]
    subject = fold(fact.subject)
    if subject not in (fold(label), fold(core(label))):
        return False
    return not _FIRST_PERSON.search(body) and subject not in fold(body)


def _another_object(fact: Fact) -> bool:
    """Whether the question's last words, said in the sentence, run on to another object than the answer:
    "offered free care packages to health care workers and hand sanitizer to the Peel Regional Police" asks
    "Which organization has Navraj Brar offered free care packages to?" of the police, which got the
    sanitizer. Unknown (the words not said so) is no refusal."""
    words = fact.ask.replace("{s}", fact.subject).rstrip("?").split()
    if len(words) < 3:
        return False
    tail = " ".join(words[-3:])
    at = fact.sentence.find(tail)
    if at < 0:
        return False
    rest = fact.sentence[at + len(tail):].lstrip(" ,")
    return not rest.startswith(fact.answer)


def guard_meetings(base: FactBase, doc_text: Callable[[str], str], doc_ids: Iterable[str]) -> int:
    """Drop the facts of every meeting among `doc_ids` that `refusal` refuses, and the sets, anchored and
    bridged questions built on any fact of a meeting (the chat structures read speech as a chat's).
    Counts each refusal in `base.skipped`; returns how many documents are meetings (0: nothing changed)."""
    meetings = {d: text for d in doc_ids if is_meeting(text := doc_text(d))}
    if not meetings:
        return 0
    tags = tag_labels(meetings.values())
    for doc_id in list(base.facts):
        if doc_id not in meetings:
            continue
        kept = []
        for fact in base.facts[doc_id]:
            why = refusal(fact, tags) if fact.ask else ""
            if why:
                base.skipped[f"meeting:{why}"] += 1
            else:
                kept.append(fact)
        if kept:
            base.facts[doc_id] = kept
        else:
            del base.facts[doc_id]

    def touches(facts: Iterable[Fact]) -> bool:
        return any(f.doc_id in meetings for f in facts)

    base.lists = [s for s in base.lists if not touches(s)]
    base.act_sets = [s for s in base.act_sets if not touches(s)]
    base.anchored = [a for a in base.anchored if not touches((a.thing, a.anchor))]
    base.bridges = [b for b in base.bridges if not touches((b.thing, b.anchor))]
    return len(meetings)
