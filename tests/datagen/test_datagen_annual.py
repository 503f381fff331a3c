"""Annual reports and earnings releases (FinanceBench's kinds of filing): a 10-K's years, whose columns read
"52 Weeks Ended August 30, 2020", "(dollars in millions) Years Ended December 31, 2022" or only "2023 | 2022",
a release's "13 Weeks Ended January 28, 2023 (Unaudited)", a 10-Q's columns that lost their year ("Three Months
Ended July 2,"), and one company named alike by all its filings ("Amcor Plc" and "Amcor"). Old code: none of
these columns was a period (no fact, counted as `table_columns_not_periods`), and "Amcor Plc" and "Amcor" were
two companies that a comparison could set against each other. All text invented."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from datagen_fixtures import NoProseGenerator, table_fact_base

from corpus_tools.types import Chunk
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file
from datagen.table_facts import parse_period, short_company, table_facts

TEN_K = {"period_end": "2021-08-29", "form": "10-K", "fiscal_year": 2021}
TEN_Q = {"period_end": "2023-07-02", "form": "10-Q", "fiscal_year": 2023}


def test_annual_and_release_columns_are_periods() -> None:
    from datagen.table_facts import filing_dates

    phrase = lambda column, meta=None: (p.phrase() if (p := parse_period(column, meta and filing_dates(meta))) else None)  # noqa: E731
    assert phrase("52 Weeks Ended August 30, 2020") == "the year ended August 30, 2020"
    assert phrase("(dollars in millions) Years Ended December 31, 2022") == "the year ended December 31, 2022"
    assert phrase("Fiscal Year Ended January 28, 2023") == "the year ended January 28, 2023"
    assert phrase("13 Weeks Ended January 28, 2023 (Unaudited)") == "the quarter ended January 28, 2023"
    assert phrase("January 28, 2023 (Unaudited)") == "January 28, 2023"
    # the "52" of the filing's own year lost by the PDF reader: in a 10-K, the year that ends on its day
    assert phrase("Weeks Ended August 29, 2021", TEN_K) == "the year ended August 29, 2021"
    assert phrase("Weeks Ended August 29, 2021") is None and phrase("Weeks Ended August 29, 2021", TEN_Q) is None
    # a year lost: the filing's own day, or its day 52 weeks before; any other day stays unread
    assert phrase("Three Months Ended July 2,", TEN_Q) == "the quarter ended July 2, 2023"
    assert phrase("Six Months Ended July 3,", TEN_Q) == "the six months ended July 3, 2022"
    assert phrase("Three Months Ended June 30,", TEN_Q) is None and phrase("Three Months Ended July 2,") is None
    for not_a_period in ("2023", "Year Ended December 31,", "Three Months Ended December Year Ended December 31, 2022",
                         "(dollars in millions) Increase/(Decrease) Years Ended December 31, 2022"):
        assert phrase(not_a_period, TEN_K) is None, not_a_period
    # a 52/53-week year that ends just after December 31 is named for the year before ("2022" in that 10-K)
    assert filing_dates({"period_end": "2023-01-01", "form": "10-K", "fiscal_year": 2023}).year == 2022
    assert filing_dates({"period_end": "2023-01-28", "form": "10-K", "fiscal_year": 2023}).year == 2023


def test_one_company_one_name() -> None:
    assert short_company("Amcor Plc") == short_company("Amcor") == "Amcor"
    assert short_company("Costco Wholesale Corporation") == "Costco"
    assert short_company("Verizon Communications Inc.") == "Verizon"
    assert short_company("United Communications Inc.") == "United Communications"  # "United" alone is no name
    assert short_company("Apple Inc.") == "Apple" and short_company("JOHNSON JOHNSON 2022Q4 EARNINGS") == ""


def _meta(company: str, end: str, section: str, fiscal_year: int) -> dict:
    return {"kind": "table", "company": company, "form": "10-K", "period_end": end, "fiscal_year": fiscal_year,
            "section": section}


def _ten_ks() -> list[Chunk]:
    """Two 10-Ks of one retailer whose columns are bare years, and a third company's 10-K with dated columns."""
    out = []
    for doc, end, year, sales, prior, receivable in (("bb-2023", "2023-01-28", 2023, "46,298", "51,761", "1,141"),
                                                     ("bb-2022", "2022-01-29", 2022, "51,761", "47,262", "1,042")):
        cover = (f"Brightway Stores Co., Inc.\nFORM 10-K\nFor the fiscal year ended "
                 f"{'January 28, 2023' if year == 2023 else 'January 29, 2022'}")
        income = _meta("Brightway Stores Co., Inc.", end, "Item 8 > Consolidated Statements of Earnings", year)
        out += [
            Chunk(f"{doc}#0", doc, cover, 0, 20, {**income, "kind": "text"}),
            Chunk(f"{doc}#1", doc, f"($ in millions) | {year} | {year - 1} | {year - 2}\nRevenue | {sales} | {prior} | 43,638\n"
                  "Net earnings | 1,419 | 2,454 | 1,798", 1, 30, income),
            # the cash-flow statement: a receivable's change is a flow of the year, not a balance as of its day
            Chunk(f"{doc}#2", doc, f"($ in millions) | {year} | {year - 1} | {year - 2}\n"
                  f"Credit losses and accounts receivable allowances | {receivable} | (86) | 73",
                  2, 30, {**income, "section": "Item 8 > Consolidated Statements of Cash Flows"}),
            # a schedule of maturities: years, but not the filing's years
            Chunk(f"{doc}#3", doc, f"($ in millions) | {year + 1} | {year + 2} | {year + 3}\nOperating lease payments | 700 | 600 | 500",
                  3, 30, {**income, "section": "Item 8 > Leases"}),
        ]
    return out


