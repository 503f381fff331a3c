"""What a slide deck states in its own shapes (issue 36: a folder of lecture decks or talks yields questions).

A deck (`corpus_tools.pptx_reader`: a section per slide, bullets as "- " lines, speaker notes under "Notes:") holds
few sentences: a lecture's bullets are fragments ("Data redundancy", "Same data appears in more than one location"),
so the prose templates find no answer span in them, and its title often names nothing (a template's core title
copied into every deck of a course or a speaker). Three of its shapes state a fact a passage verifies:

- a term and its definition on one line, "Metadata – data about data", "Data: unprocessed information"
  (`TERM`), and a notes sentence or bullet "A primary key is a column that …" (`corpus_tools.paper_definitions
  .defined_term`, the papers' reader): "In the presentation “DBS201: Introduction to Database Design and SQL”, what
  is metadata?" → "data about data". The term is one to four words and no label of the slide's furniture
  ("Example:", "Solution:", "Step 1:"), no formula's variable ("P", "If S") and no pair; the definition two to
  twenty words, whole (a restrictive "that …" clause is never cut off), placing its genus (a preposition, a clause
  or four words: "a predicate" is refused), no code, figure, list, comparison or question, not opening with a
  pronoun, an order ("Just don't do inheritance"), a verb ("establishes …") or an adverb. Three "X – Y" bullets on
  a slide outside a glossary are a list of categories ("Process – inadequate or failed processes"): there a line
  defines its term only with a genus ("the overall structure of …");
- an acronym and the words its letters spell, "SQL: Structured Query Language", "Message Authentication Code
  (MAC)" (`ACRONYM`): "What does SQL stand for in …?";
- a labelled value, "Target rate: 80-90 msgs/sec", "Instructor: Dr. Y", "Deadline: March 3" (`VALUE`): the value
  opens with a figure, a month or a title (Dr., Prof.), under a label that names a measure, an amount, a date or
  a person's role ("Columns: 19", "Office: Room 301" ask nothing); "In …, what is the target rate?".

Nothing else in a deck asks: its tables (`datagen.relations` counts their cells, `slide_table_cell`) are a
lecture's worked illustrations far more often than reports (preference lists, DP grids, token tables: 31 sampled
table questions on session 55's tuning decks, none natural), and its prose templates' and claims' questions read
bullets and formulas with their symbols lost as sentences ("When has Instacart founded?").

A slide's heading is no fact line ("Sorting Output – Single Column" titles a slide), and a term or label a deck
states twice with two answers is refused (no one passage answers). Hidden slides are read and asked like any
other: PowerPoint hides backup and appendix slides, not deleted ones.

Every question names its deck (`deck_names`), as a student or colleague would: by its title where that title is
the deck's own (it appears in the deck, and no other deck of the folder carries it: a template's core title copied
into 17 of one speaker's talks names none of them), else by its first slide's title, else by a course's
"Lecture 3" file name and the course title its decks share ("Lecture 3 of CIT 590"), else by a file name that
says something ("Git Demystified"). A deck nothing names is refused and counted (`slide_deck_unnamed`), as is a
deck not in English (`slide_deck_not_english`: the English questions would quote another language) and one with
no line to read (`slide_deck_no_text`: title-only or image-only slides).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from corpus_tools.paper_definitions import MINOR, acronyms, defined_term, letters
from datagen.doc_papers import stand_for
from datagen.factbase import Fact
from datagen.mining import fold
from datagen.types import TruthType
from datagen.verify import contains, normalize

TERM = "doc:slide_term"
ACRONYM = "doc:slide_acronym"
VALUE = "doc:slide_value"

# "Term – definition", "Term: definition", "Term - definition" on one line (a bullet's "- " taken off first)
_LINE = re.compile(r"^(?P<t>[A-Za-z][\w'’./+#&]*(?: [\w'’./+#&]+){0,3}?)\s*(?::|\s[–—-]\s)\s*(?P<d>\S.*)$")
_BULLET = re.compile(r"^\s*(?:- |• |\* )")
# "X is a …", "X are …", "X means …" as a bullet: the term first, then the verb
_IS = re.compile(r"^(?:(?P<art>A|An|The)\s+)?(?P<t>[A-Za-z][\w'’./+#-]*(?: [\w'’./+#-]+){0,2}?)\s+(?:is|are|means|refers to)\s+"
                 r"(?P<d>(?:a|an|the)\s.+)$")
# a slide's furniture: labels that open an example, a step, a remark, never a term
_NOT_TERMS = frozenset("""
example examples e.g i.e ex eg note notes nb tip tips hint hints warning caution important remember recall solution
solutions problem problems question questions answer answers q a step option options case cases goal goals idea
ideas rule rules result results output input outputs inputs source sources image figure fig table demo bonus today
now then before after reality recap summary agenda outline overview contents topic topics objective objectives
exercise exercises homework reading readings lab task tasks part chapter week lecture slide session module unit
advantages disadvantages pros cons why what how when where who which yes no true false here there this that it
following below above if because consider suppose assume given let called inside outside variations
these those they we you i he she my our your their its usage syntax format definition definitions def key point
points takeaway takeaways conclusion conclusions update updates status warning error errors version scenario
approach method methods way ways first second third next last finally also but and or so however thus hence
each every all some any most many few several both none reminder challenge extra draw drawbacks benefits very
simple possible alternative better best main general typical common usual naive obvious one another
in on at for with without by from to of as about into over under instead except unless
""".split())
# a definition that opens so is an order, a remark or an opinion, not what the term is
_NOT_DEFINITIONS = frozenset("""
just don't dont do does did use using test extend always never see try make avoid check click go run we i you it
this that they there these those yes no not only also e.g i.e eg ie ex example see note let's lets please
probably maybe perhaps really very so too more less same why what how when where who which if then because
decrease increase reduce double halve add remove set send return compute call create delete update move copy store
start stop open close read write take give get put keep choose select pick find apply print load save install
track
most many some all each every few several both none one two three my our your his her their its me us
""".split())
# words that make a definition depend on the slide around it or on who speaks ("the parent of these hypotheses",
# "something I can quantify")
_CONTEXT_WORDS = frozenset("this these those i we you me us my our your it they them here there above below".split())
# a genus that judges its term or places it beside another ("an essential part of the course", "the good parts")
_JUDGING = frozenset("similar same other another related following next good great simple useful better best nice "
                     "benchmark default classic ideal usual natural preferred serious significant growing huge big "
                     "easy quick common special different bit lot little few couple number very essential important "
                     "key main major critical crucial powerful popular bad hard part example kind way".split())
# "single, double and triple quotes", "YesSQL and NoSQL", "Dynamic dispatch, Inspects signatures": things listed
_LIST = re.compile(r",[^,]*\b(?:and|or)\b|^\S+ (?:and|or) \S+$")
# a right side in Title Case: a title's second half ("DBS201: Introduction to Databases"), no list item
_TITLE_CASE = re.compile(r"(?:(?:[A-Z0-9][\w'’&.-]*|of|and|the|to|in|for|on|a|an|with)\s*)+")
_STUDY = re.compile(r"(?i)^(?:a|an|the)\s+(?:[\w-]+\s+){0,2}(?:study|studies|review|survey|perspective|evidence|"
                    r"exploration|investigation|case)\b")
_GLOSSARY = re.compile(r"(?i)\b(?:definitions?|terms?|terminology|glossary|vocabulary|concepts?|jargon)\b")
_SEPARATOR = re.compile(r"\s[–—-]\s|\s?:\s")
_CLAUSE = re.compile(r"\s*(?:,\s(?:which|where|who|whose|when|and\s(?:is|are|can|may))\s|;|:|\(|\s[—–]\s| - |"
                     r"\s(?:because|but|so)\s)")
# a definition that places its genus: a preposition, a relative clause, a participle or a possessive after its head
_QUALIFIED = re.compile(r"\b(?:that|which|who|whose|where|whereby|when|of|for|to|in|on|with|without|from|between|"
                        r"among|by|as|at|into|over|about|across|within|through|via|containing|having|used|made|"
                        r"called|based)\b|'s\b|’s\b")
# what is left of a line whose equation the reader could not read: two spaces, a space before punctuation, "()"
_MATH_LOST = re.compile(r"\S {2,}\S|\s[,.;)]|\(\s*\)|\s(?:of|if|is|are|the|a|an|to|and|or|by|with|than|such)$")
_NAME = re.compile(r"^(?P<n>[A-Z][a-z’'.-]+(?: [A-Z][a-z’'.-]*\.?){1,3})(?:\s*(?:[<(@,].*)?)$")
_CITATION = re.compile(r"^[A-Z][\w.’' ]*\s(?:et al\.?\s)?\(?\d{4}\)?$")
_CODE = re.compile(r"[=;{}<>`\[\]|\\]|\w\(|::|->|=>")
_MONTH = re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d", re.IGNORECASE)
_TITLED = re.compile(r"^(?:Dr|Prof|Professor|Mr|Mrs|Ms)\.?\s+[A-Z]")
_PEOPLE = frozenset("instructor instructors lecturer speaker speakers presenter author authors professor teacher "
                    "ta tas contact coordinator".split())
_ENGLISH = frozenset("the of and to is are in for with that this on by from".split())
_OTHER = frozenset("le la les des une est et du dans pour avec der die das und ist nicht ein eine mit von el los las "
                   "una es por para con il di che della sono não uma een het zijn wordt niet deze ook maar naar bij "
                   "voor".split())  # Dutch's last (session 56: an office folder's Dutch paper)
# a label whose value a reader asks "what is the …?" of: a measure, an amount, a date ("Target rate", "Deadline")
_FIGURE_FIRST = re.compile(r"(?i)^(?:[$€£~≈<>+-]?\s?\d|(?:about|approx\.?|approximately|around|over|under|up to|nearly|"
                          r"almost|more than|less than)\s+[$€£]?\d)")
_MEASURES = frozenset("""
rate rates price prices cost costs budget revenue revenues sales profit profits margin growth share size population
speed latency throughput capacity accuracy precision recall score weight height length width depth area volume
temperature duration users customers employees downloads funding valuation salary income fee fees tuition deadline
date count total average mean median ratio percentage loss losses spend spending investment amount balance debt
turnover bandwidth frequency voltage power energy yield return returns
""".split())
# a measure's label that counts people or things: asked "how many …"
_COUNTED = frozenset("users customers employees downloads".split())
MAX_TERM_WORDS = 4
MAX_DEFINITION_WORDS = 20
MAX_VALUE_WORDS = 10
# a file name that is only a course's numbering ("Lecture3", "Week 10 Slides", "lec_04")
_NUMBERED = re.compile(r"^(?P<k>lecture|lec|week|class|session|chapter|module|unit|part|day|topic)[\s_-]*(?P<n>\d+)"
                       r"(?P<rest>[\s_-].*)?$", re.IGNORECASE)
_KINDS = {"lec": "Lecture"}
# a template's institution on every deck of a course ("KALINGA INSTITUTE OF INDUSTRIAL TECHNOLOGY"): no deck's name
_INSTITUTION = re.compile(r"(?i)^(?:the\s+)?(?:[\w&'’.-]+\s+){0,5}?(?:university|institute|college|school|"
                          r"department|faculty|academy)(?:\s+(?:of|for)\s+(?:[\w&'’.-]+\s*){1,4})?$")
# a title that is a course's numbering alone: "Chapter 19", "Chapter 2.1", "Unit5Chapter3" name no deck of a folder
_ONLY_NUMBERING = re.compile(r"(?i)^(?:(?:lecture|lec|week|class|session|chapter|ch|module|unit|part|day|topic)"
                             r"[\s_.-]*\d+(?:\.\d+)*[\s_.-]*)+$")
# file names that name nothing by themselves
_GENERIC_STEMS = frozenset("slides slide presentation deck talk final draft new copy template untitled lecture notes "
                           "revised v1 v2 v3 with voice".split())
# a first slide's title that any deck could carry: "Introduction" names no talk among a folder's talks
_GENERIC_TITLES = frozenset({"agenda", "outline", "contents", "overview", "introduction", "intro", "welcome",
                             "summary", "conclusion", "conclusions", "questions", "thank you", "thanks", "review",
                             "recap", "presentation", "slides", "lecture", "title", "untitled", "course overview",
                             "course introduction", "background", "motivation"})
_WELCOME = re.compile(r"^(?:welcome to|introduction to the course)\s+", re.IGNORECASE)
# a course's code after a deck's title ("… Vulnerabilities CS 07351")
_COURSE_CODE = re.compile(r"\s+[A-Z]{2,5}[- ]?\d{3,5}[A-Z]?\b")
# a slide that works an example: its "Response: weight after one month" is the example's, no meaning of the term
_EXAMPLE = re.compile(r"(?i)\bexamples?\b")
_NUMBERED_NAME = re.compile(r"^(?:Lecture|Week|Class|Session|Chapter|Module|Unit|Part|Day|Topic) \d+ of ")


@dataclass(frozen=True)
class Deck:
    """What naming a deck reads: its title (the reader's: core title, else the first slide's), the first slide's
    heading, its file's name, and its text."""

    doc_id: str
    title: str
    first_heading: str
    text: str


