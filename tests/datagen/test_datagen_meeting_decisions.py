"""What a meeting decided, agreed or set, asked as its people would ask it (issue 36; datagen.meeting_decisions): a
tool chosen, a proposal another speaker takes, a date set, an amount, who runs what; hedges, questions, disfluent
spans, relative dates, a decision with no object and a proposal nobody takes refused; one answer in the folder.
Fixtures are made up."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from datagen_fixtures import meeting_chunks, paren_meeting, read_meeting

from corpus_tools.types import Chunk
from datagen.meeting_decisions import DECISIONS, decision_facts
from datagen.meeting_guard import is_meeting, refusal
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate
from datagen.verify import contains

_paren = paren_meeting


DECIDED = _paren([
    "(PERSON1) So we use Overleaf for the deliverable documents.",
    "(PERSON2) Let's include a separate track for [ORGANIZATION1].",
    "(PERSON3) Yes, agreed.",
    "(PERSON1) And the workshop will take place on the 1st of June.",
    "(PERSON2) The shared task data should be ready by the end of November.",
    "(PERSON3) We need 130 minutes of English data.",
    "(PERSON1) [ORGANIZATION11] is running the translation module.",
    "(PERSON2) The survey book is 150 pages long.",
    "(PERSON3) We would like to finish the draft, and the ELG paper is due next Friday, Feb 21.",
    "(PERSON1) We agreed that the case colour would be yellow.",
    "(PERSON2) Plan C is what [PERSON9] and [PERSON1] will focus on.",
    "(PERSON3) The deadline for the recorded uh, interim demo is the 17th of June.",
])
ASKED = {
    "What is used for the deliverable documents?": "Overleaf",
    "What did the meeting decide to include for [ORGANIZATION1]?": "a separate track",
    "When will the workshop take place?": "the 1st of June",
    "When should the shared task data be ready?": "the end of November",
    "How many minutes of English data are needed?": "130 minutes",
    "Who is running the translation module?": "[ORGANIZATION11]",
    "How long is the survey book?": "150 pages",
    "When is the ELG paper due?": "next Friday, Feb 21",
    "What was decided about the case colour?": "yellow",
    "Who will focus on Plan C?": "[PERSON9] and [PERSON1]",
    "When is the deadline for the recorded interim demo?": "the 17th of June",
}
REFUSED = _paren([
    "(PERSON1)",  # an empty turn
    "",
    "(PERSON2) We decided to include.",  # a decision with no object
    "(PERSON3) We decided to use it for the demo.",  # its object a pronoun
    "(PERSON1) Let's include that.",
    "(PERSON2) Okay.",
    "(PERSON3) Should we use Zoom for the weekly calls?",  # a question turn
    "(PERSON1) Do we need 20 hours of Czech data?",
    "(PERSON2) Let's drop the German track for the shared task.",  # a proposal nobody takes
    "(PERSON3) No, I don't think so.",
    "(PERSON1) I think the review will take place in September.",  # hedges
    "(PERSON2) Maybe we use Teams for the project meetings.",
    "(PERSON3) If it works, the pilot should be ready by the end of March.",
    "(PERSON1) The deadline for the recorded poster is alread- it's the 17th of July.",  # a restart
    "(PERSON2) The the summer school will be held on 3 May.",  # a stammer
    "(PERSON3) The final review will take place next week.",  # a relative date alone
    "(PERSON1) We don't use Slack for the reviews.",  # negated
])


_chunks = meeting_chunks


def _read(docs: dict[str, str], tags: set[str] | None = None) -> tuple[dict[str, str], Counter]:
    """question → answer of the decisions of `docs` (every document a meeting here)."""
    return read_meeting(decision_facts, docs, tags or set())


def test_the_fixtures_are_meetings() -> None:
    assert is_meeting(DECIDED) and is_meeting(REFUSED)


def test_choices_decisions_dates_amounts_and_who_runs_what_are_asked() -> None:
    asked, _ = _read({"decided.txt": DECIDED})
    assert asked == ASKED
    for answer in asked.values():
        assert answer in DECIDED  # verbatim: the verifier finds it in the passage


def test_relations_are_the_decision_kinds() -> None:
    mined = mine(_chunks({"decided.txt": DECIDED}))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    facts = decision_facts(mined.chunks, list(texts), texts, set(), Counter())["decided.txt"]
    assert facts and all(f.relation.startswith(DECISIONS) for f in facts)
    assert all(refusal(f, set()) == "" for f in facts)  # the meeting guard lets them through


def test_hedges_questions_disfluency_empty_turns_and_objectless_decisions_state_nothing() -> None:
    asked, skipped = _read({"refused.txt": REFUSED})
    assert asked == {}
    assert skipped["decision_proposal_not_taken"] == 1  # the drop nobody takes ("let's include that" is taken: no object)


def test_a_taken_proposal_is_quoted_with_the_turn_that_takes_it() -> None:
    mined = mine(_chunks({"decided.txt": DECIDED}))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    facts = decision_facts(mined.chunks, list(texts), texts, set(), Counter())["decided.txt"]
    quote = next(f.sentence for f in facts if f.relation == "meet:decide|include|for")
    assert quote == "(PERSON2) Let's include a separate track for [ORGANIZATION1].\n(PERSON3) Yes, agreed."
    assert quote in DECIDED


def test_one_answer_in_the_folder() -> None:
    other = _paren(["(PERSON2) So we use Overleaf for the deliverable documents."])  # said in a second meeting
    asked, skipped = _read({"decided.txt": DECIDED, "other.txt": other})
    assert "What is used for the deliverable documents?" not in asked
    assert skipped["statement_not_unique"] >= 1


def test_a_role_label_answers_nothing() -> None:
    text = _paren(["(Project Manager) Okay.", "(PERSON1) Project Manager is running the kickoff session."])
    asked, _ = _read({"m.txt": text}, tags={"project manager"})
    assert "Who is running the kickoff session?" not in asked


def test_no_meeting_no_input() -> None:
    assert decision_facts({}, [], {}, set(), Counter()) == {}
    mined = mine(_chunks({"decided.txt": DECIDED}))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    assert decision_facts(mined.chunks, ["missing.txt"], texts, set(), Counter()) == {}


def _generate(docs: dict[str, str], config: NaturalConfig) -> dict[str, Candidate]:
    mined = mine(_chunks(docs))
    base = read_facts(mined, load_pipeline(), meeting_decisions=bool(config.meeting_decisions))
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
    docs = {"decided.txt": DECIDED}
    on = _generate(docs, NaturalConfig())
    assert on["What is used for the deliverable documents?"].answer == "Overleaf"
    assert on["When should the shared task data be ready?"].answer == "the end of November"
    for c in on.values():
        if c.metadata["relations"][0].startswith(DECISIONS):
            item = c.supporting[0]
            assert contains(docs[item.doc_id], c.answer) and contains(docs[item.doc_id], item.quotes[0])
            assert not contains(c.question, c.answer)
    off = _generate(docs, NaturalConfig(meeting_decisions=0.0))
    assert not any(c.metadata["relations"][0].startswith(DECISIONS) for c in off.values())


def test_off_reads_the_facts_main_read() -> None:
    mined = mine(_chunks({"decided.txt": DECIDED}))
    nlp = load_pipeline()
    on, off = read_facts(mined, nlp), read_facts(mined, nlp, meeting_decisions=False)
    assert any(f.relation.startswith(DECISIONS) for fs in on.facts.values() for f in fs)
    assert not any(f.relation.startswith(DECISIONS) for fs in off.facts.values() for f in fs)
    rest = {d: kept for d, fs in on.facts.items() if (kept := [f for f in fs if not f.relation.startswith(DECISIONS)])}
    assert rest == off.facts and on.skipped - Counter({k: v for k, v in on.skipped.items() if k.startswith("decision_")}) \
        == off.skipped - Counter({k: v for k, v in off.skipped.items() if k.startswith("decision_")})


def test_a_chat_gives_no_decision() -> None:
    """Two friends chatting are no meeting: "we use Signal for the trip" stays the chat readers' to read."""
    chat = "\n".join(["Caroline: So we use Signal for the trip planning.", "Melanie: Great!"] * 20)
    base = read_facts(mine(_chunks({"chat.txt": chat})), load_pipeline())
    assert not any(f.relation.startswith(DECISIONS) for fs in base.facts.values() for f in fs)


