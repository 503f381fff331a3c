"""Issues 34/35's passage metric on docugami's 10-Qs: does what a search returns hold the answer's figures?

    python benchmarks/filings_passages.py --index DIR [--constraints off|auto] [--agent] [--split all|tuning|report] \
        [--line-items both|names|expand|off] [--line-item-rows N]   # the line-item vocabulary's levers (issue 35)
        [--prose-beside-tables on|off]   # the prose slot beside repeated table pieces (corpus_tools.table_pieces)
        [--aside-section-weight W]   # risk factors, exhibits … placed lower (corpus_tools.section_prior; 0 = off)
        [--figureless-weight W]   # passages stating no figure placed lower (corpus_tools.figure_prior; 0 = off)
        [--continue-figures on|off]   # a figure-less hit gives its place to its neighbour stating figures
        [--named-sections on|off]   # the section whose heading the question names shown in three of the top 5
        [--units on]   # a figure stated in billions also held in a table's millions (see below)
    python benchmarks/filings_passages.py --index DIR --reranker FUSION   # a fitted fusion in place of RRF
    python benchmarks/filings_passages.py --build-file-name-index DIR [--docs FOLDER]   # provisional, see below

Questions: the rows of qna_data.csv of type "Single-Doc Single-Chunk RAG" whose Source Docs name one
filing ("*2023 Q3 AAPL*") and whose reference Answer carries figures: 59 of the 76 (issue 35 counts
59). Ids are "q{row}" as benchmarks/filings.py writes them, split into tuning/reporting halves by
benchmarks/search_policy.py:filings_split (SHA-1 of the id).

The figure rule (`answer_figures`): from the answer before its "SOURCE(S):" line, drop form codes
("10-Q"), quarter labels ("Q3"), page references ("page 51"), list enumerators ("1. ") and dates
("July 1, 2023", "June 2023"); then every number with at least two digits, a decimal point or a
percent sign is a figure, except a bare year (19xx/20xx). "$36,413 million" gives "36413", "25.93%"
gives "25.93%" (commas dropped, a percent kept). Figures are compared as a set. A passage text
holds a number when the same normalised string occurs in it ("36,413" → "36413"; "3 %" and
"3 percent" also give "3%"). A question counts when at least half of its distinct figures occur in
the union of the passages' texts (the chunk text a reader sees; the contextual header is not text).

`--units on` (session 34; off by default, so earlier figures stay comparable) also reads a figure stated with a
scale word in a table's units: an answer's "$23.198 billion" or "$7.7 billion" is held by a passage number written
with thousands separators that, read in millions (or thousands), rounds to it at the answer's own precision
("23,198", "7,730" → 7.7); a "$510 million" by "510,000" in thousands. Only figures with a decimal point are read so
(a bare "$2 billion" would take any number from 1,500 to 2,499), and only grouped numbers ("7,730", never a year
"2023"). Why: answers round a statement's millions into billions ("$36.4 billion" for "36,413"), and the plain rule
counted the table holding the figure as a miss. Applied the same way to every ranking it scores; figures measured
without it are the rule above.

`--answers phrase` adds the questions of that type whose answer has no figures (17 of the 76): one passage must
hold at least half of the answer's content words that the question does not hold (benchmarks/agent_passages.py's
phrase rule, `phrase_found`; answers left with fewer than 3 such words are not scored); figure answers keep the
figure rule above.

Rows of one search (`Corpus.search(question, k=50)`, with `constraints=` when --constraints auto):
figures in the top 1/5/10/50; in the top 5 of the gold filing's own chunks (`where={"doc_id": gold}`);
anywhere in the gold filing (the ceiling: every chunk of it); and the gold filing among the top 5
passages' documents. --agent adds the rows of `SearchAgent(corpus).run(question)` (the LLM-free
policy), reading `result.evidence`'s top 5 passages (an empty evidence list, as on code before issue
34, counts as no figures) and the gold filing among the evidence's documents (else `doc_ids`).

Provisional metadata (until the document half of issue 35 reads company and period from the cover
page): --build-file-name-index builds an index of the folder with the *file name's* metadata put on
each document ("2023 Q3 AAPL.pdf" → ticker AAPL, company "Apple Inc.", form 10-Q, fiscal_year 2023,
fiscal_quarter 3; no period_end). Those labels are docugami's own, the same words the questions use,
so a constraint figure measured on such an index is an upper bound labelled "file-name metadata",
never a library result. The text, title and chunking are main's, so its vectors come from the cache.

Columns: all questions, the tuning half, the reporting half (n in the header). Per-question JSONL
with --out.
"""

