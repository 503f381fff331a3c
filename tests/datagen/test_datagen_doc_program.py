"""A Sphinx `.. program:: NAME` names the command whose `.. option::` entries follow (issue 36, session 45).

mypy's docs open their daemon's page with `.. program:: dmypy`; the rST reader dropped the directive, so its
`--verbose` ("Increase verbosity of types string representation") was asked as "Which mypy command-line option
…?" — mypy's own `--verbose` is another option. The page below holds two programs' options, one name in both,
read by the real reader and chunker: each entry carries its program in the chunk's "programs" metadata, its text
stays Sphinx's ("--timeout TIMEOUT"), and datagen asks each by its own command. Old code: no "programs", both
asked as the project's "Which command-line option …?"."""

from __future__ import annotations

import re

import pytest
from datagen_fixtures import facts_asked, folder_chunks

from corpus_tools.rst_reader import read_rst
from corpus_tools.types import Chunk
from datagen.doc_options import LISTS, NOUNS, PROGRAM, THIS, option_facts
from datagen.natural import NaturalConfig, parse_mix
from datagen.run import option_shapes

PAGE = """\
Daemon and checker
==================

.. program:: burrow

.. option:: --timeout SECONDS

   Stop checking a burrow after the given number of seconds.

.. program:: burrowd

.. option:: --timeout TIMEOUT

   Stop the server after the given number of idle seconds.

.. option:: -l, --log-file FILE

   Write the server's log to the given file.

.. envvar:: BURROWD_HOME

   Where the server keeps its state.

.. program:: None

.. option:: --plain

   Print the report without colors.
"""


@pytest.fixture(scope="module")
def chunks(tmp_path_factory: pytest.TempPathFactory) -> list[Chunk]:
    folder = tmp_path_factory.mktemp("programs")
    (folder / "daemon.rst").write_text(PAGE, encoding="utf-8")
    return folder_chunks(folder)


def test_the_reader_records_each_entrys_program_and_writes_no_text() -> None:
    doc = read_rst(PAGE)
    assert "burrowd" not in doc.text and ".. program" not in doc.text  # Sphinx shows no text for it
    assert "--timeout SECONDS\n" in doc.text and "--timeout TIMEOUT\n" in doc.text
    [part] = doc.parts
    at = {doc.text[offset:].split("\n", 1)[0]: program for offset, program in part.programs}
    # the entries only (not the envvar), "None" ends the scope
    assert at == {"--timeout SECONDS": "burrow", "--timeout TIMEOUT": "burrowd", "-l, --log-file FILE": "burrowd"}
    assert doc.dropped["program"] == 3


def test_the_chunk_carries_each_options_program(chunks: list[Chunk]) -> None:
    [chunk] = chunks
    assert chunk.metadata["programs"] == "--timeout burrow, --timeout burrowd, -l burrowd, --log-file burrowd"
    assert chunk.metadata["defines"] == "--timeout, -l, --log-file, BURROWD_HOME, --plain"  # unchanged


def test_each_option_is_asked_as_its_programs(chunks: list[Chunk]) -> None:
    asked, _ = facts_asked(option_facts, chunks, shapes=frozenset({PROGRAM}))
    assert asked == {
        "Which burrow command-line option stops checking a burrow after the given number of seconds?": "--timeout",
        "Which burrowd command-line option stops the server after the given number of idle seconds?":
            "--timeout",
        "Which burrowd command-line option writes the server's log to the given file?": "--log-file",
        "Which command-line option prints the report without colors?": "--plain",
    }
    off, _ = facts_asked(option_facts, chunks, shapes=frozenset())
    assert set(off) == {re.sub(r"^Which burrowd? ", "Which ", q) for q in asked}  # main's questions


def test_a_title_naming_the_program_keeps_its_question() -> None:
    # "Automatic stub generation (stubgen)" with `.. program:: stubgen`: asked as before ("Which stubgen option")
    page = Chunk("s#0", "s.rst", "--json\n\nOutput the signature as JSON.\n", 0, 8,
                 {"title": "Automatic stub generation (stubgen)", "defines": "--json", "programs": "--json stubgen"})
    asked, _ = facts_asked(option_facts, [page], shapes=frozenset({PROGRAM}))
    assert asked == {"Which stubgen option outputs the signature as JSON?": "--json"}


def test_the_mix_flag() -> None:
    assert NaturalConfig().doc_option_program == 1.0
    assert option_shapes(NaturalConfig()) == frozenset({LISTS, THIS, NOUNS, PROGRAM})
    off = NaturalConfig(**parse_mix("option_program=0"))
    assert option_shapes(off) == frozenset({LISTS, THIS, NOUNS})
    with pytest.raises(ValueError, match="option_program=0|1"):
        parse_mix("option_programs=0")
    with pytest.raises(ValueError, match="doc_option_program"):
        NaturalConfig(doc_option_program=2.0)


def test_a_malformed_programs_value_asks_as_the_project() -> None:
    # metadata from an older or hand-written index: a value with no program, or not a string, names none
    for value in ("--json", "", 7, None):
        page = Chunk("c#0", "c.rst", "--json\n\nOutput the signature as JSON.\n", 0, 8,
                     {"defines": "--json", "programs": value})
        asked, _ = facts_asked(option_facts, [page], shapes=frozenset({PROGRAM}))
        assert asked == {"Which command-line option outputs the signature as JSON?": "--json"}
