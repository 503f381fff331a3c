"""What a chat's speaker said they were passionate about, crazy about, keen on, interested in or into, asked by the
chat's day: "In the chat of 8 May 2023, what was Maria passionate about?" → "restoring old furniture"; a past
interest, a question, a hedge, a pointing thing, a list cut short or two things of one frame on one day give
no question."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_questions

from datagen.verify import told_day

CARES = [
    ("chat/D1", CHAT_S1, "Maria: I'm passionate about restoring old furniture and it calms me down.\n"
                    "John: I'm crazy about jazz piano - the chords are amazing.\n"
                    "Maria: Lately, I've been interested in Korean cooking.\n"
                    "John: I'm into birdwatching, although I rarely get out.\n"
                    "John: My goal is to build a treehouse for the kids."),
    ("chat/D2", CHAT_S2, "John: Are you passionate about painting?\n"
                    "Maria: I was into skateboarding as a teen.\n"
                    "John: Maybe I'm interested in sailing.\n"
                    "Maria: I'm obsessed with those.\n"
                    "John: I'm keen on learning how to carve, sand, and paint wood.\n"
                    "Maria: My goal was to win the race.\n"
                    "Maria: I'm passionate about fashion trends and finding unique pieces.\n"
                    "John: My biggest dream is to fly."),
    ("chat/D3", CHAT_S3, "Maria: I'm passionate about wildlife photography.\n"
                    "Maria: I'm also passionate about teaching kids to swim."),
]


def test_what_a_speaker_cares_for_is_asked_by_their_chat() -> None:
    """Old code: interests said with "passionate about", "crazy about", "into" gave no question."""
    qs = chat_questions(CARES)
    day = "In the chat of 8 May 2023, "
    assert qs[day + "what was Maria passionate about?"].answer == "restoring old furniture"
    assert qs[day + "what was John crazy about?"].answer == "jazz piano"
    assert qs[day + "what was Maria interested in?"].answer == "Korean cooking"
    assert qs[day + "what was John into?"].answer == "birdwatching"
    assert qs[day + "what was John's goal?"].answer == "to build a treehouse for the kids"
    q = day + "what was Maria passionate about?"
    assert told_day(q) is not None and qs[q].supporting[0].doc_id == "chat/D1"  # the chat of that day


def test_a_past_interest_a_hedge_a_pointing_thing_a_cut_list_or_two_things_give_no_question() -> None:
    qs = chat_questions(CARES)
    assert "In the chat of 8 May 2023, what was John into?" in qs  # the reader runs
    # 25 May: a question, a past "was into", "Maybe", "those", a list of acts cut after its first, a past
    # goal, a dream that is one of several ("my biggest dream"), a thing whose second half the parse lost
    assert not any(q.startswith("In the chat of 25 May 2023, what was") for q in qs), sorted(qs)
    # 14 June: two passions on one day: no one answer
    assert not any(q.startswith("In the chat of 14 June 2023, what was Maria passionate") for q in qs)
