"""How long a cold `context1 search` takes, split into import, open, query encoding and search.

  build     an index of N chunks of HotpotQA paragraphs with stand-in document vectors (a seeded
            random unit vector per chunk instead of MiniLM's: embedding 50k chunks at ~21 chunks/s
            would take 40 minutes and tells nothing about start-up). Everything else is real: the
            chunk table, BM25, Chroma's HNSW index of 384-d vectors, the manifest naming MiniLM,
            whose query encoder a search loads.
  measure   fresh processes, each: import corpus_tools, Corpus.open, encode the query, search
            (in-process split), then `context1 search DIR QUERY` as its own process (wall time).
            The "dense" column says where the dense leg ran: the index's vector matrix, or Chroma
            (an index written before the matrix existed, or code that predates it).

  HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python benchmarks/cold_start.py build --chunks 5000 --out /work/runs/cold-5k
  HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python benchmarks/cold_start.py measure /work/runs/cold-5k /work/runs/cold-50k

An index built before the vector matrix existed gets one (and its table's line numbers) with
`context1 repair DIR`.

COLD_START_CODE=<folder holding another checkout> times that code instead (e.g. `git archive
5971c01 | tar -x -C /tmp/old`), for before/after rows on the same indexes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
QUERY = "Which magazine was started first, Arthur's Magazine or First for Women?"

# The child: the four phases of a search from a cold interpreter, timed from its first line.
# Wall and CPU seconds (all threads): on a loaded machine the CPU time is the figure that carries over.
CHILD = """
import time, json, sys
marks = [(time.perf_counter(), time.process_time())]
from corpus_tools import Corpus
marks.append((time.perf_counter(), time.process_time()))
corpus = Corpus.open(sys.argv[1])
marks.append((time.perf_counter(), time.process_time()))
vector = corpus.embedder.encode_query([sys.argv[2]])
marks.append((time.perf_counter(), time.process_time()))
corpus.search(sys.argv[2], k=10)
marks.append((time.perf_counter(), time.process_time()))
row = {"matrix": getattr(corpus._state, "vectors", None) is not None, "chromadb": "chromadb" in sys.modules}
for i, name in enumerate(("import", "open", "encode", "search")):
    row[name + "_s"] = marks[i + 1][0] - marks[i][0]
    row[name + "_cpu_s"] = marks[i + 1][1] - marks[i][1]
row["total_s"], row["total_cpu_s"] = marks[-1][0] - marks[0][0], marks[-1][1] - marks[0][1]
print(json.dumps(row))
"""


class StandInEmbedder:
    """MiniLM's name and width with seeded random document vectors (see the module docstring)."""

    def __init__(self, real: Any) -> None:
        self.name, self.dim = real.name, real.dim

    def encode_document(self, texts: list[str]) -> Any:
        import numpy as np

        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
            v = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            out[i] = v / np.linalg.norm(v)
        return out

    def encode_query(self, texts: list[str]) -> Any:
        return self.encode_document(texts)


def build(args: argparse.Namespace) -> None:
    from corpus_tools import Corpus, CorpusConfig, Document
    from corpus_tools import build as build_module
    from eval.loaders import load_benchmark

    real_make = build_module.make_embedder
    build_module.make_embedder = lambda config: StandInEmbedder(real_make(config))
    docs = list(load_benchmark("hotpotqa", args.data_dir).documents)
    chosen = [docs[i % len(docs)] for i in range(args.chunks)]
    documents = [Document(f"{d.doc_id}@{i // len(docs)}", d.text, d.title, d.metadata) for i, d in enumerate(chosen)]
    t0 = time.perf_counter()
    config = CorpusConfig(embedding_cache=None)
    with Corpus.build(documents, args.out, config=config, progress=False) as corpus:
        print(f"built {args.out}: {len(corpus)} chunks in {time.perf_counter() - t0:.0f} s")


def _code_path() -> str:
    return os.pathsep.join(p for p in (os.environ.get("COLD_START_CODE"), str(ROOT)) if p)


def measure_one(index: Path) -> dict[str, float]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": _code_path()}
    # Run outside the checkout: `python -c` puts the working folder first on sys.path, ahead of
    # PYTHONPATH, so COLD_START_CODE would silently time this checkout again.
    cwd = str(index.parent)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(index), QUERY], env=env, capture_output=True, text=True, check=True, cwd=cwd
    )
    row = json.loads(done.stdout.strip().splitlines()[-1])
    cli = [sys.executable, "-c", "from context1.interfaces.cli import main; main()", "search", str(index), QUERY, "-k", "10"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cli, env=env, capture_output=True, check=True, cwd=cwd)
    row["cli_wall_s"] = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    row["cli_cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return row


def measure(args: argparse.Namespace) -> None:
    rows = []
    for index in args.indexes:
        n = json.loads((Path(index) / "manifest.json").read_text())["counts"]["chunks"]
        runs = [measure_one(Path(index)) for _ in range(args.runs)]
        median = {key: statistics.median(r[key] for r in runs) for key in runs[0] if key.endswith("_s")}
        median["dense"] = "matrix" if runs[0]["matrix"] else "Chroma"
        rows.append((n, median))
        print(json.dumps({"chunks": n, "runs": runs}), file=sys.stderr, flush=True)
    code = os.environ.get("COLD_START_CODE") or "this checkout"
    print(f"\nCold start, median of {args.runs} fresh processes ({code}); seconds, wall (CPU of all threads)")
    print("| chunks | dense | import | open | query encoding | search | in-process total | `context1 search` |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for n, m in rows:
        cells = [(m[f"{k}_s"], m[f"{k}_cpu_s"]) for k in ("import", "open", "encode", "search", "total")]
        cells.append((m["cli_wall_s"], m["cli_cpu_s"]))
        print(f"| {n:,} | {m['dense']} | " + " | ".join(f"{w:.2f} ({c:.2f})" for w, c in cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--chunks", type=int, required=True)
    b.add_argument("--out", type=Path, required=True)
    b.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    m = sub.add_parser("measure")
    m.add_argument("indexes", nargs="+", type=Path)
    m.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    build(args) if args.command == "build" else measure(args)


if __name__ == "__main__":
    main()
