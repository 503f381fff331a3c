"""Documentation folders read as documents (sessions 40–41, issue 34): two readings of one folder compared.

    python benchmarks/docs_reading.py --data /work/data40/docs --part tune   # session 40: flat vs the readers
    python benchmarks/docs_reading.py --part tune --main-index /work/indexes/docs41-tune \
        --branch-index /work/scratch41-docsearch/tune/branch                  # session 41: main vs this branch
    bash benchmarks/docs_definitions_report.sh                                # the reporting folder: by the lead

Without --main-index / --branch-index, builds two indexes of the folder under --scratch (default
/work/scratch41-docsearch/<part>): "main", with `CorpusConfig(read_markup=False)` (Markdown and rst read as
flat text, as main read them before session 40), and "branch" (the readers, the default). With them, compares
two given builds of the same folder (session 41: an index built by main's code and one built by this
branch's). Search runs in three arms: "main" (the main index as its manifest says), "off" (the branch index,
`SearchConfig.defined_names=0`) and "on" (the branch index, `defined_names=--lift`, default the config's).
Prints:

1. Reading: markup residue left in the indexed chunk text, by kind (anchors, admonition fences, roles,
   directives, include lines, link URLs, HTML tags, heading marks, table rules…), chunks with a section,
   code blocks kept whole in one chunk, titles with markup.
2. Search, one hybrid `Corpus.search(k=5)` per query, hit@5 and MRR@10, main vs branch with the paired
   bootstrap interval of branch − main and queries won / lost, overall and by folder format (Markdown /
   rst). No real user queries ship with documentation, so three proxies are built from the pages' own
   structure, the same for both indexes:
   - "api": a name a heading shows as code (`## Use the \\`response_model_exclude_unset\\` parameter`) or a
     Sphinx `.. data:: SECRET_KEY` documents, asked as "What does NAME do?" with every other heading word
     removed; only names found in at most 3 files and in the section's own text. Gold: that section.
   - "heading": a sub-section's heading (level 2+, two content words or more, unique in the folder) as the
     query. Gold: that section.
   - "sentence": a sentence of 10+ words, free of markup in the source, from the middle of a section
     (after its first paragraph), as the query: can the text be found at all. Gold: that section.
   - "definition" (session 41): a name the source *defines* — a Sphinx entry (`.. py:data:: SECRET_KEY`,
     `.. function:: f(x)`, `.. option:: --out`, also inside a MyST ```` ```{eval-rst} ```` block), a
     Markdown heading that is one code name (`## \\`FastAPI\\` class`), a parameter list's item
     ("- `directory` - A string …") — defined once in the folder, asked "What does NAME do?" and, when the
     definition says "default", "What is the default of NAME?". Gold: the definition's text (the entry's
     body, the section, the item). Found from the raw source by this script's own patterns, not the readers'.
   A chunk is gold when it is a chunk of the query's file sharing at least 3 five-word shingles with the
   section's text (its heading line left out): markup-blind both ways, and lenient to main, whose windows
   run across sections.
Sections are the readers' (markdown_reader / rst_reader) on the source files; queries are sampled with a
fixed seed, at most --per-file of each kind a file.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

DATA = Path("/work/data41/docs")
SCRATCH = Path("/work/scratch41-docsearch")
SUFFIXES = {".md": "markdown", ".markdown": "markdown", ".rst": "rst"}

# Markup a reader of the page never sees, as it sits in indexed chunk text.
RESIDUE = {
    "anchor { #id }": r"\{\s*[#:.][\w .:=-]*\}",
    "admonition fence (///, !!!, :::)": r"(?m)^[ \t]*(?:/{3,}|!!!|\?\?\?|:{3,})",
    "include {* … *} / {! !}": r"\{\*.*?\*\}|\{!.*?!\}",
    "rst directive (.. name::)": r"(?m)^[ \t]*\.\. [\w:.-]+::",
    "rst label / comment (.. _x:)": r"(?m)^[ \t]*\.\. (?:_|\|)",
    "role (:func:`…`)": r":[\w:+.-]+:`",
    "rst link (`…`_)": r"`__?(?!\w)",
    "link URL ](…)": r"\]\([^)\s]*\)",
    "HTML tag": r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>\n]*)?/?>",
    "heading mark (#, ===)": r"(?m)^#{1,6} |^([=\-~^*+#\"'`])\1{3,}[ \t]*$",
    "table rule (|---|, +---+)": r"(?m)^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\||^[ \t]*\+[-=]{3,}\+",
    "code fence (```)": r"```|~~~",
    "MyST role ({func}`…`)": r"\{[a-z][a-z0-9:+-]*\}(?=[`\w~!.])",
    "MyST label ((name)=)": r"(?m)^[ \t]*\([\w.:-]+\)=[ \t]*$",
    "emphasis (**)": r"\*\*",
    "inline code backtick": r"`",
}
_WORD = re.compile(r"\w+")
_HEADING_CODE = re.compile(r"`([^`]+)`")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_DATA_DIRECTIVE = re.compile(r"^\.\. (?:py:)?(?:data|confval)::\s*(\S+)\s*$", re.MULTILINE)
# Definitions in the raw source (the "definition" proxy): a Sphinx entry, a heading that is a code name, a list item.
_ENTRY = re.compile(r"^([ \t]*)\.\. (?:py:|std:)?(data|confval|function|class|method|attribute|option|cmdoption|"
                    r"envvar|exception|decorator|property)::[ \t]*(\S.*)$", re.MULTILINE)
_CODE_HEADING = re.compile(r"^#{2,6}[ \t]+`([A-Za-z_][\w.]*|--?[\w-]+)(?:\(\))?`(?:[ \t]+\w+)?[ \t]*"
                           r"(?:\{[^}]*\})?[ \t]*$", re.MULTILINE)
_LIST_DEF = re.compile(r"^[ \t]*[-*+][ \t]+`([A-Za-z_][\w.]*|--?[\w-]+)`[ \t]*(?:-|–|:)[ \t]+(\S.*)$", re.MULTILINE)
_STOP = frozenset("a an the and or of to in on for with by is are be how what do does use using your you it "
                  "this that from as at".split())


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def shingles(text: str, n: int = 5) -> set[tuple[str, ...]]:
    toks = words(text)
    return {tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)}


def build(folder: Path, out: Path, markup: bool) -> None:
    from corpus_tools import Corpus
    from corpus_tools.config import CorpusConfig

    if (out / "manifest.json").exists():
        print(f"using {out}", file=sys.stderr)
        return
    Corpus.build(folder, out, config=CorpusConfig(read_markup=markup, chroma=False), progress=False).close()


def all_chunks(index: Path) -> list[Any]:
    from corpus_tools import Corpus

    corpus = Corpus.open(index)
    try:
        return [c for d in corpus.doc_ids() for c in corpus.chunks(d)]
    finally:
        corpus.close()


def chunks_by_doc(index: Path) -> dict[str, list[Any]]:
    """An index's chunks grouped by their document, in the index's order."""
    by_doc: dict[str, list[Any]] = defaultdict(list)
    for c in all_chunks(index):
        by_doc[c.doc_id].append(c)
    return by_doc


def residue(chunks: list[Any]) -> dict[str, dict[str, int]]:
    """Occurrences of each kind of markup in the chunks' text, by project (top folder)."""
    found: dict[str, Counter[str]] = defaultdict(Counter)
    for chunk in chunks:
        if Path(chunk.doc_id).suffix.lower() not in SUFFIXES:
            continue
        fmt = project(chunk.doc_id)
        for kind, pattern in RESIDUE.items():
            found[fmt][kind] += len(re.findall(pattern, chunk.text))
        found[fmt]["chunks"] += 1
        found[fmt]["chunks with a section"] += bool(chunk.metadata.get("section"))
        found[fmt]["chunks defining a name"] += bool(chunk.metadata.get("defines"))
    return {k: dict(v) for k, v in found.items()}


