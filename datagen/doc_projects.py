"""Whose documentation a page is: the project a documentation question names (issue 36).

"When was version 0.47.3 released?" names no project, and in a folder holding two projects' docs it has two
answers (FastAPI 0.47.x and Starlette 0.47.x were both released); "When was Starlette 0.47.3 released?" is what a
user asks. The project's name is read from the documents themselves, never from a list of names:

- the group: the top-level folder a page sits in inside the indexed folder (`click/options.md` → "click"), the
  layout a user gives when they index several projects' `docs/` side by side; a page at the folder's root
  belongs to the root group;
- the name: the capitalised form of the group's folder name that the group's pages write most ("Click",
  "FastAPI", "Starlette"), or for the root group (no folder name) the index page's title ("Welcome to Click" →
  "Click") when its pages write it; a name written fewer than `MIN_MENTIONS` times, or on a single page only,
  is no name (a folder called `docs` or `source` names nothing: its pages do not write "Docs" as a word).

The form a project writes itself in (`as_written`, `--mix name_case=0|1`, session 42): the capitalised form above
opens sentences too, so a project that writes its name in lower case ("pytest") was written "Pytest". With
`as_written` the form is the one its pages write most inside running prose — between two lower-case words, not
after "from" / "import" / "install" / "python" / "run" or before "import" (code and shell lines: "from flask import",
"pip install pytest") —, "pytest" for pytest, "Click", "Flask", "FastAPI", "Starlette" for the tuning projects
(tuning: Click 58 to 2, Flask 142 to 13, FastAPI 394 to 19); a project no prose mentions keeps the capitalised form.

The name a repository's project files declare (`declared`, `--mix declared_names=0|1`, session 46): the indexer
reads a `pyproject.toml`'s `[project] name`, a `setup.cfg`'s `[metadata] name` and a `mkdocs.yml`'s `site_name`
(corpus_tools.project_files; kept with the index as `SkippedProjectFile`s, never content). A group takes the names
its own folder's files declare, else those of the indexed folder's root (one repository indexed whole: `docs/`,
`src/` and the README are groups of one project), in this order: `site_name`, a Sphinx `conf.py`'s `project`, the
package name, a README's title. Each counts only where the group's pages write it, and in the form they write it:
a package slug is matched to the phrase prose writes ("django-debug-toolbar" → "Django Debug Toolbar",
"djangorestframework" → "Django REST framework": the same letters, any spaces, hyphens or case), and so is a folder
name (`phrases`).

A group without a name keeps its questions as they were (they name no project), and its facts stay under the
folder-wide one-answer rule (`factbase.unique_in_corpus`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from datagen.doc_options import NAMED_ASKS as OPTION_ASKS
from datagen.doc_options import WHICH, named_which
from datagen.doc_reference import ENVVAR, NAMED_ASKS
from datagen.doc_source import NAMED_ASKS as SOURCE_ASKS
from datagen.doc_source import NAMED_PROPERTY_ASK
from datagen.doc_source import RETURNS as SOURCE_RETURNS

MIN_MENTIONS = 3
# a word as a page writes it: letters, digits, inner "-" / "_" / "." ("Flask-Login" is not "Flask")
_WORD = re.compile(r"(?<![\w.-])[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)*(?![\w-])")
_INDEX_PAGE = re.compile(r"^(?:index|readme)\.(?:md|rst|txt|markdown)$", re.IGNORECASE)
_WELCOME = re.compile(r"^(?:welcome\s+to|about)\s+", re.IGNORECASE)


def group_of(doc_id: str) -> str:
    """The top-level folder a document sits in ("click/api.md" → "click"), "" for a page at the root."""
    head, sep, _ = doc_id.replace("\\", "/").partition("/")
    return head if sep else ""


def _key(word: str) -> str:
    return re.sub(r"[-_.\s]", "", word).casefold()


def _written(texts: Iterable[str], key: str) -> tuple[Counter, int]:
    """How often each capitalised form of `key` is written in `texts`, and on how many of them."""
    forms: Counter = Counter()
    pages = 0
    for text in texts:
        here = [w for w in _WORD.findall(text) if w[0].isupper() and _key(w) == key]
        forms.update(here)
        pages += bool(here)
    return forms, pages


# the project's name inside running prose: a lower-case word before and after it, and no code around it
_IN_PROSE = re.compile(r"(?<![\w.$>-])(?!(?:from|import|install|python|run) )[a-z]{2,} (?P<w>[A-Za-z][A-Za-z0-9]*) (?!import\b)(?=[a-z]{2,}\b)")


def _prose_forms(texts: Iterable[str], key: str) -> Counter:
    """How often each form of `key`, in any case, is written inside running prose (see `_IN_PROSE`)."""
    forms: Counter = Counter()
    for text in texts:
        forms.update(w for w in (m.group("w") for m in _IN_PROSE.finditer(text)) if _key(w) == key)
    return forms


def documentation_folders(pages: Mapping[str, bool]) -> frozenset[str]:
    """The documents of every group (top-level folder) most of whose pages are documentation (`pages`: doc id →
    `doc_markup.documentation_page`), the pages with no code among them too: a release announcement
    ("pytest-5.3.2 has just been released to PyPI"), a project's history page. Read one by one they look like
    prose, and the sentence templates asked them ("Which organization has pytest-5.3.2 been released to?" →
    "PyPI", "Which organization was History migrated to?" → "Mercurial", session 41's reporting read); inside a
    documentation folder they are documentation. A corpus with no documentation page (Wikipedia, chats,
    filings) has no such group."""
    groups: dict[str, list[str]] = {}
    for doc_id in pages:
        groups.setdefault(group_of(doc_id), []).append(doc_id)
    out: set[str] = set()
    for doc_ids in groups.values():
        if 2 * sum(bool(pages[d]) for d in doc_ids) > len(doc_ids):
            out.update(doc_ids)
    return frozenset(out)


# A group is a documentation group when at least this many of its pages are documentation pages, and at least
# this share of them (see `documentation_groups`).
DOC_GROUP_PAGES = 2
DOC_GROUP_SHARE = 0.2


def documentation_groups(pages: Mapping[str, bool]) -> frozenset[str]:
    """Session 43's rule in place of `documentation_folders` (`--mix doc_group=1`): a documentation page stays one
    whatever its group, and every page of a group that holds documentation pages (`DOC_GROUP_PAGES` of them at
    least, and `DOC_GROUP_SHARE` of its pages) is documentation too. The majority rule handed a group whose
    documentation pages were the fewer back to the sentence templates whole, its documentation pages included:
    MkDocs' 7 pages (2 with code) gave "Which work is Deploying your docs pushed to?" → "GitHub", and on fresh
    folders "Which organization are Frequently Asked Questions aggregated into?" → "FAQ" (a FAQ, a release
    process, a contributing page: prose about the project, never an entity's page). The floor keeps a stray page
    with code from turning a folder of Wikipedia articles, chats or filings into documentation: a group with one
    documentation page, or fewer than one page in five, is judged page by page."""
    groups: dict[str, list[str]] = {}
    for doc_id in pages:
        groups.setdefault(group_of(doc_id), []).append(doc_id)
    out = {d for d, is_doc in pages.items() if is_doc}
    for doc_ids in groups.values():
        documented = sum(bool(pages[d]) for d in doc_ids)
        if documented >= DOC_GROUP_PAGES and documented >= DOC_GROUP_SHARE * len(doc_ids):
            out.update(doc_ids)
    return frozenset(out)


def _index_title(doc_ids: list[str], titles: Mapping[str, str]) -> str:
    """The root index page's title, "Welcome to" dropped; "" when there is no index page or its title is long."""
    for doc_id in doc_ids:
        if _INDEX_PAGE.match(doc_id.rsplit("/", 1)[-1]):
            title = _WELCOME.sub("", (titles.get(doc_id) or "").strip()).strip(" #!.")
            if title and len(title.split()) <= 2:
                return title
    return ""


def project_names(texts: Mapping[str, str], titles: Mapping[str, str] | None = None,
                  as_written: bool = False, files: bool = False, declared: Mapping[str, str] | None = None
                  ) -> dict[str, str]:
    """doc id → the project its documentation is of (see the module docstring); a document whose group has no
    name readable from its pages is left out. as_written: the name in the form running prose writes it
    ("pytest"), not the capitalised form ("Pytest"). files (session 44): a group its folder name does not name
    is named by what the folder itself declares (`declared_names`), and a name its prose writes only in lower case
    ("pipx", "attrs": never capitalised, so `_written` finds no form) is read as prose writes it when the folder
    declares it (a folder's own name never so: "docs" is written in lower case by its prose too).
    declared (session 46; None: as before): project file path → the name it declares (`SkippedProjectFile`s of the
    index): those of the group's folder, else the root's, are candidates too, and every candidate may be a phrase
    of several words as prose writes it (see the module docstring)."""
    groups: dict[str, list[str]] = {}
    for doc_id in texts:
        groups.setdefault(group_of(doc_id), []).append(doc_id)
    out: dict[str, str] = {}
    for group, doc_ids in sorted(groups.items()):
        candidate = group or _index_title(sorted(doc_ids), titles or {})
        # (name, whether a form never capitalised counts): a folder's name keeps session 43's rule, since prose
        # writes "the docs folder" in lower case; a name the folder declares may be written only so ("pipx")
        candidates = [(candidate, False)] if candidate else []
        if files and declared is not None:
            # what the repository's files declare first: a folder's name is a guess ("kit" is a word of "Wombat Burrow
            # Kit"), a pyproject.toml's name a statement
            by_files = declared_by_files(group, sorted(doc_ids), texts, titles or {}, declared)
            candidates = [(d, True) for d in by_files[0]] + candidates + [(d, True) for d in by_files[1]]
        elif files:
            candidates += [(d, True) for d in declared_names(sorted(doc_ids), texts, titles or {})]
        for candidate, lower in candidates:
            name = _name(candidate, [texts[d] for d in doc_ids], as_written, lower=lower,
                         phrases=declared is not None)
            if name:
                out.update(dict.fromkeys(doc_ids, name))
                break
    return out


def _name(candidate: str, texts: list[str], as_written: bool, lower: bool = False, phrases: bool = False) -> str:
    """The form of `candidate` a group's pages write (see the module docstring), "" when they write it fewer than
    `MIN_MENTIONS` times or on one page only. lower: a name never written capitalised counts in its prose forms.
    phrases: a name prose writes as several words ("Django Debug Toolbar" of "django-debug-toolbar") counts too,
    when no one word is it."""
    forms, pages = _written(texts, _key(candidate))
    if not forms or sum(forms.values()) < MIN_MENTIONS or pages < 2:
        if phrases:
            forms, pages = _phrase_forms(texts, _key(candidate))
            if forms and sum(forms.values()) >= MIN_MENTIONS and pages >= 2:
                return max(forms, key=lambda f: (forms[f], sum(c.isupper() for c in f), f))
        if not lower:
            return ""
        prose = [_prose_forms([t], _key(candidate)) for t in texts]
        if sum(sum(p.values()) for p in prose) < MIN_MENTIONS or sum(bool(p) for p in prose) < 2:
            return ""
        total: Counter = sum(prose, Counter())
        return max(total, key=lambda f: (total[f], sum(c.isupper() for c in f), f))
    # the form written most; on a tie the one with more capitals ("FastAPI" over "Fastapi")
    name = max(forms, key=lambda f: (forms[f], sum(c.isupper() for c in f), f))
    if as_written:
        prose = _prose_forms(texts, _key(candidate))
        if prose:
            name = max(prose, key=lambda f: (prose[f], sum(c.isupper() for c in f), f))
    return name


# a Sphinx conf.py's `project = "Hypercorn"` (read as a source document or as text)
_CONF_PROJECT = re.compile(r"""^[ \t]*project[ \t]*=[ \t]*(?P<q>["'])(?P<name>[^"'\n]{1,40})(?P=q)[ \t]*$""", re.MULTILINE)
_README = re.compile(r"^readme(?:\.(?:md|rst|txt|markdown))?$", re.IGNORECASE)


def declared_names(doc_ids: list[str], texts: Mapping[str, str], titles: Mapping[str, str]) -> list[str]:
    """The names a group's own files declare, in this order: a Sphinx `conf.py`'s `project = "…"`, a README's
    title ("Welcome to" dropped, two words at most). A repository's `pyproject.toml`, `setup.cfg` and `mkdocs.yml`
    declare one too, but the indexer reads none of those files, so datagen (which reads the index) cannot."""
    out: list[str] = []
    for doc_id in doc_ids:
        if doc_id.replace("\\", "/").rsplit("/", 1)[-1] == "conf.py":
            out += [m.group("name").strip() for m in _CONF_PROJECT.finditer(texts.get(doc_id, ""))]
    for doc_id in doc_ids:
        if _README.match(doc_id.replace("\\", "/").rsplit("/", 1)[-1]):
            title = _WELCOME.sub("", (titles.get(doc_id) or "").strip()).strip(" #!.")
            if title and len(title.split()) <= 2:
                out.append(title)
    return [n for n in dict.fromkeys(out) if _WORD.fullmatch(n.split()[0]) and len(n.split()) == 1]


# a phrase of two to four words as prose writes it: the first capitalised, one space between (a line break is a
# layout, not a name: "Django\nDebug" stays two lines' words)
_PHRASE_WORDS = 4


def _phrase_forms(texts: Iterable[str], key: str) -> tuple[Counter, int]:
    """How often each phrase of 2–`_PHRASE_WORDS` words whose letters are `key` ("Django REST framework" of
    "djangorestframework") is written in `texts`, its first word capitalised, and on how many of them."""
    forms: Counter = Counter()
    pages = 0
    for text in texts:
        words = list(_WORD.finditer(text))
        here = []
        for i, first in enumerate(words):
            if not first.group(0)[0].isupper() or not key.startswith(_key(first.group(0))):
                continue
            joined = _key(first.group(0))
            for j in range(i + 1, min(i + _PHRASE_WORDS, len(words))):
                if text[words[j - 1].end():words[j].start()] != " ":
                    break
                joined += _key(words[j].group(0))
                if not key.startswith(joined):
                    break
                if joined == key:
                    here.append(text[first.start():words[j].end()])
                    break
        forms.update(here)
        pages += bool(here)
    return forms, pages


# which project file's name comes first: a display name (`site_name`, conf.py's `project`) before a package slug
_FILE_ORDER = {"mkdocs.yml": 0, "mkdocs.yaml": 0, "pyproject.toml": 2, "setup.cfg": 3}


def declared_by_files(group: str, doc_ids: list[str], texts: Mapping[str, str], titles: Mapping[str, str],
                      declared: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """(the names a group's project files declare — `declared`: file path → name, the group's own folder's, else
    the root's —, then a Sphinx `conf.py`'s `project` and a README's title as `declared_names` reads them), each in
    the module docstring's order; several words allowed (a phrase prose writes)."""
    def nearest(paths: list[str]) -> list[str]:
        # the shallowest of the group's own files (its repository root), else the indexed folder's root
        own = [p for p in paths if group and group_of(p) == group]
        if own:
            depth = min(p.count("/") for p in own)
            return [p for p in own if p.count("/") == depth]
        return [p for p in paths if "/" not in p.replace("\\", "/")]

    files = sorted(nearest(sorted(declared)), key=lambda p: (_FILE_ORDER.get(p.rsplit("/", 1)[-1].lower(), 9), p))
    stated = [declared[p].strip() for p in files]
    read: list[str] = []
    for doc_id in doc_ids:
        if doc_id.replace("\\", "/").rsplit("/", 1)[-1] == "conf.py":
            read += [m.group("name").strip() for m in _CONF_PROJECT.finditer(texts.get(doc_id, ""))]
    for doc_id in doc_ids:
        if _README.match(doc_id.replace("\\", "/").rsplit("/", 1)[-1]):
            title = _WELCOME.sub("", (titles.get(doc_id) or "").strip()).strip(" #!.")
            if title and len(title.split()) <= 2:
                read.append(title)

    def kept(names: list[str]) -> list[str]:
        return [n for n in dict.fromkeys(names) if n and _WORD.fullmatch(n.split()[0]) and len(n.split()) <= _PHRASE_WORDS]

    return kept(stated), [n for n in kept(read) if n not in stated]


# The question each documentation relation asks when its project is named ("{p}"); the relation's own template
# otherwise. A relation that already names who did it ("In which version did FastAPI add support for X?",
# `doc:support:fastapi`) keeps its template.
ASKS = {
    "doc:default": "What is the default value of {s} in {p}?",
    "doc:added": "In which version of {p} was {s} added?",
    "doc:changed": "In which version of {p} did {s} change?",
    "doc:deprecated": "In which version of {p} was {s} deprecated?",
    "doc:removed": "In which version of {p} was {s} removed?",
    "doc:released": "When was {p} {s} released?",
    "doc:release_support": "In which version of {p} was support for {s} added?",
    **OPTION_ASKS,  # an options list's defaults (datagen.doc_options)
    **NAMED_ASKS,  # a reference page's defaults and types (datagen.doc_reference); its raises / environment
    # questions name their raiser or their effect, and keep their own template
    **SOURCE_ASKS,  # a source section's defaults and return types (datagen.doc_source)
}


def named_ask(relation: str, ask: str, project: str) -> str:
    """The fact's question template with its project named, or `ask` unchanged when the relation has no named
    form or there is no project (a folder of one unnamed project)."""
    if relation == ENVVAR and project:
        # "Which environment variable controls X?" → "Which pytest environment variable controls X?"
        return ask.replace("Which environment variable", f"Which {project} environment variable", 1)
    if relation == WHICH:
        return named_which(ask, project)  # "Which mypy command-line option …?"
    template = ASKS.get(relation)
    if relation == SOURCE_RETURNS and ask.startswith("What type is"):
        template = NAMED_PROPERTY_ASK  # a property is read, not called
    if not template or not project:
        return ask
    return template.replace("{p}", project)
