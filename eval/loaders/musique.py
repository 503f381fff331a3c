"""MuSiQue loader (MuSiQue v1.0, answerable or full).

Record: `id, paragraphs[{idx, title, paragraph_text, is_supporting}], question,
question_decomposition[{id, question, answer, paragraph_support_idx}], answer, answer_aliases,
answerable`. Gold = the paragraphs with `is_supporting: true` (one per hop); each is one fact.
hops = length of `question_decomposition` (else the number of gold paragraphs); question_type =
the id's prefix ("2hop", "3hop1", "4hop3": MuSiQue's composition shapes). Unanswerable records
(`answerable: false`, full MuSiQue) keep no answers. Corpus files (HippoRAG's
`*_corpus.json`, `[{title, text}]`) add their paragraphs.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from eval.loaders.hotpotqa import add_corpus_file
from eval.loaders.paragraphs import ParagraphKey, ParagraphPool, as_paths, dedupe_tasks, read_json_records, require
from eval.types import Benchmark, Task


def _question_type(task_id: str) -> str | None:
    prefix, sep, _ = task_id.partition("__")
    return prefix if sep else None


def load_musique(
    paths: str | Path | Iterable[str | Path],
    *,
    corpus_paths: str | Path | Iterable[str | Path] = (),
    name: str = "musique",
) -> Benchmark:
    """Tasks and corpus from MuSiQue files (JSON list or JSONL)."""
    pool = ParagraphPool(name)
    pending: list[tuple[dict[str, Any], list[ParagraphKey]]] = []
    notes: list[str] = []
    for path in as_paths(paths):
        for i, rec in enumerate(read_json_records(path)):
            where = f"{path.name}[{i}]"
            require(rec, ("question", "paragraphs"), where)
            gold: list[ParagraphKey] = []
            for j, para in enumerate(rec["paragraphs"]):
                require(para, ("title", "paragraph_text"), f"{where}.paragraphs[{j}]")
                key = pool.add(para["title"], para["paragraph_text"])
                if para.get("is_supporting"):
                    gold.append(key)
            task_id = str(rec.get("id") or f"{path.stem}:{i}")
            answerable = rec.get("answerable", True) not in (False, "False", "false")
            answers = [rec.get("answer"), *(rec.get("answer_aliases") or [])] if answerable else []
            decomposition = rec.get("question_decomposition") or []
            fields = {
                "task_id": task_id,
                "query": str(rec["question"]),
                "answers": tuple(dict.fromkeys(str(a) for a in answers if a not in (None, ""))),
                "hops": len(decomposition) or len(gold) or None,
                "source": name,
                "question_type": _question_type(task_id),
                "metadata": {"file": path.name, "answerable": answerable},
            }
            pending.append((fields, gold))
    for path in as_paths(corpus_paths):
        add_corpus_file(pool, path)

    tasks = []
    for fields, gold_keys in pending:
        gold = tuple(dict.fromkeys(pool.doc_id(k) for k in gold_keys))
        tasks.append(Task(**fields, gold_doc_ids=gold, facts=tuple((d,) for d in gold)))
    return Benchmark(name=name, tasks=dedupe_tasks(tasks, notes), documents=pool.documents(), notes=tuple(notes))
