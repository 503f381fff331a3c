"""Facts from table rows (filings, reports): a company's metric for a period, asked as a person would
("What was Initech Corporation's net revenue for the three months ended Sep 30, 2023?").

A table chunk (metadata "kind": "table", written by the structured readers of corpus_tools) holds
one row a line, cells split by " | ", under a column line whose corner cell gives the units:

    (In millions) | Three Months Ended Sep 30, 2023 | Three Months Ended Sep 24, 2022
    Net revenue | $ 14,158 | $ 15,338

The columns come from that line, or from the chunk's contextual header ("columns: …") when a long
table's later chunk no longer shows it. A row whose cells do not line up with the columns, or a table
with no column line at all (its header row lost), gives no fact and is counted: a value without its
period would be a guess. The company is the chunk's "company" metadata, else the document's title;
the value is kept as the cell writes it ("14,158"), since that is what the verifier finds in the text.
Chunks without a "kind" (indexes built before document structure) are not tables: nothing changes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from datagen.factbase import Fact, malformed_subject
from datagen.mining import fold
from datagen.types import TruthType

_VALUE = re.compile(r"^\(?-?\$?\s*\d[\d,]*(?:\.\d+)?\)?\s*%?$")
_SYMBOLS = {"$", "%", "", "—", "-", "–"}


def is_table(metadata: Mapping[str, Any]) -> bool:
    return str(metadata.get("kind", "")) == "table"


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.split(" | ")]


def _columns(text: str, metadata: Mapping[str, Any]) -> tuple[list[str], str]:
    """(column headers, units) of a table chunk, or ([], "") when its header row is lost."""
    first = text.split("\n", 1)[0]
    cells = _cells(first)
    if len(cells) >= 2 and cells[0].startswith("(") and cells[0].endswith(")"):
        return cells[1:], cells[0].strip("()")
    header = str(metadata.get("header", ""))
    m = re.search(r"columns:\s*(.+?)(?:\s+·\s+|$)", header)
    if m:
        return _cells(m.group(1)), ""
    return [], ""


def _period(column: str) -> str:
    """"Three Months Ended Sep 30, 2023" → "three months ended Sep 30, 2023" (a phrase after "for the")."""
    words = column.split()
    out = []
    for w in words:
        out.append(w.lower() if w in {"Three", "Six", "Nine", "Twelve", "Months", "Ended", "Year", "Quarter", "Weeks"} else w)
    return " ".join(out)


def table_facts(chunk: Any, company: str, skipped: Counter) -> list[Fact]:
    """Every (company, metric, period, value) fact of a table chunk's rows (see the module docstring)."""
    if malformed_subject(company):
        skipped["table_without_company"] += 1
        return []
    columns, _units = _columns(chunk.text, chunk.metadata)
    lines = [line for line in chunk.text.split("\n") if " | " in line]
    if columns and lines and _cells(lines[0])[0].startswith("("):
        lines = lines[1:]  # the column line itself
    if not columns or not any(columns):
        skipped["table_row_without_header"] += len(lines)
        return []
    out = []
    for line in lines:
        cells = _cells(line)
        label, values = cells[0], [c for c in cells[1:] if c not in _SYMBOLS]
        if not re.search(r"[A-Za-z]{3}", label) or not values:
            continue
        if len(values) != len(columns):
            skipped["table_row_misaligned"] += 1
            continue
        for column, value in zip(columns, values, strict=True):
            value = value.strip("$ ").strip()
            if not column or column == "—" or not _VALUE.match(value) or not value.strip("()%-"):
                continue
            period = _period(column)
            metric = label[0].lower() + label[1:] if not label[:2].isupper() else label
            out.append(
                Fact(
                    doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=line, subject=company, about_doc=False,
                    relation=f"table:{fold(label)}:{fold(column)}|row|{TruthType.NUMBER.value}", answer=value,
                    kind=TruthType.NUMBER.value, ask=f"What was {{s}}'s {metric} for the {period}?",
                )
            )
    return out
