"""`ask` (the LLM-free agent) against one `search`, single-document questions: top-1/top-5, documents
returned, time, and the passage each answer quotes.

    python benchmarks/ask_vs_search.py [--index runs/office-index] [--pdfs FOLDER --questions FILE]

Default data: tests/fixtures/office_corpus (10-Q-style reports and mail; questions.jsonl holds the
gold document of each question). `--pdfs`/`--questions` run it on any folder (e.g. real filings)
with a JSONL of {"question", "gold_doc_ids"}. `search` ranks documents by their best chunk among
the top 25 hybrid hits; `ask` is `SearchAgent(corpus).run` with the default iterative policy.
Prints a markdown table per question (the answering passage is the quote that opens the first
gold document's justification) and a summary row.

Issue 24, the shorter answer measured on multi-document benchmarks (one command for the table):

    python benchmarks/ask_vs_search.py --benchmark hotpotqa musique --index-root /work/indexes \
        --data-dir /work/shared/data --limit 100 [--part report|tune] [--ratios 0.3,0.4,0.5,0.6]

Questions: `load_benchmark(name, data_dir).tasks` with gold documents, the part chosen by
benchmarks/reranker_quality.py's task-id hash (`part_of`; "tune" is 25 %, "report" the rest), in
hash order, first --limit. Index: INDEX_ROOT/bench-{name}-256. Rows: `ask` with the default
`IterativeConfig` (evidence_ratio 0.3 since this table), `ask` with evidence_ratio=0 (the old full
list of up to 10), and one hybrid search (`corpus.search(q, k=50)`, first 10 distinct documents). `--ratios`
adds rows derived from the evidence_ratio=0 run: the cut is applied after all searching, to the
scores the answer writes (4 decimals), so a ratio row is that run's list cut at ratio × best score,
with the same searching time. Columns: R@2 / R@5 (mean share of gold documents in the top 2 / 5),
all-R@10 (share of questions with every gold document in the returned list, at most 10), mean
documents returned, output precision (gold share of the returned documents), wall seconds per
question. Per-question JSONL under benchmarks/out/ask_vs_search/.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OFFICE = ROOT / "tests" / "fixtures" / "office_corpus"


def _index(source: Path, path: Path) -> Any:
    from corpus_tools import Corpus, load_documents

    if (path / "manifest.json").exists():
        return Corpus.open(path)
    docs = [d for d in load_documents(source).documents if not d.doc_id.endswith((".jsonl", "README.md"))]
    return Corpus.build(docs, path, progress=False)


def search_docs(corpus: Any, question: str, n: int = 5) -> list[str]:
    out: list[str] = []
    for hit in corpus.search(question, k=25):
        if hit.chunk.doc_id not in out:
            out.append(hit.chunk.doc_id)
    return out[:n]


def _metrics(docs: list[str], gold: set[str]) -> dict[str, float]:
    found = lambda k: sum(1 for g in gold if g in docs[:k])  # noqa: E731
    return {"r2": found(2) / len(gold), "r5": found(5) / len(gold), "all10": float(found(10) == len(gold)),
            "n": float(len(docs)), "precision": found(10) / len(docs) if docs else 0.0}


def cut(documents: list[Any], ratio: float) -> list[str]:
    """The answer `IterativeConfig(evidence_ratio=ratio)` gives, from a ratio-0 answer's scores."""
    if not documents or ratio <= 0:
        return [d.doc_id for d in documents]
    floor = ratio * documents[0].score
    return [d.doc_id for d in documents if d.score >= floor] or [documents[0].doc_id]