def is_deck(doc_id: str, metadata: Mapping[str, Any] | None) -> bool:
    """Whether a document was read from a slide deck (its file's name ends in .pptx)."""
    name = str((metadata or {}).get("file_name") or (metadata or {}).get("source") or doc_id)
    return name.lower().endswith(".pptx")


def deck_names(decks: Sequence[Deck], skipped: Counter) -> dict[str, str]:
    """Each deck's name as a question says it (see the module docstring), "" where nothing names it; two decks of
    one name (other than copies of one deck) are both unnamed."""
    # a title counts as shared among the decks whose slides show it: a template's core title copied into 17 talks
    # still names the one talk that shows it ("Real World Polyglot Persistence")
    shared = Counter(_key(t) for d in decks for t in {d.title, d.first_heading} if t and contains(d.text, t))
    names: dict[str, str] = {}
    for deck in decks:
        names[deck.doc_id] = _deck_name(deck, shared)
    by_name: dict[str, list[Deck]] = {}
    for deck in decks:
        if names[deck.doc_id]:
            by_name.setdefault(_key(names[deck.doc_id]), []).append(deck)
    for group in by_name.values():
        if len(group) > 1 and len({normalize(d.text) for d in group}) > 1:
            skipped["slide_deck_name_shared"] += len(group)
            for deck in group:
                names[deck.doc_id] = ""
    skipped["slide_deck_unnamed"] += sum(1 for n in names.values() if not n)
    return names


