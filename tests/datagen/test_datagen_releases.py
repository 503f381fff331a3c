"""Earnings releases and current reports (8-Ks) as a user's folder holds them (issue 36). Read on FinanceBench's
J&J, Amcor and Foot Locker filings; all text here invented. Old code: a release whose cover names no company gave
no fact; "Q4 2022 | Q4 2021 | Q4 % Change" and "Twelve Months Ended June 30, 2023 $ million" were no periods; a
segment's bare "Net sales" row in a release was read as the company's; an 8-K's votes, officers and a release's
dividend gave no question at all."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from datagen_fixtures import NoProseGenerator, release_fact_base

from corpus_tools.types import Chunk
from datagen.mining import mine
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file
from datagen.table_facts import table_facts

DATELINE = ("FOR IMMEDIATE RELEASE\n\nNew Brunswick, N.J. (January 24, 2023) – Medico & Medico (NYSE: MDM) today "
            "announced results for fourth quarter and full year 2022. Reported sales and net earnings grew.")
OVERALL = ("OVERALL FINANCIAL RESULTS\n\n(in millions) | Q4 2022 | Q4 2021 | Q4 % Change | Full Year 2022 | Full Year 2021"
           " | Full Year % Change\nReported Sales | $23,706 | $24,804 | (4.4)% | $94,943 | $93,775 | 1.3%\n"
           "Net Earnings | $3,520 | $4,736 | (25.7)% | $17,941 | $20,878 | (14.1)%")
OVERALL_Q2 = ("OVERALL FINANCIAL RESULTS\n\n(in millions) | Q2 2023 | Q2 2022 | Q2 % Change\n"
              "Reported Sales | $25,530 | $24,020 | 6.3%\nNet Earnings | $5,144 | $4,814 | 6.9%")
RELEASE = {"title": "MEDICO 2022Q4 EARNINGS", "form": "8-K"}  # what the index read: no company, no period


def _release(doc: str, dateline: str, table: str) -> list[Chunk]:
    return [Chunk(f"{doc}#0", doc, dateline, 0, 40, {**RELEASE, "kind": "text"}),
            Chunk(f"{doc}#1", doc, table, 1, 60, {**RELEASE, "kind": "table", "section": "OVERALL FINANCIAL RESULTS"})]


def test_a_release_company_from_its_dateline_and_quarter_columns() -> None:
    mined, base = release_fact_base(_release("r4", DATELINE, OVERALL))
    # (a metric's capitals are the corpus's to lower: datagen.table_facts.cased; here, none is known)
    asks = {f.ask.replace("{s}", f.subject).lower(): f.answer for fs in base.facts.values() for f in fs}
    assert asks["what were medico & medico's reported sales, in millions of dollars, for the fourth quarter of 2022?"] == "23,706"
    assert asks["what were medico & medico's net earnings, in millions of dollars, for the full year 2021?"] == "20,878"
    assert not any("%" in a or a in ("4.4", "25.7") for a in asks.values()), asks  # "% Change" is no period
    assert len(asks) == 8


def test_a_release_with_no_company_gives_no_fact_and_is_counted() -> None:
    mined, base = release_fact_base(_release("r4", "FOR IMMEDIATE RELEASE\n\nSales rose in the fourth quarter.", OVERALL))
    assert not any(base.facts.values())
    assert base.skipped["table_without_company"] == 1


def test_dollar_million_columns_twelve_months_and_a_segments_bare_rows() -> None:
    """Amcor's release: "Twelve Months Ended June 30, 2023 $ million" is the year and in millions; "EPS (diluted US
    cents)" is no amount of millions; a "Segment Information" section's "Net sales" is the segment's."""
    meta = {"kind": "table", "company": "Packco", "fiscal_year": 2023, "fiscal_quarter": 4}
    columns = "(columns) | Twelve Months Ended June 30, 2022 $ million | Twelve Months Ended June 30, 2023 $ million\n"
    key = Chunk("p#1", "p", columns + "Net sales | 14,544 | 14,694\nEPS (diluted US cents) | 52.9 | 70.5", 1, 30,
                {**meta, "section": "Key Financials"})
    segment = Chunk("p#2", "p", columns + "Net sales | 11,151 | 11,154", 2, 30,
                    {**meta, "section": "2023 financial results > Segment Information > June 2023 quarter"})
    skipped: Counter = Counter()
    asks = {f.ask.replace("{s}", f.subject): f.answer for f in table_facts(key, "Packco", skipped)}
    assert asks == {"What were Packco's net sales, in millions of dollars, for the year ended June 30, 2022?": "14,544",
                    "What were Packco's net sales, in millions of dollars, for the year ended June 30, 2023?": "14,694"}
    assert table_facts(segment, "Packco", skipped) == [] and skipped["table_row_heading_lost"] == 1


