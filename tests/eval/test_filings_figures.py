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
