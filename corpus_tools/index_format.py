"""The on-disk index format, in one place: its files, the manifest, generations, commits and atomic writes.

Layout of an index folder:
  manifest.json   format, models, configs, counts, versions, file names (written last: the commit point)
  chunks.jsonl    the chunk table, one Chunk per line in row order (grep, read, budgets use it);
                  an opened index reads its rows on demand (corpus_tools.table), never all at once
  chunks.lines.npz  beside each table file: its per-line numbers (byte spans, ids, positions), so
                  an open need not scan the table; a cache, checked against the file, and rebuilt
                  by a scan when missing or stale (indexes written before it existed)
  bm25/           the BM25 score matrix in bm25s's file layout (loaded memory-mapped) and the term
                  ids it was built from; row i is line i of the chunk table
  vectors.npy     the chunk vectors, float32 (lines, dim), L2-normalised, row i = line i of the chunk
                  table; read memory-mapped, searched exactly (corpus_tools.vectors). Embedded indexes
                  only; an index written before it existed has none and searches through Chroma
  chroma/         the embedded Chroma store (absent when vectors live on a Chroma server); it holds
                  the same vectors, written first, and answers `where`-free reads of older indexes
  skipped.jsonl   what the loader refused, and why
  .write.lock     the inter-process lock `Corpus.add`/`delete` take (filelock)

Generations: `Corpus.add`/`delete` write the files of generation g+1 under generation-numbered
names, then replace the manifest. Files the previous manifest names are kept until the next
commit, so a reader in another process that read that manifest a moment earlier still finds them.
A commit killed before the manifest replace leaves files no manifest names: they are ignored on
open (a reader only follows the manifest) and removed by the next commit.

A commit writes only what changed (a delta): the new rows as a table segment
(`chunks.<g>.jsonl`), their BM25 term ids (`terms.<g>.npz`, with the terms new to the vocabulary),
their vectors (`vectors.<g>.npy`) and the cumulative list of dead table lines (`deleted.<g>.npy`). The manifest's "files" lists the
base table and BM25 index, then the segments; live rows are the lines of base + segments, in
order, minus the deleted ones. The BM25 score matrix depends on corpus-wide statistics (idf, mean
length), so it cannot be patched: with deltas it is recomputed in memory from the saved term ids
on open. Once the deltas reach COMPACT_FRACTION of the base, a commit writes a full new base
instead (amortised O(1) bytes per changed row).

Every file is written by `write_atomic`: a temporary sibling, fsynced, renamed into place, and the
folder fsynced so the rename itself survives a power cut.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from corpus_tools.bm25 import NPY_LOCK, BM25Builder, BM25Index
from corpus_tools.config import CorpusConfig
from corpus_tools.embed import bm25_text
from corpus_tools.store import vector_id
from corpus_tools.table import LINE_INDEX_SUFFIX, ChunkTable, line_index_path, scan_table
from corpus_tools.types import Chunk, IndexFormatError, SkippedFile
from corpus_tools.vectors import VectorMatrix, normalise

FORMAT = "context1-index"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
SKIPPED = "skipped.jsonl"
BUILD_REPORT = "build_report.json"  # the last build's BuildReport, beside the manifest (kept across commits)
STAGING_MARK = "staging.json"  # inside a staging folder: its server collection, for cleanup
WRITE_LOCK = ".write.lock"  # in the index folder: serialises add/delete across processes
REBUILD_HINT = "Rebuild it with Corpus.build(source, path)."
VECTORS = "vectors.npy"  # the base vector matrix of a build (commits write vectors.<g>.npy)
COMPACT_FRACTION = 0.1  # rewrite the base once segment rows + deleted lines exceed this share of it
MAX_SEGMENTS = 64  # ... or once this many segments pile up (each is a file to read on open)
_TMP = re.compile(r"^\..+\.tmp-\d+$")  # what write_atomic leaves behind when killed mid-write


# ---------------------------------------------------------------- atomic writes


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (POSIX; Windows has no directory handles to fsync)."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def tmp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.tmp-{os.getpid()}")


def write_atomic(path: Path, write: Callable[[IO[bytes]], Any]) -> Any:
    """Call write(file) on a temporary sibling opened "wb", fsync it, rename it into place, fsync the folder.

    Readers see the old file or the new one, never half of one. Returns what `write` returned.
    """
    path = Path(path)
    tmp = tmp_path(path)
    try:
        with open(tmp, "wb") as f:
            result = write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
    return result


def write_json_atomic(path: Path, data: Any) -> None:
    """JSON (indented, UTF-8) written with `write_atomic`."""
    text = json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8")
    write_atomic(path, lambda f: f.write(text))


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, lambda f: f.write(text.encode("utf-8")))


# ---------------------------------------------------------------- the chunk table


def chunk_row(c: Chunk, vid: str | None = None) -> str:
    """One line of the chunk table (JSON, newline-terminated)."""
    row = {
        "chunk_id": c.chunk_id,
        "vector_id": vid or vector_id(c),
        "doc_id": c.doc_id,
        "position": c.position,
        "n_tokens": c.n_tokens,
        "text": c.text,
        "metadata": dict(c.metadata),
    }
    return json.dumps(row, ensure_ascii=False) + "\n"


def write_rows(dst: IO[bytes], chunks: Sequence[Chunk], vids: Sequence[str] | None = None) -> int:
    """Append chunk rows to an open binary file; the bytes written."""
    ids: Iterable[str | None] = vids if vids is not None else [None] * len(chunks)
    tail = "".join(chunk_row(c, vid) for c, vid in zip(chunks, ids, strict=True)).encode("utf-8")
    dst.write(tail)
    return len(tail)


class ChunkTableWriter:
    """Appends chunk rows to a temporary sibling; `close` fsyncs and renames it into place (a streaming build)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.tmp = tmp_path(path)
        self._file = open(self.tmp, "wb")  # noqa: SIM115 - closed in close()
        self.bytes_written = 0

    def write(self, chunks: Sequence[Chunk], vector_ids: Sequence[str] | None = None) -> None:
        self.bytes_written += write_rows(self._file, chunks, vector_ids)

    def close(self) -> None:
        if self._file.closed:
            return
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        os.replace(self.tmp, self.path)
        fsync_dir(self.path.parent)
        write_line_index(self.path)


