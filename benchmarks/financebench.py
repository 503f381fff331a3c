"""FinanceBench as a second folder of real filings (issue 35): does one search, or the agent, return the evidence page?

    python benchmarks/financebench.py split [--jsonl PATH] [--docs FOLDER]     # the halves, written out
    python benchmarks/financebench.py run --index DIR --part tuning|report|tuning2 [--jsonl PATH] \
        [--constraints auto,off] [--agent] [--label L] [--out FILE.jsonl] [--search KEY=VALUE ...]

Data: patronus-ai/financebench's 150 open-source questions (`data/financebench_open_source.jsonl`,
read from --jsonl or from the bare mirror /work/.mirror/patronus-ai+financebench/repo with `git show`),
each with its filing (`doc_name`, the PDF's stem) and evidence pages (`evidence_page_num`, counted from 0;
our chunks' `page` counts from 1). A question is used when the index holds its filing. The folder
(built with `context1 index` from the PDFs, never committed) holds every filing of the companies chosen,
so a question's filing competes with the same company's other years and forms.

Split by company, never by question (a company's filings share boilerplate, names and tables): the
companies the index holds questions for, in two strata — those with a filing that is not a 10-K
(10-Q, 8-K, earnings release) and the 10-K-only ones — each sorted and shuffled with `random.Random(SEED)`;
then, the mixed stratum first, each company goes to the half with fewer questions so far. `split` prints the
halves. Choose settings on the tuning half only; the reporting half is run once per change set.

The folder measured first (session 33; /work/data/financebench/docs, 25 PDFs, 1,873 pages): every filing of
11 companies — those with a filing that is not a 10-K (Amcor, Best Buy, Foot Locker, Johnson & Johnson,
Pfizer, Ulta Beauty) and 10-K-only ones with all their filings in the mirror and at most 260 pages of them
(Activision Blizzard, Amazon, Costco, Netflix, Verizon). A first 34-file folder (3,157 pages) also held MGM
Resorts, American Express, Kraft Heinz and Microsoft; its build ran at ~47 pages a minute on the shared cores,
so those four (1,284 pages) were taken out to fit the build in ~20 minutes. Ten of the 84 question filings are not in
the mirror (git-annex/LFS gaps: Amcor's 2020 10-K, Ulta's 2023 10-K, ...): their questions are left out.
SEED 35 gives tuning = Amcor, Foot Locker, Pfizer, Ulta Beauty, Verizon (25 questions: 12 on 10-Ks, 4 10-Q,
3 8-K, 6 earnings releases); reporting = Activision Blizzard, Amazon, Best Buy, Costco, Johnson & Johnson,
Netflix (25: 16 / 3 / 3 / 3).

An extra tuning part, `tuning2` (session 34, for 8-Ks and earnings releases): the companies in
EXTRA_TUNING, none of the 11 above, are never dealt to a half; their questions are a tuning part of
their own, so the two halves of any index stay exactly as they were. The companies hold every 8-K and
earnings-release question of FinanceBench outside the 11 (MGM Resorts' fourth-quarter 2022 release,
PepsiCo's two 2023 8-Ks and first-quarter 2023 release: 8 questions) and one 10-K question. The folder
built for it (22 PDFs, ~600 pages, its own index; 3.5-7 min at nice 15), from the mirror's pdfs/:
MGMRESORTS_2022_10K, 2022Q4_EARNINGS, 2023_8K_dated-2023-03-01 and -09-12; PEPSICO_2022Q4, 2023Q1 and 2023Q2_EARNINGS,
2023_8K_dated-2023-05-05 and -05-30; and, read for their structure only (no question is held on them),
MCDONALDS_2022Q4/2023Q1/2023Q2_EARNINGS and 8K_dated-2023-01-06/-02-13/-08-14, EBAY_2023Q1/Q2_8K and
_EARNINGS, SALESFORCE_2021_8K_dated-2021-07-21 and -2023-01-04, LOCKHEEDMARTIN_2023_8K_dated-2023-08-24.

Per question and ranking (one `Corpus.search(question, k=50, constraints=...)` per setting; with --agent,
the LLM-free agent's `result.evidence`, as benchmarks/filings_passages.py runs it):
  evidence page @k   a passage of the question's filing whose page is an evidence page is in the top k
  right doc @k       a passage of the question's filing is in the top k
  figures @5         at least half of the answer's figures are in the top 5 passages' text, under
                     benchmarks/agent_passages.py's strict rule (a form's "10" is no figure); answers
                     with figures only (FinanceBench answers are often computed: "$1577.00", "0.66")
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from agent_passages import figures, figures_found  # noqa: E402  (the strict figure rule, shared)
from filings_passages import make_agent  # noqa: E402  (the agent as the filings benchmark runs it)

MIRROR = Path("/work/.mirror/patronus-ai+financebench/repo")
QUESTIONS = "data/financebench_open_source.jsonl"
SEED = 35
# Companies whose questions form the extra tuning part `tuning2`, outside the halves (module docstring).
EXTRA_TUNING = frozenset({"MGM Resorts", "PepsiCo"})
PARTS = ("tuning", "report", "tuning2")
KS = (1, 5, 10, 50)


def load_jsonl(path: Path | None = None) -> list[dict[str, Any]]:
    """FinanceBench's questions from `path`, else from the mirror (a clear error when neither is there)."""
    if path is not None:
        text = path.read_text(encoding="utf-8")
    elif MIRROR.exists():
        text = subprocess.run(["git", f"--git-dir={MIRROR}", "show", f"HEAD:{QUESTIONS}"], check=True,
                              capture_output=True, text=True).stdout
    else:
        raise SystemExit(f"no FinanceBench questions: pass --jsonl PATH (the mirror {MIRROR} is not here)")
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    for row in rows:
        missing = {"company", "doc_name", "question", "answer", "evidence"} - set(row)
        if missing:
            raise SystemExit(f"{row.get('financebench_id', '?')}: not a FinanceBench row (missing {sorted(missing)})")
    return rows


