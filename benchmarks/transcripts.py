"""Meeting transcripts searched as users search them: QMSum's real specific queries over its meetings.

    # tuning (what settings are chosen on), then the reporting part, run once by the lead:
    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/transcripts.py --part tune --no-agent --naming \
        --speaker-lift 0 0.25 0.5 0.75 1 2 4 --label lift
    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/transcripts.py --part tune --limit 300 --label agent300
    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/transcripts.py --part report --label report
    # chunking compared: an index of the same folder built with ChunkingConfig(turn_starts=True)
    ... --part tune --no-agent --index TURN_INDEX --label turns --versus all

Data: the QMSum export (`/work/runs/s39/lead/export_qmsum.py`: Yale-LILY/QMSum 83d7768, one "Speaker: text" .txt
per meeting; train+val meetings = tune, test = report), read from DATA (`--data`, default /work/data39/qmsum):
DATA/<part>/<meeting>.txt, DATA/queries-<part>.jsonl (`query`, `doc_id`, `chars` = the gold turns as character
spans of the file), and the index of DATA/<part> (`--index`, default /work/indexes/qmsum-<part>). `--limit N` takes
N queries evenly spaced over the file (its first queries are all of one kind of meeting).

Gold: the chunks of the query's meeting that overlap a gold span ("loose"). QMSum's spans are long (often
hundreds of turns, many chunks), so a strict variant is scored too: the chunks overlapping the query's
*shortest* span only.

Per query and ranking: passage hit@5 (a gold chunk among the first 5 passages), gold-chunk recall@10 (gold
chunks among the first 10 passages / min(gold chunks, 10)), meeting@5 (the query's meeting among the first 5
distinct documents). Rankings: one hybrid `Corpus.search(query, k=50)` (passages: its hits; documents: their
meetings in order) and the LLM-free agent's `SearchAgent(corpus).run(query)` (passages: `result.evidence`;
documents: `result.doc_ids`), each under every `--speaker-lift` value (`SearchConfig.speaker_lift`, 0 = off;
the agent's searches read the same config). Every setting is compared with the first one (`--speaker-lift`'s
first value): mean difference with its 95 % paired bootstrap interval and queries won / lost, over all queries
and over those naming a speaker of their meeting (`corpus_tools.speakers`). Per-query JSONL under
benchmarks/out/transcripts/ (`--no-agent`: the hybrid rows only, minutes instead of an hour).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "out" / "transcripts"
METRICS = ("hit5", "recall10", "meeting5")


def load_queries(data: Path, part: str, limit: int | None) -> list[dict[str, Any]]:
    path = data / f"queries-{part}.jsonl"
    if not path.exists():
        raise SystemExit(f"no queries at {path}: export QMSum first (/work/runs/s39/lead/export_qmsum.py)")
    queries = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    queries = [q for q in queries if q.get("chars")]
    if not limit or limit >= len(queries):
        return queries
    # evenly spaced, not the first N: the file runs meeting kind by meeting kind (ICSI, AMI, parliaments)
    return [queries[i * len(queries) // limit] for i in range(limit)]


def chunk_spans(corpus: Any, doc_id: str, text: str) -> list[tuple[str, int, int]]:
    """(chunk id, start, end) of every chunk of a document in its source text (chunks are exact slices, in
    order; each is looked for from the previous chunk's start, as windows overlap but never go back)."""
    spans, pos = [], 0
    for chunk in sorted(corpus.chunks(doc_id), key=lambda c: c.position):
        start = text.find(chunk.text, pos)
        if start < 0:
            raise SystemExit(f"chunk {chunk.chunk_id} is not a slice of {doc_id}: was the index built from this folder?")
        spans.append((chunk.chunk_id, start, start + len(chunk.text)))
        pos = start
    return spans


def gold_chunks(spans: list[tuple[str, int, int]], chars: list[list[int]]) -> list[str]:
    """The chunks overlapping any of the character spans."""
    return [cid for cid, a, b in spans if any(a < end and start < b for start, end in chars)]


def shortest(chars: list[list[int]]) -> list[list[int]]:
    return [min(chars, key=lambda span: (span[1] - span[0], span[0]))]


def score(passages: list[str], docs: list[str], gold: list[str], meeting: str) -> dict[str, float]:
    wanted = set(gold)
    return {
        "hit5": float(any(p in wanted for p in passages[:5])),
        "recall10": len(wanted & set(passages[:10])) / min(len(wanted), 10) if wanted else 0.0,
        "meeting5": float(meeting in docs[:5]),
    }


def paired(a: list[float], b: list[float], seed: int = 0) -> tuple[float, int, int, float, float]:
    """Mean of b − a, queries won / lost, and the 95 % paired bootstrap interval of the mean."""
    d = [y - x for x, y in zip(a, b, strict=True)]
    rng = random.Random(seed)
    means = sorted(sum(rng.choice(d) for _ in d) / len(d) for _ in range(2000))
    return statistics.fmean(d), sum(x > 0 for x in d), sum(x < 0 for x in d), means[49], means[1949]


def run(args: argparse.Namespace) -> Path:
    from context1 import SearchAgent
    from corpus_tools import Corpus
    from corpus_tools.speakers import line_speakers, named_speakers

    queries = load_queries(args.data, args.part, args.limit)
    index = args.index or Path(f"/work/indexes/qmsum-{args.part}")
    folder = args.data / args.part
    base = Corpus.open(index)
    spans = {}
    speakers: dict[str, set[str]] = {}
    for doc_id in sorted({q["doc_id"] for q in queries}):
        spans[doc_id] = chunk_spans(base, doc_id, (folder / doc_id).read_text(encoding="utf-8"))
        speakers[doc_id] = {s for c in base.chunks(doc_id) for s in line_speakers(c.text)}
    search_config = base.config.search
    base.close()
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{args.part}-{args.label}.jsonl"
    records = [{"i": i, "query": q["query"], "doc_id": q["doc_id"],
                "named": sorted(named_speakers(q["query"], speakers[q["doc_id"]])),
                "gold": gold_chunks(spans[q["doc_id"]], q["chars"]),
                "strict": gold_chunks(spans[q["doc_id"]], shortest(q["chars"]))} for i, q in enumerate(queries)]
    if args.naming:
        records = [r for r in records if r["named"]]
    for lift in args.speaker_lift:
        corpus = Corpus.open(index, search=dataclasses.replace(search_config, speaker_lift=lift))
        agent = None if args.no_agent else SearchAgent(corpus)
        for n, rec in enumerate(records, 1):
            t0 = time.perf_counter()
            hits = corpus.search(rec["query"], k=50)
            rec[f"hybrid@{lift:g}"] = {"passages": [h.chunk.chunk_id for h in hits[:10]],
                                       "docs": list(dict.fromkeys(h.chunk.doc_id for h in hits))[:10],
                                       "s": time.perf_counter() - t0}
            if agent is not None:
                t0 = time.perf_counter()
                result = agent.run(rec["query"])
                rec[f"agent@{lift:g}"] = {"passages": [e.chunk_id for e in result.evidence][:10],
                                          "docs": list(result.doc_ids)[:10], "s": time.perf_counter() - t0}
            print(f"[{args.part} lift={lift:g} {n}/{len(records)}]", file=sys.stderr, flush=True)
        corpus.close()
    with path.open("w", encoding="utf-8") as out:
        for rec in records:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return path


def table(path: Path, lifts: list[float]) -> str:
    records = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    named = [r for r in records if r["named"]]
    rankings = [k for k in records[0] if "@" in k]
    lines = [f"QMSum {path.stem}: {len(records)} queries ({len(named)} naming a speaker of their meeting); "
             f"gold chunks per query: loose median {statistics.median(len(r['gold']) for r in records):g}, "
             f"strict median {statistics.median(len(r['strict']) for r in records):g}", "",
             "| ranking | gold | queries | hit@5 | recall@10 | meeting@5 | hit@5 vs first setting: Δ [95 %] won/lost "
             "| recall@10 Δ [95 %] won/lost |", "|---|---|--:|--:|--:|--:|---|---|"]
    for subset_name, subset in (("all", records), ("naming a speaker", named)):
        if not subset:
            continue
        for key in rankings:
            kind = key.split("@")[0]
            first = f"{kind}@{lifts[0]:g}"
            for gold in ("strict", "gold"):
                rows = [score(r[key]["passages"], r[key]["docs"], r[gold], r["doc_id"]) for r in subset]
                means = {m: statistics.fmean(row[m] for row in rows) for m in METRICS}
                cells = ["", ""]
                if key != first:
                    base = [score(r[first]["passages"], r[first]["docs"], r[gold], r["doc_id"]) for r in subset]
                    cells = []
                    for m in ("hit5", "recall10"):
                        d, won, lost, lo, hi = paired([b[m] for b in base], [x[m] for x in rows])
                        cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}")
                label = "loose" if gold == "gold" else "strict"
                lines.append(f"| {key} ({subset_name}) | {label} | {len(subset)} | {means['hit5']:.3f} | "
                             f"{means['recall10']:.3f} | {means['meeting5']:.3f} | {cells[0]} | {cells[1]} |")
    secs = {k: statistics.median(r[k]["s"] for r in records) for k in rankings}
    lines += ["", "seconds per query (median): " + ", ".join(f"{k} {v:.2f}" for k, v in secs.items())]
    return "\n".join(lines)


