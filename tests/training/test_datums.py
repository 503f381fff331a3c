"""Trajectory → datums: segments at prefix breaks, observations masked, one advantage per trajectory."""

from __future__ import annotations

import pytest

from context1.types import ModelTurn, Step, Trajectory
from training.datums import trajectory_to_datums, turns_to_datums


def test_turns_that_extend_the_prefix_make_one_datum() -> None:
    # turn 1: prompt [1,2], sampled [3,4]; turn 2's prompt extends [1,2,3,4] with observation [5,6]
    turns = [([1, 2], [3, 4], [-0.1, -0.2]), ([1, 2, 3, 4, 5, 6], [7], [-0.3])]
    (d,) = turns_to_datums(turns, advantage=0.5, trajectory_index=3)
    assert d.input_ids_T == (1, 2, 3, 4, 5, 6, 7)
    assert d.action_mask_T == (0, 0, 1, 1, 0, 0, 1)
    assert d.sampler_logprobs_T == (0.0, 0.0, -0.1, -0.2, 0.0, 0.0, -0.3)
    assert d.advantage == 0.5 and d.trajectory_index == 3 and d.n_actions == 3


def test_a_pruned_prompt_starts_a_new_segment_with_the_same_advantage() -> None:
    turns = [
        ([1, 2], [3], [-1.0]),
        ([1, 2, 3, 4], [5], [-2.0]),  # extends
        ([1, 9, 3, 4, 5, 6], [7, 8], [-3.0, -4.0]),  # token 2 replaced (pruned): break
        ([1, 9, 3, 4, 5, 6, 7, 8, 10], [11], [-5.0]),  # extends the new segment
    ]
    a, b = turns_to_datums(turns, advantage=-0.25)
    assert a.input_ids_T == (1, 2, 3, 4, 5) and a.action_mask_T == (0, 0, 1, 0, 1)
    assert b.input_ids_T == (1, 9, 3, 4, 5, 6, 7, 8, 10, 11)
    assert b.action_mask_T == (0, 0, 0, 0, 0, 0, 1, 1, 0, 1)  # the old sampled tokens are context now
    assert b.sampler_logprobs_T[6:8] == (-3.0, -4.0) and b.sampler_logprobs_T[-1] == -5.0
    assert a.advantage == b.advantage == -0.25


def test_a_shorter_prompt_breaks_the_prefix_too() -> None:
    datums = turns_to_datums([([1, 2, 3], [4], None), ([1, 2], [5], None)])
    assert [d.input_ids_T for d in datums] == [(1, 2, 3, 4), (1, 2, 5)]
    assert datums[0].sampler_logprobs_T == (0.0, 0.0, 0.0, 0.0)


def test_mismatched_logprobs_are_refused() -> None:
    with pytest.raises(ValueError, match="logprobs"):
        turns_to_datums([([1], [2, 3], [-1.0])])


def _traj(*turns: ModelTurn) -> Trajectory:
    return Trajectory(query="q", steps=[Step(turn=t) for t in turns])


def test_trajectory_to_datums_reads_the_recorded_ids() -> None:
    t1 = ModelTurn(text="", prompt_token_ids=(1, 2), token_ids=(3,), logprobs=(-0.5,))
    t2 = ModelTurn(text="", prompt_token_ids=(1, 2, 3, 4), token_ids=(5,), logprobs=(-0.7,))
    (d,) = trajectory_to_datums(_traj(t1, t2), advantage=1.0)
    assert d.input_ids_T == (1, 2, 3, 4, 5) and d.action_mask_T == (0, 0, 1, 0, 1)


def test_a_trajectory_without_ids_is_refused_for_rl() -> None:
    with pytest.raises(ValueError, match="no recorded token ids"):
        trajectory_to_datums(_traj(ModelTurn(text="answer")), advantage=1.0)


@pytest.fixture(scope="module")
def smollm2_tokenizer(smollm2):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(smollm2), local_files_only=True)


def test_a_copied_query_keeps_the_tokens_it_has_in_the_question(smollm2_tokenizer) -> None:
    """A student copies the query from the question token by token; the teacher's call must be trained
    on those same ids followed by the closing JSON, not on a whole-reply tokenization that merges the
    query's last character with the closing quote (the sixth session's invalid SFT calls)."""
    from context1.backends.toolcalls import render_tool_call
    from context1.types import ToolCall
    from training.datums import reply_token_ids

    tok = smollm2_tokenizer
    question = 'Which name fills the blank? The film "The Case" was shot for all ___.'
    call = ToolCall(id="c0", name="search_corpus", arguments={"query": question})
    reply = render_tool_call(call) + "<|im_end|>"
    whole = tok(reply, add_special_tokens=False)["input_ids"]
    ids = reply_token_ids(reply, [question], tok)
    assert tok.decode(ids) == reply  # the same text, other boundaries
    assert ids != whole  # tokenized whole, "___." + '"}}' merges across the boundary
    end_of_question = tok(question, add_special_tokens=False)["input_ids"][-3:]  # the question's last ids
    escaped = tok(question.replace('"', '\\"'), add_special_tokens=False)["input_ids"]
    at = next(i for i in range(len(ids)) if ids[i : i + len(escaped)] == escaped)
    assert ids[at + len(escaped) - 3 : at + len(escaped)] == end_of_question
    assert tok.convert_ids_to_tokens(ids[at + len(escaped)]).startswith('"')  # then the closing quote


def test_reply_ids_without_string_arguments_are_the_whole_tokenization(smollm2_tokenizer) -> None:
    from training.datums import reply_token_ids

    tok = smollm2_tokenizer
    reply = '<tool_call>\n{"name": "prune_chunks", "arguments": {"chunk_ids": []}}\n</tool_call><|im_end|>'
    assert reply_token_ids(reply, [], tok) == tok(reply, add_special_tokens=False)["input_ids"]
    assert reply_token_ids(reply, ["not in the reply"], tok) == tok(reply, add_special_tokens=False)["input_ids"]