def _form(doc_name: str) -> str:
    """The form a FinanceBench doc name says: "AMCOR_2023Q2_10Q" → 10Q, "..._8K_dated-..." → 8K."""
    for form in ("10Q", "8K", "EARNINGS", "10K"):
        if f"_{form}" in doc_name.upper():
            return form
    return "?"


def split_companies(rows: list[dict[str, Any]], seed: int = SEED) -> dict[str, str]:
    """company → "tuning" | "report" (module docstring): two strata, each shuffled and dealt alternately."""
    forms: dict[str, set[str]] = {}
    count: dict[str, int] = {}
    for row in rows:
        forms.setdefault(row["company"], set()).add(_form(row["doc_name"]))
        count[row["company"]] = count.get(row["company"], 0) + 1
    mixed = sorted(c for c, f in forms.items() if f - {"10K"})
    annual = sorted(c for c, f in forms.items() if not f - {"10K"})
    rng = random.Random(seed)
    rng.shuffle(mixed)
    rng.shuffle(annual)
    halves: dict[str, str] = {}
    size = {"tuning": 0, "report": 0}
    for c in mixed + annual:  # each company to the half with fewer questions so far (a tie: tuning)
        part = min(size, key=lambda p: (size[p], p != "tuning"))
        halves[c] = part
        size[part] += count[c]
    return halves


def held_questions(rows: list[dict[str, Any]], doc_ids: list[str]) -> list[dict[str, Any]]:
    """The questions whose filing the index holds, with the doc id, evidence pages (1-based) and part: the
    half of the split, or tuning2 for the companies of EXTRA_TUNING (never dealt, so the halves stay as they were)."""
    by_stem = {Path(d).stem: d for d in doc_ids}
    held = [r for r in rows if r["doc_name"] in by_stem]
    halves = split_companies([r for r in held if r["company"] not in EXTRA_TUNING])
    halves.update({c: "tuning2" for c in EXTRA_TUNING})
    out = []
    for r in held:
        pages = sorted({int(e["evidence_page_num"]) + 1 for e in r["evidence"] if e.get("doc_name", r["doc_name"])
                        == r["doc_name"]})
        out.append({"id": r["financebench_id"], "company": r["company"], "question": r["question"],
                    "answer": r["answer"], "doc": by_stem[r["doc_name"]], "form": _form(r["doc_name"]),
                    "pages": pages, "figures": figures(r["answer"], strict=True), "part": halves[r["company"]]})
    return out


def score(q: dict[str, Any], passages: list[tuple[str, int | None, str]]) -> dict[str, Any]:
    """One ranking's row: passages are (doc_id, page, text), best first."""
    row: dict[str, Any] = {}
    for k in KS:
        top = passages[:k]
        row[f"page@{k}"] = any(d == q["doc"] and p in q["pages"] for d, p, _ in top)
        row[f"doc@{k}"] = any(d == q["doc"] for d, _, _ in top)
    if q["figures"]:
        row["fig@5"] = bool(figures_found([t for _, _, t in passages[:5]], q["figures"], strict=True))
    return row


def _page(meta: dict[str, Any]) -> int | None:
    page = meta.get("page")
    return page if isinstance(page, int) else None