from __future__ import annotations

import argparse
import csv
import inspect
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from agent_passages import answer_words, phrase_found  # noqa: E402
from search_policy import filings_split  # noqa: E402

DATA = Path("/work/data/filings10q")
QUESTION_TYPE = "Single-Doc Single-Chunk RAG"

_MONTH = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
          r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?")
_DATE = re.compile(rf"{_MONTH}\s+\d{{1,2}},?\s+\d{{4}}|{_MONTH}\s+\d{{4}}|\b\d{{1,2}}/\d{{1,2}}/\d{{2,4}}")
_NUMBER = re.compile(r"(?<![\w.])\$?(\d[\d,]*(?:\.\d+)?)(\s*(?:%|percent\b))?", re.IGNORECASE)
_NOT_FIGURES = (
    re.compile(r"\b10-?[QK]\b"),  # form codes
    re.compile(r"\b[QH][1-4]\b"),  # quarter labels
    re.compile(r"\bpages?\s+\d+", re.IGNORECASE),  # "on page 51"
    re.compile(r"(?m)^\s*\d+\.\s"),  # list enumerators "1. "
)
_YEAR = re.compile(r"(?:19|20)\d\d")
# A figure with a scale word ("$23.198 billion", "$12.9B"), and the powers of ten a table may print it in.
_SCALED = re.compile(r"(?<![\w.,])\$?(\d[\d,]*\.\d+)\s*(billion|bn|B\b|million|mn|M\b)", re.IGNORECASE)
_SHIFTS = {"b": (3, 6), "m": (3,)}  # billions in millions or thousands; millions in thousands
_GROUPED = re.compile(r"(?<![\w.])\(?\$?(\d{1,3}(?:,\d{3})+)(?![\d.])")

# Provisional, benchmark-only: the file name's ticker → the company as its cover page names it.
FILE_NAME_COMPANY = {"AAPL": "Apple Inc.", "AMZN": "Amazon.com, Inc.", "INTC": "Intel Corporation",
                     "MSFT": "Microsoft Corporation", "NVDA": "NVIDIA Corporation"}
_FILE_NAME = re.compile(r"(?P<year>\d{4}) Q(?P<quarter>[1-4]) (?P<ticker>[A-Z]+)$")


def _normal(number: str, percent: str | None) -> str:
    return number.rstrip(",.").replace(",", "") + ("%" if percent else "")


def answer_figures(answer: str) -> set[str]:
    """The figures of a reference answer, normalised (see the module docstring for the rule)."""
    text = re.split(r"SOURCE\(S\)", answer)[0]
    for pattern in _NOT_FIGURES:
        text = pattern.sub(" ", text)
    text = _DATE.sub(" ", text)
    out = set()
    for m in _NUMBER.finditer(text):
        number = m.group(1).rstrip(",.")
        if _YEAR.fullmatch(number):
            continue
        if len(re.sub(r"\D", "", number)) >= 2 or "." in number or m.group(2):
            out.add(_normal(number, m.group(2)))
    return out


def scaled_figures(answer: str) -> dict[str, list[int]]:
    """The figures of `answer` stated with a scale word and a decimal point, each with the powers of ten a table
    may print it in ("$7.7 billion" → {"7.7": [3, 6]}: 7,7xx in millions, 7,7xx,xxx in thousands)."""
    text = re.split(r"SOURCE\(S\)", answer)[0]
    return {m.group(1).replace(",", ""): list(_SHIFTS[m.group(2)[0].lower()]) for m in _SCALED.finditer(text)}