def write_chunk_table(path: Path, chunks: Sequence[Chunk], vector_ids: Sequence[str] | None = None) -> int:
    """Write the whole table atomically (and its line numbers); returns the bytes written."""
    written = write_atomic(path, lambda f: write_rows(f, chunks, vector_ids))
    write_line_index(path)
    return written


def write_line_index(table: Path) -> None:
    """Save the per-line numbers of a table file beside it (`table.line_index_path`), atomically.

    Opening reads them instead of scanning the file (0.3 s of CPU at 50k chunks); they are a
    cache, checked against the file's size and ends, so a missing or stale one only costs a scan.
    """
    columns = scan_table(table)
    write_atomic(line_index_path(table), lambda f: np.savez(f, **columns))


def read_chunk_rows(path: Path) -> tuple[list[Chunk], list[str]]:
    """(chunks, their vector ids); tables written before vector ids existed use the chunk id."""
    chunks, vector_ids = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            chunks.append(
                Chunk(row["chunk_id"], row["doc_id"], row["text"], row["position"], row["n_tokens"], row["metadata"])
            )
            vector_ids.append(row.get("vector_id") or row["chunk_id"])
    return chunks, vector_ids


def copy_table(
    path: Path,
    old_files: Sequence[str],
    new: Path,
    keep_lines: np.ndarray,
    new_chunks: Sequence[Chunk],
    new_vids: Sequence[str],
) -> int:
    """Write a full chunk table: kept lines of the old files copied as bytes, then the new rows.

    `keep_lines` are line numbers across `old_files` read in order, ascending. Returns the bytes
    written. Row i of the table is line i, so no JSON is parsed or re-encoded.
    """
    keep = np.zeros(0, dtype=bool)
    if keep_lines.size:
        keep = np.zeros(int(keep_lines.max()) + 1, dtype=bool)
        keep[keep_lines] = True

    def write(dst: IO[bytes]) -> int:
        written = 0
        line_no = 0
        for name in old_files:
            with open(path / name, "rb") as src:
                for line in src:
                    if line_no < len(keep) and keep[line_no]:
                        dst.write(line)
                        written += len(line)
                    line_no += 1
        return written + write_rows(dst, new_chunks, new_vids)

    written = write_atomic(new, write)
    write_line_index(new)
    return written