def sections(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Per file: its sections in order (path, level, heading, text without the heading, raw heading names)."""
    from corpus_tools.readers import UnreadableFileError, read_markup, read_text

    out: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(folder.rglob("*")):
        if path.suffix.lower() not in SUFFIXES or any(p.startswith(".") for p in path.relative_to(folder).parts):
            continue
        doc_id = path.relative_to(folder).as_posix()
        try:
            page = read_markup(read_text(path), path.suffix)
        except UnreadableFileError as exc:  # an unreadable page asks no question (both indexes skip it alike)
            print(f"skipped {doc_id}: {exc}", file=sys.stderr)
            continue
        by_section: dict[str, list[str]] = {}
        for part in page.parts:
            by_section.setdefault(part.section, []).append(page.text[part.start : part.end])
        out[doc_id] = [{"section": s, "pieces": pieces} for s, pieces in by_section.items()]
    return out


def raw_headings(text: str, suffix: str) -> list[str]:
    """Headings of a source file as written (code spans kept), for the names they show as code."""
    if suffix == ".rst":
        return []
    return [re.sub(r"\{\s*#[^}]*\}", "", line.lstrip("#").strip()) for line in text.splitlines()
            if re.match(r"^#{2,6} ", line)]


def make_queries(folder: Path, per_file: int, seed: int, per_file_definitions: int = 8) -> list[dict[str, Any]]:
    from corpus_tools.readers import read_text

    rng = random.Random(seed)
    secs = sections(folder)
    raw = {d: read_text(folder / d) for d in secs}
    heading_count = Counter(s["section"].rsplit(" > ", 1)[-1].lower() for d in secs for s in secs[d])
    queries: list[dict[str, Any]] = []

    def section_text(doc: str, name: str) -> str:
        """The section's text and its sub-sections', its own heading line left out."""
        pieces = [p for s in secs[doc] if s["section"] == name or s["section"].startswith(name + " > ")
                  for p in s["pieces"]]
        heading = name.rsplit(" > ", 1)[-1]
        if pieces and pieces[0].startswith(heading):
            pieces[0] = pieces[0][len(heading):]
        return "\n".join(pieces)

    for doc in sorted(secs):
        fmt = SUFFIXES[Path(doc).suffix.lower()]
        api, heads, sents = [], [], []
        for code_heading in raw_headings(raw[doc], Path(doc).suffix.lower()):
            for name in _HEADING_CODE.findall(code_heading):
                if len(name) < 4 or " " in name.strip():
                    continue
                files = sum(name in raw[d] for d in raw)
                target = next((s["section"] for s in secs[doc]
                               if s["section"].rsplit(" > ", 1)[-1] == _strip_code(code_heading)), None)
                if target and files <= 3 and name in section_text(doc, target):
                    api.append((name, target))
        for name in _DATA_DIRECTIVE.findall(raw[doc]):
            files = sum(name in raw[d] for d in raw)
            if files <= 3:
                api.append((name, f"data::{name}"))
        for s in secs[doc]:
            name = s["section"]
            if " > " not in name:
                continue
            heading = name.rsplit(" > ", 1)[-1]
            content = [w for w in words(heading) if w not in _STOP]
            if len(content) >= 2 and heading_count[heading.lower()] == 1:
                heads.append((heading, name))
            body = "\n\n".join(s["pieces"][1:]) if len(s["pieces"]) > 1 else ""
            for sentence in _SENTENCE.split(" ".join(body.split())):
                if 10 <= len(sentence.split()) <= 40 and sentence in " ".join(raw[doc].split()) \
                        and not re.search(r"[`|<>\[\]{}*_:]|\.\.|//", sentence):
                    sents.append((sentence, name))
        for kind, items in (("api", api), ("heading", heads), ("sentence", sents)):
            items = list(dict.fromkeys(items))
            rng.shuffle(items)
            for query, target in items[:per_file]:
                if target.startswith("data::"):
                    text = _directive_body(raw[doc], target[6:])
                    target_text = text
                    query_text = f"What does {query} do?"
                else:
                    target_text = section_text(doc, target)
                    query_text = f"What does {query} do?" if kind == "api" else query
                if len(shingles(target_text)) < 3:
                    continue
                queries.append({"kind": kind, "format": fmt, "doc_id": doc, "query": query_text,
                                "section": target, "gold_text": target_text})
    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for d in definitions(folder, raw, secs):
        by_doc[d["doc_id"]].append(d)
    drng = random.Random(seed + 1)  # its own stream: the session 40 proxies keep their sample
    for doc in sorted(by_doc):
        items = by_doc[doc]
        drng.shuffle(items)
        for d in items[:per_file_definitions]:
            asks = [("do", f"What does {d['name']} do?")]
            if d["source"] != "heading" and "default" in d["text"].lower():  # a section's text may say it of another
                asks.append(("default", f"What is the default of {d['name']}?"))
            for ask, query_text in asks:
                queries.append({"kind": "definition", "ask": ask, "source": d["source"],
                                "format": SUFFIXES[Path(doc).suffix.lower()], "doc_id": doc, "query": query_text,
                                "section": d["name"], "gold_text": d["text"]})
    return queries


def definitions(folder: Path, raw: dict[str, str], secs: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Names the source defines, each with its file, its kind and its definition's text (see the docstring):
    only names defined once in the folder, 3 characters or more, with 3 five-word shingles of text or more."""
    found: list[dict[str, Any]] = []
    for doc in sorted(raw):
        text = raw[doc]
        lines = text.splitlines()
        for m in _ENTRY.finditer(text):
            kind, signature = m.group(2), m.group(3).strip()
            if kind in ("option", "cmdoption"):
                name = re.split(r"[\s,=<\[]", signature, maxsplit=1)[0]
            else:
                name = re.split(r"[(\[\s]", re.sub(r"^(?:class|async)\s+", "", signature), maxsplit=1)[0]
            start = text[: m.start()].count("\n") + 1
            body = []
            for following in lines[start:]:
                if following.strip() and len(following) - len(following.lstrip()) <= len(m.group(1)):
                    break
                body.append(following.strip())
            from corpus_tools.rst_reader import inline as rst_inline

            found.append({"doc_id": doc, "name": name, "source": "entry",
                          "text": " ".join(rst_inline(b) for b in body if b and not b.startswith(":"))})
        if Path(doc).suffix.lower() != ".rst":
            for m in _CODE_HEADING.finditer(text):
                heading = re.sub(r"\{[^}]*\}", "", m.group(0).lstrip("#")).strip()
                target = next((s["section"] for s in secs.get(doc, [])
                               if s["section"].rsplit(" > ", 1)[-1] == _strip_code(heading)), None)
                if target:
                    pieces = [p for s in secs[doc] if s["section"] == target for p in s["pieces"]]
                    found.append({"doc_id": doc, "name": m.group(1), "source": "heading", "text": "\n".join(pieces)})
            for m in _LIST_DEF.finditer(text):
                found.append({"doc_id": doc, "name": m.group(1), "source": "item", "text": m.group(2)})
    count = Counter(d["name"] for d in found)
    return [d for d in found if count[d["name"]] == 1 and len(d["name"].lstrip("-")) >= 3
            and len(shingles(d["text"])) >= 3]


def _strip_code(heading: str) -> str:
    from corpus_tools.markdown_reader import inline

    return " ".join(inline(heading).split())


def _directive_body(raw: str, name: str) -> str:
    lines = raw.splitlines()
    for i, line in enumerate(lines):
        if _DATA_DIRECTIVE.match(line) and line.split("::", 1)[1].strip() == name:
            body = []
            for following in lines[i + 1 :]:
                if following.strip() and not following[:1].isspace():
                    break
                body.append(following)
            from corpus_tools.rst_reader import inline

            return " ".join(inline(b.strip()) for b in body)
    return ""


def gold(chunks_by_doc: dict[str, list[Any]], query: dict[str, Any]) -> list[str]:
    target = shingles(query["gold_text"])
    return [c.chunk_id for c in chunks_by_doc.get(query["doc_id"], []) if len(shingles(c.text) & target) >= 3]


def paired(a: list[float], b: list[float], seed: int = 0) -> tuple[float, int, int, float, float]:
    """Mean of b − a, queries won / lost, and the 95 % paired bootstrap interval of the mean."""
    d = [y - x for x, y in zip(a, b, strict=True)]
    rng = random.Random(seed)
    means = sorted(sum(rng.choice(d) for _ in d) / len(d) for _ in range(2000))
    return statistics.fmean(d), sum(x > 0 for x in d), sum(x < 0 for x in d), means[49], means[1949]


def paired_row(label: str, n: int, a: list[float], b: list[float]) -> str:
    """A Markdown table row: label, n, the two means, b − a with its 95 % paired bootstrap interval, won / lost."""
    mean, won, lost, lo, hi = paired(a, b)
    return (f"| {label} | {n} | {sum(a) / n:.3f} | {sum(b) / n:.3f} | {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] "
            f"| {won} / {lost} |")


def search_all(index: Path, queries: list[dict[str, Any]], label: str, search: Any = None) -> list[dict[str, float]]:
    from corpus_tools import Corpus

    chunks = all_chunks(index)
    by_doc: dict[str, list[Any]] = defaultdict(list)
    for c in chunks:
        by_doc[c.doc_id].append(c)
    corpus = Corpus.open(index) if search is None else Corpus.open(index, search=search)
    scores = []
    try:
        for n, q in enumerate(queries, 1):
            gold_ids = set(gold(by_doc, q))
            hits = [h.chunk.chunk_id for h in corpus.search(q["query"], k=10)]
            first = next((r for r, cid in enumerate(hits, 1) if cid in gold_ids), None)
            scores.append({"hit5": float(first is not None and first <= 5), "mrr": 1.0 / first if first else 0.0,
                           "gold": len(gold_ids)})
            if n % 100 == 0:
                print(f"[{label} {n}/{len(queries)}]", file=sys.stderr, flush=True)
    finally:
        corpus.close()
    return scores


def code_whole(chunks: list[Any], folder: Path) -> dict[str, tuple[int, int]]:
    """Per project: (code blocks whole in one chunk, code blocks) — blocks as the readers find them."""
    from corpus_tools.readers import UnreadableFileError, read_markup, read_text

    by_doc: dict[str, list[str]] = defaultdict(list)
    for c in chunks:
        by_doc[c.doc_id].append(c.text)
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for doc in by_doc:
        suffix = Path(doc).suffix.lower()
        if suffix not in SUFFIXES:
            continue
        try:
            page = read_markup(read_text(folder / doc), suffix)
        except UnreadableFileError:
            continue
        for part in page.parts:
            if part.kind != "code":
                continue
            block = page.text[part.start : part.end]
            lines = [ln.strip() for ln in block.splitlines() if ln.strip()]
            whole = any(all(ln in text for ln in lines) and _in_order(text, lines) for text in by_doc[doc])
            out[project(doc)][0] += whole
            out[project(doc)][1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def _in_order(text: str, lines: list[str]) -> bool:
    at = 0
    for line in lines:
        at = text.find(line, at)
        if at < 0:
            return False
        at += len(line)
    return True


def titles(chunks: list[Any]) -> dict[str, int]:
    seen = {c.doc_id: c.metadata.get("title", "") for c in chunks if Path(c.doc_id).suffix.lower() in SUFFIXES}
    return {"documents": len(seen), "titles with markup": sum(bool(re.search(r"[`{}#*]|:\w+:", t))
                                                               for t in seen.values())}


def project(doc_id: str) -> str:
    """A documentation folder's project: the top folder of a page's path ("click/options.md" → click)."""
    return doc_id.split("/", 1)[0] if "/" in doc_id else "."


def compare_rows(queries: list[dict[str, Any]], scores: dict[str, list[dict[str, float]]],
                 pairs: list[tuple[str, str]]) -> list[str]:
    """The search table: per query group, hit@5 and MRR@10 of every arm, and each pair's paired difference."""
    arms = list(scores)
    head = (["queries", "n"] + [f"hit@5 {a}" for a in arms]
            + [f"Δ hit@5 {b}−{a} [95 % CI] won/lost" for a, b in pairs] + [f"MRR {a}" for a in arms]
            + [f"Δ MRR {b}−{a} [95 % CI]" for a, b in pairs])
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    groups: dict[str, list[int]] = defaultdict(list)
    for i, q in enumerate(queries):
        for name in ("all", q["kind"], f"{q['kind']} · {q['format']}", f"{q['kind']} · {project(q['doc_id'])}",
                     f"project {project(q['doc_id'])}"):
            groups[name].append(i)
        if q["kind"] == "definition":
            groups[f"definition · ask {q['ask']}"].append(i)
            groups[f"definition · {q['source']}"].append(i)
    for name in sorted(groups, key=lambda g: (g != "all", g)):
        idx = groups[name]
        hit = {a: [scores[a][i]["hit5"] for i in idx] for a in arms}
        mrr = {a: [scores[a][i]["mrr"] for i in idx] for a in arms}
        cells = [name, str(len(idx))] + [f"{statistics.fmean(hit[a]):.3f}" for a in arms]
        for a, b in pairs:
            d, won, lost, lo, hi = paired(hit[a], hit[b])
            cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}")
        cells += [f"{statistics.fmean(mrr[a]):.3f}" for a in arms]
        for a, b in pairs:
            d, _w, _l, lo, hi = paired(mrr[a], mrr[b])
            cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]")
        out.append("| " + " | ".join(cells) + " |")
    return out