def test_two_releases_quarters_are_compared(tmp_path: Path) -> None:
    from datagen.period_tasks import PeriodTasks

    q2 = DATELINE.replace("January 24, 2023", "July 20, 2023").replace("fourth quarter and full year 2022", "second quarter 2023")
    mined, base = release_fact_base([*_release("r4", DATELINE, OVERALL), *_release("r2", q2, OVERALL_Q2)])
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    report = generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=30, hops=(2,), patience=200, seed=1))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    assert report.drops.get("answer_not_in_supporting_chunk", 0) == 0, report.drops
    question = "Were Medico & Medico's net earnings larger for the fourth quarter of 2022 or for the second quarter of 2023?"
    assert question in tasks, list(tasks)
    assert tasks[question].answers[0] == "the second quarter of 2023"
    assert set(tasks[question].gold_doc_ids) == {"r2", "r4"}


FOOTWEAR_8K = {"company": "Footwear Corp.", "form": "8-K", "period_end": "2022-05-20", "title": "Footwear Corp. 8-K"}
VOTE_SECTION = "Item 5. 07. Submission of Matters to a Vote of Security Holders."
MEETING = ("Item 5.07. Submission of Matters to a Vote of Security Holders.\n\nAt Footwear Corp.’s (the “Company”) annual "
           "meeting of shareholders held on May 18, 2022 (the “Annual Meeting”), shareholders voted on the four proposals "
           "set forth below.")
VOTES = ("(columns) | respect to the proposal to elect ten nominees to the Board: Votes For | respect to the proposal: Votes "
         "Against | respect to the proposal: Abstentions | respect to the proposal: Broker Non-Votes\n"
         "Virginia C. Drosos | 59,657,810 | 294,935 | 10,714,238 | 6,884,223\nUlice Payne, Jr. | 54,993,396 | 4,950,917 | 10,722,670 | 6,884,223")
PROPOSAL = ("Proposal 4. With respect to the proposal to ratify the appointment of KPMG LLP as the Company’s independent "
            "registered public accounting firm for the 2022 fiscal year, the votes were cast for the proposal as set forth "
            "below:\nVotes For Votes Against Abstentions\n75,612,318 1,854,695 84,193")
OFFICERS = ("Item 5.02. Departure of Directors or Certain Officers.\n\nOn August 19, 2022, Footwear Corp. (the “Company”), "
            "issued a press release announcing that, as part of a planned succession process, Richard A. Johnson will step "
            "down as President and Chief Executive Officer of the Company, effective September 1, 2022. Mary N. Dillon, 61, "
            "former Executive Chair of Beauty Stores, Inc., has been appointed President and Chief Executive Officer and a "
            "member of the Company’s Board of Directors, each effective September 1, 2022.")


def _events(chunks: list[Chunk]) -> tuple[dict[str, str], Counter]:
    from datagen.event_facts import read_events

    stages: Counter = Counter()
    return {e.question: e.answer for e in read_events(mine(chunks), stages)}, stages


def test_an_8k_vote_and_its_officers_are_asked() -> None:
    chunks = [Chunk("v#0", "v", MEETING, 0, 40, {**FOOTWEAR_8K, "kind": "text", "section": VOTE_SECTION}),
              Chunk("v#1", "v", VOTES, 1, 40, {**FOOTWEAR_8K, "kind": "table", "section": VOTE_SECTION}),
              Chunk("v#2", "v", PROPOSAL, 2, 40, {**FOOTWEAR_8K, "kind": "text", "section": VOTE_SECTION}),
              Chunk("v#3", "v", OFFICERS, 3, 80, {**FOOTWEAR_8K, "kind": "text"})]
    asked, _ = _events(chunks)
    on = "at Footwear's annual meeting on May 18, 2022?"
    assert asked[f"How many votes were cast for Virginia C. Drosos in the election of directors {on}"] == "59,657,810"
    assert asked[f"How many votes were cast against Ulice Payne, Jr. in the election of directors {on}"] == "4,950,917"
    assert asked["How many votes were cast for the proposal to ratify the appointment of KPMG LLP as Footwear's independent "
                 "registered public accounting firm for the 2022 fiscal year at its annual meeting on May 18, 2022?"] == "75,612,318"
    assert asked["Who was appointed President and Chief Executive Officer of Footwear, effective September 1, 2022?"] == "Mary N. Dillon"
    assert asked["When did Footwear announce that Richard A. Johnson would step down as its President and Chief Executive "
                 "Officer?"] == "August 19, 2022"


def test_a_vote_table_whose_header_is_lost_gives_no_question_and_is_counted() -> None:
    lost = VOTES.split("\n", 1)[1]  # the rows only: which column is "for"?
    chunks = [Chunk("v#0", "v", MEETING, 0, 40, {**FOOTWEAR_8K, "kind": "text", "section": VOTE_SECTION}),
              Chunk("v#1", "v", lost, 1, 40, {**FOOTWEAR_8K, "kind": "table", "section": VOTE_SECTION})]
    asked, stages = _events(chunks)
    assert asked == {} and stages["event_vote_header_lost"] == 2


