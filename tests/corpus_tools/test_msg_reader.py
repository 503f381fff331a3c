"""Outlook .msg files read as the .eml of the same mail: people, date, body, quoted text, attachments."""

from __future__ import annotations

import datetime as dt
import struct
import sys
from pathlib import Path

import pytest

from corpus_tools.cfb import CompoundFile
from corpus_tools.loaders import load_documents
from corpus_tools.mail_reader import QUOTED_SECTION
from corpus_tools.msg_reader import decompress_rtf, read_msg_bytes
from corpus_tools.readers import UnreadableFileError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from cfb_writer import write_cfb  # noqa: E402


def utf16(text: str) -> bytes:
    return text.encode("utf-16-le")


def props(header: int, entries: dict[int, bytes]) -> bytes:
    """A __properties_version1.0 stream: `header` bytes, then 16-byte entries (tag, flags, 8 value bytes)."""
    return b"\0" * header + b"".join(struct.pack("<II", tag, 6) + value.ljust(8, b"\0") for tag, value in entries.items())


def filetime(when: dt.datetime) -> bytes:
    return struct.pack("<Q", int((when - dt.datetime(1601, 1, 1, tzinfo=dt.timezone.utc)).total_seconds() * 10**7))


def recipient(i: int, name: str, address: str, kind: int) -> dict[str, bytes]:
    at = f"__recip_version1.0_#{i:08X}/"
    return {at + "__substg1.0_3001001F": utf16(name), at + "__substg1.0_39FE001F": utf16(address),
            at + "__properties_version1.0": props(8, {0x0C150003: struct.pack("<I", kind)})}


def message(**extra: bytes) -> dict[str, bytes]:
    streams = {
        "__substg1.0_0037001F": utf16("Quay dredging bill"),
        "__substg1.0_0C1A001F": utf16("Rosa Ortega"),
        "__substg1.0_0C1F001F": utf16("/O=PORT/OU=EXCHANGE/CN=RECIPIENTS/CN=ROSA"),  # an Exchange address, not SMTP
        "__substg1.0_5D01001F": utf16("rosa@port.example"),
        "__substg1.0_1035001F": utf16("<bill-7@port.example>"),
        "__substg1.0_1000001F": utf16("Hi Tom,\r\nthe bill came to €2.1 million.\r\n\r\n"
                                      "On 2 April 2024 Tom Reed wrote:\r\n> How much was the dredging?"),
        "__properties_version1.0": props(32, {0x00390040: filetime(dt.datetime(2024, 4, 3, 9, 30,
                                                                               tzinfo=dt.timezone.utc))}),
        "__attach_version1.0_#00000000/__substg1.0_3707001F": utf16("invoice-2024-04.pdf"),
        "__attach_version1.0_#00000000/__substg1.0_37010102": b"%PDF-1.4 not read",
        **recipient(0, "Tom Reed", "tom@port.example", 1),
        **recipient(1, "Ana Lima", "ana@port.example", 2),
        **recipient(2, "Auditor", "audit@port.example", 3),
    }
    streams.update(extra)
    return {k: v for k, v in streams.items() if v is not None}


def test_an_outlook_message_reads_as_its_eml_would():
    mail = read_msg_bytes(write_cfb(message()))
    assert mail.title == "Quay dredging bill (3 April 2024)"
    own = mail.text[: mail.parts[0].end]
    assert own == ("From: Rosa Ortega <rosa@port.example>\nTo: Tom Reed <tom@port.example>\n"
                   "Cc: Ana Lima <ana@port.example>\nAttachments: invoice-2024-04.pdf\n\n"
                   "Hi Tom,\nthe bill came to €2.1 million.")
    quoted = mail.parts[1]
    assert quoted.section == QUOTED_SECTION
    assert "> How much was the dredging?" in mail.text[quoted.start:quoted.end]
    assert mail.metadata["date"] == "2024-04-03T09:30:00+00:00"
    assert mail.metadata["message_id"] == "<bill-7@port.example>"
    assert mail.metadata["attachments"] == "invoice-2024-04.pdf"
    assert "Auditor" not in mail.text and "audit@" not in mail.text  # Bcc is not shown, as on a received message
    assert "EXCHANGE" not in mail.text


