"""How a user names one meeting of a folder in a question (issue 36: "naming its meeting the way a user would").

session 41–42's meeting readers ask questions that name no meeting ("Who will check the list of figures?"), so a
question must have one answer in the whole folder, and a folder of meetings of one kind (a design team's four
meetings, a committee's sittings) says the same things in every meeting: almost nothing is unique, and the
questions a reader would ask ("what price did the project manager give?") were never asked. A question that names
its meeting is unique by that name. A meeting is named from what the folder shows, nothing else:

- **a series**: files named alike but for a last letter ("ES2002a", "ES2002b", … — two files of the series at
  least) are one series' meetings in that order. A meeting that calls itself by a known stage of a design
  series (its first stage phrase, "this is our kick-off meeting", agreeing with its place: a → "kick-off",
  b → "functional design", c → "conceptual design", d → "detailed design") is named "the ES2002 kick-off
  meeting"; one that does not, by its place, "the second ES2002 meeting" (the stage a transcript states
  elsewhere is often the next meeting's, announced: not a name).
- **a numbered sitting**: a committee transcript that opens "Welcome to the 14th meeting of the House of Commons
  Special Committee on the COVID-19 Pandemic" (its first lines) is "the 14th meeting of the Special Committee on
  the COVID-19 Pandemic".

Any other meeting has no name a user would give (a file called "Bmr009" alone, "today's meeting of the
Education Committee"): it is not asked here, and counted (`meeting_unnamed`).

It lives in corpus_tools because two rooms read it: datagen names a question's meeting with it, and search may
narrow to the meeting a question names (a name is a function of the folder's file names and texts alone).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping

# a design series' four meetings by their place, as the meetings call themselves (the AMI scenario's stages; a
# series that calls itself otherwise is named by place)
STAGES = ("kick-off", "functional design", "conceptual design", "detailed design")
_STAGE = re.compile(r"\b(kick[- ]?off|functional design|conceptual design|detailed design)\b", re.IGNORECASE)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
_SERIES = re.compile(r"^(?P<series>.*\d)(?P<letter>[a-h])$")
_WORD_ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())}
# "Welcome to the 14thmeeting of the House of Commons Special Committee on the COVID-19 Pandemic."
# (the export glues "14th" to "meeting"), "Welcome to meeting number 22 of …"
_SITTING = re.compile(
    r"\b[Ww]elcome to (?:the )?(?:(?P<ord>\d{1,3}(?:st|nd|rd|th)|[a-z]+) ?(?:virtual |hybrid |public |special )?meeting"
    r"|meeting (?:number |no\. ?)(?P<num>\d{1,3}))"
    r" of the (?:House of Commons )?(?P<body>[A-Z][\w'’-]*(?:,? (?:[A-Z][\w'’-]*|on|of|the|and|for|COVID-19))*)"
)
SITTING_LINES = 3  # the welcome is the chair's first words: a later "welcome to the meeting of …" names no sitting


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def stem(doc_id: str) -> str:
    """A document id without its folder and file suffix ("tune/ES2002a.txt" → "ES2002a")."""
    name = doc_id.replace("\\", "/").rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def sitting_name(text: str) -> str:
    """"the 14th meeting of the Special Committee on the COVID-19 Pandemic" where the transcript's first lines
    welcome members to a numbered meeting of a named body; "" otherwise."""
    head = "\n".join(text.split("\n")[:SITTING_LINES])
    m = _SITTING.search(head)
    if not m:
        return ""
    if m.group("num"):
        number = _ordinal(int(m.group("num")))
    elif m.group("ord")[0].isdigit():
        number = m.group("ord")
    elif m.group("ord") in _WORD_ORDINALS:
        number = m.group("ord")
    else:
        return ""  # "today's meeting", "this virtual meeting": no number
    body = m.group("body").split()
    while body and body[-1] in ("on", "of", "the", "and", "for"):
        body.pop()  # "the Committee, and thanks": the body ends at its last capitalised word
    if body:
        body[-1] = body[-1].rstrip(",")
    body = " ".join(body)
    if len(body.split()) < 2:
        return ""
    adjective = m.group(0).split("meeting")[0].split()[-1] if not m.group("num") else ""
    kind = f"{adjective} meeting" if adjective in ("virtual", "hybrid", "public", "special") else "meeting"
    return f"the {number} {kind} of the {body}"


def meeting_names(texts: Mapping[str, str]) -> dict[str, str]:
    """The name a user would give each meeting of `texts` (doc id → transcript) in a question, by doc id;
    a meeting with none is left out (the module docstring)."""
    series: dict[str, dict[str, str]] = defaultdict(dict)
    for doc_id in texts:
        m = _SERIES.match(stem(doc_id))
        if m:
            series[m.group("series")][m.group("letter")] = doc_id
    names: dict[str, str] = {}
    for name, members in series.items():
        if len(members) < 2:
            continue
        for letter, doc_id in members.items():
            place = ord(letter) - ord("a")
            first = _STAGE.search(texts[doc_id])
            said = first.group(1).lower().replace("kick off", "kick-off").replace("kickoff", "kick-off") if first else ""
            if place < len(STAGES) and said == STAGES[place]:
                names[doc_id] = f"the {name} {STAGES[place]} meeting"
            else:
                names[doc_id] = f"the {_ORDINALS[place]} {name} meeting"
    sittings = {d: sitting_name(text) for d, text in texts.items() if d not in names}
    said = [s for s in sittings.values() if s]
    # two transcripts that call themselves the same sitting are not told apart by it
    names.update({d: s for d, s in sittings.items() if s and said.count(s) == 1})
    return names


# ---------------------------------------------------------------- reading a name in a question (search's side)

# A file stem that names one document when a question writes it: one token of letters and digits, both ("ES2002a",
# "Bmr009", "covid_0"), of a document whose id is a file name (has a suffix). A stem of letters only ("minutes") is an
# ordinary word, and the ids of HotpotQA / MuSiQue are titles ("U2", "Route 66"), not files: neither is ever a name.
_TOKEN = re.compile(r"(?<![\w/-])([A-Za-z0-9_]{3,})(?:\.[A-Za-z0-9]{1,5})?(?![\w-])")
_DISTINCT = re.compile(r"(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9_]{3,}")
_FILE = re.compile(r"\.[A-Za-z0-9]{1,5}$")
_ORDINAL_WORD = r"first|second|third|fourth|fifth|sixth|seventh|eighth"
# "the second ES2002 meeting": the ordinal just before the series' stem
_PLACE_ORDINAL = re.compile(rf"\b({_ORDINAL_WORD}|[1-8](?:st|nd|rd|th))\s+$", re.IGNORECASE)
# a stage read as a meeting's: the stage phrase followed, within a few words, by "meeting(s)" ("the ES2002 kick-off
# meeting", "the kick-off and the detailed design meetings"); "the functional design" alone is a topic, not a name
_STAGE_MEETING = re.compile(
    r"\b(kick[- ]?off|functional design|conceptual design|detailed design)\b(?=(?:[\s,]+(?:and|or|the|and the|"
    r"kick[- ]?off|functional|conceptual|detailed|design))*[\s,]+meetings?\b)", re.IGNORECASE)
_SITTING_NUMBER = re.compile(
    r"\b(?:(?P<ord>\d{1,3}(?:st|nd|rd|th)|" + "|".join(_WORD_ORDINALS) + r")\s*(?:virtual |hybrid |public |special )?"
    r"(?:meeting|sitting)|meeting (?:number |no\. ?)?(?P<num>\d{1,3})\b)", re.IGNORECASE)


def _named_file(doc_id: str) -> str | None:
    """The stem a question may write to name `doc_id` (None: a title, or a stem that is an ordinary word)."""
    name = doc_id.replace("\\", "/").rsplit("/", 1)[-1]
    if not _FILE.search(name):
        return None
    s = stem(doc_id)
    return s if _DISTINCT.fullmatch(s) else None


class MeetingCatalog:
    """The meetings of one folder a question may name, read once from the doc ids (file stems, series) and each
    meeting's first lines (a numbered sitting); `named_in(question)` gives the doc ids a question names.

    A series is named by its stem ("the ES2002 meetings": all of it), narrowed by a stage said as a meeting's ("the
    ES2002 kick-off meeting": its place, kick-off = a, whether or not the transcript calls itself so) or an ordinal
    before it ("the second ES2002 meeting"); a file by its stem ("in ES2002b", "in Bmr009"); a sitting by its number
    and body ("the 14th meeting of the Special Committee on the COVID-19 Pandemic"), or all the body's sittings when
    no number is said. A question naming two meetings names both; a name the folder lacks names nothing.
    """

    def __init__(self, doc_ids: Iterable[str], first_lines: Mapping[str, str] | None = None) -> None:
        self.files: dict[str, list[str]] = defaultdict(list)  # stem, case folded → doc ids
        members: dict[str, dict[str, str]] = defaultdict(dict)
        for doc_id in doc_ids:
            s = _named_file(doc_id)
            if s is None:
                continue
            self.files[s.casefold()].append(doc_id)
            m = _SERIES.match(s)
            if m and _DISTINCT.fullmatch(m.group("series")):
                members[m.group("series").casefold()][m.group("letter")] = doc_id
        self.series = {name: dict(sorted(ms.items())) for name, ms in members.items() if len(ms) >= 2}
        # a sitting: (its number as said, its body case folded) → doc ids
        self.sittings: dict[tuple[str, str], list[str]] = defaultdict(list)
        for doc_id, text in (first_lines or {}).items():
            name = sitting_name(text)
            m = re.fullmatch(r"the (\S+) (?:\w+ )?meeting of the (.+)", name)
            if m:
                self.sittings[(_number(m.group(1)), m.group(2).casefold())].append(doc_id)
        self.bodies = sorted({body for _, body in self.sittings}, key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self.files or self.sittings)

    def named_in(self, question: str) -> list[str]:
        """The doc ids of the meetings `question` names, in folder order of reading ([] when it names none)."""
        found: list[str] = []
        stage_places = {STAGES.index(_stage(m.group(1))) for m in _STAGE_MEETING.finditer(question)}
        for m in _TOKEN.finditer(question):
            token = m.group(1).casefold()
            if token in self.series:
                members = self.series[token]
                said = _PLACE_ORDINAL.search(question[:m.start()])
                places = {_number_place(said.group(1))} if said else stage_places
                letters = [chr(ord("a") + p) for p in sorted(places) if chr(ord("a") + p) in members]
                # a place the series lacks ("the fifth ES2002 meeting" of four): the series is still named
                found.extend([members[x] for x in letters] or members.values())
            elif token in self.files:
                found.extend(self.files[token])
        lowered = question.casefold()
        for body in self.bodies:
            if body not in lowered:
                continue
            numbers = {_number(n.group("ord") or n.group("num")) for n in _SITTING_NUMBER.finditer(question)}
            of_body = {num: ids for (num, b), ids in self.sittings.items() if b == body}
            if numbers:
                found.extend(d for num in numbers for d in of_body.get(num, []))
            else:
                found.extend(d for ids in of_body.values() for d in ids)
        return list(dict.fromkeys(found))


def _stage(said: str) -> str:
    said = said.lower()
    return "kick-off" if said.startswith("kick") else said


def _number(said: str) -> str:
    """"14th", "14", "fourteenth"… → "14" (a word ordinal past twelfth is kept as said)."""
    said = said.lower()
    if said in _WORD_ORDINALS:
        return str(_WORD_ORDINALS[said])
    digits = re.match(r"\d+", said)
    return digits.group(0) if digits else said


def _number_place(said: str) -> int:
    return int(_number(said)) - 1
