"""The speaker a question names, and the named speaker's passages lifted in a conversation index's search."""

from __future__ import annotations

import dataclasses

import pytest

from corpus_tools.speakers import core, line_speakers, named_speakers, spoken_share

SPEAKERS = {"Project Manager", "Marketing", "Industrial Designer", "User Interface", "PhD F", "Grad C",
            "Professor B", "PhD I", "Kirsty Williams AM", "The Chair"}


@pytest.mark.parametrize("label, short", [
    ("Kirsty Williams AM", "Kirsty Williams"), ("PhD F", "F"), ("Professor B", "B"), ("Marketing", "Marketing"),
    ("The Chair", "Chair"), ("Project Manager", "Project Manager"), ("AM", "AM"),
])
def test_a_label_is_read_without_its_titles_and_honorifics(label, short):
    assert core(label) == short


@pytest.mark.parametrize("query, named", [
    ("What did Marketing think about the trend?", {"Marketing"}),
    ("What did the project manager say about the budget?", {"Project Manager"}),
    ("What did Kirsty Williams think about school funding?", {"Kirsty Williams AM"}),
    ("What did Kirsty Williams AM say?", {"Kirsty Williams AM"}),
    ("What did F think about the XML format?", {"PhD F"}),
    ("What did Speaker F state about the transcriber tool?", {"PhD F"}),
    ("What did Professor B and C say about the recogniser?", {"Professor B", "Grad C"}),
    ("What did the Chair ask the minister?", {"The Chair"}),
    ("What did PhD I report?", {"PhD I"}),
    # no speaker: a common word in lower case, a capital opening the question, "I" the pronoun, a word inside another
    ("What was decided about the marketing strategy?", set()),
    ("A summary of the discussion on funding, please.", set()),
    ("What should I know about the interface?", set()),
    ("What did the team say about F-measure scores?", set()),
    ("Summarize the discussion about the user interface design.", set()),
    ("Why did the industrial designer and the project manager disagree?", {"Industrial Designer", "Project Manager"}),
    ("Summarize the industrial designer's bad experience.", {"Industrial Designer"}),
    ("What did the marketing suggest?", set()),
    ("Summarize the Project Manager's perspective on the prototype.", {"Project Manager"}),  # one word: only as written
])
def test_the_speakers_a_question_names(query, named):
    assert named_speakers(query, SPEAKERS) == named


def test_a_passages_speakers_and_the_share_the_named_ones_say():
    text = "over the budget.\nMarketing: We need a fruit theme.\nProject Manager: OK.\nNote: the room was noisy"
    said = line_speakers(text)
    assert list(said) == ["Marketing", "Project Manager"]  # "Note:" is a label, the cut first line no speaker
    assert spoken_share(text, {"Marketing"}) == pytest.approx(said["Marketing"] / sum(said.values()))
    assert spoken_share("plain prose", {"Marketing"}) == 0.0


MEETING = [
    ("m1", "Marketing: Young users liked the soft feel of the case in our tests.\n"
           "Project Manager: Noted, thanks.\nMarketing: That is all from me."),
    ("m2", "Industrial Designer: The rubber case is cheaper to mould than the plastic case.\n"
           "User Interface: Rubber case it is then.\nIndustrial Designer: Good."),
    ("m3", "Project Manager: Next is the budget for the remote.\nMarketing: Twelve euros a unit.\nProject Manager: OK."),
    ("m4", "Industrial Designer: The rubber case can come in fruit colours.\nMarketing: Yes.\nProject Manager: Fine."),
]
TURNS = [(f"t{i}", line) for i, (_, text) in enumerate(MEETING) for line in text.splitlines()]


def test_a_named_speakers_passage_is_lifted_on_a_conversation_index_only_with_the_flag(tmp_path, config):
    from corpus_tools import Corpus, Document
    from corpus_tools.config import SearchConfig

    docs = [Document(i, t, title=i) for i, t in MEETING]
    query = "What did Marketing think about the rubber case?"
    Corpus.build(docs, tmp_path / "meet", config=config, progress=False).close()
    with Corpus.open(tmp_path / "meet", search=SearchConfig(speaker_lift=0.0)) as opened:
        off = [h.chunk.doc_id for h in opened.search(query, k=4)]
        plain_off = [h.chunk.doc_id for h in opened.search("What was said about the rubber case?", k=4)]
    lifted = SearchConfig(speaker_lift=4.0)
    with Corpus.open(tmp_path / "meet", search=lifted) as opened:
        on = [h.chunk.doc_id for h in opened.search(query, k=4)]
        plain = [h.chunk.doc_id for h in opened.search("What was said about the rubber case?", k=4)]
    assert plain == plain_off  # a question naming no speaker is ranked as before
    assert off[0] != "m1" and on[0] == "m1" and sorted(on) == sorted(off)
    assert dataclasses.replace(lifted, speaker_lift=0.25) == SearchConfig()  # on by default


def test_the_lift_leaves_an_index_of_single_turns_alone(tmp_path, config):
    from corpus_tools import Corpus, Document
    from corpus_tools.config import SearchConfig

    Corpus.build([Document(i, t, title=i) for i, t in TURNS], tmp_path / "turns", config=config, progress=False).close()
    query = "What did Marketing think about the rubber case?"
    with Corpus.open(tmp_path / "turns", search=SearchConfig(speaker_lift=0.0)) as off, \
            Corpus.open(tmp_path / "turns", search=SearchConfig(speaker_lift=4.0)) as on:
        assert [h.chunk.chunk_id for h in on.search(query, k=8)] == [h.chunk.chunk_id for h in off.search(query, k=8)]


def test_the_lift_leaves_an_index_of_documents_alone(corpus):
    from corpus_tools import Corpus
    from corpus_tools.config import SearchConfig

    query = "Who built the lighthouse?"
    with Corpus.open(corpus.path, search=SearchConfig(speaker_lift=4.0)) as lifted:
        assert [h.chunk.chunk_id for h in lifted.search(query, k=5)] == \
            [h.chunk.chunk_id for h in corpus.search(query, k=5)]


def test_a_negative_lift_is_refused():
    from corpus_tools.config import SearchConfig

    with pytest.raises(ValueError, match="speaker_lift"):
        SearchConfig(speaker_lift=-1.0)
