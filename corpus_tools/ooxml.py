"""Office Open XML packages (.docx, .pptx, .xlsx): opened, their XML parts read, their core properties.

Every Office file since 2007 is a zip of XML parts (ECMA-376 part 2, Open Packaging Conventions):
Word keeps its body in `word/document.xml`, PowerPoint one part per slide under `ppt/slides/`, Excel
one per sheet under `xl/worksheets/`; all three keep title, author and dates in
`docProps/core.xml`. What can go wrong is the same for all three, so it is handled here once:

- an OLE compound file under the new name: a binary 97-2003 file renamed, or a password-protected
  file (Office encrypts the zip inside an OLE container with an "EncryptionInfo" stream);
- a truncated or non-zip file;
- a part that unpacks to more than `MAX_PART_BYTES` (a zip bomb: the largest real part seen is a
  few MB);
- broken XML (refused in a required part; an optional part that is broken reads as absent).

Read with the standard library's `zipfile` and ElementTree: ElementTree resolves no external
entities, and the expat it runs on (>= 2.4) refuses entity-expansion bombs. Each reader names its
file kind (`Package`) so that every error says which application fixes the file.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from corpus_tools.readers import UnreadableFileError, _short

# An OLE compound file: a 97-2003 binary, or a password-protected Office file.
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTION_INFO = "EncryptionInfo".encode("utf-16-le")
MAX_PART_BYTES = 256 * 1024 * 1024
_CORE = {
    "title": "{http://purl.org/dc/elements/1.1/}title",
    "author": "{http://purl.org/dc/elements/1.1/}creator",
    "created": "{http://purl.org/dc/terms/}created",
    "modified": "{http://purl.org/dc/terms/}modified",
}


@dataclass(frozen=True)
class Package:
    """The words a reader's errors use: `suffix` ".docx", `app` "Word", `document` "a Word document",
    `binary` "binary Word 97-2003 file", `protect` where the app removes a password, `convert` what to
    do with a file this reader cannot read."""

    suffix: str
    app: str
    document: str
    binary: str
    protect: str
    convert: str


def open_package(path: Path, package: Package) -> zipfile.ZipFile:
    """The zip of an Office file, or `UnreadableFileError` saying why not and what to do."""
    try:
        with path.open("rb") as handle:
            head = handle.read(8)
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None
    if head.startswith(OLE_MAGIC):
        raise UnreadableFileError(_ole_reason(path, package))
    try:
        return zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise UnreadableFileError(
            f"not a readable {package.suffix} (truncated, or not a {package.app} file: {exc})"
        ) from None
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None


def _ole_reason(path: Path, package: Package) -> str:
    try:
        with path.open("rb") as handle:
            data = handle.read(1 << 20)
    except OSError:
        data = b""
    if _ENCRYPTION_INFO in data:
        return f"password-protected {package.app} file; remove the password in {package.app}, {package.protect}, " \
               "save, and index it again"
    return f"{package.binary} named {package.suffix}; {package.convert}"


def read_part(archive: zipfile.ZipFile, name: str, package: Package, *, required: bool = False) -> Any:
    """The parsed XML part `name`; None when it is absent (or broken) and not required."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        if required:
            raise UnreadableFileError(f"not {package.document} (the zip holds no {name})") from None
        return None
    if info.file_size > MAX_PART_BYTES:
        raise UnreadableFileError(f"{name} unpacks to {info.file_size:,} bytes (over {MAX_PART_BYTES:,}: a zip bomb?)")
    try:
        data = archive.read(info)
    except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError) as exc:
        raise UnreadableFileError(
            f"broken {package.suffix}: cannot unpack {name} ({type(exc).__name__}: {_short(exc)})"
        ) from None
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        if not required:
            return None  # a broken optional part (styles, notes): the body still reads
        raise UnreadableFileError(f"broken XML in {name} ({exc})") from None


def core_properties(root: Any) -> dict[str, Any]:
    """Title, author and dates (ISO) of `docProps/core.xml`; a junk title (a file name, "Document1") is left
    out."""
    from corpus_tools.readers import is_meaningful_title

    found: dict[str, Any] = {}
    if root is None:
        return found
    for key, tag in _CORE.items():
        element = root.find(tag)
        value = " ".join((element.text or "").split()) if element is not None else ""
        if not value:
            continue
        if key == "title" and not is_meaningful_title(value):
            continue
        found[key] = value
    return found
