"""An 8-K's event bridged to the company's figure for the quarter that holds its day (issue 36: "In the quarter when
X happened, what was Y?"). Read on the tuning folders' PepsiCo, eBay and McDonald's 8-Ks and releases; all text here
invented. Old code: 8-K events were single-hop only; no task crossed from an 8-K to a release or a 10-Q."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

from datagen_fixtures import NoProseGenerator, release_fact_base

from corpus_tools.types import Chunk
from datagen.mining import mine
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file
from datagen.table_facts import short_company, table_facts


def _8k(doc: str, day: str | None, text: str) -> list[Chunk]:
    meta = {"company": "Snackco, Inc.", "form": "8-K", "title": "Snackco, Inc. 8-K",
            **({"period_end": day} if day else {})}
    return [Chunk(f"{doc}#0", doc, "FORM 8-K\nCURRENT REPORT\nSnackco, Inc.", 0, 10, {**meta, "kind": "text"}),
            Chunk(f"{doc}#1", doc, text, 1, 60, {**meta, "kind": "text", "section": "Item 8.01. Other Events."})]


def _release(doc: str, quarter: int, end: str, weeks: int, rows: dict[str, tuple[str, str]]) -> list[Chunk]:
    """A quarter's release as PepsiCo writes one: "12 weeks ended", columns "Q2 2023 | Q2 2022"."""
    ordinal = {1: "First", 2: "Second", 3: "Third", 4: "Fourth"}[quarter]
    day = dt.date.fromisoformat(end)
    written = f"{day:%B} {day.day}, {day.year}"
    meta = {"company": "Snackco", "fiscal_year": day.year, "fiscal_quarter": quarter, "period_end": end}
    lines = "\n".join(f"{k} | {a} | {b}" for k, (a, b) in rows.items())
    return [Chunk(f"{doc}#0", doc, f"Snackco Reports {ordinal} Quarter {day.year} Results\nResults for the {weeks} weeks "
                  f"ended {written} are below.", 0, 20, {**meta, "kind": "text"}),
            Chunk(f"{doc}#1", doc, f"(in millions) | Q{quarter} {day.year} | Q{quarter} {day.year - 1}\n{lines}", 1, 40,
                  {**meta, "kind": "table", "section": "Condensed Consolidated Statement of Income"})]


MEETING = "Snackco, Inc. (“Snackco”) held its 2023 Annual Meeting of Shareholders on May 3, 2023. Below are the results."
TWO_ON_ONE_DAY = ("On May 26, 2023, Snackco entered into a new $4,200,000,000 364 day unsecured revolving credit agreement "
                  "(the “364 Day Agreement”) among Snackco, as borrower, and the lenders. On May 26, 2023, Snackco entered "
                  "into a new $4,200,000,000 five year unsecured revolving credit agreement (the “Five Year Agreement”) "
                  "among Snackco, as borrower, and the lenders.")
BOARD = ("On March 28, 2023, the Board of Directors (the “Board”) of Snackco, Inc. (the “Company”) increased its size to "
         "10 members and appointed Shripriya Mahesh as a member of the Board effective immediately.")
UNDATED_BOARD = ("The Board of Directors (the “Board”) of Snackco, Inc. (the “Company”) appointed Ben S. Winston as a member "
                 "of the Board.")
NOT_HELD = ("On September 12, 2023, Snackco, Inc. (the “Company”) issued a press release regarding a cybersecurity issue "
            "involving the Company.")
Q1 = {"Net revenue": ("17,846", "16,200"), "Net income": ("1,932", "4,261")}
Q2 = {"Net revenue": ("22,322", "20,225"), "Net income": ("2,748", "1,429")}


def _folder(*extra: list[Chunk]) -> list[Chunk]:
    return [*_release("q1", 1, "2023-03-25", 12, Q1), *_release("q2", 2, "2023-06-17", 12, Q2), *(c for x in extra for c in x)]


def _run(tmp_path: Path, chunks: list[Chunk], hops: int, n: int = 40, seed: int = 1) -> tuple[dict, object]:
    from datagen.period_tasks import PeriodTasks

    mined, base = release_fact_base(chunks)
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    report = generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=n, hops=(hops,), patience=300, seed=seed))
    return {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}, (report, generator)


