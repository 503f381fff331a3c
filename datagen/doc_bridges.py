"""Documentation questions across two pages: the release that brought a documented thing, and when it came out
(issue 36: depth where the corpus has it; session 45).

A reference page says when a thing came ("record_testsuite_property" / ".. versionadded:: 4.5", read by
datagen.doc_versions) and the project's changelog says when that version came out ("pytest 4.5.0 (2019-05-11)",
datagen.doc_releases). A user asks across both: "When was the pytest version that added record_testsuite_property
released?" → "2019-05-11"; gold = the note's passage, then the release's. Nothing new is read: the two readers'
facts are joined on (project, version).

Every hop genuine, the answer unique, or no question (each refusal counted in the funnel, `Funnel`):
- the project is the page's, read by datagen.doc_projects (`FactBase.projects`), the same for both pages: a folder
  of two projects that both have a "2.3" is the trap, and a page of no named project gives no question;
- the note's (project, thing, kind) has one version in the folder, and the project's version one release day
  ("2.3" of a note is the release "2.3.0" only where the folder has no release "2.3");
- the release is on another page than the note, and the note's page does not write the day (else the first
  passage answers alone: FastAPI's "Add support for X" items sit under their release's dated heading);
- the question does not name the version (a thing called "pytest.version_tuple" does not, a "3.5 ini option" would).

A comparison of two notes of one project ("Which was added to pytest first, junit_family or pytester?" → the one of
the lower version) needs both passages too; `comparisons` lists them, and the generator holds them to a share of
the multi-hop tasks (`NaturalConfig.comparison_share`, issue 36: comparisons at most a quarter).
"What else was added in the release that added X?" is not asked: a release adds many things, the answer is no one.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from datagen.factbase import Fact
from datagen.mining import fold
from datagen.verify import contains, date_aliases

BRIDGE_FORM = "doc_bridge"
COMPARE_FORM = "doc_compare"
# what the first page's note says, as the clause that names its release
ASKS = {
    "doc:added": "When was the {p} version that added {s} released?",
    "doc:changed": "When was the {p} version that changed {s} released?",
    "doc:deprecated": "When was the {p} version that deprecated {s} released?",
    "doc:removed": "When was the {p} version that removed {s} released?",
}
COMPARE_ASK = "Which was added to {p} first, {a} or {b}?"
# two deprecations or two removals of one project compared (session 46, `--mix deprecations`)
COMPARE_ASKS = {
    "doc:added": COMPARE_ASK,
    "doc:deprecated": "Which was deprecated in {p} first, {a} or {b}?",
    "doc:removed": "Which was removed from {p} first, {a} or {b}?",
}
RELEASED = "doc:released"


@dataclass(frozen=True)
class DocBridge:
    """One question: the note (first hop), the release day (second hop, the answer) and the question written."""

    note: Fact
    release: Fact
    question: str
    project: str


@dataclass(frozen=True)
class DocComparison:
    """Two notes of one project's "added", their versions differing; `first` the one of the lower version."""

    first: Fact
    second: Fact
    question: str
    project: str


def version_key(version: str) -> tuple[int, ...] | None:
    """"v2.3" → (2, 3); a pre-release or a dev version ("1.0.0b9") gives None: ordered by no plain rule here."""
    m = re.fullmatch(r"v?(\d+(?:\.\d+){1,3})", version.strip())
    return tuple(int(p) for p in m.group(1).split(".")) if m else None


def _releases(facts: Mapping[str, Sequence[Fact]], projects: Mapping[str, str], funnel: Counter
              ) -> dict[tuple[str, tuple[int, ...]], list[Fact]]:
    """(project, version) → its release-day facts, only where the folder gives that version one day."""
    found: dict[tuple[str, tuple[int, ...]], list[Fact]] = defaultdict(list)
    for doc_id, fs in facts.items():
        for f in fs:
            key = version_key(f.subject)
            if f.relation == RELEASED and projects.get(doc_id) and key is not None:
                found[(fold(projects[doc_id]), key)].append(f)
    out = {}
    for key, fs in found.items():
        if len({fold(f.answer) for f in fs}) == 1:
            out[key] = fs
        else:
            funnel["release_day_disputed"] += 1
    return out


