"""Datagen on a folder of slide decks (session 53, issue 36: decks gave 0 tasks): what `datagen.slide_facts` reads, and
what the default `context1 datagen` run writes from it, with a seeded sample to hand-read.

    python benchmarks/datagen_slides.py FOLDER_OR_INDEX --out OUT [--n 200] [--seed 1] [--hops 2-4] [--show 30]

A folder of decks (no index's manifest.json in it) is indexed first into OUT/index, as `context1 index FOLDER
OUT/index` does (the default CorpusConfig), and the run reads that index. For the index: the decks, how each is named in
questions (its own title, its first slide's, "Lecture 3 of <course>", its file's name) or why none (not English,
nothing names it, a name two decks share), and the facts read by kind with every refusal counted.

Then the run: `context1 datagen INDEX OUT --n N --seed S --hops H` (in-process, the default mix; an OUT that already
holds tasks is resumed, so run it on an empty OUT), and for OUT: tasks written against --n, why the run stopped, the
drops by reason, the stages (decks that give no question, by reason), tasks by hops and form and by kind, and the
tasks with extra positives (another deck stating the same fact). Last, a seeded sample of --show tasks: question,
answer, deck, slide number, the supporting quote and passage, to judge natural / correct / leak by hand.
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
from datagen.nlp import load_pipeline  # noqa: E402
from datagen.slide_facts import Deck, deck_names, first_heading, is_deck, is_english, slide_facts  # noqa: E402


def _read(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()] if path.is_file() else []


def _facts(index: Path) -> dict:
    """Deck names and facts of INDEX, read as `relations.read_facts` reads them."""
    by_doc = _chunks(index)
    decks = {d: cs for d, cs in by_doc.items() if cs and is_deck(d, cs[0].metadata)}
    text = {d: "\n".join(c.text for c in cs) for d, cs in decks.items()}
    skipped: Counter = Counter()
    names = deck_names([Deck(d, str(cs[0].metadata.get("title") or ""), first_heading(cs), text[d])
                        for d, cs in decks.items()], skipped)
    nlp = load_pipeline()
    kinds: Counter = Counter()
    for d, cs in decks.items():
        kinds.update(f.relation.split(":", 1)[1] for f in slide_facts(d, names[d], cs, skipped, nlp))
    english = sum(1 for d in decks if is_english(text[d]))
    print(f"== {index}: {len(by_doc)} documents, {len(decks)} decks ({english} in English), "
          f"{sum(len(c) for c in decks.values())} passages")
    print(f"   decks named: {sum(1 for n in names.values() if n)}; unnamed {skipped['slide_deck_unnamed']} "
          f"(of them a name two decks share: {skipped['slide_deck_name_shared']}); e.g. "
          + "; ".join(sorted({n for n in names.values() if n})[:8]))
    print("   facts read, by kind: " + (", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "none"))
    print("   refused: " + (", ".join(f"{k} {v}" for k, v in skipped.most_common() if v) or "none"))
    return {c.chunk_id: c for cs in decks.values() for c in cs}


def _run(index: Path, out: Path, n: int, seed: int, hops: str) -> None:
    from datagen.pipeline import GenerateConfig, parse_hops
    from datagen.run import run_datagen

    report, _ = run_datagen(index, out, GenerateConfig(n=n, hops=parse_hops(hops), seed=seed), progress=False)
    print(f"\n== datagen {index} {out} --n {n} --seed {seed} --hops {hops}")
    print(f"   written {report.written} of {n}; stopped: {report.stopped or '-'}")
    print("   drops: " + (", ".join(f"{k} {v}" for k, v in Counter(report.drops).most_common()) or "none"))
    print("   stages: " + ", ".join(f"{k} {v}" for k, v in sorted(report.stages.items()) if v))


def _show(out: Path, chunks: dict, show: int, seed: int) -> None:
    tasks = _read(out / "tasks.jsonl")
    forms = Counter(f"{t['hops']}:{t['metadata'].get('form', '?')}" for t in tasks)
    kinds = Counter(((t["metadata"].get("relations") or ["?"])[-1]) for t in tasks)
    extra = sum(bool(t["metadata"].get("extra_positives")) for t in tasks)
    decks = {d for t in tasks for d in t.get("gold_doc_ids") or ()}
    print(f"\n== {out}: {len(tasks)} tasks from {len(decks)} decks; hops:form "
          + (", ".join(f"{k} {v}" for k, v in sorted(forms.items())) or "none") + "; by kind "
          + (", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "none") + f"; with extra positives {extra}")
    sample = random.Random(seed).sample(tasks, min(show, len(tasks)))
    print(f"\n== sample of {len(sample)} (seed {seed}): judge natural / correct / genuine chain / leak")
    for i, t in enumerate(sample, 1):
        print(f"\n[{i}] {t['task_id']} hops={t['hops']} form={t['metadata'].get('form')} "
              f"kind={(t['metadata'].get('relations') or ['?'])[-1]}")
        print(f"  Q: {t['query']}\n  A: {t['answers'][0] if t['answers'] else ''}")
        for item in t["metadata"].get("supporting") or ():
            for cid in item.get("chunk_ids") or ():
                chunk = chunks.get(cid)
                page = chunk.metadata.get("page") if chunk is not None else "?"
                print(f"  deck: {item['doc_id']} (slide {page})")
                for q in item.get("quotes") or ():
                    print(f"   quote: {' '.join(q.split())[:200]}")
                if chunk is not None:
                    print("   passage: " + " / ".join(x.strip() for x in chunk.text.splitlines() if x.strip())[:400])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", type=Path, help="a folder of .pptx decks, or an index of one")
    ap.add_argument("--out", type=Path, required=True, help="the datagen output folder (empty: the run writes it)")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hops", default="2-4", help="as `context1 datagen --hops` (its default, 2-4)")
    ap.add_argument("--show", type=int, default=30, help="tasks of the seeded sample to print")
    ap.add_argument("--no-run", action="store_true", help="read OUT as it is, run nothing")
    args = ap.parse_args()
    if not (args.index / "manifest.json").is_file():
        from corpus_tools import Corpus

        folder, args.index = args.index, args.out / "index"
        if not (args.index / "manifest.json").is_file():
            args.out.mkdir(parents=True, exist_ok=True)
            Corpus.build(folder, args.index, progress=False).close()
        print(f"indexed {folder} into {args.index}")
    chunks = _facts(args.index)
    if not args.no_run:
        _run(args.index, args.out, args.n, args.seed, args.hops)
    _show(args.out, chunks, args.show, args.seed)


if __name__ == "__main__":
    main()