def _key(text: str) -> str:
    return fold(" ".join(text.split()))


def _deck_name(deck: Deck, shared: Counter) -> str:
    for title in (deck.title, deck.first_heading):
        # the deck's own title: written in the deck (a core title no slide shows is a template's), no other deck's
        if _names_something(title) and shared[_key(title)] < 2 and contains(deck.text, title):
            return _whole(" ".join(title.split()))
    stem = _file_words(PurePosixPath(deck.doc_id).stem)
    numbered = _NUMBERED.match(stem)
    if numbered:
        # the course is a title several decks share; another deck's numbering ("Lecture 5" copied as the core title
        # of later decks) is none: "Lecture 7 of Lecture 5" names nothing
        course = next((_WELCOME.sub("", t).strip() for t in (deck.title, deck.first_heading)
                       if _names_something(_WELCOME.sub("", t)) and shared[_key(t)] >= 2
                       and not _NUMBERED.match(t.strip())), "")
        kind = _KINDS.get(numbered.group("k").lower(), numbered.group("k").capitalize())
        if course:
            # "DBS201: More on SQL" on two decks: the course is its code
            head = course.split(":", 1)[0].strip()
            course = head if ":" in course and len(head.split()) <= 3 else course
            return f"{kind} {int(numbered.group('n'))} of {course}"
        stem = (numbered.group("rest") or "").strip(" _-")  # "Lecture 5 - Use Case Analysis": the words after it
    words = [w for w in re.findall(r"[A-Za-z]{2,}", stem) if w.lower() not in _GENERIC_STEMS]
    stem = " ".join(stem.split())
    return stem[:1].upper() + stem[1:] if words and _names_something(stem) and len(stem) >= 4 else ""


