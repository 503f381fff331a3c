"""Prose beside tables (issue 35): when a narrowed search's first five hits are all table pieces and two are
pieces of one statement, the prose passage a leg ranks best takes the lower piece's place."""

from __future__ import annotations

import pytest

from corpus_tools import Corpus, Document, SearchConfig
from corpus_tools.table_pieces import prose_beside_tables


def test_the_best_leg_ranked_prose_takes_the_lower_repeated_piece():
    # positions 0-4 tables (0 and 3 pieces of table "A"), 5 a table, 6 and 7 prose (7 ranked better by a leg)
    table_of = ["A", "B", "C", "A", "D", "E", None, None]
    leg_rank = [3, 4, 5, 6, 7, 2, 9, 1]
    assert prose_beside_tables(table_of, leg_rank) == [0, 1, 2, 4, 7, 3, 5, 6]
    # nothing changes: a prose hit already among the first five; no table repeated; no prose a leg ranked
    assert prose_beside_tables(["A", "B", None, "A", "D", None], [1, 2, 3, 4, 5, 6]) == list(range(6))
    assert prose_beside_tables(["A", "B", "C", "D", "E", None], [1, 2, 3, 4, 5, 6]) == list(range(6))
    assert prose_beside_tables(["A", "A", "C", "D", "E", None], [1, 2, 3, 4, 5, None]) == list(range(6))
    assert prose_beside_tables(["A", "A", "C"], [1, 2, 3]) == [0, 1, 2] and prose_beside_tables([], []) == []


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="differ in length"):
        prose_beside_tables(["A", None], [1])
    with pytest.raises(ValueError, match="prose_beside_tables"):
        SearchConfig(prose_beside_tables="yes")


# A statement long enough to be chunked into pieces that all name "net income" (the row match and the
# line-item ranking lift every piece), and the narrative that says why net income moved.
ITEMS = ["Net income", "Other comprehensive income", "Change in foreign currency translation, net of tax",
         "Change in unrealized gains on derivative instruments included in net income",
         "Adjustment for net gains realized and included in net income", "Total other comprehensive income",
         "Total comprehensive income"]
STATEMENT = "\n".join(["(in millions) | Three Months Ended April 1, 2023 | Three Months Ended March 26, 2022"]
                      + [f"{ITEMS[i % len(ITEMS)]} | {1000 + 37 * i:,} | {900 + 29 * i:,}" for i in range(40)])
HIGHLIGHTS = ("Quarterly Highlights. Weakness in foreign currencies relative to the U.S. dollar had an unfavorable "
              "impact on total net sales, which decreased 3% or $2.4 billion during the second quarter; the primary "
              "driver behind the change was lower net sales of iPhone.")
QUESTION = "In the second quarter of 2023, what was the primary driver behind the change in Vantor's net income?"


@pytest.fixture(scope="module")
def filing(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("indexes") / "pieces"
    vantor = {"company": "Vantor Graphics Corporation", "form": "10-Q"}
    docs = [Document("comprehensive", STATEMENT, title="Vantor Graphics 10-Q", metadata={**vantor, "kind": "table"}),
            Document("operations", STATEMENT.replace("comprehensive", "operating").replace("Other", "Segment"),
                     title="Vantor Graphics 10-Q", metadata={**vantor, "kind": "table"}),
            Document("highlights", HIGHLIGHTS, title="Vantor Graphics 10-Q", metadata={**vantor, "kind": "text"}),
            Document("risk", "The company may use derivative instruments to offset its business exposure to foreign "
                     "exchange risk.", title="Vantor Graphics 10-Q", metadata={**vantor, "kind": "text"})]
    Corpus.build(docs, path, config=config, progress=False).close()
    return path


def test_a_narrowed_search_keeps_a_slot_for_the_narrative_beside_the_statement(filing):
    assert SearchConfig().prose_beside_tables  # on by default
    with Corpus.open(filing) as on, Corpus.open(filing, search=SearchConfig(prose_beside_tables=False)) as off:
        before = off.search(QUESTION, k=5, constraints="auto")
        assert all(h.chunk.metadata["kind"] == "table" for h in before)  # the lifted pieces fill the first five
        assert len({h.chunk.doc_id for h in before}) < 5  # pieces of one statement repeat
        after = on.search(QUESTION, k=5, constraints="auto")
        assert [h.chunk.doc_id for h in after].count("highlights") == 1 and "2.4 billion" in after[4].chunk.text
        assert [h.chunk.chunk_id for h in after[:4]] == [  # the rest keep their order; the lower piece moved down
            h.chunk.chunk_id for h in before if h.chunk.chunk_id != _lower_repeat(before)][:4]
        longer = on.search(QUESTION, k=8, constraints="auto")
        assert [h.chunk.chunk_id for h in longer[:5]] == [h.chunk.chunk_id for h in after]  # the same at any k
        assert _lower_repeat(before) in [h.chunk.chunk_id for h in longer[5:]]  # moved down, never dropped
        # Not narrowed (no constraint, no where): row match does not apply, and neither does this rule.
        assert [(h.chunk.chunk_id, h.score) for h in on.search(QUESTION, k=5)] == [
            (h.chunk.chunk_id, h.score) for h in off.search(QUESTION, k=5)]


def _lower_repeat(hits) -> str:
    seen, last = set(), ""
    for h in hits:
        key = (h.chunk.doc_id, h.chunk.metadata.get("header"))
        if key in seen:
            last = h.chunk.chunk_id
        seen.add(key)
    return last
