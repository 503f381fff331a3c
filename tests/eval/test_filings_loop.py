"""The filings loop's benchmarks (issue 36: train on tasks generated from the filings, score on the real
questions): the leak check of benchmarks/filings_leaks.py and agent_passages.py's learned-policy driver."""

from __future__ import annotations

import json
import sys

import pytest
from bench_modules import bench

from corpus_tools.types import Task

QNA = (
    "Question,Source Docs,Question Type,Source Chunk Type,Answer\n"
    '"What was NVIDIA\'s gross margin in the most recent 10-Q?",*2023 Q3 NVDA*,Single-Doc Single-Chunk RAG,Table,'
    '"Gross margin for the three months ended October 29, 2023 was $13,400 million. SOURCE(S): 2023 Q3 NVDA.pdf"\n'
    '"How did Apple\'s net sales change?",*AAPL*,Multi-Doc RAG,Table,"They rose to $94,836 million."\n'
    '"What drove the change in Apple\'s net sales in Q2 2023?",*2023 Q2 AAPL*,Single-Doc Single-Chunk RAG,Text,'
    '"For the quarter ended April 1, 2023 the decrease was primarily due to lower net sales of Mac. '
    'SOURCE(S): 2023 Q2 AAPL.pdf"\n'
)


def _task(task_id: str, query: str, answers: tuple[str, ...], docs: tuple[str, ...], quotes=()) -> Task:
    supporting = [{"doc_id": docs[0], "chunk_ids": [], "quotes": list(quotes)}] if quotes else []
    return Task(task_id, query, answers=answers, gold_doc_ids=docs, metadata={"supporting": supporting})


def test_a_task_asking_a_real_question_or_its_figure_in_its_filing_leaks(tmp_path):
    leaks = bench("filings_leaks")
    qna = tmp_path / "qna.csv"
    qna.write_text(QNA, encoding="utf-8")
    real = leaks.real_questions(qna)
    assert real[0]["docs"] == {"2023 Q3 NVDA.pdf"} and real[0]["figures"] == {"13400"}  # the date's "29" is none
    tasks = [
        # the real question, respaced and recased
        _task("t-text", "what was  NVIDIA's gross margin in the most recent 10-Q?", ("x",), ("2023 Q1 AAPL.pdf",)),
        # the real answer's figure, from the real question's filing
        _task("t-figure", "What was NVIDIA's gross margin for the quarter ended October 29, 2023?",
              ("$13,400 million",), ("2023 Q3 NVDA.pdf",)),
        # the same figure from another filing is another fact
        _task("t-other-filing", "What was Intel's gross margin?", ("$13,400 million",), ("2023 Q3 INTC.pdf",)),
        # a comparison answered by a date ("October 29, 2023") over the real filing holds no figure
        _task("t-date", "Was NVIDIA's operating income larger for the quarter ended July 30, 2023 or October 29, 2023?",
              ("October 29, 2023",), ("2023 Q2 NVDA.pdf", "2023 Q3 NVDA.pdf"),
              quotes=("Gross margin | 13,400 | 3,177",)),
    ]
    # a cause asked of the real question's filing (datagen's analyst questions answer with a phrase, no figure)
    tasks += [
        _task("t-cause", "What was the primary driver of the change in Apple's net sales in the second quarter of "
              "fiscal 2023?", ("lower net sales of Mac",), ("2023 Q2 AAPL.pdf",)),
        _task("t-cause-elsewhere", "What was the primary driver of the change in Apple's net sales in the third "
              "quarter of fiscal 2023?", ("lower net sales of Mac",), ("2023 Q3 AAPL.pdf",)),
        _task("t-short", "Which segment fell?", ("Mac",), ("2023 Q2 AAPL.pdf",)),
        _task("t-period", "Were Apple's net sales larger for the quarter ended April 1, 2023 or December 31, 2022?",
              ("the quarter ended April 1, 2023",), ("2023 Q2 AAPL.pdf",)),
    ]
    found, same = leaks.check(tasks, real)
    assert found == [("t-text", "q0"), ("t-figure", "q0"), ("t-cause", "q2")]
    assert same == [("t-date", "q0")]  # reads the real question's row: reported, kept


