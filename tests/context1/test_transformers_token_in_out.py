"""Token in, token out: the transformers backend extends the previous prompt + sampled ids exactly."""

from __future__ import annotations

import pytest

from context1.backends import make_backend
from context1.backends.transformers_local import TransformersBackend
from context1.types import Message, Role

pytestmark = pytest.mark.slow  # loads SmolLM2 and samples a few short turns on CPU

CONVERSATION = [
    Message(Role.SYSTEM, "You are a search agent."),
    Message(Role.USER, "Find documents about the Eiffel Tower."),
]


@pytest.fixture(scope="module")
def backend(smollm2) -> TransformersBackend:
    return make_backend("transformers", model=str(smollm2), max_new_tokens=4, temperature=1.0, seed=3)


def _next(conv: list[Message], turn, tool_text: str) -> list[Message]:
    return [*conv, Message(Role.ASSISTANT, turn.text, tool_calls=turn.tool_calls),
            Message(Role.TOOL, tool_text, tool_call_id="c1", name="search_corpus")]


def test_next_prompt_extends_previous_prompt_and_sampled_ids(backend: TransformersBackend) -> None:
    b = backend.with_seed(11)
    t1 = b.generate(CONVERSATION, [])
    conv2 = _next(CONVERSATION, t1, "[doc1#0] The Eiffel Tower is in Paris.")
    t2 = b.generate(conv2, [])
    prev = list(t1.prompt_token_ids) + list(t1.token_ids)
    assert list(t2.prompt_token_ids[: len(prev)]) == prev  # exactly what was sampled, not re-rendered text
    if t1.finish_reason == "length":  # cut off: the template's end-of-turn id closes it, as a prompt token
        assert t2.prompt_token_ids[len(prev)] == next(iter(b._stop_ids))
    tail = b.tokenizer.decode(list(t2.prompt_token_ids[len(prev):]))
    assert "The Eiffel Tower is in Paris." in tail and tail.endswith("<|im_start|>assistant\n")
    # A third turn keeps extending.
    conv3 = _next(conv2, t2, "[doc2#0] It was built in 1889.")
    t3 = b.generate(conv3, [])
    prev2 = list(t2.prompt_token_ids) + list(t2.token_ids)
    assert list(t3.prompt_token_ids[: len(prev2)]) == prev2


def test_a_changed_earlier_message_renders_afresh(backend: TransformersBackend) -> None:
    b = backend.with_seed(12)
    t1 = b.generate(CONVERSATION, [])
    conv2 = _next(CONVERSATION, t1, "[doc1#0] The Eiffel Tower is in Paris.")
    b.generate(conv2, [])
    pruned = [*conv2[:-1], Message(Role.TOOL, '<chunk id="doc1#0" pruned/>', tool_call_id="c1", name="search_corpus")]
    conv3 = [*pruned, Message(Role.USER, "Continue.")]
    t3 = b.generate(conv3, [])
    fresh = b.tokenizer(b.render(conv3, []), add_special_tokens=False)["input_ids"]
    assert list(t3.prompt_token_ids) == fresh  # the prefix broke: the template renders it anew


def test_switch_off_re_renders_every_prompt(backend: TransformersBackend) -> None:
    b = backend.with_seed(13)
    b.token_in_token_out = False
    t1 = b.generate(CONVERSATION, [])
    conv2 = _next(CONVERSATION, t1, "result")
    t2 = b.generate(conv2, [])
    assert list(t2.prompt_token_ids) == b.tokenizer(b.render(conv2, []), add_special_tokens=False)["input_ids"]
