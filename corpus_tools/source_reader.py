"""A Python file read as a document: its module docstring, then one section per class, function and method.

A repository's API lives in its source: Sphinx pages that are only `.. autoclass::` directives give the index
nothing (session 42), so a question naming `Flask.make_response` can only be answered by the code. Read as plain
text a source file is cut into windows that start anywhere, and no chunk says which definition it is in. Read
here, each definition is a section titled by its qualified name and the line it starts on
("flask.app.Flask.make_response (line 1203)"), which the chunk header carries to BM25 and the embedder, holding:

- a text part: its signature as written (decorators, parameters with defaults, return annotation), then its
  docstring as prose (indentation cleaned), marked as the place that defines the qualified name
  (DocumentPart.defines, as markup.SectionWriter.define marks a Sphinx entry), so `defined_first` / the
  `defined_names` lift rank it first when a question names `Flask.make_response`, `make_response` in backticks …;
- a code part: the rest of its body, verbatim (dedented). A class keeps its own body (attributes, comments) but its
  methods and nested classes are sections of their own; a function keeps its nested functions (a closure is read
  with the function that makes it). A definition longer than a chunk is cut into windows by the chunker, each
  window under the same section, the first one holding the definition's mark.

Code between definitions (imports, constants, `if __name__ == "__main__":`) is a code part under the module's
name (or the class's), in file order, so no line of the file is lost.

What is not read as definitions, and why (each said in `notes`, so the loader reports it; the text is kept):
a file that does not parse as Python 3 (a Python 2 file, a Jinja template with `{{ }}` named .py) is read as plain
text; a file over MAX_SOURCE_CHARS (a generated table, a vendored bundle) is read as plain text, since its syntax
tree costs tens of times its size in memory and it holds data, not API. The encoding is the one the file declares
(PEP 263 `# -*- coding: latin-1 -*-`, via tokenize); a declaration the bytes contradict, or an unknown one, falls
back to the text readers' detection with a note. NUL bytes are refused as a binary file, as for any text file.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from corpus_tools.markup import dedent
from corpus_tools.readers import UnreadableFileError, decode_text
from corpus_tools.structure import PartsWriter
from corpus_tools.types import DocumentPart

SOURCE_SUFFIXES = frozenset({".py", ".pyi"})
# Above this a file is read as plain text (module docstring): generated code, not an API a person asks about.
MAX_SOURCE_CHARS = 1_000_000
_LINE_END = re.compile(r"\r\n|\r|\n")  # the line ends ast counts (str.splitlines also splits on \f, \x1c, …)
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class SourceDocument:
    """A source file read: title (its module name), text, parts (none when read as plain text), counts and notes.

    encoding: the encoding the text was decoded with when it is not UTF-8 (declared or detected), else "".
    """

    title: str
    text: str
    parts: tuple[DocumentPart, ...]
    definitions: int = 0
    notes: tuple[str, ...] = ()
    encoding: str = ""


def module_name(path: Path) -> str:
    """The dotted name Python imports a file by: its stem under every enclosing folder holding an __init__.py
    ("src/flask/app.py" → "flask.app", "src/flask/__init__.py" → "flask"); a script alone is its stem."""
    parts = [] if path.stem == "__init__" else [path.stem]
    folder = path.parent
    for _ in range(32):  # a package deeper than this is a symlink loop, not a package
        if not (folder / "__init__.py").is_file() and not (folder / "__init__.pyi").is_file():
            break
        parts.insert(0, folder.name)
        if folder.parent == folder:
            break
        folder = folder.parent
    return ".".join(parts) or path.parent.name or path.stem


def decode_source(data: bytes) -> tuple[str, str, list[str]]:
    """(text, encoding, notes) of a Python file's bytes: its PEP 263 declaration, else UTF-8, else detection."""
    if b"\x00" in data:
        raise UnreadableFileError("binary file (contains NUL bytes)")
    notes: list[str] = []
    try:
        declared, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # an unknown encoding name, or a declaration that contradicts a BOM
        declared = None
        notes.append(f"encoding declaration not usable ({exc.msg if hasattr(exc, 'msg') else exc})")
    if declared is not None:
        try:
            text = data.decode(declared)
            if text.startswith("\ufeff"):
                text = text[1:]
            return text, "" if declared in ("utf-8", "utf-8-sig") else declared, notes
        except (UnicodeDecodeError, LookupError):
            if declared not in ("utf-8", "utf-8-sig"):
                notes.append(f"declares {declared} but is not")
    text, encoding = decode_text(data)  # detection; refuses garbled text with a reason
    if notes:
        notes[-1] += f": decoded as {encoding} (detected)"
    return text, "" if encoding in ("utf-8", "ascii") else encoding, notes


