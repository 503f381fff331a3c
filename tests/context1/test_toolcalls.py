"""`<tool_call>` parsing (well-formed, sloppy and broken) and tools-in-the-prompt rendering."""

from __future__ import annotations

import json

import pytest

from context1.backends.toolcalls import (
    loads_lenient,
    messages_for_native_template,
    messages_with_tools_in_prompt,
    parse_arguments,
    parse_tool_calls,
    render_prompt,
    render_tool_call,
    render_tools_prompt,
    template_supports_tools,
)
from context1.types import Message, Role, ToolCall

SEARCH_TOOL = {
    "type": "function",
    "function": {
        "name": "search_corpus",
        "description": "Search the corpus.",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
    },
}
PRUNE_TOOL = {
    "type": "function",
    "function": {
        "name": "prune_chunks",
        "description": "Remove chunks from view.",
        "parameters": {"type": "object", "properties": {"chunk_ids": {"type": "array", "items": {"type": "string"}}}},
    },
}


def _calls(text: str) -> tuple[str, list[tuple[str, dict, str | None]]]:
    visible, calls = parse_tool_calls(text, id_prefix="t")
    return visible, [(c.name, dict(c.arguments), c.parse_error) for c in calls]


# -- parsing ------------------------------------------------------------------------------------


def test_plain_text_has_no_calls() -> None:
    assert parse_tool_calls("The answer is <Document id=d1>.", id_prefix="t") == ("The answer is <Document id=d1>.", [])


def test_one_well_formed_call_and_the_text_around_it() -> None:
    visible, calls = parse_tool_calls(
        'Let me look.\n<tool_call>\n{"name": "search_corpus", "arguments": {"query": "eiffel"}}\n</tool_call>\nDone.',
        id_prefix="turn3",
    )
    assert visible == "Let me look.\n\nDone."
    assert calls == [
        ToolCall(id="turn3_0", name="search_corpus", arguments={"query": "eiffel"}, raw_arguments='{"query": "eiffel"}')
    ]


def test_several_calls_keep_emission_order_and_distinct_ids() -> None:
    text = (
        '<tool_call>{"name": "search_corpus", "arguments": {"query": "a"}}</tool_call>'
        '<tool_call>{"name": "search_corpus", "arguments": {"query": "b"}}</tool_call>\n'
        '<tool_call>{"name": "prune_chunks", "arguments": {"chunk_ids": ["d1#0", "d2#3"]}}</tool_call>'
    )
    visible, calls = parse_tool_calls(text, id_prefix="t")
    assert visible == ""
    assert [c.id for c in calls] == ["t_0", "t_1", "t_2"]
    assert [(c.name, dict(c.arguments)) for c in calls] == [
        ("search_corpus", {"query": "a"}),
        ("search_corpus", {"query": "b"}),
        ("prune_chunks", {"chunk_ids": ["d1#0", "d2#3"]}),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # missing closing tag (generation stopped)
        ('<tool_call>\n{"name": "search_corpus", "arguments": {"query": "x"}}', {"query": "x"}),
        # ... and cut off before the braces closed
        ('<tool_call>{"name": "search_corpus", "arguments": {"query": "x"', {"query": "x"}),
        # trailing commas
        ('<tool_call>{"name": "search_corpus", "arguments": {"query": "x",},}</tool_call>', {"query": "x"}),
        # single quotes, Python style, JSON literals outside strings
        ("<tool_call>{'name': 'search_corpus', 'arguments': {'query': 'it\\'s true', 'k': 3, 'f': true}}</tool_call>",
         {"query": "it's true", "k": 3, "f": True}),
        # "parameters" for "arguments" (Llama 3 style)
        ('<tool_call>{"name": "search_corpus", "parameters": {"query": "x"}}</tool_call>', {"query": "x"}),
        # arguments double-encoded as a JSON string
        ('<tool_call>{"name": "search_corpus", "arguments": "{\\"query\\": \\"x\\"}"}</tool_call>', {"query": "x"}),
        # code fence inside the block
        ('<tool_call>\n```json\n{"name": "search_corpus", "arguments": {"query": "x"}}\n```\n</tool_call>', {"query": "x"}),
        # no arguments at all
        ('<tool_call>{"name": "search_corpus"}</tool_call>', {}),
    ],
)  # fmt: skip
def test_sloppy_calls_are_repaired(text: str, expected: dict) -> None:
    visible, calls = _calls(text)
    assert calls == [("search_corpus", expected, None)]
    assert visible == ""


