"""Generated tasks on a folder of meetings, base against a change (issue 36, session 50: questions naming their
meeting, datagen.meeting_said): how many per meeting, which kinds, how easy for BM25, how close their words are to
the questions people wrote about the same meetings.

    python benchmarks/datagen_meetings_named.py INDEX BASE_OUT NEW_OUT QUERIES.jsonl [--verdicts NEW.json]

INDEX: the folder's index; BASE_OUT / NEW_OUT: two `context1 datagen INDEX OUT` folders (base, change); QUERIES: JSON
lines with "query" and "meeting" (the meeting's file name without its suffix), as `qmsum_export.py` writes them.
Printed, one table:
- tasks, meetings with a task, tasks per meeting (every meeting of INDEX counted, 0 where none), and the change's
  per-meeting gain paired by meeting: mean with a 95 % bootstrap interval (2,000 resamples of the meetings, seed 0)
  and the meetings won / lost;
- tasks by kind: the relation of the answer fact (`meet:said-role|`, `-figure|`, `-petition|`; others as "other");
- BM25 document level, the leg alone: gold@1 (the first document is one of the task's, for a real query its
  meeting) and all-gold@10 (every gold document in the first ten);
- lexical share: a question's words are its lower-case content words of three letters or more, less the meeting
  ids (the real queries name none); its overlap is the largest share of them one real query holds (a real query:
  against the other real queries). Printed: the mean and the share at 0.5 or more;
- forms by the opening words (who / what / when / how many), beside the real queries';
- (session 51) each run's multi-hop tasks by datagen form (`meet_bridge`, `meet_compare`: datagen.meeting_hops) and
  the meetings some task reads;
- with --verdicts (JSON {task_id: "nc…"}, from `benchmarks/datagen_handread.py NEW_OUT --sample 30 --seed S`):
  natural and correct over the read tasks.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools import Corpus  # noqa: E402
from datagen.pipeline import top_documents  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from datagen_meetings import form as meeting_form  # noqa: E402

_STOP = frozenset(
    "the and for was were did does what who whom which when how why with that this from about into their there they "
    "them his her its our your had has have been are not but all any can could would should will shall may might "
    "than then also such each other some more most many much only own same very just over under between during "
    "meeting meetings give gave given said say says discuss discussed".split()
)


def words(text: str, drop: set[str]) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z0-9'-]{2,}", text.lower()) if w not in _STOP and w not in drop}


def form(q: str) -> str:
    """datagen_meetings' question form, read after the meeting's name ("In the ES2002 kick-off meeting, who …"); "which
    member / witness" asks who."""
    low = re.sub(r"^(?:in|at) [^,]+, ", "", q.lower().lstrip())
    return "who" if low.startswith(("which member", "which witness")) else meeting_form(low)


def kind(task: dict) -> str:
    rel = (task.get("metadata", {}).get("relations") or [""])[-1]
    m = re.match(r"^meet:said-(\w+)\|", rel)
    return f"said-{m.group(1)}" if m else ("meet:" + rel.split("|")[0][5:] if rel.startswith("meet:") else "other")