def _notes(facts: Mapping[str, Sequence[Fact]], projects: Mapping[str, str], funnel: Counter, kinds: Sequence[str]
           ) -> dict[tuple[str, str, str], list[Fact]]:
    """(project, thing, kind) → its notes, only where the folder gives it one version (counted in `funnel`)."""
    found: dict[tuple[str, str, str], list[Fact]] = defaultdict(list)
    for doc_id, fs in facts.items():
        for f in fs:
            if f.relation not in kinds or version_key(f.answer) is None:
                continue
            if not projects.get(doc_id):
                funnel["note_no_project"] += 1
                continue
            found[(fold(projects[doc_id]), fold(f.subject), f.relation)].append(f)
    out = {}
    for key, fs in found.items():
        if len({version_key(f.answer) for f in fs}) == 1:
            out[key] = fs
        else:
            funnel["note_disputed"] += 1
    return out


def _release_of(releases: Mapping[tuple[str, tuple[int, ...]], list[Fact]], project: str, version: tuple[int, ...]
                ) -> list[Fact]:
    """The release days of a note's version: the version itself, else "2.3" as the release "2.3.0"."""
    return releases.get((project, version)) or (
        releases.get((project, (*version, 0)), []) if len(version) == 2 else [])


def doc_bridges(facts: Mapping[str, Sequence[Fact]], projects: Mapping[str, str], texts: Mapping[str, str],
                funnel: Counter) -> list[DocBridge]:
    """Every note → release-day question of the folder (see the module docstring), one per (project, thing,
    kind); `funnel` counts the notes found and why each one not asked was refused."""
    releases = _releases(facts, projects, funnel)
    out = []
    for (project, _, relation), notes in sorted(_notes(facts, projects, funnel, tuple(ASKS)).items()):
        funnel["notes"] += 1
        note = notes[0]
        version = version_key(note.answer)
        assert version is not None  # _notes keeps only these
        days = _release_of(releases, project, version)
        if not days:
            funnel["no_release_day"] += 1
            continue
        funnel["chains"] += 1
        release = days[0]
        if any(n.doc_id == release.doc_id for n in notes):
            funnel["same_page"] += 1  # the release's own page: one page answers alone
            continue
        if any(contains(texts.get(n.doc_id, ""), day) for n in notes for day in (release.answer, *date_aliases(release.answer))):
            funnel["day_on_first_page"] += 1
            continue
        name = projects[note.doc_id]
        question = ASKS[relation].replace("{p}", name).replace("{s}", note.subject)
        if re.search(rf"(?<![\w.]){re.escape(note.answer.lstrip('v'))}(?![\w])", question):
            funnel["version_in_question"] += 1
            continue
        funnel["asked"] += 1
        out.append(DocBridge(note, release, question, name))
    return out


def comparisons(facts: Mapping[str, Sequence[Fact]], projects: Mapping[str, str], funnel: Counter,
                kinds: Sequence[str] = ("doc:added",)) -> list[DocComparison]:
    """Pairs of one project's notes of one kind (`kinds`: "added" as session 45; deprecations and removals too with
    `--mix deprecations`) in two passages whose versions differ ("5.0" and "5.0.0" do not); each thing named in no
    other note's words (the question must tell the two apart). A removed "support for Python 3.7" is never compared:
    which Python a project dropped first is guessed without reading."""
    by_project: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for (project, _, relation), notes in sorted(_notes(facts, projects, Counter(), tuple(kinds)).items()):
        if relation != "doc:removed" or not notes[0].subject.startswith("support for "):
            by_project[(project, relation)].append(notes[0])
    out = []
    for notes in by_project.values():
        for i, a in enumerate(notes):
            for b in notes[i + 1:]:
                va, vb = version_key(a.answer), version_key(b.answer)
                assert va is not None and vb is not None
                if _padded(va) == _padded(vb) or a.chunk_id == b.chunk_id:
                    funnel["compare_same_version_or_passage"] += 1
                    continue
                if fold(a.subject) in fold(b.subject) or fold(b.subject) in fold(a.subject):
                    funnel["compare_names_overlap"] += 1
                    continue
                first, second = (a, b) if _padded(va) < _padded(vb) else (b, a)
                name = projects[a.doc_id]
                # the options in a fixed order (the pair's), not the answer first
                question = COMPARE_ASKS[a.relation].replace("{p}", name).replace("{a}", a.subject).replace("{b}", b.subject)
                funnel["compare_pairs"] += 1
                out.append(DocComparison(first, second, question, name))
    return out


def _padded(version: tuple[int, ...]) -> tuple[int, ...]:
    return version + (0,) * (4 - len(version))
