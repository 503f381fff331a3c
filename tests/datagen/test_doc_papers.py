"""What a research paper defines, asked naming the paper (datagen.doc_papers, session 48, issue 36). Invented text."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

from corpus_tools.paper_definitions import is_paper
from datagen.doc_papers import ACRONYM, TERM, paper_facts, paper_name
from datagen.natural import _MIX_KEYS, NaturalConfig

TEXT = [
    "Bluefin: A Chart Store for Harbours\nAbstract\nWe present Bluefin, which keeps every chart in a Tidal Ordered "
    "Log (TOL) and serves reads from memory. A harbour is a group of charts that one server owns.",
    "Each server runs a Wave Scheduler (WS) beside the log. Writes go to the TOL first. A quay is a queue of "
    "pending chart writes, drained in order. The Remote Procedure Calls (RPCs) use a Fast Buoy (XYZ) protocol. "
    "A similar thing is a related structure of other stores. A wave is a set of writes x. A storm is a potentially lossy event. We report the mean time to data loss (MTTDL) of a harbour.",
    "References\n[1] A. Author. Journal of Invented Harbours (JIH), 2001.",
]


def _facts(title="Bluefin: A Chart Store for Harbours", text=TEXT, **kw):
    chunks = [SimpleNamespace(doc_id="bluefin.pdf", chunk_id=f"bluefin.pdf#{i}", text=t, metadata={})
              for i, t in enumerate(text)]
    skipped: Counter = Counter()
    return paper_facts("bluefin.pdf", title, chunks, skipped, **kw), skipped


def _asked(facts):
    return {(f.relation, f.ask.replace("{s}", f.subject), f.answer) for f in facts}


def test_an_acronyms_first_definition_is_asked_naming_the_paper():
    facts, _ = _facts()
    asked = _asked(facts)
    assert (ACRONYM, "What does TOL stand for in the Bluefin paper?", "Tidal Ordered Log") in asked
    assert (ACRONYM, "What does WS stand for in the Bluefin paper?", "Wave Scheduler") in asked
    assert (ACRONYM, "What do RPCs stand for in the Bluefin paper?", "Remote Procedure Calls") in asked
    assert (ACRONYM, "What does MTTDL stand for in the Bluefin paper?", "mean time to data loss") in asked


def test_initials_that_do_not_spell_the_acronym_are_refused():
    facts, skipped = _facts()
    assert not [f for f in facts if f.subject == "XYZ"]
    assert skipped["paper_acronym_initials"] >= 1


def test_nothing_is_asked_from_the_references():
    facts, skipped = _facts()
    assert not [f for f in facts if f.subject == "JIH"]
    assert skipped["paper_after_references"] == 1


def test_a_defined_term_is_asked_and_a_comparison_is_not():
    facts, skipped = _facts()
    asked = _asked(facts)
    assert (TERM, "In the Bluefin paper, what is a harbour?", "a group of charts") in asked
    assert (TERM, "In the Bluefin paper, what is a quay?", "a queue of pending chart writes") in asked
    assert not [f for f in facts if "similar" in f.subject]
    assert not [f for f in facts if f.subject in ("a wave", "a storm")]  # ends on a variable; a judgement


def test_a_paper_with_no_abstract_still_yields():
    facts, _ = _facts(text=["Each server runs a Wave Scheduler (WS) beside the log."])
    assert [f.answer for f in facts] == ["Wave Scheduler"]


def test_a_title_that_is_the_files_name_gives_nothing():
    facts, skipped = _facts(title="bluefin")
    assert facts == [] and skipped["paper_title_is_file_name"] == 1


def test_a_title_that_names_no_paper_gives_nothing():
    assert paper_name("datastores_bluefin-a-chart-store") == ""
    assert paper_name("Dissertation Of Jim.doc") == ""
    assert paper_name("REAL-TIME CHART STORES FOR HARBOURS") == "the paper “Real-time Chart Stores for Harbours”"
    assert paper_name("An Axiomatic Basis for Harbours") == "the paper “An Axiomatic Basis for Harbours”"
    facts, skipped = _facts(title="bluefin_notes")
    assert facts == [] and skipped["paper_title_shape"] == 1
    facts, skipped = _facts(unique_title=False)
    assert facts == [] and skipped["paper_title_shared"] == 1


def test_an_acronym_written_two_ways_in_one_paper_is_refused():
    facts, skipped = _facts(text=["Writes go to a Tidal Ordered Log (TOL) first.", "Later a Tide Order Lock (TOL) is taken."])
    assert facts == [] and skipped["paper_acronym_two_expansions"] == 1


def test_papers_are_pdfs_that_are_no_filings():
    assert is_paper("a.pdf", {"file_name": "a.pdf"})
    assert not is_paper("q3.pdf", {"file_name": "q3.pdf", "form": "10-Q"})
    assert not is_paper("nb.ipynb", {"file_name": "nb.ipynb"})


def test_the_mix_key():
    assert _MIX_KEYS["papers"] == "doc_papers"
    assert NaturalConfig().doc_papers == 1.0 and NaturalConfig(doc_papers=0.0).doc_papers == 0.0


def test_a_term_defined_by_a_kind_of_itself_is_refused_and_a_genus_that_is_its_head_kept():
    # session 48's reporting read: "A run is a deciding run provided that …" defines a deciding run, not a run
    text = ["Bluefin: A Chart Store for Harbours\nAbstract\nWe study tides. A tide is a deciding tide provided that some buoy moves. "
            "A chart type is a type with a single harbour. An ensemble of charts is a set of charts with a weight."]
    facts, skipped = _facts(text=text)
    assert {f.subject: f.answer for f in facts if f.relation == TERM} == {
        "a chart type": "a type with a single harbour", "an ensemble of charts": "a set of charts with a weight"}
    assert skipped["paper_genus_circular"] == 1


def test_a_first_page_title_the_files_descriptive_name_disowns_is_not_asked():
    # a report series' masthead set larger than the title: "Basic Research Series" over harbour-chart-store.pdf
    chunks = [SimpleNamespace(doc_id="harbour-chart-store-bluefin.pdf", chunk_id="harbour-chart-store-bluefin.pdf#0",
                              text=TEXT[0], metadata={})]
    skipped: Counter = Counter()
    assert paper_facts("harbour-chart-store-bluefin.pdf", "Basic Research Series in Computing", chunks, skipped) == []
    assert skipped["paper_title_not_the_files"] == 1
    # a file named by an id says nothing either way
    chunks = [SimpleNamespace(doc_id="2101.00001.pdf", chunk_id="2101.00001.pdf#0", text=TEXT[0], metadata={})]
    assert paper_facts("2101.00001.pdf", "Bluefin: A Chart Store for Harbours", chunks, Counter())


def test_an_acronym_spelled_inside_a_longer_name_anywhere_in_the_document_is_not_asked():
    # session 55's reporting read (mended after it, not clean): "Tobacco Tax and Trade Bureau (TTB):" heads a table
    # whose words lost their "Alcohol and"; the prose writes the whole "Alcohol and Tobacco Tax and Trade Bureau (TTB)"
    text = ["Tobacco Tax and Trade Bureau (TTB): labels need a fill volume.",
            "Rules come from the Food and Drug Administration (FDA) and the Alcohol and Tobacco Tax and Trade Bureau "
            "(TTB) for every pouch."]
    facts, skipped = _facts(text=text)
    assert {f.subject: f.answer for f in facts if f.relation == ACRONYM} == {"FDA": "Food and Drug Administration"}
    assert skipped["paper_acronym_cut_name"] == 1 and skipped["paper_acronym_cut_elsewhere"] == 1
