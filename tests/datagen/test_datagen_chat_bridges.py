"""A day-asked thing asked through another sentence of its session: "In the chat in which Maria mentioned
looking into pottery classes, how was John feeling?" → "hopeful and optimistic" (datagen.chat_bridges); an
anchor with "my", a feeling, words another session repeats or words of the answer give no question."""

from __future__ import annotations

import random

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_chunks, chat_questions

from datagen.chat_bridges import BRIDGE_OPENING, anchor_clause, session_bridges
from datagen.factbase import Fact, FactBase
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate

CHATS = [
    ("chat/D1", CHAT_S1, "Maria: I just finished reading a novel called 'The Night Circus'.\n"
                         "John: Today I feel a bit tired and stressed.\n"
                         "Maria: I'm planning to open a bakery downtown.\n"
                         "John: I'm planning to visit my old school."),
    ("chat/D2", CHAT_S2, "John: I'm thinking of adopting a rescue greyhound.\n"
                         "Maria: I'm looking into pottery classes.\n"
                         "John: I'm feeling hopeful and optimistic."),
    ("chat/D3", CHAT_S3, "Maria: I'm feeling great.\n"
                         "John: I'm looking into rock climbing gyms.\n"
                         "Maria: I watched a movie called 'Arrival' yesterday."),
]


def test_a_day_asked_thing_is_asked_through_another_sentence_of_its_session() -> None:
    """Old code: a session was asked only by its date ("In the chat of 25 May 2023, how was John feeling?")."""
    qs = chat_questions(CHATS)
    q = "In the chat in which Maria mentioned looking into pottery classes, how was John feeling?"
    assert qs[q].answer == "hopeful and optimistic"
    item = qs[q].supporting[0]  # one session, both sentences quoted (chat_questions ran the verifier on each)
    assert len(qs[q].supporting) == 1 and item.doc_id == "chat/D2"
    assert item.quotes == ("Maria: I'm looking into pottery classes.", "John: I'm feeling hopeful and optimistic.")
    # a which-chat fact names its session too ("In which chat did Maria mention watching Arrival?")
    q = "In the chat in which Maria mentioned watching Arrival, what was John looking into?"
    assert qs[q].answer == "rock climbing gyms" and qs[q].metadata["form"] == "session_bridge"
    # a fan's session: "being a fan of", not "faning of" (datagen.chat_mentions)
    fan = chat_questions([*CHATS[:2], ("chat/D3", CHAT_S3, "Melanie: I'm a big fan of pottery.\nJohn: Hi.")])
    assert fan["In which chat did Melanie mention being a fan of pottery?"].answer == "14 June 2023"
    # the plain day-asked questions are still written
    assert qs["In the chat of 25 May 2023, how was John feeling?"].answer == "hopeful and optimistic"


def test_an_anchor_with_my_a_feeling_or_the_answer_s_words_names_no_session() -> None:
    qs = chat_questions(CHATS)
    bridged = [q for q in qs if q.startswith(BRIDGE_OPENING)]
    assert bridged  # the reader runs
    assert not any("visit my old school," in q for q in bridged)  # "my": whose school?
    assert not any(" mentioned feeling" in q or "feeling hopeful" in q for q in bridged)  # feelings are many
    for q in bridged:  # the anchor never holds its own answer
        assert qs[q].answer.lower() not in q.lower()


def test_words_another_session_repeats_name_no_session() -> None:
    docs = [*CHATS[:2], ("chat/D3", CHAT_S3, "John: Maria, you said you'd open a bakery downtown one day!\n"
                                             "Maria: I'm looking into rock climbing gyms.")]
    qs = chat_questions(docs)
    assert any(q.startswith(BRIDGE_OPENING) for q in qs)
    assert not any("open a bakery downtown," in q for q in qs if q.startswith(BRIDGE_OPENING)), sorted(qs)


def test_bridges_zero_writes_none() -> None:
    assert parse_mix("bridges=0") == {"session_bridges": 0.0}
    chunks = chat_chunks(CHATS)
    mined = mine(chunks)
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()), NaturalConfig(session_bridges=0.0))
    rng = random.Random(0)
    for _ in range(100):
        c = gen.propose(1, rng)
        if isinstance(c, Candidate):
            gen.commit(c)
            assert not c.question.startswith(BRIDGE_OPENING)


