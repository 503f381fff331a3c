"""Boilerplate scoring at build time keeps memory flat: signatures stay in a memory-mapped spill file.

The former scorer kept every LSH band's buckets in one dict (16 Python keys a chunk): 150 MB of
Python objects at 40k chunks, ~4 GB at 1M. Measured with tracemalloc (bytes, not time).
"""

from __future__ import annotations

import tracemalloc

import numpy as np

from corpus_tools.boilerplate import N_HASHES, boilerplate_scores, score_signatures, signature


def test_scoring_a_memory_mapped_spill_stays_small(tmp_path):
    n = 20_000
    rng = np.random.default_rng(0)
    sigs = rng.integers(0, 2**63, size=(n, N_HASHES), dtype=np.uint64)
    sigs[1000:1050] = sigs[0]  # one passage copied into 26 documents (two chunks a document)
    np.save(tmp_path / "sigs.npy", sigs)
    mapped = np.load(tmp_path / "sigs.npy", mmap_mode="r")
    docs = np.arange(n) // 2
    tracemalloc.start()
    try:
        scores = score_signatures(docs, mapped, np.ones(n, dtype=bool))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 12 * 2**20, f"peak {peak / 2**20:.1f} MiB"  # the former dict of buckets: ~75 MiB here
    copied = np.r_[0, np.arange(1000, 1050)]
    assert np.allclose(scores[copied], round(25 / (n // 2 - 1), 3))
    assert not scores[np.setdiff1d(np.arange(n), copied)].any()


def test_the_array_scorer_agrees_with_the_list_one():
    base = "the company's chief executive officer certifies that this quarterly report fully complies with"
    texts = [base + " section 13(a)", base + " section 15(d)", "revenue rose by 12 percent on cloud demand this year",
             base + " section 13(a)", "short"]
    doc_ids = ["a", "b", "c", "c", "d"]
    sigs = [signature(t) for t in texts]
    listed = boilerplate_scores(doc_ids, sigs)
    assert listed[0] > 0 and listed[2] == 0 and listed[4] == 0
    valid = np.array([s is not None for s in sigs])
    stacked = np.stack([s if s is not None else np.zeros(N_HASHES, np.uint64) for s in sigs])
    numbers = np.array([0, 1, 2, 2, 3])
    assert score_signatures(numbers, stacked, valid).tolist() == listed


def test_a_build_writes_the_scores_into_the_table(tmp_path, config):
    from corpus_tools import Corpus, Document

    notice = ("The chief executive officer certifies that this quarterly report fully complies with the "
              "requirements of section 13(a) of the Securities Exchange Act and fairly presents the results.")
    docs = [Document(f"f{i}", notice if i < 3 else f"Revenue of unit {i} rose by {i * 7} percent on cloud demand "
                     f"in the quarter, while margins at unit {i} narrowed.",
                     metadata={"company": f"Company {i}", "fiscal_year": 2023}) for i in range(6)]
    with Corpus.build(docs, tmp_path / "idx", config=config, progress=False) as corpus:
        scores = {c.doc_id: c.metadata["boilerplate"] for c in corpus._state.chunks}
        assert scores == {"f0": 0.4, "f1": 0.4, "f2": 0.4, "f3": 0.0, "f4": 0.0, "f5": 0.0}  # 2 of 5 others
        assert not list((tmp_path / "idx").glob(".*spill*"))


def test_scored_and_unscored_rows_keep_their_order(tmp_path, config):
    from corpus_tools import Corpus, Document

    docs = [Document(f"d{i}", f"Note {i}: the harbour office opens at {i} o'clock on weekdays and closes at noon.",
                     metadata={"company": "Acme"} if i % 2 else {}) for i in range(6)]
    with Corpus.build(docs, tmp_path / "idx", config=config, progress=False) as corpus:
        table = corpus._state.chunks
        assert [table.doc_id(r) for r in range(len(table))] == [d.doc_id for d in docs]
        assert ["boilerplate" in c.metadata for c in table] == [bool(i % 2) for i in range(6)]
