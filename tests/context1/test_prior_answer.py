"""How the learned policy's untrained hand-set prior answers (issue 34, session 47): with its hand-set passage scorer
by default ("learned", as before), with the hand-tuned policy's answer over its own episode when asked
("hand-tuned", `PRIOR_ANSWERS`); a trained folder, given weights, the chat prior and a recording prior (training)
always answer with their scorers; a name that is neither is an error."""

from __future__ import annotations

import pytest

from context1 import SearchAgent
from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy
from context1.backends.learned import (
    DEFAULT_PRIOR_ANSWER,
    PRIOR_ANSWERS,
    LearnedSearchPolicy,
    PolicyWeights,
)

QUESTION = "Who is the mayor of the river town founded by salt merchants?"


@pytest.fixture
def hand_answers(monkeypatch):
    """Every call of the hand-tuned answer: (its config, the text it wrote)."""
    calls: list[tuple[IterativeConfig, str]] = []
    inner = IterativeRetrievalPolicy._answer

    def spy(self, query, rankings, cfg):  # noqa: ANN001, ANN202
        text = inner(self, query, rankings, cfg)
        calls.append((cfg, text))
        return text

    monkeypatch.setattr(IterativeRetrievalPolicy, "_answer", spy)
    return calls


def _answer_text(result) -> str:  # noqa: ANN001
    return result.trajectory.steps[-1].turn.text


def test_the_untrained_hand_set_prior_answers_with_the_hand_tuned_answer_when_asked(harness_corpus, hand_answers):
    assert PRIOR_ANSWERS == ("hand-tuned", "learned") and DEFAULT_PRIOR_ANSWER == "learned"
    backend = LearnedSearchPolicy(harness_corpus, prior_answer="hand-tuned")
    assert backend.weights.meta["prior"] == "hand" and backend.hand_answer
    result = SearchAgent(harness_corpus, backend).run(QUESTION)
    assert len(hand_answers) == 1
    cfg, text = hand_answers[0]
    assert cfg == IterativeConfig()  # every rule of the hand-tuned answer at its default, not the prior's knobs
    assert cfg != backend.config  # (the prior reads link_name_share 0 and no first-search links)
    assert _answer_text(result) == text and "Learned score" not in text
    assert result.evidence and [e.chunk_id for e in result.evidence][0] in text


def test_the_default_is_the_learned_answer_as_before(harness_corpus, hand_answers):
    for backend in (LearnedSearchPolicy(harness_corpus), LearnedSearchPolicy(harness_corpus, prior_answer="learned")):
        assert not backend.hand_answer
        result = SearchAgent(harness_corpus, backend).run(QUESTION)
        assert not hand_answers and "Learned score" in _answer_text(result)


def test_weights_a_folder_a_chat_prior_and_training_keep_their_scorer(harness_corpus, hand_answers, tmp_path):
    ask = {"prior_answer": "hand-tuned"}
    given = LearnedSearchPolicy(harness_corpus, PolicyWeights.prior(), **ask)
    folder = LearnedSearchPolicy(harness_corpus, PolicyWeights.prior().save(tmp_path / "policy"), **ask)
    chat = LearnedSearchPolicy(harness_corpus, prior="chat", **ask)
    assert not (given.hand_answer or folder.hand_answer or chat.hand_answer)
    for backend in (given, chat):
        assert "Learned score" in _answer_text(SearchAgent(harness_corpus, backend).run(QUESTION))
    recorded: list = []
    SearchAgent(harness_corpus, LearnedSearchPolicy(harness_corpus, **ask).recording(recorded)).run(QUESTION)
    assert not hand_answers  # a recording prior writes its scorer's answer, so training labels its decisions
    assert any(d.kind == "passage" for d in recorded)


def test_a_prior_answer_that_is_neither_is_an_error(harness_corpus):
    for bad in ("hand", "", "tuned"):
        with pytest.raises(ValueError, match="choose one of hand-tuned, learned"):
            LearnedSearchPolicy(harness_corpus, prior_answer=bad)
