"""Datagen on a folder of a user's office documents (session 53, issue 36): Word, RTF and OpenDocument files.

    python benchmarks/datagen_office.py INDEX --out OUT [--n 200] [--seed 1] [--hops 2-4] [--show 30] [--sheet-seed 5301]
                                                         [--no-base]

For INDEX (`context1 index FOLDER INDEX`): office documents indexed, how many a question can name
(`datagen.doc_office.office_names`) and why the others cannot, the facts `datagen.doc_office` reads by kind
(distinct question / answer) and what it refused, by reason. Then `context1 datagen INDEX OUT/datagen --n N --seed
SEED --hops HOPS` (the default command: every reader on), and, unless --no-base, the same with `--mix office=0`
(this reader off: what the folder gave before it) into OUT/datagen-base. For each run: tasks written of --n, by
hops and kind, documents with a task, the run's drops and stages. Last, a seeded sample of --show tasks of the
default run, each with its question, answer, supporting passage and file, to read by hand (natural / correct).
A run folder that already holds tasks is read as it is, not generated again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.datagen_docs import _chunks  # noqa: E402
from datagen.doc_office import (  # noqa: E402
    drop_copies,
    is_office,
    noun_labels,
    office_facts,
    person_names,
)
from datagen.office_names import office_names  # noqa: E402


def _rows(out: Path) -> list[dict]:
    path = out / "tasks.jsonl"
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()] if path.is_file() else []


def _kind(row: dict) -> str:
    relations = row["metadata"].get("relations") or [row["metadata"].get("form") or "?"]
    return str(relations[-1]).removeprefix("doc:")


def _generate(index: Path, out: Path, n: int, seed: int, hops: str, mix: str) -> str:
    """Runs the default `context1 datagen` (as its CLI does) unless OUT already holds tasks; its summary line."""
    if _rows(out):
        return "read as it was (not generated again)"
    from datagen.natural import parse_mix
    from datagen.pipeline import GenerateConfig, parse_hops
    from datagen.run import run_datagen

    report, _ = run_datagen(index, out, GenerateConfig(n=n, hops=parse_hops(hops), seed=seed), progress=False,
                            mix=parse_mix(mix))
    drops = ", ".join(f"{k} {v}" for k, v in report.drops.most_common()) or "none"
    stages = ", ".join(f"{k} {v}" for k, v in sorted(report.stages.items()) if not k.startswith("chains:")) or "none"
    return f"proposed {report.attempted}, dropped: {drops}; stages: {stages}; stopped: {report.stopped[:300]}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", type=Path)
    ap.add_argument("--out", type=Path, required=True, help="folder for the runs (OUT/datagen, OUT/datagen-base)")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hops", default="2-4")
    ap.add_argument("--show", type=int, default=30, help="tasks of the sample to print (0: none)")
    ap.add_argument("--sheet-seed", type=int, default=5301, help="the sample's seed")
    ap.add_argument("--no-base", action="store_true", help="skip the run with this reader off (--mix office=0)")
    args = ap.parse_args()

    by_doc = _chunks(args.index)
    office = {d: cs for d, cs in by_doc.items() if cs and is_office(d, cs[0].metadata)}
    suffixes = Counter(Path(str(cs[0].metadata.get("file_name") or d)).suffix.lower() for d, cs in office.items())
    print(f"== {args.index}: {len(by_doc)} documents, {len(office)} office documents ("
          + ", ".join(f"{k} {v}" for k, v in sorted(suffixes.items())) + ")")
    skipped: Counter = Counter()
    from datagen.nlp import load_pipeline

    nlp = load_pipeline()
    names = office_names({d: str(cs[0].metadata.get("title") or "") for d, cs in office.items()},
                         {d: "\n".join(c.text for c in cs) for d, cs in office.items()}, skipped, person_names(nlp))
    print(f"   named by a question: {len(names)} of {len(office)}; "
          + ", ".join(f"{k} {v}" for k, v in skipped.items()))
    noun_label = noun_labels(nlp)
    facts = {d: found for d in sorted(names) if (found := office_facts(d, names[d], office[d], skipped, noun_label, nlp))}
    drop_copies(facts, set(facts), skipped)
    kinds = Counter(f.relation.removeprefix("doc:") for fs in facts.values() for f in fs)
    print(f"   facts read: {sum(kinds.values())} in {len(facts)} documents; by kind: "
          + (", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "none"))
    print("   refused: " + (", ".join(f"{k} {v}" for k, v in skipped.most_common() if k != "office_no_unique_name")
                           or "none"))

    runs = [("datagen", "")] + ([] if args.no_base else [("datagen-base", "office=0")])
    for name, mix in runs:
        out = args.out / name
        note = _generate(args.index, out, args.n, args.seed, args.hops, mix)
        rows = _rows(out)
        hops = Counter(r.get("hops") for r in rows)
        kind = Counter(_kind(r) for r in rows)
        docs = {d for r in rows for d in r.get("gold_doc_ids") or ()}
        print(f"== {out} (--mix {mix or 'default'}): {len(rows)} tasks of --n {args.n} from {len(docs)} documents; hops: "
              + ", ".join(f"{k} {v}" for k, v in sorted(hops.items())) + "; kinds: "
              + (", ".join(f"{k} {v}" for k, v in kind.most_common()) or "none"))
        print(f"   {note}")

    rows = _rows(args.out / "datagen")
    if args.show and rows:
        sample = random.Random(args.sheet_seed).sample(rows, min(args.show, len(rows)))
        print(f"== sample: {len(sample)} of {len(rows)} tasks (seed {args.sheet_seed}); judge each natural / correct")
        for n, r in enumerate(sample, 1):
            print(f"\n[{n}] {r['query']}\n    answer: {' | '.join(r.get('answers') or [])}    ({_kind(r)}, {r.get('hops')} hop)")
            for s in r["metadata"].get("supporting") or []:
                for q in s.get("quotes") or []:
                    print(f"    passage: {' / '.join(x.strip() for x in q.splitlines() if x.strip())[:300]}")
                print(f"    file: {s.get('doc_id')}")


if __name__ == "__main__":
    main()
