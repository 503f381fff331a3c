"""Loaders: folders, files, datasets and records → `Document`s, with a reason for everything refused.

`load_documents` accepts
  - a folder (walked recursively, in sorted order, so ids and order are stable across runs);
  - one file: .txt/.md (title = first markdown heading, else the file name's stem), .html/.htm
    (visible text; title from <title>), .pdf (text of every page; title from the PDF metadata),
    .docx (docx_reader), .doc (doc_reader), .rtf (rtf_reader), .odt (odt_reader), .pptx (pptx_reader: a section
    per slide), mail: .eml and Outlook's .msg (one message; msg_reader) and .mbox (one document per message,
    mail_reader),
    or a record file: .jsonl/.ndjson, .json (a list of records or one record), .csv;
  - a `datasets.Dataset` (rows are records);
  - an iterable of `Document` (or of record dicts), or a `LoadReport` (returned as is).

Records map to documents through id/title/text fields, given explicitly or detected from common
names, so BEIR corpora ({"_id", "title", "text"}) and FlashRAG corpora ({"id", "contents"} where
contents is '"Title"\\nText') load without options. Every file or record that is not loaded
(binary, undecodable, empty, unsupported, a record without text, a duplicate id) becomes a
`SkippedFile` with its reason; the first document with a given id wins.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools import man_reader, readers
from corpus_tools.doc_metadata import DOCUMENT_KEYS, document_title, read_metadata
from corpus_tools.man_reader import is_man_suffix
from corpus_tools.project_files import declared_name, is_project_file
from corpus_tools.readers import UnreadableFileError
from corpus_tools.source_reader import SOURCE_SUFFIXES, module_name, read_source
from corpus_tools.types import Document, DocumentPart, FileNote, LoadReport, SkippedFile, SkippedProjectFile

# Field names tried in order when the caller does not name the field (BEIR, FlashRAG, MS MARCO,
# KILT, LangChain and plain-CSV habits).
ID_FIELDS = ("_id", "id", "doc_id", "docid", "document_id", "corpus_id", "pid")
TITLE_FIELDS = ("title", "doc_title", "heading")
TEXT_FIELDS = ("text", "contents", "content", "body", "passage", "paragraph_text", "abstract", "page_content")

# FlashRAG stores the title as the first line of "contents" (wiki dumps quote it: '"Title"\nText').
_FLASHRAG_FIELD = "contents"

Item = Document | SkippedFile


@dataclass(frozen=True)
class ReadOptions:
    """Which readers a folder's files go through: one flag per reader, named as `load_documents`' arguments (its
    docstring says what each reads), each the `CorpusConfig` field `from_config` names. One object, so a reader added
    later is one field here, not one more argument through every function between the CLI and `_iter_file`."""

    markup: bool = True
    myst: bool = True
    source_code: bool = False
    notebooks: bool = True
    calls: bool = True
    project_files: bool = True
    call_titles: bool = False
    pdf_columns: bool = True
    paper_references: bool = True
    man: bool = True
    paper_definitions: bool = True
    man_macros: bool = True
    slides: bool = True
    sheets: bool = True

    @classmethod
    def from_config(cls, config: Any) -> ReadOptions:
        """The options an index's `CorpusConfig` names; a field an older config object lacks reads as before its
        reader existed (off; the Markdown readers on, as their sessions made them)."""
        return cls(markup=getattr(config, "read_markup", True), myst=getattr(config, "read_myst", True),
                   source_code=getattr(config, "read_source", False), notebooks=getattr(config, "read_notebooks", False),
                   slides=getattr(config, "read_slides", False),
                   calls=getattr(config, "read_calls", False),
                   project_files=getattr(config, "read_project_files", False),
                   call_titles=getattr(config, "call_own_titles", False),
                   pdf_columns=getattr(config, "pdf_columns", False),
                   paper_references=getattr(config, "paper_references", False),
                   man=getattr(config, "read_man", False),
                   paper_definitions=getattr(config, "paper_definitions", False),
                   man_macros=getattr(config, "man_macros", False),
                   sheets=getattr(config, "read_sheets", False))


def load_documents(
    source: Any,
    *,
    id_field: str | None = None,
    title_field: str | None = None,
    text_field: str | None = None,
    glob: str | None = None,
    on_file: Callable[[str], None] | None = None,
    vector_field: str | None = None,
    vector_model: str | None = None,
    markup: bool = True,
    myst: bool = True,
    source_code: bool = False,
    notebooks: bool = True,
    calls: bool = True,
    project_files: bool = True,
    call_titles: bool = False,
    pdf_columns: bool = True,
    paper_references: bool = True,
    man: bool = True,
    paper_definitions: bool = True,
    man_macros: bool = True,
    slides: bool = True,
    sheets: bool = True,
) -> LoadReport:
    """Every document `source` holds, and every file or record skipped with its reason.

    id_field/title_field/text_field name the record fields to use (JSON, JSONL, CSV, Dataset,
    dicts); unset, they are detected from ID_FIELDS/TITLE_FIELDS/TEXT_FIELDS. A record without an
    id gets a stable one from a hash of its content. glob (e.g. "**/*.md") filters a folder's files.
    vector_field: the record field holding a vector computed elsewhere (bring-your-own vectors),
    made by the model named vector_model (both or neither); `Corpus.build` checks the name and the
    dimension against the index's model. A record without a readable vector there is skipped.
    markup: Markdown and reStructuredText files read as documents (sections, code blocks and tables as
    parts, markup removed: markdown_reader.py, rst_reader.py); False = as flat text, as before session 40.
    myst: with `markup`, session 41's reading too (CorpusConfig.read_myst: MyST directives, roles and labels,
    a fence inside a list item, an extension's directive holding code); False = the readers as session 40's.
    source_code: Python files (.py, .pyi) read as documents, a section per definition (CorpusConfig.read_source,
    source_reader.py); False = skipped as an unsupported file type, as before session 43.
    notebooks: Jupyter notebooks (.ipynb) read as documents (CorpusConfig.read_notebooks, notebook_reader.py);
    False = skipped as an unsupported file type, as before session 45.
    calls: an earnings call's identity (company, ticker, quarter) read from a .txt file's name and text onto its
    metadata (CorpusConfig.read_calls, call_identity.py); False = as before session 46.
    call_titles: with `calls`, a vendor call's own people's turns open "Name (Title)", the company named once
    (CorpusConfig.call_own_titles, call_reader.py); False = "Name (Company - Title)", as session 46.
    pdf_columns: a PDF's two-column pages read column by column, a word broken at a line's end joined
    (CorpusConfig.pdf_columns, pdf_layout.column_lines); False = as before session 48. On, as `CorpusConfig` has it
    (session 49): a direct caller reads a folder as `context1 index` does.
    paper_references: a paper's bibliography heading set in body type starts a section of its own (a PDF that is no
    filing; CorpusConfig.paper_references, corpus_tools.bibliography); False = as before session 49.
    man: Unix manual pages (.1 … .9, .n, .man files whose text is roff with `.TH` or mdoc's `.Dd`) read as documents
    (CorpusConfig.read_man, man_reader.py); a redirect page (`.so man2/stat.2`) is no document, its name is added
    to its target's names; False = skipped as an unsupported file type, as before session 49. On, as `CorpusConfig`
    has it.
    paper_definitions: a paper (a PDF that is no filing) records where it first defines an acronym or a term
    (CorpusConfig.paper_definitions, corpus_tools.paper_definitions); False = as before session 49.
    slides: slide decks (.pptx) read as documents, a section per slide (CorpusConfig.read_slides, pptx_reader.py);
        False = skipped as an unsupported file type, as before session 52.
    man_macros: a manual page's own macro definitions before its `.TH` (rst2man's, pandoc's) do not hide it, and the
    macros of requests alone it defines and its number registers are layout (CorpusConfig.man_macros); False = as
    before session 50.
    sheets: Excel workbooks (.xlsx, .xlsm) read as documents, a section per sheet, each table's rows under its header
    (CorpusConfig.read_sheets, xlsx_reader.py); False = skipped as an unsupported file type, as before session 52.
    project_files: a repository's `pyproject.toml`, `setup.cfg` and `mkdocs.yml` read for the name each declares
    (CorpusConfig.read_project_files, project_files.py), still not indexed: a `SkippedProjectFile`; False (or a
    file that declares nothing readably) = skipped as an unsupported file type, as before session 46.
    Raises FileNotFoundError for a path that does not exist and ValueError for a source of the
    wrong kind; everything else is reported in `LoadReport.skipped`.
    """
    if isinstance(source, LoadReport):
        return source
    documents: list[Document] = []
    skipped: list[SkippedFile] = []
    notes: list[FileNote] = []
    first_seen: dict[str, str] = {}
    items = iter_documents(
        source, id_field=id_field, title_field=title_field, text_field=text_field, glob=glob, on_file=on_file,
        vector_field=vector_field, vector_model=vector_model, markup=markup, myst=myst, source_code=source_code,
        notebooks=notebooks, calls=calls, project_files=project_files, call_titles=call_titles,
        pdf_columns=pdf_columns, paper_references=paper_references, man=man, paper_definitions=paper_definitions,
        man_macros=man_macros, slides=slides, sheets=sheets,
    )
    for item, where in items:
        if isinstance(item, SkippedFile):
            skipped.append(item)
        elif item.doc_id in first_seen:
            skipped.append(
                SkippedFile(where, f"duplicate doc_id {item.doc_id!r} (first loaded from {first_seen[item.doc_id]})")
            )
        else:
            first_seen[item.doc_id] = where
            documents.append(item)
            notes.extend(file_notes(item, where))
    return LoadReport(documents=documents, skipped=skipped, notes=notes)


def file_notes(doc: Document, where: str) -> list[FileNote]:
    """What a user should know about a document that was indexed anyway (a guessed encoding, lost pages)."""
    found = []
    if doc.metadata.get("encoding"):
        found.append(FileNote(where, f"not UTF-8: decoded as {doc.metadata['encoding']} (detected)"))
    if doc.metadata.get("unreadable_pages"):
        found.append(FileNote(where, f"{doc.metadata['unreadable_pages']} page(s) could not be read"))
    if doc.metadata.get("layout_error"):
        found.append(FileNote(where, f"read as plain text, without pages, sections or tables "
                                     f"(layout reader: {doc.metadata['layout_error']})"))
    if doc.metadata.get("read_note"):
        found.append(FileNote(where, str(doc.metadata["read_note"])))
    if doc.metadata.get("table_soups"):
        found.append(FileNote(where, f"{doc.metadata['table_soups']} table(s) of figures without clear "
                                     "columns, indexed as text"))
    return found


class _Fields:
    """Which record fields hold the id, title and text (explicit, or detected per record)."""

    def __init__(
        self,
        id_field: str | None,
        title_field: str | None,
        text_field: str | None,
        vector_field: str | None = None,
        vector_model: str | None = None,
    ) -> None:
        named = (("id_field", id_field), ("title_field", title_field), ("text_field", text_field),
                 ("vector_field", vector_field), ("vector_model", vector_model))
        for name, value in named:
            if value is not None and (not isinstance(value, str) or not value):
                raise ValueError(f"{name} must be a non-empty field name or None (auto-detect), got {value!r}")
        if (vector_field is None) != (vector_model is None):
            raise ValueError(
                "vector_field and vector_model go together: the field holding each record's vector and the name "
                f"of the model that made them (got vector_field={vector_field!r}, vector_model={vector_model!r})"
            )
        self.id_field, self.title_field, self.text_field = id_field, title_field, text_field
        self.vector_field, self.vector_model = vector_field, vector_model

    def to_document(self, record: Any) -> Document:
        """The document a record describes; raises UnreadableFileError saying what is missing."""
        if not isinstance(record, Mapping):
            raise UnreadableFileError(f"record is a {type(record).__name__}, expected an object with a text field")
        text_key = self._pick(record, self.text_field, TEXT_FIELDS, "text")
        text = _as_text(record.get(text_key))
        title_key = self._pick(record, self.title_field, TITLE_FIELDS, "title", required=False)
        title = _as_text(record.get(title_key)) if title_key else None
        if title_key is None and text_key == _FLASHRAG_FIELD and self.title_field is None:
            title, text = _split_flashrag(text)
        if not text.strip():
            raise UnreadableFileError(f"empty text in field {text_key!r}")
        id_key = self._pick(record, self.id_field, ID_FIELDS, "id", required=self.id_field is not None)
        raw_id = record.get(id_key) if id_key else None
        doc_id = str(raw_id).strip() if raw_id is not None and str(raw_id).strip() else content_id(title, text)
        used = {text_key, title_key, id_key, self.vector_field}
        metadata = {k: v for k, v in record.items() if k not in used and _is_scalar(v)}
        vector = self._vector(record) if self.vector_field is not None else None
        return Document(doc_id=doc_id, text=text, title=title or None, metadata=metadata, vector=vector,
                        vector_model=self.vector_model if vector is not None else None)

    def _vector(self, record: Mapping) -> np.ndarray:
        """The record's own vector: a non-empty list of finite numbers, not all zero."""
        value = record.get(self.vector_field)
        if value is None:
            raise UnreadableFileError(f"no vector in field {self.vector_field!r} (fields: {sorted(map(str, record))})")
        try:
            vector = np.asarray(value, dtype=np.float32)
        except (TypeError, ValueError):
            raise UnreadableFileError(f"field {self.vector_field!r} is not a list of numbers") from None
        if vector.ndim != 1 or not len(vector) or not np.isfinite(vector).all() or not vector.any():
            raise UnreadableFileError(
                f"field {self.vector_field!r} must hold one non-zero vector of finite numbers, got shape {vector.shape}"
            )
        return vector

    @staticmethod
    def _pick(record: Mapping, explicit: str | None, candidates: tuple[str, ...], what: str, required: bool = True):
        if explicit is not None:
            if explicit in record:
                return explicit
            if required:
                raise UnreadableFileError(f"no {what} field {explicit!r} (fields: {sorted(map(str, record))})")
            return None
        for name in candidates:
            if name in record and record[name] is not None:
                return name
        if required:
            raise UnreadableFileError(
                f"no {what} field (tried {list(candidates)}; fields: {sorted(map(str, record))}); "
                f"name it with {what}_field="
            )
        return None


def iter_documents(
    source: Any,
    *,
    id_field: str | None = None,
    title_field: str | None = None,
    text_field: str | None = None,
    glob: str | None = None,
    on_file: Callable[[str], None] | None = None,
    vector_field: str | None = None,
    vector_model: str | None = None,
    markup: bool = True,
    myst: bool = True,
    source_code: bool = False,
    notebooks: bool = True,
    calls: bool = True,
    project_files: bool = True,
    call_titles: bool = False,
    pdf_columns: bool = True,
    paper_references: bool = True,
    man: bool = True,
    paper_definitions: bool = True,
    man_macros: bool = True,
    slides: bool = True,
    sheets: bool = True,
) -> Iterator[tuple[Document | SkippedFile, str]]:
    """(document or skipped entry, where it came from), lazily, one file or record at a time.

    The streaming form of `load_documents` (same arguments), before duplicate ids are resolved.
    on_file: called with a file's path (relative to a folder source) just before it is read, so a
    progress display can name the file it is on (one PDF can take seconds).
    """
    fields = _Fields(id_field, title_field, text_field, vector_field, vector_model)
    read = ReadOptions(markup=markup, myst=myst, source_code=source_code, notebooks=notebooks, calls=calls,
                       project_files=project_files, call_titles=call_titles, pdf_columns=pdf_columns,
                       paper_references=paper_references, man=man, paper_definitions=paper_definitions,
                       man_macros=man_macros, slides=slides, sheets=sheets)
    if isinstance(source, (str, Path)):
        path = Path(source).expanduser()
        if path.is_dir():
            yield from _iter_folder(path, fields, glob, on_file, read)
        elif path.is_file():
            if on_file is not None:
                on_file(path.name)
            yield from _iter_file(path, path.name, str(path), fields, read)
        else:
            raise FileNotFoundError(f"No such file or folder: {str(path)!r} (give a folder of documents or one file)")
        return
    if isinstance(source, Document):
        raise ValueError("load_documents takes an iterable of Document; wrap a single one in a list")
    if _is_hf_dataset(source):
        yield from _iter_records(((f"dataset[{i}]", row) for i, row in enumerate(source)), fields)
        return
    if isinstance(source, Mapping) or not isinstance(source, Iterable) or isinstance(source, bytes):
        raise ValueError(
            f"Cannot load documents from a {type(source).__name__}: give a folder or file path, a "
            "datasets.Dataset (pick a split of a DatasetDict), or an iterable of Document or record dicts"
        )
    for index, item in enumerate(source):
        where = f"<documents>[{index}]"
        if isinstance(item, Document):
            if item.text.strip():
                yield item, where
            else:
                yield SkippedFile(item.doc_id or where, "empty text"), where
        elif isinstance(item, Mapping):
            yield from _iter_records([(where, item)], fields)
        else:
            raise ValueError(f"Item {index} is a {type(item).__name__}; expected a Document or a record dict")


def _iter_folder(root: Path, fields: _Fields, glob: str | None, on_file: Callable[[str], None] | None,
                 read: ReadOptions) -> Iterator[tuple[Item, str]]:
    paths = sorted(root.glob(glob)) if glob else sorted(root.rglob("*"))
    aliases = _man_aliases(root, paths) if read.man else {}
    hidden_reported: set[Path] = set()
    for path in paths:
        rel = path.relative_to(root)
        hidden = next((root.joinpath(*rel.parts[: i + 1]) for i, p in enumerate(rel.parts) if p.startswith(".")), None)
        if hidden is not None:
            # One entry per hidden file or folder (.git, .DS_Store), not one per file inside it.
            if hidden not in hidden_reported:
                hidden_reported.add(hidden)
                label = hidden.relative_to(root).as_posix()
                yield SkippedFile(label, "hidden file or folder"), label
            continue
        if path.is_dir():
            continue
        if on_file is not None:
            on_file(rel.as_posix())
        yield from _iter_file(path, rel.as_posix(), rel.as_posix(), fields, read, aliases.get(path.resolve(), ()))


def _iter_file(path: Path, doc_id: str, where: str, fields: _Fields, read: ReadOptions,
               man_aliases: tuple[str, ...] = ()) -> Iterator[tuple[Item, str]]:
    """Documents of one file, reported as `where`; doc_id is for single-document files (records carry their own).
    man_aliases: the names redirect pages in its folder give a manual page (`_man_aliases`)."""
    suffix = path.suffix.lower()
    if read.project_files and is_project_file(path):
        declares = declared_name(path)
        if declares:  # build configuration, not prose: never content, but the name is the folder's (datagen)
            yield SkippedProjectFile(where, f"project file, read for its name only ({declares!r})", declares), where
            return
    if suffix in readers.CONVERT_FIRST:
        yield SkippedFile(where, readers.CONVERT_FIRST[suffix]), where
        return
    if read.source_code and suffix in SOURCE_SUFFIXES:
        yield from _iter_source(path, doc_id, where)
        return
    if read.man and is_man_suffix(suffix) and suffix not in readers.SUPPORTED_SUFFIXES:
        yield from _iter_man(path, doc_id, where, man_aliases, macros=read.man_macros)
        return
    supported = readers.SUPPORTED_SUFFIXES if read.notebooks else readers.SUPPORTED_SUFFIXES - readers.NOTEBOOK_SUFFIXES
    if not read.slides:
        supported = supported - readers.PPTX_SUFFIXES
    if not read.sheets:
        supported = supported - readers.XLSX_SUFFIXES
    if suffix not in supported:
        kind = f"{suffix} files" if suffix else "files without an extension"
        yield (
            SkippedFile(where, f"unsupported file type ({kind}; supported: {sorted(supported)})"),
            where,
        )
        return
    if suffix in readers.RECORD_SUFFIXES:
        yield from _iter_records(_guarded(where, readers.iter_records(path, where)), fields)
        return
    metadata: dict[str, Any] = {"source": where, "file_name": path.name}
    parts: tuple[DocumentPart, ...] = ()
    try:
        stat = path.stat()
        # `Corpus.sync` re-reads a file only when its size or modification time changed.
        metadata.update(source_size=stat.st_size, source_mtime_ns=stat.st_mtime_ns)
    except OSError:
        pass
    if suffix in readers.MAILBOX_SUFFIXES:
        yield from _iter_mbox(path, doc_id, where, metadata)
        return
    try:
        if (read_document := _document_reader(suffix)) is not None:  # the office formats
            document = read_document(path)
            title, text, parts = document.title, document.text, document.parts
            metadata.update(document.metadata)
        elif suffix in readers.MAIL_SUFFIXES:
            from corpus_tools.mail_reader import read_eml

            title, text, parts = _adopt(read_eml(path), metadata)
        elif suffix in readers.MSG_SUFFIXES:
            from corpus_tools.msg_reader import read_msg

            title, text, parts = _adopt(read_msg(path), metadata)
        elif suffix in readers.NOTEBOOK_SUFFIXES:
            from corpus_tools.notebook_reader import read_notebook_file

            notebook = read_notebook_file(path)
            title, text, parts = _adopt(notebook, metadata)
            if notebook.dropped:  # images, widgets, tracebacks left out, counted: "image 12, traceback 1"
                metadata["markup_dropped"] = ", ".join(f"{k} {v}" for k, v in sorted(notebook.dropped.items()))
        elif suffix in readers.HTML_SUFFIXES:
            title, text, parts = readers.read_html_document(path)
            metadata.update(read_metadata(text))  # an EDGAR .htm filing has the same cover page
            if metadata.get("company") and metadata.get("form"):
                title = document_title(metadata, title, path)
        elif suffix in readers.PDF_SUFFIXES:
            pdf = readers.read_pdf_document(path, columns=read.pdf_columns, references=read.paper_references)
            text, parts = pdf.text, pdf.parts
            if pdf.unreadable_pages:
                metadata["unreadable_pages"] = pdf.unreadable_pages
            if pdf.layout_error:
                metadata["layout_error"] = pdf.layout_error
            if pdf.soups:
                metadata["table_soups"] = pdf.soups
            # Cover-page facts (company, form, period…); the title is built from them when found,
            # since metadata titles on real PDFs are often ids, paths or "04.01.2023 10Q Document".
            metadata.update(read_metadata(text, pdf.furniture))
            if read.paper_definitions and parts and not metadata.get("form"):  # a paper: where it defines its names
                from corpus_tools.paper_definitions import paper_defines

                parts = paper_defines(text, parts)
            # a paper's first page sets its title; its metadata title is often another thing or none (session 48)
            title = document_title(metadata, pdf.page_title or pdf.title, path)
        else:
            text, encoding = readers.read_text_encoding(path)
            # line ends as Python's own text mode reads them: a file saved on Windows (CRLF) or old Mac (CR) is the
            # same text as on Unix, so no chunk a user reads or a model is shown carries a stray "\r"
            text = text.replace("\r\n", "\n").replace("\r", "\n")
            if encoding not in ("utf-8", "ascii"):
                metadata["encoding"] = encoding
            title = readers.markdown_title(text) if suffix in (".md", ".markdown") else None
            if read.markup and suffix in readers.MARKDOWN_SUFFIXES | readers.RST_SUFFIXES:
                page = readers.read_markup(text, suffix, myst=read.myst)
                title, text, parts = page.title, page.text, page.parts
                metadata.update({k: v for k, v in page.metadata.items()
                                 if k not in metadata and k not in DOCUMENT_KEYS and k != "header"})
                if page.notes:
                    metadata["read_note"] = "; ".join(page.notes)
                if page.dropped:  # what markup was left out, counted: "include 6, label 2"
                    metadata["markup_dropped"] = ", ".join(f"{k} {v}" for k, v in sorted(page.dropped.items()))
            if suffix in readers.TRANSCRIPT_SUFFIXES:  # cues → "Speaker: text" turns, each with its start time
                from corpus_tools.transcripts import read_transcript

                text, parts = read_transcript(text)
            if read.calls and suffix == ".txt":  # an earnings call: company, ticker, quarter (DOCUMENT_KEYS)
                from corpus_tools.call_identity import call_identity
                from corpus_tools.call_reader import read_call

                metadata.update(call_identity(path.name, text))
                call = read_call(text, own_titles=read.call_titles)  # the vendor export: turns, sections, participants as metadata
                if call is not None and call.text.strip():
                    text, parts = call.text, call.parts
                    metadata.update(call.metadata)
                    if call.notes:
                        metadata["read_note"] = "; ".join(call.notes)
    except UnreadableFileError as exc:
        yield SkippedFile(where, str(exc)), where
        return
    except Exception as exc:  # noqa: BLE001 - one bad file never aborts a whole folder
        yield SkippedFile(where, f"reader failed ({type(exc).__name__}: {readers._short(exc)})"), where
        return
    if not text.strip():
        yield SkippedFile(where, "empty file"), where
        return
    yield Document(doc_id=doc_id, text=text, title=title or readers.stem_title(path), metadata=metadata,
                   parts=parts), where


def _iter_mbox(path: Path, label: str, where: str, metadata: dict[str, Any]) -> Iterator[tuple[Item, str]]:
    """One document per message of an mbox archive, "<label>/<Message-ID>"; a bad message is one skipped entry.

    Every message carries the archive's path as its `source` (and its size and time), so `sync`
    re-reads the archive when it changes and deletes its messages when it is gone.
    """
    from corpus_tools.mail_reader import read_mbox

    try:
        for doc_id, at, message in read_mbox(path, label):
            at = at.replace(label, where, 1)
            if isinstance(message, UnreadableFileError):
                yield SkippedFile(at, str(message)), at
                continue
            meta = {**metadata, **message.metadata}
            if message.notes:
                meta["read_note"] = "; ".join(message.notes)
            yield Document(doc_id=doc_id, text=message.text, title=message.title, metadata=meta,
                           parts=message.parts), at
    except UnreadableFileError as exc:
        yield SkippedFile(where, str(exc)), where
    except Exception as exc:  # noqa: BLE001 - one bad file never aborts a whole folder
        yield SkippedFile(where, f"reader failed ({type(exc).__name__}: {readers._short(exc)})"), where


# Office files, each read by its reader into a document (title, text, parts, metadata); imported when first met.
_DOCUMENT_READERS = (
    (readers.DOCX_SUFFIXES, "corpus_tools.docx_reader", "read_docx"),
    (readers.DOC_SUFFIXES, "corpus_tools.doc_reader", "read_doc"),
    (readers.RTF_SUFFIXES, "corpus_tools.rtf_reader", "read_rtf"),
    (readers.ODT_SUFFIXES, "corpus_tools.odt_reader", "read_odt"),
    (readers.PPTX_SUFFIXES, "corpus_tools.pptx_reader", "read_pptx"),
    (readers.XLSX_SUFFIXES, "corpus_tools.xlsx_reader", "read_xlsx"),
)


def _document_reader(suffix: str) -> Any:
    for suffixes, module, function in _DOCUMENT_READERS:
        if suffix in suffixes:
            return getattr(importlib.import_module(module), function)
    return None


def _adopt(read: Any, metadata: dict[str, Any]) -> tuple[str | None, str, Any]:
    """(title, text, parts) of a reader's document (a mail message, a notebook), its metadata and the notes it
    wrote about the reading ("read_note") taken into the file's `metadata`."""
    metadata.update(read.metadata)
    if read.notes:
        metadata["read_note"] = "; ".join(read.notes)
    return read.title, read.text, read.parts


def iter_file_documents(path: Path, doc_id: str, read: ReadOptions) -> Iterator[tuple[Item, str]]:
    """The document of one (non-record) file under the id `doc_id` (a path relative to its folder)."""
    return _iter_file(path, doc_id, doc_id, _Fields(None, None, None), read)


def _iter_source(path: Path, doc_id: str, where: str) -> Iterator[tuple[Item, str]]:
    """A Python file read as a document (source_reader.py): a section per definition, or plain text with a note
    when it is not Python 3 or too large; a NUL byte or an unreadable file is one skipped entry."""
    metadata: dict[str, Any] = {"source": where, "file_name": path.name}
    try:
        stat = path.stat()
        metadata.update(source_size=stat.st_size, source_mtime_ns=stat.st_mtime_ns)
        read = read_source(path.read_bytes(), module_name(path))
    except OSError as exc:
        yield SkippedFile(where, f"cannot read file ({exc.strerror or exc})"), where
        return
    except UnreadableFileError as exc:
        yield SkippedFile(where, str(exc)), where
        return
    except Exception as exc:  # noqa: BLE001 - one bad file never aborts a whole folder
        yield SkippedFile(where, f"reader failed ({type(exc).__name__}: {readers._short(exc)})"), where
        return
    if not read.text.strip():
        yield SkippedFile(where, "empty file"), where
        return
    if read.encoding:
        metadata["encoding"] = read.encoding
    if read.notes:
        metadata["read_note"] = "; ".join(read.notes)
    yield Document(doc_id=doc_id, text=read.text, title=read.title, metadata=metadata, parts=read.parts), where


def _man_aliases(root: Path, paths: list[Path]) -> dict[Path, tuple[str, ...]]:
    """Per manual page (resolved path), the names of the redirect pages (`.so man2/stat.2` in `fstat.2`) in the
    folder pointing to it: `fstat` is a name of stat.2's page, not a document of one line."""
    found: dict[Path, list[str]] = {}
    for path in paths:
        if not is_man_suffix(path.suffix) or not path.is_file():
            continue
        try:
            if path.stat().st_size > 4096:  # a redirect page is one line (and perhaps a licence comment)
                continue
            target = man_reader.redirect_target(path.read_bytes().decode("utf-8", "replace"))
        except OSError:
            continue
        resolved = _redirect_path(root, path, target) if target else None
        if resolved is not None:
            found.setdefault(resolved, []).append(path.stem)
    return {k: tuple(dict.fromkeys(v)) for k, v in found.items()}


def _redirect_path(root: Path, path: Path, target: str) -> Path | None:
    """The file a `.so` names: relative to the manual's root (man-pages' `man2/stat.2`), to the page's folder, or
    to the folder above it; None when none exists."""
    for base in (root, path.parent.parent, path.parent):
        candidate = base / target
        if candidate.is_file():
            return candidate.resolve()
    return None


def _iter_man(path: Path, doc_id: str, where: str, aliases: tuple[str, ...],
              macros: bool = False) -> Iterator[tuple[Item, str]]:
    """A manual page read as a document (man_reader.py). A redirect page is skipped with the page it points to (its
    name is read there); a file with a manual's suffix whose text is no roff page (`notes.1`, a rotated
    `syslog.1`) is skipped as an unsupported file, as before session 49."""
    metadata: dict[str, Any] = {"source": where, "file_name": path.name}
    try:
        stat = path.stat()
        metadata.update(source_size=stat.st_size, source_mtime_ns=stat.st_mtime_ns)
        data = path.read_bytes()
    except OSError as exc:
        yield SkippedFile(where, f"cannot read file ({exc.strerror or exc})"), where
        return
    if b"\x00" in data[:8192]:
        yield SkippedFile(where, f"unsupported file type (binary {path.suffix} file)"), where
        return
    text, encoding = man_reader.decode(data)
    if not text.strip():
        yield SkippedFile(where, "empty file"), where
        return
    if not man_reader.looks_like_man(text, macros):
        yield SkippedFile(where, f"unsupported file type ({path.suffix} file that is no manual page: no .TH or "
                                 ".Dd near its top)"), where
        return
    target = man_reader.redirect_target(text)
    if target:
        if any((base / target).is_file() for base in (path.parent.parent, path.parent, path.parent.parent.parent)):
            yield SkippedFile(where, f"manual page alias ({path.stem} is read as a name of {target})"), where
        else:
            yield SkippedFile(where, f"manual page alias of a page not in the folder ({target}: nothing to read)"), where
        return
    if encoding not in ("utf-8", "ascii"):
        metadata["encoding"] = encoding
    try:
        page = man_reader.read_man(text, aliases, macros)
    except Exception as exc:  # noqa: BLE001 - one bad file never aborts a whole folder
        yield SkippedFile(where, f"reader failed ({type(exc).__name__}: {readers._short(exc)})"), where
        return
    if not page.text.strip():
        yield SkippedFile(where, "empty manual page (no text after its macros)"), where
        return
    metadata.update({k: v for k, v in page.metadata.items() if v})
    if page.notes:
        metadata["read_note"] = "; ".join(page.notes)
    if page.dropped:
        metadata["markup_dropped"] = ", ".join(f"{k} {v}" for k, v in sorted(page.dropped.items()))
    yield Document(doc_id=doc_id, text=page.text, title=page.title or readers.stem_title(path), metadata=metadata,
                   parts=page.parts), where


def _guarded(where: str, records: Iterator[tuple[str, Any]]) -> Iterator[tuple[str, Any]]:
    """Records of a file; a file-level failure (even after some records) becomes one skipped entry."""
    try:
        yield from records
    except UnreadableFileError as exc:
        yield where, exc
    except Exception as exc:  # noqa: BLE001 - one bad file never aborts a whole folder
        yield where, UnreadableFileError(f"reader failed ({type(exc).__name__}: {readers._short(exc)})")


def _iter_records(records: Iterable[tuple[str, Any]], fields: _Fields) -> Iterator[tuple[Item, str]]:
    for where, record in records:
        if isinstance(record, UnreadableFileError):
            yield SkippedFile(where, str(record)), where
            continue
        try:
            yield fields.to_document(record), where
        except UnreadableFileError as exc:
            yield SkippedFile(where, str(exc)), where


def content_id(title: str | None, text: str) -> str:
    """A stable id for a record that has none: a hash of its title and text."""
    digest = hashlib.sha256(f"{title or ''}\x00{text}".encode()).hexdigest()
    return f"doc-{digest[:16]}"


def _split_flashrag(contents: str) -> tuple[str | None, str]:
    first, sep, rest = contents.partition("\n")
    if not sep or not rest.strip():
        return None, contents
    title = first.strip()
    if len(title) >= 2 and title[0] == title[-1] == '"':
        title = title[1:-1].strip()
    return (title or None), rest


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return " ".join(value)  # e.g. an abstract stored as a list of sentences
    return str(value)


def _is_scalar(value: Any) -> bool:
    # Chunk metadata ends up in Chroma, which takes only str/int/float/bool values.
    return isinstance(value, (str, int, float, bool))


def _is_hf_dataset(source: Any) -> bool:
    module = type(source).__module__ or ""
    if not module.startswith("datasets"):
        return False
    if not hasattr(source, "column_names") or isinstance(source.column_names, dict):
        raise ValueError("Got a datasets.DatasetDict: pick a split, e.g. load_documents(ds['train'])")
    return True
