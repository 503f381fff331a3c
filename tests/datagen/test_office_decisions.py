"""datagen.office_decisions: a design document's issue, its options and the decision naming one by its number, read
as one chain (issue 36, session 57)."""

from __future__ import annotations

from collections import Counter

from datagen_fixtures import asked_of

from corpus_tools.types import Chunk
from datagen.doc_office import office_facts
from datagen.office_decisions import decision_facts

DESIGN = """Design Issues
Issue 1: Database Selection
Option 1.1: Using MongoDB as database for our app.
Option 1.2: Using Mysql as database for our app.
Decision: Option 1.1. Since it is faster with millions of queries.
Issue 2: Browser Implementation Selection
Option 1: HTML
Option 4: Vaadin
Decision:
We chose Option 4 for two reasons: our team knows Java.
Issue 3: Threshold for seismic events
Option 1: User defined
Option 2: Developer set default
Decision:
We decided that having both options is viable.
Issue 4: Map API
Option 1: Google
Option 2: Bing
Decision: We compared option 1 and option 2 and chose Google.
Issue 5: Sorting
Opinion 5.1: In all categories, requests are shown in the order of time ascending.
Opinion 5.2: Requests will be listed based on post time and those with long distance will be filtered out.
Decision: Opinion 5.2, because it makes more sense.
"""


def _chunk(text: str, n: int = 0) -> Chunk:
    doc = "t/Design Document.docx"
    return Chunk(f"{doc}#{n}", doc, text, 0, len(text.split()), {"title": "", "file_name": "Design Document.docx"})


def test_the_option_a_decision_names_by_its_number_is_asked_and_an_unclear_or_long_one_is_not():
    skipped: Counter = Counter()
    facts = decision_facts([_chunk(DESIGN)], "the Design Document for Blitz", skipped)
    assert asked_of(facts) == {
        "In the Design Document for Blitz, which option was chosen for the design issue “Database Selection”?": "Using MongoDB as database for our app",
        "In the Design Document for Blitz, which option was chosen for the design issue “Browser Implementation "
        "Selection”?": "Vaadin",
    }
    # the decision's passage holds the option it names
    assert facts[1].sentence == "Option 4: Vaadin\nWe chose Option 4 for two reasons: our team knows Java."
    # "both options" names none, "option 1 and option 2" two; a thirteen-word option is too long to say
    assert skipped["office_decision_unclear"] == 2 and skipped["office_decision_long"] == 1


def test_a_decision_in_another_passage_than_its_options_asks_nothing():
    head, _, tail = DESIGN.partition("Decision: Option 1.1.")
    facts = decision_facts([_chunk(head), _chunk("Decision: Option 1.1." + tail, 1)], "the doc", Counter())
    assert [f.subject for f in facts] == ["Browser Implementation Selection"]


def test_an_office_documents_facts_include_its_decisions():
    asked = asked_of(office_facts("t/Design Document.docx", "the Design Document", [_chunk(DESIGN)], Counter()))
    assert (
        asked[
            "In the Design Document, which option was chosen for the design issue “Browser Implementation Selection”?"
        ]
        == "Vaadin"
    )
