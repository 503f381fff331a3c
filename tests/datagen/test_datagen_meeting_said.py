"""Fact questions naming their meeting (issue 36, session 50; corpus_tools.meeting_names, datagen.meeting_said): a design
series' meetings named by series and stage (or place), a committee's numbered sitting named as it welcomes its
members, who held a role, a figure a speaker gave, who presented a petition about a bill; hedges, fillers, common
words read as names, a chair's petition, unnamed meetings, empty turns, nested parentheses and a folder with no
speaker line refused or read safely. Fixtures (tests/fixtures/meetings_named) are made up."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from datagen_fixtures import generate_single_hop, meeting_chunks

from corpus_tools.meeting_names import meeting_names, sitting_name
from datagen.meeting_guard import is_meeting, tag_labels
from datagen.meeting_said import FIGURES, PETITIONS, ROLES, person_of, said_facts, split_label
from datagen.mining import mine
from datagen.natural import NaturalConfig, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate
from datagen.verify import contains

FOLDER = Path(__file__).parents[1] / "fixtures" / "meetings_named"
ALL = frozenset({"roles", "figures", "petitions"})


def _docs(*names: str) -> dict[str, str]:
    return {n: (FOLDER / n).read_text(encoding="utf-8") for n in names or sorted(p.name for p in FOLDER.iterdir())}


def _asked(docs: dict[str, str]) -> tuple[dict[str, str], Counter]:
    mined = mine(meeting_chunks(docs))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    meetings = [d for d in texts if is_meeting(texts[d])]
    skipped: Counter = Counter()
    found = said_facts({d: mined.chunks[d] for d in meetings}, meeting_names({d: texts[d] for d in meetings}),
                       tag_labels(texts[d] for d in meetings), skipped)
    asked = {}
    for fs in found.values():
        for f in fs:
            assert contains(f.sentence, f.answer) or f.relation.startswith(PETITIONS)
            assert f.sentence in mined.doc_text(f.doc_id)  # a quote is a slice of its passage
            asked[f.ask] = f.answer
    return asked, skipped


def test_the_fixtures_are_meetings_but_the_notes() -> None:
    docs = _docs()
    assert {d for d, t in docs.items() if not is_meeting(t)} == {"notes_no_speakers.txt"}


def test_a_series_is_named_by_its_stage_or_its_place_and_a_sitting_by_its_number() -> None:
    names = meeting_names(_docs())
    assert names["LMP201a.txt"] == "the LMP201 kick-off meeting"
    assert names["LMP201b.txt"] == "the LMP201 functional design meeting"
    assert names["LMP201c.txt"] == "the third LMP201 meeting"  # states no stage
    assert names["broadband_9.txt"] == "the 9th meeting of the Special Committee on Rural Broadband"
    assert "broadband_today.txt" not in names  # "today's meeting": no number
    assert "notes_no_speakers.txt" not in names


def test_a_file_alone_is_no_series_and_two_same_sittings_name_neither() -> None:
    docs = _docs("LMP201a.txt", "broadband_9.txt")
    names = meeting_names({**docs, "again.txt": docs["broadband_9.txt"]})
    assert "LMP201a.txt" not in names  # a series is two files at least
    assert "broadband_9.txt" not in names and "again.txt" not in names


def test_sitting_names_read_words_and_numbers() -> None:
    assert sitting_name("The Chair: Welcome to meeting number 22 of the House of Commons Special Committee on the "
                        "COVID-19 Pandemic.") == "the 22nd meeting of the Special Committee on the COVID-19 Pandemic"
    assert sitting_name("Chair: Welcome to the third meeting of the Standing Committee on Health.") == \
        "the third meeting of the Standing Committee on Health"
    assert sitting_name("Chair: Welcome to the virtual meeting of the Standing Committee on Health.") == ""
    assert sitting_name("") == ""


def test_roles_figures_and_petitions_are_asked_naming_their_meeting() -> None:
    asked, _ = _asked(_docs())
    assert asked["In the LMP201 kick-off meeting, who was the team lead?"] == "Priya"
    assert asked["In the LMP201 kick-off meeting, who was in charge of sales?"] == "Tomasz"
    assert asked["In the LMP201 kick-off meeting, who was the hardware designer?"] == "Okafor"
    assert asked["In the LMP201 kick-off meeting, what selling price did the team lead give?"] == "thirty nine Euros"
    assert asked["In the LMP201 kick-off meeting, what production cost did the team lead give?"] == "fourteen Euro fifty"
    assert asked["In the LMP201 kick-off meeting, what profit target did the team lead give?"] == "two million Euros"
    assert asked["In the LMP201 functional design meeting, what selling price did the person in charge of sales give?"] \
        == "thirty nine Euros"
    assert asked["In the third LMP201 meeting, what selling price did the team lead give?"] == "thirty nine Euros"
    sitting = "At the 9th meeting of the Special Committee on Rural Broadband"
    assert asked[f"{sitting}, which member presented a petition about Bill C-418?"] == "Rowan Tellier"
    assert asked[f"{sitting}, which member presented a petition about Bill S-77?"] == "Adaeze Moreau"


def test_hedges_fillers_common_words_a_chair_and_unnamed_meetings_are_not_asked() -> None:
    asked, skipped = _asked(_docs())
    answers = set(asked.values())
    assert "forty five Euros" not in answers  # "Maybe we could sell it for …?"
    assert "fifty Euros" not in answers  # "then we have to sell it for …": a consequence of a condition
    assert "Sorry" not in answers  # "I'm Sorry, could you repeat …"
    assert "Well" not in answers  # "I'm Well, maybe we have …"
    assert not any("twelve" in a for a in answers)  # "about uh twelve Euros": no subject, a filler
    assert not any("C-9" in q for q in asked)  # the chair's petition: no member's
    assert not any("C-500" in q for q in asked)  # today's meeting: no name
    assert not any("bulb" in q for q in asked)  # a component's cost is no kind read
    assert skipped["said_figure_hedged"] >= 1 and skipped["said_petition_no_member"] == 1


def test_doubt_about_a_figure_is_no_figure_given() -> None:
    """Session 51's unseen split: a designer doubting the price the brief set ("I don't see why we have to sell it for
    twenty five Euros now") was asked as the price the designer gave."""
    text = _docs("LMP201b.txt")["LMP201b.txt"]
    doubted = text + ("Hardware Designer: But I mean I don't see why we have to sell it for forty one Euros now.\n"
                      "Team Lead: I think it's hard to uh sell it for forty three Euros.\n")
    asked, skipped = _asked({**_docs("LMP201a.txt"), "LMP201b.txt": doubted})
    assert not {"forty one Euros", "forty three Euros"} & set(asked.values())
    assert "thirty nine Euros" in asked.values()  # the figures stated plainly are still asked


