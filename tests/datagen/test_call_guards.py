"""The calls' precision guards (session 47, `--mix call_guards`): a figure a call states under a condition, summed
with another quantity, given twice on two bases, or a segment's named the sentence before, is no company figure to ask
about; a company whose calls say "2023 fiscal year" keeps its quarters to itself. The calls under
tests/fixtures/call_guards are invented (one sentence a line, named TICKER_qN_YYYY.txt as ECTSum names its calls).
Session 46's reader asked each of these figures, and bridged the fiscal company's quarters to calendar ones."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from datagen_fixtures import NoProseGenerator

from corpus_tools.call_identity import call_identity
from corpus_tools.types import Chunk
from datagen.call_figures import CallIdentity, _segment_context, _to_date_run, read_call_figures, sentence_figures
from datagen.call_tasks import CallTasks
from datagen.mining import fold, mine
from datagen.natural import NaturalConfig, parse_mix
from datagen.types import DropReason

GUARDED = Path(__file__).resolve().parents[1] / "fixtures" / "call_guards"
HARBOR = CallIdentity("Harbor Pumps", "HPMP", 2024, 3)


def _chunks() -> list[Chunk]:
    out = []
    for path in sorted(GUARDED.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        meta = {"title": path.stem, **call_identity(path.name, text)}
        out.append(Chunk(f"{path.stem}#0", path.stem, text, 0, 80, meta))
    return out


def _figures(text: str, guards: bool) -> tuple[list[tuple[str, str]], Counter]:
    skipped: Counter = Counter()
    found = sentence_figures(text, "d", "d#0", HARBOR, skipped, guards=guards)
    return [(f.metric, f.value) for f in found], skipped


@pytest.mark.parametrize(("sentence", "stage"), [
    ("For the full year, we expect revenue of between $2.00 billion and $2.10 billion, excluding the impact of the Delta "
     "Valves acquisition.", "call:conditional"),
    ("If we had owned Delta Valves for the full quarter, revenue was $530.2 million in the third quarter.",
     "call:conditional"),
    ("Revenue in the third quarter was $530.2 million if Delta Valves is included for the full quarter.",
     "call:conditional"),
    ("New investments and capital expenditures totaled $120.5 million in the third quarter.", "call:summed"),
    ("Capital expenditures were $20.4 million during the quarter net of disposal proceeds, and gross capex was $21.9 "
     "million.", "call:metric_twice"),
    ("In Pumps & Valves, net sales increased 6% to $130.2 million in the third quarter.", "call:segment_named"),
    # the lead's mends from session 47's reporting read: a figure set against a span's is that span's; a part of the
    # business leading the sentence in lower case
    ("Adjusted gross margin was 35.1% compared with 34.6% in the first six months of last year.", "call:to_date_basis"),
    ("In retail, net operating income of $13.4 million reflected a $2 million decrease.", "call:segment_named"),
])
def test_a_guarded_figure_is_refused_and_counted(sentence: str, stage: str) -> None:
    unguarded, _ = _figures(sentence, guards=False)
    assert unguarded, "session 46's reader asks this figure"
    guarded, skipped = _figures(sentence, guards=True)
    assert guarded == [] and skipped[stage] == 1


@pytest.mark.parametrize("sentence", [
    "So if we turn to the next page, our revenue for the third quarter was $512.3 million, up 9%.",
    "Revenue for the third quarter was $512.3 million compared to revenue of $470.0 million a year ago.",
    "I would note that adjusted EBITDA was $88.1 million in the third quarter.",
    "For the full year, we expect revenue of between $2.00 billion and $2.10 billion.",
    "In addition, revenue for the third quarter was $512.3 million, up 9%.",
    "Adjusted operating income for the quarter was $5.1 million compared to $3.0 million in the first six months.",
])
def test_the_speakers_way_of_talking_and_a_comparison_are_not_refused(sentence: str) -> None:
    assert _figures(sentence, guards=True)[0] == _figures(sentence, guards=False)[0] != []


def test_a_segment_named_the_sentence_before_is_not_the_companys() -> None:
    mined = mine(_chunks())
    skipped: Counter = Counter()
    _, figures = read_call_figures(mined, skipped)
    assert ("EBITDA", "$12.3 million") in {(f.metric, f.value) for f in figures}  # Lumen Marine's, asked as Lumen's
    skipped = Counter()
    _, figures = read_call_figures(mined, skipped, guards=True)
    assert ("EBITDA", "$12.3 million") not in {(f.metric, f.value) for f in figures}
    assert skipped["call:segment_context"] == 1
    assert ("revenue", "$402.9 million") in {(f.metric, f.value) for f in figures}  # the company's own, kept


def test_a_company_on_its_own_fiscal_calendar_is_kept_out_of_questions_across_companies() -> None:
    mined = mine(_chunks())
    before = CallTasks(NoProseGenerator(), mined)
    assert "kbx" not in before.own_calendar  # "2023 fiscal year" was not read as the company's own calendar
    assert any(fold(s.company) == "kbx" for group in before.across.values() for s in group)
    after = CallTasks(NoProseGenerator(), mined, guards=True)
    assert "kbx" in after.own_calendar and after.own_stages["call:own_calendar_words"] == 1
    for group in after.across.values():
        assert all(fold(s.company) != "kbx" for s in group)
    assert all(fold(s.company) != "kbx" for s in after.anchors + after.bridge_ends)
    # its own quarters are still compared with each other
    assert any(k[0] == "kbx" for k in after.series)


def test_the_mix_keys_turn_the_guards_and_the_compare_read_off() -> None:
    assert NaturalConfig().call_guards == 1.0 and NaturalConfig().call_compare_read == 1.0
    off = NaturalConfig(**parse_mix("call_guards=0,call_compare_read=0"))
    assert off.call_guards == 0.0 and off.call_compare_read == 0.0


ONE_QUARTER = Path(__file__).resolve().parents[1] / "fixtures" / "call_one_quarter"


def _one_quarter() -> list[Chunk]:
    out = []
    for path in sorted(ONE_QUARTER.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        out.append(Chunk(f"{path.stem}#0", path.stem, text, 0, 60, {"title": path.stem, **call_identity(path.name, text)}))
    return out


def test_one_quarters_calls_give_a_comparison_that_decides_whose_figure_is_asked() -> None:
    mined = mine(_one_quarter())
    before = CallTasks(NoProseGenerator(), mined, guards=True)
    assert before.exhausted(2) is not None  # one quarter: no bridge, and comparisons alone break their share
    gen = CallTasks(NoProseGenerator(), mined, guards=True, compare_read=True)
    assert gen.exhausted(2) is None and gen.own_stages["call:compare_read_pairs"] >= 1
    rng = random.Random(3)
    found = [c for c in (gen.propose(2, rng) for _ in range(30)) if not isinstance(c, DropReason)]
    reads = [c for c in found if c.metadata["form"] == "compare_read"]
    assert reads
    for c in reads:
        # ORQ and PVL both state revenue and net income; TSK states no net income, so it is never in one
        assert "TSK" not in c.question and c.hops == 2 and len(c.doc_ids) == 2
        if "higher revenue" in c.question:
            assert c.answer == "$41.2 million"  # ORQ's revenue is higher: ORQ's net income is asked
        else:
            assert "higher net income" in c.question and c.answer == "$295.0 million"
        winner = next(s for s in c.supporting if s.contains_truth)
        assert any(c.answer in q for q in winner.quotes) and len(winner.quotes) >= 2
    gen.commit(reads[0])
    assert gen.written["other"] == 1 and gen.written["comparison"] == 0  # no comparison for the share


def test_a_folder_with_a_bridge_is_left_as_it_was() -> None:
    mined = mine(_chunks())
    assert CallTasks(NoProseGenerator(), mined, guards=True, compare_read=True).read_pairs == []


def test_a_refused_figure_is_refused_in_the_next_chunk_that_cuts_its_lead() -> None:
    """Chunks overlap: the next chunk opens inside the sentence before, so the part's name is cut off there."""
    meta = {"title": "LUM_q4_2023", **call_identity("LUM_q4_2023.txt", "")}
    chunks = [Chunk("LUM_q4_2023#0", "LUM_q4_2023", "Revenue for the fourth quarter was $402.9 million.\nAt Lumen Marine, "
                    "we generated revenues of $80.1 million in the quarter.\nThis strong top line performance drove EBITDA "
                    "of $12.3 million in the quarter.", 0, 60, dict(meta)),
              Chunk("LUM_q4_2023#1", "LUM_q4_2023", "of $80.1 million in the quarter.\nThis strong top line performance "
                    "drove EBITDA of $12.3 million in the quarter.\nGross margin was 41.2% in the quarter.", 1, 60, dict(meta))]
    _, plain = read_call_figures(mine(chunks), Counter())
    assert sum(f.value == "$12.3 million" for f in plain) == 2
    _, guarded = read_call_figures(mine(chunks), Counter(), guards=True)
    assert not any(f.value == "$12.3 million" for f in guarded)
    assert {f.value for f in guarded} >= {"$402.9 million", "41.2%"}


