"""How a question names a user's office document (issue 36; datagen.doc_office reads what the document states).

Every question names its document (`office_names`): its core title where the text says it and no other document
of the folder shares it, else its first line where that reads as a title ("Contact App Design Brief"), else its
file name without numbering and copy marks ("07-Software Test Specifications (Template)(1).doc" → "Software Test
Specifications"). A generic heading ("Introduction"), a template's stale title ("Template for project plan" over
four documents) or a name two documents share names none, and such a document gives no question (counted).

Session 55: a document is named by no field line ("End Date: 3-17-21"), placeholder ("<Master> Test Plan"), person's
name alone, institution, field label ("Project Name") or coded file name ("11th_minutes_Sept18"). Session 56: a
title several documents share is said with what the document is about, as its owner says it — "the Project Charter
for Blitz" (`_about`: the shared kind and the project a "Project Name" field or the title page's one title line
names; no course, team, person, heading), minutes by their meeting (`_meeting`: "the minutes of meeting 2", "the
minutes of the meeting on 14th February 2019", only where one meeting is minuted) — and an authors' line or a title
still under its form label names nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from corpus_tools.readers import stem_title
from datagen.dates import parse_date
from datagen.doc_office import (
    _COPY_MARK,
    _GENERIC,
    _HEADING_LABELS,
    _INLINE,
    _KIND_WORDS,
    _LEADING_NUMBER,
    _MEETING_DATE,
    _MINOR,
    _OWNER_FIELD,
    _PEOPLE,
    _PLACEHOLDER,
    _PROPERTY_HEADS,
    _SAID,
    _TITLE_FIELD,
)
from datagen.mining import fold


def _clean(text: str) -> str:
    """A name as a question writes it: spaces collapsed, words set in capitals ("Project Charter: AUTOMATED STUDENT
    RESULTS") and the minor words of a title ("Terms Of Reference") in title case."""
    words = " ".join(text.split()).strip(" .:-–—|").replace("“", "").replace("”", "").replace('"', "").split()
    capitals = sum(1 for w in words if w.isupper() and len(w) > 3)
    out = []
    for n, w in enumerate(words):
        if w.lower() in _MINOR and n and (w[:1].isupper() or capitals >= 2):
            w = w.lower()
        elif capitals >= 2 and w.isupper() and len(w) > 3:
            w = w.capitalize()
        out.append(w)
    return " ".join(out)


def _title_like(line: str) -> bool:
    """A first line that reads as a document's name: 1–16 words, letters, no end mark, no table row or field, no
    placeholder, a capital first and no sentence ("This is to create new view …")."""
    words = line.split()
    return (0 < len(words) <= 16 and bool(re.search(r"[A-Za-z]{3}", line)) and line[:1].isupper()
            and not re.search(r"[.!?:;,|\[\]{}<>_]$|[|\[\]{}<>…]|_{2,}|\.{3}", line)
            and words[0].lower() not in {"this", "these", "the", "we", "i", "it", "our", "please", "welcome"}
            and not _SAID.intersection(w.lower().strip(",") for w in words) and not parse_date(line))


def _file_name(doc_id: str) -> str:
    """A file's name as a person calls it: numbering and copy marks dropped ("07-Software Test Specifications
    (Template)(1) (1).doc" → "Software Test Specifications"), camel case read as words ("ReviewOfOtherWork.odt" →
    "Review of Other Work")."""
    stem = Path(doc_id).stem
    stem = _COPY_MARK.sub("", _LEADING_NUMBER.sub("", stem))
    # a word run together in camel case ("ReviewOfOtherWork", "MethodologyRevised") is read as its words
    words = [re.sub(r"(?<=[a-z])(?=[A-Z])", " ", w) if len(w) > 8 and sum(c.isupper() for c in w[1:]) >= 1 else w
             for w in stem_title(Path(stem + ".x")).split()]
    return _clean(" ".join(words))


_NUMBERED_PART = re.compile(r"(?:question|part|section|chapter|task|exercise|lab|week|phase|step)\s+\w{1,3}")


def _generic(name: str) -> bool:
    """A heading every document of a kind has: "Introduction", a field's label alone ("Project Name"), a numbered
    part ("Question 1")."""
    words = fold(name).split()
    return (fold(name) in _GENERIC or len(re.findall(r"[A-Za-z]{2,}", name)) == 0
            or all(w in _PROPERTY_HEADS | _MINOR for w in words)
            or bool(_NUMBERED_PART.fullmatch(fold(name))))


# a word of an institution's name: a first line "Universiti Tunku Abdul Rahman" says who wrote a document, not what
_INSTITUTION = frozenset("university universiti college institute polytechnic school academy faculty".split())


def _no_title(name: str, person: Callable[[str], bool] | None) -> bool:
    """A candidate no person would call a document by (session 55, on files of 29 repositories): a field line
    ("End Date: 3-17-21"), a template's placeholder ("<Master> Test Plan"), words run together ("Design
    PHASEMeeting minutes"), or a person's name alone (an author's "Fabio Pazzini" over a data-mining report)."""
    folded = set(fold(name).split())
    parts = [p.strip() for p in re.split(r",|\s(?:and|&)\s", name) if p.strip()]  # "Sachin Lal and Rahul Matta"
    return bool(_INLINE.match(name) or re.search(r"[<>\[\]{}]", name) or _COURSE_LINE.match(name)
                or re.fullmatch(_TEAM_LINE.pattern, name, re.IGNORECASE)  # "Team 17", "CS 30700": whose, not what
                or re.search(r"[A-Z]{3,}[a-z]", name)
                or (folded & _INSTITUTION and not folded & _KIND_WORDS) or _code_like(name)
                or (person is not None and all(1 <= len(p.split()) <= 3 and p.istitle() for p in parts)
                    and person(parts[-1]))
                # a list of three or more ("Zekai Hu, Bofei Xu (EDUC 244), Esther Jeongwon Choi, …": the authors'
                # line, session 56's reporting read) or a title still under its form label ("Document Title …")
                or name.count(",") >= 2 or bool(re.match(r"(?i)(?:document|project|report)\s+title\b", name)))


def _code_like(name: str) -> bool:
    """A file name that is a code, not a title: a word mixing letters and digits ("11th minutes Sept18", "Meeting
    Minutes wk10", "Peer Review T12"; an ordinal "3rd" is a word) or two numbers ("Standup 10 19")."""
    words = name.split()
    mixed = [w for w in words if re.search(r"\d", w) and re.search(r"[A-Za-z]", w)
             and not re.fullmatch(r"\d+(?:st|nd|rd|th)", w, re.IGNORECASE)]
    return bool(mixed) or sum(1 for w in words if re.fullmatch(r"\d+", w)) >= 2


def office_names(titles: Mapping[str, str], texts: Mapping[str, str], skipped: Counter,
                 person: Callable[[str], bool] | None = None) -> dict[str, str]:
    """doc id → the phrase a question names it by ("the Project Plan", "the document “Skywars”"), for every office
    document that has one (see the module docstring); the others counted in `skipped` by why. person: whether a
    phrase is a person's name (`person_names`, from the parse); None: none is."""
    first = {d: next((ln.strip() for ln in t.split("\n") if ln.strip()), "") for d, t in texts.items()}
    files = {d: _file_name(d) for d in texts}
    candidates: dict[str, list[str]] = {}
    for d, text in texts.items():
        found = []
        title = _clean(titles.get(d, ""))
        # the core title, where it is no file name (the readers' fallback) and the text says it (a template's stale
        # "Template for project plan" it never says)
        if title and fold(title) != fold(stem_title(Path(d))) and fold(title) in fold(text[:4000]):
            found.append(title)
        cells = {c.strip().strip("()").strip() for c in first[d].split("|")} - {""}
        if "|" in first[d] and len(cells) == 1:
            first[d] = cells.pop()  # a title set in a merged table cell: "(Ticketing System Project Charter) | …"
        if _title_like(first[d]) and "\n" in text.strip():
            found.append(_clean(first[d]))
        # a title field near the top: "Meeting Title:" over "Governance Committee Meeting"
        for line, following in zip(text.split("\n")[:8], text.split("\n")[1:9], strict=False):
            m = _TITLE_FIELD.match(line.strip())
            value = (m.group("v") or following).strip() if m else ""
            if value and _title_like(value):
                found.append(_clean(value))
                break
        if not _code_like(files[d]):
            found.append(files[d])  # "11th minutes Sept18" is a code a person does not say
        owner = next((m.group("v") for ln in text.split("\n")[:40] if (m := _OWNER_FIELD.match(ln.strip()))), "")
        if owner:
            # "Privacy Policy" names none of a folder's policies; "LBM Privacy Policy" names one
            found += [f"{owner} {c}" for c in found if c and fold(owner) not in fold(c)]
        candidates[d] = [c for c in found
                         if c and not _generic(c) and len(c.split()) <= 16 and not _no_title(c, person)]
    # a name is a document's only when no other document of the folder could be called by it
    said = Counter(fold(c) for cs in candidates.values() for c in set(cs))
    # a name several documents share ("Project Charter" in every project's folder) said with what the document is
    # about, as its owner says it: "the Project Charter for Blitz" (session 56), where that too is unique
    about = {d: _about(d, texts[d], cs, said, person) or _meeting(files[d], texts[d])
             for d, cs in candidates.items() if not any(said[fold(c)] == 1 for c in cs)}
    said_about = Counter(fold(a) for a in about.values() if a)
    out: dict[str, str] = {}
    for d, cs in candidates.items():
        name = next((c for c in cs if said[fold(c)] == 1), "")
        if not name and about.get(d) and said_about[fold(about[d])] == 1 and said[fold(about[d])] == 0:
            out[d] = f"the {about[d]}"
            skipped["office_named_by_subject"] += 1
            continue
        if not name:
            skipped["office_no_unique_name"] += 1
            continue
        last = fold(name).split()[-1] if fold(name) else ""
        if re.match(r"^\S+['’]s\s", name) and last in _KIND_WORDS:
            out[d] = name  # "Joe's technical specifications document"
        elif last in _KIND_WORDS and not name.lower().startswith("the "):
            out[d] = f"the {name}"
        else:
            out[d] = f"the document “{name}”"
    return out


# a field naming what a project's documents are about: "Project Name | BookZilla", "Project Title: Eagle Connect",
# "Proposed Project" over "Book Club/Reading Organizer"
_SUBJECT_LABEL = re.compile(r"^\(?(?:project|product|system|application|app)\s+(?:name|title)\)?\s*:?$|^proposed project:?$",
                            re.IGNORECASE)
# a title page's line that names no subject: a course ("CS490", "CS 30700: Test Plan", "CS307 -- Software
# Engineering"), a team ("Team 17", "Team number 7", "Group 7")
_COURSE_LINE = re.compile(r"^[A-Z]{2,5}\s?-?\d{3,5}\b")
# a title page's revision line: "Updated (10/20/21) - Version (1.0)" (session 57)
_REVISION_LINE = re.compile(r"^(?:last\s+)?(?:updated|revised|version|revision|draft|rev\.?)\b", re.IGNORECASE)
_TEAM_LINE = re.compile(r"^(?:team|group)\s+(?:number\s+|no\.?\s+|#)?\d+\b", re.IGNORECASE)
# words of a line that says what kind of document it is, or heads a section, not what it is about
_MORE_KINDS = frozenset("retrospective backlog case statement analysis".split())  # "Business Case", "Sprint 1 Retrospective"
_NOT_SUBJECT = _KIND_WORDS | _PEOPLE | _HEADING_LABELS | frozenset(
    "retrospective backlog minutes agenda statement members objectives purpose sprint meeting team"
    # a risk matrix's axes over a register's table ("Risk Register for Impact", session 57's held-out read)
    " impact likelihood probability severity"
    # an institution over a title page ("Department of Computer Science"): whose course it is, not what it is about
    " department school faculty university college institute".split())


def _about(doc_id: str, text: str, candidates: Sequence[str], said: Counter,
           person: Callable[[str], bool] | None) -> str:
    """A document whose every name is shared, named as "Project Charter for Blitz": its shared kind (a name of
    it whose last word says what kind of document it is: "Project Charter", "Sprint 1 Planning Document") and the
    project, product or system it is about, from a field ("Project Name | BookZilla") or else the one title line of
    its title page that is no course, team, person, heading or kind ("CS490 / Blitz / Project Charter"); "" when
    either is missing or the title page offers two."""
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    kinds = [c for c in candidates if said[fold(c)] > 1 and fold(c).split()[-1] in _KIND_WORDS | _MORE_KINDS]
    for line in lines[:4]:
        # a title page's kind line, its course or team dropped: "CS40700 Design Document", "Team 9: Project Charter",
        # "Software Requirements Specification" under "Bank System Software"
        kind = re.sub(r"^(?:[A-Z]{2,5}\s?-?\d{3,5}|(?:team|group)\s+\d+)\s*[:\-–]?\s*", "", line, flags=re.IGNORECASE)
        if (kind != line or not kinds) and 2 <= len(kind.split()) <= 6 and _title_like(kind) and not _no_title(
                kind, None) and fold(kind).split()[-1] in _KIND_WORDS | _MORE_KINDS:
            kinds.append(_clean(kind))
    if not kinds or any(w in fold(kinds[0]).split() for w in ("minutes", "agenda", "meeting")):
        return ""  # minutes are named by their meeting (`_meeting`), not by the project of many meetings
    subject = ""
    for n, line in enumerate(lines[:12]):
        cells = [c.strip() for c in line.split("|") if c.strip()] if "|" in line else [line]
        label, _, rest = cells[0].partition(":") if ":" in cells[0] and len(cells) == 1 else (cells[0], "", "")
        if not _SUBJECT_LABEL.match(label.strip()):
            continue
        # (a label merged over two cells is written twice: "(Project Name) | Project Name | InterviewAnalyzer")
        after = [c for c in cells[1:] if fold(c.strip("()")) != fold(label.strip().strip("()"))]
        value = rest.strip() or (after[0] if after else "" if len(cells) > 1 else (lines[n + 1] if n + 1 < len(lines) else ""))
        subject = _subject_value(value, person)
        break
    if not subject:
        found = []
        for line in lines[:4]:
            words = set(fold(line).split())
            if (len(line.split()) <= 8 and _title_like(line) and "," not in line and not _COURSE_LINE.match(line)
                    and not _TEAM_LINE.match(line) and not words & _NOT_SUBJECT and not _generic(line)
                    and not _REVISION_LINE.match(line)
                    and (re.fullmatch(r"[A-Z][A-Za-z]{2,}\d{1,2}", line)
                         or not _no_title(line, person if len(line.split()) > 1 else None)) and not parse_date(line)):
                # one word is no person's name on a title page, which gives first and last ("Splytr" is a product),
                # and a word and its number is a product's name there ("Alarm2")
                found.append(_clean(line))
        subject = found[0] if len(found) == 1 else ""
    if not subject or fold(subject) in fold(kinds[0]):
        return ""
    return f"{kinds[0]} for {subject}"


_MEETING_NUMBER = re.compile(r"\bmeeting\s*(?:#|no\.?|number)?\s*(\d{1,2})\b", re.IGNORECASE)


def _meeting(file_name: str, text: str) -> str:
    """Minutes named as their owner says them (session 56): "minutes of meeting 4" where the opening lines number
    the meeting and no other number is given, else "minutes of the meeting on 14th February 2019" where the
    document states one date and only one (minutes of several meetings, or with a deadline's date, name none)."""
    lines = [ln.strip() for ln in text.split("\n") if ln.strip()]
    if "minutes" not in fold(file_name).split() and not any("minutes" in fold(ln).split() for ln in lines[:3]):
        return ""
    numbers = {m.group(1).lstrip("0") for m in _MEETING_NUMBER.finditer(text)}
    if len(numbers) == 1 and any(_MEETING_NUMBER.search(ln) for ln in lines[:8]):
        return f"minutes of meeting {numbers.pop()}"
    dates = [_meeting_date(ln) for ln in lines]
    said = {re.sub(r"(?<=\d)(?:st|nd|rd|th)|[,.]", "", fold(d)) for d in dates if d}
    if len(said) == 1 and any(dates[:8]):
        return f"minutes of the meeting on {next(d for d in dates if d)}"
    return ""


# a label saying when the meeting is: "Date:", "Meeting Date: |"; not an action's "Due date", the next meeting's
_MEETING_DATE_LABEL = re.compile(r"^(?:meeting\s+|meeting\s+details\s*\|\s*)?date\s*:?\s*(?:\|\s*)?", re.IGNORECASE)


def _meeting_date(line: str) -> str:
    """The date a line of minutes states as the meeting's: a date field ("Meeting Date: | 14th February 2019",
    "Meeting Details | Date: Wednesday September 20th, 2023. Start: …") or a line that is a date ("30/6/20"; a log
    of several meetings heads each so); "" for any other line (an action's due date in a table row)."""
    m = _MEETING_DATE_LABEL.match(line)
    if m:
        found = _MEETING_DATE.search(line[m.end():][:60])
        return found.group(0) if found else ""
    found = _MEETING_DATE.search(line)
    if found and len(line.split()) <= 6 and "|" not in line:
        return found.group(0)
    return ""


def _subject_value(value: str, person: Callable[[str], bool] | None) -> str:
    """A subject field's value as a name: its end mark and bracketed acronym dropped ("Personalized Academic
    Planner [PAP]." → "Personalized Academic Planner"); "" unless it reads as a name (1–8 words, no sentence, no
    placeholder, no person)."""
    value = re.sub(r"\s*[\[(][A-Z]{2,8}[\])]", "", value.strip()).strip(" .")
    if (not value or _PLACEHOLDER.match(value) or not 1 <= len(value.split()) <= 8 or not _title_like(value)
            # (a subtitle's colon is no field line here: "Progress: Your Path to Success")
            or _no_title(value.replace(":", " -"), person if len(value.split()) > 1 else None) or _generic(value)):
        return ""
    return _clean(value)
