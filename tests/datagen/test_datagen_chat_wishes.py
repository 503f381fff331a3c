"""A chat speaker's wishes, hopes, thought-of plans, chosen topics and requests for advice, asked by the chat
they were said in as a person asks them: "In the chat of 8 May 2023, what did Maria want to do?" →
"travel to Portugal", "…what was John hoping to do?", "…what was Maria thinking about doing?", "…what did
John want to talk about?", "…what did Maria ask for advice on?"; a past wish, a courtesy, a wish for
another, a hedge, a pointing act, two wishes of one chat or an offer of advice gives no question."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_questions

from datagen.verify import told_day

WISHES = [
    ("chat/D1", CHAT_S1, "Maria: I'd love to travel to Portugal with a friend next spring.\n"
                    "John: I'm hoping to finish the treehouse for the kids by July.\n"
                    "Maria: I'm thinking about adopting a rescue dog from the shelter.\n"
                    "John: Today I want to talk to you about my new woodworking hobby.\n"
                    "Maria: Got any tips on growing tomatoes on a balcony?"),
    ("chat/D2", CHAT_S2, "John: I want to say thanks for the cake.\n"
                    "John: I wanted to open a bakery after college, so I saved.\n"
                    "Maria: I hope you like the book.\n"
                    "Maria: Maybe I want to learn the violin.\n"
                    "John: I want to go to the others.\n"
                    "Maria: Do you need advice on anything?"),
    ("chat/D3", CHAT_S3, "Maria: I want to visit the science museum in Boston.\n"
                    "Maria: I'd also like to learn how to play the cello.\n"
                    "John: I need some advice on training my puppy.\n"
                    "John: Any advice on fixing a leaking roof?"),
]


def test_a_wish_a_hope_a_thought_a_topic_and_advice_are_asked_by_their_chat() -> None:
    """Old code: wishes, topics and requests for advice were refused by design; none of these is asked."""
    qs = chat_questions(WISHES)
    day = "In the chat of 8 May 2023, "
    # (session 37: a wish keeping the speaker's "my" — "… with my sister …" — is no longer asked; the fixture
    # says "a friend")
    assert qs[day + "what did Maria want to do?"].answer == "travel to Portugal with a friend next spring"
    assert qs[day + "what was John hoping to do?"].answer == "finish the treehouse for the kids by July"
    assert qs[day + "what was Maria thinking about doing?"].answer == "adopting a rescue dog from the shelter"
    # the topic without the speaker's "my"
    assert qs[day + "what did John want to talk about?"].answer == "new woodworking hobby"
    assert qs[day + "what did Maria ask for advice on?"].answer == "growing tomatoes on a balcony"
    for q in (day + "what did Maria want to do?", day + "what did Maria ask for advice on?"):
        assert told_day(q) is not None and qs[q].supporting[0].doc_id == "chat/D1"  # the chat of that day


def test_a_courtesy_a_past_wish_another_s_act_a_hedge_or_two_wishes_give_no_question() -> None:
    qs = chat_questions(WISHES)
    asked = set(qs)
    assert "In the chat of 8 May 2023, what did Maria want to do?" in asked  # the reader runs
    # 25 May: "say thanks" is a courtesy, "wanted to open a bakery" a past reason, "I hope you like …"
    # another's act, "Maybe I want to …" a hedge, "the others" points, "Do you need advice" an offer
    assert not any(q.startswith("In the chat of 25 May 2023") and ("want" in q or "hoping" in q or "advice" in q)
                   for q in asked)
    # 14 June: two wishes (the museum, the cello) and two topics of advice: no one answer for either
    assert not any(q.startswith("In the chat of 14 June 2023") and ("want to do" in q or "advice" in q)
                   for q in asked)


def test_a_past_intent_is_no_plan_of_the_chat() -> None:
    """"I was gonna do a shameless plug" (MSC) is what the speaker had meant to do, not a plan; old code
    asked "In the chat of …, what was Perry planning to do?" → "do a shameless plug"."""
    chat = [("chat/D1", CHAT_S1, "Maria: I teach english so I was gonna do a shameless plug.\n"
                                "John: I'm going to visit the science museum in Ohio.")]
    asked = set(chat_questions(chat))
    assert "In the chat of 8 May 2023, what was John planning to do?" in asked  # the reader runs
    assert "In the chat of 8 May 2023, what was Maria planning to do?" not in asked
