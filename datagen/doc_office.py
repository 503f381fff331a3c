"""What a user's office document states verifiably (issue 36: a folder of Word, RTF and OpenDocument files yields
questions that name the document they are about).

Policies, minutes, charters, proposals, reports and forms hold few of the shapes the prose templates read, and
their titles name no entity: on a tuning folder of 50 such files the templates wrote 6 tasks of 200 ("Who developed
INTRODUCTION?", "What does Spring make?" four times, once per draft). What they do state plainly is read here:

- a labelled field, "Date: 10 June 2026", "Chairperson: Avikash", a label alone on its line over its value
  ("Meeting Title:" / "Governance Committee Meeting"), or a two-cell table row ("Project Title | Hotel Management
  System"), asked "According to the Governance Committee Meeting minutes, what is the date?" (`FIELD`), "who is
  the chairperson?" where the label names a role and the value a person, "When was the Terms of Service last
  updated?" (`UPDATED`). A label the document gives twice with two values (minutes of several meetings, each with
  its "Date:") is no one answer, and an empty or placeholder value ("[Date]", "______", "TBD") is none;
- a definition, "“Account” means a unique account created for You …" → "In the Privacy Policy, what does
  “Account” mean?" (`MEANS`), the answer cut at its first clause;
- an acronym or a term the document defines, as a paper's are read (`datagen.doc_papers.defined_facts`: "What does
  SRS stand for in the Software Requirement Specifications?").

Every question names its document as `datagen.office_names` decides (its title where no other document of the
folder shares it; a shared one said with its project or meeting); a document nothing names gives no question.

A document read here gives only these questions: the prose templates' ("Who developed INTRODUCTION?") name no
document (`relations.read_facts`, counted as `office_prose_template`), as a paper's do not, nor does a claim task
(`natural`).

Session 55 (issue 36; the reporting read had been 20/30 natural, the tuning readers fit to their folders) refuses a
shape unless it is unmistakable, tuned on files of 40 repositories:
- a field is asked only under a label whose head noun is a property of what the document is about (a date, venue,
  version, team, course, client, total …; `_PROPERTY_HEADS`), a role, people or "… by"; a risk's "Consequences:", a
  test's "Integration Test:", a stand-up's "Braysen Goodwin:" are not (`office_label_not_a_property`,
  `office_label_person`); one word must parse as a noun ("Tested:", "Available:" do not);
- the value must have the label's type (a date for "Date Created", a number for "Number of hours", people for a role
  or "Prepared by", a code for "Course Code"; `office_value_type`) and be a value, not a clause ("No concerns were
  raised"), a template's choices or echo ("Low, medium or critical", "Precondition 1 …"), a placeholder ("Month dd,
  yyyy") or an uncertain "Client only?" (`office_value_shape`);
- no question gives its answer in the document's name ("What does UAT stand for in the “User Acceptance Tests
  (UAT)”?").

Session 56 (issue 36: a folder of project documents named 9 of 49, "Project Charter" being every project's; the
names by project and meeting are datagen.office_names') reads what a charter, a plan and minutes state:
- a form's labels without a colon ("Project Sponsor | Dr. Ann Lee."; `_FORM_LABEL`), "When was … produced?",
  "when does the team meet?" (`_MEETS`), a milestone schedule's dates and a phase schedule's starts and ends
  (`_milestones`); a role's value must name people (that check had been unreachable).

Session 57 (issue 36: 27 of 42 nameable documents gave nothing) adds three readers, each its own module, whose facts
`office_facts` returns with its own: a table's rows asked by their items ("who is responsible for “Set up Flask
Server”?", datagen.office_tables), a plain sentence's time limit, budget or next meeting (datagen.office_statements)
and a design issue's chosen option (datagen.office_decisions); and a label merged over two cells is read once.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from corpus_tools.paper_definitions import expansion
from corpus_tools.readers import DOC_SUFFIXES, DOCX_SUFFIXES, ODT_SUFFIXES, RTF_SUFFIXES
from datagen.dates import parse_date
from datagen.doc_papers import defined_facts, stand_for
from datagen.factbase import Fact
from datagen.mining import fold
from datagen.office_decisions import decision_facts
from datagen.office_statements import statement_facts
from datagen.office_tables import row_facts
from datagen.types import TruthType

FIELD = "doc:office_field"
UPDATED = "doc:office_updated"
MEANS = "doc:office_means"
ACRONYM = "doc:office_acronym"
TERM = "doc:office_term"

OFFICE_SUFFIXES = DOCX_SUFFIXES | DOC_SUFFIXES | RTF_SUFFIXES | ODT_SUFFIXES

# a heading every kind of document opens with: it names none of them
_GENERIC = frozenset(p.strip() for p in """
introduction, abstract, summary, executive summary, contents, table of contents, overview, background, preface,
foreword, untitled, document, title, template, draft, index, appendix, agenda, minutes, notes, meeting minutes,
report, final report, proposal, policy, privacy policy, terms of service, terms and conditions, terms of use, memo,
memorandum, letter, cv, resume, curriculum vitae, how to use this template, purpose, scope, general information
""".split(","))
# the last word of a name that says what kind of document it is: "the Project Plan", not "the document “Project Plan”"
_KIND_WORDS = frozenset("""policy policies minutes charter plan proposal brief report checklist template form specification
specifications document reference service conditions review assignment agreement contract handbook guide manual memo
letter statement procedure procedures guidelines standard standards strategy request terms register log
schedule roadmap budget""".split())
# a label naming a person's role: "who is the chairperson?"
_ROLE_WORDS = frozenset("""chair chairperson chairman chairwoman author owner manager tutor supervisor taker timekeeper
facilitator sponsor approver lead leader director contact presenter instructor lecturer teacher secretary coordinator
convener convenor editor reviewer customer client president master recorder scribe host organiser organizer moderator
mentor advisor adviser assessor examiner""".split())
# a label's word that names an attribute of the document's subject ("Type of meeting", "Course code", "Project
# Title"): its value is that attribute, asked "what is the …?"
_ATTRIBUTE_WORDS = frozenset("of type kind name title number code date id version status level category".split())
# a plural label naming people: "who are the attendees?"
_PEOPLE = frozenset("attendees members participants authors students reviewers owners approvers present apologies developers"
                    .split())
_MINOR = frozenset("of and for the a an in on to with by from at via or as".split())
# a value that holds no answer: a form left blank, a placeholder, a dash
_PLACEHOLDER = re.compile(r"^\W*$|^\[.*\]$|^<.*>$|^\(.*\)$|^(?:n/?a|tbd|tbc|none|nil|null|todo|xx+|yes|no|-+)$", re.IGNORECASE)
# "Label: value" (the label one to five words, opening with a capital, no sentence before it)
_INLINE = re.compile(r"^(?P<l>[A-Z][\w/&'’\-]*(?: [\w/&'’\-]+){0,4})\s*:\s+(?P<v>\S.*)$")
# "Label:" alone on its line
_LABEL_ONLY = re.compile(r"^(?P<l>[A-Z][\w/&'’\-]*(?: [\w/&'’\-]+){0,4})\s*:$")
# "“Account” means …", "Personal Data means …", "'Customer' shall mean …"
_MEANS = re.compile(r"^(?P<q>[\"“'‘]?)(?P<t>[A-Z]\w*(?:-\w+)*(?: [A-Za-z]\w*(?:-\w+)*){0,3})[\"”'’]?\s*(?:[-–—:]\s*(?:it|this)?\s*)?"
                    r"\s(?:means|shall mean|refers to|is defined as)\s+"
                    r"(?P<d>[a-z][^.;]+)")
# where a definition's core ends: its first clause break (its relative clause is the definition: "a person who rents
# a berth for a season")
_CLAUSE_END = re.compile(r"\s*(?:,|;|:|\(|—|–| - |\s(?:including|such as|as defined|for example|e\.g\.)\s)")
# "Title: X", "Meeting Title:" (its value on the next line), "Document title: X"
_TITLE_FIELD = re.compile(r"^(?:(?:meeting|document|report|policy)\s+)?title\s*:\s*(?P<v>\S.*)?$", re.IGNORECASE)
# a value that opens a list, not one answer: "- Room booking", "1. Designing of …", "• Footpath"
_LIST_ITEM = re.compile(r"^(?:[-–•*·▪◦]|\d+[.)](?!\d)|[a-z][.)])\s*")  # "94.3" is a number, "1." an item
# a numbered item of a list of objectives, goals, requirements…: "Objective 7: Test the reporting suite."
_NUMBERED = re.compile(r"^(?:objective|goal|aim|requirement|deliverable|milestone|risk|phase|step|task|action|"
                       r"recommendation|principle|rule|assumption|constraint)\s+(?:\d{1,2}|[IVX]{1,4}|[A-H])$", re.IGNORECASE)
# where a value's first sentence ends: "Test the reporting suite. Once again, …"
_FIRST_SENTENCE = re.compile(r"(?<=[a-z0-9)])(?<!\bSt)(?<!\bDr)(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bJr)(?<!\bSr)(?<!\bNo)"
                             r"(?<!\bvs)(?<!\bProf)(?<!\bInc)(?<!\bLtd)(?<!\bCo)[.!?]\s+(?=[A-Z])")  # "Jesse St. Germain"
# a field naming whom a document is about: "Service/Company Name: LBM" (a generic name is qualified by it)
_OWNER_FIELD = re.compile(r"^(?:[\w/ ]*\b)?(?:company|service|organi[sz]ation|business|product|client)(?:/\w+)?\s+name\s*:\s*"
                          r"(?P<v>[A-Z][\w&.\-]*(?: [A-Z][\w&.\-]*){0,3})\s*$", re.IGNORECASE)
# labels that head a section rather than name a field
_HEADING_LABELS = frozenset("""references bibliography contents introduction summary conclusion conclusions abstract
appendix analysis overview background note notes example examples step steps part section chapter phase stage figure
table""".split())
# a form's prompt to whoever fills it ("Your name:"), and words no field label opens with
_NOT_LABEL_START = frozenset("""your my our their his her its please see if when how what why for to in on with by as and
or from cc re print sign enter insert""".split())
# words of a line someone says to a reader, never of a title: a mail's "Many thanks for the email below please see my
# responses" copied into a document as its first line
_SAID = frozenset("please thanks thank below i me my we us you".split())
# the next field's label that a value runs into ("Total Story Point: 36 Total Hours:" on one line): the value ends there
# (a label's words hold no underscore: a form's blank line "_Hasta Akış Optimizasyonu_________ Prepared Date:" ends
# at "Prepared Date:", not at "Akış", session 56's reporting read)
_NEXT_LABEL = re.compile(r"\s+[A-Z][^\W_]*(?:[/&'’\-][^\W_]*)*(?: [A-Z][^\W_]*(?:[/&'’\-][^\W_]*)*){0,3}\s*:(?:\s|$)")
# words that point back, not a term a document defines: "This means that …"
_PRONOUNS = frozenset("this that these those it they there which what he she we i".split())
# the label that ends a table cell holding a field before it: "Story Points: 2 Total Hours:"
_CELL_LABEL = re.compile(r"(?<=\s)[A-Z][\w/&'’\-]*(?: [A-Z][\w/&'’\-]*){0,3}\s*:$")
_LEADING_NUMBER = re.compile(r"^\d+(?:\.\d+)*[\s._-]+")
_COPY_MARK = re.compile(r"\s*\((?:\d+|copy|template|final|draft)\)", re.IGNORECASE)


_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# a date as minutes write it: "14th February 2019", "September 20th, 2023", "27/2/18"
_MEETING_DATE = re.compile(rf"\b\d{{1,2}}[/.-]\d{{1,2}}[/.-]\d{{2,4}}\b|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}\b"
                           rf"|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b", re.IGNORECASE)


def is_office(doc_id: str, metadata: Mapping[str, object] | None) -> bool:
    """Whether a document was read from a word processor's file (.docx, .doc, .rtf, .odt)."""
    meta = metadata or {}
    name = str(meta.get("file_name") or meta.get("source") or doc_id)
    return Path(name).suffix.lower() in OFFICE_SUFFIXES


