"""Aside sections: the parts of a filing that set out risks, proceedings, controls and exhibits, not results.

A narrowed search (a question naming its filing) ranks the filing's own chunks, and in a filing the
words of most questions ("spinning off business segments", "the new CEO", "debt") recur in its risk
factors, its legal proceedings, its controls, its exhibit index and the exhibits filed with it (an 8-K's
Item 9.01 attaches the press release and the letters behind the Item that answers). Those sections
state what may happen and what is attached, rarely what happened; a question about them names them
("What legal proceedings …", "What risks …").

An 8-K's exhibits. Item 9.01 "Financial Statements and Exhibits" lists what is attached; the exhibits
themselves follow the signatures, and the structure reader (`corpus_tools.structure`) gives each a section
of its own ("Exhibit 99.1 > …", "Exhibit 10.1 > …"). They stay aside unless the question names exhibits:
an attached press release (Exhibit 99) restates the Item it supports (a new CEO's appointment, a vote),
and an attached credit agreement or indenture, often also filed as Exhibit 99, repeats every word of
the Item in a hundred pages of legal text. Measured (session 34): treating Exhibit 99 as content lost one
FinanceBench tuning question whose evidence is the Item (its press release, which says the same, took
the top 5) and won none on either tuning part; the questions of the tuning parts about 8-Ks are all
answered in their Items.

`aside_sections(query, sections)` says, per chunk section path ("Part II > Item 1A. Risk Factors"), whether
the chunk lies in such a section that the question does not name (a section with no name is never
aside); `Corpus.search` multiplies those chunks' fused scores by 1 - `SearchConfig.aside_section_weight`
in searches narrowed to named documents. Placed lower, never removed. Chosen on the two filings tuning
halves together (docugami's 10-Qs and FinanceBench, session 33): see `SearchConfig.aside_section_weight`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# A section name (matched inside the lowercased path) → the question words that name it: a question holding
# one of them asks about that section, which is then not aside.
ASIDE = {
    "risk factors": {"risk", "risks", "risky"},
    "legal proceedings": {"legal", "proceeding", "proceedings", "litigation", "lawsuit", "lawsuits"},
    "controls and procedures": {"control", "controls", "procedures"},
    "unresolved staff comments": {"staff", "sec", "comments"},
    "mine safety": {"mine", "safety"},
    "exhibits": {"exhibit", "exhibits", "attached", "attachment"},
    "signature": {"signature", "signatures", "signed"},
    "10-k summary": {"summary", "subsidiary", "subsidiaries"},
}
# An attached exhibit's own section (the structure reader's "Exhibit 99.1 > …"): aside as the exhibits are.
_ATTACHED = re.compile(r"^exhibit\s+\d{1,3}\b")
_WORD = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)?")


def aside_sections(query: str, sections: Sequence[str | None]) -> list[bool]:
    """Per section path: True when it names an aside section (`ASIDE`) the query holds none of the words of."""
    words = set(_WORD.findall(query.lower()))
    unnamed = [name for name, naming in ASIDE.items() if not naming & words]
    out = []
    exhibits_unnamed = "exhibits" in unnamed
    for section in sections:
        path = section.lower() if isinstance(section, str) else ""
        if _ATTACHED.match(path):  # an attached exhibit: aside unless the question names exhibits
            out.append(exhibits_unnamed)
        else:
            out.append(bool(path) and any(name in path for name in unnamed))
    return out
