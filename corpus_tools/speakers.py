"""The speaker a question names, and how much of a passage that speaker says (transcripts and chats).

Questions about a meeting often name who spoke: "What did Marketing say about the trend?", "What did
Kirsty Williams think about the budget?", "What did Professor C say about the hypothesis?", "What did F think
of the XML format?". The name is one word or two among the question's, and every passage of a meeting
repeats the topic words whoever says them, so both legs rank the passages where someone else talks about
the topic as high as the ones where the named speaker does. A passage of a transcript is "Speaker: text"
lines (corpus_tools/transcripts.py, a chat export, a .txt transcript); its speakers are read off its
lines, so an index built before this module needs no rebuild.

`named_speakers(query, speakers)` returns the speakers (labels as the passages write them) the question
names. A label is read as its *core*: without the titles that open it ("PhD", "Grad", "Professor",
"Speaker", "Dr") and the honorifics that close it ("AM", "MS", "MP"): "Kirsty Williams AM" → "Kirsty
Williams", "PhD F" → "F". The question names a label when it holds the whole label or its core, as words:
- a core of one letter ("F") only as a capital letter standing alone and not the question's first word
  ("What did F think" but not "A summary of …"), "I" only after a title ("PhD I");
- any other core capitalised as written ("Marketing", "User Interface", "Kirsty Williams"), so that a topic
  sharing a role's words ("the marketing strategy", "the user interface design") names no one; in lower case
  only a label of several words after "the" and before a verb of saying, "'s", "and" or the question's end
  ("did the project manager think", "the industrial designer's concern"): on QMSum's tuning queries 19 of the
  21 lower-case "user interface" are the topic, while roles asked about in lower case read so.
`spoken_share(text, named)` is the share of a passage's speaker lines' characters the named speakers say.
`Corpus.search` multiplies a candidate's fused score by 1 + `SearchConfig.speaker_lift` × that share on a
conversation index (`corpus_tools.corpus_kind`) whose passages hold several turns (MIN_TURNS, the median of its
sampled first chunks), when the question names a speaker of the candidates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from corpus_tools.corpus_kind import opening_speaker

# The lift reads passages of several turns: where each passage is one turn (LoCoMo's index, a document a turn
# said), a named speaker's passages are half of a two-person chat, and lifting them all lost LoCoMo's tuning
# questions (conversation 41's 95: passage R@5 0.558 → 0.495, 2 won / 8 lost; session 39).
MIN_TURNS = 3

TITLES = frozenset({"phd", "grad", "professor", "prof", "postdoc", "undergrad", "speaker", "dr", "dr.", "mr",
                    "mr.", "mrs", "mrs.", "ms", "ms.", "the", "chair", "cllr", "councillor", "senator", "rep"})
HONORIFICS = frozenset({"AM", "MS", "MP", "MSP", "MLA", "TD", "QC", "KC", "AS", "AC", "MEP", "OBE", "MBE", "CBE"})


def core(label: str) -> str:
    """The label without its opening titles and closing honorifics ("Kirsty Williams AM" → "Kirsty Williams",
    "PhD F" → "F"); the label itself when nothing else would be left ("The Chair" → "The Chair")."""
    words = label.split()
    lo, hi = 0, len(words)
    while lo < hi - 1 and words[lo].lower() in TITLES:
        lo += 1
    while hi - 1 > lo and words[hi - 1] in HONORIFICS:
        hi -= 1
    return " ".join(words[lo:hi]) if lo < hi else label


def _found(phrase: str, query: str) -> list[re.Match[str]]:
    return list(re.finditer(rf"(?<![\w'’-]){re.escape(phrase)}(?![\w-]|['’](?![sS]\b))", query))


_SAYING = frozenset({
    "think", "thinks", "thought", "say", "says", "said", "suggest", "suggested", "propose", "proposed", "agree",
    "agreed", "disagree", "disagreed", "prefer", "preferred", "mention", "mentioned", "explain", "explained",
    "present", "presented", "believe", "believed", "argue", "argued", "want", "wanted", "feel", "felt", "raise",
    "raised", "ask", "asked", "talk", "talked", "discuss", "discussed", "respond", "responded", "report", "reported",
    "state", "stated", "recommend", "recommended", "and"})
_NEXT_WORD = re.compile(r"[\w'’]+")


def _lowercase_role(phrase: str, query: str) -> bool:
    """A label of several words written in lower case as a person is ("did the project manager think")."""
    if " " not in phrase:
        return False
    for m in re.finditer(rf"\bthe {re.escape(phrase.lower())}(?![\w-])", query):
        rest = query[m.end():].lstrip()
        word = _NEXT_WORD.match(rest)
        if not rest or rest[0] in "?.!" or rest.startswith(("'s", "’s")) or (word and word.group(0) in _SAYING):
            return True
    return False


def names(query: str, label: str) -> bool:
    """Whether `query` names the speaker written `label` (see the module's rules)."""
    if _found(label, query) or _lowercase_role(label, query):
        return True
    short = core(label)
    if short == label:
        return False
    if len(short) == 1:
        if not short.isupper():
            return False
        hits = [m for m in _found(short, query) if m.start() > 0]
        if short == "I":
            titled = label.split()[0]
            return any(query[: m.start()].rstrip().lower().endswith(titled.lower()) for m in hits)
        return bool(hits)
    return bool(_found(short, query)) or _lowercase_role(short, query)


def named_speakers(query: str, speakers: Iterable[str], people: bool = False) -> set[str]:
    """The speakers among `speakers` that `query` names; `people` also reads a label as the person it names
    (`names_person`: a committee member by name or surname, "the professor")."""
    pool = {s for s in set(speakers) if s}
    found = {s for s in pool if names(query, s)}
    if people:
        found |= names_person(query, pool)
    return found


# A committee's transcript (QMSum's Canadian and Welsh ones) writes a speaker as Hansard does: "Hon. Chrystia
# Freeland (Deputy Prime Minister and Minister of Intergovernmental Affairs)", "Mr. Garnett Genuis (Sherwood Park—Fort
# Saskatchewan, CPC)", "The Acting Chair (Mr. Bruce Stanton)", "Right Hon. Justin Trudeau". `opening_speaker` reads
# none of these (parentheses; four words), and a question names the person, often by surname alone ("What did
# Paul-Hus think …?"): on QMSum's tuning folder 652 turns (211 labels) are written so.
PERSON_TITLES = frozenset({"hon.", "hon", "right", "rt.", "rt", "mr.", "mr", "mrs.", "mrs", "ms.", "ms", "dr", "dr.",
                           "mme", "mme.", "m.", "sir", "dame", "lord", "lady", "baroness", "the", "professor", "prof",
                           "prof."})
# A chair's label names its role and, in parentheses, who holds it ("The Acting Chair (Mrs. Carol Hughes)").
_CHAIR = re.compile(r"^(?:The )?(?:Acting |Deputy |Assistant |Vice[- ])?(?:Chair|Chairman|Chairwoman|Chairperson|"
                    r"Speaker|President|Presiding Officer|Clerk)$")
# A title asked in lower case as a person: "What did the professor think …?" names the meeting's "Professor B"
# (QMSum's research meetings write each speaker as a title and a letter: "Professor B", "PhD C", "Grad D").
_ROLE_TITLES = frozenset({"professor", "postdoc", "chair"})
LABEL_CHARS = 200  # a label longer than this is a sentence with a colon, not a speaker


def outside_parentheses(label: str) -> tuple[str, str]:
    """(the label without its parenthesised parts, the text of its first parenthesis, nested ones kept).
    An unclosed parenthesis runs to the end."""
    outside, inner, depth, first = [], [], 0, True
    for ch in label:
        if ch == "(":
            depth += 1
            if depth == 1:
                continue
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                first = False
                continue
        if depth == 0:
            outside.append(ch)
        elif first:
            inner.append(ch)
    return " ".join("".join(outside).split()), " ".join("".join(inner).split())


def person(label: str) -> str:
    """The person a speaker label names, without titles, honorifics, office, riding or party ("Hon. Chrystia
    Freeland (Deputy Prime Minister …)" → "Chrystia Freeland", "The Acting Chair (Mr. Bruce Stanton)" → "Bruce
    Stanton", "Kirsty Williams AM" → "Kirsty Williams"); "" for one word ("Marketing") or a title and a letter
    ("PhD F", "Professor B"). A role of two words stays itself ("Project Manager"): `names` reads it already."""
    outside, inner = outside_parentheses(label)
    if _CHAIR.match(outside):
        if not inner:
            return ""
        outside, _ = outside_parentheses(inner)
    words = outside.split()
    lo, hi = 0, len(words)
    while lo < hi and words[lo].lower() in PERSON_TITLES:
        lo += 1
    while hi > lo and words[hi - 1] in HONORIFICS:
        hi -= 1
    words = words[lo:hi]
    if len(words) < 2 or len(words[-1]) < 2 or not all(w[:1].isupper() for w in words):
        return ""
    return " ".join(words)


def names_person(query: str, speakers: Iterable[str]) -> set[str]:
    """The speakers `query` names as people (beyond `names`): a label's person by full name ("Chrystia Freeland"),
    or by surname when no other speaker of `speakers` has it ("Paul-Hus", "Genuis"), capitalised as written and not
    the question's first word; and a title asked in lower case ("the professor" → every "Professor X")."""
    pool = {s for s in speakers if s}
    people = {s: person(s) for s in pool}
    surnames: dict[str, set[str]] = {}
    for p in people.values():
        if p:
            surnames.setdefault(p.split()[-1], set()).add(p)
    found = set()
    for s, p in people.items():
        if not p:
            continue
        last = p.split()[-1]
        if _found(p, query) or (len(last) > 2 and len(surnames[last]) == 1
                                and any(m.start() > 0 for m in _found(last, query))):
            found.add(s)
    lowered = query.lower()
    for title in _ROLE_TITLES:
        if re.search(rf"\bthe {title}(?![\w-])", lowered):
            found |= {s for s in pool if s.split()[0].lower() in {title, title + "."} and len(s.split()) <= 2}
    return found


def label_speaker(line: str) -> str:
    """The speaker opening `line`: `opening_speaker`'s, else a label with parentheses or of several capitalised
    words (a committee's "Hon. Mary Ng (Minister of Small Business, …): …"), up to the first ": " outside
    parentheses, at most LABEL_CHARS long; "" when neither."""
    speaker = opening_speaker(line)
    if speaker:
        return speaker
    text = line.lstrip()
    if not text[:1].isupper():
        return ""
    depth = 0
    for i, ch in enumerate(text[:LABEL_CHARS]):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ":" and depth == 0:
            if text[i + 1:i + 2] not in (" ", "\t"):
                return ""
            label = text[:i].strip()
            outside, _ = outside_parentheses(label)
            words = outside.split()
            if not words or len(words) > 6 or not all(w[:1].isupper() for w in words):
                return ""
            # a label's first word is no header word ("Figure 2 (left): …", "Note (draft): …")
            return label if opening_speaker(words[0] + ": x") else ""
    return ""


def line_speakers(text: str, labels: bool = False) -> dict[str, int]:
    """Speaker → characters of the lines they open in `text` ("Name: …" lines; header words such as
    "Subject:" or "Note:" are no speakers: corpus_kind.opening_speaker). Empty for a passage of no speaker.
    `labels` also reads a committee's labels (`label_speaker`)."""
    said: dict[str, int] = {}
    read = label_speaker if labels else opening_speaker
    for line in text.splitlines():
        speaker = read(line)
        if speaker:
            said[speaker] = said.get(speaker, 0) + len(line)
    return said


def turns(text: str, labels: bool = False) -> int:
    """How many lines of `text` open with a speaker (`labels`: a committee's labels too, `label_speaker`)."""
    read = label_speaker if labels else opening_speaker
    return sum(1 for line in text.splitlines() if read(line))


def spoken_share(text: str, named: set[str]) -> float:
    """The share (0..1) of `text`'s speaker lines' characters that the `named` speakers say."""
    return share_of(line_speakers(text), named)


def share_of(said: dict[str, int], named: set[str]) -> float:
    """`spoken_share` of a passage whose `line_speakers` were read already."""
    total = sum(said.values())
    return sum(n for s, n in said.items() if s in named) / total if total else 0.0


# A turn that says nothing but agreement or a filler: "Mm-hmm.", "Yeah, okay.", "Uh-huh." A third of a product
# or research meeting's turns are such (QMSum's tuning meetings: AMI 28.5 %, ICSI 30 %, the committees 0.9 %).
_BACKCHANNEL = re.compile(r"^(?:(?:mm-?hmm|mm+|hmm+|uh-?huh|um+|uh+|yeah|yep|yes|no|okay|ok|right|sure|alright|oh|ah|"
                          r"so|well|mm-?kay|huh|wow|cool|great|good|true|exactly|hm+)[\s,.!?'-]*)+$", re.IGNORECASE)


def is_backchannel(said: str) -> bool:
    """Whether a turn's words (after its "Speaker: ") are only a backchannel or filler, or nothing."""
    return not said.strip() or bool(_BACKCHANNEL.match(said.strip()))


def backchannel_share(text: str, labels: bool = False) -> float:
    """The share (0..1) of `text`'s speaker lines that are backchannels (`is_backchannel`); 0 with no speaker line."""
    read = label_speaker if labels else opening_speaker
    said = [line.lstrip()[len(speaker) + 1:] for line in text.splitlines() if (speaker := read(line))]
    return sum(map(is_backchannel, said)) / len(said) if said else 0.0