def office_facts(doc_id: str, named: str, chunks: Sequence[Any], skipped: Counter,
                 noun_label: Callable[[str], bool] | None = None, nlp: Any = None) -> list[Fact]:
    """Every fact of one office document's passages (see the module docstring), each question naming it as `named`
    (`office_names`); refusals counted in `skipped`. noun_label: whether a label reads as a noun phrase ("Date
    Published" does, "Detect Over Provisioning" does not), from the parse; None: every label shaped as one does.
    nlp: a spaCy pipeline, which refuses a label that is a person's name ("Braysen Goodwin: Worked on bugs") and a
    value that is a clause ("Concerns: No concerns were raised"); None: neither is refused."""
    parse = _Parse(nlp) if nlp is not None else None
    fields: dict[str, list[Fact]] = {}
    # every value each label is given, refused or not: a label asked once with one value must have no other
    # ("Total Hours: 50" for sprint 1 and "Total Hours: 94.3" for sprint 2, the second refused for its shape)
    given: dict[str, set[str]] = {}
    means: list[Fact] = []
    for chunk in chunks:
        lines = chunk.text.split("\n")
        for n, line in enumerate(lines):
            for label, value, quote in _fields(line, lines[n + 1] if n + 1 < len(lines) else "",
                                               lines[n + 2] if n + 2 < len(lines) else ""):
                given.setdefault(fold(" ".join(label.split())), set()).add(_said(value))
                fact = _field_fact(chunk, label, value, quote, named, skipped, noun_label, parse)
                if fact is not None:
                    fields.setdefault(fold(" ".join(label.split())), []).append(fact)
            m = _MEANS.match(line.strip())
            if m:
                fact = _means_fact(chunk, m, line.strip(), named, skipped)
                if fact is not None:
                    means.append(fact)
    out: list[Fact] = []
    for key, facts in fields.items():
        if len({fold(f.answer) for f in facts}) > 1 or len(given.get(key, ())) > 1:
            skipped["office_field_two_values"] += len(facts)  # minutes of two meetings, each with its "Date:"
            continue
        out.append(facts[0])
    out += _milestones(chunks, named, skipped)
    out += row_facts(chunks, named, skipped, parse.person if parse is not None else None)
    out += statement_facts(chunks, named, skipped)
    out += decision_facts(chunks, named, skipped)
    terms = Counter(fold(f.subject) for f in means)
    for f in means:
        if terms[fold(f.subject)] > 1:
            skipped["office_defined_twice"] += 1
            continue
        out.append(f)
    defined = defined_facts(chunks, named, skipped, ACRONYM, TERM)
    said = {f.subject for f in defined if f.relation == ACRONYM}
    out.extend(defined)
    for fact in _glossary(chunks, named, skipped, parse.person if parse is not None else None):
        if fact.subject not in said:  # the prose's definition first, and one row per acronym
            said.add(fact.subject)
            out.append(fact)
    kept = [f for f in out if fold(f.answer) not in fold(named)]
    # "What does UAT stand for in the document “User Acceptance Tests (UAT)”?" gives its answer away
    skipped["office_value_in_name"] += len(out) - len(kept)
    return kept


