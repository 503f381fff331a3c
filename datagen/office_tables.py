"""What a table inside an office document states of its rows (issue 36, session 57): a sprint plan's task list, a
backlog's stories, minutes' action items, a risk register, a cost table. Each row is an item the team tracks, and a
person asks one of its cells by the item: "In the Sprint 1 Planning Document for DnDeity, who is responsible for
“Set up Flask Server”?" → "Riley"; "… how long is “Set up REST API” estimated to take?" → "5hr".

The Word, RTF and OpenDocument readers write a table as a workbook's is (`datagen.grid_facts`): a column line whose
first cell, in brackets, names the row key's column, then one row a line, cells split by " | ":

    (Number) | Description | Time | Owner
    3 | Set up Flask Server | 2hr | Riley

A table whose column line is its title spread over merged cells ("(Additional Costs) | Additional Costs") has its
columns on the next line ("Description | Cost"). The row's item is its key cell, or, where the key is a running
number or an id ("#", "Number", "Task ID"), the item column after it ("Description", "Story Title").

Only columns whose name says what a cell is are asked, and only with a value of that type (no question is better
than a wrong one; each refusal counted in `skipped`):
- who: "Owner", "Assigned to", "Person responsible" → people named ("Riley", "Daniel/Logan"); "Everyone", "All team
  members", "Group" name no one (office_row_not_people);
- how long: "Time", "Estimated Time", "Estimate", "Duration" → a figure with its unit ("2hr", "4 Hours", "2 weeks");
  "Hours" → a number of hours; "Story Points" → a number (office_row_value_type);
- when due: "Deadline", "Due date" → a date;
- a cost: "Cost", "Total Cost" → money;
- a rating: "Priority", "Impact", "Likelihood", "Probability", "Severity", "Risk Level" → a level ("High", "Must
  Have") or a small number;
- a schedule's day: "Delivery Date", "Estimated Date", "Planned Completion" → a date ("23/04/2021" too);
- a roster's role: "Role", "Primary Role", "Position" → asked of an item that is a person ("what is the primary role
  of Nathan Scherr?"), never of another item (office_row_item_not_person).
A column's name is matched without what it adds in brackets ("Owner(s)", "Impact (High, Medium, Low)").
A row item must read as one: one to twelve words, no list item, no sentence ("As a user, I would like …" is a story's
text, not its name), no label inside ("Testing: Able to …"), no person (minutes' "Next Steps | Owner | Due date" whose first column holds
the people and whose "Owner" column the tasks: office_row_item_person), no total row (`grid_facts.TOTAL_ROW`, "Total
overhead costs", "Net Total": office_row_item_total), no word every action list has ("Tasks", "Discussion":
office_row_item_vague). An item given two values in
one column (two tables of a plan sharing a task's name with two owners) is not asked (office_row_two_values). A
column asks at most `ROWS_PER_COLUMN` of its rows, spread over the table (office_row_column_cap): one sprint plan's
36 tasks are no 36 questions "who is responsible for …?".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from datagen.dates import parse_date
from datagen.factbase import Fact
from datagen.grid_facts import TOTAL_ROW, cells
from datagen.mining import fold
from datagen.types import TruthType

ROWS_PER_COLUMN = 5  # a column's questions of one document, at most
ROW = "doc:office_row"  # a row's cell: the relation is ROW + "_" + what the column is ("owner", "time", …)

# a key column that numbers its rows: the item is the column after it
_RUNNING = re.compile(
    r"(?i)^(?:#|no\.?|nr\.?|number|s\.?\s?no\.?|(?:task|story|backlog|item|risk|requirement|req|"
    r"test|test case)?\s*(?:id|no\.?|number|#))$"
)
# a column naming the item a row is: "Description", "Task Description", "Story Title", "Action items", "Risks"
_ITEM = re.compile(
    r"(?i)^(?:(?:task|story|item|action|risk|deliverable|milestone|activity|feature|requirement|"
    r"missions?/tasks?)\s*)?(?:description|title|name|items?|tasks?|actions?(?: items?)?|risks?|"
    r"deliverables?|milestones?|activit(?:y|ies)|features?)$"
    # "Description of Risk" (held-out read, session 57)
    r"|^description\s+of\s+(?:the\s+)?(?:risk|task|item|requirement|deliverable|activity)s?$"
)
# a key column naming a plan's tasks, whose "Time" is an estimate
_PLANNED = re.compile(
    r"(?i)^(?:(?:task|story|work)\s*)?(?:description|tasks?|activit(?:y|ies)|deliverables?|stor(?:y|ies)|"
    r"features?|work\s+items?)$"
)
# a key column of a meeting's topics, whose "Time" is the time allotted to each
_AGENDA = re.compile(r"(?i)^(?:agenda\s+)?(?:topics?|items?|notes?|discussion|issues?|agenda)$")
# each asked column's kind, by its whole name (a column of another name is asked nothing)
_COLUMNS = (
    (
        "owner",
        re.compile(
            r"(?i)^(?:(?:risk\s+|task\s+|action\s+)?owners?|assigned\s*to|assignee|person\s+responsible|responsible(?:\s+person)?|"
            r"who|by\s+whom|team\s+members?\s+assigned|(?:actions?\s+)?(?:to\s+be\s+)?(?:taken|done|completed)\s+by)$"
        ),
    ),
    ("hours", re.compile(r"(?i)^(?:estimated\s+)?hours(?:\s+estimated)?$|^(?:est\.?|estimated)\s+hrs$")),
    ("time", re.compile(r"(?i)^(?:(?:estimated\s+)?(?:time|duration)|estimate|time\s+estimate)$")),
    ("points", re.compile(r"(?i)^(?:story\s+)?points$")),
    ("deadline", re.compile(r"(?i)^(?:deadlines?|due\s+dates?|due)$")),
    # a schedule's date: "Delivery Date", "Estimated Date", "Planned Completion"
    (
        "date",
        re.compile(r"(?i)^(?:(?:delivery|estimated|target|planned|completion|release)\s+date|planned\s+completion)$"),
    ),
    ("cost", re.compile(r"(?i)^(?:total\s+)?(?:cost|amount)$")),
    ("rating", re.compile(r"(?i)^(?:priority|impact|likelihood|probability|severity|risk\s+level)$")),
    # a roster's role: the item is a person ("Nathan Scherr | Project Manager")
    ("role", re.compile(r"(?i)^(?:primary\s+|team\s+)?(?:role|position)s?$")),
)
# what each kind asks of an item (`{doc}` the document's name, `{item}` the row's item, `{column}` the rating's name)
_ASK = {
    "owner": "In {doc}, who is responsible for “{item}”?",
    "hours": "In {doc}, how many hours is “{item}” estimated to take?",
    "time": "In {doc}, how long is “{item}” estimated to take?",
    "points": "In {doc}, how many story points is “{item}”?",
    "deadline": "In {doc}, when is “{item}” due?",
    "date": "In {doc}, what is the {column} of “{item}”?",
    # (a milestone named for its end, "Demo Week 4 Completed", is no "when is … planned to be completed?")
    "completion": "In {doc}, what is the planned completion date of “{item}”?",
    "cost": "In {doc}, what is the {column} of “{item}”?",
    "rating": "In {doc}, what is the {column} of “{item}”?",
    "role": "In {doc}, what is the {column} of {item}?",
    "roles": "In {doc}, what are the {column} of {item}?",  # "Roles": "what is the roles of …" (held-out read)
}
_KIND_TYPE = {
    "owner": TruthType.PERSON.value,
    "deadline": TruthType.DATE.value,
    "date": TruthType.DATE.value,
    "hours": TruthType.NUMBER.value,
    "points": TruthType.NUMBER.value,
}
_DURATION = re.compile(
    r"(?i)^(?:about\s+|~\s*)?\d+(?:\.\d+)?\s*(?:-\s*\d+(?:\.\d+)?\s*)?"
    r"(?:h|hr|hrs|hours?|m|min|mins|minutes?|d|days?|weeks?|wks?)\.?$"
)
_MONEY = re.compile(
    r"^(?:[$£€]\s?\d[\d,]*(?:\.\d\d)?k?|\d[\d,]*(?:\.\d\d)?\s?(?:USD|EUR|GBP|dollars|[$£€]))$", re.IGNORECASE
)
_LEVEL = re.compile(
    r"(?i)^(?:very\s+)?(?:high|medium|moderate|low|critical|major|minor|severe|negligible|"
    r"must(?: have)?|should(?: have)?|could(?: have)?|won'?t(?: have)?)$|^\d(?:\.\d)?$"
)
# an owner cell naming no one: the whole team, a group of it, or nobody yet
_NOBODY = re.compile(
    r"(?i)^(?:all|everyone|everybody|team|the team|group|the group|all team members|all members|"
    r"developers|tbd|tba|n/?a|none|nobody|anyone)$"
)
# a day as minutes and plans write it, which parse_date does not read: "23/04/2021", "21st February 2019"
_DAY = re.compile(
    r"\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Z][a-z]{2,8}\.?,?\s+\d{4}"
    r"|[A-Z][a-z]{2,8}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
)
_NAME = re.compile(r"^[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)*(?: [A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)*){0,2}$")
# an item a minutes' action table names by a word every meeting has: it says no one thing
_VAGUE = frozenset(
    "task tasks item items action actions discussion other others misc miscellaneous general notes todo "
    "to do meeting meetings work".split()
)
_SENTENCE = re.compile(r"(?i)^(?:as an?|given|when|if|the user|users?\s+(?:can|should|must|will))\b|[.!?]\s+\S")


def _columns(lines: Sequence[str], n: int) -> tuple[list[str], int] | None:
    """The columns of the table whose column line is lines[n] (its key's name first, unbracketed) and the index of
    its first row; a title spread over merged cells ("(Additional Costs) | Additional Costs") takes the next
    line's cells as its columns."""
    head = cells(lines[n])
    head[0] = head[0][1:-1].strip() if head[0].startswith("(") and head[0].endswith(")") else head[0]
    named = [c for c in head if c and c != "—"]
    if len({fold(c) for c in named}) == 1 and n + 1 < len(lines) and " | " in lines[n + 1]:
        return cells(lines[n + 1]), n + 2
    return head, n + 1


def _template(kind: str, said: str) -> str:
    """The question `_ASK` says for a column: its kind's, a planned completion's as a date, a plural role's with
    "what are"."""
    if "completion" in said:
        return "completion"
    return "roles" if kind == "role" and said.endswith("s") else kind


def _bare(column: str) -> str:
    """A column's name without what it adds in brackets or its colon: "Impact (High, Medium, Low)" → "Impact",
    "Owner(s):" → "Owner"."""
    return re.sub(r"\s*\([^)]*\)", "", column).strip(" :")


def _people(value: str) -> bool:
    """Whether an owner cell names people: first names or full names, split by ",", "/", "&" or "and"."""
    parts = [p.strip() for p in re.split(r"\s*(?:,|/|&|\band\b)\s*", value) if p.strip()]
    return bool(parts) and len(parts) <= 4 and all(_NAME.match(p) and not _NOBODY.match(p) for p in parts)


def _typed(kind: str, value: str) -> bool:
    """Whether a cell has the type its column's kind says."""
    if kind == "owner":
        return _people(value)
    if kind == "time":
        return bool(_DURATION.match(value))
    if kind in ("hours", "points"):
        return bool(re.fullmatch(r"\d+(?:\.\d+)?", value))
    if kind == "role":
        return 1 <= len(value.split()) <= 6 and not re.search(r"[\d@]", value) and value[:1].isupper()
    if kind in ("deadline", "date"):
        return bool(parse_date(value) or _DAY.fullmatch(value)) and len(value.split()) <= 5
    if kind == "cost":
        return bool(_MONEY.match(value))
    return bool(_LEVEL.match(value))


def _item_refusal(item: str, person: Callable[[str], bool] | None) -> str:
    """Why a row's item names no item a question can say ("" when it does)."""
    words = item.split()
    if not 1 <= len(words) <= 12 or len(item) > 90:
        return "office_row_item_shape"
    if _SENTENCE.search(item) or re.match(r"^(?:[-–•*·]|\d+[.)]\s)", item) or ": " in item:
        return "office_row_item_shape"  # a story's text, a list item, a label inside ("Testing: Able to …")
    if fold(item) in _VAGUE:
        return "office_row_item_vague"  # "when is “Tasks” due?": which tasks?
    if TOTAL_ROW.match(item) or re.match(r"(?i)(?:net\s+|grand\s+)?(?:total|sum|subtotal)\b", item):
        return "office_row_item_total"  # "the cost of “Total overhead costs”": a total is asked as no item
    if parse_date(item) or re.fullmatch(r"[\d\s.,:/-]+", item):
        return "office_row_item_shape"
    if _NAME.match(item) and (person(item) if person is not None else len(item.split()) >= 2):
        return "office_row_item_person"
    return ""


def row_facts(
    chunks: Sequence[Any], named: str, skipped: Counter, person: Callable[[str], bool] | None = None
) -> list[Fact]:
    """Every asked cell of the item tables of one office document's passages (see the module docstring), each
    question naming the document as `named`. person: whether a phrase is a person's name (the parse); None: a
    capitalised two- or three-word item is taken for one ("Arlana Keen"; "Documentation" is none)."""
    found: dict[tuple[str, str, str], list[Fact]] = {}
    for chunk in chunks:
        lines = chunk.text.split("\n")
        for n, line in enumerate(lines):
            if not (line.startswith("(") and " | " in line):
                continue
            cols = _columns(lines, n)
            if cols is None:
                continue
            head, start = cols
            key = 0
            if _RUNNING.match(head[0]) and len(head) > 1 and _ITEM.match(head[1]):
                key = 1  # "# | Description | Time | Owner": the description is the item
            asked = [
                (i, kind, column)
                for i, column in enumerate(head)
                if i > key
                for kind, rx in _COLUMNS
                if rx.match(_bare(column))
            ]
            # an estimate is a plan's: a minutes' agenda gives its topics' "Time" allotted, no estimate of a task
            # (held-out read, session 57)
            planned = _PLANNED.match(_bare(head[key])) or (
                any(k in ("owner", "hours", "points", "cost") for _, k, _ in asked)
                and not _AGENDA.match(_bare(head[key]))
            )
            asked = [a for a in asked if a[1] != "time" or planned]
            if not asked:
                continue
            for row_line in lines[start:]:
                if " | " not in row_line or row_line.startswith("("):
                    break  # the table ends at its first line that is no row
                row = cells(row_line)
                if len(row) != len(head):
                    skipped["office_row_misaligned"] += 1
                    continue
                item = row[key].strip(" .:")
                why = _item_refusal(item, person)
                # a roster's role is asked of a person, every other column of an item that is no person
                person_item = why == "office_row_item_person"
                usable = [a for a in asked if (a[1] == "role") == person_item and (person_item or not why)]
                if not usable:
                    skipped[why or "office_row_item_not_person"] += 1
                    continue
                for i, kind, column in usable:
                    value = row[i].strip(" .")
                    if not value:
                        continue
                    if any(fold(value) == fold(_bare(c)) for c in head):
                        skipped["office_row_header"] += (
                            1  # a header row read as data: "Risk ID | Description | … | Owner"
                        )
                        continue
                    if not _typed(kind, value):
                        skipped["office_row_not_people" if kind == "owner" else "office_row_value_type"] += 1
                        continue
                    said = " ".join(_bare(column).lower().split())
                    found.setdefault((kind, said, fold(item)), []).append(
                        Fact(
                            doc_id=chunk.doc_id,
                            chunk_id=chunk.chunk_id,
                            sentence=row_line.strip(),
                            subject=item,
                            about_doc=False,
                            answer=value,
                            # (a rating's column its own relation: an item's impact and likelihood are two answers)
                            relation=f"{ROW}_{said.replace(' ', '_') if kind == 'rating' else kind}",
                            kind=_KIND_TYPE.get(kind, TruthType.ENTITY.value),
                            ask=_ASK[_template(kind, said)].format(doc=named, item="{s}", column=said),
                        )
                    )
    columns: dict[str, list[Fact]] = {}
    for facts in found.values():
        if len({fold(f.answer) for f in facts}) > 1:
            skipped["office_row_two_values"] += len(facts)  # a chunk's overlap repeats a row: one value is one
            continue
        columns.setdefault(facts[0].relation, []).append(facts[0])
    out = []
    for facts in columns.values():
        # a sprint plan's 36 tasks would ask "who is responsible for …?" 36 times of one document: a column gives
        # its rows spread over the table, at most ROWS_PER_COLUMN
        keep = (
            sorted({round(i * (len(facts) - 1) / (ROWS_PER_COLUMN - 1)) for i in range(ROWS_PER_COLUMN)})
            if len(facts) > ROWS_PER_COLUMN
            else range(len(facts))
        )
        skipped["office_row_column_cap"] += len(facts) - len(keep)
        out += [facts[i] for i in keep]
    return out
