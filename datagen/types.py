"""Contracts of datagen: candidates before verification, verdicts, and what a run reports.

A generator (offline or LLM) proposes `Candidate`s; `verify.check_candidate` accepts or rejects
each with `DropReason`s (pure functions, no model's opinion); accepted candidates become
`eval.types.Task` records (`datagen.records.to_task`). Everything here is plain, frozen data.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class TruthType(str, Enum):
    """The kind of answer a task asks for (SPEC §4 step 1: a truth type keeps answers diverse).

    The offline generator finds DATE, NUMBER and ENTITY spans by pattern; an LLM may also name
    PERSON, PLACE or ORGANIZATION.
    """

    DATE = "date"
    NUMBER = "number"
    ENTITY = "entity"
    PERSON = "person"
    PLACE = "place"
    ORGANIZATION = "organization"
    OTHER = "other"


# metadata["hop_unit"] of a task whose hops are passages of documents a question finds by their names: a workbook's
# row is reached only through the key the row before gives, while the workbook itself is found by its name and a
# column's header (datagen.grid_joins). The one-search drop and the lexical budget (datagen.pipeline) look for
# such a task's passages in a search's top chunks rather than for its documents.
HOP_UNIT = "hop_unit"
PASSAGE_HOPS = "passage"


class DropReason(str, Enum):
    """Why a candidate (or a distractor) was rejected; every drop is counted under one of these."""

    EMPTY_QUESTION = "empty_question"
    EMPTY_ANSWER = "empty_answer"
    NO_SUPPORT = "no_supporting_documents"
    UNKNOWN_DOCUMENT = "unknown_document"  # a supporting doc id the corpus does not hold
    DOC_WITHOUT_QUOTES = "document_without_quotes"  # a supporting document contributed no quote
    QUOTE_NOT_IN_DOCUMENT = "quote_not_in_document"
    CLUE_QUOTE_NOT_IN_CLUES = "clue_quote_not_in_clues"
    ANSWER_NOT_IN_SUPPORT = "answer_not_in_supporting_chunk"
    ANSWER_LEAK = "answer_leaks_into_question_or_clues"
    DUPLICATE = "duplicate_task"
    ONE_SEARCH_SOLVES = "one_search_solves"  # all gold in one hybrid or BM25 search's top 10 (bridges)
    LEXICAL_BUDGET = "over_lexical_budget"  # BM25 finds a later document of the chain too often already
    NO_CHAIN = "no_chain_found"  # the corpus offered no chain of the wanted length from this seed
    NO_ANSWER_SPAN = "no_answer_span"  # the last document held no usable typed span
    MALFORMED_OUTPUT = "malformed_model_output"  # the model's output did not parse after retries
    BACKEND_FAILED = "backend_failed"  # the backend raised (timeout, HTTP error) after retries
    DISTRACTOR_HAS_ANSWER = "distractor_contains_answer"
    EXCLUDED_DOCUMENT = "excluded_document"  # a supporting doc is on the caller's exclusion list
    COPIED_PASSAGE = "copies_its_passage"  # a learned writer's draft is mostly a run of its passage's words


@dataclass(frozen=True)
class SupportingItem:
    """One supporting document of a candidate and the evidence it contributes.

    doc_id: the document. chunk_ids: the chunks the quotes were taken from (gold chunks).
    quotes: verbatim spans of the document (SPEC §4 step 3 `document_quotes`).
    clue_quotes: the spans of the clues/question these quotes support (`clue_quotes`).
    contains_truth: the generator's claim that this document holds the answer (informative only:
        the verifier checks answer containment itself).
    """

    doc_id: str
    chunk_ids: tuple[str, ...] = ()
    quotes: tuple[str, ...] = ()
    clue_quotes: tuple[str, ...] = ()
    contains_truth: bool = False


@dataclass(frozen=True)
class Candidate:
    """A proposed task before verification.

    question: the query given to the retriever. answer: the truth; aliases: other surface forms.
    clues: the obfuscated clue sentences the question was composed from, in chain order.
    supporting: one item per supporting document, in chain order (first = entry point).
    hops: the number of supporting documents a reader must chain (1-4).
    truth_type: what kind of answer. bridges: the masked bridge entities, in chain order.
    distractors: doc ids that match some clues but must not hold the answer.
    generator: "offline" or "llm:<backend>". metadata: anything else worth keeping (JSON-able).
    """

    question: str
    answer: str
    supporting: tuple[SupportingItem, ...]
    hops: int
    truth_type: TruthType = TruthType.OTHER
    aliases: tuple[str, ...] = ()
    clues: tuple[str, ...] = ()
    bridges: tuple[str, ...] = ()
    distractors: tuple[str, ...] = ()
    generator: str = "offline"
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def answers(self) -> tuple[str, ...]:
        return (self.answer, *[a for a in self.aliases if a != self.answer])

    @property
    def doc_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(item.doc_id for item in self.supporting))


@dataclass(frozen=True)
class Verdict:
    """The verifier's decision: accepted when `reasons` is empty; reasons are in check order."""

    reasons: tuple[DropReason, ...] = ()
    details: tuple[str, ...] = ()

    @property
    def accepted(self) -> bool:
        return not self.reasons


@dataclass
class GenerationReport:
    """What a generation run did: counts, every drop by reason, token usage, and why it stopped.

    written: tasks appended by this run. existing: tasks already in the output (a resumed run).
    attempted: candidates proposed. drops: reason value -> count (one reason per dropped candidate,
    the first failing check). distractors_dropped: distractors removed for holding the answer.
    usage: prompt/completion tokens and model calls (LLM generator; zeros offline).
    stopped: why the run ended ("reached n", "corpus exhausted: ...", "interrupted", ...).
    by_hops / by_truth_type: counts of the tasks written by this run.
    stages: per-stage outcomes of the LLM pipeline ("generate:malformed", "extract:ok", ...) and of the
        natural generator ("chains:3:found", "chains:3:shortcut", ...).
    given_up: hop count -> why no more of it was proposed (its chains spent, or `patience` failures).
    fallback: set when the corpus has no multi-hop task at all and single-hop ones were written instead.
    """

    written: int = 0
    existing: int = 0
    attempted: int = 0
    drops: Counter = field(default_factory=Counter)
    distractors_dropped: int = 0
    usage: Counter = field(default_factory=Counter)
    stopped: str = ""
    seconds: float = 0.0
    by_hops: Counter = field(default_factory=Counter)
    by_truth_type: Counter = field(default_factory=Counter)
    stages: Counter = field(default_factory=Counter)
    given_up: dict[int, str] = field(default_factory=dict)
    fallback: str = ""

    def drop(self, reason: DropReason | str, n: int = 1) -> None:
        self.drops[DropReason(reason).value] += n

    def as_dict(self) -> dict[str, Any]:
        return {
            "written": self.written,
            "existing": self.existing,
            "attempted": self.attempted,
            "drops": dict(sorted(self.drops.items())),
            "distractors_dropped": self.distractors_dropped,
            "usage": dict(self.usage),
            "stopped": self.stopped,
            "seconds": round(self.seconds, 2),
            "by_hops": {str(k): v for k, v in sorted(self.by_hops.items())},
            "by_truth_type": dict(sorted(self.by_truth_type.items())),
            "stages": dict(sorted(self.stages.items())),
            "given_up": {str(k): v for k, v in sorted(self.given_up.items())},
            "fallback": self.fallback,
        }


class StopGeneration(Exception):
    """Raised by a generator when going on is pointless (the backend is down); the run stops cleanly
    with what it has written and this message as the reason."""
