"""Options and settings lists read as a user asks them, and a folder's release announcements kept from the sentence
templates (issue 36, session 43: mypy's `.. option::` / `.. confval::` entries, MkDocs' one heading per setting and
a command's help output gave no task; main wrote "Which organization has pytest-4.6.5 been released to?" →
"PyPI" on the 188 announcements of pytest's folder, where session 42's folder rule does not reach).

docs_options/numbat/ is an invented lower-case project read by the real rST reader and chunker: a command-line
page (`.. option::` entries: one asked by "Asks …", one by "This flag will make …", one by "Whether …" with a
default, one using its placeholder "NUM", one with no description, one whose description is a noun phrase, one
whose default is a rule), a settings page (`.. confval::` with `:default:` fields: a literal, a placeholder, an
entry with a noun phrase), a usage page printing a help output, a history page and four release announcements
(the majority of the folder, as in pytest's). Old code: no option fact; the announcements and the history page
asked by the sentence templates."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from datagen_fixtures import facts_asked, folder_chunks, generate_single_hop

from corpus_tools.types import Chunk
from datagen.doc_announce import announcement_page, with_announcements
from datagen.doc_options import option_facts
from datagen.natural import NaturalConfig, parse_mix
from datagen.pipeline import Candidate

PAGES = Path(__file__).parent / "docs_options"


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    return folder_chunks(PAGES)


def _read(chunks: list[Chunk]) -> tuple[dict[str, str], Counter]:
    return facts_asked(option_facts, chunks)


def test_option_and_setting_entries_and_help_output(chunks: list[Chunk]) -> None:
    asked, skipped = _read(chunks)
    assert asked == {
        # `.. option::` entries (their names in the chunk's `defines`)
        "Which command-line option asks numbat to check burrows down to the given depth?": "--depth",
        "Which command-line option makes numbat report every tunnel that has no exit?": "--strict-tunnels",
        "Which command-line option controls whether the report should be printed in color?": "--color",
        "What is the default value of the --color option?": "auto",
        "Which command-line option stops checking a burrow after the given number of seconds?": "--timeout",
        # `.. confval::` entries and their `:default:` fields
        "Which configuration setting enables the burrow cache between runs of numbat?": "burrow_cache",
        "What is the default value of the burrow_cache setting?": "True",
        "Which configuration setting sets the largest number of exits numbat reports for one burrow?": "exit_limit",
        # a help output's option lines, "[default: …]" in them
        "Which command-line option stops digging at the given depth?": "--max-depth",
        "Which command-line option skips the second pass over the tunnels?": "--fast",
    }
    # refused and counted: "--quiet-log" (no description), "Output format of the report:", "A string naming …",
    # "Shape of the new burrow." (noun phrases), "Uses NUM processes", "Write the log to PATH." (placeholders),
    # "Show this message" (whose?); "30 (or 60 if …)", "<number of CPUs>" (no stated default). The help output's
    # "[default: 3]" is datagen.doc_defaults' (main's), not read twice
    assert skipped["doc_opt_no_description"] == 1
    assert skipped["doc_opt_default_unstated"] == 2
    assert skipped["doc_opt_not_a_clause"] >= 6


def test_a_settings_page_one_heading_per_setting() -> None:
    # MkDocs' configuration page as the Markdown reader writes it: the heading, the description, "default: …"
    meta = {"title": "Configuration", "section": "Configuration > Project information > repo_url"}
    page = Chunk("m#3", "m/configuration.md", "repo_url\n\nWhen set, provides a link to your repository on each page.\n\n"
                 "repo_url: https://github.com/example/repository/\n\ndefault: null\n", 0, 20, meta)
    got = {f.ask.replace("{s}", f.subject): f.answer for f in option_facts(page, Counter())}
    assert got == {"Which configuration setting, when set, provides a link to your repository on each page?": "repo_url",
                   "What is the default value of the repo_url setting?": "null"}
    # a default that is a rule, not a value
    rule = Chunk("m#4", "m/configuration.md", "repo_name\n\nWhen set, provides the name for the link.\n\n"
                 "default: 'GitHub', 'Bitbucket' or 'GitLab' if the repo_url matches those domains.\n", 0, 20,
                 {**meta, "section": "Configuration > Project information > repo_name"})
    skipped: Counter = Counter()
    assert [f.answer for f in option_facts(rule, skipped)] == ["repo_name"]
    assert skipped["doc_opt_default_unstated"] == 1
    # a heading that is a word on a page about something else is no setting
    prose = Chunk("g#1", "g/guide.md", "overview\n\nSets the scene for the guide.\n", 0, 9,
                  {"title": "Guide", "section": "Guide > overview"})
    assert option_facts(prose, Counter()) == []


def test_a_heading_the_passage_calls_is_a_function_not_a_setting() -> None:
    # a notebook's section on a function, as the notebook reader writes it (session 45's reporting read: main asked
    # "Which configuration setting creates an array of the given shape initialized with the given value?" → np.full)
    meta = {"title": "Tools - NumPy: configuration-free arrays", "section": "Creating arrays > np.full",
            "defines": "np.full"}
    called = Chunk("n#5", "tools_numpy.ipynb", "np.full\n\nCreates an array of the given shape initialized with the "
                   "given value.\n\nnp.full((3,4), np.pi)\n\nOutput:\narray([[3.14, 3.14]])\n", 0, 30, meta)
    skipped: Counter = Counter()
    assert option_facts(called, skipped) == []
    assert skipped["doc_opt_called"] == 1
    # the same entry whose passage never calls it stays a setting
    setting = Chunk("n#6", "settings.md", "np.full\n\nWhen set, fills every new array.\n\ndefault: false\n", 0, 20,
                    {**meta, "title": "Configuration"})
    skipped = Counter()
    assert {f.ask.replace("{s}", f.subject): f.answer for f in option_facts(setting, skipped)} == {
        "What is the default value of the np.full setting?": "false"}
    assert skipped["doc_opt_called"] == 0
    # prose naming a call is no sign (Gunicorn's sendfile setting "Disables the use of sendfile().")
    prose = Chunk("s#1", "settings.md", "sendfile\n\nDisables the use of sendfile().\n\ndefault: None\n", 0, 20,
                  {"title": "Settings", "section": "Settings > sendfile", "defines": "sendfile"})
    skipped = Counter()
    assert "sendfile" in {f.answer for f in option_facts(prose, skipped)} and skipped["doc_opt_called"] == 0


def test_a_description_cut_by_the_chunk_end_gives_nothing() -> None:
    cut = Chunk("c#2", "c.rst", "--alpha\n\nEnables the alpha checks.\n\n--beta\n\nEnables the beta checks of every\n",
                0, 14, {"section": "Options", "defines": "--alpha, --beta"})
    skipped: Counter = Counter()
    assert [f.answer for f in option_facts(cut, skipped)] == ["--alpha"]
    assert skipped["doc_opt_cut"] == 1
    help_cut = Chunk("h#1", "h.rst", "Options:\n  --one   Enables one.\n  --two   Enables two.\n  --three  Enables the\n",
                     0, 14, {"section": "Usage"})
    skipped = Counter()
    assert [f.answer for f in option_facts(help_cut, skipped)] == ["--one", "--two"]
    assert skipped["doc_opt_cut"] == 1
    # an option named in prose, not in `defines` and not the heading: no entry
    prose = Chunk("p#0", "p.rst", "Intro\n\n--alpha\n\nEnables the alpha checks.\n", 0, 8, {"section": "Intro"})
    assert option_facts(prose, Counter()) == []


def test_announcements_in_a_documentation_folder() -> None:
    assert announcement_page("p/announce/sprint.rst", "python testing sprint", "We met.")
    assert announcement_page("p/release-4.6.5.rst", "pytest-4.6.5", "pytest 4.6.5 has just been released to PyPI.")
    assert announcement_page("p/r.md", "HTTPX 0.18.0", "We are announcing HTTPX 0.18.")
    assert not announcement_page("p/r.md", "pytest-4.6.5", "A page with no word of it.")
    assert not announcement_page("p/api.md", "API", "Released under the MIT licence.")
    pages = {"p/api.md": True, "p/a/r1.md": False, "w/Windows_10": False}
    titles = {"p/a/r1.md": "p 1.0", "w/Windows_10": "Windows 10"}
    texts = {"p/a/r1.md": "p 1.0 is released.", "w/Windows_10": "Windows 10 was released in 2015."}
    # a corpus's group with no documentation page (Wikipedia) is untouched
    assert with_announcements(pages, titles, texts) == {"p/api.md": True, "p/a/r1.md": True, "w/Windows_10": False}


def _generate(chunks: list[Chunk], config: NaturalConfig, **read: bool) -> dict[str, Candidate]:
    return generate_single_hop(chunks, 300, config, **read)[1]


def test_the_generator_asks_them_named_and_keeps_announcements_out(chunks: list[Chunk]) -> None:
    asked = _generate(chunks, NaturalConfig())
    assert asked["Which numbat command-line option makes numbat report every tunnel that has no exit?"].answer == "--strict-tunnels"
    assert asked["Which numbat command-line option stops digging at the given depth?"].answer == "--max-depth"
    assert asked["What is the default value of the burrow_cache setting in numbat?"].answer == "True"
    # an answer its question gives away is not asked ("… check burrows down to the given depth?" → "--depth")
    assert not any(c.answer in ("--depth", "burrow_cache") for c in asked.values())
    # the announcements are most of the folder: with them documentation, no page is asked by a sentence template
    assert all(c.supporting[0].doc_id in ("numbat/command_line.rst", "numbat/settings.rst", "numbat/usage.rst")
               for c in asked.values()), sorted(asked)


def test_flags_off_ask_as_main(chunks: list[Chunk]) -> None:
    # doc_group=0 too: session 43's second round makes a group holding documentation pages documentation whole
    off = NaturalConfig(**parse_mix("options=0,announce=0,doc_group=0"))
    asked = _generate(chunks, off, doc_options=False)
    assert not any(q.startswith("Which") and ("option" in q or "setting" in q) for q in asked)
    assert not any(c.supporting[0].doc_id == "numbat/settings.rst" for c in asked.values())
    # the defect, as main: the folder is mostly announcements, so not documentation, and the sentence templates ask
    # its history page ("Which organization was History migrated to?" → "Mercurial")
    assert asked["Which organization was History migrated to?"].answer == "Mercurial"


def test_mix_keys() -> None:
    assert parse_mix("options=0,announce=0") == {"doc_options": 0.0, "doc_announce": 0.0}
    assert NaturalConfig().doc_options == 1.0 and NaturalConfig().doc_announce == 1.0
    with pytest.raises(ValueError, match="options=0|1"):
        parse_mix("option=0")


def test_a_programs_page_and_verbs_that_agree() -> None:
    # "Automatic stub generation (stubgen)": the options are stubgen's, not the project's main command's
    src = ("-p PACKAGE, --package PACKAGE\n\nGenerate stubs for the given package.\n\n--ff, --failed-first\n\n"
           "Run all tests, but run the last failures first.\n\n--json\n\nOutput the signature as JSON, so that a tool "
           "can read it and add the signature to the file.\n\nend\n")
    page = Chunk("s#1", "s.rst", src, 0, 40, {"title": "Automatic stub generation (stubgen)", "section": "Options",
                                              "defines": "-p, --package, --ff, --failed-first, --json"})
    got = {f.ask: f.answer for f in option_facts(page, Counter())}
    assert got == {
        "Which stubgen option generates stubs for the given package?": "--package",
        "Which stubgen option runs all tests, but runs the last failures first?": "--failed-first",
        "Which stubgen option outputs the signature as JSON, so that a tool can read it and add the signature to the file?":
            "--json",
    }
