"""Earnings calls searched as an analyst searches them: does the passage stating a call's figure reach the top 5?

    # tuning (the settings are chosen on it): an index read as base reads (--no-calls) and one read as now
    context1 index --no-calls $DATA/docs $BASE ; context1 index $DATA/docs $INDEX
    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/earnings_calls.py --data $DATA --index $INDEX --base-index $BASE \
        --part tune --label run [--agent-limit 200] [--no-agent]
    # the reporting part, run once by the lead: the same with DATA=/work/data46/ect/ect-report and --part report

Data: ECTSum (rajdeep345/ECTSum 6909f1f) as its folders lie: DATA/docs/TICKER_qN_YYYY.txt (a call, one sentence a
line, speakers removed by ECTSum) and DATA/gt_summaries/<same name> (the reference summary, Reuters-style lines
written from the call: "q3 adjusted earnings per share $2.05 excluding items.").

The query rule (one line → what an analyst types), deterministic and never read from the system under test:
    "<TICKER> Q<n> <YYYY> " + the line with its figures removed
The ticker, quarter and year come from the file name (the analyst knows which company and quarter they ask about;
ECTSum states no company name, and a name read by our own reader would not be gold). "Its figures removed": every
amount, percentage and number with its scale word ("$1.2 billion", "11.1 percent", "30 bps") is cut, as is ECTSum's
mask "compname"; quarter labels ("q3") and years stay. "q1 revenue rose 11.1 percent to $481.1 million." from
AAN_q1_2021.txt asks "AAN Q1 2021 q1 revenue rose to".

Figures: `benchmarks/filings_passages.answer_figures` (numbers with two digits, a decimal point or a percent; years,
quarter labels and dates are not figures; "$3.1 billion" and "3.1 billion" are "3.1", "10%" and "10 percent" are
"10%"). A line without figures is not asked (counted). Gold: the chunks of the line's own call that each hold at
least half of the line's figures; a line whose figures no chunk of its call states (an analyst's estimate, a figure
the summary computed, a figure in a slide) is dropped and counted.

Per line and ranking, over the ranking's first 5 passages:
  - figures@5: a passage of the line's own call holding at least half of its figures (issue 34's measure, the call
    being the right company and quarter);
  - any@5: the union of the 5 passages' texts holding half of the figures, whatever call they come from;
  - call@5: the line's call among the 5 passages' documents.
Rankings: `base` = one search on BASE (an index built with --no-calls: base's reading, no call identity), then one
search on INDEX with constraints off and with `constraints="auto"` (under each --call-figureless-weight, the
figure prior on a narrowed search of calls: `SearchConfig.call_figureless_weight`), and the LLM-free agent (`SearchAgent(corpus)
.run(query)`, its `SearchResult.evidence`) on BASE and on INDEX (over --agent-limit lines evenly spaced). Each row
is compared with `base` (the agents with the agent on BASE): mean difference, its 95 % paired bootstrap interval
and lines won / lost. Per-line JSONL under benchmarks/out/earnings_calls/.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from filings_passages import answer_figures, holds_figures  # noqa: E402
from transcripts import paired  # noqa: E402

OUT = Path(__file__).resolve().parent / "out" / "earnings_calls"
_FILE = re.compile(r"^(?P<ticker>[A-Za-z][A-Za-z0-9.]{0,6})_q(?P<q>[1-4])_(?P<y>\d{4})$", re.IGNORECASE)
# An amount, a percentage or a count with what scales it: cut from the line to make the query.
_FIGURE = re.compile(
    r"(?<![\w.])(?:rs\.?\s*|us)?\$?\(?\d[\d,]*(?:\.\d+)?\)?(?:\s*(?:%|percent\b|pct\b|bps\b|basis\s+points\b|"
    r"billion\b|million\b|thousand\b|bln\b|mln\b|bn\b|mn\b|b\b|m\b|k\b|x\b))?",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?:19|20)\d\d")
METRICS = ("fig5", "any5", "call5")


def query_of(line: str, ticker: str, quarter: int, year: int) -> str:
    """The query an analyst types for one summary line (the rule in the module docstring)."""
    text = re.sub(r"\bcompname\b", " ", line, flags=re.IGNORECASE)
    text = _FIGURE.sub(lambda m: m.group(0) if _YEAR.fullmatch(m.group(0)) else " ", text)
    text = re.sub(r"\s+([,.;:)])", r"\1", " ".join(text.split()))
    text = re.sub(r"(?:\s*[,.;:-]\s*)+$", "", re.sub(r"\(\s*\)", "", text)).strip()
    return f"{ticker.upper()} Q{quarter} {year} {text}".strip()


def load_lines(data: Path, corpus: Any) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The lines asked, with their gold chunk ids (read from `corpus`, the base index), and the counts dropped."""
    lines, dropped = [], {"no figure": 0, "figures the call never states": 0, "call not in the index": 0}
    for path in sorted((data / "gt_summaries").glob("*.txt")):
        m = _FILE.match(path.stem)
        if not m:
            continue
        doc_id = path.name
        chunks = corpus.chunks(doc_id) if corpus.has_doc(doc_id) else []
        for n, line in enumerate(x.strip() for x in path.read_text(encoding="utf-8", errors="replace").splitlines()):
            if not line:
                continue
            figures = answer_figures(line)
            if not figures:
                dropped["no figure"] += 1
                continue
            if not chunks:
                dropped["call not in the index"] += 1
                continue
            gold = [c.chunk_id for c in chunks if holds_figures(figures, [c.text])]
            if not gold:
                dropped["figures the call never states"] += 1
                continue
            lines.append({"id": f"{path.stem}:{n}", "doc_id": doc_id, "line": line, "figures": sorted(figures),
                          "query": query_of(line, m["ticker"], int(m["q"]), int(m["y"])), "gold": gold})
    return lines, dropped


