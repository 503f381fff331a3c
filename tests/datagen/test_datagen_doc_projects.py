"""Documentation questions that say whose thing they ask about, and documentation styles session 40's readers did
not read (issue 36: an unseen project's docs gave 4 tasks, none a documentation fact).

docs_projects/ holds two invented projects side by side, as a user indexes several projects' `docs/` folders:
"quokka" (Keep a Changelog, a command's help output, prose "Starting with Quokka 2.0, …") and "marmot" (release
headings with an ordinal day, a plain parameter list under "The following arguments are supported:", a rendered
parameter line "max_tries (int) – … Default: 5"). Both released a 2.1.0, on different days. Every page is read
as flat text (markup kept) and as the Markdown reader cleans it.
Old code: no project in any question, both 2.1.0 days dropped as disputed, none of these styles read."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from datagen_fixtures import generate_single_hop

from corpus_tools.markdown_reader import read_markdown
from corpus_tools.types import Chunk
from datagen.doc_defaults import default_facts
from datagen.doc_projects import group_of, named_ask, project_names
from datagen.doc_releases import release_facts
from datagen.doc_since import since_facts
from datagen.doc_versions import version_facts
from datagen.mining import mine
from datagen.natural import NaturalConfig, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts

PAGES = Path(__file__).parent / "docs_projects"


def _chunks(cleaned: bool) -> list[Chunk]:
    out = []
    for path in sorted(PAGES.rglob("*.md")):
        doc_id = path.relative_to(PAGES).as_posix()
        raw = path.read_text(encoding="utf-8")
        doc = read_markdown(raw) if cleaned else None
        text = doc.text if doc is not None else raw
        title = (doc.title if doc is not None else raw.splitlines()[0].lstrip("# ")) or doc_id
        out.append(Chunk(f"{doc_id}#0", doc_id, text, 0, len(text.split()), {"title": title}))
    return out


def _asked(facts: list) -> dict[str, str]:
    return {f.ask.replace("{s}", f.subject): f.answer for f in facts}


def _doc_facts(cleaned: bool, projects: bool = True) -> dict[str, str]:
    base = read_facts(mine(_chunks(cleaned)), load_pipeline(), doc_projects=projects)
    return _asked([f for fs in base.facts.values() for f in fs if f.relation.startswith("doc:")])


@pytest.mark.parametrize("cleaned", [False, True])
def test_the_project_is_read_from_the_folder_and_the_pages(cleaned: bool) -> None:
    chunks = _chunks(cleaned)
    names = project_names({c.doc_id: c.text for c in chunks}, {c.doc_id: c.metadata["title"] for c in chunks})
    assert names["quokka/serve.md"] == "Quokka" and names["marmot/pool.md"] == "Marmot"
    assert group_of("quokka/serve.md") == "quokka" and group_of("index.md") == ""


def test_a_folder_the_pages_never_name_and_a_root_index_page() -> None:
    # a "docs" folder whose pages never write "Docs": no name, the questions stay as they were
    assert project_names({"docs/a.md": "Use the pool.", "docs/b.md": "Docs are here."}) == {}
    # one project at the folder's root: its index page's title, "Welcome to" dropped, when its pages write it
    texts = {"index.md": "Quokka reads settings.", "cli.md": "Quokka runs. Quokka stops."}
    assert project_names(texts, {"index.md": "Welcome to Quokka"}) == dict.fromkeys(texts, "Quokka")
    assert named_ask("doc:released", "When was version {s} released?", "") == "When was version {s} released?"
    assert named_ask("doc:support:acme", "In which version did Acme add support for {s}?", "Quokka").startswith(
        "In which version did Acme")


@pytest.mark.parametrize("cleaned", [False, True])
def test_two_projects_released_one_version_on_two_days(cleaned: bool) -> None:
    asked = _doc_facts(cleaned)
    assert asked["When was Quokka 2.1.0 released?"] == "2024-02-21"
    assert asked["When was Marmot 2.1.0 released?"] == "21st February, 2024"
    assert asked["When was Marmot 2.0.0 released?"] == "3rd March, 2023"
    assert asked["In which version of Quokka was support for TOML settings files added?"] == "2.1.0"
    # the item's pull request "#88" is no part of what was supported
    assert asked["In which version of Marmot was support for HTTP/3 added?"] == "2.1.0"
    # without the projects named, "When was version 2.1.0 released?" has two answers: neither day is asked
    off = _doc_facts(cleaned, projects=False)
    assert "When was version 2.1.0 released?" not in off and "When was version 2.0.0 released?" not in off
    assert off["In which version was support for HTTP/3 added?"] == "2.1.0"


def test_prose_version_sentences_and_what_refuses() -> None:
    chunk = _chunks(False)[-1]  # quokka/serve.md
    skipped: Counter = Counter()
    assert _asked(since_facts(chunk, skipped)) == {
        "Since which version of Quokka is it possible to reload the settings file without a restart?": "2.0",
        "In which version of Quokka will Runner.legacy_mode be removed?": "3.0",
    }
    long = Chunk("x#0", "x", "Starting with Quokka 2.0 you can " + "do one more thing " * 6 + "here.", 0, 30, {})
    unnamed = Chunk("y#0", "y", "This is deprecated and will be removed in 3.0.", 0, 9, {})
    assert since_facts(long, skipped) == [] and since_facts(unnamed, skipped) == []
    assert skipped["doc_since_too_long"] == 1


@pytest.mark.parametrize("cleaned", [False, True])
def test_help_output_parameter_lines_and_a_plain_list(cleaned: bool) -> None:
    asked = _doc_facts(cleaned)
    assert asked["What is the default value of the --port option of serve in Quokka?"] == "8000"
    assert asked["What is the default value of the --workers option of serve in Quokka?"] == "4"
    assert asked["What is the default value of ConnectionPool's timeout in Marmot?"] == "30"
    assert asked["What is the default value of RetryPolicy's max_tries in Marmot?"] == "5"
    # "Defaults to 2 weeks." is no one-token value: not "2"
    assert not [q for q in asked if "lifetime" in q]


def test_field_lists_and_added_in_notes() -> None:
    rst = (".. function:: connect(url, timeout=5)\n\n   Open a connection.\n\n   :param url: Where to connect.\n"
           "   :param int timeout: Seconds to wait. Defaults to ``5``.\n\n   Added in 1.4\n")
    chunk = Chunk("api.rst#0", "api.rst", rst, 0, 30, {})
    skipped: Counter = Counter()
    # the default is the parameter's, not the function's
    assert _asked(default_facts(chunk, skipped)) == {"What is the default value of connect()'s timeout?": "5"}
    assert _asked(version_facts(chunk, skipped)) == {"In which version was connect() added?": "1.4"}
    # a plain lower-case item is a parameter only under a lead-in that says so
    prose = Chunk("p.md#0", "p.md", "## `CachePool`\n\nNotes:\n\n- size - the pool grows. Defaults to 4.\n", 0, 12, {})
    assert default_facts(prose, Counter()) == []


def test_a_code_comment_is_no_heading_for_the_owner() -> None:
    text = ("SessionStore\n\nKeeps sessions.\n\nstore = SessionStore()\n# keep it small\n\n"
            "The following arguments are supported:\n\n- max_items - How many. Defaults to 100.\n")
    chunk = Chunk("s.md#0", "s.md", text, 0, 30, {})
    assert _asked(default_facts(chunk, Counter())) == {"What is the default value of SessionStore's max_items?": "100"}


def test_release_headings_in_changelog_styles() -> None:
    text = ("## [1.2.0] - 2024-02-21\n\n- Add support for Python 3.13 (#123).\n\nv2.0.0 - Feb 3, 2022\n\n"
            "Version 8.1.0\n-------------\n\nReleased: 2023-07-01\n\n- Added support for async views. PR #681 by @someone.\n"
            # an rST reference role read as its number (":gh:`2485`")
            "\nVersion 8.2.0\n-------------\n\nReleased: 2023-09-01\n\n- Add support for Python 3.6 (2485, 2490).\n")
    asked = _asked(release_facts(Chunk("c.md#0", "c.md", text, 0, 40, {}), Counter()))
    assert asked == {"When was version 1.2.0 released?": "2024-02-21", "When was version v2.0.0 released?": "Feb 3, 2022",
                     "When was version 8.1.0 released?": "2023-07-01",
                     "In which version was support for Python 3.13 added?": "1.2.0",
                     "In which version was support for async views added?": "8.1.0",
                     "When was version 8.2.0 released?": "2023-09-01",
                     "In which version was support for Python 3.6 added?": "8.2.0"}


def test_the_generator_asks_with_the_project_and_the_verifier_accepts() -> None:
    _, asked = generate_single_hop(_chunks(True), n=300)
    assert asked["When was Marmot 2.1.0 released?"].answer == "21st February, 2024"
    assert asked["When was Quokka 2.1.0 released?"].answer == "2024-02-21"
    task = asked["In which version of Quokka will Runner.legacy_mode be removed?"]
    assert task.answer == "3.0" and task.supporting[0].doc_id == "quokka/serve.md"


def test_mix_keys_for_projects_and_prose_versions() -> None:
    assert parse_mix("projects=0,since=0") == {"doc_projects": 0.0, "doc_since": 0.0}
    assert NaturalConfig().doc_projects == 1.0 and NaturalConfig().doc_since == 1.0
    with pytest.raises(ValueError, match="--mix projects must be a share"):
        parse_mix("projects=3")
    with pytest.raises(ValueError, match="since=0|1"):
        parse_mix("sinse=0")
