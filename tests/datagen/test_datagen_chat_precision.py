"""Questions a person who read the chat would ask (issue 36, session 37): a dated act is asked without the
speaker's praise of its thing ("When did Jack go to the movie theater?", not "… the really nice movie
theater?"), a name's capital word stays ("the Great Wall")."""

from __future__ import annotations

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
