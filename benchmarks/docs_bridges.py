"""The documentation bridges of one datagen run (issue 36, session 45: datagen.doc_bridges), for a reader.

    python benchmarks/docs_bridges.py RUN [--base MAIN_RUN] [--sample 30 --seed 4501]

Prints the run's multi-hop tasks by form (a note's release day `doc_bridge`, two notes compared `doc_compare`), the
funnel its generator counted (notes read, chains with a release day, why the rest were not asked: the run's last
`stages`, "doc_bridge:*"), the released days read against the base run's (the `release_names` reading), and a
seeded sample of its multi-hop tasks with both gold quotes, for the lead's read (natural / correct / genuine chain /
leak). BM25 all-gold@10 by document per form is datagen_docs.py's (the report script prints it); with `--index`, the
same by passage (every gold passage among BM25's top 10 passages): a changelog is one long page, found by "version …
released" alone, so the document figure says little of whether the release's own passage is found.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

FORMS = ("doc_bridge", "doc_compare")


def _rows(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "tasks.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def _stages(run: Path) -> dict[str, int]:
    runs = [json.loads(line) for line in (run / "runs.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return dict((runs[-1].get("report") or {}).get("stages") or {}) if runs else {}


def _card(n: int, row: dict) -> str:
    lines = [f"[{n}] {row['query']}", f"    answer: {' | '.join(row.get('answers') or [])}    form: {row['metadata'].get('form')}"]
    for i, item in enumerate(row["metadata"].get("supporting") or [], 1):
        quote = " ".join(" ".join(item.get("quotes") or []).split())
        quote = quote if len(quote) <= 320 else quote[:160] + " … " + quote[-160:]  # a note's version closes an entry
        lines.append(f"    hop {i}: {item.get('doc_id')}: {quote}")
    lines.append("    natural: _   correct: _   genuine chain: _   leak: _")
    return "\n".join(lines) + "\n"


def _passages(index: Path, rows: list[dict]) -> str:
    from corpus_tools import Corpus

    corpus = Corpus.open(index)
    per: dict[str, list[tuple[bool, bool]]] = {}
    try:
        for r in rows:
            gold = set(r.get("gold_chunk_ids") or ())
            top = [h.chunk.chunk_id for h in corpus.search_leg(r["query"], "bm25", k=10)]
            per.setdefault(r["metadata"].get("form", ""), []).append((bool(top) and top[0] in gold, gold <= set(top)))
    finally:
        close = getattr(corpus, "close", None)
        if close is not None:
            close()
    return "; ".join(f"{form} {len(v)}: {sum(a for a, _ in v) / len(v):.3f} / {sum(b for _, b in v) / len(v):.3f}"
                     for form, v in sorted(per.items()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", type=Path)
    ap.add_argument("--base", type=Path, help="a run of main (or the flags off) to count the release days against")
    ap.add_argument("--sample", type=int, default=30)
    ap.add_argument("--seed", type=int, default=4501)
    ap.add_argument("--index", type=Path, help="the run's index: BM25 all-gold@10 by passage per form")
    args = ap.parse_args()
    rows = _rows(args.run)
    multi = [r for r in rows if r["metadata"].get("form") in FORMS]
    forms = Counter(r["metadata"]["form"] for r in multi)
    print(f"== {args.run}: {len(rows)} tasks, {len(multi)} documentation multi-hop: "
          + (", ".join(f"{k} {v}" for k, v in forms.most_common()) or "none")
          + (f"; comparisons {forms['doc_compare'] / len(multi):.0%} of them" if multi else ""))
    kinds = Counter((r["metadata"].get("relations") or ["?"])[0] for r in multi if r["metadata"]["form"] == "doc_bridge")
    print("   bridges by the note's kind: " + (", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "none"))
    stages = _stages(args.run)
    funnel = {k.split(":", 1)[1]: v for k, v in stages.items() if k.startswith("doc_bridge:")}
    order = ("notes", "note_no_project", "note_disputed", "no_release_day", "release_day_disputed", "chains", "same_page",
             "day_on_first_page", "version_in_question", "asked")
    print("   funnel (distinct notes of a kind the bridges ask): " + (", ".join(
        f"{k} {funnel[k]}" for k in (*order, *sorted(set(funnel) - set(order))) if k in funnel) or "none read")
          + f"; written {forms['doc_bridge']} bridges, {forms['doc_compare']} comparisons")
    if args.base:
        def days(rs: list[dict]) -> int:
            return sum(1 for r in rs if (r["metadata"].get("relations") or [""])[-1] == "doc:released" and r.get("hops", 1) == 1)
        print(f"   single-hop release-day tasks: base {days(_rows(args.base))} -> run {days(rows)}")
    if args.index:
        print("   BM25 by passage (gold@1 / all gold passages in the top 10): " + _passages(args.index, rows))
    picked = random.Random(args.seed).sample(multi, min(args.sample, len(multi)))
    print(f"\n# {len(picked)} documentation multi-hop tasks at random (seed {args.seed}) of {len(multi)}\n")
    for n, row in enumerate(picked, 1):
        print(_card(n, row))


if __name__ == "__main__":
    main()
