"""The chunk table of an opened index, read from its files on demand.

An opened index used to hold every chunk as a Python object (≈ 2.4 KB a chunk with its text,
metadata and the id dictionaries), so memory grew with the corpus: ≈ 480 MB at 200k chunks
before a single search. Here the rows stay in the table's JSONL files, memory-mapped, and memory
holds per line where it is (file, byte span), 64-bit hashes of its chunk id, vector id and doc
id, its position and token count, and the ids themselves packed as UTF-8 bytes (≈ 150 bytes a
line with HotpotQA-style ids). Search resolves and fuses ids without parsing a row; a row's text
and metadata are parsed when a `Chunk` is asked for (the last few thousand are cached).

Hashes are Python's own `hash` of the string (stable within the process, which is all they are
used for), computed on the first lookup by id; a lookup by hash is always confirmed against the
parsed row, so a collision costs a second comparison, never a wrong answer.

The per-line numbers of each table file are saved beside it when it is written
(`chunks.<g>.lines.npz`, see index_format.py), so an open loads them instead of scanning the
file: 0.3 s of CPU at 50k chunks became ~0.02 s. They are checked against the file's size and a
hash of its ends; a missing or stale one costs a scan, never a wrong row.

Rows and lines: the table's files (base, then delta segments) hold *lines*; the live *rows* are
those lines minus deleted ones, in order (see index_format.py). `derive` makes the table of the next
generation from this one without re-reading the lines it keeps.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import re
import threading
from collections.abc import Iterator, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from corpus_tools.bm25 import NPY_LOCK  # numpy's .npy header parsing is not thread-safe (see there)
from corpus_tools.column_files import ColumnFile
from corpus_tools.pages import line_windows
from corpus_tools.types import Chunk

# The head of a row as index_format.chunk_row writes it (json.dumps with ensure_ascii=False: ids as
# raw UTF-8 between quotes, a backslash only where JSON escapes), up to where the text starts.
_ROW_HEAD = re.compile(
    rb'\{"chunk_id": "((?:[^"\\]|\\.)*)", "vector_id": "((?:[^"\\]|\\.)*)", '
    rb'"doc_id": "((?:[^"\\]|\\.)*)", "position": (\d+), "n_tokens": (\d+), "text": '
)
# The same head with ids that hold no escape: a whole file whose rows all match needs no row-by-row loop.
_ROW_HEADS = re.compile(
    rb'\{"chunk_id": "([^"\\\n]*)", "vector_id": "([^"\\\n]*)", '
    rb'"doc_id": "([^"\\\n]*)", "position": (\d+), "n_tokens": (\d+), "text": '
)
_CACHE_ROWS = 4096  # parsed rows kept per table (a search touches ~100, an agent episode a few hundred)


def _key(text: str) -> int:
    """The 64-bit lookup key of an id (a function, so tests can force collisions)."""
    return hash(text)


def _row_chunk(row: dict) -> Chunk:
    return Chunk(row["chunk_id"], row["doc_id"], row["text"], row["position"], row["n_tokens"], row["metadata"])


LINE_INDEX_SUFFIX = ".lines.npz"  # beside each table file: its per-line numbers (index_format writes it)


def line_index_path(table: Path) -> Path:
    """Where the per-line numbers of the table file `table` are kept (chunks.3.jsonl → chunks.3.lines.npz)."""
    return table.with_name(table.name.removesuffix(".jsonl") + LINE_INDEX_SUFFIX)


def map_file(path: Path) -> mmap.mmap | bytes:
    with open(path, "rb") as f:
        size = f.seek(0, 2)
        # mmap refuses empty files; an empty segment has no lines to read anyway.
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""


def scan_table(path: Path) -> dict[str, np.ndarray]:
    """The per-line columns of one table file and its `table_stamp` (what `line_index_path` keeps)."""
    data = map_file(path)
    return {**_columns(data), "table_stamp": table_stamp(data)}


def _columns(data: mmap.mmap | bytes) -> dict[str, np.ndarray]:
    scanned = _scan_heads(data) if len(data) else None
    if scanned is None:  # an older layout or escaped ids somewhere: row by row
        scanned = _scan_rows(data)
    starts, lengths, positions, tokens, id_at, pieces, id_len = scanned
    return {
        "start": np.asarray(starts, dtype=np.int64),
        "length": np.asarray(lengths, dtype=np.int64),
        "position": np.asarray(positions, dtype=np.int32),
        "n_tokens": np.asarray(tokens, dtype=np.int32),
        "id_at": np.asarray(id_at, dtype=np.int64),
        "id_len": np.asarray(id_len, dtype=np.int32).reshape(-1, 3),
        "id_blob": np.frombuffer(b"".join(pieces), dtype=np.uint8),
    }


def table_stamp(data: mmap.mmap | bytes) -> np.ndarray:
    """What identifies a table file's content for its saved line numbers: its size and a hash of both ends."""
    ends = hashlib.blake2b(data[:65536], digest_size=8)
    ends.update(data[-65536:])
    return np.frombuffer(len(data).to_bytes(8, "little") + ends.digest(), dtype=np.uint8)


