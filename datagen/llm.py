"""The LLM pipeline (SPEC §4 steps 1-6) through any context1 `Backend`.

1. Gather: supporting documents along a chain of the corpus's own links (datagen.mining), so the
   documents hold linked, unique facts; a truth type in rotation keeps answers diverse. Two
   explorers (`LLMConfig.explorer`): "mined", a seeded walk over the mined link graph (cheap,
   reproducible, the default), or "agent", the reference's way: the model gathers the chain
   through the search agent's own tools, held to the same title-link rule (datagen.explore).
2. Generate: for the first document the model writes obfuscated clues, a question and the answer
   in one pass (few-shot). For a multi-hop chain the first answer must be the bridge (the name of
   the next document), so the next step can chain on it.
5. Chain: each further document adds a hop: the model writes a clue about the previous answer
   (without naming it) from the new document, and a new question with a new answer — the bridge
   to the next document, or for the last one an answer of the truth type.
3. Verify by extraction: per supporting document, the model copies `document_quotes`,
   `clue_quotes` and says `contains_truth`; the accept/reject decision is then made by the pure
   functions of datagen.verify (no model's opinion in it).
4. Distractors and 6. extra positives are done by the shared loop (datagen.pipeline): search hits
   without the answer, and every chunk that carries a verified quote.

Model output is JSON: a JSON schema is sent as `response_format` where the backend can pass it
(OpenAI-compatible servers: "json_schema" for OpenAI/vLLM, "json_object" + schema for
llama-cpp-python), parsing is tolerant (code fences, prose around the object, json-repair) and
a malformed answer is re-asked at most `parse_retries` times. Backend failures are counted; after
`max_backend_failures` in a row the run stops cleanly (StopGeneration) with what it has.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from context1.types import Backend, BackendError, Message, ModelTurn, Role
from datagen.mining import MinedCorpus
from datagen.offline import OfflineGenerator
from datagen.types import Candidate, DropReason, StopGeneration, SupportingItem, TruthType
from datagen.verify import contains, normalize

LLM_TYPES = (TruthType.PERSON, TruthType.DATE, TruthType.PLACE, TruthType.ORGANIZATION, TruthType.NUMBER)


@dataclass(frozen=True)
class LLMConfig:
    """Knobs of the LLM pipeline.

    structured: "json_schema" (OpenAI, vLLM), "json_object" (llama-cpp-python's schema form) or
        "none" (prompt only). Sent only to backends that pass extra request fields (OpenAI-compatible).
    parse_retries: re-asks after a malformed answer (bounded: 1 + parse_retries calls per stage).
    max_backend_failures: backend errors in a row after which the run stops.
    max_doc_chars: characters of each document shown to the model (small models have small contexts).
    explorer: "mined" (a walk over the mined title and entity links) or "agent" (the model gathers
        the chain with the search agent's tools; datagen.explore). explore_turns: its turn limit.
    """

    structured: str = "json_schema"
    parse_retries: int = 1
    max_backend_failures: int = 3
    max_doc_chars: int = 700
    explorer: str = "mined"
    explore_turns: int = 8

    def __post_init__(self) -> None:
        if self.structured not in ("json_schema", "json_object", "none"):
            raise ValueError(f"structured must be 'json_schema', 'json_object' or 'none', got {self.structured!r}")
        if self.explorer not in ("mined", "agent"):
            raise ValueError(f"explorer must be 'mined' or 'agent', got {self.explorer!r}")
        if self.explore_turns < 1:
            raise ValueError("explore_turns must be >= 1")
        if self.parse_retries < 0 or self.max_backend_failures < 1:
            raise ValueError("parse_retries must be >= 0 and max_backend_failures >= 1")


_STR_LIST = {"type": "array", "items": {"type": "string"}}
SCHEMAS: dict[str, dict[str, Any]] = {
    "generate": {
        "type": "object",
        "properties": {"clues": _STR_LIST, "question": {"type": "string"}, "answer": {"type": "string"}},
        "required": ["clues", "question", "answer"],
    },
    "chain": {
        "type": "object",
        "properties": {"clue": {"type": "string"}, "question": {"type": "string"}, "answer": {"type": "string"}},
        "required": ["clue", "question", "answer"],
    },
    "extract": {
        "type": "object",
        "properties": {
            "document_quotes": _STR_LIST,
            "clue_quotes": _STR_LIST,
            "contains_truth": {"type": "boolean"},
        },
        "required": ["document_quotes", "clue_quotes", "contains_truth"],
    },
}

SYSTEM = (
    "You write retrieval puzzles from documents. Reply with one JSON object and nothing else.\n"
    "Clues describe facts of the document indirectly: never name the answer in a clue or the question."
)
FEW_SHOT_DOC = (
    "Veldhaven is a river town on the Ostmere, founded in 1712 by salt merchants. "
    "Its mayor since 2019 is Ilsa Marrow."
)
FEW_SHOT_ANSWER = {
    "clues": ["A river town was founded by salt merchants in the early 18th century.", "Its mayor took office in 2019."],
    "question": "Which town on the Ostmere was founded by salt merchants and has had the same mayor since 2019?",
    "answer": "Veldhaven",
}


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in a model's text: fences and surrounding prose ignored, broken JSON
    repaired (json-repair) when it must be; None when there is no object at all."""
    text = text.strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.S)
    if fenced:
        text = fenced.group(1).strip()
    start = text.find("{")
    if start < 0:
        return None
    body = text[start:]
    try:
        value, _ = json.JSONDecoder().raw_decode(body)
    except json.JSONDecodeError:
        try:
            from json_repair import repair_json
        except ImportError:  # pragma: no cover - a declared dependency
            return None
        value = repair_json(body, return_objects=True)
    return value if isinstance(value, dict) else None


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, (str, int, float)) and str(v).strip()]
    return []


