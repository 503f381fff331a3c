"""datagen.office_statements: a requirement's time limit, a budget and the next meeting's day stated in a plain
sentence of an office document (issue 36, session 57)."""

from __future__ import annotations

from collections import Counter

from datagen_fixtures import asked_of

from corpus_tools.types import Chunk
from datagen.doc_office import office_facts
from datagen.office_statements import statement_facts

CHARTER = """Project Charter
- Project budget $50,000.
- Budget constraints: Total budget for drone hardware procurement is $300,000 USD.
Search results should be displayed within a second. Login should be validated within 2 seconds.
- Performance Requirement Database should be updated within a second.
It should load within 3 seconds.
The goal is to keep the budget below $100 dollars.
Pages shall load within 2 seconds of the request.
"""


def _chunk(text: str, n: int = 0, doc: str = "t/Project Charter.docx") -> Chunk:
    return Chunk(f"{doc}#{n}", doc, text, 0, len(text.split()), {"title": "", "file_name": doc.split("/")[-1]})


def test_a_time_limit_and_a_budget_stated_whole_are_asked_and_a_pronoun_or_a_heading_subject_is_not():
    skipped: Counter = Counter()
    asked = asked_of(statement_facts([_chunk(CHARTER)], "the Project Charter", skipped))
    assert asked == {
        "According to the Project Charter, what is the project budget?": "$50,000",
        "According to the Project Charter, what is the total budget for drone hardware procurement?": "$300,000 USD",
        "According to the Project Charter, within what time should search results be displayed?": "a second",
        "According to the Project Charter, within what time should login be validated?": "2 seconds",
    }
    assert skipped["office_statement_subject"] == 2


def test_the_next_meeting_is_asked_only_where_the_document_gives_one():
    one = "Minutes\nThe next meeting will be held on 4 May 2024."
    assert asked_of(statement_facts([_chunk(one)], "the minutes", Counter())) == {
        "According to the minutes, when is the next meeting?": "4 May 2024"
    }
    log = one + "\nNext meeting: 11 May 2024"
    skipped: Counter = Counter()
    assert statement_facts([_chunk(log)], "the minutes", skipped) == []
    assert skipped["office_statement_two_values"] == 2


def test_an_office_documents_facts_include_its_statements():
    asked = asked_of(office_facts("t/Project Charter.docx", "the Project Charter", [_chunk(CHARTER)], Counter()))
    assert asked["According to the Project Charter, what is the project budget?"] == "$50,000"