def test_repairs_never_touch_string_contents() -> None:
    # "true", "null" and ",}" inside strings stay as written
    _, calls = _calls('<tool_call>{"name": "grep_corpus", "arguments": {"pattern": "true|null,}",},}</tool_call>')
    assert calls == [("grep_corpus", {"pattern": "true|null,}"}, None)]


def test_an_unclosed_block_ends_at_the_next_opening_tag() -> None:
    _, calls = _calls(
        '<tool_call>{"name": "search_corpus", "arguments": {"query": "a"}}\n'
        '<tool_call>{"name": "search_corpus", "arguments": {"query": "b"}}</tool_call>'
    )
    assert [args for _, args, _ in calls] == [{"query": "a"}, {"query": "b"}]


@pytest.mark.parametrize(
    ("block", "name", "error", "raw"),
    [
        ('{"name": "search_corpus", "arguments": {query: eiffel}}', "search_corpus", "invalid JSON", "{query: eiffel}"),
        ('{"name": "search_corpus", "arguments": {"query": "unterminated', "search_corpus", "invalid JSON",
         '{"query": "unterminated'),
        ('{"name": "search_corpus", "arguments": ["a", "b"]}', "search_corpus", "JSON object", '["a", "b"]'),
        ('{"arguments": {"query": "x"}}', "", "name", '{"arguments": {"query": "x"}}'),
        ("[1, 2]", "", "JSON object", "[1, 2]"),
        ("search_corpus(query='x')", "", "invalid JSON", "search_corpus(query='x')"),
        ("", "", "empty", ""),
    ],
)  # fmt: skip
def test_broken_calls_become_calls_with_parse_error(block: str, name: str, error: str, raw: str) -> None:
    visible, calls = parse_tool_calls(f"before <tool_call>{block}</tool_call> after", id_prefix="t")
    assert visible == "before  after"
    (call,) = calls
    assert call.id == "t_0" and call.name == name and dict(call.arguments) == {}
    assert call.parse_error is not None and error in call.parse_error
    assert call.raw_arguments == raw  # what the model wrote is kept (for the error message and for training)
    assert raw in render_tool_call(call)  # re-rendering shows the model its own text


def test_stray_closing_tag_is_removed() -> None:
    assert parse_tool_calls("done</tool_call>", id_prefix="t") == ("done", [])


@pytest.mark.parametrize(
    ("raw", "expected", "ok"),
    [
        ('{"query": "x"}', {"query": "x"}, True),
        ({"query": "x"}, {"query": "x"}, True),  # some servers send a decoded object
        ("", {}, True),
        (None, {}, True),
        ('"{\\"query\\": 1}"', {"query": 1}, True),
        ("[1]", {}, False),
        ("{oops", {}, False),
        ("42", {}, False),
    ],
)
def test_parse_arguments(raw, expected, ok) -> None:
    value, error = parse_arguments(raw)
    assert value == expected
    assert (error is None) == ok


def test_loads_lenient_rejects_non_json_python_values() -> None:
    value, error = loads_lenient("{'a': {1, 2}}")  # a Python set is no JSON
    assert value is None and error and error.startswith("invalid JSON")


# -- rendering -----------------------------------------------------------------------------------


def test_render_tools_prompt_lists_every_schema_and_the_convention() -> None:
    text = render_tools_prompt([SEARCH_TOOL, PRUNE_TOOL])
    tools_block = text.split("<tools>\n")[1].split("\n</tools>")[0]
    assert [json.loads(line) for line in tools_block.splitlines()] == [SEARCH_TOOL["function"], PRUNE_TOOL["function"]]
    assert '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>' in text
    assert render_tools_prompt([]) == ""