def run(args: argparse.Namespace) -> None:
    from corpus_tools import Corpus

    corpus = Corpus.open(args.index)
    if args.search:  # one lever's share: e.g. --search aside_section_weight=0
        import dataclasses

        defaults = corpus.config.search
        try:
            changes = {k: type(getattr(defaults, k))(json.loads(v)) for k, v in (kv.split("=", 1) for kv in args.search)}
            corpus.config = dataclasses.replace(corpus.config, search=dataclasses.replace(defaults, **changes))
        except (AttributeError, ValueError, TypeError) as err:
            raise SystemExit(f"--search {' '.join(args.search)}: {err}") from err
    chosen = [q for q in held_questions(load_jsonl(args.jsonl), corpus.doc_ids()) if q["part"] == args.part]
    if not chosen:
        raise SystemExit(f"{args.index} holds no filing of a {args.part}-half question")
    settings = [s for s in args.constraints.split(",") if s]
    agent = make_agent(corpus, "auto") if args.agent else None
    if agent is not None and args.refound == "off":  # agreement between searches (AgentConfig.refound) off
        import dataclasses

        from context1 import SearchAgent

        agent = SearchAgent(corpus, config=dataclasses.replace(agent.config, refound=False))
    rows = []
    started = time.perf_counter()
    for q in chosen:
        row: dict[str, Any] = {"id": q["id"], "company": q["company"], "form": q["form"], "doc": q["doc"],
                               "pages": q["pages"], "figures": q["figures"]}
        for setting in settings:
            kwargs = {"constraints": "auto"} if setting == "auto" else {}
            hits = corpus.search(q["question"], k=max(KS), **kwargs)
            passages = [(h.chunk.doc_id, _page(h.chunk.metadata), h.chunk.text) for h in hits]
            row[setting] = score(q, passages)
            row[setting]["top5"] = [[d, p] for d, p, _ in passages[:5]]
        if "auto" in settings:
            row["constraints"] = corpus.question_constraints(q["question"])
        if agent is not None:
            evidence = list(getattr(agent.run(q["question"]), "evidence", []) or [])
            row["agent"] = score(q, [(e.doc_id, e.page, e.text) for e in evidence])
            row["agent"]["top5"] = [[e.doc_id, e.page] for e in evidence[:5]]
        rows.append(row)
    seconds = time.perf_counter() - started
    print(f"index {args.index} · {args.part} half · {len(rows)} questions "
          f"({sum(q['form'] == '10K' for q in chosen)} on 10-Ks; {sum(bool(q['figures']) for q in chosen)} with "
          f"figures) · companies {', '.join(sorted({q['company'] for q in chosen}))} · {seconds:.0f} s\n")
    print(table(rows, settings + (["agent"] if agent is not None else [])))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    corpus.close()


NAMES = {"auto": "one search, constraints auto", "off": "one search, constraints off", "agent": "agent"}


def table(rows: list[dict[str, Any]], rankings: list[str]) -> str:
    keys = [f"page@{k}" for k in KS] + ["fig@5"] + [f"doc@{k}" for k in (1, 5, 10)]
    lines = ["| ranking | " + " | ".join(keys) + " |", "|---|" + "---:|" * len(keys)]
    for name in rankings:
        cells = []
        for key in keys:
            scored = [r[name][key] for r in rows if key in r[name]]
            cells.append(f"{sum(scored) / len(scored):.3f}" if scored else "-")
        lines.append(f"| {NAMES.get(name, name)} | " + " | ".join(cells) + " |")
    n_fig = sum(1 for r in rows if r["figures"])
    lines.append(f"\n(n = {len(rows)}; fig@5 over the {n_fig} answers with figures)")
    return "\n".join(lines)


def split_table(args: argparse.Namespace) -> None:
    rows = load_jsonl(args.jsonl)
    if args.docs is not None:
        stems = [p.stem for p in args.docs.iterdir()]
        questions = held_questions(rows, stems)
    else:
        questions = held_questions(rows, [r["doc_name"] for r in rows])
        # the halves are dealt over the questions whose filings are held, so they depend on the folder
        print("(dealt over all 150 questions; `run` deals over the filings its index holds: pass --docs FOLDER "
              "to print the halves a run on that folder uses)")
    halves = {part: [q for q in questions if q["part"] == part] for part in PARTS}
    print("\n".join(
        f"{part}: {len(qs)} questions "
        f"{ {f: sum(q['form'] == f for q in qs) for f in ('10K', '10Q', '8K', 'EARNINGS')} }; "
        f"companies: {', '.join(sorted({q['company'] for q in qs}))}" for part, qs in halves.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("split", help="print the tuning and reporting halves")
    sp.add_argument("--jsonl", type=Path, default=None)
    sp.add_argument("--docs", type=Path, default=None, help="the folder of PDFs (default: every question's filing)")
    rp = sub.add_parser("run", help="score one half on an index")
    rp.add_argument("--index", type=Path, required=True)
    rp.add_argument("--part", choices=PARTS, required=True)
    rp.add_argument("--jsonl", type=Path, default=None)
    rp.add_argument("--constraints", default="auto,off", help="comma list of one-search settings: auto, off")
    rp.add_argument("--agent", action="store_true", help="also run the LLM-free agent and read its evidence")
    rp.add_argument("--refound", choices=("on", "off"), default="on", help="the agent records the shown chunks later "
                    "searches match again (AgentConfig.refound, on by default), and its answer weighs that agreement")
    rp.add_argument("--out", type=Path, default=None, help="per-question JSONL")
    rp.add_argument("--search", nargs="*", default=[], metavar="KEY=VALUE",
                    help="override SearchConfig fields (JSON values), e.g. aside_section_weight=0")
    args = parser.parse_args()
    if args.command == "split":
        split_table(args)
    else:
        if not set(args.constraints.split(",")) <= {"auto", "off", ""}:
            parser.error("--constraints takes auto, off or both (comma-separated)")
        run(args)


if __name__ == "__main__":
    main()
