"""RTF files read as documents: text in its code pages, headings, lists, tables, footnotes; what is no text left out."""

from __future__ import annotations

import pytest

from corpus_tools.loaders import load_documents
from corpus_tools.readers import UnreadableFileError
from corpus_tools.rtf_reader import read_rtf, read_rtf_bytes

# A report as Word saves it: styles named "heading N", a title in the info group, a running header, a picture,
# a hyperlink field, a footnote, a list, hidden text, a two-row table, a Cyrillic font and escaped Unicode.
WORD_RTF = rb"""{\rtf1\ansi\ansicpg1252\uc1\deff0{\fonttbl{\f0\froman\fcharset0\fprq2{\*\panose 02020603050405020304}Times New Roman;}
{\f1\fswiss\fcharset204 Arial Cyr;}{\f2\fnil\fcharset128 MS Mincho;}}{\colortbl;\red0\green0\blue0;}
{\stylesheet{\ql \snext0 Normal;}{\s1\ql\sbasedon0\snext0 heading 1;}{\s2\ql\sbasedon0\snext0 heading 2;}
{\s15\ql\snext0 Title;}{\*\cs10 \additive Default Paragraph Font;}}
{\*\listtable{\list\listtemplateid1{\listlevel{\leveltext\'02\'00.;}{\levelnumbers\'01;}}\listid7}}
{\info{\title Harbour Survey 2021}{\author R. Ortega}{\creatim\yr2021\mo3\dy4\hr10\min5}{\*\company Port Board}}
{\header\pard\plain Port Board - confidential - page 3\par}
\pard\plain\s15 Harbour Survey\par
\pard\plain\s1 Findings\par
\pard\plain The east quay silted by 1.4 m{\super\chftn}{\footnote\pard\plain{\super\chftn} Measured at low tide, 12 May.} since 2019.
{\v Reviewer: check this figure.} The dredging bill came to \u8364?2.1 million {\*\bkmkstart f1}{\*\bkmkend f1}and
{\pict\wmetafile8\picw100\pich100 0100090000035a00000000002e0000000000} a survey map.\par
{\listtext\pard\plain 1.\tab}\pard\plain\ls1\ilvl0 Dredge the east quay\par
{\listtext\pard\plain 2.\tab}\pard\plain\ls1\ilvl1 Move the buoys\par
\pard\plain See {\field{\*\fldinst HYPERLINK "https://example.org/survey"}{\fldrslt the survey site}}.\par
\pard\plain\s2 Depths by berth\par
\trowd\cellx2000\cellx4000\cellx6000\pard\intbl Berth\cell 2019\cell 2021\cell\row
\trowd\cellx2000\cellx4000\cellx6000\pard\intbl North\cell 9.2\cell 8.9\cell\row
\pard\intbl East\cell 8.1\cell 6.7\cell\row
\pard\plain\f1 \'cf\'f0\'e8\'e2\'e5\'f2 \f2 \'93\'fa\'96\'7b \f0 crew.{\*\unknowndest should never show}\par
\pard\plain Emoji \u-10179?\u-8704? end.\par
}"""


def test_a_word_report_reads_as_its_author_wrote_it():
    doc = read_rtf_bytes(WORD_RTF)
    assert doc.title == "Harbour Survey 2021"
    assert doc.metadata == {"author": "R. Ortega", "created": "2021-03-04"}
    text = doc.text
    # the footnote numbered where it is called and written last, under "Footnotes"
    assert "silted by 1.4 m[1] since 2019. The dredging" in text  # line ends in an RTF file are no text
    assert text.endswith("[1] Measured at low tide, 12 May.")
    assert "The dredging bill came to €2.1 million and a survey map." in text  # \u with its fallback skipped
    assert "- Dredge the east quay\n  - Move the buoys" in text
    assert "See the survey site." in text
    assert "(Berth) | 2019 | 2021\nNorth | 9.2 | 8.9\nEast | 8.1 | 6.7" in text
    assert "Привет 日本 crew." in text  # a Cyrillic font's and a Shift-JIS font's bytes
    assert "Emoji \U0001f600 end." in text  # a surrogate pair
    for absent in ("confidential", "Reviewer", "HYPERLINK", "example.org", "Times New Roman", "Arial", "Default",
                   "Normal", "wmetafile", "0100090000", "should never show", "Port Board", "\x00"):
        assert absent not in text, absent
    sections = [(p.section, p.kind) for p in doc.parts]
    assert sections == [
        ("", "text"), ("Findings", "text"), ("Findings > Depths by berth", "text"),
        ("Findings > Depths by berth", "table"), ("Findings > Depths by berth", "text"), ("Footnotes", "text"),
    ]
    assert (doc.headings, doc.tables) == (2, 1)


