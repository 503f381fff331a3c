"""The part of a passage a person needs to read (`excerpt`): what `ask` prints of each passage.

A passage is a chunk of up to a few hundred tokens; a reader wants the few lines that answer. The
excerpt is cut from whole units, never mid-unit when a unit fits:

* a table row (a line with " | " cells, as `pdf_layout`/`chunking` write them) is one unit, printed on
  its own line: a row is never cut mid-cell, and rows never run together;
* other lines are joined back into paragraphs (a PDF breaks a sentence wherever its line ends:
  "decreased 3% or $2.4 billion during\\nthe second quarter of 2023", and a blank line followed by
  "respectively." carries on the sentence too) and split into sentences.

Each unit scores the question words it holds (`context1.evidence.words_held`; a row counts the words of
its label, the line item it names; a code name with "_" the question writes, `SECRET_KEY`, counts as one), plus the line items the question names under any of their names
(`corpus_tools.line_items`: a "Gross profit" row answers "gross margin"; the rows printing the components
of a derived item the question asks for, "Total net sales" and "Cost of sales" for "gross margin", count
too). When the question asks for a figure (what was, how much, why did it change, or a line item) a
sentence that holds the question's words *and* a figure (an amount, a percentage) scores one more: the
figure is the answer and sits in the same sentence as the words, often before them.

The best unit is the seed. For a table, its column header row and its other rows that score are added
next (whole, in the passage's order, a "…" line where rows were skipped); then the excerpt widens to the
neighbour that scores more (the following one on a tie) while it fits `max_chars`. A single unit longer
than `max_chars` is cut: a row at a cell boundary, a sentence to the window holding most question words
and figures. Whitespace is collapsed; lines are separated by "\\n".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from context1.evidence import question_words, words_held
from corpus_tools.defined_names import query_names
from corpus_tools.line_items import DERIVED, canonical_names, derived_named
from corpus_tools.readers import PPTX_SUFFIXES, XLSX_SUFFIXES
from corpus_tools.row_match import CELL

EXCERPT_CHARS = 480  # characters of a passage shown; --json carries the whole text
GAP = "…"

# A sentence ends at . ! ? ; before a capital, a digit, a bullet, a quote or a bracket ("U.S. dollar" stays one).
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9•“\"'(\[$])|\s+(?=• )")
# A figure a reader came for: an amount, a percentage, a number with thousands separators or decimals. A bare
# year ("2023") or a note number is not one.
_FIGURE = re.compile(r"\$\s?\d[\d,]*(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?\s?%|(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?"
                     r"|(?<![\w.,])\d+\.\d+(?![\w.])")
# Questions that ask for a figure or for why one changed.
_ASKS_FIGURE = re.compile(
    r"\b(?:how (?:much|many)|what (?:was|were|is|are)|why|chang\w*|driv\w*|increas\w*|decreas\w*|declin\w*|"
    r"grow\w*|grew|rose|fell|amount\w*|figures?|spen[dt]\w*|rate|margin|impact\w*|affect\w*|influenc\w*)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Unit:
    """One piece an excerpt is cut from: a table row or a sentence; `block` numbers the paragraph or
    run of rows it sits in (a new block starts a new line when printed)."""

    text: str
    row: bool
    block: int


def units(text: str) -> list[Unit]:
    """`text` as table rows and sentences, in order, whitespace collapsed."""
    out: list[Unit] = []
    para: list[str] = []
    block = -1
    last = ""  # what the previous line was: "row", "text", or "" (blank)

    def flush() -> None:
        nonlocal block
        if para:
            block += 1
            joined = " ".join(" ".join(line.split()) for line in para)
            out.extend(Unit(s.strip(), False, block) for s in _SENTENCE.split(joined) if s.strip())
            para.clear()

    for line in text.splitlines():
        if CELL in line:
            flush()
            if last != "row":
                block += 1
            out.append(Unit(" ".join(line.split()), True, block))
            last = "row"
        elif not line.strip():
            last = ""  # a paragraph ends here unless the next line carries on its sentence
        else:
            if last == "" and not line.lstrip()[:1].islower():
                flush()
            para.append(line)
            last = "text"
    flush()
    return out


def asks_for_figure(question: str) -> bool:
    """Whether the question asks what a figure was, how much, or why it changed (or names a line item)."""
    return bool(_ASKS_FIGURE.search(question) or canonical_names(question))


def has_figure(text: str) -> bool:
    return _FIGURE.search(text) is not None


def _label(row: str) -> str:
    return row.split(CELL, 1)[0]


def _is_header(row: str) -> bool:
    """A row of column headings ("(in millions) | Three Months Ended April 1, 2023 | …"): every cell after
    the label holds words and no figure."""
    cells = [c for c in row.split(CELL)[1:] if c.strip()]
    return bool(cells) and all(any(ch.isalpha() for ch in c) and not has_figure(c) for c in cells)


def unit_scores(pieces: Sequence[Unit], question: str) -> list[float]:
    """How much each unit answers `question` (see the module docstring)."""
    # a code name with "_" is no question word (evidence.question_words) but is what a reader of "What does
    # SECRET_KEY do?" looks for: the entry's own "SECRET_KEY" line seeds the excerpt, not the chunk's opening
    terms = question_words(question) + sorted(t for t in query_names(question) if "_" in t)
    items = set(canonical_names(question))
    labels = [_label(u.text) for u in pieces if u.row]
    derived = derived_named(items, labels) if labels else set()
    parts = {c for item in derived for c in DERIVED[item]}  # the components the rows print
    figure = asks_for_figure(question)
    out = []
    for u in pieces:
        text = _label(u.text) if u.row else u.text
        names = set(canonical_names(text))
        score = len(words_held(text, terms)) + len(items & names)
        if u.row:
            score += len(parts & names)
        elif figure and score and has_figure(text):
            score += 1  # the figure asked for, beside the question's words
        out.append(float(score))
    return out


def excerpt(text: str, question: str, max_chars: int = EXCERPT_CHARS) -> str:
    """The part of `text` a reader of `question` needs, at most about `max_chars` characters (see the
    module docstring); "" for an empty text."""
    pieces = units(text)
    if not pieces:
        return ""
    score = unit_scores(pieces, question)
    seed = max(range(len(pieces)), key=lambda i: (score[i], -i))
    chosen = {seed}
    used = len(pieces[seed].text)

    def fits(i: int) -> bool:
        return used + 1 + len(pieces[i].text) <= max_chars

    if pieces[seed].row:  # the table's column headings, then the other rows that answer, whole
        block = pieces[seed].block
        header = next((i for i, u in enumerate(pieces) if u.block == block and u.row and _is_header(u.text)), None)
        extra = ([header] if header is not None else []) + sorted(  # of this table only
            (i for i, u in enumerate(pieces) if u.block == block and u.row and score[i] > 0), key=lambda i: (-score[i], i))
        for i in extra:
            if i not in chosen and fits(i):
                chosen.add(i)
                used += 1 + len(pieces[i].text)
    lo = hi = seed
    while True:  # widen around the seed: the neighbour that answers more, the following one on a tie
        while lo - 1 in chosen:
            lo -= 1
        while hi + 1 in chosen:
            hi += 1
        options = [j for j in (hi + 1, lo - 1) if 0 <= j < len(pieces) and fits(j)]
        if not options:
            break
        j = max(options, key=lambda j: (score[j], j > hi))
        chosen.add(j)
        used += 1 + len(pieces[j].text)
    return _render(pieces, sorted(chosen), question, max_chars)


def _render(pieces: Sequence[Unit], chosen: list[int], question: str, max_chars: int) -> str:
    """The chosen units in order: rows on their own lines, a paragraph's sentences on one, "…" for what
    was skipped (its own line between rows, inline beside prose)."""
    lines: list[str] = []
    prev: int | None = None
    for i in chosen:
        u = pieces[i]
        text = _cut(u, question, max_chars) if len(u.text) > max_chars else u.text
        skipped = i > 0 if prev is None else i > prev + 1
        same_line = (prev is not None and not u.row and not pieces[prev].row and pieces[prev].block == u.block)
        if skipped and (u.row or (prev is not None and pieces[prev].row)):
            lines.append(GAP)
            same_line = False
        elif skipped:
            text = f"{GAP} {text}"
        if same_line and lines:
            lines[-1] += " " + text
        else:
            lines.append(text)
        prev = i
    if prev is not None and prev < len(pieces) - 1:
        if pieces[prev].row:
            lines.append(GAP)
        else:
            lines[-1] += f" {GAP}"
    return "\n".join(lines)


def _cut(u: Unit, question: str, max_chars: int) -> str:
    """A unit longer than `max_chars`: a row's leading cells (never half a cell), or a sentence's window
    that holds the most question words and figures (leading and trailing "…" where it was cut)."""
    if u.row:
        cells = u.text.split(CELL)
        out = cells[0]
        for cell in cells[1:]:
            if len(out) + len(CELL) + len(cell) > max_chars - len(CELL) - 1:  # room for " | …"
                return out + CELL + GAP
            out += CELL + cell
        return out
    text = u.text
    terms = question_words(question)
    spans = [(m.start(), m.end(), _which(m.group(0), terms)) for m in term_pattern(terms).finditer(text)] if terms else []
    if asks_for_figure(question):
        spans += [(m.start(), m.end(), f"#{m.start()}") for m in _FIGURE.finditer(text)]
    starts = sorted({0, *(max(0, s - 40) for s, _, _ in spans)})

    def covered(a: int) -> tuple[int, int]:
        inside = {key for s, e, key in spans if a <= s and e <= a + max_chars}
        return (len(inside), -a)

    a = max(starts, key=covered)
    if a > 0:  # start at a word
        a = text.rfind(" ", 0, a) + 1
    b = min(len(text), a + max_chars)
    if b < len(text):
        b = max(text.rfind(" ", a, b), a + 1)
    return ("… " if a > 0 else "") + text[a:b].strip() + (" …" if b < len(text) else "")


def _which(word: str, terms: Sequence[str]) -> str:
    """The question word a matched word is ("lighthouses" is "lighthouse")."""
    low = word.lower()
    return max((t.lower() for t in terms if low.startswith(t.lower())), key=len, default=low)


def term_pattern(terms: Sequence[str]) -> re.Pattern[str]:
    """Whole question words, or with a plural ending, as `words_held` counts them."""
    wanted = sorted({t for t in terms if t}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(t) for t in wanted) + r")(?:e?s)?(?!\w)", re.IGNORECASE)


def section_below_title(section: str | None, title: str) -> str:
    """The section path without the title it repeats: a notebook's or page's first heading is usually its title
    too ("Grid search > Review" under the title "Grid search"), and printing it twice pushes the source down."""
    parts = [p.strip() for p in (section or "").split(" > ")]
    if parts and parts[0].casefold() == title.strip().casefold():
        parts = parts[1:]
    return " > ".join(p for p in parts if p)


def place_labels(doc_id: str, page: int | None, section: str | None, title: str = "",
                 section_word: str = "") -> list[str]:
    """Where a passage sits, as `ask` and MCP name it: its page, then its section below the title it repeats.

    A slide deck's page is its slide ("slide 4": pptx_reader numbers slides as pages), a workbook's section is its
    sheet ("sheet Budget 2023": xlsx_reader makes a section of each sheet, and a bare "Budget 2023" under a file
    name reads as a heading); any other document's "page 4" and its section, after `section_word` ("section ").
    """
    suffix = Path(doc_id).suffix.lower()
    where = [f"{'slide' if suffix in PPTX_SUFFIXES else 'page'} {page}"] if page is not None else []
    if part := section_below_title(section, title):
        where.append(f"sheet {part}" if suffix in XLSX_SUFFIXES else f"{section_word}{part}")
    return where