def _whole(name: str) -> str:
    """A title as a question says it: one cut short ("Lecture 7: Malicious Attacks and Vulnerabilities CS 07351: Cyber
    Security: Fundamentals,…", a heading's cap) kept to its segments before the cut, and a course code run into its
    end dropped ("Lecture 7: Malicious Attacks and Vulnerabilities"): no question quotes a "…"."""
    if "…" not in name and not name.endswith("..."):
        return name
    head = name.replace("...", "…").split("…", 1)[0]
    code = _COURSE_CODE.search(head)
    if code and len(head[:code.start()].split()) >= 3:
        kept = head[:code.start()]  # the course's code and the course's name after it are no part of the deck's
    else:
        parts = head.split(":")
        kept = ":".join(parts[:-1]) if len(parts) > 1 else head  # the segment the cut fell in is lost
    kept = kept.strip(" ,;:-–")
    return kept if len(kept.split()) >= 2 else ""


def _names_something(title: str) -> bool:
    words = re.findall(r"[A-Za-z]{2,}", title or "")
    # a first slide's sentence ("Sometimes we need to perform an action more than once") is no deck's name
    return (bool(words) and len(title.split()) <= 12 and _key(title) not in _GENERIC_TITLES
            and not _ONLY_NUMBERING.match(title.strip()) and not _INSTITUTION.search(title)
            and not {w.lower() for w in words} & {"we", "you", "us", "our", "your"})


def _file_words(stem: str) -> str:
    """A file name as words: "AvoidingMicroserviceMegadisasters" → "Avoiding Microservice Megadisasters",
    "memory_resizing" → "memory resizing"."""
    text = re.sub(r"[_]+", " ", stem)
    text = re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z]{2})(?=[A-Z][a-z]{2})", " ", text)  # "SOLIDArchitecture"
    text = re.sub(r"(?<=[A-Za-z]{2})(?=\d{4})", " ", text)  # "Oredev2016"
    text = re.sub(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])", " ", text) if _NUMBERED.match(text.replace(" ", "")) else text
    return " ".join(text.split())


def in_deck(name: str) -> str:
    """How a question places itself in a deck: "Lecture 3 of CIT 590" as it is, else "the presentation “…”"."""
    return name if _NUMBERED_NAME.match(name) else f"the presentation “{name}”"


def is_english(text: str) -> bool:
    """Whether a deck is written in English: in a Latin script, and its function words English rather than French,
    German, Spanish, Italian or Portuguese ones (a French lecture's "Base de données – ensemble de …" would be asked
    in English about French words)."""
    if latin_share(text) < 0.8:
        return False
    words = Counter(re.findall(r"[a-zà-ÿ]+", text.lower()))
    english = sum(words[w] for w in _ENGLISH)
    other = sum(words[w] for w in _OTHER)
    return english >= other or other < 5  # a few words of a link or a name decide nothing


def latin_share(text: str) -> float:
    letters_ = [c for c in text if c.isalpha()]
    if not letters_:
        return 1.0
    return sum(1 for c in letters_ if c.isascii() or "\u00c0" <= c <= "\u024f") / len(letters_)


def slide_facts(doc_id: str, name: str, chunks: Sequence[Any], skipped: Counter, nlp: Any = None) -> list[Fact]:
    """Every fact of one deck's slides (see the module docstring), each question naming the deck `name`; refusals
    counted in `skipped`. nlp: a spaCy pipeline that checks a term and its definition are noun phrases (None: not
    checked, the patterns alone)."""
    text = "\n".join(c.text for c in chunks)
    if not is_english(text):
        skipped["slide_deck_not_english"] += 1
        return []
    if not name:
        return []  # counted by `deck_names`
    headings = {_key(str((c.metadata or {}).get("section") or "")) for c in chunks}
    where = in_deck(name)
    found: list[Fact] = []
    lines = 0
    for chunk in chunks:
        found += _only_children(chunk, headings, where, skipped, nlp)
        section = str((chunk.metadata or {}).get("section") or "")
        example = bool(_EXAMPLE.search(section))
        # three "X – Y" bullets on a slide outside a glossary: a list of kinds or parts ("People – …", "Process –
        # inadequate or failed processes", "Reputation – …"), each a category and what falls in it
        pairs = sum(1 for raw in chunk.text.split("\n") if not raw.startswith("Notes:")
                    and (m := _LINE.match(_BULLET.sub("", raw).strip())) and not _spelled(m.group("t"), m.group("d"))
                    and not _TITLE_CASE.fullmatch(m.group("d").strip()))
        listed = pairs >= 3 and not _GLOSSARY.search(section)
        for raw in chunk.text.split("\n"):
            line = raw.strip()
            if not line or _key(line) in headings or _key(re.sub(r"\s*\(slide \d+.*\)$", "", line)) in headings:
                continue
            lines += 1
            if "://" in line or "www." in line:
                skipped["slide_line_url"] += 1  # "Go to http://…/staff.html for office hours": a link, no fact
                continue
            if line.startswith("Notes:"):
                found += _notes(chunk, line[len("Notes:"):], where, skipped, nlp)
                continue
            if example:
                found += _acronyms(chunk, _BULLET.sub("", line).strip(), where, skipped)
                if _LINE.match(_BULLET.sub("", line).strip()):
                    skipped["slide_example_particular"] += 1
                continue
            found += _line_facts(chunk, _BULLET.sub("", line).strip(), where, skipped, nlp, listed)
    if not lines:
        skipped["slide_deck_no_text"] += 1
    return _one_answer(found, skipped)


