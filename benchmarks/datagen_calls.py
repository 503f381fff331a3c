"""Generated tasks on a folder of earnings calls (issue 36, session 46): how many, which forms, how easy for BM25, and
how close their words are to what people wrote about the same calls.

    python benchmarks/datagen_calls.py INDEX OUT [OUT ...] [--summaries DIR] [--verdicts v.json]

For each datagen output folder OUT (over INDEX), one row per part of the set (all, the calls' own tasks, single-hop,
multi-hop):
- tasks and forms (single, comparison, bridge, and the prose generator's);
- BM25 all-gold@10 by passage: every fact of the task (`Task.facts`: any passage that states it counts) has a
  passage in BM25's top 10 chunks for the question; a task without facts reads its gold chunks;
- lexical share against the summary lines (--summaries: ECTSum's gt_summaries folder of the TUNING part, one
  reference line a line, "q3 revenue $3.1 billion versus …"): a question's words are its lower-case content words,
  quarters and years said one way ("the third quarter" → q3, "full-year" → fy), less the company's name, its ticker
  and numbers (the summaries name no company); its overlap is the largest share of them one summary line holds.
  Printed: the mean overlap and the share of tasks at 0.5 or more;
- with --verdicts (JSON {task_id: "ncg" …}, from a read of `benchmarks/datagen_handread.py OUT --sample 30`): natural,
  correct, genuine (multi-hop) counts over the read tasks;
- the refusals of the session 47 guards and forms in each OUT's run (`runs.jsonl` stages: call:conditional,
  call:summed, call:metric_twice, call:segment_context, call:segment_named, call:own_calendar_words,
  call:compare_read_pairs).

With --sheet FILE (--sample N --seed S): a reading sheet of N tasks of the first OUT drawn with seed S, each quote shown
in its chunk with the 350 characters before it and 120 after (a segment or a year named the sentence before is how
a figure goes wrong; session 47's read).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools import Corpus  # noqa: E402
from eval.loaders import load_tasks  # noqa: E402

_STOP = frozenset(
    "a an the of in on at to for from by with and or is are was were be been it its as this that what which who did "
    "does do has have had how report reported quarter call guide range company".split()
)
_ORDINAL = {"first": "q1", "second": "q2", "third": "q3", "fourth": "q4"}


def words(text: str, names: frozenset[str] = frozenset()) -> frozenset[str]:
    """Content words, quarters and years said one way, less names and numbers (see the module docstring)."""
    t = text.lower().replace("’", "'")
    t = re.sub(r"\b(first|second|third|fourth)[- ]quarter\b", lambda m: _ORDINAL[m.group(1)], t)
    t = re.sub(r"\bfull[- ]year\b|\bfiscal year\b|\bfiscal\b", "fy", t)
    t = re.sub(r"\beps\b", "earnings per share", t)
    t = re.sub(r"\bsales\b", "revenue", t)
    t = re.sub(r"\brevenues\b", "revenue", t)
    toks = re.findall(r"[a-z][a-z0-9&'-]*", t)
    return frozenset(w for w in toks if w not in _STOP and w not in names and not re.fullmatch(r"\d+|q\d|'\d\d", w))


def summary_lines(folder: Path) -> list[frozenset[str]]:
    return [words(line) for path in sorted(folder.glob("*.txt"))
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]


def overlap(question: str, real: list[frozenset[str]], names: frozenset[str]) -> float:
    g = words(question, names)
    return max((len(g & r) / len(g) for r in real), default=0.0) if g else 0.0


def all_gold(corpus: Corpus, task, k: int = 10) -> bool:  # noqa: ANN001
    top = {h.chunk.chunk_id for h in corpus.search_leg(task.query, "bm25", k=k)}
    facts = [set(f) for f in task.facts] or [{c} for c in task.gold_chunk_ids]
    return bool(facts) and all(f & top for f in facts)


def company_words(corpus: Corpus) -> frozenset[str]:
    """Every word of the folder's companies and tickers (document metadata), lower-cased."""
    out: set[str] = set()
    for doc in corpus.doc_ids():
        meta = corpus.chunk(f"{doc}#0").metadata or {}
        for key in ("company", "ticker"):
            out.update(re.findall(r"[a-z][a-z0-9&'-]*", str(meta.get(key) or "").lower()))
    return frozenset(out - {"and", "the", "of"})


GUARD_STAGES = ("call:conditional", "call:summed", "call:metric_twice", "call:segment_context", "call:segment_named",
                "call:own_calendar_words",
                "call:compare_read_pairs", "calls:compare_read:proposed")


