"""A paper's bibliography: the reference list after its "References" heading (issue 34, session 49).

A reference list is dense with other papers' titles and the field's terms ("[12] … Skew binomial queues …"), so a
question about a term ranks another paper's reference entry beside the passage that defines it; an entry is never
the passage that answers. The PDF structure reader (`corpus_tools.structure`, with `CorpusConfig.paper_references`)
starts a section at a bibliography heading even when the paper sets it in body type (`is_heading`), and a passage
that reads as a list of citations after no heading (`reads_as_citations`) gets one; `Corpus.search` places the
chunks of such a section lower (`SearchConfig.bibliography_weight`) unless the question asks for references
(`asks_for_references`).
"""

from __future__ import annotations

import re

# the heading, on a line of its own: "References", "7. REFERENCES", "Bibliography", "Literature Cited"
_HEADING = re.compile(r"^\s*(?:§\s*)?(?:[0-9IVX]{1,4}\.?\s+)?(?P<w>references|bibliography|literature\s+cited|works\s+cited)\s*$",
                      re.IGNORECASE)
# an entry's opening: "[12] ", "[Knu73] ", "12. A. Author", "Lopatovska, I., & …"
_ENTRY = re.compile(r"^\s*(?:\[[A-Za-z+]{0,8}\d{1,4}[a-z]?\]|\d{1,3}\.\s+[A-Z]|[A-Z][A-Za-z'\-]+,\s+(?:[A-Z]\.\s?){1,3}[,&(])")
_YEAR = re.compile(r"\b(?:19[4-9]\d|20[0-3]\d)[a-z]?\b")
_QUESTION_WORDS = frozenset("reference references referenced cite cites cited citing citation citations bibliography "
                            "bibliographic".split())
_WORD = re.compile(r"[a-z]+")


def is_heading(line: str) -> bool:
    """Whether a line is a bibliography's heading ("References", "5 References", "§9 REFERENCES", "Bibliography"):
    capitalised, as a heading is (a line that is the word "references" alone is a sentence broken there)."""
    m = _HEADING.match(line)
    return m is not None and m.group("w")[0].isupper()


def is_section(section: str | None) -> bool:
    """Whether a section path ("Bluefin > References") lies in a bibliography: one of its headings is one."""
    return isinstance(section, str) and any(is_heading(name) for name in section.split(" > "))


def reads_as_citations(text: str) -> bool:
    """Whether a passage reads as a list of citations: three entries at least, most lines in an entry that opens
    with a reference mark or an author's name, and a year for each two entries or more (a numbered list of steps
    names no years)."""
    lines = [line for line in text.splitlines() if line.strip()]
    entries = sum(1 for line in lines if _ENTRY.match(line))
    years = len(_YEAR.findall(text))
    return entries >= 3 and years >= max(3, entries // 2) and entries * 4 >= len(lines)


def asks_for_references(query: str) -> bool:
    """Whether a question asks for references, citations or who cites (then a bibliography is what answers)."""
    return bool(_QUESTION_WORDS & set(_WORD.findall(query.lower())))
