"""One search on a folder of research papers: does another paper's bibliography take the answer's place? (session
49, issue 34: the passages that answer, ranked first).

    python benchmarks/papers_search.py INDEX [--base INDEX0] [--base-weight 0] [--weights 0,0.5] [--defined 0,0.5]
        [--sentences 3] [--out FILE]

Proxies read from the papers of INDEX0 (default INDEX), as `datagen/doc_papers.py` reads them: an acronym's first
expansion ("What does CLRs stand for in the Stasis paper?"), a term an "A(n) X is a(n) Y" sentence defines ("In the
Elle paper, what is a transaction?"), each also asked without its paper ("What does CLRs stand for?", "What is a
transaction?": another paper's reference entry competes most there), and `--sentences` body sentences per paper
(seed 0: 8–30 words, before the paper's references heading as datagen reads a paper, none in a passage that
reads as citations; the query is its first ten words), and `--mentions` "acronym used" questions per paper: a body
sentence naming an acronym the paper defines, not its definition, asked by its first twelve words and "?" (the
definition's lift must not take its place; drawn with their own seed, so the body sentences stay as before).
Gold: the chunks of the same paper
holding the sentence (whitespace-normalised; its first ten words where a chunk boundary cuts it), found again in
every index, so the runs are paired by question.

A chunk counts as bibliography when its section lies under a bibliography heading or its text reads as a list of
citations (`corpus_tools.bibliography`): the same rule for every index, whatever the index marked.

Prints: chunks of the index that are bibliography (marked as a section / read as citations only), then per run
(`--base` at `--base-weight` first when given, then INDEX at each of `--weights`, and of `--defined`: the lift of
a chunk defining what the question names, a paper's acronyms read by `CorpusConfig.paper_definitions`) and kind: questions, hit@1, hit@5, MRR,
the share of top-5 slots that are bibliography, questions with a bibliography chunk above the first gold; then each
run against the first: MRR and hit@5 differences with a 95 % paired bootstrap interval and questions won / lost.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import re
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools.bibliography import is_section, reads_as_citations  # noqa: E402
from corpus_tools.paper_definitions import is_paper  # noqa: E402
from datagen.doc_papers import _REFERENCES, ACRONYM, TERM, paper_facts  # noqa: E402

_SENTENCE = re.compile(r"(?:(?<=^)|(?<=[.!?]\s))([A-Z][^.!?]{40,240}[.!?])(?=\s|$)")


def flat(text: str) -> str:
    return " ".join(text.split())


def chunks_of(index: Path) -> dict[str, list[Any]]:
    from corpus_tools import Corpus

    corpus = Corpus.open(index)
    try:
        return {d: list(corpus.chunks(d)) for d in corpus.doc_ids()}
    finally:
        corpus.close()


def is_bibliography(chunk: Any) -> bool:
    return is_section((chunk.metadata or {}).get("section")) or reads_as_citations(chunk.text)


def before_references(chunks: list[Any]) -> list[Any]:
    """A paper's chunks before its bibliography, as `datagen.doc_papers.paper_facts` reads them (up to the first
    chunk holding a references heading or lying in a bibliography section), less any that reads as citations: a
    body sentence is never a reference entry, whichever index marked it."""
    out = []
    for c in chunks:
        if _REFERENCES.search(c.text) or is_section((c.metadata or {}).get("section")):
            break
        if not reads_as_citations(c.text):
            out.append(c)
    return out


def proxies(by_doc: dict[str, list[Any]], sentences: int, mentions: int = 0) -> list[dict[str, str]]:
    out = []
    rng, used_rng = random.Random(0), random.Random(1)  # two draws: the body sentences stay as session 49 drew them
    for doc_id, chunks in sorted(by_doc.items()):
        meta = chunks[0].metadata or {}
        if not is_paper(doc_id, meta):
            continue
        facts = paper_facts(doc_id, str(meta.get("title") or ""), chunks, Counter())
        for fact in facts:
            kind = "acronym" if fact.relation == ACRONYM else "term" if fact.relation == TERM else ""
            if not kind:
                continue
            out.append({"kind": kind, "doc_id": doc_id, "gold": fact.sentence, "query": fact.ask.format(s=fact.subject)})
            bare = (f"What does {fact.subject} stand for?" if kind == "acronym" else f"What is {fact.subject}?")
            out.append({"kind": kind + " (no paper named)", "doc_id": doc_id, "gold": fact.sentence, "query": bare})
        body = [m.group(1) for c in before_references(chunks) for m in _SENTENCE.finditer(flat(c.text))
                if 8 <= len(m.group(1).split()) <= 30 and sum(ch.isdigit() for ch in m.group(1)) < 4]
        for sentence in rng.sample(body, min(sentences, len(body))):
            out.append({"kind": "sentence", "doc_id": doc_id, "gold": sentence,
                        "query": " ".join(sentence.split()[:10])})
        # a question that names an acronym the paper defines but asks about another passage: its first twelve words
        # holding the acronym, asked ("…?"), gold its own sentence, never the defining one
        named = {f.subject: f.sentence for f in facts if f.relation == ACRONYM}
        using = [(m.group(1), a) for c in before_references(chunks) for m in _SENTENCE.finditer(flat(c.text))
                 for a in named if a in m.group(1).split()[1:12] and m.group(1) != named[a]
                 and 8 <= len(m.group(1).split()) <= 30]
        for sentence, _a in used_rng.sample(using, min(mentions, len(using))):
            out.append({"kind": "acronym used", "doc_id": doc_id, "gold": sentence,
                        "query": " ".join(sentence.split()[:12]).rstrip(".,;:") + "?"})
    return out


def gold_ids(by_doc: dict[str, list[Any]], q: dict[str, str]) -> set[str]:
    chunks = by_doc.get(q["doc_id"], [])
    found = {c.chunk_id for c in chunks if q["gold"] in flat(c.text)}
    if not found:
        start = " ".join(q["gold"].split()[:10])
        found = {c.chunk_id for c in chunks if start in flat(c.text)}
    return found


def run(index: Path, queries: list[dict[str, str]], weight: float, defined: float | None = None) -> list[dict[str, float]]:
    from corpus_tools import Corpus

    by_doc = chunks_of(index)
    probe = Corpus.open(index)
    search = dataclasses.replace(probe.config.search, bibliography_weight=weight)
    if defined is not None:
        search = dataclasses.replace(search, defined_names=defined)
    probe.close()
    corpus = Corpus.open(index, search=search)
    rows = []
    try:
        for q in queries:
            gold = gold_ids(by_doc, q)
            hits = [h.chunk for h in corpus.search(q["query"], k=10)]
            first = next((r for r, c in enumerate(hits, 1) if c.chunk_id in gold), None)
            bib = [is_bibliography(c) and c.doc_id.lower().endswith(".pdf") for c in hits]
            rows.append({"hit1": float(first == 1), "hit5": float(first is not None and first <= 5),
                         "rr": 1.0 / first if first else 0.0, "bib5": sum(bib[:5]) / 5,
                         "bib_above": float(any(bib[: (first or 11) - 1])), "found": float(bool(gold))})
    finally:
        corpus.close()
    return rows


def paired(a: list[float], b: list[float], seed: int = 0) -> tuple[float, int, int, float, float]:
    """Mean of b − a, questions won / lost, and the 95 % paired bootstrap interval of the mean."""
    d = [y - x for x, y in zip(a, b, strict=True)]
    rng = random.Random(seed)
    means = sorted(sum(rng.choice(d) for _ in d) / len(d) for _ in range(2000))
    return statistics.fmean(d), sum(x > 0 for x in d), sum(x < 0 for x in d), means[49], means[1949]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("index", type=Path)
    ap.add_argument("--base", type=Path, help="an index of the same folder read as before (run at weight 0, first)")
    ap.add_argument("--weights", default="0,0.5", help="SearchConfig.bibliography_weight values to run on INDEX")
    ap.add_argument("--base-weight", type=float, default=0.0,
                    help="SearchConfig.bibliography_weight of the --base run (0: as 94d7bea; 0.5: as 8edfbec)")
    ap.add_argument("--defined", default="",
                    help="SearchConfig.defined_names values to run on INDEX at each of --weights (default: the "
                         "index's own, 0.5); a paper's acronyms are lifted by it (CorpusConfig.paper_definitions)")
    ap.add_argument("--sentences", type=int, default=3, help="body-sentence proxies per paper")
    ap.add_argument("--mentions", type=int, default=3,
                    help="questions per paper naming an acronym it defines, about another passage ('acronym used')")
    ap.add_argument("--out", type=Path, help="also write the table here")
    args = ap.parse_args()
    lines: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    by_doc = chunks_of(args.index)
    n = sum(len(c) for c in by_doc.values())
    marked = sum(is_section((c.metadata or {}).get("section")) for cs in by_doc.values() for c in cs)
    cited = sum(reads_as_citations(c.text) and not is_section((c.metadata or {}).get("section"))
                for cs in by_doc.values() for c in cs)
    words = sum(len(c.text.split()) for cs in by_doc.values() for c in cs)
    bib_words = sum(len(c.text.split()) for cs in by_doc.values() for c in cs if is_bibliography(c))
    say(f"index {args.index}: {len(by_doc)} documents, {n} chunks; bibliography {marked + cited} "
        f"({(marked + cited) / max(n, 1):.1%}): {marked} in a bibliography section, {cited} read as citations only; "
        f"{bib_words / max(words, 1):.1%} of the words; "
        f"{sum(bool((c.metadata or {}).get('defines')) for cs in by_doc.values() for c in cs)} chunks define a name")
    queries = proxies(chunks_of(args.base) if args.base else by_doc, args.sentences, args.mentions)
    say(f"proxies: {len(queries)} ({', '.join(f'{k} {v}' for k, v in sorted(Counter(q['kind'] for q in queries).items()))})")
    runs: list[tuple[str, list[dict[str, float]]]] = []
    if args.base:
        runs.append((f"base {args.base.name} w={args.base_weight:g}", run(args.base, queries, args.base_weight)))
    for w in (float(x) for x in args.weights.split(",")):
        if not args.defined:
            runs.append((f"{args.index.name} w={w:g}", run(args.index, queries, w)))
        for d in (float(x) for x in args.defined.split(",") if x):
            runs.append((f"{args.index.name} w={w:g} defined={d:g}", run(args.index, queries, w, d)))
    kinds = sorted({q["kind"] for q in queries}) + ["all"]
    say()
    say("| run | kind | n | gold found | hit@1 | hit@5 | MRR | bibliography share of top 5 | bibliography above gold |")
    say("|---|---|--:|--:|--:|--:|--:|--:|--:|")
    for label, rows in runs:
        for kind in kinds:
            sel = [r for r, q in zip(rows, queries, strict=True) if kind in ("all", q["kind"])]
            if not sel:
                continue
            m = {k: statistics.fmean(r[k] for r in sel) for k in sel[0]}
            say(f"| {label} | {kind} | {len(sel)} | {int(sum(r['found'] for r in sel))} | {m['hit1']:.3f} | "
                f"{m['hit5']:.3f} | {m['rr']:.3f} | {m['bib5']:.3f} | {int(sum(r['bib_above'] for r in sel))} |")
    say()
    first_label, first = runs[0]
    say(f"| run vs {first_label} | kind | MRR diff [95 % CI] won/lost | hit@5 diff [95 % CI] won/lost |")
    say("|---|---|---|---|")
    for label, rows in runs[1:]:
        for kind in kinds:
            idx = [i for i, q in enumerate(queries) if kind in ("all", q["kind"])]
            cells = []
            for key in ("rr", "hit5"):
                mean, won, lost, lo, hi = paired([first[i][key] for i in idx], [rows[i][key] for i in idx])
                cells.append(f"{mean:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}")
            say(f"| {label} | {kind} | {cells[0]} | {cells[1]} |")
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
