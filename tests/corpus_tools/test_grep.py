"""grep: RE2 semantics, ranking by match count, exclusions, and patterns that must not hang or pass."""

from __future__ import annotations

import pytest

from corpus_tools import InvalidPatternError, Leg
from corpus_tools.grep import compile_pattern, grep_rows


def ids(hits):
    return [h.chunk.chunk_id for h in hits]


def test_grep_finds_matching_chunks(corpus):
    hits = corpus.grep(r"nadia\.fenn@example\.org")
    assert ids(hits) == ["nadia-fenn#0"]
    assert hits[0].ranks == {Leg.GREP.value: 1} and hits[0].score == 1.0


def test_grep_ranks_by_match_count_then_index_order(corpus):
    hits = corpus.grep(r"Quell", k=10)
    counts = [h.score for h in hits]
    assert counts == sorted(counts, reverse=True)
    assert all(h.chunk.text.count("Quell") == h.score for h in hits)
    # Two chunks mention Quell twice; they come first, in index order.
    assert [(h.chunk.doc_id, h.score) for h in hits[:2]] == [("quell-trail", 2), ("brennholt-archive", 2)]
    # Among equal counts, index (document) order.
    order = {d: i for i, d in enumerate(corpus.doc_ids())}
    ones = [order[h.chunk.doc_id] for h in hits if h.score == 1]
    assert ones == sorted(ones)
    assert [h.ranks[Leg.GREP.value] for h in hits] == list(range(1, len(hits) + 1))


def test_grep_k_and_exclude(corpus):
    everything = ids(corpus.grep(r"\bthe\b", k=100))
    assert len(corpus.grep(r"\bthe\b")) == 5  # SPEC §2: up to 5 chunks by default
    assert ids(corpus.grep(r"\bthe\b", k=3)) == everything[:3]
    rest = corpus.grep(r"\bthe\b", k=3, exclude=everything[:3] + ["not-a-chunk#0"])
    assert ids(rest) == everything[3:6]
    assert corpus.grep(r"\bthe\b", k=0) == []


def test_grep_is_case_sensitive_unless_asked(corpus):
    assert corpus.grep("pellis") == []  # text says "Pellis"
    assert "pellis#0" in ids(corpus.grep("(?i)pellis", k=20))


def test_grep_searches_chunk_text_not_titles(corpus):
    assert corpus.grep("Aurora \\(steamship\\)") == []


def test_no_match_is_an_empty_list(corpus):
    assert corpus.grep("unicorn") == []


def test_catastrophic_pattern_runs_in_linear_time(corpus):
    # A backtracking engine takes exponential time on this; RE2 answers at once.
    assert grep_rows(r"(a+)+$", ["a" * 100_000 + "b"], k=5) == []
    assert grep_rows(r"(a+)+$", ["a" * 100_000], k=5) == [(0, 1)]
    assert grep_rows(r"(x+x+)+y", ["x" * 50_000], k=5) == []
    assert corpus.grep(r"(a+)+$") == []


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("(unclosed", "missing \\)"),
        ("[z-a]", "invalid character class range"),
        (r"(a)\1", "invalid escape sequence"),
        ("(?=lookahead)", "invalid perl operator"),
        ("(?<!behind)x", "invalid perl operator"),
    ],
)
def test_invalid_patterns_give_a_clear_error(corpus, pattern, message):
    with pytest.raises(InvalidPatternError, match=message) as info:
        corpus.grep(pattern)
    text = str(info.value)
    assert repr(pattern) in text and "RE2" in text
    assert "does not support backreferences" in text and "lookaround" in text  # says why a Python regex fails
    assert isinstance(info.value, ValueError)


def test_non_string_pattern(corpus):
    with pytest.raises(InvalidPatternError, match="string"):
        corpus.grep(None)


def test_compiled_patterns_are_cached():
    assert compile_pattern("ab+c") is compile_pattern("ab+c")