def test_an_8k_event_is_bridged_to_the_figure_of_the_quarter_that_holds_its_day(tmp_path: Path) -> None:
    tasks, (report, _) = _run(tmp_path, _folder(_8k("meet", "2023-05-03", MEETING)), hops=2)
    assert report.drops.get("answer_not_in_supporting_chunk", 0) == 0, report.drops
    bridged = {q: t for q, t in tasks.items() if t.metadata["form"] == "event_bridge"}
    question = ("In the quarter in which Snackco held its 2023 annual meeting of shareholders, what was its net revenue, "
                "in millions of dollars?")
    assert question in bridged, list(tasks)
    task = bridged[question]
    assert task.answers[0] == "22,322"  # the second quarter's (May 3 is after March 25), not the first's 17,846
    assert task.gold_doc_ids[0] == "meet" and set(task.gold_doc_ids) == {"meet", "q2"}  # the 8-K first: it gives the day
    assert task.metadata["period_decides"] is True  # the first quarter's figure differs: the day decides
    assert all("May 3" not in q and "second quarter" not in q for q in bridged)  # the period is found, never named


def test_the_fiscal_calendar_places_a_day_by_the_companys_own_weeks() -> None:
    """March 28 is in a 12-week calendar's second quarter (the first ended March 25), not in the quarter "ended in
    March"; a quarter whose report says only "three months ended March 31" began January 1; a 17-week fourth quarter
    ended December 31 began September 4, not October 1; a report that says not how long its period is places no day."""
    from datagen.event_periods import company_key, fiscal_calendar, period_of

    stages: Counter = Counter()
    calendar = fiscal_calendar(mine(_folder()), stages)[company_key("Snackco")]
    q2 = period_of(dt.date(2023, 3, 28), calendar, "quarter")
    assert q2 is not None and (q2.fiscal_quarter, q2.start, q2.end) == (2, dt.date(2023, 3, 26), dt.date(2023, 6, 17))
    q1 = period_of(dt.date(2023, 1, 1), calendar, "quarter")
    assert q1 is not None and q1.fiscal_quarter == 1  # 12 weeks ended March 25 began January 1
    assert period_of(dt.date(2023, 6, 18), calendar, "quarter") is None  # a quarter the folder holds no report of

    def one(text: str, end: str, quarter: int = 1) -> object:
        day = dt.date.fromisoformat(end)
        meta = {"company": "Calco", "fiscal_year": day.year, "fiscal_quarter": quarter, "period_end": end, "kind": "text"}
        return fiscal_calendar(mine([Chunk("c#0", "c", text, 0, 20, meta)]), stages).get(company_key("Calco"), [])

    (cal,) = one("Results for the three months ended March 31, 2023.", "2023-03-31")
    assert cal.start == dt.date(2023, 1, 1)
    (cal, _year) = one("Calco’s fourth quarter 2022 includes 17 weeks of results and its 2022 fiscal year includes 53 weeks "
                       "of results. Results for the quarter ended December 31, 2022.", "2022-12-31", quarter=4)
    assert cal.start == dt.date(2022, 9, 4) and _year.start == dt.date(2021, 12, 26)
    assert one("Calco reports its results today.", "2023-03-31") == [] and stages["event_calendar_unknown"] == 1


def test_bad_8ks_give_no_task_and_are_counted(tmp_path: Path) -> None:
    """An 8-K with no date (no day in its sentence, none on its cover), an event in a quarter the folder holds no
    report of, and two events on one day (two questions, one quarter, neither repeated)."""
    from datagen.event_periods import event_chains

    chunks = _folder(_8k("undated", None, UNDATED_BOARD), _8k("late", "2023-09-12", NOT_HELD),
                     _8k("credit", "2023-05-26", TWO_ON_ONE_DAY), _8k("board", "2023-03-28", BOARD))
    mined, base = release_fact_base(chunks)
    from datagen.period_tasks import read_statements

    stages: Counter = Counter()
    chains = event_chains(mined, read_statements(base, mined, Counter()), stages)
    acts = {c.event.act: (c.period.fiscal_quarter, c.event.day) for c in chains}
    assert acts == {
        "entered into a new $4.2 billion 364 day unsecured revolving credit agreement": (2, dt.date(2023, 5, 26)),
        "entered into a new $4.2 billion five year unsecured revolving credit agreement": (2, dt.date(2023, 5, 26)),
        "appointed Shripriya Mahesh to its Board of Directors": (2, dt.date(2023, 3, 28)),
    }, acts
    assert stages["event_without_day"] == 1 and stages["event_period_not_held"] == 1
    tasks, (report, _) = _run(tmp_path, chunks, hops=2, n=60)
    bridged = [q for q, t in tasks.items() if t.metadata["form"] == "event_bridge"]
    assert not any("Winston" in q or "cybersecurity" in q for q in bridged)
    # one quarter named by three acts: each of its figures asked once, through whichever act
    answers = [tasks[q].answers[0] for q in bridged]
    assert bridged and len(answers) == len(set(answers)), bridged
    assert report.drops.get("answer_not_in_supporting_chunk", 0) == 0, report.drops


