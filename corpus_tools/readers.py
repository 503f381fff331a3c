"""Readers: one function per file format, each turning one file into text or records.

A reader either returns what it read or raises `UnreadableFileError` with a reason a person can
act on ("binary file", "not valid UTF-8 at byte 812", "PDF has no extractable text"); the loader
turns that into a `SkippedFile`, so nothing is skipped silently. Record files (JSONL, CSV) are read
as generators, one record at a time, so a large corpus file is never held as one raw string.
"""

from __future__ import annotations

import csv
import json
import logging
import re
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus_tools.types import DocumentPart

# How much of a file to inspect for NUL bytes before calling it binary (the `file`/git heuristic).
_BINARY_SNIFF_BYTES = 8192

TEXT_SUFFIXES = frozenset({".txt", ".md", ".markdown", ".rst"})
# Read as documents (sections, code, tables; markup removed) by markdown_reader.py / rst_reader.py, unless
# a build asks for flat text (CorpusConfig.read_markup = False): then read as .txt, as before session 40.
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
RST_SUFFIXES = frozenset({".rst"})
HTML_SUFFIXES = frozenset({".html", ".htm"})
PDF_SUFFIXES = frozenset({".pdf"})
RECORD_SUFFIXES = frozenset({".json", ".jsonl", ".ndjson", ".csv", ".parquet"})
DOCX_SUFFIXES = frozenset({".docx"})  # corpus_tools/docx_reader.py
RTF_SUFFIXES = frozenset({".rtf"})  # corpus_tools/rtf_reader.py
DOC_SUFFIXES = frozenset({".doc"})  # Word 97-2003, corpus_tools/doc_reader.py
ODT_SUFFIXES = frozenset({".odt"})  # OpenDocument text, corpus_tools/odt_reader.py
PPTX_SUFFIXES = frozenset({".pptx"})  # slide decks, a section per slide (corpus_tools/pptx_reader.py)
XLSX_SUFFIXES = frozenset({".xlsx", ".xlsm"})  # corpus_tools/xlsx_reader.py (a macro workbook's cells read alike)
MAIL_SUFFIXES = frozenset({".eml"})  # one message a file (corpus_tools/mail_reader.py)
MSG_SUFFIXES = frozenset({".msg"})  # one Outlook message a file (corpus_tools/msg_reader.py)
MAILBOX_SUFFIXES = frozenset({".mbox"})  # many messages a file: one document each
# WebVTT and SubRip captions, read as turns of speakers by corpus_tools/transcripts.py
TRANSCRIPT_SUFFIXES = frozenset({".vtt", ".srt"})
# Jupyter notebooks, read as documents (Markdown cells, code cells and what they printed) by notebook_reader.py
NOTEBOOK_SUFFIXES = frozenset({".ipynb"})
SUPPORTED_SUFFIXES = (TEXT_SUFFIXES | HTML_SUFFIXES | PDF_SUFFIXES | RECORD_SUFFIXES | DOCX_SUFFIXES | RTF_SUFFIXES
                      | DOC_SUFFIXES | ODT_SUFFIXES | MAIL_SUFFIXES | MSG_SUFFIXES | MAILBOX_SUFFIXES
                      | TRANSCRIPT_SUFFIXES | NOTEBOOK_SUFFIXES | PPTX_SUFFIXES | XLSX_SUFFIXES)
# Formats users keep beside those but that are not read: each is skipped saying how to make it readable
# (the reason's words before ";" name the group `context1 index` counts it in).
CONVERT_FIRST = {
    ".ppt": "binary PowerPoint 97-2003 file, not read; open it in PowerPoint or LibreOffice Impress and save it as "
            ".pptx or PDF, then index that file",
    ".xls": "binary Excel 97-2003 file, not read; open it in Excel or LibreOffice and save it as .xlsx, then index "
            "that file",
}

_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_BLANK_RUNS = re.compile(r"\n\s*\n\s*(?:\n\s*)+")
_SEPARATORS = re.compile(r"[\s_\-.+/\\]+")
_FILE_NAME = re.compile(r"\.(?:pdf|docx?|rtf|txt|html?|indd|xlsx?|pptx?|qxd|tex|dvi|ps)\b", re.IGNORECASE)
_JUNK_TITLES = frozenset(
    {"untitled", "title", "document", "none", "null", "unknown", "pdf", "print", "default", "slide 1", "page 1"}
)