MILESTONE = "doc:office_milestone"
PHASE = "doc:office_phase"
# a milestone table's header: "Overall Project Milestones | … | Dates", or the same two paragraphs
_MILESTONE_HEAD = re.compile(r"^\(?(?:overall\s+)?(?:project\s+)?(?:key\s+)?milestones\)?$", re.IGNORECASE)


def _dated(cell: str) -> bool:
    """A cell that is a date as a schedule gives it: "November 25, 2023", "2018-05-15", "The week of September
    18th" (a month and a day, at most eight words)."""
    return bool(len(cell.split()) <= 8 and (_MEETING_DATE.search(cell) or parse_date(cell) or re.search(
        r"\d{4}-\d{2}-\d{2}", cell) or (_MONTHS.search(cell) and re.search(r"\d", cell))))


def _milestones(chunks: Sequence[Any], named: str, skipped: Counter) -> list[Fact]:
    """A charter's milestone schedule (session 56): under a header naming milestones and their dates ("Overall
    Project Milestones | Dates"), each row's milestone and its date ("Project Prototype | November 25, 2023", or the
    two as paragraphs), asked "In the Project Charter for X, what is the date of the milestone “Project
    Prototype”?". The schedule ends at its first row that is not a milestone and its date; a milestone given two
    dates is not asked."""
    found: dict[str, list[Fact]] = {}
    for chunk in chunks:
        lines = [ln.strip() for ln in chunk.text.split("\n") if ln.strip()]
        n = 0
        while n < len(lines):
            cells = list(dict.fromkeys(c.strip() for c in lines[n].split("|") if c.strip()))
            if len(cells) == 3 and [fold(c) for c in cells[1:]] == ["start date", "end date"]:
                # a phase schedule's columns: "Description | Start Date | End Date" over "System Design | 2018-05-15
                # | 2018-06-01", each phase's start and end asked
                n += 1
                while n < len(lines):
                    row = [c.strip() for c in lines[n].split("|")]
                    if len(row) != 3 or not all(_dated(c) for c in row[1:]) or _dated(row[0]) or not (
                            1 <= len(row[0].split()) <= 6):
                        break
                    for end, when in (("start", row[1]), ("end", row[2])):
                        found.setdefault(f"{fold(row[0])} {end}", []).append(Fact(
                            doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=lines[n], subject=row[0],
                            about_doc=False, relation=f"{PHASE}_{end}", answer=when, kind=TruthType.DATE.value,
                            ask=f"In {named}, what is the {end} date of “{{s}}”?"))  # (a relation each: one answer)
                    n += 1
                continue
            paragraphs = len(cells) == 1 and n + 1 < len(lines) and fold(lines[n + 1]) in {"dates", "date"}
            if not (cells and _MILESTONE_HEAD.match(cells[0])
                    and (paragraphs or (len(cells) == 2 and fold(cells[1]) in {"dates", "date"}))):
                n += 1
                continue
            n += 2 if paragraphs else 1
            while n < len(lines):
                if paragraphs:
                    name, when, quote, step = lines[n], lines[n + 1] if n + 1 < len(lines) else "", "", 2
                    quote = f"{name}\n{when}"
                else:
                    row = list(dict.fromkeys(c.strip() for c in lines[n].split("|") if c.strip()))
                    name, when, quote, step = (row + ["", ""])[0], row[-1] if len(row) == 2 else "", lines[n], 1
                if not when or not _dated(when) or _dated(name) or not 1 <= len(name.split()) <= 8 or "|" in when:
                    break
                name = name.strip(" .:")
                found.setdefault(fold(name), []).append(Fact(
                    doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=name, about_doc=False,
                    relation=MILESTONE, answer=when.strip(" ."), kind=TruthType.DATE.value,
                    ask=f"In {named}, what is the date of the milestone “{{s}}”?"))
                n += step
    out = []
    for facts in found.values():
        if len({fold(f.answer) for f in facts}) > 1:
            skipped["office_milestone_two_dates"] += len(facts)
            continue
        out.append(facts[0])
    return out