def _scaled_held(figure: str, shifts: list[int], grouped: set[int]) -> bool:
    """Whether a grouped passage number, read `shift` powers of ten down, rounds to `figure` at its precision."""
    places = len(figure.split(".")[1])
    value = round(float(figure), places)
    return any(round(n / 10**shift, places) == value for n in grouped for shift in shifts
               if n >= 10**shift)  # "23,198" in millions is 23.198 billion; a number below one unit is not


def text_numbers(text: str) -> set[str]:
    """Every number of a passage text, normalised like `answer_figures` (bare, and with % when one follows)."""
    out = set()
    for m in _NUMBER.finditer(text):
        out.add(_normal(m.group(1), None))
        if m.group(2):
            out.add(_normal(m.group(1), m.group(2)))
    return out


def holds_figures(figures: set[str], texts: list[str], scaled: dict[str, list[int]] | None = None) -> bool:
    """At least half of `figures` occur in the union of `texts`; with `scaled` (`scaled_figures`, --units on) a
    figure stated in billions or millions also occurs as a table's grouped number in smaller units."""
    numbers: set[str] = set()
    for t in texts:
        numbers |= text_numbers(t)
    held = figures & numbers
    if scaled:
        held |= scaled_held(figures - held, texts, scaled)
    return bool(figures) and 2 * len(held) >= len(figures)


def scaled_held(figures: set[str], texts: list[str], scaled: dict[str, list[int]]) -> set[str]:
    """The figures among `figures` stated with a scale word (`scaled`, from `scaled_figures`) that one of `texts`
    prints as a grouped number in smaller units (--units on; benchmarks/agent_passages.py reads its figures so too)."""
    if not scaled or not figures:
        return set()
    grouped = {int(m.group(1).replace(",", "")) for t in texts for m in _GROUPED.finditer(t)}
    return {f for f in figures if f in scaled and _scaled_held(f, scaled[f], grouped)}


def holds(q: dict[str, Any], texts: list[str]) -> bool | None:
    """Whether `texts` hold question `q`'s answer: its figures (`holds_figures`), or for a question loaded with
    --answers phrase that has none, the phrase rule (agent_passages.phrase_found: one passage holds half the
    answer's content words beyond the question's); None when that answer is too short to be scored."""
    if q["figures"]:
        return holds_figures(set(q["figures"]), texts, q.get("scaled"))
    found = phrase_found(texts, q["words"])
    return None if found is None else bool(found)


def load_questions(qna: Path, doc_ids: list[str], phrases: bool = False, units: bool = False) -> list[dict[str, Any]]:
    """The single-filing, single-chunk questions whose answer carries figures, with their gold doc id;
    `phrases`: the others too, with their answer's content words (`answer_words`) for the phrase rule;
    `units`: each figure stated with a scale word also read in a table's units (`scaled_figures`)."""
    by_stem = {Path(d).stem: d for d in doc_ids}
    out = []
    with qna.open(encoding="utf-8-sig", newline="") as f:
        for i, row in enumerate(csv.DictReader(f)):
            stem = row["Source Docs"].strip().strip("*")
            figures = answer_figures(row["Answer"])
            if row["Question Type"] != QUESTION_TYPE or stem not in by_stem or not (figures or phrases):
                continue
            qid = f"q{i}"
            out.append({"id": qid, "question": row["Question"].strip(), "gold": by_stem[stem],
                        "figures": sorted(figures), "split": filings_split(qid),
                        "words": [] if figures else answer_words(row["Answer"], row["Question"]),
                        "scaled": scaled_figures(row["Answer"]) if units else {}})
    return out


def file_name_metadata(doc_id: str) -> dict[str, Any]:
    """Provisional (benchmark-only) document metadata read from a docugami file name; {} if it does not parse."""
    m = _FILE_NAME.match(Path(doc_id).stem)
    if not m or m["ticker"] not in FILE_NAME_COMPANY:
        return {}
    return {"company": FILE_NAME_COMPANY[m["ticker"]], "ticker": m["ticker"], "form": "10-Q",
            "fiscal_year": int(m["year"]), "fiscal_quarter": int(m["quarter"])}


