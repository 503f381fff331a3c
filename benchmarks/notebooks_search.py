"""Jupyter notebooks searched (session 45, issues 34 and 36): the notebook reader against what a user has today.

    PYTHONPATH=. nice python benchmarks/notebooks_search.py --data /work/scratch45-notebooks/tune \
        --scratch /work/scratch45-notebooks/idx --out /work/scratch45-notebooks/search
    bash benchmarks/notebooks_report.sh                     # a reporting notebook folder: by the lead, once

Before session 45 `context1 index` skipped `.ipynb` files; a user who wanted them searched converted them first.
Two indexes of one folder of notebooks, built under --scratch unless they exist:

  reader     the folder as it is: corpus_tools/notebook_reader.py (Markdown cells, code cells, short outputs,
             DataFrame tables; images, widgets and tracebacks dropped);
  converted  each notebook converted to Markdown as `jupyter nbconvert --to markdown` writes it (`to_markdown`
             below: cells in order, code fenced, outputs by nbconvert's markdown priority — raw HTML before an
             image link before plain text, stream and plain text indented, tracebacks whole), then read by our
             Markdown reader: the baseline.

Prints:
1. Reading: noise left in the indexed chunk text of each (base64, image links, HTML tags, CSS, traceback lines,
   ANSI escapes, "In [n]:" prompts), chunks and tokens.
2. Search, one hybrid `Corpus.search(k=10)` per query: hit@1, hit@5, MRR@10, reader vs converted with the paired
   bootstrap interval of reader − converted (docs_reading.paired) and queries won / lost, overall and by kind.
   No user queries ship with notebooks, so proxies are built from the notebooks' JSON (not from either reading):
   - "heading": a level-2+ Markdown heading of two content words or more, unique in the folder. Gold: its section.
   - "sentence": a sentence of 10+ words from a section's Markdown prose after its first paragraph.
   - "definition": a function or class a code cell defines (`def name(`, `class Name`), defined in at most 2
     notebooks, asked "What does NAME do?". Gold: the code cell and the Markdown cell just before it.
   A chunk is gold when it is a chunk of the query's notebook sharing at least 3 five-word shingles with the gold
   text (docs_reading.gold: markup-blind both ways).
3. Agent (--agent-limit queries, reader index): the LLM-free agent's passage hit@1 / hit@5 against one search's,
   paired, won / lost.
Per-query rows in OUT/rows.jsonl.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docs_reading import all_chunks, chunks_by_doc, gold, paired_row, words  # noqa: E402

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_DEF = re.compile(r"^(?:def|class)\s+([A-Za-z_]\w*)", re.MULTILINE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_MARKUP = re.compile(r"[`*_\[\]<>|$\\{}]|\]\(|https?://")
_STOP = frozenset("a an the and or of to in on for with by is are be how what do does use using your you it "
                  "this that from as at".split())
# What a reader of the notebook never sees, as it sits in the indexed chunk text.
NOISE = {
    "base64 payload": r"[A-Za-z0-9+/]{80,}",
    "image link (![png](…), or its alt text alone)": r"!\[(?:png|svg|jpeg|jpg)\]\(|^(?:png|svg|jpeg)$",
    "HTML tag": r"</?(?:div|table|tr|td|th|thead|tbody|style|span|p)\b[^<>]*>",
    "CSS (.dataframe, vertical-align)": r"vertical-align|\.dataframe|text-align:",
    "traceback line": r"Traceback \(most recent call last\)|^\s*File \"[^\"]+\", line \d+|-{20,}\s*$",
    "ANSI escape": r"\x1b\[|\[0;3\dm",
    "In [n]: prompt": r"^(?:In|Out)\s*\[\d*\]:",
}
PRIORITY = ("text/html", "text/markdown", "image/svg+xml", "text/latex", "image/png", "image/jpeg", "text/plain")


def _source(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else value if isinstance(value, str) else ""


def load(path: Path) -> dict[str, Any] | None:
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    if not isinstance(nb, dict):
        return None
    if "cells" not in nb and isinstance(nb.get("worksheets"), list):
        nb["cells"] = [c for w in nb["worksheets"] for c in w.get("cells", [])]
    return nb if isinstance(nb.get("cells"), list) else None


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.rstrip("\n").split("\n"))


def to_markdown(nb: dict[str, Any], stem: str) -> str:
    """A notebook as `jupyter nbconvert --to markdown` writes it (nbconvert 7's markdown template)."""
    language = ((nb.get("metadata") or {}).get("kernelspec") or {}).get("language", "python")
    out: list[str] = []
    for i, cell in enumerate(nb["cells"]):
        if not isinstance(cell, dict):
            continue
        source = _source(cell.get("source", cell.get("input", "")))
        kind = cell.get("cell_type")
        if kind == "markdown":
            out.append(source)
        elif kind == "heading":
            out.append("#" * int(cell.get("level", 1)) + " " + source)
        elif kind == "raw":
            out.append(source)
        elif kind == "code":
            out.append(f"```{language}\n{source}\n```")
            for j, o in enumerate(cell.get("outputs") or []):
                otype = o.get("output_type")
                if otype == "stream":
                    out.append(_indent(_source(o.get("text"))))
                elif otype in ("error", "pyerr"):
                    out.append(_indent(_ANSI.sub("", "\n".join(o.get("traceback") or []))))
                else:
                    data = o.get("data") or {k2: o[k] for k, k2 in (("text", "text/plain"), ("html", "text/html"),
                                                                   ("png", "image/png")) if k in o}
                    mime = next((m for m in PRIORITY if m in data), None)
                    if mime is None:
                        continue
                    if mime.startswith("image/"):
                        ext = mime.split("/")[1].split("+")[0]
                        out.append(f"![{ext}]({stem}_files/{stem}_{i}_{j}.{ext})")
                    elif mime == "text/plain":
                        out.append(_indent(_source(data[mime])))
                    else:
                        out.append(_source(data[mime]))
    return "\n\n".join(out) + "\n"


def convert(folder: Path, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for path in sorted(folder.rglob("*.ipynb")):
        if any(p.startswith(".") for p in path.relative_to(folder).parts):
            continue
        nb = load(path)
        if nb is None:
            continue
        rel = path.relative_to(folder).with_suffix(".md")
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(to_markdown(nb, path.stem), encoding="utf-8")
        n += 1
    return n


def build(folder: Path, out: Path) -> None:
    from corpus_tools import Corpus
    from corpus_tools.config import CorpusConfig

    if (out / "manifest.json").exists():
        print(f"using {out}", file=sys.stderr)
        return
    Corpus.build(folder, out, config=CorpusConfig(chroma=False), progress=False).close()


def sections(nb: dict[str, Any]) -> list[dict[str, Any]]:
    """The notebook's sections from its raw cells: heading, level, Markdown prose paragraphs, code cells with the
    Markdown cell before each."""
    secs = [{"heading": "", "level": 0, "prose": [], "code": []}]
    before = ""
    for cell in nb["cells"]:
        if not isinstance(cell, dict):
            continue
        source = _source(cell.get("source", cell.get("input", "")))
        if cell.get("cell_type") == "markdown":
            para: list[str] = []
            in_fence = False
            for line in source.split("\n"):
                if line.strip().startswith(("```", "~~~")):
                    in_fence = not in_fence
                    continue
                heading = None if in_fence else _HEADING.match(line)
                if heading:
                    if para:
                        secs[-1]["prose"].append(" ".join(para))
                        para = []
                    secs.append({"heading": heading.group(2).strip(), "level": len(heading.group(1)), "prose": [],
                                 "code": []})
                elif not line.strip() or in_fence:
                    if para:
                        secs[-1]["prose"].append(" ".join(para))
                        para = []
                else:
                    para.append(line.strip())
            if para:
                secs[-1]["prose"].append(" ".join(para))
            before = source
        elif cell.get("cell_type") == "code":
            secs[-1]["code"].append((source, before))
            before = ""
    return secs


def make_queries(folder: Path, per_file: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    notebooks = {}
    for path in sorted(folder.rglob("*.ipynb")):
        if any(p.startswith(".") for p in path.relative_to(folder).parts):
            continue
        nb = load(path)
        if nb is not None:
            notebooks[path.relative_to(folder).as_posix()] = sections(nb)
    heading_count = Counter(s["heading"].lower() for secs in notebooks.values() for s in secs)
    def_files: dict[str, set[str]] = defaultdict(set)
    for doc, secs in notebooks.items():
        for s in secs:
            for code, _ in s["code"]:
                for name in _DEF.findall(code):
                    def_files[name].add(doc)
    queries: list[dict[str, Any]] = []
    for doc, secs in notebooks.items():
        mine: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for s in secs:
            prose = " ".join(s["prose"])
            content = [w for w in words(re.sub(r"`|\*|\[|\]\([^)]*\)", " ", s["heading"])) if w not in _STOP]
            if (s["level"] >= 2 and len(content) >= 2 and heading_count[s["heading"].lower()] == 1
                    and len(words(prose)) >= 20 and not re.search(r"[<>{}$\\]", s["heading"])):
                query = " ".join(re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", s["heading"]).split())
                mine["heading"].append({"query": query, "gold_text": prose})
            for para in s["prose"][1:]:
                for sentence in _SENTENCE.split(para):
                    if len(words(sentence)) >= 10 and not _MARKUP.search(sentence):
                        mine["sentence"].append({"query": sentence.strip(), "gold_text": prose})
            for code, before in s["code"]:
                for name in _DEF.findall(code):
                    if len(def_files[name]) <= 2 and not name.startswith("_") and len(name) >= 4:
                        mine["definition"].append({"query": f"What does {name} do?",
                                                   "gold_text": before + "\n" + code})
        for kind, items in sorted(mine.items()):
            seen: set[str] = set()
            items = [q for q in items if not (q["query"] in seen or seen.add(q["query"]))]
            for q in rng.sample(items, min(per_file, len(items))):
                queries.append({"kind": kind, "doc": doc, **q})
    return queries


def noise(chunks: list[Any]) -> dict[str, int]:
    return {name: sum(1 for c in chunks if re.search(rx, c.text, re.MULTILINE)) for name, rx in NOISE.items()}


def scores(index: Path, queries: list[dict[str, Any]], suffix: str) -> list[dict[str, Any]]:
    from corpus_tools import Corpus

    by_doc = chunks_by_doc(index)
    corpus = Corpus.open(index)
    rows = []
    try:
        for q in queries:
            doc_id = q["doc"][: -len(".ipynb")] + suffix
            gold_ids = set(gold(by_doc, {"doc_id": doc_id, "gold_text": q["gold_text"]}))
            hits = [h.chunk.chunk_id for h in corpus.search(q["query"], k=10)]
            rows.append(_score(hits, gold_ids, 10))
    finally:
        corpus.close()
    return rows


def _score(ranked: list[str], gold_ids: set[str], depth: int) -> dict[str, Any]:
    first = next((r for r, cid in enumerate(ranked[:depth], 1) if cid in gold_ids), None)
    return {"hit1": float(first == 1), "hit5": float(first is not None and first <= 5),
            "mrr": 1.0 / first if first else 0.0, "gold": len(gold_ids)}


def agent_scores(index: Path, queries: list[dict[str, Any]]) -> list[dict[str, dict[str, Any]]]:
    from context1 import SearchAgent
    from corpus_tools import Corpus

    by_doc = chunks_by_doc(index)
    corpus = Corpus.open(index)
    agent = SearchAgent(corpus)
    rows = []
    try:
        for n, q in enumerate(queries, 1):
            gold_ids = set(gold(by_doc, {"doc_id": q["doc"], "gold_text": q["gold_text"]}))
            search = [h.chunk.chunk_id for h in corpus.search(q["query"], k=10)]
            evidence = [e.chunk_id for e in agent.run(q["query"]).evidence]
            rows.append({"search": _score(search, gold_ids, 5), "agent": _score(evidence, gold_ids, 5)})
            if n % 25 == 0:
                print(f"[agent {n}/{len(queries)}]", file=sys.stderr, flush=True)
    finally:
        corpus.close()
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a folder of .ipynb notebooks")
    parser.add_argument("--scratch", type=Path, required=True, help="where the two indexes are built (or found)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--per-file", type=int, default=3, help="most queries of each kind a notebook")
    parser.add_argument("--seed", type=int, default=45)
    parser.add_argument("--agent-limit", type=int, default=150, help="queries the agent runs on (a seeded sample)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    converted_folder = args.scratch / "converted-md"
    if not converted_folder.exists():
        print(f"converted {convert(args.data, converted_folder)} notebooks to Markdown", file=sys.stderr)
    indexes = {"reader": args.scratch / "reader", "converted": args.scratch / "converted"}
    build(args.data, indexes["reader"])
    build(converted_folder, indexes["converted"])
    queries = make_queries(args.data, args.per_file, args.seed)
    print(f"# Notebooks: {args.data} ({len(queries)} proxy queries: "
          f"{dict(Counter(q['kind'] for q in queries))})\n")
    print("## Reading: chunks whose text holds what a reader never sees\n")
    chunks = {arm: all_chunks(path) for arm, path in indexes.items()}
    found = {arm: noise(c) for arm, c in chunks.items()}
    print("| noise | converted (nbconvert → Markdown) | reader |\n| --- | ---: | ---: |")
    print(f"| chunks | {len(chunks['converted'])} | {len(chunks['reader'])} |")
    for name in NOISE:
        print(f"| {name} | {found['converted'][name]} | {found['reader'][name]} |")
    result = {arm: scores(path, queries, ".ipynb" if arm == "reader" else ".md") for arm, path in indexes.items()}
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as fh:
        for q, c, r in zip(queries, result["converted"], result["reader"], strict=True):
            fh.write(json.dumps({"kind": q["kind"], "doc": q["doc"], "query": q["query"], "converted": c,
                                 "reader": r}) + "\n")
    print("\n## Search: one hybrid search (k=10), reader − converted, 95 % paired bootstrap\n")
    print("| queries | n | converted | reader | reader − converted | won / lost |\n| --- | ---: | ---: | ---: | --- | --- |")
    groups = [("all", list(range(len(queries))))] + [
        (kind, [i for i, q in enumerate(queries) if q["kind"] == kind]) for kind in sorted({q["kind"] for q in queries})]
    for metric in ("hit1", "hit5", "mrr"):
        for label, idx in groups:
            if idx:
                print(paired_row(f"{label} {metric}", len(idx), [result["converted"][i][metric] for i in idx],
                           [result["reader"][i][metric] for i in idx]))
    no_gold = sum(1 for r in result["reader"] if not r["gold"])
    print(f"\nqueries with no gold chunk: reader {no_gold}, converted "
          f"{sum(1 for r in result['converted'] if not r['gold'])}")
    if args.agent_limit:
        sample = sorted(random.Random(args.seed).sample(range(len(queries)), min(args.agent_limit, len(queries))))
        rows = agent_scores(indexes["reader"], [queries[i] for i in sample])
        print(f"\n## Agent (LLM-free, reader index): passages vs one search's top 5, {len(rows)} queries\n")
        print("| metric | n | search | agent | agent − search | won / lost |\n| --- | ---: | ---: | ---: | --- | --- |")
        for metric in ("hit1", "hit5", "mrr"):
            print(paired_row(metric, len(rows), [r["search"][metric] for r in rows], [r["agent"][metric] for r in rows]))
        with (args.out / "agent-rows.jsonl").open("w", encoding="utf-8") as fh:
            for i, r in zip(sample, rows, strict=True):
                fh.write(json.dumps({"query": queries[i]["query"], "kind": queries[i]["kind"], **r}) + "\n")


if __name__ == "__main__":
    main()
