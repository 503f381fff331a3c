"""Python source read as documents (session 43, issues 34 + 36): questions about an API, and the docs beside it.

    PYTHONPATH=. nice python benchmarks/source_reading.py --folder FOLDER --scratch SCRATCH
    FOLDER=… SCRATCH=… bash benchmarks/source_reading_report.sh        # the reporting repository: by the lead, once

FOLDER is a repository (or any folder) holding documentation and Python source. Three indexes of it are built
under SCRATCH (reused when present), every one with this checkout's readers and `chroma=False`:

  docs     `CorpusConfig(read_source=False)`: the .py files skipped, as main reads the folder;
  source   `CorpusConfig(read_source=True)`: the .py / .pyi files read as documents (corpus_tools/source_reader.py);
  text     a copy of FOLDER whose .py / .pyi files are renamed NAME.py.txt, read with read_source=False: the same
           source read as plain text (the honest baseline: what a user gets by exporting the code as text).

1. Source questions, built from the code where they can be checked (the script parses the files itself, with
   `ast`, not with the reader), about public definitions (no name part starting with "_" but `__init__`) of
   files outside test folders:
   - "return":  "What does `Owner.name` return?" for a function or method with a return annotation (not None);
   - "params":  "What are the parameters of `Owner.name`?" for one taking a parameter besides self / cls;
   - "summary": the docstring's first sentence, reworded without the name: "Which method returns the …?"
     (functions and methods; its first word a verb, made third person; dropped when it writes the name or a
     word of it).
   Owner.name is Class.method, or the function's own name. Gold: a chunk of the definition's file holding its
   `def` / `class` line as written (stripped); a definition whose line occurs twice in its file asks nothing.
   The same rule for both readings, so neither is favoured by the gold. One `Corpus.search(k=10)` per question
   on the source and text indexes: hit@1, hit@5, MRR@10, source − text with a 95 % paired bootstrap interval and
   queries won / lost (docs_reading.paired).
2. Documentation proxies (benchmarks/docs_reading.make_queries: definition / heading / sentence, the proxies
   benchmarks/docs_agent.py scores; gold = chunks of the page sharing 3 five-word shingles with the section) on
   the docs index vs the source index (docs + source): does adding the source bury the docs' answers? One
   search, and with --agent the LLM-free agent's passages (`SearchAgent(corpus)`, default config).

Questions are sampled with --seed, at most --limit of each kind. Rows in SCRATCH/rows-*.jsonl; the table is
printed and written to SCRATCH/table.md.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import re
import shutil
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docs_reading import chunks_by_doc, gold, make_queries, paired  # noqa: E402

SOURCE_SUFFIXES = (".py", ".pyi")
_TEST_PARTS = frozenset({"test", "tests", "testing"})
_NOT_VERBS = frozenset("a an the this that these those if when for in on of to as by with from like same see note "
                       "used base internal deprecated it its an all any each one default alias private helper "
                       "called sometimes usually optionally please we you i they there here should must may can will do does "
                       "warning".split())  # a sentence about the reader or the project, not what the code does
_WORD = re.compile(r"[A-Za-z]+")


def build(folder: Path, out: Path, read_source: bool) -> tuple[int, float]:
    """(chunks, seconds) of an index of `folder` (built when `out` holds none)."""
    from corpus_tools import Corpus
    from corpus_tools.config import CorpusConfig

    t0 = time.perf_counter()
    if not (out / "manifest.json").exists():
        print(f"building {out} (read_source={read_source})", file=sys.stderr, flush=True)
        Corpus.build(folder, out, config=CorpusConfig(read_source=read_source, chroma=False), progress=False).close()
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    return int(manifest.get("chunk_count", 0)), time.perf_counter() - t0


def text_copy(folder: Path, out: Path) -> None:
    """FOLDER copied with each .py / .pyi file renamed NAME.py.txt (read as plain text); other files as they are."""
    if out.exists():
        return
    tmp = out.with_name(out.name + ".part")
    shutil.rmtree(tmp, ignore_errors=True)
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file() or any(p.startswith(".") for p in rel.parts):
            continue
        target = tmp / rel
        if path.suffix.lower() in SOURCE_SUFFIXES:
            target = target.with_name(target.name + ".txt")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    tmp.rename(out)


def source_files(folder: Path) -> list[Path]:
    """The .py / .pyi files questions are asked about: not hidden, not in a test folder, not test_*.py."""
    out = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if path.suffix.lower() not in SOURCE_SUFFIXES or not path.is_file():
            continue
        if any(p.startswith(".") or p.lower() in _TEST_PARTS for p in rel.parts[:-1]):
            continue
        if path.name.startswith("test_") or path.name == "conftest.py":
            continue
        out.append(path)
    return out


def third_person(verb: str) -> str:
    """ "Return" → "returns", "Push" → "pushes", "Returns" → "returns" (a docstring's imperative or third person)."""
    word = verb.lower()
    if word.endswith("s") and not word.endswith("ss"):
        return word
    if word.endswith(("sh", "ch", "x", "z", "ss", "o")):
        return word + "es"
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def summary_question(doc: str, name: str, kind: str) -> str | None:
    """The docstring's first sentence as "Which KIND VERBs …?", or None when it will not read as one."""
    first = " ".join(doc.strip().split("\n\n")[0].split())
    first = re.split(r"(?<=[.!?])\s", first)[0].rstrip(".!? ")
    words = first.split()
    if not 6 <= len(words) <= 30 or not words[0].isalpha() or words[0].lower() in _NOT_VERBS \
            or not words[0][1:].islower():  # "API key …", "JSON …": a noun, not a verb
        return None
    if re.search(r"[`:<>{}\[\]|*=]|\.\.|\(\)", first):  # markup, code, a signature: not a sentence a user writes
        return None
    name_words = {w.lower() for w in re.split(r"[_.]+", name) if len(w) > 2} | {name.lower()}
    if any(w.lower() in name_words for w in _WORD.findall(first)):
        return None
    return f"Which {kind} {third_person(words[0])} {' '.join(words[1:])}?"


def definitions(folder: Path) -> list[dict[str, Any]]:
    """Public definitions of the source files: name, kind, file, def line, and the questions each can ask."""
    out: list[dict[str, Any]] = []
    for path in source_files(folder):
        doc_id = path.relative_to(folder).as_posix()
        try:
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text)
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError) as exc:
            print(f"no questions from {doc_id}: {type(exc).__name__}", file=sys.stderr)
            continue
        lines = text.splitlines()

        def visit(body: list[ast.stmt], owner: str | None, lines: list[str] = lines, doc_id: str = doc_id) -> None:
            for node in body:
                if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    continue
                public = not node.name.startswith("_") or node.name == "__init__"
                short = f"{owner}.{node.name}" if owner else node.name
                line = lines[node.lineno - 1].strip()
                if public and (owner is None or not owner.startswith("_")):
                    kind = "class" if isinstance(node, ast.ClassDef) else ("method" if owner else "function")
                    asks = []
                    if kind != "class":
                        if node.returns is not None and ast.unparse(node.returns) not in ("None", "NoReturn"):
                            asks.append(("return", f"What does `{short}` return?", ast.unparse(node.returns)))
                        args = node.args
                        params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)
                                  if a.arg not in ("self", "cls")]
                        if params:
                            asks.append(("params", f"What are the parameters of `{short}`?", ", ".join(params)))
                    doc = ast.get_docstring(node)
                    if doc and kind != "class" and node.name != "__init__":  # a class's opens with a noun
                        question = summary_question(doc, node.name, kind)
                        if question:
                            asks.append(("summary", question, short))
                    if asks:
                        out.append({"doc_id": doc_id, "name": short, "kind": kind, "line": line,
                                    "unique": sum(1 for x in lines if x.strip() == line) == 1, "asks": asks})
                if isinstance(node, ast.ClassDef):
                    visit(node.body, short)

        visit(tree.body, None)
    return out


