"""Meetings searched as a user searches them: QMSum's real specific queries over its meetings, exported as a
user's folder of "Speaker: text" transcripts (issue 34: passages as the answer on every kind of document).

    # export a QMSum split from the mirror (never committed; the tuning part is QMSum train):
    python benchmarks/meetings_search.py export train /work/data50/qmsum-tune
    # index it as a user would (or reuse an index with --index), then search every query, variants beside base:
    python benchmarks/meetings_search.py run --data DATA --index INDEX --out OUT \
        --variant base= --variant names=speaker_names:1
    # the failure trace of one run's label (what the first label's one search misses, counted):
    python benchmarks/meetings_search.py trace --data DATA --index INDEX --out OUT --label base

Data: DATA/docs/<meeting>.txt (one "Speaker: text" line per turn) and DATA/queries.jsonl (`meeting`, `query`,
`lines` = the relevant turns as 1-based inclusive line ranges of the file), as `export` writes them from
Yale-LILY/QMSum (83d7768, MIT) read by path from the mirror (`--repo`): the transcriber's {disfmarker}-style
marks removed, the tokenised spacing before punctuation undone, empty turns dropped.

Gold: the chunks of the query's meeting that hold any relevant line (a chunk's lines: those its text overlaps).
Per query and ranking: meeting@5 (the query's meeting among the first 5 distinct documents), hit@5 (a gold chunk
among the first 5 passages) and coverage@5 (the share of the relevant lines the first 5 passages hold). Rankings:
`search` = one `Corpus.search(query, k=50, constraints="auto")` (the shipped default, as `ask` searches); `agent` =
the LLM-free `SearchAgent(corpus).run(query)` (its evidence and documents); `scoped` = one search inside the query's
meeting (`where={"doc_id": …}`, as a user who names the meeting: where in the meeting, apart from which meeting);
`first` = the agent's own first search
(issue 34's never-worse rule: the agent's top 5 against it). Each `--variant NAME=key:value,...` opens the index with
those `SearchConfig` fields changed (the agent's searches read the same config); the first variant is the base the
others are compared with: mean difference, 95 % paired bootstrap interval, queries won / lost. `--limit N` takes N
queries evenly spaced; `--half 1|2` the queries of odd / even meetings in file order (choose on one, check on the
other). Per-query JSONL under OUT.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path("/work/.mirror/Yale-LILY+QMSum/repo")
METRICS = ("meeting5", "hit5", "cover5")
RANKINGS = ("search", "scoped", "first", "agent")
MARK = re.compile(r"\{\s*(vocalsound|disfmarker|gap|pause|nonvocalsound|comment)\s*\}", re.I)


# ---------------------------------------------------------------- export (QMSum → a user's folder)

def clean(text: str) -> str:
    """A QMSum turn as a person would read it: annotation marks gone, tokenised spacing undone."""
    text = MARK.sub(" ", text)
    text = re.sub(r"\s+([.,?!;:%)])", r"\1", text)
    text = re.sub(r"([($])\s+", r"\1", text)
    text = re.sub(r"\s+(n't|'s|'re|'ll|'ve|'m|'d)\b", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def export(split: str, out: Path, repo: Path = REPO) -> tuple[int, int]:
    """Write OUT/docs/<meeting>.txt and OUT/queries.jsonl for QMSum's `split` (train / val / test); returns
    (meetings, queries). Only specific queries with a relevant span are kept."""
    (out / "docs").mkdir(parents=True, exist_ok=True)
    names = subprocess.run(["git", "-C", str(repo), "ls-tree", "--name-only", "HEAD", f"data/ALL/{split}/"],
                           capture_output=True, text=True, check=True).stdout.split()
    n_queries = 0
    with open(out / "queries.jsonl", "w", encoding="utf-8") as qf:
        for name in names:
            record = json.loads(subprocess.run(["git", "-C", str(repo), "show", f"HEAD:{name}"], capture_output=True,
                                               text=True, check=True).stdout)
            meeting = Path(name).stem
            lines: list[str] = []
            line_of: dict[int, int] = {}
            for i, turn in enumerate(record["meeting_transcripts"]):
                text = clean(turn["content"])
                if not text:
                    continue
                lines.append(f"{turn['speaker'].strip()}: {text}")
                line_of[i] = len(lines)
            (out / "docs" / f"{meeting}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
            for q in record["specific_query_list"]:
                spans = []
                for a, b in q.get("relevant_text_span") or []:
                    found = [line_of[i] for i in range(int(a), int(b) + 1) if i in line_of]
                    if found:
                        spans.append([min(found), max(found)])
                if spans:
                    qf.write(json.dumps({"meeting": meeting, "query": q["query"], "answer": q["answer"],
                                         "lines": spans}) + "\n")
                    n_queries += 1
    return len(names), n_queries


# ---------------------------------------------------------------- gold

def load_queries(data: Path, limit: int | None = None, half: int | None = None) -> list[dict[str, Any]]:
    path = data / "queries.jsonl"
    if not path.exists():
        raise SystemExit(f"no queries at {path}: export a split first (meetings_search.py export SPLIT DATA)")
    queries = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    for i, q in enumerate(queries):
        q["i"] = i
    if half:
        order = list(dict.fromkeys(q["meeting"] for q in queries))
        keep = set(order[half - 1::2])
        queries = [q for q in queries if q["meeting"] in keep]
    if limit and limit < len(queries):
        # evenly spaced, not the first N: the file runs meeting kind by meeting kind
        queries = [queries[i * len(queries) // limit] for i in range(limit)]
    return queries


def chunk_lines(corpus: Any, doc_id: str, text: str) -> dict[str, tuple[int, int]]:
    """Chunk id → the 1-based (first, last) lines of `text` it overlaps (chunks are slices of the text, in order,
    each found from the previous one's start: windows overlap but never go back)."""
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    out, pos = {}, 0
    for chunk in sorted(corpus.chunks(doc_id), key=lambda c: c.position):
        start = text.find(chunk.text, pos)
        if start < 0:
            raise SystemExit(f"chunk {chunk.chunk_id} is not a slice of {doc_id}: was the index built from DATA/docs?")
        end = start + len(chunk.text)
        first = _line_at(starts, start)
        last = _line_at(starts, max(start, end - 1))
        out[chunk.chunk_id] = (first, last)
        pos = start
    return out


def _line_at(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts)
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid
    return lo + 1


def relevant(spans: list[list[int]]) -> set[int]:
    return {n for a, b in spans for n in range(a, b + 1)}


def gold_of(lines_of: dict[str, tuple[int, int]], wanted: set[int]) -> list[str]:
    return [cid for cid, (a, b) in lines_of.items() if any(n in wanted for n in range(a, b + 1))]


def score(passages: list[str], docs: list[str], rec: dict[str, Any], lines_of: dict[str, tuple[int, int]]) -> dict[str, float]:
    wanted = relevant(rec["lines"])
    gold = set(rec["gold"])
    held: set[int] = set()
    for cid in passages[:5]:
        if cid in lines_of:
            a, b = lines_of[cid]
            held |= wanted & set(range(a, b + 1))
    return {"meeting5": float(f"{rec['meeting']}.txt" in docs[:5]),
            "hit5": float(any(p in gold for p in passages[:5])),
            "cover5": len(held) / len(wanted) if wanted else 0.0}


def paired(a: list[float], b: list[float], seed: int = 0) -> tuple[float, int, int, float, float]:
    """Mean of b − a, queries won / lost, and the 95 % paired bootstrap interval of the mean."""
    d = [y - x for x, y in zip(a, b, strict=True)]
    rng = random.Random(seed)
    means = sorted(sum(rng.choice(d) for _ in d) / len(d) for _ in range(2000))
    return statistics.fmean(d), sum(x > 0 for x in d), sum(x < 0 for x in d), means[49], means[1949]


# ---------------------------------------------------------------- run

def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """`NAME=key:value,key:value` (SearchConfig fields) → (NAME, overrides): agent_passages' reading, NAME "base" when
    none is given."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from agent_passages import parse_variant as parse

    name, out = parse(text)
    return name or "base", out


def build_index(docs: Path, index: Path) -> None:
    """`context1 index DOCS INDEX`, as a user builds one."""
    subprocess.run([sys.executable, "-m", "context1.interfaces.cli", "index", str(docs), str(index)], check=True)


def first_search(trajectory: Any, n: int = 10) -> list[str]:
    for step in trajectory.steps:
        for obs in step.observations:
            if obs.tool == "search_corpus" and obs.chunk_ids:
                return list(obs.chunk_ids[:n])
    return []


def run(args: argparse.Namespace) -> Path:
    from context1 import SearchAgent
    from corpus_tools import Corpus

    if not args.index.exists():
        build_index(args.data / "docs", args.index)
    queries = load_queries(args.data, args.limit, args.half)
    corpus = Corpus.open(args.index)
    search_config = corpus.config.search
    records = []
    for q in queries:
        records.append({"i": q["i"], "query": q["query"], "meeting": q["meeting"], "lines": q["lines"]})
    lines_of = meeting_lines(corpus, args.data, {r["meeting"] for r in records})
    corpus.close()
    for rec in records:
        rec["gold"] = gold_of(lines_of[rec["meeting"]], relevant(rec["lines"]))
    variants = [parse_variant(v) for v in args.variant] or [("base", {})]
    for label, overrides in variants:
        corpus = Corpus.open(args.index, search=dataclasses.replace(search_config, **overrides))
        agent = None if args.no_agent else SearchAgent(corpus)
        for n, rec in enumerate(records, 1):
            t0 = time.perf_counter()
            hits = corpus.search(rec["query"], k=50, constraints="auto")
            rec[f"search@{label}"] = {"passages": [h.chunk.chunk_id for h in hits[:10]],
                                      "docs": list(dict.fromkeys(h.chunk.doc_id for h in hits))[:10],
                                      "s": round(time.perf_counter() - t0, 3)}
            t0 = time.perf_counter()
            scoped = corpus.search(rec["query"], k=10, constraints="auto", where={"doc_id": f"{rec['meeting']}.txt"})
            rec[f"scoped@{label}"] = {"passages": [h.chunk.chunk_id for h in scoped],
                                      "docs": [f"{rec['meeting']}.txt"], "s": round(time.perf_counter() - t0, 3)}
            if agent is not None:
                t0 = time.perf_counter()
                result = agent.run(rec["query"])
                first = first_search(result.trajectory)
                rec[f"agent@{label}"] = {"passages": [e.chunk_id for e in result.evidence][:10],
                                         "docs": list(result.doc_ids)[:10], "s": round(time.perf_counter() - t0, 3)}
                rec[f"first@{label}"] = {"passages": first, "docs": list(dict.fromkeys(c.rpartition("#")[0]
                                                                                       for c in first))[:10], "s": 0.0}
            if n % 50 == 0 or n == len(records):
                print(f"[{label} {n}/{len(records)}]", file=sys.stderr, flush=True)
        corpus.close()
        path = write(args.out, args.label, records, lines_of)  # after each variant: a long run's part is kept
    return path


def write(out: Path, label: str, records: list[dict[str, Any]], lines_of: dict[str, Any]) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{label}.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for rec in records:
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    (out / f"{label}.lines.json").write_text(json.dumps(lines_of), encoding="utf-8")
    return path


def meeting_lines(corpus: Any, data: Path, meetings: set[str]) -> dict[str, dict[str, tuple[int, int]]]:
    out = {}
    for meeting in sorted(meetings):
        doc_id = f"{meeting}.txt"
        text = (data / "docs" / doc_id).read_text(encoding="utf-8")
        out[meeting] = chunk_lines(corpus, doc_id, text)
    return out


# ---------------------------------------------------------------- tables

def kind_of(meeting: str) -> str:
    """QMSum's meeting kinds: AMI product design (ES/IS/TS), ICSI research (B…), parliamentary committees."""
    if meeting.startswith(("ES", "IS", "TS")):
        return "AMI"
    if meeting.startswith("B"):
        return "ICSI"
    return "committee"


def table(path: Path) -> str:
    records = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    lines_of = {m: {c: tuple(v) for c, v in d.items()}
                for m, d in json.loads(path.with_suffix(".lines.json").read_text(encoding="utf-8")).items()}
    keys = [k for k in records[0] if "@" in k]
    labels = list(dict.fromkeys(k.split("@", 1)[1] for k in keys))
    out = [f"{path.stem}: {len(records)} queries over {len({r['meeting'] for r in records})} meetings; "
           f"gold chunks per query median {statistics.median(len(r['gold']) for r in records):g}", "",
           "| ranking | queries | meeting@5 | hit@5 | cover@5 | meeting@5 Δ [95 %] won/lost | hit@5 Δ [95 %] won/lost "
           "| cover@5 Δ [95 %] won/lost |", "|---|--:|--:|--:|--:|---|---|---|"]
    subsets = [("all", records)] + [(k, [r for r in records if kind_of(r["meeting"]) == k])
                                    for k in ("AMI", "ICSI", "committee")]
    for name, subset in subsets:
        if not subset:
            continue
        for ranking in RANKINGS:
            for label in labels:
                key = f"{ranking}@{label}"
                if key not in subset[0]:
                    continue
                rows = [score(r[key]["passages"], r[key]["docs"], r, lines_of[r["meeting"]]) for r in subset]
                cells = []
                base_key = f"{ranking}@{labels[0]}"
                if label != labels[0]:
                    base = [score(r[base_key]["passages"], r[base_key]["docs"], r, lines_of[r["meeting"]]) for r in subset]
                    for m in METRICS:
                        d, won, lost, lo, hi = paired([b[m] for b in base], [x[m] for x in rows])
                        cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}")
                else:
                    cells = ["", "", ""]
                means = [statistics.fmean(x[m] for x in rows) for m in METRICS]
                out.append(f"| {key} ({name}) | {len(subset)} | " + " | ".join(f"{v:.3f}" for v in means)
                           + " | " + " | ".join(cells) + " |")
    # issue 34's never-worse rule: the agent's top 5 against its own first search's, per label
    out += ["", "| agent vs its first search | hit@5 won/lost | cover@5 Δ won/lost |", "|---|---|---|"]
    for label in labels:
        if f"agent@{label}" not in records[0]:
            continue
        a = [score(r[f"agent@{label}"]["passages"], r[f"agent@{label}"]["docs"], r, lines_of[r["meeting"]]) for r in records]
        f = [score(r[f"first@{label}"]["passages"], r[f"first@{label}"]["docs"], r, lines_of[r["meeting"]]) for r in records]
        _, wh, lh, _, _ = paired([x["hit5"] for x in f], [x["hit5"] for x in a])
        dc, wc, lc, _, _ = paired([x["cover5"] for x in f], [x["cover5"] for x in a])
        out.append(f"| {label} | {wh}/{lh} | {dc:+.3f} {wc}/{lc} |")
    secs = {k: statistics.median(r[k]["s"] for r in records) for k in keys if not k.startswith("first")}
    out += ["", "seconds per query (median): " + ", ".join(f"{k} {v:.2f}" for k, v in secs.items())]
    return "\n".join(out)