def _said(value: str) -> str:
    """A field's value as given, to compare one with another: up to the next label, placeholders' blanks and end
    marks dropped ("____Colin Hart____" and "Colin Hart." are one value)."""
    value = _NEXT_LABEL.split(" ".join(value.replace("_", " ").replace("…", " ").split()), maxsplit=1)[0]
    return fold(value.strip(" .;,"))


def _glossary(chunks: Sequence[Any], named: str, skipped: Counter,
              person: Callable[[str], bool] | None = None) -> list[Fact]:
    """An abbreviations table's rows, "ER | Entity Relationship": the acronym asked as a defined one is, where the
    other cell's initials spell it (`corpus_tools.paper_definitions.expansion`; "DB | Database" spells nothing).
    A passage whose rows are mostly people's initials ("MK | Matthias Klass", "FW | Florian Wiedenmann": a team
    list) defines nothing: "What does MK stand for in the Intermediate Report?" was session 56's reporting read. Its
    rows are judged together because the parse names people unreliably ("Machine Learning" is a PERSON to it, "Johannes
    Leimer" is not)."""
    out = []
    for chunk in chunks:
        rows = []
        for line in chunk.text.split("\n"):
            cells = [c.strip().strip("()").strip() for c in line.split("|")]
            filled = [c for c in cells if c]
            if "|" not in line or len(filled) != 2 or not re.fullmatch(r"[A-Z][A-Za-z0-9]{1,7}", filled[0]):
                continue
            acronym, words = filled
            if expansion(words, acronym) == words:
                rows.append((line, acronym, words))
        people = sum(1 for _, _, words in rows if person is not None and person(words))
        if people >= 2 and 2 * people >= len(rows):
            skipped["office_glossary_people"] += len(rows)
            continue
        out += [Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=line.strip(), subject=acronym,
                     about_doc=False, relation=ACRONYM, answer=words, kind=TruthType.ENTITY.value,
                     ask=stand_for(acronym, named)) for line, acronym, words in rows]
    return out


