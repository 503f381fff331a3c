"""Tasks from a folder of workbooks (session 53, issue 36): yield, skip reasons, hop and form mix, a seeded sample.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python benchmarks/datagen_sheets.py FOLDER_OR_INDEX --out OUT [--n 200] [--seed 1]
        [--hops 1-2 --hops 2-4] [--show 30] [--mix joins=0]

FOLDER_OR_INDEX: a folder of .xlsx / .xlsm (and .pptx) files, indexed into OUT/index first (`context1 index`),
or an index built already. For each --hops (default: the default command's 2-4, and 1-2) it runs
`context1 datagen INDEX OUT/hops-<h> --n N --seed S` (datagen.run.run_datagen, the default natural generator)
and prints:

1. reading: the index's table chunks, their row lines, and the row lines of another width than the columns they
   stand under, counted per table: the column line in the chunk when it shows one, else the columns its header
   carries (the chunker's cut rows; session 52 counted 3,010 of 6,736 on the reporting folder against the header
   alone); table chunks whose header carries no columns (must be 0);
2. facts: the grid readers' refusals by reason (datagen.grid_facts), statements, chains;
3. per run: tasks written of N, why it stopped, tasks by hops and by form (comparisons' share of multi-hop),
   drops by reason;
4. joins (datagen.grid_joins, session 56): links between two tables, joins found, proposed, asked across
   workbooks / sheets, and refused by reason;
5. the seeded sample of --show tasks (drawn over every run's tasks): question, answer, form, hops, and each
   supporting passage's quotes, to hand-read (natural / correct / genuine chain / leak).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _index(source: Path, out: Path) -> Path:
    """The index of `source`: itself when it is one, else OUT/index built from the folder."""
    if (source / "manifest.json").is_file():
        return source
    target = out / "index"
    if not (target / "manifest.json").is_file():
        from corpus_tools import Corpus

        Corpus.build(str(source), str(target))
    return target


def reading(index: Path) -> tuple[int, int, int, int]:
    """(table chunks, those whose header carries no columns, row lines, row lines of another width)."""
    from corpus_tools import Corpus
    from datagen.grid_facts import _context, _tables

    tables = lost = lines = odd = 0
    with Corpus.open(str(index)) as corpus:
        for doc in corpus.doc_ids():
            for c in corpus.chunks(doc):
                if c.metadata.get("kind") != "table":
                    continue
                tables += 1
                if not _context(c.metadata)[1]:
                    lost += 1
                for _caption, head, rows in _tables(c):
                    for line in rows:
                        lines += 1
                        odd += bool(head) and len(_cells(line)) != len(head)
    return tables, lost, lines, odd


def _cells(line: str) -> list[str]:
    from datagen.grid_facts import cells

    return cells(line)


def _read(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()] if path.is_file() else []


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hops", action="append", default=None, help="hop counts per run (repeatable); default 2-4 and 1-2")
    parser.add_argument("--show", type=int, default=30)
    parser.add_argument("--mix", default="", help="NaturalConfig keys, as `context1 datagen --mix` (joins=0: as before)")
    args = parser.parse_args(argv)
    from datagen.natural import parse_mix
    from datagen.pipeline import GenerateConfig, parse_hops
    from datagen.run import run_datagen

    args.out.mkdir(parents=True, exist_ok=True)
    index = _index(args.source, args.out)
    tables, lost, lines, odd = reading(index)
    print(f"## {args.source}\n\nreading: {tables} table chunks, {lost} without columns in their header; {lines} row "
          f"lines, {odd} of another width than the columns they stand under ({odd / max(lines, 1):.3f})\n")
    every: list[dict] = []
    stages: Counter = Counter()
    print("| hops | written / n | 1-hop | 2-hop | 3-4-hop | forms | comparisons / multi-hop | top drops | stopped |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in args.hops or ["2-4", "1-2"]:
        out = args.out / f"hops-{spec}"
        config = GenerateConfig(n=args.n, hops=parse_hops(spec), seed=args.seed)
        report, _split = run_datagen(index, out, config, progress=False, mix=parse_mix(args.mix) or None)
        tasks = _read(out / "tasks.jsonl")
        every += [{**t, "_run": spec} for t in tasks]
        stages = Counter(report.stages)
        hops = Counter(t["hops"] for t in tasks)
        forms = Counter(t["metadata"].get("grid_form") or t["metadata"].get("form", "?") for t in tasks)
        multi = [t for t in tasks if t["hops"] >= 2]
        compared = sum(1 for t in multi if t["metadata"].get("form") == "comparison")
        drops = ", ".join(f"{k} {v}" for k, v in Counter(report.drops).most_common(3))
        print(f"| {spec} | {len(tasks)} / {args.n} | {hops[1]} | {hops[2]} | {hops[3] + hops[4]} | "
              f"{', '.join(f'{k} {v}' for k, v in forms.most_common())} | {compared} / {len(multi)} | {drops} | "
              f"{report.stopped[:160]} |")
    grid = {k: v for k, v in stages.items() if k.startswith("grid")}
    print("\nfacts and chains (datagen.grid_facts, grid_tasks): " + ", ".join(f"{k} {v}" for k, v in sorted(grid.items())))
    from datagen.grid_joins import join_counts

    joins = join_counts(stages)
    refused = {k: v for k, v in joins.items() if k not in ("links", "links across workbooks", "joins", "proposed")
               and not k.startswith("asked") and not k.endswith("chains")}
    chains = ", ".join(f"{k.split('-')[0]}-hop {v}" for k, v in joins.items() if k.endswith("chains")) or "—"
    print("\n| join links (across workbooks) | chains by hops | joins found | proposed | asked across workbooks | "
          "asked across sheets | refused (by reason) |\n|---|---|---|---|---|---|---|")
    print(f"| {joins.get('links', 0)} ({joins.get('links across workbooks', 0)}) | {chains} | {joins.get('joins', 0)} | "
          f"{joins.get('proposed', 0)} | {joins.get('asked across workbooks', 0)} | {joins.get('asked across sheets', 0)} | "
          f"{', '.join(f'{k} {v}' for k, v in sorted(refused.items(), key=lambda kv: -kv[1])) or '—'} |")
    rng = random.Random(args.seed)
    sample = rng.sample(every, min(args.show, len(every)))
    print(f"\n### {len(sample)} tasks drawn (seed {args.seed}) of {len(every)}\n")
    from corpus_tools import Corpus

    with Corpus.open(str(index)) as corpus:
        for i, t in enumerate(sample, 1):
            meta = t.get("metadata") or {}
            print(f"{i}. [{t['_run']}, {meta.get('grid_form') or meta.get('form')}, {t['hops']} hop] {t['query']}")
            print(f"   answer: {t['answers'][0]!r}")
            for item in meta.get("supporting") or []:
                chunks = [_chunk(corpus, c) for c in item.get("chunk_ids", [])]
                for q in item.get("quotes", [])[:3]:
                    print(f"   - {item.get('doc_id')}: {' '.join(q.split())[:220]}")
                    print(f"     under: {_columns_over(chunks, q)[:220]}")


def _chunk(corpus: object, chunk_id: str) -> object:
    try:
        return corpus.chunk(chunk_id)  # type: ignore[attr-defined]
    except (KeyError, ValueError):
        return None


def _columns_over(chunks: list, quote: str) -> str:
    """The columns a quoted row stands under in its passage (the hand-reader checks the cell against them)."""
    from datagen.grid_facts import _tables

    for c in chunks:
        if c is None:
            continue
        for caption, head, rows in _tables(c):
            if any(quote.strip() == r.strip() for r in rows):
                return (f"[{caption}] " if caption else "") + " | ".join(head)
    return "?"


if __name__ == "__main__":
    main()
