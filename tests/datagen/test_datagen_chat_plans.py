"""A chat speaker's stated intentions ("What was John considering adopting?") and what they took part in
("What did Maria participate in?"), asked only when the whole corpus gives that person and act one
answer, every turn that states it a positive; a hedge, a negation, a question, a light act, a vague
head or a cut phrase gives no question."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_questions

from datagen.positives import POSITIVES

PLANS = [
    ("chat/D1", CHAT_S1, "John: We're considering adopting a rescue dog - for love and to teach our kids compassion.\n"
                    "Maria: That's lovely! I participated in a marching event for veterans' rights last week.\n"
                    "John: I wanna start a community garden so the kids can learn.\n"
                    "Maria: I signed up for a pottery class and I volunteered at a soup kitchen."),
    ("chat/D2", CHAT_S2, "John: I am still thinking about adopting a rescue dog.\n"
                    "Maria: I'm hoping to open my own bakery next year.\n"
                    "John: Honestly I don't want to start a podcast.\n"
                    "Maria: I volunteered at an animal shelter on Friday.\n"
                    "John: I want to create a place for people to dance."),
    ("chat/D3", CHAT_S3, "John: If I want to buy a boat, I need to save.\n"
                    "Maria: Did you sign up for the marathon?\n"
                    "John: I decided to have a party.\n"
                    "Maria: I also want to open a flower shop someday.\n"
                    "John: My grandma gave me this watch for my birthday.\n"
                    "Maria: This scarf is a gift from my aunt.\n"
                    "Maria: My friends gave me a scarf too.\n"
                    "John: I got promoted to assistant manager."),
    ("chat/D4", "John & Maria, session 4 (9:02 am on 2 July, 2023)",
     "John: That watch from my grandma is still ticking.\n"
     "Maria: Funny, my grandma is from Sweden. I grew up in Ohio."),
]


def test_intentions_and_what_a_speaker_took_part_in_are_asked_with_every_turn_as_a_positive() -> None:
    """Old code: no reader of intentions ("considering adopting") or of acts said with a preposition
    ("participated in"); none of these is asked."""
    qs = chat_questions(PLANS)
    dog = qs["What was John considering adopting?"]
    assert dog.answer == "rescue dog"
    # "I am still thinking about adopting a rescue dog" states it too: an extra positive
    gold = {dog.supporting[0].doc_id, *(p["doc_id"] for p in dog.metadata[POSITIVES])}
    assert gold == {"chat/D1", "chat/D2"}
    assert qs["What did John want to start?"].answer == "community garden"
    assert qs["What did Maria participate in?"].answer == "marching event"
    assert qs["What did Maria sign up for?"].answer == "pottery class"
    assert qs["Who gave John the watch?"].answer == "grandma"
    assert qs["What was John promoted to?"].answer == "assistant manager"


def test_two_answers_a_hedge_a_negation_a_light_act_or_a_vague_head_give_no_question() -> None:
    qs = chat_questions(PLANS)
    asked = set(qs)
    assert "What was John considering adopting?" in asked  # the reader runs (old code: nothing asked)
    # Maria hopes to open a bakery and wants to open a flower shop: "open" has two answers
    assert not any("open" in q for q in asked)
    # she volunteered at a soup kitchen and at an animal shelter: two answers
    assert "Where did Maria volunteer?" not in asked
    # a negation ("don't want to start a podcast") is no intention, and no second answer either
    assert all(c.answer != "podcast" for c in qs.values())
    # a condition ("If I want to buy a boat"), a question, a light act ("decided to have a party"), a
    # vague head alone ("a place for people to dance")
    # Maria's scarf came from her aunt and from her friends: two givers, no question
    assert "Who gave Maria the scarf?" not in asked
    for answer in ("boat", "marathon", "party", "place"):
        assert all(c.answer != answer for c in qs.values()), answer