def test_a_10k_bare_year_columns_give_the_filings_own_year_only() -> None:
    mined, base = table_fact_base(_ten_ks())
    asks = {f.ask.replace("{s}", f.subject): f.answer for fs in base.facts.values() for f in fs}
    assert asks["What was Brightway Stores's revenue, in millions of dollars, for the year ended January 28, 2023?"] == "46,298"
    assert asks["What was Brightway Stores's revenue, in millions of dollars, for the year ended January 29, 2022?"] == "51,761"
    assert not any("43,638" == a or "47,262" == a for a in asks.values())  # earlier years' days are written nowhere
    assert not any("lease payments" in q for q in asks)  # a schedule of maturities
    # the cash-flow statement's receivable row is a flow of the year: never asked as a balance "as of" the day
    assert not any("receivable" in q and " as of " in q for q in asks), list(asks)


def test_two_10ks_years_are_compared_and_the_cover_says_which_day_each_ends(tmp_path: Path) -> None:
    from datagen.period_tasks import PeriodTasks

    mined, base = table_fact_base(_ten_ks())
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    report = generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=40, hops=(1, 2), patience=60, seed=1))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    assert report.drops.get("answer_not_in_supporting_chunk", 0) == 0, report.drops
    question = ("Was Brightway Stores's revenue larger for the year ended January 29, 2022 or for the year ended "
                "January 28, 2023?")
    assert question in tasks, list(tasks)
    assert tasks[question].answers[0] == "the year ended January 29, 2022"
    assert set(tasks[question].gold_doc_ids) == {"bb-2022", "bb-2023"}
    quotes = [q for s in tasks[question].metadata["supporting"] for q in s["quotes"]]
    assert "For the fiscal year ended January 29, 2022" in quotes, quotes