# ---------------------------------------------------------------- the vector matrix


def vector_files(files: dict[str, Any]) -> list[str] | None:
    """The vector-matrix files a manifest names, in line order (None: the index has no matrix)."""
    if not files.get("vectors"):
        return None
    return [files["vectors"], *files.get("vector_segments", [])]


def write_vectors(path: Path, vectors: np.ndarray) -> None:
    """A vector-matrix file: float32 rows, L2-normalised, as `.npy`, written with `write_atomic`."""
    matrix = normalise(vectors)
    write_atomic(path, lambda f: np.save(f, matrix, allow_pickle=False))


class VectorWriter:
    """Streams vector rows to a spill file; `close` writes the `.npy` (header, then the rows) atomically."""

    def __init__(self, path: Path, dim: int) -> None:
        self.path, self.dim, self.n = path, int(dim), 0
        self.spill = path.with_name(f".{path.name}.spill.tmp-{os.getpid()}")
        self._file = open(self.spill, "wb")  # noqa: SIM115 - closed in close()

    def write(self, vectors: np.ndarray) -> None:
        matrix = normalise(vectors)
        if matrix.shape[1] != self.dim:
            raise ValueError(f"vectors of {matrix.shape[1]} dimensions written to a {self.dim}-d matrix")
        self._file.write(matrix.tobytes())
        self.n += len(matrix)

    def close(self) -> None:
        if self._file.closed:
            return
        self._file.close()
        header = {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)), "fortran_order": False,
                  "shape": (self.n, self.dim)}

        def write(dst: IO[bytes]) -> None:
            np.lib.format.write_array_header_1_0(dst, header)
            with open(self.spill, "rb") as src:
                shutil.copyfileobj(src, dst, 1 << 20)

        try:
            write_atomic(self.path, write)
        finally:
            self.spill.unlink(missing_ok=True)


def damaged_vectors(path: Path, why: str) -> IndexFormatError:
    """The error for a vector matrix that cannot be used, naming the fix."""
    return IndexFormatError(
        f"The vector matrix of index {str(path)!r} is damaged ({why}). Rewrite it from the index's Chroma "
        f"store with `context1 repair {path}` (Python: corpus_tools.repair_vectors(path)), or {REBUILD_HINT[0].lower()}"
        f"{REBUILD_HINT[1:]}"
    )


# ---------------------------------------------------------------- skipped files, counts


def write_skipped(path: Path, skipped: Sequence[SkippedFile]) -> None:
    text = "".join(json.dumps({"path": s.path, "reason": s.reason}, ensure_ascii=False) + "\n" for s in skipped)
    write_text_atomic(path, text)


def read_skipped(path: Path) -> list[SkippedFile]:
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        return [SkippedFile(**json.loads(line)) for line in f if line.strip()]


def set_counts(manifest: dict[str, Any], n_docs: int, n_chunks: int, n_skipped: int, n_tokens: int) -> None:
    """Record the index's counts in `manifest` (both the flat keys and the "counts" block readers use)."""
    manifest["doc_count"] = n_docs
    manifest["chunk_count"] = n_chunks
    manifest["counts"] = {"documents": n_docs, "chunks": n_chunks, "skipped": n_skipped, "tokens": int(n_tokens)}


# ---------------------------------------------------------------- the manifest and generations


