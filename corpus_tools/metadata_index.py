"""The metadata index: per-field columns of every table line, so a `where` is a vectorised mask.

A filter used to be evaluated by parsing every row's JSON (`filters.matches_where` per chunk):
seconds at 1M chunks for each new filter, with a cache of 32 filters that then cleared. Here each
table file gets its columns when it is written (`chunks.<g>.meta.npz` beside it, with the
file's stamp, like its line numbers): for each scalar field of `store.chunk_metadata` (the
document's metadata, title, doc_id, position, n_tokens; chunk ids are the table's own column) a
kind per line (absent / number / string), the numbers as float64 and the strings as codes into
the field's sorted dictionary (UTF-8 bytes), so string order is code order. `MetadataIndex.mask` evaluates a
checked filter with the same meaning as `filters.matches_where` (tests compare both on every
operator), in numpy. Any JSON-able metadata keys work: a field is whatever key the rows hold.

A table file without columns (an index written before them, or a stale file) gets them by one
scan on the first filtered search, kept in memory for every later filter.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np

from corpus_tools.bm25 import NPY_LOCK
from corpus_tools.column_files import ColumnFile, block_sizes, longest, merge_sorted, save_npz, save_sorted
from corpus_tools.deadline import checked
from corpus_tools.pages import release
from corpus_tools.table import table_stamp

META_SUFFIX = ".meta.npz"
ABSENT, NUMBER, STRING = 0, 1, 2
# Filters on these fall back to a row scan (`MetadataIndex.covers`): chunk ids are the table's own
# column, and the contextual header (chunk_context.py) is a string per document built from fields
# that have columns of their own; as a column its dictionary was 200 MB at 1M chunks (and 650 MB
# while a build sorted it), for a filter nobody writes.
_TABLE_FIELDS = ("chunk_id", "header")
_RESERVED = ("chunk_id", "doc_id", "position", "n_tokens", "title")  # store.chunk_metadata's own keys
_TAIL = b', "metadata": '  # the last key of a row as index_format.chunk_row writes it
_SCAN_BLOCK = 65_536  # table lines parsed at a time by scan_columns


def meta_path(table: Path) -> Path:
    """Where the metadata columns of the table file `table` are kept (chunks.3.jsonl → chunks.3.meta.npz)."""
    return table.with_name(table.name.removesuffix(".jsonl") + META_SUFFIX)


def row_fields(line: bytes) -> dict[str, Any]:
    """The `where`-able fields a table row's metadata gives (store.chunk_metadata's, ids and numbers aside)."""
    at = line.rfind(_TAIL)
    metadata: Any = None
    if at >= 0:  # the metadata alone: the text (most of the row) is not decoded
        try:
            metadata = json.loads(line[at + len(_TAIL) :].rstrip().removesuffix(b"}"))
        except ValueError:
            metadata = None
    if not isinstance(metadata, dict):  # another layout: the whole row
        metadata = json.loads(line).get("metadata") or {}
    fields = {
        k: v
        for k, v in metadata.items()
        if k not in _RESERVED and k not in _TABLE_FIELDS and isinstance(v, (str, int, float, bool))
    }
    fields["title"] = str(metadata.get("title") or "")
    return fields


class _ColumnsBuilder:
    """Collects fields line by line in compact arrays (strings as codes of first appearance); `arrays` sorts them."""

    def __init__(self) -> None:
        self.n = 0
        self.fields: dict[str, tuple[array, array, array, dict[str, int]]] = {}
        self._offset = 0  # lines before the arrays' first (_SpilledColumns holds one block of lines)

    def add(self, fields: Mapping[str, Any]) -> None:
        held = self.n - self._offset
        for key, value in fields.items():
            column = self.fields.get(key)
            if column is None:
                column = self.fields[key] = (array("b", bytes(held)), array("d", bytes(8 * held)),
                                             array("i", [-1]) * held, {})
            kinds, numbers, codes, words = column
            if isinstance(value, str):
                kinds.append(STRING)
                numbers.append(0.0)
                codes.append(words.setdefault(value, len(words)))
            else:
                kinds.append(NUMBER)
                numbers.append(float(value))
                codes.append(-1)
        self.n += 1
        for kinds, numbers, codes, _ in self.fields.values():
            if len(kinds) < self.n - self._offset:
                kinds.append(ABSENT)
                numbers.append(0.0)
                codes.append(-1)

    def arrays(self) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {"n_lines": np.array([self.n]), "fields": np.array(sorted(self.fields), dtype=str)}
        for i, key in enumerate(sorted(self.fields)):
            kinds, numbers, codes, words = self.fields[key]
            # UTF-8 bytes (1 byte a character where numpy's str takes 4); byte order is code point order.
            first_seen = np.array([w.encode("utf-8") for w in words], dtype=bytes)
            order = np.argsort(first_seen, kind="stable")  # sorted dictionary: string order is code order
            rank = np.empty(len(order), dtype=np.int32)
            rank[order] = np.arange(len(order), dtype=np.int32)
            code = np.frombuffer(codes, dtype=np.int32).copy()
            code[code >= 0] = rank[code[code >= 0]]
            out[f"k{i}"] = np.frombuffer(kinds, dtype=np.int8).copy()
            out[f"n{i}"] = np.frombuffer(numbers, dtype=np.float64).copy()
            out[f"c{i}"], out[f"d{i}"] = code, first_seen[order]
        return out


def scan_columns(data: bytes | Any, lines: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Columns of a table file's lines, given its per-line numbers (`table.scan_table`'s columns).

    A block of lines at a time: Python numbers for one block (not six lists the length of the
    file), and the block's mapped pages released once parsed (`pages.release`).
    """
    builder = _ColumnsBuilder()
    blob = lines["id_blob"].tobytes()
    ends = lines["id_at"] + np.abs(lines["id_len"][:, :2]).sum(axis=1)  # where each doc id starts
    n = len(lines["start"])
    for first in range(0, n, _SCAN_BLOCK):
        block = slice(first, first + _SCAN_BLOCK)
        rows = zip(
            lines["start"][block].tolist(),
            lines["length"][block].tolist(),
            ends[block].tolist(),
            lines["id_len"][block, 2].tolist(),
            lines["position"][block].tolist(),
            lines["n_tokens"][block].tolist(),
            strict=True,
        )
        for start, length, doc_at, doc_len, position, n_tokens in checked(rows):
            fields = row_fields(bytes(data[start : start + length]))
            fields.update(doc_id=blob[doc_at : doc_at + doc_len].decode(), position=position, n_tokens=n_tokens)
            builder.add(fields)
        last = min(first + _SCAN_BLOCK, n) - 1
        release(data, int(lines["start"][first]), int(lines["start"][last] + lines["length"][last]))
    return builder.arrays()


