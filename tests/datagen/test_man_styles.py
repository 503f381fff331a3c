"""Another project's manual pages (session 50, `--mix man_styles`, CorpusConfig.man_macros).

tests/fixtures/man_styles (made up): quokka.conf(5) written the way rst2man writes a page (its macros defined before
`.TH`, a NAME line ending in a period, keywords with a colon, "Default: X" paragraphs, values listed under a keyword,
an unfilled `@RUNDIR@`), and quokkad(8) in BSD mdoc.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.config import CorpusConfig
from corpus_tools.loaders import load_documents
from corpus_tools.man_reader import looks_like_man, read_man
from datagen.doc_manpages import DEFAULT, DEFAULT_SWITCH, OPTION, man_facts
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, _doc_kind, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "man_styles"
CONF = (FIXTURES / "man5" / "quokka.conf.5").read_text(encoding="utf-8")


class _Words:
    def offsets(self, text):
        return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]

    def count(self, text):
        return len(text.split())


def _chunks(macros: bool = True):
    out = {}
    for doc in load_documents(FIXTURES, man=True, man_macros=macros).documents:
        out[doc.doc_id] = chunk_document(doc, _Words(), ChunkingConfig(chunk_tokens=120, overlap_tokens=10))
    return out


def _asked(doc_id: str, styles: bool = True) -> tuple[dict[str, tuple[str, str]], Counter]:
    skipped: Counter = Counter()
    facts = man_facts(doc_id, _chunks()[doc_id], skipped, styles=styles)
    return {f.ask.replace("{s}", f.subject): (f.relation, f.answer) for f in facts}, skipped


def test_a_page_defining_its_macros_before_th_is_read_and_its_layout_macros_write_nothing():
    assert not looks_like_man(CONF) and looks_like_man(CONF, macros=True)
    assert [d.doc_id for d in load_documents(FIXTURES, man=True, man_macros=False).documents] == ["man8/quokkad.8"]
    page = read_man(CONF, (), macros=True)
    assert page.title == "quokka.conf(5) — Quokka @version@ configuration file."
    # `.INDENT 0.0` and the registers its definition reads are layout: no "0.0", no "[rst2man-indent-level]"
    assert "0.0" not in page.text and "rst2man" not in page.text and "an-margin" not in page.text
    assert "burrow-depth: <number>\nLimit how many tunnels deep a lookup may go." in page.text
    # off: the reading as before (the macros' words in the text)
    assert "7.0" in read_man(CONF, ()).text
    # on by default; an index built before reads its pages as it did
    assert CorpusConfig().man_macros is True and CorpusConfig.from_dict({}).man_macros is False


def test_a_config_files_keywords_their_jobs_and_default_paragraphs():
    asked, skipped = _asked("man5/quokka.conf.5")
    assert asked["What is the default value of burrow-depth in quokka.conf?"] == (DEFAULT, "7")
    # "Default: solo" under nest-mode:, past the values listed under it, not "shared"'s
    assert asked["What is the default value of nest-mode in quokka.conf?"] == (DEFAULT, "solo")
    assert not any("of shared" in q or "of solo" in q for q in asked)
    assert asked["What is the default value of sleep-at-noon in quokka.conf?"] == (DEFAULT_SWITCH, "no")
    assert asked["Which option in quokka.conf limits how many tunnels deep a lookup may go?"] == (OPTION, "burrow-depth")
    # a value listed under a keyword is no option; an unfilled @RUNDIR@ is no answer
    assert not any(a in ("solo", "shared") and r == OPTION for r, a in asked.values())
    assert not any("@" in a for _r, a in asked.values()) and skipped["man_unfilled_variable"] == 1
    # a yes / no default is held with the trivial ones
    assert _doc_kind(DEFAULT_SWITCH, "no").endswith(":trivial") and not _doc_kind(DEFAULT, "7").endswith(":trivial")


def test_an_mdoc_daemon_page_reads_its_options_in_the_third_person():
    asked, _skipped = _asked("man8/quokkad.8")
    assert asked["Which option of quokkad echoes debug messages to the standard error?"] == (OPTION, "-d")
    # `.Fl Fl foreground` is the long option "--foreground", an alias of -F (before: "- -foreground")
    facts = man_facts("man8/quokkad.8", _chunks()["man8/quokkad.8"], Counter(), styles=True)
    assert [f.aliases for f in facts if f.answer == "-F"] == [("--foreground",)]
    old = next(d for d in load_documents(FIXTURES, man=True, man_macros=False).documents if d.doc_id == "man8/quokkad.8")
    assert "- -foreground" in old.text
    off, _ = _asked("man8/quokkad.8", styles=False)
    assert "Which option of quokkad echos debug messages to the standard error?" in off  # session 49's


def test_a_default_that_is_a_list_is_not_cut_to_its_first_item():
    """"The default is ~/.quokka/id_red, ~/.quokka/id_grey and ~/.quokka/id_sand." names three files: asking its
    default must not answer the first alone (the lead's read of an unseen folder, session 50: ssh(1)'s -i). A value
    followed by a clause ("7070, which …") is whole."""
    for styles in (True, False):
        asked, skipped = _asked("man8/quokkad.8", styles=styles)
        assert asked["What is the default value of the -p option of quokkad?"] == (DEFAULT, "7070")
        assert "What is the default value of the -k option of quokkad?" not in asked
        assert skipped["man_default_list"] == 1


def test_off_reads_the_config_page_as_before():
    asked, _skipped = _asked("man5/quokka.conf.5", styles=False)
    assert asked == {}


def test_a_title_ending_in_a_period_is_no_papers_and_the_key_turns_it_off():
    assert NaturalConfig().man_styles == 1.0 and parse_mix("man_styles=0") == {"man_styles": 0.0}
    with pytest.raises(ValueError):
        NaturalConfig(man_styles=-1.0)
    chunks = [c for cs in _chunks().values() for c in cs]
    mined = mine(chunks)
    for styles, pooled in ((1.0, True), (0.0, False)):
        config = NaturalConfig(man_styles=styles)
        gen = NaturalGenerator(mined, read_facts(mined, load_pipeline(), man=True, man_styles=bool(styles)), config)
        # with two titles, one closed by a period, the folder read as papers and gave no single-hop question
        assert ("man5/quokka.conf.5" in gen._single_pool()) is pooled