def saved_columns(table: Path, data: mmap.mmap | bytes) -> dict[str, np.ndarray] | None:
    """The table file's saved per-line numbers, if they were saved for this very content; else None."""
    try:
        with NPY_LOCK, np.load(line_index_path(table), allow_pickle=False) as saved:
            columns = {name: saved[name] for name in saved.files}
    except (OSError, ValueError, KeyError, EOFError):
        return None  # none (an index written before they were kept), or unreadable: scan instead
    stamp = columns.pop("table_stamp", None)
    if stamp is None or not np.array_equal(stamp, table_stamp(data)):
        return None
    if len({len(columns.get(name, ())) for name in ("start", "length", "position", "n_tokens", "id_at", "id_len")}) != 1:
        return None
    return columns


def _hash_ids(blob: bytes, id_at: np.ndarray, id_len: np.ndarray, column: int) -> np.ndarray:
    """Lookup keys of one id of each line packed in `blob` (see `_Lines.ids`): 0 chunk, 1 vector, 2 doc id."""
    n_vid = id_len[:, 1]
    ends = id_at[:, None] + np.cumsum(np.stack([id_len[:, 0], np.abs(n_vid), id_len[:, 2]], axis=1), axis=1)
    a0, (a1, a2, a3) = id_at.tolist(), ends.T.tolist()
    if column == 2:
        ids = [blob[x:y].decode() for x, y in zip(a2, a3, strict=True)]
    else:
        ids = [blob[x:y].decode() for x, y in zip(a0, a1, strict=True)]
        if column == 1:
            suffixes = [blob[x:y].decode() for x, y in zip(a1, a2, strict=True)]
            ids = [c + v if extends else v for c, v, extends in zip(ids, suffixes, (n_vid >= 0).tolist(), strict=True)]
    return np.fromiter(map(_key, ids), dtype=np.int64, count=len(ids))


