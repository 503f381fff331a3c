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


def named_speakers(query: str, speakers: Iterable[str]) -> set[str]:
    """The speakers among `speakers` that `query` names."""
    return {s for s in set(speakers) if s and names(query, s)}


def line_speakers(text: str) -> dict[str, int]:
    """Speaker → characters of the lines they open in `text` ("Name: …" lines; header words such as
    "Subject:" or "Note:" are no speakers: corpus_kind.opening_speaker). Empty for a passage of no speaker."""
    said: dict[str, int] = {}
    for line in text.splitlines():
        speaker = opening_speaker(line)
        if speaker:
            said[speaker] = said.get(speaker, 0) + len(line)
    return said


def turns(text: str) -> int:
    """How many lines of `text` open with a speaker."""
    return sum(1 for line in text.splitlines() if opening_speaker(line))


def spoken_share(text: str, named: set[str]) -> float:
    """The share (0..1) of `text`'s speaker lines' characters that the `named` speakers say."""
    return share_of(line_speakers(text), named)


def share_of(said: dict[str, int], named: set[str]) -> float:
    """`spoken_share` of a passage whose `line_speakers` were read already."""
    total = sum(said.values())
    return sum(n for s, n in said.items() if s in named) / total if total else 0.0
