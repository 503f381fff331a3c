"""The learned search policy (issue 22) against the hand-tuned LLM-free policy and one hybrid search.

    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/search_policy.py --sets musique \
        --index-root /work/indexes --policy cloze=runs/policy-musique [--policy natural=DIR ...] --split report

Questions and splits are exactly benchmarks/agent_llm_free.py's (`load_questions`): HotpotQA
questions 1-150 and MuSiQue 1-120 are the part the hand-tuned policy was tuned on; the rest is the
reporting part; LoCoMo's first --locomo-limit questions with evidence were never tuned on (the reporting
part; the questions after them are its tuning part, as benchmarks/agent_passages.py splits them); `office` is
the fixture tests/fixtures/office_corpus (4 tuning, 10 reporting questions; indexed on first use) and
`filings` issue 24's 130 single-filing 10-Q questions (--filings-index, --filings-questions). The
hand-tuned policy was never tuned on them; for the learned machinery (session 26) they are split
deterministically by question id (`filings_split`: SHA-1 of the id, even = tuning, 66; odd =
reporting, 64). The
learned policies are trained only on tasks generated from each corpus (`context1 train policy`),
never on these questions. For `--policy NAME=DIR` these rows are printed: NAME-warm (DIR/warm, the
supervised warm start alone) and NAME-rl (DIR, after CISPO), and NAME-best (DIR/best: warm start +
best-of-N rejection sampling) where the folder has one. A `{set}` in DIR is replaced by the
set's name (one policy folder per corpus).

The hand-tuned policy returns only the documents scoring at least `evidence_ratio` (default 0.5,
issue 24) of the best one's; the learned policy always returns `max_documents`. Shorter lists can only
lower R@5 and all-R@10, so for a like-for-like ranking comparison pass `--evidence-ratio 0` (the
first version's length, up to 10 documents); `--evidence-ratio 0.5 --evidence-ratio 0` prints both
(rows hand-tuned-er0.5 and hand-tuned-er0).

Columns: R@2 / R@5 (mean recall of the gold documents in the top 2 / 5), all-R@10 (share of
questions with every gold document in the top 10), trajectory recall (gold documents seen anywhere
in the episode, pruned ones included), output precision (gold share of the returned documents),
passage R@5 (gold documents covered by the top 5 returned passages, `evidence`; issue 34),
context tokens at the end of the episode, wall seconds per question, and the policy's own CPU
milliseconds per turn (time inside `generate`, the tools excluded). Per-question JSONL under
benchmarks/out/search_policy/.

`--prior` adds the learned policy's untrained prior (row `prior`; since session 36 it reads agreement between
searches at the hand-tuned answer's weight, 0.05; since session 38 it is the "auto" start: the chat prior on a
conversation corpus such as LoCoMo, the hand-set one elsewhere; `--prior-answer hand-tuned` adds row
`prior-ans-hand-tuned`, the hand-set prior answering with the hand-tuned policy's answer over its own episode, session 47;
`--prior-start auto|chat|hand` names rows `prior-KIND`), `--prior-agreement W` the prior at weight W (row `prior-aW`;
`--prior-agreement 0` is the prior before session 36); `--compare A:B` prints B against A
per set: passage R@5 and all-R@10, questions won / lost, and a 95% paired bootstrap interval of the
difference (`--from-out` re-reads saved rows instead of running). Issue 34's run:

    python benchmarks/search_policy.py --sets hotpotqa --split report --limit 60 --workers 1 --prior \
        --policy trained=RUN/policy-{set} --stage rl --compare prior:trained-rl --compare hand-tuned:trained-rl \
        --compare hand-tuned:prior
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from agent_llm_free import hybrid_docs, load_questions, open_corpus, scores  # noqa: E402

INDEX = {"hotpotqa": "bench-hotpotqa-256", "musique": "bench-musique-256", "locomo": "bench-locomo-256"}


def set_questions(name: str, args: argparse.Namespace) -> list[dict]:
    """A set's questions: the dev sets and the office fixture as benchmarks/agent_llm_free.py splits them;
    `filings` = the --filings-questions JSONL (issue 24's single-filing 10-Q questions), split by
    `filings_split`."""
    if name == "filings":
        rows = [json.loads(line) for line in args.filings_questions.read_text().splitlines() if line.strip()]
        return [{"id": r["id"], "query": r["question"], "gold": r["gold_doc_ids"], "split": filings_split(r["id"])}
                for r in rows]
    if name == "locomo":
        from eval.loaders import load_benchmark

        return locomo_split(load_benchmark(name, args.data_dir).tasks, args.locomo_limit)
    if name in task_files(args):
        from eval.loaders.tasks import load_tasks

        # generated tasks over a tuning export: all tuning (a user's own tasks; never a reporting part)
        return [{"id": t.task_id, "query": t.query, "gold": list(t.gold_doc_ids), "split": "tuning"}
                for t in load_tasks(task_files(args)[name][1]).tasks if t.gold_doc_ids]
    return load_questions(name, args.data_dir, args.locomo_limit)


def part_questions(questions: list[dict], split: str, limit: int = 0, every: int = 1) -> list[dict]:
    """The questions run: those of `split` ("all": every one), the first `limit` of them (0: all), then every
    `every`th of those from the first — a fixed, evenly spaced subset when a whole part does not fit the time."""
    kept = [q for q in questions if split == "all" or q["split"] == split]
    return (kept[:limit] if limit else kept)[::every]


def task_files(args: argparse.Namespace) -> dict[str, tuple[Path, Path]]:
    """--task-set NAME=INDEX=TASKS as {NAME: (INDEX, TASKS)}."""
    out = {}
    for spec in args.task_set:
        name, index, tasks = spec.split("=", 2)
        out[name] = (Path(index), Path(tasks))
    return out


def locomo_split(tasks, report_n: int) -> list[dict]:  # noqa: ANN001 - eval Tasks
    """LoCoMo's questions with evidence: the first `report_n` (--locomo-limit, agent_llm_free's reporting part)
    report, the ones after them are the tuning part — as benchmarks/agent_passages.py splits them, so a
    learned-policy setting can be chosen on LoCoMo without its reporting questions (before session 36 this
    script read only the first `report_n`: no LoCoMo tuning part)."""
    kept = [t for t in tasks if t.gold_doc_ids]
    return [{"id": t.task_id, "query": t.query, "gold": list(t.gold_doc_ids),
             "split": "report" if i < report_n else "tuning"} for i, t in enumerate(kept)]


def filings_split(question_id: str) -> str:
    """The filings question's part, fixed by its id alone: SHA-1 even = tuning, odd = reporting."""
    return "tuning" if int(hashlib.sha1(question_id.encode()).hexdigest(), 16) % 2 == 0 else "report"