def drop_copies(facts: dict[str, list[Fact]], office: set[str], skipped: Counter) -> None:
    """One question per fact a folder's copies and drafts state alike ("Extract, Transform, and Load (ETL)" in five
    drafts of one proposal): the first document (by id) keeps it, the others' are dropped and counted. `facts` (doc id
    → facts) is changed in place; only the office documents' own facts (`office`) are compared."""
    first: dict[tuple[str, str, str], str] = {}
    for doc_id in sorted(office & set(facts)):
        kept = []
        for f in facts[doc_id]:
            key = (f.relation, fold(f.subject), fold(f.answer))
            # (minutes named by their meeting are no drafts of one another: two meetings in one room are asked
            # each, session 56)
            if (f.relation.startswith("doc:office_") and "the minutes of " not in f.ask
                    and first.setdefault(key, doc_id) != doc_id):
                skipped["office_fact_in_another_copy"] += 1
                continue
            kept.append(f)
        if kept:
            facts[doc_id] = kept
        else:
            del facts[doc_id]


# a charter's, plan's or minutes' form label, said without a colon in a table cell or over its value
_FORM_LABEL = re.compile(r"^\(?(?:executive\s+sponsor|(?:project|meeting)\s+(?:sponsor|manager|budget|status|deadline|start date|end date|finish date|"
                         r"completion date|facilitator|location|venue|date|time|chair|chairperson|leader|lead|owner)"
                         r"|date (?:produced|created|prepared|issued|written)|(?:start|end|finish|due) date)\)?$",
                         re.IGNORECASE)
# a sprint plan's or charter's standing meetings: "Meeting Plan: Monday/Wednesday/Friday @ 4:00 PM"
# (not minutes' "Meeting Time": that one meeting's time)
_MEETS = re.compile(r"^(?:(?:scrum|team)\s+meeting\s+(?:plan|time|times|schedule)|meeting\s+(?:plan|times|schedule))$",
                    re.IGNORECASE)
# a label saying when the document was made: "Date Produced" → "When was the Project Charter for X produced?"
_MADE = re.compile(r"^date\s+(produced|created|prepared|issued|written)$", re.IGNORECASE)


def _fields(line: str, following: str, after: str = "") -> list[tuple[str, str, str]]:
    """(label, value, quote) of each field a line states: "Label: value", "Label:" over its value on the next
    line (where the line after that is blank or another label: "Student IDs:" over two ids is a list), or a
    table row's label cell ending in a colon and its value ("Note taker: | Cristina Hilario"). A table row without
    one is a data row ("Architecture Design | Muhammad Ismail" under "(Design) | Members"), no field."""
    text = line.strip()
    if "|" in text:
        cells = [c.strip() for c in text.split("|")]
        filled = [c for c in cells if c]
        # a label merged over two cells is written twice: "Project Manager | Project Manager | Long Nguyen"
        # (session 57)
        filled = [c for n, c in enumerate(filled) if not n or c != filled[n - 1]]
        if len(filled) >= 2 and _FORM_LABEL.match(filled[0]) and len(set(filled[1:])) == 1:
            # a charter's form row, its label cell without a colon and its value merged across the other cells:
            # "Project Sponsor | Dr. Yogesh Sharma. | Dr. Yogesh Sharma."
            return [(filled[0].strip("()"), filled[1], text)]
        out = []
        if re.match(r"^\s*\|", following) and following.strip(" |"):
            # the next row continues this one's values under an empty label cell ("Team Members: | Alaisha Johnson"
            # over " | Amanda Brown"): its first value is one of a list (session 57)
            return out
        for a, b in zip(cells, cells[1:], strict=False):
            if a.endswith(":") and b and not b.endswith(":"):  # "Type of meeting: | Status Update"
                cut = _CELL_LABEL.search(a) if ": " in a else None
                if cut:
                    # a cell's own field before the label: "Story Points: 2 Total Hours: | 13"
                    out += [(label, value, text) for label, value, _ in _fields(a[:cut.start()], "")]
                    a = a[cut.start():].strip()
                out.append((a[:-1].strip(), b, text))
        return out
    m = _INLINE.match(text)
    if m:
        # every field of a line that holds several ("Delivery date: 30/08/17 Total Story Points: 68"), so that a
        # label given twice with two values is seen ("Total Story Points: 13" a line later)
        out = []
        while m:
            value = m.group("v")
            cut = _NEXT_LABEL.search(value)
            out.append((m.group("l"), value[:cut.start()] if cut else value, text))
            m = _INLINE.match(value[cut.start():].strip()) if cut else None
        return out
    m = _LABEL_ONLY.match(text)
    nxt = following.strip()
    then = after.strip()
    if (_FORM_LABEL.match(text) and nxt and "|" not in nxt and not _FORM_LABEL.match(nxt)
            and (not then or _FORM_LABEL.match(then) or re.match(r"(?:project|additional|overall)\b", then, re.I))):
        # a form's label over its value, no colon: "Date Produced" / "October 1, 2023" / "Project Goals"; "Project
        # Manager" over three names is a list (the line after the first is no label)
        return [(text, nxt, f"{text}\n{nxt}")]
    if (m and nxt and "|" not in nxt and not _LABEL_ONLY.match(nxt) and not _INLINE.match(nxt) and not nxt.endswith(":")
            and (not then or _LABEL_ONLY.match(then) or _INLINE.match(then))):
        return [(m.group("l"), nxt, f"{text}\n{nxt}")]
    return []


