"""Question constraints (issue 35): companies, periods and forms read from a question, matched to the index's metadata.

The fixture (tests/fixtures/filings_meta) holds twelve filings that read alike under the same title:
only their metadata tells them apart, so a plain search cannot pick the right one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corpus_tools import Corpus, Document, SearchConfig, load_documents
from corpus_tools.constraints import MetadataCatalog, check_constraints

FILINGS = Path(__file__).resolve().parents[1] / "fixtures" / "filings_meta" / "filings.jsonl"
ROWS = [json.loads(line) for line in FILINGS.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def catalog() -> MetadataCatalog:
    return MetadataCatalog.from_documents((r["id"], r) for r in ROWS)


@pytest.fixture(scope="module")
def filings(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("indexes") / "filings"
    with Corpus.build(FILINGS, path, config=config, progress=False) as built:
        yield built


@pytest.mark.parametrize(
    ("question", "company", "period_end"),
    [
        # Orchard's fiscal year ends in September: its third quarter of fiscal 2023 ended July 1, 2023.
        ("What was Orchard's gross margin in the third quarter of fiscal 2023?", "Orchard Computer, Inc.", ["2023-07-01"]),
        ("ORCH gross margin Q3 2023", "Orchard Computer, Inc.", ["2023-07-01"]),
        ("Orchard Computer revenue for the quarter ended April 1, 2023", "Orchard Computer, Inc.", ["2023-04-01"]),
        # Vantor's fiscal year ends in January: "Q3 2023" is FY2023 Q3 (Oct 30, 2022) or calendar Q3 2023
        # (the quarter ended Oct 29, 2023, mostly August-September); "fiscal 2024" picks the one.
        ("For Q3 2023, what was Vantor's gross margin?", "Vantor Graphics Corporation", ["2022-10-30", "2023-10-29"]),
        ("Vantor Graphics gross margin in the third quarter of fiscal 2024", "Vantor Graphics Corporation", ["2023-10-29"]),
        ("What did Vantor report in fiscal Q1 2024?", "Vantor Graphics Corporation", ["2023-04-30"]),
        # "latest" is the latest period the corpus holds for that company.
        ("What was the gross margin for Northgate in the latest 10-Q report?", "Northgate Retail, Inc.", ["2023-09-30"]),
        ("Orchard's most recent quarter: operating expenses?", "Orchard Computer, Inc.", ["2023-07-01"]),
        ("Orchard gross margin in fiscal 2023", "Orchard Computer, Inc.", ["2022-12-31", "2023-04-01", "2023-07-01"]),
        ("How did Northgate's expenses compare to revenue in the second quarter of 2023?", "Northgate Retail, Inc.",
         ["2023-06-30"]),
    ],
)
def test_a_question_names_its_company_and_period_through_the_metadata(catalog, question, company, period_end):
    got = catalog.read(question)
    assert got["company"] == [company]
    assert got["period_end"] == period_end
    assert got["unmatched"] == [] and got["notes"] == []
    json.dumps(got)  # JSON-able, as the HTTP surface sends it


def test_a_company_the_corpus_does_not_hold_is_unmatched_and_constrains_nothing(catalog):
    got = catalog.read("What was Tesla's gross margin in Q3 2023?")
    assert got["unmatched"] == ["Tesla"]
    assert got["company"] == [] and got["period_end"] == []
    assert "Tesla" in got["notes"][0]
    assert catalog.tiers(got) == []


def test_a_period_the_corpus_does_not_hold_is_dropped_with_a_note(catalog):
    got = catalog.read("Orchard gross margin in Q4 2019")
    assert got["company"] == ["Orchard Computer, Inc."] and got["period_end"] == []
    assert "period" in got["notes"][0]
    assert catalog.tiers(got) == [[r["id"] for r in ROWS if r["ticker"] == "ORCH"]]


def test_a_question_naming_nothing_and_an_index_without_metadata(catalog):
    assert catalog.read("Who designed the basalt lighthouse?") == {
        "company": [], "form": [], "period_end": [], "unmatched": [], "notes": []}
    assert MetadataCatalog.from_documents([("a", {"title": "Korrin Bay"}), ("b", {})]).read("Apple Q3 2023") == {}


def test_tiers_rank_the_full_match_first_then_the_company_alone(catalog):
    tiers = catalog.tiers(catalog.read("Vantor Graphics gross margin in the third quarter of fiscal 2024"))
    assert tiers == [["vntr-fy2024-q3"], ["vntr-fy2023-q3", "vntr-fy2024-q1", "vntr-fy2024-q2"]]


def test_constraint_dicts_are_checked():
    assert check_constraints({"company": "Apple Inc.", "fiscal_year": [2023], "notes": ["x"]}) == {
        "company": ["Apple Inc."], "fiscal_year": [2023]}
    with pytest.raises(ValueError, match="unknown constraint 'year'"):
        check_constraints({"year": [2023]})
    with pytest.raises(ValueError, match="list of strings or integers"):
        check_constraints({"company": [{"name": "Apple"}]})
    with pytest.raises(ValueError, match="dict"):
        check_constraints(["Apple"])


def _gold(question_words: str) -> str:
    return next(r["id"] for r in ROWS if r["id"] == question_words)


CASES = [
    ("What was Orchard's gross margin in the third quarter of fiscal 2023?", "orch-fy2023-q3"),
    ("What was the gross margin for Northgate in the latest 10-Q report?", "ngr-fy2023-q3"),
    ("Vantor Graphics gross margin in the third quarter of fiscal 2024", "vntr-fy2024-q3"),
    ("Orchard Computer gross margin for the quarter ended April 1, 2023", "orch-fy2023-q2"),
    ("What was Northgate's gross margin in Q1 2023?", "ngr-fy2023-q1"),
    ("What did Vantor report as gross margin in fiscal Q1 2024?", "vntr-fy2024-q1"),
]


def test_constrained_search_finds_the_named_filing_where_plain_search_cannot(filings):
    plain_right = sum(filings.search(q, k=1)[0].chunk.doc_id == gold for q, gold in CASES)
    assert plain_right <= len(CASES) // 2  # the fixture is hard: the passages read alike
    for question, gold in CASES:
        hits = filings.search(question, k=5, constraints="auto")
        assert hits[0].chunk.doc_id == gold, question
        assert len(hits) == 5  # a boost, not a filter: the other filings follow
        row = next(r for r in ROWS if r["id"] == gold)
        assert row["gross_margin"] in hits[0].chunk.text


def test_the_index_reads_constraints_and_takes_a_dict(filings):
    got = filings.question_constraints("What was the gross margin for Northgate in the latest 10-Q report?")
    assert got["company"] == ["Northgate Retail, Inc."] and got["period_end"] == ["2023-09-30"]
    assert got["form"] == ["10-Q"]
    hits = filings.search("gross margin", k=3, constraints={"company": ["Vantor Graphics Corporation"],
                                                             "period_end": ["2023-07-30"]})
    assert hits[0].chunk.doc_id == "vntr-fy2024-q2"
    assert {h.chunk.doc_id for h in hits[1:]} <= {r["id"] for r in ROWS if r["ticker"] == "VNTR"}
    # Passing back what question_constraints returned is the same as "auto".
    question = CASES[0][0]
    assert [h.chunk.chunk_id for h in filings.search(question, k=4, constraints=filings.question_constraints(question))] == [
        h.chunk.chunk_id for h in filings.search(question, k=4, constraints="auto")]
    # A constraint nothing meets changes nothing; an unknown company neither.
    plain = [(h.chunk.chunk_id, h.score) for h in filings.search("gross margin Tesla", k=6)]
    assert [(h.chunk.chunk_id, h.score) for h in filings.search("gross margin Tesla", k=6, constraints="auto")] == plain
    assert [(h.chunk.chunk_id, h.score) for h in filings.search(
        "gross margin Tesla", k=6, constraints={"company": ["Tesla, Inc."]})] == plain
    with pytest.raises(ValueError, match="constraints"):
        filings.search("gross margin", constraints="on")
    with pytest.raises(ValueError, match="unknown constraint"):
        filings.search("gross margin", constraints={"sector": ["tech"]})


def test_a_constraint_boost_ranks_the_full_match_among_the_companys_other_filings(filings):
    import dataclasses

    wanted = {"company": ["Vantor Graphics Corporation"], "period_end": ["2023-07-30"]}
    vantor = {r["id"] for r in ROWS if r["ticker"] == "VNTR"}
    with Corpus.open(filings.path, search=dataclasses.replace(filings.config.search, constraint_boost=0.5)) as soft:
        hits = soft.search("gross margin", k=6, constraints=wanted)
        assert hits[0].chunk.doc_id == "vntr-fy2024-q2"  # multiplied by 1.5 among equals
        assert {h.chunk.doc_id for h in hits[:4]} == vantor and not {h.chunk.doc_id for h in hits[4:]} & vantor
        assert hits[0].scores["fused"] > hits[1].scores["fused"] or hits[0].score > hits[1].score


def test_constraints_and_exclusions_and_where_compose(filings):
    question = CASES[0][0]
    first = filings.search(question, k=1, constraints="auto")[0].chunk.chunk_id
    again = filings.search(question, k=3, constraints="auto", exclude=[first])
    assert first not in {h.chunk.chunk_id for h in again} and len(again) == 3
    only_ngr = filings.search(question, k=3, constraints="auto", where={"ticker": "NGR"})
    assert {h.chunk.doc_id for h in only_ngr} <= {r["id"] for r in ROWS if r["ticker"] == "NGR"}


def test_a_corpus_without_metadata_searches_exactly_as_before(corpus):
    """Wikipedia-style documents: "auto" is a no-op, and question_constraints says {}."""
    for query in ("Who designed the basalt lighthouse in Q3 2023?", "mayor of Veldhaven", "Ostmere's latest ferry"):
        assert corpus.question_constraints(query) == {}
        plain = [(h.chunk.chunk_id, h.score, dict(h.ranks)) for h in corpus.search(query, k=8)]
        assert [(h.chunk.chunk_id, h.score, dict(h.ranks)) for h in corpus.search(query, k=8, constraints="auto")] == plain


def test_a_doc_id_filter_reads_no_row_and_agrees_with_the_generic_filter(corpus):
    doc = corpus.doc_ids()[3]
    by_id = corpus.search("lighthouse", k=5, where={"doc_id": {"$in": [doc]}})
    generic = corpus.search("lighthouse", k=5, where={"$or": [{"doc_id": doc}, {"doc_id": "no-such-doc"}]})
    assert [h.chunk.chunk_id for h in by_id] == [h.chunk.chunk_id for h in generic]
    assert {h.chunk.doc_id for h in by_id} == {doc}


def test_boilerplate_is_scored_down_never_removed(tmp_path, config):
    """A certification repeated in every filing outranks the passage that answers, until it is demoted."""
    certification = ("I certify that I have reviewed this quarterly report; the gross margin and net sales it states "
                     "fairly present the financial condition. Gross margin, gross margin, net sales.")
    docs = [Document(f"cert-{i}", certification, title="Exhibit 31", metadata={"boilerplate": 1.0}) for i in range(3)]
    docs.append(Document("mdna", "Gross margin rose to 41 percent on a richer mix of services.", title="Results",
                         metadata={"boilerplate": 0.0}))
    Corpus.build(docs, tmp_path / "index", config=config, progress=False).close()
    with Corpus.open(tmp_path / "index", search=SearchConfig(boilerplate_weight=0.0)) as plain:
        assert plain.search("gross margin net sales", k=4)[0].chunk.doc_id.startswith("cert-")
    assert SearchConfig().boilerplate_weight == 4.0  # on by default (issue 35's tuning half)
    with Corpus.open(tmp_path / "index") as demoted:
        hits = demoted.search("gross margin net sales", k=4)
        assert hits[0].chunk.doc_id == "mdna"
        assert len(hits) == 4  # the certifications are still there, below
        certified = demoted.search("I certify that I have reviewed this quarterly report", k=2)
        assert any(h.chunk.doc_id.startswith("cert-") for h in certified)


def test_loaded_fixture_carries_the_metadata_onto_chunks():
    doc = next(d for d in load_documents(FILINGS).documents if d.doc_id == "vntr-fy2024-q3")
    assert doc.metadata["period_end"] == "2023-10-29" and doc.metadata["fiscal_year"] == 2024


# A company whose fiscal year ends June 30 (as Microsoft's): its 10-Qs cover September, December and March, and
# its first report of calendar 2023 is the quarter ended December 31, 2022 (fiscal Q2 2023, calendar Q4 2022).
JUNE_FY = [
    {"id": "msx-fy2023-q1", "company": "Meridian Systems Corporation", "ticker": "MSX", "form": "10-Q",
     "period_end": "2022-09-30", "fiscal_year": 2023, "fiscal_quarter": 1},
    {"id": "msx-fy2023-q2", "company": "Meridian Systems Corporation", "ticker": "MSX", "form": "10-Q",
     "period_end": "2022-12-31", "fiscal_year": 2023, "fiscal_quarter": 2},
    {"id": "msx-fy2023-q3", "company": "Meridian Systems Corporation", "ticker": "MSX", "form": "10-Q",
     "period_end": "2023-03-31", "fiscal_year": 2023, "fiscal_quarter": 3},
    {"id": "msx-fy2024-q1", "company": "Meridian Systems Corporation", "ticker": "MSX", "form": "10-Q",
     "period_end": "2023-09-30", "fiscal_year": 2024, "fiscal_quarter": 1},
]


def test_report_order_counts_a_companys_quarterly_reports_of_the_calendar_year():
    from corpus_tools.constraints import facts_from_metadata

    order = {r["id"]: facts_from_metadata(r["id"], r).report_order() for r in [*JUNE_FY, *ROWS]}
    # June year: the 10-K covers June, so September is the third report of its year.
    assert [order[r["id"]] for r in JUNE_FY] == [(2022, 3), (2023, 1), (2023, 2), (2023, 3)]
    # September year (Orchard) and January year (Vantor): the report order is the fiscal order.
    assert order["orch-fy2023-q1"] == (2023, 1) and order["orch-fy2022-q3"] == (2022, 3)
    assert order["vntr-fy2024-q1"] == (2023, 1) and order["vntr-fy2023-q3"] == (2022, 3)
    assert facts_from_metadata("k", {"period_end": "2023-06-30", "fiscal_quarter": 4}).report_order() is None


@pytest.mark.parametrize(
    ("question", "period_end", "preferred"),
    [
        # Fiscal Q1 2023 (Sep 2022), calendar Q1 2023 (Mar 2023), the first report of 2023 (Dec 2022): all three
        # rank first; the report order wins the tie.
        ("What did Meridian report about its debt in the Q1 2023 10-Q?", ["2022-09-30", "2022-12-31", "2023-03-31"],
         ["2022-12-31"]),
        # Q3 2023: calendar and report order agree on September 2023; fiscal Q3 2023 (March) stays, below it.
        ("Meridian share repurchases in Q3 2023", ["2023-03-31", "2023-09-30"], ["2023-09-30"]),
        # Said "fiscal": one reading, nothing to prefer.
        ("Meridian revenue in fiscal Q1 2023", ["2022-09-30"], None),
    ],
)
def test_an_unqualified_quarter_names_every_reading_and_prefers_the_most_agreed(question, period_end, preferred):
    catalog = MetadataCatalog.from_documents((r["id"], r) for r in [*JUNE_FY, *ROWS])
    got = catalog.read(question)
    assert got["company"] == ["Meridian Systems Corporation"]
    assert got["period_end"] == period_end
    assert got.get("period_preferred") == preferred
    json.dumps(got)
    assert check_constraints(got)["period_end"] == period_end  # what read returns is a valid constraint dict
    if preferred:
        assert catalog.preferred(got) == {r["id"] for r in JUNE_FY if r["period_end"] in preferred}


def test_the_preferred_period_is_lifted_among_the_first_tier_never_alone(filings):
    import dataclasses

    both = {"company": ["Vantor Graphics Corporation"], "period_end": ["2022-10-30", "2023-10-29"]}
    for preferred in ("2022-10-30", "2023-10-29"):
        hits = filings.search("Vantor gross margin", k=6, constraints={**both, "period_preferred": [preferred]})
        assert hits[0].chunk.doc_id == next(r["id"] for r in ROWS if r["period_end"] == preferred and
                                            r["ticker"] == "VNTR")
        # Both readings' filings still rank above the company's others: a preference, not a filter.
        assert {h.chunk.doc_id for h in hits[:2]} == {"vntr-fy2023-q3", "vntr-fy2024-q3"}
    with Corpus.open(filings.path, search=dataclasses.replace(filings.config.search, period_lift=0.0)) as flat:
        plain = [h.chunk.chunk_id for h in flat.search("Vantor gross margin", k=6, constraints=both)]
        assert [h.chunk.chunk_id for h in flat.search(
            "Vantor gross margin", k=6, constraints={**both, "period_preferred": ["2022-10-30"]})] == plain


def test_a_company_named_without_a_period_prefers_its_newest_report_never_an_8k():
    """FinanceBench: "How much does Pfizer expect to pay to spin off Upjohn in the future?" names no period; the
    company's newest periodic report is preferred (a lift among its filings, none filtered out); a later 8-K,
    an event's date, is no newer period."""
    event = {"id": "orch-8k-2023-08", "title": "Current Report", "text": "Orchard announced a new director.",
             "company": "Orchard Computer, Inc.", "ticker": "ORCH", "form": "8-K", "period_end": "2023-08-15"}
    catalog = MetadataCatalog.from_documents((r["id"], r) for r in [*ROWS, event])
    got = catalog.read("How much does Orchard expect to pay for its restructuring in the future?")
    assert got["company"] == ["Orchard Computer, Inc."] and got["period_end"] == []
    assert got["period_preferred"] == ["2023-07-01"]
    assert catalog.preferred(got) == {"orch-fy2023-q3"}
    # Every Orchard filing stays in the first tier: a preference, not a filter.
    assert set(catalog.tiers(got)[0]) == {r["id"] for r in ROWS if r["ticker"] == "ORCH"} | {"orch-8k-2023-08"}
    assert check_constraints(got)["company"] == ["Orchard Computer, Inc."]
    # A period named: its reading decides, as before; a period the corpus lacks: dropped, and nothing preferred.
    assert catalog.read("Orchard gross margin in the third quarter of fiscal 2023").get("period_preferred") is None
    assert catalog.read("Orchard gross margin in fiscal Q2 2031").get("period_preferred") is None
    # No company named: no company's newest report is preferred.
    assert catalog.read("What was the gross margin?").get("period_preferred") is None


def test_a_company_named_without_a_period_ranks_its_newest_report_first(filings):
    hits = filings.search("Orchard gross margin and operating expenses", k=4, constraints="auto")
    assert hits[0].chunk.doc_id == "orch-fy2023-q3"
    assert {h.chunk.doc_id for h in hits} == {r["id"] for r in ROWS if r["ticker"] == "ORCH"}
