"""context1-mini from the learned teacher against the hand-tuned teacher's student (issue 22, item 4).

Reads what `benchmarks/train_mini_learned.sh BASE RUN` and the earlier `train_mini_pipeline.sh`
run (BASE) wrote and prints markdown: the four rows on the held-back tasks, tasks won and lost by
trajectory recall, and what each teacher's training trajectories look like (calls per turn, tools,
query forms) — the trajectories each student imitated.

    python benchmarks/train_mini_learned.py --base BASE --run RUN
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

COLUMNS = (
    ("valid_tool_call_rate", "valid calls"),
    ("trajectory_recall", "traj. recall"),
    ("output_recall", "output recall"),
    ("answer_found", "answer found"),
    ("calls_per_turn", "calls/turn"),
)


def _rows(path: Path) -> dict[str, dict]:
    records = (json.loads(x) for x in path.read_text().splitlines() if x.strip())
    return {r["task_id"]: r for r in records}


def _won_lost(a: Path, b: Path, key: str = "trajectory_recall") -> str:
    ra, rb = _rows(a), _rows(b)
    common = [t for t in ra if t in rb]
    d = [(ra[t]["scores"].get(key) or 0.0) - (rb[t]["scores"].get(key) or 0.0) for t in common]
    return f"{sum(x > 1e-9 for x in d)} won, {sum(x < -1e-9 for x in d)} lost, {sum(abs(x) <= 1e-9 for x in d)} tied"


def _best_of(path: Path, tasks: Path) -> list[int]:
    """Line numbers of the trajectories `train sft --best-of N` keeps (the best of each task by reward)."""
    from context1 import load_trajectories
    from training.rollouts import load_task_file
    from training.sft import keep_best_by_reward

    trajs = load_trajectories(path)
    kept, _ = keep_best_by_reward(trajs, load_task_file(tasks).tasks)
    ids = {id(t) for t in kept}
    return [i for i, t in enumerate(trajs) if id(t) in ids]


def _trajectory_stats(path: Path, only: list[int] | None = None) -> dict[str, float]:
    """Calls per turn, tool mix and query forms of a file of teacher trajectories (`only`: those lines)."""
    tools: Counter = Counter()
    n, turns, verbatim, words, empty_turns = 0, 0, 0, [], 0
    lines = [x for x in path.read_text().splitlines() if x.strip()]
    for line in lines if only is None else [lines[i] for i in only]:
        t = json.loads(line)
        n += 1
        question = t["query"].strip()
        for step in t["steps"]:
            turns += 1
            calls = step["turn"].get("tool_calls") or []
            empty_turns += not calls
            for c in calls:
                tools[c["name"]] += 1
                args = c.get("arguments") or {}
                if c["name"] == "search_corpus":
                    q = str(args.get("query", "")).strip()
                    verbatim += q == question
                    words.append(len(q.split()))
    searches = max(tools["search_corpus"], 1)
    return {
        "trajectories": n,
        "calls/turn": sum(tools.values()) / max(turns, 1),
        "turns without a call": empty_turns / max(turns, 1),
        "search": tools["search_corpus"] / max(n, 1),
        "grep": tools["grep_corpus"] / max(n, 1),
        "read": tools["read_document"] / max(n, 1),
        "prune": tools["prune_chunks"] / max(n, 1),
        "searches = the question": verbatim / searches,
        "words/search": sum(words) / max(len(words), 1),
    }


def _teacher_data(path: Path, tasks: Path) -> str:
    """Output recall and RL reward of a teacher file over its tasks; tasks whose samples differ in reward."""
    from context1 import load_trajectories
    from eval import metrics
    from training.reward import compute_reward
    from training.rollouts import load_task_file

    by_id = {t.task_id: t for t in load_task_file(tasks).tasks}
    rec, rew, per_task = [], [], {}
    for traj in load_trajectories(path):
        task = by_id[traj.metadata["task_id"]]
        rec.append(metrics.recall([d.doc_id for d in traj.documents], metrics.gold_units(task, "document")) or 0.0)
        rew.append(compute_reward(traj, task, beta=4.0).reward)
        per_task.setdefault(task.task_id, set()).add(round(rew[-1], 9))
    spread = sum(len(v) > 1 for v in per_task.values())
    return (f"{len(rec)} trajectories, output recall {sum(rec) / len(rec):.3f}, reward {sum(rew) / len(rew):.3f}; "
            f"tasks whose samples differ in reward: {spread} of {len(per_task)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="The hand-tuned teacher's run (train_mini_pipeline.sh).")
    ap.add_argument("--run", type=Path, required=True, help="The learned teacher's run (train_mini_learned.sh).")
    args = ap.parse_args()
    b, r = args.base, args.run
    rows = [
        ("hand-tuned teacher (iterative)", b / "teacher_test"),
        ("learned teacher (greedy)", r / "teacher_learned_test"),
        ("hand-tuned teacher, 3 turns", r / "teacher_iterative_3turns_test"),
        ("learned teacher, 3 turns", r / "teacher_learned_3turns_test"),
        ("student of the hand-tuned teacher (sft_v2)", b / "sft_v2_192_test"),
        ("student of the learned teacher (best-of-4)", r / "sft_learned_192_test"),
    ]
    print("| held-back tasks (36) | " + " | ".join(h for _, h in COLUMNS) + " |")
    print("|---|" + "---|" * len(COLUMNS))
    for name, stem in rows:
        p = Path(f"{stem}_summary.json")
        if not p.is_file():
            print(f"| {name} | " + " | ".join("—" for _ in COLUMNS) + " |")
            continue
        s = json.loads(p.read_text())
        print(f"| {name} | " + " | ".join(f"{s[k]:.3f}" for k, _ in COLUMNS) + " |")
    print()
    for name, a, c in (
        ("learned vs hand-tuned teacher", r / "teacher_learned_test.jsonl", b / "teacher_test.jsonl"),
        ("learned-teacher student vs hand-tuned-teacher student", r / "sft_learned_192_test.jsonl",
         b / "sft_v2_192_test.jsonl"),
        ("learned-teacher student vs its teacher", r / "sft_learned_192_test.jsonl", r / "teacher_learned_test.jsonl"),
    ):
        if a.is_file() and c.is_file():
            print(f"- {name}, trajectory recall per task: {_won_lost(a, c)}")
    print()
    print("Teacher trajectories on the training tasks (what the SFT selected from):")
    print(f"- hand-tuned: {_teacher_data(b / 'sft_v2' / 'teacher.jsonl', b / 'tasks_train.jsonl')}")
    if (r / "sft_learned" / "teacher.jsonl").is_file():
        print(f"- learned, best-of-4 samples: {_teacher_data(r / 'sft_learned' / 'teacher.jsonl', b / 'tasks_train.jsonl')}")
    print()
    stats = [("hand-tuned (one rollout a task)", _trajectory_stats(b / "sft_v2" / "teacher.jsonl"))]
    learned = r / "sft_learned" / "teacher.jsonl"
    if learned.is_file():
        stats.append(("learned, every sample (4 a task)", _trajectory_stats(learned)))
        stats.append(("learned, the best of 4 kept", _trajectory_stats(learned, _best_of(learned, b / "tasks_train.jsonl"))))
    if stats:
        keys = list(stats[0][1])
        print("| training trajectories | " + " | ".join(keys) + " |")
        print("|---|" + "---|" * len(keys))
        for name, s in stats:
            print(f"| {name} | " + " | ".join(f"{s[k]:.2f}" if isinstance(s[k], float) else str(s[k]) for k in keys)
                  + " |")


if __name__ == "__main__":
    main()