def score(rec: dict[str, Any], passages: list[tuple[str, str]]) -> dict[str, float]:
    """passages: (doc id, text) of a ranking's first 5."""
    figures = set(rec["figures"])
    own = [text for doc, text in passages if doc == rec["doc_id"]]
    return {"fig5": float(any(holds_figures(figures, [t]) for t in own)),
            "any5": float(holds_figures(figures, [t for _, t in passages])),
            "call5": float(rec["doc_id"] in {doc for doc, _ in passages})}


def run(args: argparse.Namespace) -> Path:
    import dataclasses

    from context1 import SearchAgent
    from corpus_tools import Corpus

    base = Corpus.open(args.base_index)
    lines, dropped = load_lines(args.data, base)
    if args.limit:
        lines = [lines[i * len(lines) // args.limit] for i in range(min(args.limit, len(lines)))]
    agent_every = max(1, len(lines) // args.agent_limit) if args.agent_limit and not args.no_agent else 0
    weights = args.call_figureless_weight
    opened = Corpus.open(args.index)
    search = opened.config.search
    opened.close()
    if weights is None:
        weights = [search.call_figureless_weight]
    corpora = {w: Corpus.open(args.index, search=dataclasses.replace(search, call_figureless_weight=w)) for w in weights}
    first = corpora[weights[0]]
    searches = [("base", base, {}), ("search", first, {})]
    searches += [(f"search auto{_tag(w, weights)}", c, {"constraints": "auto"}) for w, c in corpora.items()]
    agents = {} if args.no_agent else {"agent base": SearchAgent(base),
                                       **{f"agent{_tag(w, weights)}": SearchAgent(c) for w, c in corpora.items()}}
    for n, rec in enumerate(lines):
        for key, index, kwargs in searches:
            t0 = time.perf_counter()
            hits = index.search(rec["query"], k=5, **kwargs)
            rec[key] = {"passages": [[h.chunk.doc_id, h.chunk.text] for h in hits[:5]], "s": time.perf_counter() - t0}
        if agent_every and n % agent_every == 0 and n // agent_every < args.agent_limit:
            for key, agent in agents.items():
                t0 = time.perf_counter()
                result = agent.run(rec["query"])
                rec[key] = {"passages": [[e.doc_id, e.text] for e in list(result.evidence)[:5]],
                            "s": time.perf_counter() - t0}
        print(f"[{args.part} {n + 1}/{len(lines)}]", file=sys.stderr, flush=True)
    base.close()
    for c in corpora.values():
        c.close()
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{args.part}-{args.label}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"dropped": dropped, "data": str(args.data), "index": str(args.index),
                              "base_index": str(args.base_index), "call_figureless_weight": weights}) + "\n")
        for rec in lines:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return path


