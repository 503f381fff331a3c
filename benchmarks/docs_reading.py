"""Documentation folders read as documents (session 40, issue 34): main's flat reading vs the Markdown / rst readers.

    python benchmarks/docs_reading.py --part tune      # /work/data40/docs/tune (FastAPI .md + Flask .rst)
    python benchmarks/docs_reading.py --part report    # the reporting folder: run once, by the lead

Builds two indexes of the folder under --scratch (default /work/scratch40-docsread/<part>): "main", with
`CorpusConfig(read_markup=False)` (Markdown and rst read as flat text, as main reads them), and "branch"
(the readers, the default), then prints:

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

DATA = Path("/work/data40/docs")
SCRATCH = Path("/work/scratch40-docsread")
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
    "emphasis (**)": r"\*\*",
    "inline code backtick": r"`",
}
_WORD = re.compile(r"\w+")
_HEADING_CODE = re.compile(r"`([^`]+)`")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_DATA_DIRECTIVE = re.compile(r"^\.\. (?:py:)?(?:data|confval)::\s*(\S+)\s*$", re.MULTILINE)
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


def residue(chunks: list[Any]) -> dict[str, dict[str, int]]:
    """Occurrences of each kind of markup in the chunks' text, by folder format."""
    found: dict[str, Counter[str]] = defaultdict(Counter)
    for chunk in chunks:
        fmt = SUFFIXES.get(Path(chunk.doc_id).suffix.lower())
        if fmt is None:
            continue
        for kind, pattern in RESIDUE.items():
            found[fmt][kind] += len(re.findall(pattern, chunk.text))
        found[fmt]["chunks"] += 1
        found[fmt]["chunks with a section"] += bool(chunk.metadata.get("section"))
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


def make_queries(folder: Path, per_file: int, seed: int) -> list[dict[str, Any]]:
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
    return queries


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


def search_all(index: Path, queries: list[dict[str, Any]], label: str) -> list[dict[str, float]]:
    from corpus_tools import Corpus

    chunks = all_chunks(index)
    by_doc: dict[str, list[Any]] = defaultdict(list)
    for c in chunks:
        by_doc[c.doc_id].append(c)
    corpus = Corpus.open(index)
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
    """Per format: (code blocks whole in one chunk, code blocks) — blocks as the readers find them."""
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
            out[SUFFIXES[suffix]][0] += whole
            out[SUFFIXES[suffix]][1] += 1
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("tune", "report"), required=True)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--scratch", type=Path, default=None, help="where the two indexes are built")
    parser.add_argument("--per-file", type=int, default=3, help="queries of each kind per file, at most")
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args(argv)
    folder = args.data / args.part
    scratch = args.scratch or SCRATCH / args.part
    scratch.mkdir(parents=True, exist_ok=True)
    indexes = {"main": scratch / "main", "branch": scratch / "branch"}
    for label, index in indexes.items():
        build(folder, index, markup=label == "branch")
    chunks = {label: all_chunks(index) for label, index in indexes.items()}
    print(f"# docs reading, part {args.part} ({folder})\n")
    print("## Reading\n")
    res = {label: residue(c) for label, c in chunks.items()}
    for fmt in ("markdown", "rst"):
        if fmt not in res["main"]:
            continue
        print(f"| {fmt} | main | branch |\n|---|---:|---:|")
        for kind in [*RESIDUE, "chunks", "chunks with a section"]:
            print(f"| {kind} | {res['main'][fmt].get(kind, 0):,} | {res['branch'].get(fmt, {}).get(kind, 0):,} |")
        whole = {label: code_whole(c, folder).get(fmt, (0, 0)) for label, c in chunks.items()}
        print(f"| code blocks whole in one chunk | {whole['main'][0]}/{whole['main'][1]} | "
              f"{whole['branch'][0]}/{whole['branch'][1]} |")
        print()
    for label, c in chunks.items():
        print(f"- {label}: {titles(c)}")
    queries = make_queries(folder, args.per_file, args.seed)
    scores = {label: search_all(index, queries, label) for label, index in indexes.items()}
    (scratch / "queries.jsonl").write_text("".join(json.dumps({k: v for k, v in q.items() if k != "gold_text"})
                                                   + "\n" for q in queries), encoding="utf-8")
    print("\n## Search (one hybrid search, k=5 / MRR@10)\n")
    print("| queries | n | no gold (main/branch) | hit@5 main | hit@5 branch | Δ [95 % CI] | won/lost "
          "| MRR main | MRR branch | Δ MRR [95 % CI] |")
    print("|---|---:|---:|---:|---:|---|---|---:|---:|---|")
    groups: dict[str, list[int]] = defaultdict(list)
    for i, q in enumerate(queries):
        groups["all"].append(i)
        groups[q["kind"]].append(i)
        groups[f"{q['kind']} · {q['format']}"].append(i)
        groups[q["format"]].append(i)
    for name in sorted(groups, key=lambda g: (g != "all", g)):
        idx = groups[name]
        a = [scores["main"][i]["hit5"] for i in idx]
        b = [scores["branch"][i]["hit5"] for i in idx]
        ma = [scores["main"][i]["mrr"] for i in idx]
        mb = [scores["branch"][i]["mrr"] for i in idx]
        d, won, lost, lo, hi = paired(a, b)
        dm, _w, _l, mlo, mhi = paired(ma, mb)
        nogold = (sum(scores["main"][i]["gold"] == 0 for i in idx), sum(scores["branch"][i]["gold"] == 0 for i in idx))
        print(f"| {name} | {len(idx)} | {nogold[0]}/{nogold[1]} | {statistics.fmean(a):.3f} | "
              f"{statistics.fmean(b):.3f} | {d:+.3f} [{lo:+.3f}, {hi:+.3f}] | {won}/{lost} | "
              f"{statistics.fmean(ma):.3f} | {statistics.fmean(mb):.3f} | {dm:+.3f} [{mlo:+.3f}, {mhi:+.3f}] |")
    (scratch / f"scores-{args.part}.json").write_text(json.dumps(scores), encoding="utf-8")


if __name__ == "__main__":
    main()