def source_questions(folder: Path, limit: int, seed: int) -> list[dict[str, Any]]:
    """The questions of section 1, at most `limit` of each kind (a seeded sample), in a fixed order."""
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for d in definitions(folder):
        if not d["unique"]:
            continue
        for kind, query, answer in d["asks"]:
            by_kind[kind].append({"kind": kind, "query": query, "answer": answer, "doc_id": d["doc_id"],
                                  "name": d["name"], "line": d["line"]})
    rng = random.Random(seed)
    out = []
    for kind in ("return", "params", "summary"):
        items = by_kind.get(kind, [])
        out.extend(rng.sample(items, limit) if limit and len(items) > limit else items)
    return out


def score(ranked: list[str], gold_ids: set[str]) -> dict[str, float]:
    first = next((r for r, cid in enumerate(ranked, 1) if cid in gold_ids), None)
    return {"hit1": float(first == 1), "hit5": float(first is not None and first <= 5),
            "mrr": 1.0 / first if first else 0.0}


def run_source(index: Path, questions: list[dict[str, Any]], suffix: str, label: str,
               rows_path: Path) -> list[dict[str, float]]:
    """One search per source question; gold = chunks of the file (doc_id + suffix) holding the def line."""
    from corpus_tools import Corpus

    by_doc = chunks_by_doc(index)
    corpus = Corpus.open(index)
    scores = []
    try:
        with rows_path.open("w", encoding="utf-8") as fh:
            for q in questions:
                gold_ids = {c.chunk_id for c in by_doc.get(q["doc_id"] + suffix, [])
                            if any(line.strip() == q["line"] for line in c.text.splitlines())}
                hits = [h.chunk.chunk_id for h in corpus.search(q["query"], k=10)]
                s = score(hits, gold_ids)
                scores.append(s)
                fh.write(json.dumps({**q, "gold": sorted(gold_ids), "hits": hits, **s}) + "\n")
    finally:
        corpus.close()
    print(f"[{label}] {len(questions)} questions, no gold chunk for "
          f"{sum(1 for q in questions if not by_doc.get(q['doc_id'] + suffix))} files", file=sys.stderr)
    return scores