def test_rendered_calls_parse_back() -> None:
    call = ToolCall(id="x", name="search_corpus", arguments={"query": "café"}, raw_arguments="")
    _, (back,) = parse_tool_calls(render_tool_call(call), id_prefix="t")
    assert (back.name, dict(back.arguments), back.parse_error) == ("search_corpus", {"query": "café"}, None)
    broken = ToolCall(id="y", name="search_corpus", raw_arguments="{query: x}", parse_error="invalid JSON")
    assert render_tool_call(broken) == '<tool_call>\n{"name": "search_corpus", "arguments": {query: x}}\n</tool_call>'


CALL = ToolCall(id="c1", name="search_corpus", arguments={"query": "x"}, raw_arguments='{"query": "x"}')
CONVERSATION = [
    Message(Role.SYSTEM, "You search."),
    Message(Role.USER, "Find x."),
    Message(Role.ASSISTANT, "Searching.", tool_calls=(CALL, CALL)),
    Message(Role.TOOL, "result 1", tool_call_id="c1", name="search_corpus"),
    Message(Role.TOOL, "result 2", tool_call_id="c2", name="search_corpus"),
    Message(Role.USER, "[Token usage: 100/32,768]"),
]


def test_messages_with_tools_in_prompt() -> None:
    chat = messages_with_tools_in_prompt(CONVERSATION, [SEARCH_TOOL])
    assert [m["role"] for m in chat] == ["system", "user", "assistant", "user", "user"]
    assert chat[0]["content"].startswith("You search.\n\n# Tools") and "search_corpus" in chat[0]["content"]
    assert chat[2]["content"] == "Searching.\n" + render_tool_call(CALL) + "\n" + render_tool_call(CALL)
    assert chat[3]["content"] == (
        '<tool_response name="search_corpus" id="c1">\nresult 1\n</tool_response>\n'
        '<tool_response name="search_corpus" id="c2">\nresult 2\n</tool_response>'
    )
    # no system message: one is made for the tools; no tools: nothing is added
    assert messages_with_tools_in_prompt(CONVERSATION[1:2], [SEARCH_TOOL])[0]["role"] == "system"
    assert messages_with_tools_in_prompt(CONVERSATION[:2], [])[0] == {"role": "system", "content": "You search."}


def test_messages_for_native_template_keep_structured_calls() -> None:
    chat = messages_for_native_template(CONVERSATION)
    assert chat[2]["tool_calls"][0]["function"] == {"name": "search_corpus", "arguments": {"query": "x"}}
    assert chat[3] == {"role": "tool", "content": "result 1", "tool_call_id": "c1", "name": "search_corpus"}


class _Tokenizer:
    """Records what a chat template was given (the fake is the thing under test's input)."""

    def __init__(self, chat_template: str) -> None:
        self.chat_template = chat_template
        self.calls: list[tuple[list, dict]] = []

    def apply_chat_template(self, chat, **kwargs):
        self.calls.append((chat, kwargs))
        return "rendered"


def test_render_prompt_chooses_native_tools_when_the_template_reads_them() -> None:
    native = _Tokenizer("{% if tools %}{{ tools | tojson }}{% endif %}{% for m in messages %}...{% endfor %}")
    plain = _Tokenizer("{% for m in messages %}{{ m['content'] }}{% endfor %}")
    assert template_supports_tools(native.chat_template) and not template_supports_tools(plain.chat_template)
    render_prompt(native, CONVERSATION, [SEARCH_TOOL])
    render_prompt(plain, CONVERSATION, [SEARCH_TOOL])
    (native_chat, native_kwargs), (plain_chat, plain_kwargs) = native.calls[0], plain.calls[0]
    assert native_kwargs["tools"] == [SEARCH_TOOL] and native_chat[3]["role"] == "tool"
    assert "tools" not in plain_kwargs and "# Tools" in plain_chat[0]["content"]
    assert native_kwargs["add_generation_prompt"] and plain_kwargs["add_generation_prompt"]
    render_prompt(native, CONVERSATION, [SEARCH_TOOL], tools_in_prompt=True)  # forced
    assert "tools" not in native.calls[1][1]


def test_unknown_role_is_a_programmer_error() -> None:
    with pytest.raises(ValueError, match="valid"):
        messages_with_tools_in_prompt([Message("robot", "x")], [])  # type: ignore[arg-type]
