"""The doc ids a build has taken so far, on disk: its duplicate check without a dictionary in memory.

A build refuses a second document with an id it already indexed, naming where the first came
from. It kept {doc id: where} in a dict: ≈ 330 bytes a document, 330 MB at 1M documents, for
a check that is one lookup per document. Here they sit in a SQLite table in the build's staging
folder (its primary key is the lookup; SQLite's page cache, 2 MB by default, is what memory
holds), written in one transaction that is never committed: the file is scratch, removed with
the staging folder.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


class SeenDocIds:
    """`first(doc_id, where)`: None the first time an id is offered, else where it was first seen."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.unlink(missing_ok=True)  # a leftover of a killed build holds nothing of this one
        self._db: sqlite3.Connection | None = sqlite3.connect(self.path, isolation_level=None)
        self._db.executescript(
            "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
            "CREATE TABLE seen (doc_id TEXT PRIMARY KEY, source TEXT NOT NULL) WITHOUT ROWID; BEGIN;"
        )

    def first(self, doc_id: str, where: str) -> str | None:
        if self._db is None:
            raise ValueError("the seen-id file is closed")
        inserted = self._db.execute("INSERT OR IGNORE INTO seen VALUES (?, ?)", (doc_id, where)).rowcount
        if inserted:
            return None
        row = self._db.execute("SELECT source FROM seen WHERE doc_id = ?", (doc_id,)).fetchone()
        return row[0]

    def close(self) -> None:
        """Close and delete the file (safe to call twice)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> SeenDocIds:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
