"""`context1 repair` on an index built before the cover-page fields (issue 35's bad-input item): it gives them."""

from __future__ import annotations

import numpy as np

from corpus_tools import Corpus, Document
from corpus_tools.maintenance import repair_index


def _cover(company: str, ticker: str, period: str, quarter_words: str) -> str:
    return (f"FORM 10-Q\nFor the Quarterly Period Ended {period}\nCommission File Number 001-37845\n"
            f"{company.upper()}\nWASHINGTON 91-1144442\nTitle of each class Trading Symbol Name of exchange\n"
            f"Common stock, $0.00000625 par value per share {ticker} NASDAQ\n"
            f"Revenue grew in the {quarter_words}. Gross margin was discussed at length in this report.\n")


def test_repair_reads_the_cover_of_documents_indexed_before_the_fields(tmp_path, config):
    # As an index built before issue 35 holds them: text only, no company/period fields on the chunks.
    docs = [
        # Its fiscal quarter is named only deep in the text, past the cover (as Microsoft's MD&A names it).
        Document("meridian-q1.txt", _cover("Meridian Systems Corporation", "MSX", "September 30, 2023", "quarter")
                 + "Gross margin was 40,215.\n" + "The segment results are discussed below. " * 350
                 + "Revenue grew in the first quarter of fiscal year 2024 and the first quarter of fiscal year 2024."),
        Document("meridian-q3.txt", _cover("Meridian Systems Corporation", "MSX", "March 31, 2023",
                                           "third quarter of fiscal year 2023") + "Gross margin was 36,111."),
        Document("notes.txt", "Meeting notes: the Form is due Friday; gross margin review postponed."),
    ]
    path = tmp_path / "index"
    Corpus.build(docs, path, config=config, progress=False).close()
    with Corpus.open(path) as old:
        assert old.question_constraints("Meridian gross margin in fiscal Q1 2024") == {}  # nothing to match
        before = {c.chunk_id: c for d in old.doc_ids() for c in old.chunks(d)}
        vectors = {cid: old._stored_vectors([cid])[cid] for cid in before}

    said = repair_index(path)
    assert "2 document(s)" in said

    with Corpus.open(path) as repaired:
        meta = repaired.chunks("meridian-q1.txt")[0].metadata
        assert (meta["company"], meta["ticker"], meta["period_end"], meta["fiscal_year"], meta["fiscal_quarter"]) == (
            "Meridian Systems Corporation", "MSX", "2023-09-30", 2024, 1)
        assert "company" not in repaired.chunks("notes.txt")[0].metadata  # no cover: left as it was
        # Text, titles and vectors are untouched: nothing was re-read or re-embedded.
        after = {c.chunk_id: c for d in repaired.doc_ids() for c in repaired.chunks(d)}
        assert {cid: (c.text, c.metadata.get("title")) for cid, c in after.items()} == {
            cid: (c.text, c.metadata.get("title")) for cid, c in before.items()}
        for cid, vector in vectors.items():
            assert np.allclose(repaired._stored_vectors([cid])[cid], vector)
        # The fields now serve constraints and where filters.
        got = repaired.question_constraints("Meridian gross margin in fiscal Q1 2024")
        assert got["company"] == ["Meridian Systems Corporation"] and got["period_end"] == ["2023-09-30"]
        hits = repaired.search("Meridian gross margin in fiscal Q1 2024", k=2, constraints="auto")
        assert hits[0].chunk.doc_id == "meridian-q1.txt"
        assert {h.chunk.doc_id for h in repaired.search("gross margin", k=3, where={"ticker": "MSX"})} == {
            "meridian-q1.txt", "meridian-q3.txt"}
    # A second repair has nothing left to add.
    assert "document(s)" not in repair_index(path)
