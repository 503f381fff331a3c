"""Options lists in the shapes session 43's reader refused, and a project named by what its folder declares (issue
36, session 44). Each fixture is an invented tool ("wombat") written as real documentation writes it:

- a bulleted list (Poetry's `docs/cli.md`: "- --group (-G): The group to add the dependency to.", a click/typer
  page: "- --host TEXT - Bind socket to this host.  [default: 127.0.0.1]");
- a description whose "this …" is the option's own value ("Bind socket to this host.") and one whose "this" is the
  tool itself ("Display this application version." of `--version`, which takes no value);
- noun-phrase descriptions ("The number of worker processes.", "How many characters per line to allow.") and
  imperatives the tagger reads as noun phrases ("Clean output directory before building.");
- a group its folder name does not name ("checkout/"), whose Sphinx conf.py declares `project = "Wombat"`, a README
  title, and a project its prose writes only in lower case.

Old code (22d84e9): no bullet is read, every "this …" and noun phrase is refused, and the group stays unnamed."""

from __future__ import annotations

from collections import Counter

import pytest
from datagen_fixtures import facts_asked

from corpus_tools.types import Chunk
from datagen.doc_options import LISTS, NOUNS, SHAPES, THIS, option_facts
from datagen.doc_projects import declared_names, project_names
from datagen.natural import NaturalConfig, parse_mix
from datagen.run import option_shapes

BULLETS = """Options

- --group (-G): The group to add the dependency to.
- --dev (-D): Add package as development dependency. (shortcut for -G dev)
- --dry-run: Output the operations but do not execute anything (implicitly enables --verbose).
- --host TEXT - Bind socket to this host.  [default: 127.0.0.1]
- --workers INTEGER - The number of worker processes.
- --line-length=LENGTH: How many characters per line to allow.
- --version (-V): Display this application version.
- --clean: Clean output directory before building.
- --debug: Debug mode.
- --log FILE: Write the log to FILE.
- --keep NUM: How many sessions should the tool keep the directories.
- -k foobar: syntax.
- --import-mode=MODE: Prepend/append to sys.path when importing test modules.
- --quiet: Per-test capturing method:
- --lock: Do not
"""


def _asked(chunk: Chunk, shapes: frozenset[str], skipped: Counter | None = None) -> dict[str, str]:
    return facts_asked(option_facts, [chunk], skipped, shapes=shapes)[0]


def _page(text: str) -> Chunk:
    return Chunk("w#3", "wombat/cli.md", text, 0, len(text.split()), {"title": "Commands", "section": "Commands > add > Options"})


def test_a_bulleted_options_list() -> None:
    skipped: Counter = Counter()
    got = _asked(_page(BULLETS), SHAPES, skipped)
    assert got == {
        "Which command-line option sets the group to add the dependency to?": "--group",
        "Which command-line option adds package as development dependency?": "--dev",
        # the second verb agrees ("do not" → "does not")
        "Which command-line option outputs the operations but does not execute anything?": "--dry-run",
        "Which command-line option sets the host to bind socket to?": "--host",
        "Which command-line option sets the number of worker processes?": "--workers",
        "Which command-line option sets how many characters per line to allow?": "--line-length",
        # an imperative the tagger reads as a noun phrase ("Clean" an adjective) is asked as the verb it is
        "Which command-line option cleans output directory before building?": "--clean",
    }
    # refused and counted: "this application" of --version (no value: the tool itself, not the option's value),
    # "Debug mode." of a flag (names no value), "Write the log to FILE." (its placeholder), "Per-test capturing
    # method:" (no sentence), "Do not" (cut by the chunk's end), "How many sessions should the tool keep …" (a
    # question's word order), "syntax." (one word), "Prepend/append to sys.path …" (two verbs)
    assert skipped["doc_opt_this"] == 1
    assert skipped["doc_opt_noun"] >= 3
    assert skipped["doc_opt_cut"] == 1
    assert skipped["doc_opt_not_a_clause"] == 7


def test_each_shape_is_its_own_flag() -> None:
    page = _page(BULLETS)
    # off: session 43's reader reads no bullet at all
    assert _asked(page, frozenset()) == {}
    lists = _asked(page, frozenset({LISTS}))
    assert "Which command-line option adds package as development dependency?" in lists
    assert not any(" sets the " in q or " sets how " in q for q in lists)  # no "this …", no noun phrase
    assert "Which command-line option sets the host to bind socket to?" in _asked(page, frozenset({LISTS, THIS}))
    nouns = _asked(page, frozenset({LISTS, NOUNS}))
    assert "Which command-line option sets the number of worker processes?" in nouns
    assert "Which command-line option sets the host to bind socket to?" not in nouns


def test_noun_phrases_and_this_in_sphinx_entries_and_help_output() -> None:
    # the same shapes in a `.. option::` entry and a help output (session 43's readers), read with the flags on only
    entry = Chunk("e#1", "wombat/cli.rst", "--bind ADDRESS\n\nThe TCP host/address to bind to.\n\n--pid FILE\n\n"
                  "Use this file as the PID file.\n\nend\n", 0, 20,
                  {"section": "Options", "defines": "--bind, --pid"})
    assert _asked(entry, frozenset()) == {}
    assert _asked(entry, SHAPES) == {"Which command-line option sets the TCP host/address to bind to?": "--bind",
                                     "Which command-line option sets the file to use as the PID file?": "--pid"}
    helps = Chunk("h#1", "wombat/usage.rst", "Options:\n  --backlog INTEGER   The maximum number of pending connections.\n"
                  "  --ansi              Force ANSI output.\n\nMore.\n", 0, 20, {"section": "Usage"})
    assert _asked(helps, SHAPES) == {"Which command-line option sets the maximum number of pending connections?": "--backlog"}
    assert _asked(helps, frozenset()) == {}  # "Force ANSI output." holds its line's capitals: as main, refused


