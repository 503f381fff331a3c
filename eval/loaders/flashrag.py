"""FlashRAG JSONL loader (Jin et al. 2024, the RUC-NLPIR/FlashRAG_datasets layout).

A task line: `{"id", "question", "golden_answers": [...], "metadata": {...}}`. FlashRAG's copies
of multi-hop sets keep the source record in `metadata`, which is where gold comes from:

- HotpotQA / 2WikiMultihopQA: `metadata.context` + `metadata.supporting_facts` (either layout);
- MuSiQue: `metadata.paragraphs[{title, paragraph_text, is_supporting}]`.

Those tasks get a corpus built like the native loaders (paragraph union, same doc-id rule).
A FlashRAG corpus file (`{"id", "contents"}` with contents = `"Title"\\ntext`) may be given as well;
its documents keep their FlashRAG ids. Tasks with no gold in their metadata keep answers only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from corpus_tools.types import Document
from eval.loaders.hotpotqa import context_paragraphs, supporting_titles
from eval.loaders.paragraphs import ParagraphKey, ParagraphPool, as_paths, dedupe_tasks, read_json_records, require
from eval.types import Benchmark, Task


def split_contents(contents: str) -> tuple[str | None, str]:
    """FlashRAG `contents` -> (title, text): the first line is the title, often in double quotes."""
    head, sep, rest = contents.partition("\n")
    if not sep:
        return None, contents.strip()
    return head.strip().strip('"').strip() or None, rest.strip()


def load_flashrag_corpus(path: str | Path, name: str = "flashrag") -> list[Document]:
    """Documents of a FlashRAG corpus JSONL (`{"id", "contents"}` or `{"id", "title", "text"}`)."""
    docs = []
    for i, rec in enumerate(read_json_records(Path(path))):
        require(rec, ("id",), f"{Path(path).name}[{i}]")
        if "contents" in rec:
            title, text = split_contents(str(rec["contents"]))
        else:
            title, text = rec.get("title"), str(rec.get("text", ""))
        docs.append(Document(doc_id=str(rec["id"]), text=text, title=title, metadata={"dataset": name}))
    return docs


def load_flashrag(
    paths: str | Path | Iterable[str | Path],
    *,
    corpus_path: str | Path | None = None,
    name: str | None = None,
) -> Benchmark:
    """Tasks from FlashRAG JSONL files; gold and corpus from their metadata where present."""
    paths = as_paths(paths)
    name = name or paths[0].parent.name
    pool = ParagraphPool(name)
    pending: list[tuple[dict[str, Any], list[ParagraphKey]]] = []
    for path in paths:
        for i, rec in enumerate(read_json_records(path)):
            where = f"{path.name}[{i}]"
            require(rec, ("question",), where)
            meta = rec.get("metadata") or {}
            gold: list[ParagraphKey] = []
            hops = None
            if isinstance(meta, Mapping) and "context" in meta and "supporting_facts" in meta:
                by_title: dict[str, ParagraphKey] = {}
                for title, text in context_paragraphs(meta["context"], where):
                    by_title.setdefault(title, pool.add(title, text))
                titles = supporting_titles(meta["supporting_facts"], where)
                gold = [by_title[t] for t in titles if t in by_title]
                hops = len(titles) or None
            elif isinstance(meta, Mapping) and isinstance(meta.get("paragraphs"), list):
                for para in meta["paragraphs"]:
                    key = pool.add(para.get("title", ""), para.get("paragraph_text", para.get("text", "")))
                    if para.get("is_supporting"):
                        gold.append(key)
                hops = len(meta.get("question_decomposition") or []) or len(gold) or None
            answers = rec.get("golden_answers", rec.get("answers", []))
            if isinstance(answers, str):
                answers = [answers]
            fields = {
                "task_id": str(rec.get("id", f"{path.stem}:{i}")),
                "query": str(rec["question"]),
                "answers": tuple(dict.fromkeys(str(a) for a in answers if a not in (None, ""))),
                "hops": hops,
                "source": name,
                "question_type": meta.get("type") if isinstance(meta, Mapping) else None,
                "metadata": {"file": path.name},
            }
            pending.append((fields, gold))
    tasks = []
    for fields, keys in pending:
        gold_ids = tuple(dict.fromkeys(pool.doc_id(k) for k in keys))
        tasks.append(Task(**fields, gold_doc_ids=gold_ids, facts=tuple((d,) for d in gold_ids)))
    documents = pool.documents()
    if corpus_path is not None:
        have = {d.doc_id for d in documents}
        documents += [d for d in load_flashrag_corpus(corpus_path, name) if d.doc_id not in have]
    notes: list[str] = []
    return Benchmark(name=name, tasks=dedupe_tasks(tasks, notes), documents=documents, notes=tuple(notes))
