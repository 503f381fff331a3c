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
  ann.<g>.faiss   past ann.ANN_MIN_LINES lines: a FAISS IVF index of the base vector file (ids =
                  table lines), the dense leg's candidates (corpus_tools.ann); the manifest's
                  files block names it ("ann"), the lines it holds ("ann_lines") and the base
                  vector file it was built from ("ann_of"); its "dense" block says how the leg
                  searches and the size threshold
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
length), so it cannot be patched: with deltas, queries score the base's and the segments' postings
with the live statistics (corpus_tools.bm25_segments), the same numbers a rebuild gives. A commit
never rewrites the base (O(corpus)): `Corpus.compact` / `context1 repair` do, and the manifest's
"compaction_due" says when the deltas passed COMPACT_FRACTION of the base or MAX_SEGMENTS files.

Every file is written by `write_atomic`: a temporary sibling, fsynced, renamed into place, and the
folder fsynced so the rename itself survives a power cut.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
import re
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from corpus_tools import ann as _ann
from corpus_tools.bm25 import NPY_LOCK, BM25Builder, BM25Index
from corpus_tools.bm25_segments import Postings, SegmentedBM25
from corpus_tools.column_files import save_npz
from corpus_tools.config import CorpusConfig
from corpus_tools.embed import bm25_text
from corpus_tools.metadata_index import META_SUFFIX, meta_path, save_spilled_columns, write_columns
from corpus_tools.store import vector_id
from corpus_tools.table import (
    LINE_INDEX_SUFFIX,
    ChunkTable,
    line_index_path,
    map_file,
    scan_table,
    spill_line_columns,
    table_stamp,
)
from corpus_tools.types import Chunk, IndexFormatError, SkippedFile, SkippedProjectFile
from corpus_tools.vectors import VectorMatrix, normalise

FORMAT = "context1-index"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
SKIPPED = "skipped.jsonl"
BUILD_REPORT = "build_report.json"  # the last build's BuildReport, beside the manifest (kept across commits)
DECLARED = "declared.json"  # project file path → the name it declares (SkippedProjectFile; absent when none)
STAGING_MARK = "staging.json"  # inside a staging folder: its server collection, for cleanup
WRITE_LOCK = ".write.lock"  # in the index folder: serialises add/delete across processes
REBUILD_HINT = "Rebuild it with Corpus.build(source, path)."
VECTORS = "vectors.npy"  # the base vector matrix of a build (commits write vectors.<g>.npy)
COMPACT_FRACTION = 0.1  # compaction is due once segment rows + deleted lines exceed this share of the base
MAX_SEGMENTS = 64  # ... or once this many segments pile up (each is a file to read on open)
logger = logging.getLogger("corpus_tools")
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
    data = map_file(table)
    # Both files are built on disk, a window of lines at a time (corpus_tools/column_files.py): in
    # memory they took ~480 MB at 1M chunks, the largest part of a build's peak.
    # The scratch folder is named as write_atomic's temporaries are: a commit removes one a kill left.
    scratch = tmp_path(table.with_name(f"{table.name}.columns"))
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    try:
        lines = spill_line_columns(data, scratch)
        if lines is None:  # rows in an older layout, or ids with escapes: scanned in memory
            columns = scan_table(table)
            write_atomic(line_index_path(table), lambda f: np.savez(f, **columns))
            # And its metadata columns (corpus_tools.metadata_index): a `where` is then a numpy mask.
            write_columns(table, data, columns, write_atomic)
            return
        stamp = table_stamp(data)
        write_atomic(line_index_path(table), lambda f: save_npz(f, [*lines.items(), ("table_stamp", stamp)]))
        write_atomic(meta_path(table), lambda f: save_spilled_columns(f, data, lines, scratch, stamp))
        for column in lines.values():
            column.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


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


ANN_KEYS = ("ann", "ann_lines", "ann_of")  # the files-block keys of the approximate dense leg


def write_ann(path: Path, manifest: dict[str, Any], generation: int, min_lines: int | None = None) -> None:
    """Train the FAISS index of the manifest's base vector file when it has `min_lines` lines or more.

    Sets the files block's ANN_KEYS (or drops them below the threshold) and the "dense" block.
    Written before the manifest that names it, like every file of a generation.
    min_lines: the threshold (ann.ANN_MIN_LINES, read at call time).
    """
    min_lines = _ann.ANN_MIN_LINES if min_lines is None else min_lines
    files = manifest["files"]
    for key in ANN_KEYS:
        files.pop(key, None)
    names = vector_files(files)
    if names is not None:
        with NPY_LOCK:
            base = np.load(path / names[0], mmap_mode="r")
        if len(base) >= min_lines:
            # Streamed list by list (ann.write_index): the built index is never held whole.
            name = f"ann.{generation}.faiss"
            write_atomic(path / name, lambda f: _ann.write_index(base, f))
            files.update(ann=name, ann_lines=len(base), ann_of=names[0])
    manifest["dense"] = dense_block(files, min_lines)


