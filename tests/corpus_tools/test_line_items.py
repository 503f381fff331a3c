"""The line-item vocabulary (issue 35): "gross margin" finds the "Gross profit" row, "R&D" Amazon's "Technology and
content", in row match and in the BM25 text of a search narrowed to filings; nothing else changes."""

from __future__ import annotations

import pytest

from corpus_tools import Corpus, Document, SearchConfig
from corpus_tools.bm25 import BM25Tokenizer
from corpus_tools.line_items import LINE_ITEMS, canonical_names, expansion, line_items
from corpus_tools.row_match import row_match_scores


def test_a_line_item_is_found_under_any_of_its_names():
    assert canonical_names("What was Amazon's R&D expenditure?") == ["research and development"]
    assert canonical_names("Operating expenses: Technology and content") == [
        "total operating expenses", "research and development"]
    assert canonical_names("NVIDIA's gross margin") == canonical_names("Gross profit") == ["gross profit"]
    assert canonical_names("Net earnings per share \u2013 diluted") == ["earnings per share"]  # longest name wins
    assert canonical_names("Total net sales") == canonical_names("revenue") == ["revenue"]
    # Words that also name other things are no line item; an abbreviation is matched as a word only.
    assert canonical_names("Sales and marketing") == [] and canonical_names("in three steps") == []
    assert line_items("") == [] and expansion("Who designed the lighthouse?") == ""
    words = expansion("What was the gross margin?").split()
    assert "profit" in words and "gross" not in words and "margin" not in words
    assert len({p for group in LINE_ITEMS for p in group}) == sum(len(g) for g in LINE_ITEMS)  # one group a name


STATEMENT = "\n".join([
    "(in millions) | Three Months Ended October 29, 2023 | Three Months Ended October 30, 2022",
    "Revenue | 18,120 | 5,931",
    "Cost of revenue | 4,720 | 2,754",
    "Gross profit | 13,400 | 3,177",
    "Operating expenses: Technology and content | 2,294 | 1,945",
    "Operating expenses: Sales, general and administrative | 689 | 631",
    "Operating income | 10,417 | 601",
])
OTHER_TABLE = "\n".join([
    "(in millions) | October 29, 2023 | January 29, 2023",
    "Corporate debt securities | 10,152 | 4,809",
    "Debt securities issued by the U.S. Treasury | 7,101 | 4,185",
])
# Prose about the margin that says the question's words more often than the statement, without the figure.
PROSE = [
    "Our overall gross margin increased in the quarter; gross margin benefited from a mix of products, and "
    "the gross margin of the prior year reflected inventory provisions that lowered gross margin.",
    "We expect gross margin to vary from quarter to quarter; the most recent quarter's gross margin is "
    "not indicative of gross margin in future quarters.",
    "How much Vantor will spend in a quarter depends on its programmes; spend is reviewed every quarter, and "
    "how much was spent in the most recent quarter is set out by the board.",
    "Vantor did spend more in the quarter on hiring; how much it will spend next quarter depends on demand.",
]
QUESTION = "What was Vantor's gross margin in the most recent quarter?"
SPEND = "How much did Vantor spend on R&D in the most recent quarter?"


def test_row_match_meets_a_row_named_otherwise():
    tokens = BM25Tokenizer()
    texts = [STATEMENT, OTHER_TABLE, PROSE[0]]
    plain = row_match_scores("How much did Vantor spend on R&D?", texts, tokens)
    assert plain == [0.0, 0.0, 0.0]  # "R&D" is no BM25 term, and no row says "research"
    named = row_match_scores("How much did Vantor spend on R&D?", texts, tokens, canonical_names)
    assert named[0] == pytest.approx(1.0) and named[1:] == [0.0, 0.0]  # the question's one line item, by name
    margin = row_match_scores(QUESTION, texts, tokens, canonical_names)
    assert margin[0] == pytest.approx(1.0) and row_match_scores(QUESTION, texts, tokens)[0] < 0.5
    # A question naming no line item scores as without the vocabulary.
    query = "Which debt securities did Vantor hold?"
    assert row_match_scores(query, texts, tokens, canonical_names) == row_match_scores(query, texts, tokens)


