"""Updating an index in place: the file steps of `Corpus.add`/`delete`, and syncing with a folder.

Generations: each commit writes its new files under generation-numbered names, then replaces the
manifest (the commit point). Files the previous manifest names are kept until the next commit, so
a reader in another process that read that manifest a moment earlier still finds them.

A commit writes only what changed (a delta): the new rows as a table segment
(`chunks.<g>.jsonl`), their BM25 term ids (`terms.<g>.npz`, with the terms new to the vocabulary)
and the cumulative list of dead table lines (`deleted.<g>.npy`). The manifest's "files" lists the
base table and BM25 index, then the segments; live rows are the lines of base + segments, in
order, minus the deleted ones. bm25s's score matrix depends on corpus-wide statistics (idf, mean
length), so it cannot be patched: with deltas it is recomputed in memory from the saved term ids
on open (vectorised; part of the 1.7 s an add took at 50k chunks). Once the deltas reach COMPACT_FRACTION of the base, a
commit writes a full new base instead (amortised O(1) bytes per changed row).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from corpus_tools import build as _build
from corpus_tools import readers
from corpus_tools.bm25 import NPY_LOCK, BM25Builder, BM25Index
from corpus_tools.config import CorpusConfig
from corpus_tools.embed import bm25_text
from corpus_tools.loaders import iter_file_documents
from corpus_tools.table import ChunkTable
from corpus_tools.types import Chunk, LoadReport, SkippedFile

if TYPE_CHECKING:
    from corpus_tools.corpus import Corpus


COMPACT_FRACTION = 0.1  # rewrite the base once segment rows + deleted lines exceed this share of it
MAX_SEGMENTS = 64  # ... or once this many segments pile up (each is a file to read on open)


def table_files(files: dict[str, Any]) -> list[str]:
    """The chunk-table files a manifest names, in row order (base first)."""
    return [files["chunks"], *files.get("chunk_segments", [])]


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
    tmp = new.with_name(f".{new.name}.tmp-{os.getpid()}")
    written = 0
    line_no = 0
    with open(tmp, "wb") as dst:
        for name in old_files:
            with open(path / name, "rb") as src:
                for line in src:
                    if line_no < len(keep) and keep[line_no]:
                        dst.write(line)
                        written += len(line)
                    line_no += 1
        written += _write_rows(dst, new_chunks, new_vids)
        dst.flush()
        os.fsync(dst.fileno())
    os.replace(tmp, new)
    return written


def _write_rows(dst: Any, chunks: Sequence[Chunk], vids: Sequence[str]) -> int:
    tail = "".join(_build._chunk_row(c, vid) for c, vid in zip(chunks, vids, strict=True)).encode("utf-8")
    dst.write(tail)
    return len(tail)


def _write_atomic(path: Path, write: Any) -> None:
    """Call write(file) on a temporary sibling, fsync, rename into place."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "wb") as f:
        write(f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _file_names(files: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for value in files.values():
        if isinstance(value, str):
            names.add(value)
        elif isinstance(value, list):
            names.update(v for v in value if isinstance(v, str))
    return names


def remove_old_generations(path: Path, keep: set[str]) -> None:
    """Delete table, BM25 and delta files no kept manifest names (readers may still hold the previous one)."""
    for entry in path.iterdir():
        name = entry.name
        is_table = name.startswith("chunks.") and name.endswith(".jsonl")
        is_bm25 = entry.is_dir() and (name == "bm25" or (name.startswith("bm25.") and name[5:].isdigit()))
        is_delta = (name.startswith("terms.") and name.endswith(".npz")) or (
            name.startswith("deleted.") and name.endswith(".npy")
        )
        if (is_table or is_bm25 or is_delta) and name not in keep:
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def read_generation(
    path: Path, manifest: dict[str, Any], config: CorpusConfig
) -> tuple[dict[str, Any], ChunkTable, BM25Index]:
    """(manifest, chunk table, BM25) of the generation the manifest names.

    A writer in another process may commit between our reading the manifest and the files; it
    keeps the previous generation's files, and if even those are gone we re-read the manifest.
    """
    for attempt in range(3):
        try:
            return (manifest, *_read_files(path, manifest["files"], config))
        except FileNotFoundError:
            if attempt == 2:
                raise
            manifest = json.loads((path / _build.MANIFEST).read_text(encoding="utf-8"))
    raise AssertionError("unreachable")


def _read_files(path: Path, files: dict[str, Any], config: CorpusConfig) -> tuple[ChunkTable, BM25Index]:
    deleted = np.zeros(0, dtype=np.int64)
    if files.get("deleted"):
        with NPY_LOCK:
            deleted = np.load(path / files["deleted"])
    table = ChunkTable.open([path / name for name in table_files(files)], deleted)
    bm25 = BM25Index.load(path / files["bm25"], config.bm25)
    if table.lines is None:
        return table, bm25
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
    return table, builder.build()


@dataclass(frozen=True)
class SyncReport:
    """What `Corpus.sync` changed: doc ids added, updated (re-indexed) and deleted, and skips."""

    added: Sequence[str] = ()
    updated: Sequence[str] = ()
    deleted: Sequence[str] = ()
    unchanged: int = 0
    skipped: Sequence[SkippedFile] = field(default_factory=tuple)


def sync_folder(corpus: Corpus, folder: str | Path, glob: str | None = None) -> SyncReport:
    """Make the index match a folder, re-reading only files whose size or modification time changed.

    Doc ids are paths relative to `folder` (as `Corpus.build(folder)` makes them). A document whose
    file is gone is deleted; documents that did not come from a file of this folder (records,
    other sources) are left alone.
    """
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise FileNotFoundError(f"No such folder: {str(root)!r} (sync takes the folder the index was built from)")
    paths = sorted(root.glob(glob)) if glob else sorted(root.rglob("*"))
    present: dict[str, Path] = {}
    for path in paths:
        rel = path.relative_to(root)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            if path.suffix.lower() in readers.SUPPORTED_SUFFIXES - readers.RECORD_SUFFIXES:
                present[rel.as_posix()] = path
    changed, added, unchanged = [], [], 0
    for doc_id, path in present.items():
        if not corpus.has_doc(doc_id):
            added.append(doc_id)
            continue
        meta = corpus.chunks(doc_id)[0].metadata
        stat = path.stat()
        if meta.get("source_size") == stat.st_size and meta.get("source_mtime_ns") == stat.st_mtime_ns:
            unchanged += 1
        else:
            changed.append(doc_id)
    gone = [
        doc_id
        for doc_id in corpus.doc_ids()
        if doc_id not in present and corpus.chunks(doc_id)[0].metadata.get("source") == doc_id
    ]
    documents, skipped = [], []
    for doc_id in [*added, *changed]:
        for item, _where in iter_file_documents(present[doc_id], doc_id):
            (skipped if isinstance(item, SkippedFile) else documents).append(item)
    indexed = {d.doc_id for d in documents}
    if documents or skipped:
        corpus.add(LoadReport(documents=documents, skipped=skipped))
    # A changed file that no longer reads is removed too: its old text is no longer the file's.
    stale = gone + [d for d in changed if d not in indexed]
    if stale:
        corpus.delete(stale)
    return SyncReport(
        added=[d for d in added if d in indexed],
        updated=[d for d in changed if d in indexed],
        deleted=stale,
        unchanged=unchanged,
        skipped=tuple(skipped),
    )


def commit_generation(
    path: Path,
    current: dict[str, Any],
    state: Any,
    config: CorpusConfig,
    keep: Sequence[int],
    new_chunks: Sequence[Chunk],
    new_vids: Sequence[str],
    old_skipped: Sequence[SkippedFile],
    skipped: Sequence[SkippedFile],
) -> tuple[dict[str, Any], Any, list[SkippedFile], int]:
    """Write generation g+1 and switch the manifest to it; (manifest, state, skipped, table bytes written).

    The manifest replace is the commit point: a kill before it leaves generation g whole (new
    files are written under names g's manifest does not use), a kill after it leaves g+1 whole
    (the caller then drops the stale vectors, which search ignores since the committed table does
    not name them). Files of generation g are kept until g+2 is committed, so a reader in another
    process that read the old manifest a moment ago still finds them.
    Incremental: a delta commit writes only the new rows, their term ids and the deleted lines;
    a compaction copies kept table lines as bytes and reuses their BM25 term ids.
    """
    from corpus_tools.corpus import _State

    manifest = json.loads(json.dumps(current))
    old_files = dict(manifest["files"])
    generation = int(manifest.get("generation", 0)) + 1
    keep_rows = np.asarray(keep, dtype=np.int64)
    n_lines = int(old_files.get("lines", len(state.chunks)))
    base_lines = int(old_files.get("base_lines", n_lines))
    lines = state.lines if state.lines is not None else np.arange(len(state.chunks), dtype=np.int64)
    n_rows = len(keep_rows) + len(new_chunks)
    old_vocab_size = len(state.bm25.vocab()) if state.bm25.has_term_ids() else 0
    if state.bm25.has_term_ids():
        builder = BM25Builder.from_index(state.bm25, keep_rows)
    else:  # an index saved before term ids were kept: tokenise the kept rows once more
        builder = BM25Builder(config.bm25)
        for i in keep:
            builder.add(bm25_text(state.chunks[i]))
    for chunk in new_chunks:
        builder.add(bm25_text(chunk))
    bm25 = builder.build()
    keep_lines = lines[keep_rows]
    dead = n_lines - len(keep_lines)  # deleted lines after this commit
    segments = list(old_files.get("chunk_segments", []))
    delta = (n_lines - base_lines) + len(new_chunks) + dead
    compact = (
        not state.bm25.has_term_ids()
        or len(segments) + 1 > MAX_SEGMENTS
        or delta > COMPACT_FRACTION * max(base_lines, 1)
    )
    if compact:
        files: dict[str, Any] = {"chunks": f"chunks.{generation}.jsonl", "bm25": f"bm25.{generation}"}
        shutil.rmtree(path / files["bm25"], ignore_errors=True)
        bm25.save(path / files["bm25"])
        bm25 = BM25Index.load(path / files["bm25"], config.bm25)
        written = copy_table(path, table_files(old_files), path / files["chunks"], keep_lines, new_chunks, new_vids)
        files.update(lines=n_rows, base_lines=n_rows)
        table = ChunkTable.open([path / files["chunks"]])
    else:
        files = {k: v for k, v in old_files.items() if k != "deleted"}
        written = 0
        segment = None
        if new_chunks:
            name = f"chunks.{generation}.jsonl"
            segment = path / name
            sizes: list[int] = []
            _write_atomic(path / name, lambda f: sizes.append(_write_rows(f, new_chunks, new_vids)))
            written = sizes[0]
            files["chunk_segments"] = [*segments, name]
            files["term_segments"] = [
                *old_files.get("term_segments", []),
                _write_term_segment(path, generation, bm25, len(keep), old_vocab_size),
            ]
        table = state.chunks.derive(keep_rows, segment)
        if dead:
            deleted = np.setdiff1d(np.arange(n_lines, dtype=np.int64), keep_lines)
            files["deleted"] = f"deleted.{generation}.npy"
            _write_atomic(path / files["deleted"], lambda f: np.save(f, deleted))
        files["lines"] = n_lines + len(new_chunks)
        files["base_lines"] = base_lines
    all_skipped = [*old_skipped, *skipped]
    if skipped:
        _build.write_skipped(path / _build.SKIPPED, all_skipped)
    manifest.update(files=files, generation=generation, updated_at=_build.now(), previous_files=old_files)
    _build._set_count_values(manifest, table.n_docs(), len(table), len(all_skipped), table.n_tokens_total())
    _build.write_json_atomic(path / _build.MANIFEST, manifest)
    remove_old_generations(path, keep=_file_names(files) | _file_names(old_files))
    return manifest, _State(table, bm25), all_skipped, written


def _write_term_segment(path: Path, generation: int, bm25: BM25Index, first_row: int, old_vocab_size: int) -> str:
    """Save the term ids of rows first_row.. of `bm25` and the terms its vocabulary gained; the file name."""
    terms, offsets = bm25.term_ids()
    vocab = bm25.vocab()
    new_terms = sorted((i, t) for t, i in vocab.items() if i >= old_vocab_size)
    name = f"terms.{generation}.npz"
    _write_atomic(
        path / name,
        lambda f: np.savez(
            f,
            terms=np.asarray(terms[offsets[first_row] :], dtype=np.int32),
            lengths=np.diff(offsets[first_row:]).astype(np.int64),
            new_terms=np.array([t for _, t in new_terms], dtype=str),
        ),
    )
    return name
