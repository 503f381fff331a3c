"""Jupyter notebooks read as documents (corpus_tools/notebook_reader.py, session 45): cells as a person reads them."""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

import pytest

from corpus_tools import notebook_reader
from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.loaders import load_documents
from corpus_tools.notebook_reader import read_notebook, read_notebook_file
from corpus_tools.readers import UnreadableFileError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "notebooks"


def _read(name: str):
    return read_notebook_file(FIXTURES / name)


def test_markdown_cells_make_the_sections_and_code_cells_are_code_parts():
    doc = _read("tutorial.ipynb")
    assert doc.title == "Aggregation and Grouping"
    sections = {p.section for p in doc.parts}
    assert "Aggregation and Grouping > Planets Data > Plotting the years" in sections
    code = [doc.text[p.start:p.end] for p in doc.parts if p.kind == "code"]
    # magics and shell lines are code, kept verbatim; execution counts never reach the text
    assert code[0] == "%matplotlib inline\n!pip install seaborn\nimport pandas as pd\nimport seaborn as sns"
    assert "In [" not in doc.text and "execution_count" not in doc.text
    assert doc.metadata == {"language": "python"}
    # Markdown markup is read by the Markdown reader: emphasis, links and image markup gone, their text kept
    assert "efficient summarization (pandas docs)." in doc.text
    assert "**" not in doc.text and "](" not in doc.text


def test_outputs_are_kept_short_and_marked():
    doc = _read("tutorial.ipynb")
    assert "Output: (1035, 6)" in doc.text
    assert "Output:\nepoch 0 loss 1.0000" in doc.text
    assert "epoch 11 loss 0.0833\n… (18 more lines)" in doc.text and "epoch 29" not in doc.text


def test_a_dataframe_html_output_reads_as_a_table():
    doc = _read("tutorial.ipynb")
    (table,) = [doc.text[p.start:p.end] for p in doc.parts if p.kind == "table"]
    assert "0 | Radial Velocity | 1 | 2006" in table and "method | number | year" in table
    assert "<" not in table and "vertical-align" not in doc.text


def test_images_widgets_scripts_and_tracebacks_are_dropped_and_counted():
    doc = _read("tutorial.ipynb")
    assert dict(doc.dropped) == {"image": 1, "object repr": 3, "widget": 1, "javascript": 1, "traceback": 1,
                                 "stderr output": 1, "raw cell": 1}
    for noise in ("iVBORw0KGgo", "<Figure size", "<Axes", "IntSlider(value", "alert(", "\x1b", "Traceback",
                  "pip is being invoked", "\\newpage"):
        assert noise not in doc.text
    assert "Error: ZeroDivisionError: division by zero" in doc.text


def test_a_cell_source_given_as_one_string_is_read():
    doc = _read("tutorial.ipynb")
    assert "Groupby splits, applies and combines." in doc.text
    assert any(p.section.endswith("Summary") for p in doc.parts)


def test_nbformat_3_worksheets_are_read_with_a_note():
    doc = _read("old_v3.ipynb")
    assert doc.title == "Old Style Notebook"
    assert "x = 41\nx + 1" in doc.text and "Output: 42" in doc.text
    assert "Error: ValueError: invalid literal for int() with base 10: 'x'" in doc.text
    assert "matplotlib.figure.Figure" not in doc.text and "iVBOR" not in doc.text
    assert any("nbformat 3" in note for note in doc.notes)


def test_title_from_metadata_else_none_and_the_kernel_language():
    assert _read("titled.ipynb").title == "Training Notes"
    untitled = _read("no_heading.ipynb")
    assert untitled.title is None and untitled.metadata == {"language": "r"}


@pytest.mark.parametrize(("name", "reason"), [
    ("malformed.ipynb", "not a Jupyter notebook: invalid JSON"),
    ("not_a_notebook.ipynb", "not a Jupyter notebook: the JSON holds a list"),
    ("empty.ipynb", "empty notebook (0 cell(s)"),
])
def test_bad_notebooks_raise_a_clear_reason(name, reason):
    with pytest.raises(UnreadableFileError, match=re.escape(reason)):
        _read(name)