def main(argv: list[str] | None = None) -> None:
    import dataclasses

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("tune", "report"), required=True)
    parser.add_argument("--data", type=Path, default=DATA, help="the folder holding tune/ and report/")
    parser.add_argument("--scratch", type=Path, default=None, help="where the two indexes are built")
    parser.add_argument("--main-index", type=Path, default=None, help="compare this build (main's code) …")
    parser.add_argument("--branch-index", type=Path, default=None, help="… with this one (the branch's code)")
    parser.add_argument("--lift", type=float, default=None,
                        help="SearchConfig.defined_names of the 'on' arm (default: the config's default)")
    parser.add_argument("--per-file", type=int, default=3, help="queries of each kind per file, at most")
    parser.add_argument("--per-file-definitions", type=int, default=8, help="defined names asked per file, at most")
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args(argv)
    from corpus_tools import Corpus
    from corpus_tools.config import SearchConfig

    folder = args.data / args.part
    if not folder.is_dir():
        parser.error(f"no folder {folder}")
    if (args.main_index is None) != (args.branch_index is None):
        parser.error("give both --main-index and --branch-index, or neither (then both are built)")
    scratch = args.scratch or SCRATCH / args.part
    scratch.mkdir(parents=True, exist_ok=True)
    if args.main_index is not None:
        indexes = {"main": args.main_index, "branch": args.branch_index}
        for label, index in indexes.items():
            if not (index / "manifest.json").exists():
                parser.error(f"--{label}-index {index} is not an index (no manifest.json)")
    else:
        indexes = {"main": scratch / "main", "branch": scratch / "branch"}
        for label, index in indexes.items():
            build(folder, index, markup=label == "branch")
    lift = SearchConfig().defined_names if args.lift is None else args.lift
    if lift < 0:
        parser.error(f"--lift must be >= 0, got {lift}")
    chunks = {label: all_chunks(index) for label, index in indexes.items()}
    print(f"# docs reading, part {args.part} ({folder})\n")
    print(f"main = {indexes['main']}, branch = {indexes['branch']}; lift (defined_names) of arm 'on' = {lift}\n")
    print("## Reading (markup left in the indexed chunk text, by project)\n")
    res = {label: residue(c) for label, c in chunks.items()}
    for proj in sorted(set(res["main"]) | set(res["branch"])):
        print(f"| {proj} | main | branch |\n|---|---:|---:|")
        for kind in [*RESIDUE, "chunks", "chunks with a section", "chunks defining a name"]:
            print(f"| {kind} | {res['main'].get(proj, {}).get(kind, 0):,} | {res['branch'].get(proj, {}).get(kind, 0):,} |")
        whole = {label: code_whole(c, folder).get(proj, (0, 0)) for label, c in chunks.items()}
        print(f"| code blocks whole in one chunk | {whole['main'][0]}/{whole['main'][1]} | "
              f"{whole['branch'][0]}/{whole['branch'][1]} |")
        print()
    for label, c in chunks.items():
        print(f"- {label}: {titles(c)}")
    queries = make_queries(folder, args.per_file, args.seed, args.per_file_definitions)
    (scratch / "queries.jsonl").write_text("".join(json.dumps({k: v for k, v in q.items() if k != "gold_text"})
                                                   + "\n" for q in queries), encoding="utf-8")
    on = Corpus.open(indexes["branch"]).config.search
    arms = {"main": (indexes["main"], None), "off": (indexes["branch"], dataclasses.replace(on, defined_names=0.0)),
            "on": (indexes["branch"], dataclasses.replace(on, defined_names=lift))}
    scores = {label: search_all(index, queries, label, search) for label, (index, search) in arms.items()}
    print(f"\n## Search (one hybrid search, k=5 / MRR@10; {len(queries)} queries)\n")
    print("\n".join(compare_rows(queries, scores, [("main", "off"), ("main", "on"), ("off", "on")])))
    (scratch / f"scores-{args.part}.json").write_text(json.dumps(scores), encoding="utf-8")
    moved = [(q["query"], q["doc_id"], scores["off"][i]["mrr"], scores["on"][i]["mrr"]) for i, q in enumerate(queries)
             if scores["off"][i]["mrr"] != scores["on"][i]["mrr"]]
    print(f"\n## Queries the lift moved (MRR off → on): {len(moved)}\n")
    for query, doc, a, b in sorted(moved, key=lambda m: m[3] - m[2]):
        print(f"- {a:.2f} → {b:.2f}  {query}  ({doc})")


if __name__ == "__main__":
    main()