def test_a_release_and_a_10k_of_one_company_are_one_company(tmp_path: Path) -> None:
    """"Amcor Plc" (the 10-K's cover) and "Amcor" (the earnings release's): one company, never compared with itself."""
    from datagen.period_tasks import PeriodTasks

    quarter = "(in millions) | Three Months Ended June 30, 2023 | Three Months Ended June 30, 2022\n"
    chunks = [
        Chunk("k#1", "k", quarter + "Net sales | 3,635 | 3,914", 1, 20,
              {"kind": "table", "company": "Amcor Plc", "period_end": "2023-06-30", "section": "Item 8 > Quarterly data"}),
        Chunk("k#2", "k", quarter + "Net sales | 3,635 | 3,914", 2, 20,
              {"kind": "table", "company": "Amcor Plc", "period_end": "2023-06-30", "section": "Item 7 > Results"}),
        Chunk("r#1", "r", quarter + "Net sales | 3,635 | 3,914", 1, 20,
              {"kind": "table", "company": "Amcor", "section": "Statements of Income (Unaudited)"}),
    ]
    mined, base = table_fact_base(chunks)
    assert {f.subject for fs in base.facts.values() for f in fs} == {"Amcor"}
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    assert not generator.across  # no other company states net sales for that quarter
    skipped: Counter = Counter()
    assert table_facts(chunks[0], "Amcor Plc", skipped)[0].subject == table_facts(chunks[2], "Amcor", skipped)[0].subject


def test_two_stacked_header_lines_are_one_column_line() -> None:
    """A 10-Q whose column line lost its years to a second line: "(columns) | Three Months Ended July 2, | …" over
    "(MILLIONS, EXCEPT PER SHARE DATA) | 2023 | 2022"."""
    chunk = Chunk("p#1", "p", "(columns) | Three Months Ended July 2, | Three Months Ended July 3,\n"
                  "(MILLIONS, EXCEPT PER SHARE DATA) | 2023 | 2022\nRevenues | 12,734 | 27,742", 1, 30,
                  {"kind": "table", "company": "Pharmaco Inc.", "section": "Item 1 > Statements of Income"})
    skipped: Counter = Counter()
    asks = {f.ask.replace("{s}", f.subject): f.answer for f in table_facts(chunk, "Pharmaco Inc.", skipped)}
    assert asks == {"What were Pharmaco's revenues, in millions of dollars, for the quarter ended July 2, 2023?": "12,734",
                    "What were Pharmaco's revenues, in millions of dollars, for the quarter ended July 3, 2022?": "27,742"}


def test_row_labels_read_as_a_person_says_them() -> None:
    """Hand-read on FinanceBench's 10-Ks: "Verizon's accounts payable and accrued liabilities accounts payable",
    "Pfizer's other current liabilities for other accruals", "operating income (Loss) for AWS"."""
    from datagen.table_facts import cased, metric_phrase

    assert metric_phrase("Accounts payable and accrued liabilities Accounts payable") == "Accounts payable"
    assert metric_phrase("Other current liabilities: Other accruals") == "Other accruals in Other current liabilities"
    assert metric_phrase("Net sales: Products") == "Net sales for Products"  # a segment's row keeps its "for"
    # the part of accrued liabilities that is contract liabilities, not the accrued liabilities (main asked it so)
    assert metric_phrase("Short-term contract liabilities included in: Accrued liabilities") == (
        "Short-term contract liabilities included in Accrued liabilities")
    assert cased("Operating Income (Loss) for AWS", {"operating", "income", "loss", "for"}) == "operating income (loss) for AWS"


def test_a_10k_dividends_row_under_bare_years_is_the_years_not_a_balance() -> None:
    meta = _meta("Brightway Stores Co., Inc.", "2023-01-28", "Item 8 > Consolidated Balance Sheets", 2023)
    chunk = Chunk("d#1", "d", "($ in millions) | 2023 | 2022\nCash dividends declared and paid | 789 | 688\n"
                  "Total long-term debt | 1,160 | 1,216", 1, 20, meta)
    asks = {f.ask.replace("{s}", f.subject): f.answer for f in table_facts(chunk, meta["company"], Counter())}
    assert asks == {
        "What were Brightway Stores's cash dividends declared and paid, in millions of dollars, for the year ended "
        "January 28, 2023?": "789",
        "What was Brightway Stores's total long-term debt, in millions of dollars, as of January 28, 2023?": "1,160"}


