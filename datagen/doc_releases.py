"""Release notes as documentation writes them: when a version was released, and what it added support for.

"When was version 0.95.0 released?" → "2023-03-16"; "In which version was support for Python 3.12 added?" →
"0.106.0". A release-notes page heads each release with its version, alone or with its day:

    ## 0.141.1 (2026-07-29)                 (MkDocs)            Version 3.1.0           (Sphinx, changes.rst)
    * ✨ Add support for Python 3.12. PR …                         -------------
                                                                  Released 2024-11-13

- the day: the heading's parenthesis or a "Released DATE" line right under the heading (an ISO day, or "May 22,
  2023"); a release "Unreleased" gives nothing;
- an item "Add support for X." under a release (its first words after a bullet and an emoji): X kept verbatim
  when short (≤ 10 words, no link), the question drops its backticks.

A heading may name its project before the version, "pytest 8.4.0 (2025-06-02)" (pytest's changelog from 3.2 on,
Scrapy's news): read only with `named` (`--mix release_names`, session 45) and only with its day in the heading;
`relations.name_projects` keeps such a day only where the heading's word is the page's project (`heading_project`),
so "Python 3.12 (2023-10-02)" in a changelog gives no day of the project's 3.12.

An item is read only in a passage that holds its release's heading (the version must be in the passage that
answers; a long release's later items run over into chunks without it: `doc_release_without_version`). A version named twice in the folder with two days, or one thing
supported from two versions, is dropped by `factbase.unique_in_corpus` (the question names no project).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from datagen.doc_versions import VERSION
from datagen.factbase import Fact
from datagen.types import TruthType

_MONTH = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
          r"(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?)")
# a release's day as changelogs write it: "2023-03-16", "May 22, 2023", "Feb 21, 2024", "21st February, 2024",
# "21 February 2024" (kept verbatim: the answer is what the page says)
_DAY = (rf"(?:\d{{4}}-\d{{2}}-\d{{2}}|{_MONTH}\s+\d{{1,2}},\s+\d{{4}}|"
        rf"\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}})")
# a release heading's version: "0.141.1", "v2.5.0", "Version 3.1.0", Keep a Changelog's "[1.2.0]"
_HEAD_VERSION = rf"(?:Version[ \t]+|Release[ \t]+)?\[?(?P<v>{VERSION})\]?"
# its day, after it: "(2026-07-29)", "(21st February, 2024)", or Keep a Changelog's " - 2024-02-21"
_HEAD_DAY = rf"(?:[ \t]+\((?P<day>{_DAY})\)|[ \t]+[-–—][ \t]+(?P<day2>{_DAY}))"
# "## 0.141.1 (2026-07-29)", "## v2.5.0 (2023-11-13)", "## [1.2.0] - 2024-02-21", "Version 3.1.0" over an rST underline
_MD_RELEASE = re.compile(rf"^#{{1,4}}[ \t]+{_HEAD_VERSION}{_HEAD_DAY}?[ \t]*(?:\{{[^}}]*\}})?[ \t]*$", re.MULTILINE)
_RST_RELEASE = re.compile(rf"^{_HEAD_VERSION}{_HEAD_DAY}?[ \t]*\n[-=~^\"'`]{{5,}}[ \t]*$", re.MULTILINE)
# cleaned text: the heading a line of its own, "0.99.0 (2023-06-30)" (a version and its day alone: a release)
_PLAIN_RELEASE = re.compile(rf"^{_HEAD_VERSION}{_HEAD_DAY}[ \t]*$", re.MULTILINE)
# "pytest 8.4.0 (2025-06-02)", "## Scrapy 2.11.0 (2023-09-18)": a word (the project, `heading_project`), the version
# and its day, the line nothing else ("Version 3.1.0 (…)" is the plain heading's)
_NAMED_RELEASE = re.compile(rf"^(?:#{{1,4}}[ \t]+)?(?P<proj>(?!(?:Version|Release)\b)[A-Za-z][\w-]*)[ \t]+(?P<v>{VERSION})"
                            rf"[ \t]+\((?P<day>{_DAY})\)[ \t]*$", re.MULTILINE | re.IGNORECASE)
# "Released 2024-11-13", "Released on May 2, 2023", "Released: 2024-11-13", "*Released 2024-11-13*"
_RELEASED = re.compile(rf"\s*[*_]*Released(?:\s+on)?:?[ \t]+(?P<day>{_DAY})\b")
# "* ✨ Add support for Python 3.12. PR […]": a bullet, an emoji or two, the words
_SUPPORT_ITEM = re.compile(r"^[ \t]*[*+-][ \t]+(?:[^\w\s`]+[ \t]*)*Add(?:ed)? support for (?P<what>[^\n]+?)\.(?=[ \t]+PR\b|[ \t]*$)", re.MULTILINE)
# what a changelog item ends with that is no part of the thing: its pull request or issue and its author
# ("… extension #2671", "(#2671)", "PR #681 by @frankie567", "Thanks @someone"), and a reference role the rST reader
# leaves as its number ("Add support for Python 3.6 (:gh:`2485`)." reads "… Python 3.6 (2485)")
_ITEM_REFS = re.compile(r"(?:\s*[(\[]?(?:PR|pull request|issue)?\s*#\d+[)\]]?|\s+(?:by|thanks(?:\s+to)?)\s+@[\w-]+"
                        r"(?:\s*(?:,|and)\s*@[\w-]+)*|\s*\(\d{3,}(?:\s*,\s*\d{3,})*\))+\s*$", re.IGNORECASE)


def heading_project(quote: str) -> str:
    """The word a release heading names its project by ("pytest" of "pytest 8.4.0 (2025-06-02)"), "" for a heading
    that names none ("0.141.1 (2026-07-29)", "Version 3.1.0")."""
    m = _NAMED_RELEASE.match(quote.strip().split("\n", 1)[0])
    return m.group("proj") if m else ""


def _releases(text: str, named: bool = False) -> list[tuple[int, int, str, str]]:
    """(heading start, heading end, version, day or "") of every release heading of `text`, in order; named: a
    heading that names its project too ("pytest 8.4.0 (2025-06-02)")."""
    out = []
    for pattern in (_MD_RELEASE, _RST_RELEASE, _PLAIN_RELEASE, *((_NAMED_RELEASE,) if named else ())):
        for m in pattern.finditer(text):
            day = m.group("day") or m.group("day2") or ""
            if not day:
                said = _RELEASED.match(text, m.end())
                day = said.group("day") if said else ""
            out.append((m.start(), m.end(), m.group("v"), day))
    return sorted(out)


def release_facts(chunk: Any, skipped: Counter, named: bool = False) -> list[Fact]:
    """The release days and "Add support for" items one passage states (see the module docstring). named: a heading
    naming its project is read too ("pytest 8.4.0 (2025-06-02)"; False: as session 44)."""
    text = chunk.text
    out: list[Fact] = []
    here = _releases(text, named)
    for start, end, version, day in here:
        if not day:
            continue
        stop = text.find(day, start)  # in the heading, or the "Released" line right under it
        if stop < 0 or stop - end > 200:
            continue
        quote = text[start:max(end, stop + len(day))]  # the whole heading line when the day is in it
        out.append(Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote.strip(), subject=version,
                        about_doc=False, relation="doc:released", answer=day, kind=TruthType.ENTITY.value,
                        ask="When was version {s} released?"))
    for m in _SUPPORT_ITEM.finditer(text):
        above = [r for r in here if r[1] <= m.start()]
        # the release heading in this passage (its version must be where the answer is found), with no other
        # heading of its level or above between ("## Latest Changes" heads items of no release yet)
        if not above or _heading_between(text, above[-1], m.start()):
            skipped["doc_release_without_version"] += 1
            continue
        release = above[-1]
        what = _ITEM_REFS.sub("", m.group("what").strip())
        plain = re.sub(r"(?<!\w)\*+|\*+(?!\w)", "", what.replace("`", ""))  # code and *emphasis* marks
        if ("](" in what or "http" in what or len(plain.split()) > 10 or not re.search(r"[A-Za-z]", plain)
                or "e.g" in plain or plain.count("(") != plain.count(")") or "." in plain.rstrip(".").split()[-1:][0][-1:]):
            skipped["doc_release_item_too_long"] += 1
            continue
        line_end = text.find("\n", m.end())
        out.append(Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id,
                        sentence=text[release[0]:len(text) if line_end < 0 else line_end].strip(), subject=plain,
                        about_doc=False, relation="doc:release_support", answer=release[2], kind=TruthType.ENTITY.value,
                        ask="In which version was support for {s} added?"))
    return out


def _heading_between(text: str, release: tuple[int, int, str, str], at: int) -> bool:
    """Whether another heading of the release's level or above stands between it and `at` (cleaned text keeps no
    level: another release heading there is the only sign, and a plain "Latest Changes" line is not read)."""
    level = len(text[release[0]:].split(None, 1)[0]) if text[release[0]] == "#" else 0
    if level:
        return bool(re.search(rf"^#{{1,{level}}}[ \t]", text[release[1]:at], re.MULTILINE))
    return bool(re.search(r"^\S[^\n]*\n[-=~^\"'`]{5,}[ \t]*$", text[release[1]:at], re.MULTILINE))


def release_headings(text: str, named: bool = False) -> list[tuple[int, int, str, str]]:
    """(heading start, heading end, version, day or "") of every release heading of `text`, in order (named: as
    `release_facts`): where a passage's items sit, for readers of what each release did (datagen.doc_deprecations)."""
    return _releases(text, named)