def run_docs(index: Path, queries: list[dict[str, Any]], agent: bool, label: str,
             rows_path: Path) -> dict[str, list[dict[str, float]]]:
    """One search (and the LLM-free agent's passages with `agent`) per documentation proxy."""
    from corpus_tools import Corpus

    by_doc = chunks_by_doc(index)
    corpus = Corpus.open(index)
    out: dict[str, list[dict[str, float]]] = {"search": [], "agent": []}
    try:
        runner = None
        if agent:
            from context1 import SearchAgent

            runner = SearchAgent(corpus)
        with rows_path.open("w", encoding="utf-8") as fh:
            for n, q in enumerate(queries, 1):
                gold_ids = set(gold(by_doc, q))
                row: dict[str, Any] = {k: q[k] for k in ("kind", "query", "doc_id", "section")}
                row["gold"] = sorted(gold_ids)
                row["search"] = [h.chunk.chunk_id for h in corpus.search(q["query"], k=10)]
                out["search"].append(score(row["search"], gold_ids))
                if runner is not None:
                    row["agent"] = [e.chunk_id for e in runner.run(q["query"]).evidence][:5]
                    out["agent"].append(score(row["agent"], gold_ids))
                fh.write(json.dumps(row) + "\n")
                if n % 50 == 0:
                    print(f"[{label} {n}/{len(queries)}]", file=sys.stderr, flush=True)
    finally:
        corpus.close()
    return out


