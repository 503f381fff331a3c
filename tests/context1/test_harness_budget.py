"""The three-level token budget: usage echo, soft hint, hard cutoff, truncation with a reserve, limits."""

from __future__ import annotations

import re

import pytest

from context1 import AgentConfig, Episode, Message, Role, StopReason
from context1.backends.scripted import call, turn
from context1.budget import MESSAGE_OVERHEAD, TokenCounter, estimate_tokens
from context1.context import visible_pieces

QUERY = "What is known about Lanmouth harbour and its shipyard?"
USAGE = re.compile(r"\n\n\[Token usage: (\d{1,3}(?:,\d{3})*)/(\d{1,3}(?:,\d{3})*)\]$")


def small(**overrides) -> AgentConfig:
    # the tool schemas count too (~370 tokens as estimated), so a small budget is 1,536
    base = dict(system_prompt="Find documents.", token_budget=1536, response_reserve=256)
    return AgentConfig(**{**base, **overrides})


def usage_of(text: str) -> tuple[int, int]:
    m = USAGE.search(text)
    assert m, f"no usage line at the end of {text[-80:]!r}"
    return int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


def whole_count(messages, count, fixed: int = 0) -> int:
    """The visible context tokenized message by message (the definition the piecewise sum approximates)."""
    return fixed + sum(MESSAGE_OVERHEAD + count(m.content) + sum(count(c.name) + count(c.raw_arguments) for c in m.tool_calls)
               for m in messages)


def piecewise_count(ep: Episode, count) -> int:
    """Tool messages summed over their pieces (text between chunks, chunk blocks, pruned markers)."""
    counter = TokenCounter(count, costs=ep.counter.costs)
    total = counter.fixed + counter.messages(ep.messages()[:2])
    for step in ep.trajectory.steps:
        total += counter.message(Message(role=Role.ASSISTANT, content=step.turn.text, tool_calls=step.turn.tool_calls))
    view = ep._view
    for entry in view._entries:
        if hasattr(entry, "spans"):
            total += counter.overhead("tool") + sum(counter(p) for p in visible_pieces(entry.text, entry.spans, entry.hidden))
    return total


def test_usage_line_counts_the_whole_visible_context(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig())
    obs = ep.act(turn(call("search_corpus", query="harbour"), call("grep_corpus", pattern="(?i)shipyard")))
    used, total = usage_of(obs[-1].text)
    assert total == 32_768
    assert used == ep.trajectory.steps[-1].tokens_used == ep.tokens_used
    assert used == piecewise_count(ep, estimate_tokens)
    whole = whole_count(ep.messages(), estimate_tokens, ep.counter.fixed)
    assert abs(used - whole) <= 0.02 * whole + 16  # ~a token per chunk boundary
    assert re.search(r"\[Token usage: \d{1,3},\d{3}/32,768\]$", obs[-1].text)
    assert sum(o.n_tokens for o in obs) + 2 * MESSAGE_OVERHEAD <= used


def test_counting_uses_the_given_tokenizer(harness_corpus):
    calls = []

    def count(text: str) -> int:
        calls.append(text)
        return harness_corpus.count_tokens(text)

    ep = Episode(harness_corpus, QUERY, AgentConfig(), token_counter=count)
    ep.act(turn(call("search_corpus", query="harbour")))
    [obs] = ep.act(turn(call("prune_chunks", chunk_ids=[ep.seen_chunk_ids()[0]])))
    assert calls
    used = usage_of(obs.text)[0]
    assert used == ep.tokens_used == piecewise_count(ep, harness_corpus.count_tokens)
    whole = whole_count(ep.messages(), harness_corpus.count_tokens, ep.counter.fixed)
    assert abs(used - whole) <= 0.02 * whole + 16


def test_soft_hint_only_with_the_training_flag(harness_corpus):
    for hints in (False, True):
        ep = Episode(harness_corpus, QUERY, small(training_hints=hints))
        [first] = ep.act(turn(call("search_corpus", query="harbour shipyard")))
        assert ep.tokens_used >= ep.config.soft_limit, "the search should fill past half the budget"
        assert ("[Note: your context is past half" in first.text) is hints
    # below the threshold there is no hint, flag or not
    ep = Episode(harness_corpus, QUERY, AgentConfig(training_hints=True))
    [obs] = ep.act(turn(call("search_corpus", query="harbour")))
    assert ep.tokens_used < ep.config.soft_limit and "[Note:" not in obs.text


def test_hard_cutoff_refuses_everything_but_prune(harness_corpus):
    cfg = small(hard_cutoff=0.5, token_budget=2048)
    ep = Episode(harness_corpus, QUERY, cfg)
    [first] = ep.act(turn(call("search_corpus", query="harbour shipyard")))
    assert ep.tokens_used >= cfg.hard_limit
    obs = ep.act(turn(call("search_corpus", query="ferry"), call("grep_corpus", pattern="ferry"),
                      call("read_document", doc_id="pellis")))
    for o in obs:
        assert o.is_error and o.text.startswith("Error: the context holds") and "Only prune_chunks" in o.text
        assert o.metadata.get("refused") is True and not o.chunk_ids
    # pruning is still allowed, and once the context is back under the cutoff tools work again
    [pruned] = ep.act(turn(call("prune_chunks", chunk_ids=list(first.chunk_ids))))
    assert not pruned.is_error and ep.tokens_used < cfg.hard_limit
    [again] = ep.act(turn(call("search_corpus", query="ferry")))
    assert not again.is_error and again.chunk_ids


