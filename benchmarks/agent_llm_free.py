"""The LLM-free policy against single-shot hybrid search, on questions it was not tuned on.

    HF_HUB_OFFLINE=1 python benchmarks/agent_llm_free.py --data-dir ../shared/data --index-root indexes

Sets and splits (the policy's weights were chosen on the "tuning" part only; docs/LOG.md):
  hotpotqa  tuning = questions 1-150, report = 151-449   (index bench-hotpotqa-256)
  musique   tuning = questions 1-120, report = 121-250   (index bench-musique-256)
  locomo    never tuned on: report = the first --locomo-limit questions with evidence (locomo-turn-256)
  office    tests/fixtures/office_corpus (filings with Item/Part boilerplate, mail, one German
            mail); its questions.jsonl marks 4 "tuning" and 10 "report" questions; indexed on first use.

Both retrievers return 10 documents. Hybrid = `Corpus.search` (BM25 ∥ dense, RRF, no reranker), 50
chunks fetched, a document ranked at its best chunk. Prints one markdown table (R@10 = mean recall
of the gold documents in the top 10; all-R@10 = share of questions with every gold document in it)
and writes per-question JSONL under benchmarks/out/agent_llm_free/.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SPLITS = {"hotpotqa": 150, "musique": 120}
INDEX = {"hotpotqa": "bench-hotpotqa-256", "musique": "bench-musique-256", "locomo": "locomo-turn-256"}
OFFICE = ROOT / "tests" / "fixtures" / "office_corpus"


def hybrid_docs(corpus, query: str, k: int = 10) -> list[str]:
    out: list[str] = []
    for hit in corpus.search(query, k=5 * k):
        if hit.chunk.doc_id not in out:
            out.append(hit.chunk.doc_id)
        if len(out) == k:
            break
    return out


def scores(ranked: list[str], gold: list[str], k: int = 10) -> tuple[float, float]:
    top = set(ranked[:k])
    found = sum(1 for g in gold if g in top)
    return found / len(gold), float(found == len(gold))


def load_questions(name: str, data_dir: Path, locomo_limit: int) -> list[dict]:
    if name == "office":
        rows = [json.loads(line) for line in (OFFICE / "questions.jsonl").read_text().splitlines() if line.strip()]
        return [{"id": r["id"], "query": r["question"], "gold": r["gold_doc_ids"], "split": r["split"]} for r in rows]
    from eval.loaders import load_benchmark

    tasks = [t for t in load_benchmark(name, data_dir).tasks if t.gold_doc_ids]
    if name == "locomo":
        tasks = tasks[:locomo_limit]
    cut = SPLITS.get(name, 0)
    return [{"id": t.task_id, "query": t.query, "gold": list(t.gold_doc_ids),
             "split": "tuning" if i < cut else "report"} for i, t in enumerate(tasks)]


def open_corpus(name: str, index_root: Path):
    from corpus_tools import Corpus, load_documents

    if name == "office":
        path = ROOT / "benchmarks" / "out" / "office-index"
        if not path.exists():
            docs = [d for d in load_documents(OFFICE).documents if d.doc_id.startswith(("reports/", "mail/"))]
            Corpus.build(docs, path, progress=False).close()
        return Corpus.open(path)
    return Corpus.open(index_root / INDEX[name])


def policy(corpus, overrides: list[str]):
    """The LLM-free policy with IterativeConfig fields overridden (`--set entity_link_weight=0.5`)."""
    import dataclasses

    from context1.backends import IterativeRetrievalPolicy
    from context1.backends.iterative import IterativeConfig

    fields = {f.name: f.type for f in dataclasses.fields(IterativeConfig)}
    values = {}
    for item in overrides:
        key, _, value = item.partition("=")
        if key not in fields:
            raise SystemExit(f"--set {item!r}: IterativeConfig has no field {key!r}; fields: {sorted(fields)}")
        default = getattr(IterativeConfig(), key)
        values[key] = (value.lower() in ("1", "true", "yes")) if isinstance(default, bool) else type(default)(value)
    return IterativeRetrievalPolicy(corpus, IterativeConfig(**values))


def run_set(name: str, args: argparse.Namespace) -> list[dict]:
    from context1 import SearchAgent

    questions = load_questions(name, args.data_dir, args.locomo_limit)
    if args.split != "all":
        questions = [q for q in questions if q["split"] == args.split]
    if args.limit:
        questions = questions[: args.limit]
    corpus = open_corpus(name, args.index_root)
    agent = SearchAgent(corpus, policy(corpus, args.set))
    out_path = ROOT / "benchmarks" / "out" / "agent_llm_free" / f"{name}{args.out_tag}.jsonl"
    out_path.parent.mkdir(parents=True, exist_ok=True)

    def one(q: dict) -> dict:
        t0 = time.perf_counter()
        result = agent.run(q["query"])
        agent_s = time.perf_counter() - t0
        hybrid = hybrid_docs(corpus, q["query"])
        row = {**q, "agent": result.doc_ids, "hybrid": hybrid, "turns": len(result.trajectory.steps), "agent_s": agent_s}
        for k in (2, 5, 10):
            row[f"agent_r{k}"], row[f"agent_all{k}"] = scores(result.doc_ids, q["gold"], k)
            row[f"hybrid_r{k}"], row[f"hybrid_all{k}"] = scores(hybrid, q["gold"], k)
        return row

    with ThreadPoolExecutor(args.workers) as pool:
        rows = list(pool.map(one, questions))
    with out_path.open("w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    return rows


def table(results: dict[str, list[dict]]) -> str:
    lines = ["| set | split | questions | R@10 hybrid / LLM-free | all-R@10 hybrid / LLM-free | "
             "R@5 hybrid / LLM-free | all-R@5 hybrid / LLM-free | R@2 hybrid / LLM-free |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, rows in results.items():
        for split in ("report", "tuning"):
            part = [r for r in rows if r["split"] == split]
            if not part:
                continue
            def pair(key: str, part: list[dict] = part) -> str:
                mean = [sum(r[f"{who}_{key}"] for r in part) / len(part) for who in ("hybrid", "agent")]
                return f"{mean[0]:.3f} / {mean[1]:.3f}"

            lines.append(f"| {name} | {split} | {len(part)} | {pair('r10')} | {pair('all10')} | {pair('r5')} | "
                         f"{pair('all5')} | {pair('r2')} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--index-root", type=Path, default=ROOT / "indexes")
    parser.add_argument("--sets", default="office,hotpotqa,musique,locomo")
    parser.add_argument("--split", choices=("all", "report", "tuning"), default="all")
    parser.add_argument("--limit", type=int, default=0, help="most questions per set (0 = all)")
    parser.add_argument("--locomo-limit", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="override an IterativeConfig field (repeatable), e.g. entity_link_weight=0.5")
    parser.add_argument("--out-tag", default="", help="suffix of the per-question JSONL files")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    results = {}
    for name in args.sets.split(","):
        t0 = time.perf_counter()
        results[name] = run_set(name, args)
        print(f"[{name}: {len(results[name])} questions in {time.perf_counter() - t0:.0f} s]", file=sys.stderr, flush=True)
        print(table({name: results[name]}), file=sys.stderr, flush=True)
    print(table(results))


if __name__ == "__main__":
    main()
