"""Indexes of 100k, 300k and 1M chunks on one machine: build, open, search, commit, grep, recall.

Text: the chunks of the benchmark indexes (real paragraphs of HotpotQA, MuSiQue, LoCoMo, SciFact)
first as they are, then varied: record i past them joins the start of real chunk a_i and a part
of chunk b_i and ends with "(record i)", so every document is distinct and about one chunk.
Vectors: the real MiniLM vectors of the real chunks (read from those indexes), and for every
record past them normalise(x_a + u·x_b + noise) — what benchmarks/ann_choice.py grows — given by
an embedder that reads the record number off the text (embedding 1M chunks with MiniLM takes
6–11 hours here). Queries are real questions encoded by the real MiniLM, as `add` embeds with it.
Each document carries metadata for `where`: company (1 of 20: a 5% filter) and fiscal_year.

Per size, each step in its own process (so RSS is that step's): build wall time and peak RSS,
disk, open time, hybrid search p50/p95 without and with `where` and the search process's RSS,
add of 1 and of 100 documents, delete of one, cold `python -m context1 search`, grep worst case
(a pattern no chunk holds: a full scan) and a broad one, and the dense leg's recall@100 against
exact search on real questions. `--step quality --out INDEX` gives the dev benchmarks' gold-document
R@10 on a built index (its first records are their real chunks) with the approximate dense leg and
with exact search, hybrid and dense.

The indexes keep no Chroma copy (CorpusConfig(chroma=False); --chroma keeps one): the dense leg
reads the index's own matrix and FAISS index either way. Search-process RSS is also split into
anonymous memory and file-backed pages of the mapped index files (which the OS can drop).

  PYTHONPATH=. HF_HUB_OFFLINE=1 OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/scale.py \\
      --sizes 100000 300000 1000000 --work /work/runs/s28/i38/scale --sources /work/indexes/bench-*-256
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COMPANIES = [f"Company {c}" for c in "ABCDEFGHIJKLMNOPQRST"]  # 20: a company filter keeps 5%
_RECORD = re.compile(r"\(record (\d+)\)")


def _real(sources: list[Path]) -> tuple[list[tuple[str, str]], np.ndarray]:
    """(title, text) of every live chunk of the sources, and their MiniLM vectors, aligned.

    A source is an index folder, or a JSONL file of {"title", "text"} rows with its vectors in
    the .npy file of the same name (chunks taken from an index still being built).
    """
    from corpus_tools import Corpus

    texts, vectors = [], []
    for source in sources:
        if source.suffix == ".jsonl":
            rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
            texts += [(r["title"], r["text"]) for r in rows]
            vectors.append(np.load(source.with_suffix(".npy"))[: len(rows)])
            continue
        with Corpus.open(source, reranker="none") as corpus:
            state = corpus._state
            for chunk in state.chunks:
                texts.append((chunk.metadata.get("title") or "", chunk.text))
            vectors.append(state.vectors.lines(state.chunks.row_lines()))
    return texts, np.concatenate(vectors)


class ReuseEmbedder:
    """Documents: the real vector of a real record, a mixture of two for the others (see the docstring)."""

    def __init__(self, real: np.ndarray, name: str) -> None:
        self.real, self.name, self.dim = real, name, real.shape[1]

    def vector(self, text: str) -> np.ndarray:
        found = _RECORD.search(text)
        record = int(found.group(1)) if found else zlib.crc32(text.encode())
        if found and record < len(self.real):
            return self.real[record]
        rng = np.random.default_rng(record)
        a, b = rng.integers(len(self.real), size=2)
        v = self.real[a] + rng.uniform(0, 0.6) * self.real[b] + rng.normal(0, 0.01, self.dim).astype(np.float32)
        return (v / np.linalg.norm(v)).astype(np.float32)

    def encode_document(self, texts):
        return np.stack([self.vector(t) for t in texts])

    def encode_query(self, texts):
        raise RuntimeError("the scale build encodes no query")


def documents(texts: list[tuple[str, str]], n: int):
    from corpus_tools import Document

    rng = np.random.default_rng(7)
    for i in range(n):
        meta = {"company": COMPANIES[i % 20], "fiscal_year": 2015 + (i * 7) % 10}
        if i < len(texts):
            title, text = texts[i]
        else:
            a, b = rng.integers(len(texts), size=2)
            title = texts[a][0]
            text = f"{texts[a][1][:700]} {texts[b][1][:250]}"
        yield Document(f"rec-{i}", f"{text} (record {i})", title=title, metadata=meta)


def _rss_mb() -> float:
    import psutil

    return psutil.Process().memory_info().rss / 1e6


def _rss_split_mb() -> tuple[float, float]:
    """(anonymous, file-backed) resident MB: mapped index files the OS can drop are the second."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value
    kb = lambda key: float(fields.get(key, "0 kB").split()[0]) / 1e3  # noqa: E731
    return kb("RssAnon"), kb("RssFile") + kb("RssShmem")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def step_build(args) -> dict:
    import corpus_tools.build as build_module
    from corpus_tools import Corpus, CorpusConfig

    texts, real = _real(args.sources)
    embedder = ReuseEmbedder(real, CorpusConfig().embedding_model)
    build_module.make_embedder = lambda config: embedder  # the build's embedder; queries use the real model
    del texts[args.n :]
    start = time.perf_counter()
    # No Chroma copy (CorpusConfig.chroma): inserting 1M vectors into Chroma's HNSW graph is most of a
    # build's time, and the dense leg reads the index's own matrix and FAISS index either way.
    config = CorpusConfig(embedding_cache=None, chroma=args.chroma)
    Corpus.build(documents(texts, args.n), args.out, config=config, progress=False).close()
    return {"build_s": time.perf_counter() - start, "build_peak_mb": _peak_mb(), "real_vectors": min(len(real), args.n)}