def _field_fact(chunk: Any, label: str, value: str, quote: str, named: str, skipped: Counter,
                noun_label: Callable[[str], bool] | None = None, parse: _Parse | None = None) -> Fact | None:
    label = " ".join(label.split())
    value = " ".join(value.replace("_", " ").replace("…", " ").split())
    value = _NEXT_LABEL.split(value, maxsplit=1)[0]
    if _LIST_ITEM.match(value) or re.search(r"\s[-–•]\s*$", value):
        # (a value cut before the next item of a run-on list: "Marketing Costs: 0 - Ongoing Maintenance: Free")
        # before the first sentence is cut: "Flow of Events: | 1. After starting the game, …" would keep a bare "1"
        skipped["office_value_list"] += 1
        return None
    value = _FIRST_SENTENCE.split(value, maxsplit=1)[0].strip(" .;,")
    words = label.split()
    if _NUMBERED.match(label):
        if not value or len(value.split()) > 12 or _LIST_ITEM.match(value):
            skipped["office_value_empty"] += 1
            return None
        return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=label, about_doc=False,
                    relation=FIELD, answer=value, kind=TruthType.ENTITY.value,
                    ask=f"According to {named}, what is {_label_words(label)}?")  # "what is objective 7?"
    if (not 1 <= len(words) <= 5 or re.search(r"\d|[()\[\]?<>]|https?|www", label) or not label[:1].isupper()
            or (label.isupper() and len(label) > 4) or fold(words[-1]) in _HEADING_LABELS
            or (fold(words[0]) in _HEADING_LABELS and fold(words[-1]) not in _ROLE_WORDS | _PEOPLE)
            or fold(words[0]) in _NOT_LABEL_START):
        skipped["office_label_shape"] += 1  # a heading ("ANALYSIS:", "Part II:", "References:") or a prompt
        return None
    # a label must read as a noun phrase: one word is parsed after "the" ("the tested", "the available" do not)
    # (a form's known label, "Project Sponsor", "Date Produced", is no person's name nor needs the parse)
    form = bool(_FORM_LABEL.match(label) or _MEETS.match(label))
    if (len(words) == 1 and words[0].lower().endswith("ly")) or (
            noun_label is not None and not form and not fold(label).endswith(" by") and not noun_label(label)):
        skipped["office_label_not_a_noun"] += 1  # "Detect Over Provisioning: Azure Advisor", "Mostly Good:"
        return None
    if parse is not None and not form and parse.person(label):
        skipped["office_label_person"] += 1  # a stand-up's "Braysen Goodwin: Worked on bugs": no property asked
        return None
    if _LIST_ITEM.match(value):
        skipped["office_value_list"] += 1  # "Assumptions:" over a list: its first item is not the answer
        return None
    if (not value or _PLACEHOLDER.match(value) or len(value.split()) > 10 or re.search(r"\[[^\]]*\]|\{|\}|<<", value)
            or re.match(r"(?:we|i|it|this|they|there|you|on|in|at|for|with|by|during|before|after|prior|as|if|when|"
                        r"all|any|every|each)\b", value, re.IGNORECASE)
            # "Timekeeper: No Timekeeper": the field left empty in words (session 56's reporting read)
            or re.fullmatch(r"(?:no|none|not|nil)\b.*", fold(value)) and fold(label).split()[-1] in fold(value)):
        # blank, a placeholder, or a sentence rather than a value ("On a monthly basis, report actual spending …")
        skipped["office_value_empty"] += 1
        return None
    if fold(value) in fold(named):
        skipped["office_value_in_name"] += 1  # "Project Name: Skywars" in the document “Skywars”
        return None
    said = _label_words(label)
    if not said:
        skipped["office_label_shape"] += 1
        return None
    if _not_a_value(label, value) or (parse is not None and parse.clause(value)):
        skipped["office_value_shape"] += 1  # a template's "Low, medium or critical", "No concerns were raised"
        return None
    date = parse_date(value)
    lowered = fold(label)
    head = fold(label).split(" of ")[0].split()[-1]  # "Recorder of the Meeting" is a recorder
    heads = set(re.split(r"[/&]", head))  # "Client Name/address"
    updated = "updated" in lowered and date and not lowered.endswith(" by")
    if _MEETS.match(label):
        if not re.search(r"\d|day\b|days\b", value, re.IGNORECASE) or len(value.split()) > 10:
            skipped["office_value_type"] += 1
            return None
        return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=label, about_doc=False,
                    relation=FIELD, answer=value, kind=TruthType.ENTITY.value,
                    ask=f"According to {named}, when does the team meet?")  # "Meeting Plan: Mondays @ 4:00 PM"
    made = _MADE.match(label)
    if made:
        if not (date or _MONTHS.search(value)) or re.search(r"updated|revised", quote, re.IGNORECASE):
            skipped["office_value_type"] += 1  # "Date Produced: October 20 2020; Updated: November 23 2020"
            return None
        return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=label, about_doc=False,
                    relation=FIELD, answer=value, kind=TruthType.DATE.value,
                    ask=f"When was {named} {made.group(1).lower()}?")
    if not updated and not lowered.endswith(" by") and not heads & (_PROPERTY_HEADS | _ROLE_WORDS | _PEOPLE):
        # "Consequences: Failure to fulfil contract", "Integration Test: Top-Down": a risk's, a test's, an agenda
        # item's field, not a property of what the document is about (session 55: refused unless unmistakable)
        skipped["office_label_not_a_property"] += 1
        return None
    person, _, apposition = value.partition(" - ")
    if heads & _ROLE_WORDS and apposition and _person(person):
        # a role's holder and what they are: "Project Manager: Erika McCluskey - Developer", "… - ann@quay.example";
        # the person is the answer (session 56)
        value = person.strip()
    if not _typed(heads, lowered, value, date):
        skipped["office_value_type"] += 1  # "Date Created: Month dd, yyyy", "Chairperson: the board"
        return None
    if updated:
        ask, relation, kind = f"When was {named} last updated?", UPDATED, TruthType.DATE.value
    elif lowered.endswith(" by"):
        ask, relation, kind = f"Who was {named} {said}?", FIELD, TruthType.PERSON.value  # "Prepared by" → who
    elif heads & _ROLE_WORDS:
        ask, relation, kind = f"According to {named}, who is the {said}?", FIELD, TruthType.PERSON.value
    else:
        kind = TruthType.DATE.value if date else TruthType.ENTITY.value
        if lowered.split()[-1] in _PEOPLE and not re.search(r"[\d@]", value) and all(
                w[:1].isupper() for w in value.replace(",", " ").split() if w not in {"and", "&"}):
            ask = f"According to {named}, who are the {said}?"
        elif lowered.split()[-1] in _PEOPLE:
            skipped["office_value_type"] += 1  # "Attendees: All": no people named
            return None
        elif head in {"team", "group"} and "," in value and all(_person(v) for v in value.split(",")):
            ask = f"According to {named}, who is on the {said}?"  # "Team: Mimi, Kaspar, Brandon"
        elif _plural(head):  # "Number of hours" is one number
            ask = f"According to {named}, what are the {said}?"  # "Total overhead costs"
        else:
            ask = f"According to {named}, what is the {said}?"
        relation = FIELD
    return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=label, about_doc=False,
                relation=relation, answer=value, kind=kind, ask=ask)


