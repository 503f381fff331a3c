"""How a folder of research papers (PDF) reads, with `CorpusConfig.pdf_columns` off (the base) and on (session 48,
issue 36: a folder of papers, a real folder kind not used before).

    python benchmarks/papers_reading.py FOLDER [--limit N] [--titles]

For every PDF under FOLDER, read both ways (`readers.read_pdf_document`): pages, pages read as two columns (a gutter
found, `pdf_layout.find_gutter`, in a document set in two columns, `pdf_layout.two_column_document`), run-on lines (over 25 words: a column's line is ~10, a one-column paper's ~15-20;
a longer one pairs the two columns' lines or is a soup of words sorted left to right), words broken at a line's
end (PDFium's end-of-line hyphen: left as two words when off, joined when on), the title kept (the metadata title,
else the file name, when off; the first page's largest type when on), running headers / footers left out
(`structure`'s furniture), and the words under a References / Bibliography heading (a bibliography passage is no
passage to ask from). --titles prints each paper's title both ways.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools.doc_metadata import document_title  # noqa: E402
from corpus_tools.pdf_layout import SOFT_HYPHEN, find_gutter, page_words, two_column_document  # noqa: E402
from corpus_tools.readers import UnreadableFileError, read_pdf_document  # noqa: E402

_REFERENCES = re.compile(r"^\s*(?:\d+\.?\s*)?(?:references|bibliography|literature cited)\s*$", re.IGNORECASE | re.MULTILINE)


def _runons(text: str) -> tuple[int, int]:
    lines = [ln for ln in text.split("\n") if len(ln.split()) > 25]
    return len(lines), sum(len(ln.split()) for ln in lines)


def _page_counts(path: Path) -> tuple[int, int]:
    """(pages read as two columns, words broken at a line's end)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        pages = [page_words(document, i, hyphens=True) for i in range(len(document))]
    finally:
        document.close()
    gutters = [find_gutter(words) for words in pages]
    two = sum(gutter is not None for gutter in gutters) if two_column_document(pages, gutters) else 0
    return two, sum(1 for words in pages for w in words if w.text.endswith(SOFT_HYPHEN))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--titles", action="store_true")
    args = ap.parse_args()
    paths = sorted(args.folder.rglob("*.pdf"))[: args.limit or None]
    total: Counter = Counter()
    for path in paths:
        try:
            off, on = read_pdf_document(path, columns=False, references=False), read_pdf_document(path, columns=True)
        except UnreadableFileError as exc:
            total["unreadable"] += 1
            print(f"   unreadable: {path.name}: {exc}")
            continue
        total["papers"] += 1
        total["fallback (no layout)"] += bool(on.layout_error)
        total["pages"] += on.pages
        two, broken = _page_counts(path) if not on.layout_error else (0, 0)
        total["two-column pages"] += two
        total["papers with a two-column page"] += two > 0
        total["words broken at a line's end"] += broken
        for name, doc in (("off", off), ("on", on)):
            n, words = _runons(doc.text)
            total[f"run-on lines {name}"] += n
            total[f"words in run-on lines {name}"] += words
            total[f"words {name}"] += len(doc.text.split())
            total[f"papers with run-on lines {name}"] += n > 0
        total["furniture lines left out"] += len([x for x in on.furniture.split("\n") if x.strip()])
        refs = list(_REFERENCES.finditer(on.text))
        if refs:
            total["papers with a references heading"] += 1
            total["words after it"] += len(on.text[refs[-1].end():].split())
        title_off = document_title({}, off.title, path)
        title_on = document_title({}, on.page_title or on.title, path)
        total["metadata title missing"] += not off.title
        total["title off = file name"] += title_off == document_title({}, None, path)
        total["title on from the first page"] += bool(on.page_title)
        if args.titles:
            print(f"   {path.name}\n      off: {title_off}\n      on:  {title_on}")
    print(f"== {args.folder}: {len(paths)} PDFs")
    for key, value in total.items():
        print(f"   {key:40s} {value}")


if __name__ == "__main__":
    main()
