"""The dense leg's exact matrix search against Chroma's HNSW, on the same index and queries.

For each benchmark index: a copy as it is (no vector matrix: the dense leg asks Chroma) and a copy
given its matrix by `context1 repair` (the same vectors, searched exactly). Per query, both
answer the dense leg alone (top 100, as hybrid search fuses it, and top 10) and the hybrid search;
the table gives the overlap of the two sides' lists, how often the top-10 lists are identical, and
gold-document recall@10 for each side. The source indexes are only read (copied first).

  HF_HUB_OFFLINE=1 PYTHONPATH=. .venv/bin/python benchmarks/dense_exact.py \\
      --indexes /work/indexes/bench-hotpotqa-256 /work/indexes/bench-musique-256 --work /work/runs/exact \\
      --data-dir ../shared/data --queries 300
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _recall(doc_ids: list[str], gold: set[str]) -> float:
    return len(set(doc_ids) & gold) / len(gold) if gold else float("nan")


def compare(index: Path, work: Path, data_dir: str, n_queries: int) -> dict[str, float]:
    from corpus_tools import Corpus, repair_vectors
    from eval.loaders import load_benchmark

    name = index.name.removeprefix("bench-").split("-")[0]
    tasks = [t for t in load_benchmark(name, data_dir).tasks if t.gold_doc_ids][:n_queries]
    chroma, matrix = work / f"{index.name}-chroma", work / f"{index.name}-matrix"
    for copy in (chroma, matrix):
        if not copy.exists():
            shutil.copytree(index, copy)
    with Corpus.open(matrix) as probe:
        has_matrix = probe._state.vectors is not None
    if not has_matrix:
        repair_vectors(matrix)
    rows: dict[str, list[float]] = {k: [] for k in ("dense100_overlap", "dense_overlap", "dense_same", "hybrid_overlap", "hybrid_same",
                                                      "dense_recall_chroma", "dense_recall_exact",
                                                      "hybrid_recall_chroma", "hybrid_recall_exact")}
    with Corpus.open(chroma) as a, Corpus.open(matrix) as b:
        assert a._state.vectors is None and b._state.vectors is not None
        for task in tasks:
            gold = set(task.gold_doc_ids)
            # The dense leg as hybrid search uses it: its top leg_k (100), HNSW's recall against exact.
            deep_a = {h.chunk.chunk_id for h in a.search_leg(task.query, "dense", k=100)}
            deep_b = {h.chunk.chunk_id for h in b.search_leg(task.query, "dense", k=100)}
            rows["dense100_overlap"].append(len(deep_a & deep_b) / max(len(deep_b), 1))
            for leg, search in (("dense", lambda c, q: c.search_leg(q, "dense", k=10)),
                                ("hybrid", lambda c, q: c.search(q, k=10))):
                hits_a, hits_b = search(a, task.query), search(b, task.query)
                ids_a, ids_b = [h.chunk.chunk_id for h in hits_a], [h.chunk.chunk_id for h in hits_b]
                rows[f"{leg}_overlap"].append(len(set(ids_a) & set(ids_b)) / max(len(ids_a), 1))
                rows[f"{leg}_same"].append(float(ids_a == ids_b))
                rows[f"{leg}_recall_chroma"].append(_recall([h.chunk.doc_id for h in hits_a], gold))
                rows[f"{leg}_recall_exact"].append(_recall([h.chunk.doc_id for h in hits_b], gold))
    out = {k: statistics.fmean(v) for k, v in rows.items()}
    out["queries"] = len(tasks)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--indexes", nargs="+", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True, help="where the two copies of each index go")
    parser.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    args.work.mkdir(parents=True, exist_ok=True)
    print("| index | queries | dense top 100: HNSW's recall of exact | dense top 10: overlap | dense lists identical "
          "| hybrid top 10: overlap | hybrid identical | dense R@10 Chroma → exact | hybrid R@10 Chroma → exact |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for index in args.indexes:
        r = compare(index, args.work, args.data_dir, args.queries)
        print(f"| {index.name} | {r['queries']} | {r['dense100_overlap']:.4f} | {r['dense_overlap']:.4f} | {r['dense_same']:.3f} | "
              f"{r['hybrid_overlap']:.4f} | {r['hybrid_same']:.3f} | {r['dense_recall_chroma']:.4f} → "
              f"{r['dense_recall_exact']:.4f} | {r['hybrid_recall_chroma']:.4f} → {r['hybrid_recall_exact']:.4f} |",
              flush=True)


if __name__ == "__main__":
    main()
