"""Linear-time regular-expression search over chunk texts (RE2, via google-re2).

The agent writes the patterns, so a backtracking engine could be made to hang by one bad
pattern such as `(a+)+$`; RE2 runs in time linear in the text, at the cost of backreferences
and lookaround, which it rejects at compile time (we say so in the error).
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from functools import lru_cache

from corpus_tools.types import InvalidPatternError

# RE2's compiled-program memory budget; a pattern that needs more is refused, not run.
MAX_PATTERN_MEMORY = 64 << 20
_UNSUPPORTED = (
    "RE2 is linear-time and does not support backreferences (\\1) or lookaround ((?=…), (?!…), (?<=…), (?<!…))"
)


def compile_pattern(pattern: str):
    """The compiled RE2 pattern; InvalidPatternError (with RE2's own message) if it is not valid."""
    if not isinstance(pattern, str):
        raise InvalidPatternError(f"grep pattern must be a string, got {type(pattern).__name__}")
    return _compile(pattern)


@lru_cache(maxsize=256)
def _compile(pattern: str):
    import re2

    options = re2.Options()
    options.log_errors = False  # the error goes into our exception, not onto stderr
    options.max_mem = MAX_PATTERN_MEMORY
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        raise InvalidPatternError(f"Invalid regular expression {pattern!r}: {detail}. {_UNSUPPORTED}.") from None


def count_matches(compiled, text: str) -> int:
    """Number of non-overlapping matches of `compiled` in `text`."""
    return sum(1 for _ in compiled.finditer(text))


def grep_rows(pattern: str, texts: Sequence[str], k: int, skip: Set[int] = frozenset()) -> list[tuple[int, int]]:
    """(row, match count) of the `k` rows with the most matches; ties keep row order.

    Rows in `skip` (excluded chunks) are left out without shrinking the k returned.
    """
    compiled = compile_pattern(pattern)
    counts: list[tuple[int, int]] = []
    for row, text in enumerate(texts):
        if row in skip:
            continue
        if compiled.search(text) is None:  # cheap filter: most rows do not match at all
            continue
        counts.append((row, count_matches(compiled, text)))
    counts.sort(key=lambda pair: (-pair[1], pair[0]))
    return counts[: max(k, 0)]
