"""How well `.rtf` files are read: the reader's words against an independent extraction, file by file.

    python benchmarks/rtf_reading.py FOLDER [--show N]

For every .rtf under FOLDER: what `context1 index` makes of it (refused with its reason, or read: headings,
tables, characters), and — when the independent `striprtf` package is importable (install it in a scratch
environment: it is no dependency of the project) — the share of striprtf's words the reader keeps (recall)
and the share of the reader's words striprtf also has (precision; words striprtf drops but the reader keeps
are mostly footnotes, which striprtf drops). Words: letters, 3+ long, lower-cased, as multisets. striprtf keeps
a hyperlink's URL (its field instruction), which the reader leaves out by design, so the totals are given with
and without the words of URLs. Prints one row per file and the totals; `--show N` prints each file's first N
characters.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools.readers import UnreadableFileError  # noqa: E402
from corpus_tools.rtf_reader import read_rtf  # noqa: E402

_WORD = re.compile(r"[^\W\d_]{3,}")
_URL = re.compile(r"HYPERLINK\s+\S+|(?:https?://|mailto:|www\.)\S+")


def words(text: str) -> Counter[str]:
    return Counter(w.lower() for w in _WORD.findall(text))


def overlap(a: Counter[str], b: Counter[str]) -> int:
    return sum((a & b).values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--show", type=int, default=0, help="print each file's first N characters")
    args = parser.parse_args()
    try:
        from striprtf.striprtf import rtf_to_text
    except ImportError:
        rtf_to_text = None
        print("(striprtf not importable: no recall / precision columns)")
    files = sorted(p for p in args.folder.rglob("*") if p.is_file() and p.suffix.lower() == ".rtf")
    rows, refused = [], 0
    total = Counter(oracle=0, ours=0, agree=0, oracle_no_urls=0, agree_no_urls=0)
    print(f"{'file':48} {'chars':>7} {'head':>4} {'tab':>3} {'recall':>6} {'prec':>6}  note")
    for path in files:
        name = str(path.relative_to(args.folder))[:48]
        try:
            doc = read_rtf(path)
        except UnreadableFileError as exc:
            refused += 1
            print(f"{name:48} {'—':>7} {'':>4} {'':>3} {'':>6} {'':>6}  refused: {exc}")
            continue
        recall = precision = ""
        if rtf_to_text is not None:
            try:
                plain = rtf_to_text(path.read_bytes().decode("latin-1"), errors="ignore")
            except Exception as exc:  # the oracle's own failure is reported, not ours
                plain = ""
                print(f"  (striprtf failed on {name}: {type(exc).__name__})")
            oracle, no_urls = words(plain), words(_URL.sub(" ", plain))
            ours = words(doc.text)
            agree = overlap(ours, oracle)
            total.update(oracle=sum(oracle.values()), ours=sum(ours.values()), agree=agree,
                         oracle_no_urls=sum(no_urls.values()), agree_no_urls=overlap(ours, no_urls))
            recall = f"{agree / sum(oracle.values()):.3f}" if oracle else "—"
            precision = f"{agree / sum(ours.values()):.3f}" if ours else "—"
        note = doc.metadata.get("read_note", "")
        rows.append(path)
        print(f"{name:48} {len(doc.text):>7,} {doc.headings:>4} {doc.tables:>3} {recall:>6} {precision:>6}  "
              f"{(doc.title or '')[:40]}{' · ' + note if note else ''}")
        if args.show:
            print("    " + doc.text[: args.show].replace("\n", "\n    "))
    print(f"\nfiles {len(files)}, read {len(rows)}, refused {refused}")
    if rtf_to_text is not None and total["oracle"]:
        print(f"words: recall {total['agree'] / total['oracle']:.3f} of striprtf's {total['oracle']:,}, "
              f"precision {total['agree'] / max(total['ours'], 1):.3f} of the reader's {total['ours']:,}; "
              f"without URLs' words: recall {total['agree_no_urls'] / max(total['oracle_no_urls'], 1):.3f} of "
              f"{total['oracle_no_urls']:,}")


if __name__ == "__main__":
    main()