def test_a_releases_dividend_and_its_payment_date(tmp_path: Path) -> None:
    text = ("Dividend\nThe Packco Board of Directors today declared a quarterly cash dividend of 12.25 cents per share "
            "(compared with 12.0 cents per share in the same quarter last year). The ex-dividend date will be September 6, "
            "2023, the record date will be September 7, 2023, and the payment date will be September 27, 2023.")
    meta = {"company": "Packco", "fiscal_year": 2023, "fiscal_quarter": 4, "kind": "text"}
    asked, _ = _events([Chunk("d#0", "d", text, 0, 60, meta)])
    when = "with its results for the fourth quarter of fiscal 2023"
    assert asked == {f"What quarterly cash dividend per share did Packco declare {when}?": "12.25 cents",
                     f"On what date was the quarterly dividend of 12.25 cents per share that Packco declared {when} to be "
                     "paid?": "September 27, 2023"}
    # no quarter in the release's metadata: "the dividend declared today" says not when, so no question
    asked, stages = _events([Chunk("d#0", "d", text, 0, 60, {**meta, "fiscal_quarter": None})])
    assert asked == {} and stages["event_dividend_without_quarter"] == 1


def test_two_companies_money_in_thousands_and_millions_is_compared_by_its_value(tmp_path: Path) -> None:
    """Ulta's release is in thousands, Best Buy's 10-K in millions: "Which company had larger total assets …?"
    compares $5.4 billion with $15.8 billion, not 5,370,411 with 15,803 (old code: never asked, two units)."""
    from datagen.period_tasks import PeriodTasks

    day = "January 28, 2023"
    chunks = [
        Chunk("u#0", "u", "Beauty Stores, Inc. Announces Fourth Quarter Results", 0, 10, {"company": "Beauty Stores, Inc."}),
        Chunk("b#0", "b", "Gadget Mart Co., Inc.\nFORM 10-K", 0, 10, {"company": "Gadget Mart Co.", "form": "10-K"}),
        Chunk("u#1", "u", f"(in thousands) | {day} | January 29, 2022\nTotal assets | 5,370,411 | 4,764,379", 1, 30,
              {"kind": "table", "company": "Beauty Stores, Inc.", "period_end": "2023-01-28", "section": "Balance Sheets"}),
        Chunk("u#2", "u", f"(in thousands) | {day}\nTotal assets | 5,370,411", 2, 30,
              {"kind": "table", "company": "Beauty Stores, Inc.", "period_end": "2023-01-28", "section": "Highlights"}),
        Chunk("b#1", "b", f"($ in millions) | {day} | January 29, 2022\nTotal assets | 15,803 | 17,504", 1, 30,
              {"kind": "table", "company": "Gadget Mart Co.", "form": "10-K", "period_end": "2023-01-28",
               "section": "Item 8 > Consolidated Balance Sheets"}),
    ]
    mined, base = release_fact_base(chunks)
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    report = generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=10, hops=(2,), patience=60, seed=1))
    tasks = {t.query: t.answers[0] for t in read_task_file(tmp_path / "t.jsonl")}
    assert report.drops.get("answer_not_in_supporting_chunk", 0) == 0, report.drops
    asked = [q for q in tasks if q.startswith("Which company had larger total assets as of January 28, 2023")]
    assert asked and all(tasks[q] == "Gadget Mart" for q in asked), tasks


def test_8k_events_are_verified_single_hop_tasks_of_every_kind(tmp_path: Path) -> None:
    """Through the filings generator: each event is a single-hop task whose answer the verifier finds in its passages."""
    from datagen.period_tasks import PeriodTasks

    chunks = [Chunk("v#0", "v", MEETING, 0, 40, {**FOOTWEAR_8K, "kind": "text", "section": VOTE_SECTION}),
              Chunk("v#1", "v", VOTES, 1, 40, {**FOOTWEAR_8K, "kind": "table", "section": VOTE_SECTION}),
              Chunk("v#2", "v", PROPOSAL, 2, 40, {**FOOTWEAR_8K, "kind": "text", "section": VOTE_SECTION}),
              Chunk("v#3", "v", OFFICERS, 3, 80, {**FOOTWEAR_8K, "kind": "text"}),
              *_release("r4", DATELINE, OVERALL)]  # a table, so the folder is one of filings
    mined, base = release_fact_base(chunks)
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    report = generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=40, hops=(1,), patience=60, seed=2))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    assert report.drops.get("answer_not_in_supporting_chunk", 0) == 0, report.drops
    events = {q: t.answers[0] for q, t in tasks.items() if t.metadata["form"] == "event"}
    assert len(events) == 8, events  # 4 nominee counts, 1 proposal, appointed, steps down, announced
    assert events["Who was appointed President and Chief Executive Officer of Footwear, effective September 1, 2022?"] == "Mary N. Dillon"
