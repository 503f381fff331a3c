"""Questions from Unix manual pages (session 49, datagen/doc_manpages.py, `--mix man`).

The pages are tests/fixtures/man (made up), read by corpus_tools.man_reader and chunked as the index chunks them.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest

from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.loaders import load_documents
from datagen.doc_manpages import ADDED, DEFAULT, ERROR, OPTION, is_man_page, man_facts
from datagen.natural import NaturalConfig, parse_mix

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "man"


class _Words:
    def offsets(self, text):
        return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]

    def count(self, text):
        return len(text.split())


def _facts(doc_id: str, body: str | None = None):
    report = load_documents(FIXTURES, man=True)
    doc = next(d for d in report.documents if d.doc_id == doc_id)
    chunks = chunk_document(doc, _Words(), ChunkingConfig(chunk_tokens=120, overlap_tokens=10))
    skipped: Counter = Counter()
    return {(f.relation, f.ask.replace("{s}", f.subject), f.answer): f for f in man_facts(doc_id, chunks, skipped)}, \
        skipped, chunks


def test_an_error_is_asked_by_its_condition_naming_the_calls():
    facts, skipped, chunks = _facts("man2/frobnicate.2")
    # the page documents two calls' errors together (its redirect page's name, lfrobnicate, is not one of them)
    key = (ERROR, "Which error can frobnicate or ffrobnicate return when the widget named by path was unplugged while "
                  "the level was being changed?", "EWIDGET")
    assert key in facts
    fact = facts[key]
    chunk = next(c for c in chunks if c.chunk_id == fact.chunk_id)
    assert fact.sentence in chunk.text and "EWIDGET" in fact.sentence  # one passage verifies it
    # an entry opening "(ffrobnicate())" is that call's alone
    assert (ERROR, "Which error does ffrobnicate return when fd is not an open file descriptor?", "EBADF") in facts
    # "The widget is busy, but a retry …": cut at its comma it would say another thing
    assert not any(k[2] == "EBUSY" for k in facts) and skipped["man_error_condition_cut"] == 1
    # "(on PDP-11) This call is not implemented.": asked without its qualifier the question would be wrong
    assert not any(k[2] == "ENOSYS" for k in facts) and skipped["man_error_qualified"] == 1
    # "Cannot allocate memory …" has no subject: "… return when cannot allocate …" is no question
    assert not any(k[2] == "ENOMEM" for k in facts)


def test_the_linux_version_a_call_was_added_in():
    facts, _skipped, _chunks = _facts("man2/frobnicate.2")
    assert (ADDED, "In which Linux version was frobnicate added?", "9.1") in facts


def test_an_options_job_is_asked_in_the_third_person_and_a_placeholder_is_not():
    facts, skipped, _chunks = _facts("man1/widgetctl.1")
    option = facts[(OPTION, "Which option of widgetctl opens the widget without changing it?", "-r")]
    assert option.aliases == ("--read-only",)
    # "-t seconds  Wait at most seconds …": the placeholder "seconds" in a question reads as a word
    assert not any(k[0] == OPTION and k[2] == "-t" for k in facts)
    assert skipped["man_option_placeholder"] == 1
    assert (DEFAULT, "What is the default value of the -t option of widgetctl?", "30") in facts


def test_an_mdoc_command_and_its_keyword_default():
    facts, _skipped, _chunks = _facts("man1/gizmo.1")
    assert (OPTION, "Which option of gizmo prints nothing but errors?", "-q") not in facts  # "Quiet mode: …" opens no verb
    assert not any(k[0] == OPTION and k[2] == "-q" for k in facts)
    assert (OPTION, "Which option of gizmo reads the settings from config_file instead of /etc/gizmo.conf?", "-c") \
        not in facts  # its placeholder, config_file, is in the job


def test_a_page_without_names_or_chunks_gives_nothing_and_other_documents_are_no_man_pages():
    assert man_facts("x.2", [], Counter()) == []
    chunk = SimpleNamespace(doc_id="notes.txt", chunk_id="c0", text="ERRORS\n\nEFOO\nSomething was wrong here.",
                            metadata={"section": "ERRORS"})
    assert not is_man_page(chunk.metadata)
    assert man_facts("notes.txt", [chunk], Counter()) == []


def test_the_mix_key_turns_the_reader_off():
    assert NaturalConfig().doc_man == 1.0
    assert parse_mix("man=0") == {"doc_man": 0.0}
    with pytest.raises(ValueError):
        NaturalConfig(doc_man=2.0)


_PROTOCOL_PAGE = r""".TH WIDGETNET 7 2024-01-01 "Linux" "Linux Programmer's Manual"
.SH NAME
widgetnet \- Linux widget network protocol
.SH DESCRIPTION
Widget sockets carry frames between widgets on one bus.
The /proc interfaces were introduced in Linux 3.2.
.SH ERRORS
.TP
.B EWIDGET
The widget named in the frame was unplugged before the frame was sent.
.SH VERSIONS
Support for remote buses has been available since Linux 4.1.
Widgetnet sockets first appeared in Linux 3.1.
"""


def test_a_protocol_page_asks_no_error_and_only_its_own_version(tmp_path):
    """A section-7 page (a protocol, an overview) documents errors of calls it does not name: no "Which error does
    widgetnet return …?"; a version clause about another thing the page describes is not the page's (session 49: the
    lead's read of the reporting folder found both)."""
    (tmp_path / "man7").mkdir()
    (tmp_path / "man7" / "widgetnet.7").write_text(_PROTOCOL_PAGE, encoding="utf-8")
    doc = load_documents(tmp_path, man=True).documents[0]
    chunks = chunk_document(doc, _Words(), ChunkingConfig(chunk_tokens=120, overlap_tokens=10))
    skipped: Counter = Counter()
    facts = man_facts(doc.doc_id, chunks, skipped)
    assert not [f for f in facts if f.relation == ERROR] and skipped["man_error_not_a_call"] == 1
    assert [(f.relation, f.answer) for f in facts if f.relation == ADDED] == [(ADDED, "3.1")]
    assert skipped["man_version_other_thing"] == 1  # "Support for remote buses …"
