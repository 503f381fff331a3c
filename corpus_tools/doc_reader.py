"""Word 97-2003 files (.doc): the text of the document, its tables as rows, its footnotes, its properties.

A .doc is a compound file (`corpus_tools.cfb`) whose "WordDocument" stream starts with the File
Information Block ([MS-DOC] 2.5) and holds the characters; the "0Table" or "1Table" stream holds the
piece table (the Clx) that says which runs of bytes make the text, in order, each run 8-bit (windows-1252)
or UTF-16. Read here with the standard library, as antiword or Word itself does:

- the text is the pieces in order; its first `ccpText` characters are the document, then come the
  footnotes (`ccpFtn`), headers and footers (left out: page furniture), comments (left out), endnotes
  (kept, with the footnotes, under "Footnotes");
- Word's control characters: a paragraph ends at "\\r", "\\x0b" is a line break, "\\x0c" a page or section
  break; a field ("\\x13" instruction "\\x14" result "\\x15") keeps its shown result, so a hyperlink shows its
  text and a page number its number; "\\x02" is a footnote's mark ("[n]"); pictures ("\\x01", "\\x08") are no
  text;
- a table's cells end with "\\x07" and each row with one more, so rows are told apart without reading
  paragraph properties, and written as rows under their header row (`blocks.BlockWriter`);
- title, author and dates come from the "\\x05SummaryInformation" property set.

Headings are not told from body text (that needs the style sheet and paragraph properties): a .doc reads
as paragraphs, which is what a search needs from it; save it as .docx for sections.

Refused with a reason (`UnreadableFileError`): a password-protected file (encrypted: the text is
ciphertext), Word 6/95 files (another format), a compound file without a Word document (an Excel or
PowerPoint 97-2003 file renamed), and a broken compound file.
"""

from __future__ import annotations

import datetime as dt
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus_tools.blocks import BlockWriter, WordDocument
from corpus_tools.cfb import SIGNATURE, CompoundFile
from corpus_tools.readers import UnreadableFileError, is_meaningful_title, read_limited

MAX_DOC_BYTES = 256 * 1024 * 1024
CONVERT_HELP = "open it in Word or LibreOffice and save it as .docx or PDF, then index that file"
_DROP = str.maketrans({"\x01": None, "\x08": None, "\x05": None, "\x1f": None, "\x1e": "-", "\xa0": " "})


