"""Issue 34, "never worse than one search", on conversations (session 45): `IterativeConfig.conversation_first_search`.

Traced on the conversation tuning sets (generated tasks of MemoryBank, MSC and the LoCoMo tuning export): every gold
first-search passage the agent's top 5 lost was displaced by a passage of the first search's own ranks 6-8 whose only
"evidence" was agreement between bridge searches that repeat the speaker's name and the question's words. On a chat the
first search's passages are now kept, except those of another pair's chat (naming none of the speakers the question
names), whose place the answer's best passages may take. Built small here: MemoryBank's "In the chat of 28 April 2023,
how was Leo feeling?" (gold: the first search's 5th passage) and "What book was Jon reading?" (one search's 4th passage:
Caroline and Melanie's chat)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from context1.answer import parse_citations
from context1.backends.iterative import (
    IterativeConfig,
    IterativeRetrievalPolicy,
    asked_speaker_passages,
    pairs_talking,
)
from context1.backends.learned import LearnedConfig
from context1.backends.llm_free import Ranking


class Chats:
    """A stand-in corpus that `corpus_kind` reads (`doc_ids`, `chunks`): each document one chunk of `texts`."""

    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts
        self.reads = 0

    def doc_ids(self) -> list[str]:
        self.reads += 1
        return list(self.texts)

    def chunks(self, doc_id: str) -> list[SimpleNamespace]:
        return [SimpleNamespace(position=0, text=self.texts[doc_id])]


LEO = "In the chat of 28 April 2023, how was Leo feeling?"


def leo_first(fifth: str = "Leo: Hello, friend. I'm feeling a bit down today.\nAssistant: What happened?") -> list:
    """The question's own search: 8 chunks shown (`keep_per_ranking`), the gold 5th, a bridge search's hit 6th."""
    out = [(f"mb-Leo-D{i}#0", f"mb-Leo-D{i}", "", f"Leo: Today I did thing {i}.\nAssistant: Tell me more.")
           for i in (4, 6, 1, 5)]
    out.append(("mb-Leo-D2#0", "mb-Leo-D2", "", fifth))
    out += [(f"mb-Leo-D{i}#1", f"mb-Leo-D{i}", "", f"Leo: More about day {i}.\nAssistant: I see.") for i in (6, 7, 8)]
    return out


def answer(question: str, rankings: list[Ranking], corpus=None, **fields) -> list[str]:
    """The answer step alone, relevance from ranks (no vectors)."""
    cfg = IterativeConfig(cosine_scoring=False, **fields)
    text = IterativeRetrievalPolicy(corpus, cfg)._answer(question, rankings, cfg)
    return [c.raw_ids[-1] for c in parse_citations(text)][:5]


def leo_rankings(first: list | None = None) -> list[Ranking]:
    first = leo_first() if first is None else first
    # a bridge search on a chat word repeats the speaker's name and the question's words: it ranks the first search's
    # 6th chunk first again, and that agreement between searches is all the "evidence" the chunk has
    bridge = [("mb-Leo-D6#1", "mb-Leo-D6", "", "Leo: More about day 6.\nAssistant: I see.")]
    return [Ranking("h1-search", "search_corpus", LEO, first, 1.0, 0),
            Ranking("r1-s0-e0", "search_corpus", "Hello April 2023 Leo chat feeling", bridge, 1.0, 1)]


CHATS = Chats({"mb-Leo-D1": "Leo: Hi, my name is Leo.\nAssistant: Hi, Leo.",
               "mb-Leo-D2": "Leo: Hello, friend.\nAssistant: What happened?",
               "mb-Jon-D1": "Jon: Hey Gina!\nGina: Hey Jon!"})
GOLD = "mb-Leo-D2#0"
FIRST5 = ["mb-Leo-D4#0", "mb-Leo-D6#0", "mb-Leo-D1#0", "mb-Leo-D5#0", GOLD]


def test_on_a_chat_agreement_between_bridge_searches_no_longer_displaces_the_first_search():
    # f12de0e's answer: the 6th chunk, re-found by a bridge search, takes the gold 5th passage's place
    off = answer(LEO, leo_rankings(), Chats(CHATS.texts), conversation_first_search="off")
    assert "mb-Leo-D6#1" in off and GOLD not in off
    # the default: the first search's top 5, in its order
    assert answer(LEO, leo_rankings(), Chats(CHATS.texts)) == FIRST5
    assert answer(LEO, leo_rankings(), Chats(CHATS.texts), conversation_first_search="all") == FIRST5


def test_another_pairs_chat_in_the_first_search_is_not_protected():
    jon = "What book was Jon reading?"
    first = [(f"c30-D{i}#0", f"c30-D{i}", "", f"Jon: Busy week {i}.\nGina: Nice, Jon!") for i in (6, 4, 9)]
    first.append(("c26-D6#1", "c26-D6", "", "Caroline: I'm creating a library.\nMelanie: Reading is great."))
    first.append(("c26-D7#2", "c26-D7", "", "Caroline: My love of reading.\nMelanie: Books guide us."))
    first += [("c30-D12#0", "c30-D12", "", "Gina: What are you reading, Jon?\nJon: The Lean Startup."),
              ("c30-D7#2", "c30-D7", "", "Jon: Thanks, Gina!\nGina: Keep going, Jon.")]
    again = [first[5]]  # a bridge search ranks the gold 6th chunk first again
    rankings = [Ranking("h1-search", "search_corpus", jon, first, 1.0, 0),
                Ranking("r1-s0-e0", "search_corpus", "Gina Jon book reading", again, 1.0, 1)]
    corpus = Chats(CHATS.texts)
    speakers = answer(jon, rankings, corpus)
    # Caroline and Melanie's chat names no one the question asks about: the gold Jon passage takes a place of theirs
    assert speakers[:3] == ["c30-D6#0", "c30-D4#0", "c30-D9#0"] and "c30-D12#0" in speakers
    assert not {"c26-D6#1", "c26-D7#2"} <= set(speakers)
    # f12de0e's answer had that win too (by the agreement); "all" gives it up
    assert set(answer(jon, rankings, corpus, conversation_first_search="off")) == set(speakers)
    assert answer(jon, rankings, corpus, conversation_first_search="all") == [c[0] for c in first[:5]]


def test_documents_and_a_one_speaker_corpus_keep_f12de0e_answer():
    docs = Chats({"a": "Revenue grew in Q3.", "b": "The board met in May."})
    monologue = Chats({"a": "Leo: my diary, day 1.", "b": "Leo: my diary, day 2."})  # one speaker: not a chat
    for corpus in (docs, monologue, None):
        assert answer(LEO, leo_rankings(), corpus) == answer(LEO, leo_rankings(), corpus,
                                                             conversation_first_search="off")
        assert GOLD not in answer(LEO, leo_rankings(), corpus)


def test_a_meeting_of_more_than_two_speakers_keeps_its_first_search_too():
    # a document whose passages seen hold three speakers is no chat of two, but a meeting: since session 50
    # (`meetings_first_search`, QMSum train: the agent had lost 2 of 150 queries' hit@5 to its own first search)
    # its first search's top 5 is kept as a chat's; off, session 45's answer: the bridge search's chunk displaces the gold
    meeting = [(c, d, t, text.replace("Assistant:", "Marketing: ok.\nAssistant:")) for c, d, t, text in leo_first()]
    rankings = leo_rankings(first=meeting)
    assert IterativeConfig().meetings_first_search is True
    assert answer(LEO, rankings, Chats(CHATS.texts)) == FIRST5
    before = answer(LEO, rankings, Chats(CHATS.texts), meetings_first_search=False)
    assert before == answer(LEO, rankings, Chats(CHATS.texts), conversation_first_search="off")
    assert GOLD not in before
    # a chat of two is kept either way
    assert answer(LEO, leo_rankings(), Chats(CHATS.texts), meetings_first_search=False) == FIRST5


def test_pairs_talking():
    chunks = {"a#0": ("a", "", "Jon: hi\nGina: hey"), "a#1": ("a", "", "Jon: bye"),
              "b#0": ("b", "", "PM: hi\nUI: hey"), "b#1": ("b", "", "ID: so"), "c#0": ("c", "", "no speakers")}
    assert pairs_talking(chunks, ["a#0"]) and pairs_talking(chunks, ["a#1", "c#0"])
    assert not pairs_talking(chunks, ["a#0", "b#0"])  # b's passages seen hold three speakers
    assert not pairs_talking(chunks, []) and not pairs_talking(chunks, ["unseen#0"])


def test_a_corpus_that_cannot_be_read_back_keeps_f12de0e_answer():
    class Broken(Chats):
        def doc_ids(self) -> list[str]:
            raise OSError("index moved")

    corpus = Broken(CHATS.texts)
    assert answer(LEO, leo_rankings(), corpus) == answer(LEO, leo_rankings(), corpus, conversation_first_search="off")


def test_an_empty_first_search_answers_from_the_later_searches():
    rankings = leo_rankings(first=[])
    for value in ("off", "all", "speakers"):
        assert answer(LEO, rankings, Chats(CHATS.texts), conversation_first_search=value) == ["mb-Leo-D6#1"]
    assert answer(LEO, [], Chats(CHATS.texts)) == []


def test_asked_speaker_passages():
    texts = {"a": "Jon: hi\nGina: hey Jon", "b": "Caroline: hi\nMelanie: hi", "c": "no speaker here",
             "d": "Melanie: That's so cool!"}
    # b is another pair's chat; c and d (no speaker, one turn) cannot tell whose chat they are: kept
    assert asked_speaker_passages("What did Jon read?", texts, ["a", "b", "c", "d"]) == ["a", "c", "d"]
    assert asked_speaker_passages("What did Gina say to Caroline?", texts, ["a", "b", "c"]) == ["a", "b", "c"]
    assert asked_speaker_passages("What did Jon read?", texts, ["b"]) == ["b"]  # none would stay: all kept
    # a question naming no speaker of the passages seen ("she", "Mel" for "Melanie"): all kept
    assert asked_speaker_passages("What did she read?", texts, ["a", "b", "c"]) == ["a", "b", "c"]
    assert asked_speaker_passages("What did Mel read?", texts, ["a", "b"]) == ["a", "b"]
    assert asked_speaker_passages("What did Melanie read?", texts, ["a", "c"]) == ["c"]  # a: Jon and Gina's chat
    assert asked_speaker_passages("What did Jon read?", texts, []) == []
    assert asked_speaker_passages("What did Jon read?", {}, ["x"]) == ["x"]  # a passage not seen: kept as it was


def test_the_corpus_kind_is_read_once_and_shared_by_copies():
    corpus = Chats(CHATS.texts)
    policy = IterativeRetrievalPolicy(corpus)
    assert policy._conversation() and policy._conversation()
    assert corpus.reads == 1
    assert policy.with_seed(3)._conversation() and policy.bind_agent_config(None)._conversation()
    assert corpus.reads == 1
    assert not IterativeRetrievalPolicy(None)._conversation()


def test_the_flag_is_a_field_off_is_f12de0e_and_the_learned_policy_keeps_it_off():
    assert IterativeConfig().conversation_first_search == "speakers"
    assert dataclasses.replace(IterativeConfig(), conversation_first_search="off").conversation_first_search == "off"
    assert LearnedConfig().iterative.conversation_first_search == "off"
    assert LearnedConfig.from_dict({}).iterative.conversation_first_search == "off"  # a folder saved before it
    assert LearnedConfig.from_dict({"iterative": {"conversation_first_search": "all"}}
                                   ).iterative.conversation_first_search == "all"


@pytest.mark.parametrize("bad", ["on", "", None, True, "Speakers"])
def test_a_bad_value_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="conversation_first_search must be one of off, all, speakers"):
        IterativeConfig(conversation_first_search=bad)
