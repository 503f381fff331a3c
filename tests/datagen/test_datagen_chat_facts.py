"""A chat speaker's undated facts ("What is the name of John's daughter?", "What instrument does
Melanie play?", "Where did Jon's sister move to?") asked only when the whole corpus gives that person
and relation one answer, with every turn that states it a positive; and a thing the corpus gives
several of asked by the chat it was told in ("In the chat of 8 May 2023, what did Maria mention
joining?"), the verifier checking that day against the supporting session's title."""

from __future__ import annotations

from dataclasses import replace

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_chunks, chat_questions

from datagen.mining import mine
from datagen.positives import POSITIVES
from datagen.types import DropReason
from datagen.verify import check_candidate

FAMILY = [
    ("chat/D1", CHAT_S1, "John: We had a party for my daughter Sara's fifth birthday yesterday.\n"
                    "Maria: Aww! I got a puppy two weeks ago. Her name's Coco and she's adorable.\n"
                    "John: Our one-year-old is so cute, his name is Kyle!\n"
                    "Maria: My grandma is from Sweden, she taught me to bake.\n"
                    "John: Since I lost my job at Door Dash, things have been tough."),
    ("chat/D2", CHAT_S2, "Maria: Yeah, I play the cello in a small orchestra.\n"
                    "John: Sara loves that. My daughter Sara wants to learn it too.\n"
                    "Maria: My brother moved to Denver for his new job.\n"
                    "John: Thankfully, my son's ok after the fall.\n"
                    "Maria: We also got another cat named Bailey.\n"
                    "John: I used to work at Door Dash, you know."),
    ("chat/D3", CHAT_S3, "John: I play the guitar most evenings, and I'm learning the piano.\n"
                    "Maria: I adopted a second pup last week and her name is Shadow.\n"
                    "John: I wish I had a dog named Rex."),
]


def test_names_instruments_and_places_a_speaker_states_are_asked_with_every_turn_as_a_positive() -> None:
    """Old code: no reader of names, instruments or relatives' places; none of these is asked."""
    qs = chat_questions(FAMILY)
    sara = qs["What is the name of John's daughter?"]
    assert sara.answer == "Sara"
    # both turns that name her are gold: the asked one and the other as an extra positive
    gold = {sara.supporting[0].doc_id, *(p["doc_id"] for p in sara.metadata[POSITIVES])}
    assert gold == {"chat/D1", "chat/D2"}
    assert qs["What is the name of John's one-year-old?"].answer == "Kyle"
    assert qs["What instrument does Maria play?"].answer == "cello"
    assert qs["Where is Maria's grandma from?"].answer == "Sweden"
    assert qs["Where did Maria's brother move to?"].answer == "Denver"
    door = qs["Where did John work?"]  # "Door Dash" is no entity to the parse: its proper nouns name it
    assert door.answer == "Door Dash" and len(door.metadata[POSITIVES]) == 1


def test_a_relation_with_two_answers_a_hedge_or_a_word_that_names_no_one_is_no_question() -> None:
    """Two dogs (Coco, then "a second pup" Shadow), "another cat", an instrument also "learning the
    piano", a wish ("I wish I had a dog named Rex"), "Thankfully, my son's ok": none is a question."""
    qs = chat_questions(FAMILY)
    assert not any("Maria's dog" in q or "Maria's cat" in q for q in qs)
    assert "What instrument does John play?" not in qs
    assert not any("son" in q.split() or "son?" in q for q in qs)
    assert not any("Rex" == c.answer for c in qs.values())


TOLD = [
    ("chat/D1", CHAT_S1, "Maria: I joined a gym near my office, it has been great.\n"
                    "John: I baked some banana bread for the neighbors."),
    ("chat/D2", CHAT_S2, "Maria: I joined a book club at the library.\n"
                    "John: Nice. I baked an apple pie. Oh and I baked cookies too."),
    ("chat/D4", CHAT_S3, "John: I baked more cookies for the school fair.\nMaria: Yum!"),
    ("chat/D3", CHAT_S3, "Maria: I painted a mural of the sea last month."),
]


