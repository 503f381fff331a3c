"""The extraction verifier on labelled pairs nobody here wrote: HotpotQA supporting facts.

Quotes: each supporting-fact sentence, checked against its own paragraph (known good: must be
accepted) and against each other paragraph of the same question (known bad: must be rejected).
Answers: the question's answer checked against its gold paragraphs (at least one should contain
it) and against its distractor paragraphs (a distractor that contains the answer is dropped by
datagen, so here we count how many are). yes/no answers (comparison questions) are left out of the
answer rows: the answer is not a span of any paragraph. Misses are printed with the reason.

    python benchmarks/datagen_verifier.py --data-dir ../shared/data
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from datagen.verify import answer_in_texts, normalize, quote_in_document  # noqa: E402

FILES = ("hotpotqa_train_sample_dev250.json", "hipporag_hotpotqa_train100.json", "hotpot_dev_distractor_first100.json")


def records(folder: Path) -> list[tuple[str, str, list[tuple[str, list[str]]], list[tuple[str, int]]]]:
    """(question id, answer, [(title, sentences)], [(title, sent_id)]) in both HotpotQA layouts."""
    out = []
    for name in FILES:
        for i, r in enumerate(json.loads((folder / name).read_text(encoding="utf-8"))):
            ctx = r["context"]
            if isinstance(ctx, dict):  # Hugging Face layout
                paragraphs = list(zip(ctx["title"], ctx["sentences"], strict=True))
                facts = list(zip(r["supporting_facts"]["title"], r["supporting_facts"]["sent_id"], strict=True))
            else:  # original layout
                paragraphs = [(t, s) for t, s in ctx]
                facts = [(t, s) for t, s in r["supporting_facts"]]
            qid = r.get("id") or r.get("_id") or f"{name}[{i}]"
            out.append((qid, str(r["answer"]), paragraphs, facts))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data-dir", default="../shared/data")
    ap.add_argument("--show", type=int, default=8, help="misses printed per row")
    args = ap.parse_args()
    recs = records(Path(args.data_dir) / "hotpotqa")
    seen: set[str] = set()
    counts: Counter = Counter()
    misses: dict[str, list[str]] = {"good rejected": [], "bad accepted": [], "answer not in gold": []}
    skipped = Counter()
    for qid, answer, paragraphs, facts in recs:
        if qid in seen:
            skipped["duplicate question"] += 1
            continue
        seen.add(qid)
        text = {t: "".join(s) for t, s in paragraphs}
        sentences = {t: s for t, s in paragraphs}
        for title, sid in facts:
            if title not in sentences or not 0 <= sid < len(sentences[title]):
                skipped["supporting fact outside the context"] += 1
                continue
            quote = sentences[title][sid].strip()
            if not normalize(quote):
                skipped["empty sentence"] += 1
                continue
            counts["good"] += 1
            if quote_in_document(quote, text[title]):
                counts["good accepted"] += 1
            else:
                misses["good rejected"].append(f"{quote[:90]!r} vs {title!r}")
            for other, body in text.items():
                if other == title:
                    continue
                counts["bad"] += 1
                if quote_in_document(quote, body):
                    misses["bad accepted"].append(f"{quote[:90]!r} ({title!r}) found in {other!r}")
                else:
                    counts["bad rejected"] += 1
        if normalize(answer) in ("yes", "no"):
            counts["yes/no answers left out"] += 1
            continue
        gold = {t for t, _ in facts}
        counts["answer questions"] += 1
        if answer_in_texts([answer], [text[t] for t in gold if t in text]):
            counts["answer in a gold paragraph"] += 1
        else:
            misses["answer not in gold"].append(f"{answer!r} ({qid})")
        for t, body in text.items():
            if t in gold:
                continue
            counts["distractor paragraphs"] += 1
            if answer_in_texts([answer], [body]):
                counts["distractors holding the answer (dropped)"] += 1

    def rate(a: str, b: str) -> str:
        return f"{counts[a] / counts[b]:.4f} ({counts[a]}/{counts[b]})" if counts[b] else "-"

    print(f"\nHotpotQA questions: {len(seen)} (skipped: {dict(skipped)})\n")
    print("| check | pairs | rate | goal |\n| --- | --- | --- | --- |")
    print(f"| quote vs own paragraph: accepted (known good) | {counts['good']} | {rate('good accepted', 'good')} | >= 0.99 |")
    print(f"| quote vs other paragraphs: rejected (known bad) | {counts['bad']} | {rate('bad rejected', 'bad')} | >= 0.95 |")
    print(
        f"| answer in >= 1 gold paragraph (non yes/no) | {counts['answer questions']} | "
        f"{rate('answer in a gold paragraph', 'answer questions')} | high |"
    )
    print(
        f"| distractor paragraphs holding the answer (dropped) | {counts['distractor paragraphs']} | "
        f"{rate('distractors holding the answer (dropped)', 'distractor paragraphs')} | (reported) |"
    )
    for name, items in misses.items():
        print(f"\n{name}: {len(items)}")
        for m in items[: args.show]:
            print(f"  - {m}")


if __name__ == "__main__":
    main()
