"""Scans of memory-mapped index files that do not keep what they have read resident.

A build reads whole files back through memory maps: the chunk table to save its per-line numbers
and metadata columns, the vector matrix to fill the FAISS index. Every page a scan touches stays
in the process's resident set until the map is closed, so a build's peak RSS grew by the size of
those files (1.1 GB of table and 1.5 GB of vectors at 1M chunks). Once a scan has moved past a
span it tells the kernel it no longer needs those pages (MADV_DONTNEED: for a read-only file
mapping they are dropped from the process and read back from the page cache if touched again),
so the resident part of a mapping is one window, whatever the file's size.
"""

from __future__ import annotations

import mmap
from collections.abc import Iterator
from typing import Any

import numpy as np

WINDOW = 1 << 25  # bytes of a table file scanned at a time (32 MB)


def release(data: Any, start: int, stop: int) -> None:
    """Drop the resident pages of bytes [start, stop) of a read-only mapping (`mmap.mmap` or `np.memmap`).

    Anything else (bytes, an array in memory) and platforms without madvise: nothing to do.
    """
    if isinstance(data, np.memmap):
        offset = int(data.offset)
        data = getattr(data, "_mmap", None)  # numpy's own map of the file: where the pages are
        start, stop = start + offset, stop + offset
    if not isinstance(data, mmap.mmap) or not hasattr(mmap, "MADV_DONTNEED") or stop <= start:
        return
    first = start - start % mmap.PAGESIZE  # madvise takes a page-aligned start
    stop = min(stop, len(data))
    if stop > first:
        data.madvise(mmap.MADV_DONTNEED, first, stop - first)


def release_rows(matrix: Any, start: int, stop: int) -> None:
    """`release` for rows [start, stop) of a C-ordered memory-mapped matrix (an `np.load(mmap_mode="r")`)."""
    row = matrix.strides[0] if matrix.ndim else 0
    release(matrix, start * row, stop * row)


def line_windows(data: Any, size: int | None = None) -> Iterator[tuple[int, int]]:
    """Spans [lo, hi) of whole lines covering `data` in order, about `size` bytes each (more for a longer line).

    size: WINDOW when None (read at call time). The pages of each span are released when the
    caller asks for the next one (and after the last).
    """
    size = size or WINDOW
    end, lo = len(data), 0
    while lo < end:
        newline = data.find(b"\n", min(lo + size, end) - 1)
        hi = end if newline < 0 else newline + 1
        yield lo, hi
        release(data, lo, hi)
        lo = hi


FAULT_AROUND = 1 << 16  # bytes Linux maps around a faulted page of a file in the page cache (fault_around_bytes)
GATHER_STEP = 64  # rows gathered between two releases (the kernel maps up to 64 KB around each page it faults in)


def gather_rows(matrix: Any, rows: np.ndarray, dtype: Any = None) -> np.ndarray:
    """`matrix[rows]` as an array in memory, for a memory-mapped `matrix`, without its pages staying resident.

    A read of a mapped file maps the pages around the one read too (the kernel's fault-around,
    64 KB): rows gathered from all over a file map most of it, so sampling 41k rows of the 1.5 GB
    vector matrix at 1M chunks briefly made the whole file resident. Gathered `GATHER_STEP` rows
    at a time, the mapping's pages released after each step.
    """
    rows = np.asarray(rows, dtype=np.int64)
    out = np.empty((len(rows), *matrix.shape[1:]), dtype=dtype or matrix.dtype)
    around = FAULT_AROUND // max(1, matrix.strides[0]) + 1  # rows the kernel may have mapped beside one read
    for at in range(0, len(rows), GATHER_STEP):
        step = rows[at : at + GATHER_STEP]
        out[at : at + GATHER_STEP] = matrix[step]
        if len(step):
            release_rows(matrix, max(0, int(step.min()) - around), int(step.max()) + around + 1)
    return out


def trim_heap() -> None:
    """Give the C heap's free memory back to the system (glibc's malloc_trim; elsewhere nothing).

    numpy arrays of up to 32 MB come from the heap once glibc has raised its mmap threshold, and
    a heap only shrinks from its top: after a phase of large temporaries (boilerplate scoring at
    1M chunks) ~60 MB of freed heap stayed resident through the rest of the build.
    """
    global _LIBC
    if _LIBC is None:
        try:
            import ctypes

            _LIBC = ctypes.CDLL("libc.so.6")
            _LIBC.malloc_trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):
            _LIBC = False
    if _LIBC:
        _LIBC.malloc_trim(0)


_LIBC: Any = None
