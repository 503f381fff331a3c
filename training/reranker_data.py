"""Training groups for the reranker: (query, one positive chunk, hard negative chunks) from task files.

Where the pairs come from (issue 8; GPL, arXiv 2112.07577, and InPars train the same way on
generated queries):

- every task's query → each of its gold chunks (`gold_chunk_ids`; for a task with gold documents
  only, the gold document's chunk that hybrid search ranks highest for the query, or its only chunk);
- every hop of a multi-hop task → its supporting chunk: a clue (or single-hop sub-question) that
  names its own evidence gives its own single-hop pair, so one task set yields many pairs;
- hard negatives: the highest-ranked hybrid hits for that query that are not gold. Chunks of a gold
  document are never negatives (a sibling chunk of the evidence may well hold the same fact).
- query shape: datagen's offline queries are masked clue windows ("Which date fills the blank? …
  X: … ___ …"); a reranker trained on those learns the masks, and the first model trained on them
  did not transfer to real questions. `question_query` rewrites each one as a question (a wh-word
  from the answer type, the masks dropped, a question mark) before mining and training.

Gold ids missing from the index are skipped and counted, never guessed (`PairReport`).
Splitting happens by task, so no query of the validation split is ever trained on.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from training.splits import hash_fraction


@dataclass(frozen=True)
class Group:
    """One listwise training example: a query, its positive chunk text, and hard negative texts.

    task_id: the task it came from (splits are by task). source: "query" or "hop" (a clue).
    copied: the query is a window copied from the positive (datagen's cloze form, stand-in sentence
        windows), so inverse cloze applies to it; a written question (natural, LLM) is not, and
        removing "its" sentence would remove its answer.
    """

    query: str
    positive: str
    negatives: tuple[str, ...]
    task_id: str
    source: str = "query"
    copied: bool = False


@dataclass
class PairReport:
    """What pair building found, and everything it skipped (never silently).

    tasks: tasks read. groups: groups built. by_source: groups per origin ("query", "hop").
    missing_ids: gold chunk/doc ids not in the index. skipped: reason -> count of skipped
    (query, positive) candidates. examples: up to 5 missing ids, for the message.
    """

    tasks: int = 0
    groups: int = 0
    by_source: Counter = field(default_factory=Counter)
    missing_ids: int = 0
    skipped: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"{self.groups:,} groups from {self.tasks:,} tasks ({dict(self.by_source)})"]
        if self.missing_ids:
            parts.append(f"{self.missing_ids:,} gold id(s) not in the index skipped (e.g. {self.examples[:3]})")
        if self.skipped:
            parts.append("skipped: " + ", ".join(f"{k} {v:,}" for k, v in sorted(self.skipped.items())))
        return "; ".join(parts)


def hop_queries(task: Any) -> list[tuple[str, tuple[str, ...]]]:
    """The single-hop (clue, evidence ids) pairs a task carries in its metadata.

    Understood layouts (datagen writes the first; the reference pipeline the second):
    - metadata["hops"]: [{"clue" | "question" | "query": str, "chunk_ids" | "chunk_id" | "doc_id" | "doc_ids": ...}]
    - metadata["clues"]: [str] aligned one-to-one with `task.facts` (each fact's ids support that clue),
      or metadata["supporting"] / ["supporting_items"]: [{"chunk_ids" | "id": ..., "clue_quotes": [str]}].
    A task with a single hop gives none (its clue is its query again). Anything else yields no hop
    pairs (the task still gives its query pairs).
    """
    meta: Mapping[str, Any] = getattr(task, "metadata", {}) or {}
    out: list[tuple[str, tuple[str, ...]]] = []
    hops = meta.get("hops")
    if isinstance(hops, list):
        for hop in hops:
            if not isinstance(hop, Mapping):
                continue
            text = next((hop[k] for k in ("clue", "question", "query") if isinstance(hop.get(k), str)), None)
            ids = _ids(hop, ("chunk_ids", "chunk_id", "doc_ids", "doc_id", "ids", "id"))
            if text and ids:
                out.append((text, ids))
    clues = meta.get("clues")
    facts = getattr(task, "facts", ()) or ()
    if not out and isinstance(clues, list) and facts and len(clues) == len(facts):
        out = [(c, tuple(f)) for c, f in zip(clues, facts, strict=True) if isinstance(c, str) and c.strip() and f]
    items = meta.get("supporting") or meta.get("supporting_items")
    if not out and isinstance(items, list):
        for item in items:
            if not isinstance(item, Mapping):
                continue
            ids = _ids(item, ("chunk_ids", "chunk_id", "id", "doc_id"))
            for quote in item.get("clue_quotes") or ():
                if isinstance(quote, str) and quote.strip() and ids:
                    out.append((quote, ids))
    out = [(text.strip(), ids) for text, ids in out if text.strip()]
    return out if len(out) > 1 else []


_BLANK_PREFIX = re.compile(r"^\s*(which|what)\s+(\w+)\s+fills?\s+the\s+blanks?\s*\?\s*", re.IGNORECASE)
_MASK_LABEL = re.compile(r"(?:(?<=\s)|^)[XYZW]:\s*")
_MASK_WORD = re.compile(r"(?<![\w'])(?:[XYZW]|_{2,})(?![\w'])")
WH_WORDS = {"date": "When", "year": "When", "number": "How many", "name": "Which", "entity": "Which"}


def question_query(text: str, truth_type: str | None = None) -> str:
    """A masked clue window rewritten as a question: "Which date fills the blank? She joined X in ___."
    -> "When she joined in?"-like text: the wh-word from the answer type, labels ("X:") and masks
    ("X", "___") dropped, one question mark. Real questions are what the reranker will see; text that
    is not a fill-the-blank query is returned unchanged (apart from masks and labels).
    """
    prefix = _BLANK_PREFIX.match(text)
    kind = (truth_type or (prefix.group(2) if prefix else "") or "").lower()
    body = text[prefix.end() :] if prefix else text
    body = _MASK_WORD.sub(" ", _MASK_LABEL.sub(" ", body))
    body = re.sub(r"\s+([,.;:!?)])", r"\1", re.sub(r"\s+", " ", body)).strip(" ,;:.")
    body = re.sub(r"[,;:]?\s*\.\s+", ". ", body)
    if not prefix or not body:
        return body or text.strip()
    wh = WH_WORDS.get(kind, "What")
    return f"{wh} {body}?"


def _ids(record: Mapping[str, Any], keys: Sequence[str]) -> tuple[str, ...]:
    for key in keys:
        value = record.get(key)
        if isinstance(value, str) and value:
            return (value,)
        if isinstance(value, (list, tuple)) and value:
            return tuple(str(v) for v in value if v)
    return ()


def build_groups(
    corpus: Any,
    tasks: Iterable[Any],
    *,
    negatives: int = 7,
    depth: int = 30,
    use_hops: bool = True,
    seed: int = 0,
    progress: bool = False,
    questions: bool = True,
) -> tuple[list[Group], PairReport]:
    """Groups of (query, positive, `negatives` hard negatives) mined with the corpus's hybrid search.

    corpus: an open `corpus_tools.Corpus` with reranker "none" (negatives come from the fused
    ranking: the pool a reranker sees). depth: how deep in that ranking negatives are drawn
    from; `negatives` of the non-gold hits there are sampled (seeded), so the hardest few do not
    dominate (GPL samples the same way). A query with fewer than `negatives` non-gold hits is
    skipped ("too few negatives"). questions: rewrite fill-the-blank queries with `question_query`
    (negatives are then mined with the rewritten query, the one trained on).
    """
    from corpus_tools.rerank import NoReranker

    if not isinstance(corpus.reranker, NoReranker):
        raise ValueError(
            "build_groups needs a corpus opened with reranker='none': negatives come from the fused ranking"
        )
    if negatives < 1 or depth < negatives:
        raise ValueError(f"need 1 <= negatives <= depth, got negatives={negatives}, depth={depth}")
    import torch

    rng = random.Random(seed)
    report = PairReport()
    groups: list[Group] = []
    task_list = list(tasks)
    threads = torch.get_num_threads()
    # One short query encodes fastest on one thread; on a loaded 2-core machine two threads made
    # each encode 10-100x slower (benchmarks/README.md, corpus_tools speed).
    torch.set_num_threads(1)
    try:
        _mine(corpus, task_list, negatives, depth, use_hops, rng, report, groups, progress, questions)
    finally:
        torch.set_num_threads(threads)
    report.groups = len(groups)
    return groups, report


def _mine(
    corpus: Any,
    task_list: list[Any],
    negatives: int,
    depth: int,
    use_hops: bool,
    rng: random.Random,
    report: PairReport,
    groups: list[Group],
    progress: bool,
    questions: bool = True,
) -> None:
    from tqdm.auto import tqdm

    for task in tqdm(task_list, desc="mining hard negatives", unit="task", disable=not progress):
        report.tasks += 1
        candidates: list[tuple[str, tuple[str, ...], str]] = [(task.query, tuple(task.gold_chunk_ids), "query")]
        if not task.gold_chunk_ids:
            candidates = [(task.query, tuple(task.gold_doc_ids), "query")]
        if use_hops:
            candidates += [(text, ids, "hop") for text, ids in hop_queries(task)]
        gold_docs = set(_known_docs(corpus, task.gold_doc_ids, report))
        copied = copied_query(task)
        if questions:
            kind = (getattr(task, "metadata", {}) or {}).get("truth_type")
            candidates = [(question_query(q, kind), ids, src) for q, ids, src in candidates]
        for query, ids, source in candidates:
            if not query.strip():
                report.skipped["empty query"] += 1
                continue
            positives, docs = _resolve(corpus, ids, report)
            blocked = gold_docs | docs | {c.doc_id for c in positives}
            hits = corpus.search(query, k=depth)
            if not positives and docs:  # gold documents only: their best-ranked chunk is the positive
                positives = _best_chunks(corpus, docs, hits)
            if not positives:
                report.skipped["no gold chunk in the index"] += 1
                continue
            pool = [h.chunk for h in hits if h.chunk.doc_id not in blocked]
            if len(pool) < negatives:
                report.skipped["too few negatives"] += 1
                continue
            for positive in positives:
                chosen = rng.sample(pool, negatives)
                groups.append(
                    Group(
                        query=query,
                        positive=_text(positive),
                        negatives=tuple(_text(c) for c in chosen),
                        task_id=str(task.task_id),
                        source=source,
                        copied=copied,
                    )
                )
                report.by_source[source] += 1


COPYING_GENERATORS = ("offline", "training.reranker_data.sentence_window_tasks")


def copied_query(task: Any) -> bool:
    """Whether a task's query (and clues) were cut from its gold text rather than written as a question:
    datagen's cloze form (generator "offline") and the stand-in sentence windows are; datagen's natural
    form, LLM-written tasks and a user's own questions are not."""
    meta: Mapping[str, Any] = getattr(task, "metadata", {}) or {}
    return str(meta.get("generator", "")) in COPYING_GENERATORS or "___" in str(getattr(task, "query", ""))


def _text(chunk: Any) -> str:
    from corpus_tools.embed import retrieval_text

    return retrieval_text(chunk)  # what the reranker scores at search time: title + text


def _known_docs(corpus: Any, doc_ids: Iterable[str], report: PairReport) -> list[str]:
    known = []
    for d in doc_ids:
        if corpus.has_doc(d):
            known.append(d)
        else:
            _missing(report, d)
    return known


def _resolve(corpus: Any, ids: Iterable[str], report: PairReport) -> tuple[list[Any], set[str]]:
    """Gold ids → (chunks named directly, documents named directly); unknown ids are counted."""
    from corpus_tools.types import UnknownDocumentError

    chunks, docs = [], set()
    for gid in ids:
        if corpus.has_doc(gid):
            docs.add(gid)
            continue
        try:
            chunks.append(corpus.chunk(gid))
        except UnknownDocumentError:
            _missing(report, gid)
    return list({c.chunk_id: c for c in chunks}.values()), docs


def _best_chunks(corpus: Any, docs: set[str], hits: Sequence[Any]) -> list[Any]:
    best: dict[str, Any] = {}
    for hit in hits:
        if hit.chunk.doc_id in docs and hit.chunk.doc_id not in best:
            best[hit.chunk.doc_id] = hit.chunk
    for doc in docs - set(best):
        chunks = corpus.chunks(doc)
        if len(chunks) == 1:  # a one-chunk document is its own evidence even when search missed it
            best[doc] = chunks[0]
    return list(best.values())


def _missing(report: PairReport, gid: str) -> None:
    report.missing_ids += 1
    if len(report.examples) < 5:
        report.examples.append(gid)


def split_groups(groups: Sequence[Group], val_fraction: float, seed: int = 0) -> tuple[list[Group], list[Group]]:
    """(train, validation) by task id, so every query of a task lands on one side only."""
    if not 0.0 <= val_fraction < 1.0:
        raise ValueError(f"val_fraction must be in [0, 1), got {val_fraction!r}")

    train = [g for g in groups if hash_fraction(f"{seed}:{g.task_id}") >= val_fraction]
    val = [g for g in groups if hash_fraction(f"{seed}:{g.task_id}") < val_fraction]
    return train, val


_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\"'])")
WINDOW_WORDS = (6, 18)  # SciFact claims are ~12 words: a window of a sentence, like a short query


