"""The metadata index (corpus_tools.metadata_index): `where` as numpy masks over per-field columns.

Every operator is checked against `filters.matches_where` on rows with mixed value types, absent
fields and the new chunk metadata keys (company, period_end, fiscal_year, ...). On the old code a
filter parsed every row (`ChunkTable.__iter__`); `test_a_filter_parses_no_row` fails there.
"""

from __future__ import annotations

import numpy as np
import pytest

from corpus_tools import Corpus, Document
from corpus_tools.filters import MAX_IN_VALUES, MAX_WHERE_CONDITIONS, MAX_WHERE_DEPTH, check_where, matches_where
from corpus_tools.metadata_index import META_SUFFIX
from corpus_tools.store import chunk_metadata
from corpus_tools.table import ChunkTable

COMPANIES = ("Apple Inc.", "Microsoft Corp", "NVIDIA", "Intél Zürich", "Amazon")


def _docs() -> list[Document]:
    docs = []
    for i in range(30):
        meta: dict = {"company": COMPANIES[i % 5], "fiscal_year": 2021 + i % 3, "period_end": f"2023-0{1 + i % 9}-01"}
        if i % 4 == 0:
            meta["boilerplate"] = 0.25 * (i % 5)  # a float, on some documents only
        if i % 6 == 0:
            meta["kind"] = "table"
        if i % 7 == 0:
            meta["audited"] = i % 2 == 0  # a bool
        if i % 5 == 1:
            meta["fiscal_quarter"] = "Q2"  # a string where other documents hold nothing
        meta["section"] = ["Part I", "Item 2"]  # not a scalar: never where-able
        docs.append(Document(f"doc-{i:02d}", f"Filing {i} of {COMPANIES[i % 5]}: revenue grew.", title=f"T{i % 4}",
                             metadata=meta))
    return docs


FILTERS = [
    {"company": "Apple Inc."},
    {"company": {"$ne": "Apple Inc."}},
    {"company": {"$in": ["NVIDIA", "Intél Zürich", "Nobody"]}},
    {"company": {"$nin": ["NVIDIA", "Intél Zürich"]}},
    {"fiscal_year": 2022},
    {"fiscal_year": 2022.0},
    {"fiscal_year": {"$gte": 2022}},
    {"fiscal_year": {"$lt": 2022}},
    {"fiscal_year": {"$gt": "2022"}},  # a string bound on numbers: nothing, as in Python
    {"period_end": {"$gte": "2023-05-01"}},
    {"company": {"$gt": "Intel"}},  # non-ASCII strings order by code point, as Python orders them
    {"company": {"$lte": "Intél Zürich"}},
    {"period_end": {"$lt": "2023-03-01"}},
    {"period_end": {"$lte": "2023-03-01"}},
    {"period_end": {"$gt": "2023-03-01"}},
    {"boilerplate": {"$lte": 0.5}},
    {"boilerplate": {"$ne": 0.25}},
    {"boilerplate": {"$nin": [0.0]}},
    {"audited": True},
    {"audited": 1},  # True == 1 in Python
    {"audited": {"$ne": True}},
    {"kind": "table"},
    {"kind": {"$ne": "table"}},
    {"fiscal_quarter": {"$in": ["Q2", 2]}},
    {"section": "Part I"},  # a list value is not where-able: never matches
    {"missing_field": {"$ne": "x"}},
    {"missing_field": "x"},
    {"title": "T1"},
    {"doc_id": "doc-03"},
    {"doc_id": {"$in": ["doc-03", "doc-04"]}},
    {"position": 0},
    {"n_tokens": {"$gt": 5}},
    {"$and": [{"company": "Intél Zürich"}, {"fiscal_year": {"$gte": 2022}}]},
    {"$or": [{"company": "Intél Zürich"}, {"kind": "table"}, {"audited": False}]},
    {"$or": [{"$and": [{"company": "NVIDIA"}, {"fiscal_year": 2021}]}, {"title": {"$in": ["T3"]}}]},
    {"company": "Amazon", "fiscal_year": 2023},
    {"chunk_id": "doc-05#0"},  # chunk ids: the row-scan path
]


def _reference(corpus: Corpus, where: dict) -> np.ndarray:
    return np.array([matches_where(where, chunk_metadata(c)) for c in corpus._state.chunks])


def _check_all(corpus: Corpus) -> None:
    for where in FILTERS:
        got = corpus._state.allowed_rows(check_where(where))
        np.testing.assert_array_equal(got, _reference(corpus, where), err_msg=str(where))


