"""Unix manual pages searched (session 49, issues 34 and 36): the man reader against what a user has today.

    PYTHONPATH=. nice python benchmarks/manpages_search.py --data /work/scratch49-man/tune \\
        --scratch /work/scratch49-man/search --out /work/runs/s49/man/search
    bash benchmarks/manpages_report.sh                      # a reporting folder of pages: by the lead, once

Before session 49 `context1 index` skipped `.1` … `.9` files (an unsupported type): a user who wanted their manual
searched copied each page to a `.txt` file, and that is the baseline here (`man`-rendered text is not available on
this machine). Two indexes of one folder of pages, built under --scratch unless they exist:

  reader   the folder as it is, CorpusConfig.read_man (corpus_tools/man_reader.py);
  plain    every file copied as NAME.txt and indexed by the base reading: roff source as text, a redirect page
           (`.so man2/stat.2`) a document of one line.

Prints the roff left in the indexed text of each, then one hybrid `Corpus.search(k=10)` per proxy query: hit@1,
hit@5, MRR@10, reader vs plain with the paired bootstrap interval of reader − plain (docs_reading.paired) and
queries won / lost, overall and by kind. No user queries ship with manual pages; proxies from the raw pages:
  - "name":  "What does NAME do?" for each page's first NAME entry and for each redirect page's name (`fstat`, gold
             on stat.2's page). Gold: the chunks holding the NAME line.
  - "tag":   a tagged paragraph (`.TP`) of ERRORS or OPTIONS, or a constant's entry elsewhere, asked with its
             description's words removed: "When does openat2 fail with E2BIG?", "What does the -r option of
             mount do?", "What is O_TMPFILE in openat2?". Gold: the paragraphs under that tag on the page.
  - "sentence": a sentence of 10+ words from DESCRIPTION prose. Gold: its paragraph.
A chunk is gold when it is a chunk of the query's page sharing at least 3 five-word shingles with the gold text,
in its clean form or as roff source (docs_reading.gold, lenient to the plain text).
Per-query rows in OUT/rows.jsonl.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docs_reading import all_chunks, chunks_by_doc, paired_row, shingles  # noqa: E402

RESIDUE = {"font escape (\\fB …)": r"\\f[BIRP(\[]", "request line (.SH, .TP, .BR …)": r"(?m)^[.'][A-Za-z]{1,3}\b",
           "comment (.\\\")": r'\\"', "hyphen escape (\\-)": r"\\-", "named char (\\(em …)": r"\\\(..|\\\[\w+\]"}
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _clean(line: str) -> str:
    """A roff line as it reads (the benchmark's own small cleaner: a macro's words, escapes out)."""
    from corpus_tools.man_reader import _args, inline

    match = re.match(r"^[.']\s*(\S+)\s*(.*)$", line)
    if match:
        name, rest = match.groups()
        if name in ("B", "I", "SM", "SB"):
            return inline(" ".join(_args(rest)))
        if name in ("BR", "RB", "IR", "RI", "BI", "IB"):
            return inline("".join(_args(rest)))
        return ""
    return inline(line)


def pages(folder: Path) -> list[dict[str, Any]]:
    """Each page's raw lines by section, its NAME line, its tagged paragraphs and its DESCRIPTION paragraphs."""
    from corpus_tools.man_reader import is_man_suffix, redirect_target

    out = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or not is_man_suffix(path.suffix):
            continue
        text = path.read_bytes().decode("utf-8", "replace")
        rel = path.relative_to(folder).as_posix()
        target = redirect_target(text)
        if target:
            out.append({"doc": rel, "redirect": target, "name": path.stem})
            continue
        section, name_line = "", []
        tags: list[dict[str, Any]] = []
        paragraphs: list[dict[str, Any]] = []
        cur: dict[str, Any] | None = None
        expect_tag = False
        for raw in text.splitlines():
            if re.match(r'^[.\']\s*\\"', raw):
                continue
            m = re.match(r"^[.']\s*(\S+)\s*(.*)$", raw)
            req = m.group(1) if m else ""
            if req in ("SH", "SS", "TP", "PP", "P", "LP", "IP", "TQ", "RE", "RS", "EX", "nf", "TS"):
                if cur and cur["clean"]:
                    (tags if cur.get("tag") else paragraphs).append(cur)
                cur = None
                if req == "SH":
                    section = " ".join(_clean_args(m.group(2))).upper()
                if req in ("TP", "TQ"):
                    expect_tag = True
                elif req in ("PP", "P", "LP") and section == "DESCRIPTION":
                    cur = {"section": section, "raw": [], "clean": [], "tag": ""}
                continue
            line = _clean(raw)
            if section == "NAME" and line.strip():
                name_line.append(line.strip())
            if expect_tag:
                expect_tag = False
                cur = {"section": section, "raw": [raw], "clean": [line], "tag": " ".join(line.split())}
                continue
            if cur is not None:
                cur["raw"].append(raw)
                if line.strip():
                    cur["clean"].append(line)
        if cur and cur["clean"]:
            (tags if cur.get("tag") else paragraphs).append(cur)
        name = " ".join(name_line)
        names = [n.strip() for n in re.split(r"\s+[-–—]\s+", name, maxsplit=1)[0].split(",") if n.strip()]
        out.append({"doc": rel, "names": names, "name_line": name, "tags": tags, "paragraphs": paragraphs,
                    "command": path.suffix[1:2] in ("1", "8")})
    return out