def read_manifest(path: Path) -> dict[str, Any]:
    """The manifest of the index folder `path`, checked; `IndexFormatError` saying what is wrong otherwise."""
    if not path.is_dir():
        raise IndexFormatError(f"No index at {str(path)!r}: the folder does not exist. {REBUILD_HINT}")
    manifest_path = path / MANIFEST
    if not manifest_path.exists():
        # Corpus.build refuses to replace a folder that holds other files: don't suggest it there.
        hint = REBUILD_HINT if not any(path.iterdir()) else "Build the index into a new or empty folder."
        raise IndexFormatError(f"{str(path)!r} is not a context1 index: it has no {MANIFEST}. {hint}")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise IndexFormatError(f"The manifest of {str(path)!r} is not valid JSON ({exc}). {REBUILD_HINT}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise IndexFormatError(
            f"{str(manifest_path)!r} is not a context1 manifest (format != {FORMAT!r}). {REBUILD_HINT}"
        )
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise IndexFormatError(
            f"Index {str(path)!r} has format version {version!r}; this context1 reads version "
            f"{FORMAT_VERSION}. {REBUILD_HINT}"
        )
    required = ("config", "collection", "vector_store", "files", "embedding_dim")
    missing = [key for key in required if key not in manifest]
    if missing:
        raise IndexFormatError(f"The manifest of {str(path)!r} lacks {missing}. {REBUILD_HINT}")
    for key in ("chunks", "bm25"):
        name = manifest["files"].get(key) if isinstance(manifest["files"], dict) else None
        if not name or not (path / name).exists():
            raise IndexFormatError(f"Index {str(path)!r} is missing its {key} file {name!r}. {REBUILD_HINT}")
    return manifest


def table_files(files: dict[str, Any]) -> list[str]:
    """The chunk-table files a manifest names, in row order (base first)."""
    return [files["chunks"], *files.get("chunk_segments", [])]


def file_names(files: dict[str, Any]) -> set[str]:
    """Every file name a manifest's "files" block names."""
    names: set[str] = set()
    for value in files.values():
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, list):
            names.update(v for v in value if isinstance(v, str))
    return names


def remove_unnamed_generations(path: Path, keep: set[str]) -> None:
    """Delete table, BM25, vector and delta files no kept manifest names, and temporaries of killed writes.

    Called by a commit, under the index's write lock, once its manifest is in place: what it
    removes is either a generation two commits old (readers had a whole commit to move on) or
    what a killed commit left half-written.
    """
    for entry in path.iterdir():
        name = entry.name
        is_table = name.startswith("chunks.") and name.endswith(".jsonl")
        is_bm25 = entry.is_dir() and (name == "bm25" or (name.startswith("bm25.") and name[5:].isdigit()))
        is_delta = (name.startswith("terms.") and name.endswith(".npz")) or (
            (name.startswith("deleted.") or name.startswith("vectors.")) and name.endswith(".npy")
        )
        is_line_index = name.startswith("chunks") and name.endswith(LINE_INDEX_SUFFIX)
        if is_line_index:  # kept with its table
            name = name.removesuffix(LINE_INDEX_SUFFIX) + ".jsonl"
        if ((is_table or is_bm25 or is_delta or is_line_index) and name not in keep) or _TMP.match(entry.name):
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def read_generation(
    path: Path, manifest: dict[str, Any], config: CorpusConfig
) -> tuple[dict[str, Any], ChunkTable, BM25Index, VectorMatrix | None]:
    """(manifest, chunk table, BM25, vector matrix or None) of the generation the manifest names.

    A writer in another process may commit between our reading the manifest and the files; it
    keeps the previous generation's files, and if even those are gone we re-read the manifest.
    A vector matrix that is missing, unreadable or does not cover the table raises
    `damaged_vectors` (an `IndexFormatError` naming the fix).
    """
    for attempt in range(3):
        try:
            return (manifest, *_read_files(path, manifest, config))
        except FileNotFoundError as exc:
            if attempt == 2:
                if exc.filename and Path(exc.filename).name in (vector_files(manifest["files"]) or []):
                    raise damaged_vectors(path, f"{Path(exc.filename).name!r} is missing") from exc
                raise
            manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    raise AssertionError("unreachable")