def test_prune_earlier_in_the_same_turn_reopens_the_tools(harness_corpus):
    cfg = small(hard_cutoff=0.5)
    ep = Episode(harness_corpus, QUERY, cfg)
    [first] = ep.act(turn(call("search_corpus", query="harbour shipyard")))
    assert ep.tokens_used >= cfg.hard_limit
    prune, search = ep.act(turn(call("prune_chunks", chunk_ids=list(first.chunk_ids)),
                                call("search_corpus", query="ferry")))
    assert not prune.is_error and not search.is_error and search.chunk_ids


def test_results_are_truncated_to_keep_the_reply_reserve(harness_corpus):
    cfg = small(token_budget=1024, response_reserve=256, search_token_budget=4096)
    ep = Episode(harness_corpus, QUERY, cfg)
    [obs] = ep.act(turn(call("search_corpus", query="harbour shipyard ferry lighthouse")))
    assert obs.chunk_ids and obs.metadata["omitted"] > 0
    assert "more result(s) omitted to fit the token budget" in obs.text
    assert ep.tokens_used <= cfg.token_budget - cfg.response_reserve
    assert not ep.done


def test_per_call_search_budget_caps_one_search(harness_corpus):
    cfg = AgentConfig(search_token_budget=200)
    ep = Episode(harness_corpus, QUERY, cfg)
    [obs] = ep.act(turn(call("search_corpus", query="harbour")))
    assert obs.chunk_ids and obs.metadata["omitted"] > 0
    shown = sum(estimate_tokens(obs.text[s:e]) for _, s, e in obs.metadata["chunk_spans"])
    assert shown <= 200


def test_read_document_is_truncated_to_what_remains(harness_corpus):
    cfg = small(token_budget=1024, response_reserve=256)
    ep = Episode(harness_corpus, QUERY, cfg)
    [obs] = ep.act(turn(call("read_document", doc_id="lanmouth-harbour")))
    total = len(harness_corpus.chunks("lanmouth-harbour"))
    assert 0 < len(obs.chunk_ids) < total
    assert obs.text.startswith(f"Document 'lanmouth-harbour': {len(obs.chunk_ids)} of {total} chunks")
    best = [h.chunk.chunk_id for h in harness_corpus.read("lanmouth-harbour", query=QUERY)]
    assert list(obs.chunk_ids) == best[: len(obs.chunk_ids)]  # the most relevant ones are kept
    assert ep.tokens_used <= cfg.token_budget - cfg.response_reserve


def test_no_room_left_is_an_error_for_the_model(harness_corpus):
    cfg = small(token_budget=1024, response_reserve=256, hard_cutoff=1.0)
    ep = Episode(harness_corpus, QUERY, cfg)
    ep.act(turn(call("search_corpus", query="harbour shipyard ferry lighthouse")))
    [obs] = ep.act(turn(call("read_document", doc_id="lanmouth-harbour")))
    assert obs.is_error and "no room left for results" in obs.text


def test_context_past_the_reserve_stops_with_token_budget(harness_corpus):
    cfg = small(token_budget=1024, response_reserve=256)
    ep = Episode(harness_corpus, QUERY, cfg)
    ep.act(turn(call("search_corpus", query="harbour")))
    assert not ep.done
    # the model's own (runaway) text fills the context
    ep.act(turn(call("search_corpus", query="ferry"), text="thinking " * 600))
    assert ep.done and ep.stop_reason is StopReason.TOKEN_BUDGET
    assert ep.trajectory.documents and ep.trajectory.metadata["answer_fallback"] is True


def test_a_query_that_cannot_fit_fails_fast_with_a_clear_error(harness_corpus):
    # fits max_query_chars but not the budget: no episode (and no empty answer with exit 0)
    with pytest.raises(ValueError, match=r"the query does not fit.*Shorten the query"):
        Episode(harness_corpus, "word " * 3000, small())
    # a pasted 100k-character "question" is refused before anything is counted or searched
    with pytest.raises(ValueError, match=r"100,000 characters long; the limit is 20,000"):
        Episode(harness_corpus, "x" * 100_000, AgentConfig())


def test_max_turns(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig(max_turns=2))
    ep.act(turn(call("search_corpus", query="harbour")))
    assert not ep.done
    ep.act(turn(call("search_corpus", query="ferry")))
    assert ep.done and ep.stop_reason is StopReason.MAX_TURNS
    assert len(ep.trajectory.steps) == 2 and ep.trajectory.documents


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("hard_cutoff", 0.4, "between 0.5 and 1.0"),
        ("hard_cutoff", 1.2, "between 0.5 and 1.0"),
        ("soft_threshold", 0.9, "soft_threshold"),
        ("token_budget", 100, "at least 512"),
        ("response_reserve", 20_000, "response_reserve"),
        ("max_turns", 0, "max_turns must be a positive integer"),
        ("rollouts", 0, "rollouts must be an integer between 1 and 16"),
    ],
)
def test_config_validation(field, value, message):
    with pytest.raises(ValueError, match=message):
        AgentConfig(**{field: value})


def test_hard_cutoff_bounds_are_accepted():
    assert AgentConfig(hard_cutoff=0.5).hard_limit == 16_384
    assert AgentConfig(hard_cutoff=1.0).hard_limit == 32_768
    assert AgentConfig().soft_limit == 16_384 and AgentConfig().hard_limit == 24_576