class _Lines:
    """Per-line numbers of a list of table files (append-only: `extend` adds a file's lines)."""

    def __init__(self) -> None:
        self.maps: list[mmap.mmap | bytes] = []
        self.paths: list[Path] = []
        self.file = np.zeros(0, dtype=np.int32)
        self.start = np.zeros(0, dtype=np.int64)
        self.length = np.zeros(0, dtype=np.int64)
        self.position = np.zeros(0, dtype=np.int32)
        self.n_tokens = np.zeros(0, dtype=np.int32)
        # Ids packed per file: chunk id, then the vector id's suffix after the chunk id (all of it
        # when it does not start with the chunk id), then the doc id.
        self.id_blobs: list[bytes] = []
        self.id_at = np.zeros(0, dtype=np.int64)
        self.id_len = np.zeros((0, 3), dtype=np.int32)
        # Hashes of (chunk id, vector id, doc id) per line, computed on the first lookup: a search
        # resolves ids without them, and hashing every id was a tenth of a cold open at 50k chunks.
        # Lookup keys per id column (0 chunk, 1 vector, 2 doc id), each hashed on its first use:
        # an add looks documents up by doc id only (a third of the work: 0.9 s at 1M lines).
        self._hashes: dict[int, np.ndarray] = {}

    def copy(self) -> _Lines:
        other = _Lines()
        other.__dict__.update(
            {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in self.__dict__.items()}
        )
        return other

    def extend(self, path: Path) -> None:
        """Read one table file's per-line numbers: saved beside it at commit, else a scan of its rows.

        The scan reads ids and numbers off the head of each row with one regex match; a row in
        another layout (older tables) is parsed as JSON.
        """
        data = map_file(path)
        columns = saved_columns(path, data) or _columns(data)
        index = len(self.maps)
        self.maps.append(data)
        self.paths.append(path)
        n = len(columns["start"])
        self.file = np.concatenate([self.file, np.full(n, index, dtype=np.int32)])
        for name in ("start", "length", "position", "n_tokens", "id_at", "id_len"):
            setattr(self, name, np.concatenate([getattr(self, name), columns[name]]))
        self.id_blobs.append(columns["id_blob"].tobytes())

    def hashes(self, column: int) -> np.ndarray:
        """(lines,) int64: the lookup keys of one id of each line (0 chunk id, 1 vector id, 2 doc id).

        Computed for the lines not hashed yet, a file at a time (a file's lines are contiguous).
        """
        done = self._hashes.get(column, np.zeros(0, dtype=np.int64))
        if len(done) < len(self):
            parts = [done]
            for index in np.unique(self.file[len(done) :]).tolist():
                lines = np.flatnonzero(self.file == index)
                lines = lines[lines >= len(done)]
                parts.append(_hash_ids(self.id_blobs[index], self.id_at[lines], self.id_len[lines], column))
            done = self._hashes[column] = np.concatenate(parts)
        return done

    @property
    def id_hash(self) -> np.ndarray:
        return self.hashes(0)

    @property
    def vid_hash(self) -> np.ndarray:
        return self.hashes(1)

    @property
    def doc_hash(self) -> np.ndarray:
        return self.hashes(2)

    def ids(self, line: int) -> tuple[str, str, str]:
        """(chunk id, vector id, doc id) of a line, from the packed ids (no row parsed)."""
        blob = self.id_blobs[int(self.file[line])]
        at = int(self.id_at[line])
        n_id, n_vid, n_doc = (int(x) for x in self.id_len[line])
        chunk_id = blob[at : at + n_id].decode()
        at += n_id
        vid = blob[at : at + abs(n_vid)].decode()
        vid = chunk_id + vid if n_vid >= 0 else vid
        at += abs(n_vid)
        return chunk_id, vid, blob[at : at + n_doc].decode()

    def raw(self, line: int) -> bytes:
        start = int(self.start[line])
        return self.maps[int(self.file[line])][start : start + int(self.length[line])]

    def __len__(self) -> int:
        return len(self.start)


def _scan_rows(data: mmap.mmap | bytes) -> tuple:
    """Per-line columns of a table file, row by row (see `_scan_heads` for the columns)."""
    columns: tuple[list[int], ...] = ([], [], [], [], [])
    starts, lengths, positions, tokens, id_at = columns
    pieces: list[bytes] = []
    id_len: list[tuple[int, int, int]] = []
    offset = blob_size = 0
    end = len(data)
    match = _ROW_HEAD.match
    while offset < end:
        stop = data.find(b"\n", offset)
        stop = end if stop < 0 else stop + 1
        head = match(data, offset)
        if head is not None and b"\\" not in head.group(0):
            # The row as index_format.chunk_row writes it, ids without escapes: read the ids
            # and numbers off its head; the text and metadata after it are not parsed.
            cid_b, vid_b, doc_b = head.group(1), head.group(2), head.group(3)
            position, n_tokens = int(head.group(4)), int(head.group(5))
        else:  # an older layout, or ids with escapes: parse the whole row
            row = json.loads(data[offset:stop])
            chunk_id, doc_id = row["chunk_id"], row["doc_id"]
            vid = row.get("vector_id") or chunk_id
            cid_b, vid_b, doc_b = chunk_id.encode(), vid.encode(), doc_id.encode()
            position, n_tokens = int(row["position"]), int(row["n_tokens"])
        starts.append(offset)
        lengths.append(stop - offset)
        positions.append(position)
        tokens.append(n_tokens)
        same = vid_b.startswith(cid_b)
        suffix = vid_b[len(cid_b) :] if same else vid_b
        id_at.append(blob_size)
        id_len.append((len(cid_b), len(suffix) if same else -len(suffix), len(doc_b)))
        pieces += (cid_b, suffix, doc_b)
        blob_size += len(cid_b) + len(suffix) + len(doc_b)
        offset = stop
    return starts, lengths, positions, tokens, id_at, pieces, id_len