def guard_stages(out: Path) -> dict[str, int]:
    """The session 47 guards' and forms' counts in OUT's last run (0 where the run has none)."""
    runs = [json.loads(x) for x in (out / "runs.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()] \
        if (out / "runs.jsonl").is_file() else []
    stages = ((runs[-1].get("report") or {}).get("stages") or {}) if runs else {}
    return {k: int(stages.get(k, 0)) for k in GUARD_STAGES}


def sheet(corpus: Corpus, out: Path, n: int, seed: int) -> str:
    """A reading sheet: question, answer and each quote in its chunk (see the module docstring)."""
    import random

    records = [json.loads(x) for x in (out / "tasks.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    sample = random.Random(seed).sample(records, min(n, len(records)))
    lines = [f"=== {out} (sample of {len(sample)}, seed {seed}); verdicts: n natural, c correct, g genuine chain", ""]
    for i, rec in enumerate(sample, 1):
        md = rec.get("metadata") or {}
        lines += [f"[{i}] {rec['task_id']} hops={rec.get('hops')} form={md.get('form')} verdict=?",
                  f"  Q: {rec['query']}", f"  A: {rec.get('answers')}"]
        for item in md.get("supporting", []):
            texts = [" ".join(corpus.chunk(c).text.split()) for c in item["chunk_ids"]]
            for quote in item["quotes"]:
                q = " ".join(quote.split())
                text = next((t for t in texts if q in t), texts[0] if texts else "")  # the chunk that holds the quote
                at = text.find(q)
                before, after = (text[max(0, at - 350):at], text[at + len(q):at + len(q) + 120]) if at >= 0 else ("?", "")
                lines.append(f"   [{item['doc_id'][:50]}] …{before} >>>{q}<<< {after}…")
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("index", type=Path)
    ap.add_argument("outs", type=Path, nargs="+")
    ap.add_argument("--summaries", type=Path, help="ECTSum's gt_summaries folder (tuning part only)")
    ap.add_argument("--verdicts", type=Path, help="JSON {task_id: letters n/c/g} of a read sample")
    ap.add_argument("--sheet", type=Path, help="write a reading sheet of the first OUT here")
    ap.add_argument("--sample", type=int, default=30, help="tasks on the sheet")
    ap.add_argument("--seed", type=int, default=1, help="the sheet's draw")
    args = ap.parse_args()
    real = summary_lines(args.summaries) if args.summaries else []
    verdicts = json.loads(args.verdicts.read_text(encoding="utf-8")) if args.verdicts else {}
    with Corpus.open(args.index) as corpus:
        try:
            names = company_words(corpus)
        except Exception:  # an index without the doc listing: names stay in the words (said so in the table)
            names = frozenset()
        print(f"index {args.index}; summary lines: {len(real)}; company words left out: {len(names)}\n")
        print("| OUT | part | tasks | forms | BM25 all-gold@10 | lexical mean | lexical ≥0.5 | read: natural | correct | genuine |")
        print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for out in args.outs:
            tasks = load_tasks(out / "tasks.jsonl").tasks
            parts = {
                "all": tasks,
                "calls": [t for t in tasks if t.metadata.get("generator_part") == "calls"],
                "single-hop": [t for t in tasks if (t.hops or 1) == 1],
                "multi-hop": [t for t in tasks if (t.hops or 1) > 1],
            }
            for part, ts in parts.items():
                if not ts and part != "all":
                    continue
                forms = Counter(str(t.metadata.get("form", "?")) for t in ts)
                gold = sum(all_gold(corpus, t) for t in ts)
                laps = [overlap(t.query, real, names) for t in ts] if real else []
                read = [verdicts[t.task_id] for t in ts if t.task_id in verdicts]
                multi_read = [verdicts[t.task_id] for t in ts if t.task_id in verdicts and (t.hops or 1) > 1]
                lex = (f"{sum(laps) / len(laps):.3f} | {sum(o >= 0.5 for o in laps) / len(laps):.3f}" if laps else "– | –")
                rd = (f"{sum('n' in v for v in read)}/{len(read)} | {sum('c' in v for v in read)}/{len(read)} | "
                      f"{sum('g' in v for v in multi_read)}/{len(multi_read)}" if read else "– | – | –")
                share = f"{gold / len(ts):.3f}" if ts else "–"
                form_text = ", ".join(f"{k} {v}" for k, v in forms.most_common())
                print(f"| {out.name} | {part} | {len(ts)} | {form_text} | {share} | {lex} | {rd} |")
        print()
        for out in args.outs:
            print(f"{out.name}: " + ", ".join(f"{k} {v}" for k, v in guard_stages(out).items()))
        if args.sheet:
            args.sheet.write_text(sheet(corpus, args.outs[0], args.sample, args.seed), encoding="utf-8")


if __name__ == "__main__":
    main()
