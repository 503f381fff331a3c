"""A plain word the index records as a defined name is a name of the question (SearchConfig.defined_words).

The pages under tests/fixtures/man_names are made up for these tests: quiver(2), a call whose name is a plain
lowercase word that a command page (spindlectl(1)) repeats more often than the call's own page; spin(2), a call
named by a word the folder's notes (written here) use in every note, asked about and said in passing.
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
    defined = {"openat2", "read", "is", "mount", "utmp"}.__contains__
    assert query_names("What does openat2 do?") == set()  # code-shaped tokens only, as before
    assert query_names("What does openat2 do?", defined) == {"openat2"}
    assert query_names("What does opendir do?", defined) == set()  # not defined here
    assert query_names("What is utmp used for?", defined) == {"utmp"}
    assert query_names("What is is for?", defined) == set()  # a grammar word is never a name
    # a question naming code asks for that name's entry: the plain word is not added beside it
    assert query_names("When does openat2 fail with E2BIG?", defined) == {"E2BIG"}
    # odd input: empty, non-ASCII words, punctuation around the name
    assert query_names("", defined) == set() and query_names("¿What does «openat2» do?", defined) == set()
    assert query_names("what does  openat2  do", defined) == {"openat2"}


def test_a_word_said_in_passing_is_not_a_name():
    defined = {"read", "mount", "fsync"}.__contains__
    assert query_names("How do I read a file in chunks?", defined) == set()
    assert query_names("What does read do?", defined) == {"read"}
    assert query_names("Which option of the mount command makes it readonly?", defined) == {"mount"}
    assert query_names("Can I mount a disk twice?", defined) == set()
    # a rare name in a question about one detail: that paragraph, not the name's definition, answers it
    assert query_names("Is an explicit fsync() on the directory needed too?", defined) == set()
    assert asked_as_name("Which flags does the open(2) system call take?", "open")
    assert not asked_as_name("What does the reader do?", "read")
    # the caller's names drive the lift; without them lift_defined reads the query as before
    fused = [("a", 1.0), ("b", 0.9)]
    assert lift_defined("What does read do?", fused, ["", "read"], 0.5) == fused
    assert lift_defined("What does read do?", fused, ["", "read"], 0.5, tokens={"read"})[0][0] == "b"


def test_the_flag_is_true_or_false():
    assert SearchConfig().defined_words is True
    for bad in (0.02, "yes", None):
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


def _top(index: Path, query: str, words: bool, k: int = 3) -> list[tuple[str, str]]:
    base = Corpus.open(index)
    search = SearchConfig(**{**base.config.search.__dict__, "defined_words": words})
    base.close()
    with Corpus.open(index, search=search) as corpus:
        return [(h.chunk.doc_id, h.chunk.text) for h in corpus.search(query, k=k)]


def test_a_lowercase_call_named_in_a_question_finds_its_page(index):
    on = _top(index, "What does quiver do?", True)
    assert on[0][0] == "man2/quiver.2" and "how often a spindle is polled" in on[0][1]
    assert _top(index, "What does quiver do?", False)[0][0] == "man1/spindlectl.1"  # as before: the page saying it most
    assert _top(index, "When does quiver fail with ERANGE?", True)[0][0] == "man2/quiver.2"


def test_a_common_word_that_is_a_defined_name_does_not_pull_its_page(index):
    question = "How fast do the turbine blades spin under full load?"
    on = _top(index, question, True, k=5)
    assert on == _top(index, question, False, k=5)  # "spin" is not asked as a name: untouched
    assert on[0][0] == "notes/turbine.md"
    assert _top(index, "What does spin do?", True)[0][0] == "man2/spin.2"  # asked as a name: its page
