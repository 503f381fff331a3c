"""BEIR folders, and SciFact in the CSV layout of its original release.

BEIR (Thakur et al. 2021): `corpus.jsonl` ({_id, title, text}), `queries.jsonl` ({_id, text}),
`qrels/<split>.tsv` (header `query-id corpus-id score`). One task per query that has a qrel in the
split; gold = documents with a positive score; the graded qrels are kept in
`metadata["qrels"]` so nDCG can use them.

SciFact CSV layout: `corpus.csv` (doc_id, title, abstract, structured) whose `abstract` is a
*printed* Python/NumPy list of sentences — `['s1' 's2']` with no commas (so `ast.literal_eval`
would silently glue the sentences) and a quote style that changes with the sentence — and
`claims_*.csv` (id, claim, evidence_doc_id, ..., cited_doc_ids), one row per claim/evidence pair.
Qrels come from `qrels*.tsv` files beside them (BEIR's train/test), else from `cited_doc_ids`.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import re
import sys
import tokenize
from collections.abc import Iterable
from pathlib import Path

from corpus_tools.types import Document
from eval.loaders.paragraphs import as_paths, clean_text
from eval.types import Benchmark, Task

# Abstracts are long quoted lists; the csv module's default field limit (128 KiB) is too small for some.
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))

_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"", re.S)


def parse_sentence_list(value: str) -> list[str]:
    """Sentences of a printed list (`['a' 'b']`, `["a", 'b']`, JSON), or the text itself if not a list.

    Python's tokenizer reads each quoted literal separately (implicit concatenation never happens
    at this level); a list too broken to tokenize falls back to a regular expression over quotes.
    """
    s = value.strip()
    if not s.startswith("["):
        return [s] if s else []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(s).readline))
        strings = [ast.literal_eval(t.string) for t in tokens if t.type == tokenize.STRING]
        if strings or s.replace(" ", "") == "[]":
            return [str(x) for x in strings]
    except (tokenize.TokenError, SyntaxError, ValueError, IndentationError):
        pass
    try:
        data = json.loads(s)
        if isinstance(data, list):
            return [str(x) for x in data]
    except json.JSONDecodeError:
        pass
    return [a or b for a, b in _QUOTED.findall(s)] or [s]


def read_qrels(paths: Iterable[str | Path]) -> dict[str, dict[str, int]]:
    """TREC/BEIR qrels TSV files (`query-id corpus-id score`, header optional) merged into one dict."""
    qrels: dict[str, dict[str, int]] = {}
    for path in as_paths(paths):
        with path.open(encoding="utf-8-sig", newline="") as f:
            for lineno, row in enumerate(csv.reader(f, delimiter="\t"), 1):
                if not row or not "".join(row).strip():
                    continue
                if lineno == 1 and not row[-1].strip().lstrip("-").isdigit():
                    continue  # header
                if len(row) == 4:  # TREC: qid iter docid rel
                    row = [row[0], row[2], row[3]]
                if len(row) != 3:
                    raise ValueError(f"{path}:{lineno}: expected 'query-id<TAB>corpus-id<TAB>score', got {row!r}")
                try:
                    score = int(row[2])
                except ValueError:
                    raise ValueError(f"{path}:{lineno}: score {row[2]!r} is not an integer") from None
                qrels.setdefault(row[0].strip(), {})[row[1].strip()] = score
    return qrels


def _tasks_from_qrels(
    queries: dict[str, str], qrels: dict[str, dict[str, int]], doc_ids: set[str], name: str, notes: list[str]
) -> list[Task]:
    tasks = []
    for qid, rels in qrels.items():
        if qid not in queries:
            notes.append(f"qrels name query {qid!r}, which has no text; skipped")
            continue
        missing = [d for d in rels if d not in doc_ids]
        if missing:
            notes.append(f"{qid}: qrels name documents {missing} not in the corpus; left out of gold")
        gold = tuple(d for d, v in rels.items() if v > 0 and d in doc_ids)
        tasks.append(
            Task(
                task_id=qid,
                query=queries[qid],
                gold_doc_ids=gold,
                facts=tuple((d,) for d in gold),
                hops=1,
                source=name,
                metadata={"qrels": {d: v for d, v in rels.items() if d in doc_ids}},
            )
        )
    return tasks


def _read_jsonl(path: Path) -> list[dict]:
    out = []
    with path.open(encoding="utf-8-sig") as f:
        for lineno, line in enumerate(f, 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}:{lineno}: not valid JSON ({exc})") from exc
    return out


def load_beir(folder: str | Path, *, split: str = "test", name: str | None = None) -> Benchmark:
    """A BEIR dataset folder; tasks are the queries with qrels in `qrels/<split>.tsv`."""
    folder = Path(folder)
    name = name or folder.name
    qrels_path = folder / "qrels" / f"{split}.tsv"
    if not qrels_path.is_file():
        have = sorted(p.stem for p in (folder / "qrels").glob("*.tsv"))
        raise FileNotFoundError(f"{qrels_path} not found; splits here: {have}")
    documents = []
    for rec in _read_jsonl(folder / "corpus.jsonl"):
        title = str(rec.get("title") or "") or None
        documents.append(
            Document(doc_id=str(rec["_id"]), text=str(rec.get("text", "")), title=title, metadata={"dataset": name})
        )
    queries = {str(r["_id"]): str(r["text"]) for r in _read_jsonl(folder / "queries.jsonl")}
    notes: list[str] = []
    tasks = _tasks_from_qrels(queries, read_qrels([qrels_path]), {d.doc_id for d in documents}, name, notes)
    return Benchmark(name=name, tasks=tasks, documents=documents, notes=tuple(notes))


def _read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def load_scifact(
    corpus_path: str | Path,
    claims_paths: str | Path | Iterable[str | Path],
    qrels_paths: str | Path | Iterable[str | Path] = (),
    *,
    name: str = "scifact",
) -> Benchmark:
    """SciFact in its CSV layout: abstracts, claims, and (optionally) BEIR qrels.

    Without qrels, gold = each claim's `cited_doc_ids` (what BEIR's qrels were made from).
    """
    documents = []
    for row in _read_csv(Path(corpus_path)):
        sentences = [clean_text(s) for s in parse_sentence_list(row.get("abstract", ""))]
        documents.append(
            Document(
                doc_id=str(row["doc_id"]).strip(),
                text=" ".join(s for s in sentences if s),
                title=(row.get("title") or "").strip() or None,
                metadata={"dataset": name, "n_sentences": len(sentences)},
            )
        )
    queries: dict[str, str] = {}
    cited: dict[str, dict[str, int]] = {}
    for path in as_paths(claims_paths):
        for row in _read_csv(path):
            qid = str(row["id"]).strip()
            queries.setdefault(qid, str(row["claim"]).strip())
            for doc in re.findall(r"\d+", row.get("cited_doc_ids", "") or ""):
                cited.setdefault(qid, {})[doc] = 1
    qrels_list = as_paths(qrels_paths)
    qrels = read_qrels(qrels_list) if qrels_list else cited
    notes: list[str] = []
    tasks = _tasks_from_qrels(queries, qrels, {d.doc_id for d in documents}, name, notes)
    return Benchmark(name=name, tasks=tasks, documents=documents, notes=tuple(notes))