def test_the_leak_check_refuses_a_leaking_file_unless_told_to_drop(tmp_path, monkeypatch, capsys):
    leaks = bench("filings_leaks")
    from eval.loaders.tasks import load_tasks, save_tasks

    qna = tmp_path / "qna.csv"
    qna.write_text(QNA, encoding="utf-8")
    path = tmp_path / "tasks.jsonl"
    save_tasks([_task("t-figure", "NVIDIA's gross margin?", ("$13,400 million",), ("2023 Q3 NVDA.pdf",)),
                _task("t-ok", "Intel's gross margin?", ("$9 billion",), ("2023 Q3 INTC.pdf",))], path)
    monkeypatch.setattr(sys, "argv", ["filings_leaks.py", str(path), "--qna", str(qna)])
    with pytest.raises(SystemExit) as stop:
        leaks.main()
    assert stop.value.code == 1
    clean = tmp_path / "clean.jsonl"
    monkeypatch.setattr(sys, "argv", ["filings_leaks.py", str(path), "--qna", str(qna), "--out", str(clean)])
    leaks.main()
    assert [t.task_id for t in load_tasks(clean).tasks] == ["t-ok"]
    assert "1 leak(s)" in capsys.readouterr().out


def test_financebench_questions_are_checked_by_the_same_rule(tmp_path, monkeypatch, capsys):
    """FinanceBench's jsonl (one filing per question, its `doc_name`): a generated task that answers with a real
    answer's figure from that filing leaks; the same figure from the company's other filing does not. Old code
    read docugami's CSV only."""
    leaks = bench("filings_leaks")
    from eval.loaders.tasks import save_tasks

    rows = [{"financebench_id": "fb_1", "company": "Brightway", "doc_name": "BRIGHTWAY_2023_10K",
             "question": "What is Brightway's FY2023 revenue in USD millions?", "answer": "$46,298.00",
             "evidence": [{"evidence_page_num": 40}]},
            {"financebench_id": "fb_2", "company": "Brightway", "doc_name": "BRIGHTWAY_2023Q2_10Q",
             "question": "Did Brightway's margin improve?", "answer": "Yes, it rose on lower promotions.",
             "evidence": [{"evidence_page_num": 3}]}]
    jsonl = tmp_path / "fb.jsonl"
    jsonl.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    real = leaks.financebench_real(jsonl)
    assert real[0]["docs"] == {"BRIGHTWAY_2023_10K.pdf"} and real[0]["figures"] == {"46298"}
    tasks = [_task("t-figure", "What was Brightway's revenue for the year ended January 28, 2023?", ("46,298",),
                   ("BRIGHTWAY_2023_10K.pdf",)),
             _task("t-other", "What was Brightway's revenue in 2024?", ("46,298",), ("BRIGHTWAY_2024_10K.pdf",)),
             _task("t-text", "what is brightway's FY2023 revenue in USD millions?", ("1",), ("X.pdf",))]
    found, _ = leaks.check(tasks, real)
    assert found == [("t-figure", "fb_1"), ("t-text", "fb_1")]
    path = tmp_path / "tasks.jsonl"
    save_tasks(tasks, path)
    monkeypatch.setattr(sys, "argv", ["filings_leaks.py", str(path), "--real", "financebench", "--jsonl", str(jsonl),
                                      "--out", str(tmp_path / "clean.jsonl")])
    leaks.main()
    assert "3 generated tasks, 2 real questions: 2 leak(s)" in capsys.readouterr().out


def test_the_filings_agent_can_be_driven_by_the_learned_policy(tmp_path):
    ap = bench("agent_passages")
    from context1.backends import LearnedSearchPolicy

    assert ap.filings_backend(None, None) is None  # the default LLM-free policy
    assert isinstance(ap.filings_backend(None, "prior"), LearnedSearchPolicy)
    with pytest.raises(SystemExit, match="no policy folder"):
        ap.filings_backend(None, str(tmp_path / "missing"))


def test_filings_compare_pairs_saved_runs_question_by_question(tmp_path, monkeypatch, capsys):
    ap = bench("agent_passages")
    monkeypatch.setattr(ap, "OUT", tmp_path)
    runs = {"hand": [1, 0, 1, 0], "trained": [1, 1, 0, 1]}
    for label, agent in runs.items():
        rows = [{"id": f"q{i}", "agent": a, "search_constrained": 1 - a} for i, a in enumerate(agent)]
        (tmp_path / f"filings-tuning-{label}-strict.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    monkeypatch.setattr(sys, "argv", ["agent_passages.py", "filings-compare", "--labels", "hand", "trained",
                                      "--part", "tuning", "--strict-figures"])
    ap.main()
    out = capsys.readouterr().out
    assert "| agent (hand) | 0.500 |  |  |" in out
    assert "| agent (trained) | 0.750 | +0.250 [" in out and "| 2 / 1 |" in out
    assert "| one search, constraints auto (trained) | 0.250 | -0.250 [" in out and "| 1 / 2 |" in out
    monkeypatch.setattr(sys, "argv", ["agent_passages.py", "filings-compare", "--labels", "hand", "missing",
                                      "--part", "tuning", "--strict-figures"])
    with pytest.raises(SystemExit, match="no run at"):
        ap.main()
