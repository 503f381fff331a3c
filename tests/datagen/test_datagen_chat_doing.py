"""What a chat's speaker said they were busy with, asked by the chat's day as a person asks it: "In the chat of
8 May 2023, what was John studying?" → "world history", "…what was Maria searching for?", "…what was John
learning to do?"; a question, a hedge, a joke, another's act, a pointing or vague thing, a thing the month
reader or the name reader asks, or two things of one act on one day give no question."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_questions

from datagen.verify import told_day

BUSY = [
    ("chat/D1", CHAT_S1, "John: Recently, I've been studying world history at the library.\n"
                    "Maria: I'm still searching for a place to open a bakery.\n"
                    "John: Lately I have been learning to cook, and my kids love it.\n"
                    "Maria: I'm getting ready for a pottery fair next month.\n"
                    "Maria: I've been volunteering at the food bank."),
    ("chat/D2", CHAT_S2, "John: Are you still looking into yoga classes?\n"
                    "Maria: Maybe I've been looking into pilates instead.\n"
                    "John: I've been looking for my keys all day lol.\n"
                    "Maria: I think you've been working on the treehouse.\n"
                    "John: I've been working on it since March.\n"
                    "Maria: I've been doing my best.\n"
                    "John: I've been reading a novel called \"Silent Separation\"."),
    ("chat/D3", CHAT_S3, "John: I've been learning how to bake sourdough bread.\n"
                    "John: I've been learning the violin with my daughter.\n"
                    "Maria: I've been volunteering at the animal shelter downtown."),
]


def test_what_a_speaker_was_busy_with_is_asked_by_their_chat() -> None:
    """Old code: "I've been …-ing" and acts outside the month reader's few verbs gave no question."""
    qs = chat_questions(BUSY)
    day = "In the chat of 8 May 2023, "
    assert qs[day + "what was John studying?"].answer == "world history"
    # (session 37: "… to open my bakery", the speaker's "my" kept, is no longer asked; the fixture says "a")
    assert qs[day + "what was Maria searching for?"].answer == "a place to open a bakery"
    assert qs[day + "what was John learning to do?"].answer == "cook"
    assert qs[day + "what was Maria getting ready for?"].answer == "a pottery fair"  # without "next month"
    third = "In the chat of 14 June 2023, "
    # two shelters on two days: chat_part's "Where did Maria volunteer?" has no one answer, each day's has
    assert qs[third + "where was Maria volunteering?"].answer == "the animal shelter downtown"
    assert qs[day + "where was Maria volunteering?"].answer == "the food bank"
    assert "Where did Maria volunteer?" not in qs
    for q in (day + "what was John studying?", day + "what was Maria searching for?"):
        assert told_day(q) is not None and qs[q].supporting[0].doc_id == "chat/D1"  # the chat of that day


def test_a_question_a_hedge_a_joke_another_s_act_or_two_things_give_no_question() -> None:
    qs = chat_questions(BUSY)
    assert "In the chat of 8 May 2023, what was John studying?" in qs  # the reader runs
    # 25 May: a question, "Maybe", "lol", "I think you've been …", "it", "my best", a named novel (chat_named's)
    assert not any(q.startswith("In the chat of 25 May 2023, what was") for q in qs), sorted(qs)
    # 14 June: John learning two things that day (bread-making and the violin): no one answer
    assert not any(q.startswith("In the chat of 14 June 2023, what was John learning") for q in qs)


def test_a_thing_another_reader_asks_is_not_asked_again_by_its_day() -> None:
    """"I'm looking for a plain old gray couch" is chat_part's "What was Jesse looking for?" where the corpus
    gives one answer: the day's question would ask the same thing twice."""
    qs = chat_questions([("chat/D1", CHAT_S1, "John: I'm looking for a plain old gray couch.\n"
                                              "Maria: I've been searching for a vintage typewriter.")])
    assert qs["What was John looking for?"].answer == "plain old gray couch"
    assert not any(q.startswith("In the chat of") and "looking for" in q for q in qs)
    assert qs["In the chat of 8 May 2023, what was Maria searching for?"].answer == "a vintage typewriter"