def dense_block(files: dict[str, Any], min_lines: int | None = None) -> dict[str, Any]:
    """The manifest's "dense" block: how the dense leg searches, and the size past which it is approximate."""
    block: dict[str, Any] = {"exact_below_lines": _ann.ANN_MIN_LINES if min_lines is None else min_lines}
    if files.get("ann"):
        block.update(
            search=f"faiss IVF,{_ann.CODEC} over {files['ann_lines']:,} base lines, re-scored exactly",
            nprobe=_ann.NPROBE,
            rescored=f"max({_ann.RESCORE_MIN}, {_ann.RESCORE_FACTOR}·n)",
        )
    else:
        block["search"] = "exact" if vector_files(files) is not None else "chroma"
    return block


def open_ann(path: Path, files: dict[str, Any], vectors: VectorMatrix) -> str | None:
    """Attach the manifest's FAISS index to `vectors`; a note (and a warning) when it cannot be used.

    An ANN file that is missing, unreadable, or not of this base vector file (a commit killed
    half-way, a file copied from elsewhere) leaves the dense leg exact, never wrong.
    """
    name = files.get("ann")
    if not name:
        return None
    base = (vector_files(files) or [None])[0]
    why = None
    if files.get("ann_of") != base:
        why = f"it was built from {files.get('ann_of')!r}, the base vectors are {base!r}"
    elif int(files.get("ann_lines", -1)) != len(vectors.parts[0]):
        why = f"it holds {files.get('ann_lines')} lines, the base vector file {len(vectors.parts[0])}"
    else:
        try:
            vectors.ann = _ann.AnnIndex.load(path / name, len(vectors.parts[0]), vectors.dim)
        except (OSError, ValueError, ImportError) as exc:
            why = str(exc)
    if why is None:
        return None
    note = (
        f"The FAISS index of {str(path)!r} is out of step with its vectors ({why}); the dense leg searches "
        f"exactly (slower, same results) until `context1 repair {path}` rebuilds it"
    )
    logger.warning("%s", note)
    return note


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
    # the names project files declare (SkippedProjectFile, session 46) beside it, in a file of their own: skipped.jsonl
    # keeps its two keys, so code from before opens the index as it always did; none declared, no file
    declared = {s.path: s.declares for s in skipped if isinstance(s, SkippedProjectFile)}
    if declared:
        write_text_atomic(path.with_name(DECLARED), json.dumps(declared, ensure_ascii=False, indent=1) + "\n")
    else:
        path.with_name(DECLARED).unlink(missing_ok=True)


