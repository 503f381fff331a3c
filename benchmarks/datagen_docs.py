"""Datagen on technical documentation (issue 36: a project's `docs/`): what the documentation readers find in an
index, and what a `context1 datagen` run wrote from it.

    python benchmarks/datagen_docs.py INDEX [OUT ...]

For INDEX (no parse needed): the facts datagen.doc_defaults, doc_versions and doc_releases read off its passages, as
datagen.relations reads them (the three passages before each one as its lead-in), by relation, before and after
the folder-wide one-answer rule (`factbase.unique_in_corpus`), with the counters of what they refused. On a
corpus that is no documentation (HotpotQA, chats) every count is 0: nothing the natural generator does changes
there (its documentation paths run only for documents holding such a fact).

The facts are read as the default datagen run reads them (session 42: the reference reader on, datagen.doc_reference,
and the project named as its prose writes it; session 43: the options and settings lists too, datagen.doc_options,
and a Python source section's defaults, return types and raises fields, datagen.doc_source).

For each OUT: tasks by form and hops, the documentation tasks by relation, per top-level folder by kind, the drops of its log when OUT.log sits
beside it, and how lexical the questions are: BM25 gold@1 (the gold document first) and all-gold@10 (every gold
document in the top 10) of one BM25 search per question, document level, over all tasks, by form and for the
multi-hop ones. There are no real queries for a documentation folder to compare with: the figures stand beside
HotpotQA's and MuSiQue's real questions' (README's datagen tables).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools.types import Chunk  # noqa: E402
from datagen.doc_projects import group_of, project_names  # noqa: E402
from datagen.factbase import FactBase, unique_in_corpus  # noqa: E402
from datagen.mining import MinedCorpus  # noqa: E402
from datagen.relations import documentation_facts, name_projects  # noqa: E402


def _chunks(index: Path) -> dict[str, list[Chunk]]:
    by_doc: dict[str, list[Chunk]] = {}
    with (index / "chunks.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            by_doc.setdefault(r["doc_id"], []).append(
                Chunk(r["chunk_id"], r["doc_id"], r["text"], r.get("position", 0), r.get("n_tokens", 0), r.get("metadata") or {}))
    for chunks in by_doc.values():
        chunks.sort(key=lambda c: c.position)
    return by_doc


def read_doc_facts(index: Path, projects: bool = True) -> FactBase:
    """The documentation facts of an index, as datagen.relations reads them (tables left out likewise), each
    question naming its project where one is read (`relations.name_projects`; projects=False: as session 40)."""
    base = FactBase()
    by_doc = _chunks(index)
    for doc_id, chunks in by_doc.items():
        tables = {c.chunk_id for c in chunks if str(c.metadata.get("kind", "")) == "table"}
        found = documentation_facts(chunks, base.skipped, tables, reference=True, options=True, source=True)
        if found:
            base.facts.setdefault(doc_id, []).extend(found)
    if projects:
        mined = MinedCorpus(titles={d: str(cs[0].metadata.get("title") or "") for d, cs in by_doc.items() if cs},
                            chunks=by_doc)
        name_projects(base, mined, as_written=True)
    return base


def _kinds(base: FactBase) -> Counter:
    """(relation → distinct (subject, answer, question) facts): overlapping passages state one fact twice."""
    seen = {(f.relation.split(":", 1)[1] if f.relation.count(":") else f.relation, f.subject, f.answer, f.ask)
            for fs in base.facts.values() for f in fs}
    return Counter(r for r, _, _, _ in seen)


def _rate(corpus, rows: list[tuple[str, list[str]]]) -> str:  # noqa: ANN001
    from datagen.pipeline import top_documents

    h1 = h10 = 0
    for question, gold in rows:
        ranked = top_documents(corpus.search_leg(question, "bm25", k=50), 10)
        h1 += bool(ranked) and ranked[0] in gold
        h10 += all(g in ranked for g in gold)
    n = max(len(rows), 1)
    return f"{len(rows)}: gold@1 {h1 / n:.3f}, all-gold@10 {h10 / n:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", type=Path)
    ap.add_argument("outs", type=Path, nargs="*")
    ap.add_argument("--no-bm25", action="store_true", help="skip the BM25 figures (no index search)")
    ap.add_argument("--no-projects", action="store_true", help="read the facts as session 40 did (no project named)")
    args = ap.parse_args()

    by_doc = _chunks(args.index)
    names = project_names({d: "\n".join(c.text for c in cs) for d, cs in by_doc.items()},
                          {d: str(cs[0].metadata.get("title") or "") for d, cs in by_doc.items() if cs}, as_written=True,
                          files=True)  # what datagen reads by default (`--mix project_files`)
    groups = Counter(group_of(d) for d in by_doc)
    print(f"== {args.index}: {len(by_doc)} documents; top-level folders: "
          + ", ".join(f"{g or '(root)'} {n} (project read: {names.get(next(d for d in by_doc if group_of(d) == g), '') or 'none'})"
                      for g, n in sorted(groups.items())))
    base = read_doc_facts(args.index, projects=not args.no_projects)
    read = _kinds(base)
    print(f"== {args.index}: documentation facts read (distinct subject/answer), by kind: "
          + (", ".join(f"{k} {v}" for k, v in read.most_common()) or "none"))
    unique_in_corpus(base, "doc:")
    kept = _kinds(base)
    print("   after one answer across the folder: " + (", ".join(f"{k} {v}" for k, v in kept.most_common()) or "none"))
    print("   refused: " + (", ".join(f"{k} {v}" for k, v in base.skipped.most_common()) or "none"))
    per = Counter(group_of(d) for d, fs in base.facts.items() for f in fs if f.relation.startswith("doc:"))
    print("   facts kept by top-level folder (passages, overlaps counted): "
          + (", ".join(f"{g or '(root)'} {n}" for g, n in sorted(per.items())) or "none"))

    corpus = None
    if args.outs and not args.no_bm25:
        from corpus_tools import Corpus

        corpus = Corpus.open(args.index)
    try:
        for out in args.outs:
            rows = [json.loads(line) for line in (out / "tasks.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
            forms = Counter(r["metadata"].get("form", "") for r in rows)
            hops = Counter(len(r.get("gold_doc_ids") or ()) for r in rows)
            doc = Counter(rel.split(":", 1)[1] for r in rows for rel in (r["metadata"].get("relations") or [])[-1:]
                          if rel.startswith("doc:"))
            print(f"== {out}: {len(rows)} tasks; forms: " + ", ".join(f"{k} {v}" for k, v in forms.most_common())
                  + "; gold documents: " + ", ".join(f"{k} {v}" for k, v in sorted(hops.items())))
            print("   documentation tasks by kind: " + (", ".join(f"{k} {v}" for k, v in doc.most_common()) or "none")
                  + f" ({sum(doc.values())} of {len(rows)})")
            # by the top-level folder of the task's last gold document, and how many questions name the project
            # of every gold document they ask about (strictly: the name as the pages write it, in the question)
            per_task = Counter(group_of((r.get("gold_doc_ids") or [""])[-1]) for r in rows)
            said = sum(bool(r.get("gold_doc_ids")) and all(names.get(g) and names[g].casefold() in r["query"].casefold()
                                                            for g in r["gold_doc_ids"]) for r in rows)
            print("   tasks by top-level folder: " + ", ".join(f"{g or '(root)'} {n}" for g, n in sorted(per_task.items()))
                  + f"; questions naming their project: {said} of {len(rows)}")
            # yield per project and kind (a documentation relation's kind; any other relation is "prose")
            table = Counter((group_of((r.get("gold_doc_ids") or [""])[-1]) or "(root)",
                             next((x.split(":", 1)[1] for x in (r["metadata"].get("relations") or [])[-1:] if x.startswith("doc:")),
                                  "prose")) for r in rows)
            for group in sorted({g for g, _ in table}):
                print(f"   {group}: " + ", ".join(f"{k} {v}" for (g, k), v in table.most_common() if g == group))
            log = out.with_name(out.name + ".log")
            if log.is_file():
                for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                    if line.startswith(("stopped:", "proposed ")):
                        print("   " + line)
            if corpus is not None:
                pairs = [(r["query"], list(r.get("gold_doc_ids") or ())) for r in rows]
                print("   BM25 all tasks " + _rate(corpus, pairs))
                multi = [p for p, r in zip(pairs, rows, strict=True) if len(p[1]) > 1]
                print("   BM25 multi-hop " + _rate(corpus, multi))
                docs = [p for p, r in zip(pairs, rows, strict=True)
                        if any(x.startswith("doc:") for x in r["metadata"].get("relations") or [])]
                print("   BM25 documentation tasks " + _rate(corpus, docs))
                for form in sorted(forms):
                    print(f"   BM25 {form} " + _rate(corpus, [p for p, r in zip(pairs, rows, strict=True)
                                                          if r["metadata"].get("form", "") == form]))
    finally:
        if corpus is not None and hasattr(corpus, "close"):
            corpus.close()


if __name__ == "__main__":
    main()
