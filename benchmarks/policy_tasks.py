"""Training tasks for the learned search policy from a dev set's *tuning* part (issue 34).

    python benchmarks/policy_tasks.py --set hotpotqa --out RUN/hotpotqa-tuning.jsonl [--extra GEN.jsonl]

`context1 train policy INDEX --tasks FILE` then trains on questions the reporting parts never hold:
HotpotQA 1-150 and MuSiQue 1-120 (benchmarks/agent_llm_free.py's tuning parts) and LoCoMo's
questions after the first 400 with evidence (benchmarks/agent_passages.py's tuning part; the first
400 are the reporting part of both benchmarks). These tasks name gold documents, not chunks, so
every chunk of a gold document is a gold passage (`training.search_policy.gold_chunks`); `--extra`
appends generated tasks (datagen), which carry their supporting chunks and extra positives.
A task whose id is in a reporting part is an error, so no reporting question can be trained on.

`--hold-out N` leaves the tuning part's first N questions out of training, so a policy trained on the rest
can be measured on them out of sample: `search_policy.py --split tuning --limit N` runs exactly those N
(session 36); `--max-tuning M` keeps at most M of the tuning questions after them (LoCoMo's is ~600).
A generated task asking a held-out question word for word is dropped with the reporting ones.

`--chain-leaks K` (with `--drop-leaks`; session 48) also drops a generated task whose chain shares K or more gold
documents with one reporting (or held-out) question (MuSiQue's 3–4-hop reporting questions are chains of the same paragraphs
datagen chains: trained on, such a task teaches the reporting question's path). Only the reporting questions'
gold document ids are read for it. 0 (default): the rule is off, the file as before.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

TUNING = {"hotpotqa": 150, "musique": 120}  # agent_llm_free.SPLITS: the first N are the tuning part
LOCOMO_REPORT = 400  # the first 400 LoCoMo questions with evidence are the reporting part


def parts(name: str, data_dir: Path) -> tuple[list, list]:
    """(tuning, reporting) tasks of a dev set, with gold documents."""
    from eval.loaders import load_benchmark

    tasks = [t for t in load_benchmark(name, data_dir).tasks if t.gold_doc_ids]
    if name == "locomo":
        return tasks[LOCOMO_REPORT:], tasks[:LOCOMO_REPORT]
    return tasks[: TUNING[name]], tasks[TUNING[name]:]


def main() -> None:
    from eval.loaders.tasks import load_tasks, save_tasks

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--set", required=True, choices=["hotpotqa", "musique", "locomo"])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--data-dir", type=Path, default=Path("/work/shared/data"))
    parser.add_argument("--extra", type=Path, action="append", default=[], help="generated task files to append")
    parser.add_argument("--no-tuning", action="store_true",
                        help="generated tasks only (what a user has): the tuning part is left out")
    parser.add_argument("--drop-leaks", action="store_true",
                        help="drop generated tasks that ask a reporting question word for word (LoCoMo's "
                             "generator writes some) instead of refusing to write the file")
    parser.add_argument("--chain-leaks", type=int, default=0, metavar="K",
                        help="with --drop-leaks: also drop generated tasks sharing K or more gold documents with "
                             "one reporting question (2 for MuSiQue; 0 = off)")
    parser.add_argument("--hold-out", type=int, default=0, metavar="N",
                        help="leave the tuning part's first N questions out (measure on them with "
                             "search_policy.py --split tuning --limit N)")
    parser.add_argument("--max-tuning", type=int, default=0, metavar="M",
                        help="at most M tuning questions after the held-out ones (0 = all)")
    args = parser.parse_args()
    if args.hold_out < 0 or args.max_tuning < 0:
        parser.error("--hold-out and --max-tuning are 0 or more")
    tuning, report = parts(args.set, args.data_dir)
    if args.hold_out >= len(tuning) and not args.no_tuning:
        parser.error(f"--hold-out {args.hold_out}: {args.set}'s tuning part has {len(tuning)} questions; "
                     "none would be left to train on")
    held, kept = tuning[: args.hold_out], tuning[args.hold_out:]
    kept = kept[: args.max_tuning] if args.max_tuning else kept
    tasks = [] if args.no_tuning else list(kept)
    for path in args.extra:
        # an empty file is no JSON to load_tasks (an error naming the file); here it is a run that wrote no task
        more = [] if path.is_file() and not path.read_text(encoding="utf-8").strip() else list(load_tasks(path).tasks)
        if not more:  # an empty datagen run: training goes on without generated tasks, which the user is told
            print(f"note: {path} holds no task; nothing generated is added", file=sys.stderr)
        tasks += more
    held_ids = {t.task_id for t in held} | {t.query.strip().lower() for t in held}
    tasks = [t for t in tasks if t.task_id not in held_ids and t.query.strip().lower() not in held_ids]
    reporting = {t.task_id for t in report} | {t.query.strip().lower() for t in report}
    leaked = [t for t in tasks if t.task_id in reporting or t.query.strip().lower() in reporting]
    if leaked and not args.drop_leaks:
        raise SystemExit(f"{len(leaked)} task(s) are reporting-part questions (first: {leaked[0].task_id}: "
                         f"{leaked[0].query!r}); not written (--drop-leaks leaves them out)")
    tasks = [t for t in tasks if t not in leaked]
    # a held-out tuning question is measured on as a reporting one is: its chain is no training data either
    chained = chain_leaks(tasks, [*report, *held], args.chain_leaks) if args.chain_leaks else []
    if chained and not args.drop_leaks:
        raise SystemExit(f"{len(chained)} task(s) share {args.chain_leaks}+ gold documents with a reporting question "
                         f"(first: {chained[0].task_id}); not written (--drop-leaks leaves them out)")
    tasks = [t for t in tasks if t not in chained]
    n = save_tasks(tasks, args.out)
    chain_note = (f"; {len(chained)} sharing {args.chain_leaks}+ gold documents with a reporting or held-out one dropped"
                  if args.chain_leaks else "")
    print(f"{n} tasks ({0 if args.no_tuning else len(kept)} from {args.set}'s tuning part, its first "
          f"{len(held)} held out; {len(leaked)} asking a reporting question dropped{chain_note}) -> {args.out}")


def chain_leaks(tasks: list, report: list, k: int) -> list:
    """The generated tasks (source "datagen…") whose gold documents include k or more of one reporting question's
    gold documents: their chain is that question's chain, or most of it."""
    golds = [set(t.gold_doc_ids) for t in report if len(t.gold_doc_ids) >= k]
    return [t for t in tasks if str(t.source or "").startswith("datagen")
            and any(len(g & set(t.gold_doc_ids)) >= k for g in golds)]


if __name__ == "__main__":
    main()
