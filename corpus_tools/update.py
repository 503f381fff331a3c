"""Updating an index in place: the file steps of `Corpus.add`/`delete`, and syncing with a folder.

Generations: each commit writes `chunks.<g>.jsonl` and `bm25.<g>/`, then replaces the manifest
(the commit point). Files of generation g-1 are kept until g+1 is committed, so a reader in
another process that read the previous manifest a moment earlier still finds its files.
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
from corpus_tools.bm25 import BM25Builder, BM25Index
from corpus_tools.config import CorpusConfig
from corpus_tools.embed import bm25_text
from corpus_tools.loaders import iter_file_documents
from corpus_tools.types import Chunk, LoadReport, SkippedFile

if TYPE_CHECKING:
    from corpus_tools.corpus import Corpus


def copy_table(
    old: Path, new: Path, keep_rows: np.ndarray, new_chunks: Sequence[Chunk], new_vids: Sequence[str]
) -> int:
    """Write the next chunk table: kept rows copied line by line as bytes, then the new rows.

    Returns the bytes written. Row i of the table is line i, so no JSON is parsed or re-encoded.
    """
    keep = np.zeros(0, dtype=bool)
    if keep_rows.size:
        keep = np.zeros(int(keep_rows.max()) + 1, dtype=bool)
        keep[keep_rows] = True
    # Kept rows must stay in their order: `keep` lists rows ascending, which line order gives.
    tmp = new.with_name(f".{new.name}.tmp-{os.getpid()}")
    written = 0
    with open(old, "rb") as src, open(tmp, "wb") as dst:
        for row, line in enumerate(src):
            if row < len(keep) and keep[row]:
                dst.write(line)
                written += len(line)
        tail = "".join(_build._chunk_row(c, vid) for c, vid in zip(new_chunks, new_vids, strict=True)).encode("utf-8")
        dst.write(tail)
        written += len(tail)
        dst.flush()
        os.fsync(dst.fileno())
    os.replace(tmp, new)
    return written


def remove_old_generations(path: Path, keep: set[str]) -> None:
    """Delete table and BM25 generations older than the previous one (readers may still hold that)."""
    for entry in path.iterdir():
        name = entry.name
        is_table = name.startswith("chunks.") and name.endswith(".jsonl")
        is_bm25 = entry.is_dir() and (name == "bm25" or (name.startswith("bm25.") and name[5:].isdigit()))
        if (is_table or is_bm25) and name not in keep:
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def read_generation(
    path: Path, manifest: dict[str, Any], config: CorpusConfig
) -> tuple[dict[str, Any], list[Chunk], list[str], BM25Index]:
    """(manifest, chunks, vector ids, BM25) of the generation the manifest names.

    A writer in another process may commit between our reading the manifest and the files; it
    keeps the previous generation's files, and if even those are gone we re-read the manifest.
    """
    for attempt in range(3):
        try:
            chunks, vector_ids = _build.read_chunk_rows(path / manifest["files"]["chunks"])
            bm25 = BM25Index.load(path / manifest["files"]["bm25"], config.bm25)
            return manifest, chunks, vector_ids, bm25
        except FileNotFoundError:
            if attempt == 2:
                raise
            manifest = json.loads((path / _build.MANIFEST).read_text(encoding="utf-8"))
    raise AssertionError("unreachable")


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
    """Write generation g+1 (table + BM25) and switch the manifest to it; (manifest, state, skipped, bytes).

    The manifest replace is the commit point: a kill before it leaves generation g whole, a kill
    after it leaves g+1 whole (the caller then drops the stale vectors, which search ignores since
    the committed table does not name them). Generation g's files are kept until g+2 is committed,
    so a reader in another process that read the old manifest a moment ago still finds its files.
    Incremental: kept rows' table lines are copied as bytes and their BM25 term ids reused; only
    the new chunks are serialised and tokenised.
    """
    from corpus_tools.corpus import _State

    manifest = json.loads(json.dumps(current))
    old_files = dict(manifest["files"])
    generation = int(manifest.get("generation", 0)) + 1
    files = {"chunks": f"chunks.{generation}.jsonl", "bm25": f"bm25.{generation}"}
    keep_rows = np.asarray(keep, dtype=np.int64)
    chunks = [state.chunks[i] for i in keep] + list(new_chunks)
    vector_ids = [state.vector_ids[i] for i in keep] + list(new_vids)
    if state.bm25.has_term_ids():
        builder = BM25Builder.from_index(state.bm25, keep_rows)
    else:  # an index saved before term ids were kept: tokenise the kept rows once more
        builder = BM25Builder(config.bm25)
        for i in keep:
            builder.add(bm25_text(state.chunks[i]))
    for chunk in new_chunks:
        builder.add(bm25_text(chunk))
    shutil.rmtree(path / files["bm25"], ignore_errors=True)
    builder.build().save(path / files["bm25"])
    bm25 = BM25Index.load(path / files["bm25"], config.bm25)
    written = copy_table(path / old_files["chunks"], path / files["chunks"], keep_rows, new_chunks, new_vids)
    all_skipped = [*old_skipped, *skipped]
    if skipped:
        _build.write_skipped(path / _build.SKIPPED, all_skipped)
    manifest.update(files=files, generation=generation, updated_at=_build.now(), previous_files=old_files)
    _build._set_count_values(
        manifest, len({c.doc_id for c in chunks}), len(chunks), len(all_skipped), sum(c.n_tokens for c in chunks)
    )
    _build.write_json_atomic(path / _build.MANIFEST, manifest)
    remove_old_generations(path, keep={files["chunks"], files["bm25"], old_files["chunks"], old_files["bm25"]})
    return manifest, _State(chunks, bm25, vector_ids), all_skipped, written
