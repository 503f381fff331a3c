"""Technical documentation as a user's folder holds it (issue 36: a project's `docs/`, a kind never tried): an
option's default and the version that added, changed or removed a thing, read as main's index reads a page (flat
text, markup kept) and as a documentation reader cleans it (roles and directives gone). The pages in
docs_pages/ are invented, in the styles of a Sphinx `.rst` settings page, an MkDocs `.md` middleware page and
release notes.
Old code asked none of these questions: no default, no version, from either page."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from datagen_fixtures import generate_single_hop

from corpus_tools.types import Chunk
from datagen.doc_defaults import default_facts
from datagen.doc_versions import version_facts
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts

PAGES = Path(__file__).parent / "docs_pages"


def _chunk(name: str, text: str | None = None, position: int = 0) -> Chunk:
    text = text if text is not None else (PAGES / name).read_text(encoding="utf-8")
    return Chunk(f"{name}#{position}", name, text, position, len(text.split()), {"title": name.rsplit(".", 1)[0]})


def _asked(facts: list) -> dict[str, str]:
    return {f.ask.replace("{s}", f.subject): f.answer for f in facts}


def test_an_rst_settings_page_defaults_read_inside_their_blocks_only() -> None:
    skipped: Counter = Counter()
    asked = _asked(default_facts(_chunk("settings.rst"), skipped))
    assert asked == {
        "What is the default value of SESSION_TIMEOUT?": "timedelta(minutes=30)",
        "What is the default value of TOKEN_FALLBACKS?": "None",
        # "Defaults to ``8190``" opens a sentence; "which defaults to ``dict``" is the Headers class's default
        "What is the default value of MAX_HEADER_SIZE?": "8190",
        "What is the default value of STRICT_SLASHES?": "False",
    }, asked
    # "Default: ``'strict'``" after every block, in the page's own prose: nobody's
    assert skipped["doc_default_without_owner"] == 1


def test_an_rst_settings_page_version_notes() -> None:
    skipped: Counter = Counter()
    facts = version_facts(_chunk("settings.rst"), skipped)
    asked = _asked(facts)
    assert asked == {
        "In which version was TOKEN_FALLBACKS added?": "2.1",
        "In which version did STRICT_SLASHES change?": "1.4",
        "In which version was LEGACY_LOGGER added?": "0.9",
        "In which version was LOG_FORMAT added?": "0.9",
        "In which version was LEGACY_LOGGER removed?": "2.0",
        "In which version was AUDIT_HOOKS added?": "2.0",
    }, asked
    # the page's opening ".. versionadded:: 1.2" under its title is no object's note
    assert skipped["doc_version_without_owner"] == 1
    text = _chunk("settings.rst").text
    assert all(f.sentence in text for f in facts)  # quotes verbatim


def test_a_markdown_parameter_list_needs_its_owner() -> None:
    skipped: Counter = Counter()
    chunk = _chunk("middleware.md")
    asked = _asked(default_facts(chunk, skipped))
    assert asked == {
        "What is the default value of RetryMiddleware's max_retries?": "3",
        "What is the default value of RetryMiddleware's backoff_factor?": "0.5",
    }, asked
    assert skipped["doc_default_unverifiable"] == 1  # "[]": no word to find in a passage
    assert skipped["doc_default_without_owner"] == 1  # `timeout_total` under "Other options": whose?
    versions = _asked(version_facts(chunk, skipped))
    assert versions == {"In which version did Acme add support for Annotated?": "0.95.0"}


def test_a_list_whose_heading_is_in_the_previous_passage() -> None:
    """A passage that opens inside a section: the owner is the heading the passage before holds."""
    text = (PAGES / "middleware.md").read_text(encoding="utf-8")
    at = text.index("* `max_retries`")
    first, second = _chunk("middleware.md", text[:at], 0), _chunk("middleware.md", text[at:], 1)
    skipped: Counter = Counter()
    assert default_facts(second, skipped) == []  # alone, nobody's
    asked = _asked(default_facts(second, skipped, before=first.text))
    assert asked["What is the default value of RetryMiddleware's max_retries?"] == "3"


def test_cleaned_text_plain_roles_and_rendered_notes() -> None:
    """What a documentation reader leaves: the directive gone, the name alone on its line, the note as Sphinx
    renders it ("New in version 2.1."), the field's value without backticks."""
    cleaned = ("Builtin Configuration Values\n\nTOKEN_FALLBACKS\n\n    A list of old signing keys that are still "
               "accepted.\n\n    Default: None\n\n    New in version 2.1.\n\nSESSION_TIMEOUT\n\n    How long a "
               "session stays valid.\n\n    Default: timedelta(minutes=30)\n")
    skipped: Counter = Counter()
    chunk = _chunk("settings-clean.txt", cleaned)
    assert _asked(default_facts(chunk, skipped)) == {
        "What is the default value of TOKEN_FALLBACKS?": "None",
        "What is the default value of SESSION_TIMEOUT?": "timedelta(minutes=30)",
    }
    assert _asked(version_facts(chunk, skipped)) == {"In which version was TOKEN_FALLBACKS added?": "2.1"}