def compare(name: str, kinds: list[str], base: list[dict[str, float]], new: list[dict[str, float]],
            labels: tuple[str, str]) -> list[str]:
    """Table rows: per kind (and all), n, each arm's hit@1 / hit@5 / MRR, and new − base with its interval."""
    rows = []
    groups: dict[str, list[int]] = defaultdict(list)
    for i, k in enumerate(kinds):
        groups["all"].append(i)
        groups[k].append(i)
    for group in sorted(groups, key=lambda g: (g != "all", g)):
        idx = groups[group]
        cells = [name, group, str(len(idx))]
        for metric in ("hit1", "hit5", "mrr"):
            a = [base[i][metric] for i in idx]
            b = [new[i][metric] for i in idx]
            d, won, lost, lo, hi = paired(a, b)
            cells.append(f"{statistics.fmean(a):.3f} → {statistics.fmean(b):.3f}, {d:+.3f} [{lo:+.3f}, {hi:+.3f}] "
                         f"{won}/{lost}")
        rows.append("| " + " | ".join(cells) + " |")
    head = ["comparison", "queries", "n"] + [f"{m} {labels[0]} → {labels[1]}, Δ [95 % CI] won/lost"
                                             for m in ("hit@1", "hit@5", "MRR")]
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *rows]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=Path, required=True, help="a repository: documentation and Python source")
    parser.add_argument("--scratch", type=Path, required=True, help="where the three indexes, rows and table go")
    parser.add_argument("--limit", type=int, default=100, help="at most this many source questions of each kind")
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--per-file", type=int, default=3, help="documentation proxies (docs_reading.make_queries)")
    parser.add_argument("--per-file-definitions", type=int, default=8)
    parser.add_argument("--docs-seed", type=int, default=40)
    parser.add_argument("--agent", action="store_true", help="also the LLM-free agent's passages on the docs proxies")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        parser.error(f"--folder {args.folder} is not a folder")
    scratch = args.scratch
    scratch.mkdir(parents=True, exist_ok=True)
    text_folder = scratch / "text-folder"
    text_copy(args.folder, text_folder)
    built = {"docs": build(args.folder, scratch / "index-docs", False),
             "source": build(args.folder, scratch / "index-source", True),
             "text": build(text_folder, scratch / "index-text", False)}
    lines = [f"# Python source read as documents ({args.folder}; indexes under {scratch})", "",
             "Indexes (chunks, seconds to build or open): " + ", ".join(
                 f"{k} {n:,} ({s:.0f} s)" for k, (n, s) in built.items())]
    report = json.loads((scratch / "index-source" / "build_report.json").read_text(encoding="utf-8")) \
        if (scratch / "index-source" / "build_report.json").exists() else {}
    notes = [n for n in report.get("notes", []) if str(n.get("path", "")).endswith(SOURCE_SUFFIXES)] \
        if isinstance(report.get("notes"), list) else []
    if notes:
        lines.append(f"Source files read with a note ({len(notes)}): " + "; ".join(
            f"{n.get('path')}: {n.get('note') or n.get('reason')}" for n in notes[:10]))
    questions = source_questions(args.folder, args.limit, args.seed)
    if questions:
        src = run_source(scratch / "index-source", questions, "", "source", scratch / "rows-source.jsonl")
        txt = run_source(scratch / "index-text", questions, ".txt", "text", scratch / "rows-text.jsonl")
        lines += ["", f"## 1. Source questions ({len(questions)}): one search, text (plain) → source (documents)", "",
                  *compare("source questions", [q["kind"] for q in questions], txt, src, ("text", "source"))]
    else:
        lines += ["", "## 1. Source questions: none (no public definition with a question to ask)"]
    docs_queries = [q for q in make_queries(args.folder, args.per_file, args.docs_seed, args.per_file_definitions)
                    if q["kind"] in ("definition", "heading", "sentence")]
    if docs_queries:
        base = run_docs(scratch / "index-docs", docs_queries, args.agent, "docs", scratch / "rows-docs-docs.jsonl")
        new = run_docs(scratch / "index-source", docs_queries, args.agent, "docs+source",
                       scratch / "rows-docs-source.jsonl")
        kinds = [q["kind"] for q in docs_queries]
        lines += ["", f"## 2. Documentation proxies ({len(docs_queries)}): docs only → docs + source", "",
                  *compare("one search", kinds, base["search"], new["search"], ("docs", "docs+source"))]
        if args.agent:
            lines += ["", *compare("agent (LLM-free)", kinds, base["agent"], new["agent"], ("docs", "docs+source"))]
    else:
        lines += ["", "## 2. Documentation proxies: none (no Markdown or rst page with a proxy)"]
    text = "\n".join(lines) + "\n"
    (scratch / "table.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
