"""Readers: one function per file format, each turning one file into text or records.

A reader either returns what it read or raises `UnreadableFileError` with a reason a person can
act on ("binary file", "not valid UTF-8 at byte 812", "PDF has no extractable text"); the loader
turns that into a `SkippedFile`, so nothing is skipped silently. Record files (JSONL, CSV) are read
as generators, one record at a time, so a large corpus file is never held as one raw string.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# How much of a file to inspect for NUL bytes before calling it binary (the `file`/git heuristic).
_BINARY_SNIFF_BYTES = 8192

TEXT_SUFFIXES = frozenset({".txt", ".md", ".markdown", ".rst"})
HTML_SUFFIXES = frozenset({".html", ".htm"})
PDF_SUFFIXES = frozenset({".pdf"})
RECORD_SUFFIXES = frozenset({".json", ".jsonl", ".ndjson", ".csv"})
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | HTML_SUFFIXES | PDF_SUFFIXES | RECORD_SUFFIXES

_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_BLANK_RUNS = re.compile(r"\n\s*\n\s*(?:\n\s*)+")


class UnreadableFileError(Exception):
    """A file (or a record in it) that cannot be turned into a document; `str()` is the reason."""


def _decode(data: bytes) -> str:
    if b"\x00" in data[:_BINARY_SNIFF_BYTES]:
        raise UnreadableFileError("binary file (contains NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def read_text(path: Path) -> str:
    """The whole file as text: UTF-8 (a BOM is dropped); binary or undecodable files are refused."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None
    return _decode(data)


def markdown_title(text: str) -> str | None:
    """The first ATX heading (`# Title`) of a markdown text, if any."""
    for line in text.splitlines():
        match = _MD_HEADING.match(line)
        if match:
            return match.group(1).strip()
    return None


def read_html(path: Path) -> tuple[str | None, str]:
    """(title, visible text) of an HTML file; title from <title>, else the first <h1>."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(read_text(path), "html.parser")
    title = None
    for tag in (soup.title, soup.find("h1")):
        if tag is not None and tag.get_text(strip=True):
            title = " ".join(tag.get_text(" ", strip=True).split())
            break
    for tag in soup(["script", "style", "noscript", "template", "head"]):
        tag.decompose()
    text = soup.get_text("\n")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return title, _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip()


def read_pdf(path: Path) -> tuple[str | None, str]:
    """(title from the PDF's metadata, text of all pages separated by blank lines)."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted:
            raise UnreadableFileError("encrypted PDF")
        pages = [page.extract_text() or "" for page in reader.pages]
        title = reader.metadata.title if reader.metadata is not None else None
    except UnreadableFileError:
        raise
    except (PdfReadError, OSError, ValueError, KeyError, TypeError) as exc:
        raise UnreadableFileError(f"unreadable PDF ({type(exc).__name__}: {exc})") from None
    text = "\n\n".join(page.strip() for page in pages if page.strip())
    if not text:
        raise UnreadableFileError("PDF has no extractable text (scanned images?)")
    title = title.strip() if isinstance(title, str) and title.strip() else None
    return title, text


def iter_jsonl(path: Path, label: str | None = None) -> Iterator[tuple[str, Any]]:
    """(location, record) for every non-blank line; a bad line yields (location, UnreadableFileError).

    Locations read "<label>:<line>", label defaulting to the path.
    """
    label = label or str(path)
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None
    with handle:
        for line_no, raw in enumerate(handle, start=1):
            where = f"{label}:{line_no}"
            if not raw.strip():
                continue
            try:
                yield where, json.loads(_decode(raw))
            except UnreadableFileError as exc:
                yield where, exc
            except json.JSONDecodeError as exc:
                yield where, UnreadableFileError(f"invalid JSON ({exc.msg} at column {exc.colno})")


def iter_json(path: Path, label: str | None = None) -> Iterator[tuple[str, Any]]:
    """(location, record) for a JSON file holding one record or a list of records ("<label>[<index>]")."""
    label = label or str(path)
    try:
        data = json.loads(read_text(path))
    except json.JSONDecodeError as exc:
        raise UnreadableFileError(f"invalid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
    if isinstance(data, dict):
        yield label, data
    elif isinstance(data, list):
        for index, record in enumerate(data):
            yield f"{label}[{index}]", record
    else:
        raise UnreadableFileError(f"JSON holds a {type(data).__name__}, expected an object or a list of objects")


def iter_csv(path: Path, label: str | None = None) -> Iterator[tuple[str, Any]]:
    """(location, row as a dict) for every row of a CSV file with a header line ("<label>:<line>")."""
    label = label or str(path)
    head = read_text_head(path)
    if b"\x00" in head:
        raise UnreadableFileError("binary file (contains NUL bytes)")
    # Corpus CSVs carry whole abstracts or articles in one field; the default limit is 128 KiB.
    csv.field_size_limit(min(sys.maxsize, 2**31 - 1))
    try:
        handle = path.open(encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None
    with handle:
        reader = csv.DictReader(handle)
        try:
            for row in reader:
                # DictReader puts extra cells under the key None; they have no column name to map.
                row.pop(None, None)
                yield f"{label}:{reader.line_num}", row
        except UnicodeDecodeError as exc:
            raise UnreadableFileError(f"not valid UTF-8 after line {reader.line_num} ({exc.reason})") from None
        except csv.Error as exc:
            raise UnreadableFileError(f"malformed CSV at line {reader.line_num} ({exc})") from None


def read_text_head(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(_BINARY_SNIFF_BYTES)
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None


def iter_records(path: Path, label: str | None = None) -> Iterator[tuple[str, Any]]:
    """Records of a .json, .jsonl/.ndjson or .csv file, by suffix; locations start with `label`."""
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return iter_jsonl(path, label)
    if suffix == ".json":
        return iter_json(path, label)
    if suffix == ".csv":
        return iter_csv(path, label)
    raise ValueError(f"{path} is not a record file; record files end in {sorted(RECORD_SUFFIXES)}")
