"""An earnings call's identity (corpus_tools/call_identity.py): company, ticker and quarter in the filings' keys.

Fixtures (tests/fixtures/calls, written for these tests): a vendor-style export of an invented company's call, the
same call in cp1252 bytes, one whose participants list is cut off after a name, an empty file, a plain
"TICKER_qN_YYYY" transcript, and a call with no quarter in its name or text.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from corpus_tools import load_documents
from corpus_tools.call_identity import CALL_FORM, call_identity, participants_company
from corpus_tools.constraints import MetadataCatalog

CALLS = Path(__file__).resolve().parents[1] / "fixtures" / "calls"
VENDOR = "Q2 2024 Northwind Harbor Corp Earnings Call.txt"


def _identity(doc) -> dict:
    return {k: doc.metadata[k] for k in ("company", "ticker", "form", "fiscal_year", "fiscal_quarter")
            if k in doc.metadata}


@pytest.fixture(scope="module")
def folder() -> dict:
    report = load_documents(CALLS)
    return {d.doc_id: d for d in report.documents} | {"skipped": {s.path: s.reason for s in report.skipped}}


def test_a_vendor_call_carries_its_company_and_quarter(folder):
    assert _identity(folder[VENDOR]) == {"company": "Northwind Harbor Corporation", "form": CALL_FORM,
                                         "fiscal_year": 2024, "fiscal_quarter": 2}


def test_cp1252_bytes_read_the_same_identity(folder):
    doc = folder["Q2 2024 Northwind Harbor Corp Earnings Call cp1252.txt"]
    assert "Crédit Suisse" in doc.text
    assert _identity(doc) == _identity(folder[VENDOR])


def test_a_cut_off_participants_list_falls_back_to_the_file_name(folder):
    doc = folder["Q2 2024 Northwind Harbor Corp Earnings.txt"]
    assert participants_company(doc.text) == ""
    assert _identity(doc) == {"company": "Northwind Harbor Corp", "form": CALL_FORM, "fiscal_year": 2024,
                              "fiscal_quarter": 2}


def test_a_ticker_file_name_gives_ticker_and_quarter(folder):
    assert _identity(folder["NWH_q2_2024.txt"]) == {"ticker": "NWH", "form": CALL_FORM, "fiscal_year": 2024,
                                                    "fiscal_quarter": 2}


def test_an_empty_call_is_skipped_not_guessed(folder):
    assert "Q1 2023 Empty Co Earnings Call.txt" not in folder
    assert folder["skipped"]["Q1 2023 Empty Co Earnings Call.txt"] == "empty file"


def test_a_call_naming_no_quarter_gets_no_period_and_no_company(folder):
    meta = folder["Harbor town hall call.txt"].metadata
    assert not {"fiscal_year", "fiscal_quarter", "company", "ticker"} & set(meta)


def test_text_that_is_no_call_gets_nothing():
    assert call_identity("notes.txt", "Minutes of the garden club. The third quarter 2022 plan was agreed.") == {}
    # A quarter in the name is not enough: the text must read as a call.
    assert call_identity("Q3 2022 budget notes.txt", "Budget lines for the quarter.") == {}


def test_the_title_line_gives_the_quarter_when_the_name_does_not():
    text = "Operator\nGood day and welcome to the Ridgeway Foods Fourth Quarter\n2023 Earnings Conference Call."
    assert call_identity("ridgeway.txt", text) == {"company": "Ridgeway Foods", "form": CALL_FORM,
                                                   "fiscal_year": 2023, "fiscal_quarter": 4}


def test_the_file_name_outranks_an_operator_who_misspeaks():
    text = "Operator\nWelcome to the Ridgeway Foods Third Quarter 2021 Earnings Call."
    found = call_identity("Q3 2022 Ridgeway Foods Inc Earnings Call.txt", text)
    assert (found["fiscal_year"], found["fiscal_quarter"]) == (2022, 3)


def test_calls_off_reads_as_before(tmp_path):
    shutil.copy(CALLS / VENDOR, tmp_path / VENDOR)
    doc = load_documents(tmp_path, calls=False).documents[0]
    assert not {"company", "form", "fiscal_year", "fiscal_quarter"} & set(doc.metadata)


def test_a_question_naming_a_bare_ticker_and_quarter_selects_that_call(folder):
    docs = [folder["NWH_q2_2024.txt"], folder[VENDOR]]
    catalog = MetadataCatalog.from_documents((d.doc_id, d.metadata) for d in docs)
    found = catalog.read("NWH Q2 2024 adjusted earnings per share")
    assert found["ticker"] == ["NWH"] and found["company"] == []
    assert catalog.tiers(found)[0] == ["NWH_q2_2024.txt"]
    named = catalog.read("What was Northwind Harbor's revenue in Q2 2024?")
    assert catalog.tiers(named)[0] == [VENDOR]