class _ProseOf:
    """A natural generator that proposes the given prose candidates in turn (then nothing)."""

    stages: Counter = Counter()

    def __init__(self, found: list) -> None:
        self.found = list(found)

    def propose(self, hops: int, rng) -> object:  # noqa: ANN001
        from datagen.types import DropReason

        return self.found.pop(0) if self.found else DropReason.NO_CHAIN

    def commit(self, candidate: object) -> None:
        pass

    def exhausted(self, hops: int) -> str | None:
        return None if self.found else "spent"


def test_prose_from_a_10ks_legal_proceedings_or_in_the_filers_voice_is_not_asked() -> None:
    """Hand-read on FinanceBench's 10-Ks (main, --hops 1-4): "Which organization did the Supreme Court rule in?" →
    "Busk" (a case cut from the legal proceedings), "When was Paula F. Baker appointed our Chief Human Resources
    Officer?" (whose "our"?)."""
    import random

    from datagen.period_tasks import PeriodTasks
    from datagen.types import Candidate, DropReason, SupportingItem

    meta = _meta("Brightway Stores Co., Inc.", "2023-01-28", "Item 8 > Consolidated Statements of Earnings", 2023)
    chunks = [*_ten_ks(),
              Chunk("bb-2023#8", "bb-2023", "In Busk, the Supreme Court ruled for the employer.", 8, 10,
                    {**meta, "kind": "text", "section": "Part I > Item 3. Legal Proceedings"}),
              Chunk("bb-2023#9", "bb-2023", "Dana Reyes was appointed our Chief People Officer in March 2016.", 9, 10,
                    {**meta, "kind": "text", "section": "Part I > Executive Officers"}),
              Chunk("bb-2023#10", "bb-2023", "Brightway opened its first store in Ohio in 1966.", 10, 10,
                    {**meta, "kind": "text", "section": "Part I > Item 1. Business"})]
    mined, base = table_fact_base(chunks)

    def prose(question: str, answer: str, chunk_id: str) -> Candidate:
        return Candidate(question, answer, (SupportingItem("bb-2023", (chunk_id,), (answer,), True),), 1)

    inner = _ProseOf([prose("Which organization did the Supreme Court rule in?", "Busk", "bb-2023#8"),
                      prose("When was Dana Reyes appointed our Chief People Officer?", "March 2016", "bb-2023#9"),
                      prose("Where did Brightway open its first store?", "Ohio", "bb-2023#10")])
    generator = PeriodTasks(inner, mined, base, share=0.0)
    rng = random.Random(0)
    got = [generator.propose(1, rng) for _ in range(3)]
    assert got[:2] == [DropReason.NO_ANSWER_SPAN, DropReason.NO_ANSWER_SPAN]
    assert got[2].question == "Where did Brightway open its first store?"
    assert generator.own_stages["prose:aside_section"] == 1 and generator.own_stages["prose:first_person"] == 1


def test_a_drivers_heading_run_into_its_sentence_is_one_line_item() -> None:
    from datagen.filing_drivers import read_cause

    found = read_cause("Income Tax Expense Income tax expense decreased in the second quarter of fiscal 2024 primarily "
                       "due to the resolution of certain discrete tax matters.", Counter())
    assert found is not None and found[0] == "Income tax expense", found