@pytest.fixture(scope="module")
def filings(tmp_path_factory, config):
    path = tmp_path_factory.mktemp("meta") / "idx"
    Corpus.build(_docs(), path, config=config, progress=False).close()
    return path


def test_masks_equal_matches_where_on_every_operator(filings):
    assert list(filings.glob(f"*{META_SUFFIX}"))
    with Corpus.open(filings) as corpus:
        _check_all(corpus)
        assert corpus.search("revenue", k=5, where={"company": "Intél Zürich", "fiscal_year": {"$gte": 2022}})


def test_a_filter_parses_no_row(filings, monkeypatch):
    with Corpus.open(filings) as corpus:
        def refuse(self):
            raise AssertionError("a filter parsed every row")

        monkeypatch.setattr(ChunkTable, "__iter__", refuse)
        hits = corpus.search("revenue grew", k=5, where={"$or": [{"company": "NVIDIA"}, {"kind": "table"}]})
        assert hits and all(h.chunk.metadata["company"] == "NVIDIA" or h.chunk.metadata.get("kind") == "table"
                            for h in hits)


def test_a_filtered_search_computes_its_mask_once_for_both_legs(filings, monkeypatch):
    # Each leg asked for the mask over every row (two masks and two gathers by row: ~10 ms at 1M rows).
    from corpus_tools.metadata_index import MetadataIndex

    with Corpus.open(filings) as corpus:
        calls = []
        mask = MetadataIndex.mask
        monkeypatch.setattr(MetadataIndex, "mask", lambda self, where: calls.append(where) or mask(self, where))
        hits = corpus.search("revenue grew", k=5, where={"company": "NVIDIA"})
        assert hits and {h.chunk.metadata["company"] for h in hits} == {"NVIDIA"}
        assert len(calls) == 1


def test_commits_and_older_indexes_keep_the_masks_right(tmp_path, config, filings):
    import shutil

    path = tmp_path / "idx"
    shutil.copytree(filings, path)
    with Corpus.open(path) as corpus:
        corpus.add([Document("doc-new", "A new filing of Intel.", metadata={"company": "Intél Zürich", "fiscal_year": 2024,
                                                                          "kind": "text", "period_end": "2024-01-01"})])
        corpus.add([Document("doc-03", "Replaced filing.", metadata={"company": "Apple Inc.", "fiscal_year": 2020})])
        corpus.delete(["doc-07"])
        assert any(p.name.startswith("chunks.1") for p in path.glob(f"*{META_SUFFIX}"))
        _check_all(corpus)
    for meta in path.glob(f"*{META_SUFFIX}"):  # as an index written before the columns existed
        meta.unlink()
    with Corpus.open(path) as older:
        _check_all(older)


def test_a_filter_too_large_or_deep_is_refused_saying_what_is_allowed():
    deep: dict = {"a": 1}
    for _ in range(MAX_WHERE_DEPTH + 1):
        deep = {"$or": [deep, {"b": 2}]}
    with pytest.raises(ValueError, match="nest"):
        check_where(deep)
    wide = {"$or": [{f"f{i}": i} for i in range(MAX_WHERE_CONDITIONS + 1)]}
    with pytest.raises(ValueError, match=f"{MAX_WHERE_CONDITIONS} field conditions"):
        check_where(wide)
    with pytest.raises(ValueError, match="values per"):
        check_where({"company": {"$in": ["x"] * (MAX_IN_VALUES + 1)}})
    with pytest.raises(ValueError, match="characters per string"):
        check_where({"company": "x" * 5000})
    ok = {"$and": [{"company": {"$in": ["x"] * MAX_IN_VALUES}}, {"$or": [{"a": 1}, {"b": 2}]}]}
    assert check_where(ok) == ok


def test_the_contextual_header_has_no_column_and_a_filter_on_it_scans_rows(filings):
    # The header is one string per document (chunk_context.py): as a column its dictionary held
    # every document's header (200 MB at 1M chunks). A filter on it still answers, by a row scan.
    with np.load(next(filings.glob(f"chunks{META_SUFFIX}")), allow_pickle=False) as saved:
        assert "header" not in saved["fields"].tolist() and "company" in saved["fields"].tolist()
    with Corpus.open(filings) as corpus:
        header = next(c.metadata["header"] for c in corpus._state.chunks if c.doc_id == "doc-03")
        where = {"header": header}
        want = {c.chunk_id for c in corpus._state.chunks if matches_where(where, chunk_metadata(c))}
        got = {h.chunk.chunk_id for h in corpus.search("revenue grew", k=50, where=where)}
        assert want and got == want
