"""Bringing an embedded index's Chroma copy in step with its table, when Chroma is next opened.

An embedded index keeps its vectors twice: in its own vector matrix (which the dense leg
searches, exactly or through FAISS) and in a Chroma collection (the copy other tools read, and
what `context1 repair` rewrites a damaged matrix from). Opening the collection loads its whole
HNSW graph: 44 s at 100k chunks, and minutes at 1M. A process that only adds or deletes a
document has no use for the graph, so `Corpus.add`/`delete` on an index with a matrix write only
the index's own files when Chroma is not already open in the process, and the manifest records
`"chroma_behind": true`. Whoever opens the collection next (`Corpus._store`: `repair`, the tests,
a tool that reads Chroma) first brings it in step here: the vectors the table names and Chroma
lacks are upserted from the matrix, the ones it holds that the table no longer names are deleted.
The result is the collection an eager write-through would have left (vector ids are
content-keyed, so the same id always holds the same vector).
"""

from __future__ import annotations

import numpy as np

from corpus_tools.embed import retrieval_text
from corpus_tools.store import ChromaStore
from corpus_tools.table import ChunkTable
from corpus_tools.vectors import VectorMatrix

BEHIND = "chroma_behind"  # the manifest key
_PAGE = 5000  # ids per Chroma get while listing the collection
_WRITE = 1000  # vectors per upsert


def stored_ids(store: ChromaStore) -> set[str]:
    """Every vector id in the collection (listed page by page: no vectors or documents are read)."""
    found: set[str] = set()
    offset = 0
    while True:
        page = store.collection.get(include=[], limit=_PAGE, offset=offset)["ids"]
        found.update(page)
        if len(page) < _PAGE:
            return found
        offset += len(page)


def bring_in_step(store: ChromaStore, table: ChunkTable, vectors: VectorMatrix) -> tuple[int, int]:
    """Make `store` hold exactly the vectors of `table`'s rows (read from `vectors`); (upserted, deleted)."""
    have = stored_ids(store)
    live = table.vector_ids()
    missing = [row for row, vid in enumerate(live) if vid not in have]
    extra = sorted(have - set(live))
    for start in range(0, len(missing), _WRITE):
        rows = missing[start : start + _WRITE]
        chunks = [table[row] for row in rows]
        found = np.asarray(vectors.lines(table.row_lines(rows)), dtype=np.float32)
        store.upsert(chunks, [retrieval_text(c) for c in chunks], found, ids=[live[row] for row in rows])
    if extra:
        store.delete(extra)
    return len(missing), len(extra)