def read_source(data: bytes, module: str) -> SourceDocument:
    """A Python file's bytes read as a document (module docstring); `module` is its dotted name (the title)."""
    text, encoding, notes = decode_source(data)
    if len(text) > MAX_SOURCE_CHARS:
        notes.append(f"large source file ({len(text):,} characters): read as plain text, without definitions")
        return SourceDocument(module, text, (), 0, tuple(notes), encoding)
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        notes.append(f"not valid Python 3 (line {exc.lineno}: {exc.msg}): read as plain text")
        return SourceDocument(module, text, (), 0, tuple(notes), encoding)
    except (ValueError, RecursionError, MemoryError) as exc:  # nesting too deep for the parser
        notes.append(f"not readable as Python ({type(exc).__name__}): read as plain text")
        return SourceDocument(module, text, (), 0, tuple(notes), encoding)
    reader = _Reader(_LINE_END.split(text), module)
    reader.module(tree)
    return SourceDocument(module, reader.writer.text, tuple(reader.writer.parts), reader.definitions,
                          tuple(notes), encoding)


class _Reader:
    def __init__(self, lines: list[str], module: str) -> None:
        self.lines = lines
        self.module_name = module
        self.writer = PartsWriter()
        self.definitions = 0

    def _code(self, first: int, last: int, section: str) -> None:
        """Lines first..last (1-based, inclusive) as a code part, dedented; blank runs alone write nothing."""
        if last < first:
            return
        body = "\n".join(dedent(self.lines[first - 1 : last])).strip("\n")
        if body.strip():
            self.writer.emit(body, None, section, "code")

    def module(self, tree: ast.Module) -> None:
        start = 1
        doc = _docstring(tree)
        if doc is not None:  # the module docstring opens the document, as a page's first paragraph
            node, text = doc
            self.writer.emit(text, None, self.module_name, "text")
            self._code(1, node.lineno - 1, self.module_name)  # a shebang, a coding line, a licence comment
            start = node.end_lineno + 1
        self._body(tree.body, start, len(self.lines), self.module_name, self.module_name)

    def _body(self, body: list[ast.stmt], start: int, end: int, owner: str, section: str) -> None:
        """Statements of a module or class body from line `start` to `end`: definitions as sections of their
        own, the lines between them as code under `section`."""
        at = start
        for stmt in body:
            if not isinstance(stmt, _DEFINITIONS) or stmt.lineno < start:
                continue
            first = min([d.lineno for d in stmt.decorator_list] + [stmt.lineno])
            first = self._leading_comments(first, at)
            self._code(at, first - 1, section)
            self.definition(stmt, f"{owner}.{stmt.name}", first)
            at = stmt.end_lineno + 1
        self._code(at, end, section)

    def _leading_comments(self, first: int, floor: int) -> int:
        """The line a definition's comment block starts on (comments right above it belong to it)."""
        while first - 1 >= floor and self.lines[first - 2].lstrip().startswith("#"):
            first -= 1
        return first

    def definition(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef, qualname: str,
                   first: int) -> None:
        self.definitions += 1
        section = f"{qualname} (line {node.lineno})"
        doc = _docstring(node)
        opening = node.body[0]
        if opening.lineno == node.lineno:  # `def f(x): return x`, `class E(Exception): pass`: all one line
            head_end, body_start = node.end_lineno, node.end_lineno + 1
        else:
            head_end, body_start = opening.lineno - 1, opening.lineno
            while head_end > node.lineno and not self.lines[head_end - 1].strip():
                head_end -= 1
        head = "\n".join(dedent(self.lines[first - 1 : head_end])).strip("\n")
        if doc is not None and opening.lineno != node.lineno:
            head += "\n\n" + doc[1]
            body_start = doc[0].end_lineno + 1
        self.writer.emit(head, None, section, "text", defines=[(0, qualname)])
        if isinstance(node, ast.ClassDef):
            self._body(node.body, body_start, node.end_lineno, qualname, section)
        else:
            self._code(body_start, node.end_lineno, section)


def _docstring(node: ast.AST) -> tuple[ast.Expr, str] | None:
    """(the docstring's statement, its text cleaned of indentation) when the body opens with a non-empty one."""
    body = getattr(node, "body", None)
    if not body or not isinstance(body[0], ast.Expr):
        return None
    value = body[0].value
    if not isinstance(value, ast.Constant) or not isinstance(value.value, str):
        return None
    text = ast.get_docstring(node, clean=True)
    return (body[0], text) if text and text.strip() else None
