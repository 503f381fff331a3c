"""Syncing an index with a folder: re-index only the files added, changed or removed since.

The file steps of a commit (generations, deltas, the manifest) are `corpus_tools.index_format`'s;
this module only decides which documents to add and delete, through the index's public methods.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from corpus_tools import readers
from corpus_tools.loaders import ReadOptions, iter_file_documents
from corpus_tools.man_reader import is_man_suffix
from corpus_tools.source_reader import SOURCE_SUFFIXES
from corpus_tools.types import Chunk, Document, LoadReport, SkippedFile


class UpdatableIndex(Protocol):
    """What `sync_folder` needs of an index (`Corpus` is one): lookups, `add` and `delete`."""

    def has_doc(self, doc_id: str) -> bool: ...

    def chunks(self, doc_id: str) -> list[Chunk]: ...

    def doc_ids(self) -> list[str]: ...

    def add(self, documents: Any) -> int: ...

    def delete(self, doc_ids: Any) -> int: ...


@dataclass(frozen=True)
class SyncReport:
    """What `Corpus.sync` changed: doc ids added, updated (re-indexed) and deleted, and skips."""

    added: Sequence[str] = ()
    updated: Sequence[str] = ()
    deleted: Sequence[str] = ()
    unchanged: int = 0
    skipped: Sequence[SkippedFile] = field(default_factory=tuple)


def sync_folder(
    corpus: UpdatableIndex,
    folder: str | Path,
    glob: str | None = None,
    on_file: Callable[[str], None] | None = None,
) -> SyncReport:
    """Make the index match a folder, re-reading only files whose size or modification time changed.

    Doc ids are paths relative to `folder` (as `Corpus.build(folder)` makes them). A document whose
    file is gone is deleted; documents that did not come from a file of this folder (records,
    other sources) are left alone. on_file: called with a changed file's path (relative to
    `folder`) just before it is read, as `load_documents(on_file=)` is, so a progress display can
    name the file it is on.
    """
    root = Path(folder).expanduser()
    if not root.is_dir():
        raise FileNotFoundError(f"No such folder: {str(root)!r} (sync takes the folder the index was built from)")
    paths = sorted(root.glob(glob)) if glob else sorted(root.rglob("*"))
    config = getattr(corpus, "config", None)  # an index's CorpusConfig: how it reads Markdown, rst and source
    source_code = getattr(config, "read_source", False)
    # Python files are the index's documents only when it reads source (CorpusConfig.read_source).
    readable = readers.SUPPORTED_SUFFIXES - readers.RECORD_SUFFIXES | (SOURCE_SUFFIXES if source_code else set())
    notebooks = getattr(config, "read_notebooks", False)
    if not notebooks:  # nor notebooks, unless it reads them (CorpusConfig.read_notebooks; an older index does not)
        readable -= readers.NOTEBOOK_SUFFIXES
    if not getattr(config, "read_slides", False):  # nor decks, unless it reads them (CorpusConfig.read_slides)
        readable -= readers.PPTX_SUFFIXES
    if not getattr(config, "read_sheets", False):  # nor workbooks, unless it reads them (CorpusConfig.read_sheets)
        readable -= readers.XLSX_SUFFIXES
    man = getattr(config, "read_man", False)  # manual pages (.1 … .9) only when it reads them (CorpusConfig.read_man)
    present: dict[str, Path] = {}
    for path in paths:
        rel = path.relative_to(root)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            if path.suffix.lower() in readable or (man and is_man_suffix(path.suffix)):
                present[rel.as_posix()] = path
    # An mbox is many documents ("archive.mbox/<Message-ID>"), each with the archive as its source.
    # (Its path in `added`/`updated` stands for its messages; `deleted` names the messages it no longer holds.)
    has_archives = any(p.suffix.lower() in readers.MAILBOX_SUFFIXES for p in present.values())
    held = _archive_docs(corpus) if has_archives else {}
    changed, added, unchanged = [], [], 0
    for doc_id, path in present.items():
        first = held[doc_id][0] if held.get(doc_id) else doc_id
        if not corpus.has_doc(first):
            added.append(doc_id)
            continue
        meta = corpus.chunks(first)[0].metadata
        stat = path.stat()
        if meta.get("source_size") == stat.st_size and meta.get("source_mtime_ns") == stat.st_mtime_ns:
            unchanged += 1
        else:
            changed.append(doc_id)
    gone = []
    for doc_id in corpus.doc_ids():
        source = corpus.chunks(doc_id)[0].metadata.get("source")
        if source not in present and (source == doc_id or _in_archive(doc_id, source)):
            gone.append(doc_id)
    # a project file is never a document, so a changed one has nothing to re-read here
    read = replace(ReadOptions.from_config(config), project_files=False)
    documents, skipped = [], []
    read_from: dict[str, str] = {}  # doc id → the file it was read from
    for doc_id in [*added, *changed]:
        if on_file is not None:
            on_file(doc_id)
        for item, _where in iter_file_documents(present[doc_id], doc_id, read):
            (skipped if isinstance(item, SkippedFile) else documents).append(item)
            if isinstance(item, Document):
                read_from[item.doc_id] = doc_id
    indexed = {d.doc_id for d in documents}
    files_read = set(read_from.values())
    if documents or skipped:
        corpus.add(LoadReport(documents=documents, skipped=skipped))
    # A changed file that no longer reads is removed too: its old text is no longer the file's; so is a
    # message no longer in its changed archive.
    stale = gone + [d for d in changed if d not in indexed and d not in held]
    stale += [m for d in changed for m in held.get(d, ()) if m not in indexed]
    if stale:
        corpus.delete(stale)
    return SyncReport(
        added=[d for d in added if d in indexed or d in files_read],
        updated=[d for d in changed if d in indexed or d in files_read],
        deleted=stale,
        unchanged=unchanged,
        skipped=tuple(skipped),
    )


def _archive_docs(corpus: UpdatableIndex) -> dict[str, list[str]]:
    """Archive path → the doc ids of its messages, for every archive (mbox) the index holds."""
    held: dict[str, list[str]] = {}
    for doc_id in corpus.doc_ids():
        source = corpus.chunks(doc_id)[0].metadata.get("source")
        if _in_archive(doc_id, source):
            held.setdefault(source, []).append(doc_id)
    return held


def _in_archive(doc_id: str, source: Any) -> bool:
    """Whether `doc_id` is a message of the archive `source` ("mail/ops.mbox/<Message-ID>")."""
    return (isinstance(source, str) and Path(source).suffix.lower() in readers.MAILBOX_SUFFIXES
            and doc_id.startswith(source + "/"))
