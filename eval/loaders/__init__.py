"""Benchmark loaders: each returns a `Benchmark` (tasks + the corpus their gold refers to)."""

from eval.loaders.beir import load_beir, load_scifact, parse_sentence_list, read_qrels
from eval.loaders.flashrag import load_flashrag, load_flashrag_corpus
from eval.loaders.hotpotqa import load_hotpotqa
from eval.loaders.locomo import load_locomo
from eval.loaders.musique import load_musique
from eval.loaders.registry import BENCHMARKS, DEFAULT_DATA_DIR, load_benchmark
from eval.loaders.tasks import load_tasks, save_tasks, task_from_dict, task_to_dict

__all__ = [
    "BENCHMARKS",
    "DEFAULT_DATA_DIR",
    "load_benchmark",
    "load_beir",
    "load_flashrag",
    "load_flashrag_corpus",
    "load_hotpotqa",
    "load_locomo",
    "load_musique",
    "load_scifact",
    "load_tasks",
    "parse_sentence_list",
    "read_qrels",
    "save_tasks",
    "task_from_dict",
    "task_to_dict",
]
