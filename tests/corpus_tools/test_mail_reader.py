"""Mail read as documents: one per message (an .mbox is many), headers as metadata and lines, charsets and
transfer encodings undone, quoted text marked; a garbled message or file skipped with a reason, nothing else lost."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from corpus_tools import load_documents
from corpus_tools.mail_reader import QUOTED_SECTION, decode_body, parse_message, read_eml, split_quoted
from corpus_tools.readers import UnreadableFileError

MAIL = Path(__file__).resolve().parents[1] / "fixtures" / "readers" / "mail"  # make_fixtures.py


def test_quoted_printable_utf8_reply_with_encoded_headers():
    message = read_eml(MAIL / "reply-qp.eml")
    assert message.title == "Re: Storm cover for Tromsø (3 April 2024)"
    assert message.metadata["from"] == "Bjørn Halvorsen <bjorn@halvorsen.example>"
    assert message.metadata["cc"] == "Priya Natarajan <priya@northwind.example>"
    assert message.metadata["date"] == "2024-04-03T10:15:00+02:00"
    assert message.metadata["message_id"] == "<20240403.1@northwind.example>"
    assert message.text.startswith("From: Bjørn Halvorsen <bjorn@halvorsen.example>\nTo: Dana Whitfield")
    # the soft line break is undone; the quote of Dana's mail is kept, as a part of its own
    assert "I will send the signed schedule on Friday." in message.text
    own, quoted = message.parts
    assert own.section == "" and quoted.section == QUOTED_SECTION
    assert message.text[quoted.start:quoted.end].startswith("On Tue, 2 Apr 2024 at 17:02, Dana Whitfield")
    assert "Tromsø depot?" in message.text[quoted.start:quoted.end]


def test_cp1252_under_a_latin1_label_base64_and_attachment_names():
    message = read_eml(MAIL / "invoice-latin1.eml")
    assert message.metadata["subject"] == "Facture n° 5521"
    assert "Invoice 5521 for the “storm cover”: €1,240 due on 30 April." in message.text
    assert "Café meeting notes attached." in message.text
    assert message.metadata["attachments"] == "invoice-5521.pdf"
    assert "Attachments: invoice-5521.pdf" in message.text.split("\n")


def test_html_body_with_a_wrong_declared_charset():
    message = read_eml(MAIL / "html-wrong-charset.eml")
    assert "The Tromsø depot reopens on 14 May" in message.text
    assert "color:red" not in message.text and "<p>" not in message.text
    assert message.notes == ("body declared as us-ascii, read as UTF-8",)


def test_no_body_is_indexed_by_its_headers_with_a_note():
    message = read_eml(MAIL / "no-body.eml")
    assert message.text == ("From: Scanner <scanner@northwind.example>\nTo: dana@northwind.example\n"
                            "Attachments: notes-0408.png")
    assert message.notes == ("no text body: indexed by its headers and attachment names",)


def test_decode_body_falls_back_in_order():
    assert decode_body("naïve".encode(), "utf-8") == ("naïve", "")
    assert decode_body("“quoted”".encode("cp1252"), "iso-8859-1") == ("“quoted”", "")
    text, note = decode_body("Grüße".encode(), "no-such-charset")
    assert (text, note) == ("Grüße", "body declared as no-such-charset, read as UTF-8")
    with pytest.raises(UnreadableFileError, match="body text"):
        decode_body(bytes(range(256)) * 8, "utf-8")


def test_split_quoted_keeps_a_bare_forward_as_the_message():
    assert split_quoted("Agreed.\n\n> Shall we?\n> Yes") == ("Agreed.", "> Shall we?\n> Yes")
    forward = "----- Forwarded by Jeff on 12/13/2000 -----\nThe offer stands."
    assert split_quoted(forward) == (forward, "")
    assert split_quoted("See below.\n-----Original Message-----\nFrom: X") == (
        "See below.", "-----Original Message-----\nFrom: X")


def test_exchange_names_from_x_headers():
    raw = (b"Message-ID: <1.JavaMail@thyme>\nDate: Thu, 14 Feb 2002 12:16:20 -0800 (PST)\n"
           b"From: gary.spraggins@enron.com\nTo: a.b@enron.com, c.d@enron.com\nSubject: FW: Weekly Report\n"
           b"X-From: Spraggins, Gary </O=ENRON/OU=NA/CN=RECIPIENTS/CN=GSPRAGG>\n"
           b"X-To: Bee, Ann </O=ENRON/CN=AB>, Dee, Carl </O=ENRON/CN=CD>\n\nNumbers attached.\n")
    message = parse_message(raw)
    assert message.metadata["from"] == "Gary Spraggins <gary.spraggins@enron.com>"
    assert message.metadata["to"] == "Ann Bee <a.b@enron.com>, Carl Dee <c.d@enron.com>"
    assert message.title == "FW: Weekly Report (14 February 2002)"


def test_mbox_one_document_per_message_and_a_garbled_one_skipped(tmp_path):
    shutil.copy(MAIL / "ops.mbox", tmp_path / "ops.mbox")
    report = load_documents(tmp_path)
    ids = [d.doc_id for d in report.documents]
    assert ids[:2] == ["ops.mbox/plan-1@northwind.example", "ops.mbox/plan-2@northwind.example"]
    assert ids[2].startswith("ops.mbox/sha-") and len(ids) == 3
    [skipped] = report.skipped
    assert skipped.path == "ops.mbox message 3 (line 27)"
    assert skipped.reason.startswith("not a mail message (no From, To, Subject, Date or Message-ID header")
    first = report.documents[0]
    assert first.metadata["source"] == "ops.mbox" and first.title == "Agenda for the quarterly review (1 April 2024)"
    assert "From the minutes of last time" in first.text  # the mboxrd ">From " escape undone
    # ids are stable across re-reading
    assert [d.doc_id for d in load_documents(tmp_path).documents] == ids


def test_repeated_message_ids_stay_unique_inside_an_mbox(tmp_path):
    message = b"Message-ID: <same@x>\nSubject: Twice\nFrom: a@x\n\nbody\n"
    (tmp_path / "dup.mbox").write_bytes(b"From a@x Mon Apr  1 09:00:00 2024\n" + message +
                                        b"\nFrom a@x Mon Apr  1 09:00:00 2024\n" + message)
    assert [d.doc_id for d in load_documents(tmp_path).documents] == ["dup.mbox/same@x", "dup.mbox/same@x~2"]


def test_broken_mail_files_lose_nothing_else(tmp_path):
    for name in ("reply-qp.eml", "no-body.eml"):
        shutil.copy(MAIL / name, tmp_path / name)
    (tmp_path / "junk.eml").write_bytes(b"\x00\x01\x02\xff binary junk\n")
    (tmp_path / "empty.eml").write_bytes(b"Subject: \n\n")
    (tmp_path / "notes.mbox").write_bytes(b"Dear diary,\nnot an archive\n")
    (tmp_path / "outlook.msg").write_bytes(b"\xd0\xcf\x11\xe0")
    report = load_documents(tmp_path)
    assert sorted(d.doc_id for d in report.documents) == ["no-body.eml", "reply-qp.eml"]
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["junk.eml"].startswith("not a mail message")
    assert reasons["empty.eml"] == "message has no text body and no subject"
    assert reasons["notes.mbox"].startswith("not an mbox archive")
    assert reasons["outlook.msg"].startswith("not an Outlook message (no compound file and no mail headers)")
    assert [n.note for n in report.notes] == ["no text body: indexed by its headers and attachment names"]


def test_sync_follows_an_archives_messages(tmp_path, config):
    from corpus_tools import Corpus

    folder = tmp_path / "mail"
    folder.mkdir()
    shutil.copy(MAIL / "reply-qp.eml", folder / "reply-qp.eml")
    archive = folder / "ops.mbox"
    shutil.copy(MAIL / "ops.mbox", archive)
    with Corpus.build(folder, tmp_path / "index", config=config, progress=False) as corpus:
        assert sorted(corpus.doc_ids())[:2] == ["ops.mbox/plan-1@northwind.example", "ops.mbox/plan-2@northwind.example"]
        assert len(corpus.doc_ids()) == 4
        unchanged = corpus.sync(folder)
        assert (unchanged.added, unchanged.updated, unchanged.deleted, unchanged.unchanged) == ([], [], [], 2)
        # the archive keeps its first message only, and gains one
        first = MAIL.joinpath("ops.mbox").read_bytes().split(b"\nFrom priya", 1)[0]
        later = (b"From ole@x Wed Apr  3 08:00:00 2024\nMessage-ID: <plan-9@northwind.example>\n"
                 b"Subject: Van keys\nFrom: Ole Berg <ole@northwind.example>\n\nKeys are at the desk.\n")
        archive.write_bytes(first + b"\n" + later)
        changed = corpus.sync(folder)
        assert changed.updated == ["ops.mbox"]
        assert changed.deleted[0] == "ops.mbox/plan-2@northwind.example" and len(changed.deleted) == 2
        assert changed.deleted[1].startswith("ops.mbox/sha-")
        assert sorted(corpus.doc_ids()) == ["ops.mbox/plan-1@northwind.example", "ops.mbox/plan-9@northwind.example",
                                            "reply-qp.eml"]
        archive.unlink()
        gone = corpus.sync(folder)
        assert sorted(gone.deleted) == ["ops.mbox/plan-1@northwind.example", "ops.mbox/plan-9@northwind.example"]
        assert corpus.doc_ids() == ["reply-qp.eml"]


def test_raw_eight_bit_headers_and_an_undeclared_body():
    message = parse_message(b"From: Jos\xe9 Ruiz <j@x>\nSubject: Caf\xc3\xa9 menu\n"
                            b"Date: Mon, 1 Apr 2024 10:00:00 +0000\n\nThe caf\xe9 opens at nine.\n")
    assert message.metadata["from"] == "José Ruiz <j@x>"  # latin-1 bytes
    assert message.metadata["subject"] == "Café menu"  # UTF-8 bytes
    assert message.text.endswith("The café opens at nine.")
    assert message.notes == ("body declares no charset, read as windows-1252",)
