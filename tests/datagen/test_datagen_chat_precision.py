"""Questions a person who read the chat would ask (issue 36, session 37): a dated act is asked without the
speaker's praise of its thing ("When did Jack go to the movie theater?", not "… the really nice movie
theater?"), a name's capital word stays ("the Great Wall"); a feeling about a fact told after it ("I'm glad
tomorrow is a day off") is no mood of the day."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, chat_questions
from test_datagen_conversations import PT_1, _chunks, _questions

PRAISED = [("me/s3", PT_1, "\n".join([
    "Jack: Today I went to a really nice movie theater and watched a newly released movie.",
    "Luna: By the way, I saw a great book at the bookstore last week.",
    "Jack: Last week I went to a great restaurant and had a delicious dinner.",
    "Luna: Yesterday I adopted a cute pup from a shelter.",
    "Jack: Last month I went to the Great Wall.",
]))]


def test_a_dated_act_is_asked_without_the_speakers_praise() -> None:
    """Old code: "When did Jack go to the really nice movie theater?", "… the great restaurant?"."""
    qs = _questions(_chunks(PRAISED))
    assert qs["When did Jack go to the movie theater?"].answer == "14 March 2024"
    assert qs["When did Jack go to the restaurant?"].answer == "the week before 14 March 2024"
    assert qs["When did Luna see the book at the bookstore?"].answer == "the week before 14 March 2024"
    assert qs["When did Luna adopt the pup from the shelter?"].answer == "13 March 2024"
    assert qs["When did Jack go to the Great Wall?"].answer == "February 2024"
    assert not any(w in q for q in qs if q.startswith("When") for w in ("nice", "great ", "cute"))


GLAD = [("chat/D1", CHAT_S1, "Maria: I'm glad tomorrow is a day off.\n"
                             "John: I'm happy you liked it.\n"
                             "Maria: Hey John! I'm so grateful.")]


def test_a_feeling_about_a_fact_told_after_it_is_no_mood_of_the_day() -> None:
    """"I'm glad tomorrow is a day off": the parser hangs the clause on the verb as a bare dep; the gladness
    is about that fact, not how Maria felt that day. Old code: "how was Maria feeling?" → "glad"."""
    qs = chat_questions(GLAD)
    assert qs["In the chat of 8 May 2023, how was Maria feeling?"].answer == "grateful"  # a mood still asked
    assert all(c.answer not in ("glad", "happy") for c in qs.values())


PRODUCTS = [("chat/D1", CHAT_S1, "Val: I painted a new picture.\n"
                                 "Mel: I painted a picture of a sunset.\n"
                                 "Sam: I took some nice photos.\n"
                                 "Sam: I cooked a meal for the kids.")]


def test_a_making_verbs_bare_product_is_no_thing_made() -> None:
    """"What did Val paint?" → "a new picture" says what a painting is, not which. Old code asked it."""
    qs = chat_questions(PRODUCTS)
    assert qs["What did Mel paint?"].answer == "a picture of a sunset"  # a product named further still asked
    assert "What did Val paint?" not in qs and "What did Sam take?" not in qs and "What did Sam cook?" not in qs


VAGUE = [("chat/D1", CHAT_S1, "Kim: We popped some popcorn and cuddled up on the couch.\n"
                              "Lucy: Recently, I'm learning a new skill but finding it difficult.\n"
                              "Frank: I'm going to have dinner now and will talk to you again tomorrow.\n"
                              "Sunny: I'm planning to watch a movie tonight.")]


def test_a_thing_named_after_its_verb_a_bare_skill_and_a_plan_for_now_are_not_asked() -> None:
    """"what did Kim pop?" → "some popcorn", "what was Lucy learning?" → "a new skill", "what was Frank planning to
    do?" → "have dinner" (said leaving the chat). Old code asked each."""
    qs = chat_questions(VAGUE)
    assert qs["In the chat of 8 May 2023, what was Sunny planning to do?"].answer == "watch a movie tonight"
    assert not any(c.answer in ("some popcorn", "a new skill", "new skill", "have dinner") for c in qs.values())


def test_an_object_with_no_word_left_is_no_answer(nlp) -> None:  # noqa: ANN001
    """`datagen` raised IndexError on QMSum's meeting transcripts (session 39): a disfluent parse hung a word
    before the object under a preposition after it, so every word of the object was cut."""
    from spacy.tokens import Doc

    from datagen.activity_facts import _object_phrase

    words = ["I", "got", "the", "car", "with"]
    doc = Doc(nlp.vocab, words=words, heads=[1, 1, 4, 1, 3], deps=["nsubj", "ROOT", "det", "dobj", "prep"],
              pos=["PRON", "VERB", "DET", "NOUN", "ADP"])
    assert _object_phrase(doc[3], own=False) == ""