def test_two_companies_10ks_are_bridged_through_a_year(tmp_path: Path) -> None:
    """FinanceBench holds one company's 10-Ks beside another's, rarely two quarters that end together: the bridge
    "In the quarter in which …" had nothing to go through (main: 0 bridges of 56 tried)."""
    from datagen.period_tasks import PeriodTasks

    chunks = []
    for doc, company, rows in (("x-2022", "Xylo Media, Inc.", "Revenues | 31,616 | 29,697\nNet income | 4,492 | 5,116"),
                               ("z-2022", "Zenith Telecom Inc.", "Operating revenues | 136,835 | 133,613\n"
                                                                     "Net income | 21,748 | 22,618")):
        meta = {"kind": "table", "company": company, "form": "10-K", "period_end": "2022-12-31", "fiscal_year": 2022,
                "section": "Item 8 > Consolidated Statements of Income"}
        chunks += [Chunk(f"{doc}#0", doc, f"{company}\nFORM 10-K\nFor the fiscal year ended December 31, 2022", 0, 10,
                         {**meta, "kind": "text"}),
                   Chunk(f"{doc}#1", doc, "(dollars in millions) | Years Ended December 31, 2022 | Years Ended "
                         f"December 31, 2021\n{rows}", 1, 20, meta)]
    mined, base = table_fact_base(chunks)
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=30, hops=(2,), patience=60, seed=2, drop_easy=False))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    bridges = [q for q, t in tasks.items() if t.metadata["form"] == "bridge"]
    question = ("In the year in which Zenith Telecom's operating revenues were $136,835 million, what was Xylo Media's "
                "net income, in millions of dollars, for its year ended the same day?")
    assert question in bridges, bridges
    assert tasks[question].answers[0] == "4,492" and set(tasks[question].gold_doc_ids) == {"x-2022", "z-2022"}


def test_a_row_under_a_glued_heading_is_not_the_balance_sheets_line() -> None:
    """Hand-read on FinanceBench: "Liabilities Other current liabilities | 6,053" in a table of contract balances
    was asked as Verizon's other current liabilities."""
    meta = _meta("Zenith Telecom Inc.", "2021-12-31", "Item 8 > Note 2. Revenue and Contract Balances", 2021)
    chunk = Chunk("c#1", "c", "(in millions) | At December 31, 2021 | At December 31, 2020\n"
                  "Assets Prepaid expenses and other | 739 | 733\nLiabilities Other current liabilities | 6,053 | 4,843\n"
                  "Contract liabilities | 6,053 | 4,843", 1, 20, meta)
    skipped: Counter = Counter()
    asks = {f.ask.replace("{s}", f.subject): f.answer for f in table_facts(chunk, meta["company"], skipped)}
    assert not any("other current liabilities" in q.lower() or "prepaid" in q.lower() for q in asks), asks
    assert skipped["table_row_heading_glued"] == 2 and any("contract liabilities" in q for q in asks)


def test_an_annual_reports_note_gives_no_balance_that_is_a_part_of_the_line() -> None:
    """Hand-read on FinanceBench's 10-Ks: "Insurance" note's "Accrued liabilities | 65" (self-insurance inside
    accrued liabilities) asked as Best Buy's accrued liabilities; "Less cash and cash equivalents" (a net-debt
    table's step) and "Within Total Operating Expenses" asked as metrics."""
    meta = _meta("Brightway Stores Co., Inc.", "2023-01-28", "Item 8 > Note 4. Insurance", 2023)
    text = "(in millions) | January 28, 2023 | January 29, 2022\nAccrued liabilities | 65 | 62\nTotal self-insurance liabilities | 90 | 80"
    skipped: Counter = Counter()
    asks = [f.ask for f in table_facts(Chunk("n#1", "n", text, 1, 20, meta), meta["company"], skipped)]
    assert not any("accrued liabilities" in q for q in asks) and skipped["table_balance_in_a_note"] == 2
    assert any("total self-insurance" in q for q in asks)  # a total the note gives is the note's own line
    debt = {**meta, "section": "Item 8 > Note 5. Debt"}
    asks = [f.ask for f in table_facts(Chunk("d#1", "d", text.replace("Accrued liabilities", "Other long-term debt"), 1, 20,
                                             debt), meta["company"], Counter())]
    assert any("other long-term debt" in q for q in asks)  # the debt note's own line
    from datagen.table_facts import metric_phrase

    assert metric_phrase("Less cash and cash equivalents") == "" and metric_phrase("Within Total Operating Expenses") == ""
