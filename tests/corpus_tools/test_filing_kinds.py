"""Filings other than 10-Qs (issue 35, FinanceBench's kinds): 10-Ks, 8-Ks and earnings releases read as documents,
and questions that name them as analysts write them ("AMCOR's 8k filing dated 1st July 2022", "Best Buy", "Q2'2023").

The covers below are synthetic, cut to the lines the readers use; no FinanceBench text is kept here.
"""

from __future__ import annotations

import datetime as dt

from corpus_tools.constraints import MetadataCatalog, company_aliases, short_name
from corpus_tools.doc_metadata import fiscal_period, read_metadata

EIGHT_K = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 8-K
CURRENT REPORT
Date of Report (Date of earliest event reported): July 1, 2022 (June 30, 2022)
PELICAN PACKAGING PLC
(Exact name of registrant as specified in its charter)
Item 5.02 Departure of Directors or Certain Officers."""

RELEASE = """March 9, 2023
Heron Beauty Announces Fourth Quarter
Fiscal 2022 Results
Net Sales of $3.2 Billion Compared to $2.7 Billion in the Year-Ago Quarter
BOLINGBROOK, Ill.--(BUSINESS WIRE)-- Heron Beauty, Inc. (NASDAQ: HRNB) today announced financial results for the
thirteen-week period ("fourth quarter") and fifty-two-week period ("fiscal year") ended January 28, 2023."""

TEN_K = """FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)
For the fiscal year ended January 1, 2023
______________________________ Kestrel Health Co., Inc.
(Exact name of registrant as specified in its charter)"""


def test_an_8k_is_dated_by_its_report_date_and_has_no_fiscal_quarter():
    assert read_metadata(EIGHT_K) == {"form": "8-K", "company": "Pelican Packaging Plc", "period_end": "2022-07-01"}


def test_an_earnings_release_names_its_company_ticker_and_period_from_its_headline():
    # the dateline's name ("Heron Beauty, Inc.", as the filer writes it) over the headline's; the form a release's
    assert read_metadata(RELEASE) == {"company": "Heron Beauty, Inc.", "form": "earnings release", "ticker": "HRNB",
                                      "period_end": "2023-01-28", "fiscal_year": 2022, "fiscal_quarter": 4}
    assert read_metadata("Kite Corp reports fiscal 2023 results and provides outlook for fiscal 2024\nNet sales "
                         "of $14,694 million") == {"company": "Kite Corp", "form": "earnings release",
                                                   "fiscal_year": 2023, "fiscal_quarter": 4}
    # a report that is no release keeps its empty metadata
    assert read_metadata("Results of the bee survey.\nWe counted hives.") == {}


def test_a_10k_name_behind_a_rule_line_and_a_year_ending_in_early_january():
    got = read_metadata(TEN_K)
    assert got["company"] == "Kestrel Health Co., Inc."
    assert (got["fiscal_year"], got["fiscal_quarter"]) == (2022, 4)  # 52/53 weeks ending January 1, 2023


def test_the_fiscal_year_end_a_10q_states_numbers_its_quarter():
    # A June fiscal year: the quarter ended December 31, 2022 is the second of fiscal 2023, though the
    # filing cites "the fourth quarter of fiscal year 2022" (a past quarter) more often.
    text = ("our Annual Report on Form 10-K for the fiscal year ended June 30, 2022. During the fourth quarter of "
            "fiscal year 2022 ... recorded in the fourth quarter of fiscal year 2022 ... by the third quarter of "
            "fiscal year 2023.")
    assert fiscal_period(text, dt.date(2022, 12, 31)) == (2023, 2)
    # A 52-week year ending late January: the quarter ended July 29, 2023 is the second of fiscal 2024.
    assert fiscal_period("the fiscal year ending February 3, 2024", dt.date(2023, 7, 29)) == (2024, 2)


def test_company_names_as_analysts_write_them():
    assert "best buy" in company_aliases("Best Buy Co., Inc.")
    assert "kraft heinz" in company_aliases("The Kraft Heinz Company")
    assert short_name("MGM Resorts International") == "MGM"
    assert short_name("Big Sky Partners LLC") is None  # "Big" is neither four letters nor an acronym
    catalog = MetadataCatalog.from_documents([
        ("bb", {"company": "Best Buy Co., Inc.", "form": "10-K", "period_end": "2023-01-28", "fiscal_year": 2023,
                "fiscal_quarter": 4}),
        ("mgm", {"company": "MGM Resorts International", "form": "10-K", "period_end": "2022-12-31",
                 "fiscal_year": 2022, "fiscal_quarter": 4}),
    ])
    assert catalog.read("What was Best Buy's FY2023 revenue?")["company"] == ["Best Buy Co., Inc."]
    assert catalog.read("Which region had the highest EBITDAR for MGM in FY2022?")["company"] == [
        "MGM Resorts International"]


CATALOG = MetadataCatalog.from_documents([
    ("8k-jul", {"company": "Pelican Packaging Plc", "form": "8-K", "period_end": "2022-07-01"}),
    ("10q-q2", {"company": "Pelican Packaging Plc", "form": "10-Q", "period_end": "2022-12-31", "fiscal_year": 2023,
                "fiscal_quarter": 2}),
    ("10k-23", {"company": "Pelican Packaging Plc", "form": "10-K", "period_end": "2023-06-30", "fiscal_year": 2023,
                "fiscal_quarter": 4}),
    ("8k-aug", {"company": "Pelican Packaging Plc", "form": "8-K", "period_end": "2023-08-15"}),
])


def test_an_8k_named_by_its_date_written_day_first():
    got = CATALOG.read("What was the key agenda of PELICAN PACKAGING's 8k filing dated 1st July 2022?")
    assert CATALOG.tiers(got)[0] == ["8k-jul"]


def test_a_quarter_written_with_a_four_digit_year_after_an_apostrophe():
    got = CATALOG.read("As of Q2'2023, is Pelican Packaging spinning off a segment?")
    assert CATALOG.tiers(got)[0] == ["10q-q2"]


def test_an_8k_is_no_quarterly_report_and_no_latest_period():
    assert CATALOG.tiers(CATALOG.read("Pelican Packaging's gross margin in the latest quarter"))[0] == ["10k-23"]
    # an 8-K dated in calendar Q3 2023 is not "Q3 2023"
    assert "2023-08-15" not in CATALOG.read("Pelican Packaging revenue in Q3 2023")["period_end"]


def test_a_fiscal_year_named_alone_is_the_whole_years_report():
    # The 10-Q of fiscal 2023's second quarter is no answer to "FY2023": the annual report is.
    assert CATALOG.tiers(CATALOG.read("Has Pelican Packaging's gross margin improved as of FY2023?"))[0] == ["10k-23"]
    # a quarter of that year still finds its 10-Q
    assert CATALOG.tiers(CATALOG.read("Pelican Packaging restructuring as of Q2 of FY2023"))[0] == ["10q-q2"]


def test_of_several_years_the_latest_annual_report_is_preferred():
    catalog = MetadataCatalog.from_documents([
        (f"10k-{y}", {"company": "Wren Telecom Inc.", "form": "10-K", "period_end": f"{y}-12-31", "fiscal_year": y,
                      "fiscal_quarter": 4}) for y in (2021, 2022)])
    got = catalog.read("Has Wren Telecom's quick ratio improved between FY2021 and FY2022?")
    assert got["period_end"] == ["2021-12-31", "2022-12-31"]  # both match (the earlier is a comparative)
    assert catalog.preferred(got) == {"10k-2022"}


def test_a_retailers_fiscal_year_is_also_the_calendar_year_it_ends_in():
    # A year ending January 28, 2023 that the company calls fiscal 2022: an analyst's "FY2023" names it too.
    catalog = MetadataCatalog.from_documents([
        ("release", {"company": "Heron Beauty", "period_end": "2023-01-28", "fiscal_year": 2022, "fiscal_quarter": 4}),
        ("older", {"company": "Heron Beauty", "form": "10-K", "period_end": "2022-01-29", "fiscal_year": 2021,
                   "fiscal_quarter": 4}),
    ])
    assert catalog.tiers(catalog.read("Did Heron Beauty's wages as a percent of net sales rise in FY2023?"))[0] == [
        "release"]