def test_a_figure_after_a_segments_figure_is_the_segments_unless_the_company_speaks() -> None:
    segment = "Segment adjusted EBITDA was $100.6 million, up 61% over the prior-year period."
    assert _segment_context(segment, "Adjusted EBITDA margin of 15.6% increased 140 basis points.", HARBOR)
    assert not _segment_context(segment, "We generated record free cash flow of $169 million.", HARBOR)
    assert not _segment_context(segment, "Consolidated adjusted EBITDA margin was 18.2%.", HARBOR)
    assert not _segment_context("Revenue was $402.9 million.", "Adjusted EBITDA margin of 15.6% increased.", HARBOR)


def test_an_outlook_measured_against_a_year_is_not_that_years() -> None:
    # the range is next year's (named two sentences before); 2024 is only what it is measured against
    sentence = ("And finally, we expect adjusted earnings per share to be in the range of $7.65 to $7.95, which would "
                "represent growth of 21.4% to 26.2% compared to the midpoint of our 2024 guidance.")
    unguarded, _ = _figures(sentence, guards=False)
    assert unguarded == [("adjusted earnings per share", "$7.65 to $7.95")]  # session 46: asked as 2024's outlook
    guarded, skipped = _figures(sentence, guards=True)
    assert guarded == [] and skipped["call:guidance_without_period"] == 1
    named = "For the full year 2025, we expect revenue in the range of $2.1 billion to $2.3 billion, up 8% versus 2024."
    assert _figures(named, guards=True)[0] == [("revenue", "$2.1 billion to $2.3 billion")]


def test_a_figure_after_a_year_to_date_lead_is_the_spans() -> None:
    lead = "Our year-to-date adjusted operating margin is 30.7%."
    assert _to_date_run(lead, "Adjusted earnings per share of $10.41 increased 170% versus the prior year period.")
    assert not _to_date_run(lead, "Third quarter adjusted earnings per share of $3.96 increased 257%.")
    assert not _to_date_run("Revenue was $402.9 million.", "Adjusted earnings per share of $1.41 increased 17%.")