# ---------------------------------------------------------------- trace

def trace(path: Path, data: Path, index: Path, label: str) -> str:
    """Why the `label` variant's one search misses (hit@5 = 0), counted: the wrong meeting (where the right one
    ranks; a sibling of its AMI series a–d; the meeting kind), or the right meeting and the wrong place (found when
    the search is scoped to the meeting? a neighbour of a gold chunk?); the question naming a speaker (as
    `speakers` reads names today, and as people); backchannel turns in the passages shown and in the gold."""
    from corpus_tools import Corpus
    from corpus_tools.speakers import backchannel_share, line_speakers, named_speakers

    records = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    corpus = Corpus.open(index)
    texts, position = {}, {}
    for doc_id in corpus.doc_ids():
        for c in corpus.chunks(doc_id):
            texts[c.chunk_id], position[c.chunk_id] = c.text, c.position
    speakers: dict[str, set[str]] = {}
    for doc_id in corpus.doc_ids():
        said: set[str] = set()
        for c in corpus.chunks(doc_id):
            said |= set(line_speakers(c.text, labels=True))
        speakers[doc_id.removesuffix(".txt")] = said
    corpus.close()
    key, scoped = f"search@{label}", f"scoped@{label}"
    counts: dict[str, int] = {}
    shares: dict[str, list[float]] = {"top-5 passages of a miss": [], "gold chunks": []}

    def add(name: str) -> None:
        counts[name] = counts.get(name, 0) + 1

    for r in records:
        gold = set(r["gold"])
        top = r[key]["passages"][:5]
        docs = [d.removesuffix(".txt") for d in r[key]["docs"]]
        top_docs = [c.rpartition("#")[0].removesuffix(".txt") for c in top]
        meeting, kind = r["meeting"], kind_of(r["meeting"])
        base_named = named_speakers(r["query"], speakers[meeting])
        people = named_speakers(r["query"], speakers[meeting], people=True)
        add("queries")
        add(f"queries: {kind}")
        if base_named:
            add("names a speaker of its meeting (as read today)")
        if people - base_named:
            add("names a speaker only as people are read (speaker_names)")
        shares["gold chunks"] += [backchannel_share(texts[c], True) for c in r["gold"] if c in texts]
        if gold & set(top):
            continue
        add("MISS hit@5")
        add(f"MISS: {kind}")
        shares["top-5 passages of a miss"] += [backchannel_share(texts[c], True) for c in top if c in texts]
        if meeting not in top_docs:
            add("  wrong meeting (no top-5 passage of it)")
            rank = docs.index(meeting) + 1 if meeting in docs else 0
            add("    its meeting among the first 10 documents" if rank else "    its meeting not in the first 10 documents")
            if kind == "AMI" and any(d != meeting and d[:-1] == meeting[:-1] for d in top_docs):
                add("    AMI: a sibling of its series a-d in the top 5")
            if kind == "AMI" and all(kind_of(d) == "AMI" for d in top_docs):
                add("    AMI: only other product-design meetings in the top 5")
            if kind == "committee":
                add("    committee")
            if kind == "ICSI":
                add("    ICSI")
        else:
            add("  right meeting, wrong place")
            if any(c in gold for c in r[scoped]["passages"][:5]):
                add("    scoped to its meeting, a gold chunk is in the top 5")
            near = {position[c] for c in gold if c in position}
            if any(c.rpartition("#")[0].removesuffix(".txt") == meeting and c in position
                   and (position[c] - 1 in near or position[c] + 1 in near) for c in top):
                add("    a top-5 passage is a neighbour of a gold chunk")
        if base_named:
            add("  miss naming a speaker (as read today)")
        if people - base_named:
            add("  miss naming a speaker only as people are read")
    out = ["| trace (one search, " + label + ") | queries |", "|---|--:|"]
    out += [f"| {k} | {counts[k]} |" for k in sorted(counts, key=_trace_order)]
    out += ["", "| backchannel turns' share (mean) | chunks | share |", "|---|--:|--:|"]
    out += [f"| {k} | {len(v)} | {statistics.fmean(v) if v else 0:.3f} |" for k, v in shares.items()]
    return "\n".join(out)


