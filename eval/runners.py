"""Runs a retriever over tasks, concurrently, streaming one JSONL record per task.

Resumable by construction: each record is written and flushed as its task finishes, so an
interrupted run (Ctrl-C, a killed process, a full disk) loses at most the tasks in flight.
Re-running with the same output file skips the task ids already there. A last line cut off
mid-write is dropped (and truncated away before appending); a broken line anywhere else is an
error that names it, since silently skipping it would silently re-run or lose a task.
A task whose retrieval raised still gets a record (with `error` set and metrics of an empty
answer), so one bad task cannot stall a run; `retry_errors=True` runs those again.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from enum import Enum
from pathlib import Path
from typing import Any

from eval.loaders.tasks import task_from_dict, task_to_dict
from eval.retrievers import Retrieval, Retriever
from eval.scoring import ScoreConfig, score_task
from eval.types import RunRecord, Task

DocText = Callable[[str], "str | None"]


# --- serialization -------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """JSON-able copy: dataclasses as dicts, enums as values, tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return value


def trajectory_to_json(trajectory: Any) -> dict[str, Any]:
    """A trajectory as a JSON-able dict, in context1.trajectory_io's format (readable back with
    `context1.trajectory_from_dict`)."""
    from context1.trajectory_io import trajectory_to_dict

    return _plain(trajectory_to_dict(trajectory))


def record_to_json(record: RunRecord) -> dict[str, Any]:
    return {
        "task_id": record.task_id,
        "run": record.run,
        "doc_ids": list(record.doc_ids),
        "chunk_ids": list(record.chunk_ids),
        "passages": [{"chunk_id": c, "text": t} for c, t in record.passages],
        "metrics": dict(record.metrics),
        "usage": dict(record.usage),
        "timings": dict(record.timings),
        "error": record.error,
        "task": _plain(task_to_dict(record.task)),
        "trajectory": record.trajectory,
    }


def record_from_json(data: Mapping[str, Any], where: str = "record") -> RunRecord:
    if not isinstance(data, Mapping) or "task" not in data or "run" not in data:
        raise ValueError(f"{where}: not a run record (needs 'task' and 'run')")
    return RunRecord(
        task=task_from_dict(data["task"], where),
        run=str(data["run"]),
        doc_ids=tuple(data.get("doc_ids") or ()),
        chunk_ids=tuple(data.get("chunk_ids") or ()),
        passages=tuple((str(p["chunk_id"]), str(p.get("text", ""))) for p in data.get("passages") or ()),
        metrics=dict(data.get("metrics") or {}),
        usage=dict(data.get("usage") or {}),
        timings=dict(data.get("timings") or {}),
        trajectory=data.get("trajectory"),
        error=data.get("error"),
    )


def _scan(path: Path) -> tuple[list[RunRecord], int]:
    """Records of a run file, and the byte length of its intact part (a cut-off last line excluded)."""
    if not path.exists():
        return [], 0
    data = path.read_bytes()
    records: list[RunRecord] = []
    pos = good_end = 0
    lineno = 0
    while pos < len(data):
        lineno += 1
        newline = data.find(b"\n", pos)
        end = len(data) if newline == -1 else newline + 1
        raw = data[pos:end]
        if raw.strip():
            try:
                records.append(record_from_json(json.loads(raw.decode("utf-8")), f"{path}:{lineno}"))
            except (UnicodeDecodeError, json.JSONDecodeError, ValueError) as exc:
                if end == len(data):
                    break  # the last line, cut off mid-write: dropped
                raise ValueError(f"{path}:{lineno}: broken run record ({exc}); fix or remove that line") from exc
        pos = good_end = end
    return records, good_end


def read_run(path: str | Path) -> list[RunRecord]:
    """Every record of a run file (for a task run twice, the later record wins), in file order."""
    records, _ = _scan(Path(path))
    latest: dict[str, RunRecord] = {}
    for r in records:
        latest.pop(r.task_id, None)
        latest[r.task_id] = r
    return list(latest.values())


# --- running -------------------------------------------------------------------------------------


def _evaluate(
    task: Task, retriever: Retriever, doc_text: DocText | None, k: int | None, config: ScoreConfig
) -> RunRecord:
    start = time.perf_counter()
    error = None
    try:
        got = retriever.retrieve(task.query)
    except Exception as exc:  # one failing task must not end the run; the record says why
        got, error = Retrieval(doc_ids=[]), f"{type(exc).__name__}: {exc}"
    elapsed = time.perf_counter() - start
    texts = None
    if doc_text is not None:
        texts = [t for t in (doc_text(d) for d in got.doc_ids) if t is not None]
    metrics = score_task(
        task, got.doc_ids, chunk_ids=got.chunk_ids, texts=texts, trajectory=got.trajectory, max_k=k, config=config,
        passages=got.passages,
    )
    return RunRecord(
        task=task,
        run=retriever.name,
        doc_ids=tuple(got.doc_ids),
        chunk_ids=tuple(got.chunk_ids),
        passages=tuple(got.passages),
        metrics=metrics,
        usage=dict(got.usage),
        timings={**got.timings, "total_s": elapsed},
        trajectory=trajectory_to_json(got.trajectory) if got.trajectory is not None else None,
        error=error,
    )


