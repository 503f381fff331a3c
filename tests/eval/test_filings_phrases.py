"""The filings benchmark's phrase rule (benchmarks/agent_passages.py, `--answers phrase`): a reference answer
without figures is held by one passage holding at least half of its content words beyond the question's."""

from __future__ import annotations

import json
import sys

import pytest
from bench_modules import bench


def _module():
    return bench("agent_passages")


QUESTION = "For Amazon's Q1 2023 10-Q, what is the relationship between R&D expenditures and the launch of new services?"
ANSWER = ("For Amazon's Q1 2023, the R&D expenditures are included in the \"Technology and content\" costs, which "
          "consist of payroll and related expenses for employees involved in research and development.\n\n"
          "SOURCE(S): 2023 Q1 AMZN.pdf")


def test_light_stems_join_simple_inflections():
    ap = _module()
    assert ap.stem("increased") == ap.stem("increases") == ap.stem("increasing") == ap.stem("increase")
    assert ap.stem("companies") == ap.stem("company") and ap.stem("sales") == ap.stem("sale")
    assert ap.stem("expenses") == ap.stem("expense") and ap.stem("class") == "class"


def test_content_words_leave_out_the_question_periods_numbers_and_the_source_line():
    ap = _module()
    words = ap.answer_words(ANSWER, QUESTION)
    # "R&D", "expenditures", "Amazon", "Q1", "2023" are the question's or a period's; "SOURCE(S)" and the file name go
    assert words == ["includ", "technology", "content", "cost", "consist", "payroll", "relat", "expens", "employe",
                     "involv", "research", "development"]
    # the CSV's mis-decoded apostrophe ("Companyâ€™s") reads as a possessive, not a word "s"
    assert ap.answer_words("The Company\u00e2\u20ac\u2122s market risk did not change materially.", "How?") == \
        ["market", "risk", "chang", "materially"]


def test_one_passage_must_hold_half_of_the_answer_words():
    ap = _module()
    words = ap.answer_words(ANSWER, QUESTION)
    source = ("Technology and content costs include payroll and related expenses for employees involved in the "
              "research and development of new and existing products and services.")
    echo = "Amazon's R&D expenditures and the launch of new services in Q1 2023, per its 10-Q."  # the question, again
    assert ap.phrase_found([echo, source], words) == 1.0
    assert ap.phrase_found([echo], words) == 0.0  # the question's own words are no evidence
    # half the words split over two passages, neither holding half: not held (one passage must hold it)
    first, second = "Technology and content costs consist of payroll.", "Related expenses of employees involved."
    assert ap.phrase_share(first, words) < 0.5 and ap.phrase_share(second, words) < 0.5
    assert ap.phrase_found([first, second], words) == 0.0
    assert ap.phrase_found([source], words, share=1.0) == 0.0  # "consist" is not in it: the share is a real bar


def test_an_answer_the_question_gives_away_is_not_scored_and_figures_keep_the_figure_rule():
    ap = _module()
    negative = "The latest 10-Q does not provide a direct comparison between revenue and marketing expenses."
    words = ap.answer_words(negative, "How does revenue compare with marketing expenses in the latest 10-Q?")
    assert len(words) < ap.PHRASE_MIN_WORDS and ap.phrase_found(["anything"], words) is None
    figures = ap.figures("Net sales decreased 3% or $2.4 billion, primarily due to lower Mac sales.", strict=True)
    assert figures == ["2.4"]
    prose = "Total net sales decreased primarily due to lower net sales of Mac."  # the cause, not the figure
    assert ap.answer_held([prose], figures, ["lower", "mac"]) == 0.0
    assert ap.answer_held([prose + " It fell by $2.4 billion."], figures, []) == 1.0