# TextEdit (Cocoa) writes its fonts in one group, ends paragraphs with a backslash and a line end, and an old
# one sets the Mac code page.
COCOA_RTF = (b"{\\rtf1\\mac\\ansicpg10000\\cocoartf824\\cocoasubrtf330\n"
             b"{\\fonttbl\\f0\\fswiss\\fcharset77 Helvetica;\\f1\\fswiss\\fcharset77 Helvetica-Bold;}\n"
             b"{\\colortbl;\\red255\\green255\\blue255;}\n\\pard\\tx720\\ql\\qnatural\n"
             b"\\f0\\fs24 \\cf0 The tide tables cover three ports:\\\n\\\n"
             b"\\f1\\b Brest:\n\\f0\\b0  two tides a day, the caf\\'8e opens at six.\\\n"
             b"\\f1\\b Cherbourg:\n\\f0\\b0  tables for 2024.}")


def test_a_table_of_contents_field_is_no_text_but_other_fields_show_their_result():
    data = (rb"{\rtf1\ansi {\field{\*\fldinst {TOC \\o \"1-3\" \\h}}{\fldrslt {Findings\tab 3\par Depths\tab 4\par}}}"
            rb"\pard Page {\field{\*\fldinst PAGE}{\fldrslt 7}} of the survey.\par}")
    assert read_rtf_bytes(data).text == "Page 7 of the survey."


def test_a_textedit_file_reads_paragraph_by_paragraph_in_the_mac_code_page():
    doc = read_rtf_bytes(COCOA_RTF)
    assert doc.text == ("The tide tables cover three ports:\nBrest: two tides a day, the café opens at six.\n"
                        "Cherbourg: tables for 2024.")
    assert "Helvetica" not in doc.text


def test_binary_picture_data_is_skipped_by_its_length_and_nothing_after_the_document_is_read():
    # the six bytes after \\bin6 would open and close groups if they were read as RTF
    data = b"{\\rtf1\\ansi{\\pict\\pngblip\\bin6 {}\\x\\y}Kept text.\\par}\x00\x00 trailing junk {\\rtf1 again}"
    assert read_rtf_bytes(data).text == "Kept text."


@pytest.mark.parametrize("data, reason", [
    (b"Meeting notes, saved as plain text\n", "not an RTF file (it does not begin with {\\rtf)"),
    (b"", "not an RTF file"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 64, "not an RTF file"),
])
def test_a_file_that_is_no_rtf_is_refused_saying_what_to_do(data, reason):
    with pytest.raises(UnreadableFileError) as caught:
        read_rtf_bytes(data)
    assert str(caught.value).startswith(reason)
    assert "rename it .txt" in str(caught.value)


def test_a_file_cut_short_is_read_up_to_the_cut_and_says_so():
    cut = WORD_RTF[: WORD_RTF.index(b"since 2019")]
    doc = read_rtf_bytes(cut)
    assert "The east quay silted by 1.4 m" in doc.text
    assert "open group(s)" in doc.metadata["read_note"]
    assert "read_note" not in read_rtf_bytes(WORD_RTF).metadata


def test_a_folder_loses_only_its_broken_rtf_files(tmp_path):
    (tmp_path / "survey.rtf").write_bytes(WORD_RTF)
    (tmp_path / "notes.rtf").write_bytes(COCOA_RTF)
    (tmp_path / "plain.rtf").write_text("just words\n")
    (tmp_path / "blank.rtf").write_bytes(b"{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\\pard\\par}")
    report = load_documents(tmp_path)
    docs = {d.doc_id: d for d in report.documents}
    assert sorted(docs) == ["notes.rtf", "survey.rtf"]
    assert docs["survey.rtf"].title == "Harbour Survey 2021"
    assert {p.section for p in docs["survey.rtf"].parts} >= {"Findings", "Findings > Depths by berth"}
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["blank.rtf"] == "empty file"
    assert reasons["plain.rtf"].startswith("not an RTF file")


def test_read_rtf_reads_a_path(tmp_path):
    path = tmp_path / "a.rtf"
    path.write_bytes(COCOA_RTF)
    assert read_rtf(path).text.startswith("The tide tables")
    with pytest.raises(UnreadableFileError, match="cannot read file"):
        read_rtf(tmp_path / "missing.rtf")
