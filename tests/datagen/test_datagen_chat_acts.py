"""What a chat's speaker said they did or liked, asked by the chat's day as a person asks it (datagen.chat_acts):
"In the chat of 8 May 2023, what did Maria get?" → "a puppy", "…, where did John go?" → "Yosemite", "…, what did
Maria mention loving?" → "Olive Garden"; a question, a hedge, an idiom, a vague or abstract thing, a place
one tells nothing of, or two things of one act on one day give no question, and a thing another reader asks of
the same sentence is not asked again by its day."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_questions

from datagen.verify import told_day

ACTS = [
    ("chat/D1", CHAT_S1, "John: I finally finished the quilt for my sister.\n"
                    "Maria: I got a puppy two weeks ago!\n"
                    "John: I went to Yosemite with my kids.\n"
                    "Maria: I really love Olive Garden.\n"
                    "John: I made a difference.\n"
                    "Maria: I found a cool new fashion piece for my store.\n"
                    "John: Well, my kids and I built a treehouse in the garden."),
    ("chat/D2", CHAT_S2, "John: Did you get a new car?\n"
                    "Maria: Maybe I got a new bike.\n"
                    "John: I made some new friends.\n"
                    "Maria: I went to bed early.\n"
                    "John: I got a great turnout.\n"
                    "Maria: I found it."),
    ("chat/D3", CHAT_S3, "John: I love jazz.\n"
                    "John: I also enjoy hiking trips.\n"
                    "Maria: I found a wallet on the bus.\n"
                    "Maria: I found a stray dog later.\n"
                    "Maria: I love the colors in this one!\n"
                    "Maria: We got some massages, pedicures and a nap."),
]


def test_what_a_speaker_did_or_liked_is_asked_by_their_chat() -> None:
    """Old code: a past act outside datagen.activity_facts' verbs, a place one went to with no date, and a
    liking gave no question."""
    qs = chat_questions(ACTS)
    day = "In the chat of 8 May 2023, "
    assert qs[day + "what did Maria get?"].answer == "a puppy"
    assert qs[day + "where did John go?"].answer == "Yosemite"
    assert qs[day + "what did Maria mention loving?"].answer == "Olive Garden"
    # the speaker's "my" kept in the answer: not asked since session 37 (NaturalConfig.speaker_words)
    assert day + "what did Maria find?" not in qs
    assert qs[day + "what did John build?"].answer == "a treehouse"  # "my kids and I": John too
    for q in (day + "what did Maria get?", day + "where did John go?"):
        assert told_day(q) is not None and qs[q].supporting[0].doc_id == "chat/D1"  # the chat of that day


def test_a_question_a_hedge_an_idiom_or_two_things_give_no_question() -> None:
    qs = chat_questions(ACTS)
    assert "In the chat of 8 May 2023, what did Maria get?" in qs  # the reader runs
    # 25 May: a question, "Maybe", "made some new friends", "went to bed", "a great turnout", "it"
    assert not any(q.startswith("In the chat of 25 May 2023, ") for q in qs), sorted(qs)
    # 14 June: two likings (jazz, hiking trips) and two things found that day: no one answer; a liking of what
    # the chat shows ("the colors in this one"), a list cut short
    assert not any(q.startswith("In the chat of 14 June 2023, ") for q in qs), sorted(qs)
    assert not any(q.endswith("make?") for q in qs)  # "made a difference" made nothing


def test_a_thing_another_reader_asks_is_not_asked_again_by_its_day() -> None:
    """"I finally finished the quilt" is datagen.activity_facts' "What did John finish?" → "the quilt": "…, what
    did John finish?" → "the quilt for my sister" would ask the same thing twice."""
    qs = chat_questions(ACTS)
    assert qs["What did John finish?"].answer == "the quilt"
    assert "In the chat of 8 May 2023, what did John finish?" not in qs