def test_bridged_questions_come_once_the_plain_ones_are_written() -> None:
    """They add tasks where the facts run out, and take no session's place in a set the plain questions fill."""
    chunks = chat_chunks(CHATS)
    mined = mine(chunks)
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()))
    rng = random.Random(0)
    forms = []
    for _ in range(200):
        c = gen.propose(1, rng)
        if isinstance(c, Candidate):
            gen.commit(c)
            forms.append(c.metadata["form"])
    first = forms.index("session_bridge")
    assert first > 0 and set(forms[first:]) == {"session_bridge"}, forms


def _fact(ask: str, answer: str, sentence: str) -> Fact:
    return Fact("chat/D1", "chat/D1#0", sentence, "Jon", False, "x|said|other", answer, "other", ask)


def test_anchor_clauses() -> None:
    chats = {"chat/D1": "Jon: I'm hosting a dance competition. I painted that lake sunrise.", "chat/D2": "Gina: Hi."}
    assert anchor_clause(_fact("In which chat did {s} mention reading The Lean Startup?", "27 May 2023", ""), chats) == (
        "Jon mentioned reading The Lean Startup")
    assert anchor_clause(_fact("In the chat of 8 May 2023, what was {s} hosting?", "a dance competition", ""), chats) == (
        "Jon mentioned hosting a dance competition")
    assert anchor_clause(_fact("In the chat of 8 May 2023, what did {s} mention painting?", "lake sunrise",
                               "I painted that lake sunrise."), chats) == "Jon mentioned painting the lake sunrise"
    assert anchor_clause(_fact("In the chat of 8 May 2023, how was {s} feeling?", "great", ""), chats) == ""
    passive = _fact("In which chat did {s} mention accepting for a fashion internship?", "8 May 2023",
                    "I just got accepted for a fashion internship!")
    assert anchor_clause(passive, chats) == ""  # "got accepted for": no "Jon mentioned accepting for …"
    chats["chat/D2"] = "Gina: Jon is hosting a dance competition!"  # another session says it too
    assert anchor_clause(_fact("In the chat of 8 May 2023, what was {s} hosting?", "a dance competition", ""), chats) == ""


def test_an_anchor_of_the_thing_s_own_frame_or_a_broken_clause_gives_no_question() -> None:
    day = "In the chat of 8 May 2023, "
    text = "Jason: I plan to go on adventures. I've been planning a trip to New Zealand. I'm feeling tired."
    facts = [
        Fact("chat/D1", "chat/D1#0", "I plan to go on adventures.", "Jason", False, "plan|said|other",
             "go on adventures", "other", day + "what was {s} planning to do?"),
        Fact("chat/D1", "chat/D1#0", "I've been planning a trip to New Zealand.", "Jason", False, "doing|said|other",
             "a trip to New Zealand", "other", day + "what was {s} planning?"),
        Fact("chat/D1", "chat/D1#0", "I'm feeling tired.", "Jason", False, "feel|said|other", "tired", "other",
             day + "how was {s} feeling?"),
    ]
    found = {b.question for b in session_bridges(FactBase(facts={"chat/D1": facts}), {"chat/D1": text, "chat/D2": "Gina: Hi."})}
    # a plan asked through another plan of the same person has two answers to a reader; a feeling is fine
    assert found == {
        "In the chat in which Jason mentioned planning to go on adventures, how was Jason feeling?",
        "In the chat in which Jason mentioned planning a trip to New Zealand, how was Jason feeling?",
    }, found
    advice = _fact("In the chat of 8 May 2023, what did {s} ask for advice on?", "maintain the habit of taking notes", "")
    assert anchor_clause(advice, {"chat/D1": "maintain the habit of taking notes"}) == ""  # "advice on maintain"
    advice = _fact("In the chat of 8 May 2023, what did {s} ask for advice on?", "places to visit", "")
    assert anchor_clause(advice, {"chat/D1": "places to visit"}) == "Jon asked for advice on places to visit"