def _one_answer(found: list[Fact], skipped: Counter) -> list[Fact]:
    """A term or label the deck states with two answers asks nothing; one stated twice alike is asked once."""
    def term(f: Fact) -> tuple[str, str]:  # "the range" and "range" are one term
        return f.relation, re.sub(r"^(?:a|an|the)\s+", "", fold(f.subject))

    answers: dict[tuple[str, str], set[str]] = {}
    for f in found:
        answers.setdefault(term(f), set()).add(normalize(f.answer))
    kept: list[Fact] = []
    seen: set[tuple[str, str]] = set()
    for f in found:
        key = term(f)
        if len(answers[key]) > 1:
            skipped["slide_two_answers"] += 1
            continue
        if key not in seen:
            seen.add(key)
            kept.append(f)
    return kept


def _level(raw: str) -> int:
    """A bullet line's level ("- " 0, "  - " 1, …), -1 for a line that is no bullet."""
    m = re.match(r"^( *)- ", raw)
    return len(m.group(1)) // 2 if m else -1


def _only_children(chunk: Any, headings: set[str], where: str, skipped: Counter, nlp: Any) -> list[Fact]:
    """A bullet naming a term whose one sub-bullet says what it is: "- Database" / "  - A structure that contains
    logically related data in a single repository". The sub-bullet opens with an article (a definition's genus);
    a term with two sub-bullets or more ("Data:" / "Unprocessed information" / "Building blocks of information")
    has no one answer and is left."""
    lines = chunk.text.split("\n")
    out: list[Fact] = []
    for n, raw in enumerate(lines[:-1]):
        level, term = _level(raw), _BULLET.sub("", raw).strip().rstrip(":").strip()
        child = lines[n + 1]
        if level < 0 or _level(child) != level + 1 or _LINE.match(term):
            continue
        if n + 2 < len(lines) and _level(lines[n + 2]) > level:
            continue  # a second sub-bullet: a list under the term, no definition of it
        text = _BULLET.sub("", child).strip()
        if not re.match(r"^(?:A|An|The)\s", text) or not _is_term(term):
            continue
        definition = _definition(term, text, skipped, nlp)
        if definition:
            out.append(_fact(chunk, f"{term}\n{text}", term, TERM, definition, f"In {where}, {_what(term)} {{s}}?"))
    return out


def _notes(chunk: Any, notes: str, where: str, skipped: Counter, nlp: Any) -> list[Fact]:
    """The speaker's sentences: a term they define ("A domain model is an object model …")."""
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", " ".join(notes.split())):
        out += _defined(chunk, sentence, where, skipped, nlp)
        out += _acronyms(chunk, sentence, where, skipped)
    return out


def _line_facts(chunk: Any, line: str, where: str, skipped: Counter, nlp: Any, listed: bool = False) -> list[Fact]:
    out = _acronyms(chunk, line, where, skipped)
    m = _LINE.match(line)
    if m:
        term, rest = m.group("t").strip(), m.group("d").strip().rstrip(".")
        if _CITATION.match(rest) or term.endswith("/"):
            skipped["slide_citation_or_path"] += 1  # "Strong Inference – Platt 1964", "lib/ – packages for the env"
            return out
        if len(_SEPARATOR.findall(line)) >= 2:
            # "LinkedIn – 100 million – 2012", "Contact – fb : jane.doe", "Interest Ratio: (payments – …)": a
            # row of a list or a formula, no term beside its meaning
            skipped["slide_line_separators"] += 1
            return out
        spelled = _spelled(term, rest)
        if spelled:
            return [*out, _fact(chunk, line, term, ACRONYM, spelled, stand_for(term, where))]
        person = _NAME.match(rest) if _label(term) in _PEOPLE else None
        if person:
            ask = f"Who is the {_label(term)} of {where}?"
            return [*out, _fact(chunk, line, term, VALUE, person.group("n"), ask, TruthType.PERSON.value)]
        value = _value(term, rest, skipped)
        if value:
            label = _label(term)
            ask = f"Who is the {label} of {where}?" if label in _PEOPLE else _value_question(label, where)
            return [*out, _fact(chunk, line, term, VALUE, value, ask, TruthType.PERSON.value if label in _PEOPLE else "")]
        if term.isupper() and len(term) <= 6 and not _spelled(term, rest):
            skipped["slide_acronym_gloss"] += 1  # "ISP – Separating queries from commands": the talk's gloss, no meaning
            return out
        definition = _definition(term, rest, skipped, nlp)
        if definition and len(term.split()) > 1 and all(w[:1].isupper() for w in term.split()) \
                and not re.match(r"(?i)^(?:a|an|the)\s", definition):
            # "Smart Walking Stick – Low cost edition for Developing markets": a product's name and its pitch; a
            # named thing is defined by its genus ("Physical Data Independence – the ability to modify …")
            skipped["slide_definition_name_pitch"] += 1
            return out
        if definition and _STUDY.match(definition) and any(w[:1].isupper() for w in term.split()[1:]):
            # "Barriers towards Leadership positions: A qualitative study among women in …": a study's title and
            # its subtitle, no term and its meaning
            skipped["slide_definition_study_title"] += 1
            return out
        if definition and listed and not re.match(r"(?i)^(?:a|an|the)\s", definition):
            # in a list of categories only a genus ("the overall logical structure of the database") defines its
            # term; "inadequate or failed processes" says what falls under "Process", not what a process is
            skipped["slide_definition_category_list"] += 1
            return out
        if definition:
            return [*out, _fact(chunk, line, term, TERM, definition, f"In {where}, {_what(term)} {{s}}?")]
        return out
    return [*out, *_defined(chunk, line, where, skipped, nlp)]


