"""Columns written to disk a block at a time, and saved as one .npz without a whole column in memory.

A build saves columns of its chunk table beside it (per-line numbers, table.py; metadata columns,
metadata_index.py) and the vocabulary of its BM25 index (bm25.py). Made in memory, each grew with
the corpus, and they were the build's memory peak at 1M chunks (≈ 480 MB for the table's two
files). Here a column is a file appended block by block (`ColumnFile`), and `save_npz` writes
the same .npz `np.savez` writes (stored members, .npy headers 1.0) from those files, a block at a
time.

Strings to be sorted (a vocabulary, a metadata field's dictionary) are kept per block: each
block's strings sorted to disk (`save_sorted`), merged at the end in one pass (`merge_sorted`),
so memory holds one block's dictionary, not every distinct string of the corpus.
"""

from __future__ import annotations

import heapq
import math
import threading
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

# Held around every .npy/.npz read: numpy parses their headers with `ast.literal_eval`, and CPython
# 3.11's AST validation is not thread-safe (gh-106905: "SystemError: AST constructor recursion depth
# mismatch" when two threads open an index at once, e.g. readers while `Corpus.sync` commits).
# Defined here, the lowest module that reads .npy files; corpus_tools.bm25 re-exports it.
NPY_LOCK = threading.Lock()

BLOCK_BYTES = 1 << 22  # bytes read back per step when a column is copied into an .npz
# Strings a sorted block yields per step of a merge: every block being merged holds one step as Python objects.
_MERGE_STEP = 1_024


class ColumnFile:
    """One column (rows of `dtype` and `row_shape`) appended to a file a block at a time."""

    def __init__(self, path: Path, dtype: Any, row_shape: tuple[int, ...] = ()) -> None:
        self.path, self.dtype, self.row_shape = Path(path), np.dtype(dtype), tuple(row_shape)
        self.rows = 0
        self._file = open(self.path, "wb")  # noqa: SIM115 - closed in close()
        self._row_items = math.prod(self.row_shape)

    def append(self, values: Any) -> None:
        values = np.ascontiguousarray(values, dtype=self.dtype).reshape(-1, *self.row_shape)
        self._file.write(values.tobytes())
        self.rows += len(values)

    def fill(self, value: Any, rows: int) -> None:
        """Append `rows` rows of `value`, a block at a time."""
        step = max(1, BLOCK_BYTES // max(1, self.dtype.itemsize * self._row_items))
        for done in range(0, rows, step):
            self.append(np.full((min(step, rows - done), *self.row_shape), value, dtype=self.dtype))

    def read(self, lo: int, hi: int) -> np.ndarray:
        """Rows [lo, hi), read from the file (not mapped: nothing stays resident)."""
        self._file.flush()
        row_bytes = self.dtype.itemsize * self._row_items
        hi = min(hi, self.rows)
        with open(self.path, "rb") as f:
            f.seek(lo * row_bytes)
            values = np.fromfile(f, dtype=self.dtype, count=max(0, hi - lo) * self._row_items)
        return values.reshape(-1, *self.row_shape)

    def blocks(self) -> Iterator[np.ndarray]:
        step = max(1, BLOCK_BYTES // max(1, self.dtype.itemsize * self._row_items))
        for lo in range(0, self.rows, step):
            yield self.read(lo, lo + step)

    def close(self) -> None:
        self._file.close()


def save_npz(out: IO[bytes], members: Sequence[tuple[str, np.ndarray | ColumnFile]]) -> None:
    """Write `np.savez(out, **dict(members))`'s archive, reading each `ColumnFile` a block at a time."""
    with zipfile.ZipFile(out, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, value in members:
            with archive.open(f"{name}.npy", "w", force_zip64=True) as f:
                if isinstance(value, ColumnFile):
                    header = {"descr": np.lib.format.dtype_to_descr(value.dtype), "fortran_order": False,
                              "shape": (value.rows, *value.row_shape)}
                    np.lib.format.write_array_header_1_0(f, header)
                    for block in value.blocks():
                        f.write(memoryview(np.ascontiguousarray(block)).cast("B"))  # no copy of the block
                else:
                    np.lib.format.write_array(f, np.asanyarray(value), allow_pickle=False)


# A sorted block's files: its strings sorted (UTF-8 bytes, packed), their ends, and the block's id of each.
SORTED_PARTS = (".blob.npy", ".ends.npy", ".ids.npy")


def save_sorted(stem: Path, ids: Mapping[str, int]) -> None:
    """Save a block's {string: the block's id} sorted by UTF-8 bytes (str order is code point order: the same)."""
    strings = sorted(ids)
    encoded = [s.encode("utf-8") for s in strings]
    np.save(f"{stem}.blob.npy", np.frombuffer(b"".join(encoded), dtype=np.uint8))
    np.save(f"{stem}.ends.npy", np.cumsum([len(s) for s in encoded], dtype=np.int64))
    np.save(f"{stem}.ids.npy", np.asarray([ids[s] for s in strings], dtype=np.int32))


def remove_sorted(stem: Path) -> None:
    for suffix in SORTED_PARTS:
        Path(f"{stem}{suffix}").unlink(missing_ok=True)


def _load_sorted(stem: Path) -> tuple[np.ndarray, ...]:
    """(blob, ends, ids) of a block, memory-mapped (an empty array is read whole: it cannot be mapped)."""
    parts = []
    for suffix in SORTED_PARTS:
        path = Path(f"{stem}{suffix}")
        with NPY_LOCK:
            parts.append(np.load(path, mmap_mode="r") if path.stat().st_size > 128 else np.load(path))
    return tuple(parts)


def _sorted_items(stem: Path, number: int) -> Iterator[tuple[str, int, int]]:
    """(string, block number, the block's id of it) in sorted order, a slice of the block at a time."""
    blob, ends, ids = _load_sorted(stem)
    for at in range(0, len(ends), _MERGE_STEP):
        part_ends = ends[at : at + _MERGE_STEP].tolist()
        part_ids = ids[at : at + _MERGE_STEP].tolist()
        lo = int(ends[at - 1]) if at else 0
        text = bytes(blob[lo : part_ends[-1]])
        start = 0
        for end, local in zip(part_ends, part_ids, strict=True):
            yield text[start : end - lo].decode("utf-8"), number, local
            start = end - lo


def block_sizes(stems: Sequence[Path]) -> list[int]:
    """How many strings each sorted block holds."""
    with NPY_LOCK:
        return [int(np.load(f"{stem}.ids.npy", mmap_mode="r").shape[0]) for stem in stems]


def longest(stems: Sequence[Path]) -> int:
    """The longest string's UTF-8 length over sorted blocks (0 when they hold none)."""
    most = 0
    for stem in stems:
        with NPY_LOCK:
            ends = np.load(f"{stem}.ends.npy")
        if len(ends):
            most = max(most, int(np.diff(ends, prepend=0).max()))
    return most


def merge_sorted(stems: Sequence[Path]) -> Iterator[tuple[str, int, int, int]]:
    """Every block's strings in one sorted pass: (string, its rank among the distinct strings, block, the block's id).

    A string held by several blocks comes once per block, with one rank.
    """
    rank, last = -1, None
    for string, number, local in heapq.merge(*(_sorted_items(stem, k) for k, stem in enumerate(stems))):
        if string != last:
            rank, last = rank + 1, string
        yield string, rank, number, local
