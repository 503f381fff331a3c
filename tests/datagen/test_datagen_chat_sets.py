"""What a speaker told of themself over several sessions, asked as one set: "What two instruments does Melanie
play?" → "clarinet and violin" (datagen.chat_sets); a mention the reader could not cut, two things that may be
one, or a set told in one session gives none; `--mix sets=0` writes none."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_sets_asked

from datagen.chat_sets import plural, set_question
from datagen.natural import NaturalConfig, parse_mix

CHATS = [
    ("chat/D1", CHAT_S1, "Melanie: Yeah, I play clarinet!\n"
                         "Maria: My dog Coco loves the beach.\n"
                         "John: I watched a movie called 'Arrival' yesterday."),
    ("chat/D2", CHAT_S2, "Melanie: I also play the violin.\n"
                         "Maria: I just adopted a puppy. Her name is Shadow!\n"
                         "John: I watched a movie called 'Dune' last night."),
    ("chat/D3", CHAT_S3, "Melanie: I'm a big fan of pottery.\n"
                         "Maria: I took a creative writing class recently.\n"
                         "John: I volunteer at a shelter.\n"
                         "John: I volunteered at the homeless shelter last week."),
]




def test_what_a_speaker_told_over_sessions_is_asked_as_a_set() -> None:
    """Old code: the two instruments, dogs and movies gave no question (each one of two answers)."""
    qs = chat_sets_asked(CHATS)
    c = qs["What two instruments does Melanie play?"]
    assert c.answer == "clarinet and violin" and sorted(c.doc_ids) == ["chat/D1", "chat/D2"] and c.hops == 2
    assert qs["What are the names of Maria's two dogs?"].answer == "Coco and Shadow"
    assert qs["What two movies did John watch?"].answer == "Arrival and Dune"
    assert "What two things does Melanie play?" not in qs  # the act reader's set of the same things, replaced
    assert not any("volunteer" in q for q in qs)  # "a shelter" and "the homeless shelter" may be one


def test_sets_zero_writes_none() -> None:
    assert parse_mix("sets=0") == {"said_sets": 0.0}
    assert not any(q.startswith(("What are the names", "What two instruments")) for q in chat_sets_asked(CHATS, NaturalConfig(said_sets=0)))


def test_set_questions() -> None:
    assert set_question("What instrument does {s} play?") == "What {n} instruments does {s} play?"
    assert set_question("What is the name of {s}'s dog?") == "What are the names of {s}'s {n} dogs?"
    assert set_question("What class did {s} take?") == "What {n} classes did {s} take?"
    assert set_question("What did {s} participate in?") == "What {n} things did {s} participate in?"
    assert set_question("Where did {s} volunteer?") == ""
    assert [plural(w) for w in ("hobby", "class", "movie", "day")] == ["hobbies", "classes", "movies", "days"]