def sentence_window_tasks(corpus: Any, n: int, seed: int = 0, per_chunk: int = 1) -> list[Any]:
    """Stand-in single-hop tasks from the corpus's own text, for when no generated tasks exist yet.

    A random window of 6-18 words of one sentence of a chunk is the query; that chunk is its gold
    (up to `per_chunk` windows per chunk, chunks drawn at random, seeded). Only chunk text is read:
    never a benchmark's questions. Train with ict_probability > 0 so the copied window is often
    removed from the positive (inverse cloze) and the model cannot just find the string.
    """
    from eval.types import Task

    rng = random.Random(seed)
    chunks = [c for d in corpus.doc_ids() for c in corpus.chunks(d)]
    rng.shuffle(chunks)
    lo, hi = WINDOW_WORDS
    tasks: list[Task] = []
    for _ in range(per_chunk):
        for chunk in chunks:
            sentences = [s.split() for s in _SENTENCE.split(chunk.text) if len(s.split()) >= lo]
            if not sentences:
                continue
            words = rng.choice(sentences)
            size = rng.randint(lo, min(hi, len(words)))
            start = rng.randint(0, len(words) - size)
            tasks.append(
                Task(
                    task_id=f"window-{len(tasks):06d}",
                    query=" ".join(words[start : start + size]).strip(" ,;:"),
                    gold_doc_ids=(chunk.doc_id,),
                    gold_chunk_ids=(chunk.chunk_id,),
                    hops=1,
                    source="sentence-window",
                    question_type="sentence-window",
                    metadata={"generator": "training.reranker_data.sentence_window_tasks", "seed": seed},
                )
            )
            if len(tasks) >= n:
                return tasks
    return tasks
