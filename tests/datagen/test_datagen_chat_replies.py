"""What a chat's speaker answered to the other speaker's plain question, asked again of the speaker by
name: "John: What kind of movies do you like?" / "Maria: I like action and comedy movies." → "What kind of
movies does Maria like?" → "action and comedy movies"; a hedged reply, a question that points ("Which one
…?"), a question followed by more words, or a reply naming only the question's noun gives none."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, CHAT_S2, chat_questions

REPLIES = [
    ("chat/D1", CHAT_S1, "John: I'm into films lately. What kind of movies do you like?\n"
                    "Maria: I like action and comedy movies.\n"
                    "John: Who is your favorite country music artist?\n"
                    "Maria: Definitely Kenny Rogers.\n"
                    "Maria: Which one did you like the most?\n"
                    "John: I loved the red kayak.\n"
                    "John: What kind of music do you like?\n"
                    "Maria: Maybe jazz.\n"
                    "Maria: What kind of books do you read? I love thrillers.\n"
                    "John: I read mostly mysteries."),
    ("chat/D2", CHAT_S2, "Maria: What movie did you watch?\n"
                    "John: I watched a movie called \"Manchester by the Sea\" with my brother.\n"
                    "John: Which park did you go to?\n"
                    "Maria: I went to Green Meadow Park with my kids.\n"
                    "Maria: What kind of games do you play?\n"
                    "John: Thanks, Maria! I play board games and video games with my brother.\n"
                    "Maria: What kind of food do you like?\n"
                    "John: I like all kinds of food."),
]


def test_a_reply_to_the_other_speaker_s_question_is_asked_of_the_speaker() -> None:
    """Old code: a reply gave a question only when it said the fact whole ("I like action movies" has no
    object the other readers ask); none of these is asked."""
    qs = chat_questions(REPLIES)
    assert qs["What kind of movies does Maria like?"].answer == "action and comedy movies"
    assert qs["Who is Maria's favorite country music artist?"].answer == "Kenny Rogers"
    assert qs["Which park did Maria go to?"].answer == "Green Meadow Park"
    assert qs["What movie did John watch?"].answer == "Manchester by the Sea"
    # a reply that opens with a short thanks still answers the question before it
    assert qs["What kind of games does John play?"].answer == "board games and video games"


def test_a_hedge_a_pointing_question_or_a_question_not_last_gives_none() -> None:
    qs = chat_questions(REPLIES)
    assert "What kind of movies does Maria like?" in qs  # the reader runs
    # "Which one …?": which one? ; "Maybe jazz.": a guess; "What kind of books …? I love thrillers.": the
    # reply may answer the last sentence, not the question
    assert not any(q.startswith("Which one") or "kind of music" in q or "books" in q for q in qs)
    assert all(c.answer not in ("red kayak", "jazz") for c in qs.values())
    assert "What kind of food does John like?" not in qs  # "all kinds of food" names nothing


def test_an_answer_cut_inside_a_written_word_or_a_pointing_other_gives_none() -> None:
    """Found in the lead's read of session 35's reporting output: spaCy splits "CS:GO" at its colon, so
    "CS" (or "GO") was asked as the game; "What other books …" points back at the chat."""
    chats = [("chat/D1", CHAT_S1, "John: Which game do you play?\n"
                                  "Nate: I play CS:GO with my friends.\n"
                                  "Nate: What other books do you like?\n"
                                  "John: I like mystery novels a lot.\n"
                                  "John: What kind of movies do you like?\n"
                                  "Nate: I like action and comedy movies.")]
    qs = chat_questions(chats)
    assert qs["What kind of movies does Nate like?"].answer == "action and comedy movies"  # the reader runs
    assert not any(c.answer in ("CS", "GO") for c in qs.values())
    assert not any("other" in q.split() for q in qs)
