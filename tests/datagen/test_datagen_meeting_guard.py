"""A meeting transcript's facts asked only where safe (issue 36; datagen.meeting_guard): a speaker label
that is a role or a letter code names no one, the chat readers misread meeting speech, a hedged sentence
states no act, a person read as a place is refused; a named committee member's named fact stays, and a
two-person chat is no meeting (its facts are untouched)."""

from __future__ import annotations

import random

import pytest

from corpus_tools.types import Chunk
from datagen.factbase import Fact, FactBase
from datagen.meeting_guard import guard_meetings, is_meeting, refusal, tag_labels
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate

# two product-design meetings spoken by roles (every recording has the same four), the roles also said in
# lower case as roles are ("the marketing budget", "the project manager")
AMI_1 = "\n".join([
    "Project Manager: Okay, welcome everyone to the kick-off meeting.",
    "Marketing: Hi, I'm from Leicester and I look after the marketing budget.",
    "Industrial Designer: I grew up in San Diego.",
    "User Interface: I'm from Estonia.",
    "Project Manager: So the project manager will send the minutes.",
    "Marketing: I'm allergic to cats.",
    "Industrial Designer: I play the guitar.",
    "User Interface: The user interface needs big buttons.",
])
AMI_2 = "\n".join([
    "Project Manager: Welcome back to the functional design meeting.",
    "Marketing: Our research says the marketing message is young.",
    "Industrial Designer: The industrial designer chose a rubber case.",
    "User Interface: I like the yellow one.",
    "Project Manager: I come from Australia.",
])
# a research meeting spoken by letter codes, one of them wishing
ICSI = "\n".join([
    "Professor E: If we had money I would want to buy some baked goods.",
    "Grad E: I found the roots yesterday.",
    "PhD D: I'm from Kansas.",
    "Professor E: Okay.",
])
# a committee of named members
COMMITTEE = "\n".join([
    "Lynne Neagle AM: Good morning and welcome to the committee.",
    "Kirsty Williams AM: As I said to Hefin, it is not imminent.",
    "Lynne Neagle AM: On May 4, the Government of Taiwan delivered 25,000 surgical masks to the Government of "
    "British Columbia.",
    "Hefin David AM: Thank you, Chair.",
    "Kirsty Williams AM: Recently I attended the Atlantic Rim Collaboratory, which is a system-to-system conference.",
    "Kirsty Williams AM: I want to buy a new car for the department.",
])


def _long(text: str) -> str:
    """The meeting with thirty turns more of its speakers' fillers: a meeting runs long (`MIN_TURNS`)."""
    labels = [line.split(":")[0] for line in text.splitlines()]
    return text + "\n" + "\n".join(f"{labels[i % len(labels)]}: Okay." for i in range(30))


AMI_1, AMI_2, ICSI, COMMITTEE = (_long(t) for t in (AMI_1, AMI_2, ICSI, COMMITTEE))


def _chunks(docs: dict[str, str]) -> list[Chunk]:
    return [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": ""}) for d, text in docs.items()]


FOLDER = {"ES2002a.txt": AMI_1, "ES2002b.txt": AMI_2, "Bed002.txt": ICSI, "education_1.txt": COMMITTEE}


def _questions(config: NaturalConfig) -> dict[str, Candidate]:
    mined = mine(_chunks(FOLDER))
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()), config)
    rng = random.Random(0)
    out: dict[str, Candidate] = {}
    for _ in range(200):
        c = gen.propose(1, rng)
        if isinstance(c, Candidate):
            gen.commit(c)
            out[c.question] = c
    return out


def test_labels_that_name_no_one_are_read_from_the_folder() -> None:
    tags = tag_labels(FOLDER.values())
    # roles (said in lower case in the folder) and letter codes
    assert {"project manager", "marketing", "industrial designer", "user interface"} <= tags
    assert {"professor e", "grad e", "phd d"} <= tags
    # named members are people, whatever their honorific
    assert not {"lynne neagle am", "kirsty williams am", "hefin david am"} & tags


def test_a_meeting_is_three_speakers_most_lines_spoken() -> None:
    assert is_meeting(AMI_1) and is_meeting(COMMITTEE)
    # a two-person chat session is no meeting: the chat corpora's facts are never touched
    assert not is_meeting(_long("Caroline: I went to a support group.\nMelanie: That's great!\nCaroline: It was."))
    # nor a short group chat of three friends
    assert not is_meeting("Val: I painted a new picture.\nMel: I painted a sunset.\nSam: I took photos.")
    # a filing's "Label: value" lines among its prose are no meeting
    filing = "Net Sales: 12\nDate: May 1\nBy: J. Doe\n" * 11 + "\n".join(f"Prose line {i}." for i in range(80))
    assert not is_meeting(filing)


