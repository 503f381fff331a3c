"""Row match (issue 35): a table chunk whose row names the metric asked for is lifted above prose about it."""

from __future__ import annotations

import pytest

from corpus_tools import Corpus, Document, SearchConfig
from corpus_tools.bm25 import BM25Tokenizer
from corpus_tools.row_match import row_labels, row_match_scores

STATEMENT = "\n".join([
    "(in millions) | Three Months Ended July 1, 2023 | Three Months Ended June 25, 2022",
    "Net sales: Products | 60,584 | 63,355",
    "Net sales: Services | 21,213 | 19,604",
    "Total net sales | 81,797 | 82,959",
    "Cost of sales: Total cost of sales | 45,384 | 46,387",
    "Gross margin | 36,413 | 36,572",
    "Operating expenses: Research and development | 7,442 | 6,797",
    "Operating expenses: Selling, general and administrative | 5,973 | 6,012",
    "Operating income | 22,998 | 23,076",
    "Provision for income taxes | 2,852 | 2,749",
    "Net income | 19,881 | 19,442",
])
# Prose that says "research and development" more often than the statement does, without the figure.
PROSE = [
    "Research and development expense grew because of research and development headcount and the cost of "
    "research and development of new products; the Company continues to invest in research and development.",
    "The Company's research and development spending supports development of new products and research into "
    "silicon, and research and development remains critical to the Company's future.",
    "How much the Company will spend on research and development depends on the development programme; "
    "research and development spend is reviewed every quarter.",
]
QUESTION = "How much did Orchard spend on research and development in the third quarter?"


def test_row_labels_and_scores_read_rows_only():
    assert row_labels(STATEMENT)[6] == "Operating expenses: Research and development"
    assert row_labels("plain prose, no cells") == []
    scores = row_match_scores(QUESTION, [STATEMENT, *PROSE, ""], BM25Tokenizer())
    assert scores[0] > 0.1  # its best row holds "research" and "development" (of seven terms)
    assert scores[1:] == [0.0] * 4  # prose has no rows; an empty text neither
    # Stemmed as BM25 stems: "inventory" meets "Inventories"; a row naming none of the words scores 0.
    inventory = row_match_scores("inventory", ["Current assets: Inventories | 3,742 | 4,268", "Total | 4,268 | 3,742"],
                                 BM25Tokenizer())
    assert inventory == [pytest.approx(1.0), 0.0]
    assert row_match_scores("", [STATEMENT], BM25Tokenizer()) == [0.0]


@pytest.fixture(scope="module")
def report(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("indexes") / "report"
    orchard = {"company": "Orchard Computer, Inc.", "form": "10-Q"}
    docs = [Document("statement", STATEMENT, title="Orchard Computer 10-Q", metadata={**orchard, "kind": "table"})]
    docs += [Document(f"prose-{i}", text, title="Orchard Computer 10-Q", metadata={**orchard, "kind": "text"})
             for i, text in enumerate(PROSE)]
    # Another company's statement with the same rows: a row match alone cannot tell the two apart.
    docs.append(Document("other-statement", STATEMENT.replace("7,442", "1,234"), title="Vantor Graphics 10-Q",
                         metadata={"company": "Vantor Graphics Corporation", "form": "10-Q", "kind": "table"}))
    Corpus.build(docs, path, config=config, progress=False).close()
    return path


def test_the_row_naming_the_metric_lifts_its_table_above_prose(report):
    with Corpus.open(report, search=SearchConfig(row_match_weight=0.0)) as plain:
        hits = plain.search(QUESTION, k=4, constraints="auto")
        assert hits[0].chunk.doc_id != "statement"  # both legs prefer the prose that repeats the words
    assert SearchConfig().row_match_weight == 2.0  # on by default
    with Corpus.open(report) as lifted, Corpus.open(report, search=SearchConfig(row_match_weight=0.0)) as off:
        # Narrowed to Orchard's documents (by the question's company, or a where filter), the statement leads.
        hits = lifted.search(QUESTION, k=4, constraints="auto")
        assert hits[0].chunk.doc_id == "statement" and "7,442" in hits[0].chunk.text
        assert len(hits) == 4  # a lift, not a filter
        where = {"company": "Orchard Computer, Inc."}
        assert lifted.search(QUESTION, k=1, where=where)[0].chunk.doc_id == "statement"
        # Not narrowed, the same rows of every company's statement would be lifted alike: no lift.
        assert [h.chunk.chunk_id for h in lifted.search(QUESTION, k=5)] == [
            h.chunk.chunk_id for h in off.search(QUESTION, k=5)]
        # A question whose words name no row leaves the order as the legs made it.
        query = "Why does Orchard review its spend every quarter?"
        assert [h.chunk.chunk_id for h in lifted.search(query, k=4, constraints="auto")] == [
            h.chunk.chunk_id for h in off.search(query, k=4, constraints="auto")]


def test_a_corpus_without_table_chunks_is_untouched(corpus):
    doc = corpus.doc_ids()[0]
    with Corpus.open(corpus.path, search=SearchConfig(row_match_weight=0.0)) as plain:
        for query in ("Who designed the basalt lighthouse?", "mayor of Veldhaven | 1921"):
            for where in (None, {"doc_id": {"$in": [doc, *corpus.doc_ids()[5:9]]}}):
                assert [(h.chunk.chunk_id, h.score) for h in corpus.search(query, k=8, where=where)] == [
                    (h.chunk.chunk_id, h.score) for h in plain.search(query, k=8, where=where)]
