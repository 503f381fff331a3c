"""What a meeting states, asked as its people would ask it (issue 36; datagen.meeting_statements): who will do
what, who is in charge, who offered, a count, a deadline; the speaker of an "I" resolved through the
transcript's "(Name) text" or "Name: text" lines (continuation lines included); hedges, questions, pronoun
things and stammers refused; one answer in the folder. Fixtures are made up, in the two transcript styles."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from datagen_fixtures import meeting_chunks, paren_meeting, read_meeting

from corpus_tools.types import Chunk
from datagen.factbase import Fact, FactBase
from datagen.meeting_guard import is_meeting, meeting_text, refusal
from datagen.meeting_statements import statement_facts, turn_lines
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate
from datagen.verify import contains

_paren = paren_meeting


DEMO = _paren([
    "(PERSON1) So we are expecting [PERSON2] today? [PERSON3], [PERSON6], can you hear us?",
    "(PERSON2) Yes, I am here.",
    "(PERSON6) Ehm, okay.",
    "I will check the list of figures maybe we should add some <unint/>.",
    "(PERSON3) Okay.",
    "So I'll prepare the evaluation corpus.",
    "(PERSON1) And [PERSON5] and [PERSON11] should select the demo videos.",
    "[ORGANIZATION5] will provide the demo server.",
    "(PERSON2) I'm in charge of the annotation guidelines.",
    "(PERSON3) Um, I can read the unsupervised methods chapter.",
    "(PERSON1) So there will be three subsets in the shared task data.",
    "(PERSON2) The deadline for the camera-ready paper is March 3rd.",
    "(PERSON3) And the interim report is due on Friday.",
])
HEDGED = _paren([
    "(PERSON1) If it works I will send the slides to the reviewers.",
    "(PERSON2) Maybe I'll prepare the budget table.",
    "(PERSON3) I think I will write the book introduction.",
    "(PERSON1) Will I prepare the conference poster?",
    "(PERSON2) I will send you a link.",
    "(PERSON3) I'll take care of it.",
    "(PERSON1) I will check the the speaker corpus.",
    "(PERSON2) [PERSON4] will not review the workshop paper.",
])
COMMITTEE = "\n".join([
    "Kirsty Williams AM: I will write to the committee about the school budget.",
    "Project Manager: I will send the meeting minutes.",
    "Lynne Neagle AM: Thank you.",
    *[f"{s}: Okay." for s in ("Lynne Neagle AM", "Kirsty Williams AM", "Hefin David AM") * 10],
    "Hefin David AM: The project manager will be here.",
])


_chunks = meeting_chunks


def _read(docs: dict[str, str]) -> tuple[dict[str, str], Counter]:
    """question → answer of the statements of `docs` (every document a meeting here)."""
    return read_meeting(statement_facts, docs, {"project manager"})


def test_a_turn_runs_on_over_its_continuation_lines() -> None:
    text = "Yeah, that one.\n(PERSON6) Okay.\nI will check it.\n\n(PERSON3) Fine.\nJane Roe: Hello."
    speakers = [s for s, _, _ in turn_lines(text)]
    assert speakers == ["", "PERSON6", "PERSON6", "PERSON3", "Jane Roe"]  # a passage opening mid-turn: no one
    _, start, end = turn_lines(text)[1]
    assert text[start:end] == "Okay."  # the text after the opener


def test_the_parenthesised_style_is_a_meeting() -> None:
    assert is_meeting(DEMO)
    # a few "(Note) text" lines among prose are no transcript
    prose = "\n".join(["(Note) See the appendix.", "(Update) Fixed.", "(Aside) Later."] * 10 + ["Some prose line."] * 200)
    assert not is_meeting(prose)
    assert not is_meeting("(PERSON1) Hi.\n(PERSON2) Hello.\n(PERSON3) Hey.")  # three turns: too short


def test_assignments_counts_and_deadlines_are_asked_with_the_speaker_resolved() -> None:
    asked, _ = _read({"demo.txt": DEMO})
    assert asked == {
        "Who will check the list of figures?": "[PERSON6]",  # on a continuation line of (PERSON6)'s turn
        "Who will prepare the evaluation corpus?": "[PERSON3]",
        "Who should select the demo videos?": "[PERSON5] and [PERSON11]",
        "Who will provide the demo server?": "[ORGANIZATION5]",
        "Who is in charge of the annotation guidelines?": "[PERSON2]",
        "Who offered to read the unsupervised methods chapter?": "[PERSON3]",
        "How many subsets will there be in the shared task data?": "three",
        "When is the deadline for the camera-ready paper?": "March 3rd",
        "When is the interim report due?": "Friday",
    }


def test_the_quote_shows_who_says_it() -> None:
    mined = mine(_chunks({"demo.txt": DEMO}))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    quotes = {f.subject: f.sentence for f in statement_facts(mined.chunks, list(texts), texts, set(), Counter())["demo.txt"]}
    assert quotes["the evaluation corpus"] == "(PERSON3) Okay.\nSo I'll prepare the evaluation corpus."
    assert quotes["the list of figures"].startswith("(PERSON6) Ehm, okay.\nI will check the list of figures")


def test_hedges_questions_pronouns_and_stammers_state_nothing() -> None:
    asked, _ = _read({"hedged.txt": HEDGED})
    assert asked == {}


def test_a_named_speaker_answers_and_a_role_does_not() -> None:
    asked, _ = _read({"committee.txt": COMMITTEE})
    assert asked == {"Who will write to the committee about the school budget?": "Kirsty Williams AM"}


def test_one_answer_in_the_folder() -> None:
    other = _paren(["(PERSON2) I will prepare the evaluation corpus."])  # said in a second meeting
    asked, skipped = _read({"demo.txt": DEMO, "other.txt": other})
    assert "Who will prepare the evaluation corpus?" not in asked
    assert skipped["statement_not_unique"] >= 1


def _generate(docs: dict[str, str], config: NaturalConfig) -> dict[str, Candidate]:
    mined = mine(_chunks(docs))
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()), config)
    rng = random.Random(0)
    out: dict[str, Candidate] = {}
    for _ in range(100):
        c = gen.propose(1, rng)
        if isinstance(c, Candidate):
            gen.commit(c)
            out[c.question] = c
    return out


def test_the_generator_asks_them_and_the_flag_turns_them_off() -> None:
    docs = {"demo.txt": DEMO, "committee.txt": COMMITTEE}
    on = _generate(docs, NaturalConfig())
    assert on["Who will check the list of figures?"].answer == "[PERSON6]"
    assert on["When is the deadline for the camera-ready paper?"].answer == "March 3rd"
    for c in on.values():
        if c.metadata["relations"][0].startswith("meet:"):
            item = c.supporting[0]
            chunk = docs[item.doc_id]
            assert contains(chunk, c.answer) and contains(chunk, item.quotes[0])  # the verifier's test
            assert not contains(c.question, c.answer)
    off = _generate(docs, NaturalConfig(meeting_statements=0.0))
    assert not any(c.metadata["relations"][0].startswith("meet:") for c in off.values())


def test_the_guard_lets_statements_through() -> None:
    asked, _ = _read({"demo.txt": DEMO})
    mined = mine(_chunks({"demo.txt": DEMO}))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    for f in statement_facts(mined.chunks, list(texts), texts, set(), Counter())["demo.txt"]:
        assert refusal(f, set()) == ""


def test_a_chat_gives_no_statement() -> None:
    """Two friends chatting are no meeting: "I will send the photos" stays the chat readers' to read."""
    chat = "\n".join(["Caroline: I will send the beach photos.", "Melanie: Great!"] * 20)
    mined = mine(_chunks({"chat.txt": chat}))
    base = read_facts(mined, load_pipeline())
    assert not any(f.relation.startswith("meet:") for fs in base.facts.values() for f in fs)


