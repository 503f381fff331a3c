"""What a user takes away from a run: JSONL splits, a Hugging Face dataset, a BEIR folder, a card.

Layout of an output folder (`context1 datagen INDEX OUT`):

  tasks.jsonl            every task, append-only (the resumable record; `context1 eval --benchmark` reads it)
  tasks-train.jsonl      the train split  } no supporting document in both (datagen.split);
  tasks-test.jsonl       the test split   } tasks that would straddle are left out of both
  hf/                    `DatasetDict({"train", "test"})` via `save_to_disk` (metadata as a JSON string)
  beir/                  corpus.jsonl, queries.jsonl, qrels/{train,test}.tsv
  runs.jsonl             one line per run: config, report (drops, usage, why it stopped)
  README.md              the dataset card

Everything but tasks.jsonl and runs.jsonl is rewritten from tasks.jsonl after every run, so the
derived files always match the record.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from corpus_tools.tasks import save_tasks, task_to_dict
from corpus_tools.types import Task
from datagen.split import Split, split_tasks

TASKS = "tasks.jsonl"
RUNS = "runs.jsonl"


def join_chunks(texts: Sequence[str]) -> str:
    """A document's text from its overlapping chunks (each chunk's overlap with the previous removed)."""
    if not texts:
        return ""
    out = texts[0]
    for nxt in texts[1:]:
        overlap = 0
        for k in range(min(len(out), len(nxt), 4000), 0, -1):
            if out.endswith(nxt[:k]):
                overlap = k
                break
        out += nxt[overlap:] if overlap else "\n" + nxt
    return out


def append_run(out_dir: Path, record: Mapping[str, Any]) -> None:
    with (out_dir / RUNS).open("a", encoding="utf-8") as f:
        f.write(json.dumps(dict(record), ensure_ascii=False) + "\n")
        f.flush()
        os.fsync(f.fileno())


def read_runs(out_dir: Path) -> list[dict[str, Any]]:
    path = out_dir / RUNS
    if not path.exists():
        return []
    runs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            runs.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a run killed while logging: its tasks are in tasks.jsonl regardless
    return runs


def write_hf(split: Split, path: Path) -> None:
    from datasets import Dataset, DatasetDict

    def rows(tasks: list[Task]) -> dict[str, list[Any]]:
        records = [task_to_dict(t) for t in tasks]
        for r in records:
            r["metadata"] = json.dumps(r["metadata"], ensure_ascii=False)
            r["facts"] = [list(f) for f in r["facts"]]
        columns = list(task_to_dict(Task("", "")).keys())
        return {c: [r[c] for r in records] for c in columns}

    DatasetDict({"train": Dataset.from_dict(rows(split.train)), "test": Dataset.from_dict(rows(split.test))}).save_to_disk(
        str(path)
    )


def write_beir(split: Split, documents: Mapping[str, tuple[str, str]], path: Path) -> None:
    """documents: doc id -> (title, text) of the whole corpus (BEIR tools search all of it)."""
    (path / "qrels").mkdir(parents=True, exist_ok=True)
    with (path / "corpus.jsonl").open("w", encoding="utf-8") as f:
        for doc_id, (title, text) in documents.items():
            f.write(json.dumps({"_id": doc_id, "title": title, "text": text}, ensure_ascii=False) + "\n")
    with (path / "queries.jsonl").open("w", encoding="utf-8") as f:
        for task in [*split.train, *split.test]:
            meta = {"answers": list(task.answers), "hops": task.hops}
            f.write(json.dumps({"_id": task.task_id, "text": task.query, "metadata": meta}, ensure_ascii=False) + "\n")
    for name, tasks in (("train", split.train), ("test", split.test)):
        with (path / "qrels" / f"{name}.tsv").open("w", encoding="utf-8") as f:
            f.write("query-id\tcorpus-id\tscore\n")
            for task in tasks:
                for doc in task.gold_doc_ids:
                    f.write(f"{task.task_id}\t{doc}\t1\n")


def card(tasks: Sequence[Task], split: Split, runs: Sequence[Mapping[str, Any]], corpus_info: Mapping[str, Any]) -> str:
    """The dataset card (markdown): counts by hops and truth type, drops, generator, seed, corpus."""
    hops = Counter(t.hops for t in tasks)
    types = Counter(str(t.metadata.get("truth_type", "?")) for t in tasks)
    generators = Counter(str(t.metadata.get("generator", "?")) for t in tasks)
    drops: Counter = Counter()
    usage: Counter = Counter()
    for run in runs:
        drops.update(run.get("report", {}).get("drops", {}))
        usage.update(run.get("report", {}).get("usage", {}))
    recall = [t.metadata.get("one_search_recall@10") for t in tasks if (t.hops or 0) > 1]
    recall = [r for r in recall if isinstance(r, (int, float))]
    lines = [
        "# Generated multi-hop retrieval tasks (context1 datagen)",
        "",
        f"{len(tasks)} verified tasks over the index `{corpus_info.get('path', '?')}` "
        f"({corpus_info.get('documents', '?')} documents, {corpus_info.get('chunks', '?')} chunks, "
        f"embedding model `{corpus_info.get('embedding_model', '?')}`, index created {corpus_info.get('created_at', '?')}).",
        "Every task passed the deterministic extraction verifier (datagen/verify.py): each supporting document",
        "contributes quotes that occur in it verbatim after normalisation, the answer occurs in a supporting chunk,",
        "and no answer form occurs in the question or its clues.",
        "",
        "| split | tasks | file |",
        "| --- | --- | --- |",
        f"| all | {len(tasks)} | tasks.jsonl |",
        f"| train | {len(split.train)} | tasks-train.jsonl, hf/train, beir/qrels/train.tsv |",
        f"| test | {len(split.test)} | tasks-test.jsonl, hf/test, beir/qrels/test.tsv |",
        f"| left out (would share a document across splits) | {len(split.dropped)} | only in tasks.jsonl |",
        "",
        "| hops | tasks |",
        "| --- | --- |",
        *[f"| {h} | {n} |" for h, n in sorted(hops.items(), key=lambda kv: kv[0] or 0)],
        "",
        "| truth type | tasks |",
        "| --- | --- |",
        *[f"| {t} | {n} |" for t, n in sorted(types.items())],
        "",
        "| generator | tasks |",
        "| --- | --- |",
        *[f"| {g} | {n} |" for g, n in sorted(generators.items())],
        "",
        "## Dropped candidates, by reason (all runs)",
        "",
        "| reason | candidates |",
        "| --- | --- |",
        *[f"| {r} | {n} |" for r, n in drops.most_common()],
        "",
    ]
    if recall:
        solved = sum(1 for r in recall if r >= 1.0) / len(recall)
        lines += [
            f"Multi-hop tasks: mean share of gold documents in one hybrid search's top 10 = "
            f"{sum(recall) / len(recall):.3f}; share that one search solves = {solved:.3f}.",
            "",
        ]
    forms = Counter(str(t.metadata.get("form", "cloze")) for t in tasks)
    if forms:
        lines += ["| form | tasks |", "| --- | --- |", *[f"| {f} | {n} |" for f, n in sorted(forms.items())], ""]
    lines += lexical_section(tasks)
    if usage:
        lines += [f"Token usage (all runs): {dict(usage)}", ""]
    lines += ["## Runs", "", "| when | generator | seed | n | hops | written | stopped |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for run in runs:
        cfg, rep = run.get("config", {}), run.get("report", {})
        lines.append(
            f"| {run.get('finished_at', '?')} | {cfg.get('generator', '?')} | {cfg.get('seed', '?')} | {cfg.get('n', '?')} "
            f"| {cfg.get('hops', '?')} | {rep.get('written', '?')} | {rep.get('stopped', '?')} |"
        )
    lines += [
        "",
        "Fields: `eval.types.Task` — task_id, query, answers, gold_doc_ids, gold_chunk_ids, facts (one per clue: the",
        "chunks carrying its quote), hops, source, question_type, metadata (truth_type, clues, bridges, supporting",
        "items with quotes, distractors, generator, one_search_recall@10).",
        "",
    ]
    return "\n".join(lines)


# What real multi-hop questions show on the dev corpora, the lexical budget's reference
# (benchmarks/datagen_natural.py, tuning parts; 2-CPU VM, 2026-11-25): the share of questions with two
# or more gold documents in BM25's top 10, and with every gold document there.
REAL_LEXICAL = {
    "MuSiQue (answerable, 2-4 hops; 60 questions)": {"later@10": 0.283, "all@10": 0.100},
    "HotpotQA (bridge and comparison, 2 hops; 116 questions)": {"later@10": 0.776, "all@10": 0.776},
}


def lexical_section(tasks: Sequence[Task]) -> list[str]:
    """How often BM25 alone already finds the later documents of the bridge tasks, next to real questions."""
    bridges = [t for t in tasks if (t.hops or 0) > 1 and t.metadata.get("form", "bridge") == "bridge"]
    ranked = [t for t in bridges if isinstance(t.metadata.get("ranks"), dict) and "bm25" in t.metadata["ranks"]]
    if not ranked:
        return []
    later = sum(1 for t in ranked if sum(r is not None for r in t.metadata["ranks"]["bm25"]) >= 2) / len(ranked)
    every = sum(1 for t in ranked if all(r is not None for r in t.metadata["ranks"]["bm25"])) / len(ranked)
    lines = [
        "## How lexical the bridge questions are",
        "",
        "| question set | two or more gold documents in BM25's top 10 | every gold document in BM25's top 10 |",
        "| --- | --- | --- |",
        f"| these {len(ranked)} bridge tasks | {later:.3f} | {every:.3f} |",
    ]
    for name, fig in REAL_LEXICAL.items():
        if fig["later@10"] is not None:
            lines.append(f"| real: {name} | {fig['later@10']:.3f} | {fig['all@10']:.3f} |")
    return [*lines, "", "Tasks that one hybrid or BM25 search solves are dropped; the budget bounds the first column.", ""]


def write_outputs(
    out_dir: Path,
    tasks: Sequence[Task],
    documents: Mapping[str, tuple[str, str]],
    corpus_info: Mapping[str, Any],
    test_fraction: float = 0.2,
    seed: int = 0,
) -> Split:
    """(Re)writes every derived output of `out_dir` from `tasks` (see the module docstring)."""
    split = split_tasks(list(tasks), test_fraction=test_fraction, seed=seed)
    save_tasks(split.train, out_dir / "tasks-train.jsonl")
    save_tasks(split.test, out_dir / "tasks-test.jsonl")
    write_hf(split, out_dir / "hf")
    write_beir(split, documents, out_dir / "beir")
    (out_dir / "README.md").write_text(card(tasks, split, read_runs(out_dir), corpus_info), encoding="utf-8")
    return split


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