def test_an_event_quarter_is_compared_with_another_quarter_across_three_documents(tmp_path: Path) -> None:
    tasks, (report, _) = _run(tmp_path, _folder(_8k("meet", "2023-05-03", MEETING)), hops=3, n=10)
    compared = {q: t for q, t in tasks.items() if t.metadata["form"] == "event_comparison"}
    mine = "the quarter in which it held its 2023 annual meeting of shareholders"
    # the second quarter of 2023 against the first quarter of 2023 or of 2022 (the first release's own columns)
    expected = {}
    for metric, (q2, _) in (("net revenue", Q2["Net revenue"]), ("net income", Q2["Net income"])):
        for other, value in (("the first quarter of 2023", Q1[metric.capitalize()][0]),
                             ("the first quarter of 2022", Q1[metric.capitalize()][1])):
            win = mine if float(q2.replace(",", "")) > float(value.replace(",", "")) else other
            expected[f"Was Snackco's {metric} larger in {mine} or in {other}?"] = win
    assert compared and set(compared) <= set(expected), list(tasks)
    for question, task in compared.items():
        assert task.answers[0] == expected[question], question  # the option as the question names it
        assert len(set(task.gold_doc_ids)) == 3 and task.gold_doc_ids[0] == "meet"
        if task.answers[0] == mine:
            assert "the second quarter of 2023" in task.answers  # and the quarter by its name
    assert report.drops.get("answer_not_in_supporting_chunk", 0) == 0, report.drops


def test_a_brand_written_lower_case_first_is_a_company() -> None:
    """eBay's releases and 8-Ks: "eBay Inc." was read as no name, so none of its figures was asked."""
    assert short_company("eBay Inc.") == "eBay"
    assert short_company("salesforce.com, inc.") == ""  # a lower-case word is still no name
    # McDonald's releases' capitals: "Was McDONALD'S's earnings per share …?" read as people write it
    from datagen.table_facts import possessive

    assert short_company("McDONALD'S") == "McDonald's" and possessive("McDonald's") == "McDonald's"
    assert possessive("eBay") == "eBay's"


def test_release_columns_of_weeks_numeric_days_and_stacked_change_headers() -> None:
    """The figures those bridges need: PepsiCo's "12 Weeks Ended 6/17/2023" is a quarter (old code: no period, 12 weeks
    and a numeric day unread), McDonald's "Quarters Ended March 31, Inc/ (Dec) Excluding Currency 2023" the quarter of
    2023 and its "… Inc/ (Dec)" change column none; eBay's "Free cash ow" (a lost "fl" glyph) is no metric."""
    from datagen.table_facts import parse_period

    assert parse_period("12 Weeks Ended 6/17/2023") == parse_period("Three Months Ended June 17, 2023")
    assert parse_period("24 Weeks Ended 6/11/2022").length == "six months"
    q = parse_period("Quarters Ended March 31, Inc/ (Dec) Excluding Currency 2023")
    assert q is not None and (q.length, q.end) == ("quarter", dt.date(2023, 3, 31))
    assert parse_period("Quarters Ended March 31, Inc/ (Dec) Excluding Currency Inc/ (Dec)") is None
    meta = {"kind": "table", "company": "Auction Co.", "section": "Cash flows"}
    skipped: Counter = Counter()
    chunk = Chunk("e#1", "e", "(in millions) | Three Months Ended March 31, 2023 | Three Months Ended March 31, 2022\n"
                  "Free cash ow | 709 | 426\nNet cash provided by operating activities | 841 | 546", 1, 30, meta)
    asks = [f.ask for f in table_facts(chunk, "Auction Co.", skipped)]
    assert asks and not any("ow" in a.split() for a in asks) and skipped["table_row_ligature_lost"] == 1