def test_each_question_has_one_answer_in_its_meeting() -> None:
    text = _docs("LMP201a.txt")["LMP201a.txt"].replace(
        "Our profit aim is two million Euros.", "Our profit aim is two million Euros. Our profit aim is three million Euros.")
    docs = {**_docs("LMP201b.txt"), "LMP201a.txt": text}
    asked, skipped = _asked(docs)
    assert not any("profit target" in q for q in asked) and skipped["said_disputed"] == 1
    # the same figure said two ways is one answer: "fourteen Euro fifty" and "14.50 Euros" agree
    same = text.replace("Our profit aim is three million Euros.", "The production cost is 14.50 Euros.")
    asked, _ = _asked({**docs, "LMP201a.txt": same})
    assert "In the LMP201 kick-off meeting, what production cost did the team lead give?" in asked


def test_labels_with_nested_parentheses_and_empty_turns() -> None:
    label = "The Chair (Hon. Margit Osei (Stonebridge (Central), Lib.))"
    assert split_label(f"{label}: I call this meeting to order.") == (label, "I call this meeting to order.")
    assert split_label("Mrs. Ilse Vantongeren (North Fenwick (East), Lib.):") == ("", "Mrs. Ilse Vantongeren (North Fenwick (East), Lib.):")
    assert split_label("Mr. Rowan Tellier (Lakeshore: text") == ("", "Mr. Rowan Tellier (Lakeshore: text")  # never closed
    assert split_label("Mr. Rowan Tellier) oops: text")[0] == ""
    assert split_label("so we need three things: a lamp, a plug")[0] == ""  # a sentence cut at a colon
    assert person_of(label) == "Margit Osei"
    assert person_of("Mrs. Ilse Vantongeren (North Fenwick (East), Lib.)") == "Ilse Vantongeren"
    assert person_of("PhD B") == "" and person_of("Marketing") == ""