def build_file_name_index(docs: Path, path: Path) -> None:
    import dataclasses

    from corpus_tools import Corpus, load_documents

    if (path / "manifest.json").exists():
        raise SystemExit(f"{path} already holds an index; give a new folder")
    report = load_documents(docs)
    tagged = [dataclasses.replace(d, metadata={**d.metadata, **file_name_metadata(d.doc_id)}) for d in report.documents]
    started = time.perf_counter()
    Corpus.build(tagged, path, progress=False).close()
    print(f"built {path} from {len(tagged)} documents with file-name metadata in {time.perf_counter() - started:.0f} s")


def _search_kwargs(corpus: Any, question: str, constraints: str, fields: list[str] | None) -> dict[str, Any]:
    """constraints="auto", or with --fields the auto constraints cut to those fields (one piece's own share)."""
    if constraints == "off":
        return {}
    if "constraints" not in inspect.signature(corpus.search).parameters:
        raise SystemExit("this code's Corpus.search takes no constraints (issue 35's question half is not here)")
    if fields is None:
        return {"constraints": constraints}
    found = corpus.question_constraints(question)
    return {"constraints": {k: v for k, v in found.items() if k in fields}}


def one_search(corpus: Any, q: dict[str, Any], constraints: str, fields: list[str] | None = None) -> dict[str, Any]:
    hits = corpus.search(q["question"], k=50, **_search_kwargs(corpus, q["question"], constraints, fields))
    texts = [h.chunk.text for h in hits]
    own = corpus.search(q["question"], k=5, where={"doc_id": q["gold"]})
    row = {f"fig@{k}": holds(q, texts[:k]) for k in (1, 5, 10, 50)}
    row["fig@5 own filing"] = holds(q, [h.chunk.text for h in own])
    row["fig anywhere in filing"] = holds(q, [c.text for c in corpus.chunks(q["gold"])])
    row["filing@5"] = q["gold"] in {h.chunk.doc_id for h in hits[:5]}
    row["top5"] = [h.chunk.chunk_id for h in hits[:5]]
    return row


def one_agent(agent: Any, q: dict[str, Any]) -> dict[str, Any]:
    result = agent.run(q["question"])
    evidence = list(getattr(result, "evidence", []) or [])[:5]
    docs = [e.doc_id for e in evidence] or list(result.doc_ids)[:5]
    return {"agent fig@5": holds(q, [e.text for e in evidence]),
            "agent filing@5": q["gold"] in docs, "agent evidence": len(evidence)}


def make_agent(corpus: Any, constraints: str) -> Any:
    import dataclasses

    from context1 import SearchAgent
    from context1.config import AgentConfig

    config = AgentConfig()
    if constraints != "off":
        if "constraints" not in {f.name for f in dataclasses.fields(AgentConfig)}:
            print("note: this code's AgentConfig takes no constraints; the agent rows run without them")
        else:
            config = dataclasses.replace(config, constraints=constraints)
    return SearchAgent(corpus, config=config)


LABELS = {"fig@1": "figures in the top 1", "fig@5": "figures in the top 5", "fig@10": "figures in the top 10",
          "fig@50": "figures in the top 50", "fig@5 own filing": "figures in the top 5 of the gold filing's own chunks",
          "fig anywhere in filing": "figures anywhere in the gold filing (ceiling)",
          "filing@5": "gold filing among the top 5 passages", "agent fig@5": "agent: figures in its top 5 passages",
          "agent filing@5": "agent: gold filing among its top 5 passages' documents (no evidence: its top 5 documents)"}


