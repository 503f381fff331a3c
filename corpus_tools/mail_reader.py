"""Mail (.eml files, .mbox archives): one document per message, its headers as metadata and lines.

Parsed with the standard library's `email` package (`policy.default`: RFC 2047 headers decoded,
quoted-printable and base64 bodies undone). A message becomes a document whose

- title is its subject and the day it was sent, "Storm cover (3 April 2024)", as a mailbox export
  writes it (benchmarks/datagen_conversations.py `export-mail`), which datagen's mail readers read
  (`datagen/mail_facts.py`: the date of a "when was it sent" question is read back from the title);
- text opens with "From:", "To:", "Cc:" and "Attachments:" lines, then the body: the text/plain
  part, else the text/html part through the HTML reader (`html_layout`);
- metadata holds `subject`, `from`, `to`, `cc`, `date` (ISO 8601), `message_id`, `in_reply_to` and
  `attachments` (file names, "; "-joined: metadata values are scalars).

Charsets: a body is decoded by its declared charset when the bytes fit it; "iso-8859-1" and
"us-ascii" are read as windows-1252, their superset, as browsers do (mail clients write cp1252
quotes and euro signs under a latin-1 label); bytes that do not fit the label are tried as UTF-8,
then as what charset-normalizer detects (a note says so); garbled text is refused.

Quoted text: a reply's quote of earlier mail ("On … wrote:" and "> " lines, "-----Original
Message-----", "----- Forwarded by") is kept, but as a part of its own under the section
"Quoted text", so a chunk of it says it is quoted (`QUOTED_SECTION`); see `split_quoted`.

Refused with a reason: an .eml or a message of an .mbox with no mail headers (garbled), a body
that decodes to garbled text. A message with headers but no text body is indexed by its headers
(subject, people, attachment names) with a note. An .mbox is read one message at a time, and
one bad message never loses the others.
"""

from __future__ import annotations

import email
import email.header
import email.utils
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from corpus_tools.readers import GARBLED_FRACTION, UnreadableFileError, _short, decode_text, garbled_fraction
from corpus_tools.structure import PartsWriter
from corpus_tools.types import DocumentPart

QUOTED_SECTION = "Quoted text"
# A message larger than this (attachments included) is refused: an mbox is read one message at a time.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
_HEADERS = ("from", "to", "cc", "subject", "date", "message-id")
# Where a message's own text ends and an earlier message, quoted or forwarded, begins.
_QUOTE_START = re.compile(
    r"^(?:\s*-{2,}\s*Original Message\s*-{2,}"
    r"|\s*-{2,}\s*Forwarded (?:by|message)\b.*"
    r"|\s*Begin forwarded message:"
    r"|On .{4,200}\bwrote:\s*"
    r"|>.*)$",
    re.IGNORECASE,
)
# Labels read as windows-1252: its superset, which is what Windows mail clients write under them.
_LATIN1_LABELS = frozenset({"iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1", "us-ascii", "ascii", "cp819"})
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


@dataclass(frozen=True)
class MailMessage:
    """One message read: title, text (headers lines then body), parts, metadata, notes."""

    title: str
    text: str
    parts: tuple[DocumentPart, ...]
    metadata: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def message_id(self) -> str:
        return str(self.metadata.get("message_id", ""))


def read_eml(path: Path) -> MailMessage:
    """The message of an .eml file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None
    return parse_message(data)


def parse_message(data: bytes) -> MailMessage:
    """A message from its raw RFC 5322 bytes (see the module docstring); UnreadableFileError when it has none."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise UnreadableFileError(f"message of {len(data):,} bytes (over {MAX_MESSAGE_BYTES:,})")
    msg = email.message_from_bytes(data, policy=policy.default)
    present = [h for h in _HEADERS if msg.get(h) is not None] if _headers_readable(msg) else []
    if not present:
        raise UnreadableFileError("not a mail message (no From, To, Subject, Date or Message-ID header: garbled?)")
    subject = " ".join(_header(msg, "subject").split())
    sender, to, cc = (_with_names(_header(msg, h), _header(msg, f"x-{h}")) for h in ("from", "to", "cc"))
    when = _date(_header(msg, "date"))
    attachments = _attachments(msg)
    notes: list[str] = []
    body, note = _body(msg)
    if note:
        notes.append(note)
    metadata: dict[str, Any] = {"subject": subject}
    for key, value in (("from", sender), ("to", to), ("cc", cc)):
        if value:
            metadata[key] = " ".join(value.split())
    if when is not None:
        metadata["date"] = when.isoformat()
    for key, header in (("message_id", "message-id"), ("in_reply_to", "in-reply-to")):
        value = _header(msg, header).strip()
        if value:
            metadata[key] = value
    if attachments:
        metadata["attachments"] = "; ".join(attachments)
    lines = [f"{label}: {' '.join(value.split())}" for label, value in (("From", sender), ("To", to), ("Cc", cc))
             if value]
    if attachments:
        lines.append(f"Attachments: {', '.join(attachments)}")
    own, quoted = split_quoted(body)
    if not own and not quoted:
        notes.append("no text body: indexed by its headers" + (" and attachment names" if attachments else ""))
        if not subject and not attachments:
            raise UnreadableFileError("message has no text body and no subject")
    writer = PartsWriter()
    head = "\n".join(lines)
    writer.emit(head + ("\n\n" if head and own else "") + own, None, "", "text")
    writer.emit(quoted, None, QUOTED_SECTION, "text")
    title = subject or "(no subject)"
    if when is not None:
        title = f"{title} ({when.day} {_MONTHS[when.month - 1]} {when.year})"
    return MailMessage(title, writer.text, tuple(writer.parts), metadata, tuple(notes))


