"""A process's first `add` of one document to a large index, and its later ones.

The first write of a process used to open the index's Chroma collection, which loads its whole
HNSW graph (44 s at 100k chunks); now an add writes only the index's own files and Chroma is
brought in step when it is next opened (corpus_tools/store_sync.py). Each row runs in a fresh
process on a copy of the index (the original is never written):

  PYTHONPATH=. HF_HUB_OFFLINE=1 OMP_NUM_THREADS=1 .venv/bin/python benchmarks/first_add.py \\
      --index /work/runs/s27/i38/scale/scale-100000 --work /tmp/first-add

Prints open time, the first add (wall and CPU; the document embedder loads here), a second add,
and, with --catch-up, what opening Chroma afterwards costs (the deferred writes).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def step(path: Path, catch_up: bool) -> dict:
    from corpus_tools import Corpus, Document

    out: dict = {}
    t = time.perf_counter()
    corpus = Corpus.open(path, reranker="none")
    out["open_s"] = time.perf_counter() - t
    for label, text in (("add1_first", "A new filing about quarterly revenue and the supply chain."),
                        ("add1_second", "Another filing: guidance for the next quarter and capital spending.")):
        t, c = time.perf_counter(), time.process_time()
        corpus.add([Document(f"first-add-{label}", text, metadata={"company": "Company A", "fiscal_year": 2024})])
        out[f"{label}_s"], out[f"{label}_cpu_s"] = time.perf_counter() - t, time.process_time() - c
    out["chroma_opened"] = corpus._opened_store is not None
    out["chroma_behind"] = bool(corpus.manifest.get("chroma_behind"))
    if catch_up:
        t = time.perf_counter()
        out["chroma_count"] = corpus._store.count()  # opens Chroma: the deferred writes land here
        out["open_chroma_and_catch_up_s"] = time.perf_counter() - t
    corpus.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--work", type=Path, default=Path("/tmp/context1-first-add"))
    parser.add_argument("--catch-up", action="store_true", help="then open Chroma and time the catch-up")
    parser.add_argument("--step", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        print(json.dumps(step(args.step, args.catch_up)))
        return
    copy = args.work / args.index.name
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(args.index, copy)
    os.sync()  # the copy's dirty pages would otherwise be flushed by the add's first fsync, and timed
    try:
        cmd = [sys.executable, __file__, "--index", str(args.index), "--step", str(copy)]
        proc = subprocess.run([*cmd, *(["--catch-up"] if args.catch_up else [])], capture_output=True, text=True)
        if proc.returncode:
            raise SystemExit(proc.stderr[-3000:])
        row = json.loads(proc.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    print("| metric | value |\n|---|---|")
    for key, value in row.items():
        print(f"| {key} | {value:.2f} |" if isinstance(value, float) else f"| {key} | {value} |")


if __name__ == "__main__":
    main()