def test_a_bullet_the_chunk_opens_on_is_cut() -> None:
    skipped: Counter = Counter()
    assert _asked(_page("- --alpha: Enables alpha.\n- --beta: Enables beta.\n\nend\n"), SHAPES, skipped) == {
        "Which command-line option enables beta?": "--beta"}
    assert skipped["doc_opt_cut"] == 1


def test_a_project_declared_by_its_folder() -> None:
    texts = {"checkout/docs/conf.py": 'import os\n\nproject = "Wombat"\ncopyright = "2020"\n',
             "checkout/docs/usage.rst": "Wombat is run from the shell. Start Wombat with a bind.",
             "checkout/docs/config.rst": "Configure Wombat with a file."}
    titles = {"checkout/docs/usage.rst": "Usage"}
    # main's rule: the folder's name ("checkout") is never written, so no name
    assert project_names(texts, titles) == {}
    assert project_names(texts, titles, files=True) == dict.fromkeys(texts, "Wombat")
    assert declared_names(sorted(texts), texts, titles) == ["Wombat"]
    # a README's title declares it too; a title of many words does not
    readme = {"src/README.md": "Wombat digs.", "src/a.md": "Wombat runs. Wombat stops."}
    assert project_names(readme, {"src/README.md": "Wombat"}, files=True) == dict.fromkeys(readme, "Wombat")
    assert project_names(readme, {"src/README.md": "A tool to dig burrows fast"}, files=True) == {}
    # a declared name the pages never write is no name (a copied conf.py)
    stray = {"x/conf.py": 'project = "Numbat"\n', "x/a.md": "Wombat runs.", "x/b.md": "Wombat stops."}
    assert project_names(stray, {}, files=True) == {}


def test_a_project_its_prose_writes_in_lower_case() -> None:
    texts = {"wombat/a.md": "Install it with pip. Once installed, wombat adds apps: so wombat reads files.",
             "wombat/b.md": "Apps: so wombat runs them, and wombat stops."}
    assert project_names(texts, {}, as_written=True) == {}  # never capitalised: main names nothing
    # the folder's name alone is no declaration: "docs" is written in lower case by prose too
    assert project_names(texts, {}, as_written=True, files=True) == {}
    docs = {"docs/a.md": "Edit it: so docs build.", "docs/b.md": "Files: so docs render, and docs link."}
    assert project_names(docs, {}, files=True) == {}
    declared = {**texts, "wombat/README.md": "Install it."}
    assert project_names(declared, {"wombat/README.md": "wombat"}, as_written=True, files=True) == dict.fromkeys(
        declared, "wombat")


def test_mix_keys_and_flags_off() -> None:
    off = NaturalConfig(**parse_mix("option_lists=0,option_this=0,option_nouns=0,option_program=0,project_files=0"))
    assert option_shapes(off) == frozenset() and off.doc_project_files == 0.0
    assert option_shapes(NaturalConfig()) == SHAPES and NaturalConfig().doc_project_files == 1.0
    with pytest.raises(ValueError, match="option_lists=0|1"):
        parse_mix("option_list=0")
    with pytest.raises(ValueError, match="share in"):
        NaturalConfig(doc_option_nouns=2.0)


def test_a_verb_the_tagger_reads_as_a_noun() -> None:
    # a third person or an imperative `_VERBS` does not hold is asked as the verb it is, never "sets the disallows …"
    entry = Chunk("c#1", "wombat/config.rst", "disallow_any\n\n:type: boolean\n\nDisallows subclassing a value of type Any."
                  "\n\nhide_codes\n\nHides error codes in error messages.\n\nroot_dir\n\nDefaults to the current directory.\n\n"
                  "end\n", 0, 30, {"section": "Settings", "defines": "disallow_any, hide_codes, root_dir"})
    skipped: Counter = Counter()
    assert _asked(entry, SHAPES, skipped) == {
        "Which configuration setting disallows subclassing a value of type Any?": "disallow_any",
        "Which configuration setting hides error codes in error messages?": "hide_codes"}
    assert skipped["doc_opt_noun"] == 1  # "Defaults to …": no value named
    assert _asked(entry, frozenset({LISTS, THIS})) == {}


def test_an_api_name_is_no_setting_to_reword() -> None:
    # an API page's `.. data:: g` entry (its name in `defines`, no dash): main asks it as a "configuration setting"
    # only when its description is a clause; a noun phrase is not reworded into "sets the proxy …" off a
    # configuration page
    api = Chunk("a#1", "wombat/api.rst", "g\n\nA proxy to a namespace object used during a request.\n\nend\n", 0, 12,
                {"title": "API", "section": "API > Application Globals", "defines": "g"})
    assert _asked(api, SHAPES) == {}
    conf = Chunk("a#2", "wombat/config.rst", "pool_size\n\nThe largest number of open connections.\n\nend\n", 0, 12,
                 {"title": "Configuration", "section": "Configuration > Pool", "defines": "pool_size"})
    assert _asked(conf, SHAPES) == {"Which configuration setting sets the largest number of open connections?": "pool_size"}
