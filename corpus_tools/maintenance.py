"""`context1 repair INDEX`: make an index whole and compact again.

A vector matrix that cannot be read or does not cover the table is rewritten from Chroma
(corpus_tools.repair), then the index is compacted into one base (`Corpus.compact`): one table,
BM25 and vector file, and a newly trained FAISS index, which is what fixes an ANN file out of
step with the table (corpus_tools.ann) and folds the deltas a user's adds left (they never
compact: corpus_tools.index_format).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corpus_tools import store_sync
from corpus_tools.corpus import Corpus
from corpus_tools.index_format import read_manifest, table_files, vector_files
from corpus_tools.repair import repair_vectors
from corpus_tools.table import ChunkTable
from corpus_tools.vectors import VectorMatrix


def repair_index(path: str | Path, client: Any = None) -> str:
    """What `context1 repair INDEX` does; a sentence saying what was done.

    1. A vector matrix that is missing, unreadable or does not cover the table: rewritten from Chroma.
    2. Documents indexed before the cover-page fields get them from their own indexed text
       (`Corpus.add_document_fields`: company, form, period; nothing re-embedded).
    3. A compaction (`Corpus.compact`): one base table, BM25 and vector file, and a newly trained
       FAISS index past ann.ANN_MIN_LINES lines (an ANN file out of step is replaced here).
    3. An embedded Chroma copy that adds and deletes left behind (corpus_tools.store_sync): brought in step.
    """
    path = Path(path).expanduser().absolute()
    done = []
    if not _matrix_ok(path):
        n = repair_vectors(path, client)
        done.append(f"rewrote the vector matrix from Chroma ({n:,} chunks)")
    with Corpus.open(path, client=client, reranker="none") as corpus:
        fielded = corpus.add_document_fields()
        if fielded:
            done.append(f"read company/form/period from the cover of {fielded:,} document(s) indexed before those fields")
        corpus.compact()
        dense = corpus.manifest.get("dense", {}).get("search", "exact")
        done.append(f"compacted {len(corpus):,} chunks into one base (dense leg: {dense})")
        if corpus.manifest.get(store_sync.BEHIND):
            _ = corpus._store  # opening the Chroma copy writes the adds and deletes it missed
            done.append("brought the Chroma copy in step")
    return "; ".join(done)


def _matrix_ok(path: Path) -> bool:
    """Whether the index's vector matrix (if it has one) can be read and covers its table."""
    manifest = read_manifest(path)
    files = manifest["files"]
    names = vector_files(files)
    if names is None:
        return manifest["vector_store"] != "embedded"  # an older embedded index gets its matrix in repair_vectors
    try:
        matrix = VectorMatrix.open([path / name for name in names], int(manifest["embedding_dim"]))
        return matrix.n_lines == ChunkTable.open([path / name for name in table_files(files)]).n_lines
    except (OSError, ValueError):
        return False