def split_quoted(body: str) -> tuple[str, str]:
    """(the message's own text, the earlier mail it quotes or forwards) — the quote starts at the first
    line that opens one ("On … wrote:", "> …", "-----Original Message-----", "----- Forwarded by …").
    A message that is all quote (a bare forward) keeps it all as its own text: it is what was sent."""
    lines = body.split("\n")
    for i, line in enumerate(lines):
        if _QUOTE_START.match(line):
            own, quoted = "\n".join(lines[:i]).strip(), "\n".join(lines[i:]).strip()
            return (own, quoted) if own else (quoted, "")
    return body.strip(), ""


def _headers_readable(msg: EmailMessage) -> bool:
    """False when the 'headers' are binary junk (a garbled message): any NUL or control byte in them."""
    try:
        raw = "".join(f"{k}{v}" for k, v in msg.raw_items())
    except Exception:  # noqa: BLE001 - a header the parser cannot even list
        return False
    return not any(ord(c) < 9 or 13 < ord(c) < 32 for c in raw)


def _header(msg: EmailMessage, name: str) -> str:
    """A header decoded (RFC 2047), "" when absent; a header the parser refuses is decoded leniently."""
    try:
        value = msg.get(name)
        text = str(value) if value is not None else ""
        return _eight_bit(msg, name) if "\ufffd" in text else text
    except Exception:  # noqa: BLE001 - policy.default raises on some malformed address or date headers
        raw = next((v for k, v in msg.raw_items() if k.lower() == name), "")
        try:
            return str(email.header.make_header(email.header.decode_header(raw)))
        except Exception:  # noqa: BLE001
            return " ".join(str(raw).split())


def _eight_bit(msg: EmailMessage, name: str) -> str:
    """A header sent as raw 8-bit bytes (no RFC 2047 encoding; the parser shows them as U+FFFD): its bytes
    read as UTF-8, else as windows-1252."""
    raw = next((v for k, v in msg.raw_items() if k.lower() == name), "")
    data = str(raw).encode("ascii", "surrogateescape") if isinstance(raw, str) else b""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252", "replace")
    return " ".join(text.split())


def _with_names(addresses: str, shown: str) -> str:
    """Addresses with the names an Exchange or Lotus export keeps in X-From / X-To / X-cc beside them
    ("Spraggins, Gary </O=ENRON/…>" → "Gary Spraggins <gary.spraggins@enron.com>"), paired one to one;
    the header as it is when it names people already, or when the two lists do not pair."""
    addrs = [a.strip() for a in " ".join(addresses.split()).split(",") if a.strip()]
    if not shown.strip() or not addrs or any("<" in a or " " in a for a in addrs):
        return addresses
    names = re.findall(r"[^,<>]+,[^,<>]+?\s*</O=[^>]*>|[^,]+", shown) if "</O=" in shown else shown.split(",")
    names = [display_name(n) for n in names if n.strip()]
    if len(names) != len(addrs):
        return addresses
    return ", ".join(f"{n} <{a}>" if n else a for n, a in zip(names, addrs, strict=True))


def display_name(raw: str) -> str:
    """"Dunton, Heather </O=ENRON/…>" → "Heather Dunton"; "" when only an address is given."""
    name = re.sub(r"<[^>]*>", "", raw).replace("@ENRON", "").strip().strip("'\"").strip()
    if "@" in name or not name:
        return ""
    if name.count(",") == 1:  # "Last, First M."
        last, first = (part.strip() for part in name.split(","))
        name = f"{first} {last}".strip()
    return " ".join(name.split())


def _date(value: str) -> Any:
    """The Date header as an aware datetime, None when absent or unparseable."""
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None


def _attachments(msg: EmailMessage) -> list[str]:
    names = []
    try:
        for part in msg.iter_attachments() if msg.is_multipart() else ():
            name = part.get_filename()
            if name:
                names.append(" ".join(str(name).split()))
            for inner in part.walk() if part.is_multipart() else ():
                inner_name = inner.get_filename() if inner is not part else None
                if inner_name and inner.get_content_disposition() == "attachment":
                    names.append(" ".join(str(inner_name).split()))
    except Exception:  # noqa: BLE001 - a broken MIME structure still has a body to read
        pass
    return names


