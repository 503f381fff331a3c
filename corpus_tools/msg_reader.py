"""Outlook messages (.msg): read as the mail reader reads an .eml, from Outlook's own properties.

A .msg is a compound file ([MS-OXMSG], read by `corpus_tools.cfb`) holding one message as MAPI
properties: a string property is a stream named by its tag ("__substg1.0_0037001F" is the subject,
UTF-16), fixed-size ones (dates) sit in "__properties_version1.0", each recipient and attachment in a
storage of its own. Read here:

- subject (0x0037), sender (name 0x0C1A, SMTP address 0x5D01 / 0x0C1F / 0x0065 when it is one),
  recipients with their type (To / Cc; Bcc is not shown, as a received message does not show it),
  sent or delivered time (0x0039, 0x0E06), Internet message id and the id it replies to (0x1035, 0x1042);
  where a property is missing, the Internet headers the message arrived with (0x007D) fill it in;
- the body: plain text (0x1000), else HTML (0x1013), else the compressed RTF Outlook keeps
  (0x1009, [MS-OXRTFCP]: decompressed here, then read by `rtf_reader`);
- attachment file names (0x3707, 0x3704, 0x3001); an attached message's subject.

The message is then handed to `mail_reader.parse_message` as RFC 5322 bytes, so a .msg and the .eml of
the same mail make the same document (title "Subject (3 April 2024)", "From:/To:/Cc:" lines, quoted
text as its own part, the same metadata keys).

Refused with a reason (`UnreadableFileError`): a file that is no compound file (an .msg that is
really an .eml is read as one), a compound file that holds no message properties (an Office 97-2003
document renamed .msg), and a broken compound file.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import struct
from email import policy
from email.message import EmailMessage
from email.parser import HeaderParser
from pathlib import Path

from corpus_tools.cfb import SIGNATURE, CompoundFile
from corpus_tools.mail_reader import MAX_MESSAGE_BYTES, MailMessage, parse_message
from corpus_tools.readers import UnreadableFileError, read_limited

_RECIPIENT = "__recip_version1.0_#"
_ATTACHMENT = "__attach_version1.0_#"
_PROPERTIES = "__properties_version1.0"
_TO, _CC = 1, 2
# Internet code pages (and the two Python has no "cpN" name for) → the codec their text decodes with
_CODEPAGES = {65001: "utf-8", 20127: "cp1252", 28591: "cp1252", 50220: "cp932", 50221: "cp932", 50222: "cp932",
              51932: "euc_jp", 20932: "euc_jp", 52936: "gbk", 20936: "gbk", 51949: "euc_kr", 50225: "iso2022_kr",
              51950: "cp950", 28592: "iso8859_2", 28595: "iso8859_5", 20866: "koi8_r", 21866: "koi8_u"}
# [MS-OXRTFCP] 2.1.3.1.1: the dictionary every compressed RTF starts from
_RTF_PREBUFFER = (b"{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript "
                  b"\\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n"
                  b"\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx")


def read_msg(path: Path) -> MailMessage:
    """The message of an Outlook .msg file (see the module docstring)."""
    return read_msg_bytes(read_limited(path, MAX_MESSAGE_BYTES, ": a message this large is mostly attachments"))


def read_msg_bytes(data: bytes) -> MailMessage:
    if not data.startswith(SIGNATURE):
        if data[:4096].lower().find(b"\nfrom:") >= 0 or data[:5].lower() in (b"from:", b"recei", b"retur"):
            return parse_message(data)  # an Internet message saved under .msg: read as the .eml it is
        raise UnreadableFileError("not an Outlook message (no compound file and no mail headers); save it from "
                                  "Outlook as .msg or .eml again, or export the folder as .mbox")
    return parse_message(_as_rfc5322(_Message(CompoundFile(data), "")))


class _Message:
    """The MAPI properties of one message in a compound file (the top-level one, or an attached one)."""

    def __init__(self, cfb: CompoundFile, prefix: str) -> None:
        self.cfb, self.prefix = cfb, prefix
        names = [p[len(prefix):] for p in cfb.paths if p.startswith(prefix) and "/" not in p[len(prefix):]]
        if not any(n.startswith("__substg1.0_") for n in names) and not cfb.exists(prefix + _PROPERTIES):
            raise UnreadableFileError("not an Outlook message (a compound file without message properties: an "
                                      "Office 97-2003 document named .msg?)")
        # 8-bit strings are in the message's code page; the HTML body in the one it was sent in
        self.props = self.fixed()  # the message's own fixed-size properties, read once
        self.codepage = self._codepage((0x3FFD, 0x3FDE))
        self.html_codepage = self._codepage((0x3FDE, 0x3FFD))

    def string(self, prop: int, where: str = "") -> str:
        base = f"{self.prefix}{where}__substg1.0_{prop:04X}"
        for kind, decode in (("001F", lambda b: b.decode("utf-16-le", "replace")),
                             ("001E", lambda b: b.decode(self.codepage, "replace"))):
            if self.cfb.exists(base + kind):
                return decode(self.cfb.read(base + kind)).split("\0")[0].strip()
        return ""

    def binary(self, prop: int) -> bytes:
        path = f"{self.prefix}__substg1.0_{prop:04X}0102"
        return self.cfb.read(path) if self.cfb.exists(path) else b""

    def fixed(self, where: str = "", header: int | None = None) -> dict[int, tuple[int, bytes]]:
        """Fixed-size properties: property id → (type, 8 value bytes)."""
        path = f"{self.prefix}{where}{_PROPERTIES}"
        if not self.cfb.exists(path):
            return {}
        raw = self.cfb.read(path)
        # the top-level message's stream opens with 32 bytes, an attached message's with 24, the others' with 8
        skip = header if header is not None else (32 if not self.prefix else 24)
        out = {}
        for offset in range(skip, len(raw) - 15, 16):
            tag, _flags = struct.unpack_from("<II", raw, offset)
            out[tag >> 16] = (tag & 0xFFFF, raw[offset + 8: offset + 16])
        return out

    def has(self, prop: int) -> bool:
        return any(self.cfb.exists(f"{self.prefix}__substg1.0_{prop:04X}{kind}") for kind in ("001F", "001E", "0102"))

    def _codepage(self, order: tuple[int, ...]) -> str:
        """The first of `order`'s code page properties (PR_MESSAGE_CODEPAGE 0x3FFD, PR_INTERNET_CPID 0x3FDE) Python
        can decode, an Internet one mapped to the Windows code page its 8-bit text is kept in; else windows-1252."""
        props = self.props
        for prop in order:
            if prop in props and props[prop][0] == 0x0003:
                page = struct.unpack_from("<I", props[prop][1])[0]
                name = _CODEPAGES.get(page, f"cp{page}")
                try:
                    "".encode(name)
                    return name
                except LookupError:
                    continue
        return "cp1252"

    def time(self) -> dt.datetime | None:
        props = self.props
        for prop in (0x0039, 0x0E06):  # submitted, delivered
            if prop in props and props[prop][0] == 0x0040:
                ticks = struct.unpack_from("<Q", props[prop][1])[0]
                if ticks:
                    try:
                        return dt.datetime(1601, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(microseconds=ticks // 10)
                    except OverflowError:
                        continue
        return None

    def storages(self, kind: str) -> list[str]:
        return sorted(p[len(self.prefix):] + "/" for p in self.cfb.storages(self.prefix.rstrip("/"))
                      if p[len(self.prefix):].startswith(kind))


def _address(name: str, smtp: str) -> str:
    if smtp and "@" in smtp:
        return email.utils.formataddr((name, smtp)) if name and name != smtp else smtp
    return name


def _as_rfc5322(msg: _Message) -> bytes:
    """The message as RFC 5322 bytes, headers from its properties (Internet headers where they are missing)."""
    headers = msg.string(0x007D)  # the Internet headers the message arrived with, if it did
    internet = HeaderParser(policy=policy.default).parsestr(headers) if headers else None
    out = EmailMessage(policy=policy.default)
    subject = msg.string(0x0037)
    smtp = next((a for a in (msg.string(0x5D01), msg.string(0x0C1F), msg.string(0x0065)) if "@" in a), "")
    sender = _address(msg.string(0x0C1A) or msg.string(0x0042), smtp)
    if internet is not None and (not sender or "@" not in sender) and internet.get("from"):
        sender = str(internet["from"])
    to, cc = [], []
    for storage in msg.storages(_RECIPIENT):
        kind = msg.fixed(storage, header=8).get(0x0C15)
        kind_value = struct.unpack_from("<I", kind[1])[0] if kind and kind[0] == 0x0003 else _TO
        smtp = next((a for a in (msg.string(0x39FE, storage), msg.string(0x3003, storage)) if "@" in a), "")
        person = _address(msg.string(0x3001, storage), smtp)
        if person:
            (to if kind_value == _TO else cc if kind_value == _CC else []).append(person)
    if not to and msg.string(0x0E04):
        to = [msg.string(0x0E04)]  # the "To" line Outlook displays, when the recipient table is missing
    if not cc and msg.string(0x0E03):
        cc = [msg.string(0x0E03)]
    for name, value in (("Subject", subject), ("From", sender), ("To", ", ".join(to)), ("Cc", ", ".join(cc))):
        if value:
            out[name] = _one_line(value)
    when = msg.time()
    if when is not None:
        out["Date"] = email.utils.format_datetime(when)
    elif internet is not None and internet.get("date"):
        out["Date"] = str(internet["date"])
    for name, prop in (("Message-ID", 0x1035), ("In-Reply-To", 0x1042)):
        value = msg.string(prop) or (str(internet[name]) if internet is not None and internet.get(name) else "")
        if value:
            out[name] = _one_line(value)
    # the plain body when the message has one (even blank: then it has no text, and its RTF only layout); else HTML;
    # else the compressed RTF
    text, html = msg.string(0x1000), ""
    if not msg.has(0x1000):
        raw = msg.binary(0x1013)
        html = raw.decode("utf-8-sig" if raw.startswith(b"\xef\xbb\xbf") else msg.html_codepage, "replace") if raw \
            else msg.string(0x1013)
        if not html:
            text = _rtf_body(msg.binary(0x1009))
    if html and not text:
        out.set_content(html, subtype="html")
    else:
        out.set_content(text or "")
    for storage in msg.storages(_ATTACHMENT):
        name = msg.string(0x3707, storage) or msg.string(0x3704, storage) or msg.string(0x3001, storage)
        embedded = f"{msg.prefix}{storage}__substg1.0_3701000D"
        if not name and msg.cfb.exists(embedded):
            try:
                name = (_Message(msg.cfb, embedded + "/").string(0x0037) or "message") + ".msg"
            except UnreadableFileError:
                name = "message.msg"
        if name:
            out.add_attachment(b"", maintype="application", subtype="octet-stream", filename=_one_line(name))
    return out.as_bytes()


def _one_line(value: str) -> str:
    return " ".join(value.replace("\0", " ").split())


def _rtf_body(compressed: bytes) -> str:
    """The text of Outlook's compressed RTF body ([MS-OXRTFCP]), read by the RTF reader; "" when there is none."""
    if len(compressed) < 16:
        return ""
    from corpus_tools.rtf_reader import read_rtf_bytes

    try:
        return read_rtf_bytes(decompress_rtf(compressed)).text
    except UnreadableFileError:
        return ""


