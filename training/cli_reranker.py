"""`context1 train reranker INDEX --tasks PATH --out DIR [--kind fusion|cross-encoder]`: a thin layer over
`training.fusion.fit_fusion` and `training.reranker.train_reranker`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def reranker_command(
    index: Annotated[
        Path, typer.Argument(metavar="INDEX", help="The index the tasks were generated over (hard negatives come from it).")
    ],
    tasks: Annotated[Path, typer.Option(help="Task file (JSONL of Task, or a saved dataset) over that index.")],
    out: Annotated[Path, typer.Option(help="Folder for the trained reranker (replaced if it exists).")],
    kind: Annotated[
        str,
        typer.Option(
            help="'fusion': a linear fusion of the BM25 and dense legs, fitted in minutes, microseconds per search; "
            "'cross-encoder': a MiniLM cross-encoder (slow on CPU; lost to the fused order on every dev corpus). "
            "The cross-encoder options below apply to 'cross-encoder' only.",
        ),
    ] = "fusion",
    negatives: Annotated[int, typer.Option(help="Hard negatives per positive.", min=1)] = 3,
    max_minutes: Annotated[
        float, typer.Option(help="Stop training after this many minutes (best weights kept).")
    ] = 15.0,
    max_steps: Annotated[int | None, typer.Option(help="Stop after this many optimiser steps.", min=1)] = None,
    epochs: Annotated[float, typer.Option(help="Passes over the training groups.")] = 3.0,
    max_length: Annotated[int, typer.Option(help="Query + chunk tokens while training.", min=16)] = 128,
    batch_groups: Annotated[int, typer.Option(help="Groups (1 positive + negatives) per step.", min=1)] = 8,
    lr: Annotated[float, typer.Option(help="AdamW learning rate.")] = 6e-5,
    val_fraction: Annotated[float, typer.Option(help="Share of tasks held back for validation.")] = 0.1,
    eval_every: Annotated[int, typer.Option(help="Steps between validations.", min=1)] = 60,
    max_val_groups: Annotated[int, typer.Option(help="Validation groups scored at each evaluation.", min=1)] = 120,
    patience: Annotated[int, typer.Option(help="Validations without gain before stopping early.", min=1)] = 5,
    base_model: Annotated[
        Path | None, typer.Option(help="Local model folder to start from.", show_default="the packaged all-MiniLM-L6-v2")
    ] = None,
    no_hops: Annotated[bool, typer.Option("--no-hops", help="Train on task queries only, not on each clue.")] = False,
    head: Annotated[
        str, typer.Option(help="Score head: 'mean' (mean of token states) or 'cls' ([CLS] classifier).")
    ] = "mean",
    layers: Annotated[
        int | None,
        typer.Option(help="Keep only the encoder's first N layers (3 of MiniLM's 6 rerank twice as fast).", min=1),
    ] = 3,
    ict_probability: Annotated[
        float,
        typer.Option(
            help="Chance of removing a copied query's source sentence from its positive (inverse cloze; "
            "cloze tasks and sentence windows only, never a written question)."
        ),
    ] = 1.0,
    keep_masks: Annotated[
        bool, typer.Option("--keep-masks", help="Train on fill-the-blank queries as written (no question rewrite).")
    ] = False,
    threads: Annotated[int | None, typer.Option(help="torch CPU threads.", min=1)] = None,
    device: Annotated[
        str | None, typer.Option(help="cpu, cuda, cuda:1; CUDA trains in bf16.", show_default="cuda if available, else cpu")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of sampling, splitting and initialisation.")] = 0,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="Hide the progress bars.")] = False,
    extra_tasks: Annotated[
        list[str] | None, typer.Option(metavar="INDEX=TASKS", help="Another corpus's index and a task file over it, "
                                       "whose queries join the fit (fusion only); repeatable.")
    ] = None,
) -> None:
    """Train a reranker on generated tasks over INDEX; write it to OUT (use it with `--reranker OUT`)."""
    from context1.interfaces.cli_corpus import CommandError, _clean_errors

    with _clean_errors():
        if kind not in ("fusion", "cross-encoder"):
            raise CommandError(f"--kind must be 'fusion' or 'cross-encoder', got {kind!r}")
        if not tasks.exists():
            raise CommandError(f"no such task file: {str(tasks)!r} (make one with `context1 datagen INDEX OUT`)")
        if out.exists() and not out.is_dir():
            raise CommandError(f"{str(out)!r} is a file; give a folder for the reranker")
        if extra_tasks and kind != "fusion":
            raise CommandError("--extra-tasks is read by --kind fusion only")
        if kind == "fusion":
            from eval.loaders import load_tasks
            from training.cli_common import _extra_spec

            extra = [(i, list(load_tasks(t).tasks)) for i, t in map(_extra_spec, extra_tasks or ())]
            _fit_fusion(index, tasks, out, use_hops=not no_hops, val_fraction=val_fraction, seed=seed,
                        progress=not no_progress, extra=extra)
            return
        from training.reranker import RerankerTrainConfig, train_reranker

        if base_model is not None and not base_model.is_dir():
            raise CommandError(f"no model folder at {str(base_model)!r} (context1 never downloads models)")
        config = RerankerTrainConfig(
            base_model=str(base_model) if base_model else None,
            head=head,
            layers=layers,
            ict_probability=ict_probability,
            questions=not keep_masks,
            negatives=negatives,
            depth=max(30, negatives),
            use_hops=not no_hops,
            max_length=max_length,
            batch_groups=batch_groups,
            lr=lr,
            epochs=epochs,
            max_steps=max_steps,
            max_minutes=max_minutes,
            val_fraction=val_fraction,
            eval_every=eval_every,
            max_val_groups=max_val_groups,
            patience=patience,
            seed=seed,
            threads=threads,
            device=device,
        )
        report = train_reranker(
            index, tasks, out, config, progress=not no_progress, log=lambda m: typer.echo(m, err=True)
        )
        before, after = report.val_mrr[0][1], report.best_val_mrr
        typer.echo(
            f"trained on {report.train_groups:,} groups ({report.pairs_seen:,} pairs, {report.pairs_per_second:.1f} pairs/s, "
            f"{report.train_seconds:.0f} s; {report.stopped}); validation MRR {before:.3f} -> {after:.3f} "
            f"on {report.val_groups:,} held-back groups"
        )
        typer.echo(f"wrote {out}; use it with: context1 index SOURCE DIR --reranker {out}")


def register(train_app: typer.Typer) -> None:
    """Add `reranker` to the `train` command group."""
    train_app.command("reranker")(reranker_command)


def _fit_fusion(index: Path, tasks: Path, out: Path, **options: object) -> None:
    from eval.loaders import load_tasks
    from training.fusion import fit_fusion

    report = fit_fusion(index, list(load_tasks(tasks).tasks), out, log=lambda m: typer.echo(m, err=True), **options)[1]
    typer.echo(
        f"fitted a learned fusion on {report.train_queries:,} queries from {report.tasks:,} tasks "
        f"({report.seconds:.0f} s); held-back MRR {report.mrr_rrf:.3f} (RRF), {report.mrr_search:.3f} (the index's "
        f"search) -> {report.mrr_fitted:.3f} "
        f"on {report.val_queries:,} queries; weights " + ", ".join(f"{k} {v:+.2f}" for k, v in report.weights.items())
    )
    typer.echo(f"wrote {out}; use it with: context1 index SOURCE DIR --reranker {out}")