def test_an_answer_that_says_the_filing_does_not_give_it_is_not_scored():
    """No passage can hold an absence: a long "does not provide …" answer has many content words, but none a
    passage of the filing could be judged by (the tuning half's hand check counted three such misses)."""
    ap = _module()
    absent = ("The latest 10-Q does not provide a direct comparison between the revenue from new product launches "
              "and marketing expenses. The document discusses the complexity of product transitions, supply and "
              "demand, and the impact of new product introductions on revenue.\n\nSOURCE(S): 2023 Q3 NVDA.pdf")
    question = "In the latest 10-Q, how does the revenue from NVIDIA's new launches compare with its advertising?"
    assert ap.answer_words(absent, question) == []
    assert ap.phrase_found(["The complexity of product transitions, supply and demand."], []) is None
    # a statement that merely contains "not" further on is still scored
    stated = ("Inventories are valued at the lower of cost and net realizable value. Adjustments do not provide "
              "certainty about demand.")
    assert len(ap.answer_words(stated, "How are Amazon's inventories valued?")) >= ap.PHRASE_MIN_WORDS


def test_filings_compare_reads_phrase_runs_by_rule(tmp_path, monkeypatch, capsys):
    ap = _module()
    monkeypatch.setattr(ap, "OUT", tmp_path)
    rows = {"hand": [(["12"], 1.0), ([], 0.0), ([], None), ([], 1.0)],
            "prior": [(["12"], 0.0), ([], 1.0), ([], None), ([], 1.0)]}
    for label, answers in rows.items():
        recs = [{"id": f"q{i}", "figures": f, "agent": a, "search_constrained": a} for i, (f, a) in enumerate(answers)]
        (tmp_path / f"filings-tuning-{label}-phrase.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    argv = ["agent_passages.py", "filings-compare", "--labels", "hand", "prior", "--part", "tuning", "--answers", "phrase"]
    monkeypatch.setattr(sys, "argv", argv)
    ap.main()
    out = capsys.readouterr().out
    assert "3 scored, phrase, all" in out  # the unscored question (None) is left out
    assert "| agent (prior) | 0.667 | +0.000 [" in out and "| 1 / 1 |" in out
    monkeypatch.setattr(sys, "argv", argv + ["--rule", "phrase"])
    ap.main()
    out = capsys.readouterr().out
    assert "2 scored, phrase, phrase" in out and "| agent (prior) | 1.000 | +0.500 [" in out
    monkeypatch.setattr(sys, "argv", argv[:3] + ["hand", "missing", "--part", "tuning", "--answers", "phrase"])
    with pytest.raises(SystemExit, match="--answers phrase` first"):
        ap.main()


def test_filings_passages_loads_phrase_questions_only_when_asked(tmp_path):
    import csv

    fp = bench("filings_passages")
    qna = tmp_path / "qna.csv"
    with qna.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=["Question", "Answer", "Question Type", "Source Docs"])
        w.writeheader()
        w.writerow({"Question": "What was Amazon's net income in Q1 2023?", "Answer": "It was $3,172 million.",
                    "Question Type": fp.QUESTION_TYPE, "Source Docs": "*2023 Q1 AMZN*"})
        w.writerow({"Question": QUESTION, "Answer": ANSWER, "Question Type": fp.QUESTION_TYPE,
                    "Source Docs": "*2023 Q1 AMZN*"})
    docs = ["2023 Q1 AMZN.pdf"]
    assert [q["id"] for q in fp.load_questions(qna, docs)] == ["q0"]  # the figure rule's questions, as before
    both = fp.load_questions(qna, docs, phrases=True)
    assert [q["id"] for q in both] == ["q0", "q1"] and both[1]["figures"] == [] and "payroll" in both[1]["words"]
    source = "Technology and content costs consist of payroll and related expenses for employees involved in research."
    assert fp.holds(both[1], [source]) is True and fp.holds(both[1], [QUESTION]) is False
    assert fp.holds(both[0], ["Net income | 3,172 | 3,844"]) is True  # a figure answer keeps the figure rule
    assert fp.holds({**both[1], "words": ["payroll"]}, [source]) is None  # too short to score
    rows = [{"split": "tuning", "figures": ["3172"], "fig@5": True}, {"split": "tuning", "figures": [], "fig@5": None}]
    assert "answers" not in fp.table(rows, "tuning") and "| figures in the top 5 | 1.00 |" in fp.table(rows, "tuning")
    rows[1]["fig@5"] = False
    assert "| answers in the top 5 | 0.50 |" in fp.table(rows, "tuning")
