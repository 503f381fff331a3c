"""Filings: questions from table rows, compared across quarters and companies, reached through another
company's quarter; malformed tables and subjects give nothing (counted); a figure two filings state
is one fact (extra positives, one side of the split). Old code: no datagen.period_tasks (no
cross-document question at all) and table questions such as "What was Apple Inc.'s item 4. Controls
and Procedures for the Page?"."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

from datagen_fixtures import NoProseGenerator, table_fact_base

from corpus_tools.types import Chunk
from datagen.mining import mine
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file
from datagen.split import split_tasks
from datagen.table_facts import is_table, metric_phrase, parse_period, short_company, table_facts
from datagen.types import DropReason
from datagen.verify import normalize

INTECH_Q2 = {"kind": "table", "company": "Initech Corporation", "period_end": "2023-07-01",
             "section": "Part I > Item 1 > Consolidated Condensed Statements of Income"}
INTECH_Q1 = {**INTECH_Q2, "period_end": "2023-04-01"}
INTECH_Q2_22 = {**INTECH_Q2, "period_end": "2022-07-02"}
GLOBEX_Q3 = {"kind": "table", "company": "Globex Inc.", "period_end": "2023-07-01",
             "section": "Part I > Item 1 > Condensed Consolidated Statements of Operations"}


def _filings() -> list[Chunk]:
    text = {"kind": "text"}
    return [
        Chunk("i2#0", "initech-2023q2", "Initech Corporation\nFORM 10-Q\nFor the quarterly period ended July 1, 2023", 0, 20,
              {**INTECH_Q2, **text}),
        Chunk("i2#1", "initech-2023q2",
              "(In millions) | Three Months Ended Jul 1, 2023 | Three Months Ended Jul 2, 2022\n"
              "Net revenue | $ | 12,949 | $ | 15,321\nNet income | 1,481 | (454)\nOperating income | 2,000 | 1,000", 1, 40, INTECH_Q2),
        # a segment table: "Operating income" again, another value: which one would a question mean?
        Chunk("i2#2", "initech-2023q2",
              "(In millions) | Three Months Ended Jul 1, 2023 | Three Months Ended Jul 2, 2022\n"
              "Operating income | 700 | 650", 2, 20, {**INTECH_Q2, "section": "Note 3 > Segments"}),
        # a later chunk of a long table whose header row was lost: a value without its period
        Chunk("i2#3", "initech-2023q2", "Net revenue | 12,949 | 15,321\nGross margin | 4,638 | 5,528", 3, 20,
              {**INTECH_Q2, "header": "Initech Corporation · Item 2"}),
        Chunk("i2#4", "initech-2023q2", "(columns) | Page\nItem 1. Financial Statements | 1\nItem 4. Controls and Procedures | 20",
              4, 20, INTECH_Q2),
        # a cash-flow table whose "Six Months Ended" line was lost: bare dates over flows
        Chunk("i2#5", "initech-2023q2", "(In millions) | Jul 1, 2023 | Jul 2, 2022\nNet cash used for investing activities | (11,329) | (9,100)",
              5, 20, INTECH_Q2),
        Chunk("i1#0", "initech-2023q1", "Initech Corporation\nFORM 10-Q\nFor the quarterly period ended April 1, 2023", 0, 20,
              {**INTECH_Q1, **text}),
        Chunk("i1#1", "initech-2023q1",
              "(In millions) | Three Months Ended Apr 1, 2023 | Three Months Ended Apr 2, 2022\n"
              "Net revenue | 11,715 | 18,353\nNet income | (2,758) | 8,113", 1, 30, INTECH_Q1),
        # last year's filing states the Jul 2, 2022 quarter that this year's prior-year column repeats
        Chunk("i0#0", "initech-2022q2", "Initech Corporation\nFORM 10-Q", 0, 10, {**INTECH_Q2_22, **text}),
        Chunk("i0#1", "initech-2022q2",
              "(In millions) | Three Months Ended July 2, 2022 | Three Months Ended July 3, 2021\n"
              "Net revenue | 15,321 | 19,631\nNet income | (454) | 5,061", 1, 30, INTECH_Q2_22),
        Chunk("g3#0", "globex-2023q3", "Globex Inc.\nFORM 10-Q\nFor the quarterly period ended July 1, 2023", 0, 20,
              {**GLOBEX_Q3, **text}),
        Chunk("g3#1", "globex-2023q3",
              "(In millions) | Three Months Ended July 1, 2023 | Three Months Ended June 25, 2022\n"
              "Total net sales | 81,797 | 82,959\nNet income | 19,881 | 19,442", 1, 30, GLOBEX_Q3),
        # each quarter again in the cash-flow statement: a period end the filer's tables share
        Chunk("i2#6", "initech-2023q2", "(In millions) | Three Months Ended Jul 1, 2023 | Three Months Ended Jul 2, 2022\n"
              "Net income | 1,481 | (454)", 6, 20, {**INTECH_Q2, "section": "Part I > Item 1 > Cash Flows"}),
        Chunk("i1#2", "initech-2023q1", "(In millions) | Three Months Ended Apr 1, 2023 | Three Months Ended Apr 2, 2022\n"
              "Net income | (2,758) | 8,113", 2, 20, {**INTECH_Q1, "section": "Part I > Item 1 > Cash Flows"}),
        Chunk("i0#2", "initech-2022q2", "(In millions) | Three Months Ended July 2, 2022 | Three Months Ended July 3, 2021\n"
              "Net income | (454) | 5,061", 2, 20, {**INTECH_Q2_22, "section": "Part I > Item 1 > Cash Flows"}),
        Chunk("g3#2", "globex-2023q3", "(In millions) | Three Months Ended July 1, 2023 | Three Months Ended June 25, 2022\n"
              "Net income | 19,881 | 19,442", 2, 20, {**GLOBEX_Q3, "section": "Part I > Item 1 > Cash Flows"}),
        # an acquired business's balance in a note, on a day that is none of Initech's period ends
        Chunk("i2#7", "initech-2023q2", "(In millions) | Dec 29, 2021\nInventories | 941", 7, 10,
              {**INTECH_Q2, "section": "Note 9 > Acquisitions"}),
        # a subject that is only a legal suffix names no company
        Chunk("x#0", "inc-only", "(In millions) | Three Months Ended July 1, 2023\nNet revenue | 5", 0, 10,
              {**GLOBEX_Q3, "company": "Inc."}),
    ]


def test_periods_companies_and_units_are_read_from_the_column_line() -> None:
    assert parse_period("Three September Months Ended 30, 2022").phrase() == "the quarter ended September 30, 2022"
    assert parse_period("Nine Months Ended October 29, 2023 (In millions)").phrase() == "the nine months ended October 29, 2023"
    assert parse_period("June 25, 2022").phrase() == "June 25, 2022"  # a balance: as of that day
    for not_a_period in ("2023", "Dec 31, 2022 Fair Value Measured Using Level 3", "Page", "Three Months Ended $ Change",
                         "Three Months Ended December Year Ended December 31, 2022"):
        assert parse_period(not_a_period) is None, not_a_period
    assert short_company("Apple Inc.") == "Apple" and short_company("Amazon.com, Inc.") == "Amazon"
    assert short_company("NVIDIA Corporation") == "NVIDIA"
    assert short_company("Inc.") == "" and short_company("LLC") == "" and short_company("Item 2. Properties") == ""
    assert metric_phrase("Net sales: Total net sales") == "Total net sales"
    assert metric_phrase("Earnings per share: Diluted") == "Diluted Earnings per share"
    assert metric_phrase("Balance, end of period") == "" and metric_phrase("Windows") == ""


def test_a_name_inside_a_metric_keeps_its_capitals_and_a_run_in_segment_gets_its_for() -> None:
    """Hand-read on the 10-Qs (s31): "NVIDIA's revenue for United states" ("united" and "states" are common
    words) and "Microsoft's operating income productivity and business processes"."""
    from datagen.table_facts import cased

    common = {"revenue", "for", "united", "states", "operating", "income", "productivity", "and", "business",
              "processes", "total", "net", "sales", "products"}
    assert cased(metric_phrase("Revenue: United States"), common) == "revenue for United States"
    assert metric_phrase("Operating Income Productivity and Business Processes") == (
        "Operating Income for Productivity and Business Processes")
    assert cased(metric_phrase("Operating Income Productivity and Business Processes"), common) == (
        "operating income for Productivity and Business Processes")
    assert cased("Total Net Sales", common) == "total net sales"  # the first word's run is no name
    assert cased(metric_phrase("Net sales: Products"), common) == "net sales for products"
    # a segment table's total row is the company's figure: "consolidated net sales", not "net sales for consolidated"
    assert cased(metric_phrase("Net Sales: Consolidated"), common | {"consolidated"}) == "consolidated net sales"
    assert cased(metric_phrase("Net Sales: International"), common | {"international"}) == "international net sales"


def test_table_rows_ask_natural_questions_and_bad_tables_give_none_counted() -> None:
    mined, base = table_fact_base(_filings())
    asks = {f.ask.replace("{s}", f.subject): f.answer for fs in base.facts.values() for f in fs}
    assert asks["What was Initech's net revenue, in millions of dollars, for the quarter ended July 1, 2023?"] == "12,949"
    assert asks["What were Globex's total net sales, in millions of dollars, for the quarter ended July 1, 2023?"] == "81,797"
    assert base.skipped["table_row_without_header"] == 2  # the lost-header chunk's two rows
    assert base.skipped["table_columns_not_periods"] == 2  # the table of contents
    assert base.skipped["table_without_company"] == 1  # "Inc."
    assert base.skipped["table_flow_without_length"] == 2  # a flow "as of" a day is a misreading
    assert not any("Page" in q or "Controls" in q or "Inc.'s" in q or "investing" in q for q in asks), list(asks)


def test_filings_give_verified_comparisons_and_bridges_across_documents(tmp_path: Path) -> None:
    from datagen.period_tasks import PeriodTasks

    mined, base = table_fact_base(_filings())
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    assert generator.own_stages["table_statement_ambiguous"] == 2  # Operating income, both quarters
    report = generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=200, hops=(1, 2), patience=80, seed=3))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    assert report.written == len(tasks) and report.drops.get("answer_not_in_supporting_chunk", 0) == 0, report.drops
    assert not any("operating income" in q.lower() for q in tasks)  # two values: asked never
    assert not any("December 29, 2021" in q for q in tasks) and generator.own_stages["table_period_of_one_section"] == 1

    periods = "Was Initech's net revenue larger for the quarter ended April 1, 2023 or for the quarter ended July 1, 2023?"
    assert tasks[periods].answers[0] == "the quarter ended July 1, 2023" and tasks[periods].hops == 2
    assert set(tasks[periods].gold_doc_ids) == {"initech-2023q1", "initech-2023q2"}
    companies = [q for q in tasks if re.match(r"Which company had larger net income for the quarter ended July 1, 2023, ", q)]
    assert companies and all(tasks[q].answers[0] == "Globex" for q in companies), companies
    bridge = ("In the quarter in which Globex's total net sales were $81,797 million, what was Initech's net revenue, "
              "in millions of dollars, for its quarter ended the same day?")
    assert tasks[bridge].answers[0] == "12,949" and list(tasks[bridge].gold_doc_ids) == ["globex-2023q3", "initech-2023q2"]
    assert tasks[bridge].metadata["form"] == "bridge"
    # every 2-hop task needs both filings: no one document states both of its figures
    for t in tasks.values():
        if t.hops == 2:
            assert len(set(t.gold_doc_ids)) == 2, t.query

    # the Jul 2, 2022 quarter is stated by last year's filing and by this year's prior-year column: both gold
    repeated = [t for t in tasks.values() if t.hops == 1 and "July 2, 2022" in t.query]
    assert repeated and all({"i0#1", "i2#1"} <= set(t.facts[-1]) for t in repeated), [t.facts for t in repeated]

    split = split_tasks(list(tasks.values()), test_fraction=0.3, seed=0)
    assert not split.leaks()
    assert not {normalize(t.query) for t in split.train} & {normalize(t.query) for t in split.test}
    train_figures = {k for t in split.train for k in t.metadata["fact_keys"]}
    assert not any(k in train_figures for t in split.test for k in t.metadata["fact_keys"])


def test_without_tables_the_natural_generator_is_left_alone() -> None:
    from datagen.period_tasks import with_period_tasks

    mined, base = table_fact_base([Chunk("a#0", "a", "Ada Lovelace was born in London in 1815.", 0, 10, {"kind": "text"})])
    inner = NoProseGenerator()
    assert with_period_tasks(inner, mined, base) is inner


def test_a_split_of_one_connected_folder_keeps_its_test_side_to_the_target() -> None:
    """Old code: tasks that all share filings formed one component, and every task touching the test side
    joined it: 0 train / 60 test on the docugami filings."""
    from corpus_tools.types import Task

    tasks = [Task(f"t{i}", f"question {i}?", ("1",), (f"d{i}", f"d{i + 1}")) for i in range(20)]  # a chain of documents
    split = split_tasks(tasks, test_fraction=0.2, seed=0)
    assert 0 < len(split.test) <= 4 and split.train and not split.leaks()
    # filings tasks are split by fact: sharing a filing is no leak, sharing a figure or the question is
    filings = [Task(f"f{i}", f"figure {i}?", ("1",), ("10-Q a", "10-Q b"), metadata={"split_by": "fact", "fact_keys": [f"k{i % 5}"]})
               for i in range(20)]
    split = split_tasks(filings, test_fraction=0.2, seed=0)
    assert len(split.test) == 4 and len(split.train) == 16 and not split.dropped and not split.leaks()


def test_a_rate_is_compared_as_higher_an_amount_as_larger() -> None:
    """Hand-read on the 10-Qs (s32): "Was Intel's effective tax rate larger for …?"."""
    from datagen.period_tasks import PeriodTasks

    rates = [Chunk(f"r{i}#1", f"r{i}", f"(In millions) | Three Months Ended {day} | Three Months Ended {prior}\n"
                   f"Effective tax rate | {a} | {b}\nNet revenue | {c} | {d}", 1, 20,
                   {**INTECH_Q2, "period_end": end, "section": section})
             for i, (day, prior, a, b, c, d, end) in enumerate((
                 ("Jul 1, 2023", "Jul 2, 2022", "280.5%", "50.1%", "12,949", "15,321", "2023-07-01"),
                 ("Apr 1, 2023", "Apr 2, 2022", "12.0%", "9.5%", "11,715", "18,353", "2023-04-01")))
             for section in ("Part I > Item 1 > Income", "Part I > Item 2 > Results")]
    rates = [Chunk(f"{c.chunk_id}{k}", c.doc_id, c.text, k, 20, c.metadata) for k, c in enumerate(rates)]
    mined, base = table_fact_base(rates)
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    questions = set()
    for seed in range(40):
        found = generator._compare_periods(random.Random(seed))
        if not isinstance(found, DropReason):
            questions.add(found.question)
    assert "Was Initech's effective tax rate higher for the quarter ended April 1, 2023 or for the quarter ended July 1, 2023?" in questions
    assert "Was Initech's net revenue larger for the quarter ended April 1, 2023 or for the quarter ended July 1, 2023?" in questions


def test_shares_and_rates_keep_their_own_unit() -> None:
    chunk = Chunk("r#0", "r", "(In millions) | Three Months Ended July 1, 2023\nRevenue | 100.0%\n"
                  "Statutory federal income tax rate | 21%\nNet sales | 81,797", 0, 20, GLOBEX_Q3)
    skipped: Counter = Counter()
    asks = {f.ask.replace("{s}", f.subject): f.answer for f in table_facts(chunk, "Globex Inc.", skipped)}
    assert asks == {
        "What was Globex's statutory federal income tax rate for the quarter ended July 1, 2023?": "21%",
        "What were Globex's net sales, in millions of dollars, for the quarter ended July 1, 2023?": "81,797",
    }, asks
    assert skipped["table_share_not_metric"] == 1  # "Revenue | 100.0%" is a share of revenue


def test_prose_repeated_across_filings_is_asked_once_and_heading_subjects_not_at_all() -> None:
    from datagen.period_tasks import PeriodTasks
    from datagen.types import Candidate

    def single(question: str, subject: str) -> Candidate:
        return Candidate(question, "October 2014", (), 1, metadata={"fact_keys": [f"{subject}|open|date|october 2014"]})

    class Prose(NoProseGenerator):
        def __init__(self) -> None:
            self.queue = [single("When did the European Commission open a formal investigation?", "european commission"),
                          single("When did the European Commission open a formal investigation?", "european commission"),
                          single("Which place were Litigation Related to filed for?", "litigation related to"),
                          single("Which place did Legal Proceedings Epic Games Epic Games, Inc. file a lawsuit for?",
                                 "legal proceedings epic games epic games, inc.")]

        def propose(self, hops: int, rng: random.Random):  # noqa: ANN201
            return self.queue.pop(0)

        def exhausted(self, hops: int) -> None:
            return None

    mined, base = table_fact_base(_filings())
    wrapped = PeriodTasks(Prose(), mined, base, share=0.0)
    rng = random.Random(0)
    first = wrapped.propose(1, rng)
    assert isinstance(first, Candidate)
    wrapped.commit(first)
    assert [wrapped.propose(1, rng) for _ in range(3)] == [DropReason.DUPLICATE, DropReason.NO_ANSWER_SPAN,
                                                           DropReason.NO_ANSWER_SPAN]


def test_a_contracts_defined_terms_are_no_subject_or_answer() -> None:
    """Hand-read on the 10-Qs' exhibits (s32): "Who held Shares?" → "Participant", "Who established Plan?" →
    "Company": capitalised common words a contract defines name nothing a reader can place."""
    from datagen.period_tasks import PeriodTasks
    from datagen.types import Candidate

    def single(question: str, subject: str, answer: str) -> Candidate:
        return Candidate(question, answer, (), 1, metadata={"fact_keys": [f"{subject}|x|by|organization|{answer.lower()}"]})

    class Prose(NoProseGenerator):
        def __init__(self) -> None:
            self.queue = [single("Who held Shares?", "shares", "Participant"),
                          single("Who awarded This Award Agreement?", "this award agreement", "Microsoft Corporation"),
                          single("Which organization did VLSI file a second suit against?", "vlsi", "Initech"),
                          single("When did the European Commission open a formal investigation?", "the european commission",
                                 "October 2014")]

        def propose(self, hops: int, rng: random.Random):  # noqa: ANN201
            return self.queue.pop(0)

        def exhausted(self, hops: int) -> None:
            return None

    chunks = [*_filings(), Chunk("t#0", "terms", "The participant holds the shares under the plan and the award "
                                 "agreement of the company; the commission meets.", 0, 20, {"kind": "text"})]
    mined, base = table_fact_base(chunks)
    wrapped = PeriodTasks(Prose(), mined, base, share=0.0)
    rng = random.Random(0)
    found = [wrapped.propose(1, rng) for _ in range(4)]
    assert found[:2] == [DropReason.NO_ANSWER_SPAN, DropReason.NO_ANSWER_SPAN] and wrapped.own_stages["prose:defined_term"] == 2
    assert all(isinstance(c, Candidate) for c in found[2:]), found  # "Initech" and "the European Commission" are names


def test_a_table_about_another_company_is_not_asked_of_the_filer() -> None:
    """Amazon's 10-Q summarises Rivian's results; "Amazon's revenues … 661" would be wrong, in either chunk."""
    from datagen.period_tasks import read_statements

    meta = {**INTECH_Q2, "company": "Amazon.com, Inc.", "section": "Part I > Item 1 > Other Income (Expense), Net"}
    cols = "columns: Three Months Ended March 31, 2022 | Three Months Ended March 31, 2023 · in millions"
    chunks = [
        Chunk("a#0", "amzn", "Required summarized financial information of Rivian is as follows (in millions):\n\n"
              "(in millions) | Three Months Ended March 31, 2022 | Three Months Ended March 31, 2023\n"
              "Revenues | 95 | 661\nGross profit | (502) | (535)", 0, 30, meta),
        Chunk("a#1", "amzn", "Gross profit | (502) | (535)\nNet loss | (1,593) | (1,349)", 1, 20, {**meta, "header": cols}),
        Chunk("a#2", "amzn", "(in millions) | Three Months Ended March 31, 2023\nNet sales | 127,358", 2, 20,
              {**meta, "section": "Part I > Item 1 > Statements of Operations"}),
        Chunk("a#3", "amzn", "(in millions) | Three Months Ended March 31, 2023\nNet income | 3,172", 3, 20,
              {**meta, "section": "Part I > Item 1 > Statements of Cash Flows"}),
    ]
    mined, base = table_fact_base(chunks)
    skipped: Counter = Counter()
    statements = read_statements(base, mined, skipped)
    assert sorted((s.key.metric, s.value) for s in statements) == [("Net income", "3,172"), ("Net sales", "127,358")]
    assert base.skipped["table_of_another_subject"] == 1 and skipped["table_statement_of_another_subject"] == 4


# -- three filings: a bridge that names a quarter feeding a comparison of two other companies (s32) ----------
HOOLI = {"kind": "table", "company": "Hooli, Inc."}  # read without sections, as Intel's 10-Qs are


def _three_companies() -> list[Chunk]:
    """Initech (fiscal quarters ending Jul 1 / Apr 1, 2023), Globex (the same days) and Hooli (calendar quarters,
    Jun 30 / Mar 31): Globex earns more in one quarter, Hooli in the other."""
    def table(cid: str, doc: str, meta: dict, columns: str, rows: str, position: int, section: str | None = None) -> Chunk:
        m = {**meta, **({"section": section} if section else {})}
        return Chunk(cid, doc, f"(In millions) | {columns}\n{rows}", position, 30, m)

    q2, q1 = "Three Months Ended Jul 1, 2023 | Three Months Ended Jul 2, 2022", "Three Months Ended Apr 1, 2023 | Three Months Ended Apr 2, 2022"
    cash = "Part I > Item 1 > Cash Flows"
    covers = [Chunk(f"{doc[0]}{doc[-1]}#0", doc, f"{name}\nFORM 10-Q", 0, 10, {**meta, "kind": "text"}) for doc, name, meta in (
        ("initech-2023q2", "Initech Corporation", INTECH_Q2), ("initech-2023q1", "Initech Corporation", INTECH_Q1),
        ("globex-2023q3", "Globex Inc.", GLOBEX_Q3), ("globex-2023q2", "Globex Inc.", {**GLOBEX_Q3, "period_end": "2023-04-01"}),
        ("hooli-2023q2", "Hooli, Inc.", {**HOOLI, "period_end": "2023-06-30"}),
        ("hooli-2023q1", "Hooli, Inc.", {**HOOLI, "period_end": "2023-03-31"}))]
    return covers + [
        table("i2#1", "initech-2023q2", INTECH_Q2, q2, "Net revenue | 12,949 | 15,321\nNet income | 1,481 | (454)", 1),
        table("i2#2", "initech-2023q2", INTECH_Q2, q2, "Net income | 1,481 | (454)", 2, cash),
        table("i1#1", "initech-2023q1", INTECH_Q1, q1, "Net revenue | 11,715 | 18,353\nNet income | (2,758) | 8,113", 1),
        table("i1#2", "initech-2023q1", INTECH_Q1, q1, "Net income | (2,758) | 8,113", 2, cash),
        table("g2#1", "globex-2023q3", GLOBEX_Q3, "Three Months Ended July 1, 2023 | Three Months Ended June 25, 2022",
              "Total net sales | 81,797 | 82,959\nNet income | 19,881 | 19,442", 1),
        table("g2#2", "globex-2023q3", GLOBEX_Q3, "Three Months Ended July 1, 2023 | Three Months Ended June 25, 2022",
              "Net income | 19,881 | 19,442", 2, cash),
        table("g1#1", "globex-2023q2", {**GLOBEX_Q3, "period_end": "2023-04-01"},
              "Three Months Ended April 1, 2023 | Three Months Ended March 26, 2022", "Net income | 24,160 | 25,010", 1),
        table("h2#1", "hooli-2023q2", {**HOOLI, "period_end": "2023-06-30"},
              "Three Months Ended June 30, 2023 | Three Months Ended June 30, 2022",
              "Total net sales | 134,383 | 121,234\nNet income (loss) | 6,750 | (2,028)", 1),
        table("h1#1", "hooli-2023q1", {**HOOLI, "period_end": "2023-03-31"},
              "Three Months Ended March 31, 2023 | Three Months Ended March 31, 2022",
              "Total net sales | 127,358 | 116,444\nNet income (loss) | 31,172 | (3,844)", 1),
    ]


def test_a_bridge_names_the_quarter_two_other_companies_are_compared_in(tmp_path: Path) -> None:
    """Old code: no 3-document task on any folder, and every statement of a filer whose chunks carry no section
    (Intel's 10-Qs) was dropped as "table_period_of_one_section"."""
    from datagen.period_tasks import PeriodTasks

    mined, base = table_fact_base(_three_companies())
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    assert any(s.company == "Hooli" for s in generator.statements)  # a filer read without sections
    report = generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=100, hops=(3,), patience=60, seed=1))
    tasks = read_task_file(tmp_path / "t.jsonl")
    assert report.written == len(tasks) and tasks and report.drops.get("answer_not_in_supporting_chunk", 0) == 0
    net_income = {("initech", "2023-07"): 1481, ("globex", "2023-07"): 19881, ("hooli", "2023-07"): 6750,
                  ("globex", "2023-04"): 24160, ("hooli", "2023-04"): 31172}
    revenue = {("initech", "2023-07"): 12949, ("initech", "2023-04"): 11715, ("initech", "2022-07"): 15321,
               ("globex", "2023-07"): 81797, ("globex", "2022-07"): 82959, ("hooli", "2023-07"): 134383,
               ("hooli", "2023-04"): 127358}
    bridge_month = {"12,949": "2023-07", "1,481": "2023-07", "81,797": "2023-07", "19,881": "2023-07",
                    "134,383": "2023-07", "6,750": "2023-07", "11,715": "2023-04", "24,160": "2023-04",
                    "127,358": "2023-04", "31,172": "2023-04", "15,321": "2022-07", "82,959": "2022-07",
                    "19,442": "2022-07", "18,353": "2022-04", "8,113": "2022-04"}
    decided = 0
    for t in tasks:
        assert t.hops == 3 and t.metadata["form"] == "bridged_comparison", t.query
        # three filings of three companies, each needed; the question names no day, month or year
        assert len({d.split("-")[0] for d in t.gold_doc_ids}) == 3, t.gold_doc_ids
        assert not re.search(r"\b(?:20\d\d|January|March|April|June|July)\b", t.query), t.query
        m = re.match(r"In the quarter in which (\w+)'s .+? (?:was|were) \$([\d,]+) million, which company had larger "
                     r"(net income|revenue) for its quarter ended (?:the same day|within a week of it), (\w+) or (\w+)\?$", t.query)
        assert m, t.query
        _first, value, item, x, y = m.groups()
        month = bridge_month[value]
        figures = {c: (net_income if item == "net income" else revenue)[(c.lower(), month)] for c in (x, y)}
        assert t.answers[0] == max(figures, key=figures.get), (t.query, figures)
        decided += bool(t.metadata["period_decides"])
        assert t.metadata["options"] == [x, y] and t.answers[0] in (x, y)
    # Globex earns more in the July quarter, Hooli in the April one: the bridge decides the answer
    assert decided >= 1
    wording = ("In the quarter in which Initech's net revenue was $12,949 million, which company had larger net "
               "income for its quarter ended within a week of it, ")
    assert any(t.query.startswith(wording) and t.answers[0] == "Globex" for t in tasks), [t.query for t in tasks]
    # Globex and Hooli share the revenue line for the July quarter only: without a second quarter the pair is its
    # own answer, so it is not asked (counted)
    assert generator.own_stages["filings:3-hop pair_of_one_quarter"] >= 1
    assert not any("larger revenue" in t.query and {"Globex", "Hooli"} <= set(t.metadata["options"]) for t in tasks)


