"""Retrieval quality with the approximate dense leg forced on, against the exact leg, on the dev benchmarks.

Each benchmark index (only read: copied first) gets a FAISS index of its vectors whatever its size
(`index_format.write_ann(..., min_lines=0)`: the lists and nprobe the code would use at that
size), then every question is searched twice, with the ANN and with the same index searching
exactly: hybrid and dense-leg gold-document recall@10, how often the hybrid top-10 lists are
identical, and the dense leg's recall@100 of exact. --nprobe-fraction 0.25 probes the share of
lists a 1M-line index probes (256 of 1,024). All questions of each benchmark (these are
the dev halves; no parameter was tuned on them: nprobe came from benchmarks/ann_choice.py).

  PYTHONPATH=. HF_HUB_OFFLINE=1 OMP_NUM_THREADS=1 nice -n 15 .venv/bin/python benchmarks/ann_quality.py \\
      --indexes /work/indexes/bench-hotpotqa-256 /work/indexes/bench-musique-256 --work /work/runs/ann-quality
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _recall(doc_ids: list[str], gold: set[str]) -> float:
    return len(set(doc_ids) & gold) / len(gold)


def compare(index: Path, work: Path, data_dir: str, limit: int | None, fraction: float | None) -> dict[str, float]:
    from corpus_tools import Corpus
    from corpus_tools.index_format import MANIFEST, read_manifest, write_ann, write_json_atomic
    from eval.loaders import load_benchmark

    name = index.name.removeprefix("bench-").split("-")[0]
    tasks = [t for t in load_benchmark(name, data_dir).tasks if t.gold_doc_ids][:limit]
    copy = work / f"{index.name}-ann"
    if not copy.exists():
        shutil.copytree(index, copy)
        manifest = read_manifest(copy)
        write_ann(copy, manifest, int(manifest.get("generation", 0)), min_lines=0)
        write_json_atomic(copy / MANIFEST, manifest)
    rows: dict[str, list[float]] = {k: [] for k in ("hybrid_exact", "hybrid_ann", "dense_exact", "dense_ann",
                                                      "hybrid_same", "dense100_recall")}
    with Corpus.open(copy) as corpus:
        vectors = corpus._state.vectors
        ann = vectors.ann
        assert ann is not None, corpus.dense_note
        if fraction is not None:  # probe the share of lists a 1M-line index probes
            ann.nprobe = max(1, round(fraction * ann.nlist))
        for task in tasks:
            gold = set(task.gold_doc_ids)
            found = {}
            for mode in ("exact", "ann"):
                vectors.ann = ann if mode == "ann" else None
                hybrid = corpus.search(task.query, k=10)
                dense = corpus.search_leg(task.query, "dense", k=100)
                rows[f"hybrid_{mode}"].append(_recall([h.chunk.doc_id for h in hybrid], gold))
                rows[f"dense_{mode}"].append(_recall([h.chunk.doc_id for h in dense[:10]], gold))
                found[mode] = ([h.chunk.chunk_id for h in hybrid], {h.chunk.chunk_id for h in dense})
            rows["hybrid_same"].append(float(found["exact"][0] == found["ann"][0]))
            rows["dense100_recall"].append(len(found["exact"][1] & found["ann"][1]) / max(len(found["exact"][1]), 1))
        vectors.ann = ann
    out = {k: statistics.fmean(v) for k, v in rows.items()}
    out.update(queries=len(tasks), chunks=len(corpus), nlist=ann.nlist, nprobe=ann.nprobe)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--indexes", nargs="+", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--data-dir", default="/work/shared/data")
    parser.add_argument("--queries", type=int, default=None)
    parser.add_argument("--nprobe-fraction", type=float, default=None,
                        help="probe this share of the lists instead of NPROBE (0.25: what 1M lines probe, 256 of 1,024)")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    print("| index | chunks | queries | nlist/nprobe | hybrid R@10 exact → ANN | dense R@10 exact → ANN "
          "| hybrid top 10 identical | dense recall@100 of exact |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for index in args.indexes:
        r = compare(index, args.work, args.data_dir, args.queries, args.nprobe_fraction)
        print(f"| {index.name} | {r['chunks']:,} | {r['queries']} | {r['nlist']}/{r['nprobe']} | "
              f"{r['hybrid_exact']:.4f} → {r['hybrid_ann']:.4f} | {r['dense_exact']:.4f} → {r['dense_ann']:.4f} | "
              f"{r['hybrid_same']:.3f} | {r['dense100_recall']:.4f} |", flush=True)
        (args.work / f"{index.name}.json").write_text(json.dumps(r, indent=2))


if __name__ == "__main__":
    main()
