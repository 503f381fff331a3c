"""Why deeper generated tasks do not move the learned search policy (issue 36's last goal), in two tables.

    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/policy_depth.py --index /work/indexes/bench-musique-256 \
        --tasks GEN/tasks.jsonl [--policy DIR] --data-dir ../shared/data --set musique

1. **What a task set teaches, by depth** (`--tasks`, a `context1 datagen` file). The warm start
   (training/search_policy.py) learns from the decisions of greedy episodes of the untrained prior: per
   bridge round, a query decision is labelled only where some gold document is still unseen and some
   candidate brings one in (`_query_gains`); the answer decisions are labelled by the gold documents.
   Per depth (gold documents of the task): tasks, share with every gold document seen at the answer,
   query decisions per round (all, already solved, labelled, the labelled ones whose greedy choice
   brought a gold document), answer decisions.
2. **What any answer ranking over these features could do** (`--set`, the benchmark's tuning part only:
   `agent_llm_free.SPLITS`). The answer (passage) decisions of greedy episodes of `--policy` (or the
   prior) on the tuning questions, then passage R@5 (gold documents covered by the top 5 passages)
   under: the policy's passage scorer, the prior, linear scorers fitted *in-sample on these very
   questions* (anchored to the prior as training does, and free; deep questions alone): what a linear
   scorer over `PASSAGE_FEATURES` could reach at best, and an oracle that puts every gold passage in
   view first (= the share of gold documents in view). Nothing here is trained on for a policy; the
   in-sample fits are a ceiling, never a figure of a policy. Then, per passage feature on the 3-4-gold
   questions, its mean over the gold passages the policy leaves out of its top 5 against the non-gold
   ones inside it (`separation_table`): which features could tell later-hop gold passages apart.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))


def teach_table(corpus, tasks, weights, agent_config) -> str:
    from context1.backends.learned import LearnedSearchPolicy
    from training.rollouts import run_rollout
    from training.search_policy import _query_gains

    stats: dict[int, Counter] = defaultdict(Counter)
    rounds: set[int] = set()
    k = int(agent_config.search_k)
    for t in tasks:
        depth = min(len(t.gold_doc_ids), 4)
        gold = set(t.gold_doc_ids)
        rec: list = []
        ro = run_rollout(corpus, LearnedSearchPolicy(corpus, weights).recording(rec, temperature=0.0), t,
                         agent_config, 0)
        s = stats[depth]
        s["tasks"] += 1
        if ro.failed:
            s["failed"] += 1
            continue
        answers = [d for d in rec if d.kind == "doc"]
        s["all seen"] += bool(answers) and gold <= set(answers[-1].labels)
        s["answer"] += bool(answers) and bool(gold & set(answers[-1].labels))
        for d in rec:
            if d.kind != "query":
                continue
            r = int(d.state["round"])
            rounds.add(r)
            s[f"r{r}"] += 1
            if gold <= set(d.state["seen_docs"]):
                s[f"r{r} solved"] += 1
                continue
            g = np.array(_query_gains(corpus, d, gold, k))
            if g.sum() > 0:
                s[f"r{r} labelled"] += 1
                s[f"r{r} hit"] += bool(d.chosen) and g[d.chosen].max() > 0
    cols = ["tasks", "all seen"] + [f"r{r}{x}" for r in sorted(rounds) for x in ("", " solved", " labelled", " hit")] + [
        "answer"]
    head = ["gold documents"] + [{"all seen": "every gold seen", "answer": "answer decisions"}.get(c, c) for c in cols]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] + ["---:"] * len(cols)) + " |"]
    for depth in sorted(stats):
        lines.append(f"| {depth}{'+' if depth == 4 else ''} | " + " | ".join(str(stats[depth][c]) for c in cols) + " |")
    total = Counter()
    for s in stats.values():
        total.update(s)
    lines.append("| all | " + " | ".join(str(total[c]) for c in cols) + " |")
    return "\n".join(lines)


def ceiling_table(corpus, questions, weights, agent_config) -> str:
    from context1.backends.learned import PASSAGE_FEATURES, LearnedSearchPolicy, PolicyWeights
    from eval.types import Task
    from training.rollouts import run_rollout
    from training.search_policy import SearchPolicyTrainConfig, _Example, fit_scorer

    rows = []
    for q in questions:
        task = Task(q["id"], q["query"], gold_doc_ids=tuple(q["gold"]))
        rec: list = []
        run_rollout(corpus, LearnedSearchPolicy(corpus, weights).recording(rec, temperature=0.0), task, agent_config, 0)
        passages = [d for d in rec if d.kind == "passage"]
        if passages:
            d = passages[-1]
            rows.append((q, d.features, [c.rpartition("#")[0] for c in d.labels]))

    def examples(part):
        out = []
        for q, x, docs in part:
            y = np.array([1.0 if d in set(q["gold"]) else 0.0 for d in docs])
            if y.sum() > 0:
                out.append(_Example(x, y / y.sum(), False, 5))
        return out

    def pr5(scores, docs, gold) -> float:
        return len({docs[i] for i in np.argsort(-scores, kind="stable")[:5]} & gold) / len(gold)

    is_deep = lambda q: len(q["gold"]) >= 3  # noqa: E731
    cfg, n = SearchPolicyTrainConfig(), len(PASSAGE_FEATURES)
    prior = PolicyWeights.prior().passage
    scorers = {
        "policy": weights.passage or prior, "prior": prior,
        "in-sample, anchored": fit_scorer(examples(rows), n, 0, cfg, loss="setwise", anchor=prior, anchor_weight=1.0),
        "in-sample, free": fit_scorer(examples(rows), n, 0, cfg, loss="setwise"),
        "in-sample, 3+ gold only": fit_scorer(examples([r for r in rows if is_deep(r[0])]), n, 0, cfg, loss="setwise"),
    }
    head = ["questions", "n"] + list(scorers) + ["oracle (gold in view)"]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---"] + ["---:"] * (len(head) - 1)) + " |"]
    for name, part in (("2 gold", [r for r in rows if not is_deep(r[0])]), ("3-4 gold", [r for r in rows if is_deep(r[0])])):
        if not part:
            continue
        cells = [np.mean([pr5(s(x), docs, set(q["gold"])) for q, x, docs in part]) for s in scorers.values()]
        cells.append(np.mean([len(set(docs) & set(q["gold"])) / len(q["gold"]) for q, _x, docs in part]))
        lines.append(f"| {name} | {len(part)} | " + " | ".join(f"{c:.3f}" for c in cells) + " |")
    return "\n".join(lines) + "\n\n" + separation_table(rows, scorers["policy"], is_deep)


def separation_table(rows, scorer, is_deep) -> str:
    """Per passage feature, its mean over the gold passages the policy's scorer leaves out of its top 5
    (their document not cited there), over the non-gold passages inside its top 5 (what a gold one must
    displace) and over the other non-gold passages, on the 3-4-gold questions: a feature that could
    lift later-hop gold passages is higher on the first column than on the other two."""
    from context1.backends.learned import PASSAGE_FEATURES

    missed, wrong, rest = [], [], []
    for q, x, docs in rows:
        if not is_deep(q):
            continue
        gold, top = set(q["gold"]), list(np.argsort(-scorer(x), kind="stable")[:5])
        cited = {docs[i] for i in top}
        for i, d in enumerate(docs):
            if d in gold and d not in cited:
                missed.append(x[i])
            elif d not in gold:
                (wrong if i in top else rest).append(x[i])
    if not missed:
        return "(no gold passage missed on the 3-4-gold questions)"
    cols = [np.mean(np.array(v), axis=0) if v else np.full(len(PASSAGE_FEATURES), np.nan) for v in (missed, wrong, rest)]
    lines = [f"3-4-gold questions: feature means over {len(missed)} missed gold passages, {len(wrong)} non-gold in the "
             f"top 5, {len(rest)} other non-gold", "", "| feature | missed gold | non-gold in top 5 | other non-gold |",
             "| --- | ---: | ---: | ---: |"]
    for k, name in enumerate(PASSAGE_FEATURES):
        lines.append(f"| {name} | {cols[0][k]:.3f} | {cols[1][k]:.3f} | {cols[2][k]:.3f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--tasks", type=Path, help="a task file (table 1)")
    parser.add_argument("--policy", type=Path, help="a policy folder (default: the untrained prior); table 2")
    parser.add_argument("--set", help="a benchmark whose tuning part table 2 reads (musique, hotpotqa)")
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()
    if not args.tasks and not args.set:
        parser.error("give --tasks (table 1), --set (table 2) or both")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from context1 import AgentConfig
    from context1.backends.learned import PolicyWeights, open_policy
    from training.cli_common import _open, _tasks
    from training.search_policy import cached_query_vectors

    corpus = _open(args.index)
    agent_config = AgentConfig()
    with cached_query_vectors(corpus):
        if args.tasks:
            print(f"What {args.tasks} teaches (greedy episodes of the prior), by depth:\n")
            print(teach_table(corpus, _tasks(args.tasks, None), PolicyWeights.prior(), agent_config))
        if args.set:
            from agent_llm_free import load_questions

            weights = open_policy(args.policy) if args.policy else PolicyWeights.prior()
            questions = [q for q in load_questions(args.set, args.data_dir, 400) if q["split"] == "tuning"]
            print(f"\n{args.set} tuning part: passage R@5 of answer rankings over the episodes of "
                  f"{args.policy or 'the prior'}:\n")
            print(ceiling_table(corpus, questions, weights, agent_config))


if __name__ == "__main__":
    main()
