"""Quoted reply text in mail: kept as a marked part (what `mail_reader` does) or trimmed, for search.

A reply quotes the mail it answers ("On … wrote:", "> …", "-----Original Message-----"). Kept, a
search for the original's words may find the reply instead of (or beside) the original; trimmed,
words that exist only in a quote (the original was never in this mailbox) cannot be found at all.
Two known-item query sets from a folder of .eml/.mbox mail, each query the first QUERY_WORDS words of
one sentence (SENTENCE_WORDS long at least) and its gold the message it came from:

  own     a sentence of a message's own text (above any quote);
  quoted  a sentence of a message's quoted part that no other message's own text holds (the quote
          is the mailbox's only copy).

Both variants index the same documents (the trimmed one cuts each text at its "Quoted text" part)
with the default hybrid search; per set: hit@1, hit@5 and MRR@10 of the gold message, won/lost
counts per query (rank of gold, better / worse) and a 95% bootstrap interval of the hit@5 difference.

    HF_HUB_OFFLINE=1 nice python benchmarks/mail_quoted.py MAIL_FOLDER WORK_FOLDER

The Enron sample has no held-out part (as in session 33): the figure describes the sample read.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools import Corpus, CorpusConfig, load_documents  # noqa: E402
from corpus_tools.mail_reader import QUOTED_SECTION  # noqa: E402

QUERY_WORDS = 10
SENTENCE_WORDS = 8
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]")


def sentences(text: str) -> list[str]:
    found = []
    for match in _SENTENCE.finditer(text):
        words = re.sub(r"^[>\s]+", "", match.group(0)).split()
        if len(words) >= SENTENCE_WORDS and sum(w.isalpha() for w in words) >= SENTENCE_WORDS // 2:
            found.append(" ".join(words[:QUERY_WORDS]))
    return found


def split(doc) -> tuple[str, str]:  # noqa: ANN001 - (own text, quoted text)
    quoted = next((p for p in doc.parts if p.section == QUOTED_SECTION), None)
    if quoted is None:
        return doc.text, ""
    return doc.text[: quoted.start], doc.text[quoted.start : quoted.end]


def queries(docs) -> dict[str, list[tuple[str, str]]]:  # noqa: ANN001
    own_text = {d.doc_id: split(d)[0] for d in docs}
    sets: dict[str, list[tuple[str, str]]] = {"own": [], "quoted": []}
    for doc in docs:
        own, quoted = split(doc)
        body = own.split("\n\n", 1)[1] if "\n\n" in own else ""  # after the From/To/Cc lines
        mine = sentences(body)
        if mine:
            sets["own"].append((max(mine, key=len), doc.doc_id))
        others = " ".join(" ".join(t.split()) for i, t in own_text.items() if i != doc.doc_id)
        theirs = [s for s in sentences(quoted) if s not in others]
        if theirs:
            sets["quoted"].append((max(theirs, key=len), doc.doc_id))
    return sets


def trimmed(doc):  # noqa: ANN001, ANN201
    own, quoted = split(doc)
    if not quoted:
        return doc
    return replace(doc, text=own.rstrip(), parts=tuple(p for p in doc.parts if p.section != QUOTED_SECTION))


def rank(corpus: Corpus, query: str, gold: str) -> int | None:
    seen: list[str] = []
    for hit in corpus.search(query, k=30):
        if hit.chunk.doc_id not in seen:
            seen.append(hit.chunk.doc_id)
    return seen.index(gold) + 1 if gold in seen[:10] else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mail", type=Path)
    ap.add_argument("work", type=Path)
    args = ap.parse_args()
    docs = list(load_documents(args.mail).documents)
    sets = queries(docs)
    config = CorpusConfig(embedding_cache=str(args.work / "cache"))
    ranks: dict[str, dict[str, list[int | None]]] = {}
    for label, variant in (("kept", docs), ("trimmed", [trimmed(d) for d in docs])):
        with Corpus.build(variant, args.work / label, config=config, progress=False) as corpus:
            ranks[label] = {name: [rank(corpus, q, g) for q, g in qs] for name, qs in sets.items()}
    print(f"{len(docs)} messages; {sum(bool(split(d)[1]) for d in docs)} with quoted text\n")
    print("| set | queries | variant | hit@1 | hit@5 | MRR@10 |")
    print("|---|--:|---|--:|--:|--:|")
    for name in sets:
        for label in ranks:
            r = ranks[label][name]
            n = len(r) or 1
            print(f"| {name} | {len(r)} | {label} | {sum(x == 1 for x in r) / n:.3f} | "
                  f"{sum(x is not None and x <= 5 for x in r) / n:.3f} | {sum(1 / x for x in r if x) / n:.3f} |")
    print()
    rng = random.Random(0)
    for name in sets:
        kept, cut = ranks["kept"][name], ranks["trimmed"][name]
        key = [(a or 99, b or 99) for a, b in zip(kept, cut, strict=True)]
        won = sum(a < b for a, b in key)
        lost = sum(a > b for a, b in key)
        diffs = [int(a <= 5) - int(b <= 5) for a, b in key]
        boots = sorted(sum(rng.choice(diffs) for _ in diffs) / len(diffs) for _ in range(2000)) if diffs else [0.0]
        print(f"{name}: kept vs trimmed, gold ranked better in {won}, worse in {lost}, same {len(key) - won - lost}; "
              f"hit@5 difference {sum(diffs) / max(len(diffs), 1):+.3f} "
              f"(95% bootstrap {boots[int(0.025 * len(boots))]:+.3f} to {boots[int(0.975 * len(boots)) - 1]:+.3f})")


if __name__ == "__main__":
    main()
