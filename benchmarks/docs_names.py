"""Documentation datagen runs: the projects questions name, and deprecation / removal tasks (issue 36, session 46).

    python benchmarks/docs_names.py INDEX LABEL=RUN [LABEL=RUN ...] [--sheet OUT.txt --seed 4601 --base LABEL]

The project of a task is the one its first gold page documents, read as the branch reads it (datagen.doc_projects
with what the index's project files declare, `SkippedProjectFile`s: corpus_tools.project_files); on an index built
before session 46 there is none and the folder's own rule names the groups. For each run, a table row:

- tasks, and documentation tasks (a documentation reader's relation, "doc:…");
- naming: documentation tasks whose question writes their page's project (case-insensitive), and the share;
- deprecation / removal tasks: single-hop (a "doc:deprecated" / "doc:removed" fact asked, or "will be removed"),
  multi-hop (a release-day bridge from such a note, or two such notes compared);
- BM25 by passage over the documentation tasks: gold@1 and all-gold@10 (every gold passage among one BM25
  search's top 10 passages of the question), single-hop and multi-hop apart.

Then the groups and the name each is read by. With --sheet: a seeded sample of 30 tasks new in the last run against
--base (default the first), each with its answer and gold quotes, for a reader (natural / correct / genuine /
leak), followed by every deprecation / removal task of the last run.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEPRECATION = ("doc:deprecated", "doc:removed", "doc:will_remove")


def _rows(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "tasks.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def _relations(row: dict) -> list[str]:
    return list(row.get("metadata", {}).get("relations") or [])


def _gold_docs(row: dict) -> list[str]:
    return [s.get("doc_id", "") for s in row.get("metadata", {}).get("supporting") or []] or list(row.get("gold_doc_ids") or [])


def _is_doc(row: dict) -> bool:
    return any(r.startswith("doc:") for r in _relations(row))


def _is_deprecation(row: dict) -> bool:
    return any(r in DEPRECATION for r in _relations(row))


def projects(index: Path) -> dict[str, str]:
    """doc id → its project, read as the branch's datagen reads it (the index's declared names included)."""
    from corpus_tools import Corpus
    from datagen.doc_projects import project_names
    from datagen.pipeline import mine_corpus

    with Corpus.open(index) as corpus:
        mined = mine_corpus(corpus)
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    return project_names(texts, mined.titles, as_written=True, files=True, declared=mined.declared)


def _bm25(index: Path, rows: list[dict]) -> dict[str, tuple[int, float, float]]:
    """form group ("single" / "multi") → (n, gold@1, all-gold@10) by passage."""
    from corpus_tools import Corpus

    per: dict[str, list[tuple[bool, bool]]] = {}
    with Corpus.open(index) as corpus:
        for r in rows:
            gold = set(r.get("gold_chunk_ids") or ())
            if not gold:
                continue
            top = [h.chunk.chunk_id for h in corpus.search_leg(r["query"], "bm25", k=10)]
            key = "single" if r.get("hops", 1) == 1 else "multi"
            per.setdefault(key, []).append((bool(top) and top[0] in gold, gold <= set(top)))
    return {k: (len(v), sum(a for a, _ in v) / len(v), sum(b for _, b in v) / len(v)) for k, v in per.items()}


def _card(n: int, row: dict) -> str:
    meta = row.get("metadata", {})
    lines = [f"[{n}] {row['query']}", f"    answer: {' | '.join(row.get('answers') or [])}    form: {meta.get('form')}"
             f"    relations: {','.join(_relations(row))}"]
    for i, item in enumerate(meta.get("supporting") or [], 1):
        quote = " ".join(" ".join(item.get("quotes") or []).split())
        quote = quote if len(quote) <= 360 else quote[:180] + " … " + quote[-180:]
        lines.append(f"    hop {i}: {item.get('doc_id')}: {quote}")
    lines.append("    natural: _   correct: _   genuine: _   leak: _")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", type=Path)
    ap.add_argument("runs", nargs="+", help="LABEL=RUN folder")
    ap.add_argument("--sheet", type=Path)
    ap.add_argument("--seed", type=int, default=4601)
    ap.add_argument("--base", help="the label new tasks are counted against (default: the first run)")
    ap.add_argument("--no-bm25", action="store_true")
    args = ap.parse_args()
    runs = dict(r.split("=", 1) for r in args.runs)
    names = projects(args.index)
    print(f"# {args.index}: " + ", ".join(f"{g or '(root)'} → {n}" for g, n in sorted(
        {(d.split('/')[0] if '/' in d else '', n) for d, n in names.items()})))
    print("| run | tasks | doc tasks | naming their project | deprecation 1-hop | deprecation multi-hop | "
          "BM25 by passage 1-hop gold@1 / all@10 | multi-hop gold@1 / all@10 |")
    print("|---|---|---|---|---|---|---|---|")
    loaded = {}
    for label, run in runs.items():
        rows = _rows(Path(run))
        loaded[label] = rows
        doc = [r for r in rows if _is_doc(r)]
        named = [r for r in doc if (p := names.get(_gold_docs(r)[0] if _gold_docs(r) else "")) and p.lower() in r["query"].lower()]
        dep1 = sum(1 for r in doc if _is_deprecation(r) and r.get("hops", 1) == 1)
        depm = sum(1 for r in doc if _is_deprecation(r) and r.get("hops", 1) > 1)
        bm = {} if args.no_bm25 else _bm25(args.index, doc)
        cell = {k: f"{v[1]:.3f} / {v[2]:.3f} (n {v[0]})" for k, v in bm.items()}
        share = f"{len(named)}/{len(doc)} ({len(named) / len(doc):.0%})" if doc else "0/0"
        print(f"| {label} | {len(rows)} | {len(doc)} | {share} | {dep1} | {depm} | {cell.get('single', '-')} | "
              f"{cell.get('multi', '-')} |")
    if args.sheet:
        base_label = args.base or next(iter(runs))
        last = list(runs)[-1]
        before = {r["query"] for r in loaded[base_label]}
        new = [r for r in loaded[last] if r["query"] not in before]
        gone = [r for r in loaded[base_label] if r["query"] not in {x["query"] for x in loaded[last]}]
        picked = random.Random(args.seed).sample(new, min(30, len(new)))
        with args.sheet.open("w", encoding="utf-8") as out:
            out.write(f"# {last} against {base_label}: {len(new)} new, {len(gone)} gone; 30 new at random (seed {args.seed})\n\n")
            out.writelines(_card(n, r) for n, r in enumerate(picked, 1))
            deps = [r for r in loaded[last] if _is_deprecation(r)]
            out.write(f"\n# every deprecation / removal task of {last} ({len(deps)})\n\n")
            out.writelines(_card(n, r) for n, r in enumerate(deps, 1))
        print(f"new {len(new)}, gone {len(gone)} ({last} against {base_label}); sheet {args.sheet}")


if __name__ == "__main__":
    main()
