"""What `ask` shows of a passage (context1.interfaces.excerpt): the figure asked for, whole table rows,
the rows that name the asked line item under another name."""

from __future__ import annotations

import re

import pytest

from context1.interfaces.excerpt import EXCERPT_CHARS, GAP, asks_for_figure, excerpt, units

# An MD&A paragraph as a PDF gives it: lines broken mid-sentence, the figure at the end of a line and the
# question's words on the next ones, then more sentences holding the question's words.
MDNA = (
    "Segment Highlights\n"
    "Weakness in foreign currencies relative to the U.S. dollar had an unfavorable impact on total sales, which "
    "fell 7% or $4.1 billion during\n"
    "the third quarter compared to the same quarter a year earlier. The decrease in the third quarter consisted\n"
    "primarily of lower hardware sales in the third quarter, partially offset by services in the quarter.\n"
    "During the third quarter the Company announced new hardware products and opened retail stores in the\n"
    "third quarter in several countries, and the services business reached a record level in the quarter.\n"
    "In the third quarter the Company also repurchased shares, paid dividends in the third quarter and issued\n"
    "notes in the third quarter to fund the repurchases planned for the next quarter of the year ahead.\n"
)
QUESTION = "Why did sales change in the third quarter?"


def test_the_figure_before_the_question_words_is_shown():
    """The sentence holding "$4.1 billion" starts a line before its question words: split at line ends, the
    excerpt opened after the figure ("the third quarter compared to…") and widened forward."""
    assert len(MDNA) > EXCERPT_CHARS + 100
    out = excerpt(MDNA, QUESTION)
    assert "$4.1 billion" in out and "7%" in out
    assert len(out) <= EXCERPT_CHARS + 4
    assert "during the third quarter compared" in out  # the sentence joined back across the line break


def test_a_sentence_longer_than_the_excerpt_is_cut_around_its_figure_and_words():
    """One sentence longer than the excerpt, the figure and the question's words in its middle: the cut
    keeps them (cut from the start, it showed neither)."""
    filler = ", ".join(["as operating conditions across several regions weighed on demand"] * 5)
    text = f"In a difficult market, {filler}, total sales fell $4.1 billion, or 7%, during the third quarter, {filler}."
    out = excerpt(text, QUESTION, max_chars=200)
    assert "$4.1 billion" in out and "7%" in out and "third quarter" in out
    assert out.startswith("… ") and out.endswith(" …") and len(out) <= 204


def test_a_figure_question_prefers_the_sentence_with_the_figure():
    text = ("Sales in the third quarter were discussed at length by management in the third quarter.\n\n"
            "Sales rose 12% to $9.8 billion in the third quarter.\n\n"
            + "Unrelated remarks follow here about other matters entirely. " * 12)
    out = excerpt(text, "How much did sales change in the third quarter?", max_chars=120)
    assert "$9.8 billion" in out


ROWS = [f"Line item number {i} of the statement | {1000 + i:,} | {2000 + i:,} | {3000 + i:,}" for i in range(30)]
TABLE = "\n".join([
    "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS",
    "(in millions) | Three Months Ended April 1, 2023 | Three Months Ended March 26, 2022",
    *ROWS[:14],
    "Technology and content | 7,709 | 6,306 | 15,166",
    *ROWS[14:],
])


def _whole_rows(out: str, source: str) -> None:
    rows = {" ".join(line.split()) for line in source.splitlines() if " | " in line}
    for line in out.splitlines():
        assert line == GAP or line in rows, f"not a whole row of the table: {line!r}"


def test_a_table_excerpt_is_whole_rows_with_the_asked_row_and_its_column_headings():
    """"R&D" is in no row's words: the line-item vocabulary finds "Technology and content" (Amazon's name for
    it); the excerpt is the column headings and rows around it, each whole, one per line, "…" for the rest."""
    assert len(TABLE) > 3 * EXCERPT_CHARS
    out = excerpt(TABLE, "How much did Amazon spend on R&D in the first quarter?")
    _whole_rows(out, TABLE)
    lines = out.splitlines()
    assert "Technology and content | 7,709 | 6,306 | 15,166" in lines
    assert lines[0] == GAP and lines[1].startswith("(in millions) | Three Months Ended April 1, 2023")
    assert GAP in lines[2:] and len(out) <= EXCERPT_CHARS + 4 * len(lines)


def test_the_components_of_a_derived_item_are_the_rows_shown():
    """Gross margin is printed nowhere; the rows it is computed from are what a reader needs."""
    table = "\n".join(["(in millions) | Q3 2023 | Q3 2022", *ROWS[:12], "Total net sales | 143,083 | 127,101",
                       *ROWS[12:20], "Operating expenses: Cost of sales | 75,022 | 70,268", *ROWS[20:]])
    out = excerpt(table, "What was Amazon's gross margin in the most recent 10-Q filing?")
    _whole_rows(out, table)
    assert "Total net sales | 143,083 | 127,101" in out.splitlines()
    assert "Operating expenses: Cost of sales | 75,022 | 70,268" in out.splitlines()


def test_a_row_wider_than_the_excerpt_is_cut_between_cells():
    row = "Revenue | " + " | ".join(f"{n:,}" for n in range(100_000, 100_000 + 60 * 997, 997))
    out = excerpt(row, "What was the revenue?", max_chars=120)
    assert out.endswith(" | …") and len(out) <= 120
    cells = row.split(" | ")
    assert all(c in cells for c in out.split(" | ")[:-1])


def test_units_keep_rows_and_join_sentences_across_line_breaks():
    text = "Net sales rose 5% during\nthe quarter. Costs fell.\n\nrespectively.\nA | 1 | 2\nB | 3 | 4\nAfter."
    got = [(u.text, u.row) for u in units(text)]
    assert got == [("Net sales rose 5% during the quarter.", False), ("Costs fell. respectively.", False),
                   ("A | 1 | 2", True), ("B | 3 | 4", True), ("After.", False)]


@pytest.mark.parametrize(("question", "figure"), [
    ("What was Apple's gross margin?", True), ("How much did Intel spend on R&D?", True),
    ("Why did net income change?", True), ("Who is the chief executive officer?", False),
    ("Which legal proceedings were mentioned?", False),
])
def test_which_questions_ask_for_a_figure(question, figure):
    assert asks_for_figure(question) is figure


def test_nothing_to_show():
    assert excerpt("", QUESTION) == "" and excerpt(" \n\n ", QUESTION) == ""
    assert re.fullmatch(r"Nothing here\.", excerpt("Nothing here.", QUESTION))


def test_a_deck_s_page_is_named_its_slide_and_any_other_page_a_page():
    from context1.interfaces.excerpt import place_labels

    assert place_labels("decks/Q3 review.PPTX", 4, "Results") == ["slide 4", "Results"]
    assert place_labels("reports/q3.pdf", 4, None) == ["page 4"]
    assert place_labels("notes.pptx.txt", 2, None) == ["page 2"]


def test_a_workbook_s_section_is_named_its_sheet_and_a_section_keeps_its_word():
    from context1.interfaces.excerpt import place_labels

    # xlsx_reader makes a section of each sheet: a bare "Budget 2023" under the file name reads as a heading
    assert place_labels("finance/plan.xlsx", None, "Budget 2023") == ["sheet Budget 2023"]
    assert place_labels("finance/plan.XLSM", None, "Q1 (hidden)", section_word="section ") == ["sheet Q1 (hidden)"]
    assert place_labels("notes/plan.md", None, "Plan > Budget", "Plan") == ["Budget"]
    assert place_labels("notes/plan.md", 3, "Budget", section_word="section ") == ["page 3", "section Budget"]
