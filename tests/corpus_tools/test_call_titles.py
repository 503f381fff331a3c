"""A vendor-exported call's own people named once (CorpusConfig.call_own_titles, session 47): their turns open
"Name (Title)", the company left to the chunk's contextual header; an analyst keeps their firm. Session 46 wrote
"Name (Company - Title)" in every turn, so a question naming the company matched every turn's speaker line.

Fixtures (tests/fixtures/call_titles, written for these tests): an invented call whose CFO's speaker line is cut from
his name by a page break (a form feed), the same call in cp1252 bytes, and the same call with its quarter lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus_tools import load_documents
from corpus_tools.call_reader import own_company, read_call
from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.config import CorpusConfig
from corpus_tools.models import default_tokenizer

TITLES = Path(__file__).resolve().parents[1] / "fixtures" / "call_titles"
CALL = "Q3 2023 Cobalt Ferry Lines Inc Earnings Call.txt"
COMPANY = "Cobalt Ferry Lines Incorporated"


def _text(name: str = CALL) -> str:
    return (TITLES / name).read_text(encoding="utf-8")


def test_the_companys_people_open_their_turns_with_their_title_alone() -> None:
    call = read_call(_text(), own_titles=True)
    assert call is not None
    assert "Marisol T. Quenneville (President, CEO & Director)\n" in call.text
    assert "Bertrand Okafor (Executive VP & CFO)\nFuel was about 18%" in call.text
    assert COMPANY not in call.text
    # an analyst's firm says whose question it is
    assert "Yusuf Adebayo-Lindqvist (Gréville Partners, Research Division - Analyst)\n" in call.text
    # the participants' metadata keeps the company
    assert COMPANY in call.metadata["participants"]


def test_off_reads_as_session_46() -> None:
    off = read_call(_text())
    assert off is not None and off == read_call(_text(), own_titles=False)
    assert f"Marisol T. Quenneville ({COMPANY} - President, CEO & Director)" in off.text


def test_a_speaker_line_cut_by_a_page_break_is_the_speakers_role_not_words_said() -> None:
    off = read_call(_text())
    assert off is not None and f"{COMPANY} - Executive VP & CFO Thanks, Marisol." in off.text  # session 46
    call = read_call(_text(), own_titles=True)
    assert call is not None
    assert "Bertrand Okafor (Executive VP & CFO)\nThanks, Marisol. Revenue for the third quarter was $212.4 million" in call.text
    assert [p.context for p in call.parts] == [p.context for p in off.parts]
    assert call.parts[-1].end == len(call.text)


def test_the_own_company_is_the_one_the_participants_name_most() -> None:
    assert own_company([f"{COMPANY} - CEO", "ICR, LLC - MD", f"{COMPANY} - CFO"]) == "cobalt ferry lines incorporated"
    assert own_company([]) == ""
    assert own_company(["no affiliation here"]) == ""


def test_a_folder_of_odd_calls_reads_without_the_company_in_any_turn() -> None:
    report = load_documents(TITLES, call_titles=True)
    assert not report.skipped
    docs = {d.doc_id: d for d in report.documents}
    assert set(docs) == {CALL, "Q3 2023 Cobalt Ferry Lines Inc Earnings Call cp1252.txt", "Cobalt Ferry Lines Earnings Call.txt"}
    cp = docs["Q3 2023 Cobalt Ferry Lines Inc Earnings Call cp1252.txt"]
    assert cp.text == docs[CALL].text and "Gréville" in cp.text  # the cp1252 bytes read as the same call
    lost = docs["Cobalt Ferry Lines Earnings Call.txt"]
    assert not lost.metadata.get("fiscal_quarter") and "Bertrand Okafor (Executive VP & CFO)" in lost.text
    assert all(COMPANY not in d.text for d in docs.values())
    # off: every turn of the company's people names it, as before
    assert load_documents(TITLES).documents[0].text.count(COMPANY) >= 3


def test_the_company_is_named_once_in_each_chunks_header() -> None:
    doc = next(d for d in load_documents(TITLES, call_titles=True).documents if d.doc_id == CALL)
    chunks = chunk_document(doc, default_tokenizer(), ChunkingConfig())
    assert chunks and all("Cobalt Ferry Lines" in c.metadata["header"] for c in chunks)
    assert all(COMPANY not in c.text for c in chunks)


def test_the_config_flag_defaults_and_old_indexes() -> None:
    assert CorpusConfig().call_own_titles is False  # tuning: mixed (benchmarks/call_titles.py)
    assert CorpusConfig(call_own_titles=True).call_own_titles is True
    assert CorpusConfig.from_dict({}).call_own_titles is False  # an index built before session 47
    with pytest.raises(ValueError, match="call_own_titles"):
        CorpusConfig(call_own_titles="yes")  # type: ignore[arg-type]
