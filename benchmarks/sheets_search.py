"""Excel workbooks searched (session 52, issues 34 and 36): the workbook reader against a naive reading.

    # 1. what an independent reader (openpyxl, in a scratch venv: never a project dependency) says the cells
    #    show, and the proxy questions, from the workbooks alone
    /work/scratch52-sheets/venv/bin/python benchmarks/sheets_search.py expect --data DATA --out OUT
    # 2. the two indexes, the reading and search tables
    PYTHONPATH=. python benchmarks/sheets_search.py run --data DATA --scratch INDEX --out OUT
    DATA=… INDEX=… OUT=… bash benchmarks/sheets_report.sh       # the whole thing, datagen included (the lead, once)

Before session 52 `context1 index` skipped every .xlsx ("unsupported file type"). Two indexes of one folder:

  reader  the folder as it is: corpus_tools/xlsx_reader.py (sheets as sections, each table's rows under its
          header row, figures as the sheet shows them);
  naive   each workbook as any tool dumps it (`naive_text` below: a "Sheet: name" line, then each row's cells
          joined by tabs, no header carried past the first rows, numbers raw as stored: a date is its serial
          45199, a percentage 0.125, a formula its cached value), written as .txt and read as text: the baseline.

Step 1 (`expect`, openpyxl, cached values) writes OUT/expect.jsonl and OUT/queries.jsonl:
  - every date cell (a day shown: the format has a d, or is built-in 14/15/16/22) and every percentage cell (a
    number under a % format) of each sheet's first 20,000 rows: the text a reader sees ("2023-09-30", "12.5%");
  - proxy questions, "What is <column> for <row label>?": per sheet, the header is the first of its first 10 rows
    with 2+ cells, most of them text; a data row below it whose first text cell (among its first three) has 3+ characters (and is the only
    row with that label in the workbook) and a figure after it (number or date) under a named column; up to --per-file
    questions a workbook, seeded. The answer is the figure as openpyxl's value under its format shows it.
Step 2 (`run`) prints:
  1. Reading: of those date and percentage cells, how many each arm's text shows as the sheet does (the reader's
     cell text; the naive arm's raw value); table chunks of the reader index whose header lacks the table's columns
     ("chunks without their header", must be 0) and row lines under a header of another width.
  2. Search, one hybrid `Corpus.search(k=10)` per question: hit@1 / hit@5 (gold: a chunk of the question's
     workbook holding a line with its row label), figure@5 (a top-5 chunk holds a line with the row label and the
     figure as the sheet shows it) and figure-any@5 (shown or raw form, so the naive arm is not faulted for form
     alone), reader − naive with the paired bootstrap interval (docs_reading.paired) and questions won / lost.
Per-question rows in OUT/rows.jsonl.
Step 3 (`datagen`, after `context1 datagen INDEX/reader OUT/datagen`): its tasks by generator, 10 read whole.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import sys
import zipfile
from collections import Counter, defaultdict
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

sys.path.insert(0, str(Path(__file__).resolve().parent))

MAX_ROWS = 20_000
_DAY_IDS = {14, 15, 16, 22}


# ---- step 1: openpyxl's reading (run in a venv that has openpyxl; no project import here) ----


def _shown(value: Any, fmt: str) -> str | None:
    """The figure as the sheet shows it, from openpyxl's value and number format (written apart from the reader)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if _has_day(fmt) else None
    if isinstance(value, dt.date):
        return value.isoformat()
    if not isinstance(value, (int, float)):
        return None
    body = re.sub(r'"[^"]*"|\\.|\[[^\]]*\]', "", fmt.split(";")[0])
    decimals = len(m.group(1)) if (m := re.search(r"\.([0#?]+)", body)) else 0
    if "%" in body:
        return _half_up(value * 100, decimals) + "%"
    if fmt in ("General", "") or not re.search(r"[0#]", body) or "E+" in body.upper():
        if float(value).is_integer() and abs(value) < 1e11:
            return str(int(value))
        if not 1e-5 <= abs(value) < 1e11:
            return None  # scientific form: left out of the questions
        # General shows at most 11 characters: the whole digits, the point, the rounded decimals
        text = _half_up(abs(value), max(0, 10 - len(str(int(abs(value))))))
        return ("-" if value < 0 else "") + (text.rstrip("0").rstrip(".") if "." in text else text)
    text = _half_up(value, decimals)
    if "," in body.split(".")[0]:
        whole, _, frac = text.lstrip("-").partition(".")
        text = ("-" if text.startswith("-") else "") + f"{int(whole):,}" + (f".{frac}" if frac else "")
    return text


