"""Offline-generated task sets over the dev corpora (what runs/tasks holds), with a table of the run.

--form natural (default) writes questions from a parse of the corpus (datagen.natural; the parse
is cached beside --out as <stem>-parse.spacy); --form cloze the masked windows of datagen.offline.

The corpus is a benchmark's paragraph pool (`eval.loaders.load_benchmark(name).documents`, the same
documents and doc ids the shared indexes `indexes/bench-<name>-256` are built from), chunked with
the default `CorpusConfig` (256 tokens), so chunk ids equal the index's. Tasks come from the
corpus TEXT only; the benchmark's questions and answers are never read.

With --index (an index of the same corpus) every multi-hop candidate is searched once: candidates
one hybrid search solves are dropped and distractors are kept, as `context1 datagen` does.

    python benchmarks/datagen_tasksets.py --corpus hotpotqa --n 1500 --hops 1,2,2,3,4 \
        --index indexes/bench-hotpotqa-256 --out runs/tasks/hotpotqa-offline.jsonl
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools import CorpusConfig, chunk_documents  # noqa: E402
from corpus_tools.build import make_tokenizer  # noqa: E402
from datagen.mining import mine  # noqa: E402
from datagen.offline import OfflineGenerator  # noqa: E402
from datagen.pipeline import GenerateConfig, corpus_searcher, generate  # noqa: E402
from datagen.records import read_task_file  # noqa: E402
from datagen.split import split_tasks  # noqa: E402
from eval.loaders import load_benchmark, save_tasks  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True, help="hotpotqa, musique, scifact, locomo, or any name with --docs")
    ap.add_argument("--docs", default=None, help="a folder of files instead of a benchmark's paragraphs "
                    "(e.g. tests/fixtures/office_corpus: its reports/ and mail/, as `context1 index` reads them)")
    ap.add_argument("--jsonl", default=None, help="a JSONL export instead (one {id, title, text} document a "
                    "line, as a user would export conversations: one session a record)")
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--hops", default="1,2,3,4", help="comma list; repeat a value to weight it")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--index", default=None, help="index of the same corpus: hardness filter + distractors")
    ap.add_argument("--out", required=True)
    ap.add_argument("--test-fraction", type=float, default=0.2)
    ap.add_argument("--form", choices=("natural", "cloze"), default="natural")
    ap.add_argument("--bm25-budget", type=float, default=GenerateConfig.bm25_budget)
    ap.add_argument("--comparison-share", type=float, default=None,
                    help="natural: the largest share of the multi-hop output that is comparisons (0: bridges only)")
    ap.add_argument("--mix", default="", help="natural: comparison=SHARE,relation=SHARE,order=SHARE (context1 datagen --mix)")
    args = ap.parse_args()

    if args.jsonl:
        from corpus_tools import load_documents

        docs = list(load_documents(args.jsonl).documents)
    elif args.docs:
        from corpus_tools import load_documents

        # the folder's README and question file are about the corpus, not in it
        docs = [d for d in load_documents(args.docs).documents if not d.doc_id.endswith((".md", ".jsonl"))]
    else:
        docs = load_benchmark(args.corpus, args.data_dir).documents  # the corpus only: the questions are not used
    start = time.perf_counter()
    chunks = list(chunk_documents(docs, make_tokenizer(CorpusConfig()), CorpusConfig().chunking))
    mined = mine(chunks)
    mine_s = time.perf_counter() - start
    corpus = searcher = None
    if args.index:
        from corpus_tools import Corpus

        corpus = Corpus.open(args.index)
        missing = [c.chunk_id for c in chunks[:200] if c.chunk_id not in {h.chunk_id for h in corpus.chunks(c.doc_id)}]
        if missing:
            sys.exit(f"the index {args.index} does not hold this corpus's chunks (e.g. {missing[:2]})")
        searcher = corpus_searcher(corpus)
    hops = tuple(int(h) for h in args.hops.split(","))
    config = GenerateConfig(
        n=args.n, hops=hops, seed=args.seed, source=f"datagen:{args.form}:{args.corpus}", patience=400,
        bm25_budget=args.bm25_budget if args.bm25_budget < 1 else None,
    )
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    parse_s = 0.0
    if args.form == "natural":
        from datagen.natural import NaturalGenerator
        from datagen.nlp import load_pipeline
        from datagen.relations import read_facts

        t0 = time.perf_counter()
        facts = read_facts(mined, load_pipeline(), parse_cache=out.with_name(out.stem + "-parse.spacy"))
        parse_s = time.perf_counter() - t0
        from datagen.natural import NaturalConfig, parse_mix

        options = parse_mix(args.mix)
        if args.comparison_share is not None:
            options["comparison_share"] = args.comparison_share
        generator = NaturalGenerator(mined, facts, NaturalConfig(**options))
    else:
        generator = OfflineGenerator(mined)
    report = generate(generator, mined, out, config, searcher=searcher)
    tasks = read_task_file(out)
    split = split_tasks(tasks, test_fraction=args.test_fraction, seed=args.seed)
    stem = out.with_suffix("")
    save_tasks(split.train, f"{stem}-train.jsonl")
    save_tasks(split.test, f"{stem}-test.jsonl")
    if corpus is not None:
        corpus.close()

    gen_s = report.seconds
    print(f"\n## {args.corpus}: {len(docs)} documents, {len(chunks)} chunks, {mined.n_links()} links\n")
    print("| figure | value |\n| --- | --- |")
    rows = [
        ("tasks written this run / in file", f"{report.written} / {len(tasks)}"),
        ("proposed", report.attempted),
        ("mining s", f"{mine_s:.1f}"),
        ("parse + facts s (natural; the parse is cached)", f"{parse_s:.1f}"),
        ("forms (this run)", dict(sorted((k, v) for k, v in report.stages.items() if k.startswith("form:")))),
        ("generation s", f"{gen_s:.1f}"),
        ("tasks per minute (generation)", f"{report.written / max(gen_s, 1e-9) * 60:.0f}"),
        ("hops (this run)", dict(sorted(report.by_hops.items()))),
        ("truth types (this run)", dict(sorted(report.by_truth_type.items()))),
        ("drops", dict(report.drops.most_common())),
        ("distractors dropped (hold the answer)", report.distractors_dropped),
        ("split train / test / left out", f"{len(split.train)} / {len(split.test)} / {len(split.dropped)}"),
        ("stopped", report.stopped),
    ]
    for k, v in rows:
        print(f"| {k} | {v} |")


if __name__ == "__main__":
    main()