def _defined(chunk: Any, sentence: str, where: str, skipped: Counter, nlp: Any) -> list[Fact]:
    """"A log is a timestamped message …" (the papers' reader), "SLOC is a count of lines …" (a bullet's)."""
    found = defined_term(sentence.rstrip(), skipped)
    if found is not None:
        term, genus = found
        # the papers' genus is cut at its first clause ("a linear list in" of "… in which elements are inserted",
        # "a collection of operations" of "… that performs a single logical function"): the slide's whole predicate
        bare = term.split(" ", 1)[1]
        definition = _definition(bare, sentence[sentence.find(genus):], skipped, nlp)
        if definition:
            return [_fact(chunk, sentence, term, TERM, definition, f"In {where}, what is {{s}}?")]
        return []
    m = _IS.match(sentence.rstrip(" ."))
    if m and not m.group("art") and m.group("t")[:1].islower():
        # "value is a field of class Thingy", "mids are the midpoints …": a bullet opens with a capital, so a
        # lowercase subject is a program's name or the tail of a line broken across two ("… of the / range is …")
        skipped["slide_not_a_term"] += 1
        return []
    if m and _is_term(m.group("t")):
        term = f"{m.group('art').lower()} {m.group('t')}" if m.group("art") else m.group("t")
        definition = _definition(m.group("t"), m.group("d"), skipped, nlp)
        if definition:
            # "Git is a distributed version control system": written with no article, the term is a name (or a
            # mass noun) and is asked with none ("what is git?", never "what is a git?")
            return [_fact(chunk, sentence, term, TERM, definition, f"In {where}, {_what(m.group('t'))} {{s}}?",
                          named=not m.group("art"))]
    return []


def _acronyms(chunk: Any, text: str, where: str, skipped: Counter) -> list[Fact]:
    """"Message Authentication Code (MAC)": the papers' reader of an acronym's parenthesis."""
    return [_fact(chunk, text, acronym, ACRONYM, expansion, stand_for(acronym, where))
            for acronym, expansion in acronyms(text, Counter())]


def _fact(chunk: Any, sentence: str, subject: str, relation: str, answer: str, ask: str, kind: str = "",
          named: bool = False) -> Fact:
    subject = _subject(subject)
    lead = re.match(r"^(a|an)\s", answer, re.IGNORECASE)
    if (relation == TERM and lead and not named and subject[:1].islower() and not re.match(r"^(?:a|an|the)\s", subject)
            and not subject.split()[-1].endswith("ing") and _what(subject) == "what is"):
        # "slicing", a practice, takes no article, nor "vectors" ("what are a vectors?")
        # "Database" / "A structure that contains …": a countable thing, asked "what is a database?"
        subject = ("an " if subject[0] in "aeiou" else "a ") + subject
    return Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=sentence, subject=subject,
                about_doc=False, relation=relation, answer=answer, kind=kind or TruthType.ENTITY.value, ask=ask)


def _subject(term: str) -> str:
    """A term as a question writes it mid-sentence: "Metadata" → "metadata"; "SQL", "Git", "NServiceBus" kept."""
    words = term.split()
    first = words[0]
    if first[:1].isupper() and first[1:].islower() and not any(w[:1].isupper() for w in words[1:]):
        return " ".join([first.lower(), *words[1:]])
    return term


def _value_question(label: str, where: str) -> str:
    """"In …, what is the target rate?"; a label that counts people or things is asked how many ("Web users: 2
    billion": "what is the web users?" was session 55's reporting read), another plural label takes "are"."""
    last = label.split()[-1].lower()
    if last in _COUNTED:
        return f"In {where}, how many {label} are there?"
    return f"In {where}, {_what(label)} the {label}?"


def _what(term: str) -> str:
    last = term.split()[-1]
    # "econometrics", "statistics", "physics": a field's name ends in -ics and is asked "what is"
    plural = (last.endswith("s") and not last.endswith(("ss", "us", "is", "ics")) and not last.isupper()
              and len(last) > 3)
    return "what are" if plural else "what is"


def _label(term: str) -> str:
    return term if term.isupper() or re.search(r"[a-z][A-Z]|[A-Z]{2}", term) else term.lower()


