"""What a speaker did with one verb over several sessions, asked as one set: "What two places did Maria go to?" →
"Yosemite and the Grand Canyon" (datagen.chat_act_sets); a clause of that verb the act reader did not take ("Did I
tell you I signed up for …?") leaves the set unknown and asks nothing, this set or datagen.chat_sets'; `--mix acts=0`
writes none (and main's sets come back). And the one
helper that strips an answer's leading words for datagen.chat_acts and datagen.chat_doing."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_sets_asked

from datagen.mining import bare_words
from datagen.natural import NaturalConfig, parse_mix

CHATS = [
    ("chat/D1", CHAT_S1, "Maria: I went to Yosemite last weekend.\n"
                         "John: I signed up for a pottery class.\n"
                         "Maria: That sounds fun!"),
    ("chat/D2", CHAT_S2, "Maria: We went to the Grand Canyon.\n"
                         "John: I signed up for a yoga class.\n"
                         "Maria: Nice!"),
    ("chat/D3", CHAT_S3, "John: Did I tell you I signed up for a cooking class?\n"
                         "Maria: No, you didn't!"),
]




def test_a_speakers_acts_over_sessions_are_asked_as_a_set() -> None:
    """Old code: each place was one of two answers to "where did Maria go?", and no question asked them."""
    qs = chat_sets_asked(CHATS)
    c = qs["What two places did Maria go to?"]
    assert c.answer == "Yosemite and the Grand Canyon" and sorted(c.doc_ids) == ["chat/D1", "chat/D2"] and c.hops == 2
    assert all(item.contains_truth for item in c.supporting)  # every session that names one is gold


def test_a_clause_the_reader_did_not_take_leaves_the_set_unknown() -> None:
    """Old code asked datagen.chat_sets' "What two things did John sign up for?" → "a pottery class and a yoga
    class": John's third class is told in a question no reader reads, so the set is not known (neither that
    set nor an act set is asked)."""
    qs = chat_sets_asked(CHATS)
    assert "What two places did Maria go to?" in qs  # the module runs
    assert not any("John" in q for q in qs), sorted(qs)


def test_acts_zero_writes_none() -> None:
    assert parse_mix("acts=0") == {"act_sets": 0.0}
    qs = chat_sets_asked(CHATS, NaturalConfig(act_sets=0))
    assert not any(r.startswith("act:") for c in qs.values() for r in c.metadata["relations"]), sorted(qs)
    # and main's said set comes back, the clause in a question unread (what acts=1 guards against)
    assert "What two things did John sign up for?" in qs


def test_bare_words_keeps_both_readers_behaviours() -> None:
    # datagen.chat_doing: articles, "my" and "some" aside, no padding
    assert bare_words("My new grill") == "new grill" and bare_words("our pots") == "our pots"
    # datagen.chat_acts: "our" aside too, padded for whole-word containment, "" when nothing is left
    acts = ("a", "an", "the", "my", "our", "some")
    assert bare_words("our own pots", drop=acts, pad=True) == " own pots " and bare_words("the", drop=acts, pad=True) == ""