def versus(path_a: Path, path_b: Path) -> str:
    """Two runs over the same queries (e.g. two indexes of one folder, chunked two ways), ranking by ranking:
    B − A per metric with its 95 % paired bootstrap interval and queries won / lost."""
    a = {r["i"]: r for r in map(json.loads, path_a.read_text(encoding="utf-8").splitlines())}
    b = {r["i"]: r for r in map(json.loads, path_b.read_text(encoding="utf-8").splitlines())}
    both = sorted(set(a) & set(b))
    lines = [f"{path_b.stem} − {path_a.stem}, {len(both)} queries", "",
             "| ranking | gold | A hit@5 | B hit@5 | Δ hit@5 [95 %] won/lost | A recall@10 | B recall@10 | "
             "Δ recall@10 [95 %] won/lost | Δ meeting@5 won/lost |", "|---|---|--:|--:|---|--:|--:|---|---|"]
    for key in [k for k in a[both[0]] if "@" in k and k in b[both[0]]]:
        for gold in ("strict", "gold"):
            sa = [score(a[i][key]["passages"], a[i][key]["docs"], a[i][gold], a[i]["doc_id"]) for i in both]
            sb = [score(b[i][key]["passages"], b[i][key]["docs"], b[i][gold], b[i]["doc_id"]) for i in both]
            cells = []
            for m in METRICS:
                xa, xb = [x[m] for x in sa], [x[m] for x in sb]
                d, won, lost, lo, hi = paired(xa, xb)
                cells.append((statistics.fmean(xa), statistics.fmean(xb), f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}"))
            lines.append(f"| {key} | {'loose' if gold == 'gold' else 'strict'} | {cells[0][0]:.3f} | {cells[0][1]:.3f} | "
                         f"{cells[0][2]} | {cells[1][0]:.3f} | {cells[1][1]:.3f} | {cells[1][2]} | {cells[2][2]} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=["tune", "report"], default="tune")
    ap.add_argument("--limit", type=int, default=None, help="N queries evenly spaced over the file (default: all)")
    ap.add_argument("--data", type=Path, default=Path("/work/data39/qmsum"))
    ap.add_argument("--index", type=Path, default=None, help="default: /work/indexes/qmsum-<part>")
    ap.add_argument("--speaker-lift", type=float, nargs="+", default=[0.0, 0.25],
                    help="SearchConfig.speaker_lift values; the first is the one the others are compared with")
    ap.add_argument("--no-agent", action="store_true", help="score the hybrid search only")
    ap.add_argument("--naming", action="store_true",
                    help="only the queries naming a speaker of their meeting (the ones --speaker-lift can change)")
    ap.add_argument("--label", default="run", help="names the per-query file (benchmarks/out/transcripts/PART-LABEL.jsonl)")
    ap.add_argument("--table-only", action="store_true", help="print the table of an earlier run of this label")
    ap.add_argument("--versus", default=None, metavar="LABEL",
                    help="also compare this run with an earlier run LABEL of the same part (e.g. another index)")
    args = ap.parse_args(argv)
    if any(v < 0 for v in args.speaker_lift):
        ap.error("--speaker-lift values must be >= 0")
    path = OUT / f"{args.part}-{args.label}.jsonl"
    if not args.table_only:
        path = run(args)
    elif not path.exists():
        raise SystemExit(f"no run at {path}")
    print(table(path, args.speaker_lift))
    if args.versus:
        print()
        print(versus(OUT / f"{args.part}-{args.versus}.jsonl", path))


if __name__ == "__main__":
    main()