def write_columns(table: Path, data: bytes | Any, lines: Mapping[str, np.ndarray], write_atomic: Any) -> None:
    """Save the columns of the table file `table` beside it (with its stamp), through `write_atomic`."""
    arrays = {**scan_columns(data, lines), "table_stamp": table_stamp(data)}
    write_atomic(meta_path(table), lambda f: np.savez(f, **arrays))


def save_spilled_columns(
    out: IO[bytes], data: bytes | Any, lines: Mapping[str, ColumnFile], folder: Path, stamp: np.ndarray
) -> None:
    """What `write_columns` saves, from a table's per-line numbers on disk (`table.spill_line_columns`),
    with the columns built on disk in `folder` (`_SpilledColumns`): memory holds one block of lines.

    In memory the columns took 13 bytes a field a line and every distinct string of a field in a
    dict (a doc id a document): 107 MB of file, ~300 MB of memory at 1M chunks.
    """
    columns = _SpilledColumns(folder)
    n = lines["start"].rows
    for first in range(0, n, _SCAN_BLOCK):
        last = min(first + _SCAN_BLOCK, n)
        block = {name: lines[name].read(first, last) for name in ("start", "length", "id_at", "id_len", "position", "n_tokens")}
        doc_at = block["id_at"] + np.abs(block["id_len"][:, :2]).sum(axis=1)  # where each doc id starts
        blob_lo = int(block["id_at"][0])
        blob = lines["id_blob"].read(blob_lo, int(block["id_at"][-1] + np.abs(block["id_len"][-1]).sum())).tobytes()
        rows = zip(block["start"].tolist(), block["length"].tolist(), (doc_at - blob_lo).tolist(),
                   block["id_len"][:, 2].tolist(), block["position"].tolist(), block["n_tokens"].tolist(), strict=True)
        for start, length, at, doc_len, position, n_tokens in checked(rows):
            fields = row_fields(bytes(data[start : start + length]))
            fields.update(doc_id=blob[at : at + doc_len].decode(), position=position, n_tokens=n_tokens)
            columns.add(fields)
        columns.seal_block()
        release(data, int(block["start"][0]), int(block["start"][-1] + block["length"][-1]))
    columns.save(out, stamp)