def test_two_defaults_in_one_block_and_two_pages_that_disagree_give_nothing() -> None:
    two = ".. py:data:: CACHE_SIZE\n\n    Default: ``100``\n\n    Defaults to ``200`` on servers.\n"
    skipped: Counter = Counter()
    assert default_facts(_chunk("a.rst", two), skipped) == []
    assert skipped["doc_default_ambiguous"] == 1
    one = ".. py:data:: CACHE_SIZE\n\n    The cache's size.\n\n    Default: ``100``\n"
    other = ".. py:data:: CACHE_SIZE\n\n    The cache's size.\n\n    Default: ``300``\n"
    mined = mine([_chunk("a.rst", one), _chunk("b.rst", other)])
    base = read_facts(mined, load_pipeline())
    assert not [f for fs in base.facts.values() for f in fs if f.relation.startswith("doc:")]
    assert base.skipped["doc_fact_disputed"] == 2


def test_the_natural_generator_asks_them_and_they_verify() -> None:
    _, asked = generate_single_hop([_chunk("settings.rst"), _chunk("middleware.md")], n=300)
    assert asked["What is the default value of SESSION_TIMEOUT?"].answer == "timedelta(minutes=30)"
    assert asked["What is the default value of RetryMiddleware's max_retries?"].answer == "3"
    assert asked["In which version was LEGACY_LOGGER removed?"].answer == "2.0"
    assert asked["In which version did Acme add support for Annotated?"].answer == "0.95.0"
    task = asked["In which version was TOKEN_FALLBACKS added?"]
    assert task.answer == "2.1" and task.supporting[0].doc_id == "settings.rst"


@pytest.mark.parametrize(("mix", "left"), [("defaults=0", "doc:default"), ("versions=0", "doc:added"),
                                         ("releases=0", "doc:released")])
def test_mix_turns_each_kind_off(mix: str, left: str) -> None:
    mined = mine([_chunk("settings.rst"), _chunk("middleware.md"), _chunk("release-notes.md")])
    base = read_facts(mined, load_pipeline())
    on = NaturalGenerator(mined, base)
    off = NaturalGenerator(mined, base, NaturalConfig(**parse_mix(mix)))
    relations = lambda g: {f.relation for fs in g.named.values() for f in fs}  # noqa: E731
    assert left in relations(on) and left not in relations(off)
    assert relations(off) - relations(on) == set()


def test_mix_rejects_a_bad_share() -> None:
    assert parse_mix("defaults=0,versions=1") == {"doc_defaults": 0.0, "doc_versions": 1.0}
    with pytest.raises(ValueError, match="--mix defaults must be a share"):
        parse_mix("defaults=2")


def test_release_notes_days_and_added_support() -> None:
    from datagen.doc_releases import release_facts

    skipped: Counter = Counter()
    asked = _asked(release_facts(_chunk("release-notes.md"), skipped))
    assert asked == {
        "When was version 0.42.0 released?": "2025-03-14",
        "When was version 0.41.2 released?": "2025-02-01",
        "In which version was support for Annotated in Header parameters added?": "0.42.0",
    }, asked
    # under "Latest Changes" no release yet; "(e.g. `Tags.users`)" cut at "e.g." is no item a question can hold
    assert skipped["doc_release_without_version"] == 1 and skipped["doc_release_item_too_long"] == 1
    _, tasks = generate_single_hop([_chunk("release-notes.md")], n=50)
    assert tasks["When was version 0.42.0 released?"].answer == "2025-03-14"


def test_a_default_its_question_gives_away_is_not_read() -> None:
    """"What is the default value of SESSION_COOKIE_NAME?" → "'session'": refused at every draw before."""
    page = ".. py:data:: SESSION_COOKIE_NAME\n\n    The name of the session cookie.\n\n    Default: ``'session'``\n"
    mined = mine([_chunk("c.rst", page)])
    base = read_facts(mined, load_pipeline())
    assert not [f for fs in base.facts.values() for f in fs if f.relation.startswith("doc:")]
    assert base.skipped["doc_answer_in_question"] == 1


