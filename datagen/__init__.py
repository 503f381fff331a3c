"""Verified multi-hop task generation from an indexed corpus (SPEC §4): offline and LLM generators."""

from datagen.llm import LLMConfig, LLMGenerator
from datagen.mining import MinedCorpus, mine
from datagen.offline import OfflineConfig, OfflineGenerator
from datagen.pipeline import GenerateConfig, corpus_searcher, generate, mine_corpus, parse_hops
from datagen.records import TaskWriter, read_task_file, task_id, to_task
from datagen.run import run_datagen
from datagen.split import Split, split_tasks, tasks_without
from datagen.types import Candidate, DropReason, GenerationReport, SupportingItem, TruthType, Verdict
from datagen.verify import (
    answer_in_texts,
    answer_leaks,
    check_candidate,
    contains,
    filter_distractors,
    normalize,
    quote_in_document,
)

__all__ = [
    "Candidate",
    "DropReason",
    "GenerateConfig",
    "GenerationReport",
    "LLMConfig",
    "LLMGenerator",
    "MinedCorpus",
    "OfflineConfig",
    "OfflineGenerator",
    "Split",
    "SupportingItem",
    "TaskWriter",
    "TruthType",
    "Verdict",
    "answer_in_texts",
    "answer_leaks",
    "check_candidate",
    "contains",
    "corpus_searcher",
    "filter_distractors",
    "generate",
    "mine",
    "mine_corpus",
    "normalize",
    "parse_hops",
    "quote_in_document",
    "read_task_file",
    "run_datagen",
    "split_tasks",
    "task_id",
    "tasks_without",
    "to_task",
]