def _tag(weight: float, weights: list[float]) -> str:
    """" w=3" in a ranking's name when several call_figureless_weight values run, else ""."""
    return f" w={weight:g}" if len(weights) > 1 else ""


def table(path: Path) -> str:
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    head, records = rows[0], rows[1:]
    rankings = [k for k in records[0] if isinstance(records[0][k], dict) and "passages" in records[0][k]]
    rankings += [k for r in records for k in r if k.startswith("agent") and k not in rankings]
    rankings = list(dict.fromkeys(rankings))
    asked = len(records)
    lines = [f"ECTSum {path.stem} ({head['data']}): {asked} lines asked from {len({r['doc_id'] for r in records})} "
             f"calls; dropped: " + ", ".join(f"{k} {v}" for k, v in head["dropped"].items()),
             f"gold chunks per line: median {statistics.median(len(r['gold']) for r in records):g}", "",
             "| ranking | lines | figures@5 (own call) | any@5 | call@5 | figures@5 vs reference: Δ [95 %] won/lost "
             "| call@5 Δ [95 %] won/lost | reference | s/query (median) |",
             "|---|--:|--:|--:|--:|---|---|---|--:|"]
    for key in rankings:
        ref = "agent base" if key.startswith("agent") else "base"
        subset = [r for r in records if key in r and ref in r]
        scored = [score(r, r[key]["passages"]) for r in subset]
        means = {m: statistics.fmean(s[m] for s in scored) for m in METRICS}
        cells = ["", ""]
        if key != ref:
            refs = [score(r, r[ref]["passages"]) for r in subset]
            cells = []
            for m in ("fig5", "call5"):
                d, won, lost, lo, hi = paired([x[m] for x in refs], [x[m] for x in scored])
                cells.append(f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] {won}/{lost}")
        secs = statistics.median(r[key]["s"] for r in subset)
        lines.append(f"| {key} | {len(subset)} | {means['fig5']:.3f} | {means['any5']:.3f} | {means['call5']:.3f} | "
                     f"{cells[0]} | {cells[1]} | {'' if key == ref else ref} | {secs:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("/work/data46/ect/ect-tune"),
                    help="an ECTSum part: DATA/docs and DATA/gt_summaries")
    ap.add_argument("--index", type=Path, help="the index of DATA/docs as this code reads it")
    ap.add_argument("--base-index", type=Path, help="the index of DATA/docs built with --no-calls (base's reading)")
    ap.add_argument("--part", default="tune", help="names the output file (tune / report)")
    ap.add_argument("--label", default="run", help="benchmarks/out/earnings_calls/PART-LABEL.jsonl")
    ap.add_argument("--limit", type=int, default=None, help="N lines evenly spaced (default: all)")
    ap.add_argument("--agent-limit", type=int, default=200, help="lines (evenly spaced) the agents run on")
    ap.add_argument("--no-agent", action="store_true", help="one search only (minutes, not an hour)")
    ap.add_argument("--call-figureless-weight", type=float, nargs="+", default=None,
                    help="SearchConfig.call_figureless_weight values on INDEX (default: the index's config)")
    ap.add_argument("--table-only", action="store_true", help="print the table of an earlier run of this label")
    args = ap.parse_args(argv)
    path = OUT / f"{args.part}-{args.label}.jsonl"
    if not args.table_only:
        if not (args.index and args.base_index):
            ap.error("--index and --base-index are needed to run (or --table-only)")
        path = run(args)
    elif not path.exists():
        raise SystemExit(f"no run at {path}")
    print(table(path))


if __name__ == "__main__":
    main()
