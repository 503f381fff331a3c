"""PDF page layout: where the words are, as lines of text and tables whose cells keep their headers.

A plain text extractor gives a financial statement as "Gross margin 36,413 35,885 128,721 132,687"
with "Three Months Ended", "July 1," and "2023" on lines of their own above it: the numbers lose
the period and units they belong to. Here each page's words come with their positions
(PDFium's character boxes through pypdfium2; chosen over pdfplumber's words by measurement, see
benchmarks/filings_layout.py: the same rows at a tenth of the cost), are grouped into lines, and runs of lines whose trailing numbers
line up in columns become a `Table`: every value is assigned to a column by its right edge
(figures are right-aligned), and the lines just above the first row are read as that column's
header by horizontal overlap ("Three Months Ended" spans two columns, "July 1," / "2023" sit over
one). A run whose values do not fall into consistent columns is a "soup" of numbers: it stays
text, and is counted.

Everything here is a pure function of the page's words, so the layout is testable without a PDF.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

# A cell value: "36,413", "(265)", "$1.27", "12.5%", "—" (nil), "-", "0.5x". Years alone are numbers too;
# a prose line ending in a year is told from a row by the column alignment a table needs.
_NUMBER = re.compile(r"^\(?[-−–]?\$?\(?\d[\d,]*(?:\.\d+)?\)?%?\)?[x*]?$|^[—–-]$|^\(?\d*\.\d+\)?%?$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_PERIOD_WORDS = re.compile(
    r"\b(?:ended|ending|months|weeks|year|quarter|as of|january|february|march|april|may|june|july|august|"
    r"september|october|november|december)\b", re.IGNORECASE)
_CURRENCY = frozenset({"$", "€", "£", "¥", "%", ")"})
_UNITS = re.compile(r"\b(?:in|\$ in|dollars in|amounts in)\s+(thousands|millions|billions)\b", re.IGNORECASE)

# Two words further apart than this (points) are separate cells; in running text a space is ~2.5 pt.
CELL_GAP = 6.0
# Values of one column end within this many points of each other (right-aligned figures).
COLUMN_SLACK = 7.0
# Header lines are looked for this far (points) above a table's first row, at most this many.
HEADER_REACH = 80.0
HEADER_LINES = 5


@dataclass(frozen=True)
class Word:
    """One word on a page: its box in points from the top-left corner, its text and font."""

    x0: float
    x1: float
    top: float
    bottom: float
    text: str
    size: float = 0.0
    bold: bool = False


@dataclass(frozen=True)
class Line:
    """Words sharing a baseline, left to right."""

    words: tuple[Word, ...]

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def top(self) -> float:
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bottom for w in self.words)

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1

    @property
    def size(self) -> float:
        return max(w.size for w in self.words)

    @property
    def bold(self) -> bool:
        return all(w.bold for w in self.words)


@dataclass(frozen=True)
class Row:
    """A table row: its label (with the group label above it, "Operating expenses: Research and
    development") and one value per column ("" where the row has none)."""

    label: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    """Rows under column headers ("Three Months Ended July 1, 2023"), with the table's units."""

    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    units: str = ""
    caption: str = ""


@dataclass(frozen=True)
class Soup:
    """Lines that look like a table (many figures) but whose columns could not be told apart."""

    lines: tuple[Line, ...]


@dataclass
class PageLayout:
    """One page: its blocks in reading order (a `Line`, a `Table`, or a `Soup` of lines)."""

    number: int  # 1-based
    blocks: list[Line | Table | Soup] = field(default_factory=list)


# ---------------------------------------------------------------- reading a PDF


def read_layout(path: Path, columns: bool = False) -> tuple[list[PageLayout], str | None, int]:
    """(every page of a PDF as lines and tables, the PDF's metadata title, pages that failed).

    columns: a two-column page is read column by column, and a word broken across lines joined
    (`column_lines`); False = every page's words grouped into lines across the whole width, as before.

    Words come from PDFium's character boxes (pypdfium2): measured on the 10-Qs, they give the
    same table rows as pdfplumber's words at a tenth of the cost (benchmarks/filings_layout.py).
    Raises what pypdfium2 raises for a file it cannot open (readers.read_pdf_document falls back).
    """
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    failed = 0
    try:
        try:
            title = (document.get_metadata_dict() or {}).get("Title")
        except Exception:  # noqa: BLE001 - a broken info dictionary is no reason to lose the text
            title = None
        every: list[list[Word]] = []
        for index in range(len(document)):
            try:
                every.append(page_words(document, index, hyphens=columns))
            except Exception:  # noqa: BLE001 - one broken page must not lose the others
                failed += 1
                every.append([])
        # a word broken at a line's end is joined as the whole document writes it (`joined_word`)
        vocabulary = Vocabulary.of(w for words in every for w in words) if columns else None
        # each page's gutter found once: it decides the document's layout and then splits the page's columns
        gutters = [find_gutter(words) for words in every] if columns else [None] * len(every)
        split = columns and two_column_document(every, gutters)
        pages = [layout_page(index + 1, words, columns=columns, vocabulary=vocabulary,
                             gutter=gutters[index] if split else None)
                 for index, words in enumerate(every)]
    finally:
        document.close()
    return pages, title if isinstance(title, str) else None, failed


def page_words(document: object, index: int, hyphens: bool = False) -> list[Word]:
    """Words of one page: characters joined while they touch on one line (loose boxes, so a comma
    stays on its word's line), with the font size and boldness of their first character.

    hyphens: the hyphen PDFium marks as breaking a word at a line's end (U+FFFE, or U+0002) is kept as a
    soft hyphen (U+00AD) at the word's end, so `column_lines` can join "distrib-" / "uted", and turned text (an
    arXiv stamp up the margin) is left out; False = as before."""
    import ctypes

    import pypdfium2.raw as raw

    page = document[index]  # type: ignore[index]
    textpage = page.get_textpage()
    try:
        height = page.get_size()[1]
        name = ctypes.create_string_buffer(128)
        flags = ctypes.c_int()
        words: list[Word] = []
        chars: list[tuple[float, float, float, float, str]] = []
        first = 0

        def close_word() -> None:
            if not chars:
                return
            size = round(float(raw.FPDFText_GetFontSize(textpage, first)), 1)
            length = raw.FPDFText_GetFontInfo(textpage, first, name, 128, ctypes.byref(flags))
            weight = raw.FPDFText_GetFontWeight(textpage, first)
            bold = weight >= 600 or b"bold" in name.value[:length].lower()
            words.append(Word(chars[0][0], chars[-1][1], min(c[2] for c in chars), max(c[3] for c in chars),
                              "".join(c[4] for c in chars), size, bold))
            chars.clear()

        for j in range(textpage.count_chars()):
            char = chr(raw.FPDFText_GetUnicode(textpage, j))
            if hyphens and abs(math.sin(raw.FPDFText_GetCharAngle(textpage, j))) > 0.1:
                close_word()  # turned text, as arXiv's stamp up a paper's margin: one glyph a word, read as no line
                continue
            if hyphens and char in "\ufffe\x02" and chars:
                chars.append((chars[-1][1], chars[-1][1], chars[-1][2], chars[-1][3], SOFT_HYPHEN))
                close_word()
                continue
            if char.isspace() or char in "\x00\ufffe":
                close_word()
                continue
            left, bottom, right, top = textpage.get_charbox(j, loose=True)
            box = (left, right, height - top, height - bottom, char)
            if chars and (box[0] - chars[-1][1] > 1.0 or abs(box[3] - chars[-1][3]) > 2):
                close_word()
            if not chars:
                first = j
            chars.append(box)
        close_word()
        return words
    finally:
        textpage.close()
        page.close()


# ---------------------------------------------------------------- words → lines → blocks


def group_lines(words: Sequence[Word], first_band: bool = False) -> list[Line]:
    """Words grouped into lines by vertical overlap, top to bottom, each left to right.
    first_band: a word joins the line, of the last three, whose band holds its middle, the band of the line's
    first word, not of all its words so far: a band that grows with each word taken, and a word
    that can join only the last line begun, ran a page's lines together where baselines drift or inline
    mathematics sets words above and below the line (`column_lines`)."""
    if first_band:
        return _band_lines(words)
    lines: list[list[Word]] = []
    for word in sorted(words, key=lambda w: (round(w.top), w.x0)):
        if lines:
            last = lines[-1]
            top = min(w.top for w in last)
            bottom = max(w.bottom for w in last)
            height = max(bottom - top, 1.0)
            # Same line when the word's middle falls inside the line's band (superscripts included).
            if top - 0.2 * height <= (word.top + word.bottom) / 2 <= bottom + 0.2 * height:
                last.append(word)
                continue
        lines.append([word])
    return [Line(tuple(sorted(ws, key=lambda w: w.x0))) for ws in lines]


def _band_lines(words: Sequence[Word]) -> list[Line]:
    lines: list[list[Word]] = []
    bands: list[Word] = []  # each line's first word (a tallest word's loose box can span two lines of a math font)
    for word in sorted(words, key=lambda w: (round(w.top), w.x0)):
        middle = (word.top + word.bottom) / 2
        best = None
        for n in range(len(lines) - 1, max(len(lines) - 4, -1), -1):
            band = bands[n]
            height = max(band.bottom - band.top, 1.0)
            if band.top - 0.2 * height <= middle <= band.bottom + 0.2 * height:
                distance = abs(middle - (band.top + band.bottom) / 2)
                if best is None or distance < best[0]:
                    best = (distance, n)
        if best is None:
            lines.append([word])
            bands.append(word)
            continue
        lines[best[1]].append(word)
    return [Line(tuple(sorted(ws, key=lambda w: w.x0))) for ws in lines]


SOFT_HYPHEN = "\u00ad"
# A page is read as two columns when a vertical gutter near its middle is crossed by words on at most this share
# of its rows (a title, a full-width figure, a centred page number), and each side holds this share of its words.
GUTTER_ROWS = 0.2
COLUMN_SHARE = 0.2
# No line of a page holds this many words: a longer one is lines run together.
RUN_ON_WORDS = 40
# A gutter is clear this many points either side: a title's space between two words (~3 pt) is no gutter.
GUTTER_HALF = 4.0
# A document is read in two columns when at least this share of its pages with text has a gutter
# (`two_column_document`).
DOCUMENT_COLUMN_SHARE = 0.3


def two_column_document(pages: Sequence[Sequence[Word]], gutters: Sequence[float | None] | None = None) -> bool:
    """Whether a document is set in two columns: a gutter (`find_gutter`) on at least DOCUMENT_COLUMN_SHARE of its
    pages with text. Two columns are a document's layout, not an odd page's: measured (session 49) on 106 papers
    and 20 10-Qs, a two-column paper shows a gutter on 58-100 % of its pages, a one-column paper or a filing on
    0-12 %, and those odd pages are a term / definition table, a signature block or a figure table whose header
    words hide its figures, which read right only row by row (a definition beside its term). gutters: each page's
    `find_gutter`, when the caller has them (else found here)."""
    gutters = [find_gutter(words) for words in pages] if gutters is None else gutters
    text = [gutter for words, gutter in zip(pages, gutters, strict=True) if len(words) >= 40]
    return bool(text) and sum(gutter is not None for gutter in text) >= DOCUMENT_COLUMN_SHARE * len(text)


_FIND = object()  # `column_lines`' default: the page's gutter found there


def column_lines(words: Sequence[Word], vocabulary: Vocabulary | None = None, gutter: object = _FIND) -> list[Line]:
    """A page's lines in reading order where it is set in two columns (a research paper): the words are split at
    the gutter, the rows whose words cross it (the title, the authors, a full-width figure) read where they stand,
    and between them the left column's lines before the right one's. Grouped across the whole width, a line of
    the left column took the right column's line beside it ("transactions completed, and … invari ant
    violations"), and where the two columns' baselines drift apart the band of a line grew down the page and its
    words were sorted left to right into a soup. A page with no such gutter reads as `group_lines`. Then a word
    the typesetter broke at a line's end ("distrib-" / "uted") is joined (`join_hyphens`, reading `vocabulary`).
    gutter: the page's `find_gutter` when the caller found it, None to read it as one column (a page of a one-column
    document, `two_column_document`)."""
    if gutter is _FIND:
        gutter = find_gutter(words)
    if gutter is None:
        lines = group_lines(words)
        if any(len(line.words) > RUN_ON_WORDS for line in lines):
            # a one-column page whose lines ran together (inline mathematics above and below the line): grouped
            # by each line's first word; any other page (a filing's, a plain paper's) keeps the base's lines
            lines = group_lines(words, True)
        return join_hyphens(lines, vocabulary)
    crossing = sorted((w for w in words if w.x0 < gutter + GUTTER_HALF and w.x1 > gutter - GUTTER_HALF),
                      key=lambda w: w.top)
    bands: list[list[float]] = []  # vertical spans of the full-width rows
    for w in crossing:
        if bands and w.top <= bands[-1][1] + 1.0:
            bands[-1][1] = max(bands[-1][1], w.bottom)
        else:
            bands.append([w.top, w.bottom])
    lines: list[Line] = []
    left: list[Word] = []
    right: list[Word] = []
    band_words: list[Word] = []
    b = 0
    for w in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        middle = (w.top + w.bottom) / 2
        while b < len(bands) and middle > bands[b][1]:
            if band_words:  # the full-width row is behind: the columns above it first, then it
                lines += group_lines(left, True) + group_lines(right, True) + group_lines(band_words, True)
                left, right, band_words = [], [], []
            b += 1
        if b < len(bands) and middle >= bands[b][0]:
            if left or right:
                lines += group_lines(left, True) + group_lines(right, True)
                left, right = [], []
            band_words.append(w)
        elif (w.x0 + w.x1) / 2 < gutter:
            left.append(w)
        else:
            right.append(w)
    lines += group_lines(left, True) + group_lines(right, True) + group_lines(band_words, True)
    return join_hyphens(lines, vocabulary)


def find_gutter(words: Sequence[Word]) -> float | None:
    """The x of a two-column page's gutter, or None: the point near the middle of the text's width that the
    fewest rows cross, where those are at most GUTTER_ROWS of the page's rows, each side holds COLUMN_SHARE of
    its words, the right side is not figures and half the left side's rows run to near the gutter (a filing's
    statement, labels left and figures right, is no two columns). A single-column page's lines cross every
    such point."""
    if len(words) < 40:
        return None
    lo, hi = min(w.x0 for w in words), max(w.x1 for w in words)
    rows = {round(w.top / 3) for w in words}
    best: tuple[int, float] | None = None
    x = lo + 0.35 * (hi - lo)
    while x <= lo + 0.65 * (hi - lo):
        crossed = len({round(w.top / 3) for w in words if w.x0 < x + GUTTER_HALF and w.x1 > x - GUTTER_HALF})
        if best is None or crossed < best[0] or (crossed == best[0] and abs(x - (lo + hi) / 2) < abs(best[1] - (lo + hi) / 2)):
            best = (crossed, x)
        x += 1.0
    if best is None or best[0] > GUTTER_ROWS * len(rows):
        return None
    gutter = best[1]
    # the gutter's middle: the clear span around the point found, so a column's ragged edge does not decide
    left_edge = max((w.x1 for w in words if w.x1 <= gutter), default=gutter)
    right_edge = min((w.x0 for w in words if w.x0 >= gutter), default=gutter)
    gutter = (left_edge + right_edge) / 2 if right_edge > left_edge else gutter
    left = [w for w in words if w.x1 <= gutter]
    right = [w for w in words if w.x0 >= gutter]
    if min(len(left), len(right)) < COLUMN_SHARE * len(words):
        return None
    # columns of prose, not a table's labels and its figures: the right side is words, and most rows of the left
    # column run to near the gutter (justified or ragged), where a table's labels stop anywhere
    if sum(1 for w in right if is_number(w.text)) > 0.3 * len(right):
        return None
    ends: dict[int, float] = {}
    for w in left:
        ends[round(w.top / 3)] = max(ends.get(round(w.top / 3), lo), w.x1)
    near = sum(1 for x in ends.values() if x >= gutter - 0.25 * (gutter - lo))
    if near < 0.5 * len(ends):
        return None
    return gutter


_TITLE_STAMP = re.compile(r"^\[[^\]]{1,40}\]\s*")
_TITLE_MARKS = re.compile(r"(?:\s+(?:\d|\*|∗|†|‡))+$")
_NOT_TITLE = re.compile(r"doi:|https?://|www\.|©|\bcopyright\b", re.IGNORECASE)


def page_title(page: PageLayout, reach: int = 20) -> str:
    """A paper's title as its first page sets it: the first run of lines in the largest type among the page's first
    `reach` lines (a title wrapped over two lines), where they hold two words or more of letters; "" where none
    does. A paper's metadata title is often another thing ("System Model", "Microsoft Word - paper.doc") or none,
    and a running header is set small."""
    lines = [b for b in page.blocks[:reach] if isinstance(b, Line) and b.words]
    wordy = [ln for ln in lines if sum(1 for w in ln.words if re.search(r"[A-Za-z]{2}", w.text)) >= 1]
    if not wordy:
        return ""
    # the type's height on the page (PDFium's loose boxes): the font size a PDF declares can be 1 for every line,
    # its text matrix doing the scaling
    # a drop cap ("T HE recent development …") is one letter: a line's height is its words of two letters or more
    heights = [max((w.bottom - w.top for w in ln.words if re.search(r"[A-Za-z]{2}", w.text)), default=0.0)
               for ln in wordy]
    big = [h >= max(heights) - 0.5 for h in heights]
    start = big.index(True)
    end = start
    while end < len(wordy) and big[end]:  # one run: the headings below set as large ("1 Introduction") are not it
        end += 1
    title = [ln.text for ln in wordy[start:end]]
    text = " ".join(" ".join(title).split())
    text = _TITLE_STAMP.sub("", text)  # "[inria-00555588, v1] A comprehensive study …"
    text = _TITLE_MARKS.sub("", text)  # "Hints for Computer System Design 1", "… Algorithm *": a footnote's mark
    if len(re.findall(r"[A-Za-z]{2,}", text)) < 2 or len(text.split()) > 24 or _NOT_TITLE.search(text):
        return ""  # a citation line set large ("Lopatovska, I., … doi:10.1016/…"), a journal's masthead link
    return text


@dataclass(frozen=True)
class Vocabulary:
    """The words a document writes whole on a line, lower-cased: those with a hyphen ("non-controlling") and those
    without ("noncontrolling"). PDFium marks every hyphen that ends a line alike, the typesetter's and the word's
    own, so a broken word is joined the way the document writes it elsewhere."""

    hyphenated: frozenset[str]
    plain: frozenset[str]

    @classmethod
    def of(cls, words: Iterable[Word]) -> Vocabulary:
        hyphenated, plain = set(), set()
        for w in words:
            if w.text.endswith(SOFT_HYPHEN):
                continue
            core = _WORD_CORE.search(w.text)
            if core:
                (hyphenated if "-" in core.group() else plain).add(core.group().casefold())
        return cls(frozenset(hyphenated), frozenset(plain))


# a word's letters, digits and inner hyphens / apostrophes, without the punctuation around it
_WORD_CORE = re.compile(r"[^\W_](?:[\w'’-]*[^\W_])?")


def joined_word(stem: str, rest: str, vocabulary: Vocabulary | None) -> str:
    """"distrib" + "uted," → "distributed,"; "forward" + "looking" → "forward-looking" where the document writes
    "forward-looking" elsewhere and never "forwardlooking"; with no such evidence the hyphen stays before a capital
    or a digit ("non-GAAP", "COVID-19") and goes otherwise (most line-end hyphens are the typesetter's)."""
    core = _WORD_CORE.match(rest)
    head = core.group() if core else rest
    if vocabulary is not None:
        whole, kept = (stem + head).casefold(), f"{stem}-{head}".casefold()
        if kept in vocabulary.hyphenated and whole not in vocabulary.plain:
            return f"{stem}-{rest}"
        if whole in vocabulary.plain:
            return stem + rest
    return f"{stem}-{rest}" if head[:1].isupper() or head[:1].isdigit() else stem + rest


def join_hyphens(lines: Sequence[Line], vocabulary: Vocabulary | None = None) -> list[Line]:
    """A word broken at a line's end joined with its rest on the next line ("distrib-" + "uted" → "distributed" on
    the first line; a hyphen the document writes in that word kept, `joined_word`); a soft hyphen with no line
    after it is dropped."""
    out = list(lines)
    for i, line in enumerate(out):
        last = line.words[-1] if line.words else None
        if last is None or not last.text.endswith(SOFT_HYPHEN):
            continue
        stem = last.text.rstrip(SOFT_HYPHEN)
        nxt = out[i + 1] if i + 1 < len(out) else None
        if nxt is not None and nxt.words and stem:
            rest = nxt.words[0]
            joined = Word(last.x0, max(last.x1, last.x0 + 1), last.top, last.bottom,
                          joined_word(stem, rest.text, vocabulary), last.size, last.bold)
            out[i] = Line((*line.words[:-1], joined))
            out[i + 1] = Line(nxt.words[1:]) if len(nxt.words) > 1 else Line(())
        else:
            out[i] = Line((*line.words[:-1], Word(last.x0, last.x1, last.top, last.bottom, stem or "-", last.size, last.bold)))
    return [line for line in out if line.words]


def is_number(text: str) -> bool:
    return bool(_NUMBER.match(text.replace("\u2212", "-")))


def split_row(line: Line) -> tuple[list[Word], list[Word]]:
    """(label words, value words): the trailing figures of a line, set apart from its text by a gap.

    Currency signs and closing parentheses standing alone are dropped from the values.
    """
    words = list(line.words)
    cut = len(words)
    while cut > 0 and (is_number(words[cut - 1].text) or words[cut - 1].text in _CURRENCY):
        cut -= 1
    values: list[Word] = []
    for word in words[cut:]:
        if word.text in ("%", ")") and values:
            # "35.4 %": the sign belongs to the figure and ends its column (figures align on it).
            last = values[-1]
            values[-1] = Word(last.x0, word.x1, last.top, last.bottom, last.text + word.text, last.size, last.bold)
        elif word.text not in _CURRENCY:
            values.append(word)
    label = list(words[:cut])
    # A figure glued to the text before it ("of $512 and $650", "in 2023") belongs to the label.
    while values and label and values[0].x0 - label[-1].x1 < CELL_GAP:
        glued = values.pop(0)
        label.extend(w for w in words[cut:] if w.x0 <= glued.x0 and w not in label)
    if not values:
        return words, []
    if all(_YEAR.match(v.text) for v in values) and (not label or _PERIOD_WORDS.search(" ".join(w.text for w in label))):
        # "2023 2022 2023 2022", or "Three Months Ended September 30, 2023 2022": the year line of a
        # column header, not a row.
        return words, []
    return label, values


def layout_page(number: int, words: Sequence[Word], columns: bool = False,
                vocabulary: Vocabulary | None = None, gutter: object = _FIND) -> PageLayout:
    """A page's lines, with runs of aligned figure rows turned into tables (see the module docstring).
    columns: lines read column by column on a two-column page (`column_lines`, a broken word joined as the
    document's `vocabulary` writes it); gutter: as `column_lines` takes it (None where the document is not set in
    two columns)."""
    lines = column_lines(words, vocabulary, gutter) if columns else group_lines(words)
    page = PageLayout(number)
    i = 0
    while i < len(lines):
        run_end = _table_run(lines, i)
        if run_end - i >= 2 and sum(1 for ln in lines[i:run_end] if split_row(ln)[1]) >= 2:
            if _is_group_line(lines, i - 1, i) and page.blocks and page.blocks[-1] is lines[i - 1]:
                page.blocks.pop()  # "Net sales:" over the first row belongs to the table
                i -= 1
            header_start = _header_start(lines, i)
            # Header lines can only be taken back from the text just emitted, never from a table.
            while header_start < i and not all(
                isinstance(b, Line) and b is ln
                for b, ln in zip(page.blocks[len(page.blocks) - (i - header_start):], lines[header_start:i], strict=False)
            ):
                header_start += 1
            if header_start < i:
                del page.blocks[len(page.blocks) - (i - header_start):]
            block = make_table(lines[header_start:i], lines[i:run_end], _context_above(lines, header_start))
            page.blocks.append(Soup(tuple(lines[header_start:run_end])) if block is None else block)
            i = run_end
            continue
        page.blocks.append(lines[i])
        i += 1
    return page


def _table_run(lines: Sequence[Line], start: int) -> int:
    """End (exclusive) of the run of table lines starting at `start` (== start when none starts there).

    A run starts at a line with figures; it goes on through lines with figures and through short
    label lines ("Operating expenses:") whose text stays left of the figures, while the gap
    between lines stays under three line heights.
    """
    label, values = split_row(lines[start])
    if not values:
        return start
    value_left = min(v.x0 for v in values)
    end = start + 1
    last_label_line = None
    while end < len(lines):
        line, prev = lines[end], lines[end - 1]
        height = max(prev.bottom - prev.top, 4.0)
        if line.top - prev.bottom > 3 * height:
            break
        _lab, vals = split_row(line)
        if vals:
            value_left = min(value_left, min(v.x0 for v in vals))
            last_label_line = None
            end += 1
            continue
        if line.x1 < value_left - CELL_GAP and len(line.text) <= 80:
            if last_label_line is not None:
                break  # two label lines in a row: the table is over
            last_label_line = end
            end += 1
            continue
        break
    if last_label_line is not None and last_label_line == end - 1:
        end -= 1  # a trailing label line belongs to what follows
    return end


def _is_group_line(lines: Sequence[Line], index: int, first_row: int) -> bool:
    """Whether lines[index] is a short label ("Net sales:") heading the table row lines[first_row]."""
    if index < 0:
        return False
    line = lines[index]
    values = split_row(lines[first_row])[1]
    return (not split_row(line)[1] and line.text.endswith(":") and len(line.text) <= 80
            and line.x1 < min(v.x0 for v in values) - CELL_GAP)


def _header_start(lines: Sequence[Line], first_row: int) -> int:
    """Index of the first header line above a table's first row (== first_row when none).

    Header lines sit within HEADER_REACH points above the rows, are not themselves rows, and
    have their words over the figures' side of the page rather than running across it as prose.
    """
    row = first_row + 1 if not split_row(lines[first_row])[1] else first_row  # past a group line
    _label, values = split_row(lines[row])
    value_left = min(v.x0 for v in values) - 40
    limit = lines[first_row].top - HEADER_REACH
    start = first_row
    while start > 0 and first_row - start < HEADER_LINES:
        line = lines[start - 1]
        if line.bottom < limit or split_row(line)[1]:
            break
        right = sum(len(w.text) for w in line.words if w.x0 >= value_left)
        years_at_right = any(_YEAR.match(w.text) for w in line.words if w.x0 >= value_left)
        # A short label alone on the left ("Assets") may sit between the headers and the rows.
        left_label = line.x1 < value_left and len(line.text) <= 40 and start == first_row
        if right < 0.6 * sum(len(w.text) for w in line.words) and not years_at_right and not left_label:
            break
        start -= 1
    if start < first_row and lines[start].x1 < value_left and start == first_row - 1:
        start = first_row  # only a left label found, no header above it
    return start


def _context_above(lines: Sequence[Line], header_start: int) -> list[Line]:
    """The two lines above a table's header: where its caption and "(In millions…)" usually are."""
    return list(lines[max(0, header_start - 2) : header_start])


def _cells(line: Line, left: float) -> list[tuple[float, float, str]]:
    """Phrases of a header line right of `left`: words closer than CELL_GAP joined."""
    out: list[list[Word]] = []
    for word in line.words:
        if word.x1 < left:
            continue
        if out and word.x0 - out[-1][-1].x1 < CELL_GAP:
            out[-1].append(word)
        else:
            out.append([word])
    return [(ws[0].x0, ws[-1].x1, " ".join(w.text for w in ws)) for ws in out]


def make_table(header: Sequence[Line], body: Sequence[Line], above: Sequence[Line]) -> Table | None:
    """A `Table` from its header lines and body lines; None when the figures do not form columns."""
    rows_words = [split_row(line) for line in body]
    edges = sorted(v.x1 for _lab, vals in rows_words for v in vals)
    columns: list[list[float]] = []
    for edge in edges:
        if columns and edge - columns[-1][-1] <= COLUMN_SLACK:
            columns[-1].append(edge)
        else:
            columns.append([edge])
    columns = _merge_complementary(columns, rows_words)
    # A real column holds figures of several rows; a scatter of one-off positions is a soup.
    sparse = sum(1 for col in columns if len(col) < 2)
    if not columns or len(columns) > 12 or sparse > len(columns) // 2:
        return None
    spans = [(min(col) - 0.01, max(col) + 0.01) for col in columns]
    rights = [hi for _lo, hi in spans]
    lefts = [min(v.x0 for _lab, vals in rows_words for v in vals if lo <= v.x1 <= hi) for lo, hi in spans]
    rows: list[Row] = []
    group = wrapped = ""
    group_x0 = 0.0
    for label_words, vals in rows_words:
        label = " ".join(w.text for w in label_words)
        if not vals:
            if label.rstrip().endswith(":"):
                # "Operating expenses:" heads the rows indented below it.
                group, group_x0, wrapped = label.rstrip(), label_words[0].x0, ""
            else:
                wrapped = label  # a long label wrapped onto the row's line
            continue
        if group and label_words and label_words[0].x0 <= group_x0 + 1:
            group = ""  # back at the group line's indentation: "Gross margin" is no operating expense
        if wrapped:
            label, wrapped = f"{wrapped} {label}", ""
        values = [""] * len(rights)
        for v in vals:
            j = min(range(len(spans)), key=lambda k: 0 if spans[k][0] <= v.x1 <= spans[k][1] else abs(rights[k] - v.x1))
            if values[j]:
                return None  # two figures in one column of one row: the columns are not what we think
            values[j] = v.text
        full = f"{group} {label}".strip() if group and group.endswith(":") else label
        rows.append(Row(full, tuple(values)))
    headers = _column_headers(header, lefts, rights)
    context = " ".join(line.text for line in [*above, *header])
    units_match = _UNITS.search(context) or _UNITS.search(" ".join(line.text for line in body[:1]))
    units = f"in {units_match.group(1).lower()}" if units_match else ""
    caption = next(
        (ln.text for ln in reversed(above)
         # A caption is a title line, not the tail of the sentence introducing the table ("…millions):").
         if not ln.text.startswith("(") and not ln.text[:1].islower() and not ln.text.endswith((":", ".", ","))
         and not split_row(ln)[1] and len(ln.text) <= 120),
        "",
    )
    # Left-only lines among the header lines ("Assets" above "Current assets:") name the rows: keep them.
    left_labels = [ln.text for ln in header if ln.x1 < min(lefts) - 40]
    if left_labels:
        caption = " ".join([caption, *left_labels]).strip()
    return Table(tuple(headers), tuple(rows), units, caption)


def _merge_complementary(columns: list[list[float]], rows_words: Sequence[tuple[list[Word], list[Word]]]) -> list[list[float]]:
    """Adjacent columns no row fills both of, close together, are one ("35.4%" ends past "21,448")."""
    def rows_in(col: list[float]) -> set[int]:
        lo, hi = min(col) - 0.01, max(col) + 0.01
        return {i for i, (_lab, vals) in enumerate(rows_words) for v in vals if lo <= v.x1 <= hi}

    merged = [columns[0]] if columns else []
    for col in columns[1:]:
        if col[0] - merged[-1][-1] <= 3 * COLUMN_SLACK and not rows_in(col) & rows_in(merged[-1]):
            merged[-1] = merged[-1] + col
        else:
            merged.append(col)
    return merged


def _column_headers(header: Sequence[Line], lefts: Sequence[float], rights: Sequence[float]) -> list[str]:
    """Each column's header: the phrases of every header line above it, top to bottom."""
    parts: list[list[str]] = [[] for _ in rights]
    left_bound = min(lefts) - 40
    gaps = [b - a for a, b in zip(rights, rights[1:], strict=False)]
    reach = (min(gaps) / 2) if gaps else 40.0
    for line in header:
        cells = _cells(line, left_bound)
        # Period words left of the columns ("Three Months Ended September 30," before "2023 2022")
        # head every column.
        lead = " ".join(w.text for w in line.words if w.x1 < left_bound)
        if lead and cells and _PERIOD_WORDS.search(lead):
            for p in parts:
                p.append(lead)
        for j, (lo, hi) in enumerate(zip(lefts, rights, strict=True)):
            over = [c for c in cells if c[0] <= hi + 3 and c[1] >= lo - 3]
            if not over and cells:
                # A phrase spanning several columns ("Three Months Ended" over two) may overlap
                # none of them; on a line with fewer phrases than columns the nearest one heads it.
                centre = (lo + hi) / 2
                nearest = min(cells, key=lambda c: abs((c[0] + c[1]) / 2 - centre))
                if len(cells) < len(rights) or abs((nearest[0] + nearest[1]) / 2 - centre) <= reach:
                    over = [nearest]
            parts[j].extend(c[2] for c in over)
    return [" ".join(p).strip() for p in parts]