def test_every_passage_of_every_hop_is_a_positive_in_a_comparison(tmp_path: Path) -> None:
    """Old code: a comparison's figures got no extra positive (only a number answer's last hop did)."""
    from datagen.period_tasks import PeriodTasks

    mined, base = table_fact_base(_filings())
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=200, hops=(2,), patience=80, seed=3))
    tasks = read_task_file(tmp_path / "t.jsonl")
    july = [t for t in tasks if t.metadata["form"] == "comparison" and "July 2, 2022" in t.query]
    assert july, [t.query for t in tasks]
    for t in july:
        item = next(i for i, s in enumerate(t.metadata["supporting"]) if s["doc_id"] in ("initech-2022q2", "initech-2023q2")
                    and "2022" in " ".join(s["quotes"]))
        # the quarter's figure sits in last year's filing and in this year's prior-year column: both count
        assert {"i0#1", "i2#1"} <= set(t.facts[item]), (t.query, t.facts)


def test_a_row_whose_heading_was_lost_and_a_hedged_item_give_no_fact_counted() -> None:
    """Hand-read on the 10-Qs (s31): Amazon's North America segment table ("Net sales | 74,430", its caption
    only in the contextual header) asked as Amazon's net sales; Apple's hedged term debt as its term debt."""
    amzn = {**INTECH_Q2, "company": "Amazon.com, Inc.", "section": "Part I > Item 1 > AWS"}
    cols = "(in millions) | Three Months Ended June 30, 2022 | Three Months Ended June 30, 2023"
    segment = Chunk("s#0", "amzn", f"{cols}\nNet sales | 74,430 | 82,546\nOperating income (loss) | 3,211 | 4,109", 0, 30,
                    {**amzn, "header": "Amazon.com, Inc. 10-Q · Part I > Item 1 > AWS · North America · columns: x · in millions"})
    named = Chunk("s#1", "amzn", f"{cols}\nNet Sales: North America | 74,430 | 82,546", 1, 20,
                  {**amzn, "header": "Amazon.com, Inc. 10-Q · Part I > Item 2 > Net Sales · columns: x · in millions"})
    hedge = Chunk("h#0", "aapl", "(in millions) | July 1, 2023 | September 24, 2022\n"
                  "Hedged assets/(liabilities): Current and non-current term debt | (17,986) | (18,739)\n"
                  "Term debt | 98,071 | 99,627", 0, 20, {**GLOBEX_Q3, "company": "Apple Inc.", "section": "Note 4 > Interest Rate Risk"})
    per_share = Chunk("p#0", "intc", "(In millions, except per share amounts) | Three Months Ended Jul 1, 2023\n"
                      "Income tax effects | 0.39\nNet revenue | 12,949", 0, 20, {**INTECH_Q2, "company": "Intel Corporation"})
    skipped: Counter = Counter()
    asks = {f.ask.replace("{s}", f.subject): f.answer for c in (segment, named, hedge, per_share)
            for f in table_facts(c, c.metadata["company"], skipped)}
    assert not any(q.startswith("What were Amazon's net sales,") for q in asks), list(asks)
    assert asks["What were Amazon's net Sales for North America, in millions of dollars, for the quarter ended June 30, 2023?"] == "82,546"
    assert skipped["table_row_heading_lost"] == 2  # the segment table's two rows
    assert skipped["table_row_hedge_item"] == 1 and asks["What was Apple's term debt, in millions of dollars, as of July 1, 2023?"] == "98,071"
    assert not any("0.39" == a for a in asks.values()) and skipped["table_value_per_share_unit"] == 1
    assert asks["What was Intel's net revenue, in millions of dollars, for the quarter ended July 1, 2023?"] == "12,949"


