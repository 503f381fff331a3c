"""Answer settings side by side on the same saved episodes (`agent_passages.py run --variant ...`), paired.

    python benchmarks/agent_variants.py --label vote --sets hotpotqa musique locomo --part tuning [--base agent]
    python benchmarks/agent_variants.py --label vote --sets musique --part tuning --first 40   # the first 40 only

`agent_passages.py table` prints each setting's means; this prints what a choice needs beside them: for every
ranking of the run (the agent's own answer, each `--variant`, and `--other LABEL`'s agent on the same questions),
the difference from `--base` (default: the agent's own answer under the run's settings) on passage
answer-found@5, passage R@5 and doc all-R@10, with questions won / lost and a 95 % paired bootstrap interval
(questions resampled, 2,000 draws, seed 0), and the won / lost count against the agent's own first search (issue
34's never-worse rule). MuSiQue rows are repeated for its 3–4-hop questions (the id's "3hop"/"4hop" prefix).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from agent_passages import OUT, _covered  # noqa: E402  (the same scoring as `table`)

METRICS = ("answer-found@5", "passage R@5", "doc all-R@10")


def scores(rec: dict, key: str) -> tuple[float | None, float, float | None]:
    """(answer found in the top 5 passages or None, gold share covered by the top 5 passages, all gold in the
    top 10 documents or None) of one ranking of one question."""
    got = rec[key]
    docs = got.get("docs")
    return (got.get("answer_found"), _covered(got["passages"], rec["gold"]) / len(rec["gold"]),
            None if docs is None else float(all(g in docs[:10] for g in rec["gold"])))


def paired(a: list[float | None], b: list[float | None]) -> tuple[float, int, int, float, float] | None:
    """Mean of b − a over the questions scored in both, won / lost, and its 95 % bootstrap interval."""
    d = [y - x for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    if not d:
        return None
    rng = random.Random(0)
    means = sorted(sum(rng.choice(d) for _ in d) / len(d) for _ in range(2000))
    return sum(d) / len(d), sum(x > 0 for x in d), sum(x < 0 for x in d), means[49], means[1949]


def load(name: str, part: str, label: str) -> list[dict]:
    path = OUT / f"{name}-{part}-{label}.jsonl"
    if not path.exists():
        raise SystemExit(f"no run at {path}: run `agent_passages.py run --label {label} --sets {name} --part {part}`")
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--label", required=True)
    ap.add_argument("--sets", nargs="+", default=["hotpotqa", "musique", "locomo"])
    ap.add_argument("--part", choices=["report", "tuning"], default="tuning")
    ap.add_argument("--base", default="agent", help="the ranking the others are compared with (default: %(default)s)")
    ap.add_argument("--other", default=None, help="another run's label: its agent is compared on the same questions")
    ap.add_argument("--first", type=int, default=None, help="only the first N questions of each run")
    args = ap.parse_args()
    print(f"| set ({args.part}, n) | ranking | {' | '.join(METRICS)} | "
          "Δ vs base: answer-found@5; passage R@5; doc all-R@10 (won / lost) [95 % bootstrap] | won / lost vs first search (R@5) |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: |")
    for name in args.sets:
        recs = load(name, args.part, args.label)[: args.first]
        if args.other:
            others = {r["id"]: r for r in load(name, args.part, args.other)}
            recs = [dict(r, **{f"{args.other}:agent": others[r["id"]]["agent"]}) for r in recs if r["id"] in others]
        groups = [(f"{name} ({args.part}, {len(recs)})", recs)]
        if name == "musique":
            deep = [r for r in recs if r["id"].startswith(("3hop", "4hop"))]
            groups.append((f"{name} 3–4 hops ({args.part}, {len(deep)})", deep))
        for where, group in groups:
            if not group:
                continue
            keys = [k for k in group[0] if isinstance(group[0][k], dict) and k not in ("hybrid",)]
            base = [scores(r, args.base) for r in group]
            for key in keys:
                rows = [scores(r, key) for r in group]
                means = []
                for m in range(3):
                    kept = [s[m] for s in rows if s[m] is not None]
                    means.append(f"{sum(kept) / len(kept):.3f}" if kept else "–")
                cells = []
                for m in range(3):
                    p = paired([s[m] for s in base], [s[m] for s in rows])
                    cells.append("–" if p is None else f"{p[0]:+.3f} ({p[1]} / {p[2]}) [{p[3]:+.3f}, {p[4]:+.3f}]")
                first = [scores(r, "first")[1] for r in group]
                won = sum(s[1] > f for s, f in zip(rows, first, strict=True))
                lost = sum(s[1] < f for s, f in zip(rows, first, strict=True))
                print(f"| {where} | {key} | {' | '.join(means)} | {'; '.join(cells)} | {won} / {lost} |")


if __name__ == "__main__":
    main()