def _body(msg: EmailMessage) -> tuple[str, str]:
    """(body text, a note about its decoding or ""): text/plain, else text/html as visible text."""
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except Exception:  # noqa: BLE001 - a broken MIME tree: read the top payload as text
        part = None
    if part is None:
        if msg.get_content_maintype() == "text" or not msg.is_multipart() and not msg.get_content_disposition():
            part = msg
        else:
            return "", ""
    data = part.get_payload(decode=True)
    if not isinstance(data, bytes) or not data.strip():
        return "", ""
    text, note = decode_body(data, part.get_content_charset())
    if part.get_content_subtype() == "html":
        from corpus_tools.html_layout import html_structure

        text = html_structure(text)[1].text
    text = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return re.sub(r"\n{3,}", "\n\n", text).strip(), note


def decode_body(data: bytes, charset: str | None) -> tuple[str, str]:
    """(text, note): the declared charset when the bytes fit it, else UTF-8, else a detected encoding."""
    label = (charset or "").strip().lower()
    declared = "cp1252" if label in _LATIN1_LABELS else label
    if declared == "cp1252" and not data.isascii():
        # A latin-1 or ASCII label never fails to decode, so it is tried after UTF-8: non-ASCII bytes
        # that are valid UTF-8 are UTF-8 under a wrong label (real cp1252 text almost never is).
        try:
            return data.decode("utf-8"), f"body declared as {label}, read as UTF-8"
        except UnicodeDecodeError:
            pass
    if declared:
        try:
            return data.decode(declared), ""
        except (UnicodeDecodeError, LookupError):
            pass
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return text, f"body declared as {label}, read as UTF-8" if label and label not in ("utf-8", "utf8") else ""
    if not label and (len(data) < 1000 or sum(b > 127 for b in data) < 0.1 * len(data)):
        # Undeclared 8-bit text, short or with a few accented letters: western mail's windows-1252 (a
        # detector guesses wildly on a few bytes; on a long text in another script it is trusted).
        text = data.decode("cp1252", "replace")
        return text, "body declares no charset, read as windows-1252"
    try:
        text, encoding = decode_text(data)
    except UnreadableFileError as exc:
        raise UnreadableFileError(f"body text undecodable (declared {label or 'no charset'}: {exc})") from None
    if garbled_fraction(text) > GARBLED_FRACTION:
        raise UnreadableFileError(f"body text garbled (declared {label or 'no charset'})")
    return text, f"body declared as {label or 'no charset'}, decoded as {encoding} (detected)"


def iter_mbox(path: Path) -> Iterator[tuple[int, int, bytes]]:
    """(message number from 1, line it starts on, its raw bytes) for each message of an mbox, one at a time.

    Messages start at "From " lines (after a blank line, or at the top); the mboxrd escape of body
    lines (">From ", ">>From ") is undone. A file that does not open with a "From " line is not an mbox.
    """
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file ({exc.strerror or exc})") from None
    with handle:
        first = handle.readline()
        if not first.startswith(b"From "):
            raise UnreadableFileError("not an mbox archive (its first line is not a 'From ' separator line)")
        number, start, line_no = 1, 1, 1
        lines: list[bytes] = []
        blank = False
        for raw in handle:
            line_no += 1
            if raw.startswith(b"From ") and blank:
                yield number, start, _unescape(lines)
                number, start, lines = number + 1, line_no, []
                blank = False
                continue
            lines.append(raw)
            blank = not raw.strip()
        if lines or number == 1:
            yield number, start, _unescape(lines)


def _unescape(lines: list[bytes]) -> bytes:
    return b"".join(line[1:] if re.match(rb">+From ", line) else line for line in lines)


def message_key(message: MailMessage, raw: bytes) -> str:
    """The message's key inside an archive: its Message-ID (without angle brackets), else a hash of its bytes.

    Stable across re-indexing; "#" (the chunk-id separator) and "/" are escaped so the key is one path step.
    """
    key = message.message_id.strip().strip("<>").strip()
    if not key:
        return "sha-" + hashlib.sha256(raw).hexdigest()[:16]
    return key.replace("%", "%25").replace("#", "%23").replace("/", "%2F")


def read_mbox(path: Path, label: str) -> Iterator[tuple[str, str, MailMessage | UnreadableFileError]]:
    """(doc id, where, message or the reason it was refused) for each message of an mbox.

    Doc ids are "<label>/<Message-ID>" (a content hash when it has none), made unique inside the
    archive by "~2", "~3"… on a repeated id; `where` names the message's number and line.
    """
    seen: dict[str, int] = {}
    for number, line, raw in iter_mbox(path):
        where = f"{label} message {number} (line {line})"
        try:
            message = parse_message(raw)
        except UnreadableFileError as exc:
            yield f"{label}/message-{number}", where, exc
            continue
        except Exception as exc:  # noqa: BLE001 - one bad message never loses the rest of the archive
            yield f"{label}/message-{number}", where, UnreadableFileError(
                f"reader failed ({type(exc).__name__}: {_short(exc)})")
            continue
        key = message_key(message, raw)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            key = f"{key}~{seen[key]}"
        yield f"{label}/{key}", where, message
