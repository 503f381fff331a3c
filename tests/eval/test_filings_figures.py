"""The filings benchmark's figure measure (benchmarks/agent_passages.py): a form's name is no figure."""

from __future__ import annotations

from bench_modules import bench


def _module():
    return bench("agent_passages")


def test_the_10_of_a_form_name_is_no_figure_with_strict_figures():
    ap = _module()
    answer = "Per its latest 10-Q (and the Form 10 -K), revenue rose 10% to $12.9 billion in Q3 2023; 10-q filers"
    assert ap.figures(answer) == ["10", "12.9"]  # session 28's measure: "10" from "10-Q" counts
    assert ap.figures(answer, strict=True) == ["10", "12.9"]  # "10%" is a figure
    only_form = "Apple's 10-Q for the quarter discusses foreign exchange risk in its 10-K."
    assert ap.figures(only_form) == ["10"] and ap.figures(only_form, strict=True) == []
    # so a passage that merely cites "Form 10-K" no longer answers such a question
    assert ap.figures_found(["See Part II of our Form 10-K."], ap.figures(only_form)) == 1.0
    assert ap.figures_found(["$12.9 billion"], ap.figures(answer, strict=True)) == 1.0  # half of the figures count
    wanted = ap.figures(answer, strict=True)
    assert ap.figures_found(["Form 10-Q, $7.7 billion"], wanted) == 1.0  # the old measure reads "10" in "10-Q"
    assert ap.figures_found(["Form 10-Q, $7.7 billion"], wanted, strict=True) == 0.0
    assert ap.figures_found(["10% and $12.9 billion"], wanted, strict=True) == 1.0


def test_filings_passages_reads_a_figure_in_billions_in_a_tables_millions_with_units_on(tmp_path):
    """`--units on` (session 34): "$23.198 billion" / "$7.7 billion" are held by a statement's "23,198" / "7,730"
    (millions), at the answer's own precision; a year, a bare "$2 billion" and a number off by a rounding are not."""
    import csv

    fp = bench("filings_passages")
    answer = "Net cash from operations was $23.198 billion; capital expenditures were $7.7 billion. SOURCE(S): x"
    assert fp.scaled_figures(answer) == {"23.198": [3, 6], "7.7": [3, 6]}
    assert fp.scaled_figures("It spent $2 billion and $1,234.5 million on 5.4 billion shares") == {
        "1234.5": [3], "5.4": [3, 6]}  # "$2 billion" has no decimal: any number from 1,500 to 2,499 would match
    figures, scaled = fp.answer_figures(answer), fp.scaled_figures(answer)
    table = ["Net cash from operations | 23,198 | 24,540", "Additions to property and equipment | (7,730) | (6,283)"]
    assert not fp.holds_figures(figures, table)  # the plain rule: a true holder counted as a miss
    assert fp.holds_figures(figures, table, scaled)
    assert fp.holds_figures(figures, ["Net cash | 23,198,000 | in thousands"], scaled)
    assert not fp.holds_figures(figures, ["Net cash | 23,298 | 2023 | 7,780"], scaled)  # off at the stated precision
    assert not fp.holds_figures({"2.0"}, ["fiscal 2023 | 2023"], {"2.0": [3, 6]})  # a year is no grouped number
    qna = tmp_path / "qna.csv"
    with qna.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["Question", "Answer", "Question Type", "Source Docs"])
        w.writeheader()
        w.writerow({"Question": "What was Microsoft's net cash from operations in Q3 2022?", "Answer": answer,
                    "Question Type": fp.QUESTION_TYPE, "Source Docs": "*2022 Q3 MSFT*"})
    plain, units = fp.load_questions(qna, ["2022 Q3 MSFT.pdf"]), fp.load_questions(qna, ["2022 Q3 MSFT.pdf"], units=True)
    assert fp.holds(plain[0], table) is False and fp.holds(units[0], table) is True


def test_the_agents_scorer_reads_figure_units_as_one_searchs_scorer_does():
    """`agent_passages.py filings --units on` (session 34): the agent's figures are held by a table's millions by
    filings_passages.py's own rule (imported, not copied), so the agent's and one search's scorings agree; off, as
    before."""
    ap, fp = _module(), bench("filings_passages")
    answer = "Net cash from operations was $23.198 billion; capital expenditures were $7.7 billion. SOURCE(S): x"
    wanted, scaled = ap.figures(answer, strict=True), fp.scaled_figures(answer)
    table = ["Net cash from operations | 23,198 | 24,540", "Additions to property and equipment | (7,730) | (6,283)"]
    assert ap.figures_found(table, wanted, strict=True) == 0.0  # off: the plain rule
    assert ap.figures_found(table, wanted, strict=True, scaled=scaled) == 1.0
    assert ap.figures_found(table, wanted, strict=True, scaled=scaled) == float(
        fp.holds_figures(fp.answer_figures(answer), table, scaled))
    assert ap.figures_found(["Net cash | 23,298 | 2023 | 7,780"], wanted, strict=True, scaled=scaled) == 0.0
    assert ap.answer_held(table, wanted, [], scaled) == 1.0 and ap.answer_held(table, wanted, []) == 0.0