def _is_term(term: str) -> bool:
    words = term.split()
    if not 1 <= len(words) <= MAX_TERM_WORDS or fold(words[0]).rstrip(".") in _NOT_TERMS:
        return False
    if fold(words[-1]) in MINOR or any(w.isdigit() for w in words):
        return False  # "Step 1", "Rule of"
    if any(re.fullmatch(r"[A-Za-z]", w) for w in words) or len(re.sub(r"[^A-Za-z]", "", term)) < 3:
        return False  # "P is a predicate", "If S is a subtype of T", "Di is the data type of …": a formula's variable
    if any(re.search(r"\w['’](?!s\b)\w", w) for w in words):
        return False  # "l'in: original data, plus retransmitted data": λ'in, a formula's variable that lost its letter
    if any(fold(w) in ("and", "or", "&") for w in words):
        return False  # "Bertha and Xavier are an unstable pair", "Data redundancy and inconsistency": two things
    return not re.search(r"\d", words[0]) and all(re.search(r"[A-Za-z]", w) for w in words)


def _spelled(term: str, rest: str) -> str:
    """The expansion "SQL: Structured Query Language" states: every word's initial, in order, the acronym's letters
    (a minor word may be skipped, as the papers' reader lets it)."""
    if not re.fullmatch(r"[A-Z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)?", term) or sum(c.isupper() for c in term) < 2:
        return ""
    spelled = letters(term)
    words = re.split(r",|\s\(|\s[–—-]\s", rest, maxsplit=1)[0].split()  # "KLOC: kilo lines of code, or …"
    if len(spelled) < 2 or not 2 <= len(words) <= 8 or not all(re.fullmatch(r"[A-Za-z][\w'-]*", w) for w in words):
        return ""
    initials = [p[0].lower() for w in words if w.lower() not in MINOR for p in w.split("-") if p]
    every = [p[0].lower() for w in words for p in w.split("-") if p]
    found = " ".join(words)
    return found if spelled in (initials, every) and found.upper() != found else ""


def _value(term: str, rest: str, skipped: Counter) -> str:
    """A labelled value: a figure, a month and day, or a titled person, short, under a label that is no code."""
    if not (re.search(r"\d", rest) or _TITLED.match(rest)):
        return ""
    if not _is_term(term) or " " not in term and (re.search(r"[a-z][A-Z]", term) or term.isupper()):
        skipped["slide_value_label"] += 1  # "ParentId: 2" is a sample's field, "BSCS – FALL 2017" a course's code
        return ""
    if term.split()[0].lower().endswith("ing"):
        skipped["slide_value_label"] += 1  # "Resolving deltas: 100% (2624/2624), done": a program's output line
        return ""
    if len(rest.split()) > MAX_VALUE_WORDS or _CODE.search(rest) or rest.endswith("?"):
        skipped["slide_value_shape"] += 1
        return ""
    if re.fullmatch(r"[\d\s.,:/-]+", rest) and not re.search(r"\d{2,}|\d\.\d", rest):
        skipped["slide_value_bare_number"] += 1  # "Week: 1": a one-digit count says nothing a reader would ask
        return ""
    if not (re.search(r"\d[\d,.]*\s*(?:%|[A-Za-z$€£]+)|[$€£]\s?\d|\d{2,}|\d\.\d", rest) or _MONTH.search(rest) or _TITLED.match(rest)):
        skipped["slide_value_shape"] += 1
        return ""
    if not (_FIGURE_FIRST.match(rest) or _MONTH.match(rest) or _TITLED.match(rest)):
        # "Dates, containing a (4 digit) year, month and date", "to user 1, to user 2": prose holding a figure
        skipped["slide_value_shape"] += 1
        return ""
    if fold(term).split()[-1] not in _MEASURES and _label(term) not in _PEOPLE:
        # "Columns: 19" (R's output), "Code: CSC2203", "Theory: 3 Absences allowed", "Office: Room 301", "Due: …":
        # "what is the columns / the theory / the due?" asks nothing a reader says; a measure or a date does
        skipped["slide_value_label_vague"] += 1
        return ""
    return rest


