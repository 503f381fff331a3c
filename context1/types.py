"""Contracts of the search agent: messages, model turns, tool calls, observations, trajectories.

A `Trajectory` is the full, unpruned record of an episode (DESIGN principle 2): pruning changes
what the model sees, never what was recorded. Everything here is plain, picklable data (no
clients, no tools) so rollouts can cross process boundaries and be saved as JSONL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, runtime_checkable


class Role(str, Enum):
    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model emitted.

    id: the backend's call id (or one the harness made up), echoed in the tool message.
    arguments: the parsed JSON object; empty when parsing failed.
    raw_arguments: the arguments exactly as the model wrote them (kept for training and debugging).
    parse_error: why `raw_arguments` could not be parsed into an object, else None.
    """

    id: str
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    raw_arguments: str = ""
    parse_error: str | None = None


@dataclass(frozen=True)
class Message:
    """One chat message in OpenAI chat-completions shape (see `to_openai`)."""

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None  # for role=tool: which call this answers
    name: str | None = None  # for role=tool: the tool's name


@dataclass(frozen=True)
class ModelTurn:
    """What the backend produced for one inference.

    text: visible text (tool-call markup removed). tool_calls: in emission order.
    prompt_token_ids / token_ids / logprobs: present when the backend has them (local
    transformers, vLLM); training needs exactly the tokens that were sampled.
    prompt_tokens / completion_tokens: usage as reported or counted.
    reasoning: the model's separate reasoning text when the server returns one (vLLM's and
    DeepSeek's `reasoning_content`); kept in the record, never sent back to the model.
    """

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    prompt_token_ids: tuple[int, ...] | None = None
    token_ids: tuple[int, ...] | None = None
    logprobs: tuple[float, ...] | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    latency_s: float = 0.0
    reasoning: str | None = None


class StopReason(str, Enum):
    """Why an episode ended. Limits end an episode with a reason, never an exception."""

    ANSWERED = "answered"  # the model replied with text and no tool call
    MAX_TURNS = "max_turns"
    TOKEN_BUDGET = "token_budget"  # the context no longer fits the budget
    BACKEND_ERROR = "backend_error"  # the backend failed for good (after retries)
    CANCELLED = "cancelled"