def lzfu(rest: bytes) -> bytes:
    """Compressed RTF ([MS-OXRTFCP]) by hand: "{\\rtf1" copied from the prebuffer, `rest` as literals, then the end."""
    tokens = [("ref", 0, 6)] + [("lit", b) for b in rest] + [("ref", (207 + 6 + len(rest)) % 4096, 2)]
    out = bytearray()
    for i in range(0, len(tokens), 8):
        control, data = 0, bytearray()
        for bit, token in enumerate(tokens[i:i + 8]):
            if token[0] == "ref":
                control |= 1 << bit
                data += bytes([token[1] >> 4, ((token[1] & 0x0F) << 4) | (token[2] - 2)])
            else:
                data.append(token[1])
        out += bytes([control]) + data
    return struct.pack("<IIII", len(out) + 12, 6 + len(rest), 0x75465A4C, 0) + out


def test_a_message_whose_only_body_is_compressed_rtf():
    rtf = rb"\ansi\deff0 {\fonttbl{\f0 Arial;}}\pard Dredging is booked for May.\par Regards, Rosa\par}"
    assert decompress_rtf(lzfu(rtf)) == b"{\\rtf1" + rtf
    mail = read_msg_bytes(write_cfb(message(**{"__substg1.0_1000001F": None, "__substg1.0_10090102": lzfu(rtf)})))
    assert mail.text.endswith("Dredging is booked for May.\nRegards, Rosa")


def test_missing_properties_come_from_the_internet_headers():
    headers = ("Received: from mx\r\nFrom: Rosa Ortega <rosa@port.example>\r\nDate: Wed, 3 Apr 2024 09:30:00 +0000\r\n"
               "Message-ID: <bill-7@port.example>\r\n\r\n")
    streams = message(**{"__substg1.0_5D01001F": None, "__properties_version1.0": props(32, {}),
                         "__substg1.0_007D001F": utf16(headers)})
    mail = read_msg_bytes(write_cfb(streams))
    assert mail.title == "Quay dredging bill (3 April 2024)"
    assert mail.text.startswith("From: Rosa Ortega <rosa@port.example>\n")


def test_an_eml_saved_as_msg_is_read_as_the_eml_it_is():
    mail = read_msg_bytes(b"From: a@x.example\r\nSubject: Tide tables\r\nDate: Wed, 3 Apr 2024 09:30:00 +0000\r\n\r\n"
                          b"Tables for May.\r\n")
    assert mail.title == "Tide tables (3 April 2024)"


@pytest.mark.parametrize("data, reason", [
    (write_cfb({"WordDocument": b"\xec\xa5" + b"\0" * 600, "1Table": b"\0" * 100}),
     "not an Outlook message (a compound file without message properties"),
    (write_cfb(message())[:1600], "broken compound file"),
    (b"\xd0\xcf\x11\xe0", "not an Outlook message (no compound file and no mail headers)"),
    (b"", "not an Outlook message"),
])
def test_what_is_no_outlook_message_is_refused_with_a_reason(data, reason):
    with pytest.raises(UnreadableFileError) as caught:
        read_msg_bytes(data)
    assert str(caught.value).startswith(reason), str(caught.value)


def test_a_compound_file_whose_chains_loop_is_refused_not_hung():
    data = bytearray(write_cfb(message()))
    fat_sector = 512  # the first FAT sector follows the header: point sector 1 back at itself
    struct.pack_into("<I", data, fat_sector + 4, 1)
    with pytest.raises(UnreadableFileError, match="broken compound file"):
        CompoundFile(bytes(data))


def test_a_folder_loses_only_its_broken_msg_files(tmp_path):
    (tmp_path / "bill.msg").write_bytes(write_cfb(message()))
    (tmp_path / "memo.msg").write_bytes(write_cfb({"WordDocument": b"\0" * 700}))
    report = load_documents(tmp_path)
    assert [d.doc_id for d in report.documents] == ["bill.msg"]
    assert report.documents[0].metadata["from"] == "Rosa Ortega <rosa@port.example>"
    assert {s.path: s.reason for s in report.skipped}["memo.msg"].startswith("not an Outlook message")
