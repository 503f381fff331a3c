"""Relative dates in chats and mail (datagen.dates): the forms people write, the answers they give
from the date the document was written, the days an answer may mean, and how a question says it."""

from __future__ import annotations

import datetime as dt

import pytest

from datagen.dates import date_phrase, date_span, relative_dates

ANCHOR = dt.date(2024, 3, 14)  # a Thursday


@pytest.mark.parametrize(
    ("sentence", "answer"),
    [
        ("I got a kitten two weeks ago!", "two weeks before 14 March 2024"),
        ("A friend made it for me ten years ago.", "2014"),
        ("I quit a month ago.", "February 2024"),
        ("That roadtrip this past weekend was insane!", "the weekend before 14 March 2024"),
        ("Last Fri I took the kids to a workshop.", "the Friday before 14 March 2024"),
        ("I joined a new group last Tues.", "the Tuesday before 14 March 2024"),
        ("We are going camping next weekend.", "the weekend after 14 March 2024"),
        ("I went three days ago.", "11 March 2024"),
    ],
)
def test_the_relative_dates_people_write(sentence: str, answer: str) -> None:
    """Old code: none of these resolved (only "N days ago", "last week/weekend/month/year", full weekdays)."""
    assert [a for _, a in relative_dates(sentence, ANCHOR)] == [answer]


@pytest.mark.parametrize(
    "sentence",
    ["I started about five years ago.", "We met a few weeks ago.", "It was around two years ago.", "Last Sunflower Fest."],
)
def test_vague_or_approximate_times_give_no_date(sentence: str) -> None:
    assert relative_dates(sentence, ANCHOR) == []


def test_the_days_an_answer_may_mean_and_how_a_question_says_it() -> None:
    d = dt.date
    assert date_span("13 March 2024") == (d(2024, 3, 13), d(2024, 3, 13))
    assert date_span("the week before 14 March 2024") == (d(2024, 2, 29), d(2024, 3, 13))
    assert date_span("two weeks before 14 March 2024") == (d(2024, 2, 22), d(2024, 3, 7))
    assert date_span("February 2024") == (d(2024, 2, 1), d(2024, 2, 29))
    assert date_span("2014") == (d(2014, 1, 1), d(2014, 12, 31))
    assert date_span("the Friday before 14 March 2024") == (d(2024, 3, 7), d(2024, 3, 13))
    assert date_span("sometime in spring") is None
    assert date_phrase("13 March 2024") == "on 13 March 2024"
    assert date_phrase("the Friday before 14 March 2024") == "on the Friday before 14 March 2024"
    assert date_phrase("the week before 14 March 2024") == "in the week before 14 March 2024"
    assert date_phrase("two weeks before 14 March 2024") == "two weeks before 14 March 2024"
    assert date_phrase("February 2024") == "in February 2024"