@runtime_checkable
class Backend(Protocol):
    """One inference engine. The same harness loop runs on every backend.

    `generate` receives the whole visible conversation and the OpenAI-style tool schemas and
    returns one `ModelTurn`. It raises `BackendError` when it fails for good.
    `count_tokens` counts tokens with the backend's own tokenizer when it has one.
    """

    name: str

    def generate(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> ModelTurn: ...

    def count_tokens(self, text: str) -> int: ...


@runtime_checkable
class CorpusLike(Protocol):
    """What the harness needs of a corpus (`corpus_tools.Corpus` implements it).

    `Episode` and `SearchAgent` check a corpus against this at construction, so passing a path
    string (or anything else) fails at once with a `TypeError`, not later as a tool error
    shown to the model. Optional extras a policy may use are declared by `ScoringCorpus`.
    """

    def search(self, query: str, k: int = 10, exclude: Any = ()) -> Any: ...

    def grep(self, pattern: str, k: int = 5, exclude: Any = ()) -> Any: ...

    def read(self, doc_id: str, query: str | None = None, token_budget: int | None = None) -> Any: ...

    def chunk(self, chunk_id: str) -> Any: ...

    def has_doc(self, doc_id: str) -> bool: ...

    def title(self, doc_id: str) -> str | None: ...

    def count_tokens(self, text: str) -> int: ...


@runtime_checkable
class ScoringCorpus(CorpusLike, Protocol):
    """A corpus that can also score chunks against a query from its stored vectors.

    Used only by the LLM-free policy's documented `IterativeConfig.cosine_scoring` option (a
    read of the index's own embeddings; a model gets the same information from search ranks).
    """

    def similarity(self, query: str, chunk_ids: Sequence[str]) -> Any: ...


def check_corpus(corpus: Any) -> None:
    """Raise `TypeError` naming what to pass when `corpus` is not a `CorpusLike`."""
    if isinstance(corpus, CorpusLike):
        return
    if isinstance(corpus, str) or hasattr(corpus, "__fspath__"):
        raise TypeError(
            f"expected an opened corpus, got the path {str(corpus)!r}: pass corpus_tools.Corpus.open(path) "
            "(or Corpus.build(documents, path))"
        )
    missing = [m for m in ("search", "grep", "read", "chunk", "has_doc", "title", "count_tokens")
               if not callable(getattr(corpus, m, None))]
    raise TypeError(
        f"expected a corpus (corpus_tools.Corpus or any context1.types.CorpusLike), got {type(corpus).__name__} "
        f"without {', '.join(missing)}"
    )


class BackendError(RuntimeError):
    """An inference backend failed for good (after its retries); the message says what to do."""


@dataclass(frozen=True)
class Observation:
    """The harness's answer to one tool call.

    text: the full text given to the model (kept even after its chunks are pruned).
    chunk_ids: the chunks this observation showed, in order. doc_ids: their documents.
    is_error: the call was refused or malformed; `text` explains it to the model.
    """

    call_id: str
    tool: str
    text: str
    chunk_ids: tuple[str, ...] = ()
    doc_ids: tuple[str, ...] = ()
    is_error: bool = False
    n_tokens: int = 0
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One observe → infer → act cycle: the model's turn and the harness's observations.

    pruned: chunk ids removed from the model's view by this step's prune calls.
    tokens_used: the visible context size after this step (what `[Token usage: X/Y]` shows).
    """

    turn: ModelTurn
    observations: tuple[Observation, ...] = ()
    pruned: tuple[str, ...] = ()
    tokens_used: int = 0
    duration_s: float = 0.0


@dataclass(frozen=True)
class RankedDocument:
    """One document of the final answer, most relevant first."""

    doc_id: str
    justification: str = ""
    score: float = 0.0


@dataclass(frozen=True)
class Evidence:
    """One returned passage: a chunk the agent was shown, ranked, with a reason that is true.

    The passage is the unit the answer is made of (SPEC §1: "usually one snippet is what
    matters"); `SearchResult.documents` is derived from the evidence, a document ranking by its
    best passage. Only chunks the trajectory shows can be evidence.

    chunk_id, doc_id, text: the chunk as indexed (text without its contextual header).
    score: the driver's ranking score (higher is better; comparable within one result only).
    reason: why it answers, in words a person can check against the passage: the sub-query
        that found it, the constraint it meets, the question words it holds.
    title, page, section: where the passage sits, when the index knows (chunk metadata
        "title", "page", "section"; a transcript's section is the start time of its first turn); None otherwise.
    found_by: the search queries (or "grep:PATTERN", "read:DOC") whose results showed it.
    speakers: who talks in it, first-heard first, when it is a passage of a transcript or a chat (chunk
        metadata "speakers", else its "Name: " lines: `corpus_tools.speakers`); empty otherwise.
    """

    chunk_id: str
    doc_id: str
    text: str
    score: float = 0.0
    reason: str = ""
    title: str | None = None
    page: int | None = None
    section: str | None = None
    found_by: tuple[str, ...] = ()
    speakers: tuple[str, ...] = ()


@dataclass
class Trajectory:
    """The full, unpruned record of one episode.

    messages: the initial (system, user) messages. steps: every turn in order.
    Chunks shown and later pruned stay in the record: trajectory recall credits them.
    """

    query: str
    messages: list[Message] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    documents: list[RankedDocument] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    stop_reason: StopReason | None = None
    error: str | None = None
    token_budget: int = 0
    metadata: dict[str, Any] = field(default_factory=dict)

    def seen_chunk_ids(self) -> list[str]:
        """Every chunk id shown at any point, first-seen order, pruned ones included."""
        seen: dict[str, None] = {}
        for step in self.steps:
            for obs in step.observations:
                for cid in obs.chunk_ids:
                    seen.setdefault(cid, None)
        return list(seen)

    def seen_doc_ids(self) -> list[str]:
        """Every document id shown at any point, first-seen order."""
        seen: dict[str, None] = {}
        for step in self.steps:
            for obs in step.observations:
                for did in obs.doc_ids:
                    seen.setdefault(did, None)
        return list(seen)

    def pruned_chunk_ids(self) -> list[str]:
        """Every chunk id the agent pruned, in pruning order."""
        return [cid for step in self.steps for cid in step.pruned]


@dataclass(frozen=True)
class Usage:
    """Token usage of an episode: the final visible context, and totals over all inferences."""

    context_tokens: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    turns: int = 0
    tool_calls: int = 0


@dataclass
class SearchResult:
    """What `SearchAgent.run` returns: ranked passages (`evidence`), the documents ranked from
    them, the trajectory, usage and timings.

    rollouts: every rollout's trajectory (k× mode: k of them, whose ranked lists were fused
    into `documents`; 1×: just `trajectory`). `trajectory` is the first rollout's.
    usage: summed over rollouts (context_tokens: the largest final context).
    timings: seconds, summed over rollouts — total_s (wall clock of the whole call), model_s
    (inference), corpus_s (corpus calls), harness_s (the rest of the harness's wall time:
    validation, rendering, token counting, pruning), harness_cpu_s (the harness's own CPU time).
    """

    query: str
    documents: list[RankedDocument]
    trajectory: Trajectory
    usage: Usage
    timings: dict[str, float] = field(default_factory=dict)
    rollouts: list[Trajectory] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)

    @property
    def doc_ids(self) -> list[str]:
        return [d.doc_id for d in self.documents]

    @property
    def stop_reason(self) -> StopReason | None:
        """Why the (first) rollout ended; BACKEND_ERROR when the backend failed for good."""
        return self.trajectory.stop_reason
