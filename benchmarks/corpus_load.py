"""corpus_tools under load (issue 11): bounded grep, streaming builds, incremental add, cold start.

Measurements (builds in their own subprocesses, so peak RSS is that job's alone):
  grep      worst case of broad patterns ('.', '\\w', 'x*', 'e') and full-scan ones over ~5k and
            ~50k chunk-sized HotpotQA paragraphs, k=5: the bounded scan (RE2 over a joined
            buffer, capped counts, early stop) vs the previous Python loop (timed on a 1,000-row
            slice and scaled, since it runs for minutes on 50k).
  build     peak RSS and time of `Corpus.build` at --sizes chunks (default 5k, 50k), from
            --unique HotpotQA paragraphs replicated under distinct doc ids (the embedding cache
            makes copies cheap; replicated text is what the issue allows); then `add` of one new
            document: time and bytes written. With --server the vectors go to a `chroma run`
            server started for the run (its RSS is sampled apart), so the builder's own memory shows.
  serve     an existing index (--path) opened in a fresh process: open time, RSS and RssAnon after
            opening and after --limit HotpotQA questions (search, read) and four greps; p50s.
            With CORPUS_LOAD_CODE the same for older code (the chunk table as Python objects).
  coldstart `context1 search INDEX QUERY` as a fresh process: wall time to the printed result,
            and inside one process the time to import, open the index and run the first search.
  throughput indexing chunks/s with a cold cache next to MiniLM's own encode rate on the same
            texts, same run (one encode call, which sorts by length itself).

  HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python benchmarks/corpus_load.py --data-dir ../shared/data all
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# CORPUS_LOAD_CODE=<folder holding another corpus_tools>: time that code instead (e.g. an export of
# the previous commit, `git archive main corpus_tools | tar -x -C /tmp/old`), for before/after rows.
if os.environ.get("CORPUS_LOAD_CODE"):
    sys.path.insert(0, os.environ["CORPUS_LOAD_CODE"])
OUT = ROOT / "benchmarks" / "out" / "corpus_load"


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _paragraphs(data_dir: str, limit: int | None = None):
    from eval.loaders import load_benchmark

    return list(load_benchmark("hotpotqa", data_dir).documents)[:limit]


def _replicated(data_dir: str, unique: int, n: int):
    """n documents: `unique` HotpotQA paragraphs repeated under distinct doc ids (a generator)."""
    from corpus_tools import Document

    base = _paragraphs(data_dir, unique)
    for i in range(n):
        d = base[i % len(base)]
        yield Document(f"{d.doc_id}@{i // len(base)}", d.text, d.title, d.metadata)


# ---------------------------------------------------------------- grep


def _old_grep(pattern: str, texts: list[str], k: int) -> list[tuple[int, int]]:
    """The grep of commit 302858e: a Python loop, every match of every row counted on str."""
    from corpus_tools.grep import compile_pattern

    compiled = compile_pattern(pattern)
    counts = []
    for row, text in enumerate(texts):
        if compiled.search(text) is None:
            continue
        counts.append((row, sum(1 for _ in compiled.finditer(text))))
    counts.sort(key=lambda pair: (-pair[1], pair[0]))
    return counts[:k]


def bench_grep(args: argparse.Namespace) -> dict[str, Any]:
    from corpus_tools.grep import GrepBuffer, grep_rows

    base = [f"{d.title}\n{d.text}" for d in _paragraphs(args.data_dir)]
    patterns = [".", r"\w", "x*", "e", r"\bthe\b", r"[0-9]{4}", "zqxjv"]
    rows = []
    for size in (5_000, 50_000):
        texts = [base[i % len(base)] for i in range(size)]
        t0 = time.perf_counter()
        buffer = GrepBuffer(texts)
        buffer_s = time.perf_counter() - t0
        for pattern in patterns:
            times, scan = [], None
            for _ in range(3):
                t0 = time.perf_counter()
                scan = grep_rows(pattern, texts, 5, buffer=buffer)
                times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            _old_grep(pattern, texts[:1000], 5)
            old_1k = time.perf_counter() - t0
            rows.append(
                {
                    "chunks": size,
                    "pattern": pattern,
                    "new_s": statistics.median(times),
                    "new_max_s": max(times),
                    "complete": scan.complete,
                    "scanned": scan.scanned,
                    "old_s_scaled": old_1k * size / 1000,
                    "buffer_build_s": buffer_s,
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    return {"grep": rows}


# ---------------------------------------------------------------- build / add (subprocess)


class RssSampler:
    """Peak resident memory per phase of one process, sampled from /proc/self/status every 50 ms.

    `ru_maxrss` gives one peak for the whole life of the process; phases (streaming the
    documents in, building BM25, opening the finished index) tell which part grows with the corpus.
    VmRSS counts the pages of memory-mapped files the process touched (the chunk table, the BM25
    matrix: page cache the kernel can drop); RssAnon is the memory the process itself owns, so both
    are kept (`peaks`, `anon_peaks`).
    """

    def __init__(self) -> None:
        import threading

        self.phase = "start"
        self.peaks: dict[str, float] = {}
        self.anon_peaks: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @staticmethod
    def rss_mb(field: str = "VmRSS") -> float:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.sample()

    def sample(self) -> None:
        rss, anon = self.rss_mb(), self.rss_mb("RssAnon")
        self.peaks[self.phase] = max(self.peaks.get(self.phase, 0.0), rss)
        self.anon_peaks[self.phase] = max(self.anon_peaks.get(self.phase, 0.0), anon)

    def mark(self, phase: str) -> None:
        self.sample()
        self.phase = phase
        self.sample()

    def stop(self) -> dict[str, float]:
        self._stop.set()
        self._thread.join()
        self.sample()
        return {k: round(v, 1) for k, v in self.peaks.items()}

    def anon(self) -> dict[str, float]:
        return {k: round(v, 1) for k, v in self.anon_peaks.items()}


def _io_written() -> int:
    """Bytes this process handed to write() so far (all threads, Chroma's included)."""
    with open("/proc/self/io") as f:
        return int(next(line for line in f if line.startswith("wchar:")).split()[1])


class ChromaServer:
    """`chroma run` on a free local port for one build (--server), with its peak RSS sampled."""

    def __init__(self, folder: Path) -> None:
        import socket

        import chromadb

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        cli = Path(sys.executable).parent / "chroma"
        self.log = (folder / "chroma-server.log").open("w")
        self.proc = subprocess.Popen(
            [str(cli), "run", "--path", str(folder / "chroma-server"), "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"chroma run exited with {self.proc.returncode}; see {self.log.name}")
            try:
                self.client = chromadb.HttpClient(host="127.0.0.1", port=self.port)
                self.client.heartbeat()
                break
            except Exception:  # noqa: BLE001 - not up yet
                if time.monotonic() > deadline:
                    raise RuntimeError(f"chroma run did not answer in 120 s; see {self.log.name}") from None
                time.sleep(0.3)
        self.peak_mb = 0.0
        self._stop = __import__("threading").Event()
        self._thread = __import__("threading").Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.1):
            try:
                with open(f"/proc/{self.proc.pid}/status") as f:
                    rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
                self.peak_mb = max(self.peak_mb, rss / 1024)
            except (OSError, StopIteration):
                return

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        self.proc.terminate()
        self.proc.wait(timeout=60)
        self.log.close()
        return round(self.peak_mb, 1)


def worker_build(args: argparse.Namespace) -> dict[str, Any]:
    from corpus_tools import Corpus, CorpusConfig
    from corpus_tools import build as build_module

    server = ChromaServer(Path(args.path).parent) if args.server else None
    client = server.client if server else None
    sampler = RssSampler()
    config = CorpusConfig(embedding_cache=str(OUT / "cache"))
    path = Path(args.path)
    # The BM25 phase inside build_index: `write` (term ids spilled to disk) where the code has it.
    method = "write" if hasattr(build_module.BM25Builder, "write") else "build"
    original = getattr(build_module.BM25Builder, method)

    def timed_bm25_build(self, *a):
        sampler.mark("bm25")
        try:
            return original(self, *a)
        finally:
            sampler.mark("finish")

    setattr(build_module.BM25Builder, method, timed_bm25_build)
    sampler.mark("stream")
    started = time.perf_counter()
    corpus = Corpus.build(
        _replicated(args.data_dir, args.unique, args.size), path, config=config, client=client, progress=False
    )
    build_s = time.perf_counter() - started
    setattr(build_module.BM25Builder, method, original)
    sampler.mark("close")  # "finish" covered saving BM25, the manifest, the swap and Corpus.build's open
    corpus.close()
    del corpus
    sampler.mark("reopen")
    started = time.perf_counter()
    corpus = Corpus.open(path, client=client)
    open_s = time.perf_counter() - started
    sampler.mark("opened")
    n = len(corpus)
    corpus.close()
    peaks = sampler.stop()
    server_peak = server.stop() if server else None
    return {
        "server": bool(server),
        "server_peak_rss_mb": server_peak,
        "chunks": n,
        "build_s": build_s,
        "open_s": open_s,
        "build_peak_rss_mb": _peak_rss_mb(),
        "phase_peak_rss_mb": peaks,
        "phase_peak_anon_mb": sampler.anon(),
    }


def worker_chroma(args: argparse.Namespace) -> dict[str, Any]:
    """Embedded Chroma alone: peak RSS after upserting --size random unit vectors (with ~600-character
    documents and the metadata our chunks carry), to tell its memory from the rest of a build."""
    import numpy as np

    from corpus_tools.store import embedded_client

    with tempfile.TemporaryDirectory(dir=OUT) as tmp:
        client = embedded_client(Path(tmp) / "chroma")
        collection = client.get_or_create_collection("c", embedding_function=None, metadata={"hnsw:space": "cosine"})
        rng = np.random.default_rng(0)
        start_rss = RssSampler.rss_mb()
        text = "x" * 600
        for start in range(0, args.size, 1000):
            n = min(1000, args.size - start)
            vectors = rng.standard_normal((n, 384)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            collection.upsert(
                ids=[f"doc-{i}#0@{i:016x}" for i in range(start, start + n)],
                embeddings=vectors,
                documents=[text] * n,
                metadatas=[
                    {"chunk_id": f"doc-{i}#0", "doc_id": f"doc-{i}", "position": 0, "n_tokens": 150, "title": "A title"}
                    for i in range(start, start + n)
                ],
            )
        end_rss = RssSampler.rss_mb()
        client.close()
    return {"vectors": args.size, "rss_before_mb": start_rss, "rss_after_mb": end_rss, "peak_rss_mb": _peak_rss_mb()}


def worker_bm25(args: argparse.Namespace) -> dict[str, Any]:
    """The BM25 score-matrix build alone, from the saved term ids of the index at --path: peak RSS above
    the loaded term ids, and time (the phase that grew most with the corpus)."""
    import numpy as np

    from corpus_tools import CorpusConfig
    from corpus_tools.bm25 import BM25Builder, BM25Index

    manifest = json.loads((Path(args.path) / "manifest.json").read_text())
    config = CorpusConfig.from_dict(manifest["config"])
    index = BM25Index.load(Path(args.path) / manifest["files"]["bm25"], config.bm25)
    terms, offsets = index.term_ids()
    terms = np.asarray(terms)  # in memory, as a build holds them
    builder = BM25Builder.from_index(index, np.arange(len(offsets) - 1))
    del terms
    sampler = RssSampler()
    sampler.mark("before")
    t0 = time.perf_counter()
    built = builder.build()
    seconds = time.perf_counter() - t0
    sampler.mark("after")
    peaks = sampler.stop()
    scores = built._model.scores
    return {
        "rows": int(len(offsets) - 1),
        "tokens": int(offsets[-1]),
        "nnz": int(len(scores["data"])),
        "matrix_mb": sum(scores[k].nbytes for k in ("data", "indices", "indptr")) / 2**20,
        "rss_before_mb": peaks["start"] if "start" in peaks else peaks["before"],
        "peak_rss_mb": max(peaks.values()),
        "seconds": seconds,
    }


def worker_add(args: argparse.Namespace) -> dict[str, Any]:
    """Add one new document to a copy of a built index, then delete it: time and bytes written."""
    import shutil

    from corpus_tools import Corpus, Document

    source = Path(args.path)
    result: dict[str, Any] = {"index_bytes": _folder_bytes(source)}
    with tempfile.TemporaryDirectory(dir=OUT) as tmp:
        path = Path(tmp) / "index"
        shutil.copytree(source, path)
        t0 = time.perf_counter()
        corpus = Corpus.open(path)
        result["fresh_open_s"] = time.perf_counter() - t0
        result["open_rss_mb"] = RssSampler.rss_mb()  # a fresh process with the index open
        result["chunks"] = len(corpus)
        doc = Document("new-doc", "Zanzibar spice farms export cloves, nutmeg and cinnamon. " * 30, "Spice farms")
        corpus.embedder.encode_document(["warm-up"])
        for step, action in (("add", lambda: corpus.add([doc])), ("delete", lambda: corpus.delete(["new-doc"]))):
            before_files = {p: p.stat().st_size for p in path.rglob("*") if p.is_file()}
            io0 = _io_written()
            t0 = time.perf_counter()
            action()
            result[f"{step}_one_s"] = time.perf_counter() - t0
            result[f"{step}_wchar_bytes"] = _io_written() - io0
            after = {p: p.stat().st_size for p in path.rglob("*") if p.is_file()}
            result[f"{step}_new_file_bytes"] = sum(size for p, size in after.items() if p not in before_files)
            result[f"{step}_table_bytes"] = corpus.last_commit_bytes
        result["chunks_after"] = len(corpus)
        corpus.close()
    return result


def _folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def run_worker(kind: str, **options: Any) -> dict[str, Any]:
    argv = [sys.executable, __file__, "--data-dir", options.pop("data_dir"), f"worker-{kind}"]
    for key, value in options.items():
        if value is True:
            argv.append(f"--{key.replace('_', '-')}")
        elif value is not None and value is not False:
            argv += [f"--{key.replace('_', '-')}", str(value)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(argv, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"worker {kind} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def bench_build(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    for size in args.sizes:
        path = OUT / f"index-{size}"
        if not args.add_only:
            if path.exists():
                import shutil

                shutil.rmtree(path)
            row = run_worker(
                "build", data_dir=args.data_dir, size=size, unique=args.unique, path=path, server=args.server
            )
        else:
            row = {}
        if not args.server:  # add/delete are timed on embedded indexes (the server one is gone with its server)
            row.update(run_worker("add", data_dir=args.data_dir, path=path))
        row["size"] = size
        (OUT / f"build-{size}{'-add' if args.add_only else ''}{'-server' if args.server else ''}.json").write_text(
            json.dumps(row, indent=2)
        )
        rows.append(row)
        print(json.dumps(row), flush=True)
    return {"build": rows}


# ---------------------------------------------------------------- serving an opened index


def worker_serve(args: argparse.Namespace) -> dict[str, Any]:
    """An opened index serving: open time, memory after open and after the queries, search/read/grep p50."""
    from corpus_tools import Corpus
    from eval.loaders import load_benchmark

    questions = [t.query for t in load_benchmark("hotpotqa", args.data_dir).tasks[: args.limit]]
    rss = RssSampler.rss_mb
    started = time.perf_counter()
    corpus = Corpus.open(args.path)
    open_s = time.perf_counter() - started
    opened = {"rss_mb": rss(), "anon_mb": rss("RssAnon")}
    corpus.search("warm up the query encoder", k=10)
    search_s, read_s, grep_s = [], [], []
    for question in questions:
        t0 = time.perf_counter()
        hits = corpus.search(question, k=10)
        search_s.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        corpus.read(hits[0].chunk.doc_id)
        read_s.append(time.perf_counter() - t0)
    for pattern in ("[0-9]{4}", "the", "magazine", "Which"):
        t0 = time.perf_counter()
        corpus.grep(pattern, k=5)
        grep_s.append(time.perf_counter() - t0)
    n = len(corpus)
    corpus.close()
    return {
        "code": os.environ.get("CORPUS_LOAD_CODE") or "current",
        "chunks": n,
        "open_s": open_s,
        "opened": opened,
        "served": {"rss_mb": rss(), "anon_mb": rss("RssAnon")},
        "search_p50_ms": 1000 * statistics.median(search_s),
        "search_p95_ms": 1000 * sorted(search_s)[int(0.95 * (len(search_s) - 1))],
        "read_p50_ms": 1000 * statistics.median(read_s),
        "grep_p50_ms": 1000 * statistics.median(grep_s),
        "queries": len(questions),
    }


def bench_serve(args: argparse.Namespace) -> dict[str, Any]:
    row = run_worker("serve", data_dir=args.data_dir, path=Path(args.path), limit=args.limit)
    print(json.dumps(row), flush=True)
    name = "serve-" + Path(args.path).name + ("-old" if os.environ.get("CORPUS_LOAD_CODE") else "") + ".json"
    (OUT / name).write_text(json.dumps(row, indent=2))
    return {"serve": [row]}


# ---------------------------------------------------------------- cold start


def worker_open(args: argparse.Namespace) -> dict[str, Any]:
    t0 = time.perf_counter()
    from corpus_tools import Corpus

    imported = time.perf_counter() - t0
    corpus = Corpus.open(args.path)
    opened = time.perf_counter() - t0
    corpus.search("Which magazine was started first?", k=5)
    first = time.perf_counter() - t0
    return {"import_s": imported, "open_s": opened, "first_search_s": first, "peak_rss_mb": _peak_rss_mb()}


def bench_coldstart(args: argparse.Namespace) -> dict[str, Any]:
    path = OUT / f"index-{args.sizes[0]}"
    rows = []
    for _ in range(3):
        row = run_worker("open", data_dir=args.data_dir, path=path)
        cli = [
            sys.executable,
            "-m",
            "context1.interfaces.cli",
            "search",
            str(path),
            "Which magazine was started first?",
            "-k",
            "5",
        ]
        t0 = time.perf_counter()
        code = os.pathsep.join(p for p in (os.environ.get("CORPUS_LOAD_CODE"), str(ROOT)) if p)
        proc = subprocess.run(cli, env={**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": code}, capture_output=True)
        row["cli_search_wall_s"] = time.perf_counter() - t0
        row["cli_rc"] = proc.returncode
        rows.append(row)
        print(json.dumps(row), flush=True)
    return {"coldstart": rows}


# ---------------------------------------------------------------- throughput


def bench_throughput(args: argparse.Namespace) -> dict[str, Any]:
    return {"throughput": run_worker("throughput", data_dir=args.data_dir, limit=args.limit)}


def worker_throughput(args: argparse.Namespace) -> dict[str, Any]:
    from corpus_tools import Corpus, CorpusConfig, retrieval_text
    from corpus_tools.build import make_tokenizer
    from corpus_tools.chunking import chunk_documents
    from corpus_tools.embed import load_embedder

    docs = _paragraphs(args.data_dir, args.limit)
    config = CorpusConfig()
    texts = [retrieval_text(c) for c in chunk_documents(docs, make_tokenizer(config), config.chunking)]
    embedder = load_embedder(None)
    embedder.encode_document(texts[:64])  # warm-up
    t0 = time.perf_counter()
    embedder.encode_document(texts)
    encode_s = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        cold = CorpusConfig(embedding_cache=str(Path(tmp) / "cache"))
        t0 = time.perf_counter()
        corpus = Corpus.build(docs, Path(tmp) / "index", config=cold, progress=False)
        build_s = time.perf_counter() - t0
        n = len(corpus)
        corpus.close()
    return {
        "chunks": n,
        "encode_chunks_per_s": len(texts) / encode_s,
        "index_chunks_per_s": n / build_s,
        "ratio": (n / build_s) / (len(texts) / encode_s),
    }


# ---------------------------------------------------------------- tables


def tables(results: dict[str, Any]) -> str:
    out = []
    if "grep" in results:
        out += [
            "| chunks | pattern | bounded grep p50 | max of 3 | complete | rows scanned | old loop (scaled) |",
            "|---|---|---|---|---|---|---|",
        ]
        for r in results["grep"]:
            out.append(
                f"| {r['chunks']:,} | `{r['pattern']}` | {r['new_s'] * 1000:.1f} ms | {r['new_max_s'] * 1000:.1f} ms "
                f"| {r['complete']} | {r['scanned']:,} | {r['old_s_scaled']:.1f} s |"
            )
        out.append("")
    if "build" in results:
        built = [r for r in results["build"] if "build_s" in r]
        if built:
            out += [
                "| chunks | vectors | build | peak RSS (anon): stream in | + BM25 matrix | + save, swap, open "
                "| reopen in the same process | reopen time | chroma server peak RSS |",
                "|---|---|---|---|---|---|---|---|---|",
            ]
            for r in built:
                p, a = r["phase_peak_rss_mb"], r.get("phase_peak_anon_mb", {})

                def cell(phase: str, p=p, a=a) -> str:
                    return f"{p.get(phase, 0):.0f} ({a[phase]:.0f}) MiB" if phase in a else f"{p.get(phase, 0):.0f} MiB"

                server_rss = f"{r['server_peak_rss_mb']:.0f} MiB" if r.get("server") else "–"
                out.append(
                    f"| {r['chunks']:,} | {'server' if r.get('server') else 'embedded'} | {r['build_s']:.0f} s "
                    f"| {cell('stream')} | {cell('bm25')} | {cell('finish')} | {cell('opened')} | {r['open_s']:.1f} s "
                    f"| {server_rss} |"
                )
            out.append("")
        out += [
            "| chunks | index size | fresh open: RSS, time | add 1 doc | add: bytes written (all) "
            "| add: new files | delete 1 doc | delete: bytes written |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in (r for r in results["build"] if "add_one_s" in r):
            out.append(
                f"| {r['chunks']:,} | {r['index_bytes'] / 2**20:.0f} MiB "
                f"| {r.get('open_rss_mb', 0):.0f} MiB, {r.get('fresh_open_s', 0):.1f} s | {r['add_one_s']:.2f} s "
                f"| {r['add_wchar_bytes'] / 2**20:.2f} MiB | {r['add_new_file_bytes'] / 1024:.1f} KiB "
                f"| {r['delete_one_s']:.2f} s | {r['delete_wchar_bytes'] / 2**20:.2f} MiB |"
            )
        out.append("")
    if "serve" in results:
        out += [
            "| code | chunks | open | RSS (anon) after open | after queries + grep | search p50 / p95 | read p50 | grep p50 |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in results["serve"]:
            o, v = r["opened"], r["served"]
            out.append(
                f"| {Path(r['code']).name} | {r['chunks']:,} | {r['open_s']:.1f} s "
                f"| {o['rss_mb']:.0f} ({o['anon_mb']:.0f}) MiB | {v['rss_mb']:.0f} ({v['anon_mb']:.0f}) MiB "
                f"| {r['search_p50_ms']:.0f} / {r['search_p95_ms']:.0f} ms | {r['read_p50_ms']:.1f} ms "
                f"| {r['grep_p50_ms']:.0f} ms |"
            )
        out.append("")
    if "coldstart" in results:
        out += [
            "| run | import corpus_tools | + Corpus.open | + first search | `context1 search` wall |",
            "|---|---|---|---|---|",
        ]
        for i, r in enumerate(results["coldstart"], start=1):
            out.append(
                f"| {i} | {r['import_s']:.2f} s | {r['open_s']:.2f} s | {r['first_search_s']:.2f} s | {r['cli_search_wall_s']:.2f} s |"
            )
        out.append("")
    if "throughput" in results:
        r = results["throughput"]
        out += [
            "| chunks | Corpus.build (cold cache) | MiniLM encode, one call | ratio |",
            "|---|---|---|---|",
            f"| {r['chunks']:,} | {r['index_chunks_per_s']:.1f} chunks/s | {r['encode_chunks_per_s']:.1f} chunks/s | {r['ratio']:.2f} |",
            "",
        ]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 50_000])
    parser.add_argument("--unique", type=int, default=500)
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--size", type=int)
    parser.add_argument("--path")
    parser.add_argument("--server", action="store_true", help="build: vectors on a `chroma run` server")
    parser.add_argument(
        "--add-only", action="store_true", help="build: only time add/delete on the indexes built before"
    )
    parser.add_argument(
        "what",
        choices=[
            "grep",
            "build",
            "coldstart",
            "throughput",
            "all",
            "worker-build",
            "worker-add",
            "worker-chroma",
            "worker-bm25",
            "worker-open",
            "worker-serve",
            "serve",
            "worker-throughput",
        ],
    )
    args = parser.parse_args()
    if args.what.startswith("worker-"):
        print(json.dumps(globals()[args.what.replace("-", "_")](args)))
        return
    OUT.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    steps = ["grep", "build", "coldstart", "throughput"] if args.what == "all" else [args.what]
    for step in steps:
        results.update(globals()[f"bench_{step}"](args))
        (OUT / f"{step}.json").write_text(json.dumps(results, indent=2))
    print(tables(results))


if __name__ == "__main__":
    main()
