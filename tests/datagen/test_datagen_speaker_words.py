"""A chat's thing whose answer keeps the speaker's own "my" / "our" is not asked ("What did Melanie celebrate?" →
"my daughter's birthday" reads as the chat, not as a reader's answer; issue 36, session 37);
`--mix speaker_words=1` asks them again (datagen.natural, datagen.factbase.speaker_words)."""

from __future__ import annotations

import random

from datagen_fixtures import CHAT_S1, CHAT_S2, chat_chunks

from datagen.factbase import speaker_words
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate

CHATS = [
    ("chat/D1", CHAT_S1, "Melanie: We celebrated my daughter's birthday with a concert yesterday.\n"
                         "Jon: I'm super thrilled about dancing each day and seeing my students progress.\n"
                         "Melanie: I just signed up for a pottery class yesterday."),
    ("chat/D2", CHAT_S2, "Jon: I'm passionate about improving education and infrastructure in our community.\n"
                         "Melanie: I painted a lake sunrise last week.\n"
                         "Jon: I'm searching for a place to open my dance studio."),
]


def _answers(config: NaturalConfig | None = None) -> set[str]:
    mined = mine(chat_chunks(CHATS))
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()), config)
    rng = random.Random(0)
    out = set()
    for _ in range(60):
        c = gen.propose(1, rng)
        if isinstance(c, Candidate):
            gen.commit(c)
            out.add(c.answer)
    return out


def test_answers_in_the_speakers_words_are_not_asked() -> None:
    """Old code: "my daughter's birthday", "a place to open my dance studio" … were answers."""
    kept = _answers(NaturalConfig(speaker_words=1))
    assert any(speaker_words(a) for a in kept)  # the readers do find them
    default = _answers()
    assert default and not any(speaker_words(a) for a in default)
    assert parse_mix("speaker_words=1") == {"speaker_words": 1.0}


def test_speaker_words() -> None:
    assert speaker_words("my daughter's birthday") and speaker_words("inviting a few other friends of mine")
    assert speaker_words("our own pots") and speaker_words("a place to open my dance studio")
    assert not speaker_words("the US Open") and not speaker_words("Us Weekly") and not speaker_words("a pottery class")