def test_a_bad_cell_is_left_out_with_a_note_not_the_notebook():
    notebook = {"cells": [{"cell_type": "markdown", "source": ["# Kept\n", "\n", "Text."]},
                          {"cell_type": "code", "source": 42, "outputs": []}, "not a cell",
                          {"cell_type": "code", "source": ["x = 1"], "outputs": ["odd"]}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    doc = read_notebook(json.dumps(notebook))
    assert "Text." in doc.text and "x = 1" in doc.text
    assert len(doc.notes) == 3 and "cell 2's source is a int" in doc.notes[0]


def test_a_notebook_of_50_mb_of_images_is_read_images_dropped(tmp_path):
    picture = base64.b64encode(b"\x89PNG" + bytes(range(256)) * 4096).decode()  # ~1.4 MB a figure
    cells = [{"cell_type": "markdown", "source": ["# Figures\n", "\n", "Many plots of the loss."]}]
    cells += [{"cell_type": "code", "source": [f"plot({i})"], "execution_count": i, "metadata": {},
               "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"image/png": picture}}]}
              for i in range(40)]
    path = tmp_path / "figures.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    assert path.stat().st_size > 50 * 2**20
    doc = read_notebook_file(path)
    assert doc.dropped["image"] == 40 and len(doc.text) < 1000 and "plot(39)" in doc.text


def test_a_notebook_over_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(notebook_reader, "MAX_NOTEBOOK_BYTES", 100)
    path = tmp_path / "big.ipynb"
    path.write_text(json.dumps({"cells": [{"cell_type": "markdown", "source": ["x" * 200]}]}))
    with pytest.raises(UnreadableFileError, match="over the 0 MB a notebook is read at; clear its outputs"):
        read_notebook_file(path)


def test_a_folder_indexes_its_notebooks_and_skips_the_bad_ones_with_reasons(tmp_path):
    folder = tmp_path / "course"
    shutil.copytree(FIXTURES, folder, ignore=shutil.ignore_patterns("*.py"))
    (folder / "README.md").write_text("# Course\n\nThe notebooks of the course.\n")
    report = load_documents(folder)
    read = {d.doc_id: d for d in report.documents}
    assert set(read) == {"README.md", "tutorial.ipynb", "old_v3.ipynb", "titled.ipynb", "no_heading.ipynb"}
    assert read["no_heading.ipynb"].title == "no heading"  # the file name, as other readers do
    assert read["tutorial.ipynb"].metadata["markup_dropped"].startswith("image 1, javascript 1")
    assert "nbformat 3" in read["old_v3.ipynb"].metadata["read_note"]
    skipped = {s.path: s.reason for s in report.skipped}
    assert set(skipped) == {"malformed.ipynb", "not_a_notebook.ipynb", "empty.ipynb"}
    assert all(reason.startswith(("not a Jupyter notebook", "empty notebook")) for reason in skipped.values())


class _Words:
    """A whitespace tokenizer: a token a word (enough to test where windows fall)."""

    def offsets(self, text):
        return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]

    def count(self, text):
        return len(text.split())


def test_chunks_keep_the_notebook_sections():
    doc = next(d for d in load_documents(FIXTURES).documents if d.doc_id == "tutorial.ipynb")
    chunks = chunk_document(doc, _Words(), ChunkingConfig(chunk_tokens=40, overlap_tokens=0))
    assert any(c.metadata.get("section", "").endswith("Planets Data") for c in chunks)
    assert all("iVBOR" not in c.text for c in chunks)


def test_a_multiindex_dataframe_carries_its_row_labels_down():
    html = ("<table><thead><tr><th></th><th></th><th>pop</th></tr><tr><th>state</th><th>year</th><th></th></tr></thead>"
            "<tbody><tr><th rowspan=\"2\" valign=\"top\">Texas</th><th>2010</th><td>25145561</td></tr>"
            "<tr><th>2020</th><td>29145505</td></tr></tbody></table>")
    cell = {"cell_type": "code", "source": ["df"], "outputs": [
        {"output_type": "execute_result", "data": {"text/html": [html], "text/plain": ["..."]}}]}
    doc = read_notebook(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4}))
    assert "Texas | 2010 | 25145561\nTexas | 2020 | 29145505" in doc.text and not doc.notes


def test_the_flag_off_skips_notebooks_as_main_did():
    from corpus_tools import readers

    report = load_documents(FIXTURES, notebooks=False)
    assert not report.documents
    reasons = {s.reason for s in report.skipped if s.path.endswith(".ipynb")}
    main_supported = sorted(readers.SUPPORTED_SUFFIXES - readers.NOTEBOOK_SUFFIXES)
    assert reasons == {f"unsupported file type (.ipynb files; supported: {main_supported})"}


def test_an_index_built_before_reads_no_notebooks_and_a_new_one_does():
    from corpus_tools.config import CorpusConfig

    assert CorpusConfig().read_notebooks is True
    assert CorpusConfig.from_dict({"embedding_model": "m"}).read_notebooks is False
    assert CorpusConfig.from_dict(CorpusConfig().to_dict()).read_notebooks is True
    with pytest.raises(ValueError, match="read_notebooks must be True or False"):
        CorpusConfig(read_notebooks="yes")


def test_sync_adds_notebooks_only_to_an_index_that_reads_them(tmp_path):
    from corpus_tools.config import CorpusConfig
    from corpus_tools.update import sync_folder

    folder = tmp_path / "course"
    folder.mkdir()
    shutil.copy(FIXTURES / "tutorial.ipynb", folder / "tutorial.ipynb")
    (folder / "notes.md").write_text("# Notes\n\nA page.\n")

    class _Index:  # what sync needs of an index: its config, lookups and add (none held yet)
        def __init__(self, config):
            self.config, self.added = config, []

        def has_doc(self, doc_id):
            return False

        def doc_ids(self):
            return []

        def add(self, report):
            self.added.extend(d.doc_id for d in report.documents)
            return len(report.documents)

    for reads, expected in ((False, ["notes.md"]), (True, ["notes.md", "tutorial.ipynb"])):
        index = _Index(CorpusConfig(read_notebooks=reads))
        assert sorted(sync_folder(index, folder).added) == expected == sorted(index.added)


def test_a_progress_bar_output_is_dropped_not_its_text_twin_kept():
    progress = {"output_type": "display_data", "metadata": {}, "data": {
        "text/html": ["<progress value='1' max='1'></progress> 100.00% [1/1 00:02]"],
        "text/plain": ["<IPython.core.display.HTML object>"]}}
    cell = {"cell_type": "code", "source": ["learn.fine_tune(1)"], "outputs": [progress]}
    doc = read_notebook(json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4}))
    assert doc.text == "learn.fine_tune(1)" and doc.dropped["object repr"] == 1
