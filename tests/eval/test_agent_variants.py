"""benchmarks/agent_passages.py `variants` (session 42): two answer settings of one saved run, paired, and what it
says when the run or a setting is missing."""

from __future__ import annotations

import argparse
import json

import pytest
from bench_modules import bench


def _rec(gold, off, on, hybrid, found=(None, None, None)):
    return {"gold": gold, "hybrid": {"passages": hybrid, "docs": [c.split("#")[0] for c in hybrid],
                                     "answer_found": found[2]},
            "off": {"passages": off, "docs": [c.split("#")[0] for c in off], "answer_found": found[0]},
            "on": {"passages": on, "docs": [c.split("#")[0] for c in on], "answer_found": found[1]}}


def _args(label="t", keys=("off", "on")):
    return argparse.Namespace(label=label, keys=list(keys), sets=["hotpotqa"], part="tuning")


def test_variants_prints_means_the_paired_difference_and_won_lost(tmp_path, monkeypatch, capsys):
    ap = bench("agent_passages")
    monkeypatch.setattr(ap, "OUT", tmp_path)
    recs = [_rec(["a", "b"], ["a#0", "x#0"], ["a#0", "b#1"], ["a#0"], (1.0, 1.0, 0.0)),
            _rec(["c"], ["c#2"], ["c#2"], ["c#2"], (0.0, 0.0, 0.0))]
    (tmp_path / "hotpotqa-tuning-t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    ap.variants(_args())
    lines = capsys.readouterr().out.splitlines()
    r5 = next(x for x in lines if "passage R@5" in x)
    # off: (0.5 + 1) / 2, on: (1 + 1) / 2; one question won, none lost; against one search: off 0/0, on 1/0
    assert "| 0.750 | 1.000 | +0.250" in r5 and "1/0 | 0/0 | 1/0 |" in r5
    assert "answer-found@5 | 0.500 | 0.500 | +0.000 [+0.000, +0.000] 0/0" in next(x for x in lines if "answer-found" in x)


def test_variants_says_which_run_or_setting_is_missing(tmp_path, monkeypatch):
    ap = bench("agent_passages")
    monkeypatch.setattr(ap, "OUT", tmp_path)
    with pytest.raises(SystemExit, match="no run at .*hotpotqa-tuning-t.jsonl"):
        ap.variants(_args())
    (tmp_path / "hotpotqa-tuning-t.jsonl").write_text(json.dumps(_rec(["a"], ["a#0"], ["a#0"], ["a#0"])) + "\n")
    with pytest.raises(SystemExit, match=r"has no \['s42-on'\]"):
        ap.variants(_args(keys=("off", "s42-on")))