def _scan_heads(data: mmap.mmap | bytes) -> tuple | None:
    """Per-line columns of a table file in regex passes; None unless every line has a plain head.

    Columns: start, length, position, n_tokens, where the line's ids start in the packed id blob,
    the blob's pieces and the three id lengths (the vector id's negative when it does not extend
    the chunk id). Column by column rather than line by line (the row-by-row loop was most of
    `Corpus.open` at 50k chunks), a window of lines at a time (`_head_windows`).
    """
    parts = []
    for window in _head_windows(data):
        if window is None:
            return None
        parts.append(window)
    if not parts:
        return None
    starts, lengths, positions, tokens, id_len, pieces = zip(*parts, strict=True)
    starts, lengths, positions, tokens, id_len = (np.concatenate(c) for c in (starts, lengths, positions, tokens, id_len))
    sizes = np.abs(id_len).sum(axis=1)
    return starts, lengths, positions, tokens, np.cumsum(sizes) - sizes, list(pieces), id_len


def _head_windows(data: mmap.mmap | bytes) -> Iterator[tuple | None]:
    """Per window of lines (`pages.line_windows`): (starts, lengths, positions, tokens, id lengths, id bytes);
    None for a window with a line whose head is not plain (then the file needs `_scan_rows`).

    Memory holds one window's temporaries and mapped pages, not a byte mask and a match object
    per line of the whole file (≈ 2 GB at 1M chunks).
    """
    match = _ROW_HEADS.match
    for lo, hi in line_windows(data):
        # Line starts from the newline bytes (numpy scans 33 MB in ~30 ms; a multi-line regex took 0.4 s).
        window = np.frombuffer(data, dtype=np.uint8, count=hi - lo, offset=lo)
        bounds = np.concatenate([[0], np.flatnonzero(window == 10) + 1]) + lo
        del window
        if bounds[-1] == hi:
            bounds = bounds[:-1]
        matches = [match(data, start) for start in bounds.tolist()]
        if None in matches:
            yield None
            return
        cid_b, vid_b, doc_b, pos_b, tok_b = zip(*(m.groups() for m in matches), strict=True)
        del matches
        same = [v.startswith(c) for c, v in zip(cid_b, vid_b, strict=True)]
        suffixes = [v[len(c) :] if k else v for c, v, k in zip(cid_b, vid_b, same, strict=True)]
        id_len = np.asarray(
            [(len(c), len(x) if k else -len(x), len(d)) for c, x, d, k in zip(cid_b, suffixes, doc_b, same, strict=True)],
            dtype=np.int64,
        ).reshape(-1, 3)
        piece = b"".join(piece for triple in zip(cid_b, suffixes, doc_b, strict=True) for piece in triple)
        lengths = np.diff(np.append(bounds, hi))
        yield bounds, lengths, np.asarray(pos_b).astype(np.int64), np.asarray(tok_b).astype(np.int64), id_len, piece


def spill_line_columns(data: mmap.mmap | bytes, folder: Path) -> dict[str, ColumnFile] | None:
    """`scan_table`'s columns (without the stamp) written to files in `folder` a window at a time.

    What a build saves as `line_index_path`: in memory the columns and their pieces took ~170
    bytes a line while they were joined (170 MB at 1M chunks). None when a line needs the
    row-by-row scan (an older layout, ids with escapes): the caller scans in memory.
    """
    if not len(data):
        return None
    files = {
        "start": ColumnFile(folder / "start", np.int64), "length": ColumnFile(folder / "length", np.int64),
        "position": ColumnFile(folder / "position", np.int32), "n_tokens": ColumnFile(folder / "n_tokens", np.int32),
        "id_at": ColumnFile(folder / "id_at", np.int64), "id_len": ColumnFile(folder / "id_len", np.int32, (3,)),
        "id_blob": ColumnFile(folder / "id_blob", np.uint8),
    }
    blob_size = 0
    for window in _head_windows(data):
        if window is None:
            for column in files.values():
                column.close()
            return None
        starts, lengths, positions, tokens, id_len, piece = window
        sizes = np.abs(id_len).sum(axis=1)
        for name, values in (("start", starts), ("length", lengths), ("position", positions), ("n_tokens", tokens),
                             ("id_at", blob_size + np.cumsum(sizes) - sizes), ("id_len", id_len)):
            files[name].append(values)
        files["id_blob"].append(np.frombuffer(piece, dtype=np.uint8))
        blob_size += len(piece)
    return files


