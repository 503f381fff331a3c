"""Unix manual pages read as documents (session 49, corpus_tools/man_reader.py, CorpusConfig.read_man).

The pages under tests/fixtures/man are made up for these tests (a man(7) system call page with a licence header,
a redirect page and a redirect to a missing page, a command page with an unknown macro and an unclosed table, a
Latin-1 page, an empty page, a BSD mdoc page, and a `notes.1` that is no manual page).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from corpus_tools import Corpus, CorpusConfig
from corpus_tools.defined_names import split_defines
from corpus_tools.loaders import load_documents

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "man"
ROFF = re.compile(r"\\f[BIRP]|\\-|\\\(|^\.[A-Za-z]{1,3}\b|\\\"", re.MULTILINE)


@pytest.fixture(scope="module")
def report():
    return load_documents(FIXTURES, man=True)


def _doc(report, doc_id):
    return next(d for d in report.documents if d.doc_id == doc_id)


def _part_text(doc, part):
    return doc.text[part.start:part.end]


def test_a_page_is_titled_as_whatis_shows_it_and_read_without_roff(report):
    page = _doc(report, "man2/frobnicate.2")
    assert page.title == "frobnicate, ffrobnicate, lfrobnicate(2) — adjust the frob level of a widget"
    assert page.metadata["man_section"] == "2"
    assert not ROFF.search(page.text)
    assert "Copyright" not in page.text and "LICENSE" not in page.text  # the licence comments are dropped
    assert "was added in Linux 9.1." in page.text
    sections = [p.section for p in page.parts]
    for name in ("NAME", "SYNOPSIS", "DESCRIPTION", "RETURN VALUE", "ERRORS", "VERSIONS", "SEE ALSO"):
        assert name in sections


def test_an_error_or_option_stays_with_its_text_and_is_defined_there(report):
    page = _doc(report, "man2/frobnicate.2")
    errors = next(p for p in page.parts if p.section == "ERRORS")
    text = _part_text(page, errors)
    assert "EWIDGET\nThe widget named by path was unplugged while the level was being changed." in text
    assert {name for _at, name in errors.defines} == {"EWIDGET", "ELEVEL", "EBADF", "ENOSYS", "ENOMEM", "EBUSY"}
    at = next(at for at, name in errors.defines if name == "EWIDGET")
    assert page.text[at:].startswith("EWIDGET")
    command = _doc(report, "man1/widgetctl.1")
    options = next(p for p in command.parts if p.section == "OPTIONS")
    assert {name for _at, name in options.defines} == {"-r", "--read-only", "-t"}  # not the argument "seconds"
    assert {program for _at, program in options.programs} == {"widgetctl"}  # a command's options are its own
    assert "-r, --read-only\nOpen the widget without changing it" in command.text


def test_examples_and_synopsis_are_code_and_a_table_is_a_table(report):
    page = _doc(report, "man2/frobnicate.2")
    code = [_part_text(page, p) for p in page.parts if p.kind == "code"]
    assert any("int frobnicate(const char *path, int level);" in c for c in code)
    assert any('    return frobnicate("/dev/widget0", 3);' in c for c in code)  # indentation kept
    table = next(p for p in page.parts if p.kind == "table")
    assert "9 | The widget spins at full speed" in _part_text(page, table)


def test_a_redirect_page_is_a_name_of_its_target_not_a_document(report):
    ids = {d.doc_id for d in report.documents}
    assert "man2/lfrobnicate.2" not in ids and "man2/dangling.2" not in ids
    page = _doc(report, "man2/frobnicate.2")
    assert "lfrobnicate" in page.metadata["man_names"].split(", ")
    assert "lfrobnicate" in {name for _at, name in page.parts[0].defines}
    reasons = {s.path: s.reason for s in report.skipped}
    assert "read as a name of man2/frobnicate.2" in reasons["man2/lfrobnicate.2"]
    assert reasons["man2/dangling.2"].startswith("manual page alias of a page not in the folder (man2/vanished.2")  # a .so to a missing file: said, no crash


def test_messy_pages_unknown_macro_unclosed_table_latin1_empty_and_no_man_page(report):
    command = _doc(report, "man1/widgetctl.1")
    assert "a local macro's words" in command.text  # an unknown macro's words kept, the macro counted
    assert "unknown macro 1" in command.metadata["markup_dropped"]
    assert "not closed by .TE" in command.metadata["read_note"]
    assert "speed | fast" in command.text
    conf = _doc(report, "man5/widget.conf.5")
    assert "été edition, naïve defaults" in conf.text and conf.metadata["encoding"] == "latin-1"
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["man8/empty.8"] == "empty file"
    assert "no manual page" in reasons["man1/notes.1"]  # a .1 of prose is not read as a page


def test_an_mdoc_page_is_read_too(report):
    page = _doc(report, "man1/gizmo.1")
    assert page.title == "gizmo(1) — turn gizmos on and off"
    assert "gizmo [-qv] [-c config_file] name" in page.text
    assert "-c config_file\nRead the settings from config_file instead of /etc/gizmo.conf." in page.text
    defined = {name for p in page.parts for _at, name in p.defines}
    assert {"gizmo", "-c", "-q", "SpinRate"} <= defined
    assert any(p.kind == "code" and "$ gizmo -q lamp" in _part_text(page, p) for p in page.parts)


def test_the_flag_off_skips_manual_pages_as_before():
    report = load_documents(FIXTURES, man=False)  # as a direct caller before session 49
    assert report.documents == []
    # the loader's default reads as `context1 index` does (session 49: one reading for every caller)
    assert load_documents(FIXTURES).documents == load_documents(FIXTURES, man=True).documents != []
    assert all(s.reason.startswith("unsupported file type") for s in report.skipped if s.path != "man8/empty.8")
    assert CorpusConfig().read_man is True
    assert CorpusConfig.from_dict({"embedding_model": CorpusConfig().embedding_model}).read_man is False
    with pytest.raises(ValueError):
        CorpusConfig(read_man="yes")


def test_a_question_naming_an_error_finds_its_entry(tmp_path, cache_dir):
    folder = tmp_path / "man"
    shutil.copytree(FIXTURES, folder)
    config = CorpusConfig(embedding_cache=str(cache_dir), chroma=False)
    with Corpus.build(folder, tmp_path / "index", config=config, progress=False) as corpus:
        chunks = corpus.chunks("man2/frobnicate.2")
        assert any("EWIDGET" in split_defines(c.metadata.get("defines")) for c in chunks)
        hits = corpus.search("When does frobnicate fail with EWIDGET?", k=3)
        assert "EWIDGET\nThe widget named by path was unplugged" in hits[0].chunk.text
        assert corpus.search("What does lfrobnicate do?", k=1)[0].chunk.doc_id == "man2/frobnicate.2"
        # a page added later is read on sync, as the build reads it (a redirect page stays no document)
        (folder / "man8" / "widgetd.8").write_text(
            '.TH WIDGETD 8\n.SH NAME\nwidgetd \\- the widget daemon\n.SH DESCRIPTION\nIt serves widgets.\n',
            encoding="utf-8")
        report = corpus.sync(folder)
        assert report.added == ["man8/widgetd.8"]
        assert corpus.chunks("man8/widgetd.8")[0].metadata["title"] == "widgetd(8) — the widget daemon"