def _valid(stage: str, obj: dict[str, Any] | None) -> str | None:
    """Why a parsed object does not fit its stage's schema, or None when it does."""
    if obj is None:
        return "no JSON object found"
    missing = [k for k in SCHEMAS[stage]["required"] if k not in obj]
    if missing:
        return f"missing keys {missing}"
    for key in ("question", "answer", "clue"):
        if key in SCHEMAS[stage]["required"] and not (isinstance(obj[key], str) and obj[key].strip()):
            return f"{key!r} must be a non-empty string"
    if stage == "generate" and not _strings(obj["clues"]):
        return "'clues' must be a non-empty list of strings"
    return None


class LLMGenerator:
    """Proposes candidates with a model (see the module docstring); the `Generator` of datagen.pipeline.

    usage: prompt/completion tokens, calls, re-asks and backend errors so far.
    stages: "<stage>:<outcome>" counts (ok, malformed, backend_error) for the report.
    """

    def __init__(self, backend: Backend, corpus: Any, mined: MinedCorpus, config: LLMConfig | None = None) -> None:
        self.backend = backend
        self.corpus = corpus
        self.mined = mined
        self.config = config or LLMConfig()
        self.explorer = OfflineGenerator(mined)
        self.usage: Counter = Counter()
        self.stages: Counter = Counter()
        self._failures_in_a_row = 0
        self._turn = 0
        self._structured: dict[str, Any] = {}
        self.agent_explorer = None
        if self.config.explorer == "agent":
            from context1.config import AgentConfig
            from datagen.explore import AgentExplorer

            self.agent_explorer = AgentExplorer(
                corpus, mined, lambda messages, tools: self._call("explore", self.backend, messages, tools),
                AgentConfig(max_turns=self.config.explore_turns), token_counter=backend.count_tokens,
                stages=self.stages,
            )

    # -- the Generator protocol ------------------------------------------------------------

    def commit(self, candidate: Candidate) -> None:
        self.explorer.commit(candidate)

    def usage_counts(self) -> dict[str, int]:
        return dict(self.usage)

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        truth = LLM_TYPES[self._turn % len(LLM_TYPES)]
        self._turn += 1
        docs = self._gather(hops, rng)
        if isinstance(docs, DropReason):
            return docs
        doc_ids, bridges = docs
        first_answer = bridges[0] if bridges else None
        out = self._ask("generate", self._generate_prompt(doc_ids[0], truth, first_answer))
        if isinstance(out, DropReason):
            return out
        clues = _strings(out["clues"])
        question, answer = str(out["question"]), str(out["answer"])
        for i, doc_id in enumerate(doc_ids[1:], start=1):
            bridge = answer
            want = bridges[i] if i < len(bridges) else None
            step = self._ask("chain", self._chain_prompt(doc_id, bridge, truth, want))
            if isinstance(step, DropReason):
                return step
            clues.append(str(step["clue"]))
            question, answer = str(step["question"]), str(step["answer"])
        items = []
        for doc_id in doc_ids:
            got = self._ask("extract", self._extract_prompt(doc_id, clues, answer))
            if isinstance(got, DropReason):
                return got
            quotes = tuple(_strings(got["document_quotes"]))
            items.append(
                SupportingItem(
                    doc_id=doc_id,
                    chunk_ids=self._chunks_with_quotes(doc_id, quotes),
                    quotes=quotes,
                    clue_quotes=tuple(_strings(got["clue_quotes"])),
                    contains_truth=bool(got.get("contains_truth")),
                )
            )
        return Candidate(
            question=" ".join([*clues, question]),
            answer=answer,
            supporting=tuple(items),
            hops=len(doc_ids),
            truth_type=truth,
            clues=tuple(clues),
            bridges=tuple(bridges),
            generator=f"llm:{getattr(self.backend, 'name', 'backend')}",
            metadata={"final_question": question},
        )

    # -- stages ----------------------------------------------------------------------------

    def _gather(self, hops: int, rng: random.Random) -> tuple[list[str], list[str]] | DropReason:
        """Documents 1..h along links, and the bridge surfaces that name documents 2..h."""
        if self.agent_explorer is not None:
            return self.agent_explorer.gather(hops, rng)
        if hops == 1:
            pool = sorted(d for d in self.mined.chunks if self.explorer.usable(d))
            return ([rng.choice(pool)], []) if pool else DropReason.NO_CHAIN
        path = self.explorer.chain(hops, rng)
        if path is None:
            return DropReason.NO_CHAIN
        return [path[0].sentence.doc_id] + [link.target for link in path], [link.text for link in path]

    def _doc(self, doc_id: str) -> str:
        title = self.mined.titles.get(doc_id) or doc_id
        return f"Title: {title}\n{self.mined.doc_text(doc_id)[: self.config.max_doc_chars]}"

    def _generate_prompt(self, doc_id: str, truth: TruthType, answer: str | None) -> list[Message]:
        target = f'The answer must be exactly "{answer}".' if answer else f"The answer must be a {truth.value}."
        return [
            Message(Role.SYSTEM, SYSTEM),
            Message(Role.USER, f"Document:\n{FEW_SHOT_DOC}\n\nThe answer must be a place."),
            Message(Role.ASSISTANT, json.dumps(FEW_SHOT_ANSWER)),
            Message(
                Role.USER,
                f"Document:\n{self._doc(doc_id)}\n\n{target} "
                'Reply as {"clues": [...], "question": "...", "answer": "..."}.',
            ),
        ]

    def _chain_prompt(self, doc_id: str, bridge: str, truth: TruthType, want: str | None) -> list[Message]:
        target = f'The new answer must be exactly "{want}".' if want else f"The new answer must be a {truth.value}."
        return [
            Message(Role.SYSTEM, SYSTEM),
            Message(
                Role.USER,
                f"Document:\n{self._doc(doc_id)}\n\nWrite one clue about \"{bridge}\" taken from this document "
                f'without writing "{bridge}", and a new question whose answer is in this document. {target} '
                'Reply as {"clue": "...", "question": "...", "answer": "..."}.',
            ),
        ]

    def _extract_prompt(self, doc_id: str, clues: Sequence[str], answer: str) -> list[Message]:
        listed = "\n".join(f"- {c}" for c in clues)
        return [
            Message(Role.SYSTEM, "You copy exact text spans. Reply with one JSON object and nothing else."),
            Message(
                Role.USER,
                f"Document:\n{self._doc(doc_id)}\n\nClues:\n{listed}\nAnswer: {answer}\n\n"
                "Copy the sentences of the document that support the clues (document_quotes, verbatim), the parts "
                "of the clues they support (clue_quotes, verbatim), and say whether the document contains the "
                'answer. Reply as {"document_quotes": [...], "clue_quotes": [...], "contains_truth": true}.',
            ),
        ]

    def _chunks_with_quotes(self, doc_id: str, quotes: Sequence[str]) -> tuple[str, ...]:
        normed = [normalize(q) for q in quotes if normalize(q)]
        chunks = self.mined.chunks.get(doc_id, [])
        hit = tuple(c.chunk_id for c in chunks if any(contains(normalize(c.text), q, normalized=True) for q in normed))
        return hit or tuple(c.chunk_id for c in chunks)

    # -- one model call with structure, tolerant parsing and bounded re-asks ----------------

    def _backend_for(self, stage: str) -> Backend:
        mode = self.config.structured
        if mode == "none" or not hasattr(self.backend, "extra_body"):
            return self.backend
        if stage not in self._structured:
            clone = copy.copy(self.backend)
            schema = SCHEMAS[stage]
            if mode == "json_schema":
                fmt: dict[str, Any] = {"type": "json_schema", "json_schema": {"name": stage, "schema": schema}}
            else:
                fmt = {"type": "json_object", "schema": schema}
            clone.extra_body = {**dict(self.backend.extra_body), "response_format": fmt}  # type: ignore[attr-defined]
            self._structured[stage] = clone
        return self._structured[stage]

    def _call(
        self, stage: str, backend: Backend, messages: Sequence[Message], tools: Sequence[Any]
    ) -> ModelTurn | DropReason:
        """One model turn, counted; a backend failure is a drop, or the end of the run after too many."""
        try:
            turn = backend.generate(messages, tools)
        except BackendError as exc:
            self.usage["backend_errors"] += 1
            self.stages[f"{stage}:backend_error"] += 1
            self._failures_in_a_row += 1
            if self._failures_in_a_row >= self.config.max_backend_failures:
                raise StopGeneration(
                    f"the backend failed {self._failures_in_a_row} times in a row (last: {exc}); "
                    "check the server, or raise its timeout"
                ) from exc
            return DropReason.BACKEND_FAILED
        self._failures_in_a_row = 0
        self.usage["calls"] += 1
        # Backends that report no usage (scripted, some servers) are counted with their tokenizer.
        self.usage["prompt_tokens"] += turn.prompt_tokens or sum(backend.count_tokens(m.content) for m in messages)
        self.usage["completion_tokens"] += turn.completion_tokens or backend.count_tokens(turn.text)
        return turn

    def _ask(self, stage: str, messages: list[Message]) -> Mapping[str, Any] | DropReason:
        backend = self._backend_for(stage)
        for attempt in range(1 + self.config.parse_retries):
            turn = self._call(stage, backend, messages, [])
            if isinstance(turn, DropReason):
                return turn
            obj = parse_json_object(turn.text)
            problem = _valid(stage, obj)
            if problem is None:
                self.stages[f"{stage}:ok"] += 1
                return obj  # type: ignore[return-value]
            if attempt < self.config.parse_retries:
                self.usage["reasks"] += 1
                messages = [
                    *messages,
                    Message(Role.ASSISTANT, turn.text[:2000]),
                    Message(Role.USER, f"That reply is not usable ({problem}). Reply with the JSON object only."),
                ]
        self.stages[f"{stage}:malformed"] += 1
        return DropReason.MALFORMED_OUTPUT