def _clean_args(rest: str) -> list[str]:
    from corpus_tools.man_reader import _args, inline

    return [inline(a) for a in _args(rest)]


def make_queries(folder: Path, per_page: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    found = pages(folder)
    by_path = {p["doc"]: p for p in found if "redirect" not in p}
    queries: list[dict[str, Any]] = []
    for page in found:
        if "redirect" in page:
            target = next((d for d in (page["redirect"], f"{Path(page['doc']).parent.parent}/{page['redirect']}",
                                       f"{Path(page['doc']).parent}/{page['redirect']}")
                           if d.lstrip("./") in by_path), None)
            target_page = by_path.get(target.lstrip("./")) if target else None
            if target_page and target_page["name_line"] and page["name"] not in target_page["names"][:1]:
                queries.append({"kind": "name", "doc": target_page["doc"], "query": f"What does {page['name']} do?",
                                "gold": [target_page["name_line"]], "raw": [], "alias": True})
            continue
        if not page["names"] or not page["name_line"]:
            continue
        name = page["names"][0]
        queries.append({"kind": "name", "doc": page["doc"], "query": f"What does {name} do?",
                        "gold": [page["name_line"]], "raw": []})
        tagged = []
        for entry in page["tags"]:
            tag = entry["tag"]
            first = tag.split()[0].strip(",") if tag.split() else ""
            body = " ".join(" ".join(entry["clean"][1:]).split())
            if len(body.split()) < 8 or not first:
                continue
            if entry["section"] == "ERRORS" and re.fullmatch(r"E[A-Z0-9]+", first):
                q = f"When does {name} fail with {first}?"
            elif entry["section"] == "OPTIONS" and first.startswith("-"):
                q = f"What does the {first} option of {name} do?"
            elif re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+", first):
                q = f"What is {first} in {name}?"
            else:
                continue
            same = [e for e in page["tags"] if e["tag"].split() and e["tag"].split()[0].strip(",") == first]
            gold = [" ".join(e["clean"]) for e in same]
            tagged.append({"kind": "tag", "doc": page["doc"], "query": q, "gold": gold,
                           "raw": ["\n".join(e["raw"]) for e in same]})
        unique = {q["query"]: q for q in tagged}
        queries.extend(rng.sample(sorted(unique.values(), key=lambda q: q["query"]), min(per_page, len(unique))))
        sentences = []
        for para in page["paragraphs"]:
            text = " ".join(" ".join(para["clean"]).split())
            for sentence in _SENTENCE.split(text)[1:]:
                if len(sentence.split()) >= 10 and not re.search(r"[\\{};]", sentence):
                    sentences.append({"kind": "sentence", "doc": page["doc"], "query": sentence, "gold": [text],
                                      "raw": ["\n".join(para["raw"])]})
        queries.extend(rng.sample(sentences, min(max(1, per_page // 2), len(sentences))))
    return queries


def plain_copy(folder: Path, out: Path) -> None:
    """Every file of the folder copied as NAME.txt: what a user indexes today."""
    if out.exists():
        return
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            target = out / (path.relative_to(folder).as_posix() + ".txt")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


def build(folder: Path, out: Path, man: bool) -> None:
    from corpus_tools import Corpus
    from corpus_tools.config import CorpusConfig

    if (out / "manifest.json").exists():
        print(f"using {out}", file=sys.stderr)
        return
    Corpus.build(folder, out, config=CorpusConfig(chroma=False, read_man=man), progress=False).close()


def gold_ids(chunks: list[Any], query: dict[str, Any]) -> set[str]:
    targets = [shingles(g) for g in query["gold"]] + [shingles(r) for r in query["raw"]]
    short = [g for g in query["gold"] if len(g.split()) < 8]  # a NAME line: too short for 3 shingles
    out = set()
    for c in chunks:
        own = shingles(c.text)
        text = " ".join(c.text.split())
        if any(len(own & t) >= min(3, max(1, len(t))) for t in targets if t) or any(
                _loose(s) in _loose(text) for s in short):
            out.add(c.chunk_id)
    return out


def _loose(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", re.sub(r"\\f[BIRP]|\\-", "", text).lower()).strip()


def scores(index: Path, queries: list[dict[str, Any]], suffix: str,
           defined_words: bool | None = None) -> list[dict[str, Any]]:
    from corpus_tools import Corpus
    from corpus_tools.config import SearchConfig

    by_doc = chunks_by_doc(index)
    corpus = Corpus.open(index)
    if defined_words is not None:  # SearchConfig.defined_words of this run (None: the index's default)
        search = SearchConfig(**{**corpus.config.search.__dict__, "defined_words": defined_words})
        corpus.close()
        corpus = Corpus.open(index, search=search)
    rows = []
    try:
        for n, q in enumerate(queries, 1):
            gold = gold_ids(by_doc.get(q["doc"] + suffix, []), q)
            hits = [h.chunk.chunk_id for h in corpus.search(q["query"], k=10)]
            first = next((r for r, cid in enumerate(hits, 1) if cid in gold), None)
            rows.append({"hit1": float(first == 1), "hit5": float(first is not None and first <= 5),
                         "mrr": 1.0 / first if first else 0.0, "gold": len(gold)})
            if n % 200 == 0:
                print(f"[{index.name} {n}/{len(queries)}]", file=sys.stderr, flush=True)
    finally:
        corpus.close()
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a folder of manual pages")
    parser.add_argument("--scratch", type=Path, required=True, help="where the two indexes are built (or found)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--reader-index", type=Path, help="an index of --data with read_man on (else built)")
    parser.add_argument("--per-page", type=int, default=2, help="most tag queries a page (sentences: half)")
    parser.add_argument("--seed", type=int, default=49)
    parser.add_argument("--defined-words", choices=("on", "off"), default=None,
                        help="SearchConfig.defined_words of both arms (default: the config's, on; session 49)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    plain_folder = args.scratch / "plain-txt"
    plain_copy(args.data, plain_folder)
    indexes = {"reader": args.reader_index or args.scratch / "reader", "plain": args.scratch / "plain"}
    build(args.data, indexes["reader"], True)
    build(plain_folder, indexes["plain"], False)
    queries = make_queries(args.data, args.per_page, args.seed)
    print(f"# Manual pages: {args.data} ({len(queries)} proxy queries: {dict(Counter(q['kind'] for q in queries))})\n")
    print("## Reading: chunks whose text holds roff\n")
    chunks = {arm: all_chunks(path) for arm, path in indexes.items()}
    print("| roff left | plain (.txt copies) | reader |\n| --- | ---: | ---: |")
    print(f"| chunks | {len(chunks['plain'])} | {len(chunks['reader'])} |")
    print(f"| documents | {len({c.doc_id for c in chunks['plain']})} | {len({c.doc_id for c in chunks['reader']})} |")
    for name, rx in RESIDUE.items():
        print(f"| {name} | {sum(1 for c in chunks['plain'] if re.search(rx, c.text))} | "
              f"{sum(1 for c in chunks['reader'] if re.search(rx, c.text))} |")
    print(f"| chunks with a section | {sum(1 for c in chunks['plain'] if c.metadata.get('section'))} | "
          f"{sum(1 for c in chunks['reader'] if c.metadata.get('section'))} |")
    words = None if args.defined_words is None else args.defined_words == "on"
    result = {"reader": scores(indexes["reader"], queries, "", words),
              "plain": scores(indexes["plain"], queries, ".txt", words)}
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as fh:
        for q, p, r in zip(queries, result["plain"], result["reader"], strict=True):
            fh.write(json.dumps({"kind": q["kind"], "doc": q["doc"], "query": q["query"], "plain": p,
                                 "reader": r}) + "\n")
    print("\n## Search: one hybrid search (k=10), reader − plain, 95 % paired bootstrap\n")
    print("| queries | n | plain | reader | reader − plain | won / lost |\n| --- | ---: | ---: | ---: | --- | --- |")
    groups = [("all", list(range(len(queries))))] + [
        (kind, [i for i, q in enumerate(queries) if q["kind"] == kind]) for kind in sorted({q["kind"] for q in queries})]
    groups.append(("name via a redirect page", [i for i, q in enumerate(queries) if q.get("alias")]))
    for metric in ("hit1", "hit5", "mrr"):
        for label, idx in groups:
            if idx:
                print(paired_row(f"{label} {metric}", len(idx), [result["plain"][i][metric] for i in idx],
                           [result["reader"][i][metric] for i in idx]))
    print(f"\nqueries with no gold chunk: reader {sum(1 for r in result['reader'] if not r['gold'])}, plain "
          f"{sum(1 for r in result['plain'] if not r['gold'])}")


if __name__ == "__main__":
    main()