@pytest.fixture(scope="module")
def filing(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("indexes") / "filing"
    vantor = {"company": "Vantor Graphics Corporation", "form": "10-Q"}
    docs = [Document("statement", STATEMENT, title="Vantor Graphics 10-Q", metadata={**vantor, "kind": "table"}),
            Document("securities", OTHER_TABLE, title="Vantor Graphics 10-Q", metadata={**vantor, "kind": "table"})]
    docs += [Document(f"prose-{i}", text, title="Vantor Graphics 10-Q", metadata={**vantor, "kind": "text"})
             for i, text in enumerate(PROSE)]
    orchard = {"company": "Orchard Computer, Inc.", "form": "10-Q", "kind": "table"}
    docs.append(Document("orchard-statement", STATEMENT.replace("13,400", "36,413"), title="Orchard Computer 10-Q",
                         metadata=orchard))
    Corpus.build(docs, path, config=config, progress=False).close()
    return path


def test_a_narrowed_search_finds_the_row_under_its_other_name(filing):
    off = SearchConfig(line_item_names=False, line_item_expansion=False)
    assert SearchConfig().line_item_names and SearchConfig().line_item_expansion  # on by default
    with Corpus.open(filing, search=off) as plain:
        hits = plain.search(SPEND, k=4, constraints="auto")
        assert hits[0].chunk.doc_id != "statement"  # the prose says "spend ... quarter"; the row "Technology and content"
    with Corpus.open(filing) as named, Corpus.open(filing, search=off) as plain:
        for question in (SPEND, QUESTION):
            hits = named.search(question, k=4, constraints="auto")
            assert hits[0].chunk.doc_id == "statement" and "13,400" in hits[0].chunk.text
            assert len(hits) == 4  # a lift, not a filter
            # Not narrowed (no constraints, no where), both legs read the question as it is: nothing changes.
            assert [(h.chunk.chunk_id, h.score) for h in named.search(question, k=5)] == [
                (h.chunk.chunk_id, h.score) for h in plain.search(question, k=5)]


def test_config_refuses_a_non_boolean():
    with pytest.raises(ValueError, match="line_item_names"):
        SearchConfig(line_item_names="yes")


def test_a_table_naming_the_line_item_joins_a_narrowed_search_that_neither_leg_found(tmp_path, config):
    """The third ranking (SearchConfig.line_item_rows): the balance sheet whose "Inventories" row answers
    "inventory levels" is in neither leg's top when the question's other words are about supply chains."""
    sheet = "\n".join(["(in millions) | October 29, 2023 | January 29, 2023",
                       "Current assets: Cash and cash equivalents | 5,519 | 3,389",
                       "Current assets: Inventories | 4,779 | 5,159",
                       "Total current assets | 29,253 | 23,073"])
    prose = ["Our supply chain strategy compares inventory levels with demand across our logistics partners.",
             "Supply chain and logistics strategies changed the reported inventory levels we compare each quarter.",
             "We compare supply commitments, logistics capacity and inventory levels in our supply chain reviews."]
    vantor = {"company": "Vantor Graphics Corporation", "form": "10-Q"}
    docs = [Document("sheet", sheet, title="Vantor Graphics 10-Q", metadata={**vantor, "kind": "table"})]
    docs += [Document(f"p{i}", t, title="Vantor Graphics 10-Q", metadata={**vantor, "kind": "text"})
             for i, t in enumerate(prose)]
    Corpus.build(docs, tmp_path / "i", config=config, progress=False).close()
    question = "How do Vantor's inventory levels compare with its supply chain and logistics strategies?"
    narrow = SearchConfig(leg_k=2)  # each leg keeps its best two (k=2): prose, on both
    with Corpus.open(tmp_path / "i", search=SearchConfig(leg_k=2, line_item_rows=0)) as off, \
            Corpus.open(tmp_path / "i", search=narrow) as on:
        assert "sheet" not in [h.chunk.doc_id for h in off.search(question, k=2, constraints="auto")]
        hits = on.search(question, k=2, constraints="auto")
        assert hits[0].chunk.doc_id == "sheet"  # joined by the third ranking, lifted by its row
        assert [h.chunk.doc_id for h in on.search(question, k=2)] == [  # unnarrowed: untouched
            h.chunk.doc_id for h in off.search(question, k=2)]
    with pytest.raises(ValueError, match="line_item_rows"):
        SearchConfig(line_item_rows=-1)


def test_a_table_printing_a_derived_items_components_names_it():
    """Amazon prints "Total net sales" and "Cost of sales" but no gross-profit row: for "gross margin" that
    statement answers (line_items.DERIVED), a table with only one of the components does not."""
    from corpus_tools.line_items import derived_named

    assert derived_named({"gross profit"}, ["Total net sales", "Operating expenses: Cost of sales"]) == {"gross profit"}
    assert derived_named({"gross profit"}, ["Total net sales", "Fulfillment"]) == set()
    assert derived_named({"net income"}, ["Total net sales", "Cost of sales"]) == set()  # not a derived item
    assert derived_named({"free cash flow"}, ["Net cash provided by (used in) operating activities",
                                              "Purchases of property and equipment"]) == {"free cash flow"}
    tokens = BM25Tokenizer()
    question = "What was Orchard's gross margin in the most recent quarter?"
    texts = [SALES_STATEMENT, "(in millions) | 2023 | 2022\nTotal net sales | 143,083 | 127,101", PROSE[0]]
    scores = row_match_scores(question, texts, tokens, canonical_names)
    assert scores[0] == pytest.approx(1.0) and scores[1] < 0.5 and scores[2] == 0.0


SALES_STATEMENT = "\n".join([
    "(in millions) | Three Months Ended September 30, 2023 | Three Months Ended September 30, 2022",
    "Net product sales | 63,171 | 61,314",
    "Total net sales | 143,083 | 127,101",
    "Operating expenses: Cost of sales | 75,022 | 70,268",
    "Operating expenses: Fulfillment | 22,314 | 20,583",
    "Operating income | 11,188 | 2,525",
])


def test_a_narrowed_search_finds_the_statement_that_prints_a_derived_items_components(tmp_path, config):
    orchard = {"company": "Orchard Commerce, Inc.", "form": "10-Q"}
    docs = [Document("operations", SALES_STATEMENT, title="Orchard 10-Q", metadata={**orchard, "kind": "table"})]
    docs += [Document(f"prose-{i}", text.replace("Vantor", "Orchard"), title="Orchard 10-Q",
                      metadata={**orchard, "kind": "text"}) for i, text in enumerate(PROSE)]
    Corpus.build(docs, tmp_path / "i", config=config, progress=False).close()
    question = "What was Orchard's gross margin in the most recent quarter?"
    with Corpus.open(tmp_path / "i") as c:
        hits = c.search(question, k=3, constraints="auto")
        assert hits[0].chunk.doc_id == "operations" and "75,022" in hits[0].chunk.text


def test_a_liquidity_ratio_names_the_balance_sheet_piece_that_prints_its_parts():
    """"quick ratio" is printed nowhere: the balance sheet's current-assets piece (cash, receivables, total current
    assets) is where it is read; its liabilities piece, and a cash-flow table naming cash, are not."""
    from corpus_tools.line_items import canonical_names, derived_named

    assert "quick ratio" in canonical_names("Is the acid-test ratio healthy?")
    assets = ["Current assets: Cash and cash equivalents", "Accounts receivable", "Inventories", "Total current assets"]
    assert derived_named({"quick ratio", "current ratio"}, assets) == {"quick ratio", "current ratio"}
    assert derived_named({"quick ratio"}, ["Accounts payable", "Total current liabilities", "Long-term debt"]) == set()
    assert derived_named({"quick ratio"}, ["Cash and cash equivalents, end of year", "Net income"]) == set()
    tokens = BM25Tokenizer()
    question = "Does Orchard have a healthy liquidity profile based on its quick ratio for FY 2022?"
    texts = ["At December 31, | 2022 | 2021\n" + "\n".join(f"{label} | 1,000 | 900" for label in assets),
             "At December 31, | 2022 | 2021\nAccounts payable | 10 | 9\nTotal current liabilities | 40 | 35", PROSE[0]]
    scores = row_match_scores(question, texts, tokens, canonical_names)
    assert scores[0] > scores[1] and scores[0] > scores[2]


def test_analyst_abbreviations_are_read_as_written_and_ordinary_words_are_not():
    """Issue 35's vocabulary misses: "PPNE" (property, plant and equipment, net), "operational expenditures";
    abbreviations in capitals are read only as written, so "cogs in a machine" and a person called Ebit are no
    line items, and "EBIT" is not read inside "EBITDA"."""
    assert canonical_names("Did Pfizer grow its PPNE between FY20 and FY21?") == ["property and equipment"]
    assert canonical_names("Property, plant and equipment, net") == ["property and equipment"]
    assert canonical_names("What was COGS in FY2022?") == ["cost of revenue"]
    assert canonical_names("How did Amazon's operational expenditures stack up?") == ["total operating expenses"]
    assert canonical_names("Which region had the worst topline performance?") == ["revenue"]
    assert canonical_names("What were Capex and FCF?") == ["capital expenditures", "free cash flow"]
    assert canonical_names("the cogs in a machine") == canonical_names("Ebit Lindqvist, director") == []
    assert canonical_names("ppne") == [] and canonical_names("Adjusted EBIT") == ["operating income"]
    assert [LINE_ITEMS[g][0] for g in line_items("Adjusted EBITDA")] == ["ebitda"]  # not EBIT inside it
    # "Retained earnings" is its own balance-sheet row, never read as earnings of the period.
    assert canonical_names("Retained earnings (accumulated deficit)") == ["retained earnings"]


def test_a_ratio_no_statement_prints_is_read_as_its_parts():
    """Working capital, days sales outstanding, EBITDA, margins: asked by name, printed as their parts on one
    or several statements; each part's row counts as naming what was asked (line_items.READ_AS_PARTS)."""
    assert canonical_names("What was Orchard's working capital?") == ["total current assets", "total current liabilities"]
    assert canonical_names("What was the DSO?") == ["accounts receivable", "revenue"]
    assert canonical_names("EBITDA in FY2022") == ["operating income", "depreciation and amortization"]
    assert canonical_names("net profit margin") == ["net income", "revenue"]
    assert "margin" not in expansion("What drove net income?").split()  # a ratio's words are no item's other name
    words = expansion("What was the working capital?").split()
    assert {"current", "assets", "liabilities"} <= set(words)
    tokens = BM25Tokenizer()
    question = "What was Orchard's working capital at the end of FY2022?"
    texts = ["At December 31, | 2022 | 2021\nInventories | 300 | 280\nTotal current assets | 1,000 | 900",
             "At December 31, | 2022 | 2021\nAccounts payable | 10 | 9\nTotal current liabilities | 40 | 35",
             "At December 31, | 2022 | 2021\nGoodwill | 10 | 9\nDeferred income taxes | 4 | 3"]
    scores = row_match_scores(question, texts, tokens, canonical_names)
    assert scores[0] >= 0.5 and scores[1] >= 0.5 and scores[2] == 0.0


BALANCE_AND_CASH = [
    "\n".join(["(in millions) | December 31, 2021 | December 31, 2020",
               "Inventories | 9,059 | 8,046",
               "Property, plant and equipment, net | 14,882 | 13,745",
               "Identifiable intangible assets | 28,337 | 28,471"]),
    "\n".join(["(in millions) | 2021 | 2020",
               "Net cash provided by operating activities | 32,580 | 14,403",
               "Purchases of property, plant and equipment | (2,711) | (2,791)",
               "Acquisitions, net of cash acquired | (3,000) | —"]),
]
# Prose that repeats the question's other words (growth, spending, the years) and states no row.
GROWTH_PROSE = [
    "Did we grow between FY20 and FY21? We grew in every region between FY20 and FY21, and growth in FY21 "
    "continued to build on FY20.",
    "How much we spend depends on growth: spending between FY20 and FY21 grew, and we spend to grow in FY21.",
]


def test_a_narrowed_search_reaches_the_row_an_analyst_abbreviation_names(tmp_path, config):
    """"What was Vantor's PPNE …?" reaches the property, plant and equipment row, "capex" the purchases of
    property, plant and equipment row, above prose that repeats the question's other words."""
    vantor = {"company": "Vantor Pharma Inc.", "form": "10-K"}
    docs = [Document(f"table-{i}", t, title="Vantor Pharma 10-K", metadata={**vantor, "kind": "table"})
            for i, t in enumerate(BALANCE_AND_CASH)]
    docs += [Document(f"prose-{i}", t, title="Vantor Pharma 10-K", metadata={**vantor, "kind": "text"})
             for i, t in enumerate(GROWTH_PROSE)]
    Corpus.build(docs, tmp_path / "i", config=config, progress=False).close()
    with Corpus.open(tmp_path / "i") as c:
        hits = c.search("Did Vantor grow its PPNE between FY20 and FY21?", k=4, constraints="auto")
        assert hits[0].chunk.doc_id == "table-0"
        hits = c.search("How much did Vantor spend on capex between FY20 and FY21?", k=4, constraints="auto")
        assert hits[0].chunk.doc_id == "table-1"
