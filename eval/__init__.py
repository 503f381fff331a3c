"""eval: metrics, benchmark loaders, runners, reports and plots for retrievers and the search agent."""

from eval.aggregate import GROUP_BY, Summary, aggregate, summarize
from eval.loaders import BENCHMARKS, load_benchmark, load_tasks, save_tasks
from eval.metrics import (
    all_recall_at_k,
    answer_found,
    beir_evaluate,
    contains_answer,
    f1,
    f_beta,
    f_beta_score,
    gold_units,
    mrr_at_k,
    ndcg_at_k,
    normalize_answer,
    precision,
    prune_accuracy,
    recall,
    recall_at_k,
    trajectory_recall,
)
from eval.report import write_report
from eval.retrievers import LEGS, RETRIEVERS, AgentRetriever, Retrieval, Retriever, SingleShotRetriever, open_retriever
from eval.runners import corpus_texts, document_texts, read_run, rescore, run_eval, write_run
from eval.scoring import ScoreConfig, score_task
from eval.types import Benchmark, Granularity, RunRecord, Task

__all__ = [
    "BENCHMARKS",
    "GROUP_BY",
    "LEGS",
    "RETRIEVERS",
    "AgentRetriever",
    "Benchmark",
    "Granularity",
    "Retrieval",
    "Retriever",
    "RunRecord",
    "ScoreConfig",
    "SingleShotRetriever",
    "Summary",
    "Task",
    "aggregate",
    "all_recall_at_k",
    "answer_found",
    "beir_evaluate",
    "contains_answer",
    "corpus_texts",
    "document_texts",
    "f1",
    "f_beta",
    "f_beta_score",
    "gold_units",
    "load_benchmark",
    "load_tasks",
    "mrr_at_k",
    "ndcg_at_k",
    "normalize_answer",
    "open_retriever",
    "precision",
    "prune_accuracy",
    "read_run",
    "recall",
    "recall_at_k",
    "rescore",
    "run_eval",
    "save_tasks",
    "score_task",
    "summarize",
    "trajectory_recall",
    "write_report",
    "write_run",
]