class ChunkTable(Sequence[Chunk]):
    """The live rows of an index's chunk table: a read-only sequence of `Chunk`, parsed on demand.

    Row i is line `lines[i]` of the files read in order (all lines when `lines` is None).
    Thread-safe for readers: the numbers never change after construction, and the sorted lookup
    orders are built once under a lock.
    """

    def __init__(self, lines: _Lines, rows: np.ndarray | None) -> None:
        self._lines = lines
        self.lines = rows  # table line of each row (None: row i is line i); index_format.py reads it
        self._row_lines = rows if rows is not None else np.arange(len(lines), dtype=np.int64)
        self._lock = threading.Lock()
        self._orders: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._parse = lru_cache(maxsize=_CACHE_ROWS)(self._parse_line)

    @classmethod
    def open(cls, paths: Sequence[Path], deleted: np.ndarray | None = None) -> ChunkTable:
        """The table of `paths` (base first, then segments) without the `deleted` line numbers."""
        lines = _Lines()
        for path in paths:
            lines.extend(Path(path))
        rows = None
        if deleted is not None and deleted.size:
            # A mask, not np.setdiff1d (which sorts every line number: 1.3 s of a cold search at 1M lines).
            keep = np.ones(len(lines), dtype=bool)
            deleted = np.asarray(deleted, dtype=np.int64)
            keep[deleted[(deleted >= 0) & (deleted < len(lines))]] = False
            rows = np.flatnonzero(keep).astype(np.int64)
        elif len(paths) > 1:
            rows = np.arange(len(lines), dtype=np.int64)
        return cls(lines, rows)

    def derive(self, keep: np.ndarray, segment: Path | None) -> ChunkTable:
        """The next generation's table: rows `keep` of this one, then the lines of `segment` (a new file).

        The kept rows' numbers are reused as they are; only the new segment is read.
        """
        lines = self._lines.copy()
        first_new = len(lines)
        if segment is not None:
            lines.extend(segment)
        kept = self._row_lines[np.asarray(keep, dtype=np.int64)]
        rows = np.concatenate([kept, np.arange(first_new, len(lines), dtype=np.int64)])
        return ChunkTable(lines, rows)

    # ------------------------------------------------------------ the sequence

    def __len__(self) -> int:
        return len(self._row_lines)

    def __getitem__(self, row):  # type: ignore[override]
        if isinstance(row, slice):
            return [self[i] for i in range(*row.indices(len(self)))]
        return _row_chunk(self._parse(int(self._row_lines[row])))

    def __iter__(self) -> Iterator[Chunk]:
        # Streaming: a full pass does not flood the cache of rows a search is using.
        for line in self._row_lines.tolist():
            yield _row_chunk(json.loads(self._lines.raw(line)))

    def _parse_line(self, line: int) -> dict:
        return json.loads(self._lines.raw(line))

    # ------------------------------------------------------------ columns

    def chunk_id(self, row: int) -> str:
        return self._lines.ids(int(self._row_lines[row]))[0]

    def vector_id(self, row: int) -> str:
        return self._lines.ids(int(self._row_lines[row]))[1]

    def doc_id(self, row: int) -> str:
        return self._lines.ids(int(self._row_lines[row]))[2]

    def vector_ids(self) -> list[str]:
        """Every row's vector id."""
        return [self._lines.ids(line)[1] for line in self._row_lines.tolist()]

    def text(self, row: int) -> str:
        return self._parse(int(self._row_lines[row]))["text"]

    def texts(self) -> Iterator[str]:
        """Every row's text, streamed in row order."""
        for line in self._row_lines.tolist():
            yield json.loads(self._lines.raw(line))["text"]

    def text_view(self) -> Sequence[str]:
        """The texts as a lazy sequence (what grep scans row by row)."""
        return _TextView(self)

    def files(self) -> list[tuple[Path, mmap.mmap | bytes, dict[str, np.ndarray]]]:
        """(path, mapped content, per-line numbers) of each table file, in line order (the metadata index reads them)."""
        lines = self._lines
        out = []
        for index, (path, data) in enumerate(zip(lines.paths, lines.maps, strict=True)):
            at = np.flatnonzero(lines.file == index)
            blob = np.frombuffer(lines.id_blobs[index], dtype=np.uint8)
            columns = {name: getattr(lines, name)[at] for name in ("start", "length", "position", "n_tokens", "id_at")}
            out.append((path, data, {**columns, "id_len": lines.id_len[at], "id_blob": blob}))
        return out

    def row_lines(self, rows: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
        """The table line of each of `rows` (all rows when None), e.g. the vector matrix's row of a chunk."""
        if rows is None:
            return self._row_lines
        return self._row_lines[np.asarray(rows, dtype=np.int64)]

    @property
    def n_lines(self) -> int:
        """Lines across the table's files, deleted ones included."""
        return len(self._lines)

    def mentions(self, needle: bytes) -> bool:
        """Whether any table file holds the bytes `needle` (deleted lines included).

        A cheap test before parsing every row: e.g. whether any row's metadata has a key at all.
        """
        return any(data.find(needle) != -1 for data in self._lines.maps)

    def n_tokens_total(self) -> int:
        return int(self._lines.n_tokens[self._row_lines].sum())

    # ------------------------------------------------------------ lookups

    def _order(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """(sorted hashes, the rows in that order) of one hash column, built on first use."""
        with self._lock:
            found = self._orders.get(name)
            if found is None:
                if name == "doc":
                    # Rows of a document sorted by position, so a range of this order is doc_rows.
                    keys = self._lines.doc_hash[self._row_lines]
                    order = np.lexsort((self._lines.position[self._row_lines], keys))
                else:
                    keys = getattr(self._lines, f"{name}_hash")[self._row_lines]
                    order = np.argsort(keys, kind="stable")
                found = self._orders[name] = (keys[order], order.astype(np.int64))
            return found

    def _rows_with_hash(self, name: str, key: str) -> np.ndarray:
        keys, order = self._order(name)
        h = _key(key)
        lo, hi = np.searchsorted(keys, h, side="left"), np.searchsorted(keys, h, side="right")
        return order[lo:hi]

    def row_of(self, chunk_id: str) -> int | None:
        """The row of `chunk_id`, or None."""
        for row in self._rows_with_hash("id", chunk_id).tolist():
            if self.chunk_id(row) == chunk_id:
                return row
        return None

    def row_of_vector(self, vid: str) -> int | None:
        """The row whose vector id is `vid`, or None (a stale vector of an older generation)."""
        for row in self._rows_with_hash("vid", vid).tolist():
            if self.vector_id(row) == vid:
                return row
        return None

    def doc_rows(self, doc_id: str) -> list[int] | None:
        """Rows of `doc_id` in position order, or None for a document the table does not hold."""
        rows = [r for r in self._rows_with_hash("doc", doc_id).tolist() if self.doc_id(r) == doc_id]
        return rows or None

    def doc_ids(self) -> list[str]:
        """Document ids in the order their first row appears."""
        _, first = np.unique(self._lines.doc_hash[self._row_lines], return_index=True)
        return [self.doc_id(int(r)) for r in np.sort(first)]

    def n_docs(self) -> int:
        return int(np.unique(self._lines.doc_hash[self._row_lines]).size)

    def rows_of_docs(self, doc_ids: Sequence[str]) -> np.ndarray:
        """Rows of any of `doc_ids` (ascending); unknown ids add nothing."""
        found = [rows for d in doc_ids if (rows := self.doc_rows(d))]
        return (
            np.unique(np.concatenate([np.asarray(r, dtype=np.int64) for r in found]))
            if found
            else np.zeros(0, np.int64)
        )


class _TextView(Sequence[str]):
    def __init__(self, table: ChunkTable) -> None:
        self._table = table

    def __len__(self) -> int:
        return len(self._table)

    def __getitem__(self, row):  # type: ignore[override]
        if isinstance(row, slice):
            return [self._table.text(i) for i in range(*row.indices(len(self)))]
        return self._table.text(row)