def test_no_speaker_lines_no_meeting_no_input() -> None:
    assert said_facts({}, {}, set(), Counter()) == {}
    asked, _ = _asked(_docs("notes_no_speakers.txt"))
    assert asked == {}
    base = read_facts(mine(meeting_chunks(_docs("notes_no_speakers.txt"))), load_pipeline(), meeting_said=ALL)
    assert not any(f.relation.startswith((ROLES, FIGURES, PETITIONS)) for fs in base.facts.values() for f in fs)


def _generate(docs: dict[str, str], config: NaturalConfig) -> dict[str, Candidate]:
    from datagen.run import meeting_said

    return generate_single_hop(meeting_chunks(docs), 200, config, meeting_said=meeting_said(config))[1]


def test_the_generator_asks_them_and_each_key_turns_its_reader_off() -> None:
    docs = _docs()
    on = _generate(docs, NaturalConfig())
    said = {q: c for q, c in on.items() if c.metadata["relations"][0].startswith((ROLES, FIGURES, PETITIONS))}
    assert said["In the LMP201 kick-off meeting, who was the team lead?"].answer == "Priya"
    for c in said.values():
        item = c.supporting[0]
        assert contains(docs[item.doc_id], c.answer) and contains(docs[item.doc_id], item.quotes[0])
        assert not contains(c.question, c.answer)
    figures = on["In the LMP201 kick-off meeting, what production cost did the team lead give?"]
    assert "14.5 Euro" in figures.aliases
    off = _generate(docs, NaturalConfig(meet_figures=0.0))
    assert not any(c.metadata["relations"][0].startswith(FIGURES) for c in off.values())
    assert any(c.metadata["relations"][0].startswith(ROLES) for c in off.values())


def test_off_reads_the_facts_main_read() -> None:
    mined = mine(meeting_chunks(_docs()))
    nlp = load_pipeline()
    on, off = read_facts(mined, nlp, meeting_said=ALL), read_facts(mined, nlp)
    heads = (ROLES, FIGURES, PETITIONS)
    assert any(f.relation.startswith(heads) for fs in on.facts.values() for f in fs)
    rest = {d: kept for d, fs in on.facts.items() if (kept := [f for f in fs if not f.relation.startswith(heads)])}
    assert rest == off.facts
    assert on.skipped - Counter({k: v for k, v in on.skipped.items() if k.startswith("said_")}) == off.skipped


def test_the_keys_are_mix_keys() -> None:
    assert parse_mix("meet_roles=0,meet_figures=1,meet_petitions=0") == {
        "meet_roles": 0.0, "meet_figures": 1.0, "meet_petitions": 0.0}
    with pytest.raises(ValueError, match="meet_figures"):
        NaturalConfig(meet_figures=2.0)


def test_a_sitting_named_with_its_adjective_and_a_body_with_commas() -> None:
    assert sitting_name("Chair AM: Welcome to the first virtual meeting of the Children, Parks and Libraries Committee. "
                        "We start.") == "the first virtual meeting of the Children, Parks and Libraries Committee"
    assert sitting_name("Chair: Welcome to the first meeting of the Rural Committee, and thanks.") == \
        "the first meeting of the Rural Committee"
    assert sitting_name("Chair: Welcome to the first meeting of the Committee, and thanks.") == ""  # one word names no body


def test_a_share_of_a_group_is_asked_with_who_reported_it() -> None:
    asked, skipped = _asked(_docs("LMP201a.txt", "LMP201b.txt"))
    head = "In the LMP201 functional design meeting, what percentage of"
    assert asked[f"{head} users say they leave the lamp on all night, according to the person in charge of sales?"] \
        == "Sixty percent"
    assert asked[f"{head} people would pay more for a dimmer, according to the person in charge of sales?"] \
        == "forty percent"
    shares = [q for q in asked if "percentage" in q]
    assert len(shares) == 2  # fillers, a hedge, "eighty hundred", a finding cut by a comma: not asked
    assert skipped["said_share_disfluent"] == 1