def decompress_rtf(data: bytes) -> bytes:
    """[MS-OXRTFCP] 2.2.2: "MELA" is stored as is, "LZFu" is a 4,096-byte sliding dictionary primed with the RTF
    prebuffer, read as control bytes whose bits (low first) say literal byte (0) or a 12-bit offset and 4-bit
    length reference (1); a reference to the write position itself ends the stream."""
    comp_size, raw_size, kind = struct.unpack_from("<III", data, 0)
    body = data[16: 4 + comp_size]
    if kind == 0x414C454D:  # "MELA": not compressed
        return body[:raw_size]
    if kind != 0x75465A4C:  # "LZFu"
        raise UnreadableFileError("unknown compressed RTF")
    window = bytearray(4096)
    window[: len(_RTF_PREBUFFER)] = _RTF_PREBUFFER
    write = len(_RTF_PREBUFFER)
    out = bytearray()
    pos = 0
    while pos < len(body) and len(out) < raw_size:
        control = body[pos]
        pos += 1
        for bit in range(8):
            if pos >= len(body):
                break
            if control & (1 << bit):
                if pos + 1 >= len(body):
                    pos = len(body)
                    break
                offset = (body[pos] << 4) | (body[pos + 1] >> 4)
                length = (body[pos + 1] & 0x0F) + 2
                pos += 2
                if offset == write:
                    return bytes(out)
                for i in range(length):
                    byte = window[(offset + i) % 4096]
                    out.append(byte)
                    window[write] = byte
                    write = (write + 1) % 4096
            else:
                byte = body[pos]
                pos += 1
                out.append(byte)
                window[write] = byte
                write = (write + 1) % 4096
    return bytes(out[:raw_size])