def set_corpus(name: str, args: argparse.Namespace):  # noqa: ANN201
    from corpus_tools import Corpus

    if name == "filings":
        return Corpus.open(args.filings_index)
    if name == "office":
        return open_corpus("office", args.index_root)  # the fixture, indexed on first use
    if name in task_files(args):
        return Corpus.open(task_files(args)[name][0])
    return Corpus.open(args.index_root / INDEX[name])


_timing = threading.local()


def prior_with_agreement(corpus, weight: float):  # noqa: ANN001, ANN201
    """The learned policy's untrained prior with agreement between searches at `weight` in the relevance its
    features read (`LearnedConfig.iterative.agreement_weight`; the hand-tuned answer's default is 0.05)."""
    from context1.backends import LearnedSearchPolicy
    from context1.backends.iterative import IterativeConfig
    from context1.backends.learned import LearnedConfig, PolicyWeights

    config = LearnedConfig(iterative=IterativeConfig(agreement_weight=weight))
    return LearnedSearchPolicy(corpus, PolicyWeights.prior(config))


def _timed(cls: type) -> None:
    """Record the CPU time of every `generate` of cls (per thread) — the policy's own overhead."""
    inner = cls.generate
    if getattr(inner, "_timed", False):
        return

    def generate(self, messages, tools):  # noqa: ANN001, ANN202
        t0 = time.thread_time()
        try:
            return inner(self, messages, tools)
        finally:
            getattr(_timing, "calls", []).append(time.thread_time() - t0)

    generate._timed = True  # type: ignore[attr-defined]
    cls.generate = generate


