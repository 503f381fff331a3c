"""The name a repository's own project files declare (issue 36: documentation questions name their project).

A repository that a user indexes (docs, source, README) holds the files that say what the project is called:
`pyproject.toml` (`[project] name`, `[tool.poetry] name`), `setup.cfg` (`[metadata] name`) and `mkdocs.yml`
(`site_name`). None of them is a document a user searches (build configuration, not prose), so the loader does not
index them as content; it reads the one name each declares and records it with the file's skip entry
(`SkippedFile.declares`), which the index keeps (`skipped.jsonl`). Whoever reads the index (datagen's
`doc_projects`) then knows what a folder declares without reading files.

Read conservatively, so a bad file loses nothing and names nothing: a file over `MAX_BYTES`, one that does not
parse (TOML) or has no such key, a name that is not one short line — each gives "", and the loader then reports
the file exactly as before (an unsupported file type). `mkdocs.yml` is read by its top-level `site_name:` line, not
parsed as YAML: real ones hold tags a safe loader refuses (`!!python/name:material.extensions.emoji.twemoji`).
On Python 3.10 (no `tomllib`) a `pyproject.toml` names nothing.
"""

from __future__ import annotations

import configparser
import re
from pathlib import Path

# the files read, by name (lower case)
PROJECT_FILES = frozenset({"pyproject.toml", "setup.cfg", "mkdocs.yml", "mkdocs.yaml"})
MAX_BYTES = 1_000_000  # a project file is a few KB; anything far larger is not one
MAX_NAME_CHARS = 80
_SITE_NAME = re.compile(r"""^site_name:[ \t]*(?P<q>["']?)(?P<name>[^\n"'#]+?)(?P=q)[ \t]*(?:#[^\n]*)?$""", re.MULTILINE)


def is_project_file(path: Path | str) -> bool:
    """Whether a file is one whose declared name is read (`PROJECT_FILES`)."""
    return Path(path).name.lower() in PROJECT_FILES


def declared_name(path: Path) -> str:
    """The project name `path` declares (see the module docstring), "" when it declares none readably."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return ""
        data = path.read_bytes()
    except OSError:
        return ""
    return read_declared(data, path.name)


def read_declared(data: bytes, file_name: str) -> str:
    """The project name a project file's bytes declare, "" for none (a broken file, no such key, an odd name)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return ""
    name = file_name.lower()
    if name == "pyproject.toml":
        found = _pyproject(text)
    elif name == "setup.cfg":
        found = _setup_cfg(text)
    elif name in ("mkdocs.yml", "mkdocs.yaml"):
        m = _SITE_NAME.search(text)
        found = m.group("name") if m else ""
    else:
        return ""
    return _clean(found)


def _pyproject(text: str) -> str:
    try:
        import tomllib
    except ImportError:  # Python 3.10: no TOML reader in the standard library; names nothing
        return ""
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return ""
    for table in (data.get("project"), (data.get("tool") or {}).get("poetry") if isinstance(data.get("tool"), dict) else None):
        if isinstance(table, dict) and isinstance(table.get("name"), str):
            return table["name"]
    return ""


def _setup_cfg(text: str) -> str:
    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return ""
    return parser.get("metadata", "name", fallback="") or ""


def _clean(name: str) -> str:
    """The name on one line, or "" for an empty, multi-line, overlong or templated one ("{{ name }}", "%(name)s")."""
    name = name.strip()
    if not name or "\n" in name or len(name) > MAX_NAME_CHARS or re.search(r"[{}%$<>]", name):
        return ""
    return name