def bootstrap(diffs: list[float], seed: int = 0, n: int = 2000) -> tuple[float, float, float]:
    rng = random.Random(seed)
    means = sorted(sum(rng.choice(diffs) for _ in diffs) / len(diffs) for _ in range(n))
    return sum(diffs) / len(diffs), means[int(0.025 * n)], means[int(0.975 * n) - 1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("index")
    ap.add_argument("base", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("queries", type=Path)
    ap.add_argument("--verdicts", type=Path)
    args = ap.parse_args()
    runs = {name: [json.loads(x) for x in open(out / "tasks.jsonl")] for name, out in (("base", args.base), ("new", args.new))}
    real = [json.loads(x) for x in open(args.queries)]
    with Corpus.open(args.index) as c:
        ids = sorted(c.doc_ids())
        stems = {d: Path(d).stem for d in ids}
        drop = {s.lower() for s in stems.values()} | {re.sub(r"[a-h]$", "", s.lower()) for s in stems.values()}

        def doc_of(meeting: str) -> str:
            return next((d for d in ids if stems[d] == meeting), meeting)

        def ease(rows: list[tuple[str, list[str]]]) -> tuple[float, float]:
            at1 = at10 = 0
            for q, gold in rows:
                ranked = top_documents(c.search_leg(q, "bm25", k=50), 10)
                at1 += int(bool(ranked) and ranked[0] in gold)
                at10 += int(all(g in ranked for g in gold))
            n = max(len(rows), 1)
            return at1 / n, at10 / n

        eases = {name: ease([(t["query"], t["gold_doc_ids"]) for t in ts]) for name, ts in runs.items()}
        eases["real"] = ease([(r["query"], [doc_of(r["meeting"])]) for r in real])
    real_words = [words(r["query"], drop) for r in real]

    def lexical(qs: list[str], leave_one_out: bool = False) -> tuple[float, float]:
        shares = []
        for i, q in enumerate(qs):
            w = words(q, drop)
            if not w:
                shares.append(0.0)
                continue
            best = max((len(w & rw) / len(w) for j, rw in enumerate(real_words) if not (leave_one_out and i == j)), default=0.0)
            shares.append(best)
        n = max(len(shares), 1)
        return sum(shares) / n, sum(s >= 0.5 for s in shares) / n

    per = {name: Counter(d for t in ts for d in {t["gold_doc_ids"][-1]}) for name, ts in runs.items()}
    diffs = [per["new"][d] - per["base"][d] for d in ids]
    mean, lo, hi = bootstrap(diffs)
    won, lost = sum(x > 0 for x in diffs), sum(x < 0 for x in diffs)
    print(f"meetings in the index: {len(ids)}; real queries: {len(real)}")
    print("| set | tasks | meetings with a task | tasks / meeting | kinds | forms | BM25 gold@1 | all-gold@10 | lexical mean | lexical ≥0.5 |")
    print("| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |")
    for name, ts in runs.items():
        lex = lexical([t["query"] for t in ts])
        kinds = dict(Counter(kind(t) for t in ts).most_common())
        forms = dict(Counter(form(t["query"]) for t in ts).most_common())
        print(f"| {name} ({args.base if name == 'base' else args.new}) | {len(ts)} | {len(per[name])} | "
              f"{len(ts) / len(ids):.3f} | {kinds} | {forms} | {eases[name][0]:.3f} | {eases[name][1]:.3f} | "
              f"{lex[0]:.3f} | {lex[1]:.3f} |")
    # session 51: the questions across two meetings (datagen.meeting_hops), by form, and how many meetings of the
    # folder a task reads (a multi-hop task counts in both)
    for name, ts in runs.items():
        multi = [t for t in ts if len(t["gold_doc_ids"]) > 1]
        forms = dict(Counter(t.get("metadata", {}).get("form", "?") for t in multi).most_common())
        read = Counter(d for t in ts for d in set(t["gold_doc_ids"]))
        print(f"{name}: multi-hop {len(multi)} of {len(ts)} {forms}; meetings read by a task {len(read)}")
    lex = lexical([r["query"] for r in real], leave_one_out=True)
    forms = dict(Counter(form(r["query"]) for r in real).most_common())
    print(f"| real queries | {len(real)} | {len({r['meeting'] for r in real})} | {len(real) / len(ids):.3f} | – | {forms} | "
          f"{eases['real'][0]:.3f} | {eases['real'][1]:.3f} | {lex[0]:.3f} | {lex[1]:.3f} |")
    print(f"\ntasks per meeting, new − base, paired by meeting: {mean:+.3f} [{lo:+.3f}, {hi:+.3f}] "
          f"(95 % bootstrap, 2,000 resamples, seed 0); meetings won {won} / lost {lost} / tied {len(ids) - won - lost}")
    if args.verdicts:
        verdicts = json.loads(args.verdicts.read_text())
        n = len(verdicts)
        print(f"read ({args.verdicts}): natural {sum('n' in v for v in verdicts.values())}/{n}, "
              f"correct {sum('c' in v for v in verdicts.values())}/{n}")


if __name__ == "__main__":
    main()
