"""The LLM-free policies read the harness's observations back as structured data (context1/backends/llm_free.py)."""

from __future__ import annotations

from context1 import prompts
from context1.backends.llm_free import latest_usage, over_cutoff, visible_rankings
from context1.prompts import ShownChunk, is_hard_cutoff, read_chunks, read_usage, render_chunk, render_pruned
from context1.types import Message, Role, ToolCall


def test_read_chunks_inverts_render_chunk_even_for_text_that_looks_like_markup():
    tricky = 'Quoted "id" and a fake </chunk> and <chunk id="x" doc="y" title="z"> inside'
    shown = [
        ShownChunk('a"b#0', "AT&T", 'The "best" report', tricky),
        ShownChunk("doc#1", "doc", "", "Plain text.\nSecond line."),
    ]
    text = "\n\n".join(render_chunk(*c) for c in shown) + "\n\n" + render_pruned("gone#3")
    got = read_chunks(text)
    assert [c[:3] for c in got] == [c[:3] for c in shown]  # a pruned chunk is not shown, so not read
    assert got[1].text == shown[1].text
    assert got[0].text == tricky.replace("</chunk", "&lt;/chunk").replace("<chunk", "&lt;chunk")


def test_read_usage_inverts_the_usage_line():
    assert read_usage("results...\n\n" + prompts.usage_line(14_203, 32_768)) == (14_203, 32_768)
    assert read_usage("no usage line here") is None


def test_the_hard_limit_refusal_is_recognised_by_the_harness_notice_not_by_words():
    refusal = prompts.HARD_CUTOFF.format(used=25_000, limit=24_576, token_budget=32_768)
    assert is_hard_cutoff(refusal)
    for other in (prompts.NO_ROOM.format(available=10, token_budget=32_768, reserve=512),
                  prompts.TOO_MANY_CALLS.format(n=20, limit=16),
                  "Error: search_corpus failed (KeyError: 'prune'). You may retry or conclude."):
        assert not is_hard_cutoff(other)
    call = ToolCall("c1", "search_corpus", {"query": "q"})
    msgs = [Message(Role.SYSTEM, "s"), Message(Role.USER, "q"),
            Message(Role.ASSISTANT, "", tool_calls=(call,)), Message(Role.TOOL, refusal, tool_call_id="c1")]
    # The old word test ("Error:" + "prune" + "conclude") missed this notice: it never says "conclude".
    assert over_cutoff(msgs, hard_cutoff=0.75)


def test_visible_rankings_tie_each_result_to_its_call_and_round():
    class Cfg:
        bridge_weight = 0.8

    hop1 = ToolCall("h1-search", "search_corpus", {"query": "pier 1998"})
    bridge = ToolCall("r1-s1-e0", "search_corpus", {"query": "Ilse Varga pier"})
    prune = ToolCall("r1-prune", "prune_chunks", {"chunk_ids": ["a#0"]})
    msgs = [
        Message(Role.USER, "Who ordered the pier that opened in 1998?"),
        Message(Role.ASSISTANT, "", tool_calls=(hop1,)),
        Message(Role.TOOL, render_chunk("a#0", "a", "A", "The pier opened in 1998.")
                + "\n\n" + prompts.usage_line(900, 32_768), tool_call_id="h1-search"),
        Message(Role.ASSISTANT, "", tool_calls=(prune, bridge)),
        Message(Role.TOOL, "Pruned 1 chunk(s): a#0.", tool_call_id="r1-prune"),
        Message(Role.TOOL, render_chunk("b#2", "b", "B", "Mayor Ilse Varga ordered it.")
                + "\n\n" + prompts.usage_line(1_200, 32_768), tool_call_id="r1-s1-e0"),
    ]
    got = visible_rankings(msgs, Cfg())
    assert [(r.call_id, r.round, r.query, [c.chunk_id for c in r.chunks]) for r in got] == [
        ("h1-search", 0, "pier 1998", ["a#0"]), ("r1-s1-e0", 1, "Ilse Varga pier", ["b#2"])]
    assert got[0].weight == 1.0 and got[1].weight == 0.8 / (1 + 1) / 1  # a bridge from the second source
    assert latest_usage(msgs) == (1_200, 32_768)
    assert not over_cutoff(msgs, hard_cutoff=0.75)