def test_the_flag_is_a_mix_key() -> None:
    assert parse_mix("statements=0") == {"meeting_statements": 0.0}
    with pytest.raises(ValueError, match="statements"):
        parse_mix("statements=2")
    with pytest.raises(ValueError, match="meeting_statements"):
        NaturalConfig(meeting_statements=-1.0)


# -- two bugs of session 40, on fixtures of our own ------------------------------------------------------------

COMMITTEE_MASKS = "\n".join([
    "Mr. Dane Lloyd: The Government of Taiwan delivered 25,000 masks to the Government of Manitoba.",
    "Ms. Jane Roe: Thank you.",
    "Mr. Bob Smith: Okay.",
    *[f"{s}: Okay." for s in ("Mr. Dane Lloyd", "Ms. Jane Roe", "Mr. Bob Smith") * 10],
])


def test_a_speaker_label_is_not_the_subject_of_what_follows_it() -> None:
    """Main: "Which organization did Dane Lloyd deliver 25,000 masks to?" (the parse took the label's name)."""
    mined = mine(_chunks({"masks.txt": COMMITTEE_MASKS}))
    base = read_facts(mined, load_pipeline())
    misread = [f for fs in base.facts.values() for f in fs if f.subject == "Dane Lloyd"]
    assert misread  # what the reader gives
    assert all(refusal(f, set()) == "speaker_as_subject" for f in misread)
    asked = _generate({"masks.txt": COMMITTEE_MASKS}, NaturalConfig())
    assert not any("Dane Lloyd" in q for q in asked)
    # a speaker saying "I" is their own subject
    said = misread[0]
    mine_too = replace(said, sentence="Mr. Dane Lloyd: I delivered 25,000 masks to the Government of Manitoba.")
    assert refusal(mine_too, set()) != "speaker_as_subject"


def _long_speeches() -> list[Chunk]:
    """A committee of long speeches, cut into overlapping windows anywhere, as an index cuts them."""
    speakers = ["Mr. Dane Lloyd", "Ms. Jane Roe", "The Chair"]
    speech = " ".join(["The committee heard many things about the masks and the budget."] * 12)
    text = "\n".join(f"{speakers[i % 3]}: {speech}" for i in range(36))
    return [Chunk(f"c.txt#{n}", "c.txt", text[pos:pos + 400], n, 80, {"title": ""})
            for n, pos in enumerate(range(0, len(text), 300))]


def test_a_meeting_of_long_speeches_is_still_a_meeting_once_cut_into_passages() -> None:
    """Session 40's "February18" passed the guard because the guard never ran: joined back, the passages of
    long speeches hold more cut ends than turns, and main's `is_meeting(doc_text)` said no meeting."""
    chunks = _long_speeches()
    mined = mine(chunks)
    assert not is_meeting(mined.doc_text("c.txt"))  # main's reading
    assert is_meeting(meeting_text(c.text for c in chunks))
    glued = Fact("c.txt", "c.txt#0", "The House recognised it on February18.", "Dane Lloyd", False,
                 "recognize|on|organization", "February18", "organization", "Which {c} did {s} recognize on?")
    base = FactBase(facts={"c.txt": [glued]})
    gen = NaturalGenerator(mined, base, NaturalConfig())
    assert gen.stages["meeting:glued"] == 1 and "c.txt" not in base.facts
