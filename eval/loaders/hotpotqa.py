"""HotpotQA-format loader (HotpotQA, and 2WikiMultihopQA which uses the original layout).

Two layouts of the same record are read:

- Hugging Face `hotpot_qa`: `context = {"title": [...], "sentences": [[...], ...]}` and
  `supporting_facts = {"title": [...], "sent_id": [...]}`; id in `id` (absent in some copies).
- original (and 2WikiMultihopQA): `context = [[title, [sentences]], ...]` and
  `supporting_facts = [[title, sent_id], ...]`; id in `_id`.

Gold documents are the distinct `supporting_facts` titles, each matched to the paragraph of that
title in the SAME question's context (a title can carry different texts in different questions).
Each title is also a fact whose alternatives are every document of that title in the corpus.
Corpus files (HippoRAG's `*_corpus.json`: `{title: [sentences]}` or `[{title, text}]`) add their
paragraphs to the pool. hops = number of distinct supporting titles (2 in HotpotQA).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from eval.loaders.paragraphs import ParagraphKey, ParagraphPool, as_paths, dedupe_tasks, read_json_records, require
from eval.types import Benchmark, Task


def join_sentences(sentences: Sequence[str] | str) -> str:
    """A paragraph from its sentences: HotpotQA sentences carry their leading space, others don't."""
    if isinstance(sentences, str):
        return sentences
    out = ""
    for s in sentences:
        s = str(s)
        out += s if (not out or out[-1].isspace() or s[:1].isspace()) else " " + s
    return out


def context_paragraphs(context: Any, where: str) -> list[tuple[str, str]]:
    """(title, text) pairs of a record's context, in either layout."""
    if isinstance(context, Mapping):
        titles, sentences = context.get("title"), context.get("sentences")
        if not isinstance(titles, list) or not isinstance(sentences, list) or len(titles) != len(sentences):
            raise ValueError(f"{where}: context must hold equally long 'title' and 'sentences' lists")
        return [(str(t), join_sentences(s)) for t, s in zip(titles, sentences, strict=True)]
    if isinstance(context, list):
        out = []
        for item in context:
            if not isinstance(item, list | tuple) or len(item) != 2:
                raise ValueError(f"{where}: context entries must be [title, [sentences]], got {str(item)[:80]!r}")
            out.append((str(item[0]), join_sentences(item[1])))
        return out
    raise ValueError(f"{where}: context must be a dict (HF layout) or a list (original layout)")


def supporting_titles(facts: Any, where: str) -> list[str]:
    """Distinct supporting-fact titles in order, from either layout."""
    if isinstance(facts, Mapping):
        titles = facts.get("title", [])
    elif isinstance(facts, list):
        titles = [f[0] for f in facts if isinstance(f, list | tuple) and f]
    else:
        raise ValueError(f"{where}: supporting_facts must be a dict or a list")
    return list(dict.fromkeys(str(t) for t in titles))


def add_corpus_file(pool: ParagraphPool, path: Path) -> int:
    """Adds a corpus file's paragraphs: `{title: [sentences] | text}` or `[{title, text}]`."""
    data = json.loads(path.read_text(encoding="utf-8-sig"))
    pairs: Iterable[tuple[str, Any]]
    if isinstance(data, Mapping):
        pairs = data.items()
    elif isinstance(data, list):
        pairs = []
        for i, rec in enumerate(data):
            require(rec, ("title", "text"), f"{path}[{i}]")
            pairs.append((rec["title"], rec["text"]))
    else:
        raise ValueError(f"{path}: a corpus file must be a JSON object or list")
    n = 0
    for title, text in pairs:
        pool.add(title, join_sentences(text))
        n += 1
    return n


def is_corpus_file(path: Path) -> bool:
    """HippoRAG-style corpus files are named `*_corpus.json`."""
    return path.stem.endswith("_corpus")


def load_hotpotqa(
    paths: str | Path | Iterable[str | Path],
    *,
    corpus_paths: str | Path | Iterable[str | Path] = (),
    name: str = "hotpotqa",
) -> Benchmark:
    """Tasks and corpus from HotpotQA-format files (JSON list or JSONL, either layout).

    corpus_paths: extra paragraph files whose paragraphs join the corpus (not tasks).
    """
    pool = ParagraphPool(name)
    pending: list[tuple[dict[str, Any], list[str], dict[str, ParagraphKey]]] = []
    notes: list[str] = []
    for path in as_paths(paths):
        for i, rec in enumerate(read_json_records(path)):
            where = f"{path.name}[{i}]"
            require(rec, ("question", "answer", "context", "supporting_facts"), where)
            by_title: dict[str, ParagraphKey] = {}
            for title, text in context_paragraphs(rec["context"], where):
                by_title.setdefault(title, pool.add(title, text))
            task_id = str(rec.get("id") or rec.get("_id") or f"{path.stem}:{i}")
            fields = {
                "task_id": task_id,
                "query": str(rec["question"]),
                "answers": (str(rec["answer"]),),
                "source": name,
                "question_type": rec.get("type"),
                "metadata": {"level": rec.get("level"), "file": path.name},
            }
            pending.append((fields, supporting_titles(rec["supporting_facts"], where), by_title))
    for path in as_paths(corpus_paths):
        add_corpus_file(pool, path)

    tasks = []
    for fields, titles, by_title in pending:
        gold, facts = [], []
        for title in titles:
            alternatives = pool.doc_ids_of_title(title)
            if title in by_title:
                own = pool.doc_id(by_title[title])
                gold.append(own)
                facts.append((own, *[d for d in alternatives if d != own]))
            elif alternatives:
                notes.append(f"{fields['task_id']}: supporting title {title!r} not in its context; matched by title")
                gold.append(alternatives[0])
                facts.append(alternatives)
            else:
                notes.append(f"{fields['task_id']}: supporting title {title!r} names no paragraph; left out of gold")
        tasks.append(Task(**fields, gold_doc_ids=tuple(gold), facts=tuple(facts), hops=len(titles) or None))
    return Benchmark(name=name, tasks=dedupe_tasks(tasks, notes), documents=pool.documents(), notes=tuple(notes))
