"""`context1 train policy INDEX --tasks TASKS --out DIR`: a thin layer over `training.search_policy`."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer


def policy_command(
    index: Annotated[Path, typer.Argument(metavar="INDEX", help="The index the tasks were generated over.")],
    tasks: Annotated[Path, typer.Option(help="Task file (JSONL of Task, e.g. from `context1 datagen`) over that index.")],
    out: Annotated[Path, typer.Option(help="Policy folder (weights, config, report; warm/ and rl/ inside).")],
    rl_steps: Annotated[int, typer.Option(help="CISPO steps after the warm start (0: warm start only; on MuSiQue "
                                          "CISPO gave +0 to -0.8 all-R@10).", min=0)] = 0,
    tasks_per_step: Annotated[int, typer.Option(help="Tasks per CISPO step.", min=1)] = 4,
    group_size: Annotated[int, typer.Option(help="Rollouts per task (SPEC §5: 8).", min=2)] = 8,
    max_tasks: Annotated[int, typer.Option(help="Most tasks used (in hash order); 160 is what every reported "
                                           "figure used.", min=1)] = 160,
    label_tasks: Annotated[
        int, typer.Option(help="Tasks whose candidate queries are all executed for warm-start labels.", min=1)
    ] = 160,
    min_tasks: Annotated[int, typer.Option(help="Fewer usable tasks than this is an error.", min=1)] = 20,
    best_of: Annotated[
        int, typer.Option(help="Rejection sampling after the warm start: N sampled episodes per task, the best "
                          "kept where it beats the greedy one; its query choices fine-tune the query scorer (0: off). "
                          "Written to OUT/best.", min=0)
    ] = 0,
    best_of_tasks: Annotated[int, typer.Option(help="Training tasks sampled for --best-of.", min=1)] = 60,
    scorer: Annotated[str, typer.Option(help="linear, mlp, or auto (the best on held-back tasks, the untrained prior included).")] = "linear",
    doc_anchor: Annotated[
        float, typer.Option(help="Hold the linear answer scorer to the --start prior: weight of the squared distance from it (0: off).",
                            min=0.0)
    ] = 1.0,
    doc_anchor_choices: Annotated[
        str, typer.Option(metavar="W,W,...", help="Choose the answer scorers' anchor among these weights on the "
                          "held-back decisions (ties: the first listed; 0: a free fit), instead of the fixed "
                          "--doc-anchor (session 52). Empty (the default): --doc-anchor, as before.")
    ] = "",
    doc_min_gold: Annotated[
        int, typer.Option(help="Answer decisions only from tasks with at least this many gold documents.", min=1)
    ] = 2,
    agreement_weight: Annotated[
        float, typer.Option(help="Weight of agreement between searches in the relevance the policy reads (the "
                            "hand-tuned answer's and the untrained prior's is 0.05; 0: off). Saved in the policy "
                            "folder.", min=0.0)
    ] = 0.0,
    start: Annotated[
        str, typer.Option(help="The prior the warm start starts from and --doc-anchor holds the answer scorers to: "
                          "auto (chat on a conversation corpus, read from its documents' speaker lines; hand on "
                          "any other), hand (the hand-set scorers) or chat (fit on other chats' generated tasks, "
                          "context1/backends/chat_prior). Saved in run.json.")
    ] = "auto",
    extra_tasks: Annotated[
        list[str] | None, typer.Option(metavar="INDEX=TASKS", help="Another corpus's index and a task file over it, "
                                       "whose answer decisions join the warm start (deep chains the main corpus "
                                       "lacks); repeatable.")
    ] = None,
    start_check: Annotated[
        bool, typer.Option("--start-check/--no-start-check",
                           help="After training, run the start and the trained policy on the held-back tasks and "
                           "ship the start where the trained one's passage R@5 there is below it, saying so "
                           "(issue 34: never a policy below its start; on HotpotQA's tuning run it kept the "
                           "trained policy, 4 won / 0 lost on 28 held-back tasks). --no-start-check: as before "
                           "session 51, unchecked.")
    ] = True,
    prior_config: Annotated[
        bool, typer.Option("--prior-config/--bare-config",
                           help="The trained policy's knobs (policy.json's config) are the untrained prior's "
                           "(`LearnedConfig()`), --agreement-weight apart, so the trained and prior rows differ in "
                           "their weights only (session 52). --bare-config: before session 52, a bare "
                           "IterativeConfig's rules (conversation_first_search 'speakers', which the learned answer "
                           "never reads: the same rankings, another policy.json and run.json).")
    ] = True,
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Start over instead of resuming what OUT already holds (resuming a "
                           "folder made with other flags is an error).")
    ] = False,
    threads: Annotated[int | None, typer.Option(help="torch CPU threads.", min=1, show_default="torch's own")] = None,
    seed: Annotated[int, typer.Option(help="Seed of task sampling and rollouts.")] = 0,
) -> None:
    """Train the learned search policy (a scorer over candidate actions) from tasks over INDEX.

    The defaults (--scorer linear --doc-anchor 1.0 --doc-min-gold 2 --rl-steps 0 --max-tasks 160
    --label-tasks 160) are the configuration chosen on MuSiQue's tuning questions and measured (issue 22).
    Exits non-zero, saying why, when the run would learn nothing (the prior, untrained) or when OUT
    holds a run made with other flags (--fresh starts over). With --start-check (the default) a trained
    policy whose passage R@5 on the held-back tasks is below its start's is not shipped: the start is, and
    the run says so.
    """
    from training.cli_common import CommandError, _clean_errors, _open, _tasks

    with _clean_errors():
        import torch

        from context1.backends.iterative import IterativeConfig
        from context1.backends.learned import PRIORS, LearnedConfig, resolve_prior
        from training.search_policy import SearchPolicyTrainConfig, train_search_policy

        if scorer not in ("linear", "mlp", "auto"):
            raise CommandError(f"--scorer {scorer!r}: choose linear, mlp or auto")
        if start not in PRIORS:
            raise CommandError(f"--start {start!r}: choose {', '.join(PRIORS)}")
        anchors = _anchors(doc_anchor_choices)
        if threads:
            torch.set_num_threads(threads)
        corpus = _open(index)
        prior = resolve_prior(start, corpus)
        typer.echo(f"start: the {prior} prior" + (f" (auto: {'a' if prior == 'chat' else 'no'} conversation corpus)"
                                                  if start == "auto" else ""))
        extra = [_extra(spec) for spec in extra_tasks or ()]
        iterative = (dataclasses.replace(LearnedConfig().iterative, agreement_weight=agreement_weight) if prior_config
                     else IterativeConfig(agreement_weight=agreement_weight, link_name_share=0.0,
                                          first_search_links=0, first_search_floor=0.0))
        config = dataclasses.replace(
            SearchPolicyTrainConfig(), rl_steps=rl_steps, tasks_per_step=tasks_per_step, group_size=group_size,
            max_tasks=max_tasks, label_tasks=label_tasks, min_tasks=min_tasks, scorer=scorer, seed=seed,
            best_of=best_of, best_of_tasks=best_of_tasks, doc_anchor=doc_anchor,
            doc_min_gold=doc_min_gold, doc_anchor_choices=anchors, start=start, start_check=start_check,
            learned=LearnedConfig(iterative=iterative),
        )
        report = train_search_policy(corpus, _tasks(tasks, None), out, config, resume=not fresh,
                                     log=lambda m: typer.echo(m, err=True), extra=extra)
        last = report.rl[-1] if report.rl else {}
        typer.echo(f"trained on {report.tasks} tasks ({report.skipped_gold_missing} skipped: gold not in the index); "
                   f"{len(report.rl)} CISPO steps, last reward {last.get('reward', float('nan')):.3f}; "
                   f"{report.seconds:.0f} s this run")
        if report.start_check is not None:
            typer.echo(f"start check: {report.start_check['why']}")
        typer.echo(f"wrote {out}; use it with: context1 ask {index} QUESTION --backend learned --policy {out}")


def _anchors(spec: str) -> tuple[float, ...]:
    """--doc-anchor-choices "1,0.3,0.1" as (1.0, 0.3, 0.1); "" as () (off). A word, a negative or a repeated weight is
    an error naming it."""
    from training.cli_common import CommandError

    out: list[float] = []
    for part in (p.strip() for p in spec.split(",") if spec.strip()):
        try:
            w = float(part)
        except ValueError:
            raise CommandError(f"--doc-anchor-choices {spec!r}: {part!r} is not a number") from None
        if not w >= 0 or w == float("inf"):
            raise CommandError(f"--doc-anchor-choices {spec!r}: {part!r} is not a weight >= 0")
        if w in out:
            raise CommandError(f"--doc-anchor-choices {spec!r}: {part!r} is given twice")
        out.append(w)
    return tuple(out)


def _extra(spec: str):  # noqa: ANN202
    """--extra-tasks INDEX=TASKS as `ExtraTasks` (its index opened, its tasks read)."""
    from training.cli_common import _extra_spec, _open, _tasks
    from training.search_policy import ExtraTasks

    index, tasks = _extra_spec(spec)
    return ExtraTasks(_open(index), _tasks(tasks, None))


def register(train_app: typer.Typer) -> None:
    """Add `policy` to the `train` command group."""
    train_app.command("policy")(policy_command)
