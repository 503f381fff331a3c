"""Excel workbooks read as documents: sheets in workbook order as sections, each table's rows under its header
row, figures as the sheet shows them (dates, percentages, a formula's cached value), merged cells spread, title
rows kept; every broken file skipped with a reason and nothing else lost."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from corpus_tools import load_documents
from corpus_tools.chunking import chunk_document
from corpus_tools.config import ChunkingConfig, CorpusConfig
from corpus_tools.loaders import ReadOptions
from corpus_tools.readers import UnreadableFileError
from corpus_tools.xlsx_reader import read_xlsx, show_number

MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
RELS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"'
TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
# cellXfs: 0 General, 1 a date (built-in 14), 2 a percentage with one decimal (custom 164), 3 "#,##0"
STYLES = (f'<styleSheet {MAIN}><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0%"/></numFmts>'
          '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="3"/></cellXfs>'
          '</styleSheet>')


def cell(ref: str, value: str, kind: str = "", style: str = "", formula: str = "") -> str:
    """A cell: kind "s" (shared string index), "str", "b", "e", "inlineStr", "" (a number)."""
    attrs = f' r="{ref}"' + (f' t="{kind}"' if kind else "") + (f' s="{style}"' if style else "")
    if kind == "inlineStr":
        return f"<c{attrs}><is><t>{value}</t></is></c>"
    f = f"<f>{formula}</f>" if formula else ""
    v = f"<v>{value}</v>" if value != "" else ""
    return f"<c{attrs}>{f}{v}</c>"


def row(n: int, *cells: str) -> str:
    return f'<row r="{n}">{"".join(cells)}</row>'


def workbook(path: Path, sheets: list[tuple[str, str, str]], strings: list[str] = (), merges: dict[str, list[str]] = None,
             order: list[int] | None = None) -> Path:
    """A minimal .xlsx: sheets as (name, state, rows XML); the workbook lists them in `order` while their parts are
    numbered as given (so a test can tell workbook order from part order)."""
    merges = merges or {}
    order = order if order is not None else list(range(len(sheets)))
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("_rels/.rels", f'<Relationships {RELS}><Relationship Id="rId1" Type="{TYPE}officeDocument" '
                                  'Target="xl/workbook.xml"/></Relationships>')
        listed = "".join(f'<sheet name="{sheets[i][0]}" sheetId="{i + 1}" r:id="rId{i + 1}"'
                         + (f' state="{sheets[i][1]}"' if sheets[i][1] != "visible" else "") + "/>" for i in order)
        z.writestr("xl/workbook.xml", f"<workbook {MAIN} {R}><sheets>{listed}</sheets></workbook>")
        rels = "".join(f'<Relationship Id="rId{i + 1}" Type="{TYPE}worksheet" Target="worksheets/sheet{i + 1}.xml"/>'
                       for i in range(len(sheets)))
        rels += f'<Relationship Id="rIdS" Type="{TYPE}sharedStrings" Target="sharedStrings.xml"/>'
        rels += f'<Relationship Id="rIdT" Type="{TYPE}styles" Target="styles.xml"/>'
        z.writestr("xl/_rels/workbook.xml.rels", f"<Relationships {RELS}>{rels}</Relationships>")
        for i, (name, _state, rows) in enumerate(sheets):
            merged = "".join(f'<mergeCell ref="{m}"/>' for m in merges.get(name, []))
            merged = f"<mergeCells>{merged}</mergeCells>" if merged else ""
            z.writestr(f"xl/worksheets/sheet{i + 1}.xml", f"<worksheet {MAIN}><sheetData>{rows}</sheetData>{merged}</worksheet>")
        sst = "".join(f"<si><t>{s}</t></si>" for s in strings)
        z.writestr("xl/sharedStrings.xml", f"<sst {MAIN}>{sst}</sst>")
        z.writestr("xl/styles.xml", STYLES)
    return path


STRINGS = ["Budget 2023", "Item", "Q3", "Share", "Approved", "Marketing", "Travel", "Region", "North", "Sales"]


def budget(path: Path) -> Path:
    """A title row above the header; a date, a percentage, a formula's cached value, booleans, shared and inline
    strings; a second sheet listed first in the workbook though its part is sheet2.xml; a hidden sheet."""
    budget_rows = (row(1, cell("A1", "0", "s"))
                   + row(3, cell("A3", "1", "s"), cell("B3", "2", "s"), cell("C3", "3", "s"), cell("D3", "4", "s"),
                         cell("E3", "Due", "inlineStr"))
                   + row(4, cell("A4", "5", "s"), cell("B4", "125000", style="3"), cell("C4", "0.125", style="2"),
                         cell("D4", "1", "b"), cell("E4", "45199", style="1"))
                   + row(5, cell("A5", "6", "s"), cell("B5", "8500.5", formula="B4*0.068"), cell("C5", "#DIV/0!", "e"),
                         cell("D5", "0", "b"), cell("E5", "", formula="TODAY()")))
    regions = (row(1, cell("A1", "7", "s"), cell("B1", "9", "s"))
               + row(2, cell("A2", "8", "s"), cell("B2", "310")))
    hidden = row(1, cell("A1", "Rate", "inlineStr"), cell("B1", "Code", "inlineStr")) + row(
        2, cell("A2", "0.07", style="2"), cell("B2", "TX", "inlineStr"))
    return workbook(path, [("Budget", "visible", budget_rows), ("Regions", "visible", regions),
                           ("Lookup", "hidden", hidden), ("Macro", "veryHidden", hidden)], STRINGS, order=[1, 0, 2, 3])


def test_cells_read_as_the_sheet_shows_them_under_their_header(tmp_path):
    doc = read_xlsx(budget(tmp_path / "b.xlsx"))
    tables = [p for p in doc.parts if p.kind == "table"]
    rows = doc.text[tables[1].start:tables[1].end].split("\n")
    assert rows == ["(Item) | Q3 | Share | Approved | Due",
                    "Marketing | 125,000 | 12.5% | TRUE | 2023-09-30",
                    "Travel | 8500.5 | #DIV/0! | FALSE | "]  # a formula by its cached value; one never computed: blank
    assert "B4*0.068" not in doc.text and "TODAY" not in doc.text
    # the title row above the header is the sheet's lead text, and the table's caption its chunks carry
    lead = next(p for p in doc.parts if p.section == "Budget" and p.kind == "text")
    assert doc.text[lead.start:lead.end] == "Budget 2023" and lead.start < tables[1].start
    assert "columns: Q3 | Share | Approved | Due" in tables[1].context and "Budget 2023" in tables[1].context


def test_sheets_in_workbook_order_hidden_marked_very_hidden_left_out(tmp_path):
    doc = read_xlsx(budget(tmp_path / "b.xlsx"))
    sections = list(dict.fromkeys(p.section for p in doc.parts))
    assert sections == ["Regions", "Budget", "Lookup (hidden)"]  # the workbook's tab order, not the parts' numbers
    assert doc.metadata["hidden_sheets"] == "Lookup" and doc.sheets == 3
    assert "0.07" not in doc.text and "7.0% | TX" in doc.text


def test_merged_cells_spread_as_a_reader_sees_them(tmp_path):
    rows = (row(1, cell("A1", "Region", "inlineStr"), cell("B1", "2023", "inlineStr"), cell("D1", "2024", "inlineStr"))
            + row(2, cell("B2", "H1", "inlineStr"), cell("C2", "H2", "inlineStr"), cell("D2", "H1", "inlineStr"),
                  cell("E2", "H2", "inlineStr"))
            + row(3, cell("A3", "North", "inlineStr"), cell("B3", "10"), cell("C3", "11"), cell("D3", "12"), cell("E3", "13"))
            + row(4, cell("B4", "20"), cell("C4", "21"), cell("D4", "22"), cell("E4", "23")))
    doc = read_xlsx(workbook(tmp_path / "m.xlsx", [("Sales", "visible", rows)], merges={"Sales": ["B1:C1", "D1:E1", "A3:A4"]}))
    [table] = [p for p in doc.parts if p.kind == "table"]
    assert doc.text[table.start:table.end].split("\n") == [
        "(Region) | 2023 H1 | 2023 H2 | 2024 H1 | 2024 H2", "North | 10 | 11 | 12 | 13", "North | 20 | 21 | 22 | 23"]


def test_a_table_cut_by_a_blank_row_keeps_its_header_and_every_chunk_carries_it(tmp_path):
    rows = row(1, cell("A1", "City", "inlineStr"), cell("B1", "Stores", "inlineStr"))
    rows += "".join(row(n, cell(f"A{n}", f"Town{n}", "inlineStr"), cell(f"B{n}", str(n))) for n in range(2, 40))
    rows += "".join(row(n, cell(f"A{n}", f"Town{n}", "inlineStr"), cell(f"B{n}", str(n))) for n in range(41, 80))
    path = workbook(tmp_path / "long.xlsx", [("Stores", "visible", rows)])
    [document] = load_documents(path).documents
    chunks = chunk_document(document, _Words(), ChunkingConfig(chunk_tokens=40, overlap_tokens=0))
    assert len(chunks) > 5 and all("columns: Stores" in c.metadata["header"] for c in chunks)
    assert any("Town79 | 79" in c.text for c in chunks) and document.metadata["file_name"] == "long.xlsx"


@pytest.mark.parametrize("number, fid, code, shown", [
    (45199, 14, "", "2023-09-30"), (45199.75, 22, "", "2023-09-30 18:00"), (0.5, 20, "", "12:00"),
    (45199, 164, "d-mmm-yy", "2023-09-30"), (45170, 165, "mmm yyyy", "Sep 2023"), (0.125, 9, "0%", "13%"),
    (0.1 + 0.2, 0, "General", "0.3"), (3.25097719979614, 0, "General", "3.2509772"), (-0.000123456789, 0, "General",
                                                                                         "-0.000123457"),
    (123456789012, 0, "General", "1.23457E+11"), (-1234.5, 4, "#,##0.00", "-1,234.50"), (-1234, 37, "#,##0 ;(#,##0)", "(1,234)"),
    (1234.5, 164, '"$"#,##0.00', "1,234.50"), (1234.5, 164, "[$€-407]#,##0.00", "€1,234.50"), (59, 14, "", "1900-02-28"),
])
def test_number_formats(number, fid, code, shown):
    from corpus_tools.xlsx_reader import _BUILTIN_FORMATS

    assert show_number(number, fid, code or _BUILTIN_FORMATS[fid]) == shown


def test_a_1904_workbook_counts_its_days_from_1904():
    assert show_number(0, 14, "m/d/yyyy", date1904=True) == "1904-01-01"


def test_a_long_sheet_is_cut_and_says_so(tmp_path, monkeypatch):
    import corpus_tools.xlsx_reader as reader

    monkeypatch.setattr(reader, "MAX_ROWS", 50)
    rows = row(1, cell("A1", "Id", "inlineStr"), cell("B1", "Value", "inlineStr"))
    rows += "".join(row(n, cell(f"A{n}", str(n)), cell(f"B{n}", str(n * 2))) for n in range(2, 400))
    doc = read_xlsx(workbook(tmp_path / "big.xlsx", [("Data", "visible", rows)]))
    assert doc.metadata["rows_capped"] == "Data: first 50 rows read"
    assert "49 | 98" in doc.text and "60 | 120" not in doc.text


def _bad_xml(f: Path) -> None:
    workbook(f, [("S", "visible", "<row r='1'><c r='A1'>")])  # a cell never closed


@pytest.mark.parametrize("make, reason", [
    (lambda f: f.write_bytes(budget(f.with_suffix(".tmp")).read_bytes()[:900]), "not a readable .xlsx (truncated"),
    (lambda f: f.write_bytes(b"plain text named .xlsx"), "not a readable .xlsx"),
    (lambda f: f.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 64 + "EncryptionInfo".encode("utf-16-le")),
     "password-protected Excel file; remove the password in Excel"),
    (lambda f: f.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600),
     "binary Excel 97-2003 file named .xlsx; open it in Excel or LibreOffice and save it as .xlsx"),
    (lambda f: zipfile.ZipFile(f, "w").close(), "not an Excel workbook (the zip holds no xl/workbook.xml)"),
    (_bad_xml, "broken XML in xl/worksheets/sheet1.xml"),
])
def test_broken_files_are_refused_with_a_reason(tmp_path, make, reason):
    path = tmp_path / "bad.xlsx"
    make(path)
    with pytest.raises(UnreadableFileError) as caught:
        read_xlsx(path)
    assert str(caught.value).startswith(reason), str(caught.value)


def test_a_folder_loses_only_its_broken_workbooks(tmp_path):
    budget(tmp_path / "good.xlsx")
    (tmp_path / "cut.xlsx").write_bytes((tmp_path / "good.xlsx").read_bytes()[:900])
    (tmp_path / "old.xls").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600)
    workbook(tmp_path / "blank.xlsx", [("Sheet1", "visible", "")])
    budget(tmp_path / "macros.xlsm")  # a macro-enabled workbook: its cells read alike
    report = load_documents(tmp_path)
    assert [d.doc_id for d in report.documents] == ["good.xlsx", "macros.xlsm"]
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["cut.xlsx"].startswith("not a readable .xlsx (truncated")
    assert reasons["old.xls"].startswith("binary Excel 97-2003 file, not read; open it in Excel")
    assert reasons["blank.xlsx"] == "empty file"


def test_off_reads_workbooks_as_before(tmp_path):
    budget(tmp_path / "good.xlsx")
    report = load_documents(tmp_path, sheets=False)
    assert not report.documents and report.skipped[0].reason.startswith("unsupported file type (.xlsx files")
    assert ReadOptions.from_config(CorpusConfig.from_dict({})).sheets is False
    assert ReadOptions.from_config(CorpusConfig()).sheets is True


class _Words:
    """A whitespace tokenizer (the chunker's contract), so the test loads no model."""

    def count(self, text: str) -> int:
        return len(text.split())

    def offsets(self, text: str) -> list[tuple[int, int]]:
        import re

        return [m.span() for m in re.finditer(r"\S+", text)]


def test_a_wide_table_is_written_in_column_groups_each_under_its_row_labels(tmp_path):
    from corpus_tools.xlsx_reader import MAX_TABLE_COLUMNS, _letters

    width = MAX_TABLE_COLUMNS + 3
    head = row(1, cell("A1", "Store", "inlineStr"), *(cell(f"{_letters(c)}1", f"Week {c}", "inlineStr")
                                                      for c in range(1, width + 1)))
    body = row(2, cell("A2", "Oslo", "inlineStr"), *(cell(f"{_letters(c)}2", str(c * 10)) for c in range(1, width + 1)))
    doc = read_xlsx(workbook(tmp_path / "wide.xlsx", [("Weeks", "visible", head + body)]))
    tables = [doc.text[p.start:p.end].split("\n") for p in doc.parts if p.kind == "table"]
    assert len(tables) == 2 and doc.tables == 1
    assert tables[1] == ["(Store) | Week 13 | Week 14 | Week 15", "Oslo | 130 | 140 | 150"]


def test_a_window_never_ends_inside_a_row_at_a_label_that_reads_as_a_sentence(tmp_path):
    # "P.J." and "No." end no sentence inside a row: a window cut there left a row's first cell alone at its end
    # (session 52: 3,010 of 6,736 row lines on the reporting workbooks of another width than their columns)
    rows = row(1, *(cell(f"{c}1", name, "inlineStr") for c, name in zip("ABCD", ("Player", "Age", "Games", "Points"),
                                                                          strict=True)))
    rows += "".join(row(n, cell(f"A{n}", f"P.J. Tucker No. {n}", "inlineStr"), cell(f"B{n}", str(20 + n)),
                        cell(f"C{n}", str(n)), cell(f"D{n}", str(3 * n))) for n in range(2, 60))
    path = workbook(tmp_path / "players.xlsx", [("Players", "visible", rows)])
    [document] = load_documents(path).documents
    chunks = chunk_document(document, _Words(), ChunkingConfig(chunk_tokens=48, overlap_tokens=8))
    assert len(chunks) > 5
    for c in chunks:
        for line in c.text.strip().split("\n"):
            assert line.count(" | ") == 3, (c.chunk_id, line)  # every line a whole row (or the column line)
    # no row is lost between two windows
    assert all(any(f"P.J. Tucker No. {n} | " in c.text for c in chunks) for n in range(2, 60))


def test_a_row_cut_by_a_window_is_whole_in_the_next_one(tmp_path):
    # a row longer than a window's last quarter is cut where the window ends; the next window used to start at the
    # row after it, and the rest of the row was in no passage (words the index never held)
    letters = "BCDEFGHIJKLM"
    rows = row(1, cell("A1", "Town", "inlineStr"), *(cell(f"{c}1", f"Q{i}", "inlineStr") for i, c in enumerate(letters)))
    rows += "".join(row(n, cell(f"A{n}", f"Town {n}", "inlineStr"),
                        *(cell(f"{c}{n}", f"ward {n} seat {i} of the town", "inlineStr") for i, c in enumerate(letters)))
                    for n in range(2, 40))
    path = workbook(tmp_path / "towns.xlsx", [("Towns", "visible", rows)])
    [document] = load_documents(path).documents
    chunks = chunk_document(document, _Words(), ChunkingConfig())
    lines = {line for c in chunks for line in c.text.split("\n")}
    for n in range(2, 40):
        whole = f"Town {n} | " + " | ".join(f"ward {n} seat {i} of the town" for i in range(len(letters)))
        assert whole in lines, whole
    assert all(c.n_tokens <= ChunkingConfig().chunk_tokens for c in chunks)