# -- what drove a change (datagen.filing_drivers) -------------------------------------------------
GLOBEX_COVER = {"company": "Globex Inc.", "fiscal_quarter": 3, "fiscal_year": 2023, "period_end": "2023-09-30"}
GLOBEX_NEXT = {"company": "Globex Inc.", "fiscal_quarter": 4, "fiscal_year": 2023, "period_end": "2023-12-30"}
MAC = ("Total net sales decreased 1% or $1.2 billion during the third quarter of 2023 compared to the same quarter "
       "in 2022, primarily due to lower net sales of Mac, partially offset by higher net sales of Services.")


def _discussions() -> list[Chunk]:
    """Globex's third-quarter filing (a table, so the filings forms run, and its MD&A) and the next
    quarter's, which repeats the third quarter's sentence beside its own."""
    text = {"kind": "text", "section": "Part I > Item 2 > MD&A"}
    return [
        *(c for c in _filings() if c.doc_id == "globex-2023q3"),
        Chunk("g3#9", "globex-2023q3", "The following compares total net sales and gross margin by quarter. " + MAC + " "
              "Services net sales increased during the third quarter of 2023 compared to the same quarter in 2022 due "
              "to a variety of factors. "
              "iPhone net sales increased during the third quarter of 2023 primarily due to these. "
              "Operating expenses increased primarily due to higher headcount-related expenses. "
              "Gross margin decreased 2 points during the third quarter of 2023 driven by a weaker mix, primarily due to "
              "higher component costs. "
              "Wearables net sales decreased during the third quarter of 2023 primarily due to lower demand.",
              9, 120, {**GLOBEX_COVER, **text}),
        Chunk("g3#10", "globex-2023q3",
              "Wearables net sales decreased during the third quarter of 2023 primarily due to supply constraints. "
              "Mac net sales decreased during the third quarter of 2023 primarily due to lower demand for",
              10, 40, {**GLOBEX_COVER, **text}),
        Chunk("g4#0", "globex-2023q4", "Globex Inc.\nFORM 10-Q\nFor the quarterly period ended September 30, 2023", 0, 20,
              {**GLOBEX_NEXT, "kind": "text"}),
        Chunk("g4#1", "globex-2023q4", MAC + " Total net sales increased 2% during the fourth quarter of 2023 compared "
              "to the same quarter in 2022 primarily due to higher net sales of iPhone.", 1, 60, {**GLOBEX_NEXT, **text}),
    ]


