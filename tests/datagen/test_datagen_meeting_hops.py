"""Questions across two meetings (issue 36, session 51; datagen.meeting_hops): the meeting after (or before) the one
that states a fact, a figure compared across a series. Bad input: a series with its second meeting missing, a figure
stated in two meetings (no "the one in which"), an answer the first meeting already states, a sitting with no number,
an empty transcript. Fixtures (tests/fixtures/meeting_hops) are made up."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from datagen_fixtures import meeting_chunks

from corpus_tools.meeting_names import meeting_names
from datagen.meeting_guard import is_meeting, tag_labels
from datagen.meeting_hops import BRIDGE_FORM, COMPARE_FORM, MeetHop, meeting_hops, meeting_order
from datagen.meeting_said import said_facts
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate
from datagen.verify import check_candidate, contains

FOLDER = Path(__file__).parents[1] / "fixtures" / "meeting_hops"


def _docs() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(FOLDER.iterdir())}


def _hops() -> tuple[list[MeetHop], list[MeetHop], Counter, dict[str, str]]:
    docs = {d: t for d, t in _docs().items() if t}
    mined = mine(meeting_chunks(docs))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    meetings = [d for d in texts if is_meeting(texts[d])]
    names = meeting_names({d: texts[d] for d in meetings})
    said = said_facts({d: mined.chunks[d] for d in names}, names, tag_labels(texts[d] for d in meetings), Counter())
    funnel: Counter = Counter()
    bridges, comparisons = meeting_hops(said, names, texts, funnel)
    return bridges, comparisons, funnel, texts


def test_meetings_are_ordered_by_series_letter_and_sitting_number() -> None:
    order = meeting_order({
        "KTL520a.txt": "the KTL520 kick-off meeting", "KTL520c.txt": "the third KTL520 meeting",
        "b_9.txt": "the 9th meeting of the Special Committee on Rural Broadband",
        "b_x.txt": "the third meeting of the Special Committee on Rural Broadband",
        "b_y.txt": "the first virtual meeting of the Children, Parks and Libraries Committee",
        "Bmr009.txt": "Bmr009",  # a name with no order
    })
    assert order["KTL520a.txt"] == ("the KTL520 meeting", 1)
    assert order["KTL520c.txt"] == ("the KTL520 meeting", 3)
    assert order["b_9.txt"] == ("the meeting of the Special Committee on Rural Broadband", 9)
    assert order["b_x.txt"] == ("the meeting of the Special Committee on Rural Broadband", 3)
    assert order["b_y.txt"] == ("the virtual meeting of the Children, Parks and Libraries Committee", 1)
    assert "Bmr009.txt" not in order
    # two sittings that call themselves the same number are no order
    assert meeting_order({"x.txt": "the 9th meeting of the A Committee", "y.txt": "the 9th meeting of the A Committee"}) == {}


def test_a_meeting_is_reached_through_the_one_before_or_after_it() -> None:
    bridges, _c, _f, texts = _hops()
    asked = {h.question: h for h in bridges}
    q = ("In the KTL520 meeting after the one in which the person in charge of sales reported that sixty percent of users "
         "want a kettle that boils quickly, what production cost did the team lead give?")
    assert asked[q].answer.answer == "nine Euros" and asked[q].docs == ("KTL520b.txt", "KTL520c.txt")
    q = ("In the meeting of the Special Committee on Rural Broadband after the one in which Rowan Tellier presented a "
         "petition about Bill C-418, which member presented a petition about Bill S-77?")
    assert asked[q].answer.answer == "Adaeze Moreau"
    before = [h for h in bridges if " before the one in which " in h.question]
    assert any(h.docs == ("KTL520b.txt", "KTL520a.txt") for h in before)
    # two statements are joined once: RDO300d's profit target is asked after RDO300c's finding, and that finding is
    # not asked again before the profit target
    assert any(h.docs == ("RDO300c.txt", "RDO300d.txt") for h in bridges)
    assert not any(h.docs == ("RDO300d.txt", "RDO300c.txt") for h in bridges)
    for h in bridges:
        assert h.form == BRIDGE_FORM and h.answer is h.second
        first, second = h.docs
        assert not contains(h.question, h.answer.answer)  # no leak
        assert not contains(texts[first], h.answer.answer)  # hop 1's meeting does not answer it
        assert first != second and h.first.doc_id == first


def test_a_figure_stated_in_two_meetings_names_no_meeting() -> None:
    # KTL520a and KTL520d both give the selling price of thirty Euros: "the one in which the team lead gave a selling
    # price of thirty Euros" is either; RDO300c says "eight Euros" too, so RDO300d's production cost names no meeting
    bridges, _c, funnel, _t = _hops()
    assert not any("selling price of thirty Euros" in h.question for h in bridges)
    assert not any("production cost of eight Euros" in h.question for h in bridges)
    assert funnel["bridge:anchor_not_unique"] >= 2


def test_a_series_with_a_missing_meeting_has_no_after_across_the_gap() -> None:
    bridges, _c, funnel, _t = _hops()
    assert not any("RDO300a.txt" in h.docs for h in bridges)  # RDO300b is not in the folder
    assert funnel["bridge:gap"] >= 2


def test_an_answer_the_first_meeting_states_is_not_asked() -> None:
    # RDO300c mentions "eight Euros" (a rival's price): RDO300d's production cost is not asked through RDO300c
    bridges, _c, funnel, _t = _hops()
    assert not any(h.docs == ("RDO300c.txt", "RDO300d.txt") and h.answer.answer == "eight Euros" for h in bridges)
    assert funnel["bridge:answer_in_earlier_meeting"] >= 1


def test_a_sitting_with_no_number_and_an_empty_transcript_are_never_joined() -> None:
    bridges, comparisons, _f, _t = _hops()
    assert not any("broadband_unnumbered.txt" in h.docs or "KTL520e.txt" in h.docs for h in bridges + comparisons)
    # an empty transcript handed in directly: no fact, no question, no error
    assert meeting_hops({}, {"KTL520e.txt": "the fifth KTL520 meeting"}, {"KTL520e.txt": ""}, Counter()) == ([], [])


def test_a_figure_compared_across_a_series_answers_the_higher_value() -> None:
    _b, comparisons, funnel, _t = _hops()
    assert [(h.question, h.answer.answer) for h in comparisons] == [(
        "Which production cost did the team lead give higher, the one in the KTL520 functional design meeting or the "
        "one in the KTL520 conceptual design meeting?", "eleven Euros")]
    assert comparisons[0].form == COMPARE_FORM
    assert funnel["compare:same_value"] == 1  # thirty Euros in KTL520a and KTL520d: nothing to compare


def _generator(config: NaturalConfig) -> tuple[NaturalGenerator, dict[str, str]]:
    from datagen.run import meeting_said

    docs = {d: t for d, t in _docs().items() if t}
    mined = mine(meeting_chunks(docs))
    base = read_facts(mined, load_pipeline(), meeting_said=meeting_said(config))
    return NaturalGenerator(mined, base, config), {d: mined.doc_text(d) for d in mined.chunks}


def test_the_generator_writes_them_verified_and_the_key_turns_them_off() -> None:
    gen, texts = _generator(NaturalConfig())
    assert gen.exhausted(2) is None
    rng = random.Random(0)
    written: list[Candidate] = []
    for _ in range(60):
        c = gen.propose(2, rng)
        if isinstance(c, Candidate):
            chunks = {cid: texts[i.doc_id] for i in c.supporting for cid in i.chunk_ids}
            verdict = check_candidate(c, texts, chunks)
            assert not verdict.reasons, (c.question, verdict.details)
            gen.commit(c)
            written.append(c)
    forms = Counter(c.metadata["form"] for c in written)
    assert forms[BRIDGE_FORM] >= 5
    assert forms[COMPARE_FORM] <= 0.25 * sum(forms.values())  # comparisons capped at their share
    assert all(c.hops == 2 for c in written)
    off, _t = _generator(NaturalConfig(meet_hops=0.0))
    assert off.meet_bridges == [] and off.meet_comparisons == []
    assert off.exhausted(2) is not None


def test_the_keys_are_mix_keys() -> None:
    assert parse_mix("meet_hops=0,meet_compare=0.1") == {"meet_hops": 0.0, "meet_compare_share": 0.1}
    with pytest.raises(ValueError, match="meet_hops"):
        NaturalConfig(meet_hops=2.0)