def test_cleaned_markdown_lists_and_release_headings() -> None:
    """A Markdown reader's text: headings and code spans gone ("GZipMiddleware" a line of its own, "- minimum_size -
    … Defaults to 500."), a release heading "0.42.0 (2025-03-14)" a plain line."""
    from datagen.doc_releases import release_facts

    cleaned = ("RetryMiddleware\n\nRetries a request.\n\nThe following arguments are supported:\n\n- max_retries - How "
               "many times a request is tried again. Defaults to 3.\n- backoff_factor - A factor. Defaults to 0.5. "
               "Larger waits longer.\n\nRelease Notes\n\n0.42.0 (2025-03-14)\n\nFeatures\n\n- ✨ Add support for "
               "Python 3.15. PR #880 by @dev.\n")
    skipped: Counter = Counter()
    chunk = _chunk("clean.md", cleaned)
    assert _asked(default_facts(chunk, skipped)) == {
        "What is the default value of RetryMiddleware's max_retries?": "3",
        "What is the default value of RetryMiddleware's backoff_factor?": "0.5",
    }
    assert _asked(release_facts(chunk, skipped)) == {
        "When was version 0.42.0 released?": "2025-03-14",
        "In which version was support for Python 3.15 added?": "0.42.0",
    }


def test_a_page_a_documentation_reader_cleaned_is_still_documentation() -> None:
    """The Markdown / rST readers drop fences, backticks and includes; the page must not fall back to the sentence
    readers (on the cleaned tuning folder they wrote "Which organization would Behind a Proxy look in?" → "UI")."""
    from corpus_tools.readers import read_markup
    from datagen.doc_markup import documentation_page

    source = ("# First Steps { #first-steps }\n\nCreate an `App` and declare a route with `@app.get`:\n\n"
              "```Python\nfrom acme import App\n\napp = App()\n\n@app.get(\"/\")\ndef root():\n"
              "    return {\"message\": \"Hello\"}\n```\n\n/// tip\n\nRun it with `acme dev`.\n\n///\n")
    page = read_markup(source, ".md")
    assert "`" not in page.text and "///" not in page.text  # what the index holds: no markup left to see
    assert documentation_page(page.text)  # its code block's lines still read as code
    proxy = "# Behind a Proxy\n\nA proxy may strip the path prefix. Set root_path for it.\n\n{* ../../docs_src/a.py *}\n"
    cleaned = read_markup(proxy, ".md")
    assert cleaned.dropped.get("include") and not documentation_page(cleaned.text)
    assert documentation_page(cleaned.text, {"markup_dropped": "include 1"})  # what only a docs build writes
    chat = "Caroline: I joined a new group.\nMelanie: From where?\nCaroline: import flowers from Kenya, they say."
    wiki = "Kenya is a country in East Africa. Its capital is Nairobi.\nclass of 1990 alumni returned."
    assert not documentation_page(chat) and not documentation_page(wiki, {"markup_dropped": "html comment 2"})


def test_a_release_notes_page_is_split_by_fact_not_by_page(tmp_path: Path) -> None:
    """A release-notes page states a day per release, one question each: split by page it is one component, and
    the split took 30 for test and left the other 120 out (train empty, on the cleaned tuning folder)."""
    from datagen.pipeline import GenerateConfig, generate
    from datagen.records import read_task_file
    from datagen.split import split_tasks

    days = "\n\n".join(f"## 1.{i}.0 ({2020 + i // 12}-{1 + i % 12:02d}-1{i % 9})\n\n* Fix a crash number {i}."
                       for i in range(12))
    chunks = [_chunk("release-notes.md", f"# Release Notes\n\n{days}\n")]
    mined = mine(chunks)
    generate(NaturalGenerator(mined, read_facts(mined, load_pipeline())), mined, tmp_path / "t.jsonl",
             GenerateConfig(n=12, hops=(1,), patience=40))
    tasks = read_task_file(tmp_path / "t.jsonl")
    assert len(tasks) >= 8 and all(t.query.startswith("When was version 1.") for t in tasks)
    split = split_tasks(tasks, test_fraction=0.25, seed=0)
    assert split.train and split.test and not split.dropped and not split.leaks()
