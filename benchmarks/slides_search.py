"""Slide decks searched (session 52, issues 34 and 36): the deck reader against the naive reading any tool gives.

    PYTHONPATH=. nice python benchmarks/slides_search.py --data DATA --index INDEX --out OUT \
        [--independent /work/scratch52-slides/venv/bin/python]

Before session 52 `context1 index` skipped every .pptx. Two indexes of one folder of decks, built with
`context1 index` under INDEX unless they exist:

  reader  the folder as it is: corpus_tools/pptx_reader.py (a section per slide in presentation order, shapes in
          reading order, bullets, tables and chart data as rows, speaker notes under their slide);
  naive   each deck's text as a text-extraction tool gives it (`naive_text`): every paragraph of every slide in
          shape-tree order, one after the other, no slide boundaries, no title as a heading, no notes, no charts;
          written as INDEX/naive-txt/<deck>.txt and indexed as plain text.

Prints:
1. Reading: words recovered against an independent extraction (python-pptx, run by --independent PYTHON, a scratch
   environment: it is no dependency of the project; slide shapes, tables, groups and notes), chunks whose text runs
   over two slides or more (by the reader's parts: page = slide), slides whose notes are read.
2. Search, one hybrid `Corpus.search(k=10)` per query, hit@1 / hit@5 of the right slide, and whether it is reached
   within 500 / 1,000 tokens of passages read in rank order (tok500, tok1000: a naive passage is twice as long), reader vs naive with the
   paired bootstrap interval of reader − naive (docs_reading.paired) and queries won / lost. Queries come from the
   decks' XML (`slide_texts`, neither reading): a slide with a title placeholder and 15+ body words, unique title in
   the folder:
   - "title": the slide's title as the query;
   - "content": the content words of one body line of 6+ content words, the title's words and stop words removed.
   Gold: the query deck's chunks sharing at least 3 five-word shingles with the slide's body, shingles taken within
   each of its lines (`gold_chunks`: blind to the order shapes are read in, so neither reading is favoured).
3. `context1 datagen` on the reader index with the default command: tasks made, and 10 of them (seeded).
Per-query rows in OUT/rows.jsonl.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
import zipfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

sys.path.insert(0, str(Path(__file__).resolve().parent))

from docs_reading import all_chunks, chunks_by_doc, paired_row, shingles, words  # noqa: E402

_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_STOP = frozenset("a an the and or of to in on for with by is are be how what do does use using your you it this "
                  "that from as at not can will if we i all its into".split())
_INDEPENDENT = r'''
import json, sys
from pptx import Presentation
out = {}
for path in sys.argv[1:]:
    try:
        prs = Presentation(path)
    except Exception as exc:
        out[path] = {"error": repr(exc)[:200]}
        continue
    def shapes(tree):
        for s in tree:
            if s.shape_type == 6:  # a group
                yield from shapes(s.shapes)
            else:
                yield s
    slides = []
    for slide in prs.slides:
        text = []
        for s in shapes(slide.shapes):
            if s.is_placeholder and int(s.placeholder_format.type) in (13, 14, 15, 16):
                continue  # slide number, header, footer, date: furniture the reader leaves out
            if s.has_text_frame:
                text.append(s.text_frame.text)
            if getattr(s, "has_table", False) and s.has_table:
                text.extend(c.text for r in s.table.rows for c in r.cells)
        notes = slide.notes_slide.notes_text_frame.text if slide.has_notes_slide and \
            slide.notes_slide.notes_text_frame is not None else ""
        slides.append({"text": "\n".join(text), "notes": notes})
    out[path] = {"slides": slides}
json.dump(out, sys.stdout)
'''


def decks(folder: Path) -> list[Path]:
    return [p for p in sorted(folder.rglob("*.pptx")) if not any(x.startswith(".") for x in p.relative_to(folder).parts)]


def _slide_parts(z: zipfile.ZipFile) -> list[str]:
    """Slide part names in presentation order (sldIdLst through the presentation's relationships)."""
    pres = ElementTree.fromstring(z.read("ppt/presentation.xml"))
    rels = ElementTree.fromstring(z.read("ppt/_rels/presentation.xml.rels"))
    targets = {r.get("Id"): r.get("Target", "") for r in rels}
    out = []
    for sld in pres.iter(f"{_P}sldId"):
        target = targets.get(sld.get(f"{_R}id"), "")
        name = target.lstrip("/") if target.startswith("/") else "ppt/" + target
        if name in z.namelist():
            out.append(name)
    return out


def _paragraphs(element: Any) -> list[str]:
    return [t for p in element.iter(f"{_A}p") if (t := " ".join("".join(x.text or "" for x in p.iter(f"{_A}t")).split()))]


def naive_text(path: Path) -> str:
    """What a text-extraction tool gives: every slide's paragraphs in shape-tree order, run together."""
    with zipfile.ZipFile(path) as z:
        return "\n".join(line for name in _slide_parts(z) for line in _paragraphs(ElementTree.fromstring(z.read(name))))


def slide_texts(path: Path) -> list[dict[str, Any]]:
    """Each slide's title (its title / ctrTitle placeholder) and body lines, from the XML (for the proxy queries)."""
    out = []
    with zipfile.ZipFile(path) as z:
        for number, name in enumerate(_slide_parts(z), 1):
            root = ElementTree.fromstring(z.read(name))
            title, body = "", []
            for sp in root.iter(f"{_P}sp"):
                ph = sp.find(f"{_P}nvSpPr/{_P}nvPr/{_P}ph")
                kind = ph.get("type", "obj") if ph is not None else ""
                lines = _paragraphs(sp)
                if kind in ("title", "ctrTitle"):
                    title = title or " ".join(lines)
                elif kind not in ("dt", "ftr", "sldNum", "hdr"):
                    body.extend(lines)
            for frame in root.iter(f"{_P}graphicFrame"):
                body.extend(_paragraphs(frame))
            out.append({"slide": number, "title": title, "body": body})
    return out


def build(data: Path, index: Path) -> float:
    if (index / "manifest.json").exists():
        print(f"using {index}", file=sys.stderr)
        return 0.0
    start = time.time()
    subprocess.run([sys.executable, "-m", "context1.interfaces.cli", "index", str(data), str(index)], check=True,
                   stdout=subprocess.DEVNULL)
    return time.time() - start


def make_queries(folder: Path, per_deck: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    slides = {}
    for path in decks(folder):
        try:
            slides[path.relative_to(folder).as_posix()] = slide_texts(path)
        except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, OSError):
            continue
    title_count = Counter(" ".join(words(s["title"])) for deck in slides.values() for s in deck if s["title"])
    queries = []
    for doc, deck in slides.items():
        mine: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for s in deck:
            body = "\n".join(s["body"])
            key = " ".join(words(s["title"]))
            content = [w for w in words(s["title"]) if w not in _STOP]
            if not content or title_count[key] != 1 or len(words(body)) < 15 or len(line_shingles(s["body"])) < 3:
                continue
            mine["title"].append({"query": s["title"], "gold_lines": s["body"], "slide": s["slide"]})
            drop = set(words(s["title"])) | _STOP
            for line in s["body"]:
                kept = [w for w in words(line) if w not in drop and len(w) > 1]
                if len(kept) >= 6:
                    mine["content"].append({"query": " ".join(kept), "gold_lines": s["body"], "slide": s["slide"]})
        for kind, items in sorted(mine.items()):
            for q in rng.sample(items, min(per_deck, len(items))):
                queries.append({"kind": kind, "doc": doc, **q})
    return queries


def line_shingles(lines: list[str]) -> set[tuple[str, ...]]:
    """Five-word shingles within each line of a slide: blind to the order its shapes are read in (a reading that
    puts the right column after the left must not lose the gold a tree-order reading keeps)."""
    return {s for line in lines for s in shingles(line)}


def gold_chunks(chunks: list[Any], lines: list[str]) -> set[str]:
    """A deck's chunks holding the slide: at least 3 of its line shingles (all of them when it has fewer)."""
    target = line_shingles(lines)
    need = min(3, len(target))
    return {c.chunk_id for c in chunks if need and len(shingles(c.text) & target) >= need}


def _score(ranked: list[tuple[str, int]], gold_ids: set[str]) -> dict[str, Any]:
    """hit@1, hit@5, and the gold read within 500 / 1,000 tokens of passages in rank order (a naive chunk holds
    two or three slides, so it is hit more easily per passage; per token read the two are on one footing)."""
    first = next((r for r, (cid, _) in enumerate(ranked[:10], 1) if cid in gold_ids), None)
    read = sum(n for _, n in ranked[: first - 1]) if first else None
    return {"hit1": float(first == 1), "hit5": float(first is not None and first <= 5),
            "tok500": float(read is not None and read < 500), "tok1000": float(read is not None and read < 1000),
            "gold": len(gold_ids)}


def search(index: Path, queries: list[dict[str, Any]], suffix: str) -> list[dict[str, Any]]:
    from corpus_tools import Corpus

    by_doc = chunks_by_doc(index)
    corpus = Corpus.open(index)
    rows = []
    try:
        for q in queries:
            doc_id = q["doc"][: -len(".pptx")] + suffix
            gold_ids = gold_chunks(by_doc.get(doc_id, []), q["gold_lines"])
            rows.append(_score([(h.chunk.chunk_id, h.chunk.n_tokens) for h in corpus.search(q["query"], k=10)],
                               gold_ids))
    finally:
        corpus.close()
    return rows


def reading(data: Path, index: Path, independent: str | None) -> list[str]:
    """The reading table's rows: words recovered, chunks over two slides, notes read."""
    from corpus_tools.loaders import load_documents

    report = load_documents(data)
    docs = {d.doc_id: d for d in report.documents}
    lines = [f"| decks | {len(decks(data))} (read {len(docs)}, skipped {len(report.skipped)}) |"]
    reasons = Counter(s.reason.split(";")[0].split(" (")[0] for s in report.skipped)
    lines.append(f"| skipped, by reason | {', '.join(f'{k}: {v}' for k, v in reasons.most_common())} |")
    slides = sum(int(d.metadata.get("slides") or 0) for d in docs.values())
    lines.append(f"| slides | {slides} |")
    # chunks over two slides: a chunk's text located in its document, the slides of the parts it overlaps
    mixed = tiny = total = 0
    after: dict[str, int] = {}  # where the document's previous chunk starts: consecutive animation-build slides
    for chunk in sorted(all_chunks(index), key=lambda c: (c.doc_id, c.position)):  # repeat text: search from there
        doc = docs.get(chunk.doc_id)
        if doc is None:
            continue
        total += 1
        at = doc.text.find(chunk.text[:200], after.get(chunk.doc_id, 0))
        if at < 0:
            continue
        after[chunk.doc_id] = at + 1
        end = at + len(chunk.text)
        pages = {p.page for p in doc.parts if p.start < end and p.end > at}
        if len(pages) > 1:
            mixed += 1
            # a slide of fewer than 120 characters (the chunker's TINY_REGION_CHARS) joins the slide after it
            small = [pg for pg in sorted(pages)[:-1]
                     if sum(p.end - p.start for p in doc.parts if p.page == pg) < 120]
            tiny += len(small) == len(pages) - 1
    lines.append(f"| chunks over two slides or more | {mixed} of {total} ({tiny} of them only a tiny slide "
                 "(< 120 characters) joined to the next) |")
    notes_read = sum(1 for d in docs.values() for p in d.parts if d.text[p.start:p.end].startswith("Notes: "))
    lines.append(f"| slides whose notes are read (reader) | {notes_read} |")
    if independent:
        paths = [str(p) for p in decks(data)]
        found: dict[str, Any] = {}
        for i in range(0, len(paths), 50):
            run = subprocess.run([independent, "-c", _INDEPENDENT, *paths[i:i + 50]], capture_output=True, text=True,
                                 check=True)
            found.update(json.loads(run.stdout))
        want = got = want_notes = got_notes = slides_with_notes = 0
        for path, res in found.items():
            doc = docs.get(Path(path).relative_to(data).as_posix())
            if "slides" not in res:
                continue
            ours = Counter(words(doc.text)) if doc else Counter()
            theirs = Counter(w for s in res["slides"] for w in words(s["text"]))
            notes = Counter(w for s in res["slides"] for w in words(s["notes"]))
            slides_with_notes += sum(1 for s in res["slides"] if s["notes"].strip())
            want += sum(theirs.values())
            got += sum((theirs & ours).values())
            want_notes += sum(notes.values())
            got_notes += sum((notes & ours).values())
        lines.append(f"| words of slides recovered vs python-pptx (its slide numbers, footers, dates left out) | "
                     f"{got / max(want, 1):.3f} ({got:,} of {want:,}) |")
        lines.append(f"| words of notes recovered vs python-pptx | {got_notes / max(want_notes, 1):.3f} "
                     f"({got_notes:,} of {want_notes:,}) |")
        lines.append(f"| slides with notes (python-pptx) | {slides_with_notes} |")
    return lines


def datagen(index: Path, out: Path, seed: int) -> list[str]:
    folder = out / "datagen"
    start = time.time()
    run = subprocess.run([sys.executable, "-m", "context1.interfaces.cli", "datagen", str(index), str(folder)],
                         capture_output=True, text=True)
    tasks = []
    for path in sorted(folder.rglob("*.jsonl")) if folder.exists() else []:
        if "task" in path.name and "split" not in path.parts:
            tasks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            break
    lines = [f"`context1 datagen INDEX/reader OUT/datagen` (default command): exit {run.returncode}, "
             f"{len(tasks)} tasks, {time.time() - start:.0f} s"]
    if run.returncode:
        lines.append("    " + (run.stderr or run.stdout).strip().splitlines()[-1][:300])
    for task in random.Random(seed).sample(tasks, min(10, len(tasks))):
        question = task.get("question") or task.get("query") or ""
        answer = task.get("answer") or ""
        lines.append(f"- {question} → {answer}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a folder of .pptx decks")
    parser.add_argument("--index", type=Path, required=True, help="where the two indexes are built (or found)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--per-deck", type=int, default=4, help="most queries of each kind a deck")
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--independent", help="a Python with python-pptx, for the words-recovered row")
    parser.add_argument("--no-datagen", action="store_true")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    data = args.data.resolve()
    reader, naive = args.index / "reader", args.index / "naive"
    naive_folder = args.index / "naive-txt"
    if not naive_folder.exists():
        for path in decks(data):
            rel = path.relative_to(data).with_suffix(".txt")
            (naive_folder / rel).parent.mkdir(parents=True, exist_ok=True)
            try:
                (naive_folder / rel).write_text(naive_text(path), encoding="utf-8")
            except (zipfile.BadZipFile, KeyError, ElementTree.ParseError, OSError):
                continue
    seconds = build(data, reader)
    build(naive_folder, naive)
    queries = make_queries(data, args.per_deck, args.seed)
    print(f"# Slide decks: {data} ({len(decks(data))} decks; {len(queries)} proxy queries: "
          f"{dict(Counter(q['kind'] for q in queries))}; reader index built in {seconds:.0f} s)\n")
    print("## Reading\n\n| what | reader |\n| --- | --- |")
    print("\n".join(reading(data, reader, args.independent)))
    result = {"naive": search(naive, queries, ".txt"), "reader": search(reader, queries, ".pptx")}
    with (args.out / "rows.jsonl").open("w", encoding="utf-8") as fh:
        for q, a, b in zip(queries, result["naive"], result["reader"], strict=True):
            fh.write(json.dumps({"kind": q["kind"], "doc": q["doc"], "slide": q["slide"], "query": q["query"],
                                 "naive": a, "reader": b}) + "\n")
    print("\n## Search: one hybrid search (k=10), the right slide's passage, reader − naive, 95 % paired bootstrap\n")
    print("| queries | n | naive | reader | reader − naive | won / lost |\n| --- | ---: | ---: | ---: | --- | --- |")
    groups = [("all", list(range(len(queries))))] + [
        (kind, [i for i, q in enumerate(queries) if q["kind"] == kind]) for kind in sorted({q["kind"] for q in queries})]
    for metric in ("hit1", "hit5", "tok500", "tok1000"):
        for label, idx in groups:
            if idx:
                print(paired_row(f"{label} {metric}", len(idx), [result["naive"][i][metric] for i in idx],
                           [result["reader"][i][metric] for i in idx]))
    print(f"\nqueries with no gold chunk: reader {sum(1 for r in result['reader'] if not r['gold'])}, naive "
          f"{sum(1 for r in result['naive'] if not r['gold'])}")
    if not args.no_datagen:
        print("\n## datagen\n")
        print("\n".join(datagen(reader, args.out, args.seed)))


if __name__ == "__main__":
    main()