def run_agent(name: str, backend, corpus, questions: list[dict], workers: int) -> list[dict]:
    from context1 import SearchAgent

    agent = SearchAgent(corpus, backend)

    def one(q: dict) -> dict:
        _timing.calls = []
        t0 = time.perf_counter()
        result = agent.run(q["query"])
        wall = time.perf_counter() - t0
        traj = result.trajectory
        gold = set(q["gold"])
        seen = {d for s in traj.steps for o in s.observations for d in o.doc_ids}  # pruned ones included
        row = {"id": q["id"], "split": q["split"], "docs": result.doc_ids, "wall_s": wall,
               "tokens": max((s.tokens_used for s in traj.steps), default=0), "turns": len(traj.steps),
               "traj_recall": len(gold & seen) / len(gold),
               "precision": (len(gold & set(result.doc_ids)) / len(result.doc_ids)) if result.doc_ids else 0.0,
               "policy_ms_per_turn": 1000 * statistics.mean(_timing.calls) if _timing.calls else 0.0}
        for k in (2, 5, 10):
            row[f"r{k}"], row[f"all{k}"] = scores(result.doc_ids, q["gold"], k)
        passage_scores(row, [e.chunk_id for e in result.evidence], q["gold"])
        return row

    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(one, questions))


def run_hybrid(corpus, questions: list[dict]) -> list[dict]:
    rows = []
    for q in questions:
        t0 = time.perf_counter()
        hits = corpus.search(q["query"], k=50)
        wall = time.perf_counter() - t0
        docs = hybrid_docs(corpus, q["query"])
        tokens = 0
        first: set[str] = set()
        for h in hits:
            if h.chunk.doc_id in docs and h.chunk.doc_id not in first:
                first.add(h.chunk.doc_id)
                tokens += h.chunk.n_tokens
        gold = set(q["gold"])
        row = {"id": q["id"], "split": q["split"], "docs": docs, "wall_s": wall, "tokens": tokens, "turns": 1,
               "traj_recall": len(gold & set(docs)) / len(gold),
               "precision": len(gold & set(docs)) / len(docs) if docs else 0.0, "policy_ms_per_turn": 0.0}
        for k in (2, 5, 10):
            row[f"r{k}"], row[f"all{k}"] = scores(docs, q["gold"], k)
        passage_scores(row, [h.chunk.chunk_id for h in hits[:5]], q["gold"])
        rows.append(row)
    return rows


def passage_scores(row: dict, passages: list[str], gold: list[str]) -> None:
    """The returned passages (issue 34) and passage R@5 / all-R@5: gold documents covered by the top 5
    passages (a passage covers its document)."""
    covered = {c.rpartition("#")[0] for c in passages[:5]}
    found = sum(1 for g in gold if g in covered)
    row["passages"] = passages
    row["pr5"], row["pall5"] = found / len(gold), float(found == len(gold))


