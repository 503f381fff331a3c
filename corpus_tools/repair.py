"""The vector matrix from Chroma: for an index written before the matrix existed, or a damaged one.

`context1 repair` (corpus_tools.maintenance.repair_index) runs `repair_vectors` when the matrix
cannot be used, then compacts the index.

`Corpus._commit` uses `matrix_from_store` to give an older index its matrix on its next write;
`repair_vectors` (`context1 repair INDEX`) rewrites it in place, as a commit of its own: the new
file under a new generation's name, then the manifest (the commit point), so a kill leaves the
index as it was.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools.bm25 import NPY_LOCK
from corpus_tools.index_format import (
    MANIFEST,
    WRITE_LOCK,
    dense_block,
    file_names,
    now,
    read_manifest,
    remove_unnamed_generations,
    table_files,
    write_ann,
    write_json_atomic,
    write_line_index,
    write_vectors,
)
from corpus_tools.store import CHROMA_DIR, ChromaStore, embedded_client
from corpus_tools.table import ChunkTable, line_index_path
from corpus_tools.types import IndexFormatError

_BATCH = 1000  # ids per Chroma get


def matrix_from_store(store: ChromaStore, table: ChunkTable, dim: int) -> np.ndarray | None:
    """(table lines, dim) float32: each live row's stored vector at its line, zeros at deleted lines.

    None when a live row's vector is not in the store (nothing to write a faithful matrix from).
    """
    out = np.zeros((table.n_lines, dim), dtype=np.float32)
    lines = table.row_lines()
    vids = [table.vector_id(row) for row in range(len(table))]
    for start in range(0, len(vids), _BATCH):
        part = vids[start : start + _BATCH]
        found = store.vectors(part)
        if len(found) != len(set(part)):
            return None
        out[lines[start : start + len(part)]] = np.stack([found[v] for v in part])
    return out


def repair_vectors(path: str | Path, client: Any = None) -> int:
    """Rewrite the vector matrix of the index at `path` from its Chroma store; the vectors written.

    For an index whose matrix is damaged (Corpus.open says so) or absent (written before it
    existed); table files without saved line numbers get them too. Takes the index's write lock;
    IndexFormatError when the store lacks a vector.
    """
    from filelock import FileLock

    path = Path(path).expanduser().absolute()
    with FileLock(str(path / WRITE_LOCK), timeout=600):
        manifest = read_manifest(path)
        old_files = dict(manifest["files"])
        deleted = None
        if old_files.get("deleted"):
            with NPY_LOCK:
                deleted = np.load(path / old_files["deleted"])
        table = ChunkTable.open([path / name for name in table_files(old_files)], deleted)
        owns = client is None
        if owns:
            if manifest["vector_store"] != "embedded":
                raise ValueError(f"Index {str(path)!r} keeps its vectors on a Chroma server; pass client=")
            client = embedded_client(path / CHROMA_DIR)
        store = ChromaStore(client, manifest["collection"], create=False, owns_client=owns)
        try:
            matrix = matrix_from_store(store, table, int(manifest["embedding_dim"]))
        finally:
            store.close()
        if matrix is None:
            raise IndexFormatError(
                f"The Chroma store of index {str(path)!r} lacks vectors of some chunks: the matrix cannot be "
                "rewritten from it. Rebuild it with Corpus.build(source, path)."
            )
        generation = int(manifest.get("generation", 0)) + 1
        files = {k: v for k, v in old_files.items() if k != "vector_segments"}
        files["vectors"] = f"vectors.{generation}.npy"
        write_vectors(path / files["vectors"], matrix)
        write_ann(path, manifest | {"files": files}, generation)  # a new base file: a new FAISS index
        manifest["dense"] = dense_block(files)
        for name in table_files(old_files):  # and the table's line numbers, if it predates them
            if not line_index_path(path / name).exists():
                write_line_index(path / name)
        manifest.update(files=files, generation=generation, updated_at=now(), previous_files=old_files)
        write_json_atomic(path / MANIFEST, json.loads(json.dumps(manifest)))
        remove_unnamed_generations(path, keep=file_names(files) | file_names(old_files))
        return len(table)

