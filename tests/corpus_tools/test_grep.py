"""grep: RE2 semantics, ranking by match count, exclusions, and patterns that must not hang or pass."""

from __future__ import annotations

import pytest

from corpus_tools import InvalidPatternError, Leg
from corpus_tools.grep import MAX_COUNT, GrepBuffer, compile_pattern, grep_rows


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
    with pytest.raises(ValueError, match="k must be between 1"):  # the same k contract as search (issue 24)
        corpus.grep(r"\bthe\b", k=0)


def test_grep_is_case_sensitive_unless_asked(corpus):
    assert corpus.grep("pellis") == []  # text says "Pellis"
    assert "pellis#0" in ids(corpus.grep("(?i)pellis", k=20))


def test_grep_searches_chunk_text_not_titles(corpus):
    assert corpus.grep("Aurora \\(steamship\\)") == []


def test_no_match_is_an_empty_list(corpus):
    assert corpus.grep("unicorn") == []


def test_catastrophic_pattern_runs_in_linear_time(corpus):
    # A backtracking engine takes exponential time on this; RE2 answers at once.
    assert grep_rows(r"(a+)+$", ["a" * 100_000 + "b"], k=5).rows == []
    assert grep_rows(r"(a+)+$", ["a" * 100_000], k=5).rows == [(0, 1)]
    assert grep_rows(r"(x+x+)+y", ["x" * 50_000], k=5).rows == []
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


# ---------------------------------------------------------------- bounded work on broad patterns

TEXTS = [
    f"Row {i}: the ferry to island {i % 7} leaves at {i % 24}:00; fares rose in {1990 + i % 30}.\nNext line."
    for i in range(600)
] + ["", "xxxx", "end of corpus $ ^ anchors"]
PATTERNS = [
    r"\bferry\b",
    r"island [35]",
    r"19\d\d",
    r"\n",
    r"[^a-z]+",
    r"Next line\.$",
    r"^Row 2\d\b",
    r"(?m)^Next",
    r"x*",
    r"e",
    r"\w",
    ".",
    r"zzz",
    r"\$",
    r"\A",
    r"\z",
    r"rose in 2019",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_buffer_scan_equals_row_by_row_scan(pattern):
    # The joined-buffer pre-filter is an optimisation only: same rows, same counts, same order.
    buffer = GrepBuffer(TEXTS)
    for k, skip in ((5, frozenset()), (50, frozenset({0, 1, 2, 300}))):
        fast = grep_rows(pattern, TEXTS, k, skip, buffer=buffer, time_limit=None)
        slow = grep_rows(pattern, TEXTS, k, skip, time_limit=None)
        assert fast.rows == slow.rows and fast.complete and slow.complete
        compiled = compile_pattern(pattern)
        naive = sorted(
            (
                (row, min(sum(1 for _ in compiled.finditer(t.encode())), MAX_COUNT))
                for row, t in enumerate(TEXTS)
                if row not in skip and compiled.search(t.encode()) is not None
            ),
            key=lambda pair: (-pair[1], pair[0]),
        )[:k]
        assert fast.rows == naive


def test_broad_patterns_stop_once_the_top_k_is_settled():
    texts = ["word " * 300] * 20_000  # every row has 300 matches of \w+ and 1,200 of \w
    for pattern in (".", r"\w", "x*", "o", r"\w+"):
        scan = grep_rows(pattern, texts, 5, buffer=GrepBuffer(texts), time_limit=None)
        assert [row for row, _ in scan.rows] == [0, 1, 2, 3, 4]
        assert all(count == MAX_COUNT for _, count in scan.rows) and scan.capped
        assert scan.complete and scan.scanned < 100  # it did not walk 20,000 rows


def test_time_limit_says_it_was_hit():
    texts = [f"row {i} has one match" for i in range(5000)]
    scan = grep_rows("match", texts, 5, buffer=GrepBuffer(texts), time_limit=0.0)
    assert not scan.complete and 0 < scan.scanned < len(texts) and scan.total == len(texts)
    assert scan.rows == [(0, 1)]  # the best of what was scanned
    full = grep_rows("match", texts, 5, buffer=GrepBuffer(texts), time_limit=None)
    assert full.complete and full.scanned == len(texts)


def test_corpus_grep_report(corpus):
    report = corpus.grep_report(r"\bthe\b", k=3)
    assert report.complete and report.total == len(corpus) and len(report.hits) == 3
    assert [h.chunk.chunk_id for h in report.hits] == ids(corpus.grep(r"\bthe\b", k=3))
    assert not corpus.grep_report("e", k=3, time_limit=0.0).complete


def test_the_grep_buffer_is_memory_mapped_not_a_second_copy():
    """Issue 38: the joined buffer was built in RAM from a list of every encoded text (≈3x the text at peak)."""
    import mmap
    import tracemalloc

    from corpus_tools.grep import GrepBuffer, grep_rows

    texts = [f"row {i} " + "lorem ipsum dolor sit amet " * 20 for i in range(20_000)]  # ~11 MB of text
    total = sum(len(t) for t in texts)
    tracemalloc.start()
    buffer = GrepBuffer(iter(texts))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert isinstance(buffer.data, mmap.mmap)
    assert peak < total / 20  # the starts array and one text at a time, not the texts again
    assert buffer.row(12_345) == texts[12_345].encode()
    scan = grep_rows(r"row 1234\b", texts, 5, buffer=buffer)
    assert [r for r, _ in scan.rows] == [1234] and scan.complete