def test_a_discussion_sentence_gives_the_cause_of_a_change_and_refuses_the_unclear_counted() -> None:
    from datagen.filing_drivers import ask_driver, calendar_year, groups, read_drivers

    mined = mine(_discussions())
    stages: Counter = Counter()
    found = groups(read_drivers(mined, stages, {c.chunk_id for cs in mined.chunks.values() for c in cs if is_table(c.metadata)}))
    by_metric = {(g[0].metric, g[0].quarter): g for g in found}
    mac = by_metric[("Total net sales", 3)]
    assert mac[0].cause == "lower net sales of Mac" and mac[0].doc_id == "globex-2023q3"  # the offset is no cause
    assert ask_driver(mac[0], calendar=True) == (
        "What was the primary driver of the change in Globex's total net sales in the third quarter of 2023?")
    # the next quarter's filing repeats it for the same quarter: a positive; its own quarter is its own question
    assert [d.doc_id for d in mac[1:]] == ["globex-2023q4"]
    assert by_metric[("Total net sales", 4)][0].cause == "higher net sales of iPhone"
    # a fiscal year that is not the calendar's says so: a third quarter that ended July 1 is Apple's, not the
    # calendar's (Intel's second quarter ended that day)
    assert calendar_year(mined, "globex-2023q3") and calendar_year(mined, "globex-2023q4")
    apple = {"company": "Apple Inc.", "fiscal_quarter": 3, "fiscal_year": 2023, "period_end": "2023-07-01"}
    assert not calendar_year(mine([Chunk("a#0", "apple-2023q3", "Apple Inc.", 0, 2, apple)]), "apple-2023q3")
    assert calendar_year(mine([Chunk("n#0", "intel-2023q2", "Intel", 0, 2, {**apple, "fiscal_quarter": 2})]), "intel-2023q2")
    # the change's own cause, not the cause of that cause
    assert by_metric[("Gross margin", 3)][0].cause == "a weaker mix"
    # vague, pronoun-led, no quarter named, two causes for one change, a cut sentence: none asked, each counted
    assert set(by_metric) == {("Total net sales", 3), ("Total net sales", 4), ("Gross margin", 3)}, by_metric
    assert stages["driver:refused_vague"] == 1 and stages["driver:refused_pronoun"] == 1
    assert stages["driver:refused_no_quarter"] == 1
    assert stages["driver:refused_two_causes"] == 2 and stages["driver:refused_cut"] == 1
    assert stages["driver:questions"] == 3


def test_a_driver_question_is_written_verified_with_its_repeat_as_a_positive(tmp_path: Path) -> None:
    from datagen.period_tasks import PeriodTasks

    mined, base = table_fact_base(_discussions())
    generator = PeriodTasks(NoProseGenerator(), mined, base)
    generate(generator, mined, tmp_path / "t.jsonl", GenerateConfig(n=40, hops=(1,), patience=80, seed=3))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    q = "What was the primary driver of the change in Globex's total net sales in the third quarter of 2023?"
    assert q in tasks, sorted(tasks)
    task = tasks[q]
    assert task.answers[0] == "lower net sales of Mac" and task.metadata["form"] == "driver"
    assert {"g3#9", "g4#1"} <= set(task.facts[-1]), task.facts
    assert generator.stages["filings:driver:proposed"] == 3  # each (company, line item, quarter) once
