"""Our BM25 leg against independent implementations: rank-bm25's BM25Okapi and bm25s's public API.

corpus_tools owns its BM25 (scoring formulas, matrix, query scoring); bm25s is the reference here,
through `bm25s.BM25.index` / `get_scores` / `load` only, and the index folders stay in its layout.

Parity setting: no stemming, no stopwords, the same tokenizer on both sides, bm25s method
"robertson" with k1=1.5, b=0.75 (rank-bm25's defaults). Robertson's idf log((N-n+0.5)/(n+0.5)) is
BM25Okapi's; bm25s leaves out the (k1+1) factor of the tf component, so our scores times (k1+1)
equal rank-bm25's — as long as every query term occurs in fewer than half the documents, because
there the two libraries floor negative idf differently (bm25s at 0, rank-bm25 at epsilon times the
mean idf). The production default, "lucene", uses log(1 + (N-n+0.5)/(n+0.5)), always positive.
"""

from __future__ import annotations

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from corpus_tools import BM25Config, retrieval_text
from corpus_tools.bm25 import BM25Index, BM25Tokenizer

K1, B = 1.5, 0.75
QUERIES = [
    "lighthouse engineer",
    "Ostmere salt barges",
    "Mirelle Dask steamship captain",
    "copper bridge lantern festival October",
    "Brennholt archive notebooks Quell",
]


@pytest.fixture(scope="module")
def texts(corpus):
    return [retrieval_text(corpus.chunk(f"{d}#0")) for d in corpus.doc_ids()]


@pytest.fixture(scope="module")
def pair(texts):
    config = BM25Config(method="robertson", k1=K1, b=B, stem=False, stopwords=None)
    ours = BM25Index.build(texts, config)
    tokenize = BM25Tokenizer(stem=False, stopwords=None)
    theirs = BM25Okapi([tokenize(t) for t in texts], k1=K1, b=B)
    return ours, theirs, tokenize


@pytest.mark.parametrize("query", QUERIES)
def test_scores_match_rank_bm25(pair, texts, query):
    ours, theirs, tokenize = pair
    terms = tokenize(query)
    doc_freq = {t: sum(t in tokenize(x) for x in texts) for t in terms}
    assert all(0 < n < len(texts) / 2 for n in doc_freq.values()), doc_freq  # the parity regime
    expected = theirs.get_scores(terms)
    got = ours.scores(query) * (K1 + 1)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    # Same ranking of every document with a positive score.
    top = ours.top(query, len(texts))
    ranked = [row for row, _ in top]
    expected_order = sorted(np.flatnonzero(expected > 0).tolist(), key=lambda r: (-expected[r], r))
    assert ranked == expected_order


def test_save_and_load_keep_scores(pair, tmp_path):
    ours, _, _ = pair
    ours.save(tmp_path / "bm25")
    loaded = BM25Index.load(tmp_path / "bm25", ours.config)
    for query in QUERIES:
        np.testing.assert_allclose(loaded.scores(query), ours.scores(query))


def test_production_tokenizer_stems_and_drops_stopwords():
    tokenize = BM25Tokenizer(stem=True, stopwords="en")
    assert tokenize("The Lighthouses of the towns") == ["lighthous", "town"]
    assert tokenize("") == [] and tokenize("the of and") == []


def test_empty_and_unknown_queries_score_zero(pair, texts):
    ours, _, _ = pair
    assert not ours.scores("").any()
    assert not ours.scores("xylophone quasar").any()
    assert ours.top("xylophone", 5) == []
    empty = BM25Index.build([], BM25Config())
    assert empty.top("anything", 3) == [] and empty.scores("x").shape == (0,)


@pytest.mark.parametrize("method", ["lucene", "robertson", "atire", "bm25l", "bm25+"])
def test_vectorised_build_equals_bm25s_own_index(mini_docs, method):
    """Our one-pass (doc, term) counting builds the same score matrix as bm25s's per-document loop."""
    import bm25s

    config = BM25Config(method=method)
    texts = [f"{d.title}\n{d.text}" for d in mini_docs]
    ours = BM25Index.build(texts, config)
    theirs = bm25s.BM25(method=method, k1=config.k1, b=config.b)
    tokenizer = BM25Tokenizer(stem=config.stem, stopwords=config.stopwords)
    theirs.index([tokenizer(t) for t in texts], show_progress=False)
    for query in QUERIES:
        ids = theirs.get_tokens_ids(tokenizer(query))
        expected = theirs.get_scores(ids) if ids else np.zeros(len(texts))
        assert np.allclose(ours.scores(query), expected, atol=1e-5), query