# the head noun of a label that names a property of what a document is about (its meeting, project, course,
# team): a field is asked only under one of these (or a role, people, "… by", a numbered objective)
_PROPERTY_HEADS = frozenset("""date day time deadline duration period term semester year location venue place room
address version status title name number no id code type kind category level grade class course module unit subject
topic team group project client company organisation organization department school university faculty institution
budget cost costs total price amount fee hours velocity point points password email phone website url""".split())
# a label that alone names a field of a row or an item (a story's points, a line's total) or needs the word that
# says whose it is ("Name: Ann Lee" on a form: the name of what? "Team Name", "Course Code" say)
_ROW_FIELDS = frozenset("""points point total hours cost costs amount price name number no id code type kind category
class group level grade score mark marks title""".split())  # (session 56: "Title: Adventure Game" in a rationale)
# a label whose value is a date, or a number: "Date Created: Month dd, yyyy" holds neither
_DATE_HEADS = frozenset("date day deadline due dob".split())
_NUMBER_HEADS = frozenset("number no count total hours cost costs budget price amount velocity points".split())
_MONTHS = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b\.?"
                     r"|\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b"
                     r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", re.IGNORECASE)
# a "… by" label of a participle ("Prepared by", "Last updated by"), not a noun ("Minutes issued by": who issued
# the document's minutes is not who issued the document)
_BY_WORDS = re.compile(r"^(?:(?:last|first|originally|jointly)\s+)?\w+(?:ed|en|wn|ne|lt)\s+by$")


def _typed(heads: set[str], label: str, value: str, date: Any) -> bool:
    """Whether a value has the type its label implies: a date for "Date", a number for "Number of hours", people
    for "Chairperson" and "Prepared by" (session 55: "Date Created: Month dd, yyyy", "Last Updated By: Name 2")."""
    if label.endswith(" by"):
        return bool(_BY_WORDS.match(label)) and _person(value)
    words = set(label.split())
    if len(words) == 1 and words & _ROW_FIELDS:
        return False  # a user story's "Points: 5", a row's "Total:": whose points, what total?
    if heads & {"code", "id"}:
        return bool(re.search(r"\d", value) or re.fullmatch(r"[A-Z][A-Z0-9-]{1,9}", value))  # "Course Code: Hot Topic"
    if heads & _ROLE_WORDS:
        # a role is held by people (session 56: this check had been unreachable since session 55, so "Project
        # Manager: Matthew McRae - mdmcrae1@…" and a manager's "the board" were asked)
        return _person(value)
    if words & _DATE_HEADS:  # "Date Created", "Delivery date"
        return bool(date or _MONTHS.search(value))
    if words & _NUMBER_HEADS:
        return bool(re.search(r"\d", value))
    return True


