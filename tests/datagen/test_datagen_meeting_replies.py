"""A question asked in a meeting and answered in the next turn (issue 36; datagen.meeting_replies): asked as a
participant would ask it afterwards, the short answer verbatim; a question nobody answers, an answer by the asker
themself, a hedged reply, a reply that asks back, a yes/no question, an unresolved "it", talk about the talk and
a number to a "what" refused; one answer in the folder. Fixtures are made up."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from datagen_fixtures import meeting_chunks, paren_meeting, read_meeting

from corpus_tools.types import Chunk
from datagen.meeting_guard import is_meeting, refusal
from datagen.meeting_replies import REPLIES, meeting_reply_facts, read_answer, read_question
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate
from datagen.verify import contains

_paren = paren_meeting


ANSWERED = _paren([
    "(PERSON3) Welcome, [PERSON1] and [PERSON2].",  # the folder writes its people so: answers name them so
    "(PERSON1) Okay, so when is the review meeting with [ORGANIZATION3]?",
    "(PERSON2) Um, the 14th of October.",
    "(PERSON3) How many annotators does the Czech pilot need?",
    "(PERSON1) Four annotators.",
    "(PERSON2) Who will prepare the budget table for [PROJECT2]?",
    "(PERSON3) [PERSON7].",
    "(PERSON1) And when will you send the slides of the tutorial?",
    "(PERSON2) Ehm.",
    "By Friday.",
    "(PERSON3) Which corpus does the Kaldi baseline use?",
    "(PERSON1) Europarl.",
    "(PERSON2) Who is writing the evaluation chapter?",
    "(PERSON1) I am.",
    "(PERSON3) How long is this video lecture?",  # a guess after the question, which the answer corrects
    "2 hours?",
    "(PERSON2) Yeah, almost 3 hours.",
])
ASKED = {
    "When is the review meeting with [ORGANIZATION3]?": "the 14th of October",
    "How many annotators does the Czech pilot need?": "Four annotators",
    "Who will prepare the budget table for [PROJECT2]?": "[PERSON7]",
    "When will [PERSON2] send the slides of the tutorial?": "By Friday",
    "Which corpus does the Kaldi baseline use?": "Europarl",
    "Who is writing the evaluation chapter?": "[PERSON1]",
    "How long is the video lecture?": "almost 3 hours",
}
REFUSED = _paren([
    "(PERSON1)",  # an empty turn
    "",
    "(PERSON1) When is the review of the Prague demo?",  # nobody answers: the next line is the asker's own
    "The 3rd of May.",
    "(PERSON2) Okay.",
    "(PERSON3) How many pages does the Lisbon report have?",  # a hedged reply
    "(PERSON1) I think 40 pages.",
    "(PERSON2) Who will contact the Vienna partners?",  # a reply that is a question
    "(PERSON3) [PERSON4]?",
    "(PERSON1) Is the Berlin workshop on the 2nd of June?",  # a yes/no question
    "(PERSON2) The 2nd of June.",
    "(PERSON3) When is it due?",  # an unresolved "it"
    "(PERSON1) The 9th of March.",
    "(PERSON2) What do you mean by the Brno setup?",  # talk about the talk
    "(PERSON3) The GPU cluster.",
    "(PERSON1) What is the Welsh share of the grant?",  # a number to a "what": its unit is elsewhere
    "(PERSON2) Fifty-six.",
    "(PERSON3) When will the Madrid server be ready?",  # a reply that names no date
    "(PERSON1) Not sure, maybe soon.",
    "(PERSON2) Who will host the Oslo hackathon?",  # an answer with a stammer inside
    "(PERSON3) The the [ORGANIZATION9].",
    "(PERSON1) When do you want the Dublin slides?",  # a wish, no fact
    "(PERSON2) Tuesday.",
])


_chunks = meeting_chunks


def _read(docs: dict[str, str], tags: set[str] | None = None) -> tuple[dict[str, str], Counter]:
    """question → answer of the replies of `docs` (every document a meeting here)."""
    return read_meeting(meeting_reply_facts, docs, tags or set())


def test_the_fixtures_are_meetings() -> None:
    assert is_meeting(ANSWERED) and is_meeting(REFUSED)


def test_a_question_answered_in_the_next_turn_is_asked_as_a_participant_would() -> None:
    asked, _ = _read({"answered.txt": ANSWERED})
    assert asked == ASKED
    for answer in asked.values():
        assert contains(ANSWERED, answer)  # verbatim: the verifier finds it in the passage


def test_relations_forms_and_quotes() -> None:
    mined = mine(_chunks({"answered.txt": ANSWERED}))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    facts = meeting_reply_facts(mined.chunks, list(texts), texts, set(), Counter())["answered.txt"]
    assert {f.relation for f in facts} == {"meet:reply|when", "meet:reply|how many", "meet:reply|who",
                                          "meet:reply|which", "meet:reply|how long"}
    assert all(f.relation.startswith(REPLIES) and refusal(f, set()) == "" for f in facts)
    quote = next(f.sentence for f in facts if f.answer == "By Friday")
    assert quote == "(PERSON1) And when will you send the slides of the tutorial?\n(PERSON2) Ehm.\nBy Friday."


def test_unanswered_same_speaker_hedged_question_back_yes_no_and_unresolved_are_refused() -> None:
    asked, skipped = _read({"refused.txt": REFUSED})
    assert asked == {}
    assert skipped["reply_no_short_answer"] >= 4


@pytest.mark.parametrize("sentence", [
    "When is it due?", "What does this mean?", "Where did that come from?", "What do you think about the plan?",
    "Is the review on Friday?", "So what about the minutes?", "Where does the workshop take place this year?",
    "What the alignment's doing?", "When when is the review?", "Who did who made the slides?",
    "What should we do with the Prague data?", "When is the review",
])
def test_questions_that_ask_nothing_one_could_ask_afterwards(sentence: str) -> None:
    assert read_question(sentence, "[PERSON1]", "[PERSON2]") is None


def test_a_person_the_question_names_is_written_as_the_folder_writes_them() -> None:
    assert read_question("When will you send the slides?", "[PERSON1]", "[PERSON2]")[1] == \
        "When will [PERSON2] send the slides?"
    assert read_question("When do we meet the Vienna partners?", "[PERSON1]", "[PERSON2]")[1] == \
        "When does the team meet the Vienna partners?"
    assert read_question("When will you send the slides?", "[PERSON1]", "") is None  # a role answers: no one
    assert read_question("How long is this tutorial?", "[PERSON1]", "[PERSON2]")[1] == "How long is the tutorial?"


@pytest.mark.parametrize(("form", "reply", "answer"), [
    ("when", "Um, Friday.", "Friday"), ("when", "End of November.", "End of November"),
    ("when", "I don't know.", None), ("when", "Next week?", None), ("when", "Mr.", None),
    ("how many", "Yeah, almost 3 hours.", "almost 3 hours"), ("how many", "A lot.", None),
    ("who", "I will.", "[PERSON2]"), ("who", "Me.", "[PERSON2]"), ("who", "[PERSON5] and [PERSON6].", "[PERSON5] and [PERSON6]"),
    ("who", "Somebody from the team.", None), ("where", "It's in Denmark.", "in Denmark"), ("where", "Oh.", None),
    ("what", "Yes.", None), ("what", "It is what it is.", None), ("what", "The shared task data.", "The shared task data"),
    ("what", "and Uh, that's during Eurospeech.", None),  # session 51, an unseen split: "What is September sixth?"
    ("what", "That's the alignment tool.", "the alignment tool"),
])
def test_answers_of_the_question_s_type(form: str, reply: str, answer: str | None) -> None:
    assert read_answer(reply, form, "[PERSON2]", {}) == answer


def test_one_answer_in_the_folder() -> None:
    other = _paren(["(PERSON2) Which corpus does the Kaldi baseline use?", "(PERSON1) News Commentary."])
    asked, skipped = _read({"answered.txt": ANSWERED, "other.txt": other})
    assert "Which corpus does the Kaldi baseline use?" not in asked
    assert skipped["statement_not_unique"] >= 1


def test_a_role_label_answers_nothing() -> None:
    text = _paren(["(PERSON1) Who will present the Lisbon poster?", "(Project Manager) I will."])
    asked, _ = _read({"m.txt": text}, tags={"project manager"})
    assert asked == {}


def test_no_meeting_no_input() -> None:
    assert meeting_reply_facts({}, [], {}, set(), Counter()) == {}
    mined = mine(_chunks({"answered.txt": ANSWERED}))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    assert meeting_reply_facts(mined.chunks, ["missing.txt"], texts, set(), Counter()) == {}


def test_a_passage_s_cut_end_and_a_turn_with_no_speaker_answer_nothing() -> None:
    docs = {"m.txt": _paren([])}
    texts = {"m.txt": mine(_chunks(docs)).doc_text("m.txt")}
    cut = "(PERSON1) Okay.\n(PERSON1) When is the Brno review?\n(PERSON2) The 3rd of Ma"
    mid = "When is the Brno review?\n(PERSON2) The 3rd of May."  # the passage opens mid-turn: no asker
    chunks = {"m.txt": [Chunk("m.txt#0", "m.txt", cut, 0, 9, {"title": ""}),
                        Chunk("m.txt#1", "m.txt", mid, 1, 9, {"title": ""})]}
    skipped: Counter = Counter()
    assert meeting_reply_facts(chunks, ["m.txt"], texts, set(), skipped) == {}
    assert skipped["reply_cut_end"] == 1


def _generate(docs: dict[str, str], config: NaturalConfig) -> dict[str, Candidate]:
    mined = mine(_chunks(docs))
    base = read_facts(mined, load_pipeline(), meeting_replies=bool(config.meeting_replies))
    gen = NaturalGenerator(mined, base, config)
    rng = random.Random(0)
    out: dict[str, Candidate] = {}
    for _ in range(100):
        c = gen.propose(1, rng)
        if isinstance(c, Candidate):
            gen.commit(c)
            out[c.question] = c
    return out


def test_the_generator_asks_them_and_the_flag_turns_them_off() -> None:
    docs = {"answered.txt": ANSWERED}
    on = _generate(docs, NaturalConfig())
    replies = [c for c in on.values() if c.metadata["relations"][0].startswith(REPLIES)]
    assert replies
    for c in replies:
        item = c.supporting[0]
        assert contains(docs[item.doc_id], c.answer) and contains(docs[item.doc_id], item.quotes[0])
        assert not contains(c.question, c.answer)
    off = _generate(docs, NaturalConfig(meeting_replies=0.0))
    assert not any(c.metadata["relations"][0].startswith(REPLIES) for c in off.values())


def test_off_reads_the_facts_main_read() -> None:
    mined = mine(_chunks({"answered.txt": ANSWERED}))
    nlp = load_pipeline()
    on, off = read_facts(mined, nlp), read_facts(mined, nlp, meeting_replies=False)
    assert any(f.relation.startswith(REPLIES) for fs in on.facts.values() for f in fs)
    assert not any(f.relation.startswith(REPLIES) for fs in off.facts.values() for f in fs)
    rest = {d: kept for d, fs in on.facts.items() if (kept := [f for f in fs if not f.relation.startswith(REPLIES)])}
    assert rest == off.facts
    assert +Counter({k: v for k, v in on.skipped.items() if not k.startswith("reply_")}) == +off.skipped


def test_a_chat_gives_no_reply() -> None:
    """Two friends chatting are no meeting: a question and its answer stay the chat readers' to read."""
    chat = "\n".join(["Caroline: When is the Lisbon trip?", "Melanie: The 3rd of May."] * 20)
    base = read_facts(mine(_chunks({"chat.txt": chat})), load_pipeline())
    assert not any(f.relation.startswith(REPLIES) for fs in base.facts.values() for f in fs)


def test_the_flag_is_a_mix_key() -> None:
    assert parse_mix("replies=0") == {"meeting_replies": 0.0}
    with pytest.raises(ValueError, match="replies"):
        parse_mix("replies=2")
    with pytest.raises(ValueError, match="meeting_replies"):
        NaturalConfig(meeting_replies=-1.0)
