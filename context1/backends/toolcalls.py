"""Tool calls written as text: describing tools in the prompt and parsing `<tool_call>` blocks.

Many chat templates (SmolLM2's among them) cannot carry OpenAI `tools`, and some servers hand a
model's calls back as plain text. For those, the tools are described in the system prompt and
the model is asked to answer in the Hermes / Qwen2.5 convention, one block per call:

    <tool_call>
    {"name": "search_corpus", "arguments": {"query": "..."}}
    </tool_call>

Small models write this imperfectly, so the parser is tolerant: several blocks per turn, a
missing closing tag (generation stopped), single-quoted Python-style dicts, trailing commas,
unclosed braces, `parameters` for `arguments`, arguments given as a JSON string. A block it
still cannot read becomes a `ToolCall` with `parse_error` set — never an exception — so the
harness can tell the model what went wrong and the raw text is kept for training.

Used by the transformers and vLLM backends (prompt rendering and parsing) and by the
OpenAI-compatible backend (calls found in `content`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from context1.types import Message, Role, ToolCall

TOOL_CALL_OPEN = "<tool_call>"
TOOL_CALL_CLOSE = "</tool_call>"

# A block runs to its closing tag, or to the next opening tag, or to the end of the text
# (generation cut off before the model closed it).
_BLOCK_RE = re.compile(r"<tool_call>(.*?)(?:</tool_call>|(?=<tool_call>)|\Z)", re.S)
_NAME_RE = re.compile(r"""["']name["']\s*:\s*["']([^"']+)["']""")
# The arguments' text in a call that does not parse: after the key, up to the call's closing brace.
_ARGS_RE = re.compile(r"""["'](?:arguments|parameters)["']\s*:\s*(.*?)\s*\}?\s*$""", re.S)
_FENCE_RE = re.compile(r"^```(?:json)?\s*|\s*```$")

TOOLS_PROMPT_HEADER = "# Tools\n\nYou may call one or more functions to assist with the user query."
TOOLS_PROMPT_FOOTER = (
    "For each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n"
    '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>\n'
    "You may emit several <tool_call> blocks in one reply. Reply with plain text and no "
    "<tool_call> block when you are done."
)


# ---------------------------------------------------------------------------------------------
# Rendering: tools, calls and tool results as text
# ---------------------------------------------------------------------------------------------


def render_tools_prompt(tools: Sequence[Mapping[str, Any]]) -> str:
    """Describe OpenAI-style tool schemas for a system prompt, Hermes / Qwen2.5 style.

    Each schema is written as one JSON line inside `<tools>`; the model is told to answer with
    `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` blocks. Returns "" for no tools.
    """
    if not tools:
        return ""
    lines = [json.dumps(_function_schema(t), ensure_ascii=False) for t in tools]
    return (
        f"{TOOLS_PROMPT_HEADER}\n\nYou are provided with function signatures within <tools></tools> XML tags:\n"
        "<tools>\n" + "\n".join(lines) + "\n</tools>\n\n" + TOOLS_PROMPT_FOOTER
    )


def render_tool_call(call: ToolCall) -> str:
    """One call as a `<tool_call>` block; a call whose arguments failed to parse keeps its raw text."""
    if call.parse_error is not None and not call.name:  # nothing was readable: the block as written
        return f"{TOOL_CALL_OPEN}\n{call.raw_arguments}\n{TOOL_CALL_CLOSE}"
    if call.parse_error is not None and call.raw_arguments:
        body = f'{{"name": {json.dumps(call.name, ensure_ascii=False)}, "arguments": {call.raw_arguments}}}'
    else:
        body = json.dumps({"name": call.name, "arguments": dict(call.arguments)}, ensure_ascii=False)
    return f"{TOOL_CALL_OPEN}\n{body}\n{TOOL_CALL_CLOSE}"


def render_tool_response(message: Message) -> str:
    """A tool result wrapped so a template without a `tool` role can carry it in a user turn."""
    attrs = ""
    if message.name:
        attrs += f' name="{message.name}"'
    if message.tool_call_id:
        attrs += f' id="{message.tool_call_id}"'
    return f"<tool_response{attrs}>\n{message.content}\n</tool_response>"


def messages_with_tools_in_prompt(
    messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]
) -> list[dict[str, str]]:
    """Chat dicts for a template that knows only system/user/assistant and plain string content.

    - the tool description is appended to the system message (one is created when missing);
    - an assistant message's calls become `<tool_call>` blocks after its text;
    - consecutive tool messages become one user message of `<tool_response>` blocks (templates
      that demand alternating roles accept that, and it is the Qwen2.5 convention).
    """
    out: list[dict[str, str]] = []
    tools_text = render_tools_prompt(tools)
    if tools_text and (not messages or _role(messages[0]) != Role.SYSTEM):
        out.append({"role": "system", "content": tools_text})
    pending_tool: list[str] = []
    for i, msg in enumerate(messages):
        role = _role(msg)
        if role != Role.TOOL and pending_tool:
            out.append({"role": "user", "content": "\n".join(pending_tool)})
            pending_tool = []
        if role == Role.SYSTEM:
            content = msg.content
            if i == 0 and tools_text:
                content = f"{content}\n\n{tools_text}" if content else tools_text
            out.append({"role": "system", "content": content})
        elif role == Role.USER:
            out.append({"role": "user", "content": msg.content})
        elif role == Role.ASSISTANT:
            parts = [msg.content] if msg.content else []
            parts += [render_tool_call(c) for c in msg.tool_calls]
            out.append({"role": "assistant", "content": "\n".join(parts)})
        else:
            pending_tool.append(render_tool_response(msg))
    if pending_tool:
        out.append({"role": "user", "content": "\n".join(pending_tool)})
    return out


def messages_for_native_template(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Chat dicts for a Hugging Face template that handles `tools`, tool calls and the tool role.

    Arguments stay dicts (HF templates such as Qwen2.5's serialise them themselves).
    """
    out: list[dict[str, Any]] = []
    for msg in messages:
        role = _role(msg)
        d: dict[str, Any] = {"role": role.value, "content": msg.content}
        if role == Role.ASSISTANT and msg.tool_calls:
            d["tool_calls"] = [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": dict(c.arguments)}}
                for c in msg.tool_calls
            ]
        if role == Role.TOOL:
            if msg.tool_call_id:
                d["tool_call_id"] = msg.tool_call_id
            if msg.name:
                d["name"] = msg.name
        out.append(d)
    return out


def template_supports_tools(chat_template: str | None) -> bool:
    """Whether a Jinja chat template reads `tools` (if not, tools go in the system prompt)."""
    return bool(chat_template) and re.search(r"\btools\b", chat_template) is not None


def chat_for_template(
    tokenizer: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    *,
    tools_in_prompt: bool | None = None,
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The chat dicts and template kwargs a Hugging Face chat template is rendered with.

    tools_in_prompt: None decides from the template (`template_supports_tools`); True always
    describes tools in the system prompt and folds tool results into user turns.
    """
    if tools_in_prompt is None:
        tools_in_prompt = not template_supports_tools(getattr(tokenizer, "chat_template", None))
    if tools_in_prompt:
        return list(messages_with_tools_in_prompt(messages, tools)), {}
    return messages_for_native_template(messages), ({"tools": [dict(t) for t in tools]} if tools else {})


def render_prompt(
    tokenizer: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    *,
    tools_in_prompt: bool | None = None,
) -> str:
    """Render a conversation with a Hugging Face tokenizer's chat template, ending in the
    assistant generation prompt (`chat_for_template` says how tools are given)."""
    chat, kwargs = chat_for_template(tokenizer, messages, tools, tools_in_prompt=tools_in_prompt)
    return tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True, **kwargs)


# ---------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------


def parse_tool_calls(text: str, *, id_prefix: str = "call") -> tuple[str, list[ToolCall]]:
    """Split model text into (visible text without tool-call markup, calls in emission order).

    Call ids are f"{id_prefix}_{i}"; pass a prefix unique to the turn. Never raises: a block
    that cannot be read becomes a call with `parse_error` set (and `name` when it can be found).
    """
    calls: list[ToolCall] = []
    for i, match in enumerate(_BLOCK_RE.finditer(text)):
        calls.append(parse_tool_call_block(match.group(1), call_id=f"{id_prefix}_{i}"))
    visible = _BLOCK_RE.sub("", text) if calls else text
    # A stray closing tag (the model opened none) is markup too.
    visible = visible.replace(TOOL_CALL_CLOSE, "")
    return re.sub(r"\n{3,}", "\n\n", visible).strip(), calls


def parse_tool_call_block(block: str, *, call_id: str) -> ToolCall:
    """One block's body (`{"name": ..., "arguments": {...}}`) as a ToolCall; never raises."""
    body = _FENCE_RE.sub("", block.strip()).strip()
    if not body:
        return ToolCall(id=call_id, name="", parse_error="empty <tool_call> block")
    obj, error = loads_lenient(body)
    if error is not None or not isinstance(obj, dict):
        # Salvage what can be read: the name (for the error shown to the model) and the arguments' text.
        name_match = _NAME_RE.search(body)
        args_match = _ARGS_RE.search(body) if name_match else None
        return ToolCall(
            id=call_id,
            name=name_match.group(1) if name_match else "",
            raw_arguments=args_match.group(1) if args_match else body,
            parse_error=error or f"a tool call must be a JSON object, got {type(obj).__name__}",
        )
    name = obj.get("name")
    raw_args = obj.get("arguments", obj.get("parameters", {}))
    raw_text = raw_args if isinstance(raw_args, str) else json.dumps(raw_args, ensure_ascii=False)
    if not isinstance(name, str) or not name:
        return ToolCall(id=call_id, name="", raw_arguments=body, parse_error='the tool call has no "name"')
    arguments, error = parse_arguments(raw_args)
    return ToolCall(id=call_id, name=name, arguments=arguments, raw_arguments=raw_text, parse_error=error)


def parse_arguments(raw: Any) -> tuple[dict[str, Any], str | None]:
    """Tool-call arguments (a JSON string or an already decoded value) as (object, error).

    The object is empty when parsing failed or did not give an object; the error says why.
    """
    if raw is None or raw == "":
        return {}, None
    value, error = (raw, None) if not isinstance(raw, str) else loads_lenient(raw)
    if error is not None:
        return {}, error
    if isinstance(value, str):  # arguments double-encoded as a JSON string holding JSON
        value, error = loads_lenient(value)
        if error is not None:
            return {}, error
    if not isinstance(value, dict):
        return {}, f"arguments must be a JSON object, got {type(value).__name__}"
    return value, None


def loads_lenient(text: str) -> tuple[Any, str | None]:
    """json.loads, then json-repair for what small models get wrong; (value, None) or (None, error).

    Strict JSON first (most calls are well formed, and it is the fast path). Otherwise json-repair
    (the project's one lenient parser, as in datagen) fixes trailing commas, unclosed brackets,
    single quotes and Python's True/False/None. A repair that had to guess where a string starts
    or ends (unquoted words, an unterminated string) is refused: a wrong guess would run a tool
    with arguments the model did not write, where an error lets it retry. The error is the strict
    parser's message, the most useful one to show the model.
    """
    try:
        return json.loads(text), None
    except (json.JSONDecodeError, TypeError) as exc:
        first_error = f"invalid JSON: {exc}"
    from json_repair import repair_json

    try:
        value, log = repair_json(text, return_objects=True, logging=True)
    except Exception:  # json-repair's own failure is one more unreadable call  # noqa: BLE001
        return None, first_error
    guessed = any(any(g in str(entry.get("text", "")) for g in _REPAIR_GUESSES) for entry in log)
    if guessed or value == "" or not _is_json_like(value):
        return None, first_error
    return value, None


# json-repair log lines of repairs that invent string boundaries; a call that needs one is refused.
_REPAIR_GUESSES = (
    "literal instead of a quote",
    "missed the closing quote",
    "comment instead of valid string",
    "Parsed object is empty",
    "missing the left delimiter",
)


def _is_json_like(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_json_like(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_is_json_like(v) for v in value)
    return value is None or isinstance(value, (str, int, float, bool))


def _function_schema(tool: Mapping[str, Any]) -> Mapping[str, Any]:
    """The `function` part of an OpenAI tool ({"type": "function", "function": {...}}), or the tool itself."""
    fn = tool.get("function")
    return fn if isinstance(fn, Mapping) else tool


def _role(msg: Message) -> Role:
    try:
        return Role(msg.role)
    except ValueError:
        raise ValueError(f"unknown message role {msg.role!r}; valid: {[r.value for r in Role]}") from None
