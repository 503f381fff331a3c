"""Linear-time regular-expression search over chunk texts (RE2, via google-re2), bounded in time.

The agent writes the patterns, so a backtracking engine could be made to hang by one bad
pattern such as `(a+)+$`; RE2 runs in time linear in the text, at the cost of backreferences
and lookaround, which it rejects at compile time (we say so in the error). Linear is not enough
over a large index: `.` or `\\w` matches every chunk thousands of times, so counting is capped,
the scan stops once the top k can no longer change, rows without a match are skipped by one RE2
pass over a joined buffer, and a time limit ends the rest (see `grep_rows`).
"""

from __future__ import annotations

import mmap
import re
import tempfile
import time
from array import array
from collections.abc import Iterable, Iterator, Sequence, Set
from functools import lru_cache
from itertools import islice
from pathlib import Path

import numpy as np

from corpus_tools.types import GrepScan, InvalidPatternError

# RE2's compiled-program memory budget; a pattern that needs more is refused, not run.
MAX_PATTERN_MEMORY = 64 << 20
# Matches counted per chunk: ranking only needs to tell "many" from "few", and counting every
# one of a 1,000-character chunk's matches of `.` cost a Python object each (the stall).
MAX_COUNT = 100
# A grep is one tool call inside an agent's turn: past this many seconds it returns the best rows
# found so far and says it stopped early.
TIME_LIMIT_S = 1.0
# Anchors whose meaning differs between a chunk on its own and the joined buffer.
_ROW_ANCHORS = re.compile(r"[\^$]|\\[Az]")
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


def count_matches(compiled, text: str | bytes, cap: int | None = None) -> int:
    """Number of non-overlapping matches of `compiled` in `text`, counting at most `cap`."""
    return sum(1 for _ in islice(compiled.finditer(text), cap))


class GrepBuffer:
    """Every chunk text joined into one UTF-8 buffer, with each row's starting byte offset.

    One RE2 `search` over the buffer skips every row without a match in C, instead of one Python
    call per chunk; rows are joined by a newline, which `.` does not match, so a broad pattern's
    first match rarely spans two rows (any candidate row is re-checked on its own text anyway).
    The buffer is streamed into an unnamed temporary file and memory-mapped: its pages are the
    page cache's, not a second in-RAM copy of every text (at 1M chunks the joined copy and the
    list of encoded texts it was built from held about 3x the text at once).
    """

    def __init__(self, texts: Iterable[str], folder: str | Path | None = None) -> None:
        starts = array("q")
        offset = 0
        with tempfile.TemporaryFile(dir=folder) as f:  # unlinked at once: nothing is left on disk
            for text in texts:
                data = text.encode("utf-8")
                starts.append(offset)
                f.write(data + b"\n")
                offset += len(data) + 1
            f.flush()
            # The mapping keeps the file's pages alive after it is closed.
            self.data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if offset else b""
        self.starts = np.frombuffer(starts, dtype=np.int64) if len(starts) else np.zeros(0, np.int64)
        self.size = max(offset - 1, 0)  # the buffer without its last row's newline

    def row(self, row: int) -> bytes:
        """The UTF-8 bytes of one row."""
        end = int(self.starts[row + 1]) - 1 if row + 1 < len(self.starts) else self.size
        return self.data[int(self.starts[row]) : end]

    def candidate_rows(self, compiled, first_row: int = 0) -> Iterator[tuple[int, bool]]:
        """(row, verified) for rows (ascending) where a match of `compiled` starts in the joined buffer.

        Every row with a match on its own text is among them (for patterns without ^, $, \\A,
        \\z, whose meaning changes at a row boundary; the caller scans those row by row).
        verified: the match ended inside the row, so the row matches on its own text too.
        """
        starts, data, size = self.starts, self.data, self.size
        pos = int(starts[first_row]) if first_row < len(starts) else size + 1
        while pos <= size:
            match = compiled.search(data, pos, size)
            if match is None:
                return
            row = int(np.searchsorted(starts, match.start(), side="right")) - 1
            end = int(starts[row + 1]) - 1 if row + 1 < len(starts) else size
            yield row, match.end() <= end
            if row + 1 >= len(starts):
                return
            pos = int(starts[row + 1])


def grep_rows(
    pattern: str,
    texts: Sequence[str],
    k: int,
    skip: Set[int] = frozenset(),
    *,
    buffer: GrepBuffer | None = None,
    max_count: int = MAX_COUNT,
    time_limit: float | None = TIME_LIMIT_S,
) -> GrepScan:
    """The `k` rows with the most matches (counts capped at `max_count`); ties keep row order.

    Rows in `skip` (excluded chunks) are left out without shrinking the k returned. Bounded work:
    the scan stops as soon as k rows reached the cap (no later row can outrank them, so the result
    is exact), and at `time_limit` seconds (then `complete` is False and the best rows seen so
    far are returned). With a `buffer` of the same texts, rows without a match are skipped by
    one RE2 scan of the joined text instead of a Python call per row.
    """
    compiled = compile_pattern(pattern)
    if k < 1 or not texts:
        return GrepScan(rows=[], complete=True, scanned=0, total=len(texts), capped=False)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if buffer is not None and not _ROW_ANCHORS.search(pattern):
        rows: Iterable[tuple[int, bool]] = buffer.candidate_rows(compiled)
    else:
        rows = ((row, False) for row in range(len(texts)))
    # Rows are matched as UTF-8 bytes: google-re2 maps every match of a str back to character
    # offsets in Python, which made counting 15-35x slower than on bytes.
    row_bytes = buffer.row if buffer is not None else (lambda r: texts[r].encode("utf-8"))
    counts: list[tuple[int, int]] = []
    full = 0
    complete, scanned = True, 0
    for row, verified in rows:
        scanned = row + 1
        if row in skip:
            continue
        data = row_bytes(row)
        if not verified and compiled.search(data) is None:  # no match, or one that spanned two rows
            continue
        count = count_matches(compiled, data, max_count)
        counts.append((row, count))
        if count >= max_count:
            full += 1
            if full >= k:
                break  # k rows at the cap, in row order: nothing later can rank above them
        if deadline is not None and time.monotonic() > deadline:
            complete = scanned >= len(texts)
            break
    else:
        scanned = len(texts)
    counts.sort(key=lambda pair: (-pair[1], pair[0]))
    top = counts[:k]
    return GrepScan(
        rows=top, complete=complete, scanned=scanned, total=len(texts), capped=any(c >= max_count for _, c in top)
    )