def _read_files(
    path: Path, manifest: dict[str, Any], config: CorpusConfig
) -> tuple[ChunkTable, BM25Index, VectorMatrix | None]:
    files = manifest["files"]
    deleted = np.zeros(0, dtype=np.int64)
    if files.get("deleted"):
        with NPY_LOCK:
            deleted = np.load(path / files["deleted"])
    table = ChunkTable.open([path / name for name in table_files(files)], deleted)
    vectors = None
    names = vector_files(files)
    if names is not None:
        try:
            vectors = VectorMatrix.open([path / name for name in names], int(manifest["embedding_dim"]))
        except ValueError as exc:
            raise damaged_vectors(path, str(exc)) from exc
        if vectors.n_lines != table.n_lines:
            raise damaged_vectors(path, f"it covers {vectors.n_lines} table lines, the table has {table.n_lines}")
    bm25 = BM25Index.load(path / files["bm25"], config.bm25)
    if table.lines is None:
        return table, bm25, vectors
    lines = table.lines
    terms, offsets = bm25.term_ids()
    vocab = dict(bm25.vocab())
    term_parts, length_parts = [np.asarray(terms)], [np.diff(offsets)]
    for name in files.get("term_segments", []):
        with NPY_LOCK, np.load(path / name) as seg:  # an .npz reads each member's header lazily
            for term in seg["new_terms"].tolist():
                vocab[term] = len(vocab)
            term_parts.append(seg["terms"])
            length_parts.append(seg["lengths"])
    lengths = np.concatenate(length_parts)
    if len(lengths) != table.n_lines:
        raise ValueError(f"BM25 term ids cover {len(lengths)} table lines, the table has {table.n_lines}")
    all_offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=all_offsets[1:])
    builder = BM25Builder.from_term_ids(config.bm25, vocab, np.concatenate(term_parts), all_offsets, lines)
    return table, builder.build(), vectors


@dataclass(frozen=True)
class Commit:
    """What `commit_generation` made: the new manifest, table, BM25 (and vectors), all skipped files, table bytes."""

    manifest: dict[str, Any]
    table: ChunkTable
    bm25: BM25Index
    skipped: list[SkippedFile]
    bytes_written: int
    vectors: VectorMatrix | None = None


