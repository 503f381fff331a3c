"""Questions from Jupyter notebooks (session 47, issue 36: a folder of notebooks gave 0 tasks).

The fixtures `tests/fixtures/notebook_datagen/` (written for these tests by its `make_fixtures.py`, in Jupyter 7's
shapes) are a tutorial titled with its library ("Working with NumPy Arrays": a defined term, a sentence on what a
named function does, printed shapes, and sentences that only look like definitions), the same tutorial with its
outputs cleared, a tutorial whose title names no library, a notebook of code cells only (a printed sentence that
reads like a definition) and a German notebook. Base 9cb9e37 has no notebook reader in datagen: 0 notebook facts.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

from datagen_fixtures import WordTokenizer

from corpus_tools import load_documents
from corpus_tools.chunking import ChunkingConfig, chunk_documents
from datagen.doc_notebooks import FUNCTION, SHAPE, TERM, is_notebook, notebook_facts, title_library
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate
from datagen.verify import check_candidate

FOLDER = Path(__file__).parents[1] / "fixtures" / "notebook_datagen"


def _mined():
    report = load_documents(FOLDER)
    chunks = list(chunk_documents(report.documents, WordTokenizer(), ChunkingConfig()))
    return chunks, mine(chunks)


def _facts(doc_id: str) -> tuple[dict[str, tuple[str, str]], Counter]:
    """question → (relation, answer) of one fixture notebook, and what was refused."""
    _, mined = _mined()
    skipped: Counter = Counter()
    facts = notebook_facts(doc_id, mined.titles[doc_id], mined.chunks[doc_id], skipped)
    return {f.ask.replace("{s}", f.subject): (f.relation, f.answer) for f in facts}, skipped


def test_a_tutorial_gives_its_defined_term_its_function_and_a_named_shape() -> None:
    facts, skipped = _facts("quokka-arrays.ipynb")
    assert facts == {
        # the sentence names the library its title names: asked as the library's
        "What is a stride table in NumPy?": (TERM, "a compact record of byte offsets between neighbouring elements of a "
                                                   "NumPy array"),
        # a term the sentence does not tie to the library is the notebook's
        "In the notebook “Working with NumPy Arrays”, what is a dope vector?": (TERM, "a small header describing an "
                                                                                  "array's memory"),
        "Which NumPy function joins a sequence of arrays along an existing axis?": (FUNCTION, "np.concatenate"),
        # an opening phrase before the function, the sentence cut at its first clause ("…, and returns them …")
        "Which NumPy function stacks the rows of its inputs?": (FUNCTION, "np.vstack"),
        "In the notebook “Working with NumPy Arrays”, what is the shape of burrows.depths?": (SHAPE, "(2048, 12)"),
    }
    # "This chapter shows …", "There are a number of …", "The result is a faster loop.", "This is a very common
    # pattern.": no term; `x.shape`: a placeholder's shape
    assert skipped["nb_not_a_term"] >= 3 and skipped["nb_shape_generic"] == 1
    assert skipped["nb_shape_not_data"] == 1  # `steps.shape`: a step of the computation, not a data set
    assert skipped["nb_function_deictic"] == 1  # "np.where recognizes that each burrow depth is …": the example's


def test_cleared_outputs_give_no_shape_and_the_prose_still_reads() -> None:
    facts, _ = _facts("cleared/quokka-arrays-cleared.ipynb")
    assert {r for r, _ in facts.values()} == {TERM, FUNCTION}


def test_a_title_naming_no_library_names_the_notebook() -> None:
    facts, _ = _facts("burrow-surveys.ipynb")
    assert facts["In the notebook “Burrow Surveys”, what is a burrow census?"] == (
        TERM, "a yearly count of occupied burrows along a fixed transect")


def test_a_notebook_of_code_only_reads_no_printed_sentence() -> None:
    facts, _ = _facts("code-only.ipynb")
    assert {r for r, _ in facts.values()} == {SHAPE}  # "A quokka is a small marsupial …" was printed, not written


def test_a_german_notebook_gives_no_prose_fact() -> None:
    facts, _ = _facts("rechnen.ipynb")
    assert {r for r, _ in facts.values()} <= {SHAPE}


def test_the_library_is_the_one_the_title_names() -> None:
    assert title_library("Computation on NumPy Arrays: Universal Functions") == "NumPy"
    assert title_library("Introducing Scikit-Learn") == "Scikit-Learn"
    assert title_library("In Depth: Principal Component Analysis") == ""  # the notebook plots with Matplotlib: not it
    assert title_library("Pandas and NumPy") == ""  # two: neither


def test_only_a_notebook_is_read() -> None:
    chunk = SimpleNamespace(doc_id="guide.md", chunk_id="guide.md#0", text="A stride table is a compact record of offsets.")
    assert not is_notebook("guide.md", {"file_name": "guide.md"})
    assert is_notebook("x", {"file_name": "Lesson.IPYNB"})
    # the reader itself reads any text; `read_facts` gives it notebooks only (the next test)
    assert notebook_facts("guide.md", "Guide", [chunk], Counter())


def _generated(config: NaturalConfig) -> dict[str, str]:
    chunks, mined = _mined()
    base = read_facts(mined, load_pipeline(), notebooks=bool(config.doc_notebooks),
                      notebook_printed=bool(config.doc_nb_printed), notebook_defaults=bool(config.doc_nb_defaults),
                      notebook_wrapped=bool(config.doc_nb_wrapped))
    gen = NaturalGenerator(mined, base, config)
    rng, asked = random.Random(0), {}
    for _ in range(60):
        if gen.exhausted(1) is not None:
            break
        c = gen.propose(1, rng)
        if isinstance(c, Candidate):
            verdict = check_candidate(c, {d: mined.doc_text(d) for d in mined.chunks},
                                      {ch.chunk_id: ch.text for ch in chunks}, mined.titles)
            if verdict.accepted:
                gen.commit(c)
                asked[c.question] = c.answer
    return asked


def test_notebook_questions_are_asked_and_verified_by_default_and_none_when_off() -> None:
    asked = _generated(NaturalConfig())
    assert asked["What is a stride table in NumPy?"].startswith("a compact record of byte offsets")
    assert asked["Which NumPy function joins a sequence of arrays along an existing axis?"] == "np.concatenate"
    assert asked["In the notebook “Burrow Surveys”, what is a burrow census?"].startswith("a yearly count")
    assert not any("quokka" in q.lower() and "marsupial" in a for q, a in asked.items())
    assert _generated(NaturalConfig(**parse_mix("notebooks=0"))) == {}  # as 9cb9e37: a notebook folder gave nothing


def test_a_legend_defining_two_marks_in_one_sentence_is_no_term() -> None:
    # a plot's legend reads as a definition, and its marks are nothing a learner asks the notebook about (session 47's
    # reporting read: "In the notebook “Chapter 3”, what is a red square?")
    chunk = SimpleNamespace(doc_id="clusters.ipynb", chunk_id="clusters.ipynb#0", text=(
        "A hollow diamond is an assignment to the northern colony, and a filled diamond is an assignment to the "
        "southern colony.\n\nA burrow census is a yearly count of occupied nesting holes."))
    skipped: Counter = Counter()
    facts = notebook_facts("clusters.ipynb", "Colony Assignments", [chunk], skipped)
    assert [f.subject for f in facts] == ["a burrow census"]
    assert skipped["nb_term_paired"] == 1


def test_a_title_other_notebooks_share_names_none_of_them() -> None:
    # a book's every chapter titled by the book: "In the notebook “Burrow Field Guide”, …" names no one notebook, so
    # what needs the title is refused and counted; a term its library names is still asked
    chunk = SimpleNamespace(doc_id="ch05.ipynb", chunk_id="ch05.ipynb#0", text=(
        "A dope vector is a small header describing an array's memory.\n\n"
        "A stride table is a compact record of byte offsets in a NumPy array.\n\n"
        "burrows.data.shape\n\nOutput: (2048, 12)\n"))
    shared: Counter = Counter()
    facts = notebook_facts("ch05.ipynb", "Burrow Field Guide with NumPy", [chunk], shared, unique_title=False)
    assert [f.ask.replace("{s}", f.subject) for f in facts] == ["What is a stride table in NumPy?"]
    assert shared["nb_title_shared"] == 2  # the dope vector and the shape
    alone = notebook_facts("ch05.ipynb", "Burrow Field Guide with NumPy", [chunk], Counter())
    assert len(alone) == 3


# Session 48 (issue 36: a notebook folder yields by default): labelled printed results, a named argument's stated
# default and a definition wrapped over two lines, each under its `--mix` key; the fixtures `quokka-counts*.ipynb` and
# `other/` (make_fixtures.py `results`, `german_results`). Base d7ae532 reads none of them.
NEW = {"printed": True, "defaults": True, "wrapped": True}


def _new_facts(doc_id: str, **flags: bool) -> tuple[dict[str, tuple[str, str]], Counter]:
    _, mined = _mined()
    skipped: Counter = Counter()
    facts = notebook_facts(doc_id, mined.titles[doc_id], mined.chunks[doc_id], skipped, **flags)
    return {f.ask.replace("{s}", f.subject): (f.relation, f.answer) for f in facts}, skipped


def test_labelled_printed_results_a_stated_default_and_a_wrapped_definition_are_read() -> None:
    from datagen.doc_notebooks import DEFAULT, PRINTED

    facts, skipped = _new_facts("quokka-counts.ipynb", **NEW)
    title = "In the notebook “Counting Quokka Burrows”"
    assert facts == {
        # "test_acc" as a learner writes it
        f"{title}, what is the test accuracy?": (PRINTED, "0.9412"),
        f"{title}, how many occupied burrows are there in total?": (PRINTED, "1284"),
        f"{title}, what is the mean burrow depth?": (PRINTED, "41.7"),
        f"{title}, what does the min_depth keyword default to?": (DEFAULT, "15"),
        # the sentence goes on over a second line: read as one
        f"{title}, what is a transect survey?": (TERM, "a census of occupied burrows along a fixed line of marker posts"),
    }
    assert skipped["nb_printed_indented"] == 1  # the loop's "Burrows counted:", printed twice
    assert skipped["nb_printed_no_value"] == 1  # "Validation accuracy:": the cell raised ValueError
    assert skipped["nb_printed_not_result"] == 1  # "Random seed: 42"


def test_every_new_kind_is_off_by_its_key() -> None:
    assert _new_facts("quokka-counts.ipynb")[0] == {}  # session 47's reader: one line per sentence, no print read
    facts, _ = _new_facts("quokka-counts.ipynb", printed=True)
    assert {r for r, _ in facts.values()} == {"doc:nb_printed"}
    facts, _ = _new_facts("quokka-counts.ipynb", defaults=True)
    assert list(facts.values()) == [("doc:nb_default", "15")]
    facts, _ = _new_facts("quokka-counts.ipynb", wrapped=True)
    assert {r for r, _ in facts.values()} == {TERM}
    assert {k: v for k, v in parse_mix("nb_printed=0,nb_defaults=0,nb_wrapped=0").items()} == {
        "doc_nb_printed": 0.0, "doc_nb_defaults": 0.0, "doc_nb_wrapped": 0.0}


def test_cleared_outputs_print_no_result_and_the_prose_still_reads() -> None:
    facts, skipped = _new_facts("cleared/quokka-counts-cleared.ipynb", **NEW)
    assert {r for r, _ in facts.values()} == {TERM, "doc:nb_default"}
    assert skipped["nb_printed_no_value"] == 5  # every labelled print outside the loop: nothing printed under it


def test_a_print_in_another_kernel_or_another_language_is_not_asked() -> None:
    julia, skipped = _new_facts("other/quokka-counts-julia.ipynb", **NEW)
    assert "doc:nb_printed" not in {r for r, _ in julia.values()} and skipped["nb_printed_language"] == 1
    german, skipped = _new_facts("other/baue-zaehlen.ipynb", **NEW)
    assert german == {} and skipped["nb_printed_language"] == 1  # not "what is the mittlere tiefe?"


def test_a_print_with_no_label_or_a_placeholder_label_gives_nothing() -> None:
    chunk = SimpleNamespace(doc_id="depths.ipynb", chunk_id="depths.ipynb#0", metadata={"language": "python"}, text=(
        "print(depths.max())\n\nOutput: 88\n\nprint(\"x =\", x)\n\nOutput: x = 3\n\n"
        "print(\"Deepest burrow:\", depths.max())\n\nOutput: Deepest burrow: deep\n\n"
        "print(\"Standard deviation:\", depths.std())\n\nOutput: Standard deviation: 6.2\n\n"
        "print(\"Burrows deeper than 40 cm:\", deep)\n\nOutput: Burrows deeper than 40 cm: 311\n"))
    skipped: Counter = Counter()
    assert notebook_facts("depths.ipynb", "Burrow Depths", [chunk], skipped, **NEW) == []
    # "x =", a statistic of nothing named, a label holding a number (a condition); a word, not a number
    assert skipped["nb_printed_not_result"] == 3 and skipped["nb_printed_no_value"] == 1


def test_printed_results_are_asked_and_verified_by_default() -> None:
    asked = _generated(NaturalConfig())
    assert asked["In the notebook “Counting Quokka Burrows”, what is the test accuracy?"] == "0.9412"
    assert asked["In the notebook “Counting Quokka Burrows”, what does the min_depth keyword default to?"] == "15"
    assert not any("mittlere" in q.lower() or "random seed" in q.lower() for q in asked)
    off = _generated(NaturalConfig(**parse_mix("nb_printed=0,nb_defaults=0,nb_wrapped=0")))
    assert not any("Counting Quokka Burrows" in q for q in off)


def test_a_print_that_reads_as_a_sentence_or_carries_a_unit_is_asked_by_its_quantity() -> None:
    chunk = SimpleNamespace(doc_id="depths.ipynb", chunk_id="depths.ipynb#0", metadata={"language": "python"}, text=(
        "print(\"The mean burrow depth is\", depths.mean(), \"cm\")\n\nOutput: The mean burrow depth is 41.7 cm\n\n"
        "print(\"Total soil removed:\", removed, \"kg\")\n\nOutput: Total soil removed: 12 kg\n"))
    facts = notebook_facts("depths.ipynb", "Burrow Depths", [chunk], Counter(), **NEW)
    assert {f.ask.replace("{s}", f.subject): f.answer for f in facts} == {
        "In the notebook “Burrow Depths”, what is the mean burrow depth?": "41.7 cm",
        # a mass, not a count: no "how many soil removed"
        "In the notebook “Burrow Depths”, what is the total soil removed?": "12 kg",
    }


def test_a_long_cells_output_in_the_next_passage_is_read_there() -> None:
    # a cell longer than a passage: its print in one passage, "Output:" opening the next; the fact is the next's
    first = SimpleNamespace(doc_id="long.ipynb", chunk_id="long.ipynb#0", metadata={"language": "python"},
                            text="burrows = qk.load_transect('rottnest')\nprint('Number of transects:', len(burrows))\n"
                                 "depths = qk.depths(burrows)")
    second = SimpleNamespace(doc_id="long.ipynb", chunk_id="long.ipynb#1", metadata={"language": "python"},
                             text="depths = qk.depths(burrows)\n\nOutput: Number of transects: 14\n")
    facts = notebook_facts("long.ipynb", "Long Cells", [first, second], Counter(), **NEW)
    assert [(f.ask.replace("{s}", f.subject), f.answer, f.chunk_id) for f in facts] == [
        ("In the notebook “Long Cells”, how many transects are there?", "14", "long.ipynb#1")]


def test_a_data_sets_printed_length_is_asked_and_a_placeholders_is_not() -> None:
    chunk = SimpleNamespace(doc_id="lengths.ipynb", chunk_id="lengths.ipynb#0", metadata={"language": "python"}, text=(
        "len(burrow_samples)\n\nOutput: 2048\n\nlen(x)\n\nOutput: 5\n\nlen(steps)\n\nOutput: 12\n"))
    skipped: Counter = Counter()
    facts = notebook_facts("lengths.ipynb", "Burrow Lengths", [chunk], skipped, **NEW)
    assert [(f.ask.replace("{s}", f.subject), f.answer) for f in facts] == [
        ("In the notebook “Burrow Lengths”, what is the length of burrow_samples?", "2048")]
    assert skipped["nb_length_generic"] == 1 and skipped["nb_length_not_data"] == 1
    assert notebook_facts("lengths.ipynb", "Burrow Lengths", [chunk], Counter()) == []  # `--mix nb_printed=0`


def test_a_models_predictions_or_a_files_lines_are_no_data_set_to_ask_the_length_of() -> None:
    # session 48's reporting read: "what is the length of y_pred?" and "… of text_lines?" (lines a file's .readlines()
    # gave) read unnatural; X_burrows and a table pd.read_csv loaded are data sets
    chunk = SimpleNamespace(doc_id="preds.ipynb", chunk_id="preds.ipynb#0", metadata={"language": "python"}, text=(
        "report_lines = open('notes.txt').readlines()\nsurvey = pd.read_csv('survey.csv')\n\n"
        "len(y_pred)\n\nOutput: 150\n\nlen(y_hat_test)\n\nOutput: 38\n\nlen(report_lines)\n\nOutput: 431\n\n"
        "len(X_burrows)\n\nOutput: 1200\n\nlen(survey)\n\nOutput: 96\n"))
    skipped: Counter = Counter()
    facts = notebook_facts("preds.ipynb", "Burrow Predictions", [chunk], skipped, **NEW)
    assert [(f.subject, f.answer) for f in facts] == [("X_burrows", "1200"), ("survey", "96")]
    assert skipped["nb_length_not_data"] == 3