def table(rows: list[dict[str, Any]], split: str) -> str:
    """One column per half; a cell is the share of questions whose answer is held, over those scored
    (--answers phrase: an answer too short for the phrase rule, None, is left out)."""
    rows = [r for r in rows if r.get("fig@5") is not None]
    parts = [("all", rows), ("tuning", [r for r in rows if r["split"] == "tuning"]),
             ("report", [r for r in rows if r["split"] == "report"])]
    if split != "all":
        parts = [p for p in parts if p[0] == split]
    head = "| measure | " + " | ".join(f"{name} (n={len(rs)})" for name, rs in parts) + " |"
    lines = [head, "|---|" + "---:|" * len(parts)]
    for key, label in LABELS.items():
        if rows and key in rows[0]:
            cells = [f"{sum(bool(r[key]) for r in rs) / len(rs):.2f}" if rs else "-" for _, rs in parts]
            if any(not r["figures"] for r in rows):  # --answers phrase: figures or phrases held
                label = label.replace("figures", "answers")
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index", type=Path, help="an index of the 20 filings")
    parser.add_argument("--qna", type=Path, default=DATA / "qna_data.csv")
    parser.add_argument("--docs", type=Path, default=DATA / "docs")
    parser.add_argument("--split", choices=("all", "tuning", "report"), default="all")
    parser.add_argument("--constraints", choices=("off", "auto"), default="off")
    parser.add_argument("--fields", default=None,
                        help="with --constraints auto: keep only these fields of what was read, e.g. company,ticker")
    parser.add_argument("--boilerplate-weight", type=float, default=None,
                        help="override SearchConfig.boilerplate_weight (demotion of chunks whose metadata says boilerplate)")
    parser.add_argument("--constraint-boost", type=float, default=None, help="override SearchConfig.constraint_boost")
    parser.add_argument("--period-lift", type=float, default=None, help="override SearchConfig.period_lift")
    parser.add_argument("--row-match-weight", type=float, default=None, help="override SearchConfig.row_match_weight")
    parser.add_argument("--aside-section-weight", type=float, default=None,
                        help="override SearchConfig.aside_section_weight (0 = off)")
    parser.add_argument("--continue-figures", choices=["on", "off"], default=None,
                        help="override SearchConfig.continue_figures (corpus_tools.neighbour_prior: a figure-less hit gives its "
                             "place to its neighbour that states figures)")
    parser.add_argument("--named-sections", choices=["on", "off"], default=None,
                        help="override SearchConfig.named_sections (corpus_tools.named_section: the section whose "
                             "heading the question names shows three of its chunks in the first five)")
    parser.add_argument("--figureless-weight", type=float, default=None,
                        help="override SearchConfig.figureless_weight (passages stating no figure placed lower; 0 = off)")
    parser.add_argument("--line-items", choices=("both", "names", "expand", "off"), default=None,
                        help="override SearchConfig.line_item_names/line_item_expansion (the line-item vocabulary in "
                             "row match / in the BM25 text of narrowed searches)")
    parser.add_argument("--line-item-rows", type=int, default=None, help="override SearchConfig.line_item_rows")
    parser.add_argument("--prose-beside-tables", choices=("on", "off"), default=None,
                        help="override SearchConfig.prose_beside_tables (corpus_tools.table_pieces)")
    parser.add_argument("--reranker", default=None, metavar="DIR",
                        help="open the index with this reranker (e.g. a fusion fitted by `context1 train reranker`)")
    parser.add_argument("--first-stage-weight", type=float, default=None,
                        help="override SearchConfig.first_stage_weight (with --reranker: the share of the fused order)")
    parser.add_argument("--agent", action="store_true", help="also run the LLM-free agent and read its evidence")
    parser.add_argument("--answers", choices=("figures", "phrase"), default="figures",
                        help="phrase: also the questions whose answer has no figures, held by the phrase rule "
                             "(agent_passages.phrase_found); figure answers keep the figure rule")
    parser.add_argument("--units", choices=("off", "on"), default="off",
                        help="on: a figure stated in billions/millions is also held by a table's number in millions/"
                             "thousands that rounds to it (`scaled_figures`); off: the plain rule of earlier sessions")
    parser.add_argument("--out", type=Path, default=None, help="per-question JSONL")
    parser.add_argument("--build-file-name-index", type=Path, default=None, metavar="DIR",
                        help="build DIR from --docs with the provisional file-name metadata, then exit")
    args = parser.parse_args()
    if args.build_file_name_index is not None:
        build_file_name_index(args.docs, args.build_file_name_index)
        return
    if args.index is None:
        parser.error("--index is required (or --build-file-name-index DIR)")
    from corpus_tools import Corpus

    corpus = Corpus.open(args.index, reranker=args.reranker) if args.reranker else Corpus.open(args.index)
    import dataclasses

    for name in ("boilerplate_weight", "constraint_boost", "period_lift", "row_match_weight", "line_item_rows",
                 "first_stage_weight", "aside_section_weight", "figureless_weight"):
        if getattr(args, name) is not None:
            search = dataclasses.replace(corpus.config.search, **{name: getattr(args, name)})
            corpus.config = dataclasses.replace(corpus.config, search=search)
    if args.continue_figures is not None:
        search = dataclasses.replace(corpus.config.search, continue_figures=args.continue_figures == "on")
        corpus.config = dataclasses.replace(corpus.config, search=search)
    if args.named_sections is not None:
        search = dataclasses.replace(corpus.config.search, named_sections=args.named_sections == "on")
        corpus.config = dataclasses.replace(corpus.config, search=search)
    if args.prose_beside_tables is not None:
        search = dataclasses.replace(corpus.config.search, prose_beside_tables=args.prose_beside_tables == "on")
        corpus.config = dataclasses.replace(corpus.config, search=search)
    if args.line_items is not None:
        search = dataclasses.replace(corpus.config.search, line_item_names=args.line_items in ("both", "names"),
                                     line_item_expansion=args.line_items in ("both", "expand"))
        corpus.config = dataclasses.replace(corpus.config, search=search)
    fields = args.fields.split(",") if args.fields else None
    questions = load_questions(args.qna, corpus.doc_ids(), phrases=args.answers == "phrase", units=args.units == "on")
    if args.split != "all":
        questions = [q for q in questions if q["split"] == args.split]
    agent = make_agent(corpus, args.constraints) if args.agent else None
    rows = []
    started = time.perf_counter()
    for q in questions:
        row = {"id": q["id"], "split": q["split"], "gold": q["gold"], "figures": q["figures"], "words": q["words"]}
        row.update(one_search(corpus, q, args.constraints, fields))
        if args.constraints != "off" and hasattr(corpus, "question_constraints"):
            row["constraints"] = corpus.question_constraints(q["question"])
        if agent is not None:
            row.update(one_agent(agent, q))
        rows.append(row)
    seconds = time.perf_counter() - started
    print(f"index {args.index} · constraints {args.constraints}" + (f" (fields {args.fields})" if fields else "")
          + f" · boilerplate weight {getattr(corpus.config.search, 'boilerplate_weight', '-')}"
          + f" · constraint boost {getattr(corpus.config.search, 'constraint_boost', '-')}"
          + f" · period lift {getattr(corpus.config.search, 'period_lift', '-')}"
          + f" · row match {getattr(corpus.config.search, 'row_match_weight', '-')}"
          + f" · line-item names {getattr(corpus.config.search, 'line_item_names', '-')}"
          + f" · expansion {getattr(corpus.config.search, 'line_item_expansion', '-')}"
          + f" · line-item rows {getattr(corpus.config.search, 'line_item_rows', '-')}"
          + f" · prose beside tables {getattr(corpus.config.search, 'prose_beside_tables', '-')}"
          + f" · figure-less weight {getattr(corpus.config.search, 'figureless_weight', '-')}"
          + f" · continue figures {getattr(corpus.config.search, 'continue_figures', '-')}"
          + f" · named sections {getattr(corpus.config.search, 'named_sections', '-')}"
          + f" · answers {args.answers} ({sum(1 for r in rows if r['figures'])} with figures)"
          + f" · figure units {args.units}"
          + f" · {len(rows)} questions · {seconds:.0f} s\n")
    print(table(rows, args.split))
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    corpus.close()


if __name__ == "__main__":
    main()
