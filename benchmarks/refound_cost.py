"""What the re-found note costs (issue 34, `AgentConfig.refound`): tokens of context and corpus time.

    python benchmarks/refound_cost.py --sets hotpotqa musique locomo --part tuning --limit 40
    python benchmarks/refound_cost.py --filings /work/runs/s31/fil/filings2 --part tuning --limit 30   # the 10-Qs

Runs the default agent (the LLM-free policy) with the note on and off on the same questions (`agent_passages.py`'s
parts and indexes) and prints, per set: searches after the first per episode, chunks re-found per such search, the
note's tokens per search and per episode, its share of the final context, the chunks shown (the same in both runs
when the note changes no decision), the corpus seconds per episode and the ask seconds (p50; the two runs of a
question one after the other, so machine load hits both alike). The note's ranking comes from the search's own corpus
call (`Corpus.search_pair`, the query encoded once; session 35); session 34's code asked a second call, run it
(exported with `git archive`, PYTHONPATH at the export) to compare.
`--filings INDEX`: the docugami single-filing questions of that half (`search_policy.filings_split`) instead.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from agent_passages import questions  # noqa: E402  (the same parts)
from search_policy import filings_split  # noqa: E402  (the filings' halves)


@dataclass
class _Question:
    query: str


def filings_questions(qna: Path, docs: set[str], part: str) -> list[_Question]:
    """The single-filing questions of one half whose filing the index holds (as `agent_passages.py filings` reads them)."""
    out = []
    with qna.open(encoding="utf-8-sig", newline="") as f:
        for i, row in enumerate(csv.DictReader(f)):
            doc = row["Source Docs"].strip().strip("*") + ".pdf"
            if row["Question Type"].startswith("Single-Doc") and doc in docs and filings_split(f"q{i}") == part:
                out.append(_Question(row["Question"]))
    return out


def main() -> None:
    from context1 import AgentConfig, SearchAgent
    from context1.prompts import REFOUND_OPENING
    from corpus_tools import Corpus

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", nargs="+", default=["hotpotqa", "musique", "locomo"])
    ap.add_argument("--part", choices=["report", "tuning"], default="tuning")
    ap.add_argument("--limit", type=int, default=40)
    ap.add_argument("--index-root", type=Path, default=Path("/work/indexes"))
    ap.add_argument("--data-dir", type=Path, default=Path("/work/shared/data"))
    ap.add_argument("--filings", type=Path, default=None, metavar="INDEX", help="the filings index instead of --sets")
    ap.add_argument("--qna", type=Path, default=Path("/work/data/filings10q/qna_data.csv"))
    args = ap.parse_args()
    print("| set (part, n) | later searches / episode | re-found / later search | note tokens / later search | "
          "note tokens / episode | share of final context | same chunks shown | corpus s / episode p50 (on; off) | "
          "ask s p50 (on; off) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for name in ["filings"] if args.filings else args.sets:
        if args.filings:
            corpus = Corpus.open(args.filings)
            tasks = filings_questions(args.qna, set(corpus.doc_ids()), args.part)[: args.limit]
        else:
            corpus = Corpus.open(args.index_root / f"bench-{name}-256")
            tasks = questions(name, args.data_dir, args.part, args.limit)
        agents = {on: SearchAgent(corpus, config=AgentConfig(refound=on)) for on in (True, False)}
        later = refound = note = final = same = 0
        secs: dict[bool, list[float]] = {True: [], False: []}
        wall: dict[bool, list[float]] = {True: [], False: []}
        for task in tasks:
            shown = {}
            for on, agent in agents.items():
                t0 = time.perf_counter()
                traj = agent.run(task.query).trajectory
                wall[on].append(time.perf_counter() - t0)
                shown[on] = traj.seen_chunk_ids()
                secs[on].append(sum(t["corpus_s"] for t in traj.metadata.get("step_timings", [])))
                if not on:
                    continue
                final += traj.steps[-1].tokens_used
                obs = [o for s in traj.steps for o in s.observations if o.tool == "search_corpus"][1:]
                later += len(obs)
                for o in obs:
                    refound += len(o.metadata.get("refound", []))
                    line = next((x for x in o.text.split("\n") if x.startswith(REFOUND_OPENING)), "")
                    note += corpus.count_tokens(line) if line else 0
            same += shown[True] == shown[False]
        n = len(tasks)
        print(f"| {name} ({args.part}, {n}) | {later / n:.1f} | {refound / max(1, later):.1f} | "
              f"{note / max(1, later):.0f} | {note / n:.0f} | {note / max(1, final):.3f} | {same} / {n} | "
              f"{statistics.median(secs[True]):.2f}; {statistics.median(secs[False]):.2f} | "
              f"{statistics.median(wall[True]):.2f}; {statistics.median(wall[False]):.2f} |")
        corpus.close()


if __name__ == "__main__":
    main()
