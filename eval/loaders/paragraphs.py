"""The shared corpus builder of the paragraph benchmarks: a de-duplicated pool of (title, text).

Wikipedia benchmarks (HotpotQA, 2WikiMultihopQA, MuSiQue, FlashRAG copies of them) give every
question its own list of paragraphs; the benchmark's corpus is their union. A paragraph's doc id
is its title when that title carries one text in the whole benchmark, else the title plus a short
content hash, `"Title [1a2b3c4d]"`. The hash (not an arrival counter) keeps ids the same whatever
order the files are read in. Texts are compared after collapsing whitespace, so the same paragraph
printed with different spacing is one document.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from corpus_tools.types import Document

ParagraphKey = tuple[str, str]  # (title, whitespace-collapsed text)


def clean_text(text: str) -> str:
    """Whitespace collapsed to single spaces, ends stripped."""
    return " ".join(text.split())


def short_hash(text: str, n: int = 8) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:n]


class ParagraphPool:
    """Collects paragraphs, then names them: doc ids are decided once every paragraph is known."""

    def __init__(self, dataset: str) -> None:
        self.dataset = dataset
        self._texts: dict[str, dict[str, None]] = {}  # title -> texts in first-seen order
        self._ids: dict[ParagraphKey, str] | None = None

    def add(self, title: str, text: str) -> ParagraphKey:
        """Adds a paragraph (a no-op for one already there) and returns its key."""
        if self._ids is not None:
            raise RuntimeError("ParagraphPool is frozen: doc ids were already assigned")
        key = (str(title).strip(), clean_text(str(text)))
        self._texts.setdefault(key[0], {}).setdefault(key[1], None)
        return key

    def _assign(self) -> dict[ParagraphKey, str]:
        if self._ids is None:
            ids: dict[ParagraphKey, str] = {}
            for title, texts in self._texts.items():
                for text in texts:
                    ids[(title, text)] = title if len(texts) == 1 else f"{title} [{short_hash(text)}]"
            self._ids = ids
        return self._ids

    def doc_id(self, key: ParagraphKey) -> str:
        return self._assign()[key]

    def doc_ids_of_title(self, title: str) -> tuple[str, ...]:
        """Every doc id whose paragraph has this title (alternatives that may carry the same fact)."""
        ids = self._assign()
        title = str(title).strip()
        return tuple(ids[(title, text)] for text in self._texts.get(title, {}))

    def documents(self) -> list[Document]:
        """Every paragraph as a Document, in first-seen order."""
        return [
            Document(doc_id=doc_id, text=text, title=title, metadata={"dataset": self.dataset})
            for (title, text), doc_id in self._assign().items()
        ]


def as_paths(paths: str | Path | Iterable[str | Path]) -> list[Path]:
    """One path or several, as a list; a folder is an error here (load_benchmark lists folders)."""
    items = [paths] if isinstance(paths, str | Path) else list(paths)
    out = [Path(p) for p in items]
    for p in out:
        if not p.is_file():
            raise FileNotFoundError(f"{str(p)!r} is not a file")
    return out


def read_json_records(path: Path) -> list[Any]:
    """Records of a JSON file (a list, or one object as a one-record list) or of a JSON Lines file.

    Errors name the file (and the line, for JSON Lines).
    """
    text = path.read_text(encoding="utf-8-sig")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as whole_error:
        if not text.lstrip().startswith("{"):
            raise ValueError(f"{path}: not valid JSON ({whole_error})") from whole_error
        data = None
    if data is not None:
        return data if isinstance(data, list) else [data]
    records = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{lineno}: not valid JSON ({exc})") from exc
    return records


def require(record: Mapping[str, Any], fields: Sequence[str], where: str) -> None:
    """Raises ValueError naming the missing fields of a record (and the ones it has)."""
    if not isinstance(record, Mapping):
        raise ValueError(f"{where}: expected a JSON object, got {type(record).__name__}")
    missing = [f for f in fields if f not in record]
    if missing:
        raise ValueError(f"{where}: missing field(s) {missing}; the record has {sorted(record)}")


def dedupe_tasks(tasks: list, notes: list[str]) -> list:
    """Keeps the first task of each id; later duplicates are dropped with a note."""
    return dedupe_by_id(tasks, "task_id", "task", notes)


def dedupe_by_id(items: list, id_field: str, what: str, notes: list[str]) -> list:
    """Keeps the first item of each `id_field` value; later duplicates are dropped with a note."""
    seen: set[str] = set()
    out = []
    for item in items:
        key = getattr(item, id_field)
        if key in seen:
            notes.append(f"dropped duplicate {what} id {key!r}")
            continue
        seen.add(key)
        out.append(item)
    return out
