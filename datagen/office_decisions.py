"""A design document's decisions (issue 36, session 57): a chain the document states itself. Its design issues list
their options and then name the one chosen by its number:

    Issue 2: Language for Server
    Option 2.1: Use Java to implement the server.
    Option 2.2: Use Node.js to implement the server.
    Decision: Option 2.2. Since our product is cross-platform …

→ "In the Design Document for Blitz, which option was chosen for the design issue “Language for Server”?" → "Use
Node.js to implement the server": the decision says which number, the option list what it is (`DECISION`).

Read only where the issue, its options and the decision stand in one passage (the question's support is that
passage), the decision names exactly one of the issue's options ("Option 2.2", "option 1"; a template's "Opinion"
too), the issue is said in at most ten words and the chosen option in at most twelve; a decision naming two options
or none, or one the issue does not list, asks nothing (office_decision_unclear), nor does an option or issue too
long to say (office_decision_long).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from datagen.factbase import Fact
from datagen.mining import fold
from datagen.types import TruthType

DECISION = "doc:office_decision"

_ISSUE = re.compile(r"^(?:design\s+)?issue\s*#?\s*\d{1,2}\s*[:.\-–]\s*(?P<title>\S.*)$", re.IGNORECASE)
_OPTION = re.compile(
    r"^(?:option|opinion|alternative)\s*(?P<n>\d{1,2}(?:\.\d{1,2})?)\s*[:.\-–]\s*(?P<text>\S.*)$", re.IGNORECASE
)
_REF = re.compile(r"\b(?:option|opinion|alternative)\s*(\d{1,2}(?:\.\d{1,2})?)\b", re.IGNORECASE)
# a line that says what was chosen: "Decision: …", "We chose Option 4 for two reasons"
_DECIDES = re.compile(
    r"^decision\s*:|\b(?:chose|choose|chosen|decided|decide|selected|went with|go with)\b", re.IGNORECASE
)


def decision_facts(chunks: Sequence[Any], named: str, skipped: Counter) -> list[Fact]:
    """Each design issue's chosen option in one office document's passages (see the module docstring), each
    question naming the document as `named`."""
    found: dict[str, list[Fact]] = {}
    for chunk in chunks:
        issue, options = "", {}
        for line in (ln.strip() for ln in chunk.text.split("\n")):
            m = _ISSUE.match(line)
            if m:
                issue, options = m.group("title").strip(), {}
                continue
            m = _OPTION.match(line)
            if m and issue:
                options[m.group("n")] = (m.group("text").strip().rstrip("."), line)
                continue
            if re.fullmatch(r"(?i)decisions?\s*:?", line):
                continue  # "Decision:" over the paragraph that says it
            if not (issue and len(options) >= 2 and _DECIDES.search(line)):
                continue
            refs = set(_REF.findall(line))
            if len(refs) != 1 or next(iter(refs)) not in options:
                skipped["office_decision_unclear"] += 1
                issue, options = "", {}
                continue
            text, option_line = options[next(iter(refs))]
            if len(issue.split()) > 10 or len(text.split()) > 12:
                skipped["office_decision_long"] += 1
            else:
                found.setdefault(fold(issue), []).append(
                    Fact(
                        doc_id=chunk.doc_id,
                        chunk_id=chunk.chunk_id,
                        sentence=f"{option_line}\n{line}",
                        subject=issue,
                        about_doc=False,
                        relation=DECISION,
                        answer=text,
                        kind=TruthType.ENTITY.value,
                        ask=f"In {named}, which option was chosen for the design issue “{{s}}”?",
                    )
                )
            issue, options = "", {}  # one decision per issue
    out = []
    for facts in found.values():
        if len({fold(f.answer) for f in facts}) > 1:
            skipped["office_decision_unclear"] += len(facts)  # two issues of one name ("Issue 1: Sorting" twice)
            continue
        out.append(facts[0])
    return out
