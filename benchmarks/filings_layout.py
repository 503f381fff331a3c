"""Issue 35's document half on real filings: which layout reader, what the index holds, what it costs.

    python benchmarks/filings_layout.py readers [--docs FOLDER] [--files GLOB]
    python benchmarks/filings_layout.py build INDEX [--docs FOLDER] [--ablate tables|headers|metadata]
    python benchmarks/filings_layout.py show INDEX [--n 20] [--seed 0]

readers: each PDF read three ways — pypdf's flat text (main's reader), pdfplumber's word positions (needs
`pip install pdfplumber`; not a dependency) and pypdfium2's character boxes (the library's reader), both
through the same corpus_tools.pdf_layout table finder — printing
seconds per page, tables found, rows recovered (rows whose every figure sits under a column header)
and soups (figure runs whose columns could not be told apart, indexed as text).

build: `Corpus.build(FOLDER, INDEX)` with this checkout's code (run it with PYTHONPATH at another
checkout to measure that one: the pieces below exist only here), printing documents, pages, chunks
(table / text), build seconds and seconds per page, and the index's size on disk. --ablate turns one
piece off for the build, to measure its share (a benchmark-only switch, patched here, never a library
option): "tables" reads figure runs as plain lines; "headers" indexes chunks under their title alone
(main's retrieval text); "metadata" reads no cover page (no company/period fields, title from the PDF
or the file name).

show: N chunks drawn at random (fixed seed) with their header and metadata, for reading by eye.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from pathlib import Path

DOCS = Path("/work/data/filings10q/docs")


def _folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def plumber_pages(path: Path) -> list:
    """Every page laid out from pdfplumber's words (the alternative measured; pip install pdfplumber)."""
    import logging

    import pdfplumber

    from corpus_tools.pdf_layout import Word, layout_page

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    pages = []
    with pdfplumber.open(str(path)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            raw = page.extract_words(extra_attrs=["size", "fontname"], keep_blank_chars=False, x_tolerance=2)
            words = [Word(float(w["x0"]), float(w["x1"]), float(w["top"]), float(w["bottom"]), w["text"],
                          round(float(w.get("size") or 0.0), 1), "bold" in str(w.get("fontname", "")).lower())
                     for w in raw if w["text"].strip()]
            page.flush_cache()
            pages.append(layout_page(number, words))
    return pages


def cmd_readers(docs: Path, pattern: str) -> None:
    from corpus_tools import readers
    from corpus_tools.pdf_layout import read_layout
    from corpus_tools.structure import build_structure

    files = sorted(docs.glob(pattern))
    print("| file | pages | pypdf flat s/page | pdfplumber s/page | tables | rows | rows with headers | soups "
          "| pypdfium2 s/page | tables | rows | rows with headers | soups |")
    print("|---|" + "---:|" * 12)
    totals: dict[str, float] = {}
    for path in files:
        t0 = time.perf_counter()
        readers._read_pdf_pypdf(path)
        flat = time.perf_counter() - t0
        t0 = time.perf_counter()
        plumber = build_structure(plumber_pages(path))
        t_plumber = time.perf_counter() - t0
        t0 = time.perf_counter()
        fium = build_structure(read_layout(path)[0])
        t_fium = time.perf_counter() - t0
        n = plumber.pages
        row = [flat, t_plumber, plumber.tables, plumber.rows, plumber.rows_with_headers, plumber.soups,
               t_fium, fium.tables, fium.rows, fium.rows_with_headers, fium.soups]
        for key, value in zip(["flat", "plumber", "pt", "pr", "ph", "ps", "fium", "ft", "fr", "fh", "fs"], row,
                              strict=True):
            totals[key] = totals.get(key, 0) + value
        totals["pages"] = totals.get("pages", 0) + n
        print(f"| {path.name} | {n} | {flat / n:.3f} | {t_plumber / n:.3f} | {plumber.tables} | {plumber.rows} | "
              f"{plumber.rows_with_headers} | {plumber.soups} | {t_fium / n:.3f} | {fium.tables} | {fium.rows} | "
              f"{fium.rows_with_headers} | {fium.soups} |", flush=True)
    p = totals["pages"]
    print(f"| **all {len(files)}** | {p:.0f} | {totals['flat'] / p:.3f} | {totals['plumber'] / p:.3f} | "
          f"{totals['pt']:.0f} | {totals['pr']:.0f} | {totals['ph']:.0f} | {totals['ps']:.0f} | {totals['fium'] / p:.3f} | "
          f"{totals['ft']:.0f} | {totals['fr']:.0f} | {totals['fh']:.0f} | {totals['fs']:.0f} |")


def _ablate(piece: str) -> None:
    """Turn one piece off in this process (see the module docstring)."""
    if piece == "tables":
        from corpus_tools import pdf_layout

        pdf_layout.make_table = lambda header, body, above: None  # figure runs stay lines (a Soup)
    elif piece == "headers":
        from corpus_tools import chunking

        chunking.contextual_header = lambda metadata, section="", table="": str(metadata.get("title") or "")
    elif piece == "metadata":
        from corpus_tools import doc_metadata, loaders

        loaders.read_metadata = lambda text, furniture="": {}
        loaders.document_title = lambda metadata, pdf_title, path: doc_metadata.document_title({}, pdf_title, path)
    elif piece != "none":
        raise SystemExit(f"--ablate takes tables, headers, metadata or none, not {piece!r}")


def cmd_build(docs: Path, index: Path, ablate: str) -> None:
    from corpus_tools import Corpus

    _ablate(ablate)
    if index.exists():
        shutil.rmtree(index)
    pages = 0
    try:
        import pypdfium2 as pdfium

        for path in docs.glob("*.pdf"):
            doc = pdfium.PdfDocument(str(path))
            pages += len(doc)
            doc.close()
    except ImportError:
        pass
    t0 = time.perf_counter()
    corpus = Corpus.build(docs, index, progress=False)
    seconds = time.perf_counter() - t0
    report = corpus.build_report
    chunks = [c for d in corpus.doc_ids() for c in corpus.chunks(d)]
    kinds: dict[str, int] = {}
    for c in chunks:
        kinds[str(c.metadata.get("kind", "-"))] = kinds.get(str(c.metadata.get("kind", "-")), 0) + 1
    boiler = [float(c.metadata.get("boilerplate", 0.0)) for c in chunks]
    print("| index | ablated | documents | pages | chunks | kinds | boilerplate ≥ 0.5 | build s | s/page | embed s "
          "| cache hits | MB |")
    print("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    print(f"| {index} | {ablate} | {report.documents} | {pages} | {report.chunks} | {json.dumps(kinds)} | "
          f"{sum(b >= 0.5 for b in boiler)} | {seconds:.0f} | {seconds / max(pages, 1):.3f} | {report.embed_seconds:.0f} | "
          f"{report.cache_hits} | {_folder_size(index) / 1e6:.1f} |")
    for note in report.notes:
        print(f"note: {note.path}: {note.note}")
    for skip in report.skipped:
        print(f"skipped: {skip.path}: {skip.reason}")
    corpus.close()


def cmd_show(index: Path, n: int, seed: int) -> None:
    from corpus_tools import Corpus

    corpus = Corpus.open(index)
    chunks = [c for d in corpus.doc_ids() for c in corpus.chunks(d)]
    for chunk in random.Random(seed).sample(chunks, min(n, len(chunks))):
        meta = {k: v for k, v in chunk.metadata.items() if k not in ("header", "source_mtime_ns", "source_size")}
        print(f"### {chunk.chunk_id}\nheader: {chunk.metadata.get('header', '')}\nmetadata: {json.dumps(meta)}\n"
              f"text: {chunk.text[:600]}\n")
    corpus.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("readers")
    r.add_argument("--docs", type=Path, default=DOCS)
    r.add_argument("--files", default="*.pdf", help="glob of the files to read, e.g. '2023 Q3 *.pdf'")
    b = sub.add_parser("build")
    b.add_argument("index", type=Path)
    b.add_argument("--docs", type=Path, default=DOCS)
    b.add_argument("--ablate", default="none")
    s = sub.add_parser("show")
    s.add_argument("index", type=Path)
    s.add_argument("--n", type=int, default=20)
    s.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.cmd == "readers":
        cmd_readers(args.docs, args.files)
    elif args.cmd == "build":
        cmd_build(args.docs, args.index, args.ablate)
    else:
        cmd_show(args.index, args.n, args.seed)


if __name__ == "__main__":
    sys.exit(main())