@pytest.mark.parametrize("method", ["lucene", "robertson", "atire", "bm25l", "bm25+"])
def test_bm25s_loads_our_folders_and_scores_them_as_we_do(mini_docs, method, tmp_path):
    """The index folder is bm25s's layout: `bm25s.BM25.load` reads both ways of writing it, with our scores."""
    import bm25s

    from corpus_tools.bm25 import BM25Builder

    config = BM25Config(method=method)
    texts = [f"{d.title}\n{d.text}" for d in mini_docs]
    in_memory, spilled = BM25Builder(config), BM25Builder(config, spill=tmp_path / "spill")
    for text in texts:
        in_memory.add(text)
        spilled.add(text)
    in_memory.build().save(tmp_path / "a")
    spilled.write(tmp_path / "b")
    tokenizer = BM25Tokenizer(stem=config.stem, stopwords=config.stopwords)
    for folder in ("a", "b"):
        ours = BM25Index.load(tmp_path / folder, config)
        theirs = bm25s.BM25.load(str(tmp_path / folder), mmap=True)
        for query in QUERIES:
            ids = theirs.get_tokens_ids(tokenizer(query))
            expected = theirs.get_scores(ids) if ids else np.zeros(len(texts))
            assert np.allclose(ours.scores(query), expected, atol=1e-5), (folder, query)


def test_our_stopwords_are_bm25s_english_list():
    from bm25s.stopwords import STOPWORDS_EN

    from corpus_tools.bm25_scoring import STOPWORDS_EN as ours

    assert ours == tuple(STOPWORDS_EN)


def test_deleted_terms_score_zero_for_every_method():
    """A vocabulary term no row holds any more (after a delete) has idf 0, never a division by zero."""
    from corpus_tools.bm25 import BM25Builder

    for method in ("lucene", "robertson", "atire", "bm25l", "bm25+"):
        config = BM25Config(method=method)
        builder = BM25Builder(config)
        for text in ("walrus tusks", "harbour cranes", "quiet tides", "old bells"):
            builder.add(text)
        index = builder.build()
        kept = BM25Builder.from_index(index, np.array([1, 2, 3])).build()  # "walrus" is gone
        assert np.isfinite(kept.scores("walrus")).all() and not kept.scores("walrus").any(), method
        assert kept.top("cranes", 2)[0][0] == 0, method  # (bm25l/bm25+ score every row a little)


_WITHOUT_BM25S = """
import importlib.abc, importlib.metadata as m, json, sys
real = m.version
class _Gone(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "bm25s" or name.startswith("bm25s."):
            raise ImportError("bm25s is not installed")
sys.meta_path.insert(0, _Gone())
def version(name):
    if name == "bm25s":
        if sys.argv[1] == "absent":
            raise m.PackageNotFoundError(name)
        return sys.argv[1]
    return real(name)
m.version = version
from corpus_tools import Corpus
with Corpus.open(sys.argv[2]) as corpus:
    print(json.dumps([[h.chunk.chunk_id, round(h.score, 5)] for h in corpus.search_leg(sys.argv[3], "bm25", k=2)]))
assert "bm25s" not in sys.modules
"""


@pytest.mark.parametrize("bm25s", ["absent", "0.9.0", "0.2.1"])
def test_an_old_index_opens_and_searches_without_bm25s_or_with_any_release(bm25s, tmp_path):
    """bm25s is not a dependency: the folders are read by corpus_tools.bm25 itself, whatever bm25s (if any) is
    installed. The old code refused to import beside a bm25s outside 0.2.10–0.4."""
    import json
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "index_v1"
    shutil.copytree(fixture / "index", tmp_path / "index")
    query, hits = next(iter(json.loads((fixture / "expected.json").read_text())["bm25"].items()))
    done = subprocess.run([sys.executable, "-c", _WITHOUT_BM25S, bm25s, str(tmp_path / "index"), query],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [[cid, pytest.approx(s, abs=1e-4)] for cid, s in hits[:2]]
