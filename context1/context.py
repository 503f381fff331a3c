"""What the model sees: the conversation with pruned chunks replaced by a short marker.

The trajectory keeps every observation's full text (DESIGN principle 2); this module derives the
visible context from it. Each observation records where its chunks sit in its text
(`Observation.metadata["chunk_spans"]`: `[chunk_id, start, end]` character offsets), so pruning
replaces exactly those spans — never a regex over text that documents could fake.

Pruning hides every occurrence of a chunk that exists when the prune call runs; a chunk shown
again later (read_document re-shows chunks) is visible in that new observation until pruned again.
`replay_messages` rebuilds the context the model saw before any step from a saved trajectory,
which is what training needs to recover each inference's exact prompt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from context1.budget import TokenCounter
from context1.prompts import PRUNE_CHUNKS, render_pruned
from context1.types import Message, ModelTurn, Observation, Role, Trajectory


def visible_pieces(text: str, spans: Sequence[tuple[str, int, int]], hidden: Collection[str] = ()) -> list[str]:
    """A tool message's text cut at its chunk spans, hidden chunks replaced by the pruned marker.

    "".join(pieces) is the visible text. Token counts are summed over pieces (each chunk block is
    counted once, when it is first rendered, and cached), so the context is never re-tokenized as a
    whole: pruning or appending the usage line re-counts only the small pieces that changed. Summing
    pieces can differ from tokenizing the joined text by about a token per boundary (pieces are cut
    at the blank lines between chunks), which is well inside the budget's margins.
    """
    parts: list[str] = []
    pos = 0
    for cid, start, end in spans:
        parts.append(text[pos:start])
        parts.append(render_pruned(cid) if cid in hidden else text[start:end])
        pos = end
    parts.append(text[pos:])
    return parts


def count_pieces(text: str, spans: Sequence[tuple[str, int, int]], counter: TokenCounter,
                 hidden: Collection[str] = ()) -> int:
    """Tokens of a tool message's (visible) text, summed over its pieces (see `visible_pieces`)."""
    return sum(counter(p) for p in visible_pieces(text, spans, hidden))


@dataclass
class _ToolEntry:
    call_id: str
    name: str
    text: str
    spans: list[tuple[str, int, int]]
    hidden: set[str] = field(default_factory=set)
    message: Message | None = None  # cached visible rendering
    tokens: int | None = None  # cached token count of `message`

    def invalidate(self) -> None:
        self.message = None
        self.tokens = None

    def render(self) -> Message:
        if self.message is None:
            content = "".join(visible_pieces(self.text, self.spans, self.hidden)) if self.hidden else self.text
            self.message = Message(role=Role.TOOL, content=content, tool_call_id=self.call_id, name=self.name)
        return self.message

    def count(self, counter: TokenCounter) -> int:
        if self.tokens is None:
            self.tokens = counter.overhead("tool") + count_pieces(self.text, self.spans, counter, self.hidden)
        return self.tokens


def chunk_spans(obs: Observation) -> list[tuple[str, int, int]]:
    """The `[chunk_id, start, end]` spans an observation recorded (empty for errors and prunes)."""
    return [(str(c), int(s), int(e)) for c, s, e in obs.metadata.get("chunk_spans", ())]


class ContextView:
    """The visible conversation: initial messages, assistant turns and (prunable) tool messages."""

    def __init__(self, initial: Sequence[Message]) -> None:
        self._initial = list(initial)
        self._entries: list[Message | _ToolEntry] = []
        self._visible = Counter()  # chunk id -> number of visible occurrences
        self._where: dict[str, list[_ToolEntry]] = {}  # chunk id -> entries that show it

    # -- building -----------------------------------------------------------------------
    def add_assistant(self, turn: ModelTurn) -> None:
        self._entries.append(Message(role=Role.ASSISTANT, content=turn.text, tool_calls=turn.tool_calls))

    def add_tool(self, obs: Observation) -> int:
        """Append a tool message for `obs`; returns its index (for `set_tool_text`)."""
        entry = _ToolEntry(call_id=obs.call_id, name=obs.tool, text=obs.text, spans=chunk_spans(obs))
        for cid, _, _ in entry.spans:
            self._visible[cid] += 1
            self._where.setdefault(cid, []).append(entry)
        self._entries.append(entry)
        return len(self._entries) - 1

    def set_tool_text(self, index: int, text: str) -> None:
        """Replace a tool message's text; its chunk spans must be unchanged (text appended only)."""
        entry = self._entries[index]
        assert isinstance(entry, _ToolEntry)
        entry.text = text
        entry.invalidate()

    def prune(self, chunk_ids: Iterable[str]) -> list[str]:
        """Hide every visible occurrence of these chunks; returns the ids that were visible."""
        done: list[str] = []
        for cid in chunk_ids:
            if self._visible.get(cid, 0) <= 0:
                continue
            for entry in self._where.get(cid, ()):
                if cid not in entry.hidden:
                    entry.hidden.add(cid)
                    entry.invalidate()
            self._visible[cid] = 0
            done.append(cid)
        return done

    # -- reading ------------------------------------------------------------------------
    def is_visible(self, chunk_id: str) -> bool:
        return self._visible.get(chunk_id, 0) > 0

    def visible_chunk_ids(self) -> list[str]:
        """Chunks with at least one visible occurrence, first-shown order."""
        return [cid for cid, n in self._visible.items() if n > 0]

    def messages(self) -> list[Message]:
        out = list(self._initial)
        for entry in self._entries:
            out.append(entry.render() if isinstance(entry, _ToolEntry) else entry)
        return out

    def count(self, counter: TokenCounter) -> int:
        """Tokens of the visible context (tool messages summed over pieces, see `visible_pieces`)."""
        n = counter.fixed + counter.messages(self._initial)
        for entry in self._entries:
            n += entry.count(counter) if isinstance(entry, _ToolEntry) else counter.message(entry)
        return n


def replay_view(trajectory: Trajectory, before_step: int | None = None) -> ContextView:
    """The context view as it stood before step `before_step` (None: after the last step)."""
    view = ContextView(trajectory.messages)
    for step in trajectory.steps[:before_step]:
        view.add_assistant(step.turn)
        for obs in step.observations:
            if obs.tool == PRUNE_CHUNKS:
                view.prune(obs.metadata.get("pruned", ()))
            view.add_tool(obs)
    return view


def replay_messages(trajectory: Trajectory, before_step: int | None = None) -> list[Message]:
    """The exact messages the model was given for step `before_step`'s inference.

    `replay_messages(traj, i)` is the prompt of step i; `replay_messages(traj)` is the final
    context (the answer included). Pruned chunks appear as `<chunk id="..." pruned/>`.
    """
    return replay_view(trajectory, before_step).messages()