def run_eval(
    tasks: Sequence[Task],
    retriever: Retriever,
    out: str | Path,
    *,
    workers: int = 1,
    k: int | None = 10,
    doc_text: DocText | None = None,
    config: ScoreConfig = ScoreConfig(),
    progress: bool = True,
    retry_errors: bool = False,
) -> list[RunRecord]:
    """Evaluates `retriever` on every task not yet in `out`, appending one record per task.

    k: the retriever's cut-off (metrics@k above it are left out); None for no cut-off.
    doc_text: doc id -> the text answer_found searches (None: answer_found is not scored).
    Returns the records of `tasks` found in `out` afterwards, in task order.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    ids = [t.task_id for t in tasks]
    if len(set(ids)) != len(ids):
        raise ValueError("task ids must be unique: resuming skips tasks by id")
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    existing, good_end = _scan(path)
    if path.exists() and path.stat().st_size != good_end:
        with path.open("r+b") as f:  # drop the cut-off line so appended records start on a fresh line
            f.truncate(good_end)
    done = {r.task_id for r in existing if retry_errors is False or r.error is None}
    todo = [t for t in tasks if t.task_id not in done]

    from tqdm.auto import tqdm

    bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), desc=retriever.name, disable=not progress)
    lock = threading.Lock()
    with path.open("a", encoding="utf-8") as f:
        if good_end and not path.read_bytes().endswith(b"\n"):
            f.write("\n")

        def write(record: RunRecord) -> None:
            line = json.dumps(record_to_json(record), ensure_ascii=False)
            with lock:
                f.write(line + "\n")
                f.flush()
                bar.update(1)

        if workers == 1:
            for task in todo:
                write(_evaluate(task, retriever, doc_text, k, config))
        else:
            pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="eval")
            try:
                pending: set[Future[RunRecord]] = {
                    pool.submit(_evaluate, t, retriever, doc_text, k, config) for t in todo
                }
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        write(fut.result())
            finally:
                # On Ctrl-C: drop queued tasks; the ones in flight finish but are not written.
                pool.shutdown(wait=False, cancel_futures=True)
    bar.close()
    by_id = {r.task_id: r for r in read_run(path)}
    return [by_id[i] for i in ids if i in by_id]


def document_texts(documents: Sequence[Any]) -> DocText:
    """doc id -> "title\\ntext" of `corpus_tools.Document`s (what answer_found searches)."""
    table = {d.doc_id: f"{d.title}\n{d.text}" if d.title else d.text for d in documents}
    return table.get


def corpus_texts(corpus: Any) -> DocText:
    """doc id -> the title and every chunk of a document in an index (None for an unknown id)."""

    def text(doc_id: str) -> str | None:
        if not corpus.has_doc(doc_id):
            return None
        title = corpus.title(doc_id)
        body = "\n".join(c.text for c in corpus.chunks(doc_id))
        return f"{title}\n{body}" if title else body

    return text


def rescore(
    records: Sequence[RunRecord],
    *,
    doc_text: DocText | None = None,
    k: int | None = None,
    config: ScoreConfig = ScoreConfig(),
) -> list[RunRecord]:
    """The same records with metrics recomputed from what they stored (returned ids, task, trajectory).

    For a changed ScoreConfig or gold, without running retrieval again. A record written before
    passages existed gets them from its trajectory's evidence (recomputed on load, see
    `context1.trajectory_io`); a single-shot one without them is scored without passage metrics.
    """
    from context1.trajectory_io import trajectory_from_dict

    out = []
    for r in records:
        traj = trajectory_from_dict(r.trajectory) if r.trajectory is not None else None
        texts = None
        if doc_text is not None:
            texts = [t for t in (doc_text(d) for d in r.doc_ids) if t is not None]
        passages = r.passages
        if not passages and traj is not None:
            passages = tuple((e.chunk_id, e.text) for e in traj.evidence)
        metrics = score_task(
            r.task, r.doc_ids, chunk_ids=r.chunk_ids, texts=texts, trajectory=traj, max_k=k, config=config,
            passages=passages or None,
        )
        out.append(dataclasses.replace(r, passages=tuple(passages), metrics=metrics))
    return out


def write_run(records: Sequence[RunRecord], path: str | Path) -> None:
    """Writes records as a run file (replacing it)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(record_to_json(r), ensure_ascii=False) + "\n")
