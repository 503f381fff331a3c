"""benchmarks/fusion_learned.py pairs each fitted fusion against RRF on MuSiQue's 3–4-hop questions alone
as well (issue 36: deeper training data must help on them)."""

from __future__ import annotations

from tests.eval.bench_modules import bench


def test_deep_rows_pair_only_the_questions_named_and_line_them_up_by_question():
    fl = bench("fusion_learned")
    # RRF's questions in one order, the fit's in another: pairs must follow the question, not the position
    per = {
        "hybrid (RRF)": {"R@2": {"2hop__a": 1.0, "3hop1__b": 0.0, "4hop2__c": 0.5},
                         "all@10": {"2hop__a": 1.0, "3hop1__b": 0.0, "4hop2__c": 0.0},
                         "recall@5": {"2hop__a": 1.0, "3hop1__b": 0.5, "4hop2__c": 0.5}},
        "fusion fitted on new": {"R@2": {"4hop2__c": 1.0, "3hop1__b": 0.5, "2hop__a": 0.0},
                                 "all@10": {"4hop2__c": 1.0, "3hop1__b": 0.0, "2hop__a": 0.0},
                                 "recall@5": {"4hop2__c": 0.5, "3hop1__b": 1.0, "2hop__a": 1.0}},
    }
    ms = {"hybrid (RRF)": [1.0], "fusion fitted on new": [2.0]}
    deep = fl.comparison(per, ms, keep={"3hop1__b", "4hop2__c"})
    rows = {line.split(" | ")[0]: line for line in deep.splitlines() if line.startswith("| ")}
    assert rows["| hybrid (RRF)"].startswith("| hybrid (RRF) | 0.250 | 0.000 |")
    assert rows["| fusion fitted on new"].startswith("| fusion fitted on new | 0.750 | 0.500 |")
    # both deep questions won on R@2 (+0.5 each); the 2-hop loss (-1.0) is not among them
    assert "- fusion fitted on new vs hybrid (RRF), R@2: 2 / 0, +0.5000" in deep
    assert "- fusion fitted on new vs hybrid (RRF), all@10: 1 / 0, +0.5000" in deep
    assert "- fusion fitted on new vs hybrid (RRF), recall@5: 1 / 0, +0.2500" in deep  # R@5 is paired too
    whole = fl.comparison(per, ms)
    assert "- fusion fitted on new vs hybrid (RRF), R@2: 2 / 1, +0.0000" in whole


def test_a_later_fit_is_paired_against_the_first_as_well():
    fl = bench("fusion_learned")
    per = {
        "hybrid (RRF)": {"R@2": {"3hop1__a": 0.0, "3hop1__b": 0.0}},
        "fusion fitted on old": {"R@2": {"3hop1__a": 0.5, "3hop1__b": 1.0}},
        "fusion fitted on new": {"R@2": {"3hop1__b": 0.5, "3hop1__a": 1.0}},
    }
    ms = {name: [1.0] for name in per}
    out = fl.comparison(per, ms)
    assert "- fusion fitted on new vs fusion fitted on old, R@2: 1 / 1, +0.0000" in out
    assert "- fusion fitted on old vs fusion fitted on new" not in out
