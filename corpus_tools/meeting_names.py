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
from collections.abc import Mapping

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
_SITTING_LINES = 3  # the welcome is the chair's first words: a later "welcome to the meeting of …" names no sitting


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
    head = "\n".join(text.split("\n")[:_SITTING_LINES])
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
