"""benchmarks/search_policy.py's parts and rows: LoCoMo's tuning part (the questions after its reporting
part) and the untrained prior reading agreement between searches (`--prior-agreement`)."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

from bench_modules import BENCHMARKS, bench


def _task(i: int, gold: tuple[str, ...]) -> SimpleNamespace:
    return SimpleNamespace(task_id=f"q{i}", query=f"question {i}?", gold_doc_ids=gold)


def test_locomo_has_a_tuning_part_after_its_reporting_part():
    """The first `report_n` questions with evidence are the reporting part exactly as before (the same
    questions, in order); the ones after them are the tuning part; questions without evidence are in neither."""
    sp = bench("search_policy")
    tasks = [_task(i, () if i % 4 == 3 else (f"d{i}",)) for i in range(12)]
    rows = sp.locomo_split(tasks, 5)
    report = [r["id"] for r in rows if r["split"] == "report"]
    tuning = [r["id"] for r in rows if r["split"] == "tuning"]
    assert report == ["q0", "q1", "q2", "q4", "q5"]
    assert tuning == ["q6", "q8", "q9", "q10"]
    assert not set(report) & set(tuning)
    assert rows[0] == {"id": "q0", "query": "question 0?", "gold": ["d0"], "split": "report"}
    assert all(r["split"] == "report" for r in sp.locomo_split(tasks, 100))  # a limit past the end: no tuning


def test_the_prior_with_agreement_reads_it_at_its_weight():
    """A `prior-aW` row is the untrained prior (same scorers) whose answer-score parts count agreement between
    searches at W; the plain prior row keeps its own."""
    from context1.backends import LearnedSearchPolicy
    from context1.backends.learned import PolicyWeights

    sp = bench("search_policy")
    backend = sp.prior_with_agreement(None, 0.07)
    plain = LearnedSearchPolicy(None)
    assert backend.config.agreement_weight == 0.07
    prior = PolicyWeights.prior()
    for name in ("query", "doc", "passage"):
        assert getattr(backend.weights, name).layers[0][0].tolist() == getattr(prior, name).layers[0][0].tolist()
    assert plain.config.agreement_weight == PolicyWeights.prior().config.iterative.agreement_weight


def test_a_negative_prior_agreement_is_refused():
    run = subprocess.run([sys.executable, str(BENCHMARKS / "search_policy.py"), "--prior-agreement", "-0.1",
                          "--sets", "locomo"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert "--prior-agreement -0.1: a weight is 0 or more" in run.stderr



def test_a_task_set_is_generated_tasks_over_its_own_index_all_of_them_tuning(tmp_path):
    """`--task-set NAME=INDEX=TASKS` (session 38): a datagen task file as a set, every task in the tuning part
    (never a reporting part); tasks without gold documents are left out; the set opens its own index."""
    import json
    from argparse import Namespace

    sp = bench("search_policy")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(json.dumps({"task_id": f"g{i}", "query": f"q {i}?", "answers": ["x"],
                                         "gold_doc_ids": [f"d{i}"] if i else []}) + "\n" for i in range(3)))
    args = Namespace(task_set=[f"chat={tmp_path / 'idx'}={tasks}"], data_dir=None, locomo_limit=400)
    assert sp.task_files(args) == {"chat": (tmp_path / "idx", tasks)}
    rows = sp.set_questions("chat", args)
    assert rows == [{"id": "g1", "query": "q 1?", "gold": ["d1"], "split": "tuning"},
                    {"id": "g2", "query": "q 2?", "gold": ["d2"], "split": "tuning"}]


def test_rows_go_to_and_are_read_back_from_the_out_dir(tmp_path):
    """`--out-dir` (session 47, benchmarks/policy_chain_report.sh): a reporting run keeps its per-question rows in
    its own folder, and `--from-out --out-dir` prints the comparison from them (won / lost, the interval); the
    default folder is untouched."""
    import json

    rows = {"hand-tuned": [0.5, 0.5, 0.0, 1.0], "prior": [1.0, 0.5, 0.5, 1.0]}
    for who, pr5 in rows.items():
        (tmp_path / f"musique-{who}.jsonl").write_text("".join(
            json.dumps({"id": f"q{i}", "split": "tuning", "pr5": v, "all10": v, "r2": v, "r5": v, "traj_recall": v,
                        "precision": v, "tokens": 10, "wall_s": 1.0, "policy_ms_per_turn": 1.0}) + "\n"
            for i, v in enumerate(pr5)))
    run = subprocess.run([sys.executable, str(BENCHMARKS / "search_policy.py"), "--from-out", "--out-dir",
                          str(tmp_path), "--sets", "musique", "--split", "tuning", "--compare", "hand-tuned:prior"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    line = next(x for x in run.stdout.splitlines() if "prior vs hand-tuned | passage R@5" in x)
    assert "| musique (4) |" in line and "| 0.500 | 0.750 | +0.250" in line and "| 2 / 0 |" in line


def test_an_evenly_spaced_subset_of_a_part():
    """`--every N` (session 47): every Nth question of the part from its first, after `--limit` (so LoCoMo's tuning
    part cut at conversation 41's 95 stays inside it); 1 is the whole part, as before."""
    sp = bench("search_policy")
    qs = [{"id": f"q{i}", "split": "report" if i < 10 else "tuning"} for i in range(16)]
    ids = lambda rows: [r["id"] for r in rows]  # noqa: E731
    assert ids(sp.part_questions(qs, "report")) == [f"q{i}" for i in range(10)]
    assert ids(sp.part_questions(qs, "report", every=3)) == ["q0", "q3", "q6", "q9"]
    assert ids(sp.part_questions(qs, "tuning", limit=4, every=2)) == ["q10", "q12"]
    assert ids(sp.part_questions(qs, "all", limit=3)) == ["q0", "q1", "q2"]
    run = subprocess.run([sys.executable, str(BENCHMARKS / "search_policy.py"), "--every", "0", "--sets", "locomo"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "--every 0: 1 or more" in run.stderr


def test_the_chain_trains_with_the_start_check_unless_check_is_0(tmp_path):
    """benchmarks/policy_chain_report.sh (session 51): `CHECK=1`, the default, passes `--start-check` to `train
    policy` (a policy below its start on held-back tasks is not shipped) and prints what the check found; `CHECK=0`
    passes `--no-start-check` (session 48's training). A stand-in PYTHON records each call instead of running it."""
    import os

    fake = tmp_path / "python"
    fake.write_text('#!/usr/bin/env bash\necho "$*" >> "$CALLS"\n'
                    'case "$*" in *"train policy"*) echo "start check: on 4 held-back task(s) (stand-in)";; esac\n')
    fake.chmod(0o755)
    (tmp_path / "idx" / "bench-musique-256").mkdir(parents=True)
    (tmp_path / "idx" / "bench-musique-256" / "manifest.json").write_text("{}")
    (tmp_path / "gen" / "musique").mkdir(parents=True)
    (tmp_path / "gen" / "musique" / "tasks.jsonl").write_text("")

    def trains(check: str | None) -> tuple[str, str]:
        calls = tmp_path / f"calls-{check}"
        env = {**os.environ, "INDEX_ROOT": str(tmp_path / "idx"), "OUT": str(tmp_path / f"out-{check}"),
               "GEN": str(tmp_path / "gen"), "SETS": "musique", "SPLIT": "tuning", "PYTHON": str(fake),
               "CALLS": str(calls), **({"CHECK": check} if check is not None else {})}
        run = subprocess.run(["bash", str(BENCHMARKS / "policy_chain_report.sh")], env=env, capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        return next(x for x in calls.read_text().splitlines() if "train policy" in x), run.stderr

    on, said = trains(None)
    assert on.endswith("--fresh --start-check") and "start check: on 4 held-back task(s)" in said
    off, said = trains("0")
    assert off == on.replace("--start-check", "--no-start-check").replace("out-None", "out-0")


def test_the_chain_chooses_locomo_s_anchor_on_held_back_decisions_unless_told_none(tmp_path):
    """benchmarks/policy_chain_report.sh (session 52): LoCoMo's training passes `--doc-anchor-choices 0.1,0.03,0.3,1`
    by default (0.1 first: chosen on its tuning half); HotpotQA and MuSiQue pass none; `ANCHORS_locomo=` (empty) is session
    51's call word for word, and `ANCHORS_musique=W,...` reaches MuSiQue's. A stand-in PYTHON records the calls."""
    import os

    fake = tmp_path / "python"
    fake.write_text('#!/usr/bin/env bash\necho "$*" >> "$CALLS"\n')
    fake.chmod(0o755)
    for s in ("musique", "locomo"):
        (tmp_path / "idx" / f"bench-{s}-256").mkdir(parents=True)
        (tmp_path / "idx" / f"bench-{s}-256" / "manifest.json").write_text("{}")
        (tmp_path / "gen" / s).mkdir(parents=True)
        (tmp_path / "gen" / s / "tasks.jsonl").write_text("")

    def trains(tag: str, **env_extra: str) -> dict[str, str]:
        calls = tmp_path / f"calls-{tag}"
        env = {**os.environ, "INDEX_ROOT": str(tmp_path / "idx"), "OUT": str(tmp_path / "out"),
               "GEN": str(tmp_path / "gen"), "SETS": "musique locomo", "SPLIT": "tuning", "PYTHON": str(fake),
               "CALLS": str(calls), **env_extra}
        run = subprocess.run(["bash", str(BENCHMARKS / "policy_chain_report.sh")], env=env, capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        lines = [x for x in calls.read_text().splitlines() if "train policy" in x]
        return {s: next(x for x in lines if f"bench-{s}-256" in x) for s in ("musique", "locomo")}

    default = trains("default")
    assert default["locomo"].endswith("--fresh --start-check --doc-anchor-choices 0.1,0.03,0.3,1")
    assert default["musique"].endswith("--fresh --start-check")
    off = trains("off", ANCHORS_locomo="")
    assert off["locomo"].endswith("--fresh --start-check") and off["musique"] == default["musique"]
    asked = trains("asked", ANCHORS_musique="1,0.1")
    assert asked["musique"].endswith("--start-check --doc-anchor-choices 1,0.1")