def _questions(data_dir: str, names=("hotpotqa", "musique"), per=100) -> list[str]:
    from eval.loaders import load_benchmark

    out = []
    for name in names:
        out += [t.query for t in load_benchmark(name, data_dir).tasks][:per]
    return out


def step_search(args) -> dict:
    from corpus_tools import Corpus, Document

    start = time.perf_counter()
    corpus = Corpus.open(args.out, reranker="none")
    out: dict = {"open_s": time.perf_counter() - start}
    queries = _questions(args.data_dir)
    corpus.search(queries[0], k=10)  # the first query loads the query encoder and the vocabulary
    for label, where in (("", None), ("_where", {"company": "Company C"}), ("_where50", {"fiscal_year": {"$gte": 2020}})):
        times, cpu = [], []
        for q in queries:
            t, c = time.perf_counter(), time.process_time()
            corpus.search(q, k=10, where=where)
            times.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)  # every thread of the process: load-independent
        times.sort()
        cpu.sort()
        out[f"search{label}_p50_ms"] = times[len(times) // 2]
        out[f"search{label}_p95_ms"] = times[int(len(times) * 0.95)]
        out[f"search{label}_cpu_p50_ms"] = cpu[len(cpu) // 2]
        out[f"search{label}_cpu_p95_ms"] = cpu[int(len(cpu) * 0.95)]
    out["search_rss_mb"] = _rss_mb()
    out["search_rss_anon_mb"], out["search_rss_file_mb"] = _rss_split_mb()
    # The dense leg's recall@100 against exact search, on the real questions.
    state = corpus._state
    vectors = state.vectors
    recalls = []
    if vectors is not None and vectors.ann is not None:
        ann = vectors.ann
        for q in queries:
            qv = corpus._query_vector(q)
            got = {r for r, _ in vectors.top(qv, 100, state.chunks.row_lines())}
            vectors.ann = None
            want = {r for r, _ in vectors.top(qv, 100, state.chunks.row_lines())}
            vectors.ann = ann
            recalls.append(len(got & want) / 100)
    out["dense_recall100"] = statistics.mean(recalls) if recalls else None
    # Grep: a pattern no chunk holds (the whole table scanned) and a broad one.
    t = time.perf_counter()
    corpus._state.grep_buffer()  # the first grep of a process joins every text (once)
    out["grep_first_s"] = time.perf_counter() - t
    for label, pattern in (("grep_none_ms", "zqxjzqxj"), ("grep_broad_ms", r"\b[Tt]he\b")):
        t = time.perf_counter()
        corpus.grep(pattern, k=5, time_limit=None)
        out[label] = (time.perf_counter() - t) * 1000
    out["grep_rss_mb"] = _rss_mb()
    # Commits, with the real embedder (what a user's add pays).
    t, c = time.perf_counter(), time.process_time()
    corpus.add([Document("scale-add-1", "A new filing about quarterly revenue and the supply chain.",
                         metadata={"company": "Company A", "fiscal_year": 2024})])
    # The first write of a process (it opened Chroma, and imported torch to embed, before issue 38).
    out["add1_s"], out["add1_cpu_s"] = time.perf_counter() - t, time.process_time() - c
    t, c = time.perf_counter(), time.process_time()
    corpus.add([Document("scale-add-2", "Another filing: guidance for the next quarter and capital spending.",
                         metadata={"company": "Company A", "fiscal_year": 2024})])
    out["add1_again_s"], out["add1_again_cpu_s"] = time.perf_counter() - t, time.process_time() - c
    docs = [Document(f"scale-add-100-{i}", f"Note {i}: a board meeting on dividends and buybacks, item {i}.",
                     metadata={"company": "Company B", "fiscal_year": 2024}) for i in range(100)]
    t, c = time.perf_counter(), time.process_time()
    corpus.add(docs)
    out["add100_s"], out["add100_cpu_s"] = time.perf_counter() - t, time.process_time() - c
    t, c = time.perf_counter(), time.process_time()
    corpus.delete([next(f"rec-{i}" for i in range(5, 10**6) if corpus.has_doc(f"rec-{i}"))])  # a rerun: the next
    out["delete1_s"], out["delete1_cpu_s"] = time.perf_counter() - t, time.process_time() - c
    t = time.perf_counter()
    corpus.search(queries[1], k=10)
    out["search_after_commits_ms"] = (time.perf_counter() - t) * 1000
    out["commit_peak_mb"] = _peak_mb()
    corpus.close()
    return out


def _real_doc_ids(sources: list[Path]) -> list[str]:
    """The doc id of each real chunk `_real` reads, in its order: record i below their count is chunk i."""
    from corpus_tools import Corpus

    ids: list[str] = []
    for source in sources:
        if source.suffix == ".jsonl":
            ids += [json.loads(line).get("doc_id", "") for line in source.read_text(encoding="utf-8").splitlines()]
            continue
        with Corpus.open(source, reranker="none") as corpus:
            ids += [chunk.doc_id for chunk in corpus._state.chunks]
    return ids


def step_quality(args) -> dict:
    """Dev-benchmark R@10 on the scale index, the approximate dense leg against exact search.

    The index's first records are the dev indexes' real chunks (record i: chunk i), among the
    varied records that fill it to its size: each hit maps back to its source document, so gold-
    document recall@10 is measured as on the dev index, with the distractors of a large index.
    """
    from corpus_tools import Corpus
    from eval.loaders import load_benchmark

    source_doc = _real_doc_ids(args.sources)
    out: dict = {}
    with Corpus.open(args.out, reranker="none") as corpus:
        vectors = corpus._state.vectors
        ann = vectors.ann
        if ann is None:
            return {"quality": "the index searches exactly (no ANN)"}

        def doc_of(hit) -> str:
            record = int(hit.chunk.doc_id.removeprefix("rec-")) if hit.chunk.doc_id.startswith("rec-") else -1
            return source_doc[record] if 0 <= record < len(source_doc) else ""

        for name in ("hotpotqa", "musique"):
            tasks = [t for t in load_benchmark(name, args.data_dir).tasks if t.gold_doc_ids][: args.queries]
            recall: dict[str, list[float]] = {"exact": [], "ann": [], "dense_exact": [], "dense_ann": []}
            same = []
            for task in tasks:
                gold = set(task.gold_doc_ids)
                tops = {}
                for mode in ("exact", "ann"):
                    vectors.ann = ann if mode == "ann" else None
                    hits = corpus.search(task.query, k=10)
                    dense = corpus.search_leg(task.query, "dense", k=10)
                    recall[mode].append(len({doc_of(h) for h in hits} & gold) / len(gold))
                    recall[f"dense_{mode}"].append(len({doc_of(h) for h in dense} & gold) / len(gold))
                    tops[mode] = [h.chunk.chunk_id for h in hits]
                same.append(float(tops["exact"] == tops["ann"]))
            vectors.ann = ann
            for mode, values in recall.items():
                out[f"{name}_r10_{mode}"] = statistics.fmean(values)
            out[f"{name}_top10_identical"] = statistics.fmean(same)
            out[f"{name}_queries"] = len(tasks)
    return out


def _child(step: str, args, n: int, out: Path) -> dict:
    cmd = [sys.executable, __file__, "--step", step, "--n", str(n), "--out", str(out), "--data-dir", args.data_dir,
           "--sources", *map(str, args.sources), *(["--chroma"] if args.chroma else [])]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"{step} at {n:,} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _cold_search(out: Path) -> tuple[float, float]:
    """(wall s, CPU s) of a whole `context1 search` process: interpreter, imports, open, model, query."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", "from context1.interfaces.cli import main; main()", "search", str(out),
                          "who founded the company", "-k", "5"],
                          capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise RuntimeError(proc.stderr[-2000:])
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _disk_mb(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1e6


def run_size(args, n: int) -> dict:
    out = args.work / f"scale-{n}"
    row: dict = {"chunks": n}
    if not (out / "manifest.json").exists():
        shutil.rmtree(out, ignore_errors=True)
        row.update(_child("build", args, n, out))
    manifest = json.loads((out / "manifest.json").read_text())
    row["chunks"] = manifest["chunk_count"]
    row["dense"] = manifest.get("dense", {}).get("search", "exact")
    row["disk_mb"] = _disk_mb(out)
    row["cold_search_s"], row["cold_search_cpu_s"] = min(_cold_search(out) for _ in range(2))
    row.update(_child("search", args, n, out))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="+", type=int, default=[100_000, 300_000, 1_000_000])
    parser.add_argument("--work", type=Path, default=Path("/tmp/context1-scale"))
    parser.add_argument("--sources", nargs="+", type=Path, required=True)
    parser.add_argument("--data-dir", default="/work/shared/data")
    parser.add_argument("--chroma", action="store_true", help="keep the Chroma copy of the vectors (slow at 1M)")
    parser.add_argument("--step", choices=["build", "search", "quality"])
    parser.add_argument("--queries", type=int, default=200, help="questions per benchmark for --step quality")
    parser.add_argument("--n", type=int)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.step:
        result = {"build": step_build, "search": step_search, "quality": step_quality}[args.step](args)
        print(json.dumps(result))
        return
    args.work.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in args.sizes:
        row = run_size(args, n)
        rows.append(row)
        (args.work / f"scale-{n}.json").write_text(json.dumps(row, indent=2))
        print(json.dumps(row), flush=True)
    print()
    print(table(rows))


def table(rows: list[dict]) -> str:
    fields = [
        ("chunks", "{:,}"), ("build_s", "{:.0f}"), ("build_peak_mb", "{:.0f}"), ("disk_mb", "{:.0f}"),
        ("open_s", "{:.2f}"), ("search_p50_ms", "{:.1f}"), ("search_p95_ms", "{:.1f}"),
        ("search_where_p50_ms", "{:.1f}"), ("search_where_p95_ms", "{:.1f}"), ("search_where50_p50_ms", "{:.1f}"),
        ("search_where50_p95_ms", "{:.1f}"), ("search_cpu_p50_ms", "{:.1f}"), ("search_cpu_p95_ms", "{:.1f}"),
        ("search_where_cpu_p50_ms", "{:.1f}"), ("search_where50_cpu_p50_ms", "{:.1f}"),
        ("search_rss_mb", "{:.0f}"), ("search_rss_anon_mb", "{:.0f}"), ("search_rss_file_mb", "{:.0f}"), ("add1_s", "{:.2f}"), ("add1_cpu_s", "{:.2f}"), ("add1_again_s", "{:.2f}"),
        ("add1_again_cpu_s", "{:.2f}"), ("add100_s", "{:.2f}"), ("add100_cpu_s", "{:.2f}"), ("delete1_s", "{:.2f}"),
        ("delete1_cpu_s", "{:.2f}"), ("search_after_commits_ms", "{:.1f}"),
        ("commit_peak_mb", "{:.0f}"), ("cold_search_s", "{:.2f}"), ("cold_search_cpu_s", "{:.2f}"), ("grep_first_s", "{:.1f}"), ("grep_none_ms", "{:.0f}"),
        ("grep_broad_ms", "{:.0f}"), ("grep_rss_mb", "{:.0f}"), ("dense_recall100", "{:.3f}"), ("dense", "{}"),
    ]
    lines = ["| metric | " + " | ".join(f"{r['chunks']:,}" for r in rows) + " |", "|---|" + "---|" * len(rows)]
    for key, fmt in fields[1:]:
        cells = [fmt.format(r[key]) if r.get(key) is not None else "–" for r in rows]
        lines.append(f"| {key} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