class _SpilledColumns(_ColumnsBuilder):
    """`_ColumnsBuilder` for one block of lines at a time: at `seal_block` the block's columns are appended
    to files and its strings saved sorted (column_files); `save` merges each field's dictionaries and
    writes the .npz `arrays` would give, the same arrays."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.sealed = 0  # lines already in the files
        # Per field: its kind, number and code files, its sorted blocks, and the lines each block covers.
        self.files: dict[str, tuple[ColumnFile, ColumnFile, ColumnFile, list[tuple[Path, int, int]]]] = {}

    def seal_block(self) -> None:
        for key, (kinds, numbers, codes, words) in self.fields.items():
            spilled = self.files.get(key)
            if spilled is None:  # a field first met in this block: absent from every line before it
                name = f"f{len(self.files)}"
                spilled = self.files[key] = (ColumnFile(self.folder / f"{name}.k", np.int8),
                                             ColumnFile(self.folder / f"{name}.n", np.float64),
                                             ColumnFile(self.folder / f"{name}.c", np.int32), [])
                for column, value in zip(spilled[:3], (ABSENT, 0.0, -1), strict=True):
                    column.fill(value, self.sealed)
            spilled[0].append(np.frombuffer(kinds, dtype=np.int8))
            spilled[1].append(np.frombuffer(numbers, dtype=np.float64))
            spilled[2].append(np.frombuffer(codes, dtype=np.int32))
            if words:
                stem = spilled[0].path.with_suffix(f".d{len(spilled[3])}")
                save_sorted(stem, words)
                spilled[3].append((stem, self.sealed, self.n))
        # The next block starts empty: a field's arrays hold only the lines past `sealed`.
        self.sealed = self._offset = self.n
        self.fields = {key: (array("b"), array("d"), array("i"), {}) for key in self.fields}

    def save(self, out: IO[bytes], stamp: np.ndarray) -> None:
        self.seal_block()
        members: list[tuple[str, np.ndarray | ColumnFile]] = [
            ("n_lines", np.array([self.n])), ("fields", np.array(sorted(self.files), dtype=str))]
        for i, key in enumerate(sorted(self.files)):
            kinds, numbers, codes, blocks = self.files[key]
            stems = [stem for stem, _, _ in blocks]
            maps = [np.empty(size, dtype=np.int32) for size in block_sizes(stems)]
            width = longest(stems)
            dictionary = ColumnFile(kinds.path.with_suffix(".dict"), f"S{max(width, 1)}")
            pending: list[bytes] = []
            for word, rank, number, local in merge_sorted(stems):
                if rank == dictionary.rows + len(pending):
                    pending.append(word.encode("utf-8"))
                    if len(pending) >= _SCAN_BLOCK:
                        dictionary.append(np.array(pending, dtype=dictionary.dtype))
                        pending = []
                maps[number][local] = rank
            if pending:
                dictionary.append(np.array(pending, dtype=dictionary.dtype))
            ranked = ColumnFile(kinds.path.with_suffix(".ranked"), np.int32)
            at = 0
            for (_, lo, hi), ranks in zip(blocks, maps, strict=True):
                if lo > at:
                    ranked.append(codes.read(at, lo))  # blocks without a string: -1 throughout
                code = codes.read(lo, hi).copy()
                code[code >= 0] = ranks[code[code >= 0]]
                ranked.append(code)
                at = hi
            for lo in range(at, self.n, _SCAN_BLOCK):
                ranked.append(codes.read(lo, min(lo + _SCAN_BLOCK, self.n)))
            members += [(f"k{i}", kinds), (f"n{i}", numbers), (f"c{i}", ranked), (f"d{i}", dictionary)]
        save_npz(out, [*members, ("table_stamp", stamp)])


class FileColumns:
    """The metadata columns of one table file."""

    def __init__(self, arrays: Mapping[str, np.ndarray]) -> None:
        self.n_lines = int(arrays["n_lines"][0])
        self.columns: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        for i, key in enumerate(arrays["fields"].tolist()):
            words = arrays[f"d{i}"]
            if words.dtype.kind == "U":  # a dictionary saved as numpy str: the same order as UTF-8 bytes
                words = np.char.encode(words, "utf-8")
            self.columns[key] = (arrays[f"k{i}"], arrays[f"n{i}"], arrays[f"c{i}"], words)

    @classmethod
    def load(cls, table: Path, data: bytes | Any) -> FileColumns | None:
        """The saved columns if they were saved for this very table content; else None."""
        try:
            with NPY_LOCK, np.load(meta_path(table), allow_pickle=False) as saved:
                arrays = {name: saved[name] for name in saved.files}
        except (OSError, ValueError, KeyError, EOFError):
            return None
        stamp = arrays.pop("table_stamp", None)
        if stamp is None or not np.array_equal(stamp, table_stamp(data)):
            return None
        return cls(arrays)

    def mask(self, where: Mapping[str, Any]) -> np.ndarray:
        """Lines of this file passing the checked filter (filters.matches_where's meaning)."""
        out = np.ones(self.n_lines, dtype=bool)
        for key, value in where.items():
            if key == "$and":
                for sub in value:
                    out &= self.mask(sub)
            elif key == "$or":
                any_of = np.zeros(self.n_lines, dtype=bool)
                for sub in value:
                    any_of |= self.mask(sub)
                out &= any_of
            else:
                op, operand = next(iter(value.items())) if isinstance(value, Mapping) else ("$eq", value)
                out &= self._compare(key, op, operand)
        return out

    def _compare(self, key: str, op: str, operand: Any) -> np.ndarray:
        column = self.columns.get(key)
        if column is None:  # no line holds the field: only the negative operators pass (None != x)
            return np.full(self.n_lines, op in ("$ne", "$nin"), dtype=bool)
        kind, numbers, codes, dictionary = column
        if op in ("$in", "$nin"):
            found = np.zeros(self.n_lines, dtype=bool)
            for item in operand:
                found |= self._equal(kind, numbers, codes, dictionary, item)
            return found if op == "$in" else ~found
        if op in ("$eq", "$ne"):
            equal = self._equal(kind, numbers, codes, dictionary, operand)
            return equal if op == "$eq" else ~equal
        # Ordering: numbers with numbers (bools are numbers, as in Python), strings with strings.
        if isinstance(operand, str):
            pos = {"$gt": ("right", 0), "$gte": ("left", 0), "$lt": ("left", 1), "$lte": ("right", 1)}[op]
            cut = int(np.searchsorted(dictionary, operand.encode("utf-8"), side=pos[0]))
            ok = codes >= cut if pos[1] == 0 else (codes < cut) & (codes >= 0)
            return ok & (kind == STRING)
        value = float(operand)
        compare = {"$gt": np.greater, "$gte": np.greater_equal, "$lt": np.less, "$lte": np.less_equal}[op]
        return compare(numbers, value) & (kind == NUMBER)

    @staticmethod
    def _equal(kind, numbers, codes, dictionary, operand) -> np.ndarray:
        if isinstance(operand, str):
            word = operand.encode("utf-8")
            at = int(np.searchsorted(dictionary, word))
            if at == len(dictionary) or dictionary[at] != word:
                return np.zeros(len(kind), dtype=bool)
            return codes == at
        return (kind == NUMBER) & (numbers == float(operand))


class MetadataIndex:
    """The columns of a table's files, in line order: `mask(where)` over lines."""

    def __init__(self, files: Iterable[FileColumns]) -> None:
        self.files = list(files)

    @staticmethod
    def covers(where: Mapping[str, Any]) -> bool:
        """Whether every field the filter names is in the columns (chunk ids are not)."""
        for key, value in where.items():
            if key in ("$and", "$or"):
                if not all(MetadataIndex.covers(sub) for sub in value):
                    return False
            elif key in _TABLE_FIELDS:
                return False
        return True

    def mask(self, where: Mapping[str, Any]) -> np.ndarray:
        return np.concatenate([f.mask(where) for f in self.files]) if self.files else np.zeros(0, dtype=bool)