def _definition(term: str, rest: str, skipped: Counter, nlp: Any = None) -> str:
    """What a line says the term is, or "" (counted) where it reads as no definition."""
    if not _is_term(term):
        skipped["slide_not_a_term"] += 1
        return ""
    text = re.split(r"(?<=[a-z)])\.\s", rest, maxsplit=1)[0].strip().rstrip(".;,!")
    if re.match(r"[,.;:)\]]", text):
        skipped["slide_definition_cut"] += 1  # "Probit model: , the standard normal density": its formula is lost
        return ""
    if _SEPARATOR.search(text):
        # "Data is the new oil for industrial revolution : Mukesh Ambani": a quotation and its speaker, fields
        skipped["slide_line_separators"] += 1
        return ""
    if text.endswith(":") or _MATH_LOST.search(text):
        # "a field of study concerned with:" opens a list; "a mathematical relation among n  2 entities", "an
        # eigenvector of if": an equation the reader could not read was cut out of the line
        skipped["slide_definition_cut"] += 1
        return ""
    text = re.sub(r"\s*\([^()]*\)$", "", text)  # "a sigmoid function (“S” curve)": the aside is no part of it
    if len(text.split()) > MAX_DEFINITION_WORDS:
        # "probability distribution used to calculate population parameters, when …": the definition to its first
        # clause set off by a comma or a dash; a restrictive "that …" / "who …" is the definition's, never cut
        head = _CLAUSE.split(text, maxsplit=1)[0].strip()
        text = head if len(head.split()) >= 3 else text
    words = text.split()
    if not 2 <= len(words) <= MAX_DEFINITION_WORDS:
        skipped["slide_definition_length"] += 1
        return ""
    if len(words) >= 2 and all(w[:1].isupper() for w in words if w.lower() not in MINOR and w[:1].isalpha()):
        # "Intellectual Property – Computer Reliability" (a syllabus's topics in pairs), "Inference: Overall Model"
        # (a slide's subtitle): a name set beside a name, no meaning
        skipped["slide_definition_title_case"] += 1
        return ""
    first = fold(words[0]).strip("“”\"'(")
    if first.endswith("ing") and not fold(term).split()[0].endswith("ing"):
        skipped["slide_definition_shape"] += 1  # "High coupling – testing implementation": what it leads to
        return ""
    second = fold(words[1]).strip("“”\"'(") if fold(words[0]) in ("a", "an", "the") else first
    if (first in _NOT_DEFINITIONS or first.endswith("ly") or "?" in text or _CODE.search(text) or "http" in text
            or re.search(r"[“”\"]", text)):  # "an “artifact” of all s/w projects": scare quotes, a remark on it
        skipped["slide_definition_shape"] += 1
        return ""
    if re.search(r"\d", text) or "…" in text or "..." in text or re.search(r"\betc\b", text):
        # "3-bit channel num, 1-bit sequence num", "coax cable, optical fiber…", "the median is the 9th term, 15": a
        # figure is the worked example's, a definition holds none
        skipped["slide_definition_shape"] += 1
        return ""
    if re.search(r"\bthan\b", text):
        # "an order of magnitude more efficient than a context switch": a property the slide compares, no genus
        skipped["slide_definition_property"] += 1
        return ""
    if re.fullmatch(r"[\d\s%.,/-]+", text) or _LIST.search(text) or text.count(",") >= 2 or re.search(r",\s+[A-Z]", text):
        skipped["slide_definition_shape"] += 1  # a figure, or a list of things: no one thing the term is
        return ""
    if any(re.fullmatch(r"[A-Z][,.;:)]?", w) for w in words[1:]):
        skipped["slide_definition_variable"] += 1  # "variable S in the outer query", "a superkey of R": the example's
        return ""
    lowered = {fold(w).strip(".,;:()“”\"'") for w in words}
    if lowered & _CONTEXT_WORDS or second in _JUDGING or fold(term).split()[-1] in lowered:
        # "the parent of these hypotheses", "an essential part of the course", "Index – find and return index"
        skipped["slide_definition_context"] += 1
        return ""
    if len(words) < 4 and not _QUALIFIED.search(" ".join(words[1:])):
        # "the inner query", "comparison tool", "a predicate", "Dynamic stuff": a bare genus names a class, not
        # this term's place in it ("data about data", "a portion of a string" say what sets it apart)
        skipped["slide_definition_bare"] += 1
        return ""
    if nlp is not None and not (_noun_phrase(nlp, term, term=True) and _noun_phrase(nlp, text, term=False)):
        skipped["slide_definition_not_a_noun_phrase"] += 1  # "Hybrid – pick a standard and extend", "Immutable – once …"
        return ""
    return text


def _noun_phrase(nlp: Any, text: str, *, term: bool) -> bool:
    """Whether the parser reads `text` as a noun phrase (a term, a definition), or for a definition an infinitive
    ("Slicing – to get portions of a string"): what a student would ask "what is …?" of and be answered by."""
    doc = nlp(text)
    tokens = [t for t in doc if not t.is_punct]
    if not tokens:
        return False
    lead = tokens[0]
    if not term and lead.lower_ == "to" and len(tokens) > 1 and tokens[1].pos_ == "VERB":
        return True
    if term and len(tokens) == 1 and lead.tag_ == "VBG":
        return True  # "Slicing", "Refactoring": a gerund names a practice
    if not term and lead.tag_ == "VBG":
        return False  # "High coupling – testing implementation": what it leads to, not what it is
    if lead.pos_ in ("VERB", "AUX", "ADV", "ADP", "PRON", "SCONJ", "CCONJ", "INTJ"):
        return False
    if not term and lead.lower_.endswith("s") and lead.lower_ not in ("as", "is", "this", "its"):
        # "establishes performance standards …", "Describes observations …", "displays and filters …": read after
        # a subject ("It establishes …"), the verb says what the term does, not what it is
        framed = [t for t in nlp("It " + text[:1].lower() + text[1:]) if not t.is_punct]
        if len(framed) > 1 and framed[1].tag_ == "VBZ":
            return False
    roots = [t for t in tokens if t.dep_ == "ROOT"]
    return bool(roots) and roots[0].pos_ in ("NOUN", "PROPN")


def first_heading(chunks: Sequence[Any]) -> str:
    """The first slide's title where the reader kept it beside the deck's (`first_slide_title`, session 53), else the
    heading of the passage that opens slide 1 where that passage is slide 1's alone (an index built before: the
    chunker joins a tiny title slide to the next, and the joined passage carries the next slide's section)."""
    if not chunks:
        return ""
    meta = chunks[0].metadata or {}
    if meta.get("first_slide_title"):
        return str(meta["first_slide_title"])
    section = str(meta.get("section") or "")
    if str(meta.get("page") or "") == "1" and section and not section.endswith("no title)"):
        if normalize(chunks[0].text).startswith(normalize(section)):
            return section
    return ""
