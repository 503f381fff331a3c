"""A plain word the index records as a defined name is a name of the question (SearchConfig.defined_words).

The pages under tests/fixtures/man_names are made up for these tests: quiver(2), a call whose name is a plain
lowercase word that a command page (spindlectl(1)) repeats more often than the call's own page; spin(2), a call
named by a word the folder's notes (written here) use in every note.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from corpus_tools import Corpus, CorpusConfig
from corpus_tools.config import SearchConfig
from corpus_tools.defined_names import asked_as_name, lift_defined, query_names

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "man_names"


def test_a_plain_word_is_a_name_only_when_the_index_defines_it():
    defined = {"openat2", "read", "is"}.__contains__
    assert query_names("What does openat2 do?") == set()  # code-shaped tokens only, as before
    assert query_names("What does openat2 do?", defined) == {"openat2"}
    assert query_names("What does opendir do?", defined) == set()  # not defined here
    assert query_names("What is openat2 for?", defined) == {"openat2"}  # a grammar word is never a name
    assert query_names("How do I call openat2 safely?", defined) == {"openat2"}
    # a question naming code asks for that name's entry: the plain word is not added beside it
    assert query_names("When does openat2 fail with E2BIG?", defined) == {"E2BIG"}
    # odd input: empty, non-ASCII words, punctuation around the name
    assert query_names("", defined) == set() and query_names("¿Qué hace «openat2»?", defined) == {"openat2"}


def test_a_common_word_is_a_name_only_when_asked_as_one():
    defined, common = {"read", "mount"}.__contains__, {"read", "mount"}.__contains__
    assert query_names("How do I read a file in chunks?", defined, common) == set()
    assert query_names("What does read do?", defined, common) == {"read"}
    assert query_names("Is read(2) safe in a signal handler?", defined, common) == {"read"}
    assert query_names("Which option of the mount command makes it readonly?", defined, common) == {"mount"}
    assert query_names("Can I mount a disk twice?", defined, common) == set()
    assert asked_as_name("What does read() return?", "read")
    assert not asked_as_name("What does the reader do?", "read")
    # the caller's names drive the lift; without them lift_defined reads the query as before
    fused = [("a", 1.0), ("b", 0.9)]
    assert lift_defined("What does read do?", fused, ["", "read"], 0.5) == fused
    assert lift_defined("What does read do?", fused, ["", "read"], 0.5, tokens={"read"})[0][0] == "b"


def test_the_flag_is_a_share_and_off_by_default_values():
    assert SearchConfig(defined_words=0.02).defined_words == 0.02
    for bad in (-0.1, "yes", True):
        with pytest.raises(ValueError):
            SearchConfig(defined_words=bad)


@pytest.fixture(scope="module")
def index(tmp_path_factory, cache_dir) -> Path:
    folder = tmp_path_factory.mktemp("names") / "pages"
    shutil.copytree(FIXTURES, folder)
    notes = folder / "notes"
    notes.mkdir()
    for n in range(24):  # "spin" in every note: a common word of this folder, not a name
        (notes / f"rotor-{n:02d}.md").write_text(
            f"# Rotor {n}\n\nRotor {n} can spin at {1000 + 50 * n} turns a minute; under load it may spin "
            f"{n + 2} percent slower, and it must not spin while bay {n} is open.\n", encoding="utf-8")
    (notes / "turbine.md").write_text(
        "# Turbine\n\nUnder full load the turbine blades spin at 3000 turns a minute, the fastest of the plant.\n",
        encoding="utf-8")
    out = tmp_path_factory.mktemp("names-index") / "index"
    Corpus.build(folder, out, config=CorpusConfig(embedding_cache=str(cache_dir), chroma=False),
                 progress=False).close()
    return out


def _top(index: Path, query: str, share: float, k: int = 3) -> list[tuple[str, str]]:
    base = Corpus.open(index)
    search = SearchConfig(**{**base.config.search.__dict__, "defined_words": share})
    base.close()
    with Corpus.open(index, search=search) as corpus:
        return [(h.chunk.doc_id, h.chunk.text) for h in corpus.search(query, k=k)]


def test_a_lowercase_call_named_in_a_question_finds_its_page(index):
    on = _top(index, "What does quiver do?", 0.02)
    assert on[0][0] == "man2/quiver.2" and "how often a spindle is polled" in on[0][1]
    assert _top(index, "When does quiver fail with ERANGE?", 0.02)[0][0] == "man2/quiver.2"


def test_a_common_word_that_is_a_defined_name_does_not_pull_its_page(index):
    question = "How fast do the turbine blades spin under full load?"
    on = _top(index, question, 0.02, k=5)
    assert on == _top(index, question, 0.0, k=5)  # "spin" is in 26 chunks and not asked as a name: untouched
    assert on[0][0] == "notes/turbine.md"
    # what the guard stops: with a share no word of this folder exceeds, "spin" is taken and spin(2) comes first
    assert _top(index, question, 0.9)[0][0] == "man2/spin.2"
    assert _top(index, "What does spin do?", 0.02)[0][0] == "man2/spin.2"  # asked as a name: its page

