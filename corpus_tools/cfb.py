"""Compound File Binary files ([MS-CFB]): the container of Outlook's .msg and of Office 97-2003 files.

A compound file is a small file system inside one file: fixed-size sectors, a FAT chaining them, a
directory of storages (folders) and streams (files), and a mini stream of 64-byte sectors holding the
streams shorter than 4,096 bytes. `CompoundFile` reads it from bytes with the standard library and
hands out streams by path ("__substg1.0_0037001F", "__recip_version1.0_#00000000/__properties_version1.0").

Every chain is followed with a bound (a sector visited twice is a loop, not a stream), every sector
number is checked against the file's length, and anything out of bounds raises `UnreadableFileError`
saying the file is broken, so a damaged .msg is skipped with a reason and never hangs a build.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from corpus_tools.readers import UnreadableFileError

SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_FREE, _END, _FAT, _DIF = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFC
_NO_STREAM = 0xFFFFFFFF
_STORAGE, _STREAM, _ROOT = 1, 2, 5


@dataclass(frozen=True)
class Entry:
    """One directory entry: a storage (folder) or a stream."""

    name: str
    kind: int
    start: int
    size: int
    child: int
    left: int
    right: int


class CompoundFile:
    """A compound file read from its bytes: `streams()` lists its streams by path, `read(path)` returns one."""

    def __init__(self, data: bytes) -> None:
        if not data.startswith(SIGNATURE):
            raise UnreadableFileError("not a compound file (an Outlook .msg or Office 97-2003 file starts with "
                                      "D0 CF 11 E0)")
        if len(data) < 512:
            raise UnreadableFileError(f"broken compound file ({len(data)} bytes, shorter than its header: truncated?)")
        self.data = data
        shift, mini_shift = struct.unpack_from("<HH", data, 0x1E)
        if shift not in (9, 12) or mini_shift != 6:
            raise UnreadableFileError(f"broken compound file (sector shift {shift}, mini sector shift {mini_shift})")
        self.sector = 1 << shift
        self.sectors = max((len(data) - 512) // self.sector + (1 if (len(data) - 512) % self.sector else 0), 0)
        (_n_fat, first_dir, _txn, self.cutoff, first_minifat, n_minifat, first_difat,
         _n_difat) = struct.unpack_from("<IIIIIIII", data, 0x2C)
        self.fat = self._read_fat(first_difat)
        self.entries = self._read_directory(first_dir)
        root = self.entries[0]
        if root.kind != _ROOT:
            raise UnreadableFileError("broken compound file (its first directory entry is not the root)")
        self.minifat = self._ints(self._chain_bytes(first_minifat, n_minifat * self.sector)) if n_minifat else []
        self.ministream = self._chain_bytes(root.start, root.size) if root.size else b""
        self.paths = self._walk()

    # ---------------------------------------------------------------- public

    def streams(self) -> list[str]:
        """The paths of every stream, "storage/…/stream", in directory order."""
        return [path for path, entry in self.paths.items() if entry.kind == _STREAM]

    def exists(self, path: str) -> bool:
        return path in self.paths

    def read(self, path: str) -> bytes:
        """The bytes of the stream at `path`; KeyError when there is none."""
        entry = self.paths[path]
        if entry.kind != _STREAM:
            raise KeyError(path)
        if entry.size < self.cutoff:
            return self._mini_bytes(entry.start, entry.size)
        return self._chain_bytes(entry.start, entry.size)

    def storages(self, prefix: str = "") -> list[str]:
        """The storages directly under `prefix` ("" = the root)."""
        depth = prefix.count("/") + 1 if prefix else 0
        return [p for p, e in self.paths.items() if e.kind == _STORAGE and p.startswith(prefix)
                and p.count("/") == depth]

    # ---------------------------------------------------------------- sectors and chains

    def _at(self, sector: int) -> int:
        if sector >= self.sectors:
            raise UnreadableFileError(f"broken compound file (sector {sector} past its end: truncated?)")
        return 512 + sector * self.sector

    def _ints(self, raw: bytes) -> list[int]:
        return list(struct.unpack(f"<{len(raw) // 4}I", raw[: len(raw) // 4 * 4]))

    def _read_fat(self, first_difat: int) -> list[int]:
        ids = [i for i in struct.unpack_from("<109I", self.data, 0x4C) if i not in (_FREE, _END)]
        seen: set[int] = set()
        sector = first_difat
        per = self.sector // 4 - 1
        while sector not in (_FREE, _END):
            if sector in seen:
                raise UnreadableFileError("broken compound file (its DIFAT chain loops)")
            seen.add(sector)
            values = self._ints(self.data[self._at(sector): self._at(sector) + self.sector])
            ids.extend(v for v in values[:per] if v not in (_FREE, _END))
            sector = values[per]
        fat: list[int] = []
        for sector in ids:
            start = self._at(sector)
            fat.extend(self._ints(self.data[start: start + self.sector]))
        return fat

    def _chain(self, start: int, table: list[int]) -> list[int]:
        out, seen, sector = [], set(), start
        while sector not in (_END, _FREE):
            if sector >= len(table) or sector in seen:
                raise UnreadableFileError("broken compound file (a sector chain loops or points past its table: "
                                          "truncated?)")
            seen.add(sector)
            out.append(sector)
            sector = table[sector]
        return out

    def _chain_bytes(self, start: int, size: int) -> bytes:
        parts = []
        for sector in self._chain(start, self.fat):
            offset = self._at(sector)
            parts.append(self.data[offset: offset + self.sector])
        raw = b"".join(parts)
        if len(raw) < size:
            raise UnreadableFileError("broken compound file (a stream is shorter than its directory says: truncated?)")
        return raw[:size]

    def _mini_bytes(self, start: int, size: int) -> bytes:
        parts = []
        for sector in self._chain(start, self.minifat):
            parts.append(self.ministream[sector * 64: sector * 64 + 64])
        raw = b"".join(parts)
        if len(raw) < size:
            raise UnreadableFileError("broken compound file (a small stream is shorter than its directory says)")
        return raw[:size]

    # ---------------------------------------------------------------- the directory

    def _read_directory(self, first: int) -> list[Entry]:
        raw = b"".join(self.data[self._at(s): self._at(s) + self.sector] for s in self._chain(first, self.fat))
        entries = []
        for offset in range(0, len(raw) - 127, 128):
            name_len, kind = struct.unpack_from("<HB", raw, offset + 0x40)
            left, right, child = struct.unpack_from("<III", raw, offset + 0x44)
            start, size = struct.unpack_from("<IQ", raw, offset + 0x74)
            if self.sector == 512:
                size &= 0xFFFFFFFF  # version 3 files keep garbage in the high half
            name = raw[offset: offset + max(min(name_len, 64) - 2, 0)].decode("utf-16-le", "replace")
            entries.append(Entry(name, kind, start, size, child, left, right))
        if not entries:
            raise UnreadableFileError("broken compound file (no directory)")
        return entries

    def _walk(self) -> dict[str, Entry]:
        """Every entry by its path, found by walking each storage's sibling tree (bounded: no entry twice)."""
        paths: dict[str, Entry] = {}
        seen: set[int] = {0}
        todo = [(self.entries[0].child, "")]
        while todo:
            index, prefix = todo.pop()
            stack = [index]
            while stack:
                i = stack.pop()
                if i == _NO_STREAM or i >= len(self.entries) or i in seen:
                    continue
                seen.add(i)
                entry = self.entries[i]
                if entry.kind not in (_STORAGE, _STREAM):
                    continue
                path = f"{prefix}{entry.name}"
                paths[path] = entry
                stack.extend((entry.left, entry.right))
                if entry.kind == _STORAGE:
                    todo.append((entry.child, f"{path}/"))
        return dict(sorted(paths.items()))