def _fact(subject: str, relation: str, answer: str, kind: str, sentence: str) -> Fact:
    return Fact("m", "m#0", sentence, subject, False, relation, answer, kind, "Which place did {s} go to?")


@pytest.mark.parametrize(("fact", "why"), [
    (_fact("Marketing", "go|to|place", "Michigan", "place", "I went to Michigan."), "speaker_tag"),
    (_fact("Grad E", "find|thing|other", "the roots", "other", "I found the roots."), "speaker_tag"),
    (_fact("Professor Jean White", "plan:buy|said|other", "baked goods", "other", "I want to buy baked goods."),
     "chat_reader"),
    (_fact("Kirsty Williams AM", "draw|thing|other", "attention", "other", "I drew attention to it."), "unnamed_answer"),
    (_fact("Jane", "talk|to|person", "Liz", "person", "Jane talked to Liz."), "subject_not_named"),
    (_fact("Jane Edwards", "talk|to|person", "Liz Brown", "person", "Maybe Jane Edwards should talk to Liz Brown."),
     "hedged"),
    (_fact("Kirsty Williams AM", "say|to|place", "Hefin", "place", "As I said to Hefin, it is early."), "class"),
    (_fact("Alexandra Mends", "turn|to|person", "Ashton", "place", "We turned to Ms. Ashton."), "class"),
    (_fact("Lou Gehrig", "die|from|organization", "ALS", "organization", "Lou Gehrig died from ALS."), "class"),
    (_fact("Kirsty Williams AM", "join|by|organization", "Huw Morris", "organization", "I am joined by Huw Morris."),
     "procedure"),
    (_fact("Dane Lloyd", "recognize|on|organization", "February18", "organization", "The House recognised it on February18."),
     "glued"),
    (_fact("Navraj Brar", "offer|to|organization", "the Peel Regional Police", "organization",
           "Navraj Brar at Pharmasave has offered free care packages to the Peel Regional Police."), ""),
    (Fact("m", "m#0", "Navraj Brar has offered care packages to nurses and sanitizer to the Peel Regional Police.",
          "Navraj Brar", False, "offer|to|organization", "the Peel Regional Police", "organization",
          "Which {c} has {s} offered care packages to?"), "cut_clause"),
    (Fact("m", "m#0", "So, we have provided funding to WISERD Education.", "David Blaney", False,
          "provide|to|organization", "WISERD Education", "organization", "Which {c} have {s} provided funding to?"),
     "we_as_one"),
])
def test_each_rule_refuses_its_class(fact: Fact, why: str) -> None:
    assert refusal(fact, {"marketing", "grad e"}) == why


def test_a_folder_with_no_meeting_is_untouched() -> None:
    chat = {"s1": "Caroline: I'm from Sweden.\nMelanie: Nice!"}
    fact = Fact("s1", "s1#0", "I'm from Sweden.", "Caroline", False, "from|said|place", "Sweden", "place",
                "Where is {s} from?")
    base = FactBase(facts={"s1": [fact]}, lists=[(fact,)])
    assert guard_meetings(base, chat.__getitem__, chat) == 0
    assert base.facts == {"s1": [fact]} and base.lists == [(fact,)] and not base.skipped


def test_meeting_questions_name_people_and_state_acts() -> None:
    """Main: "Where is Marketing from?", "Where did Industrial Designer grow up?", "What did Kirsty Williams
    AM want to buy?" (role speakers asked with no meeting, a wish read as an act); the guard asks none of
    them and keeps the committee's named facts."""
    off = _questions(NaturalConfig(meeting_guard=0.0))
    on = _questions(NaturalConfig())
    tags = ("Marketing", "Project Manager", "Industrial Designer", "User Interface", "Grad E", "PhD D", "Professor E")
    assert any(t in q for q in off for t in tags)  # what main writes
    assert not any(t in q for q in on for t in tags)
    assert not any("want to buy" in q for q in on)
    assert all(c.answer != "Hefin" for c in on.values())
    assert {"the Government of British Columbia", "the Atlantic Rim Collaboratory"} <= {c.answer for c in on.values()}


def test_the_flag_is_a_mix_key() -> None:
    assert parse_mix("meeting_guard=0") == {"meeting_guard": 0.0}
    with pytest.raises(ValueError, match="meeting_guard"):
        NaturalConfig(meeting_guard=2.0)


def test_what_the_guard_refused_shows_among_the_stages() -> None:
    mined = mine(_chunks(FOLDER))
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()), NaturalConfig())
    assert gen.stages["meeting:speaker_tag"] > 0 and gen.stages["meeting:chat_reader"] > 0
    off = NaturalGenerator(mined, read_facts(mined, load_pipeline()), NaturalConfig(meeting_guard=0.0))
    assert not any(k.startswith("meeting:") for k in off.stages)
