"""How well .rtf, .odt, .doc and Outlook .msg files are read: the reader's words against an independent extraction.

    python benchmarks/office_reading.py FOLDER [--show N]

For every .rtf, .odt, .doc and .msg under FOLDER: what `context1 index` makes of it (refused with its reason, or read:
headings, tables, characters), and — when the independent extractor is importable (`striprtf` for RTF,
`odfpy` for OpenDocument, `extract_msg` for Outlook (subject, sender, recipients, body), the `antiword` program for Word 97-2003;
install them in a scratch environment: they are no dependency of the project) —
the share of the extractor's words the reader keeps (recall) and the share of the reader's words the
extractor also has (precision). Words: letters, 3+ long, lower-cased, as multisets.

Where the two differ by design: striprtf keeps a hyperlink's URL (its field instruction) and odfpy's
paragraph text keeps a table of contents' generated copy, comments, and tracked deletions, all of which
the readers leave out; the readers keep footnotes, which striprtf drops. So the totals are also given
without the words of URLs, and as the share of the extractor's distinct words the reader has. Prints one row per file and the totals; `--show N` prints each file's first N
characters.
"""

from __future__ import annotations

import argparse
import contextlib
import html as htmllib
import io
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools.doc_reader import read_doc  # noqa: E402
from corpus_tools.msg_reader import read_msg  # noqa: E402
from corpus_tools.odt_reader import read_odt  # noqa: E402
from corpus_tools.readers import UnreadableFileError  # noqa: E402
from corpus_tools.rtf_reader import read_rtf  # noqa: E402

_WORD = re.compile(r"[^\W\d_]{3,}")
_URL = re.compile(r"HYPERLINK\s+\S+|(?:https?://|mailto:|www\.)\S+")
READERS: dict[str, Callable] = {".rtf": read_rtf, ".odt": read_odt, ".msg": read_msg, ".doc": read_doc}


def words(text: str) -> Counter[str]:
    return Counter(w.lower() for w in _WORD.findall(text))


def overlap(a: Counter[str], b: Counter[str]) -> int:
    return sum((a & b).values())


def oracles() -> dict[str, Callable[[Path], str]]:
    """The independent extractors that are importable, by suffix."""
    found: dict[str, Callable[[Path], str]] = {}
    try:
        from striprtf.striprtf import rtf_to_text

        found[".rtf"] = lambda p: rtf_to_text(p.read_bytes().decode("latin-1"), errors="ignore")
    except ImportError:
        print("(striprtf not importable: no recall / precision for .rtf)")
    try:
        from odf import teletype
        from odf import text as odf_text
        from odf.opendocument import load

        def odt_text(path: Path) -> str:
            with contextlib.redirect_stdout(io.StringIO()):  # odfpy prints a part it cannot parse
                doc = load(str(path))
            return "\n".join(teletype.extractText(e) for kind in (odf_text.H, odf_text.P)
                             for e in doc.getElementsByType(kind))

        found[".odt"] = odt_text
    except ImportError:
        print("(odfpy not importable: no recall / precision for .odt)")
    try:
        import extract_msg

        def msg_text(path: Path) -> str:
            with contextlib.redirect_stderr(io.StringIO()):
                msg = extract_msg.openMsg(str(path))
                body = msg.body or ""
                if not body.strip() and msg.htmlBody:  # tags dropped by a regex: independent of the HTML reader
                    html = msg.htmlBody.decode("utf-8", "replace")
                    html = re.sub(r"(?is)<(script|style|head)\b.*?</\1>", " ", html)
                    body = htmllib.unescape(re.sub(r"<[^>]+>", " ", html))
                names = [a.longFilename or a.shortFilename or "" for a in getattr(msg, "attachments", [])
                         if hasattr(a, "longFilename")]
                return "\n".join(str(v or "") for v in (msg.subject, msg.sender, msg.to, msg.cc, *names, body))

        found[".msg"] = msg_text
    except ImportError:
        print("(extract_msg not importable: no recall / precision for .msg)")
    if shutil.which("antiword"):
        found[".doc"] = lambda p: subprocess.run(["antiword", "-w", "0", str(p)], capture_output=True, timeout=120,
                                                 env={**os.environ, "LANG": "C.UTF-8"}).stdout.decode("utf-8", "replace")
    else:
        print("(antiword not installed: no recall / precision for .doc)")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print each file's first N characters")
    args = parser.parse_args()
    extract = oracles()
    files = sorted(p for p in args.folder.rglob("*") if p.is_file() and p.suffix.lower() in READERS)
    read, refused = 0, 0
    total = Counter(oracle=0, ours=0, agree=0, oracle_no_urls=0, agree_no_urls=0, distinct=0, distinct_kept=0)
    print(f"{'file':48} {'chars':>7} {'head':>4} {'tab':>3} {'recall':>6} {'prec':>6}  title · note")
    for path in files:
        name = str(path.relative_to(args.folder))[:48]
        try:
            doc = READERS[path.suffix.lower()](path)
        except UnreadableFileError as exc:
            refused += 1
            print(f"{name:48} {'—':>7} {'':>4} {'':>3} {'':>6} {'':>6}  refused: {exc}")
            continue
        read += 1
        recall = precision = ""
        oracle_of = extract.get(path.suffix.lower())
        if oracle_of is not None:
            try:
                plain = oracle_of(path)
            except Exception as exc:  # the extractor's own failure is reported, not ours
                plain = ""
                print(f"  (the extractor failed on {name}: {type(exc).__name__})")
            oracle, no_urls = words(plain), words(_URL.sub(" ", plain))
            # a message's subject is its title ("Subject (3 April 2024)"), not a line of its text
            ours = words(f"{doc.title}\n{doc.text}" if path.suffix.lower() == ".msg" else doc.text)
            agree = overlap(ours, oracle)
            total.update(oracle=sum(oracle.values()), ours=sum(ours.values()), agree=agree,
                         oracle_no_urls=sum(no_urls.values()), agree_no_urls=overlap(ours, no_urls),
                         distinct=len(no_urls), distinct_kept=len(no_urls.keys() & ours.keys()))
            recall = f"{agree / sum(oracle.values()):.3f}" if oracle else "—"
            precision = f"{agree / sum(ours.values()):.3f}" if ours else "—"
        note = doc.metadata.get("read_note", "")
        heads, tables = getattr(doc, "headings", 0), getattr(doc, "tables", 0)
        print(f"{name:48} {len(doc.text):>7,} {heads:>4} {tables:>3} {recall:>6} {precision:>6}  "
              f"{(doc.title or '')[:40]}{' · ' + note if note else ''}")
        if args.show:
            print("    " + doc.text[: args.show].replace("\n", "\n    "))
    print(f"\nfiles {len(files)}, read {read}, refused {refused}")
    if total["oracle"]:
        print(f"words: recall {total['agree'] / total['oracle']:.3f} of the extractor's {total['oracle']:,}, "
              f"precision {total['agree'] / max(total['ours'], 1):.3f} of the reader's {total['ours']:,}; "
              f"without URLs' words: recall {total['agree_no_urls'] / max(total['oracle_no_urls'], 1):.3f} of "
              f"{total['oracle_no_urls']:,}, of its distinct words {total['distinct_kept'] / max(total['distinct'], 1):.3f} "
              f"of {total['distinct']:,} (odfpy counts a text box's and a note's words twice: in the paragraph "
              "holding it and in its own)")


if __name__ == "__main__":
    main()