def _not_a_value(label: str, value: str) -> bool:
    """A value no answer is: uncertain ("Client only?"), code ("/* System not involved */"), a template's choices
    ("Low, medium or critical") or a template's echo of its label ("Preconditions: Precondition 1 …")."""
    first = fold(value).split()[0].rstrip("s") if value.split() else ""
    if len(value.split()) <= 2 and fold(value).split()[-1] in _PROPERTY_HEADS and value.istitle():
        return True  # a form's next prompt read as the value: "Print Name: | Print Title"
    if (len(value.split()) == 2 and first in {"version", "revision"} and first != fold(label).split()[-1]
            and re.fullmatch(r"[\d.]+", value.split()[1])):
        return True  # another field's label and value: a test form's "Module: | Version 1.1" ("Room 3" is a room)
    return bool(value.endswith("?") or re.match(r"[^\w\"“'‘$£€(]", value) or re.search(r"\sor\s", value)
                or re.search(r"\b(?:dd|mm|yy|yyyy|xx+)\b", value, re.IGNORECASE)
                or first == fold(label).split()[-1].rstrip("s") and re.search(r"\d", value))


def _plural(label: str) -> bool:
    """"Attendees", "Next Steps": asked "what are"; "Status", "Address", "Class" are one thing."""
    last = label.split()[-1]
    return last.endswith("s") and not last.endswith(("ss", "us", "is", "ics"))


def _label_words(label: str) -> str:
    """A label as a question says it: lower case but for acronyms ("Service/Company Name" → "service/company
    name", "CR Number" → "CR number")."""
    if label.isupper() and len(label) >= 4 and re.search(r"[AEIOU]", label):
        return label.lower()  # a memo's "DATE:" is no acronym
    return " ".join(w if (w.isupper() and len(w) > 1) else w.lower() for w in label.split())


def _person(value: str) -> bool:
    """A value that names people: two to four capitalised words (a title allowed), no digits, no @."""
    words = re.sub(r"^(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+", "", value).replace(",", " ").split()
    return 1 <= len(words) <= 6 and not re.search(r"[\d@/]", value) and all(w[:1].isupper() or w in {"and", "&"} for w in words)


def _means_fact(chunk: Any, m: re.Match, line: str, named: str, skipped: Counter) -> Fact | None:
    term = m.group("t")
    definition = _CLAUSE_END.split(m.group("d"), maxsplit=1)[0].strip()
    if fold(term.split()[0]) in _PRONOUNS or fold(m.group("d")).startswith("that "):
        skipped["office_definition_shape"] += 1  # "This means that there should be a search bar": no term defined
        return None
    if not m.group("q") and not all(w[:1].isupper() for w in term.split()):
        skipped["office_definition_shape"] += 1  # "Plan a means of filter …": no term defined
        return None
    if (len(definition.split()) < 2 or len(definition.split()) > 14 or fold(term) in fold(definition)
            or definition.split()[0] in _MINOR - {"a", "an", "the"}):
        skipped["office_definition_shape"] += 1
        return None
    return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=line, subject=term, about_doc=False,
                relation=MEANS, answer=definition, kind=TruthType.ENTITY.value,
                ask=f"In {named}, what does “{{s}}” mean?")


def noun_labels(nlp: Any) -> Callable[[str], bool]:
    """`office_facts`' noun_label from a spaCy pipeline: the label, lower-cased (a title-cased "Detect Over
    Provisioning" parses as names), opens with a noun or an adjective, ends with a noun (or a participle: "Date
    Published") and holds no other verb."""
    cache: dict[str, bool] = {}

    def noun_label(label: str) -> bool:
        if label not in cache:
            words = _label_words(label)
            # one word alone parses as anything; after "the" it is a noun or not ("the tested", "the available")
            toks = [t for t in nlp(f"the {words}")][1:] if len(words.split()) == 1 else [
                t for t in nlp(words) if not t.is_punct]
            cache[label] = (bool(toks) and toks[0].pos_ in {"NOUN", "PROPN", "ADJ"}
                            and (toks[-1].pos_ in {"NOUN", "PROPN"} or toks[-1].tag_ == "VBN")
                            and not any(t.pos_ in {"VERB", "AUX"} and t.tag_ != "VBN" for t in toks))
        return cache[label]

    return noun_label


def person_names(nlp: Any) -> Callable[[str], bool]:
    """`office_names`' person from a spaCy pipeline: a phrase whose last word the parse reads as a person's name
    ("Grant Yamaguchi", "Fabio Pazzini", where the small model marks only "Pazzini"): who, not what, a document is."""
    cache: dict[str, bool] = {}

    def person(phrase: str) -> bool:
        if phrase not in cache:
            doc = nlp(phrase)
            cache[phrase] = bool(doc) and any(e.label_ == "PERSON" and e.end == len(doc) for e in doc.ents)
        return cache[phrase]

    return person


class _Parse:
    """What `office_facts` asks a spaCy pipeline: whether a label is a person's name and whether a value is a clause
    (a finite verb: "No concerns were raised", "Depends on scheduled times"; or opening with a past verb: "Worked on
    bugs on the server"), each string parsed once."""

    def __init__(self, nlp: Any) -> None:
        self.person = person_names(nlp)
        self._nlp = nlp
        self._clauses: dict[str, bool] = {}

    def clause(self, value: str) -> bool:
        if value not in self._clauses:
            tags = [t.tag_ for t in self._nlp(value)]
            self._clauses[value] = (any(t in {"VBD", "VBZ", "VBP", "MD"} for t in tags)
                                    or (len(tags) >= 3 and tags[0] in {"VBN", "VBD"}))
        return self._clauses[value]