def test_a_thing_the_corpus_gives_several_of_is_asked_by_the_chat_it_was_told_in() -> None:
    """Old code: "What did Maria join?" has two answers, so neither is asked."""
    qs = chat_questions(TOLD)
    assert "What did Maria join?" not in qs
    gym = qs["In the chat of 8 May 2023, what did Maria mention joining?"]
    assert gym.answer == "a gym near my office" or gym.answer.startswith("a gym")
    assert gym.supporting[0].doc_id == "chat/D1"
    assert qs["In the chat of 25 May 2023, what did Maria mention joining?"].answer.startswith("a book club")
    assert qs["In the chat of 8 May 2023, what did John mention baking?"].answer == "some banana bread"
    # two bakes told on 25 May: the day tells them no better than the corpus
    assert "In the chat of 25 May 2023, what did John mention baking?" not in qs
    # one painting in the whole corpus: asked without a day
    assert "What did Maria paint?" in qs and not any("mention painting" in q for q in qs)


def test_the_verifier_refuses_a_chat_day_no_supporting_session_was_written_on() -> None:
    chunks = chat_chunks(TOLD)
    mined = mine(chunks)
    qs = chat_questions(TOLD)
    good = qs["In the chat of 8 May 2023, what did Maria mention joining?"]
    bad = replace(good, question="In the chat of 25 May 2023, what did Maria mention joining?")
    args = ({d: mined.doc_text(d) for d in good.doc_ids}, {ch.chunk_id: ch.text for ch in chunks})
    assert check_candidate(good, *args, mined.titles).accepted
    verdict = check_candidate(bad, *args, mined.titles)
    assert DropReason.ANSWER_NOT_IN_SUPPORT in verdict.reasons
    assert not check_candidate(good, *args, None).accepted  # no titles: the day cannot be checked


def test_an_undated_act_told_in_one_chat_is_asked_for_that_chats_day_and_verified() -> None:
    """"In which chat did John mention baking the banana bread?" → the day of the session that tells it
    (its title's date). Not for an act the sentence dates itself (the mural, "last month": asked when it
    happened), nor for a thing told in two chats (John's cookies and pie)."""
    qs = chat_questions(TOLD)
    bread = qs["In which chat did John mention baking the banana bread?"]
    assert bread.answer == "8 May 2023" and bread.supporting[0].doc_id == "chat/D1"
    assert not any(q.startswith("In which chat") and ("mural" in q or "cookies" in q) for q in qs)
    assert qs["In which chat did Maria mention joining the gym?"].answer == "8 May 2023"
    chunks = chat_chunks(TOLD)
    mined = mine(chunks)
    args = ({d: mined.doc_text(d) for d in bread.doc_ids}, {ch.chunk_id: ch.text for ch in chunks})
    wrong = replace(bread, answer="25 May 2023", aliases=())
    assert DropReason.ANSWER_NOT_IN_SUPPORT in check_candidate(wrong, *args, mined.titles).reasons


def test_a_chat_indexed_one_turn_a_document_reads_names_across_its_turns() -> None:
    """Turns that share their session's title are one conversation: "Her name is Luna!" names the kitten
    of the turn before, and "your other kitten" (another turn, the other speaker) tells that Maria has
    two, so only the unique name is asked. Old code: no name question at all."""
    turns = [
        ("t/D1:1", CHAT_S1, "Maria: I adopted a kitten from the shelter."),
        ("t/D1:2", CHAT_S1, "John: So cute! What's her name?"),
        ("t/D1:3", CHAT_S1, "Maria: Her name is Luna!"),
        ("t/D1:4", CHAT_S1, "John: My nephew Theo wants one too."),
        ("t/D2:1", CHAT_S2, "John: Does Luna get along with your other kitten?"),
        ("t/D2:2", CHAT_S2, "Maria: Yes! Also my cousin moved to Chicago."),
    ]
    qs = chat_questions(turns)
    assert qs["What is the name of John's nephew?"].answer == "Theo"
    assert qs["Where did Maria's cousin move to?"].answer == "Chicago"
    assert not any("Maria's cat" in q for q in qs)
    alone = chat_questions(turns[:4])  # without the other kitten, Luna is her one cat
    assert alone["What is the name of Maria's cat?"].answer == "Luna"