# Byte-order marks, longest first (the UTF-32-LE mark starts with the UTF-16-LE one).
_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
# Above this fraction of unreadable characters a text is refused as garbled (mojibake): real text
# in any script has almost none, a PDF with a broken font map has most of its characters so.
GARBLED_FRACTION = 0.2
_GARBLED_CATEGORIES = frozenset({"Co", "Cn", "Cc", "Cs"})


class UnreadableFileError(Exception):
    """A file (or a record in it) that cannot be turned into a document; `str()` is the reason."""


def _decode(data: bytes) -> str:
    """Strict UTF-8 (one JSONL line): the record formats are UTF-8 by specification."""
    if b"\x00" in data[:_BINARY_SNIFF_BYTES]:
        raise UnreadableFileError("binary file (contains NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFileError(f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


WESTERN = "cp1252"  # decode_text's choice among equally likely guesses


def decode_text(data: bytes) -> tuple[str, str]:
    """(text, encoding) of a text file: UTF-8 when it is, else the encoding charset-normalizer guesses.

    A UTF-16/32 byte-order mark is honoured before the NUL-byte binary test (UTF-16 text is full
    of NULs). A guess whose decoded text still looks garbled is refused, naming the guess, rather
    than indexing mojibake.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding), encoding
            except UnicodeDecodeError:
                break  # a BOM followed by something else: let detection decide
    has_nul = b"\x00" in data[:_BINARY_SNIFF_BYTES]
    if not has_nul:
        try:
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError as exc:
            utf8_error = f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
    else:
        utf8_error = "binary file (contains NUL bytes)"
    from charset_normalizer import from_bytes

    found = from_bytes(data)
    best = found.best()
    if best is None:
        raise UnreadableFileError(f"{utf8_error}; no text encoding fits")
    # charset-normalizer orders guesses that tie on every measure it has (chaos, coherence) by its own list, where
    # cp1250 (Central European) comes before cp1252 (Western): a French meeting transcript saved by Windows came out
    # "Rivičre" for "Rivière". Where they tie, the Western code page decides (most non-UTF-8 text users have is
    # cp1252 / Latin-1); a Polish cp1250 file does not tie (its letters make cp1252's decoding score worse).
    tied = [m for m in found if m.chaos == best.chaos and m.coherence == best.coherence]
    best = next((m for m in tied if m.encoding == WESTERN), best)
    encoding = best.encoding
    if has_nul and not encoding.startswith(("utf_16", "utf_32")):
        raise UnreadableFileError(utf8_error)
    text = str(best)
    garbled = garbled_fraction(text)
    if garbled > GARBLED_FRACTION or best.chaos > GARBLED_FRACTION:
        raise UnreadableFileError(f"{utf8_error}; best guess {encoding} decodes to garbled text")
    return text, encoding


def garbled_fraction(text: str, sample_chars: int = 20_000) -> float:
    """Fraction of the non-blank characters that no reader could make sense of.

    Counts U+FFFD, private-use and unassigned code points and control characters: what a PDF
    whose font has a broken (or no) ToUnicode map extracts as, and what a wrong decoding leaves.
    Looks at evenly spaced samples of long texts so a 20 MB document costs milliseconds.
    """
    if len(text) > sample_chars:
        step = len(text) // 4
        text = "".join(text[i * step : i * step + sample_chars // 4] for i in range(4))
    seen = bad = 0
    for char in text:
        if char.isspace():
            continue
        seen += 1
        if char == "\ufffd" or unicodedata.category(char) in _GARBLED_CATEGORIES:
            bad += 1
    return bad / seen if seen else 0.0


def read_text(path: Path) -> str:
    """The whole file as text (see `read_text_encoding`)."""
    return read_text_encoding(path)[0]


def read_limited(path: Path, limit: int, too_big: str) -> bytes:
    """A file's bytes, or `UnreadableFileError`: unreadable, or over `limit` bytes ("{size:,} bytes, over
    {limit:,}" then `too_big`, what to do about it)."""
    try:
        size = path.stat().st_size
        if size > limit:
            raise UnreadableFileError(f"{size:,} bytes, over {limit:,}{too_big}")
        return path.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None


def read_text_encoding(path: Path) -> tuple[str, str]:
    """(text, encoding): UTF-8 (a BOM is dropped), else a detected encoding; binary files are refused."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None
    return decode_text(data)


def markdown_title(text: str) -> str | None:
    """The first ATX heading (`# Title`) of a markdown text, if any."""
    for line in text.splitlines():
        match = _MD_HEADING.match(line)
        if match:
            return match.group(1).strip()
    return None


def read_markup(text: str, suffix: str, myst: bool = True):  # noqa: ANN201 - markup.MarkupDocument (lazily)
    """A Markdown or reStructuredText text read as a document (markdown_reader / rst_reader, by suffix);
    myst: session 41's reading as well (CorpusConfig.read_myst)."""
    if suffix.lower() in RST_SUFFIXES:
        from corpus_tools.rst_reader import read_rst

        return read_rst(text, myst=myst)
    from corpus_tools.markdown_reader import read_markdown

    return read_markdown(text, myst=myst)


def stem_title(path: Path) -> str:
    """A file name as a title: the stem with separators as spaces ("acme_10-Q_2023-Q3" → "acme 10 Q 2023 Q3")."""
    return " ".join(_SEPARATORS.sub(" ", path.stem).split()) or path.name


def path_words(path: str) -> str:
    """A relative path as searchable words ("filings/acme_2023-q3.pdf" → "filings acme 2023 q3 pdf")."""
    return " ".join(_SEPARATORS.sub(" ", path).split())


def is_meaningful_title(title: str | None) -> bool:
    """False for the junk PDF producers leave in metadata: ids, "untitled", file names and paths."""
    if not title or len(title.strip()) < 3:
        return False
    text = title.strip()
    lower = text.lower()
    if lower in _JUNK_TITLES or lower.startswith(("untitled", "microsoft word - ", "microsoft powerpoint - ")):
        return False
    if _FILE_NAME.search(text) or "/" in text or "\\" in text:
        return False  # a file name or path ("C:\\work\\q3.doc", "report.pdf")
    if not any(c.isalpha() for c in text):
        return False  # "0001193125-23-123456", "2023-10-31"
    if " " not in text and (any(c.isdigit() for c in text) or len(text) > 40):
        return False  # one token with digits: an accession number, a hash, "d512345d10q"
    return True


def read_html_document(path: Path) -> tuple[str | None, str, tuple[DocumentPart, ...]]:
    """(title, text, parts) of an HTML file: headings as sections, tables as rows under their headers
    (corpus_tools/html_layout.py)."""
    from corpus_tools.html_layout import html_structure

    title, structured = html_structure(read_text(path))
    return title, structured.text, structured.parts


def read_html(path: Path) -> tuple[str | None, str]:
    """(title, visible text) of an HTML file; title from <title>, else the first <h1>."""
    from bs4 import BeautifulSoup

    from corpus_tools.html_layout import title_and_strip

    soup = BeautifulSoup(read_text(path), "html.parser")
    title = title_and_strip(soup)
    text = soup.get_text("\n")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    return title, _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip()


@contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """pypdf logs a warning per repaired cross-reference or odd object: noise on real filings."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


PDF_HELP = ("re-save it as a PDF (e.g. print it to PDF) or export its text, then index that file; a scanned "
            "document needs OCR first")


def read_pdf(path: Path) -> tuple[str | None, str, int]:
    """(title from the PDF's metadata, text of all pages separated by blank lines, unreadable pages).

    Two extractors: pypdf first (pure Python, the reference's choice), then pypdfium2 (Chrome's
    PDFium) for any file pypdf cannot read whole — its parser limits (LimitReachedError on large
    arrays, common in real 10-Q filings), broken cross-references, pages that fail to extract, or
    text that comes out garbled. The result with more readable pages wins. Only a file that both
    refuse is skipped, and the UnreadableFileError names both reasons and what to do.
    """
    try:
        first = _read_pdf_pypdf(path)
    except UnreadableFileError as exc:
        first, pypdf_error = None, str(exc)
    if first is not None and first[2] == 0:
        return first
    try:
        second = _read_pdf_pdfium(path)
    except UnreadableFileError as exc:
        if first is not None:
            return first  # pypdf lost some pages, PDFium all of them: keep pypdf's pages
        raise UnreadableFileError(f"unreadable PDF (pypdf: {_strip_prefix(pypdf_error)}; pypdfium2: "
                                  f"{_strip_prefix(str(exc))}); {PDF_HELP}") from None
    if first is not None and first[2] <= second[2]:
        return first
    return second


@dataclass(frozen=True)
class PdfDocument:
    """A PDF read with its layout (`read_pdf_document`): text and parts, or flat text when the
    layout reader could not read it (`layout_error` says why)."""

    title: str | None
    text: str
    parts: tuple[DocumentPart, ...] = ()
    unreadable_pages: int = 0
    pages: int = 0
    tables: int = 0
    rows: int = 0
    rows_with_headers: int = 0
    soups: int = 0
    layout_error: str = ""
    furniture: str = ""  # running headers and footers left out of the text (they still name the period)
    page_title: str = ""  # with `columns`: the title the first page sets in its largest type (pdf_layout.page_title)


def read_pdf_document(path: Path, columns: bool = True, references: bool = True) -> PdfDocument:
    """A PDF with its pages, sections and tables (PDFium's character positions, corpus_tools/pdf_layout.py).

    When the layout reader fails on a file (a parser error, no text layer, garbled text) the flat
    readers (`read_pdf`: pypdf, then PDFium) are tried, so a file that was indexed before is still
    indexed, without structure; only a file every reader refuses raises UnreadableFileError.
    columns: a two-column page read column by column, a word broken at a line's end joined
    (`pdf_layout.column_lines`); False = as before session 48. On by default, as `CorpusConfig.pdf_columns`: every
    caller reads a PDF as `context1 index` does (session 49).
    references: a bibliography's heading set in body type starts a section (`build_structure`,
    `CorpusConfig.paper_references`); False = as before session 49.
    """
    from corpus_tools.structure import build_structure

    try:
        pages, title, failed = _layout(path, columns) if columns else _layout(path)
        structured = build_structure(pages, references=references)
        _checked_text([structured.text], 0)  # no text, or garbled: let the flat readers judge
    except ImportError as exc:
        error = f"layout reader unavailable ({exc}); pip install pypdfium2"
    except UnreadableFileError as exc:
        error = str(exc)
    except Exception as exc:  # noqa: BLE001 - PdfiumError, OSError, and whatever a broken file provokes
        error = f"{type(exc).__name__}: {_short(exc)}"
    else:
        title = title.strip() if isinstance(title, str) and title.strip() else None
        first = ""
        if columns and pages:
            from corpus_tools.pdf_layout import page_title

            first = page_title(pages[0])
        return PdfDocument(title, structured.text, structured.parts, failed, structured.pages, structured.tables,
                           structured.rows, structured.rows_with_headers, structured.soups,
                           furniture=structured.furniture, page_title=first)
    title, text, failed = read_pdf(path)
    return PdfDocument(title, text, (), failed, layout_error=error)


def _layout(path: Path, columns: bool = False):  # noqa: ANN202 - (pages, title, failed pages)
    from corpus_tools.pdf_layout import read_layout

    return read_layout(path, columns=columns) if columns else read_layout(path)


def _strip_prefix(reason: str) -> str:
    """'unreadable PDF (X: y)' → 'X: y', so the combined message does not repeat itself."""
    for prefix in ("unreadable PDF (", "PDF "):
        if reason.startswith(prefix):
            reason = reason[len(prefix):]
            return reason[:-1] if prefix.endswith("(") and reason.endswith(")") else reason
    return reason


def _checked_text(pages: list[str], failed: int) -> str:
    """The pages joined; UnreadableFileError when there is no text or it is garbled."""
    text = "\n\n".join(page.strip() for page in pages if page.strip())
    if not text:
        if failed:
            raise UnreadableFileError(f"unreadable PDF (text extraction failed on all {failed} pages)")
        raise UnreadableFileError("PDF has no extractable text (scanned images?)")
    garbled = garbled_fraction(text)
    if garbled > GARBLED_FRACTION:
        raise UnreadableFileError(
            f"PDF text extracts as garbled characters ({garbled:.0%} unreadable: a broken font map?)"
        )
    return text


def _read_pdf_pypdf(path: Path) -> tuple[str | None, str, int]:
    """read_pdf with pypdf alone.

    A PDF encrypted with only an owner password (printing/copying restrictions, common on
    filings) opens with the empty user password; only one that needs a real password is refused.
    Any error pypdf raises (its whole family, limits included, and the plain exceptions broken
    files provoke) becomes an UnreadableFileError; a page that fails alone is skipped and counted.
    """
    from pypdf import PdfReader
    from pypdf.errors import DependencyError

    page_error: Exception | None = None
    with _quiet_pypdf():
        try:
            reader = PdfReader(str(path))
            if reader.is_encrypted:
                try:
                    opened = reader.decrypt("")
                except DependencyError as exc:
                    raise UnreadableFileError(
                        f"encrypted PDF: opening it needs a crypto library ({exc}); pip install cryptography"
                    ) from None
                if not opened:
                    raise UnreadableFileError("encrypted PDF (needs a user password to open)")
            pages, failed = [], 0
            for page in reader.pages:
                try:
                    pages.append(page.extract_text() or "")
                except Exception as exc:  # noqa: BLE001 - one broken page must not lose the others
                    failed += 1
                    page_error = page_error or exc
            try:
                title = reader.metadata.title if reader.metadata is not None else None
            except Exception:  # noqa: BLE001 - a broken info dictionary is no reason to lose the text
                title = None
        except UnreadableFileError:
            raise
        except Exception as exc:  # noqa: BLE001 - pypdf raises its own family and plain ones alike
            raise UnreadableFileError(f"unreadable PDF ({type(exc).__name__}: {_short(exc)})") from None
    if failed and not any(p.strip() for p in pages) and page_error is not None:
        raise UnreadableFileError(f"unreadable PDF ({type(page_error).__name__}: {_short(page_error)} "
                                  f"on all {failed} pages)")
    text = _checked_text(pages, failed)
    title = title.strip() if isinstance(title, str) and title.strip() else None
    return title, text, failed


def _read_pdf_pdfium(path: Path) -> tuple[str | None, str, int]:
    """read_pdf with pypdfium2 (PDFium); UnreadableFileError when it is not installed or fails."""
    try:
        import pypdfium2 as pdfium
    except ImportError:
        raise UnreadableFileError("PDF fallback unavailable (pip install pypdfium2)") from None
    try:
        document = pdfium.PdfDocument(str(path))
    except Exception as exc:  # noqa: BLE001 - PdfiumError, and OSError for files that vanish
        raise UnreadableFileError(f"unreadable PDF ({type(exc).__name__}: {_short(exc)})") from None
    try:
        pages, failed = [], 0
        for i in range(len(document)):
            try:
                page = document[i]
                textpage = page.get_textpage()
                # PDFium ends lines with CRLF; the rest of the pipeline expects plain newlines.
                pages.append(textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
                textpage.close()
                page.close()
            except Exception:  # noqa: BLE001 - one broken page must not lose the others
                failed += 1
        try:
            title = (document.get_metadata_dict() or {}).get("Title")
        except Exception:  # noqa: BLE001 - a broken info dictionary is no reason to lose the text
            title = None
    finally:
        document.close()
    text = _checked_text(pages, failed)
    title = title.strip() if isinstance(title, str) and title.strip() else None
    return title, text, failed


def _short(exc: BaseException, limit: int = 200) -> str:
    message = " ".join(str(exc).split())
    return message if len(message) <= limit else message[: limit - 1] + "…"


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


def iter_parquet(path: Path, label: str | None = None) -> Iterator[tuple[str, Any]]:
    """(location, row as a dict) for every row of a Parquet file ("<label>[<row>]"), a batch at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    label = label or str(path)
    try:
        batches = pq.ParquetFile(path).iter_batches(batch_size=1024)
    except (OSError, pa.ArrowException) as exc:
        raise UnreadableFileError(f"not a readable Parquet file ({_short(exc)})") from None
    row = 0
    for batch in batches:
        for record in batch.to_pylist():
            yield f"{label}[{row}]", record
            row += 1


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
    if suffix == ".parquet":
        return iter_parquet(path, label)
    raise ValueError(f"{path} is not a record file; record files end in {sorted(RECORD_SUFFIXES)}")
