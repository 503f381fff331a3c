"""What an index folder holds, in one dict (`context1 info INDEX`): size, fields, models, how it searches.

Read from the opened `Corpus` and its manifest, without loading a model or scanning every chunk: the
metadata fields are those of FIELD_SAMPLE documents spread over the index (all of a smaller one),
so `info` answers at once on a million-chunk index.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corpus_tools import readers
from corpus_tools.index_format import dense_block
from corpus_tools.source_reader import SOURCE_SUFFIXES

FIELD_SAMPLE = 200  # documents whose chunks are read for the metadata fields
# Chunk-metadata keys that are bookkeeping, not fields a `where` is written against.
_BOOKKEEPING = frozenset({"header", "source_size", "source_mtime_ns"})


def folder_bytes(path: Path) -> int:
    """Bytes of every file under `path` (the index folder as it sits on disk)."""
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def metadata_fields(corpus: Any, sample: int = FIELD_SAMPLE) -> tuple[list[str], bool]:
    """(the metadata keys of the corpus's chunks, whether they come from a sample of documents).

    Every chunk of up to `sample` documents, spread evenly over the index; bookkeeping keys left out.
    """
    ids = corpus.doc_ids()
    step = max(1, -(-len(ids) // sample))
    keys: set[str] = set()
    for doc_id in ids[::step]:
        for chunk in corpus.chunks(doc_id):
            keys.update(chunk.metadata)
    return sorted(keys - _BOOKKEEPING), step > 1


def file_types(doc_ids: list[str]) -> dict[str, int]:
    """Documents per kind of file they were read from, most first, read from their ids alone (no chunk is
    read): a folder's document is named by its path ("reports/q3.docx" → ".docx"), a message of an mbox by
    the archive's path and the message ("mail/ops.mbox/<Message-ID>" → ".mbox"); an id that names no file
    of a readable kind (a record's or a dataset's id) counts as "other"."""
    counts: dict[str, int] = {}
    for doc_id in doc_ids:
        steps = doc_id.split("/")
        suffix = Path(steps[-1]).suffix.lower()
        if suffix not in readers.SUPPORTED_SUFFIXES - readers.RECORD_SUFFIXES | SOURCE_SUFFIXES:
            archive = next((Path(s).suffix.lower() for s in steps[:-1]
                            if Path(s).suffix.lower() in readers.MAILBOX_SUFFIXES), "")
            suffix = archive or "other"
        counts[suffix] = counts.get(suffix, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def index_info(corpus: Any) -> dict[str, Any]:
    """A JSON-able account of `corpus`: documents, chunks, fields, models, reranker, size, dense search, dates."""
    manifest = corpus.manifest
    files = manifest.get("files", {})
    config = corpus.config
    counts = manifest.get("counts", {})
    fields, sampled = metadata_fields(corpus)
    dense = manifest.get("dense") or dense_block(files)
    reranker = config.search.reranker
    return {
        "path": str(corpus.path),
        "documents": len(corpus.doc_ids()),
        "file_types": file_types(corpus.doc_ids()),
        "chunks": len(corpus),
        "tokens": counts.get("tokens"),
        "fields": fields,
        "fields_sampled": sampled,
        "embedding_model": manifest.get("embedding_model", config.embedding_model),
        "embedding_dim": manifest.get("embedding_dim"),
        "chunking": {"chunk_tokens": config.chunking.chunk_tokens, "overlap_tokens": config.chunking.overlap_tokens},
        "reranker": reranker if reranker not in (None, "") else "none",
        "dense_search": "approximate (FAISS)" if files.get("ann") else dense.get("search", "exact"),
        "dense_detail": dense,
        "vector_store": manifest.get("vector_store", "embedded"),
        "size_bytes": folder_bytes(Path(corpus.path)),
        "built": manifest.get("created_at"),
        "updated": manifest.get("updated_at"),
        "generation": manifest.get("generation", 0),
        "format_version": manifest.get("format_version"),
        "versions": manifest.get("versions", {}),
    }
