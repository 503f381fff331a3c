"""Deprecations and removals asked, named by the project the repository declares (session 46, issue 36).

The fixture `tests/fixtures/project_repos/` (written for these tests) is a folder of three repositories as a user
indexes them: `kit` declares the package "wombat-burrow-kit" in its `pyproject.toml` and its prose writes "Wombat
Burrow Kit" (and "the kit": its folder's name is a word of the phrase, the trap); it holds a deprecations page
(pytest's shape: a section per thing, its first lines `.. deprecated::` / `.. versionremoved::`) and a changelog
with "Deprecated" / "Removed" sections under dated release headings. `numbat` declares its name in `mkdocs.yml`;
`broken`'s project files cannot be read. Old code (9ff5a1c): the group is named "Kit", no changelog item and no
section note of the deprecations page gives a fact (the page's module note has no owner), no deprecation chain.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from datagen_fixtures import WordTokenizer

from corpus_tools import SkippedProjectFile, load_documents
from corpus_tools.chunking import ChunkingConfig, chunk_documents
from corpus_tools.types import Chunk
from datagen.doc_bridges import BRIDGE_FORM, comparisons
from datagen.doc_deprecations import changelog_facts, item_things, page_facts, undisputed
from datagen.doc_projects import project_names
from datagen.mining import MinedCorpus, mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.pipeline import mine_corpus
from datagen.relations import read_facts
from datagen.types import Candidate
from datagen.verify import check_candidate

REPOS = Path(__file__).parents[1] / "fixtures" / "project_repos"


def _folder() -> tuple[list[Chunk], MinedCorpus]:
    report = load_documents(REPOS)
    chunks = list(chunk_documents(report.documents, WordTokenizer(), ChunkingConfig()))
    mined = mine(chunks)
    mined.declared = {s.path: s.declares for s in report.skipped if isinstance(s, SkippedProjectFile)}
    return chunks, mined


def _read(chunks: list[Chunk], reader) -> dict[tuple[str, str], str]:
    skipped: Counter = Counter()
    return {(f.subject, f.relation): f.answer for c in chunks for f in reader(c, skipped)}


def test_a_changelog_says_what_each_release_deprecated_and_removed() -> None:
    chunks, _ = _folder()
    facts = _read([c for c in chunks if c.doc_id == "kit/CHANGELOG.md"], changelog_facts)
    assert facts == {
        ("the tunnel_width argument", "doc:removed"): "3.0.0",
        ("support for Python 3.8", "doc:removed"): "3.0.0",
        ("the legacy_units setting", "doc:deprecated"): "2.4.0",
    }  # "Removed the old burrow viewer" names no thing; "Remove Burrow.reset() …" sits under "Deprecated": refused
    skipped: Counter = Counter()
    for c in chunks:
        changelog_facts(c, skipped)
    assert skipped["doc_deprecation_label_disagrees"] == 1


def test_an_item_names_a_thing_or_gives_nothing() -> None:
    assert item_things("Drop Python 3.9 support (#12).") == ("removed", ["support for Python 3.9"])
    assert item_things("Deprecated the CACHE_DIR setting and added a check.") == ("deprecated", ["the CACHE_DIR setting"])
    assert item_things("Remove deprecated OLD_A and OLD_B #9.") == ("removed", ["OLD_A", "OLD_B"])
    assert item_things("#4562: Deprecate configuring hooks using marks.") is None  # a gerund, no named thing
    assert item_things("Removed the static file check in the panel.") is None
    assert item_things("Drop fixtures from the report.") is None  # a plain word with no kind named
    assert item_things("") is None


def test_a_deprecation_page_section_opening_note_is_its_headings() -> None:
    chunks, _ = _folder()
    facts = _read([c for c in chunks if c.doc_id == "kit/docs/deprecations.rst"], page_facts)
    assert facts[("the wombat_burrow.shovel module", "doc:deprecated")] == "2.0"
    assert facts[("the wombat_burrow.shovel module", "doc:removed")] == "3.0"
    assert facts.get(("Burrow.flood_check", "doc:deprecated")) == "2.4"
    assert not any("Tunnels" in s for s, _ in facts)  # a heading of plain words names no thing


def test_the_declared_name_wins_over_a_folder_word_and_a_slug_reads_as_prose_writes_it() -> None:
    chunks, mined = _folder()
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    before = project_names(texts, mined.titles, True, files=True)
    assert before["kit/docs/usage.md"] == "Kit"  # the folder's word, as 9ff5a1c names it
    names = project_names(texts, mined.titles, True, files=True, declared=mined.declared)
    assert names["kit/docs/usage.md"] == names["kit/CHANGELOG.md"] == "Wombat Burrow Kit"
    assert names["numbat/docs/survey.md"] == "Numbat"
    assert "broken/docs/index.md" not in names  # its files declare nothing readable; its prose names nothing


def test_a_repository_indexed_whole_takes_the_roots_name() -> None:
    page = "Wombat Burrow Kit maps burrows. Wombat Burrow Kit keeps depths."
    texts = {"docs/index.md": page, "docs/usage.md": page, "src/dig.py": "def dig(): ..."}
    names = project_names(texts, {}, True, files=True, declared={"pyproject.toml": "wombat-burrow-kit"})
    assert names["docs/index.md"] == names["docs/usage.md"] == "Wombat Burrow Kit"
    assert project_names(texts, {}, True, files=True) == {}


def test_mining_an_index_reads_what_its_project_files_declare() -> None:
    chunk = Chunk("kit/docs/usage.md#0", "kit/docs/usage.md", "Usage text here.", 0, 3, {"title": "Usage"})
    corpus = SimpleNamespace(doc_ids=lambda: ["kit/docs/usage.md"], chunks=lambda d: [chunk],
                             skipped=[SkippedProjectFile("kit/pyproject.toml", "project file", "wombat-burrow-kit")])
    assert mine_corpus(corpus).declared == {"kit/pyproject.toml": "wombat-burrow-kit"}


def _facts(config: NaturalConfig) -> tuple[dict, dict]:
    _, mined = _folder()
    base = read_facts(mined, load_pipeline(), release_names=bool(config.doc_release_names),
                      declared_names=bool(config.doc_declared_names), deprecations=bool(config.doc_deprecations))
    return base.facts, base.projects


def _generated(config: NaturalConfig) -> tuple[dict[str, str], dict[str, Candidate]]:
    """(single-hop question → answer of the kit's documentation facts, multi-hop question → candidate)."""
    chunks, mined = _folder()
    base = read_facts(mined, load_pipeline(), release_names=bool(config.doc_release_names),
                      declared_names=bool(config.doc_declared_names), deprecations=bool(config.doc_deprecations))
    single = {f.ask.replace("{s}", f.subject): f.answer for fs in base.facts.values() for f in fs
              if f.relation in ("doc:deprecated", "doc:removed")}
    gen = NaturalGenerator(mined, base, config)
    rng, multi = random.Random(0), {}
    for _ in range(30):
        if gen.exhausted(2) is not None:
            break
        c = gen.propose(2, rng)
        if isinstance(c, Candidate):
            verdict = check_candidate(c, {d: mined.doc_text(d) for d in mined.chunks},
                                      {ch.chunk_id: ch.text for ch in chunks}, mined.titles)
            assert verdict.accepted, (c.question, verdict.details)
            gen.commit(c)
            multi[c.question] = c
    return single, multi


def test_deprecations_are_asked_named_bridged_to_the_release_day_and_compared() -> None:
    single, multi = _generated(NaturalConfig())
    assert single["In which version of Wombat Burrow Kit was the legacy_units setting deprecated?"] == "2.4.0"
    assert single["In which version of Wombat Burrow Kit was the tunnel_width argument removed?"] == "3.0.0"
    bridge = multi["When was the Wombat Burrow Kit version that removed the wombat_burrow.shovel module released?"]
    assert bridge.metadata["form"] == BRIDGE_FORM and bridge.answer == "2024-09-12"
    assert bridge.doc_ids == ("kit/docs/deprecations.rst", "kit/CHANGELOG.md")  # the note's page, then the day's
    assert multi["When was the Wombat Burrow Kit version that deprecated the wombat_burrow.shovel module released?"
                 ].answer == "2023-10-20"
    # two deprecations compared (held to the comparison share in a run: here three bridges leave no room for one)
    facts, projects = _facts(NaturalConfig())
    pairs = {c.question: c.first.subject for c in comparisons(facts, projects, Counter(), ("doc:deprecated",))}
    assert pairs == {"Which was deprecated in Wombat Burrow Kit first, the legacy_units setting or the "
                     "wombat_burrow.shovel module?": "the wombat_burrow.shovel module",
                     "Which was deprecated in Wombat Burrow Kit first, Burrow.flood_check or the "
                     "wombat_burrow.shovel module?": "the wombat_burrow.shovel module"}  # 2.4 and 2.4.0: no pair
    assert comparisons(facts, projects, Counter()) == []  # "added" only, as session 45


def test_off_is_as_before() -> None:
    single, multi = _generated(NaturalConfig(**parse_mix("declared_names=0,deprecations=0")))
    assert not any("Wombat" in q for q in [*single, *multi])
    assert not any("legacy_units" in q or "shovel" in q for q in [*single, *multi])


def test_a_thing_two_releases_deprecate_or_remove_is_not_asked() -> None:
    text = ("Changelog\n\n1.2.0 (2024-05-01)\n\nRemoved\n\n- The deprecated dig_mode argument has now been removed.\n\n"
            "0.9.0 (2023-01-10)\n\nRemoved\n\n- Drop dig_mode argument from the quick API. (#12)\n"
            "- Drop the SHOVEL_SIZE setting. (#13)\n")
    chunk = Chunk("kit/CHANGES.md#0", "kit/CHANGES.md", text, 0, len(text.split()), {"title": "Changelog"})
    skipped: Counter = Counter()
    read = changelog_facts(chunk, skipped)
    assert {(f.subject, f.answer) for f in read} == {("the dig_mode argument", "0.9.0"), ("the SHOVEL_SIZE setting", "0.9.0")}
    kept = undisputed(read, text, skipped)
    assert [(f.subject, f.answer) for f in kept] == [("the SHOVEL_SIZE setting", "0.9.0")]  # 1.2.0 removed it too
    assert skipped["doc_deprecation_disputed"] == 1