_ORDER = ["queries", "queries: AMI", "queries: ICSI", "queries: committee", "names a speaker of its meeting (as read today)",
          "names a speaker only as people are read (speaker_names)", "MISS hit@5", "MISS: AMI", "MISS: ICSI",
          "MISS: committee", "  wrong meeting (no top-5 passage of it)", "    its meeting among the first 10 documents",
          "    its meeting not in the first 10 documents", "    AMI: only other product-design meetings in the top 5",
          "    AMI: a sibling of its series a-d in the top 5", "    ICSI", "    committee", "  right meeting, wrong place",
          "    scoped to its meeting, a gold chunk is in the top 5", "    a top-5 passage is a neighbour of a gold chunk",
          "  miss naming a speaker (as read today)", "  miss naming a speaker only as people are read"]


def _trace_order(key: str) -> int:
    return _ORDER.index(key) if key in _ORDER else len(_ORDER)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("export", help="export a QMSum split from the mirror as a user's folder")
    ex.add_argument("split", choices=["train", "val", "test"])
    ex.add_argument("out", type=Path)
    ex.add_argument("--repo", type=Path, default=REPO)
    for name in ("run", "table", "trace"):
        p = sub.add_parser(name)
        p.add_argument("--data", type=Path, required=True)
        p.add_argument("--index", type=Path, required=True, help="built here with `context1 index DATA/docs` if absent")
        p.add_argument("--out", type=Path, required=True)
        p.add_argument("--label", default="run")
        if name == "run":
            p.add_argument("--variant", action="append", default=[],
                           help="NAME=key:value,... SearchConfig overrides; the first is the base (default: base=)")
            p.add_argument("--limit", type=int, default=None)
            p.add_argument("--half", type=int, choices=[1, 2], default=None)
            p.add_argument("--no-agent", action="store_true", help="one search only (minutes, not an hour)")
        if name == "trace":
            p.add_argument("--base", default="base", help="the variant label whose one search is traced")
    args = ap.parse_args(argv)
    if args.cmd == "export":
        meetings, queries = export(args.split, args.out, args.repo)
        print(f"{args.split}: {meetings} meetings, {queries} queries -> {args.out}")
        return
    path = args.out / f"{args.label}.jsonl"
    if args.cmd == "run":
        path = run(args)
    elif not path.exists():
        raise SystemExit(f"no run at {path}")
    if args.cmd == "trace":
        print(trace(path, args.data, args.index, args.base))
        return
    print(table(path))


if __name__ == "__main__":
    main()
