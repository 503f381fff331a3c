"""A documentation folder's release announcements are documentation too (issue 36, session 43).

pytest's documentation holds 188 release announcements ("pytest-4.6.5" / "pytest 4.6.5 has just been released to
PyPI.") beside some 60 pages of documentation proper. Read one by one an announcement has no code line and no
dropped markup, so `doc_markup.documentation_page` takes it for prose; and session 42's folder rule
(`doc_projects.documentation_folders`: a folder most of whose pages are documentation is documentation) did not
reach them, because in pytest's folder the announcements are the majority. The sentence templates then asked them:
main wrote "Which organization has pytest-4.6.5 been released to?" → "PyPI" (20 of 150 tasks on the HTTPX + pytest
folder, session 43's tuning read) and, the folder not counting as documentation, "Which organization was History
migrated to?" → "Mercurial" and "Which work can Exit codes be accessed from?" → "ExitCode" on pytest's other
pages.

An announcement is documentation's release news: here a page is one when its group (top-level folder) holds a
documentation page and either its title names a release (a version number, with or without the project's name
before it: "pytest-4.6.5", "pytest-2.3.4: stabilization …", "HTTPX 0.18.0") and its text says "release" or
"announce", or it sits in a folder of announcements or news ("announce/", "news/", "releases/"). It then gives
only the documentation readers' facts ("When was pytest 7.1.0 released?" where it states a day, else nothing), and
it counts as documentation in its folder's majority. A corpus with no documentation page (Wikipedia, chats,
filings: "Windows 10" is released too) is untouched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from datagen.doc_projects import group_of

# a title that names a release: "pytest-4.6.5", "pytest 2.3.4: …", "HTTPX 0.18.0", "Version 2.0", "v1.2.3"
_RELEASE_TITLE = re.compile(r"^(?:[A-Za-z][\w.]*(?:[ \t]+|-))?v?\d+\.\d+(?:\.\d+)*(?:[a-z]+\d*)?(?![\w.])")
_SAYS_RELEASE = re.compile(r"\b(?:releas(?:e|ed|es|ing)|announc(?:e|ed|es|ing|ement))\b", re.IGNORECASE)
# a folder of announcements: "pytest/announce/sprint2016.rst", "docs/news/…", "releases/…"
_NEWS_FOLDER = re.compile(r"(?:^|/)(?:announce|announcements|news|releases|release-announcements)/", re.IGNORECASE)


def announcement_page(doc_id: str, title: str, text: str) -> bool:
    """Whether a page is a release announcement (see the module docstring), judged alone."""
    if _NEWS_FOLDER.search(doc_id.replace("\\", "/")):
        return True
    return bool(_RELEASE_TITLE.match(title.strip())) and bool(_SAYS_RELEASE.search(text))


def with_announcements(pages: Mapping[str, bool], titles: Mapping[str, str], texts: Mapping[str, str]) -> dict[str, bool]:
    """`pages` (doc id → documentation page) with every announcement in a group that holds a documentation page
    marked documentation too."""
    documented = {group_of(d) for d, is_doc in pages.items() if is_doc}
    return {d: is_doc or (group_of(d) in documented and announcement_page(d, titles.get(d, ""), texts.get(d, "")))
            for d, is_doc in pages.items()}