def read_doc(path: Path) -> WordDocument:
    """A file named .doc, read as what it is: a Word 97-2003 document (see the module docstring), or — as real
    folders hold them — a .docx, an RTF file or plain text under that name (said in `read_note`)."""
    data = read_limited(path, MAX_DOC_BYTES, f"; {CONVERT_HELP}")
    if data.startswith(SIGNATURE):
        return read_doc_bytes(data)
    if data.startswith(b"PK\x03\x04"):
        from corpus_tools.docx_reader import read_docx

        other = read_docx(path)
        note = "a Word .docx named .doc: read as one"
    elif data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{\\rtf"):
        from corpus_tools.rtf_reader import read_rtf_bytes

        other = read_rtf_bytes(data)
        note = "an RTF file named .doc: read as one"
    else:
        from corpus_tools.readers import decode_text

        try:
            text, _encoding = decode_text(data)
        except UnreadableFileError as exc:
            raise UnreadableFileError(f"not a Word 97-2003 file (no compound file, and {exc}); {CONVERT_HELP}") from None
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        return WordDocument(None, text, (), {"read_note": "plain text named .doc: read as text"})
    return WordDocument(other.title, other.text, other.parts, {**other.metadata, "read_note": note}, other.tables,
                       other.headings)


def read_doc_bytes(data: bytes) -> WordDocument:
    if not data.startswith(SIGNATURE):
        raise UnreadableFileError(f"not a Word 97-2003 file (no compound file: a .docx or a text file named .doc?); "
                                  f"{CONVERT_HELP}")
    cfb = CompoundFile(data)
    if not cfb.exists("WordDocument"):
        raise UnreadableFileError(f"not a Word document (a compound file without a WordDocument stream: an Excel or "
                                  f"PowerPoint file named .doc?); {CONVERT_HELP}")
    word = cfb.read("WordDocument")
    if len(word) < 0x1AA or struct.unpack_from("<H", word, 0)[0] != 0xA5EC:
        raise UnreadableFileError(f"broken Word document (its File Information Block is not Word's); {CONVERT_HELP}")
    n_fib, flags = struct.unpack_from("<H", word, 2)[0], struct.unpack_from("<H", word, 0x0A)[0]
    if flags & 0x0100:
        raise UnreadableFileError("password-protected Word file; remove the password in Word, File > Info > Protect "
                                  "Document, save, and index it again")
    if n_fib < 101:
        raise UnreadableFileError(f"Word 6.0/95 file (an older format than Word 97); {CONVERT_HELP}")
    table_name = "1Table" if flags & 0x0200 else "0Table"
    if not cfb.exists(table_name):
        raise UnreadableFileError(f"broken Word document (no {table_name} stream); {CONVERT_HELP}")
    table = cfb.read(table_name)
    # FibRgLw97 (at 0x40): ccpText, ccpFtn, ccpHdd, ccpMcr, ccpAtn, ccpEdn from its 4th field on
    counts = [max(c, 0) for c in struct.unpack_from("<6i", word, 0x4C)]
    fc_clx, lcb_clx = struct.unpack_from("<II", word, 0x1A2)  # FibRgFcLcb97's 34th pair
    pieces = _piece_table(table, fc_clx, lcb_clx)
    text = _characters(word, pieces)
    ccp_text = min(counts[0], len(text))
    at = sum(counts[:5])
    notes = text[counts[0]: counts[0] + counts[1]] + text[at: at + counts[5]]
    try:
        paragraphs = _paragraphs(word, table, pieces, _style_levels(word, table))
    except struct.error:  # unreadable paragraph properties: the text still reads, as paragraphs
        paragraphs = []
    blocks = BlockWriter()
    _write(blocks, text, paragraphs, ccp_text, _shown_notes(notes))
    meta = _summary(cfb)
    title = meta.pop("title", None)
    return WordDocument.written(blocks, title if title and is_meaningful_title(title) else None, meta)


@dataclass(frozen=True)
class _Piece:
    cp: int  # first character
    cp_end: int
    fc: int  # byte offset of its first character in WordDocument
    width: int  # bytes a character: 1 (windows-1252) or 2 (UTF-16)


def _piece_table(table: bytes, fc_clx: int, lcb_clx: int) -> list[_Piece]:
    """[MS-DOC] 2.9.38 Clx: property modifiers (skipped), then the PlcPcd: the CPs and a PCD per piece."""
    clx = table[fc_clx: fc_clx + lcb_clx]
    pos = 0
    while pos + 3 <= len(clx) and clx[pos] == 0x01:  # Prc
        pos += 3 + max(struct.unpack_from("<h", clx, pos + 1)[0], 0)
    if pos + 5 > len(clx) or clx[pos] != 0x02:
        raise UnreadableFileError(f"broken Word document (no piece table); {CONVERT_HELP}")
    lcb = struct.unpack_from("<I", clx, pos + 1)[0]
    plc = clx[pos + 5: pos + 5 + lcb]
    n = (len(plc) - 4) // 12
    if n <= 0:
        return []
    cps = struct.unpack_from(f"<{n + 1}I", plc, 0)
    pieces = []
    for i in range(n):
        _flags, fc_value, _prm = struct.unpack_from("<HIH", plc, 4 * (n + 1) + 8 * i)
        compressed = bool(fc_value & 0x40000000)
        fc = (fc_value & 0x3FFFFFFF) // 2 if compressed else fc_value & 0x3FFFFFFF
        pieces.append(_Piece(cps[i], max(cps[i + 1], cps[i]), fc, 1 if compressed else 2))
    return pieces


def _characters(word: bytes, pieces: list[_Piece]) -> str:
    out = []
    for piece in pieces:
        raw = word[piece.fc: piece.fc + (piece.cp_end - piece.cp) * piece.width]
        out.append(raw.decode("cp1252" if piece.width == 1 else "utf-16-le", "replace"))
    return "".join(out)


@dataclass(frozen=True)
class _Paragraph:
    end: int  # the CP just after its mark
    level: int | None  # 0 title, 1-9 heading, None body text
    in_table: bool
    row_end: bool  # the mark that ends a table row (a TTP paragraph)


def _paragraphs(word: bytes, table: bytes, pieces: list[_Piece], levels: dict[int, int]) -> list[_Paragraph]:
    """Each paragraph's properties that matter here, from the PAPX FKPs ([MS-DOC] 2.9.178 PlcBtePapx, 2.9.179
    PapxFkp): its style (a heading's level), and whether it is in a table or ends a row. [] when unreadable."""
    fc_bte, lcb_bte = struct.unpack_from("<II", word, 0x102)  # FibRgFcLcb97's 14th pair
    plc = table[fc_bte: fc_bte + lcb_bte]
    n = (len(plc) - 4) // 8
    out: dict[int, _Paragraph] = {}
    for k in range(max(n, 0)):
        pn = struct.unpack_from("<I", plc, 4 * (n + 1) + 4 * k)[0] & 0x3FFFFF
        page = word[pn * 512: pn * 512 + 512]
        if len(page) < 512:
            continue
        crun = page[511]
        if crun == 0 or 4 * (crun + 1) + 13 * crun > 511:
            continue
        fcs = struct.unpack_from(f"<{crun + 1}I", page, 0)
        for r in range(crun):
            b = page[4 * (crun + 1) + 13 * r] * 2
            istd, sprms = 0, b""
            if b:
                cb = page[b]
                start, size = (b + 1, 2 * cb - 1) if cb else (b + 2, 2 * page[b + 1])
                grpprl = page[start: start + size]
                if len(grpprl) >= 2:
                    istd, sprms = struct.unpack_from("<H", grpprl, 0)[0], grpprl[2:]
            props = _sprms(sprms)
            cp = _cp_of(fcs[r + 1], pieces)
            if cp is None:
                continue
            outline = props.get(0x2640)
            level = levels.get(istd)
            if level is None and outline is not None and outline < 9:
                level = outline + 1
            out[cp] = _Paragraph(cp, level, bool(props.get(0x2416)) or bool(props.get(0x2417)),
                                 bool(props.get(0x2417)))
    return [out[cp] for cp in sorted(out)]


def _sprms(grpprl: bytes) -> dict[int, int]:
    """The paragraph sprms read here (in table, TTP, outline level) with their one-byte operands."""
    found: dict[int, int] = {}
    pos = 0
    while pos + 2 <= len(grpprl):
        sprm = struct.unpack_from("<H", grpprl, pos)[0]
        pos += 2
        spra = sprm >> 13
        if spra == 6:  # variable: a size byte (sprmTDefTable and sprmPChgTabs size themselves otherwise)
            if sprm == 0xD608 and pos + 2 <= len(grpprl):
                size, pos = struct.unpack_from("<H", grpprl, pos)[0] - 1, pos + 2
            elif pos < len(grpprl):
                size, pos = grpprl[pos], pos + 1
            else:
                break
        else:
            size = (1, 1, 2, 4, 2, 2, 0, 3)[spra]
        if sprm in (0x2416, 0x2417, 0x2640) and pos < len(grpprl):
            found[sprm] = grpprl[pos]
        pos += max(size, 0)
    return found


def _cp_of(fc: int, pieces: list[_Piece]) -> int | None:
    """The CP of the character at byte offset `fc` (a paragraph's end), None when no piece holds it."""
    for piece in pieces:
        length = (piece.cp_end - piece.cp) * piece.width
        if piece.fc < fc <= piece.fc + length:
            return piece.cp + (fc - piece.fc) // piece.width
    return None


def _style_levels(word: bytes, table: bytes) -> dict[int, int]:
    """istd → heading level of the built-in heading styles (sti 1-9) and Title (sti 62), from the STSH."""
    fc, lcb = struct.unpack_from("<II", word, 0xA2)  # FibRgFcLcb97's 2nd pair: fcStshf
    stsh = table[fc: fc + lcb]
    levels: dict[int, int] = {}
    if len(stsh) < 2:
        return levels
    cb_stshi = struct.unpack_from("<H", stsh, 0)[0]
    if cb_stshi < 4 or 2 + cb_stshi > len(stsh):
        return levels
    cstd = struct.unpack_from("<H", stsh, 2)[0]
    pos = 2 + cb_stshi
    for istd in range(min(cstd, 4096)):
        if pos + 2 > len(stsh):
            break
        cb = struct.unpack_from("<H", stsh, pos)[0]
        if cb >= 2 and pos + 4 <= len(stsh):
            sti = struct.unpack_from("<H", stsh, pos + 2)[0] & 0x0FFF
            if 1 <= sti <= 9:
                levels[istd] = sti
            elif sti == 62:
                levels[istd] = 0
        pos += 2 + cb
    return levels


def _visible(text: str) -> list[bool]:
    """Which characters show: not a field's instruction, not its markers, not a table of contents' or an
    index's generated result (fields nest: a stack)."""
    keep = [True] * len(text)
    stack: list[list] = []  # [in instruction, instruction characters, hide result]
    for i, ch in enumerate(text):
        if ch == "\x13":
            stack.append([True, [], False])
            keep[i] = False
        elif ch == "\x14" and stack:
            frame = stack[-1]
            frame[0] = False
            frame[2] = "".join(frame[1]).split()[:1] in (["TOC"], ["INDEX"])
            keep[i] = False
        elif ch == "\x15" and stack:
            stack.pop()
            keep[i] = False
        elif stack:
            if stack[-1][0]:
                stack[-1][1].append(ch)
            if any(frame[0] or frame[2] for frame in stack):
                keep[i] = False
    return keep


def _write(blocks: BlockWriter, text: str, paragraphs: list[_Paragraph], ccp_text: int, notes: str) -> None:
    """The body's paragraphs and tables, then the notes."""
    keep = _visible(text)
    marks = 0

    def shown(start: int, end: int) -> str:
        nonlocal marks
        out = []
        for i in range(start, end):
            if not keep[i]:
                continue
            ch = text[i]
            if ch == "\x02":
                marks += 1
                out.append(f"[{marks}]")
            elif ch == "\x0b":
                out.append("\n")
            elif ch in "\r\x07\x0c":
                out.append(" ")
            else:
                out.append(ch)
        return "".join(out).translate(_DROP)

    if not paragraphs:  # no paragraph properties: paragraphs at their marks, cells as paragraphs
        ends = [i + 1 for i, ch in enumerate(text[:ccp_text]) if ch in "\r\x07\x0c"] + [ccp_text]
        paragraphs = [_Paragraph(e, None, False, False) for e in ends]
    grid: list[list[str]] = []
    row: list[str] = []
    cell: list[str] = []
    start = 0
    for para in paragraphs:
        end = min(para.end, ccp_text)
        if end <= start:
            continue
        content = shown(start, end).strip()
        if para.row_end:
            if cell:
                row.append(" ".join(" ".join(cell).split()))
                cell = []
            grid.append(row)
            row = []
        elif para.in_table:
            cell.append(content)
            if text[end - 1] == "\x07":  # the cell's last paragraph
                row.append(" ".join(" ".join(cell).split()))
                cell = []
        else:
            if grid or row:
                blocks.flush()
                blocks.table(grid + ([row] if row else []))
                grid, row = [], []
            blocks.paragraph(content, para.level)
        start = end
        if start >= ccp_text:
            break
    if grid or row:
        blocks.flush()
        blocks.table(grid + ([row] if row else []))
    if start < ccp_text:
        blocks.paragraph(shown(start, ccp_text))
    lines = [" ".join(n.split()) for n in notes.replace("\x02", "").split("\r")]
    blocks.footnotes([f"[{i}] {n}" for i, n in enumerate((n for n in lines if n), start=1)])


def _shown_notes(notes: str) -> str:
    keep = _visible(notes)
    return "".join(ch for ch, shown in zip(notes, keep, strict=True) if shown).translate(_DROP)


def _summary(cfb: CompoundFile) -> dict[str, Any]:
    """Title, author and dates of the "\\x05SummaryInformation" property set ([MS-OLEPS])."""
    name = "\x05SummaryInformation"
    if not cfb.exists(name):
        return {}
    raw = cfb.read(name)
    found: dict[str, Any] = {}
    try:
        offset = struct.unpack_from("<I", raw, 44)[0]  # the first section's offset, after its FMTID
        count = struct.unpack_from("<I", raw, offset + 4)[0]
        props = {}
        for k in range(min(count, 256)):
            pid, where = struct.unpack_from("<II", raw, offset + 8 + 8 * k)
            props[pid] = offset + where
        codepage = "cp1252"
        if 1 in props and struct.unpack_from("<H", raw, props[1])[0] == 0x02:
            page = struct.unpack_from("<h", raw, props[1] + 4)[0] & 0xFFFF
            codepage = {1200: "utf-16-le", 65001: "utf-8"}.get(page, f"cp{page}")
        for pid, key in ((2, "title"), (4, "author")):
            if pid in props and struct.unpack_from("<H", raw, props[pid])[0] == 0x1E:
                size = struct.unpack_from("<I", raw, props[pid] + 4)[0]
                value = raw[props[pid] + 8: props[pid] + 8 + min(size, 4096)]
                try:
                    text = value.decode(codepage, "replace")
                except LookupError:
                    text = value.decode("cp1252", "replace")
                text = " ".join(text.split("\0")[0].split())
                if text:
                    found[key] = text
        for pid, key in ((12, "created"), (13, "modified")):
            if pid in props and struct.unpack_from("<H", raw, props[pid])[0] == 0x40:
                ticks = struct.unpack_from("<Q", raw, props[pid] + 4)[0]
                if ticks:
                    when = dt.datetime(1601, 1, 1) + dt.timedelta(microseconds=ticks // 10)
                    found[key] = when.date().isoformat()
    except (struct.error, OverflowError):
        return found  # a broken property set loses the properties, never the text
    return found