def commit_generation(
    path: Path,
    current: dict[str, Any],
    table: ChunkTable,
    bm25: BM25Index,
    config: CorpusConfig,
    keep: Sequence[int],
    new_chunks: Sequence[Chunk],
    new_vids: Sequence[str],
    old_skipped: Sequence[SkippedFile],
    skipped: Sequence[SkippedFile],
    vectors: VectorMatrix | None = None,
    new_vectors: np.ndarray | None = None,
) -> Commit:
    """Write generation g+1 (rows `keep` of `table`, then `new_chunks`) and switch the manifest to it.

    The manifest replace is the commit point: a kill before it leaves generation g whole (new
    files are written under names g's manifest does not use), a kill after it leaves g+1 whole
    (the caller then drops the stale vectors, which search ignores since the committed table does
    not name them). Files of generation g are kept until g+2 is committed, so a reader in another
    process that read the old manifest a moment ago still finds them.
    Incremental: a delta commit writes only the new rows, their term ids and vectors and the
    deleted lines; a compaction copies kept table lines as bytes and reuses their BM25 term ids.
    vectors: the vector matrix of `table`'s lines (None: the new generation has none, as on a
    Chroma server); new_vectors: the vectors of `new_chunks`, in order. A matrix that no file
    holds yet (an older index's vectors, read from Chroma) is written by a compaction.
    """
    if vectors is not None:
        if vectors.n_lines != table.n_lines:
            raise ValueError(f"the vector matrix covers {vectors.n_lines} lines, the table {table.n_lines}")
        new_vectors = np.zeros((0, vectors.dim), np.float32) if new_vectors is None else new_vectors
        if len(new_vectors) != len(new_chunks):
            raise ValueError(f"{len(new_vectors)} vectors for {len(new_chunks)} new chunks")
    manifest = json.loads(json.dumps(current))
    old_files = dict(manifest["files"])
    generation = int(manifest.get("generation", 0)) + 1
    keep_rows = np.asarray(keep, dtype=np.int64)
    n_lines = int(old_files.get("lines", len(table)))
    base_lines = int(old_files.get("base_lines", n_lines))
    lines = table.lines if table.lines is not None else np.arange(len(table), dtype=np.int64)
    n_rows = len(keep_rows) + len(new_chunks)
    old_vocab_size = len(bm25.vocab()) if bm25.has_term_ids() else 0
    if bm25.has_term_ids():
        builder = BM25Builder.from_index(bm25, keep_rows)
    else:  # an index saved before term ids were kept: tokenise the kept rows once more
        builder = BM25Builder(config.bm25)
        for i in keep:
            builder.add(bm25_text(table[i]))
    for chunk in new_chunks:
        builder.add(bm25_text(chunk))
    new_bm25 = builder.build()
    keep_lines = lines[keep_rows]
    dead = n_lines - len(keep_lines)  # deleted lines after this commit
    segments = list(old_files.get("chunk_segments", []))
    delta = (n_lines - base_lines) + len(new_chunks) + dead
    compact = (
        not bm25.has_term_ids()
        or len(segments) + 1 > MAX_SEGMENTS
        or delta > COMPACT_FRACTION * max(base_lines, 1)
        or (vectors is not None and vector_files(old_files) is None)
    )
    new_matrix = None
    if compact:
        files: dict[str, Any] = {"chunks": f"chunks.{generation}.jsonl", "bm25": f"bm25.{generation}"}
        shutil.rmtree(path / files["bm25"], ignore_errors=True)  # a killed commit's half-written folder
        new_bm25.save(path / files["bm25"])
        new_bm25 = BM25Index.load(path / files["bm25"], config.bm25)
        written = copy_table(path, table_files(old_files), path / files["chunks"], keep_lines, new_chunks, new_vids)
        files.update(lines=n_rows, base_lines=n_rows)
        new_table = ChunkTable.open([path / files["chunks"]])
        if vectors is not None:
            files["vectors"] = f"vectors.{generation}.npy"
            write_vectors(path / files["vectors"], np.concatenate([vectors.lines(keep_lines), new_vectors]))
            new_matrix = VectorMatrix.open([path / files["vectors"]], vectors.dim)
    else:
        files = {k: v for k, v in old_files.items() if k != "deleted"}
        written = 0
        segment = None
        if new_chunks:
            name = f"chunks.{generation}.jsonl"
            segment = path / name
            written = write_chunk_table(segment, new_chunks, new_vids)
            files["chunk_segments"] = [*segments, name]
            files["term_segments"] = [
                *old_files.get("term_segments", []),
                _write_term_segment(path, generation, new_bm25, len(keep_rows), old_vocab_size),
            ]
        new_table = table.derive(keep_rows, segment)
        if vectors is None:
            files.pop("vectors", None)
            files.pop("vector_segments", None)
        elif segment is not None:
            name = f"vectors.{generation}.npy"
            write_vectors(path / name, new_vectors)
            files["vector_segments"] = [*old_files.get("vector_segments", []), name]
            new_matrix = vectors.derive(path / name)
        else:
            new_matrix = vectors
        if dead:
            deleted = np.setdiff1d(np.arange(n_lines, dtype=np.int64), keep_lines)
            files["deleted"] = f"deleted.{generation}.npy"
            write_atomic(path / files["deleted"], lambda f: np.save(f, deleted))
        files["lines"] = n_lines + len(new_chunks)
        files["base_lines"] = base_lines
    all_skipped = [*old_skipped, *skipped]
    if skipped:
        write_skipped(path / SKIPPED, all_skipped)
    manifest.update(files=files, generation=generation, updated_at=now(), previous_files=old_files)
    set_counts(manifest, new_table.n_docs(), len(new_table), len(all_skipped), new_table.n_tokens_total())
    write_json_atomic(path / MANIFEST, manifest)
    remove_unnamed_generations(path, keep=file_names(files) | file_names(old_files))
    return Commit(manifest, new_table, new_bm25, all_skipped, written, new_matrix)


def _write_term_segment(path: Path, generation: int, bm25: BM25Index, first_row: int, old_vocab_size: int) -> str:
    """Save the term ids of rows first_row.. of `bm25` and the terms its vocabulary gained; the file name."""
    terms, offsets = bm25.term_ids()
    vocab = bm25.vocab()
    new_terms = sorted((i, t) for t, i in vocab.items() if i >= old_vocab_size)
    name = f"terms.{generation}.npz"
    write_atomic(
        path / name,
        lambda f: np.savez(
            f,
            terms=np.asarray(terms[offsets[first_row] :], dtype=np.int32),
            lengths=np.diff(offsets[first_row:]).astype(np.int64),
            new_terms=np.array([t for _, t in new_terms], dtype=str),
        ),
    )
    return name


def now() -> str:
    """The commit time recorded in a manifest (UTC, seconds)."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