def _half_up(value: float, decimals: int) -> str:
    return str(Decimal(repr(round(value, 12))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))


def _has_day(fmt: str) -> bool:
    body = re.sub(r'"[^"]*"|\\.|\[[^\]]*\]', "", fmt).lower()
    return "d" in body or bool(re.fullmatch(r"m+/d+/y+.*|yyyy-mm-dd.*", body))


def expect(data: Path, out: Path, per_file: int, seed: int) -> None:
    import warnings

    import openpyxl

    warnings.simplefilter("ignore")
    rng = random.Random(seed)
    cells_out = (out / "expect.jsonl").open("w", encoding="utf-8")
    questions: list[dict[str, Any]] = []
    for path in sorted(p for p in data.rglob("*") if p.suffix.lower() in (".xlsx", ".xlsm")):
        doc = path.relative_to(data).as_posix()
        try:
            lines, picked = _expect_book(openpyxl, path, doc, per_file, rng)
        except Exception as exc:  # noqa: BLE001 — a workbook openpyxl cannot open or read is left out, said so
            print(f"openpyxl cannot read {doc}: {type(exc).__name__}", file=sys.stderr)
            continue
        cells_out.writelines(lines)
        questions.extend(picked)
    cells_out.close()
    with (out / "queries.jsonl").open("w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q) + "\n")
    print(f"{len(questions)} questions, cells in {out / 'expect.jsonl'}", file=sys.stderr)


def _expect_book(openpyxl: Any, path: Path, doc: str, per_file: int,
                 rng: random.Random) -> tuple[list[str], list[dict[str, Any]]]:
    """One workbook as openpyxl reads it: its date / percent cell lines and its sampled questions (all or none:
    openpyxl's read-only cells fail lazily, on a broken style table)."""
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    lines: list[str] = []
    labels: Counter[str] = Counter()
    candidates: list[dict[str, Any]] = []
    kinds: Counter[str] = Counter()
    for sheet in book.worksheets:
        if sheet.sheet_state == "veryHidden":
            continue
        header: dict[int, str] | None = None
        for r, row in enumerate(sheet.iter_rows(max_row=MAX_ROWS), 1):
            filled = [(c.column - 1, c) for c in row if getattr(c, "value", None) not in (None, "")]
            for col, c in filled:
                fmt = c.number_format or "General"
                shown = _shown(c.value, fmt)
                kind = ("date" if isinstance(c.value, (dt.datetime, dt.date)) else
                        "percent" if "%" in re.sub(r'"[^"]*"', "", fmt) and shown else None)
                if kind and shown and kinds[kind] < 300:
                    kinds[kind] += 1
                    lines.append(json.dumps({"doc": doc, "sheet": sheet.title, "row": r - 1, "col": col,
                                             "kind": kind, "shown": shown}) + "\n")
            if not filled:
                continue
            # the row's label: its first text cell among its first three (an id number may stand before it)
            at = next((i for i, (_col, c) in enumerate(filled[:3]) if isinstance(c.value, str) and c.value.strip()), 0)
            first = filled[at][1].value
            if isinstance(first, str) and first.strip():
                labels[" ".join(first.split())] += 1
            if header is None:
                texts = [c.value for _, c in filled if isinstance(c.value, str)]
                if r <= 10 and len(filled) >= 2 and len(texts) * 2 > len(filled):
                    header = {col: " ".join(str(c.value).split()) for col, c in filled}
                continue
            if not isinstance(first, str) or len(first.strip()) < 3:
                continue
            figures = [(col, c) for col, c in filled[at + 1:] if header.get(col) and not isinstance(c.value, (bool, str))
                       and _shown(c.value, c.number_format or "General")]
            if figures:
                col, c = rng.choice(figures)
                candidates.append({"doc": doc, "sheet": sheet.title, "label": " ".join(first.split()),
                                   "column": header[col], "shown": _shown(c.value, c.number_format or "General"),
                                   "raw": _raw(c.value)})
    book.close()
    candidates = [q for q in candidates if labels[q["label"]] == 1]
    picked = [{**q, "query": f"What is {q['column']} for {q['label']}?"}
              for q in rng.sample(candidates, min(per_file, len(candidates)))]
    return lines, picked


def _raw(value: Any) -> str:
    if isinstance(value, dt.datetime):  # as stored: the serial day count
        delta = value - dt.datetime(1899, 12, 30)
        days = delta.days + delta.seconds / 86400
        return str(int(days)) if float(days).is_integer() else f"{days:.15g}"
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


# ---- step 2: the two indexes and the tables ----


def naive_text(path: Path) -> str:
    """A workbook as a plain dump: each sheet's rows, cells joined by tabs, values as stored (no format applied)."""
    ns = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    out: list[str] = []
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        strings = []
        if "xl/sharedStrings.xml" in names:
            root = ElementTree.fromstring(z.read("xl/sharedStrings.xml"))
            strings = ["".join(t.text or "" for t in si.iter(f"{ns}t")) for si in root.iter(f"{ns}si")]
        book = ElementTree.fromstring(z.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        target = {r.get("Id"): r.get("Target", "").lstrip("/") for r in rels}
        for sheet in book.iter(f"{ns}sheet"):
            rid = next((v for k, v in sheet.attrib.items() if k.endswith("}id")), "")
            part = target.get(rid, "")
            part = part if part.startswith("xl/") else f"xl/{part}"
            if part not in names or sheet.get("state") == "veryHidden":
                continue
            out.append(f"Sheet: {sheet.get('name')}")
            rows = 0
            for _ev, el in ElementTree.iterparse(z.open(part)):
                if el.tag == f"{ns}row":
                    cells = []
                    for c in el.iter(f"{ns}c"):
                        v = c.find(f"{ns}v")
                        text = v.text if v is not None else "".join(t.text or "" for t in c.iter(f"{ns}t"))
                        if c.get("t") == "s" and text and text.isdigit() and int(text) < len(strings):
                            text = strings[int(text)]
                        cells.append(" ".join((text or "").split()))
                    if any(cells):
                        out.append("\t".join(cells))
                    el.clear()
                    rows += 1
                    if rows >= MAX_ROWS:
                        break
    return "\n".join(out)


def build(folder: Path, out: Path) -> None:
    from corpus_tools import Corpus
    from corpus_tools.config import CorpusConfig

    if (out / "manifest.json").exists():
        print(f"using {out}", file=sys.stderr)
        return
    Corpus.build(folder, out, config=CorpusConfig(chroma=False), progress=False).close()


def naive_folder(data: Path, out: Path) -> int:
    if out.exists():
        return sum(1 for _ in out.rglob("*.txt"))
    n = 0
    for path in sorted(p for p in data.rglob("*") if p.suffix.lower() in (".xlsx", ".xlsm")):
        target = out / (path.relative_to(data).as_posix() + ".txt")
        try:
            text = naive_text(path)
        except Exception:  # noqa: BLE001 — a file the dump cannot open is left out, as a user's tool would fail on it
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        n += 1
    return n


def reading(data: Path, cells: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    """Per kind: cells expected, shown as the sheet shows them by the reader, by the naive dump."""
    from corpus_tools.readers import UnreadableFileError
    from corpus_tools.xlsx_reader import sheet_cells

    counts: dict[str, Counter[str]] = defaultdict(Counter)
    misses: Counter[str] = Counter()
    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for c in cells:
        by_doc[c["doc"]].append(c)
    for doc, wanted in by_doc.items():
        try:
            grids, raw = sheet_cells(data / doc), sheet_cells(data / doc, shown=False)
        except UnreadableFileError:
            grids, raw = {}, {}
        for c in wanted:
            counts[c["kind"]]["cells"] += 1
            mine = grids.get(c["sheet"], {}).get(c["row"], {}).get(c["col"])
            ok = _same(mine, c["shown"])
            counts[c["kind"]]["reader"] += ok
            counts[c["kind"]]["naive"] += _same(raw.get(c["sheet"], {}).get(c["row"], {}).get(c["col"]), c["shown"])
            if not ok and misses[doc] < 3:
                misses[doc] += 1
                print(f"  miss {c['kind']}: {doc} {c['sheet']}!r{c['row'] + 1}c{c['col'] + 1}: expected "
                      f"{c['shown']!r}, read {mine!r}", file=sys.stderr)
    return counts


def _same(read: str | None, shown: str) -> bool:
    """The reader's text is the shown figure (a date cell whose format shows the time too: the date, then the time)."""
    return read is not None and (read == shown or read.startswith(shown + " "))


def header_loss(chunks: list[Any]) -> tuple[int, int, int, int]:
    """(table chunks, those whose header lacks "columns:", row lines, row lines whose width differs from the columns
    the chunk's header names)."""
    tables = lost = lines = odd = 0
    for c in chunks:
        if c.metadata.get("kind") != "table":
            continue
        tables += 1
        header = str(c.metadata.get("header", ""))
        match = re.search(r"columns: (.*?)(?: · |$)", header)
        if not match:
            lost += 1
            continue
        width = match.group(1).count(" | ") + 2  # the corner cell (row labels) and each column
        for line in c.text.split("\n"):
            if " | " in line and not line.startswith("("):
                lines += 1
                odd += line.count(" | ") + 1 != width
    return tables, lost, lines, odd


def _line_has(text: str, label: str, figures: list[str]) -> bool:
    for line in text.split("\n"):
        if label in line and any(re.search(rf"(?<![\d.,]){re.escape(f)}(?![\d])", line) for f in figures):
            return True
    return False


def scores(index: Path, queries: list[dict[str, Any]], suffix: str) -> list[dict[str, float]]:
    from docs_reading import chunks_by_doc

    from corpus_tools import Corpus

    by_doc = chunks_by_doc(index)
    corpus = Corpus.open(index)
    rows = []
    try:
        for n, q in enumerate(queries, 1):
            doc_id = q["doc"] + suffix
            gold = {c.chunk_id for c in by_doc.get(doc_id, []) if any(q["label"] in ln for ln in c.text.split("\n"))}
            hits = corpus.search(q["query"], k=10)
            ranked = [h.chunk.chunk_id for h in hits]
            first = next((r for r, cid in enumerate(ranked, 1) if cid in gold), None)
            top5 = [h.chunk.text for h in hits[:5]]
            rows.append({"hit1": float(first == 1), "hit5": float(first is not None and first <= 5),
                         "figure5": float(any(_line_has(t, q["label"], [q["shown"]]) for t in top5)),
                         "figure_any5": float(any(_line_has(t, q["label"], [q["shown"], q["raw"]]) for t in top5)),
                         "gold": len(gold)})
            if n % 50 == 0:
                print(f"[{suffix or 'reader'} {n}/{len(queries)}]", file=sys.stderr, flush=True)
    finally:
        corpus.close()
    return rows


def run(data: Path, scratch: Path, out: Path) -> None:
    from docs_reading import all_chunks, paired

    queries = [json.loads(line) for line in (out / "queries.jsonl").open(encoding="utf-8")]
    cells = [json.loads(line) for line in (out / "expect.jsonl").open(encoding="utf-8")]
    naive_dir = scratch / "naive-txt"
    print(f"naive dump: {naive_folder(data, naive_dir)} workbooks", file=sys.stderr)
    indexes = {"reader": scratch / "reader", "naive": scratch / "naive"}
    build(data, indexes["reader"])
    build(naive_dir, indexes["naive"])
    print(f"# Workbooks: {data} ({len(queries)} proxy questions)\n")
    print("## Reading: cells shown as the sheet shows them (against openpyxl's value and format)\n")
    print("| cells | n | naive (raw values) | reader |\n| --- | ---: | ---: | ---: |")
    for kind, c in sorted(reading(data, cells).items()):
        print(f"| {kind} | {c['cells']} | {c['naive']} | {c['reader']} |")
    chunks = {arm: all_chunks(path) for arm, path in indexes.items()}
    tables, lost, lines, odd = header_loss(chunks["reader"])
    print(f"\nreader index: {len(chunks['reader'])} chunks, {tables} table chunks, {lost} without their header "
          f"(columns); {lines} row lines, {odd} of another width than the columns their chunk carries. "
          f"naive index: {len(chunks['naive'])} chunks (a header only in the chunk holding a sheet's first rows)")
    result = {"reader": scores(indexes["reader"], queries, ""), "naive": scores(indexes["naive"], queries, ".txt")}
    with (out / "rows.jsonl").open("w", encoding="utf-8") as fh:
        for q, a, b in zip(queries, result["naive"], result["reader"], strict=True):
            fh.write(json.dumps({**q, "naive": a, "reader": b}) + "\n")
    print("\n## Search: one hybrid search (k=10), reader − naive, 95 % paired bootstrap\n")
    print("| metric | n | naive | reader | reader − naive | won / lost |\n| --- | ---: | ---: | ---: | --- | --- |")
    n = len(queries)
    for metric in ("hit1", "hit5", "figure5", "figure_any5"):
        a = [r[metric] for r in result["naive"]]
        b = [r[metric] for r in result["reader"]]
        mean, won, lost_q, lo, hi = paired(a, b)
        print(f"| {metric} | {n} | {sum(a) / n:.3f} | {sum(b) / n:.3f} | {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] "
              f"| {won} / {lost_q} |")
    print(f"\nquestions with no gold chunk: reader {sum(1 for r in result['reader'] if not r['gold'])}, naive "
          f"{sum(1 for r in result['naive'] if not r['gold'])}")


def datagen_table(out: Path, sample: int, seed: int) -> None:
    """The default `context1 datagen` run on the reader index (OUT/datagen): tasks by generator and form, how many
    rest on a table chunk of a workbook, and `sample` of them read whole (question, answers, the quotes)."""
    path = out / "datagen" / "tasks.jsonl"
    tasks = [json.loads(line) for line in path.open(encoding="utf-8")] if path.exists() else []
    print(f"## Datagen (default command) on the reader index: {len(tasks)} tasks\n")
    log = out / "datagen.log"
    for line in log.read_text(encoding="utf-8").splitlines() if log.exists() else []:
        if line.startswith(("proposed", "stopped", "stages")):  # why it stopped: the drops by reason
            print(f"    {line[:400]}")
    kinds = Counter(f"{t.get('metadata', {}).get('generator', t.get('source'))} / {t.get('question_type')}" for t in tasks)
    print("| generator / type | tasks |\n| --- | ---: |")
    for kind, n in kinds.most_common():
        print(f"| {kind} | {n} |")
    print()
    for t in random.Random(seed).sample(tasks, min(sample, len(tasks))):
        quotes = [q for s in t.get("metadata", {}).get("supporting", []) for q in s.get("quotes", [])]
        print(f"- Q: {t['query']}\n  A: {t.get('answers')}\n  gold: {t.get('gold_chunk_ids')}")
        for q in quotes[:2]:
            print(f"  quote: {q[:300]}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", choices=("expect", "run", "datagen"))
    parser.add_argument("--data", type=Path, required=True, help="a folder of .xlsx workbooks")
    parser.add_argument("--scratch", type=Path, help="where the two indexes are built (or found): run")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--per-file", type=int, default=6, help="most questions a workbook")
    parser.add_argument("--seed", type=int, default=52)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.step == "expect":
        expect(args.data, args.out, args.per_file, args.seed)
    elif args.step == "datagen":
        datagen_table(args.out, 10, args.seed)
    else:
        if args.scratch is None:
            parser.error("run needs --scratch")
        run(args.data, args.scratch, args.out)


if __name__ == "__main__":
    main()
