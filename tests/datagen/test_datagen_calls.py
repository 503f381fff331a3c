"""Earnings calls as a user's folder holds them (issue 36, session 46): what a call states, asked as an analyst
asks it. The calls under tests/fixtures/call_figures are invented (a vendor export's shape: participants, a speaker line,
then "Company - Title"). Old code asked nothing about a call's figures: no question named a company and quarter,
a guidance range was no fact, and a call with no identity was not counted."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from datagen_fixtures import NoProseGenerator

from corpus_tools.call_identity import call_identity
from corpus_tools.types import Chunk
from datagen.call_figures import CallIdentity, read_call_figures, sentence_figures
from datagen.call_tasks import CallTasks, with_call_tasks
from datagen.mining import mine
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file

CALLS = Path(__file__).resolve().parents[1] / "fixtures" / "call_figures"


def _chunks(names: list[str] | None = None, lines_per_chunk: int = 9) -> list[Chunk]:
    """The fixture calls as an index holds them: their identity (corpus_tools.call_identity) on every chunk."""
    out = []
    for path in sorted(CALLS.glob("*.txt")):
        doc = path.stem
        if names is not None and doc not in names:
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        meta = {"title": doc, **call_identity(path.name, text)}
        for i in range(0, len(lines), lines_per_chunk):
            piece = "\n".join(lines[i:i + lines_per_chunk])
            out.append(Chunk(f"{doc}#{i // lines_per_chunk}", doc, piece, i // lines_per_chunk, 60, dict(meta)))
    return out


def _figures(text: str, quarter: int = 1) -> list[tuple[str, str, str, bool]]:
    skipped: Counter = Counter()
    found = sentence_figures(text, "d", "d#0", CallIdentity("Harbor Pumps", "HPMP", 2024, quarter), skipped)
    return [(f.metric, f.period, f.value, f.guidance) for f in found]


def test_a_calls_stated_figures_are_read_whole_with_their_metric_and_quarter() -> None:
    assert _figures("For the first quarter of 2024, revenue was $412.6 million compared to $388.0 million in the first "
                    "quarter of 2023.") == [("revenue", "Q1 2024", "$412.6 million", False)]
    assert _figures("Adjusted earnings per share were $1.37 for the quarter, up from $1.21 a year ago.") == [
        ("adjusted earnings per share", "Q1 2024", "$1.37", False)]
    assert _figures("Revenues at $3.1 billion were up 10% sequentially.") == [("revenue", "Q1 2024", "$3.1 billion", False)]
    assert _figures("Gross margin improved 80 basis points to 33.9%.") == [("gross margin", "Q1 2024", "33.9%", False)]
    # a change is no level, and another quarter's figure is not this call's
    assert _figures("Adjusted EBITDA increased by $6.2 million.") == []
    assert _figures("In the fourth quarter of 2023, revenue was $401.2 million.") == []


def test_guidance_is_its_own_metric_and_its_range_is_kept_whole() -> None:
    assert _figures("For the full year, we expect revenue of between $1.70 billion and $1.76 billion.") == [
        ("revenue", "FY 2024", "between $1.70 billion and $1.76 billion", True)]
    assert _figures("For the second quarter, we expect adjusted EPS of $1.40 to $1.48.") == [
        ("adjusted earnings per share", "Q2 2024", "$1.40 to $1.48", True)]


def test_an_analysts_estimate_and_question_are_refused_and_counted() -> None:
    skipped: Counter = Counter()
    mined = mine(_chunks(["Q1 2024 Harbor Pumps Corp Earnings Call"]))
    _, figures = read_call_figures(mined, skipped)
    values = {(f.metric, f.value) for f in figures}
    assert ("revenue", "$430 million") not in values  # the Street's number, said by an analyst
    assert skipped["call:analyst"] >= 2
    # the CFO's answer repeats the remarks' figure: a second passage of one statement
    assert sum(1 for f in figures if f.metric == "revenue" and f.value == "$412.6 million") == 2


def test_questions_name_company_and_quarter_and_every_passage_is_gold(tmp_path: Path) -> None:
    mined = mine(_chunks())
    gen = with_call_tasks(NoProseGenerator(), mined)
    assert isinstance(gen, CallTasks)
    out = tmp_path / "tasks.jsonl"
    report = generate(gen, mined, out, GenerateConfig(n=40, hops=(1, 2), seed=3, drop_easy=False))
    tasks = read_task_file(out)
    asked = {t.query: t for t in tasks}
    assert asked["What revenue did Harbor Pumps report for the first quarter of 2024?"].answers[0] == "$412.6 million"
    guide = asked["What full-year 2024 revenue range did Harbor Pumps guide to on its first-quarter 2024 call?"]
    assert guide.answers[0] == "between $1.70 billion and $1.76 billion"
    # the answer's other passage (the CFO's reply) is an extra positive
    revenue = asked["What revenue did Harbor Pumps report for the first quarter of 2024?"]
    assert len(revenue.facts[0]) >= 2 and revenue.metadata.get("extra_positives")
    # two quarters of one company compared; a bridge through the other company's quarter
    forms = Counter(t.metadata["form"] for t in tasks if t.hops == 2)
    assert forms["bridge"] >= 1
    assert any(t.query.startswith("In the quarter in which Lumen Ridge Foods reported revenue of $1.18 billion") for t in tasks)
    multi = [t for t in tasks if t.hops > 1]
    assert sum(1 for t in multi if t.metadata["form"] == "comparison") <= 0.25 * len(multi)
    # nothing about the call with no company, and the reason counted
    assert not any("$97.5 million" in t.answers[0] for t in tasks)
    assert report.stages["call:no_identity"] == 1
    assert all(not t.query.startswith("What revenue did Inc.") for t in tasks)


def test_two_quarters_of_one_company_compared() -> None:
    mined = mine(_chunks())
    gen = CallTasks(NoProseGenerator(), mined, comparison_share=1.0)
    rng = random.Random(0)
    found = [gen._compare_periods(rng) for _ in range(20)]
    questions = {c.question: c.answer for c in found if not isinstance(c, str) and hasattr(c, "question")}
    q = "Did Harbor Pumps report higher revenue for the first quarter of 2024 or for the second quarter of 2024?"
    assert questions[q] == "the second quarter of 2024"


def test_datagen_on_a_folder_of_calls_and_hops_4_exit_0_with_counts(tmp_path: Path) -> None:
    """The user's command on the folder as exported: the index reads each call's identity, datagen asks its
    figures; `--hops 4` on calls (no chain of four) still writes tasks, each count explained, exit 0."""
    import typer
    from typer.testing import CliRunner

    import eval.cli
    from corpus_tools import Corpus, CorpusConfig
    from datagen.cli import register
    from eval.loaders import load_tasks

    app = typer.Typer()
    register(app)
    eval.cli.register(app)  # two commands: typer then reads "datagen" as the command's name
    Corpus.build(CALLS, tmp_path / "index", config=CorpusConfig(embedding_cache=str(tmp_path / "c")), progress=False).close()
    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["datagen", str(tmp_path / "index"), str(out), "--n", "12", "--hops", "1-2",
                                      "--seed", "1", "--keep-easy", "--no-progress"])
    assert result.exit_code == 0, result.output
    tasks = load_tasks(out / "tasks.jsonl").tasks
    calls = [t for t in tasks if t.metadata.get("generator_part") == "calls"]
    assert len(calls) >= 8, [t.query for t in tasks]
    assert all(("Harbor Pumps" in t.query or "Lumen Ridge Foods" in t.query) for t in calls)
    deep = CliRunner().invoke(app, ["datagen", str(tmp_path / "index"), str(tmp_path / "deep"), "--n", "20", "--hops", "4",
                                    "--seed", "1", "--no-progress"])
    assert deep.exit_code == 0, deep.output
    assert "4-hop" in deep.output and "calls" in deep.output
    runs = (tmp_path / "deep" / "runs.jsonl").read_text(encoding="utf-8")
    assert '"call:no_identity": 1' in runs


def test_an_empty_call_and_a_broken_one_give_no_question_and_no_error() -> None:
    """Bad input: an empty transcript, one of mojibake and cut lines, one whose quarter is lost (no identity)."""
    meta = {"form": "earnings call", "company": "Harbor Pumps Corp.", "fiscal_year": 2024, "fiscal_quarter": 1}
    chunks = [
        Chunk("empty#0", "empty", "", 0, 0, dict(meta)),
        Chunk("broken#0", "broken", "Revenue was $\ufffd12.4 mil\nlion for the qu\u00e2\u20ac\u2122arter.\n$ $ % revenue was",
              0, 20, dict(meta)),
        Chunk("lost#0", "lost", "Revenue was $97.5 million for the quarter.", 0, 10,
              {"form": "earnings call", "company": "Harbor Pumps Corp."}),
    ]
    skipped: Counter = Counter()
    identities, figures = read_call_figures(mine(chunks), skipped)
    assert figures == []
    assert "lost" not in identities and skipped["call:no_identity"] == 1


def test_a_qualified_ffo_is_its_own_measure() -> None:
    # the reporting read (session 46): "adjusted FFO per diluted share was $0.31" had been asked as the FFO per share
    assert _figures("Adjusted FFO per diluted share was $0.31.") == [("adjusted FFO per share", "Q1 2024", "$0.31", False)]
    assert _figures("Normalized FFO per share was $1.36.") == [("normalized FFO per share", "Q1 2024", "$1.36", False)]
    assert _figures("FFO per share was $1.17.") == [("FFO per share", "Q1 2024", "$1.17", False)]


def test_a_figure_set_against_a_bare_year_is_no_quarters() -> None:
    # "compared to fiscal 2023" with no quarter named: the year's gross margin, not the first quarter's
    assert _figures("Gross margins were 34.8%, up 140 basis points compared to fiscal 2023.") == []
    assert _figures("Gross margin for the quarter was 34.8%, up 140 basis points compared to 2023.") == [
        ("gross margin", "Q1 2024", "34.8%", False)]


def test_a_company_on_its_own_fiscal_calendar_takes_no_part_across_companies() -> None:
    # Lumen Ridge's "second quarter" is its fiscal one: no bridge or comparison sets it beside Harbor Pumps' quarter
    chunks = _chunks()
    lumen = next(i for i, c in enumerate(chunks) if c.doc_id.startswith("Q2 2024 Lumen"))
    c = chunks[lumen]
    chunks[lumen] = Chunk(c.chunk_id, c.doc_id, c.text + "\nThat closes our fiscal second quarter.", c.position,
                          c.n_tokens, c.metadata)
    plain = CallTasks(NoProseGenerator(), mine(_chunks()))
    fiscal = CallTasks(NoProseGenerator(), mine(chunks))
    assert any(a.company == "Lumen Ridge Foods" for a in plain.anchors)
    assert fiscal.own_stages["call:own_calendar_companies"] == 1
    assert not any(a.company == "Lumen Ridge Foods" for a in fiscal.anchors + fiscal.bridge_ends)
    assert not any(s.company == "Lumen Ridge Foods" for group in fiscal.across.values() for s in group)
    assert any(s.company == "Lumen Ridge Foods" for s in fiscal.singles)  # its own figures are still asked
