"""How deep a corpus goes: the bridge chains of 2, 3 and 4 documents the natural generator finds
(datagen.chains), what stops the other paths of its link graph, and — with a generated task file —
the hop and form distribution of the tasks beside the real set's (issue 36).

    python benchmarks/datagen_depth.py --corpus musique --parse-cache RUN/musique-parse.spacy \
        [--tasks RUN/musique/tasks.jsonl] [--mix regions=1] [--recall]

--recall (MuSiQue, session 48) adds the chain recall of the tuning part's 3–4-hop questions: whether the
link graph holds each hop's link and why not (benchmarks/chain_recall.py), and how many of the finder's
chains share 2+ documents with a real question (reporting questions: gold paragraph ids only).

The corpus is the benchmark's paragraph pool chunked as the shared indexes are (the same chunk ids),
or --jsonl FILE (one {"id", "title", "text"} document a line) / --docs FOLDER. Only the corpus text
is read to find chains; the real questions are read only for the distribution row.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools import CorpusConfig, chunk_documents  # noqa: E402
from corpus_tools.build import make_tokenizer  # noqa: E402
from datagen.mining import mine  # noqa: E402
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix  # noqa: E402
from datagen.nlp import load_pipeline  # noqa: E402
from datagen.records import read_task_file  # noqa: E402
from datagen.relations import read_facts  # noqa: E402


def documents(args: argparse.Namespace):  # noqa: ANN201
    from corpus_tools import load_documents

    if args.jsonl or args.docs:
        return list(load_documents(args.jsonl or args.docs).documents)
    from eval.loaders import load_benchmark

    return load_benchmark(args.corpus, args.data_dir).documents


def config_of(mix: str) -> NaturalConfig:
    """The generator's config with `--mix` keys set (as `context1 datagen --mix` sets them)."""
    return NaturalConfig(**parse_mix(mix))


def real_mix(corpus: str, data_dir: str) -> tuple[Counter, Counter]:
    """(hops, forms) of the benchmark's real questions (MuSiQue: every question is compositional)."""
    from eval.loaders import load_benchmark

    hops: Counter = Counter()
    forms: Counter = Counter()
    for t in load_benchmark(corpus, data_dir).tasks:
        hops[t.hops or len(t.gold_doc_ids)] += 1
        forms[t.question_type or "?"] += 1
    return hops, forms


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--jsonl", default=None)
    ap.add_argument("--docs", default=None)
    ap.add_argument("--parse-cache", required=True, help="spaCy parse cache (reused when it holds this corpus)")
    ap.add_argument("--tasks", action="append", default=[], help="NAME=FILE of generated tasks (repeatable)")
    ap.add_argument("--recall", action="store_true",
                    help="MuSiQue: the chain recall of the tuning part's 3-4-hop questions (benchmarks/chain_recall.py)")
    ap.add_argument("--mix", default="", help="datagen --mix keys the generator is built with (e.g. deep_links=1)")
    args = ap.parse_args()

    docs = documents(args)
    chunks = list(chunk_documents(docs, make_tokenizer(CorpusConfig()), CorpusConfig().chunking))
    mined = mine(chunks)
    facts = read_facts(mined, load_pipeline(), parse_cache=Path(args.parse_cache))
    gen = NaturalGenerator(mined, facts, config_of(args.mix))
    index = gen.chains
    print(f"\n## {args.corpus}: {len(docs)} documents, {facts.n_facts()} facts, {facts.n_links()} fact links, "
          f"{len(index.hubs)} hubs\n")
    reasons = sorted({r for c in index.blocked.values() for r in c})
    print("| documents in chain | chains found | distinct end documents | " + " | ".join(reasons) + " |")
    print("| ---: | ---: | ---: | " + " | ".join("---:" for _ in reasons) + " |")
    for h in sorted(index.chains):
        ends = len({c.docs[-1] for c in index.chains[h]})
        row = [str(index.blocked[h].get(r, 0)) for r in reasons]
        print(f"| {h} | {len(index.chains[h])} | {ends} | " + " | ".join(row) + " |")

    # what stops the rest: where the deeper paths that are no chain end, by reason (issue 36)
    for h in sorted(index.chains):
        if h < 3:
            continue
        found = ", ".join(f"{facts.names.get(d) or d} ×{n}" for d, n in index.ends(h).most_common())
        print(f"\n{h}-document chains end on: {found or 'none'}")
        for why, ends in sorted(index.blocked_ends[h].items()):
            top = ", ".join(f"{facts.names.get(d) or d} ×{n}" for d, n in ends.most_common(8))
            print(f"- {why}: {top}")

    if args.recall:
        from chain_recall import chain_overlap, recall_table
        from policy_tasks import parts

        tuning, report = parts(args.corpus, Path(args.data_dir))
        print(recall_table(gen, docs, tuning, args.data_dir))
        print("\n## the finder's chains that are (most of) a real question's chain (2+ documents shared)\n")
        print(chain_overlap(gen, tuning, report))

    if args.tasks:
        print("\n| set | tasks | 1 hop | 2 hops | 3 hops | 4 hops | bridges with 3-4 hops | comparison share of multi-hop |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        if not (args.jsonl or args.docs):
            hops, forms = real_mix(args.corpus, args.data_dir)
            multi = sum(v for k, v in hops.items() if k > 1)
            deep = sum(v for k, v in hops.items() if k > 2)
            comp = forms.get("comparison", 0)
            print(f"| real ({args.corpus}) | {sum(hops.values())} | {hops[1]} | {hops[2]} | {hops[3]} | {hops[4]} | "
                  f"{deep / max(multi - comp, 1):.2f} | {comp / max(multi, 1):.2f} |")
        for spec in args.tasks:
            name, _, path = spec.partition("=")
            tasks = read_task_file(path)
            hops = Counter(t.hops for t in tasks)
            bridges = [t for t in tasks if t.hops > 1 and t.metadata.get("form") == "bridge"]
            multi = [t for t in tasks if t.hops > 1]
            comp = sum(1 for t in multi if t.metadata.get("form") == "comparison")
            deep = sum(1 for t in bridges if t.hops > 2)
            print(f"| {name} | {len(tasks)} | {hops[1]} | {hops[2]} | {hops[3]} | {hops[4]} | "
                  f"{deep / max(len(bridges), 1):.2f} ({deep} of {len(bridges)}) | {comp / max(len(multi), 1):.2f} |")


if __name__ == "__main__":
    main()
