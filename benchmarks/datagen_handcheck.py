"""The hand check of issue 26: generated tasks printed next to real questions of the same corpus, each
with what a reader needs to judge it against its gold documents (markdown on stdout).

For each generated task: its form, question, answer, and per gold document the quote the generator
read (the supporting sentence) and the document's title, in chain order, with the hop sub-questions.
For each real question: its answer and gold documents (title and first 200 characters), so the two
sets can be compared by eye. The reader then counts, per generated task, natural (a question a
person would ask), genuine chain (a later document must be reached through the earlier one: the
question describes it and does not name it) and correct answer (the gold text states it for this
question); the counts go to benchmarks/README.md. Real questions are dev data: write the output
under benchmarks/out/ (ignored by git), never into a committed file.

Sampling (fixed seed): up to --multi multi-hop tasks (bridges and comparisons) and the rest single-hop,
so that chains are checked even where a corpus yields few; --n real questions at random.

    python benchmarks/datagen_handcheck.py --corpus musique --tasks /work/tasks/natural3/musique.jsonl \
        --n 30 --multi 15 > benchmarks/out/datagen_handcheck/musique.md
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datagen.records import read_task_file  # noqa: E402


def real_questions(corpus: str, data_dir: str, docs: str | None):  # noqa: ANN201
    """(question, answer, gold doc ids, doc id → (title, text)) of the benchmark or the --docs folder."""
    if docs:
        import json

        from corpus_tools import load_documents

        texts = {d.doc_id: (d.title or d.doc_id, d.text) for d in load_documents(docs).documents}
        rows = [json.loads(line) for line in (Path(docs) / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
        return [(r["question"], r.get("answer", ""), r["gold_doc_ids"]) for r in rows], texts
    from eval.loaders import load_benchmark

    bench = load_benchmark(corpus, data_dir)
    texts = {d.doc_id: (d.title or d.doc_id, d.text) for d in bench.documents}
    return [(t.query, t.answers[0] if t.answers else "", list(t.gold_doc_ids)) for t in bench.tasks if t.gold_doc_ids], texts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--tasks", required=True, help="a generated task file (JSONL)")
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--docs", default=None, help="a folder corpus with questions.jsonl (the office fixture)")
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--multi", type=int, default=15, help="multi-hop tasks among the n, at most")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    tasks = read_task_file(args.tasks)
    rng = random.Random(args.seed)
    multi = [t for t in tasks if t.hops > 1]
    single = [t for t in tasks if t.hops == 1]
    picked = rng.sample(multi, min(args.multi, len(multi)))
    picked += rng.sample(single, min(args.n - len(picked), len(single)))
    real, texts = real_questions(args.corpus, args.data_dir, args.docs)

    print(f"# {args.corpus}: {len(picked)} generated tasks ({len([t for t in picked if t.hops > 1])} multi-hop) "
          f"of {len(tasks)} in {args.tasks}, next to {min(args.n, len(real))} real questions\n")
    print("## Generated\n")
    for i, t in enumerate(picked, 1):
        meta = t.metadata
        print(f"{i}. [{meta.get('form', '?')}, {t.hops} hop(s)] **{t.query}** → **{t.answers[0]}**")
        for j, item in enumerate(meta.get("supporting", [])):
            title = texts.get(item["doc_id"], (item["doc_id"], ""))[0]
            quote = " … ".join(item.get("quotes", []))[:300]
            clue = meta.get("clues", [])[j] if j < len(meta.get("clues", [])) else ""
            mark = " (answer)" if item.get("contains_truth") else ""
            print(f"   - `{title}`{mark}: {quote}" + (f"  \n     sub-question: {clue}" if clue else ""))
        ranks = meta.get("ranks")
        if ranks:
            print(f"   - ranks of the gold documents for the question alone: {ranks}")
        print()
    print("## Real\n")
    for i, (q, a, gold) in enumerate(rng.sample(real, min(args.n, len(real))), 1):
        print(f"{i}. **{q}** → **{a}**")
        for g in gold:
            title, text = texts.get(g, (g, ""))
            print(f"   - `{title}`: {text[:200]}")
        print()


if __name__ == "__main__":
    main()