def test_the_flag_is_a_mix_key() -> None:
    assert parse_mix("decisions=0") == {"meeting_decisions": 0.0}
    with pytest.raises(ValueError, match="decisions"):
        parse_mix("decisions=2")
    with pytest.raises(ValueError, match="meeting_decisions"):
        NaturalConfig(meeting_decisions=-1.0)


def test_a_question_the_statement_reader_asks_is_not_asked_twice() -> None:
    text = _paren(["(PERSON1) The deadline for the camera-ready paper is March 3rd."])
    mined = mine(_chunks({"m.txt": text}))
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    skipped: Counter = Counter()
    question = "When is the deadline for the camera-ready paper?"
    assert decision_facts(mined.chunks, ["m.txt"], texts, set(), Counter())["m.txt"][0].answer == "March 3rd"
    assert decision_facts(mined.chunks, ["m.txt"], texts, set(), skipped, asked={question}) == {}
    assert skipped["decision_asked_as_statement"] == 1


def test_a_passage_cut_mid_sentence_states_nothing() -> None:
    """A passage is a window cut anywhere: its open end ("… as a power sour") and, after the first, its first
    line when no speaker opens it ("… decided to use X" of "If we decided to use X") are not read."""
    head = "(PERSON1) Okay.\n" * 3
    text = head + "(PERSON2) So we decided to use kinetic energy as a power sour"
    cut_start = "we decided to use kinetic energy as a power source.\n(PERSON3) Okay."
    docs = {"m.txt": _paren([])}
    mined = mine(_chunks(docs))
    texts = {"m.txt": mined.doc_text("m.txt")}
    chunks = {"m.txt": [Chunk("m.txt#0", "m.txt", text, 0, 9, {"title": ""}),
                        Chunk("m.txt#1", "m.txt", cut_start, 1, 9, {"title": ""})]}
    assert decision_facts(chunks, ["m.txt"], texts, set(), Counter()) == {}
    whole = [Chunk("m.txt#0", "m.txt", "(PERSON2) " + cut_start, 0, 9, {"title": ""})]
    found = decision_facts({"m.txt": whole}, ["m.txt"], texts, set(), Counter())
    assert [f.answer for f in found["m.txt"]] == ["kinetic energy"]


def test_a_decision_of_two_acts_is_not_cut_to_one() -> None:
    text = _paren(["(PERSON1) Let's stop the weekly announcements and finally confirm the jobs on the weekend.",
                   "(PERSON2) Yes."])
    asked, _ = _read({"m.txt": text})
    assert asked == {}