def benchmark(args: argparse.Namespace) -> None:
    """The issue-24 table: ask (default ratio) vs ask (ratio 0) vs one hybrid search, per corpus."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from agent_llm_free import hybrid_docs
    from reranker_quality import select

    from context1 import SearchAgent
    from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy
    from corpus_tools import Corpus
    from eval.loaders import load_benchmark

    default_ratio = IterativeConfig().evidence_ratio
    ratios = [float(r) for r in args.ratios.split(",") if r.strip()] if args.ratios else []
    out_dir = ROOT / "benchmarks" / "out" / "ask_vs_search"
    out_dir.mkdir(parents=True, exist_ok=True)
    lines = ["| set | retriever | questions | R@2 | R@5 | all-R@10 (all gold returned) | docs returned | "
             "out. precision | s / question |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in args.benchmark:
        tasks = select(load_benchmark(name, args.data_dir).tasks, args.part, args.limit)
        corpus = Corpus.open(args.index_root / f"bench-{name}-256")
        agents = {"full": SearchAgent(corpus, IterativeRetrievalPolicy(corpus, IterativeConfig(evidence_ratio=0)))}
        if not args.skip_default:
            agents["default"] = SearchAgent(corpus)
        agents["full"].run(tasks[0].query)  # warm-up: model load and caches are not the policy's time
        rows: dict[str, list[dict]] = {}
        log = (out_dir / f"{name}-{args.part}.jsonl").open("w", encoding="utf-8")
        for i, task in enumerate(tasks):
            gold = set(task.gold_doc_ids)
            rec: dict[str, Any] = {"id": task.task_id, "gold": sorted(gold)}
            t0 = time.perf_counter()
            hybrid = hybrid_docs(corpus, task.query, k=10)
            rec["hybrid"] = {"docs": hybrid, "s": time.perf_counter() - t0}
            for key, agent in agents.items():
                t0 = time.perf_counter()
                result = agent.run(task.query)
                rec[key] = {"docs": result.doc_ids, "s": time.perf_counter() - t0,
                            "scores": [d.score for d in result.documents]}
                if key == "full":
                    full_docs = result.documents
            for ratio in ratios:
                rec[f"cut{ratio:g}"] = {"docs": cut(full_docs, ratio), "s": rec["full"]["s"]}
            if "default" in rec:  # the derivation must match the real default run
                rec["derived_default_matches"] = cut(full_docs, default_ratio) == rec["default"]["docs"]
            for key in [k for k in rec if isinstance(rec[k], dict)]:
                rows.setdefault(key, []).append({**_metrics(rec[key]["docs"], gold), "s": rec[key]["s"]})
            log.write(json.dumps(rec) + "\n")
            log.flush()
            print(f"[{name} {i + 1}/{len(tasks)}]", flush=True)
        log.close()
        corpus.close()
        labels = {"default": f"ask, default (evidence_ratio={default_ratio:g})",
                  "full": "ask, evidence_ratio=0 (old full list)", "hybrid": "one hybrid search (top 10 documents)"}
        for key, part in rows.items():
            label = labels.get(key) or f"ask, evidence_ratio={key[3:]} (cut of the ratio-0 run)"

            def m(k: str, part: list[dict] = part) -> float:
                return sum(r[k] for r in part) / len(part)

            lines.append(f"| {name} | {label} | {len(part)} | {m('r2'):.3f} | {m('r5'):.3f} | {m('all10'):.3f} | "
                         f"{m('n'):.1f} | {m('precision'):.3f} | {m('s'):.2f} |")
        if "default" in agents:
            log_rows = [json.loads(x) for x in (out_dir / f"{name}-{args.part}.jsonl").read_text().splitlines()]
            same = sum(r["derived_default_matches"] for r in log_rows)
            lines.append(f"| {name} | (check: ratio-0 list cut at {default_ratio:g} == default run) | {len(log_rows)} "
                         f"| {same}/{len(log_rows)} | | | | | |")
        print("\n".join(lines), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--benchmark", nargs="+", choices=["hotpotqa", "musique", "locomo"],
                        help="run the issue-24 table on these benchmarks instead of the single-document fixture")
    parser.add_argument("--index-root", type=Path, default=Path("/work/indexes"),
                        help="folder holding bench-{name}-256 indexes (default: %(default)s)")
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data",
                        help="benchmark data folder (default: %(default)s)")
    parser.add_argument("--limit", type=int, default=100, help="questions per benchmark (default: %(default)s)")
    parser.add_argument("--part", choices=["report", "tune", "all"], default="report",
                        help="task-id hash part (reranker_quality.part_of; default: %(default)s)")
    parser.add_argument("--ratios", default="", help="comma-separated evidence ratios cut from the ratio-0 run")
    parser.add_argument("--evidence-ratio", type=float, default=None,
                        help="single-document mode: run ask with this IterativeConfig.evidence_ratio "
                             "(default: the policy's default)")
    parser.add_argument("--skip-default", action="store_true",
                        help="do not run the default agent (ratio rows are derived from the ratio-0 run)")
    parser.add_argument("--index", type=Path, default=ROOT / "runs" / "office-index")
    parser.add_argument("--pdfs", type=Path, default=OFFICE, help="folder of documents")
    parser.add_argument("--questions", type=Path, default=OFFICE / "questions.jsonl")
    args = parser.parse_args()
    if args.benchmark:
        benchmark(args)
        return
    from context1 import SearchAgent
    from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy

    corpus = _index(args.pdfs, args.index)
    ratio = IterativeConfig().evidence_ratio if args.evidence_ratio is None else args.evidence_ratio
    agent = SearchAgent(corpus, IterativeRetrievalPolicy(corpus, IterativeConfig(evidence_ratio=ratio)))
    print(f"ask: IterativeConfig(evidence_ratio={ratio:g})")
    tasks = [json.loads(line) for line in args.questions.read_text(encoding="utf-8").splitlines() if line.strip()]
    agent.run(tasks[0]["question"])  # warm-up: model load and caches are not the policy's time
    rows, totals = [], {"s1": 0, "s5": 0, "a1": 0, "a5": 0, "docs": 0, "ts": 0.0, "ta": 0.0}
    for task in tasks:
        q, gold = task["question"], set(task["gold_doc_ids"])
        started = time.perf_counter()
        found = search_docs(corpus, q)
        totals["ts"] += time.perf_counter() - started
        started = time.perf_counter()
        result = agent.run(q)
        totals["ta"] += time.perf_counter() - started
        asked = result.doc_ids
        s_rank = next((i for i, d in enumerate(found, 1) if d in gold), None)
        a_rank = next((i for i, d in enumerate(asked, 1) if d in gold), None)
        totals["s1"] += s_rank == 1
        totals["s5"] += s_rank is not None and s_rank <= 5
        totals["a1"] += a_rank == 1
        totals["a5"] += a_rank is not None and a_rank <= 5
        totals["docs"] += len(asked)
        gold_doc = next((d for d in result.documents if d.doc_id in gold), None)
        quote = gold_doc.justification.split("”")[0].lstrip("“") if gold_doc else "(gold not returned)"
        top = result.documents[0].score if result.documents else 0.0
        rows.append((task.get("id", ""), q, s_rank or "–", a_rank or "–", len(asked), f"{top:.2f}", quote[:160]))
    print("| id | question | search rank | ask rank | ask docs | ask top score | answering passage (quoted by ask) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for row in rows:
        print("| " + " | ".join(str(c).replace("|", "/") for c in row) + " |")
    n = len(tasks)
    print(f"\n| {n} questions | top-1 | top-5 | mean docs returned | s/question |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| search (top 25 hits → documents) | {totals['s1']}/{n} | {totals['s5']}/{n} | 5 | {totals['ts'] / n:.2f} |")
    print(f"| ask (iterative policy) | {totals['a1']}/{n} | {totals['a5']}/{n} | {totals['docs'] / n:.1f} | "
          f"{totals['ta'] / n:.2f} |")


if __name__ == "__main__":
    main()