def read_skipped(path: Path) -> list[SkippedFile]:
    if not path.exists():
        return []
    try:
        declared = json.loads(path.with_name(DECLARED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        declared = {}  # none written (no project file, an index built before), or unreadable: no name, nothing lost
    declared = declared if isinstance(declared, dict) else {}
    with open(path, encoding="utf-8") as f:
        entries = [SkippedFile(**json.loads(line)) for line in f if line.strip()]
    return [SkippedProjectFile(s.path, s.reason, str(declared[s.path])) if s.path in declared else s for s in entries]


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
        is_delta = is_delta or (name.startswith("ann.") and name.endswith(".faiss"))
        is_line_index = name.startswith("chunks") and name.endswith((LINE_INDEX_SUFFIX, META_SUFFIX))
        if is_line_index:  # kept with its table
            name = name.removesuffix(LINE_INDEX_SUFFIX).removesuffix(META_SUFFIX) + ".jsonl"
        if ((is_table or is_bm25 or is_delta or is_line_index) and name not in keep) or _TMP.match(entry.name):
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def read_generation(
    path: Path, manifest: dict[str, Any], config: CorpusConfig
) -> tuple[dict[str, Any], ChunkTable, SegmentedBM25, VectorMatrix | None]:
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
) -> tuple[ChunkTable, SegmentedBM25, VectorMatrix | None]:
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
        vectors.note = open_ann(path, files, vectors)
    base = BM25Index.load(path / files["bm25"], config.bm25)
    return table, open_bm25(path, files, config, base, table), vectors


def open_bm25(
    path: Path, files: dict[str, Any], config: CorpusConfig, base: BM25Index, table: ChunkTable
) -> SegmentedBM25:
    """The generation's BM25: the base, each delta segment's postings (O(delta)), the live lines."""
    if not base.has_term_ids():  # an older index: no deltas possible (its first commit compacts)
        return SegmentedBM25(config.bm25, base, base.n_docs, np.zeros(base.n_docs, dtype=np.int64))
    _, offsets = base.term_ids()
    lengths = [np.diff(offsets)]
    base_lines = len(lengths[0])
    segments, overlays = [], []
    names = files.get("term_segments", [])
    next_id = len(base._term_lookup()) if names else 0
    first_line = base_lines
    for name in names:
        with NPY_LOCK, np.load(path / name) as seg:  # an .npz reads each member's header lazily
            new_terms, terms, seg_lengths = seg["new_terms"].tolist(), seg["terms"], seg["lengths"]
        overlay = {term: next_id + i for i, term in enumerate(new_terms)}
        next_id += len(overlay)
        if overlay:
            overlays.append(overlay)
        segments.append(Postings.from_term_ids(terms, seg_lengths, first_line))
        lengths.append(np.asarray(seg_lengths, dtype=np.int64))
        first_line += len(seg_lengths)
    all_lengths = np.concatenate(lengths).astype(np.int64)
    if len(all_lengths) != table.n_lines:
        raise ValueError(f"BM25 term ids cover {len(all_lengths)} table lines, the table has {table.n_lines}")
    return SegmentedBM25(config.bm25, base, base_lines, all_lengths, segments, overlays, table.lines)


@dataclass(frozen=True)
class Commit:
    """What `commit_generation` made: the new manifest, table, BM25 (and vectors), all skipped files, table bytes."""

    manifest: dict[str, Any]
    table: ChunkTable
    bm25: SegmentedBM25
    skipped: list[SkippedFile]
    bytes_written: int
    vectors: VectorMatrix | None = None


def commit_generation(
    path: Path,
    current: dict[str, Any],
    table: ChunkTable,
    bm25: SegmentedBM25,
    config: CorpusConfig,
    keep: Sequence[int],
    new_chunks: Sequence[Chunk],
    new_vids: Sequence[str],
    old_skipped: Sequence[SkippedFile],
    skipped: Sequence[SkippedFile],
    vectors: VectorMatrix | None = None,
    new_vectors: np.ndarray | None = None,
    compact: bool | None = None,
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
    compact: True forces a compaction (`Corpus.compact`, `context1 repair`); None leaves it to the
    policy above.
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
    keep_lines = lines[keep_rows]
    dead = n_lines - len(keep_lines)  # deleted lines after this commit
    segments = list(old_files.get("chunk_segments", []))
    # A user's add/delete never compacts (O(corpus)): only `Corpus.compact`/`context1 repair` do,
    # and an index that cannot take a delta (no saved term ids or vector matrix: written by an
    # older version) is migrated once. `compaction_due` says when a compaction would pay.
    compact = bool(compact) or not bm25.has_term_ids() or (vectors is not None and vector_files(old_files) is None)
    new_matrix = None
    if compact:
        files: dict[str, Any] = {"chunks": f"chunks.{generation}.jsonl", "bm25": f"bm25.{generation}"}
        shutil.rmtree(path / files["bm25"], ignore_errors=True)  # a killed commit's half-written folder
        _compacted_bm25(bm25, table, keep, keep_lines, new_chunks, config).save(path / files["bm25"])
        base = BM25Index.load(path / files["bm25"], config.bm25)
        new_bm25 = SegmentedBM25(config.bm25, base, n_rows, np.diff(base.term_ids()[1]))
        written = copy_table(path, table_files(old_files), path / files["chunks"], keep_lines, new_chunks, new_vids)
        files.update(lines=n_rows, base_lines=n_rows)
        new_table = ChunkTable.open([path / files["chunks"]])
        if vectors is not None:
            files["vectors"] = f"vectors.{generation}.npy"
            write_vectors(path / files["vectors"], np.concatenate([vectors.lines(keep_lines), new_vectors]))
            new_matrix = VectorMatrix.open([path / files["vectors"]], vectors.dim)
            ann_manifest = {"files": files}
            write_ann(path, ann_manifest, generation)  # a new base: a newly trained index
            manifest["dense"] = ann_manifest["dense"]
            new_matrix.note = open_ann(path, files, new_matrix)
    else:
        files = {k: v for k, v in old_files.items() if k != "deleted"}
        written = 0
        segment = None
        postings, overlay = None, {}
        if new_chunks:
            name = f"chunks.{generation}.jsonl"
            segment = path / name
            written = write_chunk_table(segment, new_chunks, new_vids)
            files["chunk_segments"] = [*segments, name]
            # Only the new chunks are tokenised; their postings join the others at query time.
            terms, lengths, overlay = bm25.tokenize_new([bm25_text(c) for c in new_chunks])
            files["term_segments"] = [
                *old_files.get("term_segments", []),
                _write_term_segment(path, generation, terms, lengths, overlay),
            ]
            postings = Postings.from_term_ids(terms, lengths, n_lines)
        new_bm25 = bm25.derive(keep_rows, postings, overlay)
        new_table = table.derive(keep_rows, segment)
        if vectors is None:
            for key in ("vectors", "vector_segments", *ANN_KEYS):
                files.pop(key, None)
        elif segment is not None:
            name = f"vectors.{generation}.npy"
            write_vectors(path / name, new_vectors)
            files["vector_segments"] = [*old_files.get("vector_segments", []), name]
            new_matrix = vectors.derive(path / name)
        else:
            new_matrix = vectors
        if dead:
            deleted = np.setdiff1d(np.arange(n_lines, dtype=np.int64), keep_lines, assume_unique=True)
            files["deleted"] = f"deleted.{generation}.npy"
            write_atomic(path / files["deleted"], lambda f: np.save(f, deleted))
        files["lines"] = n_lines + len(new_chunks)
        files["base_lines"] = base_lines
        files["dead_lines"] = dead
        manifest["dense"] = dense_block(files)
    all_skipped = [*old_skipped, *skipped]
    if skipped:
        write_skipped(path / SKIPPED, all_skipped)
    manifest.update(files=files, generation=generation, updated_at=now(), previous_files=old_files)
    manifest["compaction_due"] = compaction_due(files)
    n_docs = _doc_count(current, table, keep_rows, new_chunks)
    set_counts(manifest, n_docs if n_docs is not None else new_table.n_docs(), len(new_table), len(all_skipped),
               new_table.n_tokens_total())
    write_json_atomic(path / MANIFEST, manifest)
    remove_unnamed_generations(path, keep=file_names(files) | file_names(old_files))
    return Commit(manifest, new_table, new_bm25, all_skipped, written, new_matrix)


def _write_term_segment(
    path: Path, generation: int, terms: np.ndarray, lengths: np.ndarray, new_terms: dict[str, int]
) -> str:
    """Save a segment's term ids, lengths and the terms it added to the vocabulary (in id order); the file name."""
    name = f"terms.{generation}.npz"
    ordered = [t for t, _ in sorted(new_terms.items(), key=lambda item: item[1])]
    write_atomic(
        path / name,
        lambda f: np.savez(
            f,
            terms=np.asarray(terms, dtype=np.int32),
            lengths=np.asarray(lengths, dtype=np.int64),
            new_terms=np.array(ordered, dtype=str),
        ),
    )
    return name


def _compacted_bm25(
    bm25: SegmentedBM25,
    table: ChunkTable,
    keep: Sequence[int],
    keep_lines: np.ndarray,
    new_chunks: Sequence[Chunk],
    config: CorpusConfig,
) -> BM25Index:
    """One BM25 index of the kept rows then the new chunks (a compaction: O(corpus))."""
    if bm25.has_term_ids():
        terms, offsets = bm25.term_ids()
        builder = BM25Builder.from_term_ids(config.bm25, bm25.vocab(), terms, offsets, keep_lines)
    else:  # an index saved before term ids were kept: tokenise the kept rows once more
        builder = BM25Builder(config.bm25)
        for i in keep:
            builder.add(bm25_text(table[i]))
    for chunk in new_chunks:
        builder.add(bm25_text(chunk))
    return builder.build()


def _doc_count(current: dict[str, Any], table: ChunkTable, keep_rows: np.ndarray, new_chunks: Sequence[Chunk]) -> int | None:
    """The document count after a commit, from the one before and what changed (None: count afresh).

    Counting the distinct documents of the whole table cost a 1-document add 0.2 s at 300k chunks.
    A commit drops or keeps whole documents, and a re-added document was dropped first.
    """
    before = (current.get("counts") or {}).get("documents")
    if before is None:
        return None
    removed = np.setdiff1d(np.arange(len(table), dtype=np.int64), keep_rows, assume_unique=True)
    gone = {table.doc_id(int(r)) for r in removed}
    return int(before) - len(gone) + len({c.doc_id for c in new_chunks})


def compaction_due(files: dict[str, Any]) -> bool:
    """Whether the deltas outgrew COMPACT_FRACTION of the base (or MAX_SEGMENTS): time for `context1 repair`.

    Deltas are added plus deleted lines; every query and open pays a little for them.
    """
    n_lines = int(files.get("lines", 0))
    base_lines = int(files.get("base_lines", n_lines))
    delta = (n_lines - base_lines) + int(files.get("dead_lines", 0))
    return len(files.get("chunk_segments", [])) > MAX_SEGMENTS or delta > COMPACT_FRACTION * max(base_lines, 1)


def now() -> str:
    """The commit time recorded in a manifest (UTC, seconds)."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
