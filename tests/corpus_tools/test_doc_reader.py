"""Word 97-2003 (.doc) files read: the piece table's text, headings from built-in styles, table rows, fields'
shown results, footnotes, properties; protected, older and foreign files refused with a reason."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest

from corpus_tools.doc_reader import read_doc, read_doc_bytes
from corpus_tools.loaders import load_documents
from corpus_tools.readers import UnreadableFileError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from cfb_writer import write_cfb  # noqa: E402

TEXT_AT = 0x400  # where the characters sit in WordDocument
# (text with its paragraph mark, style index, in a table, ends a row)
PARAGRAPHS = [
    ("Harbour Survey\r", 2, False, False),
    ("Findings\r", 1, False, False),
    ("The quay silted by 1.4 m\x02 since 2019. See \x13 HYPERLINK \"http://x.example\" \x14the site\x15.\r", 0,
     False, False),
    ("\x13 TOC \\o \"1-3\" \x14Findings\t1\rDepths\t2\r\x15\r", 0, False, False),
    ("Berth\x07", 0, True, False), ("2019\x07", 0, True, False), ("2021\x07", 0, True, False),
    ("\x07", 0, True, True),
    ("North\x07", 0, True, False), ("9.2\x07", 0, True, False), ("8.9\x07", 0, True, False), ("\x07", 0, True, True),
    ("After the table.\x01\r", 0, False, False),
]
NOTES = "\x02 Measured at low tide.\r"


def papx(istd: int, in_table: bool, ttp: bool) -> bytes:
    grpprl = struct.pack("<H", istd)
    if in_table:
        grpprl += struct.pack("<HB", 0x2416, 1)
    if ttp:
        grpprl += struct.pack("<HB", 0x2417, 1)
    if len(grpprl) % 2:  # odd: cb counts words, less one byte
        return bytes([(len(grpprl) + 1) // 2]) + grpprl
    return bytes([0, len(grpprl) // 2]) + grpprl


def make_doc(paragraphs=PARAGRAPHS, notes=NOTES, flags=0x0200, n_fib=193, with_papx=True) -> bytes:
    # paragraphs split so a field spanning two paragraphs is one paragraph per mark
    marks = []
    text = ""
    for piece, istd, in_table, ttp in paragraphs:
        start = 0
        for i, ch in enumerate(piece):
            if ch in "\r\x07":
                marks.append((len(text) + i + 1, istd, in_table, ttp))
                start = i + 1
        del start
        text += piece
    ccp_text, all_text = len(text), text + notes
    body = all_text.encode("cp1252")
    word = bytearray(TEXT_AT + len(body))
    word[TEXT_AT:] = body
    pn = (len(word) + 511) // 512
    word += bytes(pn * 512 - len(word))
    # one PAPX FKP page: the paragraphs' ends (byte offsets), each with its properties
    page = bytearray(512)
    crun = len(marks)
    fcs = [TEXT_AT] + [TEXT_AT + end for end, *_ in marks]
    struct.pack_into(f"<{crun + 1}I", page, 0, *fcs)
    at = 510
    for r, (_end, istd, in_table, ttp) in enumerate(marks):
        entry = papx(istd, in_table, ttp)
        at = (at - len(entry)) & ~1
        page[at: at + len(entry)] = entry
        page[4 * (crun + 1) + 13 * r] = at // 2
    page[511] = crun
    word += page if with_papx else bytes(512)
    table = bytearray()
    # STSH: an 18-byte Stshi (cstd 3), then STDs whose sti says Normal (0), heading 1 (1), Title (62)
    stsh = struct.pack("<HH", 18, 3) + bytes(16)
    for sti in (0, 1, 62):
        stsh += struct.pack("<H", 10) + struct.pack("<H", sti) + bytes(8)
    fc_stsh = len(table)
    table += stsh
    fc_bte = len(table)
    bte = struct.pack("<III", TEXT_AT, TEXT_AT + ccp_text, pn) if with_papx else b""
    table += bte
    fc_clx = len(table)
    plc = struct.pack("<II", 0, len(all_text)) + struct.pack("<HIH", 0, (TEXT_AT * 2) | 0x40000000, 0)
    clx = bytes([0x02]) + struct.pack("<I", len(plc)) + plc
    table += clx
    struct.pack_into("<HH", word, 0, 0xA5EC, n_fib)
    struct.pack_into("<H", word, 0x0A, flags)
    struct.pack_into("<6i", word, 0x4C, ccp_text, len(notes), 0, 0, 0, 0)
    struct.pack_into("<II", word, 0xA2, fc_stsh, len(stsh))
    struct.pack_into("<II", word, 0x102, fc_bte, len(bte))
    struct.pack_into("<II", word, 0x1A2, fc_clx, len(clx))
    return write_cfb({"WordDocument": bytes(word), "1Table": bytes(table), "\x05SummaryInformation": summary()})


def summary() -> bytes:
    """A property set with the title and the author (VT_LPSTR) in code page 1252."""
    props = [(1, struct.pack("<HHh", 0x02, 0, 1252) + b"\0\0"),
             (2, struct.pack("<HHI", 0x1E, 0, 14) + b"Harbour Survey"), (4, struct.pack("<HHI", 0x1E, 0, 9) + b"R. Ortega")]
    props = [(pid, value + bytes(-len(value) % 4)) for pid, value in props]
    offsets, at = [], 8 + 8 * len(props)
    for _pid, value in props:
        offsets.append(at)
        at += len(value)
    section = struct.pack("<II", at, len(props)) + b"".join(struct.pack("<II", pid, off) for (pid, _), off
                                                             in zip(props, offsets, strict=True))
    section += b"".join(value for _, value in props)
    return struct.pack("<HHI", 0xFFFE, 0, 0x20002) + bytes(16) + struct.pack("<I", 1) + bytes(16) + \
        struct.pack("<I", 48) + section


def test_a_word_97_document_reads_with_its_headings_table_fields_and_footnotes():
    doc = read_doc_bytes(make_doc())
    assert doc.title == "Harbour Survey"
    assert doc.metadata == {"author": "R. Ortega"}
    assert doc.text == ("Harbour Survey\n\nFindings\nThe quay silted by 1.4 m[1] since 2019. See the site.\n\n"
                        "(Berth) | 2019 | 2021\nNorth | 9.2 | 8.9\n\nAfter the table.\n\n[1] Measured at low tide.")
    assert [(p.section, p.kind) for p in doc.parts] == [
        ("", "text"), ("Findings", "text"), ("Findings", "table"), ("Findings", "text"), ("Footnotes", "text")]
    assert (doc.headings, doc.tables) == (1, 1)


def test_without_paragraph_properties_the_text_still_reads_as_paragraphs():
    doc = read_doc_bytes(make_doc(with_papx=False))
    assert "The quay silted by 1.4 m[1] since 2019. See the site." in doc.text
    assert "North" in doc.text and "HYPERLINK" not in doc.text and "Depths" not in doc.text


@pytest.mark.parametrize("data, reason", [
    (make_doc(flags=0x0200 | 0x0100), "password-protected Word file"),
    (make_doc(n_fib=0x65 - 1), "Word 6.0/95 file"),
    (write_cfb({"Workbook": b"\x09\x08" + bytes(600)}), "not a Word document (a compound file without a WordDocument"),
    (make_doc()[:1536], "broken compound file"),
])
def test_what_cannot_be_read_is_refused_saying_what_to_do(data, reason):
    with pytest.raises(UnreadableFileError) as caught:
        read_doc_bytes(data)
    assert str(caught.value).startswith(reason), str(caught.value)


def test_a_folder_loses_only_its_broken_doc_files(tmp_path):
    (tmp_path / "survey.doc").write_bytes(make_doc())
    (tmp_path / "locked.doc").write_bytes(make_doc(flags=0x0300))
    report = load_documents(tmp_path)
    assert [d.doc_id for d in report.documents] == ["survey.doc"]
    assert report.documents[0].title == "Harbour Survey"
    assert {s.path: s.reason for s in report.skipped}["locked.doc"].startswith("password-protected Word file")
    with pytest.raises(UnreadableFileError, match="cannot read file"):
        read_doc(tmp_path / "missing.doc")


def test_a_docx_an_rtf_and_plain_text_named_doc_are_read_as_what_they_are(tmp_path):
    from test_docx_reader import docx, p

    docx(tmp_path / "a.doc", p("Depths by berth", "Heading1") + p("North 9.2 m"),
         styles='<w:style w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>')
    (tmp_path / "b.doc").write_bytes(b"{\\rtf1\\ansi Tide tables for May.\\par}")
    (tmp_path / "c.doc").write_bytes("\ufeffHarbour notes\r\nThe quay silted.\r\n".encode("utf-8"))
    (tmp_path / "d.doc").write_bytes(b"\x00\x01\x02\xff" * 300)
    docs = {d.doc_id: d for d in load_documents(tmp_path).documents}
    assert docs["a.doc"].text == "Depths by berth\nNorth 9.2 m"
    assert docs["a.doc"].metadata["read_note"] == "a Word .docx named .doc: read as one"
    assert docs["b.doc"].text == "Tide tables for May."
    assert docs["c.doc"].text == "Harbour notes\nThe quay silted.\n"
    assert docs["c.doc"].metadata["read_note"] == "plain text named .doc: read as text"
    with pytest.raises(UnreadableFileError, match="not a Word 97-2003 file"):
        read_doc(tmp_path / "d.doc")