def table(results: dict[tuple[str, str], list[dict]], split: str) -> str:
    lines = ["| set | retriever | questions | R@2 | R@5 | all-R@10 | passage R@5 | traj. recall | out. precision | "
             "tokens / q | wall s / q | policy ms / turn |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (name, who), rows in results.items():
        part = [r for r in rows if split == "all" or r["split"] == split]
        if not part:
            continue

        def m(key: str, part: list[dict] = part) -> float:
            return sum(r[key] for r in part) / len(part)

        pr5 = f"{m('pr5'):.3f}" if all("pr5" in r for r in part) else "–"  # runs from before issue 34 lack it
        lines.append(f"| {name} | {who} | {len(part)} | {m('r2'):.3f} | {m('r5'):.3f} | {m('all10'):.3f} | {pr5} | "
                     f"{m('traj_recall'):.3f} | {m('precision'):.3f} | {m('tokens'):,.0f} | {m('wall_s'):.2f} | "
                     f"{m('policy_ms_per_turn'):.1f} |")
    return "\n".join(lines)


def deep(row: dict) -> bool:
    """A MuSiQue question of 3 or 4 hops (its id says: `3hop1__…`, `4hop3__…`)."""
    return row["id"][:4] in ("3hop", "4hop")


def _kept(row: dict, split: str, only) -> bool:
    return (split == "all" or row["split"] == split) and (only is None or only(row))


def compare(results: dict[tuple[str, str], list[dict]], pairs: list[str], split: str, n_boot: int = 2000,
            only=None, tag: str = "") -> str:
    """Per set and `A:B` pair: B's mean minus A's on passage R@5 and all-R@10, questions B won / lost,
    and a 95% paired bootstrap interval of the difference (questions resampled, seed 0). `only` keeps
    the questions it accepts, `tag` names them in the set column."""
    import random

    lines = ["| set | B vs A | metric | A | B | B − A [95% bootstrap] | won / lost |", "| --- | --- | --- | ---: | ---: | --- | ---: |"]
    for name in dict.fromkeys(n for n, _ in results):
        for pair in pairs:
            a, _, b = pair.partition(":")
            if (name, a) not in results or (name, b) not in results:
                continue
            ra = {r["id"]: r for r in results[(name, a)] if _kept(r, split, only)}
            rb = {r["id"]: r for r in results[(name, b)] if _kept(r, split, only)}
            ids = [i for i in ra if i in rb]
            if not ids:
                continue
            for key, label in (("pr5", "passage R@5"), ("all10", "all-R@10")):
                d = [rb[i][key] - ra[i][key] for i in ids]
                rng = random.Random(0)
                boot = sorted(sum(rng.choice(d) for _ in d) / len(d) for _ in range(n_boot))
                lo, hi = boot[int(0.025 * n_boot)], boot[int(0.975 * n_boot) - 1]
                mean_a = sum(ra[i][key] for i in ids) / len(ids)
                mean_b = sum(rb[i][key] for i in ids) / len(ids)
                lines.append(f"| {name}{tag} ({len(ids)}) | {b} vs {a} | {label} | {mean_a:.3f} | {mean_b:.3f} | "
                             f"{mean_b - mean_a:+.3f} [{lo:+.3f}, {hi:+.3f}] | {sum(x > 0 for x in d)} / "
                             f"{sum(x < 0 for x in d)} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--index-root", type=Path, default=ROOT / "indexes")
    parser.add_argument("--sets", default="musique,hotpotqa,locomo")
    parser.add_argument("--split", choices=("all", "report", "tuning"), default="report")
    parser.add_argument("--limit", type=int, default=0, help="most questions per set (0 = all)")
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="an evenly spaced subset: every Nth question of the part (after --limit), from "
                             "its first (1 = all)")
    parser.add_argument("--locomo-limit", type=int, default=400)
    parser.add_argument("--filings-index", type=Path, default=ROOT / "runs" / "filings-index",
                        help="index of the 20 10-Q filings (benchmarks/filings.py) for --sets filings")
    parser.add_argument("--filings-questions", type=Path, default=ROOT / "runs" / "filings-questions.jsonl",
                        help="their single-filing questions (benchmarks/filings.py --qna ... --questions-out)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--task-set", action="append", default=[], metavar="NAME=INDEX=TASKS",
                        help="a set NAME (name it in --sets) of generated tasks over INDEX (a context1 datagen "
                        "tasks.jsonl), all of it the tuning part; repeatable")
    parser.add_argument("--policy", action="append", default=[], metavar="NAME=DIR",
                        help="a trained policy folder ({set} is replaced by the set name); repeatable")
    parser.add_argument("--stage", default="both",
                        help="which of each --policy's rows to run, comma-separated of warm, best, rl "
                             "(warm start, after best-of-N, after CISPO); both = all of them")
    parser.add_argument("--no-baselines", action="store_true", help="skip hybrid and the hand-tuned policy")
    parser.add_argument("--prior", action="store_true", help="also run the learned policy's untrained prior (row prior)")
    parser.add_argument("--prior-start", action="append", default=[], choices=("auto", "chat", "hand"), metavar="KIND",
                        help="also run the untrained policy from this prior (row prior-KIND): hand = the hand-set "
                        "scorers (session 36's prior), chat = context1/backends/chat_prior (session 38), auto = "
                        "chat on a conversation corpus, else hand (the default untrained policy)")
    parser.add_argument("--prior-answer", action="append", default=[], choices=("hand-tuned", "learned"),
                        metavar="KIND", help="also run the untrained prior answering with KIND (row prior-ans-KIND): "
                        "hand-tuned = the hand-tuned policy's answer over the prior's episode (session 47), learned = its "
                        "hand-set passage scorer (the default); the chat prior always answers with its scorer")
    parser.add_argument("--prior-agreement", action="append", type=float, default=[], metavar="W",
                        help="also run the untrained prior reading agreement between searches at weight W "
                             "(IterativeConfig.agreement_weight; row prior-aW); repeatable")
    parser.add_argument("--compare", action="append", default=[], metavar="A:B",
                        help="print B against A (row names): won / lost and a bootstrap interval; repeatable")
    parser.add_argument("--from-out", action="store_true",
                        help="run nothing: read the rows named by --compare from benchmarks/out/search_policy/")
    parser.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "out" / "search_policy",
                        help="where the per-question rows are written (and --from-out reads them)")
    parser.add_argument("--evidence-ratio", action="append", type=float, default=[], metavar="R",
                        help="run the hand-tuned policy with IterativeConfig(evidence_ratio=R) (row "
                             "hand-tuned-erR); repeatable; none: one row with the default")
    args = parser.parse_args()
    if args.every < 1:
        parser.error(f"--every {args.every}: 1 or more")
    if any(w < 0 for w in args.prior_agreement):
        parser.error(f"--prior-agreement {min(args.prior_agreement):g}: a weight is 0 or more")
    stages = {"warm", "best", "rl"} if args.stage == "both" else set(args.stage.split(","))
    if not stages <= {"warm", "best", "rl"}:
        parser.error(f"--stage {args.stage!r}: comma-separated of warm, best, rl (or both)")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from context1.backends import IterativeRetrievalPolicy, LearnedSearchPolicy
    from context1.backends.iterative import IterativeConfig

    _timed(IterativeRetrievalPolicy)
    _timed(LearnedSearchPolicy)
    out_dir = args.out_dir
    out_dir.mkdir(parents=True, exist_ok=True)
    results: dict[tuple[str, str], list[dict]] = {}
    if args.from_out:
        for name in args.sets.split(","):
            for who in dict.fromkeys(w for pair in args.compare for w in pair.split(":")):
                path = out_dir / f"{name}-{who}.jsonl"
                if path.exists():
                    results[(name, who)] = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        print(table(results, args.split))
        print(compare(results, args.compare, args.split))
        print_deep(results, args)
        return
    for name in args.sets.split(","):
        questions = part_questions(set_questions(name, args), args.split, args.limit, args.every)
        corpus = set_corpus(name, args)
        runs: list[tuple[str, object]] = []
        if not args.no_baselines:
            runs.append(("hybrid", None))
            if not args.evidence_ratio:
                runs.append(("hand-tuned", IterativeRetrievalPolicy(corpus)))
            for ratio in args.evidence_ratio:
                runs.append((f"hand-tuned-er{ratio:g}",
                             IterativeRetrievalPolicy(corpus, IterativeConfig(evidence_ratio=ratio))))
        if args.prior:
            runs.append(("prior", LearnedSearchPolicy(corpus)))
        for kind in args.prior_start:
            runs.append((f"prior-{kind}", LearnedSearchPolicy(corpus, prior=kind)))
        for kind in args.prior_answer:
            runs.append((f"prior-ans-{kind}", LearnedSearchPolicy(corpus, prior_answer=kind)))
        for weight in args.prior_agreement:
            runs.append((f"prior-a{weight:g}", prior_with_agreement(corpus, weight)))
        for item in args.policy:
            label, _, folder = item.partition("=")
            folder = folder.replace("{set}", name)
            if "warm" in stages and Path(folder, "warm").is_dir():
                runs.append((f"{label}-warm", LearnedSearchPolicy(corpus, Path(folder, "warm"))))
            if "best" in stages and Path(folder, "best").is_dir():
                runs.append((f"{label}-best", LearnedSearchPolicy(corpus, Path(folder, "best"))))
            if "rl" in stages:
                runs.append((f"{label}-rl", LearnedSearchPolicy(corpus, folder)))
        for who, backend in runs:
            t0 = time.perf_counter()
            rows = run_hybrid(corpus, questions) if backend is None else run_agent(who, backend, corpus, questions,
                                                                                  args.workers)
            results[(name, who)] = rows
            with (out_dir / f"{name}-{who}.jsonl").open("w") as f:
                for r in rows:
                    f.write(json.dumps(r) + "\n")
            print(f"[{name} {who}: {len(rows)} questions in {time.perf_counter() - t0:.0f} s]", file=sys.stderr,
                  flush=True)
            print(table({(name, who): rows}, args.split), file=sys.stderr, flush=True)
    print(table(results, args.split))
    if args.compare:
        print(compare(results, args.compare, args.split))
        print_deep(results, args)


def print_deep(results: dict[tuple[str, str], list[dict]], args) -> None:
    """MuSiQue's 3–4-hop questions alone (issue 36: deeper training data must help on them)."""
    musique = {key: rows for key, rows in results.items() if key[0] == "musique"}
    if musique:
        print(compare(musique, args.compare, args.split, only=deep, tag=" 3–4 hops"))


if __name__ == "__main__":
    main()
