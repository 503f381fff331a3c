"""Latency of one rerank of 50 candidates by a MiniLM-L6 cross-encoder, per speed variant, in one run.

Variants: fp32 or int8 (torch.ao.quantization.quantize_dynamic on the Linear layers) × the most
tokens scored per (query, chunk) pair (256 = a whole 256-token chunk; 128 / 96 cut the chunk side),
optionally × encoder depth (`int8:128:L3` = the first 3 of MiniLM's 6 layers, the trainer's --layers).
Each call is `CrossEncoderReranker.score` with the cache off, on real SciFact abstracts (title +
text, as the index stores them) and 50 candidates per query; variants are interleaved query by query
so that load changes on a shared machine hit them alike. Weights do not change the cost, so the
model is the packaged MiniLM with a fresh head (--model: a trained folder, for the same figures).
The cache's figure is `benchmarks/reranker_agent.py`'s (it depends on what an agent repeats).

  PYTHONPATH=$PWD .venv/bin/python benchmarks/reranker_speed.py --queries 20 --threads 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from corpus_tools import Chunk  # noqa: E402
from corpus_tools.rerank import CrossEncoderReranker  # noqa: E402
from eval.loaders import load_benchmark  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--model", default=None, help="CrossEncoder folder [default: MiniLM + fresh head]")
    parser.add_argument("--variants", default="fp32:256,int8:256,fp32:128,int8:128,int8:96,int8:128:L3,int8:128:L2")
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    bench = load_benchmark("scifact", args.data_dir)
    docs = bench.documents[: args.queries * 50]
    chunks = [
        Chunk(
            chunk_id=f"{d.doc_id}#0", doc_id=d.doc_id, text=d.text, position=0, n_tokens=0, metadata={"title": d.title}
        )
        for d in docs
    ]
    # Queries: titles of other abstracts (claim-length sentences; the benchmark's claims are not used).
    queries = [d.title or d.text[:80] for d in bench.documents[-args.queries :]]
    with tempfile.TemporaryDirectory() as tmp:
        folders: dict[int | None, str] = {}

        def folder(layers: int | None) -> str:
            if args.model is not None:
                if layers is not None:
                    raise SystemExit("a trained --model has a fixed depth: drop the :L<n> variants")
                return args.model
            if layers not in folders:
                from training.reranker import load_cross_encoder

                folders[layers] = str(Path(tmp) / f"ce-{layers or 'all'}")
                load_cross_encoder(args.model, 512, layers=layers).save_pretrained(folders[layers])
            return folders[layers]

        variants = {}
        for v in args.variants.split(","):
            precision, length, *depth = v.split(":")
            layers = int(depth[0].removeprefix("L")) if depth else None
            variants[v] = CrossEncoderReranker(
                folder(layers), max_length=int(length), quantize=precision == "int8", cache_size=0
            )
        times: dict[str, list[float]] = {v: [] for v in variants}
        for r in variants.values():  # warm-up: first calls allocate
            r.score(queries[0], chunks[:50])
        for i, query in enumerate(queries):
            candidates = chunks[i * 50 : (i + 1) * 50]
            for v, r in variants.items():
                t0 = time.perf_counter()
                r.score(query, candidates)
                times[v].append(time.perf_counter() - t0)
    print(f"### rerank of 50 SciFact candidates, {len(queries)} queries, {args.threads} torch threads\n")
    print("| variant | p50 ms | p95 ms | vs fp32:256 (p50) |\n|---|---|---|---|")
    base = statistics.median(times[next(iter(times))])
    for v, ts in times.items():
        ordered = sorted(ts)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        print(f"| {v} | {1000 * statistics.median(ts):.0f} | {1000 * p95:.0f} | {base / statistics.median(ts):.2f}x |")


if __name__ == "__main__":
    main()
